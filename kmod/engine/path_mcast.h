/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Label-based multicast in the engine: the path-based schemes of Bouchitte,
 * Cohen and Fleury (hamiltonian, dual-path, multipath) and the star paper's
 * tree-based scheme (Wang and Chu), on a Hamiltonian labeling given as the
 * uapi table struct wormcast_labels.
 *
 * A label set is built from that table (wc_label_set_build(), which
 * validates it completely) and handed to the engine as the tables of
 * wc_algo_label.  The kernel builds it when the daemon commits a table;
 * wormsim and the tests build it from the very same bytes.  The faulty
 * links a table lists are absent from the routers (WC_LABEL_NONE in
 * s->nbr at both ends), and its Hamiltonian path avoids them, so R and
 * every rule below route around them (Documentation/faults.rst).
 *
 * Header.  One u32 word and one header flit per destination, the
 * destination's label, in travel order; a router that is the first
 * destination strips its word (and flit).  In m->hdr the source lays out
 * every worm of the message: word 0 is the number of words used, then one
 * segment per worm, its length then its labels.  Worm i's injection
 * channel carries the words up to the end of segment i (that is how the
 * source router tells the worms apart) but only segment i's flits.
 *
 * Schemes (the source splits, the routers follow):
 *  - dual-path: the destinations above the source's label in one worm,
 *    ascending, those below in another, descending; each hop is R
 *    (wc_lr_next_port()) toward the first destination.
 *  - hamiltonian: the same two worms, but every hop goes to the label
 *    next along the Hamiltonian path (the star paper's baseline): the
 *    words carry WC_PL_HP.
 *  - multipath: one worm per source port: a destination joins the worm of
 *    the port R takes toward it from the source (daemon/lib/pathplan.h).
 *  - ocms, otms: the worms of the plan the daemon computed for the
 *    message's (source, group), laid out by the source (plans.h,
 *    m->hdr_preset); dual-path without one.  Routers as dual-path.
 *  - star-tree: the two worms of dual-path, but each router applies Rules
 *    1-3 (wc_lr_tree_step()): when its extreme neighbour is a
 *    destination, the worm splits and that suffix of the list goes there.
 * A router that is a destination with more to do reserves a consumption
 * channel together with its network outputs (intermediate reception).
 * Unicast (one destination) is a one-word worm routed by R, whatever the
 * scheme, so all traffic is label-monotone.
 *
 * Deadlock freedom.  A worm going up uses only channels to higher labels,
 * one going down only channels to lower ones: two acyclic networks with no
 * physical channel in common, so any virtual channel will do.  A
 * consumption channel held for intermediate reception is the only other
 * resource a blocked worm can hold: up worms take consumption channel 0,
 * down worms channel 1 (a final reception, which never waits, takes any).
 * Hence two consumption channels.  star-tree also needs asynchronous
 * replication with buffers that hold a worm (Documentation/paths.rst).
 */
#ifndef WC_PATH_MCAST_H
#define WC_PATH_MCAST_H

#include "compat.h"
#include "topology.h"
#include "engine.h"
#include "label_route.h"

#define WC_PL_HP		BIT(31)	/* hamiltonian: follow the path itself */
#define WC_PL_LABEL_MASK	(WC_PL_HP - 1)
#define WC_PL_MAX_NODES		BIT(24)
#define WC_PL_CONS_UP		0	/* consumption channel of up worms */
#define WC_PL_CONS_DOWN		1

struct wc_label_set {
	u32 scheme;		/* enum wormcast_mcast_scheme */
	u32 nnodes;
	u32 nports;
	u32 *label;		/* node -> label */
	u32 *node_of_label;	/* label -> node */
	u32 *nbr;		/* [node * nports + port]: neighbour's label */
	/* Source work area: a label set serves one engine at a time. */
	u32 *seq;		/* destination labels in travel order */
	u32 *port;		/* multipath: source port of seq[i] */
	u32 *map;		/* bitmap of destination labels */
	size_t mem;		/* bytes allocated */
};

/*
 * Validate @len bytes of struct wormcast_labels against topology @t and
 * build @s from them.  Returns 0, or -EINVAL with *@why set to a static
 * reason (and nothing allocated), or -ENOMEM.
 */
int wc_label_set_build(struct wc_label_set *s, const struct wc_topo *t,
		       const void *table, size_t len, const char **why);
void wc_label_set_free(struct wc_label_set *s);

/* Can @scheme run on @t with @p (may be NULL)?  0, or -EINVAL with *@why. */
int wc_label_scheme_check(u32 scheme, const struct wc_topo *t,
			  const struct wc_engine_params *p, const char **why);

/* True for hamiltonian, dual-path, multipath, star-tree, ocms and otms. */
bool wc_label_scheme(u32 scheme);

/* Words of m->hdr a message to @ndsts destinations needs. */
static inline u32 wc_label_hdr_words(u32 ndsts)
{
	return 1 + 2 * ndsts;
}

/*
 * The algorithm.  Its tables are a struct wc_label_set (dispatching on
 * its scheme); a message's header lives in the caller's m->hdr (at least
 * wc_label_hdr_words(ndsts) words).
 */
extern const struct wc_algo wc_algo_label;

#endif /* WC_PATH_MCAST_H */
