/* sa_cuda_compact.cu - cuda-dc's rounds: prefix doubling with discarding.
 *
 * Once the unsorted suffixes (those of groups larger than one) fit, they
 * are listed once, in SA order, and from then on only that list U is
 * touched: a round gathers each suffix's key (group head << b2) | key2,
 * key2 = ISA[i + h] + 1 (0 past the end: the shorter suffix first), radix
 * sorts the pairs on the bits the keys use, splits the groups with one
 * scan (new heads, SA slots), stores the new heads, and keeps only the
 * items whose new group still holds more than one (one flagged select).
 * A round thus costs O(|U|), never a pass over SA; ranks stay in the
 * "h-rank" form (the SA index of the group's first slot), so a finished
 * group's rank is already final and is never written again. The list
 * stays in SA order from round to round (sorted by head, then key2), which
 * is what the next round's split needs.
 *
 * Memory: the engine's sort pool (8n bytes) holds two key buffers of 8
 * bytes and two value buffers of 4 bytes per item, so up to n/3 unsorted
 * suffixes; before that the rounds over SA (sa_cuda_rounds.cu) run, in
 * batches when needed. Nothing is allocated here. */
#include <stdio.h>

#include <algorithm>

#include "sa_cuda_internal.h"

/* K[t] = (ISA[i] << b2) | key2 for i = U[t]; key2 = ISA[i + h] + 1, or 0
 * when i + h is past the end. */
__global__ void k_dc_keys(i64 m, i64 n, i64 h, int b2, const int32_t *U, const int32_t *ISA,
                          uint64_t *K)
{
    GS_LOOP(t, m) {
        i64 i = U[t], p = i + h;
        uint64_t k2 = p < n ? (uint64_t)(uint32_t)ISA[p] + 1 : 0;
        K[t] = ((uint64_t)(uint32_t)ISA[i] << b2) | k2;
    }
}

/* The new heads of the sorted suffixes. */
__global__ void k_dc_update(i64 m, const int32_t *V, const uint32_t *NH, int32_t *ISA)
{
    GS_LOOP(t, m)
        ISA[V[t]] = (int32_t)NH[t];
}

/* Items the pool holds for the compacted rounds: 24 bytes each (two 8-byte
 * key buffers, two 4-byte value buffers). */
static i64 compact_room(const sa_ctx *c)
{
    return ((c->n + 1) / 2) * 16 / 24;
}

/* The compacted rounds' capacity, the test hook's batch size if smaller. */
i64 sa_cuda_compact_cap(const sa_ctx *c)
{
    i64 room = compact_room(c), hook = sa_cuda_batch_items();
    return hook ? std::min(room, hook) : room;
}

/* Sizes every CUB call of the compacted rounds at their largest. */
int sa_cuda_compact_tmp(sa_ctx *c, size_t *bytes, pc_error *err)
{
    const i64 n = c->n, room = compact_room(c);
    uint64_t *K0 = (uint64_t *)c->pool, *K1 = K0 + room;
    int32_t *V0 = (int32_t *)(K1 + room), *V1 = V0 + room;
    size_t b = 0, mx = 0;
    cub::DoubleBuffer<uint64_t> dk(K0, K1);
    cub::DoubleBuffer<int32_t> dv(V0, V1);
    PC_CU(sa_cub_sort64(NULL, b, dk, dv, room, 64, c->st[0]), "sizing the 64-bit sort");
    mx = std::max(mx, b);
    PC_CU(sa_cub_select_slots(NULL, b, c->SA, c->act, V0, c->cnt, n, c->st[0]), "sizing the select");
    mx = std::max(mx, b);
    PC_CU(sa_cub_dc_split(NULL, b, K0, 1, V0, (uint32_t *)K1, c->SA, room, c->st[0]), "sizing the scan");
    mx = std::max(mx, b);
    PC_CU(sa_cub_dc_keep(NULL, b, V0, (uint32_t *)K1, V1, c->cnt, room, c->st[0]), "sizing the select");
    mx = std::max(mx, b);
    *bytes = mx;
    return PC_OK;
}

/* The compacted rounds' four buffers (room items each). */
void sa_cuda_compact_bufs(sa_ctx *c, uint64_t **K0, uint64_t **K1, int32_t **V0, int32_t **V1)
{
    const i64 room = compact_room(c);
    *K0 = (uint64_t *)c->pool;
    *K1 = *K0 + room;
    *V0 = (int32_t *)(*K1 + room);
    *V1 = *V0 + room;
}

/* Where the unsorted suffixes must be listed before sa_cuda_compact_loop:
 * the first value buffer of the pool's layout. */
int32_t *sa_cuda_compact_list(sa_ctx *c)
{
    const i64 room = compact_room(c);
    return (int32_t *)((uint64_t *)c->pool + 2 * room);
}

/* Contract in sa_cuda_internal.h: the rounds of this file's header comment
 * over the m suffixes listed at sa_cuda_compact_list(c). With step == 0 a
 * round reads ranks h ahead and doubles h; with step > 0 (the
 * difference-cover sample, sa_cuda_dcs.cu) it reads them off = the largest
 * multiple of step <= h ahead, so that i + off stays in the sample, h
 * becomes h + off, and SA is not written (the sample's slots are not SA's).
 * *hp becomes the last round's h: every group is a singleton at h + off. */
int sa_cuda_compact_loop(sa_ctx *c, i64 *hp, i64 m, i64 step, int *rounds, pc_error *err)
{
    const i64 n = c->n, room = compact_room(c);
    cudaStream_t s0 = c->st[0];
    uint64_t *K0 = (uint64_t *)c->pool, *K1 = K0 + room;
    int32_t *V0 = (int32_t *)(K1 + room), *V1 = V0 + room;
    i64 h = *hp;
    size_t tb;
    int rc;
    if (m > room)
        return pc_error_set(err, PC_EINVAL, __FILE__, __LINE__,
                            "compacted rounds: %lld unsorted suffixes, room for %lld", m, room);
    const int b2 = sa_cuda_bits_for(n); /* key2 <= n */
    const int end_bit = b2 + sa_cuda_bits_for(n - 1);
    int32_t *U = V0, *Ualt = V1;
    double tr = pc_time_now();
    while (m > 0) {
        i64 off = step ? h / step * step : h;
        k_dc_keys<<<sa_cuda_grid(c, m), 256, 0, s0>>>(m, n, off, b2, U, c->ISA, K0);
        PC_CU_LAUNCHED("k_dc_keys");
        cub::DoubleBuffer<uint64_t> dk(K0, K1);
        cub::DoubleBuffer<int32_t> dv(U, Ualt);
        tb = c->tmp_bytes;
        PC_CU(sa_cub_sort64(c->tmp, tb, dk, dv, m, end_bit, s0), "radix sort by (group, next rank)");
        uint32_t *NH = (uint32_t *)dk.Alternate();
        tb = c->tmp_bytes;
        PC_CU(sa_cub_dc_split(c->tmp, tb, dk.Current(), b2, dv.Current(), NH, step ? NULL : c->SA, m,
                              s0),
              "splitting groups");
        k_dc_update<<<sa_cuda_grid(c, m), 256, 0, s0>>>(m, dv.Current(), NH, c->ISA);
        PC_CU_LAUNCHED("k_dc_update");
        tb = c->tmp_bytes;
        PC_CU(sa_cub_dc_keep(c->tmp, tb, dv.Current(), NH, dv.Alternate(), c->cnt, m, s0),
              "keeping the unsorted suffixes");
        i64 m2 = 0;
        if ((rc = sa_cuda_read_count(c, &m2, err)))
            return rc;
        (*rounds)++;
        if (c->trace) {
            double now = pc_time_now();
            fprintf(stderr, "sa-cuda %s round h=%lld offset %lld unsorted %lld -> %lld %.3f ms\n",
                    step ? "sample" : "compacted", h, off, m, m2, (now - tr) * 1e3);
            tr = now;
        }
        if (m2 == 0)
            break;
        if (m2 > m || h >= n)
            return pc_error_set(err, PC_EVERIFY, __FILE__, __LINE__,
                                "prefix doubling did not converge (h = %lld, %lld unsorted)", h, m2);
        U = dv.Alternate();
        Ualt = dv.Current();
        m = m2;
        h += off;
    }
    *hp = h;
    return PC_OK;
}

/* The rounds of this file's header comment; contract in sa_cuda_internal.h. */
int sa_cuda_compact_rounds(sa_ctx *c, i64 *hp, i64 m, int *rounds, pc_error *err)
{
    const i64 n = c->n;
    cudaStream_t s0 = c->st[0];
    i64 got = 0;
    size_t tb = c->tmp_bytes;
    int rc;
    if (m > compact_room(c))
        return pc_error_set(err, PC_EINVAL, __FILE__, __LINE__,
                            "compacted rounds: %lld unsorted suffixes, room for %lld", m, compact_room(c));
    /* U: the unsorted suffixes, in SA order (grouped by head) */
    PC_CU(sa_cub_select_slots(c->tmp, tb, c->SA, c->act, sa_cuda_compact_list(c), c->cnt, n, s0),
          "listing the unsorted suffixes");
    if ((rc = sa_cuda_read_count(c, &got, err)))
        return rc;
    if (got != m)
        return pc_error_set(err, PC_EVERIFY, __FILE__, __LINE__,
                            "compacted rounds: %lld unsorted suffixes listed, %lld counted", got, m);
    return sa_cuda_compact_loop(c, hp, m, 0, rounds, err);
}
