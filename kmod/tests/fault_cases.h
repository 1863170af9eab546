/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Live-fault test cases (Documentation/faults.rst, "Live faults"), written
 * once and compiled twice, like tree_cases.h: into tests/unit/test_faults.c
 * (ASan/UBSan) and kmod/tests/fault_kunit.c (KASAN, lockdep).
 *
 *  - the fault set's API: adjacency, bounds, EEXIST/ENOENT, the listing;
 *  - single worms on a line: a header that needs a failed channel is
 *    absorbed where it stands and counted, the near destination of the same
 *    message is delivered, repair restores delivery, a worm already across
 *    the link when it fails drains through it, a failed source and a failed
 *    destination are counted;
 *  - random traffic while links and nodes fail and recover mid-run, on a
 *    mesh and a torus, under unicast, tree (DSTM, SPAM) and path
 *    (dual-path, Hamiltonian) schemes: every message's destinations are
 *    delivered exactly once or counted in fault_lost, the totals balance
 *    exactly, the watchdog never fires;
 *  - DSTM section 7 with local information: where and on which tree a
 *    worm absorbed at a failed tree link is re-injected, and to whom.
 *
 * The includer defines CASE_CTX, CASE_CHECK, CASE_EQ, CASE_REQUIRE and
 * includes engine_cases.h, tree_cases.h and path_cases.h first.
 */
#ifndef WC_FAULT_CASES_H
#define WC_FAULT_CASES_H

/* @k distinct nodes of [0, @n) other than @src into @d (@k < @n). */
static void case_fault_dests(u64 *st, u32 n, u32 src, u32 k, u32 *d)
{
	bool taken;
	u32 i, j;

	for (i = 0; i < k; i++) {
		do {
			d[i] = case_rnd(st) % n;
			taken = d[i] == src;
			for (j = 0; j < i && !taken; j++)
				taken = d[j] == d[i];
		} while (taken);
	}
}

/* ------------------------------------------------------------ API */

static void case_fault_api(CASE_CTX *ctx)
{
	struct case_rec *r = case_rec_new(ctx, 16);
	struct wc_engine_params p;
	struct wc_fault f[8];
	const char *why = NULL;
	struct wc_engine *e;
	struct wc_topo t;
	u32 n;

	case_topo(ctx, &t, WC_TOPO_MESH, 4, 4, 0);
	wc_engine_params_default(&p, &t);
	e = case_engine_new(ctx, r, &t, &p, &wc_algo_unicast_based);
	CASE_EQ(ctx, wc_engine_fault_link(e, 0, 5, true, &why), -EINVAL,
		"link 0-5 (diagonal) refused");
	CASE_CHECK(ctx, why && strstr(why, "adjacent"), "  why: %s", why ? why : "(none)");
	CASE_EQ(ctx, wc_engine_fault_link(e, 0, 16, true, &why), -EINVAL,
		"link to node 16 of 16 refused");
	CASE_EQ(ctx, wc_engine_fault_node(e, 16, true, &why), -EINVAL,
		"node 16 of 16 refused");
	CASE_EQ(ctx, wc_engine_fault_link(e, 1, 0, false, NULL), -ENOENT,
		"repairing a link that is up: ENOENT");
	CASE_EQ(ctx, wc_engine_fault_link(e, 1, 0, true, NULL), 0, "link 1-0 fails");
	CASE_EQ(ctx, wc_engine_fault_link(e, 0, 1, true, NULL), -EEXIST,
		"the same link, named 0-1: EEXIST");
	CASE_CHECK(ctx, wc_engine_link_failed(e, 0, 1) && wc_engine_link_failed(e, 1, 0),
		   "both directions failed");
	CASE_EQ(ctx, wc_engine_fault_link(e, 5, 9, true, NULL), 0, "link 5-9 fails");
	CASE_EQ(ctx, wc_engine_fault_node(e, 3, true, NULL), 0, "node 3 fails");
	CASE_EQ(ctx, wc_engine_fault_node(e, 3, true, NULL), -EEXIST,
		"node 3 again: EEXIST");
	CASE_CHECK(ctx, !wc_engine_link_failed(e, 2, 3), "a failed node fails no link entry");
	CASE_EQ(ctx, wc_engine_nfaults(e), 3, "three faults");
	n = wc_engine_faults(e, 0, f, 8);
	CASE_CHECK(ctx, n == 3 && !f[0].node && f[0].a == 0 && f[0].b == 1 &&
		   !f[1].node && f[1].a == 5 && f[1].b == 9 && f[2].node &&
		   f[2].a == 3, "listing: link 0-1, link 5-9, node 3 (%u entries)", n);
	n = wc_engine_faults(e, 2, f, 8);
	CASE_CHECK(ctx, n == 1 && f[0].node && f[0].a == 3, "listing from the third: node 3");
	CASE_EQ(ctx, wc_engine_fault_link(e, 0, 1, false, NULL), 0, "link 0-1 repaired");
	CASE_EQ(ctx, wc_engine_fault_node(e, 3, false, NULL), 0, "node 3 repaired");
	CASE_EQ(ctx, wc_engine_nfaults(e), 1, "one fault left");
	wc_engine_destroy(e);
	case_rec_free(r);
}

/* ------------------------------------------------------------ single worms */

/* A 6x1 mesh: a line 0-1-2-3-4-5, unicast from 0. */
static struct wc_engine *line_engine(CASE_CTX *ctx, struct case_rec *r,
				     struct wc_topo *t)
{
	struct wc_engine_params p;

	case_topo(ctx, t, WC_TOPO_MESH, 6, 0, 0);
	wc_engine_params_default(&p, t);
	p.watchdog = 1000;
	return case_engine_new(ctx, r, t, &p, &wc_algo_unicast_based);
}

static void case_fault_semantics(CASE_CTX *ctx)
{
	struct case_rec *r = case_rec_new(ctx, 64);
	struct wc_engine_stats st;
	struct wc_engine *e;
	struct wc_topo t;
	struct wc_msg *m;
	u32 d[2] = { 5, 2 };
	u64 busy;

	r->free_msgs = false;
	e = line_engine(ctx, r, &t);

	/* a header that needs a failed link is absorbed before it */
	wc_engine_fault_link(e, 3, 4, true, NULL);
	m = case_submit(ctx, e, 0, d, 1, 64);
	case_run_idle(e);
	CASE_CHECK(ctx, r->nd == 0 && r->done == 1, "0->5 over failed 3-4: not delivered, done");
	CASE_EQ(ctx, m->fault_lost, 1, "  fault_lost 1");
	wc_engine_get_stats(e, &st);
	CASE_CHECK(ctx, st.fault_absorbed == 1 && st.fault_drops == 1 && !st.deadlocks,
		   "  absorbed 1, fault_drops 1, no deadlock");
	CASE_CHECK(ctx, wc_engine_channel_busy(e, 3, wc_topo_port_to(&t, 3, 4)) == 0 &&
		   wc_engine_channel_busy(e, 2, wc_topo_port_to(&t, 2, 3)) > 0,
		   "  it reached node 3, never crossed 3-4");
	wc_free(m);

	/* a message with two destinations: the near one is delivered */
	r->nd = 0;
	m = case_submit(ctx, e, 0, d, 2, 64);
	case_run_idle(e);
	CASE_CHECK(ctx, r->nd == 1 && r->d[0].node == 2 && m->fault_lost == 1,
		   "0->{5,2}: 2 delivered, 5 counted (%u delivered, lost %u)", r->nd,
		   m->fault_lost);
	wc_free(m);

	/* repaired: delivered again */
	r->nd = 0;
	wc_engine_fault_link(e, 4, 3, false, NULL);
	m = case_submit(ctx, e, 0, d, 1, 64);
	case_run_idle(e);
	CASE_CHECK(ctx, r->nd == 1 && r->d[0].node == 5 && m->fault_lost == 0 && !m->faulted,
		   "after repair 0->5 delivered");
	wc_free(m);

	/* a worm holding 3-4 when it fails drains through it */
	r->nd = 0;
	busy = wc_engine_channel_busy(e, 3, wc_topo_port_to(&t, 3, 4));
	m = case_submit(ctx, e, 0, d, 1, 32 * 200);
	while (wc_engine_channel_busy(e, 3, wc_topo_port_to(&t, 3, 4)) == busy)
		wc_engine_run(e, 1, NULL);
	wc_engine_fault_link(e, 3, 4, true, NULL);
	case_run_idle(e);
	CASE_CHECK(ctx, r->nd == 1 && m->fault_lost == 0 &&
		   wc_engine_channel_busy(e, 3, wc_topo_port_to(&t, 3, 4)) - busy ==
		   200 + 2,
		   "a worm across 3-4 when it fails is delivered (drains: 202 flits crossed)");
	wc_free(m);

	/* a failed source absorbs what it injects; a failed destination too */
	r->nd = 0;
	wc_engine_fault_link(e, 3, 4, false, NULL);
	wc_engine_fault_node(e, 0, true, NULL);
	m = case_submit(ctx, e, 0, d, 2, 64);
	case_run_idle(e);
	CASE_CHECK(ctx, r->nd == 0 && m->fault_lost == 2, "from failed node 0: both counted");
	wc_free(m);
	wc_engine_fault_node(e, 0, false, NULL);
	wc_engine_fault_node(e, 5, true, NULL);
	busy = wc_engine_channel_busy(e, 4, wc_topo_port_to(&t, 4, 5));
	m = case_submit(ctx, e, 0, d, 2, 64);
	case_run_idle(e);
	CASE_CHECK(ctx, r->nd == 1 && r->d[0].node == 2 && m->fault_lost == 1,
		   "to failed node 5 and to 2: 2 delivered, 5 counted");
	CASE_CHECK(ctx, wc_engine_channel_busy(e, 4, wc_topo_port_to(&t, 4, 5)) == busy,
		   "  nothing entered node 5");
	wc_free(m);
	wc_engine_get_stats(e, &st);
	CASE_EQ(ctx, st.deadlocks, 0, "no watchdog report");
	wc_engine_destroy(e);
	case_rec_free(r);
}

/* ------------------------------------------------------------ local information */

/*
 * A worm of the trees @ts from @src to the @n nodes @d, with room for its
 * header; @tree >= 0 presets the tree (a re-injection).  Runs until idle.
 */
static struct wc_msg *local_send(CASE_CTX *ctx, struct wc_engine *e,
				 const struct wc_tree_set *ts, u32 src,
				 const u32 *d, u32 n, int tree)
{
	struct wc_msg *m = wc_zalloc(wc_msg_size(e));
	u32 i, guard = 0;

	CASE_REQUIRE(ctx, m, "message allocated");
	wc_msg_init(e, m, src, 64, e);
	for (i = 0; i < n; i++)
		wc_msg_add_dst(e, m, d[i]);
	m->hdr_max = wc_tree_hdr_words(m->ndsts);
	m->hdr = wc_calloc(m->hdr_max, sizeof(u32));
	CASE_REQUIRE(ctx, m->hdr, "header room");
	if (tree >= 0) {
		m->hdr_preset = true;
		m->hdr[0] = (u32)tree;
	}
	wc_engine_submit(e, m);
	while (wc_engine_busy(e) && guard++ < 1000)
		wc_engine_run(e, 100000, ts);
	return m;
}

/* Is @v in the subtree of @c in tree @k of @ts? */
static bool local_below(const struct wc_tree_set *ts, u32 k, u32 v, u32 c)
{
	for (;;) {
		if (v == c)
			return true;
		if (v == ts->tree[k].root)
			return false;
		v = ts->tree[k].e[v].parent;
	}
}

/*
 * DSTM section 7 with local information, on an 8x8 torus: for random
 * (tree link, source, destinations), the link fails, the source sends on
 * the fault-free choice of tree (wc_algo_tree_local); when the worm is
 * absorbed, wc_tree_local_reinject() names the link's end on the source's
 * side (computed here from the tree's parents), the other tree, and
 * exactly the destinations not delivered; the re-injected worm from there
 * on that tree reaches each of them once without being absorbed.  A
 * failed node is not re-injected; wc_engine_fault_reinjected() moves the
 * loss out of fault_drops.
 */
static void case_fault_local(CASE_CTX *ctx, u32 trials)
{
	struct case_tables *ct = case_dstm_tables(ctx, 8, 8, 0, 0, 4, 4);
	struct case_rec *r = case_rec_new(ctx, 256);
	u32 n = ct->t.nnodes, words = DIV_ROUND_UP(n, 32), i, trial;
	u32 absorbed = 0, up = 0, bad_near = 0, bad_set = 0, bad_again = 0;
	u32 missed[2], d[8], d2[8];
	struct wc_engine_stats st0, st1;
	struct wc_engine_params p;
	struct wc_tree_set ts;
	struct wc_engine *e;
	struct wc_msg *m, *m2;
	u64 rs = 77;

	CASE_REQUIRE(ctx, words <= 2, "64 nodes");
	CASE_REQUIRE(ctx, !wc_tree_set_build(&ts, &ct->t, ct->h, ct->len, NULL),
		     "dstm tables");
	wc_engine_params_default(&p, &ct->t);
	e = case_engine_new(ctx, r, &ct->t, &p, &wc_algo_tree_local);
	r->free_msgs = false;
	for (trial = 0; trial < trials; trial++) {
		u32 k = case_rnd(&rs) % 2, c, par, src, nd, at = 0, tree = 9;
		u32 got = 0, cnt, nd2 = 0, want;

		do {
			c = case_rnd(&rs) % n;
		} while (c == ts.tree[k].root);
		par = ts.tree[k].e[c].parent;
		src = case_rnd(&rs) % n;
		nd = 1 + case_rnd(&rs) % 8;
		case_fault_dests(&rs, n, src, nd, d);
		wc_engine_fault_link(e, c, par, true, NULL);
		r->nd = 0;
		m = local_send(ctx, e, &ts, src, d, nd, -1);
		if (!m->faulted) {
			if (r->nd != nd)
				bad_set++;
			goto next;
		}
		absorbed++;
		memset(missed, 0, sizeof(missed));
		cnt = wc_tree_local_reinject(&ts, &ct->t, m, &at, &tree, missed);
		want = local_below(&ts, k, src, c) ? c : par;
		if (cnt != m->fault_lost || at != want || tree != 1 - k ||
		    m->fault_cuts != 1)
			bad_near++;
		/* missed: exactly the destinations not delivered */
		for (i = 0; i < nd; i++) {
			bool del = !!case_find(r, m, d[i]);
			bool mis = (missed[d[i] / 32] >> (d[i] % 32)) & 1;

			got += del;
			if (del == mis)
				bad_set++;
			if (mis && d[i] != at)
				d2[nd2++] = d[i];
		}
		if (got + cnt != nd)
			bad_set++;
		if (cnt == nd && at != src)
			up++;	/* cut on the way up */
		r->nd = 0;
		m2 = local_send(ctx, e, &ts, at, d2, nd2, (int)tree);
		if (m2->faulted || r->nd != nd2)
			bad_again++;
		for (i = 0; i < nd2; i++)
			if (!case_find(r, m2, d2[i]))
				bad_again++;
		wc_engine_get_stats(e, &st0);
		wc_engine_fault_reinjected(e, m);
		wc_engine_get_stats(e, &st1);
		if (st0.fault_drops - st1.fault_drops != cnt ||
		    st1.fault_reinjected != st0.fault_reinjected + 1 ||
		    m->fault_lost)
			bad_set++;
		wc_free(m2->hdr);
		wc_free(m2);
next:
		wc_engine_fault_link(e, c, par, false, NULL);
		wc_free(m->hdr);
		wc_free(m);
	}
	CASE_CHECK(ctx, absorbed >= trials / 8 && up > 0,
		   "local: %u of %u worms absorbed at the failed tree link (%u on the way up)",
		   absorbed, trials, up);
	CASE_EQ(ctx, bad_near, 0,
		"  the near end (the source's side), the other tree, as many as fault_lost");
	CASE_EQ(ctx, bad_set, 0,
		"  missed = the destinations not delivered; fault_drops moved to fault_reinjected");
	CASE_EQ(ctx, bad_again, 0,
		"  the re-injected worm reaches every missed destination once, unabsorbed");

	/* a failed node is not re-injected: the loss stays counted */
	{
		u32 c = ts.tree[0].e[ts.tree[0].root].child[0], src, at, tree;

		src = ts.tree[0].root;
		d[0] = c;
		wc_engine_fault_node(e, c, true, NULL);
		r->nd = 0;
		m = local_send(ctx, e, &ts, src, d, 1, 0);
		memset(missed, 0, sizeof(missed));
		CASE_CHECK(ctx, m->faulted && m->fault_port == WC_FAULT_NODE &&
			   m->fault_at == src && m->fault_lost == 1 &&
			   !wc_tree_local_reinject(&ts, &ct->t, m, &at, &tree,
						   missed) &&
			   !missed[0] && !missed[1],
			   "a failed node: recorded as such, not re-injected");
		wc_engine_fault_node(e, c, false, NULL);
		wc_free(m->hdr);
		wc_free(m);
	}
	wc_engine_get_stats(e, &st0);
	CASE_EQ(ctx, st0.deadlocks, 0, "no watchdog report");
	wc_engine_destroy(e);
	wc_tree_set_free(&ts);
	case_tables_free(ct);
	case_rec_free(r);
}

/* ------------------------------------------------------------ random traffic */

struct fault_run {
	const char *name;
	const struct wc_topo *t;
	const struct wc_algo *algo;
	const void *tables;
	u32 repl, buf;
	u32 nmsgs;
	u64 seed;
};

/* Fail or repair a random link or node; keeps a few faults at a time. */
static void fault_step(struct wc_engine *e, const struct wc_topo *t, u64 *st,
		       u32 *changes)
{
	u32 a = case_rnd(st) % t->nnodes, port, b;

	if (case_rnd(st) % 8 == 0) {
		if (!wc_engine_node_failed(e, a) && wc_engine_nfaults(e) >= 3)
			return;
		if (!wc_engine_fault_node(e, a, !wc_engine_node_failed(e, a),
					  NULL))
			(*changes)++;
		return;
	}
	port = case_rnd(st) % t->nports;
	b = wc_topo_neighbor(t, a, port);
	if (b == WC_NO_NODE || b == a)
		return;
	/* bias towards repair when many are down */
	if (!wc_engine_link_failed(e, a, b) && wc_engine_nfaults(e) >= 3)
		return;
	if (!wc_engine_fault_link(e, a, b, !wc_engine_link_failed(e, a, b),
				  NULL))
		(*changes)++;
}

static void case_fault_run(CASE_CTX *ctx, const struct fault_run *fr)
{
	const struct wc_topo *t = fr->t;
	u32 n = t->nnodes, sent = 0, i, changes = 0, dup = 0, stray = 0;
	struct wc_msg **all = wc_calloc(fr->nmsgs, sizeof(*all));
	u64 st = fr->seed, expected = 0, lost = 0;
	struct wc_engine_params p;
	struct wc_engine_stats es;
	struct case_rec *rec;
	struct wc_engine *e;
	u32 *count;

	wc_engine_params_default(&p, t);
	p.replication = fr->repl;
	p.buf_flits = fr->buf;
	p.watchdog = 5000;
	rec = case_rec_new(ctx, fr->nmsgs * 16);
	rec->free_msgs = false;
	e = case_engine_new(ctx, rec, t, &p, fr->algo);
	count = wc_calloc((size_t)n * fr->nmsgs, sizeof(u32));
	CASE_REQUIRE(ctx, count && all, "room");
	while (sent < fr->nmsgs) {
		for (i = 0; i < n && sent < fr->nmsgs; i++) {
			u32 j, nd = 1, d[12];
			struct wc_msg *m;

			if (case_rnd(&st) % 3 || wc_engine_backlog(e, i) > 1)
				continue;
			if (!(case_rnd(&st) % 3))
				nd = 2 + case_rnd(&st) % 10;
			case_fault_dests(&st, n, i, nd, d);
			m = wc_zalloc(wc_msg_size(e));
			CASE_REQUIRE(ctx, m, "message");
			wc_msg_init(e, m, i, 1 + case_rnd(&st) % 300,
				    (void *)(uintptr_t)sent);
			for (j = 0; j < nd; j++)
				wc_msg_add_dst(e, m, d[j]);
			m->hdr_max = wc_algo_hdr_words(fr->algo, m->ndsts);
			if (m->hdr_max) {
				m->hdr = wc_calloc(m->hdr_max, sizeof(u32));
				CASE_REQUIRE(ctx, m->hdr, "header");
			}
			expected += m->ndsts;
			all[sent++] = m;
			wc_engine_submit(e, m);
		}
		/* links and nodes fail and recover while worms are in flight */
		fault_step(e, t, &st, &changes);
		wc_engine_run(e, 20 + case_rnd(&st) % 60, fr->tables);
	}
	for (i = 0; i < 1000 && wc_engine_busy(e); i++)
		wc_engine_run(e, 100000, fr->tables);
	case_count_deliveries(rec, count, n, &dup, &stray);
	for (i = 0; i < sent; i++) {
		lost += all[i]->fault_lost;
		if (all[i]->ndelivered + all[i]->fault_lost != all[i]->ndsts)
			dup++;
	}
	wc_engine_get_stats(e, &es);
	CASE_CHECK(ctx, !wc_engine_busy(e) && rec->done == sent,
		   "%s: %u messages done, %u fault changes", fr->name, sent, changes);
	CASE_EQ(ctx, rec->nd + lost, expected,
		"%s: delivered %u + fault drops %llu = sent x members %llu",
		fr->name, rec->nd, (unsigned long long)lost,
		(unsigned long long)expected);
	CASE_CHECK(ctx, es.fault_drops == lost && lost > 0 && rec->nd > 0,
		   "%s: engine fault_drops %llu equals the messages' sum, some of both",
		   fr->name, (unsigned long long)es.fault_drops);
	CASE_CHECK(ctx, !dup && !stray && !rec->deadlocks && !rec->route_errors &&
		   !es.deadlocks,
		   "%s: no duplicate, stray or unbalanced message, no watchdog, no route error (%u %u %u %u)",
		   fr->name, dup, stray, rec->deadlocks, rec->route_errors);
	wc_engine_destroy(e);
	case_msgs_free(all, sent);
	wc_free(all);
	wc_free(count);
	case_rec_free(rec);
}

/* case_fault_run() on the trees of @ct (freed here). */
static void case_fault_run_trees(CASE_CTX *ctx, struct fault_run *fr,
				 struct case_tables *ct)
{
	struct wc_tree_set ts;

	CASE_REQUIRE(ctx, !wc_tree_set_build(&ts, &ct->t, ct->h, ct->len, NULL),
		     "%s: tables", fr->name);
	fr->t = &ct->t;
	fr->tables = &ts;
	case_fault_run(ctx, fr);
	wc_tree_set_free(&ts);
	case_tables_free(ct);
}

static void case_fault_traffic(CASE_CTX *ctx, u32 nmsgs)
{
	struct fault_run fr = { .nmsgs = nmsgs, .seed = 7, .buf = 1 };
	struct wc_topo mesh, torus;
	struct wormcast_labels *h;
	struct wc_label_set ls;
	u32 dims[2] = { 6, 6 };
	size_t len;

	case_topo(ctx, &mesh, WC_TOPO_MESH, 8, 8, 0);
	case_topo(ctx, &torus, WC_TOPO_TORUS, 6, 6, 0);

	/* unicast-based (dimension order), lock step */
	fr.algo = &wc_algo_unicast_based;
	fr.name = "unicast mesh 8x8";
	fr.t = &mesh;
	case_fault_run(ctx, &fr);
	fr.name = "unicast torus 6x6";
	fr.t = &torus;
	fr.seed = 8;
	case_fault_run(ctx, &fr);

	/* trees: DSTM on a torus, SPAM's BFS tree on a mesh */
	fr.algo = &wc_algo_tree;
	fr.name = "dstm tree torus 8x8";
	fr.seed = 9;
	case_fault_run_trees(ctx, &fr, case_dstm_tables(ctx, 8, 8, 0, 0, 4, 4));
	fr.name = "spam tree mesh 6x6";
	fr.seed = 10;
	case_fault_run_trees(ctx, &fr,
			     case_bfs_tables(ctx, WC_TOPO_MESH, 2, dims, 14));

	/* paths: dual-path on a mesh, Hamiltonian path on a torus */
	fr.algo = &wc_algo_label;
	fr.buf = 2;
	fr.t = &mesh;
	h = case_labels(ctx, &mesh, WORMCAST_MCAST_DUAL_PATH, &len);
	CASE_REQUIRE(ctx, !wc_label_set_build(&ls, &mesh, h, len, NULL),
		     "label tables");
	fr.name = "dual-path mesh 8x8";
	fr.tables = &ls;
	fr.seed = 11;
	case_fault_run(ctx, &fr);
	wc_label_set_free(&ls);
	wc_free(h);
	h = case_labels(ctx, &torus, WORMCAST_MCAST_HAMILTONIAN, &len);
	CASE_REQUIRE(ctx, !wc_label_set_build(&ls, &torus, h, len, NULL),
		     "label tables");
	fr.name = "hamiltonian path torus 6x6";
	fr.t = &torus;
	fr.tables = &ls;
	fr.seed = 12;
	case_fault_run(ctx, &fr);
	wc_label_set_free(&ls);
	wc_free(h);
}

#endif /* WC_FAULT_CASES_H */
