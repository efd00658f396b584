/* plugin_serve.c - inside the worker: load the plugin, describe its table
 * or run one entry, writing everything learned into the segment header. */
#include "plugin_serve.h"

#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "parcheck/plugin.h"
#include "pc_alloc.h"
#include "pc_error.h"
#include "pc_time.h"
#include "plugin_dev.h"

typedef union problem {
    parcheck_spmm_problem spmm;
    parcheck_sa_problem sa;
    parcheck_pets_problem pets;
} problem;

static void *host_alloc(void *opaque, size_t n)
{
    (void)opaque;
    return pc_malloc(n);
}

static void host_free(void *opaque, void *p)
{
    (void)opaque;
    pc_free(p);
}

void plugin_serve_phase(plugin_hdr *h, int phase, int run_index)
{
    double now = pc_time_now();
    h->run_index = run_index;
    __atomic_store(&h->phase_start, &now, __ATOMIC_RELEASE);
    __atomic_store_n(&h->phase, phase, __ATOMIC_RELEASE);
}

__attribute__((format(printf, 4, 5))) static void set_status(plugin_hdr *h, int wstatus,
                                                             int code, const char *fmt, ...)
{
    h->wstatus = wstatus;
    h->code = code;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(h->msg, sizeof h->msg, fmt, ap);
    va_end(ap);
}

/* A plugin's message buffer after a call: always terminated. */
static const char *plugin_msg(char *msg, size_t n)
{
    msg[n - 1] = '\0';
    return msg;
}

/* dlopen + parcheck_plugin_init + the table-level checks; NULL with
 * PLUGIN_W_BADLIB and the reason on failure. */
static const parcheck_plugin *load(plugin_hdr *h)
{
    static parcheck_host host;
    plugin_serve_phase(h, PLUGIN_PHASE_LOAD, 0);
    void *lib = dlopen(h->path, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        set_status(h, PLUGIN_W_BADLIB, 0, "cannot load it: %s", dlerror());
        return NULL;
    }
    parcheck_plugin_init_fn init;
    *(void **)&init = dlsym(lib, PARCHECK_PLUGIN_INIT_SYMBOL);
    if (!init) {
        set_status(h, PLUGIN_W_BADLIB, 0,
                   "it exports no function " PARCHECK_PLUGIN_INIT_SYMBOL
                   " (not a parcheck plugin?)");
        return NULL;
    }
    host = (parcheck_host){.abi_version = PARCHECK_PLUGIN_ABI,
                           .struct_size = sizeof host,
                           .alloc = host_alloc,
                           .free = host_free,
                           .threads = h->threads};
    const parcheck_plugin *pl = NULL;
    char msg[PLUGIN_MSG_MAX] = "";
    int rc = init(&host, &pl, msg, sizeof msg);
    h->init_rc = rc;
    if (rc != 0) {
        set_status(h, PLUGIN_W_BADLIB, rc, PARCHECK_PLUGIN_INIT_SYMBOL " failed (%s)%s%s",
                   rc < 0 ? pc_error_name(rc) : "a positive return", msg[0] ? ": " : "",
                   plugin_msg(msg, sizeof msg));
        return NULL;
    }
    if (!pl) {
        set_status(h, PLUGIN_W_BADLIB, 0, PARCHECK_PLUGIN_INIT_SYMBOL " returned no table");
        return NULL;
    }
    if (pl->abi_version < 1 || pl->abi_version > PARCHECK_PLUGIN_ABI) {
        set_status(h, PLUGIN_W_BADLIB, 0,
                   "built for plugin ABI %d, but this parcheck loads ABI 1..%d: rebuild it "
                   "against this parcheck's parcheck/plugin.h",
                   pl->abi_version, PARCHECK_PLUGIN_ABI);
        return NULL;
    }
    if (pl->struct_size < PLUGIN_TABLE_SIZE_ABI1) {
        set_status(h, PLUGIN_W_BADLIB, 0,
                   "its parcheck_plugin has struct_size %zu, less than ABI 1's %zu",
                   pl->struct_size, PLUGIN_TABLE_SIZE_ABI1);
        return NULL;
    }
    if (pl->count < 0 || pl->count > PARCHECK_PLUGIN_MAX_ENTRIES) {
        set_status(h, PLUGIN_W_BADLIB, 0, "its table has %d entries (0..%d allowed)", pl->count,
                   PARCHECK_PLUGIN_MAX_ENTRIES);
        return NULL;
    }
    if (pl->count > 0 && !pl->entries) {
        set_status(h, PLUGIN_W_BADLIB, 0, "its table has %d entries but entries is NULL",
                   pl->count);
        return NULL;
    }
    return pl;
}

/* The entry's fields may be read (R2). */
static int entry_sane(const parcheck_entry *e)
{
    return e && e->abi_version >= 1 && e->abi_version <= PARCHECK_PLUGIN_ABI &&
           e->struct_size >= PLUGIN_ENTRY_SIZE_ABI1;
}

static void copy_str(char *dst, size_t n, const char *src, int32_t *state)
{
    if (!src) {
        *state = 1;
        dst[0] = '\0';
        return;
    }
    size_t len = strnlen(src, n);
    *state = len == n ? 2 : 0;
    if (len == n)
        len = n - 1;
    memcpy(dst, src, len);
    dst[len] = '\0';
}

static void describe(plugin_hdr *h, const parcheck_plugin *pl)
{
    h->count = pl->count;
    for (int i = 0; i < pl->count; i++) {
        plugin_rec *r = &h->rec[i];
        const parcheck_entry *e = pl->entries[i];
        if (!e) {
            r->null_entry = 1;
            continue;
        }
        r->abi_version = e->abi_version;
        r->struct_size = e->struct_size;
        if (!entry_sane(e))
            continue;
        copy_str(r->name, sizeof r->name, e->name, &r->name_state);
        int32_t desc_state;
        copy_str(r->desc, sizeof r->desc, e->description, &desc_state);
        r->desc_state = desc_state == 1;
        r->desc[strcspn(r->desc, "\r\n")] = '\0'; /* one line (R8) */
        r->domain = e->domain;
        r->flags = e->flags;
        r->fns = (e->available ? PLUGIN_FN_AVAILABLE : 0) | (e->prepare ? PLUGIN_FN_PREPARE : 0) |
                 (e->run_spmm ? PLUGIN_FN_RUN_SPMM : 0) | (e->run_sa ? PLUGIN_FN_RUN_SA : 0) |
                 (e->run_pets ? PLUGIN_FN_RUN_PETS : 0) | (e->release ? PLUGIN_FN_RELEASE : 0);
        r->available = 1;
        if (e->available) {
            r->why[0] = '\0';
            r->available = e->available(e, r->why, sizeof r->why) == 1;
            r->why[sizeof r->why - 1] = '\0';
        }
    }
    set_status(h, PLUGIN_W_OK, 0, "%s", "");
}

static int run_fn_of(const parcheck_entry *e)
{
    switch (e->domain) {
    case PARCHECK_DOMAIN_SPMM: return e->run_spmm != NULL;
    case PARCHECK_DOMAIN_SA: return e->run_sa != NULL;
    case PARCHECK_DOMAIN_PETS: return e->run_pets != NULL;
    default: return 0;
    }
}

/* The entry named in the header, unchanged since the parent described it. */
static const parcheck_entry *find_entry(plugin_hdr *h, const parcheck_plugin *pl)
{
    for (int i = 0; i < pl->count; i++) {
        const parcheck_entry *e = pl->entries[i];
        if (!entry_sane(e) || !e->name || strncmp(e->name, h->entry, sizeof h->entry) != 0)
            continue;
        if (e->domain != h->domain || e->flags != h->flags || !run_fn_of(e)) {
            set_status(h, PLUGIN_W_BADLIB, 0, "entry '%s' changed since parcheck loaded it",
                       h->entry);
            return NULL;
        }
        return e;
    }
    set_status(h, PLUGIN_W_BADLIB, 0, "no entry '%s' any more", h->entry);
    return NULL;
}

/* The problem of the first run (outputs A) and of the later runs (B). */
static void build_problems(plugin_seg *s, problem *pa, problem *pb)
{
    const plugin_hdr *h = s->hdr;
    switch (h->domain) {
    case PARCHECK_DOMAIN_SPMM:
        pa->spmm = (parcheck_spmm_problem){
            .abi_version = PARCHECK_PLUGIN_ABI, .struct_size = sizeof(parcheck_spmm_problem),
            .m = (int32_t)h->dim[0], .n = (int32_t)h->dim[1], .nnz = h->dim[2],
            .K = (int32_t)h->dim[3], .width = (int32_t)h->dim[4], .threads = h->threads,
            .irp = plugin_seg_at(s, PLUGIN_S_IRP), .ja = plugin_seg_at(s, PLUGIN_S_JA),
            .as = plugin_seg_at(s, PLUGIN_S_AS), .rowlen = plugin_seg_at(s, PLUGIN_S_ROWLEN),
            .X = plugin_seg_at(s, PLUGIN_S_X), .Y = plugin_seg_at(s, PLUGIN_S_Y_A)};
        pb->spmm = pa->spmm;
        pb->spmm.Y = plugin_seg_at(s, PLUGIN_S_Y_B);
        break;
    case PARCHECK_DOMAIN_SA:
        pa->sa = (parcheck_sa_problem){
            .abi_version = PARCHECK_PLUGIN_ABI, .struct_size = sizeof(parcheck_sa_problem),
            .n = h->dim[0], .threads = h->threads, .text = plugin_seg_at(s, PLUGIN_S_TEXT),
            .sa = plugin_seg_at(s, PLUGIN_S_SA_A), .lcp = plugin_seg_at(s, PLUGIN_S_LCP_A)};
        pb->sa = pa->sa;
        pb->sa.sa = plugin_seg_at(s, PLUGIN_S_SA_B);
        pb->sa.lcp = plugin_seg_at(s, PLUGIN_S_LCP_B);
        break;
    default:
        pa->pets = (parcheck_pets_problem){
            .abi_version = PARCHECK_PLUGIN_ABI, .struct_size = sizeof(parcheck_pets_problem),
            .ntasks = (int32_t)h->dim[0], .nprocs = (int32_t)h->dim[1],
            .nedges = (int32_t)h->dim[2], .policy = (int)h->dim[3], .threads = h->threads,
            .cost = plugin_seg_at(s, PLUGIN_S_COST),
            .succ_off = plugin_seg_at(s, PLUGIN_S_SUCC_OFF),
            .succ = plugin_seg_at(s, PLUGIN_S_SUCC),
            .succ_comm = plugin_seg_at(s, PLUGIN_S_SUCC_COMM),
            .pred_off = plugin_seg_at(s, PLUGIN_S_PRED_OFF),
            .pred = plugin_seg_at(s, PLUGIN_S_PRED),
            .pred_comm = plugin_seg_at(s, PLUGIN_S_PRED_COMM),
            .proc = plugin_seg_at(s, PLUGIN_S_PROC_A), .start = plugin_seg_at(s, PLUGIN_S_START_A)};
        pb->pets = pa->pets;
        pb->pets.proc = plugin_seg_at(s, PLUGIN_S_PROC_B);
        pb->pets.start = plugin_seg_at(s, PLUGIN_S_START_B);
        break;
    }
}

static int call_run(const parcheck_entry *e, void *state, const problem *p, char *msg, size_t n)
{
    switch (e->domain) {
    case PARCHECK_DOMAIN_SPMM: return e->run_spmm(e, state, &p->spmm, msg, n);
    case PARCHECK_DOMAIN_SA: return e->run_sa(e, state, &p->sa, msg, n);
    default: return e->run_pets(e, state, &p->pets, msg, n);
    }
}

/* Device copies of an SpMM problem (PARCHECK_F_DEVICE): inputs uploaded
 * once, one device Y shared by every run, downloaded into outputs A and B. */
enum { DEV_IRP, DEV_JA, DEV_AS, DEV_ROWLEN, DEV_X, DEV_Y, DEV_N };

static int dev_setup(plugin_seg *s, problem *pa, problem *pb, void **d, char *msg, size_t n)
{
    static const int secs[DEV_N] = {PLUGIN_S_IRP, PLUGIN_S_JA, PLUGIN_S_AS, PLUGIN_S_ROWLEN,
                                    PLUGIN_S_X, PLUGIN_S_Y_A};
    int rc = plugin_dev_open(msg, n);
    for (int i = 0; i < DEV_N && rc == 0; i++) {
        void *host = plugin_seg_at(s, secs[i]);
        if (host)
            rc = plugin_dev_upload(&d[i], host, s->sec[secs[i]].size, msg, n);
    }
    if (rc)
        return rc;
    parcheck_spmm_problem *a = &pa->spmm;
    a->irp = d[DEV_IRP];
    a->ja = d[DEV_JA];
    a->as = d[DEV_AS];
    a->rowlen = d[DEV_ROWLEN];
    a->X = d[DEV_X];
    a->Y = d[DEV_Y];
    pb->spmm = *a;
    return 0;
}

/* Device work around run k, outside its timing: before the later runs Y is
 * poisoned again (from output B), after the first and the last run it is
 * downloaded. */
static int dev_around(plugin_seg *s, void **d, int k, int reps, int after, char *msg, size_t n)
{
    size_t ybytes = s->sec[PLUGIN_S_Y_A].size;
    if (!after && k == 1)
        return plugin_dev_put(d[DEV_Y], plugin_seg_at(s, PLUGIN_S_Y_B), ybytes, msg, n);
    if (after && (k == 0 || k == reps))
        return plugin_dev_download(plugin_seg_at(s, k ? PLUGIN_S_Y_B : PLUGIN_S_Y_A), d[DEV_Y],
                                   ybytes, msg, n);
    return 0;
}

static void run_entry(plugin_seg *s, const parcheck_entry *e)
{
    plugin_hdr *h = s->hdr;
    /* read once: plugin code shares the header */
    const int reps = (int)(s->sec[PLUGIN_S_TIMES].size / sizeof(double));
    problem pa, pb;
    build_problems(s, &pa, &pb);
    int device = h->domain == PARCHECK_DOMAIN_SPMM && (h->flags & PARCHECK_F_DEVICE);
    void *d[DEV_N] = {0};
    char msg[PLUGIN_MSG_MAX] = "";
    int rc = 0;
    if (device) {
        plugin_serve_phase(h, PLUGIN_PHASE_COPY, 0);
        if ((rc = dev_setup(s, &pa, &pb, d, msg, sizeof msg)) != 0) {
            set_status(h, rc == PARCHECK_EUNAVAIL ? PLUGIN_W_UNAVAIL : PLUGIN_W_FAILED, rc,
                       "device set-up: %s", msg);
            goto out;
        }
    }
    void *state = NULL;
    plugin_serve_phase(h, PLUGIN_PHASE_PREPARE, 0);
    if (e->prepare) {
        double t0 = pc_time_now();
        rc = e->prepare(e, &pa, &state, msg, sizeof msg);
        h->prepare_s = pc_time_now() - t0;
        if (rc) {
            set_status(h, rc == PARCHECK_EUNAVAIL ? PLUGIN_W_UNAVAIL : PLUGIN_W_FAILED, rc,
                       "prepare returned %s%s%s", rc < 0 ? pc_error_name(rc) : "a positive value",
                       msg[0] ? ": " : "", plugin_msg(msg, sizeof msg));
            goto out;
        }
    }
    double *times = plugin_seg_at(s, PLUGIN_S_TIMES);
    int done = 0;
    for (int k = 0; k <= reps; k++) {
        const problem *p = k ? &pb : &pa;
        if (device && ((rc = dev_around(s, d, k, reps, 0, msg, sizeof msg)) != 0 ||
                       (rc = plugin_dev_sync(msg, sizeof msg)) != 0)) {
            set_status(h, PLUGIN_W_FAILED, rc, "run %d of %d: %s", k + 1, reps + 1, msg);
            break;
        }
        plugin_serve_phase(h, PLUGIN_PHASE_RUN, k);
        msg[0] = '\0';
        double t0 = pc_time_now();
        rc = call_run(e, state, p, msg, sizeof msg);
        if (rc == 0 && device)
            rc = plugin_dev_sync(msg, sizeof msg);
        double t = pc_time_now() - t0;
        if (rc == 0 && device)
            rc = dev_around(s, d, k, reps, 1, msg, sizeof msg);
        if (rc) {
            set_status(h, PLUGIN_W_FAILED, rc, "run %d of %d returned %s%s%s", k + 1,
                       reps + 1, rc < 0 ? pc_error_name(rc) : "a positive value",
                       msg[0] ? ": " : "", plugin_msg(msg, sizeof msg));
            break;
        }
        if (k == 0) {
            h->first_s = t;
        } else {
            times[k - 1] = t;
            h->reps_done = done = k;
        }
    }
    plugin_serve_phase(h, PLUGIN_PHASE_RELEASE, done);
    if (e->release)
        e->release(e, state);
    if (rc == 0)
        set_status(h, PLUGIN_W_OK, 0, "%s", "");
out:
    for (int i = 0; i < DEV_N; i++)
        plugin_dev_free(d[i]);
}

void plugin_serve(plugin_seg *seg)
{
    plugin_hdr *h = seg->hdr;
    h->path[sizeof h->path - 1] = '\0';
    h->entry[sizeof h->entry - 1] = '\0';
    const parcheck_plugin *pl = load(h);
    if (!pl)
        return;
    if (h->mode == PLUGIN_MODE_DESCRIBE) {
        describe(h, pl);
        return;
    }
    const parcheck_entry *e = find_entry(h, pl);
    if (e)
        run_entry(seg, e);
}
