/* test_cuda.c - what only the GPU suffix arrays need beyond the shared
 * suites (which already run cuda and cuda-ms on the shared texts, the
 * adversarial set and the random property inputs once a device exists):
 * every size from 0 to 70 against the naive oracle, 2^k +- 1 sizes against
 * seq, inputs up to 2^28 bytes against the O(n) oracles, the LCP computed on
 * the device (and by Kasai when the repeats are long), cuda == cuda-ms,
 * the device-memory model, and the no-device contract. */
#include <stdlib.h>

#include "pc_rng.h"
#include "pc_time.h"
#include "sa_testlib.h"

#if SA_WITH_CUDA
#include "cuda/sa_cuda.h"
#include "pc_cuda.h"

#define NEED_GPU()                                      \
    do {                                                \
        char why_[256];                                 \
        if (!sa_cuda_available(why_, sizeof why_))     \
            PC_SKIP(why_);                              \
    } while (0)

/* Fills T with n bytes of a kind: 0 random bytes, 1 Markov text, 2 periodic
 * (period p over 4 letters), 3 all zeros, 4 two letters at random. */
static void fill(uint8_t *T, int32_t n, int kind, uint64_t seed)
{
    pc_error err;
    pc_rng r;
    pc_rng_seed(&r, seed);
    switch (kind) {
    case 0:
        ck_assert_int_eq(sa_gen_text(SA_GEN_RANDOM, seed, NULL, 0, T, (size_t)n, &err), 0);
        break;
    case 1:
        ck_assert_int_eq(sa_gen_text(SA_GEN_TEXT, seed, NULL, 0, T, (size_t)n, &err), 0);
        break;
    case 2: {
        int p = 1 + (int)pc_rng_below(&r, 37);
        uint8_t unit[64];
        for (int i = 0; i < p; i++)
            unit[i] = (uint8_t)"acgt"[pc_rng_below(&r, 4)];
        for (int32_t i = 0; i < n; i++)
            T[i] = unit[i % p];
        break;
    }
    case 3:
        memset(T, 0, (size_t)n);
        break;
    default:
        for (int32_t i = 0; i < n; i++)
            T[i] = (uint8_t)(pc_rng_below(&r, 2) ? 0xff : 0x00);
    }
}

/* Runs cuda and cuda-ms with the device LCP; checks both against the
 * reference SA/LCP when given, else against the O(n) oracles; both must be
 * identical. Returns the cuda run's stats. */
static sa_cuda_stats run_both(const uint8_t *T, int32_t n, const int32_t *refsa,
                              const int32_t *reflcp, const char *label)
{
    int32_t *SA = pc_malloc_array((size_t)n + 1, sizeof *SA);
    int32_t *LCP = pc_malloc_array((size_t)n + 1, sizeof *LCP);
    int32_t *SA2 = pc_malloc_array((size_t)n + 1, sizeof *SA2);
    int32_t *LCP2 = pc_malloc_array((size_t)n + 1, sizeof *LCP2);
    ck_assert(SA && LCP && SA2 && LCP2);
    pc_error err;
    sa_cuda_stats st, st2;
    for (int32_t i = 0; i < n; i++)
        SA[i] = LCP[i] = SA2[i] = LCP2[i] = -7;
    int rc = sa_cuda_run(T, n, SA, LCP, 0, 2, &st, &err);
    ck_assert_msg(rc == 0, "cuda on %s (n=%d): %s", label, (int)n, err.msg);
    rc = sa_cuda_run(T, n, SA2, LCP2, 1, 2, &st2, &err);
    ck_assert_msg(rc == 0, "cuda-ms on %s (n=%d): %s", label, (int)n, err.msg);
    if (refsa) {
        ck_assert_msg(!memcmp(SA, refsa, sizeof *SA * (size_t)n), "cuda on %s (n=%d): SA differs",
                      label, (int)n);
        ck_assert_msg(!memcmp(LCP, reflcp, sizeof *LCP * (size_t)n),
                      "cuda on %s (n=%d): LCP differs (device LCP %d)", label, (int)n, st.lcp_on_gpu);
    } else {
        rc = sa_oracle_check_sa(T, n, SA, &err);
        ck_assert_msg(rc == 0, "cuda on %s (n=%d): %s", label, (int)n, err.msg);
        rc = sa_oracle_check_lcp(T, n, SA, LCP, &err);
        ck_assert_msg(rc == 0, "cuda on %s (n=%d, device LCP %d): %s", label, (int)n,
                      st.lcp_on_gpu, err.msg);
    }
    ck_assert_msg(!memcmp(SA, SA2, sizeof *SA * (size_t)n), "cuda-ms SA differs on %s", label);
    ck_assert_msg(!memcmp(LCP, LCP2, sizeof *LCP * (size_t)n), "cuda-ms LCP differs on %s", label);
    pc_free(SA);
    pc_free(LCP);
    pc_free(SA2);
    pc_free(LCP2);
    return st;
}

START_TEST(every_small_size)
{
    NEED_GPU();
    uint8_t T[80];
    int32_t ref[80], refl[80];
    pc_error err;
    for (int kind = 0; kind < 5; kind++)
        for (int32_t n = 0; n <= 70; n++) {
            fill(T, n, kind, (uint64_t)(1000 * kind + n));
            ck_assert_int_eq(sa_oracle_naive_sa(T, n, ref, &err), 0);
            sa_oracle_naive_lcp(T, n, ref, refl);
            char label[64];
            snprintf(label, sizeof label, "kind %d n %d", kind, (int)n);
            run_both(T, n, ref, refl, label);
        }
}
END_TEST

/* 2^k - 1, 2^k, 2^k + 1 up to 2^20 against seq + Kasai. */
START_TEST(power_sizes_vs_seq)
{
    NEED_GPU();
    int kind = _i;
    for (int k = 4; k <= 20; k += 2)
        for (int d = -1; d <= 1; d++) {
            int32_t n = (1 << k) + d;
            uint8_t *T = pc_malloc((size_t)n);
            int32_t *ref = pc_malloc_array((size_t)n, sizeof *ref);
            int32_t *refl = pc_malloc_array((size_t)n, sizeof *refl);
            ck_assert(T && ref && refl);
            pc_error err;
            fill(T, n, kind, (uint64_t)(77 + k));
            ck_assert_int_eq(sa_build_seq(T, n, ref, 1, &err), 0);
            ck_assert_int_eq(sa_lcp_kasai(T, ref, n, refl, 2, &err), 0);
            char label[64];
            snprintf(label, sizeof label, "kind %d n %d", kind, (int)n);
            run_both(T, n, ref, refl, label);
            pc_free(T);
            pc_free(ref);
            pc_free(refl);
        }
}
END_TEST

/* Rounds cut into batches, and batches of one group longer than the
 * batch capacity (no sort): small capacities force both on small inputs of
 * every kind; results against seq + Kasai. */
START_TEST(batched_rounds)
{
    NEED_GPU();
    static const long long caps[] = { 1, 7, 64, 1000 };
    static const int32_t sizes[] = { 2, 3, 17, 100, 257, 5000, 65537 };
    int batched = 0, single = 0;
    for (size_t ci = 0; ci < sizeof caps / sizeof caps[0]; ci++)
        for (int kind = 0; kind < 5; kind++)
            for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
                int32_t n = sizes[si];
                uint8_t *T = pc_malloc((size_t)n);
                int32_t *ref = pc_malloc_array((size_t)n, sizeof *ref);
                int32_t *refl = pc_malloc_array((size_t)n, sizeof *refl);
                ck_assert(T && ref && refl);
                pc_error err;
                fill(T, n, kind, (uint64_t)(31 * n + kind));
                ck_assert_int_eq(sa_build_seq(T, n, ref, 1, &err), 0);
                ck_assert_int_eq(sa_lcp_kasai(T, ref, n, refl, 1, &err), 0);
                char label[80];
                snprintf(label, sizeof label, "kind %d n %d batch cap %lld", kind, (int)n, caps[ci]);
                sa_cuda_set_batch_items(caps[ci]);
                sa_cuda_stats st = run_both(T, n, ref, refl, label);
                sa_cuda_set_batch_items(0);
                batched += st.max_batches > 1;
                single += st.group_batches > 0;
                pc_free(T);
                pc_free(ref);
                pc_free(refl);
            }
    printf("sa-cuda batched rounds: %d runs cut rounds into batches, %d had one-group batches\n",
           batched, single);
    ck_assert_msg(batched > 0 && single > 0, "batched %d, one-group %d: a path was not taken",
                  batched, single);
}
END_TEST

/* Large inputs: the O(n) oracles (a suffix array passing them is the one seq
 * builds, which would take minutes here). Prints the figures. */
static void large(int32_t n, int kind, const char *label)
{
    NEED_GPU();
    uint8_t *T = pc_malloc((size_t)n);
    ck_assert(T != NULL);
    fill(T, n, kind, 4242);
    sa_cuda_stats st = run_both(T, n, NULL, NULL, label);
    printf("sa-cuda %s n=%d: %.1f MB/s (upload %.3f init %.3f rounds %.3f [%d] check %.3f "
           "finish %.3f s), device %.2f B/n counted, %.2f B/n pool, "
           "%d words x %d x %d-bit chars, active after init %.3f, longest group %lld, batches %d, "
           "one-group batches %d, h %lld, LCP on %s\n",
           label, (int)n, n / 1e6 / st.s_total, st.s_upload, st.s_init, st.s_rounds, st.rounds,
           st.s_check, st.s_finish, (double)st.device_peak_bytes / n,
           (double)st.pool_peak_bytes / n, st.initial_words, st.chars_per_word, st.bits_per_char,
           (double)st.active_after_init / n, st.longest_group, st.max_batches, st.group_batches,
           st.h_final, st.lcp_on_gpu ? "GPU" : "host");
    /* the documented model (README-sa-cuda.md): 17n + n / 8, plus CUB's
     * temporary storage and 64 MB of slack */
    double model = 17.0 * n + n / 8.0 + (64 << 20);
    ck_assert_msg(st.device_peak_bytes <= model, "device peak %lld > model %.0f",
                  st.device_peak_bytes, model);
    pc_free(T);
}

START_TEST(large_random_2_28) { large(1 << 28, 0, "random 2^28"); }
END_TEST
START_TEST(large_text_2_26) { large(1 << 26, 1, "text 2^26"); }
END_TEST
START_TEST(large_periodic_2_24) { large((1 << 24) + 3, 2, "periodic 2^24+3"); }
END_TEST
START_TEST(large_zeros_2_24) { large(1 << 24, 3, "zeros 2^24"); }
END_TEST
START_TEST(large_binary_2_26) { large((1 << 26) - 1, 4, "two letters 2^26-1"); }
END_TEST

START_TEST(bad_arguments)
{
    NEED_GPU();
    pc_error err;
    int32_t SA[1];
    ck_assert_int_eq(sa_cuda_run(NULL, 5, SA, NULL, 0, 1, NULL, &err), PC_EINVAL);
    ck_assert_int_eq(sa_cuda_run(NULL, 0, NULL, NULL, 1, 1, NULL, &err), 0);
}
END_TEST
#endif

/* Without a device (or without CUDA in the build) both entries say why and
 * refuse; with one, they build. */
START_TEST(availability_contract)
{
    const sa_impl *c = sa_impl_find("cuda"), *ms = sa_impl_find("cuda-ms");
    ck_assert(c && ms);
    char why[256];
    int ok = c->available(why, sizeof why);
    ck_assert_int_eq(ok, ms->available(why, sizeof why));
    if (!ok) {
#if SA_WITH_CUDA
        ck_assert_msg(!strcmp(why, PC_CUDA_NO_DEVICE) || !strncmp(why, "NVIDIA driver too old", 21) ||
                          !strncmp(why, "CUDA unusable (", 15), "reason: %s", why);
        pc_error err;
        int32_t SA[4];
        ck_assert_int_eq(sa_build_cuda((const uint8_t *)"abc", 3, SA, 1, &err), PC_EUNAVAIL);
        ck_assert_int_eq(sa_build_cuda_ms((const uint8_t *)"abc", 3, SA, 1, &err), PC_EUNAVAIL);
        ck_assert_ptr_nonnull(strstr(err.msg, why));
#endif
        PC_SKIP(why);
    }
    pc_error err;
    int32_t SA[4];
    ck_assert_int_eq(c->build((const uint8_t *)"abc", 3, SA, 1, &err), 0);
    ck_assert(SA[0] == 0 && SA[1] == 1 && SA[2] == 2);
}
END_TEST

static Suite *suite_cuda(void)
{
    Suite *s = suite_create("sa_cuda");
    TCase *tc = pc_tcase("cuda");
    tcase_add_test(tc, availability_contract);
#if SA_WITH_CUDA
    tcase_add_test(tc, bad_arguments);
    tcase_add_test(tc, every_small_size);
    tcase_add_loop_test(tc, power_sizes_vs_seq, 0, 5);
    tcase_add_test(tc, batched_rounds);
    tcase_add_test(tc, large_periodic_2_24);
    tcase_add_test(tc, large_zeros_2_24);
    tcase_add_test(tc, large_binary_2_26);
    tcase_add_test(tc, large_text_2_26);
    tcase_add_test(tc, large_random_2_28);
#endif
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return pc_test_run(suite_cuda()); }
