/* test_sa_check_cli.c - `parcheck sa check` as a user runs it on files
 * another program wrote: right arrays (raw int32/int64, .npy of the four
 * integer types) pass, planted errors exit 1 at the right index and rule,
 * files that are not what they claim exit 2 naming the file. */
#include <string.h>

#include "pc_alloc.h"
#include "pc_file.h"
#include "pc_npy.h"
#include "sa.h"
#include "sa_cli_testlib.h"

/* Reads n little-endian int32 from sa_cli_dir/name (n = size / 4). */
static int32_t *load_i32(const char *name, int64_t *n)
{
    unsigned char *d = NULL;
    size_t size = 0;
    pc_error err;
    ck_assert_int_eq(pc_file_read_all(sa_cli_path(name), (size_t)1 << 30, &d, &size, &err), 0);
    *n = (int64_t)(size / 4);
    int32_t *v = malloc(sizeof *v * (size_t)(*n + 1));
    memcpy(v, d, size);
    pc_free(d);
    return v;
}

/* v[0..n) as dtype (an enum pc_dtype integer type) into sa_cli_dir/name:
 * .npy when npy_dims is 1 or 2 (2: shape (n, 1)), else raw. */
static void save_as(const char *name, const int32_t *v, int64_t n, int dtype, int npy_dims)
{
    size_t w = pc_dtype_size(dtype);
    unsigned char *b = malloc(w * (size_t)n + 1);
    for (int64_t i = 0; i < n; i++) {
        int64_t x = v[i];
        uint64_t bits = dtype == PC_DTYPE_U4 ? (uint32_t)x : (uint64_t)x;
        memcpy(b + w * (size_t)i, &bits, w); /* little-endian: the low bytes first */
    }
    pc_error err;
    int64_t shape[2] = { n, 1 };
    if (npy_dims)
        ck_assert_int_eq(pc_npy_write(sa_cli_path(name), dtype, 0, npy_dims, shape, b, &err), 0);
    else
        ck_assert_int_eq(pc_file_write_all(sa_cli_path(name), b, w * (size_t)n, &err), 0);
    free(b);
}

/* A hand-made .npy: descr and shape as written in the header dict, the
 * header padded so the data starts skew bytes past a multiple of 64 (numpy
 * writes skew 0), then bytes. */
static void save_npy_raw(const char *name, const char *descr, const char *shape, size_t skew,
                         const void *data, size_t bytes)
{
    char dict[256];
    int len = snprintf(dict, sizeof dict, "{'descr': '%s', 'fortran_order': False, 'shape': %s, }",
                       descr, shape);
    size_t hlen = (size_t)len + 1;
    while ((10 + hlen) % 64 != skew)
        hlen++;
    unsigned char *f = malloc(10 + hlen + bytes);
    memcpy(f, "\x93NUMPY\x01\x00", 8);
    f[8] = (unsigned char)(hlen & 0xff);
    f[9] = (unsigned char)(hlen >> 8);
    memset(f + 10, ' ', hlen);
    memcpy(f + 10, dict, (size_t)len);
    f[10 + hlen - 1] = '\n';
    memcpy(f + 10 + hlen, data, bytes);
    pc_error err;
    ck_assert_int_eq(pc_file_write_all(sa_cli_path(name), f, 10 + hlen + bytes, &err), 0);
    free(f);
}

/* A 4000-byte text with its right SA and LCP (from `parcheck sa`). */
static void make_text(void)
{
    ck_assert_int_eq(sa_cli_sh(NULL, NULL, "$P gen text --bytes 4000 --kind text --seed 3 -o t"), 0);
    ck_assert_int_eq(sa_cli_sh(NULL, NULL, "$P sa t --impl seq --out-sa t.sa --out-lcp t.lcp"), 0);
}

/* Runs `parcheck sa check ARGS --json -` and returns the exit status with
 * the JSON in *out (free it). */
static int check_json(char **out, const char *args)
{
    return sa_cli_sh(out, NULL, "$P sa check %s --json -", args);
}

static void assert_has(const char *s, const char *what)
{
    ck_assert_msg(s && strstr(s, what), "missing '%s' in:\n%s", what, s ? s : "(null)");
}

START_TEST(right_arrays_pass)
{
    if (!sa_cli_have_bin())
        PC_SKIP("parcheck binary not built");
    make_text();
    char *out = NULL, *ref = NULL;
    ck_assert_int_eq(sa_cli_sh(&ref, NULL, "$P sa t --impl seq --json -"), 0);
    ck_assert_int_eq(check_json(&out, "t --sa t.sa --lcp t.lcp"), 0);
    static const char *const keys[] = { "\"domain\":\"sa\"", "\"bytes\":4000", "\"impl\":\"t.sa\"",
                                        "\"status\":\"pass\"", "\"sa_equal\":true",
                                        "\"lcp_equal\":true", "\"n\":4000", "\"width\":32",
                                        "\"sa_format\":\"raw int32\"", "\"check_s\"",
                                        "\"model_bytes\":16004", "\"peak_bytes\":16004" };
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++)
        assert_has(out, keys[k]);
    /* the longest repeat the builders report */
    const char *l = strstr(ref, "\"lrs_length\""), *p = strstr(ref, "\"lrs_pos\"");
    ck_assert(l && p);
    char want[64];
    snprintf(want, sizeof want, "%.*s", (int)strcspn(l, ",}"), l);
    assert_has(out, want);
    snprintf(want, sizeof want, "%.*s", (int)strcspn(p, ",}"), p);
    assert_has(out, want);
    free(out);
    free(ref);
    /* the table, --name, and no LCP */
    ck_assert_int_eq(sa_cli_sh(&out, NULL, "$P sa check t --sa t.sa --name mine"), 0);
    assert_has(out, "mine");
    assert_has(out, "pass");
    free(out);
    const sa_impl *dss = sa_impl_find("divsufsort");
    char why[256];
    if (dss && dss->available(why, sizeof why)) {
        ck_assert_int_eq(sa_cli_sh(NULL, NULL, "$P sa t --impl divsufsort --out-sa d.sa"), 0);
        ck_assert_int_eq(sa_cli_sh(NULL, NULL, "$P sa check t --sa d.sa --lcp t.lcp"), 0);
    }
}
END_TEST

START_TEST(npy_of_every_integer_type_and_width_64)
{
    if (!sa_cli_have_bin())
        PC_SKIP("parcheck binary not built");
    make_text();
    int64_t n, nl;
    int32_t *sa = load_i32("t.sa", &n), *lcp = load_i32("t.lcp", &nl);
    ck_assert_int_eq(n, 4000);
    static const int dt[] = { PC_DTYPE_I4, PC_DTYPE_U4, PC_DTYPE_I8, PC_DTYPE_U8 };
    for (int a = 0; a < 4; a++) {
        char *out = NULL;
        save_as("s.npy", sa, n, dt[a], 1);
        save_as("l.npy", lcp, n, dt[3 - a], 2); /* another type, shape (n, 1) */
        ck_assert_int_eq(check_json(&out, "t --sa s.npy --lcp l.npy"), 0);
        char fmt[48];
        snprintf(fmt, sizeof fmt, "\"sa_format\":\"npy %s\"", pc_dtype_name(dt[a]));
        assert_has(out, fmt);
        assert_has(out, "\"lcp_equal\":true");
        free(out);
    }
    save_as("s64", sa, n, PC_DTYPE_I8, 0);
    save_as("l64", lcp, n, PC_DTYPE_I8, 0);
    char *out = NULL;
    ck_assert_int_eq(check_json(&out, "t --sa s64 --lcp l64 --width 64"), 0);
    assert_has(out, "\"width\":64");
    assert_has(out, "\"lcp_equal\":true");
    free(out);
    free(sa);
    free(lcp);
}
END_TEST

/* Checks t against SA/LCP files written from sa / lcp and expects exit 1
 * with where[0] = {index, rule}. */
static void expect_fail(const int32_t *sa, const int32_t *lcp, int64_t n, long index,
                        const char *rule, const char *detail)
{
    save_as("bad.sa", sa, n, PC_DTYPE_I4, 0);
    save_as("bad.lcp", lcp, n, PC_DTYPE_I4, 0);
    char *out = NULL, want[96];
    ck_assert_int_eq(check_json(&out, "t --sa bad.sa --lcp bad.lcp"), 1);
    assert_has(out, "\"status\":\"fail\"");
    snprintf(want, sizeof want, "\"where\":[{\"index\":%ld,\"rule\":\"%s\"", index, rule);
    assert_has(out, want);
    if (detail)
        assert_has(out, detail);
    free(out);
}

START_TEST(planted_errors_fail_where_they_are)
{
    if (!sa_cli_have_bin())
        PC_SKIP("parcheck binary not built");
    make_text();
    int64_t n, nl;
    int32_t *sa = load_i32("t.sa", &n), *lcp = load_i32("t.lcp", &nl);
    /* two entries swapped whose first bytes differ: that pair is the first failure */
    int64_t i = 1000;
    unsigned char *t = NULL;
    size_t tn;
    pc_error err;
    ck_assert_int_eq(pc_file_read_all(sa_cli_path("t"), 1 << 20, &t, &tn, &err), 0);
    while (t[sa[i - 1]] == t[sa[i]])
        i++;
    int32_t x = sa[i - 1];
    sa[i - 1] = sa[i];
    sa[i] = x;
    expect_fail(sa, lcp, n, (long)i, "order", "\"inverted\":true");
    sa[i] = sa[i - 1];
    sa[i - 1] = x;
    /* a duplicated entry and a negative one */
    x = sa[77];
    sa[77] = sa[12];
    expect_fail(sa, lcp, n, 77, "permutation", "\"problem\":\"duplicate\",\"first_index\":12");
    sa[77] = -5;
    expect_fail(sa, lcp, n, 77, "permutation", "\"sa\":-5,\"problem\":\"out of range\"");
    sa[77] = x;
    /* an LCP off by one at one place */
    lcp[2500]++;
    expect_fail(sa, lcp, n, 2500, "lcp", "\"sa_equal\":true,\"lcp_equal\":false");
    lcp[2500]--;
    save_as("ok.sa", sa, n, PC_DTYPE_I4, 0);
    save_as("ok.lcp", lcp, n, PC_DTYPE_I4, 0);
    ck_assert_int_eq(sa_cli_sh(NULL, NULL, "$P sa check t --sa ok.sa --lcp ok.lcp"), 0);
    pc_free(t);
    free(sa);
    free(lcp);
}
END_TEST

/* Bytes compared as signed char: the mistake of a C program sorting with
 * `char` (or a Java one with byte). */
static const unsigned char *g_text;
static int64_t g_n;

static int signed_cmp(const void *x, const void *y)
{
    int64_t i = *(const int32_t *)x, j = *(const int32_t *)y;
    for (; i < g_n && j < g_n; i++, j++)
        if (g_text[i] != g_text[j])
            return (signed char)g_text[i] < (signed char)g_text[j] ? -1 : 1;
    return i == g_n ? -1 : 1; /* i != j: exactly one suffix ends first */
}

START_TEST(signed_byte_order_fails_at_the_sign_boundary)
{
    if (!sa_cli_have_bin())
        PC_SKIP("parcheck binary not built");
    ck_assert_int_eq(sa_cli_sh(NULL, NULL, "$P gen text --bytes 3000 --kind random --seed 8 -o t"), 0);
    unsigned char *t = NULL;
    size_t n;
    pc_error err;
    ck_assert_int_eq(pc_file_read_all(sa_cli_path("t"), 1 << 20, &t, &n, &err), 0);
    int32_t *sa = malloc(sizeof *sa * n);
    long high = 0;
    for (size_t i = 0; i < n; i++) {
        sa[i] = (int32_t)i;
        high += t[i] >= 0x80;
    }
    g_text = t;
    g_n = (int64_t)n;
    qsort(sa, n, sizeof *sa, signed_cmp);
    /* every pair with equal first bytes is consistent with the (signed)
     * ranks, so the only failing pair is the last 0x80-0xff suffix before
     * the first 0x00-0x7f one */
    save_as("signed.sa", sa, (int64_t)n, PC_DTYPE_I4, 0);
    char *out = NULL, want[64];
    ck_assert_int_eq(check_json(&out, "t --sa signed.sa"), 1);
    snprintf(want, sizeof want, "\"where\":[{\"index\":%ld,\"rule\":\"order\"", high);
    assert_has(out, want);
    assert_has(out, "\"inverted\":true");
    assert_has(out, "1 of 2999 adjacent pairs fail the order test");
    free(out);
    free(sa);
    pc_free(t);
}
END_TEST

START_TEST(empty_one_byte_nul_and_equal_byte_texts)
{
    if (!sa_cli_have_bin())
        PC_SKIP("parcheck binary not built");
    ck_assert_int_eq(sa_cli_sh(NULL, NULL, ": > e && : > e.sa && $P sa check e --sa e.sa --lcp e.sa"), 0);
    ck_assert_int_eq(sa_cli_sh(NULL, NULL, "printf x > one && printf '\\0\\0\\0\\0' > z4 && "
                                     "$P sa check one --sa z4 --lcp z4"), 0);
    ck_assert_int_eq(sa_cli_sh(NULL, NULL, "printf '\\1\\0\\0\\0' > o4 && $P sa check one --sa o4"), 1);
    static const char *const kinds[] = { "zeros", "random", "periodic" };
    for (int k = 0; k < 3; k++) {
        ck_assert_int_eq(sa_cli_sh(NULL, NULL, "$P gen text --bytes 1500 --kind %s --seed 5 -o k && "
                                         "$P sa k --impl seq --out-sa k.sa --out-lcp k.lcp", kinds[k]), 0);
        ck_assert_int_eq(sa_cli_sh(NULL, NULL, "$P sa check k --sa k.sa --lcp k.lcp"), 0);
    }
    /* zeros: SA = n-1 .. 0 and the longest repeat n-1 bytes */
    char *out = NULL;
    ck_assert_int_eq(sa_cli_sh(NULL, NULL, "$P gen text --bytes 1500 --kind zeros --seed 5 -o k && "
                                     "$P sa k --impl seq --out-sa k.sa --out-lcp k.lcp"), 0);
    ck_assert_int_eq(check_json(&out, "k --sa k.sa --lcp k.lcp"), 0);
    assert_has(out, "\"lrs_length\":1499,\"lrs_pos\":1,\"lrs_pos2\":0");
    free(out);
}
END_TEST

/* `sa check ARGS` must exit 2 and say every string of the NULL-ended list
 * on stderr. */
static void expect_refused(const char *args, ...)
{
    char *err = NULL;
    int rc = sa_cli_sh(NULL, &err, "$P sa check %s", args);
    ck_assert_msg(rc == 2, "'%s': exit %d, want 2 (%s)", args, rc, err);
    va_list ap;
    va_start(ap, args);
    for (const char *w = va_arg(ap, const char *); w; w = va_arg(ap, const char *))
        ck_assert_msg(strstr(err, w), "'%s': stderr lacks '%s':\n%s", args, w, err);
    va_end(ap);
    free(err);
}

START_TEST(bad_files_exit_2_naming_the_file)
{
    if (!sa_cli_have_bin())
        PC_SKIP("parcheck binary not built");
    make_text();
    int64_t n, nl;
    int32_t *sa = load_i32("t.sa", &n), *lcp = load_i32("t.lcp", &nl);
    ck_assert_int_eq(sa_cli_sh(NULL, NULL, "head -c 15998 t.sa > trunc.sa && cat t.sa z > over.sa 2>/dev/null;"
                                     "printf 'abcd' >> over.sa && : > empty.sa"), 0);
    expect_refused("t --sa trunc.sa", "trunc.sa: 15998 bytes, expected 16000", "truncated", NULL);
    expect_refused("t --sa over.sa", "over.sa: 16004 bytes, expected 16000", "oversized", NULL);
    expect_refused("t --sa empty.sa", "empty.sa: 0 bytes, expected 16000", NULL);
    expect_refused("t --sa t.sa --lcp trunc.sa", "trunc.sa:", NULL);
    expect_refused("t --sa t.sa --width 64", "t.sa: 16000 bytes, expected 32000",
                   "32-bit entries? drop --width 64", NULL);
    save_as("t64.sa", sa, n, PC_DTYPE_I8, 0);
    expect_refused("t --sa t64.sa", "t64.sa: 32000 bytes, expected 16000", "give --width 64", NULL);
    /* .npy: a header that lies about its shape, another length, a float
     * dtype, a truncated header, data not aligned for its type */
    save_npy_raw("lie.npy", "<i4", "(4001,)", 0, sa, 16000);
    expect_refused("t --sa lie.npy", "lie.npy:", "16004", "16000", NULL);
    save_npy_raw("short.npy", "<i4", "(3999,)", 0, sa, 15996);
    expect_refused("t --sa short.npy", "short.npy:", "(3999,) holds 3999 entries", "needs 4000", NULL);
    save_npy_raw("wide.npy", "<i4", "(2, 2000)", 0, sa, 16000);
    expect_refused("t --sa wide.npy", "wide.npy:", "(2, 2000)", NULL);
    double *f = malloc(sizeof *f * 4000);
    for (int i = 0; i < 4000; i++)
        f[i] = sa[i];
    save_npy_raw("f8.npy", "<f8", "(4000,)", 0, f, sizeof *f * 4000);
    free(f);
    expect_refused("t --sa f8.npy", "f8.npy:", "'<f8' is not an integer type", NULL);
    save_npy_raw("odd.npy", "<i4", "(4000,)", 2, sa, 16000);
    expect_refused("t --sa odd.npy", "odd.npy:", "not a multiple of 4", NULL);
    ck_assert_int_eq(sa_cli_sh(NULL, NULL, "head -c 9 lie.npy > cut.npy"), 0);
    expect_refused("t --sa cut.npy", "cut.npy:", NULL);
    /* missing files and bad usage */
    expect_refused("nosuch --sa t.sa", "nosuch", NULL);
    expect_refused("t --sa nosuch.sa", "nosuch.sa", NULL);
    expect_refused("t --sa t.sa --lcp nosuch.lcp", "nosuch.lcp", NULL);
    expect_refused("t", "--sa", NULL);
    expect_refused("t --sa t.sa --width 48", "--width", NULL);
    expect_refused("t --sa t.sa --bogus", "--bogus", NULL);
    expect_refused("t t --sa t.sa", "more than one", NULL);
    expect_refused("--sa t.sa", "TEXT", NULL);
    ck_assert_int_eq(sa_cli_sh(NULL, NULL, "$P sa check --help"), 0);
    free(sa);
    free(lcp);
}
END_TEST

START_TEST(texts_beyond_2gb_need_64_bit_entries)
{
    if (!sa_cli_have_bin())
        PC_SKIP("parcheck binary not built");
    /* a sparse file: 2^31 + 1 bytes of text, no disk blocks, never read */
    ck_assert_int_eq(sa_cli_sh(NULL, NULL, "truncate -s 2147483649 big && printf 'abcd' > big.sa"), 0);
    expect_refused("big --sa big.sa", "big.sa:", "int32 entries cannot index the 2147483649-byte text",
                   "--width 64", NULL);
    int32_t four[1] = { 0 };
    save_npy_raw("big.npy", "<i4", "(1,)", 0, four, 4);
    expect_refused("big --sa big.npy", "big.npy:", "int32 entries cannot index", NULL);
    expect_refused("big --sa big.sa --width 64", "big.sa: 4 bytes, expected 17179869192", NULL);
}
END_TEST

START_TEST(allocation_failures_exit_1_then_pass)
{
    if (!sa_cli_have_bin())
        PC_SKIP("parcheck binary not built");
    make_text();
    int last = -1, k;
    for (k = 1; k <= 20 && last != 0; k++) {
        char *out = NULL;
        last = sa_cli_sh(&out, NULL, "PARCHECK_FAIL_ALLOC=%d $P sa check t --sa t.sa --lcp t.lcp", k);
        ck_assert_msg(last == 0 || last == 1, "PARCHECK_FAIL_ALLOC=%d: exit %d", k, last);
        if (last == 1)
            assert_has(out, "out of memory");
        free(out);
    }
    ck_assert_int_eq(last, 0);
    ck_assert_int_eq(k, 3); /* one allocation: the rank / phi array */
}
END_TEST

static Suite *suite_cli_sa_check(void)
{
    Suite *s = suite_create("cli_sa_check");
    TCase *tc = pc_tcase("right");
    tcase_add_checked_fixture(tc, sa_cli_dir_make, sa_cli_dir_remove);
    tcase_add_test(tc, right_arrays_pass);
    tcase_add_test(tc, npy_of_every_integer_type_and_width_64);
    tcase_add_test(tc, empty_one_byte_nul_and_equal_byte_texts);
    suite_add_tcase(s, tc);
    tc = pc_tcase("wrong");
    tcase_add_checked_fixture(tc, sa_cli_dir_make, sa_cli_dir_remove);
    tcase_add_test(tc, planted_errors_fail_where_they_are);
    tcase_add_test(tc, signed_byte_order_fails_at_the_sign_boundary);
    suite_add_tcase(s, tc);
    tc = pc_tcase("refused");
    tcase_add_checked_fixture(tc, sa_cli_dir_make, sa_cli_dir_remove);
    tcase_add_test(tc, bad_files_exit_2_naming_the_file);
    tcase_add_test(tc, texts_beyond_2gb_need_64_bit_entries);
    tcase_add_test(tc, allocation_failures_exit_1_then_pass);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return pc_test_run(suite_cli_sa_check()); }
