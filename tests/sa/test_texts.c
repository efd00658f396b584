/* test_texts.c - every shared text, every implementation, the oracles. */
#include <dirent.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "sa_testlib.h"

/* Texts over this many bytes are left out in a light pass (pc_test_light):
 * bible.txt, gauntlet_fss9, plrabn12.txt and lcet10.txt take the paths of
 * the smaller texts (20 remain, 12 of them of 4-512 KiB), at most of the
 * suite's time under the sanitizers. */
#define TEXT_LIGHT_MAX_BYTES 300000

/* Calls each(name, T, n, ctx) for every shared text (in a light pass,
 * every one of at most TEXT_LIGHT_MAX_BYTES, the others named); *files:
 * how many there are (taken or left out), -1 when there is no shared data
 * (the test is then marked skipped). */
static void for_each_text(void (*each)(const char *, const uint8_t *, int32_t, void *), void *ctx,
                          int *files)
{
    *files = -1;
    const char *data = pc_test_data_dir();
    if (!data)
        PC_SKIP("shared data not found (set PARCHECK_DATA)");
    *files = 0;
    char dir[4200];
    snprintf(dir, sizeof dir, "%s/texts", data);
    DIR *d = opendir(dir);
    ck_assert_msg(d != NULL, "cannot open %s", dir);
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        char path[4500];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        struct stat st;
        if (pc_test_light() && stat(path, &st) == 0 && st.st_size > TEXT_LIGHT_MAX_BYTES) {
            printf("light pass: %s (%lld bytes) left out\n", e->d_name, (long long)st.st_size);
            ++*files;
            continue;
        }
        uint8_t *T;
        int32_t n;
        pc_error err;
        ck_assert_msg(sa_read_text(path, &T, &n, &err) == 0, "%s", err.msg);
        each(e->d_name, T, n, ctx);
        pc_free(T);
        ++*files;
    }
    closedir(d);
}

/* Every implementation on one text against the oracles, ctx: the threads. */
static void all_impls(const char *name, const uint8_t *T, int32_t n, void *ctx)
{
    int k = sa_test_all_impls(T, n, *(const int *)ctx, n <= sa_test_naive_max(), name);
    ck_assert_int_ge(k, 2);
}

static void check_dir_texts(int threads)
{
    int files = 0;
    for_each_text(all_impls, &threads, &files);
    if (files >= 0) /* -1: skipped, no shared data */
        ck_assert_int_ge(files, 20);
}

/* sais with its parallel paths forced on one text of 2^12..2^19 bytes
 * (from 4096 entries, short shared runs, slots one by one on 2 threads,
 * per-thread histograms on 3, the byte level's names hashed in 4 parts
 * sharing one table whatever the number of distinct substrings): the SA
 * passes the Burkhardt-Kaerkkaeinen oracle and equals the 1-thread one,
 * named by induced sorting; ctx counts the texts taken and the 4-part
 * runs that hashed (a text with many long LMS substrings gives way). */
static void sais_forced(const char *name, const uint8_t *T, int32_t n, void *ctx)
{
    if (n < 4096 || n > (1 << 19))
        return;
    pc_error err;
    int32_t *one = pc_malloc_array((size_t)n, sizeof *one);
    int32_t *par = pc_malloc_array((size_t)n, sizeof *par);
    ck_assert(one && par);
    sa_sais_test_hash(0);
    ck_assert_int_eq(sa_build_sais(T, n, one, 1, &err), 0);
    for (int threads = 2; threads <= 4; threads++) {
        int32_t named, declined;
        sa_sais_test_hash(threads == 4 ? 3 : 1);
        sa_sais_test_hash_counts(&named, &declined);
        sa_sais_test_par_min(4096);
        ck_assert_int_eq(sa_build_sais(T, n, par, threads, &err), 0);
        sa_sais_test_par_min(0);
        sa_sais_test_hash(1);
        sa_sais_test_hash_counts(&named, &declined);
        if (threads == 4)
            ((int *)ctx)[1] += named;
        ck_assert_msg(sa_oracle_check_sa(T, n, par, &err) == 0, "sais %d threads on %s: %s",
                      threads, name, err.msg);
        ck_assert_msg(!memcmp(one, par, sizeof *par * (size_t)n),
                      "sais %d threads on %s differs from 1 thread", threads, name);
    }
    pc_free(one);
    pc_free(par);
    ++*(int *)ctx;
}

/* The forced parallel paths on every shared text of 4-512 KiB. Here so
 * that the race build (which runs this suite under ThreadSanitizer)
 * reaches the shared induce runs. */
START_TEST(texts_sais_forced_parallel)
{
    int taken[2] = { 0, 0 }, files = 0; /* texts taken, 4-part runs hashed */
    for_each_text(sais_forced, taken, &files);
    if (files >= 0) {
        ck_assert_int_ge(taken[0], 10);
        ck_assert_msg(2 * taken[1] >= taken[0], "names hashed on %d of %d texts", taken[1],
                      taken[0]);
    }
}
END_TEST

START_TEST(texts_two_threads) { check_dir_texts(2); }
END_TEST

START_TEST(texts_one_thread) { check_dir_texts(1); }
END_TEST

static Suite *suite_texts(void)
{
    Suite *s = suite_create("sa_texts");
    TCase *tc = pc_tcase("texts");
    tcase_add_test(tc, texts_two_threads);
    tcase_add_test(tc, texts_one_thread);
    tcase_add_test(tc, texts_sais_forced_parallel);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return pc_test_run(suite_texts()); }
