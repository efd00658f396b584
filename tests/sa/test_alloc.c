/* test_alloc.c - every allocation of construction, LCP, the oracles and the
 * file loading fails once in turn: clean PC_ENOMEM, no leak. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pc_rng.h"
#include "sa_testlib.h"

typedef struct ctx {
    sa_build_fn build;
    int threads;
    const uint8_t *T;
    int32_t n;
    int32_t *SA, *LCP;
    const char *path;
    uint8_t *loaded;
    int32_t nloaded;
} ctx;

/* A refused allocation says what it was for. */
static void assert_nomem_named(int rc, const pc_error *err)
{
    if (rc == PC_ENOMEM)
        pc_test_assert_nomem_named(err->msg);
}

static int op_build(void *p)
{
    ctx *c = p;
    pc_error err;
    int rc = c->build(c->T, c->n, c->SA, c->threads, &err);
    assert_nomem_named(rc, &err);
    return rc;
}

static int op_lcp(void *p)
{
    ctx *c = p;
    pc_error err;
    int rc = sa_lcp_kasai(c->T, c->SA, c->n, c->LCP, c->threads, &err);
    assert_nomem_named(rc, &err);
    return rc;
}

static int op_oracles(void *p)
{
    ctx *c = p;
    pc_error err;
    int rc = sa_oracle_check_sa(c->T, c->n, c->SA, &err);
    return rc ? rc : sa_oracle_check_lcp(c->T, c->n, c->SA, c->LCP, &err);
}

static int op_load(void *p)
{
    ctx *c = p;
    pc_error err;
    return sa_read_text(c->path, &c->loaded, &c->nloaded, &err);
}

static void cleanup_load(void *p)
{
    ctx *c = p;
    pc_free(c->loaded);
    c->loaded = NULL;
}

static void run_loops(int32_t n, int threads)
{
    uint8_t *T = malloc((size_t)n + 1);
    pc_rng r;
    pc_rng_seed(&r, 5);
    /* a text with repeats, so that omp goes through several steps */
    for (int32_t i = 0; i < n; i++)
        T[i] = i >= 500 && pc_rng_below(&r, 4) ? T[i - 500] : (uint8_t)pc_rng_below(&r, 3);
    ctx c = { .threads = threads, .T = T, .n = n };
    c.SA = malloc(sizeof(int32_t) * (size_t)n);
    c.LCP = malloc(sizeof(int32_t) * (size_t)n);
    sa_build_fn fns[] = { sa_build_seq, sa_build_omp, sa_build_sais };
    for (int k = 0; k < 3; k++) {
        c.build = fns[k];
        long points = pc_test_alloc_loop(op_build, NULL, &c, 10000);
        ck_assert_int_ge(points, 1);
        pc_error err;
        ck_assert_int_eq(sa_oracle_check_sa(T, n, c.SA, &err), 0);
    }
    ck_assert_int_ge(pc_test_alloc_loop(op_lcp, NULL, &c, 100), 1);
    ck_assert_int_ge(pc_test_alloc_loop(op_oracles, NULL, &c, 100), 1);
    free(c.SA);
    free(c.LCP);
    free(T);
}

START_TEST(construction_small) { run_loops(3000, 1); }
END_TEST

START_TEST(construction_parallel)
{
    sa_sais_test_par_min(4096); /* sais's ring and histograms are taken too */
    run_loops(70000, 2);
    sa_sais_test_par_min(0);
}
END_TEST

/* omp sorts a group of at least 65536 suffixes with every thread and a
 * buffer of its own: one byte repeated makes such a group at every step,
 * and that buffer is refused in turn too. */
START_TEST(omp_large_group)
{
    enum { N = 70000 };
    uint8_t *T = malloc(N);
    memset(T, 'a', N);
    ctx c = { .build = sa_build_omp, .threads = 2, .T = T, .n = N };
    c.SA = malloc(sizeof(int32_t) * N);
    ck_assert_int_ge(pc_test_alloc_loop(op_build, NULL, &c, 10000), 1);
    for (int32_t i = 0; i < N; i++)
        ck_assert_int_eq(c.SA[i], N - 1 - i);
    free(c.SA);
    free(T);
}
END_TEST

/* sais's first allocation at 2 threads is its induce slots (a refusal
 * before any level runs), named whole. */
START_TEST(sais_slots_refused_first)
{
    enum { N = 70000 };
    uint8_t *T = malloc(N);
    int32_t *SA = malloc(sizeof(int32_t) * N);
    for (int32_t i = 0; i < N; i++)
        T[i] = (uint8_t)(i * 2654435761u >> 29);
    sa_sais_test_par_min(4096);
    pc_error err = { 0 };
    pc_alloc_fail_at(1);
    int rc = sa_build_sais(T, N, SA, 2, &err);
    pc_alloc_fail_at(0);
    sa_sais_test_par_min(0);
    ck_assert_int_eq(rc, PC_ENOMEM);
    ck_assert_str_eq(err.msg, "out of memory while allocating SA-IS induce slots");
    free(T);
    free(SA);
}
END_TEST

START_TEST(file_loading)
{
    char path[] = "/tmp/pc-sa-alloc-XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(write(fd, "banana\0\xff", 8), 8);
    close(fd);
    ctx c = { .path = path };
    ck_assert_int_ge(pc_test_alloc_loop(op_load, cleanup_load, &c, 100), 1);
    unlink(path);
}
END_TEST

static Suite *suite_alloc(void)
{
    Suite *s = suite_create("sa_alloc");
    TCase *tc = pc_tcase("alloc");
    tcase_add_test(tc, construction_small);
    tcase_add_test(tc, construction_parallel);
    tcase_add_test(tc, omp_large_group);
    tcase_add_test(tc, sais_slots_refused_first);
    tcase_add_test(tc, file_loading);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return pc_test_run(suite_alloc()); }
