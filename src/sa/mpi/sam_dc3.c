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
 * the comparisons of step 4 need no case for the end of the text. */
#include "pc_omp.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pc_alloc.h"
#include "pc_time.h"
#include "sa.h"
#include "sam.h"
#include "sam_prof.h"

/* What every level shares: the two orders and the base-case size. */
typedef struct dc3_run {
    sam_order tri, suf, suf16;
    int64_t base;
    int levels;
} dc3_run;

/* Number of multiples of 3 in [0, x). */
static inline int64_t mult3(int64_t x)
{
    return (x + 2) / 3;
}

/* Index in the reduced string of sample position i (the dummy n too). */
static inline uint32_t red_index(int64_t i, int64_t n0)
{
    return (uint32_t)(i % 3 == 1 ? (i - 1) / 3 : n0 + (i - 2) / 3);
}

/* Text position of index j of the reduced string. */
static inline int64_t red_pos(int64_t j, int64_t n0)
{
    return j < n0 ? 3 * j + 1 : 3 * (j - n0) + 2;
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
        d += !pk || memcmp(pk, r, sizeof *t * (size_t)kw) != 0;
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

static int32_t *dc3_level(const sam_ctx *c, uint32_t *s, int K, int bits, dc3_run *run);

/* Step 3 on a reduced string: the names routed to their places in R (a
 * level of n0 + n2 symbols), R sorted recursively, and each sample
 * position's rank (1 + index in R's suffix array) routed back into
 * rk[0..b) of this level. Takes ownership of names[0..m); sigma: the
 * number of distinct names, the alphabet of R. */
static void ranks_by_recursion(const sam_ctx *c, sam_pair *names, size_t m, uint64_t sigma,
                               uint32_t *rk, dc3_run *run)
{
    int64_t n = c->n, n0 = (n + 2) / 3, nr = n0 + n / 3;
    sam_ctx c2;
    sam_ctx_init(&c2, c->comm, nr, c->threads);
    for (size_t j = 0; j < m; j++)
        names[j].idx = red_index(names[j].idx, n0);
    size_t b2 = (size_t)(c2.hi - c2.lo);
    uint32_t *s2 = sam_alloc(&c2, b2 + 3, sizeof *s2, "the reduced string");
    sam_route_store(&c2, names, m, s2, b2, "the reduced string");
    fetch_after(&c2, s2, 2, s2 + b2);
    s2[b2 + 2] = 0;
    int bits = 1; /* the names are 1..sigma */
    while (bits < 32 && sigma >> bits)
        bits++;
    int32_t *sa2 = dc3_level(&c2, s2, 3, 3 * bits <= 64 ? bits : 32, run); /* frees s2 */
    sam_pair *p = sam_alloc(&c2, b2 + 1, sizeof *p, "the sample ranks");
    size_t k = 0;
    for (size_t j = 0; j < b2; j++) {
        int64_t tp = red_pos(sa2[j], n0);
        if (tp < n) /* the dummy has no suffix of its own */
            p[k++] = (sam_pair){ (uint32_t)tp, (uint32_t)(c2.lo + (int64_t)j + 1) };
    }
    pc_free(sa2);
    sam_route_store(c, p, k, rk, SIZE_MAX, "sample ranks");
    sam_ctx_free(&c2);
}

/* One level (see the top of the file). s[0 .. b + K - 1): the block and
 * the K - 1 symbols after it (0 past the end), freed here. Returns the
 * level's SA block. */
static int32_t *dc3_level(const sam_ctx *c, uint32_t *s, int K, int bits, dc3_run *run)
{
    if (c->n <= run->base) {
        double t = sam_prof_mark();
        int32_t *r = dc3_base(c, s);
        sam_prof_add(SAM_PH_BASE, &t);
        return r;
    }
    int level = run->levels++;
    double t0 = pc_time_now();
    int64_t n = c->n, lo = c->lo, n0 = (n + 2) / 3, nr = n0 + n / 3;
    size_t b = (size_t)(c->hi - lo);
    size_t mt, ms;
    int words;
    double tp = sam_prof_mark();
    uint32_t *t = make_keys(c, s, K, bits, &mt, &words);
    sam_prof_add(SAM_PH_KEYS, &tp);
    t = words == 3 ? (uint32_t *)sam_sort(c, (sam_tup *)t, mt, &ms)
                   : sam_sort_by(c, &run->tri, t, mt, &ms);
    tp = sam_prof_mark();
    sam_pair *names = sam_alloc(c, ms + 1, sizeof *names, "the names");
    uint64_t distinct = name_sorted(c, t, ms, words, names);
    pc_free(t);
    sam_prof_add(SAM_PH_NAMES, &tp);
    uint32_t *rk = sam_alloc(c, b + 2, sizeof *rk, "the sample ranks");
    memset(rk, 0, sizeof *rk * (b + 2));
    if (distinct == (uint64_t)nr) { /* unique names are the ranks */
        size_t k = 0;
        for (size_t j = 0; j < ms; j++)
            if ((int64_t)names[j].idx < n)
                names[k++] = names[j];
        sam_route_store(c, names, k, rk, SIZE_MAX, "sample ranks");
    } else {
        ranks_by_recursion(c, names, ms, distinct, rk, run);
    }
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
    uint32_t *pos = sam_sort_by(c, narrow ? &run->suf16 : &run->suf, f, b, &ms);
    /* step 5: the slices in rank order are SA */
    uint32_t *SA = sam_alloc(c, b + 1, sizeof *SA, "the suffix array block");
    sam_store_run(c, pos, ms, SA, "the suffix array");
    pc_free(pos);
    if (c->verbose && c->rank == 0)
        fprintf(stderr, "sa-mpi dc3: level %d n=%lld: %llu distinct names of %lld; keys, "
                "names and deeper levels %.3f s, final sort %.3f s\n", level, (long long)n,
                (unsigned long long)distinct, (long long)nr, t1 - t0, pc_time_now() - t1);
    return (int32_t *)SA;
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
    run.tri = (sam_order){ 4, MPI_DATATYPE_NULL, sam_tri_cmp, sam_tri_buckets, sam_tri_local_sort };
    run.suf = (sam_order){ 5, MPI_DATATYPE_NULL, sam_suf_cmp, sam_suf_buckets, sam_suf_local_sort };
    run.suf16 = (sam_order){ 4, MPI_DATATYPE_NULL, sam_suf16_cmp, sam_suf16_buckets,
                             sam_suf16_local_sort };
    MPI_Type_contiguous(4, MPI_UINT32_T, &run.tri.type);
    MPI_Type_commit(&run.tri.type);
    MPI_Type_contiguous(5, MPI_UINT32_T, &run.suf.type);
    MPI_Type_commit(&run.suf.type);
    MPI_Type_contiguous(4, MPI_UINT32_T, &run.suf16.type);
    MPI_Type_commit(&run.suf16.type);
    int32_t *SA = dc3_level(c, s, K, bits, &run);
    MPI_Type_free(&run.tri.type);
    MPI_Type_free(&run.suf.type);
    MPI_Type_free(&run.suf16.type);
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
