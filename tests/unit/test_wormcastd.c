// SPDX-License-Identifier: GPL-2.0
/*
 * wormcastd's pure parts: the table transaction and its retries against a
 * fake kernel that follows the uapi's transaction semantics (one open
 * transaction per fabric, replaced by the next TABLE_NEW; chunks in order;
 * COMMIT publishes only at the generation given to TABLE_NEW), the
 * push-or-not decision, and the configuration file; ftmesh tables from
 * the fake fabric's faulty nodes and links, compared byte for byte with
 * the kernel's on resync (no scheme word), pushed again when the faults
 * change.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "testutil.h"
#include "labels_table.h"
#include "bcast_table.h"
#include "ftm_table.h"
#include "ftm_decode.h"
#include "../../daemon/push.c"
#include "../../daemon/config.c"

/* ---------------------------------------------------- fake kernel */

struct fake {
	uint32_t gen, scheme;		/* the fabric's */
	uint32_t topology, side, vcs;	/* default: an 8x8 torus, 0 VCs reported */
	/* ftmesh: the fabric's faults, and what compute uses */
	uint32_t nnodes_f, nlinks_f;
	uint32_t nodes_f[16], links_f[16][2];
	struct wcd_ftm_opts ftm;
	uint32_t table_reads;		/* whole tables read (read_table) */
	/* the committed table (the kernel keeps one per kind; one is enough here) */
	unsigned char *table;
	size_t table_len;
	uint32_t table_gen, table_kind;
	/* the open transaction */
	bool open;
	uint32_t txn, txn_kind, txn_gen, txn_size, next_txn;
	unsigned char *buf;
	size_t filled;
	/* counters and injected faults */
	uint32_t news, chunks, commits, aborts, computes, refreshes, reads;
	uint32_t max_chunk_seen;
	bool bad_order;
	int fail_chunk_at;		/* chunk index that fails (-EINTR), -1 none */
	int move_gen_commits;		/* commits that find the generation moved */
	int bump_scheme_at_move;	/* and the scheme changed to this, if >= 0 */
};

static int f_new(void *ctx, uint32_t kind, uint32_t size, uint32_t gen, uint32_t *txn)
{
	struct fake *f = ctx;

	f->news++;
	if ((kind != WORMCAST_TABLE_TREES && kind != WORMCAST_TABLE_LABELS &&
	     kind != WORMCAST_TABLE_BCAST && kind != WORMCAST_TABLE_FTMESH) ||
	    !size || size > WORMCAST_TABLE_MAX_BYTES)
		return -EINVAL;
	free(f->buf);			/* replaces an open transaction */
	f->buf = calloc(1, size);
	f->open = true;
	f->txn = ++f->next_txn;
	f->txn_kind = kind;
	f->txn_gen = gen;
	f->txn_size = size;
	f->filled = 0;
	*txn = f->txn;
	return 0;
}

static int f_chunk(void *ctx, uint32_t txn, uint32_t off, const void *data, uint32_t len)
{
	struct fake *f = ctx;

	if (f->fail_chunk_at >= 0 && (int)f->chunks == f->fail_chunk_at) {
		f->chunks++;
		return -EINTR;
	}
	f->chunks++;
	if (len > f->max_chunk_seen)
		f->max_chunk_seen = len;
	if (!f->open || txn != f->txn)
		return -ENOENT;
	if (off != f->filled || len > WORMCAST_TABLE_CHUNK_MAX ||
	    off + len > f->txn_size) {
		f->bad_order = true;
		return -EINVAL;
	}
	memcpy(f->buf + off, data, len);
	f->filled += len;
	return 0;
}

static int f_commit(void *ctx, uint32_t txn, uint32_t *new_gen)
{
	struct fake *f = ctx;

	f->commits++;
	if (!f->open || txn != f->txn)
		return -ENOENT;
	if (f->move_gen_commits > 0) {
		f->move_gen_commits--;
		f->gen++;		/* someone else committed, or a scheme change */
		if (f->bump_scheme_at_move >= 0)
			f->scheme = (uint32_t)f->bump_scheme_at_move;
	}
	f->open = false;
	if (f->txn_gen != f->gen)
		return -EAGAIN;
	if (f->filled != f->txn_size)
		return -EINVAL;
	free(f->table);
	f->table = f->buf;
	f->buf = NULL;
	f->table_len = f->txn_size;
	f->table_kind = f->txn_kind;
	*new_gen = ++f->gen;
	f->table_gen = f->gen;
	return 0;
}

static int f_abort(void *ctx, uint32_t txn)
{
	struct fake *f = ctx;

	f->aborts++;
	if (!f->open || txn != f->txn)
		return -ENOENT;
	f->open = false;
	return 0;
}

static void f_view(struct fake *f, struct wcd_fabric_view *v)
{
	memset(v, 0, sizeof(*v));
	v->ifindex = 2;
	snprintf(v->name, sizeof(v->name), "wc");
	v->topology = f->topology;
	v->ndims = 2;
	v->dims[0] = v->dims[1] = f->side;
	v->nnodes = f->side * f->side;
	v->vcs = f->vcs;
	v->has_scheme = true;
	v->scheme = f->scheme;
	v->gen = f->gen;
	if (f->table) {
		v->ntables = 1;
		v->tables[0].kind = f->table_kind;
		v->tables[0].gen = f->table_gen;
		v->tables[0].size = (uint32_t)f->table_len;
	}
}

static int f_refresh(void *ctx, struct wcd_fabric_view *v)
{
	struct fake *f = ctx;

	f->refreshes++;
	f_view(f, v);
	return 0;
}

static int f_read_scheme(void *ctx, struct wcd_fabric_view *v, uint32_t kind)
{
	struct fake *f = ctx;

	f->reads++;
	if (f->table && f->table_len >= 4 && kind == f->table_kind) {
		memcpy(&v->table_scheme, f->table, 4);
		v->table_scheme_known = true;
		v->table_kind = kind;
	}
	return 0;
}

static int f_compute(void *ctx, const struct wcd_fabric_view *v, uint32_t scheme,
		     void **table, size_t *len)
{
	struct fake *f = ctx;
	struct wc_topo t;
	const char *why;

	f->computes++;
	if (wc_topo_init(&t, v->topology, v->ndims, v->dims, &why))
		return -EINVAL;
	if (scheme == WORMCAST_MCAST_FTMESH)
		return wc_ftm_table_from_faults(&t, f->nodes_f, f->nnodes_f,
						(const u32 (*)[2])f->links_f,
						f->nlinks_f, f->ftm.strategy, 0,
						wcd_ftm_detour_on(&f->ftm, v->vcs),
						table, len, NULL, &why);
	if (wc_mcast_table_kind(scheme) == WORMCAST_TABLE_LABELS)
		return wc_labels_table_build(&t, scheme, table, len);
	if (wc_mcast_table_kind(scheme) == WORMCAST_TABLE_BCAST)
		return wc_bcast_table_build(&t, scheme, table, len, &why);
	return wc_trees_table(scheme, &t, NULL, table, len, &why);
}

static int f_read_table(void *ctx, const struct wcd_fabric_view *v, uint32_t kind,
			void **table, size_t *len)
{
	struct fake *f = ctx;

	f->table_reads++;
	*table = NULL;
	*len = 0;
	if (!f->table || kind != f->table_kind)
		return 0;
	*table = malloc(f->table_len);
	if (!*table)
		return -ENOMEM;
	memcpy(*table, f->table, f->table_len);
	*len = f->table_len;
	return 0;
}

static const struct wcd_sync_ops fops = {
	.push = { f_new, f_chunk, f_commit, f_abort },
	.refresh = f_refresh,
	.read_table_scheme = f_read_scheme,
	.compute = f_compute,
	.read_table = f_read_table,
};

static void fake_init(struct fake *f, uint32_t scheme, uint32_t gen)
{
	memset(f, 0, sizeof(*f));
	f->scheme = scheme;
	f->gen = gen;
	f->topology = scheme == WORMCAST_MCAST_FTMESH ? WORMCAST_TOPO_MESH :
		      WORMCAST_TOPO_TORUS;
	f->side = 8;
	f->ftm.strategy = WCD_DEFAULT_FTM_STRATEGY;
	f->ftm.detour = WCD_FTM_DETOUR_AUTO;
	f->fail_chunk_at = -1;
	f->bump_scheme_at_move = -1;
}

static void fake_free(struct fake *f)
{
	free(f->table);
	free(f->buf);
}

/* ------------------------------------------------------------- tests */

static void test_push_table(void)
{
	static const size_t lens[] = { 1, 24, 65023, 65024, 65025, 3 * 65024 + 7, 1u << 20 };
	size_t i, j;

	for (i = 0; i < ARRAY_SIZE(lens); i++) {
		unsigned char *t = malloc(lens[i]);
		struct fake f;
		uint32_t ng = 0;
		const char *stage = "x";
		int err;

		for (j = 0; j < lens[i]; j++)
			t[j] = (unsigned char)(j * 7 + 3);
		fake_init(&f, WORMCAST_MCAST_DSTM1, 5);
		err = wcd_push_table(&fops.push, &f, WORMCAST_TABLE_TREES, t, lens[i], 5,
				     WORMCAST_TABLE_CHUNK_MAX, &ng, &stage);
		ok(!err && !stage && ng == 6 && f.news == 1 && f.commits == 1 &&
		   !f.aborts && !f.bad_order &&
		   f.chunks == (lens[i] + WORMCAST_TABLE_CHUNK_MAX - 1) / WORMCAST_TABLE_CHUNK_MAX &&
		   f.max_chunk_seen <= WORMCAST_TABLE_CHUNK_MAX &&
		   f.table_len == lens[i] && !memcmp(f.table, t, lens[i]),
		   "%zu bytes: TABLE_NEW, %u CHUNKs in order of at most %u bytes, COMMIT; bytes equal",
		   lens[i], f.chunks, WORMCAST_TABLE_CHUNK_MAX);
		fake_free(&f);
		free(t);
	}
	{
		unsigned char t[300000];
		struct fake f;
		uint32_t ng;
		const char *stage;
		int err;

		memset(t, 0x5a, sizeof(t));
		fake_init(&f, WORMCAST_MCAST_DSTM1, 1);
		err = wcd_push_table(&fops.push, &f, WORMCAST_TABLE_TREES, t, sizeof(t), 1,
				     1u << 20, &ng, &stage);
		ok(!err && f.max_chunk_seen == WORMCAST_TABLE_CHUNK_MAX,
		   "a larger chunk size is capped at WORMCAST_TABLE_CHUNK_MAX");
		fake_free(&f);
		fake_init(&f, WORMCAST_MCAST_DSTM1, 1);
		err = wcd_push_table(&fops.push, &f, WORMCAST_TABLE_TREES, t, sizeof(t), 1,
				     1000, &ng, &stage);
		ok(!err && f.chunks == 300 && f.max_chunk_seen == 1000 &&
		   !memcmp(f.table, t, sizeof(t)), "chunk size 1000: 300 chunks");
		fake_free(&f);
		fake_init(&f, WORMCAST_MCAST_DSTM1, 1);
		f.fail_chunk_at = 2;
		err = wcd_push_table(&fops.push, &f, WORMCAST_TABLE_TREES, t, sizeof(t), 1,
				     WORMCAST_TABLE_CHUNK_MAX, &ng, &stage);
		ok(err == -EINTR && stage && !strcmp(stage, "TABLE_CHUNK") && f.chunks == 3 &&
		   !f.commits && f.aborts == 1 && !f.open && !f.table,
		   "a failing chunk: no commit, ABORT, nothing published");
		fake_free(&f);
		fake_init(&f, WORMCAST_MCAST_DSTM1, 1);
		f.move_gen_commits = 1;
		err = wcd_push_table(&fops.push, &f, WORMCAST_TABLE_TREES, t, sizeof(t), 1,
				     WORMCAST_TABLE_CHUNK_MAX, &ng, &stage);
		ok(err == -EAGAIN && !strcmp(stage, "TABLE_COMMIT") && f.aborts == 1 && !f.table,
		   "generation moved: COMMIT -EAGAIN, ABORT sent, nothing published");
		fake_free(&f);
		fake_init(&f, WORMCAST_MCAST_DSTM1, 1);
		err = wcd_push_table(&fops.push, &f, WORMCAST_TABLE_TREES, t,
				     WORMCAST_TABLE_MAX_BYTES + 1ul, 1,
				     WORMCAST_TABLE_CHUNK_MAX, &ng, &stage);
		ok(err == -EINVAL && !f.news, "over WORMCAST_TABLE_MAX_BYTES: refused before TABLE_NEW");
		fake_free(&f);
	}
}

static void test_decide(void)
{
	struct wcd_fabric_view v;
	struct fake f;

	fake_init(&f, WORMCAST_MCAST_UNICAST, 0);
	f_view(&f, &v);
	is_int(wcd_decide(&v), WCD_UNICAST, "unicast: no table");
	v.scheme = WORMCAST_MCAST_MULTIPHASE;
	is_int(wcd_decide(&v), WCD_UNICAST, "multiphase: no table (built in)");
	v.scheme = WORMCAST_MCAST_UNICAST;
	v.has_scheme = false;
	is_int(wcd_decide(&v), WCD_NO_SCHEME, "no scheme attribute: nothing done");
	f_view(&f, &v);
	v.scheme = WORMCAST_MCAST_SPAM;
	is_int(wcd_decide(&v), WCD_PUSH, "spam, generation 0, no table: push");
	v.gen = 4;
	v.ntables = 1;
	v.tables[0].kind = WORMCAST_TABLE_TREES;
	v.tables[0].gen = 3;
	is_int(wcd_decide(&v), WCD_READ_SCHEME,
	       "TREES table of an older generation (another kind committed since): read its scheme");
	v.tables[0].gen = 4;
	is_int(wcd_decide(&v), WCD_READ_SCHEME, "current TREES table: read its scheme first");
	v.table_scheme_known = true;
	v.table_kind = WORMCAST_TABLE_TREES;
	v.table_scheme = WORMCAST_MCAST_SPAM;
	is_int(wcd_decide(&v), WCD_UP_TO_DATE, "current TREES table of the scheme: up to date");
	v.table_scheme = WORMCAST_MCAST_DSTM1;
	is_int(wcd_decide(&v), WCD_PUSH, "current TREES table of another scheme: push");
	v.scheme = WORMCAST_MCAST_DUAL_PATH;
	is_int(wcd_decide(&v), WCD_PUSH, "dual-path with only a TREES table: push");
	v.tables[0].kind = WORMCAST_TABLE_LABELS;
	is_int(wcd_decide(&v), WCD_READ_SCHEME,
	       "current LABELS table, the scheme read was a TREES table's: read again");
	v.table_kind = WORMCAST_TABLE_LABELS;
	v.table_scheme = WORMCAST_MCAST_DUAL_PATH;
	is_int(wcd_decide(&v), WCD_UP_TO_DATE, "current LABELS table of the scheme: up to date");
	v.stale = true;
	is_int(wcd_decide(&v), WCD_PUSH,
	       "current table of the scheme, computed with options since changed: push");
	v.stale = false;
	v.table_scheme = WORMCAST_MCAST_STAR_TREE;
	is_int(wcd_decide(&v), WCD_PUSH, "current LABELS table of another label scheme: push");
	v.tables[0].kind = WORMCAST_TABLE_UNSPEC;
	is_int(wcd_decide(&v), WCD_PUSH, "a table of another kind does not count");
}

static void test_sync(void)
{
	struct wcd_fabric_view v;
	struct wcd_sync_result res;
	struct fake f;
	uint32_t s;
	int err;

	/* Every scheme on a fresh fabric, then nothing more to do. */
	for (s = WORMCAST_MCAST_SPAM; s <= WORMCAST_MCAST_MAX; s++) {
		if (wc_mcast_builtin(s))
			continue;	/* multiphase: no table */
		fake_init(&f, s, 0);
		f_view(&f, &v);
		err = wcd_sync_fabric(&fops, &f, &v, 3, WORMCAST_TABLE_CHUNK_MAX, &res);
		bool labels = wc_mcast_table_kind(s) == WORMCAST_TABLE_LABELS;
		bool bcast = wc_mcast_table_kind(s) == WORMCAST_TABLE_BCAST;
		bool ftm = wc_mcast_table_kind(s) == WORMCAST_TABLE_FTMESH;

		ok(!err && res.action == WCD_PUSH && res.attempts == 1 && f.table &&
		   f.table_kind == wc_mcast_table_kind(s) &&
		   (labels ? f.table_len == wc_labels_table_size(64, 0) :
		    bcast ? f.table_len == wc_bcast_table_size(64) :
		    ftm ? f.table_len == wc_ftm_table_size(64, 0, 0) :
			  !wc_trees_table_parse(f.table, f.table_len, NULL, NULL)) &&
		   *(uint32_t *)f.table == (ftm ? 64 : s) && res.gen == f.gen &&
		   res.bytes == f.table_len,
		   "%s: computed and committed as a %s table (%zu bytes, generation %u)",
		   wc_mcast_scheme_name(s),
		   labels ? "LABELS" : bcast ? "BCAST" : ftm ? "FTMESH" : "TREES",
		   res.bytes, res.gen);
		f_view(&f, &v);
		err = wcd_sync_fabric(&fops, &f, &v, 3, WORMCAST_TABLE_CHUNK_MAX, &res);
		ok(!err && res.action == WCD_UP_TO_DATE && f.news == 1 &&
		   (ftm ? !f.reads && f.table_reads == 1 && res.adopted :
			  f.reads == 1 && !f.table_reads),
		   "%s: a second sync %s and does nothing", wc_mcast_scheme_name(s),
		   ftm ? "reads the whole table, equal to the one computed," :
			 "reads the table's scheme");
		fake_free(&f);
	}

	/* The generation moves once: re-read, same bytes pushed again. */
	fake_init(&f, WORMCAST_MCAST_DSTM2, 7);
	f.move_gen_commits = 1;
	f_view(&f, &v);
	err = wcd_sync_fabric(&fops, &f, &v, 3, WORMCAST_TABLE_CHUNK_MAX, &res);
	ok(!err && res.attempts == 2 && f.refreshes == 1 && f.computes == 1 && f.table &&
	   f.aborts == 1, "generation moved once: re-read, second transaction commits (one computation)");
	fake_free(&f);

	/* ... and the scheme changed with it: recomputed for the new scheme. */
	fake_init(&f, WORMCAST_MCAST_DSTM2, 7);
	f.move_gen_commits = 1;
	f.bump_scheme_at_move = WORMCAST_MCAST_RT;
	f_view(&f, &v);
	err = wcd_sync_fabric(&fops, &f, &v, 3, WORMCAST_TABLE_CHUNK_MAX, &res);
	ok(!err && res.attempts == 2 && f.computes == 2 && f.table &&
	   ((struct wormcast_trees *)f.table)->scheme == WORMCAST_MCAST_RT &&
	   res.scheme == WORMCAST_MCAST_RT,
	   "scheme changed while pushing: recomputed for rt and committed");
	fake_free(&f);

	/* ... and changed to unicast: nothing more. */
	fake_init(&f, WORMCAST_MCAST_DSTM2, 7);
	f.move_gen_commits = 1;
	f.bump_scheme_at_move = WORMCAST_MCAST_UNICAST;
	f_view(&f, &v);
	err = wcd_sync_fabric(&fops, &f, &v, 3, WORMCAST_TABLE_CHUNK_MAX, &res);
	ok(!err && res.attempts == 1 && res.action == WCD_UNICAST && !f.table,
	   "scheme changed to unicast while pushing: stops");
	fake_free(&f);

	/* It keeps moving: bounded. */
	fake_init(&f, WORMCAST_MCAST_SPAM, 1);
	f.move_gen_commits = 100;
	f_view(&f, &v);
	err = wcd_sync_fabric(&fops, &f, &v, 3, WORMCAST_TABLE_CHUNK_MAX, &res);
	ok(err == -EAGAIN && res.attempts == 3 && f.news == 3 && !f.table,
	   "generation keeps moving: gives up after 3 transactions (-EAGAIN)");
	fake_free(&f);

	/*
	 * Killed in the middle of a push: the transaction stays open in the
	 * kernel.  A restarted daemon (no memory) syncs again: its TABLE_NEW
	 * replaces the open transaction and the table is committed.
	 */
	fake_init(&f, WORMCAST_MCAST_RT, 3);
	{
		struct wc_topo t;
		u32 d[2] = { 8, 8 };
		void *tab;
		size_t len;
		uint32_t txn;

		wc_topo_init(&t, WC_TOPO_TORUS, 2, d, NULL);
		wc_trees_table(WORMCAST_MCAST_RT, &t, NULL, &tab, &len, NULL);
		f_new(&f, WORMCAST_TABLE_TREES, (uint32_t)len, 3, &txn);
		f_chunk(&f, txn, 0, tab, 10);	/* ... and SIGKILL */
		free(tab);
	}
	f_view(&f, &v);
	err = wcd_sync_fabric(&fops, &f, &v, 3, WORMCAST_TABLE_CHUNK_MAX, &res);
	ok(!err && f.table && f.news == 2 && !f.open && f.gen == 4,
	   "restart after a kill mid-push: the open transaction is replaced, table committed");
	fake_free(&f);

	/* An installed table of another scheme at the current generation. */
	fake_init(&f, WORMCAST_MCAST_SPAM, 0);
	f_view(&f, &v);
	wcd_sync_fabric(&fops, &f, &v, 3, WORMCAST_TABLE_CHUNK_MAX, &res);
	f.scheme = WORMCAST_MCAST_DSTM1;	/* FABRIC_SET without a generation change */
	f_view(&f, &v);
	err = wcd_sync_fabric(&fops, &f, &v, 3, WORMCAST_TABLE_CHUNK_MAX, &res);
	ok(!err && res.action == WCD_PUSH && f.reads == 1 &&
	   ((struct wormcast_trees *)f.table)->scheme == WORMCAST_MCAST_DSTM1,
	   "scheme changed, same generation: the table's bytes say spam, dstm-1 pushed");
	fake_free(&f);

	/* A topology the scheme cannot use: compute fails, nothing sent. */
	fake_init(&f, WORMCAST_MCAST_DSTM1, 0);
	f_view(&f, &v);
	v.topology = WORMCAST_TOPO_MESH;
	err = wcd_sync_fabric(&fops, &f, &v, 3, WORMCAST_TABLE_CHUNK_MAX, &res);
	ok(err == -EINVAL && res.stage && !strcmp(res.stage, "compute") && !f.news,
	   "dstm-1 on a mesh: compute refuses, no transaction");
	fake_free(&f);
}

static void test_config(void)
{
	static const struct {
		const char *text, *want;
	} bad[] = {
		{ "foo = 1\n", "t.conf:1: unknown key \"foo\"" },
		{ "\n# c\nrt_pair = great\n", "t.conf:3: rt_pair \"great\"" },
		{ "trials = 0\n", "t.conf:1: trials \"0\": expected 1 to 100000" },
		{ "trials = 100001\n", "t.conf:1: trials" },
		{ "seed = -1\n", "t.conf:1: seed \"-1\"" },
		{ "seed = 18446744073709551616\n", "t.conf:1: seed" },
		{ "seed = 1\nseed = 2\n", "t.conf:2: \"seed\" given twice" },
		{ "poll_interval = 86401\n", "t.conf:1: poll_interval" },
		{ "retries = 0\n", "t.conf:1: retries" },
		{ "plans_eager_max = 4294967296\n", "t.conf:1: plans_eager_max" },
		{ "[fabric a]\nplans_eager_max = 3\n", "t.conf:2: \"plans_eager_max\" is global" },
		{ "[fabric a]\npoll_interval = 3\n", "t.conf:2: \"poll_interval\" is global" },
		{ "[fabric a\n", "t.conf:1: section header without ']'" },
		{ "[fabrik a]\n", "t.conf:1: section \"[fabrik a]\"" },
		{ "[fabric]\n", "t.conf:1: section" },
		{ "[fabric a b]\n", "t.conf:1: section needs one PATTERN" },
		{ "[fabric a]\n[fabric a]\n", "t.conf:2: section [fabric a] already at line 1" },
		{ "rt_pair best\n", "t.conf:1: expected \"key = value\"" },
		{ " = best\n", "t.conf:1: missing key" },
		{ "rt_pair =\n", "t.conf:1: \"rt_pair\" needs a value" },
		{ "trials = 1x\n", "t.conf:1: trials" },
		{ "ftmesh_strategy = 4\n", "t.conf:1: ftmesh_strategy \"4\": expected 1, 2 or 3" },
		{ "ftmesh_strategy = 0\n", "t.conf:1: ftmesh_strategy \"0\"" },
		{ "ftmesh_strategy = 12\n", "t.conf:1: ftmesh_strategy \"12\"" },
		{ "ftmesh_strategy = 2x\n", "t.conf:1: ftmesh_strategy" },
		{ "ftmesh_strategy = -1\n", "t.conf:1: ftmesh_strategy" },
		{ "ftmesh_strategy =\n", "t.conf:1: \"ftmesh_strategy\" needs a value" },
		{ "ftmesh_detour = yes\n", "t.conf:1: ftmesh_detour \"yes\": expected on, off or auto" },
		{ "ftmesh_detour = ON\n", "t.conf:1: ftmesh_detour \"ON\"" },
		{ "[fabric a]\nftmesh_detour = on\nftmesh_detour = off\n",
		  "t.conf:3: \"ftmesh_detour\" given twice in this section" },
		{ "ftmesh_strategy = 1\nftmesh_strategy = 2\n", "t.conf:2: \"ftmesh_strategy\" given twice" },
	};
	struct wcd_config c;
	struct wc_trees_opts o;
	struct wcd_ftm_opts fo;
	const char *sec;
	char err[256];
	size_t i;
	int r;

	r = wcd_config_parse(&c, "", "t.conf", err, sizeof(err));
	ok(!r && c.poll_interval == WCD_DEFAULT_POLL && c.retries == WCD_DEFAULT_RETRIES &&
	   c.plans_eager_max == WCD_DEFAULT_PLANS_EAGER_MAX &&
	   c.ftm_global.strategy == 2 && c.ftm_global.detour == WCD_FTM_DETOUR_AUTO &&
	   c.global.trials == WC_TREES_DEFAULT_TRIALS && c.global.rt_pair == WC_RT_PAIR_AVERAGE &&
	   !c.global.seed, "empty file: defaults");
	wcd_config_free(&c);
	r = wcd_config_parse(&c,
			     "# example\n"
			     "poll_interval = 0   # events only\n"
			     "retries=5\n"
			     "plans_eager_max = 0\n"
			     "\trt_pair = worst\n"
			     "seed = 18446744073709551615\n"
			     "ftmesh_strategy = 1\n"
			     "[fabric big*]\n"
			     "rt_pair = balanced\n"
			     "trials = 500\n"
			     "ftmesh_detour = off\n"
			     "[ fabric wc ]\n"
			     "seed = 3\n"
			     "ftmesh_strategy = 2\n"
			     "ftmesh_detour=on\n", "t.conf", err, sizeof(err));
	ok(!r, "a full file parses%s%s", r ? ": " : "", r ? err : "");
	if (!r) {
		ok(c.poll_interval == 0 && c.retries == 5 && !c.plans_eager_max &&
		   c.global.rt_pair == WC_RT_PAIR_PATH &&
		   c.global.seed == UINT64_MAX && c.nsec == 2, "global keys");
		wcd_config_opts(&c, "bigfab", &o, &fo, &sec);
		ok(o.rt_pair == WC_RT_PAIR_AVERAGE && o.trials == 500 && o.seed == UINT64_MAX &&
		   fo.strategy == 1 && fo.detour == WCD_FTM_DETOUR_OFF &&
		   sec && !strcmp(sec, "big*"),
		   "[fabric big*]: its keys, the seed and ftmesh_strategy inherited");
		wcd_config_opts(&c, "wc", &o, &fo, &sec);
		ok(o.rt_pair == WC_RT_PAIR_PATH && o.trials == WC_TREES_DEFAULT_TRIALS &&
		   o.seed == 3 && fo.strategy == 2 && fo.detour == WCD_FTM_DETOUR_ON &&
		   sec && !strcmp(sec, "wc"), "[fabric wc]");
		wcd_config_opts(&c, "other", &o, &fo, &sec);
		ok(o.rt_pair == WC_RT_PAIR_PATH && fo.strategy == 1 &&
		   fo.detour == WCD_FTM_DETOUR_AUTO && !sec, "no section matches: global options");
		wcd_config_opts(&c, "other", &o, NULL, NULL);
		ok(o.seed == UINT64_MAX, "the ftmesh options may be left out");
		wcd_config_free(&c);
	}
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		err[0] = '\0';
		r = wcd_config_parse(&c, bad[i].text, "t.conf", err, sizeof(err));
		if (!ok(r == -1 && !strncmp(err, bad[i].want, strlen(bad[i].want)) && !c.sec,
			"refused: %s", err))
			diag("want \"%s...\"", bad[i].want);
	}
	{
		bool missing;

		r = wcd_config_load(&c, "/nonexistent/wormcastd.conf", false, &missing, err, sizeof(err));
		ok(!r && missing && c.retries == WCD_DEFAULT_RETRIES, "absent default file: defaults");
		r = wcd_config_load(&c, "/nonexistent/wormcastd.conf", true, &missing, err, sizeof(err));
		ok(r == -1 && strstr(err, "/nonexistent/wormcastd.conf: "), "absent -c file: %s", err);
		r = wcd_config_load(&c, "daemon/wormcastd.conf", true, &missing, err, sizeof(err));
		ok(!r && !missing, "daemon/wormcastd.conf (the installed example) parses%s%s",
		   r ? ": " : "", r ? err : "");
		wcd_config_free(&c);
	}
}

/* A malloc'ed copy of @n ids, as a FAULT_GET dump gives them. */
static uint32_t *ids(const uint32_t *v, uint32_t n)
{
	uint32_t *c = malloc((n + 1) * sizeof(*c));

	if (!c)
		abort();
	memcpy(c, v, n * sizeof(*c));
	return c;
}

static void test_follows_faults(void)
{
	uint32_t s, follow = 0, links = 0;

	for (s = 0; s <= WORMCAST_MCAST_MAX; s++) {
		follow |= (uint32_t)wcd_follows_faults(s) << s;
		links |= (uint32_t)wcd_carries_links(s) << s;
	}
	ok(follow == (1u << WORMCAST_MCAST_SPAM | 1u << WORMCAST_MCAST_DSTM1 |
		      1u << WORMCAST_MCAST_DSTM2 | 1u << WORMCAST_MCAST_RT |
		      1u << WORMCAST_MCAST_HAMILTONIAN |
		      1u << WORMCAST_MCAST_DUAL_PATH |
		      1u << WORMCAST_MCAST_MULTIPATH |
		      1u << WORMCAST_MCAST_STAR_TREE | 1u << WORMCAST_MCAST_OCMS |
		      1u << WORMCAST_MCAST_OTMS | 1u << WORMCAST_MCAST_FTMESH) &&
	   links == (follow & ~(1u << WORMCAST_MCAST_FTMESH)),
	   "tables that follow the faults: spam, dstm-1, dstm-2, rt, the label schemes (trees and labels carry the dead links) and ftmesh; not unicast, multiphase, dcf, edn");
}

static void test_faults(void)
{
	static const uint32_t l1[] = { 9, 3, 9, 5 }, n1[] = { 7 }, n2[] = { 7, 2 };
	struct wcd_faults f = { 0 };
	uint32_t *a, *b, seq;

	ok(!wcd_faults_stale(&f, WORMCAST_MCAST_FTMESH, false, 0) &&
	   !wcd_faults_stale(&f, WORMCAST_MCAST_DSTM1, false, 0),
	   "faults not read yet: no table is stale for them");
	a = ids(l1, 0);
	b = ids(n1, 0);
	wcd_faults_update(&f, &a, 0, &b, 0);
	ok(f.known && f.seq == 1 && !a && !b &&
	   !wcd_faults_stale(&f, WORMCAST_MCAST_DSTM1, false, 0) &&
	   wcd_faults_stale(&f, WORMCAST_MCAST_FTMESH, false, 0) &&
	   !wcd_faults_stale(&f, WORMCAST_MCAST_FTMESH, true, 1),
	   "no fault: a trees table of anyone's carries what it must; an ftmesh table not ours is compared");
	seq = f.seq;
	f.dirty = true;
	a = ids(l1, 4);
	b = ids(n1, 1);
	wcd_faults_update(&f, &a, 4, &b, 1);
	ok(f.nlinks == 3 && f.links[0] == 3 && f.links[1] == 5 && f.links[2] == 9 &&
	   f.nnodes == 1 && f.seq == seq + 1 && !f.dirty,
	   "links 9, 3, 9, 5 and node 7: sorted, once each; the change counted");
	ok(wcd_faults_stale(&f, WORMCAST_MCAST_SPAM, true, seq) &&
	   wcd_faults_stale(&f, WORMCAST_MCAST_SPAM, false, 0) &&
	   !wcd_faults_stale(&f, WORMCAST_MCAST_SPAM, true, f.seq),
	   "a spam table pushed before the links failed, or not ours, is stale; one pushed after is not");
	ok(wcd_faults_stale(&f, WORMCAST_MCAST_DSTM1, true, seq) &&
	   wcd_faults_stale(&f, WORMCAST_MCAST_DSTM1, false, 0) &&
	   wcd_faults_stale(&f, WORMCAST_MCAST_FTMESH, true, seq) &&
	   !wcd_faults_stale(&f, WORMCAST_MCAST_FTMESH, true, f.seq) &&
	   wcd_faults_stale(&f, WORMCAST_MCAST_DUAL_PATH, true, seq) &&
	   wcd_faults_stale(&f, WORMCAST_MCAST_OCMS, false, 0) &&
	   !wcd_faults_stale(&f, WORMCAST_MCAST_STAR_TREE, true, f.seq) &&
	   !wcd_faults_stale(&f, WORMCAST_MCAST_DCF, true, seq),
	   "then trees, labels and ftmesh tables pushed before are stale, dcf's never");
	seq = f.seq;
	a = ids(l1, 4);
	b = ids(n1, 1);
	wcd_faults_update(&f, &a, 4, &b, 1);
	ok(f.seq == seq, "the same set read again: no change counted (no table)");
	a = ids(l1, 4);
	b = ids(n2, 2);
	wcd_faults_update(&f, &a, 4, &b, 2);
	ok(f.seq == seq + 1 && f.nnodes == 2 && f.nodes[0] == 2 &&
	   wcd_faults_stale(&f, WORMCAST_MCAST_RT, true, seq) &&
	   wcd_faults_stale(&f, WORMCAST_MCAST_HAMILTONIAN, true, seq) &&
	   wcd_faults_stale(&f, WORMCAST_MCAST_SPAM, true, seq) &&
	   !wcd_faults_stale(&f, WORMCAST_MCAST_SPAM, true, f.seq) &&
	   wcd_faults_stale(&f, WORMCAST_MCAST_FTMESH, true, seq),
	   "a node fails: every table that follows faults is stale (each plans around failed nodes)");
	a = ids(l1, 0);
	b = ids(n2, 0);
	wcd_faults_update(&f, &a, 0, &b, 0);
	ok(!f.nlinks && !f.nnodes && f.seq == seq + 2 &&
	   !wcd_faults_stale(&f, WORMCAST_MCAST_DSTM2, false, 0),
	   "everything repaired: counted; a trees table of anyone's without faults is current");
	wcd_faults_free(&f);
}

static void test_ftm_detour(void)
{
	struct wcd_ftm_opts o = { .strategy = 2, .detour = WCD_FTM_DETOUR_AUTO };

	ok(!wcd_ftm_detour_on(&o, 0) && !wcd_ftm_detour_on(&o, 4) &&
	   !wcd_ftm_detour_on(&o, 7) && wcd_ftm_detour_on(&o, 8) &&
	   wcd_ftm_detour_on(&o, 16),
	   "ftmesh_detour auto: on with 8 or more VCs, off below or unreported");
	o.detour = WCD_FTM_DETOUR_ON;
	ok(wcd_ftm_detour_on(&o, 4), "ftmesh_detour on: on whatever the VCs");
	o.detour = WCD_FTM_DETOUR_OFF;
	ok(!wcd_ftm_detour_on(&o, 16), "ftmesh_detour off: off whatever the VCs");
	ok(!strcmp(wcd_ftm_detour_name(WCD_FTM_DETOUR_AUTO), "auto"), "detour names");
}

/* The fake's table decodes to the fault information of its faults. */
static u32 ftm_matches(const struct fake *f, u32 strategy, bool detour,
		       u32 *nblocks, const char *what)
{
	struct ftm_decoded d;
	struct wc_faultinfo fi;
	u32 bad;

	if (!f->table || f->table_kind != WORMCAST_TABLE_FTMESH ||
	    !ftm_decode(f->table, f->table_len, &d))
		return 1;
	if (wc_fi_build(&fi, f->side, f->side, f->nodes_f, f->nnodes_f,
			(const u32 (*)[2])f->links_f, f->nlinks_f, NULL))
		return 1;
	bad = ftm_check_fi(&d, &fi, what);
	if (d.h.strategy != strategy ||
	    d.h.flags != (detour ? WORMCAST_FTMESH_F_DETOUR : 0u))
		bad++;
	*nblocks = fi.nblocks;
	wc_fi_free(&fi);
	return bad;
}

static void test_ftmesh(void)
{
	struct wcd_fabric_view v;
	struct wcd_sync_result res;
	struct fake f;
	u32 nb = 0, nb2 = 0, bad;
	int err;

	/* 20x20 with a 2x2 block's worth of faults and a faulty link. */
	fake_init(&f, WORMCAST_MCAST_FTMESH, 4);
	f.side = 20;
	f.vcs = 8;
	f.nodes_f[f.nnodes_f++] = 5 + 20 * 5;
	f.nodes_f[f.nnodes_f++] = 6 + 20 * 6;
	f.links_f[f.nlinks_f][0] = 14 + 20 * 3;	/* (14,3)-(15,3): (15,3) */
	f.links_f[f.nlinks_f++][1] = 15 + 20 * 3;
	f_view(&f, &v);
	err = wcd_sync_fabric(&fops, &f, &v, 3, WORMCAST_TABLE_CHUNK_MAX, &res);
	bad = ftm_matches(&f, 2, true, &nb, "first push");
	ok(!err && res.action == WCD_PUSH && f.commits == 1 && !f.table_reads &&
	   !bad && nb == 2,
	   "ftmesh on 20x20, 8 VCs: computed and committed; its bytes decode to the fault information (%u blocks: safety, records per subnetwork and node; strategy 2, detour on)",
	   nb);
	f_view(&f, &v);
	err = wcd_sync_fabric(&fops, &f, &v, 3, WORMCAST_TABLE_CHUNK_MAX, &res);
	ok(!err && res.action == WCD_UP_TO_DATE && res.compared && res.adopted &&
	   f.news == 1 && f.table_reads == 1 && !f.reads,
	   "a resync reads the kernel's table, equal to the one computed: nothing pushed");

	/* A node and a link fail: the next sync finds the kernel's table differs. */
	f.nodes_f[f.nnodes_f++] = 12 + 20 * 12;
	f.links_f[f.nlinks_f][0] = 2 + 20 * 16;	/* (2,16)-(2,17): (2,17) */
	f.links_f[f.nlinks_f++][1] = 2 + 20 * 17;
	f_view(&f, &v);
	err = wcd_sync_fabric(&fops, &f, &v, 3, WORMCAST_TABLE_CHUNK_MAX, &res);
	bad = ftm_matches(&f, 2, true, &nb2, "after the faults");
	ok(!err && res.action == WCD_PUSH && res.compared && !res.adopted &&
	   f.news == 2 && f.computes == 3 && !bad && nb2 == nb + 2,
	   "a faulty node and a faulty link: computed once, compared, pushed again with %u blocks, the new ones included",
	   nb2);
	f_view(&f, &v);
	err = wcd_sync_fabric(&fops, &f, &v, 3, WORMCAST_TABLE_CHUNK_MAX, &res);
	ok(!err && res.action == WCD_UP_TO_DATE && f.news == 2,
	   "a second sync does nothing");

	/* What the daemon knows it pushed: no read back; stale means push. */
	f_view(&f, &v);
	v.table_scheme_known = true;
	v.table_kind = WORMCAST_TABLE_FTMESH;
	v.table_scheme = WORMCAST_MCAST_FTMESH;
	err = wcd_sync_fabric(&fops, &f, &v, 3, WORMCAST_TABLE_CHUNK_MAX, &res);
	ok(!err && res.action == WCD_UP_TO_DATE && f.table_reads == 3 && f.news == 2,
	   "a table known to be ours and current: nothing read, nothing pushed");
	f.nnodes_f--;		/* (12,12) repaired */
	f.ftm.strategy = 1;
	f_view(&f, &v);
	v.table_scheme_known = true;
	v.table_kind = WORMCAST_TABLE_FTMESH;
	v.table_scheme = WORMCAST_MCAST_FTMESH;
	v.stale = true;
	err = wcd_sync_fabric(&fops, &f, &v, 3, WORMCAST_TABLE_CHUNK_MAX, &res);
	ok(!err && res.action == WCD_PUSH && f.table_reads == 3 && f.news == 3 &&
	   !ftm_matches(&f, 1, true, &nb2, "repaired") && nb2 == nb + 1,
	   "ours but stale (a repair, strategy 1): pushed without reading it back");
	fake_free(&f);

	/* Faults failing and repaired at random: every change one push. */
	fake_init(&f, WORMCAST_MCAST_FTMESH, 1);
	f.side = 20;
	{
		u64 rs = 12345;
		u32 step, pushes = 0, changed = 0, wrong = 0, idle = 0;

		for (step = 0; step < 40; step++) {
			u32 news = f.news;
			size_t olen = f.table_len;
			unsigned char *old = malloc(olen + 1);

			if (olen)
				memcpy(old, f.table, olen);
			if (f.nnodes_f && tu_rand_hi(&rs, 3) == 0) {
				u32 k = tu_rand_hi(&rs, f.nnodes_f);

				f.nnodes_f--;
				f.nodes_f[k] = f.nodes_f[f.nnodes_f];
			} else if (f.nnodes_f < 16 && tu_rand_hi(&rs, 2)) {
				f.nodes_f[f.nnodes_f++] = tu_rand_hi(&rs, 400);
			} else if (f.nlinks_f < 16) {
				u32 a = tu_rand_hi(&rs, 19) + 20 * tu_rand_hi(&rs, 20);

				f.links_f[f.nlinks_f][0] = a;
				f.links_f[f.nlinks_f++][1] = a + 1;
			}
			/* the bytes for the new faults, computed apart */
			{
				struct wc_topo t;
				u32 d[2] = { 20, 20 };
				const char *why;
				void *want = NULL;
				size_t wlen = 0;

				wc_topo_init(&t, WC_TOPO_MESH, 2, d, NULL);
				wc_ftm_table_from_faults(&t, f.nodes_f, f.nnodes_f,
							 (const u32 (*)[2])f.links_f,
							 f.nlinks_f, 2, 0, false, &want,
							 &wlen, NULL, &why);
				changed += !olen || wlen != olen || memcmp(want, old, olen);
				free(want);
			}
			free(old);
			f_view(&f, &v);
			err = wcd_sync_fabric(&fops, &f, &v, 3, WORMCAST_TABLE_CHUNK_MAX, &res);
			pushes += f.news != news;
			if (err || ftm_matches(&f, 2, false, &nb, "random step"))
				wrong++;
			news = f.news;
			f_view(&f, &v);
			err = wcd_sync_fabric(&fops, &f, &v, 3, WORMCAST_TABLE_CHUNK_MAX, &res);
			if (err || f.news != news || res.action != WCD_UP_TO_DATE)
				idle++;
		}
		ok(!wrong && !idle && pushes == changed && pushes > 20,
		   "40 random failures and repairs on 20x20: %u pushes, one per change of the table's bytes (%u), the committed table always the current faults' fault information, and a sync after each does nothing",
		   pushes, changed);
	}
	fake_free(&f);

	/* Detour auto with 4 VCs: off. */
	fake_init(&f, WORMCAST_MCAST_FTMESH, 0);
	f.vcs = 4;
	f_view(&f, &v);
	err = wcd_sync_fabric(&fops, &f, &v, 3, WORMCAST_TABLE_CHUNK_MAX, &res);
	ok(!err && !ftm_matches(&f, 2, false, &nb, "4 VCs") && !nb,
	   "4 VCs: detour off by default, no block on a fault-free 8x8");
	fake_free(&f);

	/* Not a mesh: compute refuses, nothing sent, and the sync ends. */
	fake_init(&f, WORMCAST_MCAST_FTMESH, 0);
	f.topology = WORMCAST_TOPO_TORUS;
	f_view(&f, &v);
	err = wcd_sync_fabric(&fops, &f, &v, 3, WORMCAST_TABLE_CHUNK_MAX, &res);
	ok(err == -EINVAL && res.stage && !strcmp(res.stage, "compute") && !f.news &&
	   f.computes == 1, "ftmesh on a torus: compute refuses, no transaction");
	fake_free(&f);
}

int main(void)
{
	test_push_table();
	test_decide();
	test_sync();
	test_config();
	test_follows_faults();
	test_faults();
	test_ftm_detour();
	test_ftmesh();
	return done_testing();
}
