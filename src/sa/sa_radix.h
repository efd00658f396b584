/* sa_radix.h - private: the first stage shared by sa_seq.c and sa_omp.c, and
 * the sorting of (key << 32 | index) words for sa_omp.c. */
#ifndef SA_RADIX_H
#define SA_RADIX_H

#include <stdint.h>

#include "pc_error.h"

/* Sorts a[0..m) by the key bits [32, 32 + keybits) with a stable LSD radix
 * sort on `threads` threads (one when par == 0); tmp holds m words and
 * hist (1 << SA_RADIX_BITS) * threads counters. */
#define SA_RADIX_BITS 11
void sa_radix_sort_hi(uint64_t *a, uint64_t *tmp, int64_t m, int keybits, int threads,
                      int par, int64_t *hist);

/* Sorts a[0..m) by value on the calling thread, without extra memory. */
void sa_sort_u64(uint64_t *a, int64_t m);

/* First stage of the prefix doubling: sorts SA[0..n) (n >= 2) by the
 * first k bytes of each suffix, k as many as fit 64 bits as base sigma + 1 digits
 * (byte codes 1..sigma in byte order, 0 past the end: 7 for arbitrary
 * bytes, 9 for English text), with `threads` threads when n >= 65536.
 * key[j] receives the packed k-prefix of SA[j], so the k-buckets are the
 * runs of equal key; *k receives k. Ties are in no particular order.
 * Allocates counters and scratch sized by n, freed on every path: at most
 * 44n + 2 KB, and 0.95 MB per thread from n = 32768 on.
 * Returns 0 or PC_ENOMEM. */
int sa_initial_sort(const uint8_t *T, int32_t n, int32_t *SA, uint64_t *key, int threads,
                    int *k, pc_error *err);

#endif
