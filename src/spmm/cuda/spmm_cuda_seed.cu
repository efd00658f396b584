/* spmm_cuda_seed.cu - the seed report's straightforward kernels, kept
 * faithful to their idea (they are the baselines the report compares):
 *
 *   scalar1   one thread per element of Y (row = t / K, col = t % K), the
 *             partial sum kept in Y itself (global memory)
 *   scalar2   the same, partial sum in a register
 *   scalar3   the same, row bounds loaded once, read-only loads
 *   vector    one warp per element of Y, lanes stride the row, shuffle sum
 *   subwarp   2 threads per element of Y
 *   byrow     one warp per row of Y: 8 sub-warps of 4 lanes take columns
 *             s, s+8, s+16...; the 4 lanes of a sub-warp split the entries
 *   ell       padded ELLPACK, one thread per element (consecutive threads =
 *             consecutive rows, so the column-major slab is read coalesced)
 *   ell-sub   padded ELLPACK, 2 threads per element
 *
 * Every group of lanes that shuffles stays whole to the end of the kernel
 * (inactive groups compute nothing but still take part), so full-mask
 * shuffles are well defined for any M*K. */
#include "spmm_cuda_internal.cuh"

#define SEED_BS 256

__global__ void scalar1_kernel(int32_t m, int K, const int32_t *irp, const int32_t *ja,
                               const double *as, const double *X, double *Y)
{
    long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    if (t >= (long long)m * K)
        return;
    int32_t row = (int32_t)(t / K);
    long long col = t % K;
    Y[t] = 0.0;
    for (int32_t j = irp[row]; j < irp[row + 1]; j++)
        Y[t] += as[j] * X[(long long)ja[j] * K + col];
}

__global__ void scalar2_kernel(int32_t m, int K, const int32_t *irp, const int32_t *ja,
                               const double *as, const double *X, double *Y)
{
    long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    if (t >= (long long)m * K)
        return;
    int32_t row = (int32_t)(t / K);
    long long col = t % K;
    double sum = 0.0;
    for (int32_t j = irp[row]; j < irp[row + 1]; j++)
        sum += as[j] * X[(long long)ja[j] * K + col];
    Y[t] = sum;
}

__global__ void scalar3_kernel(int32_t m, int K, const int32_t *__restrict__ irp,
                               const int32_t *__restrict__ ja, const double *__restrict__ as,
                               const double *__restrict__ X, double *__restrict__ Y)
{
    long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    if (t >= (long long)m * K)
        return;
    int32_t row = (int32_t)(t / K);
    long long col = t % K;
    const int32_t lo = __ldg(&irp[row]), hi = __ldg(&irp[row + 1]);
    double sum = 0.0;
    for (int32_t j = lo; j < hi; j++)
        sum += __ldg(&as[j]) * __ldg(&X[(long long)__ldg(&ja[j]) * K + col]);
    Y[t] = sum;
}

/* Sum over the G lanes of a group; lane 0 of the group gets the total. */
template <int G>
__device__ __forceinline__ double group_sum(double sum)
{
    for (int off = G / 2; off > 0; off /= 2)
        sum += __shfl_down_sync(0xffffffffu, sum, off, G);
    return sum;
}

/* G lanes per element of Y (G = 32: csr-cuda-vector, G = 2: subwarp). */
template <int G>
__global__ void group_kernel(int32_t m, int K, const int32_t *__restrict__ irp,
                             const int32_t *__restrict__ ja, const double *__restrict__ as,
                             const double *__restrict__ X, double *__restrict__ Y)
{
    long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    long long g = t / G;
    int lane = (int)(t % G);
    bool active = g < (long long)m * K;
    double sum = 0.0;
    if (active) {
        int32_t row = (int32_t)(g / K);
        long long col = g % K;
        int32_t hi = irp[row + 1];
        for (int32_t j = irp[row] + lane; j < hi; j += G)
            sum += as[j] * X[(long long)ja[j] * K + col];
    }
    sum = group_sum<G>(sum);
    if (active && lane == 0)
        Y[g] = sum;
}

__global__ void byrow_kernel(int32_t m, int K, const int32_t *__restrict__ irp,
                             const int32_t *__restrict__ ja, const double *__restrict__ as,
                             const double *__restrict__ X, double *__restrict__ Y)
{
    long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    long long row = t / 32;
    int lane = threadIdx.x & 31, sub = lane / 4, l4 = lane % 4;
    bool active = row < m;
    int32_t lo = active ? irp[row] : 0, hi = active ? irp[row + 1] : 0;
    for (int c0 = 0; c0 < K; c0 += 8) {
        int col = c0 + sub;
        double sum = 0.0;
        if (col < K)
            for (int32_t j = lo + l4; j < hi; j += 4)
                sum += as[j] * X[(long long)ja[j] * K + col];
        sum = group_sum<4>(sum);
        if (active && col < K && l4 == 0)
            Y[row * K + col] = sum;
    }
}

/* G lanes per element of Y on the padded ELLPACK slab (entry k of row i at
 * k*m + i); only the row's real entries are read, not the padding. */
template <int G>
__global__ void ell_kernel(int32_t m, int K, const int32_t *__restrict__ rowlen,
                           const int32_t *__restrict__ ja, const double *__restrict__ as,
                           const double *__restrict__ X, double *__restrict__ Y)
{
    long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    long long g = t / G;
    int lane = (int)(t % G);
    bool active = g < (long long)m * K;
    double sum = 0.0;
    long long row = 0, col = 0;
    if (active) {
        row = g % m;
        col = g / m;
        int32_t len = rowlen[row];
        for (int32_t k = lane; k < len; k += G) {
            long long at = (long long)k * m + row;
            sum += as[at] * X[(long long)ja[at] * K + col];
        }
    }
    sum = group_sum<G>(sum);
    if (active && lane == 0)
        Y[row * K + col] = sum;
}

int spmm_cuda_seed_launch(spmm_cuda_state *s, pc_error *err)
{
    long long elems = (long long)s->m * s->K;
    cudaStream_t st = s->stream;
    switch (s->variant) {
    case SPMM_CUDA_SCALAR1:
        scalar1_kernel<<<spmm_cuda_blocks(elems, SEED_BS), SEED_BS, 0, st>>>(s->m, s->K, s->irp, s->ja,
                                                                             s->as, s->X, s->Y);
        break;
    case SPMM_CUDA_SCALAR2:
        scalar2_kernel<<<spmm_cuda_blocks(elems, SEED_BS), SEED_BS, 0, st>>>(s->m, s->K, s->irp, s->ja,
                                                                             s->as, s->X, s->Y);
        break;
    case SPMM_CUDA_SCALAR3:
        scalar3_kernel<<<spmm_cuda_blocks(elems, SEED_BS), SEED_BS, 0, st>>>(s->m, s->K, s->irp, s->ja,
                                                                             s->as, s->X, s->Y);
        break;
    case SPMM_CUDA_VECTOR:
        group_kernel<32><<<spmm_cuda_blocks(elems * 32, SEED_BS), SEED_BS, 0, st>>>(
            s->m, s->K, s->irp, s->ja, s->as, s->X, s->Y);
        break;
    case SPMM_CUDA_SUBWARP:
        group_kernel<2><<<spmm_cuda_blocks(elems * 2, SEED_BS), SEED_BS, 0, st>>>(
            s->m, s->K, s->irp, s->ja, s->as, s->X, s->Y);
        break;
    case SPMM_CUDA_VECTOR_BYROW:
        byrow_kernel<<<spmm_cuda_blocks((long long)s->m * 32, SEED_BS), SEED_BS, 0, st>>>(
            s->m, s->K, s->irp, s->ja, s->as, s->X, s->Y);
        break;
    case SPMM_CUDA_ELL:
        ell_kernel<1><<<spmm_cuda_blocks(elems, SEED_BS), SEED_BS, 0, st>>>(s->m, s->K, s->rowlen, s->ja,
                                                                            s->as, s->X, s->Y);
        break;
    case SPMM_CUDA_ELL_SUBWARP:
        ell_kernel<2><<<spmm_cuda_blocks(elems * 2, SEED_BS), SEED_BS, 0, st>>>(
            s->m, s->K, s->rowlen, s->ja, s->as, s->X, s->Y);
        break;
    default:
        return pc_error_set(err, PC_EINVAL, __FILE__, __LINE__, "not a seed kernel: variant %d",
                            s->variant);
    }
    PC_CU_LAUNCHED("launching a seed SpMM kernel");
    return PC_OK;
}
