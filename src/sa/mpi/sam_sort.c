/* sam_sort.c - the distributed sort of (key, position) records: splitters
 * from samples of the unsorted records, one Alltoallv, then one parallel
 * LSD radix sort of what each rank received. */
#include "pc_omp.h"
#include <stdlib.h>
#include <string.h>

#include "pc_alloc.h"
#include "sam.h"

#define SAM_DIGIT 11
#define SAM_BUCKETS (1u << SAM_DIGIT)

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
            {
                size_t off = 0;
                for (size_t d = 0; d < SAM_BUCKETS; d++)
                    for (int u = 0; u < nt; u++) {
                        size_t x = hist[(size_t)u * SAM_BUCKETS + d];
                        hist[(size_t)u * SAM_BUCKETS + d] = off;
                        off += x;
                    }
            }
            for (size_t i = b; i < e; i++)
                tmp[h[((sam_key(&a[i]) - lo) >> shift) & (SAM_BUCKETS - 1)]++] = a[i];
        }
        sam_tup *s = a;
        a = tmp;
        tmp = s;
    }
    pc_free(hist);
    return a;
}

/* A sample: a record's key and where it sits (rank, index in the rank's
 * unsorted records), so that all records are distinct in the splitting
 * order and equal keys are split evenly too. */
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

/* The bucket of record j of rank me: the number of splitters below it. */
static int bucket_of(const sam_sample *sp, int ns, uint64_t k, uint32_t me, uint32_t j)
{
    int lo = 0, hi = ns;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        uint64_t ks = (uint64_t)sp[mid].hi << 32 | sp[mid].lo;
        int below = ks != k ? ks < k : sp[mid].rank != me ? sp[mid].rank < me : sp[mid].pos < j;
        if (below)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static uint64_t mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

/* P - 1 splitters from samples taken at random inside equal strides of
 * every rank's records, as many per rank as its share of all of them. */
static sam_sample *splitters(const sam_ctx *c, const sam_tup *a, size_t m, uint64_t M)
{
    int P = c->np;
    uint64_t S = (uint64_t)256 * (uint64_t)P;
    if (S > ((uint64_t)1 << 20))
        S = (uint64_t)1 << 20;
    int ns = (int)((m * S + M - 1) / M);
    if ((size_t)ns > m)
        ns = (int)m;
    int *cnt = sam_alloc(c, 2 * (size_t)P, sizeof(int), "sample counts");
    int ns4 = 4 * ns;
    MPI_Allgather(&ns4, 1, MPI_INT, cnt, 1, MPI_INT, c->comm);
    size_t tot = 0;
    for (int q = 0; q < P; q++) {
        cnt[P + q] = (int)tot;
        tot += (size_t)cnt[q];
    }
    sam_sample *mine = sam_alloc(c, (size_t)ns + 1, sizeof *mine, "samples");
    for (int k = 0; k < ns; k++) {
        size_t b = (size_t)k * m / (size_t)ns, e = (size_t)(k + 1) * m / (size_t)ns;
        size_t p = b + (size_t)(mix((uint64_t)c->rank << 32 | (uint64_t)k) % (e - b));
        mine[k] = (sam_sample){ a[p].hi, a[p].lo, (uint32_t)c->rank, (uint32_t)p };
    }
    sam_sample *all = sam_alloc(c, tot / 4 + 1, sizeof *all, "all samples");
    MPI_Allgatherv(mine, ns4, MPI_UINT32_T, all, cnt, cnt + P, MPI_UINT32_T, c->comm);
    pc_free(mine);
    pc_free(cnt);
    size_t nall = tot / 4;
    qsort(all, nall, sizeof *all, sample_cmp);
    sam_sample *sp = sam_alloc(c, (size_t)P, sizeof *sp, "splitters");
    for (int q = 1; q < P; q++)
        sp[q - 1] = all[(size_t)q * nall / (size_t)P];
    pc_free(all);
    return sp;
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
    *mout = m;
    uint64_t mm = m, M = 0;
    if (P > 1)
        MPI_Allreduce(&mm, &M, 1, MPI_UINT64_T, MPI_SUM, c->comm);
    if (M == 0)
        return local_sort(c, a, m);
    if (P > 65535)
        sam_die(c, "at most 65535 ranks");
    sam_sample *sp = splitters(c, a, m, M);
    int T = m < SAM_PAR_MIN ? 1 : c->threads;
    uint16_t *dest = sam_alloc(c, m + 1, sizeof *dest, "bucket numbers");
    size_t *hist = pc_calloc((size_t)T * (size_t)P + 1, sizeof *hist);
    int *cnt = sam_alloc(c, 4 * (size_t)P, sizeof(int), "exchange counts");
    sam_tup *sbuf = sam_alloc(c, m + 1, sizeof *sbuf, "the sample sort send buffer");
    if (!hist)
        sam_die(c, "out of memory for bucket counts");
    int *scnt = cnt, *sdis = cnt + P, *rcnt = cnt + 2 * P, *rdis = cnt + 3 * P;
#pragma omp parallel num_threads(T)
    {
        int t = omp_get_thread_num(), nt = omp_get_num_threads();
        size_t b = m * (size_t)t / (size_t)nt, e = m * (size_t)(t + 1) / (size_t)nt;
        size_t *h = hist + (size_t)t * (size_t)P;
        for (size_t i = b; i < e; i++) {
            int q = bucket_of(sp, P - 1, sam_key(&a[i]), (uint32_t)c->rank, (uint32_t)i);
            dest[i] = (uint16_t)q;
            h[q]++;
        }
#pragma omp barrier
#pragma omp single
        {
            size_t off = 0;
            for (int q = 0; q < P; q++) {
                sdis[q] = (int)off;
                for (int u = 0; u < nt; u++) {
                    size_t x = hist[(size_t)u * (size_t)P + (size_t)q];
                    hist[(size_t)u * (size_t)P + (size_t)q] = off;
                    off += x;
                }
                scnt[q] = (int)(off - (size_t)sdis[q]);
            }
        }
        for (size_t i = b; i < e; i++)
            sbuf[h[dest[i]]++] = a[i];
    }
    pc_free(hist);
    pc_free(dest);
    pc_free(sp);
    pc_free(a);
    MPI_Alltoall(scnt, 1, MPI_INT, rcnt, 1, MPI_INT, c->comm);
    size_t ro = 0;
    for (int q = 0; q < P; q++) {
        rdis[q] = (int)ro;
        ro += (size_t)rcnt[q];
    }
    sam_tup *r = sam_alloc(c, ro + 1, sizeof *r, "the sample sort receive buffer");
    MPI_Alltoallv(sbuf, scnt, sdis, c->t_tup, r, rcnt, rdis, c->t_tup, c->comm);
    pc_free(sbuf);
    pc_free(cnt);
    *mout = ro;
    return local_sort(c, r, ro);
}
