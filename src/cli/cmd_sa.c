/* Placeholder until the suffix-array domain lands (issue 4). */
#include "cli.h"

int cmd_sa(int argc, char **argv) { (void)argc; (void)argv; return cli_usage_error("sa", "not in this build yet"); }
int cmd_gen_text(int argc, char **argv) { (void)argc; (void)argv; return cli_usage_error("gen text", "not in this build yet"); }
void cmd_sa_list(FILE *f) { fprintf(f, "  (suffix arrays not in this build yet)\n"); }
