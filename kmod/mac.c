// SPDX-License-Identifier: GPL-2.0
/*
 * MAC addresses of wormcast devices: 02:77:FH:FL:NH:NL.
 */
#include <linux/etherdevice.h>

#include "dstset.h"

void wc_mac_make(u8 *mac, u16 fabric_id, u16 node_id)
{
	mac[0] = WC_MAC_OUI0;
	mac[1] = WC_MAC_OUI1;
	mac[2] = fabric_id >> 8;
	mac[3] = fabric_id & 0xff;
	mac[4] = node_id >> 8;
	mac[5] = node_id & 0xff;
}

bool wc_mac_parse(const u8 *mac, u16 *fabric_id, u16 *node_id)
{
	u16 fid;

	if (mac[0] != WC_MAC_OUI0 || mac[1] != WC_MAC_OUI1)
		return false;
	fid = (mac[2] << 8) | mac[3];
	if (fid < WC_FABRIC_ID_MIN)
		return false;
	*fabric_id = fid;
	*node_id = (mac[4] << 8) | mac[5];
	return true;
}
