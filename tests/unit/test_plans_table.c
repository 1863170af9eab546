// SPDX-License-Identifier: GPL-2.0
/*
 * Plans of the ocms and otms schemes: the daemon's encoder
 * (daemon/lib/plans_table.c) against the engine's validator and lookup
 * (kmod/engine/plans.c), good tables from the planners on an 8x8 mesh,
 * and every kind of bad table refused for its own reason.
 */
#include <string.h>

#include "tap.h"
#include "engine.h"

#include "case_tap.h"

/* only the recorder of engine_cases.h */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#include "../../kmod/tests/engine_cases.h"
#pragma GCC diagnostic pop

#include "labels_table.h"
#include "plans.h"
#include "plans_table.h"
#include "testutil.h"

static struct wc_topo topo;
static struct wc_labeling lb;
static struct wc_label_set ls;

static const u8 grp[6] = { 0x01, 0x00, 0x5e, 0x7f, 0x00, 0x01 };

/* Count the links of a route of @cnt nodes. */
static void mark_links(u32 *links, const u32 *nodes, u32 cnt)
{
	u32 i;

	for (i = 0; i + 1 < cnt; i++)
		links[nodes[i] * topo.nports +
		      wc_topo_port_to(&topo, nodes[i], nodes[i + 1])]++;
}

/* ---------------------------------------------------- good tables */

#define NGROUPS 3

static u32 members[NGROUPS][64];
static u32 sources[NGROUPS][64];
static struct wc_group_in groups[NGROUPS];

/* Listed sources of group @g (when not every node is): v = g mod 3. */
static bool listed(u32 g, u32 v)
{
	return v % 3 == g % 3;
}

static void make_groups(u64 *seed)
{
	static const u8 addrs[NGROUPS][6] = {
		{ 0x01, 0x00, 0x5e, 0x01, 0x02, 0x03 },
		{ 0x01, 0x00, 0x5e, 0x00, 0x00, 0x01 },
		{ 0x33, 0x33, 0x00, 0x00, 0x00, 0x01 },
	};
	static const u32 sizes[NGROUPS] = { 7, 24, 1 };
	u32 g, i;

	for (g = 0; g < NGROUPS; g++) {
		u32 n = 0;

		memcpy(groups[g].addr, addrs[g], 6);
		while (n < sizes[g]) {
			u32 v = tu_rand_mod(seed, topo.nnodes);

			for (i = 0; i < n && members[g][i] != v; i++)
				;
			if (i == n)
				members[g][n++] = v;
		}
		groups[g].members = members[g];
		groups[g].nmembers = n;
		for (i = 0, n = 0; i < topo.nnodes; i++)
			if (listed(g, i))
				sources[g][n++] = i;
		groups[g].sources = sources[g];
		groups[g].nsources = n;
	}
}

/* The frame's destination bitmap: @g's members but @src. */
static u32 dstmap_of(const struct wc_group_in *g, u32 src, u32 *map)
{
	u32 i, n = 0;

	memset(map, 0, 2 * sizeof(u32));
	for (i = 0; i < g->nmembers; i++) {
		if (g->members[i] == src)
			continue;
		map[g->members[i] / 32] |= 1u << (g->members[i] % 32);
		n++;
	}
	return n;
}

static void good_tables(enum wc_pathplan_algo algo, bool all_sources)
{
	const char *name = wc_pathplan_name(algo), *why = NULL;
	struct wc_plans_stats st;
	struct wc_plan_set ps;
	u32 src, g, want = 0, bad_find = 0, bad_match = 0, bad_layout = 0;
	u32 bad_worms = 0, words[1 + 2 * 64], map[2];
	size_t len;
	void *bytes;
	int err;

	for (src = 0; src < topo.nnodes; src++)
		for (g = 0; g < NGROUPS; g++)
			if ((all_sources || listed(g, src)) &&
			    dstmap_of(&groups[g], src, map))
				want++;
	err = wc_plans_table_build(&lb, algo, groups, NGROUPS, all_sources,
				   &bytes, &len, &st);
	is_int(err, 0, "%s%s: table built", name,
	       all_sources ? "" : " (listed sources)");
	is_int(st.plans, want, "%s: a plan per (source, group) with receivers",
	       name);
	is_int(st.skipped, 0, "%s: none refused by the planner", name);
	err = wc_plan_set_build(&ps, &topo, &ls, bytes, len, &why);
	is_int(err, 0, "%s: the kernel's validator accepts it (%s)", name,
	       why ? why : "-");
	if (err) {
		free(bytes);
		return;
	}
	is_int(ps.nplans, want, "%s: every plan in the set", name);
	for (src = 0; src < topo.nnodes; src++) {
		for (g = 0; g < NGROUPS; g++) {
			const struct wc_plan *p;
			struct wc_mstar ms;
			u32 k = dstmap_of(&groups[g], src, map), dests[64], i;
			u32 n = 0, used, pos, w;

			for (i = 0; i < groups[g].nmembers; i++)
				if (groups[g].members[i] != src)
					dests[n++] = groups[g].members[i];
			p = wc_plan_find(&ps, src, groups[g].addr);
			if (!k || (!all_sources && !listed(g, src))) {
				bad_find += p != NULL;
				continue;
			}
			if (!p) {
				bad_find++;
				continue;
			}
			bad_match += !wc_plan_matches(&ps, p, map, k);
			/* one receiver less: not this plan's frame */
			map[dests[0] / 32] &= ~(1u << (dests[0] % 32));
			bad_match += wc_plan_matches(&ps, p, map, k - 1);
			used = wc_plan_layout(&ps, p, words, ARRAY_SIZE(words));
			if (wc_pathplan(&lb, algo, src, dests, n, &ms)) {
				bad_worms++;
				continue;
			}
			/* the layout is the planner's star, in labels */
			if (used != 1 + ms.nworms + n || words[0] != used)
				bad_layout++;
			for (w = 0, pos = 1; w < ms.nworms && pos < used; w++) {
				if (words[pos] != ms.worms[w].ndests)
					bad_layout++;
				for (i = 0; i < ms.worms[w].ndests; i++)
					if (words[pos + 1 + i] !=
					    lb.label[ms.worms[w].dests[i]])
						bad_layout++;
				pos += 1 + words[pos];
			}
			bad_worms += p->nworms != ms.nworms;
			wc_mstar_free(&ms);
		}
	}
	is_int(bad_find, 0, "%s: found exactly the planned (source, group) pairs",
	       name);
	is_int(bad_match, 0, "%s: a plan matches its receivers, not a subset",
	       name);
	is_int(bad_layout, 0, "%s: every layout is the planner's worms in label order",
	       name);
	is_int(bad_worms, 0, "%s: worm counts are the planner's", name);
	wc_plan_set_free(&ps);
	free(bytes);
}

/* ---------------------------------------------------- in the engine */

static u64 worms_of(const struct wc_engine *e, u32 node)
{
	struct wc_node_stats ns;

	wc_engine_node_stats(e, node, &ns);
	return ns.worms_injected;
}

/*
 * Random multicasts planned by @algo, installed as a one-plan table and
 * sent by the engine with the plan's layout: the channels the worms
 * reserve are exactly those of the planner's worms (crossed once per
 * worm, they add up to the planner's channel count), every destination
 * consumes once, and the message makes the plan's worm count.
 */
static void in_engine(enum wc_pathplan_algo algo, u32 runs)
{
	const char *name = wc_pathplan_name(algo);
	struct case_rec *rec = case_rec_new(NULL, 1024);
	u32 np = topo.nports, n = topo.nnodes, j, v;
	u32 bad_links = 0, bad_count = 0, bad_deliv = 0, bad_worms = 0;
	u32 *links = calloc(n * np, sizeof(u32)), *path = calloc(4 * n, sizeof(u32));
	u64 *before = calloc(n * np, sizeof(u64));
	struct wc_engine_params prm;
	u64 st = 4242;

	wc_engine_params_default(&prm, &topo);
	case_engine_new(NULL, rec, &topo, &prm, &wc_algo_label);
	for (j = 0; j < runs; j++) {
		u32 src = tu_rand_mod(&st, n), k = 1 + tu_rand_mod(&st, 24);
		u32 d[32], w, crossed = 0;
		u64 worms0;
		struct wc_plans_enc e;
		struct wc_plan_set ps;
		const struct wc_plan *p;
		struct wc_mstar ms;
		struct wc_msg *m;
		size_t len;
		void *bytes;

		tu_random_dests(&st, n, src, k, d);
		if (wc_pathplan(&lb, algo, src, d, k, &ms)) {
			bad_links++;
			continue;
		}
		memset(links, 0, n * np * sizeof(u32));
		for (w = 0; w < ms.nworms; w++)
			mark_links(links, path, wc_mstar_worm_route(&lb, src,
								    &ms.worms[w],
								    path));
		if (wc_plans_enc_init(&e, n) || wc_plans_enc_add(&e, grp, &ms)) {
			wc_plans_enc_free(&e);
			wc_mstar_free(&ms);
			bad_links++;
			continue;
		}
		wc_plans_enc_finish(&e, &bytes, &len);
		if (wc_plan_set_build(&ps, &topo, &ls, bytes, len, NULL)) {
			free(bytes);
			wc_mstar_free(&ms);
			bad_links++;
			continue;
		}
		p = wc_plan_find(&ps, src, grp);
		for (v = 0; v < n * np; v++)
			before[v] = wc_engine_channel_busy(rec->e, v / np, v % np);
		m = wc_zalloc(wc_msg_size(rec->e) + wc_label_hdr_words(k) * 4);
		wc_msg_init(rec->e, m, src, 100, rec->e);
		m->hdr = (u32 *)((char *)m + wc_msg_size(rec->e));
		m->hdr_max = wc_label_hdr_words(k);
		for (v = 0; v < k; v++)
			wc_msg_add_dst(rec->e, m, d[v]);
		bad_worms += !p || !wc_plan_matches(&ps, p, m->dstmap, m->ndsts) ||
			     !wc_plan_layout(&ps, p, m->hdr, m->hdr_max);
		m->hdr_preset = true;
		rec->nd = 0;
		worms0 = worms_of(rec->e, src);
		wc_engine_submit(rec->e, m);
		while (wc_engine_busy(rec->e))
			wc_engine_run(rec->e, 100000, &ls);
		for (v = 0; v < n * np; v++) {
			bool busy = wc_engine_channel_busy(rec->e, v / np, v % np) !=
				    before[v];

			bad_links += busy != !!links[v];
			crossed += links[v];
		}
		/* two worms of a star may share a channel: counted per worm */
		bad_count += crossed != ms.channels;
		bad_deliv += rec->nd != k;
		bad_worms += worms_of(rec->e, src) - worms0 != ms.nworms;
		wc_plan_set_free(&ps);
		free(bytes);
		wc_mstar_free(&ms);
	}
	is_int(bad_links, 0, "%s in the engine: %u multicasts reserve exactly the planner's links",
	       name, runs);
	is_int(bad_count, 0, "%s in the engine: those links, per worm, are the planner's channel count",
	       name);
	is_int(bad_deliv, 0, "%s in the engine: every destination consumes once", name);
	is_int(bad_worms, 0, "%s in the engine: the plan's worm count", name);
	is_int(rec->deadlocks + rec->route_errors, 0,
	       "%s in the engine: no deadlock, no routing error", name);
	wc_engine_destroy(rec->e);
	case_rec_free(rec);
	free(links);
	free(path);
	free(before);
}

/* ---------------------------------------------------- bad tables */

struct tb {
	u8 buf[1024];
	size_t len;
};

static void tb_put(struct tb *b, const void *p, size_t n)
{
	memcpy(b->buf + b->len, p, n);
	b->len += n;
}

static void tb_hdr(struct tb *b, u32 nnodes, u32 nplans)
{
	struct wormcast_plans h = { .nnodes = nnodes, .nplans = nplans };

	b->len = 0;
	tb_put(b, &h, sizeof(h));
}

static void tb_plan(struct tb *b, const u8 *addr, u32 src, u32 nworms,
		    const u32 *w, u32 nwords)
{
	struct wormcast_plan p = { .src = src, .nworms = nworms,
				   .nwords = nwords };

	memcpy(p.addr, addr, 6);
	tb_put(b, &p, sizeof(p));
	tb_put(b, w, nwords * sizeof(u32));
}

/* Refused with -EINVAL for a reason that contains @want. */
static void refused(const struct wc_label_set *s, const struct tb *b,
		    size_t len, const char *want, const char *what)
{
	struct wc_plan_set ps;
	const char *why = NULL;
	int err;

	err = wc_plan_set_build(&ps, &topo, s, b->buf, len, &why);
	ok(err == -EINVAL && why && strstr(why, want),
	   "refused: %s (%s)", what, why ? why : "accepted");
	if (!err)
		wc_plan_set_free(&ps);
}

static void bad_tables(void)
{
	u32 n0 = ls.node_of_label[0], a = ls.node_of_label[1];
	u32 a2 = ls.node_of_label[2], far = ls.node_of_label[63];
	u32 mid = ls.node_of_label[20], lo = ls.node_of_label[5];
	const u32 *nbr = ls.nbr + n0 * ls.nports;
	u32 good[] = { 2, a, a2, 1, far };
	struct wc_label_set dual;
	struct wc_plan_set ps;
	const char *why = NULL;
	u8 ucast[6] = { 0x02, 0x77, 0, 1, 0, 3 };
	struct tb b;
	void *lt;
	size_t len;

	ok(wc_lr_next_port(0, nbr, ls.nports, 1) !=
	   wc_lr_next_port(0, nbr, ls.nports, 63),
	   "label 0 reaches labels 1 and 63 through two ports (precondition)");
	/* the good one first: each bad one below differs in one thing */
	tb_hdr(&b, 64, 1);
	tb_plan(&b, grp, n0, 2, good, 5);
	is_int(wc_plan_set_build(&ps, &topo, &ls, b.buf, b.len, &why), 0,
	       "a hand-made plan is accepted");
	wc_plan_set_free(&ps);

	refused(&ls, &b, 8, "shorter than its header", "8 bytes");
	refused(NULL, &b, b.len, "labels table", "no labels table");
	ok(!wc_labels_table_build(&topo, WORMCAST_MCAST_DUAL_PATH, &lt, &len) &&
	   !wc_label_set_build(&dual, &topo, lt, len, NULL),
	   "a dual-path labels table");
	refused(&dual, &b, b.len, "scheme ocms or otms",
		"labels of a scheme that sends no plans");
	wc_label_set_free(&dual);
	free(lt);
	refused(&ls, &b, b.len - 4, "words run past the end",
		"one word short");

	tb_hdr(&b, 63, 1);
	tb_plan(&b, grp, n0, 2, good, 5);
	refused(&ls, &b, b.len, "node count", "nnodes 63 on 64 nodes");

	tb_hdr(&b, 64, 1);
	((struct wormcast_plans *)b.buf)->reserved = 1;
	tb_plan(&b, grp, n0, 2, good, 5);
	refused(&ls, &b, b.len, "reserved header", "reserved header word");

	tb_hdr(&b, 64, WORMCAST_PLANS_MAX + 1);
	refused(&ls, &b, b.len, "WORMCAST_PLANS_MAX", "too many plans");

	tb_hdr(&b, 64, 2);
	tb_plan(&b, grp, n0, 2, good, 5);
	refused(&ls, &b, b.len, "run past the end", "two plans announced, one given");

	tb_hdr(&b, 64, 1);
	tb_plan(&b, grp, n0, 2, good, 5);
	((struct wormcast_plan *)(b.buf + sizeof(struct wormcast_plans)))->reserved = 1;
	refused(&ls, &b, b.len, "reserved plan", "reserved plan field");

	tb_hdr(&b, 64, 1);
	tb_plan(&b, ucast, n0, 2, good, 5);
	refused(&ls, &b, b.len, "not a multicast MAC", "unicast group address");

	tb_hdr(&b, 64, 1);
	tb_plan(&b, grp, 64, 2, good, 5);
	refused(&ls, &b, b.len, "source is not a node", "source out of range");

	tb_hdr(&b, 64, 1);
	tb_plan(&b, grp, n0, 0, good, 5);
	refused(&ls, &b, b.len, "no worm", "no worm");

	tb_hdr(&b, 64, 1);
	tb_plan(&b, grp, n0, ls.nports + 1, good, 5);
	refused(&ls, &b, b.len, "more worms than", "more worms than ports");

	{
		u32 w[] = { 2, a, a2, 2, far };	/* second worm runs past */

		tb_hdr(&b, 64, 1);
		tb_plan(&b, grp, n0, 2, w, 5);
		refused(&ls, &b, b.len, "past the plan's words", "worm longer than its words");
	}
	{
		u32 w[] = { 0, 1, far };

		tb_hdr(&b, 64, 1);
		tb_plan(&b, grp, n0, 2, w, 3);
		refused(&ls, &b, b.len, "empty worm", "empty worm");
	}
	{
		u32 w[] = { 2, a, 64, 1, far };

		tb_hdr(&b, 64, 1);
		tb_plan(&b, grp, n0, 2, w, 5);
		refused(&ls, &b, b.len, "not a node of the fabric", "destination out of range");
	}
	{
		u32 w[] = { 2, a, a2, 1, n0 };

		tb_hdr(&b, 64, 1);
		tb_plan(&b, grp, n0, 2, w, 5);
		refused(&ls, &b, b.len, "its own source", "destination is the source");
	}
	{
		u32 w[] = { 2, a, a2, 1, a2 };

		tb_hdr(&b, 64, 1);
		tb_plan(&b, grp, n0, 2, w, 5);
		refused(&ls, &b, b.len, "twice", "destination in two worms");
	}
	{
		u32 w[] = { 2, a2, a, 1, far };

		tb_hdr(&b, 64, 1);
		tb_plan(&b, grp, n0, 2, w, 5);
		refused(&ls, &b, b.len, "label-monotone", "labels 2 then 1 going up");
	}
	{
		u32 w[] = { 2, lo, mid };	/* from label 20: 5 then 20? */
		u32 w2[] = { 2, ls.node_of_label[25], lo };

		tb_hdr(&b, 64, 1);
		tb_plan(&b, grp, mid, 1, w2, 3);
		refused(&ls, &b, b.len, "label-monotone",
			"from label 20 up to 25 then down to 5");
		tb_hdr(&b, 64, 1);
		tb_plan(&b, grp, far, 1, w, 3);
		is_int(wc_plan_set_build(&ps, &topo, &ls, b.buf, b.len, &why), -EINVAL,
		       "from label 63: down to 5 then up to 20 refused");
	}
	{
		u32 w[] = { 1, a, 1, a2 };

		tb_hdr(&b, 64, 1);
		tb_plan(&b, grp, n0, 2, w, 4);
		refused(&ls, &b, b.len, "same port", "two worms through one port");
	}
	{
		u32 w[] = { 2, a, a2, 1, far, 7 };

		tb_hdr(&b, 64, 1);
		tb_plan(&b, grp, n0, 2, w, 6);
		refused(&ls, &b, b.len, "word count", "a word after the last worm");
	}
	tb_hdr(&b, 64, 1);
	tb_plan(&b, grp, n0, 2, good, 5);
	b.buf[b.len] = 0;
	refused(&ls, &b, b.len + 4, "table size", "trailing bytes");

	tb_hdr(&b, 64, 2);
	tb_plan(&b, grp, n0, 2, good, 5);
	tb_plan(&b, grp, n0, 2, good, 5);
	refused(&ls, &b, b.len, "increasing (source, group) order",
		"the same (source, group) twice");
	{
		u8 g2[6] = { 0x01, 0x00, 0x5e, 0x00, 0x00, 0x01 };
		u32 w[] = { 1, far };

		tb_hdr(&b, 64, 2);
		tb_plan(&b, grp, n0, 2, good, 5);
		tb_plan(&b, g2, n0, 1, w, 2);
		refused(&ls, &b, b.len, "increasing (source, group) order",
			"groups out of order");
	}
	{
		struct wc_mstar ms = { 0 };
		struct wc_plans_enc e;

		ok(!wc_plans_enc_init(&e, 64), "encoder: init");
		is_int(wc_plans_enc_add(&e, grp, &ms), -EINVAL,
		       "encoder: a star without worms is refused");
		wc_plans_enc_free(&e);
	}
}

int main(void)
{
	static const u32 dims[2] = { 8, 8 };
	u64 seed = 0x9e3779b97f4a7c15ull;
	size_t len;
	void *lt;

	if (wc_topo_init(&topo, WC_TOPO_MESH, 2, dims, NULL) ||
	    wc_labeling_init(&lb, &topo) ||
	    wc_labels_table_build(&topo, WORMCAST_MCAST_OCMS, &lt, &len) ||
	    wc_label_set_build(&ls, &topo, lt, len, NULL)) {
		ok(0, "setup: 8x8 mesh, its ocms labels table");
		return done_testing();
	}
	free(lt);
	make_groups(&seed);
	good_tables(WC_PP_OCMS, true);
	good_tables(WC_PP_OTMS, true);
	good_tables(WC_PP_OCMS, false);
	in_engine(WC_PP_OCMS, 200);
	in_engine(WC_PP_OTMS, 200);
	bad_tables();
	wc_label_set_free(&ls);
	wc_labeling_free(&lb);
	return done_testing();
}
