/* sa_external.c - the hook for implementations that run as their own
 * program (mpi, mpi-omp, dc3-mpi): launches
 *     mpirun -np NP [--oversubscribe] [--bind-to none] [-x OMP_NUM_THREADS]
 *            $PARCHECK_MPIRUN_ARGS parcheck-sa-mpi FILE --sa TMP --stats TMP
 *            --no-lcp --quiet [--algo auto for the dc3-* names]
 * with OMP_NUM_THREADS = threads, then reads back the little-endian int32
 * suffix array and the program's own construction time (seconds=...).
 *
 * The program is looked up as $PARCHECK_SA_MPI, next to the running binary
 * (/proc/self/exe), in the build directory, then in the install directory;
 * mpirun as $PARCHECK_MPIRUN, else mpirun or mpiexec on PATH. With Open MPI
 * --oversubscribe is always passed (it changes nothing until ranks exceed
 * the slots, and CI has 2 cores for 4 ranks), and --bind-to none when ranks
 * have several threads (Open MPI binds each rank to one core when np <= 2).
 * As root, OMPI_ALLOW_RUN_AS_ROOT(_CONFIRM)=1 are added when absent.
 * Called with impl == NULL it only answers whether it can run here. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pc_alloc.h"
#include "pc_config.h"
#include "pc_file.h"
#include "sa.h"

/* The launcher's helpers exist only in builds with MPI: without it they
 * would be unused static functions (an error under -Werror). */
#if PC_HAVE_MPI
extern char **environ;

#define SA_MPI_PROG "parcheck-sa-mpi"
/* At most this many words of PARCHECK_MPIRUN_ARGS. */
#define SA_MPI_MAX_ARGS 64

static int is_exec(const char *p)
{
    struct stat s;
    return p && p[0] && stat(p, &s) == 0 && S_ISREG(s.st_mode) && access(p, X_OK) == 0;
}

/* The MPI program's path into out; 0 when none was found. */
static int find_prog(char *out, size_t len)
{
    const char *env = getenv("PARCHECK_SA_MPI");
    if (env && env[0]) {
        snprintf(out, len, "%s", env);
        return is_exec(out);
    }
    char self[PATH_MAX];
    ssize_t k = readlink("/proc/self/exe", self, sizeof self - 1);
    if (k > 0) {
        self[k] = '\0';
        char *slash = strrchr(self, '/');
        if (slash) {
            *slash = '\0';
            if (snprintf(out, len, "%s/%s", self, SA_MPI_PROG) < (int)len && is_exec(out))
                return 1;
        }
    }
    snprintf(out, len, "%s/%s", PC_BUILD_BINDIR, SA_MPI_PROG);
    if (is_exec(out))
        return 1;
    snprintf(out, len, "%s/%s", PC_INSTALL_BINDIR, SA_MPI_PROG);
    return is_exec(out);
}

/* mpirun's absolute path into out; 0 when none was found. */
static int find_mpirun(char *out, size_t len)
{
    const char *env = getenv("PARCHECK_MPIRUN");
    if (env && env[0]) {
        snprintf(out, len, "%s", env);
        return is_exec(out);
    }
    const char *path = getenv("PATH");
    static const char *const names[] = { "mpirun", "mpiexec" };
    for (int t = 0; t < 2; t++) {
        for (const char *p = path ? path : "/usr/bin:/bin"; *p;) {
            const char *e = strchr(p, ':');
            size_t dl = e ? (size_t)(e - p) : strlen(p);
            snprintf(out, len, "%.*s/%s", (int)dl, dl ? p : ".", names[t]);
            if (is_exec(out))
                return 1;
            p += dl + (e != NULL);
        }
    }
    return 0;
}

/* 1 when mpirun is Open MPI's (it knows --oversubscribe, -x, --bind-to). */
static int is_open_mpi(const char *mpirun)
{
    char cmd[PATH_MAX + 32], buf[256];
    snprintf(cmd, sizeof cmd, "'%s' --version 2>&1", mpirun);
    FILE *p = popen(cmd, "r");
    int yes = 0;
    if (!p)
        return 0;
    while (fgets(buf, sizeof buf, p))
        if (strstr(buf, "Open MPI") || strstr(buf, "OpenRTE"))
            yes = 1;
    pclose(p);
    return yes;
}

/* environ with OMP_NUM_THREADS=threads and, as root, Open MPI's consent
 * variables; the strings of the copy live in store. */
static char **child_env(int threads, char *store, size_t store_len)
{
    size_t ne = 0;
    while (environ && environ[ne]) /* NULL after a caller's clearenv() */
        ne++;
    char **env = pc_malloc_array(ne + 4, sizeof *env);
    if (!env)
        return NULL;
    size_t k = 0;
    for (size_t i = 0; i < ne; i++)
        if (strncmp(environ[i], "OMP_NUM_THREADS=", 16))
            env[k++] = environ[i];
    snprintf(store, store_len, "OMP_NUM_THREADS=%d", threads);
    env[k++] = store;
    if (geteuid() == 0) {
        if (!getenv("OMPI_ALLOW_RUN_AS_ROOT"))
            env[k++] = "OMPI_ALLOW_RUN_AS_ROOT=1";
        if (!getenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM"))
            env[k++] = "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1";
    }
    env[k] = NULL;
    return env;
}

/* Runs argv with env, stdin from /dev/null; returns the exit status, or
 * -1 (with errno-based message in err) when it could not run or died. */
static int run_child(char *const *argv, char *const *env, pc_error *err)
{
    pid_t pid = fork();
    if (pid < 0)
        return pc_error_set(err, PC_EDEVICE, NULL, 0, "fork: %s", strerror(errno));
    if (pid == 0) {
        int fd = open("/dev/null", O_RDONLY);
        if (fd >= 0) {
            dup2(fd, 0);
            close(fd);
        }
        execve(argv[0], argv, env);
        _exit(127);
    }
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR)
            return pc_error_set(err, PC_EDEVICE, NULL, 0, "waitpid: %s", strerror(errno));
    if (WIFSIGNALED(st))
        return pc_error_set(err, PC_EDEVICE, NULL, 0, "%s died from signal %d", argv[0],
                            WTERMSIG(st));
    if (WEXITSTATUS(st) != 0)
        return pc_error_set(err, PC_EDEVICE, NULL, 0,
                            "%s exited with status %d (its messages are above)", argv[0],
                            WEXITSTATUS(st));
    return PC_OK;
}

/* Reads the construction time (seconds=...) from the statistics line. */
static int read_seconds(const char *path, double *seconds, pc_error *err)
{
    unsigned char *d = NULL;
    size_t size = 0;
    int rc = pc_file_read_all(path, 4096, &d, &size, err);
    if (rc != PC_OK)
        return rc;
    const char *s = strstr((const char *)d, " seconds=");
    rc = s && sscanf(s + 9, "%lf", seconds) == 1
         ? PC_OK : pc_error_set(err, PC_EFORMAT, path, 1, "no seconds= in the statistics");
    pc_free(d);
    return rc;
}

/* Reads n little-endian int32 from path into SA (the size must match). */
static int read_sa(const char *path, int32_t n, int32_t *SA, pc_error *err)
{
    unsigned char *d = NULL;
    size_t size = 0;
    int rc = pc_file_read_all(path, (size_t)n * 4 + 1, &d, &size, err);
    if (rc != PC_OK)
        return rc;
    if (size != (size_t)n * 4)
        rc = pc_error_set(err, PC_EFORMAT, path, 0, "%zu bytes, expected %zu (4 per position)",
                          size, (size_t)n * 4);
    for (size_t i = 0; rc == PC_OK && i < (size_t)n; i++)
        SA[i] = (int32_t)((uint32_t)d[4 * i] | (uint32_t)d[4 * i + 1] << 8 |
                          (uint32_t)d[4 * i + 2] << 16 | (uint32_t)d[4 * i + 3] << 24);
    pc_free(d);
    return rc;
}
#endif /* PC_HAVE_MPI */

int sa_run_external(const sa_impl *impl, const char *path, int32_t n, int np,
                    int threads, int32_t *SA, double *seconds, pc_error *err)
{
    if (seconds)
        *seconds = 0;
#if !PC_HAVE_MPI
    (void)impl; (void)path; (void)n; (void)np; (void)threads; (void)SA;
    return pc_error_set(err, PC_EUNAVAIL, NULL, 0, "%s", PC_MPI_WHY);
#else
    char prog[PATH_MAX], mpirun[PATH_MAX];
    if (!find_prog(prog, sizeof prog))
        return pc_error_set(err, PC_EUNAVAIL, NULL, 0, SA_MPI_PROG " not found (make builds it "
                            "with mpicc; or set PARCHECK_SA_MPI)");
    if (!find_mpirun(mpirun, sizeof mpirun))
        return pc_error_set(err, PC_EUNAVAIL, NULL, 0, "no mpirun or mpiexec on PATH "
                            "(apt-get install openmpi-bin; or set PARCHECK_MPIRUN)");
    if (!impl)
        return PC_OK;
    if (np < 1 || threads < 1)
        return pc_error_set(err, PC_EINVAL, NULL, 0, "np %d, threads %d: both must be >= 1",
                            np, threads);
    const char *tmp = getenv("TMPDIR");
    char dir[PATH_MAX], sa_path[PATH_MAX + 16], st_path[PATH_MAX + 16], nps[16], thr[32];
    snprintf(dir, sizeof dir, "%s/pc-sa-mpi-XXXXXX", tmp && tmp[0] ? tmp : "/tmp");
    if (!mkdtemp(dir)) {
        /* mkdtemp has filled in the X's of a directory that does not exist:
         * the message names the template */
        int e = errno;
        snprintf(dir, sizeof dir, "%s/pc-sa-mpi-XXXXXX", tmp && tmp[0] ? tmp : "/tmp");
        return pc_error_set(err, PC_EIO, dir, 0, "cannot create a temporary directory: %s",
                            strerror(e));
    }
    snprintf(sa_path, sizeof sa_path, "%s/sa.bin", dir);
    snprintf(st_path, sizeof st_path, "%s/stats.txt", dir);
    snprintf(nps, sizeof nps, "%d", np);
    /* 8 arguments before the words, 10 after them, NULL */
    char *argv[SA_MPI_MAX_ARGS + 24];
    int a = 0;
    argv[a++] = mpirun;
    argv[a++] = "-np";
    argv[a++] = nps;
    if (is_open_mpi(mpirun)) {
        argv[a++] = "--oversubscribe";
        if (threads > 1) {
            argv[a++] = "--bind-to";
            argv[a++] = "none";
        }
        argv[a++] = "-x";
        argv[a++] = "OMP_NUM_THREADS";
    }
    /* extra launcher options, split on blanks (e.g. --mca btl self,vader);
     * more words than argv has room for are refused, never dropped */
    const char *words = getenv("PARCHECK_MPIRUN_ARGS");
    char *extra = words ? pc_strdup(words) : NULL;
    if (words && !extra) {
        rmdir(dir);
        return pc_error_nomem(err, "the launcher's words");
    }
    int nw = 0;
    for (char *save = NULL, *t = extra ? strtok_r(extra, " \t", &save) : NULL; t;
         t = strtok_r(NULL, " \t", &save)) {
        if (++nw > SA_MPI_MAX_ARGS) {
            pc_free(extra);
            rmdir(dir);
            return pc_error_set(err, PC_EINVAL, NULL, 0, "PARCHECK_MPIRUN_ARGS holds more than %d words",
                                SA_MPI_MAX_ARGS);
        }
        argv[a++] = t;
    }
    argv[a++] = prog;
    argv[a++] = (char *)path;
    argv[a++] = "--sa";
    argv[a++] = sa_path;
    argv[a++] = "--stats";
    argv[a++] = st_path;
    argv[a++] = "--no-lcp";
    argv[a++] = "--quiet";
    if (!strncmp(impl->name, "dc3", 3)) { /* dc3-mpi: DC3, or doubling where the probe says so */
        argv[a++] = "--algo";
        argv[a++] = "auto";
    }
    argv[a] = NULL;
    char **env = child_env(threads, thr, sizeof thr);
    int rc = env ? run_child(argv, env, err) : pc_error_nomem(err, "the MPI environment");
    pc_free(env);
    pc_free(extra);
    if (rc == PC_OK)
        rc = read_sa(sa_path, n, SA, err);
    if (rc == PC_OK && seconds)
        rc = read_seconds(st_path, seconds, err);
    unlink(sa_path);
    unlink(st_path);
    rmdir(dir);
    return rc;
#endif
}
