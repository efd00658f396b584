/* sa_cuda.cu - suffix arrays on the GPU: `cuda` and `cuda-ms` (issue 6).
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

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <algorithm>
#include <thread>
#include <vector>

extern "C" {
#include "pc_alloc.h"
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

/* ---- errors ------------------------------------------------------------ */

static int cu_fail(pc_error *err, const char *file, int line, const char *what, cudaError_t e)
{
    (void)cudaGetLastError(); /* clear a non-sticky error so the next call is not blamed */
    return pc_error_set(err, PC_EDEVICE, file, line, "%s: %s (%s)", what, cudaGetErrorString(e),
                        cudaGetErrorName(e));
}

#define CU(call, what)                                                      \
    do {                                                                    \
        cudaError_t e_ = (call);                                            \
        if (e_ != cudaSuccess)                                              \
            return cu_fail(err, __FILE__, __LINE__, (what), e_);            \
    } while (0)

/* After every launch: configuration errors show at once. */
#define LAUNCHED(what) CU(cudaGetLastError(), (what))

/* ---- device detection ---------------------------------------------------- */

static int cuda_probe(char *msg, size_t len)
{
    static int done = 0, ok = 0;
    static char why[200];
    if (!done) {
        int count = 0;
        cudaError_t e = cudaGetDeviceCount(&count);
        if (e != cudaSuccess) {
            snprintf(why, sizeof why, "no CUDA device (cudaGetDeviceCount: %s)",
                     cudaGetErrorString(e));
            (void)cudaGetLastError();
        } else if (count == 0) {
            snprintf(why, sizeof why, "no CUDA device (cudaGetDeviceCount: 0 devices)");
        } else {
            ok = 1;
        }
        done = 1;
    }
    if (len)
        snprintf(msg, len, "%s", ok ? "" : why);
    return ok;
}

extern "C" int sa_cuda_available(char *why, size_t why_len)
{
    return cuda_probe(why, why_len);
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
    int32_t *ISA, *SA, *V0;
    uint32_t *K0, *K1;
    uint32_t *act;         /* one bit per position */
    void *tmp;             /* CUB temporary storage, sized once for the largest call */
    size_t tmp_bytes;
    i64 *cnt;              /* device counter (selected items, bad entries) */
    unsigned *hist;        /* byte histogram */
    i64 *hcnt;             /* pinned host mirror of cnt */
    void *bufs[SA_CUDA_MAX_BUFS];
    size_t sizes[SA_CUDA_MAX_BUFS];
    long long cur, peak;
    size_t free0, minfree;
    int blocks;            /* grid of the grid-stride kernels */
} sa_ctx;

static void note_meminfo(sa_ctx *c)
{
    size_t fr = 0, tot = 0;
    if (cudaMemGetInfo(&fr, &tot) == cudaSuccess && fr < c->minfree)
        c->minfree = fr;
    else
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
    cudaError_t e = cudaMalloc(p, bytes);
    if (e != cudaSuccess) {
        *p = NULL;
        (void)cudaGetLastError();
        return pc_error_set(err, PC_EDEVICE, __FILE__, __LINE__,
                            "cudaMalloc of %zu bytes for %s: %s (n = %lld needs about %lld bytes "
                            "of device memory, see docs/README-sa-cuda.md)",
                            bytes, what, cudaGetErrorString(e), c->n, 21 * c->n + (64ll << 20));
    }
    c->bufs[slot] = *p;
    c->sizes[slot] = bytes;
    c->cur += (long long)bytes;
    if (c->cur > c->peak)
        c->peak = c->cur;
    note_meminfo(c);
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
            CU(cudaFree(p), "cudaFree");
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
            (void)cudaFree(c->bufs[k]);
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
 * sorts) keyed by their second word. */
__global__ void k_init_w2(const uint8_t *T, i64 n, int b, int k, uint32_t *K, int32_t *V)
{
    GS_LOOP(t, n) {
        i64 v = n - 1 - t;
        V[t] = (int32_t)v;
        K[t] = word_at(T, n, v + k, b, k);
    }
}

__global__ void k_init_w1(const uint8_t *T, i64 n, int b, int k, const int32_t *V, uint32_t *K)
{
    GS_LOOP(t, n)
        K[t] = word_at(T, n, V[t], b, k);
}

/* F[t] = t where a group of equal 2k-character prefixes starts. A suffix
 * shorter than 2k characters (its window is padded) is a group of its own:
 * it sorts before the longer suffixes with the same padded window. */
__global__ void k_init_flags(const uint8_t *T, i64 n, int b, int k, const int32_t *SA,
                             const uint32_t *K1w, uint32_t *F)
{
    GS_LOOP(t, n) {
        int f = t == 0;
        if (!f) {
            i64 a = SA[t - 1], v = SA[t];
            f = K1w[t] != K1w[t - 1] || word_at(T, n, v + k, b, k) != word_at(T, n, a + k, b, k) ||
                n - a < 2 * (i64)k;
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

__global__ void k_gather_keys(i64 m, const int32_t *V, const int32_t *ISA, uint32_t *K)
{
    GS_LOOP(t, m)
        K[t] = (uint32_t)ISA[V[t]];
}

/* The sort may have used SA[0..m) as its spare value buffer: put back the
 * finished suffixes that live there (a finished suffix's head is its SA
 * index). */
__global__ void k_restore(i64 n, i64 m, const uint32_t *act, const int32_t *ISA, int32_t *SA)
{
    GS_LOOP(p, n) {
        if ((act[p >> 5] >> (p & 31)) & 1u)
            continue;
        int32_t r = ISA[p];
        if (r < m)
            SA[r] = (int32_t)p;
    }
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

struct sel_active {
    const uint32_t *act;
    __host__ __device__ bool operator()(int32_t i) const
    {
        return i >= 0 && ((act[i >> 5] >> (i & 31)) & 1u);
    }
};

/* Group start (x) and subgroup start (y) flags of sorted item t, as the
 * item index or 0, for a component-wise max scan. */
struct split_in {
    const uint32_t *K;  /* group heads, sorted */
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
        int gs = t == 0 || K[t - 1] != K[t];
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
    const int32_t *V;
    uint32_t *NH;
    int32_t *SA;
    __host__ __device__ void operator()(ptrdiff_t t, int2 r) const
    {
        uint32_t g = K[t];
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

static cudaError_t cub_select(void *tmp, size_t &bytes, const int32_t *SA, const uint32_t *act,
                              int32_t *out, i64 *count, i64 n, i64 h, cudaStream_t s)
{
    auto in = thrust::make_transform_iterator(thrust::counting_iterator<i64>(0), sel_in{ SA, n, h });
    return cub::DeviceSelect::If(tmp, bytes, in, out, count, n + 1, sel_active{ act }, s);
}

static cudaError_t cub_scan_heads(void *tmp, size_t &bytes, const uint32_t *F, uint32_t *H, i64 n,
                                  cudaStream_t s)
{
    return cub::DeviceScan::InclusiveScan(tmp, bytes, F, H, max_u32(), n, s);
}

static cudaError_t cub_split(void *tmp, size_t &bytes, const uint32_t *K, const int32_t *V,
                             const int32_t *ISA, uint32_t *NH, int32_t *SA, i64 n, i64 h, i64 m,
                             cudaStream_t s)
{
    auto in = thrust::make_transform_iterator(thrust::counting_iterator<i64>(0),
                                              split_in{ K, V, ISA, n, h });
    auto out = thrust::make_tabulate_output_iterator(split_out{ K, V, NH, SA });
    return cub::DeviceScan::InclusiveScan(tmp, bytes, in, out, max_int2(), m, s);
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
            CU(cudaHostAlloc((void **)&g_stage[k], SA_CUDA_STAGE_BYTES, cudaHostAllocDefault),
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
        CU(cudaEventSynchronize(c->ev[b]), "waiting for a staging buffer");
        par_memcpy(g_stage[b], T + off, len, nt);
        CU(cudaMemcpyAsync(c->T + off, g_stage[b], len, cudaMemcpyHostToDevice, c->st[1 + b]),
           "uploading the text");
        k_hist<<<64, 256, 0, c->st[1 + b]>>>(c->T + off, (i64)len, c->hist);
        LAUNCHED("k_hist");
        CU(cudaEventRecord(c->ev[b], c->st[1 + b]), "cudaEventRecord");
    }
    for (int b = 0; b < 2; b++)
        CU(cudaStreamWaitEvent(c->st[0], c->ev[b], 0), "cudaStreamWaitEvent");
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
        CU(cudaEventSynchronize(c->ev[b]), "waiting for a staging buffer");
        CU(cudaStreamWaitEvent(c->st[1 + b], ready, 0), "cudaStreamWaitEvent");
    }
    for (size_t k = 0; k < nch && k < 2; k++) {
        size_t off = k * CH, len = std::min(CH, bytes - off);
        CU(cudaMemcpyAsync(g_stage[k], (const char *)dev + off, len, cudaMemcpyDeviceToHost,
                           c->st[1 + k]), "downloading");
        CU(cudaEventRecord(c->ev[k], c->st[1 + k]), "cudaEventRecord");
    }
    for (size_t k = 0; k < nch; k++) {
        int b = (int)(k & 1);
        size_t off = k * CH, len = std::min(CH, bytes - off);
        CU(cudaEventSynchronize(c->ev[b]), "downloading");
        par_memcpy((char *)host + off, g_stage[b], len, nt);
        if (k + 2 < nch) {
            size_t o2 = (k + 2) * CH, l2 = std::min(CH, bytes - o2);
            CU(cudaMemcpyAsync(g_stage[b], (const char *)dev + o2, l2, cudaMemcpyDeviceToHost,
                               c->st[1 + b]), "downloading");
            CU(cudaEventRecord(c->ev[b], c->st[1 + b]), "cudaEventRecord");
        }
    }
    return PC_OK;
}

/* ---- the engine ------------------------------------------------------------- */

static int ctx_init(sa_ctx *c, i64 n, int ms, pc_error *err)
{
    c->n = n;
    c->ms = ms;
    c->minfree = (size_t)-1;
    int dev = 0, sms = 0;
    CU(cudaGetDevice(&dev), "cudaGetDevice");
    CU(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev), "cudaDeviceGetAttribute");
    c->blocks = std::max(1, sms) * 8;
    size_t tot = 0;
    CU(cudaMemGetInfo(&c->free0, &tot), "cudaMemGetInfo");
    c->minfree = c->free0;
    for (int k = 0; k < (ms ? 3 : 1); k++) {
        CU(cudaStreamCreateWithFlags(&c->st[k], cudaStreamNonBlocking), "cudaStreamCreate");
        c->nst++;
    }
    for (int k = 0; k < 4; k++) {
        CU(cudaEventCreateWithFlags(&c->ev[k], cudaEventDisableTiming), "cudaEventCreate");
        c->nev++;
    }
    CU(cudaHostAlloc((void **)&c->hcnt, sizeof(i64), cudaHostAllocDefault), "cudaHostAlloc");
    return PC_OK;
}

static unsigned grid(const sa_ctx *c, i64 items)
{
    i64 b = (items + 255) / 256;
    return (unsigned)std::max<i64>(1, std::min<i64>(b, c->blocks));
}

static int read_count(sa_ctx *c, i64 *out, pc_error *err)
{
    CU(cudaMemcpyAsync(c->hcnt, c->cnt, sizeof(i64), cudaMemcpyDeviceToHost, c->st[0]),
       "reading a device counter");
    CU(cudaStreamSynchronize(c->st[0]), "cudaStreamSynchronize");
    *out = *c->hcnt;
    return PC_OK;
}

static int sa_cuda_engine(sa_ctx *c, const uint8_t *Th, int32_t *SAh, int32_t *LCPh, int threads,
                          sa_cuda_stats *st, pc_error *err)
{
    const i64 n = c->n;
    cudaStream_t s0 = c->st[0];
    int rc;
    double t0 = pc_time_now();
    i64 words = (n + 31) / 32;
    if ((rc = dev_alloc(c, (void **)&c->T, (size_t)n, "the text", err)) ||
        (rc = dev_alloc(c, (void **)&c->ISA, (size_t)n * 4, "ISA", err)) ||
        (rc = dev_alloc(c, (void **)&c->SA, (size_t)n * 4, "SA", err)) ||
        (rc = dev_alloc(c, (void **)&c->K0, (size_t)n * 4, "the sort keys", err)) ||
        (rc = dev_alloc(c, (void **)&c->K1, (size_t)n * 4, "the sort keys", err)) ||
        (rc = dev_alloc(c, (void **)&c->act, (size_t)words * 4, "the active bits", err)) ||
        (rc = dev_alloc(c, (void **)&c->cnt, sizeof(i64), "a counter", err)) ||
        (rc = dev_alloc(c, (void **)&c->hist, 256 * sizeof(unsigned), "the histogram", err)))
        return rc;
    /* CUB temporary storage: the largest of the calls below, once. */
    {
        size_t b = 0, mx = 0;
        cub::DoubleBuffer<uint32_t> dk(c->K0, c->K1);
        cub::DoubleBuffer<int32_t> dv(c->ISA, c->SA);
        CU(cub_sort(c, NULL, b, dk, dv, n, 32, s0), "sizing the radix sort");
        mx = std::max(mx, b);
        CU(cub_select(NULL, b, c->SA, c->act, c->ISA, c->cnt, n, 1, s0), "sizing the select");
        mx = std::max(mx, b);
        CU(cub_scan_heads(NULL, b, c->K0, c->K1, n, s0), "sizing the scan");
        mx = std::max(mx, b);
        CU(cub_split(NULL, b, c->K0, c->ISA, c->ISA, c->K1, c->SA, n, 1, n, s0), "sizing the scan");
        mx = std::max(mx, b);
        CU(cub_count(NULL, b, c->act, c->cnt, words, s0), "sizing the reduction");
        mx = std::max(mx, b);
        c->tmp_bytes = mx;
        if ((rc = dev_alloc(c, &c->tmp, mx, "CUB temporary storage", err)))
            return rc;
    }
    CU(cudaMemsetAsync(c->hist, 0, 256 * sizeof(unsigned), s0), "cudaMemset");
    CU(cudaMemsetAsync(c->act, 0, (size_t)words * 4, s0), "cudaMemset");
    if (c->ms) {
        CU(cudaStreamSynchronize(s0), "cudaStreamSynchronize");
        if ((rc = upload_staged(c, Th, threads, err)))
            return rc;
    } else {
        CU(cudaMemcpyAsync(c->T, Th, (size_t)n, cudaMemcpyHostToDevice, s0), "uploading the text");
        k_hist<<<grid(c, n), 256, 0, s0>>>(c->T, n, c->hist);
        LAUNCHED("k_hist");
    }
    unsigned hist[256];
    CU(cudaMemcpyAsync(hist, c->hist, sizeof hist, cudaMemcpyDeviceToHost, s0), "reading the histogram");
    CU(cudaStreamSynchronize(s0), "uploading the text");
    double t1 = pc_time_now();

    /* ---- initial sort: two stable passes on k characters each ---- */
    code_table code;
    int sigma = 0;
    for (int x = 0; x < 256; x++)
        code.c[x] = hist[x] ? (uint8_t)sigma++ : 0;
    int b = bits_for(sigma > 1 ? sigma - 1 : 1);
    int k = 32 / b;
    int kb = k * b;
    k_recode<<<grid(c, n), 256, 0, s0>>>(c->T, n, code);
    LAUNCHED("k_recode");
    k_init_w2<<<grid(c, n), 256, 0, s0>>>(c->T, n, b, k, c->K0, c->ISA);
    LAUNCHED("k_init_w2");
    cub::DoubleBuffer<uint32_t> dk(c->K0, c->K1);
    cub::DoubleBuffer<int32_t> dv(c->ISA, c->SA);
    size_t tb = c->tmp_bytes;
    CU(cub_sort(c, c->tmp, tb, dk, dv, n, kb, s0), "initial radix sort (second word)");
    k_init_w1<<<grid(c, n), 256, 0, s0>>>(c->T, n, b, k, dv.Current(), dk.Current());
    LAUNCHED("k_init_w1");
    tb = c->tmp_bytes;
    CU(cub_sort(c, c->tmp, tb, dk, dv, n, kb, s0), "initial radix sort (first word)");
    if (dv.Current() != c->SA)
        CU(cudaMemcpyAsync(c->SA, dv.Current(), (size_t)n * 4, cudaMemcpyDeviceToDevice, s0),
           "cudaMemcpy");
    k_init_flags<<<grid(c, n), 256, 0, s0>>>(c->T, n, b, k, c->SA, dk.Current(), dk.Alternate());
    LAUNCHED("k_init_flags");
    tb = c->tmp_bytes;
    CU(cub_scan_heads(c->tmp, tb, dk.Alternate(), dk.Current(), n, s0), "scanning group heads");
    k_init_rank<<<grid(c, n), 256, 0, s0>>>(n, c->SA, dk.Current(), c->ISA, c->act);
    LAUNCHED("k_init_rank");
    tb = c->tmp_bytes;
    CU(cub_count(c->tmp, tb, c->act, c->cnt, words, s0), "counting active suffixes");
    i64 m1 = 0;
    if ((rc = read_count(c, &m1, err)))
        return rc;
    if (!LCPh && (rc = dev_free(c, c->T, err)) == PC_OK)
        c->T = NULL;
    if (rc)
        return rc;
    /* the round's values: at most m1 suffixes are active from here on */
    if ((rc = dev_alloc(c, (void **)&c->V0, (size_t)std::max<i64>(m1, 1) * 4, "the active suffixes", err)))
        return rc;
    double t2 = pc_time_now();

    /* ---- doubling rounds ---- */
    int end_bit = bits_for(n - 1);
    i64 h = 2 * (i64)k;
    int rounds = 0;
    for (;;) {
        tb = c->tmp_bytes;
        CU(cub_select(c->tmp, tb, c->SA, c->act, c->V0, c->cnt, n, h, s0), "selecting active suffixes");
        i64 m = 0;
        if ((rc = read_count(c, &m, err)))
            return rc;
        if (m == 0)
            break;
        if (m > m1 || h >= n)
            return pc_error_set(err, PC_EVERIFY, __FILE__, __LINE__,
                                "prefix doubling did not converge (h = %lld, %lld active)", h, m);
        rounds++;
        k_gather_keys<<<grid(c, m), 256, 0, s0>>>(m, c->V0, c->ISA, c->K0);
        LAUNCHED("k_gather_keys");
        cub::DoubleBuffer<uint32_t> rk(c->K0, c->K1);
        cub::DoubleBuffer<int32_t> rv(c->V0, c->SA);
        tb = c->tmp_bytes;
        CU(cub_sort(c, c->tmp, tb, rk, rv, m, end_bit, s0), "radix sort by group");
        if (rv.Current() != c->V0)
            CU(cudaMemcpyAsync(c->V0, rv.Current(), (size_t)m * 4, cudaMemcpyDeviceToDevice, s0),
               "cudaMemcpy");
        k_restore<<<grid(c, n), 256, 0, s0>>>(n, m, c->act, c->ISA, c->SA);
        LAUNCHED("k_restore");
        tb = c->tmp_bytes;
        CU(cub_split(c->tmp, tb, rk.Current(), c->V0, c->ISA, rk.Alternate(), c->SA, n, h, m, s0),
           "splitting groups");
        k_update<<<grid(c, m), 256, 0, s0>>>(m, c->V0, rk.Alternate(), c->ISA, c->act);
        LAUNCHED("k_update");
        h *= 2;
    }
    double t3 = pc_time_now();

    /* ---- on-device permutation check ---- */
    CU(cudaMemsetAsync(c->act, 0, (size_t)words * 4, s0), "cudaMemset");
    CU(cudaMemsetAsync(c->cnt, 0, sizeof(i64), s0), "cudaMemset");
    k_check<<<grid(c, n), 256, 0, s0>>>(n, c->SA, c->act, c->cnt);
    LAUNCHED("k_check");
    CU(cudaEventRecord(c->ev[3], s0), "cudaEventRecord");
    i64 bad = 0;
    if ((rc = read_count(c, &bad, err)))
        return rc;
    if (bad)
        return pc_error_set(err, PC_EVERIFY, __FILE__, __LINE__,
                            "on-device check: the suffix array is not a permutation of 0..%lld "
                            "(%lld entries out of range or repeated)", n - 1, bad);
    double t4 = pc_time_now();

    /* ---- download, with the LCP kernels beside it in cuda-ms ---- */
    int lcp_gpu = LCPh && h <= SA_CUDA_LCP_GPU_MAX_H;
    if (lcp_gpu) {
        i64 C = std::max<i64>(32, h / 2);
        int32_t *Phi = (int32_t *)c->K0, *L = (int32_t *)c->K1;
        k_phi<<<grid(c, n), 256, 0, s0>>>(n, c->SA, Phi);
        LAUNCHED("k_phi");
        k_plcp<<<grid(c, (n + C - 1) / C), 256, 0, s0>>>(c->T, n, C, Phi);
        LAUNCHED("k_plcp");
        k_lcp<<<grid(c, n), 256, 0, s0>>>(n, c->SA, Phi, L);
        LAUNCHED("k_lcp");
    }
    if (c->ms) {
        if ((rc = download_staged(c, SAh, c->SA, n, c->ev[3], threads, err)))
            return rc;
    } else {
        CU(cudaMemcpyAsync(SAh, c->SA, (size_t)n * 4, cudaMemcpyDeviceToHost, s0), "downloading SA");
    }
    double t5 = pc_time_now(), t6 = t5;
    if (LCPh) {
        if (lcp_gpu) {
            CU(cudaEventRecord(c->ev[2], s0), "cudaEventRecord");
            if (c->ms) {
                if ((rc = download_staged(c, LCPh, (const int32_t *)c->K1, n, c->ev[2], threads, err)))
                    return rc;
            } else {
                CU(cudaMemcpyAsync(LCPh, c->K1, (size_t)n * 4, cudaMemcpyDeviceToHost, s0),
                   "downloading LCP");
            }
        }
        CU(cudaDeviceSynchronize(), "computing LCP");
        if (!lcp_gpu && (rc = sa_lcp_kasai(Th, SAh, (int32_t)n, LCPh, threads, err)))
            return rc;
        t6 = pc_time_now();
    }
    CU(cudaDeviceSynchronize(), "downloading SA");
    if (st) {
        st->device_peak_bytes = c->peak;
        st->meminfo_peak_bytes = (long long)(c->free0 - c->minfree);
        st->rounds = rounds;
        st->chars_per_word = k;
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
