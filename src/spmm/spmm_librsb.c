/* spmm_librsb.c - librsb (Recursive Sparse Blocks) as the external CPU
 * reference of the SpMM table, where its development package was found at
 * build time.
 *
 * prepare assembles the matrix into librsb's own format from parcheck's
 * CSR (untimed, as a user would build it once); run is one rsb_spmm with
 * row-major X and Y, beta = 0 (librsb then overwrites Y, poison included),
 * on the thread count asked for. */
#include <stdio.h>

#include "pc_config.h"
#include "spmm_librsb.h"

#if PC_HAVE_LIBRSB
#include <rsb.h>

/* librsb keeps process-wide state: initialised on first use, never torn
 * down (another prepare may follow at any time). */
static int librsb_ready;

/* Copies librsb's message for code e into err; returns the parcheck code. */
static int librsb_error(pc_error *err, int code, rsb_err_t e, const char *what)
{
    char msg[200];
    msg[0] = '\0';
    rsb_strerror_r(e, msg, sizeof msg);
    return pc_error_set(err, code, NULL, 0, "librsb: %s: %s", what, msg);
}

/* Starts librsb once; 0 or a negative code with err set. */
static int librsb_init(pc_error *err)
{
    if (librsb_ready)
        return PC_OK;
    rsb_err_t e = rsb_lib_init(RSB_NULL_INIT_OPTIONS);
    if (e != RSB_ERR_NO_ERROR)
        return librsb_error(err, PC_EUNAVAIL, e, "rsb_lib_init");
    librsb_ready = 1;
    return PC_OK;
}

int spmm_librsb_available(const spmm_impl *self, char *why, size_t n)
{
    (void)self;
    (void)why;
    (void)n;
    return 1;
}

int spmm_librsb_prepare(const spmm_impl *self, const spmm_matrix *A, int K, void **state,
                        pc_error *err)
{
    (void)self;
    (void)K;
    *state = NULL;
    int rc = librsb_init(err);
    if (rc)
        return rc;
    const spmm_csr *c = &A->csr;
    rsb_err_t e = RSB_ERR_NO_ERROR;
    /* The CSR arrays are only read (the _const constructor copies them);
     * 1x1 blocking and no flags: a general matrix, zeros kept. */
    struct rsb_mtx_t *m = rsb_mtx_alloc_from_csr_const(c->as, c->irp, c->ja, c->nnz,
                                                       RSB_NUMERICAL_TYPE_DOUBLE, c->m, c->n, 1,
                                                       1, RSB_FLAG_NOFLAGS, &e);
    if (!m || e != RSB_ERR_NO_ERROR) {
        if (m)
            rsb_mtx_free(m);
        /* librsb refuses what it cannot represent: a skip with its reason */
        return librsb_error(err, e == RSB_ERR_ENOMEM ? PC_ENOMEM : PC_EUNAVAIL, e,
                            "cannot assemble this matrix");
    }
    *state = m;
    return PC_OK;
}

int spmm_librsb_run(const spmm_impl *self, void *state, const spmm_matrix *A, const double *X,
                    int K, double *Y, int threads, spmm_timing *t, pc_error *err)
{
    (void)self;
    (void)A;
    (void)t;
    rsb_int_t nt = threads > 0 ? threads : 1;
    rsb_err_t e = rsb_lib_set_opt(RSB_IO_WANT_EXECUTING_THREADS, &nt);
    if (e != RSB_ERR_NO_ERROR)
        return librsb_error(err, PC_EINVAL, e, "setting the thread count");
    const double one = 1.0, zero = 0.0;
    e = rsb_spmm(RSB_TRANSPOSITION_N, &one, state, K, RSB_FLAG_WANT_ROW_MAJOR_ORDER, X, K, &zero,
                 Y, K);
    if (e != RSB_ERR_NO_ERROR)
        return librsb_error(err, PC_EINVAL, e, "rsb_spmm");
    return PC_OK;
}

void spmm_librsb_release(void *state)
{
    if (state)
        rsb_mtx_free(state);
}

#else

int spmm_librsb_available(const spmm_impl *self, char *why, size_t n)
{
    (void)self;
    snprintf(why, n, "%s", PC_LIBRSB_WHY);
    return 0;
}

int spmm_librsb_prepare(const spmm_impl *self, const spmm_matrix *A, int K, void **state,
                        pc_error *err)
{
    (void)self;
    (void)A;
    (void)K;
    *state = NULL;
    return pc_error_set(err, PC_EUNAVAIL, NULL, 0, "%s", PC_LIBRSB_WHY);
}

int spmm_librsb_run(const spmm_impl *self, void *state, const spmm_matrix *A, const double *X,
                    int K, double *Y, int threads, spmm_timing *t, pc_error *err)
{
    (void)self;
    (void)state;
    (void)A;
    (void)X;
    (void)K;
    (void)Y;
    (void)threads;
    (void)t;
    return pc_error_set(err, PC_EUNAVAIL, NULL, 0, "%s", PC_LIBRSB_WHY);
}

void spmm_librsb_release(void *state) { (void)state; }

#endif
