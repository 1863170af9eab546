/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * wormcast: emulated multicast-capable wormhole-switched interconnect.
 *
 * The contract between wormcast.ko and userspace: rtnetlink link attributes
 * of the "wormcast" link kind, and the "wormcast" generic netlink family.
 * See Documentation/uapi.rst.
 */
#ifndef _UAPI_LINUX_WORMCAST_H
#define _UAPI_LINUX_WORMCAST_H

#include <linux/types.h>

#define WORMCAST_KIND		"wormcast"

enum wormcast_topology {
	WORMCAST_TOPO_UNSPEC,
	WORMCAST_TOPO_MESH,
	WORMCAST_TOPO_TORUS,
	WORMCAST_TOPO_HYPERCUBE,
	WORMCAST_TOPO_STAR,
	__WORMCAST_TOPO_MAX,
};

/* Role of a wormcast net device. */
enum wormcast_role {
	WORMCAST_ROLE_FABRIC = 1,	/* the device named in "ip link add" */
	WORMCAST_ROLE_NODE,		/* one per emulated node */
};

/*
 * How a fabric carries multicast and broadcast frames (and, under a tree
 * scheme, unicast too).  Documentation/multicast.rst.
 */
enum wormcast_mcast_scheme {
	WORMCAST_MCAST_UNICAST,		/* one unicast worm per member: the papers'
					 * baseline; built in, needs no table */
	WORMCAST_MCAST_SPAM,		/* one spanning tree, up* /down* (SPAM) */
	WORMCAST_MCAST_DSTM1,		/* two edge-disjoint trees, DSTM-1 construction */
	WORMCAST_MCAST_DSTM2,		/* two edge-disjoint trees, DSTM-2 construction */
	WORMCAST_MCAST_RT,		/* two edge-disjoint Roskind-Tarjan trees */
	WORMCAST_MCAST_HAMILTONIAN,	/* one path worm per side of the source, by label */
	WORMCAST_MCAST_DUAL_PATH,	/* dual-path: one worm up, one down the labels */
	WORMCAST_MCAST_MULTIPATH,	/* multipath: up to one worm per source port */
	WORMCAST_MCAST_STAR_TREE,	/* star paper's tree-based multicast (labels) */
	WORMCAST_MCAST_OCMS,		/* optimal-channel multicast star: plans from
					 * the daemon (labels + plans tables) */
	WORMCAST_MCAST_OTMS,		/* optimal-time multicast star: likewise */
	WORMCAST_MCAST_MULTIPHASE,	/* multi-phase unicast: receivers send on,
					 * recursive halving of the label-sorted
					 * chain; built in, needs no table */
	WORMCAST_MCAST_DCF,		/* broadcast: the DCF paper's schedule, receivers
					 * send on (bcast table); multicast as unicast */
	WORMCAST_MCAST_EDN,		/* broadcast: the EDN baseline's schedule;
					 * otherwise as dcf */
	WORMCAST_MCAST_FTMESH,		/* 2-D meshes: fault-tolerant minimal
					 * multicast around faulty blocks (ftmesh
					 * table) */
	__WORMCAST_MCAST_MAX,
};
#define WORMCAST_MCAST_MAX (__WORMCAST_MCAST_MAX - 1)

enum wormcast_replication {
	WORMCAST_REPL_LOCKSTEP,		/* a flit passes a split only when all branches have room */
	WORMCAST_REPL_ASYNC,		/* input-buffer-based asynchronous replication */
};

/*
 * What the sources of a two-tree fabric know of live faults
 * (Documentation/faults.rst, "DSTM around faulty links").
 */
enum wormcast_fault_info {
	WORMCAST_FAULT_INFO_GLOBAL,	/* sources pick the tree that avoids the
					 * faulty links the daemon pushed */
	WORMCAST_FAULT_INFO_LOCAL,	/* sources know nothing; the router before
					 * a faulty link re-injects on the other tree */
};

/*
 * IFLA_INFO_DATA of kind "wormcast".  On RTM_NEWLINK only the attributes
 * marked "in" are accepted; the others are reported by the kernel.
 */
enum {
	IFLA_WORMCAST_UNSPEC,
	IFLA_WORMCAST_TOPOLOGY,		/* in: u32, enum wormcast_topology */
	IFLA_WORMCAST_DIMS,		/* in: binary, 1..3 x u32: mesh/torus sizes,
					 * hypercube dimension, star order n */
	IFLA_WORMCAST_NODE_NAME,	/* in: string, printf pattern with one %d */
	IFLA_WORMCAST_FLIT_BYTES,	/* in: u32, bytes per flit */
	IFLA_WORMCAST_BUF_FLITS,	/* in: u32, flits per virtual channel buffer */
	IFLA_WORMCAST_VCS,		/* in: u32, virtual channels per link */
	IFLA_WORMCAST_INJ_CHANNELS,	/* in: u32, injection channels per node */
	IFLA_WORMCAST_CONS_CHANNELS,	/* in: u32, consumption channels per node */
	IFLA_WORMCAST_ROUTER_DELAY,	/* in: u32, cycles to route a header */
	IFLA_WORMCAST_LINK_DELAY,	/* in: u32, cycles to cross a link */
	IFLA_WORMCAST_STARTUP,		/* in: u32, cycles of startup cost per worm */
	IFLA_WORMCAST_CYCLE_NS,		/* in: u32, 0 = virtual time, else paced */
	IFLA_WORMCAST_REPLICATION,	/* in: u8, enum wormcast_replication */
	IFLA_WORMCAST_WATCHDOG,		/* in: u32, cycles without progress = deadlock */
	IFLA_WORMCAST_QUEUE_LEN,	/* in: u32, injection queue length, frames */
	IFLA_WORMCAST_ROLE,		/* out: u8, enum wormcast_role */
	IFLA_WORMCAST_FABRIC_ID,	/* out: u32 */
	IFLA_WORMCAST_NNODES,		/* out: u32 */
	IFLA_WORMCAST_NODE_ID,		/* out: u32, node devices only */
	IFLA_WORMCAST_COORDS,		/* out: binary, u32 per coordinate */
	IFLA_WORMCAST_FABRIC_IFINDEX,	/* out: u32, fabric device (node devices) */
	IFLA_WORMCAST_MULTICAST,	/* in: u32, enum wormcast_mcast_scheme */
	IFLA_WORMCAST_FAULT_INFO,	/* in: u8, enum wormcast_fault_info */
	IFLA_WORMCAST_SEND_OVH,		/* in: u32, cycles a node spends per send (t_s) */
	IFLA_WORMCAST_RECV_OVH,		/* in: u32, cycles a relay spends per reception (t_r) */
	__IFLA_WORMCAST_MAX,
};
#define IFLA_WORMCAST_MAX (__IFLA_WORMCAST_MAX - 1)

/* ------------------------------------------------------------------ */
/* Generic netlink family */

#define WORMCAST_GENL_NAME		"wormcast"
#define WORMCAST_GENL_VERSION		1
#define WORMCAST_GENL_MCGRP_EVENTS	"events"

enum wormcast_cmd {
	WORMCAST_CMD_UNSPEC,
	WORMCAST_CMD_FABRIC_GET,	/* doit (by FABRIC_IFINDEX/NAME) and dump */
	WORMCAST_CMD_FABRIC_NEW,	/* notification on "events" */
	WORMCAST_CMD_FABRIC_DEL,	/* notification on "events" */
	WORMCAST_CMD_FABRIC_SET,	/* change runtime parameters; CAP_NET_ADMIN;
					 * also the "events" notification of a change */
	WORMCAST_CMD_STATS_GET,		/* doit: fabric counters, engine and per-node stats */
	/*
	 * Routing tables (Documentation/uapi.rst, "Tables").  A table is
	 * installed by a transaction: TABLE_NEW (KIND, SIZE, and GEN, the
	 * fabric's generation the table was computed against) replies with a
	 * TXN; TABLE_CHUNK (TXN, OFFSET, DATA) appends bytes in order;
	 * TABLE_COMMIT (TXN) validates the whole table and publishes it if the
	 * fabric's generation is still GEN, replying with the new GEN.  All or
	 * nothing: a refused or abandoned transaction changes nothing.  Writes
	 * need CAP_NET_ADMIN in the fabric's netns.
	 */
	WORMCAST_CMD_TABLE_NEW,
	WORMCAST_CMD_TABLE_CHUNK,
	WORMCAST_CMD_TABLE_COMMIT,	/* also the "events" notification of a commit */
	WORMCAST_CMD_TABLE_ABORT,	/* drop the open transaction (TXN) */
	WORMCAST_CMD_TABLE_GET,		/* doit: KIND, GEN, SIZE of a table;
					 * dump: its bytes, as OFFSET + DATA */
	WORMCAST_CMD_LINKS_GET,		/* dump only (FABRIC_IFINDEX/NAME required):
					 * busy and blocked cycles per physical
					 * channel, as LINKS nests; only from the
					 * fabric device's netns */
	/*
	 * Live faults (Documentation/faults.rst, "Live faults"): FAULT_ADD and
	 * FAULT_DEL take one FAULT nest (KIND, NODE, and PEER for a link);
	 * CAP_NET_ADMIN in the fabric's netns; EEXIST / ENOENT when the
	 * fault is already there / not there.  Each change is announced on
	 * "events" with the same command and FAULT nest.  FAULT_GET: dump of
	 * the faults as FAULTS nests of FAULT.
	 */
	WORMCAST_CMD_FAULT_ADD,
	WORMCAST_CMD_FAULT_DEL,
	WORMCAST_CMD_FAULT_GET,
	WORMCAST_CMD_GROUPS_GET,	/* dump only (FABRIC_IFINDEX/NAME required):
					 * the multicast groups the nodes' rx
					 * filters hold, each with its receivers
					 * (GROUPS, GROUPS_GEN); also the "events"
					 * notification of a membership change
					 * (identity, GROUPS_GEN), coalesced */
	__WORMCAST_CMD_MAX,
};
#define WORMCAST_CMD_MAX (__WORMCAST_CMD_MAX - 1)

enum wormcast_attr {
	WORMCAST_A_UNSPEC,
	WORMCAST_A_FABRIC_IFINDEX,	/* u32: in requests, a device of the fabric in
					 * the caller's netns; in replies, the
					 * fabric device (see FABRIC_NETNSID) */
	WORMCAST_A_FABRIC_NAME,		/* string: in requests, a device of the fabric
					 * in the caller's netns; in replies, the
					 * fabric device's, if in the caller's netns */
	WORMCAST_A_FABRIC_ID,		/* u32 */
	WORMCAST_A_TOPOLOGY,		/* u32, enum wormcast_topology */
	WORMCAST_A_DIMS,		/* binary, u32 array */
	WORMCAST_A_NNODES,		/* u32 */
	WORMCAST_A_PARAMS,		/* nest, WORMCAST_PARAM_* */
	WORMCAST_A_NODES,		/* nest of WORMCAST_A_NODE */
	WORMCAST_A_NODE,		/* nest, WORMCAST_NODE_* */
	WORMCAST_A_COUNTERS,		/* nest, WORMCAST_CNT_* (u64), whole fabric;
					 * only to callers in the fabric's netns */
	WORMCAST_A_ENGINE,		/* nest, WORMCAST_ENG_* (u64); likewise */
	WORMCAST_A_PAD,
	WORMCAST_A_NODES_TRUNCATED,	/* flag: doit reply holds only the first nodes;
					 * the dump has them all */
	WORMCAST_A_FABRIC_NETNSID,	/* s32: the fabric device's netns as seen
					 * from the caller's, when it is another
					 * one (then FABRIC_NAME is left out) */
	WORMCAST_A_TABLE_KIND,		/* u32, enum wormcast_table_kind */
	WORMCAST_A_TABLE_GEN,		/* u32: a fabric's table generation; 0 = none
					 * committed yet (built-in routing) */
	WORMCAST_A_TABLE_SIZE,		/* u32, bytes, at most WORMCAST_TABLE_MAX_BYTES */
	WORMCAST_A_TABLE_TXN,		/* u32, transaction handle from TABLE_NEW */
	WORMCAST_A_TABLE_OFFSET,	/* u32, byte offset of DATA in the table */
	WORMCAST_A_TABLE_DATA,		/* binary, at most WORMCAST_TABLE_CHUNK_MAX */
	WORMCAST_A_TABLES,		/* nest of WORMCAST_A_TABLE (FABRIC_GET) */
	WORMCAST_A_TABLE,		/* nest: TABLE_KIND, TABLE_GEN, TABLE_SIZE */
	WORMCAST_A_LINKS,		/* nest of WORMCAST_A_LINK (LINKS_GET) */
	WORMCAST_A_LINK,		/* nest, WORMCAST_LINK_* */
	WORMCAST_A_FAULTS,		/* nest of WORMCAST_A_FAULT (FAULT_GET) */
	WORMCAST_A_FAULT,		/* nest, WORMCAST_FAULT_* */
	WORMCAST_A_GROUPS_GEN,		/* u32: the fabric's membership generation,
					 * bumped by every membership change */
	WORMCAST_A_GROUPS,		/* nest of WORMCAST_A_GROUP (GROUPS_GET) */
	WORMCAST_A_GROUP,		/* nest, WORMCAST_GROUP_* */
	__WORMCAST_A_MAX,
};
#define WORMCAST_A_MAX (__WORMCAST_A_MAX - 1)

enum wormcast_param {
	WORMCAST_PARAM_UNSPEC,
	WORMCAST_PARAM_FLIT_BYTES,	/* u32 */
	WORMCAST_PARAM_BUF_FLITS,	/* u32 */
	WORMCAST_PARAM_VCS,		/* u32 */
	WORMCAST_PARAM_INJ_CHANNELS,	/* u32 */
	WORMCAST_PARAM_CONS_CHANNELS,	/* u32 */
	WORMCAST_PARAM_ROUTER_DELAY,	/* u32 */
	WORMCAST_PARAM_LINK_DELAY,	/* u32 */
	WORMCAST_PARAM_STARTUP,		/* u32 */
	WORMCAST_PARAM_CYCLE_NS,	/* u32, settable with FABRIC_SET */
	WORMCAST_PARAM_REPLICATION,	/* u8 */
	WORMCAST_PARAM_WATCHDOG,	/* u32, settable with FABRIC_SET */
	WORMCAST_PARAM_QUEUE_LEN,	/* u32 */
	WORMCAST_PARAM_MULTICAST,	/* u32, enum wormcast_mcast_scheme, settable
					 * with FABRIC_SET */
	WORMCAST_PARAM_FAULT_INFO,	/* u8, enum wormcast_fault_info, settable
					 * with FABRIC_SET */
	WORMCAST_PARAM_SEND_OVH,	/* u32, cycles, settable with FABRIC_SET */
	WORMCAST_PARAM_RECV_OVH,	/* u32, cycles, settable with FABRIC_SET */
	__WORMCAST_PARAM_MAX,
};
#define WORMCAST_PARAM_MAX (__WORMCAST_PARAM_MAX - 1)

enum wormcast_node_attr {
	WORMCAST_NODE_UNSPEC,
	WORMCAST_NODE_ID,		/* u32 */
	WORMCAST_NODE_IFINDEX,		/* u32, in the node device's netns */
	WORMCAST_NODE_NETNSID,		/* s32, as seen from the caller; -1 = same netns */
	WORMCAST_NODE_IFNAME,		/* string; only for nodes in the caller's netns */
	WORMCAST_NODE_COORDS,		/* binary, u32 array */
	WORMCAST_NODE_ADDRESS,		/* binary, 6 bytes */
	WORMCAST_NODE_COUNTERS,		/* nest, WORMCAST_CNT_* (u64); only for nodes in
					 * the caller's netns, or to callers in the
					 * fabric's netns */
	WORMCAST_NODE_PAD,
	__WORMCAST_NODE_MAX,
};
#define WORMCAST_NODE_MAX (__WORMCAST_NODE_MAX - 1)

/*
 * Counters, per node and summed per fabric.  Every frame handed to a node
 * is either delivered to each destination or counted under one DROP_*
 * reason; in the default configuration the DROP_* counters stay at zero.
 */
enum wormcast_counter {
	WORMCAST_CNT_UNSPEC,
	WORMCAST_CNT_TX_FRAMES,		/* frames accepted for carriage */
	WORMCAST_CNT_TX_BYTES,
	WORMCAST_CNT_RX_FRAMES,		/* copies delivered to this node */
	WORMCAST_CNT_RX_BYTES,
	WORMCAST_CNT_TX_NO_RECEIVER,	/* multicast/broadcast nobody accepts: filtered, not lost */
	WORMCAST_CNT_WORMS_INJECTED,
	WORMCAST_CNT_FLITS_INJECTED,
	WORMCAST_CNT_WORMS_CONSUMED,
	WORMCAST_CNT_FLITS_CONSUMED,
	WORMCAST_CNT_DROP_UNKNOWN_DST,	/* unicast to a MAC of no node of the fabric */
	WORMCAST_CNT_DROP_DST_DOWN,	/* unicast destination device is down */
	WORMCAST_CNT_DROP_SELF,		/* unicast to the sender's own address */
	WORMCAST_CNT_DROP_NOMEM,	/* a datapath allocation failed (the message
					 * at injection, or a destination's clone) */
	WORMCAST_CNT_DROP_FABRIC_DOWN,	/* in flight while the fabric was deleted */
	WORMCAST_CNT_DROP_BAD_FRAME,	/* shorter than an Ethernet header */
	WORMCAST_CNT_DROP_RX_ERROR,	/* netif_receive refused the frame */
	WORMCAST_CNT_PAD,
	WORMCAST_CNT_DROP_ROUTE_ERROR,	/* a worm was drained after a routing error */
	WORMCAST_CNT_DROP_NOT_A_NODE,	/* sent on the fabric device, which carries none */
	WORMCAST_CNT_RX_FILTER_FALLBACK, /* rx filter snapshot allocation failed:
					  * node accepted all multicast meanwhile */
	WORMCAST_CNT_DROP_DEADLOCK,	/* flushed after the deadlock watchdog fired */
	WORMCAST_CNT_TABLE_FALLBACK,	/* frames routed by the built-in scheme because
					 * the fabric's scheme has no committed table */
	WORMCAST_CNT_DROP_STRAY,	/* a copy consumed at a node that was not a
					 * destination (bad tables): not delivered */
	WORMCAST_CNT_FAULT_DROPS,	/* destinations not reached because a link or
					 * node on the way failed (per destination) */
	WORMCAST_CNT_PLAN_FALLBACK,	/* ocms/otms multicast sent by dual-path: no
					 * plan installed for (source, group) or
					 * its members differ from the frame's */
	WORMCAST_CNT_FAULT_REINJECTED,	/* fault-info local: worms re-injected by the
					 * router before a fault (not a drop) */
	WORMCAST_CNT_FAULT_REINJECT_DROPS, /* fault-info local: destinations a
					 * re-injected worm did not reach either */
	__WORMCAST_CNT_MAX,
};
#define WORMCAST_CNT_MAX (__WORMCAST_CNT_MAX - 1)

/*
 * One multicast group of a fabric in a GROUPS_GET dump: its address and
 * the nodes a frame to it reaches (the nodes whose rx filter holds the
 * address or accepts all multicast, and whose device is up).
 */
enum wormcast_group_attr {
	WORMCAST_GROUP_UNSPEC,
	WORMCAST_GROUP_ADDRESS,		/* binary, 6 bytes: multicast MAC */
	WORMCAST_GROUP_NMEMBERS,	/* u32 */
	WORMCAST_GROUP_MEMBERS,		/* binary: bitmap of nodes, u32 words
					 * (host order), bit n of word n / 32 */
	WORMCAST_GROUP_UNPLANNED,	/* binary, bitmap as MEMBERS: under
					 * ocms/otms, sources that found no
					 * plan for the group (if any) */
	__WORMCAST_GROUP_MAX,
};
#define WORMCAST_GROUP_MAX (__WORMCAST_GROUP_MAX - 1)

/*
 * One physical channel (directed link, all its VCs) in a LINKS_GET dump.
 * BUSY: cycles in which a flit entered it.  BLOCKED: header-cycles in which
 * a header at NODE, routed to PORT, found no free VC of it (or the link
 * carrying a flit that cycle); Documentation/engine.rst.
 */
enum wormcast_link_attr {
	WORMCAST_LINK_UNSPEC,
	WORMCAST_LINK_NODE,		/* u32: upstream node */
	WORMCAST_LINK_PORT,		/* u32: output port of NODE */
	WORMCAST_LINK_PEER,		/* u32: downstream node */
	WORMCAST_LINK_BUSY,		/* u64, cycles */
	WORMCAST_LINK_BLOCKED,		/* u64, header-cycles */
	WORMCAST_LINK_PAD,
	__WORMCAST_LINK_MAX,
};
#define WORMCAST_LINK_MAX (__WORMCAST_LINK_MAX - 1)

/* A live fault (FAULT_ADD, FAULT_DEL, FAULT_GET). */
enum wormcast_fault_kind {
	WORMCAST_FAULT_KIND_UNSPEC,
	WORMCAST_FAULT_KIND_LINK,	/* both directions between NODE and PEER */
	WORMCAST_FAULT_KIND_NODE,	/* NODE, its router and all its links */
	__WORMCAST_FAULT_KIND_MAX,
};
#define WORMCAST_FAULT_KIND_MAX (__WORMCAST_FAULT_KIND_MAX - 1)

enum wormcast_fault_attr {
	WORMCAST_FAULT_UNSPEC,
	WORMCAST_FAULT_KIND,		/* u32, enum wormcast_fault_kind */
	WORMCAST_FAULT_NODE,		/* u32: the node, or a link's one end */
	WORMCAST_FAULT_PEER,		/* u32: a link's other end (adjacent) */
	__WORMCAST_FAULT_MAX,
};
#define WORMCAST_FAULT_MAX (__WORMCAST_FAULT_MAX - 1)

/* Engine statistics of a fabric (u64). */
enum wormcast_engine_stat {
	WORMCAST_ENG_UNSPEC,
	WORMCAST_ENG_CYCLES,		/* cycles simulated */
	WORMCAST_ENG_WORMS_IN_FLIGHT,
	WORMCAST_ENG_FLIT_HOPS,		/* flits moved across links */
	WORMCAST_ENG_WORMS_DONE,
	WORMCAST_ENG_LATENCY_SUM,	/* cycles, injection to tail consumed, per destination */
	WORMCAST_ENG_LATENCY_MAX,
	WORMCAST_ENG_BLOCKED_CYCLES,	/* header cycles spent waiting for channels */
	WORMCAST_ENG_DEADLOCKS,		/* watchdog reports */
	WORMCAST_ENG_PAD,
	WORMCAST_ENG_HOPS_SUM,		/* links crossed, per destination */
	WORMCAST_ENG_ROUTE_ERRORS,	/* worms drained after a routing error */
	WORMCAST_ENG_MEM_BYTES,		/* kernel memory of the engine and the fabric's
					 * glue state, node net devices excluded */
	WORMCAST_ENG_FAULT_ABSORBED,	/* worm branches absorbed at a live fault */
	WORMCAST_ENG_FAULT_DROPS,	/* destinations not reached because of a live
					 * fault (the nodes' fault_drops and
					 * fault_reinject_drops summed, unless
					 * messages were flushed) */
	WORMCAST_ENG_FAULT_REINJECTED,	/* fault-info local: worms re-injected */
	__WORMCAST_ENG_MAX,
};
#define WORMCAST_ENG_MAX (__WORMCAST_ENG_MAX - 1)

/* ------------------------------------------------------------------ */
/* Tables: what TABLE_CHUNK carries, in host byte order */

enum wormcast_table_kind {
	WORMCAST_TABLE_UNSPEC,
	WORMCAST_TABLE_TREES,		/* struct wormcast_trees: spanning trees */
	WORMCAST_TABLE_LABELS,		/* struct wormcast_labels: Hamiltonian labels */
	WORMCAST_TABLE_PLANS,		/* struct wormcast_plans: ocms/otms plans */
	WORMCAST_TABLE_BCAST,		/* struct wormcast_bcast: dcf/edn schedule */
	WORMCAST_TABLE_FTMESH,		/* struct wormcast_ftmesh: fault blocks */
	__WORMCAST_TABLE_MAX,
};
#define WORMCAST_TABLE_MAX (__WORMCAST_TABLE_MAX - 1)

#define WORMCAST_TABLE_MAX_BYTES	(4u << 20)	/* one table */
#define WORMCAST_TABLE_CHUNK_MAX	65024u		/* one DATA attribute */
#define WORMCAST_MAX_TREES		2
#define WORMCAST_NO_PORT		0xff

/*
 * WORMCAST_TABLE_TREES: @ntrees spanning trees of the fabric's topology,
 * each given by the port through which every node reaches its parent
 * (WORMCAST_NO_PORT at the tree's root): @ntrees x @nnodes bytes follow
 * the header, tree after tree.  The kernel checks that each is a spanning
 * tree (every port leads to a neighbour, one root, no cycle), that the
 * trees are edge-disjoint, and that @ntrees fits @scheme (SPAM: 1; DSTM-1,
 * DSTM-2, RT: 2).  Post-order numbers, subtree intervals and levels are
 * derived from it, children taken in increasing port order.
 *
 * Then @nfaults struct wormcast_trees_fault (at most
 * WORMCAST_TREES_MAX_FAULTS): the faulty links the daemon planned for
 * (Documentation/faults.rst, "DSTM around faulty links" and "SPAM around
 * faulty links").  Each names a link of the topology by one end and its
 * port; no link twice.  Two trees: the sources and routers route around
 * them.  SPAM: the tree must avoid them (none is a tree link), and the
 * up cross links skip them.  They follow the parent ports directly, so
 * they may be unaligned.  A table without faults ends after the parent
 * ports.
 */
struct wormcast_trees {
	__u32 scheme;			/* enum wormcast_mcast_scheme */
	__u32 nnodes;			/* the fabric's */
	__u32 ntrees;
	__u32 root[WORMCAST_MAX_TREES];	/* unused entries 0 */
	__u32 nfaults;			/* faulty links after parent_port */
	__u8 parent_port[];		/* ntrees * nnodes */
};

#define WORMCAST_TREES_MAX_FAULTS	256	/* a trees or labels table's */

/*
 * A faulty link of a trees or labels table: @node and its port @port
 * (the link type of both tables).
 */
struct wormcast_trees_fault {
	__u32 node;
	__u32 port;
};

/*
 * WORMCAST_TABLE_LABELS: a Hamiltonian labeling of the fabric's topology
 * for the label-based schemes (hamiltonian, dual-path, multipath,
 * star-tree, ocms, otms): @nnodes u32 labels follow the header,
 * label[node], then @nfaults struct wormcast_trees_fault (at most
 * WORMCAST_TREES_MAX_FAULTS): the faulty links the labeling avoids
 * (Documentation/faults.rst, "Label schemes around faulty links").  The
 * kernel checks that the labels are a permutation of 0..nnodes-1 in which
 * nodes with consecutive labels are neighbours over a link that is not
 * faulty (a Hamiltonian path of the topology without its faulty links),
 * that each faulty link is a link of the topology listed once (by either
 * end), and that @scheme is a label-based scheme the fabric can run.  The
 * routers treat the faulty links as absent.  A table without faults
 * (@nfaults 0) ends after the labels.
 */
struct wormcast_labels {
	__u32 scheme;			/* enum wormcast_mcast_scheme */
	__u32 nnodes;			/* the fabric's */
	__u32 nfaults;			/* faulty links after label[] */
	__u32 reserved;			/* 0 */
	__u32 label[];			/* nnodes */
};

/*
 * WORMCAST_TABLE_PLANS: the multicast plans the daemon made, one per
 * (source node, group): @nplans plans follow the header in strictly
 * increasing (source, address) order (the address compared bytewise),
 * each a struct wormcast_plan and its @nwords u32 words: for each of its
 * @nworms worms, the worm's destination count then its destinations in
 * visiting order.  A plan is used for a frame from @src to @addr only
 * when its destinations are exactly the frame's receivers (ftmesh: the
 * receivers the source reaches minimally).  Common checks: sizes within
 * the bounds below, nodes in range, no (source, group) twice, every worm
 * non-empty, no destination twice and never the source.
 *
 * @scheme 0: the multicast stars of ocms and otms, destinations as node
 * ids, checked against the committed labels table (of scheme ocms or
 * otms): every worm label-monotone away from the source (routing R
 * reaches its destinations in that order), the worms leaving the source
 * through distinct ports.
 *
 * @scheme WORMCAST_MCAST_FTMESH: Strategy 3 plans of the safety-level
 * paper, checked against the committed ftmesh table (of strategy 3): at
 * most 4 worms, one per subnetwork in increasing order (0 +X+Y, 1 +X-Y,
 * 2 -X+Y, 3 -X-Y, from the source), each word a destination's node id
 * (bits 0-15, WORMCAST_PLAN_FTM_NODE) and its choices (bits 16-29,
 * WORMCAST_PLAN_FTM_CHOICES): at each router where the worm is in
 * conflict and the destination undetermined, in path order from bit 16,
 * 0 for +X and 1 for +Y of the subnetwork's canonical frame; no other
 * bit; every destination outside the blocks and extended safe from the
 * source, which is outside them (Documentation/faults.rst, "Strategy 3
 * in the kernel").
 */
#define WORMCAST_PLAN_FTM_NODE		0x0000ffffu
#define WORMCAST_PLAN_FTM_CHOICES	0x3fff0000u
#define WORMCAST_PLANS_MAX		65536	/* plans in a table */

struct wormcast_plans {
	__u32 nnodes;			/* the fabric's */
	__u32 nplans;
	__u32 scheme;			/* 0 (ocms/otms) or WORMCAST_MCAST_FTMESH */
	__u32 reserved;			/* 0 */
};

struct wormcast_plan {
	__u8 addr[6];			/* the group's multicast MAC */
	__u16 reserved;			/* 0 */
	__u32 src;			/* source node */
	__u32 nworms;			/* 1 .. the source's ports (ftmesh: 4) */
	__u32 nwords;			/* nworms + destinations */
};

/*
 * WORMCAST_TABLE_BCAST: the broadcast schedule of the dcf and edn schemes,
 * for a source at (0, 0) of the fabric's n x n torus (n a power of two, 4
 * to 64): @nsends = @nnodes - 1 struct wormcast_bcast_send follow the
 * header, each a unicast of the broadcast from the sender at offset @from
 * to the receiver at offset @to (offsets are node ids x + n * y of the
 * coordinates relative to the source, modulo n), in the order the senders
 * handle them.  The kernel relays a broadcast from source s along the
 * schedule moved by s's coordinates, so one table serves every source.
 * It checks: the torus, @scheme dcf or edn, @nnodes the fabric's, the
 * sizes, steps from 1 to WORMCAST_BCAST_MAX_STEPS, offsets in range,
 * every node but the source (offset 0) received exactly once, every sender
 * the source or received in an earlier step than it sends, and each
 * sender's unicasts in non-decreasing step order.
 */
#define WORMCAST_BCAST_MAX_STEPS	64

struct wormcast_bcast {
	__u32 scheme;			/* WORMCAST_MCAST_DCF or _EDN */
	__u32 nnodes;			/* the fabric's: n * n */
	__u32 nsends;			/* nnodes - 1 */
	__u32 reserved;			/* 0 */
};

struct wormcast_bcast_send {
	__u32 step;			/* 1 .. WORMCAST_BCAST_MAX_STEPS */
	__u32 from;			/* sender's offset from the source */
	__u32 to;			/* receiver's offset */
};

/*
 * WORMCAST_TABLE_FTMESH: the fault information of the ftmesh scheme on a
 * 2-D mesh (the safety-level paper; Documentation/faults.rst, "ftmesh in
 * the kernel"): after the header, @nblocks struct wormcast_ftmesh_block
 * (the faulty blocks, physical coordinates, node id = x + w * y), @nnodes
 * struct wormcast_ftmesh_safety (each node's safety vector), the u32
 * record offsets rec_off[4 * nnodes + 1] (node n of subnetwork q holds
 * records rec_off[q * nnodes + n] .. rec_off[q * nnodes + n + 1] - 1),
 * then @nrecs struct wormcast_ftmesh_rec.  Subnetworks q: 0 +X+Y, 1 +X-Y,
 * 2 -X+Y, 3 -X-Y; a record's line is read in q's canonical frame, where
 * the subnetwork travels +X and +Y.
 */
#define WORMCAST_FTMESH_MAX_BLOCKS	65536	/* blocks in a table */
#define WORMCAST_FTMESH_SUBNETS		4
#define WORMCAST_FTMESH_F_DETOUR	0x1	/* left-out destinations: a
						 * detour worm (8 VCs) */
#define WORMCAST_FTMESH_SAFETY_INF	0xffff	/* no block that way */

struct wormcast_ftmesh {
	__u32 nnodes;			/* the fabric's: w * h */
	__u32 strategy;			/* 1, 2 or 3 (the paper's Strategies) */
	__u32 flags;			/* WORMCAST_FTMESH_F_* */
	__u32 nblocks;
	__u32 nrecs;
	__u32 reserved;			/* 0 */
	__u64 seed;			/* Strategy 1's random bits */
};

/* A faulty block: the rectangle x0..x1, y0..y1, bounds included. */
struct wormcast_ftmesh_block {
	__u16 x0;
	__u16 y0;
	__u16 x1;
	__u16 y1;
};

/* Hops to the closest block east (+X), south (-Y), west, north; 0 inside. */
struct wormcast_ftmesh_safety {
	__u16 e;
	__u16 s;
	__u16 w;
	__u16 n;
};

/* A block record held by a router: which block, on which adjacent line. */
struct wormcast_ftmesh_rec {
	__u32 block;			/* index into the blocks */
	__u8 line;			/* 1: L1 (row below, west part),
					 * 2: L3 (column left, south part) */
	__u8 reserved[3];		/* 0 */
};

/*
 * Capture records (Documentation/kernel.rst, "Capture"): what the fabric
 * device hands to packet sockets (tcpdump -i FABRIC), one per message,
 * once all its worms are finished.  On the fabric device a record follows
 * an Ethernet header of type WORMCAST_ETH_P_CAPTURE (IEEE 802 Local
 * Experimental Ethertype 2); files holding bare records use link type
 * WORMCAST_LINKTYPE (LINKTYPE_USER0).  Every field is little-endian.
 * Layout: struct wormcast_cap_hdr, @ndsts struct wormcast_cap_dst (by
 * node), @nlinks struct wormcast_cap_link (in reservation order), then
 * the frame (@frame_len bytes) from byte @hdr_len on.
 */
#define WORMCAST_ETH_P_CAPTURE		0x88b6
#define WORMCAST_LINKTYPE		147
#define WORMCAST_CAP_VERSION		1
#define WORMCAST_CAP_F_ABORTED		0x1	/* flushed: not every destination reached */
#define WORMCAST_CAP_F_TRUNCATED	0x2	/* links or destinations missing */
#define WORMCAST_CAP_NO_WORM		0xFFFFFFFFu	/* destination not reached */

struct wormcast_cap_hdr {
	__u16 version;			/* WORMCAST_CAP_VERSION */
	__u16 hdr_len;			/* bytes before the frame */
	__u32 flags;			/* WORMCAST_CAP_F_* */
	__u32 fabric;			/* fabric id (as in the MACs) */
	__u32 src;			/* source node */
	__u32 scheme;			/* enum wormcast_mcast_scheme */
	__u32 table_gen;		/* generation of the tables; 0: built-in */
	__u32 ndsts;
	__u32 nlinks;
	__u32 nworms;			/* worms the message was cut into */
	__u32 frame_len;
	__u64 submit;			/* cycle the message was submitted */
	__u64 done;			/* cycle its last worm finished */
	__u64 blocked;			/* header-cycles blocked on an output */
};

struct wormcast_cap_dst {
	__u32 node;
	__u32 worm;			/* worm that reached it, or WORMCAST_CAP_NO_WORM */
	__u64 inject;			/* cycle that worm took its injection channel */
	__u64 consume;			/* cycle its tail was consumed here */
};

struct wormcast_cap_link {
	__u16 node;			/* router the channel leaves */
	__u8 port;			/* output port (topology port numbering) */
	__u8 vc;			/* virtual channel */
	__u32 worm;			/* worm of the message, from 0 */
};

#endif /* _UAPI_LINUX_WORMCAST_H */
