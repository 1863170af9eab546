/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The WORMCAST_TABLE_TREES table (struct wormcast_trees, uapi) of a tree
 * multicast scheme: what wormcastd pushes into the kernel and what wormsim
 * and the tests feed the engine.  Pure: no netlink, no global state; the
 * same inputs give the same bytes.
 *
 *   spam     one BFS tree (wc_sptree_bfs, ties by port order) rooted at a
 *            centre of the topology: the node of least eccentricity, the
 *            smallest id on a tie (node 0 on every vertex-transitive
 *            topology: torus, hypercube, star graph).  Any topology whose
 *            routers have at most WC_TREE_MAX_PORTS ports.
 *   dstm-1   wc_dstm_spec_dstm1(R1 = node 0): both trees rooted at
 *            P = Q = (x2, y1) (Fig. 4), Fig. 5 move where a root has a
 *            single branch.  2-D torus.
 *   dstm-2   wc_dstm_spec_dstm2(R1 = node 0): rooted at the start nodes
 *            R1, R2, without the move (Documentation/dstm.rst).  2-D torus.
 *   rt       two Roskind-Tarjan trees (wc_rt_torus_trees), pair chosen by
 *            opts->rt_pair (below).  2-D torus (square for "path").
 *
 * Roots of RT trees: every tree is rooted at its centroid, the node whose
 * largest branch (component of the tree without it) is smallest, the
 * smallest id on a tie.  That is the root that balances the tree best
 * (section 6: balance around the root matters more than CD and AD).
 *
 * Choice of the RT pair (section 6 simulates three pairs).  Trial i
 * (0 <= i < trials) is the random order wc_rt_random_order(seed + i)
 * (seed 0 gives bench_dstm's orders), its two trees rooted at their
 * centroids.  Per trial: CD and AD (wc_trees_metrics) and the balance B =
 * the largest root branch of the two trees (wc_sptree_root_branches; a
 * smaller B is better balanced).  Over all trials: the means mCD and mAD,
 * and the median of B (the lower median, element floor((trials - 1) / 2)
 * of the sorted values).  "Well balanced" = B <= that median (at least
 * half of the trials).  Among the well balanced trials:
 *
 *   average  the trial minimising |CD / mCD - 1| + |AD / mAD - 1|
 *            ("roughly average combined diameter and average distance");
 *   best     the trial minimising CD / mCD + AD / mAD ("small CD and AD");
 *
 * ties broken by smaller B, then the lower trial index.
 *
 *   path     section 5.3's order (wc_rt_special_order): two Hamilton
 *            paths, the paper's pathological worst; N x N, N >= 3; seed
 *            and trials unused.
 */
#ifndef WC_TREES_TABLE_H
#define WC_TREES_TABLE_H

#include <linux/wormcast.h>

#include "mcast_names.h"
#include "sptree.h"

#define WC_TREES_DEFAULT_TRIALS	100
#define WC_TREES_MAX_TRIALS	100000

struct wc_trees_opts {
	u32 rt_pair;		/* enum wc_rt_pair */
	u64 seed;		/* rt average/best: trial i uses seed + i */
	u32 trials;		/* rt average/best: 1 .. WC_TREES_MAX_TRIALS */
};

/* rt_pair average, seed 0, WC_TREES_DEFAULT_TRIALS trials. */
void wc_trees_opts_default(struct wc_trees_opts *o);

/* Whether @a and @b give the same "rt" table (path ignores seed and trials). */
bool wc_trees_opts_equal(const struct wc_trees_opts *a,
			 const struct wc_trees_opts *b);

/* What the RT choice saw: filled by wc_trees_table() if @info is given. */
struct wc_trees_info {
	u32 cd;			/* the chosen pair's (0 for spam above 4096 nodes: */
	double ad;		/*  not computed) */
	u32 trial;		/* rt average/best: index of the chosen trial */
	u32 balance;		/* its B */
	double mean_cd, mean_ad;	/* rt average/best: over all trials */
	u32 median_balance;
	u32 nbalanced;		/* trials with B <= median */
};

/* 24 + ntrees * nnodes. */
static inline size_t wc_trees_table_size(u32 ntrees, u32 nnodes)
{
	return sizeof(struct wormcast_trees) + (size_t)ntrees * nnodes;
}

/*
 * Compute the table of @scheme for topology @t: *@table (malloc'ed, the
 * caller frees it) of *@len bytes.  Returns 0; -EINVAL with *@why set (a
 * static string) for a scheme that needs no table (unicast), an unknown
 * scheme or pair, a topology the scheme cannot run on, bad options;
 * -ENOMEM.  @o may be NULL (defaults); @info may be NULL.
 */
int wc_trees_table_info(u32 scheme, const struct wc_topo *t,
			const struct wc_trees_opts *o, void **table,
			size_t *len, struct wc_trees_info *info,
			const char **why);

static inline int wc_trees_table(u32 scheme, const struct wc_topo *t,
				 const struct wc_trees_opts *o, void **table,
				 size_t *len, const char **why)
{
	return wc_trees_table_info(scheme, t, o, table, len, NULL, why);
}

/*
 * Header checks of a table's bytes (no topology): size (faulty links
 * included), ntrees for the scheme, nfaults bounded, unused root zero.  0 or -EINVAL with *why.  The kernel checks
 * the trees and the faulty links themselves.
 */
int wc_trees_table_parse(const void *table, size_t len,
			 const struct wormcast_trees **hdr, const char **why);

/*
 * Make the trees table *@table (*@len bytes, from wc_trees_table()) carry
 * the faulty links @links (@nlinks link ids of @t, wc_link_id(), at most
 * WORMCAST_TREES_MAX_FAULTS; a spam table: none a link of its tree, as
 * the kernel requires), replacing those it had: nfaults
 * and one struct wormcast_trees_fault per link, by its canonical end
 * (wc_link_ends()).  The table is realloc'ed.  0, -EINVAL with *@why,
 * -ENOMEM (the table unchanged).  @nlinks 0 makes a fault-free table.
 */
int wc_trees_table_set_faults(void **table, size_t *len, const struct wc_topo *t,
			      const u32 *links, u32 nlinks, const char **why);

/*
 * Are @links (@nlinks link ids) links of @t and @nodes (@nnodes) its
 * nodes?  If not, false with *@why set.
 */
bool wc_faults_valid(const struct wc_topo *t, const u32 *links, u32 nlinks,
		     const u32 *nodes, u32 nnodes, const char **why);

/*
 * The dead links of @t: the faulty links @links (@nlinks link ids), then
 * every link of the failed nodes @nodes (@nnodes node ids), each once,
 * into @out (room for nlinks + nnodes * nports); @seen is a zeroed flag
 * per link id (wc_link_space()), set for each.  Returns how many.  The
 * ids must be valid (wc_faults_valid()).
 */
u32 wc_dead_links(const struct wc_topo *t, const u32 *links, u32 nlinks,
		  const u32 *nodes, u32 nnodes, u32 *out, u8 *seen);

/* What wc_trees_table_two_faults() did with the faulty links and nodes. */
struct wc_two_faults {
	u32 listed;	/* dead links in the table */
	u32 unlisted;	/* dead links beyond the 256 listed */
	bool clean;	/* a tree of @base joins every live node */
	bool rebuilt;	/* trees rebuilt on the live links */
};

/*
 * The table of a two-tree scheme (dstm-1, dstm-2, rt) on @t with the
 * faulty links @links and the failed nodes @nodes (@nlinks, @nnodes ids,
 * wc_faults_valid()), from its fault-free table @base (@base_len bytes):
 *
 *  - when a tree of @base joins every live node without a dead link
 *    (section 7: one faulty link always leaves one such tree), @base's
 *    trees;
 *  - else, when @rebuild is set, two edge-disjoint spanning trees of the
 *    live links (neither faulty nor a failed node's; wc_rt_partition(),
 *    first fit from @base's live tree links), each failed node hung from
 *    each tree by a link of its own to a live node, rooted at their
 *    centroids: no worm transits a failed node or crosses a faulty
 *    link.  On an n x m torus (2nm links, two trees take 2(nm - 1)) that
 *    is possible with one failed node and no other fault, or with at
 *    most two faulty links (Documentation/faults.rst);
 *  - else (or when the live links have no two such trees) @base's trees.
 *
 * Either way the dead links (the faulty ones, then the failed nodes'
 * links, wc_dead_links()) are listed, the first WORMCAST_TREES_MAX_FAULTS,
 * so that a source takes the tree that avoids them when one does.
 * *@table is malloc'ed.  0, -EINVAL with *@why, -ENOMEM.
 */
int wc_trees_table_two_faults(const struct wc_topo *t, const void *base,
			      size_t base_len, const u32 *links, u32 nlinks,
			      const u32 *nodes, u32 nnodes, bool rebuild,
			      void **table, size_t *len,
			      struct wc_two_faults *res, const char **why);

/* What wc_trees_table_spam_faults() did with the faulty links and nodes. */
struct wc_spam_faults {
	u32 listed;	/* in the table: avoided by the tree and its cross links */
	u32 crossed;	/* in the tree (the live graph is disconnected) */
	u32 unlisted;	/* avoided by the tree, beyond the 256 listed */
	u32 leaves;	/* faulty nodes with no live child, hanging by one link */
};

/*
 * The spam table of @t with the faulty links @links (@nlinks link ids of
 * @t, wc_link_id()) and the faulty nodes @nodes (@nnodes node ids): the
 * BFS tree over the links that did not fail and do not touch a faulty
 * node (wc_sptree_bfs_avoiding()), from the same root as without faults
 * (wc_topo_center()) or, if that node is faulty, the nearest live node;
 * and the avoided links listed (the first WORMCAST_TREES_MAX_FAULTS, the
 * faulty links in @links' order, then the faulty nodes' links) so that
 * the routers' up cross links skip them.  A faulty node hangs from the
 * tree by one of its links, with no live node below it (a leaf, or
 * above faulty nodes only): no worm transits it to a live node, and one
 * to it is absorbed and counted there.  With no faults, the table of
 * wc_trees_table(WORMCAST_MCAST_SPAM), byte for byte.  When the live
 * links leave the live nodes disconnected, the tree crosses a faulty
 * link per extra part (*@res says how many): those are not listed, and
 * worms that cross them are absorbed and counted.  *@table is malloc'ed.
 * 0, -EINVAL with *@why, -ENOMEM.
 */
int wc_trees_table_spam_faults(const struct wc_topo *t, const u32 *links,
			       u32 nlinks, const u32 *nodes, u32 nnodes,
			       void **table, size_t *len,
			       struct wc_spam_faults *res, const char **why);

/* The node of least eccentricity, the smallest id on a tie. */
u32 wc_topo_center(const struct wc_topo *t);

/* The centroid of a tree (see above). */
u32 wc_sptree_centroid(const struct wc_sptree *s);

#endif /* WC_TREES_TABLE_H */
