/* sa_sais_hash.h - the first step of the byte level of sais without
 * induced sorting: the LMS substrings of a byte text named by hashing.
 * Included once by sa_sais.c after sa_sais_level.h (it uses the byte
 * level's type_at and the context of a construction).
 *
 * Why: on text the byte level's LMS substrings are few and short (32 MB
 * of English: 10 million of them, 38 thousand distinct up to 16 bytes,
 * 17 thousand longer), yet sorting them by induction costs two passes
 * over SA with a random text read per entry, and naming them compares
 * neighbours at random places: a third of a one-thread construction, and
 * the part that threads shared worst. A hash table of the distinct ones
 * stays in the cache; the text is read in order, in one part per thread.
 *
 * The order. An LMS substring is compared by (symbol, type) pairs, L
 * below S. For two distinct ones, that is the order of their bytes
 * followed by an end above every byte: where the bytes first differ it is
 * theirs; where one ends inside the other, the other's type there is L
 * (an S after an L would be LMS and end it), which the end above every
 * byte reproduces. And no LMS substring is a proper prefix of another.
 * The last one runs into the virtual sentinel, below every byte; it is
 * given its bytes, then the sentinel, as its symbols.
 *
 * Short substrings (at most 16 bytes) are keyed by their bytes padded
 * with 0xff as two big-endian words: equal keys are equal substrings and
 * the key order is the substring order (a padded 0xff never ties with a
 * longer one: its last byte, LMS, is below the byte before it). Longer
 * ones, the last of each part and those near the end of the text are
 * "long": kept aside and compared byte by byte. The parts share one
 * table (open addressing; a thread claims an empty slot by compare and
 * swap, writes the key, then publishes its id): one table per part held
 * the same keys 16 times over at 16 threads, and the 350 thousand of a
 * random megabyte repeated did not fit them. The table's keys, sorted,
 * and the long ones, sorted, are merged into the names.
 *
 * It declines (returns 0, and level() sorts by induction as before) when
 * the text has more distinct keyed substrings than n / 128 (random bytes,
 * where the table would not stay in the cache anyway) or a part more long
 * ones than 1 in 64 of its positions: the byte-by-byte comparisons then
 * cost more than the passes they replace. */

/* Whether the byte level names by hashing; sa_sais_test_hash sets it. The
 * limits above make the table (at least half empty, 24 bytes a slot) at
 * most 0.75n bytes and the merge's arrays at most 1.6n: the construction
 * stays within 9n. */
static int g_sais_hash_mode = 1; /* 0: off, 1: on; the tests: 2 tiny limits, 3 no distinct limit */
static int32_t g_sais_hash_named, g_sais_hash_declined; /* byte levels, for the tests */

void sa_sais_test_hash(int mode) { g_sais_hash_mode = mode; }

void sa_sais_test_hash_counts(int32_t *named, int32_t *declined)
{
    *named = g_sais_hash_named;
    *declined = g_sais_hash_declined;
    g_sais_hash_named = g_sais_hash_declined = 0;
}

typedef struct sais_hslot {
    uint64_t hi, lo;
    int32_t id; /* -1: empty, -2: claimed, its key being written */
    int32_t pad;
} sais_hslot;

/* The table the parts share, and the representatives of its keys. */
typedef struct sais_htab {
    sais_hslot *slot; /* 2^log slots */
    int log;
    int32_t used, lim; /* ids given out (atomic), and the most allowed */
    int32_t *rep;      /* rep[2 id], rep[2 id + 1]: a position and length of id */
    int full;          /* 1 once an id at or past lim was given (atomic) */
} sais_htab;

/* What one part of the text found. Its stretch of SA holds, for each LMS
 * position of the part in text order, its key's id in the shared table
 * (>= 0) or ~(its index in the part's long list). */
typedef struct sais_hpart {
    int32_t plo, phi;   /* positions [plo, phi) */
    int32_t count;      /* LMS positions in the part */
    int32_t first;      /* the leftmost one, -1 when none */
    int fail;           /* 1: over a limit */
    int32_t *lpos, *llen; /* long items: position and length; lpos becomes the name */
    int32_t nlong, long_cap;
} sais_hpart;

/* A short or long item while they are sorted and merged. */
typedef struct sais_hitem {
    uint64_t hi, lo;  /* the key (short) */
    int32_t pos, len; /* a position and the length (len > n - pos: runs into the sentinel) */
    int32_t part, id; /* where its name goes: gname[id] of a short, lpos[id] of part's long */
} sais_hitem;

/* Symbol j of the substring at pos of length len: its byte, the sentinel
 * (-1) one past the text, and 256 (the end) past len. */
static int sais_hsym(const uint8_t *T, int32_t n, int32_t pos, int32_t len, int32_t j)
{
    if (j >= len)
        return 256;
    return pos + j < n ? T[pos + j] : -1;
}

/* Compares two LMS substrings (position, length) in the order above. */
static int sais_hcmp(const uint8_t *T, int32_t n, int32_t pa, int32_t la, int32_t pb, int32_t lb)
{
    for (int32_t j = 0;; j++) {
        int a = sais_hsym(T, n, pa, la, j), b = sais_hsym(T, n, pb, lb, j);
        if (a != b)
            return a < b ? -1 : 1;
        if (a == 256 || a < 0)
            return 0; /* both ended (or both reached the sentinel: the same substring) */
    }
}

/* The key of a substring of at most 16 bytes at pos. */
static void sais_hkey(const uint8_t *T, int32_t n, int32_t pos, int32_t len, uint64_t *hi,
                      uint64_t *lo)
{
    uint64_t w[2] = { ~(uint64_t)0, ~(uint64_t)0 };
    if (pos <= n - 16) {
        uint64_t a, b;
        memcpy(&a, T + pos, 8);
        memcpy(&b, T + pos + 8, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
        a = __builtin_bswap64(a);
        b = __builtin_bswap64(b);
#endif
        w[0] = len >= 8 ? a : a | (~(uint64_t)0 >> (8 * len));
        w[1] = len >= 16 ? b : len <= 8 ? ~(uint64_t)0 : b | (~(uint64_t)0 >> (8 * (len - 8)));
    } else {
        for (int32_t j = 0; j < len; j++) {
            uint64_t c = T[pos + j];
            int sh = 8 * (7 - (j & 7));
            w[j >> 3] = (w[j >> 3] & ~((uint64_t)0xff << sh)) | (c << sh);
        }
    }
    *hi = w[0];
    *lo = w[1];
}

static uint64_t sais_hhash(uint64_t hi, uint64_t lo)
{
    uint64_t x = hi ^ (lo * 0x9e3779b97f4a7c15ULL);
    x ^= x >> 31;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 29;
    return x;
}

/* The slot where the search for key (hi, lo) starts. */
static size_t sais_htab_home(const sais_htab *h, uint64_t hi, uint64_t lo)
{
    return (size_t)(sais_hhash(hi, lo) >> (64 - h->log));
}

/* The id of the key (hi, lo), whose home slot is home, in the shared table, the next id when it is
 * new (its representative, pos and len, then recorded); -1 when that id
 * is at or past the limit (the table is then marked full: the parts stop,
 * each after at most one such id, so the table, sized for lim + 64 parts
 * at half load, never fills). */
static int32_t sais_htab_get(sais_htab *h, uint64_t hi, uint64_t lo, size_t home, int32_t pos,
                             int32_t len)
{
    size_t mask = ((size_t)1 << h->log) - 1;
    for (size_t s = home;; s = (s + 1) & mask) {
        sais_hslot *e = &h->slot[s];
        int32_t id = __atomic_load_n(&e->id, __ATOMIC_ACQUIRE);
        if (id == -1) {
            if (__atomic_compare_exchange_n(&e->id, &id, -2, 0, __ATOMIC_ACQ_REL,
                                            __ATOMIC_ACQUIRE)) {
                e->hi = hi;
                e->lo = lo;
                id = __atomic_fetch_add(&h->used, 1, __ATOMIC_RELAXED);
                if (id < h->lim) {
                    h->rep[2 * (size_t)id] = pos;
                    h->rep[2 * (size_t)id + 1] = len;
                } else {
                    __atomic_store_n(&h->full, 1, __ATOMIC_RELAXED);
                }
                __atomic_store_n(&e->id, id, __ATOMIC_RELEASE);
                return id < h->lim ? id : -1;
            }
        }
        for (int spins = 0; id == -2; id = __atomic_load_n(&e->id, __ATOMIC_ACQUIRE))
            pc_spin_pause(&spins); /* another thread writes this slot's key */
        if (e->hi == hi && e->lo == lo)
            return id < h->lim ? id : -1;
    }
}

/* Where part t of a parallel scan, len entries long, starts
 * (it wraps around to the part's start): the golden ratio's multiples of
 * len, so that no two threads meet the same offset of a periodic text at
 * once. On a text repeated at the threads' stride (a periodic text cut
 * into equal parts) the threads would otherwise meet the same new keys of
 * the naming table in step, all but one waiting for each to be written. */
static int32_t sais_hstagger(int t, int32_t len)
{
    uint32_t f = (uint32_t)t * 0x9e3779b9u;
    return (int32_t)(((uint64_t)len * f) >> 32);
}

/* Replaces the LMS positions P[k0..k1) of part h by their ids or long
 * indexes; pend is the LMS position after P[k1 - 1] (-1: none, that
 * substring is the part's last, its length known later). Returns 0, or -1
 * when over a limit (h->fail set). The table is larger than the caches
 * and its slots are met at random: the key of the substring SAIS_HPF
 * ahead is made (its bytes were prefetched SAIS_HPF before that) and its
 * home slot prefetched, the key kept in a ring until its turn. */
static int sais_hlookup(const uint8_t *T, int32_t n, int32_t *P, int32_t k0, int32_t k1,
                        int32_t pend, sais_hpart *h, sais_htab *tab)
{
    enum { SAIS_HPF = 8 };
    uint64_t rhi[SAIS_HPF], rlo[SAIS_HPF];
    size_t rhome[SAIS_HPF];
#define SAIS_HLEN(k) ((k) + 1 < k1 ? P[(k) + 1] - P[k] + 1 : pend >= 0 ? pend - P[k] + 1 : 0)
    for (int32_t k = k0; k < k1; k++) {
        __builtin_prefetch(&T[P[k + 2 * SAIS_HPF < k1 ? k + 2 * SAIS_HPF : k1 - 1]]);
        for (int32_t a = k == k0 ? k0 : k + SAIS_HPF - 1; a < k + SAIS_HPF && a < k1; a++) {
            int32_t la = SAIS_HLEN(a);
            if (la > 0 && la <= 16) {
                sais_hkey(T, n, P[a], la, &rhi[a % SAIS_HPF], &rlo[a % SAIS_HPF]);
                rhome[a % SAIS_HPF] = sais_htab_home(tab, rhi[a % SAIS_HPF], rlo[a % SAIS_HPF]);
                __builtin_prefetch(&tab->slot[rhome[a % SAIS_HPF]]);
            }
        }
        int32_t p = P[k], len = SAIS_HLEN(k);
        int32_t v;
        if (len > 0 && len <= 16) {
            v = sais_htab_get(tab, rhi[k % SAIS_HPF], rlo[k % SAIS_HPF], rhome[k % SAIS_HPF], p,
                              len);
            if (v < 0 || ((k & 1023) == 0 && __atomic_load_n(&tab->full, __ATOMIC_RELAXED))) {
                h->fail = 1;
                return -1;
            }
        } else { /* longer, or the part's last (its length is known later) */
            if (h->nlong >= h->long_cap) {
                h->fail = 1;
                return -1;
            }
            h->lpos[h->nlong] = p;
            h->llen[h->nlong] = len; /* 0: the part's last */
            v = ~h->nlong;
            h->nlong++;
        }
        P[k] = v;
    }
#undef SAIS_HLEN
    return 0;
}

/* Scans part h (the part-th) of T: its LMS positions in text order to
 * SA[phi/2 - count .. phi/2) (at most (phi - plo) / 2 of them: they are 2
 * apart, and the last position of the text is L), then each replaced by
 * its id or long index. Sets h->fail when over a limit (or when another
 * part is). The lookups start at a staggered place in the part (see
 * sais_hstagger): on a periodic text every part would otherwise meet the
 * same new keys at once, and all but one thread wait for each to be
 * written. */
static void sais_hscan(const uint8_t *T, int32_t n, int32_t *SA, sais_hpart *h, int part,
                       sais_htab *tab)
{
    int32_t plo = h->plo, phi = h->phi, top = phi / 2, base = plo / 2, j = top, spare;
    h->count = 0;
    h->first = -1;
    if (phi - plo < 2) /* nothing, or the text's last position, which is L */
        return;
    /* positions right to left, each written at SA[j-1] and kept when LMS
     * (no branch); once the region is full, only positions that are not
     * LMS remain, and they go to a spare entry instead of the part below */
    int sn = sais_type_at_u8(T, n, phi - 1);
    for (int32_t i = phi - 2; i >= (plo > 0 ? plo - 1 : 0); i--) {
        int s = T[i] < T[i + 1] + sn;
        *(j > base ? &SA[j - 1] : &spare) = i + 1;
        j -= sn > s;
        sn = s;
    }
    int32_t *P = SA + j, cnt = top - j;
    h->count = cnt;
    if (cnt == 0)
        return;
    h->first = P[0];
    int32_t mid = sais_hstagger(part, cnt), pmid = P[mid];
    if (sais_hlookup(T, n, P, mid, cnt, -1, h, tab) == 0)
        sais_hlookup(T, n, P, 0, mid, pmid, h, tab);
}

static int sais_hitem_key_cmp(const void *a, const void *b)
{
    const sais_hitem *x = a, *y = b;
    if (x->hi != y->hi)
        return x->hi < y->hi ? -1 : 1;
    return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* Sorts the short items it[0..k) by key (tmp: k items of scratch), on nt
 * threads: distributed by the key's top SAIS_HSORT_BITS bits, then each
 * bucket sorted by qsort, the buckets shared out among the threads (the
 * serial qsort of the 350 thousand keys of a random megabyte repeated was
 * a fifth of a 16-thread construction). */
enum { SAIS_HSORT_BITS = 12 };
static void sais_hsort_keys(sais_hitem *it, sais_hitem *tmp, size_t k, int nt)
{
    size_t at[(1 << SAIS_HSORT_BITS) + 1] = { 0 };
    (void)nt; /* read only by the pragma */
    for (size_t i = 0; i < k; i++)
        at[(it[i].hi >> (64 - SAIS_HSORT_BITS)) + 1]++;
    for (int b = 0; b < 1 << SAIS_HSORT_BITS; b++)
        at[b + 1] += at[b];
    for (size_t i = 0; i < k; i++) /* at[b] ends as bucket b + 1's start */
        tmp[at[it[i].hi >> (64 - SAIS_HSORT_BITS)]++] = it[i];
#pragma omp parallel for num_threads(nt) if (nt > 1 && k >= 65536) schedule(dynamic, 64)
    for (int b = 0; b < 1 << SAIS_HSORT_BITS; b++) {
        size_t lo = b > 0 ? at[b - 1] : 0;
        qsort(tmp + lo, at[b] - lo, sizeof *tmp, sais_hitem_key_cmp);
        memcpy(it + lo, tmp + lo, (at[b] - lo) * sizeof *tmp);
    }
}

/* Compares two items in the order of their substrings. A short item's
 * key is its substring padded with 0xff; a long one of at least 17 bytes
 * at least 16 from the end carries its first 16 bytes as its key. Where
 * two such keys differ, the key order is the substrings' order: at the
 * first differing byte either both are real bytes, or one is a short
 * item's padding (it ended there, and the end is above every byte) facing
 * a real byte below 0xff. Where a short key ties with a long one, the
 * short one has ended first too. The rest (two long ones alike in 16
 * bytes, the short long ones near part ends and the text's end) are
 * compared byte by byte. */
static int sais_hitem_cmp(const uint8_t *T, int32_t n, const sais_hitem *a, const sais_hitem *b)
{
    int as = a->part < 0, bs = b->part < 0;
    int ak = as || (a->len >= 17 && a->pos <= n - 16), bk = bs || (b->len >= 17 && b->pos <= n - 16);
    if (ak && bk) {
        if (a->hi != b->hi)
            return a->hi < b->hi ? -1 : 1;
        if (a->lo != b->lo)
            return a->lo < b->lo ? -1 : 1;
        if (as != bs)
            return as ? 1 : -1;
        if (as)
            return 0;
    }
    return sais_hcmp(T, n, a->pos, a->len, b->pos, b->len);
}

/* Sorts the long items it[0..k) by sais_hitem_cmp: a merge sort whose passes
 * go from one buffer to the other (tmp: k items), the result copied back
 * into it when it ends in tmp. */
static void sais_hsort_long(const uint8_t *T, int32_t n, sais_hitem *it, sais_hitem *tmp, size_t k)
{
    sais_hitem *src = it, *dst = tmp;
    for (size_t w = 1; w < k; w *= 2) {
        for (size_t lo = 0; lo < k; lo += 2 * w) {
            size_t mid = lo + w < k ? lo + w : k, hi = lo + 2 * w < k ? lo + 2 * w : k;
            size_t a = lo, b = mid, o = lo;
            while (a < mid && b < hi)
                dst[o++] = sais_hitem_cmp(T, n, &src[b], &src[a]) < 0 ? src[b++] : src[a++];
            while (a < mid)
                dst[o++] = src[a++];
            while (b < hi)
                dst[o++] = src[b++];
        }
        sais_hitem *t = src;
        src = dst;
        dst = t;
    }
    if (src != it)
        memcpy(it, src, k * sizeof *it);
}

static void sais_hparts_free(sais_hpart *hp, int np, sais_htab *tab)
{
    for (int t = 0; t < np; t++) {
        pc_free(hp[t].lpos);
        pc_free(hp[t].llen);
    }
    pc_free(tab->slot);
    pc_free(tab->rep);
}

/* Names the LMS substrings of T[0..n) (n >= 2) by hashing, on nt threads:
 * on success the reduced string (names in text order, from 0) is in
 * SA[n-m..n), *m and *names are set, parts as name_lms sets it, and it
 * returns 1. Returns 0 when it declines (SA's contents are then scratch),
 * or PC_ENOMEM. */
static int sais_name_hashed(const uint8_t *T, int32_t n, int32_t *SA, int nt, int32_t *m,
                            int32_t *names, int32_t *parts, pc_error *err)
{
    (void)nt; /* read only by the pragmas */
    int np = nt > SAIS_MAX_PARTS ? SAIS_MAX_PARTS : nt < 1 ? 1 : nt;
    sais_hpart hp[SAIS_MAX_PARTS];
    memset(hp, 0, sizeof hp);
    sais_htab tab = { 0 };
    int64_t lim = g_sais_hash_mode == 2   ? 48
                  : g_sais_hash_mode == 3 ? n / 2 + 1
                                          : (int64_t)n / 128;
    if (lim < 64 && g_sais_hash_mode != 2)
        lim = 64;
    tab.lim = (int32_t)lim;
    tab.log = 6;
    while (((size_t)1 << tab.log) < 2 * ((size_t)lim + SAIS_MAX_PARTS))
        tab.log++;
    tab.slot = pc_malloc_array((size_t)1 << tab.log, sizeof *tab.slot);
    tab.rep = pc_malloc_array(2 * (size_t)lim, sizeof *tab.rep);
    int oom = !tab.slot || !tab.rep;
    for (int t = 0; t < np && !oom; t++) {
        sais_hpart *h = &hp[t];
        h->plo = (int32_t)((int64_t)n * t / np) & ~1;
        h->phi = t == np - 1 ? n : (int32_t)((int64_t)n * (t + 1) / np) & ~1;
        h->long_cap = g_sais_hash_mode == 2 ? 4 : (h->phi - h->plo) / 64 + 16;
        h->lpos = pc_malloc_array((size_t)h->long_cap, sizeof *h->lpos);
        h->llen = pc_malloc_array((size_t)h->long_cap, sizeof *h->llen);
        oom = !h->lpos || !h->llen;
    }
    if (oom) {
        sais_hparts_free(hp, np, &tab);
        return pc_error_nomem(err, "allocating SA-IS name tables");
    }
    size_t nslot = (size_t)1 << tab.log, chunk = ((size_t)1 << 16);
#pragma omp parallel num_threads(np) if (np > 1)
    {
        /* the table emptied (on the threads: up to 0.75n bytes), then the parts */
#pragma omp for schedule(static)
        for (size_t c = 0; c < (nslot + chunk - 1) / chunk; c++) {
            size_t lo = c * chunk, k = lo + chunk < nslot ? chunk : nslot - lo;
            memset(tab.slot + lo, 0xff, k * sizeof *tab.slot);
        }
#pragma omp for schedule(static, 1)
        for (int t = 0; t < np; t++)
            sais_hscan(T, n, SA, &hp[t], t, &tab);
    }
    int fail = tab.full;
    size_t nlong = 0;
    int32_t total = 0;
    for (int t = 0; t < np; t++) {
        fail |= hp[t].fail;
        nlong += (size_t)hp[t].nlong;
        total += hp[t].count;
    }
    if (fail) {
        sais_hparts_free(hp, np, &tab);
        g_sais_hash_declined++;
        return 0;
    }
    /* the length of each part's last LMS substring: up to the next part's
     * first LMS position, or into the sentinel */
    for (int t = 0; t < np; t++) {
        sais_hpart *h = &hp[t];
        for (int32_t k = 0; k < h->nlong; k++) {
            if (h->llen[k] != 0)
                continue;
            int32_t next = -1;
            for (int u = t + 1; u < np && next < 0; u++)
                next = hp[u].first;
            h->llen[k] = next >= 0 ? next - h->lpos[k] + 1 : n - h->lpos[k] + 1;
        }
    }
    /* the distinct keys with their representatives, then the long items */
    size_t nsh = (size_t)tab.used;
    sais_hitem *sh = pc_malloc_array(nsh + 2 * nlong + 1, sizeof *sh);
    int32_t *gname = pc_malloc_array(nsh + 1, sizeof *gname);
    if (!sh || !gname) {
        pc_free(sh);
        pc_free(gname);
        sais_hparts_free(hp, np, &tab);
        return pc_error_nomem(err, "allocating SA-IS name tables");
    }
#pragma omp parallel for num_threads(np) if (np > 1) schedule(static)
    for (size_t c = 0; c < (nslot + chunk - 1) / chunk; c++) {
        size_t lo = c * chunk, hi = lo + chunk < nslot ? lo + chunk : nslot;
        for (size_t k = lo; k < hi; k++) {
            const sais_hslot *e = &tab.slot[k];
            if (e->id >= 0)
                sh[e->id] = (sais_hitem){ e->hi, e->lo, tab.rep[2 * (size_t)e->id],
                                          tab.rep[2 * (size_t)e->id + 1], -1, e->id };
        }
    }
    sais_hitem *lg = sh + nsh, *tmp = lg + nlong;
    size_t a = 0, b = 0;
    for (int t = 0; t < np; t++)
        for (int32_t k = 0; k < hp[t].nlong; k++) {
            sais_hitem *l = &lg[b++];
            *l = (sais_hitem){ 0, 0, hp[t].lpos[k], hp[t].llen[k], t, k };
            if (l->len >= 17 && l->pos <= n - 16)
                sais_hkey(T, n, l->pos, 16, &l->hi, &l->lo);
        }
    /* the table is read: its slots (24 bytes each, at least 2 per key)
     * hold the keys' sort */
    sais_hsort_keys(sh, (sais_hitem *)(void *)tab.slot, nsh, np);
    sais_hsort_long(T, n, lg, tmp, nlong);
    /* merged in order; a name per distinct substring */
    int32_t name = -1;
    const sais_hitem *prev = NULL;
    for (a = 0, b = 0; a < nsh || b < nlong;) {
        int take_short = b >= nlong || (a < nsh && sais_hitem_cmp(T, n, &sh[a], &lg[b]) < 0);
        const sais_hitem *it = take_short ? &sh[a++] : &lg[b++];
        /* equal substrings have equal lengths */
        name += !prev || it->len != prev->len || sais_hitem_cmp(T, n, it, prev) != 0;
        prev = it;
        if (take_short)
            gname[it->id] = name;
        else
            hp[it->part].lpos[it->id] = name;
    }
    pc_free(sh);
    /* each part's ids to names, moved to the reduced string's place */
    int32_t before[SAIS_MAX_PARTS];
    for (int t = 0, s = 0; t < np; s += hp[t].count, t++)
        before[t] = s;
#pragma omp parallel for num_threads(np) if (np > 1) schedule(static, 1)
    for (int t = 0; t < np; t++) {
        const sais_hpart *h = &hp[t];
        const int32_t *src = SA + h->phi / 2 - h->count;
        int32_t *dst = SA + n - total + before[t];
        for (int32_t k = 0; k < h->count; k++) {
            int32_t v = src[k];
            dst[k] = v >= 0 ? gname[v] : h->lpos[~v];
        }
        parts[1 + t] = h->count;
    }
    parts[0] = np > 1 ? np : 0;
    sais_hparts_free(hp, np, &tab);
    pc_free(gname);
    *m = total;
    *names = name + 1;
    g_sais_hash_named++;
    return 1;
}
