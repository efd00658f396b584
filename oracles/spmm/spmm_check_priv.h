/* spmm_check_priv.h - what the three parts of the SpMM checker share:
 * spmm_check.c (set-up, blocks, report), spmm_check_fast.c (the
 * compensated pass) and spmm_check_exact.c (the exact judge). Rules R1-R7
 * are those of spmm_check.h. */
#ifndef SPMM_CHECK_PRIV_H
#define SPMM_CHECK_PRIV_H

#include <stdint.h>

#include "spmm/spmm_check.h"

/* Row ranges kept per block: one more than the report shows, so that the
 * report can tell "and N more rows". */
#define CHK_SHOW_RANGES 8
#define CHK_KEEP_RANGES (CHK_SHOW_RANGES + 1)

/* The problem as the passes read it. */
typedef struct chk_ctx {
    int32_t m, n;
    int K;
    const int64_t *rowptr;
    const int32_t *col;
    const double *val;
    const double *X;        /* n x K row-major doubles (rounded to float for fp32) */
    int64_t ldx;
    spmm_check_dense Y;
    int fp32;               /* R7: A values are rounded to float as they are read */
    int exact;              /* R6 in force */
    double u;               /* unit roundoff of the judged precision */
    double eta2;            /* 2 eta of R2 (2^-1074 or 2^-149) */
    double exact_limit;     /* 2^53 or 2^24 (R6) */
    int use_fma;            /* the AVX2+FMA clone of the fast pass may run */
    int force_exact;        /* test hook: every entry to the exact judge */
} chk_ctx;

/* The verdict on one entry, as both passes produce it. */
typedef struct chk_verdict {
    int reason;             /* enum spmm_check_reason */
    int r2;                 /* 1: judged by R2/R6, errv and b are meaningful */
    double ref;             /* the reference rounded to double */
    double errv;            /* |y - S| (rounded) */
    double b;               /* b_ij of R1 */
    double bound;           /* T_ij of R2 */
} chk_verdict;

/* What one block of rows found. Blocks are fixed by the matrix alone and
 * merged in row order, so the report does not depend on the threads. */
typedef struct chk_block {
    int64_t row0, row1;
    int64_t bad, bad_rows, last_bad_row;
    int64_t nrel, slow_undecided, slow_special;
    double max_rel, sum_rel, max_over;
    int exact_broken;       /* some |A||X| passed the R6 limit */
    int64_t bad_col_row;    /* first row with a column index out of range, or -1 */
    int nfail;
    spmm_check_entry fail[SPMM_CHECK_FAIL_MAX];
    int nranges;
    int64_t range[CHK_KEEP_RANGES][2];
} chk_block;

/* Judges entry (i, k) from the exact sum of its products (all rules).
 * y is the value read from Y and poison whether it held the R3 pattern. */
void chk_exact_entry(const chk_ctx *c, int64_t i, int k, double y, int poison, chk_verdict *v);

/* Runs the compensated pass over the rows of B (B zeroed but for its rows). */
void chk_fast_block(const chk_ctx *c, chk_block *B);

/* Adds one judged entry to B: metrics, counters, failure records and row
 * ranges. Entries must come in row-major order within B. */
void chk_block_note(const chk_ctx *c, chk_block *B, int64_t i, int k, double y,
                    const chk_verdict *v);

/* 1 when an AVX2+FMA clone of the fast pass exists, this CPU runs it and
 * chk_test_hooks has not turned it off. */
int chk_fast_has_fma(void);

/* Test hooks for later checks: allow_fma 0 takes the portable body;
 * force_exact 1 sends every entry to the exact judge. */
void chk_test_hooks(int allow_fma, int force_exact);
int chk_fast_force_exact(void);

#endif
