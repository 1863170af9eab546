// SPDX-License-Identifier: GPL-2.0
/*
 * Hamiltonian labelings and the label-monotone routing function R:
 * the star paper's S_4 labels exactly as printed, Hamiltonian paths on
 * every topology kind (all S_n for n <= 7), the mesh snake formula of the
 * path-based paper, and R reaching every destination with label-monotone
 * moves (and along shortest paths on meshes, as the paper states).
 *
 * Around faulty links (wc_labeling_init_faults()): for every single
 * faulty link of the 4x4 and 8x8 meshes and of S_4 and S_5, the labeling
 * is a Hamiltonian path whose consecutive nodes are joined by a live
 * link, checked here from the topology; the routers see the faulty link
 * absent from both ends; R still reaches every destination from every
 * node without it; the table built from it passes the kernel's
 * validation (wc_label_set_build()) and carries the link.
 */
#include "tap.h"
#include "testutil.h"
#include "labeling.h"
#include "labels_table.h"
#include "path_mcast.h"
#include "sptree.h"

/* Every label printed in Wang and Chu (Figure 3 text, Figure 5, Appendix). */
static const struct {
	const char *perm;
	u32 label;
} s4_printed[] = {
	{ "1234", 0 },  { "2134", 1 },  { "3124", 2 },  { "1324", 3 },
	{ "2314", 4 },  { "3214", 5 },  { "4213", 6 },  { "1243", 7 },
	{ "2143", 8 },  { "4123", 9 },  { "1423", 10 }, { "2413", 11 },
	{ "3412", 12 }, { "4312", 13 }, { "1342", 14 }, { "3142", 15 },
	{ "1432", 17 }, { "2431", 18 }, { "3421", 19 }, { "4321", 20 },
	{ "2341", 21 }, { "3241", 22 }, { "4231", 23 },
};

static void test_star4_printed(void)
{
	struct wc_topo t;
	struct wc_labeling lb;
	u32 n = 4, i, bad = 0;

	wc_topo_init(&t, WC_TOPO_STAR, 1, &n, NULL);
	ok(!wc_labeling_init(&lb, &t), "S_4 labeling builds");
	is_int(ARRAY_SIZE(s4_printed), 23, "the paper names 23 of 24 nodes");
	for (i = 0; i < ARRAY_SIZE(s4_printed); i++) {
		u32 got = lb.label[tu_star_node(s4_printed[i].perm)];

		if (got != s4_printed[i].label) {
			diag("%s: got %u, paper %u", s4_printed[i].perm, got,
			     s4_printed[i].label);
			bad++;
		}
	}
	is_int(bad, 0, "every printed S_4 label matches");
	is_int(lb.label[tu_star_node("1324")], 3, "l(1324) = 3");
	is_int(lb.label[tu_star_node("4213")], 6, "l(4213) = 6");
	is_int(lb.label[tu_star_node("4312")], 13, "l(4312) = 13");
	is_int(lb.label[tu_star_node("4231")], 23, "l(4231) = 23");
	/* The unnamed node is the only one left, between 15 and 17. */
	is_int(lb.label[tu_star_node("4132")], 16, "the unnamed node 4132 gets 16");
	wc_labeling_free(&lb);
}

/*
 * Check a labeling independently of wc_labeling_order_is_hamiltonian():
 * label/node maps are inverse bijections, consecutive labels adjacent.
 */
static bool check_hamiltonian(const struct wc_labeling *lb)
{
	const struct wc_topo *t = &lb->topo;
	u32 v, l, p;

	for (v = 0; v < t->nnodes; v++)
		if (lb->label[v] >= t->nnodes || lb->node[lb->label[v]] != v)
			return false;
	for (l = 1; l < t->nnodes; l++) {
		for (p = 0; p < t->nports; p++)
			if (wc_topo_neighbor(t, lb->node[l - 1], p) == lb->node[l])
				break;
		if (p == t->nports)
			return false;
	}
	return true;
}

/*
 * R from every node to every node (or @samples random pairs): each hop
 * goes to a neighbour, labels move strictly toward the destination and
 * never overshoot it.  If @minimal, every route is a shortest path.
 */
static void check_routing(const char *name, const struct wc_labeling *lb,
			  bool minimal, u32 samples)
{
	const struct wc_topo *t = &lb->topo;
	u32 n = t->nnodes, pairs, i, bad = 0, nonmin = 0;
	u64 seed = 12345;

	pairs = samples ? samples : n * n;
	for (i = 0; i < pairs; i++) {
		u32 a, b, cur, hops = 0, nbr[WC_MAX_PORTS];

		if (samples) {
			seed = seed * 6364136223846793005ull + 1442695040888963407ull;
			a = (u32)((seed >> 33) % n);
			b = (u32)((seed >> 13) % n);
		} else {
			a = i / n;
			b = i % n;
		}
		cur = a;
		while (cur != b && hops <= n) {
			u32 own = wc_labeling_router(lb, cur, nbr);
			u32 port = wc_lr_next_port(own, nbr, t->nports,
						   lb->label[b]);
			u32 nxt;

			if (port >= t->nports) {
				bad++;
				break;
			}
			nxt = wc_topo_neighbor(t, cur, port);
			if (nbr[port] != lb->label[nxt] ||
			    (lb->label[a] < lb->label[b] ?
			     !(own < nbr[port] && nbr[port] <= lb->label[b]) :
			     !(own > nbr[port] && nbr[port] >= lb->label[b]))) {
				bad++;
				break;
			}
			cur = nxt;
			hops++;
		}
		if (cur != b)
			bad++;
		else if (hops != wc_topo_distance(t, a, b))
			nonmin++;
		if (wc_lr_next_port(lb->label[b], nbr, 0, lb->label[b]) !=
		    WC_LR_ARRIVED)
			bad++;
	}
	is_int(bad, 0, "%s: R reaches the destination, label-monotone (%u pairs)",
	       name, pairs);
	if (minimal)
		is_int(nonmin, 0, "%s: R routes are shortest paths", name);
}

static void test_topology(const char *name, u32 kind, u32 ndims,
			  const u32 *dims, bool minimal, u32 samples)
{
	struct wc_topo t;
	struct wc_labeling lb;
	const char *why = NULL;

	if (wc_topo_init(&t, kind, ndims, dims, &why) ||
	    wc_labeling_init(&lb, &t)) {
		ok(0, "%s: labeling builds (%s)", name, why ? why : "");
		return;
	}
	ok(check_hamiltonian(&lb), "%s: labels trace a Hamiltonian path", name);
	ok(wc_labeling_order_is_hamiltonian(&t, lb.node, &why),
	   "%s: library checker agrees", name);
	check_routing(name, &lb, minimal, samples);
	wc_labeling_free(&lb);
}

static void test_snake_formula(void)
{
	struct wc_topo t;
	struct wc_labeling lb;
	u32 dims[2] = { 4, 3 }, x, y, c[2], bad = 0;

	/* Figure 2 of the path-based paper: a 3x4 mesh, n = 4 columns. */
	wc_topo_init(&t, WC_TOPO_MESH, 2, dims, NULL);
	wc_labeling_init(&lb, &t);
	for (y = 0; y < 3; y++) {
		for (x = 0; x < 4; x++) {
			u32 want = y % 2 ? y * 4 + 4 - x - 1 : y * 4 + x;

			c[0] = x;
			c[1] = y;
			if (lb.label[wc_topo_node(&t, c)] != want)
				bad++;
		}
	}
	is_int(bad, 0, "3x4 mesh: snake L = y*n + x (even y), y*n + n-x-1 (odd y)");
	c[0] = 3;
	c[1] = 1;
	is_int(lb.label[wc_topo_node(&t, c)], 4, "(3,1) is label 4");
	wc_labeling_free(&lb);
}

static void test_router_table(void)
{
	struct wc_topo t;
	struct wc_labeling lb;
	u32 dims[2] = { 4, 3 }, c[2] = { 0, 0 }, nbr[4], *tab, v, p, bad = 0;

	wc_topo_init(&t, WC_TOPO_MESH, 2, dims, NULL);
	wc_labeling_init(&lb, &t);
	is_int(wc_labeling_router(&lb, wc_topo_node(&t, c), nbr), 0,
	       "corner (0,0) stores its own label 0");
	ok(nbr[0] == 1 && nbr[1] == WC_LABEL_NONE && nbr[2] == 7 &&
	   nbr[3] == WC_LABEL_NONE, "... and +x: 1, -x: none, +y: 7, -y: none");
	tab = calloc(t.nnodes * t.nports, sizeof(u32));
	wc_labeling_nbr_table(&lb, tab);
	for (v = 0; v < t.nnodes; v++)
		for (p = 0; p < t.nports; p++) {
			u32 w = wc_topo_neighbor(&t, v, p);

			if (tab[v * t.nports + p] !=
			    (w == WC_NO_NODE ? WC_LABEL_NONE : lb.label[w]))
				bad++;
		}
	is_int(bad, 0, "per-router neighbour-label table matches the topology");
	free(tab);
	wc_labeling_free(&lb);
}

static void test_bad_orders(void)
{
	struct wc_topo t;
	struct wc_labeling lb;
	u32 dims[2] = { 3, 2 }, order[6] = { 0, 1, 2, 5, 4, 3 };
	const char *why = NULL;

	wc_topo_init(&t, WC_TOPO_MESH, 2, dims, NULL);
	is_int(wc_labeling_from_order(&lb, &t, order, &why), 0,
	       "explicit snake order accepted");
	wc_labeling_free(&lb);
	order[3] = 3;
	order[5] = 5;
	is_int(wc_labeling_from_order(&lb, &t, order, &why), -EINVAL,
	       "order with a jump rejected (%s)", why);
	order[5] = 3;
	is_int(wc_labeling_from_order(&lb, &t, order, &why), -EINVAL,
	       "order repeating a node rejected (%s)", why);
}

static void test_tree_step(void)
{
	/* Router labelled 6 in S_4: neighbours 11, 7, 5 (node 4213). */
	u32 nbr[3] = { 11, 7, 5 }, d1[5] = { 8, 10, 11, 14, 21 };
	u32 d2[2] = { 8, 10 }, bad[2] = { 10, 8 };
	struct wc_lr_tree_step st;

	is_int(wc_lr_tree_step(6, nbr, 3, d1, 5, true, &st), 0, "tree step ok");
	ok(st.split_port == 0 && st.nsplit == 3 && st.fwd_port == 1,
	   "at 6: max neighbour 11 is a destination: split 11,14,21 / 8,10");
	wc_lr_tree_step(6, nbr, 3, d2, 2, true, &st);
	ok(st.split_port == WC_LR_NO_PORT && st.fwd_port == 1,
	   "at 6 with 8,10 only: no split, R toward 8 goes to 7");
	is_int(wc_lr_tree_step(6, nbr, 3, bad, 2, true, &st), -EINVAL,
	       "unsorted destinations rejected");
	is_int(wc_lr_tree_step(6, nbr, 3, d1, 5, false, &st), -EINVAL,
	       "destinations on the wrong side rejected");
}

/* Is there a port from @a to @b other than the link @dead (both ends)? */
static bool live_between(const struct wc_topo *t, u32 a, u32 b, u32 dead)
{
	u32 p;

	for (p = 0; p < t->nports; p++)
		if (wc_topo_neighbor(t, a, p) == b && wc_link_id(t, a, p) != dead)
			return true;
	return false;
}

/*
 * R from every node to every node on @lb, without the link @dead: reaches
 * it in label-monotone moves, never over @dead.
 */
static bool routes_around(const struct wc_labeling *lb, u32 dead)
{
	const struct wc_topo *t = &lb->topo;
	u32 a, b, cur, next, hops, p;

	for (a = 0; a < t->nnodes; a++) {
		for (b = 0; b < t->nnodes; b++) {
			for (cur = a, hops = 0; cur != b; cur = next, hops++) {
				next = wc_labeling_next(lb, cur, b);
				if (next == WC_NO_NODE || hops > t->nnodes)
					return false;
				p = wc_topo_port_to(t, cur, next);
				if (wc_link_id(t, cur, p) == dead &&
				    !live_between(t, cur, next, dead))
					return false;
				if (lb->label[b] > lb->label[a] ?
				    lb->label[next] <= lb->label[cur] :
				    lb->label[next] >= lb->label[cur])
					return false;
			}
		}
	}
	return true;
}

/*
 * Every single faulty link of @t: the labeling avoids it (or, counted in
 * *@none, no candidate does) and everything built on it holds.  Returns
 * the links tried.
 */
static u32 single_faults(const char *name, const struct wc_topo *t, u32 *none,
			 bool route)
{
	u32 link, nlinks = 0, bad_path = 0, bad_router = 0, bad_table = 0;
	u32 bad_route = 0, a, pa, b, pb, l, crossed, unlisted;

	*none = 0;
	for (link = 0; link < wc_link_space(t); link++) {
		struct wc_labeling lb;
		struct wc_label_set s;
		u32 nbr[WC_MAX_PORTS];
		size_t len;
		void *tab;

		wc_link_ends(t, link, &a, &pa, &b, &pb);
		if (b == WC_NO_NODE || wc_link_id(t, a, pa) != link)
			continue;
		nlinks++;
		if (wc_labeling_init_faults(&lb, t, &link, 1, NULL, 0, &crossed)) {
			bad_path++;
			continue;
		}
		if (crossed) {
			diag("%s: no candidate avoids link %u-%u", name, a, b);
			(*none)++;
			wc_labeling_free(&lb);
			continue;
		}
		if (!wc_labeling_order_is_hamiltonian(t, lb.node, NULL))
			bad_path++;
		for (l = 1; l < t->nnodes; l++)
			if (!live_between(t, lb.node[l - 1], lb.node[l], link))
				bad_path++;
		wc_labeling_router(&lb, a, nbr);
		bad_router += nbr[pa] != WC_LABEL_NONE;
		wc_labeling_router(&lb, b, nbr);
		bad_router += nbr[pb] != WC_LABEL_NONE;
		if (route && !routes_around(&lb, link))
			bad_route++;
		wc_labeling_free(&lb);
		if (wc_labels_table_build_faults(t, WORMCAST_MCAST_DUAL_PATH,
						 &link, 1, NULL, 0, &tab, &len,
						 &crossed, &unlisted) ||
		    crossed ||
		    ((struct wormcast_labels *)tab)->nfaults != 1 ||
		    wc_label_set_build(&s, t, tab, len, NULL)) {
			bad_table++;
		} else {
			bad_table += s.nbr[a * t->nports + pa] != WC_LABEL_NONE ||
				     s.nbr[b * t->nports + pb] != WC_LABEL_NONE;
			wc_label_set_free(&s);
		}
		free(tab);
	}
	is_int(bad_path, 0, "%s: every faulty link, the path is Hamiltonian over live links", name);
	is_int(bad_router, 0, "%s: the faulty link is absent from both routers", name);
	if (route)
		is_int(bad_route, 0, "%s: R reaches every pair without the faulty link", name);
	is_int(bad_table, 0, "%s: the table carries the link and passes the kernel's checks", name);
	return nlinks;
}

static void test_faults(void)
{
	static const struct {
		const char *name;
		u32 kind, ndims, dims[2], links;
		bool route;
	} cases[] = {
		{ "mesh 4x4", WC_TOPO_MESH, 2, { 4, 4 }, 24, true },
		{ "mesh 8x8", WC_TOPO_MESH, 2, { 8, 8 }, 112, false },
		{ "star 4", WC_TOPO_STAR, 1, { 4 }, 36, true },
		{ "star 5", WC_TOPO_STAR, 1, { 5 }, 240, false },
	};
	u32 i, none;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct wc_topo t;
		u32 n;

		wc_topo_init(&t, cases[i].kind, cases[i].ndims, cases[i].dims, NULL);
		n = single_faults(cases[i].name, &t, &none, cases[i].route);
		is_int(n, cases[i].links, "%s: every link tried (%u)", cases[i].name,
		       cases[i].links);
		is_int(none, 0, "%s: every single faulty link avoided", cases[i].name);
	}
}

/*
 * Without faults the labeling is the canonical one; a faulty link the
 * canonical path avoids keeps it; links that no candidate can avoid (the
 * 1-D mesh has one path) stay present and are counted; a link id that is
 * no link is refused.
 */
static void test_faults_edges(void)
{
	struct wc_labeling lb, canon;
	struct wc_topo t;
	u32 dims[2] = { 4, 4 }, d1 = 5, link, crossed = 9, v, same = 1, unlisted;
	u32 nbr[WC_MAX_PORTS];
	void *tab;
	size_t len;

	wc_topo_init(&t, WC_TOPO_MESH, 2, dims, NULL);
	wc_labeling_init(&canon, &t);
	ok(!wc_labeling_init_faults(&lb, &t, NULL, 0, NULL, 0, &crossed) && !crossed &&
	   !lb.dead, "no faulty link: builds, nothing absent");
	for (v = 0; v < t.nnodes; v++)
		same &= lb.label[v] == canon.label[v];
	ok(same, "no faulty link: the canonical snake");
	wc_labeling_free(&lb);
	/* (1, 0) - (1, 1): the snake climbs at x = 3 and x = 0 only */
	link = wc_link_id(&t, 1, wc_topo_port_to(&t, 1, 5));
	ok(!wc_labeling_init_faults(&lb, &t, &link, 1, NULL, 0, &crossed) && !crossed,
	   "a link off the canonical path: avoided");
	for (v = 0, same = 1; v < t.nnodes; v++)
		same &= lb.label[v] == canon.label[v];
	ok(same, "a link off the canonical path: the canonical snake kept");
	wc_labeling_free(&lb);
	wc_labeling_free(&canon);
	link = wc_link_space(&t);
	ok(wc_labeling_init_faults(&lb, &t, &link, 1, NULL, 0, &crossed) == -EINVAL,
	   "a link id out of range refused");

	wc_topo_init(&t, WC_TOPO_MESH, 1, &d1, NULL);
	link = wc_link_id(&t, 2, wc_topo_port_to(&t, 2, 3));
	ok(!wc_labeling_init_faults(&lb, &t, &link, 1, NULL, 0, &crossed) && crossed == 1,
	   "mesh 5: the only path uses the faulty link: crossed 1");
	wc_labeling_router(&lb, 2, nbr);
	ok(nbr[wc_topo_port_to(&t, 2, 3)] == 3,
	   "mesh 5: a faulty link the path uses stays present");
	wc_labeling_free(&lb);
	ok(!wc_labels_table_build_faults(&t, WORMCAST_MCAST_DUAL_PATH, &link, 1,
					 NULL, 0, &tab, &len, &crossed,
					 &unlisted) && crossed == 1 &&
	   ((struct wormcast_labels *)tab)->nfaults == 0 &&
	   len == wc_labels_table_size(5, 0),
	   "mesh 5: the table leaves out the link its path uses");
	free(tab);
}

/* Hops of @order (label -> node) whose link is one of @links. */
static u32 hops_on(const struct wc_topo *t, const u32 *order, const u32 *links,
		   u32 nlinks)
{
	u32 l, i, c = 0, id;

	for (l = 1; l < t->nnodes; l++) {
		id = wc_link_id(t, order[l - 1],
				wc_topo_port_to(t, order[l - 1], order[l]));
		for (i = 0; i < nlinks && links[i] != id; i++)
			;
		c += i < nlinks;
	}
	return c;
}

/*
 * Many faulty links of S_5 (random, 10 to 100): the labeling's path uses
 * as few as the best of the 120 symbol permutations of the canonical path,
 * found here by walking each, and *crossed is the count on its path.
 */
static void test_star_many_faults(void)
{
	u32 n = 5, links[100], order[120], base[120], nl, k, l, i, j, c, min;
	u32 crossed, bad_min = 0, bad_count = 0, trials = 0;
	u8 sigma[8], p[8];
	struct wc_labeling lb, canon;
	struct wc_topo t;
	u64 st = 5;

	wc_topo_init(&t, WC_TOPO_STAR, 1, &n, NULL);
	wc_labeling_init(&canon, &t);
	memcpy(base, canon.node, sizeof(base));
	wc_labeling_free(&canon);
	for (nl = 10; nl <= 100; nl += 10, trials++) {
		for (k = 0; k < nl;) {
			u32 v = tu_rand_mod(&st, t.nnodes);
			u32 id = wc_link_id(&t, v, tu_rand_mod(&st, t.nports));

			for (i = 0; i < k && links[i] != id; i++)
				;
			if (i == k)
				links[k++] = id;
		}
		min = U32_MAX;
		for (k = 0; k < t.nnodes; k++) {
			wc_star_unrank(n, k, sigma);
			for (l = 0; l < t.nnodes; l++) {
				wc_star_unrank(n, base[l], p);
				for (j = 0; j < n; j++)
					p[j] = sigma[p[j] - 1];
				order[l] = wc_star_rank(n, p);
			}
			c = hops_on(&t, order, links, nl);
			if (c < min)
				min = c;
		}
		if (wc_labeling_init_faults(&lb, &t, links, nl, NULL, 0, &crossed)) {
			bad_min++;
			continue;
		}
		bad_min += crossed != min;
		bad_count += crossed != hops_on(&t, lb.node, links, nl);
		if (!wc_labeling_order_is_hamiltonian(&t, lb.node, NULL))
			bad_count++;
		wc_labeling_free(&lb);
	}
	is_int(bad_min, 0, "S_5, %u sets of 10 to 100 faulty links: the fewest crossed of the 120 candidates",
	       trials);
	is_int(bad_count, 0, "S_5: crossed is the count of the path's hops on a faulty link");
}

/*
 * Reference for failed nodes: is there a Hamiltonian path of @t from @f
 * (to @g if not WC_NO_NODE) whose other hops avoid @f's and @g's links?
 * Plain exhaustive depth-first search, for small topologies.
 */
static bool ref_path(const struct wc_topo *t, u32 f, u32 g, u8 *seen, u32 v,
		     u32 depth)
{
	u32 p;

	if (depth == t->nnodes)
		return g == WC_NO_NODE || v == g;
	for (p = 0; p < t->nports; p++) {
		u32 u = wc_topo_neighbor(t, v, p);
		bool ok_u;

		if (u == WC_NO_NODE || seen[u] ||
		    (u == g && depth + 1 != t->nnodes))
			continue;
		seen[u] = 1;
		ok_u = ref_path(t, f, g, seen, u, depth + 1);
		seen[u] = 0;
		if (ok_u)
			return true;
	}
	return false;
}

/*
 * Does R, from every live node to every other live node, stay off the
 * failed nodes @f and @g (WC_NO_NODE: none)?
 */
static bool routes_off(const struct wc_labeling *lb, u32 f, u32 g, u32 *path)
{
	u32 n = lb->topo.nnodes, s, d, h, i;

	for (s = 0; s < n; s++)
		for (d = 0; d < n; d++) {
			if (s == d || s == f || s == g || d == f || d == g)
				continue;
			h = wc_labeling_route(lb, s, d, path);
			if (h == U32_MAX)
				return false;
			for (i = 0; i <= h; i++)
				if (path[i] == f || path[i] == g)
					return false;
		}
	return true;
}

/*
 * Failed nodes (wc_labeling_init_faults() with @nodes): every single node
 * of small meshes, tori, S_4, S_5 and Q4 fails in turn, and every pair of
 * nodes of the 4x4 and 3x4 meshes.  The path puts a failed node at an end
 * (no dead hop counted) exactly when an exhaustive search finds such a
 * path (on the meshes; on the vertex-transitive topologies always); then
 * R between live nodes never transits a failed node, and the table passes
 * the kernel's checks and lists every link of the failed nodes but the
 * path's hop to them.  Larger meshes (16x16, 32x32, 11x11) every node or a
 * sample: found when the colours allow.
 */
static void test_failed_nodes(void)
{
	static const struct {
		const char *name;
		u32 kind, ndims, dims[3];
		bool exhaustive, pairs;
		u32 step;
	} cases[] = {
		{ "mesh 4x4", WC_TOPO_MESH, 2, { 4, 4 }, true, true, 1 },
		{ "mesh 3x4", WC_TOPO_MESH, 2, { 3, 4 }, true, true, 1 },
		{ "mesh 5x5", WC_TOPO_MESH, 2, { 5, 5 }, true, false, 1 },
		{ "mesh 6x5", WC_TOPO_MESH, 2, { 6, 5 }, false, false, 1 },
		{ "torus 4x4", WC_TOPO_TORUS, 2, { 4, 4 }, true, false, 1 },
		{ "torus 5x5", WC_TOPO_TORUS, 2, { 5, 5 }, false, false, 1 },
		{ "star 4", WC_TOPO_STAR, 1, { 4 }, true, false, 1 },
		{ "star 5", WC_TOPO_STAR, 1, { 5 }, false, false, 7 },
		{ "hypercube 4", WC_TOPO_HYPERCUBE, 1, { 4 }, true, true, 1 },
		{ "hypercube 6", WC_TOPO_HYPERCUBE, 1, { 6 }, false, false, 1 },
		{ "hypercube 10", WC_TOPO_HYPERCUBE, 1, { 10 }, false, false, 37 },
		{ "torus 3x3x4", WC_TOPO_TORUS, 3, { 3, 3, 4 }, false, false, 1 },
		{ "torus 8x8x8", WC_TOPO_TORUS, 3, { 8, 8, 8 }, false, false, 37 },
		{ "mesh 16x16", WC_TOPO_MESH, 2, { 16, 16 }, false, false, 1 },
		{ "mesh 11x11", WC_TOPO_MESH, 2, { 11, 11 }, false, false, 3 },
		{ "mesh 32x32", WC_TOPO_MESH, 2, { 32, 32 }, false, false, 37 },
	};
	u32 i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct wc_topo t;
		u32 f, g, tried = 0, planned = 0, want = 0, bad = 0, *path;
		u8 *seen;

		wc_topo_init(&t, cases[i].kind, cases[i].ndims, cases[i].dims, NULL);
		path = calloc(t.nnodes, sizeof(u32));
		seen = calloc(t.nnodes, 1);
		if (!path || !seen)
			abort();
		for (f = 0; f < t.nnodes; f += cases[i].step) {
			for (g = cases[i].pairs ? f + 1 : t.nnodes;
			     g <= t.nnodes; g++) {
				u32 nodes[2] = { f, g == t.nnodes ? WC_NO_NODE : g };
				u32 nn = 1 + (g < t.nnodes), crossed, unlisted, v, p;
				u32 deg = 0, hop = 0, nf;
				bool can, at_end;
				struct wc_labeling lb;
				struct wc_label_set ls;
				size_t len;
				void *tab;

				tried++;
				if (cases[i].exhaustive) {
					memset(seen, 0, t.nnodes);
					seen[f] = 1;
					can = ref_path(&t, f, nodes[1], seen, f, 1);
				} else if (t.kind == WC_TOPO_MESH) {
					u32 c[2];

					wc_topo_coords(&t, f, c);
					can = !(t.nnodes & 1) || !((c[0] + c[1]) & 1);
				} else {
					can = true;
				}
				want += can;
				if (wc_labeling_init_faults(&lb, &t, NULL, 0, nodes,
							    nn, &crossed)) {
					bad++;
					continue;
				}
				at_end = lb.node[0] == f || lb.node[t.nnodes - 1] == f;
				if (!crossed != can || (can && !at_end)) {
					diag("%s: nodes %u %d: crossed %u, an end-path %s",
					     cases[i].name, f, (int)nodes[1], crossed,
					     can ? "exists" : "does not exist");
					bad++;
				}
				if (crossed) {
					wc_labeling_free(&lb);
					continue;
				}
				planned++;
				if (t.nnodes <= 64 && !routes_off(&lb, f, nodes[1], path))
					bad++;
				wc_labeling_free(&lb);
				if (wc_labels_table_build_faults(&t, WORMCAST_MCAST_DUAL_PATH,
								 NULL, 0, nodes, nn, &tab,
								 &len, &crossed, &unlisted) ||
				    wc_label_set_build(&ls, &t, tab, len, NULL)) {
					bad++;
					continue;
				}
				/* listed: the failed nodes' links but the hops to them */
				for (v = 0; v < nn; v++)
					for (p = 0; p < t.nports; p++) {
						u32 u = wc_topo_neighbor(&t, nodes[v], p);

						if (u == WC_NO_NODE ||
						    (v && u == f))
							continue;
						deg++;
						hop += ls.nbr[nodes[v] * t.nports + p] !=
						       WC_LABEL_NONE;
					}
				nf = ((struct wormcast_labels *)tab)->nfaults;
				bad += hop != nn || nf != deg - nn || unlisted;
				wc_label_set_free(&ls);
				free(tab);
			}
		}
		ok(!bad && planned == want,
		   "%s: %u failed node%s tried, %u with a path that ends at them (as %s), R between live nodes never transits one, the tables list their other links",
		   cases[i].name, tried, cases[i].pairs ? " sets (single and pairs)" : "s",
		   planned, cases[i].exhaustive ? "an exhaustive search finds" :
		   t.kind == WC_TOPO_MESH ? "the colours allow" : "always");
		free(path);
		free(seen);
	}
}

int main(void)
{
	u32 m1[1] = { 9 }, m2[2] = { 5, 4 }, m2b[2] = { 8, 8 };
	u32 m2c[2] = { 7, 1 + 2 }, m3[3] = { 3, 4, 5 }, m3b[3] = { 4, 3, 2 };
	u32 t2[2] = { 6, 5 }, t3[3] = { 3, 3, 4 }, t2b[2] = { 2, 2 };
	u32 n, h;

	test_star4_printed();
	test_snake_formula();
	test_router_table();
	test_bad_orders();
	test_tree_step();
	test_faults();
	test_faults_edges();
	test_star_many_faults();
	test_failed_nodes();
	test_topology("mesh 9", WC_TOPO_MESH, 1, m1, true, 0);
	test_topology("mesh 5x4", WC_TOPO_MESH, 2, m2, true, 0);
	test_topology("mesh 8x8", WC_TOPO_MESH, 2, m2b, true, 0);
	test_topology("mesh 7x3", WC_TOPO_MESH, 2, m2c, true, 0);
	test_topology("mesh 3x4x5", WC_TOPO_MESH, 3, m3, false, 0);
	test_topology("mesh 4x3x2", WC_TOPO_MESH, 3, m3b, false, 0);
	test_topology("torus 6x5", WC_TOPO_TORUS, 2, t2, false, 0);
	test_topology("torus 3x3x4", WC_TOPO_TORUS, 3, t3, false, 0);
	test_topology("torus 2x2", WC_TOPO_TORUS, 2, t2b, false, 0);
	for (h = 1; h <= 10; h++) {
		char name[32];

		snprintf(name, sizeof(name), "hypercube %u", h);
		test_topology(name, WC_TOPO_HYPERCUBE, 1, &h, false,
			      h > 7 ? 20000 : 0);
	}
	for (n = 2; n <= 7; n++) {
		char name[32];

		snprintf(name, sizeof(name), "star %u", n);
		test_topology(name, WC_TOPO_STAR, 1, &n, false,
			      n > 5 ? 20000 : 0);
	}
	return done_testing();
}
