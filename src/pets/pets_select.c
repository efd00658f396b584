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
#include "pc_omp.h"
#include "pc_spin.h"
#include "pc_time.h"
#include "pets_select_pipe.h"

/* Below PETS_SELECT_PAR_MIN * 64 tasks a selection is not worth waking
 * threads for. */
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
        int32_t v = st->order[k], j = st->poff[k], need = -1;
        for (int32_t e = dag->pred_off[v]; e < dag->pred_off[v + 1]; e++, j++) {
            int32_t q = st->pos[dag->pred[e]];
            st->ppos[j] = q;
            st->pcomm[j] = dag->pred_comm[e];
            need = q > need ? q : need;
        }
        st->need[k] = need;
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

/* Places the task at position k given its ready times: the processor of
 * least finish time (the lowest one on a tie), its earliest start there,
 * then the booking. (Searching the processor of least ready time + cost
 * first, computed by the workers, made the booking slower: 0.132 against
 * 0.113 s on one thread at 2^19 on the GPU machine.) */
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


/* Waits until the booking has passed position q (done > q); 1 when the
 * selection stopped instead. */
static int pipe_wait_done(select_pipe *pp, int32_t q)
{
    return pc_spin_until_at_least(&pp->done, q + 1, &pp->stop);
}

/* Waits until a streamed selection's producer has finalized the positions
 * before b; 1 when the selection stopped instead. */
static int pipe_wait_avail(select_pipe *pp, int32_t b)
{
    return pc_spin_until_at_least(pp->avail, b, &pp->stop);
}

/* Ready times and cost rows of chunk c into the ring, then its flag. The
 * caller claimed c. Waits for ring room (the booking past the chunk's
 * positions a ring earlier) and, per task, for its last predecessor to be
 * booked; a task whose last predecessor is in the chunk itself (or after
 * it: an order that is not topological) is marked late. */
static void pipe_compute_chunk(const pets_dag *dag, const select_state *st, select_pipe *pp,
                               int32_t c, int32_t n)
{
    int32_t P = st->P, a = c * PETS_SELECT_CHUNK;
    int32_t b = a + PETS_SELECT_CHUNK < n ? a + PETS_SELECT_CHUNK : n;
    if (b > PETS_SELECT_RING && pipe_wait_done(pp, b - PETS_SELECT_RING - 1))
        return;
    if (pp->avail && pipe_wait_avail(pp, b))
        return;
    /* the cost rows first: independent reads that miss the cache (task ids
     * are in random order), issued together */
    for (int32_t k = a; k < b; k++) {
        const int64_t *row = dag->cost + (int64_t)st->order[k] * P;
        int64_t *wk = pp->w + (size_t)(k % PETS_SELECT_RING) * P;
        for (int32_t p = 0; p < P; p++)
            wk[p] = row[p];
    }
    for (int32_t k = a; k < b; k++) {
        int32_t i = k % PETS_SELECT_RING, q = st->need[k];
        if (q >= a) {
            pp->late[i] = 1;
            continue;
        }
        if (q >= 0 && pipe_wait_done(pp, q))
            return;
        pp->late[i] = (unsigned char)select_ready(st, k, a, pp->rdy + (size_t)i * P);
    }
    __atomic_store_n(&pp->flag[c % PETS_SELECT_FLAGS].gen, c + 1, __ATOMIC_RELEASE);
}

/* Claims the next chunk if it is c; 1 when the caller now holds it. */
static int pipe_claim(select_pipe *pp, int32_t c)
{
    int32_t want = c;
    return __atomic_compare_exchange_n(&pp->claim, &want, c + 1, 0, __ATOMIC_ACQ_REL,
                                       __ATOMIC_RELAXED);
}

/* Waits of the booking thread for a worker's chunk longer than
 * PETS_SELECT_LONG_WAIT seconds, after which it computes the remaining
 * chunks alone: a worker without a core (a loaded machine) holds up every
 * chunk it claims, and at load 2 on two cores two threads ran at 0.7x of
 * one. On an idle machine a wait is a few microseconds. */
#define PETS_SELECT_LONG_WAIT 1e-3
#define PETS_SELECT_LONG_WAITS 4

/* Test hook (pets_priv.h): >= 0 makes the booking thread go solo at that
 * chunk, as after long waits. */
int g_pets_select_solo_at = -1;

/* The booking thread: chunk by chunk, in order, each task placed from the
 * ring (a late one computed here, its predecessors all placed by then),
 * done published after each chunk. On an error, stop ends the workers. */
int pets_select_book(const pets_dag *dag, select_state *st, select_pipe *pp, int32_t n,
                     pc_error *err)
{
    int32_t P = st->P, long_waits = 0;
    for (int32_t c = 0; c < pp->nchunks; c++) {
        select_flag *f = &pp->flag[c % PETS_SELECT_FLAGS];
        double since = 0;
        if (c == g_pets_select_solo_at)
            __atomic_store_n(&pp->solo, 1, __ATOMIC_RELAXED);
        for (int spins = 0; __atomic_load_n(&f->gen, __ATOMIC_ACQUIRE) != c + 1;) {
            if (pipe_claim(pp, c)) {
                pipe_compute_chunk(dag, st, pp, c, n);
                break;
            }
            if (__atomic_load_n(&pp->stop, __ATOMIC_RELAXED))
                return PETS_SELECT_STOPPED; /* the chunk's worker left it */
            if (spins == PC_SPIN_BEFORE_YIELD && !pp->solo) {
                /* yielding from now on: how long does it take? */
                double now = pc_time_now();
                if (since == 0) {
                    since = now;
                } else if (now - since > PETS_SELECT_LONG_WAIT) {
                    since = now;
                    if (++long_waits == PETS_SELECT_LONG_WAITS)
                        __atomic_store_n(&pp->solo, 1, __ATOMIC_RELAXED);
                }
            }
            pc_spin_pause(&spins);
        }
        /* a chunk left by a stop (its own compute, or a worker's) is
         * not complete */
        if (__atomic_load_n(&f->gen, __ATOMIC_ACQUIRE) != c + 1)
            return PETS_SELECT_STOPPED;
        int32_t a = c * PETS_SELECT_CHUNK;
        int32_t b = a + PETS_SELECT_CHUNK < n ? a + PETS_SELECT_CHUNK : n;
        for (int32_t k = a; k < b; k++) {
            size_t i = (size_t)(k % PETS_SELECT_RING);
            int rc = PC_OK;
            /* the ring was written on other cores: ask for the entries of
             * a task a few ahead now */
            size_t i2 = (size_t)((k + PETS_SELECT_PREFETCH) % PETS_SELECT_RING) * P;
            __builtin_prefetch(pp->rdy + i2);
            __builtin_prefetch(pp->w + i2);
            if (pp->late[i])
                rc = select_late(st, k, pp->rdy + i * P, err);
            if (!rc)
                rc = select_place(st, k, pp->rdy + i * P, pp->w + i * P, err);
            if (rc) {
                __atomic_store_n(&pp->stop, 1, __ATOMIC_RELAXED);
                return rc;
            }
        }
        __atomic_store_n(&pp->done, b, __ATOMIC_RELEASE);
    }
    return PC_OK;
}

void pets_select_work(const pets_dag *dag, const select_state *st, select_pipe *pp, int32_t n)
{
    /* a chunk once claimed is computed, even after solo is set */
    while (!__atomic_load_n(&pp->solo, __ATOMIC_RELAXED)) {
        int32_t c = __atomic_fetch_add(&pp->claim, 1, __ATOMIC_ACQ_REL);
        if (c >= pp->nchunks || __atomic_load_n(&pp->stop, __ATOMIC_RELAXED))
            break;
        pipe_compute_chunk(dag, st, pp, c, n);
    }
}

/* Places the tasks of positions 0..n) with `threads` threads: thread 0
 * books, the others compute chunks (pipe_compute_chunk) until none is
 * left or the booking stopped. `if(threads > 1 && n >= 4096)`: below, or
 * with one thread, thread 0 computes every chunk itself. */
static int select_pipeline(const pets_dag *dag, select_state *st, select_pipe *pp, int32_t n,
                           int threads, pc_error *err)
{
    int rc = PC_OK;
    if (threads > PETS_SELECT_MAX_THREADS)
        threads = PETS_SELECT_MAX_THREADS;
#pragma omp parallel num_threads(threads) if (threads > 1 && n >= PETS_SELECT_PAR_MIN * 64)
    {
        if (omp_get_thread_num() == 0)
            rc = pets_select_book(dag, st, pp, n, err);
        else
            pets_select_work(dag, st, pp, n);
    }
    return rc;
}

void pets_select_scatter(const select_state *st, int32_t n, pets_solution *s, int threads)
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

int32_t pets_select_prealloc_blocks(const select_state *st, int32_t n)
{
    return (int32_t)(((int64_t)n * 5 / 4 / st->P) / PETS_GAP_BLOCK + 2);
}

/* Preallocates each processor's gap pool for an even share of the n
 * slots plus a quarter, the pages touched on the threads: grown block by
 * block by the booking thread, its page faults and copies cost 10-20 ms of
 * that one thread at 2^19 tasks. An estimate: a pool that outgrows it
 * grows as before. */
static int select_prealloc(select_state *st, int32_t n, int threads)
{
    int32_t P = st->P, bad = 0;
    int32_t nblocks = pets_select_prealloc_blocks(st, n);
    (void)threads;
#pragma omp parallel for num_threads(threads) if (threads > 1 && n >= PETS_SELECT_PAR_MIN * 64) schedule(static, 1) reduction(| : bad)
    for (int32_t p = 0; p < P; p++)
        bad |= pets_gaps_prealloc(&st->gaps[p], nblocks) != 0;
    return bad ? PC_ENOMEM : PC_OK;
}

int pets_select_alloc(const pets_dag *dag, const pets_options *o, const int32_t *order,
                      select_state *st, select_pipe *pp)
{
    int32_t n = dag->ntasks, P = dag->nprocs;
    memset(st, 0, sizeof *st);
    memset(pp, 0, sizeof *pp);
    st->insertion = o->policy == PETS_INSERTION;
    st->P = P;
    st->order = order;
    st->gaps = pc_calloc((size_t)P, sizeof *st->gaps);
    st->last = pc_calloc((size_t)P, sizeof *st->last);
    st->pos = pc_malloc_array((size_t)n, sizeof *st->pos);
    st->proc = pc_malloc_array((size_t)n, sizeof *st->proc);
    st->start = pc_malloc_array((size_t)n, sizeof *st->start);
    st->fin = pc_malloc_array((size_t)n, sizeof *st->fin);
    st->poff = pc_malloc_array((size_t)n + 1, sizeof *st->poff);
    st->need = pc_malloc_array((size_t)n, sizeof *st->need);
    st->ppos = pc_malloc_array((size_t)dag->nedges, sizeof *st->ppos);
    st->pcomm = pc_malloc_array((size_t)dag->nedges, sizeof *st->pcomm);
    pp->rdy = pc_malloc_array((size_t)PETS_SELECT_RING * (size_t)P, sizeof *pp->rdy);
    pp->w = pc_malloc_array((size_t)PETS_SELECT_RING * (size_t)P, sizeof *pp->w);
    pp->late = pc_malloc_array(PETS_SELECT_RING, 1);
    pp->flag = pc_calloc(PETS_SELECT_FLAGS, sizeof *pp->flag);
    if (!st->gaps || !st->last || !st->pos || !st->proc || !st->start || !st->fin || !st->poff ||
        !st->need || (dag->nedges && (!st->ppos || !st->pcomm)) || !pp->rdy || !pp->w ||
        !pp->late || !pp->flag) {
        pets_select_free(st, pp);
        return PC_ENOMEM;
    }
    for (int32_t p = 0; p < P; p++)
        pets_gaps_init(&st->gaps[p]);
    pp->nchunks = (int32_t)(((int64_t)n + PETS_SELECT_CHUNK - 1) / PETS_SELECT_CHUNK);
    return PC_OK;
}

void pets_select_free(select_state *st, select_pipe *pp)
{
    if (st->gaps)
        for (int32_t p = 0; p < st->P; p++)
            pets_gaps_free(&st->gaps[p]);
    pc_free(st->gaps);
    pc_free(st->last);
    pc_free(st->pos);
    pc_free(st->proc);
    pc_free(st->start);
    pc_free(st->fin);
    pc_free(st->poff);
    pc_free(st->need);
    pc_free(st->ppos);
    pc_free(st->pcomm);
    pc_free(pp->rdy);
    pc_free(pp->w);
    pc_free(pp->late);
    pc_free(pp->flag);
    memset(st, 0, sizeof *st);
    memset(pp, 0, sizeof *pp);
}

int pets_select_run(const pets_dag *dag, const pets_options *o, int threads, pets_solution *s,
                    pc_error *err)
{
    if (o->select == PETS_SELECT_LINEAR)
        return pets_select_linear(dag, o->policy, s, err);
    int32_t n = dag->ntasks;
    select_state st;
    select_pipe pp;
    int rc = pets_select_alloc(dag, o, s->order, &st, &pp);
    if (rc)
        return pc_error_nomem(err, "selecting processors");
    if (st.insertion && select_prealloc(&st, n, threads)) {
        rc = pc_error_nomem(err, "selecting processors");
        goto out;
    }
    if ((rc = select_positions(s, n, st.pos, threads, err)))
        goto out;
    select_lists(dag, &st, n, threads);
    rc = select_pipeline(dag, &st, &pp, n, threads, err);
    if (!rc) {
        pets_select_scatter(&st, n, s, threads);
        s->makespan = st.makespan;
    }
out:
    pets_select_free(&st, &pp);
    return rc;
}
