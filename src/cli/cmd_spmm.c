/* Placeholder: replaced by the SpMM slice. */
#include "cli.h"

int cmd_spmm(int argc, char **argv) { (void)argc; (void)argv; return cli_usage_error("spmm", "not in this build yet"); }
int cmd_gen_matrix(int argc, char **argv) { (void)argc; (void)argv; return cli_usage_error("gen matrix", "not in this build yet"); }
void cmd_spmm_list(FILE *f) { fprintf(f, "  (SpMM not in this build yet)\n"); }
