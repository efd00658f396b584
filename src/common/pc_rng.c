#include "pc_rng.h"

static uint64_t rng_splitmix(uint64_t *x)
{
    uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

void pc_rng_seed(pc_rng *r, uint64_t seed)
{
    uint64_t x = seed;
    for (int i = 0; i < 4; i++)
        r->s[i] = rng_splitmix(&x);
}

static uint64_t rng_rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

uint64_t pc_rng_u64(pc_rng *r)
{
    uint64_t *s = r->s;
    uint64_t out = rng_rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rng_rotl(s[3], 45);
    return out;
}

uint64_t pc_rng_below(pc_rng *r, uint64_t bound)
{
    if (bound == 0)
        return 0;
    /* Rejection keeps the distribution exactly uniform. */
    uint64_t limit = UINT64_MAX - UINT64_MAX % bound;
    uint64_t x;
    do
        x = pc_rng_u64(r);
    while (x >= limit);
    return x % bound;
}

int64_t pc_rng_range(pc_rng *r, int64_t lo, int64_t hi)
{
    uint64_t span = (uint64_t)hi - (uint64_t)lo;
    if (span == UINT64_MAX)
        return (int64_t)pc_rng_u64(r);
    return (int64_t)((uint64_t)lo + pc_rng_below(r, span + 1));
}

double pc_rng_unit(pc_rng *r)
{
    return (double)(pc_rng_u64(r) >> 11) * 0x1.0p-53;
}

double pc_rng_uniform(pc_rng *r, double lo, double hi)
{
    return lo + (hi - lo) * pc_rng_unit(r);
}
