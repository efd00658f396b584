/* replay.c - runs a fuzz target's LLVMFuzzerTestOneInput over corpus files
 * with the normal (gcc) build, so that `make check` replays every corpus
 * file as a regression test and AFL++ can drive the same target.
 *
 *   replay_<name> [-n] FILE|DIR...   one forked run per file (a trap in one
 *                                    file does not hide the others); prints
 *                                    "FAIL file (why)" and the SUMMARY line
 *                                    of ci/run-tests.sh. -n: no fork.
 *   replay_<name> -                  one input from stdin (AFL++ @@-less).
 * Built with AFL++ persistent mode (__AFL_FUZZ_TESTCASE_LEN defined by
 * afl-clang-fast), the binary instead loops over the inputs AFL++ gives it. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#ifdef __AFL_FUZZ_TESTCASE_LEN
__AFL_FUZZ_INIT();

int main(void)
{
    __AFL_INIT();
    unsigned char *buf = __AFL_FUZZ_TESTCASE_BUF;
    while (__AFL_LOOP(10000)) {
        size_t len = (size_t)__AFL_FUZZ_TESTCASE_LEN;
        /* a private copy, so that reading past len is caught by ASan */
        unsigned char *copy = malloc(len ? len : 1);
        if (!copy)
            abort();
        memcpy(copy, buf, len);
        LLVMFuzzerTestOneInput(copy, len);
        free(copy);
    }
    return 0;
}
#else

static long g_passed, g_failed;
static int g_nofork;

static int read_stream(FILE *f, unsigned char **data, size_t *size)
{
    size_t cap = 4096, n = 0;
    unsigned char *buf = malloc(cap);
    while (buf) {
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0)
            break;
        if (n == cap) {
            unsigned char *b = realloc(buf, cap *= 2);
            if (!b) {
                free(buf);
                buf = NULL;
            } else {
                buf = b;
            }
        }
    }
    if (!buf || ferror(f)) {
        free(buf);
        return -1;
    }
    *data = buf;
    *size = n;
    return 0;
}

/* Runs the target on one file in this process; exit status 0 when it returned. */
static int run_here(const char *path)
{
    FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
    if (!f) {
        fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
        return 2;
    }
    unsigned char *data = NULL;
    size_t size = 0;
    int rc = read_stream(f, &data, &size);
    if (f != stdin)
        fclose(f);
    if (rc) {
        fprintf(stderr, "replay: %s: read error\n", path);
        return 2;
    }
    /* An exact-size copy, so that reading past the end is caught. */
    unsigned char *copy = malloc(size ? size : 1);
    if (!copy)
        return 2;
    memcpy(copy, data, size);
    free(data);
    LLVMFuzzerTestOneInput(copy, size);
    free(copy);
    return 0;
}

static void replay_file(const char *path)
{
    int ok;
    char why[64] = "";
    if (g_nofork) {
        ok = run_here(path) == 0;
        if (!ok)
            snprintf(why, sizeof why, "cannot read");
    } else {
        fflush(NULL);
        pid_t pid = fork();
        if (pid < 0) {
            perror("replay: fork");
            exit(2);
        }
        if (pid == 0)
            _exit(run_here(path));
        int st = 0;
        while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
            ;
        ok = WIFEXITED(st) && WEXITSTATUS(st) == 0;
        if (WIFSIGNALED(st))
            snprintf(why, sizeof why, "signal %d", WTERMSIG(st));
        else if (!ok)
            snprintf(why, sizeof why, "exit %d", WEXITSTATUS(st));
    }
    if (ok) {
        g_passed++;
    } else {
        g_failed++;
        printf("FAIL %s (%s)\n", path, why);
    }
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void replay_path(const char *path)
{
    struct stat st;
    if (strcmp(path, "-") == 0 || (stat(path, &st) == 0 && !S_ISDIR(st.st_mode))) {
        replay_file(path);
        return;
    }
    DIR *d = opendir(path);
    if (!d) {
        printf("FAIL %s (%s)\n", path, strerror(errno));
        g_failed++;
        return;
    }
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        if (n == cap) {
            cap = cap ? 2 * cap : 64;
            char **nn = realloc(names, cap * sizeof *names);
            if (!nn)
                abort();
            names = nn;
        }
        size_t len = strlen(path) + strlen(e->d_name) + 2;
        names[n] = malloc(len);
        if (!names[n])
            abort();
        snprintf(names[n++], len, "%s/%s", path, e->d_name);
    }
    closedir(d);
    qsort(names, n, sizeof *names, by_name); /* same order everywhere */
    for (size_t i = 0; i < n; i++) {
        replay_path(names[i]);
        free(names[i]);
    }
    free(names);
}

int main(int argc, char **argv)
{
    int first = 1;
    if (argc > 1 && strcmp(argv[1], "-n") == 0) {
        g_nofork = 1;
        first = 2;
    }
    if (first >= argc) {
        fprintf(stderr, "usage: %s [-n] FILE|DIR... (or - for stdin)\n", argv[0]);
        return 2;
    }
    for (int i = first; i < argc; i++)
        replay_path(argv[i]);
    printf("SUMMARY passed=%ld failed=%ld skipped=0\n", g_passed, g_failed);
    return g_failed ? 1 : 0;
}
#endif
