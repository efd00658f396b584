/* parcheck: run parallel kernels against slow independent oracles. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "cli_plugins.h" /* cmd_list */
#include "pc_version.h"
#include "plugins.h"

static void main_usage(FILE *f)
{
    fputs("usage:\n"
          "  parcheck list [--plugin LIB.so ...]\n"
          "  parcheck spmm MATRIX.mtx [--k K] [--impl LIST|all] [--reps R] [--threads T] [--seed S] [--out-y Y.npy] [--json FILE|-]\n"
          "  parcheck sa FILE [--impl LIST|all] [--reps R] [--np N] [--threads T] [--json FILE|-] [--out-sa F] [--out-lcp F]\n"
          "  parcheck pets GRAPH.dag [--impl LIST|all] [--reps R] [--insertion|--append] [--cl-platform P] [--cl-device D] [--out-schedule F.csv|F.json] [--json FILE|-]\n"
          "  parcheck gen matrix --rows M --cols N --nnz Z --shape uniform|banded|powerlaw|denserows --seed S -o F.mtx\n"
          "  parcheck gen text --bytes B --kind random|text|periodic|fibonacci|thuemorse|zeros|repeat|longperiod|dna --seed S -o F [--block B]\n"
          "  parcheck gen dag --tasks V --out-degree B --alpha A --ccr C --eta E --procs P --seed S -o F.dag\n"
          "  parcheck dag import stg|wfcommons|dax FILE --procs P [--eta E] [--seed S] -o F.dag\n"
          "  parcheck gen x --rows N --k K --seed S [--x real|int] -o X.npy|X.mtx\n"
          "  parcheck spmm check MATRIX.mtx --y Y [--x X | --seed S [--k K] [--x-kind real|int]] [--threads T] [--name N] [--json FILE|-]\n"
          "  parcheck sa check TEXT --sa F [--lcp F] [--width 32|64] [--json FILE|-]\n"
          "  parcheck pets check GRAPH.dag --schedule S.csv|S.json [--name N] [--json FILE|-]\n"
          "  parcheck bench stream|spmm ...   timing sweeps as CSV (make bench)\n"
          "  --plugin LIB.so (repeatable) on spmm, sa, pets, bench spmm and list adds a plugin's\n"
          "  implementations (docs/README-plugins.md); --timeout S (default 60), --no-fork\n"
          "exit codes: 0 validated, 1 a validation failed, 2 bad usage or input, 3 requested implementation unavailable\n",
          f);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        main_usage(stderr);
        return CLI_USAGE;
    }
    const char *c = argv[1];
    if (!strcmp(c, "--help") || !strcmp(c, "-h") || !strcmp(c, "help")) {
        main_usage(stdout);
        return CLI_OK;
    }
    if (!strcmp(c, "--version")) {
        printf("parcheck %s\n", PC_VERSION);
        return CLI_OK;
    }
    if (!strcmp(c, "plugin-worker")) /* hidden: started by --plugin runs */
        return plugin_worker_main(argc - 1, argv + 1);
    if (!strcmp(c, "list"))
        return cmd_list(argc - 1, argv + 1);
    /* `parcheck DOMAIN check ...` judges files another program wrote. */
    int check = argc > 2 && !strcmp(argv[2], "check");
    if (!strcmp(c, "spmm"))
        return check ? cmd_spmm_check(argc - 2, argv + 2) : cmd_spmm(argc - 1, argv + 1);
    if (!strcmp(c, "sa"))
        return check ? cmd_sa_check(argc - 2, argv + 2) : cmd_sa(argc - 1, argv + 1);
    if (!strcmp(c, "bench"))
        return cmd_bench(argc - 1, argv + 1);
    if (!strcmp(c, "pets"))
        return check ? cmd_pets_check(argc - 2, argv + 2) : cmd_pets(argc - 1, argv + 1);
    if (!strcmp(c, "gen") || !strcmp(c, "dag")) {
        const char *what = argc > 2 ? argv[2] : "";
        if (!strcmp(c, "gen") && !strcmp(what, "matrix"))
            return cmd_gen_matrix(argc - 2, argv + 2);
        if (!strcmp(c, "gen") && !strcmp(what, "text"))
            return cmd_gen_text(argc - 2, argv + 2);
        if (!strcmp(c, "gen") && !strcmp(what, "x"))
            return cmd_gen_x(argc - 2, argv + 2);
        if (!strcmp(c, "gen") && !strcmp(what, "dag"))
            return cmd_gen_dag(argc - 2, argv + 2);
        if (!strcmp(c, "dag") && !strcmp(what, "import"))
            return cmd_dag_import(argc - 2, argv + 2);
        main_usage(stderr);
        return CLI_USAGE;
    }
    fprintf(stderr, "parcheck: unknown command '%s'\n", c);
    main_usage(stderr);
    return CLI_USAGE;
}
