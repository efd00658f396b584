/* COO -> CSR, ELLPACK (padded) and ELLPACK without padding, and back.
 * All conversions are O(nnz + m) and deterministic: the entries of a row keep
 * the order they have in the COO (ascending columns for a normalized COO). */
#include <string.h>

#include "pc_alloc.h"
#include "spmm.h"

/* Padded ELLPACK is refused beyond this many stored slots relative to nnz:
 * one long row would otherwise turn a small matrix into a huge dense one. */
#define ELL_MAX_FILL 16
#define ELL_MIN_SLOTS (1LL << 22)

static int convert_check(const mm_coo *a, pc_error *err)
{
    if (a->rows < 0 || a->cols < 0 || a->nnz < 0 || a->nnz > MM_MAX_NNZ)
        return pc_error_set(err, PC_ERANGE, NULL, 0,
                            "matrix %dx%d with %lld entries is outside the int32 index range",
                            a->rows, a->cols, (long long)a->nnz);
    for (int64_t e = 0; e < a->nnz; e++)
        if (a->row[e] < 0 || a->row[e] >= a->rows || a->col[e] < 0 || a->col[e] >= a->cols)
            return pc_error_set(err, PC_EINVAL, NULL, 0, "entry %lld (%d,%d) is outside %dx%d",
                                (long long)e, a->row[e], a->col[e], a->rows, a->cols);
    return PC_OK;
}

/* Row pointers of a (m+1 entries). The COO order is kept inside each row. */
static int convert_row_counts(const mm_coo *a, int32_t **irp_out, pc_error *err)
{
    int32_t *irp = pc_calloc((size_t)a->rows + 1, sizeof *irp);
    if (!irp)
        return pc_error_nomem(err, "building row pointers");
    for (int64_t e = 0; e < a->nnz; e++)
        irp[a->row[e] + 1]++;
    for (int32_t i = 0; i < a->rows; i++)
        irp[i + 1] += irp[i];
    *irp_out = irp;
    return PC_OK;
}

static int convert_is_row_sorted(const mm_coo *a)
{
    for (int64_t e = 1; e < a->nnz; e++)
        if (a->row[e] < a->row[e - 1])
            return 0;
    return 1;
}

int spmm_csr_from_coo(const mm_coo *a, spmm_csr *out, int threads, pc_error *err)
{
    (void)threads; /* read only by OpenMP pragmas: unused without OpenMP */
    memset(out, 0, sizeof *out);
    int rc = convert_check(a, err);
    if (rc)
        return rc;
    spmm_csr c = {.m = a->rows, .n = a->cols, .nnz = (int32_t)a->nnz};
    rc = convert_row_counts(a, &c.irp, err);
    if (rc)
        return rc;
    c.ja = pc_malloc_array((size_t)c.nnz, sizeof *c.ja);
    c.as = pc_malloc_array((size_t)c.nnz, sizeof *c.as);
    if (!c.ja || !c.as) {
        spmm_csr_free(&c);
        return pc_error_nomem(err, "building CSR");
    }
    if (convert_is_row_sorted(a)) {
        /* Already in row order: a straight (parallel) copy. */
        #pragma omp parallel for num_threads(threads) if (threads > 1 && c.nnz >= 65536) schedule(static)
        for (int64_t e = 0; e < a->nnz; e++) {
            c.ja[e] = a->col[e];
            c.as[e] = a->val[e];
        }
    } else {
        int32_t *next = pc_malloc_array((size_t)c.m + 1, sizeof *next);
        if (!next) {
            spmm_csr_free(&c);
            return pc_error_nomem(err, "building CSR");
        }
        memcpy(next, c.irp, ((size_t)c.m + 1) * sizeof *next);
        for (int64_t e = 0; e < a->nnz; e++) {
            int32_t p = next[a->row[e]]++;
            c.ja[p] = a->col[e];
            c.as[p] = a->val[e];
        }
        pc_free(next);
    }
    *out = c;
    return PC_OK;
}

int spmm_ell_from_coo(const mm_coo *a, spmm_ell *out, int threads, pc_error *err)
{
    (void)threads; /* read only by OpenMP pragmas: unused without OpenMP */
    memset(out, 0, sizeof *out);
    int rc = convert_check(a, err);
    if (rc)
        return rc;
    int32_t *irp = NULL;
    rc = convert_row_counts(a, &irp, err);
    if (rc)
        return rc;
    int32_t maxnz = 0;
    for (int32_t i = 0; i < a->rows; i++)
        if (irp[i + 1] - irp[i] > maxnz)
            maxnz = irp[i + 1] - irp[i];
    long long slots = (long long)a->rows * maxnz;
    long long limit = ELL_MAX_FILL * (long long)a->nnz;
    if (limit < ELL_MIN_SLOTS)
        limit = ELL_MIN_SLOTS;
    if (slots > limit) {
        pc_free(irp);
        return pc_error_set(err, PC_ERANGE, NULL, 0,
                            "padded ELLPACK would store %lld slots (%d rows x longest row %d) for "
                            "%lld entries, more than %dx; use CSR or unpadded ELLPACK",
                            slots, a->rows, maxnz, (long long)a->nnz, ELL_MAX_FILL);
    }
    spmm_ell e = {.m = a->rows, .n = a->cols, .maxnz = maxnz};
    e.ja = pc_malloc_array((size_t)slots, sizeof *e.ja);
    e.as = pc_malloc_array((size_t)slots, sizeof *e.as);
    e.rowlen = pc_malloc_array((size_t)a->rows, sizeof *e.rowlen);
    int32_t *pos = pc_malloc_array((size_t)a->rows + 1, sizeof *pos);
    if (!e.ja || !e.as || !e.rowlen || !pos) {
        pc_free(pos);
        pc_free(irp);
        spmm_ell_free(&e);
        return pc_error_nomem(err, "building ELLPACK");
    }
    /* Entries in row order: a normalized COO already is (read in place);
     * otherwise stage them CSR-like through pos. */
    const int32_t *cja = a->col;
    const double *cas = a->val;
    int32_t *sja = NULL;
    double *sas = NULL;
    if (!convert_is_row_sorted(a)) {
        sja = pc_malloc_array((size_t)a->nnz, sizeof *sja);
        sas = pc_malloc_array((size_t)a->nnz, sizeof *sas);
        if (!sja || !sas) {
            pc_free(sja);
            pc_free(sas);
            pc_free(pos);
            pc_free(irp);
            spmm_ell_free(&e);
            return pc_error_nomem(err, "building ELLPACK");
        }
        memcpy(pos, irp, ((size_t)a->rows + 1) * sizeof *pos);
        for (int64_t k = 0; k < a->nnz; k++) {
            int32_t p = pos[a->row[k]]++;
            sja[p] = a->col[k];
            sas[p] = a->val[k];
        }
        cja = sja;
        cas = sas;
    }
    size_t m = (size_t)a->rows;
    #pragma omp parallel for num_threads(threads) if (threads > 1 && slots >= 65536) schedule(static)
    for (int32_t i = 0; i < a->rows; i++) {
        int32_t len = irp[i + 1] - irp[i];
        int32_t last = len ? cja[irp[i + 1] - 1] : 0;
        e.rowlen[i] = len;
        for (int32_t k = 0; k < maxnz; k++) {
            size_t s = (size_t)k * m + (size_t)i;
            if (k < len) {
                e.ja[s] = cja[irp[i] + k];
                e.as[s] = cas[irp[i] + k];
            } else {
                e.ja[s] = last;
                e.as[s] = 0.0;
            }
        }
    }
    pc_free(sja);
    pc_free(sas);
    pc_free(pos);
    pc_free(irp);
    *out = e;
    return PC_OK;
}

int spmm_ellnp_from_coo(const mm_coo *a, spmm_ellnp *out, int threads, pc_error *err)
{
    memset(out, 0, sizeof *out);
    spmm_csr c;
    int rc = spmm_csr_from_coo(a, &c, threads, err);
    if (rc)
        return rc;
    spmm_ellnp e = {.m = c.m, .n = c.n, .ja_pool = c.ja, .as_pool = c.as};
    e.nz = pc_malloc_array((size_t)c.m, sizeof *e.nz);
    e.ja = pc_malloc_array((size_t)c.m, sizeof *e.ja);
    e.as = pc_malloc_array((size_t)c.m, sizeof *e.as);
    if (!e.nz || !e.ja || !e.as) {
        pc_free(c.irp);
        spmm_ellnp_free(&e);
        return pc_error_nomem(err, "building unpadded ELLPACK");
    }
    for (int32_t i = 0; i < c.m; i++) {
        e.nz[i] = c.irp[i + 1] - c.irp[i];
        e.ja[i] = c.ja + c.irp[i];
        e.as[i] = c.as + c.irp[i];
    }
    pc_free(c.irp);
    *out = e;
    return PC_OK;
}

/* Shared tail of the three inverse conversions: entries were written in row
 * order, so normalizing only checks order and merges nothing. */
static int convert_back_alloc(mm_coo *out, int32_t m, int32_t n, int64_t nnz, pc_error *err)
{
    memset(out, 0, sizeof *out);
    return mm_coo_alloc(out, m, n, nnz, err);
}

int spmm_coo_from_csr(const spmm_csr *a, mm_coo *out, pc_error *err)
{
    int rc = convert_back_alloc(out, a->m, a->n, a->nnz, err);
    if (rc)
        return rc;
    for (int32_t i = 0; i < a->m; i++)
        for (int32_t p = a->irp[i]; p < a->irp[i + 1]; p++) {
            out->row[p] = i;
            out->col[p] = a->ja[p];
            out->val[p] = a->as[p];
        }
    rc = mm_coo_normalize(out, err);
    if (rc)
        mm_coo_free(out);
    return rc;
}

int spmm_coo_from_ell(const spmm_ell *a, mm_coo *out, pc_error *err)
{
    int64_t nnz = 0;
    size_t m = (size_t)a->m;
    for (size_t i = 0; i < m; i++)
        nnz += a->rowlen[i];
    int rc = convert_back_alloc(out, a->m, a->n, nnz, err);
    if (rc)
        return rc;
    int64_t e = 0;
    for (size_t i = 0; i < m; i++)
        for (int32_t k = 0; k < a->rowlen[i]; k++) {
            size_t s = (size_t)k * m + i;
            out->row[e] = (int32_t)i;
            out->col[e] = a->ja[s];
            out->val[e] = a->as[s];
            e++;
        }
    rc = mm_coo_normalize(out, err);
    if (rc)
        mm_coo_free(out);
    return rc;
}

int spmm_coo_from_ellnp(const spmm_ellnp *a, mm_coo *out, pc_error *err)
{
    int64_t nnz = 0;
    for (int32_t i = 0; i < a->m; i++)
        nnz += a->nz[i];
    int rc = convert_back_alloc(out, a->m, a->n, nnz, err);
    if (rc)
        return rc;
    int64_t e = 0;
    for (int32_t i = 0; i < a->m; i++)
        for (int32_t k = 0; k < a->nz[i]; k++) {
            out->row[e] = i;
            out->col[e] = a->ja[i][k];
            out->val[e] = a->as[i][k];
            e++;
        }
    rc = mm_coo_normalize(out, err);
    if (rc)
        mm_coo_free(out);
    return rc;
}

void spmm_csr_free(spmm_csr *a)
{
    pc_free(a->irp);
    pc_free(a->ja);
    pc_free(a->as);
    memset(a, 0, sizeof *a);
}

void spmm_ell_free(spmm_ell *a)
{
    pc_free(a->rowlen);
    pc_free(a->ja);
    pc_free(a->as);
    memset(a, 0, sizeof *a);
}

void spmm_ellnp_free(spmm_ellnp *a)
{
    pc_free(a->nz);
    pc_free(a->ja);
    pc_free(a->as);
    pc_free(a->ja_pool);
    pc_free(a->as_pool);
    memset(a, 0, sizeof *a);
}

long long spmm_csr_bytes(const spmm_csr *a)
{
    return ((long long)a->m + 1) * 4 + (long long)a->nnz * 12;
}

long long spmm_ell_bytes(const spmm_ell *a)
{
    return (long long)a->m * a->maxnz * 12 + (long long)a->m * 4;
}

long long spmm_ellnp_bytes(const spmm_ellnp *a)
{
    long long nnz = 0;
    for (int32_t i = 0; i < a->m; i++)
        nnz += a->nz[i];
    return (long long)a->m * (4 + 2 * (long long)sizeof(void *)) + nnz * 12;
}
