/* spmm_oracle.h - the independent reference for Y = A*X.
 *
 * Computed from the COO entries (never from CSR or ELLPACK) in double-double
 * arithmetic, with the componentwise bound of docs/ARCHITECTURE.md §6, rule 1:
 * for row i with n_i stored entries, u = 2^-53, gamma_n = n u / (1 - n u),
 * b_ij = gamma_{n_i} (|A||X|)_ij, and an implementation passes when every
 * entry was written, is finite where the reference is, and
 * |y_ij - ref_ij| <= 2 b_ij. With integer-valued A and X whose partial sums
 * stay below 2^53, every partial sum is exact and results must equal the
 * reference exactly. Where a product is infinite or NaN (a matrix may store
 * inf), the reference is that IEEE value and must be reproduced exactly
 * (NaN for NaN). Shares no code with src/spmm. */
#ifndef SPMM_ORACLE_H
#define SPMM_ORACLE_H

#include <stdint.h>

#include "mm.h"
#include "pc_error.h"

typedef struct spmm_oracle {
    int32_t m;
    int K;
    double *hi, *lo;       /* reference as a double-double, m*K */
    double *absax;         /* (|A||X|)_ij, m*K */
    double *special;       /* sum of the non-finite products, m*K (0 if none) */
    int32_t *nrow;         /* stored entries per row, m */
    int exact;             /* integer inputs: bit-identical results required */
} spmm_oracle;

typedef struct spmm_verdict {
    int pass;
    int64_t checked;
    double max_rel_err;        /* over entries with ref != 0 */
    double mean_rel_err;
    double max_err_over_bound; /* max |y-ref| / b_ij (0/0 counts as 0) */
    double unit_roundoff;      /* 2^-53 */
    int64_t bad;               /* entries that failed */
    char why[256];             /* first failure, "entry (i,k): ..." */
} spmm_verdict;

/* Computes the reference of A*X (X row-major, A->cols x K). */
int spmm_oracle_compute(const mm_coo *A, const double *X, int K, spmm_oracle *o,
                        pc_error *err);

/* Fills Y (len doubles) with the poison pattern that marks "never written". */
void spmm_oracle_poison(double *Y, int64_t len);

/* Checks Y (m x K, row-major) against the reference; fills v. */
void spmm_oracle_check(const spmm_oracle *o, const double *Y, spmm_verdict *v);

void spmm_oracle_free(spmm_oracle *o);

#endif
