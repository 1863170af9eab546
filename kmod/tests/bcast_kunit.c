// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for the bcast table of the dcf and edn schemes: the engine's
 * validation and index (kmod/engine/bcast.c) through the real table glue
 * (kmod/tables.c, wc_table_ops), on the 4x4 torus.
 *  - a good schedule (four doublings: +2 in y, +2 in x, +1 in x, +1 in y)
 *    is committed; its index gives each sender's receivers in the table's
 *    order, the subtrees count the nodes each unicast informs (computed
 *    here independently, by walking the schedule), and wc_bcast_node()
 *    moves offsets to a source with wrap-around;
 *  - every kind of bad table is refused with its extack message, and the
 *    published table and generation stay: header too short, a scheme
 *    other than dcf and edn, nnodes, reserved, nsends, size, steps 0 and
 *    above WORMCAST_BCAST_MAX_STEPS, offsets out of range (receiver and
 *    sender), a unicast back to the source, a node received twice, a
 *    sender sending in the step it receives, a sender's unicasts out of
 *    step order;
 *  - a mesh refuses the table (broadcast schedules need a torus).
 */
#include <kunit/test.h>
#include <linux/slab.h>
#include <linux/rcupdate.h>

#include "wormcast.h"
#include "table_push.h"

#define SIDE	4
#define NN	(SIDE * SIDE)

struct bctx {
	struct wc_topo topo;
	struct wc_engine_params params;
	struct wc_tables ts;
	struct netlink_ext_ack ext;
};

struct bblob {
	struct wormcast_bcast h;
	struct wormcast_bcast_send s[NN - 1];
};

/* Four doublings from (0, 0): offsets x + 4 y. */
static void bblob_good(struct bblob *b, u32 scheme)
{
	static const u8 sends[NN - 1][3] = {
		{ 1, 0, 8 },				/* +2 y */
		{ 2, 0, 2 }, { 2, 8, 10 },		/* +2 x */
		{ 3, 0, 1 }, { 3, 2, 3 }, { 3, 8, 9 }, { 3, 10, 11 },
		{ 4, 0, 4 }, { 4, 1, 5 }, { 4, 2, 6 }, { 4, 3, 7 },
		{ 4, 8, 12 }, { 4, 9, 13 }, { 4, 10, 14 }, { 4, 11, 15 },
	};
	u32 i;

	memset(b, 0, sizeof(*b));
	b->h.scheme = scheme;
	b->h.nnodes = NN;
	b->h.nsends = NN - 1;
	for (i = 0; i < NN - 1; i++) {
		b->s[i].step = sends[i][0];
		b->s[i].from = sends[i][1];
		b->s[i].to = sends[i][2];
	}
}

static struct bctx *bctx_new(struct kunit *test, u32 topo)
{
	static const u32 dims[2] = { SIDE, SIDE };
	const char *why = NULL;
	struct bctx *c;

	c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, c);
	KUNIT_ASSERT_EQ(test, wc_topo_init(&c->topo, topo, 2, dims, &why), 0);
	wc_engine_params_default(&c->params, &c->topo);
	wc_tables_init(&c->ts, &c->topo, &c->params, wc_table_ops);
	return c;
}

static void bctx_done(struct bctx *c)
{
	wc_tables_destroy(&c->ts);
	rcu_barrier();
}

/* A whole transaction of kind BCAST in one chunk; COMMIT's result. */
static int bpush(struct bctx *c, const void *blob, size_t len, u32 gen)
{
	u32 new_gen;

	return wc_kunit_table_push(&c->ts, WORMCAST_TABLE_BCAST, blob, len,
				   gen, len, &new_gen, &c->ext);
}

/* Nodes informed through offset @v: itself and its receivers' subtrees. */
static u32 walk_subtree(const struct bblob *b, u32 v)
{
	u32 i, n = 1;

	for (i = 0; i < NN - 1; i++)
		if (b->s[i].from == v)
			n += walk_subtree(b, b->s[i].to);
	return n;
}

static void bcast_good(struct kunit *test)
{
	struct bctx *c = bctx_new(test, WORMCAST_TOPO_TORUS);
	const struct wc_bcast_set *bs;
	struct bblob *b;
	struct wc_table *t;
	u32 v, i, k;

	b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, b);
	bblob_good(b, WORMCAST_MCAST_DCF);
	KUNIT_ASSERT_EQ_MSG(test, bpush(c, b, sizeof(*b), 0), 0, "%s",
			    c->ext._msg ?: "");
	t = wc_tables_get(&c->ts, WORMCAST_TABLE_BCAST);
	KUNIT_ASSERT_NOT_NULL(test, t);
	KUNIT_EXPECT_EQ(test, t->ops->scheme(t), (u32)WORMCAST_MCAST_DCF);
	KUNIT_EXPECT_PTR_EQ(test, t->ops->algo, &wc_algo_plh);
	bs = &t->u.bcast;
	KUNIT_EXPECT_EQ(test, bs->side, (u32)SIDE);
	KUNIT_EXPECT_EQ(test, bs->nsteps, 4u);
	KUNIT_EXPECT_EQ(test, bs->start[NN], (u32)(NN - 1));
	for (v = 0; v < NN; v++) {
		/* the receivers of v, in the table's order */
		k = bs->start[v];
		for (i = 0; i < NN - 1; i++)
			if (b->s[i].from == v)
				KUNIT_EXPECT_EQ(test, (u32)bs->to[k++], b->s[i].to);
		KUNIT_EXPECT_EQ(test, k, bs->start[v + 1]);
		KUNIT_EXPECT_EQ_MSG(test, (u32)bs->subtree[v],
				    walk_subtree(b, v), "offset %u", v);
	}
	KUNIT_EXPECT_EQ(test, (u32)bs->subtree[0], (u32)NN);
	/* offset (3, 1) from (2, 3): (1, 0) after wrapping */
	KUNIT_EXPECT_EQ(test, wc_bcast_node(bs, 2 + SIDE * 3, 3 + SIDE * 1),
			1u);
	KUNIT_EXPECT_EQ(test, wc_bcast_node(bs, 5, 0), 5u);
	wc_table_put(t);
	/* edn too */
	bblob_good(b, WORMCAST_MCAST_EDN);
	KUNIT_EXPECT_EQ(test, bpush(c, b, sizeof(*b), 1), 0);
	bctx_done(c);
}

struct bbad {
	const char *name;
	const char *why;	/* in the extack message */
	size_t len_delta;	/* bytes taken off the end */
	void (*fix)(struct bblob *b);
};

static void fix_scheme(struct bblob *b)
{
	b->h.scheme = WORMCAST_MCAST_MULTIPHASE;
}

static void fix_nnodes(struct bblob *b)
{
	b->h.nnodes = NN + 1;
}

static void fix_reserved(struct bblob *b)
{
	b->h.reserved = 1;
}

static void fix_nsends(struct bblob *b)
{
	b->h.nsends = NN - 2;
}

static void fix_step0(struct bblob *b)
{
	b->s[14].step = 0;
}

static void fix_step_max(struct bblob *b)
{
	b->s[14].step = WORMCAST_BCAST_MAX_STEPS + 1;
}

static void fix_to_range(struct bblob *b)
{
	b->s[14].to = NN;
}

static void fix_from_range(struct bblob *b)
{
	b->s[14].from = NN;
}

static void fix_to_source(struct bblob *b)
{
	b->s[14].to = 0;
}

static void fix_twice(struct bblob *b)
{
	b->s[14].to = 14;	/* 15 never, 14 twice */
}

static void fix_early(struct bblob *b)
{
	b->s[4].step = 2;	/* 2 -> 3 in step 2, when 2 receives */
}

static void fix_order(struct bblob *b)
{
	struct wormcast_bcast_send x = b->s[1];	/* the source: 2 before 1 */

	b->s[1] = b->s[0];
	b->s[0] = x;
}

static void fix_none(struct bblob *b)
{
}

static const struct bbad bbad_cases[] = {
	{ "short header", "shorter than its header",
	  sizeof(struct bblob) - 8, fix_none },
	{ "scheme", "scheme must be dcf or edn", 0, fix_scheme },
	{ "nnodes", "nnodes is not the fabric's", 0, fix_nnodes },
	{ "reserved", "reserved field", 0, fix_reserved },
	{ "nsends", "nnodes - 1 unicasts", 0, fix_nsends },
	{ "size", "size is not its header", 1, fix_none },
	{ "step 0", "step is not in", 0, fix_step0 },
	{ "step too big", "step is not in", 0, fix_step_max },
	{ "receiver out of range", "offset is not a node", 0, fix_to_range },
	{ "sender out of range", "offset is not a node", 0, fix_from_range },
	{ "back to the source", "back to the source", 0, fix_to_source },
	{ "received twice", "receives the broadcast twice", 0, fix_twice },
	{ "sends before it received", "before it received", 0, fix_early },
	{ "sender's order", "not in step order", 0, fix_order },
};

static void bcast_bad(struct kunit *test)
{
	struct bctx *c = bctx_new(test, WORMCAST_TOPO_TORUS);
	struct wc_table *before;
	struct bblob *b;
	unsigned int i;

	b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, b);
	bblob_good(b, WORMCAST_MCAST_EDN);
	KUNIT_ASSERT_EQ(test, bpush(c, b, sizeof(*b), 0), 0);
	before = wc_tables_get(&c->ts, WORMCAST_TABLE_BCAST);
	KUNIT_ASSERT_NOT_NULL(test, before);
	for (i = 0; i < ARRAY_SIZE(bbad_cases); i++) {
		const struct bbad *x = &bbad_cases[i];

		bblob_good(b, WORMCAST_MCAST_DCF);
		x->fix(b);
		wc_kunit_expect_refused(test, &c->ts, WORMCAST_TABLE_BCAST,
					bpush(c, b, sizeof(*b) - x->len_delta,
					      1),
					&c->ext, x->why, x->name, 1, before);
	}
	wc_table_put(before);
	bctx_done(c);
}

static void bcast_mesh(struct kunit *test)
{
	struct bctx *c = bctx_new(test, WORMCAST_TOPO_MESH);
	struct bblob *b;

	b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, b);
	bblob_good(b, WORMCAST_MCAST_DCF);
	KUNIT_EXPECT_EQ(test, bpush(c, b, sizeof(*b), 0), -EINVAL);
	KUNIT_EXPECT_TRUE(test, c->ext._msg &&
			  strstr(c->ext._msg, "n x n torus"));
	KUNIT_EXPECT_EQ(test, wc_tables_gen(&c->ts), 0u);
	bctx_done(c);
}

static struct kunit_case bcast_cases[] = {
	KUNIT_CASE(bcast_good),
	KUNIT_CASE(bcast_bad),
	KUNIT_CASE(bcast_mesh),
	{}
};

static struct kunit_suite bcast_suite = {
	.name = "wormcast_bcast",
	.test_cases = bcast_cases,
};

kunit_test_suites(&bcast_suite);

MODULE_LICENSE("GPL");
