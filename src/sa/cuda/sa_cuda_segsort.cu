/* sa_cuda_segsort.cu - cuda-dc's rounds while most suffixes are unsorted,
 * as an option (SA_CUDA_DC_SEGMENTED=1; off by default, because on the
 * H100 these rounds measured slower than cuda's: 18.2 against 16.2 ms a
 * round on the repeated 1 MB x 64 block, 24 against 16 ms on text):
 * one pass over SA in slot ranges of whole groups, each group sorted on
 * its own by the next rank (one CUB segmented sort per range, no global
 * radix sort, no select over all of SA per range).
 *
 * A range [lo, hi) of SA slots (both ends group starts): the suffixes
 * V[t] = SA[lo + t] with keys key2 = ISA[V[t] + h] + 1 (0 past the end);
 * the active groups (size > 1) are the segments, found by two selects
 * (their first and one-past-last slots); after the segmented sort, the
 * new heads come from one max scan over "subgroup start" flags, and the
 * sorted suffixes go back to the same slots. Singleton slots are not in
 * any segment and are left alone (the flag's top bit marks them). A group
 * longer than a range is a range of its own, done as the rounds over SA do
 * it (its suffixes already come in order, no sort). Ranks are read as the
 * rounds over SA read them: a later range may see ranks that an earlier
 * range refined, which order suffixes the same way, only more finely.
 *
 * Memory: in the engine's sort pool (8n bytes): keys and values, double
 * buffered (16 bytes a slot), begin and end offsets (at most one segment
 * per two slots: 4 bytes a slot) and the segmented sort's own temporary
 * storage (about 8 bytes a segment), so ranges of n/3 slots at most. */
#include <stdio.h>

#include <algorithm>

#include "sa_cuda_internal.h"

#define SEG_SINGLE 0x80000000u

/* V[t] = SA[lo + t], K[t] = key2 of V[t]. */
__global__ void k_seg_keys(i64 lo, i64 m, i64 n, i64 h, const int32_t *SA, const int32_t *ISA,
                           uint32_t *K, int32_t *V)
{
    GS_LOOP(t, m) {
        int32_t i = SA[lo + t];
        i64 p = (i64)i + h;
        V[t] = i;
        K[t] = p < n ? (uint32_t)ISA[p] + 1u : 0u;
    }
}

/* Sorted item t: its slot if it starts a group or a subgroup, else 0; the
 * top bit when the slot is a singleton of the previous order (not sorted:
 * its K and V are not its own). Reads the old SA and ISA. */
__global__ void k_seg_flags(i64 lo, i64 m, const int32_t *SA, const int32_t *ISA,
                            const uint32_t *act, const uint32_t *K, uint32_t *F)
{
    GS_LOOP(t, m) {
        int32_t i = SA[lo + t];
        uint32_t slot = (uint32_t)(lo + t);
        int start = t == 0 || (uint32_t)ISA[i] == slot;
        int single = !((act[i >> 5] >> (i & 31)) & 1u);
        uint32_t f = start || single || K[t] != K[t - 1] ? slot : 0u;
        F[t] = f | (single ? SEG_SINGLE : 0u);
    }
}

/* Sorted suffixes back to their slots with their new heads; the active bit
 * of a new singleton is cleared. */
__global__ void k_seg_update(i64 lo, i64 m, const uint32_t *F, const int32_t *V, const uint32_t *NH,
                             int32_t *SA, int32_t *ISA, uint32_t *act)
{
    GS_LOOP(t, m) {
        if (F[t] & SEG_SINGLE)
            continue;
        int32_t v = V[t];
        uint32_t nh = NH[t];
        SA[lo + t] = v;
        ISA[v] = (int32_t)nh;
        int single = (t == 0 || NH[t - 1] != nh) && (t + 1 == m || NH[t + 1] != nh);
        if (single)
            atomicAnd(&act[v >> 5], ~(1u << (v & 31)));
    }
}

/* *out = the head of the group holding slot j. */
__global__ void k_seg_head(i64 j, const int32_t *SA, const int32_t *ISA, i64 *out)
{
    if (blockIdx.x == 0 && threadIdx.x == 0)
        *out = ISA[SA[j]];
}

/* Slots the pool holds per range: 24 bytes each, and 1 MB (an eighth of
 * small pools) kept aside for the segmented sort's fixed temporary storage;
 * what does not fit there (small inputs) gets a buffer of its own. */
static i64 seg_room(const sa_ctx *c)
{
    i64 pool = ((c->n + 1) / 2) * 16;
    return (pool - std::min<i64>((i64)1 << 20, pool / 8)) / 24;
}

/* The range size, the test hook's batch size times 64 if smaller. */
i64 sa_cuda_seg_cap(const sa_ctx *c)
{
    i64 room = seg_room(c), hook = sa_cuda_batch_items();
    return hook ? std::min(room, hook * 64) : room; /* tiny ranges would cost a sync each */
}

/* One range [lo, hi) of whole groups. */
static int seg_range(sa_ctx *c, i64 h, i64 lo, i64 hi, pc_error *err)
{
    const i64 n = c->n, room = seg_room(c), m = hi - lo;
    cudaStream_t s0 = c->st[0];
    uint32_t *K0 = c->pool, *K1 = K0 + room;
    int32_t *V0 = (int32_t *)(K1 + room), *V1 = V0 + room;
    int32_t *Ob = V1 + room, *Oe = Ob + room / 2 + 1;
    i64 pool = ((c->n + 1) / 2) * 16;
    i64 off = ((i64)((char *)(Oe + room / 2 + 1) - (char *)c->pool) + 255) & ~(i64)255;
    char *tmp = (char *)c->pool + off;
    size_t tmp_room = off < pool ? (size_t)(pool - off) : 0;
    size_t tb = c->tmp_bytes;
    i64 s = 0, s2 = 0;
    int rc;
    k_seg_keys<<<sa_cuda_grid(c, m), 256, 0, s0>>>(lo, m, n, h, c->SA, c->ISA, K0, V0);
    PC_CU_LAUNCHED("k_seg_keys");
    PC_CU(sa_cub_seg_bounds(c->tmp, tb, c->SA, c->ISA, c->act, lo, m, 0, Ob, c->cnt, s0),
          "finding the groups of a range");
    if ((rc = sa_cuda_read_count(c, &s, err)))
        return rc;
    tb = c->tmp_bytes;
    PC_CU(sa_cub_seg_bounds(c->tmp, tb, c->SA, c->ISA, c->act, lo, m, 1, Oe, c->cnt, s0),
          "finding the groups of a range");
    if ((rc = sa_cuda_read_count(c, &s2, err)))
        return rc;
    if (s != s2 || s > room / 2)
        return pc_error_set(err, PC_EVERIFY, __FILE__, __LINE__,
                            "round h = %lld: range [%lld, %lld) has %lld group starts, %lld ends", h, lo,
                            hi, s, s2);
    if (s == 0)
        return PC_OK;
    cub::DoubleBuffer<uint32_t> dk(K0, K1);
    cub::DoubleBuffer<int32_t> dv(V0, V1);
    size_t need = 0;
    PC_CU(sa_cub_segsort(NULL, need, dk, dv, m, s, Ob, Oe, s0), "sizing the segmented sort");
    if (need > tmp_room) { /* a buffer of its own, kept for the rest of the call */
        if (need > c->segtmp_bytes) {
            if ((rc = sa_cuda_dev_free(c, c->segtmp, err)))
                return rc;
            c->segtmp = NULL;
            c->segtmp_bytes = 0;
            if ((rc = sa_cuda_dev_alloc(c, &c->segtmp, need, "segmented sort storage", err)))
                return rc;
            c->segtmp_bytes = need;
        }
        tmp = (char *)c->segtmp;
    }
    PC_CU(sa_cub_segsort(tmp, need, dk, dv, m, s, Ob, Oe, s0), "segmented sort by next rank");
    uint32_t *F = dk.Alternate(), *NH = (uint32_t *)dv.Alternate();
    k_seg_flags<<<sa_cuda_grid(c, m), 256, 0, s0>>>(lo, m, c->SA, c->ISA, c->act, dk.Current(), F);
    PC_CU_LAUNCHED("k_seg_flags");
    tb = c->tmp_bytes;
    PC_CU(sa_cub_seg_heads(c->tmp, tb, F, NH, m, s0), "scanning new heads");
    k_seg_update<<<sa_cuda_grid(c, m), 256, 0, s0>>>(lo, m, F, dv.Current(), NH, c->SA, c->ISA, c->act);
    PC_CU_LAUNCHED("k_seg_update");
    return PC_OK;
}

/* Sizes the CUB calls of the ranges that use c->tmp (the segmented sort
 * has its own storage, sized per range). */
int sa_cuda_seg_tmp(sa_ctx *c, size_t *bytes, pc_error *err)
{
    const i64 room = seg_room(c);
    size_t b = 0, mx = 0;
    int32_t *O = (int32_t *)c->pool;
    PC_CU(sa_cub_seg_bounds(NULL, b, c->SA, c->ISA, c->act, 0, room, 0, O, c->cnt, c->st[0]),
          "sizing the select");
    mx = std::max(mx, b);
    PC_CU(sa_cub_seg_heads(NULL, b, c->pool, c->pool, room, c->st[0]), "sizing the scan");
    mx = std::max(mx, b);
    *bytes = mx;
    return PC_OK;
}

/* One round: ranges of at most sa_cuda_seg_cap slots, cut at group
 * starts; a range that would hold no whole group is that long group alone. */
int sa_cuda_seg_round(sa_ctx *c, i64 h, int *ranges, int *groups, pc_error *err)
{
    const i64 n = c->n, cap = sa_cuda_seg_cap(c);
    cudaStream_t s0 = c->st[0];
    int rc;
    *ranges = 0;
    for (i64 lo = 0; lo < n;) {
        i64 hi = n;
        if (lo + cap < n) {
            k_seg_head<<<1, 32, 0, s0>>>(lo + cap, c->SA, c->ISA, c->cnt);
            PC_CU_LAUNCHED("k_seg_head");
            if ((rc = sa_cuda_read_count(c, &hi, err)))
                return rc;
        }
        if (hi < lo || hi > n)
            return pc_error_set(err, PC_EVERIFY, __FILE__, __LINE__,
                                "round h = %lld: range from %lld ends at %lld", h, lo, hi);
        if (hi == lo) { /* a group longer than a range: on its own */
            i64 end = 0;
            if ((rc = sa_cuda_group_end(c, lo, n, &end, err)))
                return rc;
            if (end <= lo + 1 || end > n)
                return pc_error_set(err, PC_EVERIFY, __FILE__, __LINE__,
                                    "round h = %lld: the group at slot %lld ends at %lld", h, lo, end);
            if ((rc = sa_cuda_round_group(c, h, (int32_t)lo, end - lo, err)))
                return rc;
            (*groups)++;
            hi = end;
        } else if ((rc = seg_range(c, h, lo, hi, err))) {
            return rc;
        }
        (*ranges)++;
        lo = hi;
    }
    return PC_OK;
}
