/* check_fill.h - a checker's verdict as a pc_result: status and reason,
 * the metrics, the "where" records and the summary line, with the names
 * and keys of the check verbs' JSON (docs/ARCHITECTURE.md §4).
 * The public reports (parcheck.h) are filled by these; timings, memory
 * and input keys are the caller's to add.
 * r must come from pc_result_init; each function only adds to it. */
#ifndef CHECK_FILL_H
#define CHECK_FILL_H

#include "pc_result.h"
#include "pets/pets_check.h"
#include "sa/sa_check.h"
#include "spmm/spmm_check.h"

/* Metrics max_rel_err mean_rel_err max_err_over_bound unit_roundoff
 * entries_checked exact_required bad_entries bad_rows slow_path_entries
 * slow_undecided slow_special; where {row, col (1-based), got, expected,
 * bound}; the summary is rep->rows. */
void check_fill_spmm(pc_result *r, const spmm_check_report *rep);

/* Metrics sa_equal, lcp_equal (when compared), lrs_length lrs_pos
 * lrs_pos2 (when the SA is right), n, width (bits of an SA element);
 * where {index, rule, then the rule's keys}, the counts as summary. */
void check_fill_sa(pc_result *r, const sa_check_report *rep, int width);

/* The where records and summary alone (what check_fill_sa adds to a fail). */
void check_fill_sa_where(pc_result *r, const sa_check_report *rep);

/* Metrics valid makespan lower_bound slr pets_insertion_makespan
 * pets_append_makespan violations, for a schedule of integer times;
 * where {rule, task, other, proc, start, finish}, per-rule counts as
 * summary; a pass's reason sets the makespan beside PETS's. */
void check_fill_pets(pc_result *r, const pets_check_report *rep);

/* The where records (integer times) and the per-rule summary alone (what
 * check_fill_pets adds to a fail): also for a schedule parcheck computed
 * itself, such as a plugin's. */
void check_fill_pets_where(pc_result *r, const pets_check_report *rep);

#endif
