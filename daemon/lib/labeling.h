/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Hamiltonian labelings: every node gets a distinct label 0..N-1 and nodes
 * with consecutive labels are neighbours, so the labels trace a Hamiltonian
 * path.  The label-monotone routing of label_route.h is built on them.
 *
 *  - mesh and torus, 1-D: label = x.
 *  - mesh and torus, 2-D: the snake of Bouchitte, Cohen and Fleury, section
 *    2.2, with x = coordinate 0 (column, n = dims[0] columns) and
 *    y = coordinate 1 (row): L = y*n + x on even rows, y*n + n-1-x on odd
 *    rows.  A mesh path is also a Hamiltonian path of the torus.
 *  - mesh and torus, 3-D: boustrophedon over layers z: even layers carry the
 *    2-D snake, odd layers the reversed snake, so that each layer starts
 *    above the node where the previous one ended.
 *  - hypercube: the binary reflected Gray code, node = L ^ (L >> 1).
 *  - star graph S_n: a recursive Hamiltonian path through the substars
 *    S_{n-1} (last symbol fixed); see labeling.c.  For S_4 it gives the
 *    labels printed by Wang and Chu (Figure 3 and the Appendix).
 *
 * Faulty links (wc_labeling_init_faults(), Documentation/faults.rst,
 * "Label schemes around faulty links"): routing R delivers and stays
 * deadlock-free on any Hamiltonian path, so a labeling whose path avoids
 * the faulty links, with routers that treat them as absent, routes around
 * them.  The candidates are the canonical path moved by symmetries of the
 * topology: on a 2-D mesh or torus the 8 snakes (row- or column-major
 * boustrophedon from each corner), on S_n the n! permutations of the
 * symbols; other topologies have the canonical path only.
 */
#ifndef WC_LABELING_H
#define WC_LABELING_H

#include "topology.h"
#include "label_route.h"

struct wc_labeling {
	struct wc_topo topo;	/* a copy of the topology labelled */
	u32 *label;		/* node -> label */
	u32 *node;		/* label -> node */
	u8 *dead;		/* NULL, or [node * nports + port]: 1 behind
				 * a faulty link the routers treat as absent */
};

/*
 * Build the canonical Hamiltonian labeling of @t (see above).  Returns 0,
 * -EINVAL on a bad topology, -ENOMEM.  Free with wc_labeling_free().
 */
int wc_labeling_init(struct wc_labeling *lb, const struct wc_topo *t);
void wc_labeling_free(struct wc_labeling *lb);

/*
 * Build a Hamiltonian labeling of @t whose path avoids the @nlinks faulty
 * links @links (link ids, wc_link_id(), no link twice) and the links of
 * the @nnodes failed nodes @nodes (node ids, no node twice): the first
 * candidate (the canonical labeling first, see above) that uses none of
 * them, else the first that uses the fewest.  A failed node at an end of
 * the path costs nothing (routing R never transits an end), so with one
 * or two failed nodes a further candidate is a path that starts at the
 * first (and ends at the second): on S_n the canonical path moved by a
 * symbol permutation to start or end at it, elsewhere a bounded
 * depth-first search (Warnsdorff's rule; not on hypercubes
 * above Q8).  The dead links the path does not use are absent from the
 * routers (lb->dead, wc_labeling_router()); *@crossed gets how many hops
 * of the path use one (0: all avoided; those links stay present, and a
 * worm that meets one while it is down is absorbed and counted).
 * Returns 0, -EINVAL (a bad topology, or a link or node id not of @t),
 * -ENOMEM.
 */
int wc_labeling_init_faults(struct wc_labeling *lb, const struct wc_topo *t,
			    const u32 *links, u32 nlinks, const u32 *nodes,
			    u32 nnodes, u32 *crossed);

/* Is port @port of @node a faulty link absent from @lb's routers? */
static inline bool wc_labeling_dead(const struct wc_labeling *lb, u32 node,
				    u32 port)
{
	return lb->dead && lb->dead[(size_t)node * lb->topo.nports + port];
}

/*
 * Build a labeling from an explicit label -> node order (@order has
 * t->nnodes entries).  Returns -EINVAL with *why set if @order is not a
 * Hamiltonian path of @t.
 */
int wc_labeling_from_order(struct wc_labeling *lb, const struct wc_topo *t,
			   const u32 *order, const char **why);

/* True if @order (label -> node) is a Hamiltonian path of @t. */
bool wc_labeling_order_is_hamiltonian(const struct wc_topo *t,
				      const u32 *order, const char **why);

/*
 * What router @node stores: its own label (returned) and the label of the
 * neighbour behind each port in @nbr[0 .. nports) (WC_LABEL_NONE where a
 * port leads nowhere or to a faulty link, as the kernel's label set has
 * it).
 */
u32 wc_labeling_router(const struct wc_labeling *lb, u32 node, u32 *nbr);

/*
 * The same for every router: @table[node * nports + port].  @table holds
 * nnodes * nports entries.
 */
void wc_labeling_nbr_table(const struct wc_labeling *lb, u32 *table);

/*
 * Follow R from @from to @to; store the nodes (both ends included) in
 * @path if not NULL (room for nnodes entries).  Returns the number of hops,
 * or U32_MAX if R gets stuck (not possible on a Hamiltonian labeling).
 */
u32 wc_labeling_route(const struct wc_labeling *lb, u32 from, u32 to,
		      u32 *path);

/* Next node on R from @from toward @to (@from itself if equal). */
u32 wc_labeling_next(const struct wc_labeling *lb, u32 from, u32 to);

/* Star graph: the Hamiltonian path of S_n as ranks, label order. */
int wc_star_hamiltonian_order(u32 n, u32 *order);

#endif /* WC_LABELING_H */
