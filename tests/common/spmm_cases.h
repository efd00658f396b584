/* spmm_cases.h - seeded SpMM test matrices with the irregular cases every
 * kernel must survive (empty rows, one dense row, rectangular shapes). */
#ifndef SPMM_CASES_H
#define SPMM_CASES_H

#include <stdint.h>

#include "mm.h"

/* Random matrix number `id`: shape, density, dense rows and value kind all
 * depend on id only. ints: integer values (exact arithmetic). */
int spmm_case_random(uint64_t id, int ints, mm_coo *out);

/* K for case id: cycles through 1..64 with values not multiple of 4. */
int spmm_case_k(uint64_t id);

/* Builds a matrix from explicit triplets (0-based), normalized. */
int spmm_case_from(int32_t m, int32_t n, int64_t nnz, const int32_t *ri, const int32_t *ci,
                   const double *v, mm_coo *out);

#endif
