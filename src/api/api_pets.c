/* api_pets.c - parcheck_check_pets: plain arrays (1-based ids) turned
 * into the checked graph of src/pets (pets_dag_build: the input
 * preparation every reader shares), then judged by
 * oracles/pets/pets_check.h. */
#include "api_priv.h"
#include "check_fill.h"
#include "pc_alloc.h"

static const char FUNC[] = "parcheck_check_pets";

/* pets_dag_build names a bad edge "edges:E:" (E its 1-based position, our
 * "path:line"), and prefixes "edges: " to what is not about one edge:
 * keep the first, drop the second. */
static int graph_fail(char *msg, size_t msg_len, int rc, const pc_error *err)
{
    return api_fail_err(msg, msg_len, rc, FUNC, err, "edges: ");
}

/* The edges, 0-based, each with its 1-based position as its "line";
 * *out is pc_alloc'd (NULL when there are none). */
static int edges_of(int32_t ntasks, int64_t nedges, const int32_t *from, const int32_t *to,
                    const int64_t *comm, pets_edge **out, char *msg, size_t msg_len)
{
    *out = NULL;
    if (!nedges)
        return PARCHECK_OK;
    pets_edge *e = pc_malloc_array((size_t)nedges, sizeof *e);
    if (!e)
        return api_fail(msg, msg_len, PARCHECK_ENOMEM, FUNC, "out of memory for %lld edges",
                        (long long)nedges);
    for (int64_t k = 0; k < nedges; k++) {
        /* range first: from - 1 must not overflow */
        if (from[k] < 1 || from[k] > ntasks || to[k] < 1 || to[k] > ntasks) {
            pc_free(e);
            return api_fail(msg, msg_len, PARCHECK_EFORMAT, FUNC,
                            "edges:%lld: edge %ld %ld: unknown task (tasks are 1..%ld)",
                            (long long)k + 1, (long)from[k], (long)to[k], (long)ntasks);
        }
        e[k] = (pets_edge){from[k] - 1, to[k] - 1, comm ? comm[k] : 0, (long)(k + 1)};
    }
    *out = e;
    return PARCHECK_OK;
}

int parcheck_check_pets(int32_t ntasks, int32_t nprocs, const int64_t *cost, int64_t nedges,
                        const int32_t *edge_from, const int32_t *edge_to,
                        const int64_t *edge_comm, int64_t nrows, const int64_t *task,
                        const int64_t *proc, const int64_t *start, const int64_t *finish,
                        parcheck_report *report, char *msg, size_t msg_len)
{
    api_report_clear(report);
    if (!report)
        return api_fail(msg, msg_len, PARCHECK_EINVAL, FUNC, "report is NULL");
    if (!cost || (nedges > 0 && (!edge_from || !edge_to)) ||
        (nrows > 0 && (!task || !proc || !start || !finish)))
        return api_fail(msg, msg_len, PARCHECK_EINVAL, FUNC,
                        "cost, an edge array or a schedule array is NULL");
    if (nrows < 0)
        return api_fail(msg, msg_len, PARCHECK_EINVAL, FUNC, "nrows is %lld", (long long)nrows);
    /* before anything is allocated from them */
    if (ntasks < 1 || ntasks > PETS_MAX_TASKS || nedges < 0 || nedges > PETS_MAX_EDGES)
        return api_fail(msg, msg_len, PARCHECK_ERANGE, FUNC,
                        "%ld tasks and %lld edges; tasks must be within [1, %d], "
                        "edges within [0, %d]",
                        (long)ntasks, (long long)nedges, PETS_MAX_TASKS, PETS_MAX_EDGES);
    pets_edge *edges;
    int rc = edges_of(ntasks, nedges, edge_from, edge_to, edge_comm, &edges, msg, msg_len);
    if (rc)
        return rc;
    pets_dag dag;
    pc_error err;
    pc_error_clear(&err);
    rc = pets_dag_build(&dag, ntasks, nprocs, cost, edges, nedges, "edges", &err);
    pc_free(edges);
    if (rc)
        return graph_fail(msg, msg_len, rc, &err);
    pets_check_report rep;
    rc = pets_check_schedule(&dag, nrows, task, proc, start, finish, 0, &rep, &err);
    if (!rc)
        rc = pets_check_pets_makespans(&dag, &rep, &err);
    pets_dag_free(&dag);
    if (rc)
        return api_fail_err(msg, msg_len, rc, FUNC, &err, NULL);
    check_fill_pets(&report->r, &rep);
    report->judged = 1;
    return PARCHECK_OK;
}
