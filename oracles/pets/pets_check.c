/* pets_check.c - the schedule validator (rules in pets_check.h).
 *
 * Each rule is checked over all tasks and counted; the located records are
 * the first PETS_CHECK_MAX_RECORDS by (rule, task, other), so the same
 * schedule always gives the same list whatever order its rows came in. */
#include <stdio.h>
#include <string.h>

#include "pc_alloc.h"
#include "pets_check.h"
#include "pets_oracle.h"

static const char *const rule_names[PETS_RULE_COUNT] = {
    "missing", "duplicate", "processor", "negative", "duration", "overlap", "precedence"};

const char *pets_rule_name(int rule)
{
    return rule >= 0 && rule < PETS_RULE_COUNT ? rule_names[rule] : "?";
}

/* The first records of one rule by (task, other), ties in the order found. */
typedef struct rule_log {
    int n;
    pets_violation v[PETS_CHECK_MAX_RECORDS];
} rule_log;

static int goes_first(const pets_violation *a, const pets_violation *b)
{
    return a->task != b->task ? a->task < b->task : a->other < b->other;
}

/* Counts violation x and keeps it when it is among its rule's first. */
static void note(pets_check_report *rep, rule_log *logs, pets_violation x)
{
    rep->count[x.rule]++;
    rep->violations++;
    rule_log *l = &logs[x.rule];
    int k = l->n;
    if (k == PETS_CHECK_MAX_RECORDS) {
        if (!goes_first(&x, &l->v[k - 1]))
            return;
        k--;
    } else {
        l->n++;
    }
    while (k > 0 && goes_first(&x, &l->v[k - 1])) {
        l->v[k] = l->v[k - 1];
        k--;
    }
    l->v[k] = x;
}

const char *pets_check_format_time(char *buf, size_t len, int64_t t, int decimals)
{
    if (!decimals) {
        snprintf(buf, len, "%lld", (long long)t);
        return buf;
    }
    uint64_t a = t < 0 ? 0 - (uint64_t)t : (uint64_t)t, unit = 1;
    for (int k = 0; k < decimals; k++)
        unit *= 10;
    int d = decimals;
    uint64_t frac = a % unit;
    while (d > 0 && frac % 10 == 0) {
        frac /= 10;
        d--;
    }
    if (d)
        snprintf(buf, len, "%s%llu.%0*llu", t < 0 ? "-" : "", (unsigned long long)(a / unit), d,
                 (unsigned long long)frac);
    else
        snprintf(buf, len, "%s%llu", t < 0 ? "-" : "", (unsigned long long)(a / unit));
    return buf;
}

/* What the validator works on: the rows and, per task, its row. */
typedef struct sched_view {
    const pets_dag *dag;
    const int64_t *task, *proc, *start, *finish;
    int64_t nrows;
    int64_t *row;    /* the task's first row, -1 when it has none */
    int32_t *pl;     /* the task's processor (0-based), -1 when none is valid */
    int decimals;
} sched_view;

/* R0 missing, R1 duplicate, R2 processor, R3 negative, R4 duration. */
static void check_rows(const sched_view *w, pets_check_report *rep, rule_log *logs)
{
    int32_t n = w->dag->ntasks, P = w->dag->nprocs;
    for (int32_t t = 0; t < n; t++)
        if (w->row[t] < 0)
            note(rep, logs, (pets_violation){PETS_RULE_MISSING, t + 1, 0, 0, 0, 0});
    for (int64_t r = 0; r < w->nrows; r++)
        if (w->row[w->task[r] - 1] != r)
            note(rep, logs, (pets_violation){PETS_RULE_DUPLICATE, w->task[r], 0, w->proc[r],
                                             w->start[r], w->finish[r]});
    for (int32_t t = 0; t < n; t++) {
        int64_t r = w->row[t];
        if (r < 0)
            continue;
        pets_violation x = {PETS_RULE_PROCESSOR, t + 1, 0, w->proc[r], w->start[r], w->finish[r]};
        if (w->proc[r] < 1 || w->proc[r] > P)
            note(rep, logs, x);
        x.rule = PETS_RULE_NEGATIVE;
        if (w->start[r] < 0 || w->finish[r] < 0)
            note(rep, logs, x);
        x.rule = PETS_RULE_DURATION;
        if (w->pl[t] >= 0 && w->finish[r] != w->start[r] + w->dag->cost[(size_t)t * P + w->pl[t]])
            note(rep, logs, x);
    }
}

typedef struct slot {
    int64_t s, f;
    int32_t task, proc;
} slot;

#define RADIX_BITS 16

/* One stable counting pass of a[0..n) into b by key(x) = digit of x.s - base
 * at shift, or x.proc when shift < 0. */
static void radix_pass(const slot *a, slot *b, int64_t n, int64_t base, int shift, int32_t *count,
                       int32_t nkeys)
{
    memset(count, 0, (size_t)(nkeys + 1) * sizeof *count);
    for (int64_t k = 0; k < n; k++) {
        int32_t d = shift < 0 ? a[k].proc : (int32_t)(((uint64_t)(a[k].s - base) >> shift) & 0xFFFF);
        count[d + 1]++;
    }
    for (int32_t d = 0; d < nkeys; d++)
        count[d + 1] += count[d];
    for (int64_t k = 0; k < n; k++) {
        int32_t d = shift < 0 ? a[k].proc : (int32_t)(((uint64_t)(a[k].s - base) >> shift) & 0xFFFF);
        b[count[d]++] = a[k];
    }
}

/* Sorts a[0..n) by (proc, start, task), tmp[0..n) as scratch; returns the
 * array that holds the result. Stable LSD radix passes, as speed at 2^19
 * tasks is asked for (with qsort per processor the rules took 2x longer).
 * Why the order is right: the items enter in task order; after the passes
 * over the 16-bit digits of start - min(start), low digit first, they are
 * ordered by start with ties in task order (each pass is stable, so items
 * equal on its digit keep the order of the lower digits); the last pass,
 * by processor, keeps that order within each processor. */
static slot *sort_slots(slot *a, slot *tmp, int64_t n, int32_t P, int32_t *count)
{
    int64_t lo = 0, hi = 0;
    for (int64_t k = 0; k < n; k++) {
        if (k == 0 || a[k].s < lo)
            lo = a[k].s;
        if (k == 0 || a[k].s > hi)
            hi = a[k].s;
    }
    uint64_t range = (uint64_t)(hi - lo); /* both within +-2^62 */
    for (int shift = 0; shift < 64 && (shift == 0 || (range >> shift) != 0); shift += RADIX_BITS) {
        radix_pass(a, tmp, n, lo, shift, count, 1 << RADIX_BITS);
        slot *t = a;
        a = tmp;
        tmp = t;
    }
    radix_pass(a, tmp, n, lo, -1, count, P);
    return tmp;
}

/* R5 overlap: each processor's non-empty intervals by start; an interval
 * starting before the latest finish so far overlaps the task that finishes
 * there, and one that does not overlaps none of those before it (they all
 * end by its start), so every overlapping pair is seen through its later
 * member. */
static int check_overlap(const sched_view *w, pets_check_report *rep, rule_log *logs, pc_error *err)
{
    int32_t n = w->dag->ntasks, P = w->dag->nprocs;
    slot *a = pc_malloc_array((size_t)n, sizeof *a);
    slot *tmp = pc_malloc_array((size_t)n, sizeof *tmp);
    int32_t *count = pc_malloc_array(((size_t)1 << RADIX_BITS) + 1, sizeof *count);
    if (!a || !tmp || !count) {
        pc_free(a);
        pc_free(tmp);
        pc_free(count);
        return pc_error_nomem(err, "checking a schedule");
    }
    int64_t cnt = 0;
    for (int32_t t = 0; t < n; t++) {
        int64_t r = w->row[t];
        if (w->pl[t] >= 0 && w->finish[r] > w->start[r])
            a[cnt++] = (slot){w->start[r], w->finish[r], t, w->pl[t]};
    }
    slot *by = sort_slots(a, tmp, cnt, P, count);
    for (int64_t k = 1, last = 0; k < cnt; k++) {
        if (by[k].proc != by[last].proc) {
            last = k;
            continue;
        }
        if (by[k].s < by[last].f)
            note(rep, logs, (pets_violation){PETS_RULE_OVERLAP, by[k].task + 1, by[last].task + 1,
                                             by[k].proc + 1, by[k].s, by[k].f});
        if (by[k].f > by[last].f)
            last = k;
    }
    pc_free(a);
    pc_free(tmp);
    pc_free(count);
    return PC_OK;
}

/* R6 precedence, over the edge list. */
static void check_edges(const sched_view *w, pets_check_report *rep, rule_log *logs)
{
    const pets_dag *d = w->dag;
    for (int32_t e = 0; e < d->nedges; e++) {
        int32_t u = d->edge_from[e], v = d->edge_to[e];
        if (w->pl[u] < 0 || w->pl[v] < 0)
            continue;
        int64_t ru = w->row[u], rv = w->row[v];
        int64_t need = w->finish[ru] + (w->pl[u] == w->pl[v] ? 0 : d->edge_comm[e]);
        if (w->start[rv] < need)
            note(rep, logs, (pets_violation){PETS_RULE_PRECEDENCE, v + 1, u + 1, w->pl[v] + 1,
                                             w->start[rv], w->finish[rv]});
    }
}

/* rep->why from the first record. */
static void explain(const sched_view *w, pets_check_report *rep)
{
    const pets_violation *x = &rep->record[0];
    const pets_dag *d = w->dag;
    char s[32], f[32], a[32], b[32], c[32];
    int D = w->decimals;
    size_t len = sizeof rep->why;
    int64_t ro = x->other > 0 ? w->row[x->other - 1] : -1;
    switch (x->rule) {
    case PETS_RULE_MISSING:
        snprintf(rep->why, len, "task %lld is not in the schedule", (long long)x->task);
        break;
    case PETS_RULE_DUPLICATE:
        snprintf(rep->why, len, "task %lld is listed more than once (again on P%lld [%s, %s))",
                 (long long)x->task, (long long)x->proc, pets_check_format_time(s, 32, x->start, D),
                 pets_check_format_time(f, 32, x->finish, D));
        break;
    case PETS_RULE_PROCESSOR:
        snprintf(rep->why, len, "task %lld is on processor %lld; the graph has processors 1..%ld",
                 (long long)x->task, (long long)x->proc, (long)d->nprocs);
        break;
    case PETS_RULE_NEGATIVE:
        snprintf(rep->why, len, "task %lld on P%lld has a negative time: [%s, %s)", (long long)x->task,
                 (long long)x->proc, pets_check_format_time(s, 32, x->start, D), pets_check_format_time(f, 32, x->finish, D));
        break;
    case PETS_RULE_DURATION: {
        int64_t cost = d->cost[(size_t)(x->task - 1) * d->nprocs + (x->proc - 1)];
        snprintf(rep->why, len, "task %lld on P%lld runs [%s, %s) but costs %s there (finish %s)",
                 (long long)x->task, (long long)x->proc, pets_check_format_time(s, 32, x->start, D),
                 pets_check_format_time(f, 32, x->finish, D), pets_check_format_time(a, 32, cost, D),
                 pets_check_format_time(b, 32, x->start + cost, D));
        break;
    }
    case PETS_RULE_OVERLAP:
        snprintf(rep->why, len, "task %lld [%s, %s) overlaps task %lld [%s, %s) on P%lld",
                 (long long)x->task, pets_check_format_time(s, 32, x->start, D), pets_check_format_time(f, 32, x->finish, D),
                 (long long)x->other, pets_check_format_time(a, 32, w->start[ro], D), pets_check_format_time(b, 32, w->finish[ro], D),
                 (long long)x->proc);
        break;
    default: { /* precedence */
        int64_t comm = 0;
        for (int32_t e = 0; e < d->nedges; e++)
            if (d->edge_from[e] == x->other - 1 && d->edge_to[e] == x->task - 1)
                comm = d->edge_comm[e];
        int64_t pu = w->proc[ro];
        if (pu == x->proc)
            snprintf(rep->why, len,
                     "task %lld on P%lld starts at %s, before task %lld finishes there at %s",
                     (long long)x->task, (long long)x->proc, pets_check_format_time(s, 32, x->start, D),
                     (long long)x->other, pets_check_format_time(a, 32, w->finish[ro], D));
        else
            snprintf(rep->why, len,
                     "task %lld on P%lld starts at %s, before its input from task %lld on P%lld "
                     "arrives at %s (finish %s + communication %s)",
                     (long long)x->task, (long long)x->proc, pets_check_format_time(s, 32, x->start, D),
                     (long long)x->other, (long long)pu, pets_check_format_time(a, 32, w->finish[ro] + comm, D),
                     pets_check_format_time(b, 32, w->finish[ro], D), pets_check_format_time(c, 32, comm, D));
        break;
    }
    }
    if (rep->violations > 1) {
        size_t k = strlen(rep->why);
        snprintf(rep->why + k, len - k, "; %lld violations in all", (long long)rep->violations);
    }
}

/* The arguments a caller may get wrong: ids of tasks and times in range. */
static int check_args(const pets_dag *dag, int64_t nrows, const int64_t *task, const int64_t *proc,
                      const int64_t *start, const int64_t *finish, int decimals, pc_error *err)
{
    if (nrows < 0 || decimals < 0 || decimals > PETS_SCHED_MAX_DECIMALS ||
        (nrows > 0 && (!task || !proc || !start || !finish)))
        return pc_error_set(err, PC_EINVAL, NULL, 0, "schedule check: bad arguments");
    for (int64_t r = 0; r < nrows; r++) {
        if (task[r] < 1 || task[r] > dag->ntasks)
            return pc_error_set(err, PC_EINVAL, NULL, 0,
                                "schedule row %lld: task %lld is not a task of the graph (1..%ld)",
                                (long long)r + 1, (long long)task[r], (long)dag->ntasks);
        if (start[r] < -PETS_CHECK_MAX_TIME || start[r] > PETS_CHECK_MAX_TIME ||
            finish[r] < -PETS_CHECK_MAX_TIME || finish[r] > PETS_CHECK_MAX_TIME)
            return pc_error_set(err, PC_ERANGE, NULL, 0,
                                "schedule row %lld (task %lld): a time outside +-2^62",
                                (long long)r + 1, (long long)task[r]);
    }
    return PC_OK;
}

int pets_check_schedule(const pets_dag *dag, int64_t nrows, const int64_t *task,
                        const int64_t *proc, const int64_t *start, const int64_t *finish,
                        int decimals, pets_check_report *rep, pc_error *err)
{
    memset(rep, 0, sizeof *rep);
    rep->pets_makespan[0] = rep->pets_makespan[1] = -1;
    rep->slr = 1.0;
    int rc = check_args(dag, nrows, task, proc, start, finish, decimals, err);
    if (rc)
        return rc;
    int32_t n = dag->ntasks;
    sched_view w = {dag, task, proc, start, finish, nrows, NULL, NULL, decimals};
    w.row = pc_malloc_array((size_t)n, sizeof *w.row);
    w.pl = pc_malloc_array((size_t)n, sizeof *w.pl);
    rule_log *logs = pc_calloc(PETS_RULE_COUNT, sizeof *logs);
    if (!w.row || !w.pl || !logs) {
        rc = pc_error_nomem(err, "checking a schedule");
        goto out;
    }
    for (int32_t t = 0; t < n; t++)
        w.row[t] = -1;
    for (int64_t r = nrows - 1; r >= 0; r--) /* backwards: the first row wins */
        w.row[task[r] - 1] = r;
    for (int32_t t = 0; t < n; t++) {
        int64_t r = w.row[t];
        w.pl[t] = r >= 0 && proc[r] >= 1 && proc[r] <= dag->nprocs ? (int32_t)(proc[r] - 1) : -1;
        if (r >= 0 && finish[r] > rep->makespan)
            rep->makespan = finish[r];
    }
    check_rows(&w, rep, logs);
    if ((rc = check_overlap(&w, rep, logs, err)))
        goto out;
    check_edges(&w, rep, logs);
    for (int k = 0; k < PETS_RULE_COUNT; k++)
        for (int j = 0; j < logs[k].n && rep->nrecords < PETS_CHECK_MAX_RECORDS; j++)
            rep->record[rep->nrecords++] = logs[k].v[j];
    rep->valid = rep->violations == 0;
    if (!rep->valid)
        explain(&w, rep);
    if ((rc = pets_oracle_lower_bound(dag, &rep->lower_bound, err)))
        goto out;
    if (rep->lower_bound > 0)
        rep->slr = (double)rep->makespan / (double)rep->lower_bound;
out:
    pc_free(w.row);
    pc_free(w.pl);
    pc_free(logs);
    return rc;
}

int pets_check_pets_schedule_makespan(const pets_dag *dag, const pets_oracle_prep *prep, int policy,
                                      int64_t *makespan, pc_error *err)
{
    pets_solution s;
    int rc = pets_solution_alloc(&s, dag->ntasks, err);
    if (!rc)
        rc = pets_oracle_schedule(dag, prep, policy, &s, err);
    *makespan = rc ? -1 : s.makespan;
    pets_solution_free(&s);
    return rc;
}

int pets_check_pets_makespan(const pets_dag *dag, int policy, int64_t *makespan, pc_error *err)
{
    pets_solution s;
    int rc = pets_solution_alloc(&s, dag->ntasks, err);
    if (!rc)
        rc = pets_oracle_solve(dag, policy, &s, err);
    *makespan = rc ? -1 : s.makespan;
    pets_solution_free(&s);
    return rc;
}

int pets_check_pets_makespans(const pets_dag *dag, pets_check_report *rep, pc_error *err)
{
    pets_oracle_prep pr;
    int rc = pets_oracle_prepare(dag, &pr, err);
    if (rc)
        return rc;
    int rcp[2] = {PC_OK, PC_OK};
    pc_error e[2];
    /* one prep, two independent schedules: side by side they cost the slower one */
#pragma omp parallel for num_threads(2) schedule(static, 1)
    for (int policy = 0; policy < 2; policy++) {
        pc_error_clear(&e[policy]);
        rcp[policy] = pets_check_pets_schedule_makespan(dag, &pr, policy, &rep->pets_makespan[policy],
                                                        &e[policy]);
    }
    pets_oracle_prep_free(&pr);
    for (int policy = 0; policy < 2; policy++)
        if (rcp[policy]) {
            if (err)
                *err = e[policy];
            return rcp[policy];
        }
    return PC_OK;
}
