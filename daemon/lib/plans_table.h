/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The WORMCAST_TABLE_PLANS table (struct wormcast_plans, uapi) of the
 * ocms and otms schemes: for every (source, group) the daemon plans, the
 * multicast star wc_pathplan() chose (daemon/lib/pathplan.h), encoded in
 * the order the kernel requires (increasing source, then group address);
 * and of ftmesh with Strategy 3: the worms of wc_ft_plan() (ftmcast.h)
 * with their choices at the separating points (wc_ft_plan_worms()).
 * What wormcastd pushes, and what the unit tests feed the engine's
 * validator (wc_plan_set_build(), kmod/engine/plans.h).  Pure.
 */
#ifndef WC_PLANS_TABLE_H
#define WC_PLANS_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/wormcast.h>

#include "ftmcast.h"
#include "pathplan.h"

/*
 * A group as GROUPS_GET reports it: address and receivers (node ids); and
 * the sources to plan for it when not every node is (ascending node ids).
 */
struct wc_group_in {
	u8 addr[6];
	u32 nmembers;
	const u32 *members;
	u32 nsources;
	const u32 *sources;
};

/* A table being encoded: wc_plans_enc_init(), _add() in order, _finish(). */
struct wc_plans_enc {
	u8 *buf;
	size_t len, cap;
	u32 nnodes;
	u32 nplans;
	u32 scheme;		/* the header's: 0, or WORMCAST_MCAST_FTMESH */
	bool has_last;		/* the last plan added, for the order check */
	u32 last_src;
	u8 last_addr[6];
};

int wc_plans_enc_init(struct wc_plans_enc *e, u32 nnodes);
/*
 * Append the plan of (@ms->src, @addr).  -EINVAL if it does not come
 * after the last one in (source, address) order, or @ms has no worm;
 * -ENOMEM.
 */
int wc_plans_enc_add(struct wc_plans_enc *e, const u8 *addr,
		     const struct wc_mstar *ms);
/* The same for a plan given as its @nwords words (ftmesh). */
int wc_plans_enc_add_words(struct wc_plans_enc *e, const u8 *addr, u32 src,
			   u32 nworms, const u32 *words, u32 nwords);
/* The table: *@bytes (malloc'ed, the caller frees it), *@len bytes. */
void wc_plans_enc_finish(struct wc_plans_enc *e, void **bytes, size_t *len);
void wc_plans_enc_free(struct wc_plans_enc *e);

/* What wc_plans_table_build() did. */
struct wc_plans_stats {
	u32 plans;		/* (source, group) pairs planned */
	u32 skipped;		/* pairs the planner refused (-E2BIG); ftmesh:
				 * a source in a block, no destination
				 * reached, or too many choices */
	u64 channels;		/* sum of the plans' channels */
};

/*
 * Plan @algo (WC_PP_OCMS or WC_PP_OTMS) on @lb for every group of
 * @groups (any order, distinct addresses) and every source: all nodes
 * when @all_sources, else the group's listed sources; the destinations of a
 * source are the group's receivers but itself (none: no plan).  A pair
 * the planner refuses with -E2BIG is left out (that frame goes by
 * dual-path, counted by the kernel).  Returns 0 with the table in
 * *@bytes / *@len, or -EINVAL, -ENOMEM.
 */
int wc_plans_table_build(const struct wc_labeling *lb,
			 enum wc_pathplan_algo algo,
			 const struct wc_group_in *groups, u32 ngroups,
			 bool all_sources, void **bytes, size_t *len,
			 struct wc_plans_stats *st);

/*
 * Strategy 3 plans (scheme ftmesh) on the fault information @fi for the
 * same pairs as wc_plans_table_build(); a pair whose source is in a
 * faulty block, that reaches no destination, or whose worms cannot carry
 * a choice (more than WC_FTM_MAX_CHOICES for one destination) is left
 * out (its frames are split by Strategy 2, counted by the kernel).
 * Returns 0 with the table in *@bytes / *@len, or -EINVAL, -ENOMEM.
 */
int wc_ftm_plans_table_build(const struct wc_faultinfo *fi,
			     const struct wc_group_in *groups, u32 ngroups,
			     bool all_sources, void **bytes, size_t *len,
			     struct wc_plans_stats *st);

#endif /* WC_PLANS_TABLE_H */
