/* sa_cuda_init.cu - the first phase of the GPU suffix-array engine: the
 * byte histogram (during the upload), recoding to the alphabet's ranks,
 * and the initial sort of all suffixes by their first W * k characters
 * (W stable radix sorts of k packed characters each), ranked into group
 * heads with the active bits set. */
#include <math.h>

#include <algorithm>

#include "sa_cuda_internal.h"

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

/* Words of k characters in the initial sort: 2, or 4 when the text looks
 * too repetitive for 2k characters to settle most suffixes. A doubling
 * round over nearly all n suffixes costs about three initial passes
 * (measured on the H100: 27 ms against 2 x 8.5 ms at n = 10^8), so
 * two more words pay when most groups would otherwise survive 2k
 * characters. The test: 2k characters of the byte distribution's entropy
 * H0 against log2(n) plus a margin (12 bits; 24 for cuda-dc), because H0 ignores context
 * (English-like text: H0 = 4.4 bits, but 99.6% of its suffixes still share
 * their first 8 characters with another at n = 10^8; random bytes: 8 bits,
 * none does). Only the speed depends on this choice. */
static int initial_words(const unsigned *hist, i64 n, int k, double margin)
{
    double h0 = 0;
    for (int x = 0; x < 256; x++)
        if (hist[x]) {
            double p = (double)hist[x] / (double)n;
            h0 -= p * log2(p);
        }
    return 2.0 * k * h0 < log2((double)n) + margin ? 4 : 2;
}

/* Contract in sa_cuda_internal.h (the whole of T on stream s). */
int sa_cuda_hist(sa_ctx *c, const uint8_t *T, i64 n, unsigned *hist, int blocks, cudaStream_t s,
                 pc_error *err)
{
    (void)c;
    k_hist<<<blocks, 256, 0, s>>>(T, n, hist);
    PC_CU_LAUNCHED("k_hist");
    return PC_OK;
}

/* Contract in sa_cuda_internal.h; the pool's first 2n words are the keys. */
int sa_cuda_init_sort(sa_ctx *c, const unsigned *hist, sa_init_out *o, pc_error *err)
{
    const i64 n = c->n;
    cudaStream_t s0 = c->st[0];
    i64 words = (n + 31) / 32;
    uint32_t *K0 = c->pool, *K1 = c->pool + n;
    int rc;
    code_table code;
    int sigma = 0;
    for (int x = 0; x < 256; x++)
        code.c[x] = hist[x] ? (uint8_t)sigma++ : 0;
    int b = sa_cuda_bits_for(sigma > 1 ? sigma - 1 : 1);
    int k = 32 / b;
    int kb = k * b;
    /* cuda-dc's late rounds are cheap, its early ones over nearly all n
     * suffixes are not: it takes 4 words on a wider margin (measured on the
     * H100, 64 MB of the generator's text: all suffixes still active after
     * 10 characters, the round that follows 18 ms against 2 x 4 ms). */
    int W = initial_words(hist, n, k, c->discard ? 24.0 : 12.0);
    k_recode<<<sa_cuda_grid(c, n), 256, 0, s0>>>(c->T, n, code);
    PC_CU_LAUNCHED("k_recode");
    k_init_first<<<sa_cuda_grid(c, n), 256, 0, s0>>>(c->T, n, b, k, (i64)(W - 1) * k, K0, c->ISA);
    PC_CU_LAUNCHED("k_init_first");
    cub::DoubleBuffer<uint32_t> dk(K0, K1);
    cub::DoubleBuffer<int32_t> dv(c->ISA, c->SA);
    size_t tb = c->tmp_bytes;
    PC_CU(sa_cub_sort(c->tmp, tb, dk, dv, n, kb, s0), "initial radix sort (last word)");
    for (int w = W - 2; w >= 0; w--) {
        k_init_word<<<sa_cuda_grid(c, n), 256, 0, s0>>>(c->T, n, b, k, (i64)w * k, dv.Current(), dk.Current());
        PC_CU_LAUNCHED("k_init_word");
        tb = c->tmp_bytes;
        PC_CU(sa_cub_sort(c->tmp, tb, dk, dv, n, kb, s0), "initial radix sort");
    }
    if (dv.Current() != c->SA) /* the two buffers are alike: rename instead of copying */
        std::swap(c->SA, c->ISA);
    k_init_flags<<<sa_cuda_grid(c, n), 256, 0, s0>>>(c->T, n, b, k, W, c->SA, dk.Current(), dk.Alternate());
    PC_CU_LAUNCHED("k_init_flags");
    tb = c->tmp_bytes;
    PC_CU(sa_cub_scan_heads(c->tmp, tb, dk.Alternate(), dk.Current(), n, s0), "scanning group heads");
    k_init_rank<<<sa_cuda_grid(c, n), 256, 0, s0>>>(n, c->SA, dk.Current(), c->ISA, c->act);
    PC_CU_LAUNCHED("k_init_rank");
    tb = c->tmp_bytes;
    PC_CU(sa_cub_longest(c->tmp, tb, dk.Current(), c->cnt, n, s0), "finding the longest group");
    i64 longest = 0, m1 = 0;
    if ((rc = sa_cuda_read_count(c, &longest, err)))
        return rc;
    tb = c->tmp_bytes;
    PC_CU(sa_cub_count(c->tmp, tb, c->act, c->cnt, words, s0), "counting active suffixes");
    if ((rc = sa_cuda_read_count(c, &m1, err)))
        return rc;
    o->b = b;
    o->k = k;
    o->W = W;
    o->h = (i64)W * k;
    o->m1 = m1;
    o->longest = longest;
    return PC_OK;
}
