/* spmm_fast.c - csr-cpu-fast: the layout plan (column blocks or not,
 * prefetch or not), its construction, and the threaded driver. The row
 * kernels are in spmm_fast_kernels.c; the traffic model behind the plan is
 * written out in docs/README-spmm-cpu.md. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "pc_alloc.h"
#include "spmm_fast.h"
#include "spmm_fast_kernels.h"

/* Rows per chunk boundary: 16 rows of Y at K = 1 are two cache lines, so
 * two threads never write the same line. */
#define FAST_ROW_ALIGN 16
/* Entry-balanced chunks per thread, handed out in order (as in csr-omp:
 * neighbouring threads stream neighbouring parts of A, long rows balance). */
#define FAST_CHUNKS_PER_THREAD 64
/* Below this many entries + rows a second thread costs more than it saves. */
#define FAST_PAR_MIN 32768
/* Rows sampled to tell a local (banded) pattern from a scattered one. */
#define FAST_SAMPLE_ROWS 4096
/* A row whose columns span more X than this is "scattered": its X rows are
 * not next to each other in memory, so the hardware prefetcher cannot see
 * them coming (bytes; a quarter of a typical 1 MiB L2). */
#define FAST_SPAN_LOCAL (256 * 1024)
/* Last-level cache assumed when the system does not say (bytes). */
#define FAST_LLC_DEFAULT (32LL << 20)

/* Median over sampled non-empty rows of the column span (last - first + 1). */
static int64_t fast_median_span(const spmm_csr *A)
{
    int32_t spans[FAST_SAMPLE_ROWS];
    int ns = 0;
    int32_t step = A->m > FAST_SAMPLE_ROWS ? A->m / FAST_SAMPLE_ROWS : 1;
    for (int32_t i = 0; i < A->m && ns < FAST_SAMPLE_ROWS; i += step)
        if (A->irp[i + 1] > A->irp[i])
            spans[ns++] = A->ja[A->irp[i + 1] - 1] - A->ja[A->irp[i]] + 1;
    if (ns == 0)
        return 0;
    /* partial selection is not worth it for 4096 values: insertion sort */
    for (int a = 1; a < ns; a++) {
        int32_t v = spans[a];
        int b = a;
        for (; b > 0 && spans[b - 1] > v; b--)
            spans[b] = spans[b - 1];
        spans[b] = v;
    }
    return spans[ns / 2];
}

/* Size of the last-level cache one core sees. Linux's sysfs lists the
 * instance (one CCD's 32 MiB on an EPYC); glibc's sysconf reports the sum
 * over the package (256 MiB there), which no single pass can use. */
long long spmm_fast_llc_bytes(void)
{
    FILE *f = fopen("/sys/devices/system/cpu/cpu0/cache/index3/size", "r");
    if (f) {
        long long v = 0;
        char unit = 0;
        int got = fscanf(f, "%lld%c", &v, &unit);
        fclose(f);
        if (got >= 1 && v > 0)
            return unit == 'M' ? v << 20 : unit == 'K' ? v << 10 : v;
    }
    long llc = sysconf(_SC_LEVEL3_CACHE_SIZE);
    return llc > 0 ? (long long)llc : FAST_LLC_DEFAULT;
}

/* Bytes of X one pass may keep in cache: a slice of the last-level cache,
 * which also holds the streams of A and Y and, on a shared machine, other
 * processes' lines. Measured on the 2-core CI machine (32 MiB L3 shared
 * with other jobs), 1M x 1M matrices with 16 scattered entries per row:
 * at K = 1 slices of LLC/16 beat LLC/8 (an entry uses 8 of the 64 bytes it
 * fetches, and a pass over Y costs only 20 bytes a row), at K = 4 LLC/8
 * beat both LLC/16 and LLC/2; the whole X (8 MiB at K = 1) in one pass was
 * slowest. */
static long long fast_default_budget(int K)
{
    long long c = spmm_fast_llc_bytes();
    return K < 4 ? c / 16 : c / 8;
}

/* Number of column blocks for A at K under budget (see the header). */
static int fast_plan_blocks(const spmm_csr *A, int K, long long budget, int scattered)
{
    double xbytes = 8.0 * K * A->n;
    if (budget < 0) {
        long long width = -budget / (8LL * K);
        width = width < 1 ? 1 : width;
        long long nb = ((long long)A->n + width - 1) / width;
        return nb < 1 ? 1 : nb > 65536 ? 65536 : (int)nb;
    }
    if (!scattered || xbytes <= (double)budget || budget == 0)
        return 1;
    int nb = (int)((xbytes + budget - 1) / budget);
    /* Each extra pass reads and writes Y and reads a row-pointer array;
     * blocking pays when that is below the X traffic it removes: without
     * blocks, a share 1 - budget/xbytes of the entries miss the cache and
     * fetch their whole X row (at least one 64-byte line). */
    double row = 8.0 * K < 64.0 ? 64.0 : 8.0 * K;
    double miss = (double)A->nnz * row * (1.0 - (double)budget / xbytes);
    double extra = (nb - 1) * (16.0 * K + 4.0) * A->m + xbytes;
    return extra < miss ? nb : 1;
}

/* Copies A's entries into nb column blocks of `width` columns. */
static int fast_split_blocks(const spmm_csr *A, spmm_fast *F, pc_error *err)
{
    const int nb = F->nblocks;
    const size_t m1 = (size_t)A->m + 1;
    int32_t *irp = pc_calloc(m1 * (size_t)nb, sizeof *irp);
    int32_t *ja = pc_malloc_array(A->nnz ? (size_t)A->nnz : 1, sizeof *ja);
    double *as = pc_malloc_array(A->nnz ? (size_t)A->nnz : 1, sizeof *as);
    F->blk = pc_calloc((size_t)nb, sizeof *F->blk);
    if (!irp || !ja || !as || !F->blk) {
        pc_free(irp);
        pc_free(ja);
        pc_free(as);
        pc_free(F->blk);
        F->blk = NULL;
        return pc_error_nomem(err, "csr-cpu-fast: column blocks");
    }
    /* counts of row i in block b at irp[b*m1 + i + 1], then offsets that
     * place the blocks one after the other in ja/as */
    for (int32_t i = 0; i < A->m; i++)
        for (int32_t p = A->irp[i]; p < A->irp[i + 1]; p++)
            irp[(size_t)(A->ja[p] / F->width) * m1 + (size_t)i + 1]++;
    int32_t base = 0;
    for (int b = 0; b < nb; b++) {
        int32_t *r = irp + (size_t)b * m1;
        r[0] = base;
        for (int32_t i = 0; i < A->m; i++)
            r[i + 1] += r[i];
        F->blk[b] = (spmm_fast_block){r, ja, as, r[A->m]};
        base = r[A->m];
    }
    /* fill in row order; a row's entries stay ascending in each block */
    for (int32_t i = 0; i < A->m; i++)
        for (int32_t p = A->irp[i]; p < A->irp[i + 1]; p++) {
            int32_t *r = irp + (size_t)(A->ja[p] / F->width) * m1;
            int32_t at = r[i]++;
            ja[at] = A->ja[p];
            as[at] = A->as[p];
        }
    /* the fill advanced each r[i] to r[i+1]'s old value: shift back */
    for (int b = 0; b < nb; b++) {
        int32_t *r = irp + (size_t)b * m1;
        for (int32_t i = A->m; i > 0; i--)
            r[i] = r[i - 1];
        r[0] = b == 0 ? 0 : F->blk[b - 1].irp[A->m];
    }
    F->pool_irp = irp;
    F->pool_ja = ja;
    F->pool_as = as;
    return PC_OK;
}

int spmm_fast_build(const spmm_csr *A, int K, long long x_budget, spmm_fast *out,
                    pc_error *err)
{
    memset(out, 0, sizeof *out);
    if (K < 1)
        return pc_error_set(err, PC_EINVAL, NULL, 0, "csr-cpu-fast: K = %d", K);
    out->m = A->m;
    out->n = A->n;
    out->nnz = A->nnz;
    out->row_irp = A->irp;
    long long budget = x_budget != 0 ? x_budget : fast_default_budget(K);
    out->prefetch = fast_median_span(A) * 8 * K > FAST_SPAN_LOCAL;
    out->nblocks = fast_plan_blocks(A, K, budget, out->prefetch);
    if (out->nblocks == 1) {
        out->width = A->n;
        out->blk = pc_malloc(sizeof *out->blk);
        if (!out->blk)
            return pc_error_nomem(err, "csr-cpu-fast: plan");
        out->blk[0] = (spmm_fast_block){A->irp, A->ja, A->as, A->nnz};
        return PC_OK;
    }
    out->width = (int32_t)(((long long)A->n + out->nblocks - 1) / out->nblocks);
    int rc = fast_split_blocks(A, out, err);
    if (rc)
        memset(out, 0, sizeof *out);
    return rc;
}

void spmm_fast_free(spmm_fast *F)
{
    pc_free(F->pool_irp);
    pc_free(F->pool_ja);
    pc_free(F->pool_as);
    pc_free(F->blk);
    memset(F, 0, sizeof *F);
}

/* First row of chunk `part` of `parts`: about nnz*part/parts entries before
 * it, rounded down to FAST_ROW_ALIGN rows. */
static int32_t fast_chunk_row(const spmm_fast *F, int part, int parts)
{
    if (part <= 0)
        return 0;
    if (part >= parts)
        return F->m;
    int64_t target = F->nnz * part / parts;
    int32_t lo = 0, hi = F->m;
    while (lo < hi) {
        int32_t mid = lo + (hi - lo) / 2;
        if (F->row_irp[mid] < target)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo - lo % FAST_ROW_ALIGN;
}

void spmm_fast_run(const spmm_fast *F, const double *X, int K, double *Y, int threads)
{
    if (F->m == 0)
        return;
    if (threads < 1)
        threads = 1;
    spmm_fast_rows_fn rows = spmm_fast_kernel(F->portable);
    const int parts = threads * FAST_CHUNKS_PER_THREAD;
    /* One body for 1 and T threads; a pass per column block, the implicit
     * barrier of each `omp for` ordering the passes over Y. */
    #pragma omp parallel num_threads(threads) if (threads > 1 && F->nnz + F->m >= FAST_PAR_MIN)
    for (int b = 0; b < F->nblocks; b++) {
        #pragma omp for schedule(dynamic, 1)
        for (int c = 0; c < parts; c++) {
            int32_t r0 = fast_chunk_row(F, c, parts), r1 = fast_chunk_row(F, c + 1, parts);
            if (r0 < r1)
                rows(&F->blk[b], X, K, Y, r0, r1, b == 0, F->prefetch);
        }
    }
}

int spmm_fast_prepare(const spmm_impl *self, const spmm_matrix *A, int K, void **state,
                      pc_error *err)
{
    (void)self;
    spmm_fast *F = pc_malloc(sizeof *F);
    if (!F)
        return pc_error_nomem(err, "csr-cpu-fast: state");
    int rc = spmm_fast_build(&A->csr, K, 0, F, err);
    if (rc) {
        pc_free(F);
        return rc;
    }
    *state = F;
    return PC_OK;
}

int spmm_fast_impl_run(const spmm_impl *self, void *state, const spmm_matrix *A,
                       const double *X, int K, double *Y, int threads, spmm_timing *t,
                       pc_error *err)
{
    (void)self;
    (void)A;
    (void)t;
    (void)err;
    spmm_fast_run(state, X, K, Y, threads);
    return PC_OK;
}

void spmm_fast_release(void *state)
{
    if (!state)
        return;
    spmm_fast_free(state);
    pc_free(state);
}
