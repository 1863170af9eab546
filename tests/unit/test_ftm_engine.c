// SPDX-License-Identifier: GPL-2.0
/*
 * The fault-tolerant minimal multicast as an engine algorithm
 * (kmod/engine/ft_mcast.c, wc_algo_ftmesh) against the offline planner
 * (daemon/lib/ftmcast.c): the links the engine's worms reserve are the
 * planner's tree hop for hop, for the paper's Fig. 7(a) and for random
 * fault sets and groups on 20x20 and 50x50 meshes; every destination is
 * reached exactly once, on a minimal path, or counted in fault_drops; and
 * long random runs mixing multicast and unicast never fire the watchdog,
 * also with the detours (8 VCs) for the destinations the source leaves
 * out, each detoured copy over d(s, m) + d(m, d) links.
 */
#include <stdlib.h>

#include "tap.h"
#include "engine.h"
#include "ft_mcast.h"
#include "ftm_set.h"
#include "ftmcast.h"
#include "ftm_fig7.h"

static u64 rng_state = 88172645463325252ull;

static u32 rnd(u32 n)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return n ? (u32)(rng_state % n) : 0;
}

/* A message and what reached its destinations. */
struct tmsg {
	struct wc_msg *m;
	u8 *got;		/* per node: copies delivered */
	u32 want;		/* destinations the source can reach */
	u32 *hdr;
	struct wc_trace tr;
};

struct rig {
	struct wc_topo topo;
	struct wc_engine *e;
	struct wc_ftm_tables tab;
	u32 route_errors, deadlocks, dup, miss, lost_bad, done, detoured;
	u64 hops_owed;		/* Manhattan distance of every delivery */
	u64 hops_delivered;
};

static void msg_free(struct tmsg *t)
{
	free(t->got);
	free(t->hdr);
	free(t->tr.links);
	free(t->tr.dsts);
	free(t->m);
	free(t);
}

static void cb_deliver(void *priv, struct wc_msg *m, u32 node, u64 lat)
{
	struct rig *r = priv;
	struct tmsg *t = m->cookie;
	u32 w = r->tab.w, way;

	if (t->got[node]++)
		r->dup++;
	if (wc_ftm_reachable(&r->tab, m->src, node)) {
		r->hops_owed += wc_topo_distance(&r->topo, m->src, node);
		return;
	}
	/* a detour: minimal to the waypoint, minimal from there */
	way = wc_ftm_waypoint(&r->tab, m->src, node);
	if (way < w * r->tab.h) {
		r->hops_owed += wc_topo_distance(&r->topo, m->src, way) +
				wc_topo_distance(&r->topo, way, node);
		r->detoured++;
	} else {
		r->dup++;	/* never: no worm goes there */
	}
}

static void cb_done(void *priv, struct wc_msg *m)
{
	struct rig *r = priv;
	struct tmsg *t = m->cookie;
	u32 n, got = 0;

	for (n = 0; n < r->topo.nnodes; n++) {
		if (t->got[n] && !wc_msg_has_dst(r->e, m, n))
			r->dup++;
		got += t->got[n] ? 1 : 0;
	}
	if (got != t->want)
		r->miss++;
	/* the ones left out at the source, and only those, are fault_lost */
	if (m->fault_lost != m->ndsts - t->want)
		r->lost_bad++;
	r->done++;
	if (!t->tr.links)
		msg_free(t);
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

static struct rig *rig_new_vcs(const struct wc_faultinfo *fi, u32 strategy,
			       u64 seed, u32 replication, u32 buf, u32 vcs,
			       bool detour)
{
	struct rig *r = calloc(1, sizeof(*r));
	u32 dims[2] = { fi->w, fi->h };
	struct wc_engine_params p;

	wc_topo_init(&r->topo, WC_TOPO_MESH, 2, dims, NULL);
	wc_engine_params_default(&p, &r->topo);
	p.vcs = vcs;
	p.replication = replication;
	p.buf_flits = buf;
	if (wc_ftm_tables_build(fi, strategy, seed, &r->tab))
		return NULL;
	r->tab.detour = detour;
	r->e = wc_engine_create(&r->topo, &p, &wc_algo_ftmesh, &ops, r);
	return r;
}

static struct rig *rig_new(const struct wc_faultinfo *fi, u32 strategy,
			   u64 seed, u32 replication, u32 buf)
{
	return rig_new_vcs(fi, strategy, seed, replication, buf, 4, false);
}

static void rig_free(struct rig *r)
{
	wc_engine_destroy(r->e);
	wc_ftm_tables_free(&r->tab);
	free(r);
}

static struct tmsg *msg_new(struct rig *r, u32 src, const u32 *dst, u32 nd,
			    bool trace)
{
	struct tmsg *t = calloc(1, sizeof(*t));
	u32 i, hw = wc_algo_hdr_words(&wc_algo_ftmesh, nd);

	t->m = calloc(1, wc_msg_size(r->e));
	t->got = calloc(r->topo.nnodes, 1);
	t->hdr = calloc(hw, sizeof(u32));
	wc_msg_init(r->e, t->m, src, 64, t);
	t->m->hdr = t->hdr;
	t->m->hdr_max = hw;
	for (i = 0; i < nd; i++) {
		wc_msg_add_dst(r->e, t->m, dst[i]);
		if (wc_ftm_reachable(&r->tab, src, dst[i]) ||
		    wc_ftm_waypoint(&r->tab, src, dst[i]) != U32_MAX)
			t->want++;
	}
	if (trace) {
		t->tr.max_links = 4 * r->topo.nnodes;
		t->tr.links = calloc(t->tr.max_links, sizeof(*t->tr.links));
		t->tr.max_dsts = nd + 1;
		t->tr.dsts = calloc(nd + 1, sizeof(*t->tr.dsts));
		t->m->trace = &t->tr;
	}
	return t;
}

/* Run until idle; a run the watchdog stopped is flushed (returns false). */
static bool run_idle(struct rig *r)
{
	u32 k, dl = r->deadlocks;

	for (k = 0; k < 1000 && wc_engine_busy(r->e) && r->deadlocks == dl; k++)
		wc_engine_run(r->e, 20000, &r->tab);
	if (!wc_engine_busy(r->e))
		return true;
	wc_engine_flush(r->e);
	return false;
}

static int cmp_u32(const void *a, const void *b)
{
	u32 x = *(const u32 *)a, y = *(const u32 *)b;

	return x < y ? -1 : x > y;
}

struct tally {
	u32 runs, dests, reached, unreach;
	u32 bad_status, bad_count, bad_links, bad_msg, bad_hops, stalled;
	u32 bad_plan;		/* a Strategy 3 plan the header cannot carry */
	u64 steps, unicast;
};

/*
 * A Strategy 3 plan as the kernel lays it out for the source (plans.h):
 * the plan's worms (wc_ft_plan_worms(), the PLANS table's words), each
 * destination word WC_FTM_PLANNED, a 0 count at the end.  False if the
 * plan cannot be carried.
 */
static bool preset(struct tmsg *t, const struct wc_faultinfo *fi,
		   const struct wc_ft_plan *p)
{
	u32 nworms, pos = 0, k;
	int n = wc_ft_plan_worms(fi, p, t->hdr, &nworms);

	if (n < 0 || (u32)n + 1 > t->m->hdr_max)
		return false;
	while (pos < (u32)n) {
		for (k = 1; k <= t->hdr[pos]; k++)
			t->hdr[pos + k] |= WC_FTM_PLANNED;
		pos += 1 + t->hdr[pos];
	}
	t->hdr[n] = 0;
	t->m->hdr_preset = true;
	return true;
}

/*
 * One multicast through the engine and through the planner: same
 * destinations reached, same number of links, the same links.  With
 * @planned, the message carries the plan's worms (Strategy 3: the
 * choices at its separating points); else the routers decide alone.
 */
static u32 compare_as(struct rig *r, const struct wc_faultinfo *fi, u32 src,
		      const u32 *dst, u32 nd, u32 strategy, u64 seed,
		      bool planned, struct tally *ty)
{
	struct wc_ft_plan_opts o = { .strategy = strategy, .seed = seed };
	struct wc_engine_stats s0, s1;
	struct wc_ft_plan p;
	struct tmsg *t;
	u32 i, *a, *b, nl;

	if (wc_ft_plan(fi, src, dst, nd, &o, &p, NULL)) {
		ty->bad_status++;
		return 0;
	}
	t = msg_new(r, src, dst, nd, true);
	if (planned && !preset(t, fi, &p)) {
		ty->bad_plan++;
		wc_ft_plan_free(&p);
		msg_free(t);
		return 0;
	}
	wc_engine_get_stats(r->e, &s0);
	r->dup = r->miss = r->lost_bad = 0;
	r->hops_owed = 0;
	wc_engine_submit(r->e, t->m);
	ty->runs++;
	if (!run_idle(r)) {
		/* lock-step only: two branches of the worm met on a link */
		ty->stalled++;
		wc_ft_plan_free(&p);
		msg_free(t);
		return 0;
	}
	wc_engine_get_stats(r->e, &s1);
	for (i = 0; i < nd; i++) {
		bool okp = p.status[i] == WC_FT_DST_OK;

		ty->dests++;
		ty->reached += okp;
		ty->unreach += !okp;
		if (okp != wc_ftm_reachable(&r->tab, src, dst[i]) ||
		    t->got[dst[i]] != okp)
			ty->bad_status++;
	}
	if (r->dup || r->miss || r->lost_bad || s1.route_errors != s0.route_errors ||
	    s1.deadlocks != s0.deadlocks ||
	    s1.fault_drops - s0.fault_drops != nd - p.nreached ||
	    s1.fault_absorbed != s0.fault_absorbed)
		ty->bad_msg++;
	/* every delivery on a minimal path: hops = Manhattan distance */
	if (s1.hops_sum - s0.hops_sum != r->hops_owed)
		ty->bad_hops++;
	nl = t->tr.nlinks;
	if (nl != p.nhops || t->tr.lost || t->m->nlinks != nl)
		ty->bad_count++;
	ty->steps += nl;
	ty->unicast += p.unicast_steps;
	a = calloc(nl + 1, sizeof(u32));
	b = calloc(p.nhops + 1, sizeof(u32));
	for (i = 0; i < nl; i++)
		a[i] = t->tr.links[i].node * r->topo.nports + t->tr.links[i].port;
	for (i = 0; i < p.nhops; i++)
		b[i] = p.hops[i].from * r->topo.nports +
		       wc_topo_port_to(&r->topo, p.hops[i].from, p.hops[i].to);
	qsort(a, nl, sizeof(u32), cmp_u32);
	qsort(b, p.nhops, sizeof(u32), cmp_u32);
	if (nl == p.nhops && memcmp(a, b, nl * sizeof(u32)))
		ty->bad_links++;
	free(a);
	free(b);
	wc_ft_plan_free(&p);
	msg_free(t);
	return nl;
}

/* Choices a Strategy 3 plan of the group carries. */
static u32 count_choices(const struct wc_faultinfo *fi, u32 src, const u32 *dst,
			 u32 nd)
{
	struct wc_ft_plan_opts o = { .strategy = 3 };
	struct wc_ft_plan p;
	u32 i, n = 0;

	if (wc_ft_plan(fi, src, dst, nd, &o, &p, NULL))
		return 0;
	for (i = 0; i < nd; i++)
		if (p.status[i] == WC_FT_DST_OK)
			n += p.nchoices[i];
	wc_ft_plan_free(&p);
	return n;
}

static u32 compare(struct rig *r, const struct wc_faultinfo *fi, u32 src,
		   const u32 *dst, u32 nd, u32 strategy, u64 seed,
		   struct tally *ty)
{
	return compare_as(r, fi, src, dst, nd, strategy, seed, strategy == 3,
			  ty);
}

/* Fig. 7(a): block (5,5)-(10,7), source (0,0), separating point (4,4). */
static void test_fig7a(void)
{
	u32 dst[3] = { 17 + 20 * 7, 5 + 20 * 10, 12 + 20 * 11 };
	struct wc_faultinfo fi;
	struct tally ty = { 0 };
	struct rig *r;
	u32 seed, steps, seen35 = 0, seen39 = 0, other = 0, i, uni = 0;

	build_fig7(&fi);
	r = rig_new(&fi, 2, 0, WC_REPL_LOCKSTEP, 1);
	ok(r != NULL, "Fig. 7(a): tables and engine");
	steps = compare(r, &fi, 0, dst, 3, 2, 0, &ty);
	is_int(steps, 35, "Strategy 2 in the engine: 35 traffic steps (the paper's)");
	/* multiple unicast: one message per destination, 24 + 15 + 23 */
	for (i = 0; i < 3; i++)
		uni += compare(r, &fi, 0, &dst[i], 1, 2, 0, &ty);
	is_int(uni, 62, "the same three as unicasts in the engine: 62 steps");
	rig_free(r);
	for (seed = 1; seed <= 64; seed++) {
		r = rig_new(&fi, 1, seed, WC_REPL_LOCKSTEP, 1);
		steps = compare(r, &fi, 0, dst, 3, 1, seed, &ty);
		if (steps == 35)
			seen35++;
		else if (steps == 39)
			seen39++;
		else
			other++;
		rig_free(r);
	}
	diag("Strategy 1 over 64 seeds in the engine: %u x 39, %u x 35",
	     seen39, seen35);
	ok(seen35 && seen39 && !other,
	   "Strategy 1 in the engine: 39 (Y group) or 35 (X group), the paper's");
	r = rig_new(&fi, 3, 0, WC_REPL_LOCKSTEP, 1);
	ok(r != NULL, "Fig. 7(a): Strategy 3 tables");
	steps = compare(r, &fi, 0, dst, 3, 3, 0, &ty);
	is_int(steps, 35, "Strategy 3 planned, in the engine: 35 traffic steps (the planner's)");
	steps = compare_as(r, &fi, 0, dst, 3, 2, 0, false, &ty);
	is_int(steps, 35, "Strategy 3 tables, no plan: the routers split by Strategy 2");
	rig_free(r);
	is_int(ty.bad_count + ty.bad_links + ty.bad_status + ty.bad_msg +
	       ty.bad_hops + ty.bad_plan, 0,
	       "Fig. 7(a): the engine's links are the planner's");
	wc_fi_free(&fi);
}

static void random_case(u32 w, u32 h, u32 nfaults, u32 trials, u32 maxd,
			u32 repl)
{
	const char *rn = repl == WC_REPL_ASYNC ? "async" : "lock-step";
	struct tally ty = { 0 };
	u64 steps[4] = { 0 }, rng0;
	u32 trial, s, choices = 0;

	for (trial = 0; trial < trials; trial++) {
		u32 *f = malloc((nfaults + 1) * sizeof(u32)), i;
		u32 *dst = malloc(maxd * sizeof(u32));
		u8 *used = calloc(w * h, 1);
		struct wc_faultinfo fi;

		for (i = 0; i < nfaults; i++)
			f[i] = rnd(w * h);
		if (wc_fi_build(&fi, w, h, f, nfaults, NULL, 0, NULL)) {
			ty.bad_status++;
			goto next;
		}
		rng0 = rng_state;
		for (s = 1; s <= 3; s++) {
			/* async: buffers that hold a whole worm */
			struct rig *r = rig_new(&fi, s, trial + 1, repl,
						repl == WC_REPL_ASYNC ?
						WC_MAX_BUF_FLITS : 1);
			u32 g;

			rng_state = rng0;	/* the same groups for each */
			for (g = 0; g < 4; g++) {
				u32 src, nd = 1 + rnd(maxd), n = 0;

				memset(used, 0, w * h);
				do {
					src = rnd(w * h);
				} while (wc_fi_in_block(&fi, src));
				used[src] = 1;
				while (n < nd) {
					u32 d = rnd(w * h);

					if (!used[d]) {
						used[d] = 1;
						dst[n++] = d;
					}
				}
				steps[s] += compare(r, &fi, src, dst, nd, s,
						    trial + 1, &ty);
				if (s == 3) {
					/* no plan: Strategy 2's routes */
					compare_as(r, &fi, src, dst, nd, 2,
						   trial + 1, false, &ty);
					choices += count_choices(&fi, src, dst,
								 nd);
				}
			}
			rig_free(r);
		}
		wc_fi_free(&fi);
next:
		free(f);
		free(dst);
		free(used);
	}
	diag("%ux%u, %u faults, %s: %u multicasts (%u stalled by the watchdog), %u destinations (%u reached, %u left out at the source); traffic %llu steps against %llu for multiple unicast",
	     w, h, nfaults, rn, ty.runs, ty.stalled, ty.dests, ty.reached,
	     ty.unreach, (unsigned long long)ty.steps,
	     (unsigned long long)ty.unicast);
	diag("%ux%u, %u faults, %s: traffic steps Strategy 1 %llu, 2 %llu, 3 (planned, %u choices carried) %llu",
	     w, h, nfaults, rn, (unsigned long long)steps[1],
	     (unsigned long long)steps[2], choices,
	     (unsigned long long)steps[3]);
	if (repl == WC_REPL_ASYNC)
		is_int(ty.stalled, 0, "%ux%u, %u faults, async: no multicast stalls",
		       w, h, nfaults);
	is_int(ty.bad_plan, 0, "%ux%u, %u faults, %s: every Strategy 3 plan fits the header",
	       w, h, nfaults, rn);
	ok(choices && steps[3] < steps[2],
	   "%ux%u, %u faults, %s: Strategy 3 plans make choices and take fewer steps than Strategy 2",
	   w, h, nfaults, rn);
	ok(ty.runs == trials * 16 && ty.reached > ty.runs,
	   "%ux%u, %u faults, %s: %u multicasts ran", w, h, nfaults, rn, ty.runs);
	is_int(ty.bad_status, 0, "%ux%u, %u faults, %s: reached exactly the planner's destinations, each once",
	       w, h, nfaults, rn);
	is_int(ty.bad_msg, 0, "%ux%u, %u faults, %s: no duplicate, no route error, the others in fault_drops",
	       w, h, nfaults, rn);
	is_int(ty.bad_hops, 0, "%ux%u, %u faults, %s: every copy on a minimal path",
	       w, h, nfaults, rn);
	is_int(ty.bad_count, 0, "%ux%u, %u faults, %s: traffic steps = the planner's count",
	       w, h, nfaults, rn);
	is_int(ty.bad_links, 0, "%ux%u, %u faults, %s: the very links of the planner's tree",
	       w, h, nfaults, rn);
}

/*
 * Load: random multicasts and unicasts from every healthy node at once,
 * for @cycles cycles; the watchdog must never fire.
 */
static void test_mixed(u32 w, u32 h, u32 nfaults, u32 replication, u32 buf,
		       u64 cycles, bool detour)
{
	u32 *f = malloc((nfaults + 1) * sizeof(u32)), i, sent = 0, dst[24];
	struct wc_faultinfo fi;
	struct wc_engine_stats s;
	struct rig *r;
	u64 now = 0;

	for (i = 0; i < nfaults; i++)
		f[i] = rnd(w * h);
	wc_fi_build(&fi, w, h, f, nfaults, NULL, 0, NULL);
	r = rig_new_vcs(&fi, 2 - (replication == WC_REPL_ASYNC), 7, replication,
			buf, detour ? WC_FTM_DETOUR_VCS : 4, detour);
	while (now < cycles) {
		for (i = 0; i < 8; i++) {
			u32 src = rnd(w * h), nd = rnd(4) ? 1 : 2 + rnd(20), n = 0;

			if (wc_fi_in_block(&fi, src) ||
			    wc_engine_backlog(r->e, src) >= 2)
				continue;
			while (n < nd) {
				u32 d = rnd(w * h), k;

				for (k = 0; k < n && dst[k] != d; k++)
					;
				if (d != src && k == n)
					dst[n++] = d;
			}
			wc_engine_submit(r->e, msg_new(r, src, dst, nd, false)->m);
			sent++;
		}
		now += wc_engine_run(r->e, 20, &r->tab);
		if (r->deadlocks)
			break;
	}
	run_idle(r);
	wc_engine_get_stats(r->e, &s);
	diag("%ux%u, %u faults, %s, B=%u%s: %u messages in %llu cycles, %llu deliveries (%u on a detour), %llu left out, mean latency %.1f",
	     w, h, nfaults, replication ? "async" : "lock-step", buf,
	     detour ? ", detours" : "", sent,
	     (unsigned long long)s.cycles, (unsigned long long)s.worms_done,
	     r->detoured, (unsigned long long)s.fault_drops,
	     s.worms_done ? (double)s.latency_sum / s.worms_done : 0.0);
	if (detour)
		ok(r->detoured > 1000 && s.hops_sum == r->hops_owed,
		   "%ux%u under load: %u deliveries on a detour, every copy on its minimal-to-waypoint-to-destination length",
		   w, h, r->detoured);
	is_int(r->deadlocks, 0, "%ux%u under load (%s): no watchdog report",
	       w, h, replication ? "async" : "lock-step");
	ok(r->done == sent && !r->dup && !r->miss && !r->lost_bad &&
	   !r->route_errors && !s.fault_absorbed,
	   "%ux%u under load: %u of %u messages done, every reachable destination once (%u dup, %u missing, %u route errors)",
	   w, h, r->done, sent, r->dup, r->miss, r->route_errors);
	rig_free(r);
	wc_fi_free(&fi);
	free(f);
}

static void test_check(void)
{
	struct wc_topo t;
	struct wc_engine_params p;
	u32 dims[2] = { 8, 8 }, dims3[3] = { 4, 4, 4 };
	const char *why = NULL;
	struct wc_faultinfo fi;
	struct wc_ftm_tables tab;

	wc_topo_init(&t, WC_TOPO_MESH, 2, dims, NULL);
	wc_engine_params_default(&p, &t);
	p.vcs = 3;
	is_int(wc_algo_ftmesh.check(&t, &p, &why), -EINVAL,
	       "fewer than 4 VCs refused");
	diag("%s", why);
	p.vcs = 4;
	is_int(wc_algo_ftmesh.check(&t, &p, &why), 0, "4 VCs on a 2-D mesh");
	wc_topo_init(&t, WC_TOPO_MESH, 3, dims3, NULL);
	is_int(wc_algo_ftmesh.check(&t, &p, &why), -EINVAL,
	       "a 3-D mesh refused");
	diag("%s", why);
	wc_fi_build(&fi, 8, 8, NULL, 0, NULL, 0, NULL);
	is_int(wc_ftm_tables_build(&fi, 3, 0, &tab), 0,
	       "Strategy 3 tables (plans split, Strategy 2 without one)");
	wc_ftm_tables_free(&tab);
	is_int(wc_ftm_tables_build(&fi, 4, 0, &tab), -EINVAL,
	       "no Strategy 4");
	wc_fi_free(&fi);
}

/*
 * Frames of @bytes from random sources to random groups of 2..@kmax
 * destinations, for @cycles cycles (or the first watchdog report), on @r
 * (a fault-free mesh).  Returns the messages sent.
 */
static u32 load_frames(struct rig *r, u32 bytes, u32 kmax, u64 cycles)
{
	u32 nn = r->topo.nnodes, dst[24], i, sent = 0;
	struct tmsg *t;
	u64 now = 0;

	while (now < cycles && !r->deadlocks) {
		for (i = 0; i < 4; i++) {
			u32 src = rnd(nn), nd = 2 + rnd(kmax - 1), n = 0;

			if (wc_engine_backlog(r->e, src) >= 2)
				continue;
			while (n < nd) {
				u32 d = rnd(nn), k;

				for (k = 0; k < n && dst[k] != d; k++)
					;
				if (d != src && k == n)
					dst[n++] = d;
			}
			t = msg_new(r, src, dst, nd, false);
			t->m->bytes = bytes;
			wc_engine_submit(r->e, t->m);
			sent++;
		}
		now += wc_engine_run(r->e, 20, &r->tab);
	}
	if (r->deadlocks)
		wc_engine_flush(r->e);	/* reported once: it would not drain */
	else
		run_idle(r);
	return sent;
}

/*
 * Groups larger than the buffers allow (faults.rst, "Buffers of a whole
 * worm"): with buffers of @data + 4 flits, frames of @data flits to up to
 * 24 destinations of a 6x6 mesh (a corner source has them all in one
 * subnetwork).  The sources split them into worms of at most 4
 * destinations, and the load runs without a deadlock.  (The same load
 * without the split did not deadlock either, here or on 16x16 meshes
 * with groups of 60: the split keeps the rule that proves deadlock
 * freedom, no failure was seen without it.)
 */
static void split_load(const struct wc_faultinfo *fi, u32 bytes, u32 data)
{
	struct rig *r = rig_new(fi, 2, 1, WC_REPL_ASYNC, data + 4);
	u64 worms = 0, flits = 0;
	struct wc_node_stats s;
	u32 n, sent;

	sent = load_frames(r, bytes, 24, 20000);
	for (n = 0; n < r->topo.nnodes; n++) {
		wc_engine_node_stats(r->e, n, &s);
		worms += s.worms_injected;
		flits += s.flits_injected;
	}
	is_int(r->deadlocks, 0,
	       "%u multicasts to 2..24 destinations, buf_flits %u (data + 4): no watchdog report",
	       sent, data + 4);
	ok(r->done == sent && !r->dup && !r->miss,
	   "  every destination once (%u of %u messages done)", r->done, sent);
	ok(flits <= worms * (4 + data + 1),
	   "  no worm has more than 4 header flits (%llu flits <= %llu worms x %u)",
	   (unsigned long long)flits, (unsigned long long)worms, 4 + data + 1);
	rig_free(r);
}

/*
 * wc_ftm_max_frame(), the kernel's bound on frames under ftmesh
 * (faults.rst, "Buffers of a whole worm"): a worm of that many bytes to
 * one destination is exactly buf_flits flits in the engine, one byte more
 * is one flit too many.  Under load, frames of that size to groups of up
 * to buf_flits - data flits destinations (so that no branch's header is
 * longer) never deadlock with asynchronous replication; the same load
 * with the default 1-flit buffers does.
 */
static void test_max_frame(void)
{
	u32 w = 6, h = 6, dst[1] = { w * h - 1 }, i, sent, frame, data, kmax;
	struct wc_engine_params p;
	struct wc_node_stats s;
	struct wc_faultinfo fi;
	struct tmsg *t;
	struct rig *r;

	wc_fi_build(&fi, w, h, NULL, 0, NULL, 0, NULL);
	r = rig_new(&fi, 2, 1, WC_REPL_ASYNC, 50);
	wc_engine_params_default(&p, &r->topo);	/* as rig_new() has them */
	p.buf_flits = 50;
	frame = wc_ftm_max_frame(&p);
	is_int(frame, 48 * p.flit_bytes, "buf_flits 50, %u-byte flits: frames up to %u bytes",
	       p.flit_bytes, frame);
	for (i = 0; i < 2; i++) {
		t = msg_new(r, 0, dst, 1, false);
		t->m->bytes = frame + i;
		wc_engine_submit(r->e, t->m);
		run_idle(r);
		wc_engine_node_stats(r->e, 0, &s);
		is_int(s.flits_injected, i ? 2 * 50 + 1 : 50,
		       "a worm of %u bytes to one destination: %s buf_flits",
		       frame + i, i ? "one flit more than" : "exactly");
	}
	rig_free(r);

	p.buf_flits = WC_MAX_BUF_FLITS;
	data = (frame + p.flit_bytes - 1) / p.flit_bytes;
	kmax = p.buf_flits - data;
	r = rig_new(&fi, 2, 1, WC_REPL_ASYNC, p.buf_flits);
	sent = load_frames(r, frame, kmax, 20000);
	is_int(r->deadlocks, 0,
	       "%u multicasts of %u-byte frames to 2..%u destinations, buf_flits %u, async: no watchdog report",
	       sent, frame, kmax, p.buf_flits);
	ok(r->done == sent && !r->dup && !r->miss,
	   "  every destination once (%u of %u messages done)", r->done, sent);
	rig_free(r);
	split_load(&fi, frame, data);
	r = rig_new(&fi, 2, 1, WC_REPL_ASYNC, 1);
	sent = load_frames(r, frame, kmax, 20000);
	ok(r->deadlocks > 0,
	   "the same load with 1-flit buffers: the watchdog reports a deadlock (%u after %u messages)",
	   r->deadlocks, sent);
	rig_free(r);
	p.buf_flits = 2;
	is_int(wc_ftm_max_frame(&p), 0, "buf_flits 2: no frame fits");
	wc_fi_free(&fi);
}

int main(void)
{
	test_check();
	test_max_frame();
	test_fig7a();
	random_case(20, 20, 20, 40, 30, WC_REPL_ASYNC);
	random_case(20, 20, 40, 40, 30, WC_REPL_ASYNC);
	random_case(20, 20, 30, 20, 30, WC_REPL_LOCKSTEP);
	random_case(50, 50, 50, 8, 60, WC_REPL_ASYNC);
	random_case(50, 50, 100, 8, 60, WC_REPL_ASYNC);
	random_case(50, 50, 150, 8, 60, WC_REPL_ASYNC);
	test_mixed(20, 20, 30, WC_REPL_ASYNC, WC_MAX_BUF_FLITS, 200000, false);
	test_mixed(20, 20, 30, WC_REPL_ASYNC, WC_MAX_BUF_FLITS, 200000, true);
	test_mixed(50, 50, 100, WC_REPL_ASYNC, WC_MAX_BUF_FLITS, 50000, true);
	return done_testing();
}
