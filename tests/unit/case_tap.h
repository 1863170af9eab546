/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The check interface of the cases shared with the KUnit suites
 * (kmod/tests/ *_cases.h), in TAP, as kmod/tests/case_kunit.h is in KUnit
 * expectations; ctx is unused (NULL).  Include after
 * tap.h and before the cases.
 */
#ifndef WC_CASE_TAP_H
#define WC_CASE_TAP_H

#include <stdlib.h>

#define CASE_CTX void
#define CASE_CHECK(ctx, cond, ...) ((void)(ctx), ok(cond, __VA_ARGS__))
#define CASE_EQ(ctx, got, want, ...) \
	((void)(ctx), is_int(got, want, __VA_ARGS__))
#define CASE_REQUIRE(ctx, cond, ...)				\
	do {							\
		if (!(cond)) {					\
			ok(0, __VA_ARGS__);			\
			exit(done_testing());			\
		}						\
	} while (0)

#endif /* WC_CASE_TAP_H */
