/* sa_lcp.c - Kasai's LCP (blocked for threads) and the longest repeat. */
#include "pc_alloc.h"
#include "sa.h"

/* Kasai over the text positions [lo, hi), starting from h = 0: the
 * h - 1 invariant only saves work, it is not needed for correctness, so
 * blocks can run on their own; they write distinct LCP entries. */
static void kasai_block(const uint8_t *T, const int32_t *SA, const int32_t *rank, int32_t n,
                        int32_t *LCP, int32_t lo, int32_t hi)
{
    int32_t h = 0;
    for (int32_t i = lo; i < hi; i++) {
        int32_t r = rank[i];
        if (r == 0) {
            LCP[0] = 0;
            h = 0;
            continue;
        }
        int32_t j = SA[r - 1];
        while (i + h < n && j + h < n && T[i + h] == T[j + h])
            h++;
        LCP[r] = h;
        if (h > 0)
            h--;
    }
}

int sa_lcp_kasai(const uint8_t *T, const int32_t *SA, int32_t n, int32_t *LCP,
                 int threads, pc_error *err)
{
    if (n <= 0)
        return PC_OK;
    int32_t *rank = pc_malloc_array((size_t)n, sizeof *rank);
    if (!rank)
        return pc_error_nomem(err, "computing the LCP array");
    if (threads > 1 && n >= 65536) {
#pragma omp parallel for schedule(static) num_threads(threads)
        for (int32_t i = 0; i < n; i++)
            rank[SA[i]] = i;
        int nblocks = threads * 4;
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads)
        for (int b = 0; b < nblocks; b++)
            kasai_block(T, SA, rank, n, LCP, (int32_t)((int64_t)n * b / nblocks),
                        (int32_t)((int64_t)n * (b + 1) / nblocks));
    } else {
        /* one thread, without entering the OpenMP runtime (a region with
         * a false if clause costs microseconds under libomp) */
        for (int32_t i = 0; i < n; i++)
            rank[SA[i]] = i;
        kasai_block(T, SA, rank, n, LCP, 0, n);
    }
    pc_free(rank);
    return PC_OK;
}

void sa_lrs(const int32_t *SA, const int32_t *LCP, int32_t n, int32_t *len,
            int32_t *pos, int32_t *pos2)
{
    int32_t best = 0, at = -1;
    for (int32_t i = 1; i < n; i++)
        if (LCP[i] > best) {
            best = LCP[i];
            at = i;
        }
    *len = best;
    *pos = at > 0 ? SA[at - 1] : -1;
    *pos2 = at > 0 ? SA[at] : -1;
}
