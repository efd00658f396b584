/* test_adversarial.c - inputs that break suffix sorters: tiny, constant,
 * periodic, Fibonacci / Thue-Morse, repeated blocks, trailing NULs,
 * n = 2^k +- 1, on both the serial and the parallel code paths. */
#include "pc_rng.h"
#include "sa_testlib.h"

static uint8_t *make(int32_t n)
{
    uint8_t *T = pc_malloc((size_t)n + 1);
    ck_assert(T != NULL);
    return T;
}

/* Checks T with the naive oracle when small, with 1 and 2 threads. */
static void check(const uint8_t *T, int32_t n, const char *label)
{
    int naive = n <= sa_test_naive_max();
    ck_assert_int_ge(sa_test_all_impls(T, n, 1, naive, label), 2);
    ck_assert_int_ge(sa_test_all_impls(T, n, 2, naive, label), 2);
}

START_TEST(tiny)
{
    static const char *const cases[] = { "", "a", "\x00", "\xff", "ab", "ba", "aa",
                                         "\x00\x00", "\xff\x00", "\x00\xff", "\x80\x7f" };
    static const int lens[] = { 0, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2 };
    for (int i = 0; i < (int)(sizeof lens / sizeof lens[0]); i++)
        check((const uint8_t *)cases[i], lens[i], "tiny");
}
END_TEST

static const int32_t sizes[] = { 3, 100, 4095, 4097, 16383, 16385, 65535, 65537, 131071, 131073 };
#define NSIZES ((int)(sizeof sizes / sizeof sizes[0]))

START_TEST(constant_bytes)
{
    for (int s = 0; s < NSIZES; s++)
        for (int v = 0; v < 2; v++) {
            int32_t n = sizes[s];
            uint8_t *T = make(n);
            memset(T, v ? 0xff : 0x00, (size_t)n);
            check(T, n, v ? "all 0xff" : "all 0x00");
            pc_free(T);
        }
}
END_TEST

START_TEST(periods)
{
    static const int periods[] = { 2, 3, 7, 64, 1000 };
    pc_rng r;
    pc_rng_seed(&r, 11);
    for (int s = 0; s < NSIZES; s++)
        for (int p = 0; p < 5; p++) {
            int32_t n = sizes[s];
            uint8_t *T = make(n);
            uint8_t unit[1000];
            for (int i = 0; i < periods[p]; i++)
                unit[i] = p == 0 ? (uint8_t)"ab"[i] : (uint8_t)pc_rng_below(&r, 256);
            for (int32_t i = 0; i < n; i++)
                T[i] = unit[i % periods[p]];
            check(T, n, "periodic");
            pc_free(T);
        }
}
END_TEST

START_TEST(words)
{
    pc_error err;
    for (int s = 0; s < NSIZES; s++) {
        int32_t n = sizes[s];
        uint8_t *T = make(n);
        ck_assert_int_eq(sa_gen_text(SA_GEN_FIBONACCI, 0, NULL, 0, T, (size_t)n, &err), 0);
        check(T, n, "fibonacci");
        ck_assert_int_eq(sa_gen_text(SA_GEN_THUEMORSE, 0, NULL, 0, T, (size_t)n, &err), 0);
        check(T, n, "thue-morse");
        pc_free(T);
    }
}
END_TEST

START_TEST(repeated_block_and_trailing_nuls)
{
    pc_rng r;
    pc_rng_seed(&r, 12);
    for (int s = 0; s < NSIZES; s++) {
        int32_t n = sizes[s];
        uint8_t *T = make(n);
        int32_t blk = n / 3 + 1;
        for (int32_t i = 0; i < blk && i < n; i++)
            T[i] = (uint8_t)pc_rng_below(&r, 256);
        for (int32_t i = blk; i < n; i++)
            T[i] = T[i - blk];
        check(T, n, "random block repeated");
        for (int32_t i = 0; i < n; i++)
            T[i] = (uint8_t)pc_rng_below(&r, 4);
        for (int32_t i = n - n / 4 - 1; i < n; i++)
            T[i] = 0;
        check(T, n, "trailing NULs");
        pc_free(T);
    }
}
END_TEST

START_TEST(size_refused)
{
    pc_error err;
    ck_assert_int_eq(sa_check_size(SA_MAX_N, "x", &err), 0);
    ck_assert_int_eq(sa_check_size(SA_MAX_N + 1, "big.txt", &err), PC_ERANGE);
    ck_assert_ptr_nonnull(strstr(err.msg, "big.txt"));
    ck_assert_ptr_nonnull(strstr(err.msg, "32-bit"));
}
END_TEST

static Suite *suite_adversarial(void)
{
    Suite *s = suite_create("sa_adversarial");
    TCase *tc = pc_tcase("adversarial");
    tcase_add_test(tc, tiny);
    tcase_add_test(tc, constant_bytes);
    tcase_add_test(tc, periods);
    tcase_add_test(tc, words);
    tcase_add_test(tc, repeated_block_and_trailing_nuls);
    tcase_add_test(tc, size_refused);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return pc_test_run(suite_adversarial()); }
