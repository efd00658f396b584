/* sa_impl.c - the table of suffix-array implementations.
 *
 * Slices that come later plug in here: the CUDA ones define
 * sa_build_cuda / sa_build_cuda_ms in a src/sa/cuda/ .cu file, and src/sa/module.mk
 * turns SA_WITH_CUDA on when such a file exists in a CUDA build; the MPI
 * ones are a separate program run through sa_run_external (sa_external.c),
 * which reports whether it is there. */
#include <stdio.h>
#include <string.h>

#include "pc_config.h"
#include "sa.h"

#ifndef SA_WITH_CUDA
#define SA_WITH_CUDA 0
#endif

#if SA_WITH_CUDA
int sa_build_cuda(const uint8_t *T, int32_t n, int32_t *SA, int threads, pc_error *err);
int sa_build_cuda_ms(const uint8_t *T, int32_t n, int32_t *SA, int threads, pc_error *err);
int sa_build_cuda_dc(const uint8_t *T, int32_t n, int32_t *SA, int threads, pc_error *err);
int sa_cuda_available(char *why, size_t why_len);
#endif

static int avail_yes(char *why, size_t len)
{
    if (len)
        why[0] = '\0';
    return 1;
}

#if !SA_WITH_CUDA
static int avail_later(char *why, size_t len)
{
    snprintf(why, len, "built without CUDA: %s", PC_CUDA_WHY);
    return 0;
}
#endif

static int avail_mpi(char *why, size_t len)
{
    /* the external program answers for itself */
    pc_error e;
    pc_error_clear(&e);
    int rc = sa_run_external(NULL, NULL, 0, 0, 0, NULL, NULL, &e);
    if (rc == PC_OK)
        return avail_yes(why, len);
    snprintf(why, len, "%s", e.msg);
    return 0;
}

static int avail_divsufsort(char *why, size_t len)
{
#if PC_HAVE_DIVSUFSORT
    return avail_yes(why, len);
#else
    snprintf(why, len, "%s", PC_DIVSUFSORT_WHY);
    return 0;
#endif
}

#if SA_WITH_CUDA
#define CUDA_AVAIL sa_cuda_available
#define CUDA_BUILD sa_build_cuda
#define CUDA_MS_BUILD sa_build_cuda_ms
#define CUDA_DC_BUILD sa_build_cuda_dc
#else
#define CUDA_AVAIL avail_later
#define CUDA_BUILD NULL
#define CUDA_MS_BUILD NULL
#define CUDA_DC_BUILD NULL
#endif

static const sa_impl g_impls[] = {
    { "seq", "Manber-Myers prefix doubling, bucket refinement; Kasai LCP",
      avail_yes, sa_build_seq, 13.5, 0 },
    { "omp", "parallel prefix doubling (radix-sorted groups, OpenMP); blocked Kasai",
      avail_yes, sa_build_omp, 25.0, 1 },
    { "mpi", "distributed prefix doubling, mpirun -np N", avail_mpi, NULL, -1, 0 },
    { "mpi-omp", "distributed prefix doubling with OpenMP per rank", avail_mpi, NULL, -1, 1 },
    { "cuda", "GPU prefix doubling (CUB radix sorts, unsorted groups only)",
      CUDA_AVAIL, CUDA_BUILD, 13.0, 0 },
    { "cuda-ms", "GPU prefix doubling, chunked pinned transfers on streams",
      CUDA_AVAIL, CUDA_MS_BUILD, 13.0, 1 },
    { "cuda-dc", "GPU prefix doubling with discarding, a difference-cover sample where the "
      "unsorted set does not shrink, cuda-ms's transfers; recommended GPU path",
      CUDA_AVAIL, CUDA_DC_BUILD, 13.0, 1 },
    { "sais", "induced sorting (SA-IS), linear work on any repeats; recommended CPU path",
      avail_yes, sa_build_sais, 13.0, 1 },
    { "dc3-mpi", "distributed DC3 (skew) with sample sorts, linear work on any repeats, or "
      "prefix doubling where a sample of the text shows few long repeats; "
      "mpirun -np N, --threads per rank", avail_mpi, NULL, -1, 1 },
    { "divsufsort", "libdivsufsort (external reference); Kasai LCP",
      avail_divsufsort, sa_build_divsufsort, 13.0, 0 },
};

const sa_impl *sa_impls(int *count)
{
    *count = (int)(sizeof g_impls / sizeof g_impls[0]);
    return g_impls;
}

const sa_impl *sa_impl_find(const char *name)
{
    int n;
    const sa_impl *t = sa_impls(&n);
    for (int i = 0; i < n; i++)
        if (!strcmp(t[i].name, name))
            return &t[i];
    return NULL;
}

int sa_check_size(size_t n, const char *what, pc_error *err)
{
    if (n > SA_MAX_N)
        return pc_error_set(err, PC_ERANGE, what, 0,
                            "%zu bytes: suffix arrays here use 32-bit indices, at most %zu bytes",
                            n, SA_MAX_N);
    return PC_OK;
}
