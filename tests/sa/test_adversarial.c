/* test_adversarial.c - inputs that break suffix sorters: tiny, constant,
 * periodic, Fibonacci / Thue-Morse, repeated blocks, trailing NULs,
 * n = 2^k +- 1, the repetitive kinds of `gen text`, on both the serial
 * and the parallel code paths. */
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

/* 0 for the sizes a light pass (pc_test_light) leaves out: 131071, one of
 * the two largest, whose neighbour 131073 crosses the same block
 * boundaries (2^16, 2^17) from above. */
static int size_taken(int s)
{
    return !(pc_test_light() && sizes[s] == 131071);
}

START_TEST(constant_bytes)
{
    for (int s = 0; s < NSIZES; s++) {
        if (!size_taken(s))
            continue;
        for (int v = 0; v < 2; v++) {
            int32_t n = sizes[s];
            uint8_t *T = make(n);
            memset(T, v ? 0xff : 0x00, (size_t)n);
            check(T, n, v ? "all 0xff" : "all 0x00");
            pc_free(T);
        }
    }
}
END_TEST

/* sais writes SA[0..n) and nothing around it, on its shortcut for
 * non-increasing texts (SA is n-1, ..., 0 there) as on the general path:
 * a guard word on each side must come back unchanged. */
START_TEST(sais_writes_only_inside_sa)
{
    static const char *const texts[] = { "cba", "aaaa", "\xff\x80\x80\x00", "banana" };
    for (int i = 0; i < 4; i++) {
        const uint8_t *T = (const uint8_t *)texts[i];
        int32_t n = (int32_t)strlen(texts[i]);
        int32_t buf[8];
        for (int k = 0; k < 8; k++)
            buf[k] = -7;
        pc_error err;
        ck_assert_int_eq(sa_build_sais(T, n, buf + 1, 1, &err), 0);
        ck_assert_msg(buf[0] == -7 && buf[n + 1] == -7, "%s: sais wrote outside SA[0..%d)", texts[i], n);
        int32_t want[8];
        ck_assert_int_eq(sa_oracle_naive_sa(T, n, want, &err), 0);
        ck_assert_msg(!memcmp(buf + 1, want, sizeof *want * (size_t)n), "%s: SA differs from the oracle",
                      texts[i]);
    }
}
END_TEST

START_TEST(periods)
{
    static const int periods[] = { 2, 3, 7, 64, 1000 };
    pc_rng r;
    pc_rng_seed(&r, 11);
    for (int s = 0; s < NSIZES; s++) {
        if (!size_taken(s))
            continue;
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
}
END_TEST

START_TEST(words)
{
    pc_error err;
    for (int s = 0; s < NSIZES; s++) {
        if (!size_taken(s))
            continue;
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
        if (!size_taken(s))
            continue;
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

/* The repetitive kinds of `gen text` against the naive oracle (seq and
 * omp double many times on them: sizes stay small; sais_large_repetitive
 * below takes sais through its parallel passes). */
START_TEST(repetitive_kinds)
{
    static const int kinds[] = { SA_GEN_REPEAT, SA_GEN_LONGPERIOD, SA_GEN_DNA, SA_GEN_FIBONACCI,
                                 SA_GEN_THUEMORSE, SA_GEN_ZEROS };
    static const int32_t rsizes[] = { 1000, 8191 };
    static const char *const names[] = { "repeat", "longperiod", "dna", "fibonacci",
                                         "thuemorse", "zeros" };
    pc_error err;
    for (int s = 0; s < 2; s++)
        for (int k = 0; k < 6; k++) {
            int32_t n = rsizes[s];
            uint8_t *T = make(n);
            size_t block = kinds[k] == SA_GEN_DNA ? 2048 : (size_t)n / 7;
            if (kinds[k] != SA_GEN_REPEAT && kinds[k] != SA_GEN_LONGPERIOD && kinds[k] != SA_GEN_DNA)
                block = 0;
            ck_assert_int_eq(sa_gen_text_block(kinds[k], (uint64_t)s, NULL, 0, block, T, (size_t)n,
                                               &err), 0);
            check(T, n, names[k]);
            pc_free(T);
        }
}
END_TEST

/* Builds with the named implementation (threads as given) and checks SA
 * with Burkhardt-Kaerkkaeinen, Kasai's LCP with the Phi method; returns
 * the SA (caller frees) so that two implementations can be compared. */
static int32_t *build_checked(const char *name, const uint8_t *T, int32_t n, int threads,
                              const char *label)
{
    const sa_impl *im = sa_impl_find(name);
    ck_assert_ptr_nonnull(im);
    int32_t *SA = pc_malloc_array((size_t)n + 1, sizeof *SA);
    int32_t *LCP = pc_malloc_array((size_t)n + 1, sizeof *LCP);
    ck_assert(SA && LCP);
    pc_error err;
    ck_assert_int_eq(im->build(T, n, SA, threads, &err), 0);
    ck_assert_msg(sa_oracle_check_sa(T, n, SA, &err) == 0, "%s on %s: %s", name, label, err.msg);
    ck_assert_int_eq(sa_lcp_kasai(T, SA, n, LCP, threads, &err), 0);
    ck_assert_msg(sa_oracle_check_lcp(T, n, SA, LCP, &err) == 0, "%s on %s: %s", name, label, err.msg);
    pc_free(LCP);
    return SA;
}

/* Asserts on the runs whose end several threads found together (induce's
 * windows) since the last sa_sais_test_windows: some where OpenMP gives a
 * team, none in a build without it (make OPENMP=0), whose one thread
 * scans every run alone. */
static void expect_windows(const char *what, const char *label)
{
    int32_t k = sa_sais_test_windows();
#ifdef _OPENMP
    ck_assert_msg(k > 0, "no run found in a window %s on %s", what, label);
#else
    ck_assert_msg(k == 0, "%d runs found in a window %s on %s without OpenMP", (int)k, what,
                  label);
#endif
}

/* sais on repetitive texts of 2^18 bytes, beyond what seq and omp finish
 * quickly: many gather blocks per pass and deep recursions, 1 and 2
 * threads, and reduced strings packed as uint16_t or kept int32_t,
 * identical to each other (and to divsufsort where built in). */
START_TEST(sais_large_repetitive)
{
    static const int kinds[] = { SA_GEN_REPEAT, SA_GEN_LONGPERIOD, SA_GEN_DNA, SA_GEN_FIBONACCI,
                                 SA_GEN_THUEMORSE, SA_GEN_TEXT };
    const int32_t n = (1 << 18) + 3;
    uint8_t *T = make(n);
    pc_error err;
    char why[256];
    const sa_impl *dss = sa_impl_find("divsufsort");
    int have_dss = dss && dss->available(why, sizeof why);
    for (int k = 0; k < 6; k++) {
        /* a light pass (pc_test_light) takes the block repeat, DNA and
         * text at this size: Fibonacci and Thue-Morse meet sais at every
         * size up to 131073 in `words`, the long period at 1000 and 8191
         * in repetitive_kinds, and the repeat shares its 4099-byte blocks */
        if (pc_test_light() && (kinds[k] == SA_GEN_LONGPERIOD || kinds[k] == SA_GEN_FIBONACCI ||
                                kinds[k] == SA_GEN_THUEMORSE))
            continue;
        size_t block = kinds[k] == SA_GEN_TEXT || kinds[k] == SA_GEN_FIBONACCI
                       || kinds[k] == SA_GEN_THUEMORSE ? 0 : 4099;
        ck_assert_int_eq(sa_gen_text_block(kinds[k], 40 + (uint64_t)k, NULL, 0, block, T,
                                           (size_t)n, &err), 0);
        char label[32];
        snprintf(label, sizeof label, "kind %d", kinds[k]);
        int32_t *a = build_checked("sais", T, n, 1, label);
        sa_sais_test_par_min(4096); /* the ring of gather blocks, on 2^18 */
        sa_sais_test_windows();
        int32_t *b = build_checked("sais", T, n, 2, label);
        sa_sais_test_par_min(0);
        expect_windows("at 2 threads", label);
        ck_assert_msg(!memcmp(a, b, sizeof *a * (size_t)n), "sais 1 vs 2 threads on %s", label);
        pc_free(b);
        sa_sais_test_narrow(0); /* every reduced string as int32_t */
        b = build_checked("sais", T, n, 1, label);
        sa_sais_test_narrow(1);
        ck_assert_msg(!memcmp(a, b, sizeof *a * (size_t)n), "sais uint16 vs int32 on %s", label);
        pc_free(b);
        sa_sais_test_hash(0); /* the byte level named by induced sorting */
        b = build_checked("sais", T, n, 1, label);
        ck_assert_msg(!memcmp(a, b, sizeof *a * (size_t)n), "sais hashed vs induced names on %s",
                      label);
        pc_free(b);
        sa_sais_test_hash(2); /* tiny limits: the hashing gives way part-way */
        sa_sais_test_par_min(4096);
        b = build_checked("sais", T, n, 5, label);
        sa_sais_test_hash(1);
        ck_assert_msg(!memcmp(a, b, sizeof *a * (size_t)n), "sais hashing given way on %s",
                      label);
        pc_free(b);
        b = build_checked("sais", T, n, 7, label); /* names hashed in 7 parts */
        ck_assert_msg(!memcmp(a, b, sizeof *a * (size_t)n), "sais hashed in parts on %s", label);
        pc_free(b);
        sa_sais_test_par_min(4096);
        sa_sais_test_hist(0); /* every pass's slots one by one: every pass pipelined */
        sa_sais_test_piped(1);
        b = build_checked("sais", T, n, 2, label);
        ck_assert_msg(sa_sais_test_piped(0) > 0, "no pass pipelined on %s", label);
        ck_assert_msg(!memcmp(a, b, sizeof *a * (size_t)n), "sais slots by entry on %s", label);
        pc_free(b);
        b = build_checked("sais", T, n, 4, label); /* forwarding blocks, not pipelined */
        ck_assert_msg(sa_sais_test_piped(1) == 0, "a pass pipelined on %s", label);
        ck_assert_msg(!memcmp(a, b, sizeof *a * (size_t)n), "sais forwarding blocks on %s",
                      label);
        pc_free(b);
        b = build_checked("sais", T, n, 5, label); /* pipelined, four helpers */
        ck_assert_msg(sa_sais_test_piped(1) > 0, "no pass pipelined at 5 threads on %s", label);
        ck_assert_msg(!memcmp(a, b, sizeof *a * (size_t)n), "sais pipelined at 5 on %s", label);
        pc_free(b);
        sa_sais_test_solo(); /* the first pass pipelined, alone from its 8th block */
        b = build_checked("sais", T, n, 2, label);
        ck_assert_msg(sa_sais_test_piped(1) > 0, "no pass pipelined before solo on %s", label);
        ck_assert_msg(!memcmp(a, b, sizeof *a * (size_t)n), "sais pipelined then solo on %s",
                      label);
        pc_free(b);
        sa_sais_test_par_min(4096); /* undoes sa_sais_test_solo */
        sa_sais_test_hist(1 << 20); /* histograms wherever the runs are long enough */
        b = build_checked("sais", T, n, 3, label);
        sa_sais_test_hist(-1);
        expect_windows("at 3 threads", label);
        ck_assert_msg(!memcmp(a, b, sizeof *a * (size_t)n), "sais slots by histograms on %s",
                      label);
        pc_free(b);
        sa_sais_test_par_min(4096);
        sa_sais_test_solo(); /* shared runs, then one thread from the 8th run */
        b = build_checked("sais", T, n, 2, label);
        sa_sais_test_par_min(0);
        ck_assert_msg(!memcmp(a, b, sizeof *a * (size_t)n), "sais shared then solo on %s", label);
        if (have_dss) {
            pc_free(b);
            b = build_checked("divsufsort", T, n, 1, label);
            ck_assert_msg(!memcmp(a, b, sizeof *a * (size_t)n), "sais vs divsufsort on %s", label);
        }
        pc_free(a);
        pc_free(b);
    }
    pc_free(T);
}
END_TEST

/* Runs of one byte longer than a thread's block of the parallel LMS
 * placement, so that whole blocks lie inside one run and take their
 * first type from the block after them: one S run ending in a larger
 * byte, one L run ending in a smaller one, random runs of 1 to n/2 bytes
 * and of 1 to 8 bytes over 3 letters; the placement against the serial
 * one at 2 to 7 threads, then sais with the parallel steps forced (2, 3, 4 and
 * 7 threads) checked by the O(n) oracle and equal to one thread. */
START_TEST(sais_runs_across_blocks)
{
    const int32_t n = 24011;
    uint8_t *T = make(n);
    pc_rng r;
    pc_rng_seed(&r, 77);
    for (int k = 0; k < 8; k++) {
        if (k == 0) { /* x a...a b: the run is S-type */
            memset(T, 'a', (size_t)n);
            T[0] = 'x';
            T[n - 1] = 'b';
        } else if (k == 1) { /* a b...b a: L-type */
            memset(T, 'b', (size_t)n);
            T[0] = T[n - 1] = 'a';
        } else {
            /* k >= 6: short runs, so that a bucket gets LMS suffixes from
             * every block */
            uint64_t most = k < 6 ? (uint64_t)n / 2 : 8;
            for (int32_t i = 0; i < n;) {
                int32_t len = 1 + (int32_t)pc_rng_below(&r, most);
                uint8_t c = (uint8_t)('a' + pc_rng_below(&r, 3));
                for (int32_t j = 0; j < len && i < n; j++)
                    T[i++] = c;
            }
        }
        char label[32];
        snprintf(label, sizeof label, "runs %d", k);
        /* the placement itself, parallel against serial */
        int32_t *p1 = pc_malloc_array((size_t)n, sizeof *p1), *p2 = pc_malloc_array((size_t)n, sizeof *p2);
        ck_assert(p1 && p2);
        int32_t m1 = sa_sais_test_place_lms(T, n, p1, 1);
        if (k < 2) /* x a..a b: LMS at 1 only; a b..b a: none (0 is never LMS) */
            ck_assert_int_eq(m1, k == 0 ? 1 : 0);
        for (int t = 2; t <= 7; t++) {
            ck_assert_int_eq(sa_sais_test_place_lms(T, n, p2, t), m1);
            ck_assert_msg(!memcmp(p1, p2, sizeof *p1 * (size_t)n), "LMS placement, %d threads, %s", t,
                          label);
        }
        pc_free(p1);
        pc_free(p2);
        int32_t *a = build_checked("sais", T, n, 1, label);
        static const int threads[] = { 2, 3, 4, 7 };
        for (int t = 0; t < 4; t++) {
            sa_sais_test_par_min(4096);
            int32_t *b = build_checked("sais", T, n, threads[t], label);
            sa_sais_test_par_min(0);
            ck_assert_msg(!memcmp(a, b, sizeof *a * (size_t)n), "sais 1 vs %d threads on %s",
                          threads[t], label);
            pc_free(b);
        }
        pc_free(a);
    }
    pc_free(T);
}
END_TEST

/* The order of LMS substrings that the hashed naming relies on, where it
 * is easiest to get wrong: bytes 0x00 and 0xff (the key's padding),
 * substrings of 15 to 17 bytes (the longest keyed ones and the shortest
 * long ones), long monotone runs, LMS substrings near the text's end and
 * the one running into the sentinel, and the ends of parts. Each text is
 * sorted with names hashed (1 and 3 threads, parts from 4096 positions),
 * hashed with tiny limits, and induced; all pass the oracle and agree. */
START_TEST(sais_hashed_names)
{
    pc_rng rng;
    pc_rng_seed(&rng, 77);
    const int32_t n = 9001;
    uint8_t *T = make(n);
    for (int c = 0; c < 12; c++) {
        int32_t run = 0, base = 0; /* case 2: the current rising run */
        for (int32_t i = 0; i < n; i++) {
            uint64_t r = pc_rng_u64(&rng);
            if (run == 0) { /* falling runs: LMS substrings of 14 to 16 bytes, 1 in 8 of 17 to 19 */
                run = (int32_t)(r % 8 == 0 ? 16 + (r >> 8) % 3 : 13 + (r >> 8) % 3);
                base = (int32_t)((r >> 16) % 4) + (c / 4) * 100;
            }
            switch (c % 4) {
            case 0: /* two letters, 0x00 and 0xff */
                T[i] = r & 1 ? 0xff : 0x00;
                break;
            case 1: /* three letters near the top, runs of 0xff */
                T[i] = (uint8_t)(0xfd + r % 3);
                break;
            case 2: /* falling runs around 16 bytes, the longest keyed substring */
                T[i] = (uint8_t)(base + run);
                break;
            default: /* long rising and falling ramps over every byte */
                T[i] = (uint8_t)((i / 300) & 1 ? 255 - i % 300 : i % 300);
                break;
            }
            run--;
        }
        char label[48];
        snprintf(label, sizeof label, "hashed names, case %d", c);
        int32_t named, declined;
        sa_sais_test_hash(0);
        int32_t *a = build_checked("sais", T, n, 1, label);
        sa_sais_test_hash_counts(&named, &declined);
        ck_assert_int_eq(named + declined, 0);
        /* the hashed naming frees all it takes */
        int32_t *c = pc_malloc_array((size_t)n, sizeof *c);
        ck_assert(c != NULL);
        pc_error err;
        long live = pc_alloc_live();
        sa_sais_test_hash(3);
        sa_sais_test_par_min(4096);
        ck_assert_int_eq(sa_build_sais(T, n, c, 3, &err), 0);
        sa_sais_test_par_min(0);
        ck_assert_msg(pc_alloc_live() == live, "%s: %ld blocks left by sais", label,
                      pc_alloc_live() - live);
        pc_free(c);
        sa_sais_test_hash_counts(&named, &declined);
        sa_sais_test_hash(3);
        int32_t *b = build_checked("sais", T, n, 1, label);
        sa_sais_test_hash_counts(&named, &declined);
        ck_assert_msg(named == 1 && declined == 0, "%s: not hashed (%d, %d)", label, named,
                      declined);
        ck_assert_msg(!memcmp(a, b, sizeof *a * (size_t)n), "hashed vs induced on %s", label);
        pc_free(b);
        sa_sais_test_par_min(4096);
        b = build_checked("sais", T, n, 3, label);
        sa_sais_test_hash_counts(&named, &declined);
        ck_assert_msg(named == 1, "%s: not hashed in parts", label);
        ck_assert_msg(!memcmp(a, b, sizeof *a * (size_t)n), "hashed in parts on %s", label);
        pc_free(b);
        sa_sais_test_hash(2);
        b = build_checked("sais", T, n, 2, label);
        sa_sais_test_hash(1);
        sa_sais_test_par_min(0);
        sa_sais_test_hash_counts(&named, &declined);
        ck_assert_msg(declined == 1, "%s: tiny limits kept", label);
        ck_assert_msg(!memcmp(a, b, sizeof *a * (size_t)n), "hashing given way on %s", label);
        pc_free(b);
        pc_free(a);
    }
    pc_free(T);
}
END_TEST

/* A text whose LMS substrings are all longer than a key (rising runs of
 * 20 bytes, a few distinct ones): more long ones than 1 in 64 positions,
 * so the hashing gives way and the induced naming sorts it, on 1 and 3
 * threads, the same array. */
START_TEST(sais_hash_gives_way_to_long)
{
    const int32_t n = 20011;
    uint8_t *T = make(n);
    for (int32_t i = 0; i < n; i++)
        T[i] = (uint8_t)('a' + i % 20 + (i / 20) % 3);
    int32_t named, declined;
    sa_sais_test_hash_counts(&named, &declined);
    int32_t *a = build_checked("sais", T, n, 1, "long LMS substrings");
    sa_sais_test_hash_counts(&named, &declined);
    ck_assert_msg(named == 0 && declined == 1, "long LMS substrings: hashed %d, gave way %d",
                  named, declined);
    sa_sais_test_par_min(4096);
    int32_t *b = build_checked("sais", T, n, 3, "long LMS substrings");
    sa_sais_test_par_min(0);
    sa_sais_test_hash_counts(&named, &declined);
    ck_assert_msg(named == 0 && declined == 1, "long LMS substrings, 3 threads: hashed %d", named);
    ck_assert(!memcmp(a, b, sizeof *a * (size_t)n));
    pc_free(a);
    pc_free(b);
    pc_free(T);
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

/* SA[0..n) all filled (i + 1) but at the holes a and b (0; -1: none). */
static void fill_with_holes(int32_t *SA, int32_t n, int a, int b)
{
    for (int32_t i = 0; i < n; i++)
        SA[i] = i == a || i == b ? 0 : i + 1;
}

/* The run bounds of the shared induce passes, eight entries a test,
 * against an entry-by-entry scan: every start and limit over arrays with
 * holes at every distance from them (a hole at the limit's edge too). */
START_TEST(sais_run_bounds_match_a_scan)
{
    enum { N = 40 };
    int32_t SA[N];
    for (int hole_a = -1; hole_a < N; hole_a++)
        for (int hole_b = -1; hole_b < N; hole_b += 7) {
            fill_with_holes(SA, N, hole_a, hole_b);
            for (int32_t p = 0; p <= N; p++)
                for (int32_t lim = p; lim <= N; lim++) {
                    int32_t want = p;
                    while (want < lim && SA[want] != 0)
                        want++;
                    ck_assert_msg(sa_sais_test_run_bound(SA, p, lim, 0) == want, "up from %d to %d, holes %d %d", p,
                                  lim, hole_a, hole_b);
                }
            for (int32_t p = 0; p <= N; p++)
                for (int32_t lim = 0; lim <= p; lim++) {
                    int32_t want = p;
                    while (want > lim && SA[want - 1] != 0)
                        want--;
                    ck_assert_msg(sa_sais_test_run_bound(SA, p, lim, 1) == want, "down from %d to %d, holes %d %d",
                                  p, lim, hole_a, hole_b);
                }
        }
}
END_TEST

/* The runs that the threads find in a window of a shared induce pass,
 * each on its part (1 to 5 parts), against an entry-by-entry scan: every
 * window over arrays with holes at every distance from its ends and from
 * its parts' bounds. */
START_TEST(sais_window_runs_match_a_scan)
{
    enum { N = 40 };
    int32_t SA[N];
    for (int hole_a = -1; hole_a < N; hole_a++)
        for (int hole_b = -1; hole_b < N; hole_b += 9) {
            fill_with_holes(SA, N, hole_a, hole_b);
            for (int32_t lo = 0; lo <= N; lo++)
                for (int32_t hi = lo; hi <= N; hi++)
                    for (int nth = 1; nth <= 5; nth++) {
                        int32_t up = lo, down = hi, rl, rh;
                        while (up < hi && SA[up] != 0)
                            up++;
                        while (down > lo && SA[down - 1] != 0)
                            down--;
                        sa_sais_test_window_run(SA, lo, hi, nth, 0, &rl, &rh);
                        ck_assert_msg(rl == lo && rh == up, "L window [%d, %d) in %d parts, holes %d %d",
                                      lo, hi, nth, hole_a, hole_b);
                        sa_sais_test_window_run(SA, lo, hi, nth, 1, &rl, &rh);
                        ck_assert_msg(rl == down && rh == hi, "S window [%d, %d) in %d parts, holes %d %d",
                                      lo, hi, nth, hole_a, hole_b);
                    }
        }
}
END_TEST

/* The threads' histograms lie a whole number of 128 bytes apart, at least
 * K entries, whatever the level's alphabet: no two threads' counters in
 * one cache line (packed at K, the handful of counters of Fibonacci's
 * reduced levels made 2 threads slower than 1). */
START_TEST(sais_histograms_apart)
{
    for (int32_t K = 1; K <= 70000; K += K < 300 ? 1 : 997) {
        size_t s = sa_sais_test_hist_stride(K);
        ck_assert_msg(s >= (size_t)K && s % 32 == 0 && s < (size_t)K + 32, "stride %zu for K = %d",
                      s, (int)K);
    }
}
END_TEST

static Suite *suite_adversarial(void)
{
    Suite *s = suite_create("sa_adversarial");
    TCase *tc = pc_tcase("adversarial");
    tcase_add_test(tc, tiny);
    tcase_add_test(tc, constant_bytes);
    tcase_add_test(tc, sais_writes_only_inside_sa);
    tcase_add_test(tc, periods);
    tcase_add_test(tc, words);
    tcase_add_test(tc, repeated_block_and_trailing_nuls);
    tcase_add_test(tc, repetitive_kinds);
    tcase_add_test(tc, sais_large_repetitive);
    tcase_add_test(tc, sais_runs_across_blocks);
    tcase_add_test(tc, sais_run_bounds_match_a_scan);
    tcase_add_test(tc, sais_window_runs_match_a_scan);
    tcase_add_test(tc, sais_histograms_apart);
    tcase_add_test(tc, sais_hashed_names);
    tcase_add_test(tc, sais_hash_gives_way_to_long);
    tcase_add_test(tc, size_refused);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return pc_test_run(suite_adversarial()); }
