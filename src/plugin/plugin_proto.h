/* plugin_proto.h - the shared segment between parcheck and a plugin worker.
 *
 * The parent creates an anonymous memory file (memfd) laid out as
 *     [header | describe records] [inputs] [guard] [output] [guard] ...
 * starts `parcheck plugin-worker --fd N` with the file inherited, and waits.
 * The worker maps the same file: header read-write, inputs read-only,
 * guard pages inaccessible, outputs read-write. What the worker learns
 * (status, message, times, the entry table) it writes into the header and
 * marks the header done last, so a worker that vanished without the mark
 * (exit() in user code, a signal) is told apart from one that finished.
 * Only parent and worker of the same build read this layout; it is not an
 * ABI (the plugin ABI is include/parcheck/plugin.h). */
#ifndef PLUGIN_PROTO_H
#define PLUGIN_PROTO_H

#include <stddef.h>
#include <stdint.h>

#include "parcheck/plugin.h"

/* Sizes of the ABI 1 structs: what a plugin built for ABI 1 must at least
 * provide (R2). When fields are appended, these stay and the newer sizes
 * join them. */
#define PLUGIN_ENTRY_SIZE_ABI1 sizeof(parcheck_entry)
#define PLUGIN_TABLE_SIZE_ABI1 sizeof(parcheck_plugin)

#define PLUGIN_MAGIC 0x31504b4843524150ULL /* "PARCHKP1" */
#define PLUGIN_PROTO_VERSION 1
#define PLUGIN_DONE_MARK 0x454e4f44u       /* "DONE" */
#define PLUGIN_PATH_MAX 4096
#define PLUGIN_MSG_MAX 512
#define PLUGIN_SEC_MAX 16
#define PLUGIN_NAME_BUF 64                 /* > PARCHECK_NAME_MAX, so too long is seen */
#define PLUGIN_DESC_BUF 160
#define PLUGIN_CANARY 0xa5u                /* byte around each output */

enum plugin_mode { PLUGIN_MODE_DESCRIBE = 1, PLUGIN_MODE_RUN = 2 };

/* Where the worker is, for the timeout and for messages. */
enum plugin_phase {
    PLUGIN_PHASE_START = 0, PLUGIN_PHASE_LOAD, PLUGIN_PHASE_PREPARE, PLUGIN_PHASE_RUN,
    PLUGIN_PHASE_RELEASE, PLUGIN_PHASE_COPY, PLUGIN_PHASE_DONE
};

/* What the worker concluded (valid once done == PLUGIN_DONE_MARK). */
enum plugin_wstatus {
    PLUGIN_W_NONE = 0,
    PLUGIN_W_OK,        /* every call returned 0 */
    PLUGIN_W_FAILED,    /* a plugin function returned a negative code (code, msg) */
    PLUGIN_W_UNAVAIL,   /* prepare returned PARCHECK_EUNAVAIL or available() said no */
    PLUGIN_W_BADLIB     /* the library could not be used (msg): dlopen, init, entry */
};

/* Sections. Inputs first, outputs after; each output has a first-run copy
 * (A) and a later-runs copy (B). Per domain: */
enum {
    /* SpMM */
    PLUGIN_S_IRP = 0, PLUGIN_S_JA, PLUGIN_S_AS, PLUGIN_S_ROWLEN, PLUGIN_S_X,
    PLUGIN_S_Y_A, PLUGIN_S_Y_B,
    /* SA */
    PLUGIN_S_TEXT = 0, PLUGIN_S_SA_A, PLUGIN_S_SA_B, PLUGIN_S_LCP_A, PLUGIN_S_LCP_B,
    /* PETS */
    PLUGIN_S_COST = 0, PLUGIN_S_SUCC_OFF, PLUGIN_S_SUCC, PLUGIN_S_SUCC_COMM,
    PLUGIN_S_PRED_OFF, PLUGIN_S_PRED, PLUGIN_S_PRED_COMM,
    PLUGIN_S_PROC_A, PLUGIN_S_PROC_B, PLUGIN_S_START_A, PLUGIN_S_START_B,
    /* every domain: seconds of each timed run */
    PLUGIN_S_TIMES = PLUGIN_SEC_MAX - 1
};

typedef struct plugin_sec {
    uint64_t off;       /* from the start of the segment; 0 = absent */
    uint64_t size;      /* bytes */
    uint32_t output;    /* 1: written by the worker (guarded, canaries around) */
    uint32_t pad;
} plugin_sec;

/* What describe mode reports of one entry: the raw facts, judged by the
 * parent (plugin_load.c) so that the rules live in one place. */
typedef struct plugin_rec {
    int32_t null_entry;         /* the table held NULL */
    int32_t abi_version;
    uint64_t struct_size;
    int32_t domain;
    uint32_t flags;
    int32_t name_state;         /* 0 ok, 1 NULL, 2 longer than the buffer */
    int32_t desc_state;         /* 0 ok, 1 NULL (a long one is cut) */
    char name[PLUGIN_NAME_BUF];
    char desc[PLUGIN_DESC_BUF];
    uint32_t fns;               /* PLUGIN_FN_* bits of the non-NULL functions */
    int32_t available;          /* 1, or 0 with why */
    char why[256];
} plugin_rec;

enum {
    PLUGIN_FN_AVAILABLE = 1, PLUGIN_FN_PREPARE = 2, PLUGIN_FN_RUN_SPMM = 4,
    PLUGIN_FN_RUN_SA = 8, PLUGIN_FN_RUN_PETS = 16, PLUGIN_FN_RELEASE = 32
};

#define PLUGIN_REC_MAX 64

typedef struct plugin_hdr {
    /* ---- parent -> worker ---- */
    uint64_t magic;
    uint32_t proto;
    uint32_t mode;              /* enum plugin_mode */
    uint64_t seg_len;
    int64_t parent_pid;
    char path[PLUGIN_PATH_MAX]; /* the .so, absolute */
    char entry[PLUGIN_NAME_BUF];/* run mode: which entry */
    int32_t domain;
    uint32_t flags;             /* the entry's flags as described */
    int32_t reps;               /* timed runs after the first */
    int32_t threads;
    int64_t dim[8];             /* per domain, see plugin_run.c */
    plugin_sec sec[PLUGIN_SEC_MAX];

    /* ---- worker -> parent ---- */
    int32_t phase;              /* enum plugin_phase (atomic stores) */
    int32_t run_index;          /* 0 = the first run, k = timed run k */
    double phase_start;         /* CLOCK_MONOTONIC seconds, shared by both */
    int32_t wstatus;            /* enum plugin_wstatus */
    int32_t code;               /* the plugin's return code */
    char msg[PLUGIN_MSG_MAX];
    double prepare_s;
    double first_s;             /* the first (validated) run */
    int32_t reps_done;
    int32_t fault_signal;       /* SIGSEGV/SIGBUS caught: where */
    uint64_t fault_addr;
    uint64_t worker_base;       /* the segment's address in the worker */
    /* describe mode */
    int32_t init_rc;
    int32_t table_null;
    int32_t table_abi;
    uint64_t table_size;
    int32_t count;
    int32_t entries_null;
    plugin_rec rec[PLUGIN_REC_MAX];
    uint32_t done;              /* PLUGIN_DONE_MARK, written last */
} plugin_hdr;

#endif
