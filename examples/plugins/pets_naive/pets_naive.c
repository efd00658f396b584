/* pets_naive - a valid but slow PETS scheduler: tasks in a topological
 * order (Kahn's, ready tasks first come first served), each on the processor where
 * it can START earliest, whatever it costs there (no finish-time look,
 * no ranks). Appends only, so it ignores the policy. parcheck validates
 * the schedule (precedence with communication, no overlap) and reports
 * its makespan next to the lower bound and parcheck's own scheduler. */
#include <parcheck/plugin.h>
#include <string.h>

static const parcheck_host *g_host;

static void *take(size_t n)
{
    return g_host->alloc(g_host->opaque, n);
}

static void give(void *p)
{
    g_host->free(g_host->opaque, p);
}

/* Kahn's algorithm with a FIFO of ready tasks; order[0..n) receives them. */
static void topo_order(const parcheck_pets_problem *p, int32_t *indeg, int32_t *order)
{
    const int32_t n = p->ntasks;
    int32_t done = 0, head = 0;
    for (int32_t t = 0; t < n; t++)
        indeg[t] = p->pred_off[t + 1] - p->pred_off[t];
    for (int32_t t = 0; t < n; t++)
        if (indeg[t] == 0)
            order[done++] = t;
    while (head < done) {
        int32_t u = order[head++];
        for (int32_t e = p->succ_off[u]; e < p->succ_off[u + 1]; e++)
            if (--indeg[p->succ[e]] == 0)
                order[done++] = p->succ[e];
    }
}

static int run(const parcheck_entry *self, void *state, const parcheck_pets_problem *p,
               char *msg, size_t msg_len)
{
    (void)self, (void)state, (void)msg, (void)msg_len;
    const int32_t n = p->ntasks, P = p->nprocs;
    int32_t *order = take(sizeof *order * (size_t)(n + 1));
    int32_t *indeg = take(sizeof *indeg * (size_t)(n + 1));
    int64_t *finish = take(sizeof *finish * (size_t)(n + 1));
    int64_t *free_at = take(sizeof *free_at * (size_t)P);
    if (!order || !indeg || !finish || !free_at) {
        give(order), give(indeg), give(finish), give(free_at);
        return PARCHECK_ENOMEM;
    }
    memset(free_at, 0, sizeof *free_at * (size_t)P);
    topo_order(p, indeg, order);
    for (int32_t k = 0; k < n; k++) {
        const int32_t t = order[k];
        int32_t best = 0;
        int64_t best_start = -1;
        for (int32_t q = 0; q < P; q++) {
            int64_t s = free_at[q];
            for (int32_t e = p->pred_off[t]; e < p->pred_off[t + 1]; e++) {
                int32_t u = p->pred[e];
                int64_t ready = finish[u] + (p->proc[u] != q ? p->pred_comm[e] : 0);
                if (ready > s)
                    s = ready;
            }
            if (best_start < 0 || s < best_start) {
                best = q;
                best_start = s;
            }
        }
        p->proc[t] = best;
        p->start[t] = best_start;
        finish[t] = best_start + p->cost[(int64_t)t * P + best];
        free_at[best] = finish[t];
    }
    give(order), give(indeg), give(finish), give(free_at);
    return PARCHECK_OK;
}

static const parcheck_entry entry = {
    .abi_version = PARCHECK_PLUGIN_ABI,
    .struct_size = sizeof(parcheck_entry),
    .name = "pets-naive",
    .description = "earliest start on any processor, topological order (valid, slow; example)",
    .domain = PARCHECK_DOMAIN_PETS,
    .run_pets = run,
};

/* the table, and parcheck_plugin_init storing the host table into g_host */
PARCHECK_PLUGIN_DEFINE_HOST(g_host, &entry);
