/* pets_omp.c - the `omp` implementation: the host phases with OpenMP, one
 * code body for 1 and T threads (a parallel region opens only when there
 * are several threads and enough tasks).
 *
 * Levels and ranks go frontier by frontier (Kahn's algorithm by levels):
 * the tasks of one frontier are exactly the tasks of one level, and they
 * read only tasks of earlier frontiers, so a frontier is one parallel loop.
 * The queue of frontiers is therefore already ordered by level, and the
 * priority sort only orders each level's segment, the segments in
 * parallel. Selection runs its pipeline on the same threads
 * (pets_select_run). */
#include <stdlib.h>
#include <string.h>
#include "pc_omp.h"

#include "pc_alloc.h"
#include "pc_spin.h"
#include "pc_time.h"
#include "pets_priv.h"

/* Below this many tasks a loop runs on the calling thread alone. */
#define PETS_OMP_PAR_MIN 256
/* Tasks per grab in a frontier: levels are about sqrt(v) wide (724 at
 * v = 2^19), and chunks of 64 gave 16 threads only 11 chunks to share. */
#define PETS_OMP_CHUNK 16

/* Tasks a thread collects before it appends them to the next frontier:
 * one atomic add on the shared tail per batch instead of one per task
 * (every thread incremented the same counter before; with 16 threads that
 * line bounced for each of the v tasks). */
#define PETS_OMP_APPEND 256

/* Appends buf[0..nb) to queue_out at *tail (one atomic reservation). */
static void omp_append(int32_t *queue_out, int32_t *tail, const int32_t *buf, int nb)
{
    int32_t at;
#pragma omp atomic capture
    {
        at = *tail;
        *tail += nb;
    }
    memcpy(queue_out + at, buf, (size_t)nb * sizeof *buf);
}

/* Levels, ranks and ACC of the task at queue position i (level lev);
 * the successors it makes ready go to buf (flushed to queue at *tail when
 * full). */
static void omp_task(const pets_dag *dag, int32_t lev, int32_t v, int32_t *queue,
                     int32_t *tail, int32_t *left, int64_t *sumcost, pets_solution *s,
                     int32_t *buf, int *nb)
{
    int32_t P = dag->nprocs;
    int64_t rpt = 0, acc = 0, dtc = 0;
    for (int32_t e = dag->pred_off[v]; e < dag->pred_off[v + 1]; e++)
        if (s->rank_scaled[dag->pred[e]] > rpt)
            rpt = s->rank_scaled[dag->pred[e]];
    for (int32_t p = 0; p < P; p++)
        acc += dag->cost[(int64_t)v * P + p];
    for (int32_t e = dag->succ_off[v]; e < dag->succ_off[v + 1]; e++) {
        int32_t w = dag->succ[e], rem;
        dtc += dag->succ_comm[e];
#pragma omp atomic capture
        rem = --left[w];
        if (rem == 0) {
            buf[(*nb)++] = w;
            if (*nb == PETS_OMP_APPEND) {
                omp_append(queue, tail, buf, *nb);
                *nb = 0;
            }
        }
    }
    sumcost[v] = acc;
    s->level[v] = lev;
    s->rank_scaled[v] = acc + (int64_t)P * dtc + rpt;
    s->rank[v] = pets_round_rank(s->rank_scaled[v], P);
}

/* Levels, ranks and ACC of every task, frontier by frontier from the
 * sources in queue[0..*tail): each frontier is one level, appended to
 * queue behind the one before, its start recorded in loff (loff[L] for
 * level L, loff[*nlev] = the end). One parallel region for all levels (a
 * region per level cost a fork and a join per level: 724 levels at 2^19
 * tasks); in it the threads grab chunks of the frontier from a shared
 * counter, meet at a barrier that yields (pc_barrier), thread 0 moves to
 * the next frontier, and they meet again. */
static void omp_levels(const pets_dag *dag, int32_t *queue, int32_t *tail, int32_t *loff,
                       int32_t *nlev, int32_t *left, int64_t *sumcost, pets_solution *s,
                       int threads)
{
    int32_t head = 0, end = *tail, lev = 0, next = 0, n = dag->ntasks;
    pc_barrier bar = {0, 0};
    (void)threads; /* threads and n are read only by OpenMP pragmas */
    (void)n;
    loff[0] = 0;
#pragma omp parallel num_threads(threads) if (threads > 1 && n >= PETS_OMP_PAR_MIN)
    {
        int32_t buf[PETS_OMP_APPEND];
        int nth = omp_get_num_threads(), me = omp_get_thread_num();
        while (head < end) {
            int nb = 0;
            for (;;) {
                int32_t i0 = head + __atomic_fetch_add(&next, PETS_OMP_CHUNK, __ATOMIC_RELAXED);
                if (i0 >= end)
                    break;
                int32_t i1 = i0 + PETS_OMP_CHUNK < end ? i0 + PETS_OMP_CHUNK : end;
                for (int32_t i = i0; i < i1; i++)
                    omp_task(dag, lev, queue[i], queue, tail, left, sumcost, s, buf, &nb);
            }
            if (nb)
                omp_append(queue, tail, buf, nb);
            pc_barrier_wait(&bar, nth);
            if (me == 0) {
                loff[++lev] = end;
                head = end;
                end = *tail;
                next = 0;
            }
            pc_barrier_wait(&bar, nth);
        }
    }
    *nlev = lev;
}

/* Sorts each level's segment queue[loff[L]..loff[L+1]) in priority order. */
static void omp_sort_levels(int32_t *queue, const int32_t *loff, int32_t nlev,
                            const pets_prio_keys *keys, int threads)
{
    (void)threads;
#pragma omp parallel for num_threads(threads) if (threads > 1 && nlev > 1) schedule(dynamic, 1)
    for (int32_t L = 0; L < nlev; L++)
        qsort_r(queue + loff[L], (size_t)(loff[L + 1] - loff[L]), sizeof *queue,
                pets_prio_qsort_cmp, (void *)keys);
}

/* The thread count a run uses: o->threads, or the OpenMP default for 0. */
static int omp_threads(const pets_options *o)
{
    if (o->threads > 0)
        return o->threads;
#ifdef _OPENMP
    return omp_get_max_threads();
#else
    return 1;
#endif
}

int pets_omp_run(const pets_dag *dag, const pets_options *o, pets_solution *s, pets_times *t,
                 pc_error *err)
{
    int32_t n = dag->ntasks;
    int threads = omp_threads(o);
    memset(t, 0, sizeof *t);
    int32_t *left = pc_malloc_array((size_t)n, sizeof *left);
    int32_t *queue = pc_malloc_array((size_t)n, sizeof *queue);
    int32_t *loff = pc_malloc_array((size_t)n + 1, sizeof *loff);
    int64_t *sumcost = pc_malloc_array((size_t)n, sizeof *sumcost);
    int rc = PC_OK;
    if (!left || !queue || !loff || !sumcost) {
        rc = pc_error_nomem(err, "running omp PETS");
        goto out;
    }
    double t0 = pc_time_now();
#pragma omp parallel for num_threads(threads) if (threads > 1 && n >= PETS_OMP_PAR_MIN) schedule(static)
    for (int32_t v = 0; v < n; v++)
        left[v] = dag->pred_off[v + 1] - dag->pred_off[v];
    int32_t tail = 0;
    for (int32_t v = 0; v < n; v++)
        if (!left[v])
            queue[tail++] = v;
    double t1 = pc_time_now();
    int32_t nlev = 0;
    omp_levels(dag, queue, &tail, loff, &nlev, left, sumcost, s, threads);
    double t2 = pc_time_now();
    if (tail != n) {
        rc = pc_error_set(err, PC_EINVAL, NULL, 0, "task graph has a cycle");
        goto out;
    }
    pets_prio_keys keys = {s->level, s->rank, sumcost};
    omp_sort_levels(queue, loff, nlev, &keys, threads);
    memcpy(s->order, queue, (size_t)n * sizeof *queue);
    double t3 = pc_time_now();
    rc = pets_select_run(dag, o, threads, s, err);
    double t4 = pc_time_now();
    t->entry = t1 - t0;
    t->metrics = t2 - t1;
    t->sort = t3 - t2;
    t->select = t4 - t3;
    t->total = t4 - t0;
out:
    pc_free(left);
    pc_free(queue);
    pc_free(loff);
    pc_free(sumcost);
    return rc;
}
