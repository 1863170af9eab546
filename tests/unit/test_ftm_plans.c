// SPDX-License-Identifier: GPL-2.0
/*
 * Strategy 3 in the datapath: the daemon's plans (daemon/lib/plans_table.c,
 * wc_ftm_plans_table_build(): wc_ft_plan() with Strategy 3, its worms and
 * choices) encoded as a PLANS table of scheme ftmesh, validated by the
 * kernel's code (kmod/engine/plans.c, wc_plan_set_build_ftm()) against the
 * ftmesh tables, looked up, matched and laid out as the kernel's source
 * does (kmod/fabric.c, wc_use_plan()), and routed by wc_algo_ftmesh: the
 * links the worms reserve are the offline planner's tree, link for link,
 * with the traffic steps of the planner (Fig. 7(a): 35), every reachable
 * destination consumed once and the others in fault_drops.  Then bad
 * tables, each refused for its own reason.
 */
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "engine.h"
#include "ft_mcast.h"
#include "ftmcast.h"
#include "ftm_fig7.h"
#include "plans.h"
#include "plans_table.h"

static u64 rng_state = 0x2545f4914f6cdd1dull;

static u32 rnd(u32 n)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return n ? (u32)(rng_state % n) : 0;
}

struct rig {
	struct wc_topo topo;
	struct wc_engine *e;
	struct wc_ftm_tables tab;
	u8 *got;
	u32 dup, stray, route_errors, deadlocks;
};

static void cb_deliver(void *priv, struct wc_msg *m, u32 node, u64 lat)
{
	struct rig *r = priv;

	if (!((m->dstmap[node / 32] >> (node % 32)) & 1))
		r->stray++;
	else if (r->got[node]++)
		r->dup++;
}

static void cb_done(void *priv, struct wc_msg *m)
{
}

static void cb_error(void *priv, struct wc_msg *m, u32 node, int err)
{
	((struct rig *)priv)->route_errors++;
}

static void cb_deadlock(void *priv, u64 cycle)
{
	((struct rig *)priv)->deadlocks++;
}

static const struct wc_engine_ops ops = {
	.deliver = cb_deliver,
	.msg_done = cb_done,
	.route_error = cb_error,
	.deadlock = cb_deadlock,
};

static int rig_init(struct rig *r, const struct wc_faultinfo *fi)
{
	u32 dims[2] = { fi->w, fi->h };
	struct wc_engine_params p;

	memset(r, 0, sizeof(*r));
	wc_topo_init(&r->topo, WC_TOPO_MESH, 2, dims, NULL);
	wc_engine_params_default(&p, &r->topo);
	p.vcs = 4;
	p.replication = WC_REPL_ASYNC;
	p.buf_flits = WC_MAX_BUF_FLITS;
	if (wc_ftm_tables_build(fi, 3, 0, &r->tab))
		return -1;
	r->got = calloc(r->topo.nnodes, 1);
	r->e = wc_engine_create(&r->topo, &p, &wc_algo_ftmesh, &ops, r);
	return r->e && r->got ? 0 : -1;
}

static void rig_free(struct rig *r)
{
	wc_engine_destroy(r->e);
	wc_ftm_tables_free(&r->tab);
	free(r->got);
}

static int cmp_u32(const void *a, const void *b)
{
	u32 x = *(const u32 *)a, y = *(const u32 *)b;

	return x < y ? -1 : x > y;
}

struct tally {
	u32 runs, planned, fallback, bad_links, bad_count, bad_dst, bad_msg;
	u64 steps;
};

/*
 * One frame from @src to @dst as the kernel sends it under ftmesh
 * Strategy 3: its plan from @ps if one matches (laid out, hdr_preset),
 * else the routers' Strategy 2.  The reserved links must be the
 * planner's (Strategy 3 with a plan, Strategy 2 without).
 */
static u32 send_one(struct rig *r, const struct wc_faultinfo *fi,
		    const struct wc_plan_set *ps, const u8 *addr, u32 src,
		    const u32 *dst, u32 nd, struct tally *ty)
{
	u32 hw = wc_algo_hdr_words(&wc_algo_ftmesh, nd), i, nl, *a, *b;
	struct wc_msg *m = calloc(1, wc_msg_size(r->e));
	u32 *hdr = calloc(hw, sizeof(u32));
	struct wc_trace tr = { 0 };
	struct wc_ft_plan_opts o = { 0 };
	struct wc_engine_stats s0, s1;
	const struct wc_plan *p;
	struct wc_ft_plan fp;

	wc_msg_init(r->e, m, src, 64, NULL);
	m->hdr = hdr;
	m->hdr_max = hw;
	for (i = 0; i < nd; i++)
		wc_msg_add_dst(r->e, m, dst[i]);
	tr.max_links = 4 * r->topo.nnodes;
	tr.links = calloc(tr.max_links, sizeof(*tr.links));
	tr.max_dsts = nd + 1;
	tr.dsts = calloc(nd + 1, sizeof(*tr.dsts));
	m->trace = &tr;
	/* kmod/fabric.c, wc_use_plan() */
	p = wc_plan_find(ps, src, addr);
	if (wc_plan_use(ps, p, &r->tab, m)) {
		ty->planned++;
	} else {
		ty->fallback++;
	}
	o.strategy = m->hdr_preset ? 3 : 2;
	if (wc_ft_plan(fi, src, dst, nd, &o, &fp, NULL)) {
		ty->bad_msg++;
		goto out;
	}
	memset(r->got, 0, r->topo.nnodes);
	r->dup = r->stray = 0;
	wc_engine_get_stats(r->e, &s0);
	wc_engine_submit(r->e, m);
	for (i = 0; i < 1000 && wc_engine_busy(r->e); i++)
		wc_engine_run(r->e, 20000, &r->tab);
	wc_engine_get_stats(r->e, &s1);
	ty->runs++;
	if (wc_engine_busy(r->e) || r->dup || r->stray ||
	    s1.route_errors != s0.route_errors ||
	    s1.fault_drops - s0.fault_drops != nd - fp.nreached)
		ty->bad_msg++;
	for (i = 0; i < nd; i++)
		if (r->got[dst[i]] != (fp.status[i] == WC_FT_DST_OK))
			ty->bad_dst++;
	nl = tr.nlinks;
	if (nl != fp.nhops || tr.lost || m->nlinks != nl)
		ty->bad_count++;
	ty->steps += nl;
	a = calloc(nl + 1, sizeof(u32));
	b = calloc(fp.nhops + 1, sizeof(u32));
	for (i = 0; i < nl; i++)
		a[i] = tr.links[i].node * r->topo.nports + tr.links[i].port;
	for (i = 0; i < fp.nhops; i++)
		b[i] = fp.hops[i].from * r->topo.nports +
		       wc_topo_port_to(&r->topo, fp.hops[i].from, fp.hops[i].to);
	qsort(a, nl, sizeof(u32), cmp_u32);
	qsort(b, fp.nhops, sizeof(u32), cmp_u32);
	if (nl == fp.nhops && memcmp(a, b, nl * sizeof(u32)))
		ty->bad_links++;
	free(a);
	free(b);
	wc_ft_plan_free(&fp);
out:
	free(tr.links);
	free(tr.dsts);
	free(hdr);
	free(m);
	return tr.nlinks;
}

static const u8 grp[6] = { 0x01, 0x00, 0x5e, 0x00, 0x00, 0x07 };

/* The table of one group for every source; built, validated, kept. */
static int plans_for(const struct wc_faultinfo *fi, const struct rig *r,
		     const u32 *members, u32 nm, struct wc_plan_set *ps,
		     struct wc_plans_stats *st, const char **why)
{
	struct wc_group_in g = { .nmembers = nm, .members = members };
	size_t len;
	void *bytes;
	int err;

	memcpy(g.addr, grp, 6);
	err = wc_ftm_plans_table_build(fi, &g, 1, true, &bytes, &len, st);
	if (err)
		return err;
	err = wc_plan_set_build_ftm(ps, &r->topo, &r->tab, bytes, len, why);
	free(bytes);
	return err;
}

/* Fig. 7(a): source (0,0), destinations (17,7), (5,10), (12,11). */
static void test_fig7a(void)
{
	u32 members[4] = { 0, 17 + 20 * 7, 5 + 20 * 10, 12 + 20 * 11 };
	struct wc_plans_stats st;
	struct wc_faultinfo fi;
	struct tally ty = { 0 };
	const char *why = NULL;
	struct wc_plan_set ps;
	struct rig r;
	u32 steps;

	build_fig7(&fi);
	ok(!rig_init(&r, &fi), "Fig. 7(a): Strategy 3 tables and engine");
	is_int(plans_for(&fi, &r, members, 4, &ps, &st, &why), 0,
	       "Fig. 7(a): plans of every source encoded and accepted (%s)",
	       why ? why : "ok");
	diag("%u plans, %u skipped, %llu traffic steps planned", st.plans,
	     st.skipped, (unsigned long long)st.channels);
	is_int(ps.scheme, WORMCAST_MCAST_FTMESH, "the plan set is of scheme ftmesh");
	steps = send_one(&r, &fi, &ps, grp, 0, members + 1, 3, &ty);
	is_int(steps, 35, "source (0,0): the plan's worms take 35 traffic steps in the engine");
	is_int(ty.planned, 1, "and went by the plan");
	/* the same group, one member fewer: no plan matches, Strategy 2 */
	send_one(&r, &fi, &ps, grp, 0, members + 1, 2, &ty);
	is_int(ty.fallback, 1, "a frame whose destinations differ from the plan's: no plan");
	is_int(ty.bad_links + ty.bad_count + ty.bad_dst + ty.bad_msg, 0,
	       "Fig. 7(a): the engine's links are the planner's");
	wc_plan_set_free(&ps);
	rig_free(&r);
	wc_fi_free(&fi);
}

/*
 * Random faults and one group; every healthy member sends once with
 * its plan.  Against Strategy 2 on the same frames, fewer steps.
 */
static void random_case(u32 w, u32 h, u32 nfaults, u32 trials, u32 maxm)
{
	struct tally ty = { 0 }, t2 = { 0 };
	u32 trial, plans = 0, skipped = 0, bad_build = 0;

	for (trial = 0; trial < trials; trial++) {
		u32 *f = malloc((nfaults + 1) * sizeof(u32)), i, j, nm, k;
		u32 *mem = malloc(maxm * sizeof(u32));
		u32 *dst = malloc(maxm * sizeof(u32));
		u8 *used = calloc(w * h, 1);
		struct wc_plans_stats st;
		struct wc_plan_set ps, none = { 0 };
		struct wc_faultinfo fi;
		const char *why = NULL;
		struct rig r;

		for (i = 0; i < nfaults; i++)
			f[i] = rnd(w * h);
		wc_fi_build(&fi, w, h, f, nfaults, NULL, 0, NULL);
		if (rig_init(&r, &fi)) {
			bad_build++;
			goto next;
		}
		nm = 2 + rnd(maxm - 1);
		for (i = 0; i < nm;) {
			u32 v = rnd(w * h);

			if (!used[v]) {
				used[v] = 1;
				mem[i++] = v;
			}
		}
		if (plans_for(&fi, &r, mem, nm, &ps, &st, &why)) {
			diag("refused: %s", why ? why : "?");
			bad_build++;
			rig_free(&r);
			goto next;
		}
		plans += st.plans;
		skipped += st.skipped;
		for (i = 0; i < nm; i++) {
			if (wc_fi_in_block(&fi, mem[i]))
				continue;
			for (j = 0, k = 0; j < nm; j++)
				if (j != i)
					dst[k++] = mem[j];
			send_one(&r, &fi, &ps, grp, mem[i], dst, k, &ty);
			send_one(&r, &fi, &none, grp, mem[i], dst, k, &t2);
		}
		wc_plan_set_free(&ps);
		rig_free(&r);
next:
		wc_fi_free(&fi);
		free(f);
		free(mem);
		free(dst);
		free(used);
	}
	diag("%ux%u, %u faults: %u frames, %u by a plan (%u plans, %u pairs skipped), %llu traffic steps; Strategy 2 %llu",
	     w, h, nfaults, ty.runs, ty.planned, plans, skipped,
	     (unsigned long long)ty.steps, (unsigned long long)t2.steps);
	is_int(bad_build, 0, "%ux%u, %u faults: every table encoded and accepted",
	       w, h, nfaults);
	ok(ty.runs && ty.planned + ty.fallback == ty.runs &&
	   ty.planned >= ty.runs / 2,
	   "%ux%u, %u faults: %u of %u frames found their plan", w, h, nfaults,
	   ty.planned, ty.runs);
	is_int(ty.bad_links + ty.bad_count + t2.bad_links + t2.bad_count, 0,
	       "%ux%u, %u faults: the very links and traffic steps of the planner",
	       w, h, nfaults);
	is_int(ty.bad_dst + ty.bad_msg + t2.bad_dst + t2.bad_msg, 0,
	       "%ux%u, %u faults: every reachable destination once, the others in fault_drops",
	       w, h, nfaults);
	ok(ty.steps < t2.steps, "%ux%u, %u faults: Strategy 3 plans take fewer steps than Strategy 2 (%llu < %llu)",
	   w, h, nfaults, (unsigned long long)ty.steps,
	   (unsigned long long)t2.steps);
}

/* A table under construction. */
struct tb {
	u32 w[64];
	u32 n;
};

static void tb_hdr(struct tb *b, u32 nnodes, u32 nplans, u32 scheme)
{
	struct wormcast_plans h = { .nnodes = nnodes, .nplans = nplans,
				    .scheme = scheme };

	memcpy(b->w, &h, sizeof(h));
	b->n = sizeof(h) / 4;
}

static void tb_plan(struct tb *b, u32 src, u32 nworms, const u32 *w, u32 nw)
{
	struct wormcast_plan p = { .src = src, .nworms = nworms, .nwords = nw };

	memcpy(p.addr, grp, 6);
	memcpy(b->w + b->n, &p, sizeof(p));
	b->n += sizeof(p) / 4;
	memcpy(b->w + b->n, w, nw * 4);
	b->n += nw;
}

static void refused(const struct rig *r, const struct wc_ftm_tables *ft,
		    const struct tb *b, const char *want, const char *what)
{
	struct wc_plan_set ps;
	const char *why = NULL;
	int err;

	err = wc_plan_set_build_ftm(&ps, &r->topo, ft, b->w, b->n * 4, &why);
	ok(err == -EINVAL && why && strstr(why, want),
	   "refused: %s (%s)", what, why ? why : "accepted");
	if (!err)
		wc_plan_set_free(&ps);
}

/* On Fig. 7(a)'s mesh: block (5,5)-(10,7); node (x, y) is x + 20 y. */
static void bad_tables(void)
{
	const u32 d1 = 17 + 20 * 7, d2 = 5 + 20 * 10, in_blk = 6 + 20 * 6;
	const u32 sw = 19;		/* (19,0) */
	u32 good[] = { 2, d1, d2 | 1u << WC_FTM_CHOICE_SHIFT };
	struct wc_ftm_tables t2;
	struct wc_faultinfo fi;
	struct wc_plan_set ps;
	const char *why = NULL;
	struct tb b;
	struct rig r;

	build_fig7(&fi);
	rig_init(&r, &fi);
	tb_hdr(&b, 400, 1, WORMCAST_MCAST_FTMESH);
	tb_plan(&b, 0, 1, good, 3);
	is_int(wc_plan_set_build_ftm(&ps, &r.topo, &r.tab, b.w, b.n * 4, &why),
	       0, "a good plan with a choice accepted (%s)", why ? why : "ok");
	if (!why) {
		u32 words[8], n = wc_plan_layout(&ps, &ps.plans[0], words, 8);

		ok(n == 4 && words[0] == 2 &&
		   words[1] == (d1 | WC_FTM_PLANNED) &&
		   words[2] == (d2 | WC_FTM_PLANNED |
				1u << WC_FTM_CHOICE_SHIFT) && words[3] == 0,
		   "its layout: [2, planned words with their choices, 0]");
		wc_plan_set_free(&ps);
	}
	tb_hdr(&b, 400, 1, 0);
	tb_plan(&b, 0, 1, good, 3);
	refused(&r, &r.tab, &b, "must be of scheme ftmesh", "scheme 0 against ftmesh tables");
	tb_hdr(&b, 399, 1, WORMCAST_MCAST_FTMESH);
	tb_plan(&b, 0, 1, good, 3);
	refused(&r, &r.tab, &b, "node count", "nnodes 399");
	wc_ftm_tables_build(&fi, 2, 0, &t2);
	tb_hdr(&b, 400, 1, WORMCAST_MCAST_FTMESH);
	tb_plan(&b, 0, 1, good, 3);
	refused(&r, &t2, &b, "strategy 3", "ftmesh tables of strategy 2");
	wc_ftm_tables_free(&t2);
	{
		u32 w[] = { 2, d1, d2 | WC_FTM_PLANNED };

		tb_hdr(&b, 400, 1, WORMCAST_MCAST_FTMESH);
		tb_plan(&b, 0, 1, w, 3);
		refused(&r, &r.tab, &b, "bits beyond", "bit 30 set");
	}
	{
		u32 w[] = { 2, d1, 400 };

		tb_hdr(&b, 400, 1, WORMCAST_MCAST_FTMESH);
		tb_plan(&b, 0, 1, w, 3);
		refused(&r, &r.tab, &b, "not a node", "node 400");
	}
	{
		u32 w[] = { 2, d1, d1 };

		tb_hdr(&b, 400, 1, WORMCAST_MCAST_FTMESH);
		tb_plan(&b, 0, 1, w, 3);
		refused(&r, &r.tab, &b, "twice", "a destination twice");
	}
	{
		u32 w[] = { 1, in_blk };

		tb_hdr(&b, 400, 1, WORMCAST_MCAST_FTMESH);
		tb_plan(&b, 0, 1, w, 2);
		refused(&r, &r.tab, &b, "cannot reach minimally", "a destination in the block");
	}
	{
		u32 w[] = { 1, d1 };

		tb_hdr(&b, 400, 1, WORMCAST_MCAST_FTMESH);
		tb_plan(&b, in_blk, 1, w, 2);
		refused(&r, &r.tab, &b, "source is inside a faulty block", "source in the block");
	}
	{
		/* from (19,0): (0,0) is -X+Y, (19,19) +X+Y */
		u32 w[] = { 1, 0, 1, 20 * 19 + 19 };

		tb_hdr(&b, 400, 1, WORMCAST_MCAST_FTMESH);
		tb_plan(&b, sw, 2, w, 4);
		refused(&r, &r.tab, &b, "increasing subnetwork order",
			"worms (-X+Y, then +X+Y) out of order");
	}
	{
		u32 w[] = { 2, 20 * 19 + 19, 0 };

		tb_hdr(&b, 400, 1, WORMCAST_MCAST_FTMESH);
		tb_plan(&b, sw, 1, w, 3);
		refused(&r, &r.tab, &b, "two subnetworks", "one worm, two subnetworks");
	}
	{
		u32 w[] = { 1, d1, 1, d2, 1, 20 * 19, 1, 19, 1, 399 };

		tb_hdr(&b, 400, 1, WORMCAST_MCAST_FTMESH);
		tb_plan(&b, 0, 5, w, 10);
		refused(&r, &r.tab, &b, "more worms", "5 worms");
	}
	{
		u32 w[] = { 1, 0 };

		tb_hdr(&b, 400, 1, WORMCAST_MCAST_FTMESH);
		tb_plan(&b, 0, 1, w, 2);
		refused(&r, &r.tab, &b, "own source", "the source as destination");
	}
	rig_free(&r);
	wc_fi_free(&fi);
}

int main(void)
{
	test_fig7a();
	random_case(20, 20, 20, 20, 12);
	random_case(20, 20, 40, 20, 12);
	random_case(50, 50, 100, 6, 30);
	bad_tables();
	return done_testing();
}
