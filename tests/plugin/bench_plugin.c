/* bench_plugin - the cost of isolation: the spmm_omp_ok kernel timed
 *   linked   compiled into this program (its source included below),
 *   worker   as the plugin build/examples/spmm_omp_ok.so in a worker process,
 *   no-fork  the same .so loaded into this process,
 *   csr-omp  parcheck's own OpenMP CSR kernel, for reference,
 * on one matrix, each as the median of --reps timed runs after one
 * untimed run, in --rounds rounds; each round starts with the next mode,
 * so drift and warm-up favour none of them.
 *
 *   bench_plugin [--rows M --nnz Z --shape S --seed S | --matrix F.mtx]
 *                [--k K] [--reps R] [--rounds N] [--threads T] [--plugin SO]
 *
 * The generated matrix is the one `parcheck gen matrix --cols M` writes
 * for the same parameters (same generator), without the file. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mm.h"
#include "pc_alloc.h"
#include "pc_cli.h"
#include "pc_time.h"
#include "plugins.h"
#include "spmm.h"

/* The example, linked in: its entry, under its own static names. */
#define parcheck_plugin_init example_plugin_init
#include "../../examples/plugins/spmm_omp_ok/spmm_omp_ok.c"
#undef parcheck_plugin_init

typedef struct bopts {
    long long rows, nnz, seed, K, reps, rounds, threads;
    int shape;
    const char *matrix;
    const char *plugin;
} bopts;

static double median_of(double *t, long long n)
{
    return pc_time_median(t, (size_t)n);
}

static double time_linked(const spmm_csr *A, const double *X, int K, double *Y, int threads,
                          long long reps)
{
    parcheck_spmm_problem p = {.abi_version = PARCHECK_PLUGIN_ABI,
                               .struct_size = sizeof p, .m = A->m, .n = A->n, .nnz = A->nnz,
                               .K = K, .threads = threads, .irp = A->irp, .ja = A->ja,
                               .as = A->as, .X = X, .Y = Y};
    char msg[64];
    double t[1000];
    entry.run_spmm(&entry, NULL, &p, msg, sizeof msg);
    for (long long r = 0; r < reps; r++) {
        double t0 = pc_time_now();
        entry.run_spmm(&entry, NULL, &p, msg, sizeof msg);
        t[r] = pc_time_now() - t0;
    }
    return median_of(t, reps);
}

static double time_builtin(const spmm_csr *A, const double *X, int K, double *Y, int threads,
                           long long reps)
{
    double t[1000];
    spmm_csr_omp(A, X, K, Y, threads);
    for (long long r = 0; r < reps; r++) {
        double t0 = pc_time_now();
        spmm_csr_omp(A, X, K, Y, threads);
        t[r] = pc_time_now() - t0;
    }
    return median_of(t, reps);
}

/* Median through the plugin runner; *same = outputs bitwise equal to Y;
 * *untimed = the call's wall time outside the timed runs (segment, copies,
 * worker start, loading, the first run). */
static double time_plugin(const plugin_entry *e, const spmm_csr *A, const double *X, int K,
                          const double *Y, const bopts *o, int no_fork, int *same,
                          double *untimed)
{
    double t0 = pc_time_now();
    plugin_opts po;
    plugin_opts_default(&po);
    po.reps = (int)o->reps;
    po.threads = (int)o->threads;
    po.no_fork = no_fork;
    plugin_spmm_in in = {.m = A->m, .n = A->n, .K = K, .nnz = A->nnz, .irp = A->irp,
                         .ja = A->ja, .as = A->as, .X = X};
    plugin_outcome out;
    pc_error err;
    pc_error_clear(&err);
    if (plugin_run_spmm(e, &in, &po, &out, &err) != 0 || out.status != PLUGIN_RAN) {
        fprintf(stderr, "bench_plugin: %s%s\n", err.msg, out.reason);
        exit(1);
    }
    double m = out.median_s;
    *untimed = pc_time_now() - t0;
    for (int r = 0; r < out.reps; r++)
        *untimed -= out.times[r];
    *same = memcmp(out.first[0], Y, out.bytes[0]) == 0 && out.repeatable;
    plugin_outcome_free(&out);
    return m;
}

static int parse(int argc, char **argv, bopts *o, pc_error *err)
{
    *o = (bopts){.rows = 500000, .nnz = 13500000, .seed = 1, .K = 16, .reps = 5, .rounds = 3,
                 .threads = pc_cli_default_threads(), .shape = SPMM_SHAPE_BANDED};
    for (int i = 1; i < argc; i++) {
        const char *v;
        int rc;
#define NUM(flag, lo, hi, dst)                                                        \
    if ((rc = pc_cli_take(argc, argv, &i, flag, &v, err)) != 0) {                      \
        if (rc < 0 || pc_cli_parse_long(flag, v, lo, hi, dst, err))                    \
            return -1;                                                                 \
        continue;                                                                      \
    }
        NUM("--rows", 1, INT32_MAX, &o->rows)
        NUM("--nnz", 0, MM_MAX_NNZ, &o->nnz)
        NUM("--seed", 0, INT64_MAX, &o->seed)
        NUM("--k", 1, 1024, &o->K)
        NUM("--reps", 1, 1000, &o->reps)
        NUM("--rounds", 1, 100, &o->rounds)
        NUM("--threads", 1, 4096, &o->threads)
#undef NUM
        if ((rc = pc_cli_take(argc, argv, &i, "--shape", &v, err)) != 0) {
            if (rc < 0 || spmm_gen_shape_parse(v, &o->shape))
                return pc_error_set(err, PC_EINVAL, NULL, 0, "--shape %s", v);
        } else if ((rc = pc_cli_take(argc, argv, &i, "--matrix", &v, err)) != 0) {
            if (rc < 0)
                return -1;
            o->matrix = v;
        } else if ((rc = pc_cli_take(argc, argv, &i, "--plugin", &v, err)) != 0) {
            if (rc < 0)
                return -1;
            o->plugin = v;
        } else {
            return pc_error_set(err, PC_EINVAL, NULL, 0, "unknown argument '%s'", argv[i]);
        }
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "plugin-worker"))
        return plugin_worker_main(argc - 1, argv + 1);
    bopts o;
    pc_error err;
    pc_error_clear(&err);
    if (parse(argc, argv, &o, &err)) {
        fprintf(stderr, "bench_plugin: %s\n", err.msg);
        return 2;
    }
    char so[4200];
    if (o.plugin) {
        snprintf(so, sizeof so, "%s", o.plugin);
    } else {
        char here[4096];
        ssize_t n = readlink("/proc/self/exe", here, sizeof here - 1);
        here[n > 0 ? n : 0] = '\0';
        *strrchr(here, '/') = '\0';
        snprintf(so, sizeof so, "%s/../../examples/spmm_omp_ok.so", here);
    }
    mm_coo coo;
    double t0 = pc_time_now();
    int rc;
    if (o.matrix) {
        rc = mm_read_file(o.matrix, &coo, &err);
    } else {
        spmm_gen_params gp = {.rows = (int32_t)o.rows, .cols = (int32_t)o.rows, .nnz = o.nnz,
                              .shape = o.shape, .seed = (uint64_t)o.seed};
        rc = spmm_gen_coo(&gp, &coo, &err);
    }
    spmm_csr A;
    double *X = NULL;
    if (rc == 0)
        rc = spmm_csr_from_coo(&coo, &A, (int)o.threads, &err);
    if (rc == 0)
        rc = spmm_make_x(coo.cols, (int)o.K, 1, 0, &X, &err);
    size_t ylen = (size_t)coo.rows * (size_t)o.K;
    double *Y = rc == 0 ? pc_malloc_array(ylen ? ylen : 1, sizeof *Y) : NULL;
    double *Yb = rc == 0 ? pc_malloc_array(ylen ? ylen : 1, sizeof *Yb) : NULL;
    if (rc || !Y || !Yb) {
        fprintf(stderr, "bench_plugin: %s\n", rc ? err.msg : "out of memory");
        return 1;
    }
    printf("matrix %s: %d x %d, nnz %lld, K %lld, threads %lld, reps %lld, rounds %lld "
           "(set-up %.1f s)\n",
           o.matrix ? o.matrix : "generated", coo.rows, coo.cols, (long long)coo.nnz, o.K,
           o.threads, o.reps, o.rounds, pc_time_now() - t0);
    plugin_set ps;
    plugin_set_init(&ps);
    plugin_opts po;
    plugin_opts_default(&po);
    if (plugin_set_load(&ps, so, NULL, 0, &po, &err)) {
        fprintf(stderr, "bench_plugin: %s\n", err.msg);
        return 1;
    }
    const plugin_entry *e = plugin_set_find(&ps, "spmm-omp-ok");
    if (!e) {
        fprintf(stderr, "bench_plugin: %s has no entry spmm-omp-ok\n", so);
        return 1;
    }
    enum { LINKED, WORKER, NOFORK, BUILTIN, NMODES };
    static const char *const names[NMODES] = {"linked", "worker", "no-fork", "csr-omp"};
    double med[NMODES][100];
    double untimed[2] = {0, 0};
    int same[2] = {1, 1};
    for (long long r = 0; r < o.rounds; r++) {
        for (int j = 0; j < NMODES; j++) {
            int k = (int)((r + j) % NMODES);
            double u = 0;
            int eq = 1;
            if (k == LINKED)
                med[k][r] = time_linked(&A, X, (int)o.K, Y, (int)o.threads, o.reps);
            else if (k == BUILTIN)
                med[k][r] = time_builtin(&A, X, (int)o.K, Yb, (int)o.threads, o.reps);
            else
                med[k][r] = time_plugin(e, &A, X, (int)o.K, Y, &o, k == NOFORK, &eq, &u);
            if (k == WORKER || k == NOFORK) {
                untimed[k - WORKER] += u / (double)o.rounds;
                same[k - WORKER] &= eq;
            }
        }
        printf("round %lld:", r + 1);
        for (int k = 0; k < NMODES; k++)
            printf("  %s %.6f s", names[k], med[k][r]);
        printf("\n");
        fflush(stdout);
    }
    printf("outputs equal to the linked kernel's: worker %s, no-fork %s; untimed part of a "
           "plugin call (segment, copies, start, load, first run): worker %.2f s, no-fork "
           "%.2f s\n",
           same[0] ? "yes" : "NO", same[1] ? "yes" : "NO", untimed[0], untimed[1]);
    double m[NMODES];
    for (int k = 0; k < NMODES; k++)
        m[k] = median_of(med[k], o.rounds);
    printf("median of the round medians:");
    for (int k = 0; k < NMODES; k++)
        printf("  %s %.6f s", names[k], m[k]);
    printf("\nratio worker / linked = %.4f, worker / no-fork = %.4f, no-fork / linked = %.4f\n",
           m[WORKER] / m[LINKED], m[WORKER] / m[NOFORK], m[NOFORK] / m[LINKED]);
    plugin_set_free(&ps);
    pc_free(Y);
    pc_free(Yb);
    pc_free(X);
    spmm_csr_free(&A);
    mm_coo_free(&coo);
    return 0;
}
