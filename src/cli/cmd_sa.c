/* cmd_sa.c - `parcheck sa`, `parcheck gen text` and the sa lines of
 * `parcheck list`. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_progress.h"
#include "cli_plugins.h"
#include "cli_stress.h"
#include "pc_alloc.h"
#include "pc_cli.h"
#include "pc_file.h"
#include "pc_result.h"
#include "pc_time.h"
#include "sa.h"
#include "sa/sa_oracle.h"

#define SA_USAGE "usage: parcheck sa FILE [--impl LIST|all] [--reps R] [--np N] [--threads T] " \
                 "[--json FILE|-] [--out-sa F] [--out-lcp F]\n" \
                 "                   [--plugin LIB.so ...] [--timeout S] [--no-fork] [--progress|--quiet]\n" \
                 "                   [--stress N]\n"
#define GEN_USAGE "usage: parcheck gen text (--bytes B | --budget BYTES) " \
                  "--kind random|text|periodic|fibonacci|thuemorse|zeros|repeat|longperiod|dna " \
                  "--seed S -o F [--train FILE...] [--block B]\n" \
                  "  repeat: a block of random bytes (--block, default B/64) repeated; longperiod:\n" \
                  "  a random acgt period (--block, default 4-64 KiB) repeated; dna: acgt with\n" \
                  "  approximate copies of earlier stretches up to --block (default 64 KiB) long\n"
#define SA_MAX_IMPLS 16

void cmd_sa_list(FILE *f)
{
    int n;
    const sa_impl *t = sa_impls(&n);
    for (int i = 0; i < n; i++) {
        char why[PC_ERROR_MSG_MAX];
        int ok = t[i].available(why, sizeof why);
        cli_list_line(f, t[i].name, ok, why, t[i].desc);
    }
}

typedef struct sa_opts {
    const char *path, *impl, *json, *out_sa, *out_lcp;
    long long reps, np, threads;
    int progress;   /* CLI_PROGRESS_* */
    long long stress;       /* --stress N: N more validated runs (cli_stress.h) */
} sa_opts;

static int sa_parse(int argc, char **argv, sa_opts *o, cli_plugins *cp, int *help)
{
    pc_error err;
    pc_error_clear(&err);
    *o = (sa_opts){ .impl = "all", .reps = 1, .np = 2, .threads = pc_cli_default_threads() };
    *help = 0;
    for (int i = 1; i < argc; i++) {
        const char *v = NULL;
        int rc;
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            *help = 1;
            return PC_OK;
        }
        if ((rc = cli_plugins_take(cp, argc, argv, &i, &err)) != 0) {
            if (rc < 0) break;
        } else if (cli_progress_take(argv[i], &o->progress)) {
            continue;
        } else if ((rc = cli_stress_take(argc, argv, &i, &o->stress, &err)) != 0) {
            if (rc < 0) break;
        } else if ((rc = pc_cli_take(argc, argv, &i, "--impl", &v, &err)) != 0) {
            if (rc < 0) break;
            o->impl = v;
        } else if ((rc = pc_cli_take(argc, argv, &i, "--reps", &v, &err)) != 0) {
            if (rc < 0 || pc_cli_parse_long("--reps", v, 1, PC_CLI_MAX_REPS, &o->reps, &err)) break;
        } else if ((rc = pc_cli_take(argc, argv, &i, "--np", &v, &err)) != 0) {
            if (rc < 0 || pc_cli_parse_long("--np", v, 1, 4096, &o->np, &err)) break;
        } else if ((rc = pc_cli_take(argc, argv, &i, "--threads", &v, &err)) != 0) {
            if (rc < 0 || pc_cli_parse_long("--threads", v, 1, PC_CLI_MAX_THREADS, &o->threads, &err)) break;
        } else if ((rc = pc_cli_take(argc, argv, &i, "--json", &v, &err)) != 0) {
            if (rc < 0) break;
            o->json = v;
        } else if ((rc = pc_cli_take(argc, argv, &i, "--out-sa", &v, &err)) != 0) {
            if (rc < 0) break;
            o->out_sa = v;
        } else if ((rc = pc_cli_take(argc, argv, &i, "--out-lcp", &v, &err)) != 0) {
            if (rc < 0) break;
            o->out_lcp = v;
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            pc_error_set(&err, PC_EINVAL, NULL, 0, "unknown option '%s'", argv[i]);
            break;
        } else if (!o->path) {
            o->path = argv[i];
        } else {
            pc_error_set(&err, PC_EINVAL, NULL, 0, "more than one input file ('%s')", argv[i]);
            break;
        }
    }
    if (!err.code && !o->path)
        pc_error_set(&err, PC_EINVAL, NULL, 0, "no input FILE");
    if (err.code) {
        cli_usage_error("sa", err.msg);
        return err.code;
    }
    return PC_OK;
}

/* What the oracle and the cross-check need across implementations. */
typedef struct sa_ref {
    const uint8_t *T;
    int32_t n;
    int32_t *naive;       /* naive SA for small n, else NULL */
    int32_t *sa, *lcp;    /* arrays of the first implementation that passed */
    double oracle_s;
    int oracle_runs;
} sa_ref;

/* Builds once with impl (in-process or external), timing the construction. */
static int sa_build_once(const sa_impl *impl, const sa_opts *o, const uint8_t *T, int32_t n,
                         int32_t *SA, double *sec, pc_error *err)
{
    int threads = impl->threaded ? (int)o->threads : 1;
    if (!impl->build)
        return sa_run_external(impl, o->path, n, (int)o->np, threads, SA, sec, err);
    double t0 = pc_time_now();
    int rc = impl->build(T, n, SA, threads, err);
    *sec = pc_time_now() - t0;
    return rc;
}

/* Validates SA, LCP and LRS of one implementation; fills metrics. */
static int sa_validate(sa_ref *ref, pc_result *r, int32_t *SA, int32_t *LCP, pc_error *err)
{
    double t0 = pc_time_now();
    const uint8_t *T = ref->T;
    int32_t n = ref->n;
    int rc = sa_oracle_check_sa(T, n, SA, err);
    if (rc == PC_OK && ref->naive && memcmp(ref->naive, SA, sizeof(int32_t) * (size_t)n) != 0)
        rc = pc_error_set(err, PC_EVERIFY, NULL, 0, "SA differs from the naive suffix array");
    if (rc == PC_OK && ref->sa && memcmp(ref->sa, SA, sizeof(int32_t) * (size_t)n) != 0)
        rc = pc_error_set(err, PC_EVERIFY, NULL, 0, "SA differs from the first implementation's");
    int sa_ok = rc == PC_OK;
    int lcp_ok = 0;
    if (sa_ok) {
        rc = sa_oracle_check_lcp(T, n, SA, LCP, err);
        if (rc == PC_OK && ref->naive) {
            int32_t *nl = pc_malloc_array((size_t)n + 1, sizeof *nl);
            if (!nl)
                rc = pc_error_nomem(err, "the naive LCP");
            else {
                sa_oracle_naive_lcp(T, n, SA, nl);
                if (memcmp(nl, LCP, sizeof(int32_t) * (size_t)n) != 0)
                    rc = pc_error_set(err, PC_EVERIFY, NULL, 0, "LCP differs from the naive LCP");
                pc_free(nl);
            }
        }
        if (rc == PC_OK && ref->lcp && memcmp(ref->lcp, LCP, sizeof(int32_t) * (size_t)n) != 0)
            rc = pc_error_set(err, PC_EVERIFY, NULL, 0, "LCP differs from the first implementation's");
        lcp_ok = rc == PC_OK;
    }
    int32_t len = 0, pos = -1, pos2 = -1;
    sa_lrs(SA, LCP, n, &len, &pos, &pos2);
    if (lcp_ok)
        rc = sa_oracle_check_lrs(T, n, SA, LCP, len, pos, pos2, err);
    ref->oracle_s += pc_time_now() - t0;
    ref->oracle_runs++;
    pc_kv_bool(&r->metrics, "sa_equal", sa_ok);
    pc_kv_bool(&r->metrics, "lcp_equal", lcp_ok);
    pc_kv_int(&r->metrics, "lrs_length", len);
    pc_kv_int(&r->metrics, "lrs_pos", pos);
    return rc;
}

/* Runs one implementation reps times, checks the last result. Returns
 * PC_OK, PC_EUNAVAIL, PC_EVERIFY or another error (all recorded in r). */
static int sa_run_impl(const sa_impl *impl, const sa_opts *o, sa_ref *ref, pc_result *r,
                       int32_t **keep_sa, int32_t **keep_lcp)
{
    pc_error err;
    pc_error_clear(&err);
    char why[PC_ERROR_MSG_MAX];
    if (!impl->available(why, sizeof why)) {
        pc_result_status(r, PC_STATUS_SKIPPED, "%s", why);
        return PC_EUNAVAIL;
    }
    int32_t n = ref->n;
    long long other = pc_alloc_bytes() - n; /* live besides the text */
    pc_alloc_reset_peak();
    /* the LCP array comes after the construction, as in the memory model */
    double *times = pc_malloc_array((size_t)o->reps, sizeof *times);
    int32_t *SA = times ? pc_malloc_array((size_t)n + 1, sizeof *SA) : NULL;
    int32_t *LCP = NULL;
    int rc = SA ? PC_OK : pc_error_nomem(&err, "the suffix array");
    double lcp_s = 0;
    for (long long k = 0; k < o->reps && rc == PC_OK; k++) {
        cli_progress_rep(k + 1, o->reps);
        rc = sa_build_once(impl, o, ref->T, n, SA, &times[k], &err);
        if (rc == PC_OK && k == 0) {
            LCP = pc_malloc_array((size_t)n + 1, sizeof *LCP);
            if (!LCP) {
                rc = pc_error_nomem(&err, "the LCP array");
                break;
            }
            double t0 = pc_time_now();
            rc = sa_lcp_kasai(ref->T, SA, n, LCP, impl->threaded ? (int)o->threads : 1, &err);
            lcp_s = pc_time_now() - t0;
            r->peak_bytes = pc_alloc_peak() - other;
        }
    }
    if (rc == PC_OK) {
        r->reps = (int)o->reps;
        r->seconds = pc_time_median(times, (size_t)o->reps);
        r->throughput = r->seconds > 0 ? n / 1e6 / r->seconds : 0;
        snprintf(r->unit, sizeof r->unit, "MB/s");
        if (impl->model_bytes_per_n > 0)
            r->model_bytes = (long long)(impl->model_bytes_per_n * n) + 64 * 1024;
        pc_kv_num(&r->timings, "lcp_s", lcp_s);
        pc_kv_int(&r->timings, "threads", impl->threaded ? o->threads : 1);
        cli_stress_note_output(SA, sizeof *SA * (size_t)n);
        cli_stress_note_output(LCP, sizeof *LCP * (size_t)n);
        rc = sa_validate(ref, r, SA, LCP, &err);
    }
    if (rc == PC_OK) {
        pc_result_status(r, PC_STATUS_PASS, "%s", "");
        if (!ref->sa) {
            ref->sa = SA;
            ref->lcp = LCP;
            *keep_sa = SA;
            *keep_lcp = LCP;
            SA = LCP = NULL;
        }
    } else {
        pc_result_status(r, rc == PC_EVERIFY ? PC_STATUS_FAIL : PC_STATUS_ERROR, "%s", err.msg);
    }
    pc_free(SA);
    pc_free(LCP);
    pc_free(times);
    return rc;
}

/* A plugin's n-element output (int32, or int64 when wide) as a fresh
 * int32 array; a wide value outside int32 becomes -1, which no check
 * accepts as a position or a length. NULL when out of memory. */
static int32_t *sa_plugin_copy(const void *src, int wide, int32_t n)
{
    int32_t *a = pc_malloc_array((size_t)n + 1, sizeof *a);
    if (!a || n == 0)
        return a;
    if (!wide) {
        memcpy(a, src, sizeof *a * (size_t)n);
        return a;
    }
    const int64_t *w = src;
    for (int32_t i = 0; i < n; i++)
        a[i] = w[i] >= INT32_MIN && w[i] <= INT32_MAX ? (int32_t)w[i] : -1;
    return a;
}

/* Runs plugin entry e in its worker and judges its first run as
 * sa_run_impl judges a built-in (same checks, same cross-check with the
 * first implementation that passed); without PARCHECK_F_LCP the LCP is
 * Kasai's, computed here once the suffix array is known to be one.
 * Returns PC_EUNAVAIL when the entry was skipped, else as sa_run_impl. */
static int sa_run_plugin(const plugin_entry *e, const cli_plugins *cp, const sa_opts *o,
                         sa_ref *ref, pc_result *r, int32_t **keep_sa, int32_t **keep_lcp)
{
    cli_plugin_result_init(r, e);
    plugin_opts po = cli_plugins_opts(cp, (int)o->reps, (int)o->threads);
    po.fill = UINT64_MAX; /* -1 in every slot: never a position nor a length */
    plugin_sa_in in = {.text = ref->T, .n = ref->n};
    plugin_outcome out;
    pc_error err;
    pc_error_clear(&err);
    int skipped = 0;
    int rc = plugin_run_sa(e, &in, &po, &out, &err);
    if (!cli_plugin_outcome(r, rc, &err, &out, &skipped)) {
        plugin_outcome_free(&out);
        return skipped ? PC_EUNAVAIL : PC_EINVAL;
    }
    int32_t n = ref->n;
    int wide = (e->flags & PARCHECK_F_INT64) != 0;
    int32_t *SA = sa_plugin_copy(out.first[0], wide, n);
    int32_t *LCP = NULL;
    if (SA && (e->flags & PARCHECK_F_LCP))
        LCP = sa_plugin_copy(out.first[1], wide, n);
    else if (SA)
        LCP = pc_malloc_array((size_t)n + 1, sizeof *LCP);
    rc = SA && LCP ? PC_OK : pc_error_nomem(&err, "copying the plugin's suffix array");
    r->throughput = r->seconds > 0 ? n / 1e6 / r->seconds : 0;
    snprintf(r->unit, sizeof r->unit, "MB/s");
    pc_kv_int(&r->timings, "threads", o->threads);
    if (rc == PC_OK && !(e->flags & PARCHECK_F_LCP)) {
        /* Kasai indexes the text by SA: only a permutation may reach it */
        rc = sa_oracle_check_sa(ref->T, n, SA, &err);
        if (rc == PC_OK)
            rc = sa_lcp_kasai(ref->T, SA, n, LCP, (int)o->threads, &err);
        if (rc == PC_EVERIFY) {
            pc_kv_bool(&r->metrics, "sa_equal", 0);
            pc_kv_bool(&r->metrics, "lcp_equal", 0);
        }
    }
    if (rc == PC_OK) {
        cli_stress_note_output(SA, sizeof *SA * (size_t)n);
        cli_stress_note_output(LCP, sizeof *LCP * (size_t)n);
        rc = sa_validate(ref, r, SA, LCP, &err);
    }
    /* A suffix array and its LCP are unique, so two runs that differ cannot
     * both be right, PARCHECK_F_VARIES or not. */
    if (rc == PC_OK && !out.repeatable) {
        pc_kv_bool(&r->metrics, "bitwise_repeatable", 0);
        rc = pc_error_set(&err, PC_EVERIFY, NULL, 0, "result changed between repeated runs");
    }
    if (rc == PC_OK) {
        pc_result_status(r, PC_STATUS_PASS, "%s", "");
        if (!ref->sa) {
            ref->sa = *keep_sa = SA;
            ref->lcp = *keep_lcp = LCP;
            SA = LCP = NULL;
        }
    } else {
        pc_result_status(r, rc == PC_EVERIFY ? PC_STATUS_FAIL : PC_STATUS_ERROR, "%s", err.msg);
    }
    pc_free(SA);
    pc_free(LCP);
    plugin_outcome_free(&out);
    return rc;
}

int cmd_sa(int argc, char **argv)
{
    sa_opts o;
    cli_plugins cp;
    cli_plugins_init(&cp);
    int help;
    if (sa_parse(argc, argv, &o, &cp, &help) != PC_OK)
        return CLI_USAGE;
    if (help) {
        fputs(SA_USAGE, stdout);
        fputs(CLI_PLUGINS_USAGE, stdout);
        fputs(CLI_PROGRESS_USAGE, stdout);
        fputs(CLI_STRESS_USAGE, stdout);
        fputs("recommended: --impl sais (induced sorting: linear work on every input, repetitive\n"
              "texts included, 1 or --threads T); seq and omp are the seed's prefix doubling,\n"
              "whose rounds grow with the longest repeat\n", stdout);
        fputs("environment: PARCHECK_HUGEPAGES=0 leaves the pages to the kernel's default (blocks\n"
              "of 2 MiB and more are otherwise advised to take transparent huge pages)\n", stdout);
        fputs("implementations:\n", stdout);
        cmd_sa_list(stdout);
        cli_list_end(stdout);
        return CLI_OK;
    }
    int nimpl;
    const sa_impl *impls = sa_impls(&nimpl);
    const char *names[SA_MAX_IMPLS];
    for (int k = 0; k < nimpl; k++)
        names[k] = impls[k].name;
    cli_selection sel;
    int code = cli_plugins_setup(&cp, "sa", PARCHECK_DOMAIN_SA, o.impl, names, nimpl,
                                 (int)o.threads, &sel);
    if (code != CLI_OK)
        return code;
    pc_error err;
    pc_error_clear(&err);
    uint8_t *T = NULL;
    int32_t n = 0;
    /* The text, the suffix array and the builders' large arrays in huge
     * pages: the GPU machine's hosts give 4 KiB pages unless asked, and
     * faulting in the 256 MB suffix array of 64 MiB alone cost a first
     * run about 65 thousand faults of some 2 us. PARCHECK_HUGEPAGES=0
     * leaves the pages to the kernel's default. */
    const char *huge = getenv("PARCHECK_HUGEPAGES");
    pc_alloc_hugepages(!(huge && !strcmp(huge, "0")));
    cli_progress_start("sa", o.progress);
    cli_progress_set("reading %s", o.path);
    int rc = sa_read_text(o.path, &T, &n, &err);
    pc_result *results = rc == PC_OK ? pc_calloc((size_t)sel.n + 1, sizeof *results) : NULL;
    if (!results) {
        if (rc == PC_OK)
            pc_error_nomem(&err, "allocating the results");
        fprintf(stderr, "%s\n", err.msg);
        pc_free(T);
        cli_selection_free(&sel);
        cli_plugins_free(&cp);
        return rc == PC_OK || rc == PC_ENOMEM ? CLI_FAILED : CLI_USAGE;
    }
    sa_ref ref = { .T = T, .n = n };
    int exit_code = CLI_OK;
    if (n <= SA_ORACLE_NAIVE_MAX) {
        double t0 = pc_time_now();
        cli_progress_set("the naive oracle (%d bytes)", (int)n);
        ref.naive = pc_malloc_array((size_t)n + 1, sizeof *ref.naive);
        if (!ref.naive || sa_oracle_naive_sa(T, n, ref.naive, &err) != PC_OK) {
            fprintf(stderr, "parcheck sa: out of memory for the naive oracle\n");
            pc_free(ref.naive);
            pc_free(results);
            pc_free(T);
            cli_selection_free(&sel);
            cli_plugins_free(&cp);
            return CLI_FAILED;
        }
        ref.oracle_s += pc_time_now() - t0;
    }
    int32_t *keep_sa = NULL, *keep_lcp = NULL;
    int nres = 0, unavailable = 0, nsel = 0;
    static const char *const plain[] = { "sa_equal", "lcp_equal", "lrs_length", "lrs_pos", NULL };
    static const char *const stressed[] = { "sa_equal", "lcp_equal", "lrs_length", "lrs_pos",
                                            "stress_failed", "stress_identical", NULL };
    pc_run run = { .domain = "sa", .oracle_name = n <= SA_ORACLE_NAIVE_MAX && ref.naive
                       ? "naive qsort/memcmp SA and LCP + Burkhardt-Kaerkkaeinen + Phi LCP + memcmp LRS"
                       : "Burkhardt-Kaerkkaeinen + Phi LCP + memcmp LRS",
                   .results = results, .table_metrics = o.stress ? stressed : plain };
    pc_kv_str(&run.input, "path", o.path);
    pc_kv_int(&run.input, "bytes", n);
    for (int k = 0; k < sel.n; k++)
        nsel += sel.sel[k];
    pc_result *scratch = o.stress ? pc_malloc(sizeof *scratch) : NULL;
    if (o.stress && !scratch)
        fprintf(stderr, "parcheck sa: out of memory: --stress runs left out\n");
    /* the table is printed row by row, its head before the first run */
    if (!o.json) {
        cli_progress_clear();
        pc_run_print_head(stdout, &run);
    }
    for (int k = 0; k < sel.n; k++) {
        if (!sel.sel[k])
            continue;
        pc_result *r = &results[nres++];
        int irc;
        if (k < nimpl) {
            cli_progress_impl(impls[k].name, nres, nsel);
            pc_result_init(r, impls[k].name);
            irc = sa_run_impl(&impls[k], &o, &ref, r, &keep_sa, &keep_lcp);
        } else {
            cli_progress_impl(sel.entry[k - nimpl]->name, nres, nsel);
            irc = sa_run_plugin(sel.entry[k - nimpl], &cp, &o, &ref, r, &keep_sa, &keep_lcp);
        }
        if (irc == PC_EUNAVAIL && sel.expl[k])
            unavailable = 1;
        /* --stress: the same judgement again, one run each, across thread
         * counts and schedules */
        cli_stress st;
        cli_stress_begin(&st, irc == PC_EUNAVAIL || !scratch ? 0 : (int)o.stress);
        for (int s = 0; s < st.runs; s++) {
            sa_opts o2 = o;
            o2.threads = cli_stress_setup(&st, s);
            o2.reps = 1;
            if (k < nimpl) {
                pc_result_init(scratch, impls[k].name);
                sa_run_impl(&impls[k], &o2, &ref, scratch, &keep_sa, &keep_lcp);
            } else {
                sa_run_plugin(sel.entry[k - nimpl], &cp, &o2, &ref, scratch, &keep_sa, &keep_lcp);
            }
            cli_stress_record(&st, scratch);
        }
        cli_stress_finish(&st, r);
        run.nresults = nres;
        if (!o.json)
            cli_table_row(stdout, &run, r);
    }
    cli_progress_stop();
    pc_free(scratch);
    run.oracle_seconds = ref.oracle_runs ? ref.oracle_s / ref.oracle_runs : ref.oracle_s;
    if (o.json) {
        if (pc_run_save_json(o.json, &run, &err) != PC_OK) {
            fprintf(stderr, "%s\n", err.msg);
            exit_code = CLI_USAGE;
        }
    } else {
        pc_run_print_oracle(stdout, &run);
    }
    if (exit_code == CLI_OK) {
        exit_code = pc_run_exit_code(&run) ? CLI_FAILED : unavailable ? CLI_UNAVAILABLE : CLI_OK;
    }
    if ((o.out_sa || o.out_lcp) && !keep_sa) {
        fprintf(stderr, "parcheck sa: no implementation passed: --out-sa/--out-lcp not written\n");
        if (exit_code == CLI_OK)
            exit_code = CLI_FAILED;
    }
    if (keep_sa && o.out_sa && sa_write_int32(o.out_sa, keep_sa, n, &err) != PC_OK) {
        fprintf(stderr, "%s\n", err.msg);
        exit_code = CLI_USAGE;
    }
    if (keep_lcp && o.out_lcp && sa_write_int32(o.out_lcp, keep_lcp, n, &err) != PC_OK) {
        fprintf(stderr, "%s\n", err.msg);
        exit_code = CLI_USAGE;
    }
    pc_free(keep_sa);
    pc_free(keep_lcp);
    pc_free(ref.naive);
    pc_free(results);
    pc_free(T);
    cli_selection_free(&sel);
    cli_plugins_free(&cp);
    return exit_code;
}

/* Reads and concatenates the --train files. */
static int gen_load_train(char **files, int nfiles, uint8_t **out, size_t *size, pc_error *err)
{
    uint8_t *all = NULL;
    size_t total = 0;
    for (int i = 0; i < nfiles; i++) {
        unsigned char *d = NULL;
        size_t s = 0;
        int rc = pc_file_read_all(files[i], (size_t)1 << 30, &d, &s, err);
        if (rc != PC_OK) {
            pc_free(all);
            return rc;
        }
        uint8_t *grown = pc_realloc(all, total + s + 1);
        if (!grown) {
            pc_free(d);
            pc_free(all);
            return pc_error_nomem(err, "loading training text");
        }
        all = grown;
        memcpy(all + total, d, s);
        total += s;
        pc_free(d);
    }
    *out = all;
    *size = total;
    return PC_OK;
}

int cmd_gen_text(int argc, char **argv)
{
    pc_error err;
    pc_error_clear(&err);
    long long bytes = -1, budget = -1, seed = 1, block = 0;
    const char *kind_s = NULL, *out = NULL, *v = NULL;
    char *train[64];
    int ntrain = 0;
    for (int i = 1; i < argc && !err.code; i++) {
        int rc;
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            fputs(GEN_USAGE, stdout);
            return CLI_OK;
        }
        if ((rc = pc_cli_take(argc, argv, &i, "--bytes", &v, &err)) != 0) {
            if (rc > 0) pc_cli_parse_long("--bytes", v, 0, (long long)SA_MAX_N, &bytes, &err);
        } else if ((rc = pc_cli_take(argc, argv, &i, "--budget", &v, &err)) != 0) {
            if (rc > 0) pc_cli_parse_long("--budget", v, 0, (long long)SA_MAX_N * 21, &budget, &err);
        } else if ((rc = pc_cli_take(argc, argv, &i, "--kind", &v, &err)) != 0) {
            if (rc > 0) kind_s = v;
        } else if ((rc = pc_cli_take(argc, argv, &i, "--block", &v, &err)) != 0) {
            if (rc > 0) pc_cli_parse_long("--block", v, 1, (long long)SA_MAX_N, &block, &err);
        } else if ((rc = pc_cli_take(argc, argv, &i, "--seed", &v, &err)) != 0) {
            if (rc > 0) pc_cli_parse_long("--seed", v, 0, INT64_MAX, &seed, &err);
        } else if ((rc = pc_cli_take(argc, argv, &i, "-o", &v, &err)) != 0) {
            if (rc > 0) out = v;
        } else if ((rc = pc_cli_take(argc, argv, &i, "--train", &v, &err)) != 0) {
            if (rc > 0 && ntrain < 64) train[ntrain++] = (char *)v;
            else if (rc > 0) pc_error_set(&err, PC_EINVAL, NULL, 0, "at most 64 --train files");
        } else {
            pc_error_set(&err, PC_EINVAL, NULL, 0, "unknown argument '%s'", argv[i]);
        }
    }
    int kind = kind_s ? sa_gen_kind_parse(kind_s) : -1;
    if (!err.code && (bytes < 0) == (budget < 0))
        pc_error_set(&err, PC_EINVAL, NULL, 0, "give exactly one of --bytes and --budget");
    if (!err.code && kind < 0)
        pc_error_set(&err, PC_EINVAL, NULL, 0, "--kind: '%s' is not one of random text periodic "
                     "fibonacci thuemorse zeros repeat longperiod dna", kind_s ? kind_s : "");
    if (!err.code && !out)
        pc_error_set(&err, PC_EINVAL, NULL, 0, "no output file (-o F)");
    if (!err.code && block && kind != SA_GEN_REPEAT && kind != SA_GEN_LONGPERIOD && kind != SA_GEN_DNA)
        pc_error_set(&err, PC_EINVAL, NULL, 0, "--block applies to --kind repeat, longperiod and dna only");
    if (!err.code && ntrain && kind != SA_GEN_TEXT)
        pc_error_set(&err, PC_EINVAL, NULL, 0, "--train applies to --kind text only");
    if (err.code) {
        return cli_usage_error("gen text", err.msg);
    }
    /* the seed's sizing: a memory budget of 21 bytes per input byte */
    size_t n = (size_t)(bytes >= 0 ? bytes : budget / 21);
    uint8_t *tr = NULL, *buf = NULL;
    size_t ntr = 0;
    int rc = ntrain ? gen_load_train(train, ntrain, &tr, &ntr, &err) : PC_OK;
    if (rc == PC_OK) {
        buf = pc_malloc(n ? n : 1);
        rc = buf ? PC_OK : pc_error_nomem(&err, "the generated text");
    }
    if (rc == PC_OK)
        rc = sa_gen_text_block(kind, (uint64_t)seed, ntrain ? tr : NULL, ntr, (size_t)block, buf, n,
                               &err);
    if (rc == PC_OK)
        rc = pc_file_write_all(out, buf, n, &err);
    pc_free(buf);
    pc_free(tr);
    if (rc != PC_OK) {
        fprintf(stderr, "parcheck gen text: %s\n", err.msg);
        return rc == PC_ENOMEM ? CLI_FAILED : CLI_USAGE;
    }
    return CLI_OK;
}
