// SPDX-License-Identifier: GPL-2.0
/*
 * DSTM header encoding (section 3.1 and Appendix A): the Fig. 2 example,
 * and a router-level simulation checking that, for random trees, sources
 * and destination sets, every router learns its full reservation from the
 * first header flit that reaches it.
 */
#include <stdio.h>
#include <stdlib.h>

#include "tap.h"
#include "testutil.h"
#include "dstm.h"
#include "roskind_tarjan.h"

static u64 rng_state = 0x2545f4914f6cdd1dull;

static u32 rnd(u32 bound)
{
	return tu_rand_mod(&rng_state, bound);
}

struct table {
	struct wc_tree_entry *e;
	u32 *nop;
	struct wc_tree_table t;
};

static void table_from_tree(struct table *tb, const struct wc_sptree *s)
{
	tb->e = calloc(s->nnodes, sizeof(*tb->e));
	tb->nop = calloc(s->nnodes, sizeof(*tb->nop));
	wc_sptree_router_table(s, tb->e, tb->nop);
	tb->t.nnodes = s->nnodes;
	tb->t.root = s->root;
	tb->t.e = tb->e;
	tb->t.node_of_pn = tb->nop;
}

static void table_free(struct table *tb)
{
	free(tb->e);
	free(tb->nop);
}

static u32 next_node(const struct wc_tree_entry *e, u8 port)
{
	u32 i;

	if (port == e->parent_port)
		return e->parent;
	for (i = 0; i < e->nchildren; i++)
		if (e->child_port[i] == port)
			return e->child[i];
	return WC_TREE_NONE;
}

static bool is_anc(const struct wc_tree_table *t, u32 a, u32 b)
{
	while (b != WC_TREE_NONE) {
		if (a == b)
			return true;
		b = t->e[b].parent;
	}
	return false;
}

/*
 * Expected use of router r entered through input port `in` (0xff for
 * injection): C bit and output mask.  Keys are (node, in).
 */
struct res {
	bool set;
	u8 c, out;
};

#define IN_SLOTS (WC_TREE_MAX_PORTS + 1)
#define KEY(node, in) ((node) * IN_SLOTS + ((in) == WC_TREE_NO_PORT ? WC_TREE_MAX_PORTS : (in)))

/*
 * The reconstructed router procedure (section 3.1.2):
 *  - the first flit of the worm at (router, input) reserves: its own C/O
 *    bits if addressed here (a split router if any O is set), else the one
 *    output towards its Node;
 *  - later flits with S = 0 follow the reserved output (even one addressed
 *    to this router: it is on the way up and comes back down later),
 *    except at the split router, where S becomes 1;
 *  - flits with S = 1 are routed towards their Node, which must be one of
 *    the reserved outputs; a flit addressed to an already reserved router
 *    arrived too late.
 * Returns NULL if every reservation matches what the multicast needs, else
 * a reason.
 */
static const char *simulate(const struct wc_tree_table *t, u32 src,
			    const u32 *dests, u32 nd,
			    const struct wc_dstm_flit *f, u32 nf)
{
	u32 n = t->nnodes, i, v, lca, x;
	struct res *want = calloc(n * IN_SLOTS, sizeof(*want));
	struct res *got = calloc(n * IN_SLOTS, sizeof(*got));
	u8 *isdest = calloc(n, 1), *below = calloc(n, 1);
	const char *why = NULL;

	for (i = 0; i < nd; i++)
		isdest[dests[i]] = 1;
	/* below[v]: some destination in v's subtree (brute force). */
	for (v = 0; v < n; v++)
		for (i = 0; i < nd; i++)
			if (is_anc(t, v, dests[i]))
				below[v] = 1;
	/* The LCA: walk down while a single branch holds every destination. */
	lca = t->root;
	for (;;) {
		u32 nxt = 0, branches = 0;

		if (isdest[lca])
			break;
		for (i = 0; i < t->e[lca].nchildren; i++)
			if (below[t->e[lca].child[i]]) {
				nxt = t->e[lca].child[i];
				branches++;
			}
		if (branches != 1)
			break;
		lca = nxt;
	}
	/* Path src -> lca: up to the first ancestor of lca, then down. */
	{
		u8 in = WC_TREE_NO_PORT;

		x = src;
		while (x != lca) {
			u8 port = wc_tree_route(&t->e[x], t->e[lca].pn);
			u32 nx = next_node(&t->e[x], port);

			want[KEY(x, in)] = (struct res){ true, 0, (u8)(1u << port) };
			in = t->e[nx].parent == x ? t->e[nx].parent_port :
			     wc_tree_route(&t->e[nx], t->e[x].pn);
			x = nx;
		}
		/* Below the LCA: down channels to every branch with destinations. */
		{
			u32 *stack = malloc(n * sizeof(*stack)), sp = 0;
			u8 *inport = malloc(n);

			stack[sp++] = lca;
			inport[lca] = in;
			while (sp) {
				struct res r = { true, 0, 0 };

				v = stack[--sp];
				r.c = isdest[v];
				for (i = 0; i < t->e[v].nchildren; i++) {
					u32 c = t->e[v].child[i];

					if (!below[c])
						continue;
					r.out |= (u8)(1u << t->e[v].child_port[i]);
					inport[c] = t->e[c].parent_port;
					stack[sp++] = c;
				}
				want[KEY(v, inport[v])] = r;
			}
			free(stack);
			free(inport);
		}
	}

	for (i = 0; i < nf && !why; i++) {
		u32 cur = src, guard = 0;
		u8 in = WC_TREE_NO_PORT, s = f[i].s;

		for (;;) {
			struct res *g = &got[KEY(cur, in)];
			u8 port;

			if (++guard > 4 * n) {
				why = "flit loops";
				break;
			}
			if (!g->set) {
				g->set = true;
				if (f[i].node == cur) {
					g->c = f[i].c;
					g->out = f[i].out;
					break;		/* consumed here */
				}
				port = wc_tree_route(&t->e[cur], t->e[f[i].node].pn);
				g->out = (u8)(1u << port);
			} else if (!s && (g->out & (g->out - 1) || (g->c && g->out))) {
				/* The first split: from here on, local decisions. */
				s = 1;
				port = wc_tree_route(&t->e[cur], t->e[f[i].node].pn);
			} else if (!s) {
				if (!g->out || (g->out & (g->out - 1))) {
					why = "S=0 flit at a router with no single reserved output";
					break;
				}
				port = (u8)__builtin_ctz(g->out);
			} else if (f[i].node == cur) {
				why = "a router's own flit arrived after another flit";
				break;
			} else {
				port = wc_tree_route(&t->e[cur], t->e[f[i].node].pn);
			}
			if (port >= WC_TREE_MAX_PORTS || !((g->out >> port) & 1)) {
				why = "flit needs an output its router did not reserve";
				break;
			}
			x = next_node(&t->e[cur], port);
			in = t->e[x].parent == cur ? t->e[x].parent_port :
			     wc_tree_route(&t->e[x], t->e[cur].pn);
			cur = x;
		}
	}
	for (v = 0; v < n * IN_SLOTS && !why; v++) {
		if (want[v].set != got[v].set)
			why = want[v].set ? "a router on the tree was never reached" :
					    "a router off the tree was reserved";
		else if (want[v].set && (want[v].c != got[v].c ||
					 want[v].out != got[v].out))
			why = "a router reserved the wrong outputs";
	}
	free(want);
	free(got);
	free(isdest);
	free(below);
	return why;
}

/*
 * Fig. 2: a binary tree rooted at node 1; 1's children 2 (O_1) and 3
 * (O_2), 2's children 5 (O_1) and 4 (O_2), 4's child 8, 3's children 6
 * and 7, 7's child 0.  Node 7 multicasts to {1, 5, 6, 8}.
 */
static void test_fig2(void)
{
	static const u32 parent[9] = { 7, WC_TREE_NONE, 1, 1, 2, 2, 3, 3, 4 };
	static const u8 port_in_parent[9] = { 0, 0, 0, 1, 1, 0, 0, 1, 0 };
	static const u32 dests[4] = { 1, 5, 6, 8 };
	struct wc_tree_entry e[9];
	u32 nop[9], post = 0, stack[9], sp = 0, v, i, k;
	u8 next[9] = { 0 };
	struct wc_tree_table t = { .nnodes = 9, .root = 1, .e = e, .node_of_pn = nop };
	struct wc_dstm_flit f[8];
	u32 work[WC_DSTM_WORK_WORDS(4)];
	static const u32 paper_orders[3][5] = {
		{ 1, 2, 5, 6, 8 }, { 1, 2, 5, 8, 6 }, { 1, 6, 2, 8, 5 },
	};
	int nf;

	memset(e, 0, sizeof(e));
	for (v = 0; v < 9; v++) {
		e[v].parent = parent[v];
		e[v].parent_port = parent[v] == WC_TREE_NONE ? WC_TREE_NO_PORT : 3;
	}
	for (k = 0; k < 2; k++)		/* children in port order */
		for (v = 0; v < 9; v++)
			if (parent[v] != WC_TREE_NONE && port_in_parent[v] == k) {
				struct wc_tree_entry *p = &e[parent[v]];

				p->child[p->nchildren] = v;
				p->child_port[p->nchildren++] = (u8)k;
			}
	/* Post-order numbers and intervals. */
	stack[sp++] = 1;
	e[1].lo = 0;
	while (sp) {
		v = stack[sp - 1];
		if (next[v] < e[v].nchildren) {
			u32 c = e[v].child[next[v]++];

			e[c].lo = post;
			stack[sp++] = c;
			continue;
		}
		sp--;
		e[v].pn = post;
		nop[post++] = v;
	}
	for (v = 0; v < 9; v++)
		for (i = 0; i < e[v].nchildren; i++) {
			e[v].child_lo[i] = e[e[v].child[i]].lo;
			e[v].child_hi[i] = e[e[v].child[i]].pn;
		}
	ok(!wc_tree_table_check(&t), "Fig. 2 tree: valid router table");

	nf = wc_dstm_encode(&t, 7, dests, 4, false, work, f, 8);
	is_int(nf, 5, "Fig. 2: 5 header flits (destinations 1, 5, 6, 8; split nodes 1, 2)");
	if (nf == 5) {
		ok(f[0].node == 1 && f[0].c == 1 && f[0].out == 3,
		   "first flit {1, C=1, O_1=1, O_2=1}: node 1 is both destination and split node");
		ok(f[1].node == 2 && f[1].c == 0 && f[1].out == 3,
		   "flit {2, C=0, O_1=1, O_2=1}: node 2 splits only");
		ok(f[2].node == 5 && f[3].node == 8 && f[4].node == 6,
		   "order {1, 2, 5, 8, 6}, one of the paper's valid orders");
		ok(!simulate(&t, 7, dests, 4, f, 5), "order {1, 2, 5, 8, 6} passes the router simulation");
	}
	nf = wc_dstm_encode(&t, 7, dests, 4, true, work, f, 8);
	ok(nf == 5 && f[0].node == 1 && f[1].node == 6 && f[2].node == 2 &&
	   f[3].node == 8 && f[4].node == 5,
	   "reversed child order gives {1, 6, 2, 8, 5}, the paper's third order");
	/* The paper's three orders all work; a broken one does not. */
	for (k = 0; k < 3; k++) {
		struct wc_dstm_flit g[5];

		for (i = 0; i < 5; i++) {
			g[i].node = paper_orders[k][i];
			g[i].c = g[i].node != 2;
			g[i].out = g[i].node == 1 || g[i].node == 2 ? 3 : 0;
			g[i].s = 0;
		}
		ok(!simulate(&t, 7, dests, 4, g, 5),
		   "paper order {%u, %u, %u, %u, %u} keeps the partial orders {1,2,8} {1,2,5} {1,6}",
		   g[0].node, g[1].node, g[2].node, g[3].node, g[4].node);
		if (k == 0) {
			struct wc_dstm_flit tmp = g[1];

			g[1] = g[2];
			g[2] = tmp;	/* 5 before its split node 2 */
			ok(simulate(&t, 7, dests, 4, g, 5) != NULL,
			   "order {1, 5, 2, 6, 8} breaks path {1, 2, 5} and the simulation catches it");
		}
	}
	/* Unicast: one flit, no split. */
	nf = wc_dstm_encode(&t, 7, &dests[3], 1, false, work, f, 8);
	ok(nf == 1 && f[0].node == 8 && f[0].c == 1 && f[0].out == 0,
	   "unicast 7 -> 8: one flit {8, C=1}");
	ok(wc_dstm_encode(&t, 7, (const u32[]){ 5, 5 }, 2, false, work, f, 8) == -EINVAL,
	   "duplicate destination rejected");
	ok(wc_dstm_encode(&t, 7, (const u32[]){ 5, 7 }, 2, false, work, f, 8) == -EINVAL,
	   "source among the destinations rejected");
	ok(wc_dstm_encode(&t, 7, (const u32[]){ 5, 9 }, 2, false, work, f, 8) == -EINVAL,
	   "destination out of range rejected");
	ok(wc_dstm_encode(&t, 7, dests, 4, false, work, f, 4) == -ENOSPC,
	   "too small an output buffer gives -ENOSPC");
}

/* Random trees of three producers, random sources and destination sets. */
static void test_random(void)
{
	u32 round, runs = 0, bad = 0, badcount = 0;
	const char *why = NULL;

	for (round = 0; round < 60; round++) {
		struct wc_sptree trees[2], *use;
		struct wc_dstm d;
		struct wc_dstm_spec sp;
		struct table tb;
		u32 k = 3 + rnd(8), m = 3 + rnd(8), n = k * m, trial, kind = round % 3;
		u32 *dests = malloc(n * sizeof(*dests)), *work;
		struct wc_dstm_flit *f = malloc(WC_DSTM_MAX_FLITS(n) * sizeof(*f));
		struct wc_topo t;
		u32 dims[2] = { k, m };

		wc_topo_init(&t, WC_TOPO_TORUS, 2, dims, NULL);
		work = malloc(WC_DSTM_WORK_WORDS(n) * sizeof(*work));
		if (kind == 0) {
			wc_dstm_spec_dstm1(&sp, k, m, rnd(n));
			if (round % 2)
				wc_dstm_spec_dstm2(&sp, k, m, rnd(n));
			wc_dstm_build(&d, &sp, NULL);
			use = &d.tree[round % 2];
		} else if (kind == 1) {
			u32 *order = malloc(2 * n * sizeof(*order));

			wc_rt_random_order(order, 2 * n, round);
			wc_rt_torus_trees(&t, order, 2 * n, rnd(n), trees);
			free(order);
			use = &trees[round % 2];
		} else {
			wc_sptree_bfs(&trees[0], &t, rnd(n));
			use = &trees[0];
		}
		table_from_tree(&tb, use);
		for (trial = 0; trial < 40; trial++) {
			u32 src = rnd(n), nd = 0, v, splits = 0, i;
			u8 *in = calloc(n, 1);
			bool rev = trial & 1;
			int nf;

			/* Sizes from 1 to all: sparse and dense sets. */
			for (v = 0; v < n; v++)
				if (v != src && rnd(100) < (trial < 20 ? 10 : 70))
					in[v] = 1;
			if (trial == 39)
				memset(in, 1, n);	/* broadcast */
			in[src] = 0;
			for (v = 0; v < n; v++)
				if (in[v])
					dests[nd++] = v;
			if (!nd)
				dests[nd++] = (src + 1) % n;
			nf = wc_dstm_encode(&tb.t, src, dests, nd, rev, work, f,
					    WC_DSTM_MAX_FLITS(nd));
			runs++;
			if (nf < 0) {
				bad++;
				free(in);
				continue;
			}
			{
				const char *w = simulate(&tb.t, src, dests, nd, f, (u32)nf);

				if (w && !bad++)
					why = w;
			}
			/* One flit per destination and per non-destination split node. */
			memset(in, 0, n);
			for (i = 0; i < nd; i++)
				in[dests[i]] = 1;
			for (v = 0; v < n; v++) {
				u32 branches = 0, c, j;

				if (in[v])
					continue;
				for (c = 0; c < tb.e[v].nchildren; c++)
					for (j = 0; j < nd; j++)
						if (tb.e[v].child_lo[c] <= tb.e[dests[j]].pn &&
						    tb.e[dests[j]].pn <= tb.e[v].child_hi[c]) {
							branches++;
							break;
						}
				splits += branches >= 2;
			}
			if ((u32)nf != nd + splits)
				badcount++;
			free(in);
		}
		table_free(&tb);
		if (kind == 0) {
			wc_dstm_free(&d);
		} else if (kind == 1) {
			wc_sptree_free(&trees[0]);
			wc_sptree_free(&trees[1]);
		} else {
			wc_sptree_free(&trees[0]);
		}
		free(dests);
		free(work);
		free(f);
	}
	ok(!bad, "%u random multicasts (DSTM, R-T and BFS trees; both child orders): every router's first flit carries its reservation%s%s",
	   runs, why ? ": " : "", why ? why : "");
	ok(!badcount, "flit count = destinations + non-destination split routers");
}

int main(void)
{
	test_fig2();
	test_random();
	return done_testing();
}
