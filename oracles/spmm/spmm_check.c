/* spmm_check.c - the SpMM checker's driver: argument checks, the X copy,
 * the R6 test, row blocks run in parallel, and the report (spmm_check.h). */
#include "spmm/spmm_check.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "pc_alloc.h"
#include "spmm/spmm_check_priv.h"

/* About this many entries (nnz + rows, times K) per block: enough work to
 * hide the scheduling, small enough to balance two threads on any shape. */
#define CHK_BLOCK_WORK ((int64_t)1 << 18)
#define CHK_BLOCKS_MAX 4096
/* Below this many rows the pass stays on one thread. */
#define CHK_PAR_MIN_ROWS 4096

void spmm_check_poison(void *Y, int dtype, int64_t len)
{
    for (int64_t i = 0; i < len; i++) {
        if (dtype == SPMM_CHECK_F32)
            memcpy((float *)Y + i, &(uint32_t){SPMM_CHECK_POISON32}, sizeof(float));
        else
            memcpy((double *)Y + i, &(uint64_t){SPMM_CHECK_POISON64}, sizeof(double));
    }
}

/* Checks a dense descriptor of rows x K. */
static int check_dense(const char *what, const spmm_check_dense *D, int64_t rows, int K,
                       pc_error *err)
{
    if (D->dtype != SPMM_CHECK_F64 && D->dtype != SPMM_CHECK_F32)
        return pc_error_set(err, PC_EINVAL, NULL, 0, "spmm_check: %s has an unknown dtype", what);
    if (D->layout != SPMM_CHECK_ROW_MAJOR && D->layout != SPMM_CHECK_COL_MAJOR)
        return pc_error_set(err, PC_EINVAL, NULL, 0, "spmm_check: %s has an unknown layout", what);
    if (rows == 0)
        return PC_OK;
    int64_t inner = D->layout == SPMM_CHECK_ROW_MAJOR ? K : rows;
    int64_t outer = D->layout == SPMM_CHECK_ROW_MAJOR ? rows : K;
    if (!D->data || D->ld < inner)
        return pc_error_set(err, PC_EINVAL, NULL, 0,
                            "spmm_check: %s is NULL or its leading dimension %lld is below %lld",
                            what, (long long)D->ld, (long long)inner);
    if (D->ld > INT64_MAX / 8 / outer)
        return pc_error_set(err, PC_EINVAL, NULL, 0, "spmm_check: %s is too large to address", what);
    return PC_OK;
}

static int check_csr(const spmm_check_csr *A, pc_error *err)
{
    if (A->m < 0 || A->n < 0 || !A->rowptr)
        return pc_error_set(err, PC_EINVAL, NULL, 0, "spmm_check: A has a negative shape or no row pointers");
    if (A->rowptr[0] != 0)
        return pc_error_set(err, PC_EINVAL, NULL, 0, "spmm_check: A's rowptr[0] is %lld, not 0",
                            (long long)A->rowptr[0]);
    for (int32_t i = 0; i < A->m; i++)
        if (A->rowptr[i + 1] < A->rowptr[i] || A->rowptr[i + 1] - A->rowptr[i] > INT32_MAX)
            return pc_error_set(err, PC_EINVAL, NULL, 0,
                                "spmm_check: A's rowptr decreases (or a row passes 2^31 entries) at row %d",
                                (int)i);
    if (A->rowptr[A->m] > 0 && (!A->col || !A->val))
        return pc_error_set(err, PC_EINVAL, NULL, 0, "spmm_check: A has entries but no col or val");
    return PC_OK;
}

/* X as the passes read it: row-major doubles, rounded to float for fp32
 * (R7). *copy receives what to free (NULL when X is used in place). */
static int prepare_x(const spmm_check_dense *X, int32_t n, int K, int fp32, chk_ctx *c,
                     double **copy, pc_error *err)
{
    *copy = NULL;
    if (!fp32 && X->dtype == SPMM_CHECK_F64 && X->layout == SPMM_CHECK_ROW_MAJOR) {
        c->X = X->data;
        c->ldx = X->ld;
        return PC_OK;
    }
    size_t len = (size_t)n * (size_t)K;
    double *x = pc_malloc_array(len ? len : 1, sizeof *x);
    if (!x)
        return pc_error_nomem(err, "copying X for the SpMM check");
    for (int64_t j = 0; j < n; j++)
        for (int k = 0; k < K; k++) {
            int64_t at = X->layout == SPMM_CHECK_ROW_MAJOR ? j * X->ld + k : j + (int64_t)k * X->ld;
            double v = X->dtype == SPMM_CHECK_F64 ? ((const double *)X->data)[at]
                                                  : (double)((const float *)X->data)[at];
            x[j * K + k] = fp32 ? (double)(float)v : v;
        }
    c->X = x;
    c->ldx = K;
    *copy = x;
    return PC_OK;
}

static int is_int_within(double v, double limit)
{
    return isfinite(v) && v == floor(v) && fabs(v) <= limit;
}

/* R6 on the values: every A and X value (as judged) an integer within the
 * limit. The sums are tested by the pass itself (exact_broken). */
static int values_are_integers(const chk_ctx *c)
{
    for (int64_t j = 0; j < c->n; j++)
        for (int k = 0; k < c->K; k++)
            if (!is_int_within(c->X[j * c->ldx + k], c->exact_limit))
                return 0;
    for (int64_t p = 0; p < c->rowptr[c->m]; p++) {
        double a = c->fp32 ? (double)(float)c->val[p] : c->val[p];
        if (!is_int_within(a, c->exact_limit))
            return 0;
    }
    return 1;
}

/* Splits the rows into blocks of about CHK_BLOCK_WORK entries; the split
 * depends on the matrix and K only. */
static int make_blocks(const chk_ctx *c, chk_block **out, int *count, pc_error *err)
{
    int64_t total = c->rowptr[c->m] + c->m;
    int64_t want = total / (CHK_BLOCK_WORK / c->K > 0 ? CHK_BLOCK_WORK / c->K : 1);
    int nb = (int)(want < 1 ? 1 : want > CHK_BLOCKS_MAX ? CHK_BLOCKS_MAX : want);
    if (nb > c->m)
        nb = c->m > 0 ? c->m : 1;
    chk_block *B = pc_calloc((size_t)nb, sizeof *B);
    if (!B)
        return pc_error_nomem(err, "allocating the SpMM check's blocks");
    int64_t row = 0;
    for (int b = 0; b < nb; b++) {
        /* first row whose prefix work reaches (b + 1) / nb of the total */
        int64_t goal = b + 1 == nb ? total + 1 : total * (b + 1) / nb;
        int64_t lo = row, hi = c->m;
        while (lo < hi) {
            int64_t mid = lo + (hi - lo) / 2;
            if (c->rowptr[mid] + mid >= goal)
                hi = mid;
            else
                lo = mid + 1;
        }
        B[b].row0 = row;
        B[b].row1 = b + 1 == nb ? c->m : lo;
        row = B[b].row1;
    }
    *out = B;
    *count = nb;
    return PC_OK;
}

static void block_reset(chk_block *B)
{
    int64_t r0 = B->row0, r1 = B->row1;
    memset(B, 0, sizeof *B);
    B->row0 = r0;
    B->row1 = r1;
    B->last_bad_row = -1;
    B->bad_col_row = -1;
}

static void run_blocks(const chk_ctx *c, chk_block *B, int nb, int threads)
{
    (void)threads; /* read only by OpenMP pragmas: unused without OpenMP */
    for (int b = 0; b < nb; b++)
        block_reset(&B[b]);
#pragma omp parallel for num_threads(threads) if (threads > 1 && nb > 1 && c->m >= CHK_PAR_MIN_ROWS) \
    schedule(dynamic, 1)
    for (int b = 0; b < nb; b++)
        chk_fast_block(c, &B[b]);
}

/* Adds failing row i to a range list of at most CHK_KEEP_RANGES. */
static void ranges_add(int64_t (*range)[2], int *nranges, int64_t first, int64_t last)
{
    if (*nranges > 0 && range[*nranges - 1][1] + 1 == first) {
        range[*nranges - 1][1] = last;
    } else if (*nranges < CHK_KEEP_RANGES) {
        range[*nranges][0] = first;
        range[*nranges][1] = last;
        (*nranges)++;
    }
}

void chk_block_note(const chk_ctx *c, chk_block *B, int64_t i, int k, double y,
                    const chk_verdict *v)
{
    if (v->r2) {
        double over = v->errv == 0.0 ? 0.0 : v->b > 0.0 ? v->errv / v->b : INFINITY;
        if (over > B->max_over)
            B->max_over = over;
        if (v->ref != 0.0) {
            double rel = v->errv / fabs(v->ref);
            if (rel > B->max_rel)
                B->max_rel = rel;
            B->sum_rel += rel;
            B->nrel++;
        }
    }
    if (v->reason == SPMM_CHECK_OK)
        return;
    B->bad++;
    if (i != B->last_bad_row) {
        B->bad_rows++;
        B->last_bad_row = i;
        ranges_add(B->range, &B->nranges, i, i);
    }
    if (B->nfail < SPMM_CHECK_FAIL_MAX) {
        /* the fast pass's reference is approximate: show the exact one */
        chk_verdict ex;
        chk_exact_entry(c, i, k, y, v->reason == SPMM_CHECK_NEVER_WRITTEN, &ex);
        B->fail[B->nfail++] = (spmm_check_entry){i, k, v->reason, y, ex.ref, ex.bound};
    }
}

/* "rows 18, 4021-4100 wrong; all other rows within bound". */
static void format_rows(char *out, size_t cap, int64_t (*range)[2], int nranges, int64_t bad_rows,
                        int64_t m, int exact)
{
    size_t len = 0;
    int shown = nranges < CHK_SHOW_RANGES ? nranges : CHK_SHOW_RANGES;
    int64_t covered = 0;
    out[0] = '\0';
    len += (size_t)snprintf(out, cap, "%s", bad_rows == 1 ? "row " : "rows ");
    for (int r = 0; r < shown && len < cap; r++) {
        int64_t a = range[r][0] + 1, b = range[r][1] + 1;
        covered += b - a + 1;
        if (a == b)
            len += (size_t)snprintf(out + len, cap - len, "%s%lld", r ? ", " : "", (long long)a);
        else
            len += (size_t)snprintf(out + len, cap - len, "%s%lld-%lld", r ? ", " : "",
                                    (long long)a, (long long)b);
    }
    if (bad_rows > covered && len < cap)
        len += (size_t)snprintf(out + len, cap - len, " and %lld more row%s",
                                (long long)(bad_rows - covered), bad_rows - covered == 1 ? "" : "s");
    if (len < cap)
        len += (size_t)snprintf(out + len, cap - len, " wrong");
    if (bad_rows < m && len < cap)
        snprintf(out + len, cap - len, "; all other rows %s", exact ? "exact" : "within bound");
    else if (len < cap)
        snprintf(out + len, cap - len, " (every row)");
}

static void format_why(char *out, size_t cap, const spmm_check_entry *f)
{
    long long r = (long long)f->row + 1, k = (long long)f->col + 1;
    switch (f->reason) {
    case SPMM_CHECK_NEVER_WRITTEN:
        snprintf(out, cap, "Y(%lld,%lld) was never written (it still holds the poison NaN)", r, k);
        break;
    case SPMM_CHECK_NOT_REPRODUCED:
        snprintf(out, cap, "Y(%lld,%lld) = %.17g does not reproduce the non-finite reference %.17g",
                 r, k, f->got, f->expected);
        break;
    case SPMM_CHECK_NOT_FINITE:
        snprintf(out, cap, "Y(%lld,%lld) = %g is not finite; the reference is %.17g", r, k, f->got,
                 f->expected);
        break;
    case SPMM_CHECK_NOT_EXACT:
        snprintf(out, cap, "Y(%lld,%lld) = %.17g but integer inputs give exactly %.17g", r, k,
                 f->got, f->expected);
        break;
    default:
        snprintf(out, cap, "Y(%lld,%lld) = %.17g is %.3g from the reference %.17g, past the bound %.3g",
                 r, k, f->got, fabs(f->got - f->expected), f->expected, f->bound);
        break;
    }
}

/* Merges the blocks, in row order, into rep. */
static void merge_blocks(const chk_ctx *c, const chk_block *B, int nb, spmm_check_report *rep)
{
    int64_t range[CHK_KEEP_RANGES][2];
    int nranges = 0;
    double sum_rel = 0.0;
    int64_t nrel = 0;
    for (int b = 0; b < nb; b++) {
        const chk_block *X = &B[b];
        rep->bad += X->bad;
        rep->bad_rows += X->bad_rows;
        rep->slow_undecided += X->slow_undecided;
        rep->slow_special += X->slow_special;
        if (X->max_rel > rep->max_rel_err)
            rep->max_rel_err = X->max_rel;
        if (X->max_over > rep->max_err_over_bound)
            rep->max_err_over_bound = X->max_over;
        sum_rel += X->sum_rel;
        nrel += X->nrel;
        for (int f = 0; f < X->nfail && rep->nfail < SPMM_CHECK_FAIL_MAX; f++)
            rep->fail[rep->nfail++] = X->fail[f];
        for (int r = 0; r < X->nranges; r++)
            ranges_add(range, &nranges, X->range[r][0], X->range[r][1]);
    }
    rep->mean_rel_err = nrel ? sum_rel / (double)nrel : 0.0;
    rep->pass = rep->bad == 0;
    if (!rep->pass) {
        format_why(rep->why, sizeof rep->why, &rep->fail[0]);
        format_rows(rep->rows, sizeof rep->rows, range, nranges, rep->bad_rows, c->m, c->exact);
    }
}

int spmm_check(const spmm_check_csr *A, const spmm_check_dense *X, const spmm_check_dense *Y,
               int K, int precision, int threads, spmm_check_report *rep, pc_error *err)
{
    memset(rep, 0, sizeof *rep);
    int rc;
    if (K < 1 || threads < 1 || (precision != SPMM_CHECK_FP64 && precision != SPMM_CHECK_FP32))
        return pc_error_set(err, PC_EINVAL, NULL, 0, "spmm_check: bad K, threads or precision");
    if ((rc = check_csr(A, err)) || (rc = check_dense("X", X, A->n, K, err)) ||
        (rc = check_dense("Y", Y, A->m, K, err)))
        return rc;
    int fp32 = precision == SPMM_CHECK_FP32;
    chk_ctx c = {.m = A->m, .n = A->n, .K = K, .rowptr = A->rowptr, .col = A->col,
                 .val = A->val, .Y = *Y, .fp32 = fp32,
                 .u = fp32 ? 0x1p-24 : 0x1p-53, .eta2 = fp32 ? 0x1p-149 : 0x1p-1074,
                 .exact_limit = fp32 ? 0x1p24 : 0x1p53, .use_fma = chk_fast_has_fma(),
                 .force_exact = chk_fast_force_exact()};
    double *xcopy = NULL;
    if ((rc = prepare_x(X, A->n, K, fp32, &c, &xcopy, err)))
        return rc;
    chk_block *B = NULL;
    int nb = 0;
    if ((rc = make_blocks(&c, &B, &nb, err))) {
        pc_free(xcopy);
        return rc;
    }
    c.exact = values_are_integers(&c);
    run_blocks(&c, B, nb, threads);
    int broken = 0;
    for (int b = 0; b < nb; b++)
        broken |= B[b].exact_broken;
    if (c.exact && broken) {
        /* some |A||X| passed 2^53: R6 does not hold, judge by the bound */
        c.exact = 0;
        run_blocks(&c, B, nb, threads);
    }
    for (int b = 0; b < nb; b++)
        if (B[b].bad_col_row >= 0) {
            int64_t i = B[b].bad_col_row;
            pc_free(B);
            pc_free(xcopy);
            return pc_error_set(err, PC_EINVAL, NULL, 0,
                                "spmm_check: A's row %lld holds a column index outside [0, %d)",
                                (long long)i, (int)A->n);
        }
    rep->exact = c.exact;
    rep->precision = precision;
    rep->unit_roundoff = c.u;
    rep->checked = (int64_t)A->m * K;
    merge_blocks(&c, B, nb, rep);
    pc_free(B);
    pc_free(xcopy);
    return PC_OK;
}
