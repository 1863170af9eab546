// SPDX-License-Identifier: GPL-2.0
/*
 * wormctl: the uapi enums' names as wormctl prints them (lower case, the
 * enum name without its prefix).  test_wormctl checks that every value of
 * the enums has its name.  The counters' names are shared with the kernel
 * (ethtool -S): kmod/engine/counter_names.c.
 */
#include "names.h"

const char *const wc_engine_stat_names[__WORMCAST_ENG_MAX] = {
	[WORMCAST_ENG_CYCLES] = "cycles",
	[WORMCAST_ENG_WORMS_IN_FLIGHT] = "worms_in_flight",
	[WORMCAST_ENG_FLIT_HOPS] = "flit_hops",
	[WORMCAST_ENG_WORMS_DONE] = "worms_done",
	[WORMCAST_ENG_LATENCY_SUM] = "latency_sum",
	[WORMCAST_ENG_LATENCY_MAX] = "latency_max",
	[WORMCAST_ENG_BLOCKED_CYCLES] = "blocked_cycles",
	[WORMCAST_ENG_DEADLOCKS] = "deadlocks",
	[WORMCAST_ENG_HOPS_SUM] = "hops_sum",
	[WORMCAST_ENG_ROUTE_ERRORS] = "route_errors",
	[WORMCAST_ENG_MEM_BYTES] = "mem_bytes",
	[WORMCAST_ENG_FAULT_ABSORBED] = "fault_absorbed",
	[WORMCAST_ENG_FAULT_DROPS] = "fault_drops",
	[WORMCAST_ENG_FAULT_REINJECTED] = "fault_reinjected",
};
