/* pets.h - PETS list scheduling of task graphs.
 *
 * A task graph (DAG) with per-processor costs and per-edge communication
 * costs; the native .dag text format (reader, writer); the paper's random
 * generator and importers for STG, WfCommons JSON and Pegasus DAX; and the
 * implementations of docs/ARCHITECTURE.md §5 (serial, ocl, ocl-vec8):
 * levels, ranks, priority order, then processor selection by earliest
 * finish time.
 *
 * All values are exact integers. Ranks are kept scaled by the processor
 * count P (rank_scaled = P * (ACC + DTC + RPT)) so that ACC, the mean cost,
 * never needs a fraction; the reported rank is round-half-up(rank_scaled/P).
 * Tasks are numbered from 0 here and from 1 in files. */
#ifndef PETS_H
#define PETS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "pc_error.h"

/* Limits that make every computed quantity fit in int64: the reader and the
 * builders refuse graphs beyond them (PC_ERANGE) before allocating. */
#define PETS_MAX_TASKS  (1 << 24)
#define PETS_MAX_PROCS  1024
#define PETS_MAX_EDGES  (1 << 28)
#define PETS_MAX_CELLS  (1LL << 28)       /* tasks * processors */
#define PETS_MAX_VALUE  (1LL << 40)       /* one cost or communication cost */
#define PETS_MAX_WEIGHT (1LL << 60)       /* sum of costs + P * sum of comms */

typedef struct pets_dag {
    int32_t ntasks;
    int32_t nprocs;
    int32_t nedges;
    int64_t *cost;       /* ntasks * nprocs, cost[t * nprocs + p] */
    /* the edge list sorted by (from, to): the plain form the oracle reads */
    int32_t *edge_from;
    int32_t *edge_to;
    int64_t *edge_comm;
    /* CSR successor and predecessor lists, each sorted by task number */
    int32_t *succ_off;   /* ntasks + 1 */
    int32_t *succ;       /* nedges */
    int64_t *succ_comm;
    int32_t *pred_off;
    int32_t *pred;
    int64_t *pred_comm;
} pets_dag;

/* An edge under construction, with the input line that declared it (0 when
 * none) so that a refusal can name it. */
typedef struct pets_edge {
    int32_t from, to;
    int64_t comm;
    long line;
} pets_edge;

/* Builds dag from ntasks x nprocs costs (copied) and edges (copied; the
 * array is reordered). Refuses self-loops, unknown tasks, duplicate edges,
 * cycles (PC_EFORMAT) and values or sizes past the PETS_MAX_* limits
 * (PC_ERANGE), naming `path:line` of the offending edge. On failure dag is
 * left empty. */
int pets_dag_build(pets_dag *dag, int32_t ntasks, int32_t nprocs, const int64_t *cost,
                   pets_edge *edges, int64_t nedges, const char *path, pc_error *err);

/* Releases what dag owns and zeroes it (safe on a zeroed dag). */
void pets_dag_free(pets_dag *dag);

/* Copies src into dst with every cost and communication cost times k
 * (PC_ERANGE when the result passes the limits; PC_EINVAL for k < 1).
 * On an error dst is left zeroed. */
int pets_dag_scale(pets_dag *dst, const pets_dag *src, int64_t k, pc_error *err);

/* Turns mean costs into P per-processor costs (for the generator and the
 * importers): W_ij uniform in [W_i(1-eta/2), W_i(1+eta/2)], rounded half
 * up (eta 0: all equal). cost is n*P; mean[i] is task i's mean. */
void pets_heterogeneity(const int64_t *mean, int32_t n, int32_t P, double eta,
                        uint64_t seed, int64_t *cost);

/* Reads a .dag file (docs/README-pets.md, "The .dag format"):
 * '#' comments, "tasks N processors P", one "cost T w1 .. wP" per task,
 * "edge A B c" lines; tasks numbered from 1. Errors are "path:line: ...". */
int pets_dag_read(const char *path, pets_dag *dag, pc_error *err);

/* Parses .dag text (len bytes, need not be NUL-terminated); path only names
 * errors. On an error dag is left zeroed (pets_dag_read too). */
int pets_dag_parse(const char *text, size_t len, const char *path, pets_dag *dag,
                   pc_error *err);

/* Writes dag in the .dag format, with an optional comment line. */
int pets_dag_write(const char *path, const pets_dag *dag, const char *comment,
                   pc_error *err);
int pets_dag_fwrite(FILE *f, const pets_dag *dag, const char *comment);

/* ---- generator (the PETS paper's random graphs) ------------------------- */
typedef struct pets_gen_params {
    int32_t tasks;       /* v >= 1 */
    double out_degree;   /* beta, mean out-degree >= 1 */
    double alpha;        /* shape: height mean sqrt(v)/alpha, width mean alpha*sqrt(v) */
    double ccr;          /* mean communication / mean computation */
    double eta;          /* heterogeneity in [0, 2) */
    int32_t procs;       /* P */
    int64_t wdag;        /* mean computation cost W_dag (default 50) */
    uint64_t seed;
} pets_gen_params;

/* Fills p with the defaults (v 64, beta 3, alpha 1, CCR 1, eta 0.5, P 4,
 * W_dag 50, seed 1). */
void pets_gen_defaults(pets_gen_params *p);

/* Generates a random DAG; the same parameters give the same graph on every
 * machine. PC_EINVAL on parameters out of range. */
int pets_gen_dag(const pets_gen_params *p, pets_dag *dag, pc_error *err);

/* ---- importers -------------------------------------------------------- */
typedef struct pets_import_params {
    int32_t procs;       /* P */
    double eta;          /* heterogeneity (0: identical processors) */
    uint64_t seed;       /* for the heterogeneity */
    double bandwidth;    /* bytes per second (WfCommons, DAX) */
    double time_scale;   /* cost units per second (WfCommons, DAX) */
} pets_import_params;

/* P 4, eta 0, seed 1, bandwidth 125e6 B/s (1 Gbit/s), 1000 units/s (ms). */
void pets_import_defaults(pets_import_params *p);

/* STG (Standard Task Graph Set): tasks 0 and n+1 are the dummies (kept,
 * cost 0), STG task i becomes task i+1; no communication costs. */
int pets_import_stg(const char *path, const pets_import_params *ip, pets_dag *dag,
                    pc_error *err);
/* WfCommons JSON (schema 1.5): runtimes as mean cost, communication from
 * the sizes of the files a parent writes and its child reads. PC_EUNAVAIL
 * when this build has no jansson. */
int pets_import_wfcommons(const char *path, const pets_import_params *ip, pets_dag *dag,
                          pc_error *err);
/* Pegasus DAX (2.1 and later): job runtimes, <uses> file sizes, <child>/<parent>.
 * PC_EUNAVAIL when this build has no libxml2. */
int pets_import_dax(const char *path, const pets_import_params *ip, pets_dag *dag,
                    pc_error *err);
/* 1 when the importer is compiled in. */
int pets_import_available(const char *format);


/* ---- results ---------------------------------------------------------- */
typedef struct pets_solution {
    int32_t ntasks;
    int32_t *level;
    int64_t *rank_scaled;  /* P * (ACC + DTC + RPT), exact */
    int64_t *rank;         /* round-half-up(rank_scaled / P) */
    int32_t *order;        /* tasks in priority order */
    int32_t *proc;         /* processor of each task (0-based) */
    int64_t *start;
    int64_t *finish;
    int64_t makespan;
} pets_solution;

int pets_solution_alloc(pets_solution *s, int32_t ntasks, pc_error *err);
void pets_solution_free(pets_solution *s);

/* round-half-up(x / P) for x >= 0, P >= 1, without overflow. */
static inline int64_t pets_round_rank(int64_t x, int32_t P)
{
    return x / P + ((x % P) * 2 >= P);
}

enum pets_policy { PETS_INSERTION = 0, PETS_APPEND = 1 };

/* How the insertion policy searches a processor's slots: the idle-gap
 * index (pets_gaps.h), or the seed's sorted array searched forward
 * (`--select linear`, kept to measure against). */
enum pets_select_kind { PETS_SELECT_GAPS = 0, PETS_SELECT_LINEAR = 1 };

/* ---- schedule files (pets_schedule_io.c) ------------------------------ */
/* A schedule another program wrote, one row per line of the file: task and
 * processor ids 1-based as in the .dag file, times as exact integers in
 * units of 10^-decimals of the file's time unit (a file writing 12.5 has
 * decimals 1 and the row holds 125). The reader checks ids against the
 * graph; rows may still miss or repeat tasks: the validator judges that. */
typedef struct pets_schedule {
    int64_t nrows;
    int64_t *task;       /* nrows ids in [1, ntasks] */
    int64_t *proc;       /* nrows ids in [1, nprocs] */
    int64_t *start;      /* nrows times, |t| <= PETS_SCHED_MAX_TIME */
    int64_t *finish;
    int decimals;        /* 0 .. PETS_SCHED_MAX_DECIMALS */
    int json;            /* 1 when read from JSON, 0 from CSV */
} pets_schedule;

#define PETS_SCHED_MAX_DECIMALS 9
#define PETS_SCHED_MAX_TIME (1LL << 62)       /* |time| once scaled to integers */
#define PETS_SCHED_MAX_BYTES ((size_t)1 << 30)

/* Reads a schedule file for a graph of ntasks tasks on nprocs processors:
 * JSON when its first non-blank byte is '{' (the form `parcheck pets
 * --out-schedule F.json` writes), else CSV with the header
 * "task,proc,start,finish" (blanks around fields, CRLF, '#' comment lines
 * and blank lines accepted; times are decimals with at most 9 fractional
 * digits once trailing zeros are dropped, an exponent allowed). At most
 * 2 * ntasks rows; nothing is allocated before the rows are counted in the
 * file itself. On success s owns its arrays (pets_schedule_free); on
 * failure s is empty. Returns 0, PC_EIO (cannot read), PC_EFORMAT (a line
 * that does not parse, wrong column count, missing header, empty file,
 * unknown task or processor id), PC_ERANGE (a number out of range, too
 * many rows, more than 9 decimals), PC_EUNAVAIL (JSON without jansson in
 * this build), PC_ENOMEM; errors read "path:line: what is wrong". */
int pets_schedule_read(const char *path, int32_t ntasks, int32_t nprocs, pets_schedule *s,
                       pc_error *err);

/* The CSV and JSON parsers behind pets_schedule_read, on len bytes of text
 * (need not be NUL-terminated); path only names errors. Same contract. */
int pets_schedule_parse_csv(const char *text, size_t len, const char *path, int32_t ntasks,
                            int32_t nprocs, pets_schedule *s, pc_error *err);
int pets_schedule_parse_json(const char *text, size_t len, const char *path, int32_t ntasks,
                             int32_t nprocs, pets_schedule *s, pc_error *err);

/* Releases what s owns and zeroes it (safe on a zeroed schedule). */
void pets_schedule_free(pets_schedule *s);

/* 1 when this build reads JSON schedules (it has jansson). */
int pets_schedule_json_available(void);

/* Writes sol's schedule (proc, start, finish of each task; ids written
 * 1-based, rows by task) to path: CSV "task,proc,start,finish" when path
 * ends in ".csv", else JSON {"tool":"parcheck","kind":"schedule",
 * "version","graph","impl","policy","tasks","procs","makespan",
 * "schedule":[{"task","proc","start","finish"},...]}. graph and impl are
 * recorded as given. Returns 0 or PC_EIO with err set. */
int pets_schedule_write(const char *path, const pets_dag *dag, const pets_solution *sol,
                        const char *graph, const char *impl, int policy, pc_error *err);

/* ---- implementations -------------------------------------------------- */
typedef struct pets_options {
    int policy;          /* enum pets_policy */
    int cl_platform;     /* -1: first platform with a device */
    int cl_device;       /* -1: first device of the platform */
    int threads;         /* OpenMP threads of `omp`; 0: the OpenMP default */
    int select;          /* enum pets_select_kind */
} pets_options;

/* Processor selection by earliest finish time for the tasks in s->order
 * (each task after its predecessors; checked): fills proc, start, finish,
 * makespan. Ties on finish time go to the lowest processor, and the
 * earliest start on a processor is the oracle's. Ready times of the tasks
 * of one level are computed with `threads` OpenMP threads (1: none);
 * o->select picks the slot search. 0, PC_EVERIFY (an order that is not a
 * topological permutation) or PC_ENOMEM. */
int pets_select_run(const pets_dag *dag, const pets_options *o, int threads, pets_solution *s,
                    pc_error *err);

/* Seconds of each phase of one run. */
typedef struct pets_times {
    double setup;        /* context, program, buffers (not in total) */
    double h2d;
    double entry;
    double metrics;
    double sort;
    double d2h;
    double select;
    double total;        /* h2d + entry + metrics + sort + d2h + select */
    /* 1 when the phases ran overlapped (omp's stream): each is then the
     * time from the end of the one before to its own end */
    int overlapped;
} pets_times;

typedef struct pets_impl {
    const char *name;
    const char *desc;
    /* 1 when it can run here, else 0 with the reason in why. */
    int (*available)(const pets_options *o, char *why, size_t whylen);
    /* Computes levels, ranks, order and the schedule into s (allocated by
     * the caller for dag->ntasks). PC_EUNAVAIL when it cannot run here. */
    int (*run)(const pets_dag *dag, const pets_options *o, pets_solution *s,
               pets_times *t, pc_error *err);
} pets_impl;

extern const pets_impl pets_impls[];
extern const int pets_nimpls;

/* The implementation named name, or NULL. */
const pets_impl *pets_impl_find(const char *name);

/* Releases cached OpenCL state (contexts, programs); safe to call always. */
void pets_ocl_release(void);

/* One line per OpenCL platform and device ("P.D name") into f. */
void pets_ocl_list(FILE *f);

#endif
