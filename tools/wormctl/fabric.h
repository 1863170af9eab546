/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wormctl: what the kernel reports about a fabric (FABRIC_GET, STATS_GET),
 * decoded from netlink (fabric.c, libmnl) and displayed (show.c, pure).
 */
#ifndef WORMCTL_FABRIC_H
#define WORMCTL_FABRIC_H

#include <stdbool.h>
#include <stdint.h>
#include <net/if.h>
#include <linux/wormcast.h>

#include "topology.h"
#include "json.h"

struct wc_node_info {
	uint32_t id;
	uint32_t ifindex;		/* 0 if not reported */
	bool has_netnsid;
	int32_t netnsid;		/* -1: the caller's netns */
	char ifname[IFNAMSIZ];		/* "" if not reported */
	uint32_t ncoords;
	uint32_t coords[WC_MAX_COORDS];
	bool has_addr;
	uint8_t addr[6];
	bool has_counters;
	uint64_t cnt[__WORMCAST_CNT_MAX];
};

struct wc_fabric_info {
	uint32_t ifindex;		/* fabric device */
	char name[IFNAMSIZ];		/* "" if in another netns */
	bool has_netnsid;
	int32_t netnsid;		/* of the fabric device's netns */
	bool has_id;
	uint32_t id;
	uint32_t topology;		/* enum wormcast_topology, 0 = unknown */
	uint32_t ndims;
	uint32_t dims[WC_MAX_DIMS];
	uint32_t nnodes;
	bool has_param[__WORMCAST_PARAM_MAX];
	uint32_t param[__WORMCAST_PARAM_MAX];
	bool has_counters;
	uint64_t cnt[__WORMCAST_CNT_MAX];
	bool has_engine;
	uint64_t eng[__WORMCAST_ENG_MAX];
	bool nodes_truncated;		/* the kernel sent the first nodes only */
	uint32_t nnode_info;		/* entries used in nodes[] */
	uint32_t node_cap;
	struct wc_node_info *nodes;
};

/* A new node entry at the end of f->nodes (zeroed), or NULL. */
struct wc_node_info *wc_fabric_add_node(struct wc_fabric_info *f);
void wc_fabric_free(struct wc_fabric_info *f);
bool wc_fabric_has_node(const struct wc_fabric_info *f, uint32_t id);

/* show.c: "fabric show" and "stats" displays, text or JSON objects. */
void show_fabric(struct out *o, const struct wc_fabric_info *f);

/* @node: only this node's counters; -1: every node; -2: totals only. */
#define SHOW_ALL_NODES	(-1)
#define SHOW_NO_NODES	(-2)
void show_stats(struct out *o, const struct wc_fabric_info *f, int64_t node);

#endif /* WORMCTL_FABRIC_H */
