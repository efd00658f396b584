/* api_sa.c - parcheck_check_sa: the public element types mapped onto
 * oracles/sa/sa_check.h, which judges. */
#include "api_priv.h"
#include "check_fill.h"

static const char FUNC[] = "parcheck_check_sa";

/* The checker's element type, or -1. */
static int sa_type_of(int type)
{
    switch (type) {
    case PARCHECK_INT32: return SA_CHECK_I32;
    case PARCHECK_UINT32: return SA_CHECK_U32;
    case PARCHECK_INT64: return SA_CHECK_I64;
    case PARCHECK_UINT64: return SA_CHECK_U64;
    default: return -1;
    }
}

int parcheck_check_sa(const uint8_t *text, int64_t n, const void *sa, int sa_type,
                      const void *lcp, int lcp_type, parcheck_report *report, char *msg,
                      size_t msg_len)
{
    api_report_clear(report);
    if (!report)
        return api_fail(msg, msg_len, PARCHECK_EINVAL, FUNC, "report is NULL");
    if (n < 0)
        return api_fail(msg, msg_len, PARCHECK_EINVAL, FUNC, "n is %lld", (long long)n);
    if (n > 0 && (!text || !sa))
        return api_fail(msg, msg_len, PARCHECK_EINVAL, FUNC, "%s is NULL", text ? "sa" : "text");
    int st = sa_type_of(sa_type), lt = lcp ? sa_type_of(lcp_type) : SA_CHECK_I32;
    if (st < 0 || lt < 0)
        return api_fail(msg, msg_len, PARCHECK_EINVAL, FUNC,
                        "%s_type %d is not a PARCHECK_INT32/UINT32/INT64/UINT64",
                        st < 0 ? "sa" : "lcp", st < 0 ? sa_type : lcp_type);
    sa_check_report rep;
    pc_error err;
    pc_error_clear(&err);
    int rc = sa_check(text, n, sa, st, lcp, lt, 1, &rep, &err);
    if (rc)
        return api_fail_err(msg, msg_len, rc, FUNC, &err, "sa_check: ");
    check_fill_sa(&report->r, &rep, (int)sa_check_type_size(st) * 8);
    report->judged = 1;
    return PARCHECK_OK;
}
