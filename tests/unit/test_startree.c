// SPDX-License-Identifier: GPL-2.0
/*
 * Tree-based multicast of Wang and Chu and its baselines: the paper's
 * sample multicast from 1324 (Figures 5 and 6, Appendix) and properties
 * on random instances over star graphs, meshes, tori and hypercubes.
 */
#include "tap.h"
#include "testutil.h"
#include "startree.h"
#include "pathplan.h"

static const char *const sample_dests[] = {
	"2134", "2143", "1423", "2413", "1342", "1432", "3421", "2341",
};

/* Channels of the Appendix's walk-through, as label pairs. */
static const u32 appendix_edges[][2] = {
	{ 3, 4 }, { 4, 5 }, { 5, 6 },			/* 3 */
	{ 6, 11 }, { 11, 12 },				/* 2 */
	{ 12, 17 }, { 17, 18 }, { 18, 19 }, { 19, 20 }, { 20, 21 }, /* 5 */
	{ 12, 13 }, { 13, 14 },				/* 2 */
	{ 6, 7 }, { 7, 8 }, { 8, 9 }, { 9, 10 },	/* 4 */
	{ 3, 2 }, { 2, 1 },				/* 2 */
};

static void test_sample(void)
{
	struct wc_topo t;
	struct wc_labeling lb;
	struct wc_route_plan pl;
	u32 n = 4, d[8], src = tu_star_node("1324"), i, b, a, bad = 0;
	bool mono;
	const char *why = NULL;

	wc_topo_init(&t, WC_TOPO_STAR, 1, &n, NULL);
	wc_labeling_init(&lb, &t);
	for (i = 0; i < 8; i++)
		d[i] = tu_star_node(sample_dests[i]);

	is_int(wc_startree_plan(&lb, WC_ST_TREE, src, d, 8, &pl), 0,
	       "sample: tree-based plan");
	ok(wc_route_plan_check(&lb, src, d, 8, &pl, &mono, &why) && mono,
	   "sample: tree plan valid and label-monotone");
	is_int(pl.channels, 18, "sample: tree-based uses 18 channels (paper: 18)");
	is_int(pl.max_dist, 10, "sample: tree-based max distance 10 (paper: 10)");
	is_int(pl.nworms, 2, "sample: two worms (high and low)");
	/* The very channels of the Appendix, no more, no fewer. */
	for (b = 0; b < pl.nbranches; b++) {
		for (i = 1; i < pl.br[b].nnodes; i++) {
			u32 x = lb.label[pl.br[b].nodes[i - 1]];
			u32 y = lb.label[pl.br[b].nodes[i]];

			for (a = 0; a < ARRAY_SIZE(appendix_edges); a++)
				if (appendix_edges[a][0] == x &&
				    appendix_edges[a][1] == y)
					break;
			if (a == ARRAY_SIZE(appendix_edges))
				bad++;
		}
	}
	is_int(bad, 0, "sample: every channel is one the Appendix names");
	is_int(pl.channels, ARRAY_SIZE(appendix_edges),
	       "sample: ... and all of them are used");
	wc_route_plan_free(&pl);

	for (a = WC_ST_HAMILTONIAN; a <= WC_ST_DUAL_PATH; a++) {
		is_int(wc_startree_plan(&lb, a, src, d, 8, &pl), 0,
		       "sample: %s plan", wc_startree_name(a));
		ok(wc_route_plan_check(&lb, src, d, 8, &pl, &mono, &why) && mono,
		   "sample: %s valid and label-monotone", wc_startree_name(a));
		is_int(pl.channels, 20, "sample: %s uses 18+2 = 20 channels",
		       wc_startree_name(a));
		is_int(pl.max_dist, 18, "sample: %s max distance 18",
		       wc_startree_name(a));
		wc_route_plan_free(&pl);
	}
	is_int(wc_startree_plan(&lb, WC_ST_UNICAST, src, d, 8, &pl), 0,
	       "sample: unicast-based plan");
	ok(wc_route_plan_check(&lb, src, d, 8, &pl, &mono, &why),
	   "sample: unicast plan valid");
	is_int(pl.phases, 4, "sample: unicast needs ceil(log2 9) = 4 phases");
	is_int(pl.nworms, 8, "sample: one unicast per destination");
	wc_route_plan_free(&pl);
	wc_labeling_free(&lb);
}

static u32 ceil_log2(u32 x)
{
	u32 r = 0;

	while ((1u << r) < x)
		r++;
	return r;
}

static void random_props(const char *name, u32 kind, u32 ndims,
			 const u32 *dims, u32 trials)
{
	struct wc_topo t;
	struct wc_labeling lb;
	u64 seed = 777;
	u32 trial, invalid = 0, order = 0, uni = 0, cross = 0;
	const char *why = NULL;

	wc_topo_init(&t, kind, ndims, dims, NULL);
	wc_labeling_init(&lb, &t);
	for (trial = 0; trial < trials; trial++) {
		struct wc_route_plan pl[4];
		struct wc_mstar ms;
		u32 d[64], k, src, i, j, a, b;
		bool mono;

		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		src = (u32)((seed >> 33) % t.nnodes);
		k = 1 + (u32)((seed >> 20) % (t.nnodes - 1 < 40 ? t.nnodes - 1 : 40));
		for (i = 0; i < k; i++) {
again:
			seed = seed * 6364136223846793005ull + 1442695040888963407ull;
			d[i] = (u32)((seed >> 33) % t.nnodes);
			if (d[i] == src)
				goto again;
			for (j = 0; j < i; j++)
				if (d[j] == d[i])
					goto again;
		}
		for (a = WC_ST_TREE; a <= WC_ST_UNICAST; a++) {
			if (wc_startree_plan(&lb, a, src, d, k, &pl[a]) ||
			    !wc_route_plan_check(&lb, src, d, k, &pl[a], &mono,
						 &why) ||
			    (a != WC_ST_UNICAST && !mono)) {
				if (!invalid)
					diag("%s %s: %s", name,
					     wc_startree_name(a), why);
				invalid++;
			}
		}
		/* Tree branches cover disjoint label ranges: never more
		 * channels than following the Hamiltonian path. */
		if (pl[WC_ST_TREE].channels > pl[WC_ST_HAMILTONIAN].channels ||
		    pl[WC_ST_DUAL_PATH].channels > pl[WC_ST_HAMILTONIAN].channels ||
		    pl[WC_ST_TREE].max_dist > pl[WC_ST_HAMILTONIAN].max_dist)
			order++;
		/* unicasts: shortest paths, ceil(log2(k+1)) phases */
		if (pl[WC_ST_UNICAST].phases != ceil_log2(k + 1) ||
		    pl[WC_ST_UNICAST].nworms != k)
			uni++;
		for (b = 0; b < pl[WC_ST_UNICAST].nbranches; b++) {
			const struct wc_route_branch *br = &pl[WC_ST_UNICAST].br[b];

			if (br->nnodes - 1 !=
			    wc_topo_distance(&t, br->nodes[0],
					     br->nodes[br->nnodes - 1]))
				uni++;
		}
		/* dual-path here and in pathplan.c are the same worms */
		if (wc_pathplan(&lb, WC_PP_DUAL_PATH, src, d, k, &ms) ||
		    ms.channels != pl[WC_ST_DUAL_PATH].channels ||
		    ms.max_length != pl[WC_ST_DUAL_PATH].max_dist)
			cross++;
		wc_mstar_free(&ms);
		for (a = WC_ST_TREE; a <= WC_ST_UNICAST; a++)
			wc_route_plan_free(&pl[a]);
	}
	is_int(invalid, 0, "%s: %u random plans valid (tree/path ones monotone)",
	       name, trials * 4);
	is_int(order, 0, "%s: tree and dual-path never beat by Hamiltonian path",
	       name);
	is_int(uni, 0, "%s: unicasts minimal, ceil(log2(k+1)) phases", name);
	is_int(cross, 0, "%s: dual-path agrees with pathplan's", name);
	wc_labeling_free(&lb);
}

static void test_bad_input(void)
{
	struct wc_topo t;
	struct wc_labeling lb;
	struct wc_route_plan pl;
	u32 n = 4, d[2] = { 3, 3 }, self[1] = { 7 }, far[1] = { 24 };

	wc_topo_init(&t, WC_TOPO_STAR, 1, &n, NULL);
	wc_labeling_init(&lb, &t);
	is_int(wc_startree_plan(&lb, WC_ST_TREE, 0, d, 2, &pl), -EINVAL,
	       "duplicate destination rejected");
	is_int(wc_startree_plan(&lb, WC_ST_TREE, 7, self, 1, &pl), -EINVAL,
	       "source as destination rejected");
	is_int(wc_startree_plan(&lb, WC_ST_UNICAST, 0, far, 1, &pl), -EINVAL,
	       "out-of-range destination rejected");
	is_int(wc_startree_plan(&lb, WC_ST_TREE, 5, d, 0, &pl), 0,
	       "empty destination set accepted");
	is_int(pl.channels, 0, "... and uses no channel");
	wc_route_plan_free(&pl);
	wc_labeling_free(&lb);
}

int main(void)
{
	u32 s4 = 4, s5 = 5, s6 = 6, s7 = 7, m[2] = { 8, 8 }, tt[2] = { 6, 6 };
	u32 m3[3] = { 4, 4, 4 }, h = 6;

	test_sample();
	test_bad_input();
	random_props("star 4", WC_TOPO_STAR, 1, &s4, 500);
	random_props("star 5", WC_TOPO_STAR, 1, &s5, 500);
	random_props("star 6", WC_TOPO_STAR, 1, &s6, 300);
	random_props("star 7", WC_TOPO_STAR, 1, &s7, 100);
	random_props("mesh 8x8", WC_TOPO_MESH, 2, m, 300);
	random_props("mesh 4x4x4", WC_TOPO_MESH, 3, m3, 300);
	random_props("torus 6x6", WC_TOPO_TORUS, 2, tt, 300);
	random_props("hypercube 6", WC_TOPO_HYPERCUBE, 1, &h, 300);
	return done_testing();
}
