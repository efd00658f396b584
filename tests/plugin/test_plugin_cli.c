/* Plugins through the command line, as a user runs them: every example
 * gets the verdict it deserves in the table, the JSON and the exit code
 * (spmm_omp_ok passes, spmm_omp_race fails with its location, spmm_segv crashes
 * with SIGSEGV while every built-in beside it still passes, a hanging
 * plugin times out, sa_divsufsort passes, pets_naive is valid but not
 * PETS's schedule, spmm_cuda is skipped without a GPU); bad plugins exit 2
 * with the loader's message; --no-fork gives the same verdicts; `list`
 * and `bench spmm` show the entries as plugins.
 *
 * The examples are in $(BUILD)/examples and the test plugins (tp_*.so)
 * next to this executable: `make tests` builds both (tests/plugin/module.mk). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pc_test.h"
#include "pc_time.h"
#include "plugin_paths.h"

#define DIR "build/test-tmp/plugin-cli"

/* Runs `parcheck <fmt ...>` and returns its stdout (free it); *rc gets the
 * exit status, *err stderr (free it) unless err is NULL. */
static char *run_v(int *rc, char **err, const char *fmt, va_list ap)
{
    char args[12288], cmd[16384];
    vsnprintf(args, sizeof args, fmt, ap);
    snprintf(cmd, sizeof cmd, "%s %s", pc_test_bin(), args);
    char *out = NULL, *e = NULL;
    *rc = pc_test_shell(cmd, &out, &e);
    ck_assert_msg(out && e, "%s: output not captured", args);
    if (err)
        *err = e;
    else
        free(e);
    return out;
}

/* run_v with the exit status returned in *rc. */
static char *run_any(int *rc, char **err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *out = run_v(rc, err, fmt, ap);
    va_end(ap);
    return out;
}

/* run_v, asserting that the exit status is code. */
static char *expect(int code, char **err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc;
    char *e = NULL;
    char *out = run_v(&rc, &e, fmt, ap);
    va_end(ap);
    ck_assert_msg(rc == code, "exit %d, not %d\n%.3000s%.1000s", rc, code, out, e);
    if (err)
        *err = e;
    else
        free(e);
    return out;
}

/* The line of text holding needle, copied into a static buffer ("" when
 * none holds it). */
static const char *line_with(const char *text, const char *needle)
{
    static char line[4096];
    line[0] = '\0';
    const char *hit = strstr(text, needle);
    if (!hit)
        return line;
    const char *b = hit;
    while (b > text && b[-1] != '\n')
        b--;
    const char *e = strchr(hit, '\n');
    size_t len = e ? (size_t)(e - b) : strlen(b);
    snprintf(line, sizeof line, "%.*s", (int)len, b);
    return line;
}

/* Asserts the table row of impl exists and holds every word of want[]. */
static void assert_row(const char *out, const char *impl, const char *const *want)
{
    char key[128];
    snprintf(key, sizeof key, "%s ", impl);
    const char *l = line_with(out, key);
    ck_assert_msg(l[0] == key[0], "no row '%s' in:\n%.3000s", impl, out);
    for (; *want; want++)
        ck_assert_msg(strstr(l, *want), "row '%s' lacks '%s': %s", impl, *want, l);
}

/* A 6 x 5 matrix whose row 4 is empty (where spmm_segv dereferences NULL),
 * integer values: every correct kernel is exact. */
static void write_matrix(void)
{
    ck_assert_int_eq(system("mkdir -p " DIR), 0);
    FILE *f = fopen(DIR "/a.mtx", "w");
    ck_assert_ptr_nonnull(f);
    fputs("%%MatrixMarket matrix coordinate integer general\n6 5 9\n"
          "1 1 2\n1 4 -1\n2 2 3\n3 3 4\n3 5 5\n5 1 -6\n6 2 1\n6 3 -2\n6 5 7\n",
          f);
    ck_assert_int_eq(fclose(f), 0);
}

/* ---- SpMM ------------------------------------------------------------------ */

START_TEST(test_spmm_omp_ok_passes)
{
    write_matrix();
    char *out = expect(0, NULL, "spmm " DIR "/a.mtx --k 3 --plugin %s --impl spmm-omp-ok%s",
                       example("spmm_omp_ok"), _i ? " --no-fork" : "");
    assert_row(out, "spmm-omp-ok [plugin]", (const char *const[]){"pass", "GFLOP/s", NULL});
    ck_assert_msg(!strstr(out, "csr-omp "), "only the entry named runs:\n%.3000s", out);
    free(out);
}
END_TEST

START_TEST(test_spmm_json_marks_the_plugin)
{
    write_matrix();
    char *out = expect(0, NULL, "spmm " DIR "/a.mtx --k 3 --reps 2 --plugin %s "
                                "--impl csr-serial,spmm-omp-ok --json -", example("spmm_omp_ok"));
    static const char *const want[] = {
        "{\"impl\":\"spmm-omp-ok\",\"status\":\"pass\",\"reason\":\"\"", "\"reps\":2,",
        "\"metrics\":{\"plugin\":\"spmm_omp_ok.so\",\"max_rel_err\":0,", "\"exact_required\":true",
        "\"first_s\":"};
    for (size_t k = 0; k < sizeof want / sizeof *want; k++)
        ck_assert_msg(strstr(out, want[k]), "JSON lacks %s:\n%.3000s", want[k], out);
    /* the built-in row has no plugin marker, and "[plugin]" is the table's */
    const char *b = strstr(out, "{\"impl\":\"csr-serial\"");
    ck_assert_ptr_nonnull(b);
    ck_assert_msg(strstr(b, "\"plugin\"") > strstr(b, "spmm-omp-ok"), "%.3000s", out);
    ck_assert_msg(!strstr(out, "[plugin]"), "%.3000s", out);
    free(out);
}
END_TEST

START_TEST(test_spmm_omp_race_fails_located)
{
    /* Two threads share one scratch row: over 1000 rows of 200 entries
     * their sums mix in nearly every run. A run where the scheduler kept
     * them apart passes (on a busy machine, often): --stress 50 adds fifty
     * validated runs at 1..2 x cores threads to each attempt, and three
     * attempts that all pass would mean the race is not seen. */
    ck_assert_int_eq(system("mkdir -p " DIR), 0);
    /* Waiting threads must spin: the test runner sets OMP_WAIT_POLICY=passive
     * while suites share the cores, and sleeping threads start the region one
     * after the other, which hides the race in every run (seen in CI). */
    setenv("OMP_WAIT_POLICY", "active", 1);
    free(expect(0, NULL, "gen matrix --rows 1000 --cols 1000 --nnz 200000 --shape uniform "
                         "--seed 3 -o " DIR "/race.mtx"));
    int failed = 0;
    for (int attempt = 0; attempt < 3 && !failed; attempt++) {
        int rc;
        char *out = run_any(&rc, NULL, "spmm " DIR "/race.mtx --k 4 --threads 4 --plugin %s "
                                       "--impl spmm-omp-race --stress 50 --json -", example("spmm_omp_race"));
        int pass = strstr(out, "{\"impl\":\"spmm-omp-race\",\"status\":\"pass\"") != NULL;
        failed = strstr(out, "{\"impl\":\"spmm-omp-race\",\"status\":\"fail\"") != NULL;
        ck_assert_msg(pass != failed, "neither pass nor fail:\n%.3000s", out);
        ck_assert_int_eq(rc, pass ? 0 : 1);
        if (failed) /* located: the first wrong entries, 1-based */
            ck_assert_msg(strstr(out, "\"where\":[{\"row\":") && strstr(out, "\"where_summary\":\"row"),
                          "a failure without its location:\n%.3000s", out);
        free(out);
    }
    ck_assert_msg(failed, "the race of spmm_omp_race went unseen in 3 runs");
}
END_TEST

START_TEST(test_spmm_segv_crashes_alone)
{
    write_matrix();
    double t0 = pc_time_now();
    char *out = expect(1, NULL, "spmm " DIR "/a.mtx --k 3 --plugin %s --impl all",
                       example("spmm_segv"));
    ck_assert_msg(pc_time_now() - t0 < 60, "took %.1f s", pc_time_now() - t0);
    assert_row(out, "spmm-segv [plugin]",
               (const char *const[]){"crashed", "SIGSEGV in run 1 of 6", "NULL", NULL});
    /* every built-in still ran: each CPU one passed, the others are skipped */
    static const char *const cpu[] = {"csr-serial", "ell-serial", "ellnp-serial", "csr-omp",
                                      "ell-omp",    "ellnp-omp"};
    for (size_t k = 0; k < sizeof cpu / sizeof *cpu; k++)
        assert_row(out, cpu[k], (const char *const[]){"pass", NULL});
    ck_assert_msg(!strstr(out, " fail ") && !strstr(out, " error "), "%.3000s", out);
    free(out);
    out = expect(1, NULL, "spmm " DIR "/a.mtx --k 3 --plugin %s --impl spmm-segv --json -",
                 example("spmm_segv"));
    ck_assert_msg(strstr(out, "{\"impl\":\"spmm-segv\",\"status\":\"crashed\",\"reason\":\"SIGSEGV"),
                  "%.3000s", out);
    ck_assert_msg(strstr(out, "\"signal\":11"), "%.3000s", out);
    free(out);
}
END_TEST

START_TEST(test_hanging_plugin_times_out)
{
    write_matrix();
    double t0 = pc_time_now();
    char *out = expect(1, NULL, "spmm " DIR "/a.mtx --k 3 --plugin %s --impl tp-entry,csr-serial "
                                "--timeout 1", tp("hang"));
    double took = pc_time_now() - t0;
    ck_assert_msg(took >= 1 && took < 30, "took %.1f s", took); /* slack for memcheck */
    assert_row(out, "tp-entry [plugin]",
               (const char *const[]){"timeout", "no answer within 1 s in run 1 of 6", NULL});
    assert_row(out, "csr-serial", (const char *const[]){"pass", NULL});
    free(out);
}
END_TEST

/* Test plugins whose run ends in a way the table must name. */
typedef struct fate {
    const char *variant, *status, *says;
    int code;
} fate;

static const fate g_fates[] = {
    {"exit3", "crashed", "exited with status 3 in run 1 of 6", 1},
    {"nowrite", "fail", "never written", 1},
    {"fail", "error", "run 1 of 6 returned EUNSUP: K = 3 is not supported", 1},
    {"write_input", "crashed", "a write to input 'ja', which is read-only", 1},
    {"unavail", "skipped", "no such device here", 3},
    {"fp32", "pass", "", 0},
    {"ell", "pass", "", 0},
};

START_TEST(test_test_plugins_get_their_status)
{
    write_matrix();
    const fate *f = &g_fates[_i];
    char *out = expect(f->code, NULL, "spmm " DIR "/a.mtx --k 3 --plugin %s --impl tp-entry",
                       tp(f->variant));
    assert_row(out, "tp-entry [plugin]", (const char *const[]){f->status, f->says, NULL});
    free(out);
}
END_TEST

START_TEST(test_fp32_entry_judged_in_single_precision)
{
    write_matrix();
    char *out = expect(0, NULL, "spmm " DIR "/a.mtx --k 3 --plugin %s --impl tp-entry --json -",
                       tp("fp32"));
    ck_assert_msg(strstr(out, "\"status\":\"pass\""), "%.3000s", out);
    ck_assert_msg(strstr(out, "\"unit_roundoff\":5.9604644775390625e-08"), "%.3000s", out);
    ck_assert_msg(strstr(out, "\"precision\":\"fp32\""), "%.3000s", out);
    free(out);
}
END_TEST

START_TEST(test_spmm_cuda_skipped_without_gpu)
{
    if (access(example("spmm_cuda"), R_OK) != 0)
        PC_SKIP("spmm_cuda.so not built (no nvcc)");
    write_matrix();
    int rc;
    char *out = run_any(&rc, NULL, "spmm " DIR "/a.mtx --k 3 --plugin %s --impl spmm-cuda",
                        example("spmm_cuda"));
    const char *l = line_with(out, "spmm-cuda [plugin]");
    if (strstr(l, " pass ")) { /* the GPU machine */
        ck_assert_int_eq(rc, 0);
    } else {
        /* named explicitly and unable to run here: exit 3, as a built-in */
        ck_assert_msg(rc == 3, "exit %d\n%.3000s", rc, out);
        assert_row(out, "spmm-cuda [plugin]", (const char *const[]){"skipped", "CUDA", NULL});
    }
    free(out);
}
END_TEST

/* ---- refusals ---------------------------------------------------------------- */

typedef struct refusal {
    const char *cmd;     /* the command and its input */
    const char *prefix;  /* how stderr begins */
    const char *plugin;  /* test plugin variant, or a path when it has a '/' */
    const char *says;
} refusal;

static const refusal g_refusals[] = {
    {"spmm " DIR "/a.mtx", "parcheck spmm: ", "abi2",
     "built for plugin ABI 2, but this parcheck loads ABI 1..1"},
    {"spmm " DIR "/a.mtx", "parcheck spmm: ", "/nonexistent/x.so",
     "/nonexistent/x.so: No such file or directory"},
    {"spmm " DIR "/a.mtx", "parcheck spmm: ", "clash", "entry 'csr-omp' has the name of a built-in"},
    {"sa " DIR "/a.mtx", "parcheck sa: ", "/nonexistent/x.so", "No such file or directory"},
    {"pets " DIR "/a.mtx", "parcheck pets: ", "abi2", "built for plugin ABI 2"},
    {"list", "parcheck list: ", "abi2", "built for plugin ABI 2"},
    {"bench spmm --rows 100", "parcheck bench spmm: ", "abi2", "built for plugin ABI 2"},
};

START_TEST(test_bad_plugins_exit_2)
{
    write_matrix();
    const refusal *r = &g_refusals[_i];
    const char *path = strchr(r->plugin, '/') ? r->plugin : tp(r->plugin);
    char *err;
    char *out = expect(2, &err, "%s --plugin %s", r->cmd, path);
    ck_assert_msg(!strncmp(err, r->prefix, strlen(r->prefix)), "'%s' lacks '%s'", err, r->prefix);
    ck_assert_msg(strstr(err, path) && strstr(err, r->says), "'%s' lacks '%s'", err, r->says);
    ck_assert_msg(out[0] == '\0', "stdout not empty:\n%.3000s", out);
    free(out);
    free(err);
}
END_TEST

START_TEST(test_bad_plugin_options_exit_2)
{
    write_matrix();
    static const char *const bad[] = {"--timeout -1", "--timeout x", "--timeout", "--plugin"};
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        char *err;
        free(expect(2, &err, "spmm " DIR "/a.mtx %s", bad[k]));
        ck_assert_msg(strstr(err, bad[k][2] == 't' ? "--timeout" : "--plugin"), "%s: %s", bad[k], err);
        free(err);
    }
    char *err;
    free(expect(2, &err, "spmm " DIR "/a.mtx --plugin %s --impl no-such", example("spmm_omp_ok")));
    ck_assert_msg(strstr(err, "unknown implementation 'no-such'") && strstr(err, "spmm-omp-ok"),
                  "the plugin's entries are among the known names: %s", err);
    free(err);
}
END_TEST

/* ---- SA and PETS ---------------------------------------------------------------- */

START_TEST(test_sa_divsufsort_passes)
{
    if (access(example("sa_divsufsort"), R_OK) != 0)
        PC_SKIP("sa_divsufsort.so not built (libdivsufsort not installed)");
    ck_assert_int_eq(system("mkdir -p " DIR), 0);
    free(expect(0, NULL, "gen text --bytes 20000 --kind text --seed 2 -o " DIR "/t.txt"));
    char *out = expect(0, NULL, "sa " DIR "/t.txt --impl seq,sa-divsufsort --reps 2 --plugin %s%s",
                       example("sa_divsufsort"), _i ? " --no-fork" : "");
    assert_row(out, "sa-divsufsort [plugin]", (const char *const[]){"pass", "yes", "MB/s", NULL});
    /* the same longest repeat as the built-in */
    char lrs[64];
    ck_assert(sscanf(line_with(out, "seq "), "seq pass yes yes %63s", lrs) == 1);
    assert_row(out, "sa-divsufsort [plugin]", (const char *const[]){lrs, NULL});
    free(out);
    out = expect(0, NULL, "sa " DIR "/t.txt --impl sa-divsufsort --plugin %s --json -",
                 example("sa_divsufsort"));
    ck_assert_msg(strstr(out, "\"metrics\":{\"plugin\":\"sa_divsufsort.so\",\"sa_equal\":true,"
                              "\"lcp_equal\":true"), "%.3000s", out);
    free(out);
}
END_TEST

START_TEST(test_pets_naive_valid_but_not_pets)
{
    ck_assert_int_eq(system("mkdir -p " DIR), 0);
    free(expect(0, NULL, "gen dag --tasks 300 --out-degree 3 --alpha 1 --ccr 1 --eta 0.5 "
                         "--procs 4 --seed 5 -o " DIR "/g.dag"));
    char *out = expect(1, NULL, "pets " DIR "/g.dag --impl serial,pets-naive --plugin %s%s",
                       example("pets_naive"), _i ? " --no-fork" : "");
    assert_row(out, "serial", (const char *const[]){"pass", NULL});
    assert_row(out, "pets-naive [plugin]",
               (const char *const[]){"fail", "differs from the oracle: schedule (a valid one",
                                     "tasks/s", NULL});
    free(out);
    out = expect(1, NULL, "pets " DIR "/g.dag --impl pets-naive --plugin %s --json -",
                 example("pets_naive"));
    ck_assert_msg(strstr(out, "\"metrics\":{\"plugin\":\"pets_naive.so\",\"schedule_equal\":false,"
                              "\"schedule_valid\":true,\"makespan\":"), "%.3000s", out);
    ck_assert_msg(strstr(out, "\"lower_bound\":") && strstr(out, "\"slr\":"), "%.3000s", out);
    ck_assert_msg(!strstr(out, "\"where\""), "a valid schedule has no violation: %.3000s", out);
    free(out);
}
END_TEST

/* ---- allocation failures ---------------------------------------------------------- */

/* The commands of each domain with a plugin, every allocation made to fail
 * in turn (PARCHECK_FAIL_ALLOC=N reaches the worker too, R7): each run
 * ends with exit 0, 1 or 2, never a crash, and one that differs from the
 * run without a failure says why, until N passes the last allocation
 * (pets-naive fails its row: that command's own exit is 1). */
START_TEST(test_allocation_failures_end_cleanly)
{
    write_matrix();
    free(expect(0, NULL, "gen text --bytes 300 --kind text --seed 2 -o " DIR "/small.txt"));
    free(expect(0, NULL, "gen dag --tasks 20 --out-degree 2 --alpha 1 --ccr 1 --eta 0.5 --procs 3 "
                         "--seed 5 -o " DIR "/small.dag"));
    /* the plugin entry alone: the built-ins' paths have suites of their own */
    static const char *const cmd[] = {
        "spmm " DIR "/a.mtx --k 2 --reps 1 --impl spmm-omp-ok --plugin %s",
        "pets " DIR "/small.dag --reps 1 --impl pets-naive --plugin %s",
        "sa " DIR "/small.txt --impl sa-divsufsort --plugin %s",
    };
    const char *so[] = {example("spmm_omp_ok"), example("pets_naive"), example("sa_divsufsort")};
    for (int c = 0; c < 3; c++) {
        if (access(so[c], R_OK) != 0)
            continue; /* sa_divsufsort.so needs libdivsufsort */
        int base, clean = 0, n;
        char *err;
        free(run_any(&base, &err, cmd[c], so[c]));
        ck_assert_msg(base <= 1 && !err[0], "%s: exit %d\n%s", cmd[c], base, err);
        free(err);
        for (n = 1; n < 600 && clean < 3; n++) {
            char env[32];
            snprintf(env, sizeof env, "%d", n);
            setenv("PARCHECK_FAIL_ALLOC", env, 1); /* parcheck's environment, not ours */
            int rc;
            char *out = run_any(&rc, &err, cmd[c], so[c]);
            unsetenv("PARCHECK_FAIL_ALLOC");
            ck_assert_msg(rc >= 0 && rc <= 2, "%s, allocation %d: exit %d (crash?)\n%.2000s",
                          cmd[c], n, rc, err);
            int oom = strstr(out, "out of memory") || strstr(err, "out of memory");
            ck_assert_msg(rc == base || err[0] || oom,
                          "%s, allocation %d: exit %d without a message", cmd[c], n, rc);
            clean = rc == base && !err[0] && !oom ? clean + 1 : 0;
            free(out);
            free(err);
        }
        ck_assert_msg(clean == 3, "%s: no clean run within %d allocations", cmd[c], n);
    }
}
END_TEST

/* ---- list and bench ---------------------------------------------------------------- */

START_TEST(test_list_shows_plugin_entries_under_their_domain)
{
    char *out = expect(0, NULL, "list --plugin %s --plugin %s", example("spmm_omp_ok"),
                       example("pets_naive"));
    const char *spmm = strstr(out, "\nspmm:\n"), *sa = strstr(out, "\nsa:\n"),
               *pets = strstr(out, "\npets:\n");
    ck_assert_msg(spmm && sa && pets, "%.3000s", out);
    const char *ok = strstr(out, "  spmm-omp-ok "), *naive = strstr(out, "  pets-naive ");
    ck_assert_msg(ok && ok > spmm && ok < sa, "spmm-omp-ok not under spmm:\n%.3000s", out);
    ck_assert_msg(naive && naive > pets, "pets-naive not under pets:\n%.3000s", out);
    const char *l = line_with(out, "  spmm-omp-ok ");
    ck_assert_msg(strstr(l, "available") && strstr(l, "OpenMP CSR SpMM") &&
                      strstr(l, "[plugin spmm_omp_ok.so]"),
                  "%s", l);
    free(out);
}
END_TEST

START_TEST(test_bench_marks_plugin_rows)
{
    char *err;
    /* one entry per row on average: empty rows, where spmm_segv crashes */
    char *out = expect(1, &err, "bench spmm --shape uniform --rows 3000 --per-row 1 --k 1,4 "
                                "--threads 1,2 --impl csr-omp --reps 2 --plugin %s --plugin %s",
                       example("spmm_omp_ok"), example("spmm_segv"));
    int rows = 0;
    for (const char *p = out; (p = strstr(p, "spmm,uniform-3000,spmm-omp-ok,")); p++)
        rows++;
    ck_assert_msg(rows == 4, "%d spmm-omp-ok rows:\n%.3000s", rows, out);
    const char *l = line_with(out, "spmm-omp-ok,2,K=4,");
    ck_assert_msg(strstr(l, ",GFLOP/s,") && strstr(l, " GB/s plugin=spmm_omp_ok.so"), "%s", l);
    ck_assert_msg(strstr(out, "spmm,uniform-3000,csr-omp,2,K=4,"), "built-in rows:\n%.3000s", out);
    ck_assert_msg(!strstr(out, "spmm-segv,"), "%.3000s", out);
    ck_assert_msg(strstr(err, "bench: spmm-segv [plugin spmm_segv.so] crashed: SIGSEGV"), "%s", err);
    free(out);
    free(err);
}
END_TEST

static Suite *suite_plugin_cli(void)
{
    Suite *s = suite_create("plugin-cli");
    TCase *tc = pc_tcase("spmm");
    /* _i = 0: through the worker, 1: --no-fork */
    tcase_add_loop_test(tc, test_spmm_omp_ok_passes, 0, 2);
    tcase_add_test(tc, test_spmm_json_marks_the_plugin);
    tcase_add_test(tc, test_spmm_omp_race_fails_located);
    tcase_add_test(tc, test_spmm_segv_crashes_alone);
    tcase_add_test(tc, test_hanging_plugin_times_out);
    tcase_add_loop_test(tc, test_test_plugins_get_their_status, 0,
                        (int)(sizeof g_fates / sizeof *g_fates));
    tcase_add_test(tc, test_fp32_entry_judged_in_single_precision);
    tcase_add_test(tc, test_spmm_cuda_skipped_without_gpu);
    suite_add_tcase(s, tc);

    tc = pc_tcase("refusals");
    tcase_add_loop_test(tc, test_bad_plugins_exit_2, 0,
                        (int)(sizeof g_refusals / sizeof *g_refusals));
    tcase_add_test(tc, test_bad_plugin_options_exit_2);
    suite_add_tcase(s, tc);

    tc = pc_tcase("sa-pets");
    tcase_add_loop_test(tc, test_sa_divsufsort_passes, 0, 2);
    tcase_add_loop_test(tc, test_pets_naive_valid_but_not_pets, 0, 2);
    suite_add_tcase(s, tc);

    tc = pc_tcase("alloc");
    tcase_add_test(tc, test_allocation_failures_end_cleanly);
    suite_add_tcase(s, tc);

    tc = pc_tcase("list-bench");
    tcase_add_test(tc, test_list_shows_plugin_entries_under_their_domain);
    tcase_add_test(tc, test_bench_marks_plugin_rows);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    plugin_paths_init();
    return pc_test_run(suite_plugin_cli());
}
