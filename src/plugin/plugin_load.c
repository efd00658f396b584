/* plugin_load.c - --plugin PATH: a worker describes the plugin's table and
 * this file judges it by the rules of parcheck/plugin.h, so that a bad
 * plugin is refused with one clear line before anything is run, and a
 * plugin that crashes while loading never takes parcheck down. */
#include "plugins.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pc_alloc.h"
#include "pc_cli.h"
#include "plugin_exec.h"

void plugin_opts_default(plugin_opts *o)
{
    *o = (plugin_opts){.reps = 5, .threads = pc_cli_default_threads(), .timeout_s = 60.0};
}

void plugin_set_init(plugin_set *s)
{
    *s = (plugin_set){0};
}

void plugin_set_free(plugin_set *s)
{
    pc_free(s->entries);
    *s = (plugin_set){0};
}

const plugin_entry *plugin_set_find(const plugin_set *s, const char *name)
{
    for (int i = 0; i < s->n; i++)
        if (!strcmp(s->entries[i].name, name))
            return &s->entries[i];
    return NULL;
}

/* The file exists, is readable and starts like an ELF object: the common
 * mistakes get their own message before a worker is started. */
static int check_file(const char *path, char *abs, pc_error *err)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return pc_error_set(err, PC_EIO, path, 0, "%s", strerror(errno));
    if (!S_ISREG(st.st_mode))
        return pc_error_set(err, PC_EIO, path, 0, "not a regular file");
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return pc_error_set(err, PC_EIO, path, 0, "%s", strerror(errno));
    unsigned char magic[4] = {0};
    ssize_t got = read(fd, magic, sizeof magic);
    close(fd);
    if (got != 4 || memcmp(magic, "\177ELF", 4) != 0)
        return pc_error_set(err, PC_EFORMAT, path, 0,
                            "not a shared object (no ELF header); build it with "
                            "cc -shared -fPIC");
    /* dlopen of a name without '/' would search the library path instead. */
    if (!realpath(path, abs))
        return pc_error_set(err, PC_EIO, path, 0, "%s", strerror(errno));
    return 0;
}

static int name_ok(const char *s)
{
    size_t n = strlen(s);
    if (n == 0 || n > PARCHECK_NAME_MAX)
        return 0;
    if (!((s[0] >= 'a' && s[0] <= 'z') || (s[0] >= 'A' && s[0] <= 'Z') ||
          (s[0] >= '0' && s[0] <= '9')))
        return 0;
    for (size_t i = 0; i < n; i++)
        if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._+-", s[i]))
            return 0;
    return 1;
}

static const char *domain_name(int d)
{
    return d == PARCHECK_DOMAIN_SPMM ? "spmm" : d == PARCHECK_DOMAIN_SA ? "sa" : "pets";
}

/* Flags that mean something in domain d. */
static unsigned domain_flags(int d)
{
    if (d == PARCHECK_DOMAIN_SPMM)
        return PARCHECK_F_ELL | PARCHECK_F_FP32 | PARCHECK_F_DEVICE | PARCHECK_F_VARIES;
    if (d == PARCHECK_DOMAIN_SA)
        return PARCHECK_F_INT64 | PARCHECK_F_LCP | PARCHECK_F_VARIES;
    return PARCHECK_F_VARIES;
}

static int run_bit(int d)
{
    return d == PARCHECK_DOMAIN_SPMM ? PLUGIN_FN_RUN_SPMM
           : d == PARCHECK_DOMAIN_SA ? PLUGIN_FN_RUN_SA
                                     : PLUGIN_FN_RUN_PETS;
}

/* Judges record i of h; 0 or PC_EFORMAT with "path: entry ...: why". */
static int judge(const plugin_hdr *h, int i, const char *path, pc_error *err)
{
    const plugin_rec *r = &h->rec[i];
    if (r->null_entry)
        return pc_error_set(err, PC_EFORMAT, path, 0, "entry %d of %d is NULL", i + 1, h->count);
    if (r->abi_version < 1 || r->abi_version > PARCHECK_PLUGIN_ABI)
        return pc_error_set(err, PC_EFORMAT, path, 0,
                            "entry %d is built for plugin ABI %d, but this parcheck loads "
                            "ABI 1..%d: rebuild it against this parcheck's parcheck/plugin.h",
                            i + 1, r->abi_version, PARCHECK_PLUGIN_ABI);
    if (r->struct_size < PLUGIN_ENTRY_SIZE_ABI1)
        return pc_error_set(err, PC_EFORMAT, path, 0,
                            "entry %d has struct_size %llu, less than ABI 1's %zu", i + 1,
                            (unsigned long long)r->struct_size, PLUGIN_ENTRY_SIZE_ABI1);
    if (r->name_state == 1)
        return pc_error_set(err, PC_EFORMAT, path, 0, "entry %d has no name (NULL)", i + 1);
    if (r->name_state == 2 || !name_ok(r->name))
        return pc_error_set(err, PC_EFORMAT, path, 0,
                            "entry %d: name '%s%s' is not 1..%d characters of "
                            "[A-Za-z0-9._+-] starting with a letter or digit",
                            i + 1, r->name, r->name_state == 2 ? "..." : "", PARCHECK_NAME_MAX);
    const char *nm = r->name;
    if (r->desc_state == 1)
        return pc_error_set(err, PC_EFORMAT, path, 0, "entry '%s' has no description (NULL)",
                            nm);
    if (r->domain < PARCHECK_DOMAIN_SPMM || r->domain > PARCHECK_DOMAIN_PETS)
        return pc_error_set(err, PC_EFORMAT, path, 0,
                            "entry '%s' has domain %d, not PARCHECK_DOMAIN_SPMM/SA/PETS", nm,
                            r->domain);
    unsigned extra = r->flags & ~domain_flags(r->domain);
    if (extra)
        return pc_error_set(err, PC_EFORMAT, path, 0,
                            "entry '%s' (%s) has flags 0x%x that this parcheck does not know "
                            "for that domain",
                            nm, domain_name(r->domain), extra);
    unsigned runs = r->fns & (PLUGIN_FN_RUN_SPMM | PLUGIN_FN_RUN_SA | PLUGIN_FN_RUN_PETS);
    if (!(runs & (unsigned)run_bit(r->domain)))
        return pc_error_set(err, PC_EFORMAT, path, 0, "entry '%s' has no run_%s function (NULL)",
                            nm, domain_name(r->domain));
    if (runs != (unsigned)run_bit(r->domain))
        return pc_error_set(err, PC_EFORMAT, path, 0,
                            "entry '%s' (%s) also sets the run function of another domain",
                            nm, domain_name(r->domain));
    return 0;
}

/* Entry names must be unique among the plugin's own, the reserved ones and
 * those loaded before. */
static int check_names(const plugin_set *s, const plugin_hdr *h, const char *path,
                       const char *const *reserved, int nreserved, pc_error *err)
{
    for (int i = 0; i < h->count; i++) {
        const char *nm = h->rec[i].name;
        for (int j = 0; j < i; j++)
            if (!strcmp(nm, h->rec[j].name))
                return pc_error_set(err, PC_EFORMAT, path, 0, "two entries are named '%s'", nm);
        for (int j = 0; j < nreserved; j++)
            if (reserved[j] && !strcmp(nm, reserved[j]))
                return pc_error_set(err, PC_EFORMAT, path, 0,
                                    "entry '%s' has the name of a built-in implementation", nm);
        const plugin_entry *old = plugin_set_find(s, nm);
        if (old)
            return pc_error_set(err, PC_EFORMAT, path, 0,
                                "entry '%s' is already offered by %s", nm, old->path);
    }
    return 0;
}

static int append(plugin_set *s, const plugin_hdr *h, const char *abs, pc_error *err)
{
    plugin_entry *e = pc_realloc(s->entries, (size_t)(s->n + h->count) * sizeof *e);
    if (!e)
        return pc_error_nomem(err, "loading a plugin");
    s->entries = e;
    for (int i = 0; i < h->count; i++) {
        const plugin_rec *r = &h->rec[i];
        plugin_entry *x = &s->entries[s->n + i];
        memset(x, 0, sizeof *x);
        snprintf(x->path, sizeof x->path, "%s", abs);
        snprintf(x->name, sizeof x->name, "%s", r->name);
        snprintf(x->desc, sizeof x->desc, "%s", r->desc);
        x->domain = r->domain;
        x->flags = r->flags;
        x->available = r->available;
        snprintf(x->why, sizeof x->why, "%s",
                 r->available || r->why[0] ? r->why : "the plugin says it cannot run here");
    }
    s->n += h->count;
    return 0;
}

int plugin_set_load(plugin_set *s, const char *path, const char *const *reserved, int nreserved,
                    const plugin_opts *o, pc_error *err)
{
    char abs[PATH_MAX];
    int rc = check_file(path, abs, err);
    if (rc)
        return rc;
    if (strlen(abs) >= PLUGIN_PATH_MAX)
        return pc_error_set(err, PC_ERANGE, path, 0, "path too long");
    int64_t sizes[PLUGIN_SEC_MAX];
    int output[PLUGIN_SEC_MAX] = {0};
    for (int k = 0; k < PLUGIN_SEC_MAX; k++)
        sizes[k] = -1;
    plugin_seg seg;
    if ((rc = plugin_seg_create(&seg, sizes, output, err)) != 0)
        return rc;
    plugin_hdr *h = seg.hdr;
    h->mode = PLUGIN_MODE_DESCRIBE;
    snprintf(h->path, sizeof h->path, "%s", abs);
    h->threads = o->threads;
    int status, sig;
    char reason[PLUGIN_REASON_MAX];
    rc = plugin_exec(&seg, 0, o->timeout_s, o->no_fork, &status, &sig, reason, sizeof reason,
                     err);
    if (rc == 0 && status != PLUGIN_RAN)
        rc = pc_error_set(err, PC_EFORMAT, path, 0, "%s%s",
                          status == PLUGIN_CRASHED   ? "crashed while parcheck loaded it: "
                          : status == PLUGIN_TIMEOUT ? "hung while parcheck loaded it: "
                                                     : "",
                          reason);
    if (rc == 0 && h->count == 0)
        rc = pc_error_set(err, PC_EFORMAT, path, 0, "its table has no entries");
    for (int i = 0; rc == 0 && i < h->count; i++)
        rc = judge(h, i, path, err);
    if (rc == 0)
        rc = check_names(s, h, path, reserved, nreserved, err);
    if (rc == 0)
        rc = append(s, h, abs, err);
    plugin_seg_close(&seg);
    return rc;
}
