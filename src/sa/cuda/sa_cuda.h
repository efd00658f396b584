/* sa_cuda.h - suffix arrays on a CUDA GPU, seen from C.
 *
 * Prefix doubling with CUB: the text is recoded to its alphabet's ranks
 * and 2 x 32-bit words of packed characters are radix sorted (two stable
 * passes, only the bits the alphabet needs); each doubling round then
 * sorts only the suffixes of unsorted groups, once, by their group alone,
 * their second-key order coming from the previous round's SA; the groups
 * are re-ranked with one scan. cuda-dc (doubling with discarding) lists
 * the unsorted suffixes once they fit and from then on sorts only that
 * list, by (group, next rank) on 64-bit keys, so that a round costs what
 * the unsorted suffixes cost; where they do not shrink it sorts a
 * difference-cover sample (9/64 of the suffixes) and then each group by the
 * sample's ranks; it moves its bytes as cuda-ms. docs/README-sa-cuda.md has
 * the design, the device-memory model and the measurements.
 *
 * Built only when nvcc exists (PC_HAVE_CUDA, SA_WITH_CUDA); at run time
 * sa_cuda_available() answers with pc_cuda_probe's reason on a machine without
 * one, and every entry point then returns PC_EUNAVAIL. */
#ifndef SA_CUDA_H
#define SA_CUDA_H

#include <stddef.h>
#include <stdint.h>

#include "pc_error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What one sa_cuda_run measured (device figures, seconds by CUDA events
 * or the host clock; zero where a phase did not run). */
typedef struct sa_cuda_stats {
    long long device_peak_bytes;  /* most bytes this call held on the device (buffers + CUB temp) */
    long long pool_peak_bytes;    /* the same peak as the driver counts it (the memory pool's
                                     cudaMemPoolAttrUsedMemHigh, reset at the start of the call) */
    int rounds;                   /* doubling rounds after the initial sort (the rounds over SA
                                     count from the second; cuda-dc's compacted rounds all count) */
    int compact_rounds;           /* of which over the compacted unsorted suffixes (cuda-dc) */
    int sample_v;                 /* cuda-dc: the difference-cover sample's modulus, 0 if not taken */
    int sample_rounds;            /* of the rounds, those over the sample */
    long long sample_items;       /* the sample's unsorted suffixes */
    long long sample_groups;      /* unsorted groups then sorted by the sample's ranks */
    long long sample_from_h;      /* the prefix length at which the sample was taken */
    int max_batches;              /* most batches one round was cut into (1: whole rounds) */
    int group_batches;            /* batches of one (long) group, which need no sort */
    long long longest_group;      /* largest group after the initial sort */
    int chars_per_word;           /* characters packed into each 32-bit key word */
    int initial_words;            /* words (of chars_per_word characters) in the initial sort */
    int bits_per_char;            /* bits of the recoded alphabet */
    long long h_final;            /* prefix length at which every group was a singleton */
    long long active_after_init;  /* suffixes still in unsorted groups after the initial sort */
    int lcp_on_gpu;               /* 1: LCP by Phi/PLCP on the device; 0: Kasai on the host */
    /* host clock around each phase: upload + histogram, initial sort,
     * rounds, on-device check, then download (+ LCP), of which Kasai on the
     * host when the LCP was not computed on the device; the whole call */
    double s_upload, s_init, s_rounds, s_check, s_finish, s_lcp_host, s_total;
} sa_cuda_stats;

/* 1 when a CUDA device can be used; else 0 with pc_cuda_probe's reason in
 * why. The answer is probed once per process. */
int sa_cuda_available(char *why, size_t why_len);

/* The table's entries (sa.h's sa_build_fn): SA of T[0..n) into the
 * caller's SA; threads is used only by the host side of cuda-ms. Returns 0,
 * PC_EUNAVAIL, PC_ENOMEM (host), PC_EDEVICE (a CUDA call failed, or device
 * memory ran out) or PC_EVERIFY (the on-device permutation check failed). */
int sa_build_cuda(const uint8_t *T, int32_t n, int32_t *SA, int threads, pc_error *err);
int sa_build_cuda_ms(const uint8_t *T, int32_t n, int32_t *SA, int threads, pc_error *err);
int sa_build_cuda_dc(const uint8_t *T, int32_t n, int32_t *SA, int threads, pc_error *err);

/* The engine's execution models (sa_cuda_run's model): cuda (one stream),
 * cuda-ms (chunked, pinned, overlapped transfers) and cuda-dc (rounds over
 * the compacted unsorted suffixes once they fit, the difference-cover
 * sample where they do not shrink; cuda-ms's transfers, or cuda's with
 * SA_CUDA_DC_STAGED=0). */
enum { SA_CUDA_ONE_STREAM = 0, SA_CUDA_MULTI_STREAM = 1, SA_CUDA_DISCARD = 2 };

/* Full run: SA and, when LCP != NULL, the LCP array (LCP[0] = 0) computed
 * on the device by Phi / permuted LCP when the longest repeat is short
 * enough for it (see the README), else by Kasai on `threads` host threads.
 * model is one of the SA_CUDA_* above (in cuda-ms the SA download
 * overlaps the LCP kernels). stats may be NULL. */
int sa_cuda_run(const uint8_t *T, int32_t n, int32_t *SA, int32_t *LCP, int model,
                int threads, sa_cuda_stats *stats, pc_error *err);

/* Device memory is kept between calls in a memory pool of this module
 * (repeated calls then allocate nothing from the driver); this hands it
 * back to the driver. An allocation that fails trims the pool and retries
 * by itself. */
void sa_cuda_trim(void);

/* Tests only: caps the active suffixes per batch of a round (0: the
 * default, half of n), so that small inputs take the batched rounds and
 * the one-group batches. Not thread-safe; set it between calls. */
void sa_cuda_set_batch_items(long long items);

#ifdef __cplusplus
}
#endif

#endif
