/* Every SpMM implementation of the table (host and CUDA) against the oracle:
 * seeded random matrices with irregular rows, the shared real matrices, and
 * hand-made edge cases. An implementation that cannot run here is SKIPPED. */
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pc_alloc.h"
#include "pc_test.h"
#include "spmm.h"
#include "spmm/spmm_oracle.h"
#include "spmm_cases.h"

#define RANDOM_CASES 240

/* When set, run_case puts inf, -inf and NaN into X (plant_nonfinite). */
static int nonfinite_x;

/* Non-finite X entries where they matter most: column 0 (the column that
 * ELLPACK padding of an empty row names) and every 5th column (each some
 * row's last column, which its padding repeats): +inf, -inf in the next
 * column of X, NaN in one of every 3 such rows. A kernel that multiplies
 * padding (0 * inf = NaN) turns the reference's inf, or an empty row's 0,
 * into NaN. */
static void plant_nonfinite(double *X, int32_t cols, int K)
{
    for (int32_t j = 0; j < cols; j += 5) {
        X[(size_t)j * K] = j % 3 == 2 ? NAN : INFINITY;
        if (K > 1)
            X[(size_t)j * K + 1] = -INFINITY;
    }
}

/* Runs impl on coo with K columns; returns 1 when it ran and matched the
 * oracle, 0 when the format does not apply (ELLPACK size limit), and fails
 * the test otherwise. */
static int run_case(const spmm_impl *impl, const mm_coo *coo, int K, int ints_x, uint64_t seed,
                    const char *what)
{
    long live = pc_alloc_live(); /* what a case takes it gives back, release included */
    pc_error err;
    pc_error_clear(&err);
    double *X = NULL;
    ck_assert_int_eq(spmm_make_x(coo->cols, K, seed, ints_x, &X, &err), 0);
    if (nonfinite_x)
        plant_nonfinite(X, coo->cols, K);
    spmm_oracle orc;
    ck_assert_int_eq(spmm_oracle_compute(coo, X, K, &orc, &err), 0);
    spmm_matrix A;
    spmm_matrix_init(&A, coo);
    int rc = spmm_matrix_need(&A, impl->format, 2, &err);
    if (rc == PC_ERANGE) {
        spmm_matrix_free(&A);
        spmm_oracle_free(&orc);
        pc_free(X);
        return 0;
    }
    ck_assert_msg(rc == 0, "%s: %s: format: %s", impl->name, what, err.msg);
    void *state = NULL;
    if (impl->prepare)
        ck_assert_msg(impl->prepare(impl, &A, K, &state, &err) == 0, "%s: %s: prepare: %s",
                      impl->name, what, err.msg);
    size_t len = (size_t)coo->rows * K;
    double *Y = pc_malloc_array(len ? len : 1, sizeof *Y);
    spmm_oracle_poison(Y, (int64_t)len);
    spmm_timing t = {-1, -1, -1, -1, -1};
    ck_assert_msg(impl->run(impl, state, &A, X, K, Y, 2, &t, &err) == 0, "%s: %s: run: %s",
                  impl->name, what, err.msg);
    spmm_verdict v;
    spmm_oracle_check(&orc, Y, &v);
    ck_assert_msg(v.pass, "%s: %s (%dx%d nnz %lld K %d%s): %s", impl->name, what, coo->rows,
                  coo->cols, (long long)coo->nnz, K, orc.exact ? ", exact" : "", v.why);
    ck_assert_int_eq(v.checked, (int64_t)len);
    if (impl->release)
        impl->release(state);
    pc_free(Y);
    spmm_matrix_free(&A);
    spmm_oracle_free(&orc);
    pc_free(X);
    ck_assert_msg(pc_alloc_live() == live, "%s: %s: %ld allocations not given back", impl->name, what,
                  pc_alloc_live() - live);
    return 1;
}

static const spmm_impl *impl_or_skip(int i, char *why, size_t n)
{
    const spmm_impl *impl = spmm_impl_at(i);
    char reason[200];
    if (spmm_impl_available(impl, reason, sizeof reason))
        return impl;
    snprintf(why, n, "%s: %s", impl->name, reason);
    return NULL;
}

START_TEST(test_random_matrices_match_oracle)
{
    char why[256];
    const spmm_impl *impl = impl_or_skip(_i, why, sizeof why);
    if (!impl)
        PC_SKIP(why);
    int ran = 0;
    for (uint64_t c = 0; c < RANDOM_CASES; c++) {
        int ints = c % 2 == 0; /* integer cases demand bit-identical results */
        mm_coo coo;
        ck_assert_int_eq(spmm_case_random(c, ints, &coo), 0);
        char what[64];
        snprintf(what, sizeof what, "random case %llu", (unsigned long long)c);
        ran += run_case(impl, &coo, spmm_case_k(c), ints, 1000 + c, what);
        mm_coo_free(&coo);
    }
    ck_assert_msg(ran >= RANDOM_CASES / 2, "%s ran only %d of %d cases", impl->name, ran, RANDOM_CASES);
}
END_TEST

START_TEST(test_edge_shapes_match_oracle)
{
    char why[256];
    const spmm_impl *impl = impl_or_skip(_i, why, sizeof why);
    if (!impl)
        PC_SKIP(why);
    static const int ks[] = {1, 3, 4, 17, 64};
    mm_coo coo;
    /* nnz = 0 in a 5x4 matrix: Y must still be written (zeros). */
    ck_assert_int_eq(spmm_case_from(5, 4, 0, NULL, NULL, NULL, &coo), 0);
    for (int k = 0; k < 5; k++)
        ck_assert(run_case(impl, &coo, ks[k], 1, 1, "nnz = 0"));
    mm_coo_free(&coo);
    /* M = 1, one long row; N = 1 column vector; 0 rows. */
    {
        enum { N = 3000 };
        int32_t *ri = calloc(N, sizeof *ri), *ci = malloc(N * sizeof *ci);
        double *v = malloc(N * sizeof *v);
        for (int e = 0; e < N; e++) {
            ci[e] = e;
            v[e] = (e % 7) - 3;
        }
        ck_assert_int_eq(spmm_case_from(1, N, N, ri, ci, v, &coo), 0);
        for (int k = 0; k < 5; k++)
            ck_assert(run_case(impl, &coo, ks[k], 1, 2, "M = 1, one row of 3000"));
        mm_coo_free(&coo);
        for (int e = 0; e < N; e++) {
            ri[e] = e;
            ci[e] = 0;
        }
        ck_assert_int_eq(spmm_case_from(N, 1, N, ri, ci, v, &coo), 0);
        for (int k = 0; k < 5; k++)
            ck_assert(run_case(impl, &coo, ks[k], 0, 3, "N = 1"));
        mm_coo_free(&coo);
        free(ri);
        free(ci);
        free(v);
    }
    ck_assert_int_eq(spmm_case_from(0, 7, 0, NULL, NULL, NULL, &coo), 0);
    ck_assert(run_case(impl, &coo, 4, 0, 4, "0 rows"));
    mm_coo_free(&coo);
}
END_TEST

START_TEST(test_shared_matrices_match_oracle)
{
    char why[256];
    const spmm_impl *impl = impl_or_skip(_i, why, sizeof why);
    if (!impl)
        PC_SKIP(why);
    const char *data = pc_test_data_dir();
    if (!data)
        PC_SKIP("no shared data directory (../shared/data or PARCHECK_DATA)");
    char dir[4200];
    snprintf(dir, sizeof dir, "%s/matrices", data);
    DIR *d = opendir(dir);
    ck_assert_ptr_nonnull(d);
    struct dirent *de;
    int files = 0;
    while ((de = readdir(d)) != NULL) {
        size_t l = strlen(de->d_name);
        if (l < 5 || strcmp(de->d_name + l - 4, ".mtx") != 0)
            continue;
        char path[8400];
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        mm_coo coo;
        pc_error err;
        ck_assert_msg(mm_read_file(path, &coo, &err) == 0, "%s", err.msg);
        int ints = coo.field != MM_FIELD_REAL;
        run_case(impl, &coo, 16, ints, 7, de->d_name);
        run_case(impl, &coo, 1, ints, 8, de->d_name);
        mm_coo_free(&coo);
        files++;
    }
    closedir(d);
    ck_assert_int_ge(files, 40);
}
END_TEST

/* X with inf and NaN: the reference's non-finite entries must be
 * reproduced exactly, and the finite ones (rows that never read those
 * columns, empty rows) stay finite: padding must not count as an entry. */
START_TEST(test_nonfinite_x_match_oracle)
{
    char why[256];
    const spmm_impl *impl = impl_or_skip(_i, why, sizeof why);
    if (!impl)
        PC_SKIP(why);
    /* The vendor library promises nothing for inf/NaN in X: on the H100,
     * cusparseSpMM gave a non-finite entry where the exact product is
     * finite. parcheck reports that as a failed row; this test is about
     * the kernels parcheck owns. */
    if (!strcmp(impl->name, "cusparse"))
        PC_SKIP("cusparse: no IEEE promise for inf/NaN in X (non-finite where the exact entry is finite on the H100)");
    nonfinite_x = 1;
    int ran = 0;
    for (uint64_t c = 0; c < 40; c++) {
        mm_coo coo;
        ck_assert_int_eq(spmm_case_random(c, c % 2 == 0, &coo), 0);
        char what[64];
        snprintf(what, sizeof what, "random case %llu, inf/NaN in X", (unsigned long long)c);
        ran += run_case(impl, &coo, spmm_case_k(c), c % 2 == 0, 2000 + c, what);
        mm_coo_free(&coo);
    }
    nonfinite_x = 0;
    ck_assert_msg(ran >= 20, "%s ran only %d of 40 cases", impl->name, ran);
}
END_TEST

/* A build that links librsb offers it: reported unavailable, the external
 * reference's rows would vanish from every comparison without an error. A
 * build without it says why, naming librsb. */
START_TEST(test_librsb_offered_when_linked)
{
    const spmm_impl *impl = spmm_impl_find("librsb");
    ck_assert_ptr_nonnull(impl);
    char why[256] = "";
    int avail = spmm_impl_available(impl, why, sizeof why);
    /* a matrix that librsb refuses (a negative row count) is refused with
     * librsb's own reason after ours, nothing prepared; without librsb,
     * with the build's why */
    int32_t irp[2] = {0, 0};
    spmm_matrix A;
    memset(&A, 0, sizeof A);
    A.have = SPMM_FMT_CSR;
    A.csr.m = -1;
    A.csr.n = 1;
    A.csr.irp = irp;
    void *state = NULL;
    pc_error err;
    pc_error_clear(&err);
    int rc = impl->prepare(impl, &A, 1, &state, &err);
    ck_assert_ptr_null(state);
#if PC_HAVE_LIBRSB
    ck_assert_msg(avail, "librsb is linked in but reported unavailable: %s", why);
    /* librsb has called it corrupt input or out of memory (seen both) */
    ck_assert_msg(rc == PC_EUNAVAIL || rc == PC_ENOMEM, "rc %d: %s", rc, err.msg);
    const char *head = "librsb: cannot assemble this matrix: ";
    ck_assert_msg(strncmp(err.msg, head, strlen(head)) == 0 && strlen(err.msg) > strlen(head),
                  "no librsb reason: '%s'", err.msg);
#else
    ck_assert(!avail);
    ck_assert_msg(strstr(why, "librsb") != NULL, "reason without librsb: %s", why);
    ck_assert_int_eq(rc, PC_EUNAVAIL);
    ck_assert_str_eq(err.msg, why);
#endif
}
END_TEST

/* spmm_make_x's contract: uniform in [-1, 1) (negative entries exercise
 * cancellation in every kernel), or integers in [-8, 8]. */
START_TEST(test_make_x_ranges)
{
    enum { N = 1000, K = 4 };
    for (int ints = 0; ints < 2; ints++) {
        double *X = NULL, lo = INFINITY, hi = -INFINITY;
        pc_error err;
        ck_assert_int_eq(spmm_make_x(N, K, 3, ints, &X, &err), 0);
        for (int i = 0; i < N * K; i++) {
            ck_assert_msg(ints ? X[i] >= -8.0 && X[i] <= 8.0 && X[i] == floor(X[i]) : X[i] >= -1.0 && X[i] < 1.0,
                          "X[%d] = %g", i, X[i]);
            lo = fmin(lo, X[i]);
            hi = fmax(hi, X[i]);
        }
        if (ints)
            ck_assert(lo == -8.0 && hi == 8.0);
        else
            ck_assert_msg(lo < -0.99 && hi > 0.99, "range [%g, %g]", lo, hi);
        pc_free(X);
    }
}
END_TEST

/* spmm_impl_select (the CUDA bench's --impl) knows every name of the
 * table: the first and the last picked by name, all by "all", an unknown
 * name refused with the valid ones listed. */
START_TEST(test_impl_select_names)
{
    int n = spmm_impl_count();
    int sel[256], ex[256];
    ck_assert_int_le(n, 256);
    /* indices outside the table have no entry */
    ck_assert_ptr_null(spmm_impl_at(-1));
    ck_assert_ptr_null(spmm_impl_at(n));
    const char *first = spmm_impl_at(0)->name, *last = spmm_impl_at(n - 1)->name;
    char list[256];
    snprintf(list, sizeof list, "%s,%s", last, first);
    pc_error err;
    ck_assert_msg(spmm_impl_select(list, sel, ex, &err) == 0, "%s", err.msg);
    for (int k = 0; k < n; k++) {
        int want = k == 0 || k == n - 1;
        ck_assert_msg(sel[k] == want && ex[k] == want, "%s: sel %d explicit %d", spmm_impl_at(k)->name, sel[k],
                      ex[k]);
    }
    ck_assert_int_eq(spmm_impl_select("all", sel, ex, &err), 0);
    for (int k = 0; k < n; k++)
        ck_assert(sel[k] == 1 && ex[k] == 0);
    ck_assert_int_eq(spmm_impl_select("nosuch", sel, ex, &err), PC_EINVAL);
    ck_assert_msg(strstr(err.msg, "nosuch") && strstr(err.msg, last), "%s", err.msg);
}
END_TEST

/* The table: every row found by its own name, described, reading the
 * format its name says, repeatable unless a vendor's; a matrix holding all three formats frees them all. */
START_TEST(test_impl_table_and_formats)
{
    for (int i = 0; i < spmm_impl_count(); i++) {
        const spmm_impl *im = spmm_impl_at(i);
        ck_assert_ptr_eq(spmm_impl_find(im->name), im);
        ck_assert_msg(im->desc && im->desc[0], "%s: no description", im->name);
        int want = !strncmp(im->name, "ellnp-", 6) ? SPMM_FMT_ELLNP
                   : !strncmp(im->name, "ell-", 4) ? SPMM_FMT_ELL : SPMM_FMT_CSR;
        ck_assert_msg(im->format == want, "%s: format %d, its name says %d", im->name, im->format,
                      want);
        /* only the vendor libraries are let off the bit-for-bit comparison
         * of repeated runs: a kernel of parcheck's own that varies between
         * runs is a race that comparison must report */
        int vendor = !strcmp(im->name, "librsb") || !strcmp(im->name, "cusparse");
        ck_assert_msg(im->varies == vendor, "%s: varies %d", im->name, im->varies);
    }
    ck_assert_ptr_null(spmm_impl_find("nosuch"));
    static const int32_t ri[] = {0, 0, 2}, ci[] = {0, 2, 1};
    static const double v[] = {1, 2, 3};
    mm_coo coo;
    ck_assert_int_eq(spmm_case_from(3, 3, 3, ri, ci, v, &coo), 0);
    long live = pc_alloc_live();
    spmm_matrix A;
    pc_error err;
    spmm_matrix_init(&A, &coo);
    ck_assert_int_eq(spmm_matrix_need(&A, SPMM_FMT_CSR | SPMM_FMT_ELL | SPMM_FMT_ELLNP, 1, &err), 0);
    ck_assert_int_gt(pc_alloc_live(), live);
    spmm_matrix_free(&A);
    ck_assert_int_eq(pc_alloc_live(), live);
    mm_coo_free(&coo);
}
END_TEST

static Suite *suite_spmm_kernels(void)
{
    Suite *s = suite_create("spmm_kernels");
    TCase *tc = pc_tcase("vs_oracle");
    int n = spmm_impl_count();
    tcase_add_loop_test(tc, test_random_matrices_match_oracle, 0, n);
    tcase_add_loop_test(tc, test_edge_shapes_match_oracle, 0, n);
    tcase_add_loop_test(tc, test_shared_matrices_match_oracle, 0, n);
    tcase_add_loop_test(tc, test_nonfinite_x_match_oracle, 0, n);
    tcase_add_test(tc, test_librsb_offered_when_linked);
    tcase_add_test(tc, test_make_x_ranges);
    tcase_add_test(tc, test_impl_select_names);
    tcase_add_test(tc, test_impl_table_and_formats);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return pc_test_run(suite_spmm_kernels()); }
