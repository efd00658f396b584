/* zoo_spmm.c - wrong SpMM kernels and readers, judged as the CLI judges a
 * built-in implementation (cmd_spmm.c): Y poisoned, one run, the oracle's
 * verdict (spmm_oracle_check), and the failures located by spmm_check,
 * which is what puts the "where" records in the CLI's rows. An entry is
 * rejected when the oracle fails it and the first located row is a row
 * the bug damages. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "mm.h"
#include "pc_alloc.h"
#include "spmm.h"
#include "spmm/spmm_check.h"
#include "spmm/spmm_oracle.h"
#include "zoo.h"

/* The inputs every kernel of this file reads: A in the real converters'
 * formats, X dense row-major (cols x K). */
typedef struct zoo_spmm_in {
    const mm_coo *coo;
    spmm_csr csr;
    spmm_ell ell;
    const double *X;
    int K;
} zoo_spmm_in;

typedef void (*zoo_spmm_kernel)(const zoo_spmm_in *in, double *Y, int threads);

/* ---- the wrong kernels ------------------------------------------------ */

/* Bug: the row loop stops one entry early (p < irp[i+1] - 1). */
static void k_csr_last_entry(const zoo_spmm_in *in, double *Y, int threads)
{
    (void)threads;
    const spmm_csr *A = &in->csr;
    for (int32_t i = 0; i < A->m; i++)
        for (int k = 0; k < in->K; k++) {
            double s = 0;
            for (int32_t p = A->irp[i]; p < A->irp[i + 1] - 1; p++)
                s += A->as[p] * in->X[(size_t)A->ja[p] * in->K + k];
            Y[(size_t)i * in->K + k] = s;
        }
}

/* Bug: one row sum for all threads (declared outside the parallel loop).
 * volatile keeps every update in memory, as an unoptimised build would. */
static void k_row_sum_shared(const zoo_spmm_in *in, double *Y, int threads)
{
    (void)threads; /* read only by OpenMP pragmas */
    const spmm_csr *A = &in->csr;
    volatile double sum = 0;
    #pragma omp parallel for num_threads(threads) schedule(static, 4)
    for (int32_t i = 0; i < A->m; i++)
        for (int k = 0; k < in->K; k++) {
            sum = 0;
            for (int32_t p = A->irp[i]; p < A->irp[i + 1]; p++)
                sum += A->as[p] * in->X[(size_t)A->ja[p] * in->K + k];
            Y[(size_t)i * in->K + k] = sum;
        }
}

/* Bug: the row range of a chunk lives outside the parallel loop, so the
 * threads overwrite each other's bounds (volatile: re-read per row). Not
 * in the table: the output goes wrong only when a thread is preempted
 * between taking its chunk and writing the bounds while a later chunk
 * runs (rows computed twice are still right), so reruns rarely catch it;
 * the race detector does (ci/race.sh runs it through --race). */
static void k_row_range_shared(const zoo_spmm_in *in, double *Y, int threads)
{
    (void)threads; /* read only by OpenMP pragmas */
    const spmm_csr *A = &in->csr;
    const int32_t chunk = 8;
    volatile int32_t r0 = 0, r1 = 0;
    int32_t nchunks = (A->m + chunk - 1) / chunk;
    /* static chunks: dynamic hand-out orders the threads' chunks in the
     * race detector's eyes unless they truly overlap in time (see
     * docs/README-harness.md) */
    #pragma omp parallel for num_threads(threads) schedule(static, 1)
    for (int32_t c = 0; c < nchunks; c++) {
        r0 = c * chunk;
        r1 = r0 + chunk < A->m ? r0 + chunk : A->m;
        for (int32_t i = r0; i < r1; i++)
            for (int k = 0; k < in->K; k++) {
                double s = 0;
                for (int32_t p = A->irp[i]; p < A->irp[i + 1]; p++)
                    s += A->as[p] * in->X[(size_t)A->ja[p] * in->K + k];
                Y[(size_t)i * in->K + k] = s;
            }
    }
}

/* Bug: ELLPACK padding read as a real entry (value 0 times X[col]): harmless
 * while X is finite, NaN where X[col] is inf or NaN. */
static void k_ell_padding(const zoo_spmm_in *in, double *Y, int threads)
{
    (void)threads;
    const spmm_ell *A = &in->ell;
    size_t m = (size_t)A->m;
    for (int32_t i = 0; i < A->m; i++)
        for (int k = 0; k < in->K; k++) {
            double s = 0;
            for (int32_t e = 0; e < A->maxnz; e++)
                s += A->as[e * m + i] * in->X[(size_t)A->ja[e * m + i] * in->K + k];
            Y[(size_t)i * in->K + k] = s;
        }
}

/* Bug: NaN products skipped ("robust" summation): a finite answer where
 * the reference is NaN. */
static void k_nan_dropped(const zoo_spmm_in *in, double *Y, int threads)
{
    (void)threads;
    const spmm_csr *A = &in->csr;
    for (int32_t i = 0; i < A->m; i++)
        for (int k = 0; k < in->K; k++) {
            double s = 0;
            for (int32_t p = A->irp[i]; p < A->irp[i + 1]; p++) {
                double t = A->as[p] * in->X[(size_t)A->ja[p] * in->K + k];
                if (t == t)
                    s += t;
            }
            Y[(size_t)i * in->K + k] = s;
        }
}

/* The control: the real serial CSR kernel. */
static void k_csr_serial(const zoo_spmm_in *in, double *Y, int threads)
{
    (void)threads;
    spmm_csr_serial(&in->csr, in->X, in->K, Y);
}

/* ---- judging ------------------------------------------------------------ */

/* The CLI's judgement of one run of kern: *oracle_pass, and the 0-based row
 * of the first located failure in *row (-1 when spmm_check passes too).
 * The locator runs on a failure, and on a pass when locate_pass_too (so
 * that a disagreement between the two judges shows).
 * Returns 0, or -1 on a set-up failure. */
static int judge(const zoo_spmm_in *in, zoo_spmm_kernel kern, int threads,
                 const spmm_oracle *orc, double *Y, int *oracle_pass, int64_t *row,
                 int locate_pass_too)
{
    size_t len = (size_t)in->coo->rows * (size_t)in->K;
    spmm_oracle_poison(Y, (int64_t)len);
    kern(in, Y, threads);
    spmm_verdict v;
    spmm_oracle_check(orc, Y, &v);
    *oracle_pass = v.pass;
    *row = -1;
    if (v.pass && locate_pass_too == 0)
        return 0;
    int64_t *rowptr = pc_calloc((size_t)in->coo->rows + 1, sizeof *rowptr);
    if (!rowptr)
        return -1;
    for (int64_t e = 0; e < in->coo->nnz; e++)
        rowptr[in->coo->row[e] + 1]++;
    for (int32_t i = 0; i < in->coo->rows; i++)
        rowptr[i + 1] += rowptr[i];
    spmm_check_csr c = {in->coo->rows, in->coo->cols, rowptr, in->coo->col, in->coo->val};
    spmm_check_dense xd = {in->X, SPMM_CHECK_F64, SPMM_CHECK_ROW_MAJOR, in->K};
    spmm_check_dense yd = {Y, SPMM_CHECK_F64, SPMM_CHECK_ROW_MAJOR, in->K};
    spmm_check_report rep;
    int rc = spmm_check(&c, &xd, &yd, in->K, SPMM_CHECK_FP64, 2, &rep, NULL);
    pc_free(rowptr);
    if (rc)
        return -1;
    if (rep.pass != v.pass)
        *oracle_pass = -1; /* the two judges disagree: reported as slipped */
    if (!rep.pass && rep.nfail > 0)
        *row = rep.fail[0].row;
    return 0;
}

/* Sets up in from coo and X (both the caller's). */
static int in_init(zoo_spmm_in *in, const mm_coo *coo, const double *X, int K)
{
    memset(in, 0, sizeof *in);
    in->coo = coo;
    in->X = X;
    in->K = K;
    if (spmm_csr_from_coo(coo, &in->csr, 1, NULL))
        return -1;
    if (spmm_ell_from_coo(coo, &in->ell, 1, NULL)) {
        spmm_csr_free(&in->csr);
        return -1;
    }
    return 0;
}

static void in_free(zoo_spmm_in *in)
{
    spmm_csr_free(&in->csr);
    spmm_ell_free(&in->ell);
}

/* Judges kern `tries` times (stopping at the first rejection) and fills msg.
 * want_row >= 0: the located row must be it; -1: any row whose Y differs
 * from the serial kernel's (a race damages rows no one can predict). */
static int judge_entry(const zoo_spmm_in *in, zoo_spmm_kernel kern, int threads, int tries,
                       int64_t want_row, char *msg, size_t mlen)
{
    size_t len = (size_t)in->coo->rows * (size_t)in->K;
    double *Y = pc_malloc_array(len, sizeof *Y), *Yok = pc_malloc_array(len, sizeof *Yok);
    spmm_oracle orc;
    int out = ZOO_BROKEN;
    if (!Y || !Yok || spmm_oracle_compute(in->coo, in->X, in->K, &orc, NULL)) {
        snprintf(msg, mlen, "set-up failed");
        pc_free(Y);
        pc_free(Yok);
        return ZOO_BROKEN;
    }
    spmm_csr_serial(&in->csr, in->X, in->K, Yok);
    int pass = 1, t;
    int64_t row = -1;
    for (t = 0; t < tries; t++) {
        int th = threads > 1 ? 2 + t % (threads - 1) : 1;
        if (judge(in, kern, th, &orc, Y, &pass, &row, tries == 1))
            goto done;
        if (pass != 1)
            break;
    }
    if (pass == 1)
        out = ZOO_SLIPPED, snprintf(msg, mlen, "accepted in %d run(s)", tries);
    else if (pass == -1)
        out = ZOO_SLIPPED, snprintf(msg, mlen, "the oracle and the locator disagree");
    else if (row < 0)
        out = ZOO_SLIPPED, snprintf(msg, mlen, "rejected but not located");
    else if (want_row >= 0 && row != want_row)
        out = ZOO_SLIPPED, snprintf(msg, mlen, "located at row %lld, the bug is at row %lld",
                                    (long long)row + 1, (long long)want_row + 1);
    else if (want_row < 0 && !memcmp(Y + row * in->K, Yok + row * in->K, sizeof *Y * in->K))
        out = ZOO_SLIPPED, snprintf(msg, mlen, "located at row %lld, which is right", (long long)row + 1);
    else
        out = ZOO_REJECTED, snprintf(msg, mlen, "rejected at row %lld (1-based)%s", (long long)row + 1,
                                     tries > 1 ? (t ? " after reruns" : " on the first run") : "");
done:
    spmm_oracle_free(&orc);
    pc_free(Y);
    pc_free(Yok);
    return out;
}

/* ---- inputs --------------------------------------------------------------- */

/* A seeded uniform matrix rows x cols with about nnz entries, and X. */
static int make_case(int32_t rows, int32_t cols, int64_t nnz, int K, mm_coo *coo, double **X)
{
    spmm_gen_params p = {.rows = rows, .cols = cols, .nnz = nnz, .shape = SPMM_SHAPE_UNIFORM, .seed = 16};
    if (spmm_gen_coo(&p, coo, NULL))
        return -1;
    if (spmm_make_x(cols, K, 17, 0, X, NULL)) {
        mm_coo_free(coo);
        return -1;
    }
    return 0;
}

/* The first row with an entry in column c, or -1. */
static int64_t first_row_with_col(const mm_coo *coo, int32_t c)
{
    int64_t best = -1;
    for (int64_t e = 0; e < coo->nnz; e++)
        if (coo->col[e] == c && (best < 0 || coo->row[e] < best))
            best = coo->row[e];
    return best;
}

/* Kernel entries: variant -> kernel, how many runs may be needed, and what
 * X holds. */
static int run_kernel_entry(const zoo_entry *self, char *msg, size_t len)
{
    const int K = 3;
    mm_coo coo;
    double *X;
    int racy = self->arg == 1 || self->arg == 2;
    /* racy kernels: enough work per run (about 0.4 M products) that the
     * threads are inside the loop together, even on a busy machine */
    if (racy ? make_case(4096, 4096, 4096 * 32, K, &coo, &X) : make_case(97, 80, 900, K, &coo, &X)) {
        snprintf(msg, len, "set-up failed");
        return ZOO_BROKEN;
    }
    zoo_spmm_in in;
    if (in_init(&in, &coo, X, K)) {
        pc_free(X);
        mm_coo_free(&coo);
        snprintf(msg, len, "set-up failed");
        return ZOO_BROKEN;
    }
    zoo_spmm_kernel kern = k_csr_serial;
    int64_t want = -1;
    int tries = 1, threads = 1;
    switch (self->arg) {
    case 0: /* last entry missing: the first row with an entry */
        kern = k_csr_last_entry;
        for (want = 0; want < in.csr.m && in.csr.irp[want + 1] == in.csr.irp[want]; want++)
            ;
        break;
    case 1:
    case 2:
        kern = self->arg == 1 ? k_row_sum_shared : k_row_range_shared;
        tries = 100;
        threads = 4;
        break;
    case 3: { /* padding: X = inf in the padding column of the first short row */
        int32_t r;
        for (r = 0; r < in.ell.m && in.ell.rowlen[r] == in.ell.maxnz; r++)
            ;
        int32_t c = in.ell.ja[(size_t)in.ell.rowlen[r] * in.ell.m + r];
        for (int k = 0; k < K; k++)
            X[(size_t)c * K + k] = k == 1 ? -INFINITY : INFINITY;
        want = r; /* rows before it have no padding */
        kern = k_ell_padding;
        break;
    }
    case 4: /* NaN in X: rows reading it must stay NaN */
        for (int k = 0; k < K; k++)
            X[(size_t)coo.col[0] * K + k] = NAN;
        want = first_row_with_col(&coo, coo.col[0]);
        kern = k_nan_dropped;
        break;
    case 5: /* control, with inf and NaN in X */
        X[(size_t)coo.col[0] * K] = INFINITY;
        X[(size_t)coo.col[1] * K + 1] = NAN;
        break;
    }
    int out = judge_entry(&in, kern, threads, tries, want, msg, len);
    if (self->control && out == ZOO_SLIPPED && !strncmp(msg, "accepted", 8))
        out = ZOO_REJECTED; /* for a control, "accepted" is the success */
    else if (self->control && out == ZOO_REJECTED)
        out = ZOO_SLIPPED;
    in_free(&in);
    pc_free(X);
    mm_coo_free(&coo);
    return out;
}

/* ---- wrong readers: triplets of a Matrix Market text --------------------- */

/* Bug classes of a hand-written reader: variant 0 overwrites a duplicate
 * (i, j) instead of summing; variant 1 mirrors the diagonal of a symmetric
 * matrix too, doubling it. The reference comes from parcheck's reader. */
static const char *const zoo_mm_text[2] = {
    "%%MatrixMarket matrix coordinate real general\n"
    "4 4 6\n1 1 1.5\n2 3 2\n3 1 -1\n3 4 4\n3 1 2.25\n4 2 3\n",
    "%%MatrixMarket matrix coordinate real symmetric\n"
    "4 4 5\n2 1 1.5\n3 2 -2\n3 3 4\n4 1 0.5\n4 4 3\n",
};

/* Y = A X from the text's triplets, read the wrong way; dense, 4 x 4. */
static int wrong_reader_spmm(int variant, const double *X, int K, double *Y)
{
    const char *s = zoo_mm_text[variant];
    double A[4][4] = {{0}};
    s = strchr(s, '\n') + 1;
    int m, n, nz, used;
    if (sscanf(s, "%d %d %d%n", &m, &n, &nz, &used) != 3)
        return -1;
    s += used;
    for (int e = 0; e < nz; e++) {
        int i, j;
        double v;
        if (sscanf(s, "%d %d %lf%n", &i, &j, &v, &used) != 3)
            return -1;
        s += used;
        if (variant == 0) {
            A[i - 1][j - 1] = v;      /* overwrites a duplicate */
        } else {
            A[i - 1][j - 1] += v;
            A[j - 1][i - 1] += v;     /* mirrors the diagonal onto itself */
        }
    }
    for (int i = 0; i < 4; i++)
        for (int k = 0; k < K; k++) {
            double acc = 0;
            for (int j = 0; j < 4; j++)
                acc += A[i][j] * X[j * K + k];
            Y[i * K + k] = acc;
        }
    return 0;
}

static const double *zoo_reader_y;

static void k_reader(const zoo_spmm_in *in, double *Y, int threads)
{
    (void)threads;
    memcpy(Y, zoo_reader_y, sizeof *Y * (size_t)in->coo->rows * (size_t)in->K);
}

static int run_reader_entry(const zoo_entry *self, char *msg, size_t len)
{
    const int K = 2;
    const char *text = zoo_mm_text[self->arg];
    mm_coo coo;
    if (mm_read_buffer("zoo.mtx", text, strlen(text), &coo, NULL)) {
        snprintf(msg, len, "set-up failed");
        return ZOO_BROKEN;
    }
    double X[8] = {1, 2, 3, 4, 5, 6, 7, 8}, Y[8];
    zoo_spmm_in in;
    if (wrong_reader_spmm(self->arg, X, K, Y) || in_init(&in, &coo, X, K)) {
        mm_coo_free(&coo);
        snprintf(msg, len, "set-up failed");
        return ZOO_BROKEN;
    }
    zoo_reader_y = Y;
    /* the duplicate (3,1) is on row 3; the first diagonal entry on row 3 */
    int out = judge_entry(&in, k_reader, 1, 1, 2, msg, len);
    in_free(&in);
    mm_coo_free(&coo);
    return out;
}

int zoo_spmm_race_once(const char *name, int threads)
{
    zoo_spmm_kernel kern;
    if (!strcmp(name, "spmm-row-sum-shared"))
        kern = k_row_sum_shared;
    else if (!strcmp(name, "spmm-row-range-shared"))
        kern = k_row_range_shared;
    else if (!strcmp(name, "spmm-csr-serial"))
        kern = k_csr_serial;
    else
        return -1;
    mm_coo coo;
    double *X;
    zoo_spmm_in in;
    /* enough rows that every thread takes chunks while the others run */
    if (make_case(8192, 256, 8192 * 8, 2, &coo, &X))
        return -1;
    if (in_init(&in, &coo, X, 2)) {
        pc_free(X);
        mm_coo_free(&coo);
        return -1;
    }
    double *Y = pc_malloc_array((size_t)8192 * 2, sizeof *Y);
    for (int r = 0; r < 4 && Y; r++) /* a late worker thread may miss one run */
        kern(&in, Y, threads);
    pc_free(Y);
    in_free(&in);
    pc_free(X);
    mm_coo_free(&coo);
    return 0;
}

const zoo_entry zoo_spmm_entries[] = {
    {"spmm-csr-last-entry", "CSR row loop missing its last entry", 0, run_kernel_entry, 0},
    {"spmm-row-sum-shared", "row sum shared between OpenMP threads (race)", 0, run_kernel_entry, 1},
    {"spmm-ell-padding", "ELLPACK padding read as a real entry, inf in X", 0, run_kernel_entry, 3},
    {"spmm-nan-dropped", "a finite answer where the reference is NaN", 0, run_kernel_entry, 4},
    {"spmm-mm-duplicate", "duplicate Matrix Market entries overwritten, not summed", 0, run_reader_entry, 0},
    {"spmm-sym-diagonal", "symmetric matrix with its diagonal doubled", 0, run_reader_entry, 1},
    {"spmm-control", "csr-serial with inf and NaN in X", 1, run_kernel_entry, 5},
    {NULL, NULL, 0, NULL, 0},
};
