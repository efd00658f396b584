/* test_sa_check.c - the generic checker (oracles/sa/sa_check.h) on plain
 * arrays: right SA/LCP of every element type pass, planted errors fail at
 * the right index and rule, the 8-byte work path (texts of 2^32 bytes and
 * more) agrees with the 4-byte one, allocation failures are clean, and
 * every adjacent transposition of a naive SA is rejected. */
#include "pc_rng.h"
#include "sa/sa_check.h"
#include "sa_testlib.h"

static const int TYPES[] = { SA_CHECK_I32, SA_CHECK_U32, SA_CHECK_I64, SA_CHECK_U64 };
#define NTYPES 4

static const uint8_t MISS[] = "mississippi\x00\xff\x80mississippi";
#define NMISS ((int64_t)(sizeof MISS - 1))

/* v[0..n) converted to an array of type (negative values wrap for the
 * unsigned types, as a C program storing them would); free with free(). */
static void *as_type(const int32_t *v, int64_t n, int type)
{
    size_t w = sa_check_type_size(type);
    void *a = malloc(w * (size_t)(n + 1));
    ck_assert_ptr_nonnull(a);
    for (int64_t i = 0; i < n; i++) {
        switch (type) {
        case SA_CHECK_I32: ((int32_t *)a)[i] = v[i]; break;
        case SA_CHECK_U32: ((uint32_t *)a)[i] = (uint32_t)v[i]; break;
        case SA_CHECK_I64: ((int64_t *)a)[i] = v[i]; break;
        default: ((uint64_t *)a)[i] = (uint64_t)(int64_t)v[i]; break;
        }
    }
    return a;
}

/* The naive SA and LCP of T (malloc'd, n + 1 entries). */
static void naive(const uint8_t *T, int32_t n, int32_t **sa, int32_t **lcp)
{
    pc_error err;
    *sa = malloc(sizeof **sa * (size_t)(n + 1));
    *lcp = malloc(sizeof **lcp * (size_t)(n + 1));
    ck_assert(*sa && *lcp);
    ck_assert_int_eq(sa_oracle_naive_sa(T, n, *sa, &err), 0);
    sa_oracle_naive_lcp(T, n, *sa, *lcp);
}

/* sa_check on int32 arrays; fails the test on an error return. */
static sa_check_report check32(const uint8_t *T, int64_t n, const int32_t *sa, const int32_t *lcp)
{
    sa_check_report rep;
    pc_error err;
    ck_assert_int_eq(sa_check(T, n, sa, SA_CHECK_I32, lcp, SA_CHECK_I32, 1, &rep, &err), PC_OK);
    return rep;
}

/* Asserts a pass with the longest repeat that src/sa's sa_lrs finds. */
static void assert_pass(const sa_check_report *rep, const int32_t *sa, const int32_t *lcp,
                        int32_t n, int lcp_given)
{
    ck_assert_msg(rep->pass && rep->sa_valid, "rejected: %s", rep->why);
    ck_assert_int_eq(rep->rule, SA_CHECK_NONE);
    ck_assert_int_eq(rep->nwhere, 0);
    ck_assert_int_eq(rep->n, n);
    ck_assert_int_eq(rep->lcp_checked, lcp_given);
    ck_assert_int_eq(rep->lcp_valid, lcp_given);
    int32_t len, pos, pos2;
    sa_lrs(sa, lcp, n, &len, &pos, &pos2);
    ck_assert_int_eq(rep->lrs_length, len);
    ck_assert_int_eq(rep->lrs_pos, pos);
    ck_assert_int_eq(rep->lrs_pos2, pos2);
}

/* Texts that stress the rules: high bytes and NULs, all-equal bytes, no
 * repeat, a tie in the longest repeat, one byte. */
static const struct { const char *t; int n; } CASES[] = {
    { "mississippi\x00\xff\x80mississippi", 25 },
    { "\x00\x00\x00\x00\x00\x00\x00\x00\x00", 9 },
    { "\xff\xff\xff\xff\xff\xff\xff", 7 },
    { "abc", 3 },
    { "cdxabycdzab", 11 },
    { "a\x00" "a\x00" "a\x00\x80\x7f\x00", 9 },
    { "x", 1 },
};
#define NCASES (int)(sizeof CASES / sizeof CASES[0])

START_TEST(accepts_right_arrays_of_every_type)
{
    for (int wide = 0; wide <= 1; wide++) {
        sa_check_test_wide(wide);
        for (int c = 0; c < NCASES; c++) {
            const uint8_t *T = (const uint8_t *)CASES[c].t;
            int32_t n = CASES[c].n, *sa, *lcp;
            naive(T, n, &sa, &lcp);
            for (int a = 0; a < NTYPES; a++)
                for (int b = 0; b < NTYPES; b++) {
                    void *s = as_type(sa, n, TYPES[a]), *l = as_type(lcp, n, TYPES[b]);
                    sa_check_report rep;
                    pc_error err;
                    ck_assert_int_eq(sa_check(T, n, s, TYPES[a], l, TYPES[b], 1, &rep, &err), 0);
                    assert_pass(&rep, sa, lcp, n, 1);
                    ck_assert_int_eq(sa_check(T, n, s, TYPES[a], NULL, 0, 1, &rep, &err), 0);
                    assert_pass(&rep, sa, lcp, n, 0);
                    free(s);
                    free(l);
                }
            free(sa);
            free(lcp);
        }
    }
    sa_check_test_wide(0);
}
END_TEST

START_TEST(longest_repeat_ties_go_first_in_suffix_order)
{
    static const uint8_t tie[] = "cdxabycdzab";
    int32_t *sa, *lcp;
    naive(tie, 11, &sa, &lcp);
    sa_check_report rep = check32(tie, 11, sa, lcp);
    ck_assert_int_eq(rep.lrs_length, 2);
    ck_assert_int_eq(rep.lrs_pos, 9); /* "ab" at 9 sorts before "aby..." at 3 */
    ck_assert_int_eq(rep.lrs_pos2, 3);
    free(sa);
    free(lcp);
    static const uint8_t uniq[] = "abc";
    naive(uniq, 3, &sa, &lcp);
    rep = check32(uniq, 3, sa, NULL);
    ck_assert_int_eq(rep.lrs_length, 0);
    ck_assert_int_eq(rep.lrs_pos, -1);
    ck_assert_int_eq(rep.lrs_pos2, -1);
    free(sa);
    free(lcp);
}
END_TEST

START_TEST(empty_and_one_byte_texts)
{
    sa_check_report rep;
    pc_error err;
    ck_assert_int_eq(sa_check(NULL, 0, NULL, SA_CHECK_I64, NULL, 0, 1, &rep, &err), 0);
    ck_assert(rep.pass && rep.sa_valid && !rep.lcp_checked);
    ck_assert_int_eq(rep.lrs_length, 0);
    ck_assert_int_eq(rep.lrs_pos, -1);
    static const uint8_t t[] = "q";
    int32_t zero = 0, one = 1, minus = -1;
    rep = check32(t, 1, &zero, &zero);
    ck_assert(rep.pass && rep.lcp_valid);
    rep = check32(t, 1, &one, &zero);
    ck_assert(!rep.pass && !rep.sa_valid && !rep.lcp_checked);
    ck_assert_int_eq(rep.rule, SA_CHECK_PERMUTATION);
    ck_assert_int_eq(rep.first_missing, 0);
    rep = check32(t, 1, &minus, NULL);
    ck_assert_int_eq(rep.rule, SA_CHECK_PERMUTATION);
    ck_assert_int_eq(rep.where[0].got, -1);
    rep = check32(t, 1, &zero, &one);
    ck_assert(!rep.pass && rep.sa_valid && rep.lcp_checked && !rep.lcp_valid);
    ck_assert_int_eq(rep.rule, SA_CHECK_LCP);
    ck_assert_int_eq(rep.where[0].index, 0);
    ck_assert_int_eq(rep.where[0].expected, 0);
    ck_assert_int_eq(rep.where[0].first, -1); /* the other rules' fields: none */
    ck_assert_int_eq(rep.where[0].prev, -1);
    /* said as an LCP error, with its counts, not as an order one */
    ck_assert_msg(strstr(rep.why, "SA right, LCP wrong: LCP[0] = 1, expected 0; 1 of 1 entries wrong"),
                  "%s", rep.why);
    /* "ba": SA {0, 1} puts "ba" before "a": an inverted pair, said with its
     * texts and the count of failing pairs */
    static const uint8_t ba[] = "ba";
    int32_t inv[2] = {0, 1};
    rep = check32(ba, 2, inv, NULL);
    ck_assert_int_eq(rep.rule, SA_CHECK_ORDER);
    ck_assert_msg(strstr(rep.why, "are out of order") &&
                      strstr(rep.why, "); 1 of 1 adjacent pairs fail the order test"),
                  "%s", rep.why);
}
END_TEST

START_TEST(two_entries_swapped_fail_as_order_at_the_pair)
{
    int32_t *sa, *lcp;
    naive(MISS, NMISS, &sa, &lcp);
    for (int64_t i = 1; i < NMISS; i++) {
        int32_t t = sa[i - 1];
        sa[i - 1] = sa[i];
        sa[i] = t;
        sa_check_report rep = check32(MISS, NMISS, sa, lcp);
        ck_assert(!rep.pass && !rep.sa_valid && !rep.lcp_checked);
        ck_assert_int_eq(rep.rule, SA_CHECK_ORDER);
        ck_assert_int_ge(rep.unsorted, 1);
        ck_assert_ptr_nonnull(strstr(rep.why, "out of order"));
        /* the swapped pair itself is always out of order */
        int found = 0;
        for (int w = 0; w < rep.nwhere; w++)
            if (rep.where[w].index == i) {
                found = 1;
                ck_assert_int_eq(rep.where[w].rule, SA_CHECK_ORDER);
                ck_assert_int_eq(rep.where[w].prev, sa[i - 1]);
                ck_assert_int_eq(rep.where[w].got, sa[i]);
            }
        ck_assert_msg(found, "swap at %lld not located", (long long)i);
        sa[i] = sa[i - 1];
        sa[i - 1] = t;
    }
    /* the first and the last suffix ("\x00\xff..." at 11, "\xff..." at 12)
     * swapped: both ends fail, first-byte descents */
    ck_assert_int_eq(sa[0], 11);
    ck_assert_int_eq(sa[NMISS - 1], 12);
    sa[0] = 12;
    sa[NMISS - 1] = 11;
    sa_check_report rep = check32(MISS, NMISS, sa, NULL);
    ck_assert_int_eq(rep.rule, SA_CHECK_ORDER);
    ck_assert_int_eq(rep.unsorted, 3); /* and one pair through the moved ranks */
    ck_assert_int_eq(rep.where[0].index, 1);
    ck_assert_int_eq(rep.where[0].inverted, 1);
    ck_assert_str_eq(rep.where[0].prev_text, "\\xff\\x80mississippi");
    ck_assert_str_eq(rep.where[0].text, "i");
    const sa_check_where *last = &rep.where[rep.nwhere - 1];
    ck_assert_int_eq(last->index, NMISS - 1);
    ck_assert_int_eq(last->inverted, 1);
    ck_assert_str_eq(last->text, "\\x00\\xff\\x80mississippi");
    free(sa);
    free(lcp);
}
END_TEST

START_TEST(duplicate_and_out_of_range_entries_fail_as_permutation)
{
    int32_t *sa, *lcp;
    naive(MISS, NMISS, &sa, &lcp);
    for (int a = 0; a < NTYPES; a++) {
        int32_t lost = sa[4];
        sa[4] = sa[3];
        void *s = as_type(sa, NMISS, TYPES[a]);
        sa_check_report rep;
        pc_error err;
        ck_assert_int_eq(sa_check(MISS, NMISS, s, TYPES[a], lcp, SA_CHECK_I32, 1, &rep, &err), 0);
        ck_assert(!rep.pass && !rep.sa_valid && !rep.lcp_checked);
        ck_assert_int_eq(rep.rule, SA_CHECK_PERMUTATION);
        ck_assert_int_eq(rep.nwhere, 1);
        ck_assert_int_eq(rep.where[0].index, 4);
        ck_assert_int_eq(rep.where[0].duplicate, 1);
        ck_assert_int_eq(rep.where[0].first, 3);
        ck_assert_int_eq(rep.where[0].got, sa[3]);
        /* the fields of the other rules say "none" (sa_check.h) */
        ck_assert_int_eq(rep.where[0].prev, -1);
        ck_assert_int_eq(rep.where[0].expected, -1);
        ck_assert_int_eq(rep.duplicates, 1);
        ck_assert_int_eq(rep.out_of_range, 0);
        ck_assert_int_eq(rep.first_missing, lost);
        ck_assert_ptr_nonnull(strstr(rep.why, "not a permutation"));
        /* an LCP was given, but a wrong SA leaves it unchecked: said last */
        const char *note = "; LCP not checked (it needs a right SA)";
        ck_assert_msg(strlen(rep.why) > strlen(note) &&
                          strcmp(rep.why + strlen(rep.why) - strlen(note), note) == 0,
                      "%s", rep.why);
        free(s);
        /* -1 as each type stores it, and n */
        sa[4] = -1;
        sa[9] = (int32_t)NMISS;
        s = as_type(sa, NMISS, TYPES[a]);
        ck_assert_int_eq(sa_check(MISS, NMISS, s, TYPES[a], NULL, 0, 1, &rep, &err), 0);
        ck_assert_int_eq(rep.rule, SA_CHECK_PERMUTATION);
        ck_assert_int_eq(rep.out_of_range, 2);
        ck_assert_int_eq(rep.nwhere, 2);
        ck_assert_int_eq(rep.where[0].index, 4);
        ck_assert_int_eq(rep.where[0].duplicate, 0);
        ck_assert_int_eq(rep.where[0].first, -1); /* out of range: no first occurrence */
        ck_assert_int_eq(rep.where[0].prev, -1);
        ck_assert_int_eq(rep.where[0].expected, -1);
        ck_assert_int_eq(rep.where[1].index, 9);
        ck_assert_int_eq(rep.where[1].got, NMISS);
        switch (TYPES[a]) {
        case SA_CHECK_U32: ck_assert_int_eq(rep.where[0].got, UINT32_MAX); break;
        case SA_CHECK_U64:
            ck_assert_int_eq(rep.where[0].got_u64, 1);
            ck_assert(((uint64_t)rep.where[0].got) == UINT64_MAX);
            /* the message shows the stored bits as an unsigned number */
            ck_assert_msg(strstr(rep.why, "18446744073709551615") != NULL, "%s", rep.why);
            break;
        default: ck_assert_int_eq(rep.where[0].got, -1); ck_assert_int_eq(rep.where[0].got_u64, 0);
        }
        free(s);
        free(sa);
        free(lcp);
        naive(MISS, NMISS, &sa, &lcp);
    }
    free(sa);
    free(lcp);
}
END_TEST

/* Suffixes compared with bytes as signed char: the mistake a C program
 * makes with `char` (or a Java one with byte). */
static const uint8_t *g_signed_text;
static int32_t g_signed_n;

static int signed_cmp(const void *x, const void *y)
{
    int32_t i = *(const int32_t *)x, j = *(const int32_t *)y;
    for (; i < g_signed_n && j < g_signed_n; i++, j++) {
        int a = (int8_t)g_signed_text[i], b = (int8_t)g_signed_text[j];
        if (a != b)
            return a < b ? -1 : 1;
    }
    return i == g_signed_n ? (j == g_signed_n ? 0 : -1) : 1;
}

static void signed_sa(const uint8_t *T, int32_t n, int32_t *sa)
{
    g_signed_text = T;
    g_signed_n = n;
    for (int32_t i = 0; i < n; i++)
        sa[i] = i;
    qsort(sa, (size_t)n, sizeof *sa, signed_cmp);
}

START_TEST(signed_byte_order_fails_as_order)
{
    /* distinct bytes: each pair is decided by its first byte */
    static const uint8_t t[] = { 0x41, 0x90, 0x10, 0xff, 0x7f, 0x80 };
    int32_t sa[6];
    signed_sa(t, 6, sa); /* 0x80 0x90 0xff 0x10 0x41 0x7f */
    ck_assert_int_eq(sa[0], 5);
    ck_assert_int_eq(sa[3], 2);
    sa_check_report rep = check32(t, 6, sa, NULL);
    ck_assert_int_eq(rep.rule, SA_CHECK_ORDER);
    ck_assert_int_eq(rep.unsorted, 1);
    ck_assert_int_eq(rep.nwhere, 1);
    ck_assert_int_eq(rep.where[0].index, 3);
    ck_assert_int_eq(rep.where[0].prev, 3);
    ck_assert_int_eq(rep.where[0].got, 2);
    ck_assert_int_eq(rep.where[0].first, -1); /* the other rules' fields: none */
    ck_assert_int_eq(rep.where[0].expected, -1);
    ck_assert_str_eq(rep.where[0].prev_text, "\\xff\\x7f\\x80");
    ck_assert_str_eq(rep.where[0].text, "\\x10\\xff\\x7f\\x80");
    /* a text with repeats and high bytes */
    int32_t n = NMISS, s2[NMISS];
    signed_sa(MISS, n, s2);
    rep = check32(MISS, n, s2, NULL);
    ck_assert_int_eq(rep.rule, SA_CHECK_ORDER);
    ck_assert(!rep.pass);
}
END_TEST

START_TEST(lcp_off_by_one_fails_at_its_index)
{
    int32_t *sa, *lcp;
    naive(MISS, NMISS, &sa, &lcp);
    for (int64_t i = 0; i < NMISS; i++)
        for (int d = -1; d <= 1; d += 2) {
            lcp[i] += d;
            sa_check_report rep = check32(MISS, NMISS, sa, lcp);
            ck_assert(!rep.pass && rep.sa_valid && rep.lcp_checked && !rep.lcp_valid);
            ck_assert_int_eq(rep.rule, SA_CHECK_LCP);
            ck_assert_int_eq(rep.lcp_wrong, 1);
            ck_assert_int_eq(rep.nwhere, 1);
            ck_assert_int_eq(rep.where[0].index, i);
            ck_assert_int_eq(rep.where[0].got, lcp[i]);
            ck_assert_int_eq(rep.where[0].expected, lcp[i] - d);
            ck_assert_int_eq(rep.lrs_length, 11); /* from the recomputed LCP */
            lcp[i] -= d;
        }
    /* LCP[0] = -1 as uint64: located with its exact bits */
    lcp[0] = -1;
    void *l = as_type(lcp, NMISS, SA_CHECK_U64);
    sa_check_report rep;
    pc_error err;
    ck_assert_int_eq(sa_check(MISS, NMISS, sa, SA_CHECK_I32, l, SA_CHECK_U64, 1, &rep, &err), 0);
    ck_assert_int_eq(rep.where[0].index, 0);
    ck_assert_int_eq(rep.where[0].got_u64, 1);
    ck_assert_int_eq(rep.where[0].expected, 0);
    free(l);
    free(sa);
    free(lcp);
}
END_TEST

START_TEST(all_equal_bytes_sort_shortest_first)
{
    enum { N = 200 };
    uint8_t t[N];
    int32_t sa[N];
    for (int i = 0; i < N; i++) {
        t[i] = 'a';
        sa[i] = N - 1 - i;
    }
    sa_check_report rep = check32(t, N, sa, NULL);
    ck_assert(rep.pass);
    ck_assert_int_eq(rep.lrs_length, N - 1);
    ck_assert_int_eq(rep.lrs_pos, 1); /* SA[N-2], SA[N-1]: "a"*199 and "a"*200 */
    ck_assert_int_eq(rep.lrs_pos2, 0);
    /* longest first: the test fails once, where "aa" meets "a" (its
     * successor is the empty suffix, ranked lowest) */
    for (int i = 0; i < N; i++)
        sa[i] = i;
    rep = check32(t, N, sa, NULL);
    ck_assert_int_eq(rep.rule, SA_CHECK_ORDER);
    ck_assert_int_eq(rep.unsorted, 1);
    ck_assert_int_eq(rep.where[0].index, N - 1);
    ck_assert_int_eq(rep.where[0].inverted, 1);
    ck_assert_str_eq(rep.where[0].prev_text, "aa");
    ck_assert_str_eq(rep.where[0].text, "a");
}
END_TEST

START_TEST(a_pair_in_order_failing_through_its_successors)
{
    /* abab: right SA 2 0 3 1; with the last two swapped the pair (2, 0)
     * is in order, but SA puts 3 after 1 */
    static const uint8_t t[] = "abab";
    int32_t sa[4] = { 2, 0, 1, 3 };
    sa_check_report rep = check32(t, 4, sa, NULL);
    ck_assert_int_eq(rep.unsorted, 2);
    ck_assert_int_eq(rep.where[0].index, 1);
    ck_assert_int_eq(rep.where[0].inverted, 0);
    ck_assert_int_eq(rep.where[0].next_prev, 3); /* suffix 3 at SA[3] */
    ck_assert_int_eq(rep.where[0].next, 2);      /* suffix 1 at SA[2] */
    ck_assert_ptr_nonnull(strstr(rep.why, "SA puts 3 (at SA[3]) after 1 (at SA[2])"));
    ck_assert_int_eq(rep.where[1].index, 3);
    ck_assert_int_eq(rep.where[1].inverted, 1);
    ck_assert_int_eq(rep.where[1].next, -1); /* 3 + 1 is the empty suffix */
}
END_TEST

START_TEST(at_most_ten_located_all_counted)
{
    enum { N = 200 };
    uint8_t t[N];
    int32_t sa[N];
    for (int i = 0; i < N; i++) {
        t[i] = (uint8_t)i; /* distinct bytes: SA = 0, 1, ...; reversed, every pair fails */
        sa[i] = N - 1 - i;
    }
    sa_check_report rep = check32(t, N, sa, NULL);
    ck_assert_int_eq(rep.rule, SA_CHECK_ORDER);
    ck_assert_int_eq(rep.unsorted, N - 1);
    ck_assert_int_eq(rep.nwhere, SA_CHECK_WHERE_MAX);
    for (int w = 0; w < SA_CHECK_WHERE_MAX; w++) {
        ck_assert_int_eq(rep.where[w].index, w + 1);
        ck_assert_int_eq(rep.where[w].inverted, 1);
    }
    ck_assert_str_eq(rep.where[0].prev_text, "\\xc7");
    ck_assert_str_eq(rep.where[0].text, "\\xc6\\xc7");
    ck_assert_str_eq(rep.where[9].text, "\\xbd\\xbe\\xbf\\xc0\\xc1\\xc2\\xc3\\xc4\\xc5\\xc6"
                                        "\\xc7");
    for (int i = 0; i < N; i++)
        sa[i] = i % 5 == 0 ? -i - 1 : i;
    rep = check32(t, N, sa, NULL);
    ck_assert_int_eq(rep.out_of_range, N / 5);
    ck_assert_int_eq(rep.nwhere, SA_CHECK_WHERE_MAX);
    ck_assert_int_eq(rep.where[9].index, 45);
    ck_assert_int_eq(rep.where[9].got, -46);
    ck_assert_int_eq(rep.first_missing, 0);
    /* 17 bytes and more are cut at 16 with "..." */
    for (int i = 0; i < N; i++)
        sa[i] = i;
    sa[0] = 1;
    sa[1] = 0;
    rep = check32(t, N, sa, NULL);
    ck_assert_int_eq(rep.where[0].index, 1);
    ck_assert_str_eq(rep.where[0].text, "\\x00\\x01\\x02\\x03\\x04\\x05\\x06\\x07\\x08\\x09"
                                        "\\x0a\\x0b\\x0c\\x0d\\x0e\\x0f...");
}
END_TEST

START_TEST(escapes_backslash_and_control_bytes)
{
    static const uint8_t t[] = "b\\\n\"a";
    int32_t sa[5] = { 2, 3, 1, 4, 0 }; /* "\n.." '"a' '\\..' "a" "b.." */
    sa_check_report rep = check32(t, 5, sa, NULL);
    ck_assert(rep.pass);
    int32_t bad[5] = { 2, 3, 1, 0, 4 };
    rep = check32(t, 5, bad, NULL);
    ck_assert_int_eq(rep.where[0].index, 4);
    ck_assert_str_eq(rep.where[0].prev_text, "b\\\\\\x0a\"a");
    ck_assert_str_eq(rep.where[0].text, "a");
}
END_TEST

START_TEST(wide_work_array_gives_the_same_reports)
{
    pc_rng r;
    pc_rng_seed(&r, 41);
    for (int round = 0; round < 40; round++) {
        int32_t n = 1 + (int32_t)pc_rng_below(&r, 600), *sa, *lcp;
        uint8_t *t = malloc((size_t)n);
        for (int32_t i = 0; i < n; i++)
            t[i] = (uint8_t)(round % 2 ? pc_rng_below(&r, 3) : 0x7e + pc_rng_below(&r, 4));
        naive(t, n, &sa, &lcp);
        /* one planted error of each kind in turn, or none */
        int kind = round % 4;
        int32_t i = (int32_t)pc_rng_below(&r, (uint64_t)n);
        if (kind == 1 && n > 1)
            sa[i] = sa[(i + 1) % n];
        else if (kind == 2 && n > 1) {
            int32_t j = i ? i - 1 : 1, x = sa[i];
            sa[i] = sa[j];
            sa[j] = x;
        } else if (kind == 3)
            lcp[i] += 1;
        sa_check_report a, b;
        pc_error err;
        for (int type = 2; type < NTYPES; type++) {
            void *s = as_type(sa, n, TYPES[type]), *l = as_type(lcp, n, TYPES[type]);
            sa_check_test_wide(0);
            ck_assert_int_eq(sa_check(t, n, s, TYPES[type], l, TYPES[type], 1, &a, &err), 0);
            sa_check_test_wide(1);
            ck_assert_int_eq(sa_check(t, n, s, TYPES[type], l, TYPES[type], 1, &b, &err), 0);
            sa_check_test_wide(0);
            ck_assert_msg(memcmp(&a, &b, sizeof a) == 0, "round %d: %s | %s", round, a.why, b.why);
            ck_assert_int_eq(a.pass, kind == 0 || (n == 1 && kind != 3));
            free(s);
            free(l);
        }
        free(sa);
        free(lcp);
        free(t);
    }
}
END_TEST

START_TEST(bad_arguments_are_einval)
{
    static const uint8_t t[] = "ab";
    int32_t sa[2] = { 0, 1 };
    sa_check_report rep;
    pc_error err;
    ck_assert_int_eq(sa_check(t, 2, sa, 7, NULL, 0, 1, &rep, &err), PC_EINVAL);
    ck_assert_int_eq(sa_check(t, 2, sa, SA_CHECK_I32, sa, 9, 1, &rep, &err), PC_EINVAL);
    ck_assert_int_eq(sa_check(t, -1, sa, SA_CHECK_I32, NULL, 0, 1, &rep, &err), PC_EINVAL);
    ck_assert_int_eq(sa_check(t, 2, NULL, SA_CHECK_I32, NULL, 0, 1, &rep, &err), PC_EINVAL);
    ck_assert_int_eq(sa_check(NULL, 2, sa, SA_CHECK_I32, NULL, 0, 1, &rep, &err), PC_EINVAL);
    ck_assert_int_eq(sa_check(t, 2, sa, SA_CHECK_I32, NULL, 0, 1, NULL, &err), PC_EINVAL);
    /* the LCP-only entry refuses to scatter outside its array */
    int32_t out[2] = { 0, 5 };
    ck_assert_int_eq(sa_check_lcp_only(t, 2, out, SA_CHECK_I32, NULL, 0, &rep, &err), PC_EINVAL);
    ck_assert_str_eq(sa_check_rule_name(SA_CHECK_ORDER), "order");
    ck_assert_str_eq(sa_check_type_name(SA_CHECK_U64), "uint64");
}
END_TEST

typedef struct alloc_ctx {
    const uint8_t *T;
    int32_t n;
    const int32_t *sa, *lcp;
} alloc_ctx;

static int op_check(void *p)
{
    alloc_ctx *c = p;
    sa_check_report rep;
    pc_error err;
    int rc = sa_check(c->T, c->n, c->sa, SA_CHECK_I32, c->lcp, SA_CHECK_I32, 1, &rep, &err);
    if (rc == PC_OK && !rep.pass)
        ck_abort_msg("right arrays rejected: %s", rep.why);
    return rc;
}

static int op_wrappers(void *p)
{
    alloc_ctx *c = p;
    pc_error err;
    int rc = sa_oracle_check_sa(c->T, c->n, c->sa, &err);
    return rc ? rc : sa_oracle_check_lcp(c->T, c->n, c->sa, c->lcp, &err);
}

START_TEST(allocation_failures_are_clean)
{
    int32_t *sa, *lcp;
    naive(MISS, NMISS, &sa, &lcp);
    alloc_ctx c = { MISS, (int32_t)NMISS, sa, lcp };
    for (int wide = 0; wide <= 1; wide++) {
        sa_check_test_wide(wide);
        ck_assert_int_eq(pc_test_alloc_loop(op_check, NULL, &c, 10), 1);
        ck_assert_int_eq(pc_test_alloc_loop(op_wrappers, NULL, &c, 10), 2);
    }
    sa_check_test_wide(0);
    free(sa);
    free(lcp);
}
END_TEST

/* For random texts the naive SA passes, and each of its n - 1 adjacent
 * transpositions (each changes the array: the entries are distinct) is
 * rejected by rule 2. */
START_TEST(every_adjacent_transposition_is_rejected)
{
    pc_rng r;
    pc_rng_seed(&r, 1313);
    static const int alpha[] = { 2, 4, 26, 256 };
    int32_t max = sa_test_naive_max();
    long rejected = 0;
    for (int round = 0; round < 48; round++) {
        /* sizes spread over 0 .. max on a log scale, the last round at max */
        int32_t n = round == 47 ? max : (int32_t)pc_rng_below(&r, (uint64_t)1 << (1 + round % 14));
        if (n > max)
            n = max;
        uint8_t *t = malloc((size_t)n + 1);
        for (int32_t i = 0; i < n; i++)
            t[i] = (uint8_t)(alpha[round % 4] == 256 ? pc_rng_below(&r, 256)
                                                      : 'a' + pc_rng_below(&r, (uint64_t)alpha[round % 4]));
        int32_t *sa, *lcp;
        naive(t, n, &sa, &lcp);
        sa_check_report rep = check32(t, n, sa, lcp);
        assert_pass(&rep, sa, lcp, n, 1);
        pc_error err;
        for (int32_t i = 1; i < n; i++) {
            int32_t x = sa[i - 1];
            sa[i - 1] = sa[i];
            sa[i] = x;
            ck_assert_int_eq(sa_check_order(t, n, sa, SA_CHECK_I32, &rep, &err), 0);
            ck_assert_msg(!rep.pass && rep.rule == SA_CHECK_ORDER,
                          "n=%d: transposition at %d accepted", (int)n, (int)i);
            sa[i] = sa[i - 1];
            sa[i - 1] = x;
            rejected++;
        }
        free(t);
        free(sa);
        free(lcp);
    }
    ck_assert_int_ge(rejected, max - 1);
}
END_TEST

static Suite *suite_sa_check(void)
{
    Suite *s = suite_create("sa_check");
    TCase *tc = pc_tcase("right");
    tcase_add_test(tc, accepts_right_arrays_of_every_type);
    tcase_add_test(tc, longest_repeat_ties_go_first_in_suffix_order);
    tcase_add_test(tc, empty_and_one_byte_texts);
    suite_add_tcase(s, tc);
    tc = pc_tcase("planted");
    tcase_add_test(tc, two_entries_swapped_fail_as_order_at_the_pair);
    tcase_add_test(tc, duplicate_and_out_of_range_entries_fail_as_permutation);
    tcase_add_test(tc, signed_byte_order_fails_as_order);
    tcase_add_test(tc, lcp_off_by_one_fails_at_its_index);
    tcase_add_test(tc, all_equal_bytes_sort_shortest_first);
    tcase_add_test(tc, a_pair_in_order_failing_through_its_successors);
    tcase_add_test(tc, at_most_ten_located_all_counted);
    tcase_add_test(tc, escapes_backslash_and_control_bytes);
    suite_add_tcase(s, tc);
    tc = pc_tcase("limits");
    tcase_add_test(tc, wide_work_array_gives_the_same_reports);
    tcase_add_test(tc, bad_arguments_are_einval);
    tcase_add_test(tc, allocation_failures_are_clean);
    tcase_add_test(tc, every_adjacent_transposition_is_rejected);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return pc_test_run(suite_sa_check()); }
