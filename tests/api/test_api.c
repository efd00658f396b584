/* test_api.c - the public interface (include/parcheck/parcheck.h) through
 * its own functions only: version and return codes tied to the internal
 * ones, the report's getters (empty, cut texts, NULL), each check on right
 * and planted-wrong inputs of its domain with the exact where record,
 * every bad argument refused with a message and no crash, and the
 * allocation-failure loop over each check. Also calls the C++ translation
 * unit (api_header_cxx.cpp) that proves C linkage. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parcheck/parcheck.h"
#include "parcheck/plugin.h"
#include "pc_alloc.h"
#include "pc_error.h"
#include "pc_test.h"
#include "pc_version.h"
#include "pets.h"
#include "pets/pets_check.h"
#include "sa/sa_oracle.h"

int api_cxx_identity_status(void);

static parcheck_report *g_rep;
static char g_msg[512];

static void rep_setup(void)
{
    g_rep = parcheck_report_new();
    ck_assert_ptr_nonnull(g_rep);
    g_msg[0] = '\0';
}

static void rep_teardown(void)
{
    parcheck_report_free(g_rep);
    g_rep = NULL;
}

/* Where record i's integer field key. */
static int64_t where_int(int i, const char *key)
{
    int64_t v = -12345;
    ck_assert_msg(parcheck_report_where_int(g_rep, i, key, &v) == PARCHECK_OK,
                  "where[%d] has no integer '%s'", i, key);
    return v;
}

static double where_num(int i, const char *key)
{
    double v = -1;
    ck_assert_msg(parcheck_report_where_num(g_rep, i, key, &v) == PARCHECK_OK,
                  "where[%d] has no number '%s'", i, key);
    return v;
}

/* Where record i's field key as text (static buffer). */
static const char *where_str(int i, const char *key)
{
    static char b[200];
    ck_assert_msg(parcheck_report_where_str(g_rep, i, key, b, sizeof b) == PARCHECK_OK,
                  "where[%d] has no '%s'", i, key);
    return b;
}

static double metric(const char *name)
{
    double v = -1;
    ck_assert_msg(parcheck_report_metric(g_rep, name, &v) == PARCHECK_OK, "no metric '%s'", name);
    return v;
}

static const char *why(void)
{
    static char b[600];
    ck_assert_int_eq(parcheck_report_why(g_rep, b, sizeof b), PARCHECK_OK);
    return b;
}

static const char *summary(void)
{
    static char b[300];
    ck_assert_int_eq(parcheck_report_summary(g_rep, b, sizeof b), PARCHECK_OK);
    return b;
}

/* ---- version and codes ---------------------------------------------------- */

START_TEST(version_is_one_number_everywhere)
{
    ck_assert_uint_eq(parcheck_version_number(), PARCHECK_VERSION_NUMBER);
    ck_assert_int_eq(PARCHECK_VERSION_NUMBER, PARCHECK_VERSION_MAJOR * 10000 +
                                                  PARCHECK_VERSION_MINOR * 100 +
                                                  PARCHECK_VERSION_PATCH);
    char dotted[32];
    snprintf(dotted, sizeof dotted, "%d.%d.%d", PARCHECK_VERSION_MAJOR, PARCHECK_VERSION_MINOR,
             PARCHECK_VERSION_PATCH);
    ck_assert_str_eq(PARCHECK_VERSION_STRING, dotted);
    ck_assert_str_eq(parcheck_version_string(), dotted);
    ck_assert_str_eq(PC_VERSION, dotted); /* what --version and the JSON print */
    ck_assert_str_eq(dotted, "0.2.0");
}
END_TEST

START_TEST(codes_are_the_internal_ones)
{
    static const struct { int pub, internal; const char *name; } codes[] = {
        {PARCHECK_OK, PC_OK, "OK"},           {PARCHECK_EINVAL, PC_EINVAL, "EINVAL"},
        {PARCHECK_ENOMEM, PC_ENOMEM, "ENOMEM"}, {PARCHECK_EIO, PC_EIO, "EIO"},
        {PARCHECK_EFORMAT, PC_EFORMAT, "EFORMAT"}, {PARCHECK_ERANGE, PC_ERANGE, "ERANGE"},
        {PARCHECK_EUNSUP, PC_EUNSUP, "EUNSUP"}, {PARCHECK_EUNAVAIL, PC_EUNAVAIL, "EUNAVAIL"},
        {PARCHECK_EDEVICE, PC_EDEVICE, "EDEVICE"}, {PARCHECK_EVERIFY, PC_EVERIFY, "EVERIFY"},
    };
    for (size_t k = 0; k < sizeof codes / sizeof *codes; k++) {
        ck_assert_int_eq(codes[k].pub, codes[k].internal);
        ck_assert_int_eq(codes[k].pub, -(int)k);
        ck_assert_str_eq(parcheck_error_name(codes[k].pub), codes[k].name);
    }
    ck_assert_str_eq(parcheck_error_name(-10), "E?");
    ck_assert_str_eq(parcheck_error_name(1), "E?");
}
END_TEST

START_TEST(cxx_caller_links_and_passes)
{
    ck_assert_int_eq(api_cxx_identity_status(), PARCHECK_PASS);
}
END_TEST

/* ---- the report --------------------------------------------------------------- */

START_TEST(new_report_is_empty)
{
    char b[8] = "x";
    double v = 7;
    int64_t iv = 7;
    ck_assert_int_eq(parcheck_report_status(g_rep), PARCHECK_NONE);
    ck_assert_int_eq(parcheck_report_why(g_rep, b, sizeof b), PARCHECK_OK);
    ck_assert_str_eq(b, "");
    ck_assert_int_eq(parcheck_report_summary(g_rep, b, sizeof b), PARCHECK_OK);
    ck_assert_str_eq(b, "");
    ck_assert_int_eq(parcheck_report_metric_count(g_rep), 0);
    ck_assert_ptr_null(parcheck_report_metric_name(g_rep, 0));
    ck_assert_int_eq(parcheck_report_metric(g_rep, "makespan", &v), PARCHECK_EINVAL);
    ck_assert(v == 7);
    ck_assert_int_eq(parcheck_report_where_count(g_rep), 0);
    ck_assert_int_eq(parcheck_report_where_int(g_rep, 0, "row", &iv), PARCHECK_EINVAL);
    ck_assert_int_eq(parcheck_report_where_line(g_rep, 0, b, sizeof b), PARCHECK_EINVAL);
}
END_TEST

START_TEST(null_report_is_refused_not_dereferenced)
{
    char b[8];
    double v;
    ck_assert_int_eq(parcheck_report_status(NULL), PARCHECK_NONE);
    ck_assert_int_eq(parcheck_report_why(NULL, b, sizeof b), PARCHECK_EINVAL);
    ck_assert_int_eq(parcheck_report_summary(NULL, b, sizeof b), PARCHECK_EINVAL);
    ck_assert_int_eq(parcheck_report_metric(NULL, "n", &v), PARCHECK_EINVAL);
    ck_assert_int_eq(parcheck_report_metric(g_rep, NULL, &v), PARCHECK_EINVAL);
    ck_assert_int_eq(parcheck_report_metric_count(NULL), 0);
    ck_assert_ptr_null(parcheck_report_metric_name(NULL, 0));
    ck_assert_int_eq(parcheck_report_where_count(NULL), 0);
    ck_assert_int_eq(parcheck_report_where_num(NULL, 0, "row", &v), PARCHECK_EINVAL);
    ck_assert_int_eq(parcheck_report_where_str(NULL, 0, "row", b, sizeof b), PARCHECK_EINVAL);
    parcheck_report_free(NULL);
}
END_TEST

/* ---- SpMM ------------------------------------------------------------------ */

/* A 5 x 4 CSR with an empty row (row 2) and a full one (row 3), real
 * values; X 4 x 3 row-major; K = 3. */
enum { SM = 5, SN = 4, SK = 3, SNNZ = 9 };
static const int64_t S_ROWPTR[SM + 1] = {0, 2, 2, 6, 7, 9};
static const int32_t S_COL[SNNZ] = {0, 3, 0, 1, 2, 3, 2, 1, 3};
static const double S_VAL[SNNZ] = {0.1, -2.5, 1.0 / 3, 0.7, -1.1, 3.3, 9.9, -0.4, 2.2};
static double g_x[SN * SK], g_xcol[SN * SK], g_y[SM * SK];

/* Y = A X by the obvious loop, in row order (within any bound). */
static void spmm_setup(void)
{
    rep_setup();
    for (int j = 0; j < SN; j++)
        for (int k = 0; k < SK; k++) {
            g_x[j * SK + k] = 0.3 * j - 0.77 * k + 0.125;
            g_xcol[j + k * SN] = g_x[j * SK + k];
        }
    for (int i = 0; i < SM; i++)
        for (int k = 0; k < SK; k++) {
            double s = 0;
            for (int64_t e = S_ROWPTR[i]; e < S_ROWPTR[i + 1]; e++)
                s += S_VAL[e] * g_x[S_COL[e] * SK + k];
            g_y[i * SK + k] = s;
        }
}

static int check_spmm(const parcheck_dense *X, const parcheck_dense *Y)
{
    return parcheck_check_spmm(SM, SN, SNNZ, S_ROWPTR, S_COL, S_VAL, X, Y, SK, PARCHECK_F64, 2,
                               g_rep, g_msg, sizeof g_msg);
}

static const parcheck_dense X_ROW = {g_x, PARCHECK_F64, PARCHECK_ROW_MAJOR, 0};
static const parcheck_dense Y_ROW = {g_y, PARCHECK_F64, PARCHECK_ROW_MAJOR, 0};

START_TEST(spmm_right_product_passes_in_every_layout)
{
    ck_assert_int_eq(check_spmm(&X_ROW, &Y_ROW), PARCHECK_OK);
    ck_assert_msg(parcheck_report_status(g_rep) == PARCHECK_PASS, "%s", why());
    ck_assert_str_eq(why(), "");
    ck_assert_str_eq(summary(), "");
    ck_assert_int_eq(parcheck_report_where_count(g_rep), 0);
    ck_assert(metric("entries_checked") == SM * SK);
    ck_assert(metric("exact_required") == 0);
    ck_assert(metric("bad_entries") == 0);
    ck_assert(metric("unit_roundoff") == 0x1p-53);
    ck_assert(metric("max_err_over_bound") <= 1.0);
    ck_assert_int_eq(parcheck_report_metric_count(g_rep), 11);
    ck_assert_str_eq(parcheck_report_metric_name(g_rep, 0), "max_rel_err");
    /* column-major X; Y column-major with a padded leading dimension */
    double ypad[(SM + 3) * SK];
    for (int i = 0; i < SM; i++)
        for (int k = 0; k < SK; k++)
            ypad[i + k * (SM + 3)] = g_y[i * SK + k];
    parcheck_dense xc = {g_xcol, PARCHECK_F64, PARCHECK_COL_MAJOR, 0};
    parcheck_dense yc = {ypad, PARCHECK_F64, PARCHECK_COL_MAJOR, SM + 3};
    ck_assert_int_eq(check_spmm(&xc, &yc), PARCHECK_OK);
    ck_assert_msg(parcheck_report_status(g_rep) == PARCHECK_PASS, "%s", why());
    /* threads 0: OpenMP's default */
    ck_assert_int_eq(parcheck_check_spmm(SM, SN, SNNZ, S_ROWPTR, S_COL, S_VAL, &xc, &yc, SK,
                                         PARCHECK_F64, 0, g_rep, g_msg, sizeof g_msg),
                     PARCHECK_OK);
    ck_assert_int_eq(parcheck_report_status(g_rep), PARCHECK_PASS);
}
END_TEST

START_TEST(spmm_empty_matrix_passes)
{
    static const int64_t rowptr0[1] = {0};
    parcheck_dense none = {NULL, PARCHECK_F64, PARCHECK_ROW_MAJOR, 0};
    ck_assert_int_eq(parcheck_check_spmm(0, 0, 0, rowptr0, NULL, NULL, &none, &none, 4,
                                         PARCHECK_F64, 1, g_rep, g_msg, sizeof g_msg),
                     PARCHECK_OK);
    ck_assert_int_eq(parcheck_report_status(g_rep), PARCHECK_PASS);
    ck_assert(metric("entries_checked") == 0);
    /* rows without entries: Y must be all zeros */
    double y[SM * 2] = {0};
    parcheck_dense x = {g_x, PARCHECK_F64, PARCHECK_ROW_MAJOR, SK};
    parcheck_dense yd = {y, PARCHECK_F64, PARCHECK_ROW_MAJOR, 0};
    int64_t rowptr[SM + 1] = {0};
    ck_assert_int_eq(parcheck_check_spmm(SM, SN, 0, rowptr, NULL, NULL, &x, &yd, 2, PARCHECK_F64,
                                         1, g_rep, g_msg, sizeof g_msg),
                     PARCHECK_OK);
    ck_assert_int_eq(parcheck_report_status(g_rep), PARCHECK_PASS);
    y[7] = 1e-300;
    ck_assert_int_eq(parcheck_check_spmm(SM, SN, 0, rowptr, NULL, NULL, &x, &yd, 2, PARCHECK_F64,
                                         1, g_rep, g_msg, sizeof g_msg),
                     PARCHECK_OK);
    ck_assert_int_eq(parcheck_report_status(g_rep), PARCHECK_FAIL);
    ck_assert_int_eq(where_int(0, "row"), 4);
    ck_assert_int_eq(where_int(0, "col"), 2);
}
END_TEST

START_TEST(report_is_reused_across_domains)
{
    ck_assert_int_eq(check_spmm(&X_ROW, &Y_ROW), PARCHECK_OK);
    ck_assert_int_eq(parcheck_report_metric_count(g_rep), 11);
    static const uint8_t t[] = "banana";
    static const int32_t sa[] = {5, 3, 1, 0, 4, 2};
    ck_assert_int_eq(parcheck_check_sa(t, 6, sa, PARCHECK_INT32, NULL, 0, g_rep, g_msg,
                                       sizeof g_msg),
                     PARCHECK_OK);
    ck_assert_int_eq(parcheck_report_status(g_rep), PARCHECK_PASS);
    double v;
    ck_assert_int_eq(parcheck_report_metric(g_rep, "entries_checked", &v), PARCHECK_EINVAL);
    ck_assert(metric("lrs_length") == 3); /* "ana" */
    ck_assert_int_eq(parcheck_report_metric_count(g_rep), 6);
}
END_TEST

START_TEST(spmm_float_result_is_judged_in_single_precision)
{
    float xf[SN * SK], yf[SM * SK];
    for (int j = 0; j < SN * SK; j++)
        xf[j] = (float)g_x[j];
    for (int i = 0; i < SM; i++)
        for (int k = 0; k < SK; k++) {
            float s = 0;
            for (int64_t e = S_ROWPTR[i]; e < S_ROWPTR[i + 1]; e++)
                s += (float)S_VAL[e] * xf[S_COL[e] * SK + k];
            yf[i * SK + k] = s;
        }
    parcheck_dense x = {xf, PARCHECK_F32, PARCHECK_ROW_MAJOR, 0};
    parcheck_dense y = {yf, PARCHECK_F32, PARCHECK_ROW_MAJOR, 0};
    ck_assert_int_eq(parcheck_check_spmm(SM, SN, SNNZ, S_ROWPTR, S_COL, S_VAL, &x, &y, SK,
                                         PARCHECK_F32, 1, g_rep, g_msg, sizeof g_msg),
                     PARCHECK_OK);
    ck_assert_msg(parcheck_report_status(g_rep) == PARCHECK_PASS, "%s", why());
    ck_assert(metric("unit_roundoff") == 0x1p-24);
    /* the float answer is far outside the fp64 bound */
    ck_assert_int_eq(parcheck_check_spmm(SM, SN, SNNZ, S_ROWPTR, S_COL, S_VAL, &x, &y, SK,
                                         PARCHECK_F64, 1, g_rep, g_msg, sizeof g_msg),
                     PARCHECK_OK);
    ck_assert_int_eq(parcheck_report_status(g_rep), PARCHECK_FAIL);
}
END_TEST

START_TEST(spmm_planted_error_fails_at_its_entry)
{
    double right = g_y[2 * SK + 1];
    g_y[2 * SK + 1] = right + 1e-9;
    ck_assert_int_eq(check_spmm(&X_ROW, &Y_ROW), PARCHECK_OK);
    ck_assert_int_eq(parcheck_report_status(g_rep), PARCHECK_FAIL);
    ck_assert_int_eq(parcheck_report_where_count(g_rep), 1);
    /* 1-based, as the why text and the JSON count (A5) */
    ck_assert_int_eq(where_int(0, "row"), 3);
    ck_assert_int_eq(where_int(0, "col"), 2);
    ck_assert(where_num(0, "got") == right + 1e-9);
    ck_assert(fabs(where_num(0, "expected") - right) <= where_num(0, "bound"));
    ck_assert(where_num(0, "bound") > 0 && where_num(0, "bound") < 1e-9);
    ck_assert_msg(strncmp(why(), "Y(3,2) = ", 9) == 0, "%s", why());
    ck_assert_ptr_nonnull(strstr(why(), "(1 bad entries)"));
    ck_assert_str_eq(summary(), "row 3 wrong; all other rows within bound");
    ck_assert(metric("bad_entries") == 1 && metric("bad_rows") == 1);
    ck_assert(metric("max_err_over_bound") > 1.0);
    /* a real field is not an integer */
    int64_t iv;
    ck_assert_int_eq(parcheck_report_where_int(g_rep, 0, "got", &iv), PARCHECK_EINVAL);
    ck_assert_int_eq(parcheck_report_where_int(g_rep, 1, "row", &iv), PARCHECK_EINVAL);
    ck_assert_int_eq(parcheck_report_where_int(g_rep, 0, "nope", &iv), PARCHECK_EINVAL);
    char line[256];
    ck_assert_int_eq(parcheck_report_where_line(g_rep, 0, line, sizeof line), PARCHECK_OK);
    ck_assert_msg(strncmp(line, "row=3 col=2 got=", 16) == 0 && strstr(line, " expected=") &&
                      strstr(line, " bound="),
                  "%s", line);
}
END_TEST

START_TEST(spmm_integer_inputs_must_be_exact)
{
    static const double ival[SNNZ] = {1, -2, 3, 4, -5, 6, 7, -8, 9};
    double xi[SN * SK], yi[SM * SK];
    for (int j = 0; j < SN * SK; j++)
        xi[j] = (double)(j % 7 - 3);
    for (int i = 0; i < SM; i++)
        for (int k = 0; k < SK; k++) {
            double s = 0;
            for (int64_t e = S_ROWPTR[i]; e < S_ROWPTR[i + 1]; e++)
                s += ival[e] * xi[S_COL[e] * SK + k];
            yi[i * SK + k] = s;
        }
    parcheck_dense x = {xi, PARCHECK_F64, PARCHECK_ROW_MAJOR, 0};
    parcheck_dense y = {yi, PARCHECK_F64, PARCHECK_ROW_MAJOR, 0};
    ck_assert_int_eq(parcheck_check_spmm(SM, SN, SNNZ, S_ROWPTR, S_COL, ival, &x, &y, SK,
                                         PARCHECK_F64, 1, g_rep, g_msg, sizeof g_msg),
                     PARCHECK_OK);
    ck_assert_msg(parcheck_report_status(g_rep) == PARCHECK_PASS, "%s", why());
    ck_assert(metric("exact_required") == 1);
    yi[4 * SK + 2] = nextafter(yi[4 * SK + 2], INFINITY); /* one ulp */
    ck_assert_int_eq(parcheck_check_spmm(SM, SN, SNNZ, S_ROWPTR, S_COL, ival, &x, &y, SK,
                                         PARCHECK_F64, 1, g_rep, g_msg, sizeof g_msg),
                     PARCHECK_OK);
    ck_assert_int_eq(parcheck_report_status(g_rep), PARCHECK_FAIL);
    ck_assert_int_eq(where_int(0, "row"), 5);
    ck_assert_int_eq(where_int(0, "col"), 3);
    ck_assert_ptr_nonnull(strstr(why(), "integer inputs give exactly"));
    ck_assert_str_eq(summary(), "row 5 wrong; all other rows exact");
}
END_TEST

START_TEST(spmm_unwritten_entry_is_named)
{
    double y[SM * SK];
    ck_assert_int_eq(parcheck_spmm_poison(y, PARCHECK_F64, SM * SK), PARCHECK_OK);
    ck_assert(isnan(y[0]));
    memcpy(y, g_y, sizeof y - sizeof y[0]); /* all but the last entry */
    parcheck_dense yd = {y, PARCHECK_F64, PARCHECK_ROW_MAJOR, 0};
    ck_assert_int_eq(check_spmm(&X_ROW, &yd), PARCHECK_OK);
    ck_assert_int_eq(parcheck_report_status(g_rep), PARCHECK_FAIL);
    ck_assert_ptr_nonnull(strstr(why(), "Y(5,3) was never written"));
    float f[4];
    ck_assert_int_eq(parcheck_spmm_poison(f, PARCHECK_F32, 4), PARCHECK_OK);
    ck_assert(isnan(f[3]));
    ck_assert_int_eq(parcheck_spmm_poison(NULL, PARCHECK_F64, 0), PARCHECK_OK);
    ck_assert_int_eq(parcheck_spmm_poison(NULL, PARCHECK_F64, 1), PARCHECK_EINVAL);
    ck_assert_int_eq(parcheck_spmm_poison(f, 7, 1), PARCHECK_EINVAL);
    ck_assert_int_eq(parcheck_spmm_poison(f, PARCHECK_F32, -1), PARCHECK_EINVAL);
}
END_TEST

/* Bad SpMM calls: each refused with PARCHECK_EINVAL and a message naming
 * the problem, after a failing verdict that the refusal must clear. */
static const struct {
    const char *what, *msg;
} spmm_bad[] = {
    {"report", "report is NULL"},
    {"X", "X is NULL"},
    {"m", "sizes must be >= 0"},
    {"K", "sizes must be >= 0, K >= 1"},
    {"threads", "threads -1"},
    {"precision", "precision 7"},
    {"rowptr", "rowptr is NULL"},
    {"nnz", "rowptr[m] is 9 but nnz is 8"},
    {"dtype", "X has dtype 5"},
    {"order", "Y has order 9"},
    {"ld<0", "Y has a negative ld"},
    {"ld<K", "Y is NULL or its leading dimension 2 is below 3"},
    {"ydata", "Y is NULL"},
    {"col", "row 4 holds a column index outside [0, 4)"},
    {"rowptr0", "rowptr[0] is 1, not 0"},
    {"decreasing", "rowptr decreases"},
};

START_TEST(spmm_bad_arguments_are_refused_with_a_message)
{
    g_y[0] += 1; /* a failing verdict first */
    ck_assert_int_eq(check_spmm(&X_ROW, &Y_ROW), PARCHECK_OK);
    ck_assert_int_eq(parcheck_report_status(g_rep), PARCHECK_FAIL);
    const char *w = spmm_bad[_i].what;
    int32_t m = SM, K = SK;
    int64_t nnz = SNNZ;
    int threads = 1, precision = PARCHECK_F64;
    int64_t rowptr[SM + 1];
    int32_t col[SNNZ];
    memcpy(rowptr, S_ROWPTR, sizeof rowptr);
    memcpy(col, S_COL, sizeof col);
    parcheck_dense X = X_ROW, Y = Y_ROW;
    const parcheck_dense *xp = &X;
    parcheck_report *rep = g_rep;
    const int64_t *rp = rowptr;
    if (!strcmp(w, "report")) rep = NULL;
    if (!strcmp(w, "X")) xp = NULL;
    if (!strcmp(w, "m")) m = -1;
    if (!strcmp(w, "K")) K = 0;
    if (!strcmp(w, "threads")) threads = -1;
    if (!strcmp(w, "precision")) precision = 7;
    if (!strcmp(w, "rowptr")) rp = NULL;
    if (!strcmp(w, "nnz")) nnz = SNNZ - 1;
    if (!strcmp(w, "dtype")) X.dtype = 5;
    if (!strcmp(w, "order")) Y.order = 9;
    if (!strcmp(w, "ld<0")) Y.ld = -3;
    if (!strcmp(w, "ld<K")) Y.ld = 2;
    if (!strcmp(w, "ydata")) Y.data = NULL;
    if (!strcmp(w, "col")) col[7] = 4;
    if (!strcmp(w, "rowptr0")) rowptr[0] = 1;
    if (!strcmp(w, "decreasing")) rowptr[3] = 1;
    int rc = parcheck_check_spmm(m, SN, nnz, rp, col, S_VAL, xp, &Y, K, precision, threads, rep,
                                 g_msg, sizeof g_msg);
    ck_assert_int_eq(rc, PARCHECK_EINVAL);
    ck_assert_msg(strncmp(g_msg, "parcheck_check_spmm: ", 21) == 0, "%s", g_msg);
    ck_assert_msg(strstr(g_msg, spmm_bad[_i].msg), "'%s' lacks '%s'", g_msg, spmm_bad[_i].msg);
    ck_assert_int_eq(parcheck_report_status(g_rep), rep ? PARCHECK_NONE : PARCHECK_FAIL);
    /* no message buffer: the same code */
    ck_assert_int_eq(parcheck_check_spmm(m, SN, nnz, rp, col, S_VAL, xp, &Y, K, precision,
                                         threads, rep, NULL, 0),
                     PARCHECK_EINVAL);
}
END_TEST

START_TEST(messages_and_texts_are_cut_to_fit)
{
    char small[10] = "xxxxxxxxx";
    ck_assert_int_eq(parcheck_check_spmm(-1, 0, 0, S_ROWPTR, S_COL, S_VAL, &X_ROW, &Y_ROW, SK,
                                         PARCHECK_F64, 1, g_rep, small, sizeof small),
                     PARCHECK_EINVAL);
    ck_assert_str_eq(small, "parcheck_");
    ck_assert_int_eq(parcheck_check_spmm(-1, 0, 0, S_ROWPTR, S_COL, S_VAL, &X_ROW, &Y_ROW, SK,
                                         PARCHECK_F64, 1, g_rep, small, 1),
                     PARCHECK_EINVAL);
    ck_assert_str_eq(small, "");
    g_y[0] += 1;
    ck_assert_int_eq(check_spmm(&X_ROW, &Y_ROW), PARCHECK_OK);
    char full[600], cut[8];
    ck_assert_int_eq(parcheck_report_why(g_rep, full, sizeof full), PARCHECK_OK);
    ck_assert_int_eq(parcheck_report_why(g_rep, cut, sizeof cut), PARCHECK_ERANGE);
    ck_assert_uint_eq(strlen(cut), sizeof cut - 1);
    ck_assert(strncmp(cut, full, sizeof cut - 1) == 0);
    ck_assert_int_eq(parcheck_report_why(g_rep, NULL, 0), PARCHECK_ERANGE);
    ck_assert_int_eq(parcheck_report_why(g_rep, NULL, 4), PARCHECK_EINVAL);
    ck_assert_int_eq(parcheck_report_where_str(g_rep, 0, "row", cut, 1), PARCHECK_ERANGE);
    ck_assert_str_eq(cut, "");
    ck_assert_int_eq(parcheck_report_where_line(g_rep, 0, cut, sizeof cut), PARCHECK_ERANGE);
    ck_assert_str_eq(cut, "row=1 c");
}
END_TEST

/* ---- suffix arrays ------------------------------------------------------------ */

static const uint8_t MISS[] = "mississippi\x00\xff\x80mississippi";
#define NMISS ((int64_t)(sizeof MISS - 1))
static int32_t g_sa[NMISS], g_lcp[NMISS];

static void sa_setup(void)
{
    rep_setup();
    pc_error err;
    ck_assert_int_eq(sa_oracle_naive_sa(MISS, (int32_t)NMISS, g_sa, &err), 0);
    sa_oracle_naive_lcp(MISS, (int32_t)NMISS, g_sa, g_lcp);
}

/* v converted to an array of type (free with free()). */
static void *as_type(const int32_t *v, int type)
{
    size_t w = type == PARCHECK_INT32 || type == PARCHECK_UINT32 ? 4 : 8;
    void *a = malloc(w * NMISS);
    ck_assert_ptr_nonnull(a);
    for (int64_t i = 0; i < NMISS; i++) {
        if (w == 4)
            ((int32_t *)a)[i] = v[i];
        else
            ((int64_t *)a)[i] = v[i];
    }
    return a;
}

static int check_sa(const int32_t *sa, const int32_t *lcp)
{
    return parcheck_check_sa(MISS, NMISS, sa, PARCHECK_INT32, lcp, PARCHECK_INT32, g_rep, g_msg,
                             sizeof g_msg);
}

START_TEST(sa_right_arrays_of_every_type_pass)
{
    int type = _i;
    void *sa = as_type(g_sa, type), *lcp = as_type(g_lcp, type);
    ck_assert_int_eq(parcheck_check_sa(MISS, NMISS, sa, type, lcp, type, g_rep, g_msg,
                                       sizeof g_msg),
                     PARCHECK_OK);
    ck_assert_msg(parcheck_report_status(g_rep) == PARCHECK_PASS, "%s", why());
    ck_assert(metric("sa_equal") == 1 && metric("lcp_equal") == 1);
    ck_assert(metric("lrs_length") == 11); /* "mississippi" twice */
    ck_assert(metric("lrs_pos") == 0 || metric("lrs_pos") == 14);
    ck_assert(metric("lrs_pos") + metric("lrs_pos2") == 14);
    ck_assert(metric("n") == NMISS);
    ck_assert(metric("width") == (type < PARCHECK_INT64 ? 32 : 64));
    free(sa);
    free(lcp);
    /* without an LCP: no lcp_equal, the repeat still found */
    ck_assert_int_eq(check_sa(g_sa, NULL), PARCHECK_OK);
    ck_assert_int_eq(parcheck_report_status(g_rep), PARCHECK_PASS);
    double v;
    ck_assert_int_eq(parcheck_report_metric(g_rep, "lcp_equal", &v), PARCHECK_EINVAL);
    ck_assert(metric("lrs_length") == 11);
}
END_TEST

START_TEST(sa_empty_text_passes)
{
    ck_assert_int_eq(parcheck_check_sa(NULL, 0, NULL, PARCHECK_INT64, NULL, 99, g_rep, g_msg,
                                       sizeof g_msg),
                     PARCHECK_OK);
    ck_assert_int_eq(parcheck_report_status(g_rep), PARCHECK_PASS);
    ck_assert(metric("n") == 0);
}
END_TEST

START_TEST(sa_swapped_pair_fails_as_order_at_the_pair)
{
    int32_t t = g_sa[6];
    g_sa[6] = g_sa[7];
    g_sa[7] = t;
    ck_assert_int_eq(check_sa(g_sa, g_lcp), PARCHECK_OK);
    ck_assert_int_eq(parcheck_report_status(g_rep), PARCHECK_FAIL);
    int n = parcheck_report_where_count(g_rep), found = 0;
    ck_assert_int_ge(n, 1);
    for (int i = 0; i < n; i++) {
        ck_assert_str_eq(where_str(i, "rule"), "order");
        if (where_int(i, "index") == 7) {
            found = 1;
            ck_assert_int_eq(where_int(i, "sa_prev"), g_sa[6]);
            ck_assert_int_eq(where_int(i, "sa"), g_sa[7]);
            ck_assert_int_eq(where_int(i, "inverted"), 1);
        }
    }
    ck_assert(found);
    ck_assert_ptr_nonnull(strstr(why(), "out of order"));
    ck_assert_ptr_nonnull(strstr(summary(), "adjacent pairs fail the order test"));
    ck_assert(metric("sa_equal") == 0);
    double v;
    ck_assert_int_eq(parcheck_report_metric(g_rep, "lrs_length", &v), PARCHECK_EINVAL);
}
END_TEST

START_TEST(sa_duplicate_fails_as_permutation)
{
    g_sa[5] = g_sa[2];
    ck_assert_int_eq(check_sa(g_sa, NULL), PARCHECK_OK);
    ck_assert_int_eq(parcheck_report_status(g_rep), PARCHECK_FAIL);
    ck_assert_int_eq(parcheck_report_where_count(g_rep), 1);
    ck_assert_int_eq(where_int(0, "index"), 5);
    ck_assert_str_eq(where_str(0, "rule"), "permutation");
    ck_assert_str_eq(where_str(0, "problem"), "duplicate");
    ck_assert_int_eq(where_int(0, "first_index"), 2);
    ck_assert_int_eq(where_int(0, "sa"), g_sa[2]);
    ck_assert_ptr_nonnull(strstr(summary(), "not a permutation"));
}
END_TEST

START_TEST(sa_huge_unsigned_value_is_kept_as_text)
{
    uint64_t *sa = as_type(g_sa, PARCHECK_UINT64);
    sa[3] = UINT64_MAX;
    ck_assert_int_eq(parcheck_check_sa(MISS, NMISS, sa, PARCHECK_UINT64, NULL, 0, g_rep, g_msg,
                                       sizeof g_msg),
                     PARCHECK_OK);
    ck_assert_int_eq(parcheck_report_status(g_rep), PARCHECK_FAIL);
    ck_assert_int_eq(where_int(0, "index"), 3);
    ck_assert_str_eq(where_str(0, "problem"), "out of range");
    ck_assert_str_eq(where_str(0, "sa"), "18446744073709551615");
    int64_t iv;
    ck_assert_int_eq(parcheck_report_where_int(g_rep, 0, "sa", &iv), PARCHECK_EINVAL);
    free(sa);
}
END_TEST

START_TEST(sa_wrong_lcp_fails_at_its_index)
{
    g_lcp[9] += 1;
    ck_assert_int_eq(check_sa(g_sa, g_lcp), PARCHECK_OK);
    ck_assert_int_eq(parcheck_report_status(g_rep), PARCHECK_FAIL);
    ck_assert_int_eq(parcheck_report_where_count(g_rep), 1);
    ck_assert_str_eq(where_str(0, "rule"), "lcp");
    ck_assert_int_eq(where_int(0, "index"), 9);
    ck_assert_int_eq(where_int(0, "got"), g_lcp[9]);
    ck_assert_int_eq(where_int(0, "expected"), g_lcp[9] - 1);
    ck_assert(metric("sa_equal") == 1 && metric("lcp_equal") == 0);
    ck_assert_str_eq(summary(), "SA right; 1 of 25 LCP entries wrong");
}
END_TEST

START_TEST(sa_bad_arguments_are_refused_with_a_message)
{
    static const struct {
        int64_t n;
        int text, sa, sa_type, lcp_type, rep;
        const char *msg;
    } bad[] = {
        {-1, 1, 1, PARCHECK_INT32, PARCHECK_INT32, 1, "n is -1"},
        {NMISS, 0, 1, PARCHECK_INT32, PARCHECK_INT32, 1, "text is NULL"},
        {NMISS, 1, 0, PARCHECK_INT32, PARCHECK_INT32, 1, "sa is NULL"},
        {NMISS, 1, 1, 4, PARCHECK_INT32, 1, "sa_type 4"},
        {NMISS, 1, 1, PARCHECK_INT32, -1, 1, "lcp_type -1"},
        {NMISS, 1, 1, PARCHECK_INT32, PARCHECK_INT32, 0, "report is NULL"},
    };
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        int rc = parcheck_check_sa(bad[k].text ? MISS : NULL, bad[k].n, bad[k].sa ? g_sa : NULL,
                                   bad[k].sa_type, g_lcp, bad[k].lcp_type,
                                   bad[k].rep ? g_rep : NULL, g_msg, sizeof g_msg);
        ck_assert_int_eq(rc, PARCHECK_EINVAL);
        ck_assert_msg(strncmp(g_msg, "parcheck_check_sa: ", 19) == 0 && strstr(g_msg, bad[k].msg),
                      "case %zu: '%s'", k, g_msg);
        ck_assert_int_eq(parcheck_report_status(g_rep), PARCHECK_NONE);
    }
}
END_TEST

/* ---- PETS ------------------------------------------------------------------ */

/* Five tasks on two processors: 1 -> 2 (comm 5), 1 -> 3 (1), 2 -> 4 (2),
 * 3 -> 4 (1); task 5 isolated. The valid schedule runs 1, 3, 2, 4 on P1
 * and 5 on P2: makespan 7; minimum costs 2, 1, 2, 0, 0 bound it by 4. */
enum { PT = 5, PP = 2, PE = 4 };
static const int64_t P_COST[PT * PP] = {2, 3, 3, 1, 2, 2, 0, 0, 0, 0};
static const int32_t P_FROM[PE] = {1, 1, 2, 3}, P_TO[PE] = {2, 3, 4, 4};
static const int64_t P_COMM[PE] = {5, 1, 2, 1};
/* rows: task, proc, start, finish */
static int64_t g_rows[4][PT] = {{1, 3, 2, 4, 5}, {1, 1, 1, 1, 2}, {0, 2, 4, 7, 0}, {2, 4, 7, 7, 0}};

static int check_pets(int64_t nrows)
{
    return parcheck_check_pets(PT, PP, P_COST, PE, P_FROM, P_TO, P_COMM, nrows, g_rows[0],
                               g_rows[1], g_rows[2], g_rows[3], g_rep, g_msg, sizeof g_msg);
}

/* Row r of the schedule set to (task, proc, start, finish). */
static void set_row(int r, int64_t task, int64_t proc, int64_t start, int64_t finish)
{
    g_rows[0][r] = task;
    g_rows[1][r] = proc;
    g_rows[2][r] = start;
    g_rows[3][r] = finish;
}

static void pets_setup(void)
{
    rep_setup();
    static const int64_t rows[5][4] = {{1, 1, 0, 2}, {3, 1, 2, 4}, {2, 1, 4, 7}, {4, 1, 7, 7},
                                       {5, 2, 0, 0}};
    for (int r = 0; r < PT; r++)
        set_row(r, rows[r][0], rows[r][1], rows[r][2], rows[r][3]);
}

/* PETS's own makespan of the graph under policy, by the oracle. */
static int64_t pets_makespan(int policy)
{
    static const char dag_text[] = "tasks 5 processors 2\n"
                                   "cost 1 2 3\ncost 2 3 1\ncost 3 2 2\ncost 4 0 0\ncost 5 0 0\n"
                                   "edge 1 2 5\nedge 1 3 1\nedge 2 4 2\nedge 3 4 1\n";
    pets_dag dag;
    pc_error err;
    ck_assert_int_eq(pets_dag_parse(dag_text, strlen(dag_text), "small.dag", &dag, &err), 0);
    int64_t ms = -1;
    ck_assert_int_eq(pets_check_pets_makespan(&dag, policy, &ms, &err), 0);
    pets_dag_free(&dag);
    return ms;
}

START_TEST(pets_valid_schedule_passes_with_measures)
{
    ck_assert_int_eq(check_pets(PT), PARCHECK_OK);
    ck_assert_msg(parcheck_report_status(g_rep) == PARCHECK_PASS, "%s", why());
    ck_assert(metric("valid") == 1 && metric("violations") == 0);
    ck_assert(metric("makespan") == 7 && metric("lower_bound") == 4);
    ck_assert(metric("slr") == 7.0 / 4.0);
    int64_t ins = pets_makespan(PETS_INSERTION), app = pets_makespan(PETS_APPEND);
    ck_assert(metric("pets_insertion_makespan") == ins && metric("pets_append_makespan") == app);
    char want[128];
    snprintf(want, sizeof want, "makespan 7 (PETS: insertion %lld, append %lld); SLR 1.750",
             (long long)ins, (long long)app);
    ck_assert_str_eq(why(), want);
    ck_assert_int_eq(parcheck_report_where_count(g_rep), 0);
}
END_TEST

/* One fault per row of the valid schedule, with its exact record. */
static const struct {
    int row;
    int64_t task, proc, start, finish;
    const char *rule;
    int64_t other;
    const char *why;
} pets_planted[] = {
    {2, 2, 1, 3, 6, "overlap", 3, "task 2 [3, 6) overlaps task 3 [2, 4) on P1"},
    {2, 2, 2, 2, 3, "precedence", 1, "task 2 on P2 starts at 2, before its input from task 1"},
    {2, 2, 1, 4, 6, "duration", 0, "task 2 on P1 runs [4, 6) but costs 3 there"},
    {0, 1, 3, 0, 2, "processor", 0, "task 1"},
    {0, 1, 1, -1, 1, "negative", 0, "task 1 on P1 has a negative time: [-1, 1)"},
};

START_TEST(pets_planted_fault_is_located)
{
    int i = _i;
    set_row(pets_planted[i].row, pets_planted[i].task, pets_planted[i].proc,
            pets_planted[i].start, pets_planted[i].finish);
    ck_assert_int_eq(check_pets(PT), PARCHECK_OK);
    ck_assert_int_eq(parcheck_report_status(g_rep), PARCHECK_FAIL);
    ck_assert_int_ge(parcheck_report_where_count(g_rep), 1);
    ck_assert_str_eq(where_str(0, "rule"), pets_planted[i].rule);
    ck_assert_int_eq(where_int(0, "task"), pets_planted[i].task);
    ck_assert_int_eq(where_int(0, "other"), pets_planted[i].other);
    ck_assert_int_eq(where_int(0, "proc"), pets_planted[i].proc);
    ck_assert_int_eq(where_int(0, "start"), pets_planted[i].start);
    ck_assert_int_eq(where_int(0, "finish"), pets_planted[i].finish);
    ck_assert_msg(strncmp(why(), "invalid schedule: ", 18) == 0 &&
                      strstr(why(), pets_planted[i].why),
                  "%s", why());
    ck_assert(metric("valid") == 0);
    char want[64];
    snprintf(want, sizeof want, " %s ", pets_planted[i].rule);
    ck_assert_msg(strstr(summary(), want), "%s", summary());
}
END_TEST

START_TEST(pets_missing_and_repeated_tasks_are_judged)
{
    ck_assert_int_eq(check_pets(PT - 2), PARCHECK_OK); /* tasks 4 and 5 have no row */
    ck_assert_int_eq(parcheck_report_status(g_rep), PARCHECK_FAIL);
    ck_assert_int_eq(parcheck_report_where_count(g_rep), 2);
    ck_assert_str_eq(where_str(0, "rule"), "missing");
    ck_assert_int_eq(where_int(0, "task"), 4);
    ck_assert_int_eq(where_int(1, "task"), 5);
    ck_assert_str_eq(summary(), "2 violations: missing 2");
    set_row(4, 3, 2, 9, 11); /* task 3 again, instead of task 5 */
    ck_assert_int_eq(check_pets(PT), PARCHECK_OK);
    ck_assert_str_eq(summary(), "2 violations: missing 1 duplicate 1");
    ck_assert_str_eq(where_str(1, "rule"), "duplicate");
    ck_assert_int_eq(where_int(1, "task"), 3);
    ck_assert_int_eq(where_int(1, "proc"), 2);
}
END_TEST

START_TEST(pets_graph_without_edges_or_comm)
{
    /* no edges: every task at 0 on its own... two processors, so in two
     * chains; the comm array may be NULL */
    set_row(0, 1, 1, 0, 2);
    set_row(1, 2, 2, 0, 1);
    set_row(2, 3, 2, 1, 3);
    set_row(3, 4, 1, 2, 2);
    set_row(4, 5, 1, 2, 2);
    ck_assert_int_eq(parcheck_check_pets(PT, PP, P_COST, 0, NULL, NULL, NULL, PT, g_rows[0],
                                         g_rows[1], g_rows[2], g_rows[3], g_rep, g_msg,
                                         sizeof g_msg),
                     PARCHECK_OK);
    ck_assert_msg(parcheck_report_status(g_rep) == PARCHECK_PASS, "%s", why());
    ck_assert(metric("makespan") == 3 && metric("lower_bound") == 2);
    /* with the edges but no comm: 1 -> 2 across processors costs nothing */
    ck_assert_int_eq(parcheck_check_pets(PT, PP, P_COST, PE, P_FROM, P_TO, NULL, PT, g_rows[0],
                                         g_rows[1], g_rows[2], g_rows[3], g_rep, g_msg,
                                         sizeof g_msg),
                     PARCHECK_OK);
    /* task 2 [0,1) starts before task 1 finishes at 2 */
    ck_assert_int_eq(parcheck_report_status(g_rep), PARCHECK_FAIL);
    ck_assert_str_eq(where_str(0, "rule"), "precedence");
    ck_assert_int_eq(where_int(0, "task"), 2);
}
END_TEST

/* Bad PETS calls: code and the message's part. */
enum { PB_NONE, PB_CYCLE, PB_SELF, PB_DUP, PB_UNKNOWN, PB_ZERO_ID, PB_COST, PB_COMM, PB_TASKS,
       PB_PROCS, PB_ROWTASK, PB_TIME, PB_NULLCOST, PB_NROWS, PB_REPORT, PB_NULLEDGE };
static const struct {
    int bad, code;
    const char *msg;
} pets_bad[] = {
    {PB_CYCLE, PARCHECK_EFORMAT, "the graph has a cycle through it"},
    {PB_SELF, PARCHECK_EFORMAT, "edges:5: edge 3 3: self-loop"},
    {PB_DUP, PARCHECK_EFORMAT, "edges:5: edge 2 4: duplicate (first given on line 3)"},
    {PB_UNKNOWN, PARCHECK_EFORMAT, "edges:5: edge 4 9: unknown task (tasks are 1..5)"},
    {PB_ZERO_ID, PARCHECK_EFORMAT, "edges:5: edge 0 1: unknown task"},
    {PB_COST, PARCHECK_ERANGE, "parcheck_check_pets: task 2: cost -1 outside [0, 1099511627776]"},
    {PB_COMM, PARCHECK_ERANGE, "edges:5: edge 4 5: communication cost -2 outside"},
    {PB_TASKS, PARCHECK_ERANGE, "0 tasks and 5 edges"},
    {PB_PROCS, PARCHECK_ERANGE, "0 processors: must be within [1, 1024]"},
    {PB_ROWTASK, PARCHECK_EINVAL, "schedule row 2: task 6 is not a task of the graph (1..5)"},
    {PB_TIME, PARCHECK_ERANGE, "schedule row 1 (task 1): a time outside +-2^62"},
    {PB_NULLCOST, PARCHECK_EINVAL, "cost, an edge array or a schedule array is NULL"},
    {PB_NROWS, PARCHECK_EINVAL, "nrows is -1"},
    {PB_REPORT, PARCHECK_EINVAL, "report is NULL"},
    {PB_NULLEDGE, PARCHECK_EINVAL, "an edge array"},
};

START_TEST(pets_bad_arguments_are_refused_with_a_message)
{
    int bad = pets_bad[_i].bad;
    int32_t from[PE + 1], to[PE + 1];
    int64_t comm[PE + 1], cost[PT * PP];
    memcpy(from, P_FROM, sizeof P_FROM);
    memcpy(to, P_TO, sizeof P_TO);
    memcpy(comm, P_COMM, sizeof P_COMM);
    memcpy(cost, P_COST, sizeof cost);
    from[PE] = 4, to[PE] = 5, comm[PE] = 0; /* a fifth, harmless edge */
    int32_t ntasks = PT, nprocs = PP;
    int64_t nrows = PT;
    const int64_t *costp = cost;
    const int32_t *fromp = from;
    parcheck_report *rep = g_rep;
    ck_assert_int_eq(check_pets(PT - 1), PARCHECK_OK); /* a fail verdict to clear */
    ck_assert_int_eq(parcheck_report_status(g_rep), PARCHECK_FAIL);
    switch (bad) {
    case PB_CYCLE: from[PE] = 4, to[PE] = 1; break;
    case PB_SELF: from[PE] = 3, to[PE] = 3; break;
    case PB_DUP: from[PE] = 2, to[PE] = 4; break;
    case PB_UNKNOWN: to[PE] = 9; break;
    case PB_ZERO_ID: from[PE] = 0, to[PE] = 1; break;
    case PB_COST: cost[2] = -1; break;
    case PB_COMM: comm[PE] = -2; break;
    case PB_TASKS: ntasks = 0; break;
    case PB_PROCS: nprocs = 0; break;
    case PB_ROWTASK: g_rows[0][1] = 6; break;
    case PB_TIME: g_rows[3][0] = INT64_MAX; break;
    case PB_NULLCOST: costp = NULL; break;
    case PB_NROWS: nrows = -1; break;
    case PB_REPORT: rep = NULL; break;
    case PB_NULLEDGE: fromp = NULL; break;
    }
    int rc = parcheck_check_pets(ntasks, nprocs, costp, PE + 1, fromp, to, comm, nrows,
                                 g_rows[0], g_rows[1], g_rows[2], g_rows[3], rep, g_msg,
                                 sizeof g_msg);
    ck_assert_msg(rc == pets_bad[_i].code, "rc %d (%s)", rc, g_msg);
    ck_assert_msg(strncmp(g_msg, "parcheck_check_pets: ", 21) == 0 &&
                      strstr(g_msg, pets_bad[_i].msg),
                  "'%s' lacks '%s'", g_msg, pets_bad[_i].msg);
    ck_assert(!strstr(g_msg, "edges: ")); /* the builder's prefix for no edge is dropped */
    ck_assert_int_eq(parcheck_report_status(g_rep), rep ? PARCHECK_NONE : PARCHECK_FAIL);
}
END_TEST

/* ---- allocation failures ------------------------------------------------------- */

/* Each op makes its own report (parcheck_report_new is in the loop too)
 * and keeps it for cleanup on success. */
static parcheck_report *g_op_rep;

static void op_free(void *ctx)
{
    (void)ctx;
    parcheck_report_free(g_op_rep);
    g_op_rep = NULL;
}

/* Runs check(rep) on a fresh report; frees it on error. */
static int op_with_report(int (*check)(parcheck_report *rep))
{
    g_op_rep = parcheck_report_new();
    if (!g_op_rep)
        return PC_ENOMEM;
    int rc = check(g_op_rep);
    if (rc)
        op_free(NULL);
    return rc;
}

static int spmm_colmajor(parcheck_report *rep)
{
    parcheck_dense xc = {g_xcol, PARCHECK_F64, PARCHECK_COL_MAJOR, 0};
    return parcheck_check_spmm(SM, SN, SNNZ, S_ROWPTR, S_COL, S_VAL, &xc, &Y_ROW, SK,
                               PARCHECK_F64, 2, rep, NULL, 0);
}

static int sa_with_lcp(parcheck_report *rep)
{
    return parcheck_check_sa(MISS, NMISS, g_sa, PARCHECK_INT32, g_lcp, PARCHECK_INT32, rep, NULL,
                             0);
}

static int pets_full(parcheck_report *rep)
{
    return parcheck_check_pets(PT, PP, P_COST, PE, P_FROM, P_TO, P_COMM, PT, g_rows[0], g_rows[1],
                               g_rows[2], g_rows[3], rep, NULL, 0);
}

static int op_spmm(void *ctx) { (void)ctx; return op_with_report(spmm_colmajor); }
static int op_sa(void *ctx) { (void)ctx; return op_with_report(sa_with_lcp); }
static int op_pets(void *ctx) { (void)ctx; return op_with_report(pets_full); }

START_TEST(allocation_failures_are_clean)
{
    /* the fixtures' data; their reports are not needed */
    spmm_setup();
    rep_teardown();
    sa_setup();
    rep_teardown();
    pets_setup();
    rep_teardown();
    /* report, X's row-major copy, the blocks */
    ck_assert_int_ge(pc_test_alloc_loop(op_spmm, op_free, NULL, 100), 3);
    ck_assert_int_ge(pc_test_alloc_loop(op_sa, op_free, NULL, 100), 2);
    /* report, edges, the graph, the validator, PETS twice: 69 today */
    ck_assert_int_ge(pc_test_alloc_loop(op_pets, op_free, NULL, 1000), 20);
}
END_TEST

static Suite *suite_api(void)
{
    Suite *s = suite_create("api");
    TCase *tc = pc_tcase("interface");
    tcase_add_test(tc, version_is_one_number_everywhere);
    tcase_add_test(tc, codes_are_the_internal_ones);
    tcase_add_test(tc, cxx_caller_links_and_passes);
    suite_add_tcase(s, tc);

    tc = pc_tcase("report");
    tcase_add_checked_fixture(tc, rep_setup, rep_teardown);
    tcase_add_test(tc, new_report_is_empty);
    tcase_add_test(tc, null_report_is_refused_not_dereferenced);
    suite_add_tcase(s, tc);

    tc = pc_tcase("spmm");
    tcase_add_checked_fixture(tc, spmm_setup, rep_teardown);
    tcase_add_test(tc, spmm_right_product_passes_in_every_layout);
    tcase_add_test(tc, spmm_empty_matrix_passes);
    tcase_add_test(tc, report_is_reused_across_domains);
    tcase_add_test(tc, spmm_float_result_is_judged_in_single_precision);
    tcase_add_test(tc, spmm_planted_error_fails_at_its_entry);
    tcase_add_test(tc, spmm_integer_inputs_must_be_exact);
    tcase_add_test(tc, spmm_unwritten_entry_is_named);
    tcase_add_loop_test(tc, spmm_bad_arguments_are_refused_with_a_message, 0,
                        (int)(sizeof spmm_bad / sizeof *spmm_bad));
    tcase_add_test(tc, messages_and_texts_are_cut_to_fit);
    suite_add_tcase(s, tc);

    tc = pc_tcase("sa");
    tcase_add_checked_fixture(tc, sa_setup, rep_teardown);
    tcase_add_loop_test(tc, sa_right_arrays_of_every_type_pass, PARCHECK_INT32,
                        PARCHECK_UINT64 + 1);
    tcase_add_test(tc, sa_empty_text_passes);
    tcase_add_test(tc, sa_swapped_pair_fails_as_order_at_the_pair);
    tcase_add_test(tc, sa_duplicate_fails_as_permutation);
    tcase_add_test(tc, sa_huge_unsigned_value_is_kept_as_text);
    tcase_add_test(tc, sa_wrong_lcp_fails_at_its_index);
    tcase_add_test(tc, sa_bad_arguments_are_refused_with_a_message);
    suite_add_tcase(s, tc);

    tc = pc_tcase("pets");
    tcase_add_checked_fixture(tc, pets_setup, rep_teardown);
    tcase_add_test(tc, pets_valid_schedule_passes_with_measures);
    tcase_add_loop_test(tc, pets_planted_fault_is_located, 0,
                        (int)(sizeof pets_planted / sizeof *pets_planted));
    tcase_add_test(tc, pets_missing_and_repeated_tasks_are_judged);
    tcase_add_test(tc, pets_graph_without_edges_or_comm);
    tcase_add_loop_test(tc, pets_bad_arguments_are_refused_with_a_message, 0,
                        (int)(sizeof pets_bad / sizeof *pets_bad));
    suite_add_tcase(s, tc);

    tc = pc_tcase("alloc");
    tcase_add_test(tc, allocation_failures_are_clean);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return pc_test_run(suite_api()); }
