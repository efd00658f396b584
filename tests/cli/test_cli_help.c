/* The help of every command as a user meets it: each --help exits 0 and
 * starts with its usage line; the commands that run implementations list
 * them with their availability; a usage error prints the error first, then
 * where the help is, and exits 2; shared options have shared limits; the
 * top-level usage names every option a command's help names. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pc_test.h"

static int run(const char *args, char **out, char **err)
{
    char cmd[8192];
    snprintf(cmd, sizeof cmd, "%s %s", pc_test_bin(), args);
    return pc_test_shell(cmd, out, err);
}

/* Every command with its own help, and what its usage line starts with. */
static const struct {
    const char *cmd, *first;
    int impls; /* its help lists implementations */
} commands[] = {
    {"list", "usage: parcheck list", 0},
    {"spmm", "usage: parcheck spmm MATRIX.mtx", 1},
    {"sa", "usage: parcheck sa FILE", 1},
    {"pets", "usage: parcheck pets GRAPH ", 1},
    {"spmm check", "usage: parcheck spmm check", 0},
    {"sa check", "usage: parcheck sa check", 0},
    {"pets check", "usage: parcheck pets check", 0},
    {"gen matrix", "usage: parcheck gen matrix", 0},
    {"gen x", "usage: parcheck gen x", 0},
    {"gen text", "usage: parcheck gen text", 0},
    {"gen dag", "usage: parcheck gen dag", 0},
    {"dag import", "usage: parcheck dag import", 0},
    {"bench", "usage: parcheck bench stream", 1},
    {"bench spmm", "usage: parcheck bench stream", 1},
    {"bench stream", "usage: parcheck bench stream", 0},
    {"gen", "usage:", 0},
    {"dag", "usage:", 0},
};
#define NCOMMANDS (int)(sizeof commands / sizeof commands[0])

START_TEST(test_help_exits_0_with_usage_first)
{
    for (int k = 0; k < NCOMMANDS; k++) {
        for (int h = 0; h < 2; h++) {
            char args[128], *out, *err;
            snprintf(args, sizeof args, "%s %s", commands[k].cmd, h ? "-h" : "--help");
            int rc = run(args, &out, &err);
            ck_assert_msg(rc == 0, "'%s': exit %d\n%s", args, rc, err);
            ck_assert_msg(!strncmp(out, commands[k].first, strlen(commands[k].first)),
                          "'%s': first line is not '%s...':\n%.300s", args, commands[k].first, out);
            if (commands[k].impls)
                ck_assert_msg(strstr(out, "\nimplementations:\n") &&
                                  (strstr(out, " available ") || strstr(out, " unavailable ")),
                              "'%s' lists no implementations with availability:\n%s", args, out);
            free(out);
            free(err);
        }
    }
}
END_TEST

/* Each command's help names its own implementations. */
START_TEST(test_help_lists_own_implementations)
{
    static const char *const want[][2] = {{"spmm --help", "csr-omp"}, {"sa --help", "divsufsort"},
                                          {"pets --help", "ocl-vec8"}, {"bench spmm --help", "ellnp-omp"}};
    for (size_t k = 0; k < sizeof want / sizeof want[0]; k++) {
        char *out, *err;
        ck_assert_int_eq(run(want[k][0], &out, &err), 0);
        const char *list = strstr(out, "\nimplementations:\n");
        ck_assert_msg(list && strstr(list, want[k][1]), "'%s' lacks %s:\n%s", want[k][0], want[k][1], out);
        /* an unavailable one points at a reason printed once below */
        const char *note = strstr(list, "unavailable ");
        if (note)
            ck_assert_msg(strstr(out, "unavailable because:\n  [1] "), "'%s': no reasons:\n%s",
                          want[k][0], out);
        free(out);
        free(err);
    }
}
END_TEST

/* "parcheck CMD: what is wrong" then "see 'parcheck CMD --help'". */
START_TEST(test_usage_error_first_then_pointer)
{
    static const char *const cases[][2] = {
        {"spmm x.mtx --bogus", "spmm"},           {"sa x.txt --bogus", "sa"},
        {"pets g.dag --bogus", "pets"},           {"spmm check m.mtx --bogus", "spmm check"},
        {"sa check t --bogus", "sa check"},       {"pets check g.dag --bogus", "pets check"},
        {"gen matrix --bogus", "gen matrix"},     {"gen x --bogus", "gen x"},
        {"gen text --bogus", "gen text"},         {"gen dag --bogus", "gen dag"},
        {"dag import --bogus", "dag import"},     {"bench spmm --bogus", "bench spmm"},
        {"bench stream --bogus", "bench stream"}, {"list --bogus", "list"},
        {"gen", "gen"},                           {"gen nosuch", "gen"},
        {"dag", "dag"},                           {"bench", "bench"},
        {"spmm", "spmm"},                         {"sa", "sa"},
        {"pets", "pets"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        char *out, *err, want1[64], want2[96];
        int rc = run(cases[k][0], &out, &err);
        ck_assert_msg(rc == 2, "'%s': exit %d", cases[k][0], rc);
        snprintf(want1, sizeof want1, "parcheck %s: ", cases[k][1]);
        snprintf(want2, sizeof want2, "\nsee 'parcheck %s --help'\n", cases[k][1]);
        ck_assert_msg(!strncmp(err, want1, strlen(want1)), "'%s': stderr starts\n%.200s", cases[k][0], err);
        const char *nl = strchr(err, '\n');
        ck_assert_msg(nl && !strcmp(nl, want2), "'%s': after the error line\n%s", cases[k][0], err);
        ck_assert_msg(out[0] == '\0', "'%s': stdout not empty:\n%s", cases[k][0], out);
        free(out);
        free(err);
    }
    char *out, *err;
    ck_assert_int_eq(run("frobnicate", &out, &err), 2);
    ck_assert_str_eq(err, "parcheck: unknown command 'frobnicate'\nsee 'parcheck --help'\n");
    free(out);
    free(err);
}
END_TEST

/* --reps and --threads take the same range in every command. */
START_TEST(test_shared_limits)
{
    static const char *const cmds[] = {"spmm x.mtx", "sa x.txt", "pets g.dag", "bench spmm"};
    for (size_t k = 0; k < sizeof cmds / sizeof cmds[0]; k++) {
        char args[128], *out, *err;
        snprintf(args, sizeof args, "%s --reps 1001", cmds[k]);
        ck_assert_msg(run(args, &out, &err) == 2, "'%s' accepted", args);
        ck_assert_msg(strstr(err, "--reps: 1001 is outside [1, 1000]"), "'%s': %s", args, err);
        free(out);
        free(err);
        if (k == 2)
            continue; /* pets has no --threads */
        snprintf(args, sizeof args, "%s --threads 4097", cmds[k]);
        ck_assert_msg(run(args, &out, &err) == 2, "'%s' accepted", args);
        ck_assert_msg(strstr(err, "4097 is outside [1, 4096]"), "'%s': %s", args, err);
        free(out);
        free(err);
    }
}
END_TEST

/* Whether the option word opt (e.g. "--k") occurs in text as a word. */
static int has_option(const char *text, const char *opt, size_t len)
{
    for (const char *p = text; (p = strstr(p, opt)) != NULL; p++) {
        char after = p[len];
        if (!(isalnum((unsigned char)after) || after == '-'))
            return 1;
    }
    return 0;
}

START_TEST(test_top_level_usage_names_every_option)
{
    char *top, *err;
    ck_assert_int_eq(run("--help", &top, &err), 0);
    ck_assert(!strncmp(top, "usage:", 6));
    free(err);
    for (int k = 0; k < NCOMMANDS; k++) {
        char args[128], *out;
        snprintf(args, sizeof args, "%s --help", commands[k].cmd);
        ck_assert_int_eq(run(args, &out, &err), 0);
        /* the options of the usage lines: up to the first line of prose */
        char *end = out;
        while ((end = strchr(end, '\n')) != NULL && (end[1] == ' ' || !strncmp(end + 1, "usage", 5)))
            end++;
        if (end)
            *end = '\0';
        for (char *p = out; (p = strstr(p, "--")) != NULL;) {
            size_t len = 2;
            while (isalnum((unsigned char)p[len]) || p[len] == '-')
                len++;
            char opt[64];
            snprintf(opt, sizeof opt, "%.*s", (int)len, p);
            ck_assert_msg(len == 2 || has_option(top, opt, len), "'parcheck --help' lacks %s of '%s'",
                          opt, args);
            p += len;
        }
        free(out);
        free(err);
    }
    free(top);
}
END_TEST

static Suite *suite_cli_help(void)
{
    Suite *s = suite_create("cli_help");
    TCase *tc = pc_tcase("help");
    tcase_add_test(tc, test_help_exits_0_with_usage_first);
    tcase_add_test(tc, test_help_lists_own_implementations);
    tcase_add_test(tc, test_usage_error_first_then_pointer);
    tcase_add_test(tc, test_shared_limits);
    tcase_add_test(tc, test_top_level_usage_names_every_option);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return pc_test_run(suite_cli_help()); }
