// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for label-based multicast (kmod/engine/path_mcast.c), inside
 * the kernel with KASAN and lockdep: the cases of the userspace test
 * (tests/unit/test_path_mcast.c), shared through path_cases.h: label
 * table validation (good, and every kind of bad), routing R and the
 * splits per hop, the star paper's sample multicast, intermediate
 * reception delivering once at every destination with the links of the
 * papers' definitions, and mixed traffic without deadlock.
 */
#include <kunit/test.h>

#include "case_kunit.h"

/* engine_cases.h's own cases run in engine_kunit.c; only its recorder here. */
__diag_push();
__diag_ignore_all("-Wunused-function", "only the recorder of engine_cases.h is used");
#include "engine_cases.h"
__diag_pop();
#include "path_cases.h"

static void path_tables_good(struct kunit *test)
{
	case_path_tables_good(test);
}

static void path_tables_bad(struct kunit *test)
{
	case_path_tables_bad(test);
}

static void path_tables_faults(struct kunit *test)
{
	case_path_tables_faults(test);
}

static void path_hops(struct kunit *test)
{
	case_path_hops(test);
}

static void path_star_sample(struct kunit *test)
{
	case_path_star_sample(test);
}

static void path_reference(struct kunit *test)
{
	case_path_reference(test, 20);
}

static void path_traffic(struct kunit *test)
{
	case_path_traffic(test, 600);
}

static struct kunit_case path_cases[] = {
	KUNIT_CASE(path_tables_good),
	KUNIT_CASE(path_tables_bad),
	KUNIT_CASE(path_tables_faults),
	KUNIT_CASE(path_hops),
	KUNIT_CASE(path_star_sample),
	KUNIT_CASE(path_reference),
	KUNIT_CASE(path_traffic),
	{}
};

static struct kunit_suite wormcast_path_suite = {
	.name = "wormcast_path",
	.test_cases = path_cases,
};

kunit_test_suites(&wormcast_path_suite);
