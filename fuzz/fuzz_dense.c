/* fuzz_dense.c - fuzz target "dense": the .npy header parser (pc_npy.c)
 * and the dense X / Y reader (mm_dense.c) of `parcheck spmm check`.
 *
 * Properties checked on every input (a violation traps):
 *  - the reader either refuses with a known PC_E* code, a message naming
 *    the input, and nothing left allocated, or returns a rows x cols array
 *    of '<f8' or '<f4' whose data fills exactly rows * cols items;
 *  - asking for another shape (one more row, or one more column) is
 *    refused with PC_EFORMAT before any allocation;
 *  - written back with pc_npy_write (same dtype and order) and read again
 *    with the exact shape, it gives the same shape, order and bytes (NaN
 *    payloads included);
 *  - everything taken from pc_alloc is given back.
 * Deterministic; inputs over FUZZ_DENSE_MAX bytes are rejected unread. The
 * write-back goes to a file named after the process id under $TMPDIR. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mm_dense.h"
#include "pc_alloc.h"
#include "pc_error.h"
#include "pc_npy.h"

#define FUZZ_DENSE_MAX (64 * 1024)

#define FUZZ_NAME "fuzz_dense"
#include "fuzz_check.h"

static const char *scratch_path(void)
{
    static char path[512];
    if (!path[0]) {
        const char *dir = getenv("TMPDIR");
        snprintf(path, sizeof path, "%s/fuzz_dense_%ld.npy", dir && *dir ? dir : "/tmp",
                 (long)getpid());
    }
    return path;
}

/* The same file refused when asked for a shape it does not have. */
static void check_other_shape(const uint8_t *data, size_t size, int64_t rows, int64_t cols)
{
    mm_dense_want w = {rows, cols, 1, "Y", NULL};
    mm_dense d;
    pc_error err;
    pc_error_clear(&err);
    long calls = pc_alloc_calls();
    int rc = mm_dense_read_buffer("fuzz", data, size, &w, &d, &err);
    FUZZ_CHECK(rc == PC_EFORMAT, "shape (%lld, %lld) wanted: code %d (%s)", (long long)rows,
               (long long)cols, rc, err.msg);
    FUZZ_CHECK(pc_alloc_calls() == calls && d.data == NULL, "allocated before refusing a shape");
}

static void check_write_back(const mm_dense *d)
{
    int64_t shape[2] = {d->rows, d->cols};
    pc_error err;
    pc_error_clear(&err);
    const char *path = scratch_path();
    int rc = pc_npy_write(path, d->dtype, d->col_major, 2, shape, d->data, &err);
    FUZZ_CHECK(rc == PC_OK, "pc_npy_write: %s", err.msg);
    mm_dense_want w = {d->rows, d->cols, 1, "Y", NULL};
    mm_dense back;
    rc = mm_dense_read_file(path, &w, &back, &err);
    unlink(path);
    FUZZ_CHECK(rc == PC_OK, "reading the written array back: %s", err.msg);
    FUZZ_CHECK(back.rows == d->rows && back.cols == d->cols && back.dtype == d->dtype,
               "(%lld, %lld) %d became (%lld, %lld) %d", (long long)d->rows, (long long)d->cols,
               d->dtype, (long long)back.rows, (long long)back.cols, back.dtype);
    FUZZ_CHECK(back.col_major == d->col_major || d->rows <= 1 || d->cols <= 1,
               "order %d became %d", d->col_major, back.col_major);
    size_t bytes = (size_t)d->rows * (size_t)d->cols * pc_dtype_size(d->dtype);
    FUZZ_CHECK(bytes == 0 || memcmp(back.data, d->data, bytes) == 0, "data changed on write-back");
    mm_dense_free(&back);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > FUZZ_DENSE_MAX)
        return 0;
    long live = pc_alloc_live();
    mm_dense_want any = {-1, -1, 1, "Y", NULL};
    mm_dense d;
    pc_error err;
    pc_error_clear(&err);
    int rc = mm_dense_read_buffer("fuzz", data, size, &any, &d, &err);
    if (rc != PC_OK) {
        FUZZ_CHECK(rc == PC_EFORMAT || rc == PC_EUNSUP || rc == PC_ERANGE || rc == PC_ENOMEM,
                   "reader returned unexpected code %d (%s)", rc, err.msg);
        FUZZ_CHECK(err.code == rc && (rc == PC_ENOMEM || strncmp(err.msg, "fuzz", 4) == 0),
                   "error %d without a message naming the input: '%s'", rc, err.msg);
        FUZZ_CHECK(d.data == NULL && pc_alloc_live() == live, "reader leaked on error");
        return 0;
    }
    FUZZ_CHECK(d.rows >= 0 && d.cols >= 0 && d.data != NULL, "bad result");
    FUZZ_CHECK(d.dtype == PC_DTYPE_F8 || d.dtype == PC_DTYPE_F4, "dtype %d", d.dtype);
    /* an .npy item takes its size, a Matrix Market value at least "v\n" */
    uint64_t items = (uint64_t)d.rows * (uint64_t)d.cols;
    FUZZ_CHECK(items * (d.from_npy ? pc_dtype_size(d.dtype) : 2) <= size + 1,
               "(%lld, %lld) items from %zu bytes", (long long)d.rows, (long long)d.cols, size);
    if (d.rows < INT64_MAX)
        check_other_shape(data, size, d.rows + 1, -1);
    if (d.cols < INT64_MAX)
        check_other_shape(data, size, d.rows, d.cols + 1);
    check_write_back(&d);
    mm_dense_free(&d);
    FUZZ_CHECK(pc_alloc_live() == live, "%ld allocations leaked", pc_alloc_live() - live);
    return 0;
}
