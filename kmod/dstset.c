// SPDX-License-Identifier: GPL-2.0
/*
 * Destination sets: which nodes receive a frame, from its destination MAC
 * and the fabric's membership index (dstset.h).  Free of netdev state; the
 * glue (netdev.c, fabric.c) feeds the index and asks it.
 */
#include <linux/etherdevice.h>
#include <linux/hash.h>
#include <linux/log2.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/bitmap.h>

#include "dstset.h"

enum wc_dst_kind wc_dst_classify(const u8 *mac, u16 fabric_id, u32 nnodes,
				 u32 src, u32 *node)
{
	u16 fid, nid;

	if (is_broadcast_ether_addr(mac))
		return WC_DST_BROADCAST;
	if (is_multicast_ether_addr(mac))
		return WC_DST_MULTICAST;
	if (!wc_mac_parse(mac, &fid, &nid) || fid != fabric_id ||
	    nid >= nnodes)
		return WC_DST_UNKNOWN;
	if (nid == src)
		return WC_DST_SELF;
	*node = nid;
	return WC_DST_NODE;
}

/* ------------------------------------------------------------ index */

#define WC_MC_HBITS_MIN	4
#define WC_MC_HBITS_MAX	13

static u32 wc_mc_hash(const struct wc_mcindex *idx, const u8 *mac)
{
	return hash_64(ether_addr_to_u64(mac), idx->hbits);
}

struct wc_mcindex *wc_mcindex_alloc(u32 nnodes, gfp_t gfp)
{
	u32 hbits = clamp_t(u32, order_base_2(nnodes), WC_MC_HBITS_MIN,
			    WC_MC_HBITS_MAX);
	struct wc_mcindex *idx;

	idx = kvzalloc(struct_size(idx, groups, 1u << hbits), gfp);
	if (!idx)
		return NULL;
	spin_lock_init(&idx->lock);
	seqcount_spinlock_init(&idx->seq, &idx->lock);
	idx->nnodes = nnodes;
	idx->nwords = BITS_TO_LONGS(nnodes);
	idx->hbits = hbits;
	idx->up = bitmap_zalloc(nnodes, gfp);
	idx->all = bitmap_zalloc(nnodes, gfp);
	idx->scratch = bitmap_zalloc(nnodes, gfp);
	idx->nodes = kvcalloc(nnodes, sizeof(*idx->nodes), gfp);
	if (!idx->up || !idx->all || !idx->scratch || !idx->nodes) {
		wc_mcindex_free(idx);
		return NULL;
	}
	return idx;
}

void wc_mcindex_free(struct wc_mcindex *idx)
{
	struct wc_mcgroup *g;
	struct hlist_node *tmp;
	u32 i;

	if (!idx)
		return;
	for (i = 0; i < (1u << idx->hbits); i++)
		hlist_for_each_entry_safe(g, tmp, &idx->groups[i], hnode)
			kfree(g);
	if (idx->nodes)
		for (i = 0; i < idx->nnodes; i++)
			kfree(idx->nodes[i].addrs);
	kvfree(idx->nodes);
	bitmap_free(idx->scratch);
	bitmap_free(idx->all);
	bitmap_free(idx->up);
	kvfree(idx);
}

/* Bytes of the index; racy on ngroups, for statistics only. */
size_t wc_mcindex_mem(const struct wc_mcindex *idx)
{
	return struct_size(idx, groups, 1u << idx->hbits) +
	       3 * idx->nwords * sizeof(long) +
	       idx->nnodes * sizeof(*idx->nodes) +
	       READ_ONCE(idx->ngroups) *
	       struct_size_t(struct wc_mcgroup, members, 2 * idx->nwords);
}

static struct wc_mcgroup *wc_mc_find(const struct wc_mcindex *idx,
				     const u8 *mac)
{
	struct wc_mcgroup *g;

	hlist_for_each_entry_rcu(g, &idx->groups[wc_mc_hash(idx, mac)], hnode,
				 lockdep_is_held(&idx->lock))
		if (ether_addr_equal(g->addr, mac))
			return g;
	return NULL;
}

const struct wc_mcgroup *wc_mcindex_find(const struct wc_mcindex *idx,
					 const u8 *mac)
{
	return wc_mc_find(idx, mac);
}

bool wc_mcindex_note_unplanned(struct wc_mcindex *idx, const u8 *mac, u32 src)
{
	struct wc_mcgroup *g = wc_mc_find(idx, mac);

	if (!g || src >= idx->nnodes || test_and_set_bit(src, g->unplanned))
		return false;
	spin_lock_bh(&idx->lock);
	WRITE_ONCE(idx->gen, idx->gen + 1);
	spin_unlock_bh(&idx->lock);
	return true;
}

void wc_mcindex_clear_planned(struct wc_mcindex *idx,
			      bool (*planned)(void *arg, u32 src, const u8 *mac),
			      void *arg)
{
	struct wc_mcgroup *g;
	u32 b, src;

	spin_lock_bh(&idx->lock);
	for (b = 0; b < (1u << idx->hbits); b++)
		hlist_for_each_entry(g, &idx->groups[b], hnode)
			for_each_set_bit(src, g->unplanned, idx->nnodes)
				if (planned(arg, src, g->addr))
					clear_bit(src, g->unplanned);
	spin_unlock_bh(&idx->lock);
}

void wc_mcindex_set_up(struct wc_mcindex *idx, u32 node, bool up)
{
	if (node >= idx->nnodes)
		return;
	spin_lock_bh(&idx->lock);
	if (test_bit(node, idx->up) != up) {
		write_seqcount_begin(&idx->seq);
		assign_bit(node, idx->up, up);
		write_seqcount_end(&idx->seq);
		WRITE_ONCE(idx->gen, idx->gen + 1);
	}
	spin_unlock_bh(&idx->lock);
}

static int wc_mac_cmp(const void *a, const void *b)
{
	return memcmp(a, b, ETH_ALEN);
}

/* Keep the multicast addresses of @addrs, sorted, once each. */
static u32 wc_mc_normalise(u8 (*addrs)[ETH_ALEN], u32 count)
{
	u32 i, n = 0;

	for (i = 0; i < count; i++)
		if (is_multicast_ether_addr(addrs[i]) &&
		    !is_broadcast_ether_addr(addrs[i]))
			memmove(addrs[n++], addrs[i], ETH_ALEN);
	sort(addrs, n, ETH_ALEN, wc_mac_cmp, NULL);
	count = n;
	for (i = 0, n = 0; i < count; i++)
		if (!n || !ether_addr_equal(addrs[n - 1], addrs[i]))
			memmove(addrs[n++], addrs[i], ETH_ALEN);
	return n;
}

/* Unlink and free (after a grace period) the groups of @addrs left empty. */
static void wc_mc_gc(struct wc_mcindex *idx, u8 (*addrs)[ETH_ALEN], u32 n)
{
	struct wc_mcgroup *g;
	u32 i;

	for (i = 0; i < n; i++) {
		g = wc_mc_find(idx, addrs[i]);
		if (g && !g->nmembers) {
			hlist_del_rcu(&g->hnode);
			idx->ngroups--;
			kfree_rcu(g, rcu);
		}
	}
}

/*
 * Move @node from the groups of @old to those of @new (both sorted);
 * true if it joined or left any.
 */
static bool wc_mc_move(struct wc_mcindex *idx, u32 node,
		       u8 (*old)[ETH_ALEN], u32 nold,
		       u8 (*new)[ETH_ALEN], u32 nnew)
{
	struct wc_mcgroup *g;
	bool changed = false;
	u32 i = 0, j = 0;
	int c;

	while (i < nold || j < nnew) {
		if (i == nold)
			c = 1;
		else if (j == nnew)
			c = -1;
		else
			c = wc_mac_cmp(old[i], new[j]);
		if (c < 0) {		/* left */
			g = wc_mc_find(idx, old[i++]);
			if (!WARN_ON_ONCE(!g)) {
				clear_bit(node, g->members);
				g->nmembers--;
			}
			changed = true;
		} else if (c > 0) {	/* joined */
			g = wc_mc_find(idx, new[j++]);
			if (!WARN_ON_ONCE(!g)) {
				set_bit(node, g->members);
				g->nmembers++;
			}
			changed = true;
		} else {		/* stays */
			i++;
			j++;
		}
	}
	return changed;
}

int wc_mcindex_set_node(struct wc_mcindex *idx, u32 node, bool all,
			u8 *list, u32 count)
{
	u8 (*addrs)[ETH_ALEN] = (void *)list;
	struct wc_mcnode *mn;
	u8 (*old)[ETH_ALEN];
	struct wc_mcgroup *g;
	bool changed;
	int err = 0;
	u32 i, n;

	if (node >= idx->nnodes) {
		kfree(addrs);
		return -EINVAL;
	}
	mn = &idx->nodes[node];
	n = addrs ? wc_mc_normalise(addrs, count) : 0;
	if (!n) {
		kfree(addrs);
		addrs = NULL;
	}

	spin_lock_bh(&idx->lock);
	/* New groups start empty: linking them changes no reader's result. */
	for (i = 0; i < n; i++) {
		if (wc_mc_find(idx, addrs[i]))
			continue;
		g = kzalloc(struct_size(g, members, 2 * idx->nwords),
			    GFP_ATOMIC);
		if (!g) {
			err = -ENOMEM;
			break;
		}
		g->unplanned = g->members + idx->nwords;
		ether_addr_copy(g->addr, addrs[i]);
		hlist_add_head_rcu(&g->hnode,
				   &idx->groups[wc_mc_hash(idx, g->addr)]);
		idx->ngroups++;
	}
	if (err) {
		/* Accept every multicast until an update succeeds. */
		write_seqcount_begin(&idx->seq);
		if (!test_and_set_bit(node, idx->all))
			WRITE_ONCE(idx->gen, idx->gen + 1);
		write_seqcount_end(&idx->seq);
		mn->all = true;
		wc_mc_gc(idx, addrs, n);
		spin_unlock_bh(&idx->lock);
		kfree(addrs);
		return err;
	}

	write_seqcount_begin(&idx->seq);
	changed = wc_mc_move(idx, node, mn->addrs, mn->count, addrs, n);
	changed |= test_bit(node, idx->all) != all;
	assign_bit(node, idx->all, all);
	write_seqcount_end(&idx->seq);
	if (changed)
		WRITE_ONCE(idx->gen, idx->gen + 1);

	wc_mc_gc(idx, mn->addrs, mn->count);
	old = mn->addrs;
	mn->addrs = addrs;
	mn->count = n;
	mn->all = all;
	spin_unlock_bh(&idx->lock);
	kfree(old);
	return 0;
}

unsigned int wc_mcindex_read_begin(const struct wc_mcindex *idx)
{
	return read_seqcount_begin(&idx->seq);
}

bool wc_mcindex_read_retry(const struct wc_mcindex *idx, unsigned int seq)
{
	return read_seqcount_retry(&idx->seq, seq);
}

void wc_mcindex_dsts_once(const struct wc_mcindex *idx, const u8 *mac,
			  bool bcast, unsigned long *out)
{
	const struct wc_mcgroup *g = bcast ? NULL : wc_mc_find(idx, mac);
	u32 w;

	for (w = 0; w < idx->nwords; w++) {
		unsigned long v = bcast ? ~0UL : READ_ONCE(idx->all[w]);

		if (g)
			v |= READ_ONCE(g->members[w]);
		out[w] = v & READ_ONCE(idx->up[w]);
	}
}

void wc_mcindex_dsts(const struct wc_mcindex *idx, const u8 *mac, bool bcast,
		     u32 src, unsigned long *out)
{
	unsigned int seq;

	do {
		seq = wc_mcindex_read_begin(idx);
		wc_mcindex_dsts_once(idx, mac, bcast, out);
	} while (wc_mcindex_read_retry(idx, seq));
	if (src < idx->nnodes)
		__clear_bit(src, out);
}
