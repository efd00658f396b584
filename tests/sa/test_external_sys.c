/* test_external_sys.c - the MPI launcher (src/sa/sa_external.c) when the
 * system calls under it fail or answer as the standard allows but no
 * machine here does on its own: popen cannot start `mpirun --version`,
 * fork cannot make a process, waitpid loses the child, readlink leaves
 * bytes of its own after the path, the build's MPI program is gone and
 * only an installed one is left.
 *
 * The calls are defined in this executable, so the launcher's calls (and
 * libc's, and Check's) reach them before libc's. Each passes through to
 * the next definition (libc's, or a sanitizer's) unless a test has armed
 * it. Tests run in Check's forked children, so an armed call never
 * outlives its test. */
/* Ubuntu's gcc defines _FORTIFY_SOURCE, whose headers give readlink an
 * inline body that this file's own definition would clash with. */
#undef _FORTIFY_SOURCE
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <errno.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "pc_config.h"
#include "sa_cli_testlib.h"
#include "sa_testlib.h"

/* ---- the interposed calls -------------------------------------------------- */
static int g_popen_fails;   /* popen gives NULL (EMFILE) */
static int g_fork_fails;    /* fork gives -1 (EAGAIN) */
static int g_waitpid_loses; /* waitpid reaps the child, then says ECHILD */
static const char *g_exe;   /* what readlink("/proc/self/exe") answers */
static const char *g_gone;  /* a path that stat and access say does not exist */
static const char *g_there; /* a path that stat and access say is an executable file */

/* The next definition of name after this executable's (libc's, or the
 * sanitizer runtime's in front of it). */
static void *next_fn(const char *name)
{
    void *f = dlsym(RTLD_NEXT, name);
    if (!f)
        abort();
    return f;
}

FILE *popen(const char *cmd, const char *mode)
{
    if (g_popen_fails) {
        errno = EMFILE;
        return NULL;
    }
    FILE *(*real)(const char *, const char *);
    *(void **)&real = next_fn("popen");
    return real(cmd, mode);
}

pid_t fork(void)
{
    if (g_fork_fails) {
        errno = EAGAIN;
        return -1;
    }
    pid_t (*real)(void);
    *(void **)&real = next_fn("fork");
    return real();
}

pid_t waitpid(pid_t pid, int *status, int options)
{
    pid_t (*real)(pid_t, int *, int);
    *(void **)&real = next_fn("waitpid");
    pid_t r = real(pid, status, options);
    if (g_waitpid_loses && r > 0) {
        errno = ECHILD;
        return -1;
    }
    return r;
}

/* Armed: the path, then (where the buffer has room) bytes that are not
 * part of it, '/' among them, and a zero at the very end, as a readlink
 * that used the rest of the buffer may leave. readlink never terminates
 * what it writes; a caller that forgets to sees these bytes. */
ssize_t readlink(const char *restrict path, char *restrict buf, size_t len)
{
    if (g_exe && strcmp(path, "/proc/self/exe") == 0) {
        size_t n = strlen(g_exe) < len ? strlen(g_exe) : len;
        memcpy(buf, g_exe, n);
        for (size_t i = n; i < len; i++)
            buf[i] = i + 1 == len ? '\0' : (i % 2 ? '/' : 'j');
        return (ssize_t)n;
    }
    ssize_t (*real)(const char *, char *, size_t);
    *(void **)&real = next_fn("readlink");
    return real(path, buf, len);
}

/* A library built with _FORTIFY_SOURCE (Ubuntu's gcc sets it) calls this
 * for a readlink into a buffer of known size. */
ssize_t __readlink_chk(const char *path, char *buf, size_t len, size_t buflen);
ssize_t __readlink_chk(const char *path, char *buf, size_t len, size_t buflen)
{
    if (len > buflen)
        abort();
    return readlink(path, buf, len);
}

int stat(const char *restrict path, struct stat *restrict st)
{
    if (g_gone && strcmp(path, g_gone) == 0) {
        errno = ENOENT;
        return -1;
    }
    if (g_there && strcmp(path, g_there) == 0) {
        memset(st, 0, sizeof *st);
        st->st_mode = S_IFREG | 0755;
        st->st_size = 1;
        return 0;
    }
    int (*real)(const char *, struct stat *);
    *(void **)&real = next_fn("stat");
    return real(path, st);
}

int access(const char *path, int mode)
{
    if (g_gone && strcmp(path, g_gone) == 0) {
        errno = ENOENT;
        return -1;
    }
    if (g_there && strcmp(path, g_there) == 0)
        return 0;
    int (*real)(const char *, int);
    *(void **)&real = next_fn("access");
    return real(path, mode);
}

/* ---- a launcher that records its words ----------------------------------------- */
#if PC_HAVE_MPI
/* Writes sa_cli_dir/mpirun: with --version it says it is Open MPI; else it
 * writes each word it was given, one a line, to sa_cli_dir/words and exits
 * 3. PARCHECK_MPIRUN names it; PARCHECK_SA_MPI names sa_cli_dir/prog, an
 * executable the fake never runs (so that no test needs the build's MPI
 * program), unless lookup: then it is unset, as the tests of the
 * program's lookup need; PARCHECK_MPIRUN_ARGS is unset. */
static void fake_launcher(int lookup)
{
    char fake[256], words[256];
    snprintf(fake, sizeof fake, "%s", sa_cli_path("mpirun"));
    snprintf(words, sizeof words, "%s", sa_cli_path("words"));
    FILE *f = fopen(fake, "w");
    ck_assert_ptr_nonnull(f);
    fprintf(f, "#!/bin/sh\n"
               "[ \"$1\" = --version ] && { [ -n \"$PC_FAKE_BANNER\" ] && echo 'a wrapper, 2.0';\n"
               "  echo 'mpirun (Open MPI) 4.1.6'; exit 0; }\n"
               "for w in \"$@\"; do echo \"$w\"; done > '%s'\n"
               "exit 3\n", words);
    fclose(f);
    ck_assert_int_eq(chmod(fake, 0755), 0);
    setenv("PARCHECK_MPIRUN", fake, 1);
    unsetenv("PARCHECK_MPIRUN_ARGS");
    if (lookup) {
        unsetenv("PARCHECK_SA_MPI");
        return;
    }
    char prog[256];
    snprintf(prog, sizeof prog, "%s", sa_cli_path("prog"));
    f = fopen(prog, "w");
    ck_assert_ptr_nonnull(f);
    fputs("#!/bin/sh\nexit 9\n", f);
    fclose(f);
    ck_assert_int_eq(chmod(prog, 0755), 0);
    setenv("PARCHECK_SA_MPI", prog, 1);
}

/* The words the fake launcher was given, one a line ("" when it did not
 * run), in a static buffer. */
static const char *launcher_words(void)
{
    static char buf[8192];
    buf[0] = '\0';
    FILE *f = fopen(sa_cli_path("words"), "r");
    if (f) {
        size_t len = fread(buf, 1, sizeof buf - 1, f);
        buf[len] = '\0';
        fclose(f);
    }
    return buf;
}

/* sa_run_external of the "mpi" row on a 100-byte text (2 ranks, 1
 * thread); its status, the message in err. */
static int launch(pc_error *err)
{
    const sa_impl *mpi = sa_impl_find("mpi");
    ck_assert_ptr_nonnull(mpi);
    static int32_t SA[100];
    double secs = -1;
    FILE *f = fopen(sa_cli_path("t.bin"), "wb");
    ck_assert_ptr_nonnull(f);
    for (int i = 0; i < 100; i++)
        fputc('a' + i % 7, f);
    fclose(f);
    char path[256];
    snprintf(path, sizeof path, "%s", sa_cli_path("t.bin"));
    int rc = sa_run_external(mpi, path, 100, 2, 1, SA, &secs, err);
    ck_assert_msg(secs == 0, "a failed run gives a time: %g", secs);
    return rc;
}
#endif

#if !PC_HAVE_MPI
#define NEED_MPI() PC_SKIP("built without MPI: the launcher refuses before any system call")
#else
#define NEED_MPI() do { } while (0)
#endif

/* Without `mpirun --version` (popen fails), the launcher cannot know that
 * it is Open MPI and passes none of Open MPI's options; the run goes on. */
START_TEST(popen_failure_means_no_open_mpi_options)
{
    NEED_MPI();
#if PC_HAVE_MPI
    fake_launcher(0);
    pc_error err;
    g_popen_fails = 1;
    int rc = launch(&err);
    g_popen_fails = 0;
    ck_assert_int_eq(rc, PC_EDEVICE);
    const char *w = launcher_words();
    ck_assert_msg(strncmp(w, "-np\n2\n", 6) == 0 && !strstr(w, "--oversubscribe") && !strstr(w, "-x\n"),
                  "words: %s", w);
    /* the same launcher with popen working is Open MPI, also when its
     * name comes on a later line of --version (a wrapper's banner first) */
    ck_assert_int_eq(launch(&err), PC_EDEVICE);
    ck_assert_ptr_nonnull(strstr(launcher_words(), "-np\n2\n--oversubscribe\n-x\nOMP_NUM_THREADS\n"));
    setenv("PC_FAKE_BANNER", "1", 1);
    ck_assert_int_eq(launch(&err), PC_EDEVICE);
    unsetenv("PC_FAKE_BANNER");
    ck_assert_msg(strstr(launcher_words(), "-np\n2\n--oversubscribe\n-x\nOMP_NUM_THREADS\n"),
                  "Open MPI named on the second line: %s", launcher_words());
#endif
}
END_TEST

/* A process that cannot be made, a child that waitpid loses: each is a
 * named failure of the run, and the temporary directory is removed. */
START_TEST(fork_and_waitpid_failures_are_named)
{
    NEED_MPI();
#if PC_HAVE_MPI
    fake_launcher(0);
    setenv("TMPDIR", sa_cli_dir, 1);
    pc_error err;
    g_fork_fails = 1;
    int rc = launch(&err);
    g_fork_fails = 0;
    ck_assert_int_eq(rc, PC_EDEVICE);
    ck_assert_str_eq(err.msg, "fork: Resource temporarily unavailable");
    ck_assert_str_eq(launcher_words(), "");
    g_waitpid_loses = 1;
    rc = launch(&err);
    g_waitpid_loses = 0;
    ck_assert_int_eq(rc, PC_EDEVICE);
    ck_assert_str_eq(err.msg, "waitpid: No child processes");
    /* the launcher did run, and nothing of the run is left behind */
    ck_assert_ptr_nonnull(strstr(launcher_words(), "--sa\n"));
    char *out = NULL;
    ck_assert_int_eq(sa_cli_sh(&out, NULL, "ls -d pc-sa-mpi-* 2>/dev/null | wc -l"), 0);
    ck_assert_str_eq(out, "0\n");
    free(out);
    /* a temporary directory that cannot be made: named with its template */
    setenv("TMPDIR", "/nonexistent-parcheck-dir", 1);
    rc = launch(&err);
    ck_assert_int_eq(rc, PC_EIO);
    ck_assert_str_eq(err.msg, "/nonexistent-parcheck-dir/pc-sa-mpi-XXXXXX: cannot create a temporary "
                              "directory: No such file or directory");
#endif
}
END_TEST

/* The MPI program beside the running binary is found from the path
 * readlink gives, cut at its last '/': the bytes readlink leaves after the
 * path (here '/' among them) are not part of it. */
START_TEST(program_beside_binary_read_from_readlink)
{
    NEED_MPI();
#if PC_HAVE_MPI
    fake_launcher(1);
    ck_assert_int_eq(sa_cli_sh(NULL, NULL, "mkdir -p here && printf '#!/bin/sh\\nexit 9\\n' > "
                                           "here/parcheck-sa-mpi && chmod 755 here/parcheck-sa-mpi"), 0);
    char exe[256], prog[300];
    snprintf(exe, sizeof exe, "%s", sa_cli_path("here/parcheck"));
    snprintf(prog, sizeof prog, "%s", sa_cli_path("here/parcheck-sa-mpi"));
    pc_error err;
    g_exe = exe;
    int rc = launch(&err);
    g_exe = NULL;
    ck_assert_int_eq(rc, PC_EDEVICE);
    char want[320];
    snprintf(want, sizeof want, "\n%s\n", prog);
    ck_assert_msg(strstr(launcher_words(), want), "not %s: %s", prog, launcher_words());
#endif
}
END_TEST

/* Neither beside the binary nor in the build: the install directory
 * (PREFIX/bin) is the last place looked; none of the three: refused with
 * how to get the program. */
START_TEST(program_from_install_dir_last)
{
    NEED_MPI();
#if PC_HAVE_MPI
    fake_launcher(1);
    char exe[256];
    snprintf(exe, sizeof exe, "%s", sa_cli_path("elsewhere/parcheck"));
    static const char build[] = PC_BUILD_BINDIR "/parcheck-sa-mpi";
    static const char inst[] = PC_INSTALL_BINDIR "/parcheck-sa-mpi";
    pc_error err, none;
    g_exe = exe;
    g_gone = build;
    g_there = inst;
    int rc = launch(&err);
    g_there = NULL;
    int rc_none = launch(&none);
    g_exe = NULL;
    g_gone = NULL;
    ck_assert_int_eq(rc, PC_EDEVICE);
    char want[sizeof inst + 2];
    snprintf(want, sizeof want, "\n%s\n", inst);
    ck_assert_msg(strstr(launcher_words(), want), "not %s: %s", inst, launcher_words());
    ck_assert_int_eq(rc_none, PC_EUNAVAIL);
    ck_assert_str_eq(none.msg, "parcheck-sa-mpi not found (make builds it with mpicc; or set PARCHECK_SA_MPI)");
#endif
}
END_TEST

static Suite *suite_external_sys(void)
{
    Suite *s = suite_create("sa_external_sys");
    TCase *tc = pc_tcase("launcher");
    tcase_add_checked_fixture(tc, sa_cli_dir_make, sa_cli_dir_remove);
    tcase_add_test(tc, popen_failure_means_no_open_mpi_options);
    tcase_add_test(tc, fork_and_waitpid_failures_are_named);
    tcase_add_test(tc, program_beside_binary_read_from_readlink);
    tcase_add_test(tc, program_from_install_dir_last);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return pc_test_run(suite_external_sys()); }
