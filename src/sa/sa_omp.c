/* sa_omp.c - parallel prefix doubling (the `omp` implementation).
 *
 * Ranks are group heads: rank[s] = the first index of the group of suffixes
 * sharing s's h-prefix. A step sorts every unsorted group (length >= 2) by
 * rank[s + h] (0 past the end: a shorter suffix first), as packed words
 * (rank[s + h] + 1) << 32 | s, then re-ranks. The keys of a step are all read
 * before any rank is written (phase A, then B), so threads never race and
 * the result does not depend on scheduling. Groups are spread over threads
 * (dynamic schedule); a group larger than n/64 is instead sorted by all
 * threads at once with the parallel radix sort. Sorted groups are never
 * touched again, which is where the doubling saves its time on text. */
#include <string.h>

#include "pc_alloc.h"
#include "sa.h"
#include "sa_radix.h"

/* Three bytes, each + 1 so that "past the end" (0) sorts first: 27 bits. */
static inline uint32_t omp_key3(const uint8_t *T, int32_t n, int32_t i)
{
    uint32_t k = (uint32_t)(T[i] + 1) << 18;
    if (i + 1 < n)
        k |= (uint32_t)(T[i + 1] + 1) << 9;
    if (i + 2 < n)
        k |= (uint32_t)(T[i + 2] + 1);
    return k;
}

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

/* Builds the list of unsorted groups from st->sub counts (prefix sums). */
static int omp_collect(omp_state *st, pc_error *err)
{
    int64_t total = 0;
    for (int64_t g = 0; g < st->ngroups; g++) {
        int32_t c = st->sub[g];
        st->sub[g] = (int32_t)total; /* fits: groups <= n / 2 */
        total += c;
    }
    uint64_t *next = pc_malloc_array((size_t)(total ? total : 1), sizeof *next);
    if (!next)
        return pc_error_nomem(err, "sorting suffixes (omp groups)");
#pragma omp parallel for schedule(dynamic, 1024) num_threads(st->threads) if (st->par)
    for (int64_t g = 0; g < st->ngroups; g++)
        omp_emit(st, (int32_t)(st->groups[g] >> 32), (int32_t)(uint32_t)st->groups[g],
                 next + st->sub[g]);
    pc_free(st->groups);
    pc_free(st->sub);
    st->sub = NULL;
    st->groups = next;
    st->ngroups = total;
    return PC_OK;
}

/* The first groups: all suffixes radix sorted by their first three bytes. */
static int omp_initial(omp_state *st, pc_error *err)
{
    int32_t n = st->n;
    uint64_t *tmp = pc_malloc_array((size_t)n, sizeof *tmp);
    st->groups = pc_malloc_array(1, sizeof *st->groups);
    st->sub = pc_malloc_array(1, sizeof *st->sub);
    if (!tmp || !st->groups || !st->sub) {
        pc_free(tmp);
        return pc_error_nomem(err, "sorting suffixes (omp initial sort)");
    }
#pragma omp parallel for schedule(static) num_threads(st->threads) if (st->par)
    for (int32_t i = 0; i < n; i++)
        st->w[i] = (uint64_t)omp_key3(st->T, n, i) << 32 | (uint32_t)i;
    sa_radix_sort_hi(st->w, tmp, n, 27, st->threads, st->par, st->hist);
    pc_free(tmp);
#pragma omp parallel for schedule(static) num_threads(st->threads) if (st->par)
    for (int32_t j = 0; j < n; j++)
        st->SA[j] = (int32_t)(uint32_t)st->w[j];
    /* the whole array as one group, re-ranked and split like any other */
    st->groups[0] = (uint64_t)n;
    st->ngroups = 1;
    if (st->par) {
        /* a parallel re-rank of the one big group: heads by max-scan */
        int nt = st->threads;
#pragma omp parallel num_threads(nt)
        {
#pragma omp for schedule(static)
            for (int32_t j = 0; j < n; j++)
                st->rank[j] = (j == 0 || key_of(st->w[j]) != key_of(st->w[j - 1])) ? j : -1;
#pragma omp for schedule(static)
            for (int t = 0; t < nt; t++) {
                int32_t lo = (int32_t)((int64_t)n * t / nt), hi = (int32_t)((int64_t)n * (t + 1) / nt);
                int32_t head = -1;
                for (int32_t j = lo; j < hi; j++) {
                    if (st->rank[j] >= 0)
                        head = j;
                    else
                        st->rank[j] = head;
                }
            }
        }
        /* chunks whose first entries continue a group from the left */
        for (int t = 1; t < nt; t++) {
            int32_t lo = (int32_t)((int64_t)n * t / nt), hi = (int32_t)((int64_t)n * (t + 1) / nt);
            int32_t carry = st->rank[lo - 1];
            for (int32_t j = lo; j < hi && st->rank[j] == -1; j++)
                st->rank[j] = carry;
        }
        /* rank[] holds heads by index; turn it into heads by suffix in SA
         * order through the words' low halves, which still hold SA */
#pragma omp parallel for schedule(static) num_threads(nt)
        for (int32_t j = 0; j < n; j++)
            st->w[j] = (st->w[j] & 0xffffffff00000000ull) | (uint32_t)st->rank[j];
#pragma omp parallel for schedule(static) num_threads(nt)
        for (int32_t j = 0; j < n; j++)
            st->rank[st->SA[j]] = (int32_t)(uint32_t)st->w[j];
        /* count unsorted groups per chunk, then emit */
        st->sub[0] = 0;
        int64_t total = 0;
#pragma omp parallel for schedule(static) reduction(+ : total) num_threads(nt)
        for (int32_t j = 0; j < n; j++)
            total += (j == 0 || key_of(st->w[j]) != key_of(st->w[j - 1])) &&
                     j + 1 < n && key_of(st->w[j + 1]) == key_of(st->w[j]);
        st->sub[0] = (int32_t)total;
    } else {
        st->sub[0] = omp_rerank(st, 0, n);
    }
    return omp_collect(st, err);
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
#pragma omp parallel for schedule(dynamic, 256) num_threads(st->threads) if (st->par)
    for (int64_t g = 0; g < st->ngroups; g++) {
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
#pragma omp parallel for schedule(dynamic, 256) num_threads(st->threads) if (st->par)
    for (int64_t g = 0; g < st->ngroups; g++)
        st->sub[g] = omp_rerank(st, (int32_t)(st->groups[g] >> 32), (int32_t)(uint32_t)st->groups[g]);
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
    st.hist = pc_malloc_array((size_t)threads << SA_RADIX_BITS, sizeof *st.hist);
    int rc = PC_OK;
    if (!st.rank || !st.w || !st.hist)
        rc = pc_error_nomem(err, "sorting suffixes (omp)");
    if (rc == PC_OK)
        rc = omp_initial(&st, err);
    for (int64_t h = 3; rc == PC_OK && st.ngroups > 0; h *= 2)
        rc = omp_step(&st, h, err);
    pc_free(st.rank);
    pc_free(st.w);
    pc_free(st.hist);
    pc_free(st.groups);
    pc_free(st.sub);
    return rc;
}
