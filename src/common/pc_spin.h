/* pc_spin.h - waiting for another thread: one step of a wait loop (a
 * short spin, then yielding the core) and a barrier built on it. A thread
 * that only spins holds up the one it waits for when both share a core (a
 * loaded machine, or more threads than cores); one that yields at once
 * pays a system call per check on an idle machine. */
#ifndef PC_SPIN_H
#define PC_SPIN_H

#include <sched.h>

/* Spins of a wait loop before it starts yielding. */
#ifndef PC_SPIN_BEFORE_YIELD
#define PC_SPIN_BEFORE_YIELD 64
#endif

/* Waits a little; *spins counts the calls of one wait (start it at 0). */
static inline void pc_spin_pause(int *spins)
{
    if (*spins >= PC_SPIN_BEFORE_YIELD) {
        sched_yield();
        return;
    }
    (*spins)++;
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause(); /* leaves the core to a hyperthread sibling */
#endif
}

/* A barrier of nth threads that spins briefly, then yields (OpenMP's
 * spins for long: at load 2 on two cores a level loop with two OpenMP
 * barriers per level took 4.7 s instead of 0.06). The release by the last
 * arrival orders every thread's writes before the barrier before every
 * read after it. Zero-initialise; reusable at once. */
typedef struct pc_barrier {
    int count, gen;
} pc_barrier;

static inline void pc_barrier_wait(pc_barrier *b, int nth)
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

#endif
