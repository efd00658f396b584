/* cli_pets_graph.c - a task graph from a .dag, STG, WfCommons or DAX file
 * (see cli_pets_graph.h). The CLI only picks the reader: the parsing is
 * src/pets's reader and importers. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "cli_pets_graph.h"
#include "pc_cli.h"

/* Bytes looked at to tell the formats apart: past them, a file whose
 * first word was not found yet is read as .dag (and refused as such). */
#define SNIFF_BYTES 4096

const char CLI_GRAPH_USAGE[] =
    "GRAPH is a .dag file or, recognised by content, an STG, WfCommons JSON or Pegasus\n"
    "DAX file, imported as `parcheck dag import` does: --procs P is then required,\n"
    "[--eta E] [--seed S] [--bandwidth B] [--time-scale U] as there (defaults 0, 1,\n"
    "125e6 bytes/s, 1000 units/s); ids in schedules are those of the imported .dag.\n";

void cli_graph_opts_init(cli_graph_opts *o)
{
    pets_import_defaults(&o->ip);
    o->have_procs = 0;
}

int cli_graph_take(cli_graph_opts *o, int argc, char **argv, int *i, pc_error *err)
{
    const char *v = NULL;
    long long x;
    int t;
    if ((t = pc_cli_take(argc, argv, i, "--procs", &v, err)) == 1) {
        if (pc_cli_parse_long("--procs", v, 1, PETS_MAX_PROCS, &x, err))
            return PC_EINVAL;
        o->ip.procs = (int32_t)x;
        o->have_procs = 1;
    } else if (!t && (t = pc_cli_take(argc, argv, i, "--eta", &v, err)) == 1) {
        if (pc_cli_parse_double("--eta", v, 0, 1.99, &o->ip.eta, err))
            return PC_EINVAL;
    } else if (!t && (t = pc_cli_take(argc, argv, i, "--seed", &v, err)) == 1) {
        if (pc_cli_parse_long("--seed", v, 0, INT64_MAX, &x, err))
            return PC_EINVAL;
        o->ip.seed = (uint64_t)x;
    } else if (!t && (t = pc_cli_take(argc, argv, i, "--bandwidth", &v, err)) == 1) {
        if (pc_cli_parse_double("--bandwidth", v, 1e-9, 1e18, &o->ip.bandwidth, err))
            return PC_EINVAL;
    } else if (!t && (t = pc_cli_take(argc, argv, i, "--time-scale", &v, err)) == 1) {
        if (pc_cli_parse_double("--time-scale", v, 1e-9, 1e12, &o->ip.time_scale, err))
            return PC_EINVAL;
    }
    return t;
}

const char *cli_graph_format_name(int format)
{
    static const char *const names[] = {"dag", "stg", "wfcommons", "dax", "unknown"};
    return format >= 0 && format <= CLI_GRAPH_UNKNOWN ? names[format] : "unknown";
}

/* The format from the first word of buf[0..n) (see cli_graph_sniff). */
static int sniff_text(const char *buf, size_t n, long *line)
{
    size_t k = 0;
    *line = 1;
    if (n >= 3 && memcmp(buf, "\xEF\xBB\xBF", 3) == 0)
        k = 3;
    for (;;) {
        while (k < n && (buf[k] == ' ' || buf[k] == '\t' || buf[k] == '\r' || buf[k] == '\n' ||
                         buf[k] == '\v' || buf[k] == '\f'))
            *line += buf[k++] == '\n';
        if (k < n && buf[k] == '#') {
            while (k < n && buf[k] != '\n')
                k++;
            continue;
        }
        break;
    }
    if (k >= n)
        return CLI_GRAPH_DAG; /* empty or only comments so far: the .dag reader says why */
    if (buf[k] == '<')
        return CLI_GRAPH_DAX;
    if (buf[k] == '{' || buf[k] == '[')
        return CLI_GRAPH_WFCOMMONS;
    if (buf[k] >= '0' && buf[k] <= '9')
        return CLI_GRAPH_STG;
    static const char *const words[] = {"tasks", "cost", "edge"};
    for (int w = 0; w < 3; w++) {
        size_t len = strlen(words[w]);
        if (n - k >= len && memcmp(buf + k, words[w], len) == 0 &&
            (n - k == len || strchr(" \t\r\n\v\f#", buf[k + len])))
            return CLI_GRAPH_DAG;
    }
    return CLI_GRAPH_UNKNOWN;
}

int cli_graph_sniff(const char *path, long *line, pc_error *err)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return pc_error_set(err, PC_EIO, path, 0, "cannot open");
    char buf[SNIFF_BYTES];
    size_t n = fread(buf, 1, sizeof buf, f);
    int bad = ferror(f);
    fclose(f);
    if (bad)
        return pc_error_set(err, PC_EIO, path, 0, "cannot read");
    return sniff_text(buf, n, line);
}

int cli_graph_read(const char *cmd, const char *path, const cli_graph_opts *o, pets_dag *dag,
                   int *format)
{
    pc_error err;
    pc_error_clear(&err);
    memset(dag, 0, sizeof *dag);
    long line = 0;
    int fmt = cli_graph_sniff(path, &line, &err);
    if (format)
        *format = fmt;
    if (fmt < 0) {
        fprintf(stderr, "%s\n", err.msg);
        return CLI_USAGE;
    }
    char msg[1200];
    if (fmt == CLI_GRAPH_UNKNOWN) {
        fprintf(stderr,
                "%s:%ld: not a task graph parcheck reads: expected a .dag file ('tasks N processors "
                "P' first), STG (the task count first), WfCommons JSON ('{') or Pegasus DAX XML ('<')\n",
                path, line);
        return CLI_USAGE;
    }
    if (fmt == CLI_GRAPH_DAG) {
        if (o->have_procs) {
            snprintf(msg, sizeof msg,
                     "%s is a .dag file, which names its own processors: --procs applies to STG, "
                     "WfCommons and DAX input only",
                     path);
            return cli_usage_error(cmd, msg);
        }
        if (pets_dag_read(path, dag, &err)) {
            fprintf(stderr, "%s\n", err.msg);
            return CLI_USAGE;
        }
        return CLI_OK;
    }
    const char *name = cli_graph_format_name(fmt);
    if (!o->have_procs) {
        snprintf(msg, sizeof msg,
                 "%s is %s input: --procs P is required to import it (as for `parcheck dag import "
                 "%s`; see parcheck %s --help)",
                 path, fmt == CLI_GRAPH_STG ? "STG" : fmt == CLI_GRAPH_DAX ? "Pegasus DAX" : "WfCommons JSON",
                 name, cmd);
        return cli_usage_error(cmd, msg);
    }
    int rc = fmt == CLI_GRAPH_STG         ? pets_import_stg(path, &o->ip, dag, &err)
             : fmt == CLI_GRAPH_WFCOMMONS ? pets_import_wfcommons(path, &o->ip, dag, &err)
                                          : pets_import_dax(path, &o->ip, dag, &err);
    if (rc) {
        fprintf(stderr, "%s\n", err.msg);
        return rc == PC_EUNAVAIL ? CLI_UNAVAILABLE : CLI_USAGE;
    }
    return CLI_OK;
}
