/* cli_pets_graph.h - the graph argument of `parcheck pets` and `parcheck
 * pets check`: a .dag file, or an STG, WfCommons JSON or Pegasus DAX file,
 * recognised by its content (not its name) and imported with the options
 * and defaults of `parcheck dag import`. */
#ifndef CLI_PETS_GRAPH_H
#define CLI_PETS_GRAPH_H

#include "pc_error.h"
#include "pets.h"

/* The formats a graph file can have. */
enum { CLI_GRAPH_DAG, CLI_GRAPH_STG, CLI_GRAPH_WFCOMMONS, CLI_GRAPH_DAX, CLI_GRAPH_UNKNOWN };

/* The import options of one command line; have_procs is set once --procs
 * was given (the importers need it, a .dag file refuses it). */
typedef struct cli_graph_opts {
    pets_import_params ip;
    int have_procs;
} cli_graph_opts;

/* The importers' defaults, no --procs yet. */
void cli_graph_opts_init(cli_graph_opts *o);

/* If argv[*i] is --procs, --eta, --seed, --bandwidth or --time-scale,
 * stores its value in o, advances *i past it and returns 1; 0 for any
 * other argument; PC_EINVAL with err set for a missing or bad value. */
int cli_graph_take(cli_graph_opts *o, int argc, char **argv, int *i, pc_error *err);

/* The usage lines of those options, for the commands' --help. */
extern const char CLI_GRAPH_USAGE[];

/* The format of the file at path from its first bytes: '<' XML is DAX,
 * '{' or '[' is WfCommons JSON, a first word "tasks", "cost" or "edge" (or
 * none) is .dag, a first number is STG; anything else is
 * CLI_GRAPH_UNKNOWN with *line its line. Blank lines, '#' comments and a
 * UTF-8 byte order mark are skipped. PC_EIO (err set) when the file cannot
 * be read. */
int cli_graph_sniff(const char *path, long *line, pc_error *err);

/* "dag", "stg", "wfcommons", "dax" (the `dag import` names). */
const char *cli_graph_format_name(int format);

/* Reads the graph at path for command cmd into dag (*format receives what
 * it was, may be NULL): a .dag file as written, any other format through
 * its importer with o->ip. Prints the reason on stderr and returns
 * CLI_USAGE (unreadable file, --procs missing for an import or given for
 * a .dag file, a file of no known format) or CLI_UNAVAILABLE (an importer
 * not in this build); CLI_OK otherwise. */
int cli_graph_read(const char *cmd, const char *path, const cli_graph_opts *o, pets_dag *dag,
                   int *format);

#endif
