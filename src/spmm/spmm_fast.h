/* spmm_fast.h - csr-cpu-fast, parcheck's fastest CPU SpMM design.
 *
 * The matrix is CSR, optionally cut into column blocks (each a CSR over all
 * rows holding only the entries whose column falls in the block) so that
 * the slice of X that one pass reads stays in the last-level cache. A pass
 * per block runs over every row; the first writes Y, the later ones add to
 * it, so each y(i,k) is still the sum of row i's products in stored order
 * (at K = 1: of two interleaved partial sums, to shorten the dependency
 * chain; the oracle's bound holds for any order).
 * The K columns are blocked in registers (up to 32 at once), vectorised
 * with AVX2+FMA when the CPU has them (chosen at run time) and with
 * portable vector code otherwise; X rows of scattered columns are
 * prefetched a few entries ahead; threads take entry-balanced chunks of
 * rows. One body serves 1 and T threads. */
#ifndef SPMM_FAST_H
#define SPMM_FAST_H

#include "spmm.h"

/* Column block b: rows 0..m-1, entries irp[i] .. irp[i+1]-1 (columns in
 * [b*width, (b+1)*width), ascending). */
typedef struct spmm_fast_block {
    const int32_t *irp;
    const int32_t *ja;
    const double *as;
    int32_t nnz;
} spmm_fast_block;

typedef struct spmm_fast {
    int32_t m, n;
    int64_t nnz;
    int nblocks;            /* 1: the CSR itself, nothing copied */
    int32_t width;          /* columns per block */
    int prefetch;           /* 1 when columns are scattered (X rows prefetched) */
    int portable;           /* 1: the portable kernel even where AVX2 runs (tests) */
    spmm_fast_block *blk;   /* nblocks */
    const int32_t *row_irp; /* A's row pointers: chunks are balanced on them */
    int32_t *pool_irp;      /* storage of copied blocks (NULL for one block) */
    int32_t *pool_ja;
    double *pool_as;
} spmm_fast;

/* Plans and builds the layout for A (CSR) at K columns. x_budget is how
 * many bytes of X one pass may touch (0: a share of the last-level cache
 * that depends on K);
 * blocks are cut only where the model of docs/README-spmm-cpu.md says the
 * extra passes over Y cost less than the X misses they save, or always
 * when x_budget < 0 (tests: blocks of -x_budget bytes of X). Arrays of A
 * are borrowed, not copied, when one block is used: A must outlive *out.
 * Returns 0, PC_EINVAL (K < 1) or PC_ENOMEM (nothing left allocated). */
int spmm_fast_build(const spmm_csr *A, int K, long long x_budget, spmm_fast *out,
                    pc_error *err);
/* Y = A*X (row-major, n x K and m x K) on `threads` threads; every entry of
 * Y is written. */
void spmm_fast_run(const spmm_fast *F, const double *X, int K, double *Y, int threads);
/* Frees what build allocated; safe on a zeroed or freed *F. */
void spmm_fast_free(spmm_fast *F);
/* Bytes of the last-level cache one core sees (sysfs's instance size, else
 * sysconf, else 32 MiB): the default x_budget is LLC/16 at K < 4 and
 * LLC/8 from K = 4 on. */
long long spmm_fast_llc_bytes(void);
/* "avx2" or "portable": the kernel spmm_fast_run uses on this CPU. */
const char *spmm_fast_isa(void);

/* Table hooks (state is a spmm_fast). */
int spmm_fast_prepare(const spmm_impl *self, const spmm_matrix *A, int K, void **state,
                      pc_error *err);
int spmm_fast_impl_run(const spmm_impl *self, void *state, const spmm_matrix *A,
                       const double *X, int K, double *Y, int threads, spmm_timing *t,
                       pc_error *err);
void spmm_fast_release(void *state);

#endif
