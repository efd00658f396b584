/* sa_cuda_rounds.cu - the doubling rounds of the GPU suffix-array engine
 * over SA. A round takes the active suffixes i in the order of ISA[i + h]
 * by scanning SA (position p = SA[j] gives i = p - h), stable radix sorts
 * them by ISA[i] alone (ranks need only ceil(log2 n) bits), splits each
 * group where ISA[i + h] changes (one scan), writes the group's slice of SA
 * and the new heads. Finished suffixes are never sorted again. When more
 * suffixes are active than a batch holds, the round is cut into batches of
 * whole groups (README-sa-cuda.md, "Batches"). */
#include <stdio.h>

#include <algorithm>
#include <vector>

#include "sa_cuda_internal.h"

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

int sa_cuda_group_end(sa_ctx *c, i64 g, i64 end, i64 *out, pc_error *err)
{
    cudaStream_t s0 = c->st[0];
    PC_CU(cudaMemcpyAsync(c->cnt, &end, sizeof end, cudaMemcpyHostToDevice, s0), "cudaMemcpy");
    if (end > g + 1) {
        k_group_end<<<sa_cuda_grid(c, end - g - 1), 256, 0, s0>>>(g, end, c->SA, c->ISA,
                                                          (unsigned long long *)c->cnt);
        PC_CU_LAUNCHED("k_group_end");
    }
    return sa_cuda_read_count(c, out, err);
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
        int rc = sa_cuda_group_end(c, cur, bnd[first], &end, err);
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
        PC_CU(sa_cub_select(c->tmp, tb, c->SA, sel_active{ c->act, c->ISA, 0, 0, 1 }, V0, c->cnt, n, h, s0),
           "selecting active suffixes");
    else
        PC_CU(sa_cub_select_pairs(c->tmp, tb, c->SA, c->ISA, c->act, lo, hi, P, c->cnt, n, h, s0),
           "selecting a batch of active suffixes");
    i64 m = 0;
    if ((rc = sa_cuda_read_count(c, &m, err)))
        return rc;
    *got = m;
    if (m > cap || (expect >= 0 && m != expect))
        return pc_error_set(err, PC_EVERIFY, __FILE__, __LINE__,
                            "round h = %lld: batch [%d, %d) selected %lld suffixes, planned %lld "
                            "(capacity %lld)", h, (int)lo, (int)hi, m, expect, cap);
    if (m == 0)
        return PC_OK;
    if (all) {
        k_gather_keys<<<sa_cuda_grid(c, m), 256, 0, s0>>>(m, V0, c->ISA, K0);
        PC_CU_LAUNCHED("k_gather_keys");
    } else {
        k_unpair<<<sa_cuda_grid(c, m), 256, 0, s0>>>(m, P, K0, V0);
        PC_CU_LAUNCHED("k_unpair");
    }
    cub::DoubleBuffer<uint32_t> rk(K0, K1);
    cub::DoubleBuffer<int32_t> rv(V0, V1);
    tb = c->tmp_bytes;
    PC_CU(sa_cub_sort(c->tmp, tb, rk, rv, m, end_bit, s0), "radix sort by group");
    tb = c->tmp_bytes;
    PC_CU(sa_cub_split(c->tmp, tb, rk.Current(), 0, rv.Current(), c->ISA, rk.Alternate(), c->SA, n, h, m,
                 s0), "splitting groups");
    k_update<<<sa_cuda_grid(c, m), 256, 0, s0>>>(m, rv.Current(), rk.Alternate(), c->ISA, c->act);
    PC_CU_LAUNCHED("k_update");
    return PC_OK;
}

/* A batch of one group, of head g: its active suffixes come out of the
 * select already in order (one head), so no sort and two buffers of up to
 * n items: any group fits, however long (all-equal, period-1 texts). */
int sa_cuda_round_group(sa_ctx *c, i64 h, int32_t g, i64 expect, pc_error *err)
{
    const i64 n = c->n;
    cudaStream_t s0 = c->st[0];
    int32_t *V = (int32_t *)c->pool;
    uint32_t *NH = c->pool + n;
    size_t tb = c->tmp_bytes;
    int rc;
    PC_CU(sa_cub_select(c->tmp, tb, c->SA, sel_active{ c->act, c->ISA, g, g + 1, 0 }, V, c->cnt, n, h, s0),
       "selecting a group's suffixes");
    i64 m = 0;
    if ((rc = sa_cuda_read_count(c, &m, err)))
        return rc;
    if (m != expect)
        return pc_error_set(err, PC_EVERIFY, __FILE__, __LINE__,
                            "round h = %lld: group %d selected %lld suffixes, planned %lld", h, (int)g,
                            m, expect);
    if (m == 0)
        return PC_OK;
    tb = c->tmp_bytes;
    PC_CU(sa_cub_split(c->tmp, tb, NULL, (uint32_t)g, V, c->ISA, NH, c->SA, n, h, m, s0),
       "splitting a group");
    k_update<<<sa_cuda_grid(c, m), 256, 0, s0>>>(m, V, NH, c->ISA, c->act);
    PC_CU_LAUNCHED("k_update");
    return PC_OK;
}

/* Test hook (sa_cuda.h): items per batch, 0 for the default. */
static i64 g_batch_items = 0;

extern "C" void sa_cuda_set_batch_items(long long items)
{
    g_batch_items = items > 0 ? items : 0;
}

i64 sa_cuda_batch_items(void)
{
    return g_batch_items;
}

int sa_cuda_rounds(sa_ctx *c, i64 h, i64 m1, sa_rounds_out *o, pc_error *err)
{
    const i64 n = c->n;
    cudaStream_t s0 = c->st[0];
    int rc;
    /* Once the active suffixes fit one batch, each round is one batch; before
     * that, chunk counts plan the batches. Splitting a round into batches is
     * sound: a batch's groups read the ranks ISA[i + h] that the earlier
     * batches of the round may have refined, and a refined rank orders
     * suffixes the same way, only more finely. */
    const i64 CH = (n + SA_CUDA_CHUNKS - 1) / SA_CUDA_CHUNKS;
    const int nc = (int)((n + CH - 1) / CH);
    int end_bit = sa_cuda_bits_for(n - 1);
    i64 prev = m1;
    int rounds = 0, groups = 0, max_batches = m1 ? 1 : 0;
    std::vector<batch> plan;
    double tr = pc_time_now();
    while (prev > 0) {
        i64 now = prev;
        if (c->discard) {
            /* cuda-dc: once the unsorted suffixes fit, the rest over them
             * alone. prev counts those at the start of the last round, so
             * the active bits are counted (n/32 words, a few microseconds). */
            size_t tb = c->tmp_bytes;
            PC_CU(sa_cub_count(c->tmp, tb, c->act, c->cnt, (n + 31) / 32, s0), "counting active suffixes");
            if ((rc = sa_cuda_read_count(c, &now, err)))
                return rc;
            if (now <= sa_cuda_compact_cap(c)) {
                if ((rc = sa_cuda_compact_rounds(c, &h, now, &o->compact_rounds, err)))
                    return rc;
                rounds += o->compact_rounds;
                break;
            }
            /* the unsorted set is not shrinking (the last round settled
             * under a tenth of it: on generated DNA-like text 18% settle a
             * round and rounds over SA stay cheaper than the sample): the
             * difference-cover sample, once, when the groups are short
             * enough */
            if (c->dcs_v && h >= c->dcs_next_h && rounds > 0 && now * 10 > prev * 9) {
                int sw = 0;
                if ((rc = sa_cuda_dcs_try(c, &h, now, o, &sw, err)))
                    return rc;
                if (sw) {
                    rounds += o->sample_rounds;
                    break;
                }
            }
        }
        i64 m = 0, got = 0;
        int nb = 1;
        if (c->segmented) { /* cuda-dc: groups sorted on their own, range by range */
            if ((rc = sa_cuda_seg_round(c, h, &nb, &groups, err)))
                return rc;
            m = now;
        } else if (prev <= c->bcap) {
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
                if ((rc = bt.single ? sa_cuda_round_group(c, h, bt.lo, bt.items, err)
                                    : round_batch(c, h, end_bit, bt.lo, bt.hi, 0, bt.items, &got, err)))
                    return rc;
            }
            nb = (int)plan.size();
        }
        max_batches = std::max(max_batches, nb);
        if (c->trace) {
            PC_CU(cudaStreamSynchronize(s0), "tracing a round");
            double t = pc_time_now();
            fprintf(stderr, "sa-cuda round h=%lld active=%lld batches=%d one-group batches=%d %.3f ms\n",
                    h, m, nb, groups, (t - tr) * 1e3);
            tr = t;
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
    o->h = h;
    o->rounds = rounds;
    o->max_batches = max_batches;
    o->groups = groups;
    return PC_OK;
}
