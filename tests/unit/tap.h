/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Minimal TAP producer for the userspace unit tests.  Each test binary
 * prints "ok N - name" / "not ok N - name" lines and a trailing plan, and
 * exits non-zero if anything failed, so prove(1) can run it directly.
 */
#ifndef WC_TAP_H
#define WC_TAP_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static int tap_count, tap_failed;

static inline int tap_ok(int cond, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static inline int tap_ok(int cond, const char *fmt, ...)
{
	va_list ap;

	tap_count++;
	if (!cond)
		tap_failed++;
	printf("%sok %d - ", cond ? "" : "not ", tap_count);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	return cond;
}

#define ok(cond, ...) tap_ok(!!(cond), __VA_ARGS__)

/* Compare two integers; on failure print both as a TAP diagnostic. */
#define is_int(got, want, ...)						\
	({								\
		long long g__ = (long long)(got), w__ = (long long)(want); \
		int r__ = tap_ok(g__ == w__, __VA_ARGS__);		\
		if (!r__)						\
			printf("#   got %lld, want %lld\n", g__, w__);	\
		r__;							\
	})

static inline void diag(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

static inline void diag(const char *fmt, ...)
{
	va_list ap;

	printf("# ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

/* Print the plan and return the process exit status. */
static inline int done_testing(void)
{
	printf("1..%d\n", tap_count);
	if (tap_failed)
		printf("# %d of %d failed\n", tap_failed, tap_count);
	return tap_failed ? 1 : 0;
}

#endif /* WC_TAP_H */
