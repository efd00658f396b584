/* pc_cli.h - small helpers shared by the parcheck subcommands. */
#ifndef PC_CLI_H
#define PC_CLI_H

#include "pc_error.h"

/* The limits every subcommand applies to the options they share, so that one
 * option means the same everywhere. A median over more than a thousand
 * repetitions says nothing that a thousand do not, and each repetition's
 * time is kept; 4096 threads is past any machine parcheck runs on. */
#define PC_CLI_MAX_REPS 1000
#define PC_CLI_MAX_THREADS 4096

/* If argv[*i] is the option opt ("--k"), stores its value (the next
 * argument, or the text after "--k=") in *val, advances *i past it and
 * returns 1. Returns 0 when argv[*i] is another option, and PC_EINVAL (with
 * err set) when the value is missing. */
int pc_cli_take(int argc, char **argv, int *i, const char *opt,
                const char **val, pc_error *err);

/* Parses a whole decimal integer s for option opt within [lo, hi].
 * Returns 0, or PC_EINVAL with "opt: ..." in err. */
int pc_cli_parse_long(const char *opt, const char *s, long long lo,
                      long long hi, long long *out, pc_error *err);

/* Parses a finite double within [lo, hi]. */
int pc_cli_parse_double(const char *opt, const char *s, double lo, double hi,
                        double *out, pc_error *err);

/* Selects implementations from a comma-separated list ("all" = every name).
 * names[0..n) are the known names; sel[k] is set to 1 for each chosen one
 * and explicit[k] to 1 when it was named (not through "all"). Unknown names
 * give PC_EINVAL with the list of valid names. */
int pc_cli_select(const char *list, const char *const *names, int n,
                  int *sel, int *explicit_sel, pc_error *err);

/* Number of OpenMP threads to use by default (omp_get_max_threads). */
int pc_cli_default_threads(void);

#endif
