/* sam_probe.c - which distributed construction a text wants (--algo auto,
 * the default of dc3-mpi).
 *
 * Prefix doubling sorts, in its first round, every suffix by its first K
 * bytes, then in each round only the suffixes whose first h bytes are
 * still shared with another suffix (h = K, 2K, 4K, ...). Its work is n
 * times 1 + f(K) + f(2K) + ..., f(h) the fraction of suffixes whose first h
 * bytes occur elsewhere in the text: about two sorts of all n on ordinary
 * text, log2 of the longest repeat on a repetitive one. DC3 costs the same
 * few sorts' worth whatever the text (about 5 at 16 ranks on the GPU
 * machine's host, SAM_AUTO_ROUNDS in sam.h). So the text is
 * sampled: f(L) is estimated for a few lengths L from a sample of
 * SAM_PROBE_SAMPLES windows spread evenly over the blocks, by counting
 * every occurrence of each sampled window in a pass of a rolling hash over
 * every block, and the cheaper algorithm runs.
 *
 * Only the speed depends on the verdict, never the result. A hash
 * collision counts as an occurrence, which can only push the verdict
 * towards DC3 (a polynomial hash modulo 2^64 has known collisions on
 * Thue-Morse words, which are repetitive anyway). A repeated region too
 * small for the sample to see (a fraction e of the text) costs doubling
 * about e times log2 of its length in extra rounds. */
#include "pc_omp.h"
#include <stdio.h>
#include <string.h>
#include <stdlib.h>

#include "pc_alloc.h"
#include "sam.h"
#include "pc_time.h"

/* Windows sampled over all ranks (each rank takes its share). */
#define SAM_PROBE_SAMPLES 2048

/* The probed lengths, ascending, in two stages of two: the longer two
 * only when the shorter leave the verdict open. A length is probed only
 * where every block holds at least 8 windows of it (an occurrence across
 * a block end is not seen, so short blocks would under-count). */
static const int64_t probe_len[] = { 16, 128, 1024, 8192 };
#define SAM_PROBE_LENS ((int)(sizeof probe_len / sizeof probe_len[0]))

/* The hash's base (odd). */
#define PROBE_BASE 0x9e3779b97f4a7c15ULL

/* Only windows whose mixed hash has its top PROBE_SEL_BITS bits clear are
 * sampled, so the counting pass looks up one window in 64 and rolls the
 * hashes of the others: the choice depends on a window's bytes alone, so
 * every occurrence of a sampled window is looked up. A sample is the first
 * such window at or after an evenly spaced position, within
 * PROBE_SEARCH windows (else that slot has none). */
#define PROBE_SEL_BITS 6
#define PROBE_SEARCH (8 << PROBE_SEL_BITS)

/* The table key of a window hash: never 0 (0 marks "no sample"). */
static inline uint64_t probe_key(uint64_t h)
{
    return h ? h : 1;
}

/* The top bits of a polynomial hash modulo 2^64 depend on every byte of
 * the window (the low ones only on the last few). */
static inline int probe_selected(uint64_t key)
{
    return key >> (64 - PROBE_SEL_BITS) == 0;
}

/* The rolling hash of windows of one length L: away = PROBE_BASE^L, the
 * weight the byte that leaves would have had. The product with the new
 * byte's difference does not wait for h, so the chain through h is one
 * multiplication. */
static inline uint64_t probe_roll(uint64_t h, uint64_t away, uint8_t out, uint8_t in)
{
    return h * PROBE_BASE + (in - away * out);
}

static uint64_t window_hash(const uint8_t *p, int64_t L)
{
    uint64_t h = 0;
    for (int64_t t = 0; t < L; t++)
        h = h * PROBE_BASE + p[t];
    return h;
}

/* An open-addressing table of the distinct sampled windows of one length
 * with their occurrence counts. */
typedef struct probe_table {
    uint64_t *key;
    uint32_t *count;
    size_t mask;
} probe_table;

static size_t table_slot(const probe_table *t, uint64_t key)
{
    size_t i = (size_t)(key >> 20) & t->mask;
    while (t->key[i] && t->key[i] != key)
        i = (i + 1) & t->mask;
    return i;
}

/* One probed length: L, PROBE_BASE^L, the windows this rank counts
 * (starts in [0, end)) and the table of the sampled ones. */
typedef struct probe_len_run {
    int64_t L;
    uint64_t away;
    size_t end;
    probe_table t;
} probe_len_run;

/* This rank's sample for one length into key[0..per): the first sampled
 * window at or after each of per evenly spaced positions of the block
 * (windows must start before fit, the last start this rank holds + 1). */
static void pick_samples(const uint8_t *p, size_t b, size_t fit, const probe_len_run *r, int per,
                         uint64_t *key)
{
    for (int j = 0; j < per; j++) {
        size_t k = b * (size_t)(2 * j + 1) / (size_t)(2 * per), stop = k + PROBE_SEARCH;
        key[j] = 0;
        if (k >= fit)
            continue;
        stop = stop < fit ? stop : fit;
        uint64_t h = window_hash(p + k, r->L);
        for (;;) {
            if (probe_selected(probe_key(h))) {
                key[j] = probe_key(h);
                break;
            }
            if (++k >= stop)
                break;
            h = probe_roll(h, r->away, p[k - 1], p[k - 1 + (size_t)r->L]);
        }
    }
}

/* One step of a length's scan at window k: counts the window if sampled,
 * then rolls to window k + 1 unless k is its last. */
static inline uint64_t count_step(const probe_len_run *r, const uint8_t *p, size_t k, uint64_t h)
{
    uint64_t key = probe_key(h);
    if (probe_selected(key)) {
        size_t i = table_slot(&r->t, key);
        if (r->t.key[i] == key) {
#pragma omp atomic
            r->t.count[i]++;
        }
    }
    return k + 1 < r->end ? probe_roll(h, r->away, p[k], p[k + (size_t)r->L]) : h;
}

/* Counts every window p[k..k+L) (k < end of its length) whose key is a
 * sampled one, for the lengths a and b (b may be NULL; b->L > a->L) in one
 * pass: the two hash chains are independent, so their steps overlap. */
static void count_windows(const probe_len_run *a, const probe_len_run *b, const uint8_t *p,
                          int threads)
{
    size_t end = a->end, both = b ? b->end : 0; /* a longer window has fewer starts */
    int T = end < SAM_PAR_MIN ? 1 : threads;
#pragma omp parallel for num_threads(T) schedule(static, 1)
    for (int u = 0; u < T; u++) {
        size_t lo = end * (size_t)u / (size_t)T, hi = end * (size_t)(u + 1) / (size_t)T;
        size_t mid = hi < both ? hi : both > lo ? both : lo;
        uint64_t ha = lo < hi ? window_hash(p + lo, a->L) : 0;
        uint64_t hb = lo < mid ? window_hash(p + lo, b->L) : 0;
        size_t k = lo;
        for (; k < mid; k++) {
            ha = count_step(a, p, k, ha);
            hb = count_step(b, p, k, hb);
        }
        for (; k < hi; k++)
            ha = count_step(a, p, k, ha);
    }
}

/* Estimated rounds of doubling (see the top) from f[l] for the probed
 * lengths (f[l] < 0: not probed), first round K bytes, text length n. f is
 * not increasing, so f at the largest probed length <= h bounds f(h) from
 * above (upper != 0; 1 below the first) and f at the smallest probed
 * length >= h from below (0 past the last). */
static double doubling_rounds(const double *f, int K, int64_t n, int upper)
{
    double est = 1;
    for (int64_t h = K; h < n; h *= 2) {
        double g = upper ? 1 : 0;
        for (int l = 0; l < SAM_PROBE_LENS; l++) {
            int at = upper ? l : SAM_PROBE_LENS - 1 - l;
            if (f[at] >= 0 && (upper ? probe_len[at] <= h : probe_len[at] >= h))
                g = f[at];
        }
        if (g == 0)
            break;
        est += g;
    }
    return est;
}

/* Probes the lengths l0 and l0 + 1 of probe_len (those every block can
 * hold): f[l] = the fraction of the sampled windows of length probe_len[l]
 * that occur at least twice in the text; left alone where not probed.
 * Collective. */
static void probe_stage(const sam_ctx *c, const uint8_t *text, size_t len, int l0, double *f)
{
    int P = c->np;
    size_t b = (size_t)(c->hi - c->lo);
    int per = (SAM_PROBE_SAMPLES + P - 1) / P; /* sample slots of a rank */
    size_t slots = (size_t)per * (size_t)P;
    probe_len_run run[2];
    int nl = 0;
    for (int l = l0; l < l0 + 2 && l < SAM_PROBE_LENS; l++) {
        int64_t L = probe_len[l];
        if (c->n / P < 8 * L) /* the shortest block */
            break;
        size_t fit = len >= (size_t)L ? len - (size_t)L + 1 : 0;
        run[nl] = (probe_len_run){ L, 1, fit < b ? fit : b, { NULL, NULL, 0 } };
        for (int64_t t = 0; t < L; t++)
            run[nl].away *= PROBE_BASE;
        nl++;
    }
    if (nl == 0)
        return;
    size_t tsize = 1, all_n = slots * (size_t)nl;
    while (tsize < 4 * slots)
        tsize *= 2;
    uint64_t *mine = sam_alloc(c, (size_t)per * (size_t)nl, sizeof *mine, "the probe's sample");
    uint64_t *all = sam_alloc(c, all_n, sizeof *all, "the probe's samples");
    uint32_t *cnt = sam_alloc(c, all_n, sizeof *cnt, "the probe's counts");
    for (int l = 0; l < nl; l++) {
        size_t fit = len >= (size_t)run[l].L ? len - (size_t)run[l].L + 1 : 0;
        pick_samples(text, b, fit, &run[l], per, mine + (size_t)l * (size_t)per);
        run[l].t.mask = tsize - 1;
        run[l].t.key = sam_alloc(c, tsize, sizeof *run[l].t.key, "the probe's table");
        run[l].t.count = sam_alloc(c, tsize, sizeof *run[l].t.count, "the probe's table");
        memset(run[l].t.key, 0, sizeof *run[l].t.key * tsize);
        memset(run[l].t.count, 0, sizeof *run[l].t.count * tsize);
    }
    /* rank q's samples of length l: all[(q nl + l) per ...] */
    MPI_Allgather(mine, per * nl, MPI_UINT64_T, all, per * nl, MPI_UINT64_T, c->comm);
    for (size_t s = 0; s < all_n; s++) {
        probe_table *t = &run[s / (size_t)per % (size_t)nl].t;
        if (all[s])
            t->key[table_slot(t, all[s])] = all[s];
    }
    count_windows(&run[0], nl > 1 ? &run[1] : NULL, text, c->threads);
    for (size_t s = 0; s < all_n; s++) {
        const probe_table *t = &run[s / (size_t)per % (size_t)nl].t;
        cnt[s] = all[s] ? t->count[table_slot(t, all[s])] : 0;
    }
    MPI_Allreduce(MPI_IN_PLACE, cnt, (int)all_n, MPI_UINT32_T, MPI_SUM, c->comm);
    for (int l = 0; l < nl; l++) {
        size_t valid = 0, shared = 0;
        for (size_t s = 0; s < all_n; s++)
            if ((int)(s / (size_t)per % (size_t)nl) == l && all[s]) {
                valid++;
                shared += cnt[s] >= 2; /* the sampled window itself is one */
            }
        if (valid)
            f[l0 + l] = (double)shared / (double)valid;
        pc_free(run[l].t.key);
        pc_free(run[l].t.count);
    }
    pc_free(cnt);
    pc_free(all);
    pc_free(mine);
}

double sam_probe_doubling(const sam_ctx *c, const uint8_t *text, size_t len, int K, double most)
{
    double f[SAM_PROBE_LENS];
    for (int l = 0; l < SAM_PROBE_LENS; l++)
        f[l] = -1;
    probe_stage(c, text, len, 0, f);
    if (doubling_rounds(f, K, c->n, 0) <= most && doubling_rounds(f, K, c->n, 1) > most)
        probe_stage(c, text, len, 2, f);
    double est = doubling_rounds(f, K, c->n, 1);
    if (c->verbose && c->rank == 0) {
        fprintf(stderr, "sa-mpi probe: shared windows");
        for (int l = 0; l < SAM_PROBE_LENS; l++)
            if (f[l] >= 0)
                fprintf(stderr, " f(%lld)=%.4f", (long long)probe_len[l], f[l]);
        fprintf(stderr, "; doubling at most about %.2f sorts of all suffixes\n", est);
    }
    return est;
}
