/* csr-cpu-fast beyond what the table-wide suite reaches: the column-block
 * layout (forced with tiny X budgets, which real runs only pick for large
 * X), the portable kernel beside the AVX2 one, 1 and 3 threads, and
 * allocation failures while the blocks are built. */
#include <stdlib.h>

#include "pc_alloc.h"
#include "pc_test.h"
#include "spmm.h"
#include "spmm/spmm_oracle.h"
#include "spmm_cases.h"
#include "spmm_fast.h"

#define CASES 120

/* A, X and the oracle for one case; each test below is a few lines. */
typedef struct fast_fixture {
    mm_coo coo;
    spmm_csr csr;
    double *X, *Y;
    int K;
    spmm_oracle orc;
} fast_fixture;

static void fixture_open(fast_fixture *f, const mm_coo *coo, int K, int ints, uint64_t seed)
{
    pc_error err;
    f->coo = *coo;
    f->K = K;
    ck_assert_int_eq(spmm_csr_from_coo(coo, &f->csr, 1, &err), 0);
    ck_assert_int_eq(spmm_make_x(coo->cols, K, seed, ints, &f->X, &err), 0);
    ck_assert_int_eq(spmm_oracle_compute(coo, f->X, K, &f->orc, &err), 0);
    size_t len = (size_t)coo->rows * K;
    f->Y = pc_malloc_array(len ? len : 1, sizeof *f->Y);
    ck_assert_ptr_nonnull(f->Y);
}

static void fixture_close(fast_fixture *f)
{
    spmm_oracle_free(&f->orc);
    spmm_csr_free(&f->csr);
    pc_free(f->X);
    pc_free(f->Y);
}

/* Builds with x_budget, runs on `threads` (portable kernel or not) into a
 * poisoned Y and fails the test unless the oracle passes it. Returns the
 * number of column blocks used. */
static int fixture_check(fast_fixture *f, long long x_budget, int portable, int threads,
                         const char *what)
{
    pc_error err;
    spmm_fast F;
    ck_assert_int_eq(spmm_fast_build(&f->csr, f->K, x_budget, &F, &err), 0);
    F.portable = portable;
    spmm_oracle_poison(f->Y, (int64_t)f->coo.rows * f->K);
    spmm_fast_run(&F, f->X, f->K, f->Y, threads);
    spmm_verdict v;
    spmm_oracle_check(&f->orc, f->Y, &v);
    ck_assert_msg(v.pass, "%s (%dx%d nnz %lld K %d, %d blocks, %s, %d threads%s): %s", what,
                  f->coo.rows, f->coo.cols, (long long)f->coo.nnz, f->K, F.nblocks,
                  portable ? "portable" : spmm_fast_isa(), threads,
                  f->orc.exact ? ", exact" : "", v.why);
    int nb = F.nblocks;
    spmm_fast_free(&F);
    return nb;
}

START_TEST(test_column_blocks_match_oracle)
{
    int blocked = 0;
    for (uint64_t c = 0; c < CASES; c++) {
        mm_coo coo;
        int ints = c % 2 == 0;
        ck_assert_int_eq(spmm_case_random(c, ints, &coo), 0);
        fast_fixture f;
        fixture_open(&f, &coo, spmm_case_k(c), ints, 500 + c);
        /* X slices of 1 column, of 64 bytes and of 4 KiB: many blocks,
         * blocks ending inside rows, blocks with no entries */
        long long budgets[] = {-1, -64, -4096, 0};
        for (int b = 0; b < 4; b++)
            blocked += fixture_check(&f, budgets[b], (int)(c % 3 == 0), 1 + (int)(c % 3),
                                     "random case") > 1;
        fixture_close(&f);
        mm_coo_free(&coo);
    }
    ck_assert_int_ge(blocked, CASES); /* the blocked path really ran */
}
END_TEST

/* rows x n with `per` entries a row spread over all n columns (scattered:
 * each row spans all of X). */
static void scattered_case(int32_t rows, int32_t n, int64_t per, mm_coo *coo)
{
    int64_t nnz = (int64_t)rows * per;
    int32_t *ri = malloc((size_t)nnz * sizeof *ri), *ci = malloc((size_t)nnz * sizeof *ci);
    double *v = malloc((size_t)nnz * sizeof *v);
    ck_assert(ri && ci && v);
    for (int64_t e = 0; e < nnz; e++) {
        ri[e] = (int32_t)(e / per);
        ci[e] = (int32_t)((e % per) * (int64_t)(n - 1) / (per - 1));
        v[e] = (double)(e % 7) - 3.0;
    }
    ck_assert_int_eq(spmm_case_from(rows, n, nnz, ri, ci, v, coo), 0);
    free(ri);
    free(ci);
    free(v);
}

/* Blocks of a scattered rows x n case with `per` entries a row, K
 * columns, X budget 1/4 of X. */
static int model_blocks(int32_t rows, int32_t n, int per, int K)
{
    mm_coo coo;
    scattered_case(rows, n, per, &coo);
    fast_fixture f;
    fixture_open(&f, &coo, K, 1, 11);
    int nb = fixture_check(&f, 8LL * K * n / 4, 0, 2, "cost model");
    fixture_close(&f);
    mm_coo_free(&coo);
    return nb;
}

/* Whether the plan for coo at K = 1 prefetches X; frees coo. */
static int prefetch_of(mm_coo *coo)
{
    spmm_csr csr;
    spmm_fast F;
    pc_error err;
    ck_assert_int_eq(spmm_csr_from_coo(coo, &csr, 1, &err), 0);
    ck_assert_int_eq(spmm_fast_build(&csr, 1, 0, &F, &err), 0);
    int pf = F.prefetch;
    spmm_fast_free(&F);
    /* freed means zeroed: a second free is safe */
    static const spmm_fast zero;
    ck_assert_int_eq(memcmp(&F, &zero, sizeof F), 0);
    spmm_fast_free(&F);
    spmm_csr_free(&csr);
    mm_coo_free(coo);
    return pf;
}

/* The cost model of spmm_fast_build (docs/README-spmm-cpu.md) with X four
 * times the budget: blocks when the X misses saved (a share 3/4 of the
 * entries, one 64-byte line each) outweigh the extra passes over Y (16 K
 * + 4 bytes a row a pass) plus X once; one block when they do not. */
/* Prefetching is chosen by the median column span of the rows: spans
 * 60000, 10 and 40000 columns (K = 1: 8 bytes a column) have the median
 * 40000, past the 32768 columns of FAST_SPAN_LOCAL; spans 60000, 10 and
 * 20 have the median 20. */
static int prefetch_for(int32_t span0, int32_t span1, int32_t span2)
{
    static const int32_t ri[] = {0, 0, 1, 1, 2, 2};
    int32_t ci[] = {0, span0 - 1, 0, span1 - 1, 0, span2 - 1};
    static const double v[] = {1, 2, 3, 4, 5, 6};
    mm_coo coo;
    ck_assert_int_eq(spmm_case_from(3, 60000, 6, ri, ci, v, &coo), 0);
    return prefetch_of(&coo);
}

/* x_budget 0 means LLC/16 at K < 4 and LLC/8 at K >= 4 of
 * spmm_fast_llc_bytes (the mutant that drops the slice is killed here;
 * the cache probe itself is the library's): with X four times
 * that slice and entries enough that blocking pays, the default plans the
 * 4 blocks an explicit budget of that slice plans. */
START_TEST(test_default_budget_is_a_slice_of_the_llc)
{
    static const int ks[] = {1, 4};
    for (int i = 0; i < 2; i++) {
        int K = ks[i];
        long long budget = spmm_fast_llc_bytes() / (K < 4 ? 16 : 8);
        int32_t rows = 64, n = (int32_t)(4 * budget / (8LL * K));
        int64_t per = budget / 6 / rows + 2; /* X misses ~2x the extra passes */
        mm_coo coo;
        scattered_case(rows, n, per, &coo);
        spmm_csr csr;
        pc_error err;
        ck_assert_int_eq(spmm_csr_from_coo(&coo, &csr, 1, &err), 0);
        spmm_fast F, G;
        ck_assert_int_eq(spmm_fast_build(&csr, K, 0, &F, &err), 0);
        ck_assert_int_eq(spmm_fast_build(&csr, K, budget, &G, &err), 0);
        ck_assert_int_eq(G.nblocks, 4);
        ck_assert_msg(F.nblocks == G.nblocks, "K %d: default budget planned %d blocks, LLC slice %lld B %d", K,
                      F.nblocks, budget, G.nblocks);
        spmm_fast_free(&F);
        spmm_fast_free(&G);
        spmm_csr_free(&csr);
        mm_coo_free(&coo);
    }
}
END_TEST

START_TEST(test_prefetch_follows_the_median_span)
{
    ck_assert_int_eq(prefetch_for(60000, 10, 40000), 1);
    ck_assert_int_eq(prefetch_for(60000, 10, 20), 0);
    ck_assert_int_eq(prefetch_for(10, 40000, 60000), 1);
}
END_TEST

/* The median is taken over rows sampled across the whole matrix (every
 * m/4096-th row), not its first rows: 8192 rows where row 0 alone has the
 * other span. */
static int prefetch_of_rows(int32_t span_first, int32_t span_rest)
{
    enum { M = 8192, N = 60000 };
    int32_t *ri = malloc(sizeof(int32_t) * 2 * M), *ci = malloc(sizeof(int32_t) * 2 * M);
    double *v = malloc(sizeof(double) * 2 * M);
    for (int32_t i = 0; i < M; i++) {
        ri[2 * i] = ri[2 * i + 1] = i;
        ci[2 * i] = 0;
        ci[2 * i + 1] = (i == 0 ? span_first : span_rest) - 1;
        v[2 * i] = v[2 * i + 1] = 1.0;
    }
    mm_coo coo;
    ck_assert_int_eq(spmm_case_from(M, N, 2 * M, ri, ci, v, &coo), 0);
    free(ri);
    free(ci);
    free(v);
    return prefetch_of(&coo);
}

START_TEST(test_median_samples_the_whole_matrix)
{
    ck_assert_int_eq(prefetch_of_rows(2, 60000), 1);
    ck_assert_int_eq(prefetch_of_rows(60000, 2), 0);
}
END_TEST

/* An explicit width (negative budget) of one column over 70000 columns
 * asks for 70000 blocks: the plan stops at 65536 (two columns a block),
 * and the result still passes the oracle. */
START_TEST(test_block_count_is_capped)
{
    mm_coo coo;
    scattered_case(2, 70000, 5, &coo);
    fast_fixture f;
    fixture_open(&f, &coo, 1, 1, 3);
    ck_assert_int_eq(fixture_check(&f, -8, 1, 1, "width of one column"), 65536);
    /* a budget below one column's 8 K bytes still means one column a block */
    ck_assert_int_eq(fixture_check(&f, -1, 1, 1, "a budget of one byte"), 65536);
    /* one block is the CSR itself, nothing copied (spmm_fast.h) */
    spmm_fast F;
    pc_error err;
    ck_assert_int_eq(spmm_fast_build(&f.csr, 1, -8LL * 70000, &F, &err), 0);
    ck_assert_int_eq(F.nblocks, 1);
    ck_assert(F.pool_irp == NULL && F.blk[0].ja == f.csr.ja && F.blk[0].as == f.csr.as);
    spmm_fast_free(&F);
    fixture_close(&f);
    mm_coo_free(&coo);
}
END_TEST

START_TEST(test_cost_model_blocks_only_when_it_pays)
{
    /* 1,000 rows of 100, K = 8 (a whole 64-byte line an entry, 8 K =
     * 64): misses 4,800,000 B, passes 4,812,000 B, within 0.25%: one
     * block (a line of 8.1 K bytes would tip it to 4) */
    ck_assert_int_eq(model_blocks(1000, 69000, 100, 8), 1);
    /* 64 rows of 200 entries, K = 1: misses 614,400 B, passes 323,840 B */
    ck_assert_int_eq(model_blocks(64, 40000, 200, 1), 4);
    /* 64 rows of 2 entries: misses 6,144 B, below X itself */
    ck_assert_int_eq(model_blocks(64, 40000, 2, 1), 1);
    /* 10,000 rows of 2, K = 8: misses 960,000 B, passes 4,280,000 B */
    ck_assert_int_eq(model_blocks(10000, 5000, 2, 8), 1);
    /* 10,000 rows of 3, K = 1: misses 1,440,000 B, passes 920,000 B (at
     * 16 K + 4 = 20 B a row a pass; at 64 B they would be 2,240,000 B) */
    ck_assert_int_eq(model_blocks(10000, 40000, 3, 1), 4);
}
END_TEST

START_TEST(test_portable_and_avx2_agree_with_oracle)
{
    /* one dense row among empty ones, K across every register width */
    enum { N = 2000 };
    int32_t *ri = calloc(N, sizeof *ri), *ci = malloc(N * sizeof *ci);
    double *v = malloc(N * sizeof *v);
    ck_assert(ri && ci && v);
    for (int e = 0; e < N; e++) {
        ri[e] = 7;
        ci[e] = e;
        v[e] = (e % 5) - 2;
    }
    mm_coo coo;
    ck_assert_int_eq(spmm_case_from(40, N, N, ri, ci, v, &coo), 0);
    static const int ks[] = {1, 2, 3, 4, 5, 8, 12, 16, 20, 31, 32, 33, 64, 65};
    for (int k = 0; k < (int)(sizeof ks / sizeof ks[0]); k++) {
        fast_fixture f;
        fixture_open(&f, &coo, ks[k], 1, 9);
        for (int portable = 0; portable < 2; portable++) {
            fixture_check(&f, 0, portable, 2, "dense row");
            fixture_check(&f, -256, portable, 2, "dense row, blocks");
        }
        fixture_close(&f);
    }
    mm_coo_free(&coo);
    free(ri);
    free(ci);
    free(v);
}
END_TEST

START_TEST(test_threads_share_rows_and_blocks)
{
    /* large enough for the parallel region; power-law rows, one of 20000 */
    static const int shapes[] = {SPMM_SHAPE_POWERLAW, SPMM_SHAPE_DENSEROWS, SPMM_SHAPE_BANDED};
    for (int s = 0; s < 3; s++) {
        /* the banded matrix is square, its row count no multiple of the
         * chunks' row alignment (16), its last rows not empty: the last
         * chunk must still reach the last row */
        spmm_gen_params p = {.rows = s == 2 ? 30011 : 30000, .cols = s == 2 ? 30011 : 25000,
                             .nnz = 300000, .shape = shapes[s],
                             .seed = 5, .int_values = s == 1, .max_row = 20000};
        mm_coo coo;
        pc_error err;
        ck_assert_int_eq(spmm_gen_coo(&p, &coo, &err), 0);
        fast_fixture f;
        fixture_open(&f, &coo, s == 2 ? 1 : 7, s == 1, 11);
        for (int t = -1; t <= 3; t++) { /* a count below 1 runs as one thread */
            fixture_check(&f, 0, 0, t, "generated");
            ck_assert_int_gt(fixture_check(&f, -8192, t == 2, t, "generated, blocks"), 1);
        }
        fixture_close(&f);
        mm_coo_free(&coo);
    }
}
END_TEST

/* Context of the allocation-failure loop: build with blocks, free. */
typedef struct build_ctx {
    spmm_csr *csr;
    spmm_fast F;
} build_ctx;

static int build_op(void *p)
{
    build_ctx *c = p;
    pc_error err;
    return spmm_fast_build(c->csr, 4, -512, &c->F, &err);
}

static void build_cleanup(void *p) { spmm_fast_free(&((build_ctx *)p)->F); }

/* The generator under the allocation-failure loop: every failure is
 * reported, with nothing left allocated. */
static int gen_op(void *p)
{
    spmm_gen_params g = {.rows = 300, .cols = 200, .nnz = 3000, .shape = SPMM_SHAPE_POWERLAW,
                         .seed = 9, .max_row = 150};
    return spmm_gen_coo(&g, (mm_coo *)p, NULL);
}

static void gen_cleanup(void *p) { mm_coo_free((mm_coo *)p); }

START_TEST(test_generator_survives_allocation_failures)
{
    mm_coo coo;
    memset(&coo, 0, sizeof coo);
    ck_assert_int_ge(pc_test_alloc_loop(gen_op, gen_cleanup, &coo, 100), 2);
}
END_TEST

START_TEST(test_build_survives_allocation_failures)
{
    mm_coo coo;
    ck_assert_int_eq(spmm_case_random(3, 0, &coo), 0);
    fast_fixture f;
    fixture_open(&f, &coo, 4, 0, 1);
    build_ctx c = {.csr = &f.csr};
    ck_assert_int_ge(pc_test_alloc_loop(build_op, build_cleanup, &c, 100), 4);
    fixture_close(&f);
    mm_coo_free(&coo);
}
END_TEST

START_TEST(test_bad_k_is_refused)
{
    mm_coo coo;
    ck_assert_int_eq(spmm_case_random(1, 0, &coo), 0);
    spmm_csr csr;
    pc_error err;
    ck_assert_int_eq(spmm_csr_from_coo(&coo, &csr, 1, &err), 0);
    spmm_fast F;
    ck_assert_int_eq(spmm_fast_build(&csr, 0, 0, &F, &err), PC_EINVAL);
    spmm_csr_free(&csr);
    mm_coo_free(&coo);
}
END_TEST

static Suite *suite_spmm_fast(void)
{
    Suite *s = suite_create("spmm_fast");
    TCase *tc = pc_tcase("csr_cpu_fast");
    tcase_add_test(tc, test_column_blocks_match_oracle);
    tcase_add_test(tc, test_cost_model_blocks_only_when_it_pays);
    tcase_add_test(tc, test_prefetch_follows_the_median_span);
    tcase_add_test(tc, test_median_samples_the_whole_matrix);
    tcase_add_test(tc, test_block_count_is_capped);
    tcase_add_test(tc, test_default_budget_is_a_slice_of_the_llc);
    tcase_add_test(tc, test_portable_and_avx2_agree_with_oracle);
    tcase_add_test(tc, test_threads_share_rows_and_blocks);
    tcase_add_test(tc, test_build_survives_allocation_failures);
    tcase_add_test(tc, test_generator_survives_allocation_failures);
    tcase_add_test(tc, test_bad_k_is_refused);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return pc_test_run(suite_spmm_fast()); }
