/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Label-monotone routing over a Hamiltonian labeling: the per-hop decisions
 * a router takes from what it stores (its own label and its neighbours'
 * labels per port) and from the worm's header (destination labels).
 *
 *  - wc_lr_next_port(): the routing function R of Bouchitte, Cohen and
 *    Fleury (section 2.2), identical to RF of Wang and Chu (Definition 1)
 *    on a Hamiltonian labeling: going up, the neighbour with the greatest
 *    label not beyond the destination; going down, the least one not below.
 *  - wc_lr_tree_step(): one router's decision in the star paper's
 *    tree-based multicast (Algorithm 1, Procedures 1 and 2, Rules 1-3).
 *
 * Ties (two ports reaching neighbours with the same label, e.g. the two
 * ports of a 2-wide torus dimension) go to the lowest port number, so that
 * every user of these functions sees the same route.
 */
#ifndef WC_LABEL_ROUTE_H
#define WC_LABEL_ROUTE_H

#include "compat.h"

#define WC_LABEL_NONE	U32_MAX		/* no neighbour behind this port */
#define WC_LR_NO_PORT	U32_MAX		/* no port selected */
#define WC_LR_ARRIVED	(U32_MAX - 1)	/* own label is the destination */

/*
 * Port to take from a router labelled @own toward the node labelled @dest,
 * given @nbr[p], the label of the neighbour behind port p (or WC_LABEL_NONE)
 * for p < @nports.  Returns the port, WC_LR_ARRIVED if @own == @dest, or
 * WC_LR_NO_PORT if no neighbour lies strictly between @own and @dest
 * inclusive (impossible on a Hamiltonian labeling).
 */
u32 wc_lr_next_port(u32 own, const u32 *nbr, u32 nports, u32 dest);

/*
 * Port to the extreme neighbour in one direction: the neighbour with the
 * greatest label above @own (@up) or the least label below @own (!@up).
 * WC_LR_NO_PORT if there is none.
 */
u32 wc_lr_extreme_port(u32 own, const u32 *nbr, u32 nports, bool up);

/*
 * One router's decision in a tree-based worm (star paper, Rules 1 and 2).
 * The worm carries @ndests destination labels @dests in travel order:
 * ascending and all above @own if @up, descending and all below @own if not.
 * Let w be the extreme neighbour in the travel direction.  If w is one of
 * the destinations, the worm splits: the last @nsplit destinations (those at
 * or beyond w, w first) leave through @split_port; the remaining ones, if
 * any, leave through @fwd_port = R(own, dests[0]).  Otherwise @nsplit is 0
 * and all of them leave through @fwd_port.  The two ports always differ.
 */
struct wc_lr_tree_step {
	u32 split_port;		/* port to w, or WC_LR_NO_PORT */
	u32 nsplit;		/* destinations sent through split_port */
	u32 fwd_port;		/* port for dests[0 .. ndests-nsplit), or NO_PORT */
};

/* Returns 0, or -EINVAL if @dests is not in travel order beyond @own. */
int wc_lr_tree_step(u32 own, const u32 *nbr, u32 nports, const u32 *dests,
		    u32 ndests, bool up, struct wc_lr_tree_step *st);

#endif /* WC_LABEL_ROUTE_H */
