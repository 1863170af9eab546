// SPDX-License-Identifier: GPL-2.0
/*
 * DSTM benchmarks and table generators.
 *
 *   bench_dstm                  speed figures (median of runs)
 *   bench_dstm fig8 [ORDERS] [N...]
 *                               Fig. 8: CD/AD of DSTM-1, DSTM-2 and
 *                               Roskind-Tarjan over ORDERS random orders
 *   bench_dstm fig11 [TRIALS] [N...]
 *                               Figs. 11/12: DSTM-1/2 with one random
 *                               faulty link, global and local information
 */
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"
#include "dstm.h"
#include "dstm_fault.h"
#include "roskind_tarjan.h"
#include "trees_table.h"
#include "tree_mcast.h"

#define RUNS 7

static int build(struct wc_dstm *d, int which, u32 n)
{
	struct wc_dstm_spec sp;
	const char *why = NULL;

	if (which == 1)
		wc_dstm_spec_dstm1(&sp, n, n, 0);
	else
		wc_dstm_spec_dstm2(&sp, n, n, 0);
	if (wc_dstm_build(d, &sp, &why)) {
		fprintf(stderr, "bench_dstm: %ux%u: %s\n", n, n, why ? why : "?");
		return -1;
	}
	return 0;
}

static int speed(void)
{
	double t[RUNS];
	int r;
	u32 n = 256, nn = n * n, i;
	struct wc_tree_entry *e = malloc(nn * sizeof(*e));
	u32 *nop = malloc(nn * sizeof(*nop));

	for (r = 0; r < RUNS; r++) {
		struct wc_dstm d;
		double t0 = bench_wall_ms();

		if (build(&d, 1, n))
			return 1;
		wc_sptree_router_table(&d.tree[0], e, nop);
		wc_sptree_router_table(&d.tree[1], e, nop);
		t[r] = bench_wall_ms() - t0;
		wc_dstm_free(&d);
	}
	printf("dstm1_trees_and_tables_256x256: %.2f ms\n", bench_median(t, RUNS));
	free(e);
	free(nop);

	{
		struct wc_topo tp;
		u32 dims[2] = { 33, 33 }, m, *order;

		wc_topo_init(&tp, WC_TOPO_TORUS, 2, dims, NULL);
		m = wc_topo_nlinks(&tp);
		order = malloc(m * sizeof(*order));
		for (r = 0; r < RUNS; r++) {
			struct wc_sptree tr[2];
			double t0;

			wc_rt_random_order(order, m, r);
			t0 = bench_wall_ms();
			if (wc_rt_torus_trees(&tp, order, m, 0, tr))
				return 1;
			t[r] = bench_wall_ms() - t0;
			wc_sptree_free(&tr[0]);
			wc_sptree_free(&tr[1]);
		}
		printf("roskind_tarjan_33x33: %.2f ms\n", bench_median(t, RUNS));
		free(order);
	}

	{
		struct wc_dstm d;
		struct wc_tree_table tab;
		u32 *dests, *work;
		struct wc_dstm_flit *f;
		int nf = 0;

		n = 64;
		nn = n * n;
		if (build(&d, 1, n))
			return 1;
		e = malloc(nn * sizeof(*e));
		nop = malloc(nn * sizeof(*nop));
		dests = malloc(nn * sizeof(*dests));
		work = malloc(WC_DSTM_WORK_WORDS(nn) * sizeof(*work));
		f = malloc(WC_DSTM_MAX_FLITS(nn) * sizeof(*f));
		wc_sptree_router_table(&d.tree[0], e, nop);
		tab.nnodes = nn;
		tab.root = d.tree[0].root;
		tab.e = e;
		tab.node_of_pn = nop;
		for (i = 1; i < nn; i++)
			dests[i - 1] = i;
		for (r = 0; r < RUNS; r++) {
			double t0 = bench_wall_ms();

			nf = wc_dstm_encode(&tab, 0, dests, nn - 1, false, work, f,
					    WC_DSTM_MAX_FLITS(nn));
			t[r] = bench_wall_ms() - t0;
		}
		printf("header_broadcast_64x64: %.3f ms (%d flits)\n", bench_median(t, RUNS), nf);
		for (r = 0; r < RUNS; r++) {
			double t0 = bench_wall_ms();

			for (i = 0; i < 1000; i++)
				wc_dstm_encode(&tab, 0, &dests[i], 1, false, work, f, 1);
			t[r] = (bench_wall_ms() - t0) * 1e3 / 1000;
		}
		printf("header_unicast_64x64: %.3f us\n", bench_median(t, RUNS));
		free(e);
		free(nop);
		free(dests);
		free(work);
		free(f);
		wc_dstm_free(&d);
	}
	/*
	 * Issue 8's 256x256 target: the daemon computes the DSTM-1 table,
	 * the kernel validates it and builds its routing state.  The kernel
	 * runs wc_tree_set_build() on commit: the same code, timed here on
	 * a fabric 13 times larger than the module accepts (WC_MAX_NODES).
	 */
	{
		struct wc_trees_opts o;
		struct wc_topo tp;
		u32 dims[2] = { 256, 256 };
		double tc[RUNS], tv[RUNS];
		size_t len = 0;

		wc_trees_opts_default(&o);
		if (wc_topo_init_bounded(&tp, WC_TOPO_TORUS, 2, dims,
					 WC_MAX_PLAN_NODES, NULL))
			return 1;
		for (r = 0; r < RUNS; r++) {
			struct wc_tree_set set;
			const char *why = NULL;
			void *table = NULL;
			double t0 = bench_wall_ms();

			if (wc_trees_table(WORMCAST_MCAST_DSTM1, &tp, &o, &table,
					   &len, &why)) {
				fprintf(stderr, "bench_dstm: %s\n", why);
				return 1;
			}
			tc[r] = bench_wall_ms() - t0;
			t0 = bench_wall_ms();
			if (wc_tree_set_build(&set, &tp, table, len, &why)) {
				fprintf(stderr, "bench_dstm: %s\n", why);
				return 1;
			}
			tv[r] = bench_wall_ms() - t0;
			wc_tree_set_free(&set);
			free(table);
		}
		printf("dstm1_table_compute_256x256: %.1f ms (%zu bytes)\n",
		       bench_median(tc, RUNS), len);
		printf("dstm1_table_validate_build_256x256: %.1f ms\n",
		       bench_median(tv, RUNS));
	}
	return 0;
}

static const u32 default_sizes[] = { 5, 9, 13, 17, 21, 25, 29, 33 };

static int sizes_from(int argc, char **argv, u32 *sizes)
{
	int i, n = 0;

	if (argc <= 0) {
		for (i = 0; i < (int)ARRAY_SIZE(default_sizes); i++)
			sizes[n++] = default_sizes[i];
		return n;
	}
	for (i = 0; i < argc && n < 64; i++) {
		char *end;
		long v = strtol(argv[i], &end, 10);

		if (*end || v < 3 || v > 64) {
			fprintf(stderr, "bench_dstm: bad size '%s' (3..64)\n", argv[i]);
			return -1;
		}
		sizes[n++] = (u32)v;
	}
	return n;
}

static long count_arg(const char *s, long dflt)
{
	char *end;
	long v;

	if (!s)
		return dflt;
	v = strtol(s, &end, 10);
	return *end || v < 1 || v > 100000 ? -1 : v;
}

static int fig8(int argc, char **argv)
{
	long orders = count_arg(argc > 0 ? argv[0] : NULL, 500);
	u32 sizes[64];
	int ns = sizes_from(argc - 1, argv + 1, sizes), si;

	if (orders < 0 || ns < 0) {
		fprintf(stderr, "usage: bench_dstm fig8 [ORDERS] [N...]\n");
		return 2;
	}
	printf("%-6s %8s %8s %8s %8s | %8s %8s %8s | %8s\n", "NxN", "D1 CD", "D2 CD",
	       "RT minCD", "RT avgCD", "D1 AD", "D2 AD", "RT AD", "seconds");
	for (si = 0; si < ns; si++) {
		u32 n = sizes[si], m, *order, cdmin = U32_MAX, cd[3];
		double ad[3], cdsum = 0, adsum = 0, t0 = bench_wall_ms();
		struct wc_topo tp;
		u32 dims[2] = { n, n };
		long o;
		int w;

		for (w = 1; w <= 2; w++) {
			struct wc_dstm d;
			struct wc_pair_metrics pm;

			if (build(&d, w, n))
				return 1;
			wc_trees_metrics((const struct wc_sptree *const[]){
						 &d.tree[0], &d.tree[1] }, 2, &pm);
			cd[w] = pm.cd;
			ad[w] = pm.ad;
			wc_dstm_free(&d);
		}
		wc_topo_init(&tp, WC_TOPO_TORUS, 2, dims, NULL);
		m = wc_topo_nlinks(&tp);
		order = malloc(m * sizeof(*order));
		for (o = 0; o < orders; o++) {
			struct wc_sptree tr[2];
			struct wc_pair_metrics pm;

			wc_rt_random_order(order, m, (u64)o);
			if (wc_rt_torus_trees(&tp, order, m, 0, tr))
				return 1;
			wc_trees_metrics((const struct wc_sptree *const[]){ &tr[0], &tr[1] },
					 2, &pm);
			cdmin = pm.cd < cdmin ? pm.cd : cdmin;
			cdsum += pm.cd;
			adsum += pm.ad;
			wc_sptree_free(&tr[0]);
			wc_sptree_free(&tr[1]);
		}
		free(order);
		printf("%2ux%-3u %8u %8u %8u %8.2f | %8.3f %8.3f %8.3f | %8.1f\n", n, n,
		       cd[1], cd[2], cdmin, cdsum / orders, ad[1], ad[2],
		       adsum / orders, (bench_wall_ms() - t0) / 1e3);
		fflush(stdout);
	}
	return 0;
}

static u64 splitmix(u64 *s)
{
	u64 z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static int fig11(int argc, char **argv)
{
	long trials = count_arg(argc > 0 ? argv[0] : NULL, 500);
	u32 sizes[64];
	int ns = sizes_from(argc - 1, argv + 1, sizes), si, w;

	if (trials < 0 || ns < 0) {
		fprintf(stderr, "usage: bench_dstm fig11 [TRIALS] [N...]\n");
		return 2;
	}
	printf("%-6s %-6s %6s | %8s %8s %8s %8s | %8s %8s %8s\n", "NxN", "trees",
	       "CD", "gl avgCD", "gl maxCD", "lo avgCD", "lo maxCD", "AD",
	       "gl AD", "lo AD");
	for (si = 0; si < ns; si++) {
		for (w = 1; w <= 2; w++) {
			u32 n = sizes[si], links, gmax = 0, lmax = 0;
			double gcd = 0, lcd = 0, gad = 0, lad = 0;
			struct wc_dstm d;
			struct wc_pair_metrics pm, g, l;
			u64 seed = 1000 + n;
			long t;

			if (build(&d, w, n))
				return 1;
			wc_trees_metrics((const struct wc_sptree *const[]){
						 &d.tree[0], &d.tree[1] }, 2, &pm);
			links = wc_link_space(&d.topo);
			for (t = 0; t < trials; t++) {
				u32 link;

				/* A uniformly random link: a random (node, port). */
				do {
					u32 a, pa, b, pb;

					link = (u32)(splitmix(&seed) % links);
					wc_link_ends(&d.topo, link, &a, &pa, &b, &pb);
					link = wc_link_id(&d.topo, a, pa);
				} while (link == WC_NO_LINK);
				wc_dstm_fault_metrics_global(d.tree, link, &g);
				wc_dstm_fault_metrics_local(d.tree, link, &l);
				gcd += g.cd;
				lcd += l.cd;
				gad += g.ad;
				lad += l.ad;
				gmax = g.cd > gmax ? g.cd : gmax;
				lmax = l.cd > lmax ? l.cd : lmax;
			}
			printf("%2ux%-3u DSTM-%d %6u | %8.2f %8u %8.2f %8u | %8.3f %8.3f %8.3f\n",
			       n, n, w, pm.cd, gcd / trials, gmax, lcd / trials, lmax,
			       pm.ad, gad / trials, lad / trials);
			fflush(stdout);
			wc_dstm_free(&d);
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "fig8"))
		return fig8(argc - 2, argv + 2);
	if (argc > 1 && !strcmp(argv[1], "fig11"))
		return fig11(argc - 2, argv + 2);
	if (argc > 1) {
		fprintf(stderr, "usage: bench_dstm [fig8|fig11 [COUNT] [N...]]\n");
		return 2;
	}
	return speed();
}
