/* parcheck/plugin.h - the plugin ABI: a user's SpMM, suffix-array or PETS
 * kernel, built as a shared object, run by parcheck beside its own
 * implementations: same inputs, same oracles, same timing loop.
 *
 * Whatever is not in this file is not part of the plugin ABI. This header
 * includes no other parcheck header and compiles alone as C99 or C++.
 *
 * Rules (cited by number below and in docs/README-plugins.md):
 *
 * R1  A plugin exports one function, parcheck_plugin_init, which hands
 *     parcheck a table of entries (parcheck_plugin). Each entry is one
 *     implementation: a name, a domain, a one-line description and a run
 *     function; prepare, release and available are optional.
 * R2  Every struct of this file begins with abi_version and struct_size.
 *     Fields are only ever appended; abi_version is bumped when they are.
 *     parcheck loads a struct whose abi_version is 1..PARCHECK_PLUGIN_ABI
 *     and whose struct_size is at least that version's size, and reads no
 *     field beyond struct_size. A plugin fills abi_version with the
 *     PARCHECK_PLUGIN_ABI it was built with and struct_size with sizeof.
 * R3  Lifecycle. Each (entry, input) pair runs in a fresh worker process:
 *     init, then prepare (once), then run 1 + reps times, then release.
 *     Only each run call is timed; process start, loading, copies, prepare
 *     and release are not. The first run is the one validated; every later
 *     run writes to a second set of outputs, and the last of them must be
 *     bit-identical to the first unless the entry sets PARCHECK_F_VARIES.
 *     A crash, abort, exit() or hang is reported as the entry's status
 *     (crashed, timeout); parcheck itself goes on.
 * R4  Inputs are read-only (mapped so: a write is reported as a crash).
 *     Input pointers stay the same from prepare to release, so state may
 *     keep derived data; output pointers differ between the first run and
 *     the others, so state must not keep them. Every output element must
 *     be written: parcheck fills outputs with a poison pattern first.
 * R5  A function that fails returns a negative PARCHECK_E* code and may
 *     write a NUL-terminated reason into msg[0..msg_len) (truncate to fit;
 *     msg_len >= 1). No parcheck constant sizes a buffer in this ABI.
 * R6  Use at most `threads` threads (the value of --threads).
 * R7  Memory may come from the host table (alloc/free): then parcheck's
 *     allocation-failure injection (PARCHECK_FAIL_ALLOC=N) reaches the
 *     plugin too. Plain malloc is allowed.
 * R8  Names: 1..PARCHECK_NAME_MAX characters from [A-Za-z0-9._+-], the
 *     first a letter or digit, unique among every implementation of the
 *     run (built-in or plugin). Descriptions: one line; longer than
 *     PARCHECK_DESC_MAX characters is cut in reports.
 */
#ifndef PARCHECK_PLUGIN_H_5C1E7A
#define PARCHECK_PLUGIN_H_5C1E7A

#include <stddef.h>
#include <stdint.h>

/* Version of the layouts below (R2). */
#define PARCHECK_PLUGIN_ABI 1

/* The one symbol parcheck looks up (R1). */
#define PARCHECK_PLUGIN_INIT_SYMBOL "parcheck_plugin_init"

#define PARCHECK_PLUGIN_MAX_ENTRIES 64
#define PARCHECK_NAME_MAX 47
#define PARCHECK_DESC_MAX 159

#if defined(__GNUC__) || defined(__clang__)
#define PARCHECK_PLUGIN_EXPORT __attribute__((visibility("default")))
#else
#define PARCHECK_PLUGIN_EXPORT
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Return codes, shared with parcheck.h (same values, same guard). */
#ifndef PARCHECK_ERROR_CODES_DEFINED
#define PARCHECK_ERROR_CODES_DEFINED
enum {
    PARCHECK_OK = 0,
    PARCHECK_EINVAL = -1,   /* bad argument */
    PARCHECK_ENOMEM = -2,   /* allocation failed */
    PARCHECK_EIO = -3,      /* a file could not be read or written */
    PARCHECK_EFORMAT = -4,  /* malformed input */
    PARCHECK_ERANGE = -5,   /* size or value outside what the code handles */
    PARCHECK_EUNSUP = -6,   /* valid input the code does not support */
    PARCHECK_EUNAVAIL = -7, /* cannot run here (no device...): reported as skipped */
    PARCHECK_EDEVICE = -8,  /* device or runtime failure */
    PARCHECK_EVERIFY = -9   /* a result failed validation */
};
#endif

enum parcheck_domain {
    PARCHECK_DOMAIN_SPMM = 1,
    PARCHECK_DOMAIN_SA = 2,
    PARCHECK_DOMAIN_PETS = 3
};

/* parcheck_entry.flags. A bit parcheck does not know is refused, so a
 * plugin that relies on a newer meaning is never run with the old one. */
#define PARCHECK_F_ELL    0x01u /* SpMM: reads padded ELLPACK, not CSR */
#define PARCHECK_F_FP32   0x02u /* SpMM: values, X and Y are float, not double */
#define PARCHECK_F_DEVICE 0x04u /* SpMM: every array pointer is a CUDA device pointer */
#define PARCHECK_F_INT64  0x08u /* SA: sa and lcp are int64_t, not int32_t */
#define PARCHECK_F_LCP    0x10u /* SA: the entry also writes lcp */
#define PARCHECK_F_VARIES 0x20u /* repeated runs may differ in the last bits:
                                 * each is validated alone, not compared (R3) */

/* What parcheck offers every plugin; valid for the life of the process
 * (a plugin may keep the pointer). */
typedef struct parcheck_host {
    int abi_version;        /* PARCHECK_PLUGIN_ABI of parcheck */
    size_t struct_size;     /* sizeof(parcheck_host) in parcheck */
    /* size bytes aligned to 64; NULL when out of memory (real or injected).
     * size 0 gives a unique pointer. */
    void *(*alloc)(void *opaque, size_t size);
    /* Releases what alloc returned; NULL is a no-op. */
    void (*free)(void *opaque, void *address);
    void *opaque;           /* pass back to alloc and free */
    int threads;            /* --threads (R6) */
} parcheck_host;

/* Y = A * X. The pointers are host pointers, or CUDA device pointers when
 * the entry sets PARCHECK_F_DEVICE. Values (as, X, Y) are double, or float
 * with PARCHECK_F_FP32. Indices are 0-based. */
typedef struct parcheck_spmm_problem {
    int abi_version;
    size_t struct_size;
    int32_t m, n;           /* A is m x n */
    int64_t nnz;            /* stored entries (ELLPACK: without padding) */
    int32_t K;              /* columns of X and Y, >= 1 */
    int threads;
    /* CSR (entries without PARCHECK_F_ELL):
     *   irp [0..m]       row i holds entries irp[i] .. irp[i+1]-1
     *   ja  [0..nnz)     column of each entry, ascending within a row
     *   as  [0..nnz)     value of each entry
     * ELLPACK (PARCHECK_F_ELL), column-major slabs, entry k of row i at
     * k*m + i:
     *   ja  [0..m*width) column; padding repeats the row's last column
     *                    (0 for an empty row), so it reads touched memory
     *   as  [0..m*width) value; padding is 0
     *   rowlen [0..m)    real entries of each row; irp is NULL */
    const int32_t *irp;
    const int32_t *ja;
    const void *as;
    int32_t width;          /* ELLPACK: longest row; CSR: 0 */
    const int32_t *rowlen;  /* ELLPACK only, else NULL */
    const void *X;          /* [0..n*K) row-major: X(j,k) at j*K + k */
    void *Y;                /* [0..m*K) row-major, every entry written (R4) */
} parcheck_spmm_problem;

/* The suffix array of text: sa[i] is the start of the i-th smallest suffix,
 * bytes compared as unsigned, a proper prefix first. lcp[0] = 0 and lcp[i]
 * is the longest common prefix of the suffixes sa[i-1] and sa[i]. Without
 * PARCHECK_F_INT64 parcheck runs the entry only when n < 2^31. */
typedef struct parcheck_sa_problem {
    int abi_version;
    size_t struct_size;
    int64_t n;              /* text bytes, >= 0 */
    int threads;
    const uint8_t *text;    /* [0..n) any bytes, NUL included */
    void *sa;               /* [0..n) int32_t, or int64_t with PARCHECK_F_INT64 */
    void *lcp;              /* [0..n) same type as sa with PARCHECK_F_LCP, else NULL */
} parcheck_sa_problem;

enum parcheck_pets_policy {
    PARCHECK_PETS_INSERTION = 0, /* a task may fill an idle gap on a processor */
    PARCHECK_PETS_APPEND = 1     /* a task starts after the last one placed there */
};

/* A task graph with per-processor costs and per-edge communication costs:
 * schedule every task on one processor. Tasks and processors are 0-based.
 * A valid schedule runs each task after each predecessor has finished,
 * plus the edge's communication cost when they are on different
 * processors, and never overlaps two tasks on one processor; a task's
 * finish is start + cost[t*nprocs + proc[t]]. parcheck validates the
 * schedule and reports its makespan; it need not match parcheck's own. */
typedef struct parcheck_pets_problem {
    int abi_version;
    size_t struct_size;
    int32_t ntasks, nprocs, nedges;
    int policy;             /* enum parcheck_pets_policy, a request: validity is what is checked */
    int threads;
    const int64_t *cost;    /* [0..ntasks*nprocs) cost of task t on processor p at t*nprocs + p */
    /* successors of t: succ[succ_off[t] .. succ_off[t+1]), ascending, and the
     * communication cost of each edge in succ_comm; predecessors likewise */
    const int32_t *succ_off;    /* [0..ntasks] */
    const int32_t *succ;        /* [0..nedges) */
    const int64_t *succ_comm;   /* [0..nedges) */
    const int32_t *pred_off;    /* [0..ntasks] */
    const int32_t *pred;        /* [0..nedges) */
    const int64_t *pred_comm;   /* [0..nedges) */
    int32_t *proc;          /* [0..ntasks) out: processor of each task */
    int64_t *start;         /* [0..ntasks) out: start time of each task */
} parcheck_pets_problem;

typedef struct parcheck_entry parcheck_entry;

/* One implementation (R1). self is the entry itself, so one function may
 * serve several entries (read self->user). */
struct parcheck_entry {
    int abi_version;            /* PARCHECK_PLUGIN_ABI when built (R2) */
    size_t struct_size;         /* sizeof(parcheck_entry) when built */
    const char *name;           /* R8; the --impl name */
    const char *description;    /* one line, not NULL */
    int domain;                 /* enum parcheck_domain */
    unsigned flags;             /* PARCHECK_F_* */
    void *user;                 /* the plugin's own, never read by parcheck */

    /* Optional: 1 when the entry can run here; else 0 with the reason in
     * why[0..why_len) (reported as skipped). NULL: always available. */
    int (*available)(const parcheck_entry *self, char *why, size_t why_len);

    /* Optional set-up, not timed: problem points to the domain's
     * parcheck_*_problem that the runs receive (same inputs; outputs not yet
     * written). *state (NULL on entry) is passed to every run and to
     * release. Returns 0, PARCHECK_EUNAVAIL (skipped) or another negative
     * code (error) with msg (R5). */
    int (*prepare)(const parcheck_entry *self, const void *problem, void **state,
                   char *msg, size_t msg_len);

    /* Exactly the run function of the entry's domain is non-NULL. Each
     * writes the outputs of p (R4) and returns 0, or a negative code with
     * msg (R5). */
    int (*run_spmm)(const parcheck_entry *self, void *state, const parcheck_spmm_problem *p,
                    char *msg, size_t msg_len);
    int (*run_sa)(const parcheck_entry *self, void *state, const parcheck_sa_problem *p,
                  char *msg, size_t msg_len);
    int (*run_pets)(const parcheck_entry *self, void *state, const parcheck_pets_problem *p,
                    char *msg, size_t msg_len);

    /* Optional: releases state after the last run (also after a failed run;
     * not after a failed prepare). */
    void (*release)(const parcheck_entry *self, void *state);
    /* new members appended here only, with PARCHECK_PLUGIN_ABI bumped (R2) */
};

/* The table a plugin hands over (R1). */
typedef struct parcheck_plugin {
    int abi_version;            /* PARCHECK_PLUGIN_ABI when built (R2) */
    size_t struct_size;         /* sizeof(parcheck_plugin) when built */
    int count;                  /* 0..PARCHECK_PLUGIN_MAX_ENTRIES */
    const parcheck_entry *const *entries;   /* [0..count), none NULL */
} parcheck_plugin;

/* The plugin's entry point (R1), called once per worker process before
 * any entry is used, and possibly again in the same process (--no-fork):
 * it must return the same table each time.
 * host    [in] never NULL; valid for the life of the process.
 * plugin  [out] receives the table, which stays valid and unchanged until
 *         the process ends.
 * msg     [0..msg_len) receives a reason on failure (R5).
 * Returns 0, or a negative PARCHECK_E* code: parcheck then refuses the
 * whole plugin with msg. */
PARCHECK_PLUGIN_EXPORT int parcheck_plugin_init(const parcheck_host *host,
                                                const parcheck_plugin **plugin, char *msg,
                                                size_t msg_len);

typedef int (*parcheck_plugin_init_fn)(const parcheck_host *host,
                                       const parcheck_plugin **plugin, char *msg,
                                       size_t msg_len);

/* The rest of a plugin whose entries are static objects, in one line:
 *     PARCHECK_PLUGIN_DEFINE(&entry_a, &entry_b);
 * defines the table of the entries listed and a parcheck_plugin_init that
 * hands it over. PARCHECK_PLUGIN_DEFINE_HOST(g_host, &entry) also stores
 * the host table into g_host (a `static const parcheck_host *` declared
 * before it) for R7. A plugin that decides its entries at run time writes
 * parcheck_plugin_init itself. */
#define PARCHECK_PLUGIN_TABLE_(...)                                                     \
    static const parcheck_entry *const parcheck_entries_[] = {__VA_ARGS__};             \
    static const parcheck_plugin parcheck_table_ = {                                    \
        PARCHECK_PLUGIN_ABI, sizeof(parcheck_plugin),                                   \
        (int)(sizeof parcheck_entries_ / sizeof parcheck_entries_[0]), parcheck_entries_};
#define PARCHECK_PLUGIN_INIT_(store)                                                    \
    PARCHECK_PLUGIN_EXPORT int parcheck_plugin_init(const parcheck_host *host,          \
                                                    const parcheck_plugin **plugin,      \
                                                    char *msg, size_t msg_len)           \
    {                                                                                   \
        (void)msg;                                                                      \
        (void)msg_len;                                                                  \
        store;                                                                          \
        *plugin = &parcheck_table_;                                                     \
        return PARCHECK_OK;                                                             \
    }                                                                                   \
    extern int parcheck_plugin_defined_ /* takes the caller's semicolon */
#define PARCHECK_PLUGIN_DEFINE(...)                                                     \
    PARCHECK_PLUGIN_TABLE_(__VA_ARGS__) PARCHECK_PLUGIN_INIT_((void)host)
#define PARCHECK_PLUGIN_DEFINE_HOST(host_var, ...)                                      \
    PARCHECK_PLUGIN_TABLE_(__VA_ARGS__) PARCHECK_PLUGIN_INIT_((host_var) = host)

#ifdef __cplusplus
}
#endif

#endif
