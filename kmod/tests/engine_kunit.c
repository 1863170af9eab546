// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for the flit-level engine (kmod/engine/engine.c), inside the
 * kernel with KASAN and lockdep.  The cases are those of the userspace
 * engine test (tests/unit/test_engine.c), shared through engine_cases.h so
 * that the code the module runs is checked where it runs, by the same
 * assertions: Eq. 1 at zero load on every topology, contention,
 * backpressure, lock-step and asynchronous replication, intermediate
 * reception, the watchdog and flush, no false alarm.  A second suite runs
 * tree multicast's cases (tree_cases.h) the same way.
 */
#include <kunit/test.h>

#include "case_kunit.h"

#include "engine_cases.h"
#include "tree_cases.h"

static void eq1_desc(const struct case_eq1_topo *t, char *desc)
{
	strscpy(desc, t->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(eq1, case_eq1_topos, eq1_desc);

static void engine_eq1_zero_load(struct kunit *test)
{
	case_eq1_zero_load(test, test->param_value);
}

static void engine_contention(struct kunit *test)
{
	case_contention(test);
}

static void engine_backpressure(struct kunit *test)
{
	case_backpressure(test);
}

static void engine_replication(struct kunit *test)
{
	case_replication(test);
}

static void engine_intermediate_reception(struct kunit *test)
{
	case_intermediate_reception(test);
}

static void engine_watchdog(struct kunit *test)
{
	case_watchdog(test);
}

static void engine_no_false_alarm(struct kunit *test)
{
	case_no_false_alarm(test);
}

static void tree_tables_good(struct kunit *test)
{
	case_tree_tables_good(test);
}

static void tree_tables_bad(struct kunit *test)
{
	case_tree_tables_bad(test);
}

static void tree_reference(struct kunit *test)
{
	case_tree_reference(test);
}

static void tree_traffic(struct kunit *test)
{
	case_tree_traffic(test);
}

static void tree_spam_faults(struct kunit *test)
{
	case_tree_spam_faults(test);
}

static void tree_spam_node_fault(struct kunit *test)
{
	case_tree_spam_node_fault(test);
}

static struct kunit_case tree_cases[] = {
	KUNIT_CASE(tree_tables_good),
	KUNIT_CASE(tree_tables_bad),
	KUNIT_CASE(tree_reference),
	KUNIT_CASE(tree_traffic),
	KUNIT_CASE(tree_spam_faults),
	KUNIT_CASE(tree_spam_node_fault),
	{}
};

static struct kunit_suite wormcast_tree_suite = {
	.name = "wormcast_tree",
	.test_cases = tree_cases,
};

static struct kunit_case engine_cases[] = {
	KUNIT_CASE_PARAM(engine_eq1_zero_load, eq1_gen_params),
	KUNIT_CASE(engine_contention),
	KUNIT_CASE(engine_backpressure),
	KUNIT_CASE(engine_replication),
	KUNIT_CASE(engine_intermediate_reception),
	KUNIT_CASE(engine_watchdog),
	KUNIT_CASE(engine_no_false_alarm),
	{}
};

static struct kunit_suite wormcast_engine_suite = {
	.name = "wormcast_engine",
	.test_cases = engine_cases,
};

kunit_test_suites(&wormcast_engine_suite);
kunit_test_suites(&wormcast_tree_suite);

MODULE_LICENSE("GPL");
