/* Plugins: the loader refuses every kind of bad shared object with one
 * clear message; every example and test plugin, run through the isolated
 * worker, gets the status it deserves (ran with correct outputs, error,
 * crashed with the signal and the place, timeout, skipped); --no-fork
 * gives the same outputs in this process.
 *
 * The test plugins (tp_<variant>.so) sit next to this executable and the
 * examples in $(BUILD)/examples: both are built by `make tests`. This
 * program is also the worker: its main dispatches `plugin-worker` the way
 * parcheck's does. */
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mm.h"
#include "pc_alloc.h"
#include "pc_test.h"
#include "pc_time.h"
#include "pets.h"
#include "pets/pets_oracle.h"
#include "plugin_paths.h"
#include "plugins.h"
#include "sa/sa_oracle.h"
#include "spmm/spmm_oracle.h"

static const char *const g_builtins[] = {"csr-serial", "csr-omp", "ell-omp"};

static plugin_opts opts(int reps, int no_fork)
{
    plugin_opts o;
    plugin_opts_default(&o);
    o.reps = reps;
    o.threads = 2;
    o.no_fork = no_fork;
    o.timeout_s = 30;
    return o;
}

/* Loads path into s and returns its only entry; fails the test otherwise. */
static const plugin_entry *load_one(plugin_set *s, const char *path, int no_fork)
{
    pc_error err;
    pc_error_clear(&err);
    plugin_opts o = opts(1, no_fork);
    int rc = plugin_set_load(s, path, g_builtins, 3, &o, &err);
    ck_assert_msg(rc == 0, "%s: %s", path, err.msg);
    ck_assert_int_eq(s->n, 1);
    return &s->entries[0];
}

/* ---- a small matrix with an empty row, integer values (exact sums) -------- */

enum { M = 7, N = 5, NNZ = 12, K = 3 };
/* row 3 is empty; row 6 holds every column */
static const int32_t g_irp[M + 1] = {0, 2, 3, 5, 5, 6, 7, 12};
static const int32_t g_ja[NNZ] = {0, 3, 1, 2, 4, 0, 2, 0, 1, 2, 3, 4};
static const double g_as[NNZ] = {2, -1, 3, 4, 5, -6, 7, 1, -2, 3, -4, 5};

static double g_X[N * K];
static double g_Yref[M * K];
static mm_coo g_coo;

static void matrix_setup(void)
{
    for (int i = 0; i < N * K; i++)
        g_X[i] = (double)((i * 7) % 11) - 5.0;
    for (int i = 0; i < M; i++)
        for (int k = 0; k < K; k++) {
            double s = 0.0;
            for (int j = g_irp[i]; j < g_irp[i + 1]; j++)
                s += g_as[j] * g_X[g_ja[j] * K + k];
            g_Yref[i * K + k] = s;
        }
    pc_error err;
    ck_assert_int_eq(mm_coo_alloc(&g_coo, M, N, NNZ, &err), 0);
    for (int i = 0; i < M; i++)
        for (int j = g_irp[i]; j < g_irp[i + 1]; j++) {
            g_coo.row[j] = i;
            g_coo.col[j] = g_ja[j];
            g_coo.val[j] = g_as[j];
        }
}

static void matrix_teardown(void)
{
    mm_coo_free(&g_coo);
}

static plugin_spmm_in csr_in(void)
{
    return (plugin_spmm_in){.m = M, .n = N, .K = K, .nnz = NNZ, .irp = g_irp, .ja = g_ja,
                            .as = g_as, .X = g_X};
}

/* Runs the SpMM plugin at path; fails the test if parcheck itself could not. */
static void run_spmm(const char *path, const plugin_spmm_in *in, plugin_opts o,
                     plugin_outcome *out)
{
    plugin_set s;
    plugin_set_init(&s);
    const plugin_entry *e = load_one(&s, path, o.no_fork);
    pc_error err;
    pc_error_clear(&err);
    int rc = plugin_run_spmm(e, in, &o, out, &err);
    plugin_set_free(&s);
    ck_assert_msg(rc == 0, "%s: %s", path, err.msg);
}

/* run_spmm, and the plugin must have run to the end (status PLUGIN_RAN). */
static void ran_spmm(const char *path, const plugin_spmm_in *in, plugin_opts o,
                     plugin_outcome *out)
{
    run_spmm(path, in, o, out);
    ck_assert_msg(out->status == PLUGIN_RAN, "%s: %s: %s", path, plugin_status_name(out->status),
                  out->reason);
}

static void assert_matches_oracle(const double *Y)
{
    pc_error err;
    spmm_oracle orc;
    ck_assert_int_eq(spmm_oracle_compute(&g_coo, g_X, K, &orc, &err), 0);
    spmm_verdict v;
    spmm_oracle_check(&orc, Y, &v);
    spmm_oracle_free(&orc);
    ck_assert_msg(v.pass, "%s", v.why);
    ck_assert_int_eq(v.checked, M * K);
}

/* ---- the loader ------------------------------------------------------------ */

typedef struct refusal {
    const char *variant;    /* tp_<variant>.so; NULL: the path below */
    const char *path;
    int code;
    const char *says;       /* part of the message */
} refusal;

static const refusal g_refusals[] = {
    {NULL, "/nonexistent/dir/plugin.so", PC_EIO, "No such file"},
    {NULL, "TEXTFILE", PC_EFORMAT, "not a shared object"},
    {"noinit", NULL, PC_EFORMAT, "exports no function parcheck_plugin_init"},
    {"abi2", NULL, PC_EFORMAT, "built for plugin ABI 2, but this parcheck loads ABI 1..1"},
    {"dup", NULL, PC_EFORMAT, "two entries are named 'tp-entry'"},
    {"nullrun", NULL, PC_EFORMAT, "entry 'tp-entry' has no run_spmm function (NULL)"},
    {"clash", NULL, PC_EFORMAT, "entry 'csr-omp' has the name of a built-in"},
    {"badname", NULL, PC_EFORMAT, "name 'has space' is not 1..47 characters"},
    {"small_entry", NULL, PC_EFORMAT, "entry 1 has struct_size 16, less than ABI 1's"},
    {"badflags", NULL, PC_EFORMAT, "has flags 0x8000 that this parcheck does not know"},
    {"nullentry", NULL, PC_EFORMAT, "entry 2 of 2 is NULL"},
    {"initfail", NULL, PC_EFORMAT, "parcheck_plugin_init failed (EIO): licence file missing"},
    {"initsegv", NULL, PC_EFORMAT, "crashed while parcheck loaded it: SIGSEGV"},
};

static void check_refusal(const refusal *r, int no_fork)
{
    char text[] = "/tmp/pc-plugin-text-XXXXXX";
    const char *path = r->variant ? tp(r->variant) : r->path;
    if (r->path && !strcmp(r->path, "TEXTFILE")) {
        int fd = mkstemp(text);
        ck_assert_int_ge(fd, 0);
        ck_assert_int_eq(write(fd, "not an ELF file\n", 16), 16);
        close(fd);
        path = text;
    }
    plugin_set s;
    plugin_set_init(&s);
    pc_error err;
    pc_error_clear(&err);
    plugin_opts o = opts(1, no_fork);
    int rc = plugin_set_load(&s, path, g_builtins, 3, &o, &err);
    if (path == text)
        unlink(text);
    ck_assert_msg(rc == r->code, "%s: code %d, expected %d (%s)", path, rc, r->code, err.msg);
    ck_assert_msg(strstr(err.msg, r->says), "%s: message '%s' lacks '%s'", path, err.msg, r->says);
    ck_assert_msg(!strncmp(err.msg, path, strlen(path)), "message '%s' does not start with the path",
                  err.msg);
    ck_assert_int_eq(s.n, 0);
    plugin_set_free(&s);
}

START_TEST(test_loader_refuses_bad_plugins)
{
    check_refusal(&g_refusals[_i], 0);
}
END_TEST

/* In-process loading refuses the same way (a crashing init would take the
 * process down, so that variant is left out). */
START_TEST(test_loader_refuses_bad_plugins_without_fork)
{
    if (g_refusals[_i].variant && !strcmp(g_refusals[_i].variant, "initsegv"))
        return;
    check_refusal(&g_refusals[_i], 1);
}
END_TEST

START_TEST(test_loader_refuses_a_name_loaded_twice)
{
    plugin_set s;
    plugin_set_init(&s);
    load_one(&s, tp("ok"), 0);
    pc_error err;
    plugin_opts o = opts(1, 0);
    ck_assert_int_eq(plugin_set_load(&s, tp("ok"), NULL, 0, &o, &err), PC_EFORMAT);
    ck_assert_msg(strstr(err.msg, "entry 'tp-entry' is already offered by"), "%s", err.msg);
    ck_assert_int_eq(s.n, 1);
    plugin_set_free(&s);
}
END_TEST

START_TEST(test_loader_times_out_a_hanging_init)
{
    plugin_set s;
    plugin_set_init(&s);
    plugin_opts o = opts(1, 0);
    o.timeout_s = 1.0;
    pc_error err;
    double t0 = pc_time_now();
    ck_assert_int_eq(plugin_set_load(&s, tp("inithang"), NULL, 0, &o, &err), PC_EFORMAT);
    ck_assert_msg(pc_time_now() - t0 < 6.0, "took %.1f s", pc_time_now() - t0);
    ck_assert_msg(strstr(err.msg, "hung while parcheck loaded it: no answer within 1 s while "
                                  "loading the plugin"),
                  "%s", err.msg);
    ck_assert_int_eq(s.n, 0);
    plugin_set_free(&s);
}
END_TEST

START_TEST(test_loader_describes_the_entry)
{
    plugin_set s;
    plugin_set_init(&s);
    const plugin_entry *e = load_one(&s, example("spmm_omp_ok"), 0);
    ck_assert_str_eq(e->name, "spmm-omp-ok");
    ck_assert_int_eq(e->domain, PARCHECK_DOMAIN_SPMM);
    ck_assert_uint_eq(e->flags, 0);
    ck_assert_int_eq(e->available, 1);
    ck_assert_ptr_nonnull(strstr(e->desc, "OpenMP CSR SpMM"));
    ck_assert_ptr_eq(plugin_set_find(&s, "spmm-omp-ok"), e);
    ck_assert_ptr_null(plugin_set_find(&s, "csr-omp"));
    plugin_set_free(&s);
}
END_TEST

static plugin_set g_alloc_set;

static int alloc_op(void *ctx)
{
    (void)ctx;
    plugin_set_init(&g_alloc_set);
    pc_error err;
    plugin_opts o = opts(1, 0);
    int rc = plugin_set_load(&g_alloc_set, example("spmm_omp_ok"), NULL, 0, &o, &err);
    if (rc)
        plugin_set_free(&g_alloc_set);
    return rc;
}

static void alloc_cleanup(void *ctx)
{
    (void)ctx;
    plugin_set_free(&g_alloc_set);
}

START_TEST(test_loader_survives_allocation_failures)
{
    ck_assert_int_ge(pc_test_alloc_loop(alloc_op, alloc_cleanup, NULL, 50), 1);
}
END_TEST

/* The ABI 1 layouts (LP64): a change here breaks every built plugin, so it
 * must come with a new PARCHECK_PLUGIN_ABI and fields appended only. */
START_TEST(test_abi1_layout_is_frozen)
{
    ck_assert_uint_eq(offsetof(parcheck_entry, struct_size), 8);
    ck_assert_uint_eq(offsetof(parcheck_entry, name), 16);
    ck_assert_uint_eq(offsetof(parcheck_entry, description), 24);
    ck_assert_uint_eq(offsetof(parcheck_entry, domain), 32);
    ck_assert_uint_eq(offsetof(parcheck_entry, flags), 36);
    ck_assert_uint_eq(offsetof(parcheck_entry, user), 40);
    ck_assert_uint_eq(offsetof(parcheck_entry, available), 48);
    ck_assert_uint_eq(offsetof(parcheck_entry, prepare), 56);
    ck_assert_uint_eq(offsetof(parcheck_entry, run_spmm), 64);
    ck_assert_uint_eq(offsetof(parcheck_entry, run_sa), 72);
    ck_assert_uint_eq(offsetof(parcheck_entry, run_pets), 80);
    ck_assert_uint_eq(offsetof(parcheck_entry, release), 88);
    ck_assert_uint_eq(sizeof(parcheck_entry), 96);
    ck_assert_uint_eq(sizeof(parcheck_plugin), 32);
    ck_assert_uint_eq(sizeof(parcheck_host), 48);
    ck_assert_uint_eq(offsetof(parcheck_spmm_problem, irp), 40);
    ck_assert_uint_eq(offsetof(parcheck_spmm_problem, Y), 88);
    ck_assert_uint_eq(sizeof(parcheck_spmm_problem), 96);
    ck_assert_uint_eq(offsetof(parcheck_sa_problem, text), 32);
    ck_assert_uint_eq(sizeof(parcheck_sa_problem), 56);
    ck_assert_uint_eq(offsetof(parcheck_pets_problem, cost), 40);
    ck_assert_uint_eq(sizeof(parcheck_pets_problem), 112);
}
END_TEST

/* ---- SpMM through the worker ------------------------------------------------ */

START_TEST(test_spmm_omp_ok_matches_naive_product_and_oracle)
{
    plugin_outcome out;
    plugin_spmm_in in = csr_in();
    ran_spmm(example("spmm_omp_ok"), &in, opts(3, 0), &out);
    ck_assert_int_eq(out.reps, 3);
    ck_assert_int_eq(out.repeatable, 1);
    ck_assert_uint_eq(out.bytes[0], sizeof g_Yref);
    /* same summation order as the naive product: bit for bit */
    ck_assert_int_eq(memcmp(out.first[0], g_Yref, sizeof g_Yref), 0);
    ck_assert_int_eq(memcmp(out.last[0], g_Yref, sizeof g_Yref), 0);
    assert_matches_oracle(out.first[0]);
    for (int r = 0; r < out.reps; r++)
        ck_assert(out.times[r] >= 0 && out.times[r] < 5);
    ck_assert(out.median_s >= 0 && out.first_s >= 0);
    plugin_outcome_free(&out);
}
END_TEST

START_TEST(test_no_fork_gives_the_same_outputs)
{
    plugin_spmm_in in = csr_in();
    plugin_outcome a, b;
    ran_spmm(example("spmm_omp_ok"), &in, opts(2, 0), &a);
    ran_spmm(example("spmm_omp_ok"), &in, opts(2, 1), &b);
    ck_assert_int_eq(memcmp(a.first[0], b.first[0], sizeof g_Yref), 0);
    ck_assert_int_eq(memcmp(a.last[0], b.last[0], sizeof g_Yref), 0);
    ck_assert_int_eq(b.reps, 2);
    plugin_outcome_free(&a);
    plugin_outcome_free(&b);
}
END_TEST

START_TEST(test_spmm_omp_race_runs_to_completion)
{
    plugin_spmm_in in = csr_in();
    plugin_outcome out;
    ran_spmm(example("spmm_omp_race"), &in, opts(3, 0), &out);
    /* Wrong or varying results are likely, not certain: only that it ran. */
    ck_assert_ptr_nonnull(out.first[0]);
    ck_assert_ptr_nonnull(out.last[0]);
    plugin_outcome_free(&out);
}
END_TEST

START_TEST(test_spmm_segv_crashes_on_the_empty_row)
{
    plugin_spmm_in in = csr_in();
    plugin_outcome out;
    run_spmm(example("spmm_segv"), &in, opts(3, 0), &out);
    ck_assert_int_eq(out.status, PLUGIN_CRASHED);
    ck_assert_int_eq(out.signal, SIGSEGV);
    ck_assert_msg(strstr(out.reason, "SIGSEGV in run 1 of 4") && strstr(out.reason, "NULL"),
                  "%s", out.reason);
    ck_assert_ptr_null(out.first[0]);
    plugin_outcome_free(&out);
}
END_TEST

/* tp_<variant> ends with the status and reason of the table. */
typedef struct fate {
    const char *variant;
    int status;
    const char *says;
} fate;

static const fate g_fates[] = {
    {"exit3", PLUGIN_CRASHED, "exited with status 3 in run 1 of 3"},
    {"abort", PLUGIN_CRASHED, "SIGABRT in run 1 of 3"},
    {"fail", PLUGIN_ERROR, "run 1 of 3 returned EUNSUP: K = 3 is not supported"},
    {"unavail", PLUGIN_SKIPPED, "no such device here"},
    {"past_end", PLUGIN_ERROR, "wrote outside output 'Y': 0 bytes changed in front of it, 8"},
    {"write_input", PLUGIN_CRASHED, "SIGSEGV in run 1 of 3: a write to input 'ja', which is read-only"},
    {"guard", PLUGIN_CRASHED, "SIGSEGV in run 1 of 3: past the end of output 'Y'"},
};

START_TEST(test_misbehaving_plugins_get_their_status)
{
    const fate *f = &g_fates[_i];
    plugin_spmm_in in = csr_in();
    plugin_outcome out;
    run_spmm(tp(f->variant), &in, opts(2, 0), &out);
    ck_assert_msg(out.status == f->status, "%s: %s (%s), expected %s", f->variant,
                  plugin_status_name(out.status), out.reason, plugin_status_name(f->status));
    ck_assert_msg(strstr(out.reason, f->says), "%s: '%s' lacks '%s'", f->variant, out.reason,
                  f->says);
    plugin_outcome_free(&out);
}
END_TEST

START_TEST(test_hang_times_out)
{
    plugin_spmm_in in = csr_in();
    plugin_opts o = opts(2, 0);
    o.timeout_s = 1.0;
    plugin_outcome out;
    double t0 = pc_time_now();
    run_spmm(tp("hang"), &in, o, &out);
    double took = pc_time_now() - t0;
    ck_assert_int_eq(out.status, PLUGIN_TIMEOUT);
    ck_assert_msg(strstr(out.reason, "no answer within 1 s in run 1 of 3"), "%s", out.reason);
    ck_assert_msg(took >= 1.0 && took < 6.0, "took %.2f s", took);
    plugin_outcome_free(&out);
}
END_TEST

START_TEST(test_unwritten_outputs_keep_the_fill)
{
    plugin_spmm_in in = csr_in();
    plugin_opts o = opts(1, 0);
    o.fill = 0x7ff4dead0000beefULL;
    plugin_outcome out;
    ran_spmm(tp("nowrite"), &in, o, &out);
    const uint64_t *y = out.first[0];
    for (int i = 0; i < M * K; i++)
        ck_assert_uint_eq(y[i], o.fill);
    plugin_outcome_free(&out);
}
END_TEST

START_TEST(test_ellpack_entry_reads_ellpack)
{
    /* the matrix above as padded ELLPACK, column-major slabs, width 5 */
    enum { W = 5 };
    int32_t rowlen[M], ja[M * W];
    double as[M * W];
    for (int i = 0; i < M; i++) {
        rowlen[i] = g_irp[i + 1] - g_irp[i];
        for (int t = 0; t < W; t++) {
            int has = t < rowlen[i];
            int last = rowlen[i] ? g_ja[g_irp[i + 1] - 1] : 0;
            ja[t * M + i] = has ? g_ja[g_irp[i] + t] : last;
            as[t * M + i] = has ? g_as[g_irp[i] + t] : 0.0;
        }
    }
    plugin_spmm_in in = {.m = M, .n = N, .K = K, .nnz = NNZ, .width = W, .ell_ja = ja,
                         .ell_as = as, .rowlen = rowlen, .X = g_X};
    plugin_outcome out;
    ran_spmm(tp("ell"), &in, opts(1, 0), &out);
    assert_matches_oracle(out.first[0]);
    plugin_outcome_free(&out);
}
END_TEST

START_TEST(test_fp32_entry_gets_floats)
{
    plugin_spmm_in in = csr_in();
    plugin_outcome out;
    ran_spmm(tp("fp32"), &in, opts(1, 0), &out);
    ck_assert_uint_eq(out.bytes[0], sizeof(float) * M * K);
    const float *y = out.first[0];
    /* small integers: exact in float too */
    for (int i = 0; i < M * K; i++)
        ck_assert_msg((double)y[i] == g_Yref[i], "y[%d] = %g, expected %g", i, (double)y[i],
                      g_Yref[i]);
    plugin_outcome_free(&out);
}
END_TEST

/* Device pointers: parcheck uploads A and X, times the call, downloads Y. */
START_TEST(test_spmm_cuda_runs_on_device_pointers)
{
    if (access(example("spmm_cuda"), R_OK) != 0)
        PC_SKIP("spmm_cuda.so not built (no nvcc)");
    plugin_set s;
    plugin_set_init(&s);
    const plugin_entry *e = load_one(&s, example("spmm_cuda"), 0);
    ck_assert_uint_eq(e->flags, PARCHECK_F_DEVICE);
    if (!e->available) {
        char why[300];
        snprintf(why, sizeof why, "spmm_cuda: %s", e->why);
        plugin_set_free(&s);
        PC_SKIP(why);
    }
    plugin_spmm_in in = csr_in();
    plugin_opts o = opts(3, 0);
    plugin_outcome out;
    pc_error err;
    ck_assert_int_eq(plugin_run_spmm(e, &in, &o, &out, &err), 0);
    ck_assert_msg(out.status == PLUGIN_RAN, "%s", out.reason);
    ck_assert_int_eq(out.repeatable, 1);
    ck_assert_int_eq(memcmp(out.first[0], g_Yref, sizeof g_Yref), 0);
    assert_matches_oracle(out.last[0]);
    plugin_outcome_free(&out);
    plugin_set_free(&s);
}
END_TEST

START_TEST(test_runner_refuses_missing_arrays)
{
    plugin_set s;
    plugin_set_init(&s);
    const plugin_entry *e = load_one(&s, tp("ok"), 0);
    plugin_spmm_in in = csr_in();
    in.irp = NULL;
    plugin_opts o = opts(1, 0);
    plugin_outcome out;
    pc_error err;
    ck_assert_int_eq(plugin_run_spmm(e, &in, &o, &out, &err), PC_EINVAL);
    ck_assert_msg(strstr(err.msg, "CSR arrays it reads are missing"), "%s", err.msg);
    plugin_sa_in sa = {.text = (const uint8_t *)"x", .n = 1};
    ck_assert_int_eq(plugin_run_sa(e, &sa, &o, &out, &err), PC_EINVAL);
    plugin_outcome_free(&out);
    plugin_set_free(&s);
}
END_TEST

/* ---- SA and PETS ------------------------------------------------------------ */

START_TEST(test_sa_divsufsort_matches_naive_suffix_array)
{
    if (access(example("sa_divsufsort"), R_OK) != 0)
        PC_SKIP("sa_divsufsort.so not built (libdivsufsort not installed)");
    plugin_set s;
    plugin_set_init(&s);
    const plugin_entry *e = load_one(&s, example("sa_divsufsort"), _i);
    uint8_t rnd[1000];
    for (int i = 0; i < 1000; i++)
        rnd[i] = (uint8_t)((i * 2654435761u) >> 29); /* 8 letters, NUL included */
    const struct { const uint8_t *t; int32_t n; } texts[] = {
        {(const uint8_t *)"", 0},          {(const uint8_t *)"a", 1},
        {(const uint8_t *)"banana", 6},    {(const uint8_t *)"aaaaaaaaaaaa", 12},
        {(const uint8_t *)"ab\0ab\0ab", 8}, {rnd, 1000},
    };
    for (size_t c = 0; c < sizeof texts / sizeof *texts; c++) {
        plugin_sa_in in = {.text = texts[c].t, .n = texts[c].n};
        plugin_opts o = opts(2, _i);
        plugin_outcome out;
        pc_error err;
        ck_assert_int_eq(plugin_run_sa(e, &in, &o, &out, &err), 0);
        ck_assert_msg(out.status == PLUGIN_RAN, "text %zu: %s", c, out.reason);
        ck_assert_ptr_null(out.first[1]); /* no LCP from this entry */
        int32_t *ref = pc_malloc_array((size_t)texts[c].n + 1, sizeof *ref);
        ck_assert_int_eq(sa_oracle_naive_sa(texts[c].t, texts[c].n, ref, &err), 0);
        ck_assert_msg(!memcmp(out.first[0], ref, sizeof *ref * (size_t)texts[c].n), "text %zu", c);
        ck_assert_int_eq(out.repeatable, 1);
        pc_free(ref);
        plugin_outcome_free(&out);
    }
    plugin_set_free(&s);
}
END_TEST

START_TEST(test_pets_naive_schedule_is_valid)
{
    plugin_set s;
    plugin_set_init(&s);
    const plugin_entry *e = load_one(&s, example("pets_naive"), _i);
    pc_error err;
    pets_gen_params gp;
    pets_gen_defaults(&gp);
    gp.tasks = 200;
    gp.seed = 7;
    pets_dag dag;
    ck_assert_int_eq(pets_gen_dag(&gp, &dag, &err), 0);
    plugin_pets_in in = {.ntasks = dag.ntasks, .nprocs = dag.nprocs, .nedges = dag.nedges,
                         .policy = PARCHECK_PETS_INSERTION, .cost = dag.cost,
                         .succ_off = dag.succ_off, .succ = dag.succ, .succ_comm = dag.succ_comm,
                         .pred_off = dag.pred_off, .pred = dag.pred, .pred_comm = dag.pred_comm};
    plugin_opts o = opts(2, _i);
    plugin_outcome out;
    ck_assert_int_eq(plugin_run_pets(e, &in, &o, &out, &err), 0);
    ck_assert_msg(out.status == PLUGIN_RAN, "%s", out.reason);
    ck_assert_int_eq(out.repeatable, 1);
    pets_solution sol;
    ck_assert_int_eq(pets_solution_alloc(&sol, dag.ntasks, &err), 0);
    const int32_t *proc = out.first[0];
    const int64_t *start = out.first[1];
    sol.makespan = 0;
    for (int32_t t = 0; t < dag.ntasks; t++) {
        ck_assert(proc[t] >= 0 && proc[t] < dag.nprocs);
        sol.order[t] = t; /* the validator wants a permutation; any will do */
        sol.proc[t] = proc[t];
        sol.start[t] = start[t];
        sol.finish[t] = start[t] + dag.cost[(int64_t)t * dag.nprocs + proc[t]];
        if (sol.finish[t] > sol.makespan)
            sol.makespan = sol.finish[t];
    }
    int64_t lb;
    ck_assert_msg(pets_oracle_validate(&dag, &sol, &lb, &err) == 0, "%s", err.msg);
    ck_assert(sol.makespan >= lb);
    pets_solution_free(&sol);
    pets_dag_free(&dag);
    plugin_outcome_free(&out);
    plugin_set_free(&s);
}
END_TEST

static Suite *suite_plugin(void)
{
    Suite *s = suite_create("plugin");
    TCase *tc = pc_tcase("loader");
    int nref = (int)(sizeof g_refusals / sizeof *g_refusals);
    tcase_add_loop_test(tc, test_loader_refuses_bad_plugins, 0, nref);
    tcase_add_loop_test(tc, test_loader_refuses_bad_plugins_without_fork, 0, nref);
    tcase_add_test(tc, test_loader_refuses_a_name_loaded_twice);
    tcase_add_test(tc, test_loader_times_out_a_hanging_init);
    tcase_add_test(tc, test_loader_describes_the_entry);
    tcase_add_test(tc, test_loader_survives_allocation_failures);
    tcase_add_test(tc, test_abi1_layout_is_frozen);
    suite_add_tcase(s, tc);

    tc = pc_tcase("spmm");
    tcase_add_checked_fixture(tc, matrix_setup, matrix_teardown);
    tcase_add_test(tc, test_spmm_omp_ok_matches_naive_product_and_oracle);
    tcase_add_test(tc, test_no_fork_gives_the_same_outputs);
    tcase_add_test(tc, test_spmm_omp_race_runs_to_completion);
    tcase_add_test(tc, test_spmm_segv_crashes_on_the_empty_row);
    tcase_add_loop_test(tc, test_misbehaving_plugins_get_their_status, 0,
                        (int)(sizeof g_fates / sizeof *g_fates));
    tcase_add_test(tc, test_hang_times_out);
    tcase_add_test(tc, test_unwritten_outputs_keep_the_fill);
    tcase_add_test(tc, test_ellpack_entry_reads_ellpack);
    tcase_add_test(tc, test_fp32_entry_gets_floats);
    tcase_add_test(tc, test_spmm_cuda_runs_on_device_pointers);
    tcase_add_test(tc, test_runner_refuses_missing_arrays);
    suite_add_tcase(s, tc);

    tc = pc_tcase("sa-pets");
    /* _i = 0: through the worker, 1: --no-fork */
    tcase_add_loop_test(tc, test_sa_divsufsort_matches_naive_suffix_array, 0, 2);
    tcase_add_loop_test(tc, test_pets_naive_schedule_is_valid, 0, 2);
    suite_add_tcase(s, tc);
    return s;
}

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "plugin-worker"))
        return plugin_worker_main(argc - 1, argv + 1);
    plugin_paths_init();
    return pc_test_run(suite_plugin());
}
