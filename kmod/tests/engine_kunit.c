// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for the flit-level engine (kmod/engine/engine.c), inside the
 * kernel with KASAN and lockdep: the same cases as the userspace engine
 * tests (tests/unit/test_engine.c), so that the code the module runs is
 * checked where it runs.
 *
 *  - Eq. 1 of the path-based paper at zero load, exactly, on every
 *    topology kind and several parameter sets;
 *  - contention: the older worm wins and the loser waits exactly as long
 *    as the winner holds the channel;
 *  - backpressure through a chain of 1-flit buffers, nothing lost;
 *  - lock-step replication stalls every branch when one blocks, and
 *    asynchronous replication lets the free branch run ahead;
 *  - intermediate reception delivers at every node of a path;
 *  - the watchdog reports a constructed deadlock (cyclic unicasts on a ring
 *    with one virtual channel) once, and flushing hands every message back.
 */
#include <kunit/test.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "engine.h"

#define MAX_DELIV 64

struct deliv {
	struct wc_msg *m;
	u32 node;
	u64 latency;
};

/* What the engine's callbacks saw; one per test, in test->priv. */
struct rec {
	struct wc_engine *e;
	struct deliv d[MAX_DELIV];
	u32 nd;
	u32 lost;		/* deliveries beyond MAX_DELIV */
	u32 done;
	u32 deadlocks;
	u32 route_errors;
	bool free_msgs;		/* kfree messages in msg_done */
};

static void on_deliver(void *priv, struct wc_msg *m, u32 node, u64 lat)
{
	struct rec *r = priv;

	if (r->nd < MAX_DELIV)
		r->d[r->nd++] = (struct deliv){ m, node, lat };
	else
		r->lost++;
}

static void on_done(void *priv, struct wc_msg *m)
{
	struct rec *r = priv;

	r->done++;
	if (r->free_msgs)
		kfree(m);
}

static void on_route_error(void *priv, struct wc_msg *m, u32 node, int err)
{
	((struct rec *)priv)->route_errors++;
}

static void on_deadlock(void *priv, u64 cycle)
{
	((struct rec *)priv)->deadlocks++;
}

static const struct wc_engine_ops rec_ops = {
	.deliver = on_deliver,
	.msg_done = on_done,
	.route_error = on_route_error,
	.deadlock = on_deadlock,
};

static struct rec *rec_new(struct kunit *test)
{
	struct rec *r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, r);
	r->free_msgs = true;
	return r;
}

static struct wc_engine *engine_new(struct kunit *test, struct rec *r,
				    const struct wc_topo *t,
				    const struct wc_engine_params *p,
				    const struct wc_algo *algo)
{
	r->e = wc_engine_create(t, p, algo, &rec_ops, r);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, r->e);
	return r->e;
}

static struct wc_msg *submit(struct kunit *test, struct wc_engine *e,
			     u32 src, const u32 *dsts, u32 n, u32 bytes)
{
	struct wc_msg *m = kmalloc(wc_msg_size(e), GFP_KERNEL);
	u32 i;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, m);
	/* The cookie is the engine, for the test algorithms' next_worm(). */
	wc_msg_init(e, m, src, bytes, e);
	for (i = 0; i < n; i++)
		wc_msg_add_dst(e, m, dsts[i]);
	wc_engine_submit(e, m);
	return m;
}

static void run_idle(struct wc_engine *e)
{
	u32 guard = 0;

	while (wc_engine_busy(e) && guard++ < 1000)
		wc_engine_run(e, 100000, NULL);
}

static const struct deliv *find(const struct rec *r, const struct wc_msg *m,
				u32 node)
{
	u32 i;

	for (i = 0; i < r->nd; i++)
		if (r->d[i].m == m && r->d[i].node == node)
			return &r->d[i];
	return NULL;
}

static u64 latency_of(const struct rec *r, const struct wc_msg *m, u32 node)
{
	const struct deliv *d = find(r, m, node);

	return d ? d->latency : U64_MAX;
}

static void topo_init(struct kunit *test, struct wc_topo *t, u32 kind,
		      u32 a, u32 b, u32 c)
{
	u32 dims[WC_MAX_DIMS] = { a, b, c };
	u32 nd = c ? 3 : b ? 2 : 1;

	KUNIT_ASSERT_EQ(test, wc_topo_init(t, kind, nd, dims, NULL), 0);
}

/* ------------------------------------------------------------ Eq. 1 */

struct eq1_topo {
	const char *name;
	u32 kind, a, b, c;
};

static const struct eq1_topo eq1_topos[] = {
	{ "mesh 7", WC_TOPO_MESH, 7, 0, 0 },
	{ "mesh 5x4", WC_TOPO_MESH, 5, 4, 0 },
	{ "mesh 3x3x3", WC_TOPO_MESH, 3, 3, 3 },
	{ "torus 7", WC_TOPO_TORUS, 7, 0, 0 },
	{ "torus 6x5", WC_TOPO_TORUS, 6, 5, 0 },
	{ "torus 4x3x4", WC_TOPO_TORUS, 4, 3, 4 },
	{ "hypercube 5", WC_TOPO_HYPERCUBE, 5, 0, 0 },
	{ "star 4", WC_TOPO_STAR, 4, 0, 0 },
	{ "star 5", WC_TOPO_STAR, 5, 0, 0 },
};

static void eq1_desc(const struct eq1_topo *t, char *desc)
{
	strscpy(desc, t->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(eq1, eq1_topos, eq1_desc);

/*
 * At zero load a unicast of L flits over d hops is consumed
 * startup + d * (router_delay + link_delay) + (L - 1) cycles after
 * submission (engine.h), L = 1 header + ceil(bytes / flit_bytes) + 1 tail.
 */
static void engine_eq1_zero_load(struct kunit *test)
{
	static const struct {
		u32 alpha, rd, ld, buf, bytes, fb;
	} cases[] = {
		{ 0, 1, 1, 1, 100, 32 },
		{ 5, 2, 1, 1, 1000, 32 },
		{ 3, 0, 2, 2, 64, 16 },
		{ 0, 3, 3, 4, 0, 32 },
		{ 7, 1, 1, 1, 4096, 64 },
	};
	const struct eq1_topo *tp = test->param_value;
	struct rec *r = rec_new(test);
	struct wc_topo t;
	u32 ci, s, d, tried = 0;

	topo_init(test, &t, tp->kind, tp->a, tp->b, tp->c);
	for (ci = 0; ci < ARRAY_SIZE(cases); ci++) {
		struct wc_engine_params p;
		struct wc_engine *e;
		u32 L = 1 + DIV_ROUND_UP(cases[ci].bytes, cases[ci].fb) + 1;

		wc_engine_params_default(&p, &t);
		p.startup = cases[ci].alpha;
		p.router_delay = cases[ci].rd;
		p.link_delay = cases[ci].ld;
		p.buf_flits = cases[ci].buf;
		p.flit_bytes = cases[ci].fb;
		e = engine_new(test, r, &t, &p, &wc_algo_unicast_based);
		for (s = 0; s < t.nnodes; s += 1 + t.nnodes / 9) {
			for (d = 0; d < t.nnodes; d++) {
				u64 want = p.startup + (u64)wc_topo_distance(&t, s, d) *
					   (p.router_delay + p.link_delay) + L - 1;

				r->nd = 0;
				submit(test, e, s, &d, 1, cases[ci].bytes);
				run_idle(e);
				tried++;
				if (r->nd != 1 || r->d[0].node != d || r->d[0].latency != want) {
					KUNIT_FAIL(test,
						   "%s case %u: %u->%u: %u deliveries, latency %llu, want %llu",
						   tp->name, ci, s, d, r->nd,
						   r->nd ? r->d[0].latency : 0ULL, want);
					wc_engine_destroy(e);
					return;
				}
			}
		}
		KUNIT_EXPECT_EQ(test, r->done, tried);
		KUNIT_EXPECT_FALSE(test, wc_engine_busy(e));
		wc_engine_destroy(e);
	}
	KUNIT_EXPECT_EQ(test, r->deadlocks, 0u);
	KUNIT_EXPECT_EQ(test, r->route_errors, 0u);
}

/* ------------------------------------------------------------ contention */

static void engine_contention(struct kunit *test)
{
	struct rec *r = rec_new(test);
	struct wc_engine_stats st;
	struct wc_engine_params p;
	struct wc_engine *e;
	struct wc_msg *a, *b;
	struct wc_topo t;
	u32 dst = 3, bytes = 320, L;

	/*
	 * Line 0-1-2-3.  A goes 0->3; B enters at node 1 two cycles later,
	 * so both headers want channel 1->2 in the same cycle; the older worm
	 * (A) wins and B waits exactly as long as A holds the channel: L + 1
	 * cycles with 1-flit buffers (see tests/unit/test_engine.c).
	 */
	topo_init(test, &t, WC_TOPO_MESH, 4, 0, 0);
	wc_engine_params_default(&p, &t);
	e = engine_new(test, r, &t, &p, &wc_algo_unicast_based);
	r->free_msgs = false;
	L = 1 + bytes / p.flit_bytes + 1;
	a = submit(test, e, 0, &dst, 1, bytes);
	wc_engine_run(e, 2, NULL);
	b = submit(test, e, 1, &dst, 1, bytes);
	run_idle(e);
	wc_engine_get_stats(e, &st);
	KUNIT_EXPECT_EQ(test, latency_of(r, a, 3), (u64)(3 * 2 + L - 1));
	KUNIT_EXPECT_EQ(test, latency_of(r, b, 3), (u64)((2 * 2 + L - 1) + (L + 1)));
	KUNIT_EXPECT_EQ(test, st.blocked_cycles, (u64)(L + 1));
	kfree(a);
	kfree(b);
	wc_engine_destroy(e);

	/* A tie for a single consumption channel: first submitted, first served. */
	topo_init(test, &t, WC_TOPO_MESH, 3, 0, 0);
	wc_engine_params_default(&p, &t);
	p.cons_channels = 1;
	r->nd = 0;
	e = engine_new(test, r, &t, &p, &wc_algo_unicast_based);
	dst = 1;
	a = submit(test, e, 2, &dst, 1, bytes);
	b = submit(test, e, 0, &dst, 1, bytes);
	run_idle(e);
	KUNIT_EXPECT_EQ(test, latency_of(r, a, 1), (u64)(2 + L - 1));
	KUNIT_EXPECT_EQ(test, latency_of(r, b, 1), (u64)(2 + L - 1 + (L - 1)));
	kfree(a);
	kfree(b);
	wc_engine_destroy(e);
}

/* ------------------------------------------------------------ backpressure */

static void engine_backpressure(struct kunit *test)
{
	struct rec *r = rec_new(test);
	struct wc_engine_params p;
	struct wc_engine *e;
	struct wc_msg *x, *a;
	struct wc_topo t;
	u32 n = 8, last = 7, k, len_x = 200 + 2, L = 50 + 2;
	char *buf;

	/*
	 * A long worm X sinks into node 7's only consumption channel; worm A
	 * from node 0 backs up behind it through 1-flit buffers: after 100
	 * cycles channel k->k+1 has carried exactly (n - 1) - k flits.
	 */
	topo_init(test, &t, WC_TOPO_MESH, n, 0, 0);
	wc_engine_params_default(&p, &t);
	p.cons_channels = 1;
	e = engine_new(test, r, &t, &p, &wc_algo_unicast_based);
	r->free_msgs = false;
	x = submit(test, e, last, &last, 1, 32 * 200);
	a = submit(test, e, 0, &last, 1, 32 * 50);
	wc_engine_run(e, 100, NULL);
	KUNIT_EXPECT_EQ(test, r->nd, 0u);
	for (k = 0; k < n - 1; k++)
		KUNIT_EXPECT_EQ_MSG(test, wc_engine_channel_busy(e, k, 0), (u64)(n - 1 - k),
				    "channel %u->%u", k, k + 1);
	buf = kunit_kzalloc(test, 512, GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, buf);
	KUNIT_EXPECT_EQ(test, wc_engine_dump_waits(e, buf, 512), 1u);
	KUNIT_EXPECT_NOT_ERR_OR_NULL(test, strstr(buf, "at node 7"));
	run_idle(e);
	KUNIT_EXPECT_EQ(test, latency_of(r, x, last), (u64)(len_x - 1));
	KUNIT_EXPECT_EQ(test, latency_of(r, a, last), (u64)((len_x - 1) + (L - 1)));
	KUNIT_EXPECT_EQ(test, r->done, 2u);
	kfree(x);
	kfree(a);
	wc_engine_destroy(e);
}

/* ------------------------------------------------------------ replication */

/*
 * Test algorithms on a line (as in tests/unit/test_engine.c).  The header
 * lists the destinations.  fork: the source splits into both directions,
 * one word per branch.  path: destinations in order, with intermediate
 * reception (consume and forward in one reservation).
 */
static bool list_next(const struct wc_route_ctx *ctx, struct wc_msg *m,
		      u32 *words, u32 max, struct wc_hdr *h)
{
	const struct wc_engine *e = m->cookie;	/* set by submit() */
	u32 i, n = 0;

	if (m->next_dst)
		return false;
	for (i = 0; i < ctx->topo->nnodes && n < max; i++)
		if (wc_msg_has_dst(e, m, i))
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
	if (h->nwords == 2) {
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
	.name = "kunit-fork",
	.next_worm = list_next,
	.route = fork_route,
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
	.name = "kunit-path",
	.next_worm = list_next,
	.route = path_route,
};

/*
 * Line of 9; a fork from node 4 to nodes 0 and 8 while a long worm holds
 * node 8's only consumption channel.  Returns the left branch's latency,
 * the right one's in *right.
 */
static u64 fork_latency(struct kunit *test, u32 repl, u32 buf, u64 *right)
{
	struct rec *r = rec_new(test);
	struct wc_engine_params p;
	struct wc_engine *e;
	struct wc_msg *blk, *m;
	struct wc_topo t;
	u32 dsts[2] = { 0, 8 }, blocker_dst = 8;
	u64 left;

	topo_init(test, &t, WC_TOPO_MESH, 9, 0, 0);
	wc_engine_params_default(&p, &t);
	p.replication = repl;
	p.buf_flits = buf;
	p.cons_channels = 1;
	e = engine_new(test, r, &t, &p, &fork_algo);
	r->free_msgs = false;
	blk = submit(test, e, 8, &blocker_dst, 1, 32 * 100);
	m = submit(test, e, 4, dsts, 2, 32 * 30);
	run_idle(e);
	KUNIT_EXPECT_EQ(test, r->nd, 3u);
	KUNIT_EXPECT_EQ(test, r->done, 2u);
	left = latency_of(r, m, 0);
	*right = latency_of(r, m, 8);
	kfree(blk);
	kfree(m);
	wc_engine_destroy(e);
	return left;
}

static void engine_replication(struct kunit *test)
{
	u64 l_lock, r_lock, l_async, r_async;
	u64 l_free = 4 * 2 + (1 + 30 + 1) - 1;	/* the left branch alone */

	/* Lock step: the blocked branch stalls the free one; tails together. */
	l_lock = fork_latency(test, WC_REPL_LOCKSTEP, 1, &r_lock);
	KUNIT_EXPECT_GT(test, l_lock, l_free);
	KUNIT_EXPECT_EQ(test, l_lock, r_lock);
	/* Asynchronous: the free branch runs ahead unhindered. */
	l_async = fork_latency(test, WC_REPL_ASYNC, 64, &r_async);
	KUNIT_EXPECT_EQ(test, l_async, l_free);
	KUNIT_EXPECT_LE(test, r_async, r_lock);
	KUNIT_EXPECT_GE(test, r_async + 1, r_lock);
}

/* A path worm delivers at each destination; the last at Eq. 1 time. */
static void engine_intermediate_reception(struct kunit *test)
{
	struct rec *r = rec_new(test);
	struct wc_engine_params p;
	struct wc_engine *e;
	struct wc_msg *m;
	struct wc_topo t;
	u32 dsts[3] = { 2, 5, 7 }, i, L = 1 + 10 + 1;

	topo_init(test, &t, WC_TOPO_MESH, 8, 0, 0);
	wc_engine_params_default(&p, &t);
	e = engine_new(test, r, &t, &p, &path_algo);
	r->free_msgs = false;
	m = submit(test, e, 0, dsts, 3, 320);
	run_idle(e);
	KUNIT_EXPECT_EQ(test, r->nd, 3u);
	for (i = 0; i < 3; i++) {
		u64 last = 7 * 2 + L - 1;

		KUNIT_EXPECT_EQ_MSG(test, latency_of(r, m, dsts[i]),
				    last - (7 - dsts[i]) * p.link_delay,
				    "destination %u", dsts[i]);
	}
	KUNIT_EXPECT_EQ(test, r->done, 1u);
	kfree(m);
	wc_engine_destroy(e);
}

/* ------------------------------------------------------------ watchdog */

/* Always clockwise on one VC: the classic cyclic channel dependency. */
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

static bool ring_next(const struct wc_route_ctx *ctx, struct wc_msg *m,
		      u32 *words, u32 max, struct wc_hdr *h)
{
	return wc_algo_unicast_based.next_worm(ctx, m, words, max, h);
}

static const struct wc_algo ring_algo = {
	.name = "kunit-ring",
	.next_worm = ring_next,
	.route = ring_route,
};

static void engine_watchdog(struct kunit *test)
{
	struct rec *r = rec_new(test);
	struct wc_engine_stats st;
	struct wc_engine_params p;
	struct wc_engine *e;
	struct wc_topo t;
	u32 i, n = 4;
	char *buf;

	topo_init(test, &t, WC_TOPO_TORUS, n, 0, 0);
	wc_engine_params_default(&p, &t);
	p.vcs = 1;
	p.watchdog = 500;
	e = engine_new(test, r, &t, &p, &ring_algo);
	for (i = 0; i < n; i++) {
		u32 d = (i + 2) % n;

		submit(test, e, i, &d, 1, 32 * 20);
	}
	wc_engine_run(e, 5000, NULL);
	wc_engine_get_stats(e, &st);
	KUNIT_EXPECT_EQ(test, r->deadlocks, 1u);
	KUNIT_EXPECT_EQ(test, st.deadlocks, 1ULL);
	buf = kunit_kzalloc(test, 2048, GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, buf);
	KUNIT_EXPECT_EQ(test, wc_engine_dump_waits(e, buf, 2048), n);
	KUNIT_EXPECT_NOT_ERR_OR_NULL(test, strstr(buf, "held by worm"));
	KUNIT_EXPECT_EQ(test, r->nd, 0u);
	/* Flushing hands every stuck message back; nothing leaks (KASAN). */
	KUNIT_EXPECT_EQ(test, wc_engine_flush(e), n);
	KUNIT_EXPECT_EQ(test, r->done, n);
	KUNIT_EXPECT_FALSE(test, wc_engine_busy(e));
	wc_engine_destroy(e);
}

/*
 * The built-in routing never deadlocks: the same pattern on a torus with
 * its default (dateline) virtual channels completes, watchdog silent.
 */
static void engine_no_false_alarm(struct kunit *test)
{
	struct rec *r = rec_new(test);
	struct wc_engine_params p;
	struct wc_engine *e;
	struct wc_topo t;
	u32 i, n = 4;

	topo_init(test, &t, WC_TOPO_TORUS, n, 0, 0);
	wc_engine_params_default(&p, &t);
	p.watchdog = 500;
	e = engine_new(test, r, &t, &p, &wc_algo_unicast_based);
	for (i = 0; i < n; i++) {
		u32 d = (i + 2) % n;

		submit(test, e, i, &d, 1, 32 * 20);
	}
	run_idle(e);
	KUNIT_EXPECT_EQ(test, r->deadlocks, 0u);
	KUNIT_EXPECT_EQ(test, r->nd, n);
	KUNIT_EXPECT_EQ(test, r->done, n);
	wc_engine_destroy(e);
}

static struct kunit_case engine_cases[] = {
	KUNIT_CASE_PARAM(engine_eq1_zero_load, eq1_gen_params),
	KUNIT_CASE(engine_contention),
	KUNIT_CASE(engine_backpressure),
	KUNIT_CASE(engine_replication),
	KUNIT_CASE(engine_intermediate_reception),
	KUNIT_CASE(engine_watchdog),
	KUNIT_CASE(engine_no_false_alarm),
	{}
};

static struct kunit_suite wormcast_engine_suite = {
	.name = "wormcast_engine",
	.test_cases = engine_cases,
};

kunit_test_suites(&wormcast_engine_suite);

MODULE_LICENSE("GPL");
