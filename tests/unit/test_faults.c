// SPDX-License-Identifier: GPL-2.0
/*
 * Live faults in the engine (Documentation/faults.rst, "Live faults"): the
 * cases of kmod/tests/fault_cases.h under ASan and UBSan (the KUnit suite
 * wormcast_faults runs them in the kernel): the fault set's API, the
 * semantics on single worms, and random traffic while links and nodes fail
 * and recover, under unicast, tree and path schemes.
 */
#include "tap.h"
#include "engine.h"

#include "case_tap.h"

/* Only the shared helpers (recorder, tables, labels) are used here. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#include "../../kmod/tests/engine_cases.h"
#include "../../kmod/tests/tree_cases.h"
#include "../../kmod/tests/path_cases.h"
#pragma GCC diagnostic pop
#include "../../kmod/tests/fault_cases.h"

int main(void)
{
	case_fault_api(NULL);
	case_fault_semantics(NULL);
	case_fault_local(NULL, 400);
	case_fault_traffic(NULL, 1500);
	return done_testing();
}
