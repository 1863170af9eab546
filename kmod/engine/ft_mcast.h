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
 * Virtual channels.  Subnetwork q uses the VCs v with v % 8 == q (at least
 * 4 VCs); a detour's second leg in subnetwork q those with v % 8 == 4 + q.
 * In its canonical frame a worm only ever goes +X or +Y, so each
 * subnetwork's channel dependencies are acyclic, and a dependency crosses
 * classes only from a detour's first leg to its second.
 *
 * Destinations the source cannot reach minimally under Theorem 4 (in a
 * faulty block, or not extended safe from the source, or a source in a
 * block) get no multicast worm.  With tables that allow it (@detour) and
 * at least 8 VCs, each that has a waypoint (wc_ftm_waypoint()) gets a
 * unicast detour worm, not minimal; the others make the message faulted
 * at its source and the engine counts them in fault_drops
 * (Documentation/faults.rst).
 */
#ifndef WC_FT_MCAST_H
#define WC_FT_MCAST_H

#include <linux/wormcast.h>

#include "compat.h"
#include "engine.h"
#include "ftmesh.h"

/*
 * Strategies 1 and 2 are per-hop decisions.  Strategy 3 is planned per
 * (source, group) by the daemon (a plan of the PLANS table, plans.h): a
 * planned worm's words carry the split at every separating point
 * (WC_FTM_PLANNED below); a worm without a plan is split by Strategy 2.
 */
#define WC_FTM_STRATEGY_MIN	1
#define WC_FTM_STRATEGY_MAX	3

/* Subnetwork q's VCs: those v with v % 8 == q (ft_mcast.c). */
#define WC_FTM_MIN_VCS		WC_FT_NSUBNETS

struct wc_ftm_tables {
	u32 w, h;			/* mesh sides (node id = x + w * y) */
	u32 strategy;			/* 1 or 2 */
	u64 seed;			/* Strategy 1's random bits */
	bool detour;			/* left-out destinations: a detour worm */
	const u8 *in_block;		/* per node: inside a faulty block */
	const u16 *safety;		/* per node: E, S, W, N (4 words) */
	/* node n of subnetwork q: recs[off[q * w * h + n] .. off[... + 1]) */
	const u32 *off;
	const struct wc_ft_rec *recs;
};

/*
 * Header words.  A destination id (bits 0-15), as it stands in a multicast
 * worm; in a detour worm the waypoint carries WC_FTM_WAYPOINT and the
 * destination WC_FTM_PHASE2 and its subnetwork from the waypoint.  At the
 * source a segment's count word carries WC_FTM_DETOUR for a detour worm.
 *
 * A planned worm (Strategy 3) has WC_FTM_PLANNED in every word and, in
 * bits 16-29, the destination's choices: at each router where the header
 * is in conflict and the destination undetermined (either way is
 * minimal), bit 16 says where it goes (0: +X, 1: +Y of the canonical
 * frame), and the router shifts the choices down by one (ftm_routed()).
 * Whatever the bits, a choice is between two minimal directions.
 */
#define WC_FTM_NODE_MASK	WORMCAST_PLAN_FTM_NODE		/* bits 0-15 */
#define WC_FTM_CHOICE_SHIFT	16
#define WC_FTM_MAX_CHOICES	14
#define WC_FTM_CHOICE_MASK	WORMCAST_PLAN_FTM_CHOICES	/* bits 16-29 */
#define WC_FTM_PLANNED		BIT(30)
#define WC_FTM_Q_SHIFT		24		/* 2 bits: phase-2 subnetwork */
#define WC_FTM_PHASE2		BIT(26)
#define WC_FTM_WAYPOINT		BIT(27)
#define WC_FTM_DETOUR		BIT(31)
/* Detour worms use VC class 4 + q (phase 2): 8 VCs. */
#define WC_FTM_DETOUR_VCS	(2 * WC_FT_NSUBNETS)

/* Words of m->hdr for @ndsts destinations (room for a detour each). */
u32 wc_ftm_hdr_words(u32 ndsts);

/*
 * The fallback for a destination the source leaves out (tables with
 * @detour): the waypoint m outside every block that the source is
 * extended safe to and that is extended safe to @dst, with the shortest
 * src-m-dst (ties: lowest id), or U32_MAX.  A detour worm goes to m in
 * subnetwork subnet(src, m) on VC class q, then on to @dst in subnetwork
 * subnet(m, dst) on VC class 4 + q': dependencies only go from the first
 * four classes to the last four, so no cycle.  O(nodes) at the source.
 */
u32 wc_ftm_waypoint(const struct wc_ftm_tables *t, u32 src, u32 dst);

/*
 * Can @src reach @dst through this algorithm (Theorem 4's condition, as
 * the source decides it)?
 */
bool wc_ftm_reachable(const struct wc_ftm_tables *t, u32 src, u32 dst);

/* How many of the nodes of @dstmap (@nn bits) @src reaches minimally. */
u32 wc_ftm_reachable_count(const struct wc_ftm_tables *t, u32 src,
			   const u32 *dstmap, u32 nn);

extern const struct wc_algo wc_algo_ftmesh;

#endif /* WC_FT_MCAST_H */
