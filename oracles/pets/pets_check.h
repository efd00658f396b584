/* pets_check.h - the schedule validator on plain arrays: judges a schedule
 * another program wrote from the graph alone, locating what is wrong.
 *
 * Rules, checked in this order (the numbers are the enum's):
 *  R0 missing     every task of the graph has a row;
 *  R1 duplicate   no task has more than one row (later rows are reported
 *                 and otherwise ignored: the first row is the task's);
 *  R2 processor   the row's processor is one of the graph's (1..P);
 *  R3 negative    start >= 0 and finish >= 0;
 *  R4 duration    finish - start == cost(task, processor);
 *  R5 overlap     no two tasks on one processor overlap: intervals
 *                 [start, finish); an empty one (finish <= start) never
 *                 overlaps anything;
 *  R6 precedence  every edge u -> v: start(v) >= finish(u) + c(u, v), with
 *                 c = 0 when u and v run on the same processor.
 * R4..R6 skip tasks that R0 or R2 leave without a place. Then the
 * makespan (largest finish), the critical-path lower bound (longest path
 * of minimum costs, no communication) and SLR = makespan / bound.
 *
 * Reads only the plain fields of pets_dag (ntasks, nprocs, cost, the edge
 * list) and shares no code with src/pets. */
#ifndef PETS_ORACLE_CHECK_H
#define PETS_ORACLE_CHECK_H

#include <stddef.h>
#include <stdint.h>

#include "pets.h"

enum pets_rule {
    PETS_RULE_MISSING,
    PETS_RULE_DUPLICATE,
    PETS_RULE_PROCESSOR,
    PETS_RULE_NEGATIVE,
    PETS_RULE_DURATION,
    PETS_RULE_OVERLAP,
    PETS_RULE_PRECEDENCE,
    PETS_RULE_COUNT
};

/* At most this many violations are located. */
#define PETS_CHECK_MAX_RECORDS 10

/* Times the validator accepts: |t| <= 2^62, so that a finish plus a
 * communication cost (<= 2^40) stays inside int64. */
#define PETS_CHECK_MAX_TIME (1LL << 62)

/* One located violation; ids 1-based as in the .dag file, 0 where none
 * applies (missing: no proc and times; only overlap and precedence name
 * another task). proc, start, finish are the row of `task`. */
typedef struct pets_violation {
    int rule;          /* enum pets_rule */
    int64_t task;
    int64_t other;     /* overlap: the task it overlaps; precedence: the predecessor */
    int64_t proc;
    int64_t start, finish;
} pets_violation;

typedef struct pets_check_report {
    int valid;                         /* 1 when no rule is violated */
    int64_t violations;                /* total over the rules */
    int64_t count[PETS_RULE_COUNT];    /* per rule */
    int nrecords;
    pets_violation record[PETS_CHECK_MAX_RECORDS]; /* by rule order, then task, then other */
    char why[384];                     /* the first violation in words ("" when valid) */
    int64_t makespan;                  /* largest finish of the tasks' rows, >= 0 */
    int64_t lower_bound;               /* critical path of minimum costs */
    double slr;                        /* makespan / lower_bound (1 when both are 0) */
    int64_t pets_makespan[2];          /* PETS under insertion, append; -1 until computed */
} pets_check_report;

/* "missing", "duplicate", ... (the names of the rules above). */
const char *pets_rule_name(int rule);

/* Writes t, a time in units of 10^-decimals, exactly as decimal text
 * ("12.5", "-3", "0.000001") into buf[0..len); returns buf. */
const char *pets_check_format_time(char *buf, size_t len, int64_t t, int decimals);

/* Checks nrows schedule rows against dag.
 * dag     a graph as pets_dag_build makes it (costs and comms in [0, 2^40]).
 * task    [0..nrows) task ids, each in [1, dag->ntasks].
 * proc    [0..nrows) processor ids (out of [1, nprocs]: rule R2).
 * start, finish  [0..nrows) times within +-PETS_CHECK_MAX_TIME.
 * decimals  0..9: times and costs are in units of 10^-decimals of the
 *         file's time unit; only rep->why uses it, to print times as the
 *         file wrote them.
 * rep     receives the verdict, located violations, makespan, bound, SLR
 *         (pets_makespan set to -1). The arrays stay the caller's.
 * Returns 0 whatever the verdict, PC_EINVAL (a task id out of range,
 * nrows < 0, decimals out of range), PC_ERANGE (a time out of range) or
 * PC_ENOMEM, with err naming the row (1-based); work space O(V + nrows)
 * through pc_alloc, freed on every path. */
int pets_check_schedule(const pets_dag *dag, int64_t nrows, const int64_t *task,
                        const int64_t *proc, const int64_t *start, const int64_t *finish,
                        int decimals, pets_check_report *rep, pc_error *err);

/* The makespan of PETS's schedule of dag under policy (PETS_INSERTION or
 * PETS_APPEND), by pets_oracle_solve, into *makespan. Returns 0 or
 * PC_ENOMEM. */
int pets_check_pets_makespan(const pets_dag *dag, int policy, int64_t *makespan, pc_error *err);

/* The same from a pets_oracle_prepare of dag (see pets_oracle.h), which
 * is only read: the two policies may share one prep at once. */
struct pets_oracle_prep;
int pets_check_pets_schedule_makespan(const pets_dag *dag, const struct pets_oracle_prep *prep,
                                      int policy, int64_t *makespan, pc_error *err);

/* Both PETS makespans into rep->pets_makespan (insertion, append): one
 * prep, then the two schedules side by side on two threads. Returns 0,
 * PC_EVERIFY (a cycle) or PC_ENOMEM. */
int pets_check_pets_makespans(const pets_dag *dag, pets_check_report *rep, pc_error *err);

#endif
