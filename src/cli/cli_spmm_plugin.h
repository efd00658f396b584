/* cli_spmm_plugin.h - one SpMM plugin entry run and judged as parcheck
 * judges its own kernels, for `parcheck spmm` and `parcheck bench spmm`. */
#ifndef CLI_SPMM_PLUGIN_H
#define CLI_SPMM_PLUGIN_H

#include "cli_plugins.h"
#include "spmm.h"
#include "spmm/spmm_oracle.h"

/* Runs entry e (domain SpMM) on A in the format it reads (CSR, or padded
 * ELLPACK with PARCHECK_F_ELL, built here when missing) and X (A's cols x K,
 * row-major): one checked run, then po->reps timed runs, in the worker
 * (po->fill is set here: the oracle's poison). r (started here with
 * cli_plugin_result_init) receives the verdict:
 *  - crashed, timeout, error or skipped with the reason (*skipped = 1 for
 *    skipped, else left alone);
 *  - with judge = 1, the first run's Y against the oracle orc (fp64
 *    entries, spmm_oracle_check, as the built-ins) or against A and X by
 *    spmm_check at fp32 precision (PARCHECK_F_FP32: Y is float, with the
 *    failures located in r's "where"); the last timed run must equal the
 *    first bit for bit, or with PARCHECK_F_VARIES pass on its own;
 *  - with judge = 0 (bench timings after the validated case) pass when the
 *    entry ran to the end, unjudged (orc may then be NULL);
 *  - the worker's median, reps, GFLOP/s and the memory model.
 * out_y: NULL, or where --out-y waits for the first Y that ran: when *out_y
 * is set, the first run's Y is written there as .npy ('<f8', or '<f4' for
 * an fp32 entry) and *out_y becomes NULL.
 * Returns 1 when r passed, else 0. */
/* The oracle's verdict v as r's metrics (max_rel_err mean_rel_err
 * max_err_over_bound unit_roundoff entries_checked exact_required), for a
 * built-in and a plugin alike. */
void cli_spmm_verdict_metrics(pc_result *r, const spmm_verdict *v, const spmm_oracle *orc);

/* Locates the failures of a Y (m x K row-major double) that the oracle
 * rejected: spmm_check on the COO entries of A and X fills r's "where"
 * records (1-based row and col, got, expected, bound) and summary line,
 * and nothing else of r. A failure of its own (no memory) leaves r's where
 * list empty: the verdict stands without locations. */
void cli_spmm_locate(pc_result *r, const mm_coo *coo, const double *X, int K, int threads,
                     const double *Y);

int cli_spmm_plugin_run(const plugin_entry *e, plugin_opts *po, spmm_matrix *A,
                        const spmm_oracle *orc, const double *X, int K, int judge,
                        const char **out_y, pc_result *r, int *skipped);

#endif
