/* sam_lcp.c - distributed LCP (the Phi method) and the longest repeat.
 *
 * Phi[i] = SA[ISA[i] - 1] is routed from suffix-array order to the owner
 * of text position i; each rank then computes PLCP[i] = lcp(i, Phi[i]) for
 * its own positions in text order, where PLCP[i] >= PLCP[i - 1] - 1 keeps
 * the work at O(block + max LCP) per thread chunk; PLCP is routed back to
 * suffix-array order with ISA (LCP[ISA[i]] = PLCP[i]). The comparisons
 * read the text at arbitrary positions (Phi[i] + l), so every rank holds
 * the whole text in this phase: its text window is [0, n). */
#include "pc_omp.h"

#include "pc_alloc.h"
#include "sam.h"

#define SAM_NONE 0xffffffffu

/* PLCP of positions [b, e) of the block, Kasai's argument, starting at 0. */
static void plcp_chunk(const uint8_t *T, int64_t n, int64_t lo, const uint32_t *phi, size_t b,
                       size_t e, uint32_t *plcp)
{
    int64_t l = 0;
    for (size_t k = b; k < e; k++) {
        int64_t i = lo + (int64_t)k;
        if (phi[k] == SAM_NONE) {
            plcp[k] = 0;
            l = 0;
            continue;
        }
        int64_t j = phi[k];
        int64_t lim = n - (i > j ? i : j);
        while (l < lim && T[i + l] == T[j + l])
            l++;
        plcp[k] = (uint32_t)l;
        if (l > 0)
            l--;
    }
}

int32_t *sam_lcp(const sam_ctx *c, const uint8_t *T, const int32_t *SA, const uint32_t *R,
                 int32_t *len, int32_t *pos, int32_t *pos2)
{
    int P = c->np;
    size_t b = (size_t)(c->hi - c->lo);
    /* SA[lo - 1] from the nearest rank before with a non-empty block */
    int32_t last[2] = { b > 0, b > 0 ? SA[b - 1] : -1 };
    int32_t *lasts = sam_alloc(c, 2 * (size_t)P, sizeof *lasts, "block ends");
    MPI_Allgather(last, 2, MPI_INT32_T, lasts, 2, MPI_INT32_T, c->comm);
    int32_t before = -1;
    for (int q = c->rank - 1; q >= 0 && before < 0; q--)
        if (lasts[2 * q])
            before = lasts[2 * q + 1];
    pc_free(lasts);
    sam_pair *p = sam_alloc(c, b + 1, sizeof *p, "Phi pairs");
    for (size_t k = 0; k < b; k++)
        p[k] = (sam_pair){ (uint32_t)SA[k], k ? (uint32_t)SA[k - 1]
                                              : before >= 0 ? (uint32_t)before : SAM_NONE };
    size_t nr;
    sam_pair *got = sam_route(c, p, b, &nr);
    pc_free(p);
    uint32_t *phi = sam_alloc(c, b + 1, sizeof *phi, "Phi");
    for (size_t j = 0; j < nr; j++)
        phi[got[j].idx - c->lo] = got[j].val;
    pc_free(got);
    uint32_t *plcp = sam_alloc(c, b + 1, sizeof *plcp, "PLCP");
    int T_ = b < 65536 ? 1 : c->threads;
    (void)T_; /* read only by the OpenMP pragma */
#pragma omp parallel num_threads(T_)
    {
        int t = omp_get_thread_num(), nt = omp_get_num_threads();
        plcp_chunk(T, c->n, c->lo, phi, b * (size_t)t / (size_t)nt,
                   b * (size_t)(t + 1) / (size_t)nt, plcp);
    }
    pc_free(phi);
    p = sam_alloc(c, b + 1, sizeof *p, "PLCP pairs");
    for (size_t k = 0; k < b; k++)
        p[k] = (sam_pair){ R[k], plcp[k] };
    pc_free(plcp);
    got = sam_route(c, p, b, &nr);
    pc_free(p);
    int32_t *LCP = sam_alloc(c, b + 1, sizeof *LCP, "the LCP block");
    for (size_t j = 0; j < nr; j++)
        LCP[got[j].idx - c->lo] = (int32_t)got[j].val;
    pc_free(got);
    /* the longest repeat: the first index in suffix order with max LCP
     * (MAXLOC keeps the lowest index on ties) */
    struct { int32_t v, i; } loc = { -1, INT32_MAX }, glob;
    for (size_t k = 0; k < b; k++)
        if (LCP[k] > loc.v) {
            loc.v = LCP[k];
            loc.i = (int32_t)(c->lo + (int64_t)k);
        }
    MPI_Allreduce(&loc, &glob, 1, MPI_2INT, MPI_MAXLOC, c->comm);
    int32_t lrs[2] = { -1, -1 }, all[2];
    if (glob.v > 0 && glob.i >= c->lo && glob.i < c->hi) {
        size_t k = (size_t)(glob.i - c->lo);
        lrs[0] = k ? SA[k - 1] : before;
        lrs[1] = SA[k];
    }
    MPI_Allreduce(lrs, all, 2, MPI_INT32_T, MPI_MAX, c->comm);
    *len = glob.v > 0 ? glob.v : 0;
    *pos = glob.v > 0 ? all[0] : -1;
    *pos2 = glob.v > 0 ? all[1] : -1;
    return LCP;
}
