/* pc_error.h - return codes and "file:line: message" error reports.
 *
 * Every fallible function in parcheck returns an int: 0 on success, a
 * negative PC_E* code on failure, and (when given a non-NULL pc_error)
 * fills a human readable message of the form "file:line: what is wrong". */
#ifndef PC_ERROR_H
#define PC_ERROR_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

enum {
    PC_OK = 0,
    PC_EINVAL = -1,   /* bad argument (caller's fault) */
    PC_ENOMEM = -2,   /* allocation failed (real or injected) */
    PC_EIO = -3,      /* file could not be opened or read */
    PC_EFORMAT = -4,  /* malformed input */
    PC_ERANGE = -5,   /* size or value outside what we compute with */
    PC_EUNSUP = -6,   /* valid input outside what parcheck supports */
    PC_EUNAVAIL = -7, /* implementation cannot run here (no device...) */
    PC_EDEVICE = -8,  /* device / runtime failure (CUDA, OpenCL, MPI) */
    PC_EVERIFY = -9   /* a result failed validation */
};

#define PC_ERROR_MSG_MAX 512

typedef struct pc_error {
    int code;
    char msg[PC_ERROR_MSG_MAX];
} pc_error;

/* Clears err (safe on NULL). */
void pc_error_clear(pc_error *err);

/* Records code and "file:line: message" into err (line <= 0 omits the line,
 * file NULL omits the location). Returns code so callers can
 * `return pc_error_set(...)`. Safe on err == NULL. */
int pc_error_set(pc_error *err, int code, const char *file, long line,
                 const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/* Records an allocation failure ("out of memory while ..."). */
int pc_error_nomem(pc_error *err, const char *what);

/* Short name of a return code ("ENOMEM"...). */
const char *pc_error_name(int code);

#ifdef __cplusplus
}
#endif

#endif
