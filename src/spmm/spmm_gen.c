/* Seeded matrix generator for tests, reports and benchmarks. */
#include <math.h>
#include <string.h>

#include "pc_alloc.h"
#include "pc_rng.h"
#include "spmm.h"

int spmm_gen_shape_parse(const char *s, int *shape)
{
    static const char *const names[] = {"uniform", "banded", "powerlaw", "denserows"};
    for (int i = 0; i < 4; i++)
        if (strcmp(s, names[i]) == 0) {
            *shape = i;
            return PC_OK;
        }
    return PC_EINVAL;
}

static double gen_value(pc_rng *r, int ints)
{
    if (!ints)
        return pc_rng_uniform(r, -1.0, 1.0);
    int64_t v = pc_rng_range(r, -8, 7);
    return (double)(v >= 0 ? v + 1 : v); /* never 0 */
}

/* Row lengths for each shape; sum returned through *total. */
static void gen_row_lengths(const spmm_gen_params *p, pc_rng *r, int32_t *len, int64_t *total)
{
    int64_t t = 0;
    double mean = p->rows ? (double)p->nnz / p->rows : 0.0;
    int32_t cap = p->max_row > 0 && p->max_row < p->cols ? p->max_row : p->cols;
    for (int32_t i = 0; i < p->rows; i++) {
        int64_t l = 0;
        switch (p->shape) {
        case SPMM_SHAPE_BANDED:
            l = (int64_t)(p->nnz / p->rows) + ((int64_t)i < p->nnz % p->rows);
            break;
        case SPMM_SHAPE_POWERLAW: {
            /* Pareto tail (exponent 2), mean about `mean` before the cap. */
            double u = 1.0 - pc_rng_unit(r);
            l = (int64_t)floor(0.5 * mean / sqrt(u));
            break;
        }
        default: {
            /* uniform and the sparse part of denserows: mean-sized rows with
             * +-50% jitter, so some rows are short and a few empty. */
            double u = pc_rng_unit(r);
            l = (int64_t)floor(mean * (0.5 + u) + pc_rng_unit(r));
            if (mean < 2.0 && pc_rng_below(r, 8) == 0)
                l = 0;
            break;
        }
        }
        if (l > cap)
            l = cap;
        len[i] = (int32_t)l;
        t += l;
    }
    if (p->rows > 0 && p->shape == SPMM_SHAPE_POWERLAW && cap > 0) {
        /* The longest row is part of the shape's contract. */
        int32_t at = (int32_t)pc_rng_below(r, (uint64_t)p->rows);
        t += cap - len[at];
        len[at] = cap;
    }
    if (p->rows > 0 && p->shape == SPMM_SHAPE_DENSEROWS) {
        int32_t dense = p->rows / 1000 + 1;
        for (int32_t d = 0; d < dense; d++) {
            int32_t at = (int32_t)pc_rng_below(r, (uint64_t)p->rows);
            t += cap - len[at];
            len[at] = cap;
        }
    }
    *total = t;
}

int spmm_gen_coo(const spmm_gen_params *p, mm_coo *out, pc_error *err)
{
    memset(out, 0, sizeof *out);
    if (p->rows < 0 || p->cols < 0 || p->nnz < 0 || p->shape < 0 || p->shape > SPMM_SHAPE_DENSEROWS)
        return pc_error_set(err, PC_EINVAL, NULL, 0, "gen matrix: bad parameters");
    if ((p->rows == 0 || p->cols == 0) && p->nnz > 0)
        return pc_error_set(err, PC_EINVAL, NULL, 0, "gen matrix: entries in an empty shape");
    if (p->nnz > MM_MAX_NNZ || (p->cols > 0 && p->nnz / (p->cols ? p->cols : 1) > p->rows))
        return pc_error_set(err, PC_ERANGE, NULL, 0,
                            "gen matrix: %lld entries do not fit a %dx%d matrix (limit %lld)",
                            (long long)p->nnz, p->rows, p->cols, (long long)MM_MAX_NNZ);
    pc_rng r;
    pc_rng_seed(&r, p->seed);
    int32_t *len = pc_malloc_array(p->rows ? (size_t)p->rows : 1, sizeof *len);
    if (!len)
        return pc_error_nomem(err, "generating a matrix");
    int64_t total = 0;
    gen_row_lengths(p, &r, len, &total);
    if (total > MM_MAX_NNZ) {
        pc_free(len);
        return pc_error_set(err, PC_ERANGE, NULL, 0, "gen matrix: %lld entries exceed the limit",
                            (long long)total);
    }
    int rc = mm_coo_alloc(out, p->rows, p->cols, total, err);
    if (rc) {
        pc_free(len);
        return rc;
    }
    int64_t e = 0;
    for (int32_t i = 0; i < p->rows; i++) {
        int32_t l = len[i];
        if (p->shape == SPMM_SHAPE_BANDED) {
            /* A band of l consecutive columns around the diagonal. */
            int64_t diag = p->rows > 1 ? (int64_t)i * (p->cols - 1) / (p->rows - 1) : 0;
            int64_t c0 = diag - l / 2;
            if (c0 + l > p->cols)
                c0 = p->cols - l;
            if (c0 < 0)
                c0 = 0;
            for (int32_t k = 0; k < l; k++) {
                out->row[e] = i;
                out->col[e] = (int32_t)(c0 + k);
                out->val[e] = gen_value(&r, p->int_values);
                e++;
            }
        } else if ((int64_t)l * 2 >= p->cols) {
            /* Dense-ish row: l distinct columns from a random offset. */
            int32_t c0 = (int32_t)pc_rng_below(&r, (uint64_t)p->cols);
            for (int32_t k = 0; k < l; k++) {
                out->row[e] = i;
                out->col[e] = (int32_t)(((int64_t)c0 + k) % p->cols);
                out->val[e] = gen_value(&r, p->int_values);
                e++;
            }
        } else if (l >= 16) {
            /* Long row: one random column in each of l equal strata, so the
             * columns are distinct and the row keeps its length. */
            int64_t step = p->cols / l;
            for (int32_t k = 0; k < l; k++) {
                out->row[e] = i;
                out->col[e] = (int32_t)((int64_t)k * step + (int64_t)pc_rng_below(&r, (uint64_t)step));
                out->val[e] = gen_value(&r, p->int_values);
                e++;
            }
        } else {
            /* Random columns; repeats are merged by normalize, so the
             * stored count can be a little below the target. */
            for (int32_t k = 0; k < l; k++) {
                out->row[e] = i;
                out->col[e] = (int32_t)pc_rng_below(&r, (uint64_t)p->cols);
                out->val[e] = gen_value(&r, p->int_values);
                e++;
            }
        }
    }
    pc_free(len);
    out->field = p->int_values ? MM_FIELD_INTEGER : MM_FIELD_REAL;
    out->symmetry = MM_GENERAL;
    out->format = MM_COORDINATE;
    out->declared = total;
    rc = mm_coo_normalize(out, err);
    if (rc)
        mm_coo_free(out);
    /* Merged repeats are an artefact of sampling, not of a source file. */
    out->duplicates = 0;
    return rc;
}
