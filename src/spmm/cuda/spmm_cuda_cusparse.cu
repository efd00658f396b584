/* spmm_cuda_cusparse.cu - the vendor reference: cusparseSpMM on the same
 * device CSR arrays and the same row-major X and Y (CUSPARSE_ORDER_ROW).
 *
 * prepare tries each CSR algorithm (DEFAULT, CSR_ALG1, CSR_ALG2, CSR_ALG3);
 * those cuSPARSE refuses for this layout are skipped. Each accepted one
 * gets its own work buffer and preprocessing and is timed on this matrix;
 * the fastest is kept, with its buffer allocated once and preprocessed
 * once, so run() only launches cusparseSpMM.
 *
 * Bit-reproducible results are part of parcheck's contract (parcheck spmm
 * fails an implementation whose repeated runs differ). cuSPARSE documents
 * its non-transposed CSR SpMM as deterministic, yet on an H100 with rows of
 * thousands of entries some algorithms returned different bits from run to
 * run. So each candidate also runs three times on a seeded X, and one whose
 * Y hashes differ is not chosen (unless none is stable: then the fastest,
 * and the run-to-run check will say so). */
#include <stdio.h>

#include "spmm_cuda_internal.cuh"

static const cusparseSpMMAlg_t sp_algs[] = {CUSPARSE_SPMM_ALG_DEFAULT, CUSPARSE_SPMM_CSR_ALG1,
                                            CUSPARSE_SPMM_CSR_ALG2, CUSPARSE_SPMM_CSR_ALG3};

static const double sp_one = 1.0, sp_zero = 0.0;

/* X(i) = a fixed pseudo-random value in [-1, 1) */
__global__ void sp_fill_kernel(long long n, double *X)
{
    long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned long long h = (unsigned long long)i * 0x9E3779B97F4A7C15ull;
    h ^= h >> 29;
    h *= 0xBF58476D1CE4E5B9ull;
    h ^= h >> 32;
    X[i] = (double)(h >> 11) * 0x1.0p-52 - 1.0;
}

/* An order-independent hash of Y's bits (integer sums commute). */
__global__ void sp_hash_kernel(long long n, const double *Y, unsigned long long *out)
{
    unsigned long long h = 0;
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n;
         i += (long long)gridDim.x * blockDim.x)
        h += (unsigned long long)__double_as_longlong(Y[i]) * (2ull * (unsigned long long)i + 1ull);
    for (int off = 16; off > 0; off /= 2)
        h += __shfl_down_sync(0xffffffffu, h, off);
    if ((threadIdx.x & 31) == 0)
        atomicAdd(out, h);
}

/* 1 when three runs of the current algorithm give the same Y bits. */
static int sp_stable(spmm_cuda_state *s, unsigned long long *dhash, int *stable, pc_error *err)
{
    long long ylen = (long long)s->m * s->K;
    unsigned long long h[3];
    for (int r = 0; r < 3; r++) {
        int rc = spmm_cuda_cusparse_launch(s, err);
        if (rc)
            return rc;
        PC_CU(cudaMemsetAsync(dhash, 0, sizeof *dhash, s->stream), "cudaMemset");
        sp_hash_kernel<<<1024, 256, 0, s->stream>>>(ylen, s->Y, dhash);
        PC_CU_LAUNCHED("launching the Y hash");
        PC_CU(cudaMemcpyAsync(&h[r], dhash, sizeof *dhash, cudaMemcpyDeviceToHost, s->stream),
                "copying the Y hash");
    }
    PC_CU(cudaStreamSynchronize(s->stream), "checking cuSPARSE reproducibility");
    *stable = h[0] == h[1] && h[1] == h[2];
    return PC_OK;
}

static int sp_trivial(const spmm_cuda_state *s)
{
    return s->m == 0 || s->n == 0 || s->nnz == 0;
}

int spmm_cuda_cusparse_launch(spmm_cuda_state *s, pc_error *err)
{
    if (sp_trivial(s)) {
        PC_CU(cudaMemsetAsync(s->Y, 0, (size_t)s->m * s->K * sizeof(double), s->stream),
                "clearing Y");
        return PC_OK;
    }
    SPMM_SP(cusparseSpMM(s->sp, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE,
                         &sp_one, s->spA, s->spX, &sp_zero, s->spY, CUDA_R_64F, s->spalg, s->spbuf),
            "cusparseSpMM");
    PC_CU_LAUNCHED("cusparseSpMM");
    return PC_OK;
}

/* Sets up algorithm alg with a fresh buffer (not counted: freed by the
 * caller unless kept). Returns 0, or 1 when cuSPARSE refuses it here. */
static int sp_try(spmm_cuda_state *s, cusparseSpMMAlg_t alg, void **buf, size_t *bytes,
                  pc_error *err)
{
    *buf = NULL;
    *bytes = 0;
    if (cusparseSpMM_bufferSize(s->sp, CUSPARSE_OPERATION_NON_TRANSPOSE,
                                CUSPARSE_OPERATION_NON_TRANSPOSE, &sp_one, s->spA, s->spX, &sp_zero,
                                s->spY, CUDA_R_64F, alg, bytes) != CUSPARSE_STATUS_SUCCESS)
        return 1;
    PC_CU(cudaMalloc(buf, *bytes ? *bytes : 1), "cudaMalloc (cuSPARSE buffer)");
    if (cusparseSpMM_preprocess(s->sp, CUSPARSE_OPERATION_NON_TRANSPOSE,
                                CUSPARSE_OPERATION_NON_TRANSPOSE, &sp_one, s->spA, s->spX, &sp_zero,
                                s->spY, CUDA_R_64F, alg, *buf) != CUSPARSE_STATUS_SUCCESS ||
        cusparseSpMM(s->sp, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE,
                     &sp_one, s->spA, s->spX, &sp_zero, s->spY, CUDA_R_64F, alg,
                     *buf) != CUSPARSE_STATUS_SUCCESS) {
        (void)cudaFree(*buf);
        *buf = NULL;
        (void)cudaGetLastError();
        return 1;
    }
    return 0;
}

int spmm_cuda_cusparse_plan(spmm_cuda_state *s, pc_error *err)
{
    SPMM_SP(cusparseCreate(&s->sp), "cusparseCreate");
    SPMM_SP(cusparseSetStream(s->sp, s->stream), "cusparseSetStream");
    if (sp_trivial(s))
        return PC_OK;
    SPMM_SP(cusparseCreateCsr(&s->spA, s->m, s->n, s->nnz, s->irp, s->ja, s->as, CUSPARSE_INDEX_32I,
                              CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F),
            "cusparseCreateCsr");
    SPMM_SP(cusparseCreateDnMat(&s->spX, s->n, s->K, s->K, s->X, CUDA_R_64F, CUSPARSE_ORDER_ROW),
            "cusparseCreateDnMat X");
    SPMM_SP(cusparseCreateDnMat(&s->spY, s->m, s->K, s->K, s->Y, CUDA_R_64F, CUSPARSE_ORDER_ROW),
            "cusparseCreateDnMat Y");
    long long xlen = (long long)s->n * s->K;
    sp_fill_kernel<<<spmm_cuda_blocks(xlen, 256), 256, 0, s->stream>>>(xlen, s->X);
    PC_CU_LAUNCHED("launching the X fill");
    unsigned long long *dhash = NULL;
    int rc = spmm_cuda_alloc(s, (void **)&dhash, sizeof *dhash, err);
    if (rc)
        return rc;
    double best_s = -1;
    int best = -1, best_stable = 0;
    for (int a = 0; a < (int)(sizeof sp_algs / sizeof sp_algs[0]); a++) {
        void *buf;
        size_t bytes;
        rc = sp_try(s, sp_algs[a], &buf, &bytes, err);
        if (rc < 0)
            return rc;
        if (rc > 0)
            continue;
        s->spalg = sp_algs[a];
        s->spbuf = buf;
        double t = 0;
        int stable = 0;
        rc = sp_stable(s, dhash, &stable, err);
        if (!rc)
            rc = spmm_cuda_time_launch(s, spmm_cuda_cusparse_launch, 3, &t, err);
        s->spbuf = NULL;
        (void)cudaFree(buf);
        if (rc)
            return rc;
        if (best < 0 || stable > best_stable || (stable == best_stable && t < best_s)) {
            best = a;
            best_s = t;
            best_stable = stable;
        }
    }
    s->sp_stable = best_stable;
    if (best < 0)
        return pc_error_set(err, PC_EDEVICE, __FILE__, __LINE__,
                            "cusparseSpMM accepts none of its CSR algorithms for row-major X");
    void *buf;
    size_t bytes;
    rc = sp_try(s, sp_algs[best], &buf, &bytes, err);
    if (rc < 0)
        return rc;
    if (rc > 0)
        return pc_error_set(err, PC_EDEVICE, __FILE__, __LINE__, "cusparseSpMM set-up failed twice");
    (void)cudaFree(buf);
    /* Keep the chosen algorithm's buffer in the counted pool, preprocessed once. */
    s->spalg = sp_algs[best];
    if ((rc = spmm_cuda_alloc(s, &s->spbuf, bytes, err)) != 0)
        return rc;
    SPMM_SP(cusparseSpMM_preprocess(s->sp, CUSPARSE_OPERATION_NON_TRANSPOSE,
                                    CUSPARSE_OPERATION_NON_TRANSPOSE, &sp_one, s->spA, s->spX,
                                    &sp_zero, s->spY, CUDA_R_64F, s->spalg, s->spbuf),
            "cusparseSpMM_preprocess");
    return PC_OK;
}

void spmm_cuda_cusparse_release(spmm_cuda_state *s)
{
    if (s->spX)
        (void)cusparseDestroyDnMat(s->spX);
    if (s->spY)
        (void)cusparseDestroyDnMat(s->spY);
    if (s->spA)
        (void)cusparseDestroySpMat(s->spA);
    if (s->sp)
        (void)cusparseDestroy(s->sp);
    s->spX = s->spY = NULL;
    s->spA = NULL;
    s->sp = NULL;
}

const char *spmm_cuda_cusparse_name(const spmm_cuda_state *s)
{
    if (sp_trivial(s))
        return "none";
    switch (s->spalg) {
    case CUSPARSE_SPMM_CSR_ALG1: return s->sp_stable ? "CSR_ALG1" : "CSR_ALG1(unstable)";
    case CUSPARSE_SPMM_CSR_ALG2: return s->sp_stable ? "CSR_ALG2" : "CSR_ALG2(unstable)";
    case CUSPARSE_SPMM_CSR_ALG3: return s->sp_stable ? "CSR_ALG3" : "CSR_ALG3(unstable)";
    default: return s->sp_stable ? "ALG_DEFAULT" : "ALG_DEFAULT(unstable)";
    }
}
