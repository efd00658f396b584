/* pets_omp.c - the `omp` implementation: the host phases with OpenMP, one
 * code body for 1 and T threads (a parallel region opens only when there
 * are several threads and enough tasks).
 *
 * Levels and ranks go as a dataflow (Kahn's algorithm without rounds): a
 * task is processed once its last predecessor is, by whichever thread
 * takes it from the shared ready queue. Then the tasks are put in level
 * order by counting, and the priority sort orders each level's segment,
 * the segments in parallel. Selection runs its pipeline on the same
 * threads (pets_select_run). */
#include <stdlib.h>
#include <string.h>
#include "pc_omp.h"

#include "pc_alloc.h"
#include "pc_spin.h"
#include "pc_time.h"
#include "pets_priv.h"
#include "pets_stream.h"

/* Below this many tasks a loop runs on the calling thread alone. */
#define PETS_OMP_PAR_MIN 256
/* Slots of the ready queue per grab: few, as the queue holds about a
 * level's width of ready tasks at a time (724 at v = 2^19). */
#define PETS_OMP_CHUNK 16

/* Ready tasks a thread collects at most before it pushes them: one atomic
 * add on the shared tail per push instead of one per task (with 16
 * threads that line bounced for each of the v tasks). */
#define PETS_OMP_APPEND 256

/* The shared state of the dataflow pass: the ready queue (slot i holds
 * the i-th task to become ready, -1 until it is written), head (the next
 * slot to take), tail (the next slot to reserve), processed (tasks whose
 * successors are all counted down, added before a thread waits) and stop.
 * Each counter on a cache line of its own. */
typedef struct omp_flow {
    int32_t head;
    char pad0[60];
    int32_t tail;
    char pad1[60];
    int32_t processed;
    int32_t stop;
    char pad2[56];
    int32_t *queue;
} omp_flow;

/* Publishes buf[0..nb) in the queue: one reservation, then each slot with
 * a release store (a taker acquires it, and with it everything the
 * task's predecessors wrote). */
static void omp_push(omp_flow *f, const int32_t *buf, int nb)
{
    int32_t at = __atomic_fetch_add(&f->tail, nb, __ATOMIC_RELAXED);
    for (int j = 0; j < nb; j++)
        __atomic_store_n(&f->queue[at + j], buf[j], __ATOMIC_RELEASE);
}

/* Level, rank and ACC of task v, all of whose predecessors are done; then
 * each successor's counter is counted down (acq_rel: the one that reaches
 * zero has every predecessor's writes) and the ready ones go to buf
 * (pushed when full). */
static void omp_task(const pets_dag *dag, int32_t v, omp_flow *f, int32_t *left,
                     int64_t *sumcost, pets_solution *s, int32_t *buf, int *nb)
{
    int32_t P = dag->nprocs, lev = 0;
    int64_t rpt = 0, acc = 0, dtc = 0;
    for (int32_t e = dag->pred_off[v]; e < dag->pred_off[v + 1]; e++) {
        int32_t u = dag->pred[e];
        lev = s->level[u] + 1 > lev ? s->level[u] + 1 : lev;
        rpt = s->rank_scaled[u] > rpt ? s->rank_scaled[u] : rpt;
    }
    for (int32_t p = 0; p < P; p++)
        acc += dag->cost[(int64_t)v * P + p];
    for (int32_t e = dag->succ_off[v]; e < dag->succ_off[v + 1]; e++)
        dtc += dag->succ_comm[e];
    sumcost[v] = acc;
    s->level[v] = lev;
    s->rank_scaled[v] = acc + (int64_t)P * dtc + rpt;
    s->rank[v] = pets_round_rank(s->rank_scaled[v], P);
    for (int32_t e = dag->succ_off[v]; e < dag->succ_off[v + 1]; e++) {
        int32_t w = dag->succ[e];
        if (__atomic_sub_fetch(&left[w], 1, __ATOMIC_ACQ_REL) == 0) {
            buf[(*nb)++] = w;
            if (*nb == PETS_OMP_APPEND) {
                omp_push(f, buf, *nb);
                *nb = 0;
            }
        }
    }
}

/* Levels, ranks and ACC of every task as a dataflow, with no barrier: the
 * sources are in queue[0..nsrc), every other slot -1; the threads take
 * slots PETS_OMP_CHUNK at a time and process each task once it is
 * written, and the thread that counts a task's last predecessor down
 * makes it ready. (Frontier by frontier, the levels cost two barriers
 * each: 0.018-0.021 s of 16 threads at 2^19 tasks, 724 levels.) A thread
 * about to wait pushes what it holds and adds its processed count first,
 * so that all threads waiting means nothing will ever be pushed: with
 * processed == tail < n the graph has a cycle (*ready = tail then).
 * Returns the tasks made ready in all. */
static int32_t omp_flow_levels(const pets_dag *dag, int32_t *queue, int32_t nsrc,
                               int32_t *left, int64_t *sumcost, pets_solution *s, int threads)
{
    int32_t n = dag->ntasks;
    omp_flow f;
    memset(&f, 0, sizeof f);
    f.queue = queue;
    f.tail = nsrc;
    (void)threads; /* read only by the pragma */
#pragma omp parallel num_threads(threads) if (threads > 1 && n >= PETS_OMP_PAR_MIN)
    {
        int32_t buf[PETS_OMP_APPEND];
        int nb = 0, mine = 0;
        for (;;) {
            int32_t i0 = __atomic_fetch_add(&f.head, PETS_OMP_CHUNK, __ATOMIC_RELAXED);
            if (i0 >= n || __atomic_load_n(&f.stop, __ATOMIC_RELAXED))
                break;
            int32_t i1 = i0 + PETS_OMP_CHUNK < n ? i0 + PETS_OMP_CHUNK : n;
            for (int32_t i = i0; i < i1; i++) {
                int32_t v;
                for (int spins = 0; (v = __atomic_load_n(&queue[i], __ATOMIC_ACQUIRE)) < 0;) {
                    if (nb) {
                        omp_push(&f, buf, nb);
                        nb = 0;
                    }
                    if (mine) {
                        __atomic_fetch_add(&f.processed, mine, __ATOMIC_RELEASE);
                        mine = 0;
                    }
                    int32_t done = __atomic_load_n(&f.processed, __ATOMIC_ACQUIRE);
                    if (done == __atomic_load_n(&f.tail, __ATOMIC_ACQUIRE) &&
                        __atomic_load_n(&queue[i], __ATOMIC_ACQUIRE) < 0)
                        __atomic_store_n(&f.stop, 1, __ATOMIC_RELAXED); /* a cycle */
                    if (__atomic_load_n(&f.stop, __ATOMIC_RELAXED))
                        goto end;
                    pc_spin_pause(&spins);
                }
                omp_task(dag, v, &f, left, sumcost, s, buf, &nb);
                mine++;
            }
            if (nb) {
                omp_push(&f, buf, nb);
                nb = 0;
            }
        }
    end:
        if (nb)
            omp_push(&f, buf, nb);
        if (mine)
            __atomic_fetch_add(&f.processed, mine, __ATOMIC_RELEASE);
    }
    return f.tail;
}

/* The tasks by level into order (level L at loff[L] .. loff[L + 1]), from
 * s->level, by counting: each thread counts the levels of its static range
 * of tasks in a histogram of its own (in scratch, n entries: used when the
 * threads' histograms, 128 bytes apart, fit, else one thread counts), the
 * prefix sums over (level, thread) give each thread its places in each
 * level, and each thread moves its range there. No atomics: counters per level shared by
 * 16 threads cost 0.014 s at 2^19 tasks. Returns the number of levels. */
static int32_t omp_by_level(const pets_solution *s, int32_t n, int32_t *order, int32_t *loff,
                            int32_t *scratch, int threads)
{
    int32_t nlev = 0;
#pragma omp parallel for num_threads(threads) if (threads > 1 && n >= PETS_OMP_PAR_MIN) schedule(static) reduction(max : nlev)
    for (int32_t v = 0; v < n; v++)
        nlev = s->level[v] + 1 > nlev ? s->level[v] + 1 : nlev;
    /* the threads' histograms a whole 128 bytes apart: packed at nlev,
     * the few counters of a shallow graph shared cache lines between
     * threads, which fought over them at every task */
    int32_t hs = (int32_t)pc_thread_stride((size_t)nlev, sizeof(int32_t));
    if ((int64_t)threads * hs > n)
        threads = 1; /* deep and narrow: few tasks per level anyway */
#pragma omp parallel num_threads(threads) if (threads > 1 && n >= PETS_OMP_PAR_MIN)
    {
        int nt = omp_get_num_threads(), me = omp_get_thread_num();
        int32_t *h = scratch + (size_t)me * (size_t)hs;
        int32_t v0 = (int32_t)((int64_t)n * me / nt), v1 = (int32_t)((int64_t)n * (me + 1) / nt);
        memset(h, 0, (size_t)nlev * sizeof *h);
        for (int32_t v = v0; v < v1; v++)
            h[s->level[v]]++;
#pragma omp barrier
#pragma omp single
        {
            int32_t at = 0;
            for (int32_t L = 0; L < nlev; L++) {
                loff[L] = at;
                for (int t = 0; t < nt; t++) {
                    int32_t c = scratch[(size_t)t * (size_t)hs + L];
                    scratch[(size_t)t * (size_t)hs + L] = at;
                    at += c;
                }
            }
            loff[nlev] = at;
        }
        for (int32_t v = v0; v < v1; v++)
            order[h[s->level[v]]++] = v;
    }
    return nlev;
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
    if (pets_stream_wanted(dag, o, threads)) {
        int rs = pets_stream_run(dag, o, threads, NULL, s, t, err);
        if (rs != PC_EUNAVAIL)
            return rs;
        pc_error_clear(err); /* OpenMP gave fewer threads: the phases then */
    }
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
    for (int32_t v = 0; v < n; v++) {
        left[v] = dag->pred_off[v + 1] - dag->pred_off[v];
        queue[v] = -1;
    }
    int32_t nsrc = 0;
    for (int32_t v = 0; v < n; v++)
        if (!left[v])
            queue[nsrc++] = v;
    double t1 = pc_time_now();
    int32_t ready = omp_flow_levels(dag, queue, nsrc, left, sumcost, s, threads);
    double t2 = pc_time_now();
    if (ready != n) {
        rc = pc_error_set(err, PC_EINVAL, NULL, 0, "task graph has a cycle");
        goto out;
    }
    /* the queue is free now: the histograms of the levels */
    int32_t nlev = omp_by_level(s, n, s->order, loff, queue, threads);
    pets_prio_keys keys = {s->level, s->rank, sumcost};
    omp_sort_levels(s->order, loff, nlev, &keys, threads);
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
