/* pets_oracle_gaps.h - one processor's idle time for the PETS oracle's insertion
 * policy: the gaps between the tasks placed on it, in time order, grouped
 * in blocks that carry their longest gap so a search skips blocks where
 * the task cannot fit. Independent of src/pets. */
#ifndef PETS_ORACLE_GAPS_H
#define PETS_ORACLE_GAPS_H

#include <stdint.h>

#include "pc_error.h"

/* Gaps per block: small enough that splitting one into two moves at most
 * this many entries, large enough that the block summaries stay short. */
#define PETS_OGAPS_BLOCK 32

/* An idle span [a, b) of a processor; b is INT64_MAX for the span after
 * its last task. Empty spans (a == b) are kept: a task of cost 0 fits
 * there, between two tasks that touch. */
typedef struct pets_ogap {
    int64_t a, b;
} pets_ogap;

typedef struct pets_ogap_block {
    int32_t n;
    pets_ogap g[PETS_OGAPS_BLOCK];
} pets_ogap_block;

/* The gaps: blocks in time order with, per block, the end of its last gap
 * (non-decreasing over the blocks) and its longest gap. */
typedef struct pets_ogaps {
    pets_ogap_block **blk;
    int64_t *last_b, *longest;
    int32_t nblk, cap;
    int32_t hit_blk, hit_idx; /* the gap the last search found */
    int64_t last_finish;      /* latest finish booked, 0 when none */
} pets_ogaps;

/* An idle processor: one gap [0, INT64_MAX). q must be zeroed or freed.
 * Returns 0 or PC_ENOMEM. */
int pets_ogaps_init(pets_ogaps *q, pc_error *err);

/* Releases q's memory and zeroes it (safe on a zeroed q). */
void pets_ogaps_free(pets_ogaps *q);

/* The earliest start t >= ready with [t, t + w) inside one gap: the first
 * gap [a, b) in time order with max(a, ready) + w <= b (a task never spans
 * a placed task, even one of cost 0). Remembers that gap for
 * pets_ogaps_book. ready, w in [0, 2^62). */
int64_t pets_ogaps_earliest(pets_ogaps *q, int64_t ready, int64_t w);

/* max(ready, the latest finish booked): the start under the append
 * policy. Remembers the last gap for pets_ogaps_book. */
int64_t pets_ogaps_after_last(pets_ogaps *q, int64_t ready);

/* Places [s, f) into the gap the last search on q found (a <= s <= f <= b):
 * that gap becomes [a, s) and [f, b). Returns 0 or PC_ENOMEM (q intact). */
int pets_ogaps_book(pets_ogaps *q, int64_t s, int64_t f, pc_error *err);

#endif
