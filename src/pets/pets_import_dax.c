/* pets_import_dax.c - Pegasus DAX workflows (XML, as used by WorkflowSim):
 * <job id runtime> with <uses file|name link size>, and <child ref> with
 * <parent ref>; read with libxml2's SAX2 interface, which builds no tree
 * (no network, no entity expansion). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pc_alloc.h"
#include "pc_file.h"
#include "pets_priv.h"

#if PC_HAVE_LIBXML2
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/tree.h>

#define DAX_MAX_FILE_BYTES ((size_t)1 << 30)
#define DAX_NONE (-1) /* an absent attribute */

/* What the SAX2 callbacks keep of the document: no tree, only the records
 * of the elements the importer reads, with their attribute values copied
 * into one text arena (an offset into it, or DAX_NONE) and the input line
 * of each start tag. Uses of a job and parents of a child are contiguous. */
typedef struct dax_job {
    int64_t id, runtime;
    long line;
    int32_t use0, nuse;
} dax_job;

typedef struct dax_use {
    int64_t file, name, link, size;
    long line;
} dax_use;

typedef struct dax_ref { /* a <child> (par0, npar: its parents) or a <parent> */
    int64_t ref;
    long line;
    int32_t par0, npar;
} dax_ref;

typedef struct dax {
    const char *path;
    pc_error *err;
    /* filled by the SAX2 callbacks */
    xmlParserCtxtPtr ctxt;
    int rc;         /* the first failure of a callback: PC_ENOMEM or PC_EFORMAT */
    int depth;      /* of the element being read; the root is 1 */
    int in;         /* the depth-2 element around depth 3: 'j' job, 'c' child, 0 other */
    int root_ok;    /* the root element is <adag> */
    long root_line;
    char xml_msg[200]; /* libxml2's first error, and the line of its last */
    long xml_line, xml_last_line;
    char *text;
    int64_t tlen, tcap;
    dax_job *job;
    dax_use *use;
    dax_ref *child, *parent;
    int64_t njob, nuse, nchild, nparent;
    int64_t jcap, ucap, ccap, pcap;
    /* filled from the records */
    int32_t n, nuses;
    const char **jid, **uname;
    double *usize, *fsize;
    int64_t *mean;
    pets_fref *refs;
    pets_edge *edges;
    int64_t ne, ecap;
    pets_names jn, fn;
} dax;

/* Makes room for one more element in *a (n used of *cap). */
static int dax_grow(void **a, int64_t n, int64_t *cap, size_t size)
{
    if (n < *cap)
        return PC_OK;
    int64_t c = *cap ? *cap * 2 : 64;
    void *v = pc_realloc(*a, (size_t)c * size);
    if (!v)
        return PC_ENOMEM;
    *a = v;
    *cap = c;
    return PC_OK;
}

/* Stops the parse on the first failure of a callback; the XML error the
 * stop raises is not reported (d->rc is). */
static void dax_fail(dax *d, int rc, const char *elem, const char *attr)
{
    if (d->rc)
        return;
    d->rc = rc;
    if (rc == PC_ENOMEM)
        pc_error_nomem(d->err, "importing a DAX file");
    else
        pc_error_set(d->err, rc, d->path, d->ctxt->input ? d->ctxt->input->line : 0,
                     "<%.40s %.40s>: entity references are not expanded", elem, attr);
    xmlStopParser(d->ctxt);
}

/* The next free record of array *a (n used of *cap), or NULL when it
 * cannot grow (the parse is then stopped). */
static void *dax_next(dax *d, void **a, int64_t n, int64_t *cap, size_t size)
{
    if (dax_grow(a, n, cap, size)) {
        dax_fail(d, PC_ENOMEM, "", "");
        return NULL;
    }
    return (char *)*a + (size_t)n * size;
}

/* Copies the value [v, end) of attribute `name` of the SAX2 array (5
 * pointers per attribute: local name, prefix, URI, value, end) into the
 * arena and returns its offset, or DAX_NONE when absent (-2 on failure).
 * Without entity substitution libxml2 leaves "&#38;" for a literal '&' and
 * "&name;" for a declared entity; only the first is decoded. */
static int64_t dax_attr(dax *d, const char *elem, const xmlChar **at, int nat, const char *name)
{
    for (int i = 0; i < nat; i++) {
        if (strcmp((const char *)at[5 * i], name) != 0)
            continue;
        const char *v = (const char *)at[5 * i + 3], *end = (const char *)at[5 * i + 4];
        size_t len = (size_t)(end - v);
        if (d->tlen + (int64_t)len + 1 > d->tcap) {
            int64_t c = d->tcap ? d->tcap : 4096;
            while (c < d->tlen + (int64_t)len + 1)
                c *= 2;
            char *t = pc_realloc(d->text, (size_t)c);
            if (!t) {
                dax_fail(d, PC_ENOMEM, elem, name);
                return -2;
            }
            d->text = t;
            d->tcap = c;
        }
        int64_t off = d->tlen;
        char *o = d->text + off;
        for (const char *s = v; s < end;) {
            if (*s != '&') {
                *o++ = *s++;
            } else if (end - s >= 5 && !memcmp(s, "&#38;", 5)) {
                *o++ = '&';
                s += 5;
            } else {
                dax_fail(d, PC_EFORMAT, elem, name);
                return -2;
            }
        }
        *o++ = '\0';
        d->tlen = o - d->text;
        return off;
    }
    return DAX_NONE;
}

static void dax_start(void *ctx, const xmlChar *local, const xmlChar *prefix, const xmlChar *uri, int nns,
                      const xmlChar **ns, int nat, int ndefaulted, const xmlChar **at)
{
    (void)prefix, (void)uri, (void)nns, (void)ns;
    xmlParserCtxtPtr ctxt = ctx;
    dax *d = ctxt->_private;
    const char *name = (const char *)local;
    long line = ctxt->input ? ctxt->input->line : 0;
    int depth = ++d->depth;
    nat -= ndefaulted; /* attributes from a DTD's defaults are not read (no DTDATTR) */
    if (d->rc)
        return;
    if (depth == 1) {
        d->root_ok = strcmp(name, "adag") == 0;
        d->root_line = line;
        return;
    }
    if (!d->root_ok || depth > 3)
        return;
    if (depth == 2) {
        d->in = 0;
        if (!strcmp(name, "job")) {
            dax_job *j = dax_next(d, (void **)&d->job, d->njob, &d->jcap, sizeof *d->job);
            if (!j)
                return;
            j->line = line;
            j->use0 = (int32_t)(d->nuse < INT32_MAX ? d->nuse : INT32_MAX);
            j->nuse = 0;
            if ((j->id = dax_attr(d, name, at, nat, "id")) < DAX_NONE ||
                (j->runtime = dax_attr(d, name, at, nat, "runtime")) < DAX_NONE)
                return;
            d->njob++;
            d->in = 'j';
        } else if (!strcmp(name, "child")) {
            dax_ref *c = dax_next(d, (void **)&d->child, d->nchild, &d->ccap, sizeof *d->child);
            if (!c)
                return;
            c->line = line;
            c->par0 = (int32_t)(d->nparent < INT32_MAX ? d->nparent : INT32_MAX);
            c->npar = 0;
            if ((c->ref = dax_attr(d, name, at, nat, "ref")) < DAX_NONE)
                return;
            d->nchild++;
            d->in = 'c';
        }
        return;
    }
    if (d->in == 'j' && !strcmp(name, "uses")) {
        dax_use *u = dax_next(d, (void **)&d->use, d->nuse, &d->ucap, sizeof *d->use);
        if (!u)
            return;
        u->line = line;
        if ((u->file = dax_attr(d, name, at, nat, "file")) < DAX_NONE ||
            (u->name = dax_attr(d, name, at, nat, "name")) < DAX_NONE ||
            (u->link = dax_attr(d, name, at, nat, "link")) < DAX_NONE ||
            (u->size = dax_attr(d, name, at, nat, "size")) < DAX_NONE)
            return;
        d->nuse++;
        d->job[d->njob - 1].nuse++;
    } else if (d->in == 'c' && !strcmp(name, "parent")) {
        dax_ref *p = dax_next(d, (void **)&d->parent, d->nparent, &d->pcap, sizeof *d->parent);
        if (!p)
            return;
        p->line = line;
        if ((p->ref = dax_attr(d, name, at, nat, "ref")) < DAX_NONE)
            return;
        d->nparent++;
        d->child[d->nchild - 1].npar++;
    }
}

static void dax_end(void *ctx, const xmlChar *local, const xmlChar *prefix, const xmlChar *uri)
{
    (void)local, (void)prefix, (void)uri;
    xmlParserCtxtPtr ctxt = ctx;
    dax *d = ctxt->_private;
    if (--d->depth == 1)
        d->in = 0;
}

/* The attribute at offset off, or NULL when absent. */
static const char *dax_str(const dax *d, int64_t off)
{
    return off == DAX_NONE ? NULL : d->text + off;
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

/* Jobs, their runtimes and file uses, in document order; then the job and
 * file name tables. */
static int dax_collect(dax *d, const pets_import_params *ip)
{
    int64_t n = d->njob, nu = d->nuse;
    if (n < 1 || n > PETS_MAX_TASKS)
        return pc_error_set(d->err, PC_ERANGE, d->path, 0, "%lld jobs: must be within [1, %d]", (long long)n,
                            PETS_MAX_TASKS);
    if (nu > PETS_MAX_EDGES)
        return pc_error_set(d->err, PC_ERANGE, d->path, 0, "%lld file uses: too many", (long long)nu);
    d->n = (int32_t)n;
    d->nuses = (int32_t)nu;
    d->jid = pc_malloc_array((size_t)n, sizeof *d->jid);
    d->mean = pc_malloc_array((size_t)n, sizeof *d->mean);
    d->uname = pc_malloc_array((size_t)nu + 1, sizeof *d->uname);
    d->usize = pc_malloc_array((size_t)nu + 1, sizeof *d->usize);
    d->refs = pc_malloc_array((size_t)nu + 1, sizeof *d->refs);
    if (!d->jid || !d->mean || !d->uname || !d->usize || !d->refs)
        return pc_error_nomem(d->err, "importing a DAX file");
    for (int32_t i = 0; i < d->n; i++) {
        const dax_job *j = &d->job[i];
        double rt;
        d->jid[i] = dax_str(d, j->id);
        if (!d->jid[i])
            return pc_error_set(d->err, PC_EFORMAT, d->path, j->line, "job without an id");
        if (parse_real(dax_str(d, j->runtime), &rt))
            return pc_error_set(d->err, PC_EFORMAT, d->path, j->line, "job %.80s: missing or bad runtime",
                                d->jid[i]);
        if (pets_import_units(rt, ip->time_scale, &d->mean[i]))
            return pc_error_set(d->err, PC_ERANGE, d->path, j->line, "job %.80s: runtime %g too large", d->jid[i],
                                rt);
        for (int32_t k = j->use0; k < j->use0 + j->nuse; k++) {
            const dax_use *u = &d->use[k];
            const char *f = dax_str(d, u->file), *link = dax_str(d, u->link), *size = dax_str(d, u->size);
            if (!f)
                f = dax_str(d, u->name);
            if (!f || !link || (strcmp(link, "input") && strcmp(link, "output")))
                return pc_error_set(d->err, PC_EFORMAT, d->path, u->line,
                                    "<uses> needs file and link=\"input|output\"");
            d->usize[k] = 0;
            if (size && parse_real(size, &d->usize[k]))
                return pc_error_set(d->err, PC_EFORMAT, d->path, u->line, "bad size '%.40s'", size);
            d->uname[k] = f;
            d->refs[k] = (pets_fref){i, 0, strcmp(link, "output") == 0};
        }
    }
    int rc = pets_names_build(&d->jn, d->jid, d->n, d->err);
    if (!rc && d->jn.dup >= 0)
        rc = pc_error_set(d->err, PC_EFORMAT, d->path, d->job[d->jn.dup].line, "job id %.80s given twice",
                          d->jid[d->jn.dup]);
    if (!rc)
        rc = pets_names_build(&d->fn, d->uname, d->nuses, d->err);
    if (!rc && !(d->fsize = pc_calloc((size_t)d->fn.n + 1, sizeof *d->fsize)))
        rc = pc_error_nomem(d->err, "importing a DAX file");
    for (int32_t k = 0; !rc && k < d->nuses; k++) {
        int32_t f = pets_names_find(&d->fn, d->uname[k]);
        d->refs[k].file = f;
        if (d->usize[k] > d->fsize[f]) /* a file's size: the largest given */
            d->fsize[f] = d->usize[k];
    }
    return rc;
}

/* One edge per <parent> of each <child>, in document order. */
static int dax_edges(dax *d)
{
    for (int64_t c = 0; c < d->nchild; c++) {
        const dax_ref *ch = &d->child[c];
        const char *ref = dax_str(d, ch->ref);
        int32_t v = ref ? pets_names_find(&d->jn, ref) : -1;
        if (v < 0)
            return pc_error_set(d->err, PC_EFORMAT, d->path, ch->line, "<child> names no job");
        for (int32_t k = ch->par0; k < ch->par0 + ch->npar; k++) {
            const dax_ref *p = &d->parent[k];
            const char *pr = dax_str(d, p->ref);
            int32_t u = pr ? pets_names_find(&d->jn, pr) : -1;
            if (u < 0)
                return pc_error_set(d->err, PC_EFORMAT, d->path, p->line, "<parent> names no job");
            int e = pets_edges_push(&d->edges, &d->ne, &d->ecap,
                                    (pets_edge){d->jn.first[u], d->jn.first[v], 0, p->line});
            if (e)
                return e == PC_ENOMEM ? pc_error_nomem(d->err, "importing a DAX file")
                                      : pc_error_set(d->err, e, d->path, p->line, "too many edges");
        }
    }
    return PC_OK;
}

#if LIBXML_VERSION >= 21200
typedef const xmlError *dax_xml_error_ptr;
#else
typedef xmlErrorPtr dax_xml_error_ptr;
#endif

/* libxml2's errors during a parse, the encoding errors that it raises
 * outside the parser context included: the first is the cause, and
 * nothing is printed. */
static void dax_xml_error(void *ctx, dax_xml_error_ptr e)
{
    dax *d = ctx;
    if (e->level < XML_ERR_ERROR)
        return;
    if (!d->xml_msg[0]) {
        snprintf(d->xml_msg, sizeof d->xml_msg, "%s", e->message ? e->message : "not well-formed");
        size_t l = strlen(d->xml_msg);
        while (l && (d->xml_msg[l - 1] == '\n' || d->xml_msg[l - 1] == ' '))
            d->xml_msg[--l] = '\0'; /* libxml2 messages end with a newline */
        d->xml_line = e->line;
    }
    if (e->line > 0)
        d->xml_last_line = e->line;
}

/* Parses len bytes of XML with the callbacks above. Everything else
 * (prolog, DTD, entity declarations, well-formedness) is libxml2's own
 * SAX2 handling, as for a tree; only elements and attributes are read and
 * nothing of the content is kept. */
static int dax_parse(dax *d, const unsigned char *data, size_t len)
{
    xmlParserCtxtPtr ctxt = xmlNewParserCtxt();
    if (!ctxt)
        return pc_error_nomem(d->err, "parsing XML");
    d->ctxt = ctxt;
    ctxt->_private = d;
    xmlSAXHandler *h = ctxt->sax;
    h->startElementNs = dax_start;
    h->endElementNs = dax_end;
    h->startElement = NULL;
    h->endElement = NULL;
    h->characters = NULL;
    h->ignorableWhitespace = NULL;
    h->cdataBlock = NULL;
    h->comment = NULL;
    h->processingInstruction = NULL;
    h->reference = NULL;
    /* this thread's handler (libxml2 keeps one per thread), restored after */
    xmlStructuredErrorFunc saved = xmlStructuredError;
    void *saved_ctx = xmlStructuredErrorContext;
    xmlSetStructuredErrorFunc(d, dax_xml_error);
    xmlDocPtr doc = xmlCtxtReadMemory(ctxt, (const char *)data, (int)len, d->path, NULL,
                                      XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
    xmlSetStructuredErrorFunc(saved_ctx, saved);
    int rc = d->rc;
    if (!rc && !doc)
        rc = pc_error_set(d->err, PC_EFORMAT, d->path, d->xml_line > 0 ? d->xml_line : d->xml_last_line,
                          "XML: %s", d->xml_msg[0] ? d->xml_msg : "not well-formed");
    if (!rc && !d->root_ok)
        rc = pc_error_set(d->err, PC_EFORMAT, d->path, d->root_line, "root element is not <adag>");
    xmlFreeDoc(doc);
    xmlFreeParserCtxt(ctxt);
    d->ctxt = NULL;
    return rc;
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
    dax d;
    memset(&d, 0, sizeof d);
    d.path = path;
    d.err = err;
    rc = dax_parse(&d, data, len);
    pc_free(data);
    if (!rc)
        rc = dax_collect(&d, ip);
    if (!rc)
        rc = dax_edges(&d);
    if (!rc)
        rc = pets_import_workflow(dag, path, d.n, d.mean, d.refs, d.nuses, d.fsize, d.fn.n, d.edges, d.ne, ip, err);
    pets_names_free(&d.jn);
    pets_names_free(&d.fn);
    pc_free(d.text);
    pc_free(d.job);
    pc_free(d.use);
    pc_free(d.child);
    pc_free(d.parent);
    pc_free(d.jid);
    pc_free(d.mean);
    pc_free(d.uname);
    pc_free(d.usize);
    pc_free(d.fsize);
    pc_free(d.refs);
    pc_free(d.edges);
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
