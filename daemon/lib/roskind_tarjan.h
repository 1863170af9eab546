/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Edge-disjoint spanning trees in an arbitrary connected multigraph by
 * matroid partitioning (Roskind and Tarjan, "A note on finding minimum-cost
 * edge-disjoint spanning trees", 1985; reference [16] of the DSTM paper).
 *
 * Edges are taken in a given order (with unit costs any order is a
 * cost-increasing order).  Each edge goes into the first forest where it
 * joins two components; otherwise a breadth-first search for an augmenting
 * sequence of swaps through the forests' fundamental cycles makes room for
 * it, or proves there is none (then the edge stays out).  The result is a
 * maximum-size union of k forests, so k spanning trees come out whenever
 * the graph has k edge-disjoint spanning trees.
 */
#ifndef WC_ROSKIND_TARJAN_H
#define WC_ROSKIND_TARJAN_H

#include "sptree.h"

#define WC_RT_NONE	0xff
#define WC_RT_MAX_FORESTS 16

struct wc_graph_edge {
	u32 a, b;
};

/*
 * Partition edges order[0..norder-1] (indices into @edges) into @k forests.
 * forest[e] gets the forest index or WC_RT_NONE.  Returns the number of
 * edges placed, or -EINVAL / -ENOMEM.
 */
int wc_rt_partition(u32 nnodes, const struct wc_graph_edge *edges, u32 nedges,
		    const u32 *order, u32 norder, u32 k, u8 *forest);

/*
 * Largest k such that the graph has k edge-disjoint spanning trees, and
 * the partition (forest[]) that shows it.  Returns k (0 if the graph is
 * not connected), or -EINVAL / -ENOMEM.
 */
int wc_rt_max_trees(u32 nnodes, const struct wc_graph_edge *edges, u32 nedges,
		    const u32 *order, u8 *forest);

/*
 * The links of a topology as an edge list, in increasing link id order;
 * @link_of_edge (may be NULL) maps each edge back to its link id.  Both
 * arrays need wc_topo_nlinks() entries.  Returns the number of edges.
 */
u32 wc_rt_topo_edges(const struct wc_topo *t, struct wc_graph_edge *edges,
		     u32 *link_of_edge);

/* A uniformly random permutation of 0..n-1, deterministic in @seed. */
void wc_rt_random_order(u32 *order, u32 n, u64 seed);

/*
 * Section 5.3's order on an N x N torus (edges as from wc_rt_topo_edges()),
 * with H_{x,y} = (x,y)-(x+1,y) and V_{x,y} = (x,y)-(x,y+1) as in section 4,
 * x the column: for each row i = 0..N-1, H_{x,i} with x = i, i+1, ..., i-1;
 * then for each row j = 0..N-2, V_{x,j} with x = j, j+1, ..., j-1; then
 * V_{x,N-1}, x = 0..N-2.  The text writes the H list as H_{i,j}, i outer,
 * which taken with section 4's H_{column,row} would go column by column; we
 * read i as the row, like the V list's outer j (only this reading gives
 * Fig. 7's two Hamilton paths).  The link the paper leaves out,
 * V_{N-1,N-1}, is appended last.  With first-fit partitioning the order
 * yields two Hamilton paths for every N >= 3; V_{N-2,N-1} and V_{N-1,N-1}
 * stay unused.  Returns the number of entries (2 N^2), -EINVAL if @t is
 * not a square 2-D torus with N >= 3, or -ENOMEM.
 */
int wc_rt_special_order(const struct wc_topo *t, u32 *order);

/*
 * Two edge-disjoint spanning trees of a 2-D torus for the given edge order
 * (over wc_rt_topo_edges()), rooted at @root.  -EINVAL if the order does
 * not give two spanning trees.
 */
int wc_rt_torus_trees(const struct wc_topo *t, const u32 *order, u32 norder,
		      u32 root, struct wc_sptree trees[2]);

#endif /* WC_ROSKIND_TARJAN_H */
