// SPDX-License-Identifier: GPL-2.0
/*
 * Fault-tolerant minimal multicast (kmod/engine/ftmesh.c,
 * daemon/lib/ftmcast.c): the paper's examples (Figs. 7(a) and 8(b)) and
 * random fault sets checked hop by hop against BFS.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ftmcast.h"
#include "ftm_fig7.h"
#include "tap.h"
#include "testutil.h"

static u64 rng_state = 2463534242ull;

static u32 rnd(u32 n)
{
	return tu_rand_hi(&rng_state, n);
}

static bool has_vertex(const struct wc_mt *t, u32 x, u32 y)
{
	struct wc_ft_pt p = { (u16)x, (u16)y };

	return wc_mt_find(t, p) != WC_FI_NONE;
}

static bool has_edge(const struct wc_mt *t, u32 ax, u32 ay, u32 bx, u32 by)
{
	u32 i;

	for (i = 0; i < t->n; i++) {
		u32 p = t->parent[i];

		if (p != WC_FI_NONE && t->v[p].x == ax && t->v[p].y == ay &&
		    t->v[i].x == bx && t->v[i].y == by)
			return true;
	}
	return false;
}

/* Fig. 8(b): the greedy MT for (1,2), (3,5), (5,4), (7,3) from (0,0). */
static void test_fig8b(void)
{
	struct wc_ft_pt src = { 0, 0 };
	struct wc_ft_pt dst[] = { { 7, 3 }, { 3, 5 }, { 1, 2 }, { 5, 4 } };
	static const u32 v[][2] = { { 0, 0 }, { 1, 2 }, { 3, 5 }, { 5, 4 },
				    { 7, 3 }, { 3, 4 }, { 3, 3 } };
	static const u32 e[][4] = { { 0, 0, 1, 2 }, { 1, 2, 3, 3 },
				    { 3, 3, 3, 4 }, { 3, 4, 3, 5 },
				    { 3, 4, 5, 4 }, { 3, 3, 7, 3 } };
	struct wc_mt t;
	u32 i, okv = 0, oke = 0;

	is_int(wc_mt_greedy(&t, src, dst, 4), 0, "Fig. 8(b) greedy MT builds");
	is_int(t.n, 7, "|V(T)| = 7");
	for (i = 0; i < ARRAY_SIZE(v); i++)
		okv += has_vertex(&t, v[i][0], v[i][1]);
	is_int(okv, 7, "V(T) = {(0,0),(1,2),(3,5),(5,4),(7,3),(3,4),(3,3)}");
	for (i = 0; i < ARRAY_SIZE(e); i++)
		oke += has_edge(&t, e[i][0], e[i][1], e[i][2], e[i][3]);
	is_int(oke, 6, "E(T) as in the paper, all six edges");
	ok(has_vertex(&t, 3, 3) && !t.is_dst[wc_mt_find(&t, (struct wc_ft_pt){ 3, 3 })],
	   "(3,3) and (3,4) are forwarding nodes");
	/* Theorem 2: every root-to-destination path is minimal */
	for (i = 0, okv = 0; i < t.n; i++) {
		u32 len = 0, j = i;

		while (t.parent[j] != WC_FI_NONE) {
			u32 p = t.parent[j];

			if (t.v[p].x > t.v[j].x || t.v[p].y > t.v[j].y)
				len = 1000;
			len += (t.v[j].x - t.v[p].x) + (t.v[j].y - t.v[p].y);
			j = p;
		}
		okv += len == (u32)t.v[i].x + t.v[i].y;
	}
	is_int(okv, t.n, "Theorem 2: minimal path to every vertex");
	is_int(wc_mt_traffic(&t), 3 + 3 + 1 + 1 + 2 + 4, "traffic steps of the MT: 14");
	wc_mt_free(&t);
}

/* Is the hop a -> b on the tree path to destination number i? */
static bool path_uses(const struct wc_ft_plan *p, u32 i, u32 a, u32 b)
{
	u32 h;

	for (h = p->last[i]; h != WC_FI_NONE; h = p->hops[h].parent)
		if (p->hops[h].from == a && p->hops[h].to == b)
			return true;
	return false;
}

/* Fig. 7(a): block (5,5)-(10,7), separating point (4,4). */
static void test_fig7a(void)
{
	struct wc_faultinfo fi;
	struct wc_ft_plan p;
	struct wc_ft_plan_opts o = { .strategy = WC_FT_STRATEGY2 };
	u32 dst[3] = { 17 + 20 * 7, 5 + 20 * 10, 12 + 20 * 11 };
	u32 u = 4 + 20 * 4, seed, seen39 = 0, seen35 = 0, wrong = 0;
	struct wc_ft_rec rec = { { 5, 5, 10, 7 }, WC_FT_L1 };
	struct wc_ft_rec recs[2] = { rec, rec };
	struct wc_ft_view v = { 4, 4, false, false, 2, recs };

	build_fig7(&fi);
	is_int(fi.nblocks, 1, "Fig. 7(a): one block");
	/* the per-hop decisions at u = (4,4), on both adjacent lines */
	recs[1].line = WC_FT_L3;
	is_int(wc_ft_bound(&v, 17, 7), WC_FT_XBOUND, "(17,7) X-bound at (4,4)");
	is_int(wc_ft_bound(&v, 5, 10), WC_FT_YBOUND, "(5,10) Y-bound at (4,4)");
	is_int(wc_ft_bound(&v, 12, 11), WC_FT_UNDETERMINED, "(12,11) undetermined");
	is_int(wc_ft_state(true, true), WC_FT_IN_CONFLICT, "(4,4) is in conflict");
	is_int(wc_ft_strategy2(4, 4, 12, 11, WC_FT_YBOUND), WC_FT_XBOUND,
	       "Strategy 2 sends (12,11) with the X group (8 > 7)");
	{
		struct wc_fi_record r[4];
		u32 n = wc_fi_records(&fi, u, WC_FT_PXPY, r, 4);

		ok(n == 2 && r[0].line != r[1].line,
		   "(4,4) holds the block on L1 and on L3");
	}

	is_int(wc_ft_plan(&fi, 0, dst, 3, &o, &p, NULL), 0, "Strategy 2 plans");
	ok(p.nsep >= 1 && p.sep[0] == u, "first separating point is (4,4)");
	is_int(p.nreached, 3, "all three destinations reached");
	is_int(p.nhops, 35, "Strategy 2: 35 traffic steps");
	ok(path_uses(&p, 2, u, u + 1), "(12,11) went with the X-bound group");
	is_int(p.unicast_steps, 24 + 15 + 23, "multiple unicast: 62 steps");
	wc_ft_plan_free(&p);

	o.strategy = WC_FT_STRATEGY3;
	is_int(wc_ft_plan(&fi, 0, dst, 3, &o, &p, NULL), 0, "Strategy 3 plans");
	is_int(p.nhops, 35, "Strategy 3: 35 traffic steps");
	wc_ft_plan_free(&p);

	/* Strategy 1: a random group; the paper's 39 (Y) and 35 (X) */
	o.strategy = WC_FT_STRATEGY1;
	for (seed = 1; seed <= 64; seed++) {
		bool ygroup;

		o.seed = seed;
		if (wc_ft_plan(&fi, 0, dst, 3, &o, &p, NULL)) {
			wrong++;
			continue;
		}
		ygroup = path_uses(&p, 2, u, u + 20);
		if (ygroup && p.nhops == 39)
			seen39++;
		else if (!ygroup && p.nhops == 35)
			seen35++;
		else
			wrong++;
		wc_ft_plan_free(&p);
	}
	diag("Strategy 1 over 64 seeds: %u x Y group (39), %u x X group (35)",
	     seen39, seen35);
	ok(seen39 && seen35 && !wrong,
	   "Strategy 1: 39 steps with (12,11) in the Y group, 35 in the X group");
	wc_fi_free(&fi);
}

struct tally {
	u32 plans, dests, ok, noway, notsafe, inblock, revisits;
	u32 bad_hop, bad_tree, bad_len, bad_status, stuck, bad_leaf, worse;
	u32 owed, missed;
};

/*
 * Faulty blocks by Definition 1, computed here: a healthy node with a
 * faulty or disabled neighbour in each dimension is disabled, until
 * nothing changes.  @blocked[n] is 1 for faulty and disabled nodes.
 */
static void ref_blocks(u32 w, u32 h, const u32 *f, u32 nf, u8 *blocked)
{
	bool changed = true;
	u32 i, x, y;

	memset(blocked, 0, (size_t)w * h);
	for (i = 0; i < nf; i++)
		blocked[f[i]] = 1;
	while (changed) {
		changed = false;
		for (y = 0; y < h; y++)
			for (x = 0; x < w; x++) {
				u32 n = x + w * y;
				bool bx = (x > 0 && blocked[n - 1]) ||
					  (x + 1 < w && blocked[n + 1]);
				bool by = (y > 0 && blocked[n - w]) ||
					  (y + 1 < h && blocked[n + w]);

				if (!blocked[n] && bx && by) {
					blocked[n] = 1;
					changed = true;
				}
			}
	}
}

/*
 * Extended safety as the paper defines it (section 3.3), computed here: no
 * blocked node on the source's row between it and the destination's
 * column, nor on its column between it and the destination's row.
 */
static bool ref_ext_safe(u32 w, const u8 *blocked, u32 src, u32 d)
{
	u32 sx = src % w, sy = src / w, dx = d % w, dy = d / w, x, y;

	for (x = min_t(u32, sx, dx); x <= max_t(u32, sx, dx); x++)
		if (blocked[x + w * sy])
			return false;
	for (y = min_t(u32, sy, dy); y <= max_t(u32, sy, dy); y++)
		if (blocked[sx + w * y])
			return false;
	return true;
}

/*
 * Theorem 4 checked from the tree alone (not from the planner's status or
 * last-hop records): every destination outside the blocks to which the
 * source is extended safe must be the end of a chain of hops, each the
 * parent of the next, that starts at the source and is as long as the
 * Manhattan distance.
 */
static void check_reached(const struct wc_faultinfo *fi,
			  const struct wc_ft_plan *p, const u8 *blocked,
			  struct tally *t)
{
	u32 *depth = calloc(p->nhops + 1, sizeof(u32)), i, j;

	for (i = 0; i < p->nhops; i++) {
		const struct wc_ft_hop *h = &p->hops[i];

		if (h->parent == WC_FI_NONE)
			depth[i] = h->from == p->src ? 1 : 0;
		else if (h->parent < i && depth[h->parent] &&
			 p->hops[h->parent].to == h->from)
			depth[i] = depth[h->parent] + 1;
	}
	for (j = 0; j < p->ndst; j++) {
		u32 d = p->dst[j];
		bool reached = false;

		if (blocked[d] || !ref_ext_safe(fi->w, blocked, p->src, d))
			continue;
		t->owed++;
		for (i = 0; i < p->nhops && !reached; i++)
			reached = p->hops[i].to == d && depth[i] &&
				  depth[i] == wc_fi_distance(fi, p->src, d);
		t->missed += !reached;
	}
	free(depth);
}

/*
 * Check a plan on its own terms: hops are mesh links between nodes outside
 * every block, going the subnetwork's way, each continuing its parent hop
 * (a tree of reservations rooted at the source); each OK destination's
 * path back to the source has the Manhattan length; every leaf hop ends at
 * a destination; statuses agree with BFS.
 */
static void check_plan(const struct wc_faultinfo *fi, const struct wc_ft_plan *p,
		       struct tally *t, u32 *dist, u32 *q)
{
	u32 *children = calloc(p->nhops + 1, sizeof(u32));
	u8 *isend = calloc(p->nhops + 1, 1);
	u8 *entered = calloc(WC_FT_NSUBNETS * fi->nnodes, 1);
	u32 i;

	for (i = 0; i < p->nhops; i++) {
		const struct wc_ft_hop *h = &p->hops[i];
		int dx = (int)wc_fi_x(fi, h->to) - (int)wc_fi_x(fi, h->from);
		int dy = (int)wc_fi_y(fi, h->to) - (int)wc_fi_y(fi, h->from);

		if (wc_fi_in_block(fi, h->from) || wc_fi_in_block(fi, h->to) ||
		    abs(dx) + abs(dy) != 1 ||
		    (dx && dx != wc_ft_sx(h->subnet)) ||
		    (dy && dy != wc_ft_sy(h->subnet)))
			t->bad_hop++;
		if (h->parent == WC_FI_NONE ? h->from != p->src :
		    h->parent >= i || p->hops[h->parent].to != h->from ||
		    p->hops[h->parent].subnet != h->subnet)
			t->bad_tree++;
		else if (h->parent != WC_FI_NONE)
			children[h->parent]++;
		if (entered[h->subnet * fi->nnodes + h->to]++)
			t->revisits++;
	}
	for (i = 0; i < p->ndst; i++) {
		u32 d = p->dst[i], bd = tu_fi_bfs(fi, p->src, d, dist, q);
		bool minimal = bd == wc_fi_distance(fi, p->src, d);

		t->dests++;
		switch (p->status[i]) {
		case WC_FT_DST_OK: {
			u32 h = p->last[i], len = 0, at = d;

			t->ok++;
			if (h != WC_FI_NONE)
				isend[h] = 1;
			while (h != WC_FI_NONE && len <= p->nhops) {
				if (p->hops[h].to != at)
					break;
				at = p->hops[h].from;
				h = p->hops[h].parent;
				len++;
			}
			if (h != WC_FI_NONE || at != p->src ||
			    len != wc_fi_distance(fi, p->src, d) || len != p->len[i])
				t->bad_len++;
			if (!wc_fi_ext_safe(fi, p->src, d))
				t->bad_status++;
			break;
		}
		case WC_FT_DST_NO_MINIMAL_PATH:
			t->noway++;
			if (minimal)
				t->bad_status++;
			break;
		case WC_FT_DST_NOT_EXT_SAFE:
			t->notsafe++;
			if (!minimal || wc_fi_ext_safe(fi, p->src, d))
				t->bad_status++;
			break;
		case WC_FT_DST_IN_BLOCK:
			t->inblock++;
			if (!wc_fi_in_block(fi, d))
				t->bad_status++;
			break;
		default:
			t->stuck++;
			break;
		}
	}
	for (i = 0; i < p->nhops; i++)
		if (!children[i] && !isend[i])
			t->bad_leaf++;
	if (p->nhops > p->unicast_steps)
		t->worse++;
	t->plans++;
	free(children);
	free(isend);
	free(entered);
}

static void test_random(void)
{
	struct tally t = { 0 }, cut = { 0 };
	u32 trial, s;

	for (trial = 0; trial < 400; trial++) {
		u32 w = 8 + rnd(30), h = 8 + rnd(30);
		u32 nf = rnd(w * h / 12 + 1), *f = malloc((nf + 1) * sizeof(u32));
		u32 nd = 1 + rnd(25), *dst = malloc(nd * sizeof(u32));
		u32 *dist = malloc(w * h * sizeof(u32));
		u32 *q = malloc(w * h * sizeof(u32));
		u8 *used = calloc(w * h, 1), *blocked = malloc(w * h);
		struct wc_faultinfo fi;
		u32 i, n = 0, src;

		for (i = 0; i < nf; i++)
			f[i] = rnd(w * h);
		wc_fi_build(&fi, w, h, f, nf, NULL, 0, NULL);
		ref_blocks(w, h, f, nf, blocked);
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
		for (s = WC_FT_STRATEGY1; s <= WC_FT_STRATEGY3; s++) {
			struct wc_ft_plan_opts o = { .strategy = s, .seed = trial + 1 };
			struct wc_ft_plan p;

			if (wc_ft_plan(&fi, src, dst, nd, &o, &p, NULL)) {
				t.bad_status++;
				continue;
			}
			check_plan(&fi, &p, &t, dist, q);
			check_reached(&fi, &p, blocked, &t);
			/*
			 * The check must see a missing branch: without its
			 * last hop (a leaf, so a destination's) the tree
			 * leaves a destination unreached.
			 */
			if (p.nhops && p.nreached == p.ndst) {
				p.nhops--;
				check_reached(&fi, &p, blocked, &cut);
				p.nhops++;
			}
			wc_ft_plan_free(&p);
		}
		wc_fi_free(&fi);
		free(f);
		free(dst);
		free(dist);
		free(q);
		free(used);
		free(blocked);
	}
	diag("%u plans, %u destinations: %u ok, %u no minimal path, %u not extended safe, %u in a block",
	     t.plans, t.dests, t.ok, t.noway, t.notsafe, t.inblock);
	is_int(t.bad_hop, 0, "every hop: a link, outside blocks, the subnetwork's way");
	diag("%u hops entered a router another branch had entered", t.revisits);
	is_int(t.bad_tree, 0, "each hop continues its parent hop: a tree from the source");
	is_int(t.bad_len, 0, "every reached destination: path length = Manhattan distance");
	is_int(t.stuck, 0, "every destination has a known status");
	ok(t.owed > 1000, "%u destinations owed a minimal path by Theorem 4",
	   t.owed);
	is_int(t.missed, 0, "extended safe source: every destination reached "
	       "through the tree on a minimal path (Theorem 4, from the hops)");
	ok(cut.owed && cut.missed > 0,
	   "the same check finds %u destinations cut off when a leaf hop is "
	   "removed", cut.missed);
	is_int(t.bad_status, 0, "'no minimal path' / 'not extended safe' agree with BFS");
	is_int(t.bad_leaf, 0, "every leaf of the tree is a destination");
	is_int(t.worse, 0, "never more traffic than multiple unicast");
	ok(t.ok > 1000 && t.noway > 0 && t.notsafe > 0,
	   "the random cases exercise every status");
}

static void test_input(void)
{
	struct wc_faultinfo fi;
	struct wc_ft_plan p;
	struct wc_ft_plan_opts o = { .strategy = WC_FT_STRATEGY3 };
	u32 dup[2] = { 5, 5 }, inside = 6 + 20 * 6, self = 0;
	const char *why = NULL;

	build_fig7(&fi);
	is_int(wc_ft_plan(&fi, inside, dup, 1, &o, &p, &why), -EINVAL,
	       "source in a faulty block rejected");
	ok(why && strstr(why, "block"), "reason: %s", why ? why : "(none)");
	is_int(wc_ft_plan(&fi, 0, dup, 2, &o, &p, &why), -EINVAL,
	       "repeated destination rejected");
	is_int(wc_ft_plan(&fi, 0, &self, 1, &o, &p, &why), -EINVAL,
	       "destination = source rejected");
	o.strategy = 4;
	is_int(wc_ft_plan(&fi, 0, dup, 1, &o, &p, &why), -EINVAL,
	       "strategy 4 rejected");
	o.strategy = WC_FT_STRATEGY3;
	is_int(wc_ft_plan(&fi, 0, &inside, 1, &o, &p, &why), 0,
	       "destination in a block is not an error");
	is_int(p.status[0], WC_FT_DST_IN_BLOCK, "... but reported as such");
	is_int(p.nhops, 0, "... and nothing is routed");
	wc_ft_plan_free(&p);
	/* (12,6) sits east of the block in its rows; from (12,0) going
	 * north is fine, from (4,6) (west of the block) there is no way */
	{
		u32 d = 12 + 20 * 6;

		is_int(wc_ft_plan(&fi, 4 + 20 * 6, &d, 1, &o, &p, &why), 0,
		       "plan across the block");
		is_int(p.status[0], WC_FT_DST_NO_MINIMAL_PATH,
		       "(4,6) -> (12,6): no minimal path");
		wc_ft_plan_free(&p);
	}
	wc_fi_free(&fi);
}

int main(void)
{
	test_fig8b();
	test_fig7a();
	test_random();
	test_input();
	return done_testing();
}
