/* zoo.h - the zoo of known bugs: deliberately wrong implementations, built
 * only into the zoo test binary (never into the CLI's tables). Each entry
 * runs one wrong implementation through the validation path the CLI gives
 * a real one and says whether parcheck rejected it and located the damage
 * where the bug puts it. Controls run a correct implementation through the
 * same path: a judge that rejects everything would otherwise look perfect. */
#ifndef ZOO_H
#define ZOO_H

#include <stddef.h>
#include <stdint.h>

/* What an entry's check found. */
enum zoo_outcome {
    ZOO_REJECTED = 1, /* rejected, at the right location */
    ZOO_SLIPPED = 0,  /* accepted, or rejected at the wrong place */
    ZOO_BROKEN = -1   /* the entry itself could not run (set-up failed) */
};

typedef struct zoo_entry zoo_entry;
struct zoo_entry {
    const char *name;   /* short id, used by --only and --race */
    const char *bug;    /* the bug class in words */
    int control;        /* 1: a correct implementation that must be accepted */
    int (*run)(const zoo_entry *self, char *msg, size_t len); /* enum zoo_outcome */
    int arg;            /* which variant the run function plays */
};

/* The domains' tables; each ends with a NULL name. */
extern const zoo_entry zoo_spmm_entries[];
extern const zoo_entry zoo_sa_entries[];
extern const zoo_entry zoo_pets_entries[];
extern const zoo_entry zoo_sched_entries[];

/* Runs the racy SpMM kernel named name once at `threads` threads on a
 * small matrix (no judging): the race detector's target. Returns 0, or -1
 * for an unknown name. */
int zoo_spmm_race_once(const char *name, int threads);

#endif
