/* sa_oracle.c - naive SA/LCP, the int32 checks (wrapping sa_check.c) and
 * the LRS check. */
#include "sa_oracle.h"

#include <stdlib.h>
#include <string.h>

#include "pc_alloc.h"
#include "sa_check.h"

typedef struct { const uint8_t *T; int32_t n; } naive_ctx;

static int naive_cmp(const void *a, const void *b, void *arg)
{
    const naive_ctx *c = arg;
    int32_t i = *(const int32_t *)a, j = *(const int32_t *)b;
    int32_t li = c->n - i, lj = c->n - j;
    /* many pairs differ in their first byte: decided without a call (in
     * the fuzz build every memcmp call also goes through ASan's
     * interceptor and libFuzzer's hook, about 70 ns) */
    if (li > 0 && lj > 0 && c->T[i] != c->T[j])
        return c->T[i] < c->T[j] ? -1 : 1;
    int r = memcmp(c->T + i, c->T + j, (size_t)(li < lj ? li : lj));
    if (r)
        return r;
    return (li > lj) - (li < lj);
}

int sa_oracle_naive_sa(const uint8_t *T, int32_t n, int32_t *SA, pc_error *err)
{
    (void)err;
    for (int32_t i = 0; i < n; i++)
        SA[i] = i;
    naive_ctx c = { T, n };
    if (n > 1)
        qsort_r(SA, (size_t)n, sizeof *SA, naive_cmp, &c);
    return PC_OK;
}

void sa_oracle_naive_lcp(const uint8_t *T, int32_t n, const int32_t *SA, int32_t *LCP)
{
    for (int32_t i = 0; i < n; i++) {
        int32_t l = 0;
        if (i > 0) {
            const uint8_t *a = T + SA[i], *b = T + SA[i - 1];
            int32_t m = n - (SA[i] > SA[i - 1] ? SA[i] : SA[i - 1]); /* the shorter length */
            while (l < m && a[l] == b[l])
                l++;
        }
        LCP[i] = l;
    }
}

/* The int32 checks are sa_check.c's generic ones (one implementation of
 * each rule); a wrong array becomes PC_EVERIFY with the report's line. */
int sa_oracle_check_sa(const uint8_t *T, int32_t n, const int32_t *SA, pc_error *err)
{
    sa_check_report rep;
    int rc = sa_check_order(T, n, SA, SA_CHECK_I32, &rep, err);
    if (rc == PC_OK && !rep.pass)
        rc = pc_error_set(err, PC_EVERIFY, NULL, 0, "%s", rep.why);
    return rc;
}

int sa_oracle_check_lcp(const uint8_t *T, int32_t n, const int32_t *SA, const int32_t *LCP,
                        pc_error *err)
{
    sa_check_report rep;
    int rc = sa_check_lcp_only(T, n, SA, SA_CHECK_I32, LCP, SA_CHECK_I32, &rep, err);
    if (rc == PC_OK && !rep.pass)
        rc = pc_error_set(err, PC_EVERIFY, NULL, 0, "%s", rep.why);
    return rc;
}

int sa_oracle_check_lrs(const uint8_t *T, int32_t n, const int32_t *SA, const int32_t *LCP,
                        int32_t len, int32_t pos, int32_t pos2, pc_error *err)
{
    int32_t best = 0, at = -1;
    for (int32_t i = 1; i < n; i++)
        if (LCP[i] > best) {
            best = LCP[i];
            at = i;
        }
    if (len != best)
        return pc_error_set(err, PC_EVERIFY, NULL, 0, "LRS length %d, max LCP is %d", (int)len,
                            (int)best);
    if (at < 0)
        return pos == -1 && pos2 == -1
                   ? PC_OK
                   : pc_error_set(err, PC_EVERIFY, NULL, 0,
                                  "no repeat, but LRS positions %d, %d", (int)pos, (int)pos2);
    if (pos != SA[at - 1] || pos2 != SA[at])
        return pc_error_set(err, PC_EVERIFY, NULL, 0,
                            "LRS at %d, %d; the first longest pair in suffix order is %d, %d",
                            (int)pos, (int)pos2, (int)SA[at - 1], (int)SA[at]);
    if (pos + len > n || pos2 + len > n || memcmp(T + pos, T + pos2, (size_t)len) != 0)
        return pc_error_set(err, PC_EVERIFY, NULL, 0,
                            "the %d bytes at %d and %d differ", (int)len, (int)pos, (int)pos2);
    if (pos + len < n && pos2 + len < n && T[pos + len] == T[pos2 + len])
        return pc_error_set(err, PC_EVERIFY, NULL, 0,
                            "the repeat at %d and %d extends beyond %d bytes", (int)pos,
                            (int)pos2, (int)len);
    return PC_OK;
}
