/* sam_radix.h - the radix sort of parcheck-sa-mpi's records by a 64-bit
 * key, one body for every record type (private to the program).
 *
 * SAM_DEFINE_RADIX64(name, T, KEY) defines
 *     static T *name(T *a, T *tmp, size_t m, int threads);
 * which sorts a[0..m) by KEY(const T *) (uint64_t) with tmp as scratch (m
 * records) and returns the buffer that holds the result (a or tmp), or
 * NULL when its histograms cannot be allocated. Stable. Only the bits
 * where some key differs from the smallest count:
 *  - few records, or keys of at most two MSD digits: LSD passes of
 *    SAM_RADIX_DIGIT bits over the whole array (one read counts every
 *    pass on one thread; per-thread counts and chunks on several);
 *  - else MSD first: one pass by the top 8 to SAM_MSD_DIGIT bits (as
 *    many as leave about SAM_MSD_BUCKET records a bucket), then every
 *    bucket sorted inside the cache: by a pass by its next 8 bits and
 *    insertion sorts of the few records that share them where those bits
 *    spread its keys, else by LSD passes of 8 bits (11 for a large
 *    bucket) (name##_bucket).
 *    A pass over the whole array misses the TLB on nearly
 *    every record it scatters; measured on the GPU machine's host on 2.8 M
 *    records of 60-bit keys, one process or 16 at once, MSD first took
 *    0.09 s against 0.145 s. Where half the records share the top digit
 *    the plain LSD passes run instead (one thread would sort that bucket
 *    alone). */
#ifndef SAM_RADIX_H
#define SAM_RADIX_H

#include "pc_omp.h"
#include <stdint.h>
#include <string.h>

#include "pc_alloc.h"
#include "sam.h"

#define SAM_RADIX_DIGIT 11
#define SAM_MSD_MIN 65536
#define SAM_MSD_DIGIT 12
#define SAM_MSD_BUCKET 2048
/* inside a bucket: a pass by 8 bits, insertion sorts from 32 records
 * down, decided on every SAM_SUB_SAMPLE-th record; the LSD passes'
 * counts (8 x 2^11), then the pass's (2^8 + 1) */
#define SAM_SUB_DIGIT 8
#define SAM_SUB_INSERT 32
#define SAM_SUB_SAMPLE 8
#define SAM_SUB_LSD (8 * 2048)
#define SAM_SUB_WORK (SAM_SUB_LSD + (1 << SAM_SUB_DIGIT) + 1)

#define SAM_DEFINE_RADIX64(name, T, KEY)                                                        \
    /* one scatter: a[b..e) into tmp by the digit (KEY - lo) >> sh & mask, h the                \
     * first slot of each digit (advanced) */                                                   \
    static inline void name##_pass(const T *a, T *tmp, size_t b, size_t e, uint64_t lo, int sh, \
                                   size_t mask, size_t *h)                                      \
    {                                                                                           \
        for (size_t i = b; i < e; i++)                                                          \
            tmp[h[((KEY(&a[i]) - lo) >> sh) & mask]++] = a[i];                                  \
    }                                                                                           \
    /* LSD passes over a[0..m) by the digits of KEY - lo where diff has                     \
     * bits. One thread counts every pass in one read (a digit's counts do                  \
     * not depend on the order); several count each pass in their chunks. */                \
    static T *name##_lsd(T *a, T *tmp, size_t m, int nt_, uint64_t lo, uint64_t diff)       \
    {                                                                                       \
        enum { NPASS = (64 + SAM_RADIX_DIGIT - 1) / SAM_RADIX_DIGIT };                      \
        const size_t nb = (size_t)1 << SAM_RADIX_DIGIT, mask = nb - 1;                      \
        size_t *hist = pc_calloc((size_t)(nt_ == 1 ? NPASS : nt_) * nb, sizeof *hist);      \
        if (!hist)                                                                          \
            return NULL;                                                                    \
        if (nt_ == 1)                                                                       \
            for (size_t i = 0; i < m; i++) {                                                \
                uint64_t k = KEY(&a[i]) - lo;                                               \
                for (int q = 0; q < NPASS; q++)                                             \
                    hist[(size_t)q * nb + ((k >> (q * SAM_RADIX_DIGIT)) & mask)]++;         \
            }                                                                               \
        for (int q = 0; q < NPASS; q++) {                                                   \
            int sh = q * SAM_RADIX_DIGIT;                                                   \
            if (!((diff >> sh) & mask))                                                     \
                continue; /* every record has the same digit here */                        \
            if (nt_ == 1) {                                                                 \
                size_t *h = hist + (size_t)q * nb;                                          \
                sam_hist_offsets(h, nb, 1, nb);                                             \
                name##_pass(a, tmp, 0, m, lo, sh, mask, h);                                 \
            } else {                                                                        \
                _Pragma("omp parallel num_threads(nt_)")                                    \
                {                                                                           \
                    int t = omp_get_thread_num(), nt = omp_get_num_threads();               \
                    size_t b = m * (size_t)t / (size_t)nt, e = m * (size_t)(t + 1) / (size_t)nt;\
                    size_t *h = hist + (size_t)t * nb;                                      \
                    memset(h, 0, nb * sizeof *h);                                           \
                    for (size_t i = b; i < e; i++)                                          \
                        h[((KEY(&a[i]) - lo) >> sh) & mask]++;                              \
                    _Pragma("omp barrier")                                                  \
                    _Pragma("omp single")                                                   \
                    sam_hist_offsets(hist, nb, nt, nb);                                     \
                    name##_pass(a, tmp, b, e, lo, sh, mask, h);                             \
                }                                                                           \
            }                                                                               \
            T *s_ = a;                                                                      \
            a = tmp;                                                                        \
            tmp = s_;                                                                       \
        }                                                                                   \
        pc_free(hist);                                                                      \
        return a;                                                                           \
    }                                                                                       \
    /* lo = the smallest key of b[0..m), diff = the bits where some key                        \
     * differs from it */                                                                       \
    static inline void name##_span(const T *b, size_t m, uint64_t *lo_, uint64_t *diff_)        \
    {                                                                                           \
        uint64_t lo = UINT64_MAX, diff = 0;                                                     \
        for (size_t i = 0; i < m; i++)                                                          \
            lo = KEY(&b[i]) < lo ? KEY(&b[i]) : lo;                                             \
        for (size_t i = 0; i < m; i++)                                                          \
            diff |= KEY(&b[i]) - lo;                                                            \
        *lo_ = lo;                                                                              \
        *diff_ = diff;                                                                          \
    }                                                                                           \
    /* b[0..m) sorted into x[0..m) (b is scratch) by LSD passes of 8 bits                      \
     * (11 for more than 4096 records) over diff's bits (name##_span's lo,                      \
     * diff); hist: 8 x 2^11 counts */                                                          \
    static void name##_bucket_lsd(T *b, T *x, size_t m, uint64_t lo, uint64_t diff,             \
                                  size_t *hist)                                                 \
    {                                                                                           \
        int digit = m > 4096 ? 11 : 8, np = 0, shift[8];                                        \
        size_t nb = (size_t)1 << digit, mask = nb - 1;                                          \
        for (int sh = 0; sh < 64 && np < 8; sh += digit)                                        \
            if ((diff >> sh) & mask)                                                            \
                shift[np++] = sh;                                                               \
        memset(hist, 0, (size_t)np * nb * sizeof *hist);                                        \
        for (size_t i = 0; i < m; i++) {                                                        \
            uint64_t k = KEY(&b[i]) - lo;                                                       \
            for (int q = 0; q < np; q++)                                                        \
                hist[(size_t)q * nb + ((k >> shift[q]) & mask)]++;                              \
        }                                                                                       \
        T *src = b, *dst = x;                                                                   \
        for (int q = 0; q < np; q++) {                                                          \
            size_t *h = hist + (size_t)q * nb;                                                  \
            sam_hist_offsets(h, nb, 1, nb);                                                     \
            name##_pass(src, dst, 0, m, lo, shift[q], mask, h);                                 \
            T *s_ = src;                                                                        \
            src = dst;                                                                          \
            dst = s_;                                                                           \
        }                                                                                       \
        if (src != x)                                                                           \
            memcpy(x, src, m * sizeof *x);                                                      \
    }                                                                                           \
    /* insertion sort of x[0..m), a few records (stable) */                                    \
    static inline void name##_insert(T *x, size_t m)                                            \
    {                                                                                           \
        for (size_t i = 1; i < m; i++) {                                                        \
            T v = x[i];                                                                         \
            uint64_t k = KEY(&v);                                                               \
            size_t j = i;                                                                       \
            for (; j > 0 && KEY(&x[j - 1]) > k; j--)                                            \
                x[j] = x[j - 1];                                                                \
            x[j] = v;                                                                           \
        }                                                                                       \
    }                                                                                           \
    /* b[0..m), which share their top digit, sorted into x[0..m) (b is                          \
     * scratch). Where the next SAM_SUB_DIGIT bits spread the keys (most                        \
     * records in sub-buckets of at most SAM_SUB_INSERT), one pass by them                      \
     * and insertion sorts (LSD passes for a larger sub-bucket): on the                         \
     * reduced levels' keys (three names of 21 bits, 1.2 M records) LSD                         \
     * passes over the whole bucket took 1.5 times as long. Else (text,                         \
     * whose next bits say little) the LSD passes. hist: SAM_SUB_WORK                           \
     * counts. */                                                                               \
    static void name##_bucket(T *b, T *x, size_t m, size_t *hist)                               \
    {                                                                                           \
        uint64_t lo, diff;                                                                      \
        name##_span(b, m, &lo, &diff);                                                          \
        int bits = 0;                                                                           \
        while (bits < 64 && diff >> bits)                                                       \
            bits++;                                                                             \
        int sh = bits > SAM_SUB_DIGIT ? bits - SAM_SUB_DIGIT : 0;                               \
        size_t nb = (size_t)1 << (bits - sh), *h = hist + SAM_SUB_LSD;                          \
        if (sh) { /* do the bits spread the keys? a sample says */                              \
            memset(h, 0, nb * sizeof *h);                                                       \
            for (size_t i = 0; i < m; i += SAM_SUB_SAMPLE)                                      \
                h[(KEY(&b[i]) - lo) >> sh]++;                                                   \
            size_t big = 0;                                                                     \
            for (size_t d = 0; d < nb; d++) {                                                   \
                size_t est = h[d] * SAM_SUB_SAMPLE; /* the sub-bucket's size, estimated */      \
                big += est > SAM_SUB_INSERT ? est : 0;                                          \
            }                                                                                   \
            if (big > m / 2) {                                                                  \
                name##_bucket_lsd(b, x, m, lo, diff, hist);                                     \
                return;                                                                         \
            }                                                                                   \
        }                                                                                       \
        memset(h, 0, (nb + 1) * sizeof *h);                                                     \
        for (size_t i = 0; i < m; i++)                                                          \
            h[((KEY(&b[i]) - lo) >> sh) + 1]++;                                                 \
        for (size_t d = 0; d < nb; d++)                                                         \
            h[d + 1] += h[d];                                                                   \
        for (size_t i = 0; i < m; i++)                                                          \
            x[h[(KEY(&b[i]) - lo) >> sh]++] = b[i];                                             \
        if (sh == 0) /* the digit held every differing bit */                                   \
            return;                                                                             \
        /* h[d] is now the end of sub-bucket d */                                               \
        for (size_t d = 0, s0 = 0; d < nb; s0 = h[d++]) {                                       \
            size_t k = h[d] - s0;                                                               \
            if (k <= SAM_SUB_INSERT) {                                                          \
                name##_insert(x + s0, k);                                                       \
            } else {                                                                            \
                uint64_t lo2, diff2;                                                            \
                memcpy(b + s0, x + s0, k * sizeof *x);                                          \
                name##_span(b + s0, k, &lo2, &diff2);                                           \
                name##_bucket_lsd(b + s0, x + s0, k, lo2, diff2, hist);                         \
            }                                                                                   \
        }                                                                                       \
    }                                                                                           \
    static T *name(T *a, T *tmp, size_t m, int threads)                                         \
    {                                                                                           \
        if (m < 2)                                                                              \
            return a;                                                                           \
        int nt_ = m < SAM_PAR_MIN || threads < 1 ? 1 : threads;                                 \
        uint64_t lo = UINT64_MAX, diff = 0;                                                     \
        _Pragma("omp parallel for num_threads(nt_) reduction(min : lo) schedule(static)")       \
        for (size_t i = 0; i < m; i++)                                                          \
            lo = KEY(&a[i]) < lo ? KEY(&a[i]) : lo;                                             \
        _Pragma("omp parallel for num_threads(nt_) reduction(| : diff) schedule(static)")       \
        for (size_t i = 0; i < m; i++)                                                          \
            diff |= KEY(&a[i]) - lo;                                                            \
        int bits = 0;                                                                           \
        while (bits < 64 && diff >> bits)                                                       \
            bits++;                                                                             \
        if (m < SAM_MSD_MIN || bits <= 2 * SAM_MSD_DIGIT)                                       \
            return name##_lsd(a, tmp, m, nt_, lo, diff);                                        \
        /* buckets of about SAM_MSD_BUCKET records: fewer and the                               \
         * passes inside a bucket leave the cache, more and the histograms                      \
         * of its passes cost more than its records */                                          \
        int md = 8;                                                                             \
        while (md < SAM_MSD_DIGIT && m >> md > SAM_MSD_BUCKET)                                  \
            md++;                                                                               \
        int shift = bits - md;                                                                  \
        size_t nb = (size_t)1 << md;                                                            \
        size_t *hist = pc_calloc((size_t)nt_ * nb + nb + 1, sizeof *hist);                      \
        size_t *wk = pc_malloc_array((size_t)nt_ * SAM_SUB_WORK, sizeof *wk);                   \
        if (!hist || !wk) {                                                                     \
            pc_free(hist);                                                                      \
            pc_free(wk);                                                                        \
            return NULL;                                                                        \
        }                                                                                       \
        size_t *start = hist + (size_t)nt_ * nb;                                                \
        int skew = 0;                                                                           \
        _Pragma("omp parallel num_threads(nt_)")                                                \
        {                                                                                       \
            int t = omp_get_thread_num(), nt = omp_get_num_threads();                           \
            size_t b = m * (size_t)t / (size_t)nt, e = m * (size_t)(t + 1) / (size_t)nt;        \
            size_t *h = hist + (size_t)t * nb;                                                  \
            for (size_t i = b; i < e; i++)                                                      \
                h[(KEY(&a[i]) - lo) >> shift]++;                                                \
            _Pragma("omp barrier")                                                              \
            _Pragma("omp single")                                                               \
            {                                                                                   \
                sam_hist_offsets(hist, nb, nt, nb);                                             \
                for (size_t d = 0; d < nb; d++)                                                 \
                    start[d] = hist[d];                                                         \
                start[nb] = m;                                                                  \
                for (size_t d = 0; d < nb; d++)                                                 \
                    skew |= start[d + 1] - start[d] > m / 2;                                    \
            }                                                                                   \
            if (!skew) { /* the same on every thread (the single's barrier) */                  \
                for (size_t i = b; i < e; i++)                                                  \
                    tmp[h[(KEY(&a[i]) - lo) >> shift]++] = a[i];                                \
                _Pragma("omp barrier")                                                          \
                size_t *w = wk + (size_t)t * SAM_SUB_WORK;                                      \
                _Pragma("omp for schedule(dynamic, 16)")                                        \
                for (size_t d = 0; d < nb; d++) {                                               \
                    size_t s0 = start[d], k = start[d + 1] - s0;                                \
                    if (k == 1)                                                                 \
                        a[s0] = tmp[s0];                                                        \
                    else if (k > 1)                                                             \
                        name##_bucket(tmp + s0, a + s0, k, w);                                  \
                }                                                                               \
            }                                                                                   \
        }                                                                                       \
        pc_free(wk);                                                                            \
        pc_free(hist);                                                                          \
        return skew ? name##_lsd(a, tmp, m, nt_, lo, diff) : a;                                 \
    }

#endif
