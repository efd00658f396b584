/* sa_seq.c - Manber-Myers prefix doubling with bucket refinement.
 *
 * State between stages: pos (= SA) sorted by h-prefix, bh marks the first
 * entry of every h-bucket. A stage derives the 2h-order from the h-order in
 * O(n): scanning the buckets left to right, suffix pos[c]-h moves to the
 * next free slot of its own bucket (cnt per bucket head), which sorts each
 * bucket by the h-bucket of the suffix h later; b2h marks the new bucket
 * starts. The suffix of length h goes first in its bucket, which stands in
 * for a sentinel. Memory beyond T and SA: prm (4n), cnt (4n), two bit
 * vectors (n/4): the peak stays under 14n with the LCP added later. */
#include <string.h>

#include "pc_alloc.h"
#include "sa.h"

typedef uint64_t word;
#define WBITS 64

static inline int bit_get(const word *b, int64_t i) { return (int)((b[i / WBITS] >> (i % WBITS)) & 1u); }
static inline void bit_set(word *b, int64_t i) { b[i / WBITS] |= (word)1 << (i % WBITS); }
static inline void bit_clr(word *b, int64_t i) { b[i / WBITS] &= ~((word)1 << (i % WBITS)); }

/* Index of the first set bit at or after i (bit n is always set). */
static inline int64_t bit_next(const word *b, int64_t i)
{
    int64_t w = i / WBITS;
    word x = b[w] & (~(word)0 << (i % WBITS));
    while (!x)
        x = b[++w];
    return w * WBITS + __builtin_ctzll(x);
}

/* First stage: counting sort by the first two bytes (a missing second byte
 * sorts first), so the doubling starts at h = 2. */
static void mm_initial_sort(const uint8_t *T, int32_t n, int32_t *pos, word *bh,
                            int32_t *cnt2)
{
    /* key = T[i] * 257 + (i + 1 < n ? T[i+1] + 1 : 0) */
    enum { K = 256 * 257 };
    memset(cnt2, 0, sizeof(int32_t) * (K + 1));
    for (int32_t i = 0; i < n; i++)
        cnt2[T[i] * 257 + (i + 1 < n ? T[i + 1] + 1 : 0) + 1]++;
    for (int k = 0; k < K; k++)
        cnt2[k + 1] += cnt2[k];
    for (int k = 0; k < K; k++)
        if (cnt2[k] < cnt2[k + 1])
            bit_set(bh, cnt2[k]);
    for (int32_t i = 0; i < n; i++)
        pos[cnt2[T[i] * 257 + (i + 1 < n ? T[i + 1] + 1 : 0)]++] = i;
}

/* Number of buckets: set bits, less the sentinel bit n. */
static int64_t mm_buckets(const word *b, int64_t nwords)
{
    int64_t c = 0;
    for (int64_t w = 0; w < nwords; w++)
        c += __builtin_popcountll(b[w]);
    return c - 1;
}

int sa_build_seq(const uint8_t *T, int32_t n, int32_t *SA, int threads, pc_error *err)
{
    (void)threads;
    if (n <= 1) {
        if (n == 1)
            SA[0] = 0;
        return PC_OK;
    }
    int64_t nwords = ((int64_t)n + 1 + WBITS - 1) / WBITS;
    int32_t *prm = pc_malloc_array((size_t)n, sizeof *prm);
    int32_t *cnt = pc_malloc_array((size_t)n > 256 * 257 + 1 ? (size_t)n : 256 * 257 + 1,
                                   sizeof *cnt);
    word *bh = pc_calloc((size_t)nwords, sizeof *bh);
    word *b2h = pc_calloc((size_t)nwords, sizeof *b2h);
    if (!prm || !cnt || !bh || !b2h) {
        pc_free(prm); pc_free(cnt); pc_free(bh); pc_free(b2h);
        return pc_error_nomem(err, "sorting suffixes (seq)");
    }
    int32_t *pos = SA;
    bit_set(bh, n);
    bit_set(b2h, n);
    mm_initial_sort(T, n, pos, bh, cnt);

    for (int64_t h = 2; mm_buckets(bh, nwords) < n; h *= 2) {
        /* prm[s] = head of the h-bucket of s; cnt[head] = 0 */
        for (int32_t l = 0; l < n;) {
            int32_t r = (int32_t)bit_next(bh, l + 1);
            cnt[l] = 0;
            for (int32_t c = l; c < r; c++)
                prm[pos[c]] = l;
            l = r;
        }
        /* the suffix of length h is the smallest of its 2h-bucket */
        if (h <= n) {
            int32_t d = (int32_t)(n - h), e = prm[d];
            prm[d] = e + cnt[e]++;
            bit_set(b2h, prm[d]);
        }
        for (int32_t l = 0; l < n;) {
            int32_t r = (int32_t)bit_next(bh, l + 1);
            for (int32_t c = l; c < r; c++) {
                int64_t d = (int64_t)pos[c] - h;
                if (d >= 0) {
                    int32_t e = prm[d];
                    prm[d] = e + cnt[e]++;
                    bit_set(b2h, prm[d]);
                }
            }
            /* entries moved from this bucket that landed right after one
             * another in the same h-bucket share their 2h-prefix: keep only
             * the first mark */
            for (int32_t c = l; c < r; c++) {
                int64_t d = (int64_t)pos[c] - h;
                if (d >= 0 && bit_get(b2h, prm[d])) {
                    for (int64_t f = (int64_t)prm[d] + 1; !bit_get(bh, f) && bit_get(b2h, f); f++)
                        bit_clr(b2h, f);
                }
            }
            l = r;
        }
        for (int32_t i = 0; i < n; i++)
            pos[prm[i]] = i;
        for (int64_t w = 0; w < nwords; w++)
            bh[w] |= b2h[w];
    }
    pc_free(prm); pc_free(cnt); pc_free(bh); pc_free(b2h);
    return PC_OK;
}
