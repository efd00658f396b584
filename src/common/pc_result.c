#include "pc_result.h"

#include <math.h>
#include <stdarg.h>
#include <string.h>

#include "pc_json.h"
#include "pc_version.h"

static pc_kv *kv_slot(pc_kvlist *l, const char *key, int kind)
{
    pc_kv *kv = NULL;
    for (int i = 0; i < l->n; i++)
        if (strcmp(l->kv[i].key, key) == 0)
            kv = &l->kv[i];
    if (!kv) {
        if (l->n >= PC_KV_MAX)
            return NULL;
        kv = &l->kv[l->n++];
    }
    memset(kv, 0, sizeof *kv);
    snprintf(kv->key, sizeof kv->key, "%s", key);
    kv->kind = kind;
    return kv;
}

void pc_kv_num(pc_kvlist *l, const char *key, double v)
{
    pc_kv *kv = kv_slot(l, key, PC_VALUE_NUM);
    if (kv) kv->num = v;
}

void pc_kv_int(pc_kvlist *l, const char *key, long long v)
{
    pc_kv *kv = kv_slot(l, key, PC_VALUE_INT);
    if (kv) { kv->i = v; kv->num = (double)v; }
}

void pc_kv_bool(pc_kvlist *l, const char *key, int v)
{
    pc_kv *kv = kv_slot(l, key, PC_VALUE_BOOL);
    if (kv) { kv->i = v != 0; kv->num = v != 0; }
}

void pc_kv_str(pc_kvlist *l, const char *key, const char *v)
{
    pc_kv *kv = kv_slot(l, key, PC_VALUE_STR);
    if (kv) snprintf(kv->str, sizeof kv->str, "%s", v ? v : "");
}

const pc_kv *pc_kv_find(const pc_kvlist *l, const char *key)
{
    for (int i = 0; i < l->n; i++)
        if (strcmp(l->kv[i].key, key) == 0)
            return &l->kv[i];
    return NULL;
}

void pc_result_init(pc_result *r, const char *impl)
{
    memset(r, 0, sizeof *r);
    snprintf(r->impl, sizeof r->impl, "%s", impl);
    r->status = PC_STATUS_SKIPPED;
    r->peak_bytes = -1;
    r->model_bytes = -1;
}

void pc_result_status(pc_result *r, int status, const char *fmt, ...)
{
    r->status = status;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->reason, sizeof r->reason, fmt, ap);
    va_end(ap);
}

const char *pc_status_name(int status)
{
    switch (status) {
    case PC_STATUS_PASS: return "pass";
    case PC_STATUS_FAIL: return "fail";
    case PC_STATUS_SKIPPED: return "skipped";
    case PC_STATUS_CRASHED: return "crashed";
    case PC_STATUS_TIMEOUT: return "timeout";
    default: return "error";
    }
}

pc_kvlist *pc_result_where_add(pc_result *r)
{
    if (r->nwhere >= PC_WHERE_MAX)
        return NULL;
    pc_kvlist *l = &r->where[r->nwhere++];
    memset(l, 0, sizeof *l);
    return l;
}

static void kv_format(char *buf, size_t n, const pc_kv *kv)
{
    switch (kv->kind) {
    case PC_VALUE_INT: snprintf(buf, n, "%lld", kv->i); break;
    case PC_VALUE_BOOL: snprintf(buf, n, "%s", kv->i ? "yes" : "no"); break;
    case PC_VALUE_STR: snprintf(buf, n, "%s", kv->str); break;
    default: snprintf(buf, n, "%.3g", kv->num); break;
    }
}

void pc_run_print_head(FILE *f, const pc_run *run)
{
    fprintf(f, "%s:", run->domain);
    for (int i = 0; i < run->input.n; i++) {
        char v[170];
        kv_format(v, sizeof v, &run->input.kv[i]);
        fprintf(f, " %s=%s", run->input.kv[i].key, v);
    }
    fprintf(f, "\n%-28s %-8s", "impl", "verdict");
    for (const char *const *m = run->table_metrics; m && *m; m++)
        fprintf(f, " %14s", *m);
    fprintf(f, " %12s %14s\n", "median_s", "throughput");
    fflush(f);
}

void pc_run_print_row(FILE *f, const pc_run *run, const pc_result *res, const char *name)
{
    fprintf(f, "%-28s %-8s", name ? name : res->impl, pc_status_name(res->status));
    for (const char *const *m = run->table_metrics; m && *m; m++) {
        const pc_kv *kv = pc_kv_find(&res->metrics, *m);
        char v[170] = "-";
        if (kv)
            kv_format(v, sizeof v, kv);
        fprintf(f, " %14s", v);
    }
    /* a check verb judges a file and times nothing: no reps */
    if ((res->status == PC_STATUS_PASS || res->status == PC_STATUS_FAIL) && res->reps > 0)
        fprintf(f, " %12.6f %9.3f %-5s", res->seconds, res->throughput, res->unit);
    else
        fprintf(f, " %12s %14s", "-", "-");
    if (res->reason[0])
        fprintf(f, "  (%s)", res->reason);
    fputc('\n', f);
    for (int w = 0; w < res->nwhere; w++) {
        fprintf(f, "    at");
        for (int i = 0; i < res->where[w].n; i++) {
            char v[170];
            const pc_kv *kv = &res->where[w].kv[i];
            if (kv->kind == PC_VALUE_NUM) /* a location shows values in full */
                snprintf(v, sizeof v, "%.17g", kv->num);
            else
                kv_format(v, sizeof v, kv);
            fprintf(f, " %s=%s", res->where[w].kv[i].key, v);
        }
        fputc('\n', f);
    }
    if (res->where_summary[0])
        fprintf(f, "    %s\n", res->where_summary);
    fflush(f);
}

void pc_run_print_oracle(FILE *f, const pc_run *run)
{
    fprintf(f, "oracle: %s (%.3f s)\n", run->oracle_name ? run->oracle_name : "-",
            run->oracle_seconds);
}

void pc_run_print_table(FILE *f, const pc_run *run)
{
    pc_run_print_head(f, run);
    for (int r = 0; r < run->nresults; r++)
        pc_run_print_row(f, run, &run->results[r], NULL);
    pc_run_print_oracle(f, run);
}

static void json_kvlist(pc_json *j, const pc_kvlist *l)
{
    for (int i = 0; i < l->n; i++) {
        const pc_kv *kv = &l->kv[i];
        switch (kv->kind) {
        case PC_VALUE_INT: pc_json_kv_int(j, kv->key, kv->i); break;
        case PC_VALUE_BOOL: pc_json_kv_bool(j, kv->key, (int)kv->i); break;
        case PC_VALUE_STR: pc_json_kv_string(j, kv->key, kv->str); break;
        default: pc_json_kv_number(j, kv->key, kv->num); break;
        }
    }
}

void pc_run_write_json(FILE *f, const pc_run *run)
{
    pc_json j;
    pc_json_init(&j, f);
    pc_json_begin_object(&j);
    pc_json_kv_string(&j, "tool", "parcheck");
    pc_json_kv_string(&j, "version", PC_VERSION);
    pc_json_kv_string(&j, "domain", run->domain);
    pc_json_key(&j, "input");
    pc_json_begin_object(&j);
    json_kvlist(&j, &run->input);
    pc_json_end_object(&j);
    pc_json_key(&j, "oracle");
    pc_json_begin_object(&j);
    pc_json_kv_string(&j, "name", run->oracle_name ? run->oracle_name : "");
    pc_json_kv_number(&j, "seconds", run->oracle_seconds);
    pc_json_end_object(&j);
    pc_json_key(&j, "results");
    pc_json_begin_array(&j);
    for (int r = 0; r < run->nresults; r++) {
        const pc_result *res = &run->results[r];
        pc_json_begin_object(&j);
        pc_json_kv_string(&j, "impl", res->impl);
        pc_json_kv_string(&j, "status", pc_status_name(res->status));
        pc_json_kv_string(&j, "reason", res->reason);
        pc_json_kv_number(&j, "seconds", res->seconds);
        pc_json_kv_int(&j, "reps", res->reps);
        pc_json_kv_number(&j, "throughput", res->throughput);
        pc_json_kv_string(&j, "unit", res->unit);
        pc_json_key(&j, "metrics");
        pc_json_begin_object(&j);
        json_kvlist(&j, &res->metrics);
        pc_json_end_object(&j);
        pc_json_key(&j, "timings");
        pc_json_begin_object(&j);
        json_kvlist(&j, &res->timings);
        pc_json_end_object(&j);
        pc_json_key(&j, "memory");
        pc_json_begin_object(&j);
        pc_json_kv_int(&j, "peak_bytes", res->peak_bytes);
        pc_json_kv_int(&j, "model_bytes", res->model_bytes);
        pc_json_end_object(&j);
        if (res->nwhere > 0) {
            pc_json_key(&j, "where");
            pc_json_begin_array(&j);
            for (int w = 0; w < res->nwhere; w++) {
                pc_json_begin_object(&j);
                json_kvlist(&j, &res->where[w]);
                pc_json_end_object(&j);
            }
            pc_json_end_array(&j);
        }
        if (res->where_summary[0])
            pc_json_kv_string(&j, "where_summary", res->where_summary);
        pc_json_end_object(&j);
    }
    pc_json_end_array(&j);
    pc_json_end_object(&j);
}

int pc_run_save_json(const char *path, const pc_run *run, pc_error *err)
{
    if (strcmp(path, "-") == 0) {
        pc_run_write_json(stdout, run);
        fflush(stdout);
        return PC_OK;
    }
    FILE *f = fopen(path, "w");
    if (!f)
        return pc_error_set(err, PC_EIO, path, 0, "cannot open for writing");
    pc_run_write_json(f, run);
    if (fclose(f) != 0)
        return pc_error_set(err, PC_EIO, path, 0, "write failed");
    return PC_OK;
}

int pc_run_exit_code(const pc_run *run)
{
    for (int r = 0; r < run->nresults; r++)
        if (run->results[r].status != PC_STATUS_PASS && run->results[r].status != PC_STATUS_SKIPPED)
            return 1;
    return 0;
}
