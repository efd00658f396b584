/* plugin_seg.c - layout and protections of the parent/worker segment.
 *
 * Layout: the header pages, then the inputs packed at 64-byte alignment and
 * padded to a page, then each output in pages of its own with one
 * inaccessible guard page before and after it. An output starts 64 bytes
 * into its first page, and the bytes around it up to its pages' limits are
 * canaries: a write just outside an output changes a canary (reported as
 * an error), one further away hits a guard page (reported as a crash with
 * the place named), and a write to an input hits a read-only page. The
 * guard pages and the unused tails are holes of the memory file: they
 * cost address space, not memory. */
#include "plugin_seg.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "parcheck/plugin.h"

#define SEG_ALIGN 64u

static size_t page_size(void)
{
    long p = sysconf(_SC_PAGESIZE);
    return p > 0 ? (size_t)p : 4096;
}

static uint64_t round_up(uint64_t x, uint64_t a)
{
    return (x + a - 1) / a * a;
}

/* First and last byte (exclusive) of the pages of output section k. */
static void out_region(const plugin_sec *sec, uint64_t *lo, uint64_t *hi)
{
    uint64_t pg = page_size();
    *lo = sec->off - SEG_ALIGN;
    *hi = round_up(sec->off + sec->size, pg);
}

/* End of the header pages and of the input pages. */
static uint64_t inputs_begin(void)
{
    return round_up(sizeof(plugin_hdr), page_size());
}

static uint64_t inputs_end(const plugin_seg *s)
{
    uint64_t end = inputs_begin();
    for (int k = 0; k < PLUGIN_SEC_MAX; k++)
        if (s->sec[k].off && !s->sec[k].output && s->sec[k].off + s->sec[k].size > end)
            end = s->sec[k].off + s->sec[k].size;
    return round_up(end, page_size());
}

int plugin_seg_create(plugin_seg *s, const int64_t *sizes, const int *output, pc_error *err)
{
    *s = (plugin_seg){.fd = -1};
    uint64_t pg = page_size();
    plugin_sec sec[PLUGIN_SEC_MAX];
    memset(sec, 0, sizeof sec);
    /* Every size comes from arrays that exist in this process, so the sums
     * cannot wrap before they pass this cap. */
    const uint64_t cap = (uint64_t)1 << 46;
    uint64_t off = inputs_begin();
    for (int k = 0; k < PLUGIN_SEC_MAX; k++) {
        if (sizes[k] < 0 || output[k])
            continue;
        if ((uint64_t)sizes[k] > cap)
            return pc_error_set(err, PC_ERANGE, NULL, 0, "plugin input of %" PRId64 " bytes",
                                sizes[k]);
        off = round_up(off, SEG_ALIGN);
        sec[k] = (plugin_sec){.off = off, .size = (uint64_t)sizes[k]};
        off += (uint64_t)sizes[k];
    }
    off = round_up(off, pg) + pg;
    for (int k = 0; k < PLUGIN_SEC_MAX; k++) {
        if (sizes[k] < 0 || !output[k])
            continue;
        if ((uint64_t)sizes[k] > cap || off > cap)
            return pc_error_set(err, PC_ERANGE, NULL, 0, "plugin output of %" PRId64 " bytes",
                                sizes[k]);
        sec[k] = (plugin_sec){.off = off + SEG_ALIGN, .size = (uint64_t)sizes[k], .output = 1};
        off = round_up(off + SEG_ALIGN + (uint64_t)sizes[k], pg) + pg;
    }
    s->fd = memfd_create("parcheck-plugin", MFD_CLOEXEC);
    if (s->fd < 0)
        return pc_error_set(err, PC_EDEVICE, NULL, 0, "memfd_create: %s", strerror(errno));
    if (ftruncate(s->fd, (off_t)off) != 0) {
        int e = errno;
        plugin_seg_close(s);
        return pc_error_set(err, PC_EDEVICE, NULL, 0, "plugin segment of %" PRIu64 " bytes: %s",
                            off, strerror(e));
    }
    void *p = mmap(NULL, off, PROT_READ | PROT_WRITE, MAP_SHARED, s->fd, 0);
    if (p == MAP_FAILED) {
        int e = errno;
        plugin_seg_close(s);
        return pc_error_set(err, PC_EDEVICE, NULL, 0, "mmap of %" PRIu64 " bytes: %s", off,
                            strerror(e));
    }
    s->base = p;
    s->len = off;
    s->hdr = p;
    s->hdr->magic = PLUGIN_MAGIC;
    s->hdr->proto = PLUGIN_PROTO_VERSION;
    s->hdr->seg_len = off;
    memcpy(s->hdr->sec, sec, sizeof sec);
    memcpy(s->sec, sec, sizeof sec);
    for (int k = 0; k < PLUGIN_SEC_MAX; k++) {
        if (!sec[k].output)
            continue;
        uint64_t lo, hi;
        out_region(&sec[k], &lo, &hi);
        memset(s->base + lo, PLUGIN_CANARY, sec[k].off - lo);
        memset(s->base + sec[k].off + sec[k].size, PLUGIN_CANARY,
               hi - sec[k].off - sec[k].size);
    }
    return 0;
}

void *plugin_seg_at(const plugin_seg *s, int k)
{
    if (!s->base || k < 0 || k >= PLUGIN_SEC_MAX || !s->sec[k].off)
        return NULL;
    return s->base + s->sec[k].off;
}

void plugin_seg_fill(plugin_seg *s, int k, uint64_t pattern)
{
    unsigned char *p = plugin_seg_at(s, k);
    if (!p)
        return;
    uint64_t n = s->sec[k].size;
    unsigned char pat[8];
    for (int b = 0; b < 8; b++)
        pat[b] = (unsigned char)(pattern >> (8 * b));
    uint64_t i = 0;
    for (; i + 8 <= n; i += 8)
        memcpy(p + i, pat, 8);
    memcpy(p + i, pat, n - i);
}

static long count_changed(const unsigned char *p, uint64_t n)
{
    long c = 0;
    for (uint64_t i = 0; i < n; i++)
        c += p[i] != PLUGIN_CANARY;
    return c;
}

int plugin_seg_canaries_ok(const plugin_seg *s, int *sec, long *before, long *after)
{
    for (int k = 0; k < PLUGIN_SEC_MAX; k++) {
        const plugin_sec *x = &s->sec[k];
        if (!x->off || !x->output)
            continue;
        uint64_t lo, hi;
        out_region(x, &lo, &hi);
        long b = count_changed(s->base + lo, x->off - lo);
        long a = count_changed(s->base + x->off + x->size, hi - x->off - x->size);
        if (a || b) {
            *sec = k;
            *before = b;
            *after = a;
            return 0;
        }
    }
    return 1;
}

/* Makes every page after the inputs that belongs to no output region
 * inaccessible. */
static int protect_guards(plugin_seg *s, pc_error *err)
{
    uint64_t pos = inputs_end(s);
    for (;;) {
        /* the output region starting first at or after pos */
        uint64_t lo = UINT64_MAX, hi = 0;
        for (int k = 0; k < PLUGIN_SEC_MAX; k++) {
            const plugin_sec *x = &s->sec[k];
            uint64_t a, b;
            if (!x->off || !x->output)
                continue;
            out_region(x, &a, &b);
            if (a >= pos && a < lo) {
                lo = a;
                hi = b;
            }
        }
        uint64_t gap_end = lo == UINT64_MAX ? s->len : lo;
        if (gap_end > pos && mprotect(s->base + pos, gap_end - pos, PROT_NONE) != 0)
            return pc_error_set(err, PC_EDEVICE, NULL, 0, "mprotect: %s", strerror(errno));
        if (lo == UINT64_MAX)
            return 0;
        pos = hi;
    }
}

int plugin_seg_protect(plugin_seg *s, pc_error *err)
{
    uint64_t a = inputs_begin(), b = inputs_end(s);
    if (b > a && mprotect(s->base + a, b - a, PROT_READ) != 0)
        return pc_error_set(err, PC_EDEVICE, NULL, 0, "mprotect: %s", strerror(errno));
    return protect_guards(s, err);
}

void plugin_seg_unprotect(plugin_seg *s)
{
    if (s->base)
        (void)mprotect(s->base, s->len, PROT_READ | PROT_WRITE);
}

int plugin_seg_map_worker(plugin_seg *s, int fd, pc_error *err)
{
    *s = (plugin_seg){.fd = -1};
    struct stat st;
    if (fstat(fd, &st) != 0 || (uint64_t)st.st_size < sizeof(plugin_hdr))
        return pc_error_set(err, PC_EFORMAT, NULL, 0, "fd %d is not a plugin segment", fd);
    size_t len = (size_t)st.st_size;
    void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (p == MAP_FAILED)
        return pc_error_set(err, PC_EDEVICE, NULL, 0, "mmap: %s", strerror(errno));
    plugin_hdr *h = p;
    if (h->magic != PLUGIN_MAGIC || h->proto != PLUGIN_PROTO_VERSION || h->seg_len != len) {
        munmap(p, len);
        return pc_error_set(err, PC_EFORMAT, NULL, 0,
                            "fd %d: not a plugin segment of this parcheck build", fd);
    }
    s->fd = fd;
    s->base = p;
    s->len = len;
    s->hdr = h;
    memcpy(s->sec, h->sec, sizeof s->sec);
    for (int k = 0; k < PLUGIN_SEC_MAX; k++)
        if (s->sec[k].off && (s->sec[k].off > len || s->sec[k].size > len - s->sec[k].off)) {
            plugin_seg_close(s);
            return pc_error_set(err, PC_EFORMAT, NULL, 0, "fd %d: section %d out of bounds", fd,
                                k);
        }
    return plugin_seg_protect(s, err);
}

static const char *const spmm_names[PLUGIN_SEC_MAX] = {
    [PLUGIN_S_IRP] = "irp", [PLUGIN_S_JA] = "ja", [PLUGIN_S_AS] = "as",
    [PLUGIN_S_ROWLEN] = "rowlen", [PLUGIN_S_X] = "X", [PLUGIN_S_Y_A] = "Y",
    [PLUGIN_S_Y_B] = "Y", [PLUGIN_S_TIMES] = "times"};
static const char *const sa_names[PLUGIN_SEC_MAX] = {
    [PLUGIN_S_TEXT] = "text", [PLUGIN_S_SA_A] = "sa", [PLUGIN_S_SA_B] = "sa",
    [PLUGIN_S_LCP_A] = "lcp", [PLUGIN_S_LCP_B] = "lcp", [PLUGIN_S_TIMES] = "times"};
static const char *const pets_names[PLUGIN_SEC_MAX] = {
    [PLUGIN_S_COST] = "cost", [PLUGIN_S_SUCC_OFF] = "succ_off", [PLUGIN_S_SUCC] = "succ",
    [PLUGIN_S_SUCC_COMM] = "succ_comm", [PLUGIN_S_PRED_OFF] = "pred_off",
    [PLUGIN_S_PRED] = "pred", [PLUGIN_S_PRED_COMM] = "pred_comm",
    [PLUGIN_S_PROC_A] = "proc", [PLUGIN_S_PROC_B] = "proc", [PLUGIN_S_START_A] = "start",
    [PLUGIN_S_START_B] = "start", [PLUGIN_S_TIMES] = "times"};

const char *plugin_seg_name(int domain, int k)
{
    const char *const *t = domain == PARCHECK_DOMAIN_SPMM ? spmm_names
                          : domain == PARCHECK_DOMAIN_SA  ? sa_names
                          : domain == PARCHECK_DOMAIN_PETS ? pets_names
                                                           : NULL;
    if (!t || k < 0 || k >= PLUGIN_SEC_MAX || !t[k])
        return "?";
    return t[k];
}

void plugin_seg_describe_offset(const plugin_seg *s, int domain, uint64_t off, char *buf,
                                size_t n)
{
    const plugin_sec *sec = s->sec;
    if (off >= s->len) {
        snprintf(buf, n, "outside parcheck's buffers");
        return;
    }
    if (off < inputs_begin()) {
        snprintf(buf, n, "in parcheck's own header");
        return;
    }
    if (off < inputs_end(s)) {
        for (int k = 0; k < PLUGIN_SEC_MAX; k++)
            if (sec[k].off && !sec[k].output && off >= sec[k].off &&
                off < sec[k].off + sec[k].size) {
                snprintf(buf, n, "a write to input '%s', which is read-only",
                         plugin_seg_name(domain, k));
                return;
            }
        snprintf(buf, n, "a write between the inputs, which are read-only");
        return;
    }
    /* a guard page: name the outputs on either side */
    uint64_t pg = page_size();
    int below = -1, above = -1;
    uint64_t below_hi = 0, above_lo = UINT64_MAX;
    for (int k = 0; k < PLUGIN_SEC_MAX; k++) {
        const plugin_sec *x = &sec[k];
        uint64_t lo, hi;
        if (!x->off || !x->output)
            continue;
        out_region(x, &lo, &hi);
        if (hi <= off && hi > below_hi) {
            below = k;
            below_hi = hi;
        }
        if (lo > off && lo < above_lo) {
            above = k;
            above_lo = lo;
        }
    }
    if (below >= 0 && off < below_hi + pg)
        snprintf(buf, n, "past the end of output '%s' (%" PRIu64 " bytes after it)",
                 plugin_seg_name(domain, below),
                 off - (sec[below].off + sec[below].size));
    else if (above >= 0)
        snprintf(buf, n, "before the start of output '%s' (%" PRIu64 " bytes before it)",
                 plugin_seg_name(domain, above), sec[above].off - off);
    else
        snprintf(buf, n, "in a guard page of parcheck's buffers");
}

void plugin_seg_close(plugin_seg *s)
{
    if (s->base)
        munmap(s->base, s->len);
    if (s->fd >= 0)
        close(s->fd);
    memset(s, 0, sizeof *s);
    s->fd = -1;
}
