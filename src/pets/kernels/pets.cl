/* pets.cl - PETS phases on an OpenCL device: entry discovery, levels and
 * ranks on a frontier queue (predecessor counts decremented atomically),
 * and the sort into the priority order (per-level segments, or a bitonic
 * network over all tasks). Ranks are exact 64-bit integers scaled by P.
 *
 * The frontiers follow each other in one queue: level L's tasks are
 * queue[offs[L] .. offs[L + 1]), so the queue is ordered by level and the
 * priority sort only has to order each level's segment. The frontier loop
 * needs no host round trip per level: each launch reads its frontier's
 * size from the device (counts[level % 3]), appends the next frontier
 * behind it, counting in counts[(level + 1) % 3], clears the third counter
 * for the launch after, and logs its size in sizes[level] and the next
 * frontier's start in offs[level + 1]. The host enqueues launches in
 * chunks and reads the sizes once per chunk; a launch past the last level
 * finds an empty frontier and does nothing. Work-items stride over the
 * frontier (a fixed global size serves any frontier). */

/* Tasks whose in-degree is zero form the first frontier; every task's
 * counter of unfinished predecessors starts at its in-degree. */
__kernel void entry_discover(const int n, __global const int *indeg, __global int *left,
                             __global int *frontier, __global int *count)
{
    int i = get_global_id(0);
    if (i >= n)
        return;
    int d = indeg[i];
    left[i] = d;
    if (d == 0)
        frontier[atomic_inc(count)] = i;
}

static long round_rank(long x, int P)
{
    return x / P + ((x % P) * 2 >= P);
}

static void finish_task(int v, int level, int P, long acc, long dtc, long rpt, __global int *lev,
                        volatile __global long *rs, __global long *rank, __global long *sumcost)
{
    long r = acc + (long)P * dtc + rpt;
    lev[v] = level;
    rs[v] = r;
    rank[v] = round_rank(r, P);
    sumcost[v] = acc;
}

/* The frontier of this launch: its size (read on the device) and the
 * bookkeeping of the counters and offsets for the launches after it. */
static int frontier_size(const int level, __global int *counts, __global int *sizes,
                         __global int *offs)
{
    int nf = counts[level % 3];
    if (get_global_id(0) == 0) {
        counts[(level + 2) % 3] = 0; /* the launch after the next appends there */
        sizes[level] = nf;
        offs[level + 1] = offs[level] + nf;
    }
    return nf;
}

/* One work-item per task of the frontier (all of whose predecessors are
 * done; it is queue[offs[level] ..), the next one is appended behind it),
 * striding: level, ACC*P, DTC, RPT (largest predecessor rank,
 * unrounded), then each successor's counter is decremented once; the
 * work-item that brings it to zero appends the successor to the next
 * frontier.
 *
 * Each function comes twice: plain, for a launch per level (a launch ends
 * with every write visible), and with the data that other work groups
 * wrote at earlier levels (the queue, its offsets and counts, the ranks)
 * read through volatile pointers, for the grid kernel below, whose levels
 * follow each other inside one launch: a GPU may keep a stale copy of
 * such a line in the reading compute unit's cache otherwise. V is the
 * qualifier. */
#define METRICS_ARGS_Q(V)                                                                      \
    const int P, V __global int *queue, V __global int *offs, V __global int *counts,          \
        __global int *sizes, __global const int *pred_off, __global const int *pred,           \
        __global const int *succ_off, __global const int *succ, __global const long *succ_comm, \
        __global const long *cost, __global int *left, __global int *lev, V __global long *rs, \
        __global long *rank, __global long *sumcost
#define METRICS_ARGS METRICS_ARGS_Q()
#define METRICS_PASS                                                                           \
    P, queue, offs, counts, sizes, pred_off, pred, succ_off, succ, succ_comm, cost, left, lev, \
        rs, rank, sumcost

/* The tasks first, first + stride, ... of level's frontier (nf tasks). */
#define DEFINE_METRICS_LEVEL(NAME, V)                                                           \
    static void NAME(const int level, const int nf, const int first, const int stride,        \
                     METRICS_ARGS_Q(V))                                                       \
    {                                                                                         \
        V __global const int *frontier = queue + offs[level];                                 \
        V __global int *next = queue + offs[level] + nf;                                      \
        for (int k = first; k < nf; k += stride) {                                            \
            int v = frontier[k];                                                              \
            long rpt = 0, acc = 0, dtc = 0;                                                   \
            for (int e = pred_off[v]; e < pred_off[v + 1]; e++)                               \
                rpt = max(rpt, rs[pred[e]]);                                                  \
            for (int p = 0; p < P; p++)                                                       \
                acc += cost[(size_t)v * P + p];                                               \
            for (int e = succ_off[v]; e < succ_off[v + 1]; e++) {                             \
                dtc += succ_comm[e];                                                          \
                int s = succ[e];                                                              \
                if (atomic_dec(&left[s]) == 1)                                                \
                    next[atomic_inc(&counts[(level + 1) % 3])] = s;                           \
            }                                                                                 \
            finish_task(v, level, P, acc, dtc, rpt, lev, rs, rank, sumcost);                  \
        }                                                                                     \
    }
DEFINE_METRICS_LEVEL(metrics_level, )
DEFINE_METRICS_LEVEL(metrics_level_v, volatile)

static long lane_rank(int u, volatile __global const long *rs)
{
    return u >= 0 ? rs[u] : 0;
}

/* The same eight neighbours at a time: vload8 straight from the lists
 * (their buffers carry 8 spare entries, so the last row may be read past
 * its end); the lanes past the row (l >= m) count as padding: rank 0,
 * weight 0, no successor. Each valid successor lane is decremented exactly
 * once. */
#define DEFINE_METRICS_LEVEL_VEC8(NAME, V)                                                       \
    static void NAME(const int level, const int nf, const int first, const int stride,         \
                     METRICS_ARGS_Q(V))                                                        \
    {                                                                                          \
        const long8 lane = (long8)(0, 1, 2, 3, 4, 5, 6, 7);                                    \
        V __global const int *frontier = queue + offs[level];                                  \
        V __global int *next = queue + offs[level] + nf;                                       \
        for (int k = first; k < nf; k += stride) {                                             \
            int v = frontier[k];                                                               \
            long8 best = (long8)(0);                                                           \
            for (int j = pred_off[v], end = pred_off[v + 1]; j < end; j += 8) {                \
                int8 u = vload8(0, pred + j);                                                  \
                int m = end - j;                                                               \
                long8 r = (long8)(lane_rank(m > 0 ? u.s0 : -1, rs),                            \
                                  lane_rank(m > 1 ? u.s1 : -1, rs),                            \
                                  lane_rank(m > 2 ? u.s2 : -1, rs),                            \
                                  lane_rank(m > 3 ? u.s3 : -1, rs),                            \
                                  lane_rank(m > 4 ? u.s4 : -1, rs),                            \
                                  lane_rank(m > 5 ? u.s5 : -1, rs),                            \
                                  lane_rank(m > 6 ? u.s6 : -1, rs),                            \
                                  lane_rank(m > 7 ? u.s7 : -1, rs));                           \
                best = max(best, r);                                                           \
            }                                                                                  \
            long4 b4 = max(best.lo, best.hi);                                                  \
            long2 b2 = max(b4.lo, b4.hi);                                                      \
            long rpt = max(b2.lo, b2.hi);                                                      \
            long acc = 0;                                                                      \
            for (int p = 0; p < P; p++)                                                        \
                acc += cost[(size_t)v * P + p];                                                \
            long8 w8 = (long8)(0);                                                             \
            for (int j = succ_off[v], end = succ_off[v + 1]; j < end; j += 8) {                \
                int m = end - j;                                                               \
                w8 += select((long8)(0), vload8(0, succ_comm + j), lane < (long8)(m));         \
                int8 s = vload8(0, succ + j);                                                  \
                int lanes[8] = {s.s0, s.s1, s.s2, s.s3, s.s4, s.s5, s.s6, s.s7};               \
                for (int l = 0; l < 8 && l < m; l++) {                                         \
                    int t = lanes[l];                                                          \
                    if (atomic_dec(&left[t]) == 1)                                             \
                        next[atomic_inc(&counts[(level + 1) % 3])] = t;                        \
                }                                                                              \
            }                                                                                  \
            long4 w4 = w8.lo + w8.hi;                                                          \
            long2 w2 = w4.lo + w4.hi;                                                          \
            finish_task(v, level, P, acc, w2.lo + w2.hi, rpt, lev, rs, rank, sumcost);         \
        }                                                                                      \
    }
DEFINE_METRICS_LEVEL_VEC8(metrics_level_vec8, )
DEFINE_METRICS_LEVEL_VEC8(metrics_level_vec8_v, volatile)

/* One launch per level: the frontier's bookkeeping, then work-items
 * striding over it. */
__kernel void compute_metrics(const int level, METRICS_ARGS)
{
    int nf = frontier_size(level, counts, sizes, offs);
    metrics_level(level, nf, get_global_id(0), get_global_size(0), METRICS_PASS);
}

__kernel void compute_metrics_vec8(const int level, METRICS_ARGS)
{
    int nf = frontier_size(level, counts, sizes, offs);
    metrics_level_vec8(level, nf, get_global_id(0), get_global_size(0), METRICS_PASS);
}

/* Every level in one launch, for a GPU, where a launch per level costs
 * most of the phase (0.022 s for 724 levels at 2^19 tasks on the H100,
 * about 30 us a level, little of it work). The launch has as many work
 * groups as the device runs at once (the host asks for one per compute
 * unit) and separates levels by a barrier over all of them: each group's
 * first work-item, once the group is through the level (a group barrier
 * with a global fence), adds one to bar[0] and waits until it reaches
 * ngroups times the number of levels passed.
 *
 * OpenCL does not promise that every group of a launch runs at once. A
 * wait that lasts spin_max reads (seconds, where a level takes micro- to
 * milliseconds) means some group never started: the waiter raises
 * bar[1], every group leaves at its next barrier, and the host starts the
 * phase again with a launch per level. counts[3] receives the number of
 * levels. */
static int grid_barrier(int round, const int spin_max, volatile __global int *bar,
                        __local int *quit)
{
    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) == 0) {
        int target = (round + 1) * (int)get_num_groups(0);
        mem_fence(CLK_GLOBAL_MEM_FENCE);
        atomic_inc(&bar[0]);
        int spins = 0;
        while (bar[0] < target && bar[1] == 0)
            if (++spins == spin_max)
                atomic_xchg(&bar[1], 1);
        mem_fence(CLK_GLOBAL_MEM_FENCE);
        *quit = bar[1];
    }
    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
    return *quit;
}

#define METRICS_GRID(LEVEL_FN)                                                           \
    __local int quit;                                                                    \
    for (int level = 0;; level++) {                                                      \
        int nf = counts[level % 3];                                                      \
        if (get_global_id(0) == 0) {                                                     \
            counts[(level + 2) % 3] = 0;                                                 \
            sizes[level] = nf;                                                           \
            offs[level + 1] = offs[level] + nf;                                          \
            if (nf == 0)                                                                 \
                counts[3] = level;                                                       \
        }                                                                                \
        if (nf == 0)                                                                     \
            break;                                                                       \
        LEVEL_FN(level, nf, get_global_id(0), get_global_size(0), METRICS_PASS);         \
        if (grid_barrier(level, spin_max, bar, &quit))                                   \
            break;                                                                       \
    }

__kernel void compute_metrics_grid(const int spin_max, volatile __global int *bar,
                                   METRICS_ARGS_Q(volatile))
{
    METRICS_GRID(metrics_level_v)
}

__kernel void compute_metrics_vec8_grid(const int spin_max, volatile __global int *bar,
                                        METRICS_ARGS_Q(volatile))
{
    METRICS_GRID(metrics_level_vec8_v)
}

/* The bitonic sort moves each task's keys with it (level, rank, ACC in
 * arrays beside perm): a step then reads its two streams in order instead
 * of looking every key up through perm. */
__kernel void bitonic_init(const int N, const int n, __global int *perm, __global const int *lev,
                           __global const long *rank, __global const long *sumcost,
                           __global int *klev, __global long *krank, __global long *ksum)
{
    int i = get_global_id(0);
    if (i >= N)
        return;
    perm[i] = i;
    klev[i] = i < n ? lev[i] : 0;
    krank[i] = i < n ? rank[i] : 0;
    ksum[i] = i < n ? sumcost[i] : 0;
}

/* 1 when task a goes before task b: level ascending, rank descending, ACC
 * ascending, task ascending. Padding (a or b >= n) goes after every task. */
static int key_before(int a, int la, long ra, long sa, int b, int lb, long rb, long sb, int n)
{
    if (a >= n)
        return 0;
    if (b >= n)
        return 1;
    if (la != lb)
        return la < lb;
    if (ra != rb)
        return ra > rb;
    if (sa != sb)
        return sa < sb;
    return a < b;
}

/* One compare-exchange step (k: block size, j: distance) over N = 2^m,
 * one work-item per pair (N / 2 of them). */
__kernel void bitonic_step(const int N, const int n, const int j, const int k,
                           __global int *perm, __global int *klev, __global long *krank,
                           __global long *ksum)
{
    int t = get_global_id(0);
    if (t >= N / 2)
        return;
    int i = 2 * t - (t & (j - 1)), l = i + j;
    int a = perm[i], b = perm[l], la = klev[i], lb = klev[l];
    long ra = krank[i], rb = krank[l], sa = ksum[i], sb = ksum[l];
    int up = (i & k) == 0;
    int swap = up ? key_before(b, lb, rb, sb, a, la, ra, sa, n)
                  : key_before(a, la, ra, sa, b, lb, rb, sb, n);
    if (swap) {
        perm[i] = b;
        perm[l] = a;
        klev[i] = lb;
        klev[l] = la;
        krank[i] = rb;
        krank[l] = ra;
        ksum[i] = sb;
        ksum[l] = sa;
    }
}

/* Elements of one local block of the bitonic network: steps with a
 * distance j below it pair elements of the same block, so they run in one
 * launch on keys held in local memory (one pass over global memory for
 * up to log2(PETS_BLOCK) steps instead of one each). The host uses it with work
 * groups of PETS_BLOCK / 2 work-items, one compare-exchange each. */
#ifndef PETS_BLOCK
#define PETS_BLOCK 512 /* the host passes the size that fits the device */
#endif

/* The steps j = j0, j0/2, ..., 1 of merge size k (k = 0: every merge size
 * from 2 to PETS_BLOCK, the block sorted from scratch) on one block,
 * directions from the global index as in bitonic_step. */
__kernel void bitonic_local(const int n, const int k, const int j0, __global int *perm,
                            __global int *klev, __global long *krank, __global long *ksum)
{
    __local int id[PETS_BLOCK], lv[PETS_BLOCK];
    __local long rk[PETS_BLOCK], sm[PETS_BLOCK];
    int t = get_local_id(0), base = get_group_id(0) * PETS_BLOCK;
    for (int h = 0; h < 2; h++) {
        int x = t + h * (PETS_BLOCK / 2);
        id[x] = perm[base + x];
        lv[x] = klev[base + x];
        rk[x] = krank[base + x];
        sm[x] = ksum[base + x];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    int k0 = k ? k : 2, k1 = k ? k : PETS_BLOCK;
    for (int kk = k0; kk <= k1; kk <<= 1)
        for (int j = k ? j0 : kk >> 1; j > 0; j >>= 1) {
            int i = 2 * t - (t & (j - 1)), l = i + j;
            int up = ((base + i) & kk) == 0;
            int before = key_before(id[l], lv[l], rk[l], sm[l], id[i], lv[i], rk[i], sm[i], n);
            int after = key_before(id[i], lv[i], rk[i], sm[i], id[l], lv[l], rk[l], sm[l], n);
            if (up ? before : after) {
                int ti = id[i], tl = lv[i];
                long tr = rk[i], ts = sm[i];
                id[i] = id[l];
                lv[i] = lv[l];
                rk[i] = rk[l];
                sm[i] = sm[l];
                id[l] = ti;
                lv[l] = tl;
                rk[l] = tr;
                sm[l] = ts;
            }
            barrier(CLK_LOCAL_MEM_FENCE);
        }
    for (int h = 0; h < 2; h++) {
        int x = t + h * (PETS_BLOCK / 2);
        perm[base + x] = id[x];
        klev[base + x] = lv[x];
        krank[base + x] = rk[x];
        ksum[base + x] = sm[x];
    }
}

/* The per-level sort: one work-item per level, ordering its segment
 * queue[offs[L] .. offs[L + 1]) into the same positions of out by rank
 * descending, ACC ascending, task ascending (the level is the segment's):
 * insertion sort of runs of SEG_RUN, then merges between out and tmp. For
 * a CPU device (PoCL), where the bitonic network's log^2 n passes over all
 * tasks cost more than sorting ~sqrt(n) short segments once each. */
#define SEG_RUN 16

static int seg_before(int a, int b, __global const long *rank, __global const long *sumcost)
{
    long ra = rank[a], rb = rank[b];
    if (ra != rb)
        return ra > rb;
    long sa = sumcost[a], sb = sumcost[b];
    if (sa != sb)
        return sa < sb;
    return a < b;
}

__kernel void segment_sort(const int nlev, __global const int *offs, __global const int *queue,
                           __global const long *rank, __global const long *sumcost,
                           __global int *tmp, __global int *out)
{
    int L = get_global_id(0);
    if (L >= nlev)
        return;
    int b0 = offs[L], b1 = offs[L + 1];
    for (int r = b0; r < b1; r += SEG_RUN) {
        int re = min(r + SEG_RUN, b1);
        for (int i = r; i < re; i++) {
            int x = queue[i], j = i;
            while (j > r && seg_before(x, out[j - 1], rank, sumcost)) {
                out[j] = out[j - 1];
                j--;
            }
            out[j] = x;
        }
    }
    __global int *src = out, *dst = tmp;
    for (int width = SEG_RUN; width < b1 - b0; width *= 2) {
        for (int lo = b0; lo < b1; lo += 2 * width) {
            int mid = min(lo + width, b1), hi = min(lo + 2 * width, b1);
            int i = lo, j = mid, k = lo;
            while (i < mid && j < hi)
                dst[k++] = seg_before(src[j], src[i], rank, sumcost) ? src[j++] : src[i++];
            while (i < mid)
                dst[k++] = src[i++];
            while (j < hi)
                dst[k++] = src[j++];
        }
        __global int *t = src;
        src = dst;
        dst = t;
    }
    if (src != out)
        for (int i = b0; i < b1; i++)
            out[i] = src[i];
}

/* The sort keys and in-degree of the queue's positions [a, b), by
 * position: a host that sorts the levels itself (the stream of the host's
 * selection) reads them in sequence, per chunk of levels, instead of
 * gathering them from task-indexed arrays. */
__kernel void gather_keys(const int a, const int b, __global const int *queue,
                          __global const long *rank, __global const long *sumcost,
                          __global const int *indeg, __global long *krank, __global long *ksum,
                          __global int *kdeg)
{
    for (int i = a + (int)get_global_id(0); i < b; i += (int)get_global_size(0)) {
        int v = queue[i];
        krank[i] = rank[v];
        ksum[i] = sumcost[v];
        kdeg[i] = indeg[v];
    }
}
