/* pets_gen.c - the PETS paper's random task graphs, reproducible by seed:
 * v tasks in levels (height mean sqrt(v)/alpha, widths mean alpha*sqrt(v),
 * rescaled to v exactly), mean out-degree beta towards the next two levels,
 * mean costs W_i uniform in [1, 2 W_dag - 1], per-processor costs within
 * W_i(1 -+ eta/2), communication costs with mean CCR * W_dag. */
#include <math.h>
#include <string.h>

#include "pc_alloc.h"
#include "pc_rng.h"
#include "pets_priv.h"

void pets_gen_defaults(pets_gen_params *p)
{
    *p = (pets_gen_params){.tasks = 64, .out_degree = 3, .alpha = 1, .ccr = 1, .eta = 0.5,
                           .procs = 4, .wdag = 50, .seed = 1};
}

/* Uniform integer with the given mean >= 1: [1, 2*mean - 1]. */
static int64_t draw_mean(pc_rng *r, double mean)
{
    int64_t hi = llround(2 * mean - 1);
    return hi <= 1 ? 1 : pc_rng_range(r, 1, hi);
}

static int gen_check(const pets_gen_params *p, pc_error *err)
{
    if (p->tasks < 1 || p->tasks > PETS_MAX_TASKS)
        return pc_error_set(err, PC_EINVAL, NULL, 0, "tasks must be within [1, %d]", PETS_MAX_TASKS);
    if (p->procs < 1 || p->procs > PETS_MAX_PROCS)
        return pc_error_set(err, PC_EINVAL, NULL, 0, "procs must be within [1, %d]", PETS_MAX_PROCS);
    if (!(p->out_degree >= 1 && p->out_degree <= 64))
        return pc_error_set(err, PC_EINVAL, NULL, 0, "out-degree must be within [1, 64]");
    if (!(p->alpha >= 0.01 && p->alpha <= 100))
        return pc_error_set(err, PC_EINVAL, NULL, 0, "alpha must be within [0.01, 100]");
    if (!(p->ccr >= 0 && p->ccr <= 1000))
        return pc_error_set(err, PC_EINVAL, NULL, 0, "ccr must be within [0, 1000]");
    if (!(p->eta >= 0 && p->eta < 2))
        return pc_error_set(err, PC_EINVAL, NULL, 0, "eta must be within [0, 2)");
    if (p->wdag < 1 || p->wdag > 1000000)
        return pc_error_set(err, PC_EINVAL, NULL, 0, "wdag must be within [1, 1000000]");
    if ((int64_t)p->tasks * p->procs > PETS_MAX_CELLS)
        return pc_error_set(err, PC_EINVAL, NULL, 0, "tasks x procs exceeds %lld", (long long)PETS_MAX_CELLS);
    return PC_OK;
}

int pets_gen_dag(const pets_gen_params *gp, pets_dag *dag, pc_error *err)
{
    memset(dag, 0, sizeof *dag);
    int rc = gen_check(gp, err);
    if (rc)
        return rc;
    int32_t v = gp->tasks, P = gp->procs;
    pc_rng r;
    pc_rng_seed(&r, gp->seed);
    double sq = sqrt((double)v);
    int64_t h = draw_mean(&r, sq / gp->alpha);
    if (h > v)
        h = v;
    int32_t *lstart = pc_malloc_array((size_t)h + 1, sizeof *lstart);
    int64_t *width = pc_malloc_array((size_t)h, sizeof *width);
    int32_t *perm = pc_malloc_array((size_t)v, sizeof *perm);
    unsigned char *has_pred = pc_calloc((size_t)v, 1);
    int64_t *mean = pc_malloc_array((size_t)v, sizeof *mean);
    int64_t *cost = pc_malloc_array((size_t)v * P, sizeof *cost);
    pets_edge *edges = NULL;
    int64_t ne = 0, cap = 0;
    if (!lstart || !width || !perm || !has_pred || !mean || !cost) {
        rc = pc_error_nomem(err, "generating a task graph");
        goto out;
    }
    /* level widths, rescaled to sum to v with every level non-empty */
    int64_t total = 0, sum = 0;
    for (int64_t l = 0; l < h; l++)
        total += width[l] = draw_mean(&r, gp->alpha * sq);
    for (int64_t l = 0; l < h; l++) {
        width[l] = width[l] * v / total;
        if (width[l] < 1)
            width[l] = 1;
        sum += width[l];
    }
    while (sum < v) {
        width[pc_rng_below(&r, (uint64_t)h)]++;
        sum++;
    }
    while (sum > v) {
        int64_t l = (int64_t)pc_rng_below(&r, (uint64_t)h);
        if (width[l] > 1) {
            width[l]--;
            sum--;
        }
    }
    lstart[0] = 0;
    for (int64_t l = 0; l < h; l++)
        lstart[l + 1] = lstart[l] + (int32_t)width[l];
    /* task numbers: a random permutation of the level-by-level positions */
    for (int32_t i = 0; i < v; i++)
        perm[i] = i;
    for (int32_t i = v - 1; i > 0; i--) {
        int32_t j = (int32_t)pc_rng_below(&r, (uint64_t)i + 1);
        int32_t t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }
    int64_t chi = llround(2 * gp->ccr * (double)gp->wdag);
    int32_t picked[160];
    for (int64_t l = 0; l + 1 < h && !rc; l++) {
        int32_t lo = lstart[l + 1], hi = lstart[l + 3 <= h ? l + 3 : h];
        for (int32_t u = lstart[l]; u < lstart[l + 1] && !rc; u++) {
            int64_t d = draw_mean(&r, gp->out_degree);
            if (d > hi - lo)
                d = hi - lo;
            for (int64_t k = 0; k < d && !rc; k++) {
                int32_t t;
                int dup;
                do { /* distinct children: d is small, so retry */
                    t = lo + (int32_t)pc_rng_below(&r, (uint64_t)(hi - lo));
                    dup = 0;
                    for (int64_t q = 0; q < k; q++)
                        dup |= picked[q] == t;
                } while (dup);
                picked[k] = t;
                has_pred[t] = 1;
                int64_t c = chi > 0 ? pc_rng_range(&r, 0, chi) : 0;
                if (pets_edges_push(&edges, &ne, &cap, (pets_edge){perm[u], perm[t], c, 0}))
                    rc = pc_error_nomem(err, "generating a task graph");
            }
        }
    }
    /* every task below the first level gets a parent one level up */
    for (int64_t l = 1; l < h && !rc; l++)
        for (int32_t t = lstart[l]; t < lstart[l + 1] && !rc; t++)
            if (!has_pred[t]) {
                int32_t u = lstart[l - 1] + (int32_t)pc_rng_below(&r, (uint64_t)width[l - 1]);
                int64_t c = chi > 0 ? pc_rng_range(&r, 0, chi) : 0;
                if (pets_edges_push(&edges, &ne, &cap, (pets_edge){perm[u], perm[t], c, 0}))
                    rc = pc_error_nomem(err, "generating a task graph");
            }
    if (rc)
        goto out;
    if (ne > PETS_MAX_EDGES) {
        rc = pc_error_set(err, PC_ERANGE, NULL, 0, "%lld edges: more than %d", (long long)ne, PETS_MAX_EDGES);
        goto out;
    }
    for (int32_t i = 0; i < v; i++)
        mean[perm[i]] = draw_mean(&r, (double)gp->wdag);
    pets_heterogeneity(mean, v, P, gp->eta, pc_rng_u64(&r), cost);
    rc = pets_dag_build(dag, v, P, cost, edges, ne, NULL, err);
out:
    pc_free(lstart);
    pc_free(width);
    pc_free(perm);
    pc_free(has_pred);
    pc_free(mean);
    pc_free(cost);
    pc_free(edges);
    return rc;
}
