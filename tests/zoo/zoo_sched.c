/* zoo_sched.c - schedules with every kind of violation, fed to the
 * validator that `parcheck pets check` and the plugin rows use
 * (pets_check_schedule). Each must be refused with its rule and located at
 * the planted task (for an overlap, the planted pair); the valid schedule,
 * with touching intervals and a successor on its predecessor's processor
 * at the predecessor's finish (no communication there), must be accepted.
 *
 * The graph: five tasks on two processors, costs below, one edge 1 -> 3
 * with communication cost 5. */
#include <stdio.h>
#include <string.h>

#include "pets.h"
#include "pets/pets_check.h"
#include "zoo.h"

#define NT 5
static const int64_t zoo_cost[NT * 2] = {4, 6, 3, 5, 2, 2, 6, 6, 4, 4};

/* task, processor (1-based), start, finish */
typedef struct zoo_row { int64_t t, p, s, f; } zoo_row;

/* The valid schedule: P1 holds 1 [0,4) 3 [4,6) 5 [6,10); P2 holds
 * 2 [0,5) 4 [5,11). */
static const zoo_row zoo_valid[NT] = {
    {1, 1, 0, 4}, {2, 2, 0, 5}, {3, 1, 4, 6}, {4, 2, 5, 11}, {5, 1, 6, 10}};

typedef struct zoo_case {
    int rule;        /* expected rule of the first record; -1: valid */
    int64_t task, other; /* expected ids (other 0: any) */
    int nrows;
    zoo_row edit[2]; /* rows replacing the valid one of the same task (t 0: none) */
    int drop;        /* task whose row is removed (0: none) */
    int dup;         /* task whose row is appended again (0: none) */
} zoo_case;

static const zoo_case zoo_cases[] = {
    {-1, 0, 0, NT, {{0}}, 0, 0},
    {PETS_RULE_MISSING, 2, 0, NT - 1, {{0}}, 2, 0},
    {PETS_RULE_DUPLICATE, 2, 0, NT + 1, {{0}}, 0, 2},
    {PETS_RULE_PROCESSOR, 2, 0, NT, {{2, 3, 0, 5}}, 0, 0},
    {PETS_RULE_NEGATIVE, 2, 0, NT, {{2, 2, -1, 4}}, 0, 0},
    {PETS_RULE_DURATION, 2, 0, NT, {{2, 2, 0, 6}}, 0, 0},
    /* overlaps: the later one starts inside; one inside the other; both
     * start together; identical intervals */
    {PETS_RULE_OVERLAP, 5, 3, NT, {{5, 1, 5, 9}}, 0, 0},
    {PETS_RULE_OVERLAP, 5, 4, NT, {{5, 2, 6, 10}}, 0, 0},
    {PETS_RULE_OVERLAP, 5, 4, NT, {{5, 2, 5, 9}}, 0, 0},
    {PETS_RULE_OVERLAP, 5, 1, NT, {{5, 1, 0, 4}}, 0, 0},
    /* precedence: 3 on P2 at 5 < finish(1) + 5 = 9; 4 moved out of its way */
    {PETS_RULE_PRECEDENCE, 3, 1, NT, {{3, 2, 5, 7}, {4, 1, 10, 16}}, 0, 0},
};
#define NCASES ((int)(sizeof zoo_cases / sizeof zoo_cases[0]))

static int run_sched_entry(const zoo_entry *self, char *msg, size_t len)
{
    const zoo_case *c = &zoo_cases[self->arg];
    pets_dag d;
    pets_edge e = {0, 2, 5, 0};
    memset(&d, 0, sizeof d);
    if (pets_dag_build(&d, NT, 2, zoo_cost, &e, 1, "zoo", NULL)) {
        snprintf(msg, len, "set-up failed");
        return ZOO_BROKEN;
    }
    int64_t task[NT + 1], proc[NT + 1], st[NT + 1], fi[NT + 1];
    int k = 0;
    for (int i = 0; i < NT + 1; i++) {
        if (i == NT && !c->dup)
            continue;
        zoo_row r = zoo_valid[i < NT ? i : c->dup - 1];
        if (r.t == c->drop)
            continue;
        for (int j = 0; j < 2; j++)
            if (c->edit[j].t == r.t && i < NT)
                r = c->edit[j];
        task[k] = r.t, proc[k] = r.p, st[k] = r.s, fi[k] = r.f;
        k++;
    }
    pets_check_report rep;
    int rc = pets_check_schedule(&d, k, task, proc, st, fi, 0, &rep, NULL);
    pets_dag_free(&d);
    if (rc) {
        snprintf(msg, len, "validator error %d", rc);
        return ZOO_BROKEN;
    }
    if (c->rule < 0) {
        snprintf(msg, len, "%s", rep.valid ? "accepted" : rep.why);
        return rep.valid ? ZOO_REJECTED : ZOO_SLIPPED;
    }
    if (rep.valid || !rep.nrecords) {
        snprintf(msg, len, "accepted");
        return ZOO_SLIPPED;
    }
    const pets_violation *v = &rep.record[0];
    int hit = v->rule == c->rule &&
              ((v->task == c->task && (!c->other || v->other == c->other)) ||
               (c->rule == PETS_RULE_OVERLAP && v->task == c->other && v->other == c->task));
    snprintf(msg, len, "%s: %s", pets_rule_name(v->rule), rep.why);
    return hit ? ZOO_REJECTED : ZOO_SLIPPED;
}

const zoo_entry zoo_sched_entries[] = {
    {"sched-valid", "valid schedule, touching intervals, no comm on one processor", 1, run_sched_entry, 0},
    {"sched-missing", "schedule without a task", 0, run_sched_entry, 1},
    {"sched-duplicate", "schedule with a task twice", 0, run_sched_entry, 2},
    {"sched-processor", "schedule on a processor the graph lacks", 0, run_sched_entry, 3},
    {"sched-negative", "schedule with a negative start", 0, run_sched_entry, 4},
    {"sched-duration", "schedule with finish != start + cost", 0, run_sched_entry, 5},
    {"sched-overlap-inside", "overlap: the later task starts inside the earlier", 0, run_sched_entry, 6},
    {"sched-overlap-contained", "overlap: one interval inside the other", 0, run_sched_entry, 7},
    {"sched-overlap-same-start", "overlap: both start together", 0, run_sched_entry, 8},
    {"sched-overlap-identical", "overlap: identical intervals", 0, run_sched_entry, 9},
    {"sched-precedence", "successor before its data arrives", 0, run_sched_entry, 10},
    {NULL, NULL, 0, NULL, 0},
};
