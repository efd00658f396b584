#include "spmm_cases.h"

#include <string.h>

#include "pc_rng.h"

int spmm_case_k(uint64_t id)
{
    static const int ks[] = {1, 2, 3, 4, 5, 7, 8, 16, 17, 31, 32, 33, 64};
    return ks[id % (sizeof ks / sizeof ks[0])];
}

int spmm_case_random(uint64_t id, int ints, mm_coo *out)
{
    pc_rng r;
    pc_rng_seed(&r, 0x5EED0000ull + id);
    int32_t m = (int32_t)pc_rng_range(&r, 1, 200);
    int32_t n = (int32_t)pc_rng_range(&r, 1, 200);
    if (id % 7 == 0)
        m = 1;
    if (id % 11 == 0)
        n = 1;
    int64_t per_row = pc_rng_range(&r, 0, 12);
    int dense_row = id % 3 == 0;
    int64_t cap = (int64_t)m * per_row + (dense_row ? n : 0) + 1;
    memset(out, 0, sizeof *out);
    if (mm_coo_alloc(out, m, n, cap, NULL))
        return -1;
    int64_t e = 0;
    int32_t dense_at = (int32_t)pc_rng_below(&r, (uint64_t)m);
    for (int32_t i = 0; i < m; i++) {
        /* About one row in four is empty. */
        int64_t len = pc_rng_below(&r, 4) == 0 ? 0 : pc_rng_range(&r, 0, per_row);
        if (dense_row && i == dense_at)
            len = n;
        for (int64_t k = 0; k < len && e < cap; k++) {
            out->row[e] = i;
            out->col[e] = dense_row && i == dense_at ? (int32_t)k : (int32_t)pc_rng_below(&r, (uint64_t)n);
            out->val[e] = ints ? (double)pc_rng_range(&r, -9, 9) : pc_rng_uniform(&r, -2.0, 2.0) *
                                                                   (pc_rng_below(&r, 5) == 0 ? 1e3 : 1.0);
            e++;
        }
    }
    out->nnz = e;
    out->field = ints ? MM_FIELD_INTEGER : MM_FIELD_REAL;
    return mm_coo_normalize(out, NULL);
}

int spmm_case_from(int32_t m, int32_t n, int64_t nnz, const int32_t *ri, const int32_t *ci,
                   const double *v, mm_coo *out)
{
    memset(out, 0, sizeof *out);
    if (mm_coo_alloc(out, m, n, nnz, NULL))
        return -1;
    for (int64_t e = 0; e < nnz; e++) {
        out->row[e] = ri[e];
        out->col[e] = ci[e];
        out->val[e] = v[e];
    }
    return mm_coo_normalize(out, NULL);
}
