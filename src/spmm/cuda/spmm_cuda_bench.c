/* spmm_cuda_bench.c - timing sweep of the CUDA SpMM implementations
 * (ci/bench.d/spmm_cuda.sh runs it; built as build/bin/spmm-cuda-bench).
 *
 * Generated matrices are made in memory (spmm_gen_coo), which is much
 * faster than writing and reading 50M-entry Matrix Market text. For each
 * case and K it runs every selected implementation: prepare, one warm-up
 * run, then --reps timed runs; the time is the median over the runs of the
 * kernel time: for the CUDA entries, the mean of about 1 ms of back-to-back
 * launches of the kernel alone after each run (CUDA events, copies apart;
 * the launch count is in the note), so that kernels of a few microseconds
 * are timed, not the events around them. Results
 * are checked against csr-omp within 2 gamma_n (|A||X|) (the tests check
 * against the oracle; its double-double pass over 50M entries x 64 columns
 * would dominate the benchmark). Prints a table, and appends CSV rows
 *   spmm-cuda,case,impl,1,K=k,seconds,GFLOP/s,GFLOP/s,note
 * to --csv. Without a CUDA device it prints SKIPPED and exits 0. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mm.h"
#include "pc_alloc.h"
#include "pc_cli.h"
#include "pc_config.h"
#include "pc_time.h"
#include "spmm.h"
#if PC_HAVE_CUDA
#include "spmm_cuda_extra.cuh"
#endif

#define MAX_IMPLS 64
#define MAX_KS 16

typedef struct bench_opts {
    const char *cases;
    const char *ks;
    const char *impls;
    const char *csv;
    const char *data;
    long long rows, reps;
} bench_opts;

typedef struct bench_row {
    char case_name[64];
    int K;
    char impl[40];
    double seconds; /* < 0: not run */
} bench_row;

static bench_row g_rows[4096];
static int g_nrows;

static int usage(void)
{
    fputs("usage: spmm-cuda-bench [--cases banded,uniform,powerlaw,FILE.mtx,...] [--k 1,4,16,64]\n"
          "                       [--impl LIST|all] [--reps R] [--rows M] [--csv FILE]\n",
          stderr);
    return 2;
}

static int is_cuda_impl(const spmm_impl *impl)
{
    return strstr(impl->name, "cuda") != NULL || strcmp(impl->name, "cusparse") == 0;
}

/* Builds the case: generated shapes by name, else a Matrix Market path. */
static int make_case(const char *name, long long rows, mm_coo *coo, pc_error *err)
{
    int shape;
    if (spmm_gen_shape_parse(name, &shape) == 0) {
        int64_t per_row = shape == SPMM_SHAPE_BANDED ? 27 : shape == SPMM_SHAPE_UNIFORM ? 16 : 8;
        spmm_gen_params p = {.rows = (int32_t)rows, .cols = (int32_t)rows, .nnz = rows * per_row,
                             .shape = shape, .seed = 42, .max_row = 10000};
        return spmm_gen_coo(&p, coo, err);
    }
    return mm_read_file(name, coo, err);
}

/* Loose check against csr-omp: |y - yref| <= 2 gamma_n (|A||X|)_ij. */
static long long check_close(const spmm_csr *A, const double *X, int K, const double *yref,
                             const double *Y)
{
    long long bad = 0;
    const double u = 0x1.0p-53;
#pragma omp parallel for schedule(dynamic, 1024) reduction(+ : bad)
    for (int32_t i = 0; i < A->m; i++) {
        int32_t lo = A->irp[i], hi = A->irp[i + 1];
        double nu = (hi - lo) * u, gamma = nu / (1.0 - nu);
        for (int k = 0; k < K; k++) {
            double absax = 0.0;
            for (int32_t e = lo; e < hi; e++)
                absax += fabs(A->as[e]) * fabs(X[(size_t)A->ja[e] * K + k]);
            size_t s = (size_t)i * K + k;
            if (!(fabs(Y[s] - yref[s]) <= 2.0 * gamma * absax * (1.0 + 4 * u)))
                bad++;
        }
    }
    return bad;
}

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    const char *b = s ? s + 1 : path;
    static char buf[64];
    snprintf(buf, sizeof buf, "%s", b);
    char *dot = strstr(buf, ".mtx");
    if (dot)
        *dot = '\0';
    return buf;
}

static void bench_case(const char *name, const bench_opts *o, const int *ks, int nk,
                       const int *sel, double copy_gbs, FILE *csv)
{
    pc_error err;
    pc_error_clear(&err);
    mm_coo coo;
    double t0 = pc_time_now();
    if (make_case(name, o->rows, &coo, &err)) {
        fprintf(stderr, "spmm-cuda-bench: %s: %s\n", name, err.msg);
        return;
    }
    const char *cname = base_name(name);
    spmm_matrix A;
    spmm_matrix_init(&A, &coo);
    if (spmm_matrix_need(&A, SPMM_FMT_CSR, 0, &err)) {
        fprintf(stderr, "spmm-cuda-bench: %s: %s\n", name, err.msg);
        mm_coo_free(&coo);
        return;
    }
    int32_t maxlen = 0;
    for (int32_t i = 0; i < A.csr.m; i++)
        if (A.csr.irp[i + 1] - A.csr.irp[i] > maxlen)
            maxlen = A.csr.irp[i + 1] - A.csr.irp[i];
    printf("\n== %s: %d x %d, nnz %lld, longest row %d (built in %.1f s)\n", cname, coo.rows,
           coo.cols, (long long)coo.nnz, maxlen, pc_time_now() - t0);
    int threads = pc_cli_default_threads();
    for (int kk = 0; kk < nk; kk++) {
        int K = ks[kk];
        double *X = NULL;
        size_t ylen = (size_t)coo.rows * K;
        if (spmm_make_x(coo.cols, K, 7, 0, &X, &err)) {
            fprintf(stderr, "spmm-cuda-bench: %s\n", err.msg);
            break;
        }
        double *Y = pc_malloc_array(ylen ? ylen : 1, sizeof *Y);
        double *Yref = pc_malloc_array(ylen ? ylen : 1, sizeof *Yref);
        double *times = pc_malloc_array((size_t)o->reps, sizeof *times);
        if (!Y || !Yref || !times) {
            fprintf(stderr, "spmm-cuda-bench: out of memory\n");
            pc_free(X);
            pc_free(Y);
            pc_free(Yref);
            pc_free(times);
            break;
        }
#if PC_HAVE_CUDA
        int pinned_x = spmm_cuda_host_register(X, (size_t)coo.cols * K * sizeof *X) == 0;
        int pinned_y = spmm_cuda_host_register(Y, ylen * sizeof *Y) == 0;
#endif
        spmm_csr_omp(&A.csr, X, K, Yref, threads);
        double bytes = 12.0 * (double)coo.nnz + 4.0 * (coo.rows + 1.0) +
                       8.0 * K * ((double)coo.cols + coo.rows);
        printf("%-28s %3s %10s %9s %9s %7s %9s %9s  %s\n", "impl", "K", "ms", "GFLOP/s", "GB/s",
               "%copy", "h2d ms", "d2h ms", "check / plan");
        for (int k = 0; k < spmm_impl_count(); k++) {
            const spmm_impl *impl = spmm_impl_at(k);
            if (!sel[k])
                continue;
            char why[256];
            if (!spmm_impl_available(impl, why, sizeof why)) {
                printf("%-28s %3d skipped: %s\n", impl->name, K, why);
                continue;
            }
            if (spmm_matrix_need(&A, impl->format, threads, &err)) {
                printf("%-28s %3d skipped: %s\n", impl->name, K, err.msg);
                pc_error_clear(&err);
                continue;
            }
            void *state = NULL;
            double tp = pc_time_now();
            if (impl->prepare && impl->prepare(impl, &A, K, &state, &err)) {
                printf("%-28s %3d error: %s\n", impl->name, K, err.msg);
                continue;
            }
            tp = pc_time_now() - tp;
            spmm_timing tm = {-1, -1, -1, -1, -1};
            int rc = impl->run(impl, state, &A, X, K, Y, threads, &tm, &err);
            long long bad = rc ? -1 : check_close(&A.csr, X, K, Yref, Y);
            double h2d = 0, d2h = 0;
            int launches = 1;
            for (long long r = 0; r < o->reps && rc == 0; r++) {
                tm = (spmm_timing){-1, -1, -1, -1, -1};
                double s = pc_time_now();
                rc = impl->run(impl, state, &A, X, K, Y, threads, &tm, &err);
                times[r] = tm.kernel_s >= 0 ? tm.kernel_s : pc_time_now() - s;
#if PC_HAVE_CUDA
                /* the kernel alone, back to back: see spmm_cuda_time_kernel */
                if (rc == 0 && is_cuda_impl(impl) && tm.kernel_s > 0)
                    rc = spmm_cuda_time_kernel(state, tm.kernel_s, &times[r], &launches, &err);
#endif
                h2d += tm.h2d_s > 0 ? tm.h2d_s : 0;
                d2h += tm.d2h_s > 0 ? tm.d2h_s : 0;
            }
            const char *plan = "";
#if PC_HAVE_CUDA
            if (is_cuda_impl(impl))
                plan = spmm_cuda_plan_name(state);
#endif
            char note[200];
            if (rc) {
                printf("%-28s %3d error: %s\n", impl->name, K, err.msg);
            } else {
                double sec = pc_time_median(times, (size_t)o->reps);
                double gflops = 2.0 * (double)coo.nnz * K / sec * 1e-9;
                double gbs = bytes / sec * 1e-9;
                snprintf(note, sizeof note, "%s%s%s prepare=%.3fs launches=%d",
                         bad ? "CHECK-FAILED " : "check-ok", *plan ? " plan=" : "", plan, tp,
                         launches);
                printf("%-28s %3d %10.4f %9.2f %9.1f %6.1f%% %9.3f %9.3f  %s\n", impl->name, K,
                       sec * 1e3, gflops, gbs, copy_gbs > 0 ? 100.0 * gbs / copy_gbs : 0.0,
                       h2d / o->reps * 1e3, d2h / o->reps * 1e3, note);
                fflush(stdout);
                if (csv)
                    fprintf(csv, "spmm-cuda,%s,%s,1,K=%d,%.9g,%.6g,GFLOP/s,%s bw=%.1fGB/s copy=%.1fGB/s "
                                 "h2d=%.6fs d2h=%.6fs\n",
                            cname, impl->name, K, sec, gflops, note, gbs, copy_gbs,
                            h2d / o->reps, d2h / o->reps);
                if (g_nrows < (int)(sizeof g_rows / sizeof g_rows[0])) {
                    bench_row *b = &g_rows[g_nrows++];
                    snprintf(b->case_name, sizeof b->case_name, "%s", cname);
                    snprintf(b->impl, sizeof b->impl, "%s", impl->name);
                    b->K = K;
                    b->seconds = bad ? -1 : sec;
                }
            }
            if (impl->release)
                impl->release(state);
        }
#if PC_HAVE_CUDA
        if (pinned_x)
            spmm_cuda_host_unregister(X);
        if (pinned_y)
            spmm_cuda_host_unregister(Y);
#endif
        pc_free(X);
        pc_free(Y);
        pc_free(Yref);
        pc_free(times);
    }
    spmm_matrix_free(&A);
    mm_coo_free(&coo);
}

static double find_time(const char *c, int K, const char *impl)
{
    for (int i = 0; i < g_nrows; i++)
        if (!strcmp(g_rows[i].case_name, c) && g_rows[i].K == K && !strcmp(g_rows[i].impl, impl))
            return g_rows[i].seconds;
    return -1;
}

/* fast / cuSPARSE speed-up per case, with the geometric mean and minimum. */
static void summary(void)
{
    double logsum = 0, worst = -1;
    int n = 0;
    printf("\n== csr-cuda-fast vs cusparse (speed-up = cusparse time / fast time)\n");
    for (int i = 0; i < g_nrows; i++) {
        if (strcmp(g_rows[i].impl, "cusparse") != 0)
            continue;
        double ts = g_rows[i].seconds, tf = find_time(g_rows[i].case_name, g_rows[i].K, "csr-cuda-fast");
        if (ts <= 0 || tf <= 0)
            continue;
        double r = ts / tf;
        printf("%-12s K=%-3d cusparse %9.4f ms  fast %9.4f ms  speed-up %.2fx\n", g_rows[i].case_name,
               g_rows[i].K, ts * 1e3, tf * 1e3, r);
        logsum += log(r);
        n++;
        if (worst < 0 || r < worst)
            worst = r;
    }
    if (n)
        printf("geometric mean speed-up %.3fx over %d cases, lowest %.3fx\n", exp(logsum / n), n, worst);
}

static int parse_ks(const char *s, int *ks)
{
    int n = 0;
    char buf[256];
    snprintf(buf, sizeof buf, "%s", s);
    for (char *t = strtok(buf, ","); t && n < MAX_KS; t = strtok(NULL, ",")) {
        int k = atoi(t);
        if (k < 1 || k > 4096)
            return -1;
        ks[n++] = k;
    }
    return n;
}

int main(int argc, char **argv)
{
    bench_opts o = {.cases = "banded,uniform,powerlaw", .ks = "1,4,16,64", .impls = "all",
                    .csv = NULL, .rows = 2097152, .reps = 10};
    pc_error err;
    pc_error_clear(&err);
    for (int i = 1; i < argc; i++) {
        const char *v = NULL;
        int rc;
        if ((rc = pc_cli_take(argc, argv, &i, "--cases", &v, &err)) != 0) {
            if (rc < 0)
                return usage();
            o.cases = v;
        } else if ((rc = pc_cli_take(argc, argv, &i, "--k", &v, &err)) != 0) {
            if (rc < 0)
                return usage();
            o.ks = v;
        } else if ((rc = pc_cli_take(argc, argv, &i, "--impl", &v, &err)) != 0) {
            if (rc < 0)
                return usage();
            o.impls = v;
        } else if ((rc = pc_cli_take(argc, argv, &i, "--csv", &v, &err)) != 0) {
            if (rc < 0)
                return usage();
            o.csv = v;
        } else if ((rc = pc_cli_take(argc, argv, &i, "--reps", &v, &err)) != 0) {
            if (rc < 0 || pc_cli_parse_long("--reps", v, 1, 10000, &o.reps, &err))
                return usage();
        } else if ((rc = pc_cli_take(argc, argv, &i, "--rows", &v, &err)) != 0) {
            if (rc < 0 || pc_cli_parse_long("--rows", v, 1, 1 << 26, &o.rows, &err))
                return usage();
        } else {
            return usage();
        }
    }
    int ks[MAX_KS];
    int nk = parse_ks(o.ks, ks);
    if (nk <= 0)
        return usage();
    int n = spmm_impl_count();
    int sel[MAX_IMPLS], expl[MAX_IMPLS];
    if (spmm_impl_select(o.impls, sel, expl, &err)) {
        fprintf(stderr, "spmm-cuda-bench: %s\n", err.msg);
        return 2;
    }
    if (!strcmp(o.impls, "all")) /* all = every CUDA implementation */
        for (int k = 0; k < n; k++)
            sel[k] = is_cuda_impl(spmm_impl_at(k));
    double copy_gbs = 0;
#if PC_HAVE_CUDA
    char device[256];
    int rc = spmm_cuda_copy_bandwidth((size_t)1 << 30, 10, &copy_gbs, device, sizeof device, &err);
    if (rc == PC_EUNAVAIL) {
        printf("SKIPPED (%s)\n", err.msg);
        return 0;
    }
    if (rc) {
        fprintf(stderr, "spmm-cuda-bench: %s\n", err.msg);
        return 1;
    }
    printf("device %s: device-to-device copy %.1f GB/s (read + write)\n", device, copy_gbs);
#else
    printf("SKIPPED (built without CUDA: %s)\n", PC_CUDA_WHY);
    return 0;
#endif
    FILE *csv = NULL;
    if (o.csv && !(csv = fopen(o.csv, "a"))) {
        fprintf(stderr, "spmm-cuda-bench: cannot append to %s\n", o.csv);
        return 1;
    }
    char cases[4096];
    snprintf(cases, sizeof cases, "%s", o.cases);
    char *save = NULL;
    for (char *c = strtok_r(cases, ",", &save); c; c = strtok_r(NULL, ",", &save))
        bench_case(c, &o, ks, nk, sel, copy_gbs, csv);
    if (csv)
        fclose(csv);
    summary();
    return 0;
}
