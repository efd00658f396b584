/* sa_cuda_mem.cu - device probe, the module's memory pool, the per-call
 * context (streams, events, counted device buffers) and small helpers of
 * the GPU suffix-array engine. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <algorithm>

#include "sa_cuda_internal.h"

extern "C" int sa_cuda_available(char *why, size_t why_len)
{
    return pc_cuda_probe(why, why_len);
}


/* Device memory comes from a stream-ordered pool of our own that keeps
 * what a call frees for the next call (release threshold: unlimited): a
 * repeated call of the same size gets its buffers without going to the
 * driver, which cost 4-5 ms per call for the gigabytes of a 100 MB input.
 * sa_cuda_trim() hands the kept memory back; the pool is destroyed at
 * exit, before the CUDA runtime's own exit handler (registered earlier,
 * run later). */
static cudaMemPool_t g_pool;

static void pool_destroy(void)
{
    if (g_pool) {
        (void)cudaMemPoolDestroy(g_pool);
        g_pool = NULL;
    }
}

static int pool_get(pc_error *err)
{
    if (g_pool)
        return PC_OK;
    int dev = 0;
    PC_CU(cudaGetDevice(&dev), "cudaGetDevice");
    cudaMemPoolProps props;
    memset(&props, 0, sizeof props);
    props.allocType = cudaMemAllocationTypePinned;
    props.location.type = cudaMemLocationTypeDevice;
    props.location.id = dev;
    PC_CU(cudaMemPoolCreate(&g_pool, &props), "cudaMemPoolCreate");
    uint64_t keep = UINT64_MAX;
    PC_CU(cudaMemPoolSetAttribute(g_pool, cudaMemPoolAttrReleaseThreshold, &keep),
       "cudaMemPoolSetAttribute");
    if (atexit(pool_destroy) != 0)
        return pc_error_set(err, PC_EDEVICE, __FILE__, __LINE__, "atexit failed");
    return PC_OK;
}

extern "C" void sa_cuda_trim(void)
{
    if (g_pool && cudaMemPoolTrimTo(g_pool, 0) != cudaSuccess)
        (void)cudaGetLastError();
}

int sa_cuda_dev_alloc(sa_ctx *c, void **p, size_t bytes, const char *what, pc_error *err)
{
    *p = NULL;
    int slot = -1;
    for (int k = 0; k < SA_CUDA_MAX_BUFS && slot < 0; k++)
        if (!c->bufs[k])
            slot = k;
    if (slot < 0)
        return pc_error_set(err, PC_EINVAL, __FILE__, __LINE__, "too many device buffers");
    if (bytes == 0)
        bytes = 16;
    cudaError_t e = cudaMallocFromPoolAsync(p, bytes, g_pool, c->st[0]);
    if (e == cudaErrorMemoryAllocation) { /* memory kept from a larger call: give it back, retry */
        (void)cudaGetLastError();
        (void)cudaStreamSynchronize(c->st[0]);
        sa_cuda_trim();
        e = cudaMallocFromPoolAsync(p, bytes, g_pool, c->st[0]);
    }
    if (e != cudaSuccess) {
        *p = NULL;
        (void)cudaGetLastError();
        return pc_error_set(err, PC_EDEVICE, __FILE__, __LINE__,
                            "allocating %zu bytes of device memory for %s: %s (n = %lld needs about %lld bytes "
                            "of device memory, up to 21 n on periodic inputs; see docs/README-sa-cuda.md)",
                            bytes, what, cudaGetErrorString(e), c->n, 18 * c->n + (64ll << 20));
    }
    c->bufs[slot] = *p;
    c->sizes[slot] = bytes;
    c->cur += (long long)bytes;
    if (c->cur > c->peak)
        c->peak = c->cur;
    return PC_OK;
}

int sa_cuda_dev_free(sa_ctx *c, void *p, pc_error *err)
{
    if (!p)
        return PC_OK;
    for (int k = 0; k < SA_CUDA_MAX_BUFS; k++)
        if (c->bufs[k] == p) {
            c->bufs[k] = NULL;
            c->cur -= (long long)c->sizes[k];
            PC_CU(cudaFreeAsync(p, c->st[0]), "cudaFreeAsync");
            return PC_OK;
        }
    return pc_error_set(err, PC_EINVAL, __FILE__, __LINE__, "freeing an unknown device buffer");
}

/* Releases everything; safe on a partly built context. Errors here are
 * ignored: the call already has its result or its first error. */
void sa_cuda_ctx_release(sa_ctx *c)
{
    for (int k = 0; k < c->nst; k++)
        if (c->st[k])
            (void)cudaStreamSynchronize(c->st[k]);
    for (int k = 0; k < SA_CUDA_MAX_BUFS; k++)
        if (c->bufs[k])
            (void)cudaFreeAsync(c->bufs[k], c->st[0]);
    if (c->nst)
        (void)cudaStreamSynchronize(c->st[0]);
    if (c->hcnt)
        (void)cudaFreeHost(c->hcnt);
    for (int k = 0; k < c->nev; k++)
        (void)cudaEventDestroy(c->ev[k]);
    for (int k = 0; k < c->nst; k++)
        (void)cudaStreamDestroy(c->st[k]);
    (void)cudaGetLastError();
}

int sa_cuda_pool_high(long long *high, pc_error *err)
{
    uint64_t v = 0;
    PC_CU(cudaMemPoolGetAttribute(g_pool, cudaMemPoolAttrUsedMemHigh, &v), "cudaMemPoolGetAttribute");
    *high = (long long)v;
    return PC_OK;
}

int sa_cuda_ctx_init(sa_ctx *c, i64 n, int model, pc_error *err)
{
    c->n = n;
    /* cuda-dc moves its bytes as cuda-ms does (SA_CUDA_DC_STAGED=0: as
     * cuda, one stream, pageable copies) */
    const char *staged = getenv("SA_CUDA_DC_STAGED");
    c->ms = model == SA_CUDA_MULTI_STREAM || (model == SA_CUDA_DISCARD && !(staged && !strcmp(staged, "0")));
    c->discard = model == SA_CUDA_DISCARD;
    /* SA_CUDA_DC_SEGMENTED=1: cuda-dc's early rounds by segmented sorts
     * (sa_cuda_segsort.cu), off by default: measured slower on the H100
     * than cuda's rounds (README-sa-cuda.md) */
    const char *seg = getenv("SA_CUDA_DC_SEGMENTED");
    c->segmented = c->discard && seg && !strcmp(seg, "1");
    c->trace = getenv("SA_CUDA_TRACE") != NULL;
    /* SA_CUDA_DC_SAMPLE=0 turns cuda-dc's difference-cover sample off,
     * =16 or =32 picks a smaller modulus than the default 64
     * (sa_cuda_dcs.cu) */
    const char *smp = getenv("SA_CUDA_DC_SAMPLE");
    c->dcs_v = !c->discard ? 0 : !smp ? 64 : !strcmp(smp, "0") ? 0 : !strcmp(smp, "16") ? 16
                                                   : !strcmp(smp, "32") ? 32 : 64;
    /* from h = 16 on (its first ranks then come from 64 / h ranks of the
     * whole text); SA_CUDA_DC_EARLY=0: from h = v on */
    const char *early = getenv("SA_CUDA_DC_EARLY");
    c->dcs_next_h = early && !strcmp(early, "0") ? c->dcs_v : 16;
    int dev = 0, sms = 0;
    PC_CU(cudaGetDevice(&dev), "cudaGetDevice");
    PC_CU(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev), "cudaDeviceGetAttribute");
    c->blocks = std::max(1, sms) * 8;
    int rc = pool_get(err);
    if (rc)
        return rc;
    /* the driver's own count of this call's peak, beside ours */
    uint64_t zero = 0;
    PC_CU(cudaMemPoolSetAttribute(g_pool, cudaMemPoolAttrUsedMemHigh, &zero), "cudaMemPoolSetAttribute");
    for (int k = 0; k < (c->ms ? 3 : 1); k++) {
        PC_CU(cudaStreamCreateWithFlags(&c->st[k], cudaStreamNonBlocking), "cudaStreamCreate");
        c->nst++;
    }
    for (int k = 0; k < 4; k++) {
        PC_CU(cudaEventCreateWithFlags(&c->ev[k], cudaEventDisableTiming), "cudaEventCreate");
        c->nev++;
    }
    PC_CU(cudaHostAlloc((void **)&c->hcnt, (1 + SA_CUDA_CHUNKS) * sizeof(i64), cudaHostAllocDefault),
       "cudaHostAlloc");
    return PC_OK;
}

unsigned sa_cuda_grid(const sa_ctx *c, i64 items)
{
    i64 b = (items + 255) / 256;
    return (unsigned)std::max<i64>(1, std::min<i64>(b, c->blocks));
}

int sa_cuda_read_count(sa_ctx *c, i64 *out, pc_error *err)
{
    PC_CU(cudaMemcpyAsync(c->hcnt, c->cnt, sizeof(i64), cudaMemcpyDeviceToHost, c->st[0]),
       "reading a device counter");
    PC_CU(cudaStreamSynchronize(c->st[0]), "cudaStreamSynchronize");
    *out = *c->hcnt;
    return PC_OK;
}

int sa_cuda_bits_for(i64 x)
{
    int b = 1;
    while (b < 63 && (x >> b) != 0)
        b++;
    return b;
}
