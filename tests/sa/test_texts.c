/* test_texts.c - every shared text, every implementation, the oracles. */
#include <dirent.h>
#include <stdlib.h>

#include "sa_testlib.h"

static void check_dir_texts(int threads)
{
    const char *data = pc_test_data_dir();
    if (!data)
        PC_SKIP("shared data not found (set PARCHECK_DATA)");
    char dir[4200];
    snprintf(dir, sizeof dir, "%s/texts", data);
    DIR *d = opendir(dir);
    ck_assert_msg(d != NULL, "cannot open %s", dir);
    struct dirent *e;
    int files = 0;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        char path[4500];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        uint8_t *T;
        int32_t n;
        pc_error err;
        ck_assert_msg(sa_read_text(path, &T, &n, &err) == 0, "%s", err.msg);
        int k = sa_test_all_impls(T, n, threads, n <= sa_test_naive_max(), e->d_name);
        ck_assert_int_ge(k, 2);
        pc_free(T);
        files++;
    }
    closedir(d);
    ck_assert_int_ge(files, 20);
}

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
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return pc_test_run(suite_texts()); }
