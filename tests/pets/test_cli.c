/* test_cli.c - `parcheck pets`, `gen dag`, `dag import`: exit codes of
 * ARCHITECTURE.md section 3, file:line messages, and the JSON object. */
#include <stdlib.h>
#include <unistd.h>

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

START_TEST(exit_codes)
{
    const char *g = tu_data("golden/pets_fig1.txt");
    if (!g)
        PC_SKIP("no shared data");
    char gold[4096];
    snprintf(gold, sizeof gold, "%s", g);
    char *err = NULL;
    ck_assert_int_eq(sh(NULL, NULL, "%s pets --help%s%s", NULL, NULL), 0);
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

static Suite *suite_cli(void)
{
    Suite *s = suite_create("pets_cli");
    TCase *tc = pc_tcase("cli");
    tcase_add_test(tc, json_golden);
    tcase_add_test(tc, exit_codes);
    tcase_add_test(tc, bad_dag_message);
    tcase_add_test(tc, dax_encoding_message);
    tcase_add_test(tc, gen_and_import);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return pc_test_run(suite_cli()); }
