/* spmm_omp_ok - a correct OpenMP CSR SpMM: Y = A * X, one row per
 * iteration, every product of row i added in stored order (the order
 * parcheck's error bound assumes). Copy this file to start your own. */
#include <parcheck/plugin.h>

static int run(const parcheck_entry *self, void *state, const parcheck_spmm_problem *p,
               char *msg, size_t msg_len)
{
    (void)self, (void)state, (void)msg, (void)msg_len;
    const int32_t *irp = p->irp, *ja = p->ja;
    const double *as = p->as, *X = p->X;
    double *Y = p->Y;
    const int64_t K = p->K;
    #pragma omp parallel for num_threads(p->threads) schedule(dynamic, 256)
    for (int32_t i = 0; i < p->m; i++) {
        double *restrict y = Y + i * K;
        for (int64_t k = 0; k < K; k++)
            y[k] = 0.0;
        for (int32_t j = irp[i]; j < irp[i + 1]; j++) {
            const double a = as[j];
            const double *restrict x = X + (int64_t)ja[j] * K;
            for (int64_t k = 0; k < K; k++)
                y[k] += a * x[k];
        }
    }
    return PARCHECK_OK;
}

static const parcheck_entry entry = {
    .abi_version = PARCHECK_PLUGIN_ABI,
    .struct_size = sizeof(parcheck_entry),
    .name = "spmm-omp-ok",
    .description = "OpenMP CSR SpMM, one row per iteration (example plugin)",
    .domain = PARCHECK_DOMAIN_SPMM,
    .run_spmm = run,
};

/* the table of entries and parcheck_plugin_init, the one exported function */
PARCHECK_PLUGIN_DEFINE(&entry);
