/* cli_plugins.h - `--plugin PATH.so` on spmm, sa, pets, bench and list: the
 * options every command shares (--plugin, --timeout, --no-fork), loading,
 * one --impl selection over the built-in implementations and the plugin
 * entries of a domain, and the turning of a plugin's outcome into a
 * verdict row.
 *
 * A plugin row is the entry's own name in `impl` (what --impl takes) and
 * the metric "plugin" holding the .so's file name; the table shows the
 * name with " [plugin]" after it (cli_plugins_print_table). The statuses
 * crashed and timeout come only from plugins (their code runs in a worker
 * process, src/plugin/plugins.h). */
#ifndef CLI_PLUGINS_H
#define CLI_PLUGINS_H

#include <stdio.h>

#include "pc_error.h"
#include "pc_result.h"
#include "plugins.h"

/* --plugin options one command takes. */
#define CLI_PLUGIN_MAX 32

/* --timeout: seconds per plugin call; 0 means none. */
#define CLI_PLUGIN_TIMEOUT_DEFAULT 60.0
#define CLI_PLUGIN_TIMEOUT_MAX 604800.0

/* The options below each command's own, and the entries they loaded. */
typedef struct cli_plugins {
    const char *paths[CLI_PLUGIN_MAX];  /* argv strings, in order */
    int npaths;
    double timeout_s;                   /* --timeout, CLI_PLUGIN_TIMEOUT_DEFAULT */
    int no_fork;                        /* --no-fork */
    plugin_set set;                     /* every loaded entry, all domains */
} cli_plugins;

/* Text for a command's usage message (one option per line, indented). */
#define CLI_PLUGINS_USAGE                                                                \
    "  --plugin LIB.so     add the implementations of a plugin (repeatable; see\n"        \
    "                      docs/README-plugins.md); --impl names them like built-ins\n"   \
    "  --timeout S         seconds a plugin call may take (default 60, 0: no limit)\n"    \
    "  --no-fork           run plugins inside parcheck (for a debugger; no isolation)\n"

/* No plugins, timeout 60 s, isolation on. */
void cli_plugins_init(cli_plugins *p);

/* Releases the loaded entries (p may be reused after cli_plugins_init). */
void cli_plugins_free(cli_plugins *p);

/* If argv[*i] is --plugin, --timeout or --no-fork, records it, advances *i
 * past its value and returns 1; returns 0 for any other argument, or
 * PC_EINVAL with err set (value missing or out of range, too many
 * --plugin). */
int cli_plugins_take(cli_plugins *p, int argc, char **argv, int *i, pc_error *err);

/* The runner's options for this command: reps timed runs after the
 * checked one, threads, --timeout, --no-fork; fill 0 (set it per domain). */
plugin_opts cli_plugins_opts(const cli_plugins *p, int reps, int threads);

/* Loads every --plugin in order into p->set. reserved[0..nreserved) are the
 * built-in names the entries may not take. On a refusal prints
 * "parcheck cmd: path: what is wrong" on stderr and returns CLI_USAGE
 * (nothing is kept); returns CLI_OK otherwise. */
int cli_plugins_load(cli_plugins *p, const char *cmd, const char *const *reserved, int nreserved,
                     int threads);

/* Entries of domain (enum parcheck_domain) in load order: how many, and
 * the k-th (NULL out of range). */
int cli_plugins_count(const cli_plugins *p, int domain);
const plugin_entry *cli_plugins_at(const cli_plugins *p, int domain, int k);

/* --impl over built-ins and plugin entries: names[0..nbuiltin) are the
 * built-ins, names[nbuiltin..n) the domain's plugin entries (entry[k -
 * nbuiltin]). sel and expl as pc_cli_select. */
typedef struct cli_selection {
    int n, nbuiltin;
    const char **names;
    const plugin_entry **entry;
    int *sel, *expl;
} cli_selection;

/* Selects from list ("all" or comma-separated names) over builtin[0..nbuiltin)
 * and p's entries of domain. s owns its arrays (cli_selection_free).
 * Returns PC_OK, PC_EINVAL (an unknown name, with every valid name in err)
 * or PC_ENOMEM. */
int cli_plugins_select(const cli_plugins *p, int domain, const char *list,
                       const char *const *builtin, int nbuiltin, cli_selection *s, pc_error *err);

/* Releases s (safe on a zeroed or freed selection). */
void cli_selection_free(cli_selection *s);

/* What every command does first: cli_plugins_load, then cli_plugins_select
 * of list over builtin[0..nbuiltin) (also the reserved names) and p's
 * entries of domain. On failure p is freed, "parcheck cmd: why" printed,
 * and CLI_USAGE (a plugin refused, an unknown name) or CLI_FAILED (out of
 * memory) returned; CLI_OK with s filled (cli_selection_free). */
int cli_plugins_setup(cli_plugins *p, const char *cmd, int domain, const char *list,
                      const char *const *builtin, int nbuiltin, int threads, cli_selection *s);

/* Starts the row of entry e: impl = its name, metric "plugin" = the .so's
 * file name. */
void cli_plugin_result_init(pc_result *r, const plugin_entry *e);

/* Records what plugin_run_* gave (its return code rc with err, and out) in
 * r: error, crashed (metric "signal" when a signal), timeout or skipped
 * with the reason; for a run that reached the end, reps, the worker's
 * median time and the prepare and first-run seconds as timings.
 * *skipped is set to 1 when the entry was skipped (else left alone).
 * Returns 1 when out's outputs are there to validate, 0 when r's status is
 * final. */
int cli_plugin_outcome(pc_result *r, int rc, const pc_error *err, const plugin_outcome *out,
                       int *skipped);

/* The row of r comes from a plugin (it has the metric "plugin"). */
int cli_result_is_plugin(const pc_result *r);

/* pc_run_print_table with " [plugin]" after the name of each plugin row. */
void cli_plugins_print_table(FILE *f, const pc_run *run);

/* One row of that table, printed as soon as its result is known (after
 * pc_run_print_head); erases the progress line first. */
void cli_table_row(FILE *f, const pc_run *run, const pc_result *r);

/* `parcheck list` lines of p's entries of domain: available or not (with
 * the reason), the description and "[plugin FILE.so]". */
void cli_plugins_list(FILE *f, const cli_plugins *p, int domain);

/* `parcheck list [--plugin LIB.so ...]`: the build, every domain's
 * implementations, then the plugins' entries under their domain. Returns a
 * CLI exit code (2 on bad usage or a plugin refused). */
int cmd_list(int argc, char **argv);

#endif
