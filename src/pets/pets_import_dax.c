/* pets_import_dax.c - Pegasus DAX workflows (XML, as used by WorkflowSim):
 * <job id runtime> with <uses file|name link size>, and <child ref> with
 * <parent ref>; parsed with libxml2 (no network, no entity expansion). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pc_alloc.h"
#include "pc_file.h"
#include "pets_priv.h"

#if PC_HAVE_LIBXML2
#include <libxml/parser.h>
#include <libxml/tree.h>

#define DAX_MAX_FILE_BYTES ((size_t)1 << 30)

static int is_elem(const xmlNode *n, const char *name)
{
    return n->type == XML_ELEMENT_NODE && strcmp((const char *)n->name, name) == 0;
}

/* The value of attribute name (borrowed from the tree), or NULL. */
static const char *attr(const xmlNode *n, const char *name)
{
    for (const xmlAttr *a = n->properties; a; a = a->next)
        if (strcmp((const char *)a->name, name) == 0)
            return a->children && a->children->type == XML_TEXT_NODE ? (const char *)a->children->content : "";
    return NULL;
}

static int parse_real(const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = s ? strtod(s, &end) : 0;
    if (!s || end == s || *end || errno == ERANGE || !isfinite(v) || v < 0)
        return PC_EFORMAT;
    *out = v;
    return PC_OK;
}

typedef struct dax {
    const char *path;
    pc_error *err;
    int32_t n, nuses;
    const char **jid, **uname;
    const xmlNode **jnode;
    double *usize, *fsize;
    int64_t *mean;
    pets_fref *refs;
    pets_edge *edges;
    int64_t ne, ecap;
    pets_names jn, fn;
} dax;

static int dax_collect(dax *d, const xmlNode *root, const pets_import_params *ip)
{
    int64_t n = 0, nu = 0;
    for (const xmlNode *j = root->children; j; j = j->next)
        if (is_elem(j, "job")) {
            n++;
            for (const xmlNode *u = j->children; u; u = u->next)
                nu += is_elem(u, "uses");
        }
    if (n < 1 || n > PETS_MAX_TASKS)
        return pc_error_set(d->err, PC_ERANGE, d->path, 0, "%lld jobs: must be within [1, %d]", (long long)n,
                            PETS_MAX_TASKS);
    if (nu > PETS_MAX_EDGES)
        return pc_error_set(d->err, PC_ERANGE, d->path, 0, "%lld file uses: too many", (long long)nu);
    d->n = (int32_t)n;
    d->nuses = (int32_t)nu;
    d->jid = pc_malloc_array((size_t)n, sizeof *d->jid);
    d->jnode = pc_malloc_array((size_t)n, sizeof *d->jnode);
    d->mean = pc_malloc_array((size_t)n, sizeof *d->mean);
    d->uname = pc_malloc_array((size_t)nu + 1, sizeof *d->uname);
    d->usize = pc_malloc_array((size_t)nu + 1, sizeof *d->usize);
    d->refs = pc_malloc_array((size_t)nu + 1, sizeof *d->refs);
    if (!d->jid || !d->jnode || !d->mean || !d->uname || !d->usize || !d->refs)
        return pc_error_nomem(d->err, "importing a DAX file");
    int32_t i = 0, k = 0;
    for (const xmlNode *j = root->children; j; j = j->next) {
        if (!is_elem(j, "job"))
            continue;
        long line = xmlGetLineNo(j);
        d->jid[i] = attr(j, "id");
        d->jnode[i] = j;
        double rt;
        if (!d->jid[i])
            return pc_error_set(d->err, PC_EFORMAT, d->path, line, "job without an id");
        if (parse_real(attr(j, "runtime"), &rt))
            return pc_error_set(d->err, PC_EFORMAT, d->path, line, "job %.80s: missing or bad runtime", d->jid[i]);
        if (pets_import_units(rt, ip->time_scale, &d->mean[i]))
            return pc_error_set(d->err, PC_ERANGE, d->path, line, "job %.80s: runtime %g too large", d->jid[i], rt);
        for (const xmlNode *u = j->children; u; u = u->next) {
            if (!is_elem(u, "uses"))
                continue;
            const char *f = attr(u, "file"), *link = attr(u, "link"), *size = attr(u, "size");
            if (!f)
                f = attr(u, "name");
            if (!f || !link || (strcmp(link, "input") && strcmp(link, "output")))
                return pc_error_set(d->err, PC_EFORMAT, d->path, xmlGetLineNo(u),
                                    "<uses> needs file and link=\"input|output\"");
            d->usize[k] = 0;
            if (size && parse_real(size, &d->usize[k]))
                return pc_error_set(d->err, PC_EFORMAT, d->path, xmlGetLineNo(u), "bad size '%.40s'", size);
            d->uname[k] = f;
            d->refs[k] = (pets_fref){i, 0, strcmp(link, "output") == 0};
            k++;
        }
        i++;
    }
    int rc = pets_names_build(&d->jn, d->jid, d->n, d->err);
    if (!rc && d->jn.dup >= 0)
        rc = pc_error_set(d->err, PC_EFORMAT, d->path, xmlGetLineNo(d->jnode[d->jn.dup]),
                          "job id %.80s given twice", d->jid[d->jn.dup]);
    if (!rc)
        rc = pets_names_build(&d->fn, d->uname, d->nuses, d->err);
    if (!rc && !(d->fsize = pc_calloc((size_t)d->fn.n + 1, sizeof *d->fsize)))
        rc = pc_error_nomem(d->err, "importing a DAX file");
    for (k = 0; !rc && k < d->nuses; k++) {
        int32_t f = pets_names_find(&d->fn, d->uname[k]);
        d->refs[k].file = f;
        if (d->usize[k] > d->fsize[f]) /* a file's size: the largest given */
            d->fsize[f] = d->usize[k];
    }
    return rc;
}

static int dax_edges(dax *d, const xmlNode *root)
{
    for (const xmlNode *c = root->children; c; c = c->next) {
        if (!is_elem(c, "child"))
            continue;
        const char *ref = attr(c, "ref");
        int32_t v = ref ? pets_names_find(&d->jn, ref) : -1;
        if (v < 0)
            return pc_error_set(d->err, PC_EFORMAT, d->path, xmlGetLineNo(c), "<child> names no job");
        for (const xmlNode *p = c->children; p; p = p->next) {
            if (!is_elem(p, "parent"))
                continue;
            const char *pr = attr(p, "ref");
            int32_t u = pr ? pets_names_find(&d->jn, pr) : -1;
            long line = xmlGetLineNo(p);
            if (u < 0)
                return pc_error_set(d->err, PC_EFORMAT, d->path, line, "<parent> names no job");
            int e = pets_edges_push(&d->edges, &d->ne, &d->ecap,
                                    (pets_edge){d->jn.first[u], d->jn.first[v], 0, line});
            if (e)
                return e == PC_ENOMEM ? pc_error_nomem(d->err, "importing a DAX file")
                                      : pc_error_set(d->err, e, d->path, line, "too many edges");
        }
    }
    return PC_OK;
}

int pets_import_dax(const char *path, const pets_import_params *ip, pets_dag *dag, pc_error *err)
{
    memset(dag, 0, sizeof *dag);
    unsigned char *data;
    size_t len;
    int rc = pc_file_read_all(path, DAX_MAX_FILE_BYTES, &data, &len, err);
    if (rc)
        return rc;
    if (len > (size_t)INT32_MAX) {
        pc_free(data);
        return pc_error_set(err, PC_ERANGE, path, 0, "too large for libxml2");
    }
    xmlParserCtxtPtr ctxt = xmlNewParserCtxt();
    if (!ctxt) {
        pc_free(data);
        return pc_error_nomem(err, "parsing XML");
    }
    /* Only elements and attributes are read: the whitespace between
     * elements is not kept as text nodes (NOBLANKS) and short texts live
     * inside their node (COMPACT; the tree is never modified). Each of
     * those nodes was an allocation: a third of the parse. */
    xmlDocPtr doc = xmlCtxtReadMemory(ctxt, (const char *)data, (int)len, path, NULL,
                                      XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING |
                                          XML_PARSE_NOBLANKS | XML_PARSE_COMPACT);
    pc_free(data);
    if (!doc) {
        const xmlError *xe = xmlCtxtGetLastError(ctxt);
        rc = pc_error_set(err, PC_EFORMAT, path, xe ? xe->line : 0, "XML: %s",
                          xe && xe->message ? xe->message : "not well-formed");
        /* libxml2 messages end with a newline */
        size_t l = strlen(err->msg);
        if (l && err->msg[l - 1] == '\n')
            err->msg[l - 1] = '\0';
        xmlFreeParserCtxt(ctxt);
        return rc;
    }
    dax d;
    memset(&d, 0, sizeof d);
    d.path = path;
    d.err = err;
    const xmlNode *root = xmlDocGetRootElement(doc);
    if (!root || !is_elem(root, "adag"))
        rc = pc_error_set(err, PC_EFORMAT, path, root ? xmlGetLineNo(root) : 0, "root element is not <adag>");
    if (!rc)
        rc = dax_collect(&d, root, ip);
    if (!rc)
        rc = dax_edges(&d, root);
    if (!rc)
        rc = pets_import_workflow(dag, path, d.n, d.mean, d.refs, d.nuses, d.fsize, d.fn.n, d.edges, d.ne, ip, err);
    pets_names_free(&d.jn);
    pets_names_free(&d.fn);
    pc_free(d.jid);
    pc_free(d.jnode);
    pc_free(d.mean);
    pc_free(d.uname);
    pc_free(d.usize);
    pc_free(d.fsize);
    pc_free(d.refs);
    pc_free(d.edges);
    xmlFreeDoc(doc);
    xmlFreeParserCtxt(ctxt);
    return rc;
}

#else

int pets_import_dax(const char *path, const pets_import_params *ip, pets_dag *dag, pc_error *err)
{
    (void)ip;
    memset(dag, 0, sizeof *dag);
    return pc_error_set(err, PC_EUNAVAIL, path, 0,
                        "DAX import is not in this build (libxml2 missing: apt-get install libxml2-dev)");
}

#endif
