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

/* Checks that order is a permutation of the tasks and marks each task
 * unplaced (proc -2), so that later steps may index by it. */
static int select_check_perm(const pets_solution *s, int32_t n, pc_error *err)
{
    memset(s->proc, 0xff, (size_t)n * sizeof *s->proc); /* every id -1 */
    for (int32_t k = 0; k < n; k++) {
        int32_t v = s->order[k];
        if (v < 0 || v >= n || s->proc[v] != -1)
            return pc_error_set(err, PC_EVERIFY, NULL, 0,
                                "priority order: position %ld holds %ld, not a new task", (long)k,
                                (long)v + 1);
        s->proc[v] = -2;
    }
    return PC_OK;
}

/* Ready time of task v on each processor into rdy[0..P); 1 when a
 * predecessor is not placed yet (then rdy is incomplete). */
static int select_ready(const pets_dag *dag, const pets_solution *s, int32_t v, int64_t *rdy)
{
    int32_t P = dag->nprocs;
    for (int32_t p = 0; p < P; p++)
        rdy[p] = 0;
    for (int32_t e = dag->pred_off[v]; e < dag->pred_off[v + 1]; e++) {
        int32_t u = dag->pred[e], pu = s->proc[u];
        if (pu < 0)
            return 1;
        int64_t fu = s->finish[u], cu = dag->pred_comm[e];
        for (int32_t p = 0; p < P; p++) {
            int64_t r = fu + (p == pu ? 0 : cu);
            if (r > rdy[p])
                rdy[p] = r;
        }
    }
    return 0;
}

void pets_select_ready_batch(const pets_dag *dag, const pets_solution *s, int32_t k0, int32_t k1,
                             int64_t *rdy, int64_t *w, unsigned char *late, int threads)
{
    int32_t P = dag->nprocs, nb = k1 - k0;
    (void)threads; /* unused when built without OpenMP */
#pragma omp parallel for num_threads(threads) if (threads > 1 && nb >= PETS_SELECT_PAR_MIN) schedule(static)
    for (int32_t i = 0; i < nb; i++) {
        int32_t v = s->order[k0 + i];
        late[i] = (unsigned char)select_ready(dag, s, v, rdy + (size_t)i * P);
        for (int32_t p = 0; p < P; p++)
            w[(size_t)i * P + p] = dag->cost[(int64_t)v * P + p];
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

typedef struct select_state {
    int insertion;
    pets_gaps *gaps;   /* P gap indexes (insertion) */
    int64_t *last;     /* P latest finishes (append) */
} select_state;

/* Places task v given its ready times: the processor of least finish time
 * (the lowest one on a tie), its earliest start there, then the booking. */
static int select_place(int32_t P, select_state *st, int32_t v, const int64_t *rdy,
                        const int64_t *w, pets_solution *s, pc_error *err)
{
    int32_t best_p = 0;
    int64_t best_f = INT64_MAX, best_s = 0;
    pets_gap_pos best_pos = {0, 0};
    for (int32_t p = 0; p < P; p++) {
        /* a start is never before the ready time: a processor that cannot
         * beat the best finish even so is not searched */
        if (rdy[p] + w[p] >= best_f)
            continue;
        int64_t t;
        pets_gap_pos pos = {0, 0};
        if (st->insertion)
            t = pets_gaps_fit(&st->gaps[p], rdy[p], w[p], &pos);
        else
            t = rdy[p] > st->last[p] ? rdy[p] : st->last[p];
        if (t + w[p] < best_f) {
            best_f = t + w[p];
            best_s = t;
            best_p = p;
            best_pos = pos;
        }
    }
    if (st->insertion && pets_gaps_book(&st->gaps[best_p], best_pos, best_s, best_f))
        return pc_error_nomem(err, "selecting processors");
    if (!st->insertion && best_f > st->last[best_p])
        st->last[best_p] = best_f;
    s->proc[v] = best_p;
    s->start[v] = best_s;
    s->finish[v] = best_f;
    if (best_f > s->makespan)
        s->makespan = best_f;
    return PC_OK;
}

/* A task that reads a task of its own batch: its predecessors must all be
 * placed by now, else the order is not topological. */
static int select_late(const pets_dag *dag, const pets_solution *s, int32_t v, int64_t *rdy,
                       pc_error *err)
{
    if (!select_ready(dag, s, v, rdy))
        return PC_OK;
    for (int32_t e = dag->pred_off[v]; e < dag->pred_off[v + 1]; e++)
        if (s->proc[dag->pred[e]] < 0)
            return pc_error_set(err, PC_EVERIFY, NULL, 0,
                                "priority order: task %ld comes before its predecessor %ld",
                                (long)v + 1, (long)dag->pred[e] + 1);
    return PC_OK;
}

int pets_select_run(const pets_dag *dag, const pets_options *o, int threads, pets_solution *s,
                    pc_error *err)
{
    if (o->select == PETS_SELECT_LINEAR)
        return pets_select_linear(dag, o->policy, s, err);
    int32_t n = dag->ntasks, P = dag->nprocs;
    int32_t cap = n < PETS_SELECT_BATCH ? n : PETS_SELECT_BATCH;
    select_state st = {o->policy == PETS_INSERTION, NULL, NULL};
    st.gaps = pc_calloc((size_t)P, sizeof *st.gaps);
    st.last = pc_calloc((size_t)P, sizeof *st.last);
    int64_t *rdy = pc_malloc_array((size_t)cap * (size_t)P, sizeof *rdy);
    int64_t *w = pc_malloc_array((size_t)cap * (size_t)P, sizeof *w);
    unsigned char *late = pc_malloc_array((size_t)cap, 1);
    int32_t *lev = pc_malloc_array((size_t)n, sizeof *lev);
    int rc = PC_OK;
    if (!st.gaps || !st.last || !rdy || !w || !late || !lev) {
        rc = pc_error_nomem(err, "selecting processors");
        goto out;
    }
    for (int32_t p = 0; p < P; p++)
        pets_gaps_init(&st.gaps[p]);
    if ((rc = select_check_perm(s, n, err)))
        goto out;
    /* levels by position, so that finding the batches reads in sequence */
#pragma omp parallel for num_threads(threads) if (threads > 1 && n >= PETS_SELECT_PAR_MIN) schedule(static)
    for (int32_t k = 0; k < n; k++)
        lev[k] = s->level[s->order[k]];
    s->makespan = 0;
    for (int32_t k0 = 0; k0 < n && !rc; ) {
        int32_t k1 = select_batch_end(lev, k0, n);
        pets_select_ready_batch(dag, s, k0, k1, rdy, w, late, threads);
        for (int32_t k = k0; k < k1 && !rc; k++) {
            size_t i = (size_t)(k - k0);
            int32_t v = s->order[k];
            if (late[i])
                rc = select_late(dag, s, v, rdy + i * P, err);
            if (!rc)
                rc = select_place(P, &st, v, rdy + i * P, w + i * P, s, err);
        }
        k0 = k1;
    }
out:
    if (st.gaps)
        for (int32_t p = 0; p < P; p++)
            pets_gaps_free(&st.gaps[p]);
    pc_free(st.gaps);
    pc_free(st.last);
    pc_free(rdy);
    pc_free(w);
    pc_free(late);
    pc_free(lev);
    return rc;
}
