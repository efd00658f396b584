/* cli_util.c - the few helpers every parcheck subcommand prints with. */
#include <stdio.h>

#include "cli.h"

int cli_usage_error(const char *cmd, const char *msg)
{
    fprintf(stderr, "parcheck %s: %s\n", cmd, msg);
    return CLI_USAGE;
}

int cli_usage_fail(const char *cmd, const char *msg, const char *usage)
{
    cli_usage_error(cmd, msg);
    fputs(usage, stderr);
    return CLI_USAGE;
}

void cli_list_line(FILE *f, const char *name, int available, const char *why,
                   const char *desc)
{
    if (available)
        fprintf(f, "  %-28s available    %s\n", name, desc);
    else
        fprintf(f, "  %-28s unavailable  %s (%s)\n", name, desc, why);
}
