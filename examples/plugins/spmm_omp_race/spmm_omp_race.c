/* spmm_omp_race - an OpenMP CSR SpMM with a data race: the row sums live
 * in a global scratch array ("to avoid a malloc per call"), and global
 * storage is shared by every thread of the parallel loop. Correct with one
 * thread; with more, threads add into each other's sums and entries of Y
 * come out wrong, differently from run to run. parcheck reports `fail`
 * with the first wrong entries located, or "result changed between
 * repeated runs". The fix: a local accumulator inside the loop body (or
 * one scratch row per thread). */
#include <stdio.h>

#include <parcheck/plugin.h>

#define RACE_MAX_K 4096

/* BUG: one scratch row for every thread (global, "to avoid a malloc per call") */
double spmm_omp_race_acc[RACE_MAX_K];

static int run(const parcheck_entry *self, void *state, const parcheck_spmm_problem *p,
               char *msg, size_t msg_len)
{
    (void)self, (void)state;
    double *acc = spmm_omp_race_acc;
    const int32_t *irp = p->irp, *ja = p->ja;
    const double *as = p->as, *X = p->X;
    double *Y = p->Y;
    const int64_t K = p->K;
    if (K > RACE_MAX_K) {
        snprintf(msg, msg_len, "K = %lld is above this example's %d", (long long)K, RACE_MAX_K);
        return PARCHECK_EINVAL;
    }
    /* one row of Y at a time: its K sums in a scratch row, each entry's
     * X row read once, in order (cache-friendly for row-major X) */
    #pragma omp parallel for num_threads(p->threads) schedule(dynamic, 16)
    for (int32_t i = 0; i < p->m; i++) {
        for (int64_t k = 0; k < K; k++)
            acc[k] = 0.0;
        for (int32_t j = irp[i]; j < irp[i + 1]; j++)
            for (int64_t k = 0; k < K; k++)
                acc[k] += as[j] * X[(int64_t)ja[j] * K + k];
        for (int64_t k = 0; k < K; k++)
            Y[i * K + k] = acc[k];
    }
    return PARCHECK_OK;
}

static const parcheck_entry entry = {
    .abi_version = PARCHECK_PLUGIN_ABI,
    .struct_size = sizeof(parcheck_entry),
    .name = "spmm-omp-race",
    .description = "OpenMP CSR SpMM with a race on a static scratch row (example of a bug)",
    .domain = PARCHECK_DOMAIN_SPMM,
    .run_spmm = run,
};

/* the table of entries and parcheck_plugin_init, the one exported function */
PARCHECK_PLUGIN_DEFINE(&entry);
