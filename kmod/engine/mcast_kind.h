/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which kind of routing table a multicast scheme routes by: the one place
 * that says so for the kernel (which table the fabric runs on), wormcastd
 * (which table it computes and pushes) and wormsim.
 */
#ifndef WC_MCAST_KIND_H
#define WC_MCAST_KIND_H

#include <linux/wormcast.h>

#include "compat.h"

/* WORMCAST_TABLE_TREES, _LABELS, _BCAST or _FTMESH; 0 for a built-in scheme or unknown. */
static inline u32 wc_mcast_table_kind(u32 scheme)
{
	switch (scheme) {
	case WORMCAST_MCAST_SPAM:
	case WORMCAST_MCAST_DSTM1:
	case WORMCAST_MCAST_DSTM2:
	case WORMCAST_MCAST_RT:
		return WORMCAST_TABLE_TREES;
	case WORMCAST_MCAST_HAMILTONIAN:
	case WORMCAST_MCAST_DUAL_PATH:
	case WORMCAST_MCAST_MULTIPATH:
	case WORMCAST_MCAST_STAR_TREE:
	case WORMCAST_MCAST_OCMS:
	case WORMCAST_MCAST_OTMS:
		return WORMCAST_TABLE_LABELS;
	case WORMCAST_MCAST_DCF:
	case WORMCAST_MCAST_EDN:
		return WORMCAST_TABLE_BCAST;
	case WORMCAST_MCAST_FTMESH:
		return WORMCAST_TABLE_FTMESH;
	}
	return 0;
}

/*
 * The built-in schemes, which need no table and run on the built-in
 * unicast-based algorithm: unicast (the source sends every unicast) and
 * multiphase (receivers send on, relay.h).
 */
static inline bool wc_mcast_builtin(u32 scheme)
{
	return scheme == WORMCAST_MCAST_UNICAST ||
	       scheme == WORMCAST_MCAST_MULTIPHASE;
}

/* The schemes of two edge-disjoint trees (whose tables may carry faults). */
static inline bool wc_mcast_two_trees(u32 scheme)
{
	return scheme == WORMCAST_MCAST_DSTM1 ||
	       scheme == WORMCAST_MCAST_DSTM2 || scheme == WORMCAST_MCAST_RT;
}

#endif /* WC_MCAST_KIND_H */
