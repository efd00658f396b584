/* spmm_check.h - judges a Y = A*X that another program computed.
 *
 * The rules are those of the SpMM oracle (spmm_oracle.h), numbered here so
 * that the code can cite them:
 *  R1 For row i with n_i stored entries, u the unit roundoff of the judged
 *     precision (2^-53 for fp64, 2^-24 for fp32) and
 *     gamma_n = n u / (1 - n u), the bound is b_ij = gamma_{n_i} (|A||X|)_ij,
 *     where (|A||X|)_ij is the double sum of fl(|a||x|) in row order (the
 *     oracle's sum, bit for bit).
 *  R2 An entry passes when |y_ij - S_ij| <= T_ij with S_ij the exact sum of
 *     the products and T_ij = fl(2 b_ij + n_i * 2 eta) the reported bound;
 *     eta (2^-1075 for fp64, 2^-150 for fp32) is half the smallest subnormal,
 *     the most a product can lose to underflow. The second term is below
 *     1e-314 (fp64) and changes nothing unless |A||X| itself underflows.
 *  R3 An entry still holding the poison pattern (SPMM_CHECK_POISON64, or
 *     SPMM_CHECK_POISON32 in a float Y) was never written: it fails.
 *  R4 Where a product is inf or NaN the reference is the IEEE sum of those
 *     products; where the reference or |A||X| is not finite, y must
 *     reproduce the reference exactly (NaN for NaN).
 *  R5 Where the reference is finite, a y that is not finite fails.
 *  R6 Integer-valued A and X with every |value| and every (|A||X|)_ij at
 *     most 2^53 (2^24 for fp32) make every partial sum exact in any order:
 *     y must then equal the reference exactly.
 *  R7 fp32: A and X are rounded to float first; the reference is the exact
 *     sum of the rounded products.
 *
 * How (spmm_check.c): a parallel pass vectorised across the K columns of
 * each X row computes, per entry, a compensated sum (Ogita-Rump-Oishi Dot2),
 * |A||X| and a rigorous bound on the distance to the exact sum; entries that
 * pass cannot decide (a y within that distance of the threshold, a non-finite
 * product, |A||X| above 2^1000) are judged from the exact sum, computed in a
 * long fixed-point accumulator. Verdicts are therefore exact, not
 * approximations of R2. The result does not depend on the thread count.
 * Shares no code with src/spmm (nor with spmm_oracle.c). Assumes IEEE
 * double arithmetic in round-to-nearest. */
#ifndef SPMM_CHECK_H
#define SPMM_CHECK_H

#include <stdint.h>

#include "pc_error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The "never written" patterns: quiet NaNs whose payloads no arithmetic
 * produces. SPMM_CHECK_POISON64 has the bits of spmm_oracle_poison. */
#define SPMM_CHECK_POISON64 0x7FF8DEADBEEF0A11ull
#define SPMM_CHECK_POISON32 0x7FCDEAD1u

/* A, m x n, in compressed sparse rows, read only:
 * rowptr [0..m]    rowptr[0] == 0, non-decreasing, rowptr[m] == nnz;
 * col    [0..nnz)  column indices in [0, n) (any order within a row);
 * val    [0..nnz)  values (inf and NaN allowed). */
typedef struct spmm_check_csr {
    int32_t m, n;
    const int64_t *rowptr;
    const int32_t *col;
    const double *val;
} spmm_check_csr;

enum spmm_check_dtype { SPMM_CHECK_F64 = 0, SPMM_CHECK_F32 = 1 };
enum spmm_check_layout { SPMM_CHECK_ROW_MAJOR = 0, SPMM_CHECK_COL_MAJOR = 1 };
enum spmm_check_precision { SPMM_CHECK_FP64 = 0, SPMM_CHECK_FP32 = 1 };

/* A dense rows x K matrix, read only. Entry (r, k) is at data[r*ld + k]
 * (row-major, ld >= K) or data[r + k*ld] (column-major, ld >= rows). */
typedef struct spmm_check_dense {
    const void *data;
    int dtype;      /* enum spmm_check_dtype */
    int layout;     /* enum spmm_check_layout */
    int64_t ld;
} spmm_check_dense;

/* Why an entry failed. */
enum spmm_check_reason {
    SPMM_CHECK_OK = 0,
    SPMM_CHECK_NEVER_WRITTEN,    /* R3 */
    SPMM_CHECK_NOT_REPRODUCED,   /* R4 */
    SPMM_CHECK_NOT_FINITE,       /* R5 */
    SPMM_CHECK_NOT_EXACT,        /* R6 */
    SPMM_CHECK_OVER_BOUND        /* R2 */
};

/* One failing entry (0-based row and column). expected is the reference
 * rounded to double (exactly rounded, from the exact sum); bound is T_ij. */
typedef struct spmm_check_entry {
    int64_t row;
    int32_t col;
    int reason;     /* enum spmm_check_reason */
    double got, expected, bound;
} spmm_check_entry;

#define SPMM_CHECK_FAIL_MAX 10

/* The verdict: plain data, no pointers. */
typedef struct spmm_check_report {
    int pass;                 /* 1: every entry passed */
    int exact;                /* 1: R6 applied (bit-identical results required) */
    int precision;            /* enum spmm_check_precision judged */
    int64_t checked;          /* entries judged, m*K */
    int64_t bad;              /* entries that failed */
    int64_t bad_rows;         /* rows with at least one failing entry */
    double max_rel_err;       /* max |y - S| / |S| over entries with S != 0 (R2 entries) */
    double mean_rel_err;      /* mean of the same */
    double max_err_over_bound;/* max |y - S| / b_ij (0/0 counts 0, x/0 inf) */
    double unit_roundoff;     /* u of the judged precision */
    int64_t slow_undecided;   /* entries the fast pass could not decide: judged exactly */
    int64_t slow_special;     /* entries with a non-finite product or |A||X| > 2^1000 */
    int nfail;                /* failing entries recorded below, first in row-major order */
    spmm_check_entry fail[SPMM_CHECK_FAIL_MAX];
    char why[256];            /* the first failure in words, 1-based as in Matrix Market */
    char rows[256];           /* "rows 18, 4021-4100 wrong; all other rows within bound" */
} spmm_check_report;

/* Judges Y (A->m x K) against A*X (X is A->n x K) by rules R1-R7.
 * A         CSR as above; checked (rowptr order, column range) before use.
 * X, Y      descriptors as above; X any dtype (values widened exactly).
 * K         >= 1 columns.
 * precision SPMM_CHECK_FP64 or SPMM_CHECK_FP32 (R7).
 * threads   OpenMP threads (>= 1); the report is the same for any count.
 * rep       receives the verdict (always written; zeroed on error).
 * Work space: about 8 bytes x n x K when X is not a row-major double array
 * or precision is fp32 (a rounded row-major copy), plus 1 KiB per block of
 * about 2^18 entries; through pc_alloc, freed on every path.
 * Returns PC_OK (the verdict is in rep, pass or fail), PC_EINVAL (a bad
 * descriptor or CSR structure, with the reason in err) or PC_ENOMEM. */
int spmm_check(const spmm_check_csr *A, const spmm_check_dense *X, const spmm_check_dense *Y,
               int K, int precision, int threads, spmm_check_report *rep, pc_error *err);

/* Fills Y (len items of dtype) with the poison pattern of R3. */
void spmm_check_poison(void *Y, int dtype, int64_t len);

#ifdef __cplusplus
}
#endif

#endif
