/* test_golden.c - the two golden graphs of the shared data folder (dags/golden) with
 * their hand-checked levels, ranks, order and schedules, for the oracle and
 * every implementation; a missing OpenCL device reported with its reason;
 * no device phases in the host implementations' times. */
#include <string.h>

#include "pets_tutil.h"

static void check_expected(const char *file, int policy, const int32_t *level, const int64_t *rank,
                           const int32_t *order, int64_t makespan)
{
    const char *path = tu_data(file);
    pets_dag dag;
    pc_error err;
    pc_error_clear(&err);
    ck_assert_msg(pets_dag_read(path, &dag, &err) == 0, "%s", err.msg);
    pets_solution ref;
    tu_oracle(&dag, policy, &ref);
    for (int32_t v = 0; v < dag.ntasks; v++) {
        ck_assert_int_eq(ref.level[v], level[v]);
        ck_assert_int_eq(ref.rank[v], rank[v]);
        ck_assert_int_eq(ref.order[v] + 1, order[v]);
    }
    ck_assert_int_eq(ref.makespan, makespan);
    int ran = 0;
    for (int i = 0; i < pets_nimpls; i++)
        ran += tu_check_impl(&pets_impls[i], &dag, policy, &ref, file);
    ck_assert_int_ge(ran, 1);
    pets_solution_free(&ref);
    pets_dag_free(&dag);
}

static const int32_t topc_level[] = {0, 1, 1, 1, 1, 1, 2, 2, 2, 3};
static const int64_t topc_rank[] = {77, 129, 114, 140, 102, 105, 142, 161, 169, 184};
static const int32_t topc_order[] = {1, 4, 2, 3, 6, 5, 9, 8, 7, 10};

START_TEST(topcuoglu_insertion)
{
    if (!tu_data("golden/topcuoglu2002.txt"))
        PC_SKIP("no shared data");
    check_expected("golden/topcuoglu2002.txt", PETS_INSERTION, topc_level, topc_rank, topc_order, 76);
    /* the README's schedule, task by task (processors from 1) */
    static const int sched[10][4] = {{1, 3, 0, 9},   {4, 2, 18, 26}, {2, 3, 9, 27},  {3, 1, 21, 32},
                                     {6, 3, 27, 36}, {5, 2, 26, 39}, {9, 2, 43, 55}, {8, 1, 53, 58},
                                     {7, 1, 32, 39}, {10, 2, 69, 76}};
    pets_dag dag;
    pc_error err;
    ck_assert_int_eq(pets_dag_read(tu_data("golden/topcuoglu2002.txt"), &dag, &err), 0);
    pets_solution ref;
    tu_oracle(&dag, PETS_INSERTION, &ref);
    for (int k = 0; k < 10; k++) {
        int v = sched[k][0] - 1;
        ck_assert_int_eq(ref.proc[v] + 1, sched[k][1]);
        ck_assert_int_eq(ref.start[v], sched[k][2]);
        ck_assert_int_eq(ref.finish[v], sched[k][3]);
    }
    pets_solution_free(&ref);
    pets_dag_free(&dag);
}
END_TEST

START_TEST(topcuoglu_append)
{
    if (!tu_data("golden/topcuoglu2002.txt"))
        PC_SKIP("no shared data");
    check_expected("golden/topcuoglu2002.txt", PETS_APPEND, topc_level, topc_rank, topc_order, 89);
}
END_TEST

static const int32_t fig1_level[] = {0, 1, 1, 1, 2, 2, 2, 2, 3, 3, 4};
static const int64_t fig1_rank[] = {10, 19, 16, 17, 25, 27, 25, 24, 35, 36, 42};
static const int32_t fig1_order[] = {1, 2, 4, 3, 6, 5, 7, 8, 10, 9, 11};

START_TEST(fig1_both)
{
    if (!tu_data("golden/pets_fig1.txt"))
        PC_SKIP("no shared data");
    check_expected("golden/pets_fig1.txt", PETS_INSERTION, fig1_level, fig1_rank, fig1_order, 27);
    check_expected("golden/pets_fig1.txt", PETS_APPEND, fig1_level, fig1_rank, fig1_order, 27);
}
END_TEST

/* Ranks are exact: a rank ending in .5 rounds up, and RPT is the largest
 * unrounded predecessor rank (not the deepest parent's). */
START_TEST(rounding_and_rpt)
{
    static const char text[] = "tasks 4 processors 2\n"
                               "cost 1 1 2\n"    /* ACC 1.5 */
                               "cost 2 1 1\n"
                               "cost 3 1 2\n"
                               "cost 4 1 1\n"
                               "edge 1 3 0\n"    /* task 1: 1.5 -> rank 2 */
                               "edge 2 4 0\n"
                               "edge 3 4 0\n";  /* task 3: 1.5 + 1.5 = 3 */
    pets_dag dag;
    pc_error err;
    ck_assert_msg(pets_dag_parse(text, sizeof text - 1, "t.dag", &dag, &err) == 0, "%s", err.msg);
    pets_solution ref;
    tu_oracle(&dag, PETS_INSERTION, &ref);
    ck_assert_int_eq(ref.rank_scaled[0], 3);
    ck_assert_int_eq(ref.rank[0], 2);
    ck_assert_int_eq(ref.rank[1], 1);
    ck_assert_int_eq(ref.rank[2], 3);
    /* task 4: level 2 (via 3), RPT = max(rank 2 = 1, rank 3 = 3) = 3 -> 4 */
    ck_assert_int_eq(ref.level[3], 2);
    ck_assert_int_eq(ref.rank[3], 4);
    tu_check_all(&dag, "rounding");
    pets_solution_free(&ref);
    pets_dag_free(&dag);
}
END_TEST

/* A device that does not exist: the OpenCL implementations say they
 * cannot run, and why (the CLI prints that reason as SKIPPED); the host
 * ones do not depend on the device options. */
START_TEST(missing_device_said)
{
    pets_options o = {.policy = PETS_INSERTION, .cl_platform = 1000, .cl_device = -1, .threads = 1};
    for (int i = 0; i < pets_nimpls; i++) {
        char why[256] = "x";
        int avail = pets_impls[i].available(&o, why, sizeof why);
        if (!strncmp(pets_impls[i].name, "ocl", 3)) {
            ck_assert_msg(!avail, "%s available on platform 1000", pets_impls[i].name);
            ck_assert_msg(why[0] != '\0', "%s: no reason given", pets_impls[i].name);
        } else {
            ck_assert_msg(avail, "%s: %s", pets_impls[i].name, why);
        }
    }
}
END_TEST

/* The host implementations have no device phases: set-up and the copies
 * are reported as 0, not left as whatever the caller's struct held. */
START_TEST(host_times_have_no_device_phases)
{
    pets_gen_params gp;
    pets_gen_defaults(&gp);
    gp.tasks = 40;
    pets_dag d;
    ck_assert_int_eq(pets_gen_dag(&gp, &d, NULL), 0);
    const char *names[] = {"serial", "omp"};
    for (int i = 0; i < 2; i++) {
        pets_solution s;
        ck_assert_int_eq(pets_solution_alloc(&s, d.ntasks, NULL), 0);
        pets_options o = {.policy = PETS_INSERTION, .cl_platform = -1, .cl_device = -1, .threads = 2};
        pets_times t;
        memset(&t, 0xff, sizeof t);
        ck_assert_int_eq(pets_impl_find(names[i])->run(&d, &o, &s, &t, NULL), 0);
        ck_assert_msg(t.setup == 0.0 && t.h2d == 0.0 && t.d2h == 0.0, "%s: setup %g h2d %g d2h %g",
                      names[i], t.setup, t.h2d, t.d2h);
        ck_assert_msg(t.total >= 0.0 && t.select >= 0.0, "%s: total %g", names[i], t.total);
        pets_solution_free(&s);
    }
    pets_dag_free(&d);
}
END_TEST

static Suite *suite_golden(void)
{
    Suite *s = suite_create("pets_golden");
    TCase *tc = pc_tcase("golden");
    tcase_add_test(tc, topcuoglu_insertion);
    tcase_add_test(tc, topcuoglu_append);
    tcase_add_test(tc, fig1_both);
    tcase_add_test(tc, rounding_and_rpt);
    tcase_add_test(tc, missing_device_said);
    tcase_add_test(tc, host_times_have_no_device_phases);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return pc_test_run(suite_golden()); }
