/* spmm_cuda_internal.cuh - what the CUDA SpMM kernel families share.
 *
 * spmm_cuda.cu owns the state (device copies of A, X and Y, events, the
 * stream) and the C entry points; each kernel family (seed kernels,
 * CSR-Adaptive, cuSPARSE, the fast design) lives in its own .cu file and
 * exposes a plan step (called from prepare, may allocate device memory
 * through spmm_cuda_alloc so that it is counted and freed with the state)
 * and a launch step (called from run, between the copies). */
#ifndef SPMM_CUDA_INTERNAL_CUH
#define SPMM_CUDA_INTERNAL_CUH

#include <cuda_runtime.h>
#include <cusparse.h>
#include <stdint.h>

/* The project's C headers carry no extern "C" of their own. */
extern "C" {
#include "pc_alloc.h"
#include "pc_cuda.h"
#include "pc_error.h"
#include "spmm.h"
}
#include "spmm_cuda.h"

/* Most device buffers a state may own (A's arrays, X, Y, plans). */
#define SPMM_CUDA_MAX_BUFS 24

typedef struct spmm_cuda_state {
    int variant;
    int32_t m, n, nnz;
    int K;
    cudaStream_t stream;
    cudaEvent_t ev[5];        /* start, after H2D, after transpose, after kernel, after D2H */
    void *bufs[SPMM_CUDA_MAX_BUFS];
    int nbufs;
    long long device_bytes;   /* what bufs hold */
    /* CSR (irp m+1, ja, as) or padded ELLPACK (ja, as m*maxnz, rowlen) */
    int32_t *irp, *ja;
    double *as;
    int32_t *rowlen;
    int32_t maxnz;
    double *X, *Y, *Xt;       /* Xt: K x n, for the variants that read X transposed */
    /* CSR-Adaptive: row blocks [rb[b], rb[b+1]) */
    int32_t *rb;
    int32_t nblocks;
    /* Long rows split into segments (adaptive-subblocks, csr-cuda-fast):
     * segment g covers entries [seg_lo[g], min(seg_lo[g] + seglen, end of
     * row)) of row seg_row[g]; long row r (of nlong) is row long_row[r],
     * with segments long_first[r] .. long_first[r+1]-1; partial holds the
     * nseg x K segment sums, added in segment order (deterministic). */
    int32_t *seg_row, *seg_lo, *long_row, *long_first;
    int32_t nseg, nlong, seglen, long_min;
    double *partial;
    int fast_cfg;             /* csr-cuda-fast: chosen kernel configuration */
    int fast_tiles;           /* csr-cuda-fast: column tiles per row (1, 2, 4) */
    int sms;                  /* multiprocessors of the device */
    /* cuSPARSE */
    cusparseHandle_t sp;
    cusparseSpMatDescr_t spA;
    cusparseDnMatDescr_t spX, spY;
    cusparseSpMMAlg_t spalg;
    int sp_stable;            /* the chosen algorithm gave the same bits three times */
    void *spbuf;
} spmm_cuda_state;

int spmm_cuda_sparse_fail(pc_error *err, const char *file, int line, const char *what,
                          cusparseStatus_t s);

#define SPMM_SP(call, what)                                                         \
    do {                                                                            \
        cusparseStatus_t s_ = (call);                                               \
        if (s_ != CUSPARSE_STATUS_SUCCESS)                                          \
            return spmm_cuda_sparse_fail(err, __FILE__, __LINE__, (what), s_);      \
    } while (0)

/* cudaMalloc of at least one byte, counted in device_bytes and released
 * with the state. */
int spmm_cuda_alloc(spmm_cuda_state *s, void **p, size_t bytes, pc_error *err);
/* Allocates and uploads count elements of size bytes from host, on the
 * state's stream (created first); complete when it returns. */
int spmm_cuda_upload(spmm_cuda_state *s, void **p, const void *host, size_t count, size_t size,
                     pc_error *err);

/* Grid of n work items in blocks of bs threads (n > 0). */
static inline unsigned spmm_cuda_blocks(long long n, int bs)
{
    return (unsigned)((n + bs - 1) / bs);
}

/* Seed kernels (spmm_cuda_seed.cu): scalar1-3, vector, subwarp, vector-byrow,
 * ell, ell-subwarp. */
int spmm_cuda_seed_launch(spmm_cuda_state *s, pc_error *err);

/* CSR-Adaptive (spmm_cuda_adaptive.cu), with and without sub-blocks. */
int spmm_cuda_adaptive_plan(spmm_cuda_state *s, const spmm_csr *A, pc_error *err);
int spmm_cuda_transpose_x(spmm_cuda_state *s, pc_error *err);
int spmm_cuda_adaptive_launch(spmm_cuda_state *s, pc_error *err);
/* The row-block kernel alone on X transposed (Xt; X itself when K = 1);
 * single rows longer than long_min are left to the segment kernel. */
int spmm_cuda_adaptive_blocks(spmm_cuda_state *s, const double *Xt, int32_t long_min, pc_error *err);

/* cuSPARSE (spmm_cuda_cusparse.cu). */
int spmm_cuda_cusparse_plan(spmm_cuda_state *s, pc_error *err);
int spmm_cuda_cusparse_launch(spmm_cuda_state *s, pc_error *err);
void spmm_cuda_cusparse_release(spmm_cuda_state *s);
const char *spmm_cuda_cusparse_name(const spmm_cuda_state *s); /* chosen algorithm */

/* csr-cuda-fast (spmm_cuda_fast.cu). */
int spmm_cuda_fast_plan(spmm_cuda_state *s, const spmm_csr *A, pc_error *err);
int spmm_cuda_fast_launch(spmm_cuda_state *s, pc_error *err);
const char *spmm_cuda_fast_name(const spmm_cuda_state *s); /* chosen configuration */

/* Builds the split plan above for rows of more than long_min entries,
 * cut into segments of seglen entries; uploads it and sizes partial. */
int spmm_cuda_split_plan(spmm_cuda_state *s, const spmm_csr *A, int32_t long_min, int32_t seglen,
                         pc_error *err);
/* Y(long_row[r], :) = sum of its segments' partial sums, in order. */
int spmm_cuda_split_reduce(spmm_cuda_state *s, pc_error *err);

/* Best kernel time in seconds of reps launches of fn (used by the plans
 * that pick among algorithms on the real matrix). */
int spmm_cuda_time_launch(spmm_cuda_state *s, int (*fn)(spmm_cuda_state *, pc_error *), int reps,
                          double *seconds, pc_error *err);

#endif
