// SPDX-License-Identifier: GPL-2.0
/*
 * The flit engine (kmod/engine/engine.c) driven by a routing algorithm
 * whose every decision comes from the fuzz input: ports out of range or
 * leading nowhere, several outputs, repeated ports, two consumptions,
 * empty or oversized decisions, VC masks outside the fabric's VCs, header
 * rewrites past the header, routing errors, mixed with decisions of the
 * built-in algorithm.  The engine must reject exactly the decisions that
 * break the rules of engine.h (checked against an independent reading of
 * them), count each, drain the worm, and never crash, leak a message or
 * touch one after handing it back.
 *
 * Input: two bytes give the length of a script; the script picks a small
 * topology, engine parameters and a sequence of operations (submit, run,
 * flush, watchdog change, wait dump, queries); the bytes after it are the
 * routing decisions, read in a loop.
 */
#include "fuzz_params.h"

#define MAX_MSGS	128
#define MAX_CYCLES	30000	/* per input, so that a run stays fast */

struct fmsg {
	struct wc_msg *m;	/* NULL once msg_done handed it back */
	u32 worms_left;		/* fuzz-made worms still to start */
	bool builtin;		/* worms cut by the built-in algorithm */
	bool done;
	u32 delivered;
};

static struct {
	const uint8_t *dec;	/* decision bytes, read in a loop */
	size_t ndec, pos;
	struct fmsg msgs[MAX_MSGS];
	u32 nmsgs, ndone, done_in_flush;
	bool flushing;
	bool pending_invalid;	/* route() returned a bad decision */
	u32 pending_node;
	u64 invalid, errors_cb, delivered, deadlocks_cb;
	u32 nnodes;
} st;

static u8 dec(void)
{
	u8 v;

	if (!st.ndec)
		return 1;	/* no decision bytes: the built-in algorithm */
	v = st.dec[st.pos];
	st.pos = (st.pos + 1) % st.ndec;
	return v;
}

static u32 dec32(void)
{
	u32 v = dec();

	v |= (u32)dec() << 8;
	v |= (u32)dec() << 16;
	return v | (u32)dec() << 24;
}

/* ---------------------------------------------------- the fuzz algorithm */

static u32 msg_index(const struct wc_msg *m)
{
	return (u32)(uintptr_t)m->cookie;
}

static bool fz_next_worm(const struct wc_route_ctx *ctx, struct wc_msg *m,
			 u32 *words, u32 max_words, struct wc_hdr *hdr)
{
	static u32 other[WC_WORM_MAX_WORDS];
	struct fmsg *fm = &st.msgs[msg_index(m)];
	u32 i, n;
	u8 b;

	FUZZ_CHECK(fm->m == m && !fm->done, "next_worm on a finished message");
	FUZZ_CHECK(max_words == WC_WORM_MAX_WORDS, "max_words %u", max_words);
	if (fm->builtin)
		return wc_algo_unicast_based.next_worm(ctx, m, words,
						       max_words, hdr);
	if (!fm->worms_left)
		return false;
	fm->worms_left--;
	b = dec();
	n = b % (max_words + 1);
	/* The words may live in the engine's buffer or in the algorithm's. */
	hdr->words = b & 0x80 ? other : words;
	for (i = 0; i < n; i++)
		((u32 *)hdr->words)[i] = dec() & 0x40 ? dec32() :
					 dec() % (st.nnodes + 1);
	hdr->nwords = n;
	hdr->nflits = dec() % 6;	/* 0 means 1 */
	return true;
}

/* The rules of engine.h and route_check(), read independently. */
static bool decision_ok(const struct wc_route_ctx *ctx,
			const struct wc_hdr *hdr, const struct wc_route_req *req)
{
	u32 vcs = ctx->params->vcs, i, j, cons = 0;

	if (req->nout < 1 || req->nout > WC_MAX_OUTPUTS)
		return false;
	for (i = 0; i < req->nout; i++) {
		const struct wc_route_out *o = &req->out[i];

		if ((u32)o->hdr_skip_words + o->hdr_words > hdr->nwords ||
		    o->hdr_flits > hdr->nflits)
			return false;
		if (o->consume) {
			/* vc_mask: allowed consumption channels, 0 = any */
			if (o->vc_mask && !(o->vc_mask &
					    ((1u << ctx->params->cons_channels) - 1)))
				return false;
			cons++;
			continue;
		}
		if (o->port >= ctx->topo->nports ||
		    wc_topo_neighbor(ctx->topo, ctx->node, o->port) ==
		    WC_NO_NODE)
			return false;
		if (!(o->vc_mask & ((1u << vcs) - 1)))
			return false;
		for (j = 0; j < i; j++)
			if (!req->out[j].consume && req->out[j].port == o->port)
				return false;
	}
	return cons <= 1;
}

static int fz_route(const struct wc_route_ctx *ctx, const struct wc_hdr *hdr,
		    struct wc_route_req *req)
{
	u32 nports = ctx->topo->nports, vcs = ctx->params->vcs, i, n;
	u8 mode = dec();
	int err = 0;

	FUZZ_CHECK(!st.pending_invalid, "bad decision at node %u not reported",
		   st.pending_node);
	FUZZ_CHECK(ctx->node < st.nnodes && ctx->src < st.nnodes,
		   "node %u src %u", ctx->node, ctx->src);
	FUZZ_CHECK(hdr->nwords <= WC_WORM_MAX_WORDS, "nwords %u", hdr->nwords);
	FUZZ_CHECK(ctx->in_port == WC_PORT_INJ || ctx->in_port < nports,
		   "in_port %u", ctx->in_port);
	FUZZ_CHECK(ctx->in_vc < vcs, "in_vc %u", ctx->in_vc);
	switch (mode % 8) {
	case 0:
		err = -EIO;		/* the algorithm's own error */
		break;
	case 1:
	case 2:
		err = wc_algo_unicast_based.route(ctx, hdr, req);
		break;
	default:
		n = dec() % (WC_MAX_OUTPUTS + 2);	/* 0 and one too many */
		req->nout = n;
		for (i = 0; i < n && i < WC_MAX_OUTPUTS; i++) {
			struct wc_route_out *o = &req->out[i];
			u8 f = dec(), h = dec();

			o->consume = (f & 7) == 0;
			o->port = f & 0x80 ? dec() : (u8)(dec() % nports);
			if (f & 0x40)
				o->vc_mask = (u16)(dec() | dec() << 8);
			else
				o->vc_mask = (u16)(1u << (dec() % vcs));
			o->hdr_skip_words = h & 0x80 ? h & 7 : 0;
			o->hdr_words = (u16)((h >> 3) % (hdr->nwords + 2));
			o->hdr_flits = (u16)(dec() % (hdr->nflits + 2));
		}
		break;
	}
	if (err || !decision_ok(ctx, hdr, req)) {
		st.pending_invalid = true;
		st.pending_node = ctx->node;
		st.invalid++;
	}
	return err;
}

static const struct wc_algo fz_algo = {
	.name = "fuzz",
	.next_worm = fz_next_worm,
	.route = fz_route,
};

/* ---------------------------------------------------- the engine's owner */

static void cb_deliver(void *priv, struct wc_msg *m, u32 node, u64 latency)
{
	struct wc_engine *e = *(struct wc_engine **)priv;
	struct fmsg *fm = &st.msgs[msg_index(m)];

	FUZZ_CHECK(fm->m == m && !fm->done, "delivery of a finished message");
	FUZZ_CHECK(node < st.nnodes, "delivery at node %u", node);
	FUZZ_CHECK(latency <= wc_engine_now(e), "latency %llu at cycle %llu",
		   (unsigned long long)latency,
		   (unsigned long long)wc_engine_now(e));
	fm->delivered++;
	st.delivered++;
}

static void cb_msg_done(void *priv, struct wc_msg *m)
{
	struct fmsg *fm = &st.msgs[msg_index(m)];

	FUZZ_CHECK(fm->m == m && !fm->done, "msg_done twice");
	fm->done = true;
	fm->m = NULL;
	free(m);	/* any later use is a use-after-free for ASan */
	st.ndone++;
	if (st.flushing)
		st.done_in_flush++;
}

static void cb_route_error(void *priv, struct wc_msg *m, u32 node, int err)
{
	struct fmsg *fm = &st.msgs[msg_index(m)];

	FUZZ_CHECK(fm->m == m && !fm->done, "route error on a finished message");
	FUZZ_CHECK(st.pending_invalid, "valid decision at node %u refused (%d)",
		   node, err);
	FUZZ_CHECK(node == st.pending_node, "error at %u, decision at %u",
		   node, st.pending_node);
	FUZZ_CHECK(err < 0, "error %d", err);
	st.pending_invalid = false;
	st.errors_cb++;
}

static void cb_deadlock(void *priv, u64 cycle)
{
	st.deadlocks_cb++;
}

static const struct wc_engine_ops fz_ops = {
	.deliver = cb_deliver,
	.msg_done = cb_msg_done,
	.route_error = cb_route_error,
	.deadlock = cb_deadlock,
};

/* ---------------------------------------------------- set-up */

static bool make_topo(struct fz *f, struct wc_topo *t)
{
	u32 kind = WC_TOPO_MESH + fz_u8(f) % 4, ndims = 1, dims[WC_MAX_DIMS];
	u32 i;
	const char *why = NULL;

	switch (kind) {
	case WC_TOPO_MESH:
	case WC_TOPO_TORUS:
		ndims = 1 + fz_u8(f) % 3;
		for (i = 0; i < ndims; i++)
			dims[i] = 2 + fz_u8(f) % 4;
		break;
	case WC_TOPO_HYPERCUBE:
		dims[0] = 1 + fz_u8(f) % 6;
		break;
	default:
		dims[0] = 2 + fz_u8(f) % 3;
		break;
	}
	FUZZ_CHECK(!wc_topo_init(t, kind, ndims, dims, &why),
		   "small topology refused: %s", why);
	return true;
}

static void make_params(struct fz *f, const struct wc_topo *t,
			struct wc_engine_params *p)
{
	wc_engine_params_default(p, t);
	p->watchdog = 200;	/* deadlocks show up within the cycle budget */
	fz_params(f, p);
}

/* ---------------------------------------------------- operations */

static void submit(struct fz *f, struct wc_engine *e)
{
	struct fmsg *fm;
	struct wc_msg *m;
	u32 ndst, i;
	u8 b;

	if (st.nmsgs == MAX_MSGS)
		return;
	fm = &st.msgs[st.nmsgs];
	m = malloc(wc_msg_size(e));
	FUZZ_CHECK(m, "out of memory");
	wc_msg_init(e, m, fz_u8(f) % st.nnodes, fz_u16(f) % 9001,
		    (void *)(uintptr_t)st.nmsgs);
	b = fz_u8(f);
	ndst = b % 5;
	for (i = 0; i < ndst; i++) {
		u8 d = fz_u8(f);
		u32 n;

		if (d == 0xff) {
			for (n = 0; n < st.nnodes; n++)
				wc_msg_add_dst(e, m, n);
		} else {
			wc_msg_add_dst(e, m, d);	/* may be past the end */
		}
	}
	fm->m = m;
	fm->builtin = b & 0x80;
	fm->worms_left = (b >> 3) % 4;
	st.nmsgs++;
	wc_engine_submit(e, m);
}

static void flush(struct wc_engine *e)
{
	u32 n;

	st.flushing = true;
	st.done_in_flush = 0;
	n = wc_engine_flush(e);
	st.flushing = false;
	FUZZ_CHECK(n == st.done_in_flush, "flush says %u, %u handed back", n,
		   st.done_in_flush);
	FUZZ_CHECK(!wc_engine_busy(e), "busy after flush");
	FUZZ_CHECK(st.ndone == st.nmsgs, "%u of %u messages handed back",
		   st.ndone, st.nmsgs);
}

static void dump(struct fz *f, struct wc_engine *e)
{
	size_t len = fz_u8(f) % 160;
	char *buf = len ? malloc(len) : NULL;

	wc_engine_dump_waits(e, buf, len);
	if (len)
		FUZZ_CHECK(strnlen(buf, len) < len, "dump not terminated");
	free(buf);
}

static void queries(struct fz *f, struct wc_engine *e)
{
	struct wc_node_stats ns;
	struct wc_engine_stats s;
	u32 node = fz_pick(f, st.nnodes), port = fz_pick(f, WC_MAX_PORTS);

	wc_engine_node_stats(e, node, &ns);
	wc_engine_channel_busy(e, node, port);
	FUZZ_CHECK(node < st.nnodes || !wc_engine_backlog(e, node),
		   "backlog of node %u", node);
	wc_engine_get_stats(e, &s);
	FUZZ_CHECK(s.route_errors == st.errors_cb, "%llu route errors, %llu reported",
		   (unsigned long long)s.route_errors,
		   (unsigned long long)st.errors_cb);
	FUZZ_CHECK(s.worms_done == st.delivered, "%llu worms done, %llu delivered",
		   (unsigned long long)s.worms_done,
		   (unsigned long long)st.delivered);
	FUZZ_CHECK(s.deadlocks == st.deadlocks_cb, "deadlocks %llu vs %llu",
		   (unsigned long long)s.deadlocks,
		   (unsigned long long)st.deadlocks_cb);
}

static void set_watchdog(struct fz *f, struct wc_engine *e,
			 const struct wc_topo *t,
			 const struct wc_engine_params *p)
{
	struct wc_engine_params q = *p;
	const char *why = NULL;
	int err;

	q.watchdog = fz_pick(f, 16);
	err = wc_engine_set_watchdog(e, q.watchdog, &why);
	FUZZ_CHECK(!err == !wc_engine_params_check(&q, t, NULL),
		   "set_watchdog(%u) and params_check disagree", q.watchdog);
	FUZZ_CHECK(!err || why, "refused without a reason");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz all = { data, size }, f;
	struct wc_engine_params p;
	struct wc_engine *e;
	struct wc_topo t;
	const char *why = NULL;
	u64 cycles = 0;
	size_t len;
	u32 op;

	memset(&st, 0, sizeof(st));
	len = fz_u16(&all);
	if (len > all.n)
		len = all.n;
	f = (struct fz){ all.p, len };
	st.dec = all.p + len;
	st.ndec = all.n - len;

	make_topo(&f, &t);
	st.nnodes = t.nnodes;
	make_params(&f, &t, &p);
	if (wc_engine_params_check(&p, &t, &why)) {
		FUZZ_CHECK(why && *why, "refused without a reason");
		e = wc_engine_create(&t, &p, &fz_algo, &fz_ops, NULL);
		FUZZ_CHECK(!e, "engine created with refused parameters (%s)", why);
		return 0;
	}
	e = wc_engine_create(&t, &p, &fz_algo, &fz_ops, &e);
	FUZZ_CHECK(e, "engine not created");

	for (op = 0; op < 64 && !fz_empty(&f); op++) {
		u8 b = fz_u8(&f);

		switch (b % 8) {
		case 0:
		case 1:
			submit(&f, e);
			break;
		case 2:
		case 3: {
			u64 want = 1 + fz_u8(&f) * 8u;

			if (cycles + want > MAX_CYCLES)
				want = MAX_CYCLES - cycles;
			cycles += wc_engine_run(e, want, NULL);
			break;
		}
		case 4:
			flush(e);
			break;
		case 5:
			set_watchdog(&f, e, &t, &p);
			break;
		case 6:
			dump(&f, e);
			break;
		default:
			queries(&f, e);
			break;
		}
	}
	if (cycles < MAX_CYCLES)
		wc_engine_run(e, MAX_CYCLES - cycles, NULL);
	queries(&f, e);
	flush(e);
	FUZZ_CHECK(!st.pending_invalid, "bad decision at node %u not reported",
		   st.pending_node);
	FUZZ_CHECK(st.invalid == st.errors_cb, "%llu bad decisions, %llu reported",
		   (unsigned long long)st.invalid,
		   (unsigned long long)st.errors_cb);
	wc_engine_destroy(e);
	return 0;
}
