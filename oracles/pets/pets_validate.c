/* pets_validate.c - the critical-path lower bound, and the validator of a
 * pets_solution: its order is a permutation, then its schedule goes through
 * the plain-array validator (pets_check.c), then its makespan is checked. */
#include "pc_alloc.h"
#include "pets_check.h"
#include "pets_oracle.h"

/* Kahn's algorithm over the edge list: a task's longest path is final once
 * all its predecessors are, which is when its count of unfinished
 * predecessors reaches zero. The edge list is sorted by source (pets_dag's
 * invariant, checked here), so a source's out-edges are one run of it and
 * need no adjacency lists; this is what keeps `pets check` fast at 2^19
 * tasks (a depth-first order over linked lists took 2x longer). */
int pets_oracle_lower_bound(const pets_dag *dag, int64_t *lower_bound, pc_error *err)
{
    int32_t n = dag->ntasks, P = dag->nprocs, m = dag->nedges;
    int64_t *path = pc_calloc((size_t)n, sizeof *path); /* longest path ending at v */
    int32_t *first = pc_calloc((size_t)n + 1, sizeof *first); /* v's out-edges: [first[v], first[v+1]) */
    int32_t *waiting = pc_calloc((size_t)n, sizeof *waiting); /* predecessors not yet done */
    int32_t *queue = pc_malloc_array((size_t)n, sizeof *queue);
    int rc = PC_OK;
    if (!path || !first || !waiting || !queue) {
        rc = pc_error_nomem(err, "computing a schedule's lower bound");
        goto out;
    }
    for (int32_t e = 0; e < m; e++) {
        if (e > 0 && dag->edge_from[e] < dag->edge_from[e - 1]) {
            rc = pc_error_set(err, PC_EINVAL, NULL, 0, "lower bound: edge list not sorted by source");
            goto out;
        }
        first[dag->edge_from[e] + 1]++;
        waiting[dag->edge_to[e]]++;
    }
    for (int32_t v = 0; v < n; v++)
        first[v + 1] += first[v];
    int32_t head = 0, tail = 0;
    for (int32_t v = 0; v < n; v++)
        if (!waiting[v])
            queue[tail++] = v;
    int64_t lb = 0;
    while (head < tail) {
        int32_t v = queue[head++];
        int64_t minc = dag->cost[(size_t)v * P];
        for (int32_t p = 1; p < P; p++)
            if (dag->cost[(size_t)v * P + p] < minc)
                minc = dag->cost[(size_t)v * P + p];
        path[v] += minc; /* path[v] held the best predecessor path */
        if (path[v] > lb)
            lb = path[v];
        for (int32_t e = first[v]; e < first[v + 1]; e++) {
            int32_t w = dag->edge_to[e];
            if (path[v] > path[w])
                path[w] = path[v];
            if (--waiting[w] == 0)
                queue[tail++] = w;
        }
    }
    if (tail < n)
        rc = pc_error_set(err, PC_EVERIFY, NULL, 0, "lower bound: the graph has a cycle");
    else
        *lower_bound = lb;
out:
    pc_free(path);
    pc_free(first);
    pc_free(waiting);
    pc_free(queue);
    return rc;
}

int pets_oracle_validate(const pets_dag *dag, const pets_solution *s, int64_t *lower_bound,
                         pc_error *err)
{
    int32_t n = dag->ntasks;
    if (s->ntasks != n)
        return pc_error_set(err, PC_EVERIFY, NULL, 0, "schedule has %ld tasks, graph %ld",
                            (long)s->ntasks, (long)n);
    unsigned char *seen = pc_calloc((size_t)n, 1);
    int64_t *rows = pc_malloc_array((size_t)n * 2, sizeof *rows); /* task ids, then processor ids */
    int rc = PC_OK;
    if (!seen || !rows) {
        rc = pc_error_nomem(err, "validating a schedule");
        goto out;
    }
    for (int32_t k = 0; k < n && !rc; k++) {
        int32_t v = s->order[k];
        if (v < 0 || v >= n || seen[v])
            rc = pc_error_set(err, PC_EVERIFY, NULL, 0, "order position %ld: task %ld is not a new task",
                              (long)k, (long)v + 1);
        else
            seen[v] = 1;
    }
    if (rc)
        goto out;
    /* the schedule as rows of the plain-array validator, ids 1-based */
    for (int32_t v = 0; v < n; v++) {
        rows[v] = v + 1;
        rows[n + v] = (int64_t)s->proc[v] + 1;
    }
    pets_check_report rep;
    rc = pets_check_schedule(dag, n, rows, rows + n, s->start, s->finish, 0, &rep, err);
    if (rc == PC_ERANGE) /* a time no schedule of this graph can have */
        rc = PC_EVERIFY;
    if (!rc && !rep.valid)
        rc = pc_error_set(err, PC_EVERIFY, NULL, 0, "%s", rep.why);
    if (!rc && s->makespan != rep.makespan)
        rc = pc_error_set(err, PC_EVERIFY, NULL, 0, "makespan %lld, but the last task finishes at %lld",
                          (long long)s->makespan, (long long)rep.makespan);
    if (!rc && rep.makespan < rep.lower_bound)
        rc = pc_error_set(err, PC_EVERIFY, NULL, 0, "makespan %lld below the critical-path bound %lld",
                          (long long)rep.makespan, (long long)rep.lower_bound);
    if (!rc && lower_bound)
        *lower_bound = rep.lower_bound;
out:
    pc_free(seen);
    pc_free(rows);
    return rc;
}
