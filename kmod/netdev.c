// SPDX-License-Identifier: GPL-2.0
/*
 * Net devices of a fabric: the fabric device (a control/monitor device that
 * carries no frames) and one Ethernet device per emulated node.
 */
#include <linux/etherdevice.h>

#include "wormcast.h"

/* ------------------------------------------------------------ common */

static void wc_dev_get_stats64(struct net_device *dev,
			       struct rtnl_link_stats64 *st)
{
	struct wc_priv *p = wc_priv(dev);
	u64 c[WORMCAST_CNT_MAX + 1];

	if (!p->node) {
		st->tx_dropped = atomic64_read(&p->fabric->fabric_dev_drops);
		/* capture records handed to packet sockets (capture.c) */
		st->rx_packets = atomic64_read(&p->fabric->cap_records);
		st->rx_bytes = atomic64_read(&p->fabric->cap_bytes);
		st->rx_dropped = atomic64_read(&p->fabric->cap_drops);
		return;
	}
	wc_node_read_counters(p->node, c);
	st->tx_packets = c[WORMCAST_CNT_TX_FRAMES];
	st->tx_bytes = c[WORMCAST_CNT_TX_BYTES];
	st->rx_packets = c[WORMCAST_CNT_RX_FRAMES];
	st->rx_bytes = c[WORMCAST_CNT_RX_BYTES];
	/* Drops are counted at the sender, except those that happen at
	 * delivery; DROP_RX_ERROR is left out because the core already
	 * counts it in this device's rx_dropped.
	 */
	st->tx_dropped = c[WORMCAST_CNT_DROP_UNKNOWN_DST] +
			 c[WORMCAST_CNT_DROP_DST_DOWN] +
			 c[WORMCAST_CNT_DROP_SELF] +
			 c[WORMCAST_CNT_DROP_FABRIC_DOWN] +
			 c[WORMCAST_CNT_DROP_BAD_FRAME] +
			 c[WORMCAST_CNT_DROP_ROUTE_ERROR] +
			 c[WORMCAST_CNT_DROP_DEADLOCK];
	st->rx_dropped = c[WORMCAST_CNT_DROP_NOMEM];
}

/* priv_destructor of every registered wormcast device */
static void wc_dev_destructor(struct net_device *dev)
{
	struct wc_priv *p = wc_priv(dev);

	if (p->node)
		WRITE_ONCE(p->node->dev, NULL);
	wc_fabric_put(p->fabric);
}

/* Called once @dev is registered: from now on it holds a fabric ref. */
void wc_dev_attach(struct net_device *dev)
{
	wc_fabric_get(wc_priv(dev)->fabric);
	dev->priv_destructor = wc_dev_destructor;
}

/* ------------------------------------------------------------ fabric device */

static netdev_tx_t wc_fabric_dev_xmit(struct sk_buff *skb,
				      struct net_device *dev)
{
	atomic64_inc(&wc_priv(dev)->fabric->fabric_dev_drops);
	kfree_skb(skb);
	return NETDEV_TX_OK;
}

static const struct net_device_ops wc_fabric_netdev_ops = {
	.ndo_start_xmit = wc_fabric_dev_xmit,
	.ndo_get_stats64 = wc_dev_get_stats64,
};

void wc_fabric_dev_setup(struct net_device *dev)
{
	ether_setup(dev);
	dev->netdev_ops = &wc_fabric_netdev_ops;
	dev->ethtool_ops = &wc_ethtool_ops;
	dev->needs_free_netdev = true;
	/* it carries no frames: no ARP, no broadcast, no multicast */
	dev->flags |= IFF_NOARP;
	dev->flags &= ~(IFF_BROADCAST | IFF_MULTICAST);
	dev->priv_flags |= IFF_NO_QUEUE;
	dev->priv_flags &= ~IFF_TX_SKB_SHARING;
	/* the fabric and its NAPI context stay where they were created */
	dev->features |= NETIF_F_NETNS_LOCAL | NETIF_F_LLTX;
	dev->min_mtu = ETH_MIN_MTU;
	dev->max_mtu = ETH_MAX_MTU;
}

/* ------------------------------------------------------------ node devices */

static int wc_node_open(struct net_device *dev)
{
	struct wc_node *node = wc_priv(dev)->node;

	/* a failed node (a live fault) keeps its carrier off */
	if (!wc_fabric_node_failed(node->fabric, node->id))
		netif_carrier_on(dev);
	netif_start_queue(dev);
	/* __dev_open() calls ndo_set_rx_mode right after this */
	wc_mcindex_set_up(node->fabric->mc, node->id, true);
	wc_fabric_groups_poke(node->fabric);
	return 0;
}

/* Out of the index: a node that is down receives nothing. */
static void wc_node_leave(struct wc_node *node)
{
	wc_mcindex_set_up(node->fabric->mc, node->id, false);
	wc_mcindex_set_node(node->fabric->mc, node->id, false, NULL, 0);
	wc_fabric_groups_poke(node->fabric);
}

static int wc_node_stop(struct net_device *dev)
{
	netif_carrier_off(dev);
	wc_node_leave(wc_priv(dev)->node);
	return 0;
}

/* After close, before the device is freed: no xmit can run any more. */
static void wc_node_uninit(struct net_device *dev)
{
	wc_node_leave(wc_priv(dev)->node);
	wc_node_purge(wc_priv(dev)->node);
}

static netdev_tx_t wc_node_xmit(struct sk_buff *skb, struct net_device *dev)
{
	struct wc_node *node = wc_priv(dev)->node;

	/* The TX hardware timestamp comes when the worm is injected. */
	if (unlikely(skb_shinfo(skb)->tx_flags & SKBTX_HW_TSTAMP) &&
	    READ_ONCE(node->ts_tx))
		skb_shinfo(skb)->tx_flags |= SKBTX_IN_PROGRESS;
	skb_tx_timestamp(skb);
	return wc_fabric_xmit(node, skb);
}

/*
 * Hand the device's receive mode and multicast list to the fabric's
 * membership index.  Called with the address list lock held (BH), in any
 * context: GFP_ATOMIC.  Without memory the node takes every multicast
 * (counted as rx_filter_fallback): more than it joined, never less.
 */
static void wc_node_set_rx_mode(struct net_device *dev)
{
	struct wc_node *node = wc_priv(dev)->node;
	bool all = dev->flags & (IFF_PROMISC | IFF_ALLMULTI);
	u32 count = netdev_mc_count(dev), n = 0;
	u8 (*addrs)[ETH_ALEN] = NULL;
	struct netdev_hw_addr *ha;
	bool fallback = false;
	int err;

	if (count) {
		addrs = kmalloc_array(count, ETH_ALEN, GFP_ATOMIC);
		if (!addrs) {
			fallback = true;
			all = true;
		}
	}
	if (addrs) {
		netdev_for_each_mc_addr(ha, dev) {
			if (n == count)
				break;
			ether_addr_copy(addrs[n++], ha->addr);
		}
	}
	err = wc_mcindex_set_node(node->fabric->mc, node->id, all,
				  (u8 *)addrs, n);
	if (err || fallback)
		atomic64_inc(&node->rxf_fallbacks);
	wc_fabric_groups_poke(node->fabric);
}

static const struct net_device_ops wc_node_netdev_ops = {
	.ndo_open = wc_node_open,
	.ndo_stop = wc_node_stop,
	.ndo_uninit = wc_node_uninit,
	.ndo_start_xmit = wc_node_xmit,
	.ndo_set_rx_mode = wc_node_set_rx_mode,
	.ndo_get_stats64 = wc_dev_get_stats64,
	.ndo_validate_addr = eth_validate_addr,
	.ndo_eth_ioctl = wc_node_eth_ioctl,
};

#define WC_NODE_FEATURES (NETIF_F_SG | NETIF_F_HW_CSUM | NETIF_F_HIGHDMA | \
			  NETIF_F_RXCSUM)

void wc_node_dev_setup(struct net_device *dev)
{
	ether_setup(dev);
	dev->netdev_ops = &wc_node_netdev_ops;
	dev->ethtool_ops = &wc_ethtool_ops;
	dev->needs_free_netdev = true;
	dev->priv_flags &= ~IFF_TX_SKB_SHARING;
	dev->features |= WC_NODE_FEATURES;
	dev->hw_features |= WC_NODE_FEATURES;
	dev->min_mtu = ETH_MIN_MTU;
	dev->max_mtu = ETH_MAX_MTU;
	netif_carrier_off(dev);
}
