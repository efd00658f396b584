/* Host SpMM kernels: Y = A*X with row-major X (n x K) and Y (m x K).
 *
 * One row-range body per format serves the serial and the OpenMP paths.
 * For every (i, k) the products are added in the stored order of row i
 * (recursive summation), which is what the oracle's bound assumes. */
#include <string.h>

#include "spmm.h"
#ifdef _OPENMP
#include "pc_omp.h"
#endif

/* Rows per chunk boundary: 16 rows of Y at K = 1 are two cache lines, so
 * two threads never write the same line (the seed's false-sharing rule). */
#define ROW_ALIGN 16
/* ELLPACK rows processed together so that each column-major slab is read
 * contiguously. */
#define ELL_BLOCK 256
/* Chunks per thread in csr-omp (see spmm_csr_omp). */
#define CSR_CHUNKS_PER_THREAD 64

/* Y[i, k0:k0+W] for one row, with the W partial sums held in registers while
 * the row's entries stream by (the row stays in L1, so A comes from memory
 * once whatever K is). W is a compile-time constant in the hot paths. */
#define CSR_ROW_BLOCK(W)                                                   \
    do {                                                                   \
        double acc[W] = {0};                                               \
        for (int32_t p = p0; p < p1; p++) {                                \
            const double a = as[p];                                        \
            const double *x = X + (size_t)ja[p] * K + k0;                  \
            for (int k = 0; k < (W); k++)                                  \
                acc[k] += a * x[k];                                        \
        }                                                                  \
        for (int k = 0; k < (W); k++)                                      \
            y[k0 + k] = acc[k];                                            \
    } while (0)

/* One row: entries p0 .. p1 of (ja, as), all K columns, W at a time. */
static inline void row_times_x(const int32_t *ja, const double *as, int32_t p0, int32_t p1,
                               const double *X, int K, double *y)
{
    int k0 = 0;
    for (; k0 + 8 <= K; k0 += 8)
        CSR_ROW_BLOCK(8);
    switch (K - k0) {
    case 0: break;
    case 1: CSR_ROW_BLOCK(1); break;
    case 2: CSR_ROW_BLOCK(2); break;
    case 3: CSR_ROW_BLOCK(3); break;
    case 4: CSR_ROW_BLOCK(4); break;
    case 5: CSR_ROW_BLOCK(5); break;
    case 6: CSR_ROW_BLOCK(6); break;
    default: CSR_ROW_BLOCK(7); break;
    }
}

static void csr_rows(const spmm_csr *A, const double *X, int K, double *Y,
                     int32_t r0, int32_t r1)
{
    for (int32_t i = r0; i < r1; i++)
        row_times_x(A->ja, A->as, A->irp[i], A->irp[i + 1], X, K, Y + (size_t)i * K);
}

/* Splits rows so that each thread gets about the same number of entries
 * (not of rows: power-law matrices would starve the other threads), with
 * boundaries on multiples of ROW_ALIGN. */
static int32_t csr_split(const spmm_csr *A, int part, int parts)
{
    if (part <= 0)
        return 0;
    if (part >= parts)
        return A->m;
    long long target = (long long)A->nnz * part / parts;
    int32_t lo = 0, hi = A->m;
    while (lo < hi) {
        int32_t mid = lo + (hi - lo) / 2;
        if (A->irp[mid] < target)
            lo = mid + 1;
        else
            hi = mid;
    }
    int32_t r = lo - lo % ROW_ALIGN;
    return r > A->m ? A->m : r;
}

void spmm_csr_serial(const spmm_csr *A, const double *X, int K, double *Y)
{
    csr_rows(A, X, K, Y, 0, A->m);
}

void spmm_csr_omp(const spmm_csr *A, const double *X, int K, double *Y, int threads)
{
    if (threads < 1)
        threads = 1;
    /* Many chunks of equal entry counts, handed out in order: the threads
     * stream neighbouring parts of A at the same time (measured faster
     * than one contiguous half each), and long rows still balance. */
    int parts = threads > 1 ? threads * CSR_CHUNKS_PER_THREAD : 1;
    #pragma omp parallel for num_threads(threads) if (threads > 1) schedule(dynamic, 1)
    for (int c = 0; c < parts; c++)
        csr_rows(A, X, K, Y, csr_split(A, c, parts), csr_split(A, c + 1, parts));
}

static void ell_rows(const spmm_ell *A, const double *X, int K, double *Y,
                     int32_t r0, int32_t r1)
{
    const size_t m = (size_t)A->m;
    for (int32_t b = r0; b < r1; b += ELL_BLOCK) {
        int32_t e = b + ELL_BLOCK < r1 ? b + ELL_BLOCK : r1;
        int32_t bmax = 0; /* the block's longest row: slabs past it are all padding */
        for (int32_t i = b; i < e; i++) {
            memset(Y + (size_t)i * K, 0, sizeof(double) * (size_t)K);
            if (A->rowlen[i] > bmax)
                bmax = A->rowlen[i];
        }
        /* Padding is skipped, not multiplied: 0 * X[col] is NaN where X
         * holds inf or NaN, and would turn an empty row's 0 (or a row's
         * inf) into NaN. */
        for (int32_t k = 0; k < bmax; k++) {
            const int32_t *ja = A->ja + (size_t)k * m;
            const double *as = A->as + (size_t)k * m;
            if (K == 1) {
                /* a select, not a branch: the loop stays vectorised */
                for (int32_t i = b; i < e; i++) {
                    double t = Y[i] + as[i] * X[ja[i]];
                    Y[i] = k < A->rowlen[i] ? t : Y[i];
                }
                continue;
            }
            for (int32_t i = b; i < e; i++) {
                if (k >= A->rowlen[i])
                    continue;
                const double a = as[i];
                const double *x = X + (size_t)ja[i] * K;
                double *y = Y + (size_t)i * K;
                for (int c = 0; c < K; c++)
                    y[c] += a * x[c];
            }
        }
    }
}

void spmm_ell_serial(const spmm_ell *A, const double *X, int K, double *Y)
{
    ell_rows(A, X, K, Y, 0, A->m);
}

void spmm_ell_omp(const spmm_ell *A, const double *X, int K, double *Y, int threads)
{
    (void)threads; /* read only by OpenMP pragmas: unused without OpenMP */
    int32_t nblocks = (A->m + ELL_BLOCK - 1) / ELL_BLOCK;
    /* Blocks handed out in order keep both threads in neighbouring parts
     * of each slab (as in spmm_csr_omp). */
    #pragma omp parallel for num_threads(threads) if (threads > 1) schedule(dynamic, 4)
    for (int32_t blk = 0; blk < nblocks; blk++) {
        int32_t r0 = blk * ELL_BLOCK;
        int32_t r1 = r0 + ELL_BLOCK < A->m ? r0 + ELL_BLOCK : A->m;
        ell_rows(A, X, K, Y, r0, r1);
    }
}

static void ellnp_rows(const spmm_ellnp *A, const double *X, int K, double *Y,
                       int32_t r0, int32_t r1)
{
    /* A jagged row is a CSR row of its own: entries 0 .. nz[i]. */
    for (int32_t i = r0; i < r1; i++)
        row_times_x(A->ja[i], A->as[i], 0, A->nz[i], X, K, Y + (size_t)i * K);
}

void spmm_ellnp_serial(const spmm_ellnp *A, const double *X, int K, double *Y)
{
    ellnp_rows(A, X, K, Y, 0, A->m);
}

void spmm_ellnp_omp(const spmm_ellnp *A, const double *X, int K, double *Y, int threads)
{
    (void)threads; /* read only by OpenMP pragmas: unused without OpenMP */
    /* Rows are jagged: dynamic chunks of aligned rows balance long rows. */
    int32_t chunks = (A->m + 4 * ROW_ALIGN - 1) / (4 * ROW_ALIGN);
    #pragma omp parallel for num_threads(threads) if (threads > 1) schedule(dynamic, 16)
    for (int32_t c = 0; c < chunks; c++) {
        int32_t r0 = c * 4 * ROW_ALIGN;
        int32_t r1 = r0 + 4 * ROW_ALIGN < A->m ? r0 + 4 * ROW_ALIGN : A->m;
        ellnp_rows(A, X, K, Y, r0, r1);
    }
}
