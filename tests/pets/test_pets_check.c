/* test_pets_check.c - schedule files and the schedule validator: the CSV
 * and JSON readers (exact decimals, CRLF, comments, every refusal with its
 * line), each rule of oracles/pets/pets_check.h planted once on a small
 * graph with its exact location, deterministic records, irregular graphs,
 * and allocation-failure loops over the readers and the validator. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pc_alloc.h"
#include "pets/pets_check.h"
#include "pets_tutil.h"

/* Five tasks on two processors: 1 -> 2 (comm 5), 1 -> 3 (1), 2 -> 4 (2),
 * 3 -> 4 (1); task 4 costs nothing, task 5 is isolated and costs nothing.
 * The valid schedule runs 1, 3, 2, 4 on P1 (no communication there) and 5
 * on P2: makespan 7; minimum costs 2, 1, 2, 0, 0 give the bound 4. */
static const char *const SMALL_DAG = "tasks 5 processors 2\n"
                                     "cost 1 2 3\ncost 2 3 1\ncost 3 2 2\ncost 4 0 0\ncost 5 0 0\n"
                                     "edge 1 2 5\nedge 1 3 1\nedge 2 4 2\nedge 3 4 1\n";
static const char *const SMALL_OK = "task,proc,start,finish\n"
                                    "1,1,0,2\n3,1,2,4\n2,1,4,7\n4,1,7,7\n5,2,0,0\n";

static pets_dag g_dag;

static void small_setup(void)
{
    pc_error err;
    ck_assert_int_eq(pets_dag_parse(SMALL_DAG, strlen(SMALL_DAG), "small.dag", &g_dag, &err), 0);
}

static void small_teardown(void)
{
    pets_dag_free(&g_dag);
}

/* Reads CSV text for g_dag into s, expecting rc; err holds the message. */
static int read_csv(const char *text, pets_schedule *s, pc_error *err)
{
    pc_error_clear(err);
    return pets_schedule_parse_csv(text, strlen(text), "s.csv", g_dag.ntasks, g_dag.nprocs, s, err);
}

/* Reads and validates CSV text against g_dag; the rows must read. */
static void judge(const char *text, pets_check_report *rep)
{
    pets_schedule s;
    pc_error err;
    ck_assert_msg(read_csv(text, &s, &err) == 0, "%s", err.msg);
    ck_assert_int_eq(pets_check_schedule(&g_dag, s.nrows, s.task, s.proc, s.start, s.finish, s.decimals,
                                         rep, &err),
                     0);
    pets_schedule_free(&s);
}

/* rep holds exactly one violation, located as given. */
static void assert_one(const pets_check_report *rep, int rule, int64_t task, int64_t other, int64_t proc,
                       int64_t start, int64_t finish)
{
    ck_assert_msg(!rep->valid && rep->violations == 1 && rep->nrecords == 1,
                  "expected one %s violation, got %lld: %s", pets_rule_name(rule),
                  (long long)rep->violations, rep->why);
    const pets_violation *x = &rep->record[0];
    ck_assert_msg(x->rule == rule && x->task == task && x->other == other && x->proc == proc &&
                      x->start == start && x->finish == finish,
                  "got %s task %lld other %lld P%lld [%lld, %lld)", pets_rule_name(x->rule),
                  (long long)x->task, (long long)x->other, (long long)x->proc, (long long)x->start,
                  (long long)x->finish);
    ck_assert_int_eq(rep->count[rule], 1);
}

/* ---- reader ------------------------------------------------------------ */

START_TEST(csv_reads_rows_as_written)
{
    pets_schedule s;
    pc_error err;
    ck_assert_int_eq(read_csv("\xEF\xBB\xBF# made by hand\r\n task , proc,start ,finish\r\n\r\n"
                              "# a comment line\r\n 3 ,\t2, 10 , 12\r\n1,1,0,2\r\n\r\n\n",
                              &s, &err),
                     0);
    ck_assert_int_eq(s.nrows, 2);
    ck_assert_int_eq(s.decimals, 0);
    ck_assert_int_eq(s.json, 0);
    ck_assert(s.task[0] == 3 && s.proc[0] == 2 && s.start[0] == 10 && s.finish[0] == 12);
    ck_assert(s.task[1] == 1 && s.proc[1] == 1 && s.start[1] == 0 && s.finish[1] == 2);
    pets_schedule_free(&s);
    /* a zero with any exponent the reader takes is zero */
    ck_assert_int_eq(read_csv("task,proc,start,finish\n1,1,0e99999,2\n", &s, &err), 0);
    ck_assert(s.start[0] == 0 && s.finish[0] == 2 && s.decimals == 0);
    pets_schedule_free(&s);
    /* a header and nothing else: a schedule of no rows (every task missing) */
    ck_assert_int_eq(read_csv("task,proc,start,finish", &s, &err), 0);
    ck_assert_int_eq(s.nrows, 0);
    pets_schedule_free(&s);
}
END_TEST

START_TEST(csv_decimals_are_exact)
{
    pets_schedule s;
    pc_error err;
    /* 3 then 0.25: the file's scale rises to 2 decimals and row 1 follows */
    ck_assert_int_eq(read_csv("task,proc,start,finish\n1,1,3,5\n2,2,0.25,1.50\n3,1,1e1,1.25e1\n"
                              "4,2,-0.5,+7.000\n",
                              &s, &err),
                     0);
    ck_assert_int_eq(s.decimals, 2);
    int64_t want_s[4] = {300, 25, 1000, -50}, want_f[4] = {500, 150, 1250, 700};
    for (int k = 0; k < 4; k++)
        ck_assert_msg(s.start[k] == want_s[k] && s.finish[k] == want_f[k], "row %d: %lld %lld", k,
                      (long long)s.start[k], (long long)s.finish[k]);
    pets_schedule_free(&s);
    /* the scale rises inside one row: the start already read follows */
    ck_assert_int_eq(read_csv("task,proc,start,finish\n1,1,3,3.5\n", &s, &err), 0);
    ck_assert(s.decimals == 1 && s.start[0] == 30 && s.finish[0] == 35);
    pets_schedule_free(&s);
    /* nine decimals, and trailing zeros do not count */
    ck_assert_int_eq(read_csv("task,proc,start,finish\n1,1,0.000000001,2.5000000000000\n", &s, &err), 0);
    ck_assert(s.decimals == 9 && s.start[0] == 1 && s.finish[0] == 2500000000LL);
    pets_schedule_free(&s);
}
END_TEST

/* Each bad file: the code, the line and the whole message (PC_OK: read). */
static const struct {
    const char *text;
    int rc;
    int line; /* 0: no line */
    const char *msg;
} bad_csv[] = {
    {"", PC_EFORMAT, 0, "s.csv: empty schedule: no header line 'task,proc,start,finish'"},
    {"# only a comment\n\n  \n", PC_EFORMAT, 0, "s.csv: empty schedule: no header line 'task,proc,start,finish'"},
    {"1,1,0,2\n", PC_EFORMAT, 1, "s.csv:1: the header line 'task,proc,start,finish' is missing (this line holds data)"},
    {"task,proc,start\n1,1,0\n", PC_EFORMAT, 1, "s.csv:1: expected the header 'task,proc,start,finish', found 'task,proc,start'"},
    {"job,proc,start,finish\n1,1,0,2\n", PC_EFORMAT, 1, "s.csv:1: expected the header 'task,proc,start,finish', found 'job,proc,start,finish'"},
    {"task,cpu,start,finish\n1,1,0,2\n", PC_EFORMAT, 1, "s.csv:1: expected the header 'task,proc,start,finish', found 'task,cpu,start,finish'"},
    {",task,proc,start,finish\n", PC_EFORMAT, 1, "s.csv:1: expected the header 'task,proc,start,finish', found ',task,proc,start,finish' (5 columns: an index column? pandas: index=False)"},
    {"task,proc,start,finish\n1,1,0,2\n1,1,0\n", PC_EFORMAT, 3, "s.csv:3: expected 4 columns (task,proc,start,finish), found 3"},
    {"task,proc,start,finish\n1,1,0,2,9\n", PC_EFORMAT, 2, "s.csv:2: expected 4 columns (task,proc,start,finish), found 5"},
    {"task,proc,start,finish\n0,1,0,2\n", PC_EFORMAT, 2, "s.csv:2: unknown task '0': the graph has tasks 1..5"},
    {"task,proc,start,finish\n6,1,0,2\n", PC_EFORMAT, 2, "s.csv:2: unknown task '6': the graph has tasks 1..5"},
    {"task,proc,start,finish\n99999999999999999999999,1,0,2\n", PC_EFORMAT, 2, "s.csv:2: unknown task '99999999999999999999999': the graph has tasks 1..5"},
    {"task,proc,start,finish\n1,3,0,2\n", PC_EFORMAT, 2, "s.csv:2: unknown processor '3': the graph has processors 1..2"},
    {"task,proc,start,finish\n1,0,0,2\n", PC_EFORMAT, 2, "s.csv:2: unknown processor '0': the graph has processors 1..2"},
    {"task,proc,start,finish\n1.0,1,0,2\n", PC_EFORMAT, 2, "s.csv:2: task '1.0' is not a task id"},
    {"task,proc,start,finish\n1,-1,0,2\n", PC_EFORMAT, 2, "s.csv:2: proc '-1' is not a processor id"},
    {"task,proc,start,finish\n1,1,zero,2\n", PC_EFORMAT, 2, "s.csv:2: start 'zero' is not a number"},
    {"task,proc,start,finish\n1,1,0,2x\n", PC_EFORMAT, 2, "s.csv:2: finish '2x' is not a number"},
    {"task,proc,start,finish\n1,1,0,\n", PC_EFORMAT, 2, "s.csv:2: finish '' is not a number"},
    {"task,proc,start,finish\n1,1,1.2.3,2\n", PC_EFORMAT, 2, "s.csv:2: start '1.2.3' is not a number"},
    {"task,proc,start,finish\n1,1,0,nan\n", PC_EFORMAT, 2, "s.csv:2: finish 'nan' is not a number"},
    {"task,proc,start,finish\n1,1,0,1e\n", PC_EFORMAT, 2, "s.csv:2: finish '1e' is not a number"},
    {"task,proc,start,finish\n1,1,0,2\r3\n", PC_EFORMAT, 2, "s.csv:2: finish '2?3' is not a number"},
    {"task,proc,start,finish\n1,1,0,2\n2,1,0.0000000001,2\n", PC_ERANGE, 3, "s.csv:3: start '0.0000000001' is out of range (|time| <= 2^62 units, at most 9 decimal places)"},
    {"task,proc,start,finish\n1,1,0,4611686018427387905\n", PC_ERANGE, 2, "s.csv:2: finish '4611686018427387905' is out of range (|time| <= 2^62 units, at most 9 decimal places)"},
    {"task,proc,start,finish\n1,1,0,1e19\n", PC_ERANGE, 2, "s.csv:2: finish '1e19' is out of range (|time| <= 2^62 units, at most 9 decimal places)"},
    {"task,proc,start,finish\n1,1,0,1e999999\n", PC_ERANGE, 2, "s.csv:2: finish '1e999999' is out of range (|time| <= 2^62 units, at most 9 decimal places)"},
    {"task,proc,start,finish\n1,1,0,4611686018427387904\n1,1,0,0.5\n", PC_ERANGE, 3, "s.csv:3: with 1 decimal places here, an earlier time passes +-2^62 units of 10^-1"},
    {"task,proc,start,finish\n1,1,0,2\n1,1,0,2\n1,1,0,2\n1,1,0,2\n1,1,0,2\n1,1,0,2\n"
     "1,1,0,2\n1,1,0,2\n1,1,0,2\n1,1,0,2\n1,1,0,2\n",
     PC_ERANGE, 0, "s.csv: 11 rows for a graph of 5 tasks (at most twice as many rows as tasks)"},
    /* 10^18 fits, but not once a later row's decimal makes it 10^19 tenths */
    {"task,proc,start,finish\n1,1,0,1000000000000000000\n1,1,0,0.5\n", PC_ERANGE, 3, "s.csv:3: with 1 decimal places here, an earlier time passes +-2^62 units of 10^-1"},
    /* twice as many rows as tasks is read (and judged); one more is not */
    {"task,proc,start,finish\n1,1,0,2\n1,1,0,2\n1,1,0,2\n1,1,0,2\n1,1,0,2\n1,1,0,2\n"
     "1,1,0,2\n1,1,0,2\n1,1,0,2\n1,1,0,2\n",
     PC_OK, 0, ""},
};

START_TEST(csv_refusals_name_the_line)
{
    int i = _i;
    pets_schedule s;
    pc_error err;
    int rc = read_csv(bad_csv[i].text, &s, &err);
    ck_assert_msg(rc == bad_csv[i].rc, "case %d: rc %d (%s)", i, rc, err.msg);
    if (rc == PC_OK) {
        ck_assert_int_eq(s.nrows, 10);
        pets_schedule_free(&s);
        return;
    }
    char where[32];
    if (bad_csv[i].line)
        snprintf(where, sizeof where, "s.csv:%d: ", bad_csv[i].line);
    else
        snprintf(where, sizeof where, "s.csv: ");
    ck_assert_msg(strncmp(err.msg, where, strlen(where)) == 0, "case %d: '%s' does not start with '%s'", i,
                  err.msg, where);
    ck_assert_msg(!strcmp(err.msg, bad_csv[i].msg), "case %d: '%s', expected '%s'", i, err.msg,
                  bad_csv[i].msg);
    ck_assert_ptr_null(s.task);
    ck_assert_int_eq(s.nrows, 0);
}
END_TEST

START_TEST(json_reads_what_the_writer_writes)
{
    pets_schedule s;
    pc_error err;
    const char *ok = "{\"tool\":\"parcheck\",\"kind\":\"schedule\",\"tasks\":5,\"procs\":2,\n\"schedule\":[\n"
                     "{\"task\":2,\"proc\":1,\"start\":4,\"finish\":7},\n"
                     "{\"task\":1,\"proc\":2,\"start\":0,\"finish\":3}]}\n";
    int rc = pets_schedule_parse_json(ok, strlen(ok), "s.json", 5, 2, &s, &err);
    if (!pets_schedule_json_available()) {
        ck_assert_int_eq(rc, PC_EUNAVAIL);
        ck_assert_ptr_nonnull(strstr(err.msg, "only with jansson"));
        return;
    }
    ck_assert_msg(rc == 0, "%s", err.msg);
    ck_assert(s.nrows == 2 && s.json == 1 && s.decimals == 0);
    ck_assert(s.task[0] == 2 && s.proc[0] == 1 && s.start[0] == 4 && s.finish[0] == 7);
    ck_assert(s.task[1] == 1 && s.proc[1] == 2 && s.start[1] == 0 && s.finish[1] == 3);
    pets_schedule_free(&s);
    static const struct {
        const char *text, *word;
    } bad[] = {
        {"{\"schedule\":[\n{\"task\":1,\"proc\":1,\"start\":0,\"finish\":2},\n]}", "s.json:3:"},
        {"[1,2]", "needs an object"},
        {"{\"schedule\":[{\"task\":6,\"proc\":1,\"start\":0,\"finish\":2}]}", "unknown task 6"},
        {"{\"schedule\":[{\"task\":1,\"proc\":3,\"start\":0,\"finish\":2}]}", "unknown proc 3"},
        {"{\"schedule\":[{\"task\":1,\"proc\":1,\"start\":0.5,\"finish\":2}]}", "integer times"},
        {"{\"schedule\":[{\"task\":1,\"proc\":1,\"finish\":2}]}", "\"start\" is missing"},
        {"{\"schedule\":[7]}", "schedule[0] is not an object"},
        {"{\"tasks\":9,\"schedule\":[]}", "another graph"},
        {"{\"kind\":\"run\",\"schedule\":[]}", "\"kind\""},
        {"{\"schedule\":[{\"task\":1,\"proc\":1,\"start\":0,\"finish\":9223372036854775807}]}", "out of range"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        rc = pets_schedule_parse_json(bad[i].text, strlen(bad[i].text), "s.json", 5, 2, &s, &err);
        ck_assert_msg(rc == PC_EFORMAT || rc == PC_ERANGE, "case %zu: rc %d", i, rc);
        ck_assert_msg(strstr(err.msg, bad[i].word), "case %zu: '%s' lacks '%s'", i, err.msg, bad[i].word);
        ck_assert_ptr_null(s.task);
    }
}
END_TEST

/* A file is JSON when its first non-blank byte is '{', however many blank
 * lines and spaces come first (JSON writers and editors leave them). */
/* JSON is told from CSV past blank lines, and past a UTF-8 byte-order
 * mark (which editors on Windows write) */
START_TEST(file_reader_sniffs_json_past_blanks)
{
    static const char *const texts[] = {
        "\n \r\n\t{\"schedule\":[{\"task\":1,\"proc\":2,\"start\":0,\"finish\":3}]}\n",
        "\xEF\xBB\xBF{\"schedule\":[{\"task\":1,\"proc\":2,\"start\":0,\"finish\":3}]}\n"};
    for (int t = 0; t < 2; t++) {
        char path[] = "/tmp/pets-sched-XXXXXX";
        int fd = mkstemp(path);
        ck_assert_int_ge(fd, 0);
        ck_assert_int_eq(write(fd, texts[t], strlen(texts[t])), (int)strlen(texts[t]));
        close(fd);
        pets_schedule s;
        pc_error err;
        pc_error_clear(&err);
        int rc = pets_schedule_read(path, 5, 2, &s, &err);
        unlink(path);
        if (!pets_schedule_json_available()) {
            ck_assert_msg(rc == PC_EUNAVAIL, "rc %d: %s", rc, err.msg);
            continue;
        }
        ck_assert_msg(rc == 0, "text %d: %s", t, err.msg);
        ck_assert(s.json == 1 && s.nrows == 1 && s.task[0] == 1 && s.proc[0] == 2 && s.finish[0] == 3);
        pets_schedule_free(&s);
    }
}
END_TEST

/* ---- validator: one planted fault per rule ----------------------------- */

START_TEST(valid_schedule_measures)
{
    pets_check_report rep;
    judge(SMALL_OK, &rep);
    ck_assert_msg(rep.valid, "%s", rep.why);
    ck_assert_int_eq(rep.violations, 0);
    ck_assert_int_eq(rep.nrecords, 0);
    ck_assert_str_eq(rep.why, "");
    ck_assert_int_eq(rep.makespan, 7);
    ck_assert_int_eq(rep.lower_bound, 4);
    ck_assert(rep.slr == 7.0 / 4.0);
    ck_assert(rep.pets_makespan[0] == -1 && rep.pets_makespan[1] == -1);
    ck_assert_int_eq(pets_check_pets_makespans(&g_dag, &rep, NULL), 0);
    pets_solution ref;
    for (int policy = 0; policy < 2; policy++) {
        tu_oracle(&g_dag, policy, &ref);
        ck_assert_int_eq(rep.pets_makespan[policy], ref.makespan);
        pets_solution_free(&ref);
    }
}
END_TEST

/* One fault planted in the valid schedule per row: its exact record and
 * its reason. */
static const struct {
    const char *rows, *why;
    pets_violation want;
} planted[] = {
    {"1,1,0,2\n3,1,2,4\n2,1,3,6\n4,1,7,7\n5,2,0,0\n", "task 2 [3, 6) overlaps task 3 [2, 4) on P1",
     {PETS_RULE_OVERLAP, 2, 3, 1, 3, 6}},
    /* task 2 on P2 starts when task 1 ends on P1: right only if the edge's
     * communication (5) were dropped as on one processor */
    {"1,1,0,2\n3,1,2,4\n2,2,2,3\n4,1,7,7\n5,2,0,0\n",
     "task 2 on P2 starts at 2, before its input from task 1 on P1 arrives at 7 (finish 2 + communication 5)",
     {PETS_RULE_PRECEDENCE, 2, 1, 2, 2, 3}},
    /* before its predecessor ends on the same processor (task 4 costs
     * nothing, so it overlaps nothing) */
    {"1,1,0,2\n3,1,2,4\n2,1,4,7\n4,1,6,6\n5,2,0,0\n", "task 4 on P1 starts at 6, before task 2 finishes there at 7",
     {PETS_RULE_PRECEDENCE, 4, 2, 1, 6, 6}},
    {"1,1,0,2\n3,1,2,4\n2,1,4,6\n4,1,7,7\n5,2,0,0\n", "task 2 on P1 runs [4, 6) but costs 3 there (finish 7)",
     {PETS_RULE_DURATION, 2, 0, 1, 4, 6}},
    {"1,1,0,2\n3,1,2,4\n2,1,4,7\n5,2,0,0\n", "task 4 is not in the schedule", {PETS_RULE_MISSING, 4, 0, 0, 0, 0}},
    /* the task's first row is its place: the makespan stays 7 */
    {"1,1,0,2\n3,1,2,4\n2,1,4,7\n4,1,7,7\n5,2,0,0\n3,2,9,11\n",
     "task 3 is listed more than once (again on P2 [9, 11))", {PETS_RULE_DUPLICATE, 3, 0, 2, 9, 11}},
    {"1,1,-1,1\n3,1,2,4\n2,1,4,7\n4,1,7,7\n5,2,0,0\n", "task 1 on P1 has a negative time: [-1, 1)",
     {PETS_RULE_NEGATIVE, 1, 0, 1, -1, 1}},
};

START_TEST(planted_fault_located)
{
    const pets_violation *w = &planted[_i].want;
    char text[256];
    snprintf(text, sizeof text, "task,proc,start,finish\n%s", planted[_i].rows);
    pets_check_report rep;
    judge(text, &rep);
    assert_one(&rep, w->rule, w->task, w->other, w->proc, w->start, w->finish);
    ck_assert_str_eq(rep.why, planted[_i].why);
    ck_assert_int_eq(rep.makespan, 7);
}
END_TEST

/* Valid schedules that look suspicious. */
static const char *const valid_rows[] = {
    /* on one processor an edge needs no communication (1 -> 2 costs 5) */
    "1,2,0,3\n3,1,4,6\n2,2,3,4\n4,2,7,7\n5,2,0,0\n",
    /* task 5 (cost 0) at 5 on P1, strictly inside task 2's [4, 7): an
     * empty interval overlaps nothing */
    "1,1,0,2\n3,1,2,4\n2,1,4,7\n4,1,7,7\n5,1,5,5\n",
};

START_TEST(suspicious_but_valid)
{
    char text[256];
    snprintf(text, sizeof text, "task,proc,start,finish\n%s", valid_rows[_i]);
    pets_check_report rep;
    judge(text, &rep);
    ck_assert_msg(rep.valid, "%s", rep.why);
}
END_TEST

START_TEST(bad_processor_through_the_api)
{
    /* the reader refuses unknown processors; the array API reports them */
    int64_t task[5] = {1, 3, 2, 4, 5}, proc[5] = {1, 1, 1, 3, 2}, st[5] = {0, 2, 4, 7, 0},
            fi[5] = {2, 4, 7, 7, 0};
    pets_check_report rep;
    ck_assert_int_eq(pets_check_schedule(&g_dag, 5, task, proc, st, fi, 0, &rep, NULL), 0);
    assert_one(&rep, PETS_RULE_PROCESSOR, 4, 0, 3, 7, 7);
    ck_assert_str_eq(rep.why, "task 4 is on processor 3; the graph has processors 1..2");
    /* what only a caller can get wrong */
    pc_error err;
    task[2] = 6;
    ck_assert_int_eq(pets_check_schedule(&g_dag, 5, task, proc, st, fi, 0, &rep, &err), PC_EINVAL);
    ck_assert_ptr_nonnull(strstr(err.msg, "row 3: task 6"));
    task[2] = 2;
    fi[0] = PETS_CHECK_MAX_TIME + 1;
    ck_assert_int_eq(pets_check_schedule(&g_dag, 5, task, proc, st, fi, 0, &rep, &err), PC_ERANGE);
    ck_assert_int_eq(pets_check_schedule(&g_dag, -1, task, proc, st, fi, 0, &rep, &err), PC_EINVAL);
    ck_assert_int_eq(pets_check_schedule(&g_dag, 0, NULL, NULL, NULL, NULL, 10, &rep, &err), PC_EINVAL);
}
END_TEST

/* The lower bound relies on pets_dag's invariant that edges are sorted
 * by source, and refuses a graph that breaks it rather than reading the
 * out-edges of a source as one run. */
START_TEST(lower_bound_refuses_unsorted_edges)
{
    int64_t lb = -1;
    pc_error err;
    ck_assert_int_eq(pets_oracle_lower_bound(&g_dag, &lb, &err), 0);
    ck_assert_int_eq(lb, 4);
    /* edges 1 -> 2 and 2 -> 4 swapped: sources 2, 1, 1, 3 */
    int32_t f = g_dag.edge_from[0], t = g_dag.edge_to[0];
    g_dag.edge_from[0] = g_dag.edge_from[2], g_dag.edge_to[0] = g_dag.edge_to[2];
    g_dag.edge_from[2] = f, g_dag.edge_to[2] = t;
    lb = -1;
    ck_assert_int_eq(pets_oracle_lower_bound(&g_dag, &lb, &err), PC_EINVAL);
    ck_assert_str_eq(err.msg, "lower bound: edge list not sorted by source");
    ck_assert_int_eq(lb, -1);
    /* task numbers against the edges' direction: 3 -> 2 -> 1 costs 5 + 3 + 1
     * on the only processor; the bound follows the edges, not the numbers */
    static const char back[] = "tasks 3 processors 1\ncost 1 1\ncost 2 3\ncost 3 5\n"
                               "edge 3 2 0\nedge 2 1 0\n";
    pets_dag d;
    ck_assert_int_eq(pets_dag_parse(back, strlen(back), "back.dag", &d, &err), 0);
    ck_assert_int_eq(pets_oracle_lower_bound(&d, &lb, &err), 0);
    ck_assert_int_eq(lb, 9);
    /* a cycle 1 -> 3 -> 2 -> 1 (edges by source, as the bound needs;
     * a graph the builder would refuse) leaves the bound unwritten */
    pets_dag cyc = d;
    int32_t from[3] = {0, 1, 2}, to[3] = {2, 0, 1};
    cyc.edge_from = from;
    cyc.edge_to = to;
    cyc.nedges = 3;
    lb = -1;
    ck_assert_int_eq(pets_oracle_lower_bound(&cyc, &lb, &err), PC_EVERIFY);
    ck_assert_str_eq(err.msg, "lower bound: the graph has a cycle");
    ck_assert_int_eq(lb, -1);
    pets_dag_free(&d);
}
END_TEST

START_TEST(decimal_times_judged_exactly)
{
    pets_check_report rep;
    pets_dag scaled;
    pets_schedule s;
    pc_error err;
    /* every time half a unit later: still valid, makespan 7.5 */
    const char *half = "task,proc,start,finish\n1,1,0.5,2.5\n3,1,2.5,4.5\n2,1,4.5,7.5\n4,1,7.5,7.5\n5,2,0.5,0.5\n";
    const char *off = "task,proc,start,finish\n1,1,0.5,2.5\n3,1,2.5,4.5\n2,1,4.5,7\n4,1,7.5,7.5\n5,2,0.5,0.5\n";
    for (int k = 0; k < 2; k++) {
        ck_assert_int_eq(read_csv(k ? off : half, &s, &err), 0);
        ck_assert_int_eq(s.decimals, 1);
        ck_assert_int_eq(pets_dag_scale(&scaled, &g_dag, 10, &err), 0);
        ck_assert_int_eq(pets_check_schedule(&scaled, s.nrows, s.task, s.proc, s.start, s.finish, 1, &rep, &err), 0);
        if (!k) {
            ck_assert_msg(rep.valid, "%s", rep.why);
            ck_assert_int_eq(rep.makespan, 75);
            ck_assert_int_eq(rep.lower_bound, 40);
        } else {
            /* half a unit short: a duration fault, told in the file's units */
            assert_one(&rep, PETS_RULE_DURATION, 2, 0, 1, 45, 70);
            ck_assert_str_eq(rep.why, "task 2 on P1 runs [4.5, 7) but costs 3 there (finish 7.5)");
        }
        pets_schedule_free(&s);
        pets_dag_free(&scaled);
    }
    char buf[40];
    ck_assert_str_eq(pets_check_format_time(buf, sizeof buf, -1234567, 4), "-123.4567");
    ck_assert_str_eq(pets_check_format_time(buf, sizeof buf, 1, 9), "0.000000001");
    ck_assert_str_eq(pets_check_format_time(buf, sizeof buf, 2500, 3), "2.5");
    ck_assert_str_eq(pets_check_format_time(buf, sizeof buf, 3000, 3), "3");
}
END_TEST

/* Starts more than one 16-bit digit apart, the first task the latest:
 * the overlap rule must order the intervals by their whole start (a sort
 * that looked at the low digit alone would put task 1 at 4 and see task 3
 * [65535, 65536) overlap it). Valid; then task 3 one unit longer does
 * overlap task 1, found once. */
START_TEST(wide_starts_ordered_whole)
{
    const char *dag = "tasks 3 processors 1\ncost 1 1\ncost 2 1\ncost 3 1\n";
    const char *rows[] = {"task,proc,start,finish\n1,1,65540,65541\n2,1,0,1\n3,1,65535,65536\n",
                          "task,proc,start,finish\n1,1,65540,65541\n2,1,0,1\n3,1,65539,65540\n"};
    pets_dag d;
    pc_error err;
    ck_assert_int_eq(pets_dag_parse(dag, strlen(dag), "wide.dag", &d, &err), 0);
    for (int k = 0; k < 2; k++) {
        pets_schedule s;
        pets_check_report rep;
        ck_assert_msg(pets_schedule_parse_csv(rows[k], strlen(rows[k]), "w.csv", d.ntasks, d.nprocs, &s,
                                              &err) == 0, "%s", err.msg);
        ck_assert_int_eq(pets_check_schedule(&d, s.nrows, s.task, s.proc, s.start, s.finish, s.decimals,
                                             &rep, &err),
                         0);
        ck_assert_msg(rep.valid, "row set %d: %s", k, rep.why);
        ck_assert_int_eq(rep.makespan, 65541);
        pets_schedule_free(&s);
    }
    /* task 3 [65539, 65541) on P1 overlaps task 1 [65540, 65541): that
     * needs cost 2, so a DAG where task 3 costs 2 */
    const char *dag2 = "tasks 3 processors 1\ncost 1 1\ncost 2 1\ncost 3 2\n";
    const char *bad = "task,proc,start,finish\n1,1,65540,65541\n2,1,0,1\n3,1,65539,65541\n";
    pets_dag d2;
    pets_schedule s;
    pets_check_report rep;
    ck_assert_int_eq(pets_dag_parse(dag2, strlen(dag2), "wide2.dag", &d2, &err), 0);
    ck_assert_int_eq(pets_schedule_parse_csv(bad, strlen(bad), "b.csv", d2.ntasks, d2.nprocs, &s, &err), 0);
    ck_assert_int_eq(pets_check_schedule(&d2, s.nrows, s.task, s.proc, s.start, s.finish, s.decimals, &rep,
                                         &err),
                     0);
    assert_one(&rep, PETS_RULE_OVERLAP, 1, 3, 1, 65540, 65541);
    pets_schedule_free(&s);
    pets_dag_free(&d2);
    pets_dag_free(&d);
}
END_TEST

static int same_record(const pets_violation *a, const pets_violation *b)
{
    return a->rule == b->rule && a->task == b->task && a->other == b->other && a->proc == b->proc &&
           a->start == b->start && a->finish == b->finish;
}

/* Everything wrong at once: counts per rule, ten records in rule order then
 * task order, the same whatever the order of the rows. */
START_TEST(records_are_deterministic)
{
    static const char *const rows[] = {"2,2,0,1", "1,1,0,3", "3,1,1,3", "5,1,-2,-2", "5,2,-1,-1"};
    char a[256] = "task,proc,start,finish\n", b[256] = "task,proc,start,finish\n";
    for (int k = 0; k < 5; k++) {
        strcat(a, rows[k]);
        strcat(a, "\n");
        strcat(b, rows[4 - k]);
        strcat(b, "\n");
    }
    pets_check_report ra, rb;
    judge(a, &ra);
    judge(b, &rb);
    /* missing 4; duplicate 5 (each file's second row of it); negative 5;
     * duration 1 (costs 2); overlap 3 with 1 on P1; precedence 2 <- 1 and 3 <- 1 */
    ck_assert_int_eq(ra.count[PETS_RULE_MISSING], 1);
    ck_assert_int_eq(ra.count[PETS_RULE_DUPLICATE], 1);
    ck_assert_int_eq(ra.count[PETS_RULE_NEGATIVE], 1);
    ck_assert_int_eq(ra.count[PETS_RULE_DURATION], 1);
    ck_assert_int_eq(ra.count[PETS_RULE_OVERLAP], 1);
    ck_assert_int_eq(ra.count[PETS_RULE_PRECEDENCE], 2);
    ck_assert_int_eq(ra.violations, 7);
    ck_assert_int_eq(ra.nrecords, 7);
    static const int want[7] = {PETS_RULE_MISSING, PETS_RULE_DUPLICATE, PETS_RULE_NEGATIVE, PETS_RULE_DURATION,
                                PETS_RULE_OVERLAP, PETS_RULE_PRECEDENCE, PETS_RULE_PRECEDENCE};
    for (int k = 0; k < 7; k++) {
        ck_assert_int_eq(ra.record[k].rule, want[k]);
        ck_assert_int_eq(rb.record[k].rule, want[k]);
        if (want[k] != PETS_RULE_DUPLICATE && want[k] != PETS_RULE_NEGATIVE)
            ck_assert(same_record(&ra.record[k], &rb.record[k]));
    }
    ck_assert(ra.record[5].task == 2 && ra.record[5].other == 1);
    ck_assert(ra.record[6].task == 3 && ra.record[6].other == 1);
    /* twelve tasks, none scheduled: twelve counted, ten located */
    const char *dag = "tasks 12 processors 1\n"
                      "cost 1 1\ncost 2 1\ncost 3 1\ncost 4 1\ncost 5 1\ncost 6 1\n"
                      "cost 7 1\ncost 8 1\ncost 9 1\ncost 10 1\ncost 11 1\ncost 12 1\n";
    pets_dag d;
    ck_assert_int_eq(pets_dag_parse(dag, strlen(dag), "12.dag", &d, NULL), 0);
    ck_assert_int_eq(pets_check_schedule(&d, 0, NULL, NULL, NULL, NULL, 0, &ra, NULL), 0);
    ck_assert_int_eq(ra.count[PETS_RULE_MISSING], 12);
    ck_assert_int_eq(ra.nrecords, PETS_CHECK_MAX_RECORDS);
    for (int k = 0; k < PETS_CHECK_MAX_RECORDS; k++)
        ck_assert_int_eq(ra.record[k].task, k + 1);
    ck_assert_str_eq(ra.why, "task 1 is not in the schedule; 12 violations in all");
    pets_dag_free(&d);
    /* one task after twelve others, each on a processor of its own and all
     * at time 0: twelve precedence violations of task 13, the ten kept
     * those of the predecessors 1 to 10, in that order */
    char big[1024] = "tasks 13 processors 13\n";
    for (int t = 1; t <= 13; t++) {
        char line[128] = "";
        snprintf(line, sizeof line, "cost %d 1 1 1 1 1 1 1 1 1 1 1 1 1\n", t);
        strcat(big, line);
    }
    for (int t = 1; t <= 12; t++) {
        char line[64];
        snprintf(line, sizeof line, "edge %d 13 0\n", t);
        strcat(big, line);
    }
    ck_assert_int_eq(pets_dag_parse(big, strlen(big), "13.dag", &d, NULL), 0);
    int64_t task[13], proc[13], start[13], finish[13];
    for (int k = 0; k < 13; k++) {
        task[k] = proc[k] = k + 1;
        start[k] = 0;
        finish[k] = 1;
    }
    ck_assert_int_eq(pets_check_schedule(&d, 13, task, proc, start, finish, 0, &ra, NULL), 0);
    ck_assert_int_eq(ra.count[PETS_RULE_PRECEDENCE], 12);
    ck_assert_int_eq(ra.violations, 12);
    ck_assert_int_eq(ra.nrecords, PETS_CHECK_MAX_RECORDS);
    for (int k = 0; k < PETS_CHECK_MAX_RECORDS; k++)
        ck_assert_msg(ra.record[k].task == 13 && ra.record[k].other == k + 1, "record %d: task %lld after %lld", k,
                      (long long)ra.record[k].task, (long long)ra.record[k].other);
    pets_dag_free(&d);
}
END_TEST

START_TEST(irregular_graphs)
{
    /* one task, no edge */
    const char *one = "tasks 1 processors 3\ncost 1 7 5 9\n";
    pets_dag d;
    pets_check_report rep;
    ck_assert_int_eq(pets_dag_parse(one, strlen(one), "one.dag", &d, NULL), 0);
    int64_t t[1] = {1}, p[1] = {3}, s[1] = {0}, f[1] = {9};
    ck_assert_int_eq(pets_check_schedule(&d, 1, t, p, s, f, 0, &rep, NULL), 0);
    ck_assert(rep.valid && rep.makespan == 9 && rep.lower_bound == 5);
    ck_assert_int_eq(pets_check_pets_makespans(&d, &rep, NULL), 0);
    ck_assert(rep.pets_makespan[0] == 5 && rep.pets_makespan[1] == 5);
    pets_dag_free(&d);
    /* no edges: anything that does not overlap is valid, even idle starts */
    const char *flat = "tasks 3 processors 1\ncost 1 4\ncost 2 4\ncost 3 0\n";
    ck_assert_int_eq(pets_dag_parse(flat, strlen(flat), "flat.dag", &d, NULL), 0);
    int64_t t3[3] = {3, 2, 1}, p3[3] = {1, 1, 1}, s3[3] = {0, 10, 4}, f3[3] = {0, 14, 8};
    ck_assert_int_eq(pets_check_schedule(&d, 3, t3, p3, s3, f3, 0, &rep, NULL), 0);
    ck_assert(rep.valid && rep.makespan == 14 && rep.lower_bound == 4);
    s3[1] = 7;
    f3[1] = 11;
    ck_assert_int_eq(pets_check_schedule(&d, 3, t3, p3, s3, f3, 0, &rep, NULL), 0);
    assert_one(&rep, PETS_RULE_OVERLAP, 2, 1, 1, 7, 11);
    pets_dag_free(&d);
}
END_TEST

/* The validator agrees with the oracle's own schedules, and
 * pets_oracle_validate (which goes through it) still rejects each fault. */
START_TEST(oracle_schedules_pass)
{
    pets_gen_params gp;
    pets_gen_defaults(&gp);
    gp.tasks = 300;
    gp.procs = 5;
    gp.ccr = 5;
    pets_dag d;
    ck_assert_int_eq(pets_gen_dag(&gp, &d, NULL), 0);
    for (int policy = 0; policy < 2; policy++) {
        pets_solution ref;
        tu_oracle(&d, policy, &ref);
        int64_t *task = malloc(300 * sizeof *task), *proc = malloc(300 * sizeof *proc);
        ck_assert(task && proc);
        for (int v = 0; v < 300; v++) {
            task[v] = v + 1;
            proc[v] = ref.proc[v] + 1;
        }
        pets_check_report rep;
        ck_assert_int_eq(pets_check_schedule(&d, 300, task, proc, ref.start, ref.finish, 0, &rep, NULL), 0);
        ck_assert_msg(rep.valid, "%s", rep.why);
        ck_assert_int_eq(rep.makespan, ref.makespan);
        /* the last task to finish moves 1 unit earlier: its duration is wrong */
        int32_t last = 0;
        for (int v = 0; v < 300; v++)
            if (ref.finish[v] == ref.makespan)
                last = v;
        int64_t lb;
        pc_error err;
        /* a stated makespan off by one either way, every row right */
        for (int dir = -1; dir <= 1; dir += 2) {
            ref.makespan += dir;
            ck_assert_int_eq(pets_oracle_validate(&d, &ref, &lb, &err), PC_EVERIFY);
            char want[96];
            snprintf(want, sizeof want, "makespan %lld, but the last task finishes at %lld",
                     (long long)ref.makespan, (long long)(ref.makespan - dir));
            ck_assert_str_eq(err.msg, want);
            ref.makespan -= dir;
        }
        ck_assert_int_eq(pets_oracle_validate(&d, &ref, &lb, &err), 0);
        ref.finish[last]--;
        ck_assert_int_eq(pets_oracle_validate(&d, &ref, &lb, &err), PC_EVERIFY);
        ck_assert_ptr_nonnull(strstr(err.msg, "costs"));
        free(task);
        free(proc);
        pets_solution_free(&ref);
    }
    pets_dag_free(&d);
}
END_TEST

/* The priority order of a solution is checked apart from the schedule
 * (the schedule's rows do not use it): a task repeated in it is refused
 * with its 1-based id even when start, finish and processor are valid. */
START_TEST(validate_refuses_a_repeated_order_task)
{
    pets_solution ref;
    tu_oracle(&g_dag, 0, &ref);
    int64_t lb;
    pc_error err;
    ck_assert_int_eq(pets_oracle_validate(&g_dag, &ref, &lb, &err), 0);
    int32_t first = ref.order[0];
    ref.order[1] = first;
    ck_assert_int_eq(pets_oracle_validate(&g_dag, &ref, &lb, &err), PC_EVERIFY);
    char want[96];
    snprintf(want, sizeof want, "order position 1: task %ld is not a new task", (long)first + 1);
    ck_assert_str_eq(err.msg, want);
    /* a solution for another graph's task count, refused before any row */
    int32_t keep = ref.ntasks;
    ref.ntasks = keep - 1;
    ck_assert_int_eq(pets_oracle_validate(&g_dag, &ref, &lb, &err), PC_EVERIFY);
    snprintf(want, sizeof want, "schedule has %ld tasks, graph %ld", (long)keep - 1, (long)g_dag.ntasks);
    ck_assert_str_eq(err.msg, want);
    ref.ntasks = keep;
    pets_solution_free(&ref);
}
END_TEST

/* ---- allocation failures ------------------------------------------------ */

static pets_schedule g_sched;
static const char *g_text;
static char g_file[64];

static int op_parse_csv(void *ctx)
{
    (void)ctx;
    return pets_schedule_parse_csv(g_text, strlen(g_text), "s.csv", 5, 2, &g_sched, NULL);
}

static int op_read_file(void *ctx)
{
    (void)ctx;
    return pets_schedule_read(g_file, 5, 2, &g_sched, NULL);
}

static void op_free_sched(void *ctx)
{
    (void)ctx;
    pets_schedule_free(&g_sched);
}

static int op_check(void *ctx)
{
    (void)ctx;
    pets_check_report rep;
    /* a faulty schedule walks every rule's path */
    int64_t task[6] = {1, 3, 2, 5, 5, 2}, proc[6] = {1, 1, 2, 1, 9, 1}, st[6] = {0, 1, 2, 2, 0, -4},
            fi[6] = {2, 4, 3, 2, 0, 9};
    return pets_check_schedule(&g_dag, 6, task, proc, st, fi, 0, &rep, NULL);
}

static int op_pets(void *ctx)
{
    (void)ctx;
    pets_check_report rep;
    return pets_check_pets_makespans(&g_dag, &rep, NULL);
}

static int op_validate(void *ctx)
{
    const pets_solution *ref = ctx;
    int64_t lb;
    pc_error err;
    int rc = pets_oracle_validate(&g_dag, ref, &lb, &err);
    /* a refusal says what was being done */
    static const char oom[] = "out of memory while ";
    if (rc == PC_ENOMEM)
        ck_assert_msg(!strncmp(err.msg, oom, strlen(oom)) && strlen(err.msg) > strlen(oom) + 4,
                      "%s", err.msg);
    return rc;
}

/* A graph whose tasks cost nothing has a lower bound of 0: the schedule
 * length ratio is then 1 (pets_check.h), not 0/0. */
START_TEST(zero_lower_bound_gives_no_ratio)
{
    static const char dag[] = "tasks 2 processors 1\ncost 1 0\ncost 2 0\nedge 1 2 0\n";
    pets_dag d;
    pc_error err;
    ck_assert_int_eq(pets_dag_parse(dag, strlen(dag), "zero.dag", &d, &err), 0);
    int64_t task[2] = {1, 2}, proc[2] = {1, 1}, st[2] = {0, 0}, fi[2] = {0, 0};
    pets_check_report rep;
    ck_assert_int_eq(pets_check_schedule(&d, 2, task, proc, st, fi, 0, &rep, &err), 0);
    ck_assert(rep.valid && rep.makespan == 0 && rep.lower_bound == 0);
    ck_assert_msg(rep.slr == 1.0, "slr %g", rep.slr);
    pets_dag_free(&d);
}
END_TEST

START_TEST(alloc_failures)
{
    g_text = SMALL_OK;
    ck_assert_int_ge(pc_test_alloc_loop(op_parse_csv, op_free_sched, NULL, 1000), 4);
    g_text = "task,proc,start,finish\n1,1,0,2\n2,1,0.5,1.25\n";
    ck_assert_int_ge(pc_test_alloc_loop(op_parse_csv, op_free_sched, NULL, 1000), 4);
    const char *json = "{\"schedule\":[{\"task\":1,\"proc\":1,\"start\":0,\"finish\":2}]}";
    for (int k = 0; k < 2; k++) {
        snprintf(g_file, sizeof g_file, "/tmp/pets-check-XXXXXX");
        int fd = mkstemp(g_file);
        ck_assert_int_ge(fd, 0);
        const char *text = k ? json : SMALL_OK;
        ck_assert_int_eq(write(fd, text, strlen(text)), (int)strlen(text));
        close(fd);
        if (k == 0 || pets_schedule_json_available())
            ck_assert_int_ge(pc_test_alloc_loop(op_read_file, op_free_sched, NULL, 1000), 5);
        unlink(g_file);
    }
    ck_assert_int_ge(pc_test_alloc_loop(op_check, NULL, NULL, 1000), 5);
    ck_assert_int_ge(pc_test_alloc_loop(op_pets, NULL, NULL, 1000), 10);
    pets_solution ref;
    tu_oracle(&g_dag, PETS_INSERTION, &ref);
    ck_assert_int_ge(pc_test_alloc_loop(op_validate, NULL, &ref, 1000), 5);
    pets_solution_free(&ref);
}
END_TEST

static Suite *suite_pets_check(void)
{
    Suite *s = suite_create("pets_check");
    TCase *rd = pc_tcase("reader");
    tcase_add_checked_fixture(rd, small_setup, small_teardown);
    tcase_add_test(rd, csv_reads_rows_as_written);
    tcase_add_test(rd, csv_decimals_are_exact);
    tcase_add_loop_test(rd, csv_refusals_name_the_line, 0, (int)(sizeof bad_csv / sizeof *bad_csv));
    tcase_add_test(rd, json_reads_what_the_writer_writes);
    tcase_add_test(rd, file_reader_sniffs_json_past_blanks);
    suite_add_tcase(s, rd);
    TCase *va = pc_tcase("validator");
    tcase_add_checked_fixture(va, small_setup, small_teardown);
    tcase_add_test(va, valid_schedule_measures);
    tcase_add_loop_test(va, planted_fault_located, 0, (int)(sizeof planted / sizeof *planted));
    tcase_add_loop_test(va, suspicious_but_valid, 0, (int)(sizeof valid_rows / sizeof *valid_rows));
    tcase_add_test(va, bad_processor_through_the_api);
    tcase_add_test(va, lower_bound_refuses_unsorted_edges);
    tcase_add_test(va, decimal_times_judged_exactly);
    tcase_add_test(va, wide_starts_ordered_whole);
    tcase_add_test(va, records_are_deterministic);
    tcase_add_test(va, irregular_graphs);
    tcase_add_test(va, oracle_schedules_pass);
    tcase_add_test(va, validate_refuses_a_repeated_order_task);
    tcase_add_test(va, alloc_failures);
    tcase_add_test(va, zero_lower_bound_gives_no_ratio);
    suite_add_tcase(s, va);
    return s;
}

int main(void) { return pc_test_run(suite_pets_check()); }
