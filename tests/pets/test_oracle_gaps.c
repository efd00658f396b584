/* test_oracle_gaps.c - the oracle's idle-gap index against a plain list of
 * booked intervals scanned from the start, and the oracle's schedules
 * against the implementations' processor selection on graphs full of
 * zero costs (empty gaps, tasks that touch), with shuffled task ids. */
#include <stdlib.h>

#include "pc_alloc.h"
#include "pc_rng.h"
#include "pets/pets_oracle_gaps.h"
#include "pets_tutil.h"

typedef struct span {
    int64_t s, f;
} span;

/* The earliest t >= ready where [t, t + w) crosses no booked span's
 * inside and no zero-length span strictly inside it, by scanning every
 * span in start order: the rule the index must give. */
static int64_t naive_earliest(const span *b, int n, int64_t ready, int64_t w)
{
    int64_t t = ready;
    for (int j = 0; j < n; j++) {
        if (b[j].f <= t)
            continue;
        if (t + w <= b[j].s)
            break;
        t = b[j].f;
    }
    return t;
}

/* Books enough tasks (lengths 0..4, random ready times) on one processor
 * to split many blocks, each start equal to the naive one. */
START_TEST(gaps_equal_naive_scan)
{
    pc_rng r;
    pc_rng_seed(&r, 100 + (uint64_t)_i);
    pets_ogaps q;
    pc_error err;
    ck_assert_int_eq(pets_ogaps_init(&q, &err), 0);
    int cap = 3000, n = 0;
    span *b = malloc((size_t)cap * sizeof *b);
    ck_assert_ptr_nonnull(b);
    int64_t horizon = 1, latest = 0;
    for (int k = 0; k < cap; k++) {
        int64_t w = (int64_t)(pc_rng_below(&r, 5));
        int64_t ready = (int64_t)(pc_rng_below(&r, (uint64_t)(horizon + 5)));
        int64_t want = naive_earliest(b, n, ready, w), got = pets_ogaps_earliest(&q, ready, w);
        ck_assert_msg(got == want, "booking %d: ready %lld w %lld: index %lld, scan %lld", k,
                      (long long)ready, (long long)w, (long long)got, (long long)want);
        ck_assert_int_eq(pets_ogaps_book(&q, got, got + w, &err), 0);
        int at = n; /* keep the spans sorted by start, then finish */
        while (at > 0 && (b[at - 1].s > got || (b[at - 1].s == got && b[at - 1].f > got + w)))
            at--;
        memmove(b + at + 1, b + at, (size_t)(n - at) * sizeof *b);
        b[at] = (span){got, got + w};
        n++;
        if (got + w > horizon)
            horizon = got + w;
        if (got + w > latest)
            latest = got + w;
        ck_assert_int_eq(pets_ogaps_after_last(&q, 0), latest);
        ck_assert_int_eq(pets_ogaps_after_last(&q, latest + 3), latest + 3);
    }
    ck_assert_int_gt(q.nblk, 20);
    pets_ogaps_free(&q);
    free(b);
}
END_TEST

/* A random DAG of n tasks with costs and communications in [0, maxc), ids
 * shuffled so that no order of the file helps. */
static void random_dag(pc_rng *r, int n, int P, int maxc, pets_dag *d)
{
    int64_t *cost = malloc((size_t)n * (size_t)P * sizeof *cost);
    pets_edge *e = malloc((size_t)n * 4 * sizeof *e);
    int *perm = malloc((size_t)n * sizeof *perm);
    ck_assert(cost && e && perm);
    for (int i = 0; i < n * P; i++)
        cost[i] = (int64_t)(pc_rng_below(r, (uint64_t)maxc));
    for (int i = 0; i < n; i++)
        perm[i] = i;
    for (int i = n - 1; i > 0; i--) {
        int j = (int)(pc_rng_below(r, (uint64_t)(i + 1))), t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }
    int ne = 0;
    for (int b = 1; b < n; b++) {
        int first = ne; /* the edges into b drawn so far are e[first .. ne) */
        for (int k = 0; k < 4 && ne < n * 4; k++) {
            int a = (int)(pc_rng_below(r, (uint64_t)b));
            int dup = 0;
            for (int x = first; x < ne; x++)
                dup |= e[x].from == perm[a];
            if (!dup && pc_rng_below(r, 2))
                e[ne++] = (pets_edge){perm[a], perm[b], (int64_t)(pc_rng_below(r, (uint64_t)maxc)), 0};
        }
    }
    pc_error err;
    ck_assert_msg(pets_dag_build(d, n, P, cost, e, ne, NULL, &err) == 0, "%s", err.msg);
    free(cost);
    free(e);
    free(perm);
}

/* The oracle's schedule equals pets_select's on the oracle's own order
 * (both policies), and the validator accepts it. */
START_TEST(zero_costs_oracle_equals_select)
{
    pc_rng r;
    pc_rng_seed(&r, 7 + (uint64_t)_i);
    for (int it = 0; it < 300; it++) {
        int n = 1 + (int)(pc_rng_below(&r, it < 250 ? 40 : 2500));
        int P = 1 + (int)(pc_rng_below(&r, 4)), maxc = 1 + (int)(pc_rng_below(&r, 4));
        pets_dag d;
        random_dag(&r, n, P, maxc, &d);
        for (int policy = 0; policy < 2; policy++) {
            pets_solution a, b;
            pc_error err;
            ck_assert_int_eq(pets_solution_alloc(&a, n, &err), 0);
            ck_assert_int_eq(pets_solution_alloc(&b, n, &err), 0);
            ck_assert_msg(pets_oracle_solve(&d, policy, &a, &err) == 0, "%s", err.msg);
            memcpy(b.order, a.order, (size_t)n * sizeof *b.order);
            pets_options o = {.policy = policy, .cl_platform = -1, .cl_device = -1, .threads = 1,
                              .select = PETS_SELECT_GAPS};
            ck_assert_msg(pets_select_run(&d, &o, 1, &b, &err) == 0, "%s", err.msg);
            for (int v = 0; v < n; v++)
                ck_assert_msg(a.proc[v] == b.proc[v] && a.start[v] == b.start[v] && a.finish[v] == b.finish[v],
                              "graph %d, policy %d, task %d: oracle P%d [%lld, %lld), select P%d [%lld, %lld)",
                              it, policy, v + 1, a.proc[v] + 1, (long long)a.start[v], (long long)a.finish[v],
                              b.proc[v] + 1, (long long)b.start[v], (long long)b.finish[v]);
            ck_assert_int_eq(a.makespan, b.makespan);
            ck_assert_msg(pets_oracle_validate(&d, &a, NULL, &err) == 0, "%s", err.msg);
            pets_solution_free(&a);
            pets_solution_free(&b);
        }
        pets_dag_free(&d);
    }
}
END_TEST

static Suite *suite_gaps(void)
{
    Suite *s = suite_create("pets_oracle_gaps");
    TCase *tc = pc_tcase("gaps");
    tcase_add_loop_test(tc, gaps_equal_naive_scan, 0, 4);
    tcase_add_loop_test(tc, zero_costs_oracle_equals_select, 0, 2);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return pc_test_run(suite_gaps()); }
