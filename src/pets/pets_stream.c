/* pets_stream.c - `omp`, `ocl` and `ocl-vec8` on many threads: levels and
 * ranks, the priority sort and the processor selection as one stream
 * instead of phases one after the other.
 *
 * The selection must go in priority order, but the order of level L needs
 * only the ranks of levels <= L. So while the booking thread places the
 * tasks of one level, the producers compute the metrics of later levels
 * and the finalizers sort them: the phases before the selection no longer
 * add to its time. The threads take roles:
 *   thread 0            the booking (pets_select_book);
 *   threads 1 .. 2      the selection's workers (ready times, cost rows);
 *   the next ones       finalizers: a level's segment of s->order sorted in
 *                       priority order, the positions of its tasks and its
 *                       predecessor lists by position, published in order;
 *   the last ones       producers: Kahn's algorithm level by level (one
 *                       barrier of their own per level), each level's tasks
 *                       appended to s->order as its frontier; or one thread
 *                       that runs a source of levels computed elsewhere
 *                       (the OpenCL device: pets_stream_feed).
 * Half of the threads after the first three finalize (a level's
 * finalization costs several times its metrics: random reads of keys,
 * positions and lists), the rest produce; beside a source, four finalize
 * and the stream leaves the other threads it was given idle.
 * The schedule is the one of the phased path, bit for bit: the same order
 * (a total order) and the same booking code. */
#include <stdlib.h>
#include <string.h>

#include "pc_alloc.h"
#include "pc_omp.h"
#include "pc_spin.h"
#include "pc_time.h"
#include "pets_select_pipe.h"
#include "pets_stream.h"

/* Ready tasks a producer collects before it reserves their slots. */
#define STREAM_APPEND 256
/* The selection's workers; the finalizers follow them (thread 3 on). */
#define STREAM_WORKERS 2
#define STREAM_FIRST_FINALIZER (1 + STREAM_WORKERS)
/* Finalizers at most beside a source: the device's levels come faster
 * than the booking takes them, and four keep ahead of it; more would only
 * wait, on cores the OpenCL runtime's own threads need. */
#define STREAM_SOURCE_FINALIZERS 4

/* A counter on a cache line of its own. */
typedef struct stream_line {
    int32_t v;
    char pad[60];
} stream_line;

/* What the threads of a stream share. Every counter only grows, except
 * the barrier's count and degsum, which the last producer to arrive at a
 * barrier resets before it releases the others, and prealloc_left, which
 * counts down. */
typedef struct pets_stream {
    const pets_dag *dag;
    pets_solution *s;
    select_state *st;
    select_pipe *pp;
    int32_t n;
    int32_t *left;        /* predecessors not processed yet */
    int64_t *sumcost;     /* ACC times P, the sort's second key */
    int32_t *loff;        /* level L is s->order[loff[L] .. loff[L + 1]) (n + 2) */
    int32_t *eoff;        /* its predecessor lists start at eoff[L] (n + 2) */
    int nprod;            /* producer threads (1 with a source) */
    int nfin;             /* finalizer threads */
    const pets_stream_source *src; /* NULL: the producers compute levels */
    int32_t nlev;         /* levels, once prod_end is set */
    stream_line tail;     /* next free slot of s->order */
    stream_line degsum;   /* in-degrees of the round's level */
    stream_line bar_count;
    stream_line bar_gen;
    stream_line levels;   /* levels whose metrics are complete */
    stream_line prod_end; /* the producers are done: nlev is final */
    stream_line fin_claim; /* the next level to finalize */
    stream_line pos_done; /* levels whose positions are written, in order */
    stream_line avail_lev; /* levels published to the selection, in order */
    stream_line avail;    /* positions published (pp->avail) */
    stream_line prealloc_left; /* gap pools still being preallocated */
    stream_line failed;   /* the first failure owns rc and err */
    int rc;
    pc_error err;
    double t_prod, t_fin; /* when the last level was computed, published */
} pets_stream;

int g_pets_stream_runs = 0;

/* Records the first failure (code, message) and stops every thread. */
static void stream_fail(pets_stream *ps, int code, const char *msg)
{
    if (!__atomic_exchange_n(&ps->failed.v, 1, __ATOMIC_ACQ_REL)) {
        ps->rc = code;
        if (code == PC_ENOMEM)
            pc_error_nomem(&ps->err, msg);
        else
            pc_error_set(&ps->err, code, NULL, 0, "%s", msg);
    }
    __atomic_store_n(&ps->pp->stop, 1, __ATOMIC_RELEASE);
}

/* Waits until *line >= want; 1 when the stream stopped instead. */
static int stream_wait(pets_stream *ps, const stream_line *line, int32_t want)
{
    return pc_spin_until_at_least(&line->v, want, &ps->pp->stop);
}

/* The end of level L's round, run by the last producer to arrive: the
 * next frontier is what was appended, the edge offsets advance, and an
 * empty frontier ends the levels (short of n tasks: a cycle). */
static void stream_round_end(pets_stream *ps, int32_t L)
{
    int32_t end = __atomic_load_n(&ps->tail.v, __ATOMIC_RELAXED);
    ps->loff[L + 2] = end;
    ps->eoff[L + 1] = ps->eoff[L] + __atomic_load_n(&ps->degsum.v, __ATOMIC_RELAXED);
    __atomic_store_n(&ps->degsum.v, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&ps->levels.v, L + 1, __ATOMIC_RELEASE);
    if (end == ps->loff[L + 1]) {
        ps->nlev = L + 1;
        ps->t_prod = pc_time_now();
        if (end < ps->n)
            stream_fail(ps, PC_EINVAL, "task graph has a cycle");
        __atomic_store_n(&ps->prod_end.v, 1, __ATOMIC_RELEASE);
    }
}

/* The producers' barrier after level L (the last to arrive ends the
 * round); 1 when the stream stopped. */
static int stream_barrier(pets_stream *ps, int32_t L)
{
    int32_t g = __atomic_load_n(&ps->bar_gen.v, __ATOMIC_ACQUIRE);
    if (__atomic_fetch_add(&ps->bar_count.v, 1, __ATOMIC_ACQ_REL) == ps->nprod - 1) {
        stream_round_end(ps, L);
        __atomic_store_n(&ps->bar_count.v, 0, __ATOMIC_RELAXED);
        __atomic_store_n(&ps->bar_gen.v, g + 1, __ATOMIC_RELEASE);
        return 0;
    }
    for (int spins = 0; __atomic_load_n(&ps->bar_gen.v, __ATOMIC_ACQUIRE) == g;) {
        if (__atomic_load_n(&ps->pp->stop, __ATOMIC_RELAXED))
            return 1;
        pc_spin_pause(&spins);
    }
    return 0;
}

/* Appends buf[0..nb) to s->order (the next frontier). */
static void stream_append(pets_stream *ps, const int32_t *buf, int nb)
{
    int32_t at = __atomic_fetch_add(&ps->tail.v, nb, __ATOMIC_RELAXED);
    memcpy(ps->s->order + at, buf, (size_t)nb * sizeof *buf);
}

/* Producer `me` of ps->nprod: level by level, its share of the frontier:
 * level, rank and ACC of each task (its predecessors are all in earlier
 * levels), then its successors counted down; the ones that reach zero are
 * the next level's. */
static void stream_produce(pets_stream *ps, int me)
{
    const pets_dag *dag = ps->dag;
    pets_solution *s = ps->s;
    int32_t P = dag->nprocs, buf[STREAM_APPEND];
    for (int32_t L = 0;; L++) {
        int32_t a = ps->loff[L], b = ps->loff[L + 1];
        if (a == b)
            return;
        int32_t k0 = a + (int32_t)((int64_t)(b - a) * me / ps->nprod);
        int32_t k1 = a + (int32_t)((int64_t)(b - a) * (me + 1) / ps->nprod);
        int32_t deg = 0;
        int nb = 0;
        for (int32_t k = k0; k < k1; k++) {
            int32_t v = s->order[k];
            int64_t rpt = 0, acc = 0, dtc = 0;
            for (int32_t e = dag->pred_off[v]; e < dag->pred_off[v + 1]; e++) {
                int64_t r = s->rank_scaled[dag->pred[e]];
                rpt = r > rpt ? r : rpt;
            }
            deg += dag->pred_off[v + 1] - dag->pred_off[v];
            for (int32_t p = 0; p < P; p++)
                acc += dag->cost[(int64_t)v * P + p];
            for (int32_t e = dag->succ_off[v]; e < dag->succ_off[v + 1]; e++) {
                dtc += dag->succ_comm[e];
                int32_t w = dag->succ[e];
                if (__atomic_sub_fetch(&ps->left[w], 1, __ATOMIC_RELAXED) == 0) {
                    buf[nb++] = w;
                    if (nb == STREAM_APPEND) {
                        stream_append(ps, buf, nb);
                        nb = 0;
                    }
                }
            }
            ps->sumcost[v] = acc;
            s->level[v] = L;
            s->rank_scaled[v] = acc + (int64_t)P * dtc + rpt;
            s->rank[v] = pets_round_rank(s->rank_scaled[v], P);
        }
        if (nb)
            stream_append(ps, buf, nb);
        __atomic_fetch_add(&ps->degsum.v, deg, __ATOMIC_RELAXED);
        if (stream_barrier(ps, L))
            return;
    }
}

/* A task's sort keys within its level. */
typedef struct stream_key {
    int64_t rank;
    int64_t acc;
    int32_t v;
} stream_key;

/* x before y in priority order (same level): rank descending, ACC
 * ascending, task ascending, as pets_prio_cmp. */
static inline int stream_key_before(const stream_key *x, const stream_key *y)
{
    if (x->rank != y->rank)
        return x->rank > y->rank;
    if (x->acc != y->acc)
        return x->acc < y->acc;
    return x->v < y->v;
}

/* Sorts k[0..m) (tmp: m more keys): insertion sort of runs of 16, then
 * merges bottom up. O(m log m) on any input, no recursion. Returns the
 * buffer that holds the result (k or tmp). */
static stream_key *stream_sort_keys(stream_key *k, stream_key *tmp, int32_t m)
{
    for (int32_t r = 0; r < m; r += 16) {
        int32_t e = r + 16 < m ? r + 16 : m;
        for (int32_t i = r + 1; i < e; i++) {
            stream_key x = k[i];
            int32_t j = i;
            for (; j > r && stream_key_before(&x, &k[j - 1]); j--)
                k[j] = k[j - 1];
            k[j] = x;
        }
    }
    for (int32_t w = 16; w < m; w *= 2) {
        for (int32_t lo = 0; lo < m; lo += 2 * w) {
            int32_t mid = lo + w < m ? lo + w : m, hi = lo + 2 * w < m ? lo + 2 * w : m;
            int32_t i = lo, j = mid, o = lo;
            while (i < mid && j < hi)
                tmp[o++] = stream_key_before(&k[j], &k[i]) ? k[j++] : k[i++];
            while (i < mid)
                tmp[o++] = k[i++];
            while (j < hi)
                tmp[o++] = k[j++];
        }
        stream_key *t = k;
        k = tmp;
        tmp = t;
    }
    return k;
}

/* A finalizer's key buffers (2 x cap keys), grown to the widest level it
 * meets. */
typedef struct stream_keys {
    stream_key *buf;
    int32_t cap;
} stream_keys;

/* Level L into the selection: its segment of s->order sorted, the
 * positions of its tasks, then (once every earlier level has its
 * positions) its predecessor lists by position, and the publication, in
 * level order. 1 when the stream stopped. */
static int stream_finalize_level(pets_stream *ps, int32_t L, stream_keys *kb)
{
    const pets_dag *dag = ps->dag;
    select_state *st = ps->st;
    int32_t *order = ps->s->order;
    int32_t a = ps->loff[L], b = ps->loff[L + 1], m = b - a;
    if (m > kb->cap) {
        pc_free(kb->buf);
        kb->cap = m > 2 * kb->cap ? m : 2 * kb->cap;
        kb->buf = pc_malloc_array((size_t)kb->cap * 2, sizeof *kb->buf);
        if (!kb->buf) {
            kb->cap = 0;
            stream_fail(ps, PC_ENOMEM, "streaming the PETS phases");
            return 1;
        }
    }
    stream_key *k = kb->buf;
    if (ps->src)
        for (int32_t i = 0; i < m; i++)
            k[i] = (stream_key){ps->src->krank[a + i], ps->src->ksum[a + i], order[a + i]};
    else
        for (int32_t i = 0; i < m; i++) {
            int32_t v = order[a + i];
            k[i] = (stream_key){ps->s->rank[v], ps->sumcost[v], v};
        }
    k = stream_sort_keys(k, k == kb->buf ? kb->buf + kb->cap : kb->buf, m);
    for (int32_t i = 0; i < m; i++) {
        order[a + i] = k[i].v;
        st->pos[k[i].v] = a + i;
    }
    if (stream_wait(ps, &ps->pos_done, L))
        return 1;
    __atomic_store_n(&ps->pos_done.v, L + 1, __ATOMIC_RELEASE);
    /* poff[a] is the previous level's to write (0 for the first) */
    int32_t j = ps->eoff[L];
    for (int32_t q = a; q < b; q++) {
        int32_t v = order[q], need = -1;
        for (int32_t e = dag->pred_off[v]; e < dag->pred_off[v + 1]; e++, j++) {
            int32_t x = st->pos[dag->pred[e]];
            st->ppos[j] = x;
            st->pcomm[j] = dag->pred_comm[e];
            need = x > need ? x : need;
        }
        st->poff[q + 1] = j;
        st->need[q] = need;
        /* the booking thread's first touch of its placements, done here */
        st->proc[q] = 0;
        st->start[q] = st->fin[q] = 0;
    }
    if (stream_wait(ps, &ps->avail_lev, L))
        return 1;
    __atomic_store_n(&ps->avail.v, b, __ATOMIC_RELEASE);
    __atomic_store_n(&ps->avail_lev.v, L + 1, __ATOMIC_RELEASE);
    if (b == ps->n)
        ps->t_fin = pc_time_now();
    return 0;
}

/* A finalizer: claims levels in order until none is left or the stream
 * stopped. */
static void stream_finalize(pets_stream *ps)
{
    stream_keys kb = {NULL, 0};
    for (;;) {
        int32_t L = __atomic_fetch_add(&ps->fin_claim.v, 1, __ATOMIC_RELAXED);
        int go = 0;
        for (int spins = 0; !go;) {
            if (__atomic_load_n(&ps->levels.v, __ATOMIC_ACQUIRE) > L)
                go = 1;
            else if (__atomic_load_n(&ps->prod_end.v, __ATOMIC_ACQUIRE) && L >= ps->nlev)
                goto out;
            else if (__atomic_load_n(&ps->pp->stop, __ATOMIC_RELAXED))
                goto out;
            else
                pc_spin_pause(&spins);
        }
        if (stream_finalize_level(ps, L, &kb))
            break;
    }
out:
    pc_free(kb.buf);
}

/* Preallocates the gap pools p = first, first + step, ... (insertion
 * policy), then counts itself out of prealloc_left. */
static void stream_prealloc(pets_stream *ps, int first, int step)
{
    select_state *st = ps->st;
    if (st->insertion) {
        int32_t nblocks = pets_select_prealloc_blocks(st, ps->n);
        for (int p = first; p < st->P; p += step)
            if (pets_gaps_prealloc(&st->gaps[p], nblocks)) {
                stream_fail(ps, PC_ENOMEM, "selecting processors");
                break;
            }
    }
    __atomic_fetch_sub(&ps->prealloc_left.v, 1, __ATOMIC_ACQ_REL);
}

int32_t g_pets_stream_min_tasks = PETS_STREAM_MIN_TASKS;

int pets_stream_wanted(const pets_dag *dag, const pets_options *o, int threads)
{
#ifndef _OPENMP
    (void)dag;
    (void)o;
    (void)threads;
    return 0; /* one thread: no roles */
#endif
    const char *env = getenv("PARCHECK_PETS_STREAM");
    return o->select == PETS_SELECT_GAPS && threads >= PETS_STREAM_MIN_THREADS &&
           dag->ntasks >= g_pets_stream_min_tasks && dag->ntasks > 0 &&
           !(env && strcmp(env, "0") == 0);
}

int pets_stream_feed(pets_stream *ps, const int32_t *sizes, int32_t nlev, const int32_t *deg)
{
    int32_t L = __atomic_load_n(&ps->levels.v, __ATOMIC_RELAXED), base = ps->loff[L];
    for (int32_t i = 0; i < nlev; i++, L++) {
        int32_t a = ps->loff[L], b = a + sizes[i], sum = 0;
        for (int32_t q = a; q < b; q++)
            sum += deg[q - base];
        ps->loff[L + 1] = b;
        ps->eoff[L + 1] = ps->eoff[L] + sum;
    }
    __atomic_store_n(&ps->levels.v, L, __ATOMIC_RELEASE);
    return __atomic_load_n(&ps->pp->stop, __ATOMIC_RELAXED) != 0;
}

/* The source's thread: runs it, then ends the levels (short of n tasks:
 * the source's graph had a cycle). */
static void stream_source(pets_stream *ps)
{
    pc_error e;
    pc_error_clear(&e);
    int rc = ps->src->run(ps->src->ctx, ps, &e);
    int32_t L = __atomic_load_n(&ps->levels.v, __ATOMIC_RELAXED);
    ps->nlev = L;
    ps->t_prod = pc_time_now();
    if (rc) {
        if (!__atomic_exchange_n(&ps->failed.v, 1, __ATOMIC_ACQ_REL)) {
            ps->rc = rc;
            ps->err = e;
        }
        __atomic_store_n(&ps->pp->stop, 1, __ATOMIC_RELEASE);
    } else if (ps->loff[L] < ps->n)
        stream_fail(ps, PC_EINVAL, "task graph has a cycle");
    __atomic_store_n(&ps->prod_end.v, 1, __ATOMIC_RELEASE);
}

/* The roles of thread me (see the top of this file). */
static void stream_role(pets_stream *ps, int me, int32_t n, pc_error *book_err, int *book_rc)
{
    select_state *st = ps->st;
    select_pipe *pp = ps->pp;
    int first_prod = STREAM_FIRST_FINALIZER + ps->nfin;
    if (me >= first_prod) {
        if (ps->src)
            stream_source(ps);
        else
            stream_produce(ps, me - first_prod);
        return;
    }
    stream_prealloc(ps, me, first_prod);
    if (me == 0) {
        for (int spins = 0; __atomic_load_n(&ps->prealloc_left.v, __ATOMIC_ACQUIRE) > 0;)
            pc_spin_pause(&spins);
        if (!__atomic_load_n(&pp->stop, __ATOMIC_ACQUIRE)) {
            *book_rc = pets_select_book(ps->dag, st, pp, n, book_err);
            if (*book_rc < 0)
                __atomic_store_n(&pp->stop, 1, __ATOMIC_RELEASE);
        }
    } else if (me < STREAM_FIRST_FINALIZER) {
        pets_select_work(ps->dag, st, pp, n);
    } else {
        stream_finalize(ps);
    }
}

int pets_stream_run(const pets_dag *dag, const pets_options *o, int threads,
                    const pets_stream_source *src, pets_solution *s, pets_times *t, pc_error *err)
{
    int32_t n = dag->ntasks;
    memset(t, 0, sizeof *t);
    if (threads < PETS_STREAM_MIN_THREADS)
        return pc_error_set(err, PC_EINVAL, NULL, 0, "a stream needs %d threads, not %d",
                            PETS_STREAM_MIN_THREADS, threads);
    select_state st;
    select_pipe pp;
    pets_stream *ps = pc_calloc(1, sizeof *ps);
    int rc = pets_select_alloc(dag, o, s->order, &st, &pp);
    if (rc || !ps) {
        pc_free(ps);
        if (!rc)
            pets_select_free(&st, &pp);
        return pc_error_nomem(err, "streaming the PETS phases");
    }
    ps->dag = dag;
    ps->s = s;
    ps->st = &st;
    ps->pp = &pp;
    ps->n = n;
    ps->src = src;
    int rest = threads - STREAM_FIRST_FINALIZER;
    ps->nprod = src ? 1 : rest - rest / 2;
    ps->nfin = rest - ps->nprod;
    if (src && ps->nfin > STREAM_SOURCE_FINALIZERS)
        ps->nfin = STREAM_SOURCE_FINALIZERS;
    int team = STREAM_FIRST_FINALIZER + ps->nfin + ps->nprod;
    if (!src) {
        ps->left = pc_malloc_array((size_t)n, sizeof *ps->left);
        ps->sumcost = pc_malloc_array((size_t)n, sizeof *ps->sumcost);
    }
    ps->loff = pc_malloc_array((size_t)n + 2, sizeof *ps->loff);
    ps->eoff = pc_malloc_array((size_t)n + 2, sizeof *ps->eoff);
    if ((!src && (!ps->left || !ps->sumcost)) || !ps->loff || !ps->eoff) {
        rc = pc_error_nomem(err, "streaming the PETS phases");
        goto out;
    }
    double t0 = pc_time_now();
    ps->loff[0] = 0;
    ps->eoff[0] = 0;
    if (!src) {
#pragma omp parallel for num_threads(threads) schedule(static)
        for (int32_t v = 0; v < n; v++)
            ps->left[v] = dag->pred_off[v + 1] - dag->pred_off[v];
        int32_t nsrc = 0;
        for (int32_t v = 0; v < n; v++)
            if (!ps->left[v])
                s->order[nsrc++] = v;
        if (!nsrc) {
            rc = pc_error_set(err, PC_EINVAL, NULL, 0, "task graph has a cycle");
            goto out;
        }
        ps->loff[1] = nsrc;
        ps->tail.v = nsrc;
    }
    st.poff[0] = 0;
    pp.avail = &ps->avail.v;
    ps->prealloc_left.v = STREAM_FIRST_FINALIZER + ps->nfin;
    int book_rc = PC_OK;
    pc_error book_err;
    pc_error_clear(&book_err);
    double t1 = pc_time_now();
    ps->t_prod = ps->t_fin = t1;
#pragma omp parallel num_threads(team)
    {
        if (omp_get_num_threads() < team) {
            /* fewer threads than roles would wait on each other forever:
             * the caller runs the phases instead */
#pragma omp single
            stream_fail(ps, PC_EUNAVAIL, "OpenMP gave the stream fewer threads than it needs");
        } else {
            stream_role(ps, omp_get_thread_num(), n, &book_err, &book_rc);
        }
    }
    if (ps->rc != PC_EUNAVAIL)
        __atomic_fetch_add(&g_pets_stream_runs, 1, __ATOMIC_RELAXED);
    if (ps->rc) {
        rc = ps->rc;
        if (err)
            *err = ps->err;
        goto out;
    }
    if (book_rc) {
        rc = book_rc;
        if (err)
            *err = book_err;
        goto out;
    }
    pets_select_scatter(&st, n, s, threads);
    s->makespan = st.makespan;
    double t3 = pc_time_now();
    /* the phases overlap: each is reported as the time from the end of
     * the one before to its own end (their sum is the total) */
    t->entry = t1 - t0;
    t->metrics = ps->t_prod - t1;
    t->sort = ps->t_fin > ps->t_prod ? ps->t_fin - ps->t_prod : 0;
    t->select = t3 - t1 - t->metrics - t->sort;
    t->total = t3 - t0;
    t->overlapped = 1;
out:
    pc_free(ps->left);
    pc_free(ps->sumcost);
    pc_free(ps->loff);
    pc_free(ps->eoff);
    pc_free(ps);
    pets_select_free(&st, &pp);
    return rc;
}
