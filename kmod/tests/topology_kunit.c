// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for the topology model (kmod/engine/topology.c), run inside
 * the kernel with the same sources the module is built from.
 *
 * Every property is checked exhaustively on small instances of each
 * topology kind: links are symmetric and the reverse port leads back,
 * coordinates round-trip, the closed-form distance equals a breadth-first
 * search, the link count matches the ports in use, and the diameters are
 * the textbook ones (star graph: floor(3(n-1)/2), Akers et al.).
 */
#include <kunit/test.h>
#include <linux/slab.h>

#include "topology.h"

struct topo_case {
	const char *name;
	u32 kind;
	u32 ndims;
	u32 dims[WC_MAX_DIMS];
	u32 diameter;		/* from the textbook formula */
	u32 nlinks;		/* from the textbook formula */
};

static const struct topo_case topo_cases[] = {
	{ "mesh 8", WC_TOPO_MESH, 1, { 8 }, 7, 7 },
	{ "mesh 2", WC_TOPO_MESH, 1, { 2 }, 1, 1 },
	{ "mesh 4x4", WC_TOPO_MESH, 2, { 4, 4 }, 6, 24 },
	{ "mesh 3x5", WC_TOPO_MESH, 2, { 3, 5 }, 6, 22 },
	{ "mesh 3x3x3", WC_TOPO_MESH, 3, { 3, 3, 3 }, 6, 54 },
	{ "mesh 2x3x4", WC_TOPO_MESH, 3, { 2, 3, 4 }, 6, 46 },
	{ "torus 5", WC_TOPO_TORUS, 1, { 5 }, 2, 5 },
	{ "torus 4x4", WC_TOPO_TORUS, 2, { 4, 4 }, 4, 32 },
	{ "torus 3x5", WC_TOPO_TORUS, 2, { 3, 5 }, 3, 30 },
	{ "torus 8x8", WC_TOPO_TORUS, 2, { 8, 8 }, 8, 128 },
	{ "torus 4x4x4", WC_TOPO_TORUS, 3, { 4, 4, 4 }, 6, 192 },
	{ "torus 3x3x3", WC_TOPO_TORUS, 3, { 3, 3, 3 }, 3, 81 },
	{ "hypercube 1", WC_TOPO_HYPERCUBE, 1, { 1 }, 1, 1 },
	{ "hypercube 4", WC_TOPO_HYPERCUBE, 1, { 4 }, 4, 32 },
	{ "hypercube 6", WC_TOPO_HYPERCUBE, 1, { 6 }, 6, 192 },
	{ "star 2", WC_TOPO_STAR, 1, { 2 }, 1, 1 },
	{ "star 3", WC_TOPO_STAR, 1, { 3 }, 3, 6 },
	{ "star 4", WC_TOPO_STAR, 1, { 4 }, 4, 36 },
	{ "star 5", WC_TOPO_STAR, 1, { 5 }, 6, 240 },
};

static void topo_case_desc(const struct topo_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(topo, topo_cases, topo_case_desc);

static void init_case(struct kunit *test, struct wc_topo *t)
{
	const struct topo_case *c = test->param_value;
	const char *why = NULL;

	KUNIT_ASSERT_EQ_MSG(test, wc_topo_init(t, c->kind, c->ndims, c->dims, &why), 0,
			    "%s: %s", c->name, why ? why : "");
}

/* Every link leads back over its reverse port; counts add up. */
static void topo_links_symmetric(struct kunit *test)
{
	const struct topo_case *c = test->param_value;
	struct wc_topo t;
	u32 node, port, ends = 0;

	init_case(test, &t);
	for (node = 0; node < t.nnodes; node++) {
		for (port = 0; port < t.nports; port++) {
			u32 nb = wc_topo_neighbor(&t, node, port);
			u32 back;

			if (nb == WC_NO_NODE)
				continue;
			ends++;
			KUNIT_ASSERT_LT(test, nb, t.nnodes);
			KUNIT_EXPECT_NE(test, nb, node);
			back = wc_topo_reverse_port(&t, node, port);
			KUNIT_ASSERT_LT(test, back, t.nports);
			KUNIT_EXPECT_EQ_MSG(test, wc_topo_neighbor(&t, nb, back), node,
					    "node %u port %u", node, port);
			KUNIT_EXPECT_EQ(test, wc_topo_reverse_port(&t, nb, back), port);
			KUNIT_EXPECT_EQ(test, wc_topo_distance(&t, node, nb), 1u);
		}
	}
	KUNIT_EXPECT_EQ(test, ends % 2, 0u);
	KUNIT_EXPECT_EQ(test, wc_topo_nlinks(&t), ends / 2);
	KUNIT_EXPECT_EQ(test, wc_topo_nlinks(&t), c->nlinks);
}

/* Coordinates round-trip, and distinct nodes have distinct coordinates. */
static void topo_coords_round_trip(struct kunit *test)
{
	u32 coords[WC_MAX_COORDS];
	struct wc_topo t;
	u32 node, i;

	init_case(test, &t);
	KUNIT_ASSERT_LE(test, t.ncoords, (u32)WC_MAX_COORDS);
	for (node = 0; node < t.nnodes; node++) {
		wc_topo_coords(&t, node, coords);
		KUNIT_EXPECT_EQ_MSG(test, wc_topo_node(&t, coords), node, "node %u", node);
	}
	/* Out-of-range coordinates name no node. */
	wc_topo_coords(&t, 0, coords);
	switch (t.kind) {
	case WC_TOPO_MESH:
	case WC_TOPO_TORUS:
		for (i = 0; i < t.ndims; i++) {
			wc_topo_coords(&t, 0, coords);
			coords[i] = t.dims[i];
			KUNIT_EXPECT_EQ(test, wc_topo_node(&t, coords), WC_NO_NODE);
		}
		break;
	case WC_TOPO_HYPERCUBE:
		coords[0] = 2;
		KUNIT_EXPECT_EQ(test, wc_topo_node(&t, coords), WC_NO_NODE);
		break;
	case WC_TOPO_STAR:
		coords[0] = coords[1];	/* a symbol twice */
		KUNIT_EXPECT_EQ(test, wc_topo_node(&t, coords), WC_NO_NODE);
		break;
	}
}

/* Closed-form distance equals breadth-first search from every node. */
static void topo_distance_is_bfs(struct kunit *test)
{
	const struct topo_case *c = test->param_value;
	struct wc_topo t;
	u32 *dist, *queue;
	u32 src, node, port, head, tail, diameter = 0;

	init_case(test, &t);
	dist = kunit_kcalloc(test, t.nnodes, sizeof(*dist), GFP_KERNEL);
	queue = kunit_kcalloc(test, t.nnodes, sizeof(*queue), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, dist);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, queue);

	for (src = 0; src < t.nnodes; src++) {
		for (node = 0; node < t.nnodes; node++)
			dist[node] = U32_MAX;
		dist[src] = 0;
		queue[0] = src;
		head = 0;
		tail = 1;
		while (head < tail) {
			u32 cur = queue[head++];

			for (port = 0; port < t.nports; port++) {
				u32 nb = wc_topo_neighbor(&t, cur, port);

				if (nb == WC_NO_NODE || dist[nb] != U32_MAX)
					continue;
				dist[nb] = dist[cur] + 1;
				queue[tail++] = nb;
			}
		}
		KUNIT_ASSERT_EQ_MSG(test, tail, t.nnodes, "graph not connected from %u", src);
		for (node = 0; node < t.nnodes; node++) {
			u32 d = wc_topo_distance(&t, src, node);

			if (d != dist[node]) {
				KUNIT_FAIL(test, "distance(%u, %u) = %u, BFS says %u",
					   src, node, d, dist[node]);
				return;
			}
			diameter = max(diameter, d);
		}
	}
	KUNIT_EXPECT_EQ(test, diameter, c->diameter);
}

/* Bad descriptors are refused with a reason. */
static void topo_init_rejects(struct kunit *test)
{
	static const struct {
		u32 kind, ndims, dims[WC_MAX_DIMS + 1];
	} bad[] = {
		{ WC_TOPO_MESH, 0, { 4 } },
		{ WC_TOPO_MESH, 4, { 2, 2, 2, 2 } },
		{ WC_TOPO_MESH, 2, { 1, 0 } },
		{ WC_TOPO_TORUS, 2, { 4, 1 } },
		{ WC_TOPO_TORUS, 3, { 100, 100, 100 } },
		{ WC_TOPO_HYPERCUBE, 1, { 0 } },
		{ WC_TOPO_HYPERCUBE, 1, { WC_MAX_HYPERCUBE_DIM + 1 } },
		{ WC_TOPO_HYPERCUBE, 2, { 2, 2 } },
		{ WC_TOPO_STAR, 1, { 1 } },
		{ WC_TOPO_STAR, 1, { 8 } },
		{ 0, 1, { 4 } },
		{ 99, 1, { 4 } },
	};
	struct wc_topo t;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		const char *why = NULL;

		KUNIT_EXPECT_EQ_MSG(test, wc_topo_init(&t, bad[i].kind, bad[i].ndims,
						       bad[i].dims, &why), -EINVAL,
				    "case %u", i);
		KUNIT_EXPECT_NOT_ERR_OR_NULL_MSG(test, why, "case %u has no reason", i);
	}
}

/* Star graph ranks: a bijection onto permutations, node 0 is 12..n. */
static void topo_star_rank(struct kunit *test)
{
	u8 perm[WC_MAX_STAR_N];
	u32 n, rank, i, fact;

	for (n = WC_MIN_STAR_N; n <= 6; n++) {
		fact = 1;
		for (i = 2; i <= n; i++)
			fact *= i;
		wc_star_unrank(n, 0, perm);
		for (i = 0; i < n; i++)
			KUNIT_EXPECT_EQ(test, perm[i], (u8)(i + 1));
		for (rank = 0; rank < fact; rank++) {
			u32 seen = 0;

			wc_star_unrank(n, rank, perm);
			for (i = 0; i < n; i++) {
				KUNIT_ASSERT_GE(test, perm[i], (u8)1);
				KUNIT_ASSERT_LE(test, perm[i], (u8)n);
				seen |= 1u << perm[i];
			}
			KUNIT_ASSERT_EQ_MSG(test, seen, ((1u << (n + 1)) - 2),
					    "S_%u rank %u is no permutation", n, rank);
			KUNIT_ASSERT_EQ(test, wc_star_rank(n, perm), rank);
		}
	}
}

static struct kunit_case topology_cases[] = {
	KUNIT_CASE_PARAM(topo_links_symmetric, topo_gen_params),
	KUNIT_CASE_PARAM(topo_coords_round_trip, topo_gen_params),
	KUNIT_CASE_PARAM(topo_distance_is_bfs, topo_gen_params),
	KUNIT_CASE(topo_init_rejects),
	KUNIT_CASE(topo_star_rank),
	{}
};

static struct kunit_suite wormcast_topology_suite = {
	.name = "wormcast_topology",
	.test_cases = topology_cases,
};

kunit_test_suites(&wormcast_topology_suite);

MODULE_LICENSE("GPL");
