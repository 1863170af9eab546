// SPDX-License-Identifier: GPL-2.0
/*
 * wormcast: an emulated multicast-capable wormhole-switched interconnect.
 * Module init and exit.
 */
#include <linux/module.h>

#include "wormcast.h"

static int __init wc_init(void)
{
	int err;

	/* genl first, so that fabric events always have a family */
	err = wc_genl_init();
	if (err)
		return err;
	err = rtnl_link_register(&wc_link_ops);
	if (err)
		wc_genl_exit();
	return err;
}

static void __exit wc_exit(void)
{
	/* deletes every fabric (FABRIC_DEL events still go out) */
	rtnl_link_unregister(&wc_link_ops);
	wc_genl_exit();
	/* tables are freed by RCU callbacks of this module's code */
	rcu_barrier();
}

module_init(wc_init);
module_exit(wc_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("wormcast: emulated multicast wormhole-switched interconnect");
MODULE_VERSION(WC_DRV_VERSION);
MODULE_ALIAS_RTNL_LINK(WORMCAST_KIND);
MODULE_ALIAS_GENL_FAMILY(WORMCAST_GENL_NAME);
