/* plugin_paths.h - where a plugin suite finds its shared objects: the
 * test plugins tp_<variant>.so next to its executable and the examples in
 * $(BUILD)/examples (tests/plugin/module.mk builds both before the suite).
 * Call plugin_paths_init() first in main. */
#ifndef PLUGIN_PATHS_H
#define PLUGIN_PATHS_H

#include <stdio.h>
#include <string.h>
#include <unistd.h>

static char g_here[4096]; /* $(BUILD)/tests/plugin */

/* Finds the directory of this executable. */
static inline void plugin_paths_init(void)
{
    ssize_t n = readlink("/proc/self/exe", g_here, sizeof g_here - 1);
    g_here[n > 0 ? n : 0] = '\0';
    char *slash = strrchr(g_here, '/');
    if (slash)
        *slash = '\0';
}

/* g_here + printf(fmt, name), in one of 8 rotating buffers. */
static inline const char *plugin_path(const char *fmt, const char *name)
{
    static char buf[8][4200];
    static int next;
    char *b = buf[next++ % 8];
    int len = snprintf(b, sizeof buf[0], "%s", g_here);
    snprintf(b + len, sizeof buf[0] - (size_t)len, fmt, name);
    return b;
}

/* Path of test plugin tp_<v>.so. */
static inline const char *tp(const char *v)
{
    return plugin_path("/tp_%s.so", v);
}

/* Path of example <name>.so. */
static inline const char *example(const char *name)
{
    return plugin_path("/../../examples/%s.so", name);
}

#endif
