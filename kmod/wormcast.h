/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wormcast kernel glue: internal declarations shared by the files of
 * kmod/ (one concern per file, see Documentation/kernel.rst).
 *
 * Objects:
 *  - struct wc_fabric: one per "ip link add ... type wormcast".  It owns the
 *    engine, two NAPI contexts (attached to the fabric device: one runs the
 *    engine, one delivers its copies), the nodes' injection queues and
 *    counters.  Every registered device of the fabric
 *    holds a reference; the last device's priv_destructor frees it.
 *  - struct wc_node: per emulated node state, inside the fabric (not in the
 *    node device's priv) so that it outlives the device during teardown.
 *  - struct wc_priv: the priv area of every wormcast net device.
 *
 * Locking:
 *  - RTNL: fabric creation/deletion, the global fabric list, node->dev,
 *    fabric->dying, and every generic netlink handler (they take RTNL).
 *  - node->txq.lock: the injection queue, the node's queue state and the
 *    tx-side counters (written from ndo_start_xmit and the NAPI poll).
 *  - fabric->engine_lock (BH): the engine; held by the NAPI poll while it
 *    injects and runs, and by readers of engine statistics.
 *  - fabric->mc->lock (BH): writers of the membership index (dstset.h),
 *    from ndo_set_rx_mode (under the node's address list lock) and
 *    ndo_open/ndo_stop/ndo_uninit (RTNL); never sleeps.
 *  - RCU: the index's groups and the published tables
 *    (fabric->tables.slot[], struct wc_table, kmod/tables.c).
 *  - fabric->tables.lock (mutex): a fabric's table transaction, its slots
 *    and its generation (writers; tables.c takes it).
 *  - fabric->rx_lock (BH): the copies handed from the engine's poll to
 *    the delivery poll (rx_handed, rx_taken) and fabric->rx_full.
 *  - The engine's NAPI poll (and wc_fabric_stop() once NAPI is disabled)
 *    is the only writer of node->napi_cnt and of fabric->rx_head and the
 *    ring entries from rx_tail on; the delivery poll (likewise) the only
 *    writer of node->rx_cnt.  The two polls may run at once on two CPUs.
 */
#ifndef WC_WORMCAST_H
#define WC_WORMCAST_H

#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <linux/kref.h>
#include <linux/mutex.h>
#include <linux/refcount.h>
#include <linux/rcupdate.h>
#include <linux/hrtimer.h>
#include <linux/u64_stats_sync.h>
#include <net/rtnetlink.h>
#include <net/genetlink.h>
#include <linux/wormcast.h>

#include "engine.h"
#include "topology.h"
#include "tree_mcast.h"
#include "path_mcast.h"
#include "plans.h"
#include "bcast.h"
#include "plh.h"
#include "ftm_set.h"
#include "mcast_kind.h"
#include "dstset.h"

#define WC_QUEUE_LEN_DEFAULT	256	/* injection queue, frames */
#define WC_QUEUE_LEN_MIN	2
#define WC_QUEUE_LEN_MAX	65536
#define WC_CYCLE_NS_MAX		1000000000u	/* paced mode: at most 1 s/cycle */
#define WC_OVH_MAX		1000000u	/* send_ovh, recv_ovh: cycles */
#define WC_ENGINE_BACKLOG	2	/* messages queued in the engine per node */
#define WC_POLL_CYCLES		4096	/* engine cycles per run in a poll */
#define WC_POLL_RUNS		8	/* engine runs per poll before yielding */
#define WC_RX_HANDOFF_MAX	256	/* copies waiting for delivery before
					 * the engine waits for them
					 */
#define WC_GROUPS_NOTIFY_MS	5	/* membership changes coalesced per event */
#define WC_DRV_VERSION		"0.1"	/* ethtool -i, modinfo */
/*
 * Fabric time in virtual-time mode (cycle_ns 0): nanoseconds per cycle,
 * from an epoch of 1 s at cycle 0 (the core reports no zero timestamp).
 */
#define WC_VIRTUAL_CYCLE_NS	1
#define WC_VIRTUAL_EPOCH_NS	1000000000ull

/*
 * The xmit path and the delivery poll write few counters; each gets a small
 * array of its own (1024 nodes make every byte count).  WC_TX_* and WC_RX_*
 * index them; fabric.c maps them to enum wormcast_counter.
 */
enum {
	WC_TX_FRAMES,
	WC_TX_BYTES,
	WC_TX_DROP_FABRIC_DOWN,
	WC_TX_DROP_BAD_FRAME,
	WC_TX_NCOUNTERS,
};

enum {
	WC_RX_FRAMES,
	WC_RX_BYTES,
	WC_RX_DROP_DST_DOWN,		/* at the sender */
	WC_RX_DROP_NOMEM,
	WC_RX_DROP_RX_ERROR,
	WC_RX_NCOUNTERS,
};

#define WC_SIDE_NCOUNTERS	WC_RX_NCOUNTERS	/* the larger (fabric.c checks) */

/* One writer context's small counter array (xmit or delivery). */
struct wc_side_counters {
	struct u64_stats_sync syncp;
	u64_stats_t c[WC_SIDE_NCOUNTERS];
};

/* Counters of the NAPI poll, summed by readers. */
struct wc_counters {
	struct u64_stats_sync syncp;
	u64_stats_t c[WORMCAST_CNT_MAX + 1];
};

struct wc_fabric;
struct wc_table_ops;

/*
 * Routing tables (kmod/tables.c).  A table is an immutable, refcounted
 * object published by RCU in its fabric's slot for its kind: the raw bytes
 * userspace committed (read back by TABLE_GET) and what the engine runs
 * on, built from them.  The slot holds one reference; the NAPI poll pins
 * (holds another on) the table its engine runs on.  The last put frees it
 * after a grace period.
 */
struct wc_table {
	struct rcu_head rcu;
	refcount_t ref;
	const struct wc_table_ops *ops;	/* of its kind; NULL until built */
	u32 kind;			/* enum wormcast_table_kind */
	u32 gen;			/* fabric generation it was committed as */
	u32 size;			/* bytes */
	const void *bytes;		/* kvmalloc'ed, as committed */
	size_t mem;			/* bytes allocated for it, all in */
	union {				/* what the engine routes by */
		struct wc_tree_set trees;	/* WORMCAST_TABLE_TREES */
		struct wc_label_set labels;	/* WORMCAST_TABLE_LABELS */
		struct wc_plan_set plans;	/* WORMCAST_TABLE_PLANS */
		struct wc_bcast_set bcast;	/* WORMCAST_TABLE_BCAST */
		struct wc_ftm_set ftm;		/* WORMCAST_TABLE_FTMESH */
	} u;
};

struct wc_tables;

/*
 * How a kind of table is built from its bytes and freed, and what the
 * engine runs on it.  build() is called with @t->bytes and @t->size set;
 * it validates them completely and fills t->u, or returns an error with
 * *@why set (static string); @ts is the fabric's, its lock held (a table
 * may be checked against another kind's published one).  The engine gets
 * &t->u as its tables.
 */
struct wc_table_ops {
	int (*build)(struct wc_table *t, struct wc_tables *ts,
		     const char **why);
	void (*destroy)(struct wc_table *t);
	size_t (*mem)(const struct wc_table *t);
	u32 (*scheme)(const struct wc_table *t);	/* the scheme it serves */
	const struct wc_algo *algo;
};

/* The open transaction of a fabric: TABLE_NEW .. TABLE_COMMIT/ABORT. */
struct wc_table_txn {
	u32 id;
	u32 kind;
	u32 gen;			/* generation it was computed against */
	u32 size;			/* announced */
	u32 received;			/* bytes so far, in order */
	void *buf;			/* kvmalloc'ed, @size bytes */
};

/*
 * A fabric's tables: one slot per kind, a generation (0 = nothing ever
 * committed; +1 on every commit) and at most one open transaction.  No
 * netlink and no fabric in here: the generic netlink handlers and KUnit
 * drive it through the wc_table_* functions, which take @lock.
 */
struct wc_tables {
	struct mutex lock;		/* the writers: transaction, slots, gen */
	const struct wc_topo *topo;
	const struct wc_engine_params *params;
	const struct wc_table_ops *ops;	/* [WORMCAST_TABLE_MAX + 1] */
	u32 gen;			/* under @lock; READ_ONCE elsewhere */
	u32 last_txn;
	struct wc_table_txn *txn;	/* open transaction, or NULL */
	struct wc_table __rcu *slot[WORMCAST_TABLE_MAX + 1];
};

struct wc_node {
	struct wc_fabric *fabric;
	struct net_device *dev;		/* NULL until registered */
	u32 id;
	struct sk_buff_head txq;	/* injection queue */
	struct wc_side_counters tx_cnt;	/* under txq.lock */
	struct wc_side_counters rx_cnt;	/* the delivery poll only */
	struct wc_counters napi_cnt;	/* the engine's poll only */
	atomic64_t rxf_fallbacks;	/* index updates that failed */
	/* cycle its processor's last send ends (wc_send_due(), engine lock) */
	u64 cpu_free;
	/* hardware timestamping (SIOCSHWTSTAMP): RTNL writes, READ_ONCE */
	bool ts_tx;			/* HWTSTAMP_TX_ON */
	bool ts_rx;			/* HWTSTAMP_FILTER_ALL */
};

struct wc_fabric {
	struct list_head list;		/* wc_fabrics, under RTNL */
	struct kref ref;		/* one per registered device + creator */
	u16 id;				/* from wc_fabric_ida, in every MAC */
	bool dying;			/* dellink ran: no new work */
	bool napi_on;			/* napi enabled (must be disabled) */
	bool deadlocked;		/* watchdog fired during this run */
	int flush_reason;		/* WORMCAST_CNT_DROP_* while flushing */
	struct net_device *dev;		/* fabric device */
	int ifindex;			/* of dev, which never changes netns */
	kuid_t owner;			/* accountable user if dev's netns is
					 * user-owned, else INVALID_UID
					 */
	struct wc_topo topo;
	struct wc_engine_params params;
	u32 queue_len;
	u32 cycle_ns;			/* 0: virtual time; READ_ONCE */

	struct napi_struct napi;	/* runs the engine */
	/*
	 * Delivers the engine's copies to the node devices, so that with
	 * threaded NAPI (the default) the stack's receive path of the copies
	 * runs on another CPU than the engine.
	 */
	struct napi_struct rx_napi;
	struct hrtimer pace_timer;	/* paced mode: next cycle is due */
	u64 pace_last_ns;		/* wall time of the last cycle run */
	/*
	 * Fabric time of the cycles the engine runs (timestamps, engine
	 * lock): cycle ts_cycle began at CLOCK_MONOTONIC ts_mono_ns in
	 * paced mode (ts_cycle_ns > 0); virtual time otherwise.
	 */
	u32 ts_cycle_ns;
	u64 ts_cycle;
	u64 ts_mono_ns;

	u32 mcast;			/* enum wormcast_mcast_scheme; RTNL
					 * writes, the poll reads (READ_ONCE)
					 */
	u8 fault_info;			/* enum wormcast_fault_info; likewise */
	/*
	 * Processor overheads, cycles (Documentation/dcf.rst, "Sending and
	 * receiving latencies"): t_s per send of a node, t_r per reception
	 * a relay sends on from; likewise
	 */
	u32 send_ovh, recv_ovh;
	bool run_local;			/* the engine runs wc_algo_tree_local */
	struct wc_tables tables;

	spinlock_t engine_lock;		/* BH */
	struct wc_engine *engine;
	size_t msg_size;		/* a message, up to its relay tag */
	/* multiphase: sends queued by deliveries, for after the run */
	struct wc_msg *relayq, *relayq_tail;
	/*
	 * What the engine runs on (engine lock): the algorithm, the table
	 * pinned for it (NULL: the built-in unicast-based algorithm), the
	 * scheme wanted when it was chosen, and the generation of a table
	 * whose algorithm the engine refused (not retried).
	 */
	const struct wc_algo *run_algo;
	struct wc_table *run_table;
	u32 run_scheme;
	u32 refused_gen;
	bool switching;			/* draining before a switch */

	struct wc_mcindex *mc;		/* membership index */
	/*
	 * Membership notifications (wc_fabric_groups_poke()): one GROUPS_GET
	 * event per window of WC_GROUPS_NOTIFY_MS after a change.
	 */
	spinlock_t groups_lock;		/* groups_off and queueing the work */
	bool groups_off;		/* stopping: no more notifications */
	u32 groups_sent;		/* mc->gen last notified (the work) */
	struct delayed_work groups_work;
	unsigned long *pending;		/* bitmap: nodes with queued frames */
	/*
	 * The copies the engine's poll hands to the delivery poll, a ring of
	 * rx_mask + 1 tickets (fabric.c, "delivery"), counted from 0: the
	 * engine's poll writes at rx_head; under rx_lock, rx_handed is what
	 * it handed over and rx_taken what the delivery poll took; rx_tail
	 * (the delivery poll's, smp_store_release) what it delivered.
	 */
	struct wc_rx_ticket *rx_ring;
	u32 rx_mask;
	u32 rx_head;
	u32 rx_run_start;		/* rx_head when this run began */
	spinlock_t rx_lock;
	u32 rx_handed;
	u32 rx_taken;
	bool rx_full;			/* the engine waits for room */
	u32 rx_tail;
	atomic64_t fabric_dev_drops;	/* frames sent on the fabric device */
	/* capture records (capture.c): queued for the taps, counters */
	struct sk_buff_head capq;
	atomic64_t cap_records, cap_bytes, cap_drops;

	u32 nnodes;
	struct wc_node nodes[];
};

/* priv area of every wormcast net device */
struct wc_priv {
	struct wc_fabric *fabric;
	struct wc_node *node;		/* NULL for the fabric device */
};

/*
 * A copy for the delivery poll: a reference to the clone its message's
 * copies are made from (wc_msg.copy_src), and where it goes.
 */
struct wc_rx_ticket {
	struct sk_buff *skb;
	u32 src;			/* node whose frame it is */
	u32 dst;			/* destination node */
	ktime_t hwtstamp;		/* RX hardware timestamp, 0: none */
};

static inline struct wc_priv *wc_priv(const struct net_device *dev)
{
	return netdev_priv(dev);
}

static inline void wc_count_side(struct wc_side_counters *cnt, int which,
				 u64 n)
{
	u64_stats_update_begin(&cnt->syncp);
	u64_stats_add(&cnt->c[which], n);
	u64_stats_update_end(&cnt->syncp);
}

static inline void wc_count_add(struct wc_counters *cnt, int which, u64 n)
{
	u64_stats_update_begin(&cnt->syncp);
	u64_stats_add(&cnt->c[which], n);
	u64_stats_update_end(&cnt->syncp);
}

/* Set an extack message that is not a string literal (static lifetime). */
static inline void wc_extack_msg(struct netlink_ext_ack *extack,
				 const char *msg)
{
	if (extack)
		extack->_msg = msg;
}

/* link.c */
extern struct rtnl_link_ops wc_link_ops;
extern struct list_head wc_fabrics;
bool wc_is_wormcast_dev(const struct net_device *dev);

/* netdev.c */
void wc_fabric_dev_setup(struct net_device *dev);
void wc_node_dev_setup(struct net_device *dev);
void wc_dev_attach(struct net_device *dev);

/* ethtool.c */
extern const struct ethtool_ops wc_ethtool_ops;
int wc_node_eth_ioctl(struct net_device *dev, struct ifreq *ifr, int cmd);

/* fabric.c */
struct wc_fabric *wc_fabric_alloc(const struct wc_topo *topo,
				  const struct wc_engine_params *params,
				  u32 queue_len, u32 cycle_ns,
				  const char **why);
void wc_fabric_get(struct wc_fabric *f);
void wc_fabric_put(struct wc_fabric *f);
void wc_fabric_start(struct wc_fabric *f);
void wc_fabric_stop(struct wc_fabric *f);
netdev_tx_t wc_fabric_xmit(struct wc_node *node, struct sk_buff *skb);
void wc_node_purge(struct wc_node *node);

/* relay.c: receivers send on (multiphase; dcf and edn broadcasts) */
struct wc_msg *wc_relay_msg_alloc(struct wc_fabric *f, u32 src, u32 bytes,
				  void *cookie);
int wc_relay_start(struct wc_fabric *f, struct wc_msg *m,
		   struct wc_table *sched);
void wc_relay_delivered(struct wc_fabric *f, struct wc_msg *m);
u32 wc_relay_origin(const struct wc_fabric *f, const struct wc_msg *m);
bool wc_relay_route_error(struct wc_fabric *f, struct wc_msg *m);
bool wc_relay_done(struct wc_fabric *f, struct wc_msg *m, int reason);
bool wc_relay_reinject(struct wc_fabric *f, struct wc_msg *m,
		       const struct wc_tree_set *s);
void wc_relay_submit(struct wc_fabric *f);
void wc_relay_purge(struct wc_fabric *f, int reason);

/* capture.c: records of messages for the fabric device's packet sockets */
void wc_capture_attach(struct wc_fabric *f, struct wc_msg *m);
void wc_capture_done(struct wc_fabric *f, struct wc_msg *m,
		     struct sk_buff *skb, bool aborted);
void wc_capture_flush(struct wc_fabric *f);
void wc_capture_purge(struct wc_fabric *f);
void wc_node_read_counters(const struct wc_node *node, u64 *cnt);
void wc_fabric_read_counters(struct wc_fabric *f, u64 *cnt);
void wc_node_counters(struct wc_fabric *f, u32 n, u64 *cnt);
void wc_fabric_counters(struct wc_fabric *f, u64 *cnt);
void wc_fabric_set_cycle_ns(struct wc_fabric *f, u32 cycle_ns);
int wc_fabric_set_watchdog(struct wc_fabric *f, u32 watchdog,
			   const char **why);
void wc_fabric_engine_stats(struct wc_fabric *f, struct wc_engine_stats *s);
size_t wc_fabric_mem(const struct wc_fabric *f);
/* Busy and blocked cycles of the physical channel (@node, @port). */
void wc_fabric_link_stats(struct wc_fabric *f, u32 node, u32 port,
			  u64 *busy, u64 *blocked);
void wc_fabric_node_stats(struct wc_fabric *f, u32 node,
			  struct wc_node_stats *s);
void wc_fabric_tables_changed(struct wc_fabric *f);
void wc_fabric_plans_committed(struct wc_fabric *f);
int wc_fabric_fault(struct wc_fabric *f, bool node, u32 a, u32 b, bool down,
		    struct netlink_ext_ack *extack);
bool wc_fabric_node_failed(struct wc_fabric *f, u32 node);
u32 wc_fabric_faults(struct wc_fabric *f, u32 skip, struct wc_fault *out,
		     u32 max);
void wc_fabric_set_mcast(struct wc_fabric *f, u32 scheme);
u32 wc_fabric_max_mtu(const struct wc_fabric *f);
void wc_fabric_set_fault_info(struct wc_fabric *f, u8 fault_info);
void wc_fabric_deliver_copy(struct wc_fabric *f, struct wc_msg *m,
			    u32 origin, u32 node);
void wc_fabric_groups_poke(struct wc_fabric *f);

/* tables.c */
extern const struct wc_table_ops wc_table_ops[WORMCAST_TABLE_MAX + 1];
void wc_tables_init(struct wc_tables *ts, const struct wc_topo *topo,
		    const struct wc_engine_params *params,
		    const struct wc_table_ops *ops);
void wc_tables_destroy(struct wc_tables *ts);
int wc_table_txn_new(struct wc_tables *ts, u32 kind, u32 size, u32 gen,
		     u32 *txn, struct netlink_ext_ack *extack);
int wc_table_txn_chunk(struct wc_tables *ts, u32 txn, u32 offset,
		       const void *data, u32 len,
		       struct netlink_ext_ack *extack);
int wc_table_txn_commit(struct wc_tables *ts, u32 txn, u32 *kind, u32 *gen,
			struct netlink_ext_ack *extack);
int wc_table_txn_abort(struct wc_tables *ts, u32 txn,
		       struct netlink_ext_ack *extack);
u32 wc_tables_gen(struct wc_tables *ts);
struct wc_table *wc_tables_get(struct wc_tables *ts, u32 kind);
struct wc_table *wc_tables_peek_rcu(struct wc_tables *ts, u32 kind);
bool wc_table_tryget(struct wc_table *t);
void wc_table_put(struct wc_table *t);
size_t wc_tables_mem(const struct wc_tables *ts);
int wc_mcast_check(u32 scheme, const struct wc_topo *topo,
		   const struct wc_engine_params *params, const char **why);

/* params.c */
int wc_params_put(struct sk_buff *skb, const struct wc_fabric *f, bool link);
size_t wc_params_size(void);
int wc_param_check_cycle_ns(const struct nlattr *a,
			    struct netlink_ext_ack *extack);
int wc_param_check_ovh(const struct nlattr *a, struct netlink_ext_ack *extack);
int wc_param_check_mcast(const struct nlattr *a, const struct wc_topo *topo,
			 const struct wc_engine_params *params, u32 mtu,
			 struct netlink_ext_ack *extack);
u32 wc_node_max_mtu(u32 scheme, const struct wc_engine_params *params);

/* genl.c */
int wc_genl_init(void);
void wc_genl_exit(void);
void wc_genl_notify(struct wc_fabric *f, u8 cmd);
void wc_genl_notify_groups(struct wc_fabric *f, u32 gen);

#endif /* WC_WORMCAST_H */
