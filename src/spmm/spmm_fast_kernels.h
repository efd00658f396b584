/* spmm_fast_kernels.h - the row kernels of csr-cpu-fast, one per
 * instruction set (spmm_fast_kernels.c). */
#ifndef SPMM_FAST_KERNELS_H
#define SPMM_FAST_KERNELS_H

#include "spmm_fast.h"

/* Rows r0 .. r1-1 of block b into Y (row-major, K columns): y = products
 * (first != 0) or y += products; prefetch != 0 prefetches the X rows of
 * entries a few ahead. */
typedef void (*spmm_fast_rows_fn)(const spmm_fast_block *b, const double *X, int K, double *Y,
                                  int32_t r0, int32_t r1, int first, int prefetch);

/* The AVX2+FMA kernel where the CPU has both, else the portable one (also
 * when portable != 0, so tests can run both). Not thread-safe on its first
 * call: ask before a parallel region. */
spmm_fast_rows_fn spmm_fast_kernel(int portable);

#endif
