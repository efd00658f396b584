/* fuzz_dag.c - fuzz target "dag": the .dag reader, writer and serial PETS.
 *
 * The input is .dag text (see docs/README-pets.md). Properties checked
 * (fuzz/pets_check.c; a violation aborts):
 *  - a refusal has a reader code (EFORMAT, ERANGE...), a message and
 *    leaves the graph empty;
 *  - an accepted graph is well formed (sorted edge list matching the CSR
 *    lists, values within the limits), written and read back it is the
 *    same graph, and the serial implementation equals the oracle (levels,
 *    ranks, order, schedule) under both policies with a schedule the
 *    validator accepts;
 *  - everything taken from pc_alloc is given back.
 * Deterministic; inputs over FUZZ_DAG_MAX bytes are rejected. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pc_alloc.h"
#include "pets_check.h"

#define FUZZ_DAG_MAX (16 * 1024)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > FUZZ_DAG_MAX)
        return 0; /* over the cap: rejected */
    long live = pc_alloc_live();
    /* the parser wants NUL-terminated text of len bytes */
    char *text = malloc(size + 1);
    FUZZ_CHECK(text != NULL, "out of memory");
    memcpy(text, data, size);
    text[size] = '\0';
    pets_dag dag;
    pc_error err;
    pc_error_clear(&err);
    int rc = pets_dag_parse(text, size, "fuzz.dag", &dag, &err);
    if (rc)
        pets_fuzz_check_refusal("dag", rc, &err, &dag);
    else
        pets_fuzz_check_graph("dag", &dag);
    pets_dag_free(&dag);
    free(text);
    FUZZ_CHECK(pc_alloc_live() == live, "dag: %ld allocations leaked",
                    pc_alloc_live() - live);
    return 0;
}
