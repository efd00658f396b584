/* test_cli.c - `parcheck pets`, `gen dag`, `dag import`, `pets check` and
 * `--out-schedule`: exit codes of docs/ARCHITECTURE.md §4, file:line
 * messages, the JSON object and its where records. */
#include <stdarg.h>
#include <stdlib.h>
#include <unistd.h>

#include "pc_alloc.h"
#include "pc_file.h"
#include "pets_tutil.h"

static int sh(char **out, char **err, const char *fmt, const char *a, const char *b)
{
    char cmd[8192];
    snprintf(cmd, sizeof cmd, fmt, pc_test_bin(), a ? a : "", b ? b : "");
    return pc_test_shell(cmd, out, err);
}

/* Creates a file from the mkstemp template path, holding text. */
static void write_temp(char *path, const char *text)
{
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(write(fd, text, strlen(text)), (int)strlen(text));
    close(fd);
}

START_TEST(json_golden)
{
    const char *g = tu_data("golden/topcuoglu2002.txt");
    if (!g)
        PC_SKIP("no shared data");
    char *out = NULL;
    int rc = sh(&out, NULL, "%s pets %s --impl all --reps 2 --json -%s", g, NULL);
    ck_assert_int_eq(rc, 0);
    ck_assert_ptr_nonnull(strstr(out, "\"domain\":\"pets\""));
    ck_assert_ptr_nonnull(strstr(out, "\"tasks\":10"));
    ck_assert_ptr_nonnull(strstr(out, "\"makespan\":76"));
    ck_assert_ptr_nonnull(strstr(out, "\"schedule_equal\":true"));
    ck_assert_ptr_nonnull(strstr(out, "\"unit\":\"tasks/s\""));
    ck_assert_ptr_null(strstr(out, "\"status\":\"fail\""));
    free(out);
    rc = sh(&out, NULL, "%s pets %s --impl serial --append --json -%s", g, NULL);
    ck_assert_int_eq(rc, 0);
    ck_assert_ptr_nonnull(strstr(out, "\"makespan\":89"));
    free(out);
}
END_TEST

START_TEST(select_and_threads_options)
{
    const char *g = tu_data("golden/topcuoglu2002.txt");
    if (!g)
        PC_SKIP("no shared data");
    char *out = NULL;
    int rc = sh(&out, NULL, "%s pets %s --impl serial,omp --select linear --threads 3 --reps 1 --json -%s", g,
                NULL);
    ck_assert_int_eq(rc, 0);
    ck_assert_ptr_nonnull(strstr(out, "\"select\":\"linear\""));
    ck_assert_ptr_nonnull(strstr(out, "\"threads\":3"));
    ck_assert_ptr_nonnull(strstr(out, "\"impl\":\"omp\""));
    ck_assert_ptr_nonnull(strstr(out, "\"makespan\":76"));
    ck_assert_ptr_null(strstr(out, "\"status\":\"fail\""));
    free(out);
    rc = sh(&out, NULL, "%s pets %s --impl omp --reps 1 --json -%s", g, NULL);
    ck_assert_int_eq(rc, 0);
    ck_assert_ptr_nonnull(strstr(out, "\"select\":\"gaps\""));
    free(out);
    char gold[4096];
    snprintf(gold, sizeof gold, "%s", g);
    ck_assert_int_eq(sh(NULL, NULL, "%s pets %s --select quadratic%s", gold, NULL), 2);
    ck_assert_int_eq(sh(NULL, NULL, "%s pets %s --threads 0%s", gold, NULL), 2);
}
END_TEST

START_TEST(exit_codes)
{
    const char *g = tu_data("golden/pets_fig1.txt");
    if (!g)
        PC_SKIP("no shared data");
    char gold[4096];
    snprintf(gold, sizeof gold, "%s", g);
    char *err = NULL;
    /* the help lists the OpenCL devices: at least one where ocl can run */
    char *help = NULL;
    ck_assert_int_eq(sh(&help, NULL, "%s pets --help%s%s", NULL, NULL), 0);
    pets_options o = {PETS_INSERTION, -1, -1, 0, PETS_SELECT_GAPS};
    char why[256] = "";
    if (pets_impl_find("ocl")->available(&o, why, sizeof why))
        ck_assert_msg(strstr(help, "\n  opencl 0.0: ") != NULL, "%s", help);
    free(help);
    ck_assert_int_eq(sh(NULL, NULL, "%s pets %s --impl serial%s", gold, NULL), 0);
    ck_assert_int_eq(sh(NULL, NULL, "%s pets %s --impl nosuch%s", gold, NULL), 2);
    ck_assert_int_eq(sh(NULL, NULL, "%s pets %s --reps 0%s", gold, NULL), 2);
    ck_assert_int_eq(sh(NULL, NULL, "%s pets %s --bogus%s", gold, NULL), 2);
    ck_assert_int_eq(sh(NULL, NULL, "%s pets%s%s", NULL, NULL), 2);
    ck_assert_int_eq(sh(NULL, &err, "%s pets /nonexistent/x.dag%s%s", NULL, NULL), 2);
    ck_assert_ptr_nonnull(strstr(err, "/nonexistent/x.dag"));
    free(err);
    /* an explicitly requested implementation that cannot run: 3 */
    ck_assert_int_eq(sh(NULL, NULL, "%s pets %s --impl ocl --cl-platform 999%s", gold, NULL), 3);
    /* through all, it is only skipped */
    ck_assert_int_eq(sh(NULL, NULL, "%s pets %s --impl all --cl-platform 999%s", gold, NULL), 0);
#if PC_HAVE_OPENCL
    /* a device index past the platform's devices is named as such (where
     * the machine has an OpenCL platform at all) */
    char *out = NULL;
    ck_assert_int_eq(sh(&out, NULL, "%s pets %s --impl ocl --cl-platform 0 --cl-device 99%s", gold, NULL), 3);
    if (!strstr(out, "no OpenCL platform"))
        ck_assert_msg(strstr(out, "(--cl-device 99: platform 0 has "), "%s", out);
    free(out);
#endif
}
END_TEST

START_TEST(bad_dag_message)
{
    char path[] = "/tmp/pets-cli-XXXXXX";
    write_temp(path, "tasks 2 processors 1\ncost 1 1\ncost 2 1\nedge 1 2 0\nedge 2 1 0\n");
    char *err = NULL;
    ck_assert_int_eq(sh(NULL, &err, "%s pets %s%s", path, NULL), 2);
    char want[64];
    snprintf(want, sizeof want, "%s:", path);
    ck_assert_ptr_nonnull(strstr(err, want));
    ck_assert_ptr_nonnull(strstr(err, "cycle"));
    free(err);
    unlink(path);
}
END_TEST

/* libxml2 raises encoding errors outside the parser: the user still gets
 * one `file:line: cause` line and nothing else on stderr. */
START_TEST(dax_encoding_message)
{
    if (!pets_import_available("dax"))
        PC_SKIP("built without libxml2");
    char path[] = "/tmp/pets-cli-XXXXXX";
    write_temp(path, "<?xml version=\"1.0\" encoding=\"EUC-JP\"?>\n"
                     "<adag><job id=\"\xff\xff\xff\xff\" runtime=\"1\"/></adag>\n");
    char *err = NULL;
    ck_assert_int_eq(sh(NULL, &err, "%s dag import dax %s --procs 2 -o /dev/null%s", path, NULL), 2);
    char want[96];
    snprintf(want, sizeof want, "%s:2: XML: input conversion failed", path);
    ck_assert_msg(strncmp(err, want, strlen(want)) == 0, "stderr: %s", err);
    ck_assert_msg(strchr(err, '\n') == err + strlen(err) - 1, "more than one line: %s", err);
    free(err);
    unlink(path);
}
END_TEST

START_TEST(gen_and_import)
{
    char dir[] = "/tmp/pets-cli-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char f[512], cmd_out[512];
    snprintf(f, sizeof f, "%s/g.dag", dir);
    ck_assert_int_eq(sh(NULL, NULL,
                        "%s gen dag --tasks 300 --out-degree 2 --alpha 0.5 --ccr 5 --eta 1 --procs 5 --seed 9 -o %s%s",
                        f, NULL),
                     0);
    ck_assert_int_eq(sh(NULL, NULL, "%s pets %s --impl all --reps 1%s", f, NULL), 0);
    ck_assert_int_eq(sh(NULL, NULL, "%s gen dag --tasks 0 -o %s%s", f, NULL), 2);
    /* every parameter has its default: the graph without --seed is the one
     * of --seed 1, and another seed gives another graph */
    char a[560], b[560], c0[560];
    snprintf(a, sizeof a, "%s/dflt.dag", dir);
    snprintf(b, sizeof b, "%s/seed1.dag", dir);
    snprintf(c0, sizeof c0, "%s/seed0.dag", dir);
    ck_assert_int_eq(sh(NULL, NULL, "%s gen dag --tasks 40 -o %s%s", a, NULL), 0);
    ck_assert_int_eq(sh(NULL, NULL, "%s gen dag --tasks 40 --seed 1 -o %s%s", b, NULL), 0);
    ck_assert_int_eq(sh(NULL, NULL, "%s gen dag --tasks 40 --seed 0 -o %s%s", c0, NULL), 0);
    char cmp[1800];
    snprintf(cmp, sizeof cmp, "cmp -s %s %s", a, b);
    ck_assert_msg(system(cmp) == 0, "gen dag without --seed is not --seed 1");
    snprintf(cmp, sizeof cmp, "cmp -s %s %s", a, c0);
    ck_assert_msg(system(cmp) != 0, "--seed 0 and --seed 1 give the same graph");
    ck_assert_int_eq(sh(NULL, NULL, "%s gen dag --tasks 10%s%s", NULL, NULL), 2);
    const char *stg = tu_data("stg/fft.stg");
    if (stg) {
        snprintf(cmd_out, sizeof cmd_out, "%s/fft.dag", dir);
        ck_assert_int_eq(sh(NULL, NULL, "%s dag import stg %s --procs 2 -o %s", stg, cmd_out), 0);
        ck_assert_int_eq(sh(NULL, NULL, "%s pets %s --reps 1%s", cmd_out, NULL), 0);
        ck_assert_int_eq(sh(NULL, NULL, "%s dag import stg %s -o %s", stg, cmd_out), 2); /* no --procs */
        ck_assert_int_eq(sh(NULL, NULL, "%s dag import csv %s --procs 2 -o %s", stg, cmd_out), 2);
    }
    ck_assert_int_eq(sh(NULL, NULL, "%s dag import stg /nonexistent.stg --procs 2 -o %s%s", f, NULL), 2);
    char *out = NULL;
    ck_assert_int_eq(sh(&out, NULL, "%s list%s%s", NULL, NULL), 0);
    ck_assert_ptr_nonnull(strstr(out, "ocl-vec8"));
    free(out);
    char rm[600];
    snprintf(rm, sizeof rm, "rm -rf %s", dir);
    ck_assert_int_eq(system(rm), 0);
}
END_TEST

/* The phases of the CPU implementations are timed, each its own: on a
 * graph of 3000 tasks every host phase takes some time (the clock counts
 * nanoseconds), and the device phases (setup, transfers) are 0. */
START_TEST(cpu_phase_timings)
{
    char dir[] = "/tmp/pets-phases-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char g[600];
    snprintf(g, sizeof g, "%s/g.dag", dir);
    ck_assert_int_eq(sh(NULL, NULL, "%s gen dag --tasks 3000 --seed 3 -o %s%s", g, NULL), 0);
    char *out = NULL;
    ck_assert_int_eq(sh(&out, NULL, "%s pets %s --impl serial,omp --reps 1 --json -%s", g, NULL), 0);
    static const char *const impls[] = {"serial", "omp"};
    static const char *const host[] = {"entry_s", "metrics_s", "sort_s", "select_s"};
    static const char *const device[] = {"setup_s", "h2d_s", "d2h_s"};
    for (int i = 0; i < 2; i++) {
        char key[64];
        snprintf(key, sizeof key, "\"impl\":\"%s\"", impls[i]);
        const char *row = strstr(out, key);
        ck_assert_msg(row != NULL, "no %s row: %s", impls[i], out);
        for (int h = 0; h < 4 + 3; h++) {
            const char *name = h < 4 ? host[h] : device[h - 4];
            snprintf(key, sizeof key, "\"%s\":", name);
            const char *at = strstr(row, key);
            ck_assert_msg(at != NULL, "%s: no %s", impls[i], name);
            double v = strtod(at + strlen(key), NULL);
            if (h < 4)
                ck_assert_msg(v > 0 && v < 60, "%s: %s = %g", impls[i], name, v);
            else
                ck_assert_msg(v == 0, "%s: %s = %g on the host", impls[i], name, v);
        }
    }
    free(out);
    char rm[700];
    snprintf(rm, sizeof rm, "rm -rf %s", dir);
    ck_assert_int_eq(system(rm), 0);
}
END_TEST

/* ---- parcheck pets check --------------------------------------------- */

/* Runs `parcheck ARGS` with ARGS formatted from fmt. */
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

/* Writes text to dir/name; returns the path in a static buffer of 4. */
static const char *put(const char *dir, const char *name, const char *text)
{
    static char paths[4][600];
    static int k;
    char *p = paths[k++ % 4];
    snprintf(p, 600, "%s/%s", dir, name);
    FILE *f = fopen(p, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    ck_assert_int_eq(fclose(f), 0);
    return p;
}

/* The integer after "key": in a JSON text (the first occurrence). */
static long long json_int(const char *json, const char *key)
{
    char k[80];
    snprintf(k, sizeof k, "\"%s\":", key);
    const char *p = strstr(json, k);
    ck_assert_msg(p != NULL, "no %s in %s", k, json);
    return strtoll(p + strlen(k), NULL, 10);
}

static void rm_dir(const char *dir)
{
    char rm[700];
    snprintf(rm, sizeof rm, "rm -rf %s", dir);
    ck_assert_int_eq(system(rm), 0);
}

/* The small graph of test_pets_check.c: 1 -> 2 (5), 1 -> 3 (1), 2 -> 4 (2),
 * 3 -> 4 (1), 5 isolated; 4 and 5 cost nothing. */
static const char *const CLI_DAG = "tasks 5 processors 2\n"
                                   "cost 1 2 3\ncost 2 3 1\ncost 3 2 2\ncost 4 0 0\ncost 5 0 0\n"
                                   "edge 1 2 5\nedge 1 3 1\nedge 2 4 2\nedge 3 4 1\n";
#define CLI_HEAD "task,proc,start,finish\n"

/* Each check test works in its own directory holding small.dag. */
static char g_dir[64];
static char g_small[600];

static void check_setup(void)
{
    snprintf(g_dir, sizeof g_dir, "/tmp/pets-check-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(g_dir));
    snprintf(g_small, sizeof g_small, "%s", put(g_dir, "small.dag", CLI_DAG));
}

static void check_teardown(void)
{
    rm_dir(g_dir);
}

/* Schedules that `parcheck pets --out-schedule` writes (CSV and JSON, both
 * policies) pass `pets check` with the oracle's makespan. */
START_TEST(check_reads_out_schedule)
{
    const char *dir = g_dir;
    char gen[600], sched[640], runj[640];
    snprintf(gen, sizeof gen, "%s/g.dag", dir);
    snprintf(runj, sizeof runj, "%s/run.json", dir);
    ck_assert_int_eq(run(NULL, NULL, "gen dag --tasks 300 --out-degree 3 --alpha 1 --ccr 2 --eta 0.5 "
                                     "--procs 4 --seed 5 -o %s",
                         gen),
                     0);
    const char *gold = tu_data("golden/topcuoglu2002.txt");
    const char *graphs[2] = {gen, gold};
    for (int gi = 0; gi < 2 && graphs[gi]; gi++)
        for (int policy = 0; policy < 2; policy++)
            for (int json = 0; json < 2; json++) {
                snprintf(sched, sizeof sched, "%s/s.%s", dir, json ? "json" : "csv");
                ck_assert_int_eq(run(NULL, NULL, "pets %s --impl serial %s --out-schedule %s --json %s",
                                     graphs[gi], policy ? "--append" : "--insertion", sched, runj),
                                 0);
                unsigned char *rj;
                size_t len;
                ck_assert_int_eq(pc_file_read_all(runj, 1 << 20, &rj, &len, NULL), 0);
                long long want = json_int((const char *)rj, "oracle_makespan");
                pc_free(rj);
                if (gi == 1)
                    ck_assert_int_eq(want, policy ? 89 : 76);
                if (json) { /* the header names the policy the schedule was made with */
                    unsigned char *sj;
                    ck_assert_int_eq(pc_file_read_all(sched, 1 << 24, &sj, &len, NULL), 0);
                    ck_assert_msg(strstr((const char *)sj, policy ? ",\"policy\":\"append\",\"tasks\":"
                                                                  : ",\"policy\":\"insertion\",\"tasks\":"),
                                  "%.300s", (const char *)sj);
                    pc_free(sj);
                }
                char *out = NULL, *err = NULL;
                int rc = run(&out, &err, "pets check %s --schedule %s --json -", graphs[gi], sched);
                if (json && !pets_schedule_json_available()) {
                    ck_assert_int_eq(rc, 2);
                    ck_assert_ptr_nonnull(strstr(err, "only with jansson"));
                } else {
                    ck_assert_msg(rc == 0, "%s %s: %s%s", graphs[gi], sched, out, err);
                    ck_assert_ptr_nonnull(strstr(out, "\"valid\":true"));
                    ck_assert_int_eq(json_int(out, "violations"), 0);
                    ck_assert_int_eq(json_int(out, "makespan"), want);
                    ck_assert_int_eq(json_int(out, policy ? "pets_append_makespan" : "pets_insertion_makespan"),
                                     want);
                    ck_assert_ptr_nonnull(strstr(out, json ? "\"format\":\"json\"" : "\"format\":\"csv\""));
                }
                free(out);
                free(err);
            }
}
END_TEST

/* One planted schedule: its rows, the exit code and what results[0] holds. */
static const struct {
    const char *rows, *want;
    int rc;
} planted[] = {
    {"1,1,0,2\n3,1,2,4\n2,1,4,7\n4,1,7,7\n5,2,0,0\n", "\"makespan\":7,\"lower_bound\":4", 0},
    {"1,1,0,2\r\n3,1,2,4\r\n2,1,4,7\r\n4,1,7,7\r\n5,2,0,0\r\n\r\n", "\"valid\":true", 0},
    {"1,1,0,2\n3,1,2,4\n2,1,3,6\n4,1,7,7\n5,2,0,0\n",
     "\"where\":[{\"rule\":\"overlap\",\"task\":2,\"other\":3,\"proc\":1,\"start\":3,\"finish\":6}]", 1},
    {"1,1,0,2\n3,1,2,4\n2,2,2,3\n4,1,7,7\n5,2,0,0\n",
     "\"where\":[{\"rule\":\"precedence\",\"task\":2,\"other\":1,\"proc\":2,\"start\":2,\"finish\":3}]", 1},
    {"1,1,0,2\n3,1,2,4\n2,1,4,6\n4,1,7,7\n5,2,0,0\n",
     "\"where\":[{\"rule\":\"duration\",\"task\":2,\"other\":0,\"proc\":1,\"start\":4,\"finish\":6}]", 1},
    {"1,1,0,2\n3,1,2,4\n2,1,4,7\n5,2,0,0\n",
     "\"where\":[{\"rule\":\"missing\",\"task\":4,\"other\":0,\"proc\":0,\"start\":0,\"finish\":0}]", 1},
    {"1,1,0,2\n3,1,2,4\n2,1,4,7\n4,1,7,7\n5,2,0,0\n3,2,9,11\n",
     "\"where\":[{\"rule\":\"duplicate\",\"task\":3,\"other\":0,\"proc\":2,\"start\":9,\"finish\":11}]", 1},
    {"1,1,-1,1\n3,1,2,4\n2,1,4,7\n4,1,7,7\n5,2,0,0\n",
     "\"where\":[{\"rule\":\"negative\",\"task\":1,\"other\":0,\"proc\":1,\"start\":-1,\"finish\":1}]", 1},
    /* every time half a unit later: valid, in the file's units */
    {"1,1,0.5,2.5\n3,1,2.5,4.5\n2,1,4.5,7.5\n4,1,7.5,7.5\n5,2,0.5,0.5\n",
     "\"makespan\":7.5,\"lower_bound\":4,", 0},
    {"1,1,0.5,2.5\n3,1,2.5,4.5\n2,1,4.5,7\n4,1,7.5,7.5\n5,2,0.5,0.5\n",
     "\"where\":[{\"rule\":\"duration\",\"task\":2,\"other\":0,\"proc\":1,\"start\":4.5,\"finish\":7}]", 1},
};

START_TEST(check_planted_schedules)
{
    int i = _i;
    char text[512];
    snprintf(text, sizeof text, CLI_HEAD "%s", planted[i].rows);
    const char *s = put(g_dir, "mine.csv", text);
    char *out = NULL;
    int rc = run(&out, NULL, "pets check %s --schedule %s --json -", g_small, s);
    ck_assert_msg(rc == planted[i].rc, "case %d: exit %d: %s", i, rc, out);
    ck_assert_msg(strstr(out, planted[i].want) != NULL, "case %d: no %s in %s", i, planted[i].want, out);
    ck_assert_ptr_nonnull(strstr(out, rc ? "\"status\":\"fail\"" : "\"status\":\"pass\""));
    ck_assert_ptr_nonnull(strstr(out, "\"impl\":\"mine.csv\""));
    ck_assert_ptr_nonnull(strstr(out, "\"pets_insertion_makespan\":"));
    free(out);
}
END_TEST

/* The table: the verdict row, the where lines, the summary; --name. */
START_TEST(check_table_and_name)
{
    const char *g = g_small, *s = put(g_dir, "s.csv", CLI_HEAD "1,1,0,2\n3,1,2,4\n2,1,3,6\n4,1,7,7\n5,2,0,0\n");
    char *out = NULL;
    ck_assert_int_eq(run(&out, NULL, "pets check %s --schedule %s --name my-scheduler", g, s), 1);
    ck_assert_ptr_nonnull(strstr(out, "my-scheduler"));
    ck_assert_ptr_nonnull(strstr(out, "invalid schedule: task 2 [3, 6) overlaps task 3 [2, 4) on P1"));
    ck_assert_ptr_nonnull(strstr(out, "    at rule=overlap task=2 other=3 proc=1 start=3 finish=6\n"));
    ck_assert_ptr_nonnull(strstr(out, "    1 violation: overlap 1\n"));
    free(out);
    s = put(g_dir, "ok.csv", CLI_HEAD "1,1,0,2\n3,1,2,4\n2,1,4,7\n4,1,7,7\n5,2,0,0\n");
    ck_assert_int_eq(run(&out, NULL, "pets check %s --schedule %s", g, s), 0);
    ck_assert_ptr_nonnull(strstr(out, "(makespan 7: "));
    ck_assert_ptr_nonnull(strstr(out, "SLR 1.750"));
    free(out);
}
END_TEST

/* Files that cannot be read as schedules: exit 2, `file[:line]: why`. */
START_TEST(check_unreadable_files)
{
    char g[600], want[700];
    snprintf(g, sizeof g, "%s", g_small);
    static const struct {
        const char *text, *where, *word;
    } bad[] = {
        {CLI_HEAD "1,1,0,2\n9,1,0,2\n", ":3: ", "unknown task '9'"},
        {CLI_HEAD "1,5,0,2\n", ":2: ", "unknown processor '5'"},
        {CLI_HEAD "1,1,zero,2\n", ":2: ", "start 'zero' is not a number"},
        {CLI_HEAD "1,1,0\n", ":2: ", "expected 4 columns"},
        {"1,1,0,2\n", ":1: ", "header"},
        {"", ": ", "empty schedule"},
        {"{\"schedule\":[{\"task\":7,\"proc\":1,\"start\":0,\"finish\":2}]}", ": ", "unknown task 7"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        const char *s = put(g_dir, "bad.csv", bad[i].text);
        char *err = NULL;
        ck_assert_int_eq(run(NULL, &err, "pets check %s --schedule %s", g, s), 2);
        const char *word = bad[i].text[0] == '{' && !pets_schedule_json_available() ? "only with jansson"
                                                                                     : bad[i].word;
        snprintf(want, sizeof want, "%s%s", s, bad[i].where);
        ck_assert_msg(strncmp(err, want, strlen(want)) == 0, "case %zu: '%s' not at '%s'", i, err, want);
        ck_assert_msg(strstr(err, word) != NULL, "case %zu: '%s' lacks '%s'", i, err, word);
        free(err);
    }
    /* nine decimals need the costs x 10^9: past 2^40 for a cost of 10^6 */
    const char *big = put(g_dir, "big.dag", "tasks 1 processors 1\ncost 1 1000000\n");
    snprintf(g, sizeof g, "%s", big);
    const char *s = put(g_dir, "fine.csv", CLI_HEAD "1,1,0.000000001,1000000.000000001\n");
    char *err = NULL;
    ck_assert_int_eq(run(NULL, &err, "pets check %s --schedule %s", g, s), 2);
    ck_assert_ptr_nonnull(strstr(err, "pass 2^40"));
    free(err);
    /* usage */
    ck_assert_int_eq(run(NULL, NULL, "pets check --help"), 0);
    ck_assert_int_eq(run(NULL, NULL, "pets check %s", g), 2);
    ck_assert_int_eq(run(NULL, NULL, "pets check --schedule %s", s), 2);
    ck_assert_int_eq(run(NULL, NULL, "pets check %s --schedule %s --bogus", g, s), 2);
    ck_assert_int_eq(run(NULL, &err, "pets check %s --schedule /nonexistent/s.csv", g), 2);
    ck_assert_ptr_nonnull(strstr(err, "/nonexistent/s.csv"));
    free(err);
    ck_assert_int_eq(run(NULL, &err, "pets %s --impl serial --out-schedule /nonexistent/s.csv", g), 2);
    ck_assert_ptr_nonnull(strstr(err, "/nonexistent/s.csv"));
    free(err);
}
END_TEST

START_TEST(check_irregular_graphs)
{
    char g[600], *out = NULL;
    snprintf(g, sizeof g, "%s", put(g_dir, "one.dag", "tasks 1 processors 2\ncost 1 3 5\n"));
    const char *s = put(g_dir, "one.csv", CLI_HEAD "1,2,0,5\n");
    ck_assert_int_eq(run(&out, NULL, "pets check %s --schedule %s --json -", g, s), 0);
    ck_assert_ptr_nonnull(strstr(out, "\"makespan\":5,\"lower_bound\":3,"));
    ck_assert_ptr_nonnull(strstr(out, "\"pets_insertion_makespan\":3,\"pets_append_makespan\":3,"));
    free(out);
    snprintf(g, sizeof g, "%s", put(g_dir, "flat.dag", "tasks 3 processors 2\ncost 1 1 1\ncost 2 2 2\ncost 3 3 3\n"));
    s = put(g_dir, "flat.csv", CLI_HEAD "3,1,0,3\n2,1,3,5\n1,2,9,10\n");
    ck_assert_int_eq(run(&out, NULL, "pets check %s --schedule %s --json -", g, s), 0);
    ck_assert_ptr_nonnull(strstr(out, "\"makespan\":10,\"lower_bound\":3,"));
    free(out);
}
END_TEST

/* PARCHECK_FAIL_ALLOC=N for each allocation of a check: a clean exit
 * naming the failure, never a crash, until the run needs no more. */
START_TEST(check_alloc_failures)
{
    const char *g = g_small, *s = put(g_dir, "s.csv", CLI_HEAD "1,1,0.5,2.5\n3,1,2.5,4.5\n2,1,4.5,7.5\n4,1,7.5,7.5\n5,2,0.5,0.5\n");
    int n = 1;
    for (; n < 400; n++) {
        char *err = NULL, cmd[2000];
        snprintf(cmd, sizeof cmd, "PARCHECK_FAIL_ALLOC=%d %s pets check %s --schedule %s", n, pc_test_bin(),
                 g, s);
        int rc = pc_test_shell(cmd, NULL, &err);
        if (rc == 0) {
            free(err);
            break;
        }
        ck_assert_msg(rc == 1 || rc == 2, "allocation %d: exit %d: %s", n, rc, err);
        ck_assert_msg(strstr(err, "out of memory") != NULL, "allocation %d: %s", n, err);
        free(err);
    }
    ck_assert_int_gt(n, 20);
    ck_assert_int_lt(n, 400);
}
END_TEST

static Suite *suite_cli(void)
{
    Suite *s = suite_create("pets_cli");
    TCase *tc = pc_tcase("cli");
    tcase_add_test(tc, json_golden);
    tcase_add_test(tc, exit_codes);
    tcase_add_test(tc, select_and_threads_options);
    tcase_add_test(tc, bad_dag_message);
    tcase_add_test(tc, dax_encoding_message);
    tcase_add_test(tc, gen_and_import);
    tcase_add_test(tc, cpu_phase_timings);
    suite_add_tcase(s, tc);
    TCase *ck = pc_tcase("check");
    tcase_add_checked_fixture(ck, check_setup, check_teardown);
    tcase_add_test(ck, check_reads_out_schedule);
    tcase_add_loop_test(ck, check_planted_schedules, 0, (int)(sizeof planted / sizeof *planted));
    tcase_add_test(ck, check_table_and_name);
    tcase_add_test(ck, check_unreadable_files);
    tcase_add_test(ck, check_irregular_graphs);
    tcase_add_test(ck, check_alloc_failures);
    suite_add_tcase(s, ck);
    return s;
}

int main(void) { return pc_test_run(suite_cli()); }
