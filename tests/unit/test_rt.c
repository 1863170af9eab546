// SPDX-License-Identifier: GPL-2.0
/* Roskind-Tarjan edge-disjoint spanning trees (matroid partitioning). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "roskind_tarjan.h"

/* Independent check: every forest is acyclic (union-find over its edges). */
static bool forests_ok(u32 n, const struct wc_graph_edge *e, u32 m,
		       const u8 *forest, u32 k, u32 *sizes)
{
	u32 *uf = malloc(n * sizeof(*uf)), i, x, v;
	bool good = true;

	for (i = 0; i < k; i++) {
		sizes[i] = 0;
		for (v = 0; v < n; v++)
			uf[v] = v;
		for (x = 0; x < m; x++) {
			u32 a = e[x].a, b = e[x].b;

			if (forest[x] != i)
				continue;
			while (uf[a] != a)
				a = uf[a];
			while (uf[b] != b)
				b = uf[b];
			if (a == b)
				good = false;
			uf[a] = b;
			sizes[i]++;
		}
	}
	for (x = 0; x < m; x++)
		if (forest[x] != WC_RT_NONE && forest[x] >= k)
			good = false;
	free(uf);
	return good;
}

static void test_random_tori(void)
{
	static const u32 sizes[][2] = {
		{ 3, 3 }, { 4, 4 }, { 5, 5 }, { 2, 5 }, { 6, 4 }, { 9, 9 }, { 16, 16 },
	};
	u32 si, seed, bad = 0, runs = 0;

	for (si = 0; si < ARRAY_SIZE(sizes); si++) {
		struct wc_topo t;
		struct wc_graph_edge *e;
		u32 *order, m, fs[2];
		u8 *forest;

		wc_topo_init(&t, WC_TOPO_TORUS, 2, sizes[si], NULL);
		m = wc_topo_nlinks(&t);
		e = malloc(m * sizeof(*e));
		order = malloc(m * sizeof(*order));
		forest = malloc(m);
		wc_rt_topo_edges(&t, e, NULL);
		for (seed = 0; seed < 40; seed++) {
			int k;

			wc_rt_random_order(order, m, seed);
			k = wc_rt_max_trees(t.nnodes, e, m, order, forest);
			runs++;
			if (k != 2 || !forests_ok(t.nnodes, e, m, forest, 2, fs) ||
			    fs[0] != t.nnodes - 1 || fs[1] != t.nnodes - 1) {
				if (!bad++)
					diag("%ux%u seed %u: k=%d", sizes[si][0],
					     sizes[si][1], seed, k);
			}
		}
		free(e);
		free(order);
		free(forest);
	}
	ok(!bad, "%u random orders on tori: exactly 2 (the maximum, 2N links) edge-disjoint spanning trees", runs);
}

/* Graphs with known packing numbers. */
static void test_known_graphs(void)
{
	struct wc_graph_edge e[64];
	u32 order[64], m = 0, a, b, fs[8], seed, bad = 0;
	u8 forest[64];
	int k;

	/* K_6: floor(15 / 5) = 3 disjoint spanning trees (Nash-Williams). */
	for (a = 0; a < 6; a++)
		for (b = a + 1; b < 6; b++) {
			e[m].a = a;
			e[m].b = b;
			m++;
		}
	for (seed = 0; seed < 50; seed++) {
		wc_rt_random_order(order, m, seed);
		k = wc_rt_max_trees(6, e, m, order, forest);
		if (k != 3 || !forests_ok(6, e, m, forest, 3, fs) ||
		    fs[0] + fs[1] + fs[2] != 15)
			bad++;
	}
	ok(!bad, "K6: 3 edge-disjoint spanning trees for 50 random orders");

	/* Two triangles joined by one edge: only 1 tree. */
	m = 0;
	for (a = 0; a < 7; a++) {
		static const u32 ends[7][2] = {
			{ 0, 1 }, { 1, 2 }, { 2, 0 }, { 3, 4 }, { 4, 5 }, { 5, 3 }, { 2, 3 },
		};
		e[m].a = ends[a][0];
		e[m].b = ends[a][1];
		order[m] = m;
		m++;
	}
	k = wc_rt_max_trees(6, e, m, order, forest);
	is_int(k, 1, "two triangles joined by a bridge: one spanning tree");

	/* Disconnected: no spanning tree. */
	k = wc_rt_max_trees(6, e, 6, order, forest);
	is_int(k, 0, "two separate triangles: no spanning tree");

	/* Hypercube Q4: floor(4/2) = 2 trees. */
	{
		struct wc_topo t;
		u32 d = 4;
		struct wc_graph_edge qe[32];
		u32 qo[32], qm;
		u8 qf[32];

		wc_topo_init(&t, WC_TOPO_HYPERCUBE, 1, &d, NULL);
		qm = wc_rt_topo_edges(&t, qe, NULL);
		wc_rt_random_order(qo, qm, 7);
		is_int(wc_rt_max_trees(t.nnodes, qe, qm, qo, qf), 2,
		       "hypercube Q4: 2 edge-disjoint spanning trees");
	}
	ok(wc_rt_partition(6, e, m, order, m, 0, forest) == -EINVAL,
	   "k = 0 rejected");
	order[0] = 99;
	ok(wc_rt_partition(6, e, m, order, m, 2, forest) == -EINVAL,
	   "order entry out of range rejected");
}

/*
 * Section 5.3's special order (Fig. 7).  A small N x N torus with the
 * edge index of every H_{x,y} = (x,y)-(x+1,y) and V_{x,y} = (x,y)-(x,y+1).
 */
struct sq_torus {
	struct wc_topo t;
	u32 n, m;
	struct wc_graph_edge *e;
	u32 *h, *v;		/* edge index of H_{x,y}, V_{x,y} at x + n*y */
};

static void sq_init(struct sq_torus *q, u32 n)
{
	u32 dims[2] = { n, n }, *link_of, *edge_of, x;

	wc_topo_init(&q->t, WC_TOPO_TORUS, 2, dims, NULL);
	q->n = n;
	q->m = wc_topo_nlinks(&q->t);
	q->e = malloc(q->m * sizeof(*q->e));
	q->h = malloc(n * n * sizeof(u32));
	q->v = malloc(n * n * sizeof(u32));
	link_of = malloc(q->m * sizeof(u32));
	edge_of = malloc(wc_link_space(&q->t) * sizeof(u32));
	wc_rt_topo_edges(&q->t, q->e, link_of);
	for (x = 0; x < q->m; x++)
		edge_of[link_of[x]] = x;
	for (x = 0; x < n * n; x++) {
		q->h[x] = edge_of[wc_link_id(&q->t, x, 0)];	/* port 0: +x */
		q->v[x] = edge_of[wc_link_id(&q->t, x, 2)];	/* port 2: +y */
	}
	free(link_of);
	free(edge_of);
}

static void sq_free(struct sq_torus *q)
{
	free(q->e);
	free(q->h);
	free(q->v);
}

/* Degree of every node in forest @f. */
static void forest_degrees(const struct sq_torus *q, const u8 *forest, u32 f,
			   u32 *deg)
{
	u32 x;

	memset(deg, 0, q->n * q->n * sizeof(*deg));
	for (x = 0; x < q->m; x++)
		if (forest[x] == f) {
			deg[q->e[x].a]++;
			deg[q->e[x].b]++;
		}
}

/*
 * With H taken row by row (row i from column i), first fit alone builds
 * the trees, no swap is ever needed; worked out by hand:
 *  - row r's H links H_{r..r-2, r} form a path from (r,r) to (r-1,r) in
 *    T1; the closing link H_{r-1,r} goes to T2;
 *  - V_{j,j} (j <= N-2) joins row j+1 to T1 at the end of both row
 *    paths: T1 is a staircase snake from (N-1,0) to (N-1,N-1);
 *  - every other listed V link is in T2: column c (c <= N-3) minus
 *    V_{c,c} is a path from (c,c+1) round the wrap to (c,c), and
 *    H_{c-1,c} chains the columns; T2 runs from (N-2,N-1) to (N-2,0);
 *  - V_{N-2,N-1} and V_{N-1,N-1} are left out: the 2N^2-2 links before
 *    them are independent (a torus minus any two links still has two
 *    edge-disjoint spanning trees: edge connectivity 4, Nash-Williams).
 */
static u8 expected_forest(const struct sq_torus *q, u32 x)
{
	u32 n = q->n, c, r;

	for (c = 0; c < n; c++)
		for (r = 0; r < n; r++) {
			if (q->h[c + n * r] == x)
				return c == (r + n - 1) % n;
			if (q->v[c + n * r] != x)
				continue;
			if (r == n - 1 && c >= n - 2)
				return WC_RT_NONE;
			return c != r;
		}
	return 0xfe;
}

static void test_special_order(void)
{
	u32 n, bad_order = 0, bad_trees = 0, bad_part = 0, bad_ham = 0;
	u32 bad_ends = 0, bad_sptree = 0, sizes = 0;

	for (n = 3; n <= 18; n++) {
		struct sq_torus q;
		u32 *order, *seen, *deg, x, f, fs[2], ends[2][2];
		struct wc_sptree tr[2];
		u8 *forest;
		int c, placed;

		sq_init(&q, n);
		order = malloc(q.m * sizeof(*order));
		seen = calloc(q.m, sizeof(*seen));
		deg = malloc(n * n * sizeof(*deg));
		forest = malloc(q.m);
		sizes++;
		c = wc_rt_special_order(&q.t, order);
		for (x = 0; x < (u32)(c > 0 ? c : 0); x++)
			seen[order[x]]++;
		for (x = 0; x < q.m && c == (int)q.m; x++)
			if (seen[x] != 1)
				c = -1;
		if (c != (int)q.m) {
			bad_order++;
			goto next;
		}
		placed = wc_rt_partition(n * n, q.e, q.m, order, q.m, 2, forest);
		if (placed != (int)(2 * (n * n - 1)) ||
		    !forests_ok(n * n, q.e, q.m, forest, 2, fs) ||
		    fs[0] != n * n - 1 || fs[1] != n * n - 1) {
			bad_trees++;
			goto next;
		}
		for (x = 0; x < q.m; x++)
			if (forest[x] != expected_forest(&q, x))
				break;
		if (x < q.m) {
			if (!bad_part++)
				diag("%ux%u: link %u (%u-%u) in forest %d, expected %d",
				     n, n, x, q.e[x].a, q.e[x].b, forest[x],
				     expected_forest(&q, x));
		}
		/* A spanning tree with no node of degree 3 or 4 is a path. */
		for (f = 0; f < 2; f++) {
			u32 nends = 0;

			forest_degrees(&q, forest, f, deg);
			for (x = 0; x < n * n; x++) {
				if (deg[x] > 2)
					break;
				if (deg[x] == 1 && nends < 2)
					ends[f][nends++] = x;
			}
			if (x < n * n || nends != 2) {
				bad_ham++;
				diag("%ux%u: tree %u is not a Hamilton path", n, n, f + 1);
				goto next;
			}
		}
		/* Ends (node id x + n*y, smaller id first) as worked out above. */
		if (ends[0][0] != n - 1 || ends[0][1] != n * n - 1 ||
		    ends[1][0] != n - 2 || ends[1][1] != n * n - 2) {
			bad_ends++;
			diag("%ux%u: ends %u,%u and %u,%u", n, n, ends[0][0],
			     ends[0][1], ends[1][0], ends[1][1]);
		}
		/* The same through the rooted-tree API the tools use. */
		if (wc_rt_torus_trees(&q.t, order, q.m, n - 1, tr)) {
			bad_sptree++;
			goto next;
		}
		/* Rooted at (N-1,0), an end of T1: T1 is a single chain. */
		if (wc_sptree_nchildren(&tr[0], n - 1) != 1)
			bad_sptree++;
		for (f = 0; f < 2; f++) {
			for (x = 0; x < n * n; x++)
				if (wc_sptree_nchildren(&tr[f], x) +
				    (x != tr[f].root) > 2)
					bad_sptree++;
			wc_sptree_free(&tr[f]);
		}
next:
		free(order);
		free(seen);
		free(deg);
		free(forest);
		sq_free(&q);
	}
	ok(!bad_order, "%u sizes (3x3..18x18): the section 5.3 order lists every link once", sizes);
	ok(!bad_trees, "section 5.3 order: two edge-disjoint spanning trees on every size");
	ok(!bad_part, "section 5.3 order: first fit gives exactly the hand-derived partition (row paths + staircase, columns + diagonal, V_{N-2,N-1} and V_{N-1,N-1} unused)");
	ok(!bad_ham, "Fig. 7: both trees are Hamilton paths on every size 3..18");
	ok(!bad_ends, "Fig. 7: path ends (N-1,0)-(N-1,N-1) and (N-2,N-1)-(N-2,0)");
	ok(!bad_sptree, "wc_rt_torus_trees: the same two paths as rooted trees");
}

/*
 * The text's H list read with section 4's H_{column,row} (i the column,
 * outer): H_{i,j}, i = 0..N-1, j = i..i-1, i.e. column by column.  Every
 * row's closing link is then the wrap-around H_{N-1,r}, and V_{1,1} joins
 * row 2 at an interior node: the 5x5 figure does not come out.
 */
static void test_literal_reading(void)
{
	u32 n, hamilton = 0, sizes = 0;

	for (n = 3; n <= 9; n++) {
		struct sq_torus q;
		u32 *order, *deg, x, i, j, s, f, c = 0, maxdeg = 0, fs[2];
		u8 *forest;
		int placed;

		sq_init(&q, n);
		order = malloc(q.m * sizeof(*order));
		deg = malloc(n * n * sizeof(*deg));
		forest = malloc(q.m);
		for (i = 0; i < n; i++)
			for (s = 0; s < n; s++)
				order[c++] = q.h[i + n * ((i + s) % n)];
		for (j = 0; j + 1 < n; j++)
			for (s = 0; s < n; s++)
				order[c++] = q.v[(j + s) % n + n * j];
		for (i = 0; i < n; i++)
			order[c++] = q.v[i + n * (n - 1)];
		placed = wc_rt_partition(n * n, q.e, q.m, order, q.m, 2, forest);
		sizes++;
		if (placed == (int)(2 * (n * n - 1)) &&
		    forests_ok(n * n, q.e, q.m, forest, 2, fs)) {
			for (f = 0; f < 2; f++) {
				forest_degrees(&q, forest, f, deg);
				for (x = 0; x < n * n; x++)
					if (deg[x] > maxdeg)
						maxdeg = deg[x];
			}
			hamilton += maxdeg <= 2;
		} else {
			hamilton += 1000;	/* not even two trees: fail below */
		}
		free(order);
		free(deg);
		free(forest);
		sq_free(&q);
	}
	ok(!hamilton, "%u sizes: with H read column by column the trees are not Hamilton paths (why we read H row by row)", sizes);
}

int main(void)
{
	test_random_tori();
	test_known_graphs();
	test_special_order();
	test_literal_reading();
	return done_testing();
}
