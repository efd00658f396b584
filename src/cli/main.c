/* parcheck: run parallel kernels against slow independent oracles. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "cli_plugins.h" /* cmd_list */
#include "pc_version.h"
#include "plugins.h"

/* The generators and the importer, shared by the top-level usage and the
 * usage of their groups. */
#define DAG_USAGE_LINES \
    "  parcheck dag import stg|wfcommons|dax FILE --procs P [--eta E] [--seed S] [--bandwidth B]\n" \
    "                [--time-scale U] -o F.dag\n"
#define GEN_USAGE_LINES \
    "  parcheck gen matrix --rows M --cols N --nnz Z --shape uniform|banded|powerlaw|denserows\n" \
    "                --seed S [--int] [--max-row L] -o F.mtx\n" \
    "  parcheck gen x --rows N --k K --seed S [--x real|int] -o X.npy|X.mtx\n" \
    "  parcheck gen text (--bytes B | --budget BYTES) --kind random|text|periodic|fibonacci|thuemorse|zeros|\n" \
    "                repeat|longperiod|dna --seed S [--train FILE...] [--block B] -o F\n" \
    "  parcheck gen dag --tasks V --out-degree B --alpha A --ccr C --eta E --procs P --seed S\n" \
    "                [--wdag W] -o F.dag\n" \
    DAG_USAGE_LINES

static void main_usage(FILE *f)
{
    fputs("usage:\n"
          "  parcheck list [--plugin LIB.so ...] [--timeout S] [--no-fork]\n"
          "  parcheck spmm MATRIX.mtx [--k K] [--impl LIST|all] [--reps R] [--threads T] [--seed S]\n"
          "                [--x real|int|auto] [--out-y Y.npy] [--json FILE|-]\n"
          "  parcheck sa FILE [--impl LIST|all] [--reps R] [--np N] [--threads T] [--json FILE|-]\n"
          "                [--out-sa F] [--out-lcp F]\n"
          "  parcheck pets GRAPH [--impl LIST|all] [--reps R] [--insertion|--append]\n"
          "                [--threads T] [--select gaps|linear]\n"
          "                [--cl-platform P] [--cl-device D] [--out-schedule F.csv|F.json] [--json FILE|-]\n"
          "                [--procs P [--eta E] [--seed S] [--bandwidth B] [--time-scale U]]\n"
          "                (GRAPH: .dag, or STG, WfCommons JSON or DAX XML imported with --procs)\n"
          "  parcheck spmm check MATRIX.mtx --y Y [--x X | --seed S [--k K] [--x-kind real|int]]\n"
          "                [--threads T] [--name N] [--json FILE|-]\n"
          "  parcheck sa check TEXT --sa F [--lcp F] [--width 32|64] [--name N] [--json FILE|-]\n"
          "  parcheck pets check GRAPH --schedule S.csv|S.json [--name N] [--json FILE|-]\n"
          GEN_USAGE_LINES
          "  parcheck bench stream [--mib M] [--threads LIST]\n"
          "  parcheck bench spmm [--shape S] [--rows M] [--per-row Z] [--max-row L] [--k LIST]\n"
          "                [--threads LIST] [--impl LIST] [--reps R] [--seed S]\n"
          "  parcheck --version | --help;  parcheck COMMAND --help for one command\n"
          "options of spmm, sa, pets, bench spmm (and list, the first three):\n"
          "  --plugin LIB.so (repeatable) adds a plugin's implementations (docs/README-plugins.md);\n"
          "  --timeout S (default 60) per plugin call; --no-fork runs plugins in-process\n"
          "  --progress / --quiet: progress on stderr on or off (default: on when stderr is a\n"
          "  terminal and the run lasts over a second; never on stdout)\n"
          "  --stress N (spmm, sa, pets): N more validated runs across thread counts and schedules\n"
          "limits shared by every command: --reps 1..1000, --threads 1..4096\n"
          "exit codes: 0 validated, 1 a validation failed, 2 bad usage or input, 3 requested implementation unavailable\n",
          f);
}

/* `parcheck gen --help` and `parcheck dag --help`: the group's commands. */
static int group_usage(const char *group)
{
    printf("usage:\n%s", !strcmp(group, "gen") ? GEN_USAGE_LINES : DAG_USAGE_LINES);
    printf("parcheck %s WHAT --help for one of them\n", group);
    return CLI_OK;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fputs("parcheck: no command given\nsee 'parcheck --help'\n", stderr);
        return CLI_USAGE;
    }
    const char *c = argv[1];
    if (cli_is_help(c) || !strcmp(c, "help")) {
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
        if (cli_is_help(what))
            return group_usage(c);
        char msg[300];
        snprintf(msg, sizeof msg, *what ? "unknown command '%s'" : "needs a command%s",
                 *what ? what : (!strcmp(c, "gen") ? " (matrix, x, text or dag)" : " (import)"));
        return cli_usage_error(c, msg);
    }
    fprintf(stderr, "parcheck: unknown command '%s'\n", c);
    fputs("see 'parcheck --help'\n", stderr);
    return CLI_USAGE;
}
