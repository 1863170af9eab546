// SPDX-License-Identifier: GPL-2.0
/*
 * Live faults in the engine (Documentation/engine.rst, "Faults"): the
 * fault set's API (adjacency, EEXIST/ENOENT, the listing), the semantics on
 * single worms (a header that needs a failed channel is absorbed where it
 * stands, a worm already holding the channel drains through it, a failed
 * router absorbs what it holds, repair restores delivery), and random
 * traffic while links and nodes fail and recover mid-run, on a mesh and a
 * torus, under unicast, tree and path schemes: every message's destinations
 * are delivered exactly once or counted in fault_lost, the totals balance
 * exactly, the watchdog never fires.
 */
#include "tap.h"
#include "engine.h"

#include "case_tap.h"

/* Only the shared helpers (recorder, tables, labels) are used here. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#include "../../kmod/tests/engine_cases.h"
#include "../../kmod/tests/tree_cases.h"
#include "../../kmod/tests/path_cases.h"
#pragma GCC diagnostic pop

#include "testutil.h"

/* ------------------------------------------------------------ API */

static void test_api(void)
{
	struct case_rec *r = case_rec_new(NULL, 16);
	struct wc_engine_params p;
	struct wc_fault f[8];
	const char *why = NULL;
	struct wc_engine *e;
	struct wc_topo t;
	u32 n;

	case_topo(NULL, &t, WC_TOPO_MESH, 4, 4, 0);
	wc_engine_params_default(&p, &t);
	e = case_engine_new(NULL, r, &t, &p, &wc_algo_unicast_based);
	is_int(wc_engine_fault_link(e, 0, 5, true, &why), -EINVAL,
	       "link 0-5 (diagonal) refused");
	ok(why && strstr(why, "adjacent"), "  why: %s", why ? why : "(none)");
	is_int(wc_engine_fault_link(e, 0, 16, true, &why), -EINVAL,
	       "link to node 16 of 16 refused");
	is_int(wc_engine_fault_node(e, 16, true, &why), -EINVAL,
	       "node 16 of 16 refused");
	is_int(wc_engine_fault_link(e, 1, 0, false, NULL), -ENOENT,
	       "repairing a link that is up: ENOENT");
	is_int(wc_engine_fault_link(e, 1, 0, true, NULL), 0, "link 1-0 fails");
	is_int(wc_engine_fault_link(e, 0, 1, true, NULL), -EEXIST,
	       "the same link, named 0-1: EEXIST");
	ok(wc_engine_link_failed(e, 0, 1) && wc_engine_link_failed(e, 1, 0),
	   "both directions failed");
	is_int(wc_engine_fault_link(e, 5, 9, true, NULL), 0, "link 5-9 fails");
	is_int(wc_engine_fault_node(e, 3, true, NULL), 0, "node 3 fails");
	is_int(wc_engine_fault_node(e, 3, true, NULL), -EEXIST,
	       "node 3 again: EEXIST");
	ok(!wc_engine_link_failed(e, 2, 3), "a failed node fails no link entry");
	is_int(wc_engine_nfaults(e), 3, "three faults");
	n = wc_engine_faults(e, 0, f, 8);
	ok(n == 3 && !f[0].node && f[0].a == 0 && f[0].b == 1 &&
	   !f[1].node && f[1].a == 5 && f[1].b == 9 && f[2].node &&
	   f[2].a == 3, "listing: link 0-1, link 5-9, node 3 (%u entries)", n);
	n = wc_engine_faults(e, 2, f, 8);
	ok(n == 1 && f[0].node && f[0].a == 3, "listing from the third: node 3");
	is_int(wc_engine_fault_link(e, 0, 1, false, NULL), 0, "link 0-1 repaired");
	is_int(wc_engine_fault_node(e, 3, false, NULL), 0, "node 3 repaired");
	is_int(wc_engine_nfaults(e), 1, "one fault left");
	wc_engine_destroy(e);
	case_rec_free(r);
}

/* ------------------------------------------------------------ single worms */

/* A 6x1 mesh: a line 0-1-2-3-4-5, unicast from 0. */
static struct wc_engine *line_engine(struct case_rec *r, struct wc_topo *t)
{
	struct wc_engine_params p;

	case_topo(NULL, t, WC_TOPO_MESH, 6, 0, 0);
	wc_engine_params_default(&p, t);
	p.watchdog = 1000;
	return case_engine_new(NULL, r, t, &p, &wc_algo_unicast_based);
}

static void test_semantics(void)
{
	struct case_rec *r = case_rec_new(NULL, 64);
	struct wc_engine_stats st;
	struct wc_engine *e;
	struct wc_topo t;
	struct wc_msg *m;
	u32 d[2] = { 5, 2 };
	u64 busy;

	r->free_msgs = false;
	e = line_engine(r, &t);

	/* a header that needs a failed link is absorbed before it */
	wc_engine_fault_link(e, 3, 4, true, NULL);
	m = case_submit(NULL, e, 0, d, 1, 64);
	case_run_idle(e);
	ok(r->nd == 0 && r->done == 1, "0->5 over failed 3-4: not delivered, done");
	is_int(m->fault_lost, 1, "  fault_lost 1");
	wc_engine_get_stats(e, &st);
	ok(st.fault_absorbed == 1 && st.fault_drops == 1 && !st.deadlocks,
	   "  absorbed 1, fault_drops 1, no deadlock");
	ok(wc_engine_channel_busy(e, 3, wc_topo_port_to(&t, 3, 4)) == 0 &&
	   wc_engine_channel_busy(e, 2, wc_topo_port_to(&t, 2, 3)) > 0,
	   "  it reached node 3, never crossed 3-4");
	wc_free(m);

	/* a message with two destinations: the near one is delivered */
	r->nd = 0;
	m = case_submit(NULL, e, 0, d, 2, 64);
	case_run_idle(e);
	ok(r->nd == 1 && r->d[0].node == 2 && m->fault_lost == 1,
	   "0->{5,2}: 2 delivered, 5 counted (%u delivered, lost %u)", r->nd,
	   m->fault_lost);
	wc_free(m);

	/* repaired: delivered again */
	r->nd = 0;
	wc_engine_fault_link(e, 4, 3, false, NULL);
	m = case_submit(NULL, e, 0, d, 1, 64);
	case_run_idle(e);
	ok(r->nd == 1 && r->d[0].node == 5 && m->fault_lost == 0 && !m->faulted,
	   "after repair 0->5 delivered");
	wc_free(m);

	/* a worm holding 3-4 when it fails drains through it */
	r->nd = 0;
	busy = wc_engine_channel_busy(e, 3, wc_topo_port_to(&t, 3, 4));
	m = case_submit(NULL, e, 0, d, 1, 32 * 200);
	while (wc_engine_channel_busy(e, 3, wc_topo_port_to(&t, 3, 4)) == busy)
		wc_engine_run(e, 1, NULL);
	wc_engine_fault_link(e, 3, 4, true, NULL);
	case_run_idle(e);
	ok(r->nd == 1 && m->fault_lost == 0 &&
	   wc_engine_channel_busy(e, 3, wc_topo_port_to(&t, 3, 4)) - busy ==
	   200 + 2,
	   "a worm across 3-4 when it fails is delivered (drains: 202 flits crossed)");
	wc_free(m);

	/* a failed source absorbs what it injects; a failed destination too */
	r->nd = 0;
	wc_engine_fault_link(e, 3, 4, false, NULL);
	wc_engine_fault_node(e, 0, true, NULL);
	m = case_submit(NULL, e, 0, d, 2, 64);
	case_run_idle(e);
	ok(r->nd == 0 && m->fault_lost == 2, "from failed node 0: both counted");
	wc_free(m);
	wc_engine_fault_node(e, 0, false, NULL);
	wc_engine_fault_node(e, 5, true, NULL);
	busy = wc_engine_channel_busy(e, 4, wc_topo_port_to(&t, 4, 5));
	m = case_submit(NULL, e, 0, d, 2, 64);
	case_run_idle(e);
	ok(r->nd == 1 && r->d[0].node == 2 && m->fault_lost == 1,
	   "to failed node 5 and to 2: 2 delivered, 5 counted");
	ok(wc_engine_channel_busy(e, 4, wc_topo_port_to(&t, 4, 5)) == busy,
	   "  nothing entered node 5");
	wc_free(m);
	wc_engine_get_stats(e, &st);
	is_int(st.deadlocks, 0, "no watchdog report");
	wc_engine_destroy(e);
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
	u32 a = tu_rand_hi(st, t->nnodes), port, b;

	if (tu_rand_hi(st, 8) == 0) {
		if (!wc_engine_node_failed(e, a) && wc_engine_nfaults(e) >= 3)
			return;
		if (!wc_engine_fault_node(e, a, !wc_engine_node_failed(e, a),
					  NULL))
			(*changes)++;
		return;
	}
	port = tu_rand_hi(st, t->nports);
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

static void fault_traffic(const struct fault_run *fr)
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
	rec = case_rec_new(NULL, fr->nmsgs * 16);
	rec->free_msgs = false;
	e = case_engine_new(NULL, rec, t, &p, fr->algo);
	count = wc_calloc((size_t)n * fr->nmsgs, sizeof(u32));
	CASE_REQUIRE(NULL, count && all, "room");
	while (sent < fr->nmsgs) {
		for (i = 0; i < n && sent < fr->nmsgs; i++) {
			u32 j, nd = 1, d[12];
			struct wc_msg *m;

			if (tu_rand_hi(&st, 3) || wc_engine_backlog(e, i) > 1)
				continue;
			if (!tu_rand_hi(&st, 3))
				nd = 2 + tu_rand_hi(&st, 10);
			tu_random_dests(&st, n, i, nd, d);
			m = wc_zalloc(wc_msg_size(e));
			CASE_REQUIRE(NULL, m, "message");
			wc_msg_init(e, m, i, 1 + tu_rand_hi(&st, 300),
				    (void *)(uintptr_t)sent);
			for (j = 0; j < nd; j++)
				wc_msg_add_dst(e, m, d[j]);
			m->hdr_max = wc_algo_hdr_words(fr->algo, m->ndsts);
			if (m->hdr_max) {
				m->hdr = wc_calloc(m->hdr_max, sizeof(u32));
				CASE_REQUIRE(NULL, m->hdr, "header");
			}
			expected += m->ndsts;
			all[sent++] = m;
			wc_engine_submit(e, m);
		}
		/* links and nodes fail and recover while worms are in flight */
		fault_step(e, t, &st, &changes);
		wc_engine_run(e, 20 + tu_rand_hi(&st, 60), fr->tables);
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
	ok(!wc_engine_busy(e) && rec->done == sent,
	   "%s: %u messages done, %u fault changes", fr->name, sent, changes);
	is_int(rec->nd + lost, expected,
	       "%s: delivered %u + fault drops %llu = sent x members %llu",
	       fr->name, rec->nd, (unsigned long long)lost,
	       (unsigned long long)expected);
	ok(es.fault_drops == lost && lost > 0 && rec->nd > 0,
	   "%s: engine fault_drops %llu equals the messages' sum, some of both",
	   fr->name, (unsigned long long)es.fault_drops);
	ok(!dup && !stray && !rec->deadlocks && !rec->route_errors &&
	   !es.deadlocks,
	   "%s: no duplicate, stray or unbalanced message, no watchdog, no route error (%u %u %u %u)",
	   fr->name, dup, stray, rec->deadlocks, rec->route_errors);
	wc_engine_destroy(e);
	for (i = 0; i < sent; i++) {
		wc_free(all[i]->hdr);
		wc_free(all[i]);
	}
	wc_free(all);
	wc_free(count);
	case_rec_free(rec);
}

static void test_traffic(void)
{
	struct fault_run fr = { .nmsgs = 1500, .seed = 7, .buf = 1 };
	struct wc_topo mesh, torus;
	struct case_tables *ct;
	struct wormcast_labels *h;
	struct wc_tree_set ts;
	struct wc_label_set ls;
	u32 dims[2] = { 6, 6 };
	size_t len;

	case_topo(NULL, &mesh, WC_TOPO_MESH, 8, 8, 0);
	case_topo(NULL, &torus, WC_TOPO_TORUS, 6, 6, 0);

	/* unicast-based (dimension order), lock step */
	fr.algo = &wc_algo_unicast_based;
	fr.name = "unicast mesh 8x8";
	fr.t = &mesh;
	fault_traffic(&fr);
	fr.name = "unicast torus 6x6";
	fr.t = &torus;
	fr.seed = 8;
	fault_traffic(&fr);

	/* trees: DSTM on a torus, SPAM's BFS tree on a mesh */
	fr.algo = &wc_algo_tree;
	ct = case_dstm_tables(NULL, 8, 8, 0, 0, 4, 4);
	CASE_REQUIRE(NULL, !wc_tree_set_build(&ts, &ct->t, ct->h, ct->len, NULL),
		     "dstm tables");
	fr.name = "dstm tree torus 8x8";
	fr.t = &ct->t;
	fr.tables = &ts;
	fr.seed = 9;
	fault_traffic(&fr);
	wc_tree_set_free(&ts);
	case_tables_free(ct);
	ct = case_bfs_tables(NULL, WC_TOPO_MESH, 2, dims, 14);
	CASE_REQUIRE(NULL, !wc_tree_set_build(&ts, &ct->t, ct->h, ct->len, NULL),
		     "spam tables");
	fr.name = "spam tree mesh 6x6";
	fr.t = &ct->t;
	fr.tables = &ts;
	fr.seed = 10;
	fault_traffic(&fr);
	wc_tree_set_free(&ts);
	case_tables_free(ct);

	/* paths: dual-path on a mesh, Hamiltonian path on a torus */
	fr.algo = &wc_algo_label;
	fr.buf = 2;
	fr.t = &mesh;
	h = case_labels(NULL, &mesh, WORMCAST_MCAST_DUAL_PATH, &len);
	CASE_REQUIRE(NULL, !wc_label_set_build(&ls, &mesh, h, len, NULL),
		     "label tables");
	fr.name = "dual-path mesh 8x8";
	fr.tables = &ls;
	fr.seed = 11;
	fault_traffic(&fr);
	wc_label_set_free(&ls);
	wc_free(h);
	h = case_labels(NULL, &torus, WORMCAST_MCAST_HAMILTONIAN, &len);
	CASE_REQUIRE(NULL, !wc_label_set_build(&ls, &torus, h, len, NULL),
		     "label tables");
	fr.name = "hamiltonian path torus 6x6";
	fr.t = &torus;
	fr.tables = &ls;
	fr.seed = 12;
	fault_traffic(&fr);
	wc_label_set_free(&ls);
	wc_free(h);
}

int main(void)
{
	test_api();
	test_semantics();
	test_traffic();
	return done_testing();
}
