// SPDX-License-Identifier: GPL-2.0
/*
 * Label-based multicast in the engine (kmod/engine/path_mcast.c).  The
 * cases shared with KUnit (kmod/tests/path_cases.h: validation, per-hop
 * decisions, the star paper's sample, random multicasts against the
 * papers' definitions, the latency formula, mixed traffic) run here under
 * ASan/UBSan, plus what needs the daemon's library: the tables of
 * daemon/lib/labels_table.c on every topology, and the links of every
 * scheme's worms against the offline planners (pathplan.c, startree.c);
 * and around a faulty link (every link of the 4x4 mesh and of S_4, failed
 * in the engine): the daemon's table around it, every scheme's worms on
 * the planner's links (its R without the link), never on the link, each
 * destination once, nothing counted in fault_drops.
 */
#include "tap.h"
#include "engine.h"

#include "case_tap.h"

/* engine_cases.h's own cases run in test_engine; only its recorder here. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#include "../../kmod/tests/engine_cases.h"
#pragma GCC diagnostic pop
#include "../../kmod/tests/path_cases.h"

#include "labeling.h"
#include "labels_table.h"
#include "pathplan.h"
#include "sptree.h"
#include "startree.h"
#include "testutil.h"

struct topo_spec {
	const char *name;
	u32 kind, ndims, dims[3];
};

static const struct topo_spec topos[] = {
	{ "mesh 8x8", WC_TOPO_MESH, 2, { 8, 8 } },
	{ "mesh 4x3x3", WC_TOPO_MESH, 3, { 4, 3, 3 } },
	{ "torus 6x6", WC_TOPO_TORUS, 2, { 6, 6 } },
	{ "torus 4x4x3", WC_TOPO_TORUS, 3, { 4, 4, 3 } },
	{ "hypercube 6", WC_TOPO_HYPERCUBE, 1, { 6 } },
	{ "star 5", WC_TOPO_STAR, 1, { 5 } },
};

static void mark_path(const struct wc_topo *t, u32 *links, const u32 *nodes,
		      u32 n)
{
	u32 i;

	for (i = 0; i + 1 < n; i++)
		links[nodes[i] * t->nports +
		      wc_topo_port_to(t, nodes[i], nodes[i + 1])]++;
}

/* The links of the planner's worms for @scheme. */
static int plan_links(const struct wc_labeling *lb, u32 scheme, u32 src,
		      const u32 *d, u32 k, u32 *links)
{
	const struct wc_topo *t = &lb->topo;
	u32 *path = malloc(t->nnodes * 4 * sizeof(u32)), i;
	int err;

	if (scheme == WORMCAST_MCAST_DUAL_PATH ||
	    scheme == WORMCAST_MCAST_MULTIPATH) {
		struct wc_mstar ms;

		err = wc_pathplan(lb, scheme == WORMCAST_MCAST_DUAL_PATH ?
				  WC_PP_DUAL_PATH : WC_PP_MULTIPATH,
				  src, d, k, &ms);
		for (i = 0; !err && i < ms.nworms; i++)
			mark_path(t, links, path,
				  wc_mstar_worm_route(lb, src, &ms.worms[i],
						      path));
		if (!err)
			wc_mstar_free(&ms);
	} else {
		struct wc_route_plan pl;

		err = wc_startree_plan(lb, scheme == WORMCAST_MCAST_STAR_TREE ?
				       WC_ST_TREE : WC_ST_HAMILTONIAN,
				       src, d, k, &pl);
		for (i = 0; !err && i < pl.nbranches; i++)
			mark_path(t, links, pl.br[i].nodes, pl.br[i].nnodes);
		if (!err)
			wc_route_plan_free(&pl);
	}
	free(path);
	return err;
}

/*
 * Run one multicast from @src to the @n nodes of @d on @rec's engine
 * (rec->nd counts its deliveries): true if the channels it kept busy are
 * exactly those @links marks.  @before: room for a counter per channel.
 */
static bool on_links(struct case_rec *rec, const struct wc_topo *t,
		     const struct wc_label_set *s, u32 src, const u32 *d, u32 n,
		     const u32 *links, u64 *before)
{
	u32 np = t->nports, v;

	for (v = 0; v < t->nnodes * np; v++)
		before[v] = wc_engine_channel_busy(rec->e, v / np, v % np);
	rec->nd = 0;
	case_path_submit(NULL, rec->e, src, d, n, 100);
	case_path_run(rec->e, s);
	for (v = 0; v < t->nnodes * np; v++)
		if ((wc_engine_channel_busy(rec->e, v / np, v % np) !=
		     before[v]) != !!links[v])
			return false;
	return true;
}

/*
 * Every scheme on every topology, through the daemon's table bytes: the
 * links of random multicasts equal the planner's, one delivery each.
 */
static void against_planners(u32 per)
{
	struct case_rec *rec = case_rec_new(NULL, 1024);
	u64 st = 77;
	u32 i, k, j;

	for (i = 0; i < ARRAY_SIZE(topos); i++) {
		struct wc_topo t;
		struct wc_labeling lb;

		if (wc_topo_init(&t, topos[i].kind, topos[i].ndims,
				 topos[i].dims, NULL) ||
		    wc_labeling_init(&lb, &t))
		{
			ok(0, "%s: topology and labeling", topos[i].name);
			exit(done_testing());
		}
		for (k = 0; k < PATH_NSCHEMES; k++) {
			struct wc_engine_params p;
			struct wc_label_set s;
			void *bytes;
			size_t len;
			u32 bad = 0, np = t.nports;
			u32 *links = calloc(t.nnodes * np, sizeof(u32));
			u64 *before = calloc(t.nnodes * np, sizeof(u64));
			u32 d[40];

			ok(!wc_labels_table_build(&t, path_schemes[k], &bytes,
						  &len) &&
			   len == wc_labels_table_size(t.nnodes, 0) &&
			   !wc_label_set_build(&s, &t, bytes, len, NULL),
			   "%s scheme %u: daemon table accepted by the engine",
			   topos[i].name, path_schemes[k]);
			wc_engine_params_default(&p, &t);
			p.replication = WC_REPL_ASYNC;
			p.buf_flits = 64;
			case_engine_new(NULL, rec, &t, &p, &wc_algo_label);
			for (j = 0; j < per; j++) {
				u32 src = tu_rand_mod(&st, t.nnodes);
				u32 n = 2 + tu_rand_mod(&st, 30);

				tu_random_dests(&st, t.nnodes, src, n, d);
				memset(links, 0, t.nnodes * np * sizeof(u32));
				if (plan_links(&lb, path_schemes[k], src, d, n,
					       links)) {
					bad++;
					continue;
				}
				if (!on_links(rec, &t, &s, src, d, n, links,
					      before) || rec->nd != n)
					bad++;
			}
			is_int(bad, 0, "%s scheme %u: %u multicasts use the planner's links",
			       topos[i].name, path_schemes[k], per);
			is_int(rec->deadlocks + rec->route_errors, 0,
			       "%s scheme %u: no deadlock, no routing error",
			       topos[i].name, path_schemes[k]);
			wc_engine_destroy(rec->e);
			rec->deadlocks = rec->route_errors = 0;
			wc_label_set_free(&s);
			free(bytes);
			free(links);
			free(before);
		}
		{
			void *none;
			size_t nlen;

			ok(wc_labels_table_build(&t, WORMCAST_MCAST_DSTM1, &none,
						 &nlen) == -EINVAL && !none,
			   "%s: no label table for a tree scheme",
			   topos[i].name);
		}
		wc_labeling_free(&lb);
	}
	case_rec_free(rec);
}

/* Did every destination of @d get exactly one delivery (and nobody else)? */
static bool each_once(const struct case_rec *rec, const u32 *d, u32 n)
{
	u32 i, j, hits;

	if (rec->nd != n)
		return false;
	for (i = 0; i < n; i++) {
		for (j = 0, hits = 0; j < rec->nd; j++)
			hits += rec->d[j].node == d[i];
		if (hits != 1)
			return false;
	}
	return true;
}

/* What around_faults() counts for one scheme. */
struct fault_counts {
	u32 bad_table, bad_links, bad_deliv;
	u64 drops, stuck;
};

/*
 * One fault under @scheme on @t: link @link failed, or node @node (the
 * other WC_NO_LINK / WC_NO_NODE); @per multicasts among the live nodes,
 * planned on the labeling around the fault and run in the engine with
 * the fault in it.
 */
static void one_fault(struct case_rec *rec, const struct wc_topo *t, u32 scheme,
		      u32 link, u32 node, u32 per, u64 *st, u32 *links,
		      u64 *before, struct fault_counts *fc)
{
	u32 np = t->nports, nl = link != WC_NO_LINK, nn = node != WC_NO_NODE;
	u32 a = WC_NO_NODE, pa = 0, b = WC_NO_NODE, pb = 0, j, i, p, crossed;
	u32 crossed2, unlisted, d[16];
	struct wc_engine_params prm;
	struct wc_engine_stats es;
	struct wc_labeling lb;
	struct wc_label_set s;
	void *bytes;
	size_t len;

	if (nl)
		wc_link_ends(t, link, &a, &pa, &b, &pb);
	if (wc_labels_table_build_faults(t, scheme, &link, nl, &node, nn, &bytes,
					 &len, &crossed, &unlisted) ||
	    crossed || wc_label_set_build(&s, t, bytes, len, NULL)) {
		fc->bad_table++;
		return;
	}
	free(bytes);
	if (wc_labeling_init_faults(&lb, t, &link, nl, &node, nn, &crossed2)) {
		fc->bad_table++;
		wc_label_set_free(&s);
		return;
	}
	wc_engine_params_default(&prm, t);
	prm.replication = WC_REPL_ASYNC;
	prm.buf_flits = 64;
	case_engine_new(NULL, rec, t, &prm, &wc_algo_label);
	if (nl)
		wc_engine_fault_link(rec->e, a, b, true, NULL);
	else
		wc_engine_fault_node(rec->e, node, true, NULL);
	for (j = 0; j < per; j++) {
		u32 src = tu_rand_mod(st, t->nnodes);
		u32 n = 2 + tu_rand_mod(st, 11), m = 0;
		bool off = true;

		if (src == node)
			src = (src + 1) % t->nnodes;
		tu_random_dests(st, t->nnodes, src, n, d);
		for (i = 0; i < n; i++)	/* no destination on the failed node */
			if (d[i] != node)
				d[m++] = d[i];
		n = m;
		if (n < 2)	/* (one destination goes as a unicast) */
			continue;
		memset(links, 0, t->nnodes * np * sizeof(u32));
		if (plan_links(&lb, scheme, src, d, n, links)) {
			fc->bad_links++;
			continue;
		}
		if (nl)
			off = !links[a * np + pa] && !links[b * np + pb];
		for (p = 0; nn && p < np; p++) {
			u32 u = wc_topo_neighbor(t, node, p);

			if (u != WC_NO_NODE)
				off = off && !links[node * np + p] &&
				      !links[u * np + wc_topo_reverse_port(t, node, p)];
		}
		if (!off) {
			fc->bad_links++;
			continue;
		}
		fc->bad_links += !on_links(rec, t, &s, src, d, n, links, before);
		fc->bad_deliv += !each_once(rec, d, n);
	}
	wc_engine_get_stats(rec->e, &es);
	fc->drops += es.fault_drops;
	fc->stuck += rec->deadlocks + rec->route_errors;
	wc_engine_destroy(rec->e);
	rec->deadlocks = rec->route_errors = 0;
	wc_labeling_free(&lb);
	wc_label_set_free(&s);
}

/*
 * Every link, then every node, of @ts failed in turn under every scheme
 * (see the top).
 */
static void around_faults(u32 per)
{
	static const struct topo_spec ts[] = {
		{ "mesh 4x4", WC_TOPO_MESH, 2, { 4, 4 } },
		{ "star 4", WC_TOPO_STAR, 1, { 4 } },
	};
	struct case_rec *rec = case_rec_new(NULL, 1024);
	u64 st = 91;
	u32 i, k;

	for (i = 0; i < ARRAY_SIZE(ts); i++) {
		struct wc_topo t;
		u32 np, link, v, a, pa, b, pb;

		wc_topo_init(&t, ts[i].kind, ts[i].ndims, ts[i].dims, NULL);
		np = t.nports;
		for (k = 0; k < PATH_NSCHEMES; k++) {
			struct fault_counts fl = { 0 }, fn = { 0 };
			u32 *links = calloc(t.nnodes * np, sizeof(u32));
			u64 *before = calloc(t.nnodes * np, sizeof(u64));
			u32 nlinks = 0;

			for (link = 0; link < wc_link_space(&t); link++) {
				wc_link_ends(&t, link, &a, &pa, &b, &pb);
				if (b == WC_NO_NODE || wc_link_id(&t, a, pa) != link)
					continue;
				nlinks++;
				one_fault(rec, &t, path_schemes[k], link, WC_NO_NODE,
					  per, &st, links, before, &fl);
			}
			for (v = 0; v < t.nnodes; v++)
				one_fault(rec, &t, path_schemes[k], WC_NO_LINK, v,
					  per, &st, links, before, &fn);
			is_int(fl.bad_table, 0,
			       "%s scheme %u, each of %u links failed: a table around it, accepted",
			       ts[i].name, path_schemes[k], nlinks);
			is_int(fl.bad_links, 0,
			       "%s scheme %u: %u multicasts per link on the planner's links, never the failed one",
			       ts[i].name, path_schemes[k], per);
			is_int(fl.bad_deliv, 0, "%s scheme %u: every destination exactly once",
			       ts[i].name, path_schemes[k]);
			is_int(fl.drops + fl.stuck, 0,
			       "%s scheme %u: no fault_drops, no deadlock, no routing error",
			       ts[i].name, path_schemes[k]);
			is_int(fn.bad_table, 0,
			       "%s scheme %u, each of %u nodes failed: a table with the node at an end of the path, accepted",
			       ts[i].name, path_schemes[k], t.nnodes);
			is_int(fn.bad_links + fn.bad_deliv, 0,
			       "%s scheme %u: %u multicasts per failed node among the others on the planner's links, never the node's, every destination exactly once",
			       ts[i].name, path_schemes[k], per);
			is_int(fn.drops + fn.stuck, 0,
			       "%s scheme %u, failed nodes: no fault_drops, no deadlock, no routing error",
			       ts[i].name, path_schemes[k]);
			free(links);
			free(before);
		}
	}
	case_rec_free(rec);
}

int main(void)
{
	case_path_tables_good(NULL);
	case_path_tables_bad(NULL);
	case_path_tables_faults(NULL);
	case_path_hops(NULL);
	case_path_star_sample(NULL);
	case_path_reference(NULL, 60);
	case_path_traffic(NULL, 3000);
	against_planners(40);
	around_faults(8);
	return done_testing();
}
