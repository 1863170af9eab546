/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The flit-level engine's test cases, written once and compiled twice: into
 * the userspace TAP test (tests/unit/test_engine.c, under ASan/UBSan) and
 * into the KUnit suite (kmod/tests/engine_kunit.c, with KASAN and lockdep),
 * so that the code the module runs is checked where it runs.
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
 *    with one virtual channel) once, and flushing hands every message back;
 *  - the built-in routing raises no false alarm on the same pattern.
 *
 * Kernel-agnostic: only engine.h (hence compat.h).  The includer defines
 * the check interface first:
 *   CASE_CTX                          type of the context (struct kunit)
 *   CASE_CHECK(ctx, cond, fmt, ...)   expect cond
 *   CASE_EQ(ctx, got, want, fmt, ...) expect two integers equal
 *   CASE_REQUIRE(ctx, cond, fmt, ...) cond, or the case cannot go on
 */
#ifndef WC_ENGINE_CASES_H
#define WC_ENGINE_CASES_H

#include "engine.h"

#if !defined(CASE_CTX) || !defined(CASE_CHECK) || !defined(CASE_EQ) || \
	!defined(CASE_REQUIRE)
#error "define CASE_CTX, CASE_CHECK, CASE_EQ and CASE_REQUIRE first"
#endif

/* ------------------------------------------------------------ recorder */

struct case_deliv {
	struct wc_msg *m;
	u32 node;
	u64 latency;
};

/* What the engine's callbacks saw. */
struct case_rec {
	struct wc_engine *e;
	struct case_deliv *d;
	u32 cap;		/* room in d[] */
	u32 nd;
	u32 lost;		/* deliveries beyond cap */
	u32 done;
	u32 deadlocks;
	u32 route_errors;
	bool free_msgs;		/* wc_free() messages in msg_done */
};

/* Free @n messages that their test kept (free_msgs false), with headers. */
static inline void case_msgs_free(struct wc_msg **all, u32 n)
{
	u32 i;

	for (i = 0; i < n; i++) {
		wc_free(all[i]->hdr);
		wc_free(all[i]);
	}
}

/* Marsaglia's xorshift64; a number from the state's high bits. */
static inline u32 case_rnd(u64 *st)
{
	*st ^= *st << 13;
	*st ^= *st >> 7;
	*st ^= *st << 17;
	return (u32)(*st >> 11);
}

/*
 * Count @r's deliveries that went to a node off their message's
 * destinations (*@stray) or to one already reached (*@dup).  Messages are
 * numbered by their cookie; @count (zeroed, @n entries per message) keeps
 * the deliveries per (message, node).
 */
static void case_count_deliveries(const struct case_rec *r, u32 *count, u32 n,
				  u32 *dup, u32 *stray)
{
	u32 i;

	for (i = 0; i < r->nd; i++) {
		struct wc_msg *m = r->d[i].m;
		u32 id = (u32)(uintptr_t)m->cookie;

		if (!wc_msg_has_dst(r->e, m, r->d[i].node))
			(*stray)++;
		else if (count[(size_t)id * n + r->d[i].node]++)
			(*dup)++;
	}
}

static void case_on_deliver(void *priv, struct wc_msg *m, u32 node, u64 lat)
{
	struct case_rec *r = priv;

	if (r->nd < r->cap)
		r->d[r->nd++] = (struct case_deliv){ m, node, lat };
	else
		r->lost++;
}

static void case_on_done(void *priv, struct wc_msg *m)
{
	struct case_rec *r = priv;

	r->done++;
	if (r->free_msgs)
		wc_free(m);
}

static void case_on_route_error(void *priv, struct wc_msg *m, u32 node,
				int err)
{
	((struct case_rec *)priv)->route_errors++;
}

static void case_on_deadlock(void *priv, u64 cycle)
{
	((struct case_rec *)priv)->deadlocks++;
}

static const struct wc_engine_ops case_rec_ops = {
	.deliver = case_on_deliver,
	.msg_done = case_on_done,
	.route_error = case_on_route_error,
	.deadlock = case_on_deadlock,
};

/* A recorder with room for cap deliveries; messages freed when done. */
static struct case_rec *case_rec_new(CASE_CTX *ctx, u32 cap)
{
	struct case_rec *r = wc_zalloc(sizeof(*r));

	CASE_REQUIRE(ctx, r, "recorder allocated");
	r->d = wc_calloc(cap, sizeof(*r->d));
	CASE_REQUIRE(ctx, r->d, "room for %u deliveries", cap);
	r->cap = cap;
	r->free_msgs = true;
	return r;
}

static void case_rec_free(struct case_rec *r)
{
	wc_free(r->d);
	wc_free(r);
}

static struct wc_engine *case_engine_new(CASE_CTX *ctx, struct case_rec *r,
					 const struct wc_topo *t,
					 const struct wc_engine_params *p,
					 const struct wc_algo *algo)
{
	r->e = wc_engine_create(t, p, algo, &case_rec_ops, r);
	CASE_REQUIRE(ctx, r->e, "engine created for %s", algo->name);
	return r->e;
}

/* ------------------------------------------------------------ messages */

/* The cookie is the engine, for the test algorithms' next_worm(). */
static struct wc_msg *case_submit(CASE_CTX *ctx, struct wc_engine *e,
				  u32 src, const u32 *dsts, u32 n, u32 bytes)
{
	struct wc_msg *m = wc_zalloc(wc_msg_size(e));
	u32 i;

	CASE_REQUIRE(ctx, m, "message allocated");
	wc_msg_init(e, m, src, bytes, e);
	for (i = 0; i < n; i++)
		wc_msg_add_dst(e, m, dsts[i]);
	wc_engine_submit(e, m);
	return m;
}

static void case_run_idle(struct wc_engine *e)
{
	u32 guard = 0;

	while (wc_engine_busy(e) && guard++ < 1000)
		wc_engine_run(e, 100000, NULL);
}

static const struct case_deliv *case_find(const struct case_rec *r,
					  const struct wc_msg *m, u32 node)
{
	u32 i;

	for (i = 0; i < r->nd; i++)
		if (r->d[i].m == m && r->d[i].node == node)
			return &r->d[i];
	return NULL;
}

/* The latency of m's delivery at node, U64_MAX if it never arrived. */
static u64 case_latency(const struct case_rec *r, const struct wc_msg *m,
			u32 node)
{
	const struct case_deliv *d = case_find(r, m, node);

	return d ? d->latency : U64_MAX;
}

/* Topology of kind with dimensions a, b, c (0 for absent ones). */
static void case_topo(CASE_CTX *ctx, struct wc_topo *t, u32 kind,
		      u32 a, u32 b, u32 c)
{
	u32 dims[WC_MAX_DIMS] = { a, b, c };
	u32 nd = c ? 3 : b ? 2 : 1;

	CASE_REQUIRE(ctx, !wc_topo_init(t, kind, nd, dims, NULL),
		     "topology %u (%u, %u, %u)", kind, a, b, c);
}

/* ------------------------------------------------------------ Eq. 1 */

struct case_eq1_topo {
	const char *name;
	u32 kind, a, b, c;
};

static const struct case_eq1_topo case_eq1_topos[] = {
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

/*
 * At zero load a unicast of L flits over d hops is consumed
 * startup + d * (router_delay + link_delay) + (L - 1) cycles after
 * submission (engine.h), L = 1 header + ceil(bytes / flit_bytes) + 1 tail.
 */
static void case_eq1_zero_load(CASE_CTX *ctx, const struct case_eq1_topo *tp)
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
	struct case_rec *r = case_rec_new(ctx, 4);
	struct wc_topo t;
	u32 ci, s, d, tried = 0, wrong = 0;

	case_topo(ctx, &t, tp->kind, tp->a, tp->b, tp->c);
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
		e = case_engine_new(ctx, r, &t, &p, &wc_algo_unicast_based);
		for (s = 0; s < t.nnodes; s += 1 + t.nnodes / 9) {
			for (d = 0; d < t.nnodes; d++) {
				u64 got, want = p.startup +
					   (u64)wc_topo_distance(&t, s, d) *
					   (p.router_delay + p.link_delay) +
					   L - 1;

				r->nd = 0;
				case_submit(ctx, e, s, &d, 1, cases[ci].bytes);
				case_run_idle(e);
				tried++;
				if (r->nd == 1 && r->d[0].node == d &&
				    r->d[0].latency == want)
					continue;
				/* Name the first few, count them all. */
				got = r->nd ? r->d[0].latency : 0;
				if (wrong++ < 3)
					CASE_CHECK(ctx, false,
						   "%s case %u: %u->%u: %u deliveries, latency %llu, want %llu",
						   tp->name, ci, s, d, r->nd,
						   (unsigned long long)got,
						   (unsigned long long)want);
			}
		}
		CASE_CHECK(ctx, !wc_engine_busy(e),
			   "%s case %u: engine idle afterwards", tp->name, ci);
		wc_engine_destroy(e);
	}
	CASE_CHECK(ctx, !wrong, "Eq. 1 at zero load on %s: %u unicasts exact",
		   tp->name, tried);
	CASE_EQ(ctx, r->done, tried, "%s: every unicast done once", tp->name);
	CASE_EQ(ctx, r->deadlocks, 0, "%s: no deadlock", tp->name);
	CASE_EQ(ctx, r->route_errors, 0, "%s: no routing error", tp->name);
	case_rec_free(r);
}

/* ------------------------------------------------------------ contention */

static void case_contention(CASE_CTX *ctx)
{
	struct case_rec *r = case_rec_new(ctx, 8);
	struct wc_engine_stats st;
	struct wc_engine_params p;
	struct wc_engine *e;
	struct wc_msg *a, *b;
	struct wc_topo t;
	u32 dst = 3, bytes = 320, L, v, port;

	/*
	 * Line 0-1-2-3.  A goes 0->3; B enters at node 1 two cycles later,
	 * so both headers want channel 1->2 in the same cycle; the older worm
	 * (A) wins and B waits exactly as long as A holds that channel.
	 */
	case_topo(ctx, &t, WC_TOPO_MESH, 4, 0, 0);
	wc_engine_params_default(&p, &t);
	e = case_engine_new(ctx, r, &t, &p, &wc_algo_unicast_based);
	r->free_msgs = false;
	L = 1 + bytes / p.flit_bytes + 1;
	a = case_submit(ctx, e, 0, &dst, 1, bytes);
	wc_engine_run(e, 2, NULL);
	b = case_submit(ctx, e, 1, &dst, 1, bytes);
	case_run_idle(e);
	wc_engine_get_stats(e, &st);
	CASE_EQ(ctx, case_latency(r, a, 3), 3 * 2 + L - 1,
		"contention: the older worm passes unhindered");
	/*
	 * A holds 1->2 from cycle 3, when its header enters, until its tail
	 * leaves node 2's buffer.  With 1-flit buffers, A's second flit waits
	 * at node 1 while the header spends router_delay at node 2: it enters
	 * 1->2 at cycle 5, the tail at L + 3, and leaves node 2 at L + 4.
	 * The hold is L + 1 cycles, and B is late by exactly that.
	 */
	CASE_EQ(ctx, case_latency(r, b, 3), (2 * 2 + L - 1) + (L + 1),
		"contention: the loser is late by exactly the winner's hold time (L = %u)",
		L);
	CASE_EQ(ctx, st.blocked_cycles, L + 1,
		"contention: the loser's header was blocked L+1 cycles");
	/* ... all of them charged to the channel it waited for, 1->2. */
	for (v = 0; v < t.nnodes; v++)
		for (port = 0; port < t.nports; port++) {
			bool want = v == 1 && wc_topo_neighbor(&t, v, port) == 2;

			CASE_EQ(ctx, wc_engine_channel_blocked(e, v, port),
				want ? L + 1 : 0,
				"contention: blocked cycles of channel (%u, port %u)",
				v, port);
		}
	wc_free(a);
	wc_free(b);
	wc_engine_destroy(e);

	/* A tie for a single consumption channel: older worm first. */
	case_topo(ctx, &t, WC_TOPO_MESH, 3, 0, 0);
	wc_engine_params_default(&p, &t);
	p.cons_channels = 1;
	r->nd = 0;
	e = case_engine_new(ctx, r, &t, &p, &wc_algo_unicast_based);
	dst = 1;
	a = case_submit(ctx, e, 2, &dst, 1, bytes);
	b = case_submit(ctx, e, 0, &dst, 1, bytes);
	case_run_idle(e);
	CASE_EQ(ctx, case_latency(r, a, 1), 2 + L - 1,
		"consumption channel: first submitted first served");
	CASE_EQ(ctx, case_latency(r, b, 1), 2 + L - 1 + (L - 1),
		"consumption channel: the other waits L-1");
	/* waiting for a consumption channel is charged to no link */
	for (v = 0; v < t.nnodes; v++)
		for (port = 0; port < t.nports; port++)
			CASE_EQ(ctx, wc_engine_channel_blocked(e, v, port), 0,
				"consumption channel: no link blocked (%u, port %u)",
				v, port);
	wc_free(a);
	wc_free(b);
	wc_engine_destroy(e);
	case_rec_free(r);
}

/* ------------------------------------------------------------ backpressure */

static void case_backpressure(CASE_CTX *ctx)
{
	struct case_rec *r = case_rec_new(ctx, 8);
	struct wc_engine_params p;
	struct wc_engine *e;
	struct wc_msg *x, *a;
	struct wc_topo t;
	u32 n = 8, last = n - 1, k, len_x = 200 + 2, L = 50 + 2;
	char *buf = wc_zalloc(512);

	CASE_REQUIRE(ctx, buf, "dump buffer allocated");
	/*
	 * A long worm X sinks into node 7's only consumption channel; worm A
	 * from node 0 backs up behind it through 1-flit buffers: after 100
	 * cycles channel k->k+1 has carried exactly (n - 1) - k flits.
	 */
	case_topo(ctx, &t, WC_TOPO_MESH, n, 0, 0);
	wc_engine_params_default(&p, &t);
	p.cons_channels = 1;
	e = case_engine_new(ctx, r, &t, &p, &wc_algo_unicast_based);
	r->free_msgs = false;
	x = case_submit(ctx, e, last, &last, 1, 32 * 200);
	a = case_submit(ctx, e, 0, &last, 1, 32 * 50);
	wc_engine_run(e, 100, NULL);
	CASE_EQ(ctx, r->nd, 0, "backpressure: nothing delivered while blocked");
	for (k = 0; k < n - 1; k++)
		CASE_EQ(ctx, wc_engine_channel_busy(e, k, 0), n - 1 - k,
			"backpressure: channel %u->%u carried one flit per 1-flit buffer downstream",
			k, k + 1);
	CASE_EQ(ctx, wc_engine_dump_waits(e, buf, 512), 1,
		"backpressure: the dump shows one waiting header");
	CASE_CHECK(ctx, strstr(buf, "at node 7"),
		   "backpressure: the dump shows A's header waiting at node 7");
	case_run_idle(e);
	CASE_EQ(ctx, case_latency(r, x, last), len_x - 1,
		"backpressure: X consumed at full rate");
	CASE_EQ(ctx, case_latency(r, a, last), (len_x - 1) + (L - 1),
		"backpressure: A resumes at full rate, nothing lost");
	CASE_EQ(ctx, r->done, 2, "backpressure: both messages done");
	wc_free(x);
	wc_free(a);
	wc_free(buf);
	wc_engine_destroy(e);
	case_rec_free(r);
}

/* ------------------------------------------------------------ replication */

/*
 * Test algorithms on a line.  The header lists the destinations.  fork:
 * the source splits into both directions, one word per branch.  path:
 * destinations in order, with intermediate reception (consume and forward
 * in one reservation).
 */
static bool case_list_next(const struct wc_route_ctx *ctx, struct wc_msg *m,
			   u32 *words, u32 max, struct wc_hdr *h)
{
	const struct wc_engine *e = m->cookie;	/* set by case_submit() */
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

static void case_out_toward(struct wc_route_out *o, u32 node, u32 dst,
			    u16 skip)
{
	o->port = dst > node ? 0 : 1;
	o->vc_mask = 1;
	o->hdr_skip_words = skip;
	o->hdr_words = 1;
	o->hdr_flits = 1;
}

static int case_fork_route(const struct wc_route_ctx *ctx,
			   const struct wc_hdr *h, struct wc_route_req *req)
{
	if (h->nwords == 2) {		/* at the source: split */
		req->nout = 2;
		case_out_toward(&req->out[0], ctx->node, h->words[0], 0);
		case_out_toward(&req->out[1], ctx->node, h->words[1], 1);
		return 0;
	}
	req->nout = 1;
	if (h->words[0] == ctx->node) {
		req->out[0].consume = true;
		req->out[0].hdr_words = 1;
		req->out[0].hdr_flits = 1;
		return 0;
	}
	case_out_toward(&req->out[0], ctx->node, h->words[0], 0);
	return 0;
}

static const struct wc_algo case_fork_algo = {
	.name = "test-fork",
	.next_worm = case_list_next,
	.route = case_fork_route,
};

static int case_path_route(const struct wc_route_ctx *ctx,
			   const struct wc_hdr *h, struct wc_route_req *req)
{
	if (h->words[0] != ctx->node) {
		req->nout = 1;
		case_out_toward(&req->out[0], ctx->node, h->words[0], 0);
		req->out[0].hdr_words = (u16)h->nwords;
		return 0;
	}
	/* Intermediate reception: consume and forward in one reservation. */
	req->out[0].consume = true;
	req->out[0].hdr_words = 1;
	req->out[0].hdr_flits = 1;
	req->nout = 1;
	if (h->nwords > 1) {
		case_out_toward(&req->out[1], ctx->node, h->words[1], 1);
		req->out[1].hdr_words = (u16)(h->nwords - 1);
		req->nout = 2;
	}
	return 0;
}

static const struct wc_algo case_path_algo = {
	.name = "test-path",
	.next_worm = case_list_next,
	.route = case_path_route,
};

/*
 * Line of 9; a fork from node 4 to nodes 0 and 8 while a long worm holds
 * node 8's only consumption channel.  Returns the left branch's latency,
 * the right one's in *right.
 */
static u64 case_fork_latency(CASE_CTX *ctx, u32 repl, u32 buf, u64 *right)
{
	struct case_rec *r = case_rec_new(ctx, 8);
	const char *mode = repl == WC_REPL_ASYNC ? "async" : "lockstep";
	struct wc_engine_params p;
	struct wc_engine *e;
	struct wc_msg *blk, *m;
	struct wc_topo t;
	u32 dsts[2] = { 0, 8 }, blocker_dst = 8;
	u64 left;

	case_topo(ctx, &t, WC_TOPO_MESH, 9, 0, 0);
	wc_engine_params_default(&p, &t);
	p.replication = repl;
	p.buf_flits = buf;
	p.cons_channels = 1;
	e = case_engine_new(ctx, r, &t, &p, &case_fork_algo);
	r->free_msgs = false;
	blk = case_submit(ctx, e, 8, &blocker_dst, 1, 32 * 100);
	m = case_submit(ctx, e, 4, dsts, 2, 32 * 30);
	case_run_idle(e);
	CASE_EQ(ctx, r->nd, 3, "fork (%s, B=%u): all three deliveries",
		mode, buf);
	CASE_EQ(ctx, r->done, 2, "fork (%s, B=%u): both messages done",
		mode, buf);
	left = case_latency(r, m, 0);
	*right = case_latency(r, m, 8);
	wc_free(blk);
	wc_free(m);
	wc_engine_destroy(e);
	case_rec_free(r);
	return left;
}

static void case_replication(CASE_CTX *ctx)
{
	u64 l_lock, r_lock, l_async, r_async;
	u64 l_free = 4 * 2 + (1 + 30 + 1) - 1;	/* the left branch alone */

	l_lock = case_fork_latency(ctx, WC_REPL_LOCKSTEP, 1, &r_lock);
	CASE_CHECK(ctx, l_lock > l_free,
		   "lock step: the blocked branch stalls the free one (%llu > %llu)",
		   (unsigned long long)l_lock, (unsigned long long)l_free);
	/* In lock step both branches finish within their path difference. */
	CASE_EQ(ctx, l_lock, r_lock,
		"lock step: both branches' tails arrive together");
	l_async = case_fork_latency(ctx, WC_REPL_ASYNC, 64, &r_async);
	CASE_EQ(ctx, l_async, l_free,
		"asynchronous replication: the free branch runs ahead unhindered");
	CASE_CHECK(ctx, r_async <= r_lock && r_async + 1 >= r_lock,
		   "asynchronous replication: the blocked branch is not slower than in lock step (%llu, %llu)",
		   (unsigned long long)r_async, (unsigned long long)r_lock);
}

/* A path worm delivers at each destination; the last at Eq. 1 time. */
static void case_intermediate_reception(CASE_CTX *ctx)
{
	struct case_rec *r = case_rec_new(ctx, 8);
	struct wc_engine_params p;
	struct wc_engine *e;
	struct wc_msg *m;
	struct wc_topo t;
	u32 dsts[3] = { 2, 5, 7 }, i, L = 1 + 10 + 1;

	case_topo(ctx, &t, WC_TOPO_MESH, 8, 0, 0);
	wc_engine_params_default(&p, &t);
	e = case_engine_new(ctx, r, &t, &p, &case_path_algo);
	r->free_msgs = false;
	m = case_submit(ctx, e, 0, dsts, 3, 320);
	case_run_idle(e);
	CASE_EQ(ctx, r->nd, 3,
		"path worm: delivered at each of its 3 destinations");
	for (i = 0; i < 3; i++) {
		/*
		 * The last destination (7 hops) receives at Eq. 1 time.  The
		 * flits reach an intermediate one in lock step with the
		 * forwarded stream, so its tail passes there one link delay
		 * per remaining hop earlier.
		 */
		u64 last = 7 * 2 + L - 1;

		CASE_EQ(ctx, case_latency(r, m, dsts[i]),
			last - (7 - dsts[i]) * p.link_delay,
			"path worm: destination %u at Eq. 1 time less %u link delays",
			dsts[i], 7 - dsts[i]);
	}
	CASE_EQ(ctx, r->done, 1, "path worm: message done once");
	wc_free(m);
	wc_engine_destroy(e);
	case_rec_free(r);
}

/* ------------------------------------------------------------ watchdog */

static bool case_ring_next(const struct wc_route_ctx *ctx, struct wc_msg *m,
			   u32 *words, u32 max, struct wc_hdr *h)
{
	return wc_algo_unicast_based.next_worm(ctx, m, words, max, h);
}

/* Always clockwise on one VC: the classic cyclic channel dependency. */
static int case_ring_route(const struct wc_route_ctx *ctx,
			   const struct wc_hdr *h, struct wc_route_req *req)
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

static const struct wc_algo case_ring_algo = {
	.name = "test-ring",
	.next_worm = case_ring_next,
	.route = case_ring_route,
};

/* Each node of a 4-ring sends 32 * 20 bytes two hops on. */
static void case_ring_traffic(CASE_CTX *ctx, struct wc_engine *e, u32 n)
{
	u32 i;

	for (i = 0; i < n; i++) {
		u32 d = (i + 2) % n;

		case_submit(ctx, e, i, &d, 1, 32 * 20);
	}
}

static void case_watchdog(CASE_CTX *ctx)
{
	struct case_rec *r = case_rec_new(ctx, 8);
	struct wc_engine_stats st;
	struct wc_engine_params p;
	struct wc_engine *e;
	struct wc_topo t;
	u32 n = 4, bufsize = 2048;
	char *buf = wc_zalloc(bufsize);

	CASE_REQUIRE(ctx, buf, "dump buffer allocated");
	case_topo(ctx, &t, WC_TOPO_TORUS, n, 0, 0);
	wc_engine_params_default(&p, &t);
	p.vcs = 1;
	p.watchdog = 500;
	e = case_engine_new(ctx, r, &t, &p, &case_ring_algo);
	case_ring_traffic(ctx, e, n);
	wc_engine_run(e, 5000, NULL);
	wc_engine_get_stats(e, &st);
	CASE_EQ(ctx, r->deadlocks, 1,
		"watchdog: a cyclic pattern on a ring without VCs deadlocks, reported once");
	CASE_EQ(ctx, st.deadlocks, 1,
		"watchdog: counted in the engine statistics");
	CASE_EQ(ctx, wc_engine_dump_waits(e, buf, bufsize), n,
		"watchdog: the dump names the 4 blocked headers");
	CASE_CHECK(ctx, strstr(buf, "held by worm"),
		   "watchdog: the dump says who holds what");
	CASE_EQ(ctx, r->nd, 0, "watchdog: nothing delivered, nothing dropped");
	/* Flushing hands every stuck message back; nothing leaks. */
	CASE_EQ(ctx, wc_engine_flush(e), n,
		"flush: the 4 stuck messages are handed back");
	CASE_EQ(ctx, r->done, n, "flush: msg_done for each");
	CASE_CHECK(ctx, !wc_engine_busy(e), "flush: engine idle afterwards");
	wc_free(buf);
	wc_engine_destroy(e);
	case_rec_free(r);
}

/*
 * The built-in routing never deadlocks: the same pattern on a torus with
 * its default (dateline) virtual channels completes, watchdog silent.
 */
static void case_no_false_alarm(CASE_CTX *ctx)
{
	struct case_rec *r = case_rec_new(ctx, 8);
	struct wc_engine_params p;
	struct wc_engine *e;
	struct wc_topo t;
	u32 n = 4;

	case_topo(ctx, &t, WC_TOPO_TORUS, n, 0, 0);
	wc_engine_params_default(&p, &t);
	p.watchdog = 500;
	e = case_engine_new(ctx, r, &t, &p, &wc_algo_unicast_based);
	case_ring_traffic(ctx, e, n);
	case_run_idle(e);
	CASE_EQ(ctx, r->deadlocks, 0,
		"no false alarm: the built-in routing's ring pattern completes");
	CASE_EQ(ctx, r->nd, n, "no false alarm: every message delivered");
	CASE_EQ(ctx, r->done, n, "no false alarm: every message done");
	wc_engine_destroy(e);
	case_rec_free(r);
}

#endif /* WC_ENGINE_CASES_H */
