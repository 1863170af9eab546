// SPDX-License-Identifier: GPL-2.0
/*
 * The capture device: the fabric device shows packet sockets (tcpdump -i
 * FABRIC) one record per message once all its worms are finished, an
 * Ethernet header of type WORMCAST_ETH_P_CAPTURE, the record (uapi struct
 * wormcast_cap_hdr and its arrays, encoded by engine/caprec.c) and the
 * frame.  Documentation/kernel.rst, "Capture".
 *
 * Nothing is recorded unless the fabric device is up and a packet socket
 * listens (dev_nit_active()): then wc_submit() attaches a trace to the
 * message, the engine fills it, msg_done encodes the record into an skb
 * queued on f->capq, and the poll hands it to the taps after the run,
 * outside the engine lock.  A record that cannot be allocated is counted
 * (rx_dropped of the fabric device), never waited for.
 */
#include <linux/etherdevice.h>

#include "wormcast.h"
#include "caprec.h"

/* Trace entries of one message, at most (keeps a record under 64 KiB). */
#define WC_CAP_MAX_LINKS	4096
#define WC_CAP_LINKS_PER_DST	8

struct wc_cap {
	struct wc_trace t;
	u32 scheme;
	u32 gen;
	/* t.links, then t.dsts */
};

static bool wc_capture_active(struct wc_fabric *f)
{
	struct net_device *dev = f->dev;

	return dev && netif_running(dev) && dev_nit_active(dev);
}

/* At submission (engine lock): trace @m if somebody captures. */
void wc_capture_attach(struct wc_fabric *f, struct wc_msg *m)
{
	u32 max_links, nphys = f->nnodes * f->topo.nports;
	struct wc_cap *c;
	size_t size;

	if (likely(!wc_capture_active(f)))
		return;
	max_links = min_t(u32, nphys + m->ndsts * WC_CAP_LINKS_PER_DST,
			  WC_CAP_MAX_LINKS);
	size = sizeof(*c) + max_links * sizeof(struct wc_trace_link) +
	       m->ndsts * sizeof(struct wc_trace_dst);
	c = kmalloc(size, GFP_ATOMIC | __GFP_NOWARN);
	if (!c) {
		atomic64_inc(&f->cap_drops);
		return;
	}
	memset(&c->t, 0, sizeof(c->t));
	c->t.max_links = max_links;
	c->t.links = (struct wc_trace_link *)(c + 1);
	c->t.max_dsts = m->ndsts;
	c->t.dsts = (struct wc_trace_dst *)(c->t.links + max_links);
	/*
	 * What the engine runs on: the built-in algorithm without a table,
	 * whose relays under multiphase are recorded as such.
	 */
	c->scheme = f->run_table || f->run_scheme == WORMCAST_MCAST_MULTIPHASE ?
		    f->run_scheme : WORMCAST_MCAST_UNICAST;
	c->gen = f->run_table ? f->run_table->gen : 0;
	m->trace = &c->t;
}

/*
 * At msg_done (engine lock): encode @m's record and queue it for the
 * taps; the trace is freed.  @skb is the frame, @aborted when the engine
 * was flushed.
 */
void wc_capture_done(struct wc_fabric *f, struct wc_msg *m,
		     struct sk_buff *skb, bool aborted)
{
	struct wc_cap *c = container_of(m->trace, struct wc_cap, t);
	struct wc_caprec_info info = {
		.fabric = f->id,
		.nnodes = f->nnodes,
		.scheme = c->scheme,
		.table_gen = c->gen,
		.flags = aborted ? WORMCAST_CAP_F_ABORTED : 0,
		.done = wc_engine_now(f->engine),
	};
	size_t hlen = wc_caprec_hdr_len(m, &c->t);
	struct sk_buff *rec;
	struct ethhdr *eth;

	BUILD_BUG_ON(sizeof(struct wormcast_cap_hdr) != 64);
	BUILD_BUG_ON(sizeof(struct wormcast_cap_dst) != 24);
	BUILD_BUG_ON(sizeof(struct wormcast_cap_link) != 8);
	m->trace = NULL;
	rec = alloc_skb(NET_IP_ALIGN + ETH_HLEN + hlen + skb->len,
			GFP_ATOMIC | __GFP_NOWARN);
	if (!rec) {
		atomic64_inc(&f->cap_drops);
		kfree(c);
		return;
	}
	skb_reserve(rec, NET_IP_ALIGN);
	eth = skb_put(rec, ETH_HLEN);
	ether_addr_copy(eth->h_dest, f->dev->dev_addr);
	wc_mac_make(eth->h_source, f->id, m->src);
	eth->h_proto = htons(WORMCAST_ETH_P_CAPTURE);
	wc_caprec_encode(skb_put(rec, hlen), &info, m, &c->t);
	kfree(c);
	if (skb_copy_bits(skb, 0, skb_put(rec, skb->len), skb->len)) {
		atomic64_inc(&f->cap_drops);
		kfree_skb(rec);
		return;
	}
	skb_reset_mac_header(rec);
	skb_set_network_header(rec, ETH_HLEN);
	rec->protocol = htons(WORMCAST_ETH_P_CAPTURE);
	rec->dev = f->dev;
	__skb_queue_tail(&f->capq, rec);
}

/* After a run, outside the engine lock (softirq): records to the taps. */
void wc_capture_flush(struct wc_fabric *f)
{
	struct sk_buff *skb;

	while ((skb = __skb_dequeue(&f->capq))) {
		if (netif_running(f->dev)) {
			atomic64_inc(&f->cap_records);
			atomic64_add(skb->len, &f->cap_bytes);
			/* every packet socket of the device, and of "any" */
			dev_queue_xmit_nit(skb, f->dev);
		}
		consume_skb(skb);
	}
}

/* Teardown: records not handed to the taps are dropped. */
void wc_capture_purge(struct wc_fabric *f)
{
	__skb_queue_purge(&f->capq);
}
