// SPDX-License-Identifier: GPL-2.0
/*
 * Destination sets: which nodes receive a frame, from its destination MAC
 * and the receive filters of the other nodes.  Pure functions; the fabric
 * (fabric.c) applies them to its nodes.
 */
#include <linux/etherdevice.h>

#include "dstset.h"

bool wc_rxfilter_accepts(const struct wc_rxfilter *f, const u8 *mac)
{
	u32 i;

	if (!f)
		return false;
	if (f->flags & (WC_RXF_PROMISC | WC_RXF_ALLMULTI))
		return true;
	for (i = 0; i < f->count; i++)
		if (ether_addr_equal(f->addrs[i], mac))
			return true;
	return false;
}

enum wc_dst_kind wc_dst_classify(const u8 *mac, u16 fabric_id, u32 nnodes,
				 u32 src, u32 *node)
{
	u16 fid, nid;

	if (is_broadcast_ether_addr(mac))
		return WC_DST_BROADCAST;
	if (is_multicast_ether_addr(mac))
		return WC_DST_MULTICAST;
	if (!wc_mac_parse(mac, &fid, &nid) || fid != fabric_id ||
	    nid >= nnodes)
		return WC_DST_UNKNOWN;
	if (nid == src)
		return WC_DST_SELF;
	*node = nid;
	return WC_DST_NODE;
}
