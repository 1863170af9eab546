/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Path-based multicast planners over a Hamiltonian labeling.
 *
 * A multicast star (Bouchitte, Cohen and Fleury, Definition 1) is a set of
 * path-based worms leaving the source through distinct output ports; each
 * worm visits its destinations in monotone label order (all above the
 * source, ascending, or all below, descending) and is routed between them
 * by R (label_route.h), so every worm only uses channels of one of the two
 * acyclic channel subnetworks and the whole is deadlock-free.  The worm on
 * port p must have R(source, first destination) leave through p.
 *
 * Planners (all work on any Hamiltonian labeling: mesh, torus, hypercube,
 * star graph):
 *  - dual-path (Lin, McKinley and Ni): one worm for the destinations above
 *    the source, one for those below.
 *  - multipath: one worm per source port; each destination goes to the
 *    worm of the port R takes toward it (see Documentation/paths.rst).
 *  - OCMS: optimal-channel multicast star, fewest channels in total, by a
 *    min-weight perfect matching (Hungarian algorithm, O((k + P)^3) for k
 *    destinations and P source ports).
 *  - OTMS: optimal-time multicast star, least maximum worm length, by
 *    dynamic programming over the destinations in label order with
 *    Pareto-pruned states (see pathplan.c for the bound).
 * The two sides (above and below the source) use disjoint ports and
 * channels, so each planner solves them independently.
 */
#ifndef WC_PATHPLAN_H
#define WC_PATHPLAN_H

#include "labeling.h"

struct wc_mstar_worm {
	u32 port;	/* output port of the source */
	u32 ndests;
	u32 *dests;	/* node ids in visiting order (points into the star) */
	u32 length;	/* channels the worm uses, following R */
};

struct wc_mstar {
	u32 src;
	u32 nworms;
	struct wc_mstar_worm worms[WC_MAX_PORTS];
	u32 channels;	/* sum of the worms' lengths (OCMS objective) */
	u32 max_length;	/* longest worm (OTMS objective) */
	u32 *dest_buf;	/* storage for all worms' dests */
};

enum wc_pathplan_algo {
	WC_PP_DUAL_PATH,
	WC_PP_MULTIPATH,
	WC_PP_OCMS,
	WC_PP_OTMS,
};

/*
 * Plan a multicast from @src to the @k nodes @dests (distinct, none equal
 * to @src).  On success fill @ms (free it with wc_mstar_free()) and return
 * 0; return -EINVAL on bad input, -ENOMEM, or -E2BIG if OTMS would need
 * more than its state budget: refused before any work when
 * wc_otms_size() says so, else (rarely) when a run outgrows the run-time
 * budgets of pathplan.c.
 */
int wc_pathplan(const struct wc_labeling *lb, enum wc_pathplan_algo algo,
		u32 src, const u32 *dests, u32 k, struct wc_mstar *ms);

void wc_mstar_free(struct wc_mstar *ms);

/*
 * The OTMS budget.  OTMS is exponential in the number P of source ports
 * a side uses: its dynamic programme keeps, after the j-th destination of
 * a side, one entry per (free ports, ends of the worms started) key and
 * Pareto-minimal length vector.  Over a side of m destinations there are
 * at most sum_{s=1..P} C(m, s) C(P, s) keys (s worms started: C(P, s)
 * port sets, C(j - 1, s - 1) sets of ends after destination j, summed over
 * j).  A side whose bound exceeds WC_OTMS_BUDGET is refused at once.  For
 * P = 2 (a 2-D mesh) that is about 1450 destinations, P = 3: 180, P = 4
 * (2-D torus, S_5): 67, P = 6: 33, P = 8: 23.
 */
#define WC_OTMS_BUDGET	(1u << 20)

struct wc_otms_side {
	u32 m;		/* destinations on this side of the source */
	u32 ports;	/* source ports R takes toward them (P) */
	double states;	/* wc_otms_states(m, ports) */
};

/* The bound above for @m destinations over @ports ports. */
double wc_otms_states(u32 m, u32 ports);
/* The most destinations a side over @ports ports may have. */
u32 wc_otms_fit(u32 ports);
/*
 * The sides of an OTMS request, [0] above the source (higher labels), [1]
 * below: 0 if both fit the budget, -E2BIG if not, -EINVAL on bad input.
 */
int wc_otms_size(const struct wc_labeling *lb, u32 src, const u32 *dests,
		 u32 k, struct wc_otms_side side[2]);

/* "dual-path", "multipath", "ocms", "otms"; NULL if unknown. */
const char *wc_pathplan_name(enum wc_pathplan_algo algo);
/* Inverse of the above; returns -EINVAL if unknown. */
int wc_pathplan_parse(const char *name, enum wc_pathplan_algo *algo);

/*
 * Check that @ms is a multicast star for (@src, @dests) under Definition 1
 * and that its lengths and totals are right.  Returns true, or false with
 * *why set.
 */
bool wc_mstar_check(const struct wc_labeling *lb, u32 src, const u32 *dests,
		    u32 k, const struct wc_mstar *ms, const char **why);

/*
 * Nodes a worm goes through, source first (room for worm->length + 1
 * entries).  Returns the number of nodes.
 */
u32 wc_mstar_worm_route(const struct wc_labeling *lb, u32 src,
			const struct wc_mstar_worm *worm, u32 *path);

#endif /* WC_PATHPLAN_H */
