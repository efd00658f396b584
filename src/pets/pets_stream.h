/* pets_stream.h - `omp` as one stream (pets_stream.c): levels and ranks,
 * the priority sort and the selection overlapped on their own threads.
 * Private to src/pets. */
#ifndef PETS_STREAM_H
#define PETS_STREAM_H

#include "pets_priv.h"

/* Threads a stream needs at least: the booking, two workers, two
 * finalizers and one producer. */
#define PETS_STREAM_MIN_THREADS 6
/* Tasks below which the phases are run one after the other instead. */
#define PETS_STREAM_MIN_TASKS 4096

/* Runs the four PETS phases as a stream on exactly `threads` OpenMP
 * threads (>= PETS_STREAM_MIN_THREADS), the gap-index selection with
 * o->policy. Fills s as pets_omp_run does, with the same schedule; t gets
 * each phase as the time from the end of the one before to its own end.
 * 0, PC_EINVAL (a cycle, too few threads), PC_ENOMEM, or PC_EUNAVAIL when
 * OpenMP gave fewer threads than asked (nothing is then decided: run the
 * phases instead). */
int pets_stream_run(const pets_dag *dag, const pets_options *o, int threads, pets_solution *s,
                    pets_times *t, pc_error *err);

/* Test hook: streams that ran to the end (successful or not) rather than
 * falling back to the phases; only ever incremented. */
extern int g_pets_stream_runs;

#endif
