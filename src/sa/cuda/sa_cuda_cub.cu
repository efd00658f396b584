/* sa_cuda_cub.cu - every CUB call of the GPU suffix-array engine, with the
 * functors that feed them. Each call goes through one of these wrappers so
 * that the size query (tmp == NULL) and the run use the same argument
 * types: the temporary size depends on them. */
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_segmented_sort.cuh>
#include <cub/device/device_select.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/tabulate_output_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include "sa_cuda_internal.h"

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
        if (SA)
            SA[g + (uint32_t)(t - r.x)] = V[t];
    }
};

/* ---- CUB calls, each sized by a query first ---- */

cudaError_t sa_cub_sort(void *tmp, size_t &bytes, cub::DoubleBuffer<uint32_t> &k,
                        cub::DoubleBuffer<int32_t> &v, i64 m, int end_bit, cudaStream_t s)
{
    return cub::DeviceRadixSort::SortPairs(tmp, bytes, k, v, (int)m, 0, end_bit, s);
}

cudaError_t sa_cub_select(void *tmp, size_t &bytes, const int32_t *SA, const sel_active &pick,
                              int32_t *out, i64 *count, i64 n, i64 h, cudaStream_t s)
{
    auto in = thrust::make_transform_iterator(thrust::counting_iterator<i64>(0), sel_in{ SA, n, h });
    return cub::DeviceSelect::If(tmp, bytes, in, out, count, n + 1, pick, s);
}

cudaError_t sa_cub_select_pairs(void *tmp, size_t &bytes, const int32_t *SA, const int32_t *ISA,
                                    const uint32_t *act, int32_t lo, int32_t hi, uint64_t *out,
                                    i64 *count, i64 n, i64 h, cudaStream_t s)
{
    auto in = thrust::make_transform_iterator(thrust::counting_iterator<i64>(0),
                                              sel_pair_in{ SA, ISA, n, h });
    return cub::DeviceSelect::If(tmp, bytes, in, out, count, n + 1,
                                 sel_pair_active{ act, (uint32_t)lo, (uint32_t)hi }, s);
}

cudaError_t sa_cub_scan_heads(void *tmp, size_t &bytes, const uint32_t *F, uint32_t *H, i64 n,
                                  cudaStream_t s)
{
    return cub::DeviceScan::InclusiveScan(tmp, bytes, F, H, max_u32(), n, s);
}

/* K = NULL: one group, of head k0 (no sort needed). */
cudaError_t sa_cub_split(void *tmp, size_t &bytes, const uint32_t *K, uint32_t k0,
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

cudaError_t sa_cub_longest(void *tmp, size_t &bytes, const uint32_t *H, i64 *out, i64 n,
                               cudaStream_t s)
{
    auto in = thrust::make_transform_iterator(thrust::counting_iterator<i64>(0), group_len{ H });
    return cub::DeviceReduce::Max(tmp, bytes, in, out, n, s);
}

cudaError_t sa_cub_count(void *tmp, size_t &bytes, const uint32_t *act, i64 *out, i64 words,
                             cudaStream_t s)
{
    auto in = thrust::make_transform_iterator(thrust::counting_iterator<i64>(0), popc_word{ act });
    return cub::DeviceReduce::Sum(tmp, bytes, in, out, words, s);
}

/* ---- the compacted rounds of cuda-dc ---- */

/* Sorted item t of a compacted round, key (head << b2) | key2: group start
 * (x) and subgroup start (y) flags, as the item index or 0. */
struct dc_split_in {
    const uint64_t *K;
    int b2;
    __host__ __device__ int2 operator()(i64 t) const
    {
        int gs = t == 0 || (K[t - 1] >> b2) != (K[t] >> b2);
        int ss = gs || K[t - 1] != K[t];
        return make_int2(gs ? (int)t : 0, ss ? (int)t : 0);
    }
};

/* Item t's new head and its SA slot: the group's slots start at its head. */
struct dc_split_out {
    const uint64_t *K;
    int b2;
    const int32_t *V;
    uint32_t *NH;
    int32_t *SA;
    __host__ __device__ void operator()(ptrdiff_t t, int2 r) const
    {
        uint32_t g = (uint32_t)(K[t] >> b2);
        NH[t] = g + (uint32_t)(r.y - r.x);
        if (SA)
            SA[g + (uint32_t)(t - r.x)] = V[t];
    }
};

/* Item t stays unsorted: a neighbour has its new head. */
struct dc_keep {
    const uint32_t *NH;
    i64 m;
    __host__ __device__ bool operator()(i64 t) const
    {
        uint32_t g = NH[t];
        return (t > 0 && NH[t - 1] == g) || (t + 1 < m && NH[t + 1] == g);
    }
};

/* A text position of the difference-cover sample (residue i mod v in the
 * mask) whose active bit is set; v is a power of two <= 64. */
struct dcs_pick {
    const uint32_t *act;
    uint64_t mask;
    int32_t vmask;
    __host__ __device__ bool operator()(int32_t i) const
    {
        return ((act[i >> 5] >> (i & 31)) & 1u) && ((mask >> (i & vmask)) & 1u);
    }
};

cudaError_t sa_cub_select_sample(void *tmp, size_t &bytes, const int32_t *SA, const uint32_t *act,
                                 uint64_t mask, int v, int32_t *out, i64 *count, i64 n, cudaStream_t s)
{
    return cub::DeviceSelect::If(tmp, bytes, SA, out, count, n, dcs_pick{ act, mask, v - 1 }, s);
}

/* A text position whose active bit is set. */
struct dc_active {
    const uint32_t *act;
    __host__ __device__ bool operator()(int32_t i) const { return (act[i >> 5] >> (i & 31)) & 1u; }
};

cudaError_t sa_cub_sort64(void *tmp, size_t &bytes, cub::DoubleBuffer<uint64_t> &k,
                          cub::DoubleBuffer<int32_t> &v, i64 m, int end_bit, cudaStream_t s)
{
    return cub::DeviceRadixSort::SortPairs(tmp, bytes, k, v, (int)m, 0, end_bit, s);
}

cudaError_t sa_cub_select_slots(void *tmp, size_t &bytes, const int32_t *SA, const uint32_t *act,
                                int32_t *out, i64 *count, i64 n, cudaStream_t s)
{
    return cub::DeviceSelect::If(tmp, bytes, SA, out, count, n, dc_active{ act }, s);
}

cudaError_t sa_cub_dc_split(void *tmp, size_t &bytes, const uint64_t *K, int b2, const int32_t *V,
                            uint32_t *NH, int32_t *SA, i64 m, cudaStream_t s)
{
    auto in = thrust::make_transform_iterator(thrust::counting_iterator<i64>(0), dc_split_in{ K, b2 });
    auto out = thrust::make_tabulate_output_iterator(dc_split_out{ K, b2, V, NH, SA });
    return cub::DeviceScan::InclusiveScan(tmp, bytes, in, out, max_int2(), m, s);
}

cudaError_t sa_cub_dc_keep(void *tmp, size_t &bytes, const int32_t *V, const uint32_t *NH,
                           int32_t *out, i64 *count, i64 m, cudaStream_t s)
{
    auto flags = thrust::make_transform_iterator(thrust::counting_iterator<i64>(0), dc_keep{ NH, m });
    return cub::DeviceSelect::Flagged(tmp, bytes, V, flags, out, count, m, s);
}

/* ---- cuda-dc's segmented rounds ---- */

/* Range item v (t = v - which, slot lo + t): which = 0 keeps the first slot
 * of an active group, which = 1 one past its last slot (as v = t + 1). */
struct seg_bound {
    const int32_t *SA, *ISA;
    const uint32_t *act;
    i64 lo, m;
    int which;
    __host__ __device__ bool operator()(int32_t v) const
    {
        i64 t = (i64)v - which;
        int32_t i = SA[lo + t];
        if (!((act[i >> 5] >> (i & 31)) & 1u))
            return false;
        if (which == 0)
            return (i64)ISA[i] == lo + t;
        return t + 1 == m || (i64)ISA[SA[lo + t + 1]] == lo + t + 1;
    }
};

/* A flag without its "singleton slot" top bit. */
struct seg_low {
    __host__ __device__ uint32_t operator()(uint32_t f) const { return f & 0x7fffffffu; }
};

cudaError_t sa_cub_seg_bounds(void *tmp, size_t &bytes, const int32_t *SA, const int32_t *ISA,
                              const uint32_t *act, i64 lo, i64 m, int which, int32_t *out, i64 *count,
                              cudaStream_t s)
{
    thrust::counting_iterator<int32_t> in(which);
    return cub::DeviceSelect::If(tmp, bytes, in, out, count, m, seg_bound{ SA, ISA, act, lo, m, which }, s);
}

cudaError_t sa_cub_segsort(void *tmp, size_t &bytes, cub::DoubleBuffer<uint32_t> &k,
                           cub::DoubleBuffer<int32_t> &v, i64 m, i64 segments, const int32_t *begin,
                           const int32_t *end, cudaStream_t s)
{
    return cub::DeviceSegmentedSort::SortPairs(tmp, bytes, k, v, m, segments, begin, end, s);
}

cudaError_t sa_cub_seg_heads(void *tmp, size_t &bytes, const uint32_t *F, uint32_t *H, i64 m,
                             cudaStream_t s)
{
    auto in = thrust::make_transform_iterator(F, seg_low());
    return cub::DeviceScan::InclusiveScan(tmp, bytes, in, H, max_u32(), m, s);
}
