/* spmm_cuda.h - the CUDA SpMM implementations, seen from C.
 *
 * One set of entry points serves every CUDA variant; the variant is the
 * spmm_impl.variant number below. Built only when nvcc exists
 * (PC_HAVE_CUDA); at run time available() reports pc_cuda_probe's reason on a
 * machine without a GPU. Kernel time is measured with CUDA events, the
 * host<->device copies apart. */
#ifndef SPMM_CUDA_H
#define SPMM_CUDA_H

#include "spmm.h"

#ifdef __cplusplus
extern "C" {
#endif

enum spmm_cuda_variant {
    SPMM_CUDA_SCALAR1,          /* one thread per element of Y, partial sum in global memory */
    SPMM_CUDA_SCALAR2,          /* partial sum in a register */
    SPMM_CUDA_SCALAR3,          /* row bounds loaded once */
    SPMM_CUDA_VECTOR,           /* one warp per element, shuffle reduction */
    SPMM_CUDA_SUBWARP,          /* 2 threads per element */
    SPMM_CUDA_ADAPTIVE,         /* CSR-Adaptive: CSR-Stream / CSR-Vector per row block, X transposed */
    SPMM_CUDA_VECTOR_BYROW,     /* one warp per row of Y, 8 sub-warps of 4 split the K columns */
    SPMM_CUDA_ADAPTIVE_SUBBLOCKS,
    SPMM_CUDA_ELL,              /* ELLPACK, one thread per element */
    SPMM_CUDA_ELL_SUBWARP,      /* ELLPACK, 2 threads per element */
    SPMM_CUDA_CUSPARSE,         /* cusparseSpMM, vendor reference */
    SPMM_CUDA_FAST,             /* the project's fastest design */
    SPMM_CUDA_NVARIANTS
};

int spmm_cuda_available(const spmm_impl *self, char *why, size_t n);
int spmm_cuda_prepare(const spmm_impl *self, const spmm_matrix *A, int K, void **state,
                      pc_error *err);
int spmm_cuda_run(const spmm_impl *self, void *state, const spmm_matrix *A, const double *X,
                  int K, double *Y, int threads, spmm_timing *t, pc_error *err);
void spmm_cuda_release(void *state);

#ifdef __cplusplus
}
#endif

#endif
