/* SPDX-License-Identifier: GPL-2.0 */
/* wormctl: command-line parsing, without I/O (unit-tested). */
#ifndef WORMCTL_ARGS_H
#define WORMCTL_ARGS_H

#include <stddef.h>
#include <stdint.h>

#include "wormctl.h"

enum wormctl_cmd {
	WCMD_HELP,
	WCMD_VERSION,
	WCMD_FABRIC_SHOW,
	WCMD_FABRIC_SET,
	WCMD_STATS,
	WCMD_TABLE_SHOW,
	WCMD_PLAN,
	WCMD_GROUP_SHOW,
	WCMD_FAULT_CHANGE,	/* fault add | fault del */
	WCMD_FAULT_SHOW,
	WCMD_FAULT_RANDOM,
	WCMD_MONITOR,
};

/* Defaults of "fault random". */
#define WC_FAULT_RANDOM_SEED		1
#define WC_FAULT_RANDOM_DURATION	10	/* seconds */
#define WC_FAULT_RANDOM_MAX_MS		3600000u
#define WC_FAULT_RANDOM_MAX_S		86400u

enum wc_fault_kinds {
	WC_FAULTS_LINKS = 1,
	WC_FAULTS_NODES = 2,
	WC_FAULTS_ANY = 3,
};

struct wormctl_cmdline {
	struct wormctl_opts opts;
	enum wormctl_cmd cmd;
	const char *dev;	/* fabric device; NULL = every fabric */
	bool set_cycle_ns;	/* fabric set */
	uint32_t cycle_ns;
	bool set_watchdog;
	uint32_t watchdog;
	bool set_multicast;
	uint32_t multicast;	/* enum wormcast_mcast_scheme */
	bool set_fault_info;
	uint32_t fault_info;	/* enum wormcast_fault_info */
	bool set_send_ovh;
	uint32_t send_ovh;	/* cycles */
	bool set_recv_ovh;
	uint32_t recv_ovh;
	int64_t node;		/* stats: SHOW_ALL_NODES, SHOW_NO_NODES or id */
	bool links;		/* stats --links: per-channel busy/blocked cycles */
	/* fault add | del */
	bool fault_del;		/* del, else add */
	bool fault_node;	/* node A, else link A B */
	uint32_t fault_a, fault_b;
	/* fault random */
	uint32_t mtbf_ms, mttr_ms;	/* mean times between failures, to repair */
	uint32_t duration_s;
	uint64_t seed;
	uint32_t fault_kinds;	/* enum wc_fault_kinds */
	int plan_argc;		/* plan: the words after "plan" */
	char **plan_argv;
};

/*
 * Parse argv[1..argc-1].  Returns 0, or -1 with a message in @err for a
 * usage error (exit status 2).
 */
int wormctl_parse_cmdline(int argc, char **argv, struct wormctl_cmdline *c,
			  char *err, size_t errlen);

extern const char wormctl_usage[];

#endif /* WORMCTL_ARGS_H */
