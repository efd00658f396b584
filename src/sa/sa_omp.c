/* sa_omp.c - parallel prefix doubling (the `omp` implementation).
 *
 * Ranks are group heads: rank[s] = the first index of the group of suffixes
 * sharing s's h-prefix. A step sorts every unsorted group (length >= 2) by
 * rank[s + h] (0 past the end: a shorter suffix first), as packed words
 * (rank[s + h] + 1) << 32 | s, then re-ranks. The keys of a step are all read
 * before any rank is written (phase A, then B), so threads never race and
 * the result does not depend on scheduling. Groups are spread over threads
 * (dynamic schedule); a group larger than n/64 is instead sorted and
 * re-ranked by all threads at once. Sorted groups are never touched again,
 * which is where the doubling saves its time on text. The first groups come
 * from the k-byte radix sort of sa_radix.c (k = 9 on English text), so the
 * first step has h = k. */
#include <string.h>

#include "pc_alloc.h"
#include "sa.h"
#include "sa_radix.h"

static inline uint32_t key_of(uint64_t w) { return (uint32_t)(w >> 32); }

static int bits_for(int64_t v)
{
    int b = 1;
    while (b < 62 && ((int64_t)1 << b) <= v)
        b++;
    return b;
}

typedef struct omp_state {
    const uint8_t *T;
    int32_t n;
    int32_t *SA, *rank;
    uint64_t *w;          /* packed words, indexed like SA */
    uint64_t *groups;     /* start << 32 | length of each unsorted group */
    int64_t ngroups;
    int32_t *sub;         /* per group: unsorted subgroups after the step */
    int threads, par;
    int64_t *hist;
} omp_state;

/* Ranks of one group whose words are sorted; returns its unsorted
 * subgroups (runs of equal key longer than 1). */
static int32_t omp_rerank(omp_state *st, int32_t l, int32_t len)
{
    int32_t head = l, nsub = 0;
    for (int32_t j = l; j < l + len; j++) {
        if (j > l && key_of(st->w[j]) != key_of(st->w[j - 1])) {
            nsub += j - head > 1;
            head = j;
        }
        st->rank[st->SA[j]] = head;
    }
    nsub += l + len - head > 1;
    return nsub;
}

/* omp_rerank of one large group by all threads: a block of entries per
 * thread, each block walking back to the head of the run it starts in. */
static int32_t omp_rerank_big(omp_state *st, int32_t l, int32_t len)
{
    int nt = st->threads;
    int64_t nsub = 0;
#pragma omp parallel for schedule(static) num_threads(nt) reduction(+ : nsub)
    for (int t = 0; t < nt; t++) {
        int32_t lo = l + (int32_t)((int64_t)len * t / nt);
        int32_t hi = l + (int32_t)((int64_t)len * (t + 1) / nt), head = lo;
        while (head > l && key_of(st->w[head]) == key_of(st->w[head - 1]))
            head--;
        for (int32_t j = lo; j < hi; j++) {
            if (j > l && key_of(st->w[j]) != key_of(st->w[j - 1]))
                head = j;
            st->rank[st->SA[j]] = head;
            nsub += head == j && j + 1 < l + len && key_of(st->w[j + 1]) == key_of(st->w[j]);
        }
    }
    return (int32_t)nsub;
}

/* Writes the unsorted subgroups of one re-ranked group at out. */
static void omp_emit(const omp_state *st, int32_t l, int32_t len, uint64_t *out)
{
    int32_t head = l;
    for (int32_t j = l + 1; j <= l + len; j++)
        if (j == l + len || key_of(st->w[j]) != key_of(st->w[j - 1])) {
            if (j - head > 1)
                *out++ = (uint64_t)head << 32 | (uint32_t)(j - head);
            head = j;
        }
}

/* Turns part[0..nt) into exclusive prefix sums; returns the total. */
static int64_t omp_exclusive_sum(int64_t *part, int nt)
{
    int64_t total = 0;
    for (int t = 0; t < nt; t++) {
        int64_t c = part[t];
        part[t] = total;
        total += c;
    }
    return total;
}

/* Block t of nt of the groups: st->sub turned into prefix sums within the
 * block; returns the block's total. */
static int64_t omp_block_sum(omp_state *st, int t, int nt)
{
    int64_t ng = st->ngroups, sum = 0;
    for (int64_t g = ng * t / nt; g < ng * (t + 1) / nt; g++) {
        int32_t c = st->sub[g];
        st->sub[g] = (int32_t)sum; /* fits: groups <= n / 2 */
        sum += c;
    }
    return sum;
}

/* count(st, t, nt) of every block t into st->hist, by one thread each
 * (without st->par: one block, outside the OpenMP runtime), then turned
 * into the blocks' offsets; returns the total. */
static int64_t omp_block_totals(omp_state *st, int64_t (*count)(omp_state *, int, int))
{
    int nt = st->par ? st->threads : 1;
    if (st->par) {
#pragma omp parallel for schedule(static) num_threads(nt)
        for (int t = 0; t < nt; t++)
            st->hist[t] = count(st, t, nt);
    } else {
        st->hist[0] = count(st, 0, 1);
    }
    return omp_exclusive_sum(st->hist, nt);
}

/* Block t of nt of the groups: the block's offset added to st->sub. */
static void omp_block_add(omp_state *st, int t, int nt, int64_t off)
{
    int64_t ng = st->ngroups;
    for (int64_t g = ng * t / nt; g < ng * (t + 1) / nt; g++)
        st->sub[g] += (int32_t)off;
}

/* Builds the list of unsorted groups from st->sub counts: prefix sums per
 * block of groups (one block per thread), the blocks' totals (in hist),
 * then every group's offset, and the emission spread dynamically. Without
 * st->par the same steps run on one thread outside the OpenMP runtime (a
 * region with a false if clause costs microseconds under libomp, and a
 * short text takes a dozen steps). */
static int omp_collect(omp_state *st, pc_error *err)
{
    int nt = st->par ? st->threads : 1;
    int64_t ng = st->ngroups, *part = st->hist;
    int64_t total = omp_block_totals(st, omp_block_sum);
    uint64_t *next = pc_malloc_array((size_t)(total ? total : 1), sizeof *next);
    if (!next)
        return pc_error_nomem(err, "sorting suffixes (omp groups)");
    if (st->par) {
#pragma omp parallel num_threads(nt)
        {
#pragma omp for schedule(static)
            for (int t = 0; t < nt; t++)
                omp_block_add(st, t, nt, part[t]);
#pragma omp for schedule(dynamic, 1024)
            for (int64_t g = 0; g < ng; g++)
                omp_emit(st, (int32_t)(st->groups[g] >> 32), (int32_t)(uint32_t)st->groups[g],
                         next + st->sub[g]);
        }
    } else {
        for (int64_t g = 0; g < ng; g++)
            omp_emit(st, (int32_t)(st->groups[g] >> 32), (int32_t)(uint32_t)st->groups[g],
                     next + st->sub[g]);
    }
    pc_free(st->groups);
    pc_free(st->sub);
    st->sub = NULL;
    st->groups = next;
    st->ngroups = total;
    return PC_OK;
}

/* Entries [lo, hi) of block t of nt: how many runs of equal keys longer
 * than 1 start there. */
static int64_t omp_initial_count(omp_state *st, int t, int nt)
{
    int32_t n = st->n;
    const uint64_t *key = st->w;
    int32_t lo = (int32_t)((int64_t)n * t / nt), hi = (int32_t)((int64_t)n * (t + 1) / nt);
    int64_t groups = 0;
    for (int32_t j = lo; j < hi; j++)
        groups += (j == 0 || key[j] != key[j - 1]) && j + 1 < n && key[j + 1] == key[j];
    return groups;
}

/* Block t of nt: ranks of its entries, and its runs written at out. */
static void omp_initial_emit(omp_state *st, int t, int nt, uint64_t *out)
{
    int32_t n = st->n;
    const uint64_t *key = st->w;
    int32_t lo = (int32_t)((int64_t)n * t / nt), hi = (int32_t)((int64_t)n * (t + 1) / nt);
    int32_t head = lo;
    while (head > 0 && key[head] == key[head - 1])
        head--;
    for (int32_t j = lo; j < hi; j++) {
        if (j > 0 && key[j] != key[j - 1])
            head = j;
        st->rank[st->SA[j]] = head;
        if (head == j && j + 1 < n && key[j + 1] == key[j]) {
            int32_t e = j + 1;
            while (e < n && key[e] == key[j])
                e++;
            *out++ = (uint64_t)j << 32 | (uint32_t)(e - j);
        }
    }
}

/* The first groups: the suffixes sorted by their first k bytes
 * (sa_radix.c); the runs of equal keys longer than 1 are the unsorted
 * groups, counted and then emitted per block of entries (one block per
 * thread). rank = head of the run, set in the second pass and only when
 * there is a next step (on random bytes every run is a singleton). A
 * block that starts inside a run walks back to its head. */
static int omp_initial(omp_state *st, int *k, pc_error *err)
{
    int32_t n = st->n;
    int rc = sa_initial_sort(st->T, n, st->SA, st->w, st->threads, k, err);
    if (rc != PC_OK)
        return rc;
    int nt = st->par ? st->threads : 1;
    int64_t *part = st->hist;
    int64_t total = omp_block_totals(st, omp_initial_count);
    st->groups = pc_malloc_array((size_t)(total ? total : 1), sizeof *st->groups);
    if (!st->groups)
        return pc_error_nomem(err, "sorting suffixes (omp groups)");
    st->ngroups = total;
    if (total == 0)
        return PC_OK;
    if (st->par) {
#pragma omp parallel for schedule(static) num_threads(nt)
        for (int t = 0; t < nt; t++)
            omp_initial_emit(st, t, nt, st->groups + part[t]);
    } else {
        omp_initial_emit(st, 0, 1, st->groups);
    }
    return PC_OK;
}

/* Phase A for group g: its words (rank h later, suffix), sorted here
 * unless the group is large and sorted by all threads afterwards. */
static void omp_sort_group(omp_state *st, int64_t g, int64_t h, int64_t big)
{
    int32_t n = st->n;
    int32_t l = (int32_t)(st->groups[g] >> 32), len = (int32_t)(uint32_t)st->groups[g];
    for (int32_t j = l; j < l + len; j++) {
        int32_t s = st->SA[j];
        uint32_t k = s + h < n ? (uint32_t)st->rank[s + h] + 1 : 0;
        st->w[j] = (uint64_t)k << 32 | (uint32_t)s;
    }
    if (!(st->par && len >= big)) {
        sa_sort_u64(st->w + l, len);
        for (int32_t j = l; j < l + len; j++)
            st->SA[j] = (int32_t)(uint32_t)st->w[j];
    }
}

/* Phase B for group g, unless it is large (re-ranked by all threads). */
static void omp_rerank_group(omp_state *st, int64_t g, int64_t big)
{
    int32_t l = (int32_t)(st->groups[g] >> 32), len = (int32_t)(uint32_t)st->groups[g];
    if (!(st->par && len >= big))
        st->sub[g] = omp_rerank(st, l, len);
}

/* One doubling step: phase A sorts every group by the rank h later, phase B
 * re-ranks, then the unsorted subgroups are collected. */
static int omp_step(omp_state *st, int64_t h, pc_error *err)
{
    int32_t n = st->n;
    int64_t big = (int64_t)n / 64 > 65536 ? (int64_t)n / 64 : 65536;
    st->sub = pc_malloc_array((size_t)st->ngroups, sizeof *st->sub);
    if (!st->sub)
        return pc_error_nomem(err, "sorting suffixes (omp step)");
    if (st->par) {
#pragma omp parallel for schedule(dynamic, 256) num_threads(st->threads)
        for (int64_t g = 0; g < st->ngroups; g++)
            omp_sort_group(st, g, h, big);
    } else {
        for (int64_t g = 0; g < st->ngroups; g++)
            omp_sort_group(st, g, h, big);
    }
    if (st->par) {
        for (int64_t g = 0; g < st->ngroups; g++) {
            int32_t l = (int32_t)(st->groups[g] >> 32), len = (int32_t)(uint32_t)st->groups[g];
            if (len < big)
                continue;
            uint64_t *tmp = pc_malloc_array((size_t)len, sizeof *tmp);
            if (!tmp)
                return pc_error_nomem(err, "sorting suffixes (omp large group)");
            sa_radix_sort_hi(st->w + l, tmp, len, bits_for((int64_t)n + 1), st->threads, 1,
                             st->hist);
            pc_free(tmp);
#pragma omp parallel for schedule(static) num_threads(st->threads)
            for (int32_t j = l; j < l + len; j++)
                st->SA[j] = (int32_t)(uint32_t)st->w[j];
        }
    }
    if (st->par) {
#pragma omp parallel for schedule(dynamic, 256) num_threads(st->threads)
        for (int64_t g = 0; g < st->ngroups; g++)
            omp_rerank_group(st, g, big);
    } else {
        for (int64_t g = 0; g < st->ngroups; g++)
            omp_rerank_group(st, g, big);
    }
    for (int64_t g = 0; st->par && g < st->ngroups; g++) {
        int32_t l = (int32_t)(st->groups[g] >> 32), len = (int32_t)(uint32_t)st->groups[g];
        if (len >= big)
            st->sub[g] = omp_rerank_big(st, l, len);
    }
    return omp_collect(st, err);
}

int sa_build_omp(const uint8_t *T, int32_t n, int32_t *SA, int threads, pc_error *err)
{
    if (n <= 1) {
        if (n == 1)
            SA[0] = 0;
        return PC_OK;
    }
    if (threads < 1)
        threads = 1;
    omp_state st = { .T = T, .n = n, .SA = SA, .threads = threads,
                     .par = threads > 1 && n >= 65536 };
    st.rank = pc_malloc_array((size_t)n, sizeof *st.rank);
    st.w = pc_malloc_array((size_t)n, sizeof *st.w);
    /* the radix histograms serve the parallel path only; otherwise one
     * block total */
    st.hist = pc_malloc_array(st.par ? (size_t)threads << SA_RADIX_BITS : 1, sizeof *st.hist);
    int rc = PC_OK, k = 0;
    if (!st.rank || !st.w || !st.hist)
        rc = pc_error_nomem(err, "sorting suffixes (omp)");
    if (rc == PC_OK)
        rc = omp_initial(&st, &k, err);
    for (int64_t h = k; rc == PC_OK && st.ngroups > 0; h *= 2)
        rc = omp_step(&st, h, err);
    pc_free(st.rank);
    pc_free(st.w);
    pc_free(st.hist);
    pc_free(st.groups);
    pc_free(st.sub);
    return rc;
}
