/* Progress as a user meets it: none when stderr is not a terminal (as
 * here), on stderr with --progress, off again with --quiet, never in the
 * stdout of --json -; and the table's head before the first run. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pc_test.h"

#define DIR "build/test-tmp/cli-progress"

static int run(const char *args, char **out, char **err)
{
    char cmd[8192];
    snprintf(cmd, sizeof cmd, "%s %s", pc_test_bin(), args);
    return pc_test_shell(cmd, out, err);
}

/* One small input per command, and the command that runs it. */
static const char *const runs[][2] = {
    {"spmm " DIR "/m.mtx --impl csr-serial,csr-omp --reps 3", "spmm"},
    {"sa " DIR "/t.txt --impl seq,omp --reps 3", "sa"},
    {"pets " DIR "/g.dag --impl serial --reps 3", "pets"},
};
#define NRUNS (sizeof runs / sizeof runs[0])

static void make_inputs(void)
{
    ck_assert_int_eq(system("mkdir -p " DIR), 0);
    ck_assert_int_eq(run("gen matrix --rows 300 --cols 300 --nnz 3000 --shape uniform --seed 1 -o " DIR
                         "/m.mtx", NULL, NULL), 0);
    ck_assert_int_eq(run("gen text --bytes 20000 --kind text --seed 1 -o " DIR "/t.txt", NULL, NULL), 0);
    ck_assert_int_eq(run("gen dag --tasks 60 --out-degree 3 --alpha 1 --ccr 1 --eta 0.5 --procs 3 "
                         "--seed 1 -o " DIR "/g.dag", NULL, NULL), 0);
}

START_TEST(test_no_progress_when_not_a_terminal)
{
    make_inputs();
    for (size_t k = 0; k < NRUNS; k++) {
        char *out, *err, args[512];
        ck_assert_int_eq(run(runs[k][0], &out, &err), 0);
        ck_assert_msg(err[0] == '\0', "'%s': stderr not empty:\n%s", runs[k][0], err);
        free(out);
        free(err);
        /* --progress then --quiet: the last one wins */
        snprintf(args, sizeof args, "%s --progress --quiet", runs[k][0]);
        ck_assert_int_eq(run(args, &out, &err), 0);
        ck_assert_msg(err[0] == '\0', "'%s': stderr not empty:\n%s", args, err);
        free(out);
        free(err);
    }
}
END_TEST

START_TEST(test_progress_forced_on_stderr)
{
    make_inputs();
    for (size_t k = 0; k < NRUNS; k++) {
        char *out, *err, args[512], want[64];
        snprintf(args, sizeof args, "%s --progress", runs[k][0]);
        ck_assert_int_eq(run(args, &out, &err), 0);
        snprintf(want, sizeof want, "parcheck %s: ", runs[k][1]);
        ck_assert_msg(!strncmp(err, want, strlen(want)) && strstr(err, "reading " DIR) &&
                          strstr(err, " s]\n") && strstr(err, ": done ["),
                      "'%s': progress on stderr:\n%s", args, err);
        ck_assert_msg(strstr(out, want) == NULL, "'%s': progress on stdout:\n%s", args, out);
        free(out);
        free(err);
    }
}
END_TEST

START_TEST(test_progress_never_in_json_stdout)
{
    make_inputs();
    for (size_t k = 0; k < NRUNS; k++) {
        char *out, *err, args[512];
        snprintf(args, sizeof args, "%s --progress --json -", runs[k][0]);
        ck_assert_int_eq(run(args, &out, &err), 0);
        ck_assert_msg(out[0] == '{' && strchr(out, '\n') == out + strlen(out) - 1,
                      "'%s': stdout is not one JSON object:\n%s", args, out);
        ck_assert_msg(strstr(err, "parcheck ") != NULL, "'%s': no progress on stderr", args);
        free(out);
        free(err);
    }
}
END_TEST

/* stdout and stderr into one file: the head comes before the first
 * repetition, each row after its own. */
START_TEST(test_head_before_first_run)
{
    make_inputs();
    for (size_t k = 0; k < NRUNS; k++) {
        char *out, args[512];
        snprintf(args, sizeof args, "%s --progress 2>&1", runs[k][0]);
        ck_assert_int_eq(run(args, &out, NULL), 0);
        const char *head = strstr(out, "\nimpl "), *first = strstr(out, "(1/");
        ck_assert_msg(head && first && head < first, "'%s': head after the first run:\n%s", args, out);
        const char *second = strstr(out, "(2/");
        const char *row1 = strstr(head + 1, "\n") + 1;
        if (second) /* the first row is out before the second implementation starts */
            ck_assert_msg(row1 < second && strstr(row1, " pass ") < second, "'%s':\n%s", args, out);
        free(out);
    }
}
END_TEST

/* `parcheck list` prints a reason shared by a group once. */
START_TEST(test_list_shared_reason_once)
{
    char *out, *err;
    ck_assert_int_eq(run("list", &out, &err), 0);
    const char *notes = strstr(out, "\nunavailable because:\n");
    if (!strstr(out, " unavailable ")) {
        ck_assert_ptr_null(notes);
    } else {
        ck_assert_msg(notes != NULL, "no reasons:\n%s", out);
        /* every reason line is distinct */
        for (const char *a = notes + 22; *a; a = strchr(a, '\n') + 1) {
            const char *text = strstr(a, "] ");
            ck_assert_ptr_nonnull(text);
            size_t len = (size_t)(strchr(text, '\n') - text);
            for (const char *b = strchr(a, '\n') + 1; *b; b = strchr(b, '\n') + 1)
                ck_assert_msg(strncmp(strstr(b, "] "), text, len + 1) != 0, "twice: %.*s", (int)len, text);
        }
    }
    free(out);
    free(err);
}
END_TEST

static Suite *suite_cli_progress(void)
{
    Suite *s = suite_create("cli_progress");
    TCase *tc = pc_tcase("progress");
    tcase_add_test(tc, test_no_progress_when_not_a_terminal);
    tcase_add_test(tc, test_progress_forced_on_stderr);
    tcase_add_test(tc, test_progress_never_in_json_stdout);
    tcase_add_test(tc, test_head_before_first_run);
    tcase_add_test(tc, test_list_shared_reason_once);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return pc_test_run(suite_cli_progress()); }
