/* pc_result.h - the outcome of running implementations against an oracle,
 * and its two renderings: the verdict table and the JSON object of
 * docs/ARCHITECTURE.md §4. Shared by every domain's subcommand. */
#ifndef PC_RESULT_H
#define PC_RESULT_H

#include <stdio.h>

#include "pc_error.h"

/* CRASHED and TIMEOUT only for plugins, whose code runs in a worker process. */
enum pc_status { PC_STATUS_PASS, PC_STATUS_FAIL, PC_STATUS_SKIPPED, PC_STATUS_ERROR,
                 PC_STATUS_CRASHED, PC_STATUS_TIMEOUT };

enum pc_value_kind { PC_VALUE_NUM, PC_VALUE_INT, PC_VALUE_BOOL, PC_VALUE_STR };

#define PC_KV_MAX 16

typedef struct pc_kv {
    char key[32];
    int kind;
    double num;
    long long i;
    char str[160];
} pc_kv;

typedef struct pc_kvlist {
    int n;
    pc_kv kv[PC_KV_MAX];
} pc_kvlist;

void pc_kv_num(pc_kvlist *l, const char *key, double v);
void pc_kv_int(pc_kvlist *l, const char *key, long long v);
void pc_kv_bool(pc_kvlist *l, const char *key, int v);
void pc_kv_str(pc_kvlist *l, const char *key, const char *v);
/* The entry named key, or NULL. */
const pc_kv *pc_kv_find(const pc_kvlist *l, const char *key);

/* At most this many failures are located in a result ("where"). */
#define PC_WHERE_MAX 10

typedef struct pc_result {
    char impl[48];
    int status;                 /* enum pc_status */
    char reason[PC_ERROR_MSG_MAX];
    double seconds;             /* median time of one run (kernel time) */
    int reps;
    double throughput;
    char unit[16];
    pc_kvlist metrics;
    pc_kvlist timings;          /* extra timings: prepare_s, h2d_s, ... */
    long long peak_bytes;       /* measured peak memory, -1 unknown */
    long long model_bytes;      /* documented memory model, -1 unknown */
    int nwhere;                 /* located failures, in the order found */
    pc_kvlist where[PC_WHERE_MAX];
    char where_summary[256];    /* one line on the extent ("rows 18, 40-52 wrong; ...") */
} pc_result;

typedef struct pc_run {
    const char *domain;         /* "spmm" | "sa" | "pets" */
    pc_kvlist input;            /* path and sizes */
    const char *oracle_name;
    double oracle_seconds;
    int nresults;
    pc_result *results;
    const char *const *table_metrics; /* metric keys shown as table columns, NULL-terminated */
} pc_run;

/* Initialises r for implementation impl: status skipped, no metrics. */
void pc_result_init(pc_result *r, const char *impl);

/* Sets status and a printf-style reason. */
void pc_result_status(pc_result *r, int status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

const char *pc_status_name(int status);

/* The next "where" record of r (cleared), or NULL when PC_WHERE_MAX are
 * already there. Keys and values are the domain's: SpMM row, col, got,
 * expected, bound; SA index, rule; PETS rule, task, other, proc, start,
 * finish. */
pc_kvlist *pc_result_where_add(pc_result *r);

/* Prints the verdict table (one row per implementation, each failure's
 * "where" records and summary indented under its row) to f: the head, the
 * rows, the oracle line. */
void pc_run_print_table(FILE *f, const pc_run *run);

/* The table in pieces, for a run that prints each row as it completes: the
 * input line and the column header (before the first run), one row (name
 * replaces res->impl when not NULL), the oracle line (at the end, when its
 * time is known). Each flushes f. */
void pc_run_print_head(FILE *f, const pc_run *run);
void pc_run_print_row(FILE *f, const pc_run *run, const pc_result *res, const char *name);
void pc_run_print_oracle(FILE *f, const pc_run *run);

/* Writes the run as one JSON object (docs/ARCHITECTURE.md §4) to f. */
void pc_run_write_json(FILE *f, const pc_run *run);

/* Writes JSON to path ("-" is stdout). Returns 0 or PC_EIO with err set. */
int pc_run_save_json(const char *path, const pc_run *run, pc_error *err);

/* 0 when every result passed or was skipped, 1 when one failed or erred. */
int pc_run_exit_code(const pc_run *run);

#endif
