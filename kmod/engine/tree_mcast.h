/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tree multicast in the engine: SPAM (one spanning tree, up* /down*) and
 * DSTM (two edge-disjoint spanning trees; Wang and Blough, sections 3.1
 * and 3.2), on tables in the uapi format struct wormcast_trees.
 *
 * A tree set is built from that format (wc_tree_set_build(), which
 * validates it completely) and handed to the engine as the tables of
 * wc_algo_tree.  The kernel builds it when the daemon commits a table;
 * wormsim and the tests build it from the very same bytes.
 *
 * Header flits.  One u32 word per header flit, the paper's
 * {Node, C, O_1..O_4, S} plus the tree it travels in (WC_TH_*).  The
 * source encodes them with wc_dstm_encode() (a depth-first pre-order from
 * the least common ancestor), so the flits of every child's subtree follow
 * the splitting router's own flit as one contiguous run: at a split, each
 * branch takes its run (header subsets per branch) and the router's own
 * flit is stripped.  The first split sets S in every flit behind it.
 *
 * Routing.  A header whose first flit names another router goes towards
 * it in the tree (up, or down into the child whose post-order interval
 * holds it); under SPAM, until the first split, an up cross link that
 * reaches an ancestor of that router may be taken instead (up* /down* on
 * levels, ties broken by node id).  Once S is set only down tree links are
 * legal.  A worm consumes through consumption channel T when a fabric has
 * two trees (one consumption channel per tree keeps the trees
 * edge-disjoint end to end), through any channel under SPAM.
 *
 * Unicast under a tree scheme is a one-flit header {dst, C = 1}: in the
 * tree where the path is shorter (DSTM; ties go to tree 0), in the tree
 * under SPAM.  A multicast takes one tree at random (DSTM, section 3.2.1).
 *
 * Faulty links (section 7, global information).  A two-tree table may
 * list faulty links.  At build time each tree is cut at its faulty links
 * into parts, and every node gets the id of its part (comp[]): a tree
 * path avoids every listed fault iff its two ends are in the same part.
 * At the source a tree is "good" for a message when every destination is
 * in the source's part; when exactly one tree is good it is taken,
 * otherwise the choice above stands (both good: no fault in the way;
 * neither: the engine absorbs and counts, Documentation/faults.rst).  A
 * frame costs one comparison per destination, and only with faults.
 *
 * Section 7, local information (wc_algo_tree_local): the sources ignore
 * the table's faulty links and take the fault-free choice of tree; a worm
 * absorbed at a failed link is re-injected by the router before that link
 * to the destinations it missed, on the other tree, which does not hold
 * the link (wc_tree_local_reinject(); the kernel and wormsim both re-send
 * from it).
 *
 * Limits: trees on routers of at most WC_TREE_MAX_PORTS (8) ports (meshes
 * and tori of 1 to 3 dimensions, hypercubes up to dimension 8, star graphs
 * up to n = 9), at most WC_TH_MAX_NODES nodes.
 */
#ifndef WC_TREE_MCAST_H
#define WC_TREE_MCAST_H

#include "compat.h"
#include "topology.h"
#include "engine.h"
#include "dstm_header.h"

#define WC_TH_NODE_BITS		20
#define WC_TH_MAX_NODES		BIT(WC_TH_NODE_BITS)
#define WC_TH_NODE_MASK		(WC_TH_MAX_NODES - 1)
#define WC_TH_O_SHIFT		20	/* WC_TREE_MAX_PORTS bits: O_1..O_8 */
#define WC_TH_O_MASK		(BIT(WC_TREE_MAX_PORTS) - 1)
#define WC_TH_C			BIT(28)
#define WC_TH_S			BIT(29)
#define WC_TH_T			BIT(30)	/* tree 1 (else tree 0) */

/* The virtual channels of a tree worm's network hops: VC 0 (tree_route()). */
#define WC_TREE_VC_MASK		1

static inline u32 wc_th_node(u32 w)
{
	return w & WC_TH_NODE_MASK;
}

static inline u32 wc_th_out(u32 w)
{
	return (w >> WC_TH_O_SHIFT) & WC_TH_O_MASK;
}

static inline u32 wc_th_tree(u32 w)
{
	return w & WC_TH_T ? 1 : 0;
}

#define WC_LINK_FAULTY	2	/* in link_flags[] (1: a tree link) */

struct wc_tree_set {
	u32 scheme;			/* enum wormcast_mcast_scheme */
	u32 ntrees;			/* 1 or 2 */
	u32 nnodes;
	bool cross_links;		/* SPAM: up cross links before the split */
	struct wc_tree_table tree[2];	/* views of the arrays below */
	struct wc_tree_entry *entry[2];
	u32 *node_of_pn[2];
	u32 *level[2];			/* links from the root */
	/* Faulty links (section 7): per tree, the part of every node. */
	u32 nfaults;			/* listed in the table */
	u32 tree_faults[2];		/* of them, links of tree k */
	u32 *comp[2];			/* NULL without faults in tree k */
	/*
	 * SPAM with faulty links: per (node, port), WC_LINK_FAULTY for a
	 * listed link, which the up cross links skip; NULL without faults.
	 */
	u8 *link_flags;
	/* Encoder work area: a tree set serves one engine at a time. */
	u32 *scratch;
	struct wc_dstm_flit *flits;
	size_t mem;			/* bytes allocated */
};

/*
 * Validate @len bytes of struct wormcast_trees against topology @t and
 * build @s from them.  Returns 0, or -EINVAL with *@why set to a static
 * reason (and nothing allocated), or -ENOMEM.
 */
int wc_tree_set_build(struct wc_tree_set *s, const struct wc_topo *t,
		      const void *table, size_t len, const char **why);
void wc_tree_set_free(struct wc_tree_set *s);

/* Can @scheme run on @t with @p?  0, or -EINVAL with *@why. */
int wc_tree_scheme_check(u32 scheme, const struct wc_topo *t,
			 const struct wc_engine_params *p, const char **why);

/* Header words a message to @ndsts destinations may need. */
static inline u32 wc_tree_hdr_words(u32 ndsts)
{
	return (u32)WC_DSTM_MAX_FLITS(ndsts) + 1;
}

/* Links of the path from @a to @b in tree @tree of @s. */
u32 wc_tree_set_distance(const struct wc_tree_set *s, u32 tree, u32 a, u32 b);

/*
 * The algorithm.  Its tables are a struct wc_tree_set; a message's
 * header lives in the caller's m->hdr (at least wc_tree_hdr_words(ndsts)
 * words).
 */
extern const struct wc_algo wc_algo_tree;
/* The same, but the sources ignore the table's faulty links (section 7). */
extern const struct wc_algo wc_algo_tree_local;

/*
 * Section 7 with local information: @m, a worm routed on @s over @t, was
 * absorbed by a fault (its msg_done; m->fault_lost set).  When exactly one
 * branch was absorbed, at a failed link (not a failed node) of tree k:
 * sets *@at to the router before that link, *@tree to the other tree, and
 * the bits of the destinations the worm missed in @missed (nnodes bits,
 * zeroed by the caller), and returns how many (equal to m->fault_lost).
 * Otherwise returns 0 and nothing is re-sent: several faults on the worm's
 * way, a failed node, a link in no tree.  The caller sends the missed
 * destinations from *@at with m->hdr_preset and m->hdr[0] = *@tree (the
 * near end itself, if missed, takes its copy there, without a worm).
 */
u32 wc_tree_local_reinject(const struct wc_tree_set *s,
			   const struct wc_topo *t, const struct wc_msg *m,
			   u32 *at, u32 *tree, u32 *missed);

#endif /* WC_TREE_MCAST_H */
