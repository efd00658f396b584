/* The SpMM checker (spmm_check) on results written elsewhere: correct Ys in
 * every layout pass, planted wrong Ys fail where they are wrong, verdicts
 * equal the double-double oracle's on random cases (Ys right at the bound
 * included), and the dense reader refuses bad files before allocating. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mm_dense.h"
#include "pc_alloc.h"
#include "pc_npy.h"
#include "pc_rng.h"
#include "pc_test.h"
#include "spmm.h"
#include "spmm/spmm_check.h"
#include "spmm/spmm_check_priv.h"
#include "spmm/spmm_oracle.h"
#include "spmm_cases.h"

#define TMP "build/test-tmp/spmm-check"

/* A, X, the CSR row pointers the checker reads, and Y from csr-serial. */
typedef struct fx {
    mm_coo coo;
    int64_t *rowptr;
    double *X, *Y;
    int K;
    spmm_check_report rep;
} fx;

static void fx_from_coo(fx *f, int K, int ints, uint64_t seed)
{
    pc_error err;
    f->K = K;
    f->rowptr = pc_calloc((size_t)f->coo.rows + 1, sizeof *f->rowptr);
    ck_assert_ptr_nonnull(f->rowptr);
    for (int64_t e = 0; e < f->coo.nnz; e++)
        f->rowptr[f->coo.row[e] + 1]++;
    for (int32_t i = 0; i < f->coo.rows; i++)
        f->rowptr[i + 1] += f->rowptr[i];
    ck_assert_int_eq(spmm_make_x(f->coo.cols, K, seed, ints, &f->X, &err), 0);
    spmm_csr csr;
    ck_assert_int_eq(spmm_csr_from_coo(&f->coo, &csr, 1, &err), 0);
    size_t len = (size_t)f->coo.rows * K;
    f->Y = pc_malloc_array(len ? len : 1, sizeof *f->Y);
    spmm_csr_serial(&csr, f->X, K, f->Y);
    spmm_csr_free(&csr);
}

static void fx_random(fx *f, uint64_t id, int ints, int K)
{
    memset(f, 0, sizeof *f);
    ck_assert_int_eq(spmm_case_random(id, ints, &f->coo), 0);
    fx_from_coo(f, K, ints, id);
}

static void fx_free(fx *f)
{
    mm_coo_free(&f->coo);
    pc_free(f->rowptr);
    pc_free(f->X);
    pc_free(f->Y);
}

/* The first random case from id on with a row of at least 2 entries. */
static void fx_random_filled(fx *f, uint64_t id, int K)
{
    for (;; id++) {
        fx_random(f, id, 0, K);
        int64_t longest = 0;
        for (int32_t i = 0; i < f->coo.rows; i++)
            if (f->rowptr[i + 1] - f->rowptr[i] > longest)
                longest = f->rowptr[i + 1] - f->rowptr[i];
        if (longest >= 2)
            return;
        fx_free(f);
    }
}

static void fx_triplets(fx *f, int32_t m, int32_t n, int64_t nnz, const int32_t *ri,
                        const int32_t *ci, const double *v, const double *X, int K)
{
    memset(f, 0, sizeof *f);
    ck_assert_int_eq(spmm_case_from(m, n, nnz, ri, ci, v, &f->coo), 0);
    fx_from_coo(f, K, 0, 1);
    if (X) {
        memcpy(f->X, X, (size_t)n * K * sizeof *X);
        for (int32_t i = 0; i < m; i++) /* Y again from the given X, naively */
            for (int k = 0; k < K; k++) {
                double s = 0.0;
                for (int64_t p = f->rowptr[i]; p < f->rowptr[i + 1]; p++)
                    s += f->coo.val[p] * X[(size_t)f->coo.col[p] * K + k];
                f->Y[(size_t)i * K + k] = s;
            }
    }
}

static spmm_check_csr fx_csr(const fx *f)
{
    return (spmm_check_csr){f->coo.rows, f->coo.cols, f->rowptr, f->coo.col, f->coo.val};
}

/* Checks Y against A and X (NULL: f->X, row-major) into f->rep; returns
 * whether it passed. */
static int fx_check_desc(fx *f, const spmm_check_dense *X, const spmm_check_dense *Y,
                         int precision, int threads)
{
    spmm_check_csr A = fx_csr(f);
    spmm_check_dense Xf = {f->X, SPMM_CHECK_F64, SPMM_CHECK_ROW_MAJOR, f->K};
    pc_error err;
    pc_error_clear(&err);
    int rc = spmm_check(&A, X ? X : &Xf, Y, f->K, precision, threads, &f->rep, &err);
    ck_assert_msg(rc == 0, "spmm_check: %s", err.msg);
    return f->rep.pass;
}

/* Checks Y (f64) of the given layout and leading dimension at fp64. */
static int fx_check_y(fx *f, const double *Y, int layout, int64_t ld, int threads)
{
    spmm_check_dense Yd = {Y, SPMM_CHECK_F64, layout, ld};
    return fx_check_desc(f, NULL, &Yd, SPMM_CHECK_FP64, threads);
}

/* Checks a row-major float Y at the given precision. */
static int fx_check_f32(fx *f, const float *Y, int precision)
{
    spmm_check_dense Yd = {Y, SPMM_CHECK_F32, SPMM_CHECK_ROW_MAJOR, f->K};
    return fx_check_desc(f, NULL, &Yd, precision, 2);
}

static int fx_check(fx *f, int threads)
{
    return fx_check_y(f, f->Y, SPMM_CHECK_ROW_MAJOR, f->K, threads);
}

/* The oracle's reference and T = 2 b of entry s. */
static double oracle_ref(const spmm_oracle *o, size_t s)
{
    return o->hi[s] + o->lo[s];
}

static double oracle_T(const spmm_oracle *o, size_t s)
{
    double nu = o->nrow[s / o->K] * 0x1p-53;
    return 2.0 * (nu / (1.0 - nu)) * o->absax[s];
}

/* A row with at least min entries (the middle one), or -1. */
static int32_t fx_row_with(const fx *f, int64_t min)
{
    for (int32_t d = 0; d < f->coo.rows; d++) {
        int32_t i = (f->coo.rows / 2 + d) % f->coo.rows;
        if (f->rowptr[i + 1] - f->rowptr[i] >= min)
            return i;
    }
    return -1;
}

/* ---- correct results pass ------------------------------------------------ */

START_TEST(test_correct_y_passes)
{
    fx f;
    fx_random(&f, 4, 0, 5);
    ck_assert_msg(fx_check(&f, 2), "%s", f.rep.why);
    ck_assert_int_eq(f.rep.checked, (int64_t)f.coo.rows * 5);
    ck_assert(f.rep.unit_roundoff == 0x1.0p-53);
    ck_assert(f.rep.max_err_over_bound <= 1.0 && f.rep.mean_rel_err <= f.rep.max_rel_err);
    ck_assert(!f.rep.exact && f.rep.rows[0] == '\0' && f.rep.why[0] == '\0');
    fx_free(&f);
}
END_TEST

START_TEST(test_fortran_order_and_strided_y_pass)
{
    fx f;
    fx_random(&f, 5, 0, 7);
    int32_t m = f.coo.rows;
    double *F = pc_malloc_array((size_t)m * 7, sizeof *F), *S = pc_malloc_array((size_t)m * 10, sizeof *S);
    for (int32_t i = 0; i < m; i++)
        for (int k = 0; k < 7; k++)
            F[i + (size_t)k * m] = S[(size_t)i * 10 + k] = f.Y[(size_t)i * 7 + k];
    ck_assert(fx_check(&f, 1));
    double rel = f.rep.max_rel_err;
    ck_assert_msg(fx_check_y(&f, F, SPMM_CHECK_COL_MAJOR, m, 1), "%s", f.rep.why);
    ck_assert(f.rep.max_rel_err == rel);
    ck_assert_msg(fx_check_y(&f, S, SPMM_CHECK_ROW_MAJOR, 10, 1), "%s", f.rep.why);
    pc_free(F);
    pc_free(S);
    fx_free(&f);
}
END_TEST

START_TEST(test_column_major_x_agrees)
{
    fx f;
    fx_random(&f, 8, 0, 3);
    int32_t n = f.coo.cols;
    double *Xc = pc_malloc_array((size_t)n * 3, sizeof *Xc);
    for (int32_t j = 0; j < n; j++)
        for (int k = 0; k < 3; k++)
            Xc[j + (size_t)k * n] = f.X[(size_t)j * 3 + k];
    ck_assert(fx_check(&f, 1));
    double rel = f.rep.max_rel_err;
    spmm_check_dense X = {Xc, SPMM_CHECK_F64, SPMM_CHECK_COL_MAJOR, n};
    spmm_check_dense Y = {f.Y, SPMM_CHECK_F64, SPMM_CHECK_ROW_MAJOR, 3};
    ck_assert(fx_check_desc(&f, &X, &Y, SPMM_CHECK_FP64, 1) && f.rep.max_rel_err == rel);
    pc_free(Xc);
    fx_free(&f);
}
END_TEST

/* Y computed in float arithmetic from float A and X. */
static float *float_y(const fx *f)
{
    float *Y = pc_malloc_array((size_t)f->coo.rows * f->K, sizeof *Y);
    for (int32_t i = 0; i < f->coo.rows; i++)
        for (int k = 0; k < f->K; k++) {
            float s = 0.0f;
            for (int64_t p = f->rowptr[i]; p < f->rowptr[i + 1]; p++)
                s += (float)f->coo.val[p] * (float)f->X[(size_t)f->coo.col[p] * f->K + k];
            Y[(size_t)i * f->K + k] = s;
        }
    return Y;
}

START_TEST(test_float_result_judged_in_fp32)
{
    fx f;
    fx_random(&f, 10, 0, 4);
    float *Y = float_y(&f);
    ck_assert_msg(fx_check_f32(&f, Y, SPMM_CHECK_FP32), "%s", f.rep.why);
    ck_assert(f.rep.unit_roundoff == 0x1.0p-24 && f.rep.precision == SPMM_CHECK_FP32);
    /* the same float result is far from double accuracy */
    ck_assert(!fx_check_f32(&f, Y, SPMM_CHECK_FP64) && f.rep.fail[0].reason == SPMM_CHECK_OVER_BOUND);
    pc_free(Y);
    fx_free(&f);
}
END_TEST

START_TEST(test_fp32_rounds_a_and_x_first)
{
    /* 1 + 2^-30 is 1 in float: the fp32 reference is exactly 1 */
    static const int32_t ri[] = {0}, ci[] = {0};
    static const double v[] = {1.0 + 0x1p-30}, x[] = {1.0};
    fx f;
    fx_triplets(&f, 1, 1, 1, ri, ci, v, x, 1);
    float y = 1.0f;
    ck_assert(fx_check_f32(&f, &y, SPMM_CHECK_FP32) && f.rep.max_rel_err == 0.0);
    ck_assert(!fx_check_f32(&f, &y, SPMM_CHECK_FP64) && f.rep.fail[0].expected == 1.0 + 0x1p-30);
    fx_free(&f);
}
END_TEST

/* ---- planted wrong results fail where they are wrong ------------------- */

START_TEST(test_skipped_row_located)
{
    fx f;
    fx_random(&f, 4, 0, 5);
    int32_t r = fx_row_with(&f, 2);
    ck_assert_int_ge(r, 0);
    memset(&f.Y[(size_t)r * 5], 0, 5 * sizeof(double));
    ck_assert(!fx_check(&f, 2));
    ck_assert_int_eq(f.rep.fail[0].row, r);
    ck_assert_int_eq(f.rep.fail[0].col, 0);
    ck_assert_int_eq(f.rep.bad_rows, 1);
    char want[96];
    snprintf(want, sizeof want, "row %d wrong; all other rows within bound", r + 1);
    ck_assert_str_eq(f.rep.rows, want);
    fx_free(&f);
}
END_TEST

START_TEST(test_shifted_column_located)
{
    fx f;
    fx_random_filled(&f, 13, 4);
    for (int32_t i = 0; i < f.coo.rows; i++)
        for (int k = 0; k + 1 < 4; k++)
            f.Y[(size_t)i * 4 + k] = f.Y[(size_t)i * 4 + k + 1];
    ck_assert(!fx_check(&f, 2));
    int32_t first = 0;
    while (f.rowptr[first + 1] == f.rowptr[first])
        first++;
    ck_assert_int_eq(f.rep.fail[0].row, first);
    ck_assert_int_eq(f.rep.fail[0].col, 0);
    for (int w = 0; w < f.rep.nfail; w++)
        ck_assert_int_lt(f.rep.fail[w].col, 3); /* the last column is right */
    ck_assert(strstr(f.rep.why, "past the bound") != NULL);
    fx_free(&f);
}
END_TEST

START_TEST(test_entry_off_by_four_bounds)
{
    fx f;
    fx_random(&f, 4, 0, 5);
    spmm_oracle orc;
    ck_assert_int_eq(spmm_oracle_compute(&f.coo, f.X, 5, &orc, NULL), 0);
    int32_t r = fx_row_with(&f, 3);
    size_t s = (size_t)r * 5 + 2;
    f.Y[s] = oracle_ref(&orc, s) + 4.0 * oracle_T(&orc, s);
    ck_assert(!fx_check(&f, 2));
    ck_assert_int_eq(f.rep.bad, 1);
    ck_assert(f.rep.fail[0].row == r && f.rep.fail[0].col == 2);
    ck_assert(f.rep.fail[0].reason == SPMM_CHECK_OVER_BOUND);
    ck_assert_msg(f.rep.max_err_over_bound > 7.9 && f.rep.max_err_over_bound < 8.1, "%g",
                  f.rep.max_err_over_bound);
    ck_assert(fabs(f.rep.fail[0].bound - oracle_T(&orc, s)) <= 1e-12 * oracle_T(&orc, s));
    spmm_oracle_free(&orc);
    fx_free(&f);
}
END_TEST

START_TEST(test_race_row_holds_half_its_sum)
{
    fx f;
    fx_random(&f, 6, 0, 3);
    int32_t r = fx_row_with(&f, 6);
    ck_assert_int_ge(r, 0);
    int64_t p0 = f.rowptr[r], half = p0 + (f.rowptr[r + 1] - p0) / 2;
    for (int k = 0; k < 3; k++) {
        double s = 0.0;
        for (int64_t p = p0; p < half; p++)
            s += f.coo.val[p] * f.X[(size_t)f.coo.col[p] * 3 + k];
        f.Y[(size_t)r * 3 + k] = s;
    }
    ck_assert(!fx_check(&f, 2));
    ck_assert_int_eq(f.rep.bad_rows, 1);
    ck_assert_int_eq(f.rep.fail[0].row, r);
    fx_free(&f);
}
END_TEST

START_TEST(test_nan_and_inf_fail_where_reference_finite)
{
    fx f;
    fx_random(&f, 9, 0, 5);
    int32_t r = fx_row_with(&f, 1);
    f.Y[(size_t)r * 5 + 1] = NAN;
    f.Y[(size_t)r * 5 + 3] = -INFINITY;
    ck_assert(!fx_check(&f, 1));
    ck_assert_int_eq(f.rep.bad, 2);
    ck_assert(f.rep.fail[0].reason == SPMM_CHECK_NOT_FINITE && f.rep.fail[0].col == 1);
    ck_assert(f.rep.fail[1].reason == SPMM_CHECK_NOT_FINITE && f.rep.fail[1].col == 3);
    ck_assert(strstr(f.rep.why, "is not finite") != NULL);
    fx_free(&f);
}
END_TEST

START_TEST(test_poison_means_never_written)
{
    fx f;
    /* K 4 and 8 take the fast pass's all-lanes sweep, which must hand a
     * poisoned lane to the entry-by-entry judge */
    static const int ks[] = {4, 8, 9};
    for (size_t j = 0; j < sizeof ks / sizeof *ks; j++) {
        fx_random(&f, 9, 0, ks[j]);
        spmm_check_poison(&f.Y[(size_t)ks[j] + 2], SPMM_CHECK_F64, 1);
        ck_assert_msg(!fx_check(&f, 1), "K %d: poison passed", ks[j]);
        ck_assert(f.rep.bad == 1 && f.rep.fail[0].reason == SPMM_CHECK_NEVER_WRITTEN);
        fx_free(&f);
    }
    fx_random(&f, 9, 0, 2);
    spmm_check_poison(&f.Y[3], SPMM_CHECK_F64, 1);
    ck_assert(!fx_check(&f, 1));
    ck_assert(f.rep.bad == 1 && f.rep.fail[0].reason == SPMM_CHECK_NEVER_WRITTEN);
    ck_assert(strstr(f.rep.why, "never written") != NULL);
    float *Y = float_y(&f);
    spmm_check_poison(&Y[0], SPMM_CHECK_F32, 1);
    ck_assert(!fx_check_f32(&f, Y, SPMM_CHECK_FP32));
    ck_assert(f.rep.bad == 1 && f.rep.fail[0].reason == SPMM_CHECK_NEVER_WRITTEN);
    pc_free(Y);
    fx_free(&f);
}
END_TEST

/* A 5000 x 3 matrix, 2 entries a row, with the given 1-based rows wrong. */
static void rows_case(fx *f, const int32_t *bad, int nbad)
{
    enum { M = 5000 };
    int32_t *ri = malloc(2 * M * sizeof *ri), *ci = malloc(2 * M * sizeof *ci);
    double *v = malloc(2 * M * sizeof *v);
    ck_assert(ri && ci && v);
    for (int32_t e = 0; e < 2 * M; e++) {
        ri[e] = e / 2;
        ci[e] = e % 3;
        v[e] = 1.0 + e % 5;
    }
    fx_triplets(f, M, 3, 2 * M, ri, ci, v, NULL, 2);
    for (int b = 0; b < nbad; b++)
        f->Y[(size_t)(bad[b] - 1) * 2 + 1] += 1.0;
    free(ri);
    free(ci);
    free(v);
}

START_TEST(test_rows_summary_merges_ranges)
{
    int32_t bad[1 + 80];
    bad[0] = 18;
    for (int r = 0; r < 80; r++)
        bad[1 + r] = 4021 + r;
    fx f;
    rows_case(&f, bad, 81);
    ck_assert(!fx_check(&f, 2));
    ck_assert_str_eq(f.rep.rows, "rows 18, 4021-4100 wrong; all other rows within bound");
    ck_assert_int_eq(f.rep.bad_rows, 81);
    ck_assert_int_eq(f.rep.nfail, SPMM_CHECK_FAIL_MAX);
    ck_assert(f.rep.fail[0].row == 17 && f.rep.fail[1].row == 4020 && f.rep.fail[9].row == 4028);
    fx_free(&f);
    int32_t many[12] = {1, 3, 5, 7, 9, 11, 13, 15, 17, 18, 19, 4999};
    rows_case(&f, many, 12);
    ck_assert(!fx_check(&f, 1));
    ck_assert_str_eq(f.rep.rows,
                     "rows 1, 3, 5, 7, 9, 11, 13, 15 and 4 more rows wrong; all other rows within bound");
    fx_free(&f);
    /* every row wrong: no "other rows" to speak of */
    static const int32_t ri[] = {0, 1}, ci[] = {0, 0};
    static const double a[] = {2.0, 3.0}, x[] = {1.5};
    fx_triplets(&f, 2, 1, 2, ri, ci, a, x, 1);
    f.Y[0] += 1.0;
    f.Y[1] += 1.0;
    ck_assert(!fx_check(&f, 1));
    ck_assert_str_eq(f.rep.rows, "rows 1-2 wrong (every row)");
    fx_free(&f);
}
END_TEST

/* ---- irregular shapes ------------------------------------------------------ */

START_TEST(test_empty_rows_and_degenerate_shapes)
{
    /* 0 x 0 */
    fx f;
    fx_triplets(&f, 0, 0, 0, NULL, NULL, NULL, NULL, 3);
    ck_assert(fx_check(&f, 2) && f.rep.checked == 0);
    fx_free(&f);
    /* 3 x 0: every row empty, Y must be 0 */
    fx_triplets(&f, 3, 0, 0, NULL, NULL, NULL, NULL, 2);
    memset(f.Y, 0, 6 * sizeof(double));
    f.Y[1] = -0.0;
    ck_assert(fx_check(&f, 1));
    f.Y[4] = 1e-300;
    ck_assert(!fx_check(&f, 1) && f.rep.fail[0].row == 2 && f.rep.fail[0].col == 0);
    fx_free(&f);
    /* one dense row among empty ones, n = 1 column */
    static const int32_t ri[] = {1, 1}, ci[] = {0, 1};
    static const double v[] = {2.0, -3.0};
    fx_triplets(&f, 4, 2, 2, ri, ci, v, NULL, 1);
    ck_assert_msg(fx_check(&f, 1), "%s", f.rep.why);
    ck_assert_int_eq(f.rep.slow_undecided + f.rep.slow_special, 0);
    fx_free(&f);
    /* Products that are exactly 0 in every column of a 4-wide chunk (row 0
     * cancels, row 1 is empty): the relative errors count only the entries
     * whose reference is not 0 (row 2, one rounded product), so they are
     * tiny and finite, not NaN. */
    static const int32_t ri2[] = {0, 0, 2}, ci2[] = {0, 1, 0};
    static const double v2[] = {0.3, -0.3, 2.5}; /* not integers: not judged exactly */
    static const double X2[] = {0.1, 0.2, 0.7, 0.4, 0.1, 0.2, 0.7, 0.4};
    fx_triplets(&f, 3, 2, 3, ri2, ci2, v2, X2, 4);
    for (int threads = 1; threads <= 2; threads++) {
        ck_assert_msg(fx_check(&f, threads), "%s", f.rep.why);
        ck_assert_msg(isfinite(f.rep.mean_rel_err) && f.rep.mean_rel_err <= f.rep.max_rel_err &&
                          f.rep.max_rel_err < 1e-15,
                      "Y with zero products: max rel %g, mean rel %g", f.rep.max_rel_err,
                      f.rep.mean_rel_err);
    }
    fx_free(&f);
}
END_TEST

START_TEST(test_every_k_tail_checked)
{
    static const int ks[] = {1, 3, 4, 5, 7, 8, 9, 12, 13, 16, 17};
    for (size_t t = 0; t < sizeof ks / sizeof ks[0]; t++) {
        fx f;
        fx_random_filled(&f, 3 + t, ks[t]);
        ck_assert_msg(fx_check(&f, 1), "K=%d: %s", ks[t], f.rep.why);
        int32_t r = fx_row_with(&f, 1);
        f.Y[(size_t)r * ks[t] + ks[t] - 1] *= 1.5;
        ck_assert_msg(!fx_check(&f, 1), "K=%d: a wrong last column passed", ks[t]);
        ck_assert(f.rep.fail[0].row == r && f.rep.fail[0].col == ks[t] - 1);
        fx_free(&f);
    }
}
END_TEST

/* ---- rigour: equal to the oracle, exact at the boundary ------------------ */

static int close_rel(double a, double b)
{
    if (a == b)
        return 1;
    if (!isfinite(a) || !isfinite(b))
        return 0; /* inf against a finite value would pass the test below */
    return fabs(a - b) <= 1e-6 * fmax(fabs(a), fabs(b));
}

/* Compares spmm_check with spmm_oracle_check on Y. */
static void agree_with_oracle(fx *f, const spmm_oracle *orc, const double *Y, const char *what)
{
    spmm_verdict v;
    spmm_oracle_check(orc, Y, &v);
    fx_check_y(f, Y, SPMM_CHECK_ROW_MAJOR, f->K, 2);
    ck_assert_msg(f->rep.pass == v.pass && f->rep.bad == v.bad,
                  "%s: checker pass %d bad %lld (%s), oracle pass %d bad %lld (%s)", what,
                  f->rep.pass, (long long)f->rep.bad, f->rep.why, v.pass, (long long)v.bad, v.why);
    ck_assert(f->rep.exact == orc->exact);
    ck_assert_msg(close_rel(f->rep.max_rel_err, v.max_rel_err) &&
                      close_rel(f->rep.mean_rel_err, v.mean_rel_err) &&
                      close_rel(f->rep.max_err_over_bound, v.max_err_over_bound),
                  "%s: metrics %.17g %.17g %.17g vs oracle %.17g %.17g %.17g", what,
                  f->rep.max_rel_err, f->rep.mean_rel_err, f->rep.max_err_over_bound,
                  v.max_rel_err, v.mean_rel_err, v.max_err_over_bound);
}

START_TEST(test_verdicts_equal_oracle_on_random_cases)
{
    int ints = _i % 4 == 3;
    fx f;
    fx_random(&f, 100 + (uint64_t)_i, ints, spmm_case_k((uint64_t)_i));
    spmm_oracle orc;
    ck_assert_int_eq(spmm_oracle_compute(&f.coo, f.X, f.K, &orc, NULL), 0);
    size_t len = (size_t)f.coo.rows * f.K;
    double *Y = pc_malloc_array(len ? len : 1, sizeof *Y);
    agree_with_oracle(&f, &orc, f.Y, "csr-serial");
    /* every entry at ref + f T for f around the bound, and a few scattered */
    static const double factor[] = {0.95, -0.95, 1.0, -1.0, 1.05, -1.05, 0.5, 4.0};
    pc_rng rng;
    pc_rng_seed(&rng, (uint64_t)_i);
    for (size_t t = 0; t < sizeof factor / sizeof factor[0]; t++) {
        for (size_t s = 0; s < len; s++)
            Y[s] = oracle_ref(&orc, s) + factor[t] * oracle_T(&orc, s);
        char what[64];
        snprintf(what, sizeof what, "all at %+.2f T", factor[t]);
        agree_with_oracle(&f, &orc, Y, what);
        memcpy(Y, f.Y, len * sizeof *Y);
        for (int j = 0; j < 5 && len > 0; j++) {
            size_t s = pc_rng_below(&rng, len);
            Y[s] = oracle_ref(&orc, s) + factor[t] * oracle_T(&orc, s);
        }
        snprintf(what, sizeof what, "5 entries at %+.2f T", factor[t]);
        agree_with_oracle(&f, &orc, Y, what);
    }
    pc_free(Y);
    spmm_oracle_free(&orc);
    fx_free(&f);
}
END_TEST

START_TEST(test_exact_judge_equals_oracle_on_random_cases)
{
    /* every entry through the exact judge: same verdicts and metrics, and
     * the exactly rounded reference within an ulp of the double-double's */
    fx f;
    fx_random(&f, 300 + (uint64_t)_i, _i % 4 == 3, spmm_case_k((uint64_t)_i));
    spmm_oracle orc;
    ck_assert_int_eq(spmm_oracle_compute(&f.coo, f.X, f.K, &orc, NULL), 0);
    size_t len = (size_t)f.coo.rows * f.K;
    double *Y = pc_malloc_array(len ? len : 1, sizeof *Y);
    chk_test_hooks(1, 1);
    agree_with_oracle(&f, &orc, f.Y, "csr-serial, exact judge");
    ck_assert_int_eq(f.rep.slow_special, (int64_t)len);
    for (size_t s = 0; s < len; s++)
        Y[s] = oracle_ref(&orc, s) + (s % 2 ? 4.0 : -4.0) * oracle_T(&orc, s);
    agree_with_oracle(&f, &orc, Y, "all at 4 T, exact judge");
    chk_test_hooks(1, 0);
    for (int w = 0; w < f.rep.nfail; w++) {
        size_t s = (size_t)f.rep.fail[w].row * f.K + f.rep.fail[w].col;
        double ref = oracle_ref(&orc, s);
        ck_assert_msg(fabs(f.rep.fail[w].expected - ref) <= 0x1p-52 * fabs(ref), "%.17g vs %.17g",
                      f.rep.fail[w].expected, ref);
    }
    pc_free(Y);
    spmm_oracle_free(&orc);
    fx_free(&f);
}
END_TEST

START_TEST(test_exact_reference_rounds_to_nearest_even)
{
    /* The reference shown for a failure is the exact sum rounded once.
     * S = 2^90 + 2^37 lies halfway between two doubles (their spacing is
     * 2^38 there): the even one, 2^90, is chosen. One more unit, far
     * below, in another 32-bit digit of the accumulator, breaks the tie:
     * 2^90 + 2^38. */
    static const int32_t ri[] = {0, 0, 1, 1, 1}, ci[] = {0, 1, 0, 1, 2};
    static const double v[] = {0x1p45, 0x1p37, 0x1p45, 0x1p37, 1.0}, x[] = {0x1p45, 1.0, 1.0};
    fx f;
    fx_triplets(&f, 2, 3, 5, ri, ci, v, x, 1);
    f.Y[0] = 0.0;
    f.Y[1] = 0.0;
    ck_assert(!fx_check(&f, 1));
    ck_assert_int_eq(f.rep.nfail, 2);
    ck_assert(f.rep.fail[0].row == 0 && f.rep.fail[0].expected == 0x1p90);
    ck_assert(f.rep.fail[1].row == 1 && f.rep.fail[1].expected == 0x1p90 + 0x1p38);
    fx_free(&f);
}
END_TEST

START_TEST(test_subnormal_boundary_keeps_the_underflow_margin)
{
    /* Eight products 2^-1070: S = 2^-1067 and T = 8 eta2 = 2^-1071 (gamma ab
     * underflows to 0). Near T every step is exact in subnormals, so only
     * the pass's underflow margin, (2n + 4) 2^-1074, sends y = S + T +
     * 2^-1074 to the exact judge; without it the fast pass would accept. */
    int32_t ri[8], ci[8];
    double v[8], x[8];
    for (int l = 0; l < 8; l++) {
        ri[l] = 0;
        ci[l] = l;
        v[l] = 0x1p-1070;
        x[l] = 1.0;
    }
    fx f;
    fx_triplets(&f, 1, 8, 8, ri, ci, v, x, 1);
    ck_assert(f.Y[0] == 0x1p-1067);
    f.Y[0] = 0x1p-1067 + 0x1p-1071;
    ck_assert_msg(fx_check(&f, 1), "%s", f.rep.why);
    f.Y[0] = 0x1p-1067 + 0x1p-1071 + 0x1p-1074;
    ck_assert(!fx_check(&f, 1));
    ck_assert(f.rep.fail[0].reason == SPMM_CHECK_OVER_BOUND && f.rep.fail[0].bound == 0x1p-1071);
    f.Y[0] = 0x1p-1067 - 0x1p-1071 - 0x1p-1074;
    ck_assert(!fx_check(&f, 1) && f.rep.fail[0].reason == SPMM_CHECK_OVER_BOUND);
    fx_free(&f);
}
END_TEST

START_TEST(test_vector_pass_decides_clear_entries)
{
    /* K = 8 takes the vector pass. Rows of eight products +1.5 and -1.5 (not
     * integers: no exactness demanded): S = 0, sum |a x| = 12, T = 2 gamma_8
     * 12, about 192 u. Every y = +-0.6 T is clear of the bound by far more
     * than the pass's own error, so the pass decides them all without the
     * exact judge. The test hooks are set and reset first: force_exact
     * off again means what it says. */
    enum { M = 16, N = 8, K = 8 };
    int32_t ri[M * N], ci[M * N];
    double v[M * N], X[N * K];
    for (int e = 0; e < M * N; e++) {
        ri[e] = e / N;
        ci[e] = e % N;
        v[e] = 1.5;
    }
    for (int c = 0; c < N * K; c++)
        X[c] = (c / K) % 2 ? -1.0 : 1.0;
    fx f;
    fx_triplets(&f, M, N, M * N, ri, ci, v, X, K);
    chk_test_hooks(1, 1);
    ck_assert_msg(fx_check(&f, 1), "%s", f.rep.why);
    ck_assert_int_eq(f.rep.slow_special, M * K);
    chk_test_hooks(1, 0);
    double T = 2.0 * (8 * 0x1p-53 / (1.0 - 8 * 0x1p-53)) * 12.0;
    for (int s2 = 0; s2 < M * K; s2++)
        f.Y[s2] = (s2 % 2 ? 0.6 : -0.6) * T;
    ck_assert_msg(fx_check(&f, 1), "%s", f.rep.why);
    ck_assert_int_eq(f.rep.slow_special, 0);
    ck_assert_int_eq(f.rep.slow_undecided, 0);
    for (int s2 = 0; s2 < M * K; s2++)
        f.Y[s2] = (s2 % 2 ? 1.2 : -1.2) * T;
    ck_assert(!fx_check(&f, 1) && f.rep.bad == M * K && f.rep.slow_undecided == 0);
    fx_free(&f);
}
END_TEST

START_TEST(test_exact_judge_bound_met_from_below)
{
    /* Entries 8, -8 and t: S = t, sum |a x| = fl(16 + t), and T as the judge
     * computes it (2 gamma_3 ab + 3 eta2). With t within [T/2, 2T], y = t - T
     * is exact (Sterbenz), so |y - S| = T with y below S: on the bound from
     * below, within (R2: <= T); one ulp lower is not. */
    static const int32_t ri[] = {0, 0, 0}, ci[] = {0, 1, 2};
    static const double x[] = {1.0, 1.0, 1.0};
    const double nu = 3 * 0x1p-53, gamma = nu / (1.0 - nu);
    double t = 0.75 * (2.0 * (gamma * 16.0));
    double T = 2.0 * (gamma * (16.0 + t)) + 3 * 0x1p-1074;
    ck_assert(t >= T / 2 && t <= 2 * T);
    double y = t - T;
    ck_assert(t - y == T); /* y exact */
    double v[] = {8.0, -8.0, t};
    fx f;
    fx_triplets(&f, 1, 3, 3, ri, ci, v, x, 1);
    chk_test_hooks(1, 1);
    f.Y[0] = y;
    int on = fx_check(&f, 1);
    f.Y[0] = nextafter(y, -1.0);
    int below = fx_check(&f, 1);
    chk_test_hooks(1, 0);
    ck_assert_msg(on, "y = S - T refused");
    ck_assert(!below && f.rep.fail[0].reason == SPMM_CHECK_OVER_BOUND && f.rep.fail[0].bound == T);
    fx_free(&f);
}
END_TEST

START_TEST(test_boundary_decided_exactly)
{
    /* S = 0.5, b = gamma_1 / 2 = 2^-54 (1 + 2^-52): T = 2^-53 (1 + 2^-52). */
    static const int32_t ri[] = {0}, ci[] = {0};
    static const double v[] = {0.5}, x[] = {1.0};
    fx f;
    fx_triplets(&f, 1, 1, 1, ri, ci, v, x, 1);
    f.Y[0] = 0.5 + 0x1p-53; /* |y - S| = 2^-53 <= T, closer than the pass can tell */
    ck_assert_msg(fx_check(&f, 1), "%s", f.rep.why);
    ck_assert(!f.rep.exact && f.rep.slow_undecided == 1);
    f.Y[0] = 0.5 - 0x1p-54; /* 2^-54: decided without the exact judge */
    ck_assert(fx_check(&f, 1) && f.rep.slow_undecided == 0);
    f.Y[0] = 0.5 + 0x1p-52;
    ck_assert(!fx_check(&f, 1) && f.rep.fail[0].reason == SPMM_CHECK_OVER_BOUND);
    ck_assert(f.rep.slow_undecided == 0 && f.rep.fail[0].bound == 0x1p-53 * (1.0 + 0x1p-52));
    fx_free(&f);
}
END_TEST

START_TEST(test_exact_judge_takes_the_bound_itself)
{
    /* S = 1 - 2^-103 (two entries), fl(|a||x|) sum 1, gamma_2 = 2^-52 (1 +
     * 2^-52): T = 2^-51 (1 + 2^-52). y = 1 + 2^-51 is S + T exactly: |y - S|
     * = T is within (R2: <= T), one ulp more is not. */
    static const int32_t ri[] = {0, 0}, ci[] = {0, 1};
    static const double v[] = {1.0, -0x1p-103}, x[] = {1.0, 1.0};
    fx f;
    fx_triplets(&f, 1, 2, 2, ri, ci, v, x, 1);
    chk_test_hooks(1, 1); /* the exact judge decides every entry */
    f.Y[0] = 1.0 + 0x1p-51;
    int on_bound = fx_check(&f, 1);
    char why_on[sizeof f.rep.why];
    snprintf(why_on, sizeof why_on, "%s", f.rep.why);
    int64_t judged = f.rep.slow_special;
    f.Y[0] = nextafter(1.0 + 0x1p-51, 2.0);
    int past = fx_check(&f, 1);
    chk_test_hooks(1, 0);
    ck_assert_msg(on_bound, "y = S + T refused: %s", why_on);
    ck_assert_int_eq(judged, 1);
    ck_assert(!past && f.rep.fail[0].reason == SPMM_CHECK_OVER_BOUND);
    ck_assert(f.rep.fail[0].bound == 0x1p-51 * (1.0 + 0x1p-52));
    fx_free(&f);
}
END_TEST

START_TEST(test_reference_is_the_exact_sum)
{
    /* 1e16 + 1 - 1e16 = 1, which plain double summation loses */
    static const int32_t ri[] = {0, 0, 0}, ci[] = {0, 1, 2};
    static const double v[] = {1e16, 1.0, -1e16}, x[] = {1.0, 1.0, 1.0};
    fx f;
    fx_triplets(&f, 1, 3, 3, ri, ci, v, x, 1);
    f.Y[0] = 1.0;
    ck_assert(fx_check(&f, 1) && f.rep.max_rel_err == 0.0 && !f.rep.exact);
    f.Y[0] = 0.0; /* within 2 gamma_3 (2e16 + 1) */
    ck_assert(fx_check(&f, 1) && f.rep.max_rel_err == 1.0);
    f.Y[0] = 25.0;
    ck_assert(!fx_check(&f, 1) && f.rep.fail[0].expected == 1.0);
    fx_free(&f);
}
END_TEST

START_TEST(test_integer_inputs_demand_exact)
{
    fx f;
    fx_random(&f, 6, 1, 5);
    ck_assert(fx_check(&f, 2) && f.rep.exact && f.rep.max_rel_err == 0.0);
    int32_t r = fx_row_with(&f, 1);
    size_t s = (size_t)r * 5 + 1;
    f.Y[s] = nextafter(f.Y[s], INFINITY);
    ck_assert(!fx_check(&f, 2) && f.rep.fail[0].reason == SPMM_CHECK_NOT_EXACT);
    ck_assert(strstr(f.rep.why, "integer inputs") != NULL);
    ck_assert(strstr(f.rep.rows, "all other rows exact") != NULL);
    fx_free(&f);
    /* integers whose sums pass 2^53: judged by the bound instead */
    static const int32_t ri[] = {0, 0}, ci[] = {0, 1};
    static const double v[] = {0x1p40, 0x1p40}, x[] = {0x1p14 + 1, 0x1p14 - 3};
    fx_triplets(&f, 1, 2, 2, ri, ci, v, x, 1);
    ck_assert(fx_check(&f, 1) && !f.rep.exact);
    fx_free(&f);
}
END_TEST

START_TEST(test_nonfinite_products_must_be_reproduced)
{
    static const int32_t ri[] = {0, 1, 1}, ci[] = {0, 0, 1};
    static const double v[] = {INFINITY, INFINITY, 1.0}, x[] = {1.0, -1.0};
    fx f;
    fx_triplets(&f, 2, 2, 3, ri, ci, v, x, 1); /* row 0: inf; row 1: inf*1 + 1*-1 = inf */
    f.Y[0] = INFINITY;
    f.Y[1] = INFINITY;
    ck_assert_msg(fx_check(&f, 1), "%s", f.rep.why);
    ck_assert_int_eq(f.rep.slow_special, 2);
    f.Y[1] = -1e308;
    ck_assert(!fx_check(&f, 1) && f.rep.fail[0].reason == SPMM_CHECK_NOT_REPRODUCED);
    ck_assert_str_eq(f.rep.why,
                     "Y(2,1) = -1e+308 does not reproduce the non-finite reference inf");
    fx_free(&f);
    static const double w[] = {INFINITY, -INFINITY}, ones[] = {1.0, 1.0};
    static const int32_t r0[] = {0, 0}, c01[] = {0, 1};
    fx_triplets(&f, 1, 2, 2, r0, c01, w, ones, 1); /* inf - inf: NaN */
    f.Y[0] = -NAN;
    ck_assert(fx_check(&f, 1));
    f.Y[0] = 0.0;
    ck_assert(!fx_check(&f, 1) && isnan(f.rep.fail[0].expected));
    fx_free(&f);
}
END_TEST

static int same_report(const spmm_check_report *a, const spmm_check_report *b)
{
    if (a->pass != b->pass || a->bad != b->bad || a->bad_rows != b->bad_rows ||
        a->max_rel_err != b->max_rel_err || a->max_err_over_bound != b->max_err_over_bound ||
        a->slow_undecided != b->slow_undecided || a->nfail != b->nfail ||
        strcmp(a->why, b->why) || strcmp(a->rows, b->rows))
        return 0;
    for (int k = 0; k < a->nfail; k++)
        if (a->fail[k].row != b->fail[k].row || a->fail[k].col != b->fail[k].col ||
            a->fail[k].expected != b->fail[k].expected)
            return 0;
    return 1;
}

/* The fast pass's vector sweep reads each lane's own reference, result
 * and bound: three rows of one entry, K = 8 (a sweep of the row's 8
 * lanes), and in the middle row Y's that a sweep reading the second group
 * of lanes from the wrong place of the chunk's arrays would take for
 * right. Every one must be refused, on both bodies. (Reads starting at
 * -1 or 5 fall outside the chunk's arrays: only a sanitizer sees those.) */
static void sweep_case(const double *a3, const double *x8, int row, int lane, double value,
                       const double *take_from, const char *what)
{
    static const int32_t ri[] = {0, 1, 2}, ci[] = {0, 0, 0};
    for (int portable = 0; portable < 2; portable++) {
        fx f;
        fx_triplets(&f, 3, 1, 3, ri, ci, a3, x8, 8);
        ck_assert(fx_check(&f, 1));
        if (take_from) /* lanes 4..7 of the row take these references */
            for (int k = 0; k < 4; k++)
                f.Y[row * 8 + 4 + k] = take_from[k];
        else
            f.Y[row * 8 + lane] = value;
        chk_test_hooks(!portable, 0);
        int pass = fx_check(&f, 1);
        chk_test_hooks(1, 0);
        ck_assert_msg(!pass && f.rep.bad >= 1, "%s (%s): passed", what, portable ? "portable" : "fma");
        fx_free(&f);
    }
}

START_TEST(test_vector_sweep_reads_each_lane)
{
    /* distinct references: lanes 4..7 of row 1 hold those of lanes d..d+3 */
    static const double a[3] = {1.0, 2.0, 3.0}, x[8] = {1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5, 8.5};
    static const int dist[] = {1, 3};
    for (int t = 0; t < 2; t++) {
        double from[4];
        for (int k = 0; k < 4; k++) {
            int at = 8 + dist[t] + k; /* row 1 starts at 8 */
            from[k] = a[at / 8] * x[at % 8];
        }
        char what[64];
        snprintf(what, sizeof what, "references from lane %d", dist[t]);
        sweep_case(a, x, 1, 0, 0, from, what);
    }
    /* equal references everywhere: one wrong lane (4, then 7), which a
     * sweep reading the results from a wrong place skips */
    static const double one[3] = {1.0, 1.0, 1.0}, flat[8] = {2.5, 2.5, 2.5, 2.5, 2.5, 2.5, 2.5, 2.5};
    sweep_case(one, flat, 1, 4, 9.5, NULL, "lane 4 wrong among equal references");
    sweep_case(one, flat, 1, 7, 9.5, NULL, "lane 7 wrong among equal references");
    /* small and large |a||x| in turn: lane 4 (small) off by 1e-6, within
     * the bound of a large lane (2 gamma 1.25e10 = 2.8e-6), far outside
     * its own */
    static const double alt[8] = {1.5, 12500000000.5, 1.5, 12500000000.5, 1.5, 12500000000.5, 1.5, 12500000000.5};
    sweep_case(one, alt, 1, 4, 1.5 + 1e-6, NULL, "a small lane within a large lane's bound");
}
END_TEST

/* One row of nnz entries (columns ci, values a) times X of 8 columns (x,
 * 8 values a column): the right Y passes, and Y(1,4) set to wrong is
 * refused, as one bad entry, on both bodies of the fast sweep. */
static void one_lane_refused(int32_t n, int64_t nnz, const int32_t *ci, const double *a,
                             const double *x, double wrong, const char *what)
{
    static const int32_t ri[2] = {0, 0};
    for (int portable = 0; portable < 2; portable++) {
        fx f;
        fx_triplets(&f, 1, n, nnz, ri, ci, a, x, 8);
        chk_test_hooks(!portable, 0);
        ck_assert_msg(fx_check(&f, 1), "%s: right Y refused: %s", what, f.rep.why);
        f.Y[3] = wrong;
        int pass = fx_check(&f, 1);
        chk_test_hooks(1, 0);
        ck_assert_msg(!pass && f.rep.bad == 1, "%s (%s): passed", what, portable ? "portable" : "fma");
        fx_free(&f);
    }
}

/* A row whose sum |a||x| overflows to inf while its products and their sum
 * are finite (1.5e308 - 1.5e308 = 0): the bound is then infinite, so the
 * sweep must leave such lanes to the exact judge, which asks for the
 * reference itself; a wrong lane among right ones is refused on both
 * bodies. */
START_TEST(test_overflowing_abs_sum_leaves_the_sweep)
{
    static const int32_t ci[] = {0, 1};
    static const double a[] = {1.5e308, -1.5e308};
    double x[16];
    for (int k = 0; k < 16; k++)
        x[k] = 1.0;
    one_lane_refused(2, 2, ci, a, x, 1e300, "1e300 where |a||x| overflows");
}
END_TEST

/* Huge values: a lane off by 1e28 on 1e40 (1e-12 relative) is far past
 * its bound (2 gamma |a||x| = 2.2e24), but the sweep's estimate of its own
 * rounding, e_hat, is about 1e9 there (its n(n+1)u^2 |a||x| term): e_hat
 * must be added to the deviation, not divide it, or the sweep takes the
 * lane for right. Refused on both bodies. */
START_TEST(test_huge_values_keep_their_bound)
{
    static const int32_t ci[] = {0};
    static const double a[] = {1e20};
    double x[8];
    for (int k = 0; k < 8; k++)
        x[k] = 1e20;
    one_lane_refused(1, 1, ci, a, x, 1e20 * 1e20 + 1e28, "a lane 1e28 off on 1e40");
}
END_TEST

START_TEST(test_threads_and_portable_path_give_same_report)
{
    int32_t bad[] = {7, 900, 901, 4500};
    fx f;
    rows_case(&f, bad, 4);
    fx_check(&f, 1);
    spmm_check_report one = f.rep;
    fx_check(&f, 2);
    ck_assert(same_report(&one, &f.rep));
    chk_test_hooks(0, 0);
    ck_assert(!chk_fast_has_fma()); /* the portable body, whatever the CPU */
    fx_check(&f, 2);
    chk_test_hooks(1, 0);
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    ck_assert_int_eq(chk_fast_has_fma(), __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"));
#endif
    ck_assert(same_report(&one, &f.rep));
    ck_assert(one.mean_rel_err == f.rep.mean_rel_err && one.bad == 4);
    fx_free(&f);
}
END_TEST

START_TEST(test_bad_arguments_refused)
{
    fx f;
    fx_random(&f, 4, 0, 2);
    spmm_check_csr A = fx_csr(&f);
    spmm_check_dense X = {f.X, SPMM_CHECK_F64, SPMM_CHECK_ROW_MAJOR, 2};
    spmm_check_dense Y = {f.Y, SPMM_CHECK_F64, SPMM_CHECK_ROW_MAJOR, 2};
    spmm_check_report rep;
    pc_error err;
    ck_assert_int_eq(spmm_check(&A, &X, &Y, 0, SPMM_CHECK_FP64, 1, &rep, &err), PC_EINVAL);
    /* a precision that is neither of the two, on either side, and no thread */
    ck_assert_int_eq(spmm_check(&A, &X, &Y, 2, -1, 1, &rep, &err), PC_EINVAL);
    ck_assert_int_eq(spmm_check(&A, &X, &Y, 2, SPMM_CHECK_FP32 + 1, 1, &rep, &err), PC_EINVAL);
    ck_assert_int_eq(spmm_check(&A, &X, &Y, 2, SPMM_CHECK_FP64, 0, &rep, &err), PC_EINVAL);
    ck_assert(strstr(err.msg, "bad K, threads or precision") != NULL);
    Y.ld = 1;
    ck_assert_int_eq(spmm_check(&A, &X, &Y, 2, SPMM_CHECK_FP64, 1, &rep, &err), PC_EINVAL);
    ck_assert(strstr(err.msg, "leading dimension") != NULL);
    Y.ld = 2;
    /* an element type or a layout that is neither of the two */
    Y.dtype = 7;
    ck_assert_int_eq(spmm_check(&A, &X, &Y, 2, SPMM_CHECK_FP64, 1, &rep, &err), PC_EINVAL);
    ck_assert_str_eq(err.msg, "spmm_check: Y has an unknown dtype");
    Y.dtype = SPMM_CHECK_F64;
    X.layout = 7;
    ck_assert_int_eq(spmm_check(&A, &X, &Y, 2, SPMM_CHECK_FP64, 1, &rep, &err), PC_EINVAL);
    ck_assert_str_eq(err.msg, "spmm_check: X has an unknown layout");
    X.layout = SPMM_CHECK_ROW_MAJOR;
    int32_t r = fx_row_with(&f, 1), saved = f.coo.col[f.rowptr[r]];
    f.coo.col[f.rowptr[r]] = f.coo.cols;
    ck_assert_int_eq(spmm_check(&A, &X, &Y, 2, SPMM_CHECK_FP64, 1, &rep, &err), PC_EINVAL);
    ck_assert(strstr(err.msg, "column index") != NULL);
    f.coo.col[f.rowptr[r]] = saved;
    f.rowptr[1] = f.rowptr[2] + 1;
    ck_assert_int_eq(spmm_check(&A, &X, &Y, 2, SPMM_CHECK_FP64, 1, &rep, &err), PC_EINVAL);
    ck_assert(strstr(err.msg, "rowptr") != NULL);
    /* Row lengths are bounded (2^31 - 1 entries each), not the total: two
     * rows of 1.5e9 and 1 entries pass that test and are refused for what
     * is really wrong here (no col, no val); a row of 2^31 is refused. */
    int64_t rp[3] = {0, 1500000000, 1500000001};
    spmm_check_csr big = {2, f.coo.cols, rp, NULL, NULL};
    ck_assert_int_eq(spmm_check(&big, &X, &Y, 2, SPMM_CHECK_FP64, 1, &rep, &err), PC_EINVAL);
    ck_assert_msg(strstr(err.msg, "no col or val") != NULL, "%s", err.msg);
    rp[1] = (int64_t)1 << 31;
    rp[2] = rp[1];
    ck_assert_int_eq(spmm_check(&big, &X, &Y, 2, SPMM_CHECK_FP64, 1, &rep, &err), PC_EINVAL);
    ck_assert_msg(strstr(err.msg, "2^31 entries) at row 0") != NULL, "%s", err.msg);
    /* a negative shape, each side, and no row pointers */
    spmm_check_csr neg = A;
    neg.m = -1;
    ck_assert_int_eq(spmm_check(&neg, &X, &Y, 2, SPMM_CHECK_FP64, 1, &rep, &err), PC_EINVAL);
    ck_assert_msg(strstr(err.msg, "negative shape") != NULL, "%s", err.msg);
    neg = A;
    neg.n = -1;
    ck_assert_int_eq(spmm_check(&neg, &X, &Y, 2, SPMM_CHECK_FP64, 1, &rep, &err), PC_EINVAL);
    ck_assert_msg(strstr(err.msg, "negative shape") != NULL, "%s", err.msg);
    neg = A;
    neg.rowptr = NULL;
    ck_assert_int_eq(spmm_check(&neg, &X, &Y, 2, SPMM_CHECK_FP64, 1, &rep, &err), PC_EINVAL);
    ck_assert_msg(strstr(err.msg, "no row pointers") != NULL, "%s", err.msg);
    fx_free(&f);
}
END_TEST

/* The checker with an X copy (column-major X, fp32) under failing allocations. */
typedef struct alloc_ctx {
    fx f;
    double *Xc;
} alloc_ctx;

static int check_op(void *p)
{
    alloc_ctx *c = p;
    spmm_check_csr A = fx_csr(&c->f);
    spmm_check_dense X = {c->Xc, SPMM_CHECK_F64, SPMM_CHECK_COL_MAJOR, c->f.coo.cols};
    spmm_check_dense Y = {c->f.Y, SPMM_CHECK_F64, SPMM_CHECK_ROW_MAJOR, c->f.K};
    return spmm_check(&A, &X, &Y, c->f.K, SPMM_CHECK_FP32, 2, &c->f.rep, NULL);
}

static void check_cleanup(void *p) { (void)p; }

START_TEST(test_check_allocation_failures)
{
    alloc_ctx c;
    fx_random(&c.f, 12, 0, 3);
    c.Xc = pc_malloc_array((size_t)c.f.coo.cols * 3, sizeof *c.Xc);
    for (int32_t j = 0; j < c.f.coo.cols; j++)
        for (int k = 0; k < 3; k++)
            c.Xc[j + (size_t)k * c.f.coo.cols] = c.f.X[(size_t)j * 3 + k];
    ck_assert_int_ge(pc_test_alloc_loop(check_op, check_cleanup, &c, 50), 2);
    pc_free(c.Xc);
    fx_free(&c.f);
}
END_TEST

/* ---- the dense reader ---------------------------------------------------- */

static const char *tmp_path(const char *name)
{
    static char path[256];
    ck_assert_int_eq(system("mkdir -p " TMP), 0);
    snprintf(path, sizeof path, TMP "/%s", name);
    return path;
}

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
}

/* Reads path with the wanted shape; returns the code, message in err. */
static int dense_read(const char *path, int64_t rows, int64_t cols, int allow_f4, mm_dense *d,
                      pc_error *err)
{
    mm_dense_want w = {rows, cols, allow_f4, "Y", "A has 3 rows and K = 2"};
    pc_error_clear(err);
    return mm_dense_read_file(path, &w, d, err);
}

START_TEST(test_dense_npy_layouts_read)
{
    static const double v[6] = {1, 2, 3, 4, 5, 6};
    static const float f4[6] = {1, 2, 3, 4, 5, 6};
    int64_t shape[2] = {3, 2};
    const char *p = tmp_path("c.npy");
    pc_error err;
    mm_dense d;
    ck_assert_int_eq(pc_npy_write(p, PC_DTYPE_F8, 0, 2, shape, v, &err), 0);
    ck_assert_int_eq(dense_read(p, 3, 2, 0, &d, &err), 0);
    ck_assert(d.rows == 3 && d.cols == 2 && !d.col_major && d.from_npy && d.dtype == PC_DTYPE_F8);
    ck_assert(memcmp(d.data, v, sizeof v) == 0);
    mm_dense_free(&d);
    ck_assert_int_eq(pc_npy_write(p, PC_DTYPE_F8, 1, 2, shape, v, &err), 0);
    ck_assert_int_eq(dense_read(p, 3, -1, 0, &d, &err), 0);
    ck_assert(d.col_major && d.cols == 2);
    mm_dense_free(&d);
    ck_assert_int_eq(pc_npy_write(p, PC_DTYPE_F4, 0, 2, shape, f4, &err), 0);
    ck_assert_int_eq(dense_read(p, 3, 2, 0, &d, &err), PC_EUNSUP);
    ck_assert(strstr(err.msg, "'<f4'") != NULL && strstr(err.msg, "c.npy") != NULL);
    ck_assert_int_eq(dense_read(p, 3, 2, 1, &d, &err), 0);
    ck_assert(d.dtype == PC_DTYPE_F4);
    mm_dense_free(&d);
    int64_t len[1] = {3};
    ck_assert_int_eq(pc_npy_write(p, PC_DTYPE_F8, 0, 1, len, v, &err), 0);
    ck_assert_int_eq(dense_read(p, 3, 1, 0, &d, &err), 0);
    ck_assert(d.cols == 1);
    mm_dense_free(&d);
    ck_assert_int_eq(dense_read(p, 3, 2, 0, &d, &err), PC_EFORMAT);
    ck_assert_msg(strstr(err.msg, "(3, 1) but Y must be 3 x 2 (A has 3 rows and K = 2)") != NULL,
                  "%s", err.msg);
    /* a shape wanted on one side only says so */
    ck_assert_int_eq(dense_read(p, -1, 2, 0, &d, &err), PC_EFORMAT);
    ck_assert_msg(strstr(err.msg, "(3, 1) but Y must have 2 columns") != NULL, "%s", err.msg);
    ck_assert_int_eq(dense_read(p, 4, -1, 0, &d, &err), PC_EFORMAT);
    ck_assert_msg(strstr(err.msg, "(3, 1) but Y must have 4 rows") != NULL, "%s", err.msg);
    ck_assert_int_eq(dense_read(p, 0, -1, 0, &d, &err), PC_EFORMAT); /* A with no rows */
    ck_assert_msg(strstr(err.msg, "(3, 1) but Y must have 0 rows") != NULL, "%s", err.msg);
}
END_TEST

START_TEST(test_dense_npy_refusals_allocate_nothing)
{
    static const int32_t i4[6] = {1, 2, 3, 4, 5, 6};
    static const double v[6] = {1, 2, 3, 4, 5, 6};
    int64_t shape[2] = {3, 2};
    const char *p = tmp_path("bad.npy");
    pc_error err;
    mm_dense d;
    ck_assert_int_eq(pc_npy_write(p, PC_DTYPE_I4, 0, 2, shape, i4, &err), 0);
    long calls = pc_alloc_calls();
    ck_assert_int_eq(dense_read(p, 3, 2, 1, &d, &err), PC_EUNSUP);
    ck_assert(strstr(err.msg, "'<i4'") != NULL);
    ck_assert_int_eq(dense_read(p, 4, 2, 1, &d, &err), PC_EUNSUP);
    ck_assert_int_eq(pc_alloc_calls(), calls);
    ck_assert_int_eq(pc_npy_write(p, PC_DTYPE_F8, 0, 2, shape, v, &err), 0);
    ck_assert_int_eq(dense_read(p, 4, 2, 0, &d, &err), PC_EFORMAT);
    ck_assert_int_eq(pc_alloc_calls(), calls);
    /* a header that lies: shape (300, 2) over 48 data bytes */
    ck_assert_int_eq(system("sed -i 's/(3, 2)/(300, 2)/' " TMP "/bad.npy"), 0);
    ck_assert_int_eq(dense_read(p, -1, -1, 0, &d, &err), PC_EFORMAT);
    ck_assert(strstr(err.msg, "needs 4800 data bytes") != NULL);
    ck_assert_int_eq(pc_alloc_calls(), calls);
    ck_assert_ptr_null(d.data);
    write_text(p, "");
    ck_assert_int_eq(dense_read(p, 3, 2, 0, &d, &err), PC_EFORMAT);
    ck_assert(strstr(err.msg, "empty file") != NULL);
    write_text(p, "\x93NUMP");
    ck_assert_int_eq(dense_read(p, 3, 2, 0, &d, &err), PC_EFORMAT);
    /* a text file that does not start with '%' (after blanks) is neither */
    static const char *const neither[] = {"1 2 3\n", "  !x\n", "#%%MatrixMarket\n", "$\n"};
    for (size_t k = 0; k < sizeof neither / sizeof *neither; k++) {
        write_text(p, neither[k]);
        ck_assert_int_eq(dense_read(p, 3, 2, 0, &d, &err), PC_EFORMAT);
        ck_assert_str_eq(err.msg, TMP "/bad.npy: neither a .npy file (\\x93NUMPY) nor a Matrix "
                                  "Market array (%%MatrixMarket)");
    }
    ck_assert_int_eq(dense_read(TMP "/none.npy", 3, 2, 0, &d, &err), PC_EIO);
}
END_TEST

START_TEST(test_dense_matrix_market_array)
{
    const char *p = tmp_path("y.mtx");
    pc_error err;
    mm_dense d;
    write_text(p, "%%MatrixMarket matrix array real general\r\n% c\r\n3 2\r\n1\r\n-2.5\r\nnan\r\n"
                  "inf\r\n-Inf\r\n1e-320\r\n");
    ck_assert_msg(dense_read(p, 3, 2, 0, &d, &err) == 0, "%s", err.msg);
    const double *x = d.data;
    ck_assert(d.col_major && !d.from_npy && x[0] == 1 && x[1] == -2.5 && isnan(x[2]));
    ck_assert(x[3] == INFINITY && x[4] == -INFINITY && x[5] == 1e-320);
    mm_dense_free(&d);
    /* inf and infinity in either case, with or without a sign */
    write_text(p, "%%MatrixMarket matrix array real general\n3 2\ninfinity\n-INFINITY\n+Infinity\n"
                  "+inf\n-nan\n+NaN\n");
    ck_assert_msg(dense_read(p, 3, 2, 0, &d, &err) == 0, "%s", err.msg);
    x = d.data;
    ck_assert(x[0] == INFINITY && x[1] == -INFINITY && x[2] == INFINITY && x[3] == INFINITY);
    ck_assert(isnan(x[4]) && isnan(x[5]));
    mm_dense_free(&d);
    write_text(p, "%%MatrixMarket matrix array integer general\n3 1\n4\n-0\n9007199254740992\n");
    ck_assert_int_eq(dense_read(p, 3, 1, 0, &d, &err), 0);
    ck_assert(((double *)d.data)[2] == 0x1p53 && signbit(((double *)d.data)[1]));
    mm_dense_free(&d);
    /* blanks and tabs around a count or a value are not part of it */
    write_text(p, "%%MatrixMarket matrix array real general\n \t3 1 \n \t-1.5\t\n   2\n\t 3e1  \n");
    ck_assert_msg(dense_read(p, 3, 1, 0, &d, &err) == 0, "%s", err.msg);
    x = d.data;
    ck_assert(x[0] == -1.5 && x[1] == 2 && x[2] == 30);
    mm_dense_free(&d);
    /* a value of 63 characters is read; one of 64 is refused before it is
     * copied into the 64-byte buffer that needs room for its NUL */
    {
        char text[256], v63[64], v64[65];
        memset(v63, '0', 63);
        v63[0] = '1';
        v63[1] = '.';
        v63[63] = '\0';
        memset(v64, '0', 64);
        v64[0] = '1';
        v64[1] = '.';
        v64[64] = '\0';
        snprintf(text, sizeof text, "%%%%MatrixMarket matrix array real general\n2 1\n%s\n2\n", v63);
        write_text(p, text);
        ck_assert_msg(dense_read(p, 2, 1, 0, &d, &err) == 0, "%s", err.msg);
        const double *dv = d.data;
        ck_assert(dv[0] == 1.0 && dv[1] == 2.0);
        mm_dense_free(&d);
        snprintf(text, sizeof text, "%%%%MatrixMarket matrix array real general\n2 1\n%s\n2\n", v64);
        write_text(p, text);
        ck_assert_int_eq(dense_read(p, 2, 1, 0, &d, &err), PC_EFORMAT);
        ck_assert_ptr_nonnull(strstr(err.msg, "y.mtx:3: bad value '1.00000"));
    }
    /* an empty array (A without rows): no value, and no allocation refused */
    write_text(p, "%%MatrixMarket matrix array real general\n0 2\n");
    ck_assert_msg(dense_read(p, 0, 2, 0, &d, &err) == 0, "%s", err.msg);
    ck_assert(d.data != NULL);
    mm_dense_free(&d);
    static const struct {
        const char *text;
        int code;
        const char *msg;
    } bad[] = {
        {"%%MatrixMarket matrix array real general\n3 2\n1.0\n2.0\n3.0\n4.0\n5.0\n", PC_EFORMAT, "y.mtx:7: too few values: 5 of the 3 x 2 declared (truncated file?)"},
        {"%%MatrixMarket matrix array real general\n3 2\n1\n2\n3\n4\n5\n6\n7\n", PC_EFORMAT, "y.mtx:9: too many values: data past the declared count"},
        {"%%MatrixMarket matrix array real general\n3 2\n1 2\n3\n4\n5\n6\n", PC_EFORMAT, "y.mtx:3: one value per line: unexpected text after '1'"},
        {"%%MatrixMarket matrix array real general\n3 2\n1\n2\nx\n4\n5\n6\n", PC_EFORMAT, "y.mtx:5: bad real value 'x'"},
        {"%%MatrixMarket matrix array integer general\n3 2\n1.5\n2\n3\n4\n5\n6\n", PC_EFORMAT, "y.mtx:3: bad integer value '1.5'"},
        /* made of number characters, but not a number to its end */
        {"%%MatrixMarket matrix array real general\n3 2\n1\n1.2.3\n3\n4\n5\n6\n", PC_EFORMAT, "y.mtx:4: bad real value '1.2.3'"},
        {"%%MatrixMarket matrix array integer general\n3 2\n1\n2\n3-\n4\n5\n6\n", PC_EFORMAT, "y.mtx:5: bad integer value '3-'"},
        {"%%MatrixMarket matrix array real general\n3 2\n1e999\n2\n3\n4\n5\n6\n", PC_ERANGE, "y.mtx:3: value overflows a double: '1e999'"},
        /* nan is no integer */
        {"%%MatrixMarket matrix array integer general\n3 2\n1\nnan\n3\n4\n5\n6\n", PC_EFORMAT, "y.mtx:4: bad integer value 'nan'"},
        /* a control character is part of the word, not a blank */
        {"%%MatrixMarket matrix array real general\n3 2\n1\n2\001\n3\n4\n5\n6\n", PC_EFORMAT, "y.mtx:4: bad real value '2?'"},
        /* a word too long for any number is refused before it is copied */
        {"%%MatrixMarket matrix array real general\n3 2\n1.0000000000000000000000000000000000000000000000000000000000000000000001\n2\n3\n4\n5\n6\n", PC_EFORMAT, "y.mtx:3: bad value '1.000000000000000000000000000000000000000000...'"},
        {"%%MatrixMarket matrix array real general\n4 2\n", PC_EFORMAT, "y.mtx:2: the size line declares (4, 2) but Y must be 3 x 2 (A has 3 rows and K = 2)"},
        {"%%MatrixMarket matrix array real general\n3 2\n1\n", PC_EFORMAT, "y.mtx:2: 3 x 2 values declared but only 2 bytes follow (truncated file?)"},
        {"%%MatrixMarket matrix coordinate real general\n3 2 1\n1 1 1\n", PC_EUNSUP, "y.mtx:1: a dense array must be written in format 'array', not 'coordinate'"},
        {"%%MatrixMarket matrix array real symmetric\n3 2\n", PC_EUNSUP, "y.mtx:1: symmetry must be general, not 'symmetric'"},
        {"%%MatrixMarket matrix array complex general\n3 2\n", PC_EUNSUP, "y.mtx:1: field must be real or integer, not 'complex'"},
        {"%%MatrixMarket vector array real general\n3 2\n", PC_EUNSUP, "y.mtx:1: object is not 'matrix': 'vector'"},
        {"%%MatrixMarket matrix array real general extra\n3 2\n", PC_EFORMAT, "y.mtx:1: the banner needs 4 words: matrix array real general"},
        {"%%MatrixMarket matrix array real general\n", PC_EFORMAT, "y.mtx:1: missing size line"},
        {"%%MatrixMarket matrix array real general\n3\n", PC_EFORMAT, "y.mtx:2: the size line of an array holds two counts: rows columns"},
        {"%%MatrixMarket matrix array real general\nx 2\n", PC_EFORMAT, "y.mtx:2: bad count (0 to 2^31 - 1) in the size line 'x'"},
        {"%%MatrixMarket matrix array real general\n3 2y\n", PC_EFORMAT, "y.mtx:2: bad count (0 to 2^31 - 1) in the size line '2y'"},
        {"%%MatrixMarket matrix array real general\n3 2.\n", PC_EFORMAT, "y.mtx:2: bad count (0 to 2^31 - 1) in the size line '2.'"},
        {"%%MatrixMarket matrix arr real general\n3 2\n", PC_EFORMAT, "y.mtx:1: bad format 'arr'"},
        {"%%MatrixMarket matrix array real general\n3/ 2\n", PC_EFORMAT, "y.mtx:2: bad count (0 to 2^31 - 1) in the size line '3/'"},
        {"%MatrixMarket matrix array real general\n3 2\n", PC_EFORMAT, "y.mtx:1: missing %%MatrixMarket banner"},
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        write_text(p, bad[k].text);
        ck_assert_int_eq(dense_read(p, 3, 2, 0, &d, &err), bad[k].code);
        char want[256]; /* the whole message, after the file's directory */
        snprintf(want, sizeof want, "%s/%s", TMP, bad[k].msg);
        ck_assert_str_eq(err.msg, want);
        ck_assert_ptr_null(d.data);
    }
}
END_TEST

typedef struct dense_ctx {
    const char *path;
    mm_dense d;
} dense_ctx;

static int dense_op(void *p)
{
    dense_ctx *c = p;
    mm_dense_want w = {-1, -1, 1, "Y", NULL};
    return mm_dense_read_file(c->path, &w, &c->d, NULL);
}

static void dense_cleanup(void *p) { mm_dense_free(&((dense_ctx *)p)->d); }

START_TEST(test_dense_allocation_failures)
{
    static const double v[4] = {1, 2, 3, 4};
    int64_t shape[2] = {2, 2};
    dense_ctx c = {tmp_path("alloc.npy"), {0}};
    ck_assert_int_eq(pc_npy_write(c.path, PC_DTYPE_F8, 1, 2, shape, v, NULL), 0);
    ck_assert_int_ge(pc_test_alloc_loop(dense_op, dense_cleanup, &c, 20), 1);
    c.path = tmp_path("alloc.mtx");
    write_text(c.path, "%%MatrixMarket matrix array real general\n2 1\n1\n2\n");
    ck_assert_int_ge(pc_test_alloc_loop(dense_op, dense_cleanup, &c, 20), 1);
}
END_TEST

static Suite *suite_spmm_check(void)
{
    Suite *s = suite_create("spmm_check");
    TCase *core = pc_tcase("core");
    tcase_add_test(core, test_correct_y_passes);
    tcase_add_test(core, test_fortran_order_and_strided_y_pass);
    tcase_add_test(core, test_column_major_x_agrees);
    tcase_add_test(core, test_float_result_judged_in_fp32);
    tcase_add_test(core, test_fp32_rounds_a_and_x_first);
    suite_add_tcase(s, core);
    TCase *planted = pc_tcase("planted");
    tcase_add_test(planted, test_skipped_row_located);
    tcase_add_test(planted, test_shifted_column_located);
    tcase_add_test(planted, test_entry_off_by_four_bounds);
    tcase_add_test(planted, test_race_row_holds_half_its_sum);
    tcase_add_test(planted, test_nan_and_inf_fail_where_reference_finite);
    tcase_add_test(planted, test_poison_means_never_written);
    tcase_add_test(planted, test_rows_summary_merges_ranges);
    suite_add_tcase(s, planted);
    TCase *limits = pc_tcase("limits");
    tcase_add_test(limits, test_empty_rows_and_degenerate_shapes);
    tcase_add_test(limits, test_every_k_tail_checked);
    tcase_add_test(limits, test_bad_arguments_refused);
    tcase_add_test(limits, test_check_allocation_failures);
    suite_add_tcase(s, limits);
    TCase *rigour = pc_tcase("rigour");
    tcase_add_loop_test(rigour, test_verdicts_equal_oracle_on_random_cases, 0, 60);
    tcase_add_loop_test(rigour, test_exact_judge_equals_oracle_on_random_cases, 0, 30);
    tcase_add_test(rigour, test_exact_reference_rounds_to_nearest_even);
    tcase_add_test(rigour, test_subnormal_boundary_keeps_the_underflow_margin);
    tcase_add_test(rigour, test_vector_pass_decides_clear_entries);
    tcase_add_test(rigour, test_exact_judge_bound_met_from_below);
    tcase_add_test(rigour, test_boundary_decided_exactly);
    tcase_add_test(rigour, test_exact_judge_takes_the_bound_itself);
    tcase_add_test(rigour, test_reference_is_the_exact_sum);
    tcase_add_test(rigour, test_integer_inputs_demand_exact);
    tcase_add_test(rigour, test_nonfinite_products_must_be_reproduced);
    tcase_add_test(rigour, test_threads_and_portable_path_give_same_report);
    tcase_add_test(rigour, test_vector_sweep_reads_each_lane);
    tcase_add_test(rigour, test_huge_values_keep_their_bound);
    tcase_add_test(rigour, test_overflowing_abs_sum_leaves_the_sweep);
    suite_add_tcase(s, rigour);
    TCase *dense = pc_tcase("dense");
    tcase_add_test(dense, test_dense_npy_layouts_read);
    tcase_add_test(dense, test_dense_npy_refusals_allocate_nothing);
    tcase_add_test(dense, test_dense_matrix_market_array);
    tcase_add_test(dense, test_dense_allocation_failures);
    suite_add_tcase(s, dense);
    return s;
}

int main(void) { return pc_test_run(suite_spmm_check()); }
