/* test_property.c - hundreds of generated graphs across the paper's ranges
 * (beta 1..5, alpha 0.5/1/2, CCR 0.1..10, eta 0.1..1, v from 1 to 2^14):
 * every implementation equal to the oracle under both policies; and the
 * metamorphic relation: all costs times k -> makespan times k. */
#include <stdlib.h>

#include "pc_rng.h"
#include "pets_priv.h"
#include "pets_tutil.h"

static const double alphas[] = {0.5, 1, 2};
static const double ccrs[] = {0.1, 0.5, 1, 5, 10};
static const double etas[] = {0.1, 0.25, 0.5, 1};

static void random_params(pc_rng *r, pets_gen_params *gp, int32_t v)
{
    pets_gen_defaults(gp);
    gp->tasks = v;
    gp->out_degree = (double)pc_rng_range(r, 1, 5);
    gp->alpha = alphas[pc_rng_below(r, 3)];
    gp->ccr = ccrs[pc_rng_below(r, 5)];
    gp->eta = etas[pc_rng_below(r, 4)];
    gp->procs = (int32_t)pc_rng_range(r, 1, 16);
    gp->seed = pc_rng_u64(r);
}

static void check_generated(const pets_gen_params *gp)
{
    pets_dag d;
    pc_error err;
    ck_assert_msg(pets_gen_dag(gp, &d, &err) == 0, "%s", err.msg);
    ck_assert_int_eq(d.ntasks, gp->tasks);
    char what[200];
    snprintf(what, sizeof what, "v=%d beta=%g alpha=%g ccr=%g eta=%g P=%d seed=%llu", gp->tasks, gp->out_degree,
             gp->alpha, gp->ccr, gp->eta, gp->procs, (unsigned long long)gp->seed);
    ck_assert_int_ge(tu_check_all(&d, what), 2);
    pets_dag_free(&d);
}

START_TEST(tiny_graphs)
{
    pc_rng r;
    pc_rng_seed(&r, 11);
    for (int32_t v = 1; v <= 17; v++)
        for (int k = 0; k < 4; k++) {
            pets_gen_params gp;
            random_params(&r, &gp, v);
            check_generated(&gp);
        }
}
END_TEST

START_TEST(many_graphs)
{
    pc_rng r;
    pc_rng_seed(&r, 2024);
    /* a light pass (pc_test_light) takes the first 100 */
    int count = pc_test_light() ? 100 : 300;
    for (int k = 0; k < count; k++) {
        pets_gen_params gp;
        int32_t v = 1 + (int32_t)pc_rng_below(&r, (uint64_t)1 << pc_rng_range(&r, 1, 10));
        random_params(&r, &gp, v);
        check_generated(&gp);
    }
}
END_TEST

START_TEST(large_graphs)
{
    pc_rng r;
    pc_rng_seed(&r, 77);
    static const int32_t sizes[] = {3000, 4096, 8192, 16384};
    for (int k = 0; k < 4; k++) {
        pets_gen_params gp;
        random_params(&r, &gp, sizes[k]);
        gp.procs = 4 + k * 4;
        check_generated(&gp);
    }
}
END_TEST

/* ocl and ocl-vec8 (when a platform exists) equal to the oracle with each
 * metrics path (a launch per level; the grid kernel, one launch for all
 * levels, with the device's number of groups and with 2, neither of which
 * may give up; the grid with
 * 2 groups made to give up at once, PARCHECK_PETS_GRID_SPIN=1, so that
 * the run starts again with a launch per level: it must have done so at
 * least once, and still be right) and each sort path (per-level
 * segments, bitonic, bitonic with the local-memory merge) forced, around
 * and past the largest block (4096), on deep graphs (hundreds of levels:
 * the frontier loop's chunks of launches) and a chain of 3000 levels. In
 * a light pass (pc_test_light) without the graphs of 9000 and 20000 tasks. */
START_TEST(ocl_paths)
{
    const pets_impl *im[2] = {pets_impl_find("ocl"), pets_impl_find("ocl-vec8")};
    pets_options o = {PETS_INSERTION, -1, -1, 0, PETS_SELECT_GAPS};
    char why[256];
    if (!im[0] || !im[0]->available(&o, why, sizeof why))
        PC_SKIP(why);
    static const int32_t sizes[] = {7, 511, 513, 4095, 4097, 9000, 20000};
    pc_rng r;
    pc_rng_seed(&r, 91);
    int gave_up = 0;
    for (int k = 0; k < 8; k++) {
        pets_dag d;
        pc_error err;
        /* a light pass leaves out the two largest graphs (9000 and 20000
         * tasks): 4097 is already past the largest block */
        if (pc_test_light() && (k == 5 || k == 6))
            continue;
        if (k < 7) {
            pets_gen_params gp;
            random_params(&r, &gp, sizes[k]);
            gp.alpha = 0.5; /* twice the levels */
            ck_assert_msg(pets_gen_dag(&gp, &d, &err) == 0, "%s", err.msg);
        } else {
            int32_t n = 3000;
            int64_t *cost = malloc((size_t)n * 2 * sizeof *cost);
            pets_edge *e = malloc((size_t)n * sizeof *e);
            ck_assert(cost && e);
            for (int32_t i = 0; i < 2 * n; i++)
                cost[i] = 1 + i % 5;
            for (int32_t i = 0; i + 1 < n; i++)
                e[i] = (pets_edge){i, i + 1, i % 4, 0};
            ck_assert_msg(pets_dag_build(&d, n, 2, cost, e, n - 1, NULL, &err) == 0, "%s", err.msg);
            free(cost);
            free(e);
        }
        pets_solution ref;
        tu_oracle(&d, PETS_INSERTION, &ref);
        static const char *const sorts[] = {"segment", "bitonic", "local"};
        static const char *const metrics[] = {"levels", "grid", "grid", "grid"};
        static const char *const groups[] = {"", "", "2", "2"};
        /* a long wait (2^30 reads) where the grid must not give up: on
         * a CPU device a group's thread may lose its core for a while,
         * and the default (2^24) is a few tens of milliseconds there */
        static const char *const spins[] = {"", "1073741824", "1073741824", "1"};
        for (int g = 0; g < 4; g++)
            for (int m = 0; m < 3; m++) {
                setenv("PARCHECK_PETS_METRICS", metrics[g], 1);
                setenv("PARCHECK_PETS_GRID_GROUPS", groups[g], 1);
                setenv("PARCHECK_PETS_GRID_SPIN", spins[g], 1);
                setenv("PARCHECK_PETS_SORT", sorts[m], 1);
                int before = g_pets_ocl_grid_fallbacks;
                for (int i = 0; i < 2; i++) {
                    char what[96];
                    snprintf(what, sizeof what, "v=%d metrics %s groups %s spin %s sort %s",
                             d.ntasks, metrics[g], groups[g], spins[g], sorts[m]);
                    ck_assert_int_eq(tu_check_impl_opts(im[i], &d, &o, &ref, what), 1);
                }
                if (g == 3)
                    gave_up += g_pets_ocl_grid_fallbacks - before;
                else if (g == 1 || g == 2)
                    ck_assert_msg(g_pets_ocl_grid_fallbacks == before,
                                  "the grid gave up with a long barrier wait (v=%d, %s groups)",
                                  d.ntasks, groups[g][0] ? groups[g] : "default");
            }
        unsetenv("PARCHECK_PETS_METRICS");
        unsetenv("PARCHECK_PETS_GRID_GROUPS");
        unsetenv("PARCHECK_PETS_GRID_SPIN");
        unsetenv("PARCHECK_PETS_SORT");
        pets_solution_free(&ref);
        pets_dag_free(&d);
    }
    ck_assert_msg(gave_up > 0, "the grid never gave up with a barrier wait of one read");
}
END_TEST

/* Scaling every cost by k scales ranks by k; when the priority order stays
 * the same (always when ranks are whole, as with identical processors), the
 * schedule scales too: same processors, times and makespan times k. */
START_TEST(metamorphic_scaling)
{
    pc_rng r;
    pc_rng_seed(&r, 5);
    int exact = 0;
    for (int k = 0; k < 40; k++) {
        pets_gen_params gp;
        random_params(&r, &gp, 1 + (int32_t)pc_rng_below(&r, 400));
        if (k % 2 == 0)
            gp.eta = 0; /* whole ranks: the order must survive */
        pets_dag a, b;
        pc_error err;
        ck_assert_int_eq(pets_gen_dag(&gp, &a, &err), 0);
        int64_t mult = 2 + (int64_t)pc_rng_below(&r, 9);
        ck_assert_int_eq(pets_dag_scale(&b, &a, mult, &err), 0);
        for (int policy = 0; policy < 2; policy++) {
            pets_solution sa, sb;
            tu_oracle(&a, policy, &sa);
            tu_oracle(&b, policy, &sb);
            int same = !memcmp(sa.order, sb.order, (size_t)a.ntasks * sizeof *sa.order);
            ck_assert_msg(same || gp.eta > 0, "identical processors: order changed under scaling");
            if (same) {
                ck_assert_int_eq(sb.makespan, mult * sa.makespan);
                for (int32_t v = 0; v < a.ntasks; v++) {
                    ck_assert_int_eq(sb.proc[v], sa.proc[v]);
                    ck_assert_int_eq(sb.start[v], mult * sa.start[v]);
                }
                exact++;
            }
            for (int i = 0; i < pets_nimpls; i++)
                tu_check_impl(&pets_impls[i], &b, policy, &sb, "scaled");
            pets_solution_free(&sa);
            pets_solution_free(&sb);
        }
        pets_dag_free(&a);
        pets_dag_free(&b);
    }
    ck_assert_int_ge(exact, 40);
}
END_TEST

/* A wide fork-join: one task with many successors, a join with many
 * predecessors (rows far longer than 8 lanes, non-power-of-two sizes). */
START_TEST(fork_join)
{
    for (int32_t w = 1; w <= 300; w = w * 3 + 1) {
        int32_t n = w + 2, P = 3;
        int64_t cost[(300 * 3 + 1 + 2) * 3];
        pets_edge e[2 * 1000];
        int64_t ne = 0;
        for (int32_t t = 0; t < n * P; t++)
            cost[t] = 1 + (t * 7) % 11;
        for (int32_t t = 1; t <= w; t++) {
            e[ne++] = (pets_edge){0, t, t % 5, 0};
            e[ne++] = (pets_edge){t, n - 1, (t * 3) % 7, 0};
        }
        pets_dag d;
        pc_error err;
        ck_assert_msg(pets_dag_build(&d, n, P, cost, e, ne, NULL, &err) == 0, "%s", err.msg);
        ck_assert_int_ge(tu_check_all(&d, "fork-join"), 2);
        pets_dag_free(&d);
    }
}
END_TEST

static Suite *suite_property(void)
{
    Suite *s = suite_create("pets_property");
    TCase *tc = pc_tcase("property");
    tcase_add_test(tc, tiny_graphs);
    tcase_add_test(tc, many_graphs);
    tcase_add_test(tc, large_graphs);
    tcase_add_test(tc, metamorphic_scaling);
    tcase_add_test(tc, fork_join);
    tcase_add_test(tc, ocl_paths);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return pc_test_run(suite_property()); }
