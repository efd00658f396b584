/* spmm_librsb.h - the librsb entry of the SpMM table (see spmm_librsb.c).
 * Built in every configuration; without librsb, available() says why and
 * prepare/run return PC_EUNAVAIL. */
#ifndef SPMM_LIBRSB_H
#define SPMM_LIBRSB_H

#include "spmm.h"

/* 1 when librsb was found at build time; else 0 with the reason in why. */
int spmm_librsb_available(const spmm_impl *self, char *why, size_t n);
/* Assembles A->csr into librsb's format (*state, freed by release).
 * Returns 0, PC_ENOMEM, or PC_EUNAVAIL with librsb's reason when it
 * refuses the matrix or cannot start. */
int spmm_librsb_prepare(const spmm_impl *self, const spmm_matrix *A, int K, void **state,
                        pc_error *err);
/* Y = A*X through rsb_spmm on `threads` threads. Returns 0 or PC_EINVAL
 * with librsb's message. */
int spmm_librsb_run(const spmm_impl *self, void *state, const spmm_matrix *A, const double *X,
                    int K, double *Y, int threads, spmm_timing *t, pc_error *err);
/* Frees what prepare built; NULL is allowed. */
void spmm_librsb_release(void *state);

#endif
