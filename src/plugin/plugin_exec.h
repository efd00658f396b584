/* plugin_exec.h - one segment served by a worker (or in this process with
 * --no-fork), and what came of it as a status and a reason. Shared by
 * loading (describe mode) and running (run mode). */
#ifndef PLUGIN_EXEC_H
#define PLUGIN_EXEC_H

#include <stddef.h>

#include "pc_error.h"
#include "plugin_seg.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Serves seg (its header filled by the caller) with timeout_s per call, in
 * a worker or, with no_fork, here. Sets *status (enum plugin_status),
 * *signal (the crash's signal, else 0) and reason[0..n) (why, for every
 * status but PLUGIN_RAN; crashes name the phase and, for SIGSEGV/SIGBUS,
 * the buffer hit). Returns 0, or PC_EDEVICE when no worker could be
 * started (err). */
int plugin_exec(plugin_seg *seg, int domain, double timeout_s, int no_fork, int *status,
                int *signal, char *reason, size_t n, pc_error *err);

#ifdef __cplusplus
}
#endif

#endif
