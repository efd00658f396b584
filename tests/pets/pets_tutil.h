/* pets_tutil.h - helpers the PETS suites share (header only: each suite is
 * one executable). */
#ifndef PETS_TUTIL_H
#define PETS_TUTIL_H

#include <stdio.h>
#include <string.h>

#include "pc_test.h"
#include "pets.h"
#include "pets/pets_oracle.h"
#include "pets_stream.h"

/* Path of a shared input under dags/, or NULL (then the test skips). */
static inline const char *tu_data(const char *rel)
{
    static char buf[4096];
    const char *d = pc_test_data_dir();
    if (!d)
        return NULL;
    snprintf(buf, sizeof buf, "%s/dags/%s", d, rel);
    return buf;
}

/* Runs implementation im on dag and checks that it equals the oracle and
 * that the validator accepts it. Returns 1 when checked, 0 when the
 * implementation cannot run here. */
static inline int tu_check_impl_opts(const pets_impl *im, const pets_dag *dag,
                                     const pets_options *opts, const pets_solution *ref,
                                     const char *what)
{
    pets_options o = *opts;
    char why[256];
    if (!im->available(&o, why, sizeof why))
        return 0;
    pets_solution s;
    pc_error err;
    pc_error_clear(&err);
    ck_assert_int_eq(pets_solution_alloc(&s, dag->ntasks, &err), 0);
    pets_times t;
    int rc = im->run(dag, &o, &s, &t, &err);
    if (rc == PC_EUNAVAIL) {
        pets_solution_free(&s);
        return 0;
    }
    ck_assert_msg(rc == 0, "%s %s: %s", im->name, what, err.msg);
    int32_t n = dag->ntasks;
    for (int32_t v = 0; v < n; v++) {
        ck_assert_msg(s.level[v] == ref->level[v], "%s %s: level of task %d: %d vs oracle %d", im->name,
                      what, v + 1, s.level[v], ref->level[v]);
        ck_assert_msg(s.rank_scaled[v] == ref->rank_scaled[v] && s.rank[v] == ref->rank[v],
                      "%s %s: rank of task %d: %lld vs oracle %lld", im->name, what, v + 1,
                      (long long)s.rank_scaled[v], (long long)ref->rank_scaled[v]);
    }
    for (int32_t k = 0; k < n; k++)
        ck_assert_msg(s.order[k] == ref->order[k], "%s %s: order position %d: task %d vs oracle %d",
                      im->name, what, k, s.order[k] + 1, ref->order[k] + 1);
    for (int32_t v = 0; v < n; v++)
        ck_assert_msg(s.proc[v] == ref->proc[v] && s.start[v] == ref->start[v] &&
                          s.finish[v] == ref->finish[v],
                      "%s %s: task %d on P%d [%lld,%lld) vs oracle P%d [%lld,%lld)", im->name, what,
                      v + 1, s.proc[v] + 1, (long long)s.start[v], (long long)s.finish[v],
                      ref->proc[v] + 1, (long long)ref->start[v], (long long)ref->finish[v]);
    ck_assert_int_eq(s.makespan, ref->makespan);
    int64_t lb;
    ck_assert_msg(pets_oracle_validate(dag, &s, &lb, &err) == 0, "%s %s: %s", im->name, what, err.msg);
    pets_solution_free(&s);
    return 1;
}

/* tu_check_impl with the default options (all threads, the gap index). */
static inline int tu_check_impl(const pets_impl *im, const pets_dag *dag, int policy,
                                const pets_solution *ref, const char *what)
{
    pets_options o = {policy, -1, -1, 0, PETS_SELECT_GAPS};
    return tu_check_impl_opts(im, dag, &o, ref, what);
}

/* Oracle solution (validated) of dag under policy into ref. */
static inline void tu_oracle(const pets_dag *dag, int policy, pets_solution *ref)
{
    pc_error err;
    pc_error_clear(&err);
    ck_assert_int_eq(pets_solution_alloc(ref, dag->ntasks, &err), 0);
    ck_assert_msg(pets_oracle_solve(dag, policy, ref, &err) == 0, "oracle: %s", err.msg);
    int64_t lb;
    ck_assert_msg(pets_oracle_validate(dag, ref, &lb, &err) == 0, "oracle schedule: %s", err.msg);
}

/* Every implementation against the oracle under both policies, and omp
 * and ocl again as a stream (6 threads, the size threshold lowered to
 * stream any graph; ocl-vec8's stream is ocl's but for the device kernel,
 * which its default run covers); returns the number of implementations
 * that ran (the default runs). */
static inline int tu_check_all(const pets_dag *dag, const char *what)
{
    int ran = 0;
    for (int policy = 0; policy < 2; policy++) {
        pets_solution ref;
        tu_oracle(dag, policy, &ref);
        for (int i = 0; i < pets_nimpls; i++) {
            ran += tu_check_impl(&pets_impls[i], dag, policy, &ref, what);
#ifdef _OPENMP /* without OpenMP there is no stream: the run above again */
            if (!strcmp(pets_impls[i].name, "omp") || !strcmp(pets_impls[i].name, "ocl")) {
                char w[320];
                snprintf(w, sizeof w, "%.256s (a stream on 6 threads)", what);
                pets_options o = {policy, -1, -1, PETS_STREAM_MIN_THREADS, PETS_SELECT_GAPS};
                g_pets_stream_min_tasks = 1;
                tu_check_impl_opts(&pets_impls[i], dag, &o, &ref, w);
                g_pets_stream_min_tasks = PETS_STREAM_MIN_TASKS;
            }
#endif
        }
        pets_solution_free(&ref);
    }
    return ran;
}

#endif
