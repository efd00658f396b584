/* cli_spmm_plugin.c - an SpMM plugin entry run in its worker and judged by
 * the built-ins' oracle (fp64) or the fp32 checker (cli_spmm_plugin.h). */
#include "cli_spmm_plugin.h"

#include <string.h>

#include "check_fill.h"
#include "cli_stress.h"
#include "pc_alloc.h"
#include "pc_npy.h"
#include "spmm/spmm_check.h"

/* The 8-byte pattern the worker writes over Y first: the oracle's poison
 * for double Y, the checker's fp32 poison twice for float Y (both judged
 * "never written"). */
static uint64_t spmm_plugin_fill(unsigned flags)
{
    if (flags & PARCHECK_F_FP32)
        return (uint64_t)SPMM_CHECK_POISON32 << 32 | SPMM_CHECK_POISON32;
    double d;
    uint64_t u;
    spmm_oracle_poison(&d, 1);
    memcpy(&u, &d, sizeof u);
    return u;
}

/* A in the format e reads, with X, as the runner's input. Returns 0,
 * PC_ERANGE (the format cannot hold A: skipped, as for built-ins) or
 * another error from building the format. */
static int spmm_plugin_input(const plugin_entry *e, spmm_matrix *A, const double *X, int K,
                             int threads, plugin_spmm_in *in, pc_error *err)
{
    int ell = (e->flags & PARCHECK_F_ELL) != 0;
    int rc = spmm_matrix_need(A, ell ? SPMM_FMT_ELL : SPMM_FMT_CSR, threads, err);
    if (rc)
        return rc;
    *in = (plugin_spmm_in){.m = A->coo->rows, .n = A->coo->cols, .K = K, .nnz = A->coo->nnz,
                           .X = X};
    if (ell) {
        in->width = A->ell.maxnz;
        in->ell_ja = A->ell.ja;
        in->ell_as = A->ell.as;
        in->rowlen = A->ell.rowlen;
    } else {
        in->irp = A->csr.irp;
        in->ja = A->csr.ja;
        in->as = A->csr.as;
    }
    return PC_OK;
}

/* What a judged Y came to. */
typedef struct spmm_plugin_verdict {
    int pass;
    long long bad;
    char why[256];
} spmm_plugin_verdict;

void cli_spmm_verdict_metrics(pc_result *r, const spmm_verdict *v, const spmm_oracle *orc)
{
    pc_kv_num(&r->metrics, "max_rel_err", v->max_rel_err);
    pc_kv_num(&r->metrics, "mean_rel_err", v->mean_rel_err);
    pc_kv_num(&r->metrics, "max_err_over_bound", v->max_err_over_bound);
    pc_kv_num(&r->metrics, "unit_roundoff", v->unit_roundoff);
    pc_kv_int(&r->metrics, "entries_checked", v->checked);
    pc_kv_bool(&r->metrics, "exact_required", orc->exact);
}

/* spmm_check of Y (double or float, m x K row-major) at precision against
 * the row-sorted COO entries of A (the matrix itself, not the format an
 * implementation read) and the double X. Returns 0, PC_ENOMEM or
 * PC_EINVAL with err. */
static int check_coo(const mm_coo *coo, const double *X, int K, int threads, const void *Y,
                     int precision, spmm_check_report *rep, pc_error *err)
{
    int64_t *rowptr = pc_calloc((size_t)coo->rows + 1, sizeof *rowptr);
    if (!rowptr)
        return pc_error_nomem(err, "the check's row pointers");
    for (int64_t e = 0; e < coo->nnz; e++)
        rowptr[coo->row[e] + 1]++;
    for (int32_t i = 0; i < coo->rows; i++)
        rowptr[i + 1] += rowptr[i];
    spmm_check_csr csr = {coo->rows, coo->cols, rowptr, coo->col, coo->val};
    spmm_check_dense xd = {X, SPMM_CHECK_F64, SPMM_CHECK_ROW_MAJOR, K};
    spmm_check_dense yd = {Y, precision == SPMM_CHECK_FP32 ? SPMM_CHECK_F32 : SPMM_CHECK_F64,
                           SPMM_CHECK_ROW_MAJOR, K};
    int rc = spmm_check(&csr, &xd, &yd, K, precision, threads, rep, err);
    pc_free(rowptr);
    return rc;
}

void cli_spmm_locate(pc_result *r, const mm_coo *coo, const double *X, int K, int threads,
                     const double *Y)
{
    spmm_check_report rep;
    pc_result *tmp = pc_malloc(sizeof *tmp);
    if (!tmp || check_coo(coo, X, K, threads, Y, SPMM_CHECK_FP64, &rep, NULL) != PC_OK) {
        pc_free(tmp);
        return;
    }
    pc_result_init(tmp, r->impl);
    check_fill_spmm(tmp, &rep);
    r->nwhere = tmp->nwhere;
    memcpy(r->where, tmp->where, sizeof r->where);
    snprintf(r->where_summary, sizeof r->where_summary, "%s", tmp->where_summary);
    pc_free(tmp);
}

/* fp64: the built-ins' check (spmm_oracle_check) and metrics; a failure
 * is located by cli_spmm_locate. */
static void judge_fp64(const spmm_matrix *A, const spmm_oracle *orc, const double *X, int K,
                       int threads, const double *Y, pc_result *r, spmm_plugin_verdict *pv)
{
    spmm_verdict v;
    spmm_oracle_check(orc, Y, &v);
    cli_spmm_verdict_metrics(r, &v, orc);
    r->nwhere = 0; /* a second judgement (PARCHECK_F_VARIES) replaces the first's */
    r->where_summary[0] = '\0';
    if (!v.pass)
        cli_spmm_locate(r, A->coo, X, K, threads, Y);
    pv->pass = v.pass;
    pv->bad = (long long)v.bad;
    snprintf(pv->why, sizeof pv->why, "%s", v.why);
}

/* fp32: spmm_check at fp32 precision, its report filled in as `spmm
 * check` fills it (metrics, the first failures as "where" records).
 * Returns 0, PC_ENOMEM or PC_EINVAL with err. */
static int judge_fp32(const spmm_matrix *A, const double *X, int K, int threads, const float *Y,
                      pc_result *r, spmm_plugin_verdict *pv, pc_error *err)
{
    spmm_check_report rep;
    int rc = check_coo(A->coo, X, K, threads, Y, SPMM_CHECK_FP32, &rep, err);
    if (rc)
        return rc;
    r->nwhere = 0; /* a second judgement (PARCHECK_F_VARIES) replaces the first's */
    r->where_summary[0] = '\0';
    check_fill_spmm(r, &rep);
    pc_kv_str(&r->metrics, "precision", "fp32");
    pv->pass = rep.pass;
    pv->bad = (long long)rep.bad;
    snprintf(pv->why, sizeof pv->why, "%s", rep.why);
    return PC_OK;
}

/* Judges one Y of the entry (double, or float with PARCHECK_F_FP32). */
static int judge_y(const plugin_entry *e, const spmm_matrix *A, const spmm_oracle *orc,
                   const double *X, int K, int threads, const void *Y, pc_result *r,
                   spmm_plugin_verdict *pv, pc_error *err)
{
    if (e->flags & PARCHECK_F_FP32)
        return judge_fp32(A, X, K, threads, Y, r, pv, err);
    judge_fp64(A, orc, X, K, threads, Y, r, pv);
    return PC_OK;
}

int cli_spmm_plugin_run(const plugin_entry *e, plugin_opts *po, spmm_matrix *A,
                        const spmm_oracle *orc, const double *X, int K, int judge,
                        const char **out_y, pc_result *r, int *skipped)
{
    pc_error err;
    pc_error_clear(&err);
    cli_plugin_result_init(r, e);
    plugin_spmm_in in;
    int rc = spmm_plugin_input(e, A, X, K, po->threads, &in, &err);
    if (rc) {
        if (rc == PC_ERANGE)
            *skipped = 1;
        pc_result_status(r, rc == PC_ERANGE ? PC_STATUS_SKIPPED : PC_STATUS_ERROR, "%s", err.msg);
        return 0;
    }
    po->fill = spmm_plugin_fill(e->flags);
    plugin_outcome out;
    rc = plugin_run_spmm(e, &in, po, &out, &err);
    if (!cli_plugin_outcome(r, rc, &err, &out, skipped)) {
        plugin_outcome_free(&out);
        return 0;
    }
    int fp32 = (e->flags & PARCHECK_F_FP32) != 0;
    double nnz = (double)A->coo->nnz;
    r->throughput = r->seconds > 0 ? 2.0 * nnz * K / r->seconds * 1e-9 : 0.0;
    snprintf(r->unit, sizeof r->unit, "GFLOP/s");
    if (!fp32) /* the built-ins' model (fp64): the format, X and Y; none for fp32 */
        r->model_bytes = (e->flags & PARCHECK_F_ELL ? spmm_ell_bytes(&A->ell)
                                                    : spmm_csr_bytes(&A->csr)) +
                         8LL * ((long long)A->coo->cols + A->coo->rows) * K;
    pc_kv_int(&r->timings, "threads", po->threads);
    spmm_plugin_verdict v = {1, 0, ""};
    int stable = out.repeatable;
    rc = PC_OK;
    if (out_y && *out_y) {
        int64_t shape[2] = {A->coo->rows, K};
        rc = pc_npy_write(*out_y, fp32 ? PC_DTYPE_F4 : PC_DTYPE_F8, 0, 2, shape, out.first[0], &err);
        *out_y = NULL; /* written once, by the first implementation that ran */
    }
    cli_stress_note_output(out.first[0], (size_t)A->coo->rows * (size_t)K * (fp32 ? 4 : 8));
    if (rc == PC_OK && !judge) {
        stable = stable || (e->flags & PARCHECK_F_VARIES);
    } else if (rc == PC_OK) {
        rc = judge_y(e, A, orc, X, K, po->threads, out.first[0], r, &v, &err);
        if (rc == PC_OK && !stable && (e->flags & PARCHECK_F_VARIES)) {
            /* Not reproducible by design: the last run must pass on its own. */
            spmm_plugin_verdict last;
            pc_result scratch = *r;
            rc = judge_y(e, A, orc, X, K, po->threads, out.last[0], &scratch, &last, &err);
            stable = last.pass;
            if (rc == PC_OK && !last.pass && v.pass) {
                *r = scratch;
                v = last;
            }
        } else if (rc == PC_OK && !stable && v.pass) {
            /* The repeats differ: the last run's Y is judged too, so that
             * when it is the wrong one (a race) its entries are located. */
            spmm_plugin_verdict last;
            pc_result *scratch = pc_malloc(sizeof *scratch);
            if (scratch) {
                *scratch = *r;
                rc = judge_y(e, A, orc, X, K, po->threads, out.last[0], scratch, &last, &err);
                if (rc == PC_OK && !last.pass) {
                    *r = *scratch;
                    v = last;
                }
                pc_free(scratch);
            }
        }
    }
    if (!out.repeatable)
        pc_kv_bool(&r->metrics, "bitwise_repeatable", 0);
    plugin_outcome_free(&out);
    if (rc)
        pc_result_status(r, PC_STATUS_ERROR, "%s", err.msg);
    else if (!v.pass)
        pc_result_status(r, PC_STATUS_FAIL, "%s (%lld bad entries)", v.why, v.bad);
    else if (!stable)
        pc_result_status(r, PC_STATUS_FAIL, "result changed between repeated runs");
    else
        r->status = PC_STATUS_PASS;
    return r->status == PC_STATUS_PASS;
}
