/* cli_stress.c - repeated validated runs across thread counts and OpenMP
 * schedules (cli_stress.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "cli_stress.h"
#include "pc_alloc.h"
#include "pc_cli.h"

/* The run whose outputs cli_stress_note_output fingerprints. */
static cli_stress *stress_active;

/* Environment as it was before the first run, restored at the end. */
static char saved_sched[128], saved_threads[32];
static int saved_sched_set, saved_threads_set, saved;
#ifdef _OPENMP
static int saved_max_threads, saved_chunk;
static omp_sched_t saved_kind;
#endif

int cli_stress_take(int argc, char **argv, int *i, long long *runs, pc_error *err)
{
    const char *v = NULL;
    int rc = pc_cli_take(argc, argv, i, "--stress", &v, err);
    if (rc <= 0)
        return rc;
    if (pc_cli_parse_long("--stress", v, 1, CLI_STRESS_MAX, runs, err))
        return PC_EINVAL;
    return 1;
}

static void save_env(void)
{
    if (saved)
        return;
    const char *s = getenv("OMP_SCHEDULE"), *t = getenv("OMP_NUM_THREADS");
    saved_sched_set = s != NULL;
    saved_threads_set = t != NULL;
    snprintf(saved_sched, sizeof saved_sched, "%s", s ? s : "");
    snprintf(saved_threads, sizeof saved_threads, "%s", t ? t : "");
#ifdef _OPENMP
    saved_max_threads = omp_get_max_threads();
    omp_get_schedule(&saved_kind, &saved_chunk);
#endif
    saved = 1;
}

static void restore_env(void)
{
    if (!saved)
        return;
    if (saved_sched_set)
        setenv("OMP_SCHEDULE", saved_sched, 1);
    else
        unsetenv("OMP_SCHEDULE");
    if (saved_threads_set)
        setenv("OMP_NUM_THREADS", saved_threads, 1);
    else
        unsetenv("OMP_NUM_THREADS");
#ifdef _OPENMP
    omp_set_num_threads(saved_max_threads);
    omp_set_schedule(saved_kind, saved_chunk);
#endif
    saved = 0;
}

void cli_stress_begin(cli_stress *s, int runs)
{
    memset(s, 0, sizeof *s);
    s->runs = runs;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    s->threads_max = 2 * (int)(cores > 0 ? cores : 1);
    s->identical = 1;
    s->worst_over_bound = -1;
}

/* Schedules cycled through, with their OMP_SCHEDULE spelling. */
static const struct { const char *env; int kind, chunk; } stress_sched[] = {
#ifdef _OPENMP
    {"static", omp_sched_static, 0},   {"dynamic,1", omp_sched_dynamic, 1},
    {"guided", omp_sched_guided, 0},   {"static,1", omp_sched_static, 1},
    {"dynamic,16", omp_sched_dynamic, 16}, {"auto", omp_sched_auto, 0},
#else
    {"static", 0, 0},
#endif
};
#define STRESS_NSCHED ((int)(sizeof stress_sched / sizeof stress_sched[0]))

int cli_stress_setup(cli_stress *s, int k)
{
    save_env();
    /* threads cycle fastest, the schedule changes after each full cycle,
     * so that every thread count meets every schedule */
    int threads = 1 + k % s->threads_max;
    int sc = (k / s->threads_max) % STRESS_NSCHED;
    char buf[16];
    snprintf(buf, sizeof buf, "%d", threads);
    setenv("OMP_NUM_THREADS", buf, 1);
    setenv("OMP_SCHEDULE", stress_sched[sc].env, 1);
#ifdef _OPENMP
    omp_set_schedule((omp_sched_t)stress_sched[sc].kind, stress_sched[sc].chunk);
    omp_set_num_threads(threads);
#endif
    snprintf(s->label, sizeof s->label, "run %d: %d threads, schedule %s", k + 1, threads,
             stress_sched[sc].env);
    s->cur_hash = 1469598103934665603ull; /* FNV-1a offset basis */
    stress_active = s;
    return threads;
}

void cli_stress_note_output(const void *data, size_t bytes)
{
    cli_stress *s = stress_active;
    if (!s || !data)
        return;
    const unsigned char *p = data;
    uint64_t h = s->cur_hash;
    for (size_t i = 0; i < bytes; i++) {
        h ^= p[i];
        h *= 1099511628211ull;
    }
    s->cur_hash = h;
}

void cli_stress_record(cli_stress *s, const pc_result *r)
{
    stress_active = NULL;
    s->done++;
    if (r->status == PC_STATUS_SKIPPED)
        return;
    if (r->status != PC_STATUS_PASS) {
        if (!s->failed)
            snprintf(s->first_fail, sizeof s->first_fail, "%s: %s %.*s", s->label,
                     pc_status_name(r->status), (int)(sizeof s->first_fail - sizeof s->label - 16),
                     r->reason);
        s->failed++;
        /* the first failure that was located (a run whose repeats differed
         * has no location; a later run may have one) */
        if (!s->fail_row)
            s->fail_row = pc_malloc(sizeof *s->fail_row); /* NULL: no locations */
        if (s->fail_row && (s->failed == 1 || (!s->fail_row->nwhere && r->nwhere)))
            *s->fail_row = *r;
    }
    if (!s->have_hash) {
        s->first_hash = s->cur_hash;
        s->have_hash = 1;
    } else if (s->cur_hash != s->first_hash) {
        s->identical = 0;
    }
    const pc_kv *b = pc_kv_find(&r->metrics, "max_err_over_bound");
    if (b && b->kind == PC_VALUE_NUM && b->num > s->worst_over_bound)
        s->worst_over_bound = b->num;
}

void cli_stress_finish(cli_stress *s, pc_result *r)
{
    stress_active = NULL;
    restore_env();
    if (!s->runs || r->status == PC_STATUS_SKIPPED) {
        pc_free(s->fail_row);
        s->fail_row = NULL;
        return;
    }
    pc_kv_int(&r->metrics, "stress_runs", s->done);
    pc_kv_int(&r->metrics, "stress_failed", s->failed);
    pc_kv_bool(&r->metrics, "stress_identical", s->identical && s->have_hash);
    pc_kv_int(&r->metrics, "stress_threads_max", s->threads_max);
    if (s->worst_over_bound >= 0)
        pc_kv_num(&r->metrics, "stress_max_err_over_bound", s->worst_over_bound);
    if (s->failed && r->status == PC_STATUS_PASS) {
        pc_result_status(r, PC_STATUS_FAIL, "stress: %d of %d runs failed (first, %s)", s->failed,
                         s->done, s->first_fail);
        if (s->fail_row) {
            r->nwhere = s->fail_row->nwhere;
            memcpy(r->where, s->fail_row->where, sizeof r->where);
            memcpy(r->where_summary, s->fail_row->where_summary, sizeof r->where_summary);
        }
    }
    pc_free(s->fail_row);
    s->fail_row = NULL;
}
