/* plugin_run.c - run one plugin entry on plain arrays: lay the inputs into
 * a segment (copied once, not timed), serve it, and hand back status,
 * times and outputs. Header dims per domain:
 *   SpMM m, n, nnz, K, width;  SA n;  PETS ntasks, nprocs, nedges, policy. */
#include "plugins.h"

#include <stdio.h>
#include <string.h>

#include "pc_alloc.h"
#include "pc_time.h"
#include "plugin_exec.h"

/* Bytes of a*b*c elements, or -2 (never a size; -1 means absent) past
 * 2^46, more than any segment. */
static int64_t bytes_of(int64_t a, int64_t b, int64_t c)
{
    const int64_t cap = (int64_t)1 << 46;
    if (a < 0 || b < 0 || c < 0)
        return -2;
    if (a && b > cap / a)
        return -2;
    int64_t ab = a * b;
    if (ab && c > cap / ab)
        return -2;
    return ab * c;
}

const char *plugin_status_name(int status)
{
    static const char *const names[] = {"ran", "error", "crashed", "timeout", "skipped"};
    return status >= 0 && status <= PLUGIN_SKIPPED ? names[status] : "?";
}

void plugin_outcome_free(plugin_outcome *o)
{
    plugin_seg_close(&o->seg);
    memset(o, 0, sizeof *o);
    o->seg.fd = -1;
}

/* Zeroes out; PC_EINVAL when e is not of domain; 1 when e is not available
 * here (out says skipped), else 0. */
static int begin(const plugin_entry *e, int domain, plugin_outcome *out, pc_error *err)
{
    memset(out, 0, sizeof *out);
    out->seg.fd = -1;
    if (e->domain != domain)
        return pc_error_set(err, PC_EINVAL, NULL, 0, "plugin entry '%s' is not of this domain",
                            e->name);
    if (!e->available) {
        out->status = PLUGIN_SKIPPED;
        snprintf(out->reason, sizeof out->reason, "%s", e->why);
        return 1;
    }
    return 0;
}

/* Creates the segment with sizes/output and fills the common header. */
static int open_seg(plugin_outcome *out, const plugin_entry *e, const plugin_opts *o,
                    int64_t *sizes, int *output, pc_error *err)
{
    for (int k = 0; k < PLUGIN_SEC_MAX; k++)
        if (sizes[k] < -1)
            return pc_error_set(err, PC_ERANGE, NULL, 0,
                                "plugin '%s': input too large for one segment", e->name);
    sizes[PLUGIN_S_TIMES] = bytes_of(o->reps, sizeof(double), 1);
    output[PLUGIN_S_TIMES] = 1;
    if (sizes[PLUGIN_S_TIMES] < 0)
        return pc_error_set(err, PC_ERANGE, NULL, 0, "reps %d", o->reps);
    int rc = plugin_seg_create(&out->seg, sizes, output, err);
    if (rc)
        return rc;
    plugin_hdr *h = out->seg.hdr;
    h->mode = PLUGIN_MODE_RUN;
    snprintf(h->path, sizeof h->path, "%s", e->path);
    snprintf(h->entry, sizeof h->entry, "%s", e->name);
    h->domain = e->domain;
    h->flags = e->flags;
    h->reps = o->reps;
    h->threads = o->threads;
    for (int k = 0; k < PLUGIN_SEC_MAX; k++)
        if (output[k] && k != PLUGIN_S_TIMES)
            plugin_seg_fill(&out->seg, k, o->fill);
    return 0;
}

/* Copies n bytes of src into section k (src may be NULL only when n == 0). */
static void put(plugin_outcome *out, int k, const void *src, int64_t n)
{
    if (n > 0)
        memcpy(plugin_seg_at(&out->seg, k), src, (size_t)n);
}

/* Section k as float, converted from count doubles. */
static void put_float(plugin_outcome *out, int k, const double *src, int64_t count)
{
    float *dst = plugin_seg_at(&out->seg, k);
    for (int64_t i = 0; i < count; i++)
        dst[i] = (float)src[i];
}

/* Serves the segment and fills the outcome; outs[j] = {A, B} sections of
 * output j (-1: none). */
static int finish(plugin_outcome *out, const plugin_entry *e, const plugin_opts *o,
                  const int outs[2][2], pc_error *err)
{
    int rc = plugin_exec(&out->seg, e->domain, o->timeout_s, o->no_fork, &out->status,
                         &out->signal, out->reason, sizeof out->reason, err);
    if (rc)
        return rc;
    const plugin_hdr *h = out->seg.hdr;
    out->prepare_s = h->prepare_s;
    out->first_s = h->first_s;
    out->reps = h->reps_done <= o->reps ? h->reps_done : 0; /* the header is shared */
    out->times = plugin_seg_at(&out->seg, PLUGIN_S_TIMES);
    out->median_s = out->first_s;
    if (out->reps > 0) {
        double *t = pc_malloc_array((size_t)out->reps, sizeof *t);
        if (!t)
            return pc_error_nomem(err, "plugin run times");
        memcpy(t, out->times, (size_t)out->reps * sizeof *t);
        out->median_s = pc_time_median(t, (size_t)out->reps);
        pc_free(t);
    }
    if (out->status != PLUGIN_RAN)
        return 0;
    out->repeatable = 1;
    for (int j = 0; j < 2; j++) {
        if (outs[j][0] < 0 || !plugin_seg_at(&out->seg, outs[j][0]))
            continue;
        out->first[j] = plugin_seg_at(&out->seg, outs[j][0]);
        out->last[j] = plugin_seg_at(&out->seg, outs[j][1]);
        out->bytes[j] = (size_t)out->seg.sec[outs[j][0]].size;
        if (o->reps > 0 && memcmp(out->first[j], out->last[j], out->bytes[j]) != 0)
            out->repeatable = 0;
    }
    return 0;
}

static void no_sizes(int64_t *sizes, int *output)
{
    for (int k = 0; k < PLUGIN_SEC_MAX; k++) {
        sizes[k] = -1;
        output[k] = 0;
    }
}

int plugin_run_spmm(const plugin_entry *e, const plugin_spmm_in *in, const plugin_opts *o,
                    plugin_outcome *out, pc_error *err)
{
    int rc = begin(e, PARCHECK_DOMAIN_SPMM, out, err);
    if (rc)
        return rc > 0 ? 0 : rc;
    int ell = (e->flags & PARCHECK_F_ELL) != 0;
    int64_t vs = (e->flags & PARCHECK_F_FP32) ? 4 : 8;
    int64_t stored = ell ? bytes_of(in->m, in->width, 1) : in->nnz;
    if (in->m < 0 || in->n < 0 || in->K < 1 || stored < 0 ||
        (ell ? (in->width < 0 || ((!in->ell_ja || !in->ell_as) && stored > 0) || !in->rowlen)
             : (!in->irp || ((!in->ja || !in->as) && in->nnz > 0))) ||
        (!in->X && (int64_t)in->n * in->K > 0))
        return pc_error_set(err, PC_EINVAL, NULL, 0,
                            "plugin '%s': the %s arrays it reads are missing or inconsistent",
                            e->name, ell ? "ELLPACK" : "CSR");
    int64_t sizes[PLUGIN_SEC_MAX];
    int output[PLUGIN_SEC_MAX];
    no_sizes(sizes, output);
    if (!ell)
        sizes[PLUGIN_S_IRP] = bytes_of((int64_t)in->m + 1, 4, 1);
    else
        sizes[PLUGIN_S_ROWLEN] = bytes_of(in->m, 4, 1);
    sizes[PLUGIN_S_JA] = bytes_of(stored, 4, 1);
    sizes[PLUGIN_S_AS] = bytes_of(stored, vs, 1);
    sizes[PLUGIN_S_X] = bytes_of(in->n, in->K, vs);
    sizes[PLUGIN_S_Y_A] = sizes[PLUGIN_S_Y_B] = bytes_of(in->m, in->K, vs);
    output[PLUGIN_S_Y_A] = output[PLUGIN_S_Y_B] = 1;
    if ((rc = open_seg(out, e, o, sizes, output, err)) != 0)
        return rc;
    plugin_hdr *h = out->seg.hdr;
    int64_t dims[5] = {in->m, in->n, in->nnz, in->K, ell ? in->width : 0};
    memcpy(h->dim, dims, sizeof dims);
    if (!ell) {
        put(out, PLUGIN_S_IRP, in->irp, sizes[PLUGIN_S_IRP]);
        put(out, PLUGIN_S_JA, in->ja, sizes[PLUGIN_S_JA]);
    } else {
        put(out, PLUGIN_S_ROWLEN, in->rowlen, sizes[PLUGIN_S_ROWLEN]);
        put(out, PLUGIN_S_JA, in->ell_ja, sizes[PLUGIN_S_JA]);
    }
    const double *as = ell ? in->ell_as : in->as;
    if (vs == 8) {
        put(out, PLUGIN_S_AS, as, sizes[PLUGIN_S_AS]);
        put(out, PLUGIN_S_X, in->X, sizes[PLUGIN_S_X]);
    } else {
        put_float(out, PLUGIN_S_AS, as, stored);
        put_float(out, PLUGIN_S_X, in->X, (int64_t)in->n * in->K);
    }
    static const int outs[2][2] = {{PLUGIN_S_Y_A, PLUGIN_S_Y_B}, {-1, -1}};
    return finish(out, e, o, outs, err);
}

int plugin_run_sa(const plugin_entry *e, const plugin_sa_in *in, const plugin_opts *o,
                  plugin_outcome *out, pc_error *err)
{
    int rc = begin(e, PARCHECK_DOMAIN_SA, out, err);
    if (rc)
        return rc > 0 ? 0 : rc;
    if (in->n < 0 || (!in->text && in->n > 0))
        return pc_error_set(err, PC_EINVAL, NULL, 0, "plugin '%s': no text", e->name);
    int wide = (e->flags & PARCHECK_F_INT64) != 0;
    if (!wide && in->n > INT32_MAX) {
        out->status = PLUGIN_SKIPPED;
        snprintf(out->reason, sizeof out->reason,
                 "n = %lld needs 64-bit indices (the entry lacks PARCHECK_F_INT64)",
                 (long long)in->n);
        return 0;
    }
    int64_t sizes[PLUGIN_SEC_MAX];
    int output[PLUGIN_SEC_MAX];
    no_sizes(sizes, output);
    int64_t w = wide ? 8 : 4;
    sizes[PLUGIN_S_TEXT] = in->n;
    sizes[PLUGIN_S_SA_A] = sizes[PLUGIN_S_SA_B] = bytes_of(in->n, w, 1);
    output[PLUGIN_S_SA_A] = output[PLUGIN_S_SA_B] = 1;
    if (e->flags & PARCHECK_F_LCP) {
        sizes[PLUGIN_S_LCP_A] = sizes[PLUGIN_S_LCP_B] = bytes_of(in->n, w, 1);
        output[PLUGIN_S_LCP_A] = output[PLUGIN_S_LCP_B] = 1;
    }
    if ((rc = open_seg(out, e, o, sizes, output, err)) != 0)
        return rc;
    out->seg.hdr->dim[0] = in->n;
    put(out, PLUGIN_S_TEXT, in->text, in->n);
    static const int outs[2][2] = {{PLUGIN_S_SA_A, PLUGIN_S_SA_B},
                                   {PLUGIN_S_LCP_A, PLUGIN_S_LCP_B}};
    return finish(out, e, o, outs, err);
}

int plugin_run_pets(const plugin_entry *e, const plugin_pets_in *in, const plugin_opts *o,
                    plugin_outcome *out, pc_error *err)
{
    int rc = begin(e, PARCHECK_DOMAIN_PETS, out, err);
    if (rc)
        return rc > 0 ? 0 : rc;
    int64_t t = in->ntasks, p = in->nprocs, m = in->nedges;
    if (t < 0 || p < 1 || m < 0 || !in->succ_off || !in->pred_off || (!in->cost && t > 0) ||
        ((!in->succ || !in->succ_comm || !in->pred || !in->pred_comm) && m > 0))
        return pc_error_set(err, PC_EINVAL, NULL, 0, "plugin '%s': graph arrays missing",
                            e->name);
    int64_t sizes[PLUGIN_SEC_MAX];
    int output[PLUGIN_SEC_MAX];
    no_sizes(sizes, output);
    sizes[PLUGIN_S_COST] = bytes_of(t, p, 8);
    sizes[PLUGIN_S_SUCC_OFF] = sizes[PLUGIN_S_PRED_OFF] = bytes_of(t + 1, 4, 1);
    sizes[PLUGIN_S_SUCC] = sizes[PLUGIN_S_PRED] = bytes_of(m, 4, 1);
    sizes[PLUGIN_S_SUCC_COMM] = sizes[PLUGIN_S_PRED_COMM] = bytes_of(m, 8, 1);
    sizes[PLUGIN_S_PROC_A] = sizes[PLUGIN_S_PROC_B] = bytes_of(t, 4, 1);
    sizes[PLUGIN_S_START_A] = sizes[PLUGIN_S_START_B] = bytes_of(t, 8, 1);
    output[PLUGIN_S_PROC_A] = output[PLUGIN_S_PROC_B] = 1;
    output[PLUGIN_S_START_A] = output[PLUGIN_S_START_B] = 1;
    if ((rc = open_seg(out, e, o, sizes, output, err)) != 0)
        return rc;
    int64_t dims[4] = {t, p, m, in->policy};
    memcpy(out->seg.hdr->dim, dims, sizeof dims);
    put(out, PLUGIN_S_COST, in->cost, sizes[PLUGIN_S_COST]);
    put(out, PLUGIN_S_SUCC_OFF, in->succ_off, sizes[PLUGIN_S_SUCC_OFF]);
    put(out, PLUGIN_S_SUCC, in->succ, sizes[PLUGIN_S_SUCC]);
    put(out, PLUGIN_S_SUCC_COMM, in->succ_comm, sizes[PLUGIN_S_SUCC_COMM]);
    put(out, PLUGIN_S_PRED_OFF, in->pred_off, sizes[PLUGIN_S_PRED_OFF]);
    put(out, PLUGIN_S_PRED, in->pred, sizes[PLUGIN_S_PRED]);
    put(out, PLUGIN_S_PRED_COMM, in->pred_comm, sizes[PLUGIN_S_PRED_COMM]);
    static const int outs[2][2] = {{PLUGIN_S_PROC_A, PLUGIN_S_PROC_B},
                                   {PLUGIN_S_START_A, PLUGIN_S_START_B}};
    return finish(out, e, o, outs, err);
}
