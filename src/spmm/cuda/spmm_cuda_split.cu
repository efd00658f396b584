/* spmm_cuda_split.cu - long rows cut into segments, shared by
 * csr-cuda-adaptive-subblocks and csr-cuda-fast.
 *
 * A row much longer than the others would leave one warp (or block)
 * working long after the rest of the grid has finished. Its entries are cut
 * into fixed segments, each handled like a short row writing its sum to a
 * partial buffer; a second small kernel adds each row's segment sums in
 * segment order. No atomics: the result is the same on every run. */
#include "spmm_cuda_internal.cuh"

__global__ void split_reduce_kernel(int32_t nlong, int K, const int32_t *__restrict__ long_row,
                                    const int32_t *__restrict__ long_first,
                                    const double *__restrict__ partial, double *__restrict__ Y)
{
    long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    if (t >= (long long)nlong * K)
        return;
    int32_t r = (int32_t)(t / K);
    int col = (int)(t % K);
    double sum = 0.0;
    for (int32_t g = long_first[r]; g < long_first[r + 1]; g++)
        sum += partial[(long long)g * K + col];
    Y[(long long)long_row[r] * K + col] = sum;
}

int spmm_cuda_split_reduce(spmm_cuda_state *s, pc_error *err)
{
    if (s->nlong == 0)
        return PC_OK;
    long long n = (long long)s->nlong * s->K;
    split_reduce_kernel<<<spmm_cuda_blocks(n, 256), 256, 0, s->stream>>>(
        s->nlong, s->K, s->long_row, s->long_first, s->partial, s->Y);
    PC_CU_LAUNCHED("launching the segment reduction");
    return PC_OK;
}

int spmm_cuda_split_plan(spmm_cuda_state *s, const spmm_csr *A, int32_t long_min, int32_t seglen,
                         pc_error *err)
{
    s->nseg = s->nlong = 0;
    s->seglen = seglen;
    s->long_min = long_min;
    long long nseg = 0;
    int32_t nlong = 0;
    for (int32_t i = 0; i < A->m; i++) {
        int32_t len = A->irp[i + 1] - A->irp[i];
        if (len > long_min) {
            nlong++;
            nseg += (len + seglen - 1) / seglen;
        }
    }
    if (nlong == 0)
        return PC_OK;
    if (nseg > INT32_MAX)
        return pc_error_set(err, PC_ERANGE, __FILE__, __LINE__, "too many row segments");
    int32_t *seg_row = (int32_t *)pc_malloc_array((size_t)nseg, sizeof *seg_row);
    int32_t *seg_lo = (int32_t *)pc_malloc_array((size_t)nseg, sizeof *seg_lo);
    int32_t *long_row = (int32_t *)pc_malloc_array((size_t)nlong, sizeof *long_row);
    int32_t *long_first = (int32_t *)pc_malloc_array((size_t)nlong + 1, sizeof *long_first);
    int rc = PC_OK;
    if (!seg_row || !seg_lo || !long_row || !long_first) {
        rc = pc_error_nomem(err, "planning the long-row segments");
        goto out;
    }
    {
        int32_t g = 0, r = 0;
        for (int32_t i = 0; i < A->m; i++) {
            int32_t lo = A->irp[i], hi = A->irp[i + 1];
            if (hi - lo <= long_min)
                continue;
            long_row[r] = i;
            long_first[r++] = g;
            for (int32_t e = lo; e < hi; e += seglen) {
                seg_row[g] = i;
                seg_lo[g++] = e;
                if (hi - e <= seglen)
                    break; /* e + seglen could overflow int32 near the end */
            }
        }
        long_first[r] = g;
    }
    if ((rc = spmm_cuda_upload(s, (void **)&s->seg_row, seg_row, (size_t)nseg, sizeof *seg_row, err)) ||
        (rc = spmm_cuda_upload(s, (void **)&s->seg_lo, seg_lo, (size_t)nseg, sizeof *seg_lo, err)) ||
        (rc = spmm_cuda_upload(s, (void **)&s->long_row, long_row, (size_t)nlong, sizeof *long_row, err)) ||
        (rc = spmm_cuda_upload(s, (void **)&s->long_first, long_first, (size_t)nlong + 1,
                               sizeof *long_first, err)) ||
        (rc = spmm_cuda_alloc(s, (void **)&s->partial, (size_t)nseg * (size_t)s->K * sizeof(double), err)))
        goto out;
    s->nseg = (int32_t)nseg;
    s->nlong = nlong;
out:
    pc_free(seg_row);
    pc_free(seg_lo);
    pc_free(long_row);
    pc_free(long_first);
    return rc;
}
