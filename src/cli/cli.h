/* cli.h - the parcheck subcommands. Each returns the process exit code:
 * 0 all validated, 1 a validation failed, 2 bad usage or bad input,
 * 3 an explicitly requested implementation cannot run here. */
#ifndef CLI_H
#define CLI_H

#include <stdio.h>

enum { CLI_OK = 0, CLI_FAILED = 1, CLI_USAGE = 2, CLI_UNAVAILABLE = 3 };

int cmd_spmm(int argc, char **argv);
int cmd_sa(int argc, char **argv);
int cmd_pets(int argc, char **argv);
int cmd_gen_matrix(int argc, char **argv);
int cmd_gen_text(int argc, char **argv);
int cmd_gen_dag(int argc, char **argv);
int cmd_dag_import(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_gen_x(int argc, char **argv);

/* The check verbs: judge files another program wrote (argv[0] is "check").
 * Exit 0 right, 1 well-formed but wrong, 2 a file that cannot be read as
 * what it claims to be. */
int cmd_spmm_check(int argc, char **argv);
int cmd_sa_check(int argc, char **argv);
int cmd_pets_check(int argc, char **argv);

/* Each domain lists its implementations for `parcheck list`: one line per
 * implementation, "available" or "unavailable: reason". */
void cmd_spmm_list(FILE *f);
void cmd_sa_list(FILE *f);
void cmd_pets_list(FILE *f);

/* A usage error, in the one style every command shares: "parcheck cmd: msg"
 * first, then "see 'parcheck cmd --help'", on stderr. Returns CLI_USAGE. */
int cli_usage_error(const char *cmd, const char *msg);

/* An error that more help would not fix (an unreadable plugin, no memory):
 * "parcheck cmd: msg" on stderr. Returns CLI_USAGE. */
int cli_error(const char *cmd, const char *msg);

/* True when argv[i] asks for help (--help or -h). */
int cli_is_help(const char *arg);

/* Prints one implementation line of `parcheck list` (and of --help). An
 * unavailable one carries a note number instead of its reason, so that a
 * reason shared by a whole group (every CUDA entry on a machine without a
 * GPU) is printed once, by cli_list_end. */
void cli_list_line(FILE *f, const char *name, int available, const char *why,
                   const char *desc);

/* Prints the reasons noted since the last call under "unavailable because:",
 * one "  [n] reason" each, and forgets them. */
void cli_list_end(FILE *f);

#endif
