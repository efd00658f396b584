/* pets_ocl.c - host side of the `ocl` and `ocl-vec8` implementations:
 * platform and device choice, the embedded program (built once per
 * process and device), buffers, the frontier loop and the bitonic sort;
 * processor selection then runs on the host (pets_select_run, the ready
 * times of each level on o->threads OpenMP threads). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pc_alloc.h"
#include "pc_time.h"
#include "pets_priv.h"
#include "pets_stream.h"

#if PC_HAVE_OPENCL
#include <CL/cl.h>

#include "pets_kernels.h"

#define OCL_MAX_PLATFORMS 16
#define OCL_MAX_DEVICES 16

enum { K_ENTRY, K_METRICS, K_METRICS8, K_METRICS_G, K_METRICS8_G, K_INIT, K_STEP, K_LOCAL,
       K_SEGMENT, K_GATHER, K_COUNT };
static const char *const k_names[K_COUNT] = {"entry_discover", "compute_metrics",
                                             "compute_metrics_vec8", "compute_metrics_grid",
                                             "compute_metrics_vec8_grid", "bitonic_init",
                                             "bitonic_step", "bitonic_local", "segment_sort",
                                             "gather_keys"};

/* Test hook (pets_priv.h): how many grid launches gave up (a group that
 * never started) and were redone a launch per level. */
int g_pets_ocl_grid_fallbacks = 0;

/* PETS_BLOCK of pets.cl, the elements one bitonic_local work group sorts:
 * the largest power of two from 512 to 4096 whose keys (24 bytes each)
 * take at most half the device's local memory, with a work group of half
 * as many work-items allowed. */
static int ocl_block_size(cl_device_id dev)
{
    cl_ulong lmem = 0;
    size_t maxwg = 0;
    clGetDeviceInfo(dev, CL_DEVICE_LOCAL_MEM_SIZE, sizeof lmem, &lmem, NULL);
    clGetDeviceInfo(dev, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof maxwg, &maxwg, NULL);
    int b = 512;
    while (b < 4096 && (cl_ulong)b * 2 * 24 <= lmem / 2 && (size_t)b <= maxwg)
        b *= 2;
    return b;
}

/* The state kept between runs: building the program is slow (PoCL compiles
 * it), so it is made once per process for the chosen device. */
static struct {
    int ready;
    int want_plat, want_dev; /* the request it answers (-1 = default) */
    cl_device_id dev;
    cl_context ctx;
    cl_command_queue q;
    cl_program prog;
    cl_kernel k[K_COUNT];
    char name[256];
    int block; /* PETS_BLOCK the program was built with */
} g_ocl;

void pets_ocl_release(void)
{
    for (int i = 0; i < K_COUNT; i++)
        if (g_ocl.k[i])
            clReleaseKernel(g_ocl.k[i]);
    if (g_ocl.prog)
        clReleaseProgram(g_ocl.prog);
    if (g_ocl.q)
        clReleaseCommandQueue(g_ocl.q);
    if (g_ocl.ctx)
        clReleaseContext(g_ocl.ctx);
    memset(&g_ocl, 0, sizeof g_ocl);
}

/* Picks platform/device: explicit indices, else the first GPU of any
 * platform, else the first device of any platform. */
static int ocl_pick(int want_plat, int want_dev, cl_device_id *out, char *why, size_t whylen)
{
    cl_platform_id plats[OCL_MAX_PLATFORMS];
    cl_uint np = 0;
    if (clGetPlatformIDs(OCL_MAX_PLATFORMS, plats, &np) != CL_SUCCESS || np == 0) {
        snprintf(why, whylen, "no OpenCL platform (clGetPlatformIDs found none)");
        return 0;
    }
    if (np > OCL_MAX_PLATFORMS)
        np = OCL_MAX_PLATFORMS;
    if (want_plat >= (int)np) {
        snprintf(why, whylen, "--cl-platform %d: only %u platform(s)", want_plat, np);
        return 0;
    }
    for (int pass = 0; pass < 2; pass++) {
        for (cl_uint p = 0; p < np; p++) {
            if (want_plat >= 0 && (int)p != want_plat)
                continue;
            cl_device_id devs[OCL_MAX_DEVICES];
            cl_uint nd = 0;
            if (clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, OCL_MAX_DEVICES, devs, &nd) != CL_SUCCESS)
                nd = 0;
            if (nd > OCL_MAX_DEVICES)
                nd = OCL_MAX_DEVICES;
            if (want_dev >= 0) {
                if (want_plat < 0 && want_dev >= (int)nd)
                    continue;
                if (want_dev >= (int)nd) {
                    snprintf(why, whylen, "--cl-device %d: platform %d has %u device(s)", want_dev, want_plat, nd);
                    return 0;
                }
                *out = devs[want_dev];
                return 1;
            }
            for (cl_uint d = 0; d < nd; d++) {
                cl_device_type t = 0;
                clGetDeviceInfo(devs[d], CL_DEVICE_TYPE, sizeof t, &t, NULL);
                if (pass == 1 || (t & CL_DEVICE_TYPE_GPU)) {
                    *out = devs[d];
                    return 1;
                }
            }
        }
    }
    snprintf(why, whylen, "no OpenCL device%s", want_plat >= 0 ? " on that platform" : "");
    return 0;
}

static int ocl_init(const pets_options *o, pc_error *err)
{
    if (g_ocl.ready && g_ocl.want_plat == o->cl_platform && g_ocl.want_dev == o->cl_device)
        return PC_OK;
    pets_ocl_release();
    char why[256];
    cl_device_id dev;
    if (!ocl_pick(o->cl_platform, o->cl_device, &dev, why, sizeof why))
        return pc_error_set(err, PC_EUNAVAIL, NULL, 0, "%s", why);
    cl_int e;
    g_ocl.dev = dev;
    clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof g_ocl.name - 1, g_ocl.name, NULL);
    g_ocl.ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &e);
    if (e != CL_SUCCESS)
        goto fail;
    g_ocl.q = clCreateCommandQueue(g_ocl.ctx, dev, 0, &e);
    if (e != CL_SUCCESS)
        goto fail;
    const char *src = pets_cl_source;
    g_ocl.prog = clCreateProgramWithSource(g_ocl.ctx, 1, &src, NULL, &e);
    if (e != CL_SUCCESS)
        goto fail;
    g_ocl.block = ocl_block_size(dev);
    char opts[64];
    snprintf(opts, sizeof opts, "-DPETS_BLOCK=%d", g_ocl.block);
    e = clBuildProgram(g_ocl.prog, 1, &dev, opts, NULL, NULL);
    if (e != CL_SUCCESS) {
        size_t loglen = 0;
        clGetProgramBuildInfo(g_ocl.prog, dev, CL_PROGRAM_BUILD_LOG, 0, NULL, &loglen);
        char *log = pc_malloc(loglen + 1);
        if (log) {
            clGetProgramBuildInfo(g_ocl.prog, dev, CL_PROGRAM_BUILD_LOG, loglen, log, NULL);
            log[loglen] = '\0';
            fprintf(stderr, "pets.cl: build log for %s:\n%s\n", g_ocl.name, log);
        }
        pc_error_set(err, PC_EDEVICE, "pets.cl", 0, "kernel build failed on %s (error %d): %.300s",
                     g_ocl.name, (int)e, log ? log : "");
        pc_free(log);
        pets_ocl_release();
        return PC_EDEVICE;
    }
    for (int i = 0; i < K_COUNT; i++) {
        g_ocl.k[i] = clCreateKernel(g_ocl.prog, k_names[i], &e);
        if (e != CL_SUCCESS)
            goto fail;
    }
    g_ocl.want_plat = o->cl_platform;
    g_ocl.want_dev = o->cl_device;
    g_ocl.ready = 1;
    return PC_OK;
fail:
    pets_ocl_release();
    return pc_error_set(err, PC_EDEVICE, NULL, 0, "OpenCL set-up failed (error %d)", (int)e);
}

int pets_ocl_available(const pets_options *o, char *why, size_t whylen)
{
    cl_device_id dev;
    if (whylen)
        why[0] = '\0';
    return ocl_pick(o->cl_platform, o->cl_device, &dev, why, whylen);
}

void pets_ocl_list(FILE *f)
{
    cl_platform_id plats[OCL_MAX_PLATFORMS];
    cl_uint np = 0;
    if (clGetPlatformIDs(OCL_MAX_PLATFORMS, plats, &np) != CL_SUCCESS)
        np = 0;
    for (cl_uint p = 0; p < np && p < OCL_MAX_PLATFORMS; p++) {
        cl_device_id devs[OCL_MAX_DEVICES];
        cl_uint nd = 0;
        char pn[256] = "";
        clGetPlatformInfo(plats[p], CL_PLATFORM_NAME, sizeof pn - 1, pn, NULL);
        if (clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, OCL_MAX_DEVICES, devs, &nd) != CL_SUCCESS)
            nd = 0;
        for (cl_uint d = 0; d < nd && d < OCL_MAX_DEVICES; d++) {
            char dn[256] = "";
            clGetDeviceInfo(devs[d], CL_DEVICE_NAME, sizeof dn - 1, dn, NULL);
            fprintf(f, "  opencl %u.%u: %s / %s\n", p, d, pn, dn);
        }
    }
}

/* Device buffers of one run. */
enum { B_INDEG, B_LEFT, B_QUEUE, B_OFFS, B_COUNT, B_SIZES, B_POFF, B_PRED, B_SOFF, B_SUCC, B_SCOMM,
       B_COST, B_LEV, B_RS, B_RANK, B_SUM, B_PERM, B_KLEV, B_KRANK, B_KSUM, B_BAR, B_NBUF };

/* Spare entries after the edge lists: compute_metrics_vec8 reads eight at
 * a time and may pass the last row's end. */
#define OCL_LIST_SLACK 8
/* Launches of the frontier loop per read of their sizes: the first chunk,
 * doubled after each chunk up to the last (a graph of few levels wastes
 * few empty launches, a deep one reads rarely). */
#define OCL_CHUNK_FIRST 8
#define OCL_CHUNK_MAX 256

typedef struct ocl_run {
    cl_mem b[B_NBUF];
    int32_t *indeg;
    int32_t *sizes; /* frontier sizes of one chunk, read back */
} ocl_run;

static void run_free(ocl_run *r)
{
    for (int i = 0; i < B_NBUF; i++)
        if (r->b[i])
            clReleaseMemObject(r->b[i]);
    pc_free(r->indeg);
    pc_free(r->sizes);
}

static int ocl_buf(ocl_run *r, int i, size_t bytes, cl_int *e)
{
    r->b[i] = clCreateBuffer(g_ocl.ctx, CL_MEM_READ_WRITE, bytes ? bytes : 8, NULL, e);
    return *e == CL_SUCCESS;
}

static int ocl_write(int i, const ocl_run *r, const void *p, size_t bytes, cl_int *e)
{
    if (!bytes)
        return 1;
    *e = clEnqueueWriteBuffer(g_ocl.q, r->b[i], CL_FALSE, 0, bytes, p, 0, NULL, NULL);
    return *e == CL_SUCCESS;
}

#define ARG(kn, i, v) (e = e != CL_SUCCESS ? e : clSetKernelArg(g_ocl.k[kn], (i), sizeof(v), &(v)))

/* How the priority order is sorted on the device. SORT_SEGMENT: one
 * work-item per level sorts that level's segment of the frontier queue
 * (merge sort); on a CPU device (PoCL), where the bitonic network's
 * log^2 N passes over every task took 0.26 s at 2^19 here against 0.09 s
 * for the host's qsort. SORT_BITONIC: the network over all tasks, one
 * launch per step, and SORT_LOCAL: the same with the short steps merged
 * in local memory; on a GPU, where local memory is on chip (0.001 s at
 * 2^19 on the H100). PARCHECK_PETS_SORT=segment|bitonic|local decides
 * instead (the tests run every path on whatever device there is). */
enum { SORT_SEGMENT, SORT_BITONIC, SORT_LOCAL };

static int ocl_sort_mode(void)
{
    const char *env = getenv("PARCHECK_PETS_SORT");
    if (env && !strcmp(env, "segment"))
        return SORT_SEGMENT;
    if (env && !strcmp(env, "bitonic"))
        return SORT_BITONIC;
    if (env && !strcmp(env, "local"))
        return SORT_LOCAL;
    cl_device_type t = 0;
    clGetDeviceInfo(g_ocl.dev, CL_DEVICE_TYPE, sizeof t, &t, NULL);
    return (t & CL_DEVICE_TYPE_GPU) ? SORT_LOCAL : SORT_SEGMENT;
}

/* Whether levels and ranks run in one launch for all levels (the grid
 * kernel: as many work groups as the device runs at once, levels
 * separated by a barrier over all of them) rather than one launch per
 * level. Opt-in (PARCHECK_PETS_METRICS=grid; =levels is the default on
 * every device) because it does not pay: on the H100 at 2^19 tasks (724
 * levels) the grid took 0.024 s for ocl and 0.016-0.017 s for ocl-vec8,
 * a launch per level 0.022 and 0.017-0.018 s, so a level costs about
 * 30 us either way, in the level's chains of dependent loads and atomics
 * rather than in the launch; one work group for all levels (tried first)
 * took 0.059 s. PARCHECK_PETS_GRID_GROUPS sets the number of groups
 * (default: one per compute unit) and PARCHECK_PETS_GRID_SPIN how long a
 * barrier waits before the grid gives up (the tests make it give up).
 * The tests run both paths. */
static int ocl_metrics_grid(void)
{
    const char *env = getenv("PARCHECK_PETS_METRICS");
    return env && !strcmp(env, "grid");
}

/* A positive integer from the environment, else dflt. */
static int env_positive(const char *name, int dflt)
{
    const char *env = getenv(name);
    long v = env ? strtol(env, NULL, 10) : 0;
    return v > 0 && v <= (1L << 30) ? (int)v : dflt;
}

static size_t round_up(size_t x, size_t m)
{
    return (x + m - 1) / m * m;
}

/* Work-items of one frontier launch: they stride over the frontier, so
 * this only needs to fill the device; a CPU device (PoCL) pays per
 * work-group and gets a few per core. */
static size_t ocl_frontier_items(void)
{
    cl_uint cu = 1;
    cl_device_type t = 0;
    clGetDeviceInfo(g_ocl.dev, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof cu, &cu, NULL);
    clGetDeviceInfo(g_ocl.dev, CL_DEVICE_TYPE, sizeof t, &t, NULL);
    size_t per = (t & CL_DEVICE_TYPE_GPU) ? 256 : 64;
    return (size_t)(cu ? cu : 1) * per;
}


/* The grid kernel kk (its metrics arguments set) over the first
 * frontier: *nlev levels, *done tasks reached. PC_OK; OCL_GRID_GAVE_UP
 * when a barrier waited too long (the device then holds a partial
 * result: the caller starts again); PC_EDEVICE with *e set on an OpenCL
 * error, or with an error in err when the device's counts are
 * impossible. */
#define OCL_GRID_GAVE_UP 1
static int ocl_grid(ocl_run *r, int kk, int n, int *nlev, int *done, cl_int *e, pc_error *err)
{
    cl_uint cu = 1;
    size_t wg = 0;
    clGetDeviceInfo(g_ocl.dev, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof cu, &cu, NULL);
    clGetKernelWorkGroupInfo(g_ocl.k[kk], g_ocl.dev, CL_KERNEL_WORK_GROUP_SIZE, sizeof wg, &wg, NULL);
    wg = wg > 256 ? 256 : wg < 1 ? 1 : wg;
    size_t groups = (size_t)env_positive("PARCHECK_PETS_GRID_GROUPS", cu ? (int)cu : 1);
    size_t gs = groups * wg;
    int spin = env_positive("PARCHECK_PETS_GRID_SPIN", 1 << 24);
    int zero[2] = {0, 0}, got[3];
    *e = clSetKernelArg(g_ocl.k[kk], 0, sizeof spin, &spin);
    if (*e == CL_SUCCESS)
        *e = clSetKernelArg(g_ocl.k[kk], 1, sizeof r->b[B_BAR], &r->b[B_BAR]);
    if (*e != CL_SUCCESS ||
        (*e = clEnqueueWriteBuffer(g_ocl.q, r->b[B_BAR], CL_FALSE, 0, 8, zero, 0, NULL, NULL)) ||
        (*e = clEnqueueNDRangeKernel(g_ocl.q, g_ocl.k[kk], 1, NULL, &gs, &wg, 0, NULL, NULL)) ||
        (*e = clEnqueueReadBuffer(g_ocl.q, r->b[B_BAR], CL_FALSE, 4, 4, &got[2], 0, NULL, NULL)) ||
        (*e = clEnqueueReadBuffer(g_ocl.q, r->b[B_COUNT], CL_TRUE, 12, 4, &got[0], 0, NULL, NULL)))
        return PC_EDEVICE;
    if (got[2])
        return OCL_GRID_GAVE_UP;
    if (got[0] < 0 || got[0] > n)
        return pc_error_set(err, PC_EDEVICE, NULL, 0, "%d levels for %d tasks", got[0], n);
    if ((*e = clEnqueueReadBuffer(g_ocl.q, r->b[B_OFFS], CL_TRUE, (size_t)got[0] * 4, 4, &got[1], 0,
                                  NULL, NULL)))
        return PC_EDEVICE;
    *nlev = got[0];
    *done = got[1];
    return PC_OK;
}

/* The bitonic sort of N >= n slots into perm (padding sorts after every
 * task), enqueued; want_local: the short steps merged in local memory
 * where the device allows work groups of half a block. PC_OK, or
 * PC_EDEVICE with the OpenCL error in *e. */
static int ocl_bitonic(ocl_run *r, int n, size_t N, int want_local, cl_int *e)
{
#define ARGB(kn, i, v) (*e = *e != CL_SUCCESS ? *e : clSetKernelArg(g_ocl.k[kn], (i), sizeof(v), &(v)))
    int Ni = (int)N;
    ARGB(K_INIT, 0, Ni);
    ARGB(K_INIT, 1, n);
    ARGB(K_INIT, 2, r->b[B_PERM]);
    ARGB(K_INIT, 3, r->b[B_LEV]);
    ARGB(K_INIT, 4, r->b[B_RANK]);
    ARGB(K_INIT, 5, r->b[B_SUM]);
    ARGB(K_INIT, 6, r->b[B_KLEV]);
    ARGB(K_INIT, 7, r->b[B_KRANK]);
    ARGB(K_INIT, 8, r->b[B_KSUM]);
    ARGB(K_STEP, 0, Ni);
    ARGB(K_STEP, 1, n);
    ARGB(K_STEP, 4, r->b[B_PERM]);
    ARGB(K_STEP, 5, r->b[B_KLEV]);
    ARGB(K_STEP, 6, r->b[B_KRANK]);
    ARGB(K_STEP, 7, r->b[B_KSUM]);
    size_t gs = round_up(N, 64);
    if (*e != CL_SUCCESS ||
        (*e = clEnqueueNDRangeKernel(g_ocl.q, g_ocl.k[K_INIT], 1, NULL, &gs, NULL, 0, NULL, NULL)) != CL_SUCCESS)
        return PC_EDEVICE;
    /* steps of distance below the block run in local memory, one launch
     * for all of them per merge size, where the device allows work groups
     * of half a block */
    size_t wg = 0, half = (size_t)g_ocl.block / 2;
    clGetKernelWorkGroupInfo(g_ocl.k[K_LOCAL], g_ocl.dev, CL_KERNEL_WORK_GROUP_SIZE, sizeof wg, &wg, NULL);
    int local = N >= (size_t)g_ocl.block && wg >= half && want_local;
    size_t lgs = N / 2;
    ARGB(K_LOCAL, 0, n);
    ARGB(K_LOCAL, 3, r->b[B_PERM]);
    ARGB(K_LOCAL, 4, r->b[B_KLEV]);
    ARGB(K_LOCAL, 5, r->b[B_KRANK]);
    ARGB(K_LOCAL, 6, r->b[B_KSUM]);
    if (local) {
        int k0 = 0, j0 = 0;
        ARGB(K_LOCAL, 1, k0);
        ARGB(K_LOCAL, 2, j0);
        if (*e != CL_SUCCESS ||
            (*e = clEnqueueNDRangeKernel(g_ocl.q, g_ocl.k[K_LOCAL], 1, NULL, &lgs, &half, 0, NULL, NULL)) != CL_SUCCESS)
            return PC_EDEVICE;
    }
    gs = round_up(N / 2, 64);
    for (int k = local ? 2 * g_ocl.block : 2; k <= Ni; k <<= 1) {
        for (int j = k >> 1; j > 0; j >>= 1) {
            if (local && j < g_ocl.block) {
                ARGB(K_LOCAL, 1, k);
                ARGB(K_LOCAL, 2, j);
                if (*e != CL_SUCCESS ||
                    (*e = clEnqueueNDRangeKernel(g_ocl.q, g_ocl.k[K_LOCAL], 1, NULL, &lgs, &half, 0, NULL, NULL)) != CL_SUCCESS)
                    return PC_EDEVICE;
                break;
            }
            ARGB(K_STEP, 2, j);
            ARGB(K_STEP, 3, k);
            if (*e != CL_SUCCESS ||
                (*e = clEnqueueNDRangeKernel(g_ocl.q, g_ocl.k[K_STEP], 1, NULL, &gs, NULL, 0, NULL, NULL)) != CL_SUCCESS)
                return PC_EDEVICE;
        }
    }
#undef ARGB
    return PC_OK;
}

/* One chunk of the frontier loop (kk: the metrics kernel, its arguments
 * set but the level): launches for levels *level .. *level + *chunk, their
 * sizes read back into r->sizes; *done (tasks reached) and *k (the chunk's
 * non-empty levels) grow, *end is set at the first empty frontier or at n
 * tasks, and *level, *chunk move to the next chunk (doubled up to
 * OCL_CHUNK_MAX). 0, or PC_EDEVICE with err set. */
static int ocl_frontier_chunk(ocl_run *r, int kk, int n, size_t gs, int *level, int *chunk,
                              int *done, int *k, int *end, pc_error *err)
{
    cl_int e = CL_SUCCESS;
    if (*level > n) /* a graph has at most n levels */
        return pc_error_set(err, PC_EDEVICE, NULL, 0, "frontier loop passed %d levels", *level);
    for (int i = 0; i < *chunk; i++) {
        int lv = *level + i;
        ARG(kk, 0, lv);
        if (e != CL_SUCCESS ||
            (e = clEnqueueNDRangeKernel(g_ocl.q, g_ocl.k[kk], 1, NULL, &gs, NULL, 0, NULL, NULL)) != CL_SUCCESS)
            goto cl_fail;
    }
    if ((e = clEnqueueReadBuffer(g_ocl.q, r->b[B_SIZES], CL_TRUE, (size_t)*level * 4,
                                 (size_t)*chunk * 4, r->sizes, 0, NULL, NULL)) != CL_SUCCESS)
        goto cl_fail;
    *k = 0;
    for (int i = 0; i < *chunk && !*end; i++) {
        int nf = r->sizes[i];
        if (nf < 0 || nf > n - *done)
            return pc_error_set(err, PC_EDEVICE, NULL, 0, "frontier of %d tasks after %d of %d", nf,
                                *done, n);
        *done += nf;
        *k += nf > 0;
        *end = nf == 0 || *done == n;
    }
    *level += *chunk;
    *chunk = *chunk * 2 > OCL_CHUNK_MAX ? OCL_CHUNK_MAX : *chunk * 2;
    return PC_OK;
cl_fail:
    return pc_error_set(err, PC_EDEVICE, NULL, 0, "OpenCL error %d on %s", (int)e, g_ocl.name);
}

/* The stream's source (pets_stream.h): the frontier loop of the levels
 * and ranks as in ocl_run_impl, and after each chunk of levels the tasks
 * of its new levels with their keys and in-degrees by position
 * (gather_keys), read back and fed to the host's finalizers; so the host
 * sorts each level and the selection books it while the device computes
 * the levels after it. At the end, the task-indexed levels and ranks are
 * enqueued for reading (the caller waits for them). */
typedef struct ocl_feed {
    ocl_run *r;
    const pets_dag *d;
    pets_solution *s;
    int kk;          /* the metrics kernel, its arguments set but the level */
    int64_t *krank;  /* by position: rank, ACC x P, in-degree */
    int64_t *ksum;
    int32_t *kdeg;
} ocl_feed;

static int ocl_feed_levels(void *ctx, pets_stream *ps, pc_error *err)
{
    ocl_feed *f = ctx;
    ocl_run *r = f->r;
    int n = f->d->ntasks, level = 0, done = 0, chunk = OCL_CHUNK_FIRST;
    size_t gs = ocl_frontier_items();
    cl_int e = CL_SUCCESS;
    for (int end = 0; !end;) {
        int a = done, k = 0;
        int rc = ocl_frontier_chunk(r, f->kk, n, gs, &level, &chunk, &done, &k, &end, err);
        if (rc)
            return rc;
        if (done > a) {
            size_t m = (size_t)(done - a), gg = round_up(m < 65536 ? m : 65536, 64);
            ARG(K_GATHER, 0, a);
            ARG(K_GATHER, 1, done);
            if (e != CL_SUCCESS ||
                (e = clEnqueueNDRangeKernel(g_ocl.q, g_ocl.k[K_GATHER], 1, NULL, &gg, NULL, 0, NULL, NULL)) ||
                (e = clEnqueueReadBuffer(g_ocl.q, r->b[B_QUEUE], CL_FALSE, (size_t)a * 4, m * 4, f->s->order + a, 0, NULL, NULL)) ||
                (e = clEnqueueReadBuffer(g_ocl.q, r->b[B_KRANK], CL_FALSE, (size_t)a * 8, m * 8, f->krank + a, 0, NULL, NULL)) ||
                (e = clEnqueueReadBuffer(g_ocl.q, r->b[B_KSUM], CL_FALSE, (size_t)a * 8, m * 8, f->ksum + a, 0, NULL, NULL)) ||
                (e = clEnqueueReadBuffer(g_ocl.q, r->b[B_KLEV], CL_TRUE, (size_t)a * 4, m * 4, f->kdeg + a, 0, NULL, NULL)))
                goto cl_fail;
            if (pets_stream_feed(ps, r->sizes, k, f->kdeg + a))
                return PC_OK; /* stopped: the stream has the error */
        }
    }
    if (done != n)
        return pc_error_set(err, PC_EDEVICE, NULL, 0, "only %d of %d tasks reached", done, n);
    size_t ni = (size_t)n * 4, nl = (size_t)n * 8;
    if ((e = clEnqueueReadBuffer(g_ocl.q, r->b[B_LEV], CL_FALSE, 0, ni, f->s->level, 0, NULL, NULL)) ||
        (e = clEnqueueReadBuffer(g_ocl.q, r->b[B_RS], CL_FALSE, 0, nl, f->s->rank_scaled, 0, NULL, NULL)) ||
        (e = clEnqueueReadBuffer(g_ocl.q, r->b[B_RANK], CL_FALSE, 0, nl, f->s->rank, 0, NULL, NULL)) ||
        (e = clFlush(g_ocl.q)))
        goto cl_fail;
    return PC_OK;
cl_fail:
    return pc_error_set(err, PC_EDEVICE, NULL, 0, "OpenCL error %d on %s", (int)e, g_ocl.name);
}

/* Runs the levels, the sort and the selection as a stream with
 * ocl_feed_levels as its source, from the entry discovery's state on;
 * fills t's metrics, sort and select (overlapped). PC_EUNAVAIL when
 * OpenMP gave fewer threads: nothing was launched, the caller goes on
 * with the phases. */
static int ocl_stream(ocl_run *r, const pets_dag *d, const pets_options *o, int threads, int kk,
                      pets_solution *s, pets_times *t, pc_error *err)
{
    size_t n = (size_t)d->ntasks;
    ocl_feed f = {r, d, s, kk, pc_malloc_array(n, 8), pc_malloc_array(n, 8), pc_malloc_array(n, 4)};
    int rc = PC_OK;
    cl_int e = CL_SUCCESS;
    if (!f.krank || !f.ksum || !f.kdeg) {
        rc = pc_error_nomem(err, "OpenCL PETS");
        goto out;
    }
    ARG(K_GATHER, 2, r->b[B_QUEUE]);
    ARG(K_GATHER, 3, r->b[B_RANK]);
    ARG(K_GATHER, 4, r->b[B_SUM]);
    ARG(K_GATHER, 5, r->b[B_INDEG]);
    ARG(K_GATHER, 6, r->b[B_KRANK]);
    ARG(K_GATHER, 7, r->b[B_KSUM]);
    ARG(K_GATHER, 8, r->b[B_KLEV]);
    if (e != CL_SUCCESS) {
        rc = pc_error_set(err, PC_EDEVICE, NULL, 0, "OpenCL error %d on %s", (int)e, g_ocl.name);
        goto out;
    }
    pets_stream_source src = {ocl_feed_levels, &f, f.krank, f.ksum};
    pets_times ts;
    rc = pets_stream_run(d, o, threads, &src, s, &ts, err);
    t->metrics = ts.entry + ts.metrics;
    t->sort = ts.sort;
    t->select = ts.select;
out:
    pc_free(f.krank);
    pc_free(f.ksum);
    pc_free(f.kdeg);
    return rc;
}

static int ocl_run_impl(const pets_dag *d, const pets_options *o, int vec8, pets_solution *s,
                        pets_times *t, pc_error *err)
{
    memset(t, 0, sizeof *t);
    double t0 = pc_time_now();
    int rc = ocl_init(o, err);
    if (rc)
        return rc;
    ocl_run r;
    memset(&r, 0, sizeof r);
    int n = d->ntasks, P = d->nprocs, m = d->nedges;
    size_t N = 1;
    while (N < (size_t)n)
        N <<= 1;
    cl_int e = CL_SUCCESS;
    r.indeg = pc_malloc_array((size_t)n, sizeof *r.indeg);
    r.sizes = pc_malloc_array(OCL_CHUNK_MAX, sizeof *r.sizes);
    if (!r.indeg || !r.sizes) {
        rc = pc_error_nomem(err, "OpenCL PETS");
        goto out;
    }
    for (int v = 0; v < n; v++)
        r.indeg[v] = d->pred_off[v + 1] - d->pred_off[v];
    size_t ni = (size_t)n * 4, nl = (size_t)n * 8, ml = (size_t)m + OCL_LIST_SLACK;
    size_t nlog = ((size_t)n + OCL_CHUNK_MAX + 2) * 4; /* a chunk may run past the last level */
    if (!ocl_buf(&r, B_INDEG, ni, &e) || !ocl_buf(&r, B_LEFT, ni, &e) || !ocl_buf(&r, B_QUEUE, ni, &e) ||
        !ocl_buf(&r, B_OFFS, nlog, &e) || !ocl_buf(&r, B_COUNT, 16, &e) ||
        !ocl_buf(&r, B_SIZES, nlog, &e) ||
        !ocl_buf(&r, B_COST, nl * (size_t)P, &e) || !ocl_buf(&r, B_LEV, ni, &e) ||
        !ocl_buf(&r, B_RS, nl, &e) || !ocl_buf(&r, B_RANK, nl, &e) || !ocl_buf(&r, B_SUM, nl, &e) ||
        !ocl_buf(&r, B_PERM, N * 4, &e) || !ocl_buf(&r, B_KLEV, N * 4, &e) ||
        !ocl_buf(&r, B_KRANK, N * 8, &e) || !ocl_buf(&r, B_KSUM, N * 8, &e) ||
        !ocl_buf(&r, B_POFF, ni + 4, &e) ||
        !ocl_buf(&r, B_PRED, ml * 4, &e) || !ocl_buf(&r, B_SOFF, ni + 4, &e) || !ocl_buf(&r, B_BAR, 8, &e) ||
        !ocl_buf(&r, B_SUCC, ml * 4, &e) || !ocl_buf(&r, B_SCOMM, ml * 8, &e))
        goto cl_fail;
    double t1 = pc_time_now();
    if (!ocl_write(B_INDEG, &r, r.indeg, ni, &e) || !ocl_write(B_COST, &r, d->cost, nl * (size_t)P, &e) ||
        !ocl_write(B_POFF, &r, d->pred_off, ni + 4, &e) ||
        !ocl_write(B_PRED, &r, d->pred, (size_t)m * 4, &e) ||
        !ocl_write(B_SOFF, &r, d->succ_off, ni + 4, &e) ||
        !ocl_write(B_SUCC, &r, d->succ, (size_t)m * 4, &e) ||
        !ocl_write(B_SCOMM, &r, d->succ_comm, (size_t)m * 8, &e))
        goto cl_fail;
    int zero[4] = {0, 0, 0, 0}; /* the three frontier counts, the levels, offs[0] (pets.cl) */
    if (!ocl_write(B_COUNT, &r, zero, 16, &e) || !ocl_write(B_OFFS, &r, zero, 4, &e) ||
        (e = clFinish(g_ocl.q)) != CL_SUCCESS)
        goto cl_fail;
    double t2 = pc_time_now();
    /* entry discovery */
    ARG(K_ENTRY, 0, n);
    ARG(K_ENTRY, 1, r.b[B_INDEG]);
    ARG(K_ENTRY, 2, r.b[B_LEFT]);
    ARG(K_ENTRY, 3, r.b[B_QUEUE]);
    ARG(K_ENTRY, 4, r.b[B_COUNT]);
    size_t gs = round_up((size_t)n, 64);
    if (e != CL_SUCCESS ||
        (e = clEnqueueNDRangeKernel(g_ocl.q, g_ocl.k[K_ENTRY], 1, NULL, &gs, NULL, 0, NULL, NULL)) != CL_SUCCESS)
        goto cl_fail;
    if ((e = clFinish(g_ocl.q)) != CL_SUCCESS)
        goto cl_fail;
    double t3 = pc_time_now();
    /* levels and ranks, one launch per level, enqueued in chunks without a
     * host round trip in between; the sizes of a chunk's frontiers are
     * read once, and the first empty one ends the loop */
    int grid = ocl_metrics_grid();
    int kk = grid ? (vec8 ? K_METRICS8_G : K_METRICS_G) : (vec8 ? K_METRICS8 : K_METRICS);
    int threads = o->threads > 0 ? o->threads : 1;
    double t4 = 0, t5 = 0, t6 = 0;
    int a0 = grid ? 2 : 1; /* the per-level kernels take the level first, the grid its barrier */
    int level = 0, done = 0, chunk = OCL_CHUNK_FIRST, nlev = 0;
    ARG(kk, a0, P);
    ARG(kk, a0 + 1, r.b[B_QUEUE]);
    ARG(kk, a0 + 2, r.b[B_OFFS]);
    ARG(kk, a0 + 3, r.b[B_COUNT]);
    ARG(kk, a0 + 4, r.b[B_SIZES]);
    /* the buffers after those, in the kernels' order */
    static const int mbufs[] = {B_POFF, B_PRED, B_SOFF, B_SUCC, B_SCOMM, B_COST,
                                B_LEFT, B_LEV,  B_RS,   B_RANK, B_SUM};
    for (int i = 0; i < (int)(sizeof mbufs / sizeof *mbufs); i++)
        ARG(kk, a0 + 5 + i, r.b[mbufs[i]]);
    if (e != CL_SUCCESS)
        goto cl_fail;
    if (grid) {
        rc = ocl_grid(&r, kk, n, &nlev, &done, &e, err);
        if (rc == PC_EDEVICE && e != CL_SUCCESS)
            goto cl_fail;
        if (rc == OCL_GRID_GAVE_UP) {
            /* a group never started: again, a launch per level */
            g_pets_ocl_grid_fallbacks++;
            grid = 0;
            kk = vec8 ? K_METRICS8 : K_METRICS;
            ARG(kk, 1, P);
            ARG(kk, 2, r.b[B_QUEUE]);
            ARG(kk, 3, r.b[B_OFFS]);
            ARG(kk, 4, r.b[B_COUNT]);
            ARG(kk, 5, r.b[B_SIZES]);
            for (int i = 0; i < (int)(sizeof mbufs / sizeof *mbufs); i++)
                ARG(kk, 6 + i, r.b[mbufs[i]]);
            if (e != CL_SUCCESS || !ocl_write(B_COUNT, &r, zero, 16, &e) ||
                !ocl_write(B_OFFS, &r, zero, 4, &e) ||
                (e = clEnqueueNDRangeKernel(g_ocl.q, g_ocl.k[K_ENTRY], 1, NULL, &gs, NULL, 0, NULL,
                                            NULL)) != CL_SUCCESS)
                goto cl_fail;
            rc = PC_OK;
        } else if (rc) {
            goto out;
        }
    }
    if (!grid && pets_stream_wanted(d, o, threads)) {
        rc = ocl_stream(&r, d, o, threads, kk, s, t, err);
        if (rc != PC_EUNAVAIL) {
            t->overlapped = 1; /* its own metrics, sort and select */
            goto finish;
        }
        pc_error_clear(err); /* OpenMP gave fewer threads: the phases then */
        rc = PC_OK;
    }
    gs = ocl_frontier_items();
    for (int end = grid; !end;) {
        int k = 0;
        if ((rc = ocl_frontier_chunk(&r, kk, n, gs, &level, &chunk, &done, &k, &end, err)))
            goto out;
        nlev += k;
    }
    if (done != n) {
        rc = pc_error_set(err, PC_EDEVICE, NULL, 0, "only %d of %d tasks reached", done, n);
        goto out;
    }
    t4 = pc_time_now();
    int mode = ocl_sort_mode();
    if (mode == SORT_SEGMENT) {
        /* the queue is ordered by level: each level's segment sorted into
         * perm, klev as the merges' scratch */
        ARG(K_SEGMENT, 0, nlev);
        ARG(K_SEGMENT, 1, r.b[B_OFFS]);
        ARG(K_SEGMENT, 2, r.b[B_QUEUE]);
        ARG(K_SEGMENT, 3, r.b[B_RANK]);
        ARG(K_SEGMENT, 4, r.b[B_SUM]);
        ARG(K_SEGMENT, 5, r.b[B_KLEV]);
        ARG(K_SEGMENT, 6, r.b[B_PERM]);
        size_t lv = (size_t)nlev, one = 1;
        if (e != CL_SUCCESS || (nlev && (e = clEnqueueNDRangeKernel(g_ocl.q, g_ocl.k[K_SEGMENT], 1, NULL, &lv,
                                                                    &one, 0, NULL, NULL)) != CL_SUCCESS))
            goto cl_fail;
    } else if ((rc = ocl_bitonic(&r, n, N, mode == SORT_LOCAL, &e)) != PC_OK) {
        if (rc == PC_EDEVICE)
            goto cl_fail;
        goto out;
    }
    if ((e = clFinish(g_ocl.q)) != CL_SUCCESS)
        goto cl_fail;
    t5 = pc_time_now();
    /* the selection needs only the order: levels and ranks come back
     * while it runs */
    if ((e = clEnqueueReadBuffer(g_ocl.q, r.b[B_PERM], CL_TRUE, 0, ni, s->order, 0, NULL, NULL)) ||
        (e = clEnqueueReadBuffer(g_ocl.q, r.b[B_LEV], CL_FALSE, 0, ni, s->level, 0, NULL, NULL)) ||
        (e = clEnqueueReadBuffer(g_ocl.q, r.b[B_RS], CL_FALSE, 0, nl, s->rank_scaled, 0, NULL, NULL)) ||
        (e = clEnqueueReadBuffer(g_ocl.q, r.b[B_RANK], CL_FALSE, 0, nl, s->rank, 0, NULL, NULL)) ||
        (e = clFlush(g_ocl.q)))
        goto cl_fail;
    t6 = pc_time_now();
    /* ready times of a level on the host's threads (o->threads, 0: one) */
    rc = pets_select_run(d, o, threads, s, err); /* refuses padding or repeats in the order */
finish:;
    double t7 = pc_time_now();
    if ((e = clFinish(g_ocl.q)) != CL_SUCCESS)
        goto cl_fail;
    double t8 = pc_time_now();
    t->setup = t1 - t0;
    t->h2d = t2 - t1;
    t->entry = t3 - t2;
    t->d2h = t8 - t7;
    if (!t->overlapped) {
        t->metrics = t4 - t3;
        t->sort = t5 - t4;
        t->d2h += t6 - t5;
        t->select = t7 - t6;
    }
    t->total = t8 - t1;
    goto out;
cl_fail:
    rc = pc_error_set(err, PC_EDEVICE, NULL, 0, "OpenCL error %d on %s", (int)e, g_ocl.name);
out:
    clFinish(g_ocl.q); /* no read still writing into s after an error */
    run_free(&r);
    return rc;
}

int pets_ocl_run(const pets_dag *dag, const pets_options *o, pets_solution *s, pets_times *t,
                 pc_error *err)
{
    return ocl_run_impl(dag, o, 0, s, t, err);
}

int pets_ocl_vec8_run(const pets_dag *dag, const pets_options *o, pets_solution *s, pets_times *t,
                      pc_error *err)
{
    return ocl_run_impl(dag, o, 1, s, t, err);
}

#else /* no OpenCL in this build */

#include "pc_config.h"

int pets_ocl_available(const pets_options *o, char *why, size_t whylen)
{
    (void)o;
    snprintf(why, whylen, "%s", PC_OPENCL_WHY);
    return 0;
}

static int ocl_missing(const pets_dag *dag, const pets_options *o, pets_solution *s, pets_times *t,
                       pc_error *err)
{
    (void)dag;
    (void)o;
    (void)s;
    (void)t;
    return pc_error_set(err, PC_EUNAVAIL, NULL, 0, "%s", PC_OPENCL_WHY);
}

int pets_ocl_run(const pets_dag *dag, const pets_options *o, pets_solution *s, pets_times *t,
                 pc_error *err)
{
    return ocl_missing(dag, o, s, t, err);
}

int pets_ocl_vec8_run(const pets_dag *dag, const pets_options *o, pets_solution *s, pets_times *t,
                      pc_error *err)
{
    return ocl_missing(dag, o, s, t, err);
}

void pets_ocl_release(void) {}
void pets_ocl_list(FILE *f) { (void)f; }

#endif
