/* cmd_list.c - `parcheck list [--plugin LIB.so ...]`: what this build has,
 * what can run here, and the entries of the plugins given, each under its
 * domain. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "cli_plugins.h"
#include "pc_cli.h"
#include "pc_config.h"
#include "pc_version.h"
#include "pets.h"
#include "sa.h"
#include "spmm.h"

#define LIST_USAGE "usage: parcheck list [--plugin LIB.so ...] [--timeout S] [--no-fork]\n"

/* Every built-in name of every domain: a plugin entry may take none of
 * them, whatever its domain (plugin.h R8). names has room for max;
 * returns how many were stored. */
static int list_builtin_names(const char **names, int max)
{
    int n = 0, nsa;
    for (int k = 0; k < spmm_impl_count() && n < max; k++)
        names[n++] = spmm_impl_at(k)->name;
    const sa_impl *sa = sa_impls(&nsa);
    for (int k = 0; k < nsa && n < max; k++)
        names[n++] = sa[k].name;
    for (int k = 0; k < pets_nimpls && n < max; k++)
        names[n++] = pets_impls[k].name;
    return n;
}

int cmd_list(int argc, char **argv)
{
    cli_plugins cp;
    cli_plugins_init(&cp);
    pc_error err;
    pc_error_clear(&err);
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            fputs(LIST_USAGE, stdout);
            fputs(CLI_PLUGINS_USAGE, stdout);
            return CLI_OK;
        }
        int rc = cli_plugins_take(&cp, argc, argv, &i, &err);
        if (rc < 0)
            return cli_usage_error("list", err.msg);
        if (rc == 0) {
            char msg[300];
            snprintf(msg, sizeof msg, "unexpected argument '%s'", argv[i]);
            return cli_usage_error("list", msg);
        }
    }
    const char *names[128];
    int nnames = list_builtin_names(names, 128);
    if (cli_plugins_load(&cp, "list", names, nnames, pc_cli_default_threads()) != CLI_OK)
        return CLI_USAGE;
    printf("parcheck %s\n", PC_VERSION);
    printf("build: CUDA %s, OpenCL %s, MPI %s, divsufsort %s\n", PC_HAVE_CUDA ? "yes" : "no",
           PC_HAVE_OPENCL ? "yes" : "no", PC_HAVE_MPI ? "yes" : "no",
           PC_HAVE_DIVSUFSORT ? "yes" : "no");
    printf("spmm:\n");
    cmd_spmm_list(stdout);
    cli_plugins_list(stdout, &cp, PARCHECK_DOMAIN_SPMM);
    printf("sa:\n");
    cmd_sa_list(stdout);
    cli_plugins_list(stdout, &cp, PARCHECK_DOMAIN_SA);
    printf("pets:\n");
    cmd_pets_list(stdout);
    cli_plugins_list(stdout, &cp, PARCHECK_DOMAIN_PETS);
    cli_list_end(stdout);
    cli_plugins_free(&cp);
    return CLI_OK;
}
