/* cli_stress.h - `--stress N` of parcheck spmm|sa|pets: each selected
 * implementation runs N more times, every run validated as the first,
 * cycling through thread counts 1 .. 2 x cores and OpenMP schedules; the
 * row then tells how many runs failed and whether the outputs were
 * bitwise identical across runs and thread counts.
 *
 * The schedule reaches loops declared schedule(runtime) only (through
 * omp_set_schedule here and OMP_SCHEDULE for plugin workers, which start
 * after it is set); the built-in kernels fix their schedules for speed, so
 * for them the thread count is what varies.
 *
 * Metrics added to the row (JSON "metrics"): stress_runs, stress_failed,
 * stress_identical (bool), stress_threads_max, and for SpMM
 * stress_max_err_over_bound (the worst error of any run in units of the
 * bound b_ij: the spread when results are not identical). A pass with a
 * failed stress run becomes fail, with the first failing run's settings
 * and reason. */
#ifndef CLI_STRESS_H
#define CLI_STRESS_H

#include <stddef.h>
#include <stdint.h>

#include "pc_error.h"
#include "pc_result.h"

#define CLI_STRESS_MAX 100000

typedef struct cli_stress {
    int runs;             /* N requested (0: off) */
    int done, failed;
    int threads_max;      /* 2 x the cores */
    int identical;        /* every run's output equal to the first's so far */
    int have_hash;
    uint64_t first_hash, cur_hash;
    double worst_over_bound; /* -1 until a run reports max_err_over_bound */
    char label[64];       /* settings of the current run */
    char first_fail[PC_ERROR_MSG_MAX];
    pc_result *fail_row;  /* the first failing run's row (its "where"), or NULL */
} cli_stress;

/* The option's lines of --help, shared by spmm, sa and pets. */
#define CLI_STRESS_USAGE                                                                \
    "  --stress N          N more validated runs of each implementation, at thread\n"    \
    "                      counts 1 to twice the cores and varied OpenMP schedules;\n"  \
    "                      the row counts failed runs and says if results were\n"        \
    "                      bitwise identical (1..100000)\n"

/* Takes "--stress N" at argv[*i] into *runs (advancing *i). Returns 0 when
 * argv[*i] is something else, 1 when taken, PC_EINVAL (with err) for a bad
 * or missing N (1 .. CLI_STRESS_MAX). */
int cli_stress_take(int argc, char **argv, int *i, long long *runs, pc_error *err);

/* Starts the stress of one implementation (runs 0: nothing will run). */
void cli_stress_begin(cli_stress *s, int runs);

/* Sets up run k (0 .. runs-1): the OpenMP schedule (omp_set_schedule and
 * OMP_SCHEDULE) and OMP_NUM_THREADS; returns its thread count. Outputs
 * noted until cli_stress_record belong to this run. */
int cli_stress_setup(cli_stress *s, int k);

/* Notes bytes of the run's output (any number of calls per run); outside
 * a stress run it does nothing. */
void cli_stress_note_output(const void *data, size_t bytes);

/* Records run k's verdict: r is the row the run filled. */
void cli_stress_record(cli_stress *s, const pc_result *r);

/* Adds the stress metrics to the implementation's row r and fails a row
 * that passed when a stress run failed (with that run's located failures
 * as r's "where"). Restores OMP_SCHEDULE and OMP_NUM_THREADS as they were,
 * and frees what the stress held. */
void cli_stress_finish(cli_stress *s, pc_result *r);

#endif
