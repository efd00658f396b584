/* pets_select_linear.c - the seed's processor selection (`--select linear`),
 * kept as the baseline the gap index is measured against: each processor's
 * slots in one sorted array, searched forward from the first slot ending
 * after the ready time, and a booking moves the slots after it. Insertion
 * (a task may go into an idle gap) or append (after the last task of p). */
#include <string.h>

#include "pc_alloc.h"
#include "pets_priv.h"

typedef struct slot {
    int64_t s, f;
} slot;

typedef struct proc_slots {
    slot *v;
    int32_t n, cap;
} proc_slots;

/* Earliest start >= ready of a task of length w on a processor whose slots
 * (sorted by start, so their finishes are sorted too) are q; *at is where
 * the new slot goes. */
static int64_t slots_fit(const proc_slots *q, int64_t ready, int64_t w, int32_t *at)
{
    int32_t lo = 0, hi = q->n;
    while (lo < hi) { /* first slot finishing after ready */
        int32_t mid = lo + (hi - lo) / 2;
        if (q->v[mid].f <= ready)
            lo = mid + 1;
        else
            hi = mid;
    }
    int64_t t = ready;
    for (int32_t j = lo; j < q->n; j++) {
        if (t + w <= q->v[j].s) {
            *at = j;
            return t;
        }
        if (q->v[j].f > t)
            t = q->v[j].f;
    }
    *at = q->n;
    return t;
}

static int slots_insert(proc_slots *q, int32_t at, int64_t s, int64_t f)
{
    if (q->n == q->cap) {
        int32_t cap = q->cap ? q->cap * 2 : 16;
        slot *v = pc_realloc(q->v, (size_t)cap * sizeof *v);
        if (!v)
            return PC_ENOMEM;
        q->v = v;
        q->cap = cap;
    }
    memmove(q->v + at + 1, q->v + at, (size_t)(q->n - at) * sizeof *q->v);
    q->v[at] = (slot){s, f};
    q->n++;
    return PC_OK;
}

int pets_select_linear(const pets_dag *dag, int policy, pets_solution *s, pc_error *err)
{
    int32_t n = dag->ntasks, P = dag->nprocs;
    int insertion = policy == PETS_INSERTION;
    proc_slots *slots = insertion ? pc_calloc((size_t)P, sizeof *slots) : NULL;
    int64_t *last = pc_calloc((size_t)P, sizeof *last);
    unsigned char *done = pc_calloc((size_t)n, 1);
    int rc = PC_OK;
    if ((insertion && !slots) || !last || !done) {
        rc = pc_error_nomem(err, "selecting processors");
        goto out;
    }
    s->makespan = 0;
    for (int32_t k = 0; k < n && !rc; k++) {
        int32_t v = s->order[k];
        if (v < 0 || v >= n || done[v]) {
            rc = pc_error_set(err, PC_EVERIFY, NULL, 0, "priority order: position %ld holds %ld, not a new task",
                              (long)k, (long)v + 1);
            break;
        }
        for (int32_t e = dag->pred_off[v]; e < dag->pred_off[v + 1]; e++)
            if (!done[dag->pred[e]]) {
                rc = pc_error_set(err, PC_EVERIFY, NULL, 0,
                                  "priority order: task %ld comes before its predecessor %ld",
                                  (long)v + 1, (long)dag->pred[e] + 1);
                break;
            }
        if (rc)
            break;
        int64_t best_f = INT64_MAX, best_s = 0;
        int32_t best_p = 0, best_at = 0;
        for (int32_t p = 0; p < P; p++) {
            int64_t ready = 0;
            for (int32_t e = dag->pred_off[v]; e < dag->pred_off[v + 1]; e++) {
                int32_t u = dag->pred[e];
                int64_t r = s->finish[u] + (s->proc[u] == p ? 0 : dag->pred_comm[e]);
                if (r > ready)
                    ready = r;
            }
            int64_t w = dag->cost[(int64_t)v * P + p], st;
            int32_t at = 0;
            if (insertion)
                st = slots_fit(&slots[p], ready, w, &at);
            else
                st = ready > last[p] ? ready : last[p];
            if (st + w < best_f) {
                best_f = st + w;
                best_s = st;
                best_p = p;
                best_at = at;
            }
        }
        if (insertion && slots_insert(&slots[best_p], best_at, best_s, best_f)) {
            rc = pc_error_nomem(err, "selecting processors");
            break;
        }
        if (best_f > last[best_p])
            last[best_p] = best_f;
        s->proc[v] = best_p;
        s->start[v] = best_s;
        s->finish[v] = best_f;
        if (best_f > s->makespan)
            s->makespan = best_f;
        done[v] = 1;
    }
out:
    if (slots)
        for (int32_t p = 0; p < P; p++)
            pc_free(slots[p].v);
    pc_free(slots);
    pc_free(last);
    pc_free(done);
    return rc;
}
