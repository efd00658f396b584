#include "pc_alloc.h"

#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static atomic_long g_live;
static atomic_long g_calls;
static atomic_long g_countdown;     /* > 0: allocations left until failure */
static atomic_int g_injected;
static atomic_int g_env_read;
static atomic_llong g_bytes;        /* bytes live */
static atomic_llong g_peak;         /* high-water mark of g_bytes */

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

static void alloc_account(long long delta)
{
    long long now = atomic_fetch_add(&g_bytes, delta) + delta;
    long long peak = atomic_load(&g_peak);
    while (now > peak && !atomic_compare_exchange_weak(&g_peak, &peak, now))
        ;
}

void *pc_malloc(size_t n)
{
    if (alloc_should_fail() || n > SIZE_MAX - ALLOC_HDR)
        return NULL;
    void *p = NULL;
    if (posix_memalign(&p, 64, n + ALLOC_HDR) != 0)
        return NULL;
    *(size_t *)p = n;
    atomic_fetch_add(&g_live, 1);
    alloc_account((long long)n);
    return (char *)p + ALLOC_HDR;
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
    char *base = p ? (char *)p - ALLOC_HDR : NULL;
    size_t old = base ? *(size_t *)base : 0;
    char *q = realloc(base, n + ALLOC_HDR);
    if (!q)
        return NULL;
    *(size_t *)q = n;
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
        char *base = (char *)p - ALLOC_HDR;
        atomic_fetch_sub(&g_live, 1);
        alloc_account(-(long long)*(size_t *)base);
        free(base);
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
