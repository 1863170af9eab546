// SPDX-License-Identifier: GPL-2.0
/*
 * The engine's share of the VM benchmark "Multicast through the fabric"
 * (tests/vm/bench-guest.sh part mcast; Documentation/benchmarks.rst): one
 * sender (node 0) multicasting to members 1..M of an 8x8 torus, under
 * dstm-1 (one tree worm per datagram, tables as wormcastd computes them)
 * and under the built-in unicast-based scheme (one worm per member),
 * driven as the fabric's NAPI poll drives the engine in virtual time:
 * submit while the sender's engine backlog is below WC_ENGINE_BACKLOG,
 * run at most WC_POLL_CYCLES cycles, repeat.  Engine defaults (32-byte
 * flits, B = 1, 2 VCs); frames of 64 and 1024 bytes of UDP payload (106
 * and 1066 bytes with the Ethernet, IPv4 and UDP headers).
 *
 * Per case: CPU time per datagram (median of RUNS runs of FRAMES
 * datagrams), engine cycles stepped per datagram, worms and flit-hops per
 * datagram, CPU time per flit-hop, the share of a tree worm's flit-hops
 * that are header flits (from traced datagrams), and the dstm-1/unicast
 * ratios: of speed
 * (unicast's CPU time over dstm-1's: above 1 means dstm-1 delivers more
 * datagrams per CPU second), of engine cycles and of flit-hops (unicast's
 * over dstm-1's).  The engine's cost follows flit moves, so the speed ratio
 * follows the flit-hop ratio (Documentation/benchmarks.rst).
 *
 * Usage: bench_mcast [--quick] [--frames N] [--only dstm1|unicast]
 *   --frames  datagrams per run (default 20000, 2000 with --quick)
 *   --only    one scheme only (for perf record, valgrind), no ratio
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/wormcast.h>

#include "bench.h"
#include "engine.h"
#include "topology.h"
#include "tree_mcast.h"
#include "trees_table.h"

#define RUNS		5
#define FRAMES		20000
#define QUICK_FRAMES	2000
#define BACKLOG		2	/* WC_ENGINE_BACKLOG in kmod/wormcast.h */
#define POLL_CYCLES	4096	/* WC_POLL_CYCLES */
#define FRAME_OVERHEAD	(14 + 20 + 8)	/* Ethernet, IPv4, UDP */

struct ctx {
	struct wc_engine *e;
	u64 delivered;
	u64 done;
	u32 nmsgs;
	struct wc_msg **free_msgs;
	u32 nfree;
};

static void op_deliver(void *priv, struct wc_msg *m, u32 node, u64 lat)
{
	struct ctx *c = priv;

	c->delivered++;
}

static void op_done(void *priv, struct wc_msg *m)
{
	struct ctx *c = priv;

	c->done++;
	c->free_msgs[c->nfree++] = m;
}

static void op_route_error(void *priv, struct wc_msg *m, u32 node, int err)
{
	fprintf(stderr, "bench_mcast: route error %d at node %u\n", err, node);
	exit(1);
}

static void op_deadlock(void *priv, u64 cycle)
{
	fprintf(stderr, "bench_mcast: deadlock at cycle %llu\n",
		(unsigned long long)cycle);
	exit(1);
}

static const struct wc_engine_ops ops = {
	.deliver = op_deliver,
	.msg_done = op_done,
	.route_error = op_route_error,
	.deadlock = op_deadlock,
};

struct result {
	double us_per_dg;	/* CPU microseconds per datagram */
	double cycles_per_dg;	/* engine cycles stepped */
	double worms_per_dg;
	double hops_per_dg;	/* flit-hops */
};

/*
 * Send @frames datagrams of @bytes from node 0 to nodes 1..@members,
 * routed by @algo on @tables.
 */
static int run(const struct wc_topo *t, const struct wc_algo *algo,
	       const void *tables, u32 members, u32 bytes, u32 frames,
	       struct result *r)
{
	struct wc_engine_params p;
	struct wc_engine_stats st;
	struct ctx c = { 0 };
	u32 sent = 0, i, hdr_words;
	u64 cycles = 0;
	double t0;
	size_t msz;

	wc_engine_params_default(&p, t);
	c.e = wc_engine_create(t, &p, algo, &ops, &c);
	if (!c.e)
		return -1;
	hdr_words = wc_algo_hdr_words(algo, members);
	msz = wc_msg_size(c.e);
	c.nmsgs = BACKLOG + 1;
	c.free_msgs = calloc(c.nmsgs, sizeof(*c.free_msgs));
	for (i = 0; i < c.nmsgs; i++) {
		struct wc_msg *m = malloc(msz);

		if (!m)
			return -1;
		m->hdr = hdr_words ? malloc(hdr_words * sizeof(u32)) : NULL;
		c.free_msgs[c.nfree++] = m;
	}
	t0 = bench_cpu_s();
	while (c.done < frames) {
		while (sent < frames && c.nfree &&
		       wc_engine_backlog(c.e, 0) < BACKLOG) {
			struct wc_msg *m = c.free_msgs[--c.nfree];
			u32 *hdr = m->hdr, d;

			/* what wc_submit() does per frame */
			wc_msg_init(c.e, m, 0, bytes + FRAME_OVERHEAD, NULL);
			for (d = 1; d <= members; d++)
				wc_msg_add_dst(c.e, m, d);
			m->hdr = hdr;
			m->hdr_max = hdr_words;
			wc_engine_submit(c.e, m);
			sent++;
		}
		cycles += wc_engine_run(c.e, POLL_CYCLES, tables);
	}
	r->us_per_dg = (bench_cpu_s() - t0) * 1e6 / frames;
	wc_engine_get_stats(c.e, &st);
	if (c.delivered != (u64)frames * members || st.route_errors) {
		fprintf(stderr, "bench_mcast: %llu copies delivered, %llu expected\n",
			(unsigned long long)c.delivered,
			(unsigned long long)frames * members);
		return -1;
	}
	r->cycles_per_dg = (double)cycles / frames;
	r->hops_per_dg = (double)st.flit_hops / frames;
	{
		struct wc_node_stats ns;

		wc_engine_node_stats(c.e, 0, &ns);
		r->worms_per_dg = (double)ns.worms_injected / frames;
	}
	for (i = 0; i < c.nfree; i++) {
		free(c.free_msgs[i]->hdr);
		free(c.free_msgs[i]);
	}
	free(c.free_msgs);
	wc_engine_destroy(c.e);
	return 0;
}

/*
 * What a dstm-1 tree worm is made of: @n datagrams sent one at a time,
 * each traced (the links its worm reserved).  Every link carries the data
 * flits and the tail once; the rest of the flit-hops are header flits.
 * Sets *@links to the mean links per worm and returns the header's share
 * of the flit-hops, or -1.
 */
static double header_share(const struct wc_topo *t, const void *tables,
			   u32 members, u32 bytes, u32 n, double *links)
{
	struct wc_trace_link tl[256];
	struct wc_trace_dst td[64];
	struct wc_engine_params p;
	struct wc_engine_stats st;
	struct wc_trace tr;
	struct ctx c = { 0 };
	struct wc_msg *m;
	u64 nlinks = 0;
	u32 i, d, words;

	wc_engine_params_default(&p, t);
	c.e = wc_engine_create(t, &p, &wc_algo_tree, &ops, &c);
	if (!c.e)
		return -1;
	c.free_msgs = &m;	/* op_done() hands @m back there */
	m = malloc(wc_msg_size(c.e));
	words = wc_algo_hdr_words(&wc_algo_tree, members);
	for (i = 0; m && i < n; i++) {
		u32 *hdr = malloc(words * sizeof(u32));

		memset(&tr, 0, sizeof(tr));
		tr.links = tl;
		tr.max_links = ARRAY_SIZE(tl);
		tr.dsts = td;
		tr.max_dsts = ARRAY_SIZE(td);
		wc_msg_init(c.e, m, 0, bytes + FRAME_OVERHEAD, NULL);
		for (d = 1; d <= members; d++)
			wc_msg_add_dst(c.e, m, d);
		m->hdr = hdr;
		m->hdr_max = words;
		m->trace = &tr;
		c.nfree = 0;
		wc_engine_submit(c.e, m);
		while (wc_engine_busy(c.e))
			wc_engine_run(c.e, POLL_CYCLES, tables);
		free(hdr);
		if (tr.nworms != 1 || tr.lost)
			break;
		nlinks += tr.nlinks;
	}
	wc_engine_get_stats(c.e, &st);
	free(m);
	wc_engine_destroy(c.e);
	if (i < n || !st.flit_hops)
		return -1;
	*links = (double)nlinks / n;
	return 1 - (double)nlinks *
		   (DIV_ROUND_UP(bytes + FRAME_OVERHEAD, p.flit_bytes) + 1) /
		   st.flit_hops;
}

static int median_run(const struct wc_topo *t, const struct wc_algo *algo,
		      const void *tables, u32 members, u32 bytes, u32 frames,
		      struct result *r)
{
	double us[RUNS];
	int k;

	for (k = 0; k < RUNS; k++) {
		if (run(t, algo, tables, members, bytes, frames, r))
			return -1;
		us[k] = r->us_per_dg;
	}
	r->us_per_dg = bench_median(us, RUNS);
	return 0;
}

int main(int argc, char **argv)
{
	static const u32 members[] = { 8, 32, 63 };
	static const u32 sizes[] = { 64, 1024 };
	const char *only = NULL;
	bool quick = false;
	struct wc_tree_set set;
	struct wc_topo t;
	u32 dims[2] = { 8, 8 }, frames = 0, i, j;
	const char *why = NULL;
	void *table;
	size_t len;
	int a;

	for (a = 1; a < argc; a++) {
		if (!strcmp(argv[a], "--quick")) {
			quick = true;
		} else if (!strcmp(argv[a], "--frames") && a + 1 < argc &&
			   atoi(argv[a + 1]) > 0) {
			frames = (u32)atoi(argv[++a]);
		} else if (!strcmp(argv[a], "--only") && a + 1 < argc &&
			   (!strcmp(argv[a + 1], "dstm1") ||
			    !strcmp(argv[a + 1], "unicast"))) {
			only = argv[++a];
		} else {
			fprintf(stderr, "usage: bench_mcast [--quick] [--frames N] [--only dstm1|unicast]\n");
			return 2;
		}
	}
	if (!frames)
		frames = quick ? QUICK_FRAMES : FRAMES;
	if (wc_topo_init(&t, WC_TOPO_TORUS, 2, dims, NULL) ||
	    wc_trees_table(WORMCAST_MCAST_DSTM1, &t, NULL, &table, &len, &why) ||
	    wc_tree_set_build(&set, &t, table, len, &why)) {
		fprintf(stderr, "bench_mcast: dstm-1 tables: %s\n", why ? why : "?");
		return 1;
	}
	printf("# bench_mcast: one sender (node 0) to members 1..M of an 8x8 torus,\n"
	       "# engine defaults, driven as the NAPI poll does (backlog %d, %d-cycle runs);\n"
	       "# CPU time per datagram, median of %d runs of %u datagrams\n",
	       BACKLOG, POLL_CYCLES, RUNS, frames);
	for (i = 0; i < ARRAY_SIZE(members); i++) {
		for (j = 0; j < ARRAY_SIZE(sizes); j++) {
			struct result d, u;
			const char *pfx = "mcast";
			double share, links;

			if (only && !strcmp(only, "dstm1")) {
				if (median_run(&t, &wc_algo_tree, &set, members[i],
					       sizes[j], frames, &d))
					return 1;
				printf("%s.%umembers.%uB.dstm1: %.2f us/datagram\n",
				       pfx, members[i], sizes[j], d.us_per_dg);
				continue;
			}
			if (only) {
				if (median_run(&t, &wc_algo_unicast_based, NULL,
					       members[i], sizes[j], frames, &u))
					return 1;
				printf("%s.%umembers.%uB.unicast: %.2f us/datagram\n",
				       pfx, members[i], sizes[j], u.us_per_dg);
				continue;
			}
			if (median_run(&t, &wc_algo_tree, &set, members[i],
				       sizes[j], frames, &d) ||
			    median_run(&t, &wc_algo_unicast_based, NULL,
				       members[i], sizes[j], frames, &u))
				return 1;
			printf("%s.%umembers.%uB.dstm1: %.2f us/datagram, %.0f cycles, %.1f worms, %.0f flit-hops\n",
			       pfx, members[i], sizes[j], d.us_per_dg,
			       d.cycles_per_dg, d.worms_per_dg, d.hops_per_dg);
			printf("%s.%umembers.%uB.unicast: %.2f us/datagram, %.0f cycles, %.1f worms, %.0f flit-hops\n",
			       pfx, members[i], sizes[j], u.us_per_dg,
			       u.cycles_per_dg, u.worms_per_dg, u.hops_per_dg);
			share = header_share(&t, &set, members[i], sizes[j], 64,
					     &links);
			if (share < 0)
				return 1;
			printf("%s.%umembers.%uB.dstm1.header_flit_hops: %.0f %% (a tree worm reserves %.1f links)\n",
			       pfx, members[i], sizes[j], share * 100, links);
			printf("%s.%umembers.%uB.ns_per_flit_hop: dstm-1 %.1f, unicast %.1f\n",
			       pfx, members[i], sizes[j],
			       d.us_per_dg * 1e3 / d.hops_per_dg,
			       u.us_per_dg * 1e3 / u.hops_per_dg);
			printf("%s.%umembers.%uB.ratio: dstm-1/unicast %.2f x datagrams per CPU second, %.2f x per engine cycle, %.2f x per flit-hop\n",
			       pfx, members[i], sizes[j],
			       u.us_per_dg / d.us_per_dg,
			       u.cycles_per_dg / d.cycles_per_dg,
			       u.hops_per_dg / d.hops_per_dg);
		}
	}
	wc_tree_set_free(&set);
	free(table);
	return 0;
}
