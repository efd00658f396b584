/* fuzz_stg.c - fuzz target "stg": the STG (Standard Task Graph Set) importer and serial PETS.
 *
 * The input is the file to import (fed through a memory file: the
 * importers read paths), with P = 1 + size % 4 processors and eta 0.5.
 * Properties checked (fuzz/pets_check.c; a violation aborts): a refusal
 * has a reader code and a message and leaves the graph empty; an imported
 * graph is well formed, survives the .dag writer + reader round trip
 * unchanged, and the serial implementation equals the oracle under both
 * policies with a schedule the validator accepts; nothing leaks.
 * Deterministic; inputs over FUZZ_STG_MAX bytes are rejected. When the
 * importer is not in the build (PC_EUNAVAIL) every input passes. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "pets_check.h"

#define FUZZ_STG_MAX (16 * 1024)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > FUZZ_STG_MAX)
        return 0; /* over the cap: rejected */
    pets_fuzz_import_one("stg", pets_import_stg, data, size);
    return 0;
}
