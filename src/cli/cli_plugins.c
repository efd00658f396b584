/* cli_plugins.c - the --plugin options, loading, selection and verdict rows
 * shared by the commands (cli_plugins.h). */
#include "cli_plugins.h"

#include <string.h>

#include "cli.h"
#include "cli_progress.h"
#include "pc_alloc.h"
#include "pc_cli.h"

void cli_plugins_init(cli_plugins *p)
{
    memset(p, 0, sizeof *p);
    p->timeout_s = CLI_PLUGIN_TIMEOUT_DEFAULT;
    plugin_set_init(&p->set);
}

void cli_plugins_free(cli_plugins *p)
{
    plugin_set_free(&p->set);
}

int cli_plugins_take(cli_plugins *p, int argc, char **argv, int *i, pc_error *err)
{
    const char *v = NULL;
    int rc;
    if (!strcmp(argv[*i], "--no-fork")) {
        p->no_fork = 1;
        return 1;
    }
    if ((rc = pc_cli_take(argc, argv, i, "--plugin", &v, err)) != 0) {
        if (rc < 0)
            return rc;
        if (p->npaths >= CLI_PLUGIN_MAX)
            return pc_error_set(err, PC_EINVAL, NULL, 0, "at most %d --plugin options",
                                CLI_PLUGIN_MAX);
        p->paths[p->npaths++] = v;
        return 1;
    }
    if ((rc = pc_cli_take(argc, argv, i, "--timeout", &v, err)) != 0) {
        if (rc < 0 || pc_cli_parse_double("--timeout", v, 0, CLI_PLUGIN_TIMEOUT_MAX, &p->timeout_s,
                                          err))
            return PC_EINVAL;
        return 1;
    }
    return 0;
}

plugin_opts cli_plugins_opts(const cli_plugins *p, int reps, int threads)
{
    plugin_opts o;
    plugin_opts_default(&o);
    o.reps = reps;
    o.threads = threads;
    o.timeout_s = p->timeout_s; /* 0: no limit, as the runner reads <= 0 */
    o.no_fork = p->no_fork;
    o.fill = 0;
    return o;
}

int cli_plugins_load(cli_plugins *p, const char *cmd, const char *const *reserved, int nreserved,
                     int threads)
{
    plugin_opts o = cli_plugins_opts(p, 1, threads);
    for (int k = 0; k < p->npaths; k++) {
        pc_error err;
        pc_error_clear(&err);
        if (plugin_set_load(&p->set, p->paths[k], reserved, nreserved, &o, &err) != PC_OK) {
            plugin_set_free(&p->set);
            return cli_error(cmd, err.msg);
        }
    }
    return CLI_OK;
}

int cli_plugins_count(const cli_plugins *p, int domain)
{
    int n = 0;
    for (int k = 0; k < p->set.n; k++)
        n += p->set.entries[k].domain == domain;
    return n;
}

const plugin_entry *cli_plugins_at(const cli_plugins *p, int domain, int k)
{
    for (int j = 0; j < p->set.n; j++)
        if (p->set.entries[j].domain == domain && k-- == 0)
            return &p->set.entries[j];
    return NULL;
}

int cli_plugins_select(const cli_plugins *p, int domain, const char *list,
                       const char *const *builtin, int nbuiltin, cli_selection *s, pc_error *err)
{
    memset(s, 0, sizeof *s);
    int nplug = cli_plugins_count(p, domain);
    size_t n = (size_t)nbuiltin + (size_t)nplug;
    s->names = pc_malloc_array(n + 1, sizeof *s->names);
    s->entry = pc_malloc_array((size_t)nplug + 1, sizeof *s->entry);
    s->sel = pc_malloc_array(n + 1, sizeof *s->sel);
    s->expl = pc_malloc_array(n + 1, sizeof *s->expl);
    if (!s->names || !s->entry || !s->sel || !s->expl) {
        cli_selection_free(s);
        return pc_error_nomem(err, "the implementation table");
    }
    s->n = (int)n;
    s->nbuiltin = nbuiltin;
    for (int k = 0; k < nbuiltin; k++)
        s->names[k] = builtin[k];
    for (int k = 0; k < nplug; k++) {
        s->entry[k] = cli_plugins_at(p, domain, k);
        s->names[nbuiltin + k] = s->entry[k]->name;
    }
    int rc = pc_cli_select(list, s->names, s->n, s->sel, s->expl, err);
    if (rc != PC_OK)
        cli_selection_free(s);
    return rc;
}

void cli_selection_free(cli_selection *s)
{
    pc_free(s->names);
    pc_free(s->entry);
    pc_free(s->sel);
    pc_free(s->expl);
    memset(s, 0, sizeof *s);
}

int cli_plugins_setup(cli_plugins *p, const char *cmd, int domain, const char *list,
                      const char *const *builtin, int nbuiltin, int threads, cli_selection *s)
{
    memset(s, 0, sizeof *s);
    if (cli_plugins_load(p, cmd, builtin, nbuiltin, threads) != CLI_OK)
        return CLI_USAGE;
    pc_error err;
    pc_error_clear(&err);
    int rc = cli_plugins_select(p, domain, list, builtin, nbuiltin, s, &err);
    if (rc == PC_OK)
        return CLI_OK;
    cli_plugins_free(p);
    cli_usage_error(cmd, err.msg);
    return rc == PC_ENOMEM ? CLI_FAILED : CLI_USAGE;
}

/* The file name of path (after its last '/'). */
static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

void cli_plugin_result_init(pc_result *r, const plugin_entry *e)
{
    pc_result_init(r, e->name);
    pc_kv_str(&r->metrics, "plugin", base_name(e->path));
}

int cli_result_is_plugin(const pc_result *r)
{
    return pc_kv_find(&r->metrics, "plugin") != NULL;
}

int cli_plugin_outcome(pc_result *r, int rc, const pc_error *err, const plugin_outcome *out,
                       int *skipped)
{
    if (rc != PC_OK) { /* parcheck itself could not run the entry */
        pc_result_status(r, PC_STATUS_ERROR, "%s", err->msg);
        return 0;
    }
    switch (out->status) {
    case PLUGIN_RAN:
        break;
    case PLUGIN_SKIPPED:
        *skipped = 1;
        pc_result_status(r, PC_STATUS_SKIPPED, "%s", out->reason);
        return 0;
    case PLUGIN_CRASHED:
        if (out->signal > 0)
            pc_kv_int(&r->metrics, "signal", out->signal);
        pc_result_status(r, PC_STATUS_CRASHED, "%s", out->reason);
        return 0;
    case PLUGIN_TIMEOUT:
        pc_result_status(r, PC_STATUS_TIMEOUT, "%s", out->reason);
        return 0;
    default:
        pc_result_status(r, PC_STATUS_ERROR, "%s", out->reason);
        return 0;
    }
    r->reps = out->reps;
    r->seconds = out->median_s;
    pc_kv_num(&r->timings, "prepare_s", out->prepare_s);
    pc_kv_num(&r->timings, "first_s", out->first_s);
    return 1;
}

void cli_table_row(FILE *f, const pc_run *run, const pc_result *r)
{
    /* the name is marked for the table alone (JSON keeps the --impl name) */
    static const char mark[] = " [plugin]";
    char name[sizeof r->impl];
    size_t len = strnlen(r->impl, sizeof r->impl);
    memcpy(name, r->impl, len);
    name[len] = '\0';
    if (cli_result_is_plugin(r)) {
        size_t room = sizeof name - sizeof mark; /* name chars that fit before it */
        if (len > room) { /* a long name loses its end to the mark: "name~ [plugin]" */
            len = room;
            name[room - 1] = '~';
        }
        memcpy(name + len, mark, sizeof mark);
    }
    cli_progress_clear();
    pc_run_print_row(f, run, r, name);
}

void cli_plugins_print_table(FILE *f, const pc_run *run)
{
    cli_progress_clear();
    pc_run_print_head(f, run);
    for (int k = 0; k < run->nresults; k++)
        cli_table_row(f, run, &run->results[k]);
    pc_run_print_oracle(f, run);
}

void cli_plugins_list(FILE *f, const cli_plugins *p, int domain)
{
    for (int k = 0; k < p->set.n; k++) {
        const plugin_entry *e = &p->set.entries[k];
        if (e->domain != domain)
            continue;
        char desc[PLUGIN_DESC_BUF + PLUGIN_PATH_MAX + 16];
        snprintf(desc, sizeof desc, "%s [plugin %s]", e->desc, base_name(e->path));
        cli_list_line(f, e->name, e->available, e->why, desc);
    }
}
