/* pets_select_pipe.h - the parts of the selection pipeline (pets_select.c)
 * that a streamed selection (pets_stream.c) drives itself: the state by
 * position, the ring of ready times, the booking and the workers. Private
 * to src/pets. */
#ifndef PETS_SELECT_PIPE_H
#define PETS_SELECT_PIPE_H

#include "pets_gaps.h"
#include "pets_priv.h"

/* The placements so far, by position in the priority order: the
 * predecessors of a task were placed shortly before it (mostly in the
 * level before), so reading them by position stays within a few cache
 * lines' worth of recent tasks instead of the whole task range. */
typedef struct select_state {
    int insertion;
    int32_t P;
    pets_gaps *gaps;   /* P gap indexes (insertion) */
    int64_t *last;     /* P latest finishes (append) */
    const int32_t *order;
    int32_t *pos;      /* position of each task */
    int32_t *poff;     /* by position: predecessor list offsets (n + 1), */
    int32_t *ppos;     /* the predecessors' positions */
    int64_t *pcomm;    /* and the communication costs of those edges */
    int32_t *need;     /* by position: the largest predecessor position (-1: none) */
    int32_t *proc;     /* by position: processor, start, finish */
    int64_t *start;
    int64_t *fin;
    int64_t makespan;
} select_state;

/* The pipeline of the selection: positions in chunks of PETS_SELECT_CHUNK.
 * Worker threads claim chunks in order and fill a ring of
 * PETS_SELECT_RING positions with each task's ready times and cost row;
 * the booking thread (thread 0) takes the chunks in order and places
 * their tasks. A task is ready to compute once the booking has passed its
 * last predecessor (need[k], the largest predecessor position), so the
 * next level's tasks are computed while this level is being booked, with
 * no barrier between levels; a task whose last predecessor lies in its
 * own chunk is left to the booking thread (late). The booking thread
 * computes a chunk itself when no worker has claimed it yet: one thread
 * runs the same code alone, and a worker that gets no core costs at most
 * the chunk it holds. */
#define PETS_SELECT_CHUNK 64
#define PETS_SELECT_RING 4096 /* positions in flight; a multiple of the chunk */
#define PETS_SELECT_FLAGS (PETS_SELECT_RING / PETS_SELECT_CHUNK)
/* Tasks ahead whose ring entries the booking thread prefetches. Chunks
 * of 64 with this prefetch against chunks of 32 without, 16 threads at
 * 2^19 on the H100, three rounds each: selection 0.048, 0.048, 0.066 s
 * against 0.065, 0.064, 0.080 s. */
#define PETS_SELECT_PREFETCH 3
/* Threads of the pipeline at most: the booking one and two workers. Two
 * keep ahead of the booking (a worker computes a chunk in about twice the
 * time the booking takes to place it, and thread 0 computes unclaimed
 * chunks itself), and every other thread would only spin: with 15
 * waiting workers the booking itself took 0.036-0.073 s at 2^19 on the
 * H100, depending on the core it ran on, against 0.037 s alone (workers
 * that sleep instead leave it at 0.033-0.047 s but answer too late). At
 * most 3 threads: omp 4.05x, 4.01x, 4.02x serial in three rounds; 16:
 * 3.88x, 3.52x, 2.92x. */
#define PETS_SELECT_MAX_THREADS 3

/* One chunk's flag on a cache line of its own: chunk c of the ring slot
 * is ready when gen == c + 1. */
typedef struct select_flag {
    int32_t gen;
    char pad[64 - sizeof(int32_t)];
} select_flag;

/* What the threads of a selection share. done (positions booked, written
 * by the booking thread only, at chunk ends) and claim (the next chunk to
 * compute) sit on lines of their own; stop (set by the booking thread or
 * a producer on an error) ends every wait. */
typedef struct select_pipe {
    int32_t done;
    char pad0[60];
    int32_t claim;
    char pad1[60];
    int32_t stop;
    int32_t solo;        /* set by the booking thread: workers claim no more */
    char pad2[56];
    int32_t nchunks;
    /* positions whose order, positions and lists are written: NULL when
     * all are before the pipeline starts, else a counter the producer
     * of a streamed selection raises (release) as levels are finalized */
    const int32_t *avail;
    int64_t *rdy;        /* PETS_SELECT_RING x P ready times */
    int64_t *w;          /* PETS_SELECT_RING x P costs */
    unsigned char *late; /* PETS_SELECT_RING */
    select_flag *flag;   /* PETS_SELECT_FLAGS */
} select_pipe;

/* Allocates the state and the ring of a selection over the n tasks of dag
 * (gap pools initialised, not preallocated). 0 or PC_ENOMEM (then nothing
 * is held). st->order is set to order. */
int pets_select_alloc(const pets_dag *dag, const pets_options *o, const int32_t *order,
                      select_state *st, select_pipe *pp);

/* Frees what pets_select_alloc allocated; safe on a zeroed state. */
void pets_select_free(select_state *st, select_pipe *pp);

/* The gap blocks to preallocate per processor for n tasks. */
int32_t pets_select_prealloc_blocks(const select_state *st, int32_t n);

/* The booking thread of the pipeline (chunks in order, thread 0). 0, an
 * error (err set, stop raised), or PETS_SELECT_STOPPED when it stopped
 * because another thread raised stop (err is then not touched). */
#define PETS_SELECT_STOPPED 1
int pets_select_book(const pets_dag *dag, select_state *st, select_pipe *pp, int32_t n,
                     pc_error *err);

/* A worker of the pipeline: claims and computes chunks until none is left,
 * the booking went solo, or stop. */
void pets_select_work(const pets_dag *dag, const select_state *st, select_pipe *pp, int32_t n);

/* Copies the placements by position into s, by task, with `threads`. */
void pets_select_scatter(const select_state *st, int32_t n, pets_solution *s, int threads);

#endif
