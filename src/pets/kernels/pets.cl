/* pets.cl - PETS phases on an OpenCL device: entry discovery, levels and
 * ranks on a frontier queue (predecessor counts decremented atomically; the
 * host reads the size of the next frontier, and an empty one ends the
 * loop), and a bitonic sort into the priority order. Ranks are exact
 * 64-bit integers scaled by P. */

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
                        __global long *rs, __global long *rank, __global long *sumcost)
{
    long r = acc + (long)P * dtc + rpt;
    lev[v] = level;
    rs[v] = r;
    rank[v] = round_rank(r, P);
    sumcost[v] = acc;
}

/* One work-item per task of the frontier (all of whose predecessors are
 * done): level, ACC*P, DTC, RPT (largest predecessor rank, unrounded),
 * then each successor's counter is decremented once; the work-item that
 * brings it to zero appends the successor to the next frontier. The two
 * counts alternate by level (counts[(level + 1) & 1] is this level's next
 * frontier size); work-item 0 clears the other one, which the host has
 * read already, for the next level: no write from the host per level. */
__kernel void compute_metrics(const int nf, const int level, const int P,
                              __global const int *frontier, __global int *next,
                              __global int *counts, __global const int *pred_off,
                              __global const int *pred, __global const int *succ_off,
                              __global const int *succ, __global const long *succ_comm,
                              __global const long *cost, __global int *left, __global int *lev,
                              __global long *rs, __global long *rank, __global long *sumcost)
{
    int k = get_global_id(0);
    if (k == 0)
        counts[level & 1] = 0;
    if (k >= nf)
        return;
    int v = frontier[k];
    long rpt = 0, acc = 0, dtc = 0;
    for (int e = pred_off[v]; e < pred_off[v + 1]; e++)
        rpt = max(rpt, rs[pred[e]]);
    for (int p = 0; p < P; p++)
        acc += cost[(size_t)v * P + p];
    for (int e = succ_off[v]; e < succ_off[v + 1]; e++) {
        dtc += succ_comm[e];
        int s = succ[e];
        if (atomic_dec(&left[s]) == 1)
            next[atomic_inc(&counts[(level + 1) & 1])] = s;
    }
    finish_task(v, level, P, acc, dtc, rpt, lev, rs, rank, sumcost);
}

static long lane_rank(int u, __global const long *rs)
{
    return u >= 0 ? rs[u] : 0;
}

/* The same on the padded rectangular matrices (rows of wp / ws entries, a
 * multiple of 8, padded with -1 and weight 0), eight neighbours per step.
 * Each valid successor lane is decremented exactly once; padding lanes are
 * skipped, so rows shorter than 8 and the padding itself are harmless. */
__kernel void compute_metrics_vec8(const int nf, const int level, const int P,
                                   __global const int *frontier, __global int *next,
                                   __global int *counts, const int wp, const int ws,
                                   __global const int *indeg, __global const int *outdeg,
                                   __global const int *pred_mat, __global const int *succ_mat,
                                   __global const long *succ_wmat, __global const long *cost,
                                   __global int *left, __global int *lev, __global long *rs,
                                   __global long *rank, __global long *sumcost)
{
    int k = get_global_id(0);
    if (k == 0)
        counts[level & 1] = 0;
    if (k >= nf)
        return;
    int v = frontier[k];
    long8 best = (long8)(0);
    __global const int *prow = pred_mat + (size_t)v * wp;
    for (int j = 0; j < indeg[v]; j += 8) {
        int8 u = vload8(0, prow + j);
        long8 r = (long8)(lane_rank(u.s0, rs), lane_rank(u.s1, rs), lane_rank(u.s2, rs),
                          lane_rank(u.s3, rs), lane_rank(u.s4, rs), lane_rank(u.s5, rs),
                          lane_rank(u.s6, rs), lane_rank(u.s7, rs));
        best = max(best, r);
    }
    long4 b4 = max(best.lo, best.hi);
    long2 b2 = max(b4.lo, b4.hi);
    long rpt = max(b2.lo, b2.hi);
    long acc = 0;
    for (int p = 0; p < P; p++)
        acc += cost[(size_t)v * P + p];
    long8 w8 = (long8)(0);
    __global const int *srow = succ_mat + (size_t)v * ws;
    __global const long *wrow = succ_wmat + (size_t)v * ws;
    for (int j = 0; j < outdeg[v]; j += 8) {
        w8 += vload8(0, wrow + j);
        int8 s = vload8(0, srow + j);
        int lanes[8] = {s.s0, s.s1, s.s2, s.s3, s.s4, s.s5, s.s6, s.s7};
        for (int l = 0; l < 8; l++) {
            int t = lanes[l];
            if (t >= 0 && atomic_dec(&left[t]) == 1)
                next[atomic_inc(&counts[(level + 1) & 1])] = t;
        }
    }
    long4 w4 = w8.lo + w8.hi;
    long2 w2 = w4.lo + w4.hi;
    finish_task(v, level, P, acc, w2.lo + w2.hi, rpt, lev, rs, rank, sumcost);
}

/* 1 when task a goes before task b: level ascending, rank descending, ACC
 * ascending, task ascending. Padding (a or b >= n) goes after every task. */
static int goes_before(int a, int b, int n, __global const int *lev, __global const long *rank,
                       __global const long *sumcost)
{
    if (a >= n)
        return 0;
    if (b >= n)
        return 1;
    if (lev[a] != lev[b])
        return lev[a] < lev[b];
    if (rank[a] != rank[b])
        return rank[a] > rank[b];
    if (sumcost[a] != sumcost[b])
        return sumcost[a] < sumcost[b];
    return a < b;
}

__kernel void bitonic_init(const int N, __global int *perm)
{
    int i = get_global_id(0);
    if (i < N)
        perm[i] = i;
}

/* One compare-exchange step (k: block size, j: distance) over N = 2^m. */
__kernel void bitonic_step(const int N, const int n, const int j, const int k,
                           __global int *perm, __global const int *lev,
                           __global const long *rank, __global const long *sumcost)
{
    int i = get_global_id(0);
    if (i >= N)
        return;
    int l = i ^ j;
    if (l <= i)
        return;
    int a = perm[i], b = perm[l];
    int up = (i & k) == 0;
    int swap = up ? goes_before(b, a, n, lev, rank, sumcost) : goes_before(a, b, n, lev, rank, sumcost);
    if (swap) {
        perm[i] = b;
        perm[l] = a;
    }
}
