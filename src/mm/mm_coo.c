/* mm_coo.c - COO storage and normalisation (sort, merge duplicates).
 *
 * Normalisation is a stable LSD radix sort: first by column, then by row,
 * so entries end sorted by (row, col) and equal pairs keep file order (the
 * sum of duplicates is then deterministic). A key whose range fits in
 * max(2 * nnz, 2^16) buckets takes one counting pass; a wider one (a
 * hypersparse matrix with 2^31 rows and a handful of entries) takes two
 * passes of 16 bits, so the count array never grows with the shape alone. */
#include "mm.h"

#include <string.h>

#include "pc_alloc.h"

#define DIGIT_BITS 16
#define DIGIT_BUCKETS ((int64_t)1 << DIGIT_BITS)

int mm_coo_alloc(mm_coo *m, int32_t rows, int32_t cols, int64_t nnz, pc_error *err)
{
    memset(m, 0, sizeof *m);
    if (rows < 0 || cols < 0 || nnz < 0 || nnz > MM_MAX_NNZ)
        return pc_error_set(err, PC_ERANGE, NULL, 0,
                            "matrix of %ld x %ld with %lld entries is outside the supported range",
                            (long)rows, (long)cols, (long long)nnz);
    size_t n = (size_t)nnz;
    /* each only once the one before it is had: after a refusal no more of
     * a size that large is asked for */
    m->row = pc_malloc_array(n, sizeof *m->row);
    m->col = m->row ? pc_malloc_array(n, sizeof *m->col) : NULL;
    m->val = m->col ? pc_malloc_array(n, sizeof *m->val) : NULL;
    if (!m->val) {
        mm_coo_free(m);
        return pc_error_nomem(err, "allocating a sparse matrix");
    }
    m->rows = rows;
    m->cols = cols;
    m->nnz = nnz;
    return PC_OK;
}

void mm_coo_free(mm_coo *m)
{
    if (!m)
        return;
    pc_free(m->row);
    pc_free(m->col);
    pc_free(m->val);
    memset(m, 0, sizeof *m);
}

/* Entry arrays a pass reads from or writes to. */
typedef struct coo_arrays {
    int32_t *row, *col;
    double *val;
} coo_arrays;

/* One stable counting pass on bucket (key >> shift) & mask, src -> dst.
 * count has room for nbuckets + 1 entries. */
static void radix_pass(const coo_arrays *src, const coo_arrays *dst, int64_t nnz,
                       int by_row, int shift, int64_t nbuckets, int64_t *count)
{
    const int32_t *key = by_row ? src->row : src->col;
    uint32_t mask = (uint32_t)(nbuckets - 1);
    memset(count, 0, (size_t)(nbuckets + 1) * sizeof *count);
    for (int64_t k = 0; k < nnz; k++)
        count[(((uint32_t)key[k] >> shift) & mask) + 1]++;
    for (int64_t b = 0; b < nbuckets; b++)
        count[b + 1] += count[b];
    for (int64_t k = 0; k < nnz; k++) {
        int64_t d = count[((uint32_t)key[k] >> shift) & mask]++;
        dst->row[d] = src->row[k];
        dst->col[d] = src->col[k];
        dst->val[d] = src->val[k];
    }
}

/* Smallest power of two >= n (n >= 1). */
static int64_t pow2_at_least(int64_t n)
{
    int64_t p = 1;
    while (p < n)
        p <<= 1;
    return p;
}

/* Plans the passes for a key of range [0, dim): one pass of a power-of-two
 * bucket count when that stays within max(2*nnz, 2^16), else 16-bit digits.
 * Fills shift/buckets and returns the number of passes. */
static int plan_key(int64_t dim, int64_t nnz, int *shift, int64_t *buckets)
{
    int64_t limit = 2 * nnz > DIGIT_BUCKETS ? 2 * nnz : DIGIT_BUCKETS;
    int64_t one = pow2_at_least(dim > 0 ? dim : 1);
    if (one <= limit) {
        shift[0] = 0;
        buckets[0] = one;
        return 1;
    }
    shift[0] = 0;
    buckets[0] = DIGIT_BUCKETS;
    shift[1] = DIGIT_BITS;
    buckets[1] = pow2_at_least((dim + DIGIT_BUCKETS - 1) >> DIGIT_BITS);
    return 2;
}

/* 1 when the entries are already in strictly or weakly increasing
 * (row, col) order, so the sort can be skipped. */
static int coo_is_sorted(const mm_coo *m)
{
    for (int64_t k = 1; k < m->nnz; k++)
        if (m->row[k - 1] > m->row[k] ||
            (m->row[k - 1] == m->row[k] && m->col[k - 1] > m->col[k]))
            return 0;
    return 1;
}

static int coo_sort(mm_coo *m, pc_error *err)
{
    int64_t nnz = m->nnz;
    int cshift[2], rshift[2];
    int64_t cbuck[2], rbuck[2];
    int nc = plan_key(m->cols, nnz, cshift, cbuck);
    int nr = plan_key(m->rows, nnz, rshift, rbuck);
    int64_t maxb = 0;
    for (int p = 0; p < nc; p++)
        maxb = cbuck[p] > maxb ? cbuck[p] : maxb;
    for (int p = 0; p < nr; p++)
        maxb = rbuck[p] > maxb ? rbuck[p] : maxb;

    coo_arrays a = { m->row, m->col, m->val };
    coo_arrays t = { pc_malloc_array((size_t)nnz, sizeof(int32_t)),
                     pc_malloc_array((size_t)nnz, sizeof(int32_t)),
                     pc_malloc_array((size_t)nnz, sizeof(double)) };
    int64_t *count = pc_malloc_array((size_t)maxb + 1, sizeof *count);
    if (!t.row || !t.col || !t.val || !count) {
        pc_free(t.row);
        pc_free(t.col);
        pc_free(t.val);
        pc_free(count);
        return pc_error_nomem(err, "sorting a sparse matrix");
    }
    coo_arrays *src = &a, *dst = &t;
    for (int p = 0; p < nc + nr; p++) {
        int by_row = p >= nc;
        int q = by_row ? p - nc : p;
        radix_pass(src, dst, nnz, by_row, by_row ? rshift[q] : cshift[q],
                   by_row ? rbuck[q] : cbuck[q], count);
        coo_arrays *s = src;
        src = dst;
        dst = s;
    }
    if (src != &a) { /* odd number of passes: the result is in t */
        memcpy(a.row, t.row, (size_t)nnz * sizeof *a.row);
        memcpy(a.col, t.col, (size_t)nnz * sizeof *a.col);
        memcpy(a.val, t.val, (size_t)nnz * sizeof *a.val);
    }
    pc_free(t.row);
    pc_free(t.col);
    pc_free(t.val);
    pc_free(count);
    return PC_OK;
}

/* Pattern matrices merge duplicates (an entry is present or not: the value
 * stays 1.0); every other field sums them in file order. */
int mm_coo_normalize(mm_coo *m, pc_error *err)
{
    if (m->rows < 0 || m->cols < 0 || m->nnz < 0 || m->nnz > MM_MAX_NNZ ||
        (m->nnz > 0 && (!m->row || !m->col || !m->val)))
        return pc_error_set(err, PC_EINVAL, NULL, 0, "mm_coo_normalize: invalid matrix");
    for (int64_t k = 0; k < m->nnz; k++)
        if (m->row[k] < 0 || m->row[k] >= m->rows || m->col[k] < 0 || m->col[k] >= m->cols)
            return pc_error_set(err, PC_EINVAL, NULL, 0,
                                "mm_coo_normalize: entry %lld at (%ld, %ld) outside %ld x %ld",
                                (long long)k, (long)m->row[k], (long)m->col[k],
                                (long)m->rows, (long)m->cols);
    if (!coo_is_sorted(m)) {
        int rc = coo_sort(m, err);
        if (rc)
            return rc;
    }
    int64_t out = 0;
    for (int64_t k = 0; k < m->nnz; k++) {
        if (out > 0 && m->row[out - 1] == m->row[k] && m->col[out - 1] == m->col[k]) {
            if (m->field != MM_FIELD_PATTERN)
                m->val[out - 1] += m->val[k];
            m->duplicates++;
            continue;
        }
        m->row[out] = m->row[k];
        m->col[out] = m->col[k];
        m->val[out] = m->val[k];
        out++;
    }
    m->nnz = out;
    m->explicit_zeros = 0;
    for (int64_t k = 0; k < out; k++)
        m->explicit_zeros += m->val[k] == 0.0;
    return PC_OK;
}
