/* pets_oracle.c - the PETS reference: levels and ranks along a depth-first
 * topological order, a merge sort for the priority order, and EFT
 * processor selection by scanning every interval of every processor.
 * Exact integers throughout: S(v) = P * (ACC + DTC + RPT). */
#include <string.h>

#include "pc_alloc.h"
#include "pets_oracle.h"

typedef struct okeys {
    const int32_t *level;
    const int64_t *rank;
    const int64_t *acc_p; /* P * ACC = sum of costs */
} okeys;

/* 1 when task a goes strictly before task b. */
static int goes_before(const okeys *k, int32_t a, int32_t b)
{
    if (k->level[a] != k->level[b])
        return k->level[a] < k->level[b];
    if (k->rank[a] != k->rank[b])
        return k->rank[a] > k->rank[b];
    if (k->acc_p[a] != k->acc_p[b])
        return k->acc_p[a] < k->acc_p[b];
    return a < b;
}

static void merge_sort(const okeys *k, int32_t *v, int32_t *tmp, int32_t n)
{
    if (n < 2)
        return;
    int32_t h = n / 2;
    merge_sort(k, v, tmp, h);
    merge_sort(k, v + h, tmp, n - h);
    int32_t i = 0, j = h, o = 0;
    while (i < h || j < n) {
        if (j >= n || (i < h && !goes_before(k, v[j], v[i])))
            tmp[o++] = v[i++];
        else
            tmp[o++] = v[j++];
    }
    memcpy(v, tmp, (size_t)n * sizeof *v);
}

typedef struct ival {
    int64_t s, f;
} ival;

/* Earliest start >= ready on a processor with intervals iv[0..cnt) sorted
 * by start: walk them, jumping past each one the task would overlap. The
 * intervals do not overlap, so their finishes are sorted too, and those
 * ending by `ready` (a prefix, found by halving) cannot matter. */
static int64_t earliest_insert(const ival *iv, int32_t cnt, int64_t ready, int64_t w)
{
    int64_t t = ready;
    /* Intervals are sorted and disjoint, so their finishes never decrease:
     * every interval before one that ends by `ready` ends by it too, and
     * the scan below would only skip them. Ready times mostly land near
     * the latest intervals, so the start is found by steps of 1, 2, 4, ...
     * back from the end (any lo with iv[lo - 1].f <= ready gives the same t). */
    int32_t lo = cnt;
    for (int32_t step = 1; lo > 0 && iv[lo - 1].f > ready; step *= 2)
        lo = lo > step ? lo - step : 0;
    for (int32_t j = lo; j < cnt; j++) {
        if (iv[j].f <= t)
            continue;
        if (t + w <= iv[j].s)
            break;
        t = iv[j].f;
    }
    return t;
}

int pets_oracle_solve(const pets_dag *dag, int policy, pets_solution *out, pc_error *err)
{
    int32_t n = dag->ntasks, P = dag->nprocs, m = dag->nedges;
    int32_t *topo = pc_malloc_array((size_t)n, sizeof *topo);
    int32_t *tmp = pc_malloc_array((size_t)n, sizeof *tmp);
    int64_t *acc_p = pc_calloc((size_t)n, sizeof *acc_p);
    int64_t *dtc = pc_calloc((size_t)n, sizeof *dtc);
    int32_t *in_head = pc_malloc_array((size_t)n, sizeof *in_head);
    int32_t *in_next = pc_malloc_array((size_t)m + 1, sizeof *in_next);
    ival **ivs = pc_calloc((size_t)P, sizeof *ivs);
    int32_t *cnt = pc_calloc((size_t)P, sizeof *cnt);
    int64_t *rdy = pc_malloc_array((size_t)P, sizeof *rdy);
    int rc = PC_OK;
    if (!topo || !tmp || !acc_p || !dtc || !in_head || !in_next || !ivs || !cnt || !rdy) {
        rc = pc_error_nomem(err, "PETS oracle");
        goto out;
    }
    for (int32_t p = 0; p < P && !rc; p++) {
        ivs[p] = pc_malloc_array((size_t)n, sizeof **ivs);
        if (!ivs[p])
            rc = pc_error_nomem(err, "PETS oracle");
    }
    if (rc || (rc = pets_oracle_topo(dag, topo, err)))
        goto out;
    for (int32_t v = 0; v < n; v++) {
        in_head[v] = -1;
        for (int32_t p = 0; p < P; p++)
            acc_p[v] += dag->cost[(size_t)v * P + p];
    }
    for (int32_t e = 0; e < m; e++) {
        dtc[dag->edge_from[e]] += dag->edge_comm[e];
        in_next[e] = in_head[dag->edge_to[e]];
        in_head[dag->edge_to[e]] = e;
    }
    /* levels and unrounded ranks (times P), predecessors first */
    for (int32_t k = 0; k < n; k++) {
        int32_t v = topo[k];
        int32_t level = 0;
        int64_t rpt = 0;
        for (int32_t e = in_head[v]; e >= 0; e = in_next[e]) {
            int32_t u = dag->edge_from[e];
            if (out->level[u] + 1 > level)
                level = out->level[u] + 1;
            if (out->rank_scaled[u] > rpt)
                rpt = out->rank_scaled[u];
        }
        out->level[v] = level;
        out->rank_scaled[v] = acc_p[v] + (int64_t)P * dtc[v] + rpt;
        out->rank[v] = (2 * out->rank_scaled[v] + P) / (2 * (int64_t)P);
    }
    for (int32_t v = 0; v < n; v++)
        out->order[v] = v;
    okeys keys = {out->level, out->rank, acc_p};
    merge_sort(&keys, out->order, tmp, n);
    /* EFT processor selection */
    out->makespan = 0;
    for (int32_t k = 0; k < n; k++) {
        int32_t v = out->order[k];
        int64_t best_f = -1, best_s = 0;
        int32_t best_p = -1;
        /* data-ready time on each processor: each predecessor read once */
        for (int32_t p = 0; p < P; p++)
            rdy[p] = 0;
        for (int32_t e = in_head[v]; e >= 0; e = in_next[e]) {
            int32_t u = dag->edge_from[e], pu = out->proc[u];
            int64_t fu = out->finish[u], cu = dag->edge_comm[e];
            for (int32_t p = 0; p < P; p++) {
                int64_t r = fu + (pu == p ? 0 : cu);
                if (r > rdy[p])
                    rdy[p] = r;
            }
        }
        for (int32_t p = 0; p < P; p++) {
            int64_t ready = rdy[p];
            int64_t w = dag->cost[(size_t)v * P + p], st;
            if (policy == PETS_INSERTION) {
                st = earliest_insert(ivs[p], cnt[p], ready, w);
            } else {
                /* appended intervals never start before an earlier one
                 * ends: the last one holds the processor's latest finish */
                st = ready;
                if (cnt[p] > 0 && ivs[p][cnt[p] - 1].f > st)
                    st = ivs[p][cnt[p] - 1].f;
            }
            if (best_p < 0 || st + w < best_f) {
                best_p = p;
                best_s = st;
                best_f = st + w;
            }
        }
        /* keep the intervals sorted by start (then finish) */
        ival *iv = ivs[best_p];
        int32_t j = cnt[best_p];
        while (j > 0 && (iv[j - 1].s > best_s || (iv[j - 1].s == best_s && iv[j - 1].f > best_f))) {
            iv[j] = iv[j - 1];
            j--;
        }
        iv[j] = (ival){best_s, best_f};
        cnt[best_p]++;
        out->proc[v] = best_p;
        out->start[v] = best_s;
        out->finish[v] = best_f;
        if (best_f > out->makespan)
            out->makespan = best_f;
    }
out:
    if (ivs)
        for (int32_t p = 0; p < P; p++)
            pc_free(ivs[p]);
    pc_free(ivs);
    pc_free(cnt);
    pc_free(rdy);
    pc_free(topo);
    pc_free(tmp);
    pc_free(acc_p);
    pc_free(dtc);
    pc_free(in_head);
    pc_free(in_next);
    return rc;
}
