// SPDX-License-Identifier: GPL-2.0
/*
 * wormctl: command-line tool of wormcast, in the style of ethtool, devlink
 * and iproute2.  Parses the command line (args.c) and dispatches: fabric
 * stats and table talk to the kernel (fabric.c), plan is offline (plan_*.c).
 *
 * Exit status: 0 ok, 1 error, 2 usage error.
 */
#include <stdio.h>
#include <string.h>
#include <linux/wormcast.h>

#include "args.h"
#include "commands.h"
#include "wormctl.h"

#define WORMCTL_VERSION "0.1"

int main(int argc, char **argv)
{
	struct wormctl_cmdline c;
	char err[256];

	if (wormctl_parse_cmdline(argc, argv, &c, err, sizeof(err))) {
		fprintf(stderr, "wormctl: %s\nTry \"wormctl help\".\n", err);
		return 2;
	}
	switch (c.cmd) {
	case WCMD_HELP:
		fputs(wormctl_usage, stdout);
		return 0;
	case WCMD_VERSION:
		printf("wormctl %s (wormcast generic netlink version %d)\n",
		       WORMCTL_VERSION, WORMCAST_GENL_VERSION);
		return 0;
	case WCMD_FABRIC_SHOW:
		return cmd_fabric_show(&c);
	case WCMD_FABRIC_SET:
		return cmd_fabric_set(&c);
	case WCMD_STATS:
		return cmd_stats(&c);
	case WCMD_TABLE_SHOW:
		return cmd_table_show(&c);
	case WCMD_GROUP_SHOW:
		return cmd_group_show(&c);
	case WCMD_PLAN:
		return wormctl_plan(c.plan_argc, c.plan_argv, &c.opts);
	case WCMD_FAULT_CHANGE:
		return cmd_fault_change(&c);
	case WCMD_FAULT_SHOW:
		return cmd_fault_show(&c);
	case WCMD_FAULT_RANDOM:
		return cmd_fault_random(&c);
	case WCMD_MONITOR:
		return cmd_monitor(&c);
	}
	return 2;
}
