/* test_property.c - hundreds of seeded random texts (sizes 0..2^14,
 * alphabets of 2, 4, 26 and 256 symbols) against the naive oracle. */
#include "pc_rng.h"
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

static Suite *suite_property(void)
{
    Suite *s = suite_create("sa_property");
    TCase *tc = pc_tcase("property");
    tcase_add_loop_test(tc, random_texts, 0, 4); /* 4 x 100 inputs */
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return pc_test_run(suite_property()); }
