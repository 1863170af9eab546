// SPDX-License-Identifier: GPL-2.0
/*
 * DSTM around a faulty link in the datapath (section 7, global
 * information; Documentation/faults.rst, "DSTM around faulty links"): the
 * daemon library's two-tree tables (dstm-1, dstm-2, rt) on 4x4 and 5x5
 * tori, made to carry each single link of the torus as faulty
 * (wc_trees_table_set_faults()), run by the engine with that link failed:
 *
 *  - multicasts from several sources to random groups reach every member
 *    exactly once, nobody else, with zero fault_absorbed and fault_drops;
 *  - a unicast between every ordered pair is delivered, not absorbed, and
 *    crosses exactly the links wc_dstm_fault_unicast_global() says;
 *  - the contrast: the same traffic on the table without the fault (the
 *    table before the daemon re-pushed) has worms absorbed and counted,
 *    delivered + fault_drops = sent x members;
 *  - a failed node, its links listed, and the trees wormcastd rebuilds
 *    around it when neither avoids it (failed_nodes()).
 */
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "engine.h"

#include "case_tap.h"

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#include "../../kmod/tests/engine_cases.h"
#pragma GCC diagnostic pop

#include "testutil.h"
#include "tree_mcast.h"
#include "trees_table.h"
#include "dstm_fault.h"

#define NSRC	4	/* multicast sources per link */
#define NGRP	5	/* groups per source */

struct totals {
	u32 links, tree_links;
	u64 mc_sent, mc_expected, mc_delivered, mc_dup, mc_stray;
	u64 absorbed, drops;
	u64 uc_sent, uc_lost, uc_hops_bad, uc_route_errors;
	u32 links_absorbed;	/* old tables: links where something was absorbed */
};

/* The trees of a table as sptrees (for the offline section 7 functions). */
static int table_sptrees(const struct wc_topo *t, const struct wormcast_trees *h,
			 struct wc_sptree trees[2])
{
	u8 *in = calloc(wc_link_space(t), 1);
	u32 k, v;
	int err = -ENOMEM;

	if (!in)
		return err;
	for (k = 0; k < 2; k++) {
		memset(in, 0, wc_link_space(t));
		for (v = 0; v < t->nnodes; v++)
			if (v != h->root[k])
				in[wc_link_id(t, v, h->parent_port[k * t->nnodes + v])] = 1;
		err = wc_sptree_from_links(&trees[k], t, h->root[k], in);
		if (err)
			break;
	}
	free(in);
	return err;
}

static struct wc_engine *new_engine(struct case_rec *r, const struct wc_topo *t)
{
	struct wc_engine_params p;

	wc_engine_params_default(&p, t);
	p.watchdog = 5000;
	r->nd = 0;
	r->done = 0;
	return case_engine_new(NULL, r, t, &p, &wc_algo_tree);
}

static struct wc_msg *submit(struct wc_engine *e, u32 src, const u32 *d,
			     u32 nd, u32 id)
{
	struct wc_msg *m = wc_zalloc(wc_msg_size(e));
	u32 j;

	CASE_REQUIRE(NULL, m, "message");
	wc_msg_init(e, m, src, 32, (void *)(uintptr_t)id);
	for (j = 0; j < nd; j++)
		wc_msg_add_dst(e, m, d[j]);
	m->hdr_max = wc_algo_hdr_words(&wc_algo_tree, m->ndsts);
	m->hdr = wc_calloc(m->hdr_max, sizeof(u32));
	CASE_REQUIRE(NULL, m->hdr, "header");
	wc_engine_submit(e, m);
	return m;
}

static void run_idle(struct wc_engine *e, const struct wc_tree_set *ts)
{
	u32 i;

	for (i = 0; i < 20 && wc_engine_busy(e); i++)
		wc_engine_run(e, 100000, ts);
}

/*
 * Multicasts from NSRC sources to NGRP random groups each, on @ts with
 * link a-b failed in the engine, all submitted at once, then run: many
 * concurrent lock-step tree worms (which deadlocked here while tree worms
 * could share a link on two VCs; tree_mcast.c).
 */
static void multicasts(const struct wc_topo *t, const struct wc_tree_set *ts,
		       u32 a, u32 b, u64 seed, struct totals *tot)
{
	u32 n = t->nnodes, nmsg = NSRC * NGRP, i, s, g, dup = 0, stray = 0;
	struct case_rec *r = case_rec_new(NULL, nmsg * n);
	struct wc_msg *all[NSRC * NGRP];
	struct wc_engine_stats es;
	struct wc_engine *e;
	u32 *count = calloc((size_t)nmsg * n, sizeof(u32));
	u64 st = seed;

	CASE_REQUIRE(NULL, count, "room");
	r->free_msgs = false;
	e = new_engine(r, t);
	wc_engine_fault_link(e, a, b, true, NULL);
	for (s = 0, i = 0; s < NSRC; s++) {
		u32 src = (s * n) / NSRC + tu_rand_hi(&st, n / NSRC);

		for (g = 0; g < NGRP; g++, i++) {
			u32 d[WC_MAX_NODES], nd = 2 + tu_rand_hi(&st, n / 2);

			tu_random_dests(&st, n, src, nd, d);
			all[i] = submit(e, src, d, nd, i);
			tot->mc_expected += all[i]->ndsts;
		}
	}
	run_idle(e, ts);
	case_count_deliveries(r, count, n, &dup, &stray);
	wc_engine_get_stats(e, &es);
	tot->mc_sent += nmsg;
	tot->mc_delivered += r->nd;
	tot->mc_dup += dup;
	tot->mc_stray += stray + (r->done != nmsg) + es.deadlocks + es.route_errors;
	tot->absorbed += es.fault_absorbed;
	tot->drops += es.fault_drops;
	case_msgs_free(all, nmsg);
	wc_engine_destroy(e);
	free(count);
	case_rec_free(r);
}

/*
 * A unicast between every ordered pair, one at a time (zero load), on @ts
 * with @link failed: delivered, and the links it crossed (hops_sum) equal
 * to the offline global route's.
 */
static void unicasts(const struct wc_topo *t, const struct wc_tree_set *ts,
		     const struct wc_sptree trees[2], u32 link,
		     struct totals *tot)
{
	u32 n = t->nnodes, src, dst, a, pa, b, pb;
	struct case_rec *r = case_rec_new(NULL, 4);
	struct wc_engine_stats es;
	struct wc_engine *e;
	u64 hops = 0;

	r->free_msgs = false;
	e = new_engine(r, t);

	wc_link_ends(t, link, &a, &pa, &b, &pb);
	wc_engine_fault_link(e, a, b, true, NULL);
	for (src = 0; src < n; src++) {
		for (dst = 0; dst < n; dst++) {
			struct wc_fault_route fr;
			struct wc_msg *m;

			if (dst == src)
				continue;
			r->nd = 0;
			m = submit(e, src, &dst, 1, 0);
			run_idle(e, ts);
			wc_engine_get_stats(e, &es);
			tot->uc_sent++;
			tot->uc_lost += r->nd != 1 || m->fault_lost;
			if (wc_dstm_fault_unicast_global(trees, link, src, dst,
							 &fr) ||
			    es.hops_sum - hops != fr.hops) {
				if (!tot->uc_hops_bad)
					diag("link %u-%u, %u->%u: %llu hops, offline %u",
					     a, b, src, dst,
					     (unsigned long long)(es.hops_sum - hops),
					     fr.hops);
				tot->uc_hops_bad++;
			}
			hops = es.hops_sum;
			wc_free(m->hdr);
			wc_free(m);
		}
	}
	tot->absorbed += es.fault_absorbed;
	tot->drops += es.fault_drops;
	tot->uc_route_errors += es.route_errors + es.deadlocks;
	wc_engine_destroy(e);
	case_rec_free(r);
}

static void one_scheme(u32 scheme, u32 k, u32 m)
{
	u32 dims[2] = { k, m }, link, a, pa, b, pb;
	struct totals with = { 0 }, old = { 0 };
	struct wc_tree_set ts_old, ts;
	struct wc_sptree trees[2];
	const char *why = NULL, *name = wc_mcast_scheme_name(scheme);
	struct wc_topo t;
	void *base = NULL;
	size_t blen;

	wc_topo_init(&t, WC_TOPO_TORUS, 2, dims, NULL);
	if (wc_trees_table(scheme, &t, NULL, &base, &blen, &why) ||
	    table_sptrees(&t, base, trees) ||
	    wc_tree_set_build(&ts_old, &t, base, blen, &why)) {
		ok(0, "%s %ux%u: tables (%s)", name, k, m, why ? why : "");
		free(base);
		return;
	}
	for (link = 0; link < wc_link_space(&t); link++) {
		void *tab = malloc(blen);
		size_t len = blen;
		u64 before;

		wc_link_ends(&t, link, &a, &pa, &b, &pb);
		if (b == WC_NO_NODE || wc_link_id(&t, a, pa) != link) {
			free(tab);
			continue;
		}
		memcpy(tab, base, blen);
		if (wc_trees_table_set_faults(&tab, &len, &t, &link, 1, &why) ||
		    wc_tree_set_build(&ts, &t, tab, len, &why)) {
			ok(0, "%s %ux%u: table with link %u-%u faulty (%s)",
			   name, k, m, a, b, why ? why : "");
			free(tab);
			break;
		}
		with.links++;
		with.tree_links += ts.tree_faults[0] + ts.tree_faults[1];
		multicasts(&t, &ts, a, b, 1000 + link, &with);
		unicasts(&t, &ts, trees, link, &with);
		before = old.absorbed;
		multicasts(&t, &ts_old, a, b, 1000 + link, &old);
		old.links_absorbed += old.absorbed > before;
		wc_tree_set_free(&ts);
		free(tab);
	}
	diag("%s %ux%u: %u links (%u on a tree); with the fault: %llu multicasts, %llu unicasts; old tables: absorbed %llu, fault_drops %llu on %u links",
	     name, k, m, with.links, with.tree_links,
	     (unsigned long long)with.mc_sent, (unsigned long long)with.uc_sent,
	     (unsigned long long)old.absorbed, (unsigned long long)old.drops,
	     old.links_absorbed);
	ok(with.links == wc_topo_nlinks(&t) && with.tree_links == 2 * (t.nnodes - 1),
	   "%s %ux%u: every link of the torus failed once (%u), %u of them tree links",
	   name, k, m, with.links, with.tree_links);
	ok(with.mc_delivered == with.mc_expected && !with.mc_dup && !with.mc_stray,
	   "%s %ux%u: table with the fault: %llu multicasts, every member once (%llu), no duplicate, stray, watchdog or route error",
	   name, k, m, (unsigned long long)with.mc_sent,
	   (unsigned long long)with.mc_delivered);
	ok(!with.absorbed && !with.drops,
	   "%s %ux%u: table with the fault: fault_absorbed %llu, fault_drops %llu",
	   name, k, m, (unsigned long long)with.absorbed,
	   (unsigned long long)with.drops);
	ok(!with.uc_lost && !with.uc_route_errors,
	   "%s %ux%u: %llu unicasts (every pair, every link) delivered, none lost (%llu)",
	   name, k, m, (unsigned long long)with.uc_sent,
	   (unsigned long long)with.uc_lost);
	ok(!with.uc_hops_bad,
	   "%s %ux%u: every unicast's links crossed = wc_dstm_fault_unicast_global() hops (%llu differ)",
	   name, k, m, (unsigned long long)with.uc_hops_bad);
	ok(old.absorbed > 0 && old.drops > 0 && old.links_absorbed > 0,
	   "%s %ux%u: contrast, old table without the fault: %llu branches absorbed, %llu destinations counted, on %u links",
	   name, k, m, (unsigned long long)old.absorbed,
	   (unsigned long long)old.drops, old.links_absorbed);
	ok(old.mc_delivered + old.drops == old.mc_expected && !old.mc_dup,
	   "%s %ux%u: old table: delivered %llu + fault_drops %llu = sent x members %llu",
	   name, k, m, (unsigned long long)old.mc_delivered,
	   (unsigned long long)old.drops, (unsigned long long)old.mc_expected);
	wc_tree_set_free(&ts_old);
	wc_sptree_free(&trees[0]);
	wc_sptree_free(&trees[1]);
	free(base);
}

/* Two faulty links, one in each tree: a tree that avoids both is taken
 * whenever one exists; the rest is absorbed and counted, never lost. */
static void two_faults(void)
{
	u32 dims[2] = { 5, 5 }, links[2], n, src, dst, k, good = 0, avoid = 0;
	struct case_rec *r = case_rec_new(NULL, 4);
	struct wc_tree_set ts;
	struct wc_engine_stats es;
	struct wc_engine *e;
	const struct wormcast_trees *h;
	struct wc_topo t;
	const char *why = NULL;
	void *tab = NULL;
	size_t len;
	u64 sent = 0, delivered = 0;

	wc_topo_init(&t, WC_TOPO_TORUS, 2, dims, NULL);
	n = t.nnodes;
	if (wc_trees_table(WORMCAST_MCAST_DSTM1, &t, NULL, &tab, &len, &why)) {
		ok(0, "dstm-1 5x5");
		return;
	}
	h = tab;
	for (k = 0; k < 2; k++) {
		u32 v = (h->root[k] + 7) % n;

		links[k] = wc_link_id(&t, v, h->parent_port[k * n + v]);
	}
	if (wc_trees_table_set_faults(&tab, &len, &t, links, 2, &why) ||
	    wc_tree_set_build(&ts, &t, tab, len, &why)) {
		ok(0, "two faults: table (%s)", why ? why : "");
		free(tab);
		return;
	}
	r->free_msgs = false;
	e = new_engine(r, &t);
	for (k = 0; k < 2; k++) {
		u32 a, pa, b, pb;

		wc_link_ends(&t, links[k], &a, &pa, &b, &pb);
		wc_engine_fault_link(e, a, b, true, NULL);
	}
	for (src = 0; src < n; src++) {
		for (dst = 0; dst < n; dst++) {
			bool g0, g1;
			struct wc_msg *m;

			if (src == dst)
				continue;
			g0 = ts.comp[0][src] == ts.comp[0][dst];
			g1 = ts.comp[1][src] == ts.comp[1][dst];
			avoid += g0 || g1;
			r->nd = 0;
			m = submit(e, src, &dst, 1, 0);
			run_idle(e, &ts);
			sent++;
			delivered += r->nd;
			good += (g0 || g1) == (r->nd == 1 && !m->fault_lost);
			wc_free(m->hdr);
			wc_free(m);
		}
	}
	wc_engine_get_stats(e, &es);
	ok(ts.tree_faults[0] == 1 && ts.tree_faults[1] == 1 && good == sent,
	   "two faults, one per tree (dstm-1 5x5): a pair is delivered iff a tree path avoids both (%u of %llu pairs; %u avoidable)",
	   good, (unsigned long long)sent, avoid);
	ok(delivered + es.fault_drops == sent && avoid < sent && !es.route_errors,
	   "two faults: delivered %llu + fault_drops %llu = %llu sent",
	   (unsigned long long)delivered, (unsigned long long)es.fault_drops,
	   (unsigned long long)sent);
	wc_engine_destroy(e);
	wc_tree_set_free(&ts);
	free(tab);
	case_rec_free(r);
}

/*
 * The top of @v's part of @tr with node @f removed: its highest ancestor
 * reached without crossing @f.
 */
static u32 part_top(const struct wc_sptree *tr, u32 f, u32 v)
{
	while (tr->parent[v] != WC_NO_NODE && tr->parent[v] != f)
		v = tr->parent[v];
	return v;
}

/*
 * A failed node under a two-tree scheme (the daemon lists its links as
 * faulty, wormcastd.c compute_two_trees()): every node of a 5x5 torus
 * fails in turn, in the engine too; 20 multicasts among the other nodes,
 * one at a time.  When a tree's paths from the source to every member
 * avoid the node (checked here from the trees' parents), each member gets
 * the frame once and nothing is absorbed; when neither does, delivered +
 * fault_drops = members.  Some messages must be saved by the listing.
 */
static void failed_nodes(u32 scheme)
{
	u32 dims[2] = { 5, 5 }, n, f, j, k, p, saved = 0, lost_ok = 0, bad = 0;
	u32 nmsg = 0, cut = 0, rebuilt = 0, pushed_bad = 0;
	const char *why = NULL, *name = wc_mcast_scheme_name(scheme);
	struct case_rec *r = case_rec_new(NULL, 64);
	struct wc_sptree trees[2];
	struct wc_topo t;
	void *base = NULL;
	size_t blen;
	u64 st = 5;

	wc_topo_init(&t, WC_TOPO_TORUS, 2, dims, NULL);
	n = t.nnodes;
	if (wc_trees_table(scheme, &t, NULL, &base, &blen, &why) ||
	    table_sptrees(&t, base, trees)) {
		ok(0, "%s 5x5: tables (%s)", name, why ? why : "");
		free(base);
		return;
	}
	r->free_msgs = false;
	for (f = 0; f < n; f++) {
		u32 dead[4], nd = 0;
		struct wc_engine_stats es;
		struct wc_tree_set ts, ts2;
		struct wc_engine *e, *e2;
		struct wc_two_faults res;
		void *tab = malloc(blen), *tab2 = NULL;
		size_t len = blen, len2;

		for (p = 0; p < t.nports; p++)
			dead[nd++] = wc_link_id(&t, f, p);
		memcpy(tab, base, blen);
		if (wc_trees_table_set_faults(&tab, &len, &t, dead, nd, &why) ||
		    wc_tree_set_build(&ts, &t, tab, len, &why)) {
			ok(0, "%s: table with node %u's links (%s)", name, f,
			   why ? why : "");
			free(tab);
			break;
		}
		/* what wormcastd pushes: the trees rebuilt if neither joins the others */
		if (wc_trees_table_two_faults(&t, base, blen, NULL, 0, &f, 1, true,
					      &tab2, &len2, &res, &why) ||
		    wc_tree_set_build(&ts2, &t, tab2, len2, &why)) {
			ok(0, "%s: wormcastd's table around node %u (%s)", name, f,
			   why ? why : "");
			wc_tree_set_free(&ts);
			free(tab);
			free(tab2);
			break;
		}
		rebuilt += res.rebuilt;
		e = new_engine(r, &t);
		wc_engine_fault_node(e, f, true, NULL);
		e2 = new_engine(r, &t);
		wc_engine_fault_node(e2, f, true, NULL);
		for (j = 0; j < 20; j++) {
			u32 d[WC_MAX_NODES], m = 0, src = tu_rand_hi(&st, n), i;
			u32 want = 2 + tu_rand_hi(&st, 8);
			bool good[2];
			u64 drops0;
			struct wc_msg *msg;

			if (src == f)
				continue;
			tu_random_dests(&st, n, src, want, d);
			for (i = 0; i < want; i++)
				if (d[i] != f)
					d[m++] = d[i];
			if (m < 2)
				continue;
			for (k = 0; k < 2; k++) {
				good[k] = true;
				for (i = 0; i < m; i++)
					good[k] = good[k] &&
						  part_top(&trees[k], f, d[i]) ==
						  part_top(&trees[k], f, src);
			}
			wc_engine_get_stats(e, &es);
			drops0 = es.fault_drops;
			r->nd = 0;
			msg = submit(e, src, d, m, 0);
			run_idle(e, &ts);
			wc_engine_get_stats(e, &es);
			nmsg++;
			if (good[0] || good[1]) {
				bad += r->nd != m || msg->fault_lost;
				saved += !(good[0] && good[1]);
			} else {
				cut++;
				bad += r->nd + (es.fault_drops - drops0) != m;
				lost_ok += r->nd < m;
			}
			wc_free(msg->hdr);
			wc_free(msg);
			/* the same on wormcastd's table: every one delivered */
			r->nd = 0;
			msg = submit(e2, src, d, m, 0);
			run_idle(e2, &ts2);
			pushed_bad += r->nd != m || msg->fault_lost;
			wc_free(msg->hdr);
			wc_free(msg);
		}
		wc_engine_get_stats(e, &es);
		bad += es.route_errors + es.deadlocks;
		wc_engine_get_stats(e2, &es);
		pushed_bad += es.route_errors + es.deadlocks + (u32)es.fault_drops;
		wc_engine_destroy(e);
		wc_engine_destroy(e2);
		wc_tree_set_free(&ts);
		wc_tree_set_free(&ts2);
		free(tab);
		free(tab2);
	}
	ok(!bad && saved > 0,
	   "%s 5x5, every node failed in turn with its links listed: %u multicasts among the others; every one with a tree that avoids the node delivered exactly once, nothing absorbed (%u of them by the one tree that does); %u with none: delivered + fault_drops = members",
	   name, nmsg, saved, cut);
	ok(f == n && !pushed_bad && rebuilt > 0,
	   "%s 5x5, the same on the tables wormcastd pushes (trees rebuilt on the live links for %u of the %u nodes): all %u delivered exactly once, nothing absorbed",
	   name, rebuilt, n, nmsg);
	diag("%s: %u of the %u cut ones lost a member", name, lost_ok, cut);
	for (k = 0; k < 2; k++)
		wc_sptree_free(&trees[k]);
	free(base);
	case_rec_free(r);
}

int main(void)
{
	static const u32 schemes[] = {
		WORMCAST_MCAST_DSTM1, WORMCAST_MCAST_DSTM2, WORMCAST_MCAST_RT,
	};
	u32 i;

	for (i = 0; i < ARRAY_SIZE(schemes); i++) {
		one_scheme(schemes[i], 4, 4);
		one_scheme(schemes[i], 5, 5);
	}
	two_faults();
	for (i = 0; i < ARRAY_SIZE(schemes); i++)
		failed_nodes(schemes[i]);
	return done_testing();
}
