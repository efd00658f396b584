/* test_dag_io.c - the .dag reader and writer: round trips, every kind of
 * bad file refused with file:line, and the allocation-failure loop. */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "pc_alloc.h"
#include "pets_tutil.h"

static int dag_equal(const pets_dag *a, const pets_dag *b)
{
    if (a->ntasks != b->ntasks || a->nprocs != b->nprocs || a->nedges != b->nedges)
        return 0;
    size_t c = (size_t)a->ntasks * a->nprocs, m = (size_t)a->nedges;
    return !memcmp(a->cost, b->cost, c * 8) && !memcmp(a->edge_from, b->edge_from, m * 4) &&
           !memcmp(a->edge_to, b->edge_to, m * 4) && !memcmp(a->edge_comm, b->edge_comm, m * 8) &&
           !memcmp(a->pred_off, b->pred_off, (size_t)(a->ntasks + 1) * 4) &&
           !memcmp(a->succ_off, b->succ_off, (size_t)(a->ntasks + 1) * 4);
}

START_TEST(round_trip)
{
    for (int seed = 1; seed <= 20; seed++) {
        pets_gen_params gp;
        pets_gen_defaults(&gp);
        gp.tasks = seed * 13;
        gp.seed = (uint64_t)seed;
        gp.procs = 1 + seed % 5;
        pets_dag a, b;
        pc_error err;
        ck_assert_msg(pets_gen_dag(&gp, &a, &err) == 0, "%s", err.msg);
        char *buf = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&buf, &len);
        ck_assert_int_eq(pets_dag_fwrite(f, &a, "round trip"), 0);
        fclose(f);
        const char *head = "# round trip\n# tasks are numbered";
        ck_assert_msg(strncmp(buf, head, strlen(head)) == 0, "%.60s", buf);
        ck_assert_msg(pets_dag_parse(buf, len, "mem.dag", &b, &err) == 0, "%s", err.msg);
        ck_assert(dag_equal(&a, &b));
        free(buf);
        if (seed == 1) { /* without a comment (NULL or empty) no comment line */
            for (int k = 0; k < 2; k++) {
                char *t = NULL;
                size_t tl = 0;
                FILE *g = open_memstream(&t, &tl);
                ck_assert_int_eq(pets_dag_fwrite(g, &a, k ? "" : NULL), 0);
                fclose(g);
                ck_assert_msg(strncmp(t, head + 13, strlen(head + 13)) == 0, "%.60s", t);
                free(t);
            }
        }
        if (seed == 1 && access("/dev/full", W_OK) == 0) {
            /* a full disk shows only when the buffered text is flushed at
             * fclose: refused all the same */
            ck_assert_int_eq(pets_dag_write("/dev/full", &a, "full", &err), PC_EIO);
            ck_assert_str_eq(err.msg, "/dev/full: write failed");
        }
        pets_dag_free(&a);
        pets_dag_free(&b);
    }
}
END_TEST

START_TEST(generator_reproducible)
{
    pets_gen_params gp;
    pets_gen_defaults(&gp);
    gp.tasks = 500;
    gp.seed = 42;
    pets_dag a, b, c;
    pc_error err;
    ck_assert_int_eq(pets_gen_dag(&gp, &a, &err), 0);
    ck_assert_int_eq(pets_gen_dag(&gp, &b, &err), 0);
    gp.seed = 43;
    ck_assert_int_eq(pets_gen_dag(&gp, &c, &err), 0);
    ck_assert(dag_equal(&a, &b));
    ck_assert(!dag_equal(&a, &c));
    ck_assert_int_eq(a.ntasks, 500);
    for (int64_t i = 0; i < (int64_t)a.ntasks * a.nprocs; i++)
        ck_assert_int_ge(a.cost[i], 1); /* no zero-cost task */
    pets_dag_free(&a);
    pets_dag_free(&b);
    pets_dag_free(&c);
}
END_TEST

/* Generator parameters out of range: PC_EINVAL naming the parameter and
 * its range, nothing allocated. */
START_TEST(generator_refuses_bad_parameters)
{
    static const struct {
        int32_t tasks, procs;
        double out_degree, alpha, ccr, eta;
        int64_t wdag;
        const char *msg;
    } bad[] = {
        {0, 4, 3, 1, 1, 0.5, 50, "tasks must be within [1, 16777216]"},
        {(1 << 24) + 1, 4, 3, 1, 1, 0.5, 50, "tasks must be within [1, 16777216]"},
        {64, 0, 3, 1, 1, 0.5, 50, "procs must be within [1, 1024]"},
        {64, 1025, 3, 1, 1, 0.5, 50, "procs must be within [1, 1024]"},
        {64, 4, 0.5, 1, 1, 0.5, 50, "out-degree must be within [1, 64]"},
        {64, 4, 65, 1, 1, 0.5, 50, "out-degree must be within [1, 64]"},
        {64, 4, 3, 0.001, 1, 0.5, 50, "alpha must be within [0.01, 100]"},
        {64, 4, 3, 101, 1, 0.5, 50, "alpha must be within [0.01, 100]"},
        {64, 4, 3, 1, -1, 0.5, 50, "ccr must be within [0, 1000]"},
        {64, 4, 3, 1, 1001, 0.5, 50, "ccr must be within [0, 1000]"},
        {64, 4, 3, 1, 1, -0.1, 50, "eta must be within [0, 2)"},
        {64, 4, 3, 1, 1, 2, 50, "eta must be within [0, 2)"},
        {64, 4, 3, 1, 1, 0.5, 0, "wdag must be within [1, 1000000]"},
        {64, 4, 3, 1, 1, 0.5, 1000001, "wdag must be within [1, 1000000]"},
        {1 << 24, 17, 3, 1, 1, 0.5, 50, "tasks x procs exceeds 268435456"},
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        pets_gen_params gp;
        pets_gen_defaults(&gp);
        gp.tasks = bad[k].tasks;
        gp.procs = bad[k].procs;
        gp.out_degree = bad[k].out_degree;
        gp.alpha = bad[k].alpha;
        gp.ccr = bad[k].ccr;
        gp.eta = bad[k].eta;
        gp.wdag = bad[k].wdag;
        pets_dag d;
        pc_error err;
        long live = pc_alloc_live();
        ck_assert_msg(pets_gen_dag(&gp, &d, &err) == PC_EINVAL, "case %zu accepted", k);
        ck_assert_str_eq(err.msg, bad[k].msg);
        ck_assert_int_eq(pc_alloc_live(), live);
    }
}
END_TEST

/* A graph's costs and edges, hashed (pc_test_fnv_u64). */
static uint64_t dag_fingerprint(const pets_dag *d)
{
    uint64_t h = PC_TEST_FNV_SEED;
    for (int64_t i = 0; i < (int64_t)d->ntasks * d->nprocs; i++)
        h = pc_test_fnv_u64(h, (uint64_t)d->cost[i]);
    for (int32_t e = 0; e < d->nedges; e++) {
        h = pc_test_fnv_u64(h, (uint64_t)(int64_t)d->edge_from[e]);
        h = pc_test_fnv_u64(h, (uint64_t)(int64_t)d->edge_to[e]);
        h = pc_test_fnv_u64(h, (uint64_t)d->edge_comm[e]);
    }
    return h;
}

/* "The same parameters give the same graph on every machine": two graphs
 * pinned, one of the default shape and one whose level widths, each at
 * least 1, first sum past v and are cut back. */
START_TEST(generator_graphs_pinned)
{
    static const struct {
        int32_t tasks;
        double alpha;
        uint64_t seed;
        int32_t nedges;
        uint64_t print;
    } pin[] = {{500, 1.0, 42, 1450, 2416526682805602236ULL}, {8, 0.689292, 4, 11, 15280550609913829928ULL}};
    for (size_t k = 0; k < sizeof pin / sizeof *pin; k++) {
        pets_gen_params gp;
        pets_gen_defaults(&gp);
        gp.tasks = pin[k].tasks;
        gp.alpha = pin[k].alpha;
        gp.seed = pin[k].seed;
        pets_dag d;
        pc_error err;
        ck_assert_int_eq(pets_gen_dag(&gp, &d, &err), 0);
        ck_assert_int_eq(d.ntasks, pin[k].tasks);
        ck_assert_int_eq(d.nedges, pin[k].nedges);
        ck_assert_msg(dag_fingerprint(&d) == pin[k].print, "graph %zu: fingerprint %llu", k,
                      (unsigned long long)dag_fingerprint(&d));
        pets_dag_free(&d);
    }
}
END_TEST

/* CCR is applied: mean communication / mean computation near the target. */
START_TEST(generator_ccr)
{
    static const double ccrs[] = {0.1, 1, 10};
    for (int i = 0; i < 3; i++) {
        pets_gen_params gp;
        pets_gen_defaults(&gp);
        gp.tasks = 4000;
        gp.ccr = ccrs[i];
        gp.seed = 5;
        pets_dag d;
        pc_error err;
        ck_assert_int_eq(pets_gen_dag(&gp, &d, &err), 0);
        double cs = 0, cc = 0;
        for (int64_t k = 0; k < (int64_t)d.ntasks * d.nprocs; k++)
            cs += (double)d.cost[k];
        for (int32_t e = 0; e < d.nedges; e++)
            cc += (double)d.edge_comm[e];
        double got = (cc / d.nedges) / (cs / ((double)d.ntasks * d.nprocs));
        ck_assert_msg(got > ccrs[i] * 0.8 && got < ccrs[i] * 1.2, "CCR %g gave %g", ccrs[i], got);
        pets_dag_free(&d);
    }
}
END_TEST

typedef struct bad_case {
    const char *text;
    int code;
    long line;
    const char *msg; /* the whole message */
} bad_case;

static const bad_case bad[] = {
    {"", PC_EFORMAT, 0, "bad.dag: no 'tasks N processors P' header"},
    {"# only a comment\n", PC_EFORMAT, 1, "bad.dag:1: no 'tasks N processors P' header"},
    {"tasks 2\n", PC_EFORMAT, 1, "bad.dag:1: expected 'tasks N processors P' before anything else"},
    {"tasks 2 processors 1\ncost 1 1\n", PC_EFORMAT, 2, "bad.dag:2: task 2 has no cost line"},
    {"tasks 1 processors 2\ncost 1 1\n", PC_EFORMAT, 2, "bad.dag:2: task 1: 1 costs, expected 2"},
    {"tasks 1 processors 1\ncost 1 1 2\n", PC_EFORMAT, 2, "bad.dag:2: task 1: extra costs (expected 1)"},
    {"tasks 1 processors 1\ncost 1 1\ncost 1 2\n", PC_EFORMAT, 3, "bad.dag:3: second cost line for task 1 (first on line 2)"},
    {"tasks 1 processors 1\ncost 2 1\n", PC_EFORMAT, 2, "bad.dag:2: cost for unknown task 2 (tasks are 1..1)"},
    {"tasks 1 processors 1\ncost 1 -3\n", PC_ERANGE, 2, "bad.dag:2: cost: negative value -3"},
    {"tasks 1 processors 1\ncost 1 99999999999999999999999\n", PC_ERANGE, 2, "bad.dag:2: cost: 99999999999999999999999 is larger than 1099511627776"},
    {"tasks 1 processors 1\ncost 1 1x\n", PC_EFORMAT, 2, "bad.dag:2: cost: '1x' is not a whole number"},
    {"tasks 2 processors 1\ncost 1 1\ncost 2 1\nedge 1 1 0\n", PC_EFORMAT, 4, "bad.dag:4: edge 1 1: self-loop"},
    {"tasks 2 processors 1\ncost 1 1\ncost 2 1\nedge 1 3 0\n", PC_EFORMAT, 4, "bad.dag:4: edge 1 3: unknown task (tasks are 1..2)"},
    {"tasks 2 processors 1\ncost 1 1\ncost 2 1\nedge 1 2 0\nedge 1 2 5\n", PC_EFORMAT, 5, "bad.dag:5: edge 1 2: duplicate (first given on line 4)"},
    {"tasks 3 processors 1\ncost 1 1\ncost 2 1\ncost 3 1\nedge 1 2 0\nedge 2 3 0\nedge 3 2 0\n", PC_EFORMAT, 6, "bad.dag:6: edge 2 3: the graph has a cycle through it"},
    {"tasks 2 processors 1\ncost 1 1\ncost 2 1\nedge 1 2 -1\n", PC_ERANGE, 4, "bad.dag:4: communication cost: negative value -1"},
    {"tasks 2 processors 1\ncost 1 1\ncost 2 1\nedge 1 2\n", PC_EFORMAT, 4, "bad.dag:4: expected 'edge A B c'"},
    {"tasks 16777216 processors 1\n", PC_EFORMAT, 1, "bad.dag:1: declares 16777216 tasks of 1 costs but the file holds only 28 bytes"},
    {"tasks 99999999999 processors 1\n", PC_ERANGE, 1, "bad.dag:1: tasks: 99999999999 is larger than 16777216"},
    {"tasks 1 processors 5000\n", PC_ERANGE, 1, "bad.dag:1: processors: 5000 is larger than 1024"},
    {"tasks 0 processors 1\n", PC_ERANGE, 1, "bad.dag:1: tasks and processors must be >= 1"},
    {"tasks 1 processors 1\ncost 1 1\ntasks 1 processors 1\n", PC_EFORMAT, 3, "bad.dag:3: second 'tasks' header"},
    {"tasks 1 processors 1\ncost 1 1\nnode 1\n", PC_EFORMAT, 3, "bad.dag:3: unknown line 'node' (expected cost or edge)"},
    {"tasks 2 processors 1\ncost 1 1099511627776\ncost 2 1099511627776\nedge 1 2 1099511627776\n", PC_OK, 0, ""},
    {"tasks 2 processors 1\ncost 1 1\ncost 2 1\nedge x 2 0\n", PC_EFORMAT, 4, "bad.dag:4: edge source: 'x' is not a whole number"},
    {"tasks 2 processors 1\ncost 1 1\ncost 2 1\nedge 3 1 0\n", PC_EFORMAT, 4, "bad.dag:4: edge 3 1: unknown task (tasks are 1..2)"},
    {"tasks 2 processors 1\ncost 1 1\ncost 2 1\nedge 1 0 0\n", PC_EFORMAT, 4, "bad.dag:4: edge 1 0: unknown task (tasks are 1..2)"},
    {"tasks 2 processors 1\ncost 1 1\ncost 2 1\nedge 0 1 0\n", PC_EFORMAT, 4, "bad.dag:4: edge 0 1: unknown task (tasks are 1..2)"},
    /* 10 tasks of 4 costs need 10 x (6 + 2 x 4) = 140 bytes at least */
    {"tasks 10 processors 4\n#xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n", PC_EFORMAT, 1, "bad.dag:1: declares 10 tasks of 4 costs but the file holds only 105 bytes"},
    /* a control byte is no blank: it stays in its word */
    {"tasks 2 processors 1\ncost 1 \001" "1\ncost 2 1\n", PC_EFORMAT, 2, "bad.dag:2: cost: '\001" "1' is not a whole number"},
    {"tasks 2 processors 1\ncost 1 1\ncost 2 1\nedge 1 - 0\n", PC_EFORMAT, 4, "bad.dag:4: edge target: '-' is not a whole number"},
    {"tasks 1048576 processors 512\n", PC_ERANGE, 1, "bad.dag:1: 1048576 tasks x 512 processors exceeds 268435456 costs"},
    {"tasks 1 processors 1\ncost 1 +3\n", PC_OK, 0, ""},
    {"tasks 1 processors 1\ncost\n", PC_EFORMAT, 2, "bad.dag:2: expected 'cost T w1 .. w1'"},
    {"tasks +1 processors 1\ncost 1 /3\n", PC_EFORMAT, 2, "bad.dag:2: cost: '/3' is not a whole number"},
};

START_TEST(bad_files)
{
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        pets_dag d;
        pc_error err;
        pc_error_clear(&err);
        int rc = pets_dag_parse(bad[i].text, strlen(bad[i].text), "bad.dag", &d, &err);
        ck_assert_msg(rc == bad[i].code, "case %zu: rc %d (%s), expected %d", i, rc, err.msg, bad[i].code);
        if (rc == 0) {
            pets_dag_free(&d);
            continue;
        }
        char where[64];
        snprintf(where, sizeof where, bad[i].line ? "bad.dag:%ld:" : "bad.dag", bad[i].line);
        ck_assert_msg(strncmp(err.msg, where, strlen(where)) == 0, "case %zu: '%s' lacks '%s'", i, err.msg, where);
        ck_assert_msg(!strcmp(err.msg, bad[i].msg), "case %zu: '%s', expected '%s'", i, err.msg, bad[i].msg);
        ck_assert_int_eq(pc_alloc_live(), 0);
        /* a refused graph is left zeroed: freeing it is safe */
        static const pets_dag zero;
        ck_assert_msg(!memcmp(&d, &zero, sizeof d), "case %zu: the graph is not zeroed", i);
    }
}
END_TEST

/* A file past the reader's 1 GiB limit is refused by its size, before a
 * byte is parsed: a sparse file costs no disk. */
START_TEST(file_size_limit)
{
    char path[] = "/tmp/pets-big-XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(ftruncate(fd, ((off_t)1 << 30) + 1), 0);
    close(fd);
    pets_dag d;
    pc_error err;
    pc_error_clear(&err);
    int rc = pets_dag_read(path, &d, &err);
    unlink(path);
    ck_assert_int_eq(rc, PC_ERANGE);
    char want[160];
    snprintf(want, sizeof want, "%s: file of %zu bytes is larger than the limit of %zu bytes", path,
             ((size_t)1 << 30) + 1, (size_t)1 << 30);
    ck_assert_str_eq(err.msg, want);
}
END_TEST

/* The last line may end in blanks with no newline: the reader stops at the
 * end of the text it was given, even when the page after it is unreadable
 * (as past the end of a mapped file of a whole number of pages). */
/* A NUL byte is refused with its line, whatever the rest of the line
 * would parse as: on the header's last number, and on a cost line. */
START_TEST(nul_byte_named_by_its_line)
{
    static const char head[] = "tasks 1 processors 1\0\ncost 1 7\n";
    static const char cost[] = "tasks 1 processors 1\ncost 1 7\0\n";
    pets_dag d;
    pc_error err;
    ck_assert_int_eq(pets_dag_parse(head, sizeof head - 1, "nul.dag", &d, &err), PC_EFORMAT);
    ck_assert_str_eq(err.msg, "nul.dag:1: NUL byte in a text file");
    ck_assert_int_eq(pets_dag_parse(cost, sizeof cost - 1, "nul.dag", &d, &err), PC_EFORMAT);
    ck_assert_str_eq(err.msg, "nul.dag:2: NUL byte in a text file");
}
END_TEST

START_TEST(trailing_blanks_stop_at_the_end)
{
    long pg = sysconf(_SC_PAGESIZE);
    char *mem = mmap(NULL, (size_t)pg * 2, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    ck_assert(mem != MAP_FAILED);
    ck_assert_int_eq(mprotect(mem + pg, (size_t)pg, PROT_NONE), 0);
    const char *text = "tasks 1 processors 1\ncost 1 7\n";
    size_t tl = strlen(text);
    char *at = mem + pg - (tl + 3); /* the text, then 3 blanks up to the guard page */
    memcpy(at, text, tl);
    memcpy(at + tl, " \t ", 3);
    pets_dag d;
    pc_error err;
    ck_assert_msg(pets_dag_parse(at, tl + 3, "blank.dag", &d, &err) == 0, "%s", err.msg);
    ck_assert_int_eq(d.ntasks, 1);
    ck_assert_int_eq(d.cost[0], 7);
    pets_dag_free(&d);
    munmap(mem, (size_t)pg * 2);
}
END_TEST

/* Values at the limit are fine, but a graph whose rank sums could pass
 * int64 is refused. */
START_TEST(weight_limit)
{
    int32_t n = 1100, P = 1024;
    int64_t *cost = malloc((size_t)n * P * sizeof *cost);
    for (size_t i = 0; i < (size_t)n * P; i++)
        cost[i] = PETS_MAX_VALUE;
    pets_dag d;
    pc_error err;
    ck_assert_int_eq(pets_dag_build(&d, n, P, cost, NULL, 0, "big.dag", &err), PC_ERANGE);
    ck_assert_ptr_nonnull(strstr(err.msg, "total weight"));
    ck_assert_int_eq(pc_alloc_live(), 0);
    /* counts out of range are refused by name, before anything is read */
    ck_assert_int_eq(pets_dag_build(&d, 0, 1, cost, NULL, 0, "big.dag", &err), PC_ERANGE);
    ck_assert_str_eq(err.msg, "big.dag: 0 tasks: must be within [1, 16777216]");
    ck_assert_int_eq(pets_dag_build(&d, 1, 1025, cost, NULL, 0, "big.dag", &err), PC_ERANGE);
    ck_assert_str_eq(err.msg, "big.dag: 1025 processors: must be within [1, 1024]");
    /* each count in range, their product past 2^28 costs: refused before
     * one cost is read */
    ck_assert_int_eq(pets_dag_build(&d, 1 << 19, 1024, cost, NULL, 0, "big.dag", &err), PC_ERANGE);
    ck_assert_str_eq(err.msg, "big.dag: 524288 tasks x 1024 processors exceeds 268435456 costs");
    free(cost);
    /* a refused scaling leaves its copy zeroed */
    const char *text = "tasks 2 processors 1\ncost 1 5\ncost 2 6\nedge 1 2 7\n";
    pets_dag src;
    ck_assert_int_eq(pets_dag_parse(text, strlen(text), "s.dag", &src, &err), 0);
    memset(&d, 0x5a, sizeof d);
    ck_assert_int_eq(pets_dag_scale(&d, &src, 0, &err), PC_EINVAL);
    ck_assert_str_eq(err.msg, "scale factor 0 must be >= 1");
    static const pets_dag zero;
    ck_assert(!memcmp(&d, &zero, sizeof d));
    pets_dag_free(&src);
}
END_TEST

/* The builder's own edge checks (the readers refuse these earlier, but the
 * importers, the generator and callers of the library reach the builder
 * with their edges as they are): each named with its edge's line. */
START_TEST(builder_refuses_bad_edges)
{
    static const int64_t cost[3] = {1, 1, 1};
    static const struct {
        pets_edge e;
        int code;
        const char *msg;
    } bad[] = {
        {{0, 3, 0, 7}, PC_EFORMAT, "g.dag:7: edge 1 4: unknown task (tasks are 1..3)"},
        {{3, 0, 0, 8}, PC_EFORMAT, "g.dag:8: edge 4 1: unknown task (tasks are 1..3)"},
        {{-1, 1, 0, 9}, PC_EFORMAT, "g.dag:9: edge 0 2: unknown task (tasks are 1..3)"},
        {{1, -1, 0, 10}, PC_EFORMAT, "g.dag:10: edge 2 0: unknown task (tasks are 1..3)"},
        {{2, 2, 0, 11}, PC_EFORMAT, "g.dag:11: edge 3 3: self-loop"},
        {{0, 1, -1, 12}, PC_ERANGE, "g.dag:12: edge 1 2: communication cost -1 outside [0, 1099511627776]"},
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        pets_edge e = bad[k].e;
        pets_dag d;
        pc_error err;
        ck_assert_int_eq(pets_dag_build(&d, 3, 1, cost, &e, 1, "g.dag", &err), bad[k].code);
        ck_assert_str_eq(err.msg, bad[k].msg);
        ck_assert_int_eq(pc_alloc_live(), 0);
    }
}
END_TEST

static const char *g_path;
static pets_dag g_dag;

static int op_read(void *ctx)
{
    (void)ctx;
    return pets_dag_read(g_path, &g_dag, NULL);
}

static void op_free(void *ctx)
{
    (void)ctx;
    pets_dag_free(&g_dag);
}

static int op_gen(void *ctx)
{
    (void)ctx;
    pets_gen_params gp;
    pets_gen_defaults(&gp);
    gp.tasks = 40;
    return pets_gen_dag(&gp, &g_dag, NULL);
}

static int op_solve(void *ctx)
{
    pets_dag *d = ctx;
    pets_solution s;
    int rc = pets_solution_alloc(&s, d->ntasks, NULL);
    pets_options o = {PETS_INSERTION, -1, -1, 0, PETS_SELECT_GAPS};
    pets_times t;
    if (!rc)
        rc = pets_impl_find("serial")->run(d, &o, &s, &t, NULL);
    pets_solution_free(&s);
    return rc;
}

/* The seed's linear selection under either policy (the insertion policy
 * allocates per-processor slot lists that the append policy does not). */
static int op_solve_linear(void *ctx, int policy)
{
    pets_dag *d = ctx;
    pets_solution s;
    pc_error err;
    pc_error_clear(&err);
    int rc = pets_solution_alloc(&s, d->ntasks, &err);
    pets_options o = {policy, -1, -1, 0, PETS_SELECT_LINEAR};
    pets_times t;
    if (!rc)
        rc = pets_impl_find("serial")->run(d, &o, &s, &t, &err);
    if (rc == PC_ENOMEM) /* says what the memory was for */
        pc_test_assert_nomem_named(err.msg);
    pets_solution_free(&s);
    return rc;
}

static int op_solve_linear_insertion(void *ctx)
{
    return op_solve_linear(ctx, PETS_INSERTION);
}

static int op_solve_linear_append(void *ctx)
{
    return op_solve_linear(ctx, PETS_APPEND);
}

static int op_oracle(void *ctx)
{
    pets_dag *d = ctx;
    pets_solution s;
    int rc = pets_solution_alloc(&s, d->ntasks, NULL);
    if (!rc)
        rc = pets_oracle_solve(d, PETS_INSERTION, &s, NULL);
    pets_solution_free(&s);
    return rc;
}

/* The oracle does not trust the builder: a cycle slipped into the edge
 * list by hand is refused, not scheduled. */
START_TEST(oracle_refuses_a_cycle)
{
    int64_t cost[3] = {1, 2, 3};
    int32_t from[3] = {0, 1, 2}, to[3] = {1, 2, 1};
    int64_t comm[3] = {0, 0, 0};
    pets_dag d = {.ntasks = 3, .nprocs = 1, .nedges = 3, .cost = cost,
                  .edge_from = from, .edge_to = to, .edge_comm = comm};
    pets_solution s;
    pc_error err;
    ck_assert_int_eq(pets_solution_alloc(&s, 3, &err), 0);
    ck_assert_int_eq(pets_oracle_solve(&d, PETS_INSERTION, &s, &err), PC_EVERIFY);
    ck_assert_str_eq(err.msg, "oracle: cycle through task 2");
    pets_solution_free(&s);
}
END_TEST

/* The oracle under failing allocations, on a generated graph (no shared
 * data needed): every failure, in its preparation or its processor
 * selection, is PC_ENOMEM and frees everything. */
START_TEST(oracle_alloc_failures)
{
    /* a schedule that cannot be allocated says so */
    for (long k = 1; k <= 7; k++) {
        pets_solution s;
        pc_error err;
        pc_alloc_fail_at(k);
        ck_assert_int_eq(pets_solution_alloc(&s, 10, &err), PC_ENOMEM);
        pc_alloc_fail_at(0);
        ck_assert_msg(strstr(err.msg, "allocating a schedule") != NULL, "%s", err.msg);
    }
    pets_gen_params gp;
    pets_gen_defaults(&gp);
    gp.tasks = 40;
    pets_dag d;
    ck_assert_int_eq(pets_gen_dag(&gp, &d, NULL), 0);
    ck_assert_int_gt(pc_test_alloc_loop(op_oracle, NULL, &d, 10000), 9);
    pets_dag_free(&d);
}
END_TEST

START_TEST(alloc_failures)
{
    g_path = tu_data("golden/topcuoglu2002.txt");
    if (!g_path)
        PC_SKIP("no shared data");
    ck_assert_int_gt(pc_test_alloc_loop(op_read, op_free, NULL, 10000), 3);
    ck_assert_int_gt(pc_test_alloc_loop(op_gen, op_free, NULL, 10000), 3);
    pets_dag d;
    pc_error err;
    ck_assert_int_eq(pets_dag_read(g_path, &d, &err), 0);
    ck_assert_int_gt(pc_test_alloc_loop(op_solve, NULL, &d, 10000), 3);
    ck_assert_int_gt(pc_test_alloc_loop(op_solve_linear_insertion, NULL, &d, 10000), 3);
    ck_assert_int_gt(pc_test_alloc_loop(op_solve_linear_append, NULL, &d, 10000), 3);
    pets_dag_free(&d);
}
END_TEST

static Suite *suite_dag_io(void)
{
    Suite *s = suite_create("pets_dag_io");
    TCase *tc = pc_tcase("dag_io");
    tcase_add_test(tc, round_trip);
    tcase_add_test(tc, generator_reproducible);
    tcase_add_test(tc, generator_ccr);
    tcase_add_test(tc, generator_refuses_bad_parameters);
    tcase_add_test(tc, bad_files);
    tcase_add_test(tc, weight_limit);
    tcase_add_test(tc, builder_refuses_bad_edges);
    tcase_add_test(tc, file_size_limit);
    tcase_add_test(tc, trailing_blanks_stop_at_the_end);
    tcase_add_test(tc, nul_byte_named_by_its_line);
    tcase_add_test(tc, alloc_failures);
    tcase_add_test(tc, oracle_alloc_failures);
    tcase_add_test(tc, oracle_refuses_a_cycle);
    tcase_add_test(tc, generator_graphs_pinned);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return pc_test_run(suite_dag_io()); }
