// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for the glue's pure helpers (kmod/mac.c, kmod/dstset.c):
 * MAC <-> (fabric, node) and the destination set of a frame.
 *
 *  - every (fabric, node) pair of the id space round-trips through its MAC,
 *    which is locally administered and unicast, and distinct pairs get
 *    distinct MACs;
 *  - foreign MACs (other OUI, fabric id 0) are not parsed as ours;
 *  - classification: broadcast, multicast, a node of this fabric, the
 *    sender itself, a node of another fabric or beyond the fabric's size;
 *  - the membership index: join, leave, allmulti/promisc, up/down, list
 *    normalisation; destination sets equal a scan of every node over random
 *    memberships (1 to 5040 nodes); a reader that holds an older state is
 *    safe and told to read again; the cost on 64 and 1024 nodes.
 */
#include <kunit/test.h>
#include <linux/etherdevice.h>
#include <linux/slab.h>
#include <linux/bitmap.h>
#include <linux/ktime.h>
#include <linux/math64.h>

#include "dstset.h"

static void mac_round_trip(struct kunit *test)
{
	static const u16 fabrics[] = { WC_FABRIC_ID_MIN, 2, 0x00ff, 0x0100, 0x1234,
				       WC_FABRIC_ID_MAX };
	u8 mac[ETH_ALEN];
	unsigned int i;
	u32 node;

	for (i = 0; i < ARRAY_SIZE(fabrics); i++) {
		for (node = 0; node <= 0xffff; node++) {
			u16 fid = 0, nid = 0;

			wc_mac_make(mac, fabrics[i], (u16)node);
			if (!is_valid_ether_addr(mac) || !(mac[0] & 0x02) ||
			    !wc_mac_parse(mac, &fid, &nid) ||
			    fid != fabrics[i] || nid != node) {
				KUNIT_FAIL(test, "fabric %u node %u: %pM -> %u %u",
					   fabrics[i], node, mac, fid, nid);
				return;
			}
		}
	}
}

/* Distinct (fabric, node) pairs never share a MAC. */
static void mac_distinct(struct kunit *test)
{
	u8 a[ETH_ALEN], b[ETH_ALEN];
	u32 f1, n1, f2, n2;

	for (f1 = 1; f1 <= 3; f1++)
		for (n1 = 0; n1 < 300; n1 += 7)
			for (f2 = 1; f2 <= 3; f2++)
				for (n2 = 0; n2 < 300; n2 += 7) {
					wc_mac_make(a, f1, n1);
					wc_mac_make(b, f2, n2);
					KUNIT_EXPECT_EQ(test, ether_addr_equal(a, b),
							f1 == f2 && n1 == n2);
				}
}

static void mac_foreign(struct kunit *test)
{
	static const u8 foreign[][ETH_ALEN] = {
		{ 0x00, 0x11, 0x22, 0x33, 0x44, 0x55 },	/* a real OUI */
		{ 0x02, 0x78, 0x00, 0x01, 0x00, 0x01 },	/* other local OUI */
		{ 0x02, 0x77, 0x00, 0x00, 0x00, 0x01 },	/* fabric id 0 */
		{ 0x03, 0x77, 0x00, 0x01, 0x00, 0x01 },	/* multicast bit */
		{ 0xff, 0xff, 0xff, 0xff, 0xff, 0xff },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(foreign); i++) {
		u16 fid = 0xdead, nid = 0xbeef;

		KUNIT_EXPECT_FALSE_MSG(test, wc_mac_parse(foreign[i], &fid, &nid),
				       "%pM", foreign[i]);
		KUNIT_EXPECT_EQ(test, fid, 0xdead);
		KUNIT_EXPECT_EQ(test, nid, 0xbeef);
	}
}

static void dst_classify(struct kunit *test)
{
	static const u8 bcast[ETH_ALEN] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
	static const u8 mc4[ETH_ALEN] = { 0x01, 0x00, 0x5e, 0x01, 0x02, 0x03 };
	static const u8 mc6[ETH_ALEN] = { 0x33, 0x33, 0x00, 0x01, 0x02, 0x03 };
	static const u8 other[ETH_ALEN] = { 0x00, 0x11, 0x22, 0x33, 0x44, 0x55 };
	u32 nnodes = 16, src = 5, n, node;
	u8 mac[ETH_ALEN];

	KUNIT_EXPECT_EQ(test, wc_dst_classify(bcast, 7, nnodes, src, &node), WC_DST_BROADCAST);
	KUNIT_EXPECT_EQ(test, wc_dst_classify(mc4, 7, nnodes, src, &node), WC_DST_MULTICAST);
	KUNIT_EXPECT_EQ(test, wc_dst_classify(mc6, 7, nnodes, src, &node), WC_DST_MULTICAST);
	KUNIT_EXPECT_EQ(test, wc_dst_classify(other, 7, nnodes, src, &node), WC_DST_UNKNOWN);

	/* Every node of the fabric, exhaustively, and just beyond it. */
	for (n = 0; n < nnodes + 4; n++) {
		enum wc_dst_kind want = n == src ? WC_DST_SELF :
					n < nnodes ? WC_DST_NODE : WC_DST_UNKNOWN;

		node = U32_MAX;
		wc_mac_make(mac, 7, (u16)n);
		KUNIT_EXPECT_EQ_MSG(test, wc_dst_classify(mac, 7, nnodes, src, &node), want,
				    "node %u", n);
		if (want == WC_DST_NODE)
			KUNIT_EXPECT_EQ(test, node, n);
		/* The same node id in another fabric is no node of ours. */
		KUNIT_EXPECT_EQ(test, wc_dst_classify(mac, 8, nnodes, src, &node),
				WC_DST_UNKNOWN);
	}
	/* The fabric device's own MAC is not a node. */
	wc_mac_make(mac, 7, WC_MAC_FABRIC_NODE);
	KUNIT_EXPECT_EQ(test, wc_dst_classify(mac, 7, nnodes, src, &node), WC_DST_UNKNOWN);
}

/* ------------------------------------------------------------ index */

static const u8 grp[][ETH_ALEN] = {
	{ 0x01, 0x00, 0x5e, 0x01, 0x02, 0x03 },
	{ 0x33, 0x33, 0x00, 0x01, 0x02, 0x03 },
	{ 0x01, 0x00, 0x5e, 0x09, 0x09, 0x09 },
	{ 0x33, 0x33, 0xff, 0x00, 0x00, 0x01 },
	{ 0x01, 0x00, 0x5e, 0x00, 0x00, 0x01 },
	{ 0x33, 0x33, 0x00, 0x00, 0x00, 0x01 },
	{ 0x01, 0x80, 0xc2, 0x00, 0x00, 0x0e },
	{ 0x33, 0x33, 0xff, 0x12, 0x34, 0x56 },
};

#define NGRP ARRAY_SIZE(grp)

static struct wc_mcindex *idx_new(struct kunit *test, u32 nnodes)
{
	struct wc_mcindex *idx = wc_mcindex_alloc(nnodes, GFP_KERNEL);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, idx);
	return idx;
}

/* wc_mcindex_set_node() with a copy of @list (it takes the array). */
static int idx_set(struct kunit *test, struct wc_mcindex *idx, u32 node,
		   bool all, const u8 (*list)[ETH_ALEN], u32 n)
{
	u8 (*addrs)[ETH_ALEN] = NULL;

	if (n) {
		/* GFP_ATOMIC: some callers are in an RCU read section */
		addrs = kmemdup(list, n * ETH_ALEN, GFP_ATOMIC);
		KUNIT_ASSERT_NOT_ERR_OR_NULL(test, addrs);
	}
	return wc_mcindex_set_node(idx, node, all, (u8 *)addrs, n);
}

/* Destinations as a sorted list of node ids in @ids; returns how many. */
static u32 idx_dsts(struct wc_mcindex *idx, const u8 *mac, bool bcast,
		    u32 src, u32 *ids, u32 max)
{
	unsigned long n;
	u32 k = 0;

	rcu_read_lock();
	wc_mcindex_dsts(idx, mac, bcast, src, idx->scratch);
	rcu_read_unlock();
	for_each_set_bit(n, idx->scratch, idx->nnodes)
		if (k < max)
			ids[k++] = n;
	return k;
}

static void expect_dsts(struct kunit *test, struct wc_mcindex *idx,
			const u8 *mac, bool bcast, u32 src, const u32 *want,
			u32 nwant)
{
	u32 got[64], k, i;

	k = idx_dsts(idx, mac, bcast, src, got, ARRAY_SIZE(got));
	KUNIT_EXPECT_EQ(test, k, nwant);
	for (i = 0; i < k && i < nwant; i++)
		KUNIT_EXPECT_EQ(test, got[i], want[i]);
}

/* EXPECT_DSTS(test, idx, mac, bcast, src, node ids in order...) */
#define EXPECT_DSTS(t, x, mac, bcast, src, ...) do {			\
	static const u32 w_[] = { 0, ##__VA_ARGS__ };			\
	expect_dsts(t, x, mac, bcast, src, w_ + 1, ARRAY_SIZE(w_) - 1);	\
} while (0)

/* Join, leave, allmulti/promisc, up/down, self, broadcast. */
static void mcindex_basic(struct kunit *test)
{
	struct wc_mcindex *idx = idx_new(test, 70);
	u32 n, got[4];

	for (n = 0; n < 70; n++)
		wc_mcindex_set_up(idx, n, true);
	/* nobody joined: no destination, no group */
	KUNIT_EXPECT_EQ(test, idx_dsts(idx, grp[0], false, 0, got, 4), 0u);
	KUNIT_EXPECT_NULL(test, wc_mcindex_find(idx, grp[0]));

	KUNIT_EXPECT_EQ(test, idx_set(test, idx, 3, false, grp, 2), 0);
	KUNIT_EXPECT_EQ(test, idx_set(test, idx, 65, false, grp, 1), 0);
	KUNIT_EXPECT_EQ(test, idx_set(test, idx, 7, false, &grp[1], 1), 0);
	EXPECT_DSTS(test, idx, grp[0], false, 0, 3, 65);
	EXPECT_DSTS(test, idx, grp[1], false, 0, 3, 7);
	EXPECT_DSTS(test, idx, grp[2], false, 0);
	/* the sender itself is never a destination */
	EXPECT_DSTS(test, idx, grp[0], false, 3, 65);
	/* allmulti (or promisc: the same to the index) takes every group */
	KUNIT_EXPECT_EQ(test, idx_set(test, idx, 40, true, NULL, 0), 0);
	EXPECT_DSTS(test, idx, grp[0], false, 0, 3, 40, 65);
	EXPECT_DSTS(test, idx, grp[2], false, 0, 40);
	/* a member that is also allmulti is one destination */
	KUNIT_EXPECT_EQ(test, idx_set(test, idx, 40, true, grp, 1), 0);
	EXPECT_DSTS(test, idx, grp[0], false, 0, 3, 40, 65);
	/* down: no multicast, no broadcast; up again: back */
	wc_mcindex_set_up(idx, 65, false);
	EXPECT_DSTS(test, idx, grp[0], false, 0, 3, 40);
	wc_mcindex_set_up(idx, 65, true);
	EXPECT_DSTS(test, idx, grp[0], false, 0, 3, 40, 65);
	/* leave one group, keep the other */
	KUNIT_EXPECT_EQ(test, idx_set(test, idx, 3, false, &grp[1], 1), 0);
	EXPECT_DSTS(test, idx, grp[0], false, 0, 40, 65);
	EXPECT_DSTS(test, idx, grp[1], false, 0, 3, 7, 40);
	/* leaving allmulti */
	KUNIT_EXPECT_EQ(test, idx_set(test, idx, 40, false, NULL, 0), 0);
	EXPECT_DSTS(test, idx, grp[0], false, 0, 65);
	/* the last member leaves: the group goes */
	KUNIT_EXPECT_EQ(test, idx_set(test, idx, 65, false, NULL, 0), 0);
	EXPECT_DSTS(test, idx, grp[0], false, 0);
	KUNIT_EXPECT_NULL(test, wc_mcindex_find(idx, grp[0]));
	KUNIT_EXPECT_EQ(test, idx->ngroups, 1u);
	/* broadcast: every node that is up but the sender */
	for (n = 4; n < 70; n++)
		wc_mcindex_set_up(idx, n, false);
	EXPECT_DSTS(test, idx, NULL, true, 1, 0, 2, 3);
	/* out of range nodes change nothing */
	wc_mcindex_set_up(idx, 70, true);
	KUNIT_EXPECT_EQ(test, idx_set(test, idx, 70, false, grp, 1), -EINVAL);
	EXPECT_DSTS(test, idx, NULL, true, 1, 0, 2, 3);
	wc_mcindex_free(idx);
}

/* The planned pairs of clear_planned()'s test: node 65 in group 0. */
static bool planned_65_grp0(void *arg, u32 src, const u8 *mac)
{
	return src == 65 && ether_addr_equal(mac, grp[0]);
}

/*
 * Lazy planning's report: a source is noted once per group (the
 * generation moves once), an unknown group or node notes nothing, and a
 * committed plan forgets exactly the pairs it plans.
 */
static void mcindex_unplanned(struct kunit *test)
{
	struct wc_mcindex *idx = idx_new(test, 70);
	const struct wc_mcgroup *g0, *g1;
	u32 gen;

	KUNIT_EXPECT_EQ(test, idx_set(test, idx, 3, false, grp, 2), 0);
	g0 = wc_mcindex_find(idx, grp[0]);
	g1 = wc_mcindex_find(idx, grp[1]);
	KUNIT_ASSERT_NOT_NULL(test, g0);
	KUNIT_ASSERT_NOT_NULL(test, g1);
	gen = READ_ONCE(idx->gen);
	rcu_read_lock();
	KUNIT_EXPECT_TRUE(test, wc_mcindex_note_unplanned(idx, grp[0], 65));
	KUNIT_EXPECT_FALSE(test, wc_mcindex_note_unplanned(idx, grp[0], 65));
	KUNIT_EXPECT_TRUE(test, wc_mcindex_note_unplanned(idx, grp[0], 9));
	KUNIT_EXPECT_TRUE(test, wc_mcindex_note_unplanned(idx, grp[1], 65));
	KUNIT_EXPECT_FALSE(test, wc_mcindex_note_unplanned(idx, grp[2], 65));
	KUNIT_EXPECT_FALSE(test, wc_mcindex_note_unplanned(idx, grp[0], 70));
	rcu_read_unlock();
	KUNIT_EXPECT_EQ(test, READ_ONCE(idx->gen), gen + 3);
	KUNIT_EXPECT_EQ(test, bitmap_weight(g0->unplanned, 70), 2u);
	KUNIT_EXPECT_TRUE(test, test_bit(65, g0->unplanned) &&
			  test_bit(9, g0->unplanned));
	/* membership is not touched by a report */
	KUNIT_EXPECT_EQ(test, bitmap_weight(g0->members, 70), 1u);
	wc_mcindex_clear_planned(idx, planned_65_grp0, NULL);
	KUNIT_EXPECT_FALSE(test, test_bit(65, g0->unplanned));
	KUNIT_EXPECT_TRUE(test, test_bit(9, g0->unplanned));
	KUNIT_EXPECT_TRUE(test, test_bit(65, g1->unplanned));
	/* forgotten: reported again; a pair still noted is not */
	rcu_read_lock();
	KUNIT_EXPECT_TRUE(test, wc_mcindex_note_unplanned(idx, grp[0], 65));
	KUNIT_EXPECT_FALSE(test, wc_mcindex_note_unplanned(idx, grp[0], 9));
	rcu_read_unlock();
	KUNIT_EXPECT_EQ(test, READ_ONCE(idx->gen), gen + 4);
	wc_mcindex_free(idx);
}

/* Lists are normalised: duplicates once, unicast and broadcast ignored. */
static void mcindex_lists(struct kunit *test)
{
	static const u8 list[][ETH_ALEN] = {
		{ 0x33, 0x33, 0x00, 0x01, 0x02, 0x03 },
		{ 0x02, 0x77, 0x00, 0x01, 0x00, 0x01 },	/* unicast */
		{ 0x01, 0x00, 0x5e, 0x01, 0x02, 0x03 },
		{ 0xff, 0xff, 0xff, 0xff, 0xff, 0xff },	/* broadcast */
		{ 0x33, 0x33, 0x00, 0x01, 0x02, 0x03 },	/* again */
	};
	struct wc_mcindex *idx = idx_new(test, 8);
	const struct wc_mcgroup *g;

	wc_mcindex_set_up(idx, 2, true);
	KUNIT_EXPECT_EQ(test, idx_set(test, idx, 2, false, list, 5), 0);
	KUNIT_EXPECT_EQ(test, idx->nodes[2].count, 2u);
	KUNIT_EXPECT_EQ(test, idx->ngroups, 2u);
	g = wc_mcindex_find(idx, list[0]);
	KUNIT_ASSERT_NOT_NULL(test, g);
	KUNIT_EXPECT_EQ(test, g->nmembers, 1u);
	KUNIT_EXPECT_NULL(test, wc_mcindex_find(idx, list[1]));
	KUNIT_EXPECT_NULL(test, wc_mcindex_find(idx, list[3]));
	EXPECT_DSTS(test, idx, list[0], false, 0, 2);
	/* the same list again changes nothing */
	KUNIT_EXPECT_EQ(test, idx_set(test, idx, 2, false, list, 5), 0);
	KUNIT_EXPECT_EQ(test, g->nmembers, 1u);
	KUNIT_EXPECT_EQ(test, idx->ngroups, 2u);
	wc_mcindex_free(idx);
}

/* A deterministic generator, so that a failure can be replayed. */
static u32 xs32(u32 *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

/* The reference: what every node joined, scanned node by node. */
struct model {
	u32 nnodes;
	bool *up, *all;
	u8 *member;		/* [node * NGRP + group] */
};

static bool model_accepts(const struct model *m, u32 n, int g, u32 src)
{
	if (n == src || !m->up[n])
		return false;
	if (g < 0)
		return true;	/* broadcast */
	return m->all[n] || m->member[n * NGRP + g];
}

static void model_push(struct kunit *test, struct wc_mcindex *idx,
		       const struct model *m, u32 n)
{
	u8 list[NGRP][ETH_ALEN];
	u32 k = 0, g;

	for (g = 0; g < NGRP; g++)
		if (m->member[n * NGRP + g])
			ether_addr_copy(list[k++], grp[g]);
	KUNIT_ASSERT_EQ(test, idx_set(test, idx, n, m->all[n], list, k), 0);
}

/*
 * Random memberships, changed node by node in random order: after every
 * batch of changes the index's destinations equal a scan of every node,
 * for every group, broadcast and several senders.
 */
static void mcindex_vs_scan_one(struct kunit *test, u32 nnodes, u32 seed)
{
	struct wc_mcindex *idx = idx_new(test, nnodes);
	unsigned long *want;
	struct model m;
	u32 round, n, i, src;
	int g;

	m.nnodes = nnodes;
	m.up = kunit_kcalloc(test, nnodes, sizeof(bool), GFP_KERNEL);
	m.all = kunit_kcalloc(test, nnodes, sizeof(bool), GFP_KERNEL);
	m.member = kunit_kcalloc(test, nnodes * NGRP, 1, GFP_KERNEL);
	want = kunit_kcalloc(test, BITS_TO_LONGS(nnodes), sizeof(long),
			     GFP_KERNEL);
	KUNIT_ASSERT_TRUE(test, m.up && m.all && m.member && want);

	for (round = 0; round < 20; round++) {
		/* change about a quarter of the nodes */
		for (i = 0; i < nnodes / 4 + 1; i++) {
			n = xs32(&seed) % nnodes;
			switch (xs32(&seed) % 8) {
			case 0:
				m.up[n] = !m.up[n];
				wc_mcindex_set_up(idx, n, m.up[n]);
				continue;
			case 1:
				m.all[n] = !(xs32(&seed) % 4);
				break;
			default:
				g = xs32(&seed) % NGRP;
				m.member[n * NGRP + g] ^= 1;
				break;
			}
			model_push(test, idx, &m, n);
		}
		for (i = 0; i < 4; i++) {
			src = xs32(&seed) % nnodes;
			for (g = -1; g < (int)NGRP; g++) {
				bitmap_zero(want, nnodes);
				for (n = 0; n < nnodes; n++)
					if (model_accepts(&m, n, g, src))
						__set_bit(n, want);
				rcu_read_lock();
				wc_mcindex_dsts(idx, g < 0 ? NULL : grp[g],
						g < 0, src, idx->scratch);
				rcu_read_unlock();
				if (!bitmap_equal(want, idx->scratch, nnodes)) {
					KUNIT_FAIL(test, "%u nodes r%u src %u g%d: %*pbl != %*pbl",
						   nnodes, round, src, g,
						   nnodes, idx->scratch,
						   nnodes, want);
					goto out;
				}
			}
		}
	}
	/* every group's member count agrees with its bitmap */
	for (g = 0; g < (int)NGRP; g++) {
		const struct wc_mcgroup *grp_obj = wc_mcindex_find(idx, grp[g]);
		u32 cnt = 0;

		for (n = 0; n < nnodes; n++)
			cnt += m.member[n * NGRP + g];
		if (!cnt) {
			KUNIT_EXPECT_NULL(test, grp_obj);
			continue;
		}
		KUNIT_ASSERT_NOT_NULL(test, grp_obj);
		KUNIT_EXPECT_EQ(test, grp_obj->nmembers, cnt);
		KUNIT_EXPECT_EQ(test, bitmap_weight(grp_obj->members, nnodes),
				cnt);
	}
out:
	wc_mcindex_free(idx);
}

static void mcindex_vs_scan(struct kunit *test)
{
	static const u32 sizes[] = { 1, 2, 63, 64, 65, 100, 1024, 5040 };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(sizes); i++)
		mcindex_vs_scan_one(test, sizes[i], 0x9e3779b9u + i);
}

/*
 * A reader that started before an update: the group it holds stays
 * readable until its RCU read section ends (KASAN would see otherwise),
 * and the seqcount tells it to read again; the new read sees the update
 * whole.
 */
static void mcindex_reader_snapshot(struct kunit *test)
{
	struct wc_mcindex *idx = idx_new(test, 128);
	const struct wc_mcgroup *g;
	unsigned int seq;
	u32 n;

	for (n = 0; n < 128; n++)
		wc_mcindex_set_up(idx, n, true);
	KUNIT_ASSERT_EQ(test, idx_set(test, idx, 100, false, grp, 1), 0);

	rcu_read_lock();
	seq = wc_mcindex_read_begin(idx);
	g = wc_mcindex_find(idx, grp[0]);
	KUNIT_ASSERT_NOT_NULL(test, g);
	wc_mcindex_dsts_once(idx, grp[0], false, idx->scratch);
	KUNIT_EXPECT_TRUE(test, test_bit(100, idx->scratch));
	KUNIT_EXPECT_FALSE(test, wc_mcindex_read_retry(idx, seq));

	/* node 100 leaves, node 5 goes allmulti: the group is unlinked */
	KUNIT_EXPECT_EQ(test, idx_set(test, idx, 100, false, NULL, 0), 0);
	KUNIT_EXPECT_EQ(test, idx_set(test, idx, 5, true, NULL, 0), 0);
	KUNIT_EXPECT_NULL(test, wc_mcindex_find(idx, grp[0]));
	/* the old group is still there for this reader */
	KUNIT_EXPECT_TRUE(test, ether_addr_equal(g->addr, grp[0]));
	KUNIT_EXPECT_EQ(test, g->nmembers, 0u);
	KUNIT_EXPECT_TRUE(test, wc_mcindex_read_retry(idx, seq));

	/* read again: the update, all of it */
	seq = wc_mcindex_read_begin(idx);
	wc_mcindex_dsts_once(idx, grp[0], false, idx->scratch);
	KUNIT_EXPECT_FALSE(test, wc_mcindex_read_retry(idx, seq));
	rcu_read_unlock();
	KUNIT_EXPECT_EQ(test, bitmap_weight(idx->scratch, 128), 1u);
	KUNIT_EXPECT_TRUE(test, test_bit(5, idx->scratch));

	/* a join while a reader holds the old state: it retries, too */
	rcu_read_lock();
	seq = wc_mcindex_read_begin(idx);
	KUNIT_EXPECT_EQ(test, idx_set(test, idx, 9, false, grp, 1), 0);
	KUNIT_EXPECT_TRUE(test, wc_mcindex_read_retry(idx, seq));
	rcu_read_unlock();
	synchronize_rcu();
	EXPECT_DSTS(test, idx, grp[0], false, 0, 5, 9);
	wc_mcindex_free(idx);
}

/*
 * Cost of one destination set for the same group (4 members) on 64 and
 * 1024 nodes, beside a scan of every node (the reference model, which is
 * what the datapath did before the index).  A figure, not a check.
 */
static void mcindex_cost(struct kunit *test)
{
	static const u32 sizes[] = { 64, 1024 };
	const u32 iters = 20000;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		u32 nnodes = sizes[i], n, it, hits = 0;
		struct wc_mcindex *idx = idx_new(test, nnodes);
		struct model m;
		u64 t0, t_idx, t_scan;

		m.nnodes = nnodes;
		m.up = kunit_kcalloc(test, nnodes, sizeof(bool), GFP_KERNEL);
		m.all = kunit_kcalloc(test, nnodes, sizeof(bool), GFP_KERNEL);
		m.member = kunit_kcalloc(test, nnodes * NGRP, 1, GFP_KERNEL);
		KUNIT_ASSERT_TRUE(test, m.up && m.all && m.member);
		for (n = 0; n < nnodes; n++) {
			m.up[n] = true;
			wc_mcindex_set_up(idx, n, true);
			/* every node has a group of its own (IPv6 solicited node) */
			m.member[n * NGRP + 3] = 1;
		}
		for (n = 1; n <= 4; n++)
			m.member[n * NGRP] = 1;
		for (n = 0; n < nnodes; n++)
			model_push(test, idx, &m, n);

		rcu_read_lock();
		t0 = ktime_get_ns();
		for (it = 0; it < iters; it++)
			wc_mcindex_dsts(idx, grp[0], false, 0, idx->scratch);
		t_idx = ktime_get_ns() - t0;
		rcu_read_unlock();
		t0 = ktime_get_ns();
		for (it = 0; it < iters; it++)
			for (n = 0; n < nnodes; n++)
				hits += model_accepts(&m, n, 0, 0);
		t_scan = ktime_get_ns() - t0;
		KUNIT_EXPECT_EQ(test, hits, 4 * iters);
		KUNIT_EXPECT_EQ(test, bitmap_weight(idx->scratch, nnodes), 4u);
		kunit_info(test, "%u nodes, group of 4: index %llu ns, scan %llu ns per frame\n",
			   nnodes, div_u64(t_idx, iters), div_u64(t_scan, iters));
		wc_mcindex_free(idx);
	}
}

static struct kunit_case dstset_cases[] = {
	KUNIT_CASE(mac_round_trip),
	KUNIT_CASE(mac_distinct),
	KUNIT_CASE(mac_foreign),
	KUNIT_CASE(dst_classify),
	KUNIT_CASE(mcindex_basic),
	KUNIT_CASE(mcindex_lists),
	KUNIT_CASE(mcindex_unplanned),
	KUNIT_CASE(mcindex_vs_scan),
	KUNIT_CASE(mcindex_reader_snapshot),
	KUNIT_CASE(mcindex_cost),
	{}
};

static struct kunit_suite wormcast_dstset_suite = {
	.name = "wormcast_dstset",
	.test_cases = dstset_cases,
};

kunit_test_suites(&wormcast_dstset_suite);

MODULE_LICENSE("GPL");
