/* SPDX-License-Identifier: GPL-2.0 */
/*
 * DSTM single-tree multicast: router tables and the scalable header scheme
 * (Wang and Blough, section 3.1.1, 3.2.2 and Appendix A).
 *
 * Router table: every router stores, per tree, its post-order number, its
 * parent port and, for each child, the port and the post-order interval
 * [lo, hi] of the child's subtree.  A header flit for node X (post-order
 * number p) goes down through the child whose interval holds p, is consumed
 * if p is the router's own number, and goes up otherwise.
 *
 * Header flits: {Node, C, O_1..O_4, S}, one per destination and per split
 * router.  Port i of the router is O_{i+1} (for a 2-D torus: O_1 = +x,
 * O_2 = -x, O_3 = +y, O_4 = -y).
 */
#ifndef WC_DSTM_HEADER_H
#define WC_DSTM_HEADER_H

#include "compat.h"

/*
 * The paper's O_1..O_4 cover a 2-D torus router; we keep one O bit per
 * port up to 8 (3-D meshes and tori, hypercubes to dimension 8, star
 * graphs to n = 9).
 */
#define WC_TREE_MAX_PORTS	8
#define WC_TREE_NO_PORT		0xff
#define WC_TREE_LOCAL		0xfe	/* wc_tree_route(): consume here */
#define WC_TREE_NONE		U32_MAX

struct wc_tree_entry {
	u32 pn;				/* this router's post-order number */
	u32 lo;				/* smallest number in its subtree */
	u32 parent;			/* WC_TREE_NONE at the root */
	u8 parent_port;			/* WC_TREE_NO_PORT at the root */
	u8 nchildren;
	u8 child_port[WC_TREE_MAX_PORTS];	/* increasing intervals */
	u32 child[WC_TREE_MAX_PORTS];
	u32 child_lo[WC_TREE_MAX_PORTS];
	u32 child_hi[WC_TREE_MAX_PORTS];
};

struct wc_tree_table {
	u32 nnodes;
	u32 root;
	const struct wc_tree_entry *e;	/* indexed by node id */
	const u32 *node_of_pn;		/* inverse of e[].pn (source side) */
};

struct wc_dstm_flit {
	u32 node;	/* "Node": the router this flit is addressed to */
	u8 c;		/* "C": consume at Node */
	u8 out;		/* bit i: "O_{i+1}", reserve output port i at Node */
	u8 s;		/* "S": has passed the first split (0 at the source) */
};

/*
 * Check a table before use: post-order numbers form a permutation, child
 * intervals partition [lo, pn - 1] in increasing order, parent/child links
 * agree and there is exactly one root.  Returns 0 or -EINVAL.  O(N).
 */
int wc_tree_table_check(const struct wc_tree_table *t);

/*
 * Per-hop decision of a router for a header flit whose Node has post-order
 * number @dest_pn: the child port whose interval holds it, WC_TREE_LOCAL if
 * it is this router, or the parent port (up; WC_TREE_NO_PORT at the root).
 */
u8 wc_tree_route(const struct wc_tree_entry *e, u32 dest_pn);

/* Words of @work that wc_dstm_encode() needs for @ndests destinations. */
#define WC_DSTM_WORK_WORDS(ndests)	(4 * (size_t)(ndests) + 4)
/* Largest number of flits for @ndests destinations. */
#define WC_DSTM_MAX_FLITS(ndests)	(2 * (size_t)(ndests))

/*
 * Header flits for a multicast from @src to @dests over tree @t, in an
 * order in which every router's own flit precedes every flit that passes
 * it after the first split (a depth-first pre-order).  With @reverse the
 * children are taken in decreasing port order instead: another valid
 * order.  All flits have S = 0.  Unicast (one destination) costs O(1);
 * otherwise O(D log D + N).
 *
 * Returns the number of flits written to @out, or -EINVAL (empty set,
 * node out of range, duplicate, @src among @dests) or -ENOSPC (@max_out
 * below what is needed; WC_DSTM_MAX_FLITS() is always enough).
 */
int wc_dstm_encode(const struct wc_tree_table *t, u32 src, const u32 *dests,
		   u32 ndests, bool reverse, u32 *work,
		   struct wc_dstm_flit *out, u32 max_out);

#endif /* WC_DSTM_HEADER_H */
