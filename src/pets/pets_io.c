/* pets_io.c - the .dag text format: reader (every refusal names the file and
 * line) and writer. */
#include <stdio.h>
#include <string.h>

#include "pc_alloc.h"
#include "pc_file.h"
#include "pets.h"

#define DAG_MAX_FILE_BYTES ((size_t)1 << 30)
#define DAG_MAX_FIELDS 1100 /* "cost T" + PETS_MAX_PROCS values, with room to spot extras */

typedef struct dag_line {
    const char *tok[DAG_MAX_FIELDS];
    size_t len[DAG_MAX_FIELDS];
    int ntok;
    int truncated; /* more fields than DAG_MAX_FIELDS */
} dag_line;

/* Splits [p, end) at blanks; a '#' starts a comment up to the end of line. */
static void line_split(const char *p, const char *end, dag_line *l)
{
    l->ntok = 0;
    l->truncated = 0;
    while (p < end) {
        while (p < end && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\v' || *p == '\f'))
            p++;
        if (p >= end || *p == '#')
            break;
        const char *s = p;
        while (p < end && *p != ' ' && *p != '\t' && *p != '\r' && *p != '\v' && *p != '\f' &&
               *p != '#')
            p++;
        if (l->ntok == DAG_MAX_FIELDS) {
            l->truncated = 1;
            break;
        }
        l->tok[l->ntok] = s;
        l->len[l->ntok] = (size_t)(p - s);
        l->ntok++;
    }
}

static int tok_is(const dag_line *l, int i, const char *word)
{
    return l->len[i] == strlen(word) && memcmp(l->tok[i], word, l->len[i]) == 0;
}

/* A whole decimal number within [0, max]: negative values and values past
 * max are PC_ERANGE, anything else that is not digits PC_EFORMAT. */
static int tok_num(const dag_line *l, int i, int64_t max, const char *what, const char *path,
                   long line, int64_t *out, pc_error *err)
{
    const char *s = l->tok[i];
    size_t n = l->len[i], k = 0;
    int neg = 0;
    if (n && (s[0] == '-' || s[0] == '+')) {
        neg = s[0] == '-';
        k = 1;
    }
    if (k == n)
        return pc_error_set(err, PC_EFORMAT, path, line, "%s: '%.*s' is not a whole number", what,
                            (int)(n > 40 ? 40 : n), s);
    int64_t v = 0;
    int over = 0;
    for (; k < n; k++) {
        if (s[k] < '0' || s[k] > '9')
            return pc_error_set(err, PC_EFORMAT, path, line, "%s: '%.*s' is not a whole number",
                                what, (int)(n > 40 ? 40 : n), s);
        if (!over) {
            v = v * 10 + (s[k] - '0');
            if (v > max)
                over = 1;
        }
    }
    if (neg && (v != 0 || over))
        return pc_error_set(err, PC_ERANGE, path, line, "%s: negative value %.*s", what,
                            (int)(n > 40 ? 40 : n), s);
    if (over)
        return pc_error_set(err, PC_ERANGE, path, line, "%s: %.*s is larger than %lld", what,
                            (int)(n > 40 ? 40 : n), s, (long long)max);
    *out = v;
    return PC_OK;
}

typedef struct dag_parse {
    const char *path;
    int32_t n, p;
    int64_t *cost;
    int32_t *cost_line;  /* line of each task's cost line, 0 while missing */
    pets_edge *edges;
    int64_t nedges, cap;
} dag_parse;

static int parse_header(dag_parse *st, const dag_line *l, long line, size_t len, pc_error *err)
{
    if (l->ntok != 4 || !tok_is(l, 0, "tasks") || !tok_is(l, 2, "processors"))
        return pc_error_set(err, PC_EFORMAT, st->path, line,
                            "expected 'tasks N processors P' before anything else");
    int64_t n, p;
    int rc = tok_num(l, 1, PETS_MAX_TASKS, "tasks", st->path, line, &n, err);
    if (!rc)
        rc = tok_num(l, 3, PETS_MAX_PROCS, "processors", st->path, line, &p, err);
    if (rc)
        return rc;
    if (n < 1 || p < 1)
        return pc_error_set(err, PC_ERANGE, st->path, line, "tasks and processors must be >= 1");
    if (n * p > PETS_MAX_CELLS)
        return pc_error_set(err, PC_ERANGE, st->path, line, "%lld tasks x %lld processors exceeds %lld costs",
                            (long long)n, (long long)p, (long long)PETS_MAX_CELLS);
    /* Each task needs a line "cost T w1 .. wP": at least 6 + 2P bytes. */
    if ((unsigned long long)n * (unsigned long long)(6 + 2 * p) > (unsigned long long)len + 1)
        return pc_error_set(err, PC_EFORMAT, st->path, line,
                            "declares %lld tasks of %lld costs but the file holds only %zu bytes",
                            (long long)n, (long long)p, len);
    st->n = (int32_t)n;
    st->p = (int32_t)p;
    st->cost = pc_malloc_array((size_t)(n * p), sizeof *st->cost);
    st->cost_line = pc_calloc((size_t)n, sizeof *st->cost_line);
    if (!st->cost || !st->cost_line)
        return pc_error_nomem(err, "reading a .dag file");
    return PC_OK;
}

static int parse_cost(dag_parse *st, const dag_line *l, long line, pc_error *err)
{
    int64_t t;
    if (l->ntok < 2)
        return pc_error_set(err, PC_EFORMAT, st->path, line, "expected 'cost T w1 .. w%ld'", (long)st->p);
    int rc = tok_num(l, 1, PETS_MAX_TASKS, "task", st->path, line, &t, err);
    if (rc)
        return rc;
    if (t < 1 || t > st->n)
        return pc_error_set(err, PC_EFORMAT, st->path, line, "cost for unknown task %lld (tasks are 1..%ld)",
                            (long long)t, (long)st->n);
    if (st->cost_line[t - 1])
        return pc_error_set(err, PC_EFORMAT, st->path, line, "second cost line for task %lld (first on line %ld)",
                            (long long)t, (long)st->cost_line[t - 1]);
    if (l->truncated || l->ntok - 2 > st->p)
        return pc_error_set(err, PC_EFORMAT, st->path, line, "task %lld: extra costs (expected %ld)",
                            (long long)t, (long)st->p);
    if (l->ntok - 2 < st->p)
        return pc_error_set(err, PC_EFORMAT, st->path, line, "task %lld: %d costs, expected %ld",
                            (long long)t, l->ntok - 2, (long)st->p);
    for (int32_t q = 0; q < st->p; q++) {
        rc = tok_num(l, 2 + q, PETS_MAX_VALUE, "cost", st->path, line,
                     &st->cost[(t - 1) * st->p + q], err);
        if (rc)
            return rc;
    }
    st->cost_line[t - 1] = (int32_t)line;
    return PC_OK;
}

static int parse_edge(dag_parse *st, const dag_line *l, long line, pc_error *err)
{
    if (l->ntok != 4)
        return pc_error_set(err, PC_EFORMAT, st->path, line, "expected 'edge A B c'");
    int64_t a, b, c;
    int rc = tok_num(l, 1, PETS_MAX_TASKS, "edge source", st->path, line, &a, err);
    if (!rc)
        rc = tok_num(l, 2, PETS_MAX_TASKS, "edge target", st->path, line, &b, err);
    if (!rc)
        rc = tok_num(l, 3, PETS_MAX_VALUE, "communication cost", st->path, line, &c, err);
    if (rc)
        return rc;
    if (a < 1 || a > st->n || b < 1 || b > st->n)
        return pc_error_set(err, PC_EFORMAT, st->path, line, "edge %lld %lld: unknown task (tasks are 1..%ld)",
                            (long long)a, (long long)b, (long)st->n);
    if (a == b)
        return pc_error_set(err, PC_EFORMAT, st->path, line, "edge %lld %lld: self-loop",
                            (long long)a, (long long)b);
    if (st->nedges == PETS_MAX_EDGES)
        return pc_error_set(err, PC_ERANGE, st->path, line, "more than %d edges", PETS_MAX_EDGES);
    if (st->nedges == st->cap) {
        int64_t cap = st->cap ? st->cap * 2 : 64;
        pets_edge *e = pc_realloc(st->edges, (size_t)cap * sizeof *e);
        if (!e)
            return pc_error_nomem(err, "reading a .dag file");
        st->edges = e;
        st->cap = cap;
    }
    st->edges[st->nedges++] = (pets_edge){(int32_t)(a - 1), (int32_t)(b - 1), c, line};
    return PC_OK;
}

int pets_dag_parse(const char *text, size_t len, const char *path, pets_dag *dag, pc_error *err)
{
    memset(dag, 0, sizeof *dag);
    dag_parse st = {.path = path ? path : "(input)"};
    dag_line *l = pc_malloc(sizeof *l);
    if (!l)
        return pc_error_nomem(err, "reading a .dag file");
    int rc = PC_OK;
    long line = 0;
    const char *p = text, *end = text + len;
    while (p < end && !rc) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *eol = nl ? nl : end;
        line++;
        if (memchr(p, '\0', (size_t)(eol - p))) {
            rc = pc_error_set(err, PC_EFORMAT, st.path, line, "NUL byte in a text file");
            break;
        }
        line_split(p, eol, l);
        p = nl ? nl + 1 : end;
        if (l->ntok == 0)
            continue;
        if (!st.cost)
            rc = parse_header(&st, l, line, len, err);
        else if (tok_is(l, 0, "cost"))
            rc = parse_cost(&st, l, line, err);
        else if (tok_is(l, 0, "edge"))
            rc = parse_edge(&st, l, line, err);
        else if (tok_is(l, 0, "tasks"))
            rc = pc_error_set(err, PC_EFORMAT, st.path, line, "second 'tasks' header");
        else
            rc = pc_error_set(err, PC_EFORMAT, st.path, line, "unknown line '%.*s' (expected cost or edge)",
                              (int)(l->len[0] > 40 ? 40 : l->len[0]), l->tok[0]);
    }
    if (!rc && !st.cost)
        rc = pc_error_set(err, PC_EFORMAT, st.path, line, "no 'tasks N processors P' header");
    for (int32_t t = 0; !rc && t < st.n; t++)
        if (!st.cost_line[t])
            rc = pc_error_set(err, PC_EFORMAT, st.path, line, "task %ld has no cost line", (long)t + 1);
    if (!rc)
        rc = pets_dag_build(dag, st.n, st.p, st.cost, st.edges, st.nedges, st.path, err);
    pc_free(l);
    pc_free(st.cost);
    pc_free(st.cost_line);
    pc_free(st.edges);
    return rc;
}

/* The file is mapped rather than copied: at 2^19 tasks (53 MB) the copy
 * and its fresh pages cost about a sixth of reading. */
int pets_dag_read(const char *path, pets_dag *dag, pc_error *err)
{
    memset(dag, 0, sizeof *dag);
    pc_file_map m;
    int rc = pc_file_map_open(path, &m, err);
    if (rc)
        return rc;
    if (m.size > DAG_MAX_FILE_BYTES)
        rc = pc_error_set(err, PC_ERANGE, path, 0, "file of %zu bytes is larger than the limit of %zu bytes",
                          m.size, DAG_MAX_FILE_BYTES);
    else
        rc = pets_dag_parse((const char *)m.data, m.size, path, dag, err);
    pc_file_map_close(&m);
    return rc;
}

int pets_dag_fwrite(FILE *f, const pets_dag *dag, const char *comment)
{
    if (comment && *comment)
        fprintf(f, "# %s\n", comment);
    fprintf(f, "# tasks are numbered from 1; 'cost T w1 .. wP' is task T's cost on each processor;\n"
               "# 'edge A B c' means B needs A's output, costing c when A and B run on different processors.\n");
    fprintf(f, "tasks %ld processors %ld\n", (long)dag->ntasks, (long)dag->nprocs);
    for (int32_t t = 0; t < dag->ntasks; t++) {
        fprintf(f, "cost %ld", (long)t + 1);
        for (int32_t q = 0; q < dag->nprocs; q++)
            fprintf(f, " %lld", (long long)dag->cost[(int64_t)t * dag->nprocs + q]);
        fputc('\n', f);
    }
    for (int32_t k = 0; k < dag->nedges; k++)
        fprintf(f, "edge %ld %ld %lld\n", (long)dag->edge_from[k] + 1, (long)dag->edge_to[k] + 1,
                (long long)dag->edge_comm[k]);
    return ferror(f) ? PC_EIO : PC_OK;
}

int pets_dag_write(const char *path, const pets_dag *dag, const char *comment, pc_error *err)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return pc_error_set(err, PC_EIO, path, 0, "cannot open for writing");
    int rc = pets_dag_fwrite(f, dag, comment);
    if (fclose(f) != 0 || rc)
        return pc_error_set(err, PC_EIO, path, 0, "write failed");
    return PC_OK;
}
