/* pets_ocl.c - host side of the `ocl` and `ocl-vec8` implementations:
 * platform and device choice, the embedded program (built once per
 * process and device), buffers, the frontier loop and the bitonic sort;
 * processor selection then runs on the host (pets_select_run, the ready
 * times of each level on o->threads OpenMP threads). */
#include <stdio.h>
#include <string.h>

#include "pc_alloc.h"
#include "pc_time.h"
#include "pets_priv.h"

#if PC_HAVE_OPENCL
#include <CL/cl.h>

#include "pets_kernels.h"

#define OCL_MAX_PLATFORMS 16
#define OCL_MAX_DEVICES 16

enum { K_ENTRY, K_METRICS, K_METRICS8, K_INIT, K_STEP, K_COUNT };
static const char *const k_names[K_COUNT] = {"entry_discover", "compute_metrics",
                                             "compute_metrics_vec8", "bitonic_init", "bitonic_step"};

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
    e = clBuildProgram(g_ocl.prog, 1, &dev, "", NULL, NULL);
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
enum { B_INDEG, B_LEFT, B_FA, B_FB, B_COUNT, B_POFF, B_PRED, B_SOFF, B_SUCC, B_SCOMM, B_COST,
       B_LEV, B_RS, B_RANK, B_SUM, B_PERM, B_OUTDEG, B_PMAT, B_SMAT, B_WMAT, B_NBUF };

typedef struct ocl_run {
    cl_mem b[B_NBUF];
    int32_t *pmat, *smat, *outdeg; /* host copies of the padded matrices (vec8) */
    int64_t *wmat;
    int32_t *indeg;
    int wp, ws;
} ocl_run;

static void run_free(ocl_run *r)
{
    for (int i = 0; i < B_NBUF; i++)
        if (r->b[i])
            clReleaseMemObject(r->b[i]);
    pc_free(r->pmat);
    pc_free(r->smat);
    pc_free(r->wmat);
    pc_free(r->outdeg);
    pc_free(r->indeg);
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

static size_t round_up(size_t x, size_t m)
{
    return (x + m - 1) / m * m;
}

/* The padded rectangular matrices of ocl-vec8 (-1 and weight 0 as padding). */
static int make_rect(const pets_dag *d, ocl_run *r, pc_error *err)
{
    size_t n = (size_t)d->ntasks;
    int32_t maxin = 0, maxout = 0;
    for (int32_t v = 0; v < d->ntasks; v++) {
        int32_t a = d->pred_off[v + 1] - d->pred_off[v], b = d->succ_off[v + 1] - d->succ_off[v];
        maxin = a > maxin ? a : maxin;
        maxout = b > maxout ? b : maxout;
    }
    r->wp = (int)round_up((size_t)(maxin ? maxin : 1), 8);
    r->ws = (int)round_up((size_t)(maxout ? maxout : 1), 8);
    /* The padded rows cost n * (largest degree): refuse what the device
     * cannot hold (half its memory, each matrix within one allocation). */
    cl_ulong gmem = 0, maxalloc = 0;
    clGetDeviceInfo(g_ocl.dev, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof gmem, &gmem, NULL);
    clGetDeviceInfo(g_ocl.dev, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof maxalloc, &maxalloc, NULL);
    size_t bytes = n * (size_t)r->wp * 4 + n * (size_t)r->ws * 12;
    if (bytes > gmem / 2 || n * (size_t)r->ws * 8 > maxalloc)
        return pc_error_set(err, PC_EUNAVAIL, NULL, 0,
                            "padded matrices would take %zu MiB of %llu (largest in/out degree %ld/%ld)",
                            bytes >> 20, (unsigned long long)(gmem >> 20), (long)maxin, (long)maxout);
    r->pmat = pc_malloc_array(n * (size_t)r->wp, sizeof *r->pmat);
    r->smat = pc_malloc_array(n * (size_t)r->ws, sizeof *r->smat);
    r->wmat = pc_calloc(n * (size_t)r->ws, sizeof *r->wmat);
    r->outdeg = pc_malloc_array(n, sizeof *r->outdeg);
    if (!r->pmat || !r->smat || !r->wmat || !r->outdeg)
        return pc_error_nomem(err, "ocl-vec8 matrices");
    for (size_t v = 0; v < n; v++) {
        int32_t *pr = r->pmat + v * (size_t)r->wp, *sr = r->smat + v * (size_t)r->ws;
        int64_t *wr = r->wmat + v * (size_t)r->ws;
        int32_t a = d->pred_off[v + 1] - d->pred_off[v], b = d->succ_off[v + 1] - d->succ_off[v];
        for (int j = 0; j < r->wp; j++)
            pr[j] = j < a ? d->pred[d->pred_off[v] + j] : -1;
        for (int j = 0; j < r->ws; j++) {
            sr[j] = j < b ? d->succ[d->succ_off[v] + j] : -1;
            if (j < b)
                wr[j] = d->succ_comm[d->succ_off[v] + j];
        }
        r->outdeg[v] = b;
    }
    return PC_OK;
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
    if (!r.indeg) {
        rc = pc_error_nomem(err, "OpenCL PETS");
        goto out;
    }
    for (int v = 0; v < n; v++)
        r.indeg[v] = d->pred_off[v + 1] - d->pred_off[v];
    if (vec8 && (rc = make_rect(d, &r, err)))
        goto out;
    size_t ni = (size_t)n * 4, nl = (size_t)n * 8;
    if (!ocl_buf(&r, B_INDEG, ni, &e) || !ocl_buf(&r, B_LEFT, ni, &e) || !ocl_buf(&r, B_FA, ni, &e) ||
        !ocl_buf(&r, B_FB, ni, &e) || !ocl_buf(&r, B_COUNT, 8, &e) ||
        !ocl_buf(&r, B_COST, nl * (size_t)P, &e) || !ocl_buf(&r, B_LEV, ni, &e) ||
        !ocl_buf(&r, B_RS, nl, &e) || !ocl_buf(&r, B_RANK, nl, &e) || !ocl_buf(&r, B_SUM, nl, &e) ||
        !ocl_buf(&r, B_PERM, N * 4, &e))
        goto cl_fail;
    if (!vec8 && (!ocl_buf(&r, B_POFF, ni + 4, &e) || !ocl_buf(&r, B_PRED, (size_t)m * 4, &e) ||
                  !ocl_buf(&r, B_SOFF, ni + 4, &e) || !ocl_buf(&r, B_SUCC, (size_t)m * 4, &e) ||
                  !ocl_buf(&r, B_SCOMM, (size_t)m * 8, &e)))
        goto cl_fail;
    if (vec8 && (!ocl_buf(&r, B_OUTDEG, ni, &e) || !ocl_buf(&r, B_PMAT, (size_t)n * r.wp * 4, &e) ||
                 !ocl_buf(&r, B_SMAT, (size_t)n * r.ws * 4, &e) ||
                 !ocl_buf(&r, B_WMAT, (size_t)n * r.ws * 8, &e)))
        goto cl_fail;
    double t1 = pc_time_now();
    if (!ocl_write(B_INDEG, &r, r.indeg, ni, &e) || !ocl_write(B_COST, &r, d->cost, nl * (size_t)P, &e))
        goto cl_fail;
    if (!vec8 && (!ocl_write(B_POFF, &r, d->pred_off, ni + 4, &e) ||
                  !ocl_write(B_PRED, &r, d->pred, (size_t)m * 4, &e) ||
                  !ocl_write(B_SOFF, &r, d->succ_off, ni + 4, &e) ||
                  !ocl_write(B_SUCC, &r, d->succ, (size_t)m * 4, &e) ||
                  !ocl_write(B_SCOMM, &r, d->succ_comm, (size_t)m * 8, &e)))
        goto cl_fail;
    if (vec8 && (!ocl_write(B_OUTDEG, &r, r.outdeg, ni, &e) ||
                 !ocl_write(B_PMAT, &r, r.pmat, (size_t)n * r.wp * 4, &e) ||
                 !ocl_write(B_SMAT, &r, r.smat, (size_t)n * r.ws * 4, &e) ||
                 !ocl_write(B_WMAT, &r, r.wmat, (size_t)n * r.ws * 8, &e)))
        goto cl_fail;
    int zero[2] = {0, 0}; /* the two frontier counts (see compute_metrics) */
    if (!ocl_write(B_COUNT, &r, zero, 8, &e) || (e = clFinish(g_ocl.q)) != CL_SUCCESS)
        goto cl_fail;
    double t2 = pc_time_now();
    /* entry discovery */
    ARG(K_ENTRY, 0, n);
    ARG(K_ENTRY, 1, r.b[B_INDEG]);
    ARG(K_ENTRY, 2, r.b[B_LEFT]);
    ARG(K_ENTRY, 3, r.b[B_FA]);
    ARG(K_ENTRY, 4, r.b[B_COUNT]);
    size_t gs = round_up((size_t)n, 64);
    if (e != CL_SUCCESS ||
        (e = clEnqueueNDRangeKernel(g_ocl.q, g_ocl.k[K_ENTRY], 1, NULL, &gs, NULL, 0, NULL, NULL)) != CL_SUCCESS)
        goto cl_fail;
    int nf = 0;
    if ((e = clEnqueueReadBuffer(g_ocl.q, r.b[B_COUNT], CL_TRUE, 0, 4, &nf, 0, NULL, NULL)) != CL_SUCCESS)
        goto cl_fail;
    double t3 = pc_time_now();
    /* levels and ranks, one frontier per level; the host reads the size of
     * the next one, and an empty frontier ends the loop */
    int kk = vec8 ? K_METRICS8 : K_METRICS, level = 0, done = 0;
    cl_mem cur = r.b[B_FA], nxt = r.b[B_FB];
    if (vec8) {
        ARG(kk, 6, r.wp);
        ARG(kk, 7, r.ws);
        ARG(kk, 8, r.b[B_INDEG]);
        ARG(kk, 9, r.b[B_OUTDEG]);
        ARG(kk, 10, r.b[B_PMAT]);
        ARG(kk, 11, r.b[B_SMAT]);
        ARG(kk, 12, r.b[B_WMAT]);
        ARG(kk, 13, r.b[B_COST]);
        ARG(kk, 14, r.b[B_LEFT]);
        ARG(kk, 15, r.b[B_LEV]);
        ARG(kk, 16, r.b[B_RS]);
        ARG(kk, 17, r.b[B_RANK]);
        ARG(kk, 18, r.b[B_SUM]);
    } else {
        ARG(kk, 6, r.b[B_POFF]);
        ARG(kk, 7, r.b[B_PRED]);
        ARG(kk, 8, r.b[B_SOFF]);
        ARG(kk, 9, r.b[B_SUCC]);
        ARG(kk, 10, r.b[B_SCOMM]);
        ARG(kk, 11, r.b[B_COST]);
        ARG(kk, 12, r.b[B_LEFT]);
        ARG(kk, 13, r.b[B_LEV]);
        ARG(kk, 14, r.b[B_RS]);
        ARG(kk, 15, r.b[B_RANK]);
        ARG(kk, 16, r.b[B_SUM]);
    }
    ARG(kk, 2, P);
    ARG(kk, 5, r.b[B_COUNT]);
    if (e != CL_SUCCESS)
        goto cl_fail;
    while (nf > 0) {
        done += nf;
        ARG(kk, 0, nf);
        ARG(kk, 1, level);
        ARG(kk, 3, cur);
        ARG(kk, 4, nxt);
        /* the kernel counts into slot (level + 1) & 1 and clears the other
         * for the next level: one launch and one read per level */
        if (e != CL_SUCCESS)
            goto cl_fail;
        gs = round_up((size_t)nf, 64);
        if ((e = clEnqueueNDRangeKernel(g_ocl.q, g_ocl.k[kk], 1, NULL, &gs, NULL, 0, NULL, NULL)) != CL_SUCCESS ||
            (e = clEnqueueReadBuffer(g_ocl.q, r.b[B_COUNT], CL_TRUE, (size_t)((level + 1) & 1) * 4, 4,
                                     &nf, 0, NULL, NULL)) != CL_SUCCESS)
            goto cl_fail;
        cl_mem tmp = cur;
        cur = nxt;
        nxt = tmp;
        level++;
        if (nf < 0 || done + nf > n) {
            rc = pc_error_set(err, PC_EDEVICE, NULL, 0, "frontier of %d tasks after %d of %d", nf, done, n);
            goto out;
        }
    }
    if (done != n) {
        rc = pc_error_set(err, PC_EDEVICE, NULL, 0, "only %d of %d tasks reached", done, n);
        goto out;
    }
    double t4 = pc_time_now();
    /* bitonic sort of N >= n slots; padding sorts after every task */
    int Ni = (int)N;
    ARG(K_INIT, 0, Ni);
    ARG(K_INIT, 1, r.b[B_PERM]);
    ARG(K_STEP, 0, Ni);
    ARG(K_STEP, 1, n);
    ARG(K_STEP, 4, r.b[B_PERM]);
    ARG(K_STEP, 5, r.b[B_LEV]);
    ARG(K_STEP, 6, r.b[B_RANK]);
    ARG(K_STEP, 7, r.b[B_SUM]);
    gs = round_up(N, 64);
    if (e != CL_SUCCESS ||
        (e = clEnqueueNDRangeKernel(g_ocl.q, g_ocl.k[K_INIT], 1, NULL, &gs, NULL, 0, NULL, NULL)) != CL_SUCCESS)
        goto cl_fail;
    for (int k = 2; k <= Ni; k <<= 1)
        for (int j = k >> 1; j > 0; j >>= 1) {
            ARG(K_STEP, 2, j);
            ARG(K_STEP, 3, k);
            if (e != CL_SUCCESS ||
                (e = clEnqueueNDRangeKernel(g_ocl.q, g_ocl.k[K_STEP], 1, NULL, &gs, NULL, 0, NULL, NULL)) != CL_SUCCESS)
                goto cl_fail;
        }
    if ((e = clFinish(g_ocl.q)) != CL_SUCCESS)
        goto cl_fail;
    double t5 = pc_time_now();
    if ((e = clEnqueueReadBuffer(g_ocl.q, r.b[B_LEV], CL_FALSE, 0, ni, s->level, 0, NULL, NULL)) ||
        (e = clEnqueueReadBuffer(g_ocl.q, r.b[B_RS], CL_FALSE, 0, nl, s->rank_scaled, 0, NULL, NULL)) ||
        (e = clEnqueueReadBuffer(g_ocl.q, r.b[B_RANK], CL_FALSE, 0, nl, s->rank, 0, NULL, NULL)) ||
        (e = clEnqueueReadBuffer(g_ocl.q, r.b[B_PERM], CL_TRUE, 0, ni, s->order, 0, NULL, NULL)))
        goto cl_fail;
    double t6 = pc_time_now();
    /* ready times of a level on the host's threads (o->threads, 0: one) */
    rc = pets_select_run(d, o, o->threads > 0 ? o->threads : 1, s, err); /* refuses padding or repeats in the order */
    double t7 = pc_time_now();
    t->setup = t1 - t0;
    t->h2d = t2 - t1;
    t->entry = t3 - t2;
    t->metrics = t4 - t3;
    t->sort = t5 - t4;
    t->d2h = t6 - t5;
    t->select = t7 - t6;
    t->total = t7 - t1;
    goto out;
cl_fail:
    rc = pc_error_set(err, PC_EDEVICE, NULL, 0, "OpenCL error %d on %s", (int)e, g_ocl.name);
out:
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
