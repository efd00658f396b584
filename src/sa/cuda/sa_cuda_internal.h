/* sa_cuda_internal.h - what the files of the GPU suffix-array engine share
 * (never included outside src/sa/cuda/). docs/README-sa-cuda.md lists the
 * files and their jobs:
 *   sa_cuda_mem.cu     device probe, memory pool, per-call context, small helpers
 *   sa_cuda_cub.cu     every CUB call (functors, size query and run alike)
 *   sa_cuda_init.cu    upload histogram, recoding and the initial multi-character sort
 *   sa_cuda_rounds.cu  the doubling rounds over SA (batches, one-group batches)
 *   sa_cuda_segsort.cu cuda-dc's rounds over SA by ranges of groups, segmented sorts
 *   sa_cuda_compact.cu cuda-dc's rounds over the compacted unsorted suffixes
 *   sa_cuda_dcs.cu     cuda-dc's switch when they do not shrink: a difference-cover sample
 *   sa_cuda_stage.cu   cuda-ms: chunked transfers through pinned staging buffers
 *   sa_cuda_finish.cu  on-device permutation check, LCP kernels, download
 *   sa_cuda.cu         the engine (buffers, phases, statistics) and the C entry points
 *
 * State between rounds (h = the prefix length sorted so far):
 *   SA[0..n)   suffixes sorted by their first h characters;
 *   ISA[i]     the SA index of the first suffix of i's group (group head);
 *   act        one bit per text position: its group holds more than one. */
#ifndef SA_CUDA_INTERNAL_H
#define SA_CUDA_INTERNAL_H

#include <cuda_runtime.h>

#include <cub/util_type.cuh>

#include <stddef.h>
#include <stdint.h>

#include <vector>

extern "C" {
#include "pc_alloc.h"
#include "pc_cuda.h"
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
/* Chunks of SA slots counted to plan a round's batches. */
#define SA_CUDA_CHUNKS 1024
/* cuda-dc's sample: the largest unsorted group it finishes (one thread
 * block sorts a group in shared memory, 42 bytes a suffix). */
#define SA_CUDA_DCS_MAX_GROUP 1024

/* ---- the per-call context ---- */

typedef struct sa_ctx {
    i64 n;
    int ms;                /* chunked, pinned transfers on streams (cuda-ms) */
    int discard;           /* rounds over the compacted unsorted suffixes (cuda-dc) */
    int segmented;         /* cuda-dc before those: groups sorted on their own (segmented sort) */
    cudaStream_t st[3];
    int nst;
    cudaEvent_t ev[4];
    int nev;
    uint8_t *T;            /* recoded text */
    int32_t *ISA, *SA;
    uint32_t *pool;        /* 4 * bcap words: the initial sort's keys (2n), then the rounds' buffers */
    i64 bcap;              /* items per batch: a quarter of the pool */
    uint32_t *act;         /* one bit per position */
    uint32_t *ccnt;        /* per chunk of SA slots: active slots */
    int32_t *cgs;          /* per chunk: start of the group holding its first slot */
    void *tmp;             /* CUB temporary storage, sized once for the largest call */
    size_t tmp_bytes;
    void *segtmp;          /* cuda-dc: the segmented sort's storage when the pool's spare is short */
    size_t segtmp_bytes;
    i64 *cnt;              /* device counter (selected items, bad entries) */
    unsigned *hist;        /* byte histogram */
    i64 *hcnt;             /* pinned host mirror of cnt, then of ccnt and cgs */
    void *bufs[SA_CUDA_MAX_BUFS];
    size_t sizes[SA_CUDA_MAX_BUFS];
    long long cur, peak;
    int blocks;            /* grid of the grid-stride kernels */
    int trace;             /* SA_CUDA_TRACE set: one line per round on stderr */
    int dcs_v;             /* cuda-dc: the sample's modulus (16, 32, 64), 0 for no sample */
    i64 dcs_next_h;        /* the prefix length from which the sample is considered next */
    uint32_t *gst;         /* the sample's group-start bits, one per SA slot */
    void *dcs_tab;         /* the sample's device tables */
} sa_ctx;

/* Grid-stride loop over [0, count). */
#define GS_LOOP(t, count) \
    for (i64 t = (i64)blockIdx.x * blockDim.x + threadIdx.x; t < (count); t += (i64)gridDim.x * blockDim.x)

/* ---- sa_cuda_mem.cu ---- */

/* Context for one call on n >= 2 characters: streams (3 for cuda-ms),
 * events, the pinned counter mirror, the module's memory pool (its
 * high-water mark reset). */
int sa_cuda_ctx_init(sa_ctx *c, i64 n, int model, pc_error *err);
/* Releases everything; safe on a partly built context; ignores errors. */
void sa_cuda_ctx_release(sa_ctx *c);
/* Device buffer from the module's pool on stream 0, counted in c->cur and
 * c->peak; a failed allocation trims the pool and retries once. */
int sa_cuda_dev_alloc(sa_ctx *c, void **p, size_t bytes, const char *what, pc_error *err);
/* Frees a buffer of sa_cuda_dev_alloc (NULL: nothing). */
int sa_cuda_dev_free(sa_ctx *c, void *p, pc_error *err);
/* The pool's high-water mark since sa_cuda_ctx_init, as the driver counts it. */
int sa_cuda_pool_high(long long *high, pc_error *err);
/* Blocks for a grid-stride kernel over items (at least 1, at most c->blocks). */
unsigned sa_cuda_grid(const sa_ctx *c, i64 items);
/* Copies the device counter c->cnt to *out (synchronises stream 0). */
int sa_cuda_read_count(sa_ctx *c, i64 *out, pc_error *err);
/* Bits to write x >= 0, at least 1. */
int sa_cuda_bits_for(i64 x);

/* ---- sa_cuda_cub.cu: every CUB call; tmp == NULL asks for the size ---- */

/* Active suffixes whose group head is in [lo, hi) (a batch of whole
 * groups); every active suffix when all is set. */
struct sel_active {
    const uint32_t *act;
    const int32_t *ISA;
    int32_t lo, hi;
    int all;
    __host__ __device__ bool operator()(int32_t i) const
    {
        if (i < 0 || !((act[i >> 5] >> (i & 31)) & 1u))
            return false;
        return all || (ISA[i] >= lo && ISA[i] < hi);
    }
};

/* Stable pairs sort of m items on bits [0, end_bit). */
cudaError_t sa_cub_sort(void *tmp, size_t &bytes, cub::DoubleBuffer<uint32_t> &k,
                        cub::DoubleBuffer<int32_t> &v, i64 m, int end_bit, cudaStream_t s);
/* The round's candidates i = SA[j - 1] - h (j = 0: n - h) that pick keeps, in SA order. */
cudaError_t sa_cub_select(void *tmp, size_t &bytes, const int32_t *SA, const sel_active &pick,
                          int32_t *out, i64 *count, i64 n, i64 h, cudaStream_t s);
/* The same with heads in [lo, hi), handed on as (head << 32) | i. */
cudaError_t sa_cub_select_pairs(void *tmp, size_t &bytes, const int32_t *SA, const int32_t *ISA,
                                const uint32_t *act, int32_t lo, int32_t hi, uint64_t *out,
                                i64 *count, i64 n, i64 h, cudaStream_t s);
/* H = inclusive max scan of F (group heads from start flags). */
cudaError_t sa_cub_scan_heads(void *tmp, size_t &bytes, const uint32_t *F, uint32_t *H, i64 n,
                              cudaStream_t s);
/* Splits m sorted items (heads K, or one group of head k0 when K == NULL;
 * suffixes V in ISA[i + h] order inside a group): new heads NH, SA slots. */
cudaError_t sa_cub_split(void *tmp, size_t &bytes, const uint32_t *K, uint32_t k0,
                         const int32_t *V, const int32_t *ISA, uint32_t *NH, int32_t *SA, i64 n,
                         i64 h, i64 m, cudaStream_t s);
/* *out = the longest group, from the heads H of n slots. */
cudaError_t sa_cub_longest(void *tmp, size_t &bytes, const uint32_t *H, i64 *out, i64 n,
                           cudaStream_t s);
/* *out = set bits of act[0..words). */
cudaError_t sa_cub_count(void *tmp, size_t &bytes, const uint32_t *act, i64 *out, i64 words,
                         cudaStream_t s);

/* cuda-dc's compacted rounds: stable pairs sort on 64-bit keys, bits [0, end_bit). */
cudaError_t sa_cub_sort64(void *tmp, size_t &bytes, cub::DoubleBuffer<uint64_t> &k,
                          cub::DoubleBuffer<int32_t> &v, i64 m, int end_bit, cudaStream_t s);
/* The suffixes SA[j] whose active bit is set, in SA order. */
cudaError_t sa_cub_select_slots(void *tmp, size_t &bytes, const int32_t *SA, const uint32_t *act,
                                int32_t *out, i64 *count, i64 n, cudaStream_t s);
/* Splits m items sorted by K = (head << b2) | key2 (suffixes V): new heads
 * NH, and each suffix in its SA slot. */
cudaError_t sa_cub_dc_split(void *tmp, size_t &bytes, const uint64_t *K, int b2, const int32_t *V,
                            uint32_t *NH, int32_t *SA, i64 m, cudaStream_t s);
/* The suffixes SA[j] of the difference-cover sample (mask of residues
 * modulo v, a power of two <= 64) whose active bit is set, in SA order. */
cudaError_t sa_cub_select_sample(void *tmp, size_t &bytes, const int32_t *SA, const uint32_t *act,
                                 uint64_t mask, int v, int32_t *out, i64 *count, i64 n, cudaStream_t s);
/* The items of V whose new head NH is shared with a neighbour (still
 * unsorted), in order. */
cudaError_t sa_cub_dc_keep(void *tmp, size_t &bytes, const int32_t *V, const uint32_t *NH,
                           int32_t *out, i64 *count, i64 m, cudaStream_t s);

/* cuda-dc's segmented rounds: the first slots (which = 0) or one past the
 * last slots (which = 1) of the active groups in SA[lo, lo + m), relative
 * to lo, in order. */
cudaError_t sa_cub_seg_bounds(void *tmp, size_t &bytes, const int32_t *SA, const int32_t *ISA,
                              const uint32_t *act, i64 lo, i64 m, int which, int32_t *out, i64 *count,
                              cudaStream_t s);
/* Sorts each segment [begin[j], end[j]) of the m pairs on its own. */
cudaError_t sa_cub_segsort(void *tmp, size_t &bytes, cub::DoubleBuffer<uint32_t> &k,
                           cub::DoubleBuffer<int32_t> &v, i64 m, i64 segments, const int32_t *begin,
                           const int32_t *end, cudaStream_t s);
/* H = inclusive max scan of the flags F without their top bit. */
cudaError_t sa_cub_seg_heads(void *tmp, size_t &bytes, const uint32_t *F, uint32_t *H, i64 m,
                             cudaStream_t s);

/* ---- sa_cuda_init.cu ---- */

/* Byte histogram of T[0..n) added into hist, on stream s. */
int sa_cuda_hist(sa_ctx *c, const uint8_t *T, i64 n, unsigned *hist, int blocks, cudaStream_t s,
                 pc_error *err);

/* What the initial sort leaves: h characters sorted, m1 suffixes active. */
typedef struct sa_init_out {
    int b, k, W;     /* bits per character, characters per word, words */
    i64 h, m1, longest;
} sa_init_out;

/* Recodes the uploaded text, sorts all suffixes by their first W*k
 * characters into SA, ranks into ISA (group heads), sets the active bits. */
int sa_cuda_init_sort(sa_ctx *c, const unsigned *hist, sa_init_out *o, pc_error *err);

/* ---- sa_cuda_rounds.cu and sa_cuda_compact.cu ---- */

/* What the rounds did. */
typedef struct sa_rounds_out {
    i64 h;           /* prefix length at which every group was a singleton */
    int rounds, max_batches, groups, compact_rounds;
    int sample_v, sample_rounds;   /* cuda-dc's difference-cover sample, when taken */
    i64 sample_items, sample_groups, sample_from_h;
} sa_rounds_out;

/* Doubling rounds from prefix length h with m1 active suffixes until every
 * group is a singleton; SA and ISA final. With c->discard, the rounds over
 * SA stop once the unsorted suffixes fit the compacted rounds. */
int sa_cuda_rounds(sa_ctx *c, i64 h, i64 m1, sa_rounds_out *o, pc_error *err);
/* ---- sa_cuda_dcs.cu ---- */

/* cuda-dc at prefix length *h >= 16 with `active` unsorted suffixes
 * (more than the compacted rounds hold): when every unsorted group has at
 * most SA_CUDA_DCS_MAX_GROUP suffixes, sorts the difference-cover sample by
 * rounds over it alone and then each group by the sample's ranks, SA final;
 * *switched = 1, *h an upper bound of the longest common prefix + 1, and
 * o's sample fields set. Else *switched = 0 and nothing changed. */
int sa_cuda_dcs_try(sa_ctx *c, i64 *h, i64 active, sa_rounds_out *o, int *switched, pc_error *err);
/* CUB temporary bytes its select needs. */
int sa_cuda_dcs_tmp(sa_ctx *c, size_t *bytes, pc_error *err);

/* Items per batch of the test hook (0: the default). */
i64 sa_cuda_batch_items(void);
/* Unsorted suffixes that the compacted rounds can hold (cuda-dc). */
i64 sa_cuda_compact_cap(const sa_ctx *c);
/* The compacted rounds: from prefix length *h with m unsorted suffixes
 * (m <= sa_cuda_compact_cap) to the end; *h becomes the final length. */
int sa_cuda_compact_rounds(sa_ctx *c, i64 *h, i64 m, int *rounds, pc_error *err);
/* The compacted rounds' key and value buffers in the pool (V0 is the
 * list's place), each of sa_cuda_compact_cap's items at least. */
void sa_cuda_compact_bufs(sa_ctx *c, uint64_t **K0, uint64_t **K1, int32_t **V0, int32_t **V1);
/* Where sa_cuda_compact_loop expects its list (in the pool). */
int32_t *sa_cuda_compact_list(sa_ctx *c);
/* The compacted rounds over the m suffixes listed at
 * sa_cuda_compact_list(c), from prefix length *h: step 0 doubles and
 * writes SA; step > 0 reads ranks a multiple of step ahead and leaves SA
 * alone (the sample's rounds). *h becomes the last round's offset base. */
int sa_cuda_compact_loop(sa_ctx *c, i64 *h, i64 m, i64 step, int *rounds, pc_error *err);
/* CUB temporary bytes the compacted rounds need. */
int sa_cuda_compact_tmp(sa_ctx *c, size_t *bytes, pc_error *err);
/* cuda-dc while the unsorted suffixes do not fit the compacted rounds: one
 * round at prefix length h over SA in ranges of whole groups, each group
 * sorted on its own (sa_cuda_segsort.cu); *ranges = the ranges, *groups
 * counts the groups longer than a range (done by sa_cuda_round_group). */
int sa_cuda_seg_round(sa_ctx *c, i64 h, int *ranges, int *groups, pc_error *err);
/* Slots per range of the segmented rounds (below 64 they are not used). */
i64 sa_cuda_seg_cap(const sa_ctx *c);
/* CUB temporary bytes (in c->tmp) the segmented rounds need. */
int sa_cuda_seg_tmp(sa_ctx *c, size_t *bytes, pc_error *err);
/* The rounds over SA's one-group batch: the group of head g (expect
 * suffixes, all active), no sort. */
int sa_cuda_round_group(sa_ctx *c, i64 h, int32_t g, i64 expect, pc_error *err);
/* *out = the first slot in (g, end) whose head is not g, or end. */
int sa_cuda_group_end(sa_ctx *c, i64 g, i64 end, i64 *out, pc_error *err);

/* ---- sa_cuda_stage.cu (cuda-ms) ---- */

/* Text up in chunks through the pinned buffers, histogram per chunk. */
int sa_cuda_upload_staged(sa_ctx *c, const uint8_t *T, int nt, pc_error *err);
/* count int32 from dev to host after `ready`, chunked through the pinned buffers. */
int sa_cuda_download_staged(sa_ctx *c, int32_t *host, const int32_t *dev, i64 count,
                            cudaEvent_t ready, int nt, pc_error *err);

/* ---- sa_cuda_finish.cu ---- */

/* On-device permutation check of SA (act is reused as the seen bits). */
int sa_cuda_check(sa_ctx *c, pc_error *err);
/* SA (and LCP when LCPh) to the host; *lcp_gpu says where the LCP was made. */
int sa_cuda_finish(sa_ctx *c, const uint8_t *Th, int32_t *SAh, int32_t *LCPh, i64 h, int threads,
                   int *lcp_gpu, double *s_lcp_host, pc_error *err);

#endif
