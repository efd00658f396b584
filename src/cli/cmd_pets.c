/* Placeholder until the PETS domain lands (issue 7). */
#include "cli.h"

int cmd_pets(int argc, char **argv) { (void)argc; (void)argv; return cli_usage_error("pets", "not in this build yet"); }
int cmd_gen_dag(int argc, char **argv) { (void)argc; (void)argv; return cli_usage_error("gen dag", "not in this build yet"); }
int cmd_dag_import(int argc, char **argv) { (void)argc; (void)argv; return cli_usage_error("dag import", "not in this build yet"); }
void cmd_pets_list(FILE *f) { fprintf(f, "  (PETS not in this build yet)\n"); }
