/* pets_select.c - processor selection by earliest finish time on the host,
 * shared by the implementations: insertion (the paper's policy: a task may
 * go into an idle gap, found through the gap index of pets_gaps.c) or
 * append (the seed's: after the last task of p).
 *
 * The priority order puts every task after its predecessors, so the tasks
 * of one level (a run of equal levels in the order) never read each
 * other's placement: their data-ready times on every processor are computed
 * together (OpenMP threads, or given by the caller), and only the search
 * and booking of slots go task by task in priority order. */
#include <string.h>

#include "pc_alloc.h"
#include "pets_gaps.h"
#include "pets_priv.h"

/* Tasks whose ready times are computed together at most: bounds the
 * ready-time buffer (PETS_SELECT_BATCH * P values) on very wide levels. */
#define PETS_SELECT_BATCH 8192
/* A batch shorter than this is not worth waking threads for. */
#define PETS_SELECT_PAR_MIN 64

/* Positions of the tasks: pos[order[k]] = k. Checks that order is a
 * permutation of the tasks: a repeated or unknown id leaves some position
 * k with pos[order[k]] != k. The threads write in parallel (a repeated id
 * races, hence the atomic write); on a refusal one serial pass names the
 * first bad position, as it always did. */
static int select_positions(const pets_solution *s, int32_t n, int32_t *pos, int threads,
                            pc_error *err)
{
    int bad = 0;
    (void)threads; /* read only by the pragmas */
#pragma omp parallel num_threads(threads) if (threads > 1 && n >= PETS_SELECT_PAR_MIN * 64)
    {
#pragma omp for schedule(static)
        for (int32_t k = 0; k < n; k++)
            pos[k] = -1;
#pragma omp for schedule(static)
        for (int32_t k = 0; k < n; k++) {
            int32_t v = s->order[k];
            if (v >= 0 && v < n) {
#pragma omp atomic write
                pos[v] = k;
            }
        }
#pragma omp for schedule(static) reduction(| : bad)
        for (int32_t k = 0; k < n; k++) {
            int32_t v = s->order[k];
            bad |= v < 0 || v >= n || pos[v] != k;
        }
    }
    if (!bad)
        return PC_OK;
    for (int32_t k = 0; k < n; k++)
        pos[k] = -1;
    for (int32_t k = 0; k < n; k++) {
        int32_t v = s->order[k];
        if (v < 0 || v >= n || pos[v] != -1)
            return pc_error_set(err, PC_EVERIFY, NULL, 0,
                                "priority order: position %ld holds %ld, not a new task", (long)k,
                                (long)v + 1);
        pos[v] = k;
    }
    return PC_OK; /* not reached: the parallel pass found a bad position */
}

/* The placements so far, by position in the priority order: the
 * predecessors of a task were placed shortly before it (mostly in the
 * level before), so reading them by position stays within a few cache
 * lines' worth of recent tasks instead of the whole task range. */
typedef struct select_state {
    int insertion;
    int32_t P;
    pets_gaps *gaps;   /* P gap indexes (insertion) */
    int64_t *last;     /* P latest finishes (append) */
    const int32_t *order;
    int32_t *pos;      /* position of each task */
    int32_t *poff;     /* by position: predecessor list offsets (n + 1), */
    int32_t *ppos;     /* the predecessors' positions */
    int64_t *pcomm;    /* and the communication costs of those edges */
    int32_t *proc;     /* by position: processor, start, finish */
    int64_t *start;
    int64_t *fin;
    int64_t makespan;
} select_state;

/* The predecessor lists by position (poff, ppos, pcomm), with `threads`
 * threads: the one pass that reads the graph's lists in the order's random
 * task order; everything after reads them in sequence. */
static void select_lists(const pets_dag *dag, select_state *st, int32_t n, int threads)
{
    int touch = threads > 1 && n >= PETS_SELECT_PAR_MIN * 64;
#pragma omp parallel for num_threads(threads) if (threads > 1 && n >= PETS_SELECT_PAR_MIN * 64) schedule(static)
    for (int32_t k = 0; k < n; k++) {
        int32_t v = st->order[k];
        st->poff[k + 1] = dag->pred_off[v + 1] - dag->pred_off[v];
        /* first touch of the placements here when this loop runs in
         * parallel: the booking, one thread, would otherwise take their
         * page faults (on one thread it would only add a pass) */
        if (touch) {
            st->proc[k] = 0;
            st->start[k] = st->fin[k] = 0;
        }
    }
    st->poff[0] = 0;
    for (int32_t k = 0; k < n; k++)
        st->poff[k + 1] += st->poff[k];
#pragma omp parallel for num_threads(threads) if (threads > 1 && n >= PETS_SELECT_PAR_MIN * 64) schedule(static)
    for (int32_t k = 0; k < n; k++) {
        int32_t v = st->order[k], j = st->poff[k];
        for (int32_t e = dag->pred_off[v]; e < dag->pred_off[v + 1]; e++, j++) {
            st->ppos[j] = st->pos[dag->pred[e]];
            st->pcomm[j] = dag->pred_comm[e];
        }
    }
}

/* Ready time of the task at position k on each processor into rdy[0..P),
 * from its predecessors' placements; 1 when a predecessor has position >=
 * lim (not placed yet; rdy is then incomplete). O(predecessors + P), not
 * O(both multiplied): on processor p the ready time is the larger of the
 * best finish + communication over predecessors placed elsewhere and the
 * best plain finish over those placed on p. The first is the overall best
 * b1 (reached on processor p1) everywhere but on p1, where it is b2, the
 * best over processors other than p1; the second touches only the
 * predecessors' own processors. */
static int select_ready(const select_state *st, int32_t k, int32_t lim, int64_t *rdy)
{
    int32_t P = st->P, p1 = -1;
    int64_t b1 = 0, b2 = 0;
    int32_t e0 = st->poff[k], e1 = st->poff[k + 1];
    for (int32_t e = e0; e < e1; e++) {
        int32_t q = st->ppos[e];
        if (q >= lim)
            return 1;
        int64_t x = st->fin[q] + st->pcomm[e];
        int32_t pu = st->proc[q];
        if (x > b1) {
            if (pu != p1)
                b2 = b1;
            b1 = x;
            p1 = pu;
        } else if (pu != p1 && x > b2) {
            b2 = x;
        }
    }
    for (int32_t p = 0; p < P; p++)
        rdy[p] = b1;
    if (p1 >= 0)
        rdy[p1] = b2;
    for (int32_t e = e0; e < e1; e++) {
        int32_t q = st->ppos[e];
        if (st->fin[q] > rdy[st->proc[q]])
            rdy[st->proc[q]] = st->fin[q];
    }
    return 0;
}

/* Cost rows of the tasks at positions k0..k1) into w[(k - k0) * P + p].
 * Called by every thread of a team (or by one thread outside any): an
 * orphaned loop, dynamic so that a thread busy elsewhere (the booking)
 * takes no share. The reads are independent and miss the cache (task ids
 * are in random order); a tight loop of its own keeps many in flight. */
static void select_cost_rows(const pets_dag *dag, const select_state *st, int32_t k0, int32_t k1,
                             int64_t *w)
{
    int32_t P = st->P;
#pragma omp for schedule(dynamic, 64) nowait
    for (int32_t i = 0; i < k1 - k0; i++) {
        const int64_t *c = dag->cost + (int64_t)st->order[k0 + i] * P;
        for (int32_t p = 0; p < P; p++)
            w[(size_t)i * P + p] = c[p];
    }
}

/* End of the batch that starts at k0: the run of equal levels (lev holds
 * the level of each position), at most PETS_SELECT_BATCH long. A wrong
 * level only shortens or lengthens runs; a task whose predecessor lies in
 * its own run is caught as late. */
static int32_t select_batch_end(const int32_t *lev, int32_t k0, int32_t n)
{
    int32_t k1 = k0 + 1;
    while (k1 < n && k1 - k0 < PETS_SELECT_BATCH && lev[k1] == lev[k0])
        k1++;
    return k1;
}

/* Places the task at position k given its ready times: the processor of
 * least finish time (the lowest one on a tie), its earliest start there,
 * then the booking. */
static int select_place(select_state *st, int32_t k, const int64_t *rdy, const int64_t *w,
                        pc_error *err)
{
    int32_t P = st->P, best_p = 0;
    int64_t best_f = INT64_MAX, best_s = 0;
    for (int32_t p = 0; p < P; p++) {
        /* a start is never before the ready time: a processor that cannot
         * beat the best finish even so is not searched */
        if (rdy[p] + w[p] >= best_f)
            continue;
        int64_t t;
        if (st->insertion)
            t = pets_gaps_start(&st->gaps[p], rdy[p], w[p]);
        else
            t = rdy[p] > st->last[p] ? rdy[p] : st->last[p];
        /* masks rather than a branch: which processor wins is
         * unpredictable, and a mispredicted branch here cost more than
         * the search */
        int64_t f = t + w[p], m = -(int64_t)(f < best_f);
        best_f ^= (best_f ^ f) & m;
        best_s ^= (best_s ^ t) & m;
        best_p ^= (best_p ^ p) & (int32_t)m;
    }
    if (st->insertion) {
        pets_gap_pos pos;
        pets_gaps_fit(&st->gaps[best_p], rdy[best_p], w[best_p], &pos);
        if (pets_gaps_book(&st->gaps[best_p], pos, best_s, best_f))
            return pc_error_nomem(err, "selecting processors");
    }
    if (!st->insertion && best_f > st->last[best_p])
        st->last[best_p] = best_f;
    st->proc[k] = best_p;
    st->start[k] = best_s;
    st->fin[k] = best_f;
    if (best_f > st->makespan)
        st->makespan = best_f;
    return PC_OK;
}

/* A task at position k that reads a task of its own batch: its
 * predecessors must all be placed by now, else the order is not
 * topological. */
static int select_late(const select_state *st, int32_t k, int64_t *rdy,
                       pc_error *err)
{
    if (!select_ready(st, k, k, rdy))
        return PC_OK;
    for (int32_t e = st->poff[k]; e < st->poff[k + 1]; e++)
        if (st->ppos[e] >= k)
            return pc_error_set(err, PC_EVERIFY, NULL, 0,
                                "priority order: task %ld comes before its predecessor %ld",
                                (long)st->order[k] + 1, (long)st->order[st->ppos[e]] + 1);
    return PC_OK;
}

/* Places the tasks of positions 0..n) batch by batch (runs of equal
 * levels, see select_batch_end), with `threads` threads in one parallel
 * region for the whole loop (a region per level cost a fork and a join
 * per level, 724 levels at v = 2^19): all threads compute a batch's ready
 * times (late[i] = 1 when a predecessor lies in the batch itself), then
 * the master thread chooses and books the batch task by task in priority
 * order while the others copy the next batch's cost rows (they read no
 * placement) into the other half of w. Two barriers per batch. The
 * booking stays on one thread, so the gap indexes stay in its cache. rc
 * is written by the master only and read by all after a barrier. */
static int select_levels(const pets_dag *dag, select_state *st, const int32_t *lev, int32_t n,
                         int64_t *rdy, int64_t *w[2], unsigned char *late, int threads,
                         pc_error *err)
{
    int rc = PC_OK;
    int32_t P = st->P;
    (void)threads; /* read only by the pragma */
#pragma omp parallel num_threads(threads) if (threads > 1 && n >= PETS_SELECT_PAR_MIN * 64)
    {
        int32_t k0 = 0, k1 = n ? select_batch_end(lev, 0, n) : 0;
        int b = 0;
        select_cost_rows(dag, st, k0, k1, w[0]);
#pragma omp barrier
        while (k0 < n) {
#pragma omp for schedule(static)
            for (int32_t i = 0; i < k1 - k0; i++)
                late[i] = (unsigned char)select_ready(st, k0 + i, k0, rdy + (size_t)i * P);
            int32_t k2 = k1 < n ? select_batch_end(lev, k1, n) : n;
#pragma omp master
            for (int32_t k = k0; k < k1 && !rc; k++) {
                size_t i = (size_t)(k - k0);
                if (late[i])
                    rc = select_late(st, k, rdy + i * P, err);
                if (!rc)
                    rc = select_place(st, k, rdy + i * P, w[b] + i * P, err);
            }
            select_cost_rows(dag, st, k1, k2, w[b ^ 1]);
#pragma omp barrier
            if (rc)
                break;
            k0 = k1;
            k1 = k2;
            b ^= 1;
        }
    }
    return rc;
}

/* Copies the placements by position into s, by task. */
static void select_scatter(const select_state *st, int32_t n, pets_solution *s, int threads)
{
    (void)threads;
#pragma omp parallel for num_threads(threads) if (threads > 1 && n >= PETS_SELECT_PAR_MIN * 64) schedule(static)
    for (int32_t k = 0; k < n; k++) {
        int32_t v = st->order[k];
        s->proc[v] = st->proc[k];
        s->start[v] = st->start[k];
        s->finish[v] = st->fin[k];
    }
}

int pets_select_run(const pets_dag *dag, const pets_options *o, int threads, pets_solution *s,
                    pc_error *err)
{
    if (o->select == PETS_SELECT_LINEAR)
        return pets_select_linear(dag, o->policy, s, err);
    int32_t n = dag->ntasks, P = dag->nprocs;
    int32_t cap = n < PETS_SELECT_BATCH ? n : PETS_SELECT_BATCH;
    select_state st = {.insertion = o->policy == PETS_INSERTION, .P = P, .order = s->order};
    st.gaps = pc_calloc((size_t)P, sizeof *st.gaps);
    st.last = pc_calloc((size_t)P, sizeof *st.last);
    st.pos = pc_malloc_array((size_t)n, sizeof *st.pos);
    st.proc = pc_malloc_array((size_t)n, sizeof *st.proc);
    st.start = pc_malloc_array((size_t)n, sizeof *st.start);
    st.fin = pc_malloc_array((size_t)n, sizeof *st.fin);
    st.poff = pc_malloc_array((size_t)n + 1, sizeof *st.poff);
    st.ppos = pc_malloc_array((size_t)dag->nedges, sizeof *st.ppos);
    st.pcomm = pc_malloc_array((size_t)dag->nedges, sizeof *st.pcomm);
    int64_t *rdy = pc_malloc_array((size_t)cap * (size_t)P, sizeof *rdy);
    int64_t *w[2] = {pc_malloc_array((size_t)cap * (size_t)P, sizeof *w[0]),
                     pc_malloc_array((size_t)cap * (size_t)P, sizeof *w[1])};
    unsigned char *late = pc_malloc_array((size_t)cap, 1);
    int32_t *lev = pc_malloc_array((size_t)n, sizeof *lev);
    int rc = PC_OK;
    if (!st.gaps || !st.last || !st.pos || !st.proc || !st.start || !st.fin || !st.poff ||
        (dag->nedges && (!st.ppos || !st.pcomm)) || !rdy || !w[0] || !w[1] ||
        !late || !lev) {
        rc = pc_error_nomem(err, "selecting processors");
        goto out;
    }
    for (int32_t p = 0; p < P; p++)
        pets_gaps_init(&st.gaps[p]);
    if ((rc = select_positions(s, n, st.pos, threads, err)))
        goto out;
    select_lists(dag, &st, n, threads);
    /* levels by position, so that finding the batches reads in sequence */
#pragma omp parallel for num_threads(threads) if (threads > 1 && n >= PETS_SELECT_PAR_MIN) schedule(static)
    for (int32_t k = 0; k < n; k++)
        lev[k] = s->level[s->order[k]];
    rc = select_levels(dag, &st, lev, n, rdy, w, late, threads, err);
    if (!rc) {
        select_scatter(&st, n, s, threads);
        s->makespan = st.makespan;
    }
out:
    if (st.gaps)
        for (int32_t p = 0; p < P; p++)
            pets_gaps_free(&st.gaps[p]);
    pc_free(st.gaps);
    pc_free(st.last);
    pc_free(st.pos);
    pc_free(st.proc);
    pc_free(st.start);
    pc_free(st.fin);
    pc_free(st.poff);
    pc_free(st.ppos);
    pc_free(st.pcomm);
    pc_free(rdy);
    pc_free(w[0]);
    pc_free(w[1]);
    pc_free(late);
    pc_free(lev);
    return rc;
}
