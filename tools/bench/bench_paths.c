// SPDX-License-Identifier: GPL-2.0
/*
 * Speed of the path-based planners: OCMS for 500 destinations and OTMS for
 * 100 destinations on a 32x32 mesh (targets: under 1 s each), plus a few
 * other sizes and topologies.  Prints the median of several runs, each on
 * a fresh random destination set (fixed seed): "NAME.median: T ms", and
 * the plan's objective for the last run (total channels, or the longest
 * worm for OTMS).
 */
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"
#include "testutil.h"
#include "pathplan.h"
#include "startree.h"

#define RUNS 7

static u64 seed = 0x2545f4914f6cdd1dull;

static u32 rnd(u32 n)
{
	return tu_rand_mod(&seed, n);
}

static void pick(u32 n, u32 k, u32 *src, u32 *d)
{
	*src = rnd(n);
	tu_random_dests(&seed, n, *src, k, d);
}

/* algo < 16: a pathplan algorithm; else startree algo + 16 */
static void bench(const char *what, u32 kind, u32 ndims, const u32 *dims,
		  u32 algo, u32 k)
{
	struct wc_topo t;
	struct wc_labeling lb;
	double ms[RUNS];
	u32 r, src, *d, metric = 0;

	if (wc_topo_init(&t, kind, ndims, dims, NULL) ||
	    wc_labeling_init(&lb, &t))
		return;
	d = calloc(k, sizeof(u32));
	for (r = 0; r < RUNS; r++) {
		double t0;
		int err;

		pick(t.nnodes, k, &src, d);
		t0 = bench_wall_ms();
		if (algo < 16) {
			struct wc_mstar st;

			err = wc_pathplan(&lb, algo, src, d, k, &st);
			metric = algo == WC_PP_OTMS ? st.max_length : st.channels;
			if (!err)
				wc_mstar_free(&st);
		} else {
			struct wc_route_plan pl;

			err = wc_startree_plan(&lb, algo - 16, src, d, k, &pl);
			metric = pl.channels;
			if (!err)
				wc_route_plan_free(&pl);
		}
		ms[r] = bench_wall_ms() - t0;
		if (err) {
			printf("%s: error %d\n", what, err);
			goto out;
		}
	}
	printf("%s.median: %.3f ms\n", what, bench_median(ms, RUNS));
	printf("%s.last_result: %u %s\n", what, metric,
	       algo == WC_PP_OTMS ? "channels_max" : "channels_total");
out:
	free(d);
	wc_labeling_free(&lb);
}

int main(void)
{
	u32 m32[2] = { 32, 32 }, m16[2] = { 16, 16 }, t32[2] = { 32, 32 };
	u32 m3[3] = { 16, 16, 16 }, h10 = 10, s7 = 7;

	bench("ocms_mesh32x32_k500", WC_TOPO_MESH, 2, m32, WC_PP_OCMS, 500);
	bench("otms_mesh32x32_k100", WC_TOPO_MESH, 2, m32, WC_PP_OTMS, 100);
	bench("otms_mesh32x32_k250", WC_TOPO_MESH, 2, m32, WC_PP_OTMS, 250);
	bench("ocms_mesh32x32_k1000", WC_TOPO_MESH, 2, m32, WC_PP_OCMS, 1000);
	bench("ocms_mesh16x16_k100", WC_TOPO_MESH, 2, m16, WC_PP_OCMS, 100);
	bench("otms_torus32x32_k100", WC_TOPO_TORUS, 2, t32, WC_PP_OTMS, 100);
	bench("ocms_torus32x32_k500", WC_TOPO_TORUS, 2, t32, WC_PP_OCMS, 500);
	bench("otms_mesh16x16x16_k30", WC_TOPO_MESH, 3, m3, WC_PP_OTMS, 30);
	bench("ocms_hypercube10_k300", WC_TOPO_HYPERCUBE, 1, &h10, WC_PP_OCMS, 300);
	bench("otms_hypercube10_k20", WC_TOPO_HYPERCUBE, 1, &h10, WC_PP_OTMS, 20);
	bench("ocms_star7_k500", WC_TOPO_STAR, 1, &s7, WC_PP_OCMS, 500);
	bench("otms_star7_k20", WC_TOPO_STAR, 1, &s7, WC_PP_OTMS, 20);
	bench("tree_star7_k500", WC_TOPO_STAR, 1, &s7, 16 + WC_ST_TREE, 500);
	bench("dualpath_mesh32x32_k500", WC_TOPO_MESH, 2, m32, WC_PP_DUAL_PATH, 500);
	return 0;
}
