/* SPDX-License-Identifier: GPL-2.0 */
/*
 * DSTM with one faulty link (Wang and Blough, section 7).  A single link
 * fault disconnects at most one of the two edge-disjoint trees; the other
 * ("good") tree still spans.
 *
 * Global information: every node knows the fault.  Unicast takes the tree
 * with the shorter path, the faulty tree's distance counting as infinite
 * when its path crosses the fault; multicast uses the good tree.
 *
 * Local information: only the fault's neighbours know.  The source picks
 * the tree as if there were no fault (the shorter path; T1 on a tie); if
 * that path crosses the fault, the router just before it consumes the
 * message and re-injects it on the good tree as a new source.
 */
#ifndef WC_DSTM_FAULT_H
#define WC_DSTM_FAULT_H

#include "sptree.h"

/* Which tree holds @link: 0, 1, or -1 (neither: the fault changes nothing). */
int wc_dstm_fault_tree(const struct wc_sptree trees[2], u32 link);

/* The tree a multicast must use: the one without the fault (0 or 1), or
 * -1 if neither tree holds it (either may be used). */
int wc_dstm_fault_multicast_tree(const struct wc_sptree trees[2], u32 link);

struct wc_fault_route {
	u8 tree;		/* tree the source injects into */
	u32 reinject;		/* local info: node that re-injects, or WC_NO_NODE */
	u32 hops;		/* total path length */
};

int wc_dstm_fault_unicast_global(const struct wc_sptree trees[2], u32 link,
				 u32 src, u32 dst, struct wc_fault_route *r);
int wc_dstm_fault_unicast_local(const struct wc_sptree trees[2], u32 link,
				u32 src, u32 dst, struct wc_fault_route *r);

/*
 * Combined diameter and average distance with @link faulty, by exhaustive
 * count.  Global: over unordered pairs.  Local: over ordered pairs (the
 * re-injection point depends on the direction).  -ENOMEM on failure.
 */
int wc_dstm_fault_metrics_global(const struct wc_sptree trees[2], u32 link,
				 struct wc_pair_metrics *m);
int wc_dstm_fault_metrics_local(const struct wc_sptree trees[2], u32 link,
				struct wc_pair_metrics *m);

#endif /* WC_DSTM_FAULT_H */
