/* pets_dag.c - the task graph model: checked construction (sizes, values,
 * self-loops, duplicates, cycles) into CSR successor / predecessor lists,
 * and what the generator and the importers both build graphs with (a
 * growable edge list, per-processor costs from mean costs). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pc_alloc.h"
#include "pc_rng.h"
#include "pets_priv.h"

void pets_dag_free(pets_dag *dag)
{
    if (!dag)
        return;
    pc_free(dag->cost);
    pc_free(dag->edge_from);
    pc_free(dag->edge_to);
    pc_free(dag->edge_comm);
    pc_free(dag->succ_off);
    pc_free(dag->succ);
    pc_free(dag->succ_comm);
    pc_free(dag->pred_off);
    pc_free(dag->pred);
    pc_free(dag->pred_comm);
    memset(dag, 0, sizeof *dag);
}

static int edge_cmp(const void *a, const void *b)
{
    const pets_edge *x = a, *y = b;
    if (x->from != y->from)
        return x->from < y->from ? -1 : 1;
    if (x->to != y->to)
        return x->to < y->to ? -1 : 1;
    return (x->line > y->line) - (x->line < y->line);
}

/* Sizes and values first, so nothing is allocated for a graph we refuse. */
static int dag_check_sizes(int32_t ntasks, int32_t nprocs, const int64_t *cost,
                           const pets_edge *edges, int64_t nedges, const char *path,
                           pc_error *err)
{
    if (ntasks < 1 || ntasks > PETS_MAX_TASKS)
        return pc_error_set(err, PC_ERANGE, path, 0, "%ld tasks: must be within [1, %d]",
                            (long)ntasks, PETS_MAX_TASKS);
    if (nprocs < 1 || nprocs > PETS_MAX_PROCS)
        return pc_error_set(err, PC_ERANGE, path, 0, "%ld processors: must be within [1, %d]",
                            (long)nprocs, PETS_MAX_PROCS);
    if ((int64_t)ntasks * nprocs > PETS_MAX_CELLS)
        return pc_error_set(err, PC_ERANGE, path, 0, "%ld tasks x %ld processors exceeds %lld costs",
                            (long)ntasks, (long)nprocs, (long long)PETS_MAX_CELLS);
    if (nedges < 0 || nedges > PETS_MAX_EDGES)
        return pc_error_set(err, PC_ERANGE, path, 0, "%lld edges: more than %d",
                            (long long)nedges, PETS_MAX_EDGES);
    int64_t weight = 0;
    for (int64_t i = 0; i < (int64_t)ntasks * nprocs; i++) {
        if (cost[i] < 0 || cost[i] > PETS_MAX_VALUE)
            return pc_error_set(err, PC_ERANGE, path, 0, "task %lld: cost %lld outside [0, %lld]",
                                (long long)(i / nprocs + 1), (long long)cost[i],
                                (long long)PETS_MAX_VALUE);
        weight += cost[i];
        if (weight > PETS_MAX_WEIGHT)
            return pc_error_set(err, PC_ERANGE, path, 0,
                                "total weight of the graph exceeds %lld", (long long)PETS_MAX_WEIGHT);
    }
    for (int64_t k = 0; k < nedges; k++) {
        const pets_edge *e = &edges[k];
        if (e->from < 0 || e->from >= ntasks || e->to < 0 || e->to >= ntasks)
            return pc_error_set(err, PC_EFORMAT, path, e->line, "edge %lld %lld: unknown task (tasks are 1..%ld)",
                                (long long)e->from + 1, (long long)e->to + 1, (long)ntasks);
        if (e->from == e->to)
            return pc_error_set(err, PC_EFORMAT, path, e->line, "edge %ld %ld: self-loop",
                                (long)e->from + 1, (long)e->to + 1);
        if (e->comm < 0 || e->comm > PETS_MAX_VALUE)
            return pc_error_set(err, PC_ERANGE, path, e->line,
                                "edge %ld %ld: communication cost %lld outside [0, %lld]",
                                (long)e->from + 1, (long)e->to + 1, (long long)e->comm,
                                (long long)PETS_MAX_VALUE);
        weight += (int64_t)nprocs * e->comm;
        if (weight > PETS_MAX_WEIGHT)
            return pc_error_set(err, PC_ERANGE, path, e->line,
                                "total weight of the graph exceeds %lld", (long long)PETS_MAX_WEIGHT);
    }
    return PC_OK;
}

/* Kahn's algorithm over the CSR lists; on a cycle, names an edge between
 * two tasks that never became ready (both lie on or behind a cycle). */
static int dag_check_acyclic(pets_dag *d, const pets_edge *sorted, const char *path,
                             pc_error *err)
{
    int32_t n = d->ntasks;
    int32_t *left = pc_malloc_array((size_t)n, sizeof *left);
    int32_t *queue = pc_malloc_array((size_t)n, sizeof *queue);
    if (!left || !queue) {
        pc_free(left);
        pc_free(queue);
        return pc_error_nomem(err, "checking a task graph for cycles");
    }
    int32_t head = 0, tail = 0;
    for (int32_t v = 0; v < n; v++) {
        left[v] = d->pred_off[v + 1] - d->pred_off[v];
        if (!left[v])
            queue[tail++] = v;
    }
    while (head < tail) {
        if (head + 8 < tail) /* tasks come in no memory order: ask early for a later one's successors */
            for (int32_t k = d->succ_off[queue[head + 8]]; k < d->succ_off[queue[head + 8] + 1]; k++)
                __builtin_prefetch(&left[d->succ[k]]);
        int32_t u = queue[head++];
        for (int32_t k = d->succ_off[u]; k < d->succ_off[u + 1]; k++)
            if (--left[d->succ[k]] == 0)
                queue[tail++] = d->succ[k];
    }
    int rc = PC_OK;
    if (tail < n) {
        for (int32_t k = 0; k < d->nedges; k++) {
            if (left[sorted[k].from] > 0 && left[sorted[k].to] > 0) {
                rc = pc_error_set(err, PC_EFORMAT, path, sorted[k].line,
                                  "edge %ld %ld: the graph has a cycle through it",
                                  (long)sorted[k].from + 1, (long)sorted[k].to + 1);
                break;
            }
        }
        if (rc == PC_OK)
            rc = pc_error_set(err, PC_EFORMAT, path, 0, "the graph has a cycle");
    }
    pc_free(left);
    pc_free(queue);
    return rc;
}

int pets_dag_build(pets_dag *dag, int32_t ntasks, int32_t nprocs, const int64_t *cost,
                   pets_edge *edges, int64_t nedges, const char *path, pc_error *err)
{
    memset(dag, 0, sizeof *dag);
    int rc = dag_check_sizes(ntasks, nprocs, cost, edges, nedges, path, err);
    if (rc)
        return rc;
    /* edges is NULL for a graph without edges: qsort's pointer must not be.
     * Files and generators mostly list edges in order already; then the
     * sort could only keep it (ties are in line order, as edge_cmp's). */
    int64_t sorted = 1;
    while (sorted < nedges && (edges[sorted - 1].from < edges[sorted].from ||
                               (edges[sorted - 1].from == edges[sorted].from &&
                                edges[sorted - 1].to <= edges[sorted].to)))
        sorted++;
    if (sorted < nedges)
        qsort(edges, (size_t)nedges, sizeof *edges, edge_cmp);
    for (int64_t k = 1; k < nedges; k++)
        if (edges[k].from == edges[k - 1].from && edges[k].to == edges[k - 1].to)
            return pc_error_set(err, PC_EFORMAT, path, edges[k].line,
                                "edge %ld %ld: duplicate (first given on line %ld)",
                                (long)edges[k].from + 1, (long)edges[k].to + 1, edges[k - 1].line);
    size_t n = (size_t)ntasks, m = (size_t)nedges;
    dag->ntasks = ntasks;
    dag->nprocs = nprocs;
    dag->nedges = (int32_t)nedges;
    dag->cost = pc_malloc_array(n * (size_t)nprocs, sizeof *dag->cost);
    dag->edge_from = pc_malloc_array(m, sizeof(int32_t));
    dag->edge_to = pc_malloc_array(m, sizeof(int32_t));
    dag->edge_comm = pc_malloc_array(m, sizeof(int64_t));
    dag->succ_off = pc_calloc(n + 1, sizeof(int32_t));
    dag->succ = pc_malloc_array(m, sizeof(int32_t));
    dag->succ_comm = pc_malloc_array(m, sizeof(int64_t));
    dag->pred_off = pc_calloc(n + 1, sizeof(int32_t));
    dag->pred = pc_malloc_array(m, sizeof(int32_t));
    dag->pred_comm = pc_malloc_array(m, sizeof(int64_t));
    if (!dag->cost || !dag->edge_from || !dag->edge_to || !dag->edge_comm || !dag->succ_off ||
        !dag->succ || !dag->succ_comm || !dag->pred_off || !dag->pred || !dag->pred_comm) {
        pets_dag_free(dag);
        return pc_error_nomem(err, "building a task graph");
    }
    memcpy(dag->cost, cost, n * (size_t)nprocs * sizeof *cost);
    for (size_t k = 0; k < m; k++) {
        dag->edge_from[k] = edges[k].from;
        dag->edge_to[k] = edges[k].to;
        dag->edge_comm[k] = edges[k].comm;
        dag->succ[k] = edges[k].to;
        dag->succ_comm[k] = edges[k].comm;
        dag->succ_off[edges[k].from + 1]++;
        dag->pred_off[edges[k].to + 1]++;
    }
    for (size_t v = 0; v < n; v++) {
        dag->succ_off[v + 1] += dag->succ_off[v];
        dag->pred_off[v + 1] += dag->pred_off[v];
    }
    /* Filling in sorted edge order keeps each predecessor list sorted. */
    int32_t *fill = pc_malloc_array(n, sizeof *fill);
    if (!fill) {
        pets_dag_free(dag);
        return pc_error_nomem(err, "building a task graph");
    }
    memcpy(fill, dag->pred_off, n * sizeof *fill);
    for (size_t k = 0; k < m; k++) {
        int32_t at = fill[edges[k].to]++;
        dag->pred[at] = edges[k].from;
        dag->pred_comm[at] = edges[k].comm;
    }
    pc_free(fill);
    rc = dag_check_acyclic(dag, edges, path, err);
    if (rc)
        pets_dag_free(dag);
    return rc;
}

int pets_dag_scale(pets_dag *dst, const pets_dag *src, int64_t k, pc_error *err)
{
    memset(dst, 0, sizeof *dst);
    if (k < 1)
        return pc_error_set(err, PC_EINVAL, NULL, 0, "scale factor %lld must be >= 1", (long long)k);
    size_t cells = (size_t)src->ntasks * (size_t)src->nprocs;
    int64_t *cost = pc_malloc_array(cells, sizeof *cost);
    pets_edge *e = pc_malloc_array((size_t)src->nedges, sizeof *e);
    if (!cost || !e) {
        pc_free(cost);
        pc_free(e);
        return pc_error_nomem(err, "scaling a task graph");
    }
    int rc = PC_OK;
    for (size_t i = 0; i < cells && !rc; i++) {
        if (src->cost[i] > PETS_MAX_VALUE / k)
            rc = pc_error_set(err, PC_ERANGE, NULL, 0, "scaled cost past %lld", (long long)PETS_MAX_VALUE);
        cost[i] = src->cost[i] * k;
    }
    for (int32_t j = 0; j < src->nedges && !rc; j++) {
        if (src->edge_comm[j] > PETS_MAX_VALUE / k)
            rc = pc_error_set(err, PC_ERANGE, NULL, 0, "scaled cost past %lld", (long long)PETS_MAX_VALUE);
        e[j] = (pets_edge){src->edge_from[j], src->edge_to[j], src->edge_comm[j] * k, 0};
    }
    if (!rc)
        rc = pets_dag_build(dst, src->ntasks, src->nprocs, cost, e, src->nedges, NULL, err);
    pc_free(cost);
    pc_free(e);
    return rc;
}

int pets_solution_alloc(pets_solution *s, int32_t ntasks, pc_error *err)
{
    memset(s, 0, sizeof *s);
    size_t n = ntasks > 0 ? (size_t)ntasks : 0;
    s->ntasks = ntasks;
    s->level = pc_calloc(n, sizeof *s->level);
    s->rank_scaled = pc_calloc(n, sizeof *s->rank_scaled);
    s->rank = pc_calloc(n, sizeof *s->rank);
    s->order = pc_calloc(n, sizeof *s->order);
    s->proc = pc_calloc(n, sizeof *s->proc);
    s->start = pc_calloc(n, sizeof *s->start);
    s->finish = pc_calloc(n, sizeof *s->finish);
    if (!s->level || !s->rank_scaled || !s->rank || !s->order || !s->proc || !s->start ||
        !s->finish) {
        pets_solution_free(s);
        return pc_error_nomem(err, "allocating a schedule");
    }
    return PC_OK;
}

void pets_solution_free(pets_solution *s)
{
    if (!s)
        return;
    pc_free(s->level);
    pc_free(s->rank_scaled);
    pc_free(s->rank);
    pc_free(s->order);
    pc_free(s->proc);
    pc_free(s->start);
    pc_free(s->finish);
    memset(s, 0, sizeof *s);
}

int pets_edges_push(pets_edge **e, int64_t *n, int64_t *cap, pets_edge x)
{
    if (*n == *cap) {
        if (*cap >= PETS_MAX_EDGES)
            return PC_ERANGE;
        int64_t c = *cap ? *cap * 2 : 256;
        pets_edge *v = pc_realloc(*e, (size_t)c * sizeof *v);
        if (!v)
            return PC_ENOMEM;
        *e = v;
        *cap = c;
    }
    (*e)[(*n)++] = x;
    return PC_OK;
}

void pets_heterogeneity(const int64_t *mean, int32_t n, int32_t P, double eta, uint64_t seed,
                        int64_t *cost)
{
    pc_rng r;
    pc_rng_seed(&r, seed ^ 0x9e3779b97f4a7c15ULL);
    for (int32_t i = 0; i < n; i++) {
        for (int32_t p = 0; p < P; p++) {
            int64_t w = mean[i];
            if (eta > 0 && w > 0) {
                double x = (double)mean[i] * (1.0 + eta * (pc_rng_unit(&r) - 0.5));
                w = (int64_t)floor(x + 0.5);
                if (w < 1)
                    w = 1; /* a task that costs something never becomes free */
                if (w > PETS_MAX_VALUE)
                    w = PETS_MAX_VALUE;
            }
            cost[(size_t)i * P + p] = w;
        }
    }
}
