/* zoo_pets.c - wrong PETS schedulers, judged as `parcheck pets` judges an
 * implementation (cmd_pets.c): levels, ranks, priority order and schedule
 * must equal the oracle's (pets_oracle_solve), and the schedule must pass
 * the validator (pets_oracle_validate; violations located by
 * pets_check_schedule). One scheduler with a switch per bug class; each
 * rejection must name a task the bug can reach. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pc_alloc.h"
#include "pets.h"
#include "pets/pets_check.h"
#include "pets/pets_oracle.h"
#include "zoo.h"

enum zoo_pets_bug {
    BUG_NONE,        /* the control */
    BUG_RANK_SWEEP,  /* ranks swept breadth-first: a task runs when its first predecessor has */
    BUG_DEC_TWICE,   /* the metric loop decrements a successor's counter twice */
    BUG_MINUS1,      /* the cost reduction starts one before the task's row (metrics[-1]) */
    BUG_COMM_SAME,   /* communication charged on the same processor too */
    BUG_SLOT_STRICT, /* a gap must be strictly longer than the task (t + w < s) */
    BUG_SLOT_SKIP    /* the slot search starts one slot late */
};

static const pets_dag *zoo_dag;
static const int32_t *zoo_level;
static const int64_t *zoo_rank, *zoo_acc;

/* level ascending, rank descending, ACC ascending, task ascending */
static int prio_cmp(const void *x, const void *y)
{
    int32_t a = *(const int32_t *)x, b = *(const int32_t *)y;
    if (zoo_level[a] != zoo_level[b])
        return zoo_level[a] < zoo_level[b] ? -1 : 1;
    if (zoo_rank[a] != zoo_rank[b])
        return zoo_rank[a] > zoo_rank[b] ? -1 : 1;
    if (zoo_acc[a] != zoo_acc[b])
        return zoo_acc[a] < zoo_acc[b] ? -1 : 1;
    return (a > b) - (a < b);
}

/* Levels and ranks in the order the queue releases tasks. */
static void zoo_metrics(const pets_dag *d, int bug, pets_solution *s, int64_t *acc)
{
    int32_t n = d->ntasks, P = d->nprocs;
    int32_t *left = calloc((size_t)n, sizeof *left), *queue = calloc((size_t)n, sizeof *queue);
    unsigned char *queued = calloc((size_t)n, 1);
    /* the costs behind one guard cell, so that index -1 reads garbage, not
     * another object */
    int64_t *cost = malloc(sizeof *cost * ((size_t)n * P + 1));
    cost[0] = 7;
    memcpy(cost + 1, d->cost, sizeof *cost * (size_t)n * P);
    int32_t tail = 0;
    for (int32_t v = 0; v < n; v++) {
        left[v] = d->pred_off[v + 1] - d->pred_off[v];
        s->level[v] = 0, s->rank_scaled[v] = 0;
        if (!left[v])
            queue[tail++] = v, queued[v] = 1;
    }
    for (int32_t head = 0; head < tail; head++) {
        int32_t v = queue[head], lev = 0;
        int64_t rpt = 0, a = 0, dtc = 0;
        for (int32_t e = d->pred_off[v]; e < d->pred_off[v + 1]; e++) {
            int32_t u = d->pred[e];
            if (s->level[u] + 1 > lev)
                lev = s->level[u] + 1;
            if (s->rank_scaled[u] > rpt)
                rpt = s->rank_scaled[u];
        }
        for (int32_t p = bug == BUG_MINUS1 ? -1 : 0; p < (bug == BUG_MINUS1 ? P - 1 : P); p++)
            a += cost[1 + (int64_t)v * P + p];
        for (int32_t e = d->succ_off[v]; e < d->succ_off[v + 1]; e++) {
            int32_t w = d->succ[e];
            dtc += d->succ_comm[e];
            left[w] -= bug == BUG_DEC_TWICE ? 2 : 1;
            int ready = bug == BUG_RANK_SWEEP ? !queued[w] : left[w] <= 0 && !queued[w];
            if (ready)
                queue[tail++] = w, queued[w] = 1;
        }
        acc[v] = a;
        s->level[v] = lev;
        s->rank_scaled[v] = a + (int64_t)P * dtc + rpt;
        s->rank[v] = pets_round_rank(s->rank_scaled[v], P);
    }
    free(left);
    free(queue);
    free(queued);
    free(cost);
}

/* Earliest start >= ready for length w among the slots (start, finish)
 * of one processor, sorted by start; *at is where the new one goes. */
static int64_t zoo_fit(const int64_t *ss, const int64_t *ff, int32_t cnt, int64_t ready,
                       int64_t w, int bug, int32_t *at)
{
    int32_t j = 0;
    while (j < cnt && ff[j] <= ready)
        j++;
    if (bug == BUG_SLOT_SKIP && j < cnt)
        j++;
    int64_t t = ready;
    for (; j < cnt; j++) {
        if (bug == BUG_SLOT_STRICT ? t + w < ss[j] : t + w <= ss[j]) {
            *at = j;
            return t;
        }
        if (ff[j] > t)
            t = ff[j];
    }
    *at = cnt;
    return t;
}

/* EFT selection with insertion, ties to the lowest processor. */
static void zoo_select(const pets_dag *d, int bug, pets_solution *s)
{
    int32_t n = d->ntasks, P = d->nprocs;
    int64_t *ss = malloc(sizeof *ss * (size_t)n * P), *ff = malloc(sizeof *ff * (size_t)n * P);
    int32_t *cnt = calloc((size_t)P, sizeof *cnt);
    s->makespan = 0;
    for (int32_t k = 0; k < n; k++) {
        int32_t v = s->order[k], bp = 0, bat = 0;
        int64_t bf = INT64_MAX, bs = 0;
        for (int32_t p = 0; p < P; p++) {
            int64_t ready = 0;
            for (int32_t e = d->pred_off[v]; e < d->pred_off[v + 1]; e++) {
                int32_t u = d->pred[e];
                int same = s->proc[u] == p && bug != BUG_COMM_SAME;
                int64_t r = s->finish[u] + (same ? 0 : d->pred_comm[e]);
                if (r > ready)
                    ready = r;
            }
            int64_t w = d->cost[(int64_t)v * P + p];
            int32_t at;
            int64_t st = zoo_fit(ss + (size_t)p * n, ff + (size_t)p * n, cnt[p], ready, w, bug, &at);
            if (st + w < bf)
                bf = st + w, bs = st, bp = p, bat = at;
        }
        int64_t *qs = ss + (size_t)bp * n, *qf = ff + (size_t)bp * n;
        memmove(qs + bat + 1, qs + bat, sizeof *qs * (size_t)(cnt[bp] - bat));
        memmove(qf + bat + 1, qf + bat, sizeof *qf * (size_t)(cnt[bp] - bat));
        qs[bat] = bs, qf[bat] = bf, cnt[bp]++;
        s->proc[v] = bp, s->start[v] = bs, s->finish[v] = bf;
        if (bf > s->makespan)
            s->makespan = bf;
    }
    free(ss);
    free(ff);
    free(cnt);
}

static void zoo_pets_solve(const pets_dag *d, int bug, pets_solution *s)
{
    int64_t *acc = calloc((size_t)d->ntasks, sizeof *acc);
    zoo_metrics(d, bug, s, acc);
    for (int32_t v = 0; v < d->ntasks; v++)
        s->order[v] = v;
    zoo_dag = d, zoo_level = s->level, zoo_rank = s->rank, zoo_acc = acc;
    qsort(s->order, (size_t)d->ntasks, sizeof *s->order, prio_cmp);
    zoo_select(d, bug, s);
    free(acc);
}

/* 1 when task t of the schedule could be moved by the bug: it has a
 * predecessor (sweep), two (twice), a predecessor on its own processor
 * (comm), or the oracle put another task right at its finish on its
 * processor (an exact fit). */
static int reachable(const pets_dag *d, const pets_solution *ref, int bug, int32_t t)
{
    int32_t np = d->pred_off[t + 1] - d->pred_off[t];
    switch (bug) {
    case BUG_RANK_SWEEP: return np >= 1;
    case BUG_DEC_TWICE: return np >= 2;
    case BUG_MINUS1: return 1;
    case BUG_COMM_SAME:
        for (int32_t e = d->pred_off[t]; e < d->pred_off[t + 1]; e++)
            if (ref->proc[d->pred[e]] == ref->proc[t])
                return 1;
        return 0;
    case BUG_SLOT_STRICT:
        for (int32_t u = 0; u < d->ntasks; u++)
            if (ref->proc[u] == ref->proc[t] && ref->start[u] == ref->finish[t] && u != t)
                return 1;
        return 0;
    default: return 1;
    }
}

static int run_pets_entry(const zoo_entry *self, char *msg, size_t len)
{
    pets_gen_params gp;
    pets_gen_defaults(&gp);
    gp.tasks = 96;
    gp.seed = 16;
    pets_dag d;
    memset(&d, 0, sizeof d);
    pets_solution ref, s;
    memset(&ref, 0, sizeof ref);
    memset(&s, 0, sizeof s);
    int out = ZOO_BROKEN;
    snprintf(msg, len, "set-up failed");
    if (pets_gen_dag(&gp, &d, NULL) || pets_solution_alloc(&ref, d.ntasks, NULL) ||
        pets_solution_alloc(&s, d.ntasks, NULL) ||
        pets_oracle_solve(&d, PETS_INSERTION, &ref, NULL))
        goto done;
    zoo_pets_solve(&d, self->arg, &s);
    int32_t n = d.ntasks, t;
    /* what cmd_pets.c compares, first differing task of each */
    const char *what = NULL;
    for (t = 0; t < n && !what; t++)
        if (s.level[t] != ref.level[t])
            what = "levels";
        else if (s.rank_scaled[t] != ref.rank_scaled[t] || s.rank[t] != ref.rank[t])
            what = "ranks";
    if (!what)
        for (t = 0; t < n && !what; t++)
            if (s.order[t] != ref.order[t])
                what = "order";
    /* the schedule: the first decision (in priority order) that differs */
    if (!what)
        for (t = 0; t < n && !what; t++) {
            int32_t v = s.order[t];
            if (s.proc[v] != ref.proc[v] || s.start[v] != ref.start[v] || s.finish[v] != ref.finish[v])
                what = "schedule";
        }
    t--;
    if (what && (!strcmp(what, "order") || !strcmp(what, "schedule")))
        t = s.order[t];
    pc_error err;
    pc_error_clear(&err);
    int valid = pets_oracle_validate(&d, &s, NULL, &err) == PC_OK;
    if (self->control) {
        out = !what && valid ? ZOO_REJECTED : ZOO_SLIPPED;
        snprintf(msg, len, "%s", out == ZOO_REJECTED ? "accepted" : "refused");
        goto done;
    }
    if (!what && valid) {
        snprintf(msg, len, "accepted");
        out = ZOO_SLIPPED;
        goto done;
    }
    if (!valid && self->arg == BUG_SLOT_SKIP) { /* the validator must name an overlap */
        int64_t *rows = pc_malloc_array((size_t)n * 2, sizeof *rows);
        pets_check_report rep;
        for (int32_t v = 0; v < n && rows; v++)
            rows[v] = v + 1, rows[n + v] = s.proc[v] + 1;
        int rc = rows ? pets_check_schedule(&d, n, rows, rows + n, s.start, s.finish, 0, &rep, NULL) : -1;
        pc_free(rows);
        out = rc == 0 && rep.nrecords && rep.record[0].rule == PETS_RULE_OVERLAP ? ZOO_REJECTED : ZOO_SLIPPED;
        snprintf(msg, len, "invalid: %s", rc == 0 ? rep.why : "validator failed");
        goto done;
    }
    int hit = reachable(&d, &ref, self->arg, t);
    snprintf(msg, len, "%s differ%s, first at task %ld%s%s", what, valid ? "" : " (and invalid)",
             (long)t + 1, hit ? "" : ", which the bug cannot reach", valid ? "" : "");
    out = hit ? ZOO_REJECTED : ZOO_SLIPPED;
done:
    pets_solution_free(&ref);
    pets_solution_free(&s);
    pets_dag_free(&d);
    return out;
}

const zoo_entry zoo_pets_entries[] = {
    {"pets-rank-sweep", "PETS ranks swept breadth-first, not in topological order", 0, run_pets_entry, BUG_RANK_SWEEP},
    {"pets-dec-twice", "vectorised metric loop decrementing twice", 0, run_pets_entry, BUG_DEC_TWICE},
    {"pets-metrics-minus1", "reading metrics[-1] (reduction one cell early)", 0, run_pets_entry, BUG_MINUS1},
    {"pets-comm-same-proc", "communication cost charged on the same processor", 0, run_pets_entry, BUG_COMM_SAME},
    {"pets-eft-strict-gap", "EFT slot search off by one (exact fits refused)", 0, run_pets_entry, BUG_SLOT_STRICT},
    {"pets-eft-skip-slot", "EFT slot search off by one (starts a slot late)", 0, run_pets_entry, BUG_SLOT_SKIP},
    {"pets-control", "the zoo's scheduler without a bug", 1, run_pets_entry, BUG_NONE},
    {NULL, NULL, 0, NULL, 0},
};
