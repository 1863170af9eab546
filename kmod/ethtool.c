// SPDX-License-Identifier: GPL-2.0
/*
 * ethtool and hardware timestamping of wormcast devices
 * (Documentation/kernel.rst, "ethtool and timestamps"):
 *  - ethtool -i: driver, version, bus-info naming the fabric and the node,
 *    firmware-version the fabric's table generation;
 *  - ethtool -S: the node's counters (the whole fabric's on the fabric
 *    device), under the names wormctl shows (counter_names.h);
 *  - ethtool -T and SIOCSHWTSTAMP/SIOCGHWTSTAMP: hardware timestamps in
 *    fabric time, taken by fabric.c when a worm is injected (TX) and when
 *    its tail is consumed (RX).
 */
#include <linux/ethtool.h>
#include <linux/net_tstamp.h>
#include <linux/uaccess.h>

#include "wormcast.h"
#include "counter_names.h"

/* ------------------------------------------------------------ ethtool -i */

static void wc_get_drvinfo(struct net_device *dev,
			   struct ethtool_drvinfo *info)
{
	struct wc_priv *p = wc_priv(dev);
	struct wc_fabric *f = p->fabric;
	const char *pfx = "wormcast:";
	char node[16];

	strscpy(info->driver, WORMCAST_KIND, sizeof(info->driver));
	strscpy(info->version, WC_DRV_VERSION, sizeof(info->version));
	/* The generation of the fabric's routing tables; 0: built-in. */
	snprintf(info->fw_version, sizeof(info->fw_version), "tables gen %u",
		 wc_tables_gen(&f->tables));
	if (p->node)
		snprintf(node, sizeof(node), "node%u", p->node->id);
	else
		strscpy(node, "fabric", sizeof(node));
	/*
	 * "wormcast:FABRIC:node5", FABRIC the fabric device's name (RTNL
	 * held, so it is there and stable).  A 15-character name with a
	 * 4-digit node id does not fit in 31 characters: "wc:" then.
	 */
	if (strlen(pfx) + strlen(f->dev->name) + 1 + strlen(node) >=
	    sizeof(info->bus_info))
		pfx = "wc:";
	snprintf(info->bus_info, sizeof(info->bus_info), "%s%s:%s", pfx,
		 f->dev->name, node);
}

/* ------------------------------------------------------------ ethtool -S */

static int wc_get_sset_count(struct net_device *dev, int sset)
{
	int i, n = 0;

	if (sset != ETH_SS_STATS)
		return -EOPNOTSUPP;
	for (i = 0; i <= WORMCAST_CNT_MAX; i++)
		if (wc_counter_names[i])
			n++;
	return n;
}

static void wc_get_strings(struct net_device *dev, u32 sset, u8 *data)
{
	int i;

	if (sset != ETH_SS_STATS)
		return;
	for (i = 0; i <= WORMCAST_CNT_MAX; i++)
		if (wc_counter_names[i])
			ethtool_sprintf(&data, "%s", wc_counter_names[i]);
}

static void wc_get_ethtool_stats(struct net_device *dev,
				 struct ethtool_stats *stats, u64 *data)
{
	struct wc_priv *p = wc_priv(dev);
	u64 cnt[WORMCAST_CNT_MAX + 1];
	int i, n = 0;

	if (p->node)
		wc_node_counters(p->fabric, p->node->id, cnt);
	else
		wc_fabric_counters(p->fabric, cnt);
	for (i = 0; i <= WORMCAST_CNT_MAX; i++)
		if (wc_counter_names[i])
			data[n++] = cnt[i];
}

/* ------------------------------------------------------------ ethtool -T */

static int wc_get_ts_info(struct net_device *dev, struct ethtool_ts_info *info)
{
	info->phc_index = -1;
	info->so_timestamping = SOF_TIMESTAMPING_RX_SOFTWARE |
				SOF_TIMESTAMPING_SOFTWARE;
	if (!wc_priv(dev)->node)
		return 0;	/* the fabric device carries no frames */
	info->so_timestamping |= SOF_TIMESTAMPING_TX_SOFTWARE |
				 SOF_TIMESTAMPING_TX_HARDWARE |
				 SOF_TIMESTAMPING_RX_HARDWARE |
				 SOF_TIMESTAMPING_RAW_HARDWARE;
	info->tx_types = BIT(HWTSTAMP_TX_OFF) | BIT(HWTSTAMP_TX_ON);
	info->rx_filters = BIT(HWTSTAMP_FILTER_NONE) | BIT(HWTSTAMP_FILTER_ALL);
	return 0;
}

const struct ethtool_ops wc_ethtool_ops = {
	.get_drvinfo = wc_get_drvinfo,
	.get_link = ethtool_op_get_link,
	.get_sset_count = wc_get_sset_count,
	.get_strings = wc_get_strings,
	.get_ethtool_stats = wc_get_ethtool_stats,
	.get_ts_info = wc_get_ts_info,
};

/* ------------------------------------------------------------ SIOC[SG]HWTSTAMP */

static void wc_hwtstamp_get(const struct wc_node *node,
			    struct hwtstamp_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->tx_type = READ_ONCE(node->ts_tx) ? HWTSTAMP_TX_ON :
						HWTSTAMP_TX_OFF;
	cfg->rx_filter = READ_ONCE(node->ts_rx) ? HWTSTAMP_FILTER_ALL :
						  HWTSTAMP_FILTER_NONE;
}

/*
 * TX: off or on; RX: none, or any filter, which becomes "all" (every
 * frame is stamped: the caller is told so in the reply).  RTNL held.
 */
static int wc_hwtstamp_set(struct wc_node *node, struct hwtstamp_config *cfg)
{
	if (cfg->flags)
		return -EINVAL;
	if (cfg->tx_type != HWTSTAMP_TX_OFF && cfg->tx_type != HWTSTAMP_TX_ON)
		return -ERANGE;
	if (cfg->rx_filter != HWTSTAMP_FILTER_NONE)
		cfg->rx_filter = HWTSTAMP_FILTER_ALL;
	WRITE_ONCE(node->ts_tx, cfg->tx_type == HWTSTAMP_TX_ON);
	WRITE_ONCE(node->ts_rx, cfg->rx_filter == HWTSTAMP_FILTER_ALL);
	return 0;
}

/* ndo_eth_ioctl of node devices (RTNL held). */
int wc_node_eth_ioctl(struct net_device *dev, struct ifreq *ifr, int cmd)
{
	struct wc_node *node = wc_priv(dev)->node;
	struct hwtstamp_config cfg;
	int err;

	switch (cmd) {
	case SIOCSHWTSTAMP:
		if (copy_from_user(&cfg, ifr->ifr_data, sizeof(cfg)))
			return -EFAULT;
		err = wc_hwtstamp_set(node, &cfg);
		if (err)
			return err;
		break;
	case SIOCGHWTSTAMP:
		wc_hwtstamp_get(node, &cfg);
		break;
	default:
		return -EOPNOTSUPP;
	}
	return copy_to_user(ifr->ifr_data, &cfg, sizeof(cfg)) ? -EFAULT : 0;
}
