/* sam_dsort.c - the sample sort of both paths, over records of 32-bit
 * words in any total order (splitters from random samples, ties split by
 * (rank, index) so that equal keys balance too, one Alltoallv, a local
 * sort), and the local sorts of the DC3 path (sam_dc3.c): an LSD radix
 * sort over the key words of triples, and for the final DC3 step two
 * radix-sorted classes (text positions i mod 3 = 0 by (c0, r1), the sample
 * positions by their rank r0) merged with the DC3 comparison, and its DC7
 * form for the first level (four classes radix sorted, the sample placed,
 * five lists merged). */
#include "pc_omp.h"
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "pc_alloc.h"
#include "sam.h"
#include "sam_prof.h"
#include "sam_radix.h"

/* Digits of at most 13 bits (a histogram of 64 KB a thread stays in L2):
 * ranks and names below 2^26 take two passes a word instead of three. */
#define DS_MAX_DIGIT 13
#define DS_BUCKETS (1u << DS_MAX_DIGIT)

/* Copies one record of `words` 32-bit words. The sizes in use get copies
 * of constant size (two or three moves; the profile of a loop over words
 * showed it as a third of the run time in the radix scatter). */
static inline void rec_copy(uint32_t *d, const uint32_t *s, int words)
{
    if (words == 3)
        memcpy(d, s, 12);
    else if (words == 4)
        memcpy(d, s, 16);
    else if (words == 5)
        memcpy(d, s, 20);
    else if (words == 6)
        memcpy(d, s, 24);
    else
        for (int k = 0; k < words; k++)
            d[k] = s[k];
}

/* LSD radix sort of the m records of a (stride words each) by the words
 * keys[0..nk), least significant first, over the bits of word - min up to
 * the highest of max - min (none for a word where all agree), in as few
 * digits of at most DS_MAX_DIGIT bits as cover them. tmp holds m records.
 * Returns the buffer that holds the result (a or tmp). */
/* One LSD pass: word kw, digit ((word >> low) - lo) >> shift & mask. */
typedef struct radix_pass {
    int kw, low, shift;
    uint32_t lo, mask;
} radix_pass;

static inline size_t radix_digit(const uint32_t *rec, const radix_pass *p)
{
    return (((rec[p->kw] >> p->low) - p->lo) >> p->shift) & p->mask;
}

/* Scatters a[0..m) into tmp by pass p's digit, h the first slot of each
 * digit (advanced). */
static void radix_scatter(const uint32_t *a, uint32_t *tmp, size_t b, size_t e, int stride,
                          const radix_pass *p, size_t *h)
{
    size_t st = (size_t)stride;
    for (size_t i = b; i < e; i++) {
        size_t d = h[radix_digit(a + i * st, p)]++;
        rec_copy(tmp + d * st, a + i * st, stride);
    }
}

static uint32_t *radix_words(const sam_ctx *c, uint32_t *a, uint32_t *tmp, size_t m, int stride,
                             const int *keys, const int *low, int nk)
{
    if (m < 2)
        return a;
    int T = m < SAM_PAR_MIN || c->threads < 1 ? 1 : c->threads;
    size_t st = (size_t)stride;
    /* the range of every key word in one read of the records (the passes
     * are memory-bound: a read per word and statistic cost what half a
     * scatter pass does) */
    uint32_t wlo[8], whi[8];
    if (nk > 8)
        sam_die(c, "internal error: radix sort over %d words", nk);
    for (int w = 0; w < nk; w++)
        wlo[w] = UINT32_MAX, whi[w] = 0;
#pragma omp parallel for num_threads(T) schedule(static) reduction(min : wlo[:nk])              \
    reduction(max : whi[:nk])
    for (size_t i = 0; i < m; i++)
        for (int w = 0; w < nk; w++) {
            uint32_t v = a[i * st + (size_t)keys[w]] >> low[w];
            wlo[w] = v < wlo[w] ? v : wlo[w];
            whi[w] = v > whi[w] ? v : whi[w];
        }
    radix_pass pass[8 * 3];
    int np = 0;
    for (int w = 0; w < nk; w++) {
        uint32_t diff = whi[w] - wlo[w]; /* as wide as any word - lo */
        int bits = 0;
        while (bits < 32 && diff >> bits)
            bits++;
        int passes = (bits + DS_MAX_DIGIT - 1) / DS_MAX_DIGIT;
        int digit = passes ? (bits + passes - 1) / passes : 1;
        for (int shift = 0; shift < bits; shift += digit)
            pass[np++] = (radix_pass){ keys[w], low[w], shift, wlo[w], (1u << digit) - 1 };
    }
    if (np == 0)
        return a;
    if (T == 1) {
        /* one thread: a digit's counts do not depend on the order, so one
         * read counts every pass, and each pass is a scatter alone (a
         * third less traffic than counting before each scatter) */
        size_t *hist = sam_alloc(c, (size_t)np * DS_BUCKETS, sizeof *hist, "radix histograms");
        memset(hist, 0, (size_t)np * DS_BUCKETS * sizeof *hist);
        for (size_t i = 0; i < m; i++)
            for (int q = 0; q < np; q++)
                hist[(size_t)q * DS_BUCKETS + radix_digit(a + i * st, &pass[q])]++;
        for (int q = 0; q < np; q++) {
            size_t *h = hist + (size_t)q * DS_BUCKETS;
            sam_hist_offsets(h, (size_t)pass[q].mask + 1, 1, DS_BUCKETS);
            radix_scatter(a, tmp, 0, m, stride, &pass[q], h);
            uint32_t *s = a;
            a = tmp;
            tmp = s;
        }
        pc_free(hist);
        return a;
    }
    size_t *hist = sam_alloc(c, (size_t)T * DS_BUCKETS, sizeof *hist, "radix histograms");
    for (int q = 0; q < np; q++) {
        const radix_pass *p = &pass[q];
#pragma omp parallel num_threads(T)
        {
            int t = omp_get_thread_num(), nt = omp_get_num_threads();
            size_t b = m * (size_t)t / (size_t)nt, e = m * (size_t)(t + 1) / (size_t)nt;
            size_t *h = hist + (size_t)t * DS_BUCKETS;
            memset(h, 0, ((size_t)p->mask + 1) * sizeof *h);
            for (size_t i = b; i < e; i++)
                h[radix_digit(a + i * st, p)]++;
#pragma omp barrier
#pragma omp single
            sam_hist_offsets(hist, (size_t)p->mask + 1, nt, DS_BUCKETS);
            radix_scatter(a, tmp, b, e, stride, p, h);
        }
        uint32_t *s = a;
        a = tmp;
        tmp = s;
    }
    pc_free(hist);
    return a;
}

static inline int tri_cmp(const sam_tri *a, const sam_tri *b)
{
    if (a->k0 != b->k0)
        return a->k0 < b->k0 ? -1 : 1;
    if (a->k1 != b->k1)
        return a->k1 < b->k1 ? -1 : 1;
    return (a->k2 > b->k2) - (a->k2 < b->k2);
}

int sam_tri_cmp(const void *x, const void *y)
{
    return tri_cmp(x, y);
}

/* Compares (x0, x1, x2) with (y0, y1, y2) lexicographically. */
static inline int cmp3(uint32_t x0, uint32_t x1, uint32_t x2, uint32_t y0, uint32_t y1,
                       uint32_t y2)
{
    if (x0 != y0)
        return x0 < y0 ? -1 : 1;
    if (x1 != y1)
        return x1 < y1 ? -1 : 1;
    return (x2 > y2) - (x2 < y2);
}

static inline int suf_cmp(const sam_suf *a, const sam_suf *b)
{
    int ca = (int)(a->idx % 3), cb = (int)(b->idx % 3);
    if (ca && cb) /* two sample suffixes: their ranks (ra = r0) */
        return (a->ra > b->ra) - (a->ra < b->ra);
    if (ca == 2 || cb == 2) /* i mod 3 = 0 against 2: two bytes, then r2 (rb in both) */
        return cmp3(a->c0, a->c1, a->rb, b->c0, b->c1, b->rb);
    /* 0 against 0 or 1: one byte, then r1 (distinct unless i = j), which
     * is ra in class 0 and rb in class 1 */
    return cmp3(a->c0, ca ? a->rb : a->ra, 0, b->c0, cb ? b->rb : b->ra, 0);
}

int sam_suf_cmp(const void *x, const void *y)
{
    return suf_cmp(x, y);
}

/* suf_cmp for symbols below 2^16, cc = c0 << 16 | c1. */
static inline int suf16_cmp(const sam_suf16 *a, const sam_suf16 *b)
{
    int ca = (int)(a->idx % 3), cb = (int)(b->idx % 3);
    if (ca && cb)
        return (a->ra > b->ra) - (a->ra < b->ra);
    if (ca == 2 || cb == 2)
        return cmp3(a->cc, a->rb, 0, b->cc, b->rb, 0);
    return cmp3(a->cc >> 16, ca ? a->rb : a->ra, 0, b->cc >> 16, cb ? b->rb : b->ra, 0);
}

int sam_suf16_cmp(const void *x, const void *y)
{
    return suf16_cmp(x, y);
}

/* The DC7 rule (difference cover D = {0, 1, 3} mod 7): g_off7[c] the
 * offsets t in [0, 7) with c + t mod 7 in D (ascending), g_l7[a][b] the
 * first offset in both g_off7[a] and g_off7[b], g_slot7[c][t] the index of
 * offset t in g_off7[c]. Filled by sam_suf7_setup. */
static int g_bits7;
static uint8_t g_l7[7][7], g_slot7[7][7];
static uint64_t g_mask7[7]; /* the top l x bits bits (none for l = 0) */
static int g_cls7[4];       /* the residues outside the sample */
static uint8_t g_group7[8]; /* a residue's group in the final sort */

void sam_suf7_setup(int bits)
{
    g_bits7 = bits;
    /* the groups of the final sort: the residues outside the sample in
     * order (g_cls7), then the sample as group 4 */
    for (int r = 0, g = 0; r < 7; r++) {
        g_group7[r] = (uint8_t)(sam_dc7_sample(r) ? 4 : g);
        if (!sam_dc7_sample(r))
            g_cls7[g++] = r;
    }
    for (int l = 0; l < 7; l++)
        g_mask7[l] = l ? ~(uint64_t)0 << (64 - l * bits) : 0;
    for (int a = 0; a < 7; a++)
        for (int t = 0, k = 0; t < 7; t++)
            if (sam_dc7_sample((a + t) % 7))
                g_slot7[a][t] = (uint8_t)k++;
    for (int a = 0; a < 7; a++)
        for (int b = 0; b < 7; b++) {
            int t = 0;
            while (!(sam_dc7_sample((a + t) % 7) && sam_dc7_sample((b + t) % 7)))
                t++;
            g_l7[a][b] = (uint8_t)t;
        }
}

static inline uint64_t suf7_sy(const sam_suf7 *t)
{
    return (uint64_t)t->sy_hi << 32 | t->sy_lo;
}

static inline int suf7_cmp(const sam_suf7 *a, const sam_suf7 *b)
{
    int ca = (int)(a->sy_lo & 7), cb = (int)(b->sy_lo & 7), l = g_l7[ca][cb];
    if (l) { /* l * bits <= 54: the shift stays below 64 */
        uint64_t x = suf7_sy(a) >> (64 - l * g_bits7), y = suf7_sy(b) >> (64 - l * g_bits7);
        if (x != y)
            return x < y ? -1 : 1;
    }
    uint32_t ra = a->r[g_slot7[ca][l]], rb = b->r[g_slot7[cb][l]];
    return (ra > rb) - (ra < rb);
}

int sam_suf7_cmp(const void *x, const void *y)
{
    return suf7_cmp(x, y);
}

/* suf7_cmp(a, b) < 0 without branches, for the merge, where the outcome
 * is a coin toss for the branch predictor. */
static inline int suf7_less(const sam_suf7 *a, const sam_suf7 *b)
{
    int ca = (int)(a->sy_lo & 7), cb = (int)(b->sy_lo & 7), l = g_l7[ca][cb];
    uint64_t x = suf7_sy(a) & g_mask7[l], y = suf7_sy(b) & g_mask7[l];
    uint32_t ra = a->r[g_slot7[ca][l]], rb = b->r[g_slot7[cb][l]];
    return (x < y) | ((x == y) & (ra < rb));
}

static inline int tup_cmp(const sam_tup *x, const sam_tup *y)
{
    uint64_t a = sam_key(x), b = sam_key(y);
    return (a > b) - (a < b);
}

int sam_tup_cmp(const void *x, const void *y)
{
    return tup_cmp(x, y);
}

/* Monotone 64-bit prefixes of the three orders: x < y whenever
 * prefix(x) < prefix(y). A sample suffix's rank follows its first symbol,
 * so c0 is one for the DC3 order too. */
static inline uint64_t tri_prefix(const sam_tri *t)
{
    return (uint64_t)t->k0 << 32 | t->k1;
}

static inline uint64_t suf_prefix(const sam_suf *t)
{
    return t->c0;
}

static inline uint64_t suf16_prefix(const sam_suf16 *t)
{
    return t->cc; /* (c0, c1): any suffix order follows the first two symbols */
}

static inline uint64_t suf7_prefix(const sam_suf7 *t)
{
    return suf7_sy(t) & ~(uint64_t)7; /* any suffix order follows the first symbols */
}

static inline uint64_t tup_prefix(const sam_tup *t)
{
    return sam_key(t);
}

/* The bucket of each record a[i], i in [b, e), of rank me: the number of
 * splitters (sp: ns of them, each (rank, index, record)) below it, in
 * dest[i], counted in h. One function per record type, so that the
 * comparison is inlined: through a function pointer the search was a fifth
 * of dc3-mpi's time. Most records are placed by their prefix alone, with a
 * branch-free search (the branches of a search mispredict half the time);
 * only among the splitters of an equal prefix does the full comparison,
 * with the (rank, index) tie-break, decide. */
#define SAM_LINEAR_SPLITTERS 32

#define SAM_DEFINE_BUCKETS(name, T, CMP, PREFIX, G, GROUP)                                      \
    /* first splitter k in [0, ns] with PREFIX(k) >= p (or > p if after) */                     \
    static inline int name##_bound(const uint32_t *sp, int ns, uint64_t p, int after)           \
    {                                                                                           \
        const size_t sw = sizeof(T) / 4 + 2;                                                    \
        int base = 0, len = ns;                                                                 \
        while (len > 1) {                                                                       \
            int half = len / 2;                                                                 \
            uint64_t v = PREFIX((const T *)(sp + (size_t)(base + half - 1) * sw + 2));          \
            base = (after ? v <= p : v < p) ? base + half : base;                               \
            len -= half;                                                                        \
        }                                                                                       \
        if (len == 1) {                                                                         \
            uint64_t v = PREFIX((const T *)(sp + (size_t)base * sw + 2));                       \
            base += after ? v <= p : v < p;                                                     \
        }                                                                                       \
        return base;                                                                            \
    }                                                                                           \
    void name(const uint32_t *sp, int ns, const void *av, size_t b, size_t e, uint32_t me,      \
              uint16_t *dest, size_t *h)                                                        \
    {                                                                                           \
        const size_t sw = sizeof(T) / 4 + 2;                                                    \
        const T *a = av;                                                                        \
        /* up to SAM_LINEAR_SPLITTERS splitters: their prefixes in one                          \
         * array, counted below p by a loop without branches or dependent                       \
         * loads (vectorized), faster than the binary search */                                 \
        uint64_t pre[SAM_LINEAR_SPLITTERS];                                                     \
        int linear = ns <= SAM_LINEAR_SPLITTERS;                                                \
        for (int k = 0; linear && k < ns; k++)                                                  \
            pre[k] = PREFIX((const T *)(sp + (size_t)k * sw + 2));                              \
        for (size_t i = b; i < e; i++) {                                                        \
            uint64_t p = PREFIX(&a[i]);                                                         \
            int lo = 0;                                                                         \
            if (linear)                                                                         \
                for (int k = 0; k < ns; k++)                                                    \
                    lo += pre[k] < p;                                                           \
            else                                                                                \
                lo = name##_bound(sp, ns, p, 0);                                                \
            if (lo < ns && PREFIX((const T *)(sp + (size_t)lo * sw + 2)) == p) {                \
                int hi = name##_bound(sp, ns, p, 1);                                            \
                while (lo < hi) {                                                               \
                    int mid = (lo + hi) / 2;                                                    \
                    const uint32_t *s = sp + (size_t)mid * sw;                                  \
                    int r = CMP((const T *)(s + 2), &a[i]);                                     \
                    int below = r ? r < 0 : s[0] != me ? s[0] < me : s[1] < (uint32_t)i;        \
                    if (below)                                                                  \
                        lo = mid + 1;                                                           \
                    else                                                                        \
                        hi = mid;                                                               \
                }                                                                               \
            }                                                                                   \
            int d_ = lo * (G) + GROUP(&a[i]);                                                   \
            dest[i] = (uint16_t)d_;                                                             \
            h[d_]++;                                                                            \
        }                                                                                       \
    }

/* The groups of the orders (sam_order.groups): DC3's class 0, then the
 * sample; DC7's classes 2, 4, 5, 6, then the sample (i mod 7 is in the
 * low bits of sy_lo). */
#define NO_GROUP(t) 0
#define DC3_GROUP(t) ((t)->idx % 3 != 0)
#define DC7_GROUP(t) g_group7[(t)->sy_lo & 7]

SAM_DEFINE_BUCKETS(sam_tri_buckets, sam_tri, tri_cmp, tri_prefix, 1, NO_GROUP)
SAM_DEFINE_BUCKETS(sam_suf_buckets, sam_suf, suf_cmp, suf_prefix, 2, DC3_GROUP)
SAM_DEFINE_BUCKETS(sam_suf16_buckets, sam_suf16, suf16_cmp, suf16_prefix, 2, DC3_GROUP)
SAM_DEFINE_BUCKETS(sam_tup_buckets, sam_tup, tup_cmp, tup_prefix, 1, NO_GROUP)
SAM_DEFINE_BUCKETS(sam_suf7_buckets, sam_suf7, suf7_cmp, suf7_prefix, 5, DC7_GROUP)

void *sam_tri_local_sort(const sam_ctx *c, void *av, size_t m, const size_t *group)
{
    (void)group; /* one group */
    sam_tri *a = av;
    double tm = sam_prof_mark();
    sam_tri *tmp = sam_alloc(c, m + 1, sizeof *tmp, "the triple sort buffer");
    static const int keys[3] = { 2, 1, 0 }, low[3] = { 0, 0, 0 }; /* k2, k1, k0 */
    uint32_t *s = radix_words(c, (uint32_t *)a, (uint32_t *)tmp, m, 4, keys, low, 3);
    pc_free((sam_tri *)s == a ? tmp : a);
    sam_prof_add(SAM_PH_LS_KEYS, &tm);
    return (sam_tri *)s;
}

/* SAM_DEFINE_PLACE(name, T, RANK) defines name(c, x, m, y), which sorts
 * the sample suffixes x[0..m) by their rank (the field RANK) into y and
 * returns y. No comparisons are needed: ranks of sample suffixes are
 * distinct, and a sample sort's bucket holds a contiguous stretch of the
 * sample order, so its ranks are an interval, less at most the rank the
 * dummy position took (it has no suffix). Anything else is an internal
 * error. */
#define SAM_DEFINE_PLACE(name, T, RANK)                                                         \
    static T *name(const sam_ctx *c, const T *x, size_t m, T *y)                                \
    {                                                                                           \
        if (m == 0)                                                                             \
            return y;                                                                           \
        uint32_t lo = UINT32_MAX, hi = 0;                                                       \
        for (size_t i = 0; i < m; i++) {                                                        \
            lo = x[i].RANK < lo ? x[i].RANK : lo;                                               \
            hi = x[i].RANK > hi ? x[i].RANK : hi;                                               \
        }                                                                                       \
        size_t span = (size_t)(hi - lo) + 1;                                                    \
        int T_ = m < SAM_PAR_MIN ? 1 : c->threads;                                              \
        (void)T_; /* the loops' thread count, unused without OpenMP */                          \
        if (span == m) { /* m distinct ranks fill the interval: straight into y */              \
            _Pragma("omp parallel for num_threads(T_) schedule(static)")                        \
            for (size_t i = 0; i < m; i++)                                                      \
                y[x[i].RANK - lo] = x[i];                                                       \
            return y;                                                                           \
        }                                                                                       \
        if (span != m + 1)                                                                      \
            sam_die(c, "internal error: %zu sample ranks span %zu", m, span);                   \
        /* the dummy's gap: through a buffer with one more entry, marked */                     \
        T *z = sam_alloc(c, span, sizeof *z, "the rank places");                                \
        for (size_t k = 0; k < span; k++)                                                       \
            z[k].idx = UINT32_MAX; /* no position is that large */                              \
        int twice = 0;                                                                          \
        _Pragma("omp parallel for num_threads(T_) schedule(static) reduction(| : twice)")       \
        for (size_t i = 0; i < m; i++) {                                                        \
            T *d = &z[x[i].RANK - lo];                                                          \
            twice |= d->idx != UINT32_MAX;                                                      \
            *d = x[i];                                                                          \
        }                                                                                       \
        if (twice)                                                                              \
            sam_die(c, "internal error: sample ranks repeat");                                  \
        size_t k = 0;                                                                           \
        for (size_t r = 0; r < span; r++)                                                       \
            if (z[r].idx != UINT32_MAX)                                                         \
                y[k++] = z[r];                                                                  \
        pc_free(z);                                                                             \
        return y;                                                                               \
    }

/* The bits of the largest rank in the records being sorted: the radix key
 * of a record outside the sample is its symbols above them, the rank in
 * them. Set by the main thread before each sort. */
static int g_rbits;

/* g_rbits for a level of c->n positions: its ranks are at most n. */
static void rank_bits(const sam_ctx *c)
{
    g_rbits = 0;
    while (g_rbits < 32 && (uint64_t)c->n >> g_rbits)
        g_rbits++;
}

/* The final step's local sort, for both DC3 suffix layouts (T: sam_suf or
 * sam_suf16; C0: c0 of a record): class 0 radix sorted by (c0, r1) (r1 is
 * ra there), the sample suffixes placed, the two merged by CMP, returning
 * only the positions of the merged order. */
#define SAM_DEFINE_SUF_SORT(name, T, CMP, C0)                                                   \
    static inline uint64_t name##_key0(const T *t)                                              \
    {                                                                                           \
        return (uint64_t)C0(t) << g_rbits | t->ra;                                              \
    }                                                                                           \
    SAM_DEFINE_RADIX64(name##_radix0, T, name##_key0)                                           \
    SAM_DEFINE_PLACE(name##_place, T, ra)                                                       \
    void *name(const sam_ctx *c, void *av, size_t m, const size_t *group)                       \
    {                                                                                           \
        /* class 0 in a[0..m0), the sample suffixes after it (the exchange                      \
         * delivers them apart) */                                                              \
        T *a = av;                                                                              \
        double tm = sam_prof_mark();                                                            \
        size_t m0 = group[1];                                                                   \
        T *b = sam_alloc(c, m + 1, sizeof *b, "the suffix sort buffer");                        \
        sam_prof_add(SAM_PH_LS_SPLIT, &tm);                                                     \
        /* by (c0, ra = r1): ra in the low g_rbits bits of the key */                           \
        rank_bits(c);                                                                           \
        T *s0 = name##_radix0(a, b, m0, c->threads);                                            \
        if (!s0)                                                                                \
            sam_die(c, "out of memory for radix sort histograms");                              \
        sam_prof_add(SAM_PH_LS_CLASS0, &tm);                                                    \
        /* the radix sort of class 0 touches only a[0..m0) and b[0..m0) */                      \
        T *s12 = name##_place(c, a + m0, m - m0, b + m0);                                       \
        sam_prof_add(SAM_PH_LS_PLACE, &tm);                                                     \
        /* each sorted class sits in a or b (the radix passes alternate); only                  \
         * the positions of the merged order are wanted, in a third buffer of                   \
         * 4 bytes a record */                                                                  \
        uint32_t *out = sam_alloc(c, m + 1, sizeof *out, "the merged positions");               \
        size_t i = 0, j = 0, k = 0;                                                             \
        while (i < m0 && j < m - m0)                                                            \
            out[k++] = CMP(&s0[i], &s12[j]) < 0 ? s0[i++].idx : s12[j++].idx;                   \
        while (i < m0)                                                                          \
            out[k++] = s0[i++].idx;                                                             \
        while (j < m - m0)                                                                      \
            out[k++] = s12[j++].idx;                                                            \
        sam_prof_add(SAM_PH_LS_MERGE, &tm);                                                     \
        pc_free(a);                                                                             \
        pc_free(b);                                                                             \
        return out;                                                                             \
    }

/* c0 is word 0 of a sam_suf; the top half of word 0 (cc) of a sam_suf16
 * (c1, below it, follows r1's order, so it needs no pass) */
#define SUF_C0(t) ((t)->c0)
#define SUF16_C0(t) ((t)->cc >> 16)
SAM_DEFINE_SUF_SORT(sam_suf_local_sort, sam_suf, suf_cmp, SUF_C0)
SAM_DEFINE_SUF_SORT(sam_suf16_local_sort, sam_suf16, suf16_cmp, SUF16_C0)

/* DC7's local sort. A class c outside the sample sorts by its symbols up
 * to the next sample position (g_l7[c][c] of them, the top g_k7 bits of
 * sy) and that position's rank r[0]: one 64-bit key. */
static int g_k7;

static inline uint64_t suf7_key(const sam_suf7 *t)
{
    return (suf7_sy(t) >> (64 - g_k7)) << g_rbits | t->r[0];
}

SAM_DEFINE_RADIX64(suf7_radix, sam_suf7, suf7_key)

/* The leaf (x or y) whose head comes first; an empty list never does. */
static inline int suf7_first(const sam_suf7 *const *head, const size_t *left, int x, int y)
{
    if (!left[y])
        return x;
    if (!left[x])
        return y;
    return suf7_less(head[x], head[y]) ? x : y;
}
SAM_DEFINE_PLACE(suf7_place, sam_suf7, r[0])

void *sam_suf7_local_sort(const sam_ctx *c, void *av, size_t m, const size_t *group)
{
    /* groups (from the exchange): the classes 2, 4, 5, 6, then the sample */
    sam_suf7 *a = av;
    double tm = sam_prof_mark();
    sam_suf7 *b = sam_alloc(c, m + 1, sizeof *b, "the suffix sort buffer");
    rank_bits(c);
    const sam_suf7 *list[5];
    size_t len[5];
    for (int g = 0; g < 4; g++) {
        g_k7 = g_l7[g_cls7[g]][g_cls7[g]] * g_bits7;
        len[g] = group[g + 1] - group[g];
        list[g] = suf7_radix(a + group[g], b + group[g], len[g], c->threads);
        if (!list[g])
            sam_die(c, "out of memory for radix sort histograms");
    }
    sam_prof_add(SAM_PH_LS_CLASS0, &tm);
    len[4] = m - group[4];
    list[4] = suf7_place(c, a + group[4], len[4], b + group[4]);
    sam_prof_add(SAM_PH_LS_PLACE, &tm);
    /* five sorted lists, each in a or b at its group's place, merged by a
     * tournament over eight leaves (win[8 + g] = g; leaves 5-7 are empty):
     * after each output only the path of its leaf is played again, three
     * matches, one for the sample list (its sibling leaves are empty) */
    uint32_t *out = sam_alloc(c, m + 1, sizeof *out, "the merged positions");
    const sam_suf7 *head[8] = { 0 };
    size_t left[8] = { 0 };
    for (int g = 0; g < 5; g++)
        head[g] = list[g], left[g] = len[g];
    int win[16];
    for (int g = 0; g < 8; g++)
        win[8 + g] = g;
    for (int v = 7; v >= 1; v--)
        win[v] = suf7_first(head, left, win[2 * v], win[2 * v + 1]);
    for (size_t k = 0; k < m; k++) {
        int w = win[1];
        out[k] = head[w]->idx;
        head[w]++;
        left[w]--;
        for (int v = (8 + w) / 2; v >= 1; v /= 2)
            win[v] = suf7_first(head, left, win[2 * v], win[2 * v + 1]);
    }
    sam_prof_add(SAM_PH_LS_MERGE, &tm);
    pc_free(a);
    pc_free(b);
    return out;
}

/* A sample: its place (rank, index in the rank's unsorted records) in
 * words 0 and 1, then the record, so that all samples are distinct. */
static const sam_order *g_order; /* for qsort's comparison; main thread only */

static int sample_cmp(const void *x, const void *y)
{
    const uint32_t *a = x, *b = y;
    int r = g_order->cmp(a + 2, b + 2);
    if (r)
        return r;
    if (a[0] != b[0])
        return a[0] < b[0] ? -1 : 1;
    return (a[1] > b[1]) - (a[1] < b[1]);
}

static uint64_t mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

/* P - 1 splitters (o->words + 2 words each) from samples taken at random
 * inside equal strides of every rank's records, as many per rank as its
 * share of all M records, 256 P in all. */
static uint32_t *splitters(const sam_ctx *c, const sam_order *o, const uint32_t *a, size_t m,
                           uint64_t M)
{
    int P = c->np, sw = o->words + 2;
    uint64_t S = (uint64_t)256 * (uint64_t)P;
    if (S > ((uint64_t)1 << 18))
        S = (uint64_t)1 << 18;
    int ns = (int)((m * S + M - 1) / M);
    if ((size_t)ns > m)
        ns = (int)m;
    int *cnt = sam_alloc(c, 2 * (size_t)P, sizeof(int), "sample counts");
    int nsw = ns * sw;
    MPI_Allgather(&nsw, 1, MPI_INT, cnt, 1, MPI_INT, c->comm);
    size_t tot = 0;
    for (int q = 0; q < P; q++) {
        cnt[P + q] = (int)tot;
        tot += (size_t)cnt[q];
    }
    uint32_t *mine = sam_alloc(c, (size_t)nsw + 1, sizeof *mine, "samples");
    for (int k = 0; k < ns; k++) {
        size_t b = (size_t)k * m / (size_t)ns, e = (size_t)(k + 1) * m / (size_t)ns;
        size_t p = b + (size_t)(mix((uint64_t)c->rank << 32 | (uint64_t)k) % (e - b));
        uint32_t *s = mine + (size_t)k * (size_t)sw;
        s[0] = (uint32_t)c->rank;
        s[1] = (uint32_t)p;
        rec_copy(s + 2, a + p * (size_t)o->words, o->words);
    }
    uint32_t *all = sam_alloc(c, tot + 1, sizeof *all, "all samples");
    MPI_Allgatherv(mine, nsw, MPI_UINT32_T, all, cnt, cnt + P, MPI_UINT32_T, c->comm);
    pc_free(mine);
    pc_free(cnt);
    size_t nall = tot / (size_t)sw;
    g_order = o;
    qsort(all, nall, sizeof(uint32_t) * (size_t)sw, sample_cmp);
    uint32_t *sp = sam_alloc(c, (size_t)P * (size_t)sw, sizeof *sp, "splitters");
    for (int q = 1; q < P; q++)
        rec_copy(sp + (size_t)(q - 1) * (size_t)sw, all + (size_t)q * nall / (size_t)P * (size_t)sw,
                 sw);
    pc_free(all);
    return sp;
}

void *sam_sort_by(const sam_ctx *c, const sam_order *o, void *av, size_t m, size_t *mout)
{
    int P = c->np, G = o->groups > 1 ? o->groups : 1;
    size_t PG = (size_t)P * (size_t)G;
    uint32_t *a = av;
    size_t st = (size_t)o->words;
    *mout = m;
    uint64_t mm = m, M = 0;
    if (P > 1)
        MPI_Allreduce(&mm, &M, 1, MPI_UINT64_T, MPI_SUM, c->comm);
    if (M == 0 && G == 1) { /* one rank, one group: the local sort alone */
        double t = sam_prof_mark();
        size_t whole[2] = { 0, m };
        void *res = o->local_sort(c, av, m, whole);
        sam_prof_add(SAM_PH_LOCAL_SORT, &t);
        return res;
    }
    if (PG > 65535)
        sam_die(c, "at most %d ranks", 65535 / G);
    double tp = sam_prof_mark();
    uint32_t *sp = P > 1 ? splitters(c, o, a, m, M) : NULL;
    sam_prof_add(SAM_PH_SPLITTERS, &tp);
    int T = m < SAM_PAR_MIN ? 1 : c->threads;
    uint16_t *dest = sam_alloc(c, m + 1, sizeof *dest, "bucket numbers");
    size_t hs = pc_thread_stride(PG, sizeof(size_t)); /* apart: see pc_alloc.h */
    size_t *hist = sam_alloc(c, (size_t)T * hs + 1, sizeof *hist, "bucket counts");
    /* per (rank q, group g) at q G + g: send counts, send offsets, receive
     * counts; then per group g, its P receive offsets at rdis + g P and
     * its P send counts and offsets at sg + g P, sgd + g P */
    int *cnt = sam_alloc(c, 6 * PG + (size_t)G + 1, sizeof(int), "exchange counts");
    uint32_t *sbuf = sam_alloc(c, (m + 1) * st, sizeof *sbuf, "the sample sort send buffer");
    int *scnt = cnt, *rcnt = cnt + PG, *rdis = cnt + 2 * PG, *sg = cnt + 3 * PG,
        *sgd = cnt + 4 * PG, *rg = cnt + 5 * PG;
#pragma omp parallel num_threads(T)
    {
        int t = omp_get_thread_num(), nt = omp_get_num_threads();
        size_t b = m * (size_t)t / (size_t)nt, e = m * (size_t)(t + 1) / (size_t)nt;
        size_t *h = hist + (size_t)t * hs;
        memset(h, 0, sizeof *h * PG);
        o->buckets(sp, P - 1, a, b, e, (uint32_t)c->rank, dest, h);
#pragma omp barrier
#pragma omp single
        {
            /* the send buffer by group, then rank, then thread */
            size_t off = 0;
            for (int g = 0; g < G; g++)
                for (int q = 0; q < P; q++) {
                    size_t d = (size_t)q * (size_t)G + (size_t)g, first = off;
                    for (int u = 0; u < nt; u++) {
                        size_t x = hist[(size_t)u * hs + d];
                        hist[(size_t)u * hs + d] = off;
                        off += x;
                    }
                    scnt[d] = (int)(off - first);
                    sg[(size_t)g * (size_t)P + (size_t)q] = (int)(off - first);
                    sgd[(size_t)g * (size_t)P + (size_t)q] = (int)first;
                }
        }
        for (size_t i = b; i < e; i++)
            rec_copy(sbuf + h[dest[i]]++ * st, a + i * st, o->words);
    }
    pc_free(hist);
    pc_free(dest);
    pc_free(sp);
    pc_free(a);
    sam_prof_add(SAM_PH_BUCKETS, &tp);
    double tw = tp; /* the wait is part of the exchange: counted in both */
    MPI_Alltoall(scnt, G, MPI_INT, rcnt, G, MPI_INT, c->comm);
    sam_prof_add(SAM_PH_EX_WAIT, &tw);
    /* the receive buffer by group, then rank: group g is one stretch */
    size_t *group = sam_alloc(c, (size_t)G + 1, sizeof *group, "the group bounds");
    size_t ro = 0;
    for (int g = 0; g < G; g++) {
        group[g] = ro;
        for (int q = 0; q < P; q++) {
            size_t d = (size_t)q * (size_t)G + (size_t)g;
            rdis[(size_t)g * (size_t)P + (size_t)q] = (int)ro;
            rg[(size_t)g * (size_t)P + (size_t)q] = rcnt[d];
            ro += (size_t)rcnt[d];
        }
    }
    group[G] = ro;
    uint32_t *r = sam_alloc(c, (ro + 1) * st, sizeof *r, "the sample sort receive buffer");
    for (int g = 0; g < G; g++) {
        size_t k = (size_t)g * (size_t)P;
        MPI_Alltoallv(sbuf, sg + k, sgd + k, o->type, r, rg + k, rdis + k, o->type, c->comm);
    }
    pc_free(sbuf);
    pc_free(cnt);
    *mout = ro;
    sam_prof_add(SAM_PH_EXCHANGE, &tp);
    void *res = o->local_sort(c, r, ro, group);
    pc_free(group);
    sam_prof_add(SAM_PH_LOCAL_SORT, &tp);
    return res;
}
