/* cmd_pets_check.c - `parcheck pets check`: being written (placeholder). */
#include "cli.h"

int cmd_pets_check(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return cli_usage_error("pets check", "not built yet");
}
