// SPDX-License-Identifier: GPL-2.0
/*
 * DSTM trees (Wang and Blough, Theorem 4.1, section 5), the shared
 * spanning-tree model, router tables and the SPAM BFS tree.
 */
#include <stdio.h>
#include <stdlib.h>

#include "tap.h"
#include "testutil.h"
#include "dstm.h"
#include "dstm_fault.h"

static u64 rng_state = 0x9e3779b97f4a7c15ull;

static u32 rnd(u32 bound)
{
	return tu_rand_mod(&rng_state, bound);
}

/*
 * Independent check of a pair of trees: each tree's parent links are real
 * links and reach the root from every node (so it spans), each has N - 1
 * links, no link is in both, every node has at most two children, and the
 * links in neither tree are exactly @u1 and @u2.
 */
static bool pair_ok(const struct wc_dstm *d, u32 u1, u32 u2, char *msg,
		    size_t len)
{
	const struct wc_topo *t = &d->topo;
	u32 space = wc_link_space(t), n = t->nnodes, k, v, l, count[2] = { 0 };
	u8 *owner = calloc(space, 1);
	bool good = true;

	for (k = 0; k < 2 && good; k++) {
		const struct wc_sptree *s = &d->tree[k];

		for (v = 0; v < n && good; v++) {
			u32 x = v, hops = 0;

			if (wc_sptree_nchildren(s, v) > 2) {
				snprintf(msg, len, "T%u node %u has 3 children", k + 1, v);
				good = false;
			}
			while (good && x != s->root) {
				u32 p = s->parent[x];

				if (wc_topo_neighbor(t, x, s->parent_port[x]) != p ||
				    ++hops > n) {
					snprintf(msg, len, "T%u: %u does not reach the root", k + 1, v);
					good = false;
				}
				x = p;
			}
			if (!good || v == s->root)
				continue;
			l = wc_link_id(t, v, s->parent_port[v]);
			if (owner[l]) {
				snprintf(msg, len, "link %u used twice", l);
				good = false;
			}
			owner[l] = (u8)(k + 1);
			count[k]++;
		}
	}
	for (l = 0; l < space && good; l++) {
		u32 a, pa, b, pb;

		wc_link_ends(t, l, &a, &pa, &b, &pb);
		if (b == WC_NO_NODE || wc_link_id(t, a, pa) != l)
			continue;	/* not a canonical link id */
		if (!owner[l] && l != u1 && l != u2) {
			snprintf(msg, len, "link %u unused", l);
			good = false;
		}
		if (owner[l] && (l == u1 || l == u2)) {
			snprintf(msg, len, "link %u should be unused", l);
			good = false;
		}
	}
	if (good && (count[0] != n - 1 || count[1] != n - 1 || u1 == u2)) {
		snprintf(msg, len, "link counts %u %u", count[0], count[1]);
		good = false;
	}
	free(owner);
	return good;
}

static u32 cd_of(const struct wc_dstm *d, double *ad)
{
	const struct wc_sptree *tr[2] = { &d->tree[0], &d->tree[1] };
	struct wc_pair_metrics m;

	if (wc_trees_metrics(tr, 2, &m))
		return 0;
	if (ad)
		*ad = m.ad;
	return m.cd;
}

/* Theorem 4.1 for all 16 methods, many sizes and start pairs. */
static void test_construction(void)
{
	static const u32 sizes[][2] = {
		{ 2, 2 }, { 2, 3 }, { 3, 2 }, { 3, 3 }, { 4, 4 }, { 5, 5 },
		{ 4, 7 }, { 7, 4 }, { 6, 9 }, { 8, 8 }, { 9, 5 }, { 12, 3 },
	};
	u32 si, dirs, trial, failures = 0, builds = 0;
	char msg[128] = "";

	for (si = 0; si < ARRAY_SIZE(sizes); si++) {
		u32 k = sizes[si][0], m = sizes[si][1];

		for (dirs = 0; dirs < 16; dirs++) {
			for (trial = 0; trial < 8; trial++) {
				struct wc_dstm_spec sp = { .k = k, .m = m };
				struct wc_dstm d;
				const char *why = NULL;
				u32 u1, u2;

				sp.t1_x = dirs & 1 ? -1 : 1;
				sp.t1_y = dirs & 2 ? -1 : 1;
				sp.t2_y = dirs & 4 ? -1 : 1;
				sp.t2_x = dirs & 8 ? -1 : 1;
				sp.r1 = rnd(k * m);
				/* Trials 0-2: same node, same row, same column. */
				if (trial == 0)
					sp.r2 = sp.r1;
				else if (trial == 1)
					sp.r2 = rnd(k) + k * (sp.r1 / k);
				else if (trial == 2)
					sp.r2 = sp.r1 % k + k * rnd(m);
				else
					sp.r2 = rnd(k * m);
				sp.roots = WC_DSTM_ROOT_START;
				builds++;
				if (wc_dstm_build(&d, &sp, &why)) {
					if (!failures++)
						diag("%ux%u dirs %u: %s", k, m, dirs, why);
					continue;
				}
				wc_dstm_proof_unused(&d.topo, &sp, &u1, &u2);
				if (!pair_ok(&d, u1, u2, msg, sizeof(msg)) &&
				    !failures++)
					diag("%ux%u dirs %u r1 %u r2 %u: %s", k, m,
					     dirs, sp.r1, sp.r2, msg);
				wc_dstm_free(&d);
			}
		}
	}
	/* The checker itself must notice a wrong unused pair. */
	{
		struct wc_dstm_spec sp;
		struct wc_dstm d;
		const char *why;
		u32 u1, u2;

		wc_dstm_spec_dstm1(&sp, 6, 6, 0);
		if (!wc_dstm_build(&d, &sp, &why)) {
			wc_dstm_proof_unused(&d.topo, &sp, &u1, &u2);
			ok(!pair_ok(&d, u1, wc_link_id(&d.topo, 0, 2), msg, sizeof(msg)),
			   "the pair checker rejects a wrong unused link (%s)", msg);
			wc_dstm_free(&d);
		}
	}
	ok(!failures, "Theorem 4.1: %u constructions (16 methods, starts equal/same row/same column/any) give two edge-disjoint binary spanning trees leaving exactly H(x1-a,y1) and V(x2,y2-c) unused",
	   builds);
}

/* Fig. 4 / Fig. 5 root choices. */
static void test_roots(void)
{
	struct wc_dstm_spec sp;
	struct wc_dstm d, plain;
	const char *why;
	u32 sizes[4], nb, n, v, changed = 0, bad_changed = 0, k;
	int err;

	wc_dstm_spec_dstm1(&sp, 8, 8, 9);
	err = wc_dstm_build(&d, &sp, &why);
	ok(!err && d.tree[0].root == d.tree[1].root &&
	   d.tree[0].root == (sp.r2 % 8) + 8 * (sp.r1 / 8),
	   "DSTM-1 roots both trees at P = Q = (x2, y1)");
	if (!err) {
		wc_sptree_root_branches(&d.tree[0], sizes, &nb);
		ok(nb == 2, "P has two branches in T1 (%u, %u)", sizes[0],
		   nb > 1 ? sizes[1] : 0);
		wc_sptree_root_branches(&d.tree[1], sizes, &nb);
		ok(nb == 2, "Q has two branches in T2 (%u, %u)", sizes[0],
		   nb > 1 ? sizes[1] : 0);
		wc_dstm_free(&d);
	}

	/* Same row and same column starts: Fig. 5's half-branch move. */
	for (k = 0; k < 2; k++) {
		u32 kk = 9, mm = 7;

		memset(&sp, 0, sizeof(sp));
		sp.k = kk;
		sp.m = mm;
		sp.t1_x = 1;
		sp.t1_y = -1;
		sp.t2_y = -1;
		sp.t2_x = 1;
		sp.r1 = 2 + kk * 3;
		sp.r2 = k == 0 ? 6 + kk * 3 : 2 + kk * 5;	/* row, column */
		sp.roots = WC_DSTM_ROOT_START;
		err = wc_dstm_build(&plain, &sp, &why);
		sp.balance = true;
		err |= wc_dstm_build(&d, &sp, &why);
		if (err) {
			ok(0, "build %s-start trees", k ? "same-column" : "same-row");
			continue;
		}
		/* Which tree had a single branch at its start node? */
		for (v = 0; v < 2; v++) {
			const struct wc_sptree *a = &plain.tree[v], *b = &d.tree[v];
			u32 x0 = a->root % kk, y0 = a->root / kk, node;

			if (wc_sptree_nchildren(a, a->root) != 1) {
				ok(!d.moved[v], "%s start, T%u: root already has two branches, not moved",
				   k ? "same-column" : "same-row", v + 1);
				continue;
			}
			wc_sptree_root_branches(b, sizes, &nb);
			n = kk * mm;
			ok(d.moved[v] && nb == 2 &&
			   (sizes[0] > sizes[1] ? sizes[0] - sizes[1] :
			    sizes[1] - sizes[0]) <= (v == 0 ? mm : kk),
			   "%s start, T%u: the move gives the root two branches (%u, %u)",
			   k ? "same-column" : "same-row", v + 1, sizes[0],
			   nb > 1 ? sizes[1] : 0);
			changed = 0;
			bad_changed = 0;
			for (node = 0; node < n; node++) {
				if (a->parent[node] == b->parent[node])
					continue;
				changed++;
				/* Only nodes on the root's line may change. */
				if (v == 0 ? node / kk != y0 : node % kk != x0)
					bad_changed++;
			}
			ok(!bad_changed && changed <= ((v == 0 ? kk : mm) + 1) / 2,
			   "T%u: only %u nodes of the moved half line change parent (at most ceil(L/2))",
			   v + 1, changed);
		}
		ok(pair_ok(&d, d.unused[0], d.unused[1], (char[128]){ 0 }, 128),
		   "%s start after the move: still disjoint binary spanning trees, unused links as reported",
		   k ? "same-column" : "same-row");
		wc_dstm_free(&plain);
		wc_dstm_free(&d);
	}
}

/* Theorems 5.1 and 5.2 by exhaustive count. */
static void test_diameters(void)
{
	struct wc_dstm_spec sp;
	struct wc_dstm d;
	const char *why;
	u32 n, cd, bad1 = 0, bad2 = 0, over = 0;
	double ad;

	for (n = 3; n <= 22; n++) {
		wc_dstm_spec_dstm1(&sp, n, n, rnd(n * n));
		if (wc_dstm_build(&d, &sp, &why)) {
			bad1++;
			continue;
		}
		cd = cd_of(&d, NULL);
		wc_dstm_free(&d);
		if (cd > 2 * n - 1)
			over++;
		if (cd != (n % 2 ? 2 * n - 1 : 2 * n - 2)) {
			if (!bad1++)
				diag("DSTM-1 %ux%u: CD %u", n, n, cd);
		}
	}
	ok(!bad1, "DSTM-1 CD = 2n-1 for odd n, 2n-2 for even n, n = 3..22 (exhaustive)");
	ok(!over, "Theorem 5.1 holds as an upper bound: DSTM-1 CD <= 2n-1, n = 3..22");

	for (n = 3; n <= 22; n++) {
		wc_dstm_spec_dstm2(&sp, n, n, rnd(n * n));
		if (wc_dstm_build(&d, &sp, &why)) {
			bad2++;
			continue;
		}
		cd = cd_of(&d, NULL);
		wc_dstm_free(&d);
		if (cd != 2 * n - 2 && !bad2++)
			diag("DSTM-2 %ux%u: CD %u", n, n, cd);
	}
	ok(!bad2, "Theorem 5.2: DSTM-2 CD = 2n-2, n = 3..22 (exhaustive)");

	/* Appendix B's base cases. */
	memset(&sp, 0, sizeof(sp));
	wc_dstm_spec_dstm1(&sp, 5, 5, 1 + 5 * 1);	/* N11 */
	ok(sp.r2 == 3 + 5 * 3, "DSTM-1 on 5x5 from N11 starts T2 at N33 as in Appendix B");
	if (!wc_dstm_build(&d, &sp, &why)) {
		is_int(cd_of(&d, NULL), 9, "Appendix B: 5x5 DSTM-1 CD = 9");
		wc_dstm_free(&d);
	}
	wc_dstm_spec_dstm1(&sp, 4, 4, 0);
	if (!wc_dstm_build(&d, &sp, &why)) {
		cd = cd_of(&d, &ad);
		is_int(cd, 6, "4x4 DSTM-1 CD = 6 by exhaustive count (Appendix B claims 7)");
		wc_dstm_free(&d);
	}
}

/* Tree distances: the DFS from a source agrees with the LCA formula. */
static void test_distances(void)
{
	struct wc_dstm_spec sp;
	struct wc_dstm d;
	const char *why;
	u32 *dist, *stack, src, v, k, bad = 0;

	wc_dstm_spec_dstm1(&sp, 7, 6, 3);
	if (wc_dstm_build(&d, &sp, &why)) {
		ok(0, "build 7x6");
		return;
	}
	dist = malloc(42 * sizeof(*dist));
	stack = malloc(42 * sizeof(*stack));
	for (k = 0; k < 2; k++)
		for (src = 0; src < 42; src++) {
			wc_sptree_dist_from(&d.tree[k], src, WC_NO_LINK, dist, stack);
			for (v = 0; v < 42; v++)
				if (dist[v] != wc_sptree_distance(&d.tree[k], src, v))
					bad++;
		}
	ok(!bad, "tree distances by search equal depth(a)+depth(b)-2 depth(lca)");
	free(dist);
	free(stack);
	wc_dstm_free(&d);
}

/* Brute-force ancestor test by walking parent pointers. */
static bool walk_is_ancestor(const struct wc_sptree *s, u32 a, u32 b)
{
	for (;;) {
		if (a == b)
			return true;
		if (b == s->root)
			return false;
		b = s->parent[b];
	}
}

static u32 brute_lca(const struct wc_sptree *s, u32 a, u32 b)
{
	u32 best = s->root, v;

	for (v = 0; v < s->nnodes; v++)
		if (walk_is_ancestor(s, v, a) && walk_is_ancestor(s, v, b) &&
		    s->depth[v] >= s->depth[best])
			best = v;
	return best;
}

static void test_post_order_and_lca(void)
{
	struct wc_dstm_spec sp;
	struct wc_dstm d;
	struct wc_tree_entry *e;
	struct wc_tree_table tab;
	const char *why;
	u32 *nop, n, a, b, k, bad_iv = 0, bad_lca = 0, bad_route = 0;

	wc_dstm_spec_dstm2(&sp, 6, 5, 7);
	if (wc_dstm_build(&d, &sp, &why)) {
		ok(0, "build 6x5");
		return;
	}
	n = d.topo.nnodes;
	e = calloc(n, sizeof(*e));
	nop = calloc(n, sizeof(*nop));
	for (k = 0; k < 2; k++) {
		const struct wc_sptree *s = &d.tree[k];

		for (a = 0; a < n; a++)
			for (b = 0; b < n; b++) {
				if (wc_sptree_is_ancestor(s, a, b) !=
				    walk_is_ancestor(s, a, b))
					bad_iv++;
				if (wc_sptree_lca(s, a, b) != brute_lca(s, a, b))
					bad_lca++;
			}
		wc_sptree_router_table(s, e, nop);
		tab.nnodes = n;
		tab.root = s->root;
		tab.e = e;
		tab.node_of_pn = nop;
		ok(!wc_tree_table_check(&tab), "T%u router table passes validation", k + 1);
		/* Hop-by-hop routing with the intervals follows the tree path. */
		for (a = 0; a < n; a++)
			for (b = 0; b < n; b++) {
				u32 x = a, hops = 0;
				u8 port;

				while ((port = wc_tree_route(&e[x], e[b].pn)) !=
				       WC_TREE_LOCAL && hops <= n) {
					x = wc_topo_neighbor(&d.topo, x, port);
					hops++;
				}
				if (x != b || hops != wc_sptree_distance(s, a, b))
					bad_route++;
			}
		/* Validation must catch a broken interval. */
		e[s->root].child_hi[0]++;
		ok(wc_tree_table_check(&tab) == -EINVAL,
		   "T%u: a corrupted interval is rejected", k + 1);
	}
	ok(!bad_iv, "post-order intervals [lo, pn] are exactly the subtrees");
	ok(!bad_lca, "LCA agrees with brute force on all pairs");
	ok(!bad_route, "interval routing reaches every destination along the tree path");
	free(e);
	free(nop);
	wc_dstm_free(&d);
}

/* SPAM's BFS tree and its up/down link classes. */
static void test_bfs_updown(void)
{
	static const struct {
		u32 kind, ndims, dims[3];
	} topos[] = {
		{ WC_TOPO_TORUS, 2, { 8, 8 } },
		{ WC_TOPO_TORUS, 2, { 5, 3 } },
		{ WC_TOPO_MESH, 2, { 6, 7 } },
		{ WC_TOPO_TORUS, 3, { 4, 3, 3 } },
		{ WC_TOPO_HYPERCUBE, 1, { 6 } },
		{ WC_TOPO_STAR, 1, { 5 } },
	};
	u32 ti;

	for (ti = 0; ti < ARRAY_SIZE(topos); ti++) {
		struct wc_topo t;
		struct wc_sptree s;
		u32 root, v, p, bad_depth = 0, bad_pair = 0, bad_parent = 0;
		u32 *indeg, *queue, head = 0, tail = 0, bad_lca = 0, i;

		wc_topo_init(&t, topos[ti].kind, topos[ti].ndims, topos[ti].dims, NULL);
		root = rnd(t.nnodes);
		if (wc_sptree_bfs(&s, &t, root)) {
			ok(0, "BFS tree on %s", wc_topo_kind_name(t.kind));
			continue;
		}
		indeg = calloc(t.nnodes, sizeof(*indeg));
		queue = calloc(t.nnodes, sizeof(*queue));
		for (v = 0; v < t.nnodes; v++) {
			if (s.depth[v] != wc_topo_distance(&t, root, v))
				bad_depth++;
			if (v != root && !wc_sptree_link_is_up(&s, v, s.parent_port[v]))
				bad_parent++;
			for (p = 0; p < t.nports; p++) {
				u32 nb = wc_topo_neighbor(&t, v, p);

				if (nb == WC_NO_NODE)
					continue;
				if (wc_sptree_link_is_up(&s, v, p) ==
				    wc_sptree_link_is_up(&s, nb, wc_topo_reverse_port(&t, v, p)))
					bad_pair++;
				if (wc_sptree_link_is_up(&s, v, p))
					indeg[nb]++;
			}
		}
		/* Kahn's algorithm over the up links: acyclic iff all drain. */
		for (v = 0; v < t.nnodes; v++)
			if (!indeg[v])
				queue[tail++] = v;
		while (head < tail) {
			v = queue[head++];
			for (p = 0; p < t.nports; p++) {
				u32 nb = wc_topo_neighbor(&t, v, p);

				if (nb != WC_NO_NODE && wc_sptree_link_is_up(&s, v, p) &&
				    !--indeg[nb])
					queue[tail++] = nb;
			}
		}
		for (i = 0; i < 200; i++) {
			u32 a = rnd(t.nnodes), b = rnd(t.nnodes);

			if (wc_sptree_lca(&s, a, b) != brute_lca(&s, a, b))
				bad_lca++;
		}
		ok(!bad_depth && !bad_parent && !bad_pair && tail == t.nnodes && !bad_lca,
		   "%s %u: BFS levels are distances, each link up one way only, parent links up, up links acyclic, LCA ok",
		   wc_topo_kind_name(t.kind), t.nnodes);
		free(indeg);
		free(queue);
		wc_sptree_free(&s);
	}
}

static void test_bad_input(void)
{
	struct wc_dstm_spec sp;
	struct wc_dstm d;
	const char *why = NULL;

	int err;

	wc_dstm_spec_dstm1(&sp, 1, 8, 0);
	err = wc_dstm_build(&d, &sp, &why);
	ok(err == -EINVAL && why, "1x8 rejected (%s)", why ? why : "no reason");
	wc_dstm_spec_dstm1(&sp, 8, 8, 64);
	ok(wc_dstm_build(&d, &sp, &why) == -EINVAL, "start node out of range rejected");
	wc_dstm_spec_dstm1(&sp, 8, 8, 0);
	sp.t1_x = 0;
	ok(wc_dstm_build(&d, &sp, &why) == -EINVAL, "direction 0 rejected");
	wc_dstm_spec_dstm1(&sp, 2048, 1024, 0);
	ok(wc_dstm_build(&d, &sp, &why) == -EINVAL, "2048x1024 rejected (too large)");
	wc_dstm_spec_dstm1(&sp, 300, 300, 0);
	if (!wc_dstm_build(&d, &sp, &why)) {
		ok(d.topo.nnodes == 90000 && d.tree[0].post[d.tree[0].root] == 89999,
		   "300x300 builds past the fabric's node bound");
		wc_dstm_free(&d);
	} else {
		ok(0, "300x300 builds");
	}
}

/*
 * Section 7, every single faulty link of small tori: the exhaustive
 * metrics agree with the per-message routing decisions, the good tree
 * always delivers, and an unused link changes nothing.
 */
static void test_single_fault(void)
{
	static const u32 sizes[] = { 5, 6 };
	u32 si;

	for (si = 0; si < ARRAY_SIZE(sizes); si++) {
		u32 n = sizes[si], nn = n * n, l, a, b, bad = 0, unreach = 0;
		u32 mc_bad = 0, checked = 0;
		struct wc_dstm_spec sp;
		struct wc_dstm d;
		struct wc_pair_metrics free_m, gm, lm;
		const char *why;

		wc_dstm_spec_dstm1(&sp, n, n, 0);
		if (wc_dstm_build(&d, &sp, &why)) {
			ok(0, "build %ux%u", n, n);
			continue;
		}
		wc_trees_metrics((const struct wc_sptree *const[]){ &d.tree[0], &d.tree[1] },
				 2, &free_m);
		for (l = 0; l < wc_link_space(&d.topo); l++) {
			u32 x, px, y, py, gmax = 0, lmax = 0;
			u64 gsum = 0, lsum = 0;
			int f;

			wc_link_ends(&d.topo, l, &x, &px, &y, &py);
			if (wc_link_id(&d.topo, x, px) != l)
				continue;
			checked++;
			f = wc_dstm_fault_tree(d.tree, l);
			if (f >= 0 ? wc_dstm_fault_multicast_tree(d.tree, l) != 1 - f ||
				     !wc_sptree_has_link(&d.tree[f], x, px) ||
				     wc_sptree_has_link(&d.tree[1 - f], x, px) :
				     l != d.unused[0] && l != d.unused[1])
				mc_bad++;
			wc_dstm_fault_metrics_global(d.tree, l, &gm);
			wc_dstm_fault_metrics_local(d.tree, l, &lm);
			for (a = 0; a < nn; a++)
				for (b = 0; b < nn; b++) {
					struct wc_fault_route rg, rl;

					if (a == b)
						continue;
					wc_dstm_fault_unicast_global(d.tree, l, a, b, &rg);
					wc_dstm_fault_unicast_local(d.tree, l, a, b, &rl);
					if (rg.hops == U32_MAX)
						unreach++;
					if (a < b) {
						gsum += rg.hops;
						gmax = rg.hops > gmax ? rg.hops : gmax;
					}
					lsum += rl.hops;
					lmax = rl.hops > lmax ? rl.hops : lmax;
					/* Re-injection only on the faulty tree, at
					 * an end of the faulty link. */
					if (rl.reinject != WC_NO_NODE &&
					    ((int)rl.tree != f ||
					     (rl.reinject != x && rl.reinject != y)))
						bad++;
				}
			if (gsum != gm.dist_sum || gmax != gm.cd || lsum != lm.dist_sum ||
			    lmax != lm.cd || gm.cd < free_m.cd || lm.cd < gm.cd)
				bad++;
			if (f < 0 && (gm.cd != free_m.cd || gm.dist_sum != free_m.dist_sum))
				bad++;
		}
		ok(checked == 2 * nn && !mc_bad,
		   "%ux%u: each of the %u links is in exactly one tree or is one of the two unused links; multicast goes to the other tree",
		   n, n, checked);
		ok(!unreach, "%ux%u: with global information every pair stays connected under any single fault", n, n);
		ok(!bad, "%ux%u: exhaustive fault metrics (global and local) agree with the per-message routes for every faulty link", n, n);
		wc_dstm_free(&d);
	}
}

int main(void)
{
	test_construction();
	test_roots();
	test_diameters();
	test_distances();
	test_post_order_and_lca();
	test_bfs_updown();
	test_bad_input();
	test_single_fault();
	return done_testing();
}
