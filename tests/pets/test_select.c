/* test_select.c - processor selection: the idle-gap index against a
 * brute-force earliest fit on random bookings; `omp` at 1, 2, 4 threads
 * (phases) and 7 (a stream, from 4096 tasks) and `--select linear` equal
 * to the oracle on irregular graphs (one long chain, one wide level past
 * the selection batch, many ties and zero costs). */
#include <stdlib.h>

#include "pc_alloc.h"
#include "pc_rng.h"
#include "pets_gaps.h"
#include "pc_omp.h"
#include "pets_priv.h"
#include "pets_stream.h"
#include "pets_tutil.h"

typedef struct ref_slot {
    int64_t s, f;
} ref_slot;

/* The earliest t >= r such that no slot has f > t and s < t + w, by trying
 * r and every finish after it (the least such t is one of them). */
static int64_t ref_fit(const ref_slot *v, int n, int64_t r, int64_t w)
{
    int64_t best = INT64_MAX;
    for (int c = -1; c < n; c++) {
        int64_t t = c < 0 ? r : v[c].f;
        if (t < r || t >= best)
            continue;
        int ok = 1;
        for (int j = 0; j < n && ok; j++)
            ok = v[j].f <= t || v[j].s >= t + w;
        if (ok)
            best = t;
    }
    return best;
}

/* The fast path's stack (pets_gaps.h): ends rising, length bounds
 * falling, the top entry is the gap before the last slot, and every gap is
 * bounded by an entry that ends no earlier (so the first entry ending
 * after any ready time inside or before the gap bounds it). */
static void gaps_check_stack(const pets_gaps *g, const ref_slot *v, int n)
{
    ref_slot *t = malloc((size_t)(n ? n : 1) * sizeof *t);
    ck_assert_ptr_nonnull(t);
    memcpy(t, v, (size_t)n * sizeof *t);
    for (int i = 1; i < n; i++) /* by start, then finish: the slots in time order */
        for (int j = i; j > 0 && (t[j].s < t[j - 1].s ||
                                  (t[j].s == t[j - 1].s && t[j].f < t[j - 1].f)); j--) {
            ref_slot x = t[j];
            t[j] = t[j - 1];
            t[j - 1] = x;
        }
    for (int32_t j = 1; j < g->nsk; j++) {
        ck_assert_int_ge(g->sk_end[j], g->sk_end[j - 1]);
        ck_assert_int_lt(g->sk_len[j], g->sk_len[j - 1]);
    }
    if (n) {
        ck_assert_int_eq(g->last, t[n - 1].f);
        ck_assert_int_ge(g->nsk, 1);
        ck_assert_int_eq(g->sk_end[g->nsk - 1], t[n - 1].s);
    }
    int64_t prev_f = 0;
    for (int i = 0; i < n; i++) {
        int64_t end = t[i].s, len = t[i].s - prev_f;
        int ok = 0;
        for (int32_t j = 0; j < g->nsk && !ok; j++)
            ok = g->sk_end[j] >= end && g->sk_len[j] >= len;
        ck_assert_msg(ok, "gap [%lld, %lld) has no stack entry bounding it", (long long)prev_f,
                      (long long)end);
        prev_f = t[i].f;
    }
    free(t);
}

/* Books random tasks (zero lengths included, ready times over the last
 * `window` time units of the busy range, or all of it for window 0, so
 * that blocks split in the middle) and compares every fit with a plain
 * scan; the stack is checked every 97 bookings. */
static void gaps_random_run_window(uint64_t seed, int nops, int64_t maxw, int64_t window)
{
    pc_rng r;
    pc_rng_seed(&r, seed);
    pets_gaps g;
    pets_gaps_init(&g);
    ref_slot *v = malloc((size_t)nops * sizeof *v);
    ck_assert_ptr_nonnull(v);
    int64_t horizon = 1;
    for (int i = 0; i < nops; i++) {
        int64_t w = pc_rng_below(&r, 8) == 0 ? 0 : (int64_t)pc_rng_range(&r, 1, (uint64_t)maxw);
        int64_t lo = window && horizon > window ? horizon - window : 0;
        int64_t ready = lo + (int64_t)pc_rng_below(&r, (uint64_t)(horizon - lo) + 1);
        pets_gap_pos pos;
        int64_t t = pets_gaps_fit(&g, ready, w, &pos);
        int64_t want = ref_fit(v, i, ready, w);
        ck_assert_msg(t == want, "seed %llu op %d: ready %lld w %lld: fit %lld, brute force %lld",
                      (unsigned long long)seed, i, (long long)ready, (long long)w, (long long)t,
                      (long long)want);
        ck_assert_int_eq(pets_gaps_book(&g, pos, t, t + w), 0);
        v[i] = (ref_slot){t, t + w};
        if (t + w + maxw > horizon)
            horizon = t + w + maxw;
        if (i % 97 == 0)
            gaps_check_stack(&g, v, i + 1);
    }
    gaps_check_stack(&g, v, nops);
    ck_assert_int_eq(g.nslots, nops);
    /* the slots in block order are sorted and their gaps are consistent */
    int64_t prev_s = -1, prev_f = 0;
    for (int32_t d = 0; d < g.ndir; d++) {
        const pets_gap_block *b = &g.pool[g.dir[d]];
        for (int32_t j = 0; j < b->n; j++) {
            ck_assert_int_ge(b->s[j], prev_s);
            ck_assert_int_ge(b->s[j], prev_f);
            ck_assert_int_eq(b->gap[j], b->s[j] - prev_f);
            prev_s = b->s[j];
            prev_f = b->f[j];
        }
        ck_assert_int_eq(g.dir_last[d], prev_f);
    }
    free(v);
    pets_gaps_free(&g);
}

static void gaps_random_run(uint64_t seed, int nops, int64_t maxw)
{
    gaps_random_run_window(seed, nops, maxw, 0);
}

START_TEST(gap_index_equals_brute_force)
{
    gaps_random_run(1, 2000, 50);
    gaps_random_run(2, 2000, 3);
    gaps_random_run(3, 1500, 400);
}
END_TEST

START_TEST(gap_index_tail_equals_brute_force)
{
    /* ready times near the end, as in a level-by-level schedule: mostly
     * the stack's O(1) answer, with its bounds left stale by bookings
     * inside earlier gaps */
    gaps_random_run_window(4, 3000, 50, 120);
    gaps_random_run_window(5, 3000, 8, 30);
    gaps_random_run_window(6, 2000, 200, 2000);
    gaps_random_run_window(7, 2000, 1, 5);
}
END_TEST

START_TEST(gap_index_alloc_failures)
{
    /* every allocation failure leaves the index as it was; the loop ends
     * at the first run in which no allocation was made to fail */
    int clean = 0;
    for (long fail = 1; fail < 400 && !clean; fail++) {
        pets_gaps g;
        pets_gaps_init(&g);
        int failed = 0;
        for (int i = 0; i < 200; i++) {
            pets_gap_pos pos;
            int64_t t = pets_gaps_fit(&g, (i * 37) % 500, 3, &pos);
            int64_t before = g.nslots;
            pc_alloc_fail_at(fail);
            int rc = pets_gaps_book(&g, pos, t, t + 3);
            pc_alloc_fail_at(0);
            if (rc) {
                ck_assert_int_eq(rc, PC_ENOMEM);
                ck_assert_int_eq(g.nslots, before);
                failed = 1;
                break;
            }
        }
        pets_gaps_free(&g);
        ck_assert_int_eq(pc_alloc_live(), 0);
        clean = !failed;
    }
    ck_assert_msg(clean, "every one of 400 allocations failed a booking");
    /* a pool already as large as asked needs nothing (the stream asks each
     * processor's index once; asking again must not be taken for a failure) */
    pets_gaps g;
    pets_gaps_init(&g);
    ck_assert_int_eq(pets_gaps_prealloc(&g, 8), 0);
    ck_assert_int_eq(pets_gaps_prealloc(&g, 8), 0);
    ck_assert_int_eq(pets_gaps_prealloc(&g, 3), 0);
    ck_assert_int_ge(g.cappool, 8);
    pets_gaps_free(&g);
    ck_assert_int_eq(pc_alloc_live(), 0);
    /* a stream refuses fewer threads than its roles need, by name */
    const char *one = "tasks 1 processors 1\ncost 1 1\n";
    pets_dag d;
    pc_error err;
    ck_assert_int_eq(pets_dag_parse(one, strlen(one), "one.dag", &d, &err), 0);
    pets_solution sol;
    ck_assert_int_eq(pets_solution_alloc(&sol, 1, &err), 0);
    pets_options o = {PETS_INSERTION, -1, -1, 2, PETS_SELECT_GAPS};
    pets_times t;
    ck_assert_int_eq(pets_stream_run(&d, &o, PETS_STREAM_MIN_THREADS - 1, NULL, &sol, &t, &err), PC_EINVAL);
    char want[64];
    snprintf(want, sizeof want, "a stream needs %d threads, not %d", PETS_STREAM_MIN_THREADS,
             PETS_STREAM_MIN_THREADS - 1);
    ck_assert_str_eq(err.msg, want);
    pets_solution_free(&sol);
    pets_dag_free(&d);
}
END_TEST

static void build(pets_dag *d, int32_t n, int32_t P, const int64_t *cost, pets_edge *e,
                  int64_t m);

/* pets_select_run on an order that is wrong, at 1 and 4 threads and with
 * the linear selection: refused with PC_EVERIFY and the message naming the
 * first culprit. */
static void check_refused(const pets_dag *d, const int32_t *order, const int32_t *level,
                          const char *want)
{
    for (int run = 0; run < 3; run++) {
        int th = run == 1 ? 4 : 1;
        pets_solution s;
        pc_error err;
        pc_error_clear(&err);
        ck_assert_int_eq(pets_solution_alloc(&s, d->ntasks, &err), 0);
        memcpy(s.order, order, (size_t)d->ntasks * sizeof *order);
        memcpy(s.level, level, (size_t)d->ntasks * sizeof *level);
        pets_options o = {PETS_INSERTION, -1, -1, th, run == 2 ? PETS_SELECT_LINEAR : PETS_SELECT_GAPS};
        ck_assert_int_eq(pets_select_run(d, &o, th, &s, &err), PC_EVERIFY);
        ck_assert_msg(!strcmp(err.msg, want), "%d threads%s: \"%s\", not \"%s\"", th,
                      run == 2 ? " (linear)" : "", err.msg, want);
        pets_solution_free(&s);
    }
}

START_TEST(select_refuses_bad_orders)
{
    /* 0 -> 1 -> 2, 4500 -> 4501, the rest alone: 5004 tasks make the
     * parallel passes run */
    int32_t n = 5004, P = 2;
    int64_t *cost = malloc((size_t)n * P * sizeof *cost);
    int32_t *order = malloc((size_t)n * sizeof *order), *level = calloc((size_t)n, sizeof *level);
    ck_assert(cost && order && level);
    for (int64_t i = 0; i < (int64_t)n * P; i++)
        cost[i] = 1 + i % 3;
    pets_edge e[3] = {{0, 1, 2, 0}, {1, 2, 2, 0}, {4500, 4501, 1, 0}};
    pets_dag d;
    build(&d, n, P, cost, e, 3);
    level[1] = 1;
    level[2] = 2;
    level[4501] = 1;
    for (int32_t k = 0; k < n; k++)
        order[k] = k;
    /* a repeated task: the second occurrence is named */
    order[4000] = 7;
    check_refused(&d, order, level, "priority order: position 4000 holds 8, not a new task");
    order[4000] = 4000;
    /* an unknown task */
    order[10] = n;
    check_refused(&d, order, level, "priority order: position 10 holds 5005, not a new task");
    order[10] = 10;
    /* a task before its predecessor, at the start and deep in the run (the
     * worker threads have chunks in flight and must stop) */
    order[1] = 2;
    order[2] = 1;
    check_refused(&d, order, level, "priority order: task 3 comes before its predecessor 2");
    order[1] = 1;
    order[2] = 2;
    order[4500] = 4501;
    order[4501] = 4500;
    check_refused(&d, order, level, "priority order: task 4502 comes before its predecessor 4501");
    order[4500] = 4500;
    order[4501] = 4501;
    /* levels play no part in the selection: wrong ones change nothing */
    level[1] = level[2] = level[4501] = 0;
    order[1] = 2;
    order[2] = 1;
    check_refused(&d, order, level, "priority order: task 3 comes before its predecessor 2");
    /* the oracle's order with every level 0 (the chain's tasks read their
     * own chunk: placed by the booking thread, late): the oracle's
     * schedule */
    pets_solution s, ref;
    pc_error err;
    tu_oracle(&d, PETS_INSERTION, &ref);
    ck_assert_int_eq(pets_solution_alloc(&s, n, &err), 0);
    memcpy(s.order, ref.order, (size_t)n * sizeof *s.order);
    memcpy(s.level, level, (size_t)n * sizeof *level);
    pets_options o = {PETS_INSERTION, -1, -1, 4, PETS_SELECT_GAPS};
    ck_assert_int_eq(pets_select_run(&d, &o, 4, &s, &err), 0);
    for (int32_t v = 0; v < n; v++) {
        ck_assert_int_eq(s.proc[v], ref.proc[v]);
        ck_assert_int_eq(s.start[v], ref.start[v]);
        ck_assert_int_eq(s.finish[v], ref.finish[v]);
    }
    pets_solution_free(&s);
    pets_solution_free(&ref);
    pets_dag_free(&d);
    free(cost);
    free(order);
    free(level);
}
END_TEST

/* A generated graph of the given shape (the generator's defaults else),
 * failing the test on error. */
static void gen_graph(pets_dag *d, int32_t tasks, int32_t procs, double alpha, uint64_t seed)
{
    pets_gen_params gp;
    pets_gen_defaults(&gp);
    gp.tasks = tasks;
    gp.procs = procs;
    gp.alpha = alpha;
    gp.seed = seed;
    pc_error err;
    ck_assert_msg(pets_gen_dag(&gp, d, &err) == 0, "%s", err.msg);
}

/* Every allocation of a run fails once in turn: PC_ENOMEM ("out of
 * memory") and nothing left allocated, until a run makes no allocation
 * fail and gives the oracle's makespan. 5000 tasks on 3 processors (seed
 * seed). stream: omp at 7 threads (its stream, the finalizers' key
 * buffers inside the parallel region too); else pets_select_run at 2
 * threads on the oracle's order (gap pools preallocated, the pipeline on
 * both threads). */
static void check_alloc_failures(int stream, uint64_t seed)
{
    pets_gen_params gp;
    pets_gen_defaults(&gp);
    pets_dag d;
    pc_error err;
    gen_graph(&d, 5000, 3, gp.alpha, seed);
    pets_solution ref;
    tu_oracle(&d, PETS_INSERTION, &ref);
    int clean = 0;
    for (long fail = 1; fail < 2000 && !clean; fail++) {
        pets_solution s;
        ck_assert_int_eq(pets_solution_alloc(&s, d.ntasks, &err), 0);
        memcpy(s.order, ref.order, (size_t)d.ntasks * sizeof *s.order);
        memcpy(s.level, ref.level, (size_t)d.ntasks * sizeof *s.level);
        long live = pc_alloc_live();
        pets_options o = {PETS_INSERTION, -1, -1, stream ? 7 : 2, PETS_SELECT_GAPS};
        pets_times t;
        pc_error_clear(&err);
        pc_alloc_fail_at(fail);
        int rc = stream ? pets_impl_find("omp")->run(&d, &o, &s, &t, &err)
                        : pets_select_run(&d, &o, 2, &s, &err);
        int failed = pc_alloc_injected();
        pc_alloc_fail_at(0);
        ck_assert_int_eq(pc_alloc_live(), live);
        if (failed) {
            ck_assert_msg(rc == PC_ENOMEM, "allocation %ld: rc %d: %s", fail, rc, err.msg);
            pc_test_assert_nomem_named(err.msg);
        } else {
            ck_assert_msg(rc == 0, "%s", err.msg);
            ck_assert_int_eq(s.makespan, ref.makespan);
            clean = 1;
        }
        pets_solution_free(&s);
    }
    ck_assert(clean);
    pets_solution_free(&ref);
    pets_dag_free(&d);
}

START_TEST(select_alloc_failures)
{
    check_alloc_failures(0, 1);
}
END_TEST

/* Runs serial and omp (1, 2, 4 threads, and 7: a stream from 4096 tasks
 * with the gap index) with both slot searches against the oracle under
 * both policies. */
static void check_select_variants(const pets_dag *d, const char *what)
{
    static const int threads[] = {1, 2, 4, 7};
    const pets_impl *serial = pets_impl_find("serial"), *omp = pets_impl_find("omp");
    ck_assert_ptr_nonnull(omp);
    for (int policy = 0; policy < 2; policy++) {
        pets_solution ref;
        tu_oracle(d, policy, &ref);
        for (int sel = 0; sel < 2; sel++) {
            pets_options o = {policy, -1, -1, 1, sel};
            char w[200];
            snprintf(w, sizeof w, "%s, policy %d, select %s", what, policy, sel ? "linear" : "gaps");
            ck_assert_int_eq(tu_check_impl_opts(serial, d, &o, &ref, w), 1);
            for (int i = 0; i < 4; i++) {
#ifndef _OPENMP
                if (threads[i] > 4)
                    break; /* one thread whatever is asked: the runs before */
#endif
                if (threads[i] > 4 && sel == PETS_SELECT_LINEAR)
                    break; /* no stream with the linear search: as 4 threads */
                o.threads = threads[i];
                snprintf(w, sizeof w, "%s, policy %d, select %s, %d threads", what, policy,
                         sel ? "linear" : "gaps", threads[i]);
                ck_assert_int_eq(tu_check_impl_opts(omp, d, &o, &ref, w), 1);
            }
        }
        pets_solution_free(&ref);
    }
}

/* Builds a graph from n x P costs and edges, failing the test on error. */
static void build(pets_dag *d, int32_t n, int32_t P, const int64_t *cost, pets_edge *e,
                  int64_t m)
{
    pc_error err;
    pc_error_clear(&err);
    ck_assert_msg(pets_dag_build(d, n, P, cost, e, m, NULL, &err) == 0, "%s", err.msg);
}

/* Every task costs nothing and sends nothing: every finish is 0, so the
 * makespan is 0 (not the least positive time), with either slot search. */
START_TEST(zero_costs)
{
    int64_t cost[4 * 2] = {0};
    pets_edge e[3] = {{0, 1, 0, 0}, {0, 2, 0, 0}, {1, 3, 0, 0}};
    pets_dag d;
    build(&d, 4, 2, cost, e, 3);
    check_select_variants(&d, "zero costs");
    pets_dag_free(&d);
}
END_TEST

START_TEST(omp_chain)
{
    /* 5000 tasks: the stream too, one level per task */
    int32_t n = 5000, P = 4;
    pc_rng r;
    pc_rng_seed(&r, 5);
    int64_t *cost = malloc((size_t)n * P * sizeof *cost);
    pets_edge *e = malloc((size_t)n * sizeof *e);
    ck_assert(cost && e);
    for (int64_t i = 0; i < (int64_t)n * P; i++)
        cost[i] = (int64_t)pc_rng_range(&r, 1, 40);
    for (int32_t i = 0; i + 1 < n; i++)
        e[i] = (pets_edge){i, i + 1, (int64_t)pc_rng_below(&r, 30), 0};
    pets_dag d;
    build(&d, n, P, cost, e, n - 1);
    check_select_variants(&d, "chain");
    pets_dag_free(&d);
    free(cost);
    free(e);
}
END_TEST

START_TEST(omp_wide_level)
{
    /* a source, one level wider than a selection batch, a sink */
    int32_t mid = 9000, n = mid + 2, P = 3;
    pc_rng r;
    pc_rng_seed(&r, 6);
    int64_t *cost = malloc((size_t)n * P * sizeof *cost);
    pets_edge *e = malloc((size_t)2 * mid * sizeof *e);
    ck_assert(cost && e);
    for (int64_t i = 0; i < (int64_t)n * P; i++)
        cost[i] = (int64_t)pc_rng_range(&r, 1, 20);
    for (int32_t i = 0; i < mid; i++) {
        e[2 * i] = (pets_edge){0, i + 1, (int64_t)pc_rng_below(&r, 10), 0};
        e[2 * i + 1] = (pets_edge){i + 1, n - 1, (int64_t)pc_rng_below(&r, 10), 0};
    }
    pets_dag d;
    build(&d, n, P, cost, e, 2 * (int64_t)mid);
    check_select_variants(&d, "wide level");
    pets_dag_free(&d);
    free(cost);
    free(e);
}
END_TEST

START_TEST(omp_many_ties)
{
    /* equal costs everywhere (some zero), equal communication: ranks, ACC
     * and finish times tie, so every tie rule decides */
    for (int variant = 0; variant < 3; variant++) {
        pets_gen_params gp;
        pets_gen_defaults(&gp);
        gp.tasks = 4500; /* the stream too */
        gp.procs = 5;
        gp.seed = 40 + (uint64_t)variant;
        pets_dag g, d;
        pc_error err;
        ck_assert_msg(pets_gen_dag(&gp, &g, &err) == 0, "%s", err.msg);
        int64_t cells = (int64_t)g.ntasks * g.nprocs;
        int64_t *cost = malloc((size_t)cells * sizeof *cost);
        pets_edge *e = malloc(((size_t)g.nedges + 1) * sizeof *e);
        ck_assert(cost && e);
        for (int64_t i = 0; i < cells; i++)
            cost[i] = variant == 2 && (i / g.nprocs) % 7 == 0 ? 0 : 10;
        for (int32_t k = 0; k < g.nedges; k++)
            e[k] = (pets_edge){g.edge_from[k], g.edge_to[k], variant == 0 ? 0 : 5, 0};
        build(&d, g.ntasks, g.nprocs, cost, e, g.nedges);
        char what[64];
        snprintf(what, sizeof what, "ties variant %d", variant);
        check_select_variants(&d, what);
        pets_dag_free(&d);
        pets_dag_free(&g);
        free(cost);
        free(e);
    }
}
END_TEST

START_TEST(omp_random_graphs)
{
    pc_rng r;
    pc_rng_seed(&r, 77);
    for (int i = 0; i < 12; i++) {
        pets_gen_params gp;
        pets_gen_defaults(&gp);
        gp.tasks = (int32_t)pc_rng_range(&r, 1, 3000);
        gp.out_degree = (double)pc_rng_range(&r, 1, 5);
        gp.procs = (int32_t)pc_rng_range(&r, 1, 12);
        gp.seed = pc_rng_u64(&r);
        pets_dag d;
        pc_error err;
        ck_assert_msg(pets_gen_dag(&gp, &d, &err) == 0, "%s", err.msg);
        char what[64];
        snprintf(what, sizeof what, "random v=%d P=%d", gp.tasks, gp.procs);
        check_select_variants(&d, what);
        pets_dag_free(&d);
    }
}
END_TEST

START_TEST(omp_one_region)
{
    /* graphs large enough (4096 tasks and more) for the selection's level
     * loop to run as one parallel region at 2 and 4 threads: many levels
     * of every width, some below the 64 tasks a batch is split at, some
     * wider; the schedule is the oracle's */
    static const int32_t tasks[] = {4096, 7000, 12000};
    static const double alpha[] = {1.0, 0.2, 3.0};
    for (int i = 0; i < 3; i++) {
        pets_gen_params gp;
        pets_gen_defaults(&gp);
        gp.tasks = tasks[i];
        gp.alpha = alpha[i];
        gp.procs = 3 + 2 * i;
        gp.seed = 90 + (uint64_t)i;
        pets_dag d;
        pc_error err;
        ck_assert_msg(pets_gen_dag(&gp, &d, &err) == 0, "%s", err.msg);
        char what[64];
        snprintf(what, sizeof what, "one region v=%d alpha=%g P=%d", gp.tasks, gp.alpha, gp.procs);
        check_select_variants(&d, what);
        pets_dag_free(&d);
    }
}
END_TEST

/* im at th threads refuses d (a cycle) with PC_EINVAL and says so. */
static void assert_cycle_refused(const pets_impl *im, const pets_dag *d, int th)
{
    pets_solution sol;
    pets_times t;
    pc_error err;
    pc_error_clear(&err);
    ck_assert_int_eq(pets_solution_alloc(&sol, d->ntasks, &err), 0);
    pets_options o = {PETS_INSERTION, -1, -1, th, PETS_SELECT_GAPS};
    ck_assert_int_eq(im->run(d, &o, &sol, &t, &err), PC_EINVAL);
    ck_assert_msg(strstr(err.msg, "cycle"), "%s, %d threads: %s", im->name, th, err.msg);
    pets_solution_free(&sol);
}

/* Turns d's first edges 0 -> 1 -> 2 (built checked, task 2 without other
 * predecessors) into the cycle 0 <-> 1: task 1's successor becomes 0, and
 * the predecessor lists follow (0: [1], 1: [0], 2: none); the lists of the
 * tasks after 2 stay where they are. */
static void cycle_0_1(pets_dag *d)
{
    d->succ[d->succ_off[1]] = 0;
    d->pred_off[1] = 1;
    d->pred_off[2] = 2;
    d->pred_off[3] = 2;
    d->pred[0] = 1;
    d->pred[1] = 0;
}

START_TEST(omp_refuses_cycle)
{
    /* a graph whose lists were altered after the checked build into a
     * cycle 1 <-> 2 (task ids 0 and 1), with 5000 lone tasks so that the
     * dataflow runs on its threads: serial and omp at 1, 2, 4 threads
     * refuse it (every thread waiting and nothing left to push), and omp
     * streaming at 6 and 8 (its levels end short of n), none hangs */
    int32_t n = 5003, P = 2;
    int64_t *cost = malloc((size_t)n * P * sizeof *cost);
    ck_assert(cost);
    for (int64_t i = 0; i < (int64_t)n * P; i++)
        cost[i] = 1 + i % 3;
    pets_edge e[2] = {{0, 1, 2, 0}, {1, 2, 2, 0}};
    pets_dag d;
    build(&d, n, P, cost, e, 2);
    /* 0 -> 1, 1 -> 2 becomes 0 -> 1, 1 -> 0: task 1's successor is 0, and
     * the predecessor lists follow (0: [1], 1: [0], 2: none) */
    cycle_0_1(&d);
    const pets_impl *im[2] = {pets_impl_find("serial"), pets_impl_find("omp")};
    static const int threads[] = {1, 2, 4, 6, 8}; /* 6 and 8: omp streams */
    for (int i = 0; i < 2; i++)
        for (int ti = 0; ti < 5; ti++) {
            assert_cycle_refused(im[i], &d, threads[ti]);
        }
    pets_dag_free(&d);
    free(cost);
}
END_TEST

/* The cycle found after a long wait: a chain of 2000 tasks is walked one
 * task at a time, so the other threads wait (and spin) at every step while
 * the processed count must stay exact for the last waiting thread to see
 * that nothing more will come; then the cycle 0 <-> 1 (as above) is
 * refused at 2 and 4 threads, not waited on for ever. */
START_TEST(omp_refuses_cycle_after_a_chain)
{
    enum { CHAIN = 2000, LONE = 300 };
    int32_t n = 3 + CHAIN + LONE, P = 2;
    int64_t *cost = malloc((size_t)n * P * sizeof *cost);
    pets_edge *e = malloc((2 + CHAIN) * sizeof *e);
    ck_assert(cost && e);
    for (int64_t i = 0; i < (int64_t)n * P; i++)
        cost[i] = 1 + i % 3;
    e[0] = (pets_edge){0, 1, 2, 0};
    e[1] = (pets_edge){1, 2, 2, 0};
    for (int32_t k = 0; k + 1 < CHAIN; k++)
        e[2 + k] = (pets_edge){3 + k, 4 + k, 1, 0};
    pets_dag d;
    build(&d, n, P, cost, e, 2 + CHAIN - 1);
    /* 0 -> 1 -> 2 becomes the cycle 0 <-> 1, as in omp_refuses_cycle: the
     * chain's lists come after these two entries and stay */
    cycle_0_1(&d);
    for (int th = 2; th <= 4; th += 2)
        assert_cycle_refused(pets_impl_find("omp"), &d, th);
    pets_dag_free(&d);
    free(cost);
    free(e);
}
END_TEST

/* Runs omp at `threads` on d under policy; returns its rc, the solution in
 * s (allocated here; the caller frees it). */
static int run_omp(const pets_dag *d, int policy, int threads, pets_solution *s, pc_error *err)
{
    pc_error_clear(err);
    ck_assert_int_eq(pets_solution_alloc(s, d->ntasks, err), 0);
    pets_options o = {policy, -1, -1, threads, PETS_SELECT_GAPS};
    pets_times t;
    int rc = pets_impl_find("omp")->run(d, &o, s, &t, err);
    if (!rc) /* the phases' times add up to the total, overlapped or not */
        ck_assert(t.entry + t.metrics + t.sort + t.select <= t.total * (1 + 1e-9) + 1e-9);
    return rc;
}

/* threads = 1 is one thread, not the OpenMP default: with a default of 8
 * (enough to stream) a run asked for 1 thread does not stream, and one
 * asked for 0 (the default) does; both give the oracle's schedule. */
START_TEST(omp_one_thread_is_one)
{
#ifdef _OPENMP
    pets_dag d;
    gen_graph(&d, 6000, 3, 1.0, 77);
    pets_solution ref;
    tu_oracle(&d, PETS_INSERTION, &ref);
    int keep = omp_get_max_threads();
    omp_set_num_threads(8);
    int before = g_pets_stream_runs;
    pets_options one = {PETS_INSERTION, -1, -1, 1, PETS_SELECT_GAPS};
    ck_assert_int_eq(tu_check_impl_opts(pets_impl_find("omp"), &d, &one, &ref, "omp, 1 thread"), 1);
    int streamed_one = g_pets_stream_runs - before;
    pets_options dflt = {PETS_INSERTION, -1, -1, 0, PETS_SELECT_GAPS};
    ck_assert_int_eq(tu_check_impl_opts(pets_impl_find("omp"), &d, &dflt, &ref, "omp, default"), 1);
    int streamed_dflt = g_pets_stream_runs - before - streamed_one;
    omp_set_num_threads(keep);
    ck_assert_msg(streamed_one == 0, "a run of 1 thread streamed (%d runs)", streamed_one);
    ck_assert_msg(streamed_dflt > 0, "the default of 8 threads did not stream");
    pets_solution_free(&ref);
    pets_dag_free(&d);
#else
    PC_SKIP("built without OpenMP: one thread is all there is");
#endif
}
END_TEST

START_TEST(stream_equals_oracle)
{
    /* omp streaming its phases (6 threads and more, 4096 tasks and more):
     * levels, ranks, order and schedule are the oracle's at 6, 9 and 12
     * threads (more threads than cores: every wait must yield), and a
     * stream did run */
#ifdef _OPENMP
    static const int threads[] = {6, 9, 12};
    static const double alpha[] = {1.0, 0.1, 4.0};
    for (int g = 0; g < 3; g++) {
        pets_gen_params gp;
        pets_gen_defaults(&gp);
        gp.tasks = 6000 + 1500 * g;
        gp.alpha = alpha[g];
        gp.procs = 2 + 3 * g;
        pets_dag d;
        gen_graph(&d, gp.tasks, gp.procs, gp.alpha, 300 + (uint64_t)g);
        for (int policy = 0; policy < 2; policy++) {
            pets_solution ref;
            tu_oracle(&d, policy, &ref);
            int before = g_pets_stream_runs;
            pets_options o = {policy, -1, -1, threads[g], PETS_SELECT_GAPS};
            char what[96];
            snprintf(what, sizeof what, "stream v=%d alpha=%g P=%d, %d threads, policy %d",
                     gp.tasks, gp.alpha, gp.procs, threads[g], policy);
            ck_assert_int_eq(tu_check_impl_opts(pets_impl_find("omp"), &d, &o, &ref, what), 1);
            ck_assert_msg(g_pets_stream_runs == before + 1, "%s: no stream ran", what);
            /* the OpenCL implementations stream too, with the device as
             * the source of levels (where there is a device) */
            static const char *const cl[2] = {"ocl", "ocl-vec8"};
            for (int i = 0; i < 2; i++) {
                before = g_pets_stream_runs;
                if (tu_check_impl_opts(pets_impl_find(cl[i]), &d, &o, &ref, what))
                    ck_assert_msg(g_pets_stream_runs == before + 1, "%s %s: no stream ran", cl[i], what);
            }
            pets_solution_free(&ref);
        }
        pets_dag_free(&d);
    }
#else
    PC_SKIP("built without OpenMP (the stream needs its threads)");
#endif
}
END_TEST

START_TEST(stream_falls_back)
{
    /* a stream that gets fewer threads than its roles (called inside a
     * parallel region, no nested parallelism) runs the phases instead:
     * the oracle's schedule, and no stream counted. A graph with no
     * source at all is a cycle before any thread starts. */
    pets_gen_params gp;
    pets_gen_defaults(&gp);
    pets_dag d;
    pc_error err;
    gen_graph(&d, 5000, 4, gp.alpha, 310);
    pets_solution ref, s;
    tu_oracle(&d, PETS_INSERTION, &ref);
    int before = g_pets_stream_runs, rc = -100;
#ifdef _OPENMP
    omp_set_max_active_levels(1);
#endif
#pragma omp parallel num_threads(2)
    {
#pragma omp master
        rc = run_omp(&d, PETS_INSERTION, 8, &s, &err);
    }
    ck_assert_msg(rc == 0, "%s", err.msg);
    ck_assert_int_eq(g_pets_stream_runs, before);
    ck_assert_int_eq(s.makespan, ref.makespan);
    for (int32_t k = 0; k < d.ntasks; k++)
        ck_assert_int_eq(s.order[k], ref.order[k]);
    for (int32_t v = 0; v < d.ntasks; v++)
        ck_assert(s.proc[v] == ref.proc[v] && s.start[v] == ref.start[v]);
    pets_solution_free(&s);
    pets_solution_free(&ref);
    /* the predecessor counts altered after the checked build so that
     * every task has one: no source, a cycle found before the roles start */
    for (int32_t v = 0; v < d.ntasks; v++)
        d.pred_off[v + 1] = d.pred_off[v] + 1;
    ck_assert_int_eq(run_omp(&d, PETS_INSERTION, 8, &s, &err), PC_EINVAL);
    ck_assert_msg(strstr(err.msg, "cycle"), "%s", err.msg);
    pets_solution_free(&s);
    pets_dag_free(&d);
}
END_TEST

START_TEST(stream_alloc_failures)
{
    check_alloc_failures(1, 320);
}
END_TEST

/* A source of levels for a stream, as the OpenCL device is one: the
 * oracle's levels, fed `per` levels at a time, the tasks of a level in
 * task order (not priority order: the stream sorts them); it fails at
 * level fail_at (>= 0), or leaves the last level out (drop_last). */
typedef struct fake_source {
    const pets_dag *d;
    const pets_solution *ref;
    pets_solution *s;
    int64_t *krank, *ksum;
    int32_t *deg, *sizes;
    int per, fail_at, drop_last, stopped;
} fake_source;

static int fake_feed(void *ctx, pets_stream *ps, pc_error *err)
{
    fake_source *f = ctx;
    int32_t n = f->d->ntasks, P = f->d->nprocs, nlev = 0;
    for (int32_t v = 0; v < n; v++)
        nlev = f->ref->level[v] + 1 > nlev ? f->ref->level[v] + 1 : nlev;
    if (f->drop_last)
        nlev--;
    int32_t at = 0;
    for (int32_t L0 = 0; L0 < nlev; L0 += f->per) {
        int32_t a = at, k = 0;
        for (int32_t L = L0; L < nlev && L < L0 + f->per; L++, k++) {
            if (L == f->fail_at)
                return pc_error_set(err, PC_EDEVICE, NULL, 0, "fake device lost at level %d", L);
            int32_t b = at;
            for (int32_t v = 0; v < n; v++) {
                if (f->ref->level[v] != L)
                    continue;
                int64_t acc = 0;
                for (int32_t p = 0; p < P; p++)
                    acc += f->d->cost[(int64_t)v * P + p];
                f->s->order[at] = v;
                f->krank[at] = f->ref->rank[v];
                f->ksum[at] = acc;
                f->deg[at] = f->d->pred_off[v + 1] - f->d->pred_off[v];
                at++;
            }
            f->sizes[k] = at - b;
        }
        if (pets_stream_feed(ps, f->sizes, k, f->deg + a)) {
            f->stopped = 1;
            return 0;
        }
    }
    return 0;
}

START_TEST(stream_from_a_source)
{
    /* a stream fed by a source (the way `ocl` feeds it): the oracle's
     * order and schedule whether the levels come one or seven at a time,
     * at 6 and 9 threads, both policies; a source that fails mid-way gives
     * its error, one that stops short of n tasks a cycle; none hangs and
     * nothing stays allocated */
#ifndef _OPENMP
    PC_SKIP("built without OpenMP (the stream needs its threads)");
#endif
    pets_dag d;
    pc_error err;
    gen_graph(&d, 6000, 4, 0.5, 330);
    int32_t n = d.ntasks;
    int64_t *krank = malloc((size_t)n * sizeof *krank), *ksum = malloc((size_t)n * sizeof *ksum);
    int32_t *deg = malloc((size_t)n * sizeof *deg), *sizes = malloc((size_t)n * sizeof *sizes);
    ck_assert(krank && ksum && deg && sizes);
    for (int policy = 0; policy < 2; policy++) {
        pets_solution ref;
        tu_oracle(&d, policy, &ref);
        for (int c = 0; c < 5; c++) {
            static const int per[] = {1, 7, 1, 3, 2}, threads[] = {6, 9, 6, 9, 7};
            static const int fail_at[] = {-1, -1, 5, 40, -1}, drop_last[] = {0, 0, 0, 0, 1};
            pets_solution s;
            ck_assert_int_eq(pets_solution_alloc(&s, n, &err), 0);
            fake_source f = {&d, &ref, &s, krank, ksum, deg, sizes, per[c], fail_at[c], drop_last[c], 0};
            pets_stream_source src = {fake_feed, &f, krank, ksum};
            pets_options o = {policy, -1, -1, threads[c], PETS_SELECT_GAPS};
            pets_times t;
            long live = pc_alloc_live();
            pc_error_clear(&err);
            int rc = pets_stream_run(&d, &o, threads[c], &src, &s, &t, &err);
            ck_assert_int_eq(pc_alloc_live(), live);
            if (fail_at[c] >= 0) {
                ck_assert_msg(rc == PC_EDEVICE && strstr(err.msg, "fake device lost"),
                              "case %d: rc %d: %s", c, rc, err.msg);
            } else if (drop_last[c]) {
                ck_assert_msg(rc == PC_EINVAL && strstr(err.msg, "cycle"), "case %d: rc %d: %s", c,
                              rc, err.msg);
            } else {
                ck_assert_msg(rc == 0, "case %d: %s", c, err.msg);
                ck_assert_int_eq(t.overlapped, 1);
                ck_assert_int_eq(s.makespan, ref.makespan);
                for (int32_t k = 0; k < n; k++)
                    ck_assert_msg(s.order[k] == ref.order[k], "case %d, position %d: %d vs %d", c, k,
                                  s.order[k], ref.order[k]);
                for (int32_t v = 0; v < n; v++)
                    ck_assert(s.proc[v] == ref.proc[v] && s.start[v] == ref.start[v] &&
                              s.finish[v] == ref.finish[v]);
            }
            pets_solution_free(&s);
        }
        pets_solution_free(&ref);
    }
    free(krank);
    free(ksum);
    free(deg);
    free(sizes);
    pets_dag_free(&d);
}
END_TEST

START_TEST(pipeline_any_topological_order)
{
    /* the selection's pipeline needs only a topological order: on a random
     * one (Kahn's algorithm taking a random ready task: levels mixed, a
     * task's last predecessor anywhere before it), 1, 2, 4 and 7 threads
     * give the seed's linear selection's schedule on the same order, under
     * both policies */
    pets_gen_params gp;
    pets_gen_defaults(&gp);
    gp.tasks = 9000;
    gp.procs = 5;
    gp.seed = 77;
    pets_dag d;
    pc_error err;
    ck_assert_msg(pets_gen_dag(&gp, &d, &err) == 0, "%s", err.msg);
    int32_t n = d.ntasks;
    int32_t *left = malloc((size_t)n * sizeof *left), *ready = malloc((size_t)n * sizeof *ready);
    int32_t *order = malloc((size_t)n * sizeof *order);
    ck_assert(left && ready && order);
    int32_t nready = 0, k = 0;
    for (int32_t v = 0; v < n; v++)
        if (!(left[v] = d.pred_off[v + 1] - d.pred_off[v]))
            ready[nready++] = v;
    pc_rng r;
    pc_rng_seed(&r, 78);
    while (nready) {
        int32_t j = (int32_t)pc_rng_below(&r, (uint64_t)nready), v = ready[j];
        ready[j] = ready[--nready];
        order[k++] = v;
        for (int32_t e = d.succ_off[v]; e < d.succ_off[v + 1]; e++)
            if (--left[d.succ[e]] == 0)
                ready[nready++] = d.succ[e];
    }
    ck_assert_int_eq(k, n);
    static const int threads[] = {1, 2, 4, 7};
    for (int policy = 0; policy < 2; policy++) {
        /* policy 1 also with the booking thread going solo at chunk 40
         * (workers stop claiming; what they hold they finish) */
        g_pets_select_solo_at = policy ? 40 : -1;
        pets_solution ref;
        ck_assert_int_eq(pets_solution_alloc(&ref, n, &err), 0);
        memcpy(ref.order, order, (size_t)n * sizeof *order);
        pets_options lo = {policy, -1, -1, 1, PETS_SELECT_LINEAR};
        ck_assert_int_eq(pets_select_run(&d, &lo, 1, &ref, &err), 0);
        for (int i = 0; i < 4; i++) {
            pets_solution s;
            ck_assert_int_eq(pets_solution_alloc(&s, n, &err), 0);
            memcpy(s.order, order, (size_t)n * sizeof *order);
            pets_options o = {policy, -1, -1, threads[i], PETS_SELECT_GAPS};
            ck_assert_int_eq(pets_select_run(&d, &o, threads[i], &s, &err), 0);
            ck_assert_int_eq(s.makespan, ref.makespan);
            for (int32_t v = 0; v < n; v++)
                ck_assert_msg(s.proc[v] == ref.proc[v] && s.start[v] == ref.start[v] &&
                                  s.finish[v] == ref.finish[v],
                              "policy %d, %d threads: task %d on %d [%lld, %lld), linear: %d "
                              "[%lld, %lld)",
                              policy, threads[i], v + 1, s.proc[v], (long long)s.start[v],
                              (long long)s.finish[v], ref.proc[v], (long long)ref.start[v],
                              (long long)ref.finish[v]);
            pets_solution_free(&s);
        }
        pets_solution_free(&ref);
    }
    g_pets_select_solo_at = -1;
    free(left);
    free(ready);
    free(order);
    pets_dag_free(&d);
}
END_TEST

static Suite *suite_select(void)
{
    Suite *s = suite_create("pets_select");
    TCase *tc = pc_tcase("select");
    tcase_add_test(tc, gap_index_equals_brute_force);
    tcase_add_test(tc, gap_index_tail_equals_brute_force);
    tcase_add_test(tc, gap_index_alloc_failures);
    tcase_add_test(tc, select_refuses_bad_orders);
    tcase_add_test(tc, select_alloc_failures);
    tcase_add_test(tc, zero_costs);
    tcase_add_test(tc, omp_chain);
    tcase_add_test(tc, omp_wide_level);
    tcase_add_test(tc, omp_many_ties);
    tcase_add_test(tc, omp_random_graphs);
    tcase_add_test(tc, omp_one_region);
    tcase_add_test(tc, pipeline_any_topological_order);
    tcase_add_test(tc, omp_refuses_cycle);
    tcase_add_test(tc, omp_refuses_cycle_after_a_chain);
    tcase_add_test(tc, stream_equals_oracle);
    tcase_add_test(tc, omp_one_thread_is_one);
    tcase_add_test(tc, stream_falls_back);
    tcase_add_test(tc, stream_alloc_failures);
    tcase_add_test(tc, stream_from_a_source);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return pc_test_run(suite_select()); }
