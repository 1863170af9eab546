// SPDX-License-Identifier: GPL-2.0
/*
 * wormsim under --multicast ocms and otms (tools/wormsim/sim.c,
 * sim_plan_msg()): every multicast is sent as the daemon library's plan,
 * through the engine.  On random (source, destination set) instances of a
 * 6x5 and an 8x8 mesh, for dual-path, multipath, ocms and otms, a message
 * prepared by wormsim goes through an empty engine and we check:
 *  - the links the engine reserved are exactly those of the offline
 *    planner's worms (wc_pathplan() of the same scheme, routed with
 *    wc_mstar_worm_route());
 *  - the engine's flit-hops are what those worms carry over those links
 *    (one header flit per destination still ahead, data, tail): each worm
 *    crossed each of its links once, so the engine's channel crossings
 *    are the planner's count, a link two worms share counted twice;
 *  - every destination received exactly once, nothing else did;
 *  - the path-based paper's claims on the very same instances: OCMS uses
 *    no more channels than dual-path or multipath (Problem 1, Eq. 3: both
 *    are multicast stars of Definition 1), OTMS's longest worm is no
 *    longer than theirs (Problem 2, Eq. 4), and -- the consequence in our
 *    flit model, each side's worms leaving together -- its zero-load
 *    latency no higher than dual-path's.
 * Then wormsim's own runs (--mcast0 and a load point) under ocms and otms:
 * no plan fallback, nothing lost, no deadlock.
 */
#include "tap.h"
#include "../../tools/wormsim/sim.c"
#include "../../tools/wormsim/mcast0.c"

#define NSCHEMES 4

static const char *const schemes[NSCHEMES] = {
	"dual-path", "multipath", "ocms", "otms"
};

struct eng {
	struct sim_config cfg;
	struct wc_label_set ls;
	struct wc_engine *e;
	struct sim_planner *pl;		/* ocms, otms */
	enum wc_pathplan_algo algo;
	u32 *got;			/* deliveries per node */
	u64 *busy;			/* channel busy cycles before a send */
	u64 lat, errors;
};

static void t_deliver(void *priv, struct wc_msg *m, u32 node, u64 latency)
{
	struct eng *x = priv;

	x->got[node]++;
	if (latency > x->lat)
		x->lat = latency;
}

static void t_done(void *priv, struct wc_msg *m)
{
	free(m);
}

static void t_error(void *priv, struct wc_msg *m, u32 node, int err)
{
	((struct eng *)priv)->errors++;
}

static void t_deadlock(void *priv, u64 cycle)
{
	((struct eng *)priv)->errors++;
}

static const struct wc_engine_ops t_ops = {
	.deliver = t_deliver,
	.msg_done = t_done,
	.route_error = t_error,
	.deadlock = t_deadlock,
};

static int eng_init(struct eng *x, const char *dims, const char *scheme)
{
	char *argv[] = { "wormsim", "--dims", (char *)dims, "--multicast",
			 (char *)scheme, "--inj", "4", "--msg-flits", "8", NULL };
	char err[256];
	int ret;

	memset(x, 0, sizeof(*x));
	if (sim_parse_args(9, argv, &x->cfg, err, sizeof(err)) ||
	    sim_plan_algo(x->cfg.mcast_scheme, &x->algo) ||
	    wc_label_set_build(&x->ls, &x->cfg.topo, x->cfg.table,
			       x->cfg.table_len, NULL))
		return -EINVAL;
	x->pl = sim_planner_new(&x->cfg, &x->ls, &ret);
	x->e = wc_engine_create(&x->cfg.topo, &x->cfg.params, x->cfg.algo,
				&t_ops, x);
	x->got = calloc(x->cfg.topo.nnodes, sizeof(u32));
	x->busy = calloc(x->cfg.topo.nnodes * x->cfg.topo.nports, sizeof(u64));
	return ret || !x->e || !x->got || !x->busy ? -ENOMEM : 0;
}

static void eng_fini(struct eng *x)
{
	wc_engine_destroy(x->e);
	sim_planner_free(x->pl);
	wc_label_set_free(&x->ls);
	sim_config_free(&x->cfg);
	free(x->got);
	free(x->busy);
}

/* What one multicast did in the engine, and what its planner said. */
struct shot {
	bool preset;		/* wormsim laid a plan out (ocms, otms) */
	bool links_equal;	/* engine's links == the planner's worms' */
	bool hops_equal;	/* engine's flit-hops == those worms' */
	bool once;		/* each destination once, nobody else */
	u32 channels;		/* planner: crossings, per worm */
	u32 links;		/* engine: distinct links reserved */
	u32 max_length;		/* planner: longest worm */
	u64 lat;		/* engine: the last tail consumed */
	u64 errors;
};

static void send(struct eng *x, u32 src, const u32 *d, u32 k, struct shot *r)
{
	const struct wc_topo *t = &x->cfg.topo;
	u32 np = t->nports, n = t->nnodes, words = wc_label_hdr_words(k);
	u32 flits = sim_msg_flits(&x->cfg), *path, *links, i, v, w;
	size_t sz = wc_msg_size(x->e);
	struct wc_msg *m = calloc(1, sz + words * sizeof(u32));
	struct wc_engine_stats s0, s1;
	struct sim_planner *pl = x->pl;
	struct wc_labeling lb;
	struct wc_mstar ms;
	u64 hops = 0;

	memset(r, 0, sizeof(*r));
	path = calloc(4 * n, sizeof(u32));
	links = calloc(n * np, sizeof(u32));
	if (!m || !path || !links || wc_labeling_init(&lb, t))
		goto out;
	wc_msg_init(x->e, m, src, x->cfg.msg_bytes, NULL);
	m->hdr = (u32 *)((char *)m + sz);
	m->hdr_max = words;
	for (i = 0; i < k; i++)
		wc_msg_add_dst(x->e, m, d[i]);
	if (pl)
		r->preset = !sim_plan_msg(pl, m) && m->hdr_preset;
	for (v = 0; v < n * np; v++)
		x->busy[v] = wc_engine_channel_busy(x->e, v / np, v % np);
	memset(x->got, 0, n * sizeof(u32));
	x->lat = 0;
	x->errors = 0;
	wc_engine_get_stats(x->e, &s0);
	wc_engine_submit(x->e, m);
	while (wc_engine_busy(x->e))
		wc_engine_run(x->e, 100000, &x->ls);
	wc_engine_get_stats(x->e, &s1);
	r->lat = x->lat;
	r->errors = x->errors;

	/* the offline planner, independently of the message */
	if (wc_pathplan(&lb, x->algo, src, d, k, &ms))
		goto out_lb;
	r->channels = ms.channels;
	r->max_length = ms.max_length;
	for (w = 0; w < ms.nworms; w++) {
		const struct wc_mstar_worm *wm = &ms.worms[w];
		u32 cnt = wc_mstar_worm_route(&lb, src, wm, path), ahead = 0;

		/* from the far end back: header flits of the destinations ahead */
		for (i = cnt - 1; i > 0; i--) {
			if (ahead < wm->ndests &&
			    path[i] == wm->dests[wm->ndests - 1 - ahead])
				ahead++;
			links[path[i - 1] * np +
			      wc_topo_port_to(t, path[i - 1], path[i])]++;
			hops += ahead + flits + 1;
		}
	}
	r->links_equal = true;
	for (v = 0; v < n * np; v++) {
		bool used = wc_engine_channel_busy(x->e, v / np, v % np) !=
			    x->busy[v];

		r->links += used;
		if (used != !!links[v])
			r->links_equal = false;
	}
	r->hops_equal = s1.flit_hops - s0.flit_hops == hops;
	r->once = true;
	for (v = 0; v < n; v++) {
		bool dst = false;

		for (i = 0; i < k; i++)
			dst |= d[i] == v;
		if (x->got[v] != (dst ? 1u : 0u))
			r->once = false;
	}
	wc_mstar_free(&ms);
out_lb:
	wc_labeling_free(&lb);
out:
	free(path);
	free(links);
}

static void random_set(struct sim_rng *rng, u32 n, u32 k, u32 *src, u32 *d)
{
	u32 i, j;

	*src = sim_rng_below(rng, n);
	for (i = 0; i < k; i++) {
		do {
			d[i] = sim_rng_below(rng, n);
			for (j = 0; j < i && d[j] != d[i]; j++)
				;
		} while (d[i] == *src || j < i);
	}
}

static void on_mesh(const char *dims, u32 runs, u32 kmax, u64 seed)
{
	struct eng x[NSCHEMES];
	u32 bad_preset = 0, bad_links[NSCHEMES] = { 0 }, bad_hops[NSCHEMES] = { 0 };
	u32 bad_once[NSCHEMES] = { 0 }, errors = 0, j, s;
	u32 ocms_worse = 0, ocms_better = 0, otms_longer = 0, otms_slower = 0;
	u32 otms_faster = 0, otms_shared = 0, otms_shared_slower = 0;
	struct sim_rng rng;

	for (s = 0; s < NSCHEMES; s++)
		if (eng_init(&x[s], dims, schemes[s])) {
			ok(0, "%s: setup of %s", dims, schemes[s]);
			return;
		}
	sim_rng_seed(&rng, seed);
	for (j = 0; j < runs; j++) {
		u32 k = 1 + sim_rng_below(&rng, kmax), src, d[64];
		struct shot r[NSCHEMES];

		random_set(&rng, x[0].cfg.topo.nnodes, k, &src, d);
		for (s = 0; s < NSCHEMES; s++) {
			send(&x[s], src, d, k, &r[s]);
			bad_links[s] += !r[s].links_equal;
			bad_hops[s] += !r[s].hops_equal;
			bad_once[s] += !r[s].once;
			errors += r[s].errors;
		}
		bad_preset += !r[2].preset + !r[3].preset;
		ocms_worse += r[2].channels > r[0].channels ||
			      r[2].channels > r[1].channels;
		ocms_better += r[2].channels < r[0].channels;
		otms_longer += r[3].max_length > r[0].max_length ||
			       r[3].max_length > r[1].max_length;
		/*
		 * Worms of a star may share a channel (the paper's conclusion:
		 * "some contentions may occur"); they then contend even alone
		 * in the network, and Eq. 2 no longer bounds the latency.
		 */
		if (r[3].links < r[3].channels) {
			otms_shared++;
			otms_shared_slower += r[3].lat > r[0].lat;
		} else {
			otms_slower += r[3].lat > r[0].lat;
		}
		otms_faster += r[3].lat < r[0].lat;
	}
	is_int(bad_preset, 0, "%s: wormsim laid out the plan of all %u ocms and otms multicasts",
	       dims, runs);
	for (s = 0; s < NSCHEMES; s++) {
		is_int(bad_links[s], 0, "%s %s: the engine reserved exactly the planner's links",
		       dims, schemes[s]);
		is_int(bad_hops[s], 0, "%s %s: flit-hops are the planner's worms' (each link once per worm)",
		       dims, schemes[s]);
		is_int(bad_once[s], 0, "%s %s: every destination received once, nobody else",
		       dims, schemes[s]);
	}
	is_int(errors, 0, "%s: no deadlock, no routing error", dims);
	is_int(ocms_worse, 0, "%s: ocms never crossed more channels than dual-path or multipath",
	       dims);
	ok(ocms_better > 0, "%s: ocms crossed fewer channels than dual-path %u times of %u",
	   dims, ocms_better, runs);
	is_int(otms_longer, 0, "%s: otms's longest worm never longer than dual-path's or multipath's",
	       dims);
	is_int(otms_slower, 0, "%s: otms's zero-load latency never above dual-path's when its worms share no channel",
	       dims);
	diag("%s: otms's worms shared a channel in %u of %u multicasts, %u of those slower than dual-path",
	     dims, otms_shared, runs, otms_shared_slower);
	ok(otms_faster > 0, "%s: otms faster than dual-path %u times of %u", dims,
	   otms_faster, runs);
	for (s = 0; s < NSCHEMES; s++)
		eng_fini(&x[s]);
}

/* wormsim's own drivers under @scheme: --mcast0, then one load point. */
static void runs(const char *scheme)
{
	char *argv[] = { "wormsim", "--dims", "6x5", "--multicast",
			 (char *)scheme, "--inj", "4", "--msg-flits", "8",
			 "--mcast0", "10", "--draws", "50", NULL };
	char *argv2[] = { "wormsim", "--dims", "6x5", "--multicast",
			  (char *)scheme, "--inj", "4", "--msg-flits", "8",
			  "--mcast-frac", "0.5", "--dsts", "uniform:2:10",
			  "--load", "0.01", "--warmup", "500", "--cycles",
			  "3000", "--drain", "20000", NULL };
	struct sim_config cfg;
	struct sim_mcast0 z;
	struct sim_result res;
	char err[256];

	if (sim_parse_args(13, argv, &cfg, err, sizeof(err))) {
		ok(0, "%s: parse (%s)", scheme, err);
		return;
	}
	is_int(sim_mcast0(&cfg, &z), 0, "%s --mcast0: ran", scheme);
	is_int(z.plan_fallback + z.lost + z.deadlocks + z.route_errors, 0,
	       "%s --mcast0: no fallback, nothing lost, no deadlock", scheme);
	ok(z.channels > 0 && z.channels <= z.plan_channels,
	   "%s --mcast0: distinct links %.2f <= the planner's crossings %.2f",
	   scheme, z.channels, z.plan_channels);
	sim_config_free(&cfg);
	if (sim_parse_args(21, argv2, &cfg, err, sizeof(err))) {
		ok(0, "%s: parse (%s)", scheme, err);
		return;
	}
	is_int(sim_run(&cfg, cfg.load, &res), 0, "%s under load: ran", scheme);
	ok(res.cls[SIM_MULTICAST].count > 0,
	   "%s under load: %llu multicasts measured", scheme,
	   (unsigned long long)res.cls[SIM_MULTICAST].count);
	is_int(res.plan_fallback + res.lost + res.incomplete + res.deadlocks +
	       res.route_errors, 0,
	       "%s under load: no fallback, nothing lost or left, no deadlock",
	       scheme);
	free(res.link_busy);
	free(res.link_blocked);
	sim_config_free(&cfg);
}

int main(void)
{
	on_mesh("6x5", 150, 10, 1);
	on_mesh("8x8", 150, 24, 2);
	runs("ocms");
	runs("otms");
	return done_testing();
}
