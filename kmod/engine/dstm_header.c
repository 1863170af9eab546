// SPDX-License-Identifier: GPL-2.0
/*
 * DSTM header encoding (Wang and Blough, Appendix A), reconstructed.
 *
 * Only the tail of the paper's pseudo-code is printed (lines 31-36); the
 * text gives the rest: a depth-first walk from the root with the
 * destination list sorted by post-order number (PN), each child getting the
 * destinations inside its subtree's interval.  A node gets a header flit if
 * it is a destination (C = 1) or if it hands destinations to more than one
 * branch, counting itself as a branch (SPLIT_LOCALLY; O_i = 1 for every
 * child with a non-empty list).  Nodes that pass the whole list on to one
 * child get no flit.  Emitting a node's flit before recursing into its
 * children keeps every path's partial order.
 *
 * The walk uses an explicit stack (no recursion, the kernel runs this) and
 * caller-provided memory (it runs per packet, where allocation is out).
 */
#include "dstm_header.h"

int wc_tree_table_check(const struct wc_tree_table *t)
{
	u32 v, i, nroots = 0;

	if (!t->nnodes || t->root >= t->nnodes || !t->e || !t->node_of_pn)
		return -EINVAL;
	for (v = 0; v < t->nnodes; v++) {
		const struct wc_tree_entry *e = &t->e[v];
		u32 next;

		if (e->pn >= t->nnodes || t->node_of_pn[e->pn] != v ||
		    e->lo > e->pn || e->nchildren > WC_TREE_MAX_PORTS)
			return -EINVAL;
		if (e->parent == WC_TREE_NONE) {
			if (v != t->root || e->parent_port != WC_TREE_NO_PORT)
				return -EINVAL;
			nroots++;
		} else if (e->parent >= t->nnodes ||
			   e->parent_port >= WC_TREE_MAX_PORTS) {
			return -EINVAL;
		}
		/* Children's intervals tile [lo, pn - 1] in increasing order. */
		next = e->lo;
		for (i = 0; i < e->nchildren; i++) {
			u32 c = e->child[i], j;

			if (c >= t->nnodes || e->child_lo[i] != next ||
			    e->child_hi[i] < e->child_lo[i] ||
			    e->child_hi[i] >= e->pn ||
			    t->e[c].parent != v || t->e[c].pn != e->child_hi[i] ||
			    t->e[c].lo != e->child_lo[i] ||
			    e->child_port[i] >= WC_TREE_MAX_PORTS ||
			    e->child_port[i] == e->parent_port)
				return -EINVAL;
			for (j = 0; j < i; j++)
				if (e->child_port[j] == e->child_port[i])
					return -EINVAL;
			next = e->child_hi[i] + 1;
		}
		if (next != e->pn)
			return -EINVAL;
	}
	/*
	 * A child's number is below its parent's, so parent pointers cannot
	 * cycle; with the root covering [0, N - 1] every node is in the tree.
	 */
	if (nroots != 1 || t->e[t->root].lo != 0 ||
	    t->e[t->root].pn != t->nnodes - 1)
		return -EINVAL;
	return 0;
}

u8 wc_tree_route(const struct wc_tree_entry *e, u32 dest_pn)
{
	u32 i;

	if (dest_pn == e->pn)
		return WC_TREE_LOCAL;
	for (i = 0; i < e->nchildren; i++)
		if (e->child_lo[i] <= dest_pn && dest_pn <= e->child_hi[i])
			return e->child_port[i];
	return e->parent_port;
}

/* In-place heapsort: O(D log D), no recursion, no allocation. */
static void sift_down(u32 *a, size_t root, size_t n)
{
	for (;;) {
		size_t child = 2 * root + 1;
		u32 tmp;

		if (child >= n)
			return;
		if (child + 1 < n && a[child + 1] > a[child])
			child++;
		if (a[root] >= a[child])
			return;
		tmp = a[root];
		a[root] = a[child];
		a[child] = tmp;
		root = child;
	}
}

static void heapsort_u32(u32 *a, size_t n)
{
	size_t i;

	for (i = n / 2; i-- > 0;)
		sift_down(a, i, n);
	for (i = n; i-- > 1;) {
		u32 tmp = a[0];

		a[0] = a[i];
		a[i] = tmp;
		sift_down(a, 0, i);
	}
}

/* First index in [a, b) whose value is >= key. */
static u32 lower_bound(const u32 *v, u32 a, u32 b, u32 key)
{
	while (a < b) {
		u32 mid = a + (b - a) / 2;

		if (v[mid] < key)
			a = mid + 1;
		else
			b = mid;
	}
	return a;
}

/* Index of the child of @e whose interval holds @pn, or -1. */
static int child_holding(const struct wc_tree_entry *e, u32 pn)
{
	u32 i;

	for (i = 0; i < e->nchildren; i++)
		if (e->child_lo[i] <= pn && pn <= e->child_hi[i])
			return (int)i;
	return -1;
}

int wc_dstm_encode(const struct wc_tree_table *t, u32 src, const u32 *dests,
		   u32 ndests, bool reverse, u32 *work,
		   struct wc_dstm_flit *out, u32 max_out)
{
	u32 *pns = work;			/* ndests sorted PNs */
	u32 *stack = work + ndests;		/* (node, a, b) triples */
	u32 sp = 0, nout = 0, i;

	if (!ndests || src >= t->nnodes)
		return -EINVAL;
	if (ndests == 1) {
		/* Unicast: one flit, no sort, no walk. */
		if (dests[0] >= t->nnodes || dests[0] == src)
			return -EINVAL;
		if (max_out < 1)
			return -ENOSPC;
		out[0].node = dests[0];
		out[0].c = 1;
		out[0].out = 0;
		out[0].s = 0;
		return 1;
	}
	for (i = 0; i < ndests; i++) {
		if (dests[i] >= t->nnodes || dests[i] == src)
			return -EINVAL;
		pns[i] = t->e[dests[i]].pn;
	}
	heapsort_u32(pns, ndests);
	for (i = 1; i < ndests; i++)
		if (pns[i] == pns[i - 1])
			return -EINVAL;

	stack[sp++] = t->root;
	stack[sp++] = 0;
	stack[sp++] = ndests;
	while (sp) {
		u32 b = stack[--sp], a = stack[--sp], v = stack[--sp];
		u32 ca[WC_TREE_MAX_PORTS], cb[WC_TREE_MAX_PORTS];
		const struct wc_tree_entry *e;
		u8 c, mask = 0;
		int only;

		for (;;) {
			e = &t->e[v];
			c = pns[b - 1] == e->pn;
			if (c)
				b--;
			if (c || a == b)
				break;
			/* O(1): the whole list inside one child's subtree? */
			only = child_holding(e, pns[a]);
			if (only < 0 || pns[b - 1] > e->child_hi[only])
				break;
			v = e->child[only];
		}
		if (nout == max_out)
			return -ENOSPC;
		for (i = 0; i < e->nchildren; i++) {
			ca[i] = lower_bound(pns, a, b, e->child_lo[i]);
			cb[i] = lower_bound(pns, ca[i], b, e->child_hi[i] + 1);
			if (ca[i] < cb[i])
				mask |= (u8)(1u << e->child_port[i]);
		}
		out[nout].node = v;
		out[nout].c = c;
		out[nout].out = mask;
		out[nout].s = 0;
		nout++;
		/* The stack pops in reverse push order. */
		for (i = 0; i < e->nchildren; i++) {
			u32 k = reverse ? i : e->nchildren - 1 - i;

			if (ca[k] == cb[k])
				continue;
			stack[sp++] = e->child[k];
			stack[sp++] = ca[k];
			stack[sp++] = cb[k];
		}
	}
	return (int)nout;
}
