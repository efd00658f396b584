/* pc_cuda.h - whether a CUDA device can be used, for every CUDA module.
 * Defined in src/common/cuda/pc_cuda_probe.cu, built only when nvcc exists
 * (PC_HAVE_CUDA). */
#ifndef PC_CUDA_H
#define PC_CUDA_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* 1 when a CUDA device can be used; else 0, with "no CUDA device (...)"
 * in why (when why_len > 0). Probed once per process: cudaGetDeviceCount
 * is slow-ish and its answer does not change. */
int pc_cuda_probe(char *why, size_t why_len);

#ifdef __cplusplus
}
#endif

#endif
