#include "pc_cli.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include "pc_omp.h"
#endif

int pc_cli_take(int argc, char **argv, int *i, const char *opt,
                const char **val, pc_error *err)
{
    const char *a = argv[*i];
    size_t n = strlen(opt);
    if (strncmp(a, opt, n) != 0)
        return 0;
    if (a[n] == '=') {
        *val = a + n + 1;
        return 1;
    }
    if (a[n] != '\0')
        return 0;
    if (*i + 1 >= argc)
        return pc_error_set(err, PC_EINVAL, NULL, 0, "%s needs a value", opt);
    *val = argv[++*i];
    return 1;
}

int pc_cli_parse_long(const char *opt, const char *s, long long lo,
                      long long hi, long long *out, pc_error *err)
{
    char *end = NULL;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (!*s || *end || errno == ERANGE)
        return pc_error_set(err, PC_EINVAL, NULL, 0, "%s: '%s' is not a whole number", opt, s);
    if (v < lo || v > hi)
        return pc_error_set(err, PC_EINVAL, NULL, 0, "%s: %lld is outside [%lld, %lld]", opt, v, lo, hi);
    *out = v;
    return PC_OK;
}

int pc_cli_parse_double(const char *opt, const char *s, double lo, double hi,
                        double *out, pc_error *err)
{
    char *end = NULL;
    errno = 0;
    double v = strtod(s, &end);
    if (!*s || *end || errno == ERANGE || !isfinite(v))
        return pc_error_set(err, PC_EINVAL, NULL, 0, "%s: '%s' is not a finite number", opt, s);
    if (v < lo || v > hi)
        return pc_error_set(err, PC_EINVAL, NULL, 0, "%s: %g is outside [%g, %g]", opt, v, lo, hi);
    *out = v;
    return PC_OK;
}

int pc_cli_select(const char *list, const char *const *names, int n,
                  int *sel, int *explicit_sel, pc_error *err)
{
    for (int k = 0; k < n; k++)
        sel[k] = explicit_sel[k] = 0;
    const char *p = list;
    while (*p) {
        const char *q = strchr(p, ',');
        size_t len = q ? (size_t)(q - p) : strlen(p);
        int found = 0;
        if (len == 3 && strncmp(p, "all", 3) == 0) {
            for (int k = 0; k < n; k++)
                sel[k] = 1;
            found = 1;
        }
        for (int k = 0; k < n && !found; k++) {
            if (strlen(names[k]) == len && strncmp(p, names[k], len) == 0) {
                sel[k] = explicit_sel[k] = 1;
                found = 1;
            }
        }
        if (!found) {
            char known[1024] = "";
            for (int k = 0; k < n; k++) {
                strncat(known, names[k], sizeof known - strlen(known) - 2);
                strncat(known, " ", sizeof known - strlen(known) - 1);
            }
            return pc_error_set(err, PC_EINVAL, NULL, 0,
                                "--impl: unknown implementation '%.*s' (known: %sall)",
                                (int)len, p, known);
        }
        p += len;
        if (*p == ',')
            p++;
    }
    return PC_OK;
}

int pc_cli_default_threads(void)
{
#ifdef _OPENMP
    return omp_get_max_threads();
#else
    return 1;
#endif
}
