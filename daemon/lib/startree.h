/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Multicast planners of Wang and Chu (star graph, tree-based, with a
 * Hamiltonian path) and their baselines, returning the worms' routes.
 *
 *  - tree: Algorithm 1 with Procedures 1 and 2.  Destinations above the
 *    source go in one worm on the high-channel network, those below in one
 *    worm on the low-channel network.  Each router sends the worm toward
 *    the first destination with RF, except that when its extreme neighbour
 *    (greatest label going up, least going down) is a destination, the
 *    worm splits: the destinations at or beyond it go there, the others
 *    keep going by RF (label_route.h, wc_lr_tree_step()).
 *  - hamiltonian: the two worms follow the Hamiltonian path itself.
 *  - dual-path: the two worms go from destination to destination by RF.
 *  - unicast: separate unicasts on shortest paths, by recursive halving of
 *    the label-sorted chain of source and destinations (in the manner of
 *    McKinley et al.'s U-mesh): ceil(log2(k + 1)) startup phases.
 *
 * They only need a Hamiltonian labeling, so they run on every topology.
 */
#ifndef WC_STARTREE_H
#define WC_STARTREE_H

#include "labeling.h"

/*
 * A route plan is a set of branches.  A branch is a path of nodes; it
 * starts at the source or at a node some earlier branch of the same worm
 * goes through (a split node, or for unicasts the sending destination).
 */
struct wc_route_branch {
	u32 worm;		/* index of the worm (one per startup) */
	u32 phase;		/* startup phase, 1-based */
	u32 start_dist;		/* channels from the source to nodes[0] */
	u32 nnodes;
	u32 *nodes;
};

struct wc_route_plan {
	u32 nbranches;
	struct wc_route_branch *br;
	u32 nworms;		/* startups */
	u32 phases;		/* sequential startup phases */
	u32 channels;		/* channels used, sum over branches */
	u32 max_dist;		/* channels from the source to the farthest
				 * destination along the plan */
	bool unicast;		/* worms deliver only at their last node */
	u32 cap;		/* allocated branches (internal) */
};

enum wc_startree_algo {
	WC_ST_TREE,
	WC_ST_HAMILTONIAN,
	WC_ST_DUAL_PATH,
	WC_ST_UNICAST,
};

/*
 * Plan a multicast from @src to the @k distinct nodes @dests (not @src).
 * Returns 0, -EINVAL on bad input, -ENOMEM.  Free with
 * wc_route_plan_free().
 */
int wc_startree_plan(const struct wc_labeling *lb, enum wc_startree_algo algo,
		     u32 src, const u32 *dests, u32 k,
		     struct wc_route_plan *plan);

void wc_route_plan_free(struct wc_route_plan *plan);

/* "tree", "hamiltonian", "dual-path", "unicast"; NULL if unknown. */
const char *wc_startree_name(enum wc_startree_algo algo);
int wc_startree_parse(const char *name, enum wc_startree_algo *algo);

/*
 * Check a plan: every branch is a walk over real links starting at the
 * source, on an earlier branch of the same worm, or (unicasts) at the end
 * of an earlier one, every destination is reached, and the totals are
 * right.  Also reports whether all worms only
 * move monotonically in label order (true for tree, hamiltonian and
 * dual-path).  Returns true, or false with *why set.
 */
bool wc_route_plan_check(const struct wc_labeling *lb, u32 src,
			 const u32 *dests, u32 k,
			 const struct wc_route_plan *plan, bool *monotone,
			 const char **why);

#endif /* WC_STARTREE_H */
