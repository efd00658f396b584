/* pc_file.h - whole-file reading, the I/O helper oracles may share. */
#ifndef PC_FILE_H
#define PC_FILE_H

#include <stddef.h>

#include "pc_error.h"

/* Reads the whole file at path into a new buffer (*data, NUL-terminated one
 * byte past *size, freed with pc_free). Files larger than max_bytes are
 * refused with PC_ERANGE before anything is allocated. */
int pc_file_read_all(const char *path, size_t max_bytes, unsigned char **data,
                     size_t *size, pc_error *err);

/* Writes n bytes to path (created or truncated). */
int pc_file_write_all(const char *path, const void *data, size_t n, pc_error *err);

/* A read-only view of a whole file: memory-mapped, so that a file larger
 * than memory is paged in on demand rather than copied. An empty file maps
 * to a valid pointer of size 0. */
typedef struct pc_file_map {
    const unsigned char *data;
    size_t size;
    void *base;           /* what munmap releases (NULL for an empty file) */
} pc_file_map;

/* Maps path read-only. Returns 0, PC_EIO (cannot open, not a regular file,
 * mmap failed) with err set; *m is then zeroed. */
int pc_file_map_open(const char *path, pc_file_map *m, pc_error *err);

/* Unmaps m and zeroes it (safe on a zeroed map). */
void pc_file_map_close(pc_file_map *m);

#endif
