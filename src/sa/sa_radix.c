/* sa_radix.c - the sorts under sa_omp.c: a parallel LSD radix sort on the
 * key half of packed words, and an in-place quicksort for one group. */
#include "sa_radix.h"

#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

void sa_radix_sort_hi(uint64_t *a, uint64_t *tmp, int64_t m, int keybits, int threads,
                      int par, int64_t *hist)
{
    enum { B = 1 << SA_RADIX_BITS };
    uint64_t *src = a, *dst = tmp;
    if (threads < 1)
        threads = 1;
    for (int shift = 32; shift < 32 + keybits; shift += SA_RADIX_BITS) {
        int skip = 0;
#pragma omp parallel num_threads(threads) if (par)
        {
#ifdef _OPENMP
            int nt = omp_get_num_threads(), t = omp_get_thread_num();
#else
            int nt = 1, t = 0;
#endif
            int64_t lo = m * t / nt, hi = m * (t + 1) / nt;
            int64_t *h = hist + (int64_t)t * B;
            memset(h, 0, sizeof(int64_t) * B);
            for (int64_t i = lo; i < hi; i++)
                h[(src[i] >> shift) & (B - 1)]++;
#pragma omp barrier
#pragma omp single
            {
                /* a digit shared by every word orders nothing: skip it */
                int64_t sum = 0;
                for (int d = 0; d < B; d++) {
                    int64_t tot = 0;
                    for (int u = 0; u < nt; u++)
                        tot += hist[(int64_t)u * B + d];
                    if (tot == m)
                        skip = 1;
                    for (int u = 0; u < nt; u++) {
                        int64_t c = hist[(int64_t)u * B + d];
                        hist[(int64_t)u * B + d] = sum;
                        sum += c;
                    }
                }
            }
            if (!skip)
                for (int64_t i = lo; i < hi; i++)
                    dst[h[(src[i] >> shift) & (B - 1)]++] = src[i];
        }
        if (!skip) {
            uint64_t *x = src;
            src = dst;
            dst = x;
        }
    }
    if (src != a) {
#pragma omp parallel for schedule(static) num_threads(threads) if (par)
        for (int64_t i = 0; i < m; i++)
            a[i] = src[i];
    }
}

static void sort_insertion(uint64_t *a, int64_t m)
{
    for (int64_t i = 1; i < m; i++) {
        uint64_t v = a[i];
        int64_t j = i;
        for (; j > 0 && a[j - 1] > v; j--)
            a[j] = a[j - 1];
        a[j] = v;
    }
}

static inline uint64_t med3(uint64_t x, uint64_t y, uint64_t z)
{
    return x < y ? (y < z ? y : (x < z ? z : x)) : (x < z ? x : (y < z ? z : y));
}

static void sift_down(uint64_t *a, int64_t i, int64_t m)
{
    for (;;) {
        int64_t c = 2 * i + 1;
        if (c >= m)
            return;
        if (c + 1 < m && a[c + 1] > a[c])
            c++;
        if (a[i] >= a[c])
            return;
        uint64_t x = a[i];
        a[i] = a[c];
        a[c] = x;
        i = c;
    }
}

static void sort_heap(uint64_t *a, int64_t m)
{
    for (int64_t i = m / 2; i-- > 0;)
        sift_down(a, i, m);
    for (int64_t e = m - 1; e > 0; e--) {
        uint64_t x = a[0];
        a[0] = a[e];
        a[e] = x;
        sift_down(a, 0, e);
    }
}

/* Introsort: values are distinct (the low half is a suffix index), so a
 * two-way partition around a median of three (ninther for large m) is
 * safe; periodic texts produce key patterns that defeat any fixed pivot
 * rule, hence the depth limit with heapsort behind it. Recursing into the
 * smaller side bounds the stack to log m. */
static void sort_intro(uint64_t *a, int64_t m, int depth)
{
    while (m > 24) {
        if (depth-- <= 0) {
            sort_heap(a, m);
            return;
        }
        uint64_t p;
        if (m > 256) {
            int64_t s = m / 8;
            p = med3(med3(a[0], a[s], a[2 * s]), med3(a[3 * s], a[m / 2], a[5 * s]),
                     med3(a[6 * s], a[7 * s], a[m - 1]));
        } else {
            p = med3(a[0], a[m / 2], a[m - 1]);
        }
        int64_t i = 0, j = m - 1;
        for (;;) {
            while (a[i] < p)
                i++;
            while (a[j] > p)
                j--;
            if (i >= j)
                break;
            uint64_t x = a[i];
            a[i] = a[j];
            a[j] = x;
            i++;
            j--;
        }
        /* [0, j] <= p <= [j+1, m) */
        int64_t left = j + 1;
        if (left < m - left) {
            sort_intro(a, left, depth);
            a += left;
            m -= left;
        } else {
            sort_intro(a + left, m - left, depth);
            m = left;
        }
    }
    sort_insertion(a, m);
}

void sa_sort_u64(uint64_t *a, int64_t m)
{
    int depth = 0;
    for (int64_t x = m; x > 1; x >>= 1)
        depth += 2;
    sort_intro(a, m, depth);
}
