/* cli_progress.h - what a long run is doing, on stderr, while it does it.
 *
 * One progress line per process, shared by spmm, sa, pets and bench: the
 * stage ("reading bible.txt", "seq: repetition 2/5") and the seconds since
 * the command started. On a terminal the line is rewritten in place four
 * times a second, and only once the run has lasted a second (short runs
 * print nothing); when stderr is not a terminal nothing is printed unless
 * --progress asks, and then each stage is one line. --quiet turns it off.
 * It never writes to stdout, so `--json -` output is never touched. */
#ifndef CLI_PROGRESS_H
#define CLI_PROGRESS_H

#include <stdio.h>

enum { CLI_PROGRESS_AUTO, CLI_PROGRESS_ON, CLI_PROGRESS_OFF };

#define CLI_PROGRESS_USAGE                                                             \
    "  --progress          show progress on stderr even when it is not a terminal\n"     \
    "  --quiet             no progress (the default when stderr is not a terminal)\n"

/* If arg is --progress or --quiet, stores the mode it asks for and returns
 * 1; else returns 0. */
int cli_progress_take(const char *arg, int *mode);

/* Starts the progress line of command cmd (a static string) in mode.
 * Later calls before cli_progress_stop are ignored. Returns 0, or a
 * negative PC_E* code when the ticker cannot start (progress is then off;
 * the run goes on). */
int cli_progress_start(const char *cmd, int mode);

/* Sets the stage shown (printf-style); cheap enough to call per
 * repetition. Does nothing when progress is off. */
void cli_progress_set(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Stage "name (index/count)": implementation index of count starts. */
void cli_progress_impl(const char *name, int index, int count);

/* Stage "name (index/count): repetition rep/reps" of that implementation;
 * rep 0 is its checked run ("name (index/count): checked run"). */
void cli_progress_rep(long long rep, long long reps);

/* Erases the line on a terminal, so that stdout (the table) is written
 * clean; the next tick draws it again. */
void cli_progress_clear(void);

/* Stops the ticker and erases the line. Safe to call when never started. */
void cli_progress_stop(void);

#endif
