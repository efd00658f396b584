/* test_cuda.c - what only the GPU suffix arrays need beyond the shared
 * suites (which already run cuda, cuda-ms and cuda-dc on the shared texts, the
 * adversarial set and the random property inputs once a device exists):
 * every size from 0 to 70 against the naive oracle, 2^k +- 1 sizes against
 * seq, inputs up to 2^28 bytes against the O(n) oracles, the LCP computed on
 * the device (and by Kasai when the repeats are long), cuda == cuda-ms ==
 * cuda-dc (and cuda-dc's switches to the compacted rounds and to its
 * difference-cover sample at moduli 16, 32 and 64),
 * the device-memory model, and the no-device contract. */
#include <stdlib.h>

#include "pc_rng.h"
#include "pc_time.h"
#include "sa_testlib.h"

#if SA_WITH_CUDA
#include "cuda/sa_cuda.h"
#include "pc_cuda.h"

/* Kinds of fill(). */
#define SA_CUDA_KINDS 6

#define NEED_GPU()                                      \
    do {                                                \
        char why_[256];                                 \
        if (!sa_cuda_available(why_, sizeof why_))     \
            PC_SKIP(why_);                              \
    } while (0)

/* Fills T with n bytes of a kind: 0 random bytes, 1 Markov text, 2 periodic
 * (period p over 4 letters), 3 all zeros, 4 two letters at random, 5 a
 * block of random bytes repeated (n/64 bytes, at least 1: the repeated
 * block whose unsorted set shrinks slowly). */
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
    case 4:
        for (int32_t i = 0; i < n; i++)
            T[i] = (uint8_t)(pc_rng_below(&r, 2) ? 0xff : 0x00);
        break;
    default: {
        int32_t blk = n / 64 > 0 ? n / 64 : 1;
        for (int32_t i = 0; i < n; i++)
            T[i] = i < blk ? (uint8_t)pc_rng_below(&r, 256) : T[i - blk];
    }
    }
}

/* Runs cuda, cuda-ms and cuda-dc with the device LCP; checks cuda against
 * the reference SA/LCP when given, else against the O(n) oracles; the other
 * two must be identical to it. Returns the cuda run's stats, and cuda-dc's
 * in *dc when dc != NULL. */
static sa_cuda_stats run_all(const uint8_t *T, int32_t n, const int32_t *refsa,
                             const int32_t *reflcp, const char *label, sa_cuda_stats *dc)
{
    static const char *names[] = { "cuda", "cuda-ms", "cuda-dc" };
    static const int models[] = { SA_CUDA_ONE_STREAM, SA_CUDA_MULTI_STREAM, SA_CUDA_DISCARD };
    int32_t *SA[3], *LCP[3];
    sa_cuda_stats st[3];
    pc_error err;
    for (int v = 0; v < 3; v++) {
        SA[v] = pc_malloc_array((size_t)n + 1, sizeof *SA[v]);
        LCP[v] = pc_malloc_array((size_t)n + 1, sizeof *LCP[v]);
        ck_assert(SA[v] && LCP[v]);
        for (int32_t i = 0; i < n; i++)
            SA[v][i] = LCP[v][i] = -7;
        int rc = sa_cuda_run(T, n, SA[v], LCP[v], models[v], 2, &st[v], &err);
        ck_assert_msg(rc == 0, "%s on %s (n=%d): %s", names[v], label, (int)n, err.msg);
    }
    if (refsa) {
        ck_assert_msg(!memcmp(SA[0], refsa, sizeof *SA[0] * (size_t)n), "cuda on %s (n=%d): SA differs",
                      label, (int)n);
        ck_assert_msg(!memcmp(LCP[0], reflcp, sizeof *LCP[0] * (size_t)n),
                      "cuda on %s (n=%d): LCP differs (device LCP %d)", label, (int)n, st[0].lcp_on_gpu);
    } else {
        int rc = sa_oracle_check_sa(T, n, SA[0], &err);
        ck_assert_msg(rc == 0, "cuda on %s (n=%d): %s", label, (int)n, err.msg);
        rc = sa_oracle_check_lcp(T, n, SA[0], LCP[0], &err);
        ck_assert_msg(rc == 0, "cuda on %s (n=%d, device LCP %d): %s", label, (int)n,
                      st[0].lcp_on_gpu, err.msg);
    }
    for (int v = 1; v < 3; v++) {
        ck_assert_msg(!memcmp(SA[0], SA[v], sizeof *SA[0] * (size_t)n), "%s SA differs on %s (n=%d)",
                      names[v], label, (int)n);
        ck_assert_msg(!memcmp(LCP[0], LCP[v], sizeof *LCP[0] * (size_t)n), "%s LCP differs on %s (n=%d)",
                      names[v], label, (int)n);
    }
    for (int v = 0; v < 3; v++) {
        pc_free(SA[v]);
        pc_free(LCP[v]);
    }
    if (dc)
        *dc = st[2];
    return st[0];
}

START_TEST(every_small_size)
{
    NEED_GPU();
    uint8_t T[80];
    int32_t ref[80], refl[80];
    pc_error err;
    for (int kind = 0; kind < SA_CUDA_KINDS; kind++)
        for (int32_t n = 0; n <= 70; n++) {
            fill(T, n, kind, (uint64_t)(1000 * kind + n));
            ck_assert_int_eq(sa_oracle_naive_sa(T, n, ref, &err), 0);
            sa_oracle_naive_lcp(T, n, ref, refl);
            char label[64];
            snprintf(label, sizeof label, "kind %d n %d", kind, (int)n);
            run_all(T, n, ref, refl, label, NULL);
        }
}
END_TEST

/* Fills n bytes of a kind from seed, builds the reference with seq +
 * Kasai, runs run_all with the batch capacity cap (0: the default; see
 * sa_cuda_set_batch_items) and frees; returns cuda's stats, and cuda-dc's
 * in *dc when dc != NULL. */
static sa_cuda_stats run_vs_seq(int32_t n, int kind, uint64_t seed, long long cap, const char *what,
                                sa_cuda_stats *dc)
{
    uint8_t *T = pc_malloc((size_t)n);
    int32_t *ref = pc_malloc_array((size_t)n, sizeof *ref);
    int32_t *refl = pc_malloc_array((size_t)n, sizeof *refl);
    ck_assert(T && ref && refl);
    pc_error err;
    fill(T, n, kind, seed);
    ck_assert_int_eq(sa_build_seq(T, n, ref, 1, &err), 0);
    ck_assert_int_eq(sa_lcp_kasai(T, ref, n, refl, 2, &err), 0);
    char label[96];
    snprintf(label, sizeof label, "%skind %d n %d batch cap %lld", what, kind, (int)n, cap);
    sa_cuda_set_batch_items(cap);
    sa_cuda_stats st = run_all(T, n, ref, refl, label, dc);
    sa_cuda_set_batch_items(0);
    pc_free(T);
    pc_free(ref);
    pc_free(refl);
    return st;
}

/* 2^k - 1, 2^k, 2^k + 1 up to 2^20 against seq + Kasai. */
START_TEST(power_sizes_vs_seq)
{
    NEED_GPU();
    for (int k = 4; k <= 20; k += 2)
        for (int d = -1; d <= 1; d++)
            run_vs_seq((1 << k) + d, _i, (uint64_t)(77 + k), 0, "", NULL);
}
END_TEST

/* Rounds cut into batches, and batches of one group longer than the
 * batch capacity (no sort): small capacities force both on small inputs of
 * every kind; results against seq + Kasai. The same capacity caps
 * cuda-dc's compacted rounds, so that its runs also begin with batched
 * rounds over SA and switch to the compacted ones midway. */
START_TEST(batched_rounds)
{
    NEED_GPU();
    static const long long caps[] = { 1, 7, 64, 1000 };
    static const int32_t sizes[] = { 2, 3, 17, 100, 257, 5000, 65537 };
    int batched = 0, single = 0, compacted = 0, switched = 0, dc_ranges = 0, dc_single = 0;
    for (size_t ci = 0; ci < sizeof caps / sizeof caps[0]; ci++)
        for (int kind = 0; kind < SA_CUDA_KINDS; kind++)
            for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
                int32_t n = sizes[si];
                sa_cuda_stats dc;
                sa_cuda_stats st = run_vs_seq(n, kind, (uint64_t)(31 * n + kind), caps[ci], "", &dc);
                batched += st.max_batches > 1;
                single += st.group_batches > 0;
                compacted += dc.compact_rounds > 0;
                switched += dc.compact_rounds > 0 && dc.rounds > dc.compact_rounds;
                dc_ranges += dc.max_batches > 1;
                dc_single += dc.group_batches > 0;
            }
    printf("sa-cuda batched rounds: %d runs cut rounds into batches, %d had one-group batches; "
           "cuda-dc: %d runs with compacted rounds, %d switched to them after rounds over SA, "
           "%d cut rounds into batches, %d had one-group ones\n",
           batched, single, compacted, switched, dc_ranges, dc_single);
    ck_assert_msg(batched > 0 && single > 0 && compacted > 0 && switched > 0 && dc_ranges > 0 &&
                      dc_single > 0,
                  "batched %d, one-group %d, compacted %d, switched %d, cuda-dc batched %d, one-group %d: "
                  "a path was not taken", batched, single, compacted, switched, dc_ranges, dc_single);
}
END_TEST

/* cuda-dc's optional segmented rounds (SA_CUDA_DC_SEGMENTED=1): rounds cut
 * into ranges of whole groups, groups longer than a range on their own,
 * then the compacted rounds; every kind against seq + Kasai (cuda and
 * cuda-ms, which ignore the switch, run beside as before). */
START_TEST(dc_segmented_rounds)
{
    NEED_GPU();
    static const long long caps[] = { 0, 7, 1000 };
    static const int32_t sizes[] = { 257, 5000, 65537 };
    int ranges = 0, single = 0, compacted = 0;
    setenv("SA_CUDA_DC_SEGMENTED", "1", 1);
    for (size_t ci = 0; ci < sizeof caps / sizeof caps[0]; ci++)
        for (int kind = 0; kind < SA_CUDA_KINDS; kind++)
            for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
                int32_t n = sizes[si];
                sa_cuda_stats dc;
                run_vs_seq(n, kind, (uint64_t)(17 * n + kind), caps[ci], "segmented, ", &dc);
                ranges += dc.max_batches > 1 && dc.rounds > dc.compact_rounds;
                single += dc.group_batches > 0;
                compacted += dc.compact_rounds > 0;
            }
    unsetenv("SA_CUDA_DC_SEGMENTED");
    printf("sa-cuda-dc segmented rounds: %d runs cut rounds into ranges, %d had groups longer than a "
           "range, %d went on with compacted rounds\n", ranges, single, compacted);
    ck_assert_msg(ranges > 0 && single > 0 && compacted > 0,
                  "ranges %d, long groups %d, compacted %d: a path was not taken", ranges, single,
                  compacted);
}
END_TEST

/* cuda-dc's difference-cover sample (sa_cuda_dcs.cu) at each modulus, and
 * turned off: every kind and size against seq + Kasai (cuda and cuda-ms
 * beside, identical). The repeated block and short periods take it; long
 * groups (all zeros, long inputs of a short period) make it decline. */
START_TEST(dc_sample_switch)
{
    NEED_GPU();
    /* "64 late": the sample only from h = 64 on (SA_CUDA_DC_EARLY=0), not
     * from h = 16 with its first ranks from several ranks of the text */
    static const char *mods[] = { "16", "32", "64", "64 late", "0" };
    static const int32_t sizes[] = { 257, 1151, 1152, 5000, 65537, 262147 };
    for (size_t mi = 0; mi < sizeof mods / sizeof mods[0]; mi++) {
        int taken = 0, declined = 0, runs = 0, early = 0;
        int late = !strcmp(mods[mi], "64 late");
        setenv("SA_CUDA_DC_SAMPLE", late ? "64" : mods[mi], 1);
        if (late)
            setenv("SA_CUDA_DC_EARLY", "0", 1);
        for (int kind = 0; kind < SA_CUDA_KINDS; kind++)
            for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
                int32_t n = sizes[si];
                sa_cuda_stats dc;
                char what[32];
                snprintf(what, sizeof what, "sample %s, ", mods[mi]);
                run_vs_seq(n, kind, (uint64_t)(13 * n + kind), 0, what, &dc);
                runs++;
                if (dc.sample_v) {
                    taken++;
                    early += dc.sample_from_h < dc.sample_v;
                    ck_assert_int_eq(dc.sample_v, atoi(mods[mi]));
                    ck_assert_msg(dc.sample_groups > 0 || dc.sample_items == 0,
                                  "sample %s kind %d n %d: no group sorted", mods[mi], kind, (int)n);
                } else if (dc.compact_rounds == 0 && dc.rounds > 0) {
                    declined++;
                }
            }
        unsetenv("SA_CUDA_DC_SAMPLE");
        unsetenv("SA_CUDA_DC_EARLY");
        printf("sa-cuda-dc sample modulus %s: taken in %d of %d runs (%d below h = v), %d finished "
               "without it by rounds over SA\n", mods[mi], taken, runs, early, declined);
        if (!strcmp(mods[mi], "0"))
            ck_assert_msg(taken == 0, "SA_CUDA_DC_SAMPLE=0 took the sample %d times", taken);
        else
            ck_assert_msg(taken > 0 && declined > 0 && (late || !strcmp(mods[mi], "16") ? early == 0 : early > 0),
                          "modulus %s: taken %d (%d below h = v), declined %d: a path was (not) taken",
                          mods[mi], taken, early, declined);
    }
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
    sa_cuda_stats dc;
    sa_cuda_stats st = run_all(T, n, NULL, NULL, label, &dc);
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
    printf("sa-cuda-dc %s n=%d: %.1f MB/s (init %.3f rounds %.3f [%d, %d compacted, %d over a sample "
           "mod %d of %lld suffixes, then %lld groups] s), device %.2f B/n counted, %.2f B/n pool\n",
           label, (int)n, n / 1e6 / dc.s_total, dc.s_init, dc.s_rounds, dc.rounds, dc.compact_rounds,
           dc.sample_rounds, dc.sample_v, dc.sample_items, dc.sample_groups,
           (double)dc.device_peak_bytes / n, (double)dc.pool_peak_bytes / n);
    /* cuda-dc's sample adds its group-start bits (n / 8) when taken */
    double dc_model = model + (dc.sample_v ? n / 8.0 : 0);
    if (!dc.sample_v)
        ck_assert_msg(dc.device_peak_bytes <= st.device_peak_bytes,
                      "cuda-dc without its sample held %lld bytes, cuda %lld", dc.device_peak_bytes,
                      st.device_peak_bytes);
    ck_assert_msg(dc.device_peak_bytes <= dc_model, "cuda-dc device peak %lld > model %.0f",
                  dc.device_peak_bytes, dc_model);
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
START_TEST(large_repeat_2_26) { large(1 << 26, 5, "repeated 1 MB block x 64"); }
END_TEST

START_TEST(bad_arguments)
{
    NEED_GPU();
    pc_error err;
    int32_t SA[2];
    ck_assert_int_eq(sa_cuda_run(NULL, 5, SA, NULL, 0, 1, NULL, &err), PC_EINVAL);
    ck_assert_int_eq(sa_cuda_run(NULL, 0, NULL, NULL, 1, 1, NULL, &err), 0);
    ck_assert_int_eq(sa_cuda_run((const uint8_t *)"ab", 2, SA, NULL, 3, 1, NULL, &err), PC_EINVAL);
}
END_TEST
#endif

/* Without a device (or without CUDA in the build) both entries say why and
 * refuse; with one, they build. */
START_TEST(availability_contract)
{
    const sa_impl *c = sa_impl_find("cuda"), *ms = sa_impl_find("cuda-ms"),
                  *dc = sa_impl_find("cuda-dc");
    ck_assert(c && ms && dc);
    char why[256];
    int ok = c->available(why, sizeof why);
    ck_assert_int_eq(ok, ms->available(why, sizeof why));
    ck_assert_int_eq(ok, dc->available(why, sizeof why));
    if (!ok) {
#if SA_WITH_CUDA
        ck_assert_msg(!strcmp(why, PC_CUDA_NO_DEVICE) || !strncmp(why, "NVIDIA driver too old", 21) ||
                          !strncmp(why, "CUDA unusable (", 15), "reason: %s", why);
        pc_error err;
        int32_t SA[4];
        ck_assert_int_eq(sa_build_cuda((const uint8_t *)"abc", 3, SA, 1, &err), PC_EUNAVAIL);
        ck_assert_int_eq(sa_build_cuda_ms((const uint8_t *)"abc", 3, SA, 1, &err), PC_EUNAVAIL);
        ck_assert_int_eq(sa_build_cuda_dc((const uint8_t *)"abc", 3, SA, 1, &err), PC_EUNAVAIL);
        ck_assert_ptr_nonnull(strstr(err.msg, why));
#endif
        PC_SKIP(why);
    }
    pc_error err;
    int32_t SA[4];
    for (int v = 0; v < 3; v++) {
        const sa_impl *e = v == 0 ? c : v == 1 ? ms : dc;
        SA[0] = SA[1] = SA[2] = -1;
        ck_assert_int_eq(e->build((const uint8_t *)"abc", 3, SA, 1, &err), 0);
        ck_assert(SA[0] == 0 && SA[1] == 1 && SA[2] == 2);
    }
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
    tcase_add_loop_test(tc, power_sizes_vs_seq, 0, SA_CUDA_KINDS);
    tcase_add_test(tc, batched_rounds);
    tcase_add_test(tc, dc_segmented_rounds);
    tcase_add_test(tc, dc_sample_switch);
    tcase_add_test(tc, large_periodic_2_24);
    tcase_add_test(tc, large_zeros_2_24);
    tcase_add_test(tc, large_binary_2_26);
    tcase_add_test(tc, large_text_2_26);
    tcase_add_test(tc, large_repeat_2_26);
    tcase_add_test(tc, large_random_2_28);
#endif
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return pc_test_run(suite_cuda()); }
