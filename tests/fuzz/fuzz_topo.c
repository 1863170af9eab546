// SPDX-License-Identifier: GPL-2.0
/*
 * Topologies and engine parameters as "ip link add" hands them to the
 * kernel (kmod/link.c: wc_topo_init(), wc_engine_params_check(), the
 * built-in algorithm's check): any kind, dimension count and sizes, any
 * parameter values.  A refusal must name its reason.  What is accepted
 * must be a consistent topology (neighbours and reverse ports agree,
 * coordinates round-trip, wc_topo_distance() equals a breadth-first
 * search on small ones) and parameters the engine can run: the defaults
 * for every topology pass every check, and on accepted parameters the
 * engine is created and carries a unicast in exactly Eq. 1's cycles.
 *
 * Input: kind, ndims and sizes (fz_pick: small or boundary values), an
 * optional node bound (wc_topo_init_bounded, the planners' variant),
 * sample nodes and coordinates, then parameter overrides.
 */
#include "fuzz_params.h"

#define BFS_MAX_NODES	256
#define RUN_MAX_CHANNELS	(1u << 14)	/* create engines this small */

static void check_node(const struct wc_topo *t, u32 a, u32 b)
{
	u32 coords[WC_MAX_COORDS], port, nb, back, dab;

	wc_topo_coords(t, a, coords);
	FUZZ_CHECK(wc_topo_node(t, coords) == a, "coords of %u do not round-trip", a);
	dab = wc_topo_distance(t, a, b);
	FUZZ_CHECK(dab == wc_topo_distance(t, b, a), "distance %u-%u not symmetric",
		   a, b);
	FUZZ_CHECK(!wc_topo_distance(t, a, a), "distance %u-%u", a, a);
	FUZZ_CHECK((a == b) == !dab, "distance %u-%u is %u", a, b, dab);
	for (port = 0; port < t->nports; port++) {
		nb = wc_topo_neighbor(t, a, port);
		if (nb == WC_NO_NODE) {
			FUZZ_CHECK(t->kind == WC_TOPO_MESH,
				   "node %u port %u leads nowhere", a, port);
			continue;
		}
		FUZZ_CHECK(nb < t->nnodes && nb != a, "node %u port %u -> %u", a,
			   port, nb);
		back = wc_topo_reverse_port(t, a, port);
		FUZZ_CHECK(back < t->nports && wc_topo_neighbor(t, nb, back) == a,
			   "node %u port %u: no way back", a, port);
		FUZZ_CHECK(wc_topo_distance(t, a, nb) == 1, "neighbours %u %u", a, nb);
		/* One hop changes the distance to b by at most one. */
		FUZZ_CHECK(wc_topo_distance(t, nb, b) + 1 >= dab &&
			   wc_topo_distance(t, nb, b) <= dab + 1,
			   "distance %u-%u is %u, from neighbour %u %u", a, b, dab,
			   nb, wc_topo_distance(t, nb, b));
	}
	FUZZ_CHECK(wc_topo_neighbor(t, a, t->nports) == WC_NO_NODE, "port past the end");
}

/* wc_topo_distance() from @src against a breadth-first search. */
static void check_bfs(const struct wc_topo *t, u32 src)
{
	u32 dist[BFS_MAX_NODES], queue[BFS_MAX_NODES], head = 0, tail = 0, i;

	for (i = 0; i < t->nnodes; i++)
		dist[i] = U32_MAX;
	dist[src] = 0;
	queue[tail++] = src;
	while (head < tail) {
		u32 n = queue[head++], port;

		for (port = 0; port < t->nports; port++) {
			u32 nb = wc_topo_neighbor(t, n, port);

			if (nb == WC_NO_NODE || dist[nb] != U32_MAX)
				continue;
			dist[nb] = dist[n] + 1;
			queue[tail++] = nb;
		}
	}
	FUZZ_CHECK(tail == t->nnodes, "%u of %u nodes reachable from %u", tail,
		   t->nnodes, src);
	for (i = 0; i < t->nnodes; i++)
		FUZZ_CHECK(wc_topo_distance(t, src, i) == dist[i],
			   "%s: distance %u-%u is %u, BFS says %u",
			   wc_topo_kind_name(t->kind), src, i,
			   wc_topo_distance(t, src, i), dist[i]);
}

static void check_coords_input(struct fz *f, const struct wc_topo *t)
{
	u32 in[WC_MAX_COORDS], out[WC_MAX_COORDS], i, n;

	for (i = 0; i < WC_MAX_COORDS; i++)
		in[i] = fz_pick(f, t->dims[0]);
	n = wc_topo_node(t, in);
	if (n == WC_NO_NODE)
		return;
	FUZZ_CHECK(n < t->nnodes, "coordinates give node %u", n);
	wc_topo_coords(t, n, out);
	FUZZ_CHECK(!memcmp(in, out, t->ncoords * sizeof(u32)),
		   "coordinates of node %u do not round-trip", n);
}

/* ---------------------------------------------------- one unicast */

struct run {
	u32 ndeliv, node, ndone, errors, deadlocks;
	u64 latency;
};

static void r_deliver(void *priv, struct wc_msg *m, u32 node, u64 latency)
{
	struct run *r = priv;

	r->ndeliv++;
	r->node = node;
	r->latency = latency;
}

static void r_done(void *priv, struct wc_msg *m)
{
	((struct run *)priv)->ndone++;
}

static void r_error(void *priv, struct wc_msg *m, u32 node, int err)
{
	((struct run *)priv)->errors++;
}

static void r_deadlock(void *priv, u64 cycle)
{
	((struct run *)priv)->deadlocks++;
}

static const struct wc_engine_ops r_ops = {
	.deliver = r_deliver,
	.msg_done = r_done,
	.route_error = r_error,
	.deadlock = r_deadlock,
};

/*
 * At zero load a unicast of L = 1 + ceil(bytes / flit_bytes) + 1 flits
 * over d hops takes startup + d * (router_delay + link_delay) + L - 1
 * cycles when buf_flits >= link_delay (engine.h).
 */
static void check_unicast(struct fz *f, const struct wc_topo *t,
			  const struct wc_engine_params *p)
{
	u32 src = fz_u16(f) % t->nnodes, dst = fz_u16(f) % t->nnodes;
	u32 bytes = fz_u16(f) % (64 * p->flit_bytes + 1);
	u32 d = wc_topo_distance(t, src, dst);
	u64 L = 1 + DIV_ROUND_UP(bytes, p->flit_bytes) + 1, want;
	struct run r = { 0 };
	struct wc_engine *e;
	struct wc_msg *m;

	e = wc_engine_create(t, p, &wc_algo_unicast_based, &r_ops, &r);
	FUZZ_CHECK(e, "engine not created");
	m = malloc(wc_msg_size(e));
	FUZZ_CHECK(m, "out of memory");
	wc_msg_init(e, m, src, bytes, NULL);
	wc_msg_add_dst(e, m, dst);
	wc_engine_submit(e, m);
	want = p->startup + (u64)d * (p->router_delay + p->link_delay) + L - 1;
	/* Slower than Eq. 1 when a buffer cannot cover a link's delay. */
	wc_engine_run(e, p->startup + 100 +
		      (d + L + 2) * 2 * (p->router_delay + p->link_delay + 1),
		      NULL);
	if (wc_engine_busy(e) || r.ndeliv != 1 ||
	    (p->buf_flits >= p->link_delay && r.latency != want))
		fprintf(stderr,
			"%s %ux%ux%u, flit_bytes %u buf_flits %u vcs %u inj %u cons %u router_delay %u link_delay %u startup %u replication %u watchdog %u\n",
			wc_topo_kind_name(t->kind), t->dims[0], t->dims[1],
			t->dims[2], p->flit_bytes, p->buf_flits, p->vcs,
			p->inj_channels, p->cons_channels, p->router_delay,
			p->link_delay, p->startup, p->replication, p->watchdog);
	FUZZ_CHECK(!wc_engine_busy(e), "unicast %u->%u not finished", src, dst);
	FUZZ_CHECK(r.ndeliv == 1 && r.node == dst && r.ndone == 1 &&
		   !r.errors && !r.deadlocks,
		   "unicast %u->%u: %u deliveries at %u, %u done, %u errors, %u deadlocks",
		   src, dst, r.ndeliv, r.node, r.ndone, r.errors, r.deadlocks);
	FUZZ_CHECK(r.latency >= want, "unicast %u->%u faster than Eq. 1", src,
		   dst);
	if (p->buf_flits >= p->link_delay)
		FUZZ_CHECK(r.latency == want,
			   "%s: unicast %u->%u (%u hops, %u bytes): latency %llu, Eq. 1 says %llu",
			   wc_topo_kind_name(t->kind), src, dst, d, bytes,
			   (unsigned long long)r.latency,
			   (unsigned long long)want);
	free(m);
	wc_engine_destroy(e);
}

static void check_params(struct fz *f, const struct wc_topo *t)
{
	struct wc_engine_params p;
	const char *why = NULL;
	u64 chans;

	wc_engine_params_default(&p, t);
	FUZZ_CHECK(!wc_engine_params_check(&p, t, &why), "%s: defaults refused: %s",
		   wc_topo_kind_name(t->kind), why);
	FUZZ_CHECK(!wc_algo_unicast_based.check(t, &p, &why),
		   "%s: defaults refused by the built-in algorithm: %s",
		   wc_topo_kind_name(t->kind), why);
	fz_params(f, &p);
	why = NULL;
	if (wc_engine_params_check(&p, t, &why)) {
		FUZZ_CHECK(why && *why, "parameters refused without a reason");
		FUZZ_CHECK(!wc_engine_create(t, &p, &wc_algo_unicast_based, &r_ops,
					     NULL),
			   "engine created with refused parameters (%s)", why);
		return;
	}
	/* What the engine's arithmetic relies on. */
	FUZZ_CHECK(p.flit_bytes >= 1 && p.buf_flits >= 1 && p.link_delay >= 1 &&
		   p.vcs >= 1 && p.vcs <= 16 && p.inj_channels >= 1 &&
		   p.inj_channels <= WC_MAX_INJ && p.cons_channels >= 1 &&
		   p.cons_channels <= WC_MAX_CONS && p.replication <= 1 &&
		   p.watchdog > p.startup + p.router_delay + p.link_delay,
		   "parameters accepted out of range");
	if (wc_algo_unicast_based.check(t, &p, &why))
		return;
	chans = (u64)t->nnodes * (t->nports * p.vcs + p.inj_channels +
				  p.cons_channels) * p.buf_flits;
	if (chans <= RUN_MAX_CHANNELS)
		check_unicast(f, t, &p);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz f = { data, size };
	u32 kind, ndims, dims[WC_MAX_DIMS], max_nodes = WC_MAX_NODES, i;
	const char *why = NULL;
	struct wc_topo t;
	bool bounded;
	u8 b;
	int err;

	b = fz_u8(&f);
	kind = b & 0x80 ? fz_pick(&f, WC_TOPO_STAR) : b % 6;
	ndims = (b & 0x40) ? fz_pick(&f, WC_MAX_DIMS) : 1 + (b >> 3) % 3;
	for (i = 0; i < WC_MAX_DIMS; i++)
		dims[i] = fz_pick(&f, kind == WC_TOPO_STAR ? WC_MAX_STAR_N :
				  WC_MAX_HYPERCUBE_DIM);
	bounded = b & 0x04;
	if (bounded)
		max_nodes = fz_u8(&f) & 1 ? WC_MAX_PLAN_NODES : fz_pick(&f, 64);
	err = bounded ? wc_topo_init_bounded(&t, kind, ndims, dims, max_nodes, &why) :
			wc_topo_init(&t, kind, ndims, dims, &why);
	if (err) {
		FUZZ_CHECK(err == -EINVAL && why && *why, "refused without a reason");
		return 0;
	}
	FUZZ_CHECK(t.kind == kind && t.nnodes >= 2 &&
		   t.nnodes <= max_nodes && t.nports >= 1 &&
		   t.nports <= WC_MAX_PORTS && t.ncoords <= WC_MAX_COORDS,
		   "accepted topology out of range: kind %u nnodes %u nports %u",
		   t.kind, t.nnodes, t.nports);
	FUZZ_CHECK(wc_topo_neighbor(&t, t.nnodes, 0) == WC_NO_NODE,
		   "node past the end has neighbours");

	check_node(&t, 0, t.nnodes - 1);
	check_node(&t, t.nnodes - 1, 0);
	for (i = 0; i < 4; i++)
		check_node(&t, fz_u32(&f) % t.nnodes, fz_u32(&f) % t.nnodes);
	if (t.nnodes <= BFS_MAX_NODES)
		check_bfs(&t, fz_u16(&f) % t.nnodes);
	check_coords_input(&f, &t);
	if (t.nnodes <= WC_MAX_NODES)
		check_params(&f, &t);
	return 0;
}
