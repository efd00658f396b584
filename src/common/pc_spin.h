/* pc_spin.h - waiting for another thread: one step of a wait loop (a
 * short spin, then yielding the core). A thread
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

#endif
