/* api_report.c - the public report (parcheck.h): life cycle and getters,
 * plus the version and error-name functions. The getters read the
 * pc_result that check_fill.h filled; every text leaves through a caller
 * buffer (A3). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "api_priv.h"
#include "pc_alloc.h"
#include "pc_version.h"

/* The public codes are the internal ones (A1): a plugin, the library and
 * the command line all speak the same numbers. */
#define SAME_CODE(name) ((int)PARCHECK_##name == (int)PC_##name)
_Static_assert(SAME_CODE(OK) && SAME_CODE(EINVAL) && SAME_CODE(ENOMEM) && SAME_CODE(EIO) &&
                   SAME_CODE(EFORMAT) && SAME_CODE(ERANGE) && SAME_CODE(EUNSUP) &&
                   SAME_CODE(EUNAVAIL) && SAME_CODE(EDEVICE) && SAME_CODE(EVERIFY),
               "parcheck.h return codes differ from pc_error.h");

unsigned parcheck_version_number(void)
{
    return PARCHECK_VERSION_NUMBER;
}

const char *parcheck_version_string(void)
{
    return PC_VERSION;
}

const char *parcheck_error_name(int code)
{
    return pc_error_name(code);
}

parcheck_report *parcheck_report_new(void)
{
    parcheck_report *rep = pc_malloc(sizeof *rep);
    if (rep)
        api_report_clear(rep);
    return rep;
}

void parcheck_report_free(parcheck_report *rep)
{
    pc_free(rep);
}

void api_report_clear(parcheck_report *rep)
{
    if (!rep)
        return;
    rep->judged = 0;
    pc_result_init(&rep->r, "api");
}

/* Copies s into buf[0..len) (A3). */
static int put_text(char *buf, size_t len, const char *s)
{
    if (!buf)
        return len ? PARCHECK_EINVAL : (*s ? PARCHECK_ERANGE : PARCHECK_OK);
    if (!len)
        return *s ? PARCHECK_ERANGE : PARCHECK_OK;
    size_t n = strlen(s);
    size_t k = n < len ? n : len - 1;
    memcpy(buf, s, k);
    buf[k] = '\0';
    return k == n ? PARCHECK_OK : PARCHECK_ERANGE;
}

static void vput(char *msg, size_t len, const char *func, const char *fmt, va_list ap)
{
    if (!msg || !len)
        return;
    int k = snprintf(msg, len, "%s: ", func);
    if (k >= 0 && (size_t)k < len)
        vsnprintf(msg + k, len - (size_t)k, fmt, ap);
}

int api_fail(char *msg, size_t len, int code, const char *func, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vput(msg, len, func, fmt, ap);
    va_end(ap);
    return code;
}

int api_fail_err(char *msg, size_t len, int code, const char *func, const pc_error *err,
                 const char *internal_prefix)
{
    const char *text = err->msg[0] ? err->msg : pc_error_name(code);
    size_t k = internal_prefix ? strlen(internal_prefix) : 0;
    if (k && strncmp(text, internal_prefix, k) == 0)
        text = text + k;
    return api_fail(msg, len, code, func, "%s", text);
}

int parcheck_report_status(const parcheck_report *rep)
{
    if (!rep || !rep->judged)
        return PARCHECK_NONE;
    return rep->r.status == PC_STATUS_PASS ? PARCHECK_PASS : PARCHECK_FAIL;
}

int parcheck_report_why(const parcheck_report *rep, char *buf, size_t len)
{
    if (!rep)
        return PARCHECK_EINVAL;
    return put_text(buf, len, rep->judged ? rep->r.reason : "");
}

int parcheck_report_summary(const parcheck_report *rep, char *buf, size_t len)
{
    if (!rep)
        return PARCHECK_EINVAL;
    return put_text(buf, len, rep->judged ? rep->r.where_summary : "");
}

int parcheck_report_metric(const parcheck_report *rep, const char *name, double *value)
{
    if (!rep || !name || !value || !rep->judged)
        return PARCHECK_EINVAL;
    const pc_kv *kv = pc_kv_find(&rep->r.metrics, name);
    if (!kv || kv->kind == PC_VALUE_STR)
        return PARCHECK_EINVAL;
    *value = kv->num;
    return PARCHECK_OK;
}

int parcheck_report_metric_count(const parcheck_report *rep)
{
    return rep && rep->judged ? rep->r.metrics.n : 0;
}

const char *parcheck_report_metric_name(const parcheck_report *rep, int i)
{
    if (i < 0 || i >= parcheck_report_metric_count(rep))
        return NULL;
    return rep->r.metrics.kv[i].key;
}

int parcheck_report_where_count(const parcheck_report *rep)
{
    return rep && rep->judged ? rep->r.nwhere : 0;
}

/* The where record i, or NULL. */
static const pc_kvlist *where_at(const parcheck_report *rep, int i)
{
    if (i < 0 || i >= parcheck_report_where_count(rep))
        return NULL;
    return &rep->r.where[i];
}

/* Field key of where record i, or NULL. */
static const pc_kv *where_field(const parcheck_report *rep, int i, const char *key)
{
    const pc_kvlist *w = where_at(rep, i);
    return w && key ? pc_kv_find(w, key) : NULL;
}

int parcheck_report_where_int(const parcheck_report *rep, int i, const char *key,
                              int64_t *value)
{
    const pc_kv *kv = where_field(rep, i, key);
    if (!kv || !value || (kv->kind != PC_VALUE_INT && kv->kind != PC_VALUE_BOOL))
        return PARCHECK_EINVAL;
    *value = kv->i;
    return PARCHECK_OK;
}

int parcheck_report_where_num(const parcheck_report *rep, int i, const char *key,
                              double *value)
{
    const pc_kv *kv = where_field(rep, i, key);
    if (!kv || !value || kv->kind == PC_VALUE_STR)
        return PARCHECK_EINVAL;
    *value = kv->num;
    return PARCHECK_OK;
}

/* One field's value as text. */
static void kv_text(const pc_kv *kv, char *out, size_t len)
{
    switch (kv->kind) {
    case PC_VALUE_INT: snprintf(out, len, "%lld", kv->i); break;
    case PC_VALUE_BOOL: snprintf(out, len, "%s", kv->i ? "true" : "false"); break;
    case PC_VALUE_NUM: snprintf(out, len, "%.17g", kv->num); break;
    default: snprintf(out, len, "%s", kv->str); break;
    }
}

int parcheck_report_where_str(const parcheck_report *rep, int i, const char *key, char *buf,
                              size_t len)
{
    const pc_kv *kv = where_field(rep, i, key);
    if (!kv)
        return PARCHECK_EINVAL;
    char text[sizeof kv->str];
    kv_text(kv, text, sizeof text);
    return put_text(buf, len, text);
}

int parcheck_report_where_line(const parcheck_report *rep, int i, char *buf, size_t len)
{
    const pc_kvlist *w = where_at(rep, i);
    if (!w)
        return PARCHECK_EINVAL;
    /* every field fits: PC_KV_MAX keys of at most 31 + 159 characters */
    char line[PC_KV_MAX * (sizeof w->kv[0].key + sizeof w->kv[0].str + 2)];
    size_t used = 0;
    line[0] = '\0';
    for (int k = 0; k < w->n; k++) {
        char text[sizeof w->kv[0].str];
        kv_text(&w->kv[k], text, sizeof text);
        used += (size_t)snprintf(line + used, sizeof line - used, "%s%s=%s", k ? " " : "",
                                 w->kv[k].key, text);
    }
    return put_text(buf, len, line);
}
