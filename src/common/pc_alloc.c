#include "pc_alloc.h"

#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#ifdef __linux__
#include <sys/mman.h>
#endif

static atomic_long g_live;
static atomic_long g_calls;
static atomic_long g_countdown;     /* > 0: allocations left until failure */
static atomic_int g_injected;
static atomic_int g_env_read;
static atomic_llong g_bytes;        /* bytes live */
static atomic_llong g_peak;         /* high-water mark of g_bytes */
static atomic_int g_huge;           /* advise huge pages (pc_alloc_hugepages) */

/* Blocks from this size on are advised to take transparent huge pages of
 * this size (where the kernel gives them only on request). */
#define ALLOC_HUGE ((size_t)2 << 20)

void pc_alloc_hugepages(int on) { atomic_store(&g_huge, on != 0); }

/* The advice for the whole huge pages inside [p, p + n): a hint, whose
 * failure changes nothing but speed. */
static void alloc_advise_huge(char *p, size_t n)
{
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    uintptr_t a = ((uintptr_t)p + ALLOC_HUGE - 1) & ~(uintptr_t)(ALLOC_HUGE - 1);
    uintptr_t z = ((uintptr_t)p + n) & ~(uintptr_t)(ALLOC_HUGE - 1);
    if (z > a)
        (void)madvise((void *)a, z - a, MADV_HUGEPAGE);
#else
    (void)p, (void)n;
#endif
}

/* PARCHECK_FAIL_ALLOC=N arms injection once per process, so that a CLI run
 * can be driven through every failure path from a shell loop. */
static void alloc_read_env(void)
{
    if (atomic_exchange(&g_env_read, 1))
        return;
    const char *s = getenv("PARCHECK_FAIL_ALLOC");
    if (s && *s) {
        char *end = NULL;
        long n = strtol(s, &end, 10);
        if (end && *end == '\0' && n > 0)
            atomic_store(&g_countdown, n);
    }
}

/* Returns 1 when this allocation must fail. */
static int alloc_should_fail(void)
{
    alloc_read_env();
    atomic_fetch_add(&g_calls, 1);
    long c = atomic_load(&g_countdown);
    while (c > 0) {
        if (atomic_compare_exchange_weak(&g_countdown, &c, c - 1)) {
            if (c == 1) {
                atomic_store(&g_injected, 1);
                return 1;
            }
            return 0;
        }
    }
    return 0;
}

/* Each block carries a 64-byte header holding its size, so that live and
 * peak bytes can be measured per implementation without an external tool,
 * and the user pointer keeps 64-byte alignment. */
#define ALLOC_HDR 64
#define ALLOC_SLACK 63 /* up to 64 from any alignment of malloc's */

/* The header of the block at user pointer p: its size and the pointer
 * that malloc or realloc returned. */
static void alloc_header_set(char *p, size_t n, char *raw)
{
    memcpy(p - ALLOC_HDR, &n, sizeof n);
    memcpy(p - ALLOC_HDR + sizeof n, &raw, sizeof raw);
}

static size_t alloc_header_size(const char *p)
{
    size_t n;
    memcpy(&n, p - ALLOC_HDR, sizeof n);
    return n;
}

static char *alloc_header_raw(const char *p)
{
    char *raw;
    memcpy(&raw, p - ALLOC_HDR + sizeof(size_t), sizeof raw);
    return raw;
}

static void alloc_account(long long delta)
{
    long long now = atomic_fetch_add(&g_bytes, delta) + delta;
    long long peak = atomic_load(&g_peak);
    while (now > peak && !atomic_compare_exchange_weak(&g_peak, &peak, now))
        ;
}

void *pc_malloc(size_t n)
{
    if (alloc_should_fail())
        return NULL;
    /* malloc's alignment (16 bytes in glibc) raised to 64 inside the
     * block: unlike posix_memalign this leaves a freed block whole for the
     * next request of its size, which then finds its pages mapped */
    if (n > SIZE_MAX - ALLOC_HDR - ALLOC_SLACK)
        return NULL;
    char *raw = malloc(n + ALLOC_HDR + ALLOC_SLACK);
    if (!raw)
        return NULL;
    char *p = (char *)(((uintptr_t)raw + ALLOC_HDR + 63) & ~(uintptr_t)63);
    alloc_header_set(p, n, raw);
    if (n >= ALLOC_HUGE && atomic_load(&g_huge))
        alloc_advise_huge(p, n);
    atomic_fetch_add(&g_live, 1);
    alloc_account((long long)n);
    return p;
}

void *pc_malloc_array(size_t count, size_t size)
{
    if (size && count > SIZE_MAX / size)
        return NULL;
    return pc_malloc(count * size);
}

void *pc_calloc(size_t count, size_t size)
{
    void *p = pc_malloc_array(count, size);
    if (p)
        memset(p, 0, count * size);
    return p;
}

void *pc_realloc(void *p, size_t n)
{
    if (alloc_should_fail() || n > SIZE_MAX - ALLOC_HDR)
        return NULL;
    char *base = p ? alloc_header_raw(p) : NULL;
    size_t old = p ? alloc_header_size(p) : 0;
    if (base && base + ALLOC_HDR != (char *)p) {
        /* a block of pc_malloc, its header further in: realloc would copy
         * the data to another offset, so copy it here */
        char *q = malloc(n + ALLOC_HDR);
        if (!q)
            return NULL;
        memcpy(q + ALLOC_HDR, p, old < n ? old : n);
        free(base);
        alloc_header_set(q + ALLOC_HDR, n, q);
        alloc_account((long long)n - (long long)old);
        return q + ALLOC_HDR;
    }
    /* a block of pc_realloc starts its header where realloc's block starts */
    char *q = realloc(base, n + ALLOC_HDR);
    if (!q)
        return NULL;
    alloc_header_set(q + ALLOC_HDR, n, q);
    if (!p)
        atomic_fetch_add(&g_live, 1);
    alloc_account((long long)n - (long long)old);
    return q + ALLOC_HDR;
}

char *pc_strdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = pc_malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

void pc_free(void *p)
{
    if (p) {
        atomic_fetch_sub(&g_live, 1);
        alloc_account(-(long long)alloc_header_size(p));
        free(alloc_header_raw(p));
    }
}

long long pc_alloc_bytes(void) { return atomic_load(&g_bytes); }
long long pc_alloc_peak(void) { return atomic_load(&g_peak); }
void pc_alloc_reset_peak(void) { atomic_store(&g_peak, atomic_load(&g_bytes)); }

void pc_alloc_fail_at(long n)
{
    atomic_store(&g_env_read, 1);
    atomic_store(&g_injected, 0);
    atomic_store(&g_countdown, n > 0 ? n : 0);
}

int pc_alloc_injected(void) { return atomic_load(&g_injected); }
long pc_alloc_live(void) { return atomic_load(&g_live); }
long pc_alloc_calls(void) { return atomic_load(&g_calls); }
