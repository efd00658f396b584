/* spmm.h - sparse matrix times dense multivector, Y = A * X.
 *
 * X is N x K and Y is M x K, both row-major (entry (i,k) at i*K + k).
 * A is given as COO (src/mm) and converted to the storage formats below.
 * Every implementation is one entry of a table (spmm_impl_at) so that the
 * CLI, tests and benchmarks iterate over variants instead of naming them. */
#ifndef SPMM_H
#define SPMM_H

#include <stddef.h>
#include <stdint.h>

#include "mm.h"
#include "pc_error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Compressed sparse rows: row i holds entries irp[i] .. irp[i+1]-1. */
typedef struct spmm_csr {
    int32_t m, n;
    int32_t nnz;
    int32_t *irp;   /* m + 1 */
    int32_t *ja;    /* nnz column indices, ascending within a row */
    double *as;     /* nnz values */
} spmm_csr;

/* ELLPACK with zero padding, column-major slabs: entry k of row i is at
 * k*m + i, so consecutive rows (threads) read consecutive addresses.
 * Padding has value 0 and repeats the row's last column (0 for an empty
 * row), so it reads memory already touched. */
typedef struct spmm_ell {
    int32_t m, n;
    int32_t maxnz;  /* longest row */
    int32_t *rowlen;/* m: real entries per row (the rest is padding) */
    int32_t *ja;    /* m * maxnz */
    double *as;     /* m * maxnz */
} spmm_ell;

/* ELLPACK without padding: one jagged row each (row i has nz[i] entries at
 * ja[i][0..nz[i]) and as[i][..]), stored in two pools. */
typedef struct spmm_ellnp {
    int32_t m, n;
    int32_t *nz;      /* m */
    int32_t **ja;     /* m row pointers into ja_pool */
    double **as;      /* m row pointers into as_pool */
    int32_t *ja_pool;
    double *as_pool;
} spmm_ellnp;

int spmm_csr_from_coo(const mm_coo *a, spmm_csr *out, int threads, pc_error *err);
int spmm_ell_from_coo(const mm_coo *a, spmm_ell *out, int threads, pc_error *err);
int spmm_ellnp_from_coo(const mm_coo *a, spmm_ellnp *out, int threads, pc_error *err);
/* Back to COO (for round-trip checks); output is normalized. */
int spmm_coo_from_csr(const spmm_csr *a, mm_coo *out, pc_error *err);
int spmm_coo_from_ell(const spmm_ell *a, mm_coo *out, pc_error *err);
int spmm_coo_from_ellnp(const spmm_ellnp *a, mm_coo *out, pc_error *err);
void spmm_csr_free(spmm_csr *a);
void spmm_ell_free(spmm_ell *a);
void spmm_ellnp_free(spmm_ellnp *a);

/* Bytes of each stored format (the memory model). */
long long spmm_csr_bytes(const spmm_csr *a);
long long spmm_ell_bytes(const spmm_ell *a);
long long spmm_ellnp_bytes(const spmm_ellnp *a);

enum spmm_format { SPMM_FMT_CSR = 1, SPMM_FMT_ELL = 2, SPMM_FMT_ELLNP = 4 };

/* A matrix with the formats built so far (spmm_matrix_need builds more). */
typedef struct spmm_matrix {
    const mm_coo *coo;
    int have;           /* enum spmm_format bits */
    spmm_csr csr;
    spmm_ell ell;
    spmm_ellnp ellnp;
} spmm_matrix;

void spmm_matrix_init(spmm_matrix *A, const mm_coo *coo);
/* Builds the formats in `formats` that are not there yet. */
int spmm_matrix_need(spmm_matrix *A, int formats, int threads, pc_error *err);
void spmm_matrix_free(spmm_matrix *A);

/* What one run measured. Fields an implementation does not measure stay
 * negative. */
typedef struct spmm_timing {
    double kernel_s;        /* device kernel time (CUDA events) */
    double h2d_s, d2h_s;    /* host<->device copies */
    double transpose_s;     /* X transpose, timed apart */
    long long device_bytes; /* device memory held for this run */
} spmm_timing;

typedef struct spmm_impl spmm_impl;
struct spmm_impl {
    const char *name;
    const char *desc;
    int format;             /* enum spmm_format the implementation reads */
    int variant;            /* backend-specific kernel number */
    /* 1 when it can run here; else 0 with the reason in why. */
    int (*available)(const spmm_impl *self, char *why, size_t n);
    /* Per-matrix set-up (device upload, plans); *state may stay NULL. */
    int (*prepare)(const spmm_impl *self, const spmm_matrix *A, int K, void **state,
                   pc_error *err);
    /* Y = A*X. Y must be fully written. */
    int (*run)(const spmm_impl *self, void *state, const spmm_matrix *A, const double *X,
               int K, double *Y, int threads, spmm_timing *t, pc_error *err);
    void (*release)(void *state);
    /* 1 when repeated runs may differ in the last bits (a vendor library
     * whose reductions are not reproducible): every run is then checked
     * against the oracle instead of compared bit for bit with the first. */
    int varies;
};

int spmm_impl_count(void);
const spmm_impl *spmm_impl_at(int i);
const spmm_impl *spmm_impl_find(const char *name);
/* Selects table entries from a comma-separated list of names ("all" =
 * every entry), as pc_cli_select: sel[k] = 1 for each chosen entry k,
 * explicit_sel[k] = 1 when it was named; both sized spmm_impl_count(). */
int spmm_impl_select(const char *list, int *sel, int *explicit_sel, pc_error *err);
/* Convenience: available(), tolerant of a NULL hook (= always available). */
int spmm_impl_available(const spmm_impl *impl, char *why, size_t n);

/* Host kernels, exposed for tests and benchmarks. */
void spmm_csr_serial(const spmm_csr *A, const double *X, int K, double *Y);
void spmm_csr_omp(const spmm_csr *A, const double *X, int K, double *Y, int threads);
void spmm_ell_serial(const spmm_ell *A, const double *X, int K, double *Y);
void spmm_ell_omp(const spmm_ell *A, const double *X, int K, double *Y, int threads);
void spmm_ellnp_serial(const spmm_ellnp *A, const double *X, int K, double *Y);
void spmm_ellnp_omp(const spmm_ellnp *A, const double *X, int K, double *Y, int threads);

/* Matrix generator (parcheck gen matrix): shapes below, fixed seed gives the
 * same matrix everywhere. Values uniform in [-1, 1) or, with int_values,
 * integers in [-8, 8] \ {0}. */
enum spmm_shape { SPMM_SHAPE_UNIFORM, SPMM_SHAPE_BANDED, SPMM_SHAPE_POWERLAW, SPMM_SHAPE_DENSEROWS };
typedef struct spmm_gen_params {
    int32_t rows, cols;
    int64_t nnz;            /* target stored entries (approximate for some shapes) */
    int shape;
    uint64_t seed;
    int int_values;
    int32_t max_row;        /* powerlaw: longest row (0 = cols) */
} spmm_gen_params;
int spmm_gen_shape_parse(const char *s, int *shape);
int spmm_gen_coo(const spmm_gen_params *p, mm_coo *out, pc_error *err);

/* Dense X for a run: uniform in [-1, 1), or integers in [-8, 8] with ints. */
int spmm_make_x(int32_t n, int K, uint64_t seed, int ints, double **X, pc_error *err);

#ifdef __cplusplus
}
#endif

#endif
