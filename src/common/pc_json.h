/* pc_json.h - a small streaming JSON writer.
 *
 * Commas and nesting are tracked by the writer, strings are escaped, and
 * non-finite numbers are written as null (JSON has no NaN or Infinity). */
#ifndef PC_JSON_H
#define PC_JSON_H

#include <stdio.h>

#define PC_JSON_MAX_DEPTH 32

typedef struct pc_json {
    FILE *f;
    int depth;
    int count[PC_JSON_MAX_DEPTH]; /* values written at each level */
    int after_key;
} pc_json;

/* Starts a writer on f (which stays owned by the caller). */
void pc_json_init(pc_json *j, FILE *f);

void pc_json_begin_object(pc_json *j);
void pc_json_end_object(pc_json *j);
void pc_json_begin_array(pc_json *j);
void pc_json_end_array(pc_json *j);

/* Writes an object key; the next call writes its value. */
void pc_json_key(pc_json *j, const char *key);

void pc_json_string(pc_json *j, const char *s);
void pc_json_number(pc_json *j, double v);
void pc_json_int(pc_json *j, long long v);
void pc_json_bool(pc_json *j, int v);
void pc_json_null(pc_json *j);

/* key + value shorthands. */
void pc_json_kv_string(pc_json *j, const char *key, const char *s);
void pc_json_kv_number(pc_json *j, const char *key, double v);
void pc_json_kv_int(pc_json *j, const char *key, long long v);
void pc_json_kv_bool(pc_json *j, const char *key, int v);

/* Writes s as a JSON string literal (with quotes) to f. */
void pc_json_write_escaped(FILE *f, const char *s);

#endif
