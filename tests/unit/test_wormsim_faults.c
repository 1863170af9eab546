// SPDX-License-Identifier: GPL-2.0
/*
 * wormsim --fault-link, --random-faults and --fault-info (DSTM section 7;
 * Documentation/wormsim.rst, "Faulty links"), on a 16x16 torus with
 * section 6's parameters.  Checked, with one faulty link of tree 0 and
 * one of tree 1 in turn, with global information:
 *  - under Fig. 9's and Fig. 10's traffic every destination of every
 *    message consumes it exactly once (no copy at a non-destination, none
 *    twice, no message finished with a destination missed), the watchdog
 *    never fires, and the faulty link's two channels carry no flit (their
 *    busy cycles, the --links-json figures, are 0), while the same traffic
 *    without the fault does use them;
 *  - at zero load the latency of a unicast between the link's two ends,
 *    and between random pairs, is Eq. 1 over the good path: the shortest
 *    path over the trees' links with the faulty link removed, found here by
 *    BFS in each tree (a unicast takes the tree whose path avoids the
 *    fault, the shorter when both do); the nodes below the link match;
 * with local information (--fault-info local):
 *  - at zero load a unicast whose fault-free path crosses the link takes
 *    Eq. 1 to the router before it, plus at most one router and link
 *    delay, plus Eq. 1 from there over the good path, re-injected once;
 *    the others Eq. 1 over their fault-free path;
 *  - under both traffics: exactly once, no watchdog, the link idle, some
 *    messages re-injected, a higher mean latency than global information;
 * and:
 *  - --random-faults draws distinct real links, reproducibly per --seed;
 *  - bad arguments are refused with status 1 or 2 and a message.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "../../tools/wormsim/sim.c"
#include "sim_parse.h"

/* Section 6 (tools/bench/dstm_figs.sh), shorter messages for the tests. */
#define SEC6 "--topology", "torus", "--dims", "16x16", "--vcs", "1", \
	"--cons", "2", "--inj", "1", "--startup", "1000", \
	"--router-delay", "4", "--link-delay", "1", "--buf-flits", "1", \
	"--replication", "lockstep", "--multicast", "dstm-1"
#define MSG_FLITS 32

/*
 * A link of tree @k of section 6's fault-free dstm-1 table: a node and its
 * parent, and "A:B" for --fault-link in @fl.
 */
static void tree_link(u32 k, u32 *a, u32 *b, char fl[32])
{
	const struct wormcast_trees *h;
	struct sim_config cfg;
	char err[512];
	u32 v;

	PARSE(&cfg, err, SEC6);
	h = cfg.table;
	v = h->root[k] == 0 ? 1 : 0;
	*a = v;
	*b = wc_topo_neighbor(&cfg.topo, v, h->parent_port[k * h->nnodes + v]);
	sim_config_free(&cfg);
	snprintf(fl, 32, "%u:%u", *a, *b);
}

/*
 * Links from @a to every node over tree @k of the table's trees without
 * the configuration's faulty links (with them if !@cut), by BFS, into
 * @dist (U32_MAX: the faults cut them apart).  Returns the nodes reached.
 */
static u32 tree_bfs_cut(const struct sim_config *cfg, u32 k, u32 a, u32 *dist,
			bool cut)
{
	const struct wc_topo *t = &cfg->topo;
	const struct wormcast_trees *h = cfg->table;
	u32 n = t->nnodes, *queue = malloc(n * sizeof(u32));
	u32 head = 0, tail = 0, v, w, p, i;
	u8 *in = calloc(wc_link_space(t), 1);

	for (v = 0; v < n; v++)
		dist[v] = U32_MAX;
	if (!queue || !in) {
		free(queue);
		free(in);
		return 0;
	}
	for (v = 0; v < n; v++)
		if (v != h->root[k])
			in[wc_link_id(t, v, h->parent_port[k * n + v])] = 1;
	for (i = 0; cut && i < cfg->nfaults; i++)
		in[cfg->fault_links[i]] = 0;
	dist[a] = 0;
	queue[tail++] = a;
	while (head < tail) {
		v = queue[head++];
		for (p = 0; p < t->nports; p++) {
			w = wc_topo_neighbor(t, v, p);
			if (w == WC_NO_NODE || !in[wc_link_id(t, v, p)] ||
			    dist[w] != U32_MAX)
				continue;
			dist[w] = dist[v] + 1;
			queue[tail++] = w;
		}
	}
	free(queue);
	free(in);
	return tail;
}

static u32 tree_bfs_all(const struct sim_config *cfg, u32 k, u32 a, u32 *dist)
{
	return tree_bfs_cut(cfg, k, a, dist, true);
}

static u32 tree_bfs(const struct sim_config *cfg, u32 k, u32 a, u32 b)
{
	u32 dist[WC_MAX_NODES];

	tree_bfs_all(cfg, k, a, dist);
	return dist[b];
}

/* Latency of one unicast @a -> @b alone in @st's engine; 0 if not done. */
static u64 lone_unicast(struct sim_state *st, u32 a, u32 b)
{
	u32 i;

	sim_hist_init(&st->lat[SIM_UNICAST]);
	if (sim_submit(st, a, &b, 1, SIM_UNICAST, true, NULL))
		return 0;
	/* --fault-info local: the copy re-injected at the fault too */
	for (i = 0; i < 10 && (wc_engine_busy(st->e) || st->pending); i++) {
		wc_engine_run(st->e, 100000, st->tables);
		if (sim_reinject(st))
			return 0;
	}
	return st->lat[SIM_UNICAST].count == 1 ? st->lat[SIM_UNICAST].max : 0;
}

/*
 * @st on @cfg for messages sent one at a time, with no measuring window;
 * false (a failed check, @cfg freed) if it cannot be set up.
 */
static bool zero_load_state(struct sim_state *st, struct sim_config *cfg,
			    struct sim_result *res)
{
	memset(res, 0, sizeof(*res));
	if (state_init(st, cfg, res)) {
		ok(0, "state");
		state_fini(st);
		sim_config_free(cfg);
		return false;
	}
	st->win_end = U64_MAX;
	return true;
}

/* Pair @i of a zero-load test: link @a-@b's ends both ways, then random. */
static void draw_pair(struct sim_rng *rng, u32 i, u32 a, u32 b, u32 *s, u32 *t)
{
	if (i < 2) {
		*s = i ? b : a;
		*t = i ? a : b;
	} else {
		*s = sim_rng_below(rng, 256);
		*t = sim_rng_below(rng, 255);
		*t += *t >= *s;
	}
}

static void test_zero_load(u32 k)
{
	struct sim_config cfg;
	struct sim_result res;
	struct sim_state st;
	char err[512], fl[32];
	u32 a, b, i, pairs = 0, wrong = 0, cut = 0, d0, d1, d, s, t;
	struct sim_rng rng;
	u64 lat, want;

	tree_link(k, &a, &b, fl);
	is_int(PARSE(&cfg, err, SEC6, "--msg-flits", "32", "--fault-link", fl),
	       0, "--fault-link %s (tree %u): %s", fl, k, err);
	ok(cfg.nfaults == 1 && cfg.fault_tree[0] == (s8)k,
	   "one faulty link, of tree %d", cfg.nfaults ? cfg.fault_tree[0] : -1);
	{
		const struct wormcast_trees *h = cfg.table;
		u32 dist[WC_MAX_NODES], na, nb;
		bool a_root;

		na = tree_bfs_all(&cfg, k, a, dist);
		a_root = dist[h->root[k]] != U32_MAX;
		nb = tree_bfs_all(&cfg, k, b, dist);
		ok(na + nb == 256 && cfg.fault_cut[0] == (a_root ? nb : na),
		   "the fault cuts tree %u into %u + %u nodes; %u below the link, away from the root",
		   k, na, nb, cfg.fault_cut[0]);
	}
	if (!zero_load_state(&st, &cfg, &res))
		return;
	sim_rng_seed(&rng, 7 + k);
	for (i = 0; i < 2 + 200; i++) {
		draw_pair(&rng, i, a, b, &s, &t);
		d0 = tree_bfs(&cfg, 0, s, t);
		d1 = tree_bfs(&cfg, 1, s, t);
		cut += d0 == U32_MAX || d1 == U32_MAX;
		d = d0 < d1 ? d0 : d1;
		/* Eq. 1: alpha + d (router + link delay) + L - 1, L = 1 + 32 + 1 */
		want = 1000 + (u64)d * (4 + 1) + MSG_FLITS + 1;
		lat = lone_unicast(&st, s, t);
		pairs++;
		if (lat != want && wrong++ < 3)
			diag("%u -> %u: latency %llu, want %llu (tree paths %d, %d)",
			     s, t, (unsigned long long)lat,
			     (unsigned long long)want, (int)d0, (int)d1);
		if (i < 2)
			ok(d != U32_MAX && (k ? d1 : d0) == U32_MAX &&
			   lat == want,
			   "tree %u link %u-%u: %u -> %u at zero load in %llu cycles = Eq. 1 over the other tree's %u links",
			   k, a, b, s, t, (unsigned long long)lat, d);
	}
	ok(!wrong && cut >= 2,
	   "tree %u fault: %u unicasts at Eq. 1 over the good path's BFS length (%u cut in one tree)",
	   k, pairs, cut);
	ok(!res.deadlocks && !res.route_errors && !res.misdelivered && !res.lost,
	   "tree %u fault, zero load: no watchdog, route error, loss or misdelivery", k);
	state_fini(&st);
	sim_config_free(&cfg);
}

/* Busy cycles of both channels of link @l in @res. */
static u64 link_busy(const struct sim_config *cfg, const struct sim_result *res,
		     u32 l)
{
	u32 a, pa, b, pb;

	wc_link_ends(&cfg->topo, l, &a, &pa, &b, &pb);
	return res->link_busy[a * cfg->topo.nports + pa] +
	       res->link_busy[b * cfg->topo.nports + pb];
}

static void test_traffic(u32 k, bool fig10)
{
	const char *fig = fig10 ? "Fig. 10" : "Fig. 9";
	struct sim_config cfg, free_cfg;
	struct sim_result res, free_res;
	char err[512], fl[32];
	u32 a, b;
	u64 busy, free_busy;

	tree_link(k, &a, &b, fl);
	/* below the knee: section 6's messages, the middle of the figures */
#define TRAFFIC "--msg-flits", "128", "--mcast-frac", fig10 ? "1" : "0.1", \
	"--dsts", fig10 ? "uniform:5:10" : "48", \
	"--load", fig10 ? "0.003" : "0.006", \
	"--warmup", "5000", "--cycles", "40000", "--drain", "30000"
	is_int(PARSE(&cfg, err, SEC6, TRAFFIC, "--fault-link", fl), 0,
	       "%s traffic, link %s faulty: %s", fig, fl, err);
	is_int(PARSE(&free_cfg, err, SEC6, TRAFFIC), 0, "the same, fault-free");
	cfg.links_json = free_cfg.links_json = "-";	/* keep the busy cycles */
	memset(&res, 0, sizeof(res));
	memset(&free_res, 0, sizeof(free_res));
	if (sim_run(&cfg, cfg.load, &res) || sim_run(&free_cfg, free_cfg.load,
						     &free_res)) {
		ok(0, "runs");
		goto out;
	}
	busy = link_busy(&cfg, &res, cfg.fault_links[0]);
	free_busy = link_busy(&cfg, &free_res, cfg.fault_links[0]);
	ok(res.tagged > 200 && res.cls[SIM_MULTICAST].count > 20 &&
	   !res.incomplete && !res.lost && !res.misdelivered,
	   "%s, tree %u link %s faulty: %llu messages (%llu multicasts), every destination consumed exactly once",
	   fig, k, fl, (unsigned long long)res.tagged,
	   (unsigned long long)res.cls[SIM_MULTICAST].count);
	ok(!res.deadlocks && !res.route_errors && !res.dump[0],
	   "%s, tree %u fault: the watchdog never fired, no route error", fig, k);
	ok(busy == 0 && free_busy > 0,
	   "%s, tree %u fault: the faulty link's channels busy %llu cycles (fault-free: %llu)",
	   fig, k, (unsigned long long)busy, (unsigned long long)free_busy);
	ok(free_res.tagged == res.tagged && !free_res.lost && !free_res.misdelivered,
	   "%s: the fault-free run draws the same %llu messages",
	   fig, (unsigned long long)free_res.tagged);
out:
	free(res.link_busy);
	free(res.link_blocked);
	free(free_res.link_busy);
	free(free_res.link_blocked);
	sim_config_free(&cfg);
	sim_config_free(&free_cfg);
#undef TRAFFIC
}

/*
 * A link of each tree faulty, global information: neither fault-free
 * tree joins every node, so the table is the one wormcastd pushes, two
 * trees rebuilt on the live links (wc_trees_table_two_faults()); under
 * Fig. 10's traffic no worm meets a fault.
 */
static void test_both_trees_cut(void)
{
	struct sim_config cfg, free_cfg;
	struct sim_result res;
	char err[512], fl0[32], fl1[32];
	const struct wormcast_trees *h, *h0;
	u32 a, b, c, d;

	tree_link(0, &a, &b, fl0);
	tree_link(1, &c, &d, fl1);
#define TRAFFIC "--msg-flits", "128", "--mcast-frac", "1", \
	"--dsts", "uniform:5:10", "--load", "0.003", \
	"--warmup", "5000", "--cycles", "40000", "--drain", "30000"
	is_int(PARSE(&cfg, err, SEC6, TRAFFIC, "--fault-link", fl0,
		     "--fault-link", fl1), 0, "links %s (tree 0) and %s (tree 1) faulty: %s",
	       fl0, fl1, err);
	is_int(PARSE(&free_cfg, err, SEC6), 0, "the fault-free table");
	h = cfg.table;
	h0 = free_cfg.table;
	ok(cfg.trees_rebuilt && h->nfaults == 2 &&
	   memcmp(h->parent_port, h0->parent_port, 2 * (size_t)h->nnodes),
	   "both trees cut: the table's trees rebuilt on the live links, the two links listed");
	cfg.links_json = "-";	/* keep the busy cycles */
	memset(&res, 0, sizeof(res));
	if (sim_run(&cfg, cfg.load, &res)) {
		ok(0, "run");
		goto out;
	}
	ok(res.tagged > 200 && !res.incomplete && !res.lost &&
	   !res.misdelivered && !res.deadlocks && !res.route_errors &&
	   link_busy(&cfg, &res, cfg.fault_links[0]) == 0 &&
	   link_busy(&cfg, &res, cfg.fault_links[1]) == 0,
	   "Fig. 10 traffic on the rebuilt trees: %llu messages, every destination consumed exactly once, neither faulty link used",
	   (unsigned long long)res.tagged);
out:
	free(res.link_busy);
	free(res.link_blocked);
	sim_config_free(&cfg);
	sim_config_free(&free_cfg);
#undef TRAFFIC
}

static void test_random(void)
{
	struct sim_config c1, c2, c3;
	char err[512];
	u32 i, j, a, pa, b, pb, real = 0, distinct = 1;

	is_int(PARSE(&c1, err, SEC6, "--random-faults", "20", "--seed", "5"), 0,
	       "--random-faults 20: %s", err);
	PARSE(&c2, err, SEC6, "--random-faults", "20", "--seed", "5");
	PARSE(&c3, err, SEC6, "--random-faults", "20", "--seed", "6");
	for (i = 0; i < c1.nfaults; i++) {
		wc_link_ends(&c1.topo, c1.fault_links[i], &a, &pa, &b, &pb);
		real += b != WC_NO_NODE &&
			wc_topo_port_to(&c1.topo, a, b) != WC_NO_PORT;
		for (j = 0; j < i; j++)
			distinct &= c1.fault_links[j] != c1.fault_links[i];
	}
	ok(c1.nfaults == 20 && c1.random_faults == 20 && real == 20 && distinct,
	   "20 distinct real links drawn");
	ok(c2.nfaults == 20 &&
	   !memcmp(c1.fault_links, c2.fault_links, sizeof(c1.fault_links)) &&
	   memcmp(c1.fault_links, c3.fault_links, sizeof(c1.fault_links)),
	   "the same links for the same --seed, others for another");
	ok(((const struct wormcast_trees *)c1.table)->nfaults == 20,
	   "the table carries them (nfaults %u)",
	   ((const struct wormcast_trees *)c1.table)->nfaults);
	sim_config_free(&c1);
	sim_config_free(&c2);
	sim_config_free(&c3);

	/* the fault draw leaves the seed's traffic alone: paired runs */
	{
		struct sim_result r1, r2;

		PARSE(&c1, err, SEC6, "--random-faults", "1", "--seed", "3",
		      "--load", "0.004", "--cycles", "5000", "--msg-flits", "32");
		PARSE(&c2, err, SEC6, "--seed", "3", "--load", "0.004",
		      "--cycles", "5000", "--msg-flits", "32");
		if (!sim_run(&c1, c1.load, &r1) && !sim_run(&c2, c2.load, &r2))
			ok(r1.tagged == r2.tagged && r1.tagged > 50 &&
			   r1.cls[SIM_UNICAST].count == r2.cls[SIM_UNICAST].count,
			   "--random-faults 1: the seed's %llu messages as without it",
			   (unsigned long long)r1.tagged);
		else
			ok(0, "paired runs");
		sim_config_free(&c1);
		sim_config_free(&c2);
	}
}

static void test_refused(void)
{
	static const struct {
		const char *args[7];
		int status;
		const char *msg;
	} bad[] = {
		{ { "--fault-link", "0:2" }, 1, "not adjacent" },
		{ { "--fault-link", "0:256" }, 1, "nodes 0..255" },
		{ { "--fault-link", "0:0" }, 1, "not adjacent" },
		{ { "--fault-link", "3" }, 1, "expected A:B" },
		{ { "--fault-link", "a:b" }, 1, "expected A:B" },
		{ { "--fault-link", "0:1", "--fault-link", "1:0" }, 1, "listed twice" },
		{ { "--fault-link" }, 2, "needs an argument" },
		{ { "--random-faults", "0" }, 1, "--random-faults: expected 1..512" },
		{ { "--random-faults", "513" }, 1, "--random-faults: expected 1..512" },
		{ { "--fault-link", "0:1", "--random-faults", "256" }, 1, "at most 256" },
		{ { "--multicast", "spam", "--fault-link", "0:1" }, 1, "two-tree scheme" },
		{ { "--multicast", "unicast", "--vcs", "2", "--random-faults", "1" }, 1,
		  "two-tree scheme" },
		{ { "--mcast0", "5", "--fault-link", "0:1" }, 1, "not --mcast0" },
		{ { "--fault-info", "local" }, 1, "goes with --fault-link" },
		{ { "--fault-link", "0:1", "--fault-info", "nearby" }, 1,
		  "expected global or local" },
		{ { "--fault-link", "0:1", "--fault-link", "0:16", "--fault-info",
		    "local" }, 1, "single faulty link, got 2" },
	};
	struct sim_config cfg;
	char err[512];
	u32 i, refused = 0;
	int ret;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		const char *const *x = bad[i].args;

		ret = PARSE(&cfg, err, SEC6, x[0], x[1], x[2], x[3], x[4], x[5]);
		if (ret == bad[i].status && strstr(err, bad[i].msg))
			refused++;
		else
			diag("%s %s ...: status %d, '%s'", x[0],
			     x[1] ? x[1] : "", ret, err);
		sim_config_free(&cfg);
	}
	is_int(refused, ARRAY_SIZE(bad), "bad fault arguments refused with their message");
	is_int(PARSE(&cfg, err, SEC6, "--fault-link", "0:1", "--fault-link", "0:16"),
	       0, "two faulty links accepted");
	ok(cfg.nfaults == 2, "two faulty links kept");
	sim_config_free(&cfg);
}

/*
 * --fault-info local, zero load: the source picks the fault-free shorter
 * tree (tree 0 on a tie); a unicast whose path crosses the faulty link is
 * consumed whole by the router before it, R (its tail there Eq. 1 over
 * the path to R after submission, plus at most one router and link
 * delay while the absorbed branch drains), and re-injected from R to
 * the destination over the good path (Eq. 1 again); the others take Eq. 1
 * over their path.  Distances by BFS, the tree choice recomputed here.
 */
static void test_local_zero_load(u32 k)
{
	struct sim_config cfg;
	struct sim_result res;
	struct sim_state st;
	char err[512], fl[32];
	u32 a, b, i, s, t, r, d[2], dr, dg, via = 0, wrong = 0, crossed;
	u32 dist_a[WC_MAX_NODES];
	struct sim_rng rng;
	u64 lat, lo, hi, reinj;

	tree_link(k, &a, &b, fl);
	is_int(PARSE(&cfg, err, SEC6, "--msg-flits", "32", "--fault-link", fl,
		     "--fault-info", "local"), 0, "--fault-info local: %s", err);
	ok(cfg.fault_local && cfg.table_global && cfg.algo == &wc_algo_tree_local &&
	   ((const struct wormcast_trees *)cfg.table)->nfaults == 0 &&
	   ((const struct wormcast_trees *)cfg.table_global)->nfaults == 1,
	   "local: the sources' table has no fault (wc_algo_tree_local), the fault list one");
	if (!zero_load_state(&st, &cfg, &res))
		return;
	sim_rng_seed(&rng, 11 + k);
	/* the piece of a in tree k without the link */
	tree_bfs_all(&cfg, k, a, dist_a);
	for (i = 0; i < 2 + 300; i++) {
		draw_pair(&rng, i, a, b, &s, &t);
		{
			u32 dist[WC_MAX_NODES];

			tree_bfs_cut(&cfg, 0, s, dist, false);
			d[0] = dist[t];
			tree_bfs_cut(&cfg, 1, s, dist, false);
			d[1] = dist[t];
		}
		/* fault-free choice: the shorter tree, tree 0 on a tie */
		crossed = (d[1] < d[0] ? 1u : 0u) == k &&
			  (dist_a[s] == U32_MAX) != (dist_a[t] == U32_MAX);
		reinj = res.reinjected;
		lat = lone_unicast(&st, s, t);
		if (crossed) {
			r = dist_a[s] != U32_MAX ? a : b;	/* near end */
			dr = tree_bfs(&cfg, k, s, r);
			dg = tree_bfs(&cfg, k ? 0 : 1, r, t);
			lo = 1000 + (u64)dr * 5 + MSG_FLITS + 1 +
			     1000 + (u64)dg * 5 + MSG_FLITS + 1;
			hi = lo + 5;
			via++;
		} else {
			lo = hi = 1000 + (u64)d[d[1] < d[0] ? 1 : 0] * 5 +
				  MSG_FLITS + 1;
		}
		if ((lat < lo || lat > hi || res.reinjected - reinj != crossed) &&
		    wrong++ < 3)
			diag("%u -> %u: latency %llu, want %llu..%llu (re-injected %llu, crossed %u)",
			     s, t, (unsigned long long)lat,
			     (unsigned long long)lo, (unsigned long long)hi,
			     (unsigned long long)(res.reinjected - reinj), crossed);
		if (i < 2)
			ok(crossed && lat >= lo && lat <= hi,
			   "local, tree %u link %s: %u -> %u consumed at %u and re-injected: %llu cycles, Eq. 1 twice (%llu..%llu)",
			   k, fl, s, t, s, (unsigned long long)lat,
			   (unsigned long long)lo, (unsigned long long)hi);
	}
	ok(!wrong && via >= 2,
	   "local, tree %u fault: %u unicasts by the model, %u of them re-injected at the fault",
	   k, 2 + 300, via);
	ok(!res.deadlocks && !res.route_errors && !res.misdelivered && !res.lost,
	   "local, tree %u, zero load: no watchdog, route error, loss or misdelivery", k);
	state_fini(&st);
	sim_config_free(&cfg);
}

/* --fault-info local under Figs. 9 and 10's traffic. */
static void test_local_traffic(bool fig10)
{
	const char *fig = fig10 ? "Fig. 10" : "Fig. 9";
	struct sim_config cfg, gcfg;
	struct sim_result res, gres;
	char err[512], fl[32];
	u32 a, b;

	tree_link(0, &a, &b, fl);
#define TRAFFIC "--msg-flits", "128", "--mcast-frac", fig10 ? "1" : "0.1", \
	"--dsts", fig10 ? "uniform:5:10" : "48", \
	"--load", fig10 ? "0.002" : "0.004", \
	"--warmup", "5000", "--cycles", "40000", "--drain", "30000"
	is_int(PARSE(&cfg, err, SEC6, TRAFFIC, "--fault-link", fl,
		     "--fault-info", "local"), 0, "%s, local: %s", fig, err);
	is_int(PARSE(&gcfg, err, SEC6, TRAFFIC, "--fault-link", fl), 0,
	       "%s, global", fig);
#undef TRAFFIC
	cfg.links_json = "-";
	memset(&res, 0, sizeof(res));
	memset(&gres, 0, sizeof(gres));
	if (sim_run(&cfg, cfg.load, &res) || sim_run(&gcfg, gcfg.load, &gres)) {
		ok(0, "runs");
		goto out;
	}
	ok(res.tagged > 100 && !res.incomplete && !res.lost && !res.misdelivered &&
	   !res.deadlocks && !res.route_errors,
	   "%s, local, link %s: %llu messages, every destination exactly once, no watchdog",
	   fig, fl, (unsigned long long)res.tagged);
	ok(res.reinjected > 10 && !gres.reinjected &&
	   link_busy(&cfg, &res, cfg.fault_links[0]) == 0,
	   "%s, local: %llu messages re-injected at the fault (global: %llu), the link idle",
	   fig, (unsigned long long)res.reinjected,
	   (unsigned long long)gres.reinjected);
	ok(res.lat_mean > gres.lat_mean,
	   "%s: local information costs latency: %.1f against %.1f cycles (global)",
	   fig, res.lat_mean, gres.lat_mean);
out:
	free(res.link_busy);
	free(res.link_blocked);
	sim_config_free(&cfg);
	sim_config_free(&gcfg);
}

int main(void)
{
	test_refused();
	test_random();
	test_zero_load(0);
	test_zero_load(1);
	test_traffic(0, false);
	test_traffic(1, false);
	test_traffic(0, true);
	test_traffic(1, true);
	test_both_trees_cut();
	test_local_zero_load(0);
	test_local_zero_load(1);
	test_local_traffic(false);
	test_local_traffic(true);
	return done_testing();
}
