/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Pure helpers of the wormcast glue, free of netdev state so that KUnit can
 * test them on plain data: MAC <-> (fabric, node), receive filters, and the
 * classification of a destination MAC.
 *
 * MAC of node n of fabric f: 02:77:FH:FL:NH:NL (locally administered,
 * unicast); the fabric device uses node id WC_MAC_FABRIC_NODE.
 */
#ifndef WC_DSTSET_H
#define WC_DSTSET_H

#include <linux/types.h>
#include <linux/if_ether.h>
#include <linux/rcupdate.h>

#define WC_MAC_OUI0		0x02	/* locally administered, unicast */
#define WC_MAC_OUI1		0x77
#define WC_MAC_FABRIC_NODE	0xffffu	/* node id of the fabric device */
#define WC_FABRIC_ID_MIN	1
#define WC_FABRIC_ID_MAX	0xffff

void wc_mac_make(u8 *mac, u16 fabric_id, u16 node_id);

/*
 * If @mac is a wormcast MAC, set *@fabric_id and *@node_id and return true.
 * The node id is not checked against any fabric size.
 */
bool wc_mac_parse(const u8 *mac, u16 *fabric_id, u16 *node_id);

#define WC_RXF_PROMISC		0x1	/* every multicast (and broadcast) */
#define WC_RXF_ALLMULTI		0x2	/* every multicast */

/*
 * Receive filter of a node: a snapshot built by ndo_set_rx_mode and read
 * under RCU by the datapath.
 */
struct wc_rxfilter {
	struct rcu_head rcu;
	u32 flags;		/* WC_RXF_* */
	u32 count;		/* entries in addrs */
	u8 addrs[][ETH_ALEN];	/* exact multicast matches */
};

/* Does a node whose filter is @f (NULL: none yet) accept multicast @mac? */
bool wc_rxfilter_accepts(const struct wc_rxfilter *f, const u8 *mac);

enum wc_dst_kind {
	WC_DST_NODE,		/* unicast to a node of this fabric */
	WC_DST_BROADCAST,
	WC_DST_MULTICAST,
	WC_DST_UNKNOWN,		/* unicast to no node of this fabric */
	WC_DST_SELF,		/* unicast to the sender itself */
};

/*
 * Classify destination @mac of a frame sent by node @src of fabric
 * @fabric_id with @nnodes nodes; for WC_DST_NODE, *@node is the target.
 */
enum wc_dst_kind wc_dst_classify(const u8 *mac, u16 fabric_id, u32 nnodes,
				 u32 src, u32 *node);

#endif /* WC_DSTSET_H */
