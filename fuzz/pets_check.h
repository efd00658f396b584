/* pets_check.h - what the PETS fuzz targets (fuzz_dag, fuzz_stg,
 * fuzz_wfcommons, fuzz_dax) share: the checks run on every graph a reader
 * or importer accepts, the checks of a refusal, and the importers fed from
 * memory. Linked into those targets through FUZZ_EXTRA_SRC_<name>
 * (src/pets/module.mk). Every violation prints a message and abort()s. */
#ifndef PETS_CHECK_H
#define PETS_CHECK_H

#include <stddef.h>
#include <stdint.h>

#include "pc_error.h"
#include "pets.h"

/* On a graph that was accepted: invariants of pets_dag (sorted edge list,
 * CSR lists that match it, values within the limits), the .dag writer +
 * reader round trip gives the same graph, and the serial implementation
 * equals the oracle (levels, ranks, order, schedule) under both policies,
 * its schedule passing the validator. Frees nothing. */
void pets_fuzz_check_graph(const char *who, const pets_dag *dag);

/* On a refusal: rc is one of the codes a reader may return for bad input
 * (EFORMAT, ERANGE, EUNSUP, ENOMEM), the message is set, dag is empty. */
void pets_fuzz_check_refusal(const char *who, int rc, const pc_error *err,
                             const pets_dag *dag);

/* Runs an importer (pets_import_stg/_wfcommons/_dax) on size bytes of
 * data held in a memory file (memfd, named /proc/self/fd/N), with P from
 * 1 to 4 chosen by the input's length and eta 0.5: the importers read
 * paths only. Returns what the importer returns. */
typedef int (*pets_import_fn)(const char *path, const pets_import_params *ip, pets_dag *dag,
                              pc_error *err);
int pets_fuzz_import(pets_import_fn import, const uint8_t *data, size_t size, pets_dag *dag,
                     pc_error *err);

/* One whole execution of an importer target: import, then the refusal or
 * graph checks, then no pc_alloc allocation may be left. */
void pets_fuzz_import_one(const char *who, pets_import_fn import, const uint8_t *data,
                          size_t size);

#define FUZZ_NAME "fuzz pets"
#include "fuzz_check.h"

#endif
