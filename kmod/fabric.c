// SPDX-License-Identifier: GPL-2.0
/*
 * The fabric: injection queues, the NAPI poll that drives the engine, and
 * delivery of frames to node devices.
 *
 * Path of a frame (Documentation/kernel.rst):
 *   ndo_start_xmit -> node->txq (bounded; the device queue stops when full)
 *   NAPI poll: txq -> destination set -> engine message -> wc_engine_run()
 *   deliver callback: a ticket per destination on fabric->rx_ring, a
 *   reference to one clone of the frame per message (multiphase: and the
 *   target's own sends, queued by relay.c and submitted when the run
 *   returns, in the same poll)
 *   after the run: the tickets handed to the delivery poll
 *   delivery poll (a NAPI of its own, threaded: may run on another CPU):
 *   a clone per ticket -> __dev_forward_skb() -> netif_receive_skb()
 *   msg_done callback: the original skb is freed, releasing the sender's
 *   socket memory (this is the end-to-end backpressure).
 */
#include <linux/etherdevice.h>
#include <linux/idr.h>
#include <linux/bitmap.h>
#include <linux/ktime.h>

#include "wormcast.h"
#include "relay.h"

static DEFINE_IDA(wc_fabric_ida);

/* ------------------------------------------------------------ counters */

static void wc_counters_init(struct wc_counters *cnt)
{
	u64_stats_init(&cnt->syncp);
}

static void wc_counters_sum(const struct wc_counters *cnt, u64 *sum)
{
	u64 v[WORMCAST_CNT_MAX + 1];
	unsigned int start;
	int i;

	do {
		start = u64_stats_fetch_begin(&cnt->syncp);
		for (i = 0; i <= WORMCAST_CNT_MAX; i++)
			v[i] = u64_stats_read(&cnt->c[i]);
	} while (u64_stats_fetch_retry(&cnt->syncp, start));
	for (i = 0; i <= WORMCAST_CNT_MAX; i++)
		sum[i] += v[i];
}

static void wc_groups_work(struct work_struct *work);

/* Where each xmit-side and delivery-side counter goes in the uapi's enum. */
static const u8 wc_tx_counter_ids[WC_TX_NCOUNTERS] = {
	[WC_TX_FRAMES] = WORMCAST_CNT_TX_FRAMES,
	[WC_TX_BYTES] = WORMCAST_CNT_TX_BYTES,
	[WC_TX_DROP_FABRIC_DOWN] = WORMCAST_CNT_DROP_FABRIC_DOWN,
	[WC_TX_DROP_BAD_FRAME] = WORMCAST_CNT_DROP_BAD_FRAME,
};

static const u8 wc_rx_counter_ids[WC_RX_NCOUNTERS] = {
	[WC_RX_FRAMES] = WORMCAST_CNT_RX_FRAMES,
	[WC_RX_BYTES] = WORMCAST_CNT_RX_BYTES,
	[WC_RX_DROP_DST_DOWN] = WORMCAST_CNT_DROP_DST_DOWN,
	[WC_RX_DROP_NOMEM] = WORMCAST_CNT_DROP_NOMEM,
	[WC_RX_DROP_RX_ERROR] = WORMCAST_CNT_DROP_RX_ERROR,
};

static void wc_side_counters_sum(const struct wc_side_counters *cnt,
				 const u8 *ids, int n, u64 *sum)
{
	u64 v[WC_SIDE_NCOUNTERS];
	unsigned int start;
	int i;

	BUILD_BUG_ON((int)WC_TX_NCOUNTERS > (int)WC_SIDE_NCOUNTERS);
	do {
		start = u64_stats_fetch_begin(&cnt->syncp);
		for (i = 0; i < n; i++)
			v[i] = u64_stats_read(&cnt->c[i]);
	} while (u64_stats_fetch_retry(&cnt->syncp, start));
	for (i = 0; i < n; i++)
		sum[ids[i]] += v[i];
}

/* Glue counters of @node (engine counters excluded) into @cnt. */
void wc_node_read_counters(const struct wc_node *node, u64 *cnt)
{
	memset(cnt, 0, sizeof(u64) * (WORMCAST_CNT_MAX + 1));
	wc_side_counters_sum(&node->tx_cnt, wc_tx_counter_ids,
			     WC_TX_NCOUNTERS, cnt);
	wc_side_counters_sum(&node->rx_cnt, wc_rx_counter_ids,
			     WC_RX_NCOUNTERS, cnt);
	wc_counters_sum(&node->napi_cnt, cnt);
	cnt[WORMCAST_CNT_RX_FILTER_FALLBACK] =
		atomic64_read(&node->rxf_fallbacks);
}

/* Sum of every node's glue counters plus the fabric device's drops. */
void wc_fabric_read_counters(struct wc_fabric *f, u64 *cnt)
{
	u64 one[WORMCAST_CNT_MAX + 1];
	u32 n;
	int i;

	memset(cnt, 0, sizeof(one));
	for (n = 0; n < f->nnodes; n++) {
		wc_node_read_counters(&f->nodes[n], one);
		for (i = 0; i <= WORMCAST_CNT_MAX; i++)
			cnt[i] += one[i];
	}
	cnt[WORMCAST_CNT_DROP_NOT_A_NODE] =
		atomic64_read(&f->fabric_dev_drops);
}

/*
 * Every counter of node @n, glue and engine (enum wormcast_counter): what
 * STATS_GET reports for the node and ethtool -S shows on its device.
 */
void wc_node_counters(struct wc_fabric *f, u32 n, u64 *cnt)
{
	struct wc_node_stats ns;

	wc_node_read_counters(&f->nodes[n], cnt);
	wc_fabric_node_stats(f, n, &ns);
	cnt[WORMCAST_CNT_WORMS_INJECTED] = ns.worms_injected;
	cnt[WORMCAST_CNT_FLITS_INJECTED] = ns.flits_injected;
	cnt[WORMCAST_CNT_WORMS_CONSUMED] = ns.worms_consumed;
	cnt[WORMCAST_CNT_FLITS_CONSUMED] = ns.flits_consumed;
}

/* The same, summed over the fabric (STATS_GET, ethtool -S on the fabric). */
void wc_fabric_counters(struct wc_fabric *f, u64 *cnt)
{
	struct wc_node_stats ns;
	u32 n;

	wc_fabric_read_counters(f, cnt);
	for (n = 0; n < f->nnodes; n++) {
		wc_fabric_node_stats(f, n, &ns);
		cnt[WORMCAST_CNT_WORMS_INJECTED] += ns.worms_injected;
		cnt[WORMCAST_CNT_FLITS_INJECTED] += ns.flits_injected;
		cnt[WORMCAST_CNT_WORMS_CONSUMED] += ns.worms_consumed;
		cnt[WORMCAST_CNT_FLITS_CONSUMED] += ns.flits_consumed;
	}
}

/* Counted from the engine's NAPI poll or the engine's callbacks. */
static void wc_count_napi(struct wc_fabric *f, u32 node, int which, u64 n)
{
	wc_count_add(&f->nodes[node].napi_cnt, which, n);
}

/* Counted from the delivery poll (WC_RX_*). */
static void wc_count_rx(struct wc_fabric *f, u32 node, int which, u64 n)
{
	wc_count_side(&f->nodes[node].rx_cnt, which, n);
}

/* ------------------------------------------------------------ timestamps */

/*
 * Fabric time of engine cycle @cycle, for hardware timestamps
 * (Documentation/kernel.rst, "Timestamps"): virtual nanoseconds in
 * virtual-time mode, CLOCK_REALTIME in paced mode.  Engine lock held,
 * during a run.
 */
static ktime_t wc_fabric_time(const struct wc_fabric *f, u64 cycle)
{
	if (!f->ts_cycle_ns)
		return ns_to_ktime(WC_VIRTUAL_EPOCH_NS +
				   cycle * WC_VIRTUAL_CYCLE_NS);
	return ktime_mono_to_real(ns_to_ktime(f->ts_mono_ns +
					      (cycle - f->ts_cycle) *
					      f->ts_cycle_ns));
}

/*
 * The first worm of @m took an injection channel: that is the TX hardware
 * timestamp of its frame, if the sender asked for one (wc_node_xmit() set
 * SKBTX_IN_PROGRESS; cleared here so that only the first worm stamps).
 */
static void wc_op_injected(void *priv, struct wc_msg *m, u32 node, u64 cycle)
{
	struct skb_shared_hwtstamps hwts = { };
	struct wc_fabric *f = priv;
	struct sk_buff *skb = m->cookie;

	if (likely(!(skb_shinfo(skb)->tx_flags & SKBTX_IN_PROGRESS)))
		return;
	skb_shinfo(skb)->tx_flags &= ~SKBTX_IN_PROGRESS;
	hwts.hwtstamp = wc_fabric_time(f, cycle);
	skb_tstamp_tx(skb, &hwts);
}

/*
 * A clone shares its skb_shared_info, where the hardware timestamp lives,
 * with the sender's skb (whose TX timestamp may be there) and with the
 * clones of the other destinations.  Before it is delivered with an RX
 * timestamp of its own (@ts), or without the sender's TX timestamp, it
 * gets a private head.  0, or -ENOMEM (@skb not freed).
 */
static int wc_rx_hwtstamp(struct sk_buff *skb, ktime_t ts)
{
	if (skb_cloned(skb) && pskb_expand_head(skb, 0, 0, GFP_ATOMIC))
		return -ENOMEM;
	skb_shinfo(skb)->tx_flags &= ~(SKBTX_ANY_TSTAMP | SKBTX_IN_PROGRESS);
	skb_hwtstamps(skb)->hwtstamp = ts;
	return 0;
}

/* ------------------------------------------------------------ engine ops */

static void wc_op_deliver(void *priv, struct wc_msg *m, u32 node, u64 lat)
{
	struct wc_fabric *f = priv;
	u32 origin = wc_relay_origin(f, m);

	if (unlikely(!wc_msg_has_dst(f->engine, m, node))) {
		/* bad tables sent a copy where nobody asked for it */
		wc_count_napi(f, origin, WORMCAST_CNT_DROP_STRAY, 1);
		net_warn_ratelimited("%s: a copy from node %u reached node %u, not a destination: not delivered (bad routing tables?)\n",
				     netdev_name(f->dev), m->src, node);
		return;
	}
	/* multiphase: the target sends on, whatever becomes of its copy */
	wc_relay_delivered(f, m);
	wc_fabric_deliver_copy(f, m, origin, node);
}

/*
 * A copy of @m's frame (a frame of node @origin) for @node, handed to the
 * delivery poll after the run (engine callbacks, engine lock).  The engine
 * only takes a reference: the delivery poll, which may run on another
 * CPU, makes the copy.  The copies come from a clone of the frame, made
 * here once per message, that only the delivery poll changes: the engine
 * still uses the frame (timestamps, capture, relays).
 */
void wc_fabric_deliver_copy(struct wc_fabric *f, struct wc_msg *m,
			    u32 origin, u32 node)
{
	struct wc_rx_ticket *t;
	/* pairs with wc_rx_poll(): the tickets it delivered are read */
	u32 tail = smp_load_acquire(&f->rx_tail);

	if (unlikely(f->rx_head - tail > f->rx_mask)) {
		/* cannot be: the ring holds what wc_rx_ring_size() allows */
		WARN_ONCE(1, "%s: delivery ring full\n", netdev_name(f->dev));
		wc_count_napi(f, node, WORMCAST_CNT_DROP_NOMEM, 1);
		return;
	}
	if (!m->copy_src) {
		m->copy_src = skb_clone(m->cookie, GFP_ATOMIC);
		if (!m->copy_src) {
			wc_count_napi(f, node, WORMCAST_CNT_DROP_NOMEM, 1);
			return;
		}
	}
	t = &f->rx_ring[f->rx_head++ & f->rx_mask];
	t->skb = skb_get(m->copy_src);
	t->src = origin;
	t->dst = node;
	/* the tail is consumed now: the RX hardware timestamp */
	t->hwtstamp = 0;
	if (unlikely(READ_ONCE(f->nodes[node].ts_rx)))
		t->hwtstamp = wc_fabric_time(f, wc_engine_now(f->engine));
	/* room for what this run hands over: end it at the cycle's end */
	if (f->rx_head - f->rx_run_start >= WC_RX_HANDOFF_MAX)
		wc_engine_yield(f->engine);
}

static void wc_op_msg_done(void *priv, struct wc_msg *m)
{
	struct wc_fabric *f = priv;
	struct sk_buff *skb = m->cookie;
	bool relay;

	if (unlikely(m->trace))
		wc_capture_done(f, m, skb, f->flush_reason);
	/* multiphase: a lost target loses its range, counted per member */
	relay = wc_relay_done(f, m, f->flush_reason);
	/*
	 * a flushed message counts once, under the flush's reason; under
	 * fault-info local the router before the fault re-injects
	 */
	if (unlikely(m->fault_lost) && !f->flush_reason && !relay &&
	    !(f->run_local &&
	      wc_relay_reinject(f, m, &f->run_table->u.trees)))
		wc_count_napi(f, m->src, WORMCAST_CNT_FAULT_DROPS, m->fault_lost);
	if (unlikely(f->flush_reason)) {
		/* aborted by wc_engine_flush(): destinations not reached */
		if (!relay)
			wc_count_napi(f, m->src, f->flush_reason, 1);
		kfree_skb(skb);
	} else {
		consume_skb(skb);
	}
	/* the tickets hold their own references */
	consume_skb(m->copy_src);
	kfree(m->hdr);
	kfree(m);
}

static void wc_op_route_error(void *priv, struct wc_msg *m, u32 node, int err)
{
	struct wc_fabric *f = priv;

	if (!wc_relay_route_error(f, m))
		wc_count_napi(f, m->src, WORMCAST_CNT_DROP_ROUTE_ERROR, 1);
	net_warn_ratelimited("%s: routing error %d at node %u (source %u)\n",
			     netdev_name(f->dev), err, node, m->src);
}

#define WC_DUMP_LEN	1024

static void wc_op_deadlock(void *priv, u64 cycle)
{
	struct wc_fabric *f = priv;
	char *buf;

	f->deadlocked = true;	/* the poll flushes after the run */
	if (!net_ratelimit())
		return;
	buf = kmalloc(WC_DUMP_LEN, GFP_ATOMIC);
	if (buf)
		wc_engine_dump_waits(f->engine, buf, WC_DUMP_LEN);
	pr_warn("wormcast: %s: deadlock watchdog fired at cycle %llu, flushing the fabric\n%s\n",
		netdev_name(f->dev), cycle, buf ? buf : "(no memory for dump)");
	kfree(buf);
}

static const struct wc_engine_ops wc_fabric_engine_ops = {
	.deliver = wc_op_deliver,
	.msg_done = wc_op_msg_done,
	.route_error = wc_op_route_error,
	.deadlock = wc_op_deadlock,
	.injected = wc_op_injected,
};

/* ------------------------------------------------------------ injection */

static bool wc_node_up(const struct wc_node *node)
{
	struct net_device *dev = READ_ONCE(node->dev);

	return dev && netif_running(dev);
}

/*
 * Fill @m with the destinations of a frame to @mac sent by @src.  Returns
 * 0, or the counter under which the frame is dropped (or filtered).
 */
static int wc_fill_dsts(struct wc_fabric *f, struct wc_msg *m, u32 src,
			const u8 *mac)
{
	enum wc_dst_kind kind;
	unsigned long *dsts;
	unsigned long n;
	u32 target = 0;

	kind = wc_dst_classify(mac, f->id, f->nnodes, src, &target);
	switch (kind) {
	case WC_DST_UNKNOWN:
		return WORMCAST_CNT_DROP_UNKNOWN_DST;
	case WC_DST_SELF:
		return WORMCAST_CNT_DROP_SELF;
	case WC_DST_NODE:
		if (!wc_node_up(&f->nodes[target]))
			return WORMCAST_CNT_DROP_DST_DOWN;
		wc_msg_add_dst(f->engine, m, target);
		return 0;
	case WC_DST_BROADCAST:
	case WC_DST_MULTICAST:
		/* from the membership index, word by word: no node scan */
		dsts = f->mc->scratch;
		wc_mcindex_dsts(f->mc, mac, kind == WC_DST_BROADCAST, src, dsts);
		for_each_set_bit(n, dsts, f->nnodes)
			wc_msg_add_dst(f->engine, m, n);
		return m->ndsts ? 0 : WORMCAST_CNT_TX_NO_RECEIVER;
	}
	return WORMCAST_CNT_DROP_UNKNOWN_DST;
}

/*
 * Does the fabric's run table take plans?  ocms/otms, and ftmesh with a
 * table of strategy 3 (Strategy 3 is planned per source and group).
 */
static bool wc_plans_wanted(const struct wc_fabric *f)
{
	if (f->run_scheme == WORMCAST_MCAST_FTMESH)
		return f->run_table->u.ftm.tab.strategy == 3;
	return wc_plan_scheme(f->run_scheme);
}

/*
 * ocms/otms, ftmesh Strategy 3, a multicast frame: lay out in m->hdr the
 * plan the daemon installed for (@src, group @mac), if it was checked
 * against the table the engine runs on (labels, or ftmesh) and its
 * destinations are the frame's (ftmesh: those the source reaches); else
 * the frame goes by dual-path (ftmesh: split by Strategy 2), counted.
 * In the poll, under rcu_read_lock(); the plan is copied, so a plans
 * table replaced meanwhile changes nothing for this message.
 */
static void wc_use_plan(struct wc_fabric *f, u32 src, struct wc_msg *m,
			const u8 *mac)
{
	struct wc_table *t = wc_tables_peek_rcu(&f->tables,
						WORMCAST_TABLE_PLANS);
	const struct wc_plan *p = NULL;

	if (t && m->hdr && t->u.plans.base_gen == f->run_table->gen)
		p = wc_plan_find(&t->u.plans, src, mac);
	/* an ftmesh plan's base is the ftmesh run table (same generation) */
	if (p && wc_plan_use(&t->u.plans, p,
			     f->run_scheme == WORMCAST_MCAST_FTMESH ?
			     &f->run_table->u.ftm.tab : NULL, m))
		return;
	wc_count_napi(f, src, WORMCAST_CNT_PLAN_FALLBACK, 1);
	/* tell the daemon once, so that it plans the pair (lazy planning) */
	if (wc_mcindex_note_unplanned(f->mc, mac, src))
		wc_fabric_groups_poke(f);
}

/*
 * dcf/edn: a broadcast to every other node is relayed along the committed
 * schedule (wc_bcast_scheme() and a run table imply it is the bcast
 * table); other frames, and a broadcast some node does not take (its
 * device down), go as unicast worms on the p/l/h channels.
 */
static bool wc_bcast_relayed(struct wc_fabric *f, const u8 *mac,
			     const struct wc_msg *m)
{
	return wc_bcast_scheme(f->run_scheme) && f->run_table &&
	       is_broadcast_ether_addr(mac) && m->ndsts == f->nnodes - 1;
}

/*
 * Hand @skb, just taken from @node's queue, to the engine, or drop it
 * under a named counter.
 */
static void wc_submit(struct wc_fabric *f, struct wc_node *node,
		      struct sk_buff *skb)
{
	u8 buf[ETH_ALEN];
	const u8 *mac;
	struct wc_msg *m;
	u32 words;
	int why;

	mac = skb_header_pointer(skb, 0, ETH_ALEN, buf);
	if (!mac) {
		wc_count_napi(f, node->id, WORMCAST_CNT_DROP_BAD_FRAME, 1);
		kfree_skb(skb);
		return;
	}
	m = wc_relay_msg_alloc(f, node->id, skb->len, skb);
	if (!m) {
		/* counted, never retried: a retry could spin the poll */
		wc_count_napi(f, node->id, WORMCAST_CNT_DROP_NOMEM, 1);
		kfree_skb(skb);
		return;
	}
	why = wc_fill_dsts(f, m, node->id, mac);
	if (why) {
		wc_count_napi(f, node->id, why, 1);
		kfree(m);
		if (why == WORMCAST_CNT_TX_NO_RECEIVER)
			consume_skb(skb);
		else
			kfree_skb(skb);
		return;
	}
	if ((f->run_scheme == WORMCAST_MCAST_MULTIPHASE && m->ndsts > 1) ||
	    wc_bcast_relayed(f, mac, m)) {
		/* the source's own sends; receivers send on (relay.c) */
		if (wc_relay_start(f, m, wc_bcast_scheme(f->run_scheme) ?
				   f->run_table : NULL)) {
			wc_count_napi(f, node->id, WORMCAST_CNT_DROP_NOMEM,
				      m->ndsts);
			kfree(m);
			kfree_skb(skb);
			return;
		}
		wc_relay_submit(f);
		return;
	}
	words = wc_algo_hdr_words(f->run_algo, m->ndsts);
	if (words) {
		/* the algorithm's header does not fit in a worm */
		m->hdr = kmalloc_array(words, sizeof(u32),
				       GFP_ATOMIC | __GFP_NOWARN);
		if (!m->hdr) {
			wc_count_napi(f, node->id, WORMCAST_CNT_DROP_NOMEM, 1);
			kfree(m);
			kfree_skb(skb);
			return;
		}
		m->hdr_max = words;
	}
	if (!f->run_table && !wc_mcast_builtin(f->run_scheme))
		wc_count_napi(f, node->id, WORMCAST_CNT_TABLE_FALLBACK, 1);
	else if (f->run_table && wc_plans_wanted(f) &&
		 is_multicast_ether_addr(mac) && !is_broadcast_ether_addr(mac))
		wc_use_plan(f, node->id, m, mac);
	wc_capture_attach(f, m);
	/* the processor's send overhead, as a relay's (relay.c) */
	wc_engine_submit_at(f->engine, m,
			    wc_send_due(&node->cpu_free,
					wc_engine_now(f->engine),
					READ_ONCE(f->send_ovh)));
}

/*
 * What the engine should run on now: under a table scheme, the table of
 * its kind committed for that same scheme, if there is one; otherwise
 * (UNICAST, or no such table yet) the built-in unicast-based algorithm.
 * Engine lock and rcu_read_lock() held.
 */
static struct wc_table *wc_wanted_table(struct wc_fabric *f, u32 scheme)
{
	u32 kind = wc_mcast_table_kind(scheme);
	struct wc_table *t;

	if (!kind)
		return NULL;
	t = wc_tables_peek_rcu(&f->tables, kind);
	if (!t || t->ops->scheme(t) != scheme || t->gen == f->refused_gen)
		return NULL;
	return t;
}

/*
 * Switch the engine to the wanted (algorithm, table) if it differs from
 * the running one.  The engine runs one at a time: a message is routed
 * by the table (generation) it was submitted under, never a mix.  So on
 * a change, no new frame is submitted (returns false) and the engine runs
 * on the old table, which stays pinned, until it is idle; then it
 * switches, unpins the old table (freed after a grace period once nothing
 * else holds it) and submitting resumes.  Engine lock and
 * rcu_read_lock() held; nothing here sleeps.
 */
static bool wc_pick_routing(struct wc_fabric *f)
{
	u32 scheme = READ_ONCE(f->mcast);
	const struct wc_algo *algo;
	struct wc_table *t, *old;
	const char *why = NULL;
	bool local;

	t = wc_wanted_table(f, scheme);
	/* fault-info local: trees whose sources ignore the faulty links */
	local = t && t->ops->algo == &wc_algo_tree &&
		READ_ONCE(f->fault_info) == WORMCAST_FAULT_INFO_LOCAL;
	if (t == f->run_table && local == f->run_local) {
		f->run_scheme = scheme;
		f->switching = false;
		return true;
	}
	if (wc_engine_busy(f->engine)) {
		f->switching = true;	/* drain first */
		return false;
	}
	if (t && !wc_table_tryget(t))
		t = NULL;		/* being replaced: the next poll sees it */
	algo = local ? &wc_algo_tree_local :
	       t ? t->ops->algo : &wc_algo_unicast_based;
	if (wc_engine_set_algo(f->engine, algo, &why)) {
		/* the engine refuses this table's algorithm: not retried */
		net_warn_ratelimited("%s: tables of generation %u not used: %s\n",
				     netdev_name(f->dev), t ? t->gen : 0,
				     why ? why : "refused by the engine");
		if (t) {
			f->refused_gen = t->gen;
			wc_table_put(t);
			t = NULL;
		}
		local = false;
		algo = &wc_algo_unicast_based;
		/* idle, and its check passed when the fabric was created */
		wc_engine_set_algo(f->engine, algo, &why);
	}
	old = f->run_table;
	f->run_table = t;
	f->run_algo = algo;
	f->run_local = local;
	f->run_scheme = scheme;
	f->switching = false;
	wc_table_put(old);
	return true;
}

/* Move frames from the nodes' queues into the engine.  Engine lock held. */
static void wc_inject(struct wc_fabric *f)
{
	unsigned long n;

	for_each_set_bit(n, f->pending, f->nnodes) {
		struct wc_node *node = &f->nodes[n];
		struct net_device *dev = READ_ONCE(node->dev);
		struct sk_buff *skb = NULL;

		clear_bit(n, f->pending);
		/* pairs with the set_bit() after enqueueing in xmit */
		smp_mb__after_atomic();
		while (wc_engine_backlog(f->engine, n) < WC_ENGINE_BACKLOG) {
			spin_lock(&node->txq.lock);
			skb = __skb_dequeue(&node->txq);
			if (dev && netif_queue_stopped(dev) &&
			    skb_queue_len(&node->txq) <= f->queue_len / 2)
				netif_wake_queue(dev);
			spin_unlock(&node->txq.lock);
			if (!skb)
				break;
			wc_submit(f, node, skb);
		}
		if (!skb_queue_empty_lockless(&node->txq))
			set_bit(n, f->pending);
	}
}

/* ------------------------------------------------------------ delivery */

/*
 * Tickets the ring must hold (its size, a power of 2): the delivery poll
 * delivers at most a budget (NAPI_POLL_WEIGHT) at a time, the engine runs
 * while fewer than WC_RX_HANDOFF_MAX more wait, and a run that hands over
 * as many ends with its cycle (wc_fabric_deliver_copy()), in which every
 * consumption channel may complete a worm and every finished message
 * re-inject (relay.c) once.
 */
static u32 wc_rx_ring_size(const struct wc_fabric *f)
{
	return roundup_pow_of_two(NAPI_POLL_WEIGHT + 2 * WC_RX_HANDOFF_MAX +
				  f->nnodes * (f->params.cons_channels +
					       f->params.inj_channels));
}

/* Deliver the copy of @t to its node device (the delivery poll). */
static void wc_deliver(struct wc_fabric *f, struct wc_rx_ticket *t)
{
	struct wc_node *node = &f->nodes[t->dst];
	struct net_device *dev = READ_ONCE(node->dev);
	struct sk_buff *skb = t->skb;
	unsigned int len;

	if (!dev || !netif_running(dev)) {
		/* went down while the worm was in flight */
		wc_count_rx(f, t->src, WC_RX_DROP_DST_DOWN, 1);
		kfree_skb(skb);
		return;
	}
	/* a copy, unless this is the last reference (the message done) */
	if (skb_shared(skb)) {
		skb = skb_clone(t->skb, GFP_ATOMIC);
		consume_skb(t->skb);
		if (!skb) {
			wc_count_rx(f, t->dst, WC_RX_DROP_NOMEM, 1);
			return;
		}
	}
	if (unlikely(t->hwtstamp ||
		     skb_shinfo(skb)->tx_flags & SKBTX_HW_TSTAMP) &&
	    wc_rx_hwtstamp(skb, t->hwtstamp)) {
		wc_count_rx(f, t->dst, WC_RX_DROP_NOMEM, 1);
		kfree_skb(skb);
		return;
	}
	len = skb->len;
	/* Frees the skb on failure (and counts it in the core's rx_dropped
	 * of @dev); scrubs it when crossing netns.
	 */
	if (__dev_forward_skb(dev, skb) != NET_RX_SUCCESS) {
		wc_count_rx(f, t->dst, WC_RX_DROP_RX_ERROR, 1);
		return;
	}
	wc_count_rx(f, t->dst, WC_RX_FRAMES, 1);
	wc_count_rx(f, t->dst, WC_RX_BYTES, len);
	netif_receive_skb(skb);
}

/*
 * The delivery poll: at most @budget of the copies the engine's poll
 * handed over, each delivered or counted as dropped.  It wakes the
 * engine's poll when that one waits for room (wc_rx_room_locked()).
 */
static int wc_rx_poll(struct napi_struct *napi, int budget)
{
	struct wc_fabric *f = container_of(napi, struct wc_fabric, rx_napi);
	bool wake = false;
	u32 tail, i;
	int done;

	spin_lock(&f->rx_lock);
	tail = f->rx_taken;
	done = min_t(u32, budget, f->rx_handed - tail);
	f->rx_taken = tail + done;
	if (f->rx_full &&
	    f->rx_handed - f->rx_taken <= WC_RX_HANDOFF_MAX / 2) {
		f->rx_full = false;
		wake = true;
	}
	spin_unlock(&f->rx_lock);
	/* the engine runs while these are delivered */
	if (wake)
		napi_schedule(&f->napi);
	/* The engine's poll writes no entry from rx_tail on. */
	for (i = 0; i < done; i++)
		wc_deliver(f, &f->rx_ring[(tail + i) & f->rx_mask]);
	/* pairs with the engine's acquire in wc_fabric_deliver_copy() */
	smp_store_release(&f->rx_tail, tail + done);
	if (done >= budget)
		return budget;	/* stay scheduled: more may wait */
	napi_complete_done(napi, done);
	return done;
}

/*
 * May the engine run?  Not while WC_RX_HANDOFF_MAX copies wait for
 * delivery: they would pile up without bound when the stack receives
 * slower than the engine produces.  The delivery poll wakes the engine's
 * poll once it has taken half of them.  rx_lock held.
 */
static bool wc_rx_room_locked(struct wc_fabric *f)
{
	if (f->rx_handed - f->rx_taken < WC_RX_HANDOFF_MAX)
		return true;
	f->rx_full = true;
	return false;
}

static bool wc_rx_room(struct wc_fabric *f)
{
	bool room;

	spin_lock(&f->rx_lock);
	room = wc_rx_room_locked(f);
	spin_unlock(&f->rx_lock);
	return room;
}

/*
 * Hand the copies of the engine's last run to the delivery poll, and tell
 * whether the engine may run again (*@room), under the one lock.  Returns
 * how many copies.
 */
static int wc_handoff(struct wc_fabric *f, bool *room)
{
	int n;

	spin_lock(&f->rx_lock);
	n = f->rx_head - f->rx_handed;
	f->rx_handed = f->rx_head;
	*room = wc_rx_room_locked(f);
	spin_unlock(&f->rx_lock);
	if (n)
		napi_schedule(&f->rx_napi);
	return n;
}

/* ------------------------------------------------------------ NAPI */

/*
 * Cycles the engine may run now.  Virtual time: a fixed slice.  Paced
 * mode: as many cycles as wall time allows since the last one; an engine
 * that was idle starts its clock now.  *@wait_ns: when to come back if
 * no cycle is due yet.
 */
static u64 wc_pace_cycles(struct wc_fabric *f, bool was_idle, u64 *wait_ns)
{
	u32 ns = READ_ONCE(f->cycle_ns);
	u64 now, cycles;

	*wait_ns = 0;
	f->ts_cycle_ns = ns;
	if (!wc_engine_busy(f->engine))
		return 0;
	if (!ns)
		return WC_POLL_CYCLES;
	now = ktime_get_ns();
	if (was_idle) {
		f->pace_last_ns = now;
		*wait_ns = ns;
		return 0;
	}
	cycles = div_u64(now - f->pace_last_ns, ns);
	if (cycles > WC_POLL_CYCLES) {
		/* too far behind: forget the debt */
		f->pace_last_ns = now;
		return WC_POLL_CYCLES;
	}
	f->pace_last_ns += cycles * ns;
	if (!cycles)
		*wait_ns = f->pace_last_ns + ns - now;
	return cycles;
}

static enum hrtimer_restart wc_pace_timer_fn(struct hrtimer *t)
{
	struct wc_fabric *f = container_of(t, struct wc_fabric, pace_timer);

	napi_schedule(&f->napi);
	return HRTIMER_NORESTART;
}

static int wc_poll(struct napi_struct *napi, int budget)
{
	struct wc_fabric *f = container_of(napi, struct wc_fabric, napi);
	u64 wait_ns = 0;
	bool more = false, full = false, room = wc_rx_room(f);
	int done = 0, runs;

	/*
	 * Every copy handed to the delivery poll counts against the budget;
	 * a run may hand over more (a broadcast on 1024 nodes: 1023), which
	 * the delivery poll then delivers a budget at a time.
	 */
	for (runs = 0; runs < WC_POLL_RUNS && done < budget; runs++) {
		bool was_idle;
		u64 cycles, ran = 0;

		if (!room) {
			full = true;
			break;
		}
		f->rx_run_start = f->rx_head;
		spin_lock(&f->engine_lock);
		rcu_read_lock();
		was_idle = !wc_engine_busy(f->engine);
		if (wc_pick_routing(f))
			wc_inject(f);
		cycles = wc_pace_cycles(f, was_idle, &wait_ns);
		/* wall time of the first cycle of the run (timestamps) */
		f->ts_cycle = wc_engine_now(f->engine);
		f->ts_mono_ns = f->pace_last_ns - cycles * f->ts_cycle_ns;
		if (cycles)
			ran = wc_engine_run(f->engine, cycles,
					    f->run_table ? &f->run_table->u :
					    NULL);
		/* paced: cycles a yield left for the next run are still due */
		if (ran < cycles && f->ts_cycle_ns)
			f->pace_last_ns -= (cycles - ran) * f->ts_cycle_ns;
		if (unlikely(f->deadlocked)) {
			/* recover: the worms of a deadlock never finish */
			f->flush_reason = WORMCAST_CNT_DROP_DEADLOCK;
			wc_engine_flush(f->engine);
			f->flush_reason = 0;
			f->deadlocked = false;
		}
		/* multiphase: receivers of this run send on, in this poll */
		wc_relay_submit(f);
		more = wc_engine_busy(f->engine);
		rcu_read_unlock();
		spin_unlock(&f->engine_lock);

		wc_capture_flush(f);
		done += wc_handoff(f, &room);
		more = more || !bitmap_empty(f->pending, f->nnodes);
		if (!more || wait_ns)
			break;
	}

	if (full) {
		/* the delivery poll schedules this one again */
		done = min(done, budget - 1);
	} else {
		if (done >= budget)
			return budget;	/* stay scheduled: more to run */
		if (more && !wait_ns)
			return budget;	/* slice used up: yield, come back */
	}
	/* Armed while still scheduled, so that napi_disable() + cancel in
	 * wc_fabric_stop() cannot miss it.
	 */
	if (wait_ns)
		hrtimer_start(&f->pace_timer, ns_to_ktime(wait_ns),
			      HRTIMER_MODE_REL);
	napi_complete_done(napi, done);
	return done;
}

/* ------------------------------------------------------------ xmit */

netdev_tx_t wc_fabric_xmit(struct wc_node *node, struct sk_buff *skb)
{
	struct wc_fabric *f = node->fabric;
	int drop = -1;

	spin_lock(&node->txq.lock);
	if (unlikely(READ_ONCE(f->dying))) {
		drop = WC_TX_DROP_FABRIC_DOWN;
	} else if (unlikely(skb->len < ETH_HLEN)) {
		drop = WC_TX_DROP_BAD_FRAME;
	} else {
		wc_count_side(&node->tx_cnt, WC_TX_FRAMES, 1);
		wc_count_side(&node->tx_cnt, WC_TX_BYTES, skb->len);
		__skb_queue_tail(&node->txq, skb);
		/* backpressure: the qdisc holds further frames */
		if (skb_queue_len(&node->txq) >= f->queue_len)
			netif_stop_queue(node->dev);
	}
	if (drop >= 0)
		wc_count_side(&node->tx_cnt, drop, 1);
	spin_unlock(&node->txq.lock);

	if (drop >= 0) {
		kfree_skb(skb);
		return NETDEV_TX_OK;
	}
	set_bit(node->id, f->pending);
	napi_schedule(&f->napi);
	return NETDEV_TX_OK;
}

/* Drop every queued frame of @node (teardown). */
void wc_node_purge(struct wc_node *node)
{
	struct sk_buff_head q;
	u32 n;

	__skb_queue_head_init(&q);
	spin_lock_bh(&node->txq.lock);
	skb_queue_splice_init(&node->txq, &q);
	n = skb_queue_len(&q);
	if (n)
		wc_count_side(&node->tx_cnt, WC_TX_DROP_FABRIC_DOWN, n);
	spin_unlock_bh(&node->txq.lock);
	__skb_queue_purge(&q);
}

/* ------------------------------------------------------------ lifecycle */

struct wc_fabric *wc_fabric_alloc(const struct wc_topo *topo,
				  const struct wc_engine_params *params,
				  u32 queue_len, u32 cycle_ns,
				  const char **why)
{
	struct wc_fabric *f;
	int id;
	u32 n;

	/*
	 * vmalloc: kmalloc would round 1024 nodes up to a power of two.
	 * Charged to the creator's memory cgroup, as the engine is.
	 */
	f = __vmalloc(struct_size(f, nodes, topo->nnodes),
		      GFP_KERNEL_ACCOUNT | __GFP_ZERO);
	if (!f)
		goto nomem;
	f->owner = INVALID_UID;
	f->pending = bitmap_zalloc(topo->nnodes, GFP_KERNEL_ACCOUNT);
	if (!f->pending)
		goto nomem_free;
	id = ida_alloc_range(&wc_fabric_ida, WC_FABRIC_ID_MIN,
			     WC_FABRIC_ID_MAX, GFP_KERNEL);
	if (id < 0) {
		*why = "too many fabrics";
		bitmap_free(f->pending);
		kvfree(f);
		return ERR_PTR(id);
	}
	f->id = id;
	f->topo = *topo;
	f->params = *params;
	f->queue_len = queue_len;
	f->cycle_ns = cycle_ns;
	f->nnodes = topo->nnodes;
	kref_init(&f->ref);
	INIT_LIST_HEAD(&f->list);
	spin_lock_init(&f->engine_lock);
	spin_lock_init(&f->rx_lock);
	atomic64_set(&f->fabric_dev_drops, 0);
	__skb_queue_head_init(&f->capq);
	atomic64_set(&f->cap_records, 0);
	atomic64_set(&f->cap_bytes, 0);
	atomic64_set(&f->cap_drops, 0);
	hrtimer_init(&f->pace_timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
	f->pace_timer.function = wc_pace_timer_fn;
	for (n = 0; n < f->nnodes; n++) {
		struct wc_node *node = &f->nodes[n];

		node->fabric = f;
		node->id = n;
		skb_queue_head_init(&node->txq);
		u64_stats_init(&node->tx_cnt.syncp);
		u64_stats_init(&node->rx_cnt.syncp);
		wc_counters_init(&node->napi_cnt);
		atomic64_set(&node->rxf_fallbacks, 0);
	}
	spin_lock_init(&f->groups_lock);
	INIT_DELAYED_WORK(&f->groups_work, wc_groups_work);
	f->mcast = WORMCAST_MCAST_UNICAST;
	wc_tables_init(&f->tables, &f->topo, &f->params, wc_table_ops);
	f->run_algo = &wc_algo_unicast_based;
	f->mc = wc_mcindex_alloc(f->nnodes, GFP_KERNEL_ACCOUNT);
	f->rx_mask = wc_rx_ring_size(f) - 1;
	f->rx_ring = kvcalloc(f->rx_mask + 1, sizeof(*f->rx_ring),
			      GFP_KERNEL_ACCOUNT);
	if (f->mc && f->rx_ring)
		f->engine = wc_engine_create(&f->topo, &f->params,
					     &wc_algo_unicast_based,
					     &wc_fabric_engine_ops, f);
	if (!f->engine) {
		wc_fabric_put(f);
		goto nomem;
	}
	/* every message carries a relay tag after it (relay.c) */
	f->msg_size = ALIGN(wc_msg_size(f->engine), sizeof(void *));
	return f;

nomem_free:
	kvfree(f);
nomem:
	*why = "out of memory for the fabric";
	return ERR_PTR(-ENOMEM);
}

static void wc_fabric_release(struct kref *ref)
{
	struct wc_fabric *f = container_of(ref, struct wc_fabric, ref);
	u32 n;

	/* No device left: no xmit, no NAPI, no RCU reader of ours. */
	for (n = 0; n < f->nnodes; n++)
		wc_node_purge(&f->nodes[n]);
	wc_capture_purge(f);
	wc_mcindex_free(f->mc);
	kvfree(f->rx_ring);
	wc_engine_destroy(f->engine);
	wc_table_put(f->run_table);	/* if wc_fabric_stop() never ran */
	wc_tables_destroy(&f->tables);
	ida_free(&wc_fabric_ida, f->id);
	bitmap_free(f->pending);
	kvfree(f);
}

void wc_fabric_get(struct wc_fabric *f)
{
	kref_get(&f->ref);
}

void wc_fabric_put(struct wc_fabric *f)
{
	kref_put(&f->ref, wc_fabric_release);
}

/*
 * Attach and enable the NAPI contexts; the fabric device is registered.
 * Threaded by default (Documentation/kernel.rst, "NAPI"): the engine and
 * the deliveries each in a kthread of their own, which the scheduler may
 * put on two CPUs; "threaded" in the fabric device's sysfs turns it off.
 */
void wc_fabric_start(struct wc_fabric *f)
{
	int err;

	netif_napi_add(f->dev, &f->napi, wc_poll);
	netif_napi_add(f->dev, &f->rx_napi, wc_rx_poll);
	napi_enable(&f->napi);
	napi_enable(&f->rx_napi);
	f->napi_on = true;
	err = dev_set_threaded(f->dev, true);
	if (err)
		netdev_warn(f->dev, "NAPI not threaded (%d): the engine and its deliveries share a CPU\n",
			    err);
}

/* Count every copy not delivered yet as dropped (teardown). */
static void wc_purge_copies(struct wc_fabric *f)
{
	for (; f->rx_tail != f->rx_head; f->rx_tail++) {
		struct wc_rx_ticket *t = &f->rx_ring[f->rx_tail & f->rx_mask];

		wc_count_napi(f, t->src, WORMCAST_CNT_DROP_FABRIC_DOWN, 1);
		kfree_skb(t->skb);
	}
	f->rx_handed = f->rx_head;
	f->rx_taken = f->rx_head;
}

/*
 * Stop the datapath (RTNL held, f->dying already set): after this no poll
 * runs, the engine is empty and every frame it held is counted.  Frames
 * that node devices still enqueue before they are closed are purged by
 * their ndo_uninit.
 */
void wc_fabric_stop(struct wc_fabric *f)
{
	unsigned long flags;
	u32 n;

	spin_lock_irqsave(&f->groups_lock, flags);
	f->groups_off = true;
	spin_unlock_irqrestore(&f->groups_lock, flags);
	/* the work only trylocks RTNL: no deadlock with our caller's */
	cancel_delayed_work_sync(&f->groups_work);

	if (f->napi_on) {
		napi_disable(&f->napi);
		napi_disable(&f->rx_napi);
		hrtimer_cancel(&f->pace_timer);
		netif_napi_del(&f->napi);
		netif_napi_del(&f->rx_napi);
		f->napi_on = false;
	}
	spin_lock_bh(&f->engine_lock);
	f->flush_reason = WORMCAST_CNT_DROP_FABRIC_DOWN;
	wc_engine_flush(f->engine);
	wc_relay_purge(f, WORMCAST_CNT_DROP_FABRIC_DOWN);
	f->flush_reason = 0;
	/* the engine is empty: the table it ran on may go */
	wc_table_put(f->run_table);
	f->run_table = NULL;
	spin_unlock_bh(&f->engine_lock);
	wc_capture_purge(f);
	/* copies not delivered yet: no poll runs */
	wc_purge_copies(f);
	for (n = 0; n < f->nnodes; n++)
		wc_node_purge(&f->nodes[n]);
}

/* ------------------------------------------------------------ membership */

/*
 * Send the GROUPS_GET event if the membership generation moved since the
 * last one.  RTNL is only tried (wc_fabric_stop() cancels this work
 * synchronously with RTNL held): when busy, try again a jiffy later.
 */
static void wc_groups_work(struct work_struct *work)
{
	struct wc_fabric *f = container_of(to_delayed_work(work),
					   struct wc_fabric, groups_work);
	u32 gen;

	if (!rtnl_trylock()) {
		queue_delayed_work(system_wq, &f->groups_work, 1);
		return;
	}
	gen = READ_ONCE(f->mc->gen);
	if (!READ_ONCE(f->dying) && gen != f->groups_sent) {
		WRITE_ONCE(f->groups_sent, gen);
		wc_genl_notify_groups(f, gen);
	}
	rtnl_unlock();
}

/*
 * A node's membership may have changed (any context, also with BH off
 * and the device's address list locked): if the index's generation moved
 * since the last event, arm the event WC_GROUPS_NOTIFY_MS from now unless
 * it is armed already, so that a burst of changes makes one event.
 */
void wc_fabric_groups_poke(struct wc_fabric *f)
{
	unsigned long flags;

	if (READ_ONCE(f->mc->gen) == READ_ONCE(f->groups_sent))
		return;
	spin_lock_irqsave(&f->groups_lock, flags);
	if (!f->groups_off)
		queue_delayed_work(system_wq, &f->groups_work,
				   msecs_to_jiffies(WC_GROUPS_NOTIFY_MS));
	spin_unlock_irqrestore(&f->groups_lock, flags);
}

/* ------------------------------------------------------------ runtime */

void wc_fabric_set_cycle_ns(struct wc_fabric *f, u32 cycle_ns)
{
	WRITE_ONCE(f->cycle_ns, cycle_ns);
	if (f->napi_on)
		napi_schedule(&f->napi);
}

int wc_fabric_set_watchdog(struct wc_fabric *f, u32 watchdog,
			   const char **why)
{
	int err;

	spin_lock_bh(&f->engine_lock);
	err = wc_engine_set_watchdog(f->engine, watchdog, why);
	if (!err)
		f->params.watchdog = watchdog;
	spin_unlock_bh(&f->engine_lock);
	return err;
}

void wc_fabric_engine_stats(struct wc_fabric *f, struct wc_engine_stats *s)
{
	spin_lock_bh(&f->engine_lock);
	wc_engine_get_stats(f->engine, s);
	spin_unlock_bh(&f->engine_lock);
}

/* Memory of the engine and the glue's state (net devices excluded). */
size_t wc_fabric_mem(const struct wc_fabric *f)
{
	return struct_size(f, nodes, f->nnodes) +
	       BITS_TO_LONGS(f->nnodes) * sizeof(long) +
	       (f->rx_mask + 1) * sizeof(*f->rx_ring) +
	       wc_mcindex_mem(f->mc) + wc_engine_mem(f->engine) +
	       wc_tables_mem(&f->tables);
}

void wc_fabric_link_stats(struct wc_fabric *f, u32 node, u32 port,
			  u64 *busy, u64 *blocked)
{
	spin_lock_bh(&f->engine_lock);
	*busy = wc_engine_channel_busy(f->engine, node, port);
	*blocked = wc_engine_channel_blocked(f->engine, node, port);
	spin_unlock_bh(&f->engine_lock);
}

void wc_fabric_node_stats(struct wc_fabric *f, u32 node,
			  struct wc_node_stats *s)
{
	spin_lock_bh(&f->engine_lock);
	wc_engine_node_stats(f->engine, node, s);
	spin_unlock_bh(&f->engine_lock);
}

/* ------------------------------------------------------------ faults */

/*
 * Set (@down) or clear a live fault of @f (RTNL held, so the node devices
 * stay): a link @a-@b or a node @a.  The engine takes it at once, under
 * its lock (Documentation/faults.rst, "Live faults"); a failed node's
 * device reports carrier off until it is repaired.  0, or an errno with an
 * extack message.
 */
int wc_fabric_fault(struct wc_fabric *f, bool node, u32 a, u32 b, bool down,
		    struct netlink_ext_ack *extack)
{
	const char *why = "refused by the engine";
	struct net_device *dev;
	int err;

	ASSERT_RTNL();
	spin_lock_bh(&f->engine_lock);
	if (node)
		err = wc_engine_fault_node(f->engine, a, down, &why);
	else
		err = wc_engine_fault_link(f->engine, a, b, down, &why);
	spin_unlock_bh(&f->engine_lock);
	if (err == -EEXIST)
		why = "the fault is already installed";
	else if (err == -ENOENT)
		why = "no such fault installed";
	if (err) {
		wc_extack_msg(extack, why);
		return err;
	}
	dev = node ? f->nodes[a].dev : NULL;
	if (dev && down)
		netif_carrier_off(dev);
	else if (dev && netif_running(dev))
		netif_carrier_on(dev);
	/* headers waiting for a channel that just failed are absorbed now */
	wc_fabric_tables_changed(f);
	return 0;
}

bool wc_fabric_node_failed(struct wc_fabric *f, u32 node)
{
	bool failed;

	spin_lock_bh(&f->engine_lock);
	failed = wc_engine_node_failed(f->engine, node);
	spin_unlock_bh(&f->engine_lock);
	return failed;
}

/* Faults from the @skip-th on into @out (at most @max); how many. */
u32 wc_fabric_faults(struct wc_fabric *f, u32 skip, struct wc_fault *out,
		     u32 max)
{
	u32 n;

	spin_lock_bh(&f->engine_lock);
	n = wc_engine_faults(f->engine, skip, out, max);
	spin_unlock_bh(&f->engine_lock);
	return n;
}

/*
 * A table was committed or the scheme changed (RTNL held): let the poll
 * switch now, so that a replaced table is unpinned and freed without
 * waiting for traffic.
 */
void wc_fabric_tables_changed(struct wc_fabric *f)
{
	if (!f->napi_on)
		return;
	local_bh_disable();	/* the poll runs at local_bh_enable() */
	napi_schedule(&f->napi);
	local_bh_enable();
}

static bool wc_has_plan(void *plans, u32 src, const u8 *mac)
{
	return wc_plan_find(plans, src, mac);
}

/*
 * A plans table was committed (RTNL held): the sources it plans for a
 * group are no longer unplanned there.
 */
void wc_fabric_plans_committed(struct wc_fabric *f)
{
	struct wc_table *t;

	rcu_read_lock();
	t = wc_tables_peek_rcu(&f->tables, WORMCAST_TABLE_PLANS);
	if (t)
		wc_mcindex_clear_planned(f->mc, wc_has_plan, &t->u.plans);
	rcu_read_unlock();
}

/* Set what sources know of faults (RTNL held); the poll switches. */
void wc_fabric_set_fault_info(struct wc_fabric *f, u8 fault_info)
{
	if (fault_info == READ_ONCE(f->fault_info))
		return;
	WRITE_ONCE(f->fault_info, fault_info);
	wc_fabric_tables_changed(f);
}

/*
 * Set the scheme (RTNL held, checked); the poll switches when it may.
 * The node devices' largest MTU follows (wc_node_max_mtu()).
 */
void wc_fabric_set_mcast(struct wc_fabric *f, u32 scheme)
{
	u32 n;

	ASSERT_RTNL();
	WRITE_ONCE(f->mcast, scheme);
	for (n = 0; n < f->nnodes; n++)
		if (f->nodes[n].dev)
			f->nodes[n].dev->max_mtu =
				wc_node_max_mtu(scheme, &f->params);
	wc_fabric_tables_changed(f);
}

/* The largest MTU of the fabric's node devices (RTNL held). */
u32 wc_fabric_max_mtu(const struct wc_fabric *f)
{
	u32 n, mtu = 0;

	ASSERT_RTNL();
	for (n = 0; n < f->nnodes; n++)
		if (f->nodes[n].dev)
			mtu = max(mtu, f->nodes[n].dev->mtu);
	return mtu;
}
