/* cmd_pets_check.c - `parcheck pets check`: judges a schedule another
 * program wrote (CSV task,proc,start,finish or the JSON of `parcheck pets
 * --out-schedule`) against the graph alone, with the located violations,
 * makespan, critical-path bound, SLR and the PETS makespans beside it.
 * The CLI only reads and prints: the rules are oracles/pets/pets_check.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pc_omp.h"

#include "cli.h"
#include "cli_pets_graph.h"
#include "pc_cli.h"
#include "pc_result.h"
#include "pc_time.h"
#include "pets.h"
#include "pets/pets_check.h"
#include "pets/pets_oracle.h"

static void pets_check_usage(FILE *f)
{
    fputs("usage: parcheck pets check GRAPH --schedule S.csv|S.json [--name N] [--json FILE|-]\n"
          "                           [--procs P [--eta E] [--seed S] [--bandwidth B] [--time-scale U]]\n"
          "Validates a schedule of GRAPH from the graph alone: every task exactly once on one\n"
          "of its processors, finish - start = its cost there, no two tasks overlapping on a\n"
          "processor, every edge's data ready (no communication on the same processor). Prints\n"
          "the first violations (rule, task, other, proc, start, finish), the makespan, the\n"
          "critical-path lower bound, SLR and the PETS makespans (insertion, append).\n"
          "S.csv: header task,proc,start,finish, ids 1-based as in GRAPH, times integer or\n"
          "decimal (at most 9 decimal places). S.json: as `parcheck pets --out-schedule F`.\n"
          "Exit 0 valid, 1 invalid, 2 a file that cannot be read as what it claims.\n",
          f);
    fputs(CLI_GRAPH_USAGE, f);
}

/* The options of one invocation. */
typedef struct check_args {
    const char *graph, *schedule, *name, *json;
    cli_graph_opts gopt;
} check_args;

static int parse_args(int argc, char **argv, check_args *a, int *help)
{
    pc_error err;
    pc_error_clear(&err);
    memset(a, 0, sizeof *a);
    cli_graph_opts_init(&a->gopt);
    *help = 0;
    for (int i = 1; i < argc; i++) {
        const char *v = NULL;
        int t;
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            *help = 1;
            return CLI_OK;
        }
        if ((t = cli_graph_take(&a->gopt, argc, argv, &i, &err)) == 1)
            continue;
        if (!t && (t = pc_cli_take(argc, argv, &i, "--schedule", &v, &err)) == 1)
            a->schedule = v;
        else if (!t && (t = pc_cli_take(argc, argv, &i, "--name", &v, &err)) == 1)
            a->name = v;
        else if (!t && (t = pc_cli_take(argc, argv, &i, "--json", &v, &err)) == 1)
            a->json = v;
        else if (t < 0)
            return cli_usage_error("pets check", err.msg);
        else if (argv[i][0] == '-' && argv[i][1]) {
            char msg[300];
            snprintf(msg, sizeof msg, "unknown option '%s'", argv[i]);
            return cli_usage_error("pets check", msg);
        } else if (a->graph)
            return cli_usage_error("pets check", "more than one graph given");
        else
            a->graph = argv[i];
    }
    if (!a->graph)
        return cli_usage_error("pets check", "no GRAPH given");
    if (!a->schedule)
        return cli_usage_error("pets check", "--schedule S.csv|S.json is required");
    return CLI_OK;
}

/* A time of the validator (units of 10^-decimals) as the metric or where
 * value: an integer when the file had no decimals. */
static void kv_time(pc_kvlist *l, const char *key, int64_t t, int decimals, int64_t unit)
{
    if (!decimals)
        pc_kv_int(l, key, t);
    else
        pc_kv_num(l, key, (double)t / (double)unit);
}

/* "5.3% above PETS insertion (76)": the user's makespan beside PETS's. */
static void versus(char *buf, size_t len, double mine, int64_t pets, const char *policy)
{
    if (pets <= 0) {
        snprintf(buf, len, "PETS %s %lld", policy, (long long)pets);
        return;
    }
    double pct = 100.0 * (mine - (double)pets) / (double)pets, mag = pct < 0 ? -pct : pct;
    const char *side = pct < 0 ? "below" : "above";
    if (mine == (double)pets)
        snprintf(buf, len, "equal to PETS %s (%lld)", policy, (long long)pets);
    else if (mag < 0.1) /* a small difference keeps two digits rather than showing 0.0% */
        snprintf(buf, len, "%.2g%% %s PETS %s (%lld)", mag, side, policy, (long long)pets);
    else
        snprintf(buf, len, "%.1f%% %s PETS %s (%lld)", mag, side, policy, (long long)pets);
}

/* Fills r from the report: metrics, verdict, where records and summary. */
static void fill_result(pc_result *r, const pets_check_report *rep, int decimals, int64_t unit)
{
    pc_kv_bool(&r->metrics, "valid", rep->valid);
    kv_time(&r->metrics, "makespan", rep->makespan, decimals, unit);
    kv_time(&r->metrics, "lower_bound", rep->lower_bound, decimals, unit);
    pc_kv_num(&r->metrics, "slr", rep->slr);
    pc_kv_int(&r->metrics, "pets_insertion_makespan", rep->pets_makespan[PETS_INSERTION]);
    pc_kv_int(&r->metrics, "pets_append_makespan", rep->pets_makespan[PETS_APPEND]);
    pc_kv_int(&r->metrics, "violations", rep->violations);
    if (rep->valid) {
        char ms[40], ins[96], app[96];
        double mine = (double)rep->makespan / (double)unit;
        versus(ins, sizeof ins, mine, rep->pets_makespan[PETS_INSERTION], "insertion");
        versus(app, sizeof app, mine, rep->pets_makespan[PETS_APPEND], "append");
        pc_result_status(r, PC_STATUS_PASS, "makespan %s: %s, %s; SLR %.3f",
                         pets_check_format_time(ms, sizeof ms, rep->makespan, decimals), ins, app,
                         rep->slr);
        return;
    }
    pc_result_status(r, PC_STATUS_FAIL, "invalid schedule: %s", rep->why);
    for (int k = 0; k < rep->nrecords; k++) {
        pc_kvlist *w = pc_result_where_add(r);
        if (!w)
            break;
        const pets_violation *x = &rep->record[k];
        pc_kv_str(w, "rule", pets_rule_name(x->rule));
        pc_kv_int(w, "task", x->task);
        pc_kv_int(w, "other", x->other);
        pc_kv_int(w, "proc", x->proc);
        kv_time(w, "start", x->start, decimals, unit);
        kv_time(w, "finish", x->finish, decimals, unit);
    }
    int len = snprintf(r->where_summary, sizeof r->where_summary, "%lld violation%s:",
                       (long long)rep->violations, rep->violations == 1 ? "" : "s");
    for (int k = 0; k < PETS_RULE_COUNT && len > 0 && (size_t)len < sizeof r->where_summary; k++)
        if (rep->count[k])
            len += snprintf(r->where_summary + len, sizeof r->where_summary - (size_t)len, " %s %lld",
                            pets_rule_name(k), (long long)rep->count[k]);
}

/* Reads the schedule for dag, scaling the graph's costs to the schedule's
 * decimals (*scaled then owns a copy). Prints why it cannot and returns
 * CLI_USAGE then; CLI_OK otherwise. */
static int load_schedule(const check_args *a, const pets_dag *dag, pets_dag *scaled,
                         pets_schedule *s, int64_t *unit)
{
    pc_error err;
    pc_error_clear(&err);
    if (pets_schedule_read(a->schedule, dag->ntasks, dag->nprocs, s, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return CLI_USAGE;
    }
    *unit = 1;
    for (int k = 0; k < s->decimals; k++)
        *unit *= 10;
    if (s->decimals && pets_dag_scale(scaled, dag, *unit, &err)) {
        fprintf(stderr, "%s: times with %d decimal places are checked in units of 10^-%d, and the "
                        "graph's costs in those units pass 2^40 (%s)\n",
                a->schedule, s->decimals, s->decimals, err.msg);
        return CLI_USAGE;
    }
    return CLI_OK;
}

/* The work after the graph is read, on two threads as it takes most of
 * the time at 2^19 tasks: one prepares what both PETS policies share
 * (levels, ranks, order) while the other reads the schedule and checks
 * the rules (on the file's exact units, so on the scaled graph when the
 * file has decimals); then each runs one policy's schedule (on the graph
 * as written). sec[] gets the seconds of reading the schedule, the rules,
 * the shared preparation, the insertion and the append schedules.
 * Returns CLI_OK, the schedule reader's CLI code (message printed), or
 * CLI_FAILED with err set. */
static int judge(const check_args *a, const pets_dag *dag, pets_dag *scaled, pets_schedule *s,
                 int64_t *unit, pets_check_report *rep, double sec[5], pc_error *err)
{
    int rc[4] = {PC_OK, PC_OK, PC_OK, PC_OK}; /* rules, prep, insertion, append */
    int code = CLI_OK;
    int64_t ms[2] = {-1, -1};
    pc_error e[4];
    pets_oracle_prep pr;
    memset(&pr, 0, sizeof pr);
    for (int k = 0; k < 4; k++)
        pc_error_clear(&e[k]);
#pragma omp parallel num_threads(2)
    {
        int me = omp_get_thread_num(), both = omp_get_num_threads() == 1;
        double t = pc_time_now();
        if (me == 0) {
            rc[1] = pets_oracle_prepare(dag, &pr, &e[1]);
            sec[2] = pc_time_now() - t;
        }
        if (me == 1 || both) {
            t = pc_time_now();
            code = load_schedule(a, dag, scaled, s, unit);
            sec[0] = pc_time_now() - t;
            t = pc_time_now();
            if (!code)
                rc[0] = pets_check_schedule(s->decimals ? scaled : dag, s->nrows, s->task, s->proc,
                                            s->start, s->finish, s->decimals, rep, &e[0]);
            sec[1] = pc_time_now() - t;
        }
#pragma omp barrier
        for (int policy = 0; policy < 2 && !rc[1] && !code; policy++)
            if (me == policy || both) {
                t = pc_time_now();
                rc[2 + policy] = pets_check_pets_schedule_makespan(dag, &pr, policy, &ms[policy],
                                                                   &e[2 + policy]);
                sec[3 + policy] = pc_time_now() - t;
            }
    }
    pets_oracle_prep_free(&pr);
    if (code)
        return code;
    for (int k = 0; k < 4; k++)
        if (rc[k]) {
            *err = e[k];
            return CLI_FAILED;
        }
    rep->pets_makespan[PETS_INSERTION] = ms[0];
    rep->pets_makespan[PETS_APPEND] = ms[1];
    return CLI_OK;
}

int cmd_pets_check(int argc, char **argv)
{
    check_args a;
    int help;
    int code = parse_args(argc, argv, &a, &help);
    if (help) {
        pets_check_usage(stdout);
        return CLI_OK;
    }
    if (code)
        return code;
    pets_dag dag, scaled;
    pets_schedule s;
    int64_t unit = 1;
    memset(&scaled, 0, sizeof scaled);
    memset(&s, 0, sizeof s);
    double t0 = pc_time_now();
    if ((code = cli_graph_read("pets check", a.graph, &a.gopt, &dag, NULL)))
        return code;
    double t1 = pc_time_now(), sec[5] = {0, 0, 0, 0, 0};
    pets_check_report rep;
    pc_error err;
    pc_error_clear(&err);
    if ((code = judge(&a, &dag, &scaled, &s, &unit, &rep, sec, &err))) {
        if (code == CLI_FAILED)
            fprintf(stderr, "parcheck pets check: %s\n", err.msg);
        goto out;
    }
    double t3 = pc_time_now();
    const char *base = strrchr(a.schedule, '/');
    pc_result res;
    pc_result_init(&res, a.name ? a.name : base ? base + 1 : a.schedule);
    fill_result(&res, &rep, s.decimals, unit);
    pc_kv_num(&res.timings, "read_s", t1 - t0 + sec[0]);
    pc_kv_num(&res.timings, "check_s", sec[1]);
    pc_kv_num(&res.timings, "pets_prepare_s", sec[2]);
    pc_kv_num(&res.timings, "pets_insertion_s", sec[3]);
    pc_kv_num(&res.timings, "pets_append_s", sec[4]);
    pc_run run = {.domain = "pets",
                  .oracle_name = "pets-check (schedule rules) + pets-oracle (PETS makespans)",
                  .oracle_seconds = t3 - t1, .nresults = 1, .results = &res};
    static const char *const cols[] = {"valid", "makespan", "lower_bound", "slr",
                                       "pets_insertion_makespan", "pets_append_makespan",
                                       "violations", NULL};
    run.table_metrics = cols;
    pc_kv_str(&run.input, "path", a.graph);
    pc_kv_str(&run.input, "schedule", a.schedule);
    pc_kv_str(&run.input, "format", s.json ? "json" : "csv");
    pc_kv_int(&run.input, "tasks", dag.ntasks);
    pc_kv_int(&run.input, "edges", dag.nedges);
    pc_kv_int(&run.input, "procs", dag.nprocs);
    pc_kv_int(&run.input, "rows", s.nrows);
    pc_kv_int(&run.input, "decimals", s.decimals);
    if (a.json && pc_run_save_json(a.json, &run, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        code = CLI_USAGE;
        goto out;
    }
    if (!a.json || strcmp(a.json, "-") != 0)
        pc_run_print_table(stdout, &run);
    code = rep.valid ? CLI_OK : CLI_FAILED;
out:
    pets_schedule_free(&s);
    pets_dag_free(&scaled);
    pets_dag_free(&dag);
    return code;
}
