/* The table of SpMM implementations and the matrix formats they read. */
#include <stdio.h>
#include <string.h>

#include "pc_alloc.h"
#include "pc_cli.h"
#include "pc_config.h"
#include "pc_rng.h"
#include "spmm.h"
#include "cuda/spmm_cuda.h"
#include "spmm_fast.h"
#include "spmm_librsb.h"

static int host_run(const spmm_impl *self, void *state, const spmm_matrix *A, const double *X,
                    int K, double *Y, int threads, spmm_timing *t, pc_error *err)
{
    (void)state;
    (void)t;
    (void)err;
    switch (self->variant) {
    case 0: spmm_csr_serial(&A->csr, X, K, Y); break;
    case 1: spmm_ell_serial(&A->ell, X, K, Y); break;
    case 2: spmm_ellnp_serial(&A->ellnp, X, K, Y); break;
    case 3: spmm_csr_omp(&A->csr, X, K, Y, threads); break;
    case 4: spmm_ell_omp(&A->ell, X, K, Y, threads); break;
    default: spmm_ellnp_omp(&A->ellnp, X, K, Y, threads); break;
    }
    return PC_OK;
}

#if PC_HAVE_CUDA
#define CUDA_IMPL(nm, fmt, var, d) CUDA_IMPL_V(nm, fmt, var, d, 0)
#define CUDA_IMPL_V(nm, fmt, var, d, varies) \
    {nm, d, fmt, var, spmm_cuda_available, spmm_cuda_prepare, spmm_cuda_run, spmm_cuda_release, varies}
#else
static int cuda_missing(const spmm_impl *self, char *why, size_t n)
{
    (void)self;
    snprintf(why, n, "built without CUDA: %s", PC_CUDA_WHY);
    return 0;
}
#define CUDA_IMPL(nm, fmt, var, d) CUDA_IMPL_V(nm, fmt, var, d, 0)
#define CUDA_IMPL_V(nm, fmt, var, d, varies) {nm, d, fmt, var, cuda_missing, NULL, NULL, NULL, varies}
#endif

static const spmm_impl impls[] = {
    {"csr-serial", "CSR, one thread", SPMM_FMT_CSR, 0, NULL, NULL, host_run, NULL, 0},
    {"ell-serial", "padded ELLPACK, one thread", SPMM_FMT_ELL, 1, NULL, NULL, host_run, NULL, 0},
    {"ellnp-serial", "unpadded ELLPACK, one thread", SPMM_FMT_ELLNP, 2, NULL, NULL, host_run, NULL, 0},
    {"csr-omp", "CSR, OpenMP, rows split by entries", SPMM_FMT_CSR, 3, NULL, NULL, host_run, NULL, 0},
    {"ell-omp", "padded ELLPACK, OpenMP over row blocks", SPMM_FMT_ELL, 4, NULL, NULL, host_run, NULL, 0},
    {"ellnp-omp", "unpadded ELLPACK, OpenMP dynamic", SPMM_FMT_ELLNP, 5, NULL, NULL, host_run, NULL, 0},
    {"csr-cpu-fast", "CSR, K in vector registers, column blocks and X prefetch where columns scatter",
     SPMM_FMT_CSR, 0, NULL, spmm_fast_prepare, spmm_fast_impl_run, spmm_fast_release, 0},
    /* librsb may split a row between its sub-matrices and threads. */
    {"librsb", "librsb rsb_spmm, external CPU reference", SPMM_FMT_CSR, 0, spmm_librsb_available,
     spmm_librsb_prepare, spmm_librsb_run, spmm_librsb_release, 1},
    CUDA_IMPL("csr-cuda-scalar1", SPMM_FMT_CSR, SPMM_CUDA_SCALAR1, "thread per element, sum in global memory"),
    CUDA_IMPL("csr-cuda-scalar2", SPMM_FMT_CSR, SPMM_CUDA_SCALAR2, "thread per element, sum in a register"),
    CUDA_IMPL("csr-cuda-scalar3", SPMM_FMT_CSR, SPMM_CUDA_SCALAR3, "thread per element, row bounds loaded once"),
    CUDA_IMPL("csr-cuda-vector", SPMM_FMT_CSR, SPMM_CUDA_VECTOR, "warp per element, shuffle reduction"),
    CUDA_IMPL("csr-cuda-subwarp", SPMM_FMT_CSR, SPMM_CUDA_SUBWARP, "2 threads per element"),
    CUDA_IMPL("csr-cuda-adaptive", SPMM_FMT_CSR, SPMM_CUDA_ADAPTIVE, "CSR-Adaptive (Stream/Vector), X transposed"),
    CUDA_IMPL("csr-cuda-vector-byrow", SPMM_FMT_CSR, SPMM_CUDA_VECTOR_BYROW, "warp per row, 8 sub-warps of 4 over K"),
    CUDA_IMPL("csr-cuda-adaptive-subblocks", SPMM_FMT_CSR, SPMM_CUDA_ADAPTIVE_SUBBLOCKS, "CSR-Adaptive with sub-blocks"),
    CUDA_IMPL("ell-cuda", SPMM_FMT_ELL, SPMM_CUDA_ELL, "ELLPACK, thread per element"),
    CUDA_IMPL("ell-cuda-subwarp", SPMM_FMT_ELL, SPMM_CUDA_ELL_SUBWARP, "ELLPACK, 2 threads per element"),
    /* cuSPARSE's reductions are not bit-reproducible on long rows. */
    CUDA_IMPL_V("cusparse", SPMM_FMT_CSR, SPMM_CUDA_CUSPARSE, "cusparseSpMM, vendor reference", 1),
    CUDA_IMPL("csr-cuda-fast", SPMM_FMT_CSR, SPMM_CUDA_FAST, "parcheck's fastest CUDA design"),
};

int spmm_impl_count(void) { return (int)(sizeof impls / sizeof impls[0]); }

int spmm_impl_select(const char *list, int *sel, int *explicit_sel, pc_error *err)
{
    const char *names[sizeof impls / sizeof impls[0]];
    for (int k = 0; k < spmm_impl_count(); k++)
        names[k] = impls[k].name;
    return pc_cli_select(list, names, spmm_impl_count(), sel, explicit_sel, err);
}

const spmm_impl *spmm_impl_at(int i)
{
    return i >= 0 && i < spmm_impl_count() ? &impls[i] : NULL;
}

const spmm_impl *spmm_impl_find(const char *name)
{
    for (int i = 0; i < spmm_impl_count(); i++)
        if (strcmp(impls[i].name, name) == 0)
            return &impls[i];
    return NULL;
}

int spmm_impl_available(const spmm_impl *impl, char *why, size_t n)
{
    if (n)
        why[0] = '\0';
    return impl->available ? impl->available(impl, why, n) : 1;
}

void spmm_matrix_init(spmm_matrix *A, const mm_coo *coo)
{
    memset(A, 0, sizeof *A);
    A->coo = coo;
}

int spmm_matrix_need(spmm_matrix *A, int formats, int threads, pc_error *err)
{
    int rc = PC_OK;
    if ((formats & SPMM_FMT_CSR) && !(A->have & SPMM_FMT_CSR)) {
        rc = spmm_csr_from_coo(A->coo, &A->csr, threads, err);
        if (rc)
            return rc;
        A->have |= SPMM_FMT_CSR;
    }
    if ((formats & SPMM_FMT_ELL) && !(A->have & SPMM_FMT_ELL)) {
        rc = spmm_ell_from_coo(A->coo, &A->ell, threads, err);
        if (rc)
            return rc;
        A->have |= SPMM_FMT_ELL;
    }
    if ((formats & SPMM_FMT_ELLNP) && !(A->have & SPMM_FMT_ELLNP)) {
        rc = spmm_ellnp_from_coo(A->coo, &A->ellnp, threads, err);
        if (rc)
            return rc;
        A->have |= SPMM_FMT_ELLNP;
    }
    return PC_OK;
}

void spmm_matrix_free(spmm_matrix *A)
{
    if (A->have & SPMM_FMT_CSR)
        spmm_csr_free(&A->csr);
    if (A->have & SPMM_FMT_ELL)
        spmm_ell_free(&A->ell);
    if (A->have & SPMM_FMT_ELLNP)
        spmm_ellnp_free(&A->ellnp);
    A->have = 0;
}

int spmm_make_x(int32_t n, int K, uint64_t seed, int ints, double **X, pc_error *err)
{
    size_t len = (size_t)n * (size_t)K;
    double *x = pc_malloc_array(len ? len : 1, sizeof *x);
    if (!x)
        return pc_error_nomem(err, "allocating X");
    pc_rng r;
    pc_rng_seed(&r, seed);
    for (size_t i = 0; i < len; i++)
        x[i] = ints ? (double)pc_rng_range(&r, -8, 8) : pc_rng_uniform(&r, -1.0, 1.0);
    *X = x;
    return PC_OK;
}
