/* The SpMM oracle itself: it must accept a correct result and reject a
 * result with one entry past the bound, one entry unwritten, one NaN, or an
 * integer result off by one unit in the last place. */
#include <math.h>
#include <string.h>

#include "pc_alloc.h"
#include "pc_test.h"
#include "spmm.h"
#include "spmm/spmm_oracle.h"
#include "spmm_cases.h"

typedef struct fixture {
    mm_coo coo;
    double *X, *Y;
    spmm_oracle orc;
    int K;
} fixture;

static void fixture_make(fixture *f, uint64_t id, int ints)
{
    pc_error err;
    f->K = 5;
    ck_assert_int_eq(spmm_case_random(id, ints, &f->coo), 0);
    ck_assert_int_gt(f->coo.nnz, 0);
    ck_assert_int_eq(spmm_make_x(f->coo.cols, f->K, id, ints, &f->X, &err), 0);
    ck_assert_int_eq(spmm_oracle_compute(&f->coo, f->X, f->K, &f->orc, &err), 0);
    spmm_csr csr;
    ck_assert_int_eq(spmm_csr_from_coo(&f->coo, &csr, 1, &err), 0);
    f->Y = pc_malloc_array((size_t)f->coo.rows * f->K, sizeof *f->Y);
    spmm_oracle_poison(f->Y, (int64_t)f->coo.rows * f->K);
    spmm_csr_serial(&csr, f->X, f->K, f->Y);
    spmm_csr_free(&csr);
}

static void fixture_free(fixture *f)
{
    pc_free(f->X);
    pc_free(f->Y);
    spmm_oracle_free(&f->orc);
    mm_coo_free(&f->coo);
}

/* Index of an entry whose row is not empty (so its bound is meaningful). */
static size_t fixture_pick(const fixture *f)
{
    return (size_t)f->coo.row[f->coo.nnz / 2] * f->K + 1;
}

START_TEST(test_correct_result_accepted)
{
    fixture f;
    fixture_make(&f, 4, 0);
    spmm_verdict v;
    spmm_oracle_check(&f.orc, f.Y, &v);
    ck_assert_msg(v.pass, "%s", v.why);
    ck_assert_int_eq(v.checked, (int64_t)f.coo.rows * f.K);
    ck_assert(v.unit_roundoff == 0x1.0p-53);
    ck_assert(v.max_err_over_bound <= 2.0);
    ck_assert(v.max_rel_err >= 0.0 && v.mean_rel_err <= v.max_rel_err);
    fixture_free(&f);
}
END_TEST

START_TEST(test_entry_past_bound_rejected)
{
    fixture f;
    fixture_make(&f, 4, 0);
    size_t s = fixture_pick(&f);
    int32_t i = (int32_t)(s / f.K);
    double nu = f.orc.nrow[i] * 0x1.0p-53;
    double b = nu / (1 - nu) * f.orc.absax[s];
    ck_assert(b > 0);
    f.Y[s] = f.orc.hi[s] + f.orc.lo[s] + 3.0 * b;
    spmm_verdict v;
    spmm_oracle_check(&f.orc, f.Y, &v);
    ck_assert(!v.pass);
    ck_assert_int_eq(v.bad, 1);
    ck_assert(strstr(v.why, "exceeds") != NULL);
    ck_assert(v.max_err_over_bound > 2.0);
    /* Just inside 2b is still accepted. */
    f.Y[s] = f.orc.hi[s] + f.orc.lo[s] + 1.5 * b;
    spmm_oracle_check(&f.orc, f.Y, &v);
    ck_assert_msg(v.pass, "%s", v.why);
    fixture_free(&f);
}
END_TEST

START_TEST(test_unwritten_entry_rejected)
{
    fixture f;
    fixture_make(&f, 9, 0);
    size_t s = fixture_pick(&f);
    spmm_oracle_poison(&f.Y[s], 1);
    spmm_verdict v;
    spmm_oracle_check(&f.orc, f.Y, &v);
    ck_assert(!v.pass);
    ck_assert(strstr(v.why, "never written") != NULL);
    fixture_free(&f);
}
END_TEST

START_TEST(test_nan_rejected)
{
    fixture f;
    fixture_make(&f, 9, 0);
    f.Y[fixture_pick(&f)] = NAN;
    spmm_verdict v;
    spmm_oracle_check(&f.orc, f.Y, &v);
    ck_assert(!v.pass);
    ck_assert(strstr(v.why, "not finite") != NULL);
    fixture_free(&f);
}
END_TEST

START_TEST(test_integer_inputs_demand_exact)
{
    fixture f;
    fixture_make(&f, 6, 1);
    ck_assert(f.orc.exact);
    spmm_verdict v;
    spmm_oracle_check(&f.orc, f.Y, &v);
    ck_assert_msg(v.pass, "%s", v.why);
    ck_assert(v.max_rel_err == 0.0);
    size_t s = fixture_pick(&f);
    f.Y[s] = nextafter(f.Y[s], INFINITY);
    spmm_oracle_check(&f.orc, f.Y, &v);
    ck_assert(!v.pass);
    ck_assert(strstr(v.why, "integer inputs") != NULL);
    /* far past the bound too: still said as the inexact integer result */
    f.Y[s] += 1e6;
    spmm_oracle_check(&f.orc, f.Y, &v);
    ck_assert(!v.pass);
    ck_assert_msg(strstr(v.why, "integer inputs but") != NULL, "%s", v.why);
    fixture_free(&f);
}
END_TEST

START_TEST(test_nonfinite_reference_must_be_reproduced)
{
    /* row 1: inf * 1 = inf; row 2: inf * 1 + 1 * -inf = NaN */
    static const int32_t ri[] = {0, 1, 1}, ci[] = {0, 0, 1};
    static const double v[] = {INFINITY, INFINITY, 1.0};
    mm_coo coo;
    ck_assert_int_eq(spmm_case_from(2, 2, 3, ri, ci, v, &coo), 0);
    double X[2] = {1.0, -INFINITY};
    spmm_oracle orc;
    pc_error err;
    ck_assert_int_eq(spmm_oracle_compute(&coo, X, 1, &orc, &err), 0);
    double Y[2] = {INFINITY, NAN};
    spmm_verdict ver;
    spmm_oracle_check(&orc, Y, &ver);
    ck_assert_msg(ver.pass, "%s", ver.why);
    Y[0] = 1e308;
    spmm_oracle_check(&orc, Y, &ver);
    ck_assert(!ver.pass && ver.bad == 1);
    ck_assert_str_eq(ver.why, "entry (0,0): non-finite reference not reproduced");
    Y[0] = INFINITY;
    Y[1] = 0.0;
    spmm_oracle_check(&orc, Y, &ver);
    ck_assert(!ver.pass && ver.bad == 1);
    ck_assert_str_eq(ver.why, "entry (1,0): non-finite reference not reproduced");
    spmm_oracle_free(&orc);
    mm_coo_free(&coo);
}
END_TEST

START_TEST(test_reference_is_compensated)
{
    /* 1e16 + 1 - 1e16 is 0 in double but 1 exactly: the double-double
     * reference must give 1, and the bound then accepts the naive 0. */
    static const int32_t ri[] = {0, 0, 0}, ci[] = {0, 1, 2};
    static const double v[] = {1e16, 1.0, -1e16};
    mm_coo coo;
    ck_assert_int_eq(spmm_case_from(1, 3, 3, ri, ci, v, &coo), 0);
    double X[3] = {1.0, 1.0, 1.0};
    spmm_oracle orc;
    pc_error err;
    ck_assert_int_eq(spmm_oracle_compute(&coo, X, 1, &orc, &err), 0);
    ck_assert(orc.hi[0] + orc.lo[0] == 1.0);
    ck_assert(!orc.exact); /* partial sums reach 1e16 > 2^53 */
    double y = 0.0;
    spmm_verdict ver;
    spmm_oracle_check(&orc, &y, &ver);
    ck_assert_msg(ver.pass, "%s", ver.why);
    ck_assert(ver.max_rel_err == 1.0);
    spmm_oracle_free(&orc);
    mm_coo_free(&coo);
    /* integers, each within 2^53, whose partial sums pass it (2^52 + 2^52
     * + 2): exactness is not asked, whatever the values */
    static const double w[] = {0x1p52, 0x1p52, 2.0};
    ck_assert_int_eq(spmm_case_from(1, 3, 3, ri, ci, w, &coo), 0);
    ck_assert_int_eq(spmm_oracle_compute(&coo, X, 1, &orc, &err), 0);
    ck_assert(!orc.exact);
    y = 0x1p53 + 2.0;
    spmm_oracle_check(&orc, &y, &ver);
    ck_assert_msg(ver.pass, "%s", ver.why);
    spmm_oracle_free(&orc);
    mm_coo_free(&coo);
    /* integer A with an X not integer past its first value: not exact, and
     * an entry past its bound named with the bound's value (2 b, b =
     * gamma_2 sum |a||x|) */
    static const double iv[] = {1.0, 2.0, 3.0};
    ck_assert_int_eq(spmm_case_from(1, 3, 3, ri, ci, iv, &coo), 0);
    double Xh[3] = {1.0, 0.5, 0.25};
    ck_assert_int_eq(spmm_oracle_compute(&coo, Xh, 1, &orc, &err), 0);
    ck_assert(!orc.exact);
    y = 3.0; /* ref 1 + 1 + 0.75 = 2.75 */
    spmm_oracle_check(&orc, &y, &ver);
    ck_assert(!ver.pass);
    double nu = 3.0 * 0x1p-53, b2 = 2.0 * (nu / (1.0 - nu)) * 2.75;
    char want[200];
    snprintf(want, sizeof want, "entry (0,0): |y - ref| = 0.25 exceeds 2 b = %.3g (y 3, ref 2.75)", b2);
    ck_assert_str_eq(ver.why, want);
    spmm_oracle_free(&orc);
    /* X not integer at its first value only: not exact either */
    double Xf[3] = {0.5, 1.0, 1.0};
    ck_assert_int_eq(spmm_oracle_compute(&coo, Xf, 1, &orc, &err), 0);
    ck_assert(!orc.exact);
    spmm_oracle_free(&orc);
    /* bad arguments leave a cleared reference, safe to free */
    ck_assert_int_eq(spmm_oracle_compute(&coo, X, 0, &orc, &err), PC_EINVAL);
    ck_assert(orc.hi == NULL && orc.lo == NULL && orc.absax == NULL && orc.special == NULL &&
              orc.nrow == NULL && orc.m == 0 && orc.K == 0 && orc.exact == 0);
    spmm_oracle_free(&orc);
    mm_coo_free(&coo);
}
END_TEST

static int oracle_op(void *ctx)
{
    fixture *f = ctx;
    return spmm_oracle_compute(&f->coo, f->X, f->K, &f->orc, NULL);
}

static void oracle_cleanup(void *ctx) { spmm_oracle_free(&((fixture *)ctx)->orc); }

START_TEST(test_oracle_allocation_failures)
{
    fixture f;
    fixture_make(&f, 12, 0);
    spmm_oracle_free(&f.orc);
    long points = pc_test_alloc_loop(oracle_op, oracle_cleanup, &f, 100);
    ck_assert_int_ge(points, 4);
    fixture_free(&f);
}
END_TEST

static Suite *suite_spmm_oracle(void)
{
    Suite *s = suite_create("spmm_oracle");
    TCase *tc = pc_tcase("oracle");
    tcase_add_test(tc, test_correct_result_accepted);
    tcase_add_test(tc, test_entry_past_bound_rejected);
    tcase_add_test(tc, test_unwritten_entry_rejected);
    tcase_add_test(tc, test_nonfinite_reference_must_be_reproduced);
    tcase_add_test(tc, test_nan_rejected);
    tcase_add_test(tc, test_integer_inputs_demand_exact);
    tcase_add_test(tc, test_reference_is_compensated);
    tcase_add_test(tc, test_oracle_allocation_failures);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return pc_test_run(suite_spmm_oracle()); }
