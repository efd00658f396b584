/* sa_oracle.h - independent checks of suffix arrays, LCP arrays and the
 * longest repeated substring (docs/ARCHITECTURE.md §6, rule 2). Shares no code
 * with src/sa: only pc_alloc / pc_error. Obvious over fast. */
#ifndef SA_ORACLE_H
#define SA_ORACLE_H

#include <stddef.h>
#include <stdint.h>

#include "pc_error.h"

/* Largest n for which the naive comparisons are used by default. */
#define SA_ORACLE_NAIVE_MAX 16384

/* Naive suffix array: qsort of positions with memcmp over unsigned bytes,
 * the shorter suffix first on a tie. O(n^2 log n) worst case. */
int sa_oracle_naive_sa(const uint8_t *T, int32_t n, int32_t *SA, pc_error *err);

/* Naive LCP: each adjacent pair compared byte by byte. */
void sa_oracle_naive_lcp(const uint8_t *T, int32_t n, const int32_t *SA, int32_t *LCP);

/* Burkhardt-Kaerkkaeinen check in O(n): SA is a permutation of [0, n) and
 * the pairs (T[SA[i]], rank(SA[i] + 1)) strictly increase (rank of the
 * empty suffix below all). Returns 0, PC_EVERIFY (with why in err) or
 * PC_ENOMEM. The int32 form of sa_check_order (sa_check.h). */
int sa_oracle_check_sa(const uint8_t *T, int32_t n, const int32_t *SA, pc_error *err);

/* Compares LCP with the Phi / permuted-LCP method's (not Kasai); 0 or
 * PC_EVERIFY (first difference in err) or PC_ENOMEM. SA must already be
 * checked. The int32 form of sa_check_lcp_only (sa_check.h). */
int sa_oracle_check_lcp(const uint8_t *T, int32_t n, const int32_t *SA, const int32_t *LCP,
                        pc_error *err);

/* Checks a claimed longest repeat (len, pos = its occurrence first in
 * suffix order, pos2 = the other one) against a checked SA and LCP: len is
 * max LCP, pos/pos2 are the pair at the first index reaching it, the two
 * occurrences are equal over len bytes (memcmp) and cannot be extended.
 * len 0 with pos = pos2 = -1 when nothing repeats. */
int sa_oracle_check_lrs(const uint8_t *T, int32_t n, const int32_t *SA, const int32_t *LCP,
                        int32_t len, int32_t pos, int32_t pos2, pc_error *err);

#endif
