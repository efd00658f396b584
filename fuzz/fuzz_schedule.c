/* fuzz_schedule.c - fuzz target "schedule": the schedule CSV reader and
 * the schedule validator.
 *
 * The input is a schedule CSV; a first line "#gK" (a comment to the reader)
 * picks the graph K mod 4 of the fixed graphs below (else graph 0), so the
 * seeds are plain schedule files. Properties checked (a violation aborts):
 *  - a refusal has a reader code (EFORMAT, ERANGE, ENOMEM), a message
 *    "fuzz.csv:LINE: ..." with LINE within the input, or "fuzz.csv: ..."
 *    for the file-level ones (empty, too many rows), and an empty result;
 *  - accepted rows have ids within the graph, times within +-2^62, at most
 *    2V rows, at most 9 decimals;
 *  - the validator (on the graph scaled to the file's decimals) agrees with
 *    a naive recomputation done here: the verdict, the makespan, the count
 *    of every rule (overlap counted pairwise, O(n^2)), records sorted by
 *    (rule, task, other) and as many as min(10, violations), the lower
 *    bound by a longest-path recursion, and makespan >= bound when valid;
 *  - everything taken from pc_alloc is given back.
 * Deterministic; inputs over FUZZ_SCHEDULE_MAX bytes are rejected. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pc_alloc.h"
#include "pets.h"
#include "pets/pets_check.h"

#define FUZZ_NAME "fuzz schedule"
#include "fuzz_check.h"

#define FUZZ_SCHEDULE_MAX (16 * 1024)
#define NGRAPHS 4

/* Small graphs with every feature the rules meet: communication across
 * processors, zero costs, an isolated task, one task, no edges. */
static const char *const graph_text[NGRAPHS] = {
    "tasks 5 processors 2\ncost 1 2 3\ncost 2 3 1\ncost 3 2 2\ncost 4 0 0\ncost 5 0 0\n"
    "edge 1 2 5\nedge 1 3 1\nedge 2 4 2\nedge 3 4 1\n",
    /* Topcuoglu et al. 2002, the HEFT example */
    "tasks 10 processors 3\ncost 1 14 16 9\ncost 2 13 19 18\ncost 3 11 13 19\ncost 4 13 8 17\n"
    "cost 5 12 13 10\ncost 6 13 16 9\ncost 7 7 15 11\ncost 8 5 11 14\ncost 9 18 12 20\n"
    "cost 10 21 7 16\nedge 1 2 18\nedge 1 3 12\nedge 1 4 9\nedge 1 5 11\nedge 1 6 14\n"
    "edge 2 8 19\nedge 2 9 16\nedge 3 7 23\nedge 4 8 27\nedge 4 9 23\nedge 5 9 13\n"
    "edge 6 8 15\nedge 7 10 17\nedge 8 10 11\nedge 9 10 13\n",
    "tasks 1 processors 3\ncost 1 7 5 9\n",
    "tasks 4 processors 1\ncost 1 4\ncost 2 0\ncost 3 3\ncost 4 0\n",
};

/* The message is "fuzz.csv:LINE: ..." with 1 <= LINE <= lines, or a
 * file-level "fuzz.csv: ...". */
static void check_refusal(int rc, const pc_error *err, const pets_schedule *s, long lines)
{
    FUZZ_CHECK(rc == PC_EFORMAT || rc == PC_ERANGE || rc == PC_ENOMEM, "refusal code %d (%s)", rc, err->msg);
    FUZZ_CHECK(s->task == NULL && s->nrows == 0, "refusal left rows");
    if (rc == PC_ENOMEM)
        return;
    const char *m = err->msg;
    FUZZ_CHECK(strncmp(m, "fuzz.csv:", 9) == 0, "message without the file: %s", m);
    if (m[9] == ' ') {
        FUZZ_CHECK(strstr(m, "empty schedule") || strstr(m, "at most twice"), "no line in: %s", m);
        return;
    }
    char *end;
    long line = strtol(m + 9, &end, 10);
    FUZZ_CHECK(end != m + 9 && *end == ':' && line >= 1 && line <= lines, "line %ld of %ld in: %s", line,
               lines, m);
}

/* The longest path of minimum costs ending at v, by recursion (the graphs
 * are small). */
static int64_t longest_to(const pets_dag *d, int32_t v)
{
    int64_t best = 0, minc = d->cost[(size_t)v * d->nprocs];
    for (int32_t p = 1; p < d->nprocs; p++)
        if (d->cost[(size_t)v * d->nprocs + p] < minc)
            minc = d->cost[(size_t)v * d->nprocs + p];
    for (int32_t e = 0; e < d->nedges; e++)
        if (d->edge_to[e] == v) {
            int64_t x = longest_to(d, d->edge_from[e]);
            if (x > best)
                best = x;
        }
    return best + minc;
}

/* The rules recomputed naively: counts per rule, makespan. */
static void naive(const pets_dag *d, const pets_schedule *s, int64_t count[PETS_RULE_COUNT],
                  int64_t *makespan)
{
    int32_t n = d->ntasks, P = d->nprocs;
    int64_t first[16];
    memset(count, 0, PETS_RULE_COUNT * sizeof *count);
    *makespan = 0;
    for (int32_t t = 0; t < n; t++) {
        first[t] = -1;
        for (int64_t r = 0; r < s->nrows && first[t] < 0; r++)
            if (s->task[r] == t + 1)
                first[t] = r;
    }
    for (int32_t t = 0; t < n; t++) {
        int64_t r = first[t];
        if (r < 0) {
            count[PETS_RULE_MISSING]++;
            continue;
        }
        count[PETS_RULE_NEGATIVE] += s->start[r] < 0 || s->finish[r] < 0;
        /* a sum, not finish - start: times span +-2^62 and a difference could pass int64 */
        count[PETS_RULE_DURATION] += s->finish[r] != s->start[r] + d->cost[(size_t)t * P + s->proc[r] - 1];
        if (s->finish[r] > *makespan)
            *makespan = s->finish[r];
        /* overlap: t is counted when an interval before it (by start, then
         * task) on its processor is still running at its start */
        int hit = 0;
        for (int32_t u = 0; u < n && s->finish[r] > s->start[r]; u++) {
            int64_t q = first[u];
            if (u == t || q < 0 || s->proc[q] != s->proc[r] || s->finish[q] <= s->start[q])
                continue;
            int before = s->start[q] < s->start[r] || (s->start[q] == s->start[r] && u < t);
            hit |= before && s->finish[q] > s->start[r];
        }
        count[PETS_RULE_OVERLAP] += hit;
    }
    count[PETS_RULE_DUPLICATE] = s->nrows - (n - count[PETS_RULE_MISSING]);
    for (int32_t e = 0; e < d->nedges; e++) {
        int64_t ru = first[d->edge_from[e]], rv = first[d->edge_to[e]];
        if (ru < 0 || rv < 0)
            continue;
        int64_t comm = s->proc[ru] == s->proc[rv] ? 0 : d->edge_comm[e];
        count[PETS_RULE_PRECEDENCE] += s->start[rv] < s->finish[ru] + comm;
    }
}

static void check_verdict(const pets_dag *d, const pets_schedule *s)
{
    int64_t unit = 1;
    for (int k = 0; k < s->decimals; k++)
        unit *= 10;
    pets_dag scaled;
    pc_error err;
    int rc = pets_dag_scale(&scaled, d, unit, &err);
    if (rc) { /* the CLI refuses such a file too (exit 2) */
        FUZZ_CHECK(rc == PC_ERANGE || rc == PC_ENOMEM, "scale: %s", err.msg);
        return;
    }
    pets_check_report rep;
    rc = pets_check_schedule(&scaled, s->nrows, s->task, s->proc, s->start, s->finish, s->decimals, &rep, &err);
    if (rc) {
        FUZZ_CHECK(rc == PC_ENOMEM, "validator refused rows the reader accepted: %s", err.msg);
        pets_dag_free(&scaled);
        return;
    }
    int64_t count[PETS_RULE_COUNT], makespan, total = 0;
    naive(&scaled, s, count, &makespan);
    for (int k = 0; k < PETS_RULE_COUNT; k++) {
        FUZZ_CHECK(rep.count[k] == count[k], "rule %s: %lld counted, naive %lld", pets_rule_name(k),
                   (long long)rep.count[k], (long long)count[k]);
        total += count[k];
    }
    FUZZ_CHECK(rep.count[PETS_RULE_PROCESSOR] == 0, "processor violations after the reader");
    FUZZ_CHECK(rep.violations == total && rep.valid == (total == 0), "verdict %d with %lld violations",
               rep.valid, (long long)rep.violations);
    FUZZ_CHECK(rep.nrecords == (total < PETS_CHECK_MAX_RECORDS ? total : PETS_CHECK_MAX_RECORDS),
               "%d records for %lld violations", rep.nrecords, (long long)total);
    FUZZ_CHECK(rep.valid == (rep.why[0] == '\0'), "why '%s' with verdict %d", rep.why, rep.valid);
    for (int k = 0; k < rep.nrecords; k++) {
        const pets_violation *x = &rep.record[k], *y = k ? &rep.record[k - 1] : NULL;
        FUZZ_CHECK(x->task >= 1 && x->task <= d->ntasks && x->other >= 0 && x->other <= d->ntasks,
                   "record %d names task %lld / %lld", k, (long long)x->task, (long long)x->other);
        FUZZ_CHECK(!y || y->rule < x->rule || (y->rule == x->rule && (y->task < x->task ||
                   (y->task == x->task && y->other <= x->other))), "record %d out of order", k);
    }
    FUZZ_CHECK(rep.makespan == makespan, "makespan %lld, naive %lld", (long long)rep.makespan,
               (long long)makespan);
    int64_t lb = 0;
    for (int32_t v = 0; v < d->ntasks; v++) {
        int64_t x = longest_to(&scaled, v);
        lb = x > lb ? x : lb;
    }
    FUZZ_CHECK(rep.lower_bound == lb, "lower bound %lld, naive %lld", (long long)rep.lower_bound, (long long)lb);
    FUZZ_CHECK(!rep.valid || rep.makespan >= lb, "valid with makespan %lld below the bound %lld",
               (long long)rep.makespan, (long long)lb);
    pets_dag_free(&scaled);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > FUZZ_SCHEDULE_MAX)
        return 0; /* over the cap: rejected */
    long live = pc_alloc_live();
    int g = size >= 3 && data[0] == '#' && data[1] == 'g' && data[2] >= '0' && data[2] <= '9'
                ? (data[2] - '0') % NGRAPHS
                : 0;
    /* parsed for each input (microseconds), so that nothing outlives it */
    pets_dag dag;
    pc_error err;
    FUZZ_CHECK(pets_dag_parse(graph_text[g], strlen(graph_text[g]), "fixed.dag", &dag, &err) == 0,
               "graph %d: %s", g, err.msg);
    const pets_dag *d = &dag;
    long lines = 1;
    for (size_t k = 0; k < size; k++)
        lines += data[k] == '\n';
    pets_schedule s;
    pc_error_clear(&err);
    int rc = pets_schedule_parse_csv((const char *)data, size, "fuzz.csv", d->ntasks, d->nprocs, &s, &err);
    if (rc) {
        check_refusal(rc, &err, &s, lines);
    } else {
        FUZZ_CHECK(s.nrows >= 0 && s.nrows <= 2 * (int64_t)d->ntasks, "%lld rows", (long long)s.nrows);
        FUZZ_CHECK(s.decimals >= 0 && s.decimals <= PETS_SCHED_MAX_DECIMALS, "%d decimals", s.decimals);
        for (int64_t r = 0; r < s.nrows; r++)
            FUZZ_CHECK(s.task[r] >= 1 && s.task[r] <= d->ntasks && s.proc[r] >= 1 && s.proc[r] <= d->nprocs &&
                           s.start[r] >= -PETS_SCHED_MAX_TIME && s.start[r] <= PETS_SCHED_MAX_TIME &&
                           s.finish[r] >= -PETS_SCHED_MAX_TIME && s.finish[r] <= PETS_SCHED_MAX_TIME,
                       "row %lld out of range", (long long)r);
        check_verdict(d, &s);
        pets_schedule_free(&s);
    }
    pets_dag_free(&dag);
    FUZZ_CHECK(pc_alloc_live() == live, "schedule: %ld allocations leaked", pc_alloc_live() - live);
    return 0;
}
