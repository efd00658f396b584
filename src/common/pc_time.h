/* pc_time.h - monotonic timing and robust summaries of repeated runs. */
#ifndef PC_TIME_H
#define PC_TIME_H

#include <stddef.h>

/* Seconds from an arbitrary fixed point, CLOCK_MONOTONIC. */
double pc_time_now(void);

/* Median of v[0..n) (sorts v in place); 0 when n == 0. */
double pc_time_median(double *v, size_t n);

#endif
