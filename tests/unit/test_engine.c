// SPDX-License-Identifier: GPL-2.0
/*
 * The flit-level engine against its model (engine.h).  The cases shared
 * with the KUnit suite (Eq. 1 at zero load on every topology, contention
 * order, backpressure, lock-step and asynchronous replication,
 * intermediate reception, the deadlock watchdog and flush, no false alarm)
 * live in kmod/tests/engine_cases.h; this driver runs them under
 * ASan/UBSan and adds the userspace-only ones: random traffic delivered
 * exactly once, determinism, parameter checks, timed submission
 * (wc_engine_submit_at(): a message enters at its due cycle, exactly,
 * with or without worms in flight, however the runs are sliced; the
 * idle wait is counted in cycles; a source's queue stays in order).
 * Tree multicast's cases
 * (kmod/tests/tree_cases.h) run here too.
 */
#include "tap.h"
#include "engine.h"

#include "case_tap.h"

#include "../../kmod/tests/engine_cases.h"
#include "../../kmod/tests/tree_cases.h"

/* Room for every delivery of the random traffic below. */
#define MAX_DELIV 200000

/* ------------------------------------------------------------ random traffic */

struct traffic_result {
	u64 lat_sum, cycles, flit_hops;
	u32 delivered, expected, dup, done, sent, deadlocks;
};

static u64 rng_state;

static u32 rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return (u32)(rng_state >> 11);
}

static void traffic(const struct wc_topo *t, u32 repl, u64 seed,
		    struct traffic_result *res)
{
	struct wc_engine_params p;
	struct wc_engine *e;
	struct wc_engine_stats st;
	struct case_rec *r;
	u32 round, i, j;
	u8 *seen;

	memset(res, 0, sizeof(*res));
	rng_state = seed * 2654435761u + 1;
	wc_engine_params_default(&p, t);
	p.replication = repl;
	p.watchdog = 2000;
	r = case_rec_new(NULL, MAX_DELIV);
	e = case_engine_new(NULL, r, t, &p, &wc_algo_unicast_based);
	r->free_msgs = false;
	seen = calloc((size_t)t->nnodes * 4000, 1);
	for (round = 0; round < 40; round++) {
		for (i = 0; i < t->nnodes && res->sent < 4000; i++) {
			struct wc_msg *m;
			u32 nd = 1 + (rnd() % 4 == 0 ? rnd() % 6 : 0), d;

			if (rnd() % 3 || wc_engine_backlog(e, i) > 2)
				continue;
			m = wc_zalloc(wc_msg_size(e));
			wc_msg_init(e, m, i, 1 + rnd() % 400, (void *)(uintptr_t)res->sent);
			for (j = 0; j < nd; j++) {
				d = rnd() % t->nnodes;
				if (d != i)
					wc_msg_add_dst(e, m, d);
			}
			if (!m->ndsts) {
				wc_free(m);
				continue;
			}
			res->expected += m->ndsts;
			res->sent++;
			wc_engine_submit(e, m);
		}
		wc_engine_run(e, 20, NULL);
	}
	while (wc_engine_busy(e) && wc_engine_now(e) < 10000000)
		wc_engine_run(e, 100000, NULL);
	for (i = 0; i < r->nd; i++) {
		u32 id = (u32)(uintptr_t)r->d[i].m->cookie;
		u8 *s = &seen[(size_t)id * t->nnodes + r->d[i].node];

		if (*s || !wc_msg_has_dst(e, r->d[i].m, r->d[i].node))
			res->dup++;
		*s = 1;
		res->delivered++;
		res->lat_sum += r->d[i].latency;
	}
	wc_engine_get_stats(e, &st);
	res->cycles = wc_engine_now(e);
	res->flit_hops = st.flit_hops;
	res->done = r->done;
	res->deadlocks = r->deadlocks + r->route_errors;
	/* Messages are freed here: the engine has forgotten them all. */
	{
		struct wc_msg **all = calloc(res->sent, sizeof(*all));

		for (i = 0; i < r->nd; i++)
			all[(u32)(uintptr_t)r->d[i].m->cookie] = r->d[i].m;
		for (i = 0; i < res->sent; i++)
			wc_free(all[i]);
		free(all);
	}
	free(seen);
	wc_engine_destroy(e);
	case_rec_free(r);
}

static void test_traffic(void)
{
	static const struct { u32 kind, a, b, c; const char *name; } tops[] = {
		{ WC_TOPO_MESH, 8, 8, 0, "mesh 8x8" },
		{ WC_TOPO_MESH, 4, 3, 3, "mesh 4x3x3" },
		{ WC_TOPO_TORUS, 8, 8, 0, "torus 8x8" },
		{ WC_TOPO_TORUS, 4, 4, 4, "torus 4x4x4" },
		{ WC_TOPO_TORUS, 9, 0, 0, "torus 9" },
		{ WC_TOPO_HYPERCUBE, 6, 0, 0, "hypercube 6" },
		{ WC_TOPO_STAR, 5, 0, 0, "star 5" },
	};
	struct traffic_result a, b, c;
	u32 i;

	for (i = 0; i < ARRAY_SIZE(tops); i++) {
		struct wc_topo t;

		case_topo(NULL, &t, tops[i].kind, tops[i].a, tops[i].b, tops[i].c);
		traffic(&t, i % 2, 42, &a);
		ok(a.delivered == a.expected && !a.dup && a.done == a.sent && !a.deadlocks,
		   "%s: %u messages, %u deliveries exactly once, no deadlock (%llu cycles)",
		   tops[i].name, a.sent, a.expected, (unsigned long long)a.cycles);
	}
	{
		struct wc_topo t;

		case_topo(NULL, &t, WC_TOPO_TORUS, 6, 6, 0);
		traffic(&t, 0, 7, &a);
		traffic(&t, 0, 7, &b);
		traffic(&t, 0, 8, &c);
		ok(a.lat_sum == b.lat_sum && a.cycles == b.cycles &&
		   a.flit_hops == b.flit_hops && a.sent == b.sent,
		   "same seed, same result");
		ok(a.lat_sum != c.lat_sum || a.cycles != c.cycles,
		   "another seed, another result");
	}
}

/* ------------------------------------------------------------ timed */

/* Cycle @m's tail was consumed at @node (U64_MAX: never). */
static u64 consumed_at(const struct case_rec *r, const struct wc_msg *m,
		       u32 node)
{
	u64 lat = case_latency(r, m, node);

	return lat == U64_MAX ? U64_MAX : m->t_submit + lat;
}

static struct wc_msg *timed_msg(struct wc_engine *e, u32 src, u32 dst,
				u32 bytes)
{
	struct wc_msg *m = wc_zalloc(wc_msg_size(e));

	wc_msg_init(e, m, src, bytes, e);
	wc_msg_add_dst(e, m, dst);
	return m;
}

/*
 * One scenario on a 1-D mesh of 8, the engine's runs @slice cycles long:
 * m0 (0 -> 5) timed at 300 on an idle engine; m1 (7 -> 2) submitted at
 * once (on the -x channels), still in flight when m2 (3 -> 6, on the +x
 * ones) is due at m1's submission + 5;
 * m3 (0 -> 4) timed at 1000 and m4 (0 -> 1) submitted plain behind it,
 * at the same source.  Fills @at with the consumption cycles and returns
 * the cycles run (the engine's stats).
 */
static u64 timed_scenario(u64 slice, u64 at[5], u64 t_submit[5],
			  u64 *first_run, bool *busy_idle)
{
	struct case_rec *r = case_rec_new(NULL, 16);
	static const u32 src[5] = { 0, 7, 3, 0, 0 }, dst[5] = { 5, 2, 6, 4, 1 };
	struct wc_engine_params p;
	struct wc_engine_stats st;
	struct wc_msg *m[5];
	struct wc_engine *e;
	struct wc_topo t;
	u32 i, guard = 0;

	case_topo(NULL, &t, WC_TOPO_MESH, 8, 0, 0);
	wc_engine_params_default(&p, &t);
	r->free_msgs = false;
	e = case_engine_new(NULL, r, &t, &p, &wc_algo_unicast_based);
	for (i = 0; i < 5; i++)
		m[i] = timed_msg(e, src[i], dst[i], 100);
	wc_engine_submit_at(e, m[0], 300);
	*busy_idle = wc_engine_busy(e);
	*first_run = wc_engine_run(e, 100, NULL);
	while (wc_engine_busy(e) && guard++ < 100000)
		wc_engine_run(e, slice, NULL);
	wc_engine_submit(e, m[1]);
	wc_engine_submit_at(e, m[2], wc_engine_now(e) + 5);
	while (wc_engine_busy(e) && guard++ < 100000)
		wc_engine_run(e, slice, NULL);
	wc_engine_submit_at(e, m[3], 1000);
	wc_engine_submit(e, m[4]);
	while (wc_engine_busy(e) && guard++ < 100000)
		wc_engine_run(e, slice, NULL);
	for (i = 0; i < 5; i++) {
		at[i] = consumed_at(r, m[i], dst[i]);
		t_submit[i] = m[i]->t_submit;
	}
	wc_engine_get_stats(e, &st);
	wc_engine_destroy(e);
	case_msgs_free(m, 5);
	case_rec_free(r);
	return st.cycles;
}

static void test_timed(void)
{
	/* Eq. 1 on the defaults: 1 + 4 data + 1 tail flits, 1 + 1 per hop */
	u64 flits = 1 + (100 + 31) / 32 + 1, at[5], ts[5], at1[5], ts1[5];
	u64 first, first1, cycles, cycles1;
	bool busy, busy1;
	u32 i, same = 0;

	cycles = timed_scenario(100000, at, ts, &first, &busy);
	ok(busy, "a timed message alone makes the engine busy");
	is_int(first, 100, "a run before its due cycle counts all its cycles");
	is_int(ts[0], 300, "t_submit is the due cycle");
	is_int(at[0], 300 + 5 * 2 + flits - 1,
	       "timed on an idle engine: consumed at due + Eq. 1 (%llu)",
	       (unsigned long long)at[0]);
	is_int(at[2] - ts[1], 5 + 3 * 2 + flits - 1,
	       "timed while a worm is in flight: enters at its due cycle (%llu)",
	       (unsigned long long)(at[2] - ts[1]));
	ok(at[1] > ts[2], "the first worm was still in flight then");
	is_int(ts[3], 1000, "a later due cycle than now is kept");
	is_int(at[3], 1000 + 4 * 2 + flits - 1, "consumed at due + Eq. 1");
	ok(at[4] > at[3] - (4 * 2 + flits - 1) + flits,
	   "a plain message queued behind a timed one at its source waits for it (%llu)",
	   (unsigned long long)at[4]);
	ok(ts[4] < ts[3], "(though submitted earlier)");
	ok(cycles >= at[4], "idle waits counted in cycles (%llu)",
	   (unsigned long long)cycles);
	cycles1 = timed_scenario(1, at1, ts1, &first1, &busy1);
	for (i = 0; i < 5; i++)
		same += at1[i] == at[i] && ts1[i] == ts[i];
	is_int(same, 5, "one-cycle runs give the same cycles as long ones");
	is_int(cycles1, cycles, "and the same cycle count");
	cycles1 = timed_scenario(7, at1, ts1, &first1, &busy1);
	for (i = same = 0; i < 5; i++)
		same += at1[i] == at[i] && ts1[i] == ts[i];
	is_int(same, 5, "so do seven-cycle runs");
}

/* ------------------------------------------------------------ params */

static void test_params(void)
{
	struct wc_topo t;
	struct wc_engine_params p;
	struct case_rec *r = case_rec_new(NULL, 8);
	const char *why = NULL;

	case_topo(NULL, &t, WC_TOPO_TORUS, 4, 4, 0);
	wc_engine_params_default(&p, &t);
	ok(!wc_engine_params_check(&p, &t, &why), "defaults are valid");
	is_int(p.vcs, 2, "torus defaults to 2 VCs");
	ok(!wc_algo_unicast_based.check(&t, &p, &why), "built-in accepts torus with 2 VCs");
	p.vcs = 1;
	ok(wc_algo_unicast_based.check(&t, &p, &why) == -EINVAL && why,
	   "built-in refuses a torus with 1 VC: %s", why ? why : "");
	wc_engine_params_default(&p, &t);
	p.buf_flits = 0;
	ok(wc_engine_params_check(&p, &t, &why) == -EINVAL, "buf_flits 0 refused");
	wc_engine_params_default(&p, &t);
	p.flit_bytes = 5000;
	ok(wc_engine_params_check(&p, &t, &why) == -EINVAL, "flit_bytes 5000 refused");
	wc_engine_params_default(&p, &t);
	p.replication = 7;
	ok(wc_engine_params_check(&p, &t, &why) == -EINVAL, "unknown replication refused");
	wc_engine_params_default(&p, &t);
	p.startup = 900;
	p.watchdog = 500;
	ok(wc_engine_params_check(&p, &t, &why) == -EINVAL,
	   "watchdog shorter than a worm's startup refused");
	ok(wc_engine_create(&t, &p, &wc_algo_unicast_based, &case_rec_ops, r) == NULL,
	   "create refuses bad parameters");
	wc_engine_params_default(&p, &t);
	{
		struct wc_engine *e = case_engine_new(NULL, r, &t, &p, &wc_algo_unicast_based);

		ok(wc_engine_set_watchdog(e, 5, &why) == -EINVAL,
		   "runtime watchdog change validated: %s", why);
		ok(wc_engine_set_watchdog(e, 123456, &why) == 0,
		   "runtime watchdog change accepted");
		wc_engine_destroy(e);
	}
	case_rec_free(r);
}

int main(void)
{
	u32 i;

	for (i = 0; i < ARRAY_SIZE(case_eq1_topos); i++)
		case_eq1_zero_load(NULL, &case_eq1_topos[i]);
	case_contention(NULL);
	case_backpressure(NULL);
	case_replication(NULL);
	case_intermediate_reception(NULL);
	case_watchdog(NULL);
	case_no_false_alarm(NULL);
	test_traffic();
	test_timed();
	test_params();
	/* tree multicast (tree_cases.h) */
	case_tree_tables_good(NULL);
	case_tree_tables_bad(NULL);
	case_tree_reference(NULL);
	case_tree_traffic(NULL);
	case_tree_spam_faults(NULL);
	case_tree_spam_node_fault(NULL);
	return done_testing();
}
