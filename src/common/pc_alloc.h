/* pc_alloc.h - the one allocation wrapper of parcheck, with fault injection.
 *
 * Every heap allocation of src/ and oracles/ goes through these functions so
 * that tests can make the N-th allocation fail (pc_alloc_fail_at, or the
 * environment variable PARCHECK_FAIL_ALLOC=N) and check that each failure
 * path returns a clean error and frees what it had taken. Memory from
 * pc_malloc/pc_calloc/pc_realloc is released with pc_free. */
#ifndef PC_ALLOC_H
#define PC_ALLOC_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Allocates n bytes aligned to 64 bytes (cache line, AVX-512 friendly).
 * Returns NULL when n == 0 is not the issue: pc_malloc(0) returns a valid
 * unique pointer. NULL means out of memory (real or injected). */
void *pc_malloc(size_t n);

/* Allocates count*size zeroed bytes; NULL on overflow of count*size or
 * out of memory. */
void *pc_calloc(size_t count, size_t size);

/* Allocates count*size bytes (uninitialised); NULL on overflow or OOM. */
void *pc_malloc_array(size_t count, size_t size);

/* Resizes p (which came from pc_realloc or is NULL) to n bytes. On failure
 * returns NULL and leaves p valid. Not 64-byte aligned. */
void *pc_realloc(void *p, size_t n);

/* Copies a NUL-terminated string; NULL on OOM. */
char *pc_strdup(const char *s);

/* Releases memory from any pc_ allocator; NULL is a no-op. */
void pc_free(void *p);

/* Fault injection: the n-th allocation counted from this call fails once
 * (n >= 1); n == 0 disables injection. */
void pc_alloc_fail_at(long n);

/* 1 if an injected failure has happened since the last pc_alloc_fail_at. */
int pc_alloc_injected(void);

/* Number of allocations currently live (taken and not yet freed). */
long pc_alloc_live(void);

/* Bytes currently live, and the peak since the last pc_alloc_reset_peak. */
long long pc_alloc_bytes(void);
long long pc_alloc_peak(void);
void pc_alloc_reset_peak(void);

/* on != 0: blocks of pc_malloc from 2 MiB on are advised to take
 * transparent huge pages (madvise MADV_HUGEPAGE on Linux, where the
 * kernel gives them only on request); 0 (the default): no advice. For a
 * program that keeps freed memory in its heap (sa-mpi), where a page
 * once faulted in serves many arrays in turn, and for `parcheck sa`,
 * whose large arrays are each filled whole (the suffix array, the
 * builders' bucket arrays). */
void pc_alloc_hugepages(int on);

/* Elements of `size` bytes from one thread's block of k counters to the
 * next (size divides 128): k rounded up to a whole number of 128 bytes, so
 * that no two threads' counters share a cache line, nor the pair of lines
 * a core's prefetcher fetches together. Packed at k, the few counters of a
 * small histogram sat in one line that every increment of every thread
 * took from the others (2 threads slower than 1). */
static inline size_t pc_thread_stride(size_t k, size_t size)
{
    size_t per = 128 / size;
    return (k + per - 1) / per * per;
}

/* Number of allocation calls since program start. */
long pc_alloc_calls(void);

#ifdef __cplusplus
}
#endif

#endif
