/* pc_cuda.h - what every CUDA module shares: whether a device can be used,
 * and how a failed CUDA call becomes an error. Defined in
 * src/common/cuda/pc_cuda.cu, built only when nvcc exists (PC_HAVE_CUDA). */
#ifndef PC_CUDA_H
#define PC_CUDA_H

#include <stddef.h>

#include "pc_error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The reason given when the machine has no NVIDIA driver or no GPU: one
 * sentence, so that reports and `parcheck list` can group the rows it
 * skips. */
#define PC_CUDA_NO_DEVICE "no NVIDIA driver or GPU on this machine"

/* 1 when a CUDA device can be used; else 0, with the reason in why (when
 * why_len > 0): PC_CUDA_NO_DEVICE, "NVIDIA driver too old for this CUDA
 * runtime (...)" or "CUDA unusable (...)". Probed once per process:
 * cudaGetDeviceCount is slow-ish and its answer does not change. */
int pc_cuda_probe(char *why, size_t why_len);

#ifdef __CUDACC__
/* Records a failed CUDA call as PC_EDEVICE "file:line: what: error (name)"
 * and clears a non-sticky error, so that the next call is not blamed. */
int pc_cuda_fail(pc_error *err, const char *file, int line, const char *what, cudaError_t e);
#endif

#ifdef __cplusplus
}
#endif

#ifdef __CUDACC__
/* Returns from the calling function (which has a pc_error *err) when a
 * CUDA call fails. */
#define PC_CU(call, what)                                                   \
    do {                                                                    \
        cudaError_t e_ = (call);                                            \
        if (e_ != cudaSuccess)                                              \
            return pc_cuda_fail(err, __FILE__, __LINE__, (what), e_);       \
    } while (0)

/* After every launch: configuration errors show at once. */
#define PC_CU_LAUNCHED(what) PC_CU(cudaGetLastError(), (what))
#endif

#endif
