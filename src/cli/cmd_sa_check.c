/* cmd_sa_check.c - `parcheck sa check`: being written (placeholder). */
#include "cli.h"

int cmd_sa_check(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return cli_usage_error("sa check", "not built yet");
}
