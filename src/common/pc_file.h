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

#endif
