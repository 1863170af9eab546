// SPDX-License-Identifier: GPL-2.0
/*
 * The multi-phase unicast split (kmod/engine/relay.h), replayed phase by
 * phase for random chain lengths and source positions: every node but the
 * source is reached exactly once, K = n - 1 sends in all, the last
 * reception in phase ceil(log2 n), and every send leaves a holder from a
 * range it holds, to a node of that range, handing it a part of the range
 * that holds the target and not the holder.  And wc_relay_sort() sorts a
 * chain by random labels (or by id), keeping its nodes; wc_relay_chain()
 * makes a message's chain; wc_engine_yield() from the deliver callback
 * ends the run at the end of that cycle (the kernel's relays go in then).
 */
#include <stdlib.h>

#include "tap.h"
#include "relay.h"

#define MAX_N	700

struct holder {
	u32 pos, lo, hi, phase;
};

/* Smallest p with 2^p >= n, computed apart from wc_relay_phases(). */
static u32 ceil_log2(u32 n)
{
	return n <= 1 ? 0 : 32 - (u32)__builtin_clz(n - 1);
}

/*
 * Replay a chain of @n from position @src; 0 if every check held, else
 * the first failure's description in @why.
 */
static int replay(u32 n, u32 src, const char **why)
{
	static struct holder q[MAX_N];
	static u32 got[MAX_N];
	u32 head = 0, tail = 0, sends = 0, last = 0, i;

	for (i = 0; i < n; i++)
		got[i] = 0;
	q[tail++] = (struct holder){ src, 0, n, 0 };
	while (head < tail) {
		struct holder h = q[head++];
		struct wc_relay_send s;
		u32 phase = h.phase;

		if (h.pos < h.lo || h.pos >= h.hi)
			return *why = "a holder outside its range", -1;
		while (wc_relay_next(h.pos, &h.lo, &h.hi, &s)) {
			phase++;	/* one send per phase and holder */
			sends++;
			if (h.pos < h.lo || h.pos >= h.hi)
				return *why = "the holder lost its own half", -1;
			if (s.target < s.lo || s.target >= s.hi)
				return *why = "target outside its range", -1;
			if (s.lo >= s.hi || s.hi > n ||
			    (s.hi != h.lo && s.lo != h.hi))
				return *why = "handed range not adjacent to the kept one", -1;
			if (h.pos >= s.lo && h.pos < s.hi)
				return *why = "the holder handed itself on", -1;
			if (s.target != (s.lo == h.hi ? s.lo : s.hi - 1))
				return *why = "target not at the near end", -1;
			if (tail >= MAX_N)
				return *why = "more sends than nodes", -1;
			got[s.target]++;
			q[tail++] = (struct holder){ s.target, s.lo, s.hi,
						     phase };
			if (phase > last)
				last = phase;
		}
		if (h.hi - h.lo != 1)
			return *why = "a holder stopped before it was alone", -1;
	}
	for (i = 0; i < n; i++)
		if (got[i] != (i != src))
			return *why = "a node reached not exactly once", -1;
	if (sends != n - 1)
		return *why = "not K sends", -1;
	if (last != ceil_log2(n) || wc_relay_phases(n) != last)
		return *why = "phases differ from ceil(log2(K + 1))", -1;
	return 0;
}

static int sort_ok(u32 n, bool by_label)
{
	static u32 chain[MAX_N], label[MAX_N], seen[MAX_N];
	u32 i, j, x;

	for (i = 0; i < n; i++) {
		chain[i] = i;
		label[i] = i;
		seen[i] = 0;
	}
	for (i = n; i > 1; i--) {	/* shuffle chain and labels */
		j = (u32)rand() % i;
		x = chain[i - 1], chain[i - 1] = chain[j], chain[j] = x;
		j = (u32)rand() % i;
		x = label[i - 1], label[i - 1] = label[j], label[j] = x;
	}
	wc_relay_sort(chain, n, by_label ? label : NULL);
	for (i = 0; i < n; i++) {
		if (chain[i] >= n || seen[chain[i]]++)
			return 0;
		if (i && (by_label ? label[chain[i - 1]] > label[chain[i]] :
			  chain[i - 1] > chain[i]))
			return 0;
	}
	return 1;
}

struct yctx {
	struct wc_engine *e;
	u32 got;
	u64 at[2];
};

static void y_deliver(void *priv, struct wc_msg *m, u32 node, u64 lat)
{
	struct yctx *c = priv;

	if (c->got < 2)
		c->at[c->got] = wc_engine_now(c->e);
	c->got++;
	wc_engine_yield(c->e);
}

static void y_done(void *priv, struct wc_msg *m)
{
}

static void y_route_error(void *priv, struct wc_msg *m, u32 node, int err)
{
}

static void y_deadlock(void *priv, u64 cycle)
{
}

static void test_engine(void)
{
	static const struct wc_engine_ops ops = {
		.deliver = y_deliver, .msg_done = y_done,
		.route_error = y_route_error, .deadlock = y_deadlock,
	};
	static const u32 rev[16] = { 15, 14, 13, 12, 11, 10, 9, 8,
				     7, 6, 5, 4, 3, 2, 1, 0 };
	u32 dims[2] = { 4, 4 }, chain[16], pos, n, i;
	static const u32 dsts[] = { 0, 2, 3, 6, 9, 10, 12, 15 };
	struct wc_engine_params p;
	struct yctx c = { 0 };
	struct wc_topo topo;
	struct wc_msg *m;
	u64 ran1, ran2;
	bool sorted = true;

	wc_topo_init(&topo, WC_TOPO_MESH, 2, dims, NULL);
	wc_engine_params_default(&p, &topo);
	c.e = wc_engine_create(&topo, &p, &wc_algo_unicast_based, &ops, &c);
	m = calloc(1, wc_msg_size(c.e));
	if (!c.e || !m) {
		ok(0, "engine and message");
		return;
	}
	wc_msg_init(c.e, m, 5, 64, NULL);
	for (i = 0; i < sizeof(dsts) / sizeof(dsts[0]); i++)
		wc_msg_add_dst(c.e, m, dsts[i]);
	n = wc_relay_chain(m, topo.nnodes, NULL, chain, &pos);
	for (i = 1; i < n; i++)
		sorted = sorted && chain[i - 1] < chain[i];
	ok(n == 9 && sorted && chain[pos] == 5 && pos == 3,
	   "wc_relay_chain: source 5 and 8 members by node id, source at 3");
	n = wc_relay_chain(m, topo.nnodes, rev, chain, &pos);
	for (i = 1, sorted = true; i < n; i++)
		sorted = sorted && rev[chain[i - 1]] < rev[chain[i]];
	ok(n == 9 && sorted && chain[pos] == 5 && pos == 5,
	   "wc_relay_chain: by labels (reversed ids), source at 5");

	/* two worms from node 0, to 1 and to 15: one yield per delivery */
	wc_msg_init(c.e, m, 0, 64, NULL);
	wc_msg_add_dst(c.e, m, 1);
	wc_msg_add_dst(c.e, m, 15);
	wc_engine_submit(c.e, m);
	ran1 = wc_engine_run(c.e, 100000, NULL);
	ok(c.got == 1 && wc_engine_busy(c.e) && wc_engine_now(c.e) == c.at[0] + 1 &&
	   ran1 == c.at[0] + 1,
	   "wc_engine_yield: the run ends at the end of the first delivery's cycle (%llu), the second worm still in flight",
	   (unsigned long long)c.at[0]);
	ran2 = wc_engine_run(c.e, 100000, NULL);
	ok(c.got == 2 && !wc_engine_busy(c.e) && wc_engine_now(c.e) == c.at[1] + 1 &&
	   ran2 == c.at[1] - c.at[0],
	   "wc_engine_yield: the next run goes on to the second delivery (%llu), then the engine is idle",
	   (unsigned long long)c.at[1]);
	wc_engine_destroy(c.e);
	free(m);
}

int main(void)
{
	unsigned int seed = (unsigned int)(getenv("WC_SEED") ?
					   atoi(getenv("WC_SEED")) : 2026);
	static const u32 small[] = { 1, 2, 3, 4, 5, 8, 9, 16, 17, 64, 65 };
	const char *why = NULL;
	u32 i, n, src, bad = 0, runs = 0, maxn = 0;

	srand(seed);
	diag("seed %u (WC_SEED)", seed);
	for (i = 0; i < sizeof(small) / sizeof(small[0]); i++) {
		for (src = 0; src < small[i]; src++) {
			runs++;
			if (replay(small[i], src, &why) && !bad++)
				diag("n %u source %u: %s", small[i], src, why);
		}
	}
	ok(!bad, "every source position of %u small chains (n <= 65): each node reached once, K sends, ceil(log2(K+1)) phases, sends from held ranges (%u runs)",
	   (u32)(sizeof(small) / sizeof(small[0])), runs);
	bad = runs = 0;
	for (i = 0; i < 500; i++) {
		n = 1 + (u32)rand() % (MAX_N - 1);
		src = (u32)rand() % n;
		runs++;
		if (n > maxn)
			maxn = n;
		if (replay(n, src, &why) && !bad++)
			diag("n %u source %u: %s", n, src, why);
	}
	ok(!bad, "%u random chains (K + 1 up to %u), random sources: the same checks",
	   runs, maxn);
	is_int(wc_relay_phases(1), 0, "a chain of one node: no phase");
	is_int(wc_relay_phases(1024), 10, "1023 destinations: 10 phases");
	is_int(wc_relay_phases(1025), 11, "1024 destinations: 11 phases");
	ok(replay(1, 0, &why) == 0, "a source alone sends nothing");

	bad = 0;
	for (i = 0; i < 200; i++)
		if (!sort_ok(1 + (u32)rand() % (MAX_N - 1), i % 2))
			bad++;
	ok(!bad, "wc_relay_sort: 200 random chains sorted by random labels or by id, same nodes");
	ok(sort_ok(1, true) && sort_ok(2, true), "wc_relay_sort: chains of 1 and 2");
	test_engine();
	return done_testing();
}
