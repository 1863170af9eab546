// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for kmod/tables.c: the table transaction (TABLE_NEW, CHUNK,
 * COMMIT, ABORT) and the publication of tables, without netlink or a
 * fabric.
 *
 * The tree validation itself belongs to the engine (tree_mcast.c) and is
 * tested with it.  Here the kind TREES is first built by a test double
 * that checks the header of struct wormcast_trees as the uapi documents
 * it and counts the tables alive, so that the glue's behaviour can be
 * checked on its own:
 *  - a good table is committed as the next generation, published, read
 *    back byte for byte, and the table it replaces is freed;
 *  - every kind of bad table (size mismatch, wrong nnodes, wrong ntrees
 *    for the scheme, bad scheme, faulty links, which the fake does not
 *    take) is refused with an extack message, and the published table
 *    and generation stay;
 *  - transaction errors: chunk out of order, overrun, incomplete commit,
 *    stale generation, a replaced transaction, abort then chunk;
 *  - nothing leaks (every table and transaction freed, RCU included).
 * Then the real TREES kind (wc_table_ops) commits a valid DSTM-1 table of
 * the 4x4 torus and refuses a bad one.
 */
#include <kunit/test.h>
#include <linux/slab.h>
#include <linux/rcupdate.h>

#include "wormcast.h"
#include "table_push.h"

#define HDR_BYTES	sizeof(struct wormcast_trees)
#define NNODES		16

static atomic_t live_tables;

/* Test double of the TREES kind: the header checks of the uapi. */
static int fake_build(struct wc_table *t, struct wc_tables *ts,
		      const char **why)
{
	const struct wc_topo *topo = ts->topo;
	const struct wormcast_trees *h = t->bytes;
	u32 want;

	if (t->size < HDR_BYTES) {
		*why = "fake: shorter than the header";
		return -EINVAL;
	}
	if (h->scheme < WORMCAST_MCAST_SPAM || h->scheme > WORMCAST_MCAST_MAX) {
		*why = "fake: bad scheme";
		return -EINVAL;
	}
	if (h->nnodes != topo->nnodes) {
		*why = "fake: wrong nnodes";
		return -EINVAL;
	}
	want = h->scheme == WORMCAST_MCAST_SPAM ? 1 : 2;
	if (h->ntrees != want) {
		*why = "fake: wrong ntrees for the scheme";
		return -EINVAL;
	}
	if (h->nfaults) {
		*why = "fake: faulty links";
		return -EINVAL;
	}
	if (t->size != HDR_BYTES + h->ntrees * h->nnodes) {
		*why = "fake: size mismatch";
		return -EINVAL;
	}
	t->u.trees.scheme = h->scheme;
	t->u.trees.ntrees = h->ntrees;
	t->u.trees.nnodes = h->nnodes;
	atomic_inc(&live_tables);
	return 0;
}

static void fake_destroy(struct wc_table *t)
{
	atomic_dec(&live_tables);
}

static size_t fake_mem(const struct wc_table *t)
{
	return 0;
}

static const struct wc_table_ops fake_ops[WORMCAST_TABLE_MAX + 1] = {
	[WORMCAST_TABLE_TREES] = {
		.build = fake_build,
		.destroy = fake_destroy,
		.mem = fake_mem,
	},
};

/* Two edge-disjoint spanning trees of the 4x4 torus (tests/selftests/tables.py). */
static const u8 tree0[NNODES] = { 255, 1, 3, 0, 0, 3, 3, 0,
				  0, 3, 3, 0, 3, 0, 0, 0 };
static const u8 tree1[NNODES] = { 3, 0, 0, 3, 3, 0, 0, 3,
				  3, 0, 0, 2, 0, 3, 3, 255 };

struct ctx {
	struct wc_topo topo;
	struct wc_engine_params params;
	struct wc_tables ts;
	struct netlink_ext_ack ext;
};

/* A valid struct wormcast_trees of the 4x4 torus: two trees. */
static u8 *blob_make(struct kunit *test, u32 scheme, size_t *len)
{
	struct wormcast_trees *h;

	*len = HDR_BYTES + 2 * NNODES;
	h = kunit_kzalloc(test, *len, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, h);
	h->scheme = scheme;
	h->nnodes = NNODES;
	h->ntrees = 2;
	h->root[0] = 0;
	h->root[1] = NNODES - 1;
	memcpy(h->parent_port, tree0, NNODES);
	memcpy(h->parent_port + NNODES, tree1, NNODES);
	return (u8 *)h;
}

static struct ctx *ctx_new(struct kunit *test, const struct wc_table_ops *ops)
{
	static const u32 dims[2] = { 4, 4 };
	const char *why = NULL;
	struct ctx *c;

	c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, c);
	KUNIT_ASSERT_EQ(test, wc_topo_init(&c->topo, WORMCAST_TOPO_TORUS, 2,
					   dims, &why), 0);
	wc_engine_params_default(&c->params, &c->topo);
	wc_tables_init(&c->ts, &c->topo, &c->params, ops);
	atomic_set(&live_tables, 0);
	return c;
}

/* Free everything, wait for the RCU frees, check that nothing is left. */
static void ctx_done(struct kunit *test, struct ctx *c)
{
	wc_tables_destroy(&c->ts);
	rcu_barrier();
	KUNIT_EXPECT_EQ(test, atomic_read(&live_tables), 0);
}

static bool msg_has(struct ctx *c, const char *text)
{
	return c->ext._msg && strstr(c->ext._msg, text);
}

/* A whole transaction in chunks of @step bytes; COMMIT's result. */
static int push(struct ctx *c, const u8 *blob, size_t len, u32 gen,
		size_t step, u32 *new_gen)
{
	return wc_kunit_table_push(&c->ts, WORMCAST_TABLE_TREES, blob, len,
				   gen, step, new_gen, &c->ext);
}

static void tables_good(struct kunit *test)
{
	struct ctx *c = ctx_new(test, fake_ops);
	struct wc_table *t, *first;
	size_t len;
	u8 *blob = blob_make(test, WORMCAST_MCAST_DSTM1, &len);
	u32 gen = 0;

	KUNIT_EXPECT_EQ(test, wc_tables_gen(&c->ts), 0u);
	KUNIT_EXPECT_NULL(test, wc_tables_get(&c->ts, WORMCAST_TABLE_TREES));
	KUNIT_ASSERT_EQ(test, push(c, blob, len, 0, 7, &gen), 0);
	KUNIT_EXPECT_EQ(test, gen, 1u);
	KUNIT_EXPECT_EQ(test, wc_tables_gen(&c->ts), 1u);

	first = wc_tables_get(&c->ts, WORMCAST_TABLE_TREES);
	KUNIT_ASSERT_NOT_NULL(test, first);
	KUNIT_EXPECT_EQ(test, first->kind, (u32)WORMCAST_TABLE_TREES);
	KUNIT_EXPECT_EQ(test, first->gen, 1u);
	KUNIT_EXPECT_EQ(test, first->size, (u32)len);
	KUNIT_EXPECT_EQ(test, memcmp(first->bytes, blob, len), 0);
	KUNIT_EXPECT_EQ(test, first->u.trees.scheme, (u32)WORMCAST_MCAST_DSTM1);
	KUNIT_EXPECT_GT(test, wc_tables_mem(&c->ts), len);

	/* recommitted against generation 1: generation 2 replaces it */
	KUNIT_ASSERT_EQ(test, push(c, blob, len, 1, len, &gen), 0);
	KUNIT_EXPECT_EQ(test, gen, 2u);
	t = wc_tables_get(&c->ts, WORMCAST_TABLE_TREES);
	KUNIT_ASSERT_NOT_NULL(test, t);
	KUNIT_EXPECT_PTR_NE(test, t, first);
	KUNIT_EXPECT_EQ(test, t->gen, 2u);
	wc_table_put(t);
	/* the first one lives while it is held (a pinned table), then goes */
	rcu_barrier();
	KUNIT_EXPECT_EQ(test, atomic_read(&live_tables), 2);
	KUNIT_EXPECT_EQ(test, first->gen, 1u);
	wc_table_put(first);
	rcu_barrier();
	KUNIT_EXPECT_EQ(test, atomic_read(&live_tables), 1);
	ctx_done(test, c);
}

struct bad_case {
	const char *name;
	const char *why;	/* in the extack message */
	void (*fix)(struct wormcast_trees *h, size_t *len);
};

static void fix_size(struct wormcast_trees *h, size_t *len)
{
	(*len)--;
}

static void fix_nnodes(struct wormcast_trees *h, size_t *len)
{
	h->nnodes = NNODES + 1;
}

static void fix_ntrees(struct wormcast_trees *h, size_t *len)
{
	h->scheme = WORMCAST_MCAST_SPAM;
}

static void fix_scheme(struct wormcast_trees *h, size_t *len)
{
	h->scheme = WORMCAST_MCAST_MAX + 1;
}

static void fix_nfaults(struct wormcast_trees *h, size_t *len)
{
	h->nfaults = 1;
}

static const struct bad_case bad_cases[] = {
	{ "size mismatch", "size mismatch", fix_size },
	{ "wrong nnodes", "wrong nnodes", fix_nnodes },
	{ "wrong ntrees for the scheme", "wrong ntrees", fix_ntrees },
	{ "bad scheme", "bad scheme", fix_scheme },
	{ "faulty links", "faulty links", fix_nfaults },
};

/* Every bad table is refused, and the published one stays. */
static void tables_bad(struct kunit *test)
{
	struct ctx *c = ctx_new(test, fake_ops);
	struct wc_table *before, *after;
	unsigned int i;
	size_t len;
	u8 *good = blob_make(test, WORMCAST_MCAST_DSTM1, &len);
	u32 gen = 0;

	KUNIT_ASSERT_EQ(test, push(c, good, len, 0, len, &gen), 0);
	before = wc_tables_get(&c->ts, WORMCAST_TABLE_TREES);
	KUNIT_ASSERT_NOT_NULL(test, before);
	for (i = 0; i < ARRAY_SIZE(bad_cases); i++) {
		const struct bad_case *b = &bad_cases[i];
		size_t blen;
		u8 *blob = blob_make(test, WORMCAST_MCAST_DSTM1, &blen);

		b->fix((struct wormcast_trees *)blob, &blen);
		KUNIT_EXPECT_EQ_MSG(test, push(c, blob, blen, 1, 5, &gen),
				    -EINVAL, "%s", b->name);
		KUNIT_EXPECT_TRUE_MSG(test, msg_has(c, b->why), "%s: %s",
				      b->name, c->ext._msg ?: "(none)");
		KUNIT_EXPECT_EQ_MSG(test, wc_tables_gen(&c->ts), 1u, "%s",
				    b->name);
		after = wc_tables_get(&c->ts, WORMCAST_TABLE_TREES);
		KUNIT_EXPECT_PTR_EQ_MSG(test, after, before, "%s", b->name);
		wc_table_put(after);
	}
	KUNIT_EXPECT_EQ(test, memcmp(before->bytes, good, len), 0);
	wc_table_put(before);
	ctx_done(test, c);
}

static void tables_txn_errors(struct kunit *test)
{
	struct ctx *c = ctx_new(test, fake_ops);
	struct netlink_ext_ack *ext = &c->ext;
	struct wc_tables *ts = &c->ts;
	u32 txn, txn2, kind, gen;
	size_t len;
	u8 *blob = blob_make(test, WORMCAST_MCAST_DSTM1, &len);

	/* kind and size */
	KUNIT_EXPECT_EQ(test, wc_table_txn_new(ts, WORMCAST_TABLE_UNSPEC, len,
					       0, &txn, ext), -EINVAL);
	KUNIT_EXPECT_TRUE(test, msg_has(c, "unknown table kind"));
	KUNIT_EXPECT_EQ(test, wc_table_txn_new(ts, WORMCAST_TABLE_TREES, 0, 0,
					       &txn, ext), -EINVAL);
	KUNIT_EXPECT_EQ(test, wc_table_txn_new(ts, WORMCAST_TABLE_TREES,
					       WORMCAST_TABLE_MAX_BYTES + 1, 0,
					       &txn, ext), -EINVAL);
	KUNIT_EXPECT_TRUE(test, msg_has(c, "table size"));

	/* stale generation */
	KUNIT_EXPECT_EQ(test, wc_table_txn_new(ts, WORMCAST_TABLE_TREES, len,
					       3, &txn, ext), -EAGAIN);
	KUNIT_EXPECT_TRUE(test, msg_has(c, "old generation"));

	/* chunk out of order, overrun, incomplete commit */
	KUNIT_ASSERT_EQ(test, wc_table_txn_new(ts, WORMCAST_TABLE_TREES, len,
					       0, &txn, ext), 0);
	KUNIT_EXPECT_EQ(test, wc_table_txn_chunk(ts, txn, 4, blob, 4, ext),
			-EINVAL);
	KUNIT_EXPECT_TRUE(test, msg_has(c, "out of order"));
	KUNIT_EXPECT_EQ(test, wc_table_txn_chunk(ts, txn, 0, blob, 8, ext), 0);
	KUNIT_EXPECT_EQ(test, wc_table_txn_chunk(ts, txn, 8, blob, len, ext),
			-EINVAL);
	KUNIT_EXPECT_TRUE(test, msg_has(c, "overruns"));
	KUNIT_EXPECT_EQ(test, wc_table_txn_commit(ts, txn, &kind, &gen, ext),
			-EINVAL);
	KUNIT_EXPECT_TRUE(test, msg_has(c, "incomplete"));
	/* a refused commit ends the transaction */
	KUNIT_EXPECT_EQ(test, wc_table_txn_chunk(ts, txn, 8, blob + 8, 8, ext),
			-ENOENT);
	KUNIT_EXPECT_TRUE(test, msg_has(c, "no table transaction"));

	/* a new transaction replaces the open one */
	KUNIT_ASSERT_EQ(test, wc_table_txn_new(ts, WORMCAST_TABLE_TREES, len,
					       0, &txn, ext), 0);
	KUNIT_ASSERT_EQ(test, wc_table_txn_new(ts, WORMCAST_TABLE_TREES, len,
					       0, &txn2, ext), 0);
	KUNIT_EXPECT_NE(test, txn, txn2);
	KUNIT_EXPECT_EQ(test, wc_table_txn_chunk(ts, txn, 0, blob, len, ext),
			-ENOENT);
	KUNIT_EXPECT_TRUE(test, msg_has(c, "not the open table transaction"));
	KUNIT_EXPECT_EQ(test, wc_table_txn_commit(ts, txn, &kind, &gen, ext),
			-ENOENT);

	/* abort, then chunk and commit fail */
	KUNIT_EXPECT_EQ(test, wc_table_txn_chunk(ts, txn2, 0, blob, len, ext),
			0);
	KUNIT_EXPECT_EQ(test, wc_table_txn_abort(ts, txn2, ext), 0);
	KUNIT_EXPECT_EQ(test, wc_table_txn_chunk(ts, txn2, 0, blob, 1, ext),
			-ENOENT);
	KUNIT_EXPECT_EQ(test, wc_table_txn_commit(ts, txn2, &kind, &gen, ext),
			-ENOENT);
	KUNIT_EXPECT_EQ(test, wc_table_txn_abort(ts, txn2, ext), -ENOENT);

	/* nothing was published by any of it */
	KUNIT_EXPECT_EQ(test, wc_tables_gen(ts), 0u);
	KUNIT_EXPECT_NULL(test, wc_tables_get(ts, WORMCAST_TABLE_TREES));

	/* a table computed against generation 0 once 1 is committed */
	KUNIT_ASSERT_EQ(test, push(c, blob, len, 0, len, &gen), 0);
	KUNIT_EXPECT_EQ(test, push(c, blob, len, 0, len, &gen), -EAGAIN);
	KUNIT_EXPECT_EQ(test, wc_tables_gen(ts), 1u);

	/* an open transaction is freed with the tables */
	KUNIT_ASSERT_EQ(test, wc_table_txn_new(ts, WORMCAST_TABLE_TREES, len,
					       1, &txn, ext), 0);
	KUNIT_EXPECT_EQ(test, wc_table_txn_chunk(ts, txn, 0, blob, 3, ext), 0);
	ctx_done(test, c);
}

/* The real TREES kind: the engine's validation through the glue. */
static void tables_real_trees(struct kunit *test)
{
	struct ctx *c = ctx_new(test, wc_table_ops);
	const char *why = NULL;
	size_t len;
	u8 *blob = blob_make(test, WORMCAST_MCAST_DSTM1, &len);
	u32 gen = 0;
	int err;

	KUNIT_EXPECT_EQ_MSG(test, wc_mcast_check(WORMCAST_MCAST_DSTM1, &c->topo,
						 &c->params, &why), 0,
			    "%s", why ?: "");
	err = push(c, blob, len, 0, 10, &gen);
	KUNIT_EXPECT_EQ_MSG(test, err, 0, "%s", c->ext._msg ?: "");
	KUNIT_EXPECT_EQ(test, gen, 1u);
	fix_nfaults((struct wormcast_trees *)blob, &len);
	KUNIT_EXPECT_EQ(test, push(c, blob, len, 1, len, &gen), -EINVAL);
	KUNIT_EXPECT_NOT_NULL(test, c->ext._msg);
	KUNIT_EXPECT_EQ(test, wc_tables_gen(&c->ts), 1u);
	ctx_done(test, c);
}

static struct kunit_case tables_cases[] = {
	KUNIT_CASE(tables_good),
	KUNIT_CASE(tables_bad),
	KUNIT_CASE(tables_txn_errors),
	KUNIT_CASE(tables_real_trees),
	{}
};

static struct kunit_suite tables_suite = {
	.name = "wormcast_tables",
	.test_cases = tables_cases,
};

kunit_test_suites(&tables_suite);

MODULE_LICENSE("GPL");
