// SPDX-License-Identifier: GPL-2.0
/* Topology model: links are symmetric, coordinates round-trip, and the
 * closed-form distances equal breadth-first search on every kind.
 */
#include "tap.h"
#include "topology.h"

static u32 bfs_check(const struct wc_topo *t, u32 src, u32 *dist, u32 *queue)
{
	u32 head = 0, tail = 0, n, p, bad = 0;

	for (n = 0; n < t->nnodes; n++)
		dist[n] = U32_MAX;
	dist[src] = 0;
	queue[tail++] = src;
	while (head < tail) {
		u32 u = queue[head++];

		for (p = 0; p < t->nports; p++) {
			u32 v = wc_topo_neighbor(t, u, p);

			if (v != WC_NO_NODE && dist[v] == U32_MAX) {
				dist[v] = dist[u] + 1;
				queue[tail++] = v;
			}
		}
	}
	for (n = 0; n < t->nnodes; n++)
		if (dist[n] != wc_topo_distance(t, src, n))
			bad++;
	return bad;
}

static void check_topo(u32 kind, u32 ndims, const u32 *dims, const char *name,
		       u32 want_nodes, u32 want_links)
{
	struct wc_topo t;
	const char *why = NULL;
	u32 n, p, asym = 0, rt = 0, bad_dist = 0, coords[WC_MAX_COORDS];
	u32 *dist, *queue;

	if (!ok(wc_topo_init(&t, kind, ndims, dims, &why) == 0, "%s: init", name))
		return;
	is_int(t.nnodes, want_nodes, "%s: %u nodes", name, want_nodes);
	is_int(wc_topo_nlinks(&t), want_links, "%s: %u links", name, want_links);
	for (n = 0; n < t.nnodes; n++) {
		for (p = 0; p < t.nports; p++) {
			u32 v = wc_topo_neighbor(&t, n, p);

			if (v == WC_NO_NODE)
				continue;
			if (wc_topo_neighbor(&t, v, wc_topo_reverse_port(&t, n, p)) != n)
				asym++;
			if (wc_topo_distance(&t, n, v) != 1)
				asym++;
		}
		wc_topo_coords(&t, n, coords);
		if (wc_topo_node(&t, coords) != n)
			rt++;
	}
	is_int(asym, 0, "%s: links symmetric, reverse ports right", name);
	is_int(rt, 0, "%s: coordinates round-trip", name);
	dist = calloc(t.nnodes, sizeof(*dist));
	queue = calloc(t.nnodes, sizeof(*queue));
	for (n = 0; n < t.nnodes; n += (t.nnodes > 200 ? 37 : 1))
		bad_dist += bfs_check(&t, n, dist, queue);
	is_int(bad_dist, 0, "%s: distance equals BFS", name);
	free(dist);
	free(queue);
}

int main(void)
{
	struct wc_topo t;
	const char *why = NULL;
	u32 d8[] = { 8 }, d44[] = { 4, 4 }, d333[] = { 3, 3, 3 };
	u32 d53[] = { 5, 3 }, d444[] = { 4, 4, 4 }, d2[] = { 2, 3 };
	u32 h4[] = { 4 }, s4[] = { 4 }, s5[] = { 5 }, s2[] = { 2 };
	u32 bad0[] = { 1, 4 }, many[] = { 100, 100 }, s8[] = { 8 };
	u32 c[WC_MAX_COORDS];
	u8 perm[] = { 1, 3, 2, 4 }, back[4];

	check_topo(WC_TOPO_MESH, 1, d8, "mesh 8", 8, 7);
	check_topo(WC_TOPO_MESH, 2, d44, "mesh 4x4", 16, 24);
	check_topo(WC_TOPO_MESH, 3, d333, "mesh 3x3x3", 27, 54);
	check_topo(WC_TOPO_TORUS, 1, d8, "torus 8", 8, 8);
	check_topo(WC_TOPO_TORUS, 2, d53, "torus 5x3", 15, 30);
	check_topo(WC_TOPO_TORUS, 3, d444, "torus 4x4x4", 64, 192);
	check_topo(WC_TOPO_TORUS, 2, d2, "torus 2x3 (parallel wrap links)", 6, 12);
	check_topo(WC_TOPO_HYPERCUBE, 1, h4, "hypercube 4", 16, 32);
	check_topo(WC_TOPO_STAR, 1, s2, "star 2", 2, 1);
	check_topo(WC_TOPO_STAR, 1, s4, "star 4", 24, 36);
	check_topo(WC_TOPO_STAR, 1, s5, "star 5", 120, 240);

	ok(wc_topo_init(&t, WC_TOPO_MESH, 2, bad0, &why) == -EINVAL && why,
	   "dimension of 1 node refused: %s", why ? why : "");
	ok(wc_topo_init(&t, WC_TOPO_MESH, 4, d444, &why) == -EINVAL,
	   "4 dimensions refused");
	ok(wc_topo_init(&t, WC_TOPO_TORUS, 2, many, &why) == -EINVAL,
	   "more than 5040 nodes refused");
	ok(wc_topo_init(&t, WC_TOPO_STAR, 1, s8, &why) == -EINVAL,
	   "star n 8 refused");
	ok(wc_topo_init(&t, 99, 1, s4, &why) == -EINVAL, "unknown kind refused");
	/* Found by tests/fuzz/fuzz_topo: the star graph ignored the bound. */
	ok(wc_topo_init_bounded(&t, WC_TOPO_STAR, 1, s4, 23, &why) == -EINVAL &&
	   wc_topo_init_bounded(&t, WC_TOPO_STAR, 1, s4, 24, &why) == 0 &&
	   wc_topo_init_bounded(&t, WC_TOPO_HYPERCUBE, 1, h4, 15, &why) == -EINVAL &&
	   wc_topo_init_bounded(&t, WC_TOPO_MESH, 2, d44, 15, &why) == -EINVAL,
	   "a node bound below the size refused on every kind");

	/* Star node ids are lexicographic ranks: 1234 is 0, 4321 is 23. */
	is_int(wc_star_rank(4, perm), 2, "rank of 1324 is 2");
	wc_star_unrank(4, 23, back);
	ok(back[0] == 4 && back[1] == 3 && back[2] == 2 && back[3] == 1,
	   "node 23 of S_4 is 4321");
	wc_topo_init(&t, WC_TOPO_STAR, 1, s4, NULL);
	wc_topo_coords(&t, 2, c);
	ok(c[0] == 1 && c[1] == 3 && c[2] == 2 && c[3] == 4,
	   "star coordinates are the permutation's symbols");
	/* Port i swaps the first symbol with position i+1: 1324 -> 2314. */
	wc_topo_coords(&t, wc_topo_neighbor(&t, 2, 1), c);
	ok(c[0] == 2 && c[1] == 3 && c[2] == 1 && c[3] == 4,
	   "star port 1 swaps positions 0 and 2");
	return done_testing();
}
