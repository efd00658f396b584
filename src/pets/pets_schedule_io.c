/* pets_schedule_io.c - schedule files: the CSV "task,proc,start,finish" and
 * the JSON of `parcheck pets --out-schedule`, read into exact integers, and
 * the writer of both forms.
 *
 * Decimal times are read exactly: a time with d fractional digits (trailing
 * zeros dropped, an exponent shifting them) is an integer in units of
 * 10^-d, and every time of the file is brought to the largest d of the
 * file, D <= 9. D only grows, at most 9 times, so the rows already read are
 * rescaled then rather than parsing the file twice. */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "pc_alloc.h"
#include "pc_file.h"
#include "pc_json.h"
#include "pc_version.h"
#include "pets.h"

#if PC_HAVE_JANSSON
#include <jansson.h>
#endif

void pets_schedule_free(pets_schedule *s)
{
    pc_free(s->task);
    pc_free(s->proc);
    pc_free(s->start);
    pc_free(s->finish);
    memset(s, 0, sizeof *s);
}

/* Allocates s for nrows rows once nrows has been counted in the file and
 * checked against the graph: a schedule of V tasks lists each once, so
 * more than 2V rows is no schedule of this graph. */
static int sched_alloc(pets_schedule *s, int64_t nrows, int32_t ntasks, const char *path,
                       pc_error *err)
{
    if (nrows > 2 * (int64_t)ntasks)
        return pc_error_set(err, PC_ERANGE, path, 0,
                            "%lld rows for a graph of %ld tasks (at most twice as many rows as tasks)",
                            (long long)nrows, (long)ntasks);
    size_t n = (size_t)nrows;
    s->task = pc_malloc_array(n, sizeof *s->task);
    s->proc = pc_malloc_array(n, sizeof *s->proc);
    s->start = pc_malloc_array(n, sizeof *s->start);
    s->finish = pc_malloc_array(n, sizeof *s->finish);
    if (!s->task || !s->proc || !s->start || !s->finish)
        return pc_error_nomem(err, "reading a schedule");
    return PC_OK;
}

/* ---- CSV -------------------------------------------------------------- */

typedef struct csv_field {
    const char *a, *b; /* trimmed bounds */
} csv_field;

typedef struct csv_reader {
    const char *path;
    pc_error *err;
    int32_t ntasks, nprocs;
    pets_schedule *s;
    int64_t maxabs; /* largest |time| stored so far, at scale 10^-s->decimals */
} csv_reader;

static int is_blank(char c)
{
    return c == ' ' || c == '\t';
}

/* The line starting at p: [p, *le) without its '\n' and one '\r' before
 * it. Returns the start of the next line. */
static const char *line_next(const char *p, const char *end, const char **le)
{
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    const char *e = nl ? nl : end;
    *le = (e > p && e[-1] == '\r') ? e - 1 : e;
    return nl ? nl + 1 : end;
}

/* 1 when [p, le) holds data: neither blank nor a '#' comment. */
static int line_has_data(const char *p, const char *le)
{
    while (p < le && is_blank(*p))
        p++;
    return p < le && *p != '#';
}

/* Splits [p, le) at commas into at most 4 trimmed fields; returns the
 * number of columns found (which may exceed 4). */
static int csv_split(const char *p, const char *le, csv_field f[4])
{
    int n = 0;
    for (;;) {
        const char *c = memchr(p, ',', (size_t)(le - p));
        const char *e = c ? c : le;
        if (n < 4) {
            const char *a = p, *b = e;
            while (a < b && is_blank(*a))
                a++;
            while (b > a && is_blank(b[-1]))
                b--;
            f[n] = (csv_field){a, b};
        }
        n++;
        if (!c)
            return n;
        p = c + 1;
    }
}

/* Copies [a, b) for a message: at most 40 bytes, unprintables as '?'. */
static const char *show(char *buf, const char *a, const char *b)
{
    size_t n = (size_t)(b - a) > 40 ? 40 : (size_t)(b - a), k;
    for (k = 0; k < n; k++)
        buf[k] = (a[k] >= 32 && a[k] < 127) ? a[k] : '?';
    if ((size_t)(b - a) > 40)
        memcpy(buf + k, "...", 3), k += 3;
    buf[k] = '\0';
    return buf;
}

static int field_is(const csv_field *f, const char *word)
{
    size_t n = strlen(word);
    return (size_t)(f->b - f->a) == n && memcmp(f->a, word, n) == 0;
}

/* A 1-based id in [a, b): digits only. Returns 0 and *out (capped at
 * max + 1 when larger), or PC_EFORMAT. */
static int parse_id(const char *a, const char *b, int64_t max, int64_t *out)
{
    if (a == b)
        return PC_EFORMAT;
    int64_t v = 0;
    for (const char *p = a; p < b; p++) {
        if (*p < '0' || *p > '9')
            return PC_EFORMAT;
        v = v * 10 + (*p - '0');
        if (v > max)
            v = max + 1; /* stays bounded: the id is unknown whatever follows */
    }
    *out = v;
    return PC_OK;
}

/* A decimal [-+]digits[.digits][(e|E)[-+]digits] (at least one digit) as
 * sign * m * 10^adj with m free of trailing zeros (m = 0: adj = 0).
 * Returns 0, PC_EFORMAT, or PC_ERANGE for more significant digits than
 * int64 holds or an exponent past 99999. */
static int parse_decimal(const char *a, const char *b, int *neg, uint64_t *m, int64_t *adj)
{
    const char *p = a;
    *neg = 0;
    if (p < b && (*p == '-' || *p == '+'))
        *neg = *p++ == '-';
    uint64_t v = 0;
    int64_t zeros = 0, nfrac = 0, exp = 0;
    int digits = 0, in_frac = 0, range = 0;
    for (; p < b; p++) {
        if (*p == '.' && !in_frac) {
            in_frac = 1;
            continue;
        }
        if (*p < '0' || *p > '9')
            break;
        digits++;
        nfrac += in_frac;
        if (*p == '0') {
            zeros += v != 0; /* leading zeros are nothing */
            continue;
        }
        /* v * 10^(zeros+1) + d must stay within 2^62 (no time is larger) */
        for (int64_t k = 0; k <= zeros && !range; k++)
            range = v > (uint64_t)PETS_SCHED_MAX_TIME / 10 ? 1 : (v *= 10, 0);
        if (!range)
            v += (uint64_t)(*p - '0');
        range |= v > (uint64_t)PETS_SCHED_MAX_TIME;
        zeros = 0;
    }
    if (!digits)
        return PC_EFORMAT;
    if (p < b && (*p == 'e' || *p == 'E')) {
        p++;
        int eneg = 0, edig = 0;
        if (p < b && (*p == '-' || *p == '+'))
            eneg = *p++ == '-';
        for (; p < b && *p >= '0' && *p <= '9'; p++, edig++)
            if (exp <= 99999)
                exp = exp * 10 + (*p - '0');
        if (!edig)
            return PC_EFORMAT;
        if (exp > 99999)
            range = 1;
        exp = eneg ? -exp : exp;
    }
    if (p != b)
        return PC_EFORMAT;
    if (range)
        return PC_ERANGE;
    *m = v;
    *adj = v ? zeros + exp - nfrac : 0;
    *neg = *neg && v;
    return PC_OK;
}

/* *x times 10^k within +-2^62, or 0 when it would pass. */
static int scale_ok(int64_t *x, int k)
{
    for (; k > 0; k--) {
        if (*x > PETS_SCHED_MAX_TIME / 10 || *x < -PETS_SCHED_MAX_TIME / 10)
            return 0;
        *x *= 10;
    }
    return 1;
}

/* Raises the file's scale to d decimals: the times read so far (start of
 * rows [0, nstart), finish of rows [0, nfinish)) are multiplied by
 * 10^(d - D). */
static int csv_raise_decimals(csv_reader *r, int d, int64_t nstart, int64_t nfinish, long line)
{
    pets_schedule *s = r->s;
    int64_t probe = r->maxabs;
    if (!scale_ok(&probe, d - s->decimals))
        return pc_error_set(r->err, PC_ERANGE, r->path, line,
                            "with %d decimal places here, an earlier time passes +-2^62 units of 10^-%d",
                            d, d);
    for (int64_t i = 0; i < nstart; i++)
        scale_ok(&s->start[i], d - s->decimals);
    for (int64_t i = 0; i < nfinish; i++)
        scale_ok(&s->finish[i], d - s->decimals);
    r->maxabs = probe;
    s->decimals = d;
    return PC_OK;
}

/* Field f of row i as a time at the file's current scale, raising the
 * scale when f has more decimals (is_finish: row i's start is read). */
static int csv_time(csv_reader *r, const csv_field *f, int is_finish, int64_t i, long line,
                    int64_t *out)
{
    const char *name = is_finish ? "finish" : "start";
    char buf[48];
    int neg;
    uint64_t m;
    int64_t adj;
    int rc = parse_decimal(f->a, f->b, &neg, &m, &adj);
    if (rc == PC_EFORMAT)
        return pc_error_set(r->err, rc, r->path, line, "%s '%s' is not a number", name,
                            show(buf, f->a, f->b));
    if (rc || (adj < 0 && -adj > PETS_SCHED_MAX_DECIMALS) || (adj > 0 && adj > 18))
        return pc_error_set(r->err, PC_ERANGE, r->path, line,
                            "%s '%s' is out of range (|time| <= 2^62 units, at most %d decimal places)",
                            name, show(buf, f->a, f->b), PETS_SCHED_MAX_DECIMALS);
    int d = adj < 0 ? (int)-adj : 0;
    if (d > r->s->decimals && (rc = csv_raise_decimals(r, d, i + is_finish, i, line)))
        return rc;
    int64_t v = (int64_t)m;
    if (!scale_ok(&v, (int)(adj + r->s->decimals)))
        return pc_error_set(r->err, PC_ERANGE, r->path, line,
                            "%s '%s' is out of range (|time| <= 2^62 units of 10^-%d)", name,
                            show(buf, f->a, f->b), r->s->decimals);
    *out = neg ? -v : v;
    if (v > r->maxabs)
        r->maxabs = v;
    return PC_OK;
}

/* The header line: exactly task,proc,start,finish. */
static int csv_header(csv_reader *r, const char *p, const char *le, long line)
{
    csv_field f[4];
    char buf[48];
    int n = csv_split(p, le, f);
    if (n == 4 && field_is(&f[0], "task") && field_is(&f[1], "proc") && field_is(&f[2], "start") &&
        field_is(&f[3], "finish"))
        return PC_OK;
    int64_t id;
    if (n == 4 && parse_id(f[0].a, f[0].b, 1, &id) == PC_OK)
        return pc_error_set(r->err, PC_EFORMAT, r->path, line,
                            "the header line 'task,proc,start,finish' is missing (this line holds data)");
    return pc_error_set(r->err, PC_EFORMAT, r->path, line,
                        "expected the header 'task,proc,start,finish', found '%s'%s",
                        show(buf, p, le), n == 5 ? " (5 columns: an index column? pandas: index=False)" : "");
}

/* One data line into row i. */
static int csv_row(csv_reader *r, const char *p, const char *le, long line, int64_t i)
{
    csv_field f[4];
    char buf[48];
    int n = csv_split(p, le, f);
    if (n != 4)
        return pc_error_set(r->err, PC_EFORMAT, r->path, line,
                            "expected 4 columns (task,proc,start,finish), found %d", n);
    pets_schedule *s = r->s;
    if (parse_id(f[0].a, f[0].b, r->ntasks, &s->task[i]))
        return pc_error_set(r->err, PC_EFORMAT, r->path, line, "task '%s' is not a task id",
                            show(buf, f[0].a, f[0].b));
    if (s->task[i] < 1 || s->task[i] > r->ntasks)
        return pc_error_set(r->err, PC_EFORMAT, r->path, line,
                            "unknown task '%s': the graph has tasks 1..%ld", show(buf, f[0].a, f[0].b),
                            (long)r->ntasks);
    if (parse_id(f[1].a, f[1].b, r->nprocs, &s->proc[i]))
        return pc_error_set(r->err, PC_EFORMAT, r->path, line, "proc '%s' is not a processor id",
                            show(buf, f[1].a, f[1].b));
    if (s->proc[i] < 1 || s->proc[i] > r->nprocs)
        return pc_error_set(r->err, PC_EFORMAT, r->path, line,
                            "unknown processor '%s': the graph has processors 1..%ld",
                            show(buf, f[1].a, f[1].b), (long)r->nprocs);
    int rc = csv_time(r, &f[2], 0, i, line, &s->start[i]);
    if (!rc)
        rc = csv_time(r, &f[3], 1, i, line, &s->finish[i]);
    return rc;
}

int pets_schedule_parse_csv(const char *text, size_t len, const char *path, int32_t ntasks,
                            int32_t nprocs, pets_schedule *s, pc_error *err)
{
    memset(s, 0, sizeof *s);
    const char *p = text, *end = text + len, *le;
    if (len >= 3 && memcmp(p, "\xEF\xBB\xBF", 3) == 0) /* UTF-8 byte order mark */
        p += 3;
    /* count the data lines first: the rows are sized by the file itself */
    int64_t data = 0;
    for (const char *q = p; q < end;) {
        const char *next = line_next(q, end, &le);
        data += line_has_data(q, le);
        q = next;
    }
    if (data == 0)
        return pc_error_set(err, PC_EFORMAT, path, 0,
                            "empty schedule: no header line 'task,proc,start,finish'");
    int rc = sched_alloc(s, data - 1, ntasks, path, err);
    csv_reader r = {path, err, ntasks, nprocs, s, 0};
    long line = 0;
    int64_t i = 0;
    int header = 0;
    while (!rc && p < end) {
        const char *next = line_next(p, end, &le);
        line++;
        if (line_has_data(p, le)) {
            if (!header) {
                rc = csv_header(&r, p, le, line);
                header = 1;
            } else {
                rc = csv_row(&r, p, le, line, i++);
            }
        }
        p = next;
    }
    if (rc) {
        pets_schedule_free(s);
        return rc;
    }
    s->nrows = i;
    return PC_OK;
}

/* ---- JSON ------------------------------------------------------------- */

int pets_schedule_json_available(void)
{
    return PC_HAVE_JANSSON;
}

#if PC_HAVE_JANSSON

/* Member key of object o as an integer within [lo, hi] into *out. */
static int json_int_in(json_t *o, const char *key, int64_t lo, int64_t hi, int64_t *out)
{
    json_t *x = json_object_get(o, key);
    if (!json_is_integer(x))
        return PC_EFORMAT;
    json_int_t v = json_integer_value(x);
    if (v < lo || v > hi)
        return PC_ERANGE;
    *out = (int64_t)v;
    return PC_OK;
}

/* The header fields that name the graph, when present, must match it. */
static int json_meta(json_t *root, const char *path, int32_t ntasks, int32_t nprocs, pc_error *err)
{
    json_t *kind = json_object_get(root, "kind");
    if (kind && (!json_is_string(kind) || strcmp(json_string_value(kind), "schedule") != 0))
        return pc_error_set(err, PC_EFORMAT, path, 0, "\"kind\" is not \"schedule\"");
    static const char *const keys[2] = {"tasks", "procs"};
    int32_t want[2] = {ntasks, nprocs};
    for (int k = 0; k < 2; k++) {
        json_t *x = json_object_get(root, keys[k]);
        if (x && (!json_is_integer(x) || json_integer_value(x) != want[k]))
            return pc_error_set(err, PC_EFORMAT, path, 0,
                                "\"%s\" does not match the graph's %ld: a schedule of another graph?",
                                keys[k], (long)want[k]);
    }
    return PC_OK;
}

static int json_rows(json_t *arr, const char *path, int32_t ntasks, int32_t nprocs, pets_schedule *s,
                     pc_error *err)
{
    static const char *const keys[4] = {"task", "proc", "start", "finish"};
    size_t k;
    json_t *e;
    json_array_foreach(arr, k, e) {
        if (!json_is_object(e))
            return pc_error_set(err, PC_EFORMAT, path, 0, "schedule[%zu] is not an object", k);
        int64_t lo[4] = {1, 1, -PETS_SCHED_MAX_TIME, -PETS_SCHED_MAX_TIME};
        int64_t hi[4] = {ntasks, nprocs, PETS_SCHED_MAX_TIME, PETS_SCHED_MAX_TIME};
        int64_t *dst[4] = {&s->task[k], &s->proc[k], &s->start[k], &s->finish[k]};
        for (int f = 0; f < 4; f++) {
            int rc = json_int_in(e, keys[f], lo[f], hi[f], dst[f]);
            if (rc == PC_EFORMAT)
                return pc_error_set(err, rc, path, 0,
                                    "schedule[%zu]: \"%s\" is missing or not an integer%s", k, keys[f],
                                    f >= 2 ? " (JSON schedules hold integer times; CSV takes decimals)" : "");
            if (rc && f < 2)
                return pc_error_set(err, PC_EFORMAT, path, 0, "schedule[%zu]: unknown %s %lld: the graph has %s 1..%lld",
                                    k, keys[f], (long long)json_integer_value(json_object_get(e, keys[f])),
                                    f ? "processors" : "tasks", (long long)hi[f]);
            if (rc)
                return pc_error_set(err, rc, path, 0, "schedule[%zu]: \"%s\" is out of range (|time| <= 2^62)",
                                    k, keys[f]);
        }
    }
    return PC_OK;
}

int pets_schedule_parse_json(const char *text, size_t len, const char *path, int32_t ntasks,
                             int32_t nprocs, pets_schedule *s, pc_error *err)
{
    memset(s, 0, sizeof *s);
    json_error_t je;
    json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
    if (!root)
        return pc_error_set(err, PC_EFORMAT, path, je.line, "%s", je.text);
    int rc = PC_OK;
    json_t *arr = json_is_object(root) ? json_object_get(root, "schedule") : NULL;
    if (!json_is_array(arr))
        rc = pc_error_set(err, PC_EFORMAT, path, 0, "not a schedule: needs an object with a \"schedule\" array");
    if (!rc)
        rc = json_meta(root, path, ntasks, nprocs, err);
    if (!rc)
        rc = sched_alloc(s, (int64_t)json_array_size(arr), ntasks, path, err);
    if (!rc)
        rc = json_rows(arr, path, ntasks, nprocs, s, err);
    if (!rc) {
        s->nrows = (int64_t)json_array_size(arr);
        s->json = 1;
    }
    json_decref(root);
    if (rc)
        pets_schedule_free(s);
    return rc;
}

#else

int pets_schedule_parse_json(const char *text, size_t len, const char *path, int32_t ntasks,
                             int32_t nprocs, pets_schedule *s, pc_error *err)
{
    (void)text;
    (void)len;
    (void)ntasks;
    (void)nprocs;
    memset(s, 0, sizeof *s);
    return pc_error_set(err, PC_EUNAVAIL, path, 0,
                        "this build reads JSON schedules only with jansson (apt-get install libjansson-dev); "
                        "write the schedule as CSV task,proc,start,finish");
}

#endif

int pets_schedule_read(const char *path, int32_t ntasks, int32_t nprocs, pets_schedule *s,
                       pc_error *err)
{
    memset(s, 0, sizeof *s);
    unsigned char *data;
    size_t len;
    int rc = pc_file_read_all(path, PETS_SCHED_MAX_BYTES, &data, &len, err);
    if (rc)
        return rc;
    size_t bom = len >= 3 && memcmp(data, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0, k = bom;
    while (k < len && (data[k] == ' ' || data[k] == '\t' || data[k] == '\r' || data[k] == '\n'))
        k++;
    /* the JSON text keeps its leading blank lines: jansson's line numbers stay the file's */
    if (k < len && data[k] == '{')
        rc = pets_schedule_parse_json((const char *)data + bom, len - bom, path, ntasks, nprocs, s, err);
    else
        rc = pets_schedule_parse_csv((const char *)data, len, path, ntasks, nprocs, s, err);
    pc_free(data);
    return rc;
}

/* ---- writer ------------------------------------------------------------ */

static int ends_with_csv(const char *path)
{
    size_t n = strlen(path);
    return n >= 4 && strcasecmp(path + n - 4, ".csv") == 0;
}

int pets_schedule_write(const char *path, const pets_dag *dag, const pets_solution *sol,
                        const char *graph, const char *impl, int policy, pc_error *err)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return pc_error_set(err, PC_EIO, path, 0, "cannot open for writing");
    int32_t n = dag->ntasks;
    if (ends_with_csv(path)) {
        fputs("task,proc,start,finish\n", f);
        for (int32_t v = 0; v < n; v++)
            fprintf(f, "%ld,%ld,%lld,%lld\n", (long)v + 1, (long)sol->proc[v] + 1,
                    (long long)sol->start[v], (long long)sol->finish[v]);
    } else {
        /* one schedule entry per line, so that two schedules diff line by line */
        fputs("{\"tool\":\"parcheck\",\"kind\":\"schedule\",\"version\":", f);
        pc_json_write_escaped(f, PC_VERSION);
        fputs(",\"graph\":", f);
        pc_json_write_escaped(f, graph ? graph : "");
        fputs(",\"impl\":", f);
        pc_json_write_escaped(f, impl ? impl : "");
        fprintf(f, ",\"policy\":\"%s\",\"tasks\":%ld,\"procs\":%ld,\"makespan\":%lld,\n\"schedule\":[",
                policy == PETS_APPEND ? "append" : "insertion", (long)n, (long)dag->nprocs,
                (long long)sol->makespan);
        for (int32_t v = 0; v < n; v++)
            fprintf(f, "%s\n{\"task\":%ld,\"proc\":%ld,\"start\":%lld,\"finish\":%lld}", v ? "," : "",
                    (long)v + 1, (long)sol->proc[v] + 1, (long long)sol->start[v],
                    (long long)sol->finish[v]);
        fputs("\n]}\n", f);
    }
    int bad = ferror(f);
    if (fclose(f) != 0 || bad)
        return pc_error_set(err, PC_EIO, path, 0, "write failed");
    return PC_OK;
}
