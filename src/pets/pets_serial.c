/* pets_serial.c - the `serial` implementation: the four phases in C on the
 * host (entry discovery, levels and ranks in topological order, priority
 * sort, processor selection). */
#include <stdlib.h>
#include <string.h>

#include "pc_alloc.h"
#include "pc_time.h"
#include "pets_priv.h"

int pets_serial_available(const pets_options *o, char *why, size_t whylen)
{
    (void)o;
    if (whylen)
        why[0] = '\0';
    return 1;
}

int pets_serial_run(const pets_dag *dag, const pets_options *o, pets_solution *s, pets_times *t,
                      pc_error *err)
{
    int32_t n = dag->ntasks, P = dag->nprocs;
    memset(t, 0, sizeof *t);
    int32_t *left = pc_malloc_array((size_t)n, sizeof *left);
    int32_t *queue = pc_malloc_array((size_t)n, sizeof *queue);
    int64_t *sumcost = pc_malloc_array((size_t)n, sizeof *sumcost);
    int rc = PC_OK;
    if (!left || !queue || !sumcost) {
        rc = pc_error_nomem(err, "running serial PETS");
        goto out;
    }
    double t0 = pc_time_now();
    int32_t tail = 0;
    for (int32_t v = 0; v < n; v++) {
        left[v] = dag->pred_off[v + 1] - dag->pred_off[v];
        if (!left[v])
            queue[tail++] = v;
    }
    double t1 = pc_time_now();
    for (int32_t head = 0; head < tail; head++) {
        int32_t v = queue[head];
        int32_t lev = 0;
        int64_t rpt = 0, acc = 0, dtc = 0;
        for (int32_t e = dag->pred_off[v]; e < dag->pred_off[v + 1]; e++) {
            int32_t u = dag->pred[e];
            if (s->level[u] + 1 > lev)
                lev = s->level[u] + 1;
            if (s->rank_scaled[u] > rpt)
                rpt = s->rank_scaled[u];
        }
        for (int32_t p = 0; p < P; p++)
            acc += dag->cost[(int64_t)v * P + p];
        for (int32_t e = dag->succ_off[v]; e < dag->succ_off[v + 1]; e++) {
            dtc += dag->succ_comm[e];
            if (--left[dag->succ[e]] == 0)
                queue[tail++] = dag->succ[e];
        }
        sumcost[v] = acc;
        s->level[v] = lev;
        s->rank_scaled[v] = acc + (int64_t)P * dtc + rpt;
        s->rank[v] = pets_round_rank(s->rank_scaled[v], P);
    }
    double t2 = pc_time_now();
    if (tail != n) {
        rc = pc_error_set(err, PC_EINVAL, NULL, 0, "task graph has a cycle");
        goto out;
    }
    for (int32_t v = 0; v < n; v++)
        s->order[v] = v;
    pets_prio_keys keys = {s->level, s->rank, sumcost};
    qsort_r(s->order, (size_t)n, sizeof *s->order, pets_prio_qsort_cmp, &keys);
    double t3 = pc_time_now();
    rc = pets_select_run(dag, o, 1, s, err);
    double t4 = pc_time_now();
    t->entry = t1 - t0;
    t->metrics = t2 - t1;
    t->sort = t3 - t2;
    t->select = t4 - t3;
    t->total = t4 - t0;
out:
    pc_free(left);
    pc_free(queue);
    pc_free(sumcost);
    return rc;
}

