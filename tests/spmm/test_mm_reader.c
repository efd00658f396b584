/* test_mm_reader.c - the Matrix Market reader and writer (src/mm).
 *
 * Real files of the shared data folder (valid, invalid, edge), hand-written buffers
 * for each error class, write/read round trips on seeded random matrices,
 * and the allocation-failure loop. Policies: docs/README-mm.md. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mm.h"
#include "pc_alloc.h"
#include "pc_rng.h"
#include "pc_test.h"

/* ---- helpers ------------------------------------------------------------ */

static char g_path[4096];

/* <data>/<rel>, or NULL when the data directory is absent. */
static const char *data_path(const char *rel)
{
    const char *dir = pc_test_data_dir();
    if (!dir)
        return NULL;
    snprintf(g_path, sizeof g_path, "%s/%s", dir, rel);
    return g_path;
}

#define NEED_DATA()                                         \
    do {                                                    \
        if (!pc_test_data_dir())                            \
            PC_SKIP("no shared data directory (../shared/data or PARCHECK_DATA)"); \
    } while (0)

static void read_ok(const char *rel, mm_coo *m)
{
    pc_error err;
    pc_error_clear(&err);
    const char *p = data_path(rel);
    int rc = mm_read_file(p, m, &err);
    ck_assert_msg(rc == PC_OK, "%s: rc %d: %s", rel, rc, err.msg);
}

static int read_text(const char *txt, mm_coo *m, pc_error *err)
{
    pc_error_clear(err);
    return mm_read_buffer("buf", txt, strlen(txt), m, err);
}

/* Reads txt, which must fail with code and exactly the message
 * "buf:LINE: msg" ("buf: msg" for line 0), leaving nothing allocated. */
static void expect_fail_at(const char *txt, int code, long line, const char *msg)
{
    mm_coo m;
    pc_error err;
    long live = pc_alloc_live();
    int rc = read_text(txt, &m, &err);
    ck_assert_msg(rc == code, "%s: expected %s, got %s (%s)", msg, pc_error_name(code),
                  pc_error_name(rc), err.msg);
    ck_assert_msg(err.code == code, "%s: err.code %d", msg, err.code);
    char want[256];
    if (line > 0)
        snprintf(want, sizeof want, "buf:%ld: %s", line, msg);
    else
        snprintf(want, sizeof want, "buf: %s", msg);
    ck_assert_str_eq(err.msg, want);
    ck_assert_msg(m.row == NULL && m.nnz == 0, "%s: output not cleared", msg);
    ck_assert_msg(pc_alloc_live() == live, "%s: leak", msg);
}

static void expect_ok(const char *txt, mm_coo *m, const char *what)
{
    pc_error err;
    int rc = read_text(txt, m, &err);
    ck_assert_msg(rc == PC_OK, "%s: rc %s: %s", what, pc_error_name(rc), err.msg);
}

/* Bitwise equality of the normalized arrays. */
static int coo_same(const mm_coo *a, const mm_coo *b)
{
    if (a->rows != b->rows || a->cols != b->cols || a->nnz != b->nnz)
        return 0;
    size_t n = (size_t)a->nnz;
    return memcmp(a->row, b->row, n * sizeof *a->row) == 0 &&
           memcmp(a->col, b->col, n * sizeof *a->col) == 0 &&
           memcmp(a->val, b->val, n * sizeof *a->val) == 0;
}

/* Value at (i, j) (0-based) or NAN when the entry is not stored. */
static double coo_at(const mm_coo *m, int32_t i, int32_t j)
{
    for (int64_t k = 0; k < m->nnz; k++)
        if (m->row[k] == i && m->col[k] == j)
            return m->val[k];
    return NAN;
}

/* The normalized invariants: indices in range, strictly increasing (row, col). */
static void check_normalized(const mm_coo *m, const char *what)
{
    for (int64_t k = 0; k < m->nnz; k++) {
        ck_assert_msg(m->row[k] >= 0 && m->row[k] < m->rows && m->col[k] >= 0 &&
                      m->col[k] < m->cols, "%s: entry %lld out of range", what, (long long)k);
        if (k)
            ck_assert_msg(m->row[k - 1] < m->row[k] ||
                          (m->row[k - 1] == m->row[k] && m->col[k - 1] < m->col[k]),
                          "%s: entries %lld, %lld not strictly sorted", what,
                          (long long)k - 1, (long long)k);
    }
    int64_t z = 0;
    for (int64_t k = 0; k < m->nnz; k++)
        z += m->val[k] == 0.0;
    ck_assert_msg(z == m->explicit_zeros, "%s: explicit zeros %lld, counted %lld", what,
                  (long long)m->explicit_zeros, (long long)z);
}

/* Lists regular files ending in .mtx below dir (recursively), sorted. */
typedef struct file_list {
    char **names;
    int n, cap;
} file_list;

static void list_add(file_list *l, const char *s)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 64;
        l->names = realloc(l->names, (size_t)l->cap * sizeof *l->names);
        ck_assert(l->names != NULL);
    }
    l->names[l->n++] = strdup(s);
}

static void list_mtx(const char *dir, file_list *l)
{
    DIR *d = opendir(dir);
    ck_assert_msg(d != NULL, "cannot open %s", dir);
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        char p[4096];
        snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
        struct stat st;
        if (stat(p, &st) != 0)
            continue;
        size_t n = strlen(e->d_name);
        if (S_ISDIR(st.st_mode))
            list_mtx(p, l);
        else if (S_ISREG(st.st_mode) && n > 4 && strcmp(e->d_name + n - 4, ".mtx") == 0)
            list_add(l, p);
    }
    closedir(d);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void list_free(file_list *l)
{
    for (int i = 0; i < l->n; i++)
        free(l->names[i]);
    free(l->names);
}

static void list_dir(const char *rel, file_list *l)
{
    memset(l, 0, sizeof *l);
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", data_path(rel));
    list_mtx(dir, l);
    qsort(l->names, (size_t)l->n, sizeof *l->names, cmp_str);
}

/* ---- shared data: valid files ------------------------------------------- */

START_TEST(test_all_valid_files_accepted)
{
    NEED_DATA();
    file_list l;
    list_dir("matrices", &l);
    ck_assert_msg(l.n >= 50, "only %d files found", l.n);
    int sym = 0;
    for (int i = 0; i < l.n; i++) {
        mm_coo m;
        pc_error err;
        long live = pc_alloc_live();
        pc_alloc_reset_peak();
        long long before = pc_alloc_bytes();
        int rc = mm_read_file(l.names[i], &m, &err);
        ck_assert_msg(rc == PC_OK, "%s refused: %s", l.names[i], err.msg);
        check_normalized(&m, l.names[i]);
        /* the memory model of docs/README-mm.md */
        struct stat st;
        ck_assert(stat(l.names[i], &st) == 0);
        long long n = m.nnz + m.duplicates, buckets = 2 * n > 65536 ? 2 * n : 65536;
        long long model = (long long)st.st_size + 32 * n + 8 * (buckets + 1);
        ck_assert_msg(pc_alloc_peak() - before <= model, "%s: peak %lld > model %lld",
                      l.names[i], pc_alloc_peak() - before, model);
        ck_assert(m.nnz <= m.declared * 2 || m.format == MM_ARRAY);
        sym += strstr(l.names[i], "/symmetry/") != NULL;
        mm_coo_free(&m);
        ck_assert_msg(pc_alloc_live() == live, "%s: leak", l.names[i]);
    }
    ck_assert_msg(sym == 12, "symmetry/ holds %d files", sym);
    list_free(&l);
}
END_TEST

START_TEST(test_eye3_variants)
{
    NEED_DATA();
    static const char *const same[] = {
        "matrices/eye3.mtx", "matrices/eye3_pattern.mtx",
        "matrices/permissive_banner_leading_spaces_eye3.mtx",
        "matrices/permissive_banner_one_percent_eye3.mtx",
    };
    mm_coo ref;
    read_ok(same[0], &ref);
    ck_assert_int_eq(ref.rows, 3);
    ck_assert_int_eq(ref.cols, 3);
    ck_assert_int_eq(ref.nnz, 3);
    for (int k = 0; k < 3; k++) {
        ck_assert_int_eq(ref.row[k], k);
        ck_assert_int_eq(ref.col[k], k);
        ck_assert(ref.val[k] == 1.0);
    }
    for (size_t f = 1; f < sizeof same / sizeof *same; f++) {
        mm_coo m;
        read_ok(same[f], &m);
        ck_assert_msg(coo_same(&ref, &m), "%s differs from eye3", same[f]);
        mm_coo_free(&m);
    }
    /* the dense array keeps its six zeros as explicit entries */
    mm_coo a;
    read_ok("matrices/eye3_array.mtx", &a);
    ck_assert_int_eq(a.format, MM_ARRAY);
    ck_assert_int_eq(a.nnz, 9);
    ck_assert_int_eq(a.explicit_zeros, 6);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            ck_assert(coo_at(&a, i, j) == (i == j ? 1.0 : 0.0));
    mm_coo_free(&a);
    /* indented lines: a 1x1 matrix of one entry */
    read_ok("matrices/permissive_lines_indented.mtx", &a);
    ck_assert_int_eq(a.rows, 1);
    ck_assert_int_eq(a.nnz, 1);
    ck_assert(a.val[0] == 1.0);
    mm_coo_free(&a);
    mm_coo_free(&ref);
}
END_TEST

START_TEST(test_spot_checks)
{
    NEED_DATA();
    mm_coo m;
    read_ok("matrices/row_3by4.mtx", &m);
    ck_assert_int_eq(m.rows, 3);
    ck_assert_int_eq(m.cols, 4);
    ck_assert_int_eq(m.nnz, 4);
    ck_assert_int_eq(m.field, MM_FIELD_INTEGER);
    for (int k = 0; k < 4; k++) {
        ck_assert_int_eq(m.row[k], 0);
        ck_assert_int_eq(m.col[k], k);
        ck_assert(m.val[k] == k + 1);
    }
    mm_coo_free(&m);

    read_ok("matrices/cage4.mtx", &m);
    ck_assert_int_eq(m.rows, 9);
    ck_assert_int_eq(m.cols, 9);
    ck_assert_int_eq(m.nnz, 49);
    ck_assert_int_eq(m.duplicates, 0);
    mm_coo_free(&m);

    read_ok("matrices/empty.mtx", &m);
    ck_assert_int_eq(m.rows, 3);
    ck_assert_int_eq(m.cols, 4);
    ck_assert_int_eq(m.nnz, 0);
    mm_coo_free(&m);

    /* skew: (4,1) = -12 gives (1,4) = 12; the explicit zero (4,3) and its
     * mirror stay; 10 stored entries, no diagonal -> 20 */
    read_ok("matrices/skew_int32.mtx", &m);
    ck_assert_int_eq(m.symmetry, MM_SKEW_SYMMETRIC);
    ck_assert_int_eq(m.nnz, 20);
    ck_assert(coo_at(&m, 3, 0) == -12.0 && coo_at(&m, 0, 3) == 12.0);
    ck_assert(coo_at(&m, 4, 0) == 30000000.0 && coo_at(&m, 0, 4) == -30000000.0);
    ck_assert_int_eq(m.explicit_zeros, 2);
    for (int64_t k = 0; k < m.nnz; k++)
        ck_assert(coo_at(&m, m.col[k], m.row[k]) == -m.val[k]);
    /* normalizing recounts the zeros, whatever the field held: a second
     * normalization of the same matrix finds the same 2 */
    pc_error err;
    m.explicit_zeros = 99;
    ck_assert_int_eq(mm_coo_normalize(&m, &err), 0);
    ck_assert_int_eq(m.explicit_zeros, 2);
    ck_assert_int_eq(mm_coo_normalize(&m, &err), 0);
    ck_assert_int_eq(m.explicit_zeros, 2);
    mm_coo_free(&m);

    /* GraphBLAS writes infinities as "inf": kept, and mirrored as -inf */
    read_ok("matrices/skew_fp64.mtx", &m);
    ck_assert(isinf(coo_at(&m, 4, 0)) && coo_at(&m, 4, 0) > 0);
    ck_assert(isinf(coo_at(&m, 0, 4)) && coo_at(&m, 0, 4) < 0);
    ck_assert(coo_at(&m, 5, 3) == 1.6518450433009226 && coo_at(&m, 3, 5) == -1.6518450433009226);
    mm_coo_free(&m);
    read_ok("matrices/matrix_fp64.mtx", &m);
    ck_assert(coo_at(&m, 3, 0) == -INFINITY && coo_at(&m, 0, 1) == INFINITY);
    mm_coo_free(&m);
    read_ok("matrices/matrix_int32.mtx", &m);
    ck_assert(coo_at(&m, 3, 0) == -2147483648.0 && coo_at(&m, 0, 1) == 2147483647.0);
    mm_coo_free(&m);

    /* array: column-major */
    read_ok("matrices/2col_array.mtx", &m);
    ck_assert_int_eq(m.rows, 3);
    ck_assert_int_eq(m.cols, 2);
    ck_assert_int_eq(m.nnz, 6);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 2; j++)
            ck_assert(coo_at(&m, i, j) == 10.0 * (j + 1) + i);
    mm_coo_free(&m);

    /* symmetric array: 10 stored values (lower triangle by columns) -> 16 */
    read_ok("matrices/full_symmetric.mtx", &m);
    ck_assert_int_eq(m.nnz, 16);
    ck_assert(coo_at(&m, 0, 0) == 10.762188911437988);
    ck_assert(coo_at(&m, 1, 0) == 18.18952178955078 && coo_at(&m, 0, 1) == 18.18952178955078);
    ck_assert(coo_at(&m, 1, 1) == 7.084949970245361);
    for (int64_t k = 0; k < m.nnz; k++)
        ck_assert(coo_at(&m, m.col[k], m.row[k]) == m.val[k]);
    mm_coo_free(&m);

    /* symmetric coordinate: 1138_bus (2596 stored, 1138 on the diagonal)
     * expands to 4054 entries, the count of its permuted general copy */
    mm_coo g;
    read_ok("matrices/1138_bus.mtx", &m);
    read_ok("matrices/1138_bus_shuffled.mtx", &g);
    ck_assert_int_eq(m.nnz, 4054);
    ck_assert_int_eq(g.nnz, 4054);
    ck_assert(coo_at(&m, 0, 0) == 1474.779 && coo_at(&m, 4, 0) == -9.017133 &&
              coo_at(&m, 0, 4) == -9.017133);
    mm_coo_free(&m);
    mm_coo_free(&g);

    read_ok("matrices/west0067.mtx", &m);
    read_ok("matrices/west0067_jumbled.mtx", &g);
    ck_assert_int_eq(m.nnz, 294);
    ck_assert(coo_at(&m, 4, 0) == -.2788416);
    ck_assert_msg(coo_same(&m, &g), "west0067 and its jumbled copy differ");
    mm_coo_free(&m);
    mm_coo_free(&g);

    /* free format, blank lines, CRLF: all the same 5x5 matrix */
    static const char *const nist[] = {
        "matrices/nist_ex1_freeformat.mtx", "matrices/nist_ex1_more_freeformat.mtx",
        "matrices/windows_lineendings_nist_ex1_more_freeformat.mtx",
    };
    read_ok("matrices/nist_ex1.mtx", &m);
    ck_assert_int_eq(m.nnz, 8);
    ck_assert(coo_at(&m, 3, 3) == -280.0 && coo_at(&m, 2, 2) == 0.015);
    for (int f = 0; f < 3; f++) {
        read_ok(nist[f], &g);
        ck_assert_msg(coo_same(&m, &g), "%s differs from nist_ex1", nist[f]);
        mm_coo_free(&g);
    }
    mm_coo_free(&m);

    read_ok("matrices/LFAT5_hypersparse.mtx", &m);
    read_ok("matrices/LFAT5.mtx", &g);
    ck_assert_int_eq(m.rows, 2000);
    ck_assert_int_eq(g.rows, 14);
    ck_assert_int_eq(m.nnz, g.nnz);
    ck_assert(memcmp(m.val, g.val, (size_t)g.nnz * sizeof *g.val) == 0);
    mm_coo_free(&m);
    mm_coo_free(&g);

    /* pattern: values 1.0; lp_afiro_structure is the pattern of lp_afiro */
    read_ok("matrices/lp_afiro.mtx", &m);
    read_ok("matrices/lp_afiro_structure.mtx", &g);
    ck_assert_int_eq(g.field, MM_FIELD_PATTERN);
    ck_assert_int_eq(m.nnz, g.nnz);
    ck_assert(memcmp(m.row, g.row, (size_t)m.nnz * sizeof *m.row) == 0);
    ck_assert(memcmp(m.col, g.col, (size_t)m.nnz * sizeof *m.col) == 0);
    for (int64_t k = 0; k < g.nnz; k++)
        ck_assert(g.val[k] == 1.0);
    mm_coo_free(&m);
    mm_coo_free(&g);
}
END_TEST

/* symmetry/X.mtx expanded equals X_general.mtx; _general_dup and
 * _general_zero describe the same matrix except where they sum duplicates. */
START_TEST(test_symmetry_pairs)
{
    NEED_DATA();
    static const char *const base[] = {
        "coordinate_pattern_symmetric_row", "coordinate_skew_symmetric_row",
        "coordinate_symmetric_row",
    };
    char p[256];
    for (int b = 0; b < 3; b++) {
        mm_coo x, g, d, z;
        snprintf(p, sizeof p, "matrices/symmetry/%s.mtx", base[b]);
        read_ok(p, &x);
        snprintf(p, sizeof p, "matrices/symmetry/%s_general.mtx", base[b]);
        read_ok(p, &g);
        snprintf(p, sizeof p, "matrices/symmetry/%s_general_dup.mtx", base[b]);
        read_ok(p, &d);
        snprintf(p, sizeof p, "matrices/symmetry/%s_general_zero.mtx", base[b]);
        read_ok(p, &z);
        ck_assert_msg(coo_same(&x, &g), "%s: expanded != general", base[b]);
        ck_assert_int_eq(x.duplicates, 0);
        if (b < 2) {
            /* pattern and skew: the _dup and _zero files hold the same
             * four entries as _general */
            ck_assert_msg(coo_same(&x, &d), "%s: != general_dup", base[b]);
            ck_assert_msg(coo_same(&x, &z), "%s: != general_zero", base[b]);
        } else {
            /* symmetric: _dup stores (3,3) = 30 twice -> summed to 60;
             * _zero stores (3,3) = 0 and 30 -> 30, the same matrix */
            ck_assert_int_eq(d.duplicates, 1);
            ck_assert_int_eq(d.nnz, x.nnz);
            ck_assert(coo_at(&d, 2, 2) == 60.0 && coo_at(&x, 2, 2) == 30.0);
            for (int64_t k = 0; k < x.nnz; k++)
                if (!(x.row[k] == 2 && x.col[k] == 2))
                    ck_assert(d.val[k] == x.val[k]);
            ck_assert_int_eq(z.duplicates, 1);
            ck_assert_int_eq(z.explicit_zeros, 0);
            ck_assert_msg(coo_same(&x, &z), "%s: != general_zero", base[b]);
        }
        mm_coo_free(&x);
        mm_coo_free(&g);
        mm_coo_free(&d);
        mm_coo_free(&z);
    }
}
END_TEST

/* ---- shared data: invalid and edge files -------------------------------- */

/* Expected line and code of each file of matrices-invalid. */
static const struct {
    const char *file;
    long line;
    int code;
} g_invalid[] = {
    { "complex_unsupported.mtx", 1, PC_EUNSUP },
    { "full_noheader.mtx", 1, PC_EFORMAT },
    { "invalid_bad_banner.mtx", 1, PC_EFORMAT },
    { "invalid_bad_banner_2.mtx", 1, PC_EFORMAT },
    { "invalid_bad_field.mtx", 1, PC_EFORMAT },
    { "invalid_bad_format.mtx", 1, PC_EFORMAT },
    { "invalid_bad_object.mtx", 1, PC_EFORMAT },
    { "invalid_bad_symmetry.mtx", 1, PC_EFORMAT },
    { "invalid_bad_value.mtx", 3, PC_EFORMAT },
    { "invalid_bad_value_2.mtx", 1, PC_EUNSUP },
    { "invalid_bad_value_3.mtx", 1, PC_EUNSUP },
    { "invalid_bad_value_4.mtx", 1, PC_EUNSUP },
    { "invalid_dimensions_out_of_range_1.mtx", 3, PC_EFORMAT },
    { "invalid_dimensions_out_of_range_2.mtx", 3, PC_EFORMAT },
    { "invalid_dimensions_out_of_range_3.mtx", 3, PC_EFORMAT },
    { "invalid_indices_out_of_range_1.mtx", 5, PC_EFORMAT },
    { "invalid_indices_out_of_range_2.mtx", 6, PC_EFORMAT },
    { "invalid_indices_out_of_range_3.mtx", 5, PC_EFORMAT },
    { "invalid_indices_out_of_range_4.mtx", 6, PC_EFORMAT },
    { "invalid_indices_out_of_range_5.mtx", 5, PC_EFORMAT },
    { "invalid_indices_out_of_range_6.mtx", 6, PC_EFORMAT },
    { "invalid_matrix_coord_too_long.mtx", 7, PC_EFORMAT },
    { "invalid_symmetry_vector.mtx", 1, PC_EUNSUP },
    { "invalid_truncated_header_1.mtx", 2, PC_EFORMAT },
    { "invalid_truncated_header_2.mtx", 1, PC_EFORMAT },
    { "invalid_truncated_line_1.mtx", 5, PC_EFORMAT },
    { "invalid_truncated_line_2.mtx", 5, PC_EFORMAT },
    { "invalid_truncated_lines.mtx", 4, PC_EFORMAT },
    { "invalid_vector_array_too_long.mtx", 1, PC_EUNSUP },
    { "invalid_vector_coord_too_long.mtx", 1, PC_EUNSUP },
    { "invalid_vector_index_out_of_range_1.mtx", 1, PC_EUNSUP },
    { "invalid_vector_index_out_of_range_2.mtx", 1, PC_EUNSUP },
    { "invalid_vector_negative_length.mtx", 1, PC_EUNSUP },
    { "lagraph_mangled1.mtx", 1, PC_EFORMAT },
    { "lagraph_mangled10.mtx", 6, PC_EFORMAT },
    { "lagraph_mangled11.mtx", 5, PC_EFORMAT },
    { "lagraph_mangled12.mtx", 5, PC_EFORMAT },
    { "lagraph_mangled13.mtx", 7, PC_EFORMAT },
    { "lagraph_mangled15.mtx", 5, PC_EFORMAT },
    { "lagraph_mangled16.mtx", 5, PC_EFORMAT },
    { "lagraph_mangled2.mtx", 1, PC_EFORMAT },
    { "lagraph_mangled3.mtx", 1, PC_EFORMAT },
    { "lagraph_mangled4.mtx", 1, PC_EFORMAT },
    { "lagraph_mangled5.mtx", 1, PC_EUNSUP },
    { "lagraph_mangled6.mtx", 1, PC_EUNSUP },
    { "lagraph_mangled7.mtx", 5, PC_EFORMAT },
    { "lagraph_mangled8.mtx", 4, PC_EFORMAT },
    { "lagraph_mangled9.mtx", 4, PC_EFORMAT },
    { "overflow_dim_gt_int64.mtx", 2, PC_ERANGE },
    { "overflow_index_gt_int64.mtx", 6, PC_EFORMAT },
    { "overflow_value_gt_complex128.mtx", 1, PC_EUNSUP },
    { "overflow_value_gt_float128.mtx", 4, PC_ERANGE },
    { "overflow_value_gt_float64.mtx", 4, PC_ERANGE },
    { "vector_unsupported.mtx", 1, PC_EUNSUP },
    { "west0067_noheader.mtx", 1, PC_EFORMAT },
};

START_TEST(test_all_invalid_files_refused)
{
    NEED_DATA();
    file_list l;
    list_dir("matrices-invalid", &l);
    size_t ntab = sizeof g_invalid / sizeof *g_invalid;
    ck_assert_msg((size_t)l.n == ntab, "%d files in matrices-invalid, %zu in the table", l.n, ntab);
    for (int i = 0; i < l.n; i++) {
        const char *base = strrchr(l.names[i], '/') + 1;
        size_t t = 0;
        while (t < ntab && strcmp(g_invalid[t].file, base) != 0)
            t++;
        ck_assert_msg(t < ntab, "%s is not in the table of expected errors", base);
        mm_coo m;
        pc_error err;
        pc_error_clear(&err);
        long live = pc_alloc_live();
        pc_alloc_reset_peak();
        long long before = pc_alloc_bytes();
        int rc = mm_read_file(l.names[i], &m, &err);
        ck_assert_msg(rc != PC_OK, "%s accepted", base);
        ck_assert_msg(rc == g_invalid[t].code, "%s: code %s, expected %s (%s)", base,
                      pc_error_name(rc), pc_error_name(g_invalid[t].code), err.msg);
        char want[4200];
        snprintf(want, sizeof want, "%s:%ld: ", l.names[i], g_invalid[t].line);
        ck_assert_msg(strncmp(err.msg, want, strlen(want)) == 0, "%s: message '%s', expected '%s...'",
                      base, err.msg, want);
        ck_assert_msg(strlen(err.msg) > strlen(want) + 5, "%s: message says nothing", base);
        ck_assert_msg(pc_alloc_live() == live, "%s: leak", base);
        ck_assert_msg(pc_alloc_peak() - before < (1 << 20), "%s: peak %lld bytes", base,
                      pc_alloc_peak() - before);
    }
    list_free(&l);
}
END_TEST

/* Edge policy (docs/README-mm.md): duplicates are summed; integer values
 * past int32 are fine while |v| <= 2^53; past 2^53 (and past int64) the
 * file is refused with PC_ERANGE on the line of the value. */
START_TEST(test_edge_files)
{
    NEED_DATA();
    mm_coo m;
    read_ok("matrices-edge/duplicates_lagraph_mangled14.mtx", &m);
    ck_assert_int_eq(m.rows, 3);
    ck_assert_int_eq(m.cols, 4);
    ck_assert_int_eq(m.declared, 3);
    ck_assert_int_eq(m.nnz, 2);
    ck_assert_int_eq(m.duplicates, 1);
    volatile double a = 3.4, b = 7.1;
    ck_assert(coo_at(&m, 0, 0) == 3.0 && coo_at(&m, 1, 1) == a + b);
    mm_coo_free(&m);

    read_ok("matrices-edge/overflow_value_gt_int32.mtx", &m);
    ck_assert_int_eq(m.nnz, 1);
    ck_assert(coo_at(&m, 1, 1) == 8589934592.0);
    mm_coo_free(&m);

    pc_error err;
    const char *p = data_path("matrices-edge/overflow_value_gt_int64.mtx");
    char path[4096];
    snprintf(path, sizeof path, "%s", p);
    int rc = mm_read_file(path, &m, &err);
    ck_assert_int_eq(rc, PC_ERANGE);
    char want[4200];
    snprintf(want, sizeof want, "%s:6: ", path);
    ck_assert_msg(strncmp(err.msg, want, strlen(want)) == 0, "message '%s'", err.msg);
    ck_assert(strstr(err.msg, "2^53") != NULL);
}
END_TEST

/* ---- hand-written buffers ------------------------------------------------ */

#define BANNER "%%MatrixMarket matrix coordinate real general\n"
#define IBANNER "%%MatrixMarket matrix coordinate integer general\n"

/* mm_coo_normalize: an empty matrix needs no arrays; more than 2^16
 * columns or rows (two radix digits, the high one partly used) still sort. */
START_TEST(test_free_zeroes_and_is_safe_twice)
{
    /* mm_coo_free's contract: the arrays freed, the struct zeroed, and a
     * second call (on a freed m) safe */
    mm_coo m;
    ck_assert_int_eq(mm_coo_alloc(&m, 3, 4, 5, NULL), 0);
    long live = pc_alloc_live();
    mm_coo_free(&m);
    ck_assert_int_eq(pc_alloc_live(), live - 3);
    ck_assert(m.row == NULL && m.col == NULL && m.val == NULL);
    ck_assert(m.rows == 0 && m.cols == 0 && m.nnz == 0);
    mm_coo_free(&m);
    ck_assert_int_eq(pc_alloc_live(), live - 3);
    mm_coo_free(NULL);
}
END_TEST

START_TEST(test_normalize_empty_and_wide)
{
    pc_error err;
    mm_coo e = {0};
    e.rows = 3;
    e.cols = 2;
    ck_assert_msg(mm_coo_normalize(&e, &err) == 0, "%s", err.msg);
    /* wide sides of 70000 and of 2^16 + 1 (its second digit has exactly
     * one value past 0: the last index) */
    for (int run = 0; run < 4; run++) {
        int wide_rows = run & 1;
        int32_t wide = run < 2 ? 70000 : 65537;
        /* 5 and 4 in one row differ only in their lowest bit */
        static const int32_t a[] = {1, 0, 1, 0, 0, 1, 1};
        const int32_t b[] = {wide - 1, 65536, 3, 65000, 2, 5, 4};
        mm_coo m = {0};
        m.rows = wide_rows ? wide : 2;
        m.cols = wide_rows ? 2 : wide;
        m.nnz = 7;
        m.row = pc_malloc_array(7, sizeof *m.row);
        m.col = pc_malloc_array(7, sizeof *m.col);
        m.val = pc_malloc_array(7, sizeof *m.val);
        ck_assert(m.row && m.col && m.val);
        for (int k = 0; k < 7; k++) {
            m.row[k] = wide_rows ? b[k] : a[k];
            m.col[k] = wide_rows ? a[k] : b[k];
            m.val[k] = k + 1;
        }
        ck_assert_msg(mm_coo_normalize(&m, &err) == 0, "%s", err.msg);
        ck_assert_int_eq(m.nnz, 7);
        for (int64_t k = 1; k < m.nnz; k++)
            ck_assert_msg(m.row[k - 1] < m.row[k] || (m.row[k - 1] == m.row[k] && m.col[k - 1] < m.col[k]),
                          "wide %s: entry %lld out of order", wide_rows ? "rows" : "columns", (long long)k);
        /* each value travels with its entry (an odd number of passes ends
         * with a copy back: three here, two digits on the wide side) */
        for (int64_t k = 0; k < m.nnz; k++) {
            int j = 0;
            while (j < 7 && !(m.row[k] == (wide_rows ? b[j] : a[j]) &&
                              m.col[k] == (wide_rows ? a[j] : b[j])))
                j++;
            ck_assert_msg(j < 7 && m.val[k] == j + 1, "wide %s: entry %lld lost its value",
                          wide_rows ? "rows" : "columns", (long long)k);
        }
        mm_coo_free(&m);
    }
    /* a count past the limit, or one of the three arrays missing: refused
     * before an entry is read */
    int32_t ri[1] = {0}, ci[1] = {0};
    double vi[1] = {1};
    mm_coo bad = {.rows = 1, .cols = 1, .nnz = MM_MAX_NNZ + 1, .row = ri, .col = ci, .val = vi};
    ck_assert_int_eq(mm_coo_normalize(&bad, &err), PC_EINVAL);
    ck_assert_str_eq(err.msg, "mm_coo_normalize: invalid matrix");
    bad.nnz = 1;
    bad.val = NULL;
    ck_assert_int_eq(mm_coo_normalize(&bad, &err), PC_EINVAL);
    bad.val = vi;
    bad.col = NULL;
    ck_assert_int_eq(mm_coo_normalize(&bad, &err), PC_EINVAL);
    /* an index outside the shape, each bound on each side, named whole */
    bad.col = ci;
    static const int32_t at[4][2] = {{-1, 0}, {1, 0}, {0, -1}, {0, 1}};
    for (int k = 0; k < 4; k++) {
        ri[0] = at[k][0];
        ci[0] = at[k][1];
        ck_assert_int_eq(mm_coo_normalize(&bad, &err), PC_EINVAL);
        char want[96];
        snprintf(want, sizeof want, "mm_coo_normalize: entry 0 at (%d, %d) outside 1 x 1", at[k][0], at[k][1]);
        ck_assert_str_eq(err.msg, want);
    }
}
END_TEST

START_TEST(test_header_errors)
{
    expect_fail_at("", PC_EFORMAT, 1, "empty file: missing %%MatrixMarket banner");
    mm_coo m;
    pc_error err;
    read_text("1 1 0\n", &m, &err);
    ck_assert_str_eq(err.msg, "buf:1: missing %%MatrixMarket banner");
    expect_fail_at("\n" BANNER "1 1 0\n", PC_EFORMAT, 1, "missing %%MatrixMarket banner");
    /* the banner starts with one or two '%', nothing else before the word */
    expect_fail_at("%#MatrixMarket matrix coordinate real general\n1 1 0\n", PC_EFORMAT, 1,
                   "missing %%MatrixMarket banner");
    expect_fail_at("%!MatrixMarket matrix coordinate real general\n1 1 0\n", PC_EFORMAT, 1,
                   "missing %%MatrixMarket banner");
    /* a long bad word is shown cut, with "...", in a bounded message */
    {
        char txt[200], want[100];
        snprintf(txt, sizeof txt, "%%%%MatrixMarket %.60s coordinate real general\n1 1 0\n",
                 "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx");
        snprintf(want, sizeof want, "bad object '%.44s...' (expected", txt + 15);
        ck_assert_int_eq(read_text(txt, &m, &err), PC_EFORMAT);
        ck_assert_msg(strstr(err.msg, want) != NULL, "%s", err.msg);
    }
    expect_fail_at("%%MatrixMarket\n1 1 0\n", PC_EFORMAT, 1, "banner is missing the object word");
    expect_fail_at("%%MatrixMarket matrix coordinate real\n1 1 0\n", PC_EFORMAT, 1,
                   "banner is missing the symmetry word");
    expect_fail_at("%%MatrixMarket matrix coordinate real general extra\n1 1 0\n", PC_EFORMAT, 1,
                   "unexpected words after the banner's symmetry");
    expect_fail_at("%%%MatrixMarket matrix coordinate real general\n1 1 0\n", PC_EFORMAT, 1,
                   "missing %%MatrixMarket banner");
    expect_fail_at("%%MatrixMarket tensor coordinate real general\n1 1 0\n", PC_EFORMAT, 1,
                   "bad object 'tensor' (expected matrix)");
    expect_fail_at("%%MatrixMarket vector coordinate real general\n1 0\n", PC_EUNSUP, 1,
                   "unsupported object 'vector' (parcheck reads matrix)");
    expect_fail_at("%%MatrixMarket matrix sparse real general\n1 1 0\n", PC_EFORMAT, 1,
                   "bad format 'sparse' (expected coordinate or array)");
    expect_fail_at("%%MatrixMarket matrix coordinate float general\n1 1 0\n", PC_EFORMAT, 1,
                   "bad field 'float' (expected real, integer or pattern)");
    expect_fail_at("%%MatrixMarket matrix coordinate complex general\n1 1 0\n", PC_EUNSUP, 1,
                   "unsupported field 'complex' (parcheck reads real, integer or pattern)");
    expect_fail_at("%%MatrixMarket matrix coordinate real upper\n1 1 0\n", PC_EFORMAT, 1,
                   "bad symmetry 'upper' (expected general, symmetric or skew-symmetric)");
    expect_fail_at("%%MatrixMarket matrix coordinate complex hermitian\n1 1 0\n", PC_EUNSUP, 1,
                   "unsupported field 'complex' (parcheck reads real, integer or pattern)");
    expect_fail_at("%%MatrixMarket matrix array pattern general\n1 1\n", PC_EFORMAT, 1,
                   "field 'pattern' is not allowed with format 'array'");
    expect_fail_at("%%MatrixMarket matrix coordinate pattern skew-symmetric\n1 1 0\n", PC_EFORMAT, 1,
                   "field 'pattern' is not allowed with 'skew-symmetric'");
    /* size line */
    expect_fail_at(BANNER, PC_EFORMAT, 1, "missing size line");
    expect_fail_at(BANNER "% c\n\n", PC_EFORMAT, 3, "missing size line");
    expect_fail_at(BANNER "3 3\n", PC_EFORMAT, 2, "size line is missing the entry count");
    expect_fail_at(BANNER "3 3 1 1\n1 1 1\n", PC_EFORMAT, 2, "unexpected text after the size line");
    expect_fail_at(BANNER "-1 3 0\n", PC_EFORMAT, 2, "negative row count '-1' in the size line");
    expect_fail_at(BANNER "3 -1 0\n", PC_EFORMAT, 2, "negative column count '-1' in the size line");
    expect_fail_at(BANNER "3 3 -1\n", PC_EFORMAT, 2, "negative entry count '-1' in the size line");
    expect_fail_at(BANNER "3 3 -99999999999999999999\n", PC_EFORMAT, 2,
                   "negative entry count '-99999999999999999999' in the size line");
    expect_fail_at(BANNER "3x 3 0\n", PC_EFORMAT, 2, "bad row count '3x' in the size line");
    expect_fail_at(BANNER "2147483648 3 0\n", PC_ERANGE, 2,
                   "row count '2147483648' is larger than the supported 2147483647");
    expect_fail_at(BANNER "3 2147483648 0\n", PC_ERANGE, 2,
                   "column count '2147483648' is larger than the supported 2147483647");
    expect_fail_at(BANNER "3 3 2147483648\n", PC_ERANGE, 2,
                   "entry count '2147483648' is larger than the supported 2147483647");
    expect_fail_at(BANNER "99999999999999999999999 3 0\n", PC_ERANGE, 2,
                   "row count '99999999999999999999999' is larger than the supported 2147483647");
    expect_fail_at("%%MatrixMarket matrix coordinate real symmetric\n3 4 0\n", PC_EFORMAT, 2,
                   "a symmetric matrix must be square, not 3 x 4");
    expect_fail_at("%%MatrixMarket matrix coordinate real skew-symmetric\n2 1 0\n", PC_EFORMAT, 2,
                   "a skew-symmetric matrix must be square, not 2 x 1");
    expect_fail_at(BANNER "3 x3 0\n", PC_EFORMAT, 2, "bad column count 'x3' in the size line");
    /* "-0" is zero, not a negative count */
    ck_assert_int_eq(read_text(BANNER "-0 -0 -0\n", &m, &err), PC_OK);
    ck_assert(m.rows == 0 && m.cols == 0 && m.nnz == 0);
    mm_coo_free(&m);
    expect_fail_at("%%MatrixMarket matrix array real general\n46341 46341\n1\n", PC_ERANGE, 2,
                   "dense 46341 x 46341 matrix has more than 2147483647 entries");
    /* skew-symmetric: n (n - 1) entries once expanded, past the limit from
     * n = 46342 (46341 x 46340 fit) */
    expect_fail_at("%%MatrixMarket matrix array real skew-symmetric\n46342 46342\n1\n", PC_ERANGE, 2,
                   "dense 46342 x 46342 matrix has more than 2147483647 entries");
    /* exactly 2^31 - 1 entries is in range: refused only for the values missing */
    expect_fail_at("%%MatrixMarket matrix array real general\n2147483647 1\n1\n", PC_EFORMAT, 3,
                   "too few entries: 1 of the 2147483647 declared (truncated file?)");
    expect_fail_at("%%MatrixMarket matrix array real general\n3 3 9\n", PC_EFORMAT, 2,
                   "unexpected text after the size line");
}
END_TEST

START_TEST(test_entry_errors)
{
    expect_fail_at(BANNER "3 3 1\n0 1 1\n", PC_EFORMAT, 3, "row index 0 outside 1..3");
    expect_fail_at(BANNER "3 3 1\n1 0 1\n", PC_EFORMAT, 3, "column index 0 outside 1..3");
    expect_fail_at(BANNER "3 3 1\n4 1 1\n", PC_EFORMAT, 3, "row index 4 outside 1..3");
    expect_fail_at(BANNER "3 3 1\n1 4 1\n", PC_EFORMAT, 3, "column index 4 outside 1..3");
    expect_fail_at(BANNER "3 3 1\n-1 1 1\n", PC_EFORMAT, 3, "row index -1 outside 1..3");
    expect_fail_at(BANNER "3 3 1\n99999999999999999999999 1 1\n", PC_EFORMAT, 3,
                   "row index 99999999999999999999999 outside 1..3");
    expect_fail_at(BANNER "3 3 1\n1.0 1 1\n", PC_EFORMAT, 3, "bad row index '1.0'");
    expect_fail_at(BANNER "3 3 1\n1 1\n", PC_EFORMAT, 3, "truncated entry: missing value");
    expect_fail_at(BANNER "3 3 1\n1\n", PC_EFORMAT, 3, "truncated entry: missing column index");
    expect_fail_at(BANNER "3 3 1\n1 1 1 1\n", PC_EFORMAT, 3, "unexpected text '1' after the entry");
    expect_fail_at(BANNER "3 3 1\n1 1 1x\n", PC_EFORMAT, 3, "bad real value '1x'");
    expect_fail_at(BANNER "3 3 1\n1 1 1 % comment\n", PC_EFORMAT, 3,
                   "unexpected text '%' after the entry");
    expect_fail_at(BANNER "3 3 2\n1 1 1\n", PC_EFORMAT, 3,
                   "too few entries: 1 of the 2 declared (truncated file?)");
    expect_fail_at(BANNER "3 3 2\n1 1 1\n\n% end\n", PC_EFORMAT, 5,
                   "too few entries: 1 of the 2 declared (truncated file?)");
    expect_fail_at(BANNER "3 3 1\n1 1 1\n2 2 2\n", PC_EFORMAT, 4,
                   "too many entries: data after the 1 declared");
    expect_fail_at(BANNER "3 3 1\n1 1 nan\n", PC_EFORMAT, 3, "NaN value 'nan' is not allowed");
    expect_fail_at(BANNER "3 3 1\n1 1 -NaN\n", PC_EFORMAT, 3, "NaN value '-NaN' is not allowed");
    {
        /* said as NaN, not as a malformed number */
        static const char *const nans[][2] = {{"nan", "'nan'"}, {"+NAN", "'+NAN'"}, {"-nAn", "'-nAn'"},
                                             {"nan(7)", "'nan(7)'"}}; /* C's NAN(chars) too */
        for (size_t k = 0; k < sizeof nans / sizeof *nans; k++) {
            char txt[96], want[64];
            snprintf(txt, sizeof txt, BANNER "3 3 1\n1 1 %s\n", nans[k][0]);
            snprintf(want, sizeof want, "NaN value %s is not allowed", nans[k][1]);
            mm_coo m;
            pc_error err;
            ck_assert_int_eq(read_text(txt, &m, &err), PC_EFORMAT);
            ck_assert_msg(strstr(err.msg, want), "%s: %s", nans[k][0], err.msg);
        }
    }
    expect_fail_at(BANNER "3 3 1\n1 1 1e400\n", PC_ERANGE, 3, "value '1e400' overflows a double");
    expect_fail_at(BANNER "3 3 1\n1 1 -1e400\n", PC_ERANGE, 3, "value '-1e400' overflows a double");
    expect_fail_at(BANNER "3 3 1\n1 1 0x10\n", PC_EFORMAT, 3, "bad real value '0x10'");
    expect_fail_at(BANNER "3 3 1\n1 1 1e\n", PC_EFORMAT, 3, "bad real value '1e'");
    expect_fail_at(BANNER "3 3 1\n1 1 --1\n", PC_EFORMAT, 3, "bad real value '--1'");
    expect_fail_at(BANNER "3 3 1\n1 1 .\n", PC_EFORMAT, 3, "bad real value '.'");
    expect_fail_at(IBANNER "3 3 1\n1 1 1.5\n", PC_EFORMAT, 3, "bad integer value '1.5'");
    expect_fail_at(IBANNER "3 3 1\n1 1 1e3\n", PC_EFORMAT, 3, "bad integer value '1e3'");
    expect_fail_at(IBANNER "3 3 1\n1 1 9007199254740993\n", PC_ERANGE, 3,
                   "integer value '9007199254740993' is past 2^53, not exactly representable as a double");
    expect_fail_at(IBANNER "3 3 1\n1 1 -9007199254740993\n", PC_ERANGE, 3,
                   "integer value '-9007199254740993' is past 2^53, not exactly representable as a double");
    expect_fail_at("%%MatrixMarket matrix coordinate pattern general\n3 3 1\n1 1 1\n", PC_EFORMAT, 3,
                   "unexpected text '1' after the entry");
    expect_fail_at("%%MatrixMarket matrix coordinate real symmetric\n3 3 1\n1 2 1\n", PC_EFORMAT, 3,
                   "entry (1, 2) above the diagonal: a symmetric file stores only the lower triangle");
    expect_fail_at("%%MatrixMarket matrix coordinate real skew-symmetric\n3 3 1\n1 3 1\n",
                   PC_EFORMAT, 3, "entry (1, 3) above the diagonal: a skew-symmetric file stores only the lower triangle");
    expect_fail_at("%%MatrixMarket matrix coordinate real skew-symmetric\n3 3 1\n2 2 1\n",
                   PC_EFORMAT, 3, "non-zero diagonal entry (2, 2) in a skew-symmetric file");
    expect_fail_at("%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n", PC_EFORMAT, 5,
                   "too few entries: 3 of the 4 declared (truncated file?)");
    expect_fail_at("%%MatrixMarket matrix array real general\n1 2\n1\n2\n3\n", PC_EFORMAT, 5,
                   "too many entries: data after the 2 declared");
    expect_fail_at("%%MatrixMarket matrix array real general\n1 2\n1 2\n3\n", PC_EFORMAT, 3,
                   "unexpected text '2' after the value");
    expect_fail_at("%%MatrixMarket matrix array real skew-symmetric\n2 2\n1\n2\n", PC_EFORMAT, 4,
                   "too many entries: data after the 1 declared");
    /* a value longer than any number is refused before it is copied */
    {
        char txt[400];
        int k = snprintf(txt, sizeof txt, BANNER "1 1 1\n1 1 1");
        memset(txt + k, '0', 299);
        strcpy(txt + k + 299, "\n");
        expect_fail_at(txt, PC_EFORMAT, 3,
                       "value '10000000000000000000000000000000000000000000...' is too long");
    }
    /* a NUL byte inside a value */
    static const char nul[] = BANNER "1 1 1\n1 1 1\0002\n";
    mm_coo m;
    pc_error err;
    int rc = mm_read_buffer("buf", nul, sizeof nul - 1, &m, &err);
    ck_assert_int_eq(rc, PC_EFORMAT);
    ck_assert_msg(strncmp(err.msg, "buf:3: ", 7) == 0, "%s", err.msg);
    /* inf + -inf summed as duplicates, located 1-based */
    rc = read_text(BANNER "3 4 3\n1 1 2\n2 3 inf\n2 3 -inf\n", &m, &err);
    ck_assert_int_eq(rc, PC_ERANGE);
    ck_assert_str_eq(err.msg, "buf: duplicate entries at (2, 3) sum to NaN (inf + -inf)");
}
END_TEST

START_TEST(test_permissive_syntax)
{
    mm_coo ref, m;
    expect_ok(BANNER "2 3 3\n1 1 1.5\n2 3 -2\n1 2 4\n", &ref, "reference");
    ck_assert_int_eq(ref.nnz, 3);
    ck_assert(coo_at(&ref, 0, 0) == 1.5 && coo_at(&ref, 0, 1) == 4.0 && coo_at(&ref, 1, 2) == -2.0);
    static const char *const same[] = {
        "%MatrixMarket matrix coordinate real general\n2 3 3\n1 1 1.5\n2 3 -2\n1 2 4\n",
        "   \t%%MatrixMarket matrix coordinate real general\n2 3 3\n1 1 1.5\n2 3 -2\n1 2 4\n",
        "%%MATRIXMARKET MATRIX COORDINATE REAL GENERAL\n2 3 3\n1 1 1.5\n2 3 -2\n1 2 4\n",
        "%%matrixmarket Matrix Coordinate Double General\n2 3 3\n1 1 1.5\n2 3 -2\n1 2 4\n",
        "%%MatrixMarket matrix coordinate real general\r\n% c\r\n2 3 3\r\n1 1 1.5\r\n2 3 -2\r\n1 2 4\r\n",
        "%%MatrixMarket\tmatrix\t\tcoordinate  real   general  \n\n%x\n  2\t3  3 \n\n1\t1\t1.5\n\n\n"
        "  2 3 -2   \n% comment between entries\n1 2 +4e0",
        BANNER "2 3 3\n1 1 15e-1\n2 3 -2.000\n1 2 0.4E+1\n\n\n",
        BANNER "2 3 3\n1 1 1.5\n2 3 -2\n1 2 4", /* no final newline */
        /* a '+' on counts and indices */
        BANNER "+2 3 +3\n+1 1 1.5\n2 +3 -2\n1 2 4\n",
        /* every blank of C's isspace but the newline separates words */
        BANNER "2\v3\f3\n1\v1\v1.5\n2\f3\f-2\n1 \v\f\t\r2 4\n",
    };
    for (size_t k = 0; k < sizeof same / sizeof *same; k++) {
        expect_ok(same[k], &m, same[k]);
        ck_assert_msg(coo_same(&ref, &m), "variant %zu differs", k);
        mm_coo_free(&m);
    }
    mm_coo_free(&ref);

    /* 0x0 and empty shapes; subnormal and underflow values are kept */
    expect_ok(BANNER "0 0 0\n", &m, "0x0");
    ck_assert(m.rows == 0 && m.cols == 0 && m.nnz == 0);
    mm_coo_free(&m);
    expect_ok("%%MatrixMarket matrix array real general\n0 5\n", &m, "0x5 array");
    ck_assert(m.rows == 0 && m.cols == 5 && m.nnz == 0);
    mm_coo_free(&m);
    expect_ok(BANNER "2 2 2\n1 1 4.9406564584124654e-324\n2 2 1e-400\n", &m, "subnormal");
    ck_assert(m.val[0] == 4.9406564584124654e-324 && m.val[1] == 0.0);
    ck_assert_int_eq(m.explicit_zeros, 1);
    mm_coo_free(&m);
    /* integer: 2^53 is exact; -0 stays negative zero */
    expect_ok(IBANNER "2 2 2\n1 1 9007199254740992\n2 2 -0\n", &m, "2^53");
    ck_assert(m.val[0] == 9007199254740992.0 && m.val[1] == 0.0 && signbit(m.val[1]));
    mm_coo_free(&m);
    /* duplicates summed in file order and counted; explicit zeros kept */
    expect_ok(BANNER "2 2 5\n2 1 1\n1 1 0\n2 1 2\n2 1 4\n1 2 0\n", &m, "dups");
    ck_assert_int_eq(m.nnz, 3);
    ck_assert_int_eq(m.duplicates, 2);
    ck_assert_int_eq(m.explicit_zeros, 2);
    ck_assert(coo_at(&m, 1, 0) == 7.0);
    mm_coo_free(&m);
    /* pattern duplicates merge to one 1.0 entry */
    expect_ok("%%MatrixMarket matrix coordinate pattern general\n2 2 2\n1 2\n1 2\n", &m, "pdup");
    ck_assert(m.nnz == 1 && m.val[0] == 1.0 && m.duplicates == 1);
    mm_coo_free(&m);
    /* symmetric duplicates count once per triangle */
    expect_ok("%%MatrixMarket matrix coordinate integer symmetric\n2 2 3\n2 1 1\n2 1 2\n2 2 5\n",
              &m, "sdup");
    ck_assert(m.nnz == 3 && m.duplicates == 2 && coo_at(&m, 0, 1) == 3.0 && coo_at(&m, 1, 0) == 3.0);
    mm_coo_free(&m);
    /* skew: a zero diagonal is allowed (an explicit zero, not mirrored) */
    expect_ok("%%MatrixMarket matrix coordinate real skew-symmetric\n2 2 2\n2 1 3\n1 1 0\n",
              &m, "skew zero diagonal");
    ck_assert(m.nnz == 3 && coo_at(&m, 0, 1) == -3.0 && coo_at(&m, 0, 0) == 0.0);
    mm_coo_free(&m);
    /* skew array: strict lower triangle column by column */
    expect_ok("%%MatrixMarket matrix array real skew-symmetric\n3 3\n1\n2\n3\n", &m, "skew array");
    ck_assert_int_eq(m.nnz, 6);
    ck_assert(coo_at(&m, 1, 0) == 1.0 && coo_at(&m, 2, 0) == 2.0 && coo_at(&m, 2, 1) == 3.0);
    ck_assert(coo_at(&m, 0, 1) == -1.0 && coo_at(&m, 0, 2) == -2.0 && coo_at(&m, 1, 2) == -3.0);
    mm_coo_free(&m);
    /* a hypersparse matrix of the largest shape sorts without a shape-sized
     * allocation */
    pc_alloc_reset_peak();
    long long before = pc_alloc_bytes();
    expect_ok(BANNER "2147483647 2147483647 3\n2147483647 2147483647 1\n1 2147483647 2\n1 1 3\n",
              &m, "largest shape");
    ck_assert_int_eq(m.nnz, 3);
    ck_assert(m.row[0] == 0 && m.col[0] == 0 && m.col[1] == INT32_MAX - 1 && m.row[2] == INT32_MAX - 1);
    ck_assert_msg(pc_alloc_peak() - before < (4 << 20), "peak %lld", pc_alloc_peak() - before);
    mm_coo_free(&m);
}
END_TEST

/* A declared count the buffer cannot hold fails without any allocation; a
 * checking pass still names the line where the entries run out. */
START_TEST(test_huge_declared_fails_fast)
{
    static const char *const cases[] = {
        BANNER "2147483647 2147483647 2147483647\n1 1 1\n",
        "%%MatrixMarket matrix coordinate pattern general\n1000 1000 1000000\n1 1\n",
        BANNER "10 10 2\n1 1 1\n",
        "%%MatrixMarket matrix array real general\n40000 40000\n1\n",
        "%%MatrixMarket matrix array real symmetric\n46000 46000\n1\n",
        "%%MatrixMarket matrix coordinate real symmetric\n2147483647 2147483647 2147483647\n2 1 1\n",
    };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        pc_alloc_reset_peak();
        long long before = pc_alloc_bytes();
        long calls = pc_alloc_calls();
        mm_coo m;
        pc_error err;
        int rc = read_text(cases[k], &m, &err);
        ck_assert_msg(rc == PC_EFORMAT, "case %zu: %s", k, err.msg);
        ck_assert_msg(strncmp(err.msg, "buf:3: too few entries", 22) == 0, "case %zu: %s", k, err.msg);
        ck_assert_msg(pc_alloc_calls() == calls, "case %zu allocated", k);
        ck_assert(pc_alloc_peak() == before);
    }
    /* the smallest buffer that can hold the declared entries is accepted */
    mm_coo m;
    expect_ok("%%MatrixMarket matrix coordinate pattern general\n2 2 2\n1 1\n2 2", &m, "tight");
    mm_coo_free(&m);
    expect_ok(BANNER "2 2 2\n1 1 1\n2 2 2", &m, "tight real");
    mm_coo_free(&m);
    expect_ok("%%MatrixMarket matrix array real general\n2 1\n1\n2", &m, "tight array");
    mm_coo_free(&m);
}
END_TEST

/* ---- round trips ----------------------------------------------------------- */

/* A random matrix (not normalized): duplicates, empty rows, any field. */
static int random_coo(pc_rng *r, mm_coo *m, int field)
{
    int32_t rows = (int32_t)pc_rng_range(r, 0, 40), cols = (int32_t)pc_rng_range(r, 0, 40);
    int64_t nnz = rows && cols ? pc_rng_range(r, 0, 3 * (int64_t)rows) : 0;
    int rc = mm_coo_alloc(m, rows, cols, nnz, NULL);
    if (rc)
        return rc;
    m->field = field;
    int32_t hot = rows ? (int32_t)pc_rng_below(r, (uint64_t)rows) : 0;
    for (int64_t k = 0; k < nnz; k++) {
        /* a third of the entries in one row: a dense row, and duplicates */
        m->row[k] = pc_rng_below(r, 3) == 0 ? hot : (int32_t)pc_rng_below(r, (uint64_t)rows / 2 + 1);
        m->col[k] = (int32_t)pc_rng_below(r, (uint64_t)cols);
        double v;
        if (field == MM_FIELD_PATTERN)
            v = 1.0;
        else if (field == MM_FIELD_INTEGER)
            v = (double)pc_rng_range(r, -1000000, 1000000);
        else {
            switch (pc_rng_below(r, 8)) {
            case 0: v = 0.0; break;
            case 1: v = -0.0; break;
            case 2: v = 4.9406564584124654e-324 * (double)pc_rng_range(r, 1, 1000); break;
            case 3: v = ldexp(pc_rng_uniform(r, -1, 1), (int)pc_rng_range(r, -1000, 1000)); break;
            default: v = pc_rng_uniform(r, -1e3, 1e3); break;
            }
        }
        m->val[k] = v;
        if (m->row[k] >= rows)
            m->row[k] = rows - 1;
    }
    return PC_OK;
}

START_TEST(test_round_trip_random)
{
    pc_rng r;
    int cases = 0;
    for (uint64_t seed = 1; seed <= 300; seed++) {
        pc_rng_seed(&r, seed);
        int field = (int)(seed % 3);
        mm_coo m;
        ck_assert_int_eq(random_coo(&r, &m, field), PC_OK);
        int64_t raw = m.nnz;
        pc_error err;
        ck_assert_int_eq(mm_coo_normalize(&m, &err), PC_OK);
        ck_assert_int_eq(m.nnz + m.duplicates, raw);
        check_normalized(&m, "random");
        char *text = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&text, &len);
        ck_assert(f != NULL);
        ck_assert_int_eq(mm_write_stream(f, &m), PC_OK);
        fclose(f);
        mm_coo back;
        int rc = mm_read_buffer("rt", text, len, &back, &err);
        ck_assert_msg(rc == PC_OK, "seed %llu: %s", (unsigned long long)seed, err.msg);
        ck_assert_msg(coo_same(&m, &back), "seed %llu: round trip differs", (unsigned long long)seed);
        ck_assert_int_eq(back.field, field);
        ck_assert_int_eq(back.duplicates, 0);
        ck_assert_int_eq(back.explicit_zeros, m.explicit_zeros);
        free(text);
        mm_coo_free(&back);
        mm_coo_free(&m);
        cases++;
    }
    ck_assert_int_eq(cases, 300);
}
END_TEST

/* Every real file read, written and read again gives the same arrays. */
START_TEST(test_round_trip_files)
{
    NEED_DATA();
    file_list l;
    list_dir("matrices", &l);
    for (int i = 0; i < l.n; i++) {
        mm_coo m, back;
        pc_error err;
        ck_assert_int_eq(mm_read_file(l.names[i], &m, &err), PC_OK);
        char *text = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&text, &len);
        ck_assert_int_eq(mm_write_stream(f, &m), PC_OK);
        fclose(f);
        int rc = mm_read_buffer("rt", text, len, &back, &err);
        ck_assert_msg(rc == PC_OK, "%s: %s", l.names[i], err.msg);
        ck_assert_msg(coo_same(&m, &back), "%s: round trip differs", l.names[i]);
        free(text);
        mm_coo_free(&m);
        mm_coo_free(&back);
    }
    list_free(&l);
}
END_TEST

START_TEST(test_writer_field_fallback)
{
    /* integer values past 2^53 (a sum of duplicates) are written as real */
    mm_coo m, back;
    ck_assert_int_eq(mm_coo_alloc(&m, 1, 1, 1, NULL), PC_OK);
    m.row[0] = m.col[0] = 0;
    m.val[0] = 18014398509481984.0;
    m.field = MM_FIELD_INTEGER;
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    ck_assert_int_eq(mm_write_stream(f, &m), PC_OK);
    fclose(f);
    ck_assert(strstr(text, "coordinate real general") != NULL);
    pc_error err;
    ck_assert_int_eq(mm_read_buffer("rt", text, len, &back, &err), PC_OK);
    ck_assert(coo_same(&m, &back));
    free(text);
    mm_coo_free(&back);
    mm_coo_free(&m);
    /* mm_write_file reports an unwritable path */
    ck_assert_int_eq(mm_coo_alloc(&m, 0, 0, 0, NULL), PC_OK);
    ck_assert_int_eq(mm_write_file("/nonexistent-dir/x.mtx", &m, &err), PC_EIO);
    ck_assert(strncmp(err.msg, "/nonexistent-dir/x.mtx: ", 24) == 0);
    mm_coo_free(&m);
    /* a write that fails (a full device) is reported, at no line */
    if (access("/dev/full", W_OK) == 0) {
        ck_assert_int_eq(mm_coo_alloc(&m, 2, 2, 1, NULL), PC_OK);
        m.row[0] = m.col[0] = 1;
        m.val[0] = 0.5;
        ck_assert_int_eq(mm_write_file("/dev/full", &m, &err), PC_EIO);
        ck_assert_str_eq(err.msg, "/dev/full: write failed");
        mm_coo_free(&m);
    }
    /* no entries: no arrays needed */
    {
        mm_coo none = {0};
        none.rows = 2, none.cols = 3;
        char *txt = NULL;
        size_t tlen = 0;
        FILE *mf = open_memstream(&txt, &tlen);
        ck_assert_int_eq(mm_write_stream(mf, &none), PC_OK);
        fclose(mf);
        ck_assert_msg(strstr(txt, "general\n2 3 0\n") != NULL, "%s", txt);
        free(txt);
    }
    /* a matrix that is not one is refused by the writer and by normalize */
    mm_coo bad = {0};
    bad.rows = 2, bad.cols = 2, bad.nnz = 1; /* an entry but no arrays */
    char path[] = "/tmp/parcheck-mm-XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    close(fd);
    ck_assert_int_eq(mm_write_file(path, &bad, &err), PC_EINVAL);
    char want[64];
    snprintf(want, sizeof want, "%s: invalid matrix", path);
    ck_assert_str_eq(err.msg, want);
    unlink(path);
    ck_assert_int_eq(mm_coo_normalize(&bad, &err), PC_EINVAL);
    ck_assert_str_eq(err.msg, "mm_coo_normalize: invalid matrix");
    ck_assert_int_eq(mm_coo_alloc(&m, -1, 0, 0, &err), PC_ERANGE);
    ck_assert_int_eq(mm_coo_alloc(&m, 1, 1, MM_MAX_NNZ + 1, &err), PC_ERANGE);
    /* MM_MAX_NNZ itself is in range: only the memory can refuse it (the
     * first allocation made to fail, so that nothing is really taken) */
    pc_alloc_fail_at(1);
    ck_assert_int_eq(mm_coo_alloc(&m, 1, 1, MM_MAX_NNZ, &err), PC_ENOMEM);
    pc_alloc_fail_at(0);
    ck_assert_ptr_null(m.row);
}
END_TEST

/* ---- allocation failures ---------------------------------------------------- */

/* What an operation under the allocation-failure loop reads and makes. */
typedef struct loop_ctx {
    const char *path;  /* op_read: the file */
    const mm_coo *src; /* op_normalize: the entries to copy and normalize */
    mm_coo m;
} loop_ctx;

static int op_read(void *p)
{
    loop_ctx *c = p;
    pc_error err;
    int rc = mm_read_file(c->path, &c->m, &err);
    if (rc == PC_ENOMEM)
        ck_assert_msg(c->m.row == NULL, "output left set after ENOMEM");
    return rc;
}

static void cleanup_ctx(void *p)
{
    mm_coo_free(&((loop_ctx *)p)->m);
}

START_TEST(test_alloc_failures_read)
{
    NEED_DATA();
    static const char *const files[] = {
        "matrices/west0067_jumbled.mtx", "matrices/LFAT5.mtx", "matrices/full_symmetric.mtx",
    };
    for (int f = 0; f < 3; f++) {
        char path[4096];
        snprintf(path, sizeof path, "%s", data_path(files[f]));
        loop_ctx c = { path, NULL, { 0 } };
        long n = pc_test_alloc_loop(op_read, cleanup_ctx, &c, 100);
        ck_assert_msg(n >= 5, "%s: only %ld allocation points", files[f], n);
    }
}
END_TEST

static int op_normalize(void *p)
{
    loop_ctx *c = p;
    pc_error err;
    int rc = mm_coo_alloc(&c->m, c->src->rows, c->src->cols, c->src->nnz, &err);
    if (rc)
        return rc;
    size_t n = (size_t)c->src->nnz;
    memcpy(c->m.row, c->src->row, n * sizeof *c->m.row);
    memcpy(c->m.col, c->src->col, n * sizeof *c->m.col);
    memcpy(c->m.val, c->src->val, n * sizeof *c->m.val);
    rc = mm_coo_normalize(&c->m, &err);
    if (rc)
        mm_coo_free(&c->m);
    return rc;
}

START_TEST(test_alloc_failures_normalize)
{
    pc_rng r;
    pc_rng_seed(&r, 42);
    mm_coo src;
    ck_assert_int_eq(mm_coo_alloc(&src, 50, 70, 400, NULL), PC_OK);
    for (int k = 0; k < 400; k++) {
        src.row[k] = (int32_t)pc_rng_below(&r, 50);
        src.col[k] = (int32_t)pc_rng_below(&r, 70);
        src.val[k] = pc_rng_uniform(&r, -1, 1);
    }
    loop_ctx c = { NULL, &src, { 0 } };
    long n = pc_test_alloc_loop(op_normalize, cleanup_ctx, &c, 100);
    ck_assert_msg(n >= 7, "only %ld allocation points", n);
    /* normalize rejects entries outside the shape */
    pc_error err;
    src.row[3] = 50;
    ck_assert_int_eq(mm_coo_normalize(&src, &err), PC_EINVAL);
    mm_coo_free(&src);
}
END_TEST

/* ---- suite ---------------------------------------------------------------- */

static Suite *suite_mm_reader(void)
{
    Suite *s = suite_create("mm_reader");
    TCase *tc = pc_tcase("data");
    tcase_add_test(tc, test_all_valid_files_accepted);
    tcase_add_test(tc, test_eye3_variants);
    tcase_add_test(tc, test_spot_checks);
    tcase_add_test(tc, test_symmetry_pairs);
    tcase_add_test(tc, test_all_invalid_files_refused);
    tcase_add_test(tc, test_edge_files);
    tcase_add_test(tc, test_round_trip_files);
    suite_add_tcase(s, tc);
    tc = pc_tcase("buffers");
    tcase_add_test(tc, test_header_errors);
    tcase_add_test(tc, test_normalize_empty_and_wide);
    tcase_add_test(tc, test_free_zeroes_and_is_safe_twice);
    tcase_add_test(tc, test_entry_errors);
    tcase_add_test(tc, test_permissive_syntax);
    tcase_add_test(tc, test_huge_declared_fails_fast);
    suite_add_tcase(s, tc);
    tc = pc_tcase("round_trip");
    tcase_add_test(tc, test_round_trip_random);
    tcase_add_test(tc, test_writer_field_fallback);
    suite_add_tcase(s, tc);
    tc = pc_tcase("alloc_failures");
    tcase_add_test(tc, test_alloc_failures_read);
    tcase_add_test(tc, test_alloc_failures_normalize);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return pc_test_run(suite_mm_reader());
}
