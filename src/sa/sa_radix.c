/* sa_radix.c - the sorts under the prefix doubling: the first stage shared
 * by seq and omp (packed k-byte keys, counting sort on the top digit, MSD
 * radix sort of each bucket), a parallel LSD radix sort on the key half of
 * packed words, and an in-place quicksort for one group (omp). */
#include "sa_radix.h"

#include "pc_alloc.h"

#include <string.h>
#ifdef _OPENMP
#include "pc_omp.h"
#endif

/* The size of the current team and this thread's number in it. */
static inline void team_me(int *nt, int *t)
{
#ifdef _OPENMP
    *nt = omp_get_num_threads();
    *t = omp_get_thread_num();
#else
    *nt = 1;
    *t = 0;
#endif
}

void sa_radix_sort_hi(uint64_t *a, uint64_t *tmp, int64_t m, int keybits, int threads,
                      int par, int64_t *hist)
{
    (void)par; /* read only by OpenMP pragmas: unused without OpenMP */
    enum { B = 1 << SA_RADIX_BITS };
    uint64_t *src = a, *dst = tmp;
    if (threads < 1)
        threads = 1;
    for (int shift = 32; shift < 32 + keybits; shift += SA_RADIX_BITS) {
        int skip = 0;
#pragma omp parallel num_threads(threads) if (par)
        {
            int nt, t;
            team_me(&nt, &t);
            int64_t lo = m * t / nt, hi = m * (t + 1) / nt;
            int64_t *h = hist + (int64_t)t * B;
            memset(h, 0, sizeof(int64_t) * B);
            for (int64_t i = lo; i < hi; i++)
                h[(src[i] >> shift) & (B - 1)]++;
#pragma omp barrier
#pragma omp single
            {
                /* a digit shared by every word orders nothing: skip it */
                int64_t sum = 0;
                for (int d = 0; d < B; d++) {
                    int64_t tot = 0;
                    for (int u = 0; u < nt; u++)
                        tot += hist[(int64_t)u * B + d];
                    if (tot == m)
                        skip = 1;
                    for (int u = 0; u < nt; u++) {
                        int64_t c = hist[(int64_t)u * B + d];
                        hist[(int64_t)u * B + d] = sum;
                        sum += c;
                    }
                }
            }
            if (!skip)
                for (int64_t i = lo; i < hi; i++)
                    dst[h[(src[i] >> shift) & (B - 1)]++] = src[i];
        }
        if (!skip) {
            uint64_t *x = src;
            src = dst;
            dst = x;
        }
    }
    if (src != a) {
#pragma omp parallel for schedule(static) num_threads(threads) if (par)
        for (int64_t i = 0; i < m; i++)
            a[i] = src[i];
    }
}

static void sort_insertion(uint64_t *a, int64_t m)
{
    for (int64_t i = 1; i < m; i++) {
        uint64_t v = a[i];
        int64_t j = i;
        for (; j > 0 && a[j - 1] > v; j--)
            a[j] = a[j - 1];
        a[j] = v;
    }
}

static inline uint64_t med3(uint64_t x, uint64_t y, uint64_t z)
{
    return x < y ? (y < z ? y : (x < z ? z : x)) : (x < z ? x : (y < z ? z : y));
}

static void sift_down(uint64_t *a, int64_t i, int64_t m)
{
    for (;;) {
        int64_t c = 2 * i + 1;
        if (c >= m)
            return;
        if (c + 1 < m && a[c + 1] > a[c])
            c++;
        if (a[i] >= a[c])
            return;
        uint64_t x = a[i];
        a[i] = a[c];
        a[c] = x;
        i = c;
    }
}

static void sort_heap(uint64_t *a, int64_t m)
{
    for (int64_t i = m / 2; i-- > 0;)
        sift_down(a, i, m);
    for (int64_t e = m - 1; e > 0; e--) {
        uint64_t x = a[0];
        a[0] = a[e];
        a[e] = x;
        sift_down(a, 0, e);
    }
}

/* Introsort: values are distinct (the low half is a suffix index), so a
 * two-way partition around a median of three (ninther for large m) is
 * safe; periodic texts produce key patterns that defeat any fixed pivot
 * rule, hence the depth limit with heapsort behind it. Recursing into the
 * smaller side bounds the stack to log m. */
static void sort_intro(uint64_t *a, int64_t m, int depth)
{
    while (m > 24) {
        if (depth-- <= 0) {
            sort_heap(a, m);
            return;
        }
        uint64_t p;
        if (m > 256) {
            int64_t s = m / 8;
            p = med3(med3(a[0], a[s], a[2 * s]), med3(a[3 * s], a[m / 2], a[5 * s]),
                     med3(a[6 * s], a[7 * s], a[m - 1]));
        } else {
            p = med3(a[0], a[m / 2], a[m - 1]);
        }
        int64_t i = 0, j = m - 1;
        for (;;) {
            while (a[i] < p)
                i++;
            while (a[j] > p)
                j--;
            if (i >= j)
                break;
            uint64_t x = a[i];
            a[i] = a[j];
            a[j] = x;
            i++;
            j--;
        }
        /* [0, j] <= p <= [j+1, m) */
        int64_t left = j + 1;
        if (left < m - left) {
            sort_intro(a, left, depth);
            a += left;
            m -= left;
        } else {
            sort_intro(a + left, m - left, depth);
            m = left;
        }
    }
    sort_insertion(a, m);
}

void sa_sort_u64(uint64_t *a, int64_t m)
{
    int depth = 0;
    for (int64_t x = m; x > 1; x >>= 1)
        depth += 2;
    sort_intro(a, m, depth);
}

/* The first stage. RDIG: bits of a radix digit at most; SCR: entries of
 * the per-thread scratch under which a range is sorted out of place;
 * SMALL: insertion sort below. MAX_K bounds the bytes of a key (a text of
 * one or two symbols would otherwise read 32 to 64 bytes per suffix). */
#ifndef SA_TOPB
#define SA_TOPB 12
#endif
enum { MAX_K = 24, RDIG = 16, NDIG = 1 << RDIG, TOPB = SA_TOPB, NTOP = 1 << TOPB, SCR = 1 << 15,
       SMALL = 24 };

typedef struct radix_scratch {
    int32_t *count, *next; /* ndig + 1 counters each */
    uint64_t *skey;        /* scr keys and values */
    int32_t *sval;
    int64_t scr;
} radix_scratch;

static void pairs_insertion(uint64_t *key, int32_t *v, int64_t m)
{
    for (int64_t i = 1; i < m; i++) {
        uint64_t k = key[i];
        int32_t x = v[i];
        int64_t j = i;
        for (; j > 0 && key[j - 1] > k; j--) {
            key[j] = key[j - 1];
            v[j] = v[j - 1];
        }
        key[j] = k;
        v[j] = x;
    }
}

/* Sorts the pairs (key[i], v[i]) of [0, m) by the key bits below shift
 * (the bits above are equal): MSD radix sort, one digit of about log2(m)
 * bits per level, out of place through the scratch for short ranges and
 * in place (American flag cycles) for long ones, insertion sort at the
 * bottom. Depth <= 64 / 4 levels. */
static void pairs_radix_sort(radix_scratch *rx, uint64_t *key, int32_t *v, int64_t m, int shift)
{
    if (m <= SMALL) {
        pairs_insertion(key, v, m);
        return;
    }
    /* Start at the highest bit in which the keys differ: on repetitive
     * text a bucket holds long runs of equal keys, which would otherwise
     * be counted and copied once per digit all the way down. */
    uint64_t diff = 0;
    for (int64_t i = 1; i < m; i++)
        diff |= key[i] ^ key[0];
    if (shift < 64)
        diff &= ((uint64_t)1 << shift) - 1;
    if (!diff)
        return; /* all equal: ties stay in any order */
    shift = 64 - __builtin_clzll(diff);
    int dbits = 4;
    while (dbits < RDIG && ((int64_t)1 << dbits) < m)
        dbits++;
    dbits = dbits > shift ? shift : dbits;
    int sh = shift - dbits;
    int32_t nd = 1 << dbits, *count = rx->count, *next = rx->next;
    uint64_t mask = (uint64_t)nd - 1;
    memset(count, 0, sizeof(int32_t) * (size_t)(nd + 1));
    for (int64_t i = 0; i < m; i++)
        count[((key[i] >> sh) & mask) + 1]++;
    for (int32_t d = 0; d < nd; d++)
        count[d + 1] += count[d];
    if (m <= rx->scr) {
        for (int64_t i = 0; i < m; i++) {
            int32_t j = count[(key[i] >> sh) & mask]++;
            rx->skey[j] = key[i];
            rx->sval[j] = v[i];
        }
        memcpy(key, rx->skey, sizeof *key * (size_t)m);
        memcpy(v, rx->sval, sizeof *v * (size_t)m);
    } else {
        /* count[d] = start of digit d, next[d] = its first unplaced slot */
        memcpy(next, count, sizeof(int32_t) * (size_t)nd);
        for (int32_t d = 0; d < nd; d++)
            while (next[d] < count[d + 1]) {
                uint64_t k = key[next[d]];
                int32_t x = v[next[d]];
                int32_t e;
                while ((e = (int32_t)((k >> sh) & mask)) != d) {
                    int32_t j = next[e]++;
                    uint64_t k2 = key[j];
                    int32_t x2 = v[j];
                    key[j] = k;
                    v[j] = x;
                    k = k2;
                    x = x2;
                }
                key[next[d]] = k;
                v[next[d]] = x;
                next[d]++;
            }
    }
    /* the runs of one digit, found again from the keys since count is
     * shared by the levels */
    for (int64_t i = 0; i < m;) {
        uint64_t d = key[i] >> sh;
        int64_t e = i + 1;
        while (e < m && key[e] >> sh == d)
            e++;
        if (e - i > 1)
            pairs_radix_sort(rx, key + i, v + i, e - i, sh);
        i = e;
    }
}

/* Keys: the first k byte codes of a suffix as the digits of a number in
 * base P = sigma + 1 (0 past the end), the first the most significant, so
 * that numeric order is the order of the k-prefixes and the values fill
 * [0, P^k) evenly; pk1 = P^(k - 1). */
typedef struct key_code {
    uint16_t code[256];
    uint64_t P, pk1;
    int k;
} key_code;

static inline uint64_t key_digit(const key_code *kc, const uint8_t *T, int32_t n, int64_t i)
{
    return i < n ? kc->code[T[i]] : 0;
}

static uint64_t key_at(const key_code *kc, const uint8_t *T, int32_t n, int64_t i)
{
    uint64_t key = 0;
    for (int t = 0; t < kc->k; t++)
        key = key * kc->P + key_digit(kc, T, n, i + t);
    return key;
}

/* The key of i + 1 from the key of i (multiplications only). */
static inline uint64_t key_roll(const key_code *kc, const uint8_t *T, int32_t n, uint64_t key,
                                int64_t i)
{
    return (key - key_digit(kc, T, n, i) * kc->pk1) * kc->P + key_digit(kc, T, n, i + kc->k);
}

/* The first stage's state, shared by the threads; each phase below is
 * the work of thread t of tn, so that the serial path runs the same code
 * without entering the OpenMP runtime. */
typedef struct first_stage {
    const uint8_t *T;
    int32_t n;
    int32_t *SA;
    uint64_t *key;
    key_code kc;
    int top;
    int32_t *hist, *bstart, ntop, ndig;
    uint64_t *skey;
    int64_t scr;
    size_t per;
} first_stage;

/* Flags, in thread t's counters, the byte values of its block of text. */
static void first_seen(first_stage *fs, int t, int tn)
{
    int32_t *seen = fs->hist + (int64_t)t * fs->ntop;
    memset(seen, 0, sizeof(int32_t) * 256);
    for (int64_t i = (int64_t)fs->n * t / tn; i < (int64_t)fs->n * (t + 1) / tn; i++)
        seen[fs->T[i]] = 1;
}

/* The alphabet: byte codes 1..sigma in byte order from the flags of tn
 * threads; P, k and the top digit's shift from it. */
static void first_alphabet(first_stage *fs, int tn)
{
    key_code *kc = &fs->kc;
    uint16_t *code = kc->code;
    memset(code, 0, sizeof kc->code);
    for (int c = 0; c < 256; c++)
        for (int u = 0; u < tn; u++)
            code[c] |= (uint16_t)fs->hist[(int64_t)u * fs->ntop + c];
    int sigma = 0;
    for (int c = 0; c < 256; c++)
        if (code[c])
            code[c] = (uint16_t)++sigma;
    kc->P = (uint64_t)sigma + 1;
    kc->pk1 = 1;
    kc->k = 1;
    while (kc->k < MAX_K && kc->pk1 * kc->P <= UINT64_MAX / kc->P) {
        kc->pk1 *= kc->P;
        kc->k++;
    }
    /* the top digit: the highest topb bits that keys can have */
    uint64_t maxkey = kc->pk1 * kc->P - 1;
    int topb = __builtin_ctz((unsigned)fs->ntop);
    fs->top = 64 - __builtin_clzll(maxkey) - topb;
    fs->top = fs->top < 0 ? 0 : fs->top;
}

/* Thread t counts the top digits of the keys of its block of text
 * positions, rolled forwards (the key of i + 1 from the key of i);
 * returns the key of the block's first position. */
static uint64_t first_count(first_stage *fs, int t, int tn)
{
    int64_t lo = (int64_t)fs->n * t / tn, hi = (int64_t)fs->n * (t + 1) / tn;
    int32_t *h = fs->hist + (int64_t)t * fs->ntop;
    memset(h, 0, sizeof(int32_t) * (size_t)fs->ntop);
    uint64_t k0 = lo < hi ? key_at(&fs->kc, fs->T, fs->n, lo) : 0, kk = k0;
    for (int64_t i = lo; i < hi; kk = key_roll(&fs->kc, fs->T, fs->n, kk, i), i++)
        h[kk >> fs->top]++;
    return k0;
}

/* Bucket starts, and each thread's first slot in every bucket. */
static void first_offsets(first_stage *fs, int tn)
{
    int64_t sum = 0;
    for (int32_t d = 0; d < fs->ntop; d++) {
        fs->bstart[d] = (int32_t)sum;
        for (int u = 0; u < tn; u++) {
            int32_t c = fs->hist[(int64_t)u * fs->ntop + d];
            fs->hist[(int64_t)u * fs->ntop + d] = (int32_t)sum;
            sum += c;
        }
    }
    fs->bstart[fs->ntop] = (int32_t)sum;
}

/* Thread t scatters the (key, position) pairs of its block. */
static void first_scatter(first_stage *fs, int t, int tn, uint64_t k0)
{
    int64_t lo = (int64_t)fs->n * t / tn, hi = (int64_t)fs->n * (t + 1) / tn;
    int32_t *h = fs->hist + (int64_t)t * fs->ntop;
    uint64_t kk = k0;
    for (int64_t i = lo; i < hi; kk = key_roll(&fs->kc, fs->T, fs->n, kk, i), i++) {
        int32_t j = h[kk >> fs->top]++;
        fs->SA[j] = (int32_t)i;
        fs->key[j] = kk;
    }
}

/* Thread t's counters and scratch for the radix sort of the buckets. */
static radix_scratch first_scratch(const first_stage *fs, int t)
{
    int32_t *mine = fs->bstart + fs->ntop + 1 + (size_t)t * fs->per;
    radix_scratch rx = { mine, mine + fs->ndig + 1, fs->skey + (size_t)t * (size_t)fs->scr,
                         mine + 2 * (fs->ndig + 1), fs->scr };
    return rx;
}

/* Sorts bucket d of the top digit by the key bits below it. */
static void first_bucket(const first_stage *fs, radix_scratch *rx, int32_t d)
{
    int32_t b = fs->bstart[d], m = fs->bstart[d + 1] - b;
    if (m > 1)
        pairs_radix_sort(rx, fs->key + b, fs->SA + b, m, fs->top);
}

int sa_initial_sort(const uint8_t *T, int32_t n, int32_t *SA, uint64_t *key, int threads,
                    int *kout, pc_error *err)
{
    /* Below 65536 suffixes one thread does it all, and without entering
     * the OpenMP runtime: under libomp a parallel region with a false if
     * clause, or an orphaned worksharing loop, costs 4 to 15 us. */
    int par = threads > 1 && n >= 65536;
    int nt = par ? threads : 1;
    /* The scratch is sized by n, so that a short text does not pay for
     * (allocate, clear, scan) the 0.95 MB that a long one needs: no range
     * is longer than n, so scr = min(n, SCR) keeps every range under the
     * out-of-place limit it had; a range of m entries takes a digit of at
     * most max(16, 2^ceil(log2 m)) values; and top digits of about log2 n
     * bits (at least 8: the alphabet pass uses 256 of them) put a handful
     * of suffixes in each bucket, as 12 bits do for n around 4096. */
    int topb = 8;
    while (topb < TOPB && ((int64_t)1 << topb) < n)
        topb++;
    first_stage fs = { .T = T, .n = n, .SA = SA, .key = key, .ntop = (int32_t)1 << topb,
                       .ndig = 16, .scr = n < SCR ? n : SCR };
    while (fs.ndig < NDIG && fs.ndig < n)
        fs.ndig *= 2;
    /* one block: per thread scr scratch keys, then the counters (ntop per
     * thread), bucket starts and per thread count, next and scr values */
    fs.per = 2 * ((size_t)fs.ndig + 1) + (size_t)fs.scr;
    fs.skey = pc_malloc_array((size_t)nt * (size_t)fs.scr * 2 + (size_t)nt * (size_t)fs.ntop +
                                  (size_t)fs.ntop + 1 + (size_t)nt * fs.per,
                              sizeof(int32_t));
    if (!fs.skey)
        return pc_error_nomem(err, "sorting suffixes (first stage)");
    fs.hist = (int32_t *)(fs.skey + (size_t)nt * (size_t)fs.scr);
    fs.bstart = fs.hist + (size_t)nt * (size_t)fs.ntop;
    if (!par) {
        first_seen(&fs, 0, 1);
        first_alphabet(&fs, 1);
        uint64_t k0 = first_count(&fs, 0, 1);
        first_offsets(&fs, 1);
        first_scatter(&fs, 0, 1, k0);
        radix_scratch rx = first_scratch(&fs, 0);
        for (int32_t d = 0; d < fs.ntop; d++)
            first_bucket(&fs, &rx, d);
    } else {
#pragma omp parallel num_threads(nt)
        {
            int tn, t;
            team_me(&tn, &t);
            first_seen(&fs, t, tn);
#pragma omp barrier
#pragma omp single
            first_alphabet(&fs, tn);
            /* the implicit barrier of single publishes kc and top */
            uint64_t k0 = first_count(&fs, t, tn);
#pragma omp barrier
#pragma omp single
            first_offsets(&fs, tn);
            first_scatter(&fs, t, tn, k0);
#pragma omp barrier
            /* the buckets of the top digit, spread over the threads */
            radix_scratch rx = first_scratch(&fs, t);
#pragma omp for schedule(dynamic, 16)
            for (int32_t d = 0; d < fs.ntop; d++)
                first_bucket(&fs, &rx, d);
        }
    }
    *kout = fs.kc.k;
    pc_free(fs.skey);
    return PC_OK;
}
