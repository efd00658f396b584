/* spmm_omp_race - an OpenMP CSR SpMM with a data race: the row sum is
 * declared outside the parallel loop, so every thread adds into the same
 * variable. Correct with one thread; with more, entries of Y come out
 * wrong, and differently from run to run. parcheck reports `fail` with
 * the first wrong entries, or "result changed between repeated runs".
 * The fix: declare sum inside the loop body (or list it in private()). */
#include <parcheck/plugin.h>

static int run(const parcheck_entry *self, void *state, const parcheck_spmm_problem *p,
               char *msg, size_t msg_len)
{
    (void)self, (void)state, (void)msg, (void)msg_len;
    const int32_t *irp = p->irp, *ja = p->ja;
    const double *as = p->as, *X = p->X;
    double *Y = p->Y;
    const int64_t K = p->K;
    double sum; /* BUG: shared by every thread of the loop below */
    #pragma omp parallel for num_threads(p->threads) schedule(dynamic, 16)
    for (int32_t i = 0; i < p->m; i++) {
        for (int64_t k = 0; k < K; k++) {
            sum = 0.0;
            for (int32_t j = irp[i]; j < irp[i + 1]; j++)
                sum += as[j] * X[(int64_t)ja[j] * K + k];
            Y[i * K + k] = sum;
        }
    }
    return PARCHECK_OK;
}

static const parcheck_entry entry = {
    .abi_version = PARCHECK_PLUGIN_ABI,
    .struct_size = sizeof(parcheck_entry),
    .name = "spmm-omp-race",
    .description = "OpenMP CSR SpMM with a race on the row sum (example of a bug)",
    .domain = PARCHECK_DOMAIN_SPMM,
    .run_spmm = run,
};

/* the table of entries and parcheck_plugin_init, the one exported function */
PARCHECK_PLUGIN_DEFINE(&entry);
