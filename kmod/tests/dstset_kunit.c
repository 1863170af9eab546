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
 *  - receive filters: exact multicast matches, allmulti, promisc, none.
 */
#include <kunit/test.h>
#include <linux/etherdevice.h>
#include <linux/slab.h>

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

static struct wc_rxfilter *filter_new(struct kunit *test, u32 flags, u32 count)
{
	struct wc_rxfilter *f;

	f = kunit_kzalloc(test, struct_size(f, addrs, count), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, f);
	f->flags = flags;
	f->count = count;
	return f;
}

static void rxfilter_accepts(struct kunit *test)
{
	static const u8 g1[ETH_ALEN] = { 0x01, 0x00, 0x5e, 0x01, 0x02, 0x03 };
	static const u8 g2[ETH_ALEN] = { 0x33, 0x33, 0x00, 0x01, 0x02, 0x03 };
	static const u8 g3[ETH_ALEN] = { 0x01, 0x00, 0x5e, 0x09, 0x09, 0x09 };
	struct wc_rxfilter *f;

	KUNIT_EXPECT_FALSE(test, wc_rxfilter_accepts(NULL, g1));

	f = filter_new(test, 0, 2);
	ether_addr_copy(f->addrs[0], g1);
	ether_addr_copy(f->addrs[1], g2);
	KUNIT_EXPECT_TRUE(test, wc_rxfilter_accepts(f, g1));
	KUNIT_EXPECT_TRUE(test, wc_rxfilter_accepts(f, g2));
	KUNIT_EXPECT_FALSE(test, wc_rxfilter_accepts(f, g3));

	f = filter_new(test, 0, 0);
	KUNIT_EXPECT_FALSE(test, wc_rxfilter_accepts(f, g1));

	f = filter_new(test, WC_RXF_ALLMULTI, 0);
	KUNIT_EXPECT_TRUE(test, wc_rxfilter_accepts(f, g1));
	KUNIT_EXPECT_TRUE(test, wc_rxfilter_accepts(f, g3));

	f = filter_new(test, WC_RXF_PROMISC, 0);
	KUNIT_EXPECT_TRUE(test, wc_rxfilter_accepts(f, g2));
}

static struct kunit_case dstset_cases[] = {
	KUNIT_CASE(mac_round_trip),
	KUNIT_CASE(mac_distinct),
	KUNIT_CASE(mac_foreign),
	KUNIT_CASE(dst_classify),
	KUNIT_CASE(rxfilter_accepts),
	{}
};

static struct kunit_suite wormcast_dstset_suite = {
	.name = "wormcast_dstset",
	.test_cases = dstset_cases,
};

kunit_test_suites(&wormcast_dstset_suite);

MODULE_LICENSE("GPL");
