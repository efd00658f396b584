/* sa_check.h - judges a suffix array (and optionally an LCP array) that any
 * program wrote, on plain arrays of any of four integer types, for texts of
 * any length (n >= 2^31 included). Shares no code with src/sa.
 *
 * Rules (numbered; the report names them):
 *  1. permutation: SA[0..n) holds every position of [0, n) exactly once.
 *  2. order: SA lists the suffixes in increasing order. Bytes compare as
 *     unsigned (0x00 lowest, 0xff highest); a suffix that is a proper prefix
 *     of another sorts first (the empty suffix is the lowest of all).
 *     Checked by Burkhardt-Kaerkkaeinen: a permutation SA is the suffix
 *     array iff the pairs (T[SA[i]], rank(SA[i] + 1)) strictly increase in
 *     i, where rank is the inverse of SA and rank(n), the empty suffix,
 *     is below all. One pass, O(n).
 *  3. lcp: LCP[0] = 0 and LCP[i] = the length of the longest common prefix
 *     of the suffixes SA[i-1] and SA[i], recomputed by the Phi / permuted
 *     LCP method (not Kasai's), only when rules 1 and 2 hold.
 *  The longest repeated substring is reported whenever rules 1 and 2 hold:
 *  its length is the largest LCP, its pair (SA[i-1], SA[i]) is at the first
 *  index i reaching it.
 *
 * Memory: one work array of n + 1 entries of 4 bytes when n < 2^32 (8
 * bytes otherwise), through pc_alloc; the Phi / permuted-LCP arrays reuse
 * it, so the peak beyond the caller's arrays stays 4(n + 1) bytes. */
#ifndef SA_CHECK_H
#define SA_CHECK_H

#include <stddef.h>
#include <stdint.h>

#include "pc_error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Element type of an SA or LCP array (little-endian, native alignment). */
enum sa_check_type { SA_CHECK_I32, SA_CHECK_U32, SA_CHECK_I64, SA_CHECK_U64 };

/* The rule a failure breaks (rules 1-3 above). */
enum sa_check_rule { SA_CHECK_NONE, SA_CHECK_PERMUTATION, SA_CHECK_ORDER, SA_CHECK_LCP };

/* At most this many failures are located, in index order. */
#define SA_CHECK_WHERE_MAX 10

/* Bytes of a suffix shown for an order failure; each byte takes up to 4
 * characters escaped ("\xff"), then "..." when the suffix goes on. */
#define SA_CHECK_SHOW 16
#define SA_CHECK_SHOW_CHARS (4 * SA_CHECK_SHOW + 4)

/* One located failure.
 * index     0-based index into SA (rules 1, 2) or LCP (rule 3). For rule 2
 *           the pair SA[index-1], SA[index] is out of order.
 * got       SA[index] (rules 1, 2) or LCP[index] (rule 3).
 * got_u64   1 when got is an unsigned 64-bit element above INT64_MAX, kept
 *           as its bits (print it as (uint64_t)got); else 0.
 * duplicate rule 1: 1 when got repeats SA[first], 0 when got is outside
 *           [0, n); first is then -1.
 * prev      rule 2: SA[index-1]; else -1.
 * inverted  rule 2: 1 when the suffixes prev and got themselves are out of
 *           order (compared byte by byte). 0 when they are in order, start
 *           with the same byte, and the test fails because SA puts prev + 1
 *           after got + 1: SA is wrong there, at the indices next_prev and
 *           next (-1 stands for the empty suffix n).
 * expected  rule 3: the recomputed LCP[index]; else -1.
 * prev_text, text  rule 2: the first bytes of the suffixes prev and got,
 *           escaped (printable ASCII as is, "\\" for a backslash, "\xHH"
 *           otherwise, "..." when the suffix is longer); else "". */
typedef struct sa_check_where {
    int64_t index;
    int rule;
    int64_t got;
    int got_u64;
    int duplicate;
    int64_t first;
    int64_t prev;
    int inverted;
    int64_t next_prev, next;
    int64_t expected;
    char prev_text[SA_CHECK_SHOW_CHARS];
    char text[SA_CHECK_SHOW_CHARS];
} sa_check_where;

/* The verdict: plain data, no pointers.
 * Counts cover the whole array, not only the located failures:
 * out_of_range and duplicates for rule 1 (first_missing: the smallest
 * position absent from SA, -1 when none), unsorted: the adjacent pairs
 * failing the test of rule 2 (counted only when rule 1 holds; see
 * sa_check_where.inverted for what one failing pair means), lcp_wrong for
 * rule 3. */
typedef struct sa_check_report {
    int pass;                 /* 1: SA right, and LCP right when given */
    int sa_valid;             /* rules 1 and 2 hold */
    int lcp_checked;          /* an LCP was given and compared (needs sa_valid) */
    int lcp_valid;            /* lcp_checked and every entry equal */
    int rule;                 /* rule of the first failure; SA_CHECK_NONE on pass */
    int64_t n;
    int64_t out_of_range, duplicates, first_missing, unsorted, lcp_wrong;
    int nwhere;
    sa_check_where where[SA_CHECK_WHERE_MAX];
    char why[320];            /* one line: the first failure and the counts, or the verdict */
    int64_t lrs_length;       /* longest repeat; 0 when nothing repeats or SA is wrong */
    int64_t lrs_pos, lrs_pos2; /* SA[i-1], SA[i] at the first i with LCP[i] = lrs_length; -1 if none */
} sa_check_report;

/* Checks SA (and LCP when not NULL) against the text T.
 * T        [0..n) bytes, read only; may be NULL only when n == 0.
 * n        text length, 0 <= n.
 * SA       [0..n) elements of sa_type, read only, caller-owned (a mapped
 *          file is fine: it is read, never copied).
 * LCP      [0..n) elements of lcp_type, read only; NULL: not checked (the
 *          LCP is still recomputed to report the longest repeat).
 * threads  reserved: the checker is serial (memory bound; see sa_check.c).
 * rep      receives the verdict (filled on PC_OK); not NULL.
 * Returns PC_OK whatever the verdict (a wrong SA is rep->pass == 0, not an
 * error), PC_EINVAL (bad type, n < 0, a NULL array or report), PC_ENOMEM
 * (the work array; nothing is left allocated). */
int sa_check(const uint8_t *T, int64_t n, const void *SA, int sa_type, const void *LCP,
             int lcp_type, int threads, sa_check_report *rep, pc_error *err);

/* Rules 1 and 2 only (no LCP, no longest repeat): the part of sa_check
 * that the int32 oracle sa_oracle_check_sa wraps. Same arguments and
 * returns; rep->lrs_* stay 0 / -1. */
int sa_check_order(const uint8_t *T, int64_t n, const void *SA, int sa_type,
                   sa_check_report *rep, pc_error *err);

/* Rule 3 alone, for an SA already known to satisfy rules 1 and 2 (not
 * checked again: a wrong SA here is undefined). Fills rep->lcp_*, the
 * longest repeat and, on a difference, rep->rule / where / why. */
int sa_check_lcp_only(const uint8_t *T, int64_t n, const void *SA, int sa_type,
                      const void *LCP, int lcp_type, sa_check_report *rep, pc_error *err);

/* "permutation", "order", "lcp" or "none". */
const char *sa_check_rule_name(int rule);

/* "int32", "uint32", "int64", "uint64" or "?"; bytes of one element (0 if
 * unknown). */
const char *sa_check_type_name(int type);
size_t sa_check_type_size(int type);

/* Test hook: with wide != 0 the work array uses 8-byte entries for every
 * n, so that small tests run the code path of texts of 2^32 bytes and
 * more. Not thread-safe; tests only. */
void sa_check_test_wide(int wide);

#ifdef __cplusplus
}
#endif

#endif
