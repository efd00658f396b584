/* api_spmm.c - parcheck_check_spmm and parcheck_spmm_poison: the public
 * types mapped onto oracles/spmm/spmm_check.h, which judges. */
#include "pc_omp.h"

#include "api_priv.h"
#include "check_fill.h"

static const char FUNC[] = "parcheck_check_spmm";

/* The checker's descriptor of a public dense matrix of rows x K. */
static int dense_desc(const char *what, const parcheck_dense *D, int64_t rows, int32_t K,
                      spmm_check_dense *out, char *msg, size_t msg_len)
{
    if (!D)
        return api_fail(msg, msg_len, PARCHECK_EINVAL, FUNC, "%s is NULL", what);
    if (D->dtype != PARCHECK_F64 && D->dtype != PARCHECK_F32)
        return api_fail(msg, msg_len, PARCHECK_EINVAL, FUNC,
                        "%s has dtype %d; PARCHECK_F64 or PARCHECK_F32", what, D->dtype);
    if (D->order != PARCHECK_ROW_MAJOR && D->order != PARCHECK_COL_MAJOR)
        return api_fail(msg, msg_len, PARCHECK_EINVAL, FUNC,
                        "%s has order %d; PARCHECK_ROW_MAJOR or PARCHECK_COL_MAJOR", what,
                        D->order);
    if (D->ld < 0)
        return api_fail(msg, msg_len, PARCHECK_EINVAL, FUNC, "%s has a negative ld (%lld)",
                        what, (long long)D->ld);
    int row = D->order == PARCHECK_ROW_MAJOR;
    *out = (spmm_check_dense){D->data, D->dtype == PARCHECK_F64 ? SPMM_CHECK_F64 : SPMM_CHECK_F32,
                              row ? SPMM_CHECK_ROW_MAJOR : SPMM_CHECK_COL_MAJOR,
                              D->ld ? D->ld : row ? K : rows};
    return PARCHECK_OK;
}

int parcheck_check_spmm(int32_t m, int32_t n, int64_t nnz, const int64_t *rowptr,
                        const int32_t *colind, const double *values, const parcheck_dense *X,
                        const parcheck_dense *Y, int32_t K, int precision, int threads,
                        parcheck_report *report, char *msg, size_t msg_len)
{
    api_report_clear(report);
    if (!report)
        return api_fail(msg, msg_len, PARCHECK_EINVAL, FUNC, "report is NULL");
    if (m < 0 || n < 0 || nnz < 0 || K < 1 || threads < 0)
        return api_fail(msg, msg_len, PARCHECK_EINVAL, FUNC,
                        "m %d, n %d, nnz %lld, K %d, threads %d: sizes must be >= 0, K >= 1",
                        (int)m, (int)n, (long long)nnz, (int)K, threads);
    if (precision != PARCHECK_F64 && precision != PARCHECK_F32)
        return api_fail(msg, msg_len, PARCHECK_EINVAL, FUNC,
                        "precision %d; PARCHECK_F64 or PARCHECK_F32", precision);
    if (!rowptr)
        return api_fail(msg, msg_len, PARCHECK_EINVAL, FUNC, "rowptr is NULL");
    if (rowptr[m] != nnz)
        return api_fail(msg, msg_len, PARCHECK_EINVAL, FUNC, "rowptr[m] is %lld but nnz is %lld",
                        (long long)rowptr[m], (long long)nnz);
    spmm_check_dense x, y;
    int rc;
    if ((rc = dense_desc("X", X, n, K, &x, msg, msg_len)) ||
        (rc = dense_desc("Y", Y, m, K, &y, msg, msg_len)))
        return rc;
    spmm_check_csr A = {m, n, rowptr, colind, values};
    spmm_check_report rep;
    pc_error err;
    pc_error_clear(&err);
    rc = spmm_check(&A, &x, &y, K, precision == PARCHECK_F64 ? SPMM_CHECK_FP64 : SPMM_CHECK_FP32,
                    threads ? threads : omp_get_max_threads(), &rep, &err);
    if (rc)
        return api_fail_err(msg, msg_len, rc, FUNC, &err, "spmm_check: ");
    check_fill_spmm(&report->r, &rep);
    report->judged = 1;
    return PARCHECK_OK;
}

int parcheck_spmm_poison(void *Y, int dtype, int64_t count)
{
    if (count < 0 || (!Y && count > 0) || (dtype != PARCHECK_F64 && dtype != PARCHECK_F32))
        return PARCHECK_EINVAL;
    spmm_check_poison(Y, dtype == PARCHECK_F64 ? SPMM_CHECK_F64 : SPMM_CHECK_F32, count);
    return PARCHECK_OK;
}
