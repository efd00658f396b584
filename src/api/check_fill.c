/* check_fill.c - the three checkers' reports as pc_results (check_fill.h). */
#include <stdio.h>
#include <string.h>

#include "check_fill.h"

void check_fill_spmm(pc_result *r, const spmm_check_report *rep)
{
    pc_kv_num(&r->metrics, "max_rel_err", rep->max_rel_err);
    pc_kv_num(&r->metrics, "mean_rel_err", rep->mean_rel_err);
    pc_kv_num(&r->metrics, "max_err_over_bound", rep->max_err_over_bound);
    pc_kv_num(&r->metrics, "unit_roundoff", rep->unit_roundoff);
    pc_kv_int(&r->metrics, "entries_checked", rep->checked);
    pc_kv_bool(&r->metrics, "exact_required", rep->exact);
    pc_kv_int(&r->metrics, "bad_entries", rep->bad);
    pc_kv_int(&r->metrics, "bad_rows", rep->bad_rows);
    pc_kv_int(&r->metrics, "slow_path_entries", rep->slow_undecided + rep->slow_special);
    pc_kv_int(&r->metrics, "slow_undecided", rep->slow_undecided);
    pc_kv_int(&r->metrics, "slow_special", rep->slow_special);
    if (rep->pass) {
        pc_result_status(r, PC_STATUS_PASS, "%s", "");
        return;
    }
    pc_result_status(r, PC_STATUS_FAIL, "%s (%lld bad entries)", rep->why, (long long)rep->bad);
    /* 1-based, as the why text and Matrix Market count */
    for (int f = 0; f < rep->nfail; f++) {
        pc_kvlist *w = pc_result_where_add(r);
        if (!w)
            break;
        const spmm_check_entry *e = &rep->fail[f];
        pc_kv_int(w, "row", e->row + 1);
        pc_kv_int(w, "col", (long long)e->col + 1);
        pc_kv_num(w, "got", e->got);
        pc_kv_num(w, "expected", e->expected);
        pc_kv_num(w, "bound", e->bound);
    }
    snprintf(r->where_summary, sizeof r->where_summary, "%s", rep->rows);
}

/* An SA value: exact; a uint64 element above INT64_MAX does not fit the
 * integer kind and is kept as its decimal text. */
static void sa_value(pc_kvlist *l, const char *key, const sa_check_where *w)
{
    if (!w->got_u64) {
        pc_kv_int(l, key, w->got);
        return;
    }
    char text[24];
    snprintf(text, sizeof text, "%llu", (unsigned long long)(uint64_t)w->got);
    pc_kv_str(l, key, text);
}

/* One located SA failure: index and rule, then what that rule knows. */
static void sa_where(pc_kvlist *l, const sa_check_where *w)
{
    pc_kv_int(l, "index", w->index);
    pc_kv_str(l, "rule", sa_check_rule_name(w->rule));
    switch (w->rule) {
    case SA_CHECK_PERMUTATION:
        sa_value(l, "sa", w);
        pc_kv_str(l, "problem", w->duplicate ? "duplicate" : "out of range");
        if (w->duplicate)
            pc_kv_int(l, "first_index", w->first);
        break;
    case SA_CHECK_ORDER:
        pc_kv_int(l, "sa_prev", w->prev);
        sa_value(l, "sa", w);
        pc_kv_str(l, "prev_bytes", w->prev_text);
        pc_kv_str(l, "bytes", w->text);
        /* a pair in order by itself fails through its successors' places */
        pc_kv_bool(l, "inverted", w->inverted);
        if (!w->inverted) {
            pc_kv_int(l, "succ_prev_index", w->next_prev);
            pc_kv_int(l, "succ_index", w->next);
        }
        break;
    default:
        sa_value(l, "got", w);
        pc_kv_int(l, "expected", w->expected);
        break;
    }
}

void check_fill_sa(pc_result *r, const sa_check_report *rep, int width)
{
    /* lcp_equal and the repeat only where computed: both need a right SA */
    pc_kv_bool(&r->metrics, "sa_equal", rep->sa_valid);
    if (rep->lcp_checked)
        pc_kv_bool(&r->metrics, "lcp_equal", rep->lcp_valid);
    if (rep->sa_valid) {
        pc_kv_int(&r->metrics, "lrs_length", rep->lrs_length);
        pc_kv_int(&r->metrics, "lrs_pos", rep->lrs_pos);
        pc_kv_int(&r->metrics, "lrs_pos2", rep->lrs_pos2);
    }
    pc_kv_int(&r->metrics, "n", rep->n);
    pc_kv_int(&r->metrics, "width", width);
    if (rep->pass) {
        pc_result_status(r, PC_STATUS_PASS, "%s", "");
        return;
    }
    pc_result_status(r, PC_STATUS_FAIL, "%s", rep->why);
    check_fill_sa_where(r, rep);
}

void check_fill_sa_where(pc_result *r, const sa_check_report *rep)
{
    for (int k = 0; k < rep->nwhere; k++) {
        pc_kvlist *l = pc_result_where_add(r);
        if (!l)
            break;
        sa_where(l, &rep->where[k]);
    }
    long long n = (long long)rep->n;
    char *s = r->where_summary;
    size_t cap = sizeof r->where_summary;
    if (rep->rule == SA_CHECK_PERMUTATION)
        snprintf(s, cap, "not a permutation: %lld entries outside [0, %lld), %lld duplicated; "
                 "first missing position %lld", (long long)rep->out_of_range, n,
                 (long long)rep->duplicates, (long long)rep->first_missing);
    else if (rep->rule == SA_CHECK_ORDER)
        snprintf(s, cap, "%lld of %lld adjacent pairs fail the order test "
                 "(index i: SA[i-1], SA[i]); all other pairs pass", (long long)rep->unsorted, n - 1);
    else if (rep->rule == SA_CHECK_LCP)
        snprintf(s, cap, "SA right; %lld of %lld LCP entries wrong", (long long)rep->lcp_wrong, n);
}

void check_fill_pets(pc_result *r, const pets_check_report *rep)
{
    pc_kv_bool(&r->metrics, "valid", rep->valid);
    pc_kv_int(&r->metrics, "makespan", rep->makespan);
    pc_kv_int(&r->metrics, "lower_bound", rep->lower_bound);
    pc_kv_num(&r->metrics, "slr", rep->slr);
    pc_kv_int(&r->metrics, "pets_insertion_makespan", rep->pets_makespan[PETS_INSERTION]);
    pc_kv_int(&r->metrics, "pets_append_makespan", rep->pets_makespan[PETS_APPEND]);
    pc_kv_int(&r->metrics, "violations", rep->violations);
    if (rep->valid) {
        pc_result_status(r, PC_STATUS_PASS,
                         "makespan %lld (PETS: insertion %lld, append %lld); SLR %.3f",
                         (long long)rep->makespan, (long long)rep->pets_makespan[PETS_INSERTION],
                         (long long)rep->pets_makespan[PETS_APPEND], rep->slr);
        return;
    }
    pc_result_status(r, PC_STATUS_FAIL, "invalid schedule: %s", rep->why);
    check_fill_pets_where(r, rep);
}

void check_fill_pets_where(pc_result *r, const pets_check_report *rep)
{
    for (int k = 0; k < rep->nrecords; k++) {
        pc_kvlist *w = pc_result_where_add(r);
        if (!w)
            break;
        const pets_violation *x = &rep->record[k];
        pc_kv_str(w, "rule", pets_rule_name(x->rule));
        pc_kv_int(w, "task", x->task);
        pc_kv_int(w, "other", x->other);
        pc_kv_int(w, "proc", x->proc);
        pc_kv_int(w, "start", x->start);
        pc_kv_int(w, "finish", x->finish);
    }
    size_t cap = sizeof r->where_summary, len = 0;
    len += (size_t)snprintf(r->where_summary, cap, "%lld violation%s:", (long long)rep->violations,
                            rep->violations == 1 ? "" : "s");
    for (int k = 0; k < PETS_RULE_COUNT && len < cap; k++)
        if (rep->count[k])
            len += (size_t)snprintf(r->where_summary + len, cap - len, " %s %lld",
                                    pets_rule_name(k), (long long)rep->count[k]);
}
