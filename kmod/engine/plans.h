/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Multicast plans of the ocms, otms and ftmesh (Strategy 3) schemes.
 *
 * ocms and otms: the multicast stars the
 * daemon planned (daemon/lib/pathplan.h, Bouchitte, Cohen and Fleury's
 * OCMS and OTMS), one per (source node, group), given as the uapi table
 * struct wormcast_plans and checked here against a label set.
 *
 * A plan set is built from that table (wc_plan_set_build(), which
 * validates it completely against the label set of the committed labels
 * table).  The source looks up the plan of a frame's (source, group)
 * (wc_plan_find()), checks that its destinations are exactly the frame's
 * (wc_plan_matches()), and copies its header layout into the message
 * (wc_plan_layout(): the layout of path_mcast.h, one segment per worm, in
 * labels); the label algorithm then sends that layout as it is.  A frame
 * without a matching plan goes by dual-path.
 *
 * ftmesh with a table of strategy 3: the plans the daemon made with
 * Strategy 3 (daemon/lib/ftmcast.h), checked against the ftmesh tables
 * (wc_plan_set_build_ftm()): a plan's worms are the ftmesh worms of its
 * destinations the source reaches minimally, one per subnetwork, each
 * word a node id and the destination's choices at separating points
 * (ft_mcast.h).  Its layout is the one ft_mcast.c's source would lay
 * out, the words WC_FTM_PLANNED; a frame matches when the plan's
 * destinations are exactly the frame's that the source reaches
 * (wc_ftm_reachable()); the others go by the scheme's fallback (detour
 * or fault_drops) as without a plan.  A frame without a matching plan
 * is split by Strategy 2 at the routers.
 */
#ifndef WC_PLANS_H
#define WC_PLANS_H

#include "compat.h"
#include "ft_mcast.h"
#include "path_mcast.h"

struct wc_plan {
	u32 src;
	u8 addr[6];		/* the group's MAC */
	u32 ndsts;
	u32 nworms;
	u32 dsts;		/* index of its destinations in set->dsts */
	u32 layout;		/* index of its layout in set->words */
	u32 nlayout;		/* words of its layout, word 0 included */
};

struct wc_plan_set {
	u32 nnodes;
	u32 nplans;
	u32 scheme;		/* 0: ocms/otms; WORMCAST_MCAST_FTMESH */
	u32 base_gen;		/* kernel: generation of the table it was
				 * checked against (labels, or ftmesh)
				 */
	struct wc_plan *plans;	/* in increasing (src, addr) order */
	u32 *dsts;		/* every plan's destinations (node ids) */
	u32 *words;		/* every plan's header layout (labels) */
	size_t mem;		/* bytes allocated */
};

/*
 * Validate @len bytes of struct wormcast_plans against topology @t and
 * label set @ls (of scheme ocms or otms), and build @ps from them.
 * Returns 0, or -EINVAL with *@why set to a static reason (nothing
 * allocated), or -ENOMEM.
 */
int wc_plan_set_build(struct wc_plan_set *ps, const struct wc_topo *t,
		      const struct wc_label_set *ls, const void *table,
		      size_t len, const char **why);
/*
 * The same for plans of scheme ftmesh (the header's @scheme), against
 * the tables @ft of a committed ftmesh table of strategy 3.
 */
int wc_plan_set_build_ftm(struct wc_plan_set *ps, const struct wc_topo *t,
			  const struct wc_ftm_tables *ft, const void *table,
			  size_t len, const char **why);
void wc_plan_set_free(struct wc_plan_set *ps);

/* The plan of (@src, @addr), or NULL. */
const struct wc_plan *wc_plan_find(const struct wc_plan_set *ps, u32 src,
				   const u8 *addr);

/*
 * True if @p's destinations are exactly the @ndsts nodes of @dstmap (for
 * ftmesh plans: the frame's destinations the source reaches, counted by
 * wc_ftm_reachable_count()).
 */
bool wc_plan_matches(const struct wc_plan_set *ps, const struct wc_plan *p,
		     const u32 *dstmap, u32 ndsts);

/*
 * Copy @p's header layout into @words (@max words).  Returns the words
 * used, or 0 if @max is too small.
 */
u32 wc_plan_layout(const struct wc_plan_set *ps, const struct wc_plan *p,
		   u32 *words, u32 max);

/*
 * A source's use of @p, the plan of @m's (source, group) or NULL
 * (kmod/fabric.c, wormsim): if @p's destinations are exactly @m's (a plan
 * of scheme ftmesh: those m->src reaches under the ftmesh tables @ft,
 * wc_ftm_reachable_count(); without @ft it never matches) and its layout
 * fits m->hdr_max, copy the layout into m->hdr and set m->hdr_preset.
 * False otherwise: the frame goes by the scheme's fallback.
 */
bool wc_plan_use(const struct wc_plan_set *ps, const struct wc_plan *p,
		 const struct wc_ftm_tables *ft, struct wc_msg *m);

/* True for ocms and otms, the schemes that send plans. */
bool wc_plan_scheme(u32 scheme);

#endif /* WC_PLANS_H */
