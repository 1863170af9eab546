// SPDX-License-Identifier: GPL-2.0
/*
 * The names of the uapi counters (counter_names.h).  test_wormctl checks
 * that every value of the enum has its name here.
 */
#include "counter_names.h"

const char *const wc_counter_names[__WORMCAST_CNT_MAX] = {
	[WORMCAST_CNT_TX_FRAMES] = "tx_frames",
	[WORMCAST_CNT_TX_BYTES] = "tx_bytes",
	[WORMCAST_CNT_RX_FRAMES] = "rx_frames",
	[WORMCAST_CNT_RX_BYTES] = "rx_bytes",
	[WORMCAST_CNT_TX_NO_RECEIVER] = "tx_no_receiver",
	[WORMCAST_CNT_WORMS_INJECTED] = "worms_injected",
	[WORMCAST_CNT_FLITS_INJECTED] = "flits_injected",
	[WORMCAST_CNT_WORMS_CONSUMED] = "worms_consumed",
	[WORMCAST_CNT_FLITS_CONSUMED] = "flits_consumed",
	[WORMCAST_CNT_DROP_UNKNOWN_DST] = "drop_unknown_dst",
	[WORMCAST_CNT_DROP_DST_DOWN] = "drop_dst_down",
	[WORMCAST_CNT_DROP_SELF] = "drop_self",
	[WORMCAST_CNT_DROP_NOMEM] = "drop_nomem",
	[WORMCAST_CNT_DROP_FABRIC_DOWN] = "drop_fabric_down",
	[WORMCAST_CNT_DROP_BAD_FRAME] = "drop_bad_frame",
	[WORMCAST_CNT_DROP_RX_ERROR] = "drop_rx_error",
	[WORMCAST_CNT_DROP_ROUTE_ERROR] = "drop_route_error",
	[WORMCAST_CNT_DROP_NOT_A_NODE] = "drop_not_a_node",
	[WORMCAST_CNT_RX_FILTER_FALLBACK] = "rx_filter_fallback",
	[WORMCAST_CNT_DROP_DEADLOCK] = "drop_deadlock",
	[WORMCAST_CNT_TABLE_FALLBACK] = "table_fallback",
	[WORMCAST_CNT_DROP_STRAY] = "drop_stray",
	[WORMCAST_CNT_FAULT_DROPS] = "fault_drops",
	[WORMCAST_CNT_PLAN_FALLBACK] = "plan_fallback",
	[WORMCAST_CNT_FAULT_REINJECTED] = "fault_reinjected",
	[WORMCAST_CNT_FAULT_REINJECT_DROPS] = "fault_reinject_drops",
};
