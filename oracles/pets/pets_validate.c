/* pets_validate.c - the schedule validator: checks a schedule against the
 * graph alone, whatever produced it. */
#include <stdlib.h>
#include <string.h>

#include "pc_alloc.h"
#include "pets_oracle.h"

int pets_oracle_lower_bound(const pets_dag *dag, int64_t *lower_bound, pc_error *err)
{
    int32_t n = dag->ntasks, P = dag->nprocs;
    int32_t *topo = pc_malloc_array((size_t)n, sizeof *topo);
    int64_t *path = pc_calloc((size_t)n, sizeof *path); /* longest path ending at v */
    int64_t *minc = pc_malloc_array((size_t)n, sizeof *minc);
    int rc = PC_OK;
    if (!topo || !path || !minc) {
        rc = pc_error_nomem(err, "schedule lower bound");
        goto out;
    }
    if ((rc = pets_oracle_topo(dag, topo, err)))
        goto out;
    for (int32_t v = 0; v < n; v++) {
        minc[v] = dag->cost[(size_t)v * P];
        for (int32_t p = 1; p < P; p++)
            if (dag->cost[(size_t)v * P + p] < minc[v])
                minc[v] = dag->cost[(size_t)v * P + p];
    }
    /* position of each task in topo, so edges can be relaxed in that order */
    int32_t *pos = pc_malloc_array((size_t)n, sizeof *pos);
    if (!pos) {
        rc = pc_error_nomem(err, "schedule lower bound");
        goto out;
    }
    for (int32_t k = 0; k < n; k++)
        pos[topo[k]] = k;
    /* Sort edge indices by the topological position of their source so one
     * pass relaxes them in a valid order. */
    int32_t m = dag->nedges;
    int32_t *byfrom = pc_calloc((size_t)n + 1, sizeof *byfrom);
    int32_t *eidx = pc_malloc_array((size_t)m + 1, sizeof *eidx);
    if (!byfrom || !eidx) {
        pc_free(pos);
        pc_free(byfrom);
        pc_free(eidx);
        rc = pc_error_nomem(err, "schedule lower bound");
        goto out;
    }
    for (int32_t e = 0; e < m; e++)
        byfrom[pos[dag->edge_from[e]] + 1]++;
    for (int32_t k = 0; k < n; k++)
        byfrom[k + 1] += byfrom[k];
    for (int32_t e = 0; e < m; e++)
        eidx[byfrom[pos[dag->edge_from[e]]]++] = e;
    int64_t lb = 0;
    int32_t e = 0;
    for (int32_t k = 0; k < n; k++) {
        int32_t v = topo[k];
        path[v] += minc[v]; /* path[v] held the best predecessor path */
        if (path[v] > lb)
            lb = path[v];
        for (; e < m && dag->edge_from[eidx[e]] == v; e++)
            if (path[v] > path[dag->edge_to[eidx[e]]])
                path[dag->edge_to[eidx[e]]] = path[v];
    }
    *lower_bound = lb;
    pc_free(pos);
    pc_free(byfrom);
    pc_free(eidx);
out:
    pc_free(topo);
    pc_free(path);
    pc_free(minc);
    return rc;
}

typedef struct vslot {
    int64_t s, f;
    int32_t task;
} vslot;

static int vslot_cmp(const void *a, const void *b)
{
    const vslot *x = a, *y = b;
    if (x->s != y->s)
        return x->s < y->s ? -1 : 1;
    if (x->f != y->f)
        return x->f < y->f ? -1 : 1;
    return (x->task > y->task) - (x->task < y->task);
}

int pets_oracle_validate(const pets_dag *dag, const pets_solution *s, int64_t *lower_bound,
                         pc_error *err)
{
    int32_t n = dag->ntasks, P = dag->nprocs;
    if (s->ntasks != n)
        return pc_error_set(err, PC_EVERIFY, NULL, 0, "schedule has %ld tasks, graph %ld",
                            (long)s->ntasks, (long)n);
    unsigned char *seen = pc_calloc((size_t)n, 1);
    vslot *sl = pc_malloc_array((size_t)n, sizeof *sl);
    int rc = PC_OK;
    if (!seen || !sl) {
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
    int64_t makespan = 0;
    for (int32_t v = 0; v < n && !rc; v++) {
        if (s->proc[v] < 0 || s->proc[v] >= P)
            rc = pc_error_set(err, PC_EVERIFY, NULL, 0, "task %ld on processor %ld of %ld",
                              (long)v + 1, (long)s->proc[v] + 1, (long)P);
        else if (s->start[v] < 0 || s->finish[v] != s->start[v] + dag->cost[(size_t)v * P + s->proc[v]])
            rc = pc_error_set(err, PC_EVERIFY, NULL, 0, "task %ld: start %lld finish %lld, cost %lld on P%ld",
                              (long)v + 1, (long long)s->start[v], (long long)s->finish[v],
                              (long long)dag->cost[(size_t)v * P + s->proc[v]], (long)s->proc[v] + 1);
        if (!rc && s->finish[v] > makespan)
            makespan = s->finish[v];
    }
    for (int32_t e = 0; e < dag->nedges && !rc; e++) {
        int32_t u = dag->edge_from[e], v = dag->edge_to[e];
        int64_t need = s->finish[u] + (s->proc[u] == s->proc[v] ? 0 : dag->edge_comm[e]);
        if (s->start[v] < need)
            rc = pc_error_set(err, PC_EVERIFY, NULL, 0,
                              "task %ld starts at %lld, before its input from task %ld (ready at %lld)",
                              (long)v + 1, (long long)s->start[v], (long)u + 1, (long long)need);
    }
    if (!rc) {
        for (int32_t v = 0; v < n; v++)
            sl[v] = (vslot){s->start[v], s->finish[v], v};
        /* group by processor, then by start: sort each processor's tasks */
        int32_t *cnt = pc_calloc((size_t)P + 1, sizeof *cnt);
        vslot *by = pc_malloc_array((size_t)n, sizeof *by);
        if (!cnt || !by) {
            pc_free(cnt);
            pc_free(by);
            rc = pc_error_nomem(err, "validating a schedule");
            goto out;
        }
        for (int32_t v = 0; v < n; v++)
            cnt[s->proc[v] + 1]++;
        for (int32_t p = 0; p < P; p++)
            cnt[p + 1] += cnt[p];
        for (int32_t v = 0; v < n; v++)
            by[cnt[s->proc[v]]++] = sl[v];
        int32_t lo = 0;
        for (int32_t p = 0; p < P && !rc; p++) {
            int32_t hi = cnt[p];
            qsort(by + lo, (size_t)(hi - lo), sizeof *by, vslot_cmp);
            for (int32_t k = lo + 1; k < hi && !rc; k++)
                if (by[k - 1].f > by[k].s)
                    rc = pc_error_set(err, PC_EVERIFY, NULL, 0,
                                      "P%ld: task %ld [%lld, %lld) overlaps task %ld [%lld, %lld)",
                                      (long)p + 1, (long)by[k - 1].task + 1, (long long)by[k - 1].s,
                                      (long long)by[k - 1].f, (long)by[k].task + 1,
                                      (long long)by[k].s, (long long)by[k].f);
            lo = hi;
        }
        pc_free(cnt);
        pc_free(by);
    }
    if (!rc && s->makespan != makespan)
        rc = pc_error_set(err, PC_EVERIFY, NULL, 0, "makespan %lld, but the last task finishes at %lld",
                          (long long)s->makespan, (long long)makespan);
    int64_t lb = 0;
    if (!rc)
        rc = pets_oracle_lower_bound(dag, &lb, err);
    if (!rc && makespan < lb)
        rc = pc_error_set(err, PC_EVERIFY, NULL, 0, "makespan %lld below the critical-path bound %lld",
                          (long long)makespan, (long long)lb);
    if (!rc && lower_bound)
        *lower_bound = lb;
out:
    pc_free(seen);
    pc_free(sl);
    return rc;
}
