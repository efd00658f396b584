/* parcheck bench: timing sweeps for `make bench` (not a validation run).
 *
 *   parcheck bench stream [--mib M] [--threads LIST]
 *   parcheck bench spmm [--shape S] [--rows M] [--per-row Z] [--max-row L] [--k LIST]
 *                       [--threads LIST] [--impl LIST] [--reps R] [--seed S]
 *                       [--plugin LIB.so ...] [--timeout S] [--no-fork]
 *
 * Prints CSV rows domain,case,impl,threads,param,seconds,throughput,unit,note
 * (the columns of report/bench.csv). Matrices are generated in memory with a
 * fixed seed, so a 2M-row case costs no Matrix Market parsing. Each SpMM
 * implementation is validated against the oracle once (first K) before it
 * is timed; a failure aborts with exit 1. The built-ins selected run side by
 * side: at each K and thread count they take turns rep after rep, so that a
 * busy machine slows all of them alike and their ratios stay meaningful.
 *
 * Plugin entries (--plugin) join the sweep after the built-ins: every SpMM
 * entry of the plugins, or only those --impl names when it names one. They
 * run in their worker (cli_spmm_plugin.h), timed by it, and are marked in
 * the note column ("plugin=FILE.so" after the bandwidth); a plugin that
 * fails, crashes or times out loses its remaining rows and makes the exit
 * code 1, without stopping the others. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_progress.h"
#include "cli_spmm_plugin.h"
#include "pc_alloc.h"
#include "pc_cli.h"
#include "pc_time.h"
#include "spmm.h"
#include "spmm/spmm_oracle.h"

#define BENCH_MAX_LIST 16

/* Parses "1,2,4" into v (at most BENCH_MAX_LIST values in [lo, hi]). */
static int bench_parse_list(const char *opt, const char *s, long long lo, long long hi, int *v, int *n)
{
    pc_error err;
    char buf[256];
    snprintf(buf, sizeof buf, "%s", s);
    *n = 0;
    for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
        long long x;
        if (*n >= BENCH_MAX_LIST || pc_cli_parse_long(opt, tok, lo, hi, &x, &err)) {
            cli_usage_error("bench", *n >= BENCH_MAX_LIST ? "list too long" : err.msg);
            return -1;
        }
        v[(*n)++] = (int)x;
    }
    if (!*n)
        cli_usage_error("bench", "empty list");
    return *n ? 0 : -1;
}

/* Best-of-reps STREAM-like copy bandwidth (bytes read + written per second). */
static double bench_copy_bandwidth(size_t bytes, int threads, int reps)
{
    (void)threads; /* read only by OpenMP pragmas: unused without OpenMP */
    size_t n = bytes / sizeof(double);
    double *a = pc_malloc_array(n, sizeof *a), *b = pc_malloc_array(n, sizeof *b);
    if (!a || !b) {
        pc_free(a);
        pc_free(b);
        return 0.0;
    }
    #pragma omp parallel for num_threads(threads) schedule(static)
    for (size_t i = 0; i < n; i++) {
        a[i] = 0.0;
        b[i] = (double)i;
    }
    double best = INFINITY;
    for (int r = 0; r < reps; r++) {
        double t = pc_time_now();
        #pragma omp parallel for num_threads(threads) schedule(static)
        for (size_t i = 0; i < n; i++)
            a[i] = b[i];
        t = pc_time_now() - t;
        best = t < best ? t : best;
    }
    volatile double sink = a[n / 2];
    (void)sink;
    pc_free(a);
    pc_free(b);
    return 2.0 * (double)n * sizeof(double) / best;
}

static int bench_stream(int argc, char **argv)
{
    long long mib = 512;
    int threads[BENCH_MAX_LIST] = {1, 2}, nthreads = 2;
    pc_error err;
    for (int i = 1; i < argc; i++) {
        const char *v;
        int rc;
        if ((rc = pc_cli_take(argc, argv, &i, "--mib", &v, &err)) != 0) {
            if (rc < 0 || pc_cli_parse_long("--mib", v, 1, 1 << 20, &mib, &err))
                return cli_usage_error("bench stream", err.msg);
        } else if ((rc = pc_cli_take(argc, argv, &i, "--threads", &v, &err)) != 0) {
            if (rc < 0 || bench_parse_list("--threads", v, 1, PC_CLI_MAX_THREADS, threads, &nthreads))
                return CLI_USAGE;
        } else {
            char msg[300];
            snprintf(msg, sizeof msg, "unknown argument '%s'", argv[i]);
            return cli_usage_error("bench stream", msg);
        }
    }
    for (int t = 0; t < nthreads; t++) {
        double bw = bench_copy_bandwidth((size_t)mib << 20, threads[t], 10);
        if (bw <= 0)
            return cli_error("bench stream", "out of memory");
        printf("stream,copy-%lldMiB,copy,%d,,%.6f,%.3f,GB/s,read+write\n", mib, threads[t],
               2.0 * (double)(mib << 20) / bw, bw * 1e-9);
    }
    return CLI_OK;
}

typedef struct bench_spmm_opts {
    int shape;
    long long rows, per_row, max_row, reps, seed;
    int ks[BENCH_MAX_LIST], nk;
    int threads[BENCH_MAX_LIST], nthreads;
    const char *impl;
    int progress;   /* CLI_PROGRESS_* */
    cli_plugins plugins;
} bench_spmm_opts;

/* Bytes an SpMM must move at least once: the format (of enum spmm_format),
 * X, and Y written. */
static double bench_spmm_bytes(const spmm_matrix *A, int format, int K)
{
    double fmt = format == SPMM_FMT_CSR ? (double)spmm_csr_bytes(&A->csr)
               : format == SPMM_FMT_ELL ? (double)spmm_ell_bytes(&A->ell)
                                        : (double)spmm_ellnp_bytes(&A->ellnp);
    return fmt + 8.0 * K * ((double)A->coo->cols + A->coo->rows);
}

/* One selected built-in during a K: its prepared state and its times. */
typedef struct bench_slot {
    const spmm_impl *impl;
    void *state;
    int ready;              /* prepared (and, for the first K, validated) */
    double *times;          /* o->reps */
} bench_slot;

/* Prepares slot s for K; 0, 1 when it cannot run here (said on stderr) or
 * -1 on an error. */
static int bench_slot_prepare(bench_slot *s, spmm_matrix *A, const bench_spmm_opts *o, int K)
{
    pc_error err;
    pc_error_clear(&err);
    char why[256];
    if (!spmm_impl_available(s->impl, why, sizeof why)) {
        fprintf(stderr, "bench: %s skipped: %s\n", s->impl->name, why);
        return 1;
    }
    int rc = spmm_matrix_need(A, s->impl->format, o->threads[o->nthreads - 1], &err);
    if (rc == 0 && s->impl->prepare)
        rc = s->impl->prepare(s->impl, A, K, &s->state, &err);
    if (rc == PC_ERANGE || rc == PC_EUNAVAIL) {
        fprintf(stderr, "bench: %s skipped: %s\n", s->impl->name, err.msg);
        return 1;
    }
    if (rc || !(s->times = pc_malloc_array((size_t)o->reps, sizeof *s->times))) {
        fprintf(stderr, "bench: %s: %s\n", s->impl->name, rc ? err.msg : "out of memory");
        return -1;
    }
    s->ready = 1;
    return 0;
}

/* Times every ready slot at K, T threads: a warm-up run each (checked
 * against orc when given), then o->reps rounds in which the slots take
 * turns, so that load from other processes falls on all of them alike.
 * Prints one CSV row per slot; -1 when one fails validation. */
static int bench_spmm_round(bench_slot *slots, int ns, spmm_matrix *A, const bench_spmm_opts *o,
                            const char *casename, const double *X, double *Y, int K, int T,
                            const spmm_oracle *orc)
{
    pc_error err;
    pc_error_clear(&err);
    cli_progress_set("%s: K=%d, %d threads", casename, K, T);
    for (int i = 0; i < ns; i++) {
        if (!slots[i].ready)
            continue;
        spmm_timing tm = {-1, -1, -1, -1, -1};
        spmm_oracle_poison(Y, (int64_t)A->coo->rows * K);
        slots[i].impl->run(slots[i].impl, slots[i].state, A, X, K, Y, T, &tm, &err);
        if (orc) {
            spmm_verdict v;
            spmm_oracle_check(orc, Y, &v);
            if (!v.pass) {
                fprintf(stderr, "bench: %s FAILED validation: %s\n", slots[i].impl->name, v.why);
                return -1;
            }
        }
    }
    for (long long r = 0; r < o->reps; r++)
        for (int i = 0; i < ns; i++) {
            if (!slots[i].ready)
                continue;
            spmm_timing tm = {-1, -1, -1, -1, -1};
            double t = pc_time_now();
            slots[i].impl->run(slots[i].impl, slots[i].state, A, X, K, Y, T, &tm, &err);
            t = pc_time_now() - t;
            slots[i].times[r] = tm.kernel_s >= 0 ? tm.kernel_s : t;
        }
    for (int i = 0; i < ns; i++) {
        if (!slots[i].ready)
            continue;
        double med = pc_time_median(slots[i].times, (size_t)o->reps);
        double gflops = 2.0 * (double)A->coo->nnz * K / med * 1e-9;
        double gbs = bench_spmm_bytes(A, slots[i].impl->format, K) / med * 1e-9;
        printf("spmm,%s,%s,%d,K=%d,%.6g,%.4f,GFLOP/s,%.3f GB/s\n", casename, slots[i].impl->name,
               T, K, med, gflops, gbs);
    }
    fflush(stdout);
    return 0;
}

/* Every selected built-in (sel[k] for table entry k) at every K and thread
 * count, side by side; each is validated at the first K. 0 or -1. */
static int bench_spmm_builtins(const int *sel, spmm_matrix *A, const bench_spmm_opts *o,
                               const char *casename)
{
    int n = spmm_impl_count(), ns = 0, status = 0;
    bench_slot *slots = pc_calloc((size_t)n, sizeof *slots);
    if (!slots)
        return -1;
    for (int k = 0; k < n; k++)
        if (sel[k])
            slots[ns++].impl = spmm_impl_at(k);
    for (int kk = 0; kk < o->nk && status == 0 && ns > 0; kk++) {
        int K = o->ks[kk];
        pc_error err;
        double *X = NULL, *Y = NULL;
        spmm_oracle orc;
        int have_orc = 0;
        if (spmm_make_x(A->coo->cols, K, (uint64_t)o->seed, 0, &X, &err) ||
            !(Y = pc_malloc_array((size_t)A->coo->rows * K + 1, sizeof *Y))) {
            fprintf(stderr, "bench: out of memory\n");
            status = -1;
        }
        for (int i = 0; i < ns && status == 0; i++)
            if (bench_slot_prepare(&slots[i], A, o, K) < 0)
                status = -1;
        if (status == 0 && kk == 0) {
            if (spmm_oracle_compute(A->coo, X, K, &orc, &err)) {
                fprintf(stderr, "bench: oracle: %s\n", err.msg);
                status = -1;
            }
            have_orc = status == 0;
        }
        for (int tt = 0; tt < o->nthreads && status == 0; tt++)
            status = bench_spmm_round(slots, ns, A, o, casename, X, Y, K, o->threads[tt],
                                      have_orc && tt == 0 ? &orc : NULL);
        if (have_orc)
            spmm_oracle_free(&orc);
        for (int i = 0; i < ns; i++) {
            if (slots[i].ready && slots[i].impl->release)
                slots[i].impl->release(slots[i].state);
            pc_free(slots[i].times);
            slots[i] = (bench_slot){.impl = slots[i].impl};
        }
        pc_free(X);
        pc_free(Y);
    }
    pc_free(slots);
    return status;
}

/* Prints one CSV field: as it is, or quoted (quotes doubled) when it holds
 * a comma, a quote or a line break. */
static void bench_csv_field(const char *s)
{
    if (!strpbrk(s, ",\"\n\r")) {
        fputs(s, stdout);
        return;
    }
    putchar('"');
    for (; *s; s++) {
        if (*s == '"')
            putchar('"');
        putchar(*s);
    }
    putchar('"');
}

/* Times plugin entry e as bench_spmm_impl times a built-in: each K, each
 * thread count, the worker's median of o->reps runs; the first (K, T) is
 * validated against the oracle. The GB/s note counts the bytes of the fp64
 * format the entry reads (for an fp32 entry, an upper bound). Returns 0,
 * or -1 when the entry failed, crashed, timed out or erred (said on
 * stderr; its later rows dropped). */
static int bench_spmm_plugin(const plugin_entry *e, spmm_matrix *A, const bench_spmm_opts *o,
                             const char *casename)
{
    pc_error err;
    pc_error_clear(&err);
    pc_result *r = pc_malloc(sizeof *r);
    if (!r) {
        fprintf(stderr, "bench: out of memory\n");
        return -1;
    }
    const char *so = strrchr(e->path, '/') ? strrchr(e->path, '/') + 1 : e->path;
    int fmt = e->flags & PARCHECK_F_ELL ? SPMM_FMT_ELL : SPMM_FMT_CSR;
    int status = 0;
    for (int kk = 0; kk < o->nk && !status; kk++) {
        int K = o->ks[kk];
        double *X = NULL;
        spmm_oracle orc;
        int have_orc = 0;
        if (spmm_make_x(A->coo->cols, K, (uint64_t)o->seed, 0, &X, &err) ||
            (kk == 0 && spmm_oracle_compute(A->coo, X, K, &orc, &err))) {
            fprintf(stderr, "bench: %s: %s\n", e->name, err.msg);
            pc_free(X);
            status = -1;
            break;
        }
        have_orc = kk == 0;
        for (int tt = 0; tt < o->nthreads && !status; tt++) {
            int T = o->threads[tt];
            plugin_opts po = cli_plugins_opts(&o->plugins, (int)o->reps, T);
            int skipped = 0, judge = kk == 0 && tt == 0;
            if (!cli_spmm_plugin_run(e, &po, A, have_orc ? &orc : NULL, X, K, judge, NULL, r,
                                     &skipped)) {
                fprintf(stderr, "bench: %s [plugin %s] %s: %s\n", e->name, so,
                        skipped ? "skipped" : pc_status_name(r->status), r->reason);
                status = skipped ? 1 : -1;
                break;
            }
            double gbs = bench_spmm_bytes(A, fmt, K) / r->seconds * 1e-9;
            char note[PLUGIN_PATH_MAX + 64];
            snprintf(note, sizeof note, "%.3f GB/s plugin=%s", gbs, so);
            printf("spmm,%s,", casename);
            bench_csv_field(e->name);
            printf(",%d,K=%d,%.6g,%.4f,GFLOP/s,", T, K, r->seconds, r->throughput);
            bench_csv_field(note);
            putchar('\n');
            fflush(stdout);
        }
        if (have_orc)
            spmm_oracle_free(&orc);
        pc_free(X);
    }
    pc_free(r);
    return status < 0 ? -1 : 0;
}

static int bench_spmm(int argc, char **argv)
{
    bench_spmm_opts o = {.shape = SPMM_SHAPE_BANDED, .rows = 2097152, .per_row = 27, .reps = 10,
                         .seed = 1, .ks = {1, 4, 16, 64}, .nk = 4, .threads = {1, 2}, .nthreads = 2,
                         .impl = "csr-serial,csr-omp,ell-omp,ellnp-omp"};
    pc_error err;
    pc_error_clear(&err);
    cli_plugins_init(&o.plugins);
    for (int i = 1; i < argc; i++) {
        const char *v;
        int rc = 0;
        if ((rc = cli_plugins_take(&o.plugins, argc, argv, &i, &err)) != 0) {
            if (rc < 0) break;
        } else if (cli_progress_take(argv[i], &o.progress)) {
            continue;
        } else if ((rc = pc_cli_take(argc, argv, &i, "--shape", &v, &err)) != 0) {
            if (rc < 0 || spmm_gen_shape_parse(v, &o.shape))
                return cli_usage_error("bench spmm", "--shape takes uniform|banded|powerlaw|denserows");
        } else if ((rc = pc_cli_take(argc, argv, &i, "--rows", &v, &err)) != 0) {
            if (rc < 0 || pc_cli_parse_long("--rows", v, 1, INT32_MAX, &o.rows, &err)) break;
        } else if ((rc = pc_cli_take(argc, argv, &i, "--per-row", &v, &err)) != 0) {
            if (rc < 0 || pc_cli_parse_long("--per-row", v, 0, 1 << 20, &o.per_row, &err)) break;
        } else if ((rc = pc_cli_take(argc, argv, &i, "--max-row", &v, &err)) != 0) {
            if (rc < 0 || pc_cli_parse_long("--max-row", v, 0, INT32_MAX, &o.max_row, &err)) break;
        } else if ((rc = pc_cli_take(argc, argv, &i, "--reps", &v, &err)) != 0) {
            if (rc < 0 || pc_cli_parse_long("--reps", v, 1, PC_CLI_MAX_REPS, &o.reps, &err)) break;
        } else if ((rc = pc_cli_take(argc, argv, &i, "--seed", &v, &err)) != 0) {
            if (rc < 0 || pc_cli_parse_long("--seed", v, 0, INT64_MAX, &o.seed, &err)) break;
        } else if ((rc = pc_cli_take(argc, argv, &i, "--k", &v, &err)) != 0) {
            if (rc < 0 || bench_parse_list("--k", v, 1, 4096, o.ks, &o.nk)) return CLI_USAGE;
        } else if ((rc = pc_cli_take(argc, argv, &i, "--threads", &v, &err)) != 0) {
            if (rc < 0 || bench_parse_list("--threads", v, 1, PC_CLI_MAX_THREADS, o.threads, &o.nthreads)) return CLI_USAGE;
        } else if ((rc = pc_cli_take(argc, argv, &i, "--impl", &v, &err)) != 0) {
            if (rc < 0) break;
            o.impl = v;
        } else {
            pc_error_set(&err, PC_EINVAL, NULL, 0, "unknown argument '%s'", argv[i]);
            break;
        }
    }
    if (err.msg[0])
        return cli_usage_error("bench spmm", err.msg);
    int n = spmm_impl_count();
    const char *names[64];
    for (int k = 0; k < n; k++)
        names[k] = spmm_impl_at(k)->name;
    cli_selection sel;
    int code = cli_plugins_setup(&o.plugins, "bench spmm", PARCHECK_DOMAIN_SPMM, o.impl, names, n,
                                 o.threads[o.nthreads - 1], &sel);
    if (code != CLI_OK)
        return code;
    int named = 0; /* --impl named a plugin entry: then only those named run */
    for (int k = n; k < sel.n; k++)
        named |= sel.expl[k];
    for (int k = n; k < sel.n && !named; k++)
        sel.sel[k] = 1;
    static const char *shape_names[] = {"uniform", "banded", "powerlaw", "denserows"};
    spmm_gen_params p = {.rows = (int32_t)o.rows, .cols = (int32_t)o.rows,
                         .nnz = o.rows * o.per_row, .shape = o.shape, .seed = (uint64_t)o.seed,
                         .max_row = (int32_t)o.max_row};
    mm_coo coo;
    double t0 = pc_time_now();
    cli_progress_start("bench spmm", o.progress);
    cli_progress_set("generating a %s matrix of %lld rows", shape_names[o.shape], o.rows);
    if (spmm_gen_coo(&p, &coo, &err)) {
        cli_selection_free(&sel);
        cli_plugins_free(&o.plugins);
        return cli_usage_error("bench spmm", err.msg);
    }
    cli_progress_clear();
    fprintf(stderr, "bench: generated %s %lldx%lld, %lld entries in %.1f s\n", shape_names[o.shape],
            o.rows, o.rows, (long long)coo.nnz, pc_time_now() - t0);
    char casename[96];
    snprintf(casename, sizeof casename, "%s-%lld", shape_names[o.shape], o.rows);
    spmm_matrix A;
    spmm_matrix_init(&A, &coo);
    int status = bench_spmm_builtins(sel.sel, &A, &o, casename) < 0 ? CLI_FAILED : CLI_OK;
    int plugin_failed = 0; /* a plugin's failure stops only that plugin */
    for (int k = n; k < sel.n && status == CLI_OK; k++)
        if (sel.sel[k] && bench_spmm_plugin(sel.entry[k - n], &A, &o, casename) < 0)
            plugin_failed = 1;
    cli_progress_stop();
    spmm_matrix_free(&A);
    mm_coo_free(&coo);
    cli_selection_free(&sel);
    cli_plugins_free(&o.plugins);
    return plugin_failed ? CLI_FAILED : status;
}

/* The whole help of `parcheck bench`; the SpMM sweep's implementations
 * with their availability when spmm is set. */
static void bench_usage(FILE *f, int spmm)
{
    fputs("usage: parcheck bench stream [--mib M] [--threads LIST]\n"
          "       parcheck bench spmm [--shape S] [--rows M] [--per-row Z] [--max-row L] [--k LIST]\n"
          "                           [--threads LIST] [--impl LIST] [--reps R] [--seed S]\n"
          "                           [--plugin LIB.so ...] [--timeout S] [--no-fork] [--progress|--quiet]\n"
          "Timing sweeps as CSV rows on stdout (make bench). stream: copy bandwidth per\n"
          "thread count. spmm: a generated matrix, every K x thread count x implementation.\n"
          "A plugin's SpMM entries join the sweep (only those --impl names, if it names one).\n",
          f);
    fputs(CLI_PROGRESS_USAGE, f);
    if (spmm) {
        fputs("implementations:\n", f);
        cmd_spmm_list(f);
        cli_list_end(f);
    }
}

int cmd_bench(int argc, char **argv)
{
    int help = argc >= 3 && cli_is_help(argv[2]);
    if (argc >= 2 && !strcmp(argv[1], "stream")) {
        if (help) {
            bench_usage(stdout, 0);
            return CLI_OK;
        }
        return bench_stream(argc - 1, argv + 1);
    }
    if (argc >= 2 && !strcmp(argv[1], "spmm")) {
        if (help) {
            bench_usage(stdout, 1);
            return CLI_OK;
        }
        return bench_spmm(argc - 1, argv + 1);
    }
    if (argc >= 2 && cli_is_help(argv[1])) {
        bench_usage(stdout, 1);
        return CLI_OK;
    }
    return cli_usage_error("bench", argc >= 2 ? "the sweep is stream or spmm" : "which sweep? stream or spmm");
}
