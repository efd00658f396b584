/* pets_import.c - what the importers share: parameters, name lookups, and
 * turning runtimes and file sizes into a checked task graph. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pc_alloc.h"
#include "pets_priv.h"

void pets_import_defaults(pets_import_params *p)
{
    *p = (pets_import_params){.procs = 4, .eta = 0, .seed = 1, .bandwidth = 125e6, .time_scale = 1000};
}

int pets_import_available(const char *format)
{
    if (!strcmp(format, "stg"))
        return 1;
    if (!strcmp(format, "wfcommons"))
        return PC_HAVE_JANSSON;
    if (!strcmp(format, "dax"))
        return PC_HAVE_LIBXML2;
    return 0;
}

int pets_import_units(double seconds, double scale, int64_t *out)
{
    double x = seconds * scale;
    if (!(x >= 0) || x > (double)PETS_MAX_VALUE)
        return PC_ERANGE;
    *out = (int64_t)floor(x + 0.5);
    return PC_OK;
}

int pets_import_finish(pets_dag *dag, const char *path, int32_t n, const int64_t *mean,
                       pets_edge *edges, int64_t nedges, const pets_import_params *ip,
                       pc_error *err)
{
    memset(dag, 0, sizeof *dag);
    if (n < 1 || n > PETS_MAX_TASKS)
        return pc_error_set(err, PC_ERANGE, path, 0, "%ld tasks: must be within [1, %d]", (long)n,
                            PETS_MAX_TASKS);
    if (ip->procs < 1 || ip->procs > PETS_MAX_PROCS || (int64_t)n * ip->procs > PETS_MAX_CELLS)
        return pc_error_set(err, PC_ERANGE, path, 0, "%ld tasks on %ld processors: too many costs",
                            (long)n, (long)ip->procs);
    int64_t *cost = pc_malloc_array((size_t)n * (size_t)ip->procs, sizeof *cost);
    if (!cost)
        return pc_error_nomem(err, "importing a task graph");
    pets_heterogeneity(mean, n, ip->procs, ip->eta, ip->seed, cost);
    int rc = pets_dag_build(dag, n, ip->procs, cost, edges, nedges, path, err);
    pc_free(cost);
    return rc;
}

static const char *const *g_sort_names; /* qsort has no context argument in C11 */

static int name_idx_cmp(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    int c = strcmp(g_sort_names[x], g_sort_names[y]);
    return c ? c : (x > y) - (x < y);
}

int pets_names_build(pets_names *nm, const char *const *names, int32_t n, pc_error *err)
{
    memset(nm, 0, sizeof *nm);
    nm->dup = -1;
    int32_t *ix = pc_malloc_array((size_t)n + 1, sizeof *ix);
    nm->name = pc_malloc_array((size_t)n + 1, sizeof *nm->name);
    nm->first = pc_malloc_array((size_t)n + 1, sizeof *nm->first);
    if (!ix || !nm->name || !nm->first) {
        pc_free(ix);
        pets_names_free(nm);
        return pc_error_nomem(err, "indexing names");
    }
    for (int32_t i = 0; i < n; i++)
        ix[i] = i;
    g_sort_names = names;
    qsort(ix, (size_t)n, sizeof *ix, name_idx_cmp);
    for (int32_t k = 0; k < n; k++) {
        if (nm->n && strcmp(nm->name[nm->n - 1], names[ix[k]]) == 0) {
            if (nm->dup < 0 || ix[k] < nm->dup) /* the repeat that comes first in the input */
                nm->dup = ix[k];
            continue;
        }
        nm->name[nm->n] = names[ix[k]];
        nm->first[nm->n] = ix[k];
        nm->n++;
    }
    pc_free(ix);
    return PC_OK;
}

int32_t pets_names_find(const pets_names *nm, const char *name)
{
    int32_t lo = 0, hi = nm->n;
    while (lo < hi) {
        int32_t mid = lo + (hi - lo) / 2;
        int c = strcmp(nm->name[mid], name);
        if (c == 0)
            return mid;
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return -1;
}

void pets_names_free(pets_names *nm)
{
    pc_free(nm->name);
    pc_free(nm->first);
    memset(nm, 0, sizeof *nm);
}

static int fref_cmp(const void *a, const void *b)
{
    const pets_fref *x = a, *y = b;
    if (x->task != y->task)
        return x->task < y->task ? -1 : 1;
    return (x->file > y->file) - (x->file < y->file);
}

static int pair_cmp(const void *a, const void *b)
{
    const pets_edge *x = a, *y = b;
    if (x->from != y->from)
        return x->from < y->from ? -1 : 1;
    return (x->to > y->to) - (x->to < y->to);
}

int pets_import_workflow(pets_dag *dag, const char *path, int32_t n, const int64_t *mean,
                         const pets_fref *refs, int64_t nrefs, const double *fsize,
                         int32_t nfiles, pets_edge *edges, int64_t nedges,
                         const pets_import_params *ip, pc_error *err)
{
    memset(dag, 0, sizeof *dag);
    pets_fref *fr = pc_malloc_array((size_t)nrefs + 1, sizeof *fr);
    int32_t *off = pc_calloc((size_t)n + 1, sizeof *off);
    int64_t *stamp = pc_malloc_array((size_t)nfiles + 1, sizeof *stamp);
    if (!fr || !off || !stamp) {
        pc_free(fr);
        pc_free(off);
        pc_free(stamp);
        return pc_error_nomem(err, "importing a workflow");
    }
    /* refs and edges are NULL when a workflow has no file references or
     * no parent links: memcpy and qsort must not be given them */
    if (nrefs > 0)
        memcpy(fr, refs, (size_t)nrefs * sizeof *fr);
    qsort(fr, (size_t)nrefs, sizeof *fr, fref_cmp);
    for (int64_t k = 0; k < nrefs; k++)
        off[fr[k].task + 1]++;
    for (int32_t t = 0; t < n; t++)
        off[t + 1] += off[t];
    for (int32_t f = 0; f < nfiles; f++)
        stamp[f] = -1;
    /* merge repeated (parent, child) pairs */
    if (nedges > 1)
        qsort(edges, (size_t)nedges, sizeof *edges, pair_cmp);
    int64_t m = 0;
    for (int64_t k = 0; k < nedges; k++)
        if (!m || edges[m - 1].from != edges[k].from || edges[m - 1].to != edges[k].to)
            edges[m++] = edges[k];
    int rc = PC_OK;
    for (int64_t k = 0; k < m && !rc; k++) {
        int32_t u = edges[k].from, v = edges[k].to;
        for (int32_t j = off[u]; j < off[u + 1]; j++)
            if (fr[j].out)
                stamp[fr[j].file] = k;
        double bytes = 0;
        for (int32_t j = off[v]; j < off[v + 1]; j++)
            if (!fr[j].out && stamp[fr[j].file] == k) {
                bytes += fsize[fr[j].file];
                stamp[fr[j].file] = -1; /* a file listed twice counts once */
            }
        if (pets_import_units(bytes / ip->bandwidth, ip->time_scale, &edges[k].comm))
            rc = pc_error_set(err, PC_ERANGE, path, edges[k].line,
                              "communication cost of %g bytes is past %lld units", bytes,
                              (long long)PETS_MAX_VALUE);
    }
    if (!rc)
        rc = pets_import_finish(dag, path, n, mean, edges, m, ip, err);
    pc_free(fr);
    pc_free(off);
    pc_free(stamp);
    return rc;
}
