/* pets_gaps.c - the idle-gap index of one processor (see pets_gaps.h). */
#include <string.h>

#include "pc_alloc.h"
#include "pc_error.h"
#include "pets_gaps.h"

void pets_gaps_init(pets_gaps *g)
{
    memset(g, 0, sizeof *g);
}

void pets_gaps_free(pets_gaps *g)
{
    pc_free(g->pool);
    pc_free(g->dir);
    pc_free(g->dir_last);
    pc_free(g->dir_max);
    pc_free(g->sk_end);
    pc_free(g->sk_len);
    memset(g, 0, sizeof *g);
}

/* The position after every slot. */
static pets_gap_pos gaps_end(const pets_gaps *g)
{
    if (g->ndir == 0)
        return (pets_gap_pos){0, 0};
    return (pets_gap_pos){g->ndir - 1, g->pool[g->dir[g->ndir - 1]].n};
}

int32_t pets_gaps_stack_find(const pets_gaps *g, int64_t ready)
{
    /* ends rise along the stack: the entries ending after ready are a top
     * segment, mostly short */
    int32_t lo = g->nsk - 1, hi = g->nsk - 1;
    for (int32_t step = 1; lo > 0 && g->sk_end[lo - 1] > ready; step *= 2) {
        hi = lo;
        lo = lo > step ? lo - step : 0;
    }
    while (lo < hi) {
        int32_t mid = lo + (hi - lo) / 2;
        if (g->sk_end[mid] <= ready)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

int64_t pets_gaps_fit_blocks(const pets_gaps *g, int64_t ready, int64_t w, pets_gap_pos *pos)
{
    /* Finishes never decrease along the slots, so the first slot ending
     * after `ready` is found by halving, first over blocks, then inside.
     * Ready times mostly fall among the latest slots: the block range is
     * first narrowed by steps of 1, 2, 4, ... back from the last block. */
    int32_t lo = g->ndir, hi = g->ndir;
    for (int32_t step = 1; lo > 0 && g->dir_last[lo - 1] > ready; step *= 2) {
        hi = lo;
        lo = lo > step ? lo - step : 0;
    }
    while (lo < hi) {
        int32_t mid = lo + (hi - lo) / 2;
        if (g->dir_last[mid] <= ready)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == g->ndir) {
        *pos = gaps_end(g);
        return ready;
    }
    const pets_gap_block *b = &g->pool[g->dir[lo]];
    int32_t k = b->n - 1;
    while (k > 0 && b->f[k - 1] > ready)
        k--;
    /* Everything before slot k ends by `ready`: the gap holding `ready`
     * runs to b->s[k]. */
    if (ready + w <= b->s[k]) {
        *pos = (pets_gap_pos){lo, k};
        return ready;
    }
    /* Later gaps start at a finish past `ready`: the first one of length
     * >= w holds the task at its start. */
    for (int32_t j = k + 1; j < b->n; j++)
        if (b->gap[j] >= w) {
            *pos = (pets_gap_pos){lo, j};
            return b->f[j - 1];
        }
    for (int32_t d = lo + 1; d < g->ndir; d++) {
        if (g->dir_max[d] < w)
            continue;
        const pets_gap_block *c = &g->pool[g->dir[d]];
        for (int32_t j = 0; j < c->n; j++)
            if (c->gap[j] >= w) {
                *pos = (pets_gap_pos){d, j};
                return j ? c->f[j - 1] : g->dir_last[d - 1];
            }
    }
    *pos = gaps_end(g);
    return g->dir_last[g->ndir - 1];
}

/* Recomputes the directory entry d from its block. */
static void gaps_refresh(pets_gaps *g, int32_t d)
{
    const pets_gap_block *b = &g->pool[g->dir[d]];
    int64_t m = 0;
    for (int32_t j = 0; j < b->n; j++)
        if (b->gap[j] > m)
            m = b->gap[j];
    g->dir_max[d] = m;
    g->dir_last[d] = b->n ? b->f[b->n - 1] : 0;
}

int pets_gaps_prealloc(pets_gaps *g, int32_t nblocks)
{
    if (nblocks <= g->cappool)
        return 0;
    pets_gap_block *p = pc_realloc(g->pool, (size_t)nblocks * sizeof *p);
    if (!p)
        return PC_ENOMEM;
    /* touched now, by the calling thread: the page faults are taken here
     * rather than one by one during the booking */
    memset(p + g->cappool, 0, (size_t)(nblocks - g->cappool) * sizeof *p);
    g->pool = p;
    g->cappool = nblocks;
    return 0;
}

/* Room for one more block and one more directory entry, so that a booking
 * that fails leaves g as it was. */
static int gaps_reserve(pets_gaps *g)
{
    if (g->npool == g->cappool) {
        int32_t cap = g->cappool ? g->cappool * 2 : 4;
        pets_gap_block *p = pc_realloc(g->pool, (size_t)cap * sizeof *p);
        if (!p)
            return PC_ENOMEM;
        g->pool = p;
        g->cappool = cap;
    }
    if (g->ndir == g->capdir) {
        int32_t cap = g->capdir ? g->capdir * 2 : 4;
        int32_t *dir = pc_realloc(g->dir, (size_t)cap * sizeof *dir);
        if (!dir)
            return PC_ENOMEM;
        g->dir = dir;
        int64_t *last = pc_realloc(g->dir_last, (size_t)cap * sizeof *last);
        if (!last)
            return PC_ENOMEM;
        g->dir_last = last;
        int64_t *max = pc_realloc(g->dir_max, (size_t)cap * sizeof *max);
        if (!max)
            return PC_ENOMEM;
        g->dir_max = max;
        g->capdir = cap;
    }
    if (g->nsk == g->capsk) {
        int32_t cap = g->capsk ? g->capsk * 2 : 4;
        int64_t *e = pc_realloc(g->sk_end, (size_t)cap * sizeof *e);
        if (!e)
            return PC_ENOMEM;
        g->sk_end = e;
        int64_t *l = pc_realloc(g->sk_len, (size_t)cap * sizeof *l);
        if (!l)
            return PC_ENOMEM;
        g->sk_len = l;
        g->capsk = cap;
    }
    return PC_OK;
}

/* A slot [s, f) booked after every other one: its gap [last, s) joins the
 * stack, above the entries it dominates (no longer than it). */
static void gaps_push_last(pets_gaps *g, int64_t s, int64_t f)
{
    int64_t len = s - g->last;
    while (g->nsk > 0 && g->sk_len[g->nsk - 1] <= len)
        g->nsk--;
    g->sk_end[g->nsk] = s;
    g->sk_len[g->nsk] = len;
    g->nsk++;
    g->last = f;
}

/* Opens an empty block at directory position d. */
static void gaps_open_block(pets_gaps *g, int32_t d)
{
    int32_t id = g->npool++;
    g->pool[id].n = 0;
    size_t tail = (size_t)(g->ndir - d);
    memmove(g->dir + d + 1, g->dir + d, tail * sizeof *g->dir);
    memmove(g->dir_last + d + 1, g->dir_last + d, tail * sizeof *g->dir_last);
    memmove(g->dir_max + d + 1, g->dir_max + d, tail * sizeof *g->dir_max);
    g->dir[d] = id;
    g->ndir++;
}

int pets_gaps_book(pets_gaps *g, pets_gap_pos pos, int64_t s, int64_t f)
{
    if (gaps_reserve(g))
        return PC_ENOMEM;
    int32_t d = pos.d, k = pos.k;
    if (d >= g->ndir && g->ndir > 0 && g->pool[g->dir[g->ndir - 1]].n < PETS_GAP_BLOCK) {
        /* after everything, with room in the last block (the common case):
         * nothing moves, and the block's summary grows by one gap */
        d = g->ndir - 1;
        pets_gap_block *b = &g->pool[g->dir[d]];
        int64_t gap = s - g->last;
        b->s[b->n] = s;
        b->f[b->n] = f;
        b->gap[b->n] = gap;
        b->n++;
        g->dir_last[d] = f;
        if (gap > g->dir_max[d])
            g->dir_max[d] = gap;
        gaps_push_last(g, s, f);
        g->nslots++;
        return PC_OK;
    }
    if (d >= g->ndir && g->ndir > 0) { /* after everything */
        d = g->ndir - 1;
        k = g->pool[g->dir[d]].n;
    }
    /* after every slot (the fast path's answer, or the blocks' end) */
    int at_end = g->ndir == 0 || (d == g->ndir - 1 && k == g->pool[g->dir[d]].n);
    if (g->ndir == 0) {
        gaps_open_block(g, 0);
        d = k = 0;
    } else if (g->pool[g->dir[d]].n == PETS_GAP_BLOCK) {
        if (k == PETS_GAP_BLOCK) {
            /* at a block's end (mostly the processor's end): a fresh block
             * keeps the full one full */
            gaps_open_block(g, d + 1);
            d++;
            k = 0;
        } else {
            int32_t half = PETS_GAP_BLOCK / 2;
            gaps_open_block(g, d + 1);
            pets_gap_block *a = &g->pool[g->dir[d]], *b = &g->pool[g->dir[d + 1]];
            b->n = a->n - half;
            memcpy(b->s, a->s + half, (size_t)b->n * sizeof *b->s);
            memcpy(b->f, a->f + half, (size_t)b->n * sizeof *b->f);
            memcpy(b->gap, a->gap + half, (size_t)b->n * sizeof *b->gap);
            a->n = half;
            gaps_refresh(g, d);
            gaps_refresh(g, d + 1);
            if (k > half) {
                d++;
                k -= half;
            }
        }
    }
    pets_gap_block *b = &g->pool[g->dir[d]];
    size_t tail = (size_t)(b->n - k);
    memmove(b->s + k + 1, b->s + k, tail * sizeof *b->s);
    memmove(b->f + k + 1, b->f + k, tail * sizeof *b->f);
    memmove(b->gap + k + 1, b->gap + k, tail * sizeof *b->gap);
    b->n++;
    b->s[k] = s;
    b->f[k] = f;
    b->gap[k] = s - (k ? b->f[k - 1] : d ? g->dir_last[d - 1] : 0);
    if (k + 1 < b->n) {
        b->gap[k + 1] = b->s[k + 1] - f;
    } else if (d + 1 < g->ndir) {
        pets_gap_block *c = &g->pool[g->dir[d + 1]];
        c->gap[0] = c->s[0] - f;
        gaps_refresh(g, d + 1);
    }
    gaps_refresh(g, d);
    if (at_end)
        gaps_push_last(g, s, f);
    g->nslots++;
    return PC_OK;
}
