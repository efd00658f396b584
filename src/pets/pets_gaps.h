/* pets_gaps.h - the idle-gap index of one processor for the insertion
 * policy: its booked slots, sorted by (start, finish), in blocks of
 * PETS_GAP_BLOCK slots. Each slot remembers the idle gap before it (its
 * start minus the previous slot's finish) and each block the largest such
 * gap, so a search skips whole blocks whose gaps are all too short and
 * finds a block by halving a directory of block finishes. Booking moves at
 * most one block's slots (and, when a block splits, the directory). */
#ifndef PETS_GAPS_H
#define PETS_GAPS_H

#include <stdint.h>

#define PETS_GAP_BLOCK 32

typedef struct pets_gap_block {
    int32_t n;
    int64_t s[PETS_GAP_BLOCK];
    int64_t f[PETS_GAP_BLOCK];
    int64_t gap[PETS_GAP_BLOCK]; /* s[i] - finish of the slot before (0 before the first) */
} pets_gap_block;

typedef struct pets_gaps {
    pets_gap_block *pool;  /* blocks in allocation order */
    int32_t npool, cappool;
    int32_t *dir;          /* pool index of each block, in time order */
    int64_t *dir_last;     /* finish of each block's last slot, in time order */
    int64_t *dir_max;      /* largest gap of each block, in time order */
    int32_t ndir, capdir;
    int64_t nslots;
} pets_gaps;

/* Where a slot goes: before slot k of directory entry d (k == that block's
 * count, or d == ndir, means after everything). */
typedef struct pets_gap_pos {
    int32_t d, k;
} pets_gap_pos;

/* Sets g to no slots (nothing allocated). */
void pets_gaps_init(pets_gaps *g);

/* Releases what g owns and zeroes it. */
void pets_gaps_free(pets_gaps *g);

/* The earliest start t >= ready at which a task of length w fits: no slot
 * [s, f) has f > t and s < t + w (so a zero-length slot inside (t, t + w)
 * also blocks). *pos receives where the booked slot goes. Reads only. */
int64_t pets_gaps_fit(const pets_gaps *g, int64_t ready, int64_t w, pets_gap_pos *pos);

/* Books [s, f) at pos, as returned by pets_gaps_fit for a task of length
 * f - s with nothing booked in between. Returns 0 or PC_ENOMEM (g is then
 * unchanged). */
int pets_gaps_book(pets_gaps *g, pets_gap_pos pos, int64_t s, int64_t f);

#endif
