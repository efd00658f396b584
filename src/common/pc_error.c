#include "pc_error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void pc_error_clear(pc_error *err)
{
    if (err) {
        err->code = PC_OK;
        err->msg[0] = '\0';
    }
}

int pc_error_set(pc_error *err, int code, const char *file, long line,
                 const char *fmt, ...)
{
    if (!err)
        return code;
    err->code = code;
    size_t used = 0;
    int n = 0;
    if (file && line > 0)
        n = snprintf(err->msg, sizeof err->msg, "%s:%ld: ", file, line);
    else if (file)
        n = snprintf(err->msg, sizeof err->msg, "%s: ", file);
    if (n > 0)
        used = (size_t)n < sizeof err->msg ? (size_t)n : sizeof err->msg - 1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg + used, sizeof err->msg - used, fmt, ap);
    va_end(ap);
    return code;
}

int pc_error_nomem(pc_error *err, const char *what)
{
    return pc_error_set(err, PC_ENOMEM, NULL, 0, "out of memory while %s",
                        what ? what : "allocating");
}

const char *pc_error_name(int code)
{
    switch (code) {
    case PC_OK: return "OK";
    case PC_EINVAL: return "EINVAL";
    case PC_ENOMEM: return "ENOMEM";
    case PC_EIO: return "EIO";
    case PC_EFORMAT: return "EFORMAT";
    case PC_ERANGE: return "ERANGE";
    case PC_EUNSUP: return "EUNSUP";
    case PC_EUNAVAIL: return "EUNAVAIL";
    case PC_EDEVICE: return "EDEVICE";
    case PC_EVERIFY: return "EVERIFY";
    default: return "E?";
    }
}
