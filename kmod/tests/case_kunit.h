/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The check interface of the shared cases (kmod/tests/ *_cases.h) in KUnit
 * expectations; tests/unit/case_tap.h is the same in TAP.  Include after
 * <kunit/test.h> and before the cases.
 */
#ifndef WC_CASE_KUNIT_H
#define WC_CASE_KUNIT_H

#define CASE_CTX struct kunit
#define CASE_CHECK(ctx, cond, ...) KUNIT_EXPECT_TRUE_MSG(ctx, cond, __VA_ARGS__)
#define CASE_EQ(ctx, got, want, ...) \
	KUNIT_EXPECT_EQ_MSG(ctx, (s64)(got), (s64)(want), __VA_ARGS__)
#define CASE_REQUIRE(ctx, cond, ...) \
	KUNIT_ASSERT_TRUE_MSG(ctx, cond, __VA_ARGS__)

#endif /* WC_CASE_KUNIT_H */
