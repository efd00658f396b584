/* pc_cuda.cu - the device probe and the error helper of every CUDA module
 * (pc_cuda.h). */
#include <cuda_runtime.h>
#include <stdio.h>

#include "pc_cuda.h"

extern "C" int pc_cuda_probe(char *why, size_t why_len)
{
    static int done = 0, ok = 0;
    static char reason[200];
    if (!done) {
        int count = 0;
        cudaError_t e = cudaGetDeviceCount(&count);
        if (e != cudaSuccess) {
            snprintf(reason, sizeof reason, "no CUDA device (cudaGetDeviceCount: %s)",
                     cudaGetErrorString(e));
            (void)cudaGetLastError();
        } else if (count == 0) {
            snprintf(reason, sizeof reason, "no CUDA device (cudaGetDeviceCount: 0 devices)");
        } else {
            ok = 1;
        }
        done = 1;
    }
    if (why_len)
        snprintf(why, why_len, "%s", ok ? "" : reason);
    return ok;
}

extern "C" int pc_cuda_fail(pc_error *err, const char *file, int line, const char *what,
                            cudaError_t e)
{
    (void)cudaGetLastError();
    return pc_error_set(err, PC_EDEVICE, file, line, "%s: %s (%s)", what, cudaGetErrorString(e),
                        cudaGetErrorName(e));
}
