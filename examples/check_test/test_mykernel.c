/* test_mykernel.c - a Check test of my own SpMM loop, judged by parcheck.
 * cc test_mykernel.c $(pkg-config --cflags --libs parcheck check) */
#include <check.h>
#include <parcheck/parcheck.h>

static const int64_t rowptr[] = {0, 2, 2, 3};           /* 3 x 3, row 2 empty */
static const int32_t col[] = {0, 2, 1};
static const double val[] = {0.5, -2.25, 4.1};
static const double X[] = {1.5, 2, 3, 4, 5, 6.25};      /* 3 x 2, row-major */

static void my_spmm(double *Y)                          /* the kernel under test */
{
    for (int i = 0; i < 3; i++)
        for (int k = 0; k < 2; k++) {
            Y[i * 2 + k] = 0;
            for (int64_t e = rowptr[i]; e < rowptr[i + 1]; e++)
                Y[i * 2 + k] += val[e] * X[col[e] * 2 + k];
        }
}

START_TEST(my_spmm_is_right)
{
    double Y[6];
    my_spmm(Y);
    parcheck_dense x = {X, PARCHECK_F64, PARCHECK_ROW_MAJOR, 0};
    parcheck_dense y = {Y, PARCHECK_F64, PARCHECK_ROW_MAJOR, 0};
    parcheck_report *rep = parcheck_report_new();
    char msg[256], why[512];
    int rc = parcheck_check_spmm(3, 3, 3, rowptr, col, val, &x, &y, 2, PARCHECK_F64, 1, rep,
                                 msg, sizeof msg);
    ck_assert_msg(rc == PARCHECK_OK, "%s", msg);
    parcheck_report_why(rep, why, sizeof why);
    ck_assert_msg(parcheck_report_status(rep) == PARCHECK_PASS, "%s", why);

    Y[2 * 2 + 1] += 1e-9;                               /* plant an error at row 3, column 2 */
    rc = parcheck_check_spmm(3, 3, 3, rowptr, col, val, &x, &y, 2, PARCHECK_F64, 1, rep, msg,
                             sizeof msg);
    int64_t row = 0;
    ck_assert_int_eq(rc, PARCHECK_OK);
    ck_assert_int_eq(parcheck_report_status(rep), PARCHECK_FAIL);
    ck_assert_int_eq(parcheck_report_where_int(rep, 0, "row", &row), PARCHECK_OK);
    ck_assert_int_eq(row, 3);                           /* 1-based, as in the why text */
    parcheck_report_free(rep);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("mykernel");
    TCase *tc = tcase_create("spmm");
    tcase_add_test(tc, my_spmm_is_right);
    suite_add_tcase(s, tc);
    SRunner *r = srunner_create(s);
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed != 0;
}
