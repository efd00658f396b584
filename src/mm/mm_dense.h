/* mm_dense.h - dense X and Y for `parcheck spmm check`: NumPy .npy files
 * and Matrix Market `array` files, read into one plain struct.
 *
 * .npy: '<f8' (and '<f4' where the caller allows it), C or Fortran order,
 * 2-D (rows, cols), or 1-D (rows,) read as one column. Matrix Market:
 * `matrix array real|double|integer general`, values one per line in
 * column-major order; nan, inf, -inf (any case) are accepted so that a
 * wrong Y is judged wrong rather than refused; integer values must be
 * exact in double (|v| <= 2^53). CRLF line ends are accepted, blank and
 * '%' lines skipped.
 * The shape and dtype are checked against what the caller expects before
 * anything is allocated; errors are "file[:line]: what is wrong". */
#ifndef MM_DENSE_H
#define MM_DENSE_H

#include <stddef.h>
#include <stdint.h>

#include "pc_error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A dense rows x cols matrix. Entry (r, c) is data[r*cols + c] (row-major)
 * or data[r + c*rows] (col_major). */
typedef struct mm_dense {
    int64_t rows, cols;
    int dtype;          /* PC_DTYPE_F8 or PC_DTYPE_F4 (enum pc_dtype) */
    int col_major;      /* 1: Fortran order (every Matrix Market array) */
    int from_npy;       /* 1: read from .npy, 0: from Matrix Market */
    void *data;         /* rows * cols items, owned (pc_free through mm_dense_free) */
} mm_dense;

/* What the caller expects. */
typedef struct mm_dense_want {
    int64_t rows;       /* required row count, or -1: any */
    int64_t cols;       /* required column count, or -1: any */
    int allow_f4;       /* 1: '<f4' accepted besides '<f8' */
    const char *what;   /* "X" or "Y", named in messages */
    const char *why_shape; /* how the shape was derived, for messages ("A has 12 rows and K = 4") or NULL */
} mm_dense_want;

/* Reads path (mapped read-only, not copied whole) into *out.
 * Returns PC_OK, PC_EIO (cannot open), PC_EFORMAT (not .npy nor Matrix
 * Market array, malformed, truncated or with data past the end, or a shape
 * other than the one wanted), PC_EUNSUP (a dtype or format variant not
 * read), PC_ERANGE (too large) or PC_ENOMEM; on error *out owns nothing. */
int mm_dense_read_file(const char *path, const mm_dense_want *want, mm_dense *out,
                       pc_error *err);

/* The same on buf[0..len) (need not be NUL-terminated); name in messages. */
int mm_dense_read_buffer(const char *name, const unsigned char *buf, size_t len,
                         const mm_dense_want *want, mm_dense *out, pc_error *err);

/* Frees out's data and zeroes it; safe on a zeroed struct. */
void mm_dense_free(mm_dense *d);

#ifdef __cplusplus
}
#endif

#endif
