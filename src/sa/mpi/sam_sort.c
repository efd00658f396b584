/* sam_sort.c - the distributed sort of (key, position) records: a local
 * parallel LSD radix sort and a sample sort around it. */
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "pc_alloc.h"
#include "sam.h"

/* Below this many records one thread sorts: the fork costs more. */
#define SAM_RADIX_PAR_MIN 65536

sam_tup *sam_radix_sort(sam_tup *a, sam_tup *tmp, size_t m, int threads)
{
    if (m < 2)
        return a;
    uint64_t first = sam_key(&a[0]), diff = 0;
    int T = m < SAM_RADIX_PAR_MIN || threads < 1 ? 1 : threads;
#pragma omp parallel for num_threads(T) reduction(| : diff) schedule(static)
    for (size_t i = 1; i < m; i++)
        diff |= sam_key(&a[i]) ^ first;
    size_t *hist = pc_calloc((size_t)T * 256, sizeof *hist);
    if (!hist)
        return NULL;
    for (int shift = 0; shift < 64; shift += 8) {
        if (!((diff >> shift) & 0xff))
            continue; /* every key has the same digit here */
#pragma omp parallel num_threads(T)
        {
            int t = omp_get_thread_num(), nt = omp_get_num_threads();
            size_t b = m * (size_t)t / (size_t)nt, e = m * (size_t)(t + 1) / (size_t)nt;
            size_t *h = hist + (size_t)t * 256;
            memset(h, 0, 256 * sizeof *h);
            for (size_t i = b; i < e; i++)
                h[(sam_key(&a[i]) >> shift) & 0xff]++;
#pragma omp barrier
#pragma omp single
            {
                size_t off = 0;
                for (int d = 0; d < 256; d++)
                    for (int u = 0; u < nt; u++) {
                        size_t x = hist[(size_t)u * 256 + (size_t)d];
                        hist[(size_t)u * 256 + (size_t)d] = off;
                        off += x;
                    }
            }
            for (size_t i = b; i < e; i++)
                tmp[h[(sam_key(&a[i]) >> shift) & 0xff]++] = a[i];
        }
        sam_tup *s = a;
        a = tmp;
        tmp = s;
    }
    pc_free(hist);
    return a;
}

/* A sample: a record's key and where it sits (rank, index in the rank's
 * sorted slice), so that all records are distinct in the splitting order. */
typedef struct sam_sample {
    uint32_t hi, lo, rank, pos;
} sam_sample;

static int sample_cmp(const void *x, const void *y)
{
    const sam_sample *a = x, *b = y;
    uint64_t ka = (uint64_t)a->hi << 32 | a->lo, kb = (uint64_t)b->hi << 32 | b->lo;
    if (ka != kb)
        return ka < kb ? -1 : 1;
    if (a->rank != b->rank)
        return a->rank < b->rank ? -1 : 1;
    return (a->pos > b->pos) - (a->pos < b->pos);
}

/* Number of records of s[0..m) (this rank's sorted slice) below sp. */
static size_t lower_bound(const sam_tup *s, size_t m, int me, const sam_sample *sp)
{
    uint64_t kb = (uint64_t)sp->hi << 32 | sp->lo;
    size_t lo = 0, hi = m;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        uint64_t ka = sam_key(&s[mid]);
        int less = ka != kb ? ka < kb
                 : (uint32_t)me != sp->rank ? (uint32_t)me < sp->rank
                 : mid < sp->pos;
        if (less)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Sorts locally, dying on allocation failure. */
static sam_tup *local_sort(const sam_ctx *c, sam_tup *a, size_t m)
{
    sam_tup *tmp = sam_alloc(c, m + 1, sizeof *tmp, "the radix sort buffer");
    sam_tup *s = sam_radix_sort(a, tmp, m, c->threads);
    if (!s)
        sam_die(c, "out of memory for radix sort histograms");
    pc_free(s == a ? tmp : a);
    return s;
}

sam_tup *sam_sort(const sam_ctx *c, sam_tup *a, size_t m, size_t *mout)
{
    int P = c->np;
    sam_tup *s = local_sort(c, a, m);
    *mout = m;
    if (P == 1)
        return s;
    uint64_t mm = m, M = 0;
    MPI_Allreduce(&mm, &M, 1, MPI_UINT64_T, MPI_SUM, c->comm);
    if (M == 0)
        return s;
    /* regular samples, as many per rank as its share of the records:
     * a splitter is then off by at most np * M / S records */
    uint64_t S = (uint64_t)64 * (uint64_t)P;
    if (S > ((uint64_t)1 << 20))
        S = (uint64_t)1 << 20;
    int ns = (int)((m * S + M - 1) / M);
    if ((size_t)ns > m)
        ns = (int)m;
    int *cnt = sam_alloc(c, 4 * (size_t)P, sizeof(int), "sample counts");
    int *scnt = cnt, *sdis = cnt + P, *rcnt = cnt + 2 * P, *rdis = cnt + 3 * P;
    int ns4 = 4 * ns;
    MPI_Allgather(&ns4, 1, MPI_INT, rcnt, 1, MPI_INT, c->comm);
    size_t tot = 0;
    for (int q = 0; q < P; q++) {
        rdis[q] = (int)tot;
        tot += (size_t)rcnt[q];
    }
    sam_sample *mine = sam_alloc(c, (size_t)ns + 1, sizeof *mine, "samples");
    for (int k = 0; k < ns; k++) {
        size_t p = ((2 * (size_t)k + 1) * m) / (2 * (size_t)ns);
        mine[k] = (sam_sample){ s[p].hi, s[p].lo, (uint32_t)c->rank, (uint32_t)p };
    }
    sam_sample *all = sam_alloc(c, tot / 4 + 1, sizeof *all, "all samples");
    MPI_Allgatherv(mine, ns4, MPI_UINT32_T, all, rcnt, rdis, MPI_UINT32_T, c->comm);
    pc_free(mine);
    size_t nall = tot / 4;
    qsort(all, nall, sizeof *all, sample_cmp);
    size_t prev = 0;
    for (int q = 0; q < P; q++) {
        size_t b = q + 1 < P ? lower_bound(s, m, c->rank, &all[(size_t)(q + 1) * nall / (size_t)P]) : m;
        if (b < prev)
            b = prev;
        scnt[q] = (int)(b - prev);
        prev = b;
    }
    pc_free(all);
    MPI_Alltoall(scnt, 1, MPI_INT, rcnt, 1, MPI_INT, c->comm);
    size_t so = 0, ro = 0;
    for (int q = 0; q < P; q++) {
        sdis[q] = (int)so;
        rdis[q] = (int)ro;
        so += (size_t)scnt[q];
        ro += (size_t)rcnt[q];
    }
    sam_tup *r = sam_alloc(c, ro + 1, sizeof *r, "the sample sort receive buffer");
    MPI_Alltoallv(s, scnt, sdis, c->t_tup, r, rcnt, rdis, c->t_tup, c->comm);
    pc_free(s);
    pc_free(cnt);
    *mout = ro;
    return local_sort(c, r, ro);
}
