// SPDX-License-Identifier: GPL-2.0
/*
 * wormcastd's pure parts: the table transaction and its retries against a
 * fake kernel that follows the uapi's transaction semantics (one open
 * transaction per fabric, replaced by the next TABLE_NEW; chunks in order;
 * COMMIT publishes only at the generation given to TABLE_NEW), the
 * push-or-not decision, and the configuration file.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "labels_table.h"
#include "bcast_table.h"
#include "../../daemon/push.c"
#include "../../daemon/config.c"

/* ---------------------------------------------------- fake kernel */

struct fake {
	uint32_t gen, scheme;		/* the fabric's */
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
	     kind != WORMCAST_TABLE_BCAST) ||
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
	v->topology = WORMCAST_TOPO_TORUS;
	v->ndims = 2;
	v->dims[0] = v->dims[1] = 8;
	v->nnodes = 64;
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
	if (wc_mcast_table_kind(scheme) == WORMCAST_TABLE_LABELS)
		return wc_labels_table_build(&t, scheme, table, len);
	if (wc_mcast_table_kind(scheme) == WORMCAST_TABLE_BCAST)
		return wc_bcast_table_build(&t, scheme, table, len, &why);
	return wc_trees_table(scheme, &t, NULL, table, len, &why);
}

static const struct wcd_sync_ops fops = {
	.push = { f_new, f_chunk, f_commit, f_abort },
	.refresh = f_refresh,
	.read_table_scheme = f_read_scheme,
	.compute = f_compute,
};

static void fake_init(struct fake *f, uint32_t scheme, uint32_t gen)
{
	memset(f, 0, sizeof(*f));
	f->scheme = scheme;
	f->gen = gen;
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
		if (s == WORMCAST_MCAST_FTMESH)
			continue;	/* wormcastd does not compute it yet */
		fake_init(&f, s, 0);
		f_view(&f, &v);
		err = wcd_sync_fabric(&fops, &f, &v, 3, WORMCAST_TABLE_CHUNK_MAX, &res);
		bool labels = wc_mcast_table_kind(s) == WORMCAST_TABLE_LABELS;
		bool bcast = wc_mcast_table_kind(s) == WORMCAST_TABLE_BCAST;

		ok(!err && res.action == WCD_PUSH && res.attempts == 1 && f.table &&
		   f.table_kind == wc_mcast_table_kind(s) &&
		   (labels ? f.table_len == wc_labels_table_size(64) :
		    bcast ? f.table_len == wc_bcast_table_size(64) :
			     !wc_trees_table_parse(f.table, f.table_len, NULL, NULL)) &&
		   *(uint32_t *)f.table == s && res.gen == f.gen &&
		   res.bytes == f.table_len,
		   "%s: computed and committed as a %s table (%zu bytes, generation %u)",
		   wc_mcast_scheme_name(s), labels ? "LABELS" : bcast ? "BCAST" : "TREES",
		   res.bytes, res.gen);
		f_view(&f, &v);
		err = wcd_sync_fabric(&fops, &f, &v, 3, WORMCAST_TABLE_CHUNK_MAX, &res);
		ok(!err && res.action == WCD_UP_TO_DATE && f.reads == 1 && f.news == 1,
		   "%s: a second sync reads the table's scheme and does nothing", wc_mcast_scheme_name(s));
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
	};
	struct wcd_config c;
	struct wc_trees_opts o;
	const char *sec;
	char err[256];
	size_t i;
	int r;

	r = wcd_config_parse(&c, "", "t.conf", err, sizeof(err));
	ok(!r && c.poll_interval == WCD_DEFAULT_POLL && c.retries == WCD_DEFAULT_RETRIES &&
	   c.plans_eager_max == WCD_DEFAULT_PLANS_EAGER_MAX &&
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
			     "[fabric big*]\n"
			     "rt_pair = balanced\n"
			     "trials = 500\n"
			     "[ fabric wc ]\n"
			     "seed = 3\n", "t.conf", err, sizeof(err));
	ok(!r, "a full file parses%s%s", r ? ": " : "", r ? err : "");
	if (!r) {
		ok(c.poll_interval == 0 && c.retries == 5 && !c.plans_eager_max &&
		   c.global.rt_pair == WC_RT_PAIR_PATH &&
		   c.global.seed == UINT64_MAX && c.nsec == 2, "global keys");
		wcd_config_opts(&c, "bigfab", &o, &sec);
		ok(o.rt_pair == WC_RT_PAIR_AVERAGE && o.trials == 500 && o.seed == UINT64_MAX &&
		   sec && !strcmp(sec, "big*"), "[fabric big*]: its keys, the seed inherited");
		wcd_config_opts(&c, "wc", &o, &sec);
		ok(o.rt_pair == WC_RT_PAIR_PATH && o.trials == WC_TREES_DEFAULT_TRIALS &&
		   o.seed == 3 && sec && !strcmp(sec, "wc"), "[fabric wc]");
		wcd_config_opts(&c, "other", &o, &sec);
		ok(o.rt_pair == WC_RT_PAIR_PATH && !sec, "no section matches: global options");
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

int main(void)
{
	test_push_table();
	test_decide();
	test_sync();
	test_config();
	return done_testing();
}
