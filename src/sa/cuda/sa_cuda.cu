/* sa_cuda.cu - suffix arrays on the GPU: the engine and the C entry points
 * of `cuda`, `cuda-ms` and `cuda-dc`.
 *
 * One prefix-doubling engine serves all three. cuda-ms only changes how the
 * bytes travel (chunks through pinned staging buffers on two streams, the
 * host copies of one chunk overlapping the PCIe copy of the next, and the
 * SA download overlapping the LCP kernels); cuda-dc changes the rounds
 * once the unsorted suffixes are few enough: they are kept compacted, so a
 * round costs what they cost, not a pass over all of SA. The phases live in
 * files of their own (sa_cuda_internal.h lists them);
 * docs/README-sa-cuda.md has the design, the device-memory model and the
 * measurements. */
#include <stdio.h>
#include <string.h>

#include <algorithm>

#include "sa_cuda_internal.h"

/* One call on n >= 2 characters: buffers, CUB storage, then the phases
 * (upload, initial sort, rounds, check, download and LCP) and statistics. */
static int sa_cuda_engine(sa_ctx *c, const uint8_t *Th, int32_t *SAh, int32_t *LCPh, int threads,
                          sa_cuda_stats *st, pc_error *err)
{
    const i64 n = c->n;
    cudaStream_t s0 = c->st[0];
    int rc;
    double t0 = pc_time_now();
    i64 words = (n + 31) / 32;
    i64 bcap = (n + 1) / 2;
    if ((rc = sa_cuda_dev_alloc(c, (void **)&c->T, (size_t)n, "the text", err)) ||
        (rc = sa_cuda_dev_alloc(c, (void **)&c->ISA, (size_t)n * 4, "ISA", err)) ||
        (rc = sa_cuda_dev_alloc(c, (void **)&c->SA, (size_t)n * 4, "SA", err)) ||
        (rc = sa_cuda_dev_alloc(c, (void **)&c->pool, (size_t)bcap * 16, "the sort buffers", err)) ||
        (rc = sa_cuda_dev_alloc(c, (void **)&c->act, (size_t)words * 4, "the active bits", err)) ||
        (rc = sa_cuda_dev_alloc(c, (void **)&c->cnt, sizeof(i64), "a counter", err)) ||
        (rc = sa_cuda_dev_alloc(c, (void **)&c->hist, 256 * sizeof(unsigned), "the histogram", err)) ||
        (rc = sa_cuda_dev_alloc(c, (void **)&c->ccnt, SA_CUDA_CHUNKS * 4, "the chunk counts", err)) ||
        (rc = sa_cuda_dev_alloc(c, (void **)&c->cgs, SA_CUDA_CHUNKS * 4, "the chunk group starts", err)))
        return rc;
    if (c->segmented && sa_cuda_seg_cap(c) < 64) /* tiny inputs: cuda's rounds, then compacted */
        c->segmented = 0;
    c->bcap = sa_cuda_batch_items() ? std::min(sa_cuda_batch_items(), bcap) : bcap;
    uint32_t *K0 = c->pool, *K1 = c->pool + n;
    /* CUB temporary storage: the largest of the calls below, once. */
    {
        size_t b = 0, mx = 0;
        cub::DoubleBuffer<uint32_t> dk(K0, K1);
        cub::DoubleBuffer<int32_t> dv(c->ISA, c->SA);
        PC_CU(sa_cub_sort(NULL, b, dk, dv, n, 32, s0), "sizing the radix sort");
        mx = std::max(mx, b);
        PC_CU(sa_cub_select(NULL, b, c->SA, sel_active{ c->act, c->ISA, 0, 0, 1 }, c->ISA, c->cnt, n, 1, s0),
           "sizing the select");
        mx = std::max(mx, b);
        PC_CU(sa_cub_select_pairs(NULL, b, c->SA, c->ISA, c->act, 0, 1, (uint64_t *)K0, c->cnt, n, 1, s0),
           "sizing the select");
        mx = std::max(mx, b);
        PC_CU(sa_cub_scan_heads(NULL, b, K0, K1, n, s0), "sizing the scan");
        mx = std::max(mx, b);
        PC_CU(sa_cub_split(NULL, b, K0, 0, c->ISA, c->ISA, K1, c->SA, n, 1, n, s0), "sizing the scan");
        mx = std::max(mx, b);
        PC_CU(sa_cub_count(NULL, b, c->act, c->cnt, words, s0), "sizing the reduction");
        mx = std::max(mx, b);
        PC_CU(sa_cub_longest(NULL, b, K0, c->cnt, n, s0), "sizing the reduction");
        mx = std::max(mx, b);
        if (c->discard) {
            if ((rc = sa_cuda_compact_tmp(c, &b, err)))
                return rc;
            mx = std::max(mx, b);
            if ((rc = sa_cuda_dcs_tmp(c, &b, err)))
                return rc;
            mx = std::max(mx, b);
        }
        if (c->segmented) {
            if ((rc = sa_cuda_seg_tmp(c, &b, err)))
                return rc;
            mx = std::max(mx, b);
        }
        c->tmp_bytes = mx;
        if ((rc = sa_cuda_dev_alloc(c, &c->tmp, mx, "CUB temporary storage", err)))
            return rc;
    }
    PC_CU(cudaMemsetAsync(c->hist, 0, 256 * sizeof(unsigned), s0), "cudaMemset");
    PC_CU(cudaMemsetAsync(c->act, 0, (size_t)words * 4, s0), "cudaMemset");
    if (c->ms) {
        PC_CU(cudaStreamSynchronize(s0), "cudaStreamSynchronize");
        if ((rc = sa_cuda_upload_staged(c, Th, threads, err)))
            return rc;
    } else {
        PC_CU(cudaMemcpyAsync(c->T, Th, (size_t)n, cudaMemcpyHostToDevice, s0), "uploading the text");
        if ((rc = sa_cuda_hist(c, c->T, n, c->hist, (int)sa_cuda_grid(c, n), s0, err)))
            return rc;
    }
    unsigned hist[256];
    PC_CU(cudaMemcpyAsync(hist, c->hist, sizeof hist, cudaMemcpyDeviceToHost, s0), "reading the histogram");
    PC_CU(cudaStreamSynchronize(s0), "uploading the text");
    double t1 = pc_time_now();

    sa_init_out io;
    if ((rc = sa_cuda_init_sort(c, hist, &io, err)))
        return rc;
    /* cuda-dc's sample compares characters when it starts below h = v */
    if (!LCPh && !c->dcs_v && (rc = sa_cuda_dev_free(c, c->T, err)) == PC_OK)
        c->T = NULL;
    if (rc)
        return rc;
    double t2 = pc_time_now();

    sa_rounds_out ro;
    memset(&ro, 0, sizeof ro);
    if ((rc = sa_cuda_rounds(c, io.h, io.m1, &ro, err)))
        return rc;
    i64 h = ro.h;
    double t3 = pc_time_now();

    if ((rc = sa_cuda_check(c, err)))
        return rc;
    double t4 = pc_time_now();

    int lcp_gpu = 0;
    double s_lcp_host = 0;
    if ((rc = sa_cuda_finish(c, Th, SAh, LCPh, h, threads, &lcp_gpu, &s_lcp_host, err)))
        return rc;
    if (st) {
        st->device_peak_bytes = c->peak;
        if ((rc = sa_cuda_pool_high(&st->pool_peak_bytes, err)))
            return rc;
        st->rounds = ro.rounds;
        st->compact_rounds = ro.compact_rounds;
        st->sample_v = ro.sample_v;
        st->sample_rounds = ro.sample_rounds;
        st->sample_items = ro.sample_items;
        st->sample_groups = ro.sample_groups;
        st->sample_from_h = ro.sample_from_h;
        st->max_batches = ro.max_batches;
        st->group_batches = ro.groups;
        st->longest_group = io.longest;
        st->chars_per_word = io.k;
        st->initial_words = io.W;
        st->bits_per_char = io.b;
        st->h_final = h;
        st->active_after_init = io.m1;
        st->lcp_on_gpu = lcp_gpu;
        st->s_upload = t1 - t0;
        st->s_init = t2 - t1;
        st->s_rounds = t3 - t2;
        st->s_check = t4 - t3;
        st->s_finish = pc_time_now() - t4;
        st->s_lcp_host = s_lcp_host;
        st->s_total = pc_time_now() - t0;
    }
    return PC_OK;
}

/* Contract in sa_cuda.h. */
extern "C" int sa_cuda_run(const uint8_t *T, int32_t n, int32_t *SA, int32_t *LCP, int model,
                           int threads, sa_cuda_stats *stats, pc_error *err)
{
    char why[256];
    if (stats)
        memset(stats, 0, sizeof *stats);
    if (!sa_cuda_available(why, sizeof why))
        return pc_error_set(err, PC_EUNAVAIL, NULL, 0, "%s", why);
    if (n < 0 || (n > 0 && (!T || !SA)) || model < SA_CUDA_ONE_STREAM || model > SA_CUDA_DISCARD)
        return pc_error_set(err, PC_EINVAL, __FILE__, __LINE__, "bad arguments (n = %d, model %d)", (int)n,
                            model);
    if (n < 2) { /* nothing to sort; the device is not needed */
        if (n == 1) {
            SA[0] = 0;
            if (LCP)
                LCP[0] = 0;
        }
        return PC_OK;
    }
    sa_ctx c;
    memset(&c, 0, sizeof c);
    int rc = sa_cuda_ctx_init(&c, n, model, err);
    if (rc == PC_OK)
        rc = sa_cuda_engine(&c, T, SA, LCP, threads < 1 ? 1 : std::min(threads, 16), stats, err);
    sa_cuda_ctx_release(&c);
    return rc;
}

/* The table's entries: cuda, cuda-dc, cuda-ms (sa_cuda.h). */
extern "C" int sa_build_cuda(const uint8_t *T, int32_t n, int32_t *SA, int threads, pc_error *err)
{
    return sa_cuda_run(T, n, SA, NULL, SA_CUDA_ONE_STREAM, threads, NULL, err);
}

extern "C" int sa_build_cuda_dc(const uint8_t *T, int32_t n, int32_t *SA, int threads,
                                pc_error *err)
{
    return sa_cuda_run(T, n, SA, NULL, SA_CUDA_DISCARD, threads, NULL, err);
}

extern "C" int sa_build_cuda_ms(const uint8_t *T, int32_t n, int32_t *SA, int threads,
                                pc_error *err)
{
    return sa_cuda_run(T, n, SA, NULL, SA_CUDA_MULTI_STREAM, threads, NULL, err);
}
