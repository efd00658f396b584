/* spmm_cuda_adaptive.cu - CSR-Adaptive (Greathouse and Daga, SC'14) for
 * SpMM, as in the seed: X is transposed on the device (K x n, timed apart)
 * so that column k of X is one contiguous vector, and each (row block,
 * column) pair is one thread block.
 *
 * Row blocks are cut on the host: consecutive rows are packed while their
 * entries fit the shared-memory budget (ADAPT_NNZ doubles) and there are at
 * most ADAPT_BS of them. A block of several rows runs CSR-Stream (the
 * block streams the products into shared memory, coalesced, then one
 * thread per row adds its slice); a block of one row runs CSR-Vector (the
 * whole thread block strides the row, then a fixed-order block reduction).
 *
 * csr-cuda-adaptive-subblocks: the same, except that a row longer than the
 * budget is cut into sub-blocks of ADAPT_SUB entries, each its own thread
 * block, whose sums a second kernel adds in order; a very long row then
 * occupies many multiprocessors instead of one. */
#include "spmm_cuda_internal.cuh"

#define ADAPT_BS 256
#define ADAPT_NNZ 1024 /* shared-memory budget per block, in doubles (8 KiB) */
#define ADAPT_SUB 2048 /* sub-block length of a long row */

__global__ void transpose_kernel(int32_t n, int K, const double *__restrict__ X,
                                 double *__restrict__ Xt)
{
    __shared__ double tile[32][33];
    long long j0 = (long long)blockIdx.x * 32; /* rows of X */
    int k0 = blockIdx.y * 32;                  /* columns of X */
    for (int r = threadIdx.y; r < 32; r += 8) {
        long long j = j0 + r;
        int k = k0 + threadIdx.x;
        if (j < n && k < K)
            tile[r][threadIdx.x] = X[j * K + k];
    }
    __syncthreads();
    for (int r = threadIdx.y; r < 32; r += 8) {
        int k = k0 + r;
        long long j = j0 + threadIdx.x;
        if (j < n && k < K)
            Xt[(long long)k * n + j] = tile[threadIdx.x][r];
    }
}

int spmm_cuda_transpose_x(spmm_cuda_state *s, pc_error *err)
{
    if (s->n == 0)
        return PC_OK;
    dim3 grid((unsigned)((s->n + 31) / 32), (unsigned)((s->K + 31) / 32));
    transpose_kernel<<<grid, dim3(32, 8), 0, s->stream>>>(s->n, s->K, s->X, s->Xt);
    PC_CU_LAUNCHED("launching the X transpose");
    return PC_OK;
}

/* Fixed-order sum over the block: shuffles within warps, then warp 0 adds
 * the warps' sums in order. Result valid in thread 0. */
__device__ double block_sum(double v, double *red)
{
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    for (int off = 16; off > 0; off /= 2)
        v += __shfl_down_sync(0xffffffffu, v, off);
    if (lane == 0)
        red[warp] = v;
    __syncthreads();
    double total = 0.0;
    if (threadIdx.x == 0)
        for (int w = 0; w < (int)(blockDim.x >> 5); w++)
            total += red[w];
    return total;
}

__global__ void __launch_bounds__(ADAPT_BS)
adaptive_kernel(int32_t n, int K, const int32_t *__restrict__ rb, const int32_t *__restrict__ irp,
                const int32_t *__restrict__ ja, const double *__restrict__ as,
                const double *__restrict__ Xt, double *__restrict__ Y, int32_t long_min)
{
    __shared__ double sh[ADAPT_NNZ];
    __shared__ double red[ADAPT_BS / 32];
    int32_t r0 = rb[blockIdx.x], r1 = rb[blockIdx.x + 1];
    int col = blockIdx.y;
    const double *x = Xt + (long long)col * n;
    int32_t base = irp[r0], cnt = irp[r1] - base;
    if (r1 - r0 > 1) { /* CSR-Stream */
        for (int32_t e = threadIdx.x; e < cnt; e += ADAPT_BS)
            sh[e] = as[base + e] * x[ja[base + e]];
        __syncthreads();
        if ((int32_t)threadIdx.x < r1 - r0) {
            int32_t row = r0 + threadIdx.x;
            double sum = 0.0;
            for (int32_t e = irp[row] - base; e < irp[row + 1] - base; e++)
                sum += sh[e];
            Y[(long long)row * K + col] = sum;
        }
        return;
    }
    if (cnt > long_min)
        return; /* sub-blocks variant: this row belongs to the segment kernel */
    double v = 0.0; /* CSR-Vector */
    for (int32_t e = base + threadIdx.x; e < base + cnt; e += ADAPT_BS)
        v += as[e] * x[ja[e]];
    double total = block_sum(v, red);
    if (threadIdx.x == 0)
        Y[(long long)r0 * K + col] = total;
}

__global__ void __launch_bounds__(ADAPT_BS)
adaptive_segment_kernel(int32_t n, int K, const int32_t *__restrict__ seg_row,
                        const int32_t *__restrict__ seg_lo, int32_t seglen,
                        const int32_t *__restrict__ irp, const int32_t *__restrict__ ja,
                        const double *__restrict__ as, const double *__restrict__ Xt,
                        double *__restrict__ partial)
{
    __shared__ double red[ADAPT_BS / 32];
    int32_t g = blockIdx.x;
    int col = blockIdx.y;
    const double *x = Xt + (long long)col * n;
    int32_t lo = seg_lo[g], end = irp[seg_row[g] + 1];
    int32_t hi = end - lo > seglen ? lo + seglen : end;
    double v = 0.0;
    for (int32_t e = lo + threadIdx.x; e < hi; e += ADAPT_BS)
        v += as[e] * x[ja[e]];
    double total = block_sum(v, red);
    if (threadIdx.x == 0)
        partial[(long long)g * K + col] = total;
}

int spmm_cuda_adaptive_plan(spmm_cuda_state *s, const spmm_csr *A, pc_error *err)
{
    if (s->K > 65535)
        return pc_error_set(err, PC_EUNSUP, __FILE__, __LINE__,
                            "csr-cuda-adaptive: K=%d exceeds the grid's y limit", s->K);
    /* Count, then fill: at most m blocks. */
    int32_t *rb = (int32_t *)pc_malloc_array((size_t)A->m + 1, sizeof *rb);
    if (!rb)
        return pc_error_nomem(err, "planning CSR-Adaptive row blocks");
    int32_t nb = 0;
    rb[0] = 0;
    for (int32_t i = 0; i < A->m;) {
        int32_t start = i;
        if (A->irp[i + 1] - A->irp[i] > ADAPT_NNZ) {
            i++; /* one long row: CSR-Vector */
        } else {
            while (i < A->m && i - start < ADAPT_BS && A->irp[i + 1] - A->irp[start] <= ADAPT_NNZ)
                i++;
        }
        rb[++nb] = i;
    }
    int rc = spmm_cuda_upload(s, (void **)&s->rb, rb, (size_t)nb + 1, sizeof *rb, err);
    pc_free(rb);
    if (rc)
        return rc;
    s->nblocks = nb;
    s->long_min = INT32_MAX;
    if (s->variant == SPMM_CUDA_ADAPTIVE_SUBBLOCKS)
        return spmm_cuda_split_plan(s, A, ADAPT_NNZ, ADAPT_SUB, err);
    return PC_OK;
}

int spmm_cuda_adaptive_blocks(spmm_cuda_state *s, const double *Xt, int32_t long_min, pc_error *err)
{
    if (s->nblocks > 0) {
        adaptive_kernel<<<dim3((unsigned)s->nblocks, (unsigned)s->K), ADAPT_BS, 0, s->stream>>>(
            s->n, s->K, s->rb, s->irp, s->ja, s->as, Xt, s->Y, long_min);
        PC_CU_LAUNCHED("launching the CSR-Adaptive kernel");
    }
    return PC_OK;
}

int spmm_cuda_adaptive_launch(spmm_cuda_state *s, pc_error *err)
{
    int rc = spmm_cuda_adaptive_blocks(s, s->Xt, s->long_min, err);
    if (rc)
        return rc;
    if (s->nseg > 0) {
        adaptive_segment_kernel<<<dim3((unsigned)s->nseg, (unsigned)s->K), ADAPT_BS, 0, s->stream>>>(
            s->n, s->K, s->seg_row, s->seg_lo, s->seglen, s->irp, s->ja, s->as, s->Xt, s->partial);
        PC_CU_LAUNCHED("launching the CSR-Adaptive sub-block kernel");
    }
    return spmm_cuda_split_reduce(s, err);
}
