/* zoo_sa.c - wrong suffix arrays, LCP arrays and longest repeats, judged
 * as `parcheck sa` judges an implementation (cmd_sa.c: the O(n) order
 * check, equality with the naive SA for small n, the LCP recomputed by the
 * Phi method, the longest repeat) and located by sa_check, the checker of
 * `parcheck sa check`. A rejection must name an SA index where the wrong
 * array really differs from the right one (or the LCP index for an LCP). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pc_alloc.h"
#include "sa.h"
#include "sa/sa_check.h"
#include "sa/sa_oracle.h"
#include "zoo.h"

/* The text the comparators of qsort see (qsort has no context argument). */
static const uint8_t *zoo_T;
static int32_t zoo_n, zoo_block;

static int cmp_len(int32_t a, int32_t b, int32_t la, int32_t lb, int shorter_last)
{
    if (la == lb)
        return (a > b) - (a < b);
    return (la < lb) == !shorter_last ? -1 : 1;
}

/* Bug: bytes compared as (signed) char: 0x80..0xff sort below 0x00. */
static int cmp_signed(const void *x, const void *y)
{
    int32_t a = *(const int32_t *)x, b = *(const int32_t *)y;
    int32_t la = zoo_n - a, lb = zoo_n - b;
    for (int32_t k = 0; k < la && k < lb; k++) {
        signed char ca = (signed char)zoo_T[a + k], cb = (signed char)zoo_T[b + k];
        if (ca != cb)
            return ca < cb ? -1 : 1;
    }
    return cmp_len(a, b, la, lb, 0);
}

/* Bug: on a common prefix, the shorter suffix sorts after its extension. */
static int cmp_shorter_last(const void *x, const void *y)
{
    int32_t a = *(const int32_t *)x, b = *(const int32_t *)y;
    int32_t la = zoo_n - a, lb = zoo_n - b;
    int32_t l = la < lb ? la : lb;
    int c = memcmp(zoo_T + a, zoo_T + b, (size_t)l);
    return c ? c : cmp_len(a, b, la, lb, 1);
}

/* Bug: a rank compares bytes only up to the end of its block of the text
 * (the MPI layout: np blocks of n/np), then calls the suffixes equal and
 * orders them by position. */
static int cmp_block(const void *x, const void *y)
{
    int32_t a = *(const int32_t *)x, b = *(const int32_t *)y;
    int32_t ea = (a / zoo_block + 1) * zoo_block, eb = (b / zoo_block + 1) * zoo_block;
    int32_t la = (ea < zoo_n ? ea : zoo_n) - a, lb = (eb < zoo_n ? eb : zoo_n) - b;
    int32_t l = la < lb ? la : lb;
    int c = memcmp(zoo_T + a, zoo_T + b, (size_t)l);
    return c ? c : (a > b) - (a < b);
}

/* Bug: Kasai's h decremented twice after each suffix (h -= 2 under the
 * h > 0 guard). Only h = 1 shows: h becomes -1, a lower bound no more, and
 * the LCP comes out -1 where the bytes before the two suffixes differ. */
static void kasai_twice(const uint8_t *T, int32_t n, const int32_t *SA, int32_t *LCP)
{
    int32_t *rank = malloc(sizeof *rank * (size_t)(n ? n : 1));
    for (int32_t i = 0; i < n; i++)
        rank[SA[i]] = i;
    int32_t h = 0;
    LCP[0] = 0;
    for (int32_t p = 0; p < n; p++) {
        if (rank[p] == 0) {
            h = 0;
            continue;
        }
        int32_t q = SA[rank[p] - 1];
        /* (h may be -1 here: the bytes before both suffixes are compared,
         * inside the text, as the unguarded original would) */
        while (p + h >= 0 && q + h >= 0 && p + h < n && q + h < n && T[p + h] == T[q + h])
            h++;
        LCP[rank[p]] = h;
        if (h > 0)
            h -= 2;
    }
    free(rank);
}

/* Bug: a tie on the longest LCP goes to the last index reaching it. */
static void lrs_last(const int32_t *SA, const int32_t *LCP, int32_t n, int32_t *len,
                     int32_t *pos, int32_t *pos2)
{
    *len = 0, *pos = -1, *pos2 = -1;
    for (int32_t i = 1; i < n; i++)
        if (LCP[i] > 0 && LCP[i] >= *len) {
            *len = LCP[i];
            *pos = SA[i - 1];
            *pos2 = SA[i];
        }
}

/* A text with bytes above 0x7f, repeats that cross block boundaries, and
 * suffixes that are prefixes of others. */
static uint8_t *make_text(int32_t n)
{
    uint8_t *T = malloc((size_t)n);
    uint64_t s = 16;
    for (int32_t i = 0; i < n; i++) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        T[i] = i % 11 < 7 ? (uint8_t)"ab\xe9" "ab\xe9z"[i % 11 % 7] : (uint8_t)(s >> 59);
    }
    /* one 60-byte piece three times: the longest repeat, with a tie (two
     * SA-adjacent pairs reach it); the bytes around each copy differ so
     * that no pair extends it */
    memcpy(T + 400, T + 100, 60);
    memcpy(T + 800, T + 100, 60);
    T[99] = 0xf0, T[399] = 0xf1, T[799] = 0xf2;
    T[160] = 0xf3, T[460] = 0xf4, T[860] = 0xf5;
    return T;
}

/* The CLI's judgement: SA checked (order, naive), then LCP, then the
 * longest repeat; *index the located index (sa_check), -1 if none. */
static int judge_sa(const uint8_t *T, int32_t n, const int32_t *SA, const int32_t *LCP,
                    int32_t len, int32_t pos, int32_t pos2, const int32_t *ok_sa,
                    const int32_t *ok_lcp, char *msg, size_t mlen)
{
    pc_error err;
    pc_error_clear(&err);
    int rc = sa_oracle_check_sa(T, n, SA, &err);
    if (rc == PC_OK && memcmp(ok_sa, SA, sizeof *SA * (size_t)n))
        rc = pc_error_set(&err, PC_EVERIFY, NULL, 0, "SA differs from the naive suffix array");
    if (rc == PC_OK)
        rc = sa_oracle_check_lcp(T, n, SA, LCP, &err);
    if (rc == PC_OK)
        rc = sa_oracle_check_lrs(T, n, SA, LCP, len, pos, pos2, &err);
    if (rc == PC_OK) {
        snprintf(msg, mlen, "accepted");
        return ZOO_SLIPPED;
    }
    if (rc != PC_EVERIFY) {
        snprintf(msg, mlen, "set-up failed");
        return ZOO_BROKEN;
    }
    sa_check_report rep;
    if (sa_check(T, n, SA, SA_CHECK_I32, LCP, SA_CHECK_I32, 1, &rep, NULL)) {
        snprintf(msg, mlen, "set-up failed");
        return ZOO_BROKEN;
    }
    if (rep.pass) { /* only the longest repeat is wrong: sa_check reports the right one */
        int right = rep.lrs_length == len && (rep.lrs_pos != pos || rep.lrs_pos2 != pos2);
        snprintf(msg, mlen, "%s (the first longest pair is at %lld, %lld)", err.msg,
                 (long long)rep.lrs_pos, (long long)rep.lrs_pos2);
        return right ? ZOO_REJECTED : ZOO_SLIPPED;
    }
    int64_t i = rep.nwhere ? rep.where[0].index : -1;
    int hit;
    if (rep.rule == SA_CHECK_LCP)
        hit = i >= 0 && LCP[i] != ok_lcp[i];
    else {
        /* the pair at i, or (a pair in order whose next suffixes are not,
         * sa_check_where.inverted == 0) the indices of those next suffixes */
        const sa_check_where *w = &rep.where[0];
        hit = i >= 0 && (SA[i] != ok_sa[i] || (i > 0 && SA[i - 1] != ok_sa[i - 1]));
        if (!hit && i >= 0 && rep.rule == SA_CHECK_ORDER && !w->inverted)
            hit = (w->next >= 0 && SA[w->next] != ok_sa[w->next]) ||
                  (w->next_prev >= 0 && SA[w->next_prev] != ok_sa[w->next_prev]);
    }
    snprintf(msg, mlen, "rule %s at index %lld%s", sa_check_rule_name(rep.rule), (long long)i,
             hit ? "" : ", where the array is right");
    return hit ? ZOO_REJECTED : ZOO_SLIPPED;
}

static int run_sa_entry(const zoo_entry *self, char *msg, size_t len)
{
    const int32_t n = 997;
    uint8_t *T = make_text(n);
    int32_t *ok = malloc(sizeof *ok * n), *okl = malloc(sizeof *okl * n);
    int32_t *SA = malloc(sizeof *SA * n), *LCP = malloc(sizeof *LCP * n);
    int out = ZOO_BROKEN;
    snprintf(msg, len, "set-up failed");
    if (!T || !ok || !okl || !SA || !LCP || sa_oracle_naive_sa(T, n, ok, NULL))
        goto done;
    sa_oracle_naive_lcp(T, n, ok, okl);
    zoo_T = T, zoo_n = n, zoo_block = (n + 3) / 4;
    memcpy(SA, ok, sizeof *SA * n);
    int (*cmp)(const void *, const void *) = NULL;
    if (self->arg == 0)
        cmp = cmp_signed;
    else if (self->arg == 1)
        cmp = cmp_shorter_last;
    else if (self->arg == 2)
        cmp = cmp_block;
    if (cmp) {
        for (int32_t i = 0; i < n; i++)
            SA[i] = i;
        qsort(SA, (size_t)n, sizeof *SA, cmp);
    }
    int32_t l, p, p2;
    if (self->arg == 3)
        kasai_twice(T, n, SA, LCP);
    else if (sa_lcp_kasai(T, SA, n, LCP, 1, NULL))
        goto done;
    if (self->arg == 4)
        lrs_last(SA, LCP, n, &l, &p, &p2);
    else
        sa_lrs(SA, LCP, n, &l, &p, &p2);
    out = judge_sa(T, n, SA, LCP, l, p, p2, ok, okl, msg, len);
    if (self->control) { /* seq's own arrays: the judges must accept them */
        if (sa_build_seq(T, n, SA, 1, NULL) || sa_lcp_kasai(T, SA, n, LCP, 1, NULL)) {
            out = ZOO_BROKEN;
            goto done;
        }
        sa_lrs(SA, LCP, n, &l, &p, &p2);
        out = judge_sa(T, n, SA, LCP, l, p, p2, ok, okl, msg, len) == ZOO_SLIPPED &&
                      !strcmp(msg, "accepted") ? ZOO_REJECTED : ZOO_SLIPPED;
    }
done:
    free(T);
    free(ok);
    free(okl);
    free(SA);
    free(LCP);
    return out;
}

const zoo_entry zoo_sa_entries[] = {
    {"sa-signed-bytes", "SA bytes compared as signed", 0, run_sa_entry, 0},
    {"sa-shorter-last", "a shorter suffix sorted after its extension", 0, run_sa_entry, 1},
    {"sa-block-boundary", "comparison truncated at an MPI block boundary", 0, run_sa_entry, 2},
    {"sa-kasai-twice", "Kasai h decremented twice", 0, run_sa_entry, 3},
    {"sa-lrs-last-tie", "LRS tie resolved to the last pair", 0, run_sa_entry, 4},
    {"sa-control", "seq with Kasai and sa_lrs", 1, run_sa_entry, 5},
    {NULL, NULL, 0, NULL, 0},
};
