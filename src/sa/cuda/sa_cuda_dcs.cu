/* sa_cuda_dcs.cu - cuda-dc's switch for inputs whose unsorted set does not
 * shrink (a block repeated, a long period): a difference-cover sample.
 *
 * A difference cover D modulo v is a set of residues such that every
 * residue is d1 - d2 (mod v) for some d1, d2 in D; so for any two
 * positions i and j there is a delta < v with both i + delta and j + delta
 * in the sample S = { i : i mod v in D } (|D| / v of the positions: 9/64).
 *
 * At prefix length h >= 16, with SA sorted by the first h characters and
 * most suffixes still in groups:
 * 1. the sample's unsorted suffixes are listed; below h = v each is first
 *    ranked by the ceil(v / h) ranks at i, i + h, ... of the whole text
 *    (dcs_rank_early: the sample then stands at a prefix >= v); then the
 *    compacted rounds (sa_cuda_compact.cu) sort them reading ranks a
 *    multiple of v ahead, so that every rank they read is a sample
 *    position's: each round costs |D| / v of a round over SA, and SA is not
 *    written (the sample's ranks stay inside their group's range of slots:
 *    group head + offset among the group's sample suffixes, an
 *    order-preserving rank);
 * 2. every unsorted group (at most SA_CUDA_DCS_MAX_GROUP suffixes) is sorted
 *    by one thread block: two of its suffixes x (class a = x mod v) and y
 *    (class b) share their first h characters; characters h .. delta(a, b)
 *    decide first (none when h >= v), then the sample suffixes x + delta
 *    and y + delta, whose ranks are now final and distinct. Each suffix's
 *    candidate ranks are read once into shared memory; a bitonic network
 *    sorts the group.
 * The group starts are kept as bits (n/8 bytes) before step 1 rewrites the
 * sample's ranks; the text stays on the device for step 2. */
#include <stdio.h>
#include <string.h>

#include <algorithm>

#include "sa_cuda_internal.h"

/* Difference covers of the smallest size for v = 16, 32, 64, found by an
 * exhaustive search; dcs_tables_build checks the cover property. */
static const int dc16[] = { 0, 1, 2, 5, 8 };
static const int dc32[] = { 0, 1, 2, 3, 7, 11, 19 };
static const int dc64[] = { 0, 1, 2, 5, 14, 16, 34, 42, 59 };
#define DCS_MAXV 64
#define DCS_MAXD 9

/* On the device: J[a * v + b] = the index in D of (a + delta(a, b)) mod v,
 * the candidate rank that decides between classes a and b, delta[a * v +
 * b] = delta(a, b); off[a * MAXD +
 * j] = (D[j] - a) mod v, the distance from a class-a position to its j-th
 * candidate. */
struct dcs_tables {
    uint8_t J[DCS_MAXV * DCS_MAXV];
    uint8_t delta[DCS_MAXV * DCS_MAXV];
    uint8_t off[DCS_MAXV * DCS_MAXD];
};

/* The tables for modulus v; -1 when D does not cover (never with the
 * covers above). */
static int dcs_tables_build(int v, const int *D, int nd, dcs_tables *t, uint64_t *mask)
{
    int idx[DCS_MAXV];
    memset(t, 0, sizeof *t);
    *mask = 0;
    for (int r = 0; r < v; r++)
        idx[r] = -1;
    for (int j = 0; j < nd; j++) {
        idx[D[j]] = j;
        *mask |= 1ull << D[j];
    }
    for (int a = 0; a < v; a++) {
        for (int j = 0; j < nd; j++)
            t->off[a * DCS_MAXD + j] = (uint8_t)((D[j] - a + v) % v);
        for (int b = 0; b < v; b++) {
            int d = 0;
            while (d < v && (idx[(a + d) % v] < 0 || idx[(b + d) % v] < 0))
                d++;
            if (d == v)
                return -1;
            t->J[a * v + b] = (uint8_t)idx[(a + d) % v];
            t->delta[a * v + b] = (uint8_t)d;
        }
    }
    return 0;
}

/* H[t] = the group head of slot t. */
__global__ void k_dcs_heads(i64 n, const int32_t *SA, const int32_t *ISA, uint32_t *H)
{
    GS_LOOP(t, n)
        H[t] = (uint32_t)ISA[SA[t]];
}

/* Bit t of gst set where a group starts (H[t] == t): a warp builds a word
 * (the loop runs over whole words, so that every lane votes). */
__global__ void k_dcs_starts(i64 n, const uint32_t *H, uint32_t *gst)
{
    GS_LOOP(t, (n + 31) / 32 * 32) {
        unsigned b = __ballot_sync(0xffffffffu, t < n && H[t] == (uint32_t)t);
        if ((t & 31) == 0)
            gst[t >> 5] = b;
    }
}

__device__ __forceinline__ int dcs_bit(const uint32_t *gst, i64 t)
{
    return (gst[t >> 5] >> (t & 31)) & 1u;
}

/* Rank + 1 of position p at the current prefix length, 0 past the end. */
__device__ __forceinline__ uint64_t dcs_rk(const int32_t *ISA, i64 n, i64 p)
{
    return p < n ? (uint64_t)(uint32_t)ISA[p] + 1 : 0;
}

/* The sample's first ranks when it starts at h < v: a suffix i is ranked
 * by the k = ceil(v / h) ranks at i, i + h, ..., i + (k - 1) h (all read
 * before any is rewritten), two to a 64-bit word: word w holds ranks 2w
 * and 2w + 1 (0 beyond k). */
__global__ void k_dcs_tuple(i64 m, i64 n, i64 h, int k, int w, const int32_t *U, const int32_t *ISA,
                            uint64_t *K)
{
    GS_LOOP(t, m) {
        i64 i = U[t];
        int j = 2 * w;
        uint64_t a = j < k ? dcs_rk(ISA, n, i + j * h) : 0;
        uint64_t b = j + 1 < k ? dcs_rk(ISA, n, i + (j + 1) * h) : 0;
        K[t] = a << 32 | b;
    }
}

/* After the sorts by those ranks: Fg[t] = t where a group (equal rank at
 * i) starts, Fs[t] = t where equal tuples start, else 0. */
__global__ void k_dcs_flags(i64 m, i64 n, i64 h, int k, const int32_t *U, const int32_t *ISA,
                            uint32_t *Fg, uint32_t *Fs)
{
    GS_LOOP(t, m) {
        int g = t == 0, sub = g;
        if (!g) {
            i64 i = U[t], j = U[t - 1];
            g = ISA[i] != ISA[j];
            sub = g;
            for (int r = 1; r < k && !sub; r++)
                sub = dcs_rk(ISA, n, i + r * h) != dcs_rk(ISA, n, j + r * h);
        }
        Fg[t] = g ? (uint32_t)t : 0u;
        Fs[t] = sub ? (uint32_t)t : 0u;
    }
}

/* NH[t] = the group head + the offset of t's equal tuples in the group,
 * which becomes i's rank (each thread reads and writes its own i only). */
__global__ void k_dcs_newheads(i64 m, const int32_t *U, int32_t *ISA, const uint32_t *GS,
                               const uint32_t *SS, uint32_t *NH)
{
    GS_LOOP(t, m) {
        uint32_t h = (uint32_t)ISA[U[t]] + (SS[t] - GS[t]);
        NH[t] = h;
        ISA[U[t]] = (int32_t)h;
    }
}

/* The sample's first ranks when it starts at h < v (k_dcs_tuple): the m
 * listed suffixes sorted by their k ranks (least significant word first),
 * new heads from two max scans (group starts, tuple starts), and the
 * suffixes still sharing a head listed again for the rounds (*mp of them,
 * at prefix length *hs = k h). */
static int dcs_rank_early(sa_ctx *c, i64 h, int v, i64 *mp, i64 *hs, pc_error *err)
{
    const i64 n = c->n, m = *mp;
    cudaStream_t s0 = c->st[0];
    uint64_t *K0, *K1;
    int32_t *V0, *V1;
    size_t tb;
    int rc;
    sa_cuda_compact_bufs(c, &K0, &K1, &V0, &V1);
    const int k = (int)((v + h - 1) / h);
    if (k > 4)
        return pc_error_set(err, PC_EINVAL, __FILE__, __LINE__, "sample: %d ranks at h = %lld", k, h);
    cub::DoubleBuffer<uint64_t> dk(K0, K1);
    cub::DoubleBuffer<int32_t> dv(V0, V1);
    for (int w = (k - 1) / 2; w >= 0; w--) {
        k_dcs_tuple<<<sa_cuda_grid(c, m), 256, 0, s0>>>(m, n, h, k, w, dv.Current(), c->ISA, dk.Current());
        PC_CU_LAUNCHED("k_dcs_tuple");
        tb = c->tmp_bytes;
        PC_CU(sa_cub_sort64(c->tmp, tb, dk, dv, m, 64, s0), "radix sort of the sample's first ranks");
    }
    int32_t *U = dv.Current(), *out = dv.Alternate();
    uint32_t *Fg = (uint32_t *)K0, *Fs = Fg + m, *GSc = (uint32_t *)K1, *SS = GSc + m;
    k_dcs_flags<<<sa_cuda_grid(c, m), 256, 0, s0>>>(m, n, h, k, U, c->ISA, Fg, Fs);
    PC_CU_LAUNCHED("k_dcs_flags");
    tb = c->tmp_bytes;
    PC_CU(sa_cub_scan_heads(c->tmp, tb, Fg, GSc, m, s0), "scanning the sample's group starts");
    tb = c->tmp_bytes;
    PC_CU(sa_cub_scan_heads(c->tmp, tb, Fs, SS, m, s0), "scanning the sample's tuple starts");
    uint32_t *NH = Fg; /* read by its scan only */
    k_dcs_newheads<<<sa_cuda_grid(c, m), 256, 0, s0>>>(m, U, c->ISA, GSc, SS, NH);
    PC_CU_LAUNCHED("k_dcs_newheads");
    tb = c->tmp_bytes;
    PC_CU(sa_cub_dc_keep(c->tmp, tb, U, NH, out, c->cnt, m, s0), "keeping the sample's unsorted suffixes");
    i64 m2 = 0;
    if ((rc = sa_cuda_read_count(c, &m2, err)))
        return rc;
    if (out != V0 && m2 > 0)
        PC_CU(cudaMemcpyAsync(V0, out, (size_t)m2 * 4, cudaMemcpyDeviceToDevice, s0), "moving the list");
    *mp = m2;
    *hs = (i64)k * h;
    return PC_OK;
}

/* Groups by size class: class c (1..DCS_CLASSES) holds the groups of
 * 2^(c-1) + 1 .. 2^c suffixes (class 1: two), at most n / (2^(c-1) + 1) of
 * them; their lists lie one after the other in the pool. */
#define DCS_CLASSES 10 /* up to 1024 = SA_CUDA_DCS_MAX_GROUP */

static i64 dcs_class_cap(i64 n, int c)
{
    return n / (((i64)1 << (c - 1)) + 1) + 1;
}

/* The next group start after t (bit set in gst), or n, looked for up to
 * t + lim + 1 only (a larger result means a group longer than lim): whole
 * words of no start are skipped. */
__device__ i64 dcs_group_end(const uint32_t *gst, i64 n, i64 t, i64 lim)
{
    i64 e = t + 1;
    while (e < n && e - t <= lim) {
        uint32_t w = gst[e >> 5] >> (e & 31);
        if (w) {
            e += __ffs(w) - 1;
            break;
        }
        e += 32 - (e & 31);
    }
    return e < n ? e : n;
}

/* Each group of two or more: its first slot into the list of its size
 * class (cnt[c - 1] counts them), in any order; a group longer than the
 * last class goes to the last list, where k_dcs_sort reports it. */
__global__ void k_dcs_list(i64 n, const uint32_t *gst, uint32_t *L, const i64 *base, i64 *cnt)
{
    GS_LOOP(t, n) {
        if (t + 1 < n && dcs_bit(gst, t) && !dcs_bit(gst, t + 1)) {
            i64 size = dcs_group_end(gst, n, t, SA_CUDA_DCS_MAX_GROUP) - t;
            int c = 1;
            while (c < DCS_CLASSES && ((i64)1 << c) < size)
                c++;
            unsigned long long k = atomicAdd((unsigned long long *)&cnt[c - 1], 1ull);
            L[base[c - 1] + (i64)k] = (uint32_t)t;
        }
    }
}

/* One block per group L[blockIdx.x] of at most p2max suffixes (more: *bad
 * counts it and the group is left alone), all sharing their first h0
 * characters. Shared memory: positions (p2max), candidate ranks (p2max *
 * nd), the permutation (p2max). */
__global__ void k_dcs_sort(i64 n, const uint32_t *L, const uint32_t *gst, int32_t *SA,
                           const int32_t *ISA, const uint8_t *T, i64 h0, const dcs_tables *tab, int v,
                           int nd, int p2max, i64 *bad)
{
    extern __shared__ int32_t sm[];
    int32_t *pos = sm;
    int32_t *R = pos + p2max;
    uint16_t *perm = (uint16_t *)(R + (size_t)p2max * nd);
    __shared__ int size;
    const i64 g = L[blockIdx.x];
    if (threadIdx.x == 0) {
        i64 e = dcs_group_end(gst, n, g, p2max);
        size = (int)(e - g <= p2max ? e - g : p2max + 1);
    }
    __syncthreads();
    const int m = size;
    if (m > p2max) {
        if (threadIdx.x == 0)
            atomicAdd((unsigned long long *)bad, 1ull);
        return;
    }
    int P2 = 1;
    while (P2 < m)
        P2 <<= 1;
    const int vm = v - 1;
    __shared__ unsigned long long classes;
    if (threadIdx.x == 0)
        classes = 0;
    __syncthreads();
    for (int k = threadIdx.x; k < P2; k += blockDim.x) {
        if (k < m) {
            int32_t p = SA[g + k];
            pos[k] = p;
            atomicOr(&classes, 1ull << (p & vm));
            perm[k] = (uint16_t)k;
        } else {
            perm[k] = 0xffff; /* padding: after every suffix */
        }
    }
    __syncthreads();
    /* only the candidate ranks that a comparison within this group reads
     * (a group of copies of one block, all of one class, reads one) */
    for (int k = threadIdx.x; k < m; k += blockDim.x) {
        int32_t p = pos[k];
        int a = p & vm;
        unsigned need = 0;
        for (unsigned long long cl = classes; cl; cl &= cl - 1)
            need |= 1u << tab->J[a * v + __ffsll((long long)cl) - 1];
        for (; need; need &= need - 1) {
            int j = __ffs(need) - 1;
            i64 q = (i64)p + tab->off[a * DCS_MAXD + j];
            R[k * nd + j] = q < n ? ISA[q] : -1; /* past the end: the empty suffix */
        }
    }
    __syncthreads();
    for (int k = 2; k <= P2; k <<= 1)
        for (int j = k >> 1; j > 0; j >>= 1) {
            for (int i = threadIdx.x; i < P2; i += blockDim.x) {
                int l = i ^ j;
                if (l <= i)
                    continue;
                int x = perm[i], y = perm[l];
                /* less(y, x) when ascending, less(x, y) when descending */
                int up = (i & k) == 0;
                int p = up ? y : x, q = up ? x : y;
                int lt;
                if (p == 0xffff)
                    lt = 0;
                else if (q == 0xffff)
                    lt = 1;
                else {
                    int a = pos[p] & vm, b = pos[q] & vm, d = tab->delta[a * v + b];
                    /* characters h0 .. delta first (none when h0 >= v): a
                     * suffix that ends there is the smaller */
                    int c = 0;
                    for (i64 r = h0; r < d && !c; r++) {
                        i64 xp = pos[p] + r, yp = pos[q] + r;
                        int bx = xp < n ? T[xp] : -1, by = yp < n ? T[yp] : -1;
                        c = bx - by;
                    }
                    lt = c ? c < 0 : R[p * nd + tab->J[a * v + b]] < R[q * nd + tab->J[b * v + a]];
                }
                if (lt) {
                    perm[i] = (uint16_t)y;
                    perm[l] = (uint16_t)x;
                }
            }
            __syncthreads();
        }
    for (int k = threadIdx.x; k < m; k += blockDim.x)
        SA[g + k] = pos[perm[k]];
}

/* The cover for modulus v (16, 32 or 64). */
static const int *dcs_cover(int v, int *nd)
{
    switch (v) {
    case 16:
        *nd = (int)(sizeof dc16 / sizeof dc16[0]);
        return dc16;
    case 32:
        *nd = (int)(sizeof dc32 / sizeof dc32[0]);
        return dc32;
    default:
        *nd = (int)(sizeof dc64 / sizeof dc64[0]);
        return dc64;
    }
}

int sa_cuda_dcs_tmp(sa_ctx *c, size_t *bytes, pc_error *err)
{
    int32_t *out = sa_cuda_compact_list(c);
    PC_CU(sa_cub_select_sample(NULL, *bytes, c->SA, c->act, 1, 64, out, c->cnt, c->n, c->st[0]),
          "sizing the sample's select");
    return PC_OK;
}

/* Contract in sa_cuda_internal.h. */
int sa_cuda_dcs_try(sa_ctx *c, i64 *hp, i64 active, sa_rounds_out *o, int *switched, pc_error *err)
{
    const i64 n = c->n, words = (n + 31) / 32;
    cudaStream_t s0 = c->st[0];
    const int v = c->dcs_v;
    int nd = 0, rc;
    const int *D = dcs_cover(v, &nd);
    size_t tb;
    double t0 = pc_time_now(), t1, t2, t3;
    const i64 h0 = *hp;
    *switched = 0;
    c->dcs_next_h = h0 < v ? v : (i64)1 << 62; /* a decline below v is tried again at v */
    /* the heads by slot (in the pool, free between rounds) */
    uint32_t *H = c->pool;
    k_dcs_heads<<<sa_cuda_grid(c, n), 256, 0, s0>>>(n, c->SA, c->ISA, H);
    PC_CU_LAUNCHED("k_dcs_heads");
    i64 longest = 0;
    tb = c->tmp_bytes;
    PC_CU(sa_cub_longest(c->tmp, tb, H, c->cnt, n, s0), "finding the longest group");
    if ((rc = sa_cuda_read_count(c, &longest, err)))
        return rc;
    if (c->trace)
        fprintf(stderr, "sa-cuda sample v=%d at h=%lld: %lld unsorted, longest group %lld (%.3f ms)\n", v,
                *hp, active, longest, (pc_time_now() - t0) * 1e3);
    if (longest > SA_CUDA_DCS_MAX_GROUP)
        return PC_OK;
    if ((rc = sa_cuda_dev_alloc(c, (void **)&c->gst, (size_t)words * 4, "the group-start bits", err)))
        return rc;
    k_dcs_starts<<<sa_cuda_grid(c, n), 256, 0, s0>>>(n, H, c->gst);
    PC_CU_LAUNCHED("k_dcs_starts");
    dcs_tables tab;
    uint64_t mask;
    if (dcs_tables_build(v, D, nd, &tab, &mask))
        return pc_error_set(err, PC_EINVAL, __FILE__, __LINE__, "the residues modulo %d are not a difference cover",
                            v);
    if (!c->dcs_tab && (rc = sa_cuda_dev_alloc(c, &c->dcs_tab, sizeof tab, "the sample's tables", err)))
        return rc;
    PC_CU(cudaMemcpyAsync(c->dcs_tab, &tab, sizeof tab, cudaMemcpyHostToDevice, s0), "uploading the sample's tables");
    /* 1. the sample's unsorted suffixes, then its rounds */
    i64 m = 0;
    tb = c->tmp_bytes;
    PC_CU(sa_cub_select_sample(c->tmp, tb, c->SA, c->act, mask, v, sa_cuda_compact_list(c), c->cnt, n, s0),
          "listing the sample");
    if ((rc = sa_cuda_read_count(c, &m, err)))
        return rc;
    i64 hs = h0, m0 = m;
    int rounds = 0;
    t1 = pc_time_now();
    if (m > 0 && h0 < v && (rc = dcs_rank_early(c, h0, v, &m, &hs, err)))
        return rc;
    if (m > 0 && (rc = sa_cuda_compact_loop(c, &hs, m, v, &rounds, err)))
        return rc;
    /* 2. every group of two or more, by the sample's ranks, one launch per
     * size class (a block's threads and shared memory fit its class) */
    t2 = pc_time_now();
    uint32_t *L = c->pool;
    i64 hbase[DCS_CLASSES], hcnt[DCS_CLASSES], groups = 0;
    i64 *dcnt = (i64 *)c->tmp; /* CUB's storage is free here: counters and bases */
    i64 at = 0;
    for (int k = 0; k < DCS_CLASSES; k++) {
        hbase[k] = at;
        at += dcs_class_cap(n, k + 1);
    }
    if (at > 4 * ((n + 1) / 2)) /* about 1.3 n of the pool's 2 n words */
        return pc_error_set(err, PC_EINVAL, __FILE__, __LINE__, "sample: %lld list entries, room for %lld", at,
                            4 * ((n + 1) / 2));
    if (c->tmp_bytes < sizeof(i64) * (2 * DCS_CLASSES + 1))
        return pc_error_set(err, PC_EINVAL, __FILE__, __LINE__, "sample: CUB storage of %zu bytes", c->tmp_bytes);
    PC_CU(cudaMemsetAsync(dcnt, 0, sizeof(i64) * (DCS_CLASSES + 1), s0), "cudaMemset");
    PC_CU(cudaMemcpyAsync(dcnt + DCS_CLASSES + 1, hbase, sizeof hbase, cudaMemcpyHostToDevice, s0),
          "uploading the list bases");
    k_dcs_list<<<sa_cuda_grid(c, n), 256, 0, s0>>>(n, c->gst, L, dcnt + DCS_CLASSES + 1, dcnt);
    PC_CU_LAUNCHED("k_dcs_list");
    PC_CU(cudaMemcpyAsync(hcnt, dcnt, sizeof hcnt, cudaMemcpyDeviceToHost, s0), "reading the group counts");
    PC_CU(cudaStreamSynchronize(s0), "listing the groups");
    i64 *bad = dcnt + DCS_CLASSES;
    for (int k = 0; k < DCS_CLASSES; k++) {
        if (!hcnt[k])
            continue;
        groups += hcnt[k];
        int p2 = 2 << k;
        int threads = std::max(32, std::min(256, p2 / 2));
        size_t smem = (size_t)p2 * (4 + 4 * (size_t)nd + 2);
        for (i64 g0 = 0; g0 < hcnt[k]; g0 += 0x7fffffff) {
            unsigned nb = (unsigned)std::min<i64>(hcnt[k] - g0, 0x7fffffff);
            k_dcs_sort<<<nb, threads, smem, s0>>>(n, L + hbase[k] + g0, c->gst, c->SA, c->ISA, c->T, h0,
                                                   (const dcs_tables *)c->dcs_tab, v, nd, p2, bad);
            PC_CU_LAUNCHED("k_dcs_sort");
        }
    }
    i64 nbad = 0;
    PC_CU(cudaMemcpyAsync(&nbad, bad, sizeof nbad, cudaMemcpyDeviceToHost, s0), "reading the check");
    PC_CU(cudaStreamSynchronize(s0), "sorting the groups");
    if (nbad)
        return pc_error_set(err, PC_EVERIFY, __FILE__, __LINE__,
                            "sample: %lld groups longer than their size class", nbad);
    t3 = pc_time_now();
    if (c->trace)
        fprintf(stderr,
                "sa-cuda sample v=%d: %lld suffixes (listed in %.3f ms), %d rounds to h=%lld (%.3f ms), "
                "%lld groups sorted (%.3f ms)\n",
                v, m0, (t1 - t0) * 1e3, rounds, hs, (t2 - t1) * 1e3, groups, (t3 - t2) * 1e3);
    o->sample_v = v;
    o->sample_rounds = rounds;
    o->sample_items = m0;
    o->sample_groups = groups;
    o->sample_from_h = h0;
    /* two suffixes of a group differ within delta < v characters plus the
     * sample's distinguishing prefix (< 2 hs) */
    *hp = 2 * hs + v;
    *switched = 1;
    return PC_OK;
}
