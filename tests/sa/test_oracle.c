/* test_oracle.c - the oracles reject what is wrong and accept what is right. */
#include "sa_testlib.h"

static const uint8_t TXT[] = "mississippi\x00\xff\x80mississippi";
#define N ((int32_t)(sizeof TXT - 1))

typedef struct fixture { int32_t sa[N], lcp[N], len, pos, pos2; } fixture;

static void good(fixture *f)
{
    pc_error err;
    ck_assert_int_eq(sa_oracle_naive_sa(TXT, N, f->sa, &err), 0);
    sa_oracle_naive_lcp(TXT, N, f->sa, f->lcp);
    sa_lrs(f->sa, f->lcp, N, &f->len, &f->pos, &f->pos2);
}

START_TEST(accepts_correct)
{
    fixture f;
    pc_error err;
    good(&f);
    ck_assert_int_eq(sa_oracle_check_sa(TXT, N, f.sa, &err), 0);
    ck_assert_int_eq(sa_oracle_check_lcp(TXT, N, f.sa, f.lcp, &err), 0);
    ck_assert_int_eq(sa_oracle_check_lrs(TXT, N, f.sa, f.lcp, f.len, f.pos, f.pos2, &err), 0);
    ck_assert_int_eq(f.len, 11); /* "mississippi" twice */
    ck_assert_int_eq(sa_oracle_check_sa(TXT, 0, f.sa, &err), 0);
}
END_TEST

START_TEST(rejects_swapped_entries)
{
    fixture f;
    pc_error err;
    good(&f);
    for (int i = 1; i < N; i++) {
        fixture g = f;
        int32_t x = g.sa[i - 1];
        g.sa[i - 1] = g.sa[i];
        g.sa[i] = x;
        ck_assert_int_eq(sa_oracle_check_sa(TXT, N, g.sa, &err), PC_EVERIFY);
    }
    fixture g = f;
    int32_t x = g.sa[0];
    g.sa[0] = g.sa[N - 1];
    g.sa[N - 1] = x;
    ck_assert_int_eq(sa_oracle_check_sa(TXT, N, g.sa, &err), PC_EVERIFY);
    ck_assert_ptr_nonnull(strstr(err.msg, "out of order"));
}
END_TEST

START_TEST(rejects_non_permutation)
{
    fixture f;
    pc_error err;
    good(&f);
    fixture g = f;
    g.sa[3] = g.sa[4];
    ck_assert_int_eq(sa_oracle_check_sa(TXT, N, g.sa, &err), PC_EVERIFY);
    ck_assert_ptr_nonnull(strstr(err.msg, "permutation"));
    g = f;
    g.sa[5] = N;
    ck_assert_int_eq(sa_oracle_check_sa(TXT, N, g.sa, &err), PC_EVERIFY);
    g = f;
    g.sa[5] = -1;
    ck_assert_int_eq(sa_oracle_check_sa(TXT, N, g.sa, &err), PC_EVERIFY);
}
END_TEST

START_TEST(rejects_lcp_off_by_one)
{
    fixture f;
    pc_error err;
    good(&f);
    for (int i = 0; i < N; i++)
        for (int d = -1; d <= 1; d += 2) {
            fixture g = f;
            g.lcp[i] += d;
            ck_assert_int_eq(sa_oracle_check_lcp(TXT, N, g.sa, g.lcp, &err), PC_EVERIFY);
        }
}
END_TEST

START_TEST(rejects_wrong_lrs)
{
    fixture f;
    pc_error err;
    good(&f);
    ck_assert_int_eq(sa_oracle_check_lrs(TXT, N, f.sa, f.lcp, f.len - 1, f.pos, f.pos2, &err), PC_EVERIFY);
    ck_assert_int_eq(sa_oracle_check_lrs(TXT, N, f.sa, f.lcp, f.len + 1, f.pos, f.pos2, &err), PC_EVERIFY);
    ck_assert_int_eq(sa_oracle_check_lrs(TXT, N, f.sa, f.lcp, f.len, f.pos + 1, f.pos2, &err), PC_EVERIFY);
    /* the pair in the other order breaks the tie-break */
    ck_assert_int_eq(sa_oracle_check_lrs(TXT, N, f.sa, f.lcp, f.len, f.pos2, f.pos, &err), PC_EVERIFY);
    /* a tie: "ab" and "cd" both repeat twice; the first in suffix order wins */
    static const uint8_t tie[] = "cdxabycdzab";
    int32_t sa[11], lcp[11], len, pos, pos2;
    ck_assert_int_eq(sa_oracle_naive_sa(tie, 11, sa, &err), 0);
    sa_oracle_naive_lcp(tie, 11, sa, lcp);
    sa_lrs(sa, lcp, 11, &len, &pos, &pos2);
    ck_assert_int_eq(len, 2);
    ck_assert_int_eq(pos, 9); /* "ab" at 9 sorts before "aby..." at 3 */
    ck_assert_int_eq(pos2, 3);
    ck_assert_int_eq(sa_oracle_check_lrs(tie, 11, sa, lcp, len, pos, pos2, &err), 0);
    ck_assert_int_eq(sa_oracle_check_lrs(tie, 11, sa, lcp, 2, 6, 0, &err), PC_EVERIFY);
    /* nothing repeats */
    static const uint8_t uniq[] = "abc";
    ck_assert_int_eq(sa_oracle_naive_sa(uniq, 3, sa, &err), 0);
    sa_oracle_naive_lcp(uniq, 3, sa, lcp);
    ck_assert_int_eq(sa_oracle_check_lrs(uniq, 3, sa, lcp, 0, -1, -1, &err), 0);
    ck_assert_int_eq(sa_oracle_check_lrs(uniq, 3, sa, lcp, 0, 0, 1, &err), PC_EVERIFY);
    /* an LCP array understating the repeat, with an LRS that agrees with
     * it: "abXab" sorts X.. ab abX.. b bX.., LCP 0 0 2 0 1; with LCP[2] = 1
     * the claimed LRS "a" at 3 and 0 is the first longest pair of that
     * array, and its bytes match, but the repeat goes on ("ab") */
    static const uint8_t ext[] = "abXab";
    ck_assert_int_eq(sa_oracle_naive_sa(ext, 5, sa, &err), 0);
    sa_oracle_naive_lcp(ext, 5, sa, lcp);
    ck_assert_int_eq(lcp[2], 2);
    lcp[2] = 1;
    ck_assert_int_eq(sa_oracle_check_lrs(ext, 5, sa, lcp, 1, 3, 0, &err), PC_EVERIFY);
    ck_assert_str_eq(err.msg, "the repeat at 3 and 0 extends beyond 1 bytes");
}
END_TEST

START_TEST(naive_is_unsigned_and_shorter_first)
{
    static const uint8_t t[] = { 0x80, 0x7f, 0x00, 0x80 };
    int32_t sa[4];
    pc_error err;
    ck_assert_int_eq(sa_oracle_naive_sa(t, 4, sa, &err), 0);
    /* suffixes: 0:80 7f 00 80, 1:7f 00 80, 2:00 80, 3:80 */
    ck_assert_int_eq(sa[0], 2);
    ck_assert_int_eq(sa[1], 1);
    ck_assert_int_eq(sa[2], 3);
    ck_assert_int_eq(sa[3], 0);
}
END_TEST

static Suite *suite_oracle(void)
{
    Suite *s = suite_create("sa_oracle");
    TCase *tc = pc_tcase("oracle");
    tcase_add_test(tc, accepts_correct);
    tcase_add_test(tc, rejects_swapped_entries);
    tcase_add_test(tc, rejects_non_permutation);
    tcase_add_test(tc, rejects_lcp_off_by_one);
    tcase_add_test(tc, rejects_wrong_lrs);
    tcase_add_test(tc, naive_is_unsigned_and_shorter_first);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return pc_test_run(suite_oracle()); }
