/* spmm_cuda - a CUDA CSR SpMM plugin that asks for device pointers
 * (PARCHECK_F_DEVICE): parcheck copies A and X to the GPU, hands the run
 * device pointers, synchronises and times the call alone, then copies Y
 * back and validates it. One thread per entry (i, k) of Y, k fastest, so
 * a warp reads consecutive columns of X. */
#include <cstdio>

#include <cuda_runtime.h>
#include <parcheck/plugin.h>

__global__ void csr_spmm(int32_t m, int32_t K, const int32_t *irp, const int32_t *ja,
                         const double *as, const double *X, double *Y)
{
    const int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= (int64_t)m * K)
        return;
    const int32_t i = (int32_t)(t / K), k = (int32_t)(t % K);
    double s = 0.0;
    for (int32_t j = irp[i]; j < irp[i + 1]; j++)
        s += as[j] * X[(int64_t)ja[j] * K + k];
    Y[t] = s;
}

static int available(const parcheck_entry *, char *why, size_t why_len)
{
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess || n < 1) {
        std::snprintf(why, why_len, "no CUDA device");
        return 0;
    }
    return 1;
}

static int run(const parcheck_entry *, void *, const parcheck_spmm_problem *p, char *msg,
               size_t msg_len)
{
    const int64_t total = (int64_t)p->m * p->K;
    const int threads = 256;
    const int64_t blocks = (total + threads - 1) / threads;
    if (blocks > 0)
        csr_spmm<<<(unsigned)blocks, threads>>>(p->m, p->K, p->irp, p->ja,
                                                 static_cast<const double *>(p->as),
                                                 static_cast<const double *>(p->X),
                                                 static_cast<double *>(p->Y));
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) {
        std::snprintf(msg, msg_len, "kernel launch: %s", cudaGetErrorString(e));
        return PARCHECK_EDEVICE;
    }
    return PARCHECK_OK; /* parcheck synchronises and times up to there */
}

/* C++ before C++20 has no designated initializers: fill it in code. */
static parcheck_entry make_entry()
{
    parcheck_entry e = parcheck_entry();
    e.abi_version = PARCHECK_PLUGIN_ABI;
    e.struct_size = sizeof e;
    e.name = "spmm-cuda";
    e.description = "CUDA CSR SpMM, one thread per entry of Y, device pointers (example plugin)";
    e.domain = PARCHECK_DOMAIN_SPMM;
    e.flags = PARCHECK_F_DEVICE;
    e.available = available;
    e.run_spmm = run;
    return e;
}

static const parcheck_entry entry = make_entry();

PARCHECK_PLUGIN_DEFINE(&entry);
