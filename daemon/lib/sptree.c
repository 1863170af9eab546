// SPDX-License-Identifier: GPL-2.0
/* Spanning trees over a wc_topo; see sptree.h. */
#include <stdlib.h>

#include "sptree.h"

bool wc_link_real(const struct wc_topo *t, u32 link)
{
	u32 a, pa, b, pb;

	if (link >= wc_link_space(t))
		return false;
	wc_link_ends(t, link, &a, &pa, &b, &pb);
	return b != WC_NO_NODE && wc_link_id(t, a, pa) == link;
}

u32 wc_link_id(const struct wc_topo *t, u32 node, u32 port)
{
	u32 nb = wc_topo_neighbor(t, node, port);
	u32 a, b;

	if (nb == WC_NO_NODE)
		return WC_NO_LINK;
	a = node * t->nports + port;
	b = nb * t->nports + wc_topo_reverse_port(t, node, port);
	return a < b ? a : b;
}

void wc_link_ends(const struct wc_topo *t, u32 link, u32 *a, u32 *pa,
		  u32 *b, u32 *pb)
{
	*a = link / t->nports;
	*pa = link % t->nports;
	*b = wc_topo_neighbor(t, *a, *pa);
	*pb = wc_topo_reverse_port(t, *a, *pa);
}

void wc_sptree_free(struct wc_sptree *s)
{
	free(s->parent);
	free(s->parent_port);
	free(s->child_mask);
	free(s->depth);
	free(s->post);
	free(s->post_lo);
	free(s->by_post);
	s->parent = NULL;
	s->parent_port = NULL;
	s->child_mask = NULL;
	s->depth = NULL;
	s->post = NULL;
	s->post_lo = NULL;
	s->by_post = NULL;
}

static int sptree_alloc(struct wc_sptree *s, const struct wc_topo *t, u32 root)
{
	u32 n = t->nnodes;

	memset(s, 0, sizeof(*s));
	s->topo = *t;
	s->nnodes = n;
	s->root = root;
	s->parent = malloc(n * sizeof(*s->parent));
	s->parent_port = malloc(n * sizeof(*s->parent_port));
	s->child_mask = calloc(n, sizeof(*s->child_mask));
	s->depth = malloc(n * sizeof(*s->depth));
	s->post = malloc(n * sizeof(*s->post));
	s->post_lo = malloc(n * sizeof(*s->post_lo));
	s->by_post = malloc(n * sizeof(*s->by_post));
	if (!s->parent || !s->parent_port || !s->child_mask || !s->depth ||
	    !s->post || !s->post_lo || !s->by_post) {
		wc_sptree_free(s);
		return -ENOMEM;
	}
	return 0;
}

/* Post-order numbers, children in port order, without recursion. */
static int number_post_order(struct wc_sptree *s)
{
	u32 *stack = malloc(s->nnodes * sizeof(*stack));
	u8 *next_port = calloc(s->nnodes, 1);
	u32 sp = 0, count = 0;
	const struct wc_topo *t = &s->topo;

	if (!stack || !next_port) {
		free(stack);
		free(next_port);
		return -ENOMEM;
	}
	stack[sp++] = s->root;
	s->post_lo[s->root] = 0;
	while (sp) {
		u32 v = stack[sp - 1];
		u32 p = next_port[v];

		while (p < t->nports && !((s->child_mask[v] >> p) & 1))
			p++;
		if (p < t->nports) {
			u32 c = wc_topo_neighbor(t, v, p);

			next_port[v] = (u8)(p + 1);
			s->post_lo[c] = count;
			stack[sp++] = c;
			continue;
		}
		sp--;
		s->post[v] = count;
		s->by_post[count] = v;
		count++;
	}
	free(stack);
	free(next_port);
	return 0;
}

int wc_sptree_from_links(struct wc_sptree *s, const struct wc_topo *t,
			 u32 root, const u8 *in_tree)
{
	u32 *queue;
	u32 head = 0, tail = 0, v, p;
	int err;

	if (root >= t->nnodes || t->nports > 16)
		return -EINVAL;
	err = sptree_alloc(s, t, root);
	if (err)
		return err;
	queue = malloc(t->nnodes * sizeof(*queue));
	if (!queue) {
		wc_sptree_free(s);
		return -ENOMEM;
	}
	for (v = 0; v < t->nnodes; v++)
		s->parent[v] = WC_NO_NODE;
	s->parent_port[root] = WC_SPT_NO_PORT;
	s->depth[root] = 0;
	s->parent[root] = root;		/* "visited" mark, reset below */
	queue[tail++] = root;
	while (head < tail) {
		v = queue[head++];
		for (p = 0; p < t->nports; p++) {
			u32 link = wc_link_id(t, v, p), nb;

			if (link == WC_NO_LINK || !in_tree[link] ||
			    p == s->parent_port[v])
				continue;
			nb = wc_topo_neighbor(t, v, p);
			if (s->parent[nb] != WC_NO_NODE)
				goto not_a_tree;	/* cycle */
			s->parent[nb] = v;
			s->parent_port[nb] = (u8)wc_topo_reverse_port(t, v, p);
			s->depth[nb] = s->depth[v] + 1;
			s->child_mask[v] |= (u16)(1u << p);
			queue[tail++] = nb;
		}
	}
	if (tail != t->nnodes)
		goto not_a_tree;		/* not spanning */
	free(queue);
	s->parent[root] = WC_NO_NODE;
	err = number_post_order(s);
	if (err)
		wc_sptree_free(s);
	return err;

not_a_tree:
	free(queue);
	wc_sptree_free(s);
	return -EINVAL;
}

u8 *wc_sptree_link_set(const struct wc_sptree *s)
{
	u8 *set = calloc(wc_link_space(&s->topo), 1);
	u32 v;

	if (!set)
		return NULL;
	for (v = 0; v < s->nnodes; v++)
		if (v != s->root)
			set[wc_link_id(&s->topo, v, s->parent_port[v])] = 1;
	return set;
}

int wc_sptree_reroot(struct wc_sptree *s, u32 root)
{
	struct wc_sptree fresh;
	u8 *set;
	int err;

	if (root >= s->nnodes)
		return -EINVAL;
	set = wc_sptree_link_set(s);
	if (!set)
		return -ENOMEM;
	err = wc_sptree_from_links(&fresh, &s->topo, root, set);
	free(set);
	if (err)
		return err;
	wc_sptree_free(s);
	*s = fresh;
	return 0;
}

int wc_sptree_bfs(struct wc_sptree *s, const struct wc_topo *t, u32 root)
{
	return wc_sptree_bfs_avoiding(s, t, root, NULL, 0, NULL);
}

int wc_sptree_bfs_avoiding(struct wc_sptree *s, const struct wc_topo *t,
			   u32 root, const u32 *links, u32 nlinks, u32 *ncrossed)
{
	u8 *set, *dead;
	u32 *queue, *seen;
	u32 head = 0, tail = 0, crossed = 0, i;
	int err = -ENOMEM;

	if (ncrossed)
		*ncrossed = 0;
	if (root >= t->nnodes)
		return -EINVAL;
	for (i = 0; i < nlinks; i++)
		if (links[i] >= wc_link_space(t))
			return -EINVAL;
	set = calloc(wc_link_space(t), 1);
	dead = calloc(wc_link_space(t), 1);
	queue = malloc(t->nnodes * sizeof(*queue));
	seen = calloc(t->nnodes, sizeof(*seen));
	if (!set || !dead || !queue || !seen)
		goto out;
	for (i = 0; i < nlinks; i++)
		dead[links[i]] = 1;
	seen[root] = 1;
	queue[tail++] = root;
	for (;;) {
		while (head < tail) {
			u32 v = queue[head++], p;

			for (p = 0; p < t->nports; p++) {
				u32 nb = wc_topo_neighbor(t, v, p);

				if (nb == WC_NO_NODE || seen[nb] ||
				    dead[wc_link_id(t, v, p)])
					continue;
				seen[nb] = 1;
				set[wc_link_id(t, v, p)] = 1;
				queue[tail++] = nb;
			}
		}
		if (tail == t->nnodes)
			break;
		/* Disconnected without them: the first listed link out. */
		for (i = 0; i < nlinks; i++) {
			u32 a, pa, b, pb, nb;

			wc_link_ends(t, links[i], &a, &pa, &b, &pb);
			if (b == WC_NO_NODE || seen[a] == seen[b])
				continue;
			nb = seen[a] ? b : a;
			seen[nb] = 1;
			set[links[i]] = 1;
			queue[tail++] = nb;
			crossed++;
			break;
		}
		if (i == nlinks)
			break;	/* the topology itself: from_links refuses */
	}
	if (ncrossed)
		*ncrossed = crossed;
	err = wc_sptree_from_links(s, t, root, set);
out:
	free(set);
	free(dead);
	free(queue);
	free(seen);
	return err;
}

u32 wc_sptree_nchildren(const struct wc_sptree *s, u32 node)
{
	return (u32)__builtin_popcount(s->child_mask[node]);
}

u32 wc_sptree_lca(const struct wc_sptree *s, u32 a, u32 b)
{
	while (s->depth[a] > s->depth[b])
		a = s->parent[a];
	while (s->depth[b] > s->depth[a])
		b = s->parent[b];
	while (a != b) {
		a = s->parent[a];
		b = s->parent[b];
	}
	return a;
}

u32 wc_sptree_lca_set(const struct wc_sptree *s, const u32 *nodes, u32 n)
{
	u32 i, l;

	if (!n)
		return WC_NO_NODE;
	l = nodes[0];
	for (i = 1; i < n; i++)
		l = wc_sptree_lca(s, l, nodes[i]);
	return l;
}

u32 wc_sptree_distance(const struct wc_sptree *s, u32 a, u32 b)
{
	u32 l = wc_sptree_lca(s, a, b);

	return s->depth[a] + s->depth[b] - 2 * s->depth[l];
}

void wc_sptree_dist_from(const struct wc_sptree *s, u32 src, u32 skip_link,
			 u32 *dist, u32 *stack)
{
	const struct wc_topo *t = &s->topo;
	u32 sa = WC_NO_NODE, spa = 0, sb = WC_NO_NODE, spb = 0;
	u32 sp = 0, v, p;

	if (skip_link != WC_NO_LINK)
		wc_link_ends(t, skip_link, &sa, &spa, &sb, &spb);
	for (v = 0; v < s->nnodes; v++)
		dist[v] = U32_MAX;
	dist[src] = 0;
	stack[sp++] = src;
	while (sp) {
		v = stack[--sp];
		for (p = 0; p < t->nports; p++) {
			u32 nb;

			if (!wc_sptree_has_link(s, v, p))
				continue;
			if ((v == sa && p == spa) || (v == sb && p == spb))
				continue;
			nb = p == s->parent_port[v] ? s->parent[v] :
			     wc_topo_neighbor(t, v, p);
			if (dist[nb] != U32_MAX)
				continue;
			dist[nb] = dist[v] + 1;
			stack[sp++] = nb;
		}
	}
}

bool wc_sptree_link_is_up(const struct wc_sptree *s, u32 node, u32 port)
{
	u32 nb = wc_topo_neighbor(&s->topo, node, port);

	if (nb == WC_NO_NODE)
		return false;
	if (s->depth[nb] != s->depth[node])
		return s->depth[nb] < s->depth[node];
	return nb < node;
}

int wc_trees_metrics(const struct wc_sptree *const *trees, u32 ntrees,
		     struct wc_pair_metrics *m)
{
	u32 n = trees[0]->nnodes, src, v, k;
	u32 *dist, *best, *stack;

	memset(m, 0, sizeof(*m));
	dist = malloc(n * sizeof(*dist));
	best = malloc(n * sizeof(*best));
	stack = malloc(n * sizeof(*stack));
	if (!dist || !best || !stack) {
		free(dist);
		free(best);
		free(stack);
		return -ENOMEM;
	}
	for (src = 0; src < n; src++) {
		for (v = 0; v < n; v++)
			best[v] = U32_MAX;
		for (k = 0; k < ntrees; k++) {
			wc_sptree_dist_from(trees[k], src, WC_NO_LINK, dist,
					    stack);
			for (v = src + 1; v < n; v++)
				if (dist[v] < best[v])
					best[v] = dist[v];
		}
		for (v = src + 1; v < n; v++) {
			if (best[v] > m->cd)
				m->cd = best[v];
			m->dist_sum += best[v];
		}
	}
	m->npairs = (u64)n * (n - 1) / 2;
	m->ad = m->npairs ? (double)m->dist_sum / (double)m->npairs : 0.0;
	free(dist);
	free(best);
	free(stack);
	return 0;
}

void wc_sptree_root_branches(const struct wc_sptree *s, u32 *sizes,
			     u32 *nbranches)
{
	u32 p, k = 0;

	for (p = 0; p < s->topo.nports; p++) {
		u32 c;

		if (!((s->child_mask[s->root] >> p) & 1))
			continue;
		c = wc_topo_neighbor(&s->topo, s->root, p);
		sizes[k++] = s->post[c] - s->post_lo[c] + 1;
	}
	*nbranches = k;
}

int wc_sptree_router_table(const struct wc_sptree *s,
			   struct wc_tree_entry *e, u32 *node_of_pn)
{
	const struct wc_topo *t = &s->topo;
	u32 v, p;

	if (t->nports > WC_TREE_MAX_PORTS)
		return -EINVAL;
	for (v = 0; v < s->nnodes; v++) {
		struct wc_tree_entry *x = &e[v];

		memset(x, 0, sizeof(*x));
		x->pn = s->post[v];
		x->lo = s->post_lo[v];
		x->parent = v == s->root ? WC_TREE_NONE : s->parent[v];
		x->parent_port = v == s->root ? WC_TREE_NO_PORT :
				 s->parent_port[v];
		/* Port order is post-order visiting order: increasing intervals. */
		for (p = 0; p < t->nports; p++) {
			u32 c;

			if (!((s->child_mask[v] >> p) & 1))
				continue;
			c = wc_topo_neighbor(t, v, p);
			x->child_port[x->nchildren] = (u8)p;
			x->child[x->nchildren] = c;
			x->child_lo[x->nchildren] = s->post_lo[c];
			x->child_hi[x->nchildren] = s->post[c];
			x->nchildren++;
		}
		node_of_pn[s->post[v]] = v;
	}
	return 0;
}
