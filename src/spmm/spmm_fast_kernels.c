/* spmm_fast_kernels.c - the instances of the csr-cpu-fast row kernel
 * (spmm_fast_body.h): AVX2+FMA, compiled for that target whatever the
 * build's -march, and a portable one; spmm_fast_kernel picks one at run
 * time from what the CPU reports. */
#include "spmm_fast.h"
#include "spmm_fast_kernels.h"

/* Entries ahead whose X row is prefetched: about the number of misses a
 * core keeps in flight, so that one is issued as one is consumed. */
#define FAST_PF_DIST 12

/* Four doubles, loaded and stored unaligned (rows of X and Y start on 8
 * bytes only when K is not a multiple of 4), allowed to alias double.
 * Macros, not functions: a 32-byte vector argument would change the ABI
 * of a function compiled without AVX. */
typedef double fast_v4 __attribute__((vector_size(32), aligned(8), may_alias));
#define fast_load(p) (*(const fast_v4 *)(p))
#define fast_store(p, v) (*(fast_v4 *)(p) = (v))

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define FAST_FN(name) name##_avx2
#define FAST_TARGET __attribute__((target("avx2,fma")))
#define FAST_MADD(c, a, b) ((fast_v4)_mm256_fmadd_pd((__m256d)(a), (__m256d)(b), (__m256d)(c)))
/* 8 accumulators + the broadcast + a load: 10 of the 16 ymm registers */
#define FAST_MAXNV 8
#include "spmm_fast_body.h"
#undef FAST_FN
#undef FAST_TARGET
#undef FAST_MADD
#undef FAST_MAXNV
#define FAST_HAVE_AVX2 1
#else
#define FAST_HAVE_AVX2 0
#endif

#define FAST_FN(name) name##_portable
#define FAST_TARGET
#define FAST_MADD(c, a, b) ((c) + (a) * (b))
/* with 16-byte registers a fast_v4 takes two: 4 of them fill 8 */
#define FAST_MAXNV 4
#include "spmm_fast_body.h"

/* 1 when the AVX2+FMA instance can run here (asked once). */
static int fast_cpu_has_avx2(void)
{
#if FAST_HAVE_AVX2
    static int known = -1;
    if (known < 0)
        known = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    return known;
#else
    return 0;
#endif
}

const char *spmm_fast_isa(void) { return fast_cpu_has_avx2() ? "avx2" : "portable"; }

spmm_fast_rows_fn spmm_fast_kernel(int portable)
{
#if FAST_HAVE_AVX2
    if (!portable && fast_cpu_has_avx2())
        return fast_rows_avx2;
#endif
    return fast_rows_portable;
}
