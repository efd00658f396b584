/* sa_cuda_finish.cu - the last phase of the GPU suffix-array engine: the
 * on-device permutation pre-check, the LCP (Phi, then the permuted LCP in
 * Kasai's order inside chunks, then LCP[i] = PLCP[SA[i]]; Kasai on host
 * threads when the repeats are too long for the chunked kernel) and the
 * download (staged in cuda-ms, beside the LCP kernels). */
#include <algorithm>

#include "sa_cuda_internal.h"

/* Permutation pre-check: every entry in range and seen once (act is all
 * zero on entry and serves as the "seen" bit set). */
__global__ void k_check(i64 n, const int32_t *SA, uint32_t *seen, i64 *bad)
{
    GS_LOOP(t, n) {
        int32_t v = SA[t];
        if (v < 0 || v >= n) {
            atomicAdd((unsigned long long *)bad, 1ull);
            continue;
        }
        uint32_t bit = 1u << (v & 31);
        if (atomicOr(&seen[v >> 5], bit) & bit)
            atomicAdd((unsigned long long *)bad, 1ull);
    }
}

__global__ void k_phi(i64 n, const int32_t *SA, int32_t *Phi)
{
    GS_LOOP(t, n)
        Phi[SA[t]] = t ? SA[t - 1] : -1;
}

/* Permuted LCP, Kasai's order inside chunks of C text positions (the LCP of
 * position i + 1 is at least that of i minus one); each chunk restarts at
 * 0. PLCP overwrites Phi in place. */
__global__ void k_plcp(const uint8_t *T, i64 n, i64 C, int32_t *Phi)
{
    i64 chunks = (n + C - 1) / C;
    GS_LOOP(c, chunks) {
        i64 l = 0, end = min(n, (c + 1) * C);
        for (i64 i = c * C; i < end; i++) {
            i64 j = Phi[i];
            if (j < 0) {
                l = 0;
                Phi[i] = 0;
                continue;
            }
            while (i + l < n && j + l < n && T[i + l] == T[j + l])
                l++;
            Phi[i] = (int32_t)l;
            if (l > 0)
                l--;
        }
    }
}

__global__ void k_lcp(i64 n, const int32_t *SA, const int32_t *PLCP, int32_t *LCP)
{
    GS_LOOP(t, n)
        LCP[t] = PLCP[SA[t]];
}

/* Contract in sa_cuda_internal.h; PC_EVERIFY with the count of bad entries. */
int sa_cuda_check(sa_ctx *c, pc_error *err)
{
    const i64 n = c->n;
    cudaStream_t s0 = c->st[0];
    i64 words = (n + 31) / 32;
    int rc;
    PC_CU(cudaMemsetAsync(c->act, 0, (size_t)words * 4, s0), "cudaMemset");
    PC_CU(cudaMemsetAsync(c->cnt, 0, sizeof(i64), s0), "cudaMemset");
    k_check<<<sa_cuda_grid(c, n), 256, 0, s0>>>(n, c->SA, c->act, c->cnt);
    PC_CU_LAUNCHED("k_check");
    PC_CU(cudaEventRecord(c->ev[3], s0), "cudaEventRecord");
    i64 bad = 0;
    if ((rc = sa_cuda_read_count(c, &bad, err)))
        return rc;
    if (bad)
        return pc_error_set(err, PC_EVERIFY, __FILE__, __LINE__,
                            "on-device check: the suffix array is not a permutation of 0..%lld "
                            "(%lld entries out of range or repeated)", n - 1, bad);
    return PC_OK;
}

/* Contract in sa_cuda_internal.h. */
int sa_cuda_finish(sa_ctx *c, const uint8_t *Th, int32_t *SAh, int32_t *LCPh, i64 h, int threads,
                   int *lcp_gpu_out, double *s_lcp_host, pc_error *err)
{
    const i64 n = c->n;
    cudaStream_t s0 = c->st[0];
    int rc;
    /* ---- download, with the LCP kernels beside it in cuda-ms ----
     * ISA is dead after the rounds: Phi and then PLCP live there, LCP in
     * the pool. */
    int lcp_gpu = LCPh && h <= SA_CUDA_LCP_GPU_MAX_H;
    int32_t *Phi = c->ISA, *L = (int32_t *)c->pool;
    if (lcp_gpu) {
        i64 C = std::max<i64>(32, h / 2);
        k_phi<<<sa_cuda_grid(c, n), 256, 0, s0>>>(n, c->SA, Phi);
        PC_CU_LAUNCHED("k_phi");
        k_plcp<<<sa_cuda_grid(c, (n + C - 1) / C), 256, 0, s0>>>(c->T, n, C, Phi);
        PC_CU_LAUNCHED("k_plcp");
        k_lcp<<<sa_cuda_grid(c, n), 256, 0, s0>>>(n, c->SA, Phi, L);
        PC_CU_LAUNCHED("k_lcp");
    }
    if (c->ms) {
        if ((rc = sa_cuda_download_staged(c, SAh, c->SA, n, c->ev[3], threads, err)))
            return rc;
    } else {
        PC_CU(cudaMemcpyAsync(SAh, c->SA, (size_t)n * 4, cudaMemcpyDeviceToHost, s0), "downloading SA");
    }
    double t5 = pc_time_now(), t6 = t5;
    if (LCPh) {
        if (lcp_gpu) {
            PC_CU(cudaEventRecord(c->ev[2], s0), "cudaEventRecord");
            if (c->ms) {
                if ((rc = sa_cuda_download_staged(c, LCPh, L, n, c->ev[2], threads, err)))
                    return rc;
            } else {
                PC_CU(cudaMemcpyAsync(LCPh, L, (size_t)n * 4, cudaMemcpyDeviceToHost, s0),
                   "downloading LCP");
            }
        }
        PC_CU(cudaDeviceSynchronize(), "computing LCP");
        if (!lcp_gpu && (rc = sa_lcp_kasai(Th, SAh, (int32_t)n, LCPh, threads, err)))
            return rc;
        t6 = pc_time_now();
    }
    PC_CU(cudaDeviceSynchronize(), "downloading SA");
    *lcp_gpu_out = lcp_gpu;
    *s_lcp_host = lcp_gpu ? 0 : t6 - t5;
    return PC_OK;
}
