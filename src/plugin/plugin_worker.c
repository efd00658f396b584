/* plugin_worker.c - `parcheck plugin-worker --fd N`: the process a plugin
 * runs in. Started by plugin_spawn_wait, never by a user. */
#include "plugins.h"

#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>
#ifdef _OPENMP
#include "pc_omp.h"
#endif

#include "pc_cli.h"
#include "plugin_serve.h"

static plugin_hdr *g_hdr;
static unsigned char g_altstack[1 << 16];

/* Notes where a SIGSEGV/SIGBUS from a memory access hit (si_code > 0: sent
 * by the kernel, not by raise or kill), then lets it kill the process as
 * it would have (the disposition is back to default on entry). Only
 * stores: async-signal-safe. */
static void on_fault(int sig, siginfo_t *si, void *ctx)
{
    (void)ctx;
    if (g_hdr && si->si_code > 0) {
        g_hdr->fault_signal = sig;
        g_hdr->fault_addr = (uint64_t)(uintptr_t)si->si_addr;
    }
    raise(sig);
}

static void catch_faults(void)
{
    stack_t ss = {.ss_sp = g_altstack, .ss_size = sizeof g_altstack};
    (void)sigaltstack(&ss, NULL); /* a stack overflow still gets reported */
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_fault;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESETHAND;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGSEGV, &sa, NULL);
    sigaction(SIGBUS, &sa, NULL);
}

int plugin_worker_main(int argc, char **argv)
{
    long long fd = -1;
    pc_error err;
    pc_error_clear(&err);
    if (argc != 3 || strcmp(argv[1], "--fd") != 0 ||
        pc_cli_parse_long("--fd", argv[2], 0, 1 << 20, &fd, &err) != 0) {
        fputs("usage: parcheck plugin-worker --fd N   (started by parcheck for --plugin)\n",
              stderr);
        return 2;
    }
    plugin_seg seg;
    if (plugin_seg_map_worker(&seg, (int)fd, &err) != 0) {
        fprintf(stderr, "parcheck plugin-worker: %s\n", err.msg);
        return 2;
    }
    /* The mapping stays; no descriptor of parcheck's leaks into the plugin
     * or what it starts. */
    seg.fd = -1;
    (void)close_range(3, ~0u, 0);
    g_hdr = seg.hdr;
    /* Dies with parcheck (Ctrl-C reaches parcheck's process group only). */
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if ((int64_t)getppid() != seg.hdr->parent_pid)
        _exit(3);
    seg.hdr->worker_base = (uint64_t)(uintptr_t)seg.base;
    catch_faults();
#ifdef _OPENMP
    /* R6 also for a plugin that opens `omp parallel` without num_threads. */
    if (seg.hdr->threads > 0)
        omp_set_num_threads(seg.hdr->threads);
#endif
    plugin_serve(&seg);
    fflush(NULL);
    __atomic_store_n(&seg.hdr->done, PLUGIN_DONE_MARK, __ATOMIC_RELEASE);
    /* _exit: the plugin's destructors and atexit handlers would run after
     * the verdict is written and could only blur it. */
    _exit(0);
}
