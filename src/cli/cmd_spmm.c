/* parcheck spmm, parcheck gen matrix: the SpMM subcommands. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_progress.h"
#include "cli_spmm_plugin.h"
#include "cli_stress.h"
#include "pc_alloc.h"
#include "pc_cli.h"
#include "pc_npy.h"
#include "pc_result.h"
#include "pc_time.h"
#include "spmm.h"
#include "spmm/spmm_oracle.h"

static const char *const spmm_table_metrics[] = {"max_rel_err", "mean_rel_err",
                                                 "max_err_over_bound", NULL};
static const char *const spmm_stress_metrics[] = {"max_rel_err", "max_err_over_bound",
                                                  "stress_failed", "stress_identical",
                                                  "stress_max_err_over_bound", NULL};

typedef struct spmm_opts {
    const char *path;
    const char *impl;
    const char *json;
    const char *xkind;
    const char *out_y;      /* --out-y: the first implementation's Y as .npy */
    long long K, reps, threads, seed;
    int progress;           /* CLI_PROGRESS_* */
    long long stress;       /* --stress N: N more validated runs (cli_stress.h) */
} spmm_opts;

static int spmm_parse(int argc, char **argv, spmm_opts *o, cli_plugins *cp, pc_error *err)
{
    *o = (spmm_opts){.impl = "all", .xkind = "auto", .K = 4, .reps = 5,
                     .threads = pc_cli_default_threads(), .seed = 1};
    for (int i = 1; i < argc; i++) {
        const char *v = NULL;
        int rc;
        if ((rc = cli_plugins_take(cp, argc, argv, &i, err)) != 0) {
            if (rc < 0)
                return rc;
        } else if (cli_progress_take(argv[i], &o->progress)) {
            continue;
        } else if ((rc = cli_stress_take(argc, argv, &i, &o->stress, err)) != 0) {
            if (rc < 0)
                return rc;
        } else if ((rc = pc_cli_take(argc, argv, &i, "--k", &v, err)) != 0) {
            if (rc < 0 || pc_cli_parse_long("--k", v, 1, 4096, &o->K, err))
                return PC_EINVAL;
        } else if ((rc = pc_cli_take(argc, argv, &i, "--impl", &v, err)) != 0) {
            if (rc < 0)
                return rc;
            o->impl = v;
        } else if ((rc = pc_cli_take(argc, argv, &i, "--reps", &v, err)) != 0) {
            if (rc < 0 || pc_cli_parse_long("--reps", v, 1, PC_CLI_MAX_REPS, &o->reps, err))
                return PC_EINVAL;
        } else if ((rc = pc_cli_take(argc, argv, &i, "--threads", &v, err)) != 0) {
            if (rc < 0 || pc_cli_parse_long("--threads", v, 1, PC_CLI_MAX_THREADS, &o->threads, err))
                return PC_EINVAL;
        } else if ((rc = pc_cli_take(argc, argv, &i, "--seed", &v, err)) != 0) {
            if (rc < 0 || pc_cli_parse_long("--seed", v, 0, INT64_MAX, &o->seed, err))
                return PC_EINVAL;
        } else if ((rc = pc_cli_take(argc, argv, &i, "--json", &v, err)) != 0) {
            if (rc < 0)
                return rc;
            o->json = v;
        } else if ((rc = pc_cli_take(argc, argv, &i, "--out-y", &v, err)) != 0) {
            if (rc < 0)
                return rc;
            o->out_y = v;
        } else if ((rc = pc_cli_take(argc, argv, &i, "--x", &v, err)) != 0) {
            if (rc < 0)
                return rc;
            if (strcmp(v, "real") && strcmp(v, "int") && strcmp(v, "auto"))
                return pc_error_set(err, PC_EINVAL, NULL, 0, "--x takes real, int or auto");
            o->xkind = v;
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            return pc_error_set(err, PC_EINVAL, NULL, 0, "unknown option '%s'", argv[i]);
        } else if (!o->path) {
            o->path = argv[i];
        } else {
            return pc_error_set(err, PC_EINVAL, NULL, 0, "more than one matrix given ('%s')", argv[i]);
        }
    }
    if (!o->path)
        return pc_error_set(err, PC_EINVAL, NULL, 0, "no matrix file given");
    return PC_OK;
}

static void spmm_usage(FILE *f)
{
    fputs("usage: parcheck spmm MATRIX.mtx [--k K] [--impl LIST|all] [--reps R] [--threads T]\n"
          "                     [--seed S] [--x real|int|auto] [--json FILE|-] [--out-y Y.npy]\n"
          "                     [--plugin LIB.so ...] [--timeout S] [--no-fork] [--progress|--quiet]\n"
          "                     [--stress N]\n"
          "Runs Y = A*X for every selected implementation, checks each against the\n"
          "extended-precision oracle (|y - ref| <= 2 gamma_n (|A||X|), exact for integer\n"
          "inputs) and prints the verdict table or JSON. X is seeded; --x auto uses\n"
          "integer X for integer and pattern matrices. --out-y writes the Y of the first\n"
          "implementation that ran ('<f8', C order), e.g. for `parcheck spmm check`.\n",
          f);
    fputs(CLI_PLUGINS_USAGE, f);
    fputs(CLI_PROGRESS_USAGE, f);
    fputs(CLI_STRESS_USAGE, f);
    fputs("A plugin entry is judged as the built-ins are (fp32 entries at single precision).\n",
          f);
    fputs("implementations:\n", f);
    cmd_spmm_list(f);
    cli_list_end(f);
}

/* Runs one implementation: check run on a poisoned Y, then timed runs that
 * must reproduce the checked result bit for bit. */
static void spmm_run_one(const spmm_impl *impl, spmm_matrix *A, const spmm_oracle *orc,
                         const double *X, const spmm_opts *o, pc_result *r, int *unavailable,
                         int explicit_sel, const char **out_y)
{
    char why[256];
    pc_error err;
    pc_error_clear(&err);
    pc_result_init(r, impl->name);
    if (!spmm_impl_available(impl, why, sizeof why)) {
        pc_result_status(r, PC_STATUS_SKIPPED, "%s", why);
        *unavailable |= explicit_sel;
        return;
    }
    int K = (int)o->K;
    int threads = (int)o->threads;
    long long base = pc_alloc_bytes();
    pc_alloc_reset_peak();
    double t0 = pc_time_now();
    int rc = spmm_matrix_need(A, impl->format, threads, &err);
    if (rc == PC_ERANGE) {
        pc_result_status(r, PC_STATUS_SKIPPED, "%s", err.msg);
        *unavailable |= explicit_sel;
        return;
    }
    if (rc) {
        pc_result_status(r, PC_STATUS_ERROR, "%s", err.msg);
        return;
    }
    void *state = NULL;
    double t1 = pc_time_now();
    if (impl->prepare && (rc = impl->prepare(impl, A, K, &state, &err)) != 0) {
        pc_result_status(r, rc == PC_EUNAVAIL ? PC_STATUS_SKIPPED : PC_STATUS_ERROR, "%s", err.msg);
        if (rc == PC_EUNAVAIL)
            *unavailable |= explicit_sel;
        return;
    }
    double prep_s = pc_time_now() - t0, assembly_s = pc_time_now() - t1;
    size_t len = (size_t)A->coo->rows * (size_t)K;
    double *Y = pc_malloc_array(len ? len : 1, sizeof *Y);
    double *Ycheck = pc_malloc_array(len ? len : 1, sizeof *Ycheck);
    double *times = pc_malloc_array((size_t)o->reps, sizeof *times);
    if (!Y || !Ycheck || !times) {
        pc_result_status(r, PC_STATUS_ERROR, "out of memory for Y");
        goto done;
    }
    spmm_timing tm = {-1, -1, -1, -1, -1};
    spmm_oracle_poison(Y, (int64_t)len);
    cli_progress_rep(0, o->reps); /* the checked run */
    rc = impl->run(impl, state, A, X, K, Y, threads, &tm, &err);
    if (rc) {
        pc_result_status(r, PC_STATUS_ERROR, "%s", err.msg);
        goto done;
    }
    spmm_verdict v;
    spmm_oracle_check(orc, Y, &v);
    if (*out_y) {
        int64_t shape[2] = {A->coo->rows, K};
        if (pc_npy_write(*out_y, PC_DTYPE_F8, 0, 2, shape, Y, &err)) {
            pc_result_status(r, PC_STATUS_ERROR, "%s", err.msg);
            goto done;
        }
        *out_y = NULL; /* written once, by the first implementation that ran */
    }
    memcpy(Ycheck, Y, len * sizeof *Y);
    cli_stress_note_output(Ycheck, len * sizeof *Y);
    double h2d = 0, d2h = 0;
    for (long long k = 0; k < o->reps; k++) {
        cli_progress_rep(k + 1, o->reps);
        tm = (spmm_timing){-1, -1, -1, -1, -1};
        double s = pc_time_now();
        rc = impl->run(impl, state, A, X, K, Y, threads, &tm, &err);
        double wall = pc_time_now() - s;
        if (rc) {
            pc_result_status(r, PC_STATUS_ERROR, "%s", err.msg);
            goto done;
        }
        times[k] = tm.kernel_s >= 0 ? tm.kernel_s : wall;
        h2d += tm.h2d_s > 0 ? tm.h2d_s : 0;
        d2h += tm.d2h_s > 0 ? tm.d2h_s : 0;
    }
    int stable = memcmp(Ycheck, Y, len * sizeof *Y) == 0;
    if (!stable && impl->varies) {
        /* Not reproducible by design: the last run must pass on its own. */
        spmm_verdict last;
        spmm_oracle_check(orc, Y, &last);
        stable = last.pass;
        if (!last.pass)
            v = last;
        pc_kv_bool(&r->metrics, "bitwise_repeatable", 0);
    }
    r->reps = (int)o->reps;
    r->seconds = pc_time_median(times, (size_t)o->reps);
    r->throughput = r->seconds > 0 ? 2.0 * (double)A->coo->nnz * K / r->seconds * 1e-9 : 0.0;
    snprintf(r->unit, sizeof r->unit, "GFLOP/s");
    cli_spmm_verdict_metrics(r, &v, orc);
    pc_kv_num(&r->timings, "prepare_s", prep_s);
    /* the implementation's own set-up alone (librsb's assembly, uploads) */
    if (impl->prepare)
        pc_kv_num(&r->timings, "assembly_s", assembly_s);
    if (tm.kernel_s >= 0) {
        pc_kv_num(&r->timings, "h2d_s", h2d / (double)o->reps);
        pc_kv_num(&r->timings, "d2h_s", d2h / (double)o->reps);
    }
    long long fmt = 0;
    if (impl->format == SPMM_FMT_CSR)
        fmt = spmm_csr_bytes(&A->csr);
    else if (impl->format == SPMM_FMT_ELL)
        fmt = spmm_ell_bytes(&A->ell);
    else
        fmt = spmm_ellnp_bytes(&A->ellnp);
    r->model_bytes = fmt + 8LL * ((long long)A->coo->cols + A->coo->rows) * K;
    r->peak_bytes = tm.device_bytes > 0 ? tm.device_bytes : pc_alloc_peak() - base;
    if (!v.pass) {
        pc_result_status(r, PC_STATUS_FAIL, "%s (%lld bad entries)", v.why, (long long)v.bad);
        /* the Y that failed: the last run's when that verdict replaced the first's */
        cli_spmm_locate(r, A->coo, X, K, threads, stable || !impl->varies ? Ycheck : Y);
    }
    else if (!stable)
        pc_result_status(r, PC_STATUS_FAIL, "result changed between repeated runs");
    else
        r->status = PC_STATUS_PASS;
done:
    pc_free(Y);
    pc_free(Ycheck);
    pc_free(times);
    if (impl->release)
        impl->release(state);
}

int cmd_spmm(int argc, char **argv)
{
    if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        spmm_usage(stdout);
        return CLI_OK;
    }
    spmm_opts o;
    cli_plugins cp;
    cli_plugins_init(&cp);
    pc_error err;
    pc_error_clear(&err);
    if (spmm_parse(argc, argv, &o, &cp, &err))
        return cli_usage_error("spmm", err.msg);
    int n = spmm_impl_count();
    const char *names[64];
    for (int k = 0; k < n; k++)
        names[k] = spmm_impl_at(k)->name;
    cli_selection sel;
    int status = cli_plugins_setup(&cp, "spmm", PARCHECK_DOMAIN_SPMM, o.impl, names, n,
                                   (int)o.threads, &sel);
    if (status != CLI_OK)
        return status;

    cli_progress_start("spmm", o.progress);
    cli_progress_set("reading %s", o.path);
    mm_coo coo;
    if (mm_read_file(o.path, &coo, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        cli_selection_free(&sel);
        cli_plugins_free(&cp);
        return CLI_USAGE;
    }
    int ints = !strcmp(o.xkind, "int") ||
               (!strcmp(o.xkind, "auto") && coo.field != MM_FIELD_REAL);
    double *X = NULL;
    spmm_oracle orc;
    if (spmm_make_x(coo.cols, (int)o.K, (uint64_t)o.seed, ints, &X, &err)) {
        fprintf(stderr, "parcheck spmm: %s\n", err.msg);
        mm_coo_free(&coo);
        cli_selection_free(&sel);
        cli_plugins_free(&cp);
        return CLI_FAILED;
    }
    double t0 = pc_time_now();
    cli_progress_set("the oracle (%lld entries x K = %lld)", (long long)coo.nnz, o.K);
    if (spmm_oracle_compute(&coo, X, (int)o.K, &orc, &err)) {
        fprintf(stderr, "parcheck spmm: %s\n", err.msg);
        pc_free(X);
        mm_coo_free(&coo);
        cli_selection_free(&sel);
        cli_plugins_free(&cp);
        return CLI_FAILED;
    }
    pc_run run = {.domain = "spmm", .oracle_name = "spmm-coo-double-double",
                  .oracle_seconds = pc_time_now() - t0,
                  .table_metrics = o.stress ? spmm_stress_metrics : spmm_table_metrics};
    pc_kv_str(&run.input, "path", o.path);
    pc_kv_int(&run.input, "rows", coo.rows);
    pc_kv_int(&run.input, "cols", coo.cols);
    pc_kv_int(&run.input, "nnz", coo.nnz);
    pc_kv_int(&run.input, "k", o.K);
    pc_kv_int(&run.input, "duplicates", coo.duplicates);
    pc_kv_int(&run.input, "threads", o.threads);
    pc_kv_str(&run.input, "x", ints ? "int" : "real");
    pc_result *results = pc_calloc((size_t)sel.n + 1, sizeof *results);
    if (!results) {
        fprintf(stderr, "parcheck spmm: out of memory\n");
        status = CLI_FAILED;
        goto out;
    }
    run.results = results;
    spmm_matrix A;
    spmm_matrix_init(&A, &coo);
    int unavailable = 0;
    const char *out_y = o.out_y;
    /* the table is printed row by row, its head before the first run */
    int table = !o.json || strcmp(o.json, "-") != 0, nsel = 0;
    for (int k = 0; k < sel.n; k++)
        nsel += sel.sel[k];
    pc_result *scratch = o.stress ? pc_malloc(sizeof *scratch) : NULL;
    if (o.stress && !scratch) {
        fprintf(stderr, "parcheck spmm: out of memory\n");
        status = CLI_FAILED;
        spmm_matrix_free(&A);
        goto out;
    }
    if (table) {
        cli_progress_clear();
        pc_run_print_head(stdout, &run);
    }
    for (int k = 0; k < sel.n; k++) {
        if (!sel.sel[k])
            continue;
        pc_result *r = &results[run.nresults++];
        /* --stress: the same judgement again, one run each, across
         * thread counts and schedules */
        cli_stress st;
        if (k < n) {
            cli_progress_impl(spmm_impl_at(k)->name, run.nresults, nsel);
            spmm_run_one(spmm_impl_at(k), &A, &orc, X, &o, r, &unavailable, sel.expl[k], &out_y);
            cli_stress_begin(&st, r->status == PC_STATUS_SKIPPED ? 0 : (int)o.stress);
            for (int s = 0; s < st.runs; s++) {
                spmm_opts o2 = o;
                o2.threads = cli_stress_setup(&st, s);
                o2.reps = 1;
                const char *no_y = NULL;
                int ignored = 0;
                spmm_run_one(spmm_impl_at(k), &A, &orc, X, &o2, scratch, &ignored, 0, &no_y);
                cli_stress_record(&st, scratch);
            }
        } else {
            cli_progress_impl(sel.entry[k - n]->name, run.nresults, nsel);
            plugin_opts po = cli_plugins_opts(&cp, (int)o.reps, (int)o.threads);
            int skipped = 0;
            cli_spmm_plugin_run(sel.entry[k - n], &po, &A, &orc, X, (int)o.K, 1, &out_y, r, &skipped);
            unavailable |= skipped && sel.expl[k];
            cli_stress_begin(&st, skipped ? 0 : (int)o.stress);
            for (int s = 0; s < st.runs; s++) {
                int t = cli_stress_setup(&st, s);
                plugin_opts p2 = cli_plugins_opts(&cp, 1, t);
                int ignored = 0;
                cli_spmm_plugin_run(sel.entry[k - n], &p2, &A, &orc, X, (int)o.K, 1, NULL, scratch,
                                    &ignored);
                cli_stress_record(&st, scratch);
            }
        }
        cli_stress_finish(&st, r);
        if (table)
            cli_table_row(stdout, &run, r);
    }
    cli_progress_stop();
    pc_free(scratch);
    spmm_matrix_free(&A);
    if (o.json) {
        if (pc_run_save_json(o.json, &run, &err)) {
            fprintf(stderr, "parcheck spmm: %s\n", err.msg);
            status = CLI_USAGE;
        }
    }
    if (table)
        pc_run_print_oracle(stdout, &run);
    if (status == CLI_OK)
        status = pc_run_exit_code(&run) ? CLI_FAILED : unavailable ? CLI_UNAVAILABLE : CLI_OK;
out:
    pc_free(results);
    spmm_oracle_free(&orc);
    pc_free(X);
    mm_coo_free(&coo);
    cli_selection_free(&sel);
    cli_plugins_free(&cp);
    return status;
}

int cmd_gen_matrix(int argc, char **argv)
{
    pc_error err;
    pc_error_clear(&err);
    spmm_gen_params p = {.shape = -1, .seed = 1};
    long long rows = -1, cols = -1, nnz = -1, seed = 1, maxrow = 0;
    const char *out = NULL;
    for (int i = 1; i < argc; i++) {
        const char *v = NULL;
        int rc = 0;
        if (cli_is_help(argv[i])) {
            puts("usage: parcheck gen matrix --rows M --cols N --nnz Z --shape uniform|banded|powerlaw|denserows\n"
                 "                           --seed S [--int] [--max-row L] -o F.mtx");
            return CLI_OK;
        } else if (!strcmp(argv[i], "--int")) {
            p.int_values = 1;
        } else if ((rc = pc_cli_take(argc, argv, &i, "--rows", &v, &err)) != 0) {
            if (rc < 0 || pc_cli_parse_long("--rows", v, 0, INT32_MAX, &rows, &err)) break;
        } else if ((rc = pc_cli_take(argc, argv, &i, "--cols", &v, &err)) != 0) {
            if (rc < 0 || pc_cli_parse_long("--cols", v, 0, INT32_MAX, &cols, &err)) break;
        } else if ((rc = pc_cli_take(argc, argv, &i, "--nnz", &v, &err)) != 0) {
            if (rc < 0 || pc_cli_parse_long("--nnz", v, 0, MM_MAX_NNZ, &nnz, &err)) break;
        } else if ((rc = pc_cli_take(argc, argv, &i, "--seed", &v, &err)) != 0) {
            if (rc < 0 || pc_cli_parse_long("--seed", v, 0, INT64_MAX, &seed, &err)) break;
        } else if ((rc = pc_cli_take(argc, argv, &i, "--max-row", &v, &err)) != 0) {
            if (rc < 0 || pc_cli_parse_long("--max-row", v, 0, INT32_MAX, &maxrow, &err)) break;
        } else if ((rc = pc_cli_take(argc, argv, &i, "--shape", &v, &err)) != 0) {
            if (rc < 0) break;
            if (spmm_gen_shape_parse(v, &p.shape)) {
                pc_error_set(&err, PC_EINVAL, NULL, 0, "--shape: '%s' is not uniform, banded, powerlaw or denserows", v);
                break;
            }
        } else if ((rc = pc_cli_take(argc, argv, &i, "-o", &v, &err)) != 0) {
            if (rc < 0) break;
            out = v;
        } else {
            pc_error_set(&err, PC_EINVAL, NULL, 0, "unknown argument '%s'", argv[i]);
            break;
        }
    }
    if (err.msg[0])
        return cli_usage_error("gen matrix", err.msg);
    if (rows < 0 || cols < 0 || nnz < 0 || p.shape < 0 || !out)
        return cli_usage_error("gen matrix", "--rows, --cols, --nnz, --shape and -o are required");
    p.rows = (int32_t)rows;
    p.cols = (int32_t)cols;
    p.nnz = nnz;
    p.seed = (uint64_t)seed;
    p.max_row = (int32_t)maxrow;
    mm_coo m;
    if (spmm_gen_coo(&p, &m, &err))
        return cli_usage_error("gen matrix", err.msg);
    int rc = mm_write_file(out, &m, &err);
    mm_coo_free(&m);
    if (rc) {
        fprintf(stderr, "%s\n", err.msg);
        return CLI_USAGE;
    }
    return CLI_OK;
}

void cmd_spmm_list(FILE *f)
{
    char why[256];
    for (int k = 0; k < spmm_impl_count(); k++) {
        const spmm_impl *impl = spmm_impl_at(k);
        int ok = spmm_impl_available(impl, why, sizeof why);
        cli_list_line(f, impl->name, ok, why, impl->desc);
    }
}
