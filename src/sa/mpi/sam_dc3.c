/* sam_dc3.c - distributed DC3 (skew algorithm of Kaerkkaeinen and Sanders,
 * distributed as in Kulla and Sanders' pDC3): work linear in n per level
 * whatever the length of repeats, levels shrinking by 2/3.
 *
 * One level, on a string s[0..n) of symbols >= 1 (0 stands for past the
 * end, so a shorter suffix sorts first) in block distribution:
 *  1. every sample position i (i mod 3 != 0, plus the dummy n when
 *     n mod 3 = 1, which ends the mod-1 part of the reduced string with a
 *     unique name) gets a key of its next K symbols (K = 3 on the reduced
 *     levels; on the text as many as fit 64 bits, 7 to 64: a longer prefix
 *     only refines the names, and fewer names repeat);
 *  2. the keys are sorted by a sample sort and named by their dense rank
 *     (a global prefix sum of "differs from the previous key");
 *  3. if the names are unique they are the ranks of the sample suffixes;
 *     else the reduced string R = names of mod-1 positions, then of mod-2
 *     positions, is sorted recursively (gathered on rank 0 and solved by
 *     SA-IS once it is short) and a sample suffix's rank is 1 + its index
 *     in R's suffix array;
 *  4. every suffix i becomes (s[i], s[i+1], rank[i], rank[i+1], rank[i+2])
 *     and one sample sort in the DC3 order gives SA: two sample suffixes
 *     compare by rank, i mod 3 = 0 against j mod 3 = 1 by (s[i], rank[i+1]),
 *     against j mod 3 = 2 by (s[i], s[i+1], rank[i+2]);
 *  5. SA positions are routed to the block distribution of SA.
 * Ranks of the sample suffixes are >= 1 and 0 stands for past the end, so
 * the comparisons of step 4 need no case for the end of the text.
 *
 * The first level (the text) runs the same steps with the difference
 * cover {0, 1, 3} mod 7 (DC7, dc7_level): 3/7 of the positions recurse
 * instead of 2/3, at the price of a final sort of 24-byte records over
 * seven classes. SAM_DC7=0 in the environment keeps DC3 there. */
#include "pc_omp.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pc_alloc.h"
#include "pc_time.h"
#include "sa.h"
#include "sam.h"
#include "sam_prof.h"

/* What every level shares: the orders of its sorts and the base-case size. */
typedef struct dc3_run {
    sam_order tri, suf, suf16, suf7;
    int64_t base;
    int levels;
} dc3_run;

/* Number of multiples of 3 in [0, x). */
static inline int64_t mult3(int64_t x)
{
    return (x + 2) / 3;
}

/* Fills ext[0..h) with v[x] for x = hi .. hi + h - 1 of the distributed
 * array v (this rank's block vals), 0 past the end. Collective. */
static void fetch_after(const sam_ctx *c, const uint32_t *vals, int h, uint32_t *ext)
{
    uint32_t want[8];
    size_t k = 0;
    for (int t = 0; t < h; t++) {
        ext[t] = 0;
        if (c->hi + t < c->n)
            want[k++] = (uint32_t)(c->hi + t);
    }
    sam_fetch(c, want, k, vals, ext);
}

/* The base case: the whole level gathered on rank 0, its symbols minus the
 * smallest written as big-endian numbers of w bytes (order-preserving, and
 * a suffix starting at a multiple of w compares symbol by symbol, a
 * shorter one first), SA-IS on those bytes, the positions that are
 * multiples of w kept; SA scattered back in blocks. Frees s. */
static int32_t *dc3_base(const sam_ctx *c, uint32_t *s)
{
    int P = c->np;
    int b = (int)(c->hi - c->lo);
    int *cnt = sam_alloc(c, 2 * (size_t)P, sizeof(int), "gather counts");
    for (int q = 0; q < P; q++) {
        cnt[q] = (int)(sam_block_lo(c, q + 1) - sam_block_lo(c, q));
        cnt[P + q] = (int)sam_block_lo(c, q);
    }
    size_t n = (size_t)c->n;
    uint32_t *all = c->rank == 0 ? sam_alloc(c, n + 1, sizeof *all, "the gathered level") : NULL;
    MPI_Gatherv(s, b, MPI_UINT32_T, all, cnt, cnt + P, MPI_UINT32_T, 0, c->comm);
    pc_free(s);
    int32_t *sa = c->rank == 0 ? sam_alloc(c, n + 1, sizeof *sa, "the gathered suffix array")
                               : NULL;
    if (c->rank == 0 && n > 0) {
        uint32_t mn = UINT32_MAX, mx = 0;
        for (size_t i = 0; i < n; i++) {
            mn = all[i] < mn ? all[i] : mn;
            mx = all[i] > mx ? all[i] : mx;
        }
        int w = 1;
        while (w < 4 && (uint64_t)(mx - mn) >> (8 * w))
            w++;
        size_t nb = n * (size_t)w;
        if (nb > SA_MAX_N)
            sam_die(c, "internal error: base level of %zu symbols too large", n);
        uint8_t *e = sam_alloc(c, nb + 1, 1, "the byte form of the base level");
        for (size_t i = 0; i < n; i++)
            for (int t = 0; t < w; t++)
                e[i * (size_t)w + (size_t)t] = (uint8_t)((all[i] - mn) >> (8 * (w - 1 - t)));
        int32_t *esa = sam_alloc(c, nb + 1, sizeof *esa, "the base suffix array");
        pc_error err;
        pc_error_clear(&err);
        if (sa_build_sais(e, (int32_t)nb, esa, c->threads, &err) != PC_OK)
            sam_die(c, "SA-IS on the base level: %s", err.msg);
        size_t k = 0;
        for (size_t j = 0; j < nb; j++)
            if (esa[j] % w == 0)
                sa[k++] = esa[j] / w;
        pc_free(esa);
        pc_free(e);
    }
    pc_free(all);
    int32_t *mine = sam_alloc(c, (size_t)b + 1, sizeof *mine, "the suffix array block");
    MPI_Scatterv(sa, cnt, cnt + P, MPI_INT32_T, mine, b, MPI_INT32_T, 0, c->comm);
    pc_free(sa);
    pc_free(cnt);
    return mine;
}

/* Step 1: the keys of this rank's sample positions (and the dummy on the
 * last rank), s[0 .. b + K - 1) the block and the K - 1 symbols after it,
 * each symbol below 2^bits. Where K symbols fit 64 bits (the text always;
 * a reduced level whose names do) a key is a sam_tup, 12 bytes (*words =
 * 3): the sort moves a quarter less than with a sam_tri of three whole
 * symbols (16 bytes, *words = 4, bits = 32). */
static uint32_t *make_keys(const sam_ctx *c, const uint32_t *s, int K, int bits, size_t *mt,
                           int *words)
{
    int64_t n = c->n, lo = c->lo;
    size_t b = (size_t)(c->hi - lo);
    size_t m = b - (size_t)(mult3(c->hi) - mult3(lo));
    int dummy = n % 3 == 1 && c->rank == c->np - 1;
    int packed = K * bits <= 64, w = packed ? 3 : 4;
    uint32_t *t = sam_alloc(c, (m + 2) * (size_t)w, sizeof *t, "the sample keys");
#pragma omp parallel for num_threads(b < SAM_PAR_MIN ? 1 : c->threads) schedule(static)
    for (size_t k = 0; k < b; k++) {
        int64_t i = lo + (int64_t)k;
        if (i % 3 == 0)
            continue;
        size_t j = k - (size_t)(mult3(i) - mult3(lo));
        const uint32_t *p = s + k;
        uint32_t *r = t + j * (size_t)w;
        if (!packed) {
            r[0] = p[0], r[1] = p[1], r[2] = p[2], r[3] = (uint32_t)i;
            continue;
        }
        uint64_t l = 0;
        for (int q = 0; q < K; q++)
            l = l << bits | p[q];
        r[0] = (uint32_t)(l >> 32), r[1] = (uint32_t)l, r[2] = (uint32_t)i;
    }
    if (dummy) { /* the all-zero key */
        memset(t + m * (size_t)w, 0, sizeof *t * (size_t)w);
        t[m * (size_t)w + (size_t)w - 1] = (uint32_t)n;
        m++;
    }
    *mt = m;
    *words = w;
    return t;
}

/* Whether the keys of kw words at a and b are equal: kw is 2 or 3 on
 * every level (a memcmp call a record was a few percent of the run). */
static inline int same_key(const uint32_t *a, const uint32_t *b, int kw)
{
    if (kw == 2)
        return a[0] == b[0] && a[1] == b[1];
    if (kw == 3)
        return a[0] == b[0] && a[1] == b[1] && a[2] == b[2];
    return memcmp(a, b, sizeof *a * (size_t)kw) == 0;
}

/* Step 2: names (dense ranks from 1) of the sorted slice t[0..m) of
 * records of `words` words (the key, then the position), as pairs
 * (position, name) in out; returns the number of distinct keys of all
 * ranks. */
static uint64_t name_sorted(const sam_ctx *c, const uint32_t *t, size_t m, int words,
                            sam_pair *out)
{
    int P = c->np, kw = words - 1;
    size_t w = (size_t)words;
    uint32_t me[4] = { m > 0, 0, 0, 0 };
    if (m)
        memcpy(me + 1, t + (m - 1) * w, sizeof *t * (size_t)kw);
    uint32_t *all = sam_alloc(c, 4 * (size_t)P, sizeof *all, "slice ends");
    MPI_Allgather(me, 4, MPI_UINT32_T, all, 4, MPI_UINT32_T, c->comm);
    const uint32_t *prev = NULL; /* the key before this slice, on a lower rank */
    for (int q = c->rank - 1; q >= 0 && !prev; q--)
        if (all[4 * q])
            prev = all + 4 * q + 1;
    uint64_t d = 0;
    for (size_t j = 0; j < m; j++) {
        const uint32_t *pk = j ? t + (j - 1) * w : prev, *r = t + j * w;
        d += !pk || !same_key(pk, r, kw);
        out[j] = (sam_pair){ r[kw], (uint32_t)d };
    }
    pc_free(all);
    uint64_t off = 0, tot = 0;
    MPI_Exscan(&d, &off, 1, MPI_UINT64_T, MPI_SUM, c->comm);
    if (c->rank == 0)
        off = 0;
    MPI_Allreduce(&d, &tot, 1, MPI_UINT64_T, MPI_SUM, c->comm);
    for (size_t j = 0; j < m; j++)
        out[j].val += (uint32_t)off;
    return tot;
}

/* Where a reduced level's sorted order goes instead of an SA block: the
 * ranks of the level above (see ranks_by_recursion). */
typedef struct dc3_sink dc3_sink;

static int32_t *dc3_level(const sam_ctx *c, uint32_t *s, int K, int bits, dc3_run *run,
                          const dc3_sink *up);

/* Where the sample positions sit in the reduced string: DC3 (mod 3 in
 * {1, 2}: the mod-1 names, then the mod-2 names) or DC7 (mod 7 in {0, 1,
 * 3}, in that order). off[d] is the index of class d's first name. */
typedef struct red_map {
    int mod;
    int64_t off[7];
    int64_t nr;
} red_map;

/* Sample positions mod 3 in {1, 2} of a text of n, with the dummy n when
 * n mod 3 = 1. */
static red_map red_map3(int64_t n)
{
    red_map r = { 3, { 0 }, 0 };
    int64_t n0 = (n + 2) / 3;
    r.off[1] = 0;
    r.off[2] = n0;
    r.nr = n0 + n / 3;
    return r;
}

/* Sample positions mod 7 in {0, 1, 3} of a text of n. A class whose last
 * key would hold no position past the end (its last position n - 7) gets
 * the dummy n, so that no suffix of the reduced string compares across
 * into the next class; the last class (3) needs none. */
static red_map red_map7(int64_t n)
{
    red_map r = { 7, { 0 }, 0 };
    static const int d[3] = { 0, 1, 3 }; /* red_pos's order, sam_dc7_sample's residues */
    for (int k = 0; k < 3; k++) {
        int64_t size = n > d[k] ? (n - d[k] + 6) / 7 : 0;
        if (d[k] != 3 && n % 7 == d[k])
            size++;
        r.off[d[k]] = r.nr;
        r.nr += size;
    }
    return r;
}

/* Index in the reduced string of sample position i (a dummy too). The
 * modulus is spelled out as a constant: a division by r->mod is one of
 * some 30 cycles for every name of every level. */
static inline uint32_t red_index(const red_map *r, int64_t i)
{
    if (r->mod == 3)
        return (uint32_t)(r->off[i % 3] + i / 3);
    return (uint32_t)(r->off[i % 7] + i / 7);
}

/* Text position of index j of the reduced string. */
static inline int64_t red_pos(const red_map *r, int64_t j)
{
    if (r->mod == 3)
        return j < r->off[2] ? 3 * j + 1 : 3 * (j - r->off[2]) + 2;
    if (j < r->off[1])
        return 7 * j;
    return j < r->off[3] ? 7 * (j - r->off[1]) + 1 : 7 * (j - r->off[3]) + 3;
}

struct dc3_sink {
    const sam_ctx *c; /* the level above */
    const red_map *map; /* where its sample positions sit in this level */
    uint32_t *rk; /* its ranks, zeroed */
};

/* The ranks of the level above from this reduced level's sorted slice
 * pos[0..m) (positions of R, this rank's stretch of R's suffix array):
 * the suffix at index x of that array has rank x + 1, stored at the text
 * position of the level above that the R position stands for (a dummy
 * has none). Collective; frees pos. One routing, without R's suffix
 * array stored in blocks in between. */
static void sink_ranks(const sam_ctx *c, const dc3_sink *up, uint32_t *pos, size_t m)
{
    uint64_t mm = m, off = 0;
    MPI_Exscan(&mm, &off, 1, MPI_UINT64_T, MPI_SUM, c->comm);
    if (c->rank == 0)
        off = 0;
    int64_t n = up->c->n;
    sam_pair *p = sam_alloc(c, m + 1, sizeof *p, "the sample ranks");
    size_t k = 0;
    for (size_t j = 0; j < m; j++) {
        int64_t tp = red_pos(up->map, pos[j]);
        if (tp < n)
            p[k++] = (sam_pair){ (uint32_t)tp, (uint32_t)(off + j + 1) };
    }
    pc_free(pos);
    sam_route_store(up->c, p, k, up->rk, SIZE_MAX, "sample ranks");
}

/* Step 3 on a reduced string: the names routed to their places in R (map
 * gives them), R sorted recursively, and each sample position's rank (1 +
 * index in R's suffix array) routed back into rk[0..b) of this level
 * (zeroed by the caller). Takes ownership of names[0..m); sigma: the
 * number of distinct names, the alphabet of R. */
static void ranks_by_recursion(const sam_ctx *c, const red_map *map, sam_pair *names, size_t m,
                               uint64_t sigma, uint32_t *rk, dc3_run *run)
{
    sam_ctx c2;
    sam_ctx_init(&c2, c->comm, map->nr, c->threads);
    for (size_t j = 0; j < m; j++)
        names[j].idx = red_index(map, names[j].idx);
    size_t b2 = (size_t)(c2.hi - c2.lo);
    uint32_t *s2 = sam_alloc(&c2, b2 + 3, sizeof *s2, "the reduced string");
    sam_route_store(&c2, names, m, s2, b2, "the reduced string");
    fetch_after(&c2, s2, 2, s2 + b2);
    s2[b2 + 2] = 0;
    int bits = 1; /* the names are 1..sigma */
    while (bits < 32 && sigma >> bits)
        bits++;
    dc3_sink up = { c, map, rk };
    /* frees s2; a level that sorts stores the ranks itself (NULL), the
     * base case returns R's suffix array in blocks: a block is a slice of
     * the order too (the ranks below hold the lower blocks) */
    int32_t *sa2 = dc3_level(&c2, s2, 3, 3 * bits <= 64 ? bits : 32, run, &up);
    if (sa2)
        sink_ranks(&c2, &up, (uint32_t *)sa2, b2);
    sam_ctx_free(&c2);
}

/* Steps 2 and 3 for the sorted sample keys t[0..ms) (records of `words`
 * words, freed here): the rank of every sample position of this level in
 * rk[0..b) (0 elsewhere; rk holds b + 2 entries at least, zeroed here up
 * to b + extra). Returns the number of distinct keys. */
static uint64_t sample_ranks(const sam_ctx *c, const red_map *map, uint32_t *t, size_t ms,
                             int words, uint32_t *rk, size_t extra, dc3_run *run)
{
    int64_t n = c->n;
    size_t b = (size_t)(c->hi - c->lo);
    double tp = sam_prof_mark();
    sam_pair *names = sam_alloc(c, ms + 1, sizeof *names, "the names");
    uint64_t distinct = name_sorted(c, t, ms, words, names);
    pc_free(t);
    sam_prof_add(SAM_PH_NAMES, &tp);
    memset(rk, 0, sizeof *rk * (b + extra));
    if (distinct == (uint64_t)map->nr) { /* unique names are the ranks */
        size_t k = 0;
        for (size_t j = 0; j < ms; j++)
            if ((int64_t)names[j].idx < n)
                names[k++] = names[j];
        sam_route_store(c, names, k, rk, SIZE_MAX, "sample ranks");
    } else {
        ranks_by_recursion(c, map, names, ms, distinct, rk, run);
    }
    return distinct;
}

/* Steps 4-5 after the records f (one per position of the block) are
 * built: sorted in o's order, the slices in rank order stored as this
 * rank's SA block (returned), or, on a reduced level (up not NULL), as
 * the ranks of the level above (NULL returned). Under verbose rank 0
 * prints the level's line (cover: "dc3" or "dc7"; t0 the level's start,
 * t1 the end of its sample ranks). */
static int32_t *final_sort(const sam_ctx *c, const sam_order *o, void *f, const dc3_sink *up,
                           const char *cover, int level, uint64_t distinct, int64_t nr,
                           double t0, double t1)
{
    size_t b = (size_t)(c->hi - c->lo), ms;
    uint32_t *pos = sam_sort_by(c, o, f, b, &ms);
    uint32_t *SA = NULL;
    if (up) {
        sink_ranks(c, up, pos, ms);
    } else {
        SA = sam_alloc(c, b + 1, sizeof *SA, "the suffix array block");
        sam_store_run(c, pos, ms, SA, "the suffix array");
        pc_free(pos);
    }
    if (c->verbose && c->rank == 0)
        fprintf(stderr, "sa-mpi %s: level %d n=%lld: %llu distinct names of %lld; keys, "
                "names and deeper levels %.3f s, final sort %.3f s\n", cover, level,
                (long long)c->n, (unsigned long long)distinct, (long long)nr, t1 - t0,
                pc_time_now() - t1);
    return (int32_t *)SA;
}

/* One level (see the top of the file). s[0 .. b + K - 1): the block and
 * the K - 1 symbols after it (0 past the end), freed here. Returns the
 * level's SA block; on a reduced level (up not NULL) that sorts, NULL
 * once the ranks of the level above are stored (the base case returns
 * its SA block all the same). */
static int32_t *dc3_level(const sam_ctx *c, uint32_t *s, int K, int bits, dc3_run *run,
                          const dc3_sink *up)
{
    if (c->n <= run->base) {
        double t = sam_prof_mark();
        int32_t *r = dc3_base(c, s);
        sam_prof_add(SAM_PH_BASE, &t);
        return r;
    }
    int level = run->levels++;
    double t0 = pc_time_now();
    int64_t n = c->n, lo = c->lo;
    size_t b = (size_t)(c->hi - lo);
    size_t mt, ms;
    int words;
    double tp = sam_prof_mark();
    uint32_t *t = make_keys(c, s, K, bits, &mt, &words);
    sam_prof_add(SAM_PH_KEYS, &tp);
    t = words == 3 ? (uint32_t *)sam_sort(c, (sam_tup *)t, mt, &ms)
                   : sam_sort_by(c, &run->tri, t, mt, &ms);
    uint32_t *rk = sam_alloc(c, b + 2, sizeof *rk, "the sample ranks");
    red_map map = red_map3(n);
    uint64_t distinct = sample_ranks(c, &map, t, ms, words, rk, 2, run);
    double t1 = pc_time_now();
    fetch_after(c, rk, 2, rk + b);
    /* step 4: symbols below 2^16 (the text, levels of few names) share a
     * word, 16 bytes a record instead of 20 */
    tp = sam_prof_mark();
    int narrow = bits <= 16;
    void *f = sam_alloc(c, b + 1, narrow ? sizeof(sam_suf16) : sizeof(sam_suf), "the suffixes");
#pragma omp parallel for num_threads(b < SAM_PAR_MIN ? 1 : c->threads) schedule(static)
    for (size_t k = 0; k < b; k++) {
        int64_t i = lo + (int64_t)k;
        int cl = (int)(i % 3);
        uint32_t ra = cl ? rk[k] : rk[k + 1], rb = cl == 1 ? rk[k + 1] : rk[k + 2];
        if (narrow)
            ((sam_suf16 *)f)[k] = (sam_suf16){ s[k] << 16 | s[k + 1], ra, rb, (uint32_t)i };
        else
            ((sam_suf *)f)[k] = (sam_suf){ s[k], s[k + 1], ra, rb, (uint32_t)i };
    }
    pc_free(rk);
    pc_free(s);
    sam_prof_add(SAM_PH_KEYS, &tp);
    return final_sort(c, narrow ? &run->suf16 : &run->suf, f, up, "dc3", level, distinct,
                      map.nr, t0, t1);
}

/* The first level by DC7 (difference cover {0, 1, 3} mod 7): 3/7 of the
 * positions recurse instead of 2/3, so the deeper levels, which DC3 runs
 * on 2n/3 symbols, start from 3n/7; the final sort compares up to six
 * symbols and a rank (sam_suf7_cmp). For the text only: its keys of K >= 7
 * symbols fit 64 bits (K = 64 / bits, bits <= 9). s, K, bits, run as for
 * dc3_level. */
static int32_t *dc7_level(const sam_ctx *c, uint32_t *s, int K, int bits, dc3_run *run)
{
    /* before[x]: the sample residues below x; off[c]: the offsets t of
     * [0, 7) with c + t mod 7 in the sample, ascending (three of them) */
    int before[8] = { 0 };
    uint8_t off[7][3];
    for (int x = 0; x < 7; x++)
        before[x + 1] = before[x] + sam_dc7_sample(x);
    for (int r = 0; r < 7; r++)
        for (int t = 0, k = 0; t < 7; t++)
            if (sam_dc7_sample((r + t) % 7))
                off[r][k++] = (uint8_t)t;
    int level = run->levels++;
    double t0 = pc_time_now();
    int64_t n = c->n, lo = c->lo;
    size_t b = (size_t)(c->hi - lo);
    red_map map = red_map7(n);
    /* step 1: the keys of the sample positions (before[x]: the sample
     * positions among residues [0, x)), the dummy on the last rank */
#define DC7_COUNT(x) (3 * ((x) / 7) + before[(x) % 7])
    size_t m = (size_t)(DC7_COUNT(c->hi) - DC7_COUNT(lo));
    int dummy = (n % 7 == 0 || n % 7 == 1) && c->rank == c->np - 1;
    double tp = sam_prof_mark();
    sam_tup *t = sam_alloc(c, m + 2, sizeof *t, "the sample keys");
#pragma omp parallel for num_threads(b < SAM_PAR_MIN ? 1 : c->threads) schedule(static)
    for (size_t k = 0; k < b; k++) {
        int64_t i = lo + (int64_t)k;
        if (!sam_dc7_sample(i % 7))
            continue;
        uint64_t l = 0;
        for (int q = 0; q < K; q++)
            l = l << bits | s[k + (size_t)q];
        size_t j = (size_t)(DC7_COUNT(i) - DC7_COUNT(lo));
        t[j] = (sam_tup){ (uint32_t)(l >> 32), (uint32_t)l, (uint32_t)i };
    }
#undef DC7_COUNT
    if (dummy)
        t[m++] = (sam_tup){ 0, 0, (uint32_t)n };
    sam_prof_add(SAM_PH_KEYS, &tp);
    size_t ms;
    t = sam_sort(c, t, m, &ms);
    uint32_t *rk = sam_alloc(c, b + 7, sizeof *rk, "the sample ranks");
    uint64_t distinct = sample_ranks(c, &map, (uint32_t *)t, ms, 3, rk, 7, run);
    double t1 = pc_time_now();
    fetch_after(c, rk, 6, rk + b);
    /* step 4: every suffix with its six symbols and the ranks of the
     * three sample positions of its window */
    tp = sam_prof_mark();
    sam_suf7 *f = sam_alloc(c, b + 1, sizeof *f, "the suffixes");
#pragma omp parallel for num_threads(b < SAM_PAR_MIN ? 1 : c->threads) schedule(static)
    for (size_t k = 0; k < b; k++) {
        int64_t i = lo + (int64_t)k;
        uint64_t sy = 0;
        for (int q = 0; q < 6; q++)
            sy = sy << bits | s[k + (size_t)q];
        sy = sy << (64 - 6 * bits) | (uint64_t)(i % 7); /* 6 bits <= 54: the low 10 are free */
        const uint8_t *o = off[i % 7];
        f[k] = (sam_suf7){ (uint32_t)(sy >> 32), (uint32_t)sy,
                           { rk[k + o[0]], rk[k + o[1]], rk[k + o[2]] }, (uint32_t)i };
    }
    pc_free(rk);
    pc_free(s);
    sam_prof_add(SAM_PH_KEYS, &tp);
    sam_suf7_setup(bits);
    return final_sort(c, &run->suf7, f, NULL, "dc7", level, distinct, map.nr, t0, t1);
}

int32_t *sam_dc3_build(const sam_ctx *c, uint8_t *text, int *levels)
{
    int64_t n = c->n, lo = c->lo;
    size_t b = (size_t)(c->hi - lo);
    size_t wlen = (size_t)((c->hi + SAM_WINDOW_AHEAD < n ? c->hi + SAM_WINDOW_AHEAD : n) - lo);
    uint32_t code[256]; /* the alphabet of the whole text, coded 1..sigma */
    int bits = sam_alphabet(c, text, b, code);
    /* a key of 64 bits: one radix word less than 96 (k0 = 0 is skipped);
     * measured on 8 MB of text at np = 1, 64 bits beat 96, as the deeper
     * names repeat little more */
    int K = 64 / bits;
    if (K > SAM_WINDOW_AHEAD + 1)
        K = SAM_WINDOW_AHEAD + 1;
    uint32_t *s = sam_alloc(c, b + (size_t)K, sizeof *s, "the coded text");
#pragma omp parallel for num_threads(b < SAM_PAR_MIN ? 1 : c->threads) schedule(static)
    for (size_t k = 0; k < b + (size_t)K; k++)
        s[k] = k < wlen ? code[text[k]] : 0;
    pc_free(text);
    dc3_run run;
    memset(&run, 0, sizeof run);
    const char *env = getenv("SAM_DC3_BASE");
    /* rank 0 solves the base alone while the others wait: at P ranks it
     * gets 1/P of the default, so that its share stays that of one rank */
    run.base = env && *env ? atoll(env) : SAM_DC3_BASE_DEFAULT / c->np;
    if (!(env && *env) && run.base < SAM_DC3_BASE_MIN)
        run.base = SAM_DC3_BASE_MIN;
    if (run.base > ((int64_t)1 << 28)) /* 4 bytes a symbol must stay below 2^31 */
        run.base = (int64_t)1 << 28;
    /* the suffixes come apart by class: 0 and the sample for DC3; for
     * DC7 the classes 2, 4, 5, 6 and the sample */
    run.tri = (sam_order){ 4, MPI_DATATYPE_NULL, sam_tri_cmp, sam_tri_buckets, sam_tri_local_sort,
                           1 };
    run.suf = (sam_order){ 5, MPI_DATATYPE_NULL, sam_suf_cmp, sam_suf_buckets, sam_suf_local_sort,
                           2 };
    run.suf16 = (sam_order){ 4, MPI_DATATYPE_NULL, sam_suf16_cmp, sam_suf16_buckets,
                             sam_suf16_local_sort, 2 };
    run.suf7 = (sam_order){ 6, MPI_DATATYPE_NULL, sam_suf7_cmp, sam_suf7_buckets,
                            sam_suf7_local_sort, 5 };
    MPI_Type_contiguous(4, MPI_UINT32_T, &run.tri.type);
    MPI_Type_commit(&run.tri.type);
    MPI_Type_contiguous(5, MPI_UINT32_T, &run.suf.type);
    MPI_Type_commit(&run.suf.type);
    MPI_Type_contiguous(4, MPI_UINT32_T, &run.suf16.type);
    MPI_Type_commit(&run.suf16.type);
    MPI_Type_contiguous(6, MPI_UINT32_T, &run.suf7.type);
    MPI_Type_commit(&run.suf7.type);
    const char *first = getenv("SAM_DC7");
    int32_t *SA = n > run.base && K >= 7 && !(first && !strcmp(first, "0"))
                      ? dc7_level(c, s, K, bits, &run)
                      : dc3_level(c, s, K, bits, &run, NULL);
    MPI_Type_free(&run.tri.type);
    MPI_Type_free(&run.suf.type);
    MPI_Type_free(&run.suf16.type);
    MPI_Type_free(&run.suf7.type);
    *levels = run.levels;
    return SA;
}

uint32_t *sam_invert(const sam_ctx *c, const uint32_t *v, const char *what)
{
    size_t b = (size_t)(c->hi - c->lo);
    sam_pair *p = sam_alloc(c, b + 1, sizeof *p, "the inverse pairs");
    for (size_t k = 0; k < b; k++)
        p[k] = (sam_pair){ v[k], (uint32_t)(c->lo + (int64_t)k) };
    uint32_t *inv = sam_alloc(c, b + 1, sizeof *inv, what);
    sam_route_store(c, p, b, inv, b, what);
    return inv;
}
