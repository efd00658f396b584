/* mm.h - Matrix Market reader and writer producing a coordinate (COO) matrix.
 *
 * Policy (docs/README-mm.md): object `matrix` only; formats coordinate
 * and array; fields real (also spelled `double`), integer and pattern
 * (pattern entries are 1.0); symmetries general, symmetric and
 * skew-symmetric, expanded on read. Symmetric and skew files store the lower
 * triangle only: an entry above the diagonal is an error.
 * complex/hermitian fields and `vector` objects are refused as unsupported.
 * Duplicate (i,j) entries are summed (pattern: merged) and counted; explicit
 * zeros are kept. Values: finite decimals, or inf/-inf as GraphBLAS writes
 * them; NaN and overflow (1e400) are refused. Integer values must be
 * exactly representable in double (|v| <= 2^53).
 * Sizes are checked before anything is allocated: rows, cols < 2^31 and at
 * most 2^31 - 1 stored entries after expansion (the kernels' int32 index
 * range), and a declared entry count no larger than the file can hold. */
#ifndef MM_H
#define MM_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "pc_error.h"

#ifdef __cplusplus
extern "C" {
#endif

enum mm_field { MM_FIELD_REAL, MM_FIELD_INTEGER, MM_FIELD_PATTERN };
enum mm_symmetry { MM_GENERAL, MM_SYMMETRIC, MM_SKEW_SYMMETRIC };
enum mm_format { MM_COORDINATE, MM_ARRAY };

/* Largest number of stored entries a matrix may have (int32 row pointers). */
#define MM_MAX_NNZ ((int64_t)INT32_MAX)

/* A sparse matrix as a list of entries: plain data, shared with oracles.
 * After mm_coo_normalize (and so after every read): 0-based indices,
 * sorted by (row, col), each (row, col) at most once. */
typedef struct mm_coo {
    int32_t rows, cols;
    int64_t nnz;
    int32_t *row;
    int32_t *col;
    double *val;
    int field;             /* enum mm_field of the source */
    int symmetry;          /* enum mm_symmetry of the source */
    int format;            /* enum mm_format of the source */
    int64_t declared;      /* entries declared by the size line */
    int64_t duplicates;    /* entries merged into an earlier equal (i,j) */
    int64_t explicit_zeros;/* stored entries whose value is 0 */
} mm_coo;

/* Allocates arrays for nnz entries of a rows x cols matrix (nnz field set,
 * contents uninitialised). Returns 0, PC_ERANGE or PC_ENOMEM. */
int mm_coo_alloc(mm_coo *m, int32_t rows, int32_t cols, int64_t nnz, pc_error *err);

/* Frees the arrays of m and zeroes it; safe on a zeroed or freed m. */
void mm_coo_free(mm_coo *m);

/* Sorts entries by (row, col) in O(nnz + rows + cols) (stable radix sort;
 * a shape much wider than nnz costs O(nnz + 2^16) instead), sums duplicates
 * in their order (merges them when m->field is pattern), adds their number
 * to m->duplicates and recounts m->explicit_zeros. Returns 0, PC_EINVAL
 * (an index outside the shape) or PC_ENOMEM (m unchanged). */
int mm_coo_normalize(mm_coo *m, pc_error *err);

/* Reads a Matrix Market file into *out (normalized; freed with
 * mm_coo_free). Errors are "path:line: what is wrong" with PC_EIO,
 * PC_EFORMAT, PC_ERANGE, PC_EUNSUP or PC_ENOMEM; *out is then zeroed and
 * owns nothing. */
int mm_read_file(const char *path, mm_coo *out, pc_error *err);

/* Reads Matrix Market text from buf[0..len) (need not be NUL-terminated,
 * may hold NUL bytes); name is used in messages. Same contract otherwise. */
int mm_read_buffer(const char *name, const char *buf, size_t len, mm_coo *out,
                   pc_error *err);

/* Writes m as "matrix coordinate <field> general" (values with %.17g, so a
 * file read back gives the same doubles). The field is m->field unless the
 * values do not fit it (pattern with a value other than 1.0, integer with a
 * non-integer or |v| > 2^53): then real. mm_write_stream returns 0,
 * PC_EINVAL or PC_EIO; mm_write_file also fills err. */
int mm_write_stream(FILE *f, const mm_coo *m);
int mm_write_file(const char *path, const mm_coo *m, pc_error *err);

#ifdef __cplusplus
}
#endif

#endif
