#include "pc_json.h"

#include <math.h>

void pc_json_init(pc_json *j, FILE *f)
{
    j->f = f;
    j->depth = 0;
    j->count[0] = 0;
    j->after_key = 0;
}

/* Emits the separator that must precede a value at the current level. */
static void json_before_value(pc_json *j)
{
    if (j->after_key) {
        j->after_key = 0;
        return;
    }
    if (j->count[j->depth]++ > 0)
        fputc(',', j->f);
}

static void json_open(pc_json *j, int c)
{
    json_before_value(j);
    fputc(c, j->f);
    if (j->depth + 1 < PC_JSON_MAX_DEPTH)
        j->depth++;
    j->count[j->depth] = 0;
}

static void json_close(pc_json *j, int c)
{
    if (j->depth > 0)
        j->depth--;
    fputc(c, j->f);
    if (j->depth == 0)
        fputc('\n', j->f);
}

void pc_json_begin_object(pc_json *j) { json_open(j, '{'); }
void pc_json_end_object(pc_json *j) { json_close(j, '}'); }
void pc_json_begin_array(pc_json *j) { json_open(j, '['); }
void pc_json_end_array(pc_json *j) { json_close(j, ']'); }

void pc_json_write_escaped(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
        switch (*p) {
        case '"': fputs("\\\"", f); break;
        case '\\': fputs("\\\\", f); break;
        case '\n': fputs("\\n", f); break;
        case '\r': fputs("\\r", f); break;
        case '\t': fputs("\\t", f); break;
        default:
            if (*p < 0x20)
                fprintf(f, "\\u%04x", *p);
            else
                fputc(*p, f);
        }
    }
    fputc('"', f);
}

void pc_json_key(pc_json *j, const char *key)
{
    json_before_value(j);
    pc_json_write_escaped(j->f, key);
    fputc(':', j->f);
    j->after_key = 1;
}

void pc_json_string(pc_json *j, const char *s)
{
    json_before_value(j);
    pc_json_write_escaped(j->f, s);
}

void pc_json_number(pc_json *j, double v)
{
    json_before_value(j);
    if (isfinite(v))
        fprintf(j->f, "%.17g", v);
    else
        fputs("null", j->f);
}

void pc_json_int(pc_json *j, long long v)
{
    json_before_value(j);
    fprintf(j->f, "%lld", v);
}

void pc_json_bool(pc_json *j, int v)
{
    json_before_value(j);
    fputs(v ? "true" : "false", j->f);
}

void pc_json_null(pc_json *j)
{
    json_before_value(j);
    fputs("null", j->f);
}

void pc_json_kv_string(pc_json *j, const char *k, const char *s) { pc_json_key(j, k); pc_json_string(j, s); }
void pc_json_kv_number(pc_json *j, const char *k, double v) { pc_json_key(j, k); pc_json_number(j, v); }
void pc_json_kv_int(pc_json *j, const char *k, long long v) { pc_json_key(j, k); pc_json_int(j, v); }
void pc_json_kv_bool(pc_json *j, const char *k, int v) { pc_json_key(j, k); pc_json_bool(j, v); }
