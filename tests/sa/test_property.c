/* test_property.c - hundreds of seeded random texts (sizes 0..2^14,
 * alphabets of 2, 4, 26 and 256 symbols) and of repetitive kinds (up to
 * 2^12) against the naive oracle; the word sort of the OpenMP prefix
 * doubling at every key width. */
#include <stdlib.h>

#include "pc_rng.h"
#include "sa_radix.h"
#include "sa_testlib.h"

START_TEST(random_texts)
{
    static const int alphabets[] = { 2, 4, 26, 256 };
    pc_rng r;
    pc_rng_seed(&r, 20240404 + (uint64_t)_i);
    uint8_t *T = pc_malloc(16385);
    ck_assert(T != NULL);
    for (int k = 0; k < 100; k++) {
        int sigma = alphabets[k % 4];
        /* log-uniform sizes: many small ones, some near 2^14 */
        int32_t n = (int32_t)pc_rng_below(&r, (uint64_t)1 << pc_rng_below(&r, 15)) ;
        if (k % 25 == 0)
            n = 16384;
        for (int32_t i = 0; i < n; i++)
            T[i] = (uint8_t)(sigma == 256 ? pc_rng_below(&r, 256) : 'a' + pc_rng_below(&r, (uint64_t)sigma));
        char label[64];
        snprintf(label, sizeof label, "seed %d input %d sigma %d", _i, k, sigma);
        ck_assert_int_ge(sa_test_all_impls(T, n, 2, 1, label), 2);
    }
    pc_free(T);
}
END_TEST

/* Seeded texts of the repetitive kinds (random block and period sizes),
 * up to 4 KiB: the naive oracle sorts them by memcmp over long repeats. */
START_TEST(random_repetitive_texts)
{
    static const int kinds[] = { SA_GEN_REPEAT, SA_GEN_LONGPERIOD, SA_GEN_DNA, SA_GEN_PERIODIC,
                                 SA_GEN_FIBONACCI, SA_GEN_THUEMORSE, SA_GEN_ZEROS };
    pc_rng r;
    pc_rng_seed(&r, 20261125 + (uint64_t)_i);
    uint8_t *T = pc_malloc(4097);
    ck_assert(T != NULL);
    pc_error err;
    for (int k = 0; k < 70; k++) {
        int kind = kinds[k % 7];
        int32_t n = (int32_t)pc_rng_below(&r, (uint64_t)1 << (1 + pc_rng_below(&r, 12)));
        size_t block = 1 + (size_t)pc_rng_below(&r, n / 2 + 300);
        if (kind != SA_GEN_REPEAT && kind != SA_GEN_LONGPERIOD && kind != SA_GEN_DNA)
            block = 0;
        ck_assert_int_eq(sa_gen_text_block(kind, pc_rng_below(&r, 1000), NULL, 0, block, T,
                                           (size_t)n, &err), 0);
        char label[64];
        snprintf(label, sizeof label, "seed %d input %d kind %d", _i, k, kind);
        ck_assert_int_ge(sa_test_all_impls(T, n, 2, 1, label), 2);
    }
    pc_free(T);
}
END_TEST

/* sa_radix_sort_hi at every key width 1..31 (digits of SA_RADIX_BITS, so
 * widths one past a whole number of digits put a single bit in the last
 * digit), 1 and 2 threads: ordered by the key bits, ties in input order
 * (the low word holds the input position). */
START_TEST(radix_sort_hi_every_width)
{
    enum { M = 3000 };
    uint64_t *a = malloc(M * sizeof *a), *tmp = malloc(M * sizeof *tmp);
    int64_t *hist = malloc(2 * ((int64_t)1 << SA_RADIX_BITS) * sizeof *hist);
    ck_assert(a && tmp && hist);
    pc_rng r;
    pc_rng_seed(&r, 77);
    for (int keybits = 1; keybits <= 31; keybits++)
        for (int threads = 1; threads <= 2; threads++) {
            for (int64_t i = 0; i < M; i++) /* a few values, the top bit in half of them */
                a[i] = (((pc_rng_below(&r, 4) << (keybits - 1)) & ((1ULL << keybits) - 1)) |
                        pc_rng_below(&r, 3)) << 32 | (uint64_t)i;
            sa_radix_sort_hi(a, tmp, M, keybits, threads, threads > 1, hist);
            for (int64_t i = 1; i < M; i++)
                ck_assert_msg(a[i - 1] < a[i], "keybits %d, %d threads: position %lld out of order",
                              keybits, threads, (long long)i);
        }
    free(a);
    free(tmp);
    free(hist);
}
END_TEST

static Suite *suite_property(void)
{
    Suite *s = suite_create("sa_property");
    TCase *tc = pc_tcase("property");
    tcase_add_loop_test(tc, random_texts, 0, 4); /* 4 x 100 inputs */
    tcase_add_loop_test(tc, random_repetitive_texts, 0, 2); /* 2 x 70 inputs */
    tcase_add_test(tc, radix_sort_hi_every_width);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return pc_test_run(suite_property()); }
