/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Fault-tolerant minimal multicast on a 2-D mesh with faulty blocks in the
 * engine (Wu and Chen, sections 4 and 7.2): worms routed hop by hop by the
 * routers' own decisions (ftmesh.h), Strategies 1 and 2 at separating
 * points, replication at the routers, the four virtual subnetworks of
 * Fig. 12 as virtual-channel classes.
 *
 * Tables.  What every router knows, built by the daemon's library
 * (wc_ftm_tables_build(), daemon/lib/ftmcast.h) from its fault information
 * and only read here: per node, whether it is inside a faulty block, its
 * safety vector, and per subnetwork the faulty-block records it holds on
 * the adjacent lines (canonical frame of that subnetwork).
 *
 * Header.  One word (a destination's node id) per header flit.  At the
 * source the destinations are grouped by subnetwork, one worm per
 * non-empty subnetwork; m->hdr holds [count, ids...] per subnetwork and a
 * worm's header ends with its own segment (as the label schemes do).  At
 * every router the worm's words are split into the router's own id
 * (consumed there: intermediate reception), the ones going +X and the ones
 * going +Y of the canonical frame; routed() reorders the words in place so
 * that each branch keeps one contiguous run.
 *
 * Virtual channels.  Subnetwork q uses the VCs v with v % 4 == q (at least
 * 4 VCs).  In its canonical frame a worm only ever goes +X or +Y, so each
 * subnetwork's channel dependencies are acyclic and no dependency crosses
 * subnetworks.
 *
 * Destinations the source cannot reach minimally under Theorem 4 (in a
 * faulty block, or not extended safe from the source, or a source in a
 * block) get no worm: the message is marked faulted at its source and the
 * engine counts them in fault_drops (Documentation/faults.rst).
 */
#ifndef WC_FT_MCAST_H
#define WC_FT_MCAST_H

#include "compat.h"
#include "engine.h"
#include "ftmesh.h"

/* Strategy 3 plans per (source, group): not a per-hop decision. */
#define WC_FTM_STRATEGY_MIN	1
#define WC_FTM_STRATEGY_MAX	2

/* Subnetwork q's VCs: those v with v % WC_FT_NSUBNETS == q. */
#define WC_FTM_MIN_VCS		WC_FT_NSUBNETS

struct wc_ftm_tables {
	u32 w, h;			/* mesh sides (node id = x + w * y) */
	u32 strategy;			/* 1 or 2 */
	u64 seed;			/* Strategy 1's random bits */
	const u8 *in_block;		/* per node: inside a faulty block */
	const u16 *safety;		/* per node: E, S, W, N (4 words) */
	/* node n of subnetwork q: recs[off[q * w * h + n] .. off[... + 1]) */
	const u32 *off;
	const struct wc_ft_rec *recs;
};

/* Words of m->hdr for @ndsts destinations (counts per subnetwork, a 0). */
u32 wc_ftm_hdr_words(u32 ndsts);

/*
 * Can @src reach @dst through this algorithm (Theorem 4's condition, as
 * the source decides it)?
 */
bool wc_ftm_reachable(const struct wc_ftm_tables *t, u32 src, u32 dst);

extern const struct wc_algo wc_algo_ftmesh;

#endif /* WC_FT_MCAST_H */
