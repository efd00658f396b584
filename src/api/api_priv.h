/* api_priv.h - what the files of the public interface (parcheck.h) share:
 * the report's layout and the handing-back of error messages. Not
 * installed: the report stays opaque to users. */
#ifndef API_PRIV_H
#define API_PRIV_H

#include <stddef.h>

#include "parcheck/parcheck.h"
#include "pc_error.h"
#include "pc_result.h"

/* The report is a pc_result (status, reason, metrics, where, summary)
 * filled by check_fill.h exactly as a check verb fills its JSON result,
 * so both sides give the same names and records (A5). */
struct parcheck_report {
    int judged;       /* 1 when r holds a verdict; 0: PARCHECK_NONE */
    pc_result r;
};

/* Empties rep (status PARCHECK_NONE, no metric, no where record): what an
 * error leaves behind (A2). Safe on NULL. */
void api_report_clear(parcheck_report *rep);

/* Writes "func: what" into msg[0..len) (A3; msg NULL or len 0: nothing)
 * and returns code. */
int api_fail(char *msg, size_t len, int code, const char *func, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/* Hands err's message back as "func: message" (an internal prefix such as
 * "spmm_check: " dropped) and returns code. */
int api_fail_err(char *msg, size_t len, int code, const char *func, const pc_error *err,
                 const char *internal_prefix);

#endif
