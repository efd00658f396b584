/* sa_radix.c - the sorts under the prefix doubling: the first stage shared
 * by seq and omp (packed k-byte keys, counting sort on the top digit, MSD
 * radix sort of each bucket), a parallel LSD radix sort on the key half of
 * packed words, and an in-place quicksort for one group (omp). */
#include "sa_radix.h"

#include "pc_alloc.h"

#include <string.h>
#ifdef _OPENMP
#include <omp.h>
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
    int32_t *count, *next; /* NDIG + 1 counters each */
    uint64_t *skey;        /* SCR keys and values */
    int32_t *sval;
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
    if (shift <= 0)
        return;
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
    if (m <= SCR) {
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

int sa_initial_sort(const uint8_t *T, int32_t n, int32_t *SA, uint64_t *key, int threads,
                    int *kout, pc_error *err)
{
    int par = threads > 1 && n >= 65536;
    int nt = par ? threads : 1;
    /* one block: per thread SCR scratch keys, then the counters (NDIG per
     * thread), bucket starts and per thread count, next and SCR values */
    size_t per = 2 * (NDIG + 1) + SCR;
    uint64_t *skey = pc_malloc_array((size_t)nt * SCR * 2 + (size_t)nt * NTOP + NTOP + 1 +
                                         (size_t)nt * per, sizeof(int32_t));
    int ok = skey != NULL;
    int32_t *hist = ok ? (int32_t *)(skey + (size_t)nt * SCR) : NULL;
    int32_t *bstart = ok ? hist + (size_t)nt * NTOP : NULL;
    if (ok) {
        key_code kc = { .code = { 0 } };
        uint16_t *code = kc.code;
        /* the alphabet: per-thread flags in the counters, then merged */
#pragma omp parallel num_threads(nt) if (par)
        {
            int tn, t;
            team_me(&tn, &t);
            int32_t *seen = hist + (int64_t)t * NTOP;
            memset(seen, 0, sizeof(int32_t) * 256);
            for (int64_t i = (int64_t)n * t / tn; i < (int64_t)n * (t + 1) / tn; i++)
                seen[T[i]] = 1;
#pragma omp barrier
#pragma omp single
            for (int c = 0; c < 256; c++)
                for (int u = 0; u < tn; u++)
                    code[c] |= (uint16_t)hist[(int64_t)u * NTOP + c];
        }
        int sigma = 0;
        for (int c = 0; c < 256; c++)
            if (code[c])
                code[c] = (uint16_t)++sigma;
        kc.P = (uint64_t)sigma + 1;
        kc.pk1 = 1;
        kc.k = 1;
        while (kc.k < MAX_K && kc.pk1 * kc.P <= UINT64_MAX / kc.P) {
            kc.pk1 *= kc.P;
            kc.k++;
        }
        /* the top digit: the highest TOPB bits that keys can have */
        uint64_t maxkey = kc.pk1 * kc.P - 1;
        int top = 64 - __builtin_clzll(maxkey) - TOPB;
        top = top < 0 ? 0 : top;
        *kout = kc.k;
        /* counting sort by the top digit: each thread rolls the keys of its
         * block of text positions forwards (the key of i + 1 from the key
         * of i), counts, then scatters (key, position) pairs */
#pragma omp parallel num_threads(nt) if (par)
        {
            int tn, t;
            team_me(&tn, &t);
            int64_t lo = (int64_t)n * t / tn, hi = (int64_t)n * (t + 1) / tn;
            int32_t *h = hist + (int64_t)t * NTOP;
            memset(h, 0, sizeof(int32_t) * NTOP);
            uint64_t k0 = lo < hi ? key_at(&kc, T, n, lo) : 0, kk = k0;
            for (int64_t i = lo; i < hi; kk = key_roll(&kc, T, n, kk, i), i++)
                h[kk >> top]++;
#pragma omp barrier
#pragma omp single
            {
                int64_t sum = 0;
                for (int d = 0; d < NTOP; d++) {
                    bstart[d] = (int32_t)sum;
                    for (int u = 0; u < tn; u++) {
                        int32_t c = hist[(int64_t)u * NTOP + d];
                        hist[(int64_t)u * NTOP + d] = (int32_t)sum;
                        sum += c;
                    }
                }
                bstart[NTOP] = (int32_t)sum;
            }
            kk = k0;
            for (int64_t i = lo; i < hi; kk = key_roll(&kc, T, n, kk, i), i++) {
                int32_t j = h[kk >> top]++;
                SA[j] = (int32_t)i;
                key[j] = kk;
            }
#pragma omp barrier
            /* the buckets of the top digit, spread over the threads */
            int32_t *mine = bstart + NTOP + 1 + (size_t)t * per;
            radix_scratch rx = { mine, mine + NDIG + 1, skey + (size_t)t * SCR,
                                 mine + 2 * (NDIG + 1) };
#pragma omp for schedule(dynamic, 16)
            for (int d = 0; d < NTOP; d++)
                if (bstart[d + 1] - bstart[d] > 1)
                    pairs_radix_sort(&rx, key + bstart[d], SA + bstart[d],
                                     bstart[d + 1] - bstart[d], top);
        }
    }
    pc_free(skey);
    return ok ? PC_OK : pc_error_nomem(err, "sorting suffixes (first stage)");
}
