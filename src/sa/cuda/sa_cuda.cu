/* sa_cuda.cu - suffix arrays on the GPU: `cuda` and `cuda-ms`.
 *
 * One prefix-doubling engine serves both; cuda-ms only changes how the
 * bytes travel (chunks through pinned staging buffers on two streams, the
 * host copies of one chunk overlapping the PCIe copy of the next, and the
 * SA download overlapping the LCP kernels). docs/README-sa-cuda.md has the
 * design, the device-memory model and the measurements.
 *
 * State between rounds (h = the prefix length sorted so far):
 *   SA[0..n)   suffixes sorted by their first h characters;
 *   ISA[i]     the SA index of the first suffix of i's group (group head);
 *   act        one bit per text position: its group holds more than one.
 * A round takes the active suffixes i in the order of ISA[i + h] by
 * scanning SA (position p = SA[j] gives i = p - h), stable radix sorts them
 * by ISA[i] alone (ranks need only ceil(log2 n) bits), splits each group
 * where ISA[i + h] changes (one scan), writes the group's slice of SA and
 * the new heads. Finished suffixes are never touched again. */
#include <cuda_runtime.h>

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/tabulate_output_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <algorithm>
#include <thread>
#include <vector>

extern "C" {
#include "pc_alloc.h"
#include "pc_cuda.h"
#include "pc_error.h"
#include "pc_time.h"
#include "sa.h"
}
#include "sa_cuda.h"

typedef long long i64;

/* Longest prefix length h for which the LCP is computed on the device: the
 * chunked PLCP kernel does at most 2n + (n / C) * h character comparisons
 * with chunks of C >= h / 2 positions, so beyond this the host's O(n)
 * Kasai wins. */
#define SA_CUDA_LCP_GPU_MAX_H ((i64)1 << 16)
/* cuda-ms: bytes per pinned staging buffer (two of them). Large enough
 * that starting the host copy threads of each chunk costs little (8 MB
 * chunks measured slower than pageable copies on text). */
#define SA_CUDA_STAGE_BYTES ((size_t)32 << 20)
/* cuda-ms: most host threads per staged memcpy. */
#define SA_CUDA_COPY_THREADS 8
#define SA_CUDA_MAX_BUFS 16
/* Chunks of SA slots counted to plan a round's batches. */
#define SA_CUDA_CHUNKS 1024

/* ---- errors ------------------------------------------------------------ */


/* ---- device detection ---------------------------------------------------- */

extern "C" int sa_cuda_available(char *why, size_t why_len)
{
    return pc_cuda_probe(why, why_len);
}

/* ---- the per-call context --------------------------------------------------- */

typedef struct sa_ctx {
    i64 n;
    int ms;
    cudaStream_t st[3];
    int nst;
    cudaEvent_t ev[4];
    int nev;
    uint8_t *T;            /* recoded text */
    int32_t *ISA, *SA;
    uint32_t *pool;        /* 4 * bcap words: the initial sort's keys (2n), then the rounds' buffers */
    i64 bcap;              /* items per batch: a quarter of the pool */
    uint32_t *act;         /* one bit per position */
    uint32_t *ccnt;        /* per chunk of SA slots: active slots */
    int32_t *cgs;          /* per chunk: start of the group holding its first slot */
    void *tmp;             /* CUB temporary storage, sized once for the largest call */
    size_t tmp_bytes;
    i64 *cnt;              /* device counter (selected items, bad entries) */
    unsigned *hist;        /* byte histogram */
    i64 *hcnt;             /* pinned host mirror of cnt, then of ccnt and cgs */
    void *bufs[SA_CUDA_MAX_BUFS];
    size_t sizes[SA_CUDA_MAX_BUFS];
    long long cur, peak;
    int blocks;            /* grid of the grid-stride kernels */
    int trace;             /* SA_CUDA_TRACE set: one line per round on stderr */
} sa_ctx;

/* Device memory comes from a stream-ordered pool of our own that keeps
 * what a call frees for the next call (release threshold: unlimited): a
 * repeated call of the same size gets its buffers without going to the
 * driver, which cost 4-5 ms per call for the gigabytes of a 100 MB input.
 * sa_cuda_trim() hands the kept memory back; the pool is destroyed at
 * exit, before the CUDA runtime's own exit handler (registered earlier,
 * run later). */
static cudaMemPool_t g_pool;

static void pool_destroy(void)
{
    if (g_pool) {
        (void)cudaMemPoolDestroy(g_pool);
        g_pool = NULL;
    }
}

static int pool_get(pc_error *err)
{
    if (g_pool)
        return PC_OK;
    int dev = 0;
    PC_CU(cudaGetDevice(&dev), "cudaGetDevice");
    cudaMemPoolProps props;
    memset(&props, 0, sizeof props);
    props.allocType = cudaMemAllocationTypePinned;
    props.location.type = cudaMemLocationTypeDevice;
    props.location.id = dev;
    PC_CU(cudaMemPoolCreate(&g_pool, &props), "cudaMemPoolCreate");
    uint64_t keep = UINT64_MAX;
    PC_CU(cudaMemPoolSetAttribute(g_pool, cudaMemPoolAttrReleaseThreshold, &keep),
       "cudaMemPoolSetAttribute");
    if (atexit(pool_destroy) != 0)
        return pc_error_set(err, PC_EDEVICE, __FILE__, __LINE__, "atexit failed");
    return PC_OK;
}

extern "C" void sa_cuda_trim(void)
{
    if (g_pool && cudaMemPoolTrimTo(g_pool, 0) != cudaSuccess)
        (void)cudaGetLastError();
}

static int dev_alloc(sa_ctx *c, void **p, size_t bytes, const char *what, pc_error *err)
{
    *p = NULL;
    int slot = -1;
    for (int k = 0; k < SA_CUDA_MAX_BUFS && slot < 0; k++)
        if (!c->bufs[k])
            slot = k;
    if (slot < 0)
        return pc_error_set(err, PC_EINVAL, __FILE__, __LINE__, "too many device buffers");
    if (bytes == 0)
        bytes = 16;
    cudaError_t e = cudaMallocFromPoolAsync(p, bytes, g_pool, c->st[0]);
    if (e == cudaErrorMemoryAllocation) { /* memory kept from a larger call: give it back, retry */
        (void)cudaGetLastError();
        (void)cudaStreamSynchronize(c->st[0]);
        sa_cuda_trim();
        e = cudaMallocFromPoolAsync(p, bytes, g_pool, c->st[0]);
    }
    if (e != cudaSuccess) {
        *p = NULL;
        (void)cudaGetLastError();
        return pc_error_set(err, PC_EDEVICE, __FILE__, __LINE__,
                            "allocating %zu bytes of device memory for %s: %s (n = %lld needs about %lld bytes "
                            "of device memory, up to 21 n on periodic inputs; see docs/README-sa-cuda.md)",
                            bytes, what, cudaGetErrorString(e), c->n, 18 * c->n + (64ll << 20));
    }
    c->bufs[slot] = *p;
    c->sizes[slot] = bytes;
    c->cur += (long long)bytes;
    if (c->cur > c->peak)
        c->peak = c->cur;
    return PC_OK;
}

static int dev_free(sa_ctx *c, void *p, pc_error *err)
{
    if (!p)
        return PC_OK;
    for (int k = 0; k < SA_CUDA_MAX_BUFS; k++)
        if (c->bufs[k] == p) {
            c->bufs[k] = NULL;
            c->cur -= (long long)c->sizes[k];
            PC_CU(cudaFreeAsync(p, c->st[0]), "cudaFreeAsync");
            return PC_OK;
        }
    return pc_error_set(err, PC_EINVAL, __FILE__, __LINE__, "freeing an unknown device buffer");
}

/* Releases everything; safe on a partly built context. Errors here are
 * ignored: the call already has its result or its first error. */
static void ctx_release(sa_ctx *c)
{
    for (int k = 0; k < c->nst; k++)
        if (c->st[k])
            (void)cudaStreamSynchronize(c->st[k]);
    for (int k = 0; k < SA_CUDA_MAX_BUFS; k++)
        if (c->bufs[k])
            (void)cudaFreeAsync(c->bufs[k], c->st[0]);
    if (c->nst)
        (void)cudaStreamSynchronize(c->st[0]);
    if (c->hcnt)
        (void)cudaFreeHost(c->hcnt);
    for (int k = 0; k < c->nev; k++)
        (void)cudaEventDestroy(c->ev[k]);
    for (int k = 0; k < c->nst; k++)
        (void)cudaStreamDestroy(c->st[k]);
    (void)cudaGetLastError();
}

/* ---- kernels ------------------------------------------------------------- */

#define GS_LOOP(t, count) \
    for (i64 t = (i64)blockIdx.x * blockDim.x + threadIdx.x; t < (count); t += (i64)gridDim.x * blockDim.x)

__global__ void k_hist(const uint8_t *T, i64 n, unsigned *hist)
{
    __shared__ unsigned h[256];
    for (int k = threadIdx.x; k < 256; k += blockDim.x)
        h[k] = 0;
    __syncthreads();
    GS_LOOP(t, n)
        atomicAdd(&h[T[t]], 1u);
    __syncthreads();
    for (int k = threadIdx.x; k < 256; k += blockDim.x)
        if (h[k])
            atomicAdd(&hist[k], h[k]);
}

struct code_table {
    uint8_t c[256];
};

/* Replaces each byte by its rank in the text's alphabet (order kept). */
__global__ void k_recode(uint8_t *T, i64 n, code_table code)
{
    __shared__ uint8_t tab[256];
    for (int k = threadIdx.x; k < 256; k += blockDim.x)
        tab[k] = code.c[k];
    __syncthreads();
    GS_LOOP(t, n)
        T[t] = tab[T[t]];
}

/* k characters of b bits from position i, most significant first, 0 past
 * the end (which collides with the smallest character: the tail rule in
 * k_init_flags separates those suffixes). */
__device__ __forceinline__ uint32_t word_at(const uint8_t *T, i64 n, i64 i, int b, int k)
{
    uint32_t x = 0;
    for (int c = 0; c < k; c++) {
        i64 p = i + c;
        x = (x << b) | (p < n ? (uint32_t)T[p] : 0u);
    }
    return x;
}

/* Positions in decreasing order (so that within equal keys the shorter
 * suffix, the one with the larger position, comes first after the stable
 * sorts) keyed by their last word (characters off .. off + k). */
__global__ void k_init_first(const uint8_t *T, i64 n, int b, int k, i64 off, uint32_t *K, int32_t *V)
{
    GS_LOOP(t, n) {
        i64 v = n - 1 - t;
        V[t] = (int32_t)v;
        K[t] = word_at(T, n, v + off, b, k);
    }
}

/* The next more significant word of each position, in the current order. */
__global__ void k_init_word(const uint8_t *T, i64 n, int b, int k, i64 off, const int32_t *V,
                            uint32_t *K)
{
    GS_LOOP(t, n)
        K[t] = word_at(T, n, V[t] + off, b, k);
}

/* F[t] = t where a group of equal W*k-character prefixes starts (K1w: the
 * first words, sorted; the others are read again). A suffix shorter than
 * W*k characters (its window is padded) is a group of its own: it sorts
 * before the longer suffixes with the same padded window. */
__global__ void k_init_flags(const uint8_t *T, i64 n, int b, int k, int W, const int32_t *SA,
                             const uint32_t *K1w, uint32_t *F)
{
    GS_LOOP(t, n) {
        int f = t == 0;
        if (!f) {
            i64 a = SA[t - 1], v = SA[t];
            f = K1w[t] != K1w[t - 1] || n - a < (i64)W * k;
            for (int w = 1; w < W && !f; w++)
                f = word_at(T, n, v + (i64)w * k, b, k) != word_at(T, n, a + (i64)w * k, b, k);
        }
        F[t] = f ? (uint32_t)t : 0u;
    }
}

__global__ void k_init_rank(i64 n, const int32_t *SA, const uint32_t *H, int32_t *ISA,
                            uint32_t *act)
{
    GS_LOOP(t, n) {
        uint32_t h = H[t];
        int single = h == (uint32_t)t && (t + 1 == n || H[t + 1] == (uint32_t)(t + 1));
        int32_t v = SA[t];
        ISA[v] = (int32_t)h;
        if (!single)
            atomicOr(&act[v >> 5], 1u << (v & 31));
    }
}

__global__ void k_unpair(i64 m, const uint64_t *P, uint32_t *K, int32_t *V)
{
    GS_LOOP(t, m) {
        uint64_t x = P[t];
        K[t] = (uint32_t)(x >> 32);
        V[t] = (int32_t)(uint32_t)x;
    }
}

__global__ void k_gather_keys(i64 m, const int32_t *V, const int32_t *ISA, uint32_t *K)
{
    GS_LOOP(t, m)
        K[t] = (uint32_t)ISA[V[t]];
}

__global__ void k_update(i64 m, const int32_t *V, const uint32_t *NH, int32_t *ISA, uint32_t *act)
{
    GS_LOOP(t, m) {
        int32_t v = V[t];
        uint32_t nh = NH[t];
        ISA[v] = (int32_t)nh;
        int single = (t == 0 || NH[t - 1] != nh) && (t + 1 == m || NH[t + 1] != nh);
        if (single)
            atomicAnd(&act[v >> 5], ~(1u << (v & 31)));
    }
}

/* Batch planning, one block per chunk c of CH SA slots: the chunk's active
 * slots, and the start of the group holding its first slot (a slot's group
 * head; a singleton's is the slot itself). */
__global__ void k_chunks(i64 n, i64 CH, const int32_t *SA, const int32_t *ISA, const uint32_t *act,
                         uint32_t *cnt, int32_t *gs)
{
    __shared__ unsigned total;
    i64 lo = (i64)blockIdx.x * CH, hi = min(n, lo + CH);
    if (threadIdx.x == 0) {
        total = 0;
        gs[blockIdx.x] = ISA[SA[lo]];
    }
    __syncthreads();
    unsigned mine = 0;
    for (i64 j = lo + threadIdx.x; j < hi; j += blockDim.x) {
        int32_t p = SA[j];
        mine += (act[p >> 5] >> (p & 31)) & 1u;
    }
    for (int off = 16; off > 0; off >>= 1)
        mine += __shfl_down_sync(0xffffffffu, mine, off);
    if ((threadIdx.x & 31) == 0 && mine)
        atomicAdd(&total, mine);
    __syncthreads();
    if (threadIdx.x == 0)
        cnt[blockIdx.x] = total;
}

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

/* ---- functors for the CUB calls ------------------------------------------ */

struct max_u32 {
    __host__ __device__ uint32_t operator()(uint32_t a, uint32_t b) const { return a > b ? a : b; }
};

struct max_int2 {
    __host__ __device__ int2 operator()(int2 a, int2 b) const
    {
        return make_int2(a.x > b.x ? a.x : b.x, a.y > b.y ? a.y : b.y);
    }
};

struct popc_word {
    const uint32_t *w;
    __host__ __device__ i64 operator()(i64 k) const
    {
#ifdef __CUDA_ARCH__
        return (i64)__popc(w[k]);
#else
        (void)k;
        return 0;
#endif
    }
};

/* Item j of the round's scan over SA: the suffix i = p - h for the text
 * position p = SA[j - 1], item 0 standing for p = n (the suffix of length
 * exactly h, whose second half is empty). -1 when p < h. */
struct sel_in {
    const int32_t *SA;
    i64 n, h;
    __host__ __device__ int32_t operator()(i64 j) const
    {
        i64 p = j == 0 ? n : (i64)SA[j - 1];
        i64 i = p - h;
        return i >= 0 ? (int32_t)i : -1;
    }
};

/* Active suffixes whose group head is in [lo, hi) (a batch of whole
 * groups); every active suffix when all is set. */
struct sel_active {
    const uint32_t *act;
    const int32_t *ISA;
    int32_t lo, hi;
    int all;
    __host__ __device__ bool operator()(int32_t i) const
    {
        if (i < 0 || !((act[i >> 5] >> (i & 31)) & 1u))
            return false;
        return all || (ISA[i] >= lo && ISA[i] < hi);
    }
};

/* A batch's select reads every candidate's group head anyway: it hands it
 * on with the suffix, (head << 32) | i, so that no second random pass over
 * ISA gathers the sort keys. ~0 where p < h. */
struct sel_pair_in {
    const int32_t *SA, *ISA;
    i64 n, h;
    __host__ __device__ uint64_t operator()(i64 j) const
    {
        i64 p = j == 0 ? n : (i64)SA[j - 1];
        i64 i = p - h;
        if (i < 0)
            return ~(uint64_t)0;
        return ((uint64_t)(uint32_t)ISA[i] << 32) | (uint32_t)i;
    }
};

struct sel_pair_active {
    const uint32_t *act;
    uint32_t lo, hi;
    __host__ __device__ bool operator()(uint64_t x) const
    {
        if (x == ~(uint64_t)0)
            return false;
        uint32_t i = (uint32_t)x, g = (uint32_t)(x >> 32);
        return ((act[i >> 5] >> (i & 31)) & 1u) && g >= lo && g < hi;
    }
};

/* Group start (x) and subgroup start (y) flags of sorted item t, as the
 * item index or 0, for a component-wise max scan. */
struct split_in {
    const uint32_t *K;  /* group heads, sorted; NULL: every item has head k0 */
    uint32_t k0;
    const int32_t *V;   /* suffixes, sorted by head, by ISA[i + h] inside */
    const int32_t *ISA;
    i64 n, h;
    __device__ i64 key2(i64 t) const
    {
        i64 p = (i64)V[t] + h;
        return p < n ? (i64)ISA[p] + 1 : 0;
    }
    __host__ __device__ int2 operator()(i64 t) const
    {
#ifdef __CUDA_ARCH__
        int gs = t == 0 || (K && K[t - 1] != K[t]);
        int ss = gs || key2(t - 1) != key2(t);
        return make_int2(gs ? (int)t : 0, ss ? (int)t : 0);
#else
        (void)t;
        return make_int2(0, 0);
#endif
    }
};

/* From the scanned (group start, subgroup start) of item t: its new head
 * and its place in SA. */
struct split_out {
    const uint32_t *K;
    uint32_t k0;
    const int32_t *V;
    uint32_t *NH;
    int32_t *SA;
    __host__ __device__ void operator()(ptrdiff_t t, int2 r) const
    {
        uint32_t g = K ? K[t] : k0;
        NH[t] = g + (uint32_t)(r.y - r.x);
        SA[g + (uint32_t)(t - r.x)] = V[t];
    }
};

/* ---- CUB calls, each sized by a query first ------------------------------ */

/* Every CUB call goes through these so that the size query and the run use
 * the same argument types (the temporary size depends on them). */
static cudaError_t cub_sort(sa_ctx *c, void *tmp, size_t &bytes, cub::DoubleBuffer<uint32_t> &k,
                            cub::DoubleBuffer<int32_t> &v, i64 m, int end_bit, cudaStream_t s)
{
    (void)c;
    return cub::DeviceRadixSort::SortPairs(tmp, bytes, k, v, (int)m, 0, end_bit, s);
}

static cudaError_t cub_select(void *tmp, size_t &bytes, const int32_t *SA, const sel_active &pick,
                              int32_t *out, i64 *count, i64 n, i64 h, cudaStream_t s)
{
    auto in = thrust::make_transform_iterator(thrust::counting_iterator<i64>(0), sel_in{ SA, n, h });
    return cub::DeviceSelect::If(tmp, bytes, in, out, count, n + 1, pick, s);
}

static cudaError_t cub_select_pairs(void *tmp, size_t &bytes, const int32_t *SA, const int32_t *ISA,
                                    const uint32_t *act, int32_t lo, int32_t hi, uint64_t *out,
                                    i64 *count, i64 n, i64 h, cudaStream_t s)
{
    auto in = thrust::make_transform_iterator(thrust::counting_iterator<i64>(0),
                                              sel_pair_in{ SA, ISA, n, h });
    return cub::DeviceSelect::If(tmp, bytes, in, out, count, n + 1,
                                 sel_pair_active{ act, (uint32_t)lo, (uint32_t)hi }, s);
}

static cudaError_t cub_scan_heads(void *tmp, size_t &bytes, const uint32_t *F, uint32_t *H, i64 n,
                                  cudaStream_t s)
{
    return cub::DeviceScan::InclusiveScan(tmp, bytes, F, H, max_u32(), n, s);
}

/* K = NULL: one group, of head k0 (no sort needed). */
static cudaError_t cub_split(void *tmp, size_t &bytes, const uint32_t *K, uint32_t k0,
                             const int32_t *V, const int32_t *ISA, uint32_t *NH, int32_t *SA, i64 n,
                             i64 h, i64 m, cudaStream_t s)
{
    auto in = thrust::make_transform_iterator(thrust::counting_iterator<i64>(0),
                                              split_in{ K, k0, V, ISA, n, h });
    auto out = thrust::make_tabulate_output_iterator(split_out{ K, k0, V, NH, SA });
    return cub::DeviceScan::InclusiveScan(tmp, bytes, in, out, max_int2(), m, s);
}

/* Size of the group that ends at slot t, given the group heads H: the
 * largest is the longest group. */
struct group_len {
    const uint32_t *H;
    __host__ __device__ i64 operator()(i64 t) const
    {
#ifdef __CUDA_ARCH__
        return t - (i64)H[t] + 1;
#else
        (void)t;
        return 0;
#endif
    }
};

static cudaError_t cub_longest(void *tmp, size_t &bytes, const uint32_t *H, i64 *out, i64 n,
                               cudaStream_t s)
{
    auto in = thrust::make_transform_iterator(thrust::counting_iterator<i64>(0), group_len{ H });
    return cub::DeviceReduce::Max(tmp, bytes, in, out, n, s);
}

static cudaError_t cub_count(void *tmp, size_t &bytes, const uint32_t *act, i64 *out, i64 words,
                             cudaStream_t s)
{
    auto in = thrust::make_transform_iterator(thrust::counting_iterator<i64>(0), popc_word{ act });
    return cub::DeviceReduce::Sum(tmp, bytes, in, out, words, s);
}

/* ---- host helpers ---------------------------------------------------------- */

static int bits_for(i64 x) /* bits to write x >= 0, at least 1 */
{
    int b = 1;
    while (b < 63 && (x >> b) != 0)
        b++;
    return b;
}

/* memcpy on up to nt threads (the host side of the staged copies). */
static void par_memcpy(void *dst, const void *src, size_t bytes, int nt)
{
    nt = std::min(nt, SA_CUDA_COPY_THREADS);
    if (nt <= 1 || bytes < ((size_t)1 << 20)) {
        memcpy(dst, src, bytes);
        return;
    }
    std::vector<std::thread> th;
    size_t part = (bytes + (size_t)nt - 1) / (size_t)nt;
    for (int k = 1; k < nt; k++) {
        size_t lo = part * (size_t)k;
        if (lo >= bytes)
            break;
        size_t len = std::min(part, bytes - lo);
        th.emplace_back([=] { memcpy((char *)dst + lo, (const char *)src + lo, len); });
    }
    memcpy(dst, src, std::min(part, bytes));
    for (auto &t : th)
        t.join();
}

/* Pinned staging buffers of cuda-ms, kept for the process's lifetime
 * (pinning costs milliseconds per call otherwise) and freed at exit, before
 * the CUDA runtime's own exit handler (registered earlier, run later). */
static uint8_t *g_stage[2];

static void stage_free(void)
{
    for (int k = 0; k < 2; k++)
        if (g_stage[k]) {
            (void)cudaFreeHost(g_stage[k]);
            g_stage[k] = NULL;
        }
}

static int stage_get(pc_error *err)
{
    static int registered = 0;
    if (!registered) {
        if (atexit(stage_free) != 0)
            return pc_error_set(err, PC_EDEVICE, __FILE__, __LINE__, "atexit failed");
        registered = 1;
    }
    for (int k = 0; k < 2; k++)
        if (!g_stage[k])
            PC_CU(cudaHostAlloc((void **)&g_stage[k], SA_CUDA_STAGE_BYTES, cudaHostAllocDefault),
               "cudaHostAlloc (pinned staging buffer)");
    return PC_OK;
}

/* cuda-ms upload: chunk k goes host -> pinned buffer k % 2 (host threads)
 * -> device on stream k % 2 while the host fills the other buffer. */
static int upload_staged(sa_ctx *c, const uint8_t *T, int nt, pc_error *err)
{
    int rc = stage_get(err);
    if (rc)
        return rc;
    size_t n = (size_t)c->n, CH = SA_CUDA_STAGE_BYTES;
    for (size_t off = 0, k = 0; off < n; off += CH, k++) {
        int b = (int)(k & 1);
        size_t len = std::min(CH, n - off);
        PC_CU(cudaEventSynchronize(c->ev[b]), "waiting for a staging buffer");
        par_memcpy(g_stage[b], T + off, len, nt);
        PC_CU(cudaMemcpyAsync(c->T + off, g_stage[b], len, cudaMemcpyHostToDevice, c->st[1 + b]),
           "uploading the text");
        k_hist<<<64, 256, 0, c->st[1 + b]>>>(c->T + off, (i64)len, c->hist);
        PC_CU_LAUNCHED("k_hist");
        PC_CU(cudaEventRecord(c->ev[b], c->st[1 + b]), "cudaEventRecord");
    }
    for (int b = 0; b < 2; b++)
        PC_CU(cudaStreamWaitEvent(c->st[0], c->ev[b], 0), "cudaStreamWaitEvent");
    return PC_OK;
}

/* cuda-ms download of count int32 from dev: device -> pinned buffer on
 * streams 1 and 2 (after `ready` on stream 0) while the host moves the
 * previous chunk into place. */
static int download_staged(sa_ctx *c, int32_t *host, const int32_t *dev, i64 count,
                           cudaEvent_t ready, int nt, pc_error *err)
{
    int rc = stage_get(err);
    if (rc)
        return rc;
    size_t bytes = (size_t)count * 4, CH = SA_CUDA_STAGE_BYTES;
    size_t nch = (bytes + CH - 1) / CH;
    for (int b = 0; b < 2; b++) {
        PC_CU(cudaEventSynchronize(c->ev[b]), "waiting for a staging buffer");
        PC_CU(cudaStreamWaitEvent(c->st[1 + b], ready, 0), "cudaStreamWaitEvent");
    }
    for (size_t k = 0; k < nch && k < 2; k++) {
        size_t off = k * CH, len = std::min(CH, bytes - off);
        PC_CU(cudaMemcpyAsync(g_stage[k], (const char *)dev + off, len, cudaMemcpyDeviceToHost,
                           c->st[1 + k]), "downloading");
        PC_CU(cudaEventRecord(c->ev[k], c->st[1 + k]), "cudaEventRecord");
    }
    for (size_t k = 0; k < nch; k++) {
        int b = (int)(k & 1);
        size_t off = k * CH, len = std::min(CH, bytes - off);
        PC_CU(cudaEventSynchronize(c->ev[b]), "downloading");
        par_memcpy((char *)host + off, g_stage[b], len, nt);
        if (k + 2 < nch) {
            size_t o2 = (k + 2) * CH, l2 = std::min(CH, bytes - o2);
            PC_CU(cudaMemcpyAsync(g_stage[b], (const char *)dev + o2, l2, cudaMemcpyDeviceToHost,
                               c->st[1 + b]), "downloading");
            PC_CU(cudaEventRecord(c->ev[b], c->st[1 + b]), "cudaEventRecord");
        }
    }
    return PC_OK;
}

/* ---- the engine ------------------------------------------------------------- */

static int ctx_init(sa_ctx *c, i64 n, int ms, pc_error *err)
{
    c->n = n;
    c->ms = ms;
    c->trace = getenv("SA_CUDA_TRACE") != NULL;
    int dev = 0, sms = 0;
    PC_CU(cudaGetDevice(&dev), "cudaGetDevice");
    PC_CU(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev), "cudaDeviceGetAttribute");
    c->blocks = std::max(1, sms) * 8;
    int rc = pool_get(err);
    if (rc)
        return rc;
    /* the driver's own count of this call's peak, beside ours */
    uint64_t zero = 0;
    PC_CU(cudaMemPoolSetAttribute(g_pool, cudaMemPoolAttrUsedMemHigh, &zero), "cudaMemPoolSetAttribute");
    for (int k = 0; k < (ms ? 3 : 1); k++) {
        PC_CU(cudaStreamCreateWithFlags(&c->st[k], cudaStreamNonBlocking), "cudaStreamCreate");
        c->nst++;
    }
    for (int k = 0; k < 4; k++) {
        PC_CU(cudaEventCreateWithFlags(&c->ev[k], cudaEventDisableTiming), "cudaEventCreate");
        c->nev++;
    }
    PC_CU(cudaHostAlloc((void **)&c->hcnt, (1 + SA_CUDA_CHUNKS) * sizeof(i64), cudaHostAllocDefault),
       "cudaHostAlloc");
    return PC_OK;
}

static unsigned grid(const sa_ctx *c, i64 items)
{
    i64 b = (items + 255) / 256;
    return (unsigned)std::max<i64>(1, std::min<i64>(b, c->blocks));
}

static int read_count(sa_ctx *c, i64 *out, pc_error *err)
{
    PC_CU(cudaMemcpyAsync(c->hcnt, c->cnt, sizeof(i64), cudaMemcpyDeviceToHost, c->st[0]),
       "reading a device counter");
    PC_CU(cudaStreamSynchronize(c->st[0]), "cudaStreamSynchronize");
    *out = *c->hcnt;
    return PC_OK;
}

/* A round's batches: ranges [lo, hi) of group heads (both ends group
 * starts, so every group lies in one batch) holding at most cap active
 * suffixes each (sorted batches), or a single group of any length (no sort
 * needed). Candidate ends are the group starts found at each chunk of CH
 * slots: the active slots before the group start g of chunk c are the
 * chunk counts before c minus the slots [g, c*CH) of that group (all
 * active). When not even the next candidate fits, the group starting the
 * range is long (it holds every chunk start up to that candidate; with the
 * default cap n/2, longer than n/2 - CH) and becomes a batch of its own:
 * its end is looked up on the device. */
static int group_end(sa_ctx *c, i64 g, i64 end, i64 *out, pc_error *err);

typedef struct batch {
    int32_t lo, hi;
    i64 items;
    int single; /* one group: no sort */
} batch;

static int plan_batches(sa_ctx *c, i64 CH, int nc, const uint32_t *cnt, const int32_t *gs,
                        std::vector<batch> &out, i64 *total, pc_error *err)
{
    const i64 n = c->n, cap = c->bcap;
    std::vector<i64> bnd((size_t)nc + 1), before((size_t)nc + 1);
    i64 sum = 0;
    for (int k = 0; k < nc; k++) {
        bnd[k] = gs[k];
        before[k] = sum - (k * CH - (i64)gs[k]);
        sum += cnt[k];
    }
    bnd[nc] = n;
    before[nc] = sum;
    *total = sum;
    out.clear();
    i64 cur = 0, bcur = 0; /* next slot to plan, active slots before it */
    int first = 0;         /* first candidate beyond cur */
    while (cur < n) {
        while (first <= nc && bnd[first] <= cur)
            first++;
        int best = -1;
        for (int k = first; k <= nc && before[k] - bcur <= cap; k++)
            best = k;
        if (best >= 0) {
            if (before[best] > bcur)
                out.push_back(batch{ (int32_t)cur, (int32_t)bnd[best], before[best] - bcur, 0 });
            cur = bnd[best];
            bcur = before[best];
            continue;
        }
        i64 end = 0;
        int rc = group_end(c, cur, bnd[first], &end, err);
        if (rc)
            return rc;
        if (end <= cur || end > bnd[first])
            return pc_error_set(err, PC_EVERIFY, __FILE__, __LINE__,
                                "batch plan: the group at slot %lld ends at %lld", cur, end);
        if (end - cur > 1) /* a singleton is no work */
            out.push_back(batch{ (int32_t)cur, (int32_t)end, end - cur, 1 });
        bcur += end - cur > 1 ? end - cur : 0;
        cur = end;
    }
    if (bcur != sum)
        return pc_error_set(err, PC_EVERIFY, __FILE__, __LINE__,
                            "batch plan: %lld active suffixes planned, %lld counted", bcur, sum);
    return PC_OK;
}

/* One batch of a round: the active suffixes of the groups with heads in
 * [lo, hi) (all of them when all), in the order of ISA[i + h], stable
 * sorted by group, split, re-ranked. Four pool buffers of cap items, so SA
 * keeps every slot of the other batches. */
static int round_batch(sa_ctx *c, i64 h, int end_bit, int32_t lo, int32_t hi, int all, i64 expect,
                       i64 *got, pc_error *err)
{
    const i64 n = c->n, cap = c->bcap;
    cudaStream_t s0 = c->st[0];
    /* whole round: V0 <- select, K0 <- gather; batch: (head, i) pairs in
     * the upper half, unpaired into K0 and V0 */
    uint32_t *K0 = c->pool, *K1 = c->pool + 2 * cap;
    int32_t *V0 = (int32_t *)(c->pool + cap), *V1 = (int32_t *)(c->pool + 3 * cap);
    uint64_t *P = (uint64_t *)(c->pool + 2 * cap);
    size_t tb = c->tmp_bytes;
    int rc;
    if (all)
        PC_CU(cub_select(c->tmp, tb, c->SA, sel_active{ c->act, c->ISA, 0, 0, 1 }, V0, c->cnt, n, h, s0),
           "selecting active suffixes");
    else
        PC_CU(cub_select_pairs(c->tmp, tb, c->SA, c->ISA, c->act, lo, hi, P, c->cnt, n, h, s0),
           "selecting a batch of active suffixes");
    i64 m = 0;
    if ((rc = read_count(c, &m, err)))
        return rc;
    *got = m;
    if (m > cap || (expect >= 0 && m != expect))
        return pc_error_set(err, PC_EVERIFY, __FILE__, __LINE__,
                            "round h = %lld: batch [%d, %d) selected %lld suffixes, planned %lld "
                            "(capacity %lld)", h, (int)lo, (int)hi, m, expect, cap);
    if (m == 0)
        return PC_OK;
    if (all) {
        k_gather_keys<<<grid(c, m), 256, 0, s0>>>(m, V0, c->ISA, K0);
        PC_CU_LAUNCHED("k_gather_keys");
    } else {
        k_unpair<<<grid(c, m), 256, 0, s0>>>(m, P, K0, V0);
        PC_CU_LAUNCHED("k_unpair");
    }
    cub::DoubleBuffer<uint32_t> rk(K0, K1);
    cub::DoubleBuffer<int32_t> rv(V0, V1);
    tb = c->tmp_bytes;
    PC_CU(cub_sort(c, c->tmp, tb, rk, rv, m, end_bit, s0), "radix sort by group");
    tb = c->tmp_bytes;
    PC_CU(cub_split(c->tmp, tb, rk.Current(), 0, rv.Current(), c->ISA, rk.Alternate(), c->SA, n, h, m,
                 s0), "splitting groups");
    k_update<<<grid(c, m), 256, 0, s0>>>(m, rv.Current(), rk.Alternate(), c->ISA, c->act);
    PC_CU_LAUNCHED("k_update");
    return PC_OK;
}

/* A batch of one group, of head g: its active suffixes come out of the
 * select already in order (one head), so no sort and two buffers of up to
 * n items: any group fits, however long (all-equal, period-1 texts). */
static int round_group(sa_ctx *c, i64 h, int32_t g, i64 expect, pc_error *err)
{
    const i64 n = c->n;
    cudaStream_t s0 = c->st[0];
    int32_t *V = (int32_t *)c->pool;
    uint32_t *NH = c->pool + n;
    size_t tb = c->tmp_bytes;
    int rc;
    PC_CU(cub_select(c->tmp, tb, c->SA, sel_active{ c->act, c->ISA, g, g + 1, 0 }, V, c->cnt, n, h, s0),
       "selecting a group's suffixes");
    i64 m = 0;
    if ((rc = read_count(c, &m, err)))
        return rc;
    if (m != expect)
        return pc_error_set(err, PC_EVERIFY, __FILE__, __LINE__,
                            "round h = %lld: group %d selected %lld suffixes, planned %lld", h, (int)g,
                            m, expect);
    if (m == 0)
        return PC_OK;
    tb = c->tmp_bytes;
    PC_CU(cub_split(c->tmp, tb, NULL, (uint32_t)g, V, c->ISA, NH, c->SA, n, h, m, s0),
       "splitting a group");
    k_update<<<grid(c, m), 256, 0, s0>>>(m, V, NH, c->ISA, c->act);
    PC_CU_LAUNCHED("k_update");
    return PC_OK;
}

/* First slot in (g, end) whose group head is not g, or end: where the group
 * starting at slot g ends. */
__global__ void k_group_end(i64 g, i64 end, const int32_t *SA, const int32_t *ISA,
                            unsigned long long *out)
{
    for (i64 y = g + 1 + (i64)blockIdx.x * blockDim.x + threadIdx.x; y < end;
         y += (i64)gridDim.x * blockDim.x)
        if (ISA[SA[y]] != (int32_t)g) {
            atomicMin(out, (unsigned long long)y);
            return;
        }
}

static int group_end(sa_ctx *c, i64 g, i64 end, i64 *out, pc_error *err)
{
    cudaStream_t s0 = c->st[0];
    PC_CU(cudaMemcpyAsync(c->cnt, &end, sizeof end, cudaMemcpyHostToDevice, s0), "cudaMemcpy");
    if (end > g + 1) {
        k_group_end<<<grid(c, end - g - 1), 256, 0, s0>>>(g, end, c->SA, c->ISA,
                                                          (unsigned long long *)c->cnt);
        PC_CU_LAUNCHED("k_group_end");
    }
    return read_count(c, out, err);
}

/* Words of k characters in the initial sort: 2, or 4 when the text looks
 * too repetitive for 2k characters to settle most suffixes. A doubling
 * round over nearly all n suffixes costs about three initial passes
 * (measured on the H100: 27 ms against 2 x 8.5 ms at n = 10^8), so
 * two more words pay when most groups would otherwise survive 2k
 * characters. The test: 2k characters of the byte distribution's entropy
 * H0 against log2(n) plus a 12-bit margin, because H0 ignores context
 * (English-like text: H0 = 4.4 bits, but 99.6% of its suffixes still share
 * their first 8 characters with another at n = 10^8; random bytes: 8 bits,
 * none does). Only the speed depends on this choice. */
static int initial_words(const unsigned *hist, i64 n, int k)
{
    double h0 = 0;
    for (int x = 0; x < 256; x++)
        if (hist[x]) {
            double p = (double)hist[x] / (double)n;
            h0 -= p * log2(p);
        }
    return 2.0 * k * h0 < log2((double)n) + 12.0 ? 4 : 2;
}

/* Test hook (sa_cuda.h): items per batch, 0 for the default. */
static i64 g_batch_items = 0;

extern "C" void sa_cuda_set_batch_items(long long items)
{
    g_batch_items = items > 0 ? items : 0;
}

static int sa_cuda_engine(sa_ctx *c, const uint8_t *Th, int32_t *SAh, int32_t *LCPh, int threads,
                          sa_cuda_stats *st, pc_error *err)
{
    const i64 n = c->n;
    cudaStream_t s0 = c->st[0];
    int rc;
    double t0 = pc_time_now();
    i64 words = (n + 31) / 32;
    i64 bcap = (n + 1) / 2;
    if ((rc = dev_alloc(c, (void **)&c->T, (size_t)n, "the text", err)) ||
        (rc = dev_alloc(c, (void **)&c->ISA, (size_t)n * 4, "ISA", err)) ||
        (rc = dev_alloc(c, (void **)&c->SA, (size_t)n * 4, "SA", err)) ||
        (rc = dev_alloc(c, (void **)&c->pool, (size_t)bcap * 16, "the sort buffers", err)) ||
        (rc = dev_alloc(c, (void **)&c->act, (size_t)words * 4, "the active bits", err)) ||
        (rc = dev_alloc(c, (void **)&c->cnt, sizeof(i64), "a counter", err)) ||
        (rc = dev_alloc(c, (void **)&c->hist, 256 * sizeof(unsigned), "the histogram", err)) ||
        (rc = dev_alloc(c, (void **)&c->ccnt, SA_CUDA_CHUNKS * 4, "the chunk counts", err)) ||
        (rc = dev_alloc(c, (void **)&c->cgs, SA_CUDA_CHUNKS * 4, "the chunk group starts", err)))
        return rc;
    c->bcap = g_batch_items ? std::min(g_batch_items, bcap) : bcap;
    uint32_t *K0 = c->pool, *K1 = c->pool + n;
    /* CUB temporary storage: the largest of the calls below, once. */
    {
        size_t b = 0, mx = 0;
        cub::DoubleBuffer<uint32_t> dk(K0, K1);
        cub::DoubleBuffer<int32_t> dv(c->ISA, c->SA);
        PC_CU(cub_sort(c, NULL, b, dk, dv, n, 32, s0), "sizing the radix sort");
        mx = std::max(mx, b);
        PC_CU(cub_select(NULL, b, c->SA, sel_active{ c->act, c->ISA, 0, 0, 1 }, c->ISA, c->cnt, n, 1, s0),
           "sizing the select");
        mx = std::max(mx, b);
        PC_CU(cub_select_pairs(NULL, b, c->SA, c->ISA, c->act, 0, 1, (uint64_t *)K0, c->cnt, n, 1, s0),
           "sizing the select");
        mx = std::max(mx, b);
        PC_CU(cub_scan_heads(NULL, b, K0, K1, n, s0), "sizing the scan");
        mx = std::max(mx, b);
        PC_CU(cub_split(NULL, b, K0, 0, c->ISA, c->ISA, K1, c->SA, n, 1, n, s0), "sizing the scan");
        mx = std::max(mx, b);
        PC_CU(cub_count(NULL, b, c->act, c->cnt, words, s0), "sizing the reduction");
        mx = std::max(mx, b);
        PC_CU(cub_longest(NULL, b, K0, c->cnt, n, s0), "sizing the reduction");
        mx = std::max(mx, b);
        c->tmp_bytes = mx;
        if ((rc = dev_alloc(c, &c->tmp, mx, "CUB temporary storage", err)))
            return rc;
    }
    PC_CU(cudaMemsetAsync(c->hist, 0, 256 * sizeof(unsigned), s0), "cudaMemset");
    PC_CU(cudaMemsetAsync(c->act, 0, (size_t)words * 4, s0), "cudaMemset");
    if (c->ms) {
        PC_CU(cudaStreamSynchronize(s0), "cudaStreamSynchronize");
        if ((rc = upload_staged(c, Th, threads, err)))
            return rc;
    } else {
        PC_CU(cudaMemcpyAsync(c->T, Th, (size_t)n, cudaMemcpyHostToDevice, s0), "uploading the text");
        k_hist<<<grid(c, n), 256, 0, s0>>>(c->T, n, c->hist);
        PC_CU_LAUNCHED("k_hist");
    }
    unsigned hist[256];
    PC_CU(cudaMemcpyAsync(hist, c->hist, sizeof hist, cudaMemcpyDeviceToHost, s0), "reading the histogram");
    PC_CU(cudaStreamSynchronize(s0), "uploading the text");
    double t1 = pc_time_now();

    /* ---- initial sort: W stable passes on k characters each ---- */
    code_table code;
    int sigma = 0;
    for (int x = 0; x < 256; x++)
        code.c[x] = hist[x] ? (uint8_t)sigma++ : 0;
    int b = bits_for(sigma > 1 ? sigma - 1 : 1);
    int k = 32 / b;
    int kb = k * b;
    int W = initial_words(hist, n, k);
    k_recode<<<grid(c, n), 256, 0, s0>>>(c->T, n, code);
    PC_CU_LAUNCHED("k_recode");
    k_init_first<<<grid(c, n), 256, 0, s0>>>(c->T, n, b, k, (i64)(W - 1) * k, K0, c->ISA);
    PC_CU_LAUNCHED("k_init_first");
    cub::DoubleBuffer<uint32_t> dk(K0, K1);
    cub::DoubleBuffer<int32_t> dv(c->ISA, c->SA);
    size_t tb = c->tmp_bytes;
    PC_CU(cub_sort(c, c->tmp, tb, dk, dv, n, kb, s0), "initial radix sort (last word)");
    for (int w = W - 2; w >= 0; w--) {
        k_init_word<<<grid(c, n), 256, 0, s0>>>(c->T, n, b, k, (i64)w * k, dv.Current(), dk.Current());
        PC_CU_LAUNCHED("k_init_word");
        tb = c->tmp_bytes;
        PC_CU(cub_sort(c, c->tmp, tb, dk, dv, n, kb, s0), "initial radix sort");
    }
    if (dv.Current() != c->SA) /* the two buffers are alike: rename instead of copying */
        std::swap(c->SA, c->ISA);
    k_init_flags<<<grid(c, n), 256, 0, s0>>>(c->T, n, b, k, W, c->SA, dk.Current(), dk.Alternate());
    PC_CU_LAUNCHED("k_init_flags");
    tb = c->tmp_bytes;
    PC_CU(cub_scan_heads(c->tmp, tb, dk.Alternate(), dk.Current(), n, s0), "scanning group heads");
    k_init_rank<<<grid(c, n), 256, 0, s0>>>(n, c->SA, dk.Current(), c->ISA, c->act);
    PC_CU_LAUNCHED("k_init_rank");
    tb = c->tmp_bytes;
    PC_CU(cub_longest(c->tmp, tb, dk.Current(), c->cnt, n, s0), "finding the longest group");
    i64 longest = 0, m1 = 0;
    if ((rc = read_count(c, &longest, err)))
        return rc;
    tb = c->tmp_bytes;
    PC_CU(cub_count(c->tmp, tb, c->act, c->cnt, words, s0), "counting active suffixes");
    if ((rc = read_count(c, &m1, err)))
        return rc;
    if (!LCPh && (rc = dev_free(c, c->T, err)) == PC_OK)
        c->T = NULL;
    if (rc)
        return rc;
    double t2 = pc_time_now();

    /* ---- doubling rounds ----
     * Once the active suffixes fit one batch, each round is one batch; before
     * that, chunk counts plan the batches. Splitting a round into batches is
     * sound: a batch's groups read the ranks ISA[i + h] that the earlier
     * batches of the round may have refined, and a refined rank orders
     * suffixes the same way, only more finely. */
    const i64 CH = (n + SA_CUDA_CHUNKS - 1) / SA_CUDA_CHUNKS;
    const int nc = (int)((n + CH - 1) / CH);
    int end_bit = bits_for(n - 1);
    i64 h = (i64)W * k, prev = m1;
    int rounds = 0, groups = 0, max_batches = m1 ? 1 : 0;
    std::vector<batch> plan;
    double tr = t2;
    while (prev > 0) {
        i64 m = 0, got = 0;
        if (prev <= c->bcap) {
            if ((rc = round_batch(c, h, end_bit, 0, 0, 1, -1, &m, err)))
                return rc;
        } else {
            k_chunks<<<nc, 256, 0, s0>>>(n, CH, c->SA, c->ISA, c->act, c->ccnt, c->cgs);
            PC_CU_LAUNCHED("k_chunks");
            uint32_t *hc = (uint32_t *)(c->hcnt + 1); /* hcnt[0] is read_count's */
            int32_t *hg = (int32_t *)(hc + SA_CUDA_CHUNKS);
            PC_CU(cudaMemcpyAsync(hc, c->ccnt, (size_t)nc * 4, cudaMemcpyDeviceToHost, s0), "reading chunk counts");
            PC_CU(cudaMemcpyAsync(hg, c->cgs, (size_t)nc * 4, cudaMemcpyDeviceToHost, s0), "reading chunk counts");
            PC_CU(cudaStreamSynchronize(s0), "planning the batches");
            if ((rc = plan_batches(c, CH, nc, hc, hg, plan, &m, err)))
                return rc;
            for (const batch &bt : plan) {
                if (bt.single)
                    groups++;
                if ((rc = bt.single ? round_group(c, h, bt.lo, bt.items, err)
                                    : round_batch(c, h, end_bit, bt.lo, bt.hi, 0, bt.items, &got, err)))
                    return rc;
            }
            max_batches = std::max(max_batches, (int)plan.size());
        }
        if (c->trace) {
            PC_CU(cudaStreamSynchronize(s0), "tracing a round");
            double now = pc_time_now();
            fprintf(stderr, "sa-cuda round h=%lld active=%lld batches=%d one-group batches=%d %.3f ms\n",
                    h, m, prev <= c->bcap ? 1 : (int)plan.size(), groups, (now - tr) * 1e3);
            tr = now;
        }
        if (m == 0)
            break;
        if (m > prev || h >= n)
            return pc_error_set(err, PC_EVERIFY, __FILE__, __LINE__,
                                "prefix doubling did not converge (h = %lld, %lld active)", h, m);
        rounds++;
        prev = m;
        h *= 2;
    }
    double t3 = pc_time_now();

    /* ---- on-device permutation check ---- */
    PC_CU(cudaMemsetAsync(c->act, 0, (size_t)words * 4, s0), "cudaMemset");
    PC_CU(cudaMemsetAsync(c->cnt, 0, sizeof(i64), s0), "cudaMemset");
    k_check<<<grid(c, n), 256, 0, s0>>>(n, c->SA, c->act, c->cnt);
    PC_CU_LAUNCHED("k_check");
    PC_CU(cudaEventRecord(c->ev[3], s0), "cudaEventRecord");
    i64 bad = 0;
    if ((rc = read_count(c, &bad, err)))
        return rc;
    if (bad)
        return pc_error_set(err, PC_EVERIFY, __FILE__, __LINE__,
                            "on-device check: the suffix array is not a permutation of 0..%lld "
                            "(%lld entries out of range or repeated)", n - 1, bad);
    double t4 = pc_time_now();

    /* ---- download, with the LCP kernels beside it in cuda-ms ----
     * ISA is dead after the rounds: Phi and then PLCP live there, LCP in
     * the pool. */
    int lcp_gpu = LCPh && h <= SA_CUDA_LCP_GPU_MAX_H;
    int32_t *Phi = c->ISA, *L = (int32_t *)c->pool;
    if (lcp_gpu) {
        i64 C = std::max<i64>(32, h / 2);
        k_phi<<<grid(c, n), 256, 0, s0>>>(n, c->SA, Phi);
        PC_CU_LAUNCHED("k_phi");
        k_plcp<<<grid(c, (n + C - 1) / C), 256, 0, s0>>>(c->T, n, C, Phi);
        PC_CU_LAUNCHED("k_plcp");
        k_lcp<<<grid(c, n), 256, 0, s0>>>(n, c->SA, Phi, L);
        PC_CU_LAUNCHED("k_lcp");
    }
    if (c->ms) {
        if ((rc = download_staged(c, SAh, c->SA, n, c->ev[3], threads, err)))
            return rc;
    } else {
        PC_CU(cudaMemcpyAsync(SAh, c->SA, (size_t)n * 4, cudaMemcpyDeviceToHost, s0), "downloading SA");
    }
    double t5 = pc_time_now(), t6 = t5;
    if (LCPh) {
        if (lcp_gpu) {
            PC_CU(cudaEventRecord(c->ev[2], s0), "cudaEventRecord");
            if (c->ms) {
                if ((rc = download_staged(c, LCPh, L, n, c->ev[2], threads, err)))
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
    if (st) {
        st->device_peak_bytes = c->peak;
        uint64_t high = 0;
        PC_CU(cudaMemPoolGetAttribute(g_pool, cudaMemPoolAttrUsedMemHigh, &high), "cudaMemPoolGetAttribute");
        st->pool_peak_bytes = (long long)high;
        st->rounds = rounds;
        st->max_batches = max_batches;
        st->group_batches = groups;
        st->longest_group = longest;
        st->chars_per_word = k;
        st->initial_words = W;
        st->bits_per_char = b;
        st->h_final = h;
        st->active_after_init = m1;
        st->lcp_on_gpu = lcp_gpu;
        st->s_upload = t1 - t0;
        st->s_init = t2 - t1;
        st->s_rounds = t3 - t2;
        st->s_check = t4 - t3;
        st->s_finish = pc_time_now() - t4;
        st->s_lcp_host = lcp_gpu ? 0 : t6 - t5;
        st->s_total = pc_time_now() - t0;
    }
    return PC_OK;
}

extern "C" int sa_cuda_run(const uint8_t *T, int32_t n, int32_t *SA, int32_t *LCP, int multi_stream,
                           int threads, sa_cuda_stats *stats, pc_error *err)
{
    char why[256];
    if (stats)
        memset(stats, 0, sizeof *stats);
    if (!sa_cuda_available(why, sizeof why))
        return pc_error_set(err, PC_EUNAVAIL, NULL, 0, "%s", why);
    if (n < 0 || (n > 0 && (!T || !SA)))
        return pc_error_set(err, PC_EINVAL, __FILE__, __LINE__, "bad arguments (n = %d)", (int)n);
    if (n < 2) { /* nothing to sort; the device is not needed */
        if (n == 1) {
            SA[0] = 0;
            if (LCP)
                LCP[0] = 0;
        }
        return PC_OK;
    }
    sa_ctx c;
    memset(&c, 0, sizeof c);
    int rc = ctx_init(&c, n, multi_stream, err);
    if (rc == PC_OK)
        rc = sa_cuda_engine(&c, T, SA, LCP, threads < 1 ? 1 : std::min(threads, 16), stats, err);
    ctx_release(&c);
    return rc;
}

extern "C" int sa_build_cuda(const uint8_t *T, int32_t n, int32_t *SA, int threads, pc_error *err)
{
    return sa_cuda_run(T, n, SA, NULL, 0, threads, NULL, err);
}

extern "C" int sa_build_cuda_ms(const uint8_t *T, int32_t n, int32_t *SA, int threads,
                                pc_error *err)
{
    return sa_cuda_run(T, n, SA, NULL, 1, threads, NULL, err);
}
