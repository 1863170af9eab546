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

/* One installed table, as FABRIC_GET and TABLE_GET (doit) report it. */
struct wc_table_info {
	uint32_t kind;			/* enum wormcast_table_kind */
	uint32_t gen;
	uint32_t size;			/* bytes */
};

/* Tables listed per fabric; more than the uapi has kinds, for newer kernels. */
#define WC_MAX_TABLES	8

/* One physical channel of a LINKS_GET dump. */
struct wc_link_info {
	uint32_t node, port, peer;
	uint64_t busy;			/* cycles with a flit */
	uint64_t blocked;		/* header-cycles refused */
};

/* One live fault of a FAULT_GET dump. */
struct wc_fault_info {
	bool node;			/* a node (a), else a link (a, b) */
	uint32_t a, b;
};

/* One multicast group (GROUPS_GET): its address and receivers. */
struct wc_group_info {
	uint8_t addr[6];
	uint32_t nmembers;		/* as the kernel counted them */
	uint32_t nlist;			/* entries of members */
	uint32_t *members;		/* node ids, from the bitmap */
	uint32_t nunplanned;		/* entries of unplanned */
	uint32_t *unplanned;		/* sources without a plan (ocms/otms) */
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
	bool has_table_gen;		/* FABRIC_GET of a kernel with tables */
	uint32_t table_gen;		/* 0: none committed yet */
	uint32_t ntables;		/* entries used in tables[] */
	struct wc_table_info tables[WC_MAX_TABLES];
	bool nodes_truncated;		/* the kernel sent the first nodes only */
	uint32_t nnode_info;		/* entries used in nodes[] */
	uint32_t node_cap;
	struct wc_node_info *nodes;
	uint32_t nlinks;		/* entries used in links[] (LINKS_GET) */
	uint32_t link_cap;
	struct wc_link_info *links;
	bool has_faults;		/* a FAULT_GET answer */
	uint32_t nfaults;		/* entries used in faults[] */
	uint32_t fault_cap;
	struct wc_fault_info *faults;
	bool has_groups_gen;		/* GROUPS_GET */
	uint32_t groups_gen;
	uint32_t ngroups;		/* entries used in groups[] */
	uint32_t group_cap;
	struct wc_group_info *groups;
};

/* A new node entry at the end of f->nodes (zeroed), or NULL. */
struct wc_node_info *wc_fabric_add_node(struct wc_fabric_info *f);
/* A new link entry at the end of f->links (zeroed), or NULL. */
struct wc_link_info *wc_fabric_add_link(struct wc_fabric_info *f);
void wc_fabric_free(struct wc_fabric_info *f);
/*
 * @cmd (FABRIC_GET, FAULT_GET...) as a dump for DEV's fabric, decoded into
 * @f (wc_fabric_free() it).  0, or -1 after printing why.
 */
int wc_fabric_query_one(uint8_t cmd, const char *dev, const char *what,
			struct wc_fabric_info *f);
struct nlmsghdr;
/* One wormcast message (a notification) decoded into @f; 0 or -1 (ENOMEM). */
int wc_fabric_decode_msg(const struct nlmsghdr *nlh, struct wc_fabric_info *f);
/* ifindex of DEV in this netns, or 0 after printing why. */
uint32_t wc_dev_ifindex(const char *dev);
bool wc_fabric_has_node(const struct wc_fabric_info *f, uint32_t id);

/* show.c: "fabric show" and "stats" displays, text or JSON objects. */
void show_fabric(struct out *o, const struct wc_fabric_info *f);

/* @node: only this node's counters; -1: every node; -2: totals only. */
#define SHOW_ALL_NODES	(-1)
#define SHOW_NO_NODES	(-2)
void show_stats(struct out *o, const struct wc_fabric_info *f, int64_t node);
/*
 * "stats DEV --links": per physical channel, busy and blocked cycles.
 * JSON: one object with the fabric's identity, "cycles" and "links" (an
 * array of {node, port, peer, busy, blocked}), the format wormsim's
 * --links-json writes and tools/heatmap/wc-heatmap reads.  Text: a line
 * per channel.
 */
void show_links(struct out *o, const struct wc_fabric_info *f);

/*
 * "group show DEV": the fabric's multicast groups, each with the nodes a
 * frame to it reaches.  JSON: one object with the fabric's identity,
 * "groups_gen" and "groups" (an array of {address, nmembers, members}).
 */
void show_groups(struct out *o, const struct wc_fabric_info *f);
/* A new group entry at the end of f->groups (zeroed), or NULL. */
struct wc_group_info *wc_fabric_add_group(struct wc_fabric_info *f);

/*
 * table.c: a table's bytes put back together from the pieces of a
 * TABLE_GET dump (OFFSET + DATA), struct wormcast_trees decoded, and the
 * "table show" display.  No netlink: the unit test drives it.
 */
struct wc_table_bytes {
	struct wc_table_info want;	/* from FABRIC_GET: kind, gen, size */
	uint8_t *buf;			/* want.size bytes */
	uint32_t len;			/* received so far, from offset 0 */
	char err[192];			/* why the last call failed */
	bool replaced;			/* a piece of a newer generation came */
};

/* 0, or -1 with b->err set (size 0 or over WORMCAST_TABLE_MAX_BYTES, ENOMEM). */
int wc_table_bytes_init(struct wc_table_bytes *b, const struct wc_table_info *t);
/*
 * One dump message: its KIND, GEN, OFFSET and DATA.  Refuses (-1, b->err)
 * another kind or generation (the table was replaced during the dump:
 * b->replaced is set, read it again), an
 * offset that does not continue the bytes received, and bytes past the size.
 */
int wc_table_bytes_add(struct wc_table_bytes *b, uint32_t kind, uint32_t gen,
		       uint32_t offset, const void *data, uint32_t len);
/* 0 when every byte arrived, else -1 with b->err. */
int wc_table_bytes_done(struct wc_table_bytes *b);
void wc_table_bytes_free(struct wc_table_bytes *b);

/* A decoded table; parent_port and label point into the bytes. */
struct wc_table_view {
	uint32_t kind;			/* enum wormcast_table_kind */
	uint32_t scheme;		/* enum wormcast_mcast_scheme */
	uint32_t nnodes;
	/* WORMCAST_TABLE_TREES */
	uint32_t ntrees;
	uint32_t root[WORMCAST_MAX_TREES];
	const uint8_t *parent_port;	/* ntrees * nnodes, tree after tree */
	uint32_t nfaults;		/* struct wormcast_trees_fault, unaligned */
	const uint8_t *faults;
	/* WORMCAST_TABLE_LABELS */
	const uint32_t *label;		/* nnodes: label of every node */
	/* WORMCAST_TABLE_PLANS: nplans struct wormcast_plan and words */
	uint32_t nplans;
	const uint8_t *plans;
	size_t plans_len;
	/* WORMCAST_TABLE_BCAST: nsends struct wormcast_bcast_send */
	uint32_t nsends;
	const struct wormcast_bcast_send *sends;
	/*
	 * WORMCAST_TABLE_FTMESH: nblocks blocks, nnodes safety vectors,
	 * 4 * nnodes + 1 record offsets, nrecs records (4-byte aligned)
	 */
	uint32_t strategy;
	uint32_t flags;
	uint64_t seed;
	uint32_t nblocks;
	uint32_t nrecs;
	const struct wormcast_ftmesh_block *blocks;
	const struct wormcast_ftmesh_safety *safety;
	const uint32_t *rec_off;
	const struct wormcast_ftmesh_rec *recs;
};

/*
 * Decode struct wormcast_trees from @len bytes.  0, or -1 with a message
 * in @err: shorter than the header, ntrees not 1..WORMCAST_MAX_TREES, no
 * node, more than WORMCAST_TREES_MAX_FAULTS faulty links, size not header
 * + ntrees * nnodes + nfaults * 8, a root that is not a node.
 */
int wc_trees_decode(const void *buf, size_t len, struct wc_table_view *v,
		    char *err, size_t errlen);

/*
 * Decode struct wormcast_labels from @len bytes (@buf 4-byte aligned).
 * 0, or -1 with a message in @err: shorter than the header, no node, size
 * not header + 4 * nnodes.  (The kernel checked the labeling itself.)
 */
int wc_labels_decode(const void *buf, size_t len, struct wc_table_view *v,
		     char *err, size_t errlen);

/* Either of the above by @kind; 1 (nothing decoded) for a kind wormctl does not know. */
int wc_table_decode(uint32_t kind, const void *buf, size_t len,
		    struct wc_table_view *v, char *err, size_t errlen);

/*
 * "trees", "labels", "plans", "bcast", "ftmesh", or NULL for a kind wormctl
 * does not know.
 */
const char *wc_table_kind_name(uint32_t kind);

/*
 * One table: a JSON object (kind, gen, size and, for trees, scheme,
 * ntrees, nnodes, roots, with @verbose parent_port; for labels, scheme,
 * nnodes, with @verbose label) or text lines.  @v is NULL for a kind
 * wormctl cannot decode.
 */
void show_table(struct out *o, const struct wc_table_info *t,
		const struct wc_table_view *v, bool verbose);

#endif /* WORMCTL_FABRIC_H */
