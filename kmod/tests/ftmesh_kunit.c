// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for the ftmesh table (kmod/engine/ftm_set.c) through the
 * real table glue (kmod/tables.c, wc_table_ops), and for wc_algo_ftmesh
 * routing by the tables it builds, on a 6x6 mesh with two faulty blocks:
 * B0 = (2,2)-(3,3) and B1 = (5,0).  The table is built here: the safety
 * vectors by walking from each node, the records of the adjacent lines by
 * the definition (no line of one block crosses the other, so there is no
 * transfer: 16 records of B0, 4 per subnetwork, and 10 of B1 in +X-Y).
 *  - the good table is committed, indexed as the engine wants it (blocks
 *    painted, safety, canonical records) and served to scheme ftmesh;
 *  - every kind of bad table is refused with its extack message, and the
 *    published table and generation stay;
 *  - a torus, too few VCs, lock-step replication, and the detour flag
 *    with fewer than 8 VCs are refused (also as a scheme);
 *  - the engine routes a multicast from every node outside the blocks to
 *    every other node on the committed table: each destination the
 *    source is extended safe to (computed here by scanning its row and
 *    column) is consumed exactly once, no channel enters or leaves a
 *    block, the others are exactly the engine's fault_drops; the same
 *    31 multicasts at once finish with no watchdog report;
 *  - Strategy 3 plans checked against a committed table of strategy 3:
 *    a good plan laid out as the source sends it, every bad one refused.
 */
#include <kunit/test.h>
#include <linux/slab.h>
#include <linux/rcupdate.h>

#include "wormcast.h"
#include "table_push.h"
#include "case_kunit.h"
/* engine_cases.h's own cases run in engine_kunit.c; only its recorder here. */
__diag_push();
__diag_ignore_all("-Wunused-function", "only the recorder of engine_cases.h is used");
#include "engine_cases.h"
__diag_pop();

#define SIDE	6
#define NN	(SIDE * SIDE)
#define NB	2
#define NOFF	(WORMCAST_FTMESH_SUBNETS * NN + 1)
#define MAXREC	32

static const struct wormcast_ftmesh_block fblocks[NB] = {
	{ .x0 = 2, .y0 = 2, .x1 = 3, .y1 = 3 },
	{ .x0 = 5, .y0 = 0, .x1 = 5, .y1 = 0 },
};

struct fblob {
	struct wormcast_ftmesh h;
	struct wormcast_ftmesh_block b[NB];
	struct wormcast_ftmesh_safety s[NN];
	u32 off[NOFF];
	struct wormcast_ftmesh_rec r[MAXREC];
};

static size_t flen(const struct fblob *f)
{
	return offsetof(struct fblob, r) + f->h.nrecs * sizeof(f->r[0]);
}

static bool in_blk(u32 x, u32 y)
{
	u32 i;

	for (i = 0; i < NB; i++)
		if (x >= fblocks[i].x0 && x <= fblocks[i].x1 &&
		    y >= fblocks[i].y0 && y <= fblocks[i].y1)
			return true;
	return false;
}

/* Hops from (x, y) to the first block node stepping (dx, dy); INF if none. */
static u16 walk(int x, int y, int dx, int dy)
{
	u16 k;

	if (in_blk(x, y))
		return 0;
	for (k = 1;; k++) {
		x += dx;
		y += dy;
		if (x < 0 || y < 0 || x >= SIDE || y >= SIDE)
			return WORMCAST_FTMESH_SAFETY_INF;
		if (in_blk(x, y))
			return k;
	}
}

/* Is canonical (cx, cy) of subnetwork q on line @line of block b? */
static bool on_line(u32 q, u32 b, u32 line, u32 cx, u32 cy)
{
	struct wc_ft_rect p = { fblocks[b].x0, fblocks[b].y0,
				fblocks[b].x1, fblocks[b].y1 }, c;

	wc_ft_canon_rect(q, SIDE, SIDE, &p, &c);
	if (!c.x0 || !c.y0)
		return false;
	if (line == WC_FT_L1)
		return cy == c.y0 - 1u && cx < c.x0;
	return cx == c.x0 - 1u && cy < c.y0;
}

static void fblob_good(struct fblob *f, u32 strategy, u32 flags)
{
	u32 q, n, b, l, k = 0;

	memset(f, 0, sizeof(*f));
	f->h.nnodes = NN;
	f->h.strategy = strategy;
	f->h.flags = flags;
	f->h.nblocks = NB;
	f->h.seed = 0x1234;
	memcpy(f->b, fblocks, sizeof(fblocks));
	for (n = 0; n < NN; n++) {
		f->s[n].e = walk(n % SIDE, n / SIDE, 1, 0);
		f->s[n].s = walk(n % SIDE, n / SIDE, 0, -1);
		f->s[n].w = walk(n % SIDE, n / SIDE, -1, 0);
		f->s[n].n = walk(n % SIDE, n / SIDE, 0, 1);
	}
	for (q = 0; q < WORMCAST_FTMESH_SUBNETS; q++)
		for (n = 0; n < NN; n++) {
			u32 cx, cy;

			f->off[q * NN + n] = k;
			if (in_blk(n % SIDE, n / SIDE))
				continue;
			wc_ft_canon(q, SIDE, SIDE, n % SIDE, n / SIDE, &cx, &cy);
			for (b = 0; b < NB; b++)
				for (l = WC_FT_L1; l <= WC_FT_L3; l++)
					if (on_line(q, b, l, cx, cy) &&
					    k < MAXREC) {
						f->r[k].block = b;
						f->r[k++].line = l;
					}
		}
	f->off[NOFF - 1] = k;
	f->h.nrecs = k;
}

struct fctx {
	struct wc_topo topo;
	struct wc_engine_params params;
	struct wc_tables ts;
	struct netlink_ext_ack ext;
};

static struct fctx *fctx_new(struct kunit *test, u32 topo, u32 vcs, u32 repl)
{
	static const u32 dims[2] = { SIDE, SIDE };
	const char *why = NULL;
	struct fctx *c;

	c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, c);
	KUNIT_ASSERT_EQ(test, wc_topo_init(&c->topo, topo, 2, dims, &why), 0);
	wc_engine_params_default(&c->params, &c->topo);
	c->params.vcs = vcs;
	c->params.replication = repl;
	c->params.buf_flits = WC_MAX_BUF_FLITS;
	wc_tables_init(&c->ts, &c->topo, &c->params, wc_table_ops);
	return c;
}

static void fctx_done(struct fctx *c)
{
	wc_tables_destroy(&c->ts);
	rcu_barrier();
}

/* A whole transaction of kind FTMESH in one chunk; COMMIT's result. */
static int fpush(struct fctx *c, const void *blob, size_t len, u32 gen)
{
	u32 new_gen;

	return wc_kunit_table_push(&c->ts, WORMCAST_TABLE_FTMESH, blob, len,
				   gen, len, &new_gen, &c->ext);
}

static struct fblob *fblob_new(struct kunit *test)
{
	struct fblob *f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, f);
	return f;
}

static void ftm_good(struct kunit *test)
{
	struct fctx *c = fctx_new(test, WORMCAST_TOPO_MESH, 4, WC_REPL_ASYNC);
	struct fblob *f = fblob_new(test);
	const struct wc_ftm_tables *tab;
	struct wc_table *t;
	u32 n, k, blocked = 0;

	fblob_good(f, 2, 0);
	KUNIT_EXPECT_EQ(test, f->h.nrecs, 26u);
	KUNIT_ASSERT_EQ_MSG(test, fpush(c, f, flen(f), 0), 0, "%s",
			    c->ext._msg ?: "");
	t = wc_tables_get(&c->ts, WORMCAST_TABLE_FTMESH);
	KUNIT_ASSERT_NOT_NULL(test, t);
	KUNIT_EXPECT_EQ(test, t->ops->scheme(t), (u32)WORMCAST_MCAST_FTMESH);
	KUNIT_EXPECT_PTR_EQ(test, t->ops->algo, &wc_algo_ftmesh);
	KUNIT_EXPECT_EQ(test, wc_mcast_table_kind(WORMCAST_MCAST_FTMESH),
			(u32)WORMCAST_TABLE_FTMESH);
	tab = &t->u.ftm.tab;
	KUNIT_EXPECT_PTR_EQ(test, (const void *)tab, (const void *)&t->u);
	KUNIT_EXPECT_EQ(test, tab->w, (u32)SIDE);
	KUNIT_EXPECT_EQ(test, tab->h, (u32)SIDE);
	KUNIT_EXPECT_EQ(test, tab->strategy, 2u);
	KUNIT_EXPECT_EQ(test, tab->seed, 0x1234ull);
	KUNIT_EXPECT_FALSE(test, tab->detour);
	KUNIT_EXPECT_EQ(test, t->u.ftm.nblocks, (u32)NB);
	for (n = 0; n < NN; n++) {
		KUNIT_EXPECT_EQ_MSG(test, !!tab->in_block[n],
				    in_blk(n % SIDE, n / SIDE), "node %u", n);
		blocked += !!tab->in_block[n];
	}
	KUNIT_EXPECT_EQ(test, blocked, 5u);
	/* (0, 2): B0 two hops east, nothing north; (5, 1): B1 one south */
	KUNIT_EXPECT_EQ(test, tab->safety[4 * 12 + 0], (u16)2);
	KUNIT_EXPECT_EQ(test, tab->safety[4 * 12 + 3],
			(u16)WORMCAST_FTMESH_SAFETY_INF);
	KUNIT_EXPECT_EQ(test, tab->safety[4 * 11 + 1], (u16)1);
	/* (1, 1) in +X+Y: the corner of B0's L1 and L3, two records */
	k = tab->off[0 * NN + 7];
	KUNIT_EXPECT_EQ(test, tab->off[0 * NN + 8] - k, 2u);
	KUNIT_EXPECT_EQ(test, (u32)tab->recs[k].b.x0, 2u);
	KUNIT_EXPECT_EQ(test, (u32)tab->recs[k].b.y1, 3u);
	/* (4, 1) in +X-Y: B1 at canonical (5, 5), both lines */
	k = tab->off[1 * NN + 10];
	KUNIT_EXPECT_EQ(test, tab->off[1 * NN + 11] - k, 2u);
	KUNIT_EXPECT_EQ(test, (u32)tab->recs[k].b.x0, 5u);
	KUNIT_EXPECT_EQ(test, (u32)tab->recs[k].b.y0, 5u);
	KUNIT_EXPECT_EQ(test, tab->off[NOFF - 1], 26u);
	wc_table_put(t);
	fctx_done(c);
}

struct fbad {
	const char *name;
	const char *why;	/* in the extack message */
	long len_delta;		/* bytes taken off (or added to) the end */
	void (*fix)(struct fblob *f);
};

static void fix_none(struct fblob *f)
{
}

static void fix_nnodes(struct fblob *f)
{
	f->h.nnodes = NN + 1;
}

static void fix_strategy0(struct fblob *f)
{
	f->h.strategy = 0;
}

static void fix_strategy4(struct fblob *f)
{
	f->h.strategy = 4;
}

static void fix_flags(struct fblob *f)
{
	f->h.flags = 0x2;
}

static void fix_reserved(struct fblob *f)
{
	f->h.reserved = 1;
}

static void fix_nblocks_max(struct fblob *f)
{
	f->h.nblocks = WORMCAST_FTMESH_MAX_BLOCKS + 1;
}

static void fix_nrecs_huge(struct fblob *f)
{
	f->h.nrecs = U32_MAX;	/* the length must not wrap */
}

static void fix_out(struct fblob *f)
{
	f->b[1].x0 = SIDE;
	f->b[1].x1 = SIDE;
}

static void fix_inverted(struct fblob *f)
{
	f->b[0].x0 = 3;
	f->b[0].x1 = 2;
}

static void fix_overlap(struct fblob *f)
{
	f->b[1] = (struct wormcast_ftmesh_block){ 3, 3, 3, 3 };
}

static void fix_adjacent(struct fblob *f)
{
	f->b[1] = (struct wormcast_ftmesh_block){ 4, 2, 4, 2 };
}

static void fix_diagonal(struct fblob *f)
{
	f->b[1] = (struct wormcast_ftmesh_block){ 4, 4, 4, 4 };
}

static void fix_safety(struct fblob *f)
{
	f->s[12].e = 3;
}

static void fix_safety_inside(struct fblob *f)
{
	f->s[14].n = 1;		/* (2, 2) is in B0 */
}

static void fix_off0(struct fblob *f)
{
	f->off[0] = 1;
}

static void fix_off_down(struct fblob *f)
{
	f->off[2 * NN] = f->off[2 * NN + 1] + 1;
}

static void fix_off_last(struct fblob *f)
{
	f->off[NOFF - 1]--;
}

static void fix_rec_block(struct fblob *f)
{
	f->r[0].block = NB;
}

static void fix_rec_line(struct fblob *f)
{
	f->r[0].line = 3;
}

static void fix_rec_reserved(struct fblob *f)
{
	f->r[0].reserved[2] = 1;
}

/* +X+Y: node 7 (1, 1) holds off[7] .. off[8]; give its 2nd to node 14 */
static void fix_rec_in_block(struct fblob *f)
{
	u32 n;

	for (n = 8; n <= 14; n++)
		f->off[n] = f->off[7] + 1;
}

static void fix_rec_twice(struct fblob *f)
{
	f->r[f->off[8] - 1].line = f->r[f->off[7]].line;
}

/* node 1 (1, 0) holds B0's L3 in +X+Y: B1 (5, 0) is not ahead of it */
static void fix_rec_behind(struct fblob *f)
{
	f->r[f->off[1]].block = 1;
}

/* node 1's record to node 0: ahead of B0, but on no L3 column */
static void fix_rec_off_line(struct fblob *f)
{
	f->off[1] = f->off[2];
}

/* the last record dropped: a node of B1's line in +X-Y lacks it */
static void fix_rec_missing(struct fblob *f)
{
	u32 i, last = f->h.nrecs;

	for (i = 0; i < NOFF; i++)
		if (f->off[i] == last)
			f->off[i] = last - 1;
	f->h.nrecs--;
}

static const struct fbad fbad_cases[] = {
	{ "short header", "shorter than its header",
	  (long)sizeof(struct fblob), fix_none },
	{ "nnodes", "nnodes is not the fabric's", 0, fix_nnodes },
	{ "strategy 0", "strategy must be 1, 2 or 3", 0, fix_strategy0 },
	{ "strategy 4", "strategy must be 1, 2 or 3", 0, fix_strategy4 },
	{ "flags", "unknown flags", 0, fix_flags },
	{ "reserved", "reserved field", 0, fix_reserved },
	{ "nblocks", "WORMCAST_FTMESH_MAX_BLOCKS", 0, fix_nblocks_max },
	{ "size short", "size is not its header", 1, fix_none },
	{ "size long", "size is not its header", -4, fix_none },
	{ "nrecs huge", "size is not its header", 0, fix_nrecs_huge },
	{ "block outside", "not inside the mesh", 0, fix_out },
	{ "block inverted", "x0 > x1", 0, fix_inverted },
	{ "blocks overlap", "blocks overlap", 0, fix_overlap },
	{ "blocks adjacent", "are adjacent", 0, fix_adjacent },
	{ "Definition 1", "both dimensions", 0, fix_diagonal },
	{ "safety", "safety vector", 0, fix_safety },
	{ "safety inside", "safety vector", 0, fix_safety_inside },
	{ "offset 0", "record offsets", 0, fix_off0 },
	{ "offsets decrease", "record offsets", 0, fix_off_down },
	{ "offsets end", "record offsets", 0, fix_off_last },
	{ "record block", "names no block", 0, fix_rec_block },
	{ "record line", "line is not 1", 0, fix_rec_line },
	{ "record reserved", "reserved bytes", 0, fix_rec_reserved },
	{ "record in a block", "inside a faulty block", 0, fix_rec_in_block },
	{ "record twice", "twice", 0, fix_rec_twice },
	{ "record behind", "not ahead of its node", 0, fix_rec_behind },
	{ "record off line", "on no block's adjacent line", 0,
	  fix_rec_off_line },
	{ "record missing", "lacks that block's record",
	  (long)sizeof(struct wormcast_ftmesh_rec), fix_rec_missing },
};

static void ftm_bad(struct kunit *test)
{
	struct fctx *c = fctx_new(test, WORMCAST_TOPO_MESH, 4, WC_REPL_ASYNC);
	struct fblob *f = fblob_new(test);
	struct wc_table *before;
	unsigned int i;

	fblob_good(f, 1, 0);
	KUNIT_ASSERT_EQ(test, fpush(c, f, flen(f), 0), 0);
	before = wc_tables_get(&c->ts, WORMCAST_TABLE_FTMESH);
	KUNIT_ASSERT_NOT_NULL(test, before);
	for (i = 0; i < ARRAY_SIZE(fbad_cases); i++) {
		const struct fbad *x = &fbad_cases[i];
		size_t len;

		fblob_good(f, 2, 0);
		len = flen(f);
		x->fix(f);
		if (x->len_delta >= (long)len)
			len = sizeof(struct wormcast_ftmesh) - 8;
		else
			len -= x->len_delta;
		wc_kunit_expect_refused(test, &c->ts, WORMCAST_TABLE_FTMESH,
					fpush(c, f, len, 1), &c->ext, x->why,
					x->name, 1, before);
	}
	wc_table_put(before);
	fctx_done(c);
}

/* Refused at commit, and as the fabric's scheme, with @why. */
static void refused_on(struct kunit *test, u32 topo, u32 vcs, u32 repl,
		       u32 flags, const char *want, bool scheme_too)
{
	struct fctx *c = fctx_new(test, topo, vcs, repl);
	struct fblob *f = fblob_new(test);
	const char *why = NULL;

	fblob_good(f, 2, flags);
	KUNIT_EXPECT_EQ(test, fpush(c, f, flen(f), 0), -EINVAL);
	KUNIT_EXPECT_TRUE_MSG(test, c->ext._msg && strstr(c->ext._msg, want),
			      "want '%s': %s", want, c->ext._msg ?: "(none)");
	KUNIT_EXPECT_EQ(test, wc_tables_gen(&c->ts), 0u);
	if (scheme_too) {
		KUNIT_EXPECT_EQ(test, wc_mcast_check(WORMCAST_MCAST_FTMESH,
						     &c->topo, &c->params,
						     &why), -EINVAL);
		KUNIT_EXPECT_TRUE_MSG(test, why && strstr(why, want),
				      "scheme: want '%s': %s", want,
				      why ?: "(none)");
	}
	fctx_done(c);
}

static void ftm_fabric(struct kunit *test)
{
	struct fctx *c = fctx_new(test, WORMCAST_TOPO_MESH, 8, WC_REPL_ASYNC);
	struct fblob *f = fblob_new(test);
	const char *why = NULL;

	refused_on(test, WORMCAST_TOPO_TORUS, 4, WC_REPL_ASYNC, 0, "2-D mesh",
		   false);
	refused_on(test, WORMCAST_TOPO_MESH, 2, WC_REPL_ASYNC, 0,
		   "at least 4 virtual channels", true);
	refused_on(test, WORMCAST_TOPO_MESH, 4, WC_REPL_LOCKSTEP, 0,
		   "replication async", true);
	refused_on(test, WORMCAST_TOPO_MESH, 4, WC_REPL_ASYNC,
		   WORMCAST_FTMESH_F_DETOUR, "8 virtual channels", false);
	/* a torus refuses the scheme too */
	{
		struct fctx *t = fctx_new(test, WORMCAST_TOPO_TORUS, 4,
					  WC_REPL_ASYNC);

		KUNIT_EXPECT_EQ(test, wc_mcast_check(WORMCAST_MCAST_FTMESH,
						     &t->topo, &t->params,
						     &why), -EINVAL);
		KUNIT_EXPECT_TRUE(test, why && strstr(why, "2-D meshes"));
		fctx_done(t);
	}
	/* the detour flag with 8 VCs, and the scheme, are fine */
	fblob_good(f, 1, WORMCAST_FTMESH_F_DETOUR);
	KUNIT_EXPECT_EQ_MSG(test, fpush(c, f, flen(f), 0), 0, "%s",
			    c->ext._msg ?: "");
	KUNIT_EXPECT_EQ(test, wc_mcast_check(WORMCAST_MCAST_FTMESH, &c->topo,
					     &c->params, &why), 0);
	fctx_done(c);
}

/* Extended safety by the definition: no block on the two segments. */
static bool ext_safe(u32 s, u32 d)
{
	u32 sx = s % SIDE, sy = s / SIDE, dx = d % SIDE, dy = d / SIDE, x, y;

	if (in_blk(sx, sy) || in_blk(dx, dy))
		return false;
	for (x = min(sx, dx); x <= max(sx, dx); x++)
		if (in_blk(x, sy))
			return false;
	for (y = min(sy, dy); y <= max(sy, dy); y++)
		if (in_blk(sx, y))
			return false;
	return true;
}

struct froute {
	struct wc_msg *m[NN];
	struct wc_trace tr[NN];
	u32 nmsg;
};

static void froute_submit(struct kunit *test, struct wc_engine *e,
			  struct froute *fr, u32 src)
{
	u32 hw = wc_algo_hdr_words(&wc_algo_ftmesh, NN - 1), d;
	struct wc_trace *tr = &fr->tr[fr->nmsg];
	struct wc_msg *m = wc_zalloc(wc_msg_size(e));

	KUNIT_ASSERT_NOT_NULL(test, m);
	tr->max_links = 4 * NN;
	tr->links = kunit_kcalloc(test, tr->max_links, sizeof(*tr->links),
				  GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, tr->links);
	tr->max_dsts = NN;
	tr->dsts = kunit_kcalloc(test, NN, sizeof(*tr->dsts), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, tr->dsts);
	wc_msg_init(e, m, src, 64, (void *)(uintptr_t)fr->nmsg);
	m->hdr = wc_calloc(hw, sizeof(u32));	/* after init, which zeroes it */
	KUNIT_ASSERT_NOT_NULL(test, m->hdr);
	m->hdr_max = hw;
	m->trace = tr;
	for (d = 0; d < NN; d++)
		if (d != src)
			wc_msg_add_dst(e, m, d);
	fr->m[fr->nmsg++] = m;
	wc_engine_submit(e, m);
}

/* Run @e on @tables until idle (or the watchdog fires). */
static void froute_run(struct wc_engine *e, struct case_rec *r,
		       const void *tables)
{
	u32 guard = 0;

	while (wc_engine_busy(e) && !r->deadlocks && guard++ < 1000)
		wc_engine_run(e, 20000, tables);
}

static void ftm_route(struct kunit *test)
{
	struct fctx *c = fctx_new(test, WORMCAST_TOPO_MESH, 4, WC_REPL_ASYNC);
	struct fblob *f = fblob_new(test);
	struct froute *fr = kunit_kzalloc(test, sizeof(*fr), GFP_KERNEL);
	u32 *count = kunit_kcalloc(test, NN * NN, sizeof(u32), GFP_KERNEL);
	u32 src, d, i, want = 0, left = 0, dup = 0, stray = 0, into = 0;
	u32 missing = 0, extra = 0, pass;
	struct wc_engine_stats st;
	struct case_rec *r;
	struct wc_engine *e;
	struct wc_table *t;

	KUNIT_ASSERT_NOT_NULL(test, fr);
	KUNIT_ASSERT_NOT_NULL(test, count);
	fblob_good(f, 2, 0);
	KUNIT_ASSERT_EQ_MSG(test, fpush(c, f, flen(f), 0), 0, "%s",
			    c->ext._msg ?: "");
	t = wc_tables_get(&c->ts, WORMCAST_TABLE_FTMESH);
	KUNIT_ASSERT_NOT_NULL(test, t);
	r = case_rec_new(test, 2 * NN * NN);
	r->free_msgs = false;
	e = case_engine_new(test, r, &c->topo, &c->params, t->ops->algo);
	/* pass 0: one multicast at a time, traced; pass 1: all at once */
	for (pass = 0; pass < 2; pass++) {
		fr->nmsg = 0;
		r->nd = 0;
		memset(count, 0, NN * NN * sizeof(u32));
		for (src = 0; src < NN; src++) {
			if (in_blk(src % SIDE, src / SIDE))
				continue;
			froute_submit(test, e, fr, src);
			if (!pass)
				froute_run(e, r, &t->u);
		}
		froute_run(e, r, &t->u);
		KUNIT_EXPECT_FALSE(test, wc_engine_busy(e));
		case_count_deliveries(r, count, NN, &dup, &stray);
		for (i = 0; i < fr->nmsg; i++) {
			struct wc_msg *m = fr->m[i];
			u32 k;

			for (d = 0; d < NN; d++) {
				bool safe = d != m->src && ext_safe(m->src, d);

				if (!pass) {
					want += safe;
					left += d != m->src && !safe;
				}
				missing += safe && !count[i * NN + d];
				extra += !safe && count[i * NN + d];
			}
			for (k = 0; k < fr->tr[i].nlinks; k++) {
				u32 a = fr->tr[i].links[k].node;
				u32 b = wc_topo_neighbor(&c->topo, a,
							 fr->tr[i].links[k].port);

				into += b >= NN || in_blk(a % SIDE, a / SIDE) ||
					in_blk(b % SIDE, b / SIDE);
			}
			KUNIT_EXPECT_EQ(test, fr->tr[i].lost, 0u);
		}
		case_msgs_free(fr->m, fr->nmsg);
		memset(fr->tr, 0, sizeof(fr->tr));
	}
	KUNIT_EXPECT_EQ(test, fr->nmsg, (u32)(NN - 5));
	KUNIT_EXPECT_GT(test, want, 0u);
	KUNIT_EXPECT_GT(test, left, 0u);
	KUNIT_EXPECT_EQ(test, missing, 0u);
	KUNIT_EXPECT_EQ(test, extra, 0u);
	KUNIT_EXPECT_EQ(test, dup, 0u);
	KUNIT_EXPECT_EQ(test, stray, 0u);
	KUNIT_EXPECT_EQ(test, into, 0u);
	KUNIT_EXPECT_EQ(test, r->route_errors, 0u);
	KUNIT_EXPECT_EQ(test, r->deadlocks, 0u);
	KUNIT_EXPECT_EQ(test, r->lost, 0u);
	wc_engine_get_stats(e, &st);
	/* both passes: the left-out destinations, each counted once */
	KUNIT_EXPECT_EQ(test, st.fault_drops, 2ull * left);
	KUNIT_EXPECT_EQ(test, st.worms_done, 2ull * want);
	kunit_info(test, "%u multicasts x 2: %u destinations reached, %u left out each time",
		   NN - 5, want, left);
	wc_engine_destroy(e);
	case_rec_free(r);
	wc_table_put(t);
	fctx_done(c);
}

/* A PLANS table of one Strategy 3 plan for 01:00:5e:01:02:03. */
struct pblob {
	struct wormcast_plans h;
	struct wormcast_plan p;
	u32 w[16];
};

static size_t pblob_set(struct pblob *b, u32 src, u32 nworms, const u32 *w,
			u32 nw)
{
	static const u8 grp[ETH_ALEN] = { 0x01, 0x00, 0x5e, 0x01, 0x02, 0x03 };

	memset(b, 0, sizeof(*b));
	b->h.nnodes = NN;
	b->h.nplans = 1;
	b->h.scheme = WORMCAST_MCAST_FTMESH;
	memcpy(b->p.addr, grp, ETH_ALEN);
	b->p.src = src;
	b->p.nworms = nworms;
	b->p.nwords = nw;
	memcpy(b->w, w, nw * sizeof(u32));
	return offsetof(struct pblob, w) + nw * sizeof(u32);
}

static int ppush(struct fctx *c, const struct pblob *b, size_t len, u32 gen)
{
	u32 new_gen;

	return wc_kunit_table_push(&c->ts, WORMCAST_TABLE_PLANS, b, len, gen,
				   len, &new_gen, &c->ext);
}

struct pbad {
	const char *name;
	const char *why;	/* in the extack message */
	u32 src, nworms, nw;
	u32 w[10];
};

/* From (1, 1) = node 7 unless said; (2, 2) = node 14 is in block B0. */
static const struct pbad pbad_cases[] = {
	{ "five worms", "more worms than ports", 7, 5, 10,
	  { 1, 28, 1, 4, 1, 24, 1, 0, 1, 30 } },
	{ "subnetworks out of order", "increasing subnetwork order", 7, 2, 4,
	  { 1, 4, 1, 28 } },
	{ "one worm in two subnetworks", "in two subnetworks", 7, 1, 3,
	  { 2, 28, 4 } },
	{ "a bit beyond node and choices", "bits beyond node and choices", 7,
	  1, 2, { 1, 28 | BIT(30) } },
	{ "a destination in a block", "cannot reach minimally", 7, 1, 2,
	  { 1, 14 } },
	{ "the source in a block", "source is inside a faulty block", 14, 1,
	  2, { 1, 28 } },
	{ "a destination twice", "appears twice", 7, 1, 3, { 2, 28, 28 } },
	{ "the source as a destination", "its own source", 7, 1, 2, { 1, 7 } },
	{ "a worm longer than the words", "runs past the plan's words", 7, 1,
	  1, { 2 } },
};

/*
 * Strategy 3 plans (kmod/engine/plans.c, wc_plan_set_build_ftm()) through
 * the table glue: refused on a Strategy 2 table; from (1, 1), one worm per
 * subnetwork in order, (4, 4) +X+Y, (4, 0) +X-Y, (0, 4) -X+Y, (0, 0)
 * -X-Y, committed and laid out as the source sends it (each word marked
 * planned, a 0 count at the end); every kind of bad plan refused with its
 * extack message, the committed plans and the generation unchanged.
 */
static void ftm_plans(struct kunit *test)
{
	static const u32 good[] = { 1, 28, 1, 4, 1, 24, 1, 0 };
	static const u32 layout[] = {
		1, 28 | WC_FTM_PLANNED, 1, 4 | WC_FTM_PLANNED,
		1, 24 | WC_FTM_PLANNED, 1, 0 | WC_FTM_PLANNED, 0,
	};
	struct fctx *c = fctx_new(test, WORMCAST_TOPO_MESH, 4, WC_REPL_ASYNC);
	struct pblob *b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);
	struct fblob *f = fblob_new(test);
	struct wc_table *ft, *t;
	const struct wc_plan_set *ps;
	const struct wc_plan *p;
	unsigned int i;
	size_t len;

	KUNIT_ASSERT_NOT_NULL(test, b);
	fblob_good(f, 2, 0);
	KUNIT_ASSERT_EQ(test, fpush(c, f, flen(f), 0), 0);
	len = pblob_set(b, 7, 4, good, ARRAY_SIZE(good));
	KUNIT_EXPECT_EQ(test, ppush(c, b, len, 1), -EINVAL);
	KUNIT_EXPECT_TRUE_MSG(test, c->ext._msg &&
			      strstr(c->ext._msg, "of strategy 3"),
			      "%s", c->ext._msg ?: "(none)");
	fblob_good(f, 3, 0);
	KUNIT_ASSERT_EQ(test, fpush(c, f, flen(f), 1), 0);
	ft = wc_tables_get(&c->ts, WORMCAST_TABLE_FTMESH);
	KUNIT_ASSERT_NOT_NULL(test, ft);
	for (i = 1; i < ARRAY_SIZE(good); i += 2)
		KUNIT_ASSERT_TRUE_MSG(test,
				      wc_ftm_reachable(&ft->u.ftm.tab, 7, good[i]),
				      "node %u extended safe from 7", good[i]);
	KUNIT_ASSERT_EQ_MSG(test, ppush(c, b, len, 2), 0, "%s",
			    c->ext._msg ?: "");
	t = wc_tables_get(&c->ts, WORMCAST_TABLE_PLANS);
	KUNIT_ASSERT_NOT_NULL(test, t);
	ps = &t->u.plans;
	KUNIT_EXPECT_EQ(test, ps->scheme, (u32)WORMCAST_MCAST_FTMESH);
	KUNIT_EXPECT_EQ(test, ps->base_gen, ft->gen);
	KUNIT_ASSERT_EQ(test, ps->nplans, 1u);
	p = &ps->plans[0];
	KUNIT_EXPECT_EQ(test, p->src, 7u);
	KUNIT_EXPECT_EQ(test, p->ndsts, 4u);
	KUNIT_EXPECT_EQ(test, p->nworms, 4u);
	KUNIT_ASSERT_EQ(test, p->nlayout, (u32)ARRAY_SIZE(layout));
	for (i = 0; i < ARRAY_SIZE(layout); i++)
		KUNIT_EXPECT_EQ_MSG(test, ps->words[p->layout + i], layout[i],
				    "layout word %u", i);
	for (i = 0; i < ARRAY_SIZE(pbad_cases); i++) {
		const struct pbad *x = &pbad_cases[i];

		len = pblob_set(b, x->src, x->nworms, x->w, x->nw);
		wc_kunit_expect_refused(test, &c->ts, WORMCAST_TABLE_PLANS,
					ppush(c, b, len, 3), &c->ext, x->why,
					x->name, 3, t);
	}
	wc_table_put(t);
	wc_table_put(ft);
	fctx_done(c);
}

static struct kunit_case ftm_cases[] = {
	KUNIT_CASE(ftm_good),
	KUNIT_CASE(ftm_bad),
	KUNIT_CASE(ftm_fabric),
	KUNIT_CASE(ftm_route),
	KUNIT_CASE(ftm_plans),
	{}
};

static struct kunit_suite ftm_suite = {
	.name = "wormcast_ftmesh",
	.test_cases = ftm_cases,
};

kunit_test_suites(&ftm_suite);

MODULE_LICENSE("GPL");
