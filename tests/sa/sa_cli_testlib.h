/* sa_cli_testlib.h - what the suffix-array suites that run the parcheck
 * binary share: a scratch directory per test (make / remove: a Check
 * checked fixture) and command lines run inside it. */
#ifndef SA_CLI_TESTLIB_H
#define SA_CLI_TESTLIB_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "pc_test.h"

static char sa_cli_dir[64];

/* Fixture: a fresh directory under /tmp, and its removal. */
static inline void sa_cli_dir_make(void)
{
    snprintf(sa_cli_dir, sizeof sa_cli_dir, "/tmp/pc-sa-cli-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(sa_cli_dir));
}

static inline void sa_cli_dir_remove(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", sa_cli_dir);
    ck_assert_int_eq(system(cmd), 0);
}

/* sa_cli_dir/name, in a static buffer (one at a time). */
static inline const char *sa_cli_path(const char *name)
{
    static char p[256];
    snprintf(p, sizeof p, "%s/%s", sa_cli_dir, name);
    return p;
}

/* 1 when the parcheck binary exists; makes PARCHECK_BIN absolute, as the
 * command lines run in sa_cli_dir. */
static inline int sa_cli_have_bin(void)
{
    static char abs[4096];
    if (access(pc_test_bin(), X_OK) != 0)
        return 0;
    if (pc_test_bin()[0] != '/' && realpath(pc_test_bin(), abs))
        setenv("PARCHECK_BIN", abs, 1);
    return 1;
}

/* Runs prefix + the formatted line in sa_cli_dir with $P naming the
 * binary; output in *out / *err when not NULL (free them). Returns the
 * exit status (-1: could not run, or a signal). */
static inline int sa_cli_vsh(char **out, char **err, const char *prefix, const char *fmt,
                             va_list ap)
{
    char line[2048], cmd[4096];
    vsnprintf(line, sizeof line, fmt, ap);
    snprintf(cmd, sizeof cmd, "cd '%s' && P='%s' && %s%s", sa_cli_dir, pc_test_bin(), prefix,
             line);
    return pc_test_shell(cmd, out, err);
}

/* A shell line ("$P sa check t --sa t.sa && cmp a b"). */
static inline int sa_cli_sh(char **out, char **err, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static inline int sa_cli_sh(char **out, char **err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = sa_cli_vsh(out, err, "", fmt, ap);
    va_end(ap);
    return rc;
}

/* "parcheck ARGS". */
static inline int sa_cli_run(char **out, char **err, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static inline int sa_cli_run(char **out, char **err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = sa_cli_vsh(out, err, "\"$P\" ", fmt, ap);
    va_end(ap);
    return rc;
}

#endif
