/* pc_npy.h - NumPy .npy files: header parsing and writing, a file I/O
 * helper that oracles may share (plain data in, plain data out).
 *
 * Format (numpy.lib.format, versions 1.0, 2.0 and 3.0): the magic
 * "\x93NUMPY", a major and minor version byte, the header length (2 bytes
 * little-endian in 1.0, 4 bytes in 2.0 and 3.0), then a Python dict literal
 * with exactly the keys 'descr', 'fortran_order' and 'shape', padded with
 * spaces and ended by '\n'; the array data follows, nothing after it.
 * Only little-endian dtypes of the numeric types parcheck reads are
 * accepted; everything is checked against the file's size before a caller
 * sizes any allocation from it. */
#ifndef PC_NPY_H
#define PC_NPY_H

#include <stddef.h>
#include <stdint.h>

#include "pc_error.h"

#ifdef __cplusplus
extern "C" {
#endif

enum pc_dtype {
    PC_DTYPE_F8, /* '<f8' double */
    PC_DTYPE_F4, /* '<f4' float */
    PC_DTYPE_I4, /* '<i4' int32 */
    PC_DTYPE_U4, /* '<u4' uint32 */
    PC_DTYPE_I8, /* '<i8' int64 */
    PC_DTYPE_U8  /* '<u8' uint64 */
};

/* The header's content. A 1-D array of length L has ndim 1 and
 * shape {L, 1}; a 0-D array is refused. */
typedef struct pc_npy_info {
    int dtype;            /* enum pc_dtype */
    int fortran_order;    /* 1: column-major data */
    int ndim;             /* 1 or 2 */
    int64_t shape[2];
    size_t item_bytes;    /* 4 or 8 */
    size_t data_offset;   /* the data starts at this byte of the file */
    size_t data_bytes;    /* shape[0] * shape[1] * item_bytes */
} pc_npy_info;

/* 1 when buf[0..len) starts with the .npy magic. */
int pc_npy_is_npy(const unsigned char *buf, size_t len);

/* Parses the header of an .npy file whose first len bytes are buf and
 * whose whole size is file_bytes (len may be shorter than file_bytes when
 * only the start was read; the header must be inside buf). Checks that
 * the data the shape describes fills the rest of the file exactly.
 * path names the file in messages.
 * Returns PC_OK, PC_EFORMAT (not a valid .npy header, or a size that does
 * not match the shape), PC_EUNSUP (big-endian, another dtype, more than 2
 * dimensions) or PC_ERANGE (a shape whose byte count overflows). */
int pc_npy_parse(const unsigned char *buf, size_t len, size_t file_bytes, const char *path,
                 pc_npy_info *info, pc_error *err);

/* Writes a version 1.0 .npy file: dtype (enum pc_dtype), ndim 1 or 2
 * with shape[0..ndim), data in C order (fortran_order 0) or column-major
 * (1), shape[0] * shape[1] * itemsize bytes. Returns PC_OK, PC_EINVAL or
 * PC_EIO. */
int pc_npy_write(const char *path, int dtype, int fortran_order, int ndim, const int64_t *shape,
                 const void *data, pc_error *err);

/* "<f8", "<f4", ... */
const char *pc_dtype_name(int dtype);

/* Bytes of one element of dtype (4 or 8). */
size_t pc_dtype_size(int dtype);

#ifdef __cplusplus
}
#endif

#endif
