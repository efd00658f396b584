/* sam_dist.c - the block distribution and the two exchanges every phase
 * uses: routing pairs to the owner of an index, fetching values by index. */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pc_alloc.h"
#include "sam.h"
#include "sam_prof.h"

void sam_die(const sam_ctx *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "parcheck-sa-mpi: rank %d: ", c ? c->rank : -1);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    fflush(stderr);
    MPI_Abort(c ? c->comm : MPI_COMM_WORLD, 2);
    for (;;) /* MPI_Abort does not return */
        ;
}

void *sam_alloc(const sam_ctx *c, size_t count, size_t size, const char *what)
{
    void *p = pc_malloc_array(count, size);
    if (!p)
        sam_die(c, "out of memory for %s (%zu x %zu bytes)", what, count, size);
    return p;
}

void sam_ctx_init(sam_ctx *c, MPI_Comm comm, int64_t n, int threads)
{
    memset(c, 0, sizeof *c);
    c->comm = comm;
    MPI_Comm_rank(comm, &c->rank);
    MPI_Comm_size(comm, &c->np);
    c->threads = threads;
    const char *v = getenv("SAM_VERBOSE");
    c->verbose = v && (v[0] == '1' || v[0] == '2') ? v[0] - '0' : 0;
    c->n = n;
    c->bounds = sam_alloc(c, (size_t)c->np + 1, sizeof *c->bounds, "the block bounds");
    for (int r = 0; r <= c->np; r++)
        c->bounds[r] = (int64_t)r * n / c->np;
    c->per_pos = n > 0 ? (double)c->np / (double)n : 0;
    c->lo = c->bounds[c->rank];
    c->hi = c->bounds[c->rank + 1];
    MPI_Type_contiguous((int)sizeof(sam_pair), MPI_BYTE, &c->t_pair);
    MPI_Type_commit(&c->t_pair);
    MPI_Type_contiguous((int)sizeof(sam_tup), MPI_BYTE, &c->t_tup);
    MPI_Type_commit(&c->t_tup);
}

void sam_ctx_free(sam_ctx *c)
{
    pc_free(c->bounds);
    c->bounds = NULL;
    MPI_Type_free(&c->t_pair);
    MPI_Type_free(&c->t_tup);
}

/* Exchanges counts and turns them into displacements. */
static size_t exchange_counts(const sam_ctx *c, int *scnt, int *sdis, int *rcnt, int *rdis)
{
    MPI_Alltoall(scnt, 1, MPI_INT, rcnt, 1, MPI_INT, c->comm);
    size_t s = 0, r = 0;
    for (int q = 0; q < c->np; q++) {
        sdis[q] = (int)s;
        rdis[q] = (int)r;
        s += (size_t)scnt[q];
        r += (size_t)rcnt[q];
    }
    return r;
}

sam_pair *sam_route(const sam_ctx *c, const sam_pair *pairs, size_t npairs, size_t *nrecv)
{
    int P = c->np;
    int T = npairs < SAM_PAR_MIN ? 1 : c->threads;
    double tp = sam_prof_mark();
    int *cnt = sam_alloc(c, 4 * (size_t)P, sizeof(int), "exchange counts");
    int *scnt = cnt, *sdis = cnt + P, *rcnt = cnt + 2 * P, *rdis = cnt + 3 * P;
    int *dest = sam_alloc(c, npairs + 1, sizeof(int), "routing destinations");
    size_t hs = pc_thread_stride((size_t)P, sizeof(size_t)); /* apart: see pc_alloc.h */
    size_t *hist = sam_alloc(c, (size_t)T * hs + 1, sizeof *hist, "routing counts");
    sam_pair *sbuf = sam_alloc(c, npairs + 1, sizeof *sbuf, "routing send buffer");
    /* counting sort by destination, each thread on its chunk */
#pragma omp parallel for num_threads(T) schedule(static, 1)
    for (int t = 0; t < T; t++) {
        size_t b = npairs * (size_t)t / (size_t)T, e = npairs * (size_t)(t + 1) / (size_t)T;
        size_t *h = hist + (size_t)t * hs;
        memset(h, 0, sizeof *h * (size_t)P);
        for (size_t k = b; k < e; k++) {
            dest[k] = sam_owner(c, pairs[k].idx);
            h[dest[k]]++;
        }
    }
    size_t off = 0;
    for (int q = 0; q < P; q++) {
        size_t q0 = off;
        for (int t = 0; t < T; t++) {
            size_t x = hist[(size_t)t * hs + (size_t)q];
            hist[(size_t)t * hs + (size_t)q] = off;
            off += x;
        }
        scnt[q] = (int)(off - q0);
    }
#pragma omp parallel for num_threads(T) schedule(static, 1)
    for (int t = 0; t < T; t++) {
        size_t b = npairs * (size_t)t / (size_t)T, e = npairs * (size_t)(t + 1) / (size_t)T;
        size_t *h = hist + (size_t)t * hs;
        for (size_t k = b; k < e; k++)
            sbuf[h[dest[k]]++] = pairs[k];
    }
    pc_free(hist);
    pc_free(dest);
    size_t r = exchange_counts(c, scnt, sdis, rcnt, rdis);
    sam_pair *rbuf = sam_alloc(c, r + 1, sizeof *rbuf, "routing receive buffer");
    MPI_Alltoallv(sbuf, scnt, sdis, c->t_pair, rbuf, rcnt, rdis, c->t_pair, c->comm);
    pc_free(sbuf);
    pc_free(cnt);
    *nrecv = r;
    sam_prof_add(SAM_PH_ROUTE, &tp);
    return rbuf;
}

void sam_fetch(const sam_ctx *c, const uint32_t *want, size_t k, const uint32_t *vals,
               uint32_t *got)
{
    int P = c->np;
    double tp = sam_prof_mark();
    int *cnt = sam_alloc(c, 4 * (size_t)P, sizeof(int), "exchange counts");
    int *scnt = cnt, *sdis = cnt + P, *rcnt = cnt + 2 * P, *rdis = cnt + 3 * P;
    memset(scnt, 0, sizeof(int) * (size_t)P);
    /* want is ascending: owners come in order, count the runs */
    for (size_t j = 0; j < k;) {
        int q = sam_owner(c, want[j]);
        int64_t end = sam_block_lo(c, q + 1);
        size_t j0 = j;
        while (j < k && (int64_t)want[j] < end)
            j++;
        scnt[q] += (int)(j - j0);
    }
    size_t r = exchange_counts(c, scnt, sdis, rcnt, rdis);
    uint32_t *req = sam_alloc(c, r + 1, sizeof *req, "fetch requests");
    MPI_Alltoallv(want, scnt, sdis, MPI_UINT32_T, req, rcnt, rdis, MPI_UINT32_T, c->comm);
#pragma omp parallel for num_threads(r < SAM_PAR_MIN ? 1 : c->threads) schedule(static)
    for (size_t j = 0; j < r; j++)
        req[j] = vals[req[j] - c->lo];
    MPI_Alltoallv(req, rcnt, rdis, MPI_UINT32_T, got, scnt, sdis, MPI_UINT32_T, c->comm);
    pc_free(req);
    pc_free(cnt);
    sam_prof_add(SAM_PH_FETCH, &tp);
}

void sam_route_store(const sam_ctx *c, sam_pair *pairs, size_t npairs, uint32_t *dst,
                     size_t expect, const char *what)
{
    size_t got;
    sam_pair *r = sam_route(c, pairs, npairs, &got);
    double tp = sam_prof_mark();
    pc_free(pairs);
    if (expect != SIZE_MAX && got != expect)
        sam_die(c, "internal error: %zu entries of %s for a block of %zu", got, what, expect);
#pragma omp parallel for num_threads(got < SAM_PAR_MIN ? 1 : c->threads) schedule(static)
    for (size_t j = 0; j < got; j++)
        dst[r[j].idx - c->lo] = r[j].val;
    pc_free(r);
    sam_prof_add(SAM_PH_ROUTE, &tp);
}

void sam_store_run(const sam_ctx *c, const uint32_t *v, size_t m, uint32_t *dst,
                   const char *what)
{
    int P = c->np;
    uint64_t mm = m, off = 0;
    MPI_Exscan(&mm, &off, 1, MPI_UINT64_T, MPI_SUM, c->comm);
    if (c->rank == 0)
        off = 0;
    int *cnt = sam_alloc(c, 4 * (size_t)P, sizeof(int), "exchange counts");
    int *scnt = cnt, *sdis = cnt + P, *rcnt = cnt + 2 * P, *rdis = cnt + 3 * P;
    /* the run [off, off + m) cut by the block bounds: contiguous pieces */
    for (int q = 0; q < P; q++) {
        int64_t a = sam_block_lo(c, q), z = sam_block_lo(c, q + 1);
        a = a > (int64_t)off ? a : (int64_t)off;
        z = z < (int64_t)(off + m) ? z : (int64_t)(off + m);
        scnt[q] = z > a ? (int)(z - a) : 0;
    }
    size_t r = exchange_counts(c, scnt, sdis, rcnt, rdis);
    if (r != (size_t)(c->hi - c->lo))
        sam_die(c, "internal error: %zu entries of %s for a block of %lld", r, what,
                (long long)(c->hi - c->lo));
    /* lower ranks hold earlier runs, so the pieces arrive in order */
    MPI_Alltoallv(v, scnt, sdis, MPI_UINT32_T, dst, rcnt, rdis, MPI_UINT32_T, c->comm);
    pc_free(cnt);
}

int sam_alphabet(const sam_ctx *c, const uint8_t *text, size_t b, uint32_t code[256])
{
    int hist[256] = { 0 }, all[256];
    for (size_t k = 0; k < b; k++)
        hist[text[k]] = 1;
    MPI_Allreduce(hist, all, 256, MPI_INT, MPI_MAX, c->comm);
    int sigma = 0, bits = 1;
    for (int v = 0; v < 256; v++)
        code[v] = all[v] ? (uint32_t)++sigma : 0;
    while ((1 << bits) <= sigma)
        bits++;
    return bits;
}
