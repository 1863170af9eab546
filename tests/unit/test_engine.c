// SPDX-License-Identifier: GPL-2.0
/*
 * The flit-level engine against its model (engine.h): Eq. 1 at zero load on
 * every topology, contention order, backpressure, lock-step and
 * asynchronous replication, intermediate reception, channel release, the
 * deadlock watchdog, determinism.
 */
#include "tap.h"
#include "engine.h"

#define MAX_DELIV 200000

struct deliv {
	struct wc_msg *m;
	u32 node;
	u64 latency;
	u64 at;
};

struct rec {
	struct wc_engine *e;
	struct deliv d[MAX_DELIV];
	u32 nd;
	u32 done;
	u32 deadlocks;
	u32 route_errors;
	bool free_msgs;
};

static struct rec R;

static void on_deliver(void *priv, struct wc_msg *m, u32 node, u64 lat)
{
	struct rec *r = priv;

	if (r->nd < MAX_DELIV)
		r->d[r->nd++] = (struct deliv){ m, node, lat, wc_engine_now(r->e) };
}

static void on_done(void *priv, struct wc_msg *m)
{
	struct rec *r = priv;

	r->done++;
	if (r->free_msgs)
		free(m);
}

static void on_route_error(void *priv, struct wc_msg *m, u32 node, int err)
{
	((struct rec *)priv)->route_errors++;
}

static void on_deadlock(void *priv, u64 cycle)
{
	((struct rec *)priv)->deadlocks++;
}

static const struct wc_engine_ops ops = {
	.deliver = on_deliver,
	.msg_done = on_done,
	.route_error = on_route_error,
	.deadlock = on_deadlock,
};

static struct wc_engine *mk(const struct wc_topo *t,
			    const struct wc_engine_params *p,
			    const struct wc_algo *a)
{
	memset(&R, 0, sizeof(R));
	R.free_msgs = true;
	R.e = wc_engine_create(t, p, a, &ops, &R);
	return R.e;
}

static struct wc_msg *send(struct wc_engine *e, u32 src, const u32 *dsts,
			   u32 n, u32 bytes)
{
	struct wc_msg *m = malloc(wc_msg_size(e));
	u32 i;

	wc_msg_init(e, m, src, bytes, NULL);
	for (i = 0; i < n; i++)
		wc_msg_add_dst(e, m, dsts[i]);
	wc_engine_submit(e, m);
	return m;
}

static void run_idle(struct wc_engine *e)
{
	while (wc_engine_busy(e))
		wc_engine_run(e, 100000, NULL);
}

static struct deliv *find(struct wc_msg *m, u32 node)
{
	u32 i;

	for (i = 0; i < R.nd; i++)
		if (R.d[i].m == m && R.d[i].node == node)
			return &R.d[i];
	return NULL;
}

static void topo(struct wc_topo *t, u32 kind, u32 a, u32 b, u32 c)
{
	u32 dims[3] = { a, b, c };
	u32 nd = c ? 3 : b ? 2 : 1;

	if (wc_topo_init(t, kind, nd, dims, NULL))
		abort();
}

/* ------------------------------------------------------------ Eq. 1 */

static void eq1_on(const struct wc_topo *t, const char *name)
{
	static const struct { u32 alpha, rd, ld, buf, bytes, fb; } cases[] = {
		{ 0, 1, 1, 1, 100, 32 },
		{ 5, 2, 1, 1, 1000, 32 },
		{ 3, 0, 2, 2, 64, 16 },
		{ 0, 3, 3, 4, 0, 32 },
		{ 7, 1, 1, 1, 4096, 64 },
	};
	u32 ci, s, d, wrong = 0, tried = 0;

	for (ci = 0; ci < ARRAY_SIZE(cases); ci++) {
		struct wc_engine_params p;
		struct wc_engine *e;

		wc_engine_params_default(&p, t);
		p.startup = cases[ci].alpha;
		p.router_delay = cases[ci].rd;
		p.link_delay = cases[ci].ld;
		p.buf_flits = cases[ci].buf;
		p.flit_bytes = cases[ci].fb;
		e = mk(t, &p, &wc_algo_unicast_based);
		for (s = 0; s < t->nnodes; s += 1 + t->nnodes / 9) {
			for (d = 0; d < t->nnodes; d++) {
				u32 L = 1 + DIV_ROUND_UP(cases[ci].bytes, cases[ci].fb) + 1;
				u64 want = p.startup + (u64)wc_topo_distance(t, s, d) *
					   (p.router_delay + p.link_delay) + L - 1;
				struct wc_msg *m;

				R.nd = 0;
				m = send(e, s, &d, 1, cases[ci].bytes);
				R.free_msgs = false;
				run_idle(e);
				tried++;
				if (R.nd != 1 || R.d[0].latency != want || R.d[0].node != d) {
					if (wrong++ < 3)
						diag("%s case %u: %u->%u latency %llu want %llu",
						     name, ci, s, d,
						     R.nd ? (unsigned long long)R.d[0].latency : 0ULL,
						     (unsigned long long)want);
				}
				free(m);
				R.free_msgs = true;
			}
		}
		wc_engine_destroy(e);
	}
	ok(!wrong, "Eq. 1 at zero load on %s: %u unicasts exact", name, tried);
}

/* ------------------------------------------------------------ contention */

static void test_contention(void)
{
	struct wc_topo t;
	struct wc_engine_params p;
	struct wc_engine *e;
	struct wc_engine_stats st;
	struct wc_msg *a, *b;
	u32 dst = 3, L, bytes = 320;

	/* Line 0-1-2-3.  A goes 0->3; B enters at node 1 two cycles later,
	 * so both headers want channel 1->2 in the same cycle; the older worm
	 * (A) wins and B waits exactly as long as A holds that channel.
	 */
	topo(&t, WC_TOPO_MESH, 4, 0, 0);
	wc_engine_params_default(&p, &t);
	e = mk(&t, &p, &wc_algo_unicast_based);
	R.free_msgs = false;
	L = 1 + bytes / p.flit_bytes + 1;
	a = send(e, 0, &dst, 1, bytes);
	wc_engine_run(e, 2, NULL);
	b = send(e, 1, &dst, 1, bytes);
	run_idle(e);
	wc_engine_get_stats(e, &st);
	ok(find(a, 3) && find(a, 3)->latency == 3 * 2 + L - 1,
	   "contention: the older worm passes unhindered");
	/*
	 * A holds 1->2 from cycle 3, when its header enters, until its tail
	 * leaves node 2's buffer.  With 1-flit buffers, A's second flit waits
	 * at node 1 while the header spends router_delay at node 2: it enters
	 * 1->2 at cycle 5, the tail at L + 3, and leaves node 2 at L + 4.
	 * The hold is L + 1 cycles, and B is late by exactly that.
	 */
	ok(find(b, 3) && find(b, 3)->latency == (2 * 2 + L - 1) + (L + 1),
	   "contention: the loser is late by exactly the winner's hold time (L = %u)", L);
	is_int(st.blocked_cycles, L + 1, "contention: the loser's header was blocked L+1 cycles");
	free(a);
	free(b);
	wc_engine_destroy(e);

	/* Tie for a single consumption channel: older worm first. */
	topo(&t, WC_TOPO_MESH, 3, 0, 0);
	wc_engine_params_default(&p, &t);
	p.cons_channels = 1;
	e = mk(&t, &p, &wc_algo_unicast_based);
	R.free_msgs = false;
	dst = 1;
	a = send(e, 2, &dst, 1, bytes);
	b = send(e, 0, &dst, 1, bytes);
	run_idle(e);
	ok(find(a, 1) && find(b, 1) &&
	   find(a, 1)->latency == 2 + L - 1 &&
	   find(b, 1)->latency == 2 + L - 1 + (L - 1),
	   "consumption channel: first submitted first served, the other waits L-1");
	free(a);
	free(b);
	wc_engine_destroy(e);
}

/* ------------------------------------------------------------ backpressure */

static void test_backpressure(void)
{
	struct wc_topo t;
	struct wc_engine_params p;
	struct wc_engine *e;
	struct wc_msg *x, *a;
	u32 n = 8, d = n - 1, k, bad = 0, L, Lx;
	u32 last = n - 1;

	/* A long worm X sinks into node 7's only consumption channel; worm A
	 * from node 0 then backs up behind it through 1-flit buffers.
	 */
	topo(&t, WC_TOPO_MESH, n, 0, 0);
	wc_engine_params_default(&p, &t);
	p.cons_channels = 1;
	e = mk(&t, &p, &wc_algo_unicast_based);
	R.free_msgs = false;
	x = send(e, last, &last, 1, 32 * 200);
	a = send(e, 0, &last, 1, 32 * 50);
	Lx = 200 + 2;
	L = 50 + 2;
	wc_engine_run(e, 100, NULL);
	ok(R.nd == 0, "backpressure: nothing delivered while blocked");
	for (k = 0; k < d; k++)
		if (wc_engine_channel_busy(e, k, 0) != d - k)
			bad++;
	ok(!bad, "backpressure: channel k->k+1 carried exactly %u-k flits (one per 1-flit buffer)", d);
	{
		char buf[512];

		ok(wc_engine_dump_waits(e, buf, sizeof(buf)) == 1 && strstr(buf, "at node 7"),
		   "backpressure: the dump shows A's header waiting at node 7");
	}
	run_idle(e);
	ok(find(x, last) && find(x, last)->latency == Lx - 1, "backpressure: X consumed at full rate");
	ok(find(a, last) && find(a, last)->latency == (Lx - 1) + (L - 1),
	   "backpressure: A resumes at full rate, nothing lost (latency %llu)",
	   find(a, last) ? (unsigned long long)find(a, last)->latency : 0ULL);
	free(x);
	free(a);
	wc_engine_destroy(e);
}

/* ------------------------------------------------------------ replication */

/*
 * A test algorithm on a line: header words [left, right]; the source
 * splits into both directions; elsewhere a single-word header goes
 * straight to its destination.  With WANT_PATH, words are a list of
 * destinations visited in order with intermediate reception.
 */
static bool two_words_next(const struct wc_route_ctx *ctx, struct wc_msg *m,
			   u32 *words, u32 max, struct wc_hdr *h)
{
	u32 i, n = 0;

	if (m->next_dst)
		return false;
	for (i = 0; i < ctx->topo->nnodes && n < max; i++)
		if (wc_msg_has_dst(R.e, m, i))
			words[n++] = i;
	m->next_dst = 1;
	h->words = words;
	h->nwords = n;
	h->nflits = 1;
	return true;
}

static void out_toward(struct wc_route_out *o, u32 node, u32 dst, u16 skip)
{
	o->port = dst > node ? 0 : 1;
	o->vc_mask = 1;
	o->hdr_skip_words = skip;
	o->hdr_words = 1;
	o->hdr_flits = 1;
}

static int fork_route(const struct wc_route_ctx *ctx, const struct wc_hdr *h,
		      struct wc_route_req *req)
{
	if (h->nwords == 2) {		/* at the source: split */
		req->nout = 2;
		out_toward(&req->out[0], ctx->node, h->words[0], 0);
		out_toward(&req->out[1], ctx->node, h->words[1], 1);
		return 0;
	}
	req->nout = 1;
	if (h->words[0] == ctx->node) {
		req->out[0].consume = true;
		req->out[0].hdr_words = 1;
		req->out[0].hdr_flits = 1;
		return 0;
	}
	out_toward(&req->out[0], ctx->node, h->words[0], 0);
	return 0;
}

static const struct wc_algo fork_algo = {
	.name = "test-fork", .next_worm = two_words_next, .route = fork_route,
};

static int path_route(const struct wc_route_ctx *ctx, const struct wc_hdr *h,
		      struct wc_route_req *req)
{
	if (h->words[0] != ctx->node) {
		req->nout = 1;
		out_toward(&req->out[0], ctx->node, h->words[0], 0);
		req->out[0].hdr_words = (u16)h->nwords;
		return 0;
	}
	/* Intermediate reception: consume and forward in one reservation. */
	req->out[0].consume = true;
	req->out[0].hdr_words = 1;
	req->out[0].hdr_flits = 1;
	req->nout = 1;
	if (h->nwords > 1) {
		out_toward(&req->out[1], ctx->node, h->words[1], 1);
		req->out[1].hdr_words = (u16)(h->nwords - 1);
		req->nout = 2;
	}
	return 0;
}

static const struct wc_algo path_algo = {
	.name = "test-path", .next_worm = two_words_next, .route = path_route,
};

static u64 fork_left_latency(u32 repl, u32 buf, u64 *right)
{
	struct wc_topo t;
	struct wc_engine_params p;
	struct wc_engine *e;
	struct wc_msg *blk, *m;
	u32 dsts[2] = { 0, 8 }, blocker_dst = 8, src = 4, bytes = 32 * 30;
	u64 lat;

	/* Line of 9; the fork goes from node 4 to nodes 0 and 8.  A long
	 * worm into node 8's only consumption channel blocks the right
	 * branch for a while.
	 */
	topo(&t, WC_TOPO_MESH, 9, 0, 0);
	wc_engine_params_default(&p, &t);
	p.replication = repl;
	p.buf_flits = buf;
	p.cons_channels = 1;
	e = mk(&t, &p, &fork_algo);
	R.free_msgs = false;
	blk = send(e, 8, &blocker_dst, 1, 32 * 100);
	m = send(e, src, dsts, 2, bytes);
	run_idle(e);
	lat = find(m, 0) ? find(m, 0)->latency : 0;
	*right = find(m, 8) ? find(m, 8)->latency : 0;
	ok(R.nd == 3 && R.done == 2, "fork (%s, B=%u): all three deliveries, both messages done",
	   repl ? "async" : "lockstep", buf);
	free(blk);
	free(m);
	wc_engine_destroy(e);
	return lat;
}

static void test_replication(void)
{
	u64 r_lock, r_async, l_lock, l_async, l_free;
	u32 L = 1 + 30 + 1;

	l_lock = fork_left_latency(WC_REPL_LOCKSTEP, 1, &r_lock);
	/* Unblocked, the left branch (4 hops) would take 4*2 + L - 1. */
	l_free = 4 * 2 + L - 1;
	ok(l_lock > l_free, "lock step: the blocked branch stalls the free one (%llu > %llu)",
	   (unsigned long long)l_lock, (unsigned long long)l_free);
	/* In lock step both branches finish within their path difference. */
	ok(l_lock == r_lock, "lock step: both branches' tails arrive together (%llu, %llu)",
	   (unsigned long long)l_lock, (unsigned long long)r_lock);
	l_async = fork_left_latency(WC_REPL_ASYNC, 64, &r_async);
	is_int(l_async, l_free, "asynchronous replication: the free branch runs ahead unhindered");
	ok(r_async >= r_lock - 1 && r_async <= r_lock,
	   "asynchronous replication: the blocked branch is not slower than in lock step");
}

static void test_intermediate_reception(void)
{
	struct wc_topo t;
	struct wc_engine_params p;
	struct wc_engine *e;
	struct wc_msg *m;
	u32 dsts[3] = { 2, 5, 7 }, i, bad = 0, L = 1 + 10 + 1;

	topo(&t, WC_TOPO_MESH, 8, 0, 0);
	wc_engine_params_default(&p, &t);
	e = mk(&t, &p, &path_algo);
	R.free_msgs = false;
	m = send(e, 0, dsts, 3, 320);
	run_idle(e);
	is_int(R.nd, 3, "path worm: delivered at each of its 3 destinations");
	for (i = 0; i < 3; i++) {
		struct deliv *d = find(m, dsts[i]);
		/*
		 * The last destination (7 hops) receives at Eq. 1 time.  The
		 * flits reach an intermediate one in lock step with the
		 * forwarded stream, so its tail passes there one link delay
		 * per remaining hop earlier.
		 */
		u64 last = 7 * 2 + L - 1;
		u64 want = last - (7 - dsts[i]) * p.link_delay;

		if (!d || d->latency != want)
			bad++;
	}
	is_int(bad, 0, "path worm: last destination at Eq. 1 time, the others as the tail passes");
	is_int(R.done, 1, "path worm: message done once");
	free(m);
	wc_engine_destroy(e);
}

/* ------------------------------------------------------------ watchdog */

static bool ring_next(const struct wc_route_ctx *ctx, struct wc_msg *m,
		      u32 *words, u32 max, struct wc_hdr *h)
{
	return wc_algo_unicast_based.next_worm(ctx, m, words, max, h);
}

/* Always clockwise, one VC: the classic cyclic dependency. */
static int ring_route(const struct wc_route_ctx *ctx, const struct wc_hdr *h,
		      struct wc_route_req *req)
{
	req->nout = 1;
	req->out[0].hdr_words = 1;
	req->out[0].hdr_flits = 1;
	if (h->words[0] == ctx->node) {
		req->out[0].consume = true;
		return 0;
	}
	req->out[0].port = 0;
	req->out[0].vc_mask = 1;
	return 0;
}

static const struct wc_algo ring_algo = {
	.name = "test-ring", .next_worm = ring_next, .route = ring_route,
};

static void test_watchdog(void)
{
	struct wc_topo t;
	struct wc_engine_params p;
	struct wc_engine *e;
	struct wc_engine_stats st;
	char buf[2048];
	u32 i, n = 4;

	topo(&t, WC_TOPO_TORUS, n, 0, 0);
	wc_engine_params_default(&p, &t);
	p.vcs = 1;
	p.watchdog = 500;
	e = mk(&t, &p, &ring_algo);
	for (i = 0; i < n; i++) {
		u32 d = (i + 2) % n;

		send(e, i, &d, 1, 32 * 20);
	}
	wc_engine_run(e, 5000, NULL);
	wc_engine_get_stats(e, &st);
	is_int(R.deadlocks, 1, "watchdog: a cyclic pattern on a ring without VCs deadlocks, reported once");
	is_int(st.deadlocks, 1, "watchdog: counted in the engine statistics");
	is_int(wc_engine_dump_waits(e, buf, sizeof(buf)), n,
	       "watchdog: the dump names the 4 blocked headers");
	ok(strstr(buf, "held by worm") != NULL, "watchdog: the dump says who holds what");
	is_int(R.nd, 0, "watchdog: nothing delivered, nothing dropped");
	is_int(wc_engine_flush(e), n, "flush: the 4 stuck messages are handed back");
	is_int(R.done, n, "flush: msg_done for each");
	ok(!wc_engine_busy(e), "flush: engine idle afterwards");
	wc_engine_destroy(e);
}

/* ------------------------------------------------------------ random traffic */

struct traffic_result {
	u64 lat_sum, cycles, flit_hops;
	u32 delivered, expected, dup, done, sent, deadlocks;
};

static u64 rng_state;

static u32 rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return (u32)(rng_state >> 11);
}

static void traffic(const struct wc_topo *t, u32 repl, u64 seed,
		    struct traffic_result *res)
{
	struct wc_engine_params p;
	struct wc_engine *e;
	struct wc_engine_stats st;
	u32 round, i, j;
	u8 *seen;

	memset(res, 0, sizeof(*res));
	rng_state = seed * 2654435761u + 1;
	wc_engine_params_default(&p, t);
	p.replication = repl;
	p.watchdog = 2000;
	e = mk(t, &p, &wc_algo_unicast_based);
	R.free_msgs = false;
	seen = calloc((size_t)t->nnodes * 4000, 1);
	for (round = 0; round < 40; round++) {
		for (i = 0; i < t->nnodes && res->sent < 4000; i++) {
			struct wc_msg *m;
			u32 nd = 1 + (rnd() % 4 == 0 ? rnd() % 6 : 0), d;

			if (rnd() % 3 || wc_engine_backlog(e, i) > 2)
				continue;
			m = malloc(wc_msg_size(e));
			wc_msg_init(e, m, i, 1 + rnd() % 400, (void *)(uintptr_t)res->sent);
			for (j = 0; j < nd; j++) {
				d = rnd() % t->nnodes;
				if (d != i)
					wc_msg_add_dst(e, m, d);
			}
			if (!m->ndsts) {
				free(m);
				continue;
			}
			res->expected += m->ndsts;
			res->sent++;
			wc_engine_submit(e, m);
		}
		wc_engine_run(e, 20, NULL);
	}
	while (wc_engine_busy(e) && wc_engine_now(e) < 10000000)
		wc_engine_run(e, 100000, NULL);
	for (i = 0; i < R.nd; i++) {
		u32 id = (u32)(uintptr_t)R.d[i].m->cookie;
		u8 *s = &seen[(size_t)id * t->nnodes + R.d[i].node];

		if (*s || !wc_msg_has_dst(e, R.d[i].m, R.d[i].node))
			res->dup++;
		*s = 1;
		res->delivered++;
		res->lat_sum += R.d[i].latency;
	}
	wc_engine_get_stats(e, &st);
	res->cycles = wc_engine_now(e);
	res->flit_hops = st.flit_hops;
	res->done = R.done;
	res->deadlocks = R.deadlocks + R.route_errors;
	/* Messages are freed here: the engine has forgotten them all. */
	{
		struct wc_msg **all = calloc(res->sent, sizeof(*all));

		for (i = 0; i < R.nd; i++)
			all[(u32)(uintptr_t)R.d[i].m->cookie] = R.d[i].m;
		for (i = 0; i < res->sent; i++)
			free(all[i]);
		free(all);
	}
	free(seen);
	wc_engine_destroy(e);
}

static void test_traffic(void)
{
	static const struct { u32 kind, a, b, c; const char *name; } tops[] = {
		{ WC_TOPO_MESH, 8, 8, 0, "mesh 8x8" },
		{ WC_TOPO_MESH, 4, 3, 3, "mesh 4x3x3" },
		{ WC_TOPO_TORUS, 8, 8, 0, "torus 8x8" },
		{ WC_TOPO_TORUS, 4, 4, 4, "torus 4x4x4" },
		{ WC_TOPO_TORUS, 9, 0, 0, "torus 9" },
		{ WC_TOPO_HYPERCUBE, 6, 0, 0, "hypercube 6" },
		{ WC_TOPO_STAR, 5, 0, 0, "star 5" },
	};
	struct traffic_result a, b, c;
	u32 i;

	for (i = 0; i < ARRAY_SIZE(tops); i++) {
		struct wc_topo t;

		topo(&t, tops[i].kind, tops[i].a, tops[i].b, tops[i].c);
		traffic(&t, i % 2, 42, &a);
		ok(a.delivered == a.expected && !a.dup && a.done == a.sent && !a.deadlocks,
		   "%s: %u messages, %u deliveries exactly once, no deadlock (%llu cycles)",
		   tops[i].name, a.sent, a.expected, (unsigned long long)a.cycles);
	}
	{
		struct wc_topo t;

		topo(&t, WC_TOPO_TORUS, 6, 6, 0);
		traffic(&t, 0, 7, &a);
		traffic(&t, 0, 7, &b);
		traffic(&t, 0, 8, &c);
		ok(a.lat_sum == b.lat_sum && a.cycles == b.cycles &&
		   a.flit_hops == b.flit_hops && a.sent == b.sent,
		   "same seed, same result");
		ok(a.lat_sum != c.lat_sum || a.cycles != c.cycles,
		   "another seed, another result");
	}
}

/* ------------------------------------------------------------ params */

static void test_params(void)
{
	struct wc_topo t;
	struct wc_engine_params p;
	const char *why = NULL;

	topo(&t, WC_TOPO_TORUS, 4, 4, 0);
	wc_engine_params_default(&p, &t);
	ok(!wc_engine_params_check(&p, &t, &why), "defaults are valid");
	is_int(p.vcs, 2, "torus defaults to 2 VCs");
	ok(!wc_algo_unicast_based.check(&t, &p, &why), "built-in accepts torus with 2 VCs");
	p.vcs = 1;
	ok(wc_algo_unicast_based.check(&t, &p, &why) == -EINVAL && why,
	   "built-in refuses a torus with 1 VC: %s", why ? why : "");
	wc_engine_params_default(&p, &t);
	p.buf_flits = 0;
	ok(wc_engine_params_check(&p, &t, &why) == -EINVAL, "buf_flits 0 refused");
	wc_engine_params_default(&p, &t);
	p.flit_bytes = 5000;
	ok(wc_engine_params_check(&p, &t, &why) == -EINVAL, "flit_bytes 5000 refused");
	wc_engine_params_default(&p, &t);
	p.replication = 7;
	ok(wc_engine_params_check(&p, &t, &why) == -EINVAL, "unknown replication refused");
	wc_engine_params_default(&p, &t);
	p.startup = 900;
	p.watchdog = 500;
	ok(wc_engine_params_check(&p, &t, &why) == -EINVAL,
	   "watchdog shorter than a worm's startup refused");
	ok(wc_engine_create(&t, &p, &wc_algo_unicast_based, &ops, &R) == NULL,
	   "create refuses bad parameters");
	wc_engine_params_default(&p, &t);
	{
		struct wc_engine *e = mk(&t, &p, &wc_algo_unicast_based);

		ok(wc_engine_set_watchdog(e, 5, &why) == -EINVAL,
		   "runtime watchdog change validated: %s", why);
		ok(wc_engine_set_watchdog(e, 123456, &why) == 0,
		   "runtime watchdog change accepted");
		wc_engine_destroy(e);
	}
}

int main(void)
{
	static const struct { u32 kind, a, b, c; const char *name; } tops[] = {
		{ WC_TOPO_MESH, 7, 0, 0, "mesh 7" },
		{ WC_TOPO_MESH, 5, 4, 0, "mesh 5x4" },
		{ WC_TOPO_MESH, 3, 3, 3, "mesh 3x3x3" },
		{ WC_TOPO_TORUS, 7, 0, 0, "torus 7" },
		{ WC_TOPO_TORUS, 6, 5, 0, "torus 6x5" },
		{ WC_TOPO_TORUS, 4, 3, 4, "torus 4x3x4" },
		{ WC_TOPO_HYPERCUBE, 5, 0, 0, "hypercube 5" },
		{ WC_TOPO_STAR, 4, 0, 0, "star 4" },
		{ WC_TOPO_STAR, 5, 0, 0, "star 5" },
	};
	u32 i;

	for (i = 0; i < ARRAY_SIZE(tops); i++) {
		struct wc_topo t;

		topo(&t, tops[i].kind, tops[i].a, tops[i].b, tops[i].c);
		eq1_on(&t, tops[i].name);
	}
	test_contention();
	test_backpressure();
	test_replication();
	test_intermediate_reception();
	test_watchdog();
	test_traffic();
	test_params();
	return done_testing();
}
