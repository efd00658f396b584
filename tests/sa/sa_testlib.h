/* sa_testlib.h - what the suffix-array suites share: run every available
 * in-process implementation on a text and check it with the oracles. */
#ifndef SA_TESTLIB_H
#define SA_TESTLIB_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pc_alloc.h"
#include "pc_test.h"
#include "sa.h"
#include "sa/sa_oracle.h"

/* Largest n that the suites check against the naive SA and LCP:
 * SA_ORACLE_NAIVE_MAX, or PARCHECK_TEST_NAIVE_MAX when set (check-valgrind
 * lowers it: the naive sort is quadratic on constant and periodic texts,
 * hours under memcheck at 16 KiB, and memcheck is there for the memory
 * accesses, which the other checks make as well). */
static inline int32_t sa_test_naive_max(void)
{
    const char *s = getenv("PARCHECK_TEST_NAIVE_MAX");
    return s && *s ? (int32_t)atol(s) : SA_ORACLE_NAIVE_MAX;
}

/* Checks every available in-process implementation on T (with `threads`
 * for the threaded ones): SA by Burkhardt-Kaerkkaeinen (and the naive SA
 * when naive != 0), LCP by the Phi method (and naively), LRS with memcmp,
 * and identical arrays across implementations. label names the input in
 * failure messages. Returns the number of implementations checked. */
static inline int sa_test_all_impls(const uint8_t *T, int32_t n, int threads, int naive,
                                    const char *label)
{
    int nimpl, checked = 0;
    const sa_impl *impls = sa_impls(&nimpl);
    int32_t *SA = pc_malloc_array((size_t)n + 1, sizeof *SA);
    int32_t *LCP = pc_malloc_array((size_t)n + 1, sizeof *LCP);
    int32_t *ref = pc_malloc_array((size_t)n + 1, sizeof *ref);
    int32_t *refl = pc_malloc_array((size_t)n + 1, sizeof *refl);
    ck_assert(SA && LCP && ref && refl);
    pc_error err;
    if (naive) {
        ck_assert_int_eq(sa_oracle_naive_sa(T, n, ref, &err), 0);
        sa_oracle_naive_lcp(T, n, ref, refl);
    }
    int have_ref = naive;
    for (int k = 0; k < nimpl; k++) {
        char why[256];
        if (!impls[k].build || !impls[k].available(why, sizeof why))
            continue;
        pc_error_clear(&err);
        int t = impls[k].threaded ? threads : 1;
        for (int32_t i = 0; i < n; i++)
            SA[i] = LCP[i] = -7;
        int rc = impls[k].build(T, n, SA, t, &err);
        ck_assert_msg(rc == 0, "%s on %s: %s", impls[k].name, label, err.msg);
        rc = sa_oracle_check_sa(T, n, SA, &err);
        ck_assert_msg(rc == 0, "%s on %s (n=%d): %s", impls[k].name, label, (int)n, err.msg);
        ck_assert_int_eq(sa_lcp_kasai(T, SA, n, LCP, t, &err), 0);
        rc = sa_oracle_check_lcp(T, n, SA, LCP, &err);
        ck_assert_msg(rc == 0, "%s on %s: %s", impls[k].name, label, err.msg);
        int32_t len, pos, pos2;
        sa_lrs(SA, LCP, n, &len, &pos, &pos2);
        rc = sa_oracle_check_lrs(T, n, SA, LCP, len, pos, pos2, &err);
        ck_assert_msg(rc == 0, "%s on %s: %s", impls[k].name, label, err.msg);
        if (have_ref) {
            ck_assert_msg(!memcmp(SA, ref, sizeof *SA * (size_t)n), "%s on %s: SA differs%s",
                          impls[k].name, label, naive ? " from the naive SA" : "");
            ck_assert_msg(!memcmp(LCP, refl, sizeof *LCP * (size_t)n), "%s on %s: LCP differs",
                          impls[k].name, label);
        } else {
            memcpy(ref, SA, sizeof *SA * (size_t)n);
            memcpy(refl, LCP, sizeof *LCP * (size_t)n);
            have_ref = 1;
        }
        checked++;
    }
    pc_free(SA);
    pc_free(LCP);
    pc_free(ref);
    pc_free(refl);
    return checked;
}

#endif
