// api_header_cxx.cpp - parcheck/parcheck.h compiles as C++11 after
// plugin.h (the return codes they share are defined once), its plain
// struct fills positionally, and its functions have C linkage: test_api
// links this object and calls api_cxx_identity_status.
#include <parcheck/plugin.h>
#include <parcheck/parcheck.h>

static_assert(sizeof(parcheck_dense) == 24, "parcheck_dense layout of ABI 0 (LP64)");
static_assert(PARCHECK_VERSION_NUMBER ==
                  PARCHECK_VERSION_MAJOR * 10000 + PARCHECK_VERSION_MINOR * 100 +
                      PARCHECK_VERSION_PATCH,
              "version number");

// The status of Y = I X with Y = X (a pass), or the error code.
extern "C" int api_cxx_identity_status(void)
{
    static const int64_t rowptr[] = {0, 1, 2};
    static const int32_t col[] = {0, 1};
    static const double val[] = {1.0, 1.0};
    static const double X[] = {1.0, 2.0, 3.0, 4.0};
    const parcheck_dense x = {X, PARCHECK_F64, PARCHECK_ROW_MAJOR, 0};
    parcheck_report *rep = parcheck_report_new();
    if (!rep)
        return PARCHECK_ENOMEM;
    char msg[128];
    int rc = parcheck_check_spmm(2, 2, 2, rowptr, col, val, &x, &x, 2, PARCHECK_F64, 1, rep, msg,
                                 sizeof msg);
    int status = rc == PARCHECK_OK ? parcheck_report_status(rep) : rc;
    parcheck_report_free(rep);
    return status;
}
