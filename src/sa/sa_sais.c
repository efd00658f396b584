/* sa_sais.c - the `sais` implementation: suffix sorting by induced sorting
 * (SA-IS, Nong, Zhang and Chan 2009), linear work whatever the repeats.
 *
 * One level: put the LMS suffixes at their bucket ends, induce the L-type
 * suffixes left to right and the S-type ones right to left, which sorts
 * the LMS substrings; name them, and when two are equal sort the reduced
 * string of names recursively (its length is at most n/2); then place the
 * LMS suffixes in their final order and induce once more. The passes are
 * in sa_sais_level.h, written once for byte texts and for the reduced
 * strings (uint16_t when they have at most 65536 names, else int32_t).
 *
 * All work arrays are 32-bit: n <= SA_MAX_N = 2^31 - 1 (sa_check_size
 * refuses larger inputs before anything is built), and the flags of the
 * passes use the sign bit, free because positions stay below 2^31 - 1.
 *
 * Memory beyond T (n) and SA (4n): the reduced string and its suffix array
 * share SA; each level takes two bucket arrays of K int32 (K = its
 * alphabet: 256 at the top, at most m <= n/2 names below), released across
 * the recursion when large: at most 4n, so construction stays within 9n
 * (+ 512 KB of induce slots per thread and at most n/4 of histograms from
 * n = 2^20 on) and the Kasai LCP afterwards (LCP 4n + inverse SA 4n)
 * within 13n.
 *
 * Threads: the histograms are counted in parallel blocks (atomically for
 * large alphabets), the naming, the LMS gather and collection in parts,
 * the placements in blocks; an induce step reads entries that earlier
 * steps wrote, but a run of filled entries ahead of the scan is final, so
 * such runs are shared: the threads gather the random text reads of their
 * parts and count them per bucket, the counts give each part its slots in
 * pass order, the threads write; from 4 threads the rest of a pass goes in
 * blocks whose slots thread 0 assigns one by one, forwarding what a block
 * induces into itself (sa_sais_level.h, induce). */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pc_omp.h"

#include "pc_alloc.h"
#include "pc_spin.h"
#include "pc_time.h"
#include "sa.h"

/* Each parallel region (the histogram, every induce pass) ends by waiting
 * for the other threads to have run at all: on a loaded machine that is
 * a scheduling delay of milliseconds, more than a pass over fewer than
 * 2^20 entries takes (at 200 KB two threads ran 3x slower than one with a
 * threshold of 65536). Below this size everything runs on one thread.
 * sa_sais_test_par_min lowers it so that the tests reach the parallel
 * paths on small inputs, and with it the smallest shared run (entries per
 * thread), the entries per thread of a shared run (SAIS_BLOCK, the slots
 * taken), whether a loaded machine may send the rest to one thread
 * (SAIS_SOLO_RUNS) and from how many threads a run's slots may be assigned
 * one by one: the tests share many short runs, whatever the load. */
static int32_t g_sais_par_induce_min = 1 << 20;
static int32_t g_sais_share_min = 1024, g_sais_block = 65536;
static int g_sais_may_solo = 1; /* 2: goes solo at the check, loaded or not */
/* Threads from which a pass shares blocks whatever their empty entries,
 * their slots assigned one by one on thread 0 with the block's own
 * inductions forwarded (see induce), and the entries per thread of such a
 * block (smaller than a run's: the share forwarded, serial work, grows
 * with the block; 4096 beat 1024, 2048, 8192, 16384 and 65536 at 16
 * threads on the GPU machine's host); 2 threads and 64 entries in the
 * tests. At 2 threads here the forwarding blocks gained nothing (thread
 * 0's slots are half the pass). */
static int g_sais_fwd_threads = 4;
static int32_t g_sais_fwd_block = 4096;
/* The entries per thread of a pipelined pass's block (induce_piped):
 * smaller blocks forward fewer entries on thread 0 (the slots inside this
 * block and the next), but 1024 and 2048 ran as 4096 within the spread at
 * 16 threads on the GPU machine's host; 64 in the tests. */
#ifndef SAIS_PIPED_BLOCK
#define SAIS_PIPED_BLOCK 4096
#endif
static int32_t g_sais_piped_block = SAIS_PIPED_BLOCK;

void sa_sais_test_par_min(int32_t n)
{
    int test = n > 0;
    g_sais_par_induce_min = test ? n : 1 << 20;
    g_sais_share_min = test ? 16 : 1024;
    g_sais_block = test ? 512 : 65536;
    g_sais_may_solo = !test;
    g_sais_fwd_threads = test ? 2 : 4;
    g_sais_fwd_block = test ? 64 : 4096;
    g_sais_piped_block = test ? 64 : SAIS_PIPED_BLOCK;
}

void sa_sais_test_solo(void) { g_sais_may_solo = 2; }

/* Whether the passes of levels without histograms are pipelined
 * (induce_piped), and how many were since the last call. Levels of more
 * than SAIS_PIPED_HIST_K symbols are pipelined even with histograms: their
 * runs of filled entries long enough for the histograms are few (the first
 * reduced level of 64 MiB of text, 50 thousand names: its induce passes
 * 0.29 s pipelined at 16 threads, 0.35 s with runs and forwarding blocks). */
#define SAIS_PIPED_HIST_K 4096
static int g_sais_piped = 1;
static int32_t g_sais_piped_passes;

int32_t sa_sais_test_piped(int on)
{
    int32_t k = g_sais_piped_passes;
    g_sais_piped = on;
    g_sais_piped_passes = 0;
    return k;
}

/* Shared runs whose end the threads found together (induce's windows)
 * since the last call of sa_sais_test_windows. */
static int32_t g_sais_win_runs;

int32_t sa_sais_test_windows(void)
{
    int32_t k = g_sais_win_runs;
    g_sais_win_runs = 0;
    return k;
}

/* Histogram capacity forced by sa_sais_test_hist (-1: by the input size). */
static int32_t g_sais_hist_k = -1;

void sa_sais_test_hist(int32_t k) { g_sais_hist_k = k < 0 ? -1 : k; }

/* Reduced strings with at most this many names are sorted as uint16_t
 * (sais_reduced); sa_sais_test_narrow(0) sets it to 0 so that the tests
 * reach the int32_t path on small inputs. */
static int32_t g_sais_pack16_max = 65536;

void sa_sais_test_narrow(int on) { g_sais_pack16_max = on ? 65536 : 0; }

/* Bucket arrays larger than this many entries are freed while the level
 * recurses (they would otherwise add up across levels). */
#define SAIS_KEEP_MAX 65536

/* B[c] = first slot of bucket c (C = sizes). */
static void sais_bucket_starts(const int32_t *C, int32_t *B, int32_t K)
{
    int32_t sum = 0;
    for (int32_t c = 0; c < K; c++) {
        B[c] = sum;
        sum += C[c];
    }
}

/* B[c] = one past the last slot of bucket c (C = sizes). */
static void sais_bucket_ends(const int32_t *C, int32_t *B, int32_t K)
{
    int32_t sum = 0;
    for (int32_t c = 0; c < K; c++) {
        sum += C[c];
        B[c] = sum;
    }
}

/* After an L pass (B = the heads, now the starts of the S regions; C =
 * bucket sizes): zeroes the S regions, whose LMS entries the S pass
 * overwrites anyway, so that every filled entry an S pass meets is final
 * (what a shared run needs, induce in sa_sais_level.h). */
static void sais_empty_s_regions(int32_t *SA, const int32_t *C, const int32_t *B, int32_t K)
{
    int32_t end = 0;
    for (int32_t c = 0; c < K; c++) {
        end += C[c];
        memset(SA + B[c], 0, sizeof *SA * (size_t)(end - B[c]));
    }
}

/* One step of an LMS placement: when lms, p goes to the slot below *end,
 * which moves down; else p goes to *scratch. The address is chosen by a
 * mask: compilers turn a conditional one back into a branch, and on text
 * the LMS positions follow no pattern a predictor learns. */
static inline void sais_put_lms(int32_t *SA, int32_t *end, int32_t p, int lms, int32_t *scratch)
{
    uintptr_t keep = (uintptr_t)0 - (uintptr_t)lms;
    uintptr_t at = (uintptr_t)SA + (uintptr_t)((intptr_t)*end - 1) * sizeof *SA;
    *(int32_t *)((at & keep) | ((uintptr_t)scratch & ~keep)) = p;
    *end -= lms;
}

/* SA[0..n) = 0 on `threads` threads (a level's first step: at 2^26 entries
 * one thread's memset was a serial 0.03 s of a 16-thread construction). */
static void sais_zero(int32_t *SA, int32_t n, int threads)
{
    int64_t nb = ((int64_t)n + 65535) / 65536;
    (void)threads; /* read only by the pragma */
#pragma omp parallel for num_threads(threads) if (threads > 1) schedule(static)
    for (int64_t b = 0; b < nb; b++) {
        int64_t lo = b * 65536, hi = lo + 65536 < n ? lo + 65536 : n;
        memset(SA + lo, 0, sizeof *SA * (size_t)(hi - lo));
    }
}

/* 1 when a level's bucket arrays are small enough to keep across its
 * recursion. */
static int sais_keep_buckets(int32_t K) { return K <= SAIS_KEEP_MAX; }

/* Entries between two threads' histograms of K buckets (pc_thread_stride:
 * K rounded up to 128 bytes). Packed at K, the few counters of a level
 * with a handful of names (Fibonacci's reduced levels) sat in one cache
 * line that every increment of every thread fought for, and 2 threads
 * ran slower than 1. A multiple of 32 entries, that is of 16 induce
 * slots. */
static inline size_t sais_hist_stride(int32_t K)
{
    return pc_thread_stride((size_t)K, sizeof(int32_t));
}

/* Takes the two bucket arrays of a level (*C, 2K + 1 entries: sizes, then
 * pointers, then a counter that stays 0) and, when the histogram is
 * counted in parallel, one histogram per thread (*H, else NULL;
 * sais_hist_stride(K) entries apart): for the byte level and for reduced
 * levels whose histograms take at most about n/4 bytes (threads x K <=
 * n/16; the first reduced level of text, 50 thousand names for 20 million
 * symbols at 64 MiB, gets them at 16 threads: its count and LMS placement
 * run on the threads). Returns PC_OK or PC_ENOMEM with nothing held. */
static int sais_buckets_alloc(int32_t n, int32_t K, int threads, int32_t **C, int32_t **H,
                              pc_error *err)
{
    *C = pc_malloc_array(2 * (size_t)K + 1, sizeof **C);
    if (*C)
        (*C)[2 * (size_t)K] = 0; /* B[K]: the no-bucket counter of induce, never moved */
    *H = NULL;
    if (*C && threads > 1 && n >= g_sais_par_induce_min
        && (K <= 4096 || (int64_t)threads * K <= n / 16)) {
        *H = pc_malloc_array((size_t)threads * sais_hist_stride(K), sizeof **H);
        if (!*H) {
            pc_free(*C);
            *C = NULL;
        }
    }
    return *C ? PC_OK : pc_error_nomem(err, "allocating SA-IS bucket arrays");
}

/* What a pass of the induce step gathers for one entry: the bucket of the
 * suffix to induce (-1: none) and the entry to write there. */
typedef struct sais_slot {
    int32_t c, v;
} sais_slot;

/* Per construction: threads, the largest run an induce pass shares per
 * thread (65536 entries, 512 KB of slots per thread: a run stays in the
 * cache from its gather to its writes, and a pass over 2^25 entries meets
 * about 500 / T times), and the slots of one shared run (NULL when no pass
 * runs in parallel). Runs of fewer than 1024 entries per thread are not
 * shared: each costs four barriers. */
typedef struct sais_ctx {
    int threads;
    /* 1 when the last induce pass that shared went on alone (its partners
     * hardly got a core): the other parallel steps (histogram, naming, LMS
     * gather) then run on one thread too, until a pass shares to its end */
    int loaded;
    int32_t block;
    sais_slot *buf;
    int32_t *hist, hist_k;
} sais_ctx;

/* Shared runs of a pass (1 after a pass that went on alone) after which
 * thread 0 looks, before each run, at how much CPU time the other threads
 * have had since the pass began: less
 * than half of the pass's wall time on average means they hardly get a
 * core (a loaded machine, where every barrier waits for a thread that is
 * not running), and the rest of the pass runs on one thread, the same
 * writes in the same order. A partner waiting at a barrier spins or
 * yields, so on free cores its CPU time follows the wall time whatever
 * the imbalance of the parts (an earlier test on thread 0's waiting time
 * mistook that imbalance for load and gave up sharing on a quiet
 * machine). */
#define SAIS_SOLO_RUNS 8

/* CPU seconds of the calling thread (0 where the clock is missing). */
static double sais_thread_cpu(void)
{
#ifdef CLOCK_THREAD_CPUTIME_ID
    struct timespec ts;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) == 0)
        return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
#endif
    return 0;
}

/* A barrier for the nth threads of an induce pass. The passes meet four
 * times per shared run, and on a loaded machine a thread that spins while
 * the one it waits for has no core holds up both (OpenMP's barrier, which
 * spins for a while first, made two threads 7x slower than one at load
 * 4.4 on two cores): this one spins briefly, then yields the core. The
 * release of the last arrival orders every thread's writes before the
 * barrier before every read after it. */
typedef struct sais_barrier {
    int count, gen;
} sais_barrier;

static void sais_barrier_wait(sais_barrier *b, int nth)
{
    if (nth <= 1)
        return;
    int g = __atomic_load_n(&b->gen, __ATOMIC_ACQUIRE);
    if (__atomic_add_fetch(&b->count, 1, __ATOMIC_ACQ_REL) == nth) {
        __atomic_store_n(&b->count, 0, __ATOMIC_RELAXED);
        __atomic_store_n(&b->gen, g + 1, __ATOMIC_RELEASE);
        return;
    }
    for (int spins = 0; __atomic_load_n(&b->gen, __ATOMIC_ACQUIRE) == g;)
        pc_spin_pause(&spins);
}

/* Every negative entry of SA[a..b) stored back as ~itself. */
static void sais_unflag_range(int32_t *SA, int32_t a, int32_t b)
{
    for (int32_t i = a; i < b; i++)
        SA[i] = SA[i] < 0 ? ~SA[i] : SA[i];
}

/* [*a, *e): part u of nparts of [lo, hi). */
static void sais_part_of(int32_t lo, int32_t hi, int u, int nparts, int32_t *a, int32_t *e)
{
    *a = lo + (int32_t)((int64_t)(hi - lo) * u / nparts);
    *e = lo + (int32_t)((int64_t)(hi - lo) * (u + 1) / nparts);
}

/* Most parts of the LMS scans whose counts a level keeps (on its stack)
 * between naming and the LMS gather; with more threads the gather scans
 * alone. */
#define SAIS_MAX_PARTS 64

/* The first r in [p, lim) with SA[r] == 0, else lim. Eight entries a
 * test: with threads, thread 0 alone scans every shared run for its end,
 * and the entry-by-entry loop was 10-13% of a shared pass. */
static int32_t sais_next_empty(const int32_t *SA, int32_t p, int32_t lim)
{
    int32_t r = p;
    for (; r <= lim - 8; r += 8) {
        int z = 0;
        for (int k = 0; k < 8; k++)
            z |= SA[r + k] == 0;
        if (z)
            break;
    }
    while (r < lim && SA[r] != 0)
        r++;
    return r;
}

/* The smallest r in [lim, p] with SA[r..p) all filled, as sais_next_empty
 * going down. */
static int32_t sais_prev_empty(const int32_t *SA, int32_t p, int32_t lim)
{
    int32_t r = p;
    for (; r >= lim + 8; r -= 8) {
        int z = 0;
        for (int k = 1; k <= 8; k++)
            z |= SA[r - k] == 0;
        if (z)
            break;
    }
    while (r > lim && SA[r - 1] != 0)
        r--;
    return r;
}

/* Part t of nth of an induce pass's window SA[lo..hi) (see induce): where
 * it first meets an empty entry in pass order, an L pass going up (the
 * first empty entry, else the part's end) and an S pass going down (one
 * past the last empty entry, else the part's start). */
static int32_t sais_window_stop(const int32_t *SA, int32_t lo, int32_t hi, int t, int nth,
                                int spass)
{
    int32_t a, b;
    sais_part_of(lo, hi, t, nth, &a, &b);
    return spass ? sais_prev_empty(SA, b, a) : sais_next_empty(SA, a, b);
}

/* The run of a window SA[lo..hi) from its parts' stops (sais_window_stop):
 * [*rl, *rh) ends at the stop of the first part, in pass order, that met
 * an empty entry (the window's far end when none did); the run starts
 * where the window does in pass order (*rl = lo for L, *rh = hi for S). */
static void sais_window_run(const int32_t *stop, int32_t lo, int32_t hi, int nth, int spass,
                            int32_t *rl, int32_t *rh)
{
    *rl = lo;
    *rh = hi;
    for (int k = 0; k < nth; k++) {
        int u = spass ? nth - 1 - k : k;
        int32_t a, b;
        sais_part_of(lo, hi, u, nth, &a, &b);
        if (spass ? stop[u] > a : stop[u] < b) {
            *(spass ? rl : rh) = stop[u];
            return;
        }
    }
}

void sa_sais_test_window_run(const int32_t *SA, int32_t lo, int32_t hi, int nth, int down,
                             int32_t *rl, int32_t *rh)
{
    int32_t stop[SAIS_MAX_PARTS];
    if (nth > SAIS_MAX_PARTS)
        nth = SAIS_MAX_PARTS;
    for (int t = 0; t < nth; t++)
        stop[t] = sais_window_stop(SA, lo, hi, t, nth, down);
    sais_window_run(stop, lo, hi, nth, down, rl, rh);
}

size_t sa_sais_test_hist_stride(int32_t K)
{
    return sais_hist_stride(K);
}

int32_t sa_sais_test_run_bound(const int32_t *SA, int32_t p, int32_t lim, int down)
{
    return down ? sais_prev_empty(SA, p, lim) : sais_next_empty(SA, p, lim);
}

/* 1 when the induce passes of a level of n entries run on x->threads. */
static int sais_par(const sais_ctx *x, int32_t n)
{
    return x->buf && x->threads > 1 && n >= g_sais_par_induce_min;
}

/* Threads of the other parallel steps of a level of n entries. */
static int sais_steps_threads(const sais_ctx *x, int32_t n)
{
    return sais_par(x, n) && !x->loaded ? x->threads : 1;
}

static int sais_reduced(int32_t *R, int32_t *SA, int32_t m, int32_t names, sais_ctx *x,
                        pc_error *err);
static int g_sais_hash_mode;
static int sais_name_hashed(const uint8_t *T, int32_t n, int32_t *SA, int nt, int32_t *m,
                            int32_t *names, int32_t *parts, pc_error *err);

#define SAIS_CH uint8_t
#define SAIS_FN(x) sais_##x##_u8
#define SAIS_BIG_K 0
#include "sa_sais_level.h"
#undef SAIS_CH
#undef SAIS_FN
#undef SAIS_BIG_K

#include "sa_sais_hash.h"

#define SAIS_CH int32_t
#define SAIS_FN(x) sais_##x##_i32
#define SAIS_BIG_K 1
#include "sa_sais_level.h"
#undef SAIS_CH
#undef SAIS_FN
#undef SAIS_BIG_K

#define SAIS_CH uint16_t
#define SAIS_FN(x) sais_##x##_u16
#define SAIS_BIG_K 1
#include "sa_sais_level.h"
#undef SAIS_CH
#undef SAIS_FN
#undef SAIS_BIG_K

/* Sorts the suffixes of the reduced string R[0..m) (names in [0, names))
 * into SA[0..m); R lies above SA[0..m) (at SA + n - m of the level) and is
 * consumed. With at most 65536 names the string is first packed into
 * uint16_t in place (each symbol moves to a lower address than the one it
 * is read from, so a forward pass overwrites nothing still to be read):
 * the induce passes read the text at random, and half the bytes keep more
 * of it in the cache (the first reduced level of English-like text has
 * about 45000 names for 9.6 million symbols). Returns PC_OK or
 * PC_ENOMEM. */
static int sais_reduced(int32_t *R, int32_t *SA, int32_t m, int32_t names, sais_ctx *x,
                        pc_error *err)
{
    if (names > g_sais_pack16_max)
        return sais_level_i32(R, SA, m, names, x, err);
    uint16_t *R16 = (uint16_t *)(void *)R;
    for (int32_t i = 0; i < m; i++)
        R16[i] = (uint16_t)R[i];
    return sais_level_u16(R16, SA, m, names, x, err);
}

/* 1 when no byte of T is below the next one (every suffix L-type, as in
 * a run of equal bytes): each suffix then prefixes or exceeds the ones
 * after it, and the suffix array is n-1, ..., 0. */
static int sais_nonincreasing(const uint8_t *T, int32_t n)
{
    int32_t i = 1;
    while (i < n && T[i - 1] >= T[i])
        i++;
    return i >= n;
}

int32_t sa_sais_test_place_lms(const uint8_t *T, int32_t n, int32_t *SA, int threads)
{
    int32_t *C = pc_malloc_array(2 * 256, sizeof *C);
    int32_t *H = threads > 1 ? pc_malloc_array((size_t)threads * 256, sizeof *H) : NULL;
    int32_t m = PC_ENOMEM;
    if (C && (threads <= 1 || H)) {
        int32_t *B = C + 256;
        sais_count_u8(T, n, C, 256, NULL, 1);
        sais_bucket_ends(C, B, 256);
        sais_zero(SA, n, threads);
        m = threads > 1 ? sais_place_lms_par_u8(T, n, SA, B, 256, H, threads)
                        : sais_place_lms_u8(T, n, SA, B);
    }
    pc_free(C);
    pc_free(H);
    return m;
}

int sa_build_sais(const uint8_t *T, int32_t n, int32_t *SA, int threads, pc_error *err)
{
    if (n <= 0)
        return PC_OK;
    if (threads < 1)
        threads = 1;
    if (sais_nonincreasing(T, n)) {
        for (int32_t i = 0; i < n; i++)
            SA[i] = n - 1 - i;
        return PC_OK;
    }
    /* no slots where no pass runs in parallel (the reduced strings are
     * shorter than T): small inputs stay within 13n */
    sais_ctx x = { .threads = threads, .loaded = 0, .block = g_sais_block, .buf = NULL, .hist = NULL,
                   .hist_k = 0 };
    if (threads > 1 && n >= g_sais_par_induce_min) {
        /* the slots, then one histogram per thread for the levels of at
         * most hist_k symbols: 256 at least (the bytes), up to 65536
         * where they take at most n/4 bytes in all; a stride of 32
         * entries is 16 slots, so the histograms fill whole slots */
        int64_t k = (int64_t)n / (16 * (int64_t)threads);
        x.hist_k = k > 65536 ? 65536 : k > 256 ? (int32_t)k : 256;
        if (g_sais_hist_k >= 0)
            x.hist_k = g_sais_hist_k;
        size_t slots = (size_t)x.block + sais_hist_stride(x.hist_k) / 2;
        x.buf = pc_malloc_array((size_t)threads * slots, sizeof(sais_slot));
        if (!x.buf)
            return pc_error_nomem(err, "allocating SA-IS induce slots");
        x.hist = (int32_t *)(void *)(x.buf + (size_t)threads * (size_t)x.block);
    }
    int rc = sais_level_u8(T, SA, n, 256, &x, err);
    pc_free(x.buf);
    return rc;
}
