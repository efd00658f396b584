/* pets_import_stg.c - Standard Task Graph Set files: a first line n, then
 * one line per task "id cost npred pred...", ids 0, 1, ... in order; task 0
 * and the last are the zero-cost dummies. Files list n+2 tasks, or n when
 * the count already includes the dummies (both occur in the wild). Lines
 * from a '#' on are comments. No communication costs. */
#include <string.h>

#include "pc_alloc.h"
#include "pc_file.h"
#include "pets_priv.h"

#define STG_MAX_FILE_BYTES ((size_t)1 << 30)

/* Next whole number on the current line: 1 found, 0 at end of line, <0 error. */
static int stg_num(const char **pp, const char *eol, int64_t max, int64_t *out)
{
    const char *p = *pp;
    while (p < eol && (*p == ' ' || *p == '\t' || *p == '\r'))
        p++;
    if (p >= eol || *p == '#') {
        *pp = p;
        return 0;
    }
    if (*p == '-')
        return PC_ERANGE;
    int64_t v = 0;
    const char *s = p;
    while (p < eol && *p >= '0' && *p <= '9') {
        if (v > (max - (*p - '0')) / 10)
            return PC_ERANGE;
        v = v * 10 + (*p++ - '0');
    }
    if (p == s || (p < eol && *p != ' ' && *p != '\t' && *p != '\r' && *p != '#'))
        return PC_EFORMAT;
    *pp = p;
    *out = v;
    return 1;
}

int pets_import_stg(const char *path, const pets_import_params *ip, pets_dag *dag, pc_error *err)
{
    memset(dag, 0, sizeof *dag);
    unsigned char *data;
    size_t len;
    int rc = pc_file_read_all(path, STG_MAX_FILE_BYTES, &data, &len, err);
    if (rc)
        return rc;
    const char *p = (const char *)data, *end = p + len;
    int64_t *mean = NULL;
    pets_edge *edges = NULL;
    int64_t ne = 0, cap = 0, declared = -1, rows = 0, maxrows = 0;
    long line = 0;
    while (p < end && !rc) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *eol = nl ? nl : end, *q = p;
        p = nl ? nl + 1 : end;
        line++;
        int64_t v[3];
        int k = 0, got = 1;
        while (k < 3 && (got = stg_num(&q, eol, PETS_MAX_VALUE, &v[k])) == 1)
            k++;
        if (got < 0) {
            rc = pc_error_set(err, got, path, line, got == PC_ERANGE ? "negative or too large number"
                                                                     : "not a whole number");
            break;
        }
        if (k == 0)
            continue; /* blank or comment */
        if (declared < 0) {
            if (k != 1 || v[0] < 1 || v[0] > PETS_MAX_TASKS - 2) {
                rc = pc_error_set(err, PC_EFORMAT, path, line,
                                  "expected the task count (1..%d) alone on the first line", PETS_MAX_TASKS - 2);
                break;
            }
            declared = v[0];
            maxrows = declared + 2;
            /* each task line holds at least "i c k": 6 bytes */
            if ((size_t)declared * 6 > len) {
                rc = pc_error_set(err, PC_EFORMAT, path, line,
                                  "declares %lld tasks but the file holds only %zu bytes",
                                  (long long)declared, len);
                break;
            }
            mean = pc_malloc_array((size_t)maxrows, sizeof *mean);
            if (!mean)
                rc = pc_error_nomem(err, "importing an STG file");
            continue;
        }
        if (k < 3) {
            rc = pc_error_set(err, PC_EFORMAT, path, line, "expected 'id cost npred preds...'");
            break;
        }
        if (rows == maxrows) {
            rc = pc_error_set(err, PC_EFORMAT, path, line, "more than %lld task lines", (long long)maxrows);
            break;
        }
        if (v[0] != rows) {
            rc = pc_error_set(err, PC_EFORMAT, path, line, "task id %lld, expected %lld", (long long)v[0],
                              (long long)rows);
            break;
        }
        mean[rows] = v[1];
        for (int64_t j = 0; j < v[2] && !rc; j++) {
            int64_t u;
            got = stg_num(&q, eol, PETS_MAX_TASKS, &u);
            if (got != 1)
                rc = pc_error_set(err, got == PC_ERANGE ? PC_ERANGE : PC_EFORMAT, path, line,
                                  "task %lld: expected %lld predecessors", (long long)rows, (long long)v[2]);
            else if (u >= maxrows)
                rc = pc_error_set(err, PC_EFORMAT, path, line, "task %lld: unknown predecessor %lld",
                                  (long long)rows, (long long)u);
            else if ((got = pets_edges_push(&edges, &ne, &cap, (pets_edge){(int32_t)u, (int32_t)rows, 0, line})))
                rc = got == PC_ENOMEM ? pc_error_nomem(err, "importing an STG file")
                                      : pc_error_set(err, got, path, line, "too many edges");
        }
        int64_t extra;
        if (!rc && stg_num(&q, eol, PETS_MAX_VALUE, &extra) != 0)
            rc = pc_error_set(err, PC_EFORMAT, path, line, "task %lld: more than %lld predecessors",
                              (long long)rows, (long long)v[2]);
        rows++;
    }
    if (!rc && declared < 0)
        rc = pc_error_set(err, PC_EFORMAT, path, line, "empty STG file");
    if (!rc && rows != declared && rows != declared + 2)
        rc = pc_error_set(err, PC_EFORMAT, path, line, "%lld task lines for %lld tasks (expected %lld or %lld)",
                          (long long)rows, (long long)declared, (long long)declared, (long long)declared + 2);
    for (int64_t k = 0; !rc && k < ne; k++)
        if (edges[k].from >= rows)
            rc = pc_error_set(err, PC_EFORMAT, path, edges[k].line, "unknown predecessor %ld",
                              (long)edges[k].from);
    if (!rc)
        rc = pets_import_finish(dag, path, (int32_t)rows, mean, edges, ne, ip, err);
    pc_free(mean);
    pc_free(edges);
    pc_free(data);
    return rc;
}
