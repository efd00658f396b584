/* plugin_spawn.h - starting a fresh worker process on a segment and waiting
 * for it with a per-call timeout.
 *
 * Why not fork(): GNU libgomp hangs in a forked child whose parent already
 * ran an OpenMP parallel region, and CUDA state does not survive a fork;
 * the worker is a fresh exec of parcheck's own binary instead
 * (`parcheck plugin-worker --fd N`). */
#ifndef PLUGIN_SPAWN_H
#define PLUGIN_SPAWN_H

#include "pc_error.h"
#include "plugin_seg.h"

#ifdef __cplusplus
extern "C" {
#endif

/* How the worker ended. */
typedef struct plugin_exit {
    int timed_out;      /* killed by parcheck: a call ran past the timeout */
    int signal;         /* killed by this signal (not the timeout's), else 0 */
    int exited;         /* exited by itself, with status */
    int status;
    int done;           /* the header carries PLUGIN_DONE_MARK */
    int phase;          /* the worker's last phase and run index */
    int run_index;
} plugin_exit;

/* The program started as worker: by default this process's own executable
 * (the parcheck binary, or a test that dispatches `plugin-worker` in its
 * main). A program linking libparcheck for itself sets parcheck's path
 * here. path is copied; NULL restores the default. */
void plugin_set_worker_exe(const char *path);

/* Starts the worker on seg (stdin from /dev/null, stdout to this process's
 * stderr so a plugin's prints never mix with --json output), waits for it,
 * killing its process group when one call (the time since the worker's last
 * phase change) exceeds timeout_s (<= 0: wait forever). Fills *ex. Returns 0
 * (whatever the worker did) or PC_EDEVICE when it could not be started. */
int plugin_spawn_wait(plugin_seg *seg, double timeout_s, plugin_exit *ex, pc_error *err);

/* "SIGSEGV"... for a signal number (static storage). */
const char *plugin_signal_name(int sig);

#ifdef __cplusplus
}
#endif

#endif
