/* sam_build.c - distributed prefix doubling on global ranks.
 *
 * Invariant after each round: for every position i of this rank's block,
 * R[i] = the number of suffixes whose first h bytes sort strictly below
 * those of suffix i (the head of its bucket in the suffix array), with
 * SAM_DONE set once its bucket is a singleton (then R[i] = ISA[i]). Only
 * unfinished positions take part in later rounds; they need R[i + h] from
 * whichever rank owns i + h (sam_fetch), are sorted by (R[i], R[i + h])
 * with the sample sort, and re-ranked from global prefix positions
 * (MPI_Exscan). Round 0 sorts the first K bytes, each as its code in the
 * alphabet of the whole text (1..sigma, 0 past the end, so that shorter
 * suffixes come first) packed in b = bits(sigma) bits, K = 63 / b (7 for
 * all 256 byte values, 9 for English text, 63 for one letter). Later keys
 * are R[i] (n + 1) + R[i + h] + 1 (0 past the end): order-preserving and
 * below 2^62, so the radix sort sees only the bits the values span. */
#include <stdio.h>
#include <string.h>

#include "pc_alloc.h"
#include "pc_time.h"
#include "sam.h"


/* Neighbour keys of a rank's sorted slice, for the comparisons that
 * cross rank boundaries. */
typedef struct sam_edge {
    uint32_t has, fhi, flo, lhi, llo;
} sam_edge;

/* The bucket a key's record was in before this round: R[i]. */
static uint32_t group_of(uint64_t key, int round0, uint64_t n1)
{
    return round0 ? 0 : (uint32_t)(key / n1);
}

/* Re-ranks the sorted slice s[0..m): writes (position, new rank | DONE
 * for singleton buckets) into out[0..m); returns how many stay active. */
static size_t rerank(const sam_ctx *c, const sam_tup *s, size_t m, int round0, sam_pair *out)
{
    int P = c->np;
    uint64_t n1 = (uint64_t)c->n + 1;
    sam_edge me = { m > 0, 0, 0, 0, 0 };
    if (m) {
        me = (sam_edge){ 1, s[0].hi, s[0].lo, s[m - 1].hi, s[m - 1].lo };
    }
    sam_edge *all = sam_alloc(c, (size_t)P, sizeof *all, "slice edges");
    MPI_Allgather(&me, 5, MPI_UINT32_T, all, 5, MPI_UINT32_T, c->comm);
    int has_prev = 0, has_next = 0;
    uint64_t prev = 0, next = 0;
    for (int q = c->rank - 1; q >= 0 && !has_prev; q--)
        if (all[q].has) {
            has_prev = 1;
            prev = (uint64_t)all[q].lhi << 32 | all[q].llo;
        }
    for (int q = c->rank + 1; q < P && !has_next; q++)
        if (all[q].has) {
            has_next = 1;
            next = (uint64_t)all[q].fhi << 32 | all[q].flo;
        }
    pc_free(all);
    uint64_t mm = m, off = 0;
    MPI_Exscan(&mm, &off, 1, MPI_UINT64_T, MPI_SUM, c->comm);
    if (c->rank == 0)
        off = 0;
    /* the last bucket and group heads of each thread's chunk, of this
     * slice, then of the slices before it (heads are global indices, so
     * MAX finds the latest); a group changes only where the key does */
    int T = m < SAM_PAR_MIN ? 1 : c->threads;
    int64_t *th = sam_alloc(c, 2 * (size_t)T + 2, sizeof *th, "chunk heads");
#pragma omp parallel for num_threads(T) schedule(static, 1)
    for (int t = 0; t < T; t++) {
        size_t b = m * (size_t)t / (size_t)T, e = m * (size_t)(t + 1) / (size_t)T;
        int64_t hs = -1, hg = -1;
        for (size_t j = b; j < e; j++) {
            uint64_t k = sam_key(&s[j]), pk = j ? sam_key(&s[j - 1]) : prev;
            if ((j == 0 && !has_prev) || k != pk) {
                hs = (int64_t)(off + j);
                if ((j == 0 && !has_prev) || group_of(k, round0, n1) != group_of(pk, round0, n1))
                    hg = (int64_t)(off + j);
            }
        }
        th[2 * t] = hs;
        th[2 * t + 1] = hg;
    }
    int64_t head[2] = { -1, -1 }, carry[2] = { -1, -1 };
    for (int t = 0; t < T; t++)
        for (int u = 0; u < 2; u++)
            if (th[2 * t + u] > head[u])
                head[u] = th[2 * t + u];
    MPI_Exscan(head, carry, 2, MPI_INT64_T, MPI_MAX, c->comm);
    if (c->rank == 0)
        carry[0] = carry[1] = -1;
    for (int t = 0; t < T; t++) /* th becomes each chunk's carry in */
        for (int u = 0; u < 2; u++) {
            int64_t x = th[2 * t + u];
            th[2 * t + u] = carry[u];
            if (x > carry[u])
                carry[u] = x;
        }
    size_t active = 0;
#pragma omp parallel for num_threads(T) schedule(static, 1) reduction(+ : active)
    for (int t = 0; t < T; t++) {
        size_t b = m * (size_t)t / (size_t)T, e = m * (size_t)(t + 1) / (size_t)T;
        int64_t sub = th[2 * t], grp = th[2 * t + 1];
        for (size_t j = b; j < e; j++) {
            uint64_t k = sam_key(&s[j]), pk = j ? sam_key(&s[j - 1]) : prev;
            int new_sub = (j == 0 && !has_prev) || k != pk;
            uint32_t g = group_of(k, round0, n1);
            if (new_sub) {
                sub = (int64_t)(off + j);
                if ((j == 0 && !has_prev) || g != group_of(pk, round0, n1))
                    grp = (int64_t)(off + j);
            }
            int end_sub = j + 1 < m ? sam_key(&s[j + 1]) != k : !has_next || next != k;
            int single = new_sub && end_sub;
            out[j] = (sam_pair){ s[j].idx, (g + (uint32_t)(sub - grp)) | (single ? SAM_DONE : 0u) };
            active += !single;
        }
    }
    pc_free(th);
    return active;
}

int32_t *sam_build(const sam_ctx *c, uint8_t *text, uint32_t **Rout, sam_stats *st)
{
    int64_t n = c->n, lo = c->lo;
    size_t b = (size_t)(c->hi - c->lo);
    uint32_t *R = sam_alloc(c, b + 1, sizeof *R, "the rank array");
    uint32_t *act = sam_alloc(c, b + 1, sizeof *act, "the active list");
    size_t nact = b;
    uint32_t code[256]; /* the alphabet of the whole text, coded 1..sigma */
    int bits = sam_alphabet(c, text, b, code);
    int K = sam_round0_len(bits);
    sam_tup *a = sam_alloc(c, b + 1, sizeof *a, "the sort records");
#pragma omp parallel for num_threads(c->threads) schedule(static)
    for (size_t k = 0; k < b; k++) {
        uint64_t key = 0;
        int64_t g = lo + (int64_t)k;
        for (int t = 0; t < K; t++)
            key = key << bits | (g + t < n ? code[text[k + (size_t)t]] : 0);
        a[k] = (sam_tup){ (uint32_t)(key >> 32), (uint32_t)key, (uint32_t)g };
        act[k] = (uint32_t)k;
    }
    pc_free(text); /* the keys hold all it had to say */
    int64_t h = K;
    int round0 = 1;
    st->rounds = 0;
    st->sort_s = 0;
    for (;;) {
        size_t m;
        double t0 = pc_time_now();
        sam_tup *s = sam_sort(c, a, nact, &m);
        double t1 = pc_time_now();
        st->sort_s += t1 - t0;
        st->rounds++;
        sam_pair *up = sam_alloc(c, m + 1, sizeof *up, "the new ranks");
        rerank(c, s, m, round0, up);
        pc_free(s);
        sam_route_store(c, up, m, R, SIZE_MAX, "new ranks");
        size_t w = 0;
        for (size_t k = 0; k < nact; k++)
            if (!(R[act[k]] & SAM_DONE))
                act[w++] = act[k];
        nact = w;
        uint64_t mine = nact, left = 0;
        MPI_Allreduce(&mine, &left, 1, MPI_UINT64_T, MPI_SUM, c->comm);
        if (c->verbose && c->rank == 0)
            fprintf(stderr, "sa-mpi: round %d h=%lld sorted %zu here in %.3f s, rerank+route %.3f s, "
                    "%llu active left\n", st->rounds, (long long)h, m, t1 - t0,
                    pc_time_now() - t1, (unsigned long long)left);
        if (left == 0)
            break;
        /* the rank h positions on, from whichever rank holds it */
        uint32_t *want = sam_alloc(c, nact + 1, sizeof *want, "rank requests");
        size_t nw = 0;
        for (size_t k = 0; k < nact; k++)
            if (lo + (int64_t)act[k] + h < n)
                want[nw++] = (uint32_t)(lo + (int64_t)act[k] + h);
        uint32_t *val = sam_alloc(c, nw + 1, sizeof *val, "fetched ranks");
        sam_fetch(c, want, nw, R, val);
        pc_free(want);
        a = sam_alloc(c, nact + 1, sizeof *a, "the sort records");
        size_t j = 0;
        for (size_t k = 0; k < nact; k++) {
            int64_t g = lo + (int64_t)act[k];
            uint64_t r2 = g + h < n ? (uint64_t)(val[j++] & ~SAM_DONE) + 1 : 0;
            uint64_t key = (uint64_t)R[act[k]] * ((uint64_t)n + 1) + r2;
            a[k] = (sam_tup){ (uint32_t)(key >> 32), (uint32_t)key, (uint32_t)g };
        }
        pc_free(val);
        h *= 2;
        round0 = 0;
    }
    pc_free(act);
    /* SA[ISA[i]] = i on the owner of position ISA[i] of the suffix array */
    for (size_t k = 0; k < b; k++)
        R[k] &= ~SAM_DONE;
    int32_t *SA = (int32_t *)sam_invert(c, R, "the suffix array block");
    *Rout = R;
    return SA;
}
