/* cmd_pets.c - `parcheck pets`, `parcheck gen dag`, `parcheck dag import`
 * and the PETS lines of `parcheck list`. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_progress.h"
#include "cli_pets_graph.h"
#include "check_fill.h"
#include "cli_plugins.h"
#include "cli_stress.h"
#include "pc_alloc.h"
#include "pc_cli.h"
#include "pc_result.h"
#include "pc_time.h"
#include "pets.h"
#include "pets/pets_check.h"
#include "pets/pets_oracle.h"


static void pets_usage(FILE *f)
{
    fputs("usage: parcheck pets GRAPH [--impl LIST|all] [--reps R] [--insertion|--append]\n"
          "                     [--threads T] [--select gaps|linear]\n"
          "                     [--cl-platform P] [--cl-device D] [--json FILE|-]\n"
          "                     [--out-schedule F.csv|F.json]\n"
          "                     [--plugin LIB.so ...] [--timeout S] [--no-fork] [--progress|--quiet]\n"
          "                     [--stress N]\n"
          "                     [--procs P [--eta E] [--seed S] [--bandwidth B] [--time-scale U]]\n"
          "       parcheck pets check GRAPH --schedule S.csv|S.json [--name N] [--json FILE|-]\n"
          "Computes levels, ranks, priority order and the EFT schedule of GRAPH with each\n"
          "implementation and compares them with the oracle; the schedule is validated.\n"
          "--out-schedule writes the schedule of the first implementation that ran (CSV\n"
          "task,proc,start,finish when F ends in .csv, else JSON), as `pets check` reads it.\n",
          f);
    fputs(CLI_GRAPH_USAGE, f);
    fputs("  --threads T         OpenMP threads of `omp`, and of the ready times in the\n"
          "                      selection of `ocl` / `ocl-vec8` (default: all cores)\n"
          "  --select gaps|linear  slot search of the insertion policy: the idle-gap index\n"
          "                      (default) or the seed's linear scan, kept to compare with\n",
          f);
    fputs(CLI_PLUGINS_USAGE, f);
    fputs(CLI_PROGRESS_USAGE, f);
    fputs(CLI_STRESS_USAGE, f);
    fputs("A plugin entry writes processors and start times: its schedule must equal the\n"
          "oracle's (schedule_equal) and is validated on its own (schedule_valid).\n",
          f);
    fputs("implementations:\n", f);
    cmd_pets_list(f);
    cli_list_end(f);
}

void cmd_pets_list(FILE *f)
{
    pets_options o = {PETS_INSERTION, -1, -1, 0, PETS_SELECT_GAPS};
    for (int i = 0; i < pets_nimpls; i++) {
        char why[256] = "";
        int ok = pets_impls[i].available(&o, why, sizeof why);
        cli_list_line(f, pets_impls[i].name, ok, why, pets_impls[i].desc);
    }
    static const char *fmts[] = {"stg", "wfcommons", "dax"};
    for (int i = 0; i < 3; i++) {
        char name[40];
        snprintf(name, sizeof name, "dag import %s", fmts[i]);
        cli_list_line(f, name, pets_import_available(fmts[i]),
                      i == 1 ? "built without jansson (apt-get install libjansson-dev)"
                             : "built without libxml2 (apt-get install libxml2-dev)",
                      i == 0 ? "Standard Task Graph Set" : i == 1 ? "WfCommons JSON" : "Pegasus DAX");
    }
    pets_ocl_list(f);
    pets_ocl_release();
}

static int sol_eq32(const int32_t *a, const int32_t *b, int32_t n)
{
    return memcmp(a, b, (size_t)n * sizeof *a) == 0;
}

static int sol_eq64(const int64_t *a, const int64_t *b, int32_t n)
{
    return memcmp(a, b, (size_t)n * sizeof *a) == 0;
}

/* Fills r's metrics from s against the oracle's ref and the validator. */
static void pets_judge(const pets_dag *dag, const pets_solution *ref, const pets_solution *s,
                       int64_t lb, pc_result *r)
{
    int32_t n = dag->ntasks;
    int lv = sol_eq32(ref->level, s->level, n);
    int rk = sol_eq64(ref->rank, s->rank, n) && sol_eq64(ref->rank_scaled, s->rank_scaled, n);
    int od = sol_eq32(ref->order, s->order, n);
    int sc = sol_eq32(ref->proc, s->proc, n) && sol_eq64(ref->start, s->start, n) &&
             sol_eq64(ref->finish, s->finish, n) && ref->makespan == s->makespan;
    pc_kv_bool(&r->metrics, "levels_equal", lv);
    pc_kv_bool(&r->metrics, "ranks_equal", rk);
    pc_kv_bool(&r->metrics, "order_equal", od);
    pc_kv_bool(&r->metrics, "schedule_equal", sc);
    pc_kv_int(&r->metrics, "makespan", s->makespan);
    pc_kv_int(&r->metrics, "lower_bound", lb);
    pc_kv_num(&r->metrics, "slr", lb > 0 ? (double)s->makespan / (double)lb : 1.0);
    pc_error err;
    pc_error_clear(&err);
    int64_t lb2;
    int valid = pets_oracle_validate(dag, s, &lb2, &err) == PC_OK;
    pc_kv_bool(&r->metrics, "schedule_valid", valid);
    if (lv && rk && od && sc && valid) {
        pc_result_status(r, PC_STATUS_PASS, "%s", "");
    } else if (!valid) {
        pc_result_status(r, PC_STATUS_FAIL, "invalid schedule: %s", err.msg);
    } else {
        pc_result_status(r, PC_STATUS_FAIL, "differs from the oracle:%s%s%s%s", lv ? "" : " levels",
                         rk ? "" : " ranks", od ? "" : " order", sc ? "" : " schedule");
    }
}

/* Where --out-schedule writes the first schedule that was computed. */
typedef struct pets_save {
    const char *path;    /* NULL: nothing to write */
    const char *graph;
    int policy;
    int done;            /* a schedule was written (or the write failed) */
    int rc;
    pc_error err;
} pets_save;

static void pets_run_impl(const pets_impl *im, const pets_dag *dag, const pets_options *o,
                          const pets_solution *ref, int64_t lb, int reps, pc_result *r, int *unavail,
                          pets_save *save)
{
    char why[PC_ERROR_MSG_MAX] = "";
    *unavail = 0;
    if (!im->available(o, why, sizeof why)) {
        pc_result_status(r, PC_STATUS_SKIPPED, "%s", why);
        *unavail = 1;
        return;
    }
    pets_solution s;
    pc_error err;
    pc_error_clear(&err);
    if (pets_solution_alloc(&s, dag->ntasks, &err)) {
        pc_result_status(r, PC_STATUS_ERROR, "%s", err.msg);
        return;
    }
    double *sec = pc_calloc((size_t)reps, sizeof *sec);
    double *ph = pc_calloc((size_t)reps * 7, sizeof *ph);
    if (!sec || !ph) {
        pc_result_status(r, PC_STATUS_ERROR, "out of memory");
        goto out;
    }
    pc_alloc_reset_peak();
    long long base = pc_alloc_bytes();
    int overlapped = 0;
    /* run -1 warms up (OpenCL compiles kernels at first launch) and is the
     * one judged; runs 0..reps-1 are timed */
    for (int k = -1; k < reps; k++) {
        cli_progress_rep(k + 1, reps);
        pets_times t;
        memset(&t, 0, sizeof t);
        int rc = im->run(dag, o, &s, &t, &err);
        if (rc == PC_EUNAVAIL) {
            pc_result_status(r, PC_STATUS_SKIPPED, "%s", err.msg);
            *unavail = 1;
            goto out;
        }
        if (rc) {
            pc_result_status(r, PC_STATUS_ERROR, "%s", err.msg);
            goto out;
        }
        if (k < 0) {
            cli_stress_note_output(s.proc, sizeof *s.proc * (size_t)dag->ntasks);
            cli_stress_note_output(s.start, sizeof *s.start * (size_t)dag->ntasks);
            cli_stress_note_output(s.rank_scaled, sizeof *s.rank_scaled * (size_t)dag->ntasks);
            pets_judge(dag, ref, &s, lb, r);
            if (save->path && !save->done) {
                save->rc = pets_schedule_write(save->path, dag, &s, save->graph, im->name, save->policy,
                                               &save->err);
                save->done = 1;
            }
            continue;
        }
        sec[k] = t.total;
        overlapped |= t.overlapped;
        double v[7] = {t.setup, t.h2d, t.entry, t.metrics, t.sort, t.d2h, t.select};
        for (int j = 0; j < 7; j++)
            ph[(size_t)j * reps + k] = v[j];
    }
    r->peak_bytes = pc_alloc_peak() - base;
    r->reps = reps;
    r->seconds = pc_time_median(sec, (size_t)reps);
    r->throughput = r->seconds > 0 ? dag->ntasks / r->seconds : 0;
    snprintf(r->unit, sizeof r->unit, "tasks/s");
    static const char *names[7] = {"setup_s", "h2d_s", "entry_s", "metrics_s", "sort_s", "d2h_s", "select_s"};
    for (int j = 0; j < 7; j++)
        pc_kv_num(&r->timings, names[j], pc_time_median(ph + (size_t)j * reps, (size_t)reps));
    pc_kv_num(&r->timings, "overlapped", overlapped);
out:
    pc_free(sec);
    pc_free(ph);
    pets_solution_free(&s);
}

/* Judges the schedule (proc, start) a plugin wrote: s receives it with the
 * finish times (a task on a processor outside the graph, or with a start
 * no schedule can have, gets finish = start: the validator names it); it
 * must equal the oracle's ref (schedule_equal) and pass the validator of
 * oracles/pets/pets_check.h (schedule_valid), whose violations are
 * located. Sets r's metrics and status (pass, fail or error). */
static void pets_judge_plugin(const pets_dag *dag, const pets_solution *ref, const int32_t *proc,
                              const int64_t *start, pets_solution *s, pc_result *r)
{
    int32_t n = dag->ntasks;
    s->makespan = 0;
    for (int32_t t = 0; t < n; t++) {
        s->order[t] = t;
        s->proc[t] = proc[t];
        s->start[t] = start[t];
        int placed = proc[t] >= 0 && proc[t] < dag->nprocs && start[t] >= -PETS_CHECK_MAX_TIME &&
                     start[t] <= PETS_CHECK_MAX_TIME;
        s->finish[t] = start[t] + (placed ? dag->cost[(int64_t)t * dag->nprocs + proc[t]] : 0);
        if (s->finish[t] > s->makespan)
            s->makespan = s->finish[t];
    }
    int eq = sol_eq32(ref->proc, s->proc, n) && sol_eq64(ref->start, s->start, n) &&
             sol_eq64(ref->finish, s->finish, n) && ref->makespan == s->makespan;
    pc_error err;
    pc_error_clear(&err);
    int64_t *rows = pc_malloc_array((size_t)n * 2 + 1, sizeof *rows); /* task ids, proc ids */
    if (!rows) {
        pc_result_status(r, PC_STATUS_ERROR, "out of memory while validating the schedule");
        return;
    }
    for (int32_t t = 0; t < n; t++) {
        rows[t] = t + 1;
        rows[n + t] = (int64_t)proc[t] + 1;
    }
    pets_check_report rep;
    int rc = pets_check_schedule(dag, n, rows, rows + n, s->start, s->finish, 0, &rep, &err);
    pc_free(rows);
    if (rc != PC_OK && rc != PC_ERANGE) {
        pc_result_status(r, PC_STATUS_ERROR, "%s", err.msg);
        return;
    }
    int valid = rc == PC_OK && rep.valid;
    pc_kv_bool(&r->metrics, "schedule_equal", eq);
    pc_kv_bool(&r->metrics, "schedule_valid", valid);
    pc_kv_int(&r->metrics, "makespan", s->makespan);
    if (rc == PC_OK) {
        pc_kv_int(&r->metrics, "lower_bound", rep.lower_bound);
        pc_kv_num(&r->metrics, "slr", rep.slr);
    }
    if (rc == PC_ERANGE) {
        pc_result_status(r, PC_STATUS_FAIL, "invalid schedule: %s", err.msg);
    } else if (!valid) {
        pc_result_status(r, PC_STATUS_FAIL, "invalid schedule: %s", rep.why);
        check_fill_pets_where(r, &rep);
    } else if (!eq) {
        pc_result_status(r, PC_STATUS_FAIL,
                         "differs from the oracle: schedule (a valid one, makespan %lld; the "
                         "oracle's %lld)",
                         (long long)s->makespan, (long long)ref->makespan);
    } else {
        pc_result_status(r, PC_STATUS_PASS, "%s", "");
    }
}

/* Runs plugin entry e in its worker on dag and judges its first run
 * (pets_judge_plugin); the last timed run must repeat it bit for bit (the
 * oracle's schedule is one, so PARCHECK_F_VARIES changes nothing). Writes
 * --out-schedule when no implementation did before. */
static void pets_run_plugin(const plugin_entry *e, const cli_plugins *cp, const pets_dag *dag,
                            int policy, const pets_solution *ref, int reps, pc_result *r,
                            int *unavail, pets_save *save)
{
    cli_plugin_result_init(r, e);
    plugin_opts po = cli_plugins_opts(cp, reps, pc_cli_default_threads());
    po.fill = UINT64_MAX; /* processor -1, start -1: never written is invalid */
    plugin_pets_in in = {.ntasks = dag->ntasks, .nprocs = dag->nprocs, .nedges = dag->nedges,
                         .policy = policy == PETS_APPEND ? PARCHECK_PETS_APPEND
                                                         : PARCHECK_PETS_INSERTION,
                         .cost = dag->cost, .succ_off = dag->succ_off, .succ = dag->succ,
                         .succ_comm = dag->succ_comm, .pred_off = dag->pred_off,
                         .pred = dag->pred, .pred_comm = dag->pred_comm};
    plugin_outcome out;
    pc_error err;
    pc_error_clear(&err);
    int rc = plugin_run_pets(e, &in, &po, &out, &err);
    if (cli_plugin_outcome(r, rc, &err, &out, unavail)) {
        cli_stress_note_output(out.first[0], sizeof(int32_t) * (size_t)dag->ntasks);
        cli_stress_note_output(out.first[1], sizeof(int64_t) * (size_t)dag->ntasks);
        r->throughput = r->seconds > 0 ? dag->ntasks / r->seconds : 0;
        snprintf(r->unit, sizeof r->unit, "tasks/s");
        pets_solution s;
        if (pets_solution_alloc(&s, dag->ntasks, &err)) {
            pc_result_status(r, PC_STATUS_ERROR, "%s", err.msg);
        } else {
            pets_judge_plugin(dag, ref, out.first[0], out.first[1], &s, r);
            if (r->status == PC_STATUS_PASS && !out.repeatable) {
                pc_kv_bool(&r->metrics, "bitwise_repeatable", 0);
                pc_result_status(r, PC_STATUS_FAIL, "result changed between repeated runs");
            }
            if (save->path && !save->done) {
                save->rc = pets_schedule_write(save->path, dag, &s, save->graph, e->name,
                                               save->policy, &save->err);
                save->done = 1;
            }
            pets_solution_free(&s);
        }
    }
    plugin_outcome_free(&out);
}

int cmd_pets(int argc, char **argv)
{
    const char *graph = NULL, *impl = "all", *json = NULL, *out_schedule = NULL;
    long long reps = 3, plat = -1, dev = -1, threads = 0;
    int progress = CLI_PROGRESS_AUTO;
    long long stress = 0;   /* --stress N: N more validated runs (cli_stress.h) */
    int policy = PETS_INSERTION, select = PETS_SELECT_GAPS;
    pc_error err;
    pc_error_clear(&err);
    cli_plugins cp;
    cli_plugins_init(&cp);
    cli_graph_opts gopt;
    cli_graph_opts_init(&gopt);
    for (int i = 1; i < argc; i++) {
        const char *v = NULL;
        int t;
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            pets_usage(stdout);
            return CLI_OK;
        }
        if ((t = cli_graph_take(&gopt, argc, argv, &i, &err)) != 0) {
            if (t < 0)
                return cli_usage_error("pets", err.msg);
            continue;
        }
        if ((t = cli_plugins_take(&cp, argc, argv, &i, &err)) != 0) {
            if (t < 0)
                return cli_usage_error("pets", err.msg);
            continue;
        }
        if (cli_progress_take(argv[i], &progress))
            continue;
        if ((t = cli_stress_take(argc, argv, &i, &stress, &err)) != 0) {
            if (t < 0)
                return cli_usage_error("pets", err.msg);
            continue;
        }
        if (!strcmp(argv[i], "--insertion")) {
            policy = PETS_INSERTION;
            continue;
        }
        if (!strcmp(argv[i], "--append")) {
            policy = PETS_APPEND;
            continue;
        }
        if ((t = pc_cli_take(argc, argv, &i, "--impl", &v, &err)) == 1) {
            impl = v;
            continue;
        }
        if (!t && (t = pc_cli_take(argc, argv, &i, "--json", &v, &err)) == 1) {
            json = v;
            continue;
        }
        if (!t && (t = pc_cli_take(argc, argv, &i, "--out-schedule", &v, &err)) == 1) {
            out_schedule = v;
            continue;
        }
        if (!t && (t = pc_cli_take(argc, argv, &i, "--reps", &v, &err)) == 1) {
            if (pc_cli_parse_long("--reps", v, 1, PC_CLI_MAX_REPS, &reps, &err))
                return cli_usage_error("pets", err.msg);
            continue;
        }
        if (!t && (t = pc_cli_take(argc, argv, &i, "--threads", &v, &err)) == 1) {
            if (pc_cli_parse_long("--threads", v, 1, 4096, &threads, &err))
                return cli_usage_error("pets", err.msg);
            continue;
        }
        if (!t && (t = pc_cli_take(argc, argv, &i, "--select", &v, &err)) == 1) {
            if (strcmp(v, "gaps") && strcmp(v, "linear"))
                return cli_usage_error("pets", "--select takes gaps or linear");
            select = strcmp(v, "linear") ? PETS_SELECT_GAPS : PETS_SELECT_LINEAR;
            continue;
        }
        if (!t && (t = pc_cli_take(argc, argv, &i, "--cl-platform", &v, &err)) == 1) {
            if (pc_cli_parse_long("--cl-platform", v, 0, 1000, &plat, &err))
                return cli_usage_error("pets", err.msg);
            continue;
        }
        if (!t && (t = pc_cli_take(argc, argv, &i, "--cl-device", &v, &err)) == 1) {
            if (pc_cli_parse_long("--cl-device", v, 0, 1000, &dev, &err))
                return cli_usage_error("pets", err.msg);
            continue;
        }
        if (t < 0)
            return cli_usage_error("pets", err.msg);
        if (argv[i][0] == '-' && argv[i][1]) {
            char msg[300];
            snprintf(msg, sizeof msg, "unknown option '%s'", argv[i]);
            return cli_usage_error("pets", msg);
        }
        if (graph)
            return cli_usage_error("pets", "more than one graph given");
        graph = argv[i];
    }
    if (!graph)
        return cli_usage_error("pets", "no GRAPH given");
    const char *names[16];
    for (int i = 0; i < pets_nimpls; i++)
        names[i] = pets_impls[i].name;
    cli_selection sel;
    int code = cli_plugins_setup(&cp, "pets", PARCHECK_DOMAIN_PETS, impl, names, pets_nimpls,
                                 threads ? (int)threads : pc_cli_default_threads(), &sel);
    if (code != CLI_OK)
        return code;

    pets_dag dag;
    cli_progress_start("pets", progress);
    cli_progress_set("reading %s", graph);
    if ((code = cli_graph_read("pets", graph, &gopt, &dag, NULL)) != CLI_OK) {
        cli_progress_stop();
        cli_selection_free(&sel);
        cli_plugins_free(&cp);
        return code;
    }
    if (!threads)
        threads = pc_cli_default_threads();
    pets_options o = {policy, (int)plat, (int)dev, (int)threads, select};
    pets_solution ref;
    pc_result *res = pc_calloc((size_t)sel.n + 1, sizeof *res);
    int nres = 0;
    if (!res || pets_solution_alloc(&ref, dag.ntasks, &err)) {
        fprintf(stderr, "parcheck pets: %s\n", res ? err.msg : "out of memory for the results");
        pc_free(res);
        pets_dag_free(&dag);
        cli_selection_free(&sel);
        cli_plugins_free(&cp);
        return CLI_FAILED;
    }
    double t0 = pc_time_now();
    cli_progress_set("the oracle (%d tasks)", (int)dag.ntasks);
    int rc = pets_oracle_solve(&dag, policy, &ref, &err);
    double oracle_s = pc_time_now() - t0;
    int64_t lb = 0;
    if (!rc)
        rc = pets_oracle_validate(&dag, &ref, &lb, &err);
    if (rc) {
        fprintf(stderr, "parcheck pets: oracle: %s\n", err.msg);
        code = CLI_FAILED;
        goto out;
    }
    int any_unavail = 0, nsel = 0;
    pets_save save = {out_schedule, graph, policy, 0, PC_OK, {0, ""}};
    pc_run run = {.domain = "pets", .oracle_name = "pets-oracle (adjacency lists, exact integers)",
                  .oracle_seconds = oracle_s, .results = res};
    static const char *const plain[] = {"levels_equal", "ranks_equal", "order_equal",
                                        "schedule_equal", "makespan", "lower_bound", "slr", NULL};
    static const char *const stressed[] = {"levels_equal", "ranks_equal", "order_equal",
                                           "schedule_equal", "makespan", "stress_failed",
                                           "stress_identical", NULL};
    const char *const *cols = stress ? stressed : plain;
    pc_result *scratch = stress ? pc_malloc(sizeof *scratch) : NULL;
    if (stress && !scratch)
        fprintf(stderr, "parcheck pets: out of memory: --stress runs left out\n");
    run.table_metrics = cols;
    pc_kv_str(&run.input, "path", graph);
    pc_kv_int(&run.input, "tasks", dag.ntasks);
    pc_kv_int(&run.input, "edges", dag.nedges);
    pc_kv_int(&run.input, "procs", dag.nprocs);
    pc_kv_str(&run.input, "policy", policy == PETS_INSERTION ? "insertion" : "append");
    pc_kv_int(&run.input, "oracle_makespan", ref.makespan);
    pc_kv_str(&run.input, "select", select == PETS_SELECT_LINEAR ? "linear" : "gaps");
    pc_kv_int(&run.input, "threads", threads);
    /* the table is printed row by row, its head before the first run */
    int table = !json || strcmp(json, "-") != 0;
    for (int i = 0; i < sel.n; i++)
        nsel += sel.sel[i];
    if (table) {
        cli_progress_clear();
        pc_run_print_head(stdout, &run);
    }
    for (int i = 0; i < sel.n; i++) {
        if (!sel.sel[i])
            continue;
        pc_result *r = &res[nres++];
        int unavail = 0;
        if (i < pets_nimpls) {
            cli_progress_impl(pets_impls[i].name, nres, nsel);
            pc_result_init(r, pets_impls[i].name);
            pets_run_impl(&pets_impls[i], &dag, &o, &ref, lb, (int)reps, r, &unavail, &save);
        } else {
            cli_progress_impl(sel.entry[i - pets_nimpls]->name, nres, nsel);
            pets_run_plugin(sel.entry[i - pets_nimpls], &cp, &dag, policy, &ref, (int)reps, r,
                            &unavail, &save);
        }
        if (unavail && sel.expl[i])
            any_unavail = 1;
        /* --stress: the same judgement again, one run each, across
         * thread counts and schedules */
        cli_stress st;
        cli_stress_begin(&st, unavail || !scratch ? 0 : (int)stress);
        for (int k = 0; k < st.runs; k++) {
            pets_options o2 = o;
            o2.threads = cli_stress_setup(&st, k);
            pets_save none = {NULL, graph, policy, 1, PC_OK, {0, ""}};
            int ignored = 0;
            if (i < pets_nimpls) {
                pc_result_init(scratch, pets_impls[i].name);
                pets_run_impl(&pets_impls[i], &dag, &o2, &ref, lb, 1, scratch, &ignored, &none);
            } else {
                pets_run_plugin(sel.entry[i - pets_nimpls], &cp, &dag, policy, &ref, 1, scratch,
                                &ignored, &none);
            }
            cli_stress_record(&st, scratch);
        }
        cli_stress_finish(&st, r);
        run.nresults = nres;
        if (table)
            cli_table_row(stdout, &run, r);
    }
    cli_progress_stop();
    pc_free(scratch);
    if (json) {
        if (pc_run_save_json(json, &run, &err)) {
            fprintf(stderr, "%s\n", err.msg);
            code = CLI_USAGE;
            goto out;
        }
    }
    if (table)
        pc_run_print_oracle(stdout, &run);
    code = pc_run_exit_code(&run) ? CLI_FAILED : any_unavail ? CLI_UNAVAILABLE : CLI_OK;
    if (out_schedule && save.rc) {
        fprintf(stderr, "%s\n", save.err.msg);
        code = CLI_USAGE;
    } else if (out_schedule && !save.done) {
        fprintf(stderr, "parcheck pets: --out-schedule %s: no implementation ran, nothing written\n",
                out_schedule);
        if (code == CLI_OK)
            code = CLI_UNAVAILABLE;
    }
out:
    pets_solution_free(&ref);
    pets_dag_free(&dag);
    pets_ocl_release();
    pc_free(res);
    cli_selection_free(&sel);
    cli_plugins_free(&cp);
    return code;
}

static void gen_dag_usage(FILE *f)
{
    fputs("usage: parcheck gen dag --tasks V --out-degree B --alpha A --ccr C --eta E --procs P\n"
          "                        --seed S [--wdag W] -o F.dag\n"
          "The PETS paper's random graphs: height mean sqrt(V)/A, level width mean A*sqrt(V),\n"
          "mean out-degree B, mean cost W (default 50), communication mean C*W,\n"
          "per-processor costs within W_i(1 -+ E/2).\n"
          "Each option but -o has a default: V 64, B 3, A 1, C 1, E 0.5, P 4, S 1.\n",
          f);
}

int cmd_gen_dag(int argc, char **argv)
{
    pets_gen_params gp;
    pets_gen_defaults(&gp);
    const char *out = NULL;
    pc_error err;
    pc_error_clear(&err);
    for (int i = 1; i < argc; i++) {
        const char *v = NULL;
        long long x;
        int t;
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            gen_dag_usage(stdout);
            return CLI_OK;
        }
        if ((t = pc_cli_take(argc, argv, &i, "--tasks", &v, &err)) == 1) {
            if (pc_cli_parse_long("--tasks", v, 1, PETS_MAX_TASKS, &x, &err))
                return cli_usage_error("gen dag", err.msg);
            gp.tasks = (int32_t)x;
        } else if (!t && (t = pc_cli_take(argc, argv, &i, "--out-degree", &v, &err)) == 1) {
            if (pc_cli_parse_double("--out-degree", v, 1, 64, &gp.out_degree, &err))
                return cli_usage_error("gen dag", err.msg);
        } else if (!t && (t = pc_cli_take(argc, argv, &i, "--alpha", &v, &err)) == 1) {
            if (pc_cli_parse_double("--alpha", v, 0.01, 100, &gp.alpha, &err))
                return cli_usage_error("gen dag", err.msg);
        } else if (!t && (t = pc_cli_take(argc, argv, &i, "--ccr", &v, &err)) == 1) {
            if (pc_cli_parse_double("--ccr", v, 0, 1000, &gp.ccr, &err))
                return cli_usage_error("gen dag", err.msg);
        } else if (!t && (t = pc_cli_take(argc, argv, &i, "--eta", &v, &err)) == 1) {
            if (pc_cli_parse_double("--eta", v, 0, 1.99, &gp.eta, &err))
                return cli_usage_error("gen dag", err.msg);
        } else if (!t && (t = pc_cli_take(argc, argv, &i, "--procs", &v, &err)) == 1) {
            if (pc_cli_parse_long("--procs", v, 1, PETS_MAX_PROCS, &x, &err))
                return cli_usage_error("gen dag", err.msg);
            gp.procs = (int32_t)x;
        } else if (!t && (t = pc_cli_take(argc, argv, &i, "--wdag", &v, &err)) == 1) {
            if (pc_cli_parse_long("--wdag", v, 1, 1000000, &x, &err))
                return cli_usage_error("gen dag", err.msg);
            gp.wdag = x;
        } else if (!t && (t = pc_cli_take(argc, argv, &i, "--seed", &v, &err)) == 1) {
            if (pc_cli_parse_long("--seed", v, 0, INT64_MAX, &x, &err))
                return cli_usage_error("gen dag", err.msg);
            gp.seed = (uint64_t)x;
        } else if (!t && (t = pc_cli_take(argc, argv, &i, "-o", &v, &err)) == 1) {
            out = v;
        } else if (t < 0) {
            return cli_usage_error("gen dag", err.msg);
        } else {
            char msg[300];
            snprintf(msg, sizeof msg, "unexpected argument '%s'", argv[i]);
            return cli_usage_error("gen dag", msg);
        }
    }
    if (!out)
        return cli_usage_error("gen dag", "-o F.dag is required");
    pets_dag dag;
    if (pets_gen_dag(&gp, &dag, &err)) {
        fprintf(stderr, "parcheck gen dag: %s\n", err.msg);
        return CLI_USAGE;
    }
    char comment[300];
    snprintf(comment, sizeof comment,
             "parcheck gen dag --tasks %ld --out-degree %g --alpha %g --ccr %g --eta %g --procs %ld --wdag %lld --seed %llu",
             (long)gp.tasks, gp.out_degree, gp.alpha, gp.ccr, gp.eta, (long)gp.procs,
             (long long)gp.wdag, (unsigned long long)gp.seed);
    int rc = pets_dag_write(out, &dag, comment, &err);
    if (rc)
        fprintf(stderr, "%s\n", err.msg);
    else
        printf("%s: %ld tasks, %ld edges, %ld processors\n", out, (long)dag.ntasks,
               (long)dag.nedges, (long)dag.nprocs);
    pets_dag_free(&dag);
    return rc ? CLI_USAGE : CLI_OK;
}

static void dag_import_usage(FILE *f)
{
    fputs("usage: parcheck dag import stg|wfcommons|dax FILE --procs P [--eta E] [--seed S]\n"
          "                            [--bandwidth B] [--time-scale U] -o F.dag\n"
          "Runtimes become mean costs (U cost units per second, default 1000), spread over P\n"
          "processors by eta (default 0: identical) and seed; communication costs are file\n"
          "bytes / B (bytes per second, default 125e6) in the same units. STG has none.\n",
          f);
}

int cmd_dag_import(int argc, char **argv)
{
    cli_graph_opts gopt;
    cli_graph_opts_init(&gopt);
    const char *fmt = NULL, *in = NULL, *out = NULL;
    pc_error err;
    pc_error_clear(&err);
    for (int i = 1; i < argc; i++) {
        const char *v = NULL;
        int t;
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            dag_import_usage(stdout);
            return CLI_OK;
        }
        if ((t = cli_graph_take(&gopt, argc, argv, &i, &err)) == 1) {
            continue;
        } else if (!t && (t = pc_cli_take(argc, argv, &i, "-o", &v, &err)) == 1) {
            out = v;
        } else if (t < 0) {
            return cli_usage_error("dag import", err.msg);
        } else if (argv[i][0] == '-' && argv[i][1]) {
            char msg[300];
            snprintf(msg, sizeof msg, "unknown option '%s'", argv[i]);
            return cli_usage_error("dag import", msg);
        } else if (!fmt) {
            fmt = argv[i];
        } else if (!in) {
            in = argv[i];
        } else {
            return cli_usage_error("dag import", "too many arguments");
        }
    }
    if (!fmt || !in)
        return cli_usage_error("dag import", "needs a format (stg, wfcommons, dax) and a FILE");
    if (!gopt.have_procs)
        return cli_usage_error("dag import", "--procs P is required");
    if (!out)
        return cli_usage_error("dag import", "-o F.dag is required");
    int (*imp)(const char *, const pets_import_params *, pets_dag *, pc_error *) = NULL;
    if (!strcmp(fmt, "stg"))
        imp = pets_import_stg;
    else if (!strcmp(fmt, "wfcommons"))
        imp = pets_import_wfcommons;
    else if (!strcmp(fmt, "dax"))
        imp = pets_import_dax;
    else
        return cli_usage_error("dag import", "format must be stg, wfcommons or dax");
    pets_dag dag;
    const pets_import_params *ip = &gopt.ip;
    int rc = imp(in, ip, &dag, &err);
    if (rc) {
        fprintf(stderr, "%s\n", err.msg);
        return rc == PC_EUNAVAIL ? CLI_UNAVAILABLE : CLI_USAGE;
    }
    char comment[600];
    snprintf(comment, sizeof comment,
             "parcheck dag import %s %s --procs %ld --eta %g --seed %llu --bandwidth %g --time-scale %g",
             fmt, in, (long)ip->procs, ip->eta, (unsigned long long)ip->seed, ip->bandwidth,
             ip->time_scale);
    rc = pets_dag_write(out, &dag, comment, &err);
    if (rc)
        fprintf(stderr, "%s\n", err.msg);
    else
        printf("%s: %ld tasks, %ld edges, %ld processors\n", out, (long)dag.ntasks,
               (long)dag.nedges, (long)dag.nprocs);
    pets_dag_free(&dag);
    return rc ? CLI_USAGE : CLI_OK;
}
