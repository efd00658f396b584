/* pc_spin.h - waiting for another thread: one step of a wait loop (a
 * short spin, then yielding the core). A thread
 * that only spins holds up the one it waits for when both share a core (a
 * loaded machine, or more threads than cores); one that yields at once
 * pays a system call per check on an idle machine. */
#ifndef PC_SPIN_H
#define PC_SPIN_H

#include <sched.h>
#include <stdint.h>

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

/* Waits until *v >= want (acquire: what the writer did before raising it
 * is visible); 1 when *stop became non-zero first, else 0. */
static inline int pc_spin_until_at_least(const int32_t *v, int32_t want, const int32_t *stop)
{
    for (int spins = 0; __atomic_load_n(v, __ATOMIC_ACQUIRE) < want;) {
        if (__atomic_load_n(stop, __ATOMIC_RELAXED))
            return 1;
        pc_spin_pause(&spins);
    }
    return 0;
}

#endif
