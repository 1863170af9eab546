// SPDX-License-Identifier: GPL-2.0
/*
 * Receivers send on: scheme multiphase (Documentation/multicast.rst,
 * "Multi-phase unicast") and the broadcasts of schemes dcf and edn
 * (Documentation/dcf.rst, "The broadcast in the kernel").  Who sends to
 * whom is the engine's: the halving of a chain (kmod/engine/relay.h) or a
 * broadcast schedule (kmod/engine/bcast.h).  This is the glue: a
 * datagram's chain, or its schedule's table, in a small refcounted
 * context, one unicast message per send, each tagged with its target (a
 * chain position and the range handed to it, or a schedule offset).  At
 * the target's delivery (the deliver callback) its own sends are queued
 * on the fabric, in order; the poll submits them right after
 * wc_engine_run() returns, which the callback makes happen at the end of
 * that cycle (wc_engine_yield()).  Everything runs in the NAPI
 * poll under the engine lock, or at teardown under it.
 *
 * Processor overheads (Documentation/dcf.rst, "Sending and receiving
 * latencies"), as wormsim's --mcast0 and --bcast: a relay that consumed
 * its copy at cycle t may send from t + recv_ovh, the source from the
 * cycle its frame was taken; each send costs send_ovh more
 * (wc_send_due(), the node's cpu_free), and is submitted timed
 * (wc_engine_submit_at()): the i-th send of a relay enters its injection
 * queue at t + recv_ovh + (i + 1) send_ovh on an idle processor.
 *
 * Accounting: a message that does not reach its target loses the whole
 * range handed to it (under a schedule, the target's subtree); all of it
 * is counted under the named counter of the datagram's source
 * (fault_drops, the flush's reason, drop_route_error, drop_nomem), so
 * that sent x members = delivered + counted drops.
 *
 * The same mechanism re-injects under fault-info local (DSTM section 7,
 * Documentation/faults.rst): a tree worm absorbed at a failed link is
 * sent again, at its msg_done, from the router before that link to the
 * destinations it missed, on the other tree (wc_relay_reinject()).  Such
 * a message carries a context without a chain or schedule; what it does
 * not reach is counted under fault_reinject_drops (or the flush's reason).
 */
#include "wormcast.h"
#include "relay.h"
#include "tree_mcast.h"

/* One datagram's chain or schedule, shared by its messages (engine lock). */
struct wc_relay_ctx {
	refcount_t ref;			/* one per message, queued or submitted */
	u32 origin;			/* the datagram's source node */
	struct wc_table *sched;		/* a bcast table (a reference), or NULL */
	u32 n;				/* chain length: source and members */
	u32 chain[];			/* nodes, by label (or id); none if @sched */
};

/* After every message of the fabric (f->msg_size): NULL ctx if no relay. */
struct wc_relay_tag {
	struct wc_relay_ctx *ctx;
	struct wc_msg *next;		/* f->relayq */
	/* chain positions, [lo, hi) holding target; or target's offset */
	u32 target, lo, hi;
	u64 due;			/* cycle it may enter, wc_send_due() */
	bool delivered;			/* the target consumed the worm */
	bool counted;			/* its loss is counted already */
	bool reinject;			/* a re-injection: [0, hi) destinations */
};

static struct wc_relay_tag *wc_tag(const struct wc_fabric *f,
				   const struct wc_msg *m)
{
	return (struct wc_relay_tag *)((char *)m + f->msg_size);
}

/* A message allocated by the fabric: wc_msg_init() and an empty tag. */
struct wc_msg *wc_relay_msg_alloc(struct wc_fabric *f, u32 src, u32 bytes,
				  void *cookie)
{
	struct wc_msg *m = kmalloc(f->msg_size + sizeof(struct wc_relay_tag),
				   GFP_ATOMIC | __GFP_NOWARN);

	if (!m)
		return NULL;
	wc_msg_init(f->engine, m, src, bytes, cookie);
	memset(wc_tag(f, m), 0, sizeof(struct wc_relay_tag));
	return m;
}

static void wc_relay_put(struct wc_relay_ctx *ctx)
{
	if (refcount_dec_and_test(&ctx->ref)) {
		wc_table_put(ctx->sched);
		kfree(ctx);
	}
}

/* The node of @target (a chain position, or a schedule offset). */
static u32 wc_relay_node(const struct wc_relay_ctx *ctx, u32 target)
{
	if (ctx->sched)
		return wc_bcast_node(&ctx->sched->u.bcast, ctx->origin, target);
	return ctx->chain[target];
}

/* Members that @tag's message informs, itself and those it hands on to. */
static u32 wc_relay_span(const struct wc_relay_ctx *ctx,
			 const struct wc_relay_tag *tag)
{
	if (ctx->sched)
		return ctx->sched->u.bcast.subtree[tag->target];
	return tag->hi - tag->lo;
}

/* @n members lost under @why, counted at the datagram's source. */
static void wc_relay_count(struct wc_fabric *f, struct wc_relay_ctx *ctx,
			   u32 n, int why)
{
	wc_count_add(&f->nodes[ctx->origin].napi_cnt, why, n);
}

/* @tag's members lost under @why. */
static void wc_relay_lost(struct wc_fabric *f, struct wc_relay_ctx *ctx,
			  const struct wc_relay_tag *tag, int why)
{
	wc_relay_count(f, ctx, wc_relay_span(ctx, tag), why);
}

static void wc_relay_enqueue(struct wc_fabric *f, struct wc_msg *m)
{
	wc_tag(f, m)->next = NULL;
	if (f->relayq_tail)
		wc_tag(f, f->relayq_tail)->next = m;
	else
		f->relayq = m;
	f->relayq_tail = m;
}

/*
 * Queue a unicast of @skb (a reference) from node @from to @want's target,
 * which node @from's processor may start at cycle @ready.
 */
static void wc_relay_send(struct wc_fabric *f, struct wc_relay_ctx *ctx,
			  struct sk_buff *skb, u32 bytes, u32 from,
			  const struct wc_relay_tag *want, u64 ready)
{
	u64 due = wc_send_due(&f->nodes[from].cpu_free, ready,
			      READ_ONCE(f->send_ovh));
	struct wc_relay_tag *tag;
	struct wc_msg *m;

	m = wc_relay_msg_alloc(f, from, bytes, skb);
	if (!m) {
		wc_relay_lost(f, ctx, want, WORMCAST_CNT_DROP_NOMEM);
		return;
	}
	wc_msg_add_dst(f->engine, m, wc_relay_node(ctx, want->target));
	tag = wc_tag(f, m);
	tag->ctx = ctx;
	tag->target = want->target;
	tag->lo = want->lo;
	tag->hi = want->hi;
	tag->due = due;
	refcount_inc(&ctx->ref);
	skb_get(skb);
	wc_relay_enqueue(f, m);
}

/*
 * Queue the sends of the holder @h, in order, from cycle @ready on: under
 * a schedule, those of offset @h; else those of chain position @h of
 * [@lo, @hi).
 */
static void wc_relay_sends(struct wc_fabric *f, struct wc_relay_ctx *ctx,
			   struct sk_buff *skb, u32 bytes, u32 h, u32 lo,
			   u32 hi, u64 ready)
{
	struct wc_relay_tag want = { };
	struct wc_relay_send s;
	u32 i;

	if (ctx->sched) {
		const struct wc_bcast_set *bs = &ctx->sched->u.bcast;

		for (i = bs->start[h]; i < bs->start[h + 1]; i++) {
			want.target = bs->to[i];
			wc_relay_send(f, ctx, skb, bytes,
				      wc_relay_node(ctx, h), &want, ready);
		}
		return;
	}
	while (wc_relay_next(h, &lo, &hi, &s)) {
		want.target = s.target;
		want.lo = s.lo;
		want.hi = s.hi;
		wc_relay_send(f, ctx, skb, bytes, ctx->chain[h], &want,
			      ready);
	}
}

/*
 * A frame to @m->ndsts >= 2 members from @m->src, relayed along the
 * schedule of bcast table @sched (which the caller holds; @m a broadcast
 * to every other node), or else along its chain (multiphase): queue the
 * source's own sends instead of @m, which is freed (its reference to the
 * skb passes to the sends).  In the poll, rcu_read_lock() held (the labels
 * table).  Returns 0, or -ENOMEM (nothing queued, @m and the skb
 * untouched).
 */
int wc_relay_start(struct wc_fabric *f, struct wc_msg *m,
		   struct wc_table *sched)
{
	struct wc_table *t = wc_tables_peek_rcu(&f->tables,
						WORMCAST_TABLE_LABELS);
	const u32 *label = t ? t->u.labels.label : NULL;
	struct wc_relay_ctx *ctx;
	struct sk_buff *skb = m->cookie;
	u32 h = 0;

	ctx = kmalloc(struct_size(ctx, chain, sched ? 0 : m->ndsts + 1),
		      GFP_ATOMIC | __GFP_NOWARN);
	if (!ctx)
		return -ENOMEM;
	if (sched && !wc_table_tryget(sched)) {
		kfree(ctx);
		return -ENOMEM;
	}
	refcount_set(&ctx->ref, 1);	/* the source's, dropped below */
	ctx->origin = m->src;
	ctx->sched = sched;
	ctx->n = sched ? 0 : wc_relay_chain(m, f->nnodes, label, ctx->chain,
					    &h);
	wc_relay_sends(f, ctx, skb, m->bytes, h, 0, ctx->n,
		       wc_engine_now(f->engine));
	wc_relay_put(ctx);
	kfree(m);
	consume_skb(skb);	/* the sends hold their own references */
	return 0;
}

/*
 * The deliver callback for @m's target, in the cycle its tail was
 * consumed: its own sends, from recv_ovh cycles later, for the poll to
 * submit at the end of this cycle.
 */
void wc_relay_delivered(struct wc_fabric *f, struct wc_msg *m)
{
	struct wc_relay_tag *tag = wc_tag(f, m);

	if (!tag->ctx || tag->reinject)
		return;
	tag->delivered = true;
	if (wc_relay_span(tag->ctx, tag) < 2)
		return;
	wc_relay_sends(f, tag->ctx, m->cookie, m->bytes, tag->target,
		       tag->lo, tag->hi,
		       wc_engine_now(f->engine) + READ_ONCE(f->recv_ovh));
	wc_engine_yield(f->engine);
}

/* The datagram's source, for the counters of a copy of @m. */
u32 wc_relay_origin(const struct wc_fabric *f, const struct wc_msg *m)
{
	struct wc_relay_tag *tag = wc_tag(f, m);

	return tag->ctx ? tag->ctx->origin : m->src;
}

/* Route error on @m: true if it is a relay message (its range counted). */
bool wc_relay_route_error(struct wc_fabric *f, struct wc_msg *m)
{
	struct wc_relay_tag *tag = wc_tag(f, m);

	if (!tag->ctx)
		return false;
	if (!tag->delivered && !tag->counted && !tag->reinject)
		wc_relay_lost(f, tag->ctx, tag, WORMCAST_CNT_DROP_ROUTE_ERROR);
	tag->counted = true;
	return true;
}

/*
 * msg_done of @m: true if it is a relay message, whose range is counted if
 * its target was not reached (@reason: the flush's, else a fault's) and
 * whose context reference is dropped; the caller frees @m and the skb.
 */
bool wc_relay_done(struct wc_fabric *f, struct wc_msg *m, int reason)
{
	struct wc_relay_tag *tag = wc_tag(f, m);

	if (!tag->ctx)
		return false;
	if (tag->reinject) {
		/* per destination: it may reach some and not others */
		u32 got = min(m->ndelivered, m->ndsts);

		if (got < m->ndsts)
			wc_relay_count(f, tag->ctx, m->ndsts - got,
				       reason ? reason : m->faulted ?
				       WORMCAST_CNT_FAULT_REINJECT_DROPS :
				       WORMCAST_CNT_DROP_ROUTE_ERROR);
	} else if (!tag->delivered && !tag->counted) {
		wc_relay_lost(f, tag->ctx, tag,
			      reason ? reason : m->faulted ?
			      WORMCAST_CNT_FAULT_DROPS :
			      WORMCAST_CNT_DROP_ROUTE_ERROR);
	}
	wc_relay_put(tag->ctx);
	tag->ctx = NULL;
	return true;
}

/*
 * fault-info local, from the msg_done of @m (not a relay message), a worm
 * of the trees @s with fault_lost destinations: queue a message from the
 * router before the failed link to the destinations missed, on the other
 * tree (wc_tree_local_reinject() decides where, which tree and whom),
 * for the poll to submit at the end of this cycle; the near end's own
 * copy, if it was missed, is delivered at once.  Returns true if the lost
 * destinations were taken over: the engine no longer counts them in
 * fault_drops, the source counts one fault_reinjected.  False when the
 * scheme does not apply (several faults, a failed node) or memory is
 * short: nothing done, the caller counts fault_drops as before.
 */
bool wc_relay_reinject(struct wc_fabric *f, struct wc_msg *m,
		       const struct wc_tree_set *s)
{
	u32 at, tree, nd, words = wc_tree_hdr_words(m->ndsts);
	struct wc_relay_ctx *ctx = NULL;
	struct wc_relay_tag *tag;
	struct wc_msg *r = NULL;
	u32 *hdr = NULL;

	if (m->fault_at >= f->nnodes)
		return false;
	r = wc_relay_msg_alloc(f, m->fault_at, m->bytes, m->cookie);
	ctx = kmalloc(sizeof(*ctx), GFP_ATOMIC | __GFP_NOWARN);
	hdr = kmalloc_array(words, sizeof(u32), GFP_ATOMIC | __GFP_NOWARN);
	if (!r || !ctx || !hdr)
		goto not_taken;
	nd = wc_tree_local_reinject(s, &f->topo, m, &at, &tree, r->dstmap);
	if (!nd)
		goto not_taken;
	wc_engine_fault_reinjected(f->engine, m);
	wc_count_add(&f->nodes[m->src].napi_cnt, WORMCAST_CNT_FAULT_REINJECTED, 1);
	if (wc_msg_has_dst(f->engine, r, at)) {
		/* the near end consumed the worm: its own copy, once */
		r->dstmap[at / 32] &= ~BIT(at % 32);
		nd--;
		wc_fabric_deliver_copy(f, m, m->src, at);
	}
	if (!nd)
		goto done;
	r->ndsts = nd;
	r->hdr = hdr;
	r->hdr_max = words;
	r->hdr_preset = true;
	hdr[0] = tree;
	refcount_set(&ctx->ref, 1);
	ctx->origin = m->src;
	ctx->sched = NULL;
	ctx->n = 0;
	tag = wc_tag(f, r);
	tag->ctx = ctx;
	tag->reinject = true;
	tag->lo = 0;
	tag->hi = nd;
	skb_get(m->cookie);
	wc_relay_enqueue(f, r);
	wc_engine_yield(f->engine);
	return true;
not_taken:
	kfree(hdr);
	kfree(ctx);
	kfree(r);
	return false;
done:
	kfree(hdr);
	kfree(ctx);
	kfree(r);
	return true;
}

/*
 * Submit the queued sends (poll, after wc_engine_run(), engine lock), each
 * to enter at its due cycle.
 */
void wc_relay_submit(struct wc_fabric *f)
{
	struct wc_msg *m;

	while ((m = f->relayq)) {
		f->relayq = wc_tag(f, m)->next;
		wc_capture_attach(f, m);
		wc_engine_submit_at(f->engine, m, wc_tag(f, m)->due);
	}
	f->relayq_tail = NULL;
}

/* Teardown (engine lock): queued sends are lost, counted under @reason. */
void wc_relay_purge(struct wc_fabric *f, int reason)
{
	struct wc_msg *m;

	while ((m = f->relayq)) {
		struct wc_relay_tag *tag = wc_tag(f, m);

		f->relayq = tag->next;
		wc_relay_lost(f, tag->ctx, tag, reason);
		wc_relay_put(tag->ctx);
		kfree_skb(m->cookie);
		kfree(m->hdr);
		kfree(m);
	}
	f->relayq_tail = NULL;
}
