/* pets_oracle.c - the PETS reference: levels and ranks pushed along
 * Kahn's order, a merge sort for the priority order, and EFT processor
 * selection over every processor's idle gaps (pets_oracle_gaps.c).
 * Exact integers throughout: S(v) = P * (ACC + DTC + RPT).
 *
 * Layout, for speed at 2^19 tasks and more (the rules do not depend on
 * it): a task's out-edges and in-edges are made contiguous by counting
 * sorts of the plain edge list, and the schedule pass keeps each placed
 * task's processor and finish by its position in the priority order, where
 * its predecessors (lower levels) were placed shortly before. */
#include <string.h>

#include "pc_alloc.h"
#include "pets_oracle_gaps.h"
#include "pets_oracle.h"

/* Hints that only change speed: at 2^19 tasks nearly every access to a
 * task's data misses the cache, as tasks are visited in no memory order. */
#if defined(__GNUC__)
#define PREFETCH(p) __builtin_prefetch(p)
#else
#define PREFETCH(p) ((void)(p))
#endif
#define AHEAD 8

/* A task's sort key: the priority order is by level ascending, rank
 * descending, P * ACC ascending, then task number ascending. */
typedef struct okey {
    int64_t rank, acc_p;
    int32_t level, task;
} okey;

/* 1 when key a goes strictly before key b. */
static int goes_before(const okey *a, const okey *b)
{
    if (a->level != b->level)
        return a->level < b->level;
    if (a->rank != b->rank)
        return a->rank > b->rank;
    if (a->acc_p != b->acc_p)
        return a->acc_p < b->acc_p;
    return a->task < b->task;
}

/* Stable top-down merge sort of v[0..n) with tmp[0..n) as scratch. */
static void merge_sort(okey *v, okey *tmp, int32_t n)
{
    if (n < 2)
        return;
    int32_t h = n / 2;
    merge_sort(v, tmp, h);
    merge_sort(v + h, tmp, n - h);
    int32_t i = 0, j = h, o = 0;
    while (i < h || j < n) {
        if (j >= n || (i < h && !goes_before(&v[j], &v[i])))
            tmp[o++] = v[i++];
        else
            tmp[o++] = v[j++];
    }
    memcpy(v, tmp, (size_t)n * sizeof *v);
}

/* A task's state while levels and ranks are pushed to it. */
typedef struct onode {
    int64_t s;       /* P * (ACC + DTC) until taken, then S = that + RPT */
    int64_t rpt;     /* P * the largest unrounded rank of the predecessors done */
    int32_t level;   /* 1 + the largest level of the predecessors done */
    int32_t waiting; /* predecessors not done yet */
} onode;

/* Levels and ranks into node[] by Kahn's algorithm: a task is taken once
 * all its predecessors are, so its level and RPT, pushed from them, are
 * final then. succ[off[v] .. off[v + 1]) are v's successors; node[].s and
 * waiting come filled. PC_EVERIFY on a cycle. */
static int push_levels(const int32_t *off, const int32_t *succ, int32_t n, onode *node,
                       int32_t *queue, pc_error *err)
{
    int32_t head = 0, tail = 0;
    for (int32_t v = 0; v < n; v++)
        if (!node[v].waiting)
            queue[tail++] = v;
    while (head < tail) {
        if (head + AHEAD < tail) /* likewise for a task taken soon: its successors' states */
            for (int32_t k = off[queue[head + AHEAD]]; k < off[queue[head + AHEAD] + 1]; k++)
                PREFETCH(&node[succ[k]]);
        int32_t v = queue[head++];
        onode *x = &node[v];
        x->s += x->rpt;
        for (int32_t k = off[v]; k < off[v + 1]; k++) {
            onode *w = &node[succ[k]];
            if (x->level + 1 > w->level)
                w->level = x->level + 1;
            if (x->s > w->rpt)
                w->rpt = x->s;
            if (--w->waiting == 0)
                queue[tail++] = succ[k];
        }
    }
    for (int32_t v = 0; v < n && tail < n; v++)
        if (node[v].waiting)
            return pc_error_set(err, PC_EVERIFY, NULL, 0, "oracle: cycle through task %ld", (long)v + 1);
    return PC_OK;
}

/* Levels, ranks and the priority order into pr, and keys[] sorted. The
 * per-task sums go in task order and the per-edge ones in edge order
 * before the pushes, which alone follow the graph. */
static int levels_ranks_order(const pets_dag *dag, pets_oracle_prep *pr, okey *keys, okey *tmp,
                              pc_error *err)
{
    int32_t n = dag->ntasks, P = dag->nprocs, m = dag->nedges;
    onode *node = pc_calloc((size_t)n, sizeof *node);
    int32_t *succ = pc_malloc_array((size_t)m + 1, sizeof *succ);
    int32_t *off = pr->in_off; /* borrowed: the successor groups, until the in-edges are made */
    int32_t *queue = pr->order; /* borrowed likewise */
    int rc = PC_OK;
    if (!node || !succ) {
        rc = pc_error_nomem(err, "PETS oracle");
        goto out;
    }
    memset(off, 0, ((size_t)n + 1) * sizeof *off);
    for (int32_t v = 0; v < n; v++)
        for (int32_t p = 0; p < P; p++)
            node[v].s += dag->cost[(size_t)v * P + p];
    for (int32_t e = 0; e < m; e++) {
        node[dag->edge_from[e]].s += (int64_t)P * dag->edge_comm[e];
        node[dag->edge_to[e]].waiting++;
        off[dag->edge_from[e] + 1]++;
    }
    for (int32_t v = 0; v < n; v++)
        off[v + 1] += off[v];
    for (int32_t e = 0; e < m; e++) /* a counting sort by source: moves each bound up one group */
        succ[off[dag->edge_from[e]]++] = dag->edge_to[e];
    for (int32_t v = n; v > 0; v--)
        off[v] = off[v - 1];
    off[0] = 0;
    if ((rc = push_levels(off, succ, n, node, queue, err)))
        goto out;
    for (int32_t v = 0; v < n; v++) {
        int64_t acc_p = 0;
        for (int32_t p = 0; p < P; p++)
            acc_p += dag->cost[(size_t)v * P + p];
        pr->level[v] = node[v].level;
        pr->rank_scaled[v] = node[v].s;
        pr->rank[v] = (2 * node[v].s + P) / (2 * (int64_t)P);
        keys[v] = (okey){pr->rank[v], acc_p, node[v].level, v};
    }
    merge_sort(keys, tmp, n);
out:
    pc_free(node);
    pc_free(succ);
    return rc;
}

/* Task v's predecessors, for the position k of v in the priority order:
 * pr->in[in_off[k] .. in_off[k + 1]), each by its own position. pos and
 * tpos are scratch (n and m entries). */
static void in_edges(const pets_dag *dag, pets_oracle_prep *pr, int32_t *pos, int32_t *tpos)
{
    int32_t n = dag->ntasks, m = dag->nedges;
    int32_t *off = pr->in_off;
    for (int32_t k = 0; k < n; k++)
        pos[pr->order[k]] = k;
    memset(off, 0, ((size_t)n + 1) * sizeof *off);
    for (int32_t e = 0; e < m; e++) {
        tpos[e] = pos[dag->edge_to[e]];
        off[tpos[e] + 1]++;
    }
    for (int32_t k = 0; k < n; k++)
        off[k + 1] += off[k];
    for (int32_t e = 0; e < m; e++) /* a counting sort by target, as above */
        pr->in[off[tpos[e]]++] = (pets_oracle_in){dag->edge_comm[e], pos[dag->edge_from[e]]};
    for (int32_t k = n; k > 0; k--)
        off[k] = off[k - 1];
    off[0] = 0;
}

/* Where a placed task ran, by its position in the priority order. */
typedef struct oplace {
    int64_t finish;
    int32_t proc;
} oplace;

/* EFT selection in priority order: the data-ready time on each processor
 * from the predecessors' places, then the earliest start there (an idle
 * gap under insertion, after the last task under append); the smallest
 * finish wins, ties to the lowest processor. */
static int select_procs(const pets_dag *dag, const pets_oracle_prep *pr, int policy,
                        pets_solution *out, pc_error *err)
{
    int32_t n = dag->ntasks, P = dag->nprocs;
    oplace *place = pc_malloc_array((size_t)n, sizeof *place);
    int64_t *rdy = pc_malloc_array((size_t)P, sizeof *rdy);
    pets_ogaps *gaps = pc_calloc((size_t)P, sizeof *gaps);
    int rc = PC_OK;
    if (!place || !rdy || !gaps) {
        rc = pc_error_nomem(err, "PETS oracle");
        goto out;
    }
    for (int32_t p = 0; p < P && !rc; p++)
        rc = pets_ogaps_init(&gaps[p], err);
    out->makespan = 0;
    for (int32_t k = 0; k < n && !rc; k++) {
        int32_t v = pr->order[k];
        if (k + AHEAD < n) { /* the tasks come in no memory order: ask for later rows early */
            int32_t a = pr->order[k + AHEAD];
            PREFETCH(&dag->cost[(size_t)a * P]);
            PREFETCH(&out->proc[a]);
            PREFETCH(&out->start[a]);
            PREFETCH(&out->finish[a]);
            for (int32_t j = pr->in_off[k + AHEAD]; j < pr->in_off[k + AHEAD + 1]; j++)
                PREFETCH(&place[pr->in[j].pos]);
        }
        for (int32_t p = 0; p < P; p++)
            rdy[p] = 0;
        for (int32_t j = pr->in_off[k]; j < pr->in_off[k + 1]; j++) {
            const oplace *u = &place[pr->in[j].pos];
            for (int32_t p = 0; p < P; p++) {
                int64_t r = u->finish + (u->proc == p ? 0 : pr->in[j].comm);
                if (r > rdy[p])
                    rdy[p] = r;
            }
        }
        int64_t best_f = -1, best_s = 0;
        int32_t best_p = -1;
        for (int32_t p = 0; p < P; p++) {
            int64_t w = dag->cost[(size_t)v * P + p];
            int64_t st = policy == PETS_INSERTION ? pets_ogaps_earliest(&gaps[p], rdy[p], w)
                                                  : pets_ogaps_after_last(&gaps[p], rdy[p]);
            if (best_p < 0 || st + w < best_f) {
                best_p = p;
                best_s = st;
                best_f = st + w;
            }
        }
        rc = pets_ogaps_book(&gaps[best_p], best_s, best_f, err);
        place[k] = (oplace){best_f, best_p};
        out->proc[v] = best_p;
        out->start[v] = best_s;
        out->finish[v] = best_f;
        if (best_f > out->makespan)
            out->makespan = best_f;
    }
out:
    if (gaps)
        for (int32_t p = 0; p < P; p++)
            pets_ogaps_free(&gaps[p]);
    pc_free(gaps);
    pc_free(rdy);
    pc_free(place);
    return rc;
}

void pets_oracle_prep_free(pets_oracle_prep *pr)
{
    pc_free(pr->level);
    pc_free(pr->rank_scaled);
    pc_free(pr->rank);
    pc_free(pr->order);
    pc_free(pr->in_off);
    pc_free(pr->in);
    memset(pr, 0, sizeof *pr);
}

int pets_oracle_prepare(const pets_dag *dag, pets_oracle_prep *pr, pc_error *err)
{
    int32_t n = dag->ntasks, m = dag->nedges;
    memset(pr, 0, sizeof *pr);
    pr->ntasks = n;
    pr->level = pc_malloc_array((size_t)n, sizeof *pr->level);
    pr->rank_scaled = pc_malloc_array((size_t)n, sizeof *pr->rank_scaled);
    pr->rank = pc_malloc_array((size_t)n, sizeof *pr->rank);
    pr->order = pc_malloc_array((size_t)n, sizeof *pr->order);
    pr->in_off = pc_malloc_array((size_t)n + 1, sizeof *pr->in_off);
    pr->in = pc_malloc_array((size_t)m + 1, sizeof *pr->in);
    okey *keys = pc_malloc_array((size_t)n, sizeof *keys);
    okey *tmp = pc_malloc_array((size_t)n, sizeof *tmp);
    int32_t *tpos = pc_malloc_array((size_t)m + 1, sizeof *tpos);
    int rc = PC_OK;
    if (!pr->level || !pr->rank_scaled || !pr->rank || !pr->order || !pr->in_off || !pr->in ||
        !keys || !tmp || !tpos) {
        rc = pc_error_nomem(err, "PETS oracle");
        goto out;
    }
    if ((rc = levels_ranks_order(dag, pr, keys, tmp, err)))
        goto out;
    for (int32_t k = 0; k < n; k++)
        pr->order[k] = keys[k].task;
    in_edges(dag, pr, (int32_t *)tmp, tpos); /* tmp is free again: n positions fit in it */
out:
    pc_free(keys);
    pc_free(tmp);
    pc_free(tpos);
    if (rc)
        pets_oracle_prep_free(pr);
    return rc;
}

int pets_oracle_schedule(const pets_dag *dag, const pets_oracle_prep *pr, int policy,
                         pets_solution *out, pc_error *err)
{
    size_t n = (size_t)dag->ntasks;
    memcpy(out->level, pr->level, n * sizeof *out->level);
    memcpy(out->rank_scaled, pr->rank_scaled, n * sizeof *out->rank_scaled);
    memcpy(out->rank, pr->rank, n * sizeof *out->rank);
    memcpy(out->order, pr->order, n * sizeof *out->order);
    return select_procs(dag, pr, policy, out, err);
}

int pets_oracle_solve(const pets_dag *dag, int policy, pets_solution *out, pc_error *err)
{
    pets_oracle_prep pr;
    int rc = pets_oracle_prepare(dag, &pr, err);
    if (!rc)
        rc = pets_oracle_schedule(dag, &pr, policy, out, err);
    pets_oracle_prep_free(&pr);
    return rc;
}
