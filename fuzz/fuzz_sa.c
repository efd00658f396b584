/* fuzz_sa.c - fuzz target "sa": suffix arrays on arbitrary bytes.
 *
 * The input is the text itself (any bytes, NUL and >= 0x80 included).
 * Properties checked on every input (a violation aborts, so libFuzzer,
 * AFL++ and the replay driver all see a crash):
 *  - seq, omp, sais (and divsufsort when built in) each give exactly the
 *    reference array: the naive oracle's (qsort + memcmp, oracles/sa)
 *    for n <= FUZZ_SA_NAIVE, which is every input under the present cap;
 *    above it, seq's array once it has passed the checks below (a suffix
 *    array is unique, so an array that passes them is the naive
 *    oracle's);
 *  - the reference is a permutation of [0, n) with adjacent suffixes in
 *    strictly increasing order (checked here with memcmp) and passes the
 *    oracle's O(n) Burkhardt-Kaerkkaeinen check;
 *  - Kasai's LCP equals the naive LCP (byte by byte, for n up to
 *    FUZZ_SA_NAIVE_LCP: it is quadratic on repetitive texts) and always
 *    the oracle's Phi-method LCP; sa_lrs passes the oracle's longest-repeat
 *    check;
 *  - everything taken from pc_alloc is given back.
 * Deterministic: one thread (the parallel paths start at n = 65536, far
 * above the cap). Inputs over FUZZ_SA_MAX bytes are rejected. The cap is
 * 512 bytes (it was 4 KiB, with the naive oracle up to 1 KiB only): the
 * naive SA and LCP are quadratic on repetitive text and seq and omp do
 * O(n log n) doubling work, which under ASan held the target at 225
 * executions per second (at a 1 KiB cap, 780 without divsufsort). A corpus grown for 60 s
 * under the 512-byte cap covers every edge of src/sa and oracles/sa that
 * the 4 KiB corpus covered but one, the top digit's widest steps (10 to
 * 12 bits, for n > 512); the introsort's heapsort fallback and the
 * ninther are reached. Every input is now checked against the naive
 * oracle. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pc_alloc.h"
#include "pc_error.h"
#include "sa.h"
#include "sa/sa_oracle.h"

#define FUZZ_SA_MAX 512
/* The naive LCP compares sum(LCP) bytes (n^2/2 for "aaa..."): above this
 * length only the Phi check runs. */
#define FUZZ_SA_NAIVE_LCP 1024
#define FUZZ_SA_NAIVE 1024

#define FUZZ_NAME "fuzz_sa"
#include "fuzz_check.h"

/* -1, 0, 1 as suffix a sorts before, equal to, after suffix b. */
static int suffix_cmp(const uint8_t *T, int32_t n, int32_t a, int32_t b)
{
    int32_t la = n - a, lb = n - b, l = la < lb ? la : lb;
    int c = memcmp(T + a, T + b, (size_t)l);
    if (c)
        return c < 0 ? -1 : 1;
    return (la > lb) - (la < lb);
}

static void check_sorted_permutation(const uint8_t *T, int32_t n, const int32_t *SA)
{
    uint8_t *seen = calloc((size_t)n + 1, 1);
    FUZZ_CHECK(seen != NULL, "out of memory");
    for (int32_t i = 0; i < n; i++) {
        FUZZ_CHECK(SA[i] >= 0 && SA[i] < n, "SA[%d] = %d outside [0, %d)", i, SA[i], n);
        FUZZ_CHECK(!seen[SA[i]], "SA[%d] = %d repeated", i, SA[i]);
        seen[SA[i]] = 1;
        if (i > 0)
            FUZZ_CHECK(suffix_cmp(T, n, SA[i - 1], SA[i]) < 0,
                       "suffixes %d and %d (SA[%d], SA[%d]) out of order", SA[i - 1], SA[i],
                       i - 1, i);
    }
    free(seen);
}

static void check_impl(const char *name, sa_build_fn build, int threads, const uint8_t *T,
                       int32_t n, const int32_t *want)
{
    int32_t *SA = malloc(((size_t)n + 1) * sizeof *SA);
    FUZZ_CHECK(SA != NULL, "out of memory");
    for (int32_t i = 0; i < n; i++)
        SA[i] = -7; /* poison: every slot must be written */
    pc_error err;
    pc_error_clear(&err);
    int rc = build(T, n, SA, threads, &err);
    FUZZ_CHECK(rc == 0, "%s failed on %d bytes: %s", name, n, err.msg);
    for (int32_t i = 0; i < n; i++)
        FUZZ_CHECK(SA[i] == want[i], "%s: SA[%d] = %d, oracle %d (n = %d)", name, i, SA[i],
                   want[i], n);
    free(SA);
}

/* ASan checks both whole ranges of every memcmp by default
 * (strict_memcmp=1): the naive oracle's qsort compares suffixes, so each
 * comparison would cost O(n) whatever the first difference. Only the bytes
 * memcmp reads are checked here. (Read by ASan builds; unused elsewhere.) */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
    return "strict_memcmp=0";
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > FUZZ_SA_MAX)
        return 0; /* over the cap: rejected */
    long live = pc_alloc_live();
    int32_t n = (int32_t)size;
    pc_error err;
    pc_error_clear(&err);
    FUZZ_CHECK(sa_check_size(size, "input", &err) == 0, "%zu bytes refused: %s", size, err.msg);

    /* the oracle's array, checked independently of every implementation */
    int32_t *want = malloc(((size_t)n + 1) * sizeof *want);
    int32_t *lcp = malloc(((size_t)n + 1) * sizeof *lcp);
    int32_t *lcp_naive = malloc(((size_t)n + 1) * sizeof *lcp_naive);
    FUZZ_CHECK(want && lcp && lcp_naive, "out of memory");
    if (n <= FUZZ_SA_NAIVE) {
        FUZZ_CHECK(sa_oracle_naive_sa(data, n, want, &err) == 0, "naive oracle: %s", err.msg);
    } else {
        FUZZ_CHECK(sa_build_seq(data, n, want, 1, &err) == 0, "seq failed on %d bytes: %s", n,
                   err.msg);
    }
    check_sorted_permutation(data, n, want);
    FUZZ_CHECK(sa_oracle_check_sa(data, n, want, &err) == 0, "oracle check: %s", err.msg);

    if (n <= FUZZ_SA_NAIVE)
        check_impl("seq", sa_build_seq, 1, data, n, want);
    check_impl("omp", sa_build_omp, 2, data, n, want);
    check_impl("sais", sa_build_sais, 1, data, n, want);
    check_impl("sais", sa_build_sais, 2, data, n, want);
#if PC_HAVE_DIVSUFSORT
    check_impl("divsufsort", sa_build_divsufsort, 1, data, n, want);
#endif

    /* LCP and the longest repeat */
    FUZZ_CHECK(sa_lcp_kasai(data, want, n, lcp, 1, &err) == 0, "kasai: %s", err.msg);
    if (n <= FUZZ_SA_NAIVE_LCP) {
        sa_oracle_naive_lcp(data, n, want, lcp_naive);
        for (int32_t i = 0; i < n; i++)
            FUZZ_CHECK(lcp[i] == lcp_naive[i], "LCP[%d] = %d, naive %d", i, lcp[i],
                       lcp_naive[i]);
    }
    FUZZ_CHECK(sa_oracle_check_lcp(data, n, want, lcp, &err) == 0, "LCP check: %s", err.msg);
    int32_t len, pos, pos2;
    sa_lrs(want, lcp, n, &len, &pos, &pos2);
    FUZZ_CHECK(sa_oracle_check_lrs(data, n, want, lcp, len, pos, pos2, &err) == 0,
               "LRS (%d at %d, %d): %s", len, pos, pos2, err.msg);

    free(want);
    free(lcp);
    free(lcp_naive);
    FUZZ_CHECK(pc_alloc_live() == live, "%ld allocations leaked", pc_alloc_live() - live);
    return 0;
}
