/* parcheck spmm and gen matrix as a user runs them: exit codes, the table,
 * the JSON contract, refusal of invalid files. */
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

START_TEST(test_cage4_all_impls_pass)
{
    const char *data = pc_test_data_dir();
    if (!data)
        PC_SKIP("no shared data directory");
    char args[4200], *out, *err;
    snprintf(args, sizeof args, "spmm %s/matrices/cage4.mtx --impl all --k 16", data);
    int rc = run(args, &out, &err);
    ck_assert_msg(rc == 0, "exit %d\n%s\n%s", rc, out, err);
    ck_assert(strstr(out, "csr-omp") && strstr(out, "ellnp-serial"));
    ck_assert(strstr(out, " pass ") != NULL || strstr(out, "pass") != NULL);
    ck_assert(strstr(out, " fail") == NULL);
    free(out);
    free(err);
}
END_TEST

START_TEST(test_json_contract)
{
    const char *data = pc_test_data_dir();
    if (!data)
        PC_SKIP("no shared data directory");
    char args[4200], *out, *err;
    snprintf(args, sizeof args, "spmm %s/matrices/west0067.mtx --impl csr-serial,ell-omp --k 3 --json -", data);
    int rc = run(args, &out, &err);
    ck_assert_msg(rc == 0, "exit %d: %s", rc, err);
    static const char *keys[] = {"\"tool\":\"parcheck\"", "\"version\"", "\"domain\":\"spmm\"",
                                 "\"input\"", "\"rows\":67", "\"nnz\":294", "\"k\":3", "\"oracle\"",
                                 "\"results\"", "\"impl\":\"csr-serial\"", "\"impl\":\"ell-omp\"",
                                 "\"status\":\"pass\"", "\"seconds\"", "\"reps\"", "\"throughput\"",
                                 "\"unit\":\"GFLOP/s\"", "\"max_rel_err\"", "\"mean_rel_err\"",
                                 "\"max_err_over_bound\"", "\"unit_roundoff\":1.1102230246251565e-16",
                                 "\"entries_checked\":201", "\"memory\"", "\"peak_bytes\"", "\"model_bytes\""};
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++)
        ck_assert_msg(strstr(out, keys[k]) != NULL, "JSON lacks %s:\n%s", keys[k], out);
    ck_assert_msg(strncmp(out, "{", 1) == 0 && strchr(out, '\n') == out + strlen(out) - 1,
                  "stdout must be exactly one JSON object");
    free(out);
    free(err);
}
END_TEST

START_TEST(test_invalid_files_exit_2_with_location)
{
    const char *data = pc_test_data_dir();
    if (!data)
        PC_SKIP("no shared data directory");
    static const char *files[] = {"invalid_indices_out_of_range_1.mtx", "invalid_truncated_lines.mtx",
                                  "complex_unsupported.mtx", "invalid_bad_banner.mtx",
                                  "overflow_value_gt_float64.mtx", "lagraph_mangled9.mtx"};
    for (size_t k = 0; k < sizeof files / sizeof files[0]; k++) {
        char args[4400], *out, *err;
        snprintf(args, sizeof args, "spmm %s/matrices-invalid/%s --impl csr-serial", data, files[k]);
        int rc = run(args, &out, &err);
        ck_assert_msg(rc == 2, "%s: exit %d", files[k], rc);
        ck_assert_msg(strstr(err, files[k]) != NULL && strchr(err, ':') != NULL, "%s: stderr %s",
                      files[k], err);
        free(out);
        free(err);
    }
}
END_TEST

START_TEST(test_usage_errors_exit_2)
{
    static const char *cases[] = {"spmm", "spmm /nonexistent.mtx", "spmm x.mtx --k 0",
                                  "spmm x.mtx --impl nosuch", "spmm x.mtx --k", "spmm x.mtx --bogus",
                                  "frobnicate", "gen matrix --rows 3"};
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        char *out, *err;
        int rc = run(cases[k], &out, &err);
        ck_assert_msg(rc == 2, "'%s': exit %d", cases[k], rc);
        ck_assert_msg(strlen(err) > 0, "'%s': no message", cases[k]);
        free(out);
        free(err);
    }
}
END_TEST

START_TEST(test_unavailable_impl_exit_3)
{
    char *out, *err;
    int rc = run("list", &out, &err);
    ck_assert_int_eq(rc, 0);
    int has_gpu = strstr(out, "csr-cuda-scalar1             available") != NULL;
    free(out);
    free(err);
    if (has_gpu)
        PC_SKIP("a CUDA device is present: csr-cuda-scalar1 can run");
    ck_assert_int_eq(system("mkdir -p build/test-tmp"), 0);
    ck_assert_int_eq(run("gen matrix --rows 50 --cols 40 --nnz 300 --shape uniform --seed 2 "
                         "-o build/test-tmp/u.mtx", NULL, NULL), 0);
    rc = run("spmm build/test-tmp/u.mtx --impl csr-serial,csr-cuda-scalar1", &out, &err);
    ck_assert_msg(rc == 3, "exit %d", rc);
    ck_assert(strstr(out, "skipped") != NULL);
    free(out);
    free(err);
}
END_TEST

START_TEST(test_generated_matrices_validate)
{
    static const char *shapes[] = {"uniform", "banded", "powerlaw", "denserows"};
    ck_assert_int_eq(system("mkdir -p build/test-tmp"), 0);
    for (int s = 0; s < 4; s++) {
        char args[512], *out, *err;
        snprintf(args, sizeof args, "gen matrix --rows 3000 --cols 2000 --nnz 30000 --shape %s "
                 "--seed 5 -o build/test-tmp/g-%s.mtx", shapes[s], shapes[s]);
        ck_assert_int_eq(run(args, NULL, NULL), 0);
        snprintf(args, sizeof args, "spmm build/test-tmp/g-%s.mtx --impl all --k 5 --reps 2", shapes[s]);
        int rc = run(args, &out, &err);
        ck_assert_msg(rc == 0, "%s: exit %d\n%s%s", shapes[s], rc, out, err);
        free(out);
        free(err);
    }
    /* Same seed, same file. */
    ck_assert_int_eq(run("gen matrix --rows 300 --cols 200 --nnz 3000 --shape powerlaw --seed 9 "
                         "-o build/test-tmp/a.mtx", NULL, NULL), 0);
    ck_assert_int_eq(run("gen matrix --rows 300 --cols 200 --nnz 3000 --shape powerlaw --seed 9 "
                         "-o build/test-tmp/b.mtx", NULL, NULL), 0);
    ck_assert_int_eq(system("cmp -s build/test-tmp/a.mtx build/test-tmp/b.mtx"), 0);
}
END_TEST

START_TEST(test_list_reports_every_impl)
{
    char *out, *err;
    ck_assert_int_eq(run("list", &out, &err), 0);
    static const char *names[] = {"csr-serial", "ell-serial", "ellnp-serial", "csr-omp", "ell-omp",
                                  "ellnp-omp", "csr-cuda-scalar1", "csr-cuda-adaptive", "cusparse",
                                  "csr-cuda-fast", "ell-cuda-subwarp"};
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++)
        ck_assert_msg(strstr(out, names[k]) != NULL, "list lacks %s", names[k]);
    free(out);
    free(err);
}
END_TEST

static Suite *suite_cli_spmm(void)
{
    Suite *s = suite_create("cli_spmm");
    TCase *tc = pc_tcase("cli");
    tcase_add_test(tc, test_cage4_all_impls_pass);
    tcase_add_test(tc, test_json_contract);
    tcase_add_test(tc, test_invalid_files_exit_2_with_location);
    tcase_add_test(tc, test_usage_errors_exit_2);
    tcase_add_test(tc, test_unavailable_impl_exit_3);
    tcase_add_test(tc, test_generated_matrices_validate);
    tcase_add_test(tc, test_list_reports_every_impl);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return pc_test_run(suite_cli_spmm()); }
