/* sam_sort.c - the distributed sort of (key, position) records of the
 * prefix doubling: the sample sort of sam_dsort.c (splitters from samples
 * of the unsorted records, one Alltoallv) with a parallel LSD radix sort
 * over the 64-bit keys as its local sort. */
#include "pc_omp.h"
#include <stdlib.h>
#include <string.h>

#include "pc_alloc.h"
#include "sam.h"

#define SAM_DIGIT 11
#define SAM_BUCKETS (1u << SAM_DIGIT)

/* One pass: a[b..e) into tmp by the digit (key - lo) >> shift, h the
 * first slot of each digit (advanced). */
static void tup_scatter(const sam_tup *a, sam_tup *tmp, size_t b, size_t e, uint64_t lo,
                        int shift, size_t *h)
{
    for (size_t i = b; i < e; i++)
        tmp[h[((sam_key(&a[i]) - lo) >> shift) & (SAM_BUCKETS - 1)]++] = a[i];
}

sam_tup *sam_radix_sort(sam_tup *a, sam_tup *tmp, size_t m, int threads)
{
    if (m < 2)
        return a;
    int T = m < SAM_PAR_MIN || threads < 1 ? 1 : threads;
    /* sort key - min: only the digits where some record differs count */
    uint64_t lo = UINT64_MAX, diff = 0;
#pragma omp parallel for num_threads(T) reduction(min : lo) schedule(static)
    for (size_t i = 0; i < m; i++)
        if (sam_key(&a[i]) < lo)
            lo = sam_key(&a[i]);
#pragma omp parallel for num_threads(T) reduction(| : diff) schedule(static)
    for (size_t i = 0; i < m; i++)
        diff |= sam_key(&a[i]) - lo;
    if (T == 1) {
        /* one thread: every digit's counts in one read (they do not depend
         * on the order), then each pass only scatters */
        enum { NPASS = (64 + SAM_DIGIT - 1) / SAM_DIGIT };
        size_t *hist = pc_calloc((size_t)NPASS * SAM_BUCKETS, sizeof *hist);
        if (!hist)
            return NULL;
        for (size_t i = 0; i < m; i++) {
            uint64_t k = sam_key(&a[i]) - lo;
            for (int q = 0; q < NPASS; q++)
                hist[(size_t)q * SAM_BUCKETS + ((k >> (q * SAM_DIGIT)) & (SAM_BUCKETS - 1))]++;
        }
        for (int q = 0; q < NPASS; q++) {
            int shift = q * SAM_DIGIT;
            if (!((diff >> shift) & (SAM_BUCKETS - 1)))
                continue; /* every record has the same digit here */
            size_t *h = hist + (size_t)q * SAM_BUCKETS;
            sam_hist_offsets(h, SAM_BUCKETS, 1, SAM_BUCKETS);
            tup_scatter(a, tmp, 0, m, lo, shift, h);
            sam_tup *s = a;
            a = tmp;
            tmp = s;
        }
        pc_free(hist);
        return a;
    }
    size_t *hist = pc_calloc((size_t)T * SAM_BUCKETS, sizeof *hist);
    if (!hist)
        return NULL;
    for (int shift = 0; shift < 64; shift += SAM_DIGIT) {
        if (!((diff >> shift) & (SAM_BUCKETS - 1)))
            continue; /* every record has the same digit here */
#pragma omp parallel num_threads(T)
        {
            int t = omp_get_thread_num(), nt = omp_get_num_threads();
            size_t b = m * (size_t)t / (size_t)nt, e = m * (size_t)(t + 1) / (size_t)nt;
            size_t *h = hist + (size_t)t * SAM_BUCKETS;
            memset(h, 0, SAM_BUCKETS * sizeof *h);
            for (size_t i = b; i < e; i++)
                h[((sam_key(&a[i]) - lo) >> shift) & (SAM_BUCKETS - 1)]++;
#pragma omp barrier
#pragma omp single
            sam_hist_offsets(hist, SAM_BUCKETS, nt, SAM_BUCKETS);
            tup_scatter(a, tmp, b, e, lo, shift, h);
        }
        sam_tup *s = a;
        a = tmp;
        tmp = s;
    }
    pc_free(hist);
    return a;
}

/* Sorts locally, dying on allocation failure. */
static void *local_sort(const sam_ctx *c, void *av, size_t m)
{
    sam_tup *a = av;
    sam_tup *tmp = sam_alloc(c, m + 1, sizeof *tmp, "the radix sort buffer");
    sam_tup *s = sam_radix_sort(a, tmp, m, c->threads);
    if (!s)
        sam_die(c, "out of memory for radix sort histograms");
    pc_free(s == a ? tmp : a);
    return s;
}

sam_tup *sam_sort(const sam_ctx *c, sam_tup *a, size_t m, size_t *mout)
{
    const sam_order o = { 3, c->t_tup, sam_tup_cmp, sam_tup_buckets, local_sort };
    return sam_sort_by(c, &o, a, m, mout);
}
