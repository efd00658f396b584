#define _POSIX_C_SOURCE 200809L
#include "pc_test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pc_alloc.h"
#include "pc_error.h"

static char g_skip_log[256];

TCase *pc_tcase(const char *name)
{
    TCase *tc = tcase_create(name);
    tcase_set_timeout(tc, 600);
    return tc;
}

void pc_test_skip(const char *test, const char *reason)
{
    printf("SKIPPED %s: %s\n", test, reason);
    fflush(stdout);
    const char *log = getenv("PC_TEST_SKIP_LOG");
    if (log) {
        FILE *f = fopen(log, "a");
        if (f) {
            fprintf(f, "%s\t%s\n", test, reason);
            fclose(f);
        }
    }
}

static int count_lines(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    int n = 0, c;
    while ((c = fgetc(f)) != EOF)
        n += c == '\n';
    fclose(f);
    return n;
}

int pc_test_run(Suite *s)
{
    snprintf(g_skip_log, sizeof g_skip_log, "/tmp/pc-skip-XXXXXX");
    int fd = mkstemp(g_skip_log);
    if (fd >= 0)
        close(fd);
    setenv("PC_TEST_SKIP_LOG", g_skip_log, 1);

    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int total = srunner_ntests_run(sr);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    int skipped = count_lines(g_skip_log);
    unlink(g_skip_log);
    if (skipped > total - failed)
        skipped = total - failed;
    printf("SUMMARY passed=%d failed=%d skipped=%d\n", total - failed - skipped, failed, skipped);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

const char *pc_test_data_dir(void)
{
    static char dir[4096];
    const char *env = getenv("PARCHECK_DATA");
    snprintf(dir, sizeof dir, "%s", env && *env ? env : "../shared/data");
    struct stat st;
    return stat(dir, &st) == 0 && S_ISDIR(st.st_mode) ? dir : NULL;
}

int pc_test_light(void)
{
    const char *env = getenv("PARCHECK_TEST_LIGHT");
    return env && !strcmp(env, "1");
}

const char *pc_test_bin(void)
{
    const char *env = getenv("PARCHECK_BIN");
    return env && *env ? env : "build/bin/parcheck";
}

static char *slurp_fd(int fd)
{
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    ssize_t got;
    while (buf && (got = read(fd, buf + n, cap - n - 1)) > 0) {
        n += (size_t)got;
        if (cap - n < 2) {
            char *b = realloc(buf, cap *= 2);
            if (!b) { free(buf); return NULL; }
            buf = b;
        }
    }
    if (buf)
        buf[n] = '\0';
    return buf;
}

int pc_test_shell(const char *cmd, char **out, char **err)
{
    char errpath[] = "/tmp/pc-err-XXXXXX";
    int efd = mkstemp(errpath);
    if (efd < 0)
        return -1;
    size_t len = strlen(cmd) + strlen(errpath) + 16;
    char *full = malloc(len);
    snprintf(full, len, "(%s) 2>%s", cmd, errpath);
    FILE *p = popen(full, "r");
    free(full);
    if (!p) {
        close(efd);
        unlink(errpath);
        return -1;
    }
    char *o = slurp_fd(fileno(p));
    int st = pclose(p);
    char *e = slurp_fd(efd);
    close(efd);
    unlink(errpath);
    if (out) *out = o; else free(o);
    if (err) *err = e; else free(e);
    if (st == -1 || !WIFEXITED(st))
        return -1;
    return WEXITSTATUS(st);
}

long pc_test_alloc_loop(int (*op)(void *ctx), void (*cleanup)(void *ctx), void *ctx,
                        long max_n)
{
    long base = pc_alloc_live();
    for (long n = 1; n <= max_n; n++) {
        pc_alloc_fail_at(n);
        int rc = op(ctx);
        int injected = pc_alloc_injected();
        pc_alloc_fail_at(0);
        if (!injected) {
            ck_assert_msg(rc == PC_OK, "run without injected failure returned %d", rc);
            if (cleanup)
                cleanup(ctx);
            ck_assert_msg(pc_alloc_live() == base, "leak after success: %ld live", pc_alloc_live() - base);
            return n - 1;
        }
        if (rc == PC_OK && cleanup) /* the operation recovered by itself */
            cleanup(ctx);
        else
            ck_assert_msg(rc == PC_ENOMEM, "allocation %ld failed but the operation returned %d", n, rc);
        ck_assert_msg(pc_alloc_live() == base, "allocation %ld failed and %ld allocations leaked",
                      n, pc_alloc_live() - base);
    }
    ck_abort_msg("operation still allocating after %ld failures", max_n);
    return -1;
}

void pc_test_assert_nomem_named(const char *msg)
{
    static const char lead[] = "out of memory while ";
    ck_assert_msg(!strncmp(msg, lead, sizeof lead - 1) && strlen(msg) > sizeof lead - 1, "message '%s'", msg);
}
