/* fuzz_wfcommons.c - fuzz target "wfcommons": the WfCommons JSON importer (jansson) and serial PETS.
 *
 * The input is the file to import (fed through a memory file: the
 * importers read paths), with P = 1 + size % 4 processors and eta 0.5.
 * Properties checked (fuzz/pets_check.c; a violation aborts): a refusal
 * has a reader code and a message and leaves the graph empty; an imported
 * graph is well formed, survives the .dag writer + reader round trip
 * unchanged, and the serial implementation equals the oracle under both
 * policies with a schedule the validator accepts; nothing leaks.
 * Deterministic; inputs over FUZZ_WFC_MAX bytes are rejected. When the
 * importer is not in the build (PC_EUNAVAIL) every input passes. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "pets_check.h"

#define FUZZ_WFC_MAX (64 * 1024)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > FUZZ_WFC_MAX)
        return 0; /* over the cap: rejected */
    pets_fuzz_import_one("wfcommons", pets_import_wfcommons, data, size);
    return 0;
}
