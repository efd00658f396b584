/* COO <-> CSR <-> ELLPACK (padded and unpadded): exact round trips on
 * random matrices with empty rows, one dense row and rectangular shapes;
 * structural invariants; the ELLPACK size limit; allocation failures. */
#include <stdio.h>
#include <string.h>

#include "pc_alloc.h"
#include "pc_test.h"
#include "spmm.h"
#include "spmm_cases.h"

static void assert_same_coo(const mm_coo *a, const mm_coo *b, const char *what)
{
    ck_assert_msg(a->rows == b->rows && a->cols == b->cols && a->nnz == b->nnz,
                  "%s: shape %dx%d/%lld vs %dx%d/%lld", what, a->rows, a->cols, (long long)a->nnz,
                  b->rows, b->cols, (long long)b->nnz);
    for (int64_t e = 0; e < a->nnz; e++) {
        ck_assert_msg(a->row[e] == b->row[e] && a->col[e] == b->col[e], "%s: entry %lld position",
                      what, (long long)e);
        ck_assert_msg(memcmp(&a->val[e], &b->val[e], sizeof(double)) == 0, "%s: entry %lld value",
                      what, (long long)e);
    }
}

START_TEST(test_round_trips)
{
    for (uint64_t c = 0; c < 300; c++) {
        mm_coo coo, back;
        pc_error err;
        ck_assert_int_eq(spmm_case_random(c, c % 2, &coo), 0);
        int threads = 1 + (int)(c % 2);

        spmm_csr csr;
        ck_assert_int_eq(spmm_csr_from_coo(&coo, &csr, threads, &err), 0);
        ck_assert_int_eq(csr.irp[0], 0);
        ck_assert_int_eq(csr.irp[csr.m], csr.nnz);
        for (int32_t i = 0; i < csr.m; i++) {
            ck_assert_int_le(csr.irp[i], csr.irp[i + 1]);
            for (int32_t p = csr.irp[i] + 1; p < csr.irp[i + 1]; p++)
                ck_assert_int_lt(csr.ja[p - 1], csr.ja[p]);
        }
        ck_assert_int_eq(spmm_coo_from_csr(&csr, &back, &err), 0);
        assert_same_coo(&coo, &back, "CSR");
        mm_coo_free(&back);

        spmm_ell ell;
        ck_assert_int_eq(spmm_ell_from_coo(&coo, &ell, threads, &err), 0);
        int32_t maxlen = 0;
        for (int32_t i = 0; i < csr.m; i++) {
            int32_t len = csr.irp[i + 1] - csr.irp[i];
            maxlen = len > maxlen ? len : maxlen;
            ck_assert_int_eq(ell.rowlen[i], len);
            for (int32_t k = len; k < ell.maxnz; k++) { /* padding reads a touched column */
                size_t s = (size_t)k * ell.m + i;
                ck_assert(ell.as[s] == 0.0);
                ck_assert_int_eq(ell.ja[s], len ? csr.ja[csr.irp[i + 1] - 1] : 0);
            }
        }
        ck_assert_int_eq(ell.maxnz, maxlen);
        ck_assert_int_eq(spmm_coo_from_ell(&ell, &back, &err), 0);
        assert_same_coo(&coo, &back, "ELL");
        mm_coo_free(&back);

        spmm_ellnp np;
        ck_assert_int_eq(spmm_ellnp_from_coo(&coo, &np, threads, &err), 0);
        for (int32_t i = 0; i < np.m; i++)
            ck_assert_int_eq(np.nz[i], csr.irp[i + 1] - csr.irp[i]);
        ck_assert_int_eq(spmm_coo_from_ellnp(&np, &back, &err), 0);
        assert_same_coo(&coo, &back, "ELLNP");
        mm_coo_free(&back);

        spmm_csr_free(&csr);
        spmm_ell_free(&ell);
        spmm_ellnp_free(&np);
        mm_coo_free(&coo);
    }
}
END_TEST

START_TEST(test_unsorted_coo_gives_sorted_rows)
{
    /* Entries given row-descending: CSR must still group rows correctly. */
    mm_coo coo;
    ck_assert_int_eq(mm_coo_alloc(&coo, 3, 3, 4, NULL), 0);
    int32_t r[] = {2, 1, 0, 2}, c[] = {0, 1, 2, 2};
    double v[] = {1, 2, 3, 4};
    memcpy(coo.row, r, sizeof r);
    memcpy(coo.col, c, sizeof c);
    memcpy(coo.val, v, sizeof v);
    spmm_csr csr;
    pc_error err;
    ck_assert_int_eq(spmm_csr_from_coo(&coo, &csr, 1, &err), 0);
    ck_assert_int_eq(csr.irp[1], 1);
    ck_assert_int_eq(csr.irp[2], 2);
    ck_assert_int_eq(csr.irp[3], 4);
    ck_assert(csr.as[0] == 3 && csr.as[1] == 2 && csr.as[2] == 1 && csr.as[3] == 4);
    spmm_csr_free(&csr);
    spmm_ell ell;
    ck_assert_int_eq(spmm_ell_from_coo(&coo, &ell, 1, &err), 0);
    ck_assert_int_eq(ell.maxnz, 2);
    ck_assert(ell.as[0] == 3 && ell.as[1] == 2 && ell.as[2] == 1 && ell.as[5] == 4);
    ck_assert(ell.as[3] == 0 && ell.ja[3] == 2 && ell.as[4] == 0 && ell.ja[4] == 1);
    spmm_ell_free(&ell);
    mm_coo_free(&coo);
    /* rows strictly descending, no two in order anywhere */
    ck_assert_int_eq(mm_coo_alloc(&coo, 3, 3, 3, NULL), 0);
    int32_t rd[] = {2, 1, 0}, cd[] = {0, 1, 2};
    memcpy(coo.row, rd, sizeof rd);
    memcpy(coo.col, cd, sizeof cd);
    memcpy(coo.val, v, 3 * sizeof *v);
    ck_assert_int_eq(spmm_csr_from_coo(&coo, &csr, 1, &err), 0);
    ck_assert(csr.irp[1] == 1 && csr.irp[2] == 2 && csr.irp[3] == 3);
    ck_assert(csr.ja[0] == 2 && csr.ja[1] == 1 && csr.ja[2] == 0);
    ck_assert(csr.as[0] == 3 && csr.as[1] == 2 && csr.as[2] == 1);
    spmm_csr_free(&csr);
    mm_coo_free(&coo);
}
END_TEST

START_TEST(test_entries_outside_the_shape_refused)
{
    /* one entry past each bound in turn (row -1, row = rows, col -1, col =
     * cols), then far past (row and col 9) of a 3 x 4 matrix: every
     * converter refuses it, naming the entry and the shape, and allocates
     * nothing */
    static const int32_t bad[6][2] = {{-1, 0}, {3, 0}, {0, -1}, {0, 4}, {9, 0}, {0, 9}};
    for (int b = 0; b < 6; b++) {
        mm_coo coo;
        ck_assert_int_eq(mm_coo_alloc(&coo, 3, 4, 2, NULL), 0);
        coo.row[0] = 1;
        coo.col[0] = 1;
        coo.val[0] = 1.0;
        coo.row[1] = bad[b][0];
        coo.col[1] = bad[b][1];
        coo.val[1] = 2.0;
        char want[64];
        snprintf(want, sizeof want, "entry 1 (%d,%d) is outside 3x4", bad[b][0], bad[b][1]);
        pc_error err;
        long long before = pc_alloc_bytes();
        spmm_csr csr;
        spmm_ell ell;
        spmm_ellnp np;
        ck_assert_int_eq(spmm_csr_from_coo(&coo, &csr, 1, &err), PC_EINVAL);
        ck_assert_msg(strstr(err.msg, want), "csr: %s", err.msg);
        ck_assert_int_eq(spmm_ell_from_coo(&coo, &ell, 1, &err), PC_EINVAL);
        ck_assert_msg(strstr(err.msg, want), "ell: %s", err.msg);
        ck_assert_int_eq(spmm_ellnp_from_coo(&coo, &np, 1, &err), PC_EINVAL);
        ck_assert_msg(strstr(err.msg, want), "ellnp: %s", err.msg);
        ck_assert_int_eq(pc_alloc_bytes(), before);
        /* and each output is left zeroed, safe to free */
        static const spmm_csr zc;
        static const spmm_ell ze;
        static const spmm_ellnp zn;
        ck_assert(!memcmp(&csr, &zc, sizeof zc) && !memcmp(&ell, &ze, sizeof ze) &&
                  !memcmp(&np, &zn, sizeof zn));
        mm_coo_free(&coo);
    }
    /* a shape no int32 index covers, by its whole message */
    for (int k = 0; k < 2; k++) {
        mm_coo neg;
        memset(&neg, 0, sizeof neg);
        neg.rows = k ? 3 : -1;
        neg.cols = k ? -1 : 4;
        pc_error err;
        spmm_csr csr;
        ck_assert_int_eq(spmm_csr_from_coo(&neg, &csr, 1, &err), PC_ERANGE);
        ck_assert_str_eq(err.msg, k ? "matrix 3x-1 with 0 entries is outside the int32 index range"
                                    : "matrix -1x4 with 0 entries is outside the int32 index range");
    }
}
END_TEST

START_TEST(test_ell_refuses_explosive_padding)
{
    /* 2^20 rows, one dense row of 2^12: padding would need 2^32 slots. */
    spmm_gen_params p = {.rows = 1 << 20, .cols = 1 << 12, .nnz = 1 << 20,
                         .shape = SPMM_SHAPE_DENSEROWS, .seed = 3};
    mm_coo coo;
    pc_error err;
    ck_assert_int_eq(spmm_gen_coo(&p, &coo, &err), 0);
    spmm_ell ell;
    long long before = pc_alloc_bytes();
    ck_assert_int_eq(spmm_ell_from_coo(&coo, &ell, 1, &err), PC_ERANGE);
    ck_assert(strstr(err.msg, "padded ELLPACK") != NULL);
    ck_assert_int_eq(pc_alloc_bytes(), before);
    /* the message whole, on a matrix whose numbers are known: 2^20 rows,
     * all 8 entries in row 0 (2^23 slots, past the floor of 2^22) */
    mm_coo one;
    ck_assert_int_eq(mm_coo_alloc(&one, 1 << 20, 8, 8, NULL), 0);
    for (int k = 0; k < 8; k++) {
        one.row[k] = 0;
        one.col[k] = k;
        one.val[k] = 1.0;
    }
    ck_assert_int_eq(spmm_ell_from_coo(&one, &ell, 1, &err), PC_ERANGE);
    ck_assert_str_eq(err.msg, "padded ELLPACK would store 8388608 slots (1048576 rows x longest row 8) "
                              "for 8 entries, more than 16x; use CSR or unpadded ELLPACK");
    mm_coo_free(&one);
    /* the limits themselves are allowed: 2^19 rows x 8 = 2^22 slots, the
     * floor, for 8 entries; and 300000 rows x 14 = 4.2 M slots, past the
     * floor but within 16x its 300013 entries */
    static const int32_t rows[2] = {1 << 19, 300000}, longest[2] = {8, 14};
    for (int k = 0; k < 2; k++) {
        mm_coo edge;
        int64_t nnz = longest[k] + (k ? rows[k] - 1 : 0);
        ck_assert_int_eq(mm_coo_alloc(&edge, rows[k], 16, nnz, NULL), 0);
        int64_t e = 0;
        for (int32_t j = 0; j < longest[k]; j++, e++) {
            edge.row[e] = 0;
            edge.col[e] = j;
            edge.val[e] = 1.0;
        }
        for (int32_t i = 1; k && i < rows[k]; i++, e++) {
            edge.row[e] = i;
            edge.col[e] = i % 16;
            edge.val[e] = 2.0;
        }
        ck_assert_msg(spmm_ell_from_coo(&edge, &ell, 1, &err) == 0, "%s", err.msg);
        ck_assert_int_eq(ell.maxnz, longest[k]);
        spmm_ell_free(&ell);
        mm_coo_free(&edge);
    }
    spmm_ellnp np; /* unpadded ELLPACK is fine */
    ck_assert_int_eq(spmm_ellnp_from_coo(&coo, &np, 1, &err), 0);
    spmm_ellnp_free(&np);
    mm_coo_free(&coo);
}
END_TEST

/* The memory model of each format (what the report's memory figures and
 * docs/README-spmm-cpu.md use), on rows of 3, 0, 1 and 2 entries: CSR
 * (m + 1) row pointers of 4 bytes and 12 bytes an entry; padded ELLPACK
 * m x 3 slots of 12 bytes and m lengths; unpadded ELLPACK a length and two
 * row pointers a row and 12 bytes an entry. */
START_TEST(test_format_bytes)
{
    static const int32_t ri[] = {0, 0, 0, 2, 3, 3}, ci[] = {0, 2, 4, 1, 0, 4};
    static const double v[] = {1, 2, 3, 4, 5, 6};
    mm_coo coo;
    pc_error err;
    ck_assert_int_eq(spmm_case_from(4, 5, 6, ri, ci, v, &coo), 0);
    spmm_csr csr;
    spmm_ell ell;
    spmm_ellnp np;
    ck_assert_int_eq(spmm_csr_from_coo(&coo, &csr, 1, &err), 0);
    ck_assert_int_eq(spmm_ell_from_coo(&coo, &ell, 1, &err), 0);
    ck_assert_int_eq(spmm_ellnp_from_coo(&coo, &np, 1, &err), 0);
    ck_assert_int_eq(spmm_csr_bytes(&csr), 5 * 4 + 6 * 12);
    ck_assert_int_eq(spmm_ell_bytes(&ell), 4 * 3 * 12 + 4 * 4);
    ck_assert_int_eq(spmm_ellnp_bytes(&np), 4 * (4 + 2 * (long long)sizeof(void *)) + 6 * 12);
    spmm_csr_free(&csr);
    spmm_ell_free(&ell);
    spmm_ellnp_free(&np);
    /* a freed format is zeroed, so that a second free is harmless */
    static const spmm_csr zc;
    static const spmm_ell ze;
    static const spmm_ellnp zn;
    ck_assert(!memcmp(&csr, &zc, sizeof csr) && !memcmp(&ell, &ze, sizeof ell) && !memcmp(&np, &zn, sizeof np));
    spmm_csr_free(&csr);
    spmm_ell_free(&ell);
    spmm_ellnp_free(&np);
    mm_coo_free(&coo);
}
END_TEST

typedef struct conv_ctx {
    mm_coo coo;
    int which;
    spmm_csr csr;
    spmm_ell ell;
    spmm_ellnp np;
    mm_coo back;
} conv_ctx;

static int conv_op(void *p)
{
    conv_ctx *c = p;
    switch (c->which) {
    case 0: return spmm_csr_from_coo(&c->coo, &c->csr, 2, NULL);
    case 1: return spmm_ell_from_coo(&c->coo, &c->ell, 2, NULL);
    case 2: return spmm_ellnp_from_coo(&c->coo, &c->np, 2, NULL);
    case 3: return spmm_coo_from_csr(&c->csr, &c->back, NULL);
    case 4: return spmm_coo_from_ell(&c->ell, &c->back, NULL);
    default: return spmm_coo_from_ellnp(&c->np, &c->back, NULL);
    }
}

static void conv_cleanup(void *p)
{
    conv_ctx *c = p;
    switch (c->which) {
    case 0: spmm_csr_free(&c->csr); break;
    case 1: spmm_ell_free(&c->ell); break;
    case 2: spmm_ellnp_free(&c->np); break;
    default: mm_coo_free(&c->back); break;
    }
}

START_TEST(test_conversions_survive_allocation_failures)
{
    conv_ctx c;
    memset(&c, 0, sizeof c);
    ck_assert_int_eq(spmm_case_random(3, 0, &c.coo), 0);
    for (c.which = 0; c.which < 3; c.which++)
        ck_assert_int_ge(pc_test_alloc_loop(conv_op, conv_cleanup, &c, 100), 1);
    mm_coo_free(&c.coo);
    /* and back to COO from each format, from a COO whose rows list their
     * columns descending: the formats keep that order, so the way back
     * sorts (and allocates) */
    static const int32_t ri[] = {0, 0, 1, 1, 1}, ci[] = {3, 1, 2, 1, 0};
    static const double v[] = {1, 2, 3, 4, 5};
    ck_assert_int_eq(mm_coo_alloc(&c.coo, 2, 4, 5, NULL), 0);
    memcpy(c.coo.row, ri, sizeof ri);
    memcpy(c.coo.col, ci, sizeof ci);
    memcpy(c.coo.val, v, sizeof v);
    ck_assert_int_eq(spmm_csr_from_coo(&c.coo, &c.csr, 1, NULL), 0);
    ck_assert_int_eq(spmm_ell_from_coo(&c.coo, &c.ell, 1, NULL), 0);
    ck_assert_int_eq(spmm_ellnp_from_coo(&c.coo, &c.np, 1, NULL), 0);
    ck_assert_int_eq(c.csr.ja[0], 3); /* the order kept */
    for (c.which = 3; c.which < 6; c.which++)
        ck_assert_int_ge(pc_test_alloc_loop(conv_op, conv_cleanup, &c, 100), 2);
    spmm_csr_free(&c.csr);
    spmm_ell_free(&c.ell);
    spmm_ellnp_free(&c.np);
    mm_coo_free(&c.coo);
}
END_TEST

/* spmm_matrix_need builds exactly the formats asked for and not built
 * yet: asking twice allocates nothing, and one format brings no other. */
START_TEST(test_matrix_builds_each_format_once)
{
    mm_coo coo;
    ck_assert_int_eq(spmm_case_random(5, 0, &coo), 0);
    pc_error err;
    spmm_matrix A;
    spmm_matrix_init(&A, &coo);
    ck_assert_int_eq(spmm_matrix_need(&A, SPMM_FMT_ELL, 1, &err), 0);
    ck_assert_int_eq(A.have, SPMM_FMT_ELL);
    ck_assert_int_eq(spmm_matrix_need(&A, SPMM_FMT_CSR, 1, &err), 0);
    ck_assert_int_eq(A.have, SPMM_FMT_ELL | SPMM_FMT_CSR);
    const int32_t *irp = A.csr.irp;
    long long bytes = pc_alloc_bytes();
    ck_assert_int_eq(spmm_matrix_need(&A, SPMM_FMT_CSR | SPMM_FMT_ELL, 1, &err), 0);
    ck_assert(A.csr.irp == irp && pc_alloc_bytes() == bytes);
    spmm_matrix_free(&A);
    mm_coo_free(&coo);
}
END_TEST

/* A matrix's entries (row, column, value bits), hashed (pc_test_fnv_u64). */
static uint64_t coo_fingerprint(const mm_coo *a)
{
    uint64_t h = PC_TEST_FNV_SEED;
    for (int64_t e = 0; e < a->nnz; e++) {
        uint64_t bits;
        memcpy(&bits, &a->val[e], sizeof bits);
        h = pc_test_fnv_u64(h, (uint64_t)(int64_t)a->row[e]);
        h = pc_test_fnv_u64(h, (uint64_t)(int64_t)a->col[e]);
        h = pc_test_fnv_u64(h, bits);
    }
    return h;
}

/* Same parameters, same matrix on every machine: each shape pinned by its
 * entry count and fingerprint. */
START_TEST(test_generator_shapes)
{
    /* the fifth: dense rows of 900 in 1500 columns, past half the columns
     * (a run of consecutive columns from a random offset) */
    static const int shapes[] = {SPMM_SHAPE_UNIFORM, SPMM_SHAPE_BANDED, SPMM_SHAPE_POWERLAW,
                                 SPMM_SHAPE_DENSEROWS, SPMM_SHAPE_DENSEROWS};
    static const int32_t cols[] = {4000, 4000, 4000, 4000, 1500};
    static const int64_t pin_nnz[] = {40045, 40000, 38440, 45404, 45343};
    static const uint64_t pin_print[] = {13151028600654061084ULL, 2870977832716009640ULL,
                                         3475285253476924829ULL, 4932860494617901295ULL,
                                         9199425434114768074ULL};
    for (int s = 0; s < 5; s++) {
        spmm_gen_params p = {.rows = 5000, .cols = cols[s], .nnz = 40000, .shape = shapes[s],
                             .seed = 77, .max_row = 900};
        mm_coo a, b;
        pc_error err;
        ck_assert_int_eq(spmm_gen_coo(&p, &a, &err), 0);
        ck_assert_int_eq(spmm_gen_coo(&p, &b, &err), 0);
        assert_same_coo(&a, &b, "same seed, same matrix");
        ck_assert_int_eq(a.nnz, pin_nnz[s]);
        ck_assert_msg(coo_fingerprint(&a) == pin_print[s], "shape %d: fingerprint %llu", s,
                      (unsigned long long)coo_fingerprint(&a));
        ck_assert_int_gt(a.nnz, 40000 / 4);
        ck_assert_int_lt(a.nnz, 40000 * 3);
        spmm_csr csr;
        ck_assert_int_eq(spmm_csr_from_coo(&a, &csr, 1, &err), 0);
        int32_t longest = 0;
        for (int32_t i = 0; i < csr.m; i++)
            if (csr.irp[i + 1] - csr.irp[i] > longest)
                longest = csr.irp[i + 1] - csr.irp[i];
        if (shapes[s] == SPMM_SHAPE_BANDED)
            ck_assert_int_eq(longest, 8);
        if (shapes[s] == SPMM_SHAPE_POWERLAW || shapes[s] == SPMM_SHAPE_DENSEROWS)
            ck_assert_int_eq(longest, 900); /* the long row exists */
        /* a row of at least half the columns is one cyclic run of
         * consecutive columns, from an offset that varies by row */
        int halves = 0, off_zero = 0;
        for (int32_t i = 0; i < csr.m; i++) {
            int32_t l = csr.irp[i + 1] - csr.irp[i];
            if (2 * (int64_t)l < csr.n)
                continue;
            const int32_t *c = csr.ja + csr.irp[i];
            int breaks = c[0] != 0 || c[l - 1] != csr.n - 1; /* the wrap */
            for (int32_t k = 0; k + 1 < l; k++)
                breaks += c[k + 1] != c[k] + 1;
            ck_assert_msg(breaks == 1, "row %d: %d breaks in its run", i, breaks);
            halves++;
            off_zero += c[0] == 0 && c[l - 1] != csr.n - 1;
        }
        if (cols[s] == 1500)
            ck_assert_msg(halves > 1 && off_zero < halves, "%d rows of half the columns, %d from column 0",
                          halves, off_zero);
        spmm_csr_free(&csr);
        mm_coo_free(&a);
        mm_coo_free(&b);
    }
    /* rows of fewer than 2 entries on average: some are left empty (one
     * in eight, on top of the jitter), pinned as the shapes above */
    {
        spmm_gen_params p = {.rows = 1000, .cols = 1000, .nnz = 1000, .shape = SPMM_SHAPE_UNIFORM,
                             .seed = 5};
        mm_coo a;
        pc_error err;
        ck_assert_int_eq(spmm_gen_coo(&p, &a, &err), 0);
        spmm_csr csr;
        ck_assert_int_eq(spmm_csr_from_coo(&a, &csr, 1, &err), 0);
        int32_t empty = 0;
        for (int32_t i = 0; i < csr.m; i++)
            empty += csr.irp[i + 1] == csr.irp[i];
        ck_assert_msg(a.nnz == 886 && empty == 223 && coo_fingerprint(&a) == 534201866829811937ULL,
                      "mean 1: nnz %lld, %d empty rows, fingerprint %llu", (long long)a.nnz, empty,
                      (unsigned long long)coo_fingerprint(&a));
        spmm_csr_free(&csr);
        mm_coo_free(&a);
    }
    /* each parameter out of its range, then entries in an empty shape */
    static const struct {
        int32_t rows, cols;
        int64_t nnz;
        int shape;
        const char *msg;
    } bad[] = {
        {-1, 4, 1, SPMM_SHAPE_UNIFORM, "gen matrix: bad parameters"},
        {4, -1, 1, SPMM_SHAPE_UNIFORM, "gen matrix: bad parameters"},
        {4, 4, -1, SPMM_SHAPE_UNIFORM, "gen matrix: bad parameters"},
        {4, 4, 1, -1, "gen matrix: bad parameters"},
        {4, 4, 1, SPMM_SHAPE_DENSEROWS + 1, "gen matrix: bad parameters"},
        {0, 4, 1, SPMM_SHAPE_UNIFORM, "gen matrix: entries in an empty shape"},
        {4, 0, 1, SPMM_SHAPE_UNIFORM, "gen matrix: entries in an empty shape"},
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        spmm_gen_params p = {.rows = bad[k].rows, .cols = bad[k].cols, .nnz = bad[k].nnz,
                             .shape = bad[k].shape, .seed = 1};
        mm_coo a;
        pc_error err;
        ck_assert_msg(spmm_gen_coo(&p, &a, &err) == PC_EINVAL, "case %zu accepted", k);
        ck_assert_str_eq(err.msg, bad[k].msg);
    }
    /* an empty shape without entries is a matrix (0 x 4, 4 x 0) */
    for (int k = 0; k < 2; k++) {
        spmm_gen_params p = {.rows = k ? 4 : 0, .cols = k ? 0 : 4, .nnz = 0,
                             .shape = SPMM_SHAPE_UNIFORM, .seed = 1};
        mm_coo a;
        pc_error err;
        ck_assert_msg(spmm_gen_coo(&p, &a, &err) == 0, "%s", err.msg);
        ck_assert_int_eq(a.rows, p.rows);
        ck_assert_int_eq(a.cols, p.cols);
        ck_assert_int_eq(a.nnz, 0);
        mm_coo_free(&a);
    }
}
END_TEST

static Suite *suite_spmm_convert(void)
{
    Suite *s = suite_create("spmm_convert");
    TCase *tc = pc_tcase("convert");
    tcase_add_test(tc, test_round_trips);
    tcase_add_test(tc, test_unsorted_coo_gives_sorted_rows);
    tcase_add_test(tc, test_entries_outside_the_shape_refused);
    tcase_add_test(tc, test_ell_refuses_explosive_padding);
    tcase_add_test(tc, test_format_bytes);
    tcase_add_test(tc, test_conversions_survive_allocation_failures);
    tcase_add_test(tc, test_generator_shapes);
    tcase_add_test(tc, test_matrix_builds_each_format_once);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return pc_test_run(suite_spmm_convert()); }
