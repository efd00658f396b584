/* sam_build.c - distributed prefix doubling on global ranks.
 *
 * Invariant after each round: for every position i of this rank's block,
 * R[i] = the number of suffixes whose first h bytes sort strictly below
 * those of suffix i (the head of its bucket in the suffix array), with
 * SAM_DONE set once its bucket is a singleton (then R[i] = ISA[i]). Only
 * unfinished positions take part in later rounds; they need R[i + h] from
 * whichever rank owns i + h (sam_fetch), are sorted by (R[i], R[i + h])
 * with the sample sort, and re-ranked from global prefix positions
 * (MPI_Exscan). Round 0 sorts the first SAM_K bytes packed 9 bits each
 * (byte + 1, 0 past the end, so shorter suffixes come first). */
#include <string.h>

#include "pc_alloc.h"
#include "pc_time.h"
#include "sam.h"

#define SAM_K 7

/* Neighbour keys of a rank's sorted slice, for the comparisons that
 * cross rank boundaries. */
typedef struct sam_edge {
    uint32_t has, fhi, flo, lhi, llo;
} sam_edge;

static uint32_t group_of(uint64_t key, int round0)
{
    return round0 ? 0 : (uint32_t)(key >> 32);
}

/* Re-ranks the sorted slice s[0..m): writes (position, new rank | DONE
 * for singleton buckets) into out[0..m); returns how many stay active. */
static size_t rerank(const sam_ctx *c, const sam_tup *s, size_t m, int round0, sam_pair *out)
{
    int P = c->np;
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
    /* the last bucket and group heads of this slice, then of the slices
     * before it (heads are global indices, so MAX finds the latest) */
    int64_t head[2] = { -1, -1 }, carry[2] = { -1, -1 };
    for (size_t j = 0; j < m; j++) {
        uint64_t k = sam_key(&s[j]), pk = j ? sam_key(&s[j - 1]) : prev;
        int first = j == 0 && !has_prev;
        if (first || k != pk)
            head[0] = (int64_t)(off + j);
        if (first || group_of(k, round0) != group_of(pk, round0))
            head[1] = (int64_t)(off + j);
    }
    MPI_Exscan(head, carry, 2, MPI_INT64_T, MPI_MAX, c->comm);
    if (c->rank == 0)
        carry[0] = carry[1] = -1;
    int64_t sub = carry[0], grp = carry[1];
    size_t active = 0;
    for (size_t j = 0; j < m; j++) {
        uint64_t k = sam_key(&s[j]), pk = j ? sam_key(&s[j - 1]) : prev;
        int first = j == 0 && !has_prev;
        int new_sub = first || k != pk;
        if (new_sub)
            sub = (int64_t)(off + j);
        if (first || group_of(k, round0) != group_of(pk, round0))
            grp = (int64_t)(off + j);
        int end_sub = j + 1 < m ? sam_key(&s[j + 1]) != k : !has_next || next != k;
        uint32_t rank = group_of(k, round0) + (uint32_t)(sub - grp);
        int single = new_sub && end_sub;
        out[j] = (sam_pair){ s[j].idx, rank | (single ? SAM_DONE : 0u) };
        active += !single;
    }
    return active;
}

int32_t *sam_build(const sam_ctx *c, const uint8_t *text, uint32_t **Rout, sam_stats *st)
{
    int64_t n = c->n, lo = c->lo;
    size_t b = (size_t)(c->hi - c->lo);
    uint32_t *R = sam_alloc(c, b + 1, sizeof *R, "the rank array");
    uint32_t *act = sam_alloc(c, b + 1, sizeof *act, "the active list");
    size_t nact = b;
    sam_tup *a = sam_alloc(c, b + 1, sizeof *a, "the sort records");
#pragma omp parallel for num_threads(c->threads) schedule(static)
    for (size_t k = 0; k < b; k++) {
        uint64_t key = 0;
        int64_t g = lo + (int64_t)k;
        for (int t = 0; t < SAM_K; t++)
            key = key << 9 | (g + t < n ? (uint64_t)text[k + (size_t)t] + 1 : 0);
        a[k] = (sam_tup){ (uint32_t)(key >> 32), (uint32_t)key, (uint32_t)g };
        act[k] = (uint32_t)k;
    }
    int64_t h = SAM_K;
    int round0 = 1;
    st->rounds = 0;
    st->sort_s = 0;
    for (;;) {
        size_t m;
        double t0 = pc_time_now();
        sam_tup *s = sam_sort(c, a, nact, &m);
        st->sort_s += pc_time_now() - t0;
        st->rounds++;
        sam_pair *up = sam_alloc(c, m + 1, sizeof *up, "the new ranks");
        rerank(c, s, m, round0, up);
        pc_free(s);
        size_t nr;
        sam_pair *got = sam_route(c, up, m, &nr);
        pc_free(up);
        for (size_t j = 0; j < nr; j++)
            R[got[j].idx - lo] = got[j].val;
        pc_free(got);
        size_t w = 0;
        for (size_t k = 0; k < nact; k++)
            if (!(R[act[k]] & SAM_DONE))
                act[w++] = act[k];
        nact = w;
        uint64_t mine = nact, left = 0;
        MPI_Allreduce(&mine, &left, 1, MPI_UINT64_T, MPI_SUM, c->comm);
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
            uint32_t r2 = g + h < n ? (val[j++] & ~SAM_DONE) + 1 : 0;
            a[k] = (sam_tup){ R[act[k]], r2, (uint32_t)g };
        }
        pc_free(val);
        h *= 2;
        round0 = 0;
    }
    pc_free(act);
    /* SA[ISA[i]] = i on the owner of position ISA[i] of the suffix array */
    sam_pair *p = sam_alloc(c, b + 1, sizeof *p, "the inverse pairs");
    for (size_t k = 0; k < b; k++) {
        R[k] &= ~SAM_DONE;
        p[k] = (sam_pair){ R[k], (uint32_t)(lo + (int64_t)k) };
    }
    size_t nr;
    sam_pair *got = sam_route(c, p, b, &nr);
    pc_free(p);
    if (nr != b)
        sam_die(c, "internal error: %zu suffix-array entries for a block of %zu", nr, b);
    int32_t *SA = sam_alloc(c, b + 1, sizeof *SA, "the suffix array block");
    for (size_t j = 0; j < nr; j++)
        SA[got[j].idx - lo] = (int32_t)got[j].val;
    pc_free(got);
    *Rout = R;
    return SA;
}
