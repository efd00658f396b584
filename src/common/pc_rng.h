/* pc_rng.h - seeded pseudo-random numbers, identical on every machine.
 *
 * xoshiro256** seeded through splitmix64: only integer arithmetic, so a
 * seed gives the same stream everywhere (no libc rand, no float tricks
 * beyond the exact 53-bit conversion). */
#ifndef PC_RNG_H
#define PC_RNG_H

#include <stdint.h>

typedef struct pc_rng {
    uint64_t s[4];
} pc_rng;

/* Seeds r from a 64-bit seed (any value, 0 included). */
void pc_rng_seed(pc_rng *r, uint64_t seed);

/* Next 64 random bits. */
uint64_t pc_rng_u64(pc_rng *r);

/* Uniform integer in [0, bound) without modulo bias; 0 when bound == 0. */
uint64_t pc_rng_below(pc_rng *r, uint64_t bound);

/* Uniform integer in [lo, hi] (lo <= hi). */
int64_t pc_rng_range(pc_rng *r, int64_t lo, int64_t hi);

/* Uniform double in [0, 1) with 53 random bits. */
double pc_rng_unit(pc_rng *r);

/* Uniform double in [lo, hi). */
double pc_rng_uniform(pc_rng *r, double lo, double hi);

#endif
