// SPDX-License-Identifier: GPL-2.0
/* Roskind-Tarjan edge-disjoint spanning trees (matroid partitioning). */
#include <stdio.h>
#include <stdlib.h>

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

/* Section 5.3's special order. */
static void test_special_order(void)
{
	u32 n;

	for (n = 3; n <= 9; n += 2) {
		struct wc_topo t;
		u32 dims[2] = { n, n }, *order, m, v, k, maxdeg[2] = { 0, 0 };
		u32 *seen;
		struct wc_sptree tr[2];
		int c;

		wc_topo_init(&t, WC_TOPO_TORUS, 2, dims, NULL);
		m = wc_topo_nlinks(&t);
		order = malloc(m * sizeof(*order));
		seen = calloc(m, sizeof(*seen));
		c = wc_rt_special_order(&t, order);
		for (v = 0; v < (u32)(c > 0 ? c : 0); v++)
			seen[order[v]]++;
		for (v = 0; v < m && c == (int)m; v++)
			if (seen[v] != 1)
				c = -1;
		ok(c == (int)m, "%ux%u: the section 5.3 order lists every link once", n, n);
		if (c == (int)m && !wc_rt_torus_trees(&t, order, m, 0, tr)) {
			for (k = 0; k < 2; k++) {
				for (v = 0; v < t.nnodes; v++) {
					u32 deg = wc_sptree_nchildren(&tr[k], v) +
						  (v != tr[k].root);

					if (deg > maxdeg[k])
						maxdeg[k] = deg;
				}
				wc_sptree_free(&tr[k]);
			}
			ok(1, "%ux%u: the special order gives two spanning trees", n, n);
			diag("%ux%u special order: max degree %u and %u (Hamilton paths need 2; see Documentation/dstm.rst)",
			     n, n, maxdeg[0], maxdeg[1]);
		} else {
			ok(0, "%ux%u: the special order gives two spanning trees", n, n);
		}
		free(order);
		free(seen);
	}
}

int main(void)
{
	test_random_tori();
	test_known_graphs();
	test_special_order();
	return done_testing();
}
