/* pc_cuda.cu - the device probe and the error helper of every CUDA module
 * (pc_cuda.h). */
#include <cuda_runtime.h>
#include <stdio.h>

#include "pc_cuda.h"

/* The reason a failed device count gives, in the words a user acts on. The
 * runtime reports a machine with no driver at all as an "insufficient"
 * driver, which reads as "upgrade it": cudaDriverGetVersion tells the two
 * apart (it gives 0 when no driver is installed). */
static void probe_reason(cudaError_t e, char *reason, size_t len)
{
    int drv = 0, rt = 0;
    if (e == cudaErrorInsufficientDriver && cudaDriverGetVersion(&drv) == cudaSuccess && drv > 0) {
        (void)cudaRuntimeGetVersion(&rt);
        snprintf(reason, len, "NVIDIA driver too old for this CUDA runtime (driver %d.%d, runtime %d.%d)",
                 drv / 1000, drv % 1000 / 10, rt / 1000, rt % 1000 / 10);
    } else if (e == cudaErrorInsufficientDriver || e == cudaErrorNoDevice) {
        snprintf(reason, len, "%s", PC_CUDA_NO_DEVICE);
    } else {
        snprintf(reason, len, "CUDA unusable (cudaGetDeviceCount: %s)", cudaGetErrorString(e));
    }
}

extern "C" int pc_cuda_probe(char *why, size_t why_len)
{
    static int done = 0, ok = 0;
    static char reason[200];
    if (!done) {
        int count = 0;
        cudaError_t e = cudaGetDeviceCount(&count);
        if (e != cudaSuccess) {
            probe_reason(e, reason, sizeof reason);
            (void)cudaGetLastError();
        } else if (count == 0) {
            snprintf(reason, sizeof reason, "%s", PC_CUDA_NO_DEVICE);
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
