/* pets_import_wfc.c - WfCommons JSON instances (schema 1.5: workflow.
 * specification.tasks with parents and files, workflow.specification.files
 * with sizes, workflow.execution.tasks with runtimes), parsed with jansson.
 * jansson keeps its own malloc: routed through pc_alloc, an injected failure
 * makes jansson 2.14 write past a buffer (seen under valgrind), so the
 * failure loop covers the code around it, not jansson's inside. */
#include <string.h>

#include "pc_alloc.h"
#include "pc_file.h"
#include "pets_priv.h"

#if PC_HAVE_JANSSON
#include <jansson.h>

#define WFC_MAX_FILE_BYTES ((size_t)1 << 30)


typedef struct wfc {
    const char *path;
    pc_error *err;
    int32_t n, nfiles;
    const char **tid;   /* task ids */
    const char **fid;   /* file ids */
    double *fsize;
    int64_t *mean;
    pets_fref *refs;
    int64_t nrefs, rcap;
    pets_edge *edges;
    int64_t ne, ecap;
    pets_names tnames, fnames;
} wfc;

static int wfc_bad(wfc *w, const char *what)
{
    return pc_error_set(w->err, PC_EFORMAT, w->path, 0, "%s", what);
}

static int wfc_push_ref(wfc *w, int32_t task, int32_t file, int out)
{
    if (w->nrefs == w->rcap) {
        int64_t c = w->rcap ? w->rcap * 2 : 256;
        pets_fref *v = pc_realloc(w->refs, (size_t)c * sizeof *v);
        if (!v)
            return pc_error_nomem(w->err, "importing a WfCommons file");
        w->refs = v;
        w->rcap = c;
    }
    w->refs[w->nrefs++] = (pets_fref){task, file, out};
    return PC_OK;
}

/* Task i's input or output files, as references to the file table. */
static int wfc_files(wfc *w, json_t *task, const char *key, int32_t i, int out)
{
    json_t *arr = json_object_get(task, key), *x;
    size_t k;
    if (!arr)
        return PC_OK;
    if (!json_is_array(arr))
        return pc_error_set(w->err, PC_EFORMAT, w->path, 0, "task %s: %s is not an array", w->tid[i], key);
    json_array_foreach(arr, k, x) {
        if (!json_is_string(x))
            return pc_error_set(w->err, PC_EFORMAT, w->path, 0, "task %s: %s holds a non-string", w->tid[i], key);
        int32_t f = pets_names_find(&w->fnames, json_string_value(x));
        if (f < 0)
            return pc_error_set(w->err, PC_EFORMAT, w->path, 0, "task %s: unknown file '%.80s'", w->tid[i],
                                json_string_value(x));
        int rc = wfc_push_ref(w, i, f, out);
        if (rc)
            return rc;
    }
    return PC_OK;
}

static int wfc_convert(wfc *w, json_t *root, const pets_import_params *ip, pets_dag *dag)
{
    json_t *wf = json_object_get(root, "workflow");
    json_t *spec = wf ? json_object_get(wf, "specification") : NULL;
    json_t *exec = wf ? json_object_get(wf, "execution") : NULL;
    json_t *tasks = spec ? json_object_get(spec, "tasks") : NULL;
    json_t *files = spec ? json_object_get(spec, "files") : NULL;
    json_t *etasks = exec ? json_object_get(exec, "tasks") : NULL;
    if (!json_is_array(tasks) || !json_is_array(etasks))
        return wfc_bad(w, "not a WfCommons 1.5 instance (needs workflow.specification.tasks and "
                          "workflow.execution.tasks)");
    size_t n = json_array_size(tasks), nf = files ? json_array_size(files) : 0;
    if (n < 1 || n > PETS_MAX_TASKS)
        return pc_error_set(w->err, PC_ERANGE, w->path, 0, "%zu tasks: must be within [1, %d]", n, PETS_MAX_TASKS);
    if (nf > PETS_MAX_EDGES)
        return pc_error_set(w->err, PC_ERANGE, w->path, 0, "%zu files: too many", nf);
    w->n = (int32_t)n;
    w->nfiles = (int32_t)nf;
    w->tid = pc_calloc(n, sizeof *w->tid);
    w->mean = pc_malloc_array(n, sizeof *w->mean);
    w->fid = pc_calloc(nf + 1, sizeof *w->fid);
    w->fsize = pc_calloc(nf + 1, sizeof *w->fsize);
    unsigned char *have = pc_calloc(n, 1);
    int rc = PC_OK;
    if (!w->tid || !w->mean || !w->fid || !w->fsize || !have) {
        pc_free(have);
        return pc_error_nomem(w->err, "importing a WfCommons file");
    }
    for (size_t i = 0; i < n && !rc; i++) {
        json_t *id = json_object_get(json_array_get(tasks, i), "id");
        if (!json_is_string(id))
            rc = pc_error_set(w->err, PC_EFORMAT, w->path, 0, "task %zu has no string id", i);
        else
            w->tid[i] = json_string_value(id);
    }
    for (size_t f = 0; f < nf && !rc; f++) {
        json_t *o = json_array_get(files, f), *id = json_object_get(o, "id"),
               *sz = json_object_get(o, "sizeInBytes");
        if (!json_is_string(id) || !json_is_number(sz) || json_number_value(sz) < 0)
            rc = pc_error_set(w->err, PC_EFORMAT, w->path, 0, "file %zu needs an id and sizeInBytes >= 0", f);
        else {
            w->fid[f] = json_string_value(id);
            w->fsize[f] = json_number_value(sz);
        }
    }
    if (!rc)
        rc = pets_names_build(&w->tnames, w->tid, w->n, w->err);
    if (!rc && w->tnames.dup >= 0)
        rc = pc_error_set(w->err, PC_EFORMAT, w->path, 0, "task id '%.80s' given twice", w->tid[w->tnames.dup]);
    if (!rc)
        rc = pets_names_build(&w->fnames, w->fid, w->nfiles, w->err);
    /* sizes of repeated file ids: the file table keeps the first */
    double *fs = NULL;
    if (!rc && !(fs = pc_calloc((size_t)w->fnames.n + 1, sizeof *fs)))
        rc = pc_error_nomem(w->err, "importing a WfCommons file");
    for (int32_t f = 0; !rc && f < w->fnames.n; f++)
        fs[f] = w->fsize[w->fnames.first[f]];
    /* runtimes from the execution section */
    size_t k;
    json_t *x;
    json_array_foreach(etasks, k, x) {
        if (rc)
            break;
        json_t *id = json_object_get(x, "id"), *rt = json_object_get(x, "runtimeInSeconds");
        if (!json_is_string(id) || !json_is_number(rt)) {
            rc = pc_error_set(w->err, PC_EFORMAT, w->path, 0, "execution task %zu needs id and runtimeInSeconds", k);
            break;
        }
        int32_t t = pets_names_find(&w->tnames, json_string_value(id));
        if (t < 0) {
            rc = pc_error_set(w->err, PC_EFORMAT, w->path, 0, "execution task '%.80s' is not in the specification",
                              json_string_value(id));
            break;
        }
        t = w->tnames.first[t];
        if (pets_import_units(json_number_value(rt), ip->time_scale, &w->mean[t]))
            rc = pc_error_set(w->err, PC_ERANGE, w->path, 0, "task %s: runtime %g is negative or too large",
                              w->tid[t], json_number_value(rt));
        have[t] = 1;
    }
    for (int32_t t = 0; !rc && t < w->n; t++)
        if (!have[t])
            rc = pc_error_set(w->err, PC_EFORMAT, w->path, 0, "task %s has no runtime in workflow.execution",
                              w->tid[t]);
    /* parents and files of each task */
    for (int32_t i = 0; i < w->n && !rc; i++) {
        json_t *task = json_array_get(tasks, (size_t)i), *parents = json_object_get(task, "parents");
        if (parents && !json_is_array(parents)) {
            rc = pc_error_set(w->err, PC_EFORMAT, w->path, 0, "task %s: parents is not an array", w->tid[i]);
            break;
        }
        json_array_foreach(parents, k, x) {
            int32_t u = json_is_string(x) ? pets_names_find(&w->tnames, json_string_value(x)) : -1;
            if (u < 0) {
                rc = pc_error_set(w->err, PC_EFORMAT, w->path, 0, "task %s: unknown parent", w->tid[i]);
                break;
            }
            int e = pets_edges_push(&w->edges, &w->ne, &w->ecap, (pets_edge){w->tnames.first[u], i, 0, 0});
            if (e) {
                rc = e == PC_ENOMEM ? pc_error_nomem(w->err, "importing a WfCommons file")
                                    : pc_error_set(w->err, e, w->path, 0, "too many edges");
                break;
            }
        }
        if (!rc)
            rc = wfc_files(w, task, "inputFiles", i, 0);
        if (!rc)
            rc = wfc_files(w, task, "outputFiles", i, 1);
    }
    if (!rc)
        rc = pets_import_workflow(dag, w->path, w->n, w->mean, w->refs, w->nrefs, fs, w->fnames.n, w->edges,
                                  w->ne, ip, w->err);
    pc_free(fs);
    pc_free(have);
    return rc;
}

int pets_import_wfcommons(const char *path, const pets_import_params *ip, pets_dag *dag, pc_error *err)
{
    memset(dag, 0, sizeof *dag);
    unsigned char *data;
    size_t len;
    int rc = pc_file_read_all(path, WFC_MAX_FILE_BYTES, &data, &len, err);
    if (rc)
        return rc;
    json_error_t je;
    json_t *root = json_loadb((const char *)data, len, JSON_REJECT_DUPLICATES, &je);
    pc_free(data);
    if (!root) {
        return pc_error_set(err, PC_EFORMAT, path, je.line, "%s", je.text);
    }
    wfc w;
    memset(&w, 0, sizeof w);
    w.path = path;
    w.err = err;
    rc = wfc_convert(&w, root, ip, dag);
    pets_names_free(&w.tnames);
    pets_names_free(&w.fnames);
    pc_free(w.tid);
    pc_free(w.fid);
    pc_free(w.fsize);
    pc_free(w.mean);
    pc_free(w.refs);
    pc_free(w.edges);
    json_decref(root);
    return rc;
}

#else

int pets_import_wfcommons(const char *path, const pets_import_params *ip, pets_dag *dag, pc_error *err)
{
    (void)ip;
    memset(dag, 0, sizeof *dag);
    return pc_error_set(err, PC_EUNAVAIL, path, 0,
                        "WfCommons import is not in this build (jansson missing: apt-get install libjansson-dev)");
}

#endif
