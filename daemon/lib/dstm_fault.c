// SPDX-License-Identifier: GPL-2.0
/* DSTM with one faulty link (section 7); see dstm_fault.h. */
#include <stdlib.h>

#include "dstm_fault.h"

int wc_dstm_fault_tree(const struct wc_sptree trees[2], u32 link)
{
	u32 a, pa, b, pb, k;

	if (link == WC_NO_LINK)
		return -1;
	wc_link_ends(&trees[0].topo, link, &a, &pa, &b, &pb);
	if (b == WC_NO_NODE)
		return -1;
	for (k = 0; k < 2; k++)
		if (wc_sptree_has_link(&trees[k], a, pa))
			return (int)k;
	return -1;
}

int wc_dstm_fault_multicast_tree(const struct wc_sptree trees[2], u32 link)
{
	int f = wc_dstm_fault_tree(trees, link);

	return f < 0 ? -1 : 1 - f;
}

/* Does the tree path a..b in @s cross the link (x, px)-(y, py)? */
static bool path_crosses(const struct wc_sptree *s, u32 a, u32 b, u32 lo_end)
{
	/* A tree link is crossed iff exactly one end of the path lies in
	 * the subtree below it; lo_end is the link's child-side node. */
	return wc_sptree_is_ancestor(s, lo_end, a) !=
	       wc_sptree_is_ancestor(s, lo_end, b);
}

/* Child-side end of tree link @link in @s. */
static u32 child_end(const struct wc_sptree *s, u32 link)
{
	u32 a, pa, b, pb;

	wc_link_ends(&s->topo, link, &a, &pa, &b, &pb);
	return s->parent[a] == b && s->parent_port[a] == pa ? a : b;
}

int wc_dstm_fault_unicast_global(const struct wc_sptree trees[2], u32 link,
				 u32 src, u32 dst, struct wc_fault_route *r)
{
	int f = wc_dstm_fault_tree(trees, link);
	u32 d[2], k;

	if (src >= trees[0].nnodes || dst >= trees[0].nnodes)
		return -EINVAL;
	for (k = 0; k < 2; k++)
		d[k] = wc_sptree_distance(&trees[k], src, dst);
	if (f >= 0 && path_crosses(&trees[f], src, dst, child_end(&trees[f], link)))
		d[f] = U32_MAX;
	r->tree = d[1] < d[0];
	r->hops = d[r->tree];
	r->reinject = WC_NO_NODE;
	return 0;
}

int wc_dstm_fault_unicast_local(const struct wc_sptree trees[2], u32 link,
				u32 src, u32 dst, struct wc_fault_route *r)
{
	int f = wc_dstm_fault_tree(trees, link);
	u32 d0, d1, c, x;
	const struct wc_sptree *s;

	if (src >= trees[0].nnodes || dst >= trees[0].nnodes)
		return -EINVAL;
	d0 = wc_sptree_distance(&trees[0], src, dst);
	d1 = wc_sptree_distance(&trees[1], src, dst);
	r->tree = d1 < d0;
	r->hops = r->tree ? d1 : d0;
	r->reinject = WC_NO_NODE;
	if (f != r->tree)
		return 0;
	s = &trees[f];
	c = child_end(s, link);
	if (!path_crosses(s, src, dst, c))
		return 0;
	/* The router before the fault: the link end on the source's side. */
	x = wc_sptree_is_ancestor(s, c, src) ? c : s->parent[c];
	r->reinject = x;
	r->hops = wc_sptree_distance(s, src, x) +
		  wc_sptree_distance(&trees[1 - f], x, dst);
	return 0;
}

struct scratch {
	u32 *d[2], *df, *ga, *gb, *stack;
};

static void scratch_free(struct scratch *s)
{
	free(s->d[0]);
	free(s->d[1]);
	free(s->df);
	free(s->ga);
	free(s->gb);
	free(s->stack);
}

static int scratch_alloc(struct scratch *s, u32 n)
{
	s->d[0] = malloc(n * sizeof(u32));
	s->d[1] = malloc(n * sizeof(u32));
	s->df = malloc(n * sizeof(u32));
	s->ga = malloc(n * sizeof(u32));
	s->gb = malloc(n * sizeof(u32));
	s->stack = malloc(n * sizeof(u32));
	if (!s->d[0] || !s->d[1] || !s->df || !s->ga || !s->gb || !s->stack) {
		scratch_free(s);
		return -ENOMEM;
	}
	return 0;
}

static void finish(struct wc_pair_metrics *m, u64 npairs)
{
	m->npairs = npairs;
	m->ad = npairs ? (double)m->dist_sum / (double)npairs : 0.0;
}

int wc_dstm_fault_metrics_global(const struct wc_sptree trees[2], u32 link,
				 struct wc_pair_metrics *m)
{
	u32 n = trees[0].nnodes, src, v, k;
	int f = wc_dstm_fault_tree(trees, link);
	struct scratch s;

	memset(m, 0, sizeof(*m));
	if (scratch_alloc(&s, n))
		return -ENOMEM;
	for (src = 0; src < n; src++) {
		for (k = 0; k < 2; k++)
			wc_sptree_dist_from(&trees[k], src,
					    (int)k == f ? link : WC_NO_LINK,
					    s.d[k], s.stack);
		for (v = src + 1; v < n; v++) {
			u32 d = s.d[0][v] < s.d[1][v] ? s.d[0][v] : s.d[1][v];

			if (d > m->cd)
				m->cd = d;
			m->dist_sum += d;
		}
	}
	finish(m, (u64)n * (n - 1) / 2);
	scratch_free(&s);
	return 0;
}

int wc_dstm_fault_metrics_local(const struct wc_sptree trees[2], u32 link,
				struct wc_pair_metrics *m)
{
	u32 n = trees[0].nnodes, src, v, a, pa, b, pb;
	int f = wc_dstm_fault_tree(trees, link), g;
	struct scratch s;

	if (f < 0) {
		/* An unused link: nothing changes; count ordered pairs. */
		int err = wc_dstm_fault_metrics_global(trees, link, m);

		m->dist_sum *= 2;
		finish(m, 2 * m->npairs);
		return err;
	}
	memset(m, 0, sizeof(*m));
	if (scratch_alloc(&s, n))
		return -ENOMEM;
	g = 1 - f;
	wc_link_ends(&trees[0].topo, link, &a, &pa, &b, &pb);
	wc_sptree_dist_from(&trees[g], a, WC_NO_LINK, s.ga, s.stack);
	wc_sptree_dist_from(&trees[g], b, WC_NO_LINK, s.gb, s.stack);
	for (src = 0; src < n; src++) {
		wc_sptree_dist_from(&trees[0], src, WC_NO_LINK, s.d[0], s.stack);
		wc_sptree_dist_from(&trees[1], src, WC_NO_LINK, s.d[1], s.stack);
		wc_sptree_dist_from(&trees[f], src, link, s.df, s.stack);
		for (v = 0; v < n; v++) {
			u32 chosen = s.d[1][v] < s.d[0][v], d;

			if (v == src)
				continue;
			d = s.d[chosen][v];
			if ((int)chosen == f && s.df[v] == U32_MAX) {
				/* Re-injected at the fault's near end. */
				d = s.d[f][a] < s.d[f][b] ? s.d[f][a] + s.ga[v] :
							    s.d[f][b] + s.gb[v];
			}
			if (d > m->cd)
				m->cd = d;
			m->dist_sum += d;
		}
	}
	finish(m, (u64)n * (n - 1));
	scratch_free(&s);
	return 0;
}
