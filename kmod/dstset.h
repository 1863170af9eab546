/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Pure helpers of the wormcast glue, free of netdev state so that KUnit can
 * test them on plain data: MAC <-> (fabric, node), the classification of a
 * destination MAC, and the membership index that gives the destinations of
 * a multicast or broadcast frame.
 *
 * MAC of node n of fabric f: 02:77:FH:FL:NH:NL (locally administered,
 * unicast); the fabric device uses node id WC_MAC_FABRIC_NODE.
 */
#ifndef WC_DSTSET_H
#define WC_DSTSET_H

#include <linux/types.h>
#include <linux/if_ether.h>
#include <linux/rcupdate.h>
#include <linux/seqlock.h>
#include <linux/spinlock.h>

#define WC_MAC_OUI0		0x02	/* locally administered, unicast */
#define WC_MAC_OUI1		0x77
#define WC_MAC_FABRIC_NODE	0xffffu	/* node id of the fabric device */
#define WC_FABRIC_ID_MIN	1
#define WC_FABRIC_ID_MAX	0xffff

void wc_mac_make(u8 *mac, u16 fabric_id, u16 node_id);

/*
 * If @mac is a wormcast MAC, set *@fabric_id and *@node_id and return true.
 * The node id is not checked against any fabric size.
 */
bool wc_mac_parse(const u8 *mac, u16 *fabric_id, u16 *node_id);

/*
 * Membership index of a fabric: which nodes receive a multicast or
 * broadcast frame, without looking at every node.
 *
 *  - up: a bitmap of the nodes whose device is running;
 *  - all: a bitmap of the nodes that take every multicast (promiscuous,
 *    allmulti, or a node whose list could not be allocated);
 *  - groups: a hash table, multicast MAC -> struct wc_mcgroup, whose
 *    bitmap holds the nodes with that MAC on their multicast list.
 *
 * The destinations of a multicast to G from src are
 * (all | members(G)) & up & ~{src}; of a broadcast, up & ~{src}.  One
 * reader computes them word by word: BITS_TO_LONGS(nnodes) words, 1 for
 * an 8x8 fabric, 16 for 32x32, 79 for the largest (5040 nodes).
 *
 * Writers (ndo_set_rx_mode under the address list lock, ndo_open/stop
 * under RTNL) take idx->lock with BH disabled and never sleep (GFP_ATOMIC);
 * every change of bits happens inside a write section of idx->seq, so a
 * reader sees the index as it was between two updates, never half of one.
 * Groups are linked and unlinked with RCU and freed after a grace period:
 * a reader walks the hash table under rcu_read_lock().
 */
struct wc_mcgroup {
	struct hlist_node hnode;	/* in wc_mcindex.groups, RCU */
	struct rcu_head rcu;
	u8 addr[ETH_ALEN];
	u32 nmembers;			/* bits set in members; idx->lock */
	/*
	 * Sources that sent to the group under ocms/otms and found no plan
	 * (wc_mcindex_note_unplanned()); nnodes bits after members[],
	 * atomic bit operations.
	 */
	unsigned long *unplanned;
	unsigned long members[];	/* nnodes bits, then unplanned's */
};

/* What the index holds for one node; writers only (idx->lock). */
struct wc_mcnode {
	u8 (*addrs)[ETH_ALEN];		/* sorted multicast list, no dups */
	u32 count;
	bool all;			/* in idx->all */
};

struct wc_mcindex {
	spinlock_t lock;		/* writers, BH */
	seqcount_spinlock_t seq;	/* every change of a bitmap */
	u32 nnodes;
	u32 nwords;			/* BITS_TO_LONGS(nnodes) */
	u32 hbits;			/* log2 of the hash table size */
	u32 ngroups;			/* idx->lock */
	/*
	 * Membership generation: bumped (under @lock) by every change of a
	 * member, all or up bit; READ_ONCE() elsewhere.
	 */
	u32 gen;
	unsigned long *up;
	unsigned long *all;
	unsigned long *scratch;		/* the datapath reader's result */
	struct wc_mcnode *nodes;
	struct hlist_head groups[];
};

struct wc_mcindex *wc_mcindex_alloc(u32 nnodes, gfp_t gfp);
/* No reader and no writer left. */
void wc_mcindex_free(struct wc_mcindex *idx);
size_t wc_mcindex_mem(const struct wc_mcindex *idx);

/* Node @node's device is running (@up) or not. */
void wc_mcindex_set_up(struct wc_mcindex *idx, u32 node, bool up);

/*
 * Replace what the index holds for @node: @all (promiscuous or allmulti)
 * and its multicast list @addrs (@count addresses of ETH_ALEN bytes, any
 * order, duplicates allowed, non-multicast ones ignored).  The index takes
 * @addrs (kmalloc'ed, or NULL when @count is 0) and frees it.  Never sleeps
 * (groups are allocated with GFP_ATOMIC under idx->lock).
 * Returns -ENOMEM if a group could not be allocated: the node is then put
 * in the accept-all set (it may receive more than it joined, never less)
 * until an update succeeds.
 */
int wc_mcindex_set_node(struct wc_mcindex *idx, u32 node, bool all,
			u8 *addrs, u32 count);

/*
 * Source @src sent a frame to group @mac and found no plan for it (ocms,
 * otms): note it in the group, once until wc_mcindex_clear_planned()
 * forgets it.  Returns true if it was not noted yet: the index's
 * generation moved, so that the daemon, reading the groups, plans the
 * pair.  Under rcu_read_lock(), any context.
 */
bool wc_mcindex_note_unplanned(struct wc_mcindex *idx, const u8 *mac, u32 src);

/*
 * A plans table was committed: forget every noted source for which
 * @planned(@arg, source, group address) says it now has a plan.  Pairs
 * left without one stay noted and are not reported again.
 */
void wc_mcindex_clear_planned(struct wc_mcindex *idx,
			      bool (*planned)(void *arg, u32 src, const u8 *mac),
			      void *arg);

/* The group of @mac, or NULL; under rcu_read_lock() or idx->lock. */
const struct wc_mcgroup *wc_mcindex_find(const struct wc_mcindex *idx,
					 const u8 *mac);

/*
 * Destinations of a frame sent by @src to multicast @mac (@bcast: to the
 * broadcast address) into @out (BITS_TO_LONGS(nnodes) words).  Under
 * rcu_read_lock(); BITS_TO_LONGS(nnodes) words read and written, plus the
 * hash chain of @mac.
 */
void wc_mcindex_dsts(const struct wc_mcindex *idx, const u8 *mac, bool bcast,
		     u32 src, unsigned long *out);

/* The two halves of wc_mcindex_dsts()'s retry loop (for tests). */
unsigned int wc_mcindex_read_begin(const struct wc_mcindex *idx);
bool wc_mcindex_read_retry(const struct wc_mcindex *idx, unsigned int seq);
void wc_mcindex_dsts_once(const struct wc_mcindex *idx, const u8 *mac,
			  bool bcast, unsigned long *out);

enum wc_dst_kind {
	WC_DST_NODE,		/* unicast to a node of this fabric */
	WC_DST_BROADCAST,
	WC_DST_MULTICAST,
	WC_DST_UNKNOWN,		/* unicast to no node of this fabric */
	WC_DST_SELF,		/* unicast to the sender itself */
};

/*
 * Classify destination @mac of a frame sent by node @src of fabric
 * @fabric_id with @nnodes nodes; for WC_DST_NODE, *@node is the target.
 */
enum wc_dst_kind wc_dst_classify(const u8 *mac, u16 fabric_id, u32 nnodes,
				 u32 src, u32 *node);

#endif /* WC_DSTSET_H */
