/* spmm_cuda_fast.cu - csr-cuda-fast, parcheck's own SpMM design.
 *
 * One kernel family, three compile-time shape parameters:
 *   VEC  doubles per lane over K (1, 2 = one 16-byte load, 4 = two), so X
 *        rows (row-major, contiguous over K) are read with wide loads;
 *   C    lanes across K (C*VEC columns per pass over the row's entries;
 *        more columns loop, re-reading the row from L1/L2);
 *   S    lanes across the row's entries (each lane keeps VEC running sums,
 *        then the S partial sums are combined by a butterfly of shuffles).
 * A group of G = C*S lanes (G <= 32, inside one warp) handles one row: for
 * large K a warp per row with lanes across K, for small K sub-warps per row
 * with lanes across entries; A is read once per pass for all columns.
 *
 * Load balance: rows longer than FAST_SEG entries (power-law tails) are cut
 * into segments of FAST_SEG entries; the segments are the first groups of
 * the grid (scheduled first), write their sums to a partial buffer, and the
 * shared split reduction adds each row's segments in order. Every sum has a
 * fixed order: results are the same on every run, and exact for integer
 * inputs.
 *
 * Choice of (VEC, C, S): prepare times every candidate that fits K on the
 * real matrix (like the cusparse entry's choice of algorithm) and keeps the
 * fastest; this costs about a millisecond on small matrices, where a
 * heuristic from K and the mean row length lost to cuSPARSE (ani4, K = 4).
 * The heuristic remains the starting point and the choice for nnz = 0. For K = 1 the candidates
 * also include a persistent grid that prefetches the next row's bounds, and
 * the CSR-Stream row blocks of csr-cuda-adaptive (at K = 1 X needs no
 * transpose), which won on power-law rows in the H100 sweep. */
#include <stdio.h>

#include "spmm_cuda_internal.cuh"

#define FAST_BS 256
#define FAST_SEG 256            /* long-row threshold and segment length */
#define FAST_TUNE_WORK 1         /* nnz*K from which candidates are timed (all but nnz = 0) */

struct fast_args {
    int32_t m;
    int K;
    const int32_t *__restrict__ irp;
    const int32_t *__restrict__ ja;
    const double *__restrict__ as;
    const double *__restrict__ X;
    double *__restrict__ Y;
    const int32_t *__restrict__ seg_row;
    const int32_t *__restrict__ seg_lo;
    double *__restrict__ partial;
    int32_t nseg, long_min, seglen;
    long long ngroups; /* persistent K = 1 kernel: groups in the grid */
    int tiles;         /* groups per unit, each taking every tiles-th block of C*VEC columns */
};

template <int VEC>
__device__ __forceinline__ void fast_load(const double *__restrict__ p, int col, int K, double *v)
{
    if (VEC == 1) {
        v[0] = __ldg(p);
    } else {
        double2 a = __ldg(reinterpret_cast<const double2 *>(p));
        v[0] = a.x;
        v[1] = a.y;
        if (VEC == 4) {
            /* K is even, so the second pair is either whole or absent */
            double2 b = col + 2 < K ? __ldg(reinterpret_cast<const double2 *>(p + 2)) : make_double2(0.0, 0.0);
            v[2] = b.x;
            v[3] = b.y;
        }
    }
}

/* Work unit u: a segment of a long row (u < nseg) or row u - nseg, whose
 * entries [lo, hi) are summed into out[0..K); out = NULL for nothing to do. */
__device__ __forceinline__ void fast_unit(const fast_args &a, long long u, int32_t &lo, int32_t &hi,
                                          double *&out)
{
    lo = hi = 0;
    out = NULL;
    if (u < a.nseg) {
        int32_t row = a.seg_row[u];
        lo = a.seg_lo[u];
        int32_t end = a.irp[row + 1];
        hi = end - lo > a.seglen ? lo + a.seglen : end;
        out = a.partial + u * a.K;
    } else if (u - a.nseg < a.m) {
        long long row = u - a.nseg;
        lo = a.irp[row];
        hi = a.irp[row + 1];
        if (hi - lo > a.long_min)
            hi = lo;
        else
            out = a.Y + row * a.K;
    }
}

template <int VEC, int C, int S>
__global__ void __launch_bounds__(FAST_BS) fast_kernel(fast_args a)
{
    constexpr int G = C * S;
    long long gid = (blockIdx.x * (long long)FAST_BS + threadIdx.x) / G;
    int l = threadIdx.x % G, c = l % C, sl = l / C;
    int32_t lo, hi;
    double *out;
    fast_unit(a, gid / a.tiles, lo, hi, out);
    const int K = a.K;
    for (int cb = (int)(gid % a.tiles) * C * VEC; cb < K; cb += a.tiles * C * VEC) {
        const int col = cb + c * VEC;
        double acc[VEC];
#pragma unroll
        for (int v = 0; v < VEC; v++)
            acc[v] = 0.0;
        if (out && col < K) {
            const double *__restrict__ xc = a.X + col;
            int32_t e = lo + sl;
            for (; e + 3 * S < hi; e += 4 * S) {
                int32_t j[4];
                double w[4], x[4][VEC];
#pragma unroll
                for (int u = 0; u < 4; u++) {
                    j[u] = __ldg(&a.ja[e + u * S]);
                    w[u] = __ldg(&a.as[e + u * S]);
                }
#pragma unroll
                for (int u = 0; u < 4; u++)
                    fast_load<VEC>(xc + (long long)j[u] * K, col, K, x[u]);
#pragma unroll
                for (int u = 0; u < 4; u++)
#pragma unroll
                    for (int v = 0; v < VEC; v++)
                        acc[v] = fma(w[u], x[u][v], acc[v]);
            }
            for (; e < hi; e += S) {
                double x[VEC];
                double w = __ldg(&a.as[e]);
                fast_load<VEC>(xc + (long long)__ldg(&a.ja[e]) * K, col, K, x);
#pragma unroll
                for (int v = 0; v < VEC; v++)
                    acc[v] = fma(w, x[v], acc[v]);
            }
        }
#pragma unroll
        for (int off = C; off < G; off <<= 1)
#pragma unroll
            for (int v = 0; v < VEC; v++)
                acc[v] += __shfl_xor_sync(0xffffffffu, acc[v], off, G);
        if (out && sl == 0 && col < K) {
            if (VEC == 1) {
                out[col] = acc[0];
            } else {
                *reinterpret_cast<double2 *>(out + col) = make_double2(acc[0], acc[1]);
                if (VEC == 4 && col + 2 < K)
                    *reinterpret_cast<double2 *>(out + col + 2) = make_double2(acc[2], acc[3]);
            }
        }
    }
}

/* K = 1 (SpMV-like, latency-bound): a persistent grid of S-lane groups
 * walks the units with a stride, loading the next unit's row bounds before
 * summing the current one, so that the irp -> ja -> X chain of one row
 * overlaps the next. Groups of one warp may leave the loop at different
 * times, so shuffles name only the group's lanes. */
template <int S>
__global__ void __launch_bounds__(FAST_BS) fast_k1_kernel(fast_args a)
{
    long long gid = (blockIdx.x * (long long)FAST_BS + threadIdx.x) / S;
    int sl = threadIdx.x % S;
    const unsigned mask = S == 32 ? 0xffffffffu : ((1u << S) - 1u) << ((threadIdx.x & 31) / S * S);
    const long long total = (long long)a.nseg + a.m;
    int32_t lo, hi;
    double *out;
    fast_unit(a, gid, lo, hi, out);
    for (long long u = gid; u < total; u += a.ngroups) {
        int32_t nlo, nhi;
        double *nout;
        fast_unit(a, u + a.ngroups, nlo, nhi, nout);
        double acc = 0.0;
        int32_t e = lo + sl;
        for (; e + 3 * S < hi; e += 4 * S) {
            int32_t j[4];
            double w[4], x[4];
#pragma unroll
            for (int q = 0; q < 4; q++) {
                j[q] = __ldg(&a.ja[e + q * S]);
                w[q] = __ldg(&a.as[e + q * S]);
            }
#pragma unroll
            for (int q = 0; q < 4; q++)
                x[q] = __ldg(&a.X[j[q]]);
#pragma unroll
            for (int q = 0; q < 4; q++)
                acc = fma(w[q], x[q], acc);
        }
        for (; e < hi; e += S)
            acc = fma(__ldg(&a.as[e]), __ldg(&a.X[__ldg(&a.ja[e])]), acc);
#pragma unroll
        for (int off = S / 2; off > 0; off /= 2)
            acc += __shfl_xor_sync(mask, acc, off, S);
        if (out && sl == 0)
            *out = acc;
        lo = nlo;
        hi = nhi;
        out = nout;
    }
}

typedef void (*fast_fn)(fast_args);
struct fast_cfg {
    int vec, c, s;
    fast_fn fn;
    int persist; /* K = 1 only: 1 the persistent kernel, 2 CSR-Stream row blocks */
};

#define FAST_S(V, C)                                                                       \
    {V, C, 1, fast_kernel<V, C, 1>, 0}, {V, C, 2, fast_kernel<V, C, 2>, 0}, {V, C, 4, fast_kernel<V, C, 4>, 0}
#define FAST_VEC(V)                                                                        \
    FAST_S(V, 1), {V, 1, 8, fast_kernel<V, 1, 8>, 0}, {V, 1, 16, fast_kernel<V, 1, 16>, 0},      \
        {V, 1, 32, fast_kernel<V, 1, 32>, 0}, FAST_S(V, 2), {V, 2, 8, fast_kernel<V, 2, 8>, 0},  \
        {V, 2, 16, fast_kernel<V, 2, 16>, 0}, FAST_S(V, 4), {V, 4, 8, fast_kernel<V, 4, 8>, 0},  \
        FAST_S(V, 8), {V, 16, 1, fast_kernel<V, 16, 1>, 0}, {V, 16, 2, fast_kernel<V, 16, 2>, 0}, \
        {V, 32, 1, fast_kernel<V, 32, 1>, 0}

static const fast_cfg fast_cfgs[] = {
    FAST_VEC(1), FAST_VEC(2), FAST_VEC(4),
    {1, 1, 2, fast_k1_kernel<2>, 1}, {1, 1, 4, fast_k1_kernel<4>, 1}, {1, 1, 8, fast_k1_kernel<8>, 1},
    {1, 1, 16, fast_k1_kernel<16>, 1}, {1, 1, 32, fast_k1_kernel<32>, 1}, {1, 1, 0, NULL, 2}};
#define FAST_NCFG ((int)(sizeof fast_cfgs / sizeof fast_cfgs[0]))

static int pow2_at_least(int v)
{
    int p = 1;
    while (p < v && p < 32)
        p <<= 1;
    return p;
}

/* A configuration fits K when its VEC keeps 16-byte alignment (K even) and
 * C is the smallest power of two covering K in one pass (capped at 32);
 * with `tiles` groups per row, when each group's C*VEC columns are exactly
 * one tile of K / tiles columns. Tiles put
 * more warps on a matrix of few rows and many columns (bcsstk13, 2003
 * rows, K = 64: one warp per row left most of the chip idle); each tile
 * reads the row's entries again, from cache. */
static int fast_fits(const fast_cfg *f, int K, int tiles)
{
    if (f->persist)
        return K == 1 && tiles == 1;
    if (f->vec > 1 && (K % 2 != 0 || f->vec > K))
        return 0;
    if (tiles > 1) /* exactly one pass per tile: every group of a warp shuffles the same times */
        return K % tiles == 0 && (K / tiles) % f->vec == 0 && f->c == K / tiles / f->vec;
    return f->c == pow2_at_least((K + f->vec - 1) / f->vec);
}

static int fast_find(int vec, int c, int s)
{
    for (int i = 0; i < FAST_NCFG; i++)
        if (fast_cfgs[i].vec == vec && fast_cfgs[i].c == c && fast_cfgs[i].s == s && !fast_cfgs[i].persist)
            return i;
    return -1;
}

static int fast_heuristic(int K, double mean)
{
    int vec = K % 2 == 0 ? 2 : 1;
    int c = pow2_at_least((K + vec - 1) / vec);
    int s = 1;
    while (s * 2 <= mean && c * s * 2 <= 32)
        s *= 2;
    return fast_find(vec, c, s);
}

static int fast_launch_cfg(spmm_cuda_state *s, int cfg, pc_error *err)
{
    const fast_cfg *f = &fast_cfgs[cfg];
    if (f->persist == 2) /* K = 1: X is its own transpose; every row in the row blocks */
        return spmm_cuda_adaptive_blocks(s, s->X, INT32_MAX, err);
    fast_args a = {s->m,       s->K,      s->irp,     s->ja,   s->as,       s->X,      s->Y,
                   s->seg_row, s->seg_lo, s->partial, s->nseg, s->long_min, s->seglen, 0,
                   s->fast_tiles};
    long long threads = ((long long)s->m + s->nseg) * (f->c * f->s) * s->fast_tiles;
    unsigned blocks = spmm_cuda_blocks(threads, FAST_BS);
    if (f->persist) {
        /* as many groups as the chip holds at once (2048 threads per SM) */
        unsigned resident = (unsigned)s->sms * (2048 / FAST_BS);
        if (blocks > resident)
            blocks = resident;
        a.ngroups = (long long)blocks * (FAST_BS / f->s);
    }
    f->fn<<<blocks, FAST_BS, 0, s->stream>>>(a);
    PC_CU_LAUNCHED("launching the csr-cuda-fast kernel");
    return spmm_cuda_split_reduce(s, err);
}

int spmm_cuda_fast_launch(spmm_cuda_state *s, pc_error *err)
{
    return fast_launch_cfg(s, s->fast_cfg, err);
}

int spmm_cuda_fast_plan(spmm_cuda_state *s, const spmm_csr *A, pc_error *err)
{
    int rc;
    if (s->K == 1 && (rc = spmm_cuda_adaptive_plan(s, A, err)) != 0)
        return rc; /* row blocks for the CSR-Stream candidate */
    if ((rc = spmm_cuda_split_plan(s, A, FAST_SEG, FAST_SEG, err)) != 0)
        return rc;
    int dev = 0;
    PC_CU(cudaGetDevice(&dev), "cudaGetDevice");
    PC_CU(cudaDeviceGetAttribute(&s->sms, cudaDevAttrMultiProcessorCount, dev), "cudaDeviceGetAttribute");
    if (s->nlong == 0)
        s->long_min = INT32_MAX;
    double mean = s->m ? (double)s->nnz / s->m : 0.0;
    s->fast_cfg = fast_heuristic(s->K, mean);
    s->fast_tiles = 1;
    if (s->fast_cfg < 0)
        return pc_error_set(err, PC_EINVAL, __FILE__, __LINE__, "csr-cuda-fast: no kernel for K=%d",
                            s->K);
    if ((double)s->nnz * s->K < FAST_TUNE_WORK)
        return PC_OK;
    double best = -1;
    int best_cfg = s->fast_cfg, best_tiles = 1;
    for (int tiles = 1; tiles <= 4; tiles *= 2)
        for (int i = 0; i < FAST_NCFG; i++) {
            if (!fast_fits(&fast_cfgs[i], s->K, tiles))
                continue;
            s->fast_cfg = i;
            s->fast_tiles = tiles;
            double t = 0;
            if ((rc = spmm_cuda_time_launch(s, spmm_cuda_fast_launch, 3, &t, err)) != 0)
                return rc;
            if (best < 0 || t < best) {
                best = t;
                best_cfg = i;
                best_tiles = tiles;
            }
        }
    s->fast_cfg = best_cfg;
    s->fast_tiles = best_tiles;
    return PC_OK;
}

const char *spmm_cuda_fast_name(const spmm_cuda_state *s)
{
    static char buf[64];
    const fast_cfg *f = &fast_cfgs[s->fast_cfg];
    if (f->persist == 2)
        return "csr-stream row blocks";
    snprintf(buf, sizeof buf, "vec%d c%d s%d%s%s", f->vec, f->c, f->s,
             s->fast_tiles > 1 ? (s->fast_tiles == 2 ? " t2" : " t4") : "",
             f->persist ? " persistent" : "");
    return buf;
}
