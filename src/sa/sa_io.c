/* sa_io.c - reading texts and writing int32 arrays for the sa command. */
#include <stdio.h>
#include <string.h>

#include "pc_alloc.h"
#include "pc_file.h"
#include "sa.h"

int sa_read_text(const char *path, uint8_t **T, int32_t *n, pc_error *err)
{
    unsigned char *d = NULL;
    size_t size = 0;
    *T = NULL;
    *n = 0;
    int rc = pc_file_read_all(path, SA_MAX_N, &d, &size, err);
    if (rc == PC_ERANGE)
        return pc_error_set(err, PC_ERANGE, path, 0,
                            "larger than %zu bytes: suffix arrays here use 32-bit indices",
                            SA_MAX_N);
    if (rc != PC_OK)
        return rc;
    *T = d;
    *n = (int32_t)size;
    return PC_OK;
}

int sa_write_int32(const char *path, const int32_t *v, int32_t n, pc_error *err)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return pc_error_set(err, PC_EIO, path, 0, "cannot open for writing");
    unsigned char buf[4096];
    int bad = 0;
    for (int32_t i = 0; i < n && !bad;) {
        size_t k = 0;
        for (; k + 4 <= sizeof buf && i < n; i++, k += 4) {
            uint32_t x = (uint32_t)v[i];
            buf[k] = (unsigned char)x;
            buf[k + 1] = (unsigned char)(x >> 8);
            buf[k + 2] = (unsigned char)(x >> 16);
            buf[k + 3] = (unsigned char)(x >> 24);
        }
        bad = fwrite(buf, 1, k, f) != k;
    }
    if (fclose(f) != 0)
        bad = 1;
    return bad ? pc_error_set(err, PC_EIO, path, 0, "write failed") : PC_OK;
}
