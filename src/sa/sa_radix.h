/* sa_radix.h - private: sorting of (key << 32 | index) words for sa_omp.c. */
#ifndef SA_RADIX_H
#define SA_RADIX_H

#include <stdint.h>

/* Sorts a[0..m) by the key bits [32, 32 + keybits) with a stable LSD radix
 * sort on `threads` threads (one when par == 0); tmp holds m words and
 * hist (1 << SA_RADIX_BITS) * threads counters. */
#define SA_RADIX_BITS 11
void sa_radix_sort_hi(uint64_t *a, uint64_t *tmp, int64_t m, int keybits, int threads,
                      int par, int64_t *hist);

/* Sorts a[0..m) by value on the calling thread, without extra memory. */
void sa_sort_u64(uint64_t *a, int64_t m);

#endif
