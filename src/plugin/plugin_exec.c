/* plugin_exec.c - serve a segment and turn how the worker ended into a
 * status with a reason a student can act on. */
#include "plugin_exec.h"

#include <inttypes.h>
#include <stdio.h>
#include <unistd.h>

#include "plugins.h"
#include "plugin_serve.h"
#include "plugin_spawn.h"

/* "run 2 of 6", "prepare", ... for the worker's last phase. */
static void phase_text(const plugin_hdr *h, int phase, int run, char *buf, size_t n)
{
    switch (phase) {
    case PLUGIN_PHASE_START: snprintf(buf, n, "while starting the worker"); break;
    case PLUGIN_PHASE_LOAD:
        snprintf(buf, n, "while loading the plugin (constructors, %s%s)",
                 PARCHECK_PLUGIN_INIT_SYMBOL,
                 h->mode == PLUGIN_MODE_DESCRIBE ? ", available" : "");
        break;
    case PLUGIN_PHASE_PREPARE: snprintf(buf, n, "in prepare"); break;
    case PLUGIN_PHASE_RUN: snprintf(buf, n, "in run %d of %d", run + 1, h->reps + 1); break;
    case PLUGIN_PHASE_RELEASE: snprintf(buf, n, "in release"); break;
    case PLUGIN_PHASE_COPY: snprintf(buf, n, "while copying to or from the device"); break;
    default: snprintf(buf, n, "after the last call (in exit handlers)"); break;
    }
}

/* Where a SIGSEGV/SIGBUS hit, when the worker's handler saw it. */
static void fault_text(const plugin_seg *seg, int domain, int sig, char *buf, size_t n)
{
    const plugin_hdr *h = seg->hdr;
    buf[0] = '\0';
    if (h->fault_signal != sig)
        return;
    uint64_t a = h->fault_addr, base = h->worker_base;
    if (a < 4096)
        snprintf(buf, n, " at address 0x%" PRIx64 " (a NULL pointer)", a);
    else if (base && a >= base && a - base < seg->len) {
        char where[160];
        plugin_seg_describe_offset(seg, domain, a - base, where, sizeof where);
        snprintf(buf, n, ": %s", where);
    } else
        snprintf(buf, n, " at address 0x%" PRIx64, a);
}

/* The worker shares the header with plugin code, which may have scribbled
 * on it: terminate its strings and bound its counts before the parent
 * reads them. */
static void sanitize(plugin_hdr *h)
{
    h->msg[sizeof h->msg - 1] = '\0';
    if (h->count < 0 || h->count > PLUGIN_REC_MAX)
        h->count = 0;
    if (h->reps_done < 0 || h->reps_done > h->reps)
        h->reps_done = 0;
    for (int i = 0; i < PLUGIN_REC_MAX; i++) {
        h->rec[i].name[sizeof h->rec[i].name - 1] = '\0';
        h->rec[i].desc[sizeof h->rec[i].desc - 1] = '\0';
        h->rec[i].why[sizeof h->rec[i].why - 1] = '\0';
    }
}

int plugin_exec(plugin_seg *seg, int domain, double timeout_s, int no_fork, int *status,
                int *signal, char *reason, size_t n, pc_error *err)
{
    plugin_hdr *h = seg->hdr;
    plugin_exit ex = {0};
    int rc;
    *status = PLUGIN_ERROR;
    *signal = 0;
    reason[0] = '\0';
    if (no_fork) {
        h->parent_pid = (int64_t)getpid();
        if ((rc = plugin_seg_protect(seg, err)) != 0) {
            plugin_seg_unprotect(seg);
            return rc;
        }
        plugin_serve(seg);
        plugin_seg_unprotect(seg);
        h->done = PLUGIN_DONE_MARK;
        ex = (plugin_exit){.exited = 1, .done = 1};
    } else if ((rc = plugin_spawn_wait(seg, timeout_s, &ex, err)) != 0) {
        return rc;
    }
    sanitize(h);
    char where[96];
    phase_text(h, ex.phase, ex.run_index, where, sizeof where);
    if (ex.timed_out) {
        *status = PLUGIN_TIMEOUT;
        snprintf(reason, n, "no answer within %g s %s (killed)", timeout_s, where);
    } else if (ex.signal) {
        char fault[256];
        fault_text(seg, domain, ex.signal, fault, sizeof fault);
        *status = PLUGIN_CRASHED;
        *signal = ex.signal;
        snprintf(reason, n, "%s %s%s", plugin_signal_name(ex.signal), where, fault);
    } else if (!ex.done && ex.phase == PLUGIN_PHASE_START) {
        snprintf(reason, n, "the plugin worker did not start (exit status %d, its message above)",
                 ex.status);
    } else if (!ex.done) {
        *status = PLUGIN_CRASHED;
        snprintf(reason, n, "exited with status %d %s (exit() in plugin code?)", ex.status,
                 where);
    } else if (h->wstatus == PLUGIN_W_OK) {
        int k;
        long before, after;
        *status = PLUGIN_RAN;
        if (!plugin_seg_canaries_ok(seg, &k, &before, &after)) {
            *status = PLUGIN_ERROR;
            snprintf(reason, n, "wrote outside output '%s': %ld bytes changed in front of it, "
                     "%ld behind it", plugin_seg_name(domain, k), before, after);
        }
    } else if (h->wstatus == PLUGIN_W_UNAVAIL) {
        *status = PLUGIN_SKIPPED;
        snprintf(reason, n, "%s", h->msg);
    } else {
        *status = PLUGIN_ERROR;
        snprintf(reason, n, "%s", h->wstatus == PLUGIN_W_NONE ? "the worker ended without a verdict"
                                                              : h->msg);
    }
    return 0;
}
