/* pets_gaps.h - the idle-gap index of one processor for the insertion
 * policy: its booked slots, sorted by (start, finish), in blocks of
 * PETS_GAP_BLOCK slots. Each slot remembers the idle gap before it (its
 * start minus the previous slot's finish) and each block the largest such
 * gap, so a search skips whole blocks whose gaps are all too short and
 * finds a block by halving a directory of block finishes. Booking moves at
 * most one block's slots (and, when a block splits, the directory).
 *
 * In front of the blocks sits an O(1) answer for the common case, a task
 * that can only go after the processor's last slot: a stack of
 * suffix-maximum bounds over the gaps (entry j: end e_j and a length L_j,
 * e_j rising and L_j falling along the stack) such that every gap ending
 * after time r is no longer than L of the first entry with e > r. A task of
 * length w > 0 ready at r then starts at max(r, last finish) whenever that
 * bound is below w; only otherwise are the blocks searched. A booking after
 * the last slot pushes its gap (popping the entries it dominates); one
 * inside splits a gap into shorter ones, which the old entry still bounds,
 * so it touches nothing (the bound may then overstate, never understate). */
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
    int64_t last;          /* finish of the last slot (0 when none) */
    int64_t *sk_end;       /* suffix-maximum stack: gap ends, rising */
    int64_t *sk_len;       /* and length bounds, falling */
    int32_t nsk, capsk;
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

/* Room for nblocks blocks in g's pool, its pages touched by the calling
 * thread (an estimate made in advance: a pool that grows past it grows as
 * before). 0 or PC_ENOMEM (g is then unchanged). */
int pets_gaps_prealloc(pets_gaps *g, int32_t nblocks);

/* pets_gaps_fit without the fast path: the blocks searched (same contract). */
int64_t pets_gaps_fit_blocks(const pets_gaps *g, int64_t ready, int64_t w, pets_gap_pos *pos);

/* Index of the first stack entry whose gap ends after ready, given that
 * the top one does (galloping down from the top, then halving). */
int32_t pets_gaps_stack_find(const pets_gaps *g, int64_t ready);

/* The earliest start t >= ready at which a task of length w fits: no slot
 * [s, f) has f > t and s < t + w (so a zero-length slot inside (t, t + w)
 * also blocks). *pos receives where the booked slot goes. Reads only.
 * Inline for the O(1) cases: ready at or after the last finish, or (w > 0)
 * no gap after ready that could hold w by the stack's bound. */
static inline int64_t pets_gaps_fit(const pets_gaps *g, int64_t ready, int64_t w,
                                    pets_gap_pos *pos)
{
    if (ready >= g->last) {
        *pos = (pets_gap_pos){g->ndir, 0};
        return ready;
    }
    if (w > 0) {
        /* ready lies before the last finish: the top entry is the gap
         * before the last slot; none ends after ready, or the first that
         * does bounds every later gap below w, and the task goes last */
        int32_t j = g->nsk - 1;
        if (g->sk_end[j] > ready && j > 0 && g->sk_end[j - 1] > ready)
            j = pets_gaps_stack_find(g, ready);
        /* j: the first entry ending after ready, or the top if none does */
        if (g->sk_end[j] <= ready || g->sk_len[j] < w) {
            *pos = (pets_gap_pos){g->ndir, 0};
            return g->last;
        }
    }
    return pets_gaps_fit_blocks(g, ready, w, pos);
}

/* pets_gaps_fit's start without the position (for comparing processors;
 * the winner's position is asked for again). */
static inline int64_t pets_gaps_start(const pets_gaps *g, int64_t ready, int64_t w)
{
    pets_gap_pos pos;
    return pets_gaps_fit(g, ready, w, &pos);
}

/* Books [s, f) at pos, as returned by pets_gaps_fit for a task of length
 * f - s with nothing booked in between. Returns 0 or PC_ENOMEM (g is then
 * unchanged). */
int pets_gaps_book(pets_gaps *g, pets_gap_pos pos, int64_t s, int64_t f);

#endif
