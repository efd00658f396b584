/* test_cli_graphs.c - `parcheck pets` and `pets check` read STG, WfCommons
 * and DAX files directly, recognised by content: the schedule is the one
 * of `dag import` then `pets` on the .dag, byte for byte; --procs is
 * required there and refused for a .dag; other files get a hint. */
#include <stdarg.h>
#include <stdlib.h>
#include <unistd.h>

#include "pc_alloc.h"
#include "pc_file.h"
#include "pets_tutil.h"

/* Runs `parcheck ARGS`, ARGS formatted from fmt. */
static int run(char **out, char **err, const char *fmt, ...)
{
    char args[6000], cmd[8192];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(args, sizeof args, fmt, ap);
    va_end(ap);
    snprintf(cmd, sizeof cmd, "%s %s", pc_test_bin(), args);
    return pc_test_shell(cmd, out, err);
}

/* The whole text of path (freed with pc_free). */
static char *slurp(const char *path)
{
    unsigned char *d = NULL;
    size_t n = 0;
    pc_error err;
    ck_assert_msg(pc_file_read_all(path, (size_t)1 << 26, &d, &n, &err) == 0, "%s", err.msg);
    return (char *)d;
}

static char g_dir[64];

static void dir_setup(void)
{
    snprintf(g_dir, sizeof g_dir, "/tmp/pets-graphs-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(g_dir));
}

static void dir_teardown(void)
{
    char rm[200];
    snprintf(rm, sizeof rm, "rm -rf %s", g_dir);
    ck_assert_int_eq(system(rm), 0);
}

/* One foreign file per format, with the options it is imported with. */
static const struct {
    const char *format, *file, *opts;
} g_cases[] = {
    {"stg", "stg/rand0003.stg", "--procs 3 --eta 0.5 --seed 4"},
    {"wfcommons", "wfcommons/montage-chameleon-dss-05d-001.json", "--procs 4 --eta 1 --seed 2 --bandwidth 1e7"},
    {"dax", "dax/Montage_25.xml", "--procs 3 --eta 0.5 --time-scale 100"},
};

/* Both policies: `pets FILE opts` writes the schedule that `dag import`
 * then `pets` on the .dag writes, and `pets check` accepts each schedule
 * against the other input. */
START_TEST(direct_equals_import)
{
    const char *fmt = g_cases[_i].format, *opts = g_cases[_i].opts;
    const char *data = tu_data(g_cases[_i].file);
    if (!data || access(data, R_OK) != 0)
        PC_SKIP("no shared data");
    if (!pets_import_available(fmt))
        PC_SKIP("importer not in this build");
    char file[4096];
    snprintf(file, sizeof file, "%s", data);
    static const char *const policy[] = {"--insertion", "--append"};
    ck_assert_int_eq(run(NULL, NULL, "dag import %s %s %s -o %s/g.dag", fmt, file, opts, g_dir), 0);
    for (int k = 0; k < 2; k++) {
        ck_assert_int_eq(run(NULL, NULL, "pets %s/g.dag --impl serial --reps 1 %s --out-schedule %s/a.csv",
                             g_dir, policy[k], g_dir),
                         0);
        ck_assert_int_eq(run(NULL, NULL, "pets %s %s --impl serial --reps 1 %s --out-schedule %s/b.csv",
                             file, opts, policy[k], g_dir),
                         0);
        char a[200], b[200];
        snprintf(a, sizeof a, "%s/a.csv", g_dir);
        snprintf(b, sizeof b, "%s/b.csv", g_dir);
        char *ta = slurp(a), *tb = slurp(b);
        ck_assert_msg(strlen(ta) > strlen("task,proc,start,finish\n"), "empty schedule from the .dag");
        ck_assert_msg(strcmp(ta, tb) == 0, "%s %s: direct input scheduled differently", fmt, policy[k]);
        pc_free(ta);
        pc_free(tb);
        ck_assert_int_eq(run(NULL, NULL, "pets check %s %s --schedule %s", file, opts, a), 0);
        ck_assert_int_eq(run(NULL, NULL, "pets check %s/g.dag --schedule %s", g_dir, b), 0);
    }
    /* another seed gives other costs, so the option really reaches the importer */
    if (strstr(opts, "--eta 0.5 --seed 4")) {
        char *out = NULL;
        ck_assert_int_eq(run(&out, NULL, "pets check %s --procs 3 --eta 0.5 --seed 5 --schedule %s/a.csv",
                             file, g_dir),
                         1);
        ck_assert_ptr_nonnull(strstr(out, "duration"));
        free(out);
    }
}
END_TEST

/* --procs is what an import cannot guess: its absence names it. */
START_TEST(procs_required)
{
    const char *data = tu_data(g_cases[_i].file);
    if (!data || access(data, R_OK) != 0)
        PC_SKIP("no shared data");
    char file[4096];
    snprintf(file, sizeof file, "%s", data);
    static const char *const verbs[] = {"pets %s --impl serial", "pets check %s --schedule /dev/null"};
    for (int k = 0; k < 2; k++) {
        char *err = NULL, args[4200];
        snprintf(args, sizeof args, verbs[k], file);
        ck_assert_int_eq(run(NULL, &err, "%s", args), 2);
        ck_assert_msg(strstr(err, "--procs P is required") != NULL, "stderr: %s", err);
        ck_assert_msg(strstr(err, file) != NULL, "stderr: %s", err);
        free(err);
    }
}
END_TEST

/* A .dag names its processors (--procs is refused) and keeps its own
 * messages; a file of no known format gets the list of formats. */
START_TEST(dag_and_unknown_files)
{
    char p[200], *err = NULL;
    snprintf(p, sizeof p, "%s/g.dag", g_dir);
    FILE *f = fopen(p, "w");
    ck_assert_ptr_nonnull(f);
    fputs("# a comment first\ntasks 2 processors 1\ncost 1 1\ncost 2 x\n", f);
    ck_assert_int_eq(fclose(f), 0);
    ck_assert_int_eq(run(NULL, &err, "pets %s --procs 2", p), 2);
    ck_assert_msg(strstr(err, "--procs applies to STG, WfCommons and DAX input only") != NULL, "%s", err);
    free(err);
    ck_assert_int_eq(run(NULL, &err, "pets %s", p), 2);
    ck_assert_msg(strstr(err, ":4: cost: 'x' is not a whole number") != NULL, "%s", err);
    free(err);
    snprintf(p, sizeof p, "%s/g.txt", g_dir);
    f = fopen(p, "w");
    ck_assert_ptr_nonnull(f);
    fputs("\n\nhello world\n", f);
    ck_assert_int_eq(fclose(f), 0);
    ck_assert_int_eq(run(NULL, &err, "pets check %s --schedule /dev/null", p), 2);
    char want[300];
    snprintf(want, sizeof want, "%s:3: not a task graph parcheck reads", p);
    ck_assert_msg(strstr(err, want) != NULL, "%s", err);
    ck_assert_msg(strstr(err, "STG") && strstr(err, "WfCommons") && strstr(err, "DAX"), "%s", err);
    free(err);
}
END_TEST

/* PARCHECK_FAIL_ALLOC=N on each allocation of `pets FILE` for every
 * format: a clean exit naming the failure, never a crash, until the run
 * needs no more allocations and passes. */
START_TEST(direct_alloc_failures)
{
    const char *fmt = g_cases[_i].format, *opts = g_cases[_i].opts;
    const char *data = tu_data(g_cases[_i].file);
    if (!data || access(data, R_OK) != 0)
        PC_SKIP("no shared data");
    if (!pets_import_available(fmt))
        PC_SKIP("importer not in this build");
    int n = 1;
    for (; n < 2000; n++) {
        char *out = NULL, *err = NULL, cmd[8192];
        snprintf(cmd, sizeof cmd, "PARCHECK_FAIL_ALLOC=%d %s pets %s %s --impl serial --reps 1", n,
                 pc_test_bin(), data, opts);
        int rc = pc_test_shell(cmd, &out, &err);
        if (rc == 0) {
            free(out);
            free(err);
            break;
        }
        /* reading and the oracle fail on stderr; a failed implementation
         * is a row of the table whose reason says so */
        ck_assert_msg(rc == 1 || rc == 2, "%s, allocation %d: exit %d: %s", fmt, n, rc, err);
        ck_assert_msg(strstr(err, "out of memory") || strstr(out, "out of memory"),
                      "%s, allocation %d: %s%s", fmt, n, out, err);
        free(out);
        free(err);
    }
    ck_assert_int_gt(n, 5);
    ck_assert_int_lt(n, 2000);
}
END_TEST

static Suite *suite_graphs(void)
{
    Suite *s = suite_create("pets_cli_graphs");
    TCase *tc = pc_tcase("graphs");
    tcase_add_checked_fixture(tc, dir_setup, dir_teardown);
    int n = (int)(sizeof g_cases / sizeof *g_cases);
    tcase_add_loop_test(tc, direct_equals_import, 0, n);
    tcase_add_loop_test(tc, procs_required, 0, n);
    tcase_add_test(tc, dag_and_unknown_files);
    tcase_add_loop_test(tc, direct_alloc_failures, 0, n);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return pc_test_run(suite_graphs()); }
