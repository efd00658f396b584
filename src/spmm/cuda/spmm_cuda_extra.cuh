/* spmm_cuda_extra.cuh - helpers of the CUDA SpMM module for its benchmark
 * driver and tests, callable from C (plain declarations only). Defined in
 * spmm_cuda.cu; present only when PC_HAVE_CUDA. */
#ifndef SPMM_CUDA_EXTRA_CUH
#define SPMM_CUDA_EXTRA_CUH

#include <stddef.h>

#include "pc_error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Device-to-device copy of `bytes`, best of reps after a warm-up, as GB/s
 * counting bytes read plus bytes written; device gets the GPU's name.
 * PC_EUNAVAIL without a device. */
int spmm_cuda_copy_bandwidth(size_t bytes, int reps, double *gbs, char *device,
                             size_t device_len, pc_error *err);

/* Page-locks host memory so that copies run at full speed (0 on success,
 * -1 when it could not: copies then stay correct, only slower). */
int spmm_cuda_host_register(void *p, size_t bytes);
void spmm_cuda_host_unregister(void *p);

/* Kernel time of a state that has run once (X on the device, transposed
 * where the variant needs it): the kernel alone, launched back to back
 * about 1 ms worth of times (*launches, from the single-launch time
 * `single`), as the mean seconds per launch. Small matrices run in a few
 * microseconds, where one launch between two events mostly measures the
 * events. */
int spmm_cuda_time_kernel(void *state, double single, double *seconds, int *launches,
                          pc_error *err);

/* What a prepared state chose on its matrix: the cuSPARSE algorithm, the
 * csr-cuda-fast configuration ("vec2 c8 s4"), else "". */
const char *spmm_cuda_plan_name(const void *state);

#ifdef __cplusplus
}
#endif

#endif
