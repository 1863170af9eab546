/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Fault-tolerant minimal multicast on a 2-D mesh with faulty blocks (Wu and
 * Chen, sections 4 and 5):
 *  - the greedy MT virtual tree (preparation: sort by distance; construction:
 *    attach each destination at the closest eligible w, Theorem 3);
 *  - the set-up of the multicast tree header by header, splitting at
 *    separating points with Strategy 1, 2 or 3, in the four virtual
 *    subnetworks (+X+Y, +X-Y, -X+Y, -X-Y) so that the source may be
 *    anywhere;
 *  - the multiple-unicast baseline.
 *
 * The planner only routes destinations to which the source is extended safe
 * (Theorem 4 then guarantees a minimal path to each); every other
 * destination gets a status saying why it was left out, decided exactly
 * (wc_fi_minimal_path_exists()), never guessed.
 */
#ifndef WC_FTMCAST_H
#define WC_FTMCAST_H

#include "faultinfo.h"
#include "ft_mcast.h"

struct wc_ft_pt {
	u16 x, y;
};

/*
 * A virtual tree (Definition 5): vertex i hangs from parent[i] by a virtual
 * edge, i.e. any minimal path between the two; vertex 0 is the root.
 */
struct wc_mt {
	u32 n, cap;
	struct wc_ft_pt *v;
	u32 *parent;		/* WC_FI_NONE at the root */
	u8 *is_dst;
};

/* A tree holding only @root, with room for @cap vertices. */
int wc_mt_init(struct wc_mt *t, u32 cap, struct wc_ft_pt root);
void wc_mt_free(struct wc_mt *t);

/*
 * Step 2(a): the best w for @d over every virtual edge (the root alone
 * counts as an edge while the tree has no other vertex), eligible with
 * respect to the @known blocks.  *edge is the child end of the edge.
 * Returns false if no edge has an eligible w <= d.
 */
bool wc_mt_find_w(const struct wc_mt *t, struct wc_ft_pt d,
		  const struct wc_ft_rect *known, u32 nknown, u32 *edge,
		  struct wc_ft_pt *w, u32 *dist);

/* Steps 2(b)-(d): insert w on @edge (if new) and hang @d from it. */
int wc_mt_attach(struct wc_mt *t, u32 edge, struct wc_ft_pt w,
		 struct wc_ft_pt d);

/* find + attach; -ENOENT if no eligible w exists. */
int wc_mt_insert(struct wc_mt *t, struct wc_ft_pt d,
		 const struct wc_ft_rect *known, u32 nknown);

/*
 * The whole greedy algorithm without faults: sort @dst by distance from
 * @src (ties keep input order) and insert them one by one.  Every
 * destination must satisfy dst >= src.  @t is initialised here.
 */
int wc_mt_greedy(struct wc_mt *t, struct wc_ft_pt src,
		 const struct wc_ft_pt *dst, u32 ndst);

/* Sum of the virtual edges' lengths (the tree's traffic steps). */
u32 wc_mt_traffic(const struct wc_mt *t);

/* Index of the vertex at @p, or WC_FI_NONE. */
u32 wc_mt_find(const struct wc_mt *t, struct wc_ft_pt p);

enum wc_ft_strategy {
	WC_FT_STRATEGY1 = 1,	/* random group for undetermined */
	WC_FT_STRATEGY2 = 2,	/* larger offset */
	WC_FT_STRATEGY3 = 3,	/* greedy MT trees at the separating point */
};

enum wc_ft_dst_status {
	WC_FT_DST_OK = 0,		/* reached by a minimal path */
	WC_FT_DST_IN_BLOCK,		/* inside a faulty block */
	WC_FT_DST_NO_MINIMAL_PATH,	/* faulty blocks cut every minimal path */
	WC_FT_DST_NOT_EXT_SAFE,		/* a minimal path exists, but the source
					 * is not extended safe to it: left out */
	WC_FT_DST_STUCK,		/* routing found no way (a bug if ever) */
};

/*
 * One link reserved by one header.  The hops form a tree of channel
 * reservations rooted at the source: two branches split at a separating
 * point may later pass through the same router (each then holds its own
 * channels), so the tree is over hops, not over nodes.
 */
struct wc_ft_hop {
	u32 from, to;		/* node ids (x + w * y) */
	u32 parent;		/* hop that brought the header to @from, or
				 * WC_FI_NONE at the source */
	u8 subnet;		/* enum wc_ft_subnet */
};

struct wc_ft_plan_opts {
	u32 strategy;		/* enum wc_ft_strategy */
	u64 seed;		/* Strategy 1's random choices */
};

struct wc_ft_plan {
	u32 src, ndst;
	u32 *dst;		/* copy of the request */
	u8 *status;		/* enum wc_ft_dst_status, per destination */
	u32 *len;		/* hops from the source in the tree (if OK) */
	u32 *last;		/* hop reaching each destination (if OK) */
	/*
	 * Per destination, its choices at the separating points where it
	 * was undetermined, in path order: bit i set if the i-th went +Y
	 * (canonical frame), for all strategies; nchoices counts them.  A
	 * Strategy 3 plan's worms carry them (ft_mcast.h, WC_FTM_PLANNED).
	 */
	u32 *choices;
	u32 *nchoices;
	u32 nhops;		/* traffic steps of the multicast tree */
	struct wc_ft_hop *hops;	/* the tree's links, parent before child */
	u32 nsep;
	u32 *sep;		/* separating points met (node ids) */
	u32 nreached;		/* destinations with status OK */
	u32 unicast_steps;	/* multiple unicast to the same destinations */
};

/*
 * Plan a multicast from @src to @dst[0..ndst).  Returns 0 (look at
 * p->status for each destination), -EINVAL with *why for bad input (source
 * in a faulty block, node out of range, destination repeated or equal to
 * the source), -ENOMEM.
 */
int wc_ft_plan(const struct wc_faultinfo *fi, u32 src, const u32 *dst,
	       u32 ndst, const struct wc_ft_plan_opts *o, struct wc_ft_plan *p,
	       const char **why);
void wc_ft_plan_free(struct wc_ft_plan *p);

/*
 * The worms of @p as a Strategy 3 plan carries them (a plan of the PLANS
 * table, uapi struct wormcast_plan; kmod/engine/plans.h): one worm per
 * subnetwork with reached destinations, in subnetwork order, each its
 * destination count then, per destination in request order, its node id
 * with its choices (p->choices) in bits WC_FTM_CHOICE_SHIFT and up.
 * Writes at most 5 + p->ndst words at @words, sets *@nworms and returns
 * the words used: 0 when no destination is reached, -E2BIG when one made
 * more than WC_FTM_MAX_CHOICES choices (the plan cannot be carried) or
 * its node id does not fit WC_FTM_NODE_MASK.
 */
int wc_ft_plan_worms(const struct wc_faultinfo *fi, const struct wc_ft_plan *p,
		     u32 *words, u32 *nworms);

/*
 * The routers' tables of the engine algorithm wc_algo_ftmesh
 * (kmod/engine/ft_mcast.h) from @fi: per node its block membership, its
 * safety vector and, per subnetwork, the records wc_fi_view() gives it.
 * @strategy 1, 2 or 3 (the routers split a worm without a plan by
 * Strategy 2, a planned one by its choices).  The arrays are owned by @t until
 * wc_ftm_tables_free().
 */
int wc_ftm_tables_build(const struct wc_faultinfo *fi, u32 strategy, u64 seed,
			struct wc_ftm_tables *t);
void wc_ftm_tables_free(struct wc_ftm_tables *t);

const char *wc_ft_dst_status_name(u32 status);
const char *wc_ft_subnet_name(u32 subnet);

#endif /* WC_FTMCAST_H */
