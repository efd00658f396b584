/* sa_cuda_stage.cu - cuda-ms's transfers: the text goes up and SA (and
 * LCP) come back in chunks through two pinned staging buffers on two
 * streams, the host copy of one chunk overlapping the PCIe copy of the
 * next. */
#include <string.h>

#include <algorithm>
#include <thread>
#include <vector>

#include "sa_cuda_internal.h"

/* memcpy on up to nt threads (the host side of the staged copies). */
static void par_memcpy(void *dst, const void *src, size_t bytes, int nt)
{
    nt = std::min(nt, SA_CUDA_COPY_THREADS);
    if (nt <= 1 || bytes < ((size_t)1 << 20)) {
        memcpy(dst, src, bytes);
        return;
    }
    std::vector<std::thread> th;
    size_t part = (bytes + (size_t)nt - 1) / (size_t)nt;
    for (int k = 1; k < nt; k++) {
        size_t lo = part * (size_t)k;
        if (lo >= bytes)
            break;
        size_t len = std::min(part, bytes - lo);
        th.emplace_back([=] { memcpy((char *)dst + lo, (const char *)src + lo, len); });
    }
    memcpy(dst, src, std::min(part, bytes));
    for (auto &t : th)
        t.join();
}

/* Pinned staging buffers of cuda-ms, kept for the process's lifetime
 * (pinning costs milliseconds per call otherwise) and freed at exit, before
 * the CUDA runtime's own exit handler (registered earlier, run later). */
static uint8_t *g_stage[2];

static void stage_free(void)
{
    for (int k = 0; k < 2; k++)
        if (g_stage[k]) {
            (void)cudaFreeHost(g_stage[k]);
            g_stage[k] = NULL;
        }
}

static int stage_get(pc_error *err)
{
    static int registered = 0;
    if (!registered) {
        if (atexit(stage_free) != 0)
            return pc_error_set(err, PC_EDEVICE, __FILE__, __LINE__, "atexit failed");
        registered = 1;
    }
    for (int k = 0; k < 2; k++)
        if (!g_stage[k])
            PC_CU(cudaHostAlloc((void **)&g_stage[k], SA_CUDA_STAGE_BYTES, cudaHostAllocDefault),
               "cudaHostAlloc (pinned staging buffer)");
    return PC_OK;
}

/* cuda-ms upload: chunk k goes host -> pinned buffer k % 2 (host threads)
 * -> device on stream k % 2 while the host fills the other buffer. */
int sa_cuda_upload_staged(sa_ctx *c, const uint8_t *T, int nt, pc_error *err)
{
    int rc = stage_get(err);
    if (rc)
        return rc;
    size_t n = (size_t)c->n, CH = SA_CUDA_STAGE_BYTES;
    for (size_t off = 0, k = 0; off < n; off += CH, k++) {
        int b = (int)(k & 1);
        size_t len = std::min(CH, n - off);
        PC_CU(cudaEventSynchronize(c->ev[b]), "waiting for a staging buffer");
        par_memcpy(g_stage[b], T + off, len, nt);
        PC_CU(cudaMemcpyAsync(c->T + off, g_stage[b], len, cudaMemcpyHostToDevice, c->st[1 + b]),
           "uploading the text");
        if ((rc = sa_cuda_hist(c, c->T + off, (i64)len, c->hist, 64, c->st[1 + b], err)))
            return rc;
        PC_CU(cudaEventRecord(c->ev[b], c->st[1 + b]), "cudaEventRecord");
    }
    for (int b = 0; b < 2; b++)
        PC_CU(cudaStreamWaitEvent(c->st[0], c->ev[b], 0), "cudaStreamWaitEvent");
    return PC_OK;
}

/* cuda-ms download of count int32 from dev: device -> pinned buffer on
 * streams 1 and 2 (after `ready` on stream 0) while the host moves the
 * previous chunk into place. */
int sa_cuda_download_staged(sa_ctx *c, int32_t *host, const int32_t *dev, i64 count,
                           cudaEvent_t ready, int nt, pc_error *err)
{
    int rc = stage_get(err);
    if (rc)
        return rc;
    size_t bytes = (size_t)count * 4, CH = SA_CUDA_STAGE_BYTES;
    size_t nch = (bytes + CH - 1) / CH;
    for (int b = 0; b < 2; b++) {
        PC_CU(cudaEventSynchronize(c->ev[b]), "waiting for a staging buffer");
        PC_CU(cudaStreamWaitEvent(c->st[1 + b], ready, 0), "cudaStreamWaitEvent");
    }
    for (size_t k = 0; k < nch && k < 2; k++) {
        size_t off = k * CH, len = std::min(CH, bytes - off);
        PC_CU(cudaMemcpyAsync(g_stage[k], (const char *)dev + off, len, cudaMemcpyDeviceToHost,
                           c->st[1 + k]), "downloading");
        PC_CU(cudaEventRecord(c->ev[k], c->st[1 + k]), "cudaEventRecord");
    }
    for (size_t k = 0; k < nch; k++) {
        int b = (int)(k & 1);
        size_t off = k * CH, len = std::min(CH, bytes - off);
        PC_CU(cudaEventSynchronize(c->ev[b]), "downloading");
        par_memcpy((char *)host + off, g_stage[b], len, nt);
        if (k + 2 < nch) {
            size_t o2 = (k + 2) * CH, l2 = std::min(CH, bytes - o2);
            PC_CU(cudaMemcpyAsync(g_stage[b], (const char *)dev + o2, l2, cudaMemcpyDeviceToHost,
                               c->st[1 + b]), "downloading");
            PC_CU(cudaEventRecord(c->ev[b], c->st[1 + b]), "cudaEventRecord");
        }
    }
    return PC_OK;
}
