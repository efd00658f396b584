/* pets_stream.h - the PETS phases as one stream (pets_stream.c): levels
 * and ranks (omp's producers, or a source such as the OpenCL device), the
 * priority sort and the selection overlapped on their own threads.
 * Private to src/pets. */
#ifndef PETS_STREAM_H
#define PETS_STREAM_H

#include "pets_priv.h"

/* Threads a stream needs at least: the booking, two workers, one
 * finalizer and two producers (or one source). */
#define PETS_STREAM_MIN_THREADS 6
/* Tasks below which the phases are run one after the other instead. */
#define PETS_STREAM_MIN_TASKS 4096

/* Whether a run streams its phases: the gap index, enough threads for the
 * roles and enough tasks, unless PARCHECK_PETS_STREAM=0 (which runs the
 * phases one after the other anyway, to measure one against the other). */
int pets_stream_wanted(const pets_dag *dag, const pets_options *o, int threads);

typedef struct pets_stream pets_stream;

/* Levels computed elsewhere (the OpenCL device), fed to a stream by one
 * of its threads. run(ctx, ps, err) writes each new level's tasks to
 * s->order and their sort keys by position to krank (rank) and ksum (ACC
 * times P), level after level from position 0, then publishes them with
 * pets_stream_feed; it returns 0 once every level is fed, or an error
 * code with err set. */
typedef struct pets_stream_source {
    int (*run)(void *ctx, pets_stream *ps, pc_error *err);
    void *ctx;
    const int64_t *krank;
    const int64_t *ksum;
} pets_stream_source;

/* Publishes the nlev levels that follow those fed so far: sizes[i] tasks
 * each, already in s->order and the source's keys; deg holds the
 * in-degrees of their tasks, by position from the first new one. Returns 1
 * when the stream has stopped (an error elsewhere: the source should
 * return), else 0. */
int pets_stream_feed(pets_stream *ps, const int32_t *sizes, int32_t nlev, const int32_t *deg);

/* Runs the PETS phases as a stream on exactly `threads` OpenMP threads (>=
 * PETS_STREAM_MIN_THREADS), the gap-index selection with o->policy:
 * levels and ranks by its producers (src NULL: entry discovery included),
 * or from src. Fills s as pets_omp_run does (with src: the order and the
 * schedule; levels and ranks are the source's to fill), with the same
 * schedule; t gets entry, metrics, sort and select, each as the time from
 * the end of the one before to its own end, and overlapped = 1. 0,
 * PC_EINVAL (a cycle, too few threads), PC_ENOMEM, the source's error, or
 * PC_EUNAVAIL when OpenMP gave fewer threads than asked (nothing is then
 * decided: run the phases instead). */
int pets_stream_run(const pets_dag *dag, const pets_options *o, int threads,
                    const pets_stream_source *src, pets_solution *s, pets_times *t,
                    pc_error *err);

/* Test hook: the fewest tasks a stream is used for (PETS_STREAM_MIN_TASKS;
 * the tests lower it to stream every graph). */
extern int32_t g_pets_stream_min_tasks;

/* Test hook: streams that ran to the end (successful or not) rather than
 * falling back to the phases; only ever incremented. */
extern int g_pets_stream_runs;

#endif
