/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The engine parameters of a wormcast fabric as the tools name them: one
 * table shared by the iproute2 plugin (IFLA_WORMCAST_* attributes) and
 * wormctl (WORMCAST_PARAM_* attributes of the generic netlink family), so
 * that "ip -d link show" and "wormctl fabric show" use the same words, and
 * the same words are accepted by "ip link add".
 *
 * Header only, userspace only (libc, uapi).
 */
#ifndef WC_TOOLS_PARAMS_H
#define WC_TOOLS_PARAMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <linux/wormcast.h>

#include "mcast_names.h"	/* daemon/lib: scheme names, shared with wormcastd */

struct wc_param_desc {
	const char *name;	/* command-line word and JSON key */
	uint16_t ifla;		/* IFLA_WORMCAST_* */
	uint16_t param;		/* WORMCAST_PARAM_* */
	uint32_t min;		/* smallest value the tools accept */
	bool is_u8;		/* a u8 attribute (replication, fault-info),
				 * else a u32; keyword parameters:
				 * wc_param_is_keyword() */
	const char *help;
};

/* In the order of the uapi enums; "ip -d link show" prints them so. */
static const struct wc_param_desc wc_params[] = {
	{ "flit_bytes", IFLA_WORMCAST_FLIT_BYTES, WORMCAST_PARAM_FLIT_BYTES,
	  1, false, "bytes per flit" },
	{ "buf_flits", IFLA_WORMCAST_BUF_FLITS, WORMCAST_PARAM_BUF_FLITS,
	  1, false, "flits per virtual channel buffer" },
	{ "vcs", IFLA_WORMCAST_VCS, WORMCAST_PARAM_VCS,
	  1, false, "virtual channels per link" },
	{ "inj", IFLA_WORMCAST_INJ_CHANNELS, WORMCAST_PARAM_INJ_CHANNELS,
	  1, false, "injection channels per node" },
	{ "cons", IFLA_WORMCAST_CONS_CHANNELS, WORMCAST_PARAM_CONS_CHANNELS,
	  1, false, "consumption channels per node" },
	{ "router_delay", IFLA_WORMCAST_ROUTER_DELAY,
	  WORMCAST_PARAM_ROUTER_DELAY, 0, false, "cycles to route a header" },
	{ "link_delay", IFLA_WORMCAST_LINK_DELAY, WORMCAST_PARAM_LINK_DELAY,
	  1, false, "cycles to cross a link" },
	{ "startup", IFLA_WORMCAST_STARTUP, WORMCAST_PARAM_STARTUP,
	  0, false, "cycles of startup cost per worm" },
	{ "cycle_ns", IFLA_WORMCAST_CYCLE_NS, WORMCAST_PARAM_CYCLE_NS,
	  0, false, "wall time of a cycle, 0 = virtual time" },
	{ "replication", IFLA_WORMCAST_REPLICATION,
	  WORMCAST_PARAM_REPLICATION, 0, true, "lockstep or async" },
	{ "watchdog", IFLA_WORMCAST_WATCHDOG, WORMCAST_PARAM_WATCHDOG,
	  1, false, "cycles without progress that mean deadlock" },
	{ "queue_len", IFLA_WORMCAST_QUEUE_LEN, WORMCAST_PARAM_QUEUE_LEN,
	  1, false, "injection queue length, frames" },
	{ "multicast", IFLA_WORMCAST_MULTICAST, WORMCAST_PARAM_MULTICAST,
	  0, false, "unicast, spam, dstm-1, dstm-2, rt, hamiltonian, dual-path, multipath, star-tree, ocms, otms, multiphase, dcf, edn or ftmesh" },
	{ "fault-info", IFLA_WORMCAST_FAULT_INFO, WORMCAST_PARAM_FAULT_INFO,
	  0, true, "global or local" },
	{ "send_ovh", IFLA_WORMCAST_SEND_OVH, WORMCAST_PARAM_SEND_OVH,
	  0, false, "cycles a node spends per send (t_s)" },
	{ "recv_ovh", IFLA_WORMCAST_RECV_OVH, WORMCAST_PARAM_RECV_OVH,
	  0, false, "cycles a relay spends per reception (t_r)" },
};

#define WC_NPARAMS (sizeof(wc_params) / sizeof(wc_params[0]))

static inline const struct wc_param_desc *wc_param_by_name(const char *name)
{
	size_t i;

	for (i = 0; i < WC_NPARAMS; i++)
		if (!strcmp(wc_params[i].name, name))
			return &wc_params[i];
	return NULL;
}

/* "lockstep", "async", or NULL for a value no tool knows. */
static inline const char *wc_repl_name(uint32_t v)
{
	switch (v) {
	case WORMCAST_REPL_LOCKSTEP:
		return "lockstep";
	case WORMCAST_REPL_ASYNC:
		return "async";
	}
	return NULL;
}

/* 0 with *v set, or -1 for an unknown word. */
static inline int wc_repl_parse(const char *s, uint32_t *v)
{
	if (!strcmp(s, "lockstep")) {
		*v = WORMCAST_REPL_LOCKSTEP;
		return 0;
	}
	if (!strcmp(s, "async")) {
		*v = WORMCAST_REPL_ASYNC;
		return 0;
	}
	return -1;
}

/* "global", "local", or NULL for a value no tool knows. */
static inline const char *wc_fault_info_name(uint32_t v)
{
	switch (v) {
	case WORMCAST_FAULT_INFO_GLOBAL:
		return "global";
	case WORMCAST_FAULT_INFO_LOCAL:
		return "local";
	}
	return NULL;
}

/* 0 with *v set, or -1 for an unknown word. */
static inline int wc_fault_info_parse(const char *s, uint32_t *v)
{
	if (!strcmp(s, "global")) {
		*v = WORMCAST_FAULT_INFO_GLOBAL;
		return 0;
	}
	if (!strcmp(s, "local")) {
		*v = WORMCAST_FAULT_INFO_LOCAL;
		return 0;
	}
	return -1;
}

/* Parameters given by a word rather than a number: replication, multicast, fault-info. */
static inline bool wc_param_is_keyword(const struct wc_param_desc *d)
{
	return d->param == WORMCAST_PARAM_REPLICATION ||
	       d->param == WORMCAST_PARAM_MULTICAST ||
	       d->param == WORMCAST_PARAM_FAULT_INFO;
}

/* Parameters carried as a u8 (the others are u32): replication, fault-info. */
static inline bool wc_param_is_u8(const struct wc_param_desc *d)
{
	return d->is_u8;
}

/* The word of a keyword parameter's value, NULL for numbers and unknown values. */
static inline const char *wc_param_value_name(const struct wc_param_desc *d,
					      uint32_t v)
{
	if (d->param == WORMCAST_PARAM_REPLICATION)
		return wc_repl_name(v);
	if (d->param == WORMCAST_PARAM_MULTICAST)
		return wc_mcast_scheme_name(v);
	if (d->param == WORMCAST_PARAM_FAULT_INFO)
		return wc_fault_info_name(v);
	return NULL;
}

/* A keyword parameter's word: 0 with *v set, -1 if unknown (or not a keyword parameter). */
static inline int wc_param_value_parse(const struct wc_param_desc *d,
				       const char *s, uint32_t *v)
{
	if (d->param == WORMCAST_PARAM_REPLICATION)
		return wc_repl_parse(s, v);
	if (d->param == WORMCAST_PARAM_MULTICAST)
		return wc_mcast_scheme_parse(s, v);
	if (d->param == WORMCAST_PARAM_FAULT_INFO)
		return wc_fault_info_parse(s, v);
	return -1;
}

/* "lockstep or async", "global or local", or the multicast schemes (a test checks it names them all). */
static inline const char *wc_param_keywords(const struct wc_param_desc *d)
{
	if (d->param == WORMCAST_PARAM_FAULT_INFO)
		return "global or local";
	return d->param == WORMCAST_PARAM_REPLICATION ? "lockstep or async" :
	       "unicast, spam, dstm-1, dstm-2, rt, hamiltonian, dual-path, multipath, star-tree, ocms, otms, multiphase, dcf, edn or ftmesh";
}

#endif /* WC_TOOLS_PARAMS_H */
