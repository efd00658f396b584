/* pc_omp.h - OpenMP's run-time calls, or their one-thread answers in a
 * build without OpenMP (make OPENMP=0, a compiler without it). The
 * `#pragma omp` lines need nothing: a compiler without OpenMP ignores them
 * and each parallel region runs once, as thread 0 of 1, which is the
 * serial path. Include this instead of <omp.h>. */
#ifndef PC_OMP_H
#define PC_OMP_H

#ifdef _OPENMP
#include <omp.h>
#else
static inline int omp_get_max_threads(void) { return 1; }
static inline int omp_get_num_threads(void) { return 1; }
static inline int omp_get_thread_num(void) { return 0; }
static inline void omp_set_num_threads(int n) { (void)n; }
#endif

#endif
