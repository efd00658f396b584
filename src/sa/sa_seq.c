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
 * Early stop, per suffix and overall: a suffix alone in its bucket (done
 * bit) is final and is skipped by every later stage, and only buckets
 * with two or more entries are reset and re-ranked; the doubling stops
 * when every bucket is a singleton. On text most suffixes are final after
 * a few stages, so later stages cost a scan plus a bit test per entry.
 *
 * Memory beyond T and SA: prm (4n), cnt (4n, also the copy buffer of the
 * re-ranking), four bit vectors (n/2): 13.5n with T and SA, and the LCP
 * (Kasai, after prm and cnt are freed) needs 13n. */
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

/* Two bytes from position a as one digit, each byte + 1 so that a missing
 * byte (past the end) sorts first: 257 * 257 values. */
enum { DIG = 257 * 257, INIT_H = 4 };
static inline int32_t digit2(const uint8_t *T, int32_t n, int64_t a)
{
    int32_t hi = a < n ? T[a] + 1 : 0, lo = a + 1 < n ? T[a + 1] + 1 : 0;
    return hi * 257 + lo;
}

/* First stage: LSD radix sort by the first INIT_H bytes (two passes of
 * two-byte digits, through tmp), so the doubling starts at h = INIT_H. */
static void mm_initial_sort(const uint8_t *T, int32_t n, int32_t *pos, int32_t *tmp,
                            int32_t *count, word *bh)
{
    int32_t *src = tmp, *dst = pos;
    for (int32_t i = 0; i < n; i++)
        src[i] = i;
    for (int off = INIT_H - 2; off >= 0; off -= 2) {
        memset(count, 0, sizeof(int32_t) * (DIG + 1));
        for (int32_t i = 0; i < n; i++)
            count[digit2(T, n, (int64_t)src[i] + off) + 1]++;
        for (int k = 0; k < DIG; k++)
            count[k + 1] += count[k];
        for (int32_t i = 0; i < n; i++)
            dst[count[digit2(T, n, (int64_t)src[i] + off)]++] = src[i];
        int32_t *x = src;
        src = dst;
        dst = x;
    }
    if (src != pos)
        memcpy(pos, src, sizeof(int32_t) * (size_t)n);
    bit_set(bh, 0);
    for (int32_t c = 1; c < n; c++)
        for (int off = 0; off < INIT_H; off += 2)
            if (digit2(T, n, (int64_t)pos[c] + off) != digit2(T, n, (int64_t)pos[c - 1] + off)) {
                bit_set(bh, c);
                break;
            }
}

/* Marks the suffixes of singleton buckets in [l, r) as done; returns how
 * many. */
static int64_t mm_mark_done(const int32_t *pos, const word *bh, word *done, int32_t l, int32_t r)
{
    int64_t k = 0;
    for (int32_t p = l; p < r; p++)
        if (bit_get(bh, p) && bit_get(bh, (int64_t)p + 1)) {
            bit_set(done, pos[p]);
            k++;
        }
    return k;
}

/* Moves suffix d (not done) to the next free slot of its h-bucket. */
static inline void mm_push(int32_t *prm, int32_t *cnt, word *b2h, int64_t d)
{
    int32_t e = prm[d];
    prm[d] = e + cnt[e]++;
    bit_set(b2h, prm[d]);
}

/* One stage: from the h-order to the 2h-order. With sparse != NULL (few
 * suffixes left unsorted) only the pushers of unsorted suffixes are
 * visited: they are marked in sparse and scanned in position order, which
 * is the order of the full scan restricted to them. */
static void mm_stage(int32_t n, int64_t h, int32_t *pos, int32_t *prm, int32_t *cnt,
                     word *bh, word *b2h, word *done, word *sparse)
{
    if (sparse) {
        /* mark, while prm still holds positions */
        for (int32_t l = 0; l < n;) {
            int32_t r = (int32_t)bit_next(bh, (int64_t)l + 1);
            if (r - l > 1)
                for (int32_t c = l; c < r; c++)
                    if (pos[c] + h < n)
                        bit_set(sparse, prm[pos[c] + h]);
            l = r;
        }
    }
    /* prm[s] = head of the h-bucket of s for the unsorted buckets (the
     * done ones keep their position, which is their head) */
    for (int32_t l = 0; l < n;) {
        int32_t r = (int32_t)bit_next(bh, (int64_t)l + 1);
        if (r - l > 1) {
            cnt[l] = 0;
            for (int32_t c = l; c < r; c++)
                prm[pos[c]] = l;
        }
        l = r;
    }
    /* the suffix of length h is the smallest of its 2h-bucket */
    if (h <= n && !bit_get(done, n - h))
        mm_push(prm, cnt, b2h, n - h);
    if (sparse) {
        int64_t c = bit_next(sparse, 0);
        while (c < n) {
            /* the pushers of one h-bucket: [c, end) among the marked */
            int64_t end = bit_next(bh, c + 1), first = c;
            for (; c < end; c = bit_next(sparse, c + 1))
                mm_push(prm, cnt, b2h, pos[c] - h);
            for (int64_t k = first; k < end; k = bit_next(sparse, k + 1)) {
                int64_t d = pos[k] - h;
                if (bit_get(b2h, prm[d]))
                    for (int64_t f = (int64_t)prm[d] + 1; !bit_get(bh, f) && bit_get(b2h, f); f++)
                        bit_clr(b2h, f);
                bit_clr(sparse, k);
            }
        }
    }
    for (int32_t l = 0; l < n && !sparse;) {
        int32_t r = (int32_t)bit_next(bh, (int64_t)l + 1);
        for (int32_t c = l; c < r; c++) {
            int64_t d = (int64_t)pos[c] - h;
            if (d >= 0 && !bit_get(done, d))
                mm_push(prm, cnt, b2h, d);
        }
        /* entries moved from this bucket that landed right after one
         * another in the same h-bucket share their 2h-prefix: keep only
         * the first mark (nothing to do for a single mover) */
        if (r - l > 1)
            for (int32_t c = l; c < r; c++) {
                int64_t d = (int64_t)pos[c] - h;
                if (d >= 0 && !bit_get(done, d) && bit_get(b2h, prm[d]))
                    for (int64_t f = (int64_t)prm[d] + 1; !bit_get(bh, f) && bit_get(b2h, f); f++)
                        bit_clr(b2h, f);
            }
        l = r;
    }
    /* re-rank the unsorted buckets: their suffixes only permute inside
     * the bucket; cnt is free now and holds the old order */
    for (int32_t l = 0; l < n;) {
        int32_t r = (int32_t)bit_next(bh, (int64_t)l + 1);
        if (r - l > 1) {
            memcpy(cnt + l, pos + l, sizeof(int32_t) * (size_t)(r - l));
            for (int32_t c = l; c < r; c++)
                pos[prm[cnt[c]]] = cnt[c];
        }
        l = r;
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
    int32_t *prm = pc_malloc_array((size_t)n, sizeof *prm);
    int32_t *cnt = pc_malloc_array((size_t)n > DIG + 1 ? (size_t)n : DIG + 1, sizeof *cnt);
    word *bh = pc_calloc((size_t)nwords, sizeof *bh);
    word *b2h = pc_calloc((size_t)nwords, sizeof *b2h);
    word *done = pc_calloc((size_t)nwords, sizeof *done);
    word *sparse = pc_calloc((size_t)nwords, sizeof *sparse);
    if (!prm || !cnt || !bh || !b2h || !done || !sparse) {
        pc_free(prm); pc_free(cnt); pc_free(bh); pc_free(b2h); pc_free(done); pc_free(sparse);
        return pc_error_nomem(err, "sorting suffixes (seq)");
    }
    int32_t *pos = SA;
    bit_set(bh, n);
    bit_set(b2h, n);
    bit_set(sparse, n);
    mm_initial_sort(T, n, pos, prm, cnt, bh);
    for (int32_t c = 0; c < n; c++)
        prm[pos[c]] = c;
    int64_t sorted = mm_mark_done(pos, bh, done, 0, n);
    for (int64_t h = INIT_H; sorted < n; h *= 2) {
        mm_stage(n, h, pos, prm, cnt, bh, b2h, done, n - sorted < n / 4 ? sparse : NULL);
        /* new singletons appear only inside the old unsorted buckets */
        int32_t l = 0;
        while (l < n) {
            int32_t r = (int32_t)bit_next(bh, (int64_t)l + 1);
            if (r - l > 1) {
                for (int32_t p = l + 1; p < r; p++)
                    if (bit_get(b2h, p))
                        bit_set(bh, p);
                sorted += mm_mark_done(pos, bh, done, l, r);
            }
            l = r;
        }
    }
    pc_free(prm); pc_free(cnt); pc_free(bh); pc_free(b2h); pc_free(done); pc_free(sparse);
    return PC_OK;
}
