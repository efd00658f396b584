/* src/common: the allocator's fault injection and accounting, the seeded
 * RNG's reproducibility, the JSON writer, CLI parsing, error messages and
 * the result table. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pc_alloc.h"
#include "pc_cli.h"
#include "pc_error.h"
#include "pc_file.h"
#include "pc_json.h"
#include "pc_result.h"
#include "pc_rng.h"
#include "pc_test.h"
#include "pc_time.h"

START_TEST(test_alloc_injection_is_one_shot)
{
    long live = pc_alloc_live();
    pc_alloc_fail_at(2);
    void *a = pc_malloc(10);
    void *b = pc_malloc(10);
    void *c = pc_malloc(10);
    ck_assert_ptr_nonnull(a);
    ck_assert_ptr_null(b);
    ck_assert_ptr_nonnull(c);
    ck_assert(pc_alloc_injected());
    ck_assert_int_eq(pc_alloc_live(), live + 2);
    pc_free(a);
    pc_free(c);
    pc_free(NULL);
    ck_assert_int_eq(pc_alloc_live(), live);
    pc_alloc_fail_at(0);
    ck_assert(!pc_alloc_injected());
}
END_TEST

/* Threads' counters laid out pc_thread_stride apart: at least k of them,
 * a whole number of 128 bytes, less than 128 bytes of padding, for the
 * counter sizes the kernels use. */
START_TEST(test_thread_stride_keeps_lines_apart)
{
    static const size_t sizes[] = { 4, 8 };
    for (int z = 0; z < 2; z++)
        for (size_t k = 0; k <= 5000; k += k < 300 ? 1 : 97) {
            size_t s = pc_thread_stride(k, sizes[z]);
            ck_assert_msg(s >= k && s * sizes[z] % 128 == 0 && (s - k) * sizes[z] < 128,
                          "stride %zu for %zu counters of %zu bytes", s, k, sizes[z]);
        }
}
END_TEST

START_TEST(test_alloc_accounting_and_alignment)
{
    long long before = pc_alloc_bytes();
    pc_alloc_reset_peak();
    double *p = pc_malloc_array(1000, sizeof *p);
    ck_assert_ptr_nonnull(p);
    ck_assert_int_eq((uintptr_t)p % 64, 0);
    ck_assert_int_eq(pc_alloc_bytes(), before + 8000);
    char *q = pc_realloc(NULL, 100);
    q = pc_realloc(q, 5000);
    ck_assert_ptr_nonnull(q);
    ck_assert_int_eq(pc_alloc_bytes(), before + 13000);
    pc_free(p);
    pc_free(q);
    ck_assert_int_eq(pc_alloc_bytes(), before);
    ck_assert_int_ge(pc_alloc_peak(), before + 13000);
    ck_assert_ptr_null(pc_malloc_array(SIZE_MAX / 2, 4)); /* overflow refused */
    ck_assert_ptr_null(pc_calloc(SIZE_MAX / 8 + 1, 16));
    int *z = pc_calloc(10, sizeof *z);
    for (int i = 0; i < 10; i++)
        ck_assert_int_eq(z[i], 0);
    pc_free(z);
    char *s = pc_strdup("abc");
    ck_assert_str_eq(s, "abc");
    pc_free(s);
    /* every size 64-byte aligned; a pc_malloc block resized by pc_realloc
     * (its header further in than realloc's) keeps its bytes */
    for (size_t n = 0; n < 300; n += 7) {
        unsigned char *b = pc_malloc(n + 1);
        ck_assert_ptr_nonnull(b);
        ck_assert_int_eq((uintptr_t)b % 64, 0);
        for (size_t k = 0; k <= n; k++)
            b[k] = (unsigned char)(k * 31 + n);
        unsigned char *g = pc_realloc(b, 2 * n + 2);
        ck_assert_ptr_nonnull(g);
        for (size_t k = 0; k <= n; k++)
            ck_assert_int_eq(g[k], (unsigned char)(k * 31 + n));
        g = pc_realloc(g, n / 2 + 1);
        for (size_t k = 0; k <= n / 2; k++)
            ck_assert_int_eq(g[k], (unsigned char)(k * 31 + n));
        pc_free(g);
    }
    /* with huge pages advised, a block of several of them is as usable */
    pc_alloc_hugepages(1);
    size_t big = (size_t)9 << 20;
    unsigned char *h = pc_malloc(big);
    ck_assert_ptr_nonnull(h);
    ck_assert_int_eq((uintptr_t)h % 64, 0);
    memset(h, 7, big);
    ck_assert_int_eq(h[big - 1] + h[0], 14);
    ck_assert_int_eq(pc_alloc_bytes(), before + (long long)big);
    pc_free(h);
    pc_alloc_hugepages(0);
    ck_assert_int_eq(pc_alloc_bytes(), before);
}
END_TEST

START_TEST(test_alloc_env_variable)
{
    /* PARCHECK_FAIL_ALLOC drives a CLI run into its N-th failure path. */
    char *out, *err;
    char cmd[512];
    snprintf(cmd, sizeof cmd, "PARCHECK_FAIL_ALLOC=1 %s gen matrix --rows 10 --cols 10 --nnz 20 "
             "--shape uniform --seed 1 -o /dev/null", pc_test_bin());
    int rc = pc_test_shell(cmd, &out, &err);
    ck_assert_int_eq(rc, 2);
    ck_assert_msg(strstr(err, "out of memory") != NULL, "stderr: %s", err);
    free(out);
    free(err);
}
END_TEST

START_TEST(test_rng_is_reproducible)
{
    pc_rng a, b;
    pc_rng_seed(&a, 12345);
    pc_rng_seed(&b, 12345);
    for (int i = 0; i < 1000; i++)
        ck_assert_uint_eq(pc_rng_u64(&a), pc_rng_u64(&b));
    /* A fixed stream: the same numbers on every machine. */
    pc_rng_seed(&a, 0);
    ck_assert_uint_eq(pc_rng_u64(&a), 0x99EC5F36CB75F2B4ull);
    int hist[10] = {0};
    for (int i = 0; i < 100000; i++) {
        uint64_t v = pc_rng_below(&a, 10);
        ck_assert_uint_lt(v, 10);
        hist[v]++;
        double u = pc_rng_unit(&a);
        ck_assert(u >= 0.0 && u < 1.0);
        int64_t r = pc_rng_range(&a, -3, 3);
        ck_assert(r >= -3 && r <= 3);
    }
    for (int k = 0; k < 10; k++)
        ck_assert_int_gt(hist[k], 9000);
    ck_assert_uint_eq(pc_rng_below(&a, 0), 0);
}
END_TEST

START_TEST(test_json_writer)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    pc_json j;
    pc_json_init(&j, f);
    pc_json_begin_object(&j);
    pc_json_kv_string(&j, "s", "a\"b\\c\n\x01");
    pc_json_kv_number(&j, "x", 0.5);
    pc_json_kv_number(&j, "nan", NAN);
    pc_json_kv_int(&j, "i", -7);
    pc_json_kv_bool(&j, "t", 1);
    pc_json_key(&j, "a");
    pc_json_begin_array(&j);
    pc_json_int(&j, 1);
    pc_json_null(&j);
    pc_json_begin_object(&j);
    pc_json_end_object(&j);
    pc_json_end_array(&j);
    pc_json_end_object(&j);
    fclose(f);
    ck_assert_str_eq(buf, "{\"s\":\"a\\\"b\\\\c\\n\\u0001\",\"x\":0.5,\"nan\":null,\"i\":-7,"
                          "\"t\":true,\"a\":[1,null,{}]}\n");
    free(buf);
}
END_TEST

START_TEST(test_cli_parsing)
{
    pc_error err;
    long long v;
    double d;
    ck_assert_int_eq(pc_cli_parse_long("--k", "17", 1, 64, &v, &err), 0);
    ck_assert_int_eq(v, 17);
    ck_assert_int_eq(pc_cli_parse_long("--k", "65", 1, 64, &v, &err), PC_EINVAL);
    ck_assert(strstr(err.msg, "outside") != NULL);
    ck_assert_int_eq(pc_cli_parse_long("--k", "1x", 1, 64, &v, &err), PC_EINVAL);
    ck_assert_int_eq(pc_cli_parse_long("--k", "", 1, 64, &v, &err), PC_EINVAL);
    ck_assert_int_eq(pc_cli_parse_long("--k", "99999999999999999999", 1, 64, &v, &err), PC_EINVAL);
    ck_assert_int_eq(pc_cli_parse_double("--a", "0.5", 0, 1, &d, &err), 0);
    ck_assert_int_eq(pc_cli_parse_double("--a", "nan", 0, 1, &d, &err), PC_EINVAL);
    ck_assert_int_eq(pc_cli_parse_double("--a", "2", 0, 1, &d, &err), PC_EINVAL);

    const char *names[] = {"a", "bb", "ccc"};
    int sel[3], ex[3];
    ck_assert_int_eq(pc_cli_select("bb,a", names, 3, sel, ex, &err), 0);
    ck_assert(sel[0] && sel[1] && !sel[2] && ex[0] && ex[1]);
    ck_assert_int_eq(pc_cli_select("all", names, 3, sel, ex, &err), 0);
    ck_assert(sel[0] && sel[1] && sel[2] && !ex[0] && !ex[2]);
    ck_assert_int_eq(pc_cli_select("b", names, 3, sel, ex, &err), PC_EINVAL);
    ck_assert(strstr(err.msg, "unknown implementation 'b'") != NULL);

    char *argv[] = {"x", "--k=3", "--j", "4", "--m"};
    int i = 1;
    const char *val;
    ck_assert_int_eq(pc_cli_take(5, argv, &i, "--k", &val, &err), 1);
    ck_assert_str_eq(val, "3");
    i = 2;
    ck_assert_int_eq(pc_cli_take(5, argv, &i, "--k", &val, &err), 0);
    ck_assert_int_eq(pc_cli_take(5, argv, &i, "--j", &val, &err), 1);
    ck_assert_str_eq(val, "4");
    ck_assert_int_eq(i, 3);
    i = 4;
    ck_assert_int_eq(pc_cli_take(5, argv, &i, "--m", &val, &err), PC_EINVAL);
}
END_TEST

START_TEST(test_errors_and_files)
{
    pc_error err;
    pc_error_clear(&err);
    ck_assert_int_eq(pc_error_set(&err, PC_EFORMAT, "f.mtx", 12, "bad %s", "thing"), PC_EFORMAT);
    ck_assert_str_eq(err.msg, "f.mtx:12: bad thing");
    pc_error_set(&err, PC_EIO, "f", 0, "x");
    ck_assert_str_eq(err.msg, "f: x");
    ck_assert_int_eq(pc_error_set(NULL, PC_ERANGE, NULL, 0, "y"), PC_ERANGE);
    ck_assert_str_eq(pc_error_name(PC_ENOMEM), "ENOMEM");
    ck_assert_int_eq(pc_file_write_all("build/test-common.bin", "abc", 3, &err), 0);
    unsigned char *data;
    size_t n;
    ck_assert_int_eq(pc_file_read_all("build/test-common.bin", 100, &data, &n, &err), 0);
    ck_assert_int_eq(n, 3);
    ck_assert_int_eq(memcmp(data, "abc", 4), 0); /* NUL-terminated */
    pc_free(data);
    ck_assert_int_eq(pc_file_read_all("build/test-common.bin", 2, &data, &n, &err), PC_ERANGE);
    ck_assert_int_eq(pc_file_read_all("/nonexistent/x", 2, &data, &n, &err), PC_EIO);
    ck_assert_int_eq(pc_file_read_all("/", 2, &data, &n, &err), PC_EIO);
    ck_assert_int_eq(pc_file_write_all("/nonexistent/x", "a", 1, &err), PC_EIO);
}
END_TEST

START_TEST(test_result_rendering)
{
    static const char *const cols[] = {"err", NULL};
    pc_result r[2];
    pc_result_init(&r[0], "good");
    r[0].status = PC_STATUS_PASS;
    r[0].seconds = 0.25;
    pc_kv_num(&r[0].metrics, "err", 1e-17);
    pc_kv_num(&r[0].metrics, "err", 2e-17); /* replaces */
    pc_result_init(&r[1], "bad");
    pc_result_status(&r[1], PC_STATUS_FAIL, "entry %d", 3);
    pc_run run = {.domain = "spmm", .oracle_name = "o", .nresults = 2, .results = r,
                  .table_metrics = cols};
    pc_kv_str(&run.input, "path", "m.mtx");
    ck_assert_int_eq(r[0].metrics.n, 1);
    ck_assert_int_eq(pc_run_exit_code(&run), 1);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    pc_run_print_table(f, &run);
    pc_run_write_json(f, &run);
    fclose(f);
    ck_assert(strstr(buf, "good") && strstr(buf, "2e-17") && strstr(buf, "(entry 3)"));
    ck_assert(strstr(buf, "\"status\":\"fail\"") && strstr(buf, "\"path\":\"m.mtx\""));
    free(buf);
    r[1].status = PC_STATUS_SKIPPED;
    ck_assert_int_eq(pc_run_exit_code(&run), 0);
}
END_TEST

START_TEST(test_time_median)
{
    double v[] = {5, 1, 3};
    ck_assert(pc_time_median(v, 3) == 3);
    double w[] = {4, 1, 3, 2};
    ck_assert(pc_time_median(w, 4) == 2.5);
    ck_assert(pc_time_median(w, 0) == 0);
    double t0 = pc_time_now();
    ck_assert(pc_time_now() >= t0);
}
END_TEST

static Suite *suite_common(void)
{
    Suite *s = suite_create("common");
    TCase *tc = pc_tcase("common");
    tcase_add_test(tc, test_alloc_injection_is_one_shot);
    tcase_add_test(tc, test_alloc_accounting_and_alignment);
    tcase_add_test(tc, test_thread_stride_keeps_lines_apart);
    tcase_add_test(tc, test_alloc_env_variable);
    tcase_add_test(tc, test_rng_is_reproducible);
    tcase_add_test(tc, test_json_writer);
    tcase_add_test(tc, test_cli_parsing);
    tcase_add_test(tc, test_errors_and_files);
    tcase_add_test(tc, test_result_rendering);
    tcase_add_test(tc, test_time_median);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return pc_test_run(suite_common()); }
