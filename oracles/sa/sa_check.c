/* sa_check.c - the suffix array / LCP checker of sa_check.h.
 *
 * Why it is fast enough without being clever: each rule is one pass whose
 * cost is one or two random memory accesses per element (rank or phi, and
 * a text byte), prefetched a few elements ahead. Rigor does not depend on
 * speed: rule 2 is the Burkhardt-Kaerkkaeinen theorem (for a permutation,
 * strictly increasing (T[SA[i]], rank(SA[i]+1)) is equivalent to sorted
 * suffixes), rule 3 recomputes every LCP value exactly, and every element
 * of SA and LCP is looked at. Serial on purpose: the passes are bound by
 * memory latency, and a second thread on the 2-core CI machine would
 * compete with the program whose output is being judged. */
#include "sa_check.h"

#include <stdio.h>
#include <string.h>

#include "pc_alloc.h"

/* Elements converted per block, and how far ahead the passes prefetch. */
#define SA_BLOCK 1024
#define PF 24

static int g_test_wide;

void sa_check_test_wide(int wide)
{
    g_test_wide = wide;
}

/* What every pass reads. */
typedef struct chk {
    const uint8_t *T;
    int64_t n;
    const void *SA;
    int sa_type;
    const void *LCP;   /* NULL: not checked */
    int lcp_type;
    sa_check_report *rep;
} chk;

const char *sa_check_rule_name(int rule)
{
    switch (rule) {
    case SA_CHECK_PERMUTATION: return "permutation";
    case SA_CHECK_ORDER: return "order";
    case SA_CHECK_LCP: return "lcp";
    default: return "none";
    }
}

const char *sa_check_type_name(int type)
{
    switch (type) {
    case SA_CHECK_I32: return "int32";
    case SA_CHECK_U32: return "uint32";
    case SA_CHECK_I64: return "int64";
    case SA_CHECK_U64: return "uint64";
    default: return "?";
    }
}

size_t sa_check_type_size(int type)
{
    switch (type) {
    case SA_CHECK_I32: case SA_CHECK_U32: return 4;
    case SA_CHECK_I64: case SA_CHECK_U64: return 8;
    default: return 0;
    }
}

static int block_len(int64_t from, int64_t n)
{
    return n - from < SA_BLOCK ? (int)(n - from) : SA_BLOCK;
}

/* A[from..from+len) as int64 in out: the type is switched on once per
 * block, each case a plain loop the compiler widens. An unsigned 64-bit
 * value above INT64_MAX becomes -1: outside [0, n) and never a valid LCP,
 * like a negative one; the report re-reads its bits (elem_raw). */
static void load_block(const void *A, int type, int64_t from, int len, int64_t *out)
{
    switch (type) {
    case SA_CHECK_I32: {
        const int32_t *a = (const int32_t *)A + from;
        for (int k = 0; k < len; k++)
            out[k] = a[k];
        break;
    }
    case SA_CHECK_U32: {
        const uint32_t *a = (const uint32_t *)A + from;
        for (int k = 0; k < len; k++)
            out[k] = a[k];
        break;
    }
    case SA_CHECK_I64:
        memcpy(out, (const int64_t *)A + from, sizeof *out * (size_t)len);
        break;
    default: {
        const uint64_t *a = (const uint64_t *)A + from;
        for (int k = 0; k < len; k++)
            out[k] = a[k] > (uint64_t)INT64_MAX ? -1 : (int64_t)a[k];
        break;
    }
    }
}

/* A[i] exactly: *u64 = 1 when it is an unsigned value above INT64_MAX
 * (returned as its bits). */
static int64_t elem_raw(const void *A, int type, int64_t i, int *u64)
{
    *u64 = 0;
    switch (type) {
    case SA_CHECK_I32: return ((const int32_t *)A)[i];
    case SA_CHECK_U32: return ((const uint32_t *)A)[i];
    case SA_CHECK_I64: return ((const int64_t *)A)[i];
    default: {
        uint64_t v = ((const uint64_t *)A)[i];
        *u64 = v > (uint64_t)INT64_MAX;
        return (int64_t)v;
    }
    }
}

/* The next where record for a failure of rule at index i (cleared, with
 * got read from A), or NULL when SA_CHECK_WHERE_MAX are located. Records
 * the first failure's rule. */
static sa_check_where *where_add(const chk *c, int rule, int64_t i, const void *A, int type)
{
    sa_check_report *rep = c->rep;
    if (rep->rule == SA_CHECK_NONE)
        rep->rule = rule;
    if (rep->nwhere >= SA_CHECK_WHERE_MAX)
        return NULL;
    sa_check_where *w = &rep->where[rep->nwhere++];
    memset(w, 0, sizeof *w);
    w->index = i;
    w->rule = rule;
    w->got = elem_raw(A, type, i, &w->got_u64);
    w->first = w->prev = w->expected = -1;
    return w;
}

/* The failure hooks of the passes: counted always, located while room is
 * left. Out of line: they run only on a wrong array. */
static __attribute__((noinline, cold)) void note_out_of_range(const chk *c, int64_t i)
{
    c->rep->out_of_range++;
    where_add(c, SA_CHECK_PERMUTATION, i, c->SA, c->sa_type);
}

static __attribute__((noinline, cold)) void note_duplicate(const chk *c, int64_t i, int64_t first)
{
    c->rep->duplicates++;
    sa_check_where *w = where_add(c, SA_CHECK_PERMUTATION, i, c->SA, c->sa_type);
    if (w) {
        w->duplicate = 1;
        w->first = first;
    }
}

/* The first SA_CHECK_SHOW bytes of the suffix at pos, escaped into
 * out[SA_CHECK_SHOW_CHARS]: "\\" for a backslash, printable ASCII as is,
 * "\xHH" otherwise, then "..." when the suffix is longer. */
static void escape_suffix(const uint8_t *T, int64_t n, int64_t pos, char *out)
{
    size_t o = 0;
    int64_t end = n - pos > SA_CHECK_SHOW ? pos + SA_CHECK_SHOW : n;
    for (int64_t p = pos; p < end; p++) {
        unsigned b = T[p];
        if (b == '\\') {
            out[o++] = '\\';
            out[o++] = '\\';
        } else if (b >= 0x20 && b < 0x7f) {
            out[o++] = (char)b;
        } else {
            snprintf(out + o, SA_CHECK_SHOW_CHARS - o, "\\x%02x", b);
            o += 4;
        }
    }
    if (end < n) {
        memcpy(out + o, "...", 3);
        o += 3;
    }
    out[o] = '\0';
}

/* 1 when the suffix at a is greater than the one at b (a != b): bytes
 * unsigned, a proper prefix first. O(their common prefix), so run only
 * for the located failures. */
static int suffix_greater(const uint8_t *T, int64_t n, int64_t a, int64_t b)
{
    int64_t la = n - a, lb = n - b;
    int r = memcmp(T + a, T + b, (size_t)(la < lb ? la : lb));
    return r ? r > 0 : la > lb;
}

/* A pair failing rule 2's test at index i (a = SA[i-1], b = SA[i]);
 * rank_a1, rank_b1 are the ranks of a + 1 and b + 1 (index + 1, 0 for the
 * empty suffix). */
static __attribute__((noinline, cold)) void note_unsorted(const chk *c, int64_t i, int64_t a,
                                                          int64_t b, int64_t rank_a1,
                                                          int64_t rank_b1)
{
    c->rep->unsorted++;
    sa_check_where *w = where_add(c, SA_CHECK_ORDER, i, c->SA, c->sa_type);
    if (w) {
        w->prev = a;
        w->inverted = suffix_greater(c->T, c->n, a, b);
        w->next_prev = rank_a1 - 1;
        w->next = rank_b1 - 1;
        escape_suffix(c->T, c->n, a, w->prev_text);
        escape_suffix(c->T, c->n, b, w->text);
    }
}

static __attribute__((noinline, cold)) void note_lcp(const chk *c, int64_t i, int64_t expected)
{
    c->rep->lcp_wrong++;
    sa_check_where *w = where_add(c, SA_CHECK_LCP, i, c->LCP, c->lcp_type);
    if (w)
        w->expected = expected;
}

#define FN2(name, w) name##_##w
#define FN1(name, w) FN2(name, w)
#define RANK_T uint32_t
#define FN(name) FN1(name, 32)
#include "sa_check_passes.inc"
#undef RANK_T
#undef FN
#define RANK_T uint64_t
#define FN(name) FN1(name, 64)
#include "sa_check_passes.inc"
#undef RANK_T
#undef FN

/* 4-byte work entries while n < 2^32: ranks run up to n <= UINT32_MAX,
 * positions up to n - 1 < UINT32_MAX, the marker "no phi" (UINT32_MAX),
 * LCP values below n. 8-byte entries from n = 2^32 on, or everywhere under
 * the test hook. */
static int use_wide(int64_t n)
{
    return g_test_wide || n > (int64_t)UINT32_MAX;
}

/* got in decimal, exactly (an unsigned 64-bit value above INT64_MAX too). */
static void format_got(const sa_check_where *w, char *buf, size_t cap)
{
    if (w->got_u64)
        snprintf(buf, cap, "%llu", (unsigned long long)(uint64_t)w->got);
    else
        snprintf(buf, cap, "%lld", (long long)w->got);
}

/* rep->why: the first failure with the counts, or the verdict. */
static void write_why(sa_check_report *rep, int lcp_given)
{
    char got[24] = "";
    const sa_check_where *w = rep->nwhere ? &rep->where[0] : NULL;
    if (w)
        format_got(w, got, sizeof got);
    long long n = (long long)rep->n;
    char *s = rep->why;
    size_t cap = sizeof rep->why;
    if (rep->rule == SA_CHECK_PERMUTATION && w) {
        int o = w->duplicate
                    ? snprintf(s, cap, "SA is not a permutation: %s at SA[%lld] and SA[%lld]", got,
                               (long long)w->first, (long long)w->index)
                    : snprintf(s, cap, "SA is not a permutation: SA[%lld] = %s is outside [0, %lld)",
                               (long long)w->index, got, n);
        if (o > 0 && (size_t)o < cap)
            snprintf(s + o, cap - (size_t)o,
                     "; %lld entries outside [0, %lld), %lld duplicated, first missing position %lld",
                     (long long)rep->out_of_range, n, (long long)rep->duplicates,
                     (long long)rep->first_missing);
    } else if (rep->rule == SA_CHECK_ORDER && w && w->inverted) {
        snprintf(s, cap, "suffixes %lld and %lld at SA[%lld], SA[%lld] are out of order "
                 "(\"%s\" then \"%s\"); %lld of %lld adjacent pairs fail the order test",
                 (long long)w->prev, (long long)w->got, (long long)w->index - 1,
                 (long long)w->index, w->prev_text, w->text, (long long)rep->unsorted,
                 n - 1);
    } else if (rep->rule == SA_CHECK_ORDER && w) {
        snprintf(s, cap, "SA is out of order: suffixes %lld and %lld at SA[%lld], SA[%lld] start "
                 "alike but SA puts %lld (at SA[%lld]) after %lld (at SA[%lld]); %lld of %lld "
                 "adjacent pairs fail the order test", (long long)w->prev, (long long)w->got,
                 (long long)w->index - 1, (long long)w->index, (long long)w->prev + 1,
                 (long long)w->next_prev, (long long)w->got + 1, (long long)w->next,
                 (long long)rep->unsorted, n - 1);
    } else if (rep->rule == SA_CHECK_LCP && w) {
        snprintf(s, cap, "SA right, LCP wrong: LCP[%lld] = %s, expected %lld; %lld of %lld "
                 "entries wrong", (long long)w->index, got, (long long)w->expected,
                 (long long)rep->lcp_wrong, n);
    } else if (rep->lrs_length > 0) {
        snprintf(s, cap, "SA right%s; longest repeat %lld bytes at %lld and %lld",
                 lcp_given ? ", LCP right" : "", (long long)rep->lrs_length,
                 (long long)rep->lrs_pos, (long long)rep->lrs_pos2);
    } else {
        snprintf(s, cap, "SA right%s", lcp_given ? ", LCP right" : "");
    }
    size_t len = strlen(s);
    if (lcp_given && !rep->sa_valid && len < cap)
        snprintf(s + len, cap - len, "; LCP not checked (it needs a right SA)");
}

enum { STAGE_ORDER = 1, STAGE_LCP = 2 };

/* Runs the stages on one work array: rules 1 and 2 (STAGE_ORDER), then
 * rule 3 and the longest repeat (STAGE_LCP) when the SA passed them or
 * was declared valid (STAGE_LCP alone). */
static int check_run(const chk *c, int stages, pc_error *err)
{
    sa_check_report *rep = c->rep;
    if (!rep)
        return pc_error_set(err, PC_EINVAL, NULL, 0, "sa_check: no report");
    memset(rep, 0, sizeof *rep);
    rep->n = c->n;
    rep->first_missing = rep->lrs_pos = rep->lrs_pos2 = -1;
    if (c->n < 0 || (c->n > 0 && (!c->T || !c->SA)) || !sa_check_type_size(c->sa_type) ||
        (c->LCP && !sa_check_type_size(c->lcp_type)))
        return pc_error_set(err, PC_EINVAL, NULL, 0,
                            "sa_check: n < 0, a NULL array or an unknown element type");
    int wide = use_wide(c->n);
    void *work = NULL;
    if (c->n > 0) {
        /* zeroed: rule 1 finds duplicates by a rank already set */
        work = pc_calloc((size_t)c->n + 1, wide ? sizeof(uint64_t) : sizeof(uint32_t));
        if (!work)
            return pc_error_nomem(err, "checking a suffix array (the rank / phi array)");
    }
    int valid = 1, rc = PC_OK;
    if ((stages & STAGE_ORDER) && c->n > 0) {
        valid = wide ? perm_64(c, work) : perm_32(c, work);
        if (valid) {
            if (wide)
                order_64(c, work);
            else
                order_32(c, work);
            valid = rep->unsorted == 0;
        }
    }
    rep->sa_valid = valid;
    if ((stages & STAGE_LCP) && valid) {
        if (c->n > 0)
            rc = wide ? lcp_64(c, work) : lcp_32(c, work);
        rep->lcp_checked = c->LCP != NULL;
        rep->lcp_valid = rep->lcp_checked && rep->lcp_wrong == 0;
    }
    pc_free(work);
    if (rc != PC_OK)
        return pc_error_set(err, rc, NULL, 0, "sa_check: SA holds a value outside [0, %lld)",
                            (long long)c->n);
    rep->pass = rep->sa_valid && (!(stages & STAGE_LCP) || !c->LCP || rep->lcp_valid);
    write_why(rep, (stages & STAGE_LCP) && c->LCP);
    return PC_OK;
}

int sa_check(const uint8_t *T, int64_t n, const void *SA, int sa_type, const void *LCP,
             int lcp_type, int threads, sa_check_report *rep, pc_error *err)
{
    (void)threads;
    chk c = { T, n, SA, sa_type, LCP, lcp_type, rep };
    return check_run(&c, STAGE_ORDER | STAGE_LCP, err);
}

int sa_check_order(const uint8_t *T, int64_t n, const void *SA, int sa_type,
                   sa_check_report *rep, pc_error *err)
{
    chk c = { T, n, SA, sa_type, NULL, 0, rep };
    return check_run(&c, STAGE_ORDER, err);
}

int sa_check_lcp_only(const uint8_t *T, int64_t n, const void *SA, int sa_type,
                      const void *LCP, int lcp_type, sa_check_report *rep, pc_error *err)
{
    chk c = { T, n, SA, sa_type, LCP, lcp_type, rep };
    return check_run(&c, STAGE_LCP, err);
}
