/* pets_oracle_gaps.c - a processor's idle gaps in blocks (see pets_oracle_gaps.h).
 *
 * Why the search is right: gaps are disjoint and in time order, so their
 * ends never decrease. A task fits gap [a, b) when max(a, ready) + w <= b,
 * which needs b >= ready + w (so every block whose last gap ends before
 * ready + w is skipped, found by halving) and b - a >= w (so a block whose
 * longest gap is shorter is skipped). The candidate start max(a, ready)
 * never decreases along the gaps either, so the first gap that fits gives
 * the earliest start. */
#include <string.h>

#include "pc_alloc.h"
#include "pets_oracle_gaps.h"

/* The longest gap of block i and the end of its last gap, recomputed. */
static void block_sum(pets_ogaps *q, int32_t i)
{
    const pets_ogap_block *k = q->blk[i];
    int64_t longest = 0;
    for (int32_t j = 0; j < k->n; j++)
        if (k->g[j].b - k->g[j].a > longest)
            longest = k->g[j].b - k->g[j].a;
    q->longest[i] = longest;
    q->last_b[i] = k->g[k->n - 1].b;
}

/* Room for one more block in the summaries. */
static int blocks_grow(pets_ogaps *q)
{
    if (q->nblk < q->cap)
        return PC_OK;
    int32_t cap = q->cap ? q->cap * 2 : 4;
    pets_ogap_block **blk = pc_realloc(q->blk, (size_t)cap * sizeof *blk);
    if (!blk)
        return PC_ENOMEM;
    q->blk = blk;
    int64_t *last_b = pc_realloc(q->last_b, (size_t)cap * sizeof *last_b);
    if (!last_b)
        return PC_ENOMEM;
    q->last_b = last_b;
    int64_t *longest = pc_realloc(q->longest, (size_t)cap * sizeof *longest);
    if (!longest)
        return PC_ENOMEM;
    q->longest = longest;
    q->cap = cap;
    return PC_OK;
}

int pets_ogaps_init(pets_ogaps *q, pc_error *err)
{
    memset(q, 0, sizeof *q);
    pets_ogap_block *k = pc_malloc(sizeof *k);
    if (!k || blocks_grow(q)) {
        pc_free(k);
        pets_ogaps_free(q);
        return pc_error_nomem(err, "PETS oracle");
    }
    k->n = 1;
    k->g[0] = (pets_ogap){0, INT64_MAX};
    q->blk[0] = k;
    q->nblk = 1;
    block_sum(q, 0);
    return PC_OK;
}

void pets_ogaps_free(pets_ogaps *q)
{
    for (int32_t i = 0; i < q->nblk; i++)
        pc_free(q->blk[i]);
    pc_free(q->blk);
    pc_free(q->last_b);
    pc_free(q->longest);
    memset(q, 0, sizeof *q);
}

int64_t pets_ogaps_earliest(pets_ogaps *q, int64_t ready, int64_t w)
{
    int32_t lo = 0, hi = q->nblk - 1; /* the last block ends at INT64_MAX */
    while (lo < hi) {
        int32_t mid = lo + (hi - lo) / 2;
        if (q->last_b[mid] < ready + w)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (int32_t i = lo; i < q->nblk; i++) {
        if (q->longest[i] < w)
            continue;
        const pets_ogap_block *k = q->blk[i];
        int32_t j = 0, top = k->n - 1; /* skip the gaps ending before ready + w, by halving */
        while (j < top) {
            int32_t mid = j + (top - j) / 2;
            if (k->g[mid].b < ready + w)
                j = mid + 1;
            else
                top = mid;
        }
        for (; j < k->n; j++) {
            int64_t t = k->g[j].a > ready ? k->g[j].a : ready;
            if (t + w <= k->g[j].b) {
                q->hit_blk = i;
                q->hit_idx = j;
                return t;
            }
        }
    }
    return -1; /* not reached: the last gap holds any task */
}

int64_t pets_ogaps_after_last(pets_ogaps *q, int64_t ready)
{
    q->hit_blk = q->nblk - 1;
    q->hit_idx = q->blk[q->hit_blk]->n - 1;
    return ready > q->last_finish ? ready : q->last_finish;
}

/* Splits full block i in two halves, the upper half into a new block i+1. */
static int block_split(pets_ogaps *q, int32_t i)
{
    pets_ogap_block *k = pc_malloc(sizeof *k);
    if (!k || blocks_grow(q)) {
        pc_free(k);
        return PC_ENOMEM;
    }
    pets_ogap_block *old = q->blk[i];
    int32_t h = old->n / 2;
    k->n = old->n - h;
    memcpy(k->g, old->g + h, (size_t)k->n * sizeof *k->g);
    old->n = h;
    size_t after = (size_t)(q->nblk - i - 1);
    memmove(q->blk + i + 2, q->blk + i + 1, after * sizeof *q->blk);
    memmove(q->last_b + i + 2, q->last_b + i + 1, after * sizeof *q->last_b);
    memmove(q->longest + i + 2, q->longest + i + 1, after * sizeof *q->longest);
    q->blk[i + 1] = k;
    q->nblk++;
    block_sum(q, i);
    block_sum(q, i + 1);
    return PC_OK;
}

int pets_ogaps_book(pets_ogaps *q, int64_t s, int64_t f, pc_error *err)
{
    int32_t i = q->hit_blk, j = q->hit_idx;
    if (q->blk[i]->n == PETS_OGAPS_BLOCK) {
        if (block_split(q, i))
            return pc_error_nomem(err, "PETS oracle");
        if (j >= q->blk[i]->n) {
            j -= q->blk[i]->n;
            i++;
        }
    }
    pets_ogap_block *k = q->blk[i];
    pets_ogap g = k->g[j];
    memmove(k->g + j + 2, k->g + j + 1, (size_t)(k->n - j - 1) * sizeof *k->g);
    k->g[j] = (pets_ogap){g.a, s};
    k->g[j + 1] = (pets_ogap){f, g.b};
    k->n++;
    block_sum(q, i);
    if (f > q->last_finish)
        q->last_finish = f;
    return PC_OK;
}
