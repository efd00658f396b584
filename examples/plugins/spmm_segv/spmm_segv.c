/* spmm_segv - a CSR SpMM that crashes on a matrix with an empty row.
 * prepare builds a table of pointers to each row's first column index,
 * NULL for an empty row; run prefetches the X row of that first column
 * without asking whether the row has one (the bug).
 * parcheck reports `crashed` (SIGSEGV, at a NULL pointer, in run 1) and
 * goes on with the other implementations. */
#include <parcheck/plugin.h>

typedef struct rows {
    const int32_t **first;  /* first[i] = &ja[irp[i]], or NULL for an empty row */
} rows;

static const parcheck_host *g_host;

static int prepare(const parcheck_entry *self, const void *problem, void **state, char *msg,
                   size_t msg_len)
{
    (void)self, (void)msg, (void)msg_len;
    const parcheck_spmm_problem *p = problem;
    rows *r = g_host->alloc(g_host->opaque, sizeof *r);
    const int32_t **first = g_host->alloc(g_host->opaque, sizeof *first * (size_t)(p->m + 1));
    if (!r || !first) {
        g_host->free(g_host->opaque, r);
        g_host->free(g_host->opaque, first);
        return PARCHECK_ENOMEM;
    }
    for (int32_t i = 0; i < p->m; i++)
        first[i] = p->irp[i] < p->irp[i + 1] ? p->ja + p->irp[i] : NULL;
    r->first = first;
    *state = r;
    return PARCHECK_OK;
}

static int run(const parcheck_entry *self, void *state, const parcheck_spmm_problem *p,
               char *msg, size_t msg_len)
{
    (void)self, (void)msg, (void)msg_len;
    const rows *r = state;
    const int64_t K = p->K;
    const double *as = p->as, *X = p->X;
    double *Y = p->Y;
    #pragma omp parallel for num_threads(p->threads) schedule(dynamic, 256)
    for (int32_t i = 0; i < p->m; i++) {
        const int32_t *cols = r->first[i];
        __builtin_prefetch(X + (int64_t)cols[0] * K); /* BUG: cols is NULL for an empty row */
        for (int64_t k = 0; k < K; k++) {
            double sum = 0.0;
            for (int32_t j = p->irp[i]; j < p->irp[i + 1]; j++)
                sum += as[j] * X[(int64_t)cols[j - p->irp[i]] * K + k];
            Y[i * K + k] = sum;
        }
    }
    return PARCHECK_OK;
}

static void release(const parcheck_entry *self, void *state)
{
    (void)self;
    rows *r = state;
    g_host->free(g_host->opaque, (void *)r->first);
    g_host->free(g_host->opaque, r);
}

static const parcheck_entry entry = {
    .abi_version = PARCHECK_PLUGIN_ABI,
    .struct_size = sizeof(parcheck_entry),
    .name = "spmm-segv",
    .description = "CSR SpMM that dereferences NULL on an empty row (example of a crash)",
    .domain = PARCHECK_DOMAIN_SPMM,
    .prepare = prepare,
    .run_spmm = run,
    .release = release,
};

/* the table, and parcheck_plugin_init storing the host table into g_host */
PARCHECK_PLUGIN_DEFINE_HOST(g_host, &entry);
