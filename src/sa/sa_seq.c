/* sa_seq.c - Manber-Myers prefix doubling with bucket refinement.
 *
 * State between stages: pos (= SA) sorted by h-prefix, bh marks the first
 * entry of every h-bucket, prm[s] is the position of suffix s. A stage
 * derives the 2h-order from the h-order in one left-to-right scan of the
 * buckets: suffix pos[c]-h moves to the next free slot of its own bucket
 * (cnt per bucket head), which sorts each bucket by the h-bucket of the
 * suffix h later; b2h marks the new bucket starts. The suffix of length h
 * goes first in its bucket, which stands in for a sentinel.
 *
 * First stage: a radix sort of the suffixes by their first k bytes, k as
 * many as fit 64 bits for the alphabet of T (7 for arbitrary bytes, 9 for
 * English text: one doubling stage fewer than 4 bytes, two on random
 * bytes, which are then already sorted).
 *
 * Early stop, per bucket and overall: a bucket with one entry is final
 * (fin bit at its position) and is skipped by every later stage; the
 * unsorted buckets are found by scanning fin a word at a time, so a stage
 * with few unsorted suffixes does not pay for the n sorted ones. The
 * doubling stops when every bucket is a singleton.
 *
 * Cost: the random accesses (prm and cnt of the suffix h before, the bits
 * at its new slot) are prefetched a few entries ahead in every scan.
 *
 * Memory beyond T and SA: prm (4n) and cnt (4n, also the copy buffer of
 * the re-ranking) in one block, which the first stage uses as n 64-bit
 * keys; four bit vectors (n/2); the radix counters and scratch of the
 * first stage (at most 0.95 MB, less for n < 32768): 13.5n + 0.95 MB with T
 * and SA, and the LCP (Kasai, after the work space is freed) needs 13n. */
#include <string.h>

#include "pc_alloc.h"
#include "sa.h"
#include "sa_radix.h"

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

/* Index of the first clear bit at or after i (bit n is always clear). */
static inline int64_t bit_next0(const word *b, int64_t i)
{
    int64_t w = i / WBITS;
    word x = ~b[w] & (~(word)0 << (i % WBITS));
    while (!x)
        x = ~b[++w];
    return w * WBITS + __builtin_ctzll(x);
}

/* How far ahead the random accesses of a scan are prefetched. */
enum { PF = 16 };
#define PREFETCH_R(p) __builtin_prefetch((p), 0, 1)
#define PREFETCH_W(p) __builtin_prefetch((p), 1, 1)

/* First stage: the suffixes sorted by their first k bytes (sa_radix.c),
 * bh set at every change of key; returns k. */
static int mm_initial_sort(const uint8_t *T, int32_t n, int32_t *pos, uint64_t *work, word *bh,
                           pc_error *err)
{
    int k;
    int rc = sa_initial_sort(T, n, pos, work, 1, &k, err);
    if (rc != PC_OK)
        return rc;
    bit_set(bh, 0);
    for (int32_t j = 1; j < n; j++)
        if (work[j] != work[j - 1])
            bit_set(bh, j);
    return k;
}

/* Marks the singleton buckets in [l, r) as finished; returns how many. */
static int64_t mm_mark_fin(const word *bh, word *fin, int32_t l, int32_t r)
{
    int64_t k = 0;
    for (int32_t p = l; p < r; p++)
        if (bit_get(bh, p) && bit_get(bh, (int64_t)p + 1)) {
            bit_set(fin, p);
            k++;
        }
    return k;
}

/* Moves suffix d to the next free slot of its h-bucket (head e). */
static inline void mm_push(int32_t *prm, int32_t *cnt, word *b2h, int64_t d, int32_t e)
{
    prm[d] = e + cnt[e]++;
    bit_set(b2h, prm[d]);
}

/* Entries moved from one bucket that landed right after one another in
 * the same h-bucket share their 2h-prefix: keep only the first mark. */
static inline void mm_unmark(const word *bh, word *b2h, int32_t at)
{
    if (bit_get(b2h, at))
        for (int64_t f = (int64_t)at + 1; !bit_get(bh, f) && bit_get(b2h, f); f++)
            bit_clr(b2h, f);
}

/* One stage: from the h-order to the 2h-order. fin marks the positions of
 * singleton buckets (final); only the other buckets are reset, re-ranked
 * and scanned, found by skipping set fin bits a word at a time. A suffix
 * is final when prm[s] (its position, or its bucket head while the stage
 * runs) is a fin position. With sparse != NULL (few suffixes left
 * unsorted) only the pushers of unsorted suffixes are visited: they are
 * marked in sparse and scanned in position order, which is the order of
 * the full scan restricted to them. */
static void mm_stage(int32_t n, int64_t h, int32_t *pos, int32_t *prm, int32_t *cnt,
                     const word *bh, word *b2h, const word *fin, word *sparse)
{
    if (sparse) {
        /* mark, while prm still holds positions */
        for (int32_t l = (int32_t)bit_next0(fin, 0); l < n;) {
            int32_t r = (int32_t)bit_next(bh, (int64_t)l + 1);
            for (int32_t c = l; c < r; c++)
                if (pos[c] + h < n)
                    bit_set(sparse, prm[pos[c] + h]);
            l = (int32_t)bit_next0(fin, r);
        }
    }
    /* prm[s] = head of the h-bucket of s for the unsorted buckets (the
     * final ones keep their position, which is their head) */
    for (int32_t l = (int32_t)bit_next0(fin, 0); l < n;) {
        int32_t r = (int32_t)bit_next(bh, (int64_t)l + 1);
        cnt[l] = 0;
        for (int32_t c = l; c < r; c++) {
            if (c + PF < r)
                PREFETCH_W(prm + pos[c + PF]);
            prm[pos[c]] = l;
        }
        l = (int32_t)bit_next0(fin, r);
    }
    /* the suffix of length h is the smallest of its 2h-bucket */
    if (h <= n && !bit_get(fin, prm[n - h]))
        mm_push(prm, cnt, b2h, n - h, prm[n - h]);
    if (sparse) {
        int64_t c = bit_next(sparse, 0);
        while (c < n) {
            /* the pushers of one h-bucket: [c, end) among the marked */
            int64_t end = bit_next(bh, c + 1), first = c;
            for (; c < end; c = bit_next(sparse, c + 1))
                mm_push(prm, cnt, b2h, pos[c] - h, prm[pos[c] - h]);
            for (int64_t k = first; k < end; k = bit_next(sparse, k + 1)) {
                mm_unmark(bh, b2h, prm[pos[k] - h]);
                bit_clr(sparse, k);
            }
        }
    } else {
        for (int32_t l = 0; l < n;) {
            int32_t r = (int32_t)bit_next(bh, (int64_t)l + 1);
            for (int32_t c = l; c < r; c++) {
                if (c + 2 * PF < n && pos[c + 2 * PF] >= h)
                    PREFETCH_R(prm + pos[c + 2 * PF] - h);
                if (c + PF < n && pos[c + PF] >= h)
                    PREFETCH_R(cnt + prm[pos[c + PF] - h]);
                int64_t d = (int64_t)pos[c] - h;
                if (d >= 0 && !bit_get(fin, prm[d]))
                    mm_push(prm, cnt, b2h, d, prm[d]);
            }
            if (r - l > 1)
                for (int32_t c = l; c < r; c++) {
                    int64_t d = (int64_t)pos[c] - h;
                    if (d >= 0 && !bit_get(fin, prm[d]))
                        mm_unmark(bh, b2h, prm[d]);
                }
            l = r;
        }
    }
    /* re-rank the unsorted buckets: their suffixes only permute inside
     * the bucket; cnt is free now and holds the old order */
    for (int32_t l = (int32_t)bit_next0(fin, 0); l < n;) {
        int32_t r = (int32_t)bit_next(bh, (int64_t)l + 1);
        memcpy(cnt + l, pos + l, sizeof(int32_t) * (size_t)(r - l));
        for (int32_t c = l; c < r; c++) {
            if (c + PF < r)
                PREFETCH_R(prm + cnt[c + PF]);
            pos[prm[cnt[c]]] = cnt[c];
        }
        l = (int32_t)bit_next0(fin, r);
    }
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
    /* prm and cnt in one block: the initial sort uses it as n 64-bit keys */
    int32_t *block = pc_malloc_array(2 * (size_t)n, sizeof *block);
    word *bh = pc_calloc((size_t)nwords, sizeof *bh);
    word *b2h = pc_calloc((size_t)nwords, sizeof *b2h);
    word *fin = pc_calloc((size_t)nwords, sizeof *fin);
    word *sparse = pc_calloc((size_t)nwords, sizeof *sparse);
    int rc = PC_OK;
    if (!block || !bh || !b2h || !fin || !sparse)
        rc = pc_error_nomem(err, "sorting suffixes (seq)");
    if (rc == PC_OK) {
        int32_t *pos = SA, *prm = block, *cnt = block + n;
        bit_set(bh, n);
        bit_set(b2h, n);
        bit_set(sparse, n);
        int64_t h0 = mm_initial_sort(T, n, pos, (uint64_t *)(void *)block, bh, err);
        int64_t sorted = h0 < 0 ? n : mm_mark_fin(bh, fin, 0, n);
        rc = h0 < 0 ? (int)h0 : PC_OK;
        if (sorted < n)
            for (int32_t c = 0; c < n; c++)
                prm[pos[c]] = c;
        for (int64_t h = h0; sorted < n; h *= 2) {
            mm_stage(n, h, pos, prm, cnt, bh, b2h, fin, n - sorted < n / 4 ? sparse : NULL);
            /* new singletons appear only inside the old unsorted buckets */
            for (int32_t l = (int32_t)bit_next0(fin, 0); l < n;) {
                int32_t r = (int32_t)bit_next(bh, (int64_t)l + 1);
                for (int32_t p = l + 1; p < r; p++)
                    if (bit_get(b2h, p))
                        bit_set(bh, p);
                sorted += mm_mark_fin(bh, fin, l, r);
                l = (int32_t)bit_next0(fin, r);
            }
        }
    }
    pc_free(block); pc_free(bh); pc_free(b2h); pc_free(fin); pc_free(sparse);
    return rc;
}
