// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for live faults in the engine (kmod/engine/engine.c,
 * Documentation/faults.rst), inside the kernel with KASAN and lockdep: the
 * cases of the userspace test (tests/unit/test_faults.c), shared through
 * fault_cases.h: the fault set's API, absorption and draining on single
 * worms, and random traffic under unicast, tree and path schemes while
 * links and nodes fail and recover, every destination delivered once or
 * counted.
 */
#include <kunit/test.h>

#include "case_kunit.h"

/* Only the helpers of the other cases headers (recorder, tables, labels). */
__diag_push();
__diag_ignore_all("-Wunused-function", "only the helpers of the other cases are used");
#include "engine_cases.h"
#include "tree_cases.h"
#include "path_cases.h"
__diag_pop();
#include "fault_cases.h"

static void fault_api(struct kunit *test)
{
	case_fault_api(test);
}

static void fault_semantics(struct kunit *test)
{
	case_fault_semantics(test);
}

static void fault_local(struct kunit *test)
{
	case_fault_local(test, 200);
}

/* Fewer messages than userspace's 1500: the debug kernel is slow. */
static void fault_traffic(struct kunit *test)
{
	case_fault_traffic(test, 600);
}

static struct kunit_case fault_cases[] = {
	KUNIT_CASE(fault_api),
	KUNIT_CASE(fault_semantics),
	KUNIT_CASE(fault_local),
	KUNIT_CASE(fault_traffic),
	{}
};

static struct kunit_suite wormcast_fault_suite = {
	.name = "wormcast_faults",
	.test_cases = fault_cases,
};

kunit_test_suites(&wormcast_fault_suite);

MODULE_LICENSE("GPL");
