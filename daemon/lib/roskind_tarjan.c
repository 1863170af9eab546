// SPDX-License-Identifier: GPL-2.0
/*
 * Matroid partitioning into forests (Roskind-Tarjan / Edmonds); see
 * roskind_tarjan.h.
 *
 * Search: edge g (first the new edge e) is "offered" to every forest F_i
 * it is not in.  If g joins two components of F_i, the search succeeds: g
 * enters F_i, and going back along the labels each edge that was displaced
 * enters the forest of the edge that displaced it.  Otherwise every edge f
 * of the cycle that g closes in F_i, not yet labelled, is labelled (g, i):
 * f can leave F_i if g enters it; f is offered in turn.  Breadth-first
 * order makes the swap sequence shortest, which keeps every intermediate
 * forest acyclic (Edmonds' argument).  Swaps inside a forest never change
 * its components, so a union-find per forest answers "joins two
 * components" throughout; only the rooted form used to walk cycles needs
 * rebuilding after a change.
 */
#include <stdlib.h>

#include "roskind_tarjan.h"

struct rt_forest {
	u32 *uf;		/* union-find parent */
	u32 *up_node;		/* rooted form: parent node (self at roots) */
	u32 *up_edge;		/* edge to the parent */
	u32 *depth;
	u32 nedges;
	bool dirty;		/* rooted form out of date */
};

struct rt {
	u32 n, m, k;
	const struct wc_graph_edge *e;
	u8 *forest;
	struct rt_forest f[WC_RT_MAX_FORESTS];
	u32 *label_prev, *queue, *stamp, cur_stamp;
	u8 *label_forest;
	u32 *adj_start, *adj, *bfs;	/* scratch for rebuilding */
};

static u32 uf_find(u32 *uf, u32 x)
{
	while (uf[x] != x) {
		uf[x] = uf[uf[x]];
		x = uf[x];
	}
	return x;
}

/* Rebuild the rooted form of forest @i from the current edge assignment. */
static void rebuild(struct rt *r, u32 i)
{
	struct rt_forest *f = &r->f[i];
	u32 v, x, head, tail;

	memset(r->adj_start, 0, (r->n + 1) * sizeof(u32));
	for (x = 0; x < r->m; x++) {
		if (r->forest[x] != i)
			continue;
		r->adj_start[r->e[x].a + 1]++;
		r->adj_start[r->e[x].b + 1]++;
	}
	for (v = 0; v < r->n; v++)
		r->adj_start[v + 1] += r->adj_start[v];
	/* Fill using up_edge as a per-node cursor, reset below. */
	for (v = 0; v < r->n; v++)
		f->up_edge[v] = r->adj_start[v];
	for (x = 0; x < r->m; x++) {
		if (r->forest[x] != i)
			continue;
		r->adj[f->up_edge[r->e[x].a]++] = x;
		r->adj[f->up_edge[r->e[x].b]++] = x;
	}
	for (v = 0; v < r->n; v++)
		f->up_node[v] = WC_NO_NODE;
	for (v = 0; v < r->n; v++) {
		if (f->up_node[v] != WC_NO_NODE)
			continue;
		f->up_node[v] = v;
		f->up_edge[v] = U32_MAX;
		f->depth[v] = 0;
		head = 0;
		tail = 0;
		r->bfs[tail++] = v;
		while (head < tail) {
			u32 u = r->bfs[head++], j;

			for (j = r->adj_start[u]; j < r->adj_start[u + 1]; j++) {
				u32 ed = r->adj[j];
				u32 w = r->e[ed].a == u ? r->e[ed].b : r->e[ed].a;

				if (ed == f->up_edge[u])
					continue;
				f->up_node[w] = u;
				f->up_edge[w] = ed;
				f->depth[w] = f->depth[u] + 1;
				r->bfs[tail++] = w;
			}
		}
	}
	f->dirty = false;
}

static void label(struct rt *r, u32 x, u32 prev, u32 i, u32 *tail)
{
	if (r->stamp[x] == r->cur_stamp)
		return;
	r->stamp[x] = r->cur_stamp;
	r->label_prev[x] = prev;
	r->label_forest[x] = (u8)i;
	r->queue[(*tail)++] = x;
}

/* Apply the swaps that end with @g entering forest @i. */
static void augment(struct rt *r, u32 g, u32 i, u32 start)
{
	struct rt_forest *f = &r->f[i];
	u32 j;

	f->uf[uf_find(f->uf, r->e[g].a)] = uf_find(f->uf, r->e[g].b);
	f->nedges++;
	for (;;) {
		u8 old = r->forest[g];

		r->forest[g] = (u8)i;
		r->f[i].dirty = true;
		if (g == start)
			break;
		/* g left forest old == label_forest[g], taken by label_prev[g]. */
		i = old;
		g = r->label_prev[g];
	}
	for (j = 0; j < r->k; j++)
		r->f[j].dirty = true;
}

static bool search(struct rt *r, u32 start)
{
	u32 head = 0, tail = 0, i;

	r->cur_stamp++;
	r->stamp[start] = r->cur_stamp;
	r->queue[tail++] = start;
	while (head < tail) {
		u32 g = r->queue[head++];
		u32 a = r->e[g].a, b = r->e[g].b;

		for (i = 0; i < r->k; i++) {
			struct rt_forest *f = &r->f[i];

			if (r->forest[g] == i)
				continue;
			if (uf_find(f->uf, a) != uf_find(f->uf, b)) {
				augment(r, g, i, start);
				return true;
			}
			if (f->dirty)
				rebuild(r, i);
			/* Walk the tree path a..b in F_i: the cycle g closes. */
			{
				u32 x = a, y = b;

				while (x != y) {
					if (f->depth[x] >= f->depth[y]) {
						label(r, f->up_edge[x], g, i, &tail);
						x = f->up_node[x];
					} else {
						label(r, f->up_edge[y], g, i, &tail);
						y = f->up_node[y];
					}
				}
			}
		}
	}
	return false;
}

static void rt_free(struct rt *r)
{
	u32 i;

	for (i = 0; i < WC_RT_MAX_FORESTS; i++) {
		free(r->f[i].uf);
		free(r->f[i].up_node);
		free(r->f[i].up_edge);
		free(r->f[i].depth);
	}
	free(r->label_prev);
	free(r->queue);
	free(r->stamp);
	free(r->label_forest);
	free(r->adj_start);
	free(r->adj);
	free(r->bfs);
}

int wc_rt_partition(u32 nnodes, const struct wc_graph_edge *edges, u32 nedges,
		    const u32 *order, u32 norder, u32 k, u8 *forest)
{
	struct rt r;
	u32 i, v, x, placed = 0;
	bool oom = false;

	if (!nnodes || !k || k > WC_RT_MAX_FORESTS)
		return -EINVAL;
	for (x = 0; x < nedges; x++)
		if (edges[x].a >= nnodes || edges[x].b >= nnodes)
			return -EINVAL;
	for (x = 0; x < norder; x++)
		if (order[x] >= nedges)
			return -EINVAL;
	memset(&r, 0, sizeof(r));
	r.n = nnodes;
	r.m = nedges;
	r.k = k;
	r.e = edges;
	r.forest = forest;
	for (i = 0; i < k; i++) {
		r.f[i].uf = malloc(nnodes * sizeof(u32));
		r.f[i].up_node = malloc(nnodes * sizeof(u32));
		r.f[i].up_edge = malloc(nnodes * sizeof(u32));
		r.f[i].depth = malloc(nnodes * sizeof(u32));
		oom |= !r.f[i].uf || !r.f[i].up_node || !r.f[i].up_edge ||
		       !r.f[i].depth;
	}
	r.label_prev = malloc((nedges + 1) * sizeof(u32));
	r.queue = malloc((nedges + 1) * sizeof(u32));
	r.stamp = calloc(nedges + 1, sizeof(u32));
	r.label_forest = malloc(nedges + 1);
	r.adj_start = malloc((nnodes + 1) * sizeof(u32));
	r.adj = malloc((2 * nedges + 1) * sizeof(u32));
	r.bfs = malloc(nnodes * sizeof(u32));
	if (oom || !r.label_prev || !r.queue || !r.stamp || !r.label_forest ||
	    !r.adj_start || !r.adj || !r.bfs) {
		rt_free(&r);
		return -ENOMEM;
	}
	for (i = 0; i < k; i++) {
		for (v = 0; v < nnodes; v++)
			r.f[i].uf[v] = v;
		r.f[i].dirty = true;
	}
	memset(forest, WC_RT_NONE, nedges);

	for (x = 0; x < norder; x++) {
		u32 ed = order[x], full = 0;

		if (forest[ed] != WC_RT_NONE || edges[ed].a == edges[ed].b)
			continue;	/* repeated in the order, or a loop */
		for (i = 0; i < k; i++) {
			struct rt_forest *f = &r.f[i];
			u32 ra = uf_find(f->uf, edges[ed].a);
			u32 rb = uf_find(f->uf, edges[ed].b);

			if (ra != rb) {
				f->uf[ra] = rb;
				f->nedges++;
				f->dirty = true;
				forest[ed] = (u8)i;
				break;
			}
			full += f->nedges == nnodes - 1;
		}
		if (forest[ed] == WC_RT_NONE && full < k)
			search(&r, ed);
		placed += forest[ed] != WC_RT_NONE;
	}
	rt_free(&r);
	return (int)placed;
}

int wc_rt_max_trees(u32 nnodes, const struct wc_graph_edge *edges, u32 nedges,
		    const u32 *order, u8 *forest)
{
	u32 k;
	int placed;

	if (nnodes < 2)
		return nnodes ? 1 : -EINVAL;
	k = nedges / (nnodes - 1);
	if (k > WC_RT_MAX_FORESTS)
		k = WC_RT_MAX_FORESTS;
	for (; k >= 1; k--) {
		placed = wc_rt_partition(nnodes, edges, nedges, order, nedges,
					 k, forest);
		if (placed < 0)
			return placed;
		if ((u32)placed == k * (nnodes - 1))
			return (int)k;
	}
	return 0;
}

u32 wc_rt_topo_edges(const struct wc_topo *t, struct wc_graph_edge *edges,
		     u32 *link_of_edge)
{
	u32 l, m = 0, space = wc_link_space(t);

	for (l = 0; l < space; l++) {
		u32 a, pa, b, pb;

		if (!wc_link_real(t, l))
			continue;
		wc_link_ends(t, l, &a, &pa, &b, &pb);
		edges[m].a = a;
		edges[m].b = b;
		if (link_of_edge)
			link_of_edge[m] = l;
		m++;
	}
	return m;
}

static u64 splitmix64(u64 *state)
{
	u64 z = (*state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

void wc_rt_random_order(u32 *order, u32 n, u64 seed)
{
	u64 state = seed;
	u32 i;

	for (i = 0; i < n; i++)
		order[i] = i;
	for (i = n; i > 1; i--) {
		u32 j = (u32)(splitmix64(&state) % i), tmp = order[i - 1];

		order[i - 1] = order[j];
		order[j] = tmp;
	}
}

int wc_rt_special_order(const struct wc_topo *t, u32 *order)
{
	u32 n, i, j, s, c = 0, m, nl;
	u32 *edge_of_link, *link_of;

	if (t->kind != WC_TOPO_TORUS || t->ndims != 2 ||
	    t->dims[0] != t->dims[1] || t->dims[0] < 3)
		return -EINVAL;
	n = t->dims[0];
	nl = wc_topo_nlinks(t);
	edge_of_link = malloc(wc_link_space(t) * sizeof(u32));
	link_of = malloc(nl * sizeof(u32));
	if (!edge_of_link || !link_of) {
		free(edge_of_link);
		free(link_of);
		return -ENOMEM;
	}
	{
		struct wc_graph_edge *edges = malloc(nl * sizeof(*edges));

		if (!edges) {
			free(edge_of_link);
			free(link_of);
			return -ENOMEM;
		}
		m = wc_rt_topo_edges(t, edges, link_of);
		free(edges);
	}
	for (i = 0; i < m; i++)
		edge_of_link[link_of[i]] = i;
	/* H_{x,y}: (x, y)-(x+1, y) leaves through port 0; V_{x,y} through 2. */
#define H_EDGE(x, y)	edge_of_link[wc_link_id(t, (x) + n * (y), 0)]
#define V_EDGE(x, y)	edge_of_link[wc_link_id(t, (x) + n * (y), 2)]
	/*
	 * Row by row like the V list: in row i, from column i onwards.  Read
	 * with section 4's H_{column,row}, the text would list the H links
	 * column by column instead, and Fig. 7 does not come out (see
	 * Documentation/dstm.rst).
	 */
	for (i = 0; i < n; i++)
		for (s = 0; s < n; s++)
			order[c++] = H_EDGE((i + s) % n, i);
	for (j = 0; j + 1 < n; j++)
		for (s = 0; s < n; s++)
			order[c++] = V_EDGE((j + s) % n, j);
	for (i = 0; i + 1 < n; i++)
		order[c++] = V_EDGE(i, n - 1);
	order[c++] = V_EDGE(n - 1, n - 1);
#undef H_EDGE
#undef V_EDGE
	free(edge_of_link);
	free(link_of);
	return (int)c;
}

int wc_rt_torus_trees(const struct wc_topo *t, const u32 *order, u32 norder,
		      u32 root, struct wc_sptree trees[2])
{
	u32 nl = wc_topo_nlinks(t), m, x, k;
	struct wc_graph_edge *edges = malloc(nl * sizeof(*edges));
	u32 *link_of = malloc(nl * sizeof(*link_of));
	u8 *forest = malloc(nl), *set = calloc(wc_link_space(t), 1);
	int placed, err = -ENOMEM;

	if (!edges || !link_of || !forest || !set)
		goto out;
	m = wc_rt_topo_edges(t, edges, link_of);
	placed = wc_rt_partition(t->nnodes, edges, m, order, norder, 2, forest);
	err = placed < 0 ? placed : 0;
	if (!err && (u32)placed != 2 * (t->nnodes - 1))
		err = -EINVAL;
	for (k = 0; k < 2 && !err; k++) {
		memset(set, 0, wc_link_space(t));
		for (x = 0; x < m; x++)
			if (forest[x] == k)
				set[link_of[x]] = 1;
		err = wc_sptree_from_links(&trees[k], t, root, set);
		if (err && k)
			wc_sptree_free(&trees[0]);
	}
out:
	free(edges);
	free(link_of);
	free(forest);
	free(set);
	return err;
}
