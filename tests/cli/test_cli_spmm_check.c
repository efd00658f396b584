/* parcheck spmm check and gen x as a user runs them: a Y written by
 * "another program" (computed here, saved as .npy or Matrix Market) passes
 * in every format, planted mistakes exit 1 and are located, files that are
 * not what they claim exit 2 with file[:line], and gen x writes exactly
 * the X that check regenerates. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mm.h"
#include "mm_dense.h"
#include "pc_alloc.h"
#include "pc_npy.h"
#include "pc_test.h"
#include "spmm.h"
#include "spmm/spmm_oracle.h"

#define DIR "build/test-tmp/cli-spmm-check"
#define K 4
#define SEED 7

static int run(const char *args, char **out, char **err)
{
    char cmd[8192];
    snprintf(cmd, sizeof cmd, "%s %s", pc_test_bin(), args);
    return pc_test_shell(cmd, out, err);
}

/* The case every test reads: A (DIR/a.mtx), X of gen x --seed 7, and the
 * correct Y from csr-serial. */
typedef struct cli_case {
    mm_coo coo;
    double *X, *Y;
    size_t len;
} cli_case;

static void case_make(cli_case *c)
{
    ck_assert_int_eq(system("mkdir -p " DIR), 0);
    ck_assert_int_eq(run("gen matrix --rows 300 --cols 200 --nnz 3000 --shape powerlaw --seed 5 "
                         "-o " DIR "/a.mtx", NULL, NULL), 0);
    pc_error err;
    ck_assert_int_eq(mm_read_file(DIR "/a.mtx", &c->coo, &err), 0);
    ck_assert_int_eq(spmm_make_x(c->coo.cols, K, SEED, 0, &c->X, &err), 0);
    spmm_csr csr;
    ck_assert_int_eq(spmm_csr_from_coo(&c->coo, &csr, 1, &err), 0);
    c->len = (size_t)c->coo.rows * K;
    c->Y = pc_malloc_array(c->len, sizeof *c->Y);
    spmm_csr_serial(&csr, c->X, K, c->Y);
    spmm_csr_free(&csr);
}

static void case_free(cli_case *c)
{
    mm_coo_free(&c->coo);
    pc_free(c->X);
    pc_free(c->Y);
}

static void save_npy(const cli_case *c, const char *name, const double *Y)
{
    int64_t shape[2] = {c->coo.rows, K};
    char path[256];
    snprintf(path, sizeof path, DIR "/%s", name);
    ck_assert_int_eq(pc_npy_write(path, PC_DTYPE_F8, 0, 2, shape, Y, NULL), 0);
}

static void save_mm(const cli_case *c, const char *name, const char *eol)
{
    char path[256];
    snprintf(path, sizeof path, DIR "/%s", name);
    FILE *f = fopen(path, "wb");
    ck_assert_ptr_nonnull(f);
    fprintf(f, "%%%%MatrixMarket matrix array real general%s%d %d%s", eol, c->coo.rows, K, eol);
    for (int k = 0; k < K; k++)
        for (int32_t i = 0; i < c->coo.rows; i++)
            fprintf(f, "%.17g%s", c->Y[(size_t)i * K + k], eol);
    fclose(f);
}

/* Runs `spmm check DIR/a.mtx --y DIR/<y> <more>`; returns the exit code. */
static int check(const char *y, const char *more, char **out, char **err)
{
    char args[1024];
    snprintf(args, sizeof args, "spmm check " DIR "/a.mtx --y " DIR "/%s %s", y, more);
    return run(args, out, err);
}

static void expect(const char *y, const char *more, int code, const char *in_out, const char *in_err)
{
    char *out, *err;
    int rc = check(y, more, &out, &err);
    ck_assert_msg(rc == code, "%s %s: exit %d, not %d\n%s%s", y, more, rc, code, out, err);
    if (in_out)
        ck_assert_msg(strstr(out, in_out) != NULL, "%s %s: stdout lacks '%s':\n%s", y, more, in_out, out);
    if (in_err)
        ck_assert_msg(strstr(err, in_err) != NULL, "%s %s: stderr lacks '%s':\n%s", y, more, in_err, err);
    free(out);
    free(err);
}

START_TEST(test_correct_y_passes_in_every_format)
{
    cli_case c;
    case_make(&c);
    save_npy(&c, "y.npy", c.Y);
    double *F = pc_malloc_array(c.len, sizeof *F);
    for (int32_t i = 0; i < c.coo.rows; i++)
        for (int k = 0; k < K; k++)
            F[i + (size_t)k * c.coo.rows] = c.Y[(size_t)i * K + k];
    int64_t shape[2] = {c.coo.rows, K};
    ck_assert_int_eq(pc_npy_write(DIR "/yF.npy", PC_DTYPE_F8, 1, 2, shape, F, NULL), 0);
    save_mm(&c, "y.mtx", "\n");
    save_mm(&c, "ycrlf.mtx", "\r\n");
    expect("y.npy", "--seed 7", 0, "y.npy", NULL);
    expect("yF.npy", "--seed 7 --k 4", 0, "y_order=F", NULL);
    expect("y.mtx", "--seed 7 --threads 1", 0, "y_order=mm-array", NULL);
    expect("ycrlf.mtx", "--seed 7", 0, " pass ", NULL);
    pc_free(F);
    case_free(&c);
}
END_TEST

START_TEST(test_float_y_judged_in_single_precision)
{
    cli_case c;
    case_make(&c);
    float *Y = pc_malloc_array(c.len, sizeof *Y);
    for (int32_t i = 0; i < c.coo.rows; i++)
        for (int k = 0; k < K; k++) {
            float s = 0.0f;
            for (int64_t e = 0; e < c.coo.nnz; e++)
                if (c.coo.row[e] == i)
                    s += (float)c.coo.val[e] * (float)c.X[(size_t)c.coo.col[e] * K + k];
            Y[(size_t)i * K + k] = s;
        }
    int64_t shape[2] = {c.coo.rows, K};
    ck_assert_int_eq(pc_npy_write(DIR "/y32.npy", PC_DTYPE_F4, 0, 2, shape, Y, NULL), 0);
    expect("y32.npy", "--seed 7 --json -", 0, "\"unit_roundoff\":5.9604644775390625e-08", NULL);
    expect("y32.npy", "--seed 7 --json -", 0, "\"precision\":\"fp32\"", NULL);
    pc_free(Y);
    case_free(&c);
}
END_TEST

START_TEST(test_json_contract)
{
    cli_case c;
    case_make(&c);
    save_npy(&c, "y.npy", c.Y);
    char *out, *err;
    ck_assert_int_eq(check("y.npy", "--seed 7 --name my-kernel --json -", &out, &err), 0);
    static const char *keys[] = {"\"domain\":\"spmm\"", "\"rows\":300", "\"k\":4",
                                 "\"oracle\":{\"name\":\"spmm-check-dot2-exact\"",
                                 "\"impl\":\"my-kernel\"", "\"status\":\"pass\"", "\"max_rel_err\"",
                                 "\"mean_rel_err\"", "\"max_err_over_bound\"",
                                 "\"unit_roundoff\":1.1102230246251565e-16", "\"entries_checked\":1200",
                                 "\"exact_required\":false", "\"bad_entries\":0",
                                 "\"slow_path_entries\":0", "\"check_s\"", "\"peak_bytes\""};
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++)
        ck_assert_msg(strstr(out, keys[k]) != NULL, "JSON lacks %s:\n%s", keys[k], out);
    ck_assert(strstr(out, "\"where\"") == NULL && out[strlen(out) - 1] == '\n');
    free(out);
    free(err);
    case_free(&c);
}
END_TEST

START_TEST(test_x_file_and_regenerated_x_agree)
{
    cli_case c;
    case_make(&c);
    save_npy(&c, "y.npy", c.Y);
    ck_assert_int_eq(run("gen x --rows 200 --k 4 --seed 7 -o " DIR "/x.npy", NULL, NULL), 0);
    ck_assert_int_eq(run("gen x --rows 200 --k 4 --seed 7 -o " DIR "/x.mtx", NULL, NULL), 0);
    expect("y.npy", "--x " DIR "/x.npy", 0, "x=" DIR "/x.npy", NULL);
    expect("y.npy", "--x " DIR "/x.mtx --k 4", 0, " pass ", NULL);
    expect("y.npy", "--seed 8", 1, " fail ", NULL);
    expect("y.npy", "--x " DIR "/a.mtx", 2, NULL, "a.mtx");
    case_free(&c);
}
END_TEST

/* Writes Y with one planted mistake and checks where it is reported. */
START_TEST(test_planted_mistakes_exit_1_located)
{
    cli_case c;
    case_make(&c);
    spmm_oracle orc;
    ck_assert_int_eq(spmm_oracle_compute(&c.coo, c.X, K, &orc, NULL), 0);
    int32_t r = c.coo.row[c.coo.nnz / 2]; /* a row with entries */
    int64_t p0 = 0, p1 = 0;
    while (c.coo.row[p0] != r)
        p0++;
    for (p1 = p0; p1 < c.coo.nnz && c.coo.row[p1] == r; p1++)
        ;
    double *Y = pc_malloc_array(c.len, sizeof *Y);
    char row_line[64], rows_line[96], off_line[64];
    snprintf(row_line, sizeof row_line, "at row=%d col=1 ", r + 1);
    snprintf(rows_line, sizeof rows_line, "row %d wrong; all other rows within bound", r + 1);
    /* one row skipped */
    memcpy(Y, c.Y, c.len * sizeof *Y);
    memset(&Y[(size_t)r * K], 0, K * sizeof *Y);
    save_npy(&c, "skip.npy", Y);
    expect("skip.npy", "--seed 7", 1, row_line, NULL);
    expect("skip.npy", "--seed 7", 1, rows_line, NULL);
    /* column k holds column k + 1 */
    for (int32_t i = 0; i < c.coo.rows; i++)
        for (int k = 0; k + 1 < K; k++)
            Y[(size_t)i * K + k] = c.Y[(size_t)i * K + k + 1];
    save_npy(&c, "shift.npy", Y);
    expect("shift.npy", "--seed 7", 1, "col=1 ", NULL);
    /* one entry off by 4 bounds */
    memcpy(Y, c.Y, c.len * sizeof *Y);
    size_t s = (size_t)r * K + 2;
    double nu = orc.nrow[r] * 0x1p-53;
    Y[s] = orc.hi[s] + orc.lo[s] + 4.0 * 2.0 * nu / (1.0 - nu) * orc.absax[s];
    save_npy(&c, "off4.npy", Y);
    snprintf(off_line, sizeof off_line, "\"row\":%d,\"col\":3,", r + 1);
    expect("off4.npy", "--seed 7 --json -", 1, off_line, NULL);
    expect("off4.npy", "--seed 7 --json -", 1, "\"bad_entries\":1,", NULL);
    /* a race: the row holds the sum of half its entries */
    memcpy(Y, c.Y, c.len * sizeof *Y);
    for (int k = 0; k < K; k++) {
        double h = 0.0;
        for (int64_t p = p0; p < p0 + (p1 - p0) / 2; p++)
            h += c.coo.val[p] * c.X[(size_t)c.coo.col[p] * K + k];
        Y[(size_t)r * K + k] = h;
    }
    save_npy(&c, "race.npy", Y);
    expect("race.npy", "--seed 7", 1, rows_line, NULL);
    /* NaN and inf where the reference is finite */
    memcpy(Y, c.Y, c.len * sizeof *Y);
    Y[s] = NAN;
    save_npy(&c, "nan.npy", Y);
    expect("nan.npy", "--seed 7", 1, "is not finite", NULL);
    Y[s] = INFINITY;
    save_npy(&c, "inf.npy", Y);
    expect("inf.npy", "--seed 7", 1, "is not finite", NULL);
    pc_free(Y);
    spmm_oracle_free(&orc);
    case_free(&c);
}
END_TEST

START_TEST(test_bad_files_exit_2_with_location)
{
    cli_case c;
    case_make(&c);
    save_npy(&c, "y.npy", c.Y);
    int64_t shape[2] = {c.coo.rows - 1, K};
    ck_assert_int_eq(pc_npy_write(DIR "/short.npy", PC_DTYPE_F8, 0, 2, shape, c.Y, NULL), 0);
    int32_t *I = pc_calloc(c.len, sizeof *I);
    shape[0] = c.coo.rows;
    ck_assert_int_eq(pc_npy_write(DIR "/i4.npy", PC_DTYPE_I4, 0, 2, shape, I, NULL), 0);
    pc_free(I);
    ck_assert_int_eq(system("head -c 1000 " DIR "/y.npy > " DIR "/trunc.npy"), 0);
    ck_assert_int_eq(system("sed 's/(300, 4)/(400, 4)/' " DIR "/y.npy > " DIR "/lie.npy"), 0);
    ck_assert_int_eq(system(": > " DIR "/empty.npy; echo hello > " DIR "/text.npy"), 0);
    save_mm(&c, "y.mtx", "\n");
    ck_assert_int_eq(system("head -n 100 " DIR "/y.mtx > " DIR "/trunc.mtx; "
                            "(cat " DIR "/y.mtx; echo 1) > " DIR "/long.mtx"), 0);
    expect("trunc.npy", "--seed 7", 2, NULL, "trunc.npy: the header's shape (300, 4) of <f8 needs 9600");
    expect("lie.npy", "--seed 7", 2, NULL, "lie.npy: ");
    expect("i4.npy", "--seed 7", 2, NULL, "i4.npy: dtype '<i4' cannot hold Y");
    expect("short.npy", "--seed 7", 2, NULL, "short.npy: the header's shape is (299, 4) but Y must have 300 rows");
    expect("y.npy", "--seed 7 --k 3", 2, NULL, "but Y must be 300 x 3 (A has 300 rows and --k is 3)");
    expect("empty.npy", "--seed 7", 2, NULL, "empty.npy: empty file");
    expect("text.npy", "--seed 7", 2, NULL, "text.npy: neither");
    expect("trunc.mtx", "--seed 7", 2, NULL, "trunc.mtx:2: ");
    expect("long.mtx", "--seed 7", 2, NULL, "long.mtx:1203: too many values");
    expect("none.npy", "--seed 7", 2, NULL, "none.npy");
    case_free(&c);
}
END_TEST

START_TEST(test_usage_errors_exit_2)
{
    static const char *bad[] = {"spmm check", "spmm check " DIR "/a.mtx --seed 1",
                                "spmm check " DIR "/a.mtx --y y.npy",
                                "spmm check " DIR "/a.mtx --y y.npy --x x.npy --seed 1",
                                "spmm check " DIR "/a.mtx --y y.npy --seed 1 --x-kind complex",
                                "spmm check " DIR "/a.mtx --y y.npy --seed 1 --k 0",
                                "spmm check " DIR "/a.mtx --y y.npy --seed -1",
                                "spmm check " DIR "/a.mtx b.mtx --y y.npy --seed 1",
                                "spmm check " DIR "/a.mtx --y y.npy --seed 1 --bogus",
                                "spmm check /nonexistent.mtx --y y.npy --seed 1",
                                "gen x --rows 3 --k 2 --seed 1 -o x.txt", "gen x --rows 3 --k 2 -o x.npy",
                                "gen x --rows 3 --k 2 --seed 1 --x complex -o x.npy",
                                "gen x --rows 3 --k 0 --seed 1 -o x.npy",
                                "gen x --rows 3 --k 2 --seed 1 -o /nonexistent/x.npy",
                                "gen x --rows 3 --k 2 --seed 1 --bogus -o x.npy"};
    ck_assert_int_eq(system("mkdir -p " DIR), 0);
    ck_assert_int_eq(run("gen matrix --rows 30 --cols 20 --nnz 100 --shape uniform --seed 5 -o " DIR
                         "/a.mtx", NULL, NULL), 0);
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        char *out, *err;
        int rc = run(bad[k], &out, &err);
        ck_assert_msg(rc == 2, "'%s': exit %d", bad[k], rc);
        ck_assert_msg(strlen(err) > 0, "'%s': no message", bad[k]);
        free(out);
        free(err);
    }
    ck_assert_int_eq(run("spmm check --help", NULL, NULL), 0);
    ck_assert_int_eq(run("gen x --help", NULL, NULL), 0);
}
END_TEST

START_TEST(test_json_to_unwritable_path_exit_2)
{
    cli_case c;
    case_make(&c);
    save_npy(&c, "y.npy", c.Y);
    expect("y.npy", "--seed 7 --json /nonexistent/r.json", 2, NULL, "/nonexistent/r.json");
    case_free(&c);
}
END_TEST

START_TEST(test_gen_x_writes_the_x_check_uses)
{
    ck_assert_int_eq(system("mkdir -p " DIR), 0);
    ck_assert_int_eq(run("gen x --rows 50 --k 3 --seed 9 -o " DIR "/x.npy", NULL, NULL), 0);
    ck_assert_int_eq(run("gen x --rows 50 --k 3 --seed 9 -o " DIR "/x.mtx", NULL, NULL), 0);
    ck_assert_int_eq(run("gen x --rows 50 --k 3 --seed 9 --x int -o " DIR "/xi.npy", NULL, NULL), 0);
    double *X, *Xi;
    ck_assert_int_eq(spmm_make_x(50, 3, 9, 0, &X, NULL), 0);
    ck_assert_int_eq(spmm_make_x(50, 3, 9, 1, &Xi, NULL), 0);
    mm_dense_want w = {50, 3, 0, "X", NULL};
    mm_dense d;
    ck_assert_int_eq(mm_dense_read_file(DIR "/x.npy", &w, &d, NULL), 0);
    ck_assert(!d.col_major && memcmp(d.data, X, 150 * sizeof *X) == 0);
    mm_dense_free(&d);
    ck_assert_int_eq(mm_dense_read_file(DIR "/xi.npy", &w, &d, NULL), 0);
    ck_assert(memcmp(d.data, Xi, 150 * sizeof *X) == 0);
    for (int k = 0; k < 150; k++)
        ck_assert(Xi[k] == floor(Xi[k]) && fabs(Xi[k]) <= 8.0);
    mm_dense_free(&d);
    ck_assert_int_eq(mm_dense_read_file(DIR "/x.mtx", &w, &d, NULL), 0);
    ck_assert(d.col_major);
    for (int j = 0; j < 50; j++)
        for (int k = 0; k < 3; k++)
            ck_assert(((double *)d.data)[j + 50 * k] == X[j * 3 + k]);
    mm_dense_free(&d);
    pc_free(X);
    pc_free(Xi);
}
END_TEST

START_TEST(test_out_y_of_parcheck_spmm_checks)
{
    ck_assert_int_eq(system("mkdir -p " DIR), 0);
    ck_assert_int_eq(run("gen matrix --rows 400 --cols 300 --nnz 4000 --shape banded --int --seed 2 "
                         "-o " DIR "/b.mtx", NULL, NULL), 0);
    ck_assert_int_eq(run("spmm " DIR "/b.mtx --impl csr-omp,ell-serial --k 5 --seed 3 --x int --reps 1 "
                         "--out-y " DIR "/b.npy", NULL, NULL), 0);
    char *out, *err;
    int rc = run("spmm check " DIR "/b.mtx --y " DIR "/b.npy --seed 3 --x-kind int --json -", &out, &err);
    ck_assert_msg(rc == 0, "exit %d\n%s%s", rc, out, err);
    ck_assert(strstr(out, "\"exact_required\":true") && strstr(out, "\"k\":5"));
    free(out);
    free(err);
    ck_assert_int_eq(run("spmm " DIR "/b.mtx --impl csr-serial --out-y /nonexistent/y.npy", NULL, NULL), 1);
}
END_TEST

START_TEST(test_cli_allocation_failures)
{
    cli_case c;
    case_make(&c);
    save_npy(&c, "y.npy", c.Y);
    int clean = 0;
    for (int n = 1; n < 200; n++) {
        char cmd[512], *out, *err;
        snprintf(cmd, sizeof cmd, "PARCHECK_FAIL_ALLOC=%d %s spmm check " DIR "/a.mtx --y " DIR
                 "/y.npy --seed 7", n, pc_test_bin());
        int rc = pc_test_shell(cmd, &out, &err);
        ck_assert_msg(rc >= 0 && rc <= 2, "allocation %d: exit %d (crash?)\n%s", n, rc, err);
        if (rc != 0)
            ck_assert_msg(strlen(err) > 0, "allocation %d: exit %d without a message", n, rc);
        free(out);
        free(err);
        if (rc == 0 && ++clean >= 3)
            break;
    }
    ck_assert_int_ge(clean, 1);
    case_free(&c);
}
END_TEST

static Suite *suite_cli_spmm_check(void)
{
    Suite *s = suite_create("cli_spmm_check");
    TCase *tc = pc_tcase("cli");
    tcase_add_test(tc, test_correct_y_passes_in_every_format);
    tcase_add_test(tc, test_float_y_judged_in_single_precision);
    tcase_add_test(tc, test_json_contract);
    tcase_add_test(tc, test_x_file_and_regenerated_x_agree);
    tcase_add_test(tc, test_planted_mistakes_exit_1_located);
    tcase_add_test(tc, test_bad_files_exit_2_with_location);
    tcase_add_test(tc, test_usage_errors_exit_2);
    tcase_add_test(tc, test_json_to_unwritable_path_exit_2);
    tcase_add_test(tc, test_gen_x_writes_the_x_check_uses);
    tcase_add_test(tc, test_out_y_of_parcheck_spmm_checks);
    tcase_add_test(tc, test_cli_allocation_failures);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return pc_test_run(suite_cli_spmm_check()); }
