/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Timing and medians shared by the benchmarks.  Each tools/bench/bench_*.c
 * is its own program, so these are static inline.
 */
#ifndef WC_BENCH_H
#define WC_BENCH_H

#include <stdlib.h>
#include <time.h>

/* Wall-clock time in milliseconds (monotonic clock). */
static inline double bench_wall_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* CPU seconds of this process, so that other jobs on the machine do not count. */
static inline double bench_cpu_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static inline int bench_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Median of @v[0..n-1] (sorts @v); the mean of the middle two for even @n. */
static inline double bench_median(double *v, int n)
{
	qsort(v, n, sizeof(*v), bench_cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

#endif /* WC_BENCH_H */
