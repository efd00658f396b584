/* plugin_spawn.c - one fresh worker per plugin call set, with a timeout. */
#include "plugin_spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "pc_time.h"

extern char **environ;

static char g_worker_exe[PATH_MAX];

void plugin_set_worker_exe(const char *path)
{
    snprintf(g_worker_exe, sizeof g_worker_exe, "%s", path ? path : "");
}

/* The resolved path of this executable: exec'ing the link itself would
 * start valgrind's tool binary instead of the program under valgrind. */
static int worker_exe(char *buf, size_t n, pc_error *err)
{
    if (g_worker_exe[0]) {
        snprintf(buf, n, "%s", g_worker_exe);
        return 0;
    }
    ssize_t len = readlink("/proc/self/exe", buf, n - 1);
    if (len <= 0 || (size_t)len >= n - 1)
        return pc_error_set(err, PC_EDEVICE, NULL, 0,
                            "cannot find parcheck's own executable (/proc/self/exe): %s",
                            len < 0 ? strerror(errno) : "path too long");
    buf[len] = '\0';
    return 0;
}

const char *plugin_signal_name(int sig)
{
    static char buf[32];
    const char *abbrev = sigabbrev_np(sig);
    if (abbrev)
        snprintf(buf, sizeof buf, "SIG%s", abbrev);
    else
        snprintf(buf, sizeof buf, "signal %d", sig);
    return buf;
}

static int start_worker(plugin_seg *seg, pid_t *pid, pc_error *err)
{
    char exe[PATH_MAX];
    int rc = worker_exe(exe, sizeof exe, err);
    if (rc)
        return rc;
    /* The segment's fd is close-on-exec; the worker gets a copy under
     * another number, which dup2 leaves inheritable. */
    int target = seg->fd == 3 ? 4 : 3;
    char fdarg[16];
    snprintf(fdarg, sizeof fdarg, "%d", target);
    char *argv[] = {exe, (char *)"plugin-worker", (char *)"--fd", fdarg, NULL};

    posix_spawn_file_actions_t fa;
    posix_spawnattr_t at;
    if (posix_spawn_file_actions_init(&fa) != 0)
        return pc_error_set(err, PC_EDEVICE, NULL, 0, "posix_spawn_file_actions_init failed");
    if (posix_spawnattr_init(&at) != 0) {
        posix_spawn_file_actions_destroy(&fa);
        return pc_error_set(err, PC_EDEVICE, NULL, 0, "posix_spawnattr_init failed");
    }
    sigset_t none, all;
    sigemptyset(&none);
    sigfillset(&all);
    int e = posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    e = e ? e : posix_spawn_file_actions_adddup2(&fa, 2, 1);
    e = e ? e : posix_spawn_file_actions_adddup2(&fa, seg->fd, target);
    /* Its own process group, so a timeout kills whatever the plugin started. */
    e = e ? e : posix_spawnattr_setpgroup(&at, 0);
    e = e ? e : posix_spawnattr_setsigmask(&at, &none);
    e = e ? e : posix_spawnattr_setsigdefault(&at, &all);
    e = e ? e : posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK |
                                                  POSIX_SPAWN_SETSIGDEF);
    e = e ? e : posix_spawn(pid, exe, &fa, &at, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&at);
    if (e)
        return pc_error_set(err, PC_EDEVICE, NULL, 0, "cannot start the plugin worker %s: %s",
                            exe, strerror(e));
    return 0;
}

/* Sleeps until the worker may have changed (it exited, or wait_s passed). */
static void wait_a_little(int pidfd, double wait_s, double *backoff)
{
    if (pidfd >= 0) {
        struct pollfd p = {.fd = pidfd, .events = POLLIN};
        (void)poll(&p, 1, (int)(wait_s * 1000) + 1);
        return;
    }
    /* Without pidfd: poll with a growing interval, so a quick worker is seen
     * quickly and a long one costs few wake-ups. */
    double s = *backoff < wait_s ? *backoff : wait_s;
    struct timespec ts = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
    nanosleep(&ts, NULL);
    if (*backoff < 0.05)
        *backoff *= 2;
}

int plugin_spawn_wait(plugin_seg *seg, double timeout_s, plugin_exit *ex, pc_error *err)
{
    *ex = (plugin_exit){0};
    plugin_hdr *h = seg->hdr;
    h->parent_pid = (int64_t)getpid();
    h->phase = PLUGIN_PHASE_START;
    h->phase_start = pc_time_now();
    pid_t pid;
    int rc = start_worker(seg, &pid, err);
    if (rc)
        return rc;
#ifdef SYS_pidfd_open
    int pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
#else
    int pidfd = -1;
#endif
    double backoff = 0.001;
    int st = 0;
    for (;;) {
        pid_t r = waitpid(pid, &st, WNOHANG);
        if (r == pid)
            break;
        if (r < 0 && errno != EINTR) {
            /* SIGCHLD ignored: the child was reaped for us; the header says
             * how far it got. */
            st = 0;
            break;
        }
        double start;
        __atomic_load(&h->phase_start, &start, __ATOMIC_ACQUIRE);
        double now = pc_time_now();
        if (timeout_s > 0 && now - start > timeout_s) {
            kill(-pid, SIGKILL);
            kill(pid, SIGKILL);
            while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
                ;
            ex->timed_out = 1;
            break;
        }
        double wait_s = timeout_s > 0 ? start + timeout_s - now : 1.0;
        wait_a_little(pidfd, wait_s < 1.0 ? wait_s : 1.0, &backoff);
    }
    if (pidfd >= 0)
        close(pidfd);
    if (!ex->timed_out) {
        if (WIFSIGNALED(st))
            ex->signal = WTERMSIG(st);
        else {
            ex->exited = 1;
            ex->status = WEXITSTATUS(st);
        }
    }
    ex->done = __atomic_load_n(&h->done, __ATOMIC_ACQUIRE) == PLUGIN_DONE_MARK;
    ex->phase = __atomic_load_n(&h->phase, __ATOMIC_ACQUIRE);
    ex->run_index = h->run_index;
    return 0;
}
