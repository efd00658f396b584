/* fuzz_mm.c - fuzz target "mm": Matrix Market reader, writer, converters and
 * serial SpMM against the oracle.
 *
 * Properties checked on every input (a violation traps, so libFuzzer, AFL++
 * and the replay driver all see a crash):
 *  - the reader either fails with a known PC_E* code, a non-empty message and
 *    nothing left allocated, or returns a normalized matrix (indices inside
 *    the shape, sorted by (row, col), no repeated entry, nnz <= rows*cols);
 *  - write + read back gives the same matrix, bit for bit (NaN for NaN);
 *  - COO -> CSR / ELLPACK / unpadded ELLPACK -> COO gives the same matrix,
 *    and each format holds what the model says it holds;
 *  - the serial CSR, ELLPACK and unpadded ELLPACK kernels agree with the
 *    double-double oracle (spmm_oracle_check), with K = 3;
 *  - everything taken from pc_alloc is given back.
 * Deterministic (fixed seeds, one thread); inputs over FUZZ_MM_MAX bytes and
 * matrices too large to multiply quickly are only read, not converted. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mm.h"
#include "pc_alloc.h"
#include "pc_error.h"
#include "spmm.h"
#include "spmm/spmm_oracle.h"

#define FUZZ_MM_MAX (64 * 1024)
/* Shapes beyond these are read and round-tripped only: the row pointers and
 * dense X / Y would make one execution slow, not more interesting. */
#define FUZZ_MM_MAX_DIM (1 << 14)
#define FUZZ_MM_MAX_ELL_SLOTS (1 << 16)
#define FUZZ_MM_K 3

#define FUZZ_NAME "fuzz_mm"
#include "fuzz_check.h"

static int same_double(double a, double b)
{
    if (isnan(a) || isnan(b))
        return isnan(a) && isnan(b);
    return memcmp(&a, &b, sizeof a) == 0;
}

static void check_same(const mm_coo *a, const mm_coo *b, const char *what)
{
    FUZZ_CHECK(a->rows == b->rows && a->cols == b->cols, "%s: shape %dx%d became %dx%d", what,
               a->rows, a->cols, b->rows, b->cols);
    FUZZ_CHECK(a->nnz == b->nnz, "%s: nnz %lld became %lld", what, (long long)a->nnz,
               (long long)b->nnz);
    for (int64_t k = 0; k < a->nnz; k++)
        FUZZ_CHECK(a->row[k] == b->row[k] && a->col[k] == b->col[k] &&
                       same_double(a->val[k], b->val[k]),
                   "%s: entry %lld (%d,%d,%.17g) became (%d,%d,%.17g)", what, (long long)k,
                   a->row[k], a->col[k], a->val[k], b->row[k], b->col[k], b->val[k]);
}

static void check_normalized(const mm_coo *m)
{
    FUZZ_CHECK(m->rows >= 0 && m->cols >= 0 && m->nnz >= 0, "negative shape");
    FUZZ_CHECK(m->nnz <= (int64_t)m->rows * m->cols, "%lld entries in %dx%d", (long long)m->nnz,
               m->rows, m->cols);
    FUZZ_CHECK(m->nnz <= MM_MAX_NNZ, "too many entries");
    int64_t zeros = 0;
    for (int64_t k = 0; k < m->nnz; k++) {
        FUZZ_CHECK(m->row[k] >= 0 && m->row[k] < m->rows && m->col[k] >= 0 &&
                       m->col[k] < m->cols,
                   "entry %lld (%d,%d) outside %dx%d", (long long)k, m->row[k], m->col[k],
                   m->rows, m->cols);
        if (k > 0)
            FUZZ_CHECK(m->row[k - 1] < m->row[k] ||
                           (m->row[k - 1] == m->row[k] && m->col[k - 1] < m->col[k]),
                       "entries %lld and %lld not sorted or repeated", (long long)k - 1,
                       (long long)k);
        zeros += m->val[k] == 0.0;
    }
    FUZZ_CHECK(zeros == m->explicit_zeros, "explicit_zeros %lld, counted %lld",
               (long long)m->explicit_zeros, (long long)zeros);
}

/* Write, read back, compare. */
static void check_write_read(const mm_coo *m)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    FUZZ_CHECK(f != NULL, "open_memstream");
    int rc = mm_write_stream(f, m);
    FUZZ_CHECK(fclose(f) == 0, "fclose");
    FUZZ_CHECK(rc == PC_OK, "mm_write_stream returned %d", rc);
    mm_coo back;
    pc_error err;
    pc_error_clear(&err);
    rc = mm_read_buffer("written", text, len, &back, &err);
    FUZZ_CHECK(rc == PC_OK, "reading the written matrix failed: %s\n%.300s", err.msg, text);
    free(text);
    check_same(m, &back, "write/read");
    mm_coo_free(&back);
}

static int32_t longest_row(const mm_coo *m)
{
    int32_t best = 0, run = 0;
    for (int64_t k = 0; k < m->nnz; k++) {
        run = k > 0 && m->row[k] == m->row[k - 1] ? run + 1 : 1;
        if (run > best)
            best = run;
    }
    return best;
}

/* Runs one kernel on a poisoned Y and checks it against the oracle. */
static void check_kernel(const spmm_oracle *orc, const spmm_matrix *A, const double *X,
                         double *Y, int kernel, const mm_coo *m)
{
    size_t len = (size_t)m->rows * FUZZ_MM_K;
    spmm_oracle_poison(Y, (int64_t)len);
    static const char *const names[] = {"csr-serial", "ell-serial", "ellnp-serial"};
    switch (kernel) {
    case 0: spmm_csr_serial(&A->csr, X, FUZZ_MM_K, Y); break;
    case 1: spmm_ell_serial(&A->ell, X, FUZZ_MM_K, Y); break;
    default: spmm_ellnp_serial(&A->ellnp, X, FUZZ_MM_K, Y); break;
    }
    spmm_verdict v;
    spmm_oracle_check(orc, Y, &v);
    FUZZ_CHECK(v.pass, "%s disagrees with the oracle on %dx%d nnz %lld: %s", names[kernel],
               m->rows, m->cols, (long long)m->nnz, v.why);
    FUZZ_CHECK(v.checked == (int64_t)len, "%s: oracle checked %lld of %zu entries",
               names[kernel], (long long)v.checked, len);
}

static void check_formats_and_spmm(const mm_coo *m)
{
    pc_error err;
    pc_error_clear(&err);
    int formats = SPMM_FMT_CSR | SPMM_FMT_ELLNP;
    if ((int64_t)m->rows * longest_row(m) <= FUZZ_MM_MAX_ELL_SLOTS)
        formats |= SPMM_FMT_ELL;
    spmm_matrix A;
    spmm_matrix_init(&A, m);
    int rc = spmm_matrix_need(&A, formats, 1, &err);
    FUZZ_CHECK(rc == PC_OK, "converting %dx%d nnz %lld: %s", m->rows, m->cols,
               (long long)m->nnz, err.msg);

    mm_coo back;
    FUZZ_CHECK(spmm_coo_from_csr(&A.csr, &back, &err) == PC_OK, "CSR -> COO: %s", err.msg);
    check_same(m, &back, "COO->CSR->COO");
    mm_coo_free(&back);
    FUZZ_CHECK(A.csr.irp[0] == 0 && A.csr.irp[m->rows] == m->nnz, "CSR row pointers");
    FUZZ_CHECK(spmm_csr_bytes(&A.csr) == 4LL * (m->rows + 1) + 12LL * m->nnz,
               "CSR holds %lld bytes", spmm_csr_bytes(&A.csr));
    FUZZ_CHECK(spmm_coo_from_ellnp(&A.ellnp, &back, &err) == PC_OK, "ELLNP -> COO: %s", err.msg);
    check_same(m, &back, "COO->ELLNP->COO");
    mm_coo_free(&back);
    if (formats & SPMM_FMT_ELL) {
        FUZZ_CHECK(spmm_coo_from_ell(&A.ell, &back, &err) == PC_OK, "ELL -> COO: %s", err.msg);
        check_same(m, &back, "COO->ELL->COO");
        mm_coo_free(&back);
        FUZZ_CHECK(A.ell.maxnz == longest_row(m), "ELL maxnz %d, longest row %d", A.ell.maxnz,
                   longest_row(m));
    }

    double *X = NULL;
    int ints = m->field != MM_FIELD_REAL;
    FUZZ_CHECK(spmm_make_x(m->cols, FUZZ_MM_K, 42, ints, &X, &err) == PC_OK, "X: %s", err.msg);
    spmm_oracle orc;
    FUZZ_CHECK(spmm_oracle_compute(m, X, FUZZ_MM_K, &orc, &err) == PC_OK, "oracle: %s", err.msg);
    size_t len = (size_t)m->rows * FUZZ_MM_K;
    double *Y = pc_malloc_array(len ? len : 1, sizeof *Y);
    FUZZ_CHECK(Y != NULL, "Y");
    check_kernel(&orc, &A, X, Y, 0, m);
    if (formats & SPMM_FMT_ELL)
        check_kernel(&orc, &A, X, Y, 1, m);
    check_kernel(&orc, &A, X, Y, 2, m);
    pc_free(Y);
    spmm_oracle_free(&orc);
    pc_free(X);
    spmm_matrix_free(&A);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > FUZZ_MM_MAX)
        return 0; /* over the cap: rejected, not read */
    long live = pc_alloc_live();
    mm_coo m;
    pc_error err;
    pc_error_clear(&err);
    int rc = mm_read_buffer("fuzz", (const char *)data, size, &m, &err);
    if (rc != PC_OK) {
        FUZZ_CHECK(rc == PC_EFORMAT || rc == PC_ERANGE || rc == PC_EUNSUP || rc == PC_ENOMEM,
                   "reader returned unexpected code %d (%s)", rc, err.msg);
        FUZZ_CHECK(err.code == rc && err.msg[0] != '\0', "error %d without message", rc);
        FUZZ_CHECK(pc_alloc_live() == live, "reader leaked %ld allocations on error",
                   pc_alloc_live() - live);
        return 0;
    }
    check_normalized(&m);
    check_write_read(&m);
    if (m.rows <= FUZZ_MM_MAX_DIM && m.cols <= FUZZ_MM_MAX_DIM)
        check_formats_and_spmm(&m);
    mm_coo_free(&m);
    FUZZ_CHECK(pc_alloc_live() == live, "%ld allocations leaked", pc_alloc_live() - live);
    return 0;
}
