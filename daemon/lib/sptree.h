/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Spanning trees over a wc_topo: the one representation shared by every
 * tree producer (DSTM, Roskind-Tarjan, the SPAM BFS tree) and every tree
 * consumer (router tables, header encoding, distance metrics).
 *
 * A tree is rooted.  Links are identified by port, not by neighbour, so
 * the parallel links of a torus dimension of size 2 stay distinct.
 *
 * Post-order numbering (DSTM section 3.2.2): children are visited in port
 * order; the subtree of v is exactly the post-order interval
 * [post_lo[v], post[v]].
 */
#ifndef WC_SPTREE_H
#define WC_SPTREE_H

#include "topology.h"
#include "dstm_header.h"

#define WC_SPT_NO_PORT	0xff
#define WC_NO_LINK	U32_MAX

struct wc_sptree {
	struct wc_topo topo;
	u32 nnodes;
	u32 root;
	u32 *parent;		/* WC_NO_NODE at the root */
	u8 *parent_port;	/* port towards the parent; WC_SPT_NO_PORT at the root */
	u16 *child_mask;	/* bit p: the neighbour through port p is a child */
	u32 *depth;		/* links from the root */
	u32 *post;		/* post-order number of each node */
	u32 *post_lo;		/* smallest post-order number in its subtree */
	u32 *by_post;		/* node carrying each post-order number */
};

/*
 * Link identifier: the smaller of node * nports + port taken from both
 * ends.  Ranges over 0 .. nnodes * nports - 1 (not all values are used).
 * Returns WC_NO_LINK if the port leads nowhere.
 */
u32 wc_link_id(const struct wc_topo *t, u32 node, u32 port);
static inline u32 wc_link_space(const struct wc_topo *t)
{
	return t->nnodes * t->nports;
}
/* The two ends of a link id: (*a, *pa) is the canonical end. */
void wc_link_ends(const struct wc_topo *t, u32 link, u32 *a, u32 *pa,
		  u32 *b, u32 *pb);
/* Is @link the id of a link of @t (in range, from its canonical end)? */
bool wc_link_real(const struct wc_topo *t, u32 link);

/*
 * Build the tree rooted at @root whose links are those with in_tree[link]
 * set.  Returns 0, -EINVAL if the links do not form a spanning tree (or
 * @root is out of range), -ENOMEM.
 */
int wc_sptree_from_links(struct wc_sptree *s, const struct wc_topo *t,
			 u32 root, const u8 *in_tree);

/* The same tree re-rooted at @root (s is rebuilt in place). */
int wc_sptree_reroot(struct wc_sptree *s, u32 root);

/* BFS tree from @root; ties broken by port order (the SPAM baseline). */
int wc_sptree_bfs(struct wc_sptree *s, const struct wc_topo *t, u32 root);

/*
 * The same BFS without the @nlinks links @links (link ids, wc_link_id()):
 * the SPAM tree of a fabric with faulty links.  Where the other links
 * leave nodes unreached (the live graph is disconnected), the first
 * listed link (in @links' order) from a reached node to an unreached one
 * joins the tree and the BFS goes on from there; *@ncrossed (may be NULL)
 * counts those links, 0 when the tree avoids every listed one.  With
 * @nlinks 0, wc_sptree_bfs().  0, -EINVAL (a root or link out of range),
 * -ENOMEM.
 */
int wc_sptree_bfs_avoiding(struct wc_sptree *s, const struct wc_topo *t,
			   u32 root, const u32 *links, u32 nlinks,
			   u32 *ncrossed);

void wc_sptree_free(struct wc_sptree *s);

/* Tree link membership as a link-indexed array (caller frees with free()). */
u8 *wc_sptree_link_set(const struct wc_sptree *s);

static inline bool wc_sptree_has_link(const struct wc_sptree *s, u32 node,
				      u32 port)
{
	return s->parent_port[node] == port ||
	       (port < 16 && (s->child_mask[node] >> port) & 1);
}

/* Number of children of @node. */
u32 wc_sptree_nchildren(const struct wc_sptree *s, u32 node);

/* Least common ancestor of two nodes / of a non-empty set of nodes. */
u32 wc_sptree_lca(const struct wc_sptree *s, u32 a, u32 b);
u32 wc_sptree_lca_set(const struct wc_sptree *s, const u32 *nodes, u32 n);

/* Is @a an ancestor of @b (or equal)?  O(1) from the post-order. */
static inline bool wc_sptree_is_ancestor(const struct wc_sptree *s, u32 a,
					 u32 b)
{
	return s->post_lo[a] <= s->post[b] && s->post[b] <= s->post[a];
}

/* Path length between two nodes inside the tree. */
u32 wc_sptree_distance(const struct wc_sptree *s, u32 a, u32 b);

/*
 * Distances inside the tree from @src to every node, not crossing link
 * @skip_link (WC_NO_LINK: none); unreachable nodes get U32_MAX.
 * @stack must hold nnodes entries.
 */
void wc_sptree_dist_from(const struct wc_sptree *s, u32 src, u32 skip_link,
			 u32 *dist, u32 *stack);

/*
 * Up/down link classes for up-down routing (DSTM section 2): crossing a
 * link from @node through @port goes "up" if it leads to a lower level
 * (depth), or to the same level and a lower node id.  For tree links this
 * is "towards the parent".  Defined for every link of the topology.
 */
bool wc_sptree_link_is_up(const struct wc_sptree *s, u32 node, u32 port);

/* Combined diameter and distance sum of a pair of trees (DSTM section 5). */
struct wc_pair_metrics {
	u32 cd;			/* max over pairs of the shorter tree path */
	u64 dist_sum;		/* sum over unordered pairs */
	u64 npairs;		/* n(n-1)/2 */
	double ad;		/* dist_sum / npairs */
};

/*
 * Exhaustive count over all pairs.  Works on any number of trees (1 gives
 * a single tree's diameter and average distance).  -ENOMEM on failure.
 */
int wc_trees_metrics(const struct wc_sptree *const *trees, u32 ntrees,
		     struct wc_pair_metrics *m);

/* Root branch sizes (nodes below each child of the root), port order. */
void wc_sptree_root_branches(const struct wc_sptree *s, u32 *sizes,
			     u32 *nbranches);

/*
 * Router table of a tree (DSTM section 3.2.2): @e indexed by node id,
 * @node_of_pn by post-order number.  -EINVAL if a router has more than
 * WC_TREE_MAX_PORTS ports.
 */
int wc_sptree_router_table(const struct wc_sptree *s,
			   struct wc_tree_entry *e, u32 *node_of_pn);

#endif /* WC_SPTREE_H */
