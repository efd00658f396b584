/* cmd_spmm_check.c - `parcheck spmm check`: being written (placeholder). */
#include "cli.h"

int cmd_spmm_check(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return cli_usage_error("spmm check", "not built yet");
}

int cmd_gen_x(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return cli_usage_error("gen x", "not built yet");
}
