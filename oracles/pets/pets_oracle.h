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
 * adjacency lists. out must be allocated for dag->ntasks. */
int pets_oracle_solve(const pets_dag *dag, int policy, pets_solution *out, pc_error *err);

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

/* The critical-path lower bound alone. */
int pets_oracle_lower_bound(const pets_dag *dag, int64_t *lower_bound, pc_error *err);

/* Internal: a topological order of the tasks by depth-first search over
 * adjacency lists made from the edge list (topo[0..n)). */
int pets_oracle_topo(const pets_dag *dag, int32_t *topo, pc_error *err);

#endif
