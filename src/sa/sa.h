/* sa.h - suffix arrays: construction, LCP, longest repeated substring, the
 * table of implementations and the text generators of `parcheck gen text`.
 *
 * Text: n arbitrary bytes compared as unsigned (NUL and >= 0x80 included);
 * a shorter suffix sorts before a longer one it prefixes (no sentinel is
 * stored). Indices are int32_t, so n <= SA_MAX_N = 2^31 - 1. */
#ifndef SA_H
#define SA_H

#include <stddef.h>
#include <stdint.h>

#include "pc_error.h"

#define SA_MAX_N ((size_t)INT32_MAX)

/* Builds the suffix array SA[0..n) of T[0..n) with up to `threads` threads.
 * SA is caller-owned; the function allocates only its work space (through
 * pc_alloc) and frees it on every path. Returns 0, PC_ENOMEM, PC_EUNAVAIL. */
typedef int (*sa_build_fn)(const uint8_t *T, int32_t n, int32_t *SA, int threads,
                           pc_error *err);

/* One implementation of the table (docs/ARCHITECTURE.md §5). */
typedef struct sa_impl {
    const char *name;
    const char *desc;
    /* 1 when it can run here; else 0 with the reason in why. */
    int (*available)(char *why, size_t why_len);
    /* In-process construction, or NULL for an external program launched by
     * sa_run_external (the MPI implementations). */
    sa_build_fn build;
    /* Documented peak of construction + LCP in bytes per input byte,
     * counting the text, SA and LCP (see docs/README-sa.md). */
    double model_bytes_per_n;
    /* Uses threads (1: --threads applies). */
    int threaded;
} sa_impl;

/* The table, in the order of docs/ARCHITECTURE.md §5: seq omp mpi mpi-omp cuda cuda-ms,
 * then sais (the recommended CPU path), dc3-mpi (distributed DC3) and
 * divsufsort. *count receives its length. */
const sa_impl *sa_impls(int *count);

/* The entry named name, or NULL. */
const sa_impl *sa_impl_find(const char *name);

/* Checks that a text of n bytes fits the int32 indices; PC_ERANGE with a
 * message naming what (a path or "input") otherwise. */
int sa_check_size(size_t n, const char *what, pc_error *err);

/* Manber-Myers prefix doubling with bucket refinement (bh/b2h bit vectors,
 * cnt per bucket head, the suffix of length h placed first in its bucket
 * as an implicit sentinel), first sorted by as many bytes as fit 64 bits,
 * early stop once every bucket is a singleton.
 * Suffixes alone in their bucket are skipped by later stages. O(n log n)
 * time; work space 8n + n/2 bytes + 896 KB beyond T and SA. Ignores
 * threads. */
int sa_build_seq(const uint8_t *T, int32_t n, int32_t *SA, int threads, pc_error *err);

/* Parallel prefix doubling: the suffixes radix sorted in parallel by their
 * first k bytes (as many as fit 64 bits), then each step sorts only the
 * unsorted groups by the rank h positions on (parallel over groups,
 * parallel radix sort and re-ranking inside the large ones) and re-ranks
 * with prefix sums. Work space 12n bytes + the group lists (+8n while a
 * group larger than n/64 is sorted in parallel). Same output as every other
 * implementation. */
int sa_build_omp(const uint8_t *T, int32_t n, int32_t *SA, int threads, pc_error *err);

/* Induced sorting (SA-IS): linear work whatever the length of repeats,
 * recursion on the reduced string of LMS substrings, 32-bit work arrays,
 * types carried in the sign bit of SA entries. Work space beyond T and SA:
 * two bucket arrays per level, at most 4n bytes, + 512 KB x threads of
 * induce slots when threads > 1 and n >= 2^20 (+ threads x 1 KB when the byte
 * histogram is counted in parallel). threads > 1, from n = 2^20 on: the
 * histogram in parallel blocks, the naming and the LMS gather in parts, and
 * the induce passes shared over runs of filled entries (one body for 1 and
 * T threads; one thread goes on alone when the others hardly get a core).
 * Same output as every other implementation, for any threads. */
int sa_build_sais(const uint8_t *T, int32_t n, int32_t *SA, int threads, pc_error *err);

/* Test hook: the parallel paths of sais (histogram, induce passes) run from n entries on
 * (0: the default, 2^20), so that tests reach the parallel passes on small
 * inputs. Not thread-safe; set it before building. */
void sa_sais_test_par_min(int32_t n);

/* Test hook: on = 0 sorts every reduced string of sais as int32_t (default
 * 1: those with at most 65536 names as uint16_t), so that tests reach both
 * paths on small inputs. Not thread-safe; set it before building. */
void sa_sais_test_narrow(int on);

/* Test hook: the next sais constructions go on one thread after the
 * SAIS_SOLO_RUNS-th shared run of a pass, as on a loaded machine, whatever
 * the load; sa_sais_test_par_min (any value) undoes it. Not thread-safe. */
void sa_sais_test_solo(void);

/* Test hook: the shared induce runs of sais take their slots from per-thread
 * histograms on the levels of at most k symbols (k >= 0; -1: the default,
 * 256 to 65536 by the input's size), so that tests reach both ways of
 * assigning slots. Not thread-safe; set it before building. */
void sa_sais_test_hist(int32_t k);

/* Test hook: on = 0 turns off the pipelined passes of the levels without
 * histograms (on = 1 restores them); returns how many passes were
 * pipelined since the last call. Not thread-safe. */
int32_t sa_sais_test_piped(int on);

/* Test hook: how many shared runs of sais's induce passes had their end
 * found by all the threads together (a window of the next run's length
 * at most) since the last call; then the count is reset. */
int32_t sa_sais_test_windows(void);

/* Test hook: how sais names the byte level's LMS substrings: mode 1 (the
 * default) by hashing where the text suits it, else by induced sorting;
 * 0 always by induced sorting; 2 by hashing with tiny limits (48 distinct
 * substrings and 4 long ones a part), so that tests reach its giving way
 * part-way; 3 by hashing with no limit on distinct substrings (the long
 * ones keep theirs). Not thread-safe; set it before building. */
void sa_sais_test_hash(int mode);

/* Test hook: how many byte levels were named by hashing and how many gave
 * way to induced sorting since the last call (then both are reset). */
void sa_sais_test_hash_counts(int32_t *named, int32_t *declined);

/* Test hook: the first step of a sais level on the bytes T[0..n) (n >= 2):
 * every LMS suffix at the end of its bucket, right to left, into SA[0..n)
 * (zeroed first), on `threads` threads when > 1 (blocks of positions,
 * per-thread bucket counts) else by the serial scan; the two must give the
 * same array. Returns the number of LMS suffixes, or PC_ENOMEM. */
int32_t sa_sais_test_place_lms(const uint8_t *T, int32_t n, int32_t *SA, int threads);

/* Test hook: the bounds of a run of filled entries that the parallel
 * induce passes share. down = 0: the first r in [p, lim) with SA[r] == 0,
 * else lim (0 <= p <= lim <= the array's length). down = 1: the smallest
 * r in [lim, p] with SA[r..p) all nonzero (0 <= lim <= p). */
int32_t sa_sais_test_run_bound(const int32_t *SA, int32_t p, int32_t lim, int down);

/* Test hook: the run that the threads of a shared induce pass find in a
 * window SA[lo..hi) (0 <= lo <= hi <= the array's length), its nth parts
 * scanned one after the other here: down = 0 (an L pass), [*rl, *rh) =
 * [lo, the first r in [lo, hi) with SA[r] == 0, else hi); down = 1 (an S
 * pass), [the smallest r in [lo, hi] with SA[r..hi) all nonzero, hi). */
void sa_sais_test_window_run(const int32_t *SA, int32_t lo, int32_t hi, int nth, int down,
                             int32_t *rl, int32_t *rh);

/* Test hook: how many entries apart sais keeps the threads' histograms of
 * a level of K symbols (at least K, and a whole number of 128 bytes). */
size_t sa_sais_test_hist_stride(int32_t K);

/* libdivsufsort (external reference); PC_EUNAVAIL without it. */
int sa_build_divsufsort(const uint8_t *T, int32_t n, int32_t *SA, int threads,
                        pc_error *err);

/* LCP[i] = length of the longest common prefix of the suffixes SA[i-1] and
 * SA[i]; LCP[0] = 0. Kasai's algorithm in O(n), on `threads` blocks of text
 * positions at once (each block restarts at 0, so at most max-LCP extra
 * work per block). Work space 4n (the inverse suffix array). */
int sa_lcp_kasai(const uint8_t *T, const int32_t *SA, int32_t n, int32_t *LCP,
                 int threads, pc_error *err);

/* Longest repeated substring: *len = max LCP; for the first i in suffix
 * order with LCP[i] = max (docs/ARCHITECTURE.md §6, rule 2), *pos = SA[i-1] (the
 * occurrence first in suffix order) and *pos2 = SA[i]. len = 0 and pos = pos2 = -1 when there is no
 * repeat (n < 2 or all LCP 0). */
void sa_lrs(const int32_t *SA, const int32_t *LCP, int32_t n, int32_t *len,
            int32_t *pos, int32_t *pos2);

/* Hook for implementations that run as a separate program (mpi, mpi-omp:
 * launched with mpirun -np np, each rank with `threads` OpenMP threads):
 * builds SA of the file at path (n bytes) into SA and stores the program's
 * own construction time in *seconds. Returns PC_EUNAVAIL (with the reason)
 * while no such program is in this build. */
int sa_run_external(const sa_impl *impl, const char *path, int32_t n, int np,
                    int threads, int32_t *SA, double *seconds, pc_error *err);

/* Writes v[0..n) as little-endian int32 to path. */
int sa_write_int32(const char *path, const int32_t *v, int32_t n, pc_error *err);

/* Reads a whole text file for suffix sorting: refuses (PC_ERANGE) files
 * beyond SA_MAX_N before allocating. *T is freed with pc_free. */
int sa_read_text(const char *path, uint8_t **T, int32_t *n, pc_error *err);

/* Text kinds of `parcheck gen text`. */
enum sa_gen_kind {
    SA_GEN_RANDOM, SA_GEN_TEXT, SA_GEN_PERIODIC, SA_GEN_FIBONACCI,
    SA_GEN_THUEMORSE, SA_GEN_ZEROS, SA_GEN_REPEAT, SA_GEN_LONGPERIOD, SA_GEN_DNA
};

/* Parses a kind name ("random"...); -1 when unknown. */
int sa_gen_kind_parse(const char *name);

/* Generates n bytes of the given kind from seed into out (caller-owned).
 * SA_GEN_TEXT draws from an order-SA_GEN_ORDER Markov model trained on
 * train (ntrain bytes), or on the built-in English paragraph when train is
 * NULL. Periodic: a random period of 1..64 bytes over a 4-letter alphabet
 * repeated. Returns 0, PC_ENOMEM or PC_EINVAL (training text too short). */
#define SA_GEN_ORDER 5
int sa_gen_text(int kind, uint64_t seed, const uint8_t *train, size_t ntrain,
                uint8_t *out, size_t n, pc_error *err);

/* sa_gen_text with a block size for the repetitive kinds (0: derived from
 * n). Repeat: one block of uniform random bytes (block, default n/64 so
 * the block comes 64 times) repeated to n bytes. Longperiod: a period of
 * block letters of acgt (default drawn in [2^12, 2^16]) repeated. DNA:
 * acgt where stretches of 256 bytes to 64 KB (block: the longest) are
 * copies of earlier text with about 1% of the letters changed, between
 * random stretches. Every kind is a function of (kind, seed, block, n). */
int sa_gen_text_block(int kind, uint64_t seed, const uint8_t *train, size_t ntrain,
                      size_t block, uint8_t *out, size_t n, pc_error *err);

/* The built-in training paragraph (NUL-terminated). */
const char *sa_gen_builtin_text(void);

#endif
