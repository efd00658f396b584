/* plugins.h - users' kernels from shared objects (include/parcheck/plugin.h):
 * loading and validating a plugin's table, and running one entry on plain
 * arrays in an isolated worker process.
 *
 * Isolation: every call set (prepare, 1 + reps runs, release) of an entry
 * runs in a fresh process started from parcheck's own binary; inputs and
 * outputs travel through a shared memory file, copied once by the parent
 * (not timed). The worker times each run call alone. A crash, abort,
 * exit() or a call longer than the timeout ends only the worker, and the
 * outcome says so. --no-fork (opts.no_fork) runs the same code in this
 * process, for debuggers, without that protection.
 * Call the loader and the runners from the thread that will outlive the
 * call (the main thread): a worker dies with the thread that started it. */
#ifndef PLUGINS_H
#define PLUGINS_H

#include <stddef.h>
#include <stdint.h>

#include "parcheck/plugin.h"
#include "pc_error.h"
#include "plugin_proto.h"
#include "plugin_seg.h"
#include "plugin_spawn.h" /* plugin_set_worker_exe */

#ifdef __cplusplus
extern "C" {
#endif

/* One implementation a plugin offers, as described by its worker. */
typedef struct plugin_entry {
    char path[PLUGIN_PATH_MAX];     /* the .so, absolute */
    char name[PLUGIN_NAME_BUF];     /* the --impl name */
    char desc[PLUGIN_DESC_BUF];     /* one line */
    int domain;                     /* enum parcheck_domain */
    unsigned flags;                 /* PARCHECK_F_* */
    int available;                  /* 1, or 0 with why (reported as skipped) */
    char why[256];
} plugin_entry;

/* The entries of every plugin loaded so far, in load order. */
typedef struct plugin_set {
    int n;
    plugin_entry *entries;          /* pc_alloc'd, n */
} plugin_set;

typedef struct plugin_opts {
    int reps;                       /* timed runs after the first, >= 1 */
    int threads;                    /* passed to the plugin (R6) */
    double timeout_s;               /* per call; <= 0: none (--timeout, default 60) */
    int no_fork;                    /* run in this process (--no-fork) */
    uint64_t fill;                  /* 8-byte pattern written over every output first */
} plugin_opts;

/* reps 5, threads pc_cli_default_threads(), timeout 60 s, fork, fill 0. */
void plugin_opts_default(plugin_opts *o);

void plugin_set_init(plugin_set *s);
void plugin_set_free(plugin_set *s);

/* Loads the plugin at path (a worker describes its table; the rules of
 * parcheck/plugin.h are checked here) and appends its entries to s.
 * reserved[0..nreserved) are names already taken (the built-in
 * implementations); names of entries loaded earlier into s are taken too.
 * On any refusal s is unchanged. Returns 0, or with "path: what is wrong"
 * in err: PC_EIO (missing, unreadable), PC_EFORMAT (not a shared object,
 * not a parcheck plugin, another ABI, a bad entry, a duplicate or reserved
 * name, a crash or hang while loading), PC_ENOMEM, PC_EDEVICE (no worker
 * could be started). The CLI exits 2 on any of them. */
int plugin_set_load(plugin_set *s, const char *path, const char *const *reserved, int nreserved,
                    const plugin_opts *o, pc_error *err);

/* The entry named name, or NULL. */
const plugin_entry *plugin_set_find(const plugin_set *s, const char *name);

/* What came of running one entry. */
enum plugin_status {
    PLUGIN_RAN = 0,     /* every call returned 0: outputs are there to validate */
    PLUGIN_ERROR,       /* a call returned an error, or wrote outside an output */
    PLUGIN_CRASHED,     /* signal, or exit() from user code */
    PLUGIN_TIMEOUT,     /* a call ran past opts.timeout_s */
    PLUGIN_SKIPPED      /* cannot run here (available() 0, PARCHECK_EUNAVAIL, too big) */
};

/* "ran", "error", "crashed", "timeout", "skipped". */
const char *plugin_status_name(int status);

#define PLUGIN_REASON_MAX 768

typedef struct plugin_outcome {
    int status;                     /* enum plugin_status */
    char reason[PLUGIN_REASON_MAX]; /* why, for every status but PLUGIN_RAN */
    int signal;                     /* PLUGIN_CRASHED by a signal: its number */
    double prepare_s;               /* prepare, not timed in seconds below */
    double first_s;                 /* the first (validated) run */
    int reps;                       /* timed runs done */
    const double *times;            /* [0..reps) seconds of each timed run */
    double median_s;                /* median of times (first_s when reps == 0) */
    int repeatable;                 /* last timed run's outputs == the first's, bit for bit */
    /* Outputs of the first run and of the last timed run (NULL when absent),
     * valid until plugin_outcome_free:
     *   SpMM  [0] Y, m*K double (float with PARCHECK_F_FP32)
     *   SA    [0] SA, [1] LCP (entries with PARCHECK_F_LCP), n int32 (int64
     *         with PARCHECK_F_INT64)
     *   PETS  [0] processor (int32), [1] start (int64), per task */
    const void *first[2];
    const void *last[2];
    size_t bytes[2];
    plugin_seg seg;                 /* owns the memory above */
} plugin_outcome;

/* Releases the outputs (safe on a zeroed or freed outcome). */
void plugin_outcome_free(plugin_outcome *o);

/* SpMM input. The entry's format decides which arrays are read: CSR (irp,
 * ja, as) or, with PARCHECK_F_ELL, padded ELLPACK in src/spmm's layout
 * (width, ell_ja, ell_as, rowlen). */
typedef struct plugin_spmm_in {
    int32_t m, n, K;
    int64_t nnz;
    const int32_t *irp, *ja;
    const double *as;
    int32_t width;
    const int32_t *ell_ja;
    const double *ell_as;
    const int32_t *rowlen;
    const double *X;                /* n x K row-major */
} plugin_spmm_in;

typedef struct plugin_sa_in {
    const uint8_t *text;
    int64_t n;
} plugin_sa_in;

/* The fields of pets_dag, plus the policy (enum parcheck_pets_policy). */
typedef struct plugin_pets_in {
    int32_t ntasks, nprocs, nedges;
    int policy;
    const int64_t *cost;            /* ntasks * nprocs */
    const int32_t *succ_off, *succ;
    const int64_t *succ_comm;
    const int32_t *pred_off, *pred;
    const int64_t *pred_comm;
} plugin_pets_in;

/* Run entry e (of the matching domain) on in with options o: prepare, one
 * run into fresh outputs, o->reps timed runs into a second set, release,
 * in one worker. Fills *out (free with plugin_outcome_free in every case).
 * Returns 0 whatever the plugin did (its verdict is out->status), or a
 * negative code when parcheck could not run it at all: PC_EINVAL (wrong
 * domain, arrays the entry needs missing), PC_ENOMEM, PC_ERANGE, PC_EDEVICE
 * (no shared memory, no worker), with err. */
int plugin_run_spmm(const plugin_entry *e, const plugin_spmm_in *in, const plugin_opts *o,
                    plugin_outcome *out, pc_error *err);
int plugin_run_sa(const plugin_entry *e, const plugin_sa_in *in, const plugin_opts *o,
                  plugin_outcome *out, pc_error *err);
int plugin_run_pets(const plugin_entry *e, const plugin_pets_in *in, const plugin_opts *o,
                    plugin_outcome *out, pc_error *err);

/* Hidden subcommand `parcheck plugin-worker --fd N` (argv[0] is
 * "plugin-worker"): serves one segment and exits. A test program that runs
 * plugins dispatches it from its own main the same way. */
int plugin_worker_main(int argc, char **argv);

#ifdef __cplusplus
}
#endif

#endif
