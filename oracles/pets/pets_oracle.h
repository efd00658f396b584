/* pets_oracle.h - the slow, independent PETS reference and the schedule
 * validator (docs/ARCHITECTURE.md §6, rule 3). They read only the plain fields of
 * pets_dag (ntasks, nprocs, cost, edge_from/edge_to/edge_comm) and share no
 * code with src/pets. */
#ifndef PETS_ORACLE_H
#define PETS_ORACLE_H

#include "pets.h"

/* Levels, ranks (scaled and rounded), priority order and the EFT schedule
 * under policy (PETS_INSERTION or PETS_APPEND), by the rules of
 * docs/README-pets.md ("Rules"), in exact integer arithmetic on
 * adjacency lists. out must be allocated for dag->ntasks. Returns 0,
 * PC_EVERIFY (a cycle) or PC_ENOMEM; work space O(V + E + gaps). */
int pets_oracle_solve(const pets_dag *dag, int policy, pets_solution *out, pc_error *err);

/* A predecessor of the task at some position of the priority order: its
 * own position, and the edge's communication cost. */
typedef struct pets_oracle_in {
    int64_t comm;
    int32_t pos;
} pets_oracle_in;

/* What both policies share: levels, ranks and the priority order, and the
 * predecessors of order[k] in in[in_off[k] .. in_off[k + 1]). */
typedef struct pets_oracle_prep {
    int32_t ntasks;
    int32_t *level;
    int64_t *rank_scaled, *rank;
    int32_t *order;
    int32_t *in_off;    /* ntasks + 1 */
    pets_oracle_in *in; /* nedges */
} pets_oracle_prep;

/* The first half of pets_oracle_solve, into *prep (freed with
 * pets_oracle_prep_free, also on failure). Returns 0, PC_EVERIFY (a
 * cycle) or PC_ENOMEM. */
int pets_oracle_prepare(const pets_dag *dag, pets_oracle_prep *prep, pc_error *err);

/* Releases what prep owns and zeroes it (safe on a zeroed prep). */
void pets_oracle_prep_free(pets_oracle_prep *prep);

/* The second half: prep's levels, ranks and order copied into out, then
 * the EFT schedule under policy. prep is only read, so the two policies
 * may run at once on one prep. Returns 0 or PC_ENOMEM. */
int pets_oracle_schedule(const pets_dag *dag, const pets_oracle_prep *prep, int policy,
                         pets_solution *out, pc_error *err);

/* Checks a solution's schedule without any scheduler: its order is a
 * permutation of the tasks, then the rules of pets_check.h (each task once
 * on a valid processor, finish = start + cost, no overlap on a processor -
 * an empty interval overlaps nothing -, precedence with communication
 * costs), then makespan = the largest finish and >= the critical-path lower
 * bound (the longest path of minimum costs, no communication), which is
 * stored in *lower_bound. PC_EVERIFY with the first violation in err,
 * PC_ENOMEM. */
int pets_oracle_validate(const pets_dag *dag, const pets_solution *s, int64_t *lower_bound,
                         pc_error *err);

/* The critical-path lower bound alone: PC_EINVAL for edges not sorted by
 * source, PC_EVERIFY for a cycle, PC_ENOMEM; *lower_bound is written only
 * on success. */
int pets_oracle_lower_bound(const pets_dag *dag, int64_t *lower_bound, pc_error *err);

#endif
