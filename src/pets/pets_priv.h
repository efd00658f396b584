/* pets_priv.h - what the files of src/pets share and nothing else sees. */
#ifndef PETS_PRIV_H
#define PETS_PRIV_H

#include "pets.h"

/* The priority order: level ascending, rank descending, ACC ascending (the
 * sum of costs, ACC times P), task ascending. A total order. */
static inline int pets_prio_cmp(int32_t la, int64_t ra, int64_t ca, int32_t ta, int32_t lb,
                                int64_t rb, int64_t cb, int32_t tb)
{
    if (la != lb)
        return la < lb ? -1 : 1;
    if (ra != rb)
        return ra > rb ? -1 : 1;
    if (ca != cb)
        return ca < cb ? -1 : 1;
    return (ta > tb) - (ta < tb);
}

/* Appends x to a growable array of pets_edge (*n used of *cap; pets_dag.c,
 * for the generator and the importers). 0, PC_ERANGE past PETS_MAX_EDGES
 * or PC_ENOMEM (the array is then unchanged). */
int pets_edges_push(pets_edge **e, int64_t *n, int64_t *cap, pets_edge x);

/* The keys of the priority order, for qsort_r over task ids. */
typedef struct pets_prio_keys {
    const int32_t *level;
    const int64_t *rank;
    const int64_t *sumcost; /* ACC times P */
} pets_prio_keys;

/* qsort_r comparator of task ids a, b under pets_prio_cmp; ctx is a
 * pets_prio_keys. */
static inline int pets_prio_qsort_cmp(const void *a, const void *b, void *ctx)
{
    const pets_prio_keys *k = ctx;
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return pets_prio_cmp(k->level[x], k->rank[x], k->sumcost[x], x, k->level[y], k->rank[y],
                         k->sumcost[y], y);
}

/* The entries of pets_impls (pets_impl.c). */
int pets_serial_available(const pets_options *o, char *why, size_t whylen);
int pets_serial_run(const pets_dag *dag, const pets_options *o, pets_solution *s, pets_times *t,
                    pc_error *err);
int pets_ocl_available(const pets_options *o, char *why, size_t whylen);
int pets_ocl_run(const pets_dag *dag, const pets_options *o, pets_solution *s, pets_times *t,
                 pc_error *err);
int pets_ocl_vec8_run(const pets_dag *dag, const pets_options *o, pets_solution *s, pets_times *t,
                      pc_error *err);

int pets_omp_run(const pets_dag *dag, const pets_options *o, pets_solution *s, pets_times *t,
                 pc_error *err);

/* Test hook of pets_select.c: >= 0 makes the selection's booking thread
 * compute every chunk from that one on alone, as after long waits for its
 * workers (-1: only then). */
extern int g_pets_select_solo_at;

/* Test hook of pets_ocl.c: grid launches of the metrics that gave up (a
 * barrier waited past PARCHECK_PETS_GRID_SPIN reads) and were redone with
 * a launch per level; only ever incremented. */
extern int g_pets_ocl_grid_fallbacks;

/* The seed's selection (pets_select_linear.c), same contract as
 * pets_select_run. */
int pets_select_linear(const pets_dag *dag, int policy, pets_solution *s, pc_error *err);

/* Importers' common end: mean costs -> P costs with heterogeneity, then
 * the checked build. Takes ownership of nothing. */
int pets_import_finish(pets_dag *dag, const char *path, int32_t n, const int64_t *mean,
                       pets_edge *edges, int64_t nedges, const pets_import_params *ip,
                       pc_error *err);

/* Seconds -> integer cost units, rounded half up; PC_ERANGE past the limit. */
int pets_import_units(double seconds, double scale, int64_t *out);


/* ---- importers' shared parts (pets_import.c) ---- */

/* Sorted, de-duplicated names for id lookups; names are borrowed. */
typedef struct pets_names {
    const char **name; /* sorted unique */
    int32_t *first;    /* index in the input of the first occurrence */
    int32_t n;
    int32_t dup;       /* input index of the first repeat of a name, -1 when none */
} pets_names;

int pets_names_build(pets_names *nm, const char *const *names, int32_t n, pc_error *err);
/* Index of name in nm->name (the sorted list), or -1. */
int32_t pets_names_find(const pets_names *nm, const char *name);
void pets_names_free(pets_names *nm);

/* A file reference of a task: it reads (out = 0) or writes (out = 1) file. */
typedef struct pets_fref {
    int32_t task, file;
    int out;
} pets_fref;

/* The end of the WfCommons and DAX importers: communication cost of each
 * (parent, child) edge = bytes the parent writes and the child reads /
 * bandwidth, in cost units; repeated edges are merged; then
 * pets_import_finish. fsize[f] in bytes. */
int pets_import_workflow(pets_dag *dag, const char *path, int32_t n, const int64_t *mean,
                         const pets_fref *refs, int64_t nrefs, const double *fsize,
                         int32_t nfiles, pets_edge *edges, int64_t nedges,
                         const pets_import_params *ip, pc_error *err);

#endif
