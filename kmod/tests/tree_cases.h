/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tree multicast test cases (kmod/engine/tree_mcast.c), written once and
 * compiled twice, like engine_cases.h: into tests/unit/test_tree_mcast.c
 * (ASan/UBSan) and kmod/tests/tree_kunit.c (KASAN, lockdep).
 *
 *  - table validation: good tables on several topologies, and every kind
 *    of bad one refused with its reason;
 *  - routing against an independent reference: for random multicasts on
 *    two edge-disjoint trees built here from the proof of Theorem 4.1 (not
 *    with the daemon's library), the links a worm used are exactly the tree
 *    paths from the source to the least common ancestor and down to every
 *    destination, each destination consumes once and nobody else does;
 *  - zero-load latency of a tree multicast (asynchronous replication with
 *    buffers that hold a whole worm, link delay 1), derived in
 *    Documentation/multicast.rst:
 *        startup + d_X (router_delay + 1) + (L - 1) [+ router_delay]
 *    with d_X the links from the source through the LCA to X, L the flits
 *    injected (header flits counted: one per destination and per splitting
 *    router) and the last term when X also forwards;
 *  - unicast takes the shorter of the two tree paths;
 *  - random mixed traffic, lock-step and asynchronous, delivered exactly
 *    once with no deadlock and no routing error; SPAM likewise on a mesh.
 *
 * The includer defines CASE_CTX, CASE_CHECK, CASE_EQ, CASE_REQUIRE and
 * includes engine_cases.h first.
 */
#ifndef WC_TREE_CASES_H
#define WC_TREE_CASES_H

#include <linux/wormcast.h>

#include "tree_mcast.h"

/*
 * Checks that also fold into a verdict (KUnit's expectations are
 * statements, not expressions).
 */
#define TREE_CHECK(ctx, good, cond, ...)				\
	do {								\
		bool ok__ = (cond);					\
		CASE_CHECK(ctx, ok__, __VA_ARGS__);			\
		(good) &= ok__;						\
	} while (0)
#define TREE_EQ(ctx, good, got, want, ...)				\
	do {								\
		s64 got__ = (s64)(got), want__ = (s64)(want);		\
		CASE_EQ(ctx, got__, want__, __VA_ARGS__);		\
		(good) &= got__ == want__;				\
	} while (0)

/* ------------------------------------------------------------ tables */

struct case_tables {
	struct wc_topo t;
	struct wormcast_trees *h;
	size_t len;
	const u32 (*fail)[2];	/* links failed in the engine for traffic */
	u32 nfail;
	bool has_down;		/* node @down failed in the engine: traffic */
	u32 down;		/* neither comes from it nor goes to it */
};

/*
 * Parent ports of the tree on the links marked in @edge (by (node, port),
 * both directions), by breadth-first search from @root.  Returns the
 * nodes reached.
 */
static u32 case_orient(const struct wc_topo *t, const u8 *edge, u32 root,
		       u8 *pp, u32 *queue)
{
	u32 head = 0, tail = 0, v;

	for (v = 0; v < t->nnodes; v++)
		pp[v] = WORMCAST_NO_PORT - 1;	/* not reached */
	pp[root] = WORMCAST_NO_PORT;
	queue[tail++] = root;
	while (head < tail) {
		u32 x = queue[head++], p;

		for (p = 0; p < t->nports; p++) {
			u32 u = wc_topo_neighbor(t, x, p);

			if (u == WC_NO_NODE || !edge[x * t->nports + p] ||
			    pp[u] != WORMCAST_NO_PORT - 1)
				continue;
			pp[u] = (u8)wc_topo_reverse_port(t, x, p);
			queue[tail++] = u;
		}
	}
	return tail;
}

static void case_mark(const struct wc_topo *t, u8 *edge, u32 x0, u32 y0,
		      u32 x1, u32 y1)
{
	u32 a[2] = { x0, y0 }, b[2] = { x1, y1 };
	u32 na = wc_topo_node(t, a), nb = wc_topo_node(t, b);
	u32 p = wc_topo_port_to(t, na, nb);

	edge[na * t->nports + p] = 1;
	edge[nb * t->nports + wc_topo_reverse_port(t, na, p)] = 1;
}

/*
 * The two trees of Theorem 4.1's proof on a K x M torus, from its Table 1:
 * T1 by (+x, -y) from R1 = (x1, y1), T2 by (-y, +x) from R2 = (x2, y2).
 */
static struct case_tables *case_dstm_tables(CASE_CTX *ctx, u32 k, u32 m,
					    u32 x1, u32 y1, u32 x2, u32 y2)
{
	struct case_tables *ct = wc_zalloc(sizeof(*ct));
	u32 dims[2] = { k, m }, i, j, n, tr;
	u8 *edge[2];
	u32 *queue;

	CASE_REQUIRE(ctx, ct, "tables allocated");
	CASE_REQUIRE(ctx, !wc_topo_init(&ct->t, WC_TOPO_TORUS, 2, dims, NULL),
		     "%ux%u torus", k, m);
	n = ct->t.nnodes;
	ct->len = sizeof(*ct->h) + 2 * n;
	ct->h = wc_zalloc(ct->len);
	edge[0] = wc_zalloc(n * ct->t.nports);
	edge[1] = wc_zalloc(n * ct->t.nports);
	queue = wc_calloc(n, sizeof(u32));
	CASE_REQUIRE(ctx, ct->h && edge[0] && edge[1] && queue, "room");
	for (i = 0; i < k; i++) {
		for (j = 0; j < m; j++) {
			/* T1: H_{*,y1} - H_{x1-,y1}; V - V_{x2,*} - V_{*,y1};
			 * H_{x2-,*} - H_{x2-,y1}
			 */
			if (j == y1 && i != (x1 + k - 1) % k)
				case_mark(&ct->t, edge[0], i, j, (i + 1) % k, j);
			if (i != x2 && j != y1)
				case_mark(&ct->t, edge[0], i, j, i, (j + 1) % m);
			if (i == (x2 + k - 1) % k && j != y1)
				case_mark(&ct->t, edge[0], i, j, (i + 1) % k, j);
			/* T2: V_{x2,*} - V_{x2,y2}; H - H_{x2-,*} - H_{*,y1};
			 * V_{*,y1} - V_{x2,y1}
			 */
			if (i == x2 && j != y2)
				case_mark(&ct->t, edge[1], i, j, i, (j + 1) % m);
			if (i != (x2 + k - 1) % k && j != y1)
				case_mark(&ct->t, edge[1], i, j, (i + 1) % k, j);
			if (j == y1 && i != x2)
				case_mark(&ct->t, edge[1], i, j, i, (j + 1) % m);
		}
	}
	ct->h->scheme = WORMCAST_MCAST_DSTM1;
	ct->h->nnodes = n;
	ct->h->ntrees = 2;
	ct->h->root[0] = wc_topo_node(&ct->t, (u32[]){ x1, y1 });
	ct->h->root[1] = wc_topo_node(&ct->t, (u32[]){ x2, y2 });
	for (tr = 0; tr < 2; tr++)
		CASE_EQ(ctx, case_orient(&ct->t, edge[tr], ct->h->root[tr],
					 ct->h->parent_port + tr * n, queue),
			n, "%ux%u: tree %u of the proof spans", k, m, tr + 1);
	wc_free(edge[0]);
	wc_free(edge[1]);
	wc_free(queue);
	return ct;
}

/* One breadth-first spanning tree (SPAM) of any topology, from @root. */
static struct case_tables *case_bfs_tables(CASE_CTX *ctx, u32 kind, u32 ndims,
					   const u32 *dims, u32 root)
{
	struct case_tables *ct = wc_zalloc(sizeof(*ct));
	u8 *edge;
	u32 *queue, n;

	CASE_REQUIRE(ctx, ct, "tables allocated");
	CASE_REQUIRE(ctx, !wc_topo_init(&ct->t, kind, ndims, dims, NULL),
		     "topology");
	n = ct->t.nnodes;
	ct->len = sizeof(*ct->h) + n;
	ct->h = wc_zalloc(ct->len);
	edge = wc_zalloc(n * ct->t.nports);
	queue = wc_calloc(n, sizeof(u32));
	CASE_REQUIRE(ctx, ct->h && edge && queue, "room");
	memset(edge, 1, n * ct->t.nports);
	ct->h->scheme = WORMCAST_MCAST_SPAM;
	ct->h->nnodes = n;
	ct->h->ntrees = 1;
	ct->h->root[0] = root;
	CASE_EQ(ctx, case_orient(&ct->t, edge, root, ct->h->parent_port, queue),
		n, "BFS tree spans");
	wc_free(edge);
	wc_free(queue);
	return ct;
}

static void case_tables_free(struct case_tables *ct)
{
	wc_free(ct->h);
	wc_free(ct);
}

static void case_tree_tables_good(CASE_CTX *ctx)
{
	static const u32 sizes[][4] = {
		{ 4, 4, 1, 2 }, { 5, 5, 3, 1 }, { 8, 8, 0, 4 }, { 6, 4, 2, 3 },
		{ 16, 16, 7, 9 },
	};
	struct wc_tree_set s;
	const char *why = NULL;
	u32 i;

	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		struct case_tables *ct = case_dstm_tables(ctx, sizes[i][0],
							  sizes[i][1], 0, 0,
							  sizes[i][2],
							  sizes[i][3]);

		CASE_EQ(ctx, wc_tree_set_build(&s, &ct->t, ct->h, ct->len, &why),
			0, "%ux%u: the proof's trees are accepted (%s)",
			sizes[i][0], sizes[i][1], why ?: "");
		CASE_EQ(ctx, s.ntrees, 2, "two trees");
		wc_tree_set_free(&s);
		case_tables_free(ct);
	}
	{
		static const struct { u32 kind, ndims, dims[3]; } spam[] = {
			{ WC_TOPO_MESH, 2, { 4, 4 } },
			{ WC_TOPO_MESH, 1, { 7 } },
			{ WC_TOPO_TORUS, 2, { 5, 3 } },
			{ WC_TOPO_HYPERCUBE, 1, { 4 } },
			{ WC_TOPO_TORUS, 3, { 3, 3, 3 } },	/* 6 ports */
			{ WC_TOPO_HYPERCUBE, 1, { 8 } },	/* 8 ports */
			{ WC_TOPO_STAR, 1, { 5 } },		/* 4 ports */
		};

		for (i = 0; i < ARRAY_SIZE(spam); i++) {
			struct case_tables *ct = case_bfs_tables(ctx, spam[i].kind,
								 spam[i].ndims,
								 spam[i].dims, 1);

			CASE_EQ(ctx, wc_tree_set_build(&s, &ct->t, ct->h,
						       ct->len, &why),
				0, "SPAM BFS tree %u accepted", i);
			wc_tree_set_free(&s);
			case_tables_free(ct);
		}
	}
}

static bool case_has(const char *why, const char *part)
{
	return why && strstr(why, part);
}

static void case_bad_result(CASE_CTX *ctx, struct wc_tree_set *s, int err,
			    const char *why, const char *desc, const char *part)
{
	CASE_EQ(ctx, err, -EINVAL, "%s refused", desc);
	CASE_CHECK(ctx, case_has(why, part), "%s: reason \"%s\" names \"%s\"",
		   desc, why ?: "(none)", part);
	if (!err)
		wc_tree_set_free(s);
}

/*
 * Faulty links in a good 4x4 table: two good ones accepted (each tree cut
 * where it holds one), and each kind of bad entry refused with its reason.
 */
static void case_tree_tables_faults(CASE_CTX *ctx, struct case_tables *ct)
{
	const size_t fsz = sizeof(struct wormcast_trees_fault);
	struct wormcast_trees_fault fl[2], g[2];
	struct wormcast_trees *h = wc_zalloc(ct->len + 2 * fsz);
	u32 n = ct->t.nnodes, v0, v1, k, cut[2] = { 0, 0 };
	struct wc_tree_set s;
	const char *why;
	int err;

	CASE_REQUIRE(ctx, h, "room");
	/* a link of each tree: a non-root node's parent link */
	v0 = (ct->h->root[0] + 1) % n;
	v1 = (ct->h->root[1] + 1) % n;
	fl[0].node = v0;
	fl[0].port = ct->h->parent_port[v0];
	fl[1].node = v1;
	fl[1].port = ct->h->parent_port[n + v1];
#define FAULTS(nf, mutate, extra)					\
	do {								\
		u32 nf__ = (nf);					\
									\
		memcpy(h, ct->h, ct->len);				\
		h->nfaults = nf__;					\
		memcpy(g, fl, sizeof(g));				\
		mutate;							\
		memcpy((u8 *)h + ct->len, g, 2 * fsz);			\
		why = NULL;						\
		err = wc_tree_set_build(&s, &ct->t, h,			\
					ct->len + nf__ * fsz + (extra),	\
					&why);				\
	} while (0)
	FAULTS(2, (void)0, 0);
	CASE_EQ(ctx, err, 0, "a table with a faulty link in each tree (%s)",
		why ?: "");
	if (!err) {
		CASE_EQ(ctx, s.nfaults, 2, "two faulty links");
		for (k = 0; k < 2; k++) {
			u32 v, c = k ? v1 : v0;

			CASE_EQ(ctx, s.tree_faults[k], 1, "tree %u holds one", k);
			for (v = 0; s.comp[k] && v < n; v++)
				cut[k] += s.comp[k][v] == c;
		}
		/* below the cut link: the child's subtree, its own part */
		CASE_EQ(ctx, cut[0], ct->h->root[0] == v0 ? 0 :
			s.tree[0].e[v0].pn - s.tree[0].e[v0].lo + 1,
			"tree 0's part below the fault is the subtree");
		CASE_EQ(ctx, cut[1],
			s.tree[1].e[v1].pn - s.tree[1].e[v1].lo + 1,
			"tree 1's part below the fault is the subtree");
		wc_tree_set_free(&s);
	}
	FAULTS(1, g[0].node = n, 0);
	case_bad_result(ctx, &s, err, why, "faulty link's node", "node is out of range");
	FAULTS(1, g[0].port = ct->t.nports, 0);
	case_bad_result(ctx, &s, err, why, "faulty link's port", "port does not exist");
	FAULTS(2, g[1] = g[0], 0);
	case_bad_result(ctx, &s, err, why, "faulty link twice", "listed twice");
	/* the same link named from its other end */
	FAULTS(2, g[1].node = wc_topo_neighbor(&ct->t, g[0].node, g[0].port);
	       g[1].port = wc_topo_reverse_port(&ct->t, g[0].node, g[0].port),
	       0);
	case_bad_result(ctx, &s, err, why, "faulty link from both ends",
			"listed twice");
	FAULTS(2, (void)0, -1);
	case_bad_result(ctx, &s, err, why, "faulty links one byte short",
			"table size");
	/* tree 0 as a SPAM table listing its own link: refused */
	FAULTS(1, h->scheme = WORMCAST_MCAST_SPAM; h->ntrees = 1; h->root[1] = 0;
	       memcpy((u8 *)h + ct->len - n, g, fsz), -(int)n);
	case_bad_result(ctx, &s, err, why, "a SPAM tree link listed faulty",
			"link of the spam tree");
#undef FAULTS
	wc_free(h);
}

/* Each mutation of a good 4x4 table, and the reason it must get. */
static void case_tree_tables_bad(CASE_CTX *ctx)
{
	struct case_tables *ct = case_dstm_tables(ctx, 4, 4, 0, 0, 1, 2);
	struct wormcast_trees *h = wc_zalloc(ct->len + 1);
	u32 n = ct->t.nnodes, r0 = ct->h->root[0], v;
	struct wc_tree_set s;
	const char *why;
	int err;

	CASE_REQUIRE(ctx, h, "room");
#define BAD(desc, part, mutate, len_delta)				\
	do {								\
		memcpy(h, ct->h, ct->len);				\
		mutate;							\
		why = NULL;						\
		err = wc_tree_set_build(&s, &ct->t, h,			\
					ct->len + (len_delta), &why);	\
		case_bad_result(ctx, &s, err, why, desc, part);		\
	} while (0)

	BAD("truncated header", "shorter than its header", (void)0,
	    -(int)ct->len + 8);
	BAD("one byte too many", "table size", (void)0, 1);
	BAD("one byte short", "table size", (void)0, -1);
	BAD("unicast scheme", "unknown or tree-less", h->scheme = 0, 0);
	BAD("unknown scheme", "unknown or tree-less", h->scheme = 99, 0);
	BAD("node count", "node count", h->nnodes = n + 1, 0);
	BAD("SPAM with two trees", "wrong number of trees",
	    h->scheme = WORMCAST_MCAST_SPAM, 0);
	BAD("a fault counted, not there", "table size", h->nfaults = 1, 0);
	BAD("too many faults", "WORMCAST_TREES_MAX_FAULTS",
	    h->nfaults = WORMCAST_TREES_MAX_FAULTS + 1, 0);
	BAD("root out of range", "root out of range", h->root[1] = n, 0);
	BAD("root with a parent", "root has a parent port",
	    h->parent_port[r0] = 0, 0);
	v = (r0 + 5) % n;
	BAD("second root", "second root",
	    h->parent_port[v] = WORMCAST_NO_PORT, 0);
	BAD("port out of range", "does not exist",
	    h->parent_port[v] = (u8)ct->t.nports, 0);
	/* a cycle: a node and its parent (not the root) point at each other */
	{
		u32 p = wc_topo_neighbor(&ct->t, v, ct->h->parent_port[v]);
		u8 back;

		while (p == r0) {
			v = (v + 1) % n;
			p = v == r0 ? r0 :
			    wc_topo_neighbor(&ct->t, v, ct->h->parent_port[v]);
		}
		back = (u8)wc_topo_reverse_port(&ct->t, v, ct->h->parent_port[v]);
		BAD("cycle", "does not span", h->parent_port[p] = back, 0);
	}
	BAD("shared link", "share a link",
	    memcpy(h->parent_port + n, h->parent_port, n);
	    h->root[1] = r0, 0);
	wc_free(h);
	case_tree_tables_faults(ctx, ct);
	case_tables_free(ct);

	/* topology-level refusals */
	{
		u32 dims[2] = { 4, 4 };
		struct case_tables *m = case_bfs_tables(ctx, WC_TOPO_MESH, 2,
							dims, 0);
		u32 edge_node = 0;	/* (0, 0): no -x neighbour */

		for (v = 0; v < 4; v++)
			if (wc_topo_neighbor(&m->t, edge_node, v) == WC_NO_NODE)
				break;
		h = wc_zalloc(m->len);
		CASE_REQUIRE(ctx, h, "room");
		memcpy(h, m->h, m->len);
		h->root[0] = 5;
		h->parent_port[5] = WORMCAST_NO_PORT;
		h->parent_port[edge_node] = (u8)v;
		why = NULL;
		err = wc_tree_set_build(&s, &m->t, h, m->len, &why);
		CASE_CHECK(ctx, err == -EINVAL &&
			   case_has(why, "leads to no neighbour"),
			   "a port off the mesh's border refused (%s)",
			   why ?: "(none)");
		memcpy(h, m->h, m->len);
		h->scheme = WORMCAST_MCAST_DSTM1;
		why = NULL;
		CASE_CHECK(ctx, wc_tree_set_build(&s, &m->t, h, m->len, &why) ==
			   -EINVAL, "dstm-1 table on a mesh refused (%s)",
			   why ?: "(none)");
		wc_free(h);
		case_tables_free(m);
	}
	{
		u32 dims[1] = { WC_TREE_MAX_PORTS + 1 };
		struct wc_topo q;

		wc_topo_init(&q, WC_TOPO_HYPERCUBE, 1, dims, NULL);
		why = NULL;
		CASE_CHECK(ctx, wc_tree_scheme_check(WORMCAST_MCAST_SPAM, &q,
						     NULL, &why) == -EINVAL &&
			   case_has(why, "at most 8 ports"),
			   "9-port routers refused for trees (%s)",
			   why ?: "(none)");
	}
#undef BAD
}

/* ------------------------------------------------------------ routing */

/* Independent view of a tree: parents and levels from the parent ports. */
struct case_tree_ref {
	u32 *parent, *level;
	const u8 *pp;
};

static void case_ref_init(const struct case_tables *ct, u32 tree,
			  struct case_tree_ref *r)
{
	const struct wc_topo *t = &ct->t;
	u32 n = t->nnodes, v, changed = 1;

	r->pp = ct->h->parent_port + tree * n;
	r->parent = wc_calloc(n, sizeof(u32));
	r->level = wc_calloc(n, sizeof(u32));
	for (v = 0; v < n; v++) {
		r->parent[v] = r->pp[v] == WORMCAST_NO_PORT ? WC_NO_NODE :
			       wc_topo_neighbor(t, v, r->pp[v]);
		r->level[v] = r->parent[v] == WC_NO_NODE ? 0 : U32_MAX;
	}
	while (changed) {
		changed = 0;
		for (v = 0; v < n; v++)
			if (r->level[v] == U32_MAX &&
			    r->level[r->parent[v]] != U32_MAX) {
				r->level[v] = r->level[r->parent[v]] + 1;
				changed = 1;
			}
	}
}

static void case_ref_free(struct case_tree_ref *r)
{
	wc_free(r->parent);
	wc_free(r->level);
}

static bool case_is_anc(const struct case_tree_ref *r, u32 a, u32 x)
{
	while (x != WC_NO_NODE && x != a)
		x = r->parent[x];
	return x == a;
}

static u32 case_lca(const struct case_tree_ref *r, u32 a, u32 b)
{
	while (!case_is_anc(r, a, b))
		a = r->parent[a];
	return a;
}

/* Mark the directed links from @a up to @top (an ancestor), or down. */
static void case_mark_up(const struct wc_topo *t, const struct case_tree_ref *r,
			 u32 a, u32 top, u8 *used)
{
	for (; a != top; a = r->parent[a])
		used[a * t->nports + r->pp[a]] = 1;
}

static void case_mark_down(const struct wc_topo *t,
			   const struct case_tree_ref *r, u32 top, u32 x,
			   u8 *used)
{
	for (; x != top; x = r->parent[x])
		used[r->parent[x] * t->nports +
		     wc_topo_reverse_port(t, x, r->pp[x])] = 1;
}

/* Header flits of the multicast inside the subtree of @v (isdst: 1 or 2). */
static u32 case_flits_below(const struct wc_topo *t,
			    const struct case_tree_ref *r, const u8 *isdst,
			    const u8 *used, u32 v)
{
	u32 c, nbr = !!isdst[v], flits = 0;

	for (c = 0; c < t->nnodes; c++) {
		if (r->parent[c] != v ||
		    !used[v * t->nports + wc_topo_reverse_port(t, c, r->pp[c])])
			continue;
		nbr++;
		flits += case_flits_below(t, r, isdst, used, c);
	}
	return flits + (isdst[v] || nbr >= 2);
}

/*
 * Zero-load latency at @x, by the engine model's timing rules applied
 * along the worm's path (Documentation/multicast.rst, "Zero-load
 * latency"): with buffers that never fill, flit i of a channel is sent at
 * max(routing time, arrival of the upstream flit it copies, previous flit
 * + 1) and arrives one cycle later; a router decides rd cycles after its
 * first flit arrived (0 for a consumption-only decision); a channel that
 * carries h header flits copies the upstream flits from n_up - h on.
 */
static u64 case_ref_latency(const struct wc_topo *t,
			    const struct case_tree_ref *r, u32 src, u32 lca,
			    u32 x, const u8 *isdst, const u8 *used, u32 hflits,
			    u32 len, u32 rd, u32 startup)
{
	u32 np = 0, top = case_lca(r, src, lca), v, j, nd = 0, n_in = hflits;
	u32 *path = wc_calloc(2 * (size_t)t->nnodes, sizeof(u32));
	u32 *down = path + t->nnodes, i, c;
	u64 *ready = wc_calloc(2 * (size_t)len, sizeof(u64));
	u64 *next = ready + len, tsend = 0;
	bool fwd = false;

	if (!path || !ready)
		goto out;
	for (v = src; v != top; v = r->parent[v])
		path[np++] = v;
	for (v = x; v != top; v = r->parent[v])
		down[nd++] = v;
	path[np++] = top;
	while (nd)
		path[np++] = down[--nd];
	for (i = 0; i < len; i++)
		ready[i] = startup + i;
	for (j = 0; j + 1 < np; j++) {
		u32 n_out = n_in, off, rt = (u32)(ready[0] + rd);

		/* at or below the LCA, a child takes its subtree's flits */
		if (case_is_anc(r, lca, path[j + 1]) && case_is_anc(r, path[j], path[j + 1]))
			n_out = case_flits_below(t, r, isdst, used, path[j + 1]);
		off = n_in - n_out;
		for (i = 0; i + off < len; i++) {
			u64 s = ready[off + i] > rt ? ready[off + i] : rt;

			if (i && next[i - 1] > s)	/* next[] holds arrivals */
				s = next[i - 1];
			next[i] = s + 1;
		}
		len -= off;
		memcpy(ready, next, len * sizeof(u64));
		n_in = n_out;
	}
	for (c = 0; c < t->nnodes; c++)
		if (r->parent[c] == x &&
		    used[x * t->nports + wc_topo_reverse_port(t, c, r->pp[c])])
			fwd = true;
	/* consumption: every header flit left is dropped */
	for (i = 0; i + n_in < len; i++) {
		u64 rt = ready[0] + (fwd ? rd : 0);
		u64 s = ready[n_in + i] > rt ? ready[n_in + i] : rt;

		if (i && tsend + 1 > s)
			s = tsend + 1;
		tsend = s;
	}
out:
	wc_free(path);
	wc_free(ready);
	return tsend;
}

/*
 * One multicast at zero load on tree @tree's reference: links used,
 * deliveries and latencies against the reference and the formula.
 * Returns false on the first mismatch (already reported).
 */
static bool case_tree_one(CASE_CTX *ctx, const struct case_tables *ct,
			  const struct wc_tree_set *s, u32 repl, u32 src,
			  const u32 *dsts, u32 nd, u32 rd, u32 startup,
			  u64 seed_note)
{
	const struct wc_topo *t = &ct->t;
	struct wc_engine_params p;
	struct case_tree_ref refs[2], *r;
	struct case_rec *rec;
	struct wc_engine *e;
	struct wc_msg *m;
	u32 *hdr;
	u32 n = t->nnodes, i, v, lca, hflits = 0, tree, bytes = 96;
	u8 *want, *isdst;
	bool good = true;

	wc_engine_params_default(&p, t);
	p.replication = repl;
	p.router_delay = rd;
	p.startup = startup;
	/*
	 * Asynchronous replication decouples the branches only when a
	 * router can buffer what one branch has not taken yet (input-buffer
	 * replication): give it room for the whole worm.  Lock step keeps
	 * the papers' one-flit buffers.
	 */
	if (repl == WC_REPL_ASYNC)
		p.buf_flits = WC_MAX_BUF_FLITS;
	rec = case_rec_new(ctx, n);
	e = case_engine_new(ctx, rec, t, &p, &wc_algo_tree);
	m = wc_zalloc(wc_msg_size(e));
	CASE_REQUIRE(ctx, m, "message");
	wc_msg_init(e, m, src, bytes, NULL);
	for (i = 0; i < nd; i++)
		wc_msg_add_dst(e, m, dsts[i]);
	m->hdr_max = wc_algo_hdr_words(&wc_algo_tree, m->ndsts);
	hdr = wc_calloc(m->hdr_max, sizeof(u32));
	CASE_REQUIRE(ctx, hdr, "header room");
	m->hdr = hdr;
	wc_engine_submit(e, m);
	/* The tree it took: the first header word says. */
	wc_engine_run(e, 1 + startup, s);
	tree = wc_th_tree(hdr[0]);
	for (i = 0; i < s->ntrees; i++)
		case_ref_init(ct, i, &refs[i]);
	r = &refs[tree];
	if (nd == 1 && s->ntrees == 2) {
		u32 d0 = refs[0].level[src] + refs[0].level[dsts[0]] -
			 2 * refs[0].level[case_lca(&refs[0], src, dsts[0])];
		u32 d1 = refs[1].level[src] + refs[1].level[dsts[0]] -
			 2 * refs[1].level[case_lca(&refs[1], src, dsts[0])];

		TREE_CHECK(ctx, good, (d1 < d0) == (tree == 1),
			   "unicast %u->%u took the shorter tree (%u vs %u)",
			   src, dsts[0], d0, d1);
	}
	wc_engine_run(e, 1000000, s);
	TREE_EQ(ctx, good, rec->done, 1, "message %llu done",
		(unsigned long long)seed_note);
	TREE_EQ(ctx, good, rec->route_errors, 0, "no routing error");

	/* reference: links, header flits */
	want = wc_zalloc(n * t->nports);
	isdst = wc_zalloc(n);
	CASE_REQUIRE(ctx, want && isdst, "room");
	lca = dsts[0];
	for (i = 0; i < nd; i++) {
		isdst[dsts[i]] = 1;
		lca = case_lca(r, lca, dsts[i]);
	}
	{
		u32 top = case_lca(r, src, lca);

		case_mark_up(t, r, src, top, want);
		case_mark_down(t, r, top, lca, want);
		for (i = 0; i < nd; i++)
			case_mark_down(t, r, lca, dsts[i], want);
	}
	for (v = 0; v < n; v++) {
		u32 branches = isdst[v], c;

		if (!case_is_anc(r, lca, v))
			continue;
		for (c = 0; c < n; c++) {
			if (r->parent[c] != v)
				continue;
			for (i = 0; i < nd; i++)
				if (case_is_anc(r, c, dsts[i]))
					break;
			branches += i < nd;
		}
		hflits += isdst[v] || branches >= 2;
	}
	for (v = 0; v < n && good; v++) {
		u32 port;

		for (port = 0; port < t->nports; port++) {
			bool used = wc_engine_channel_busy(e, v, port) > 0;

			if (used != want[v * t->nports + port]) {
				TREE_CHECK(ctx, good, false,
					   "msg %llu: link %u.p%u %s",
					   (unsigned long long)seed_note,
					   v, port,
					   used ? "used off the tree paths" :
					   "of the tree paths unused");
				break;
			}
		}
	}
	TREE_EQ(ctx, good, rec->nd, nd, "msg %llu: one delivery per destination",
		(unsigned long long)seed_note);
	for (i = 0; i < rec->nd && good; i++) {
		u32 x = rec->d[i].node;
		u64 want_lat;

		TREE_CHECK(ctx, good, isdst[x] == 1,
			   "delivered at %u, a destination, once", x);
		if (!good)
			break;
		want_lat = case_ref_latency(t, r, src, lca, x, isdst, want, hflits,
					    hflits + DIV_ROUND_UP(bytes, p.flit_bytes) + 1,
					    rd, startup);
		isdst[x] = 2;	/* delivered; a second delivery fails above */
		if (repl == WC_REPL_ASYNC)
			TREE_EQ(ctx, good, rec->d[i].latency, want_lat,
				"msg %llu: zero-load latency at %u (%u header flits)",
				(unsigned long long)seed_note, x, hflits);
		else
			TREE_CHECK(ctx, good, rec->d[i].latency >= want_lat,
				   "lock step no faster than asynchronous");
	}
	for (i = 0; i < s->ntrees; i++)
		case_ref_free(&refs[i]);
	wc_free(want);
	wc_free(isdst);
	wc_free(hdr);		/* the recorder freed m */
	wc_engine_destroy(e);
	case_rec_free(rec);
	return good;
}

/* Random multicasts, one at a time, on the proof's trees of an 8x8 torus. */
static void case_tree_reference(CASE_CTX *ctx)
{
	struct case_tables *ct = case_dstm_tables(ctx, 8, 8, 0, 0, 4, 4);
	struct wc_tree_set s;
	u64 st = 0x1234567;
	u32 k, passed = 0, total = 0, repl;

	CASE_REQUIRE(ctx, !wc_tree_set_build(&s, &ct->t, ct->h, ct->len, NULL),
		     "tables build");
	for (k = 0; k < 120; k++) {
		u32 dsts[16], nd = (k % 5 == 0) ? 1 : 2 + case_rnd(&st) % 12;
		u32 src = case_rnd(&st) % 64, i, j;

		for (i = 0; i < nd; i++) {
			do {
				dsts[i] = case_rnd(&st) % 64;
				for (j = 0; j < i && dsts[j] != dsts[i]; j++)
					;
			} while (dsts[i] == src || j < i);
		}
		total++;
		repl = k % 2 ? WC_REPL_ASYNC : WC_REPL_LOCKSTEP;
		passed += case_tree_one(ctx, ct, &s, repl, src, dsts, nd,
					1 + k % 3, k % 7, k);
	}
	CASE_EQ(ctx, passed, total, "every multicast matched the reference");
	wc_tree_set_free(&s);
	case_tables_free(ct);
}

/* Many messages at once: exactly-once delivery, no deadlock. */
/*
 * Random traffic on @ct's trees: mostly unicast, a few messages at a time
 * (light), or every node multicasting at once, two messages in flight per
 * source (heavy: where worms share links, as they did on two VCs).
 */
static void case_tree_traffic_on(CASE_CTX *ctx, struct case_tables *ct,
				 u32 repl, bool heavy, const char *what)
{
	const struct wc_topo *t = &ct->t;
	struct wc_engine_params p;
	struct wc_tree_set s;
	struct case_rec *rec;
	struct wc_engine *e;
	u64 st = 99 + repl, expected = 0;
	u32 n = t->nnodes, sent = 0, i, round, max_backlog = heavy ? 3 : 1;
	struct wc_msg **all = wc_calloc(600, sizeof(*all));
	u32 *count;

	CASE_REQUIRE(ctx, !wc_tree_set_build(&s, t, ct->h, ct->len, NULL),
		     "%s: tables build", what);
	wc_engine_params_default(&p, t);
	p.replication = repl;
	p.watchdog = 5000;
	/*
	 * Asynchronous (input-buffer) replication needs buffers that hold a
	 * whole worm: with one-flit buffers a branch blocked downstream
	 * holds its siblings as lock step does, but without lock step's
	 * coordination, and tree worms can deadlock (Documentation/
	 * multicast.rst).  Lock step keeps the papers' one-flit buffers.
	 */
	if (repl == WC_REPL_ASYNC)
		p.buf_flits = WC_MAX_BUF_FLITS;
	rec = case_rec_new(ctx, 60000);
	rec->free_msgs = false;
	e = case_engine_new(ctx, rec, t, &p, &wc_algo_tree);
	for (i = 0; i < ct->nfail; i++)
		CASE_EQ(ctx, wc_engine_fault_link(e, ct->fail[i][0],
						  ct->fail[i][1], true, NULL),
			0, "%s: link %u-%u fails", what, ct->fail[i][0],
			ct->fail[i][1]);
	if (ct->has_down)
		CASE_EQ(ctx, wc_engine_fault_node(e, ct->down, true, NULL), 0,
			"%s: node %u fails", what, ct->down);
	count = wc_calloc((size_t)n * 600, sizeof(u32));
	CASE_REQUIRE(ctx, count && all, "room");
	for (round = 0; round < 30 && sent < 600; round++) {
		for (i = 0; i < n && sent < 600; i++) {
			struct wc_msg *m;
			u32 j, nd = 1;

			if (heavy || !(case_rnd(&st) % 4))
				nd = 2 + case_rnd(&st) % 10;
			if ((!heavy && case_rnd(&st) % 3) ||
			    wc_engine_backlog(e, i) > max_backlog ||
			    (ct->has_down && i == ct->down))
				continue;
			m = wc_zalloc(wc_msg_size(e));
			CASE_REQUIRE(ctx, m, "message");
			wc_msg_init(e, m, i, 1 + case_rnd(&st) % 300,
				    (void *)(uintptr_t)sent);
			for (j = 0; j < nd; j++) {
				u32 d = case_rnd(&st) % n;

				if (d != i && !(ct->has_down && d == ct->down))
					wc_msg_add_dst(e, m, d);
			}
			if (!m->ndsts) {
				wc_free(m);
				continue;
			}
			m->hdr_max = wc_algo_hdr_words(&wc_algo_tree, m->ndsts);
			m->hdr = wc_calloc(m->hdr_max, sizeof(u32));
			CASE_REQUIRE(ctx, m->hdr, "header");
			expected += m->ndsts;
			all[sent++] = m;
			wc_engine_submit(e, m);
		}
		wc_engine_run(e, heavy ? 20 : 200, &s);
	}
	wc_engine_run(e, 2000000, &s);
	CASE_EQ(ctx, rec->done, sent, "%s: every message done", what);
	CASE_EQ(ctx, rec->nd, expected, "%s: every destination delivered", what);
	CASE_EQ(ctx, rec->deadlocks, 0, "%s: no deadlock", what);
	CASE_EQ(ctx, rec->route_errors, 0, "%s: no routing error", what);
	{
		u32 dup = 0, stray = 0;

		case_count_deliveries(rec, count, n, &dup, &stray);
		CASE_EQ(ctx, dup, 0, "%s: no destination twice", what);
		CASE_EQ(ctx, stray, 0, "%s: no delivery off the group", what);
	}
	wc_engine_destroy(e);	/* after a failure, frees no message */
	case_msgs_free(all, sent);
	wc_free(all);
	wc_free(count);
	case_rec_free(rec);
	wc_tree_set_free(&s);
}

static void case_tree_traffic(CASE_CTX *ctx)
{
	struct case_tables *ct = case_dstm_tables(ctx, 8, 8, 0, 0, 4, 4);
	u32 dims[2] = { 6, 6 };
	struct case_tables *sp;

	case_tree_traffic_on(ctx, ct, WC_REPL_LOCKSTEP, false,
			     "dstm 8x8 lock step");
	case_tree_traffic_on(ctx, ct, WC_REPL_ASYNC, false,
			     "dstm 8x8 asynchronous");
	case_tables_free(ct);
	ct = case_dstm_tables(ctx, 4, 4, 0, 0, 2, 2);
	case_tree_traffic_on(ctx, ct, WC_REPL_LOCKSTEP, true,
			     "dstm 4x4 lock step, every node multicasting");
	case_tables_free(ct);
	sp = case_bfs_tables(ctx, WC_TOPO_MESH, 2, dims, 14);
	case_tree_traffic_on(ctx, sp, WC_REPL_LOCKSTEP, false,
			     "spam 6x6 mesh lock step");
	case_tree_traffic_on(ctx, sp, WC_REPL_ASYNC, false,
			     "spam 6x6 mesh asynchronous");
	case_tables_free(sp);
	dims[0] = 5;
	dims[1] = 4;
	sp = case_bfs_tables(ctx, WC_TOPO_TORUS, 2, dims, 0);
	case_tree_traffic_on(ctx, sp, WC_REPL_LOCKSTEP, false,
			     "spam 5x4 torus lock step");
	case_tree_traffic_on(ctx, sp, WC_REPL_LOCKSTEP, true,
			     "spam 5x4 torus lock step, every node multicasting");
	case_tables_free(sp);
	/* routers of more than the paper's 4 ports: O bits up to 8 */
	{
		u32 d3[3] = { 3, 3, 3 }, q[1] = { 6 };

		sp = case_bfs_tables(ctx, WC_TOPO_TORUS, 3, d3, 13);
		case_tree_traffic_on(ctx, sp, WC_REPL_LOCKSTEP, false,
				     "spam 3x3x3 torus (6 ports) lock step");
		case_tables_free(sp);
		sp = case_bfs_tables(ctx, WC_TOPO_HYPERCUBE, 1, q, 0);
		case_tree_traffic_on(ctx, sp, WC_REPL_LOCKSTEP, false,
				     "spam Q6 (6 ports) lock step");
		case_tables_free(sp);
	}
}

/*
 * Up-phase choices of SPAM at every (router, target) pair: how many take
 * one of the links @f (the routing decision of a header just injected at
 * the router, before any split).
 */
static u32 case_spam_choices_on(CASE_CTX *ctx, const struct wc_topo *t,
				const struct wc_tree_set *s, const u32 (*f)[2],
				u32 nf, u32 *routed)
{
	struct wc_route_ctx rc = { .topo = t, .tables = s,
				   .in_port = WC_PORT_INJ };
	u32 here, target, i, hits = 0;

	*routed = 0;
	for (here = 0; here < t->nnodes; here++) {
		for (target = 0; target < t->nnodes; target++) {
			struct wc_hdr hdr = { .nwords = 1, .nflits = 1 };
			struct wc_route_req req;
			u32 word = target, u;

			if (target == here)
				continue;
			hdr.words = &word;
			rc.node = here;
			rc.src = here;
			if (wc_algo_tree.route(&rc, &hdr, &req) || req.nout != 1)
				continue;
			(*routed)++;
			u = wc_topo_neighbor(t, here, req.out[0].port);
			for (i = 0; i < nf; i++)
				hits += (f[i][0] == here && f[i][1] == u) ||
					(f[i][1] == here && f[i][0] == u);
		}
	}
	return hits;
}

/*
 * Room for a spam case with faulty links on @ct: @edge, a flag per (node,
 * port), all set (alive); @queue, a node each; @h, the table with room
 * for @nfaults faulty links after it.
 */
static void case_spam_scratch(CASE_CTX *ctx, const struct case_tables *ct,
			      u32 nfaults, u8 **edge, u32 **queue,
			      struct wormcast_trees **h)
{
	u32 n = ct->t.nnodes;

	*edge = wc_zalloc(n * ct->t.nports);
	*queue = wc_calloc(n, sizeof(u32));
	*h = wc_zalloc(ct->len + nfaults * sizeof(struct wormcast_trees_fault));
	CASE_REQUIRE(ctx, *edge && *queue && *h, "room");
	memset(*edge, 1, n * ct->t.nports);
}

/* Traffic on @ct: lock step, lock step with every node sending, async. */
static void case_spam_traffic_modes(CASE_CTX *ctx, struct case_tables *ct,
				    const char *what)
{
	char name[96];

	snprintf(name, sizeof(name), "%s, lock step", what);
	case_tree_traffic_on(ctx, ct, WC_REPL_LOCKSTEP, false, name);
	snprintf(name, sizeof(name), "%s, every node multicasting", what);
	case_tree_traffic_on(ctx, ct, WC_REPL_LOCKSTEP, true, name);
	snprintf(name, sizeof(name), "%s, asynchronous", what);
	case_tree_traffic_on(ctx, ct, WC_REPL_ASYNC, false, name);
}

/*
 * SPAM with faulty links (Documentation/faults.rst, "SPAM around faulty
 * links"): on a 6x6 mesh four links fail, two of them at the BFS root's
 * router; the tree is a BFS tree of the other links (built here, not with
 * the daemon's library) and the table lists the four.  Accepted; the up
 * cross links never take a listed link (and without the list some would:
 * the skip matters); traffic with the four links failed in the engine is
 * delivered exactly once, nothing absorbed; a listed tree link refused.
 */
static void case_tree_spam_faults(CASE_CTX *ctx)
{
	static const u32 f[4][2] = { { 14, 15 }, { 14, 20 }, { 21, 27 },
				     { 0, 1 } };
	const size_t fsz = sizeof(struct wormcast_trees_fault);
	u32 dims[2] = { 6, 6 }, n, i, routed = 0, hits;
	struct case_tables *ct = case_bfs_tables(ctx, WC_TOPO_MESH, 2, dims,
						 14);
	struct wormcast_trees_fault fl;
	struct wormcast_trees *h;
	struct wc_tree_set s;
	const char *why;
	u32 *queue;
	u8 *edge;
	int err;

	n = ct->t.nnodes;
	case_spam_scratch(ctx, ct, 5, &edge, &queue, &h);
	for (i = 0; i < 4; i++) {
		u32 p = wc_topo_port_to(&ct->t, f[i][0], f[i][1]);

		CASE_REQUIRE(ctx, p != WC_NO_PORT, "link %u-%u", f[i][0],
			     f[i][1]);
		edge[f[i][0] * ct->t.nports + p] = 0;
		edge[f[i][1] * ct->t.nports +
		     wc_topo_reverse_port(&ct->t, f[i][0], p)] = 0;
		fl.node = f[i][0];
		fl.port = p;
		memcpy((u8 *)h + ct->len + i * fsz, &fl, fsz);
	}
	/* the BFS tree of the live links: the table's tree */
	CASE_EQ(ctx, case_orient(&ct->t, edge, 14, ct->h->parent_port, queue),
		n, "the BFS tree of the live links spans");
	memcpy(h, ct->h, ct->len);
	h->nfaults = 4;
	why = NULL;
	err = wc_tree_set_build(&s, &ct->t, h, ct->len + 4 * fsz, &why);
	CASE_EQ(ctx, err, 0, "spam table with 4 faulty links off the tree (%s)",
		why ?: "");
	if (!err) {
		CASE_EQ(ctx, s.nfaults, 4, "four faulty links");
		CASE_CHECK(ctx, s.link_flags, "their flags kept for the cross links");
		hits = case_spam_choices_on(ctx, &ct->t, &s, f, 4, &routed);
		CASE_EQ(ctx, routed, n * (n - 1), "every (router, target) routed");
		CASE_EQ(ctx, hits, 0, "no up-phase choice takes a listed link");
		wc_tree_set_free(&s);
	}
	/* the same tree, the links not listed: the cross links take some */
	h->nfaults = 0;
	err = wc_tree_set_build(&s, &ct->t, h, ct->len, &why);
	CASE_EQ(ctx, err, 0, "the same tree without the list");
	if (!err) {
		hits = case_spam_choices_on(ctx, &ct->t, &s, f, 4, &routed);
		CASE_CHECK(ctx, hits > 0,
			   "without the list %u up-phase choices take one (the skip matters)",
			   hits);
		wc_tree_set_free(&s);
	}
	/* traffic with the four links failed in the engine */
	h->nfaults = 4;
	wc_free(ct->h);
	ct->h = h;
	ct->len += 4 * fsz;
	ct->fail = f;
	ct->nfail = 4;
	case_spam_traffic_modes(ctx, ct, "spam 6x6 mesh, 4 faulty links");
	/* a tree link listed: refused */
	{
		u32 v = 15, p = ct->h->parent_port[v];

		fl.node = v;
		fl.port = p;
		memcpy((u8 *)ct->h + ct->len, &fl, fsz);
		ct->h->nfaults = 5;
		why = NULL;
		err = wc_tree_set_build(&s, &ct->t, ct->h, ct->len + fsz, &why);
		case_bad_result(ctx, &s, err, why, "a tree link listed under SPAM",
				"link of the spam tree");
		ct->h->nfaults = 4;
	}
	wc_free(edge);
	wc_free(queue);
	case_tables_free(ct);
}

/*
 * SPAM with a faulty node (Documentation/faults.rst, "SPAM around faulty
 * links and nodes"): on a 6x6 mesh node 15, a child of the root 14,
 * fails.  The tree is a BFS tree of the links that do not touch it, with
 * node 15 hanging from 14 as a leaf; its three other links are listed.
 * Accepted; no up-phase choice takes a listed link; traffic among the
 * other nodes with node 15 failed in the engine is delivered exactly
 * once, nothing absorbed: no worm transits the failed node.
 */
static void case_tree_spam_node_fault(CASE_CTX *ctx)
{
	static const u32 f[3][2] = { { 15, 16 }, { 15, 9 }, { 15, 21 } };
	const size_t fsz = sizeof(struct wormcast_trees_fault);
	u32 dims[2] = { 6, 6 }, n, i, p, routed = 0, hits;
	struct case_tables *ct = case_bfs_tables(ctx, WC_TOPO_MESH, 2, dims,
						 14);
	struct wormcast_trees_fault fl;
	struct wormcast_trees *h;
	struct wc_tree_set s;
	const char *why = NULL;
	u32 *queue;
	u8 *edge;
	int err;

	n = ct->t.nnodes;
	case_spam_scratch(ctx, ct, 3, &edge, &queue, &h);
	for (p = 0; p < ct->t.nports; p++) {
		u32 nb = wc_topo_neighbor(&ct->t, 15, p);

		if (nb == WC_NO_NODE)
			continue;
		edge[15 * ct->t.nports + p] = 0;
		edge[nb * ct->t.nports + wc_topo_reverse_port(&ct->t, 15, p)] = 0;
	}
	CASE_EQ(ctx, case_orient(&ct->t, edge, 14, ct->h->parent_port, queue),
		n - 1, "the BFS tree of the links off node 15 spans the others");
	ct->h->parent_port[15] = wc_topo_port_to(&ct->t, 15, 14);
	for (i = 0; i < 3; i++) {
		fl.node = f[i][0];
		fl.port = wc_topo_port_to(&ct->t, f[i][0], f[i][1]);
		memcpy((u8 *)h + ct->len + i * fsz, &fl, fsz);
	}
	memcpy(h, ct->h, ct->len);
	h->nfaults = 3;
	err = wc_tree_set_build(&s, &ct->t, h, ct->len + 3 * fsz, &why);
	CASE_EQ(ctx, err, 0, "spam table, node 15 a leaf, its 3 other links listed (%s)",
		why ?: "");
	if (!err) {
		hits = case_spam_choices_on(ctx, &ct->t, &s, f, 3, &routed);
		CASE_EQ(ctx, routed, n * (n - 1), "every (router, target) routed");
		CASE_EQ(ctx, hits, 0, "no up-phase choice takes a listed link");
		wc_tree_set_free(&s);
	}
	wc_free(ct->h);
	ct->h = h;
	ct->len += 3 * fsz;
	ct->has_down = true;
	ct->down = 15;
	case_spam_traffic_modes(ctx, ct, "spam 6x6 mesh, node 15 failed");
	wc_free(edge);
	wc_free(queue);
	case_tables_free(ct);
}

#endif /* WC_TREE_CASES_H */
