// SPDX-License-Identifier: GPL-2.0
/*
 * wc_trees_table(): the struct wormcast_trees bytes of every tree scheme,
 * checked from the bytes alone with this file's own graph code (parent
 * ports followed over the topology model, union-find, BFS distances), not
 * with the tree library under test.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "testutil.h"
#include "tree_mcast.h"
#include "trees_table.h"

struct sz {
	u32 k, m;
};

static const struct sz sizes[] = {
	{ 4, 4 }, { 5, 5 }, { 8, 8 }, { 16, 16 }, { 6, 4 },
};

static u32 find(u32 *uf, u32 x)
{
	while (uf[x] != x)
		x = uf[x] = uf[uf[x]];
	return x;
}

/* Canonical id of the link leaving @v through @p (parallel links distinct). */
static u32 link_key(const struct wc_topo *t, u32 v, u32 p)
{
	u32 nb = wc_topo_neighbor(t, v, p), rp = wc_topo_reverse_port(t, v, p);
	u32 a = v * t->nports + p, b = nb * t->nports + rp;

	return a < b ? a : b;
}

/*
 * Tree @k of table @h over @t: every non-root port leads to a neighbour,
 * exactly one root (h->root[k]), n - 1 links and no cycle (union-find),
 * hence spanning.  Marks its links in @used (value k + 1); fails if a link
 * is already marked (edge-disjointness).  @deg gets tree degrees.
 */
static bool check_tree(const struct wc_topo *t, const struct wormcast_trees *h,
		       u32 k, u8 *used, u32 *deg, char *msg, size_t msglen)
{
	const u8 *pp = h->parent_port + (size_t)k * h->nnodes;
	u32 n = h->nnodes, v, roots = 0, links = 0;
	u32 *uf = malloc(n * sizeof(*uf));
	bool good = true;

	for (v = 0; v < n; v++)
		uf[v] = v;
	memset(deg, 0, n * sizeof(*deg));
	for (v = 0; v < n && good; v++) {
		u32 nb, key;

		if (pp[v] == WORMCAST_NO_PORT) {
			roots++;
			if (v != h->root[k]) {
				snprintf(msg, msglen, "tree %u: node %u has no parent but is not the root %u",
					 k, v, h->root[k]);
				good = false;
			}
			continue;
		}
		if (pp[v] >= t->nports ||
		    (nb = wc_topo_neighbor(t, v, pp[v])) == WC_NO_NODE) {
			snprintf(msg, msglen, "tree %u: node %u port %u leads nowhere", k, v, pp[v]);
			good = false;
			break;
		}
		if (find(uf, v) == find(uf, nb)) {
			snprintf(msg, msglen, "tree %u: cycle through node %u", k, v);
			good = false;
			break;
		}
		uf[find(uf, v)] = find(uf, nb);
		key = link_key(t, v, pp[v]);
		if (used[key]) {
			snprintf(msg, msglen, "tree %u: link of node %u port %u already in tree %u",
				 k, v, pp[v], used[key] - 1);
			good = false;
			break;
		}
		used[key] = (u8)(k + 1);
		deg[v]++;
		deg[nb]++;
		links++;
	}
	if (good && (roots != 1 || links != n - 1)) {
		snprintf(msg, msglen, "tree %u: %u roots, %u links", k, roots, links);
		good = false;
	}
	free(uf);
	return good;
}

/* All-pairs min-over-trees distances by BFS over the trees' links: CD, AD. */
static void combined(const struct wc_topo *t, const struct wormcast_trees *h,
		     u32 *cd, double *ad)
{
	u32 n = h->nnodes, src, v, k, p;
	u32 *adj = malloc((size_t)h->ntrees * n * t->nports * sizeof(*adj));
	u32 *dist = malloc(n * sizeof(*dist)), *best = malloc(n * sizeof(*best));
	u32 *q = malloc(n * sizeof(*q));
	u64 sum = 0;

	/* adj[(k * n + v) * nports + p]: neighbour through p if the link is in tree k. */
	for (k = 0; k < h->ntrees; k++)
		for (v = 0; v < n; v++)
			for (p = 0; p < t->nports; p++)
				adj[((size_t)k * n + v) * t->nports + p] = WC_NO_NODE;
	for (k = 0; k < h->ntrees; k++) {
		const u8 *pp = h->parent_port + (size_t)k * n;

		for (v = 0; v < n; v++) {
			u32 nb;

			if (pp[v] == WORMCAST_NO_PORT)
				continue;
			nb = wc_topo_neighbor(t, v, pp[v]);
			adj[((size_t)k * n + v) * t->nports + pp[v]] = nb;
			adj[((size_t)k * n + nb) * t->nports +
			    wc_topo_reverse_port(t, v, pp[v])] = v;
		}
	}
	*cd = 0;
	for (src = 0; src < n; src++) {
		for (v = 0; v < n; v++)
			best[v] = U32_MAX;
		for (k = 0; k < h->ntrees; k++) {
			u32 head = 0, tail = 0;

			for (v = 0; v < n; v++)
				dist[v] = U32_MAX;
			dist[src] = 0;
			q[tail++] = src;
			while (head < tail) {
				u32 x = q[head++];

				for (p = 0; p < t->nports; p++) {
					u32 y = adj[((size_t)k * n + x) * t->nports + p];

					if (y != WC_NO_NODE && dist[y] == U32_MAX) {
						dist[y] = dist[x] + 1;
						q[tail++] = y;
					}
				}
			}
			for (v = 0; v < n; v++)
				if (dist[v] < best[v])
					best[v] = dist[v];
		}
		for (v = src + 1; v < n; v++) {
			if (best[v] > *cd)
				*cd = best[v];
			sum += best[v];
		}
	}
	*ad = (double)sum / ((double)n * (n - 1) / 2);
	free(adj);
	free(dist);
	free(best);
	free(q);
}

/* Every check on one table; returns false on the first failure (diagnosed). */
static bool check_table(const struct wc_topo *t, u32 scheme, const void *tab,
			size_t len, u32 *degmax, const char *what)
{
	const struct wormcast_trees *h = tab;
	u32 want = scheme == WORMCAST_MCAST_SPAM ? 1 : 2, k, v;
	u8 *used;
	u32 *deg;
	char msg[160] = "";
	bool good = true;

	if (len < sizeof(*h) || h->scheme != scheme || h->ntrees != want ||
	    h->nnodes != t->nnodes || h->nfaults ||
	    len != sizeof(*h) + (size_t)want * t->nnodes ||
	    (want == 1 && h->root[1])) {
		diag("%s: bad header (len %zu scheme %u ntrees %u nnodes %u)", what,
		     len, len >= sizeof(*h) ? h->scheme : 0,
		     len >= sizeof(*h) ? h->ntrees : 0,
		     len >= sizeof(*h) ? h->nnodes : 0);
		return false;
	}
	used = calloc((size_t)t->nnodes * t->nports, 1);
	deg = malloc(t->nnodes * sizeof(*deg));
	for (k = 0; k < want && good; k++) {
		if (h->root[k] >= t->nnodes) {
			snprintf(msg, sizeof(msg), "root %u out of range", h->root[k]);
			good = false;
			break;
		}
		good = check_tree(t, h, k, used, deg, msg, sizeof(msg));
		degmax[k] = 0;
		for (v = 0; v < t->nnodes; v++)
			if (deg[v] > degmax[k])
				degmax[k] = deg[v];
	}
	if (!good)
		diag("%s: %s", what, msg);
	free(used);
	free(deg);
	return good;
}

static void test_names(void)
{
	u32 i, v, bad = 0;

	for (i = 0; i <= WORMCAST_MCAST_MAX; i++)
		if (!wc_mcast_scheme_name(i) ||
		    wc_mcast_scheme_parse(wc_mcast_scheme_name(i), &v) || v != i)
			bad++;
	ok(!bad && !wc_mcast_scheme_name(WORMCAST_MCAST_MAX + 1) &&
	   !strcmp(wc_mcast_scheme_name(WORMCAST_MCAST_UNICAST), "unicast") &&
	   !strcmp(wc_mcast_scheme_name(WORMCAST_MCAST_SPAM), "spam") &&
	   !strcmp(wc_mcast_scheme_name(WORMCAST_MCAST_DSTM1), "dstm-1") &&
	   !strcmp(wc_mcast_scheme_name(WORMCAST_MCAST_DSTM2), "dstm-2") &&
	   !strcmp(wc_mcast_scheme_name(WORMCAST_MCAST_RT), "rt"),
	   "scheme names: unicast spam dstm-1 dstm-2 rt, parse(name(s)) = s");
	ok(wc_mcast_scheme_parse("DSTM-1", &v) && wc_mcast_scheme_parse("dstm1", &v) &&
	   wc_mcast_scheme_parse("", &v) && wc_mcast_scheme_parse("rt ", &v),
	   "scheme parse is exact");
	bad = 0;
	for (i = 0; i < WC_RT_NPAIRS; i++)
		if (wc_rt_pair_parse(wc_rt_pair_name(i), &v) || v != i)
			bad++;
	ok(!bad && !wc_rt_pair_name(WC_RT_NPAIRS) &&
	   !wc_rt_pair_parse("balanced", &v) && v == WC_RT_PAIR_AVERAGE &&
	   !wc_rt_pair_parse("worst", &v) && v == WC_RT_PAIR_PATH &&
	   !wc_rt_pair_parse("best", &v) && v == WC_RT_PAIR_BEST &&
	   wc_rt_pair_parse("Best", &v) && wc_rt_pair_parse("", &v),
	   "rt pair names: average best path, aliases balanced and worst");
}

static u32 expected_cd(u32 scheme, u32 n)
{
	/*
	 * Theorem 5.1 (DSTM-1): 2N - 1, exact for odd N; the construction
	 * gives 2N - 2 on even N (Documentation/dstm.rst, "the Appendix B
	 * slip").  Theorem 5.2 (DSTM-2): 2N - 2.
	 */
	if (scheme == WORMCAST_MCAST_DSTM1)
		return n % 2 ? 2 * n - 1 : 2 * n - 2;
	return 2 * n - 2;
}

static void test_torus_schemes(void)
{
	static const u32 schemes[] = {
		WORMCAST_MCAST_SPAM, WORMCAST_MCAST_DSTM1, WORMCAST_MCAST_DSTM2,
		WORMCAST_MCAST_RT,
	};
	u32 si, s, pair;

	for (si = 0; si < ARRAY_SIZE(sizes); si++) {
		u32 dims[2] = { sizes[si].k, sizes[si].m };
		struct wc_topo t;

		wc_topo_init(&t, WC_TOPO_TORUS, 2, dims, NULL);
		for (s = 0; s < ARRAY_SIZE(schemes); s++) {
			for (pair = 0; pair < (schemes[s] == WORMCAST_MCAST_RT ? WC_RT_NPAIRS : 1u); pair++) {
				struct wc_trees_opts o = { .rt_pair = pair, .seed = 7, .trials = 12 };
				struct wc_trees_info info;
				const char *why = NULL, *name = wc_mcast_scheme_name(schemes[s]);
				void *tab = NULL, *tab2 = NULL;
				size_t len = 0, len2 = 0;
				u32 degmax[2] = { 0, 0 }, cd;
				double ad;
				char what[64];
				int err;
				bool square = dims[0] == dims[1];

				snprintf(what, sizeof(what), "%ux%u %s%s%s", dims[0], dims[1], name,
					 schemes[s] == WORMCAST_MCAST_RT ? " " : "",
					 schemes[s] == WORMCAST_MCAST_RT ? wc_rt_pair_name(pair) : "");
				err = wc_trees_table_info(schemes[s], &t, &o, &tab, &len, &info, &why);
				if (schemes[s] == WORMCAST_MCAST_RT && pair == WC_RT_PAIR_PATH && !square) {
					ok(err == -EINVAL && why && !tab && !len,
					   "%s: refused (%s)", what, why ? why : "no reason");
					continue;
				}
				if (!ok(!err && tab, "%s: computed (%zu bytes)", what, len)) {
					diag("err %d: %s", err, why ? why : "?");
					continue;
				}
				ok(check_table(&t, schemes[s], tab, len, degmax, what),
				   "%s: %s spanning tree%s over real links%s", what,
				   schemes[s] == WORMCAST_MCAST_SPAM ? "a" : "two",
				   schemes[s] == WORMCAST_MCAST_SPAM ? "" : "s",
				   schemes[s] == WORMCAST_MCAST_SPAM ? "" : ", edge-disjoint");
				ok(!wc_trees_table_parse(tab, len, NULL, &why), "%s: header parses", what);
				combined(&t, tab, &cd, &ad);
				if (schemes[s] == WORMCAST_MCAST_SPAM) {
					/* BFS tree from a centre: depth = radius, diameter <= 2 radius */
					ok(cd <= dims[0] / 2 * 2 + dims[1] / 2 * 2 && info.cd == cd,
					   "%s: diameter %u (library %u) <= twice the torus radius", what, cd, info.cd);
				} else if (schemes[s] != WORMCAST_MCAST_RT && square) {
					is_int(cd, expected_cd(schemes[s], dims[0]),
					       "%s: combined diameter %u (Theorem 5.%u%s)", what, cd,
					       schemes[s] == WORMCAST_MCAST_DSTM1 ? 1 : 2,
					       schemes[s] == WORMCAST_MCAST_DSTM1 && dims[0] % 2 == 0 ?
					       ", 2N-2 on even N" : "");
					ok(info.cd == cd && info.ad > ad - 1e-9 && info.ad < ad + 1e-9,
					   "%s: library metrics agree (CD %u, AD %.4f)", what, info.cd, info.ad);
					ok(degmax[0] <= 3 && degmax[1] <= 3,
					   "%s: binary trees (degree <= 3)", what);
				} else if (schemes[s] != WORMCAST_MCAST_RT) {
					ok(info.cd == cd, "%s: CD %u, library %u", what, cd, info.cd);
				} else if (pair == WC_RT_PAIR_PATH) {
					ok(degmax[0] <= 2 && degmax[1] <= 2,
					   "%s: two Hamilton paths (spanning trees of degree <= 2)", what);
					ok(info.cd == cd, "%s: CD %u, library %u", what, cd, info.cd);
				} else {
					ok(info.cd == cd && info.ad > ad - 1e-9 && info.ad < ad + 1e-9 &&
					   info.balance <= info.median_balance &&
					   info.nbalanced >= (o.trials + 1) / 2 && info.trial < o.trials,
					   "%s: trial %u of %u, CD %u AD %.3f (means %.2f %.3f), balance %u <= median %u",
					   what, info.trial, o.trials, info.cd, info.ad, info.mean_cd,
					   info.mean_ad, info.balance, info.median_balance);
					if (pair == WC_RT_PAIR_BEST)
						ok(info.cd / info.mean_cd + info.ad / info.mean_ad <= 2.0 + 1e-9,
						   "%s: best is no worse than the means", what);
				}
				/* Same seed, same bytes. */
				err = wc_trees_table(schemes[s], &t, &o, &tab2, &len2, &why);
				ok(!err && len2 == len && !memcmp(tab, tab2, len),
				   "%s: same seed, same bytes", what);
				free(tab);
				free(tab2);
			}
		}
	}
}

static void test_rt_seeds(void)
{
	u32 dims[2] = { 8, 8 };
	struct wc_topo t;
	struct wc_trees_opts o;
	void *a = NULL, *b = NULL;
	size_t la, lb;
	const char *why;
	int e1, e2;

	wc_topo_init(&t, WC_TOPO_TORUS, 2, dims, NULL);
	wc_trees_opts_default(&o);
	o.trials = 1;
	o.seed = 1;
	e1 = wc_trees_table(WORMCAST_MCAST_RT, &t, &o, &a, &la, &why);
	o.seed = 2;
	e2 = wc_trees_table(WORMCAST_MCAST_RT, &t, &o, &b, &lb, &why);
	ok(!e1 && !e2 && la == lb && memcmp(a, b, la),
	   "rt: another seed, another pair (one trial, seeds 1 and 2)");
	free(a);
	free(b);
	a = b = NULL;
	e1 = wc_trees_table(WORMCAST_MCAST_RT, &t, NULL, &a, &la, &why);
	ok(!e1 && a && la == wc_trees_table_size(2, 64),
	   "rt: default options (average of %u trials)", WC_TREES_DEFAULT_TRIALS);
	free(a);
}

/* Hops from @from to every node over the links not in @dead (U32_MAX: none). */
static void live_dist(const struct wc_topo *t, const u8 *dead, u32 from,
		      u32 *dist, u32 *queue)
{
	u32 head = 0, tail = 0, v, p;

	for (v = 0; v < t->nnodes; v++)
		dist[v] = U32_MAX;
	dist[from] = 0;
	queue[tail++] = from;
	while (head < tail) {
		v = queue[head++];
		for (p = 0; p < t->nports; p++) {
			u32 u = wc_topo_neighbor(t, v, p);

			if (u == WC_NO_NODE || dead[wc_link_id(t, v, p)] ||
			    dist[u] != U32_MAX)
				continue;
			dist[u] = dist[v] + 1;
			queue[tail++] = u;
		}
	}
}

/* Eccentricity of @src by BFS over the topology. */
static u32 ecc(const struct wc_topo *t, u32 src)
{
	u32 *d = malloc(t->nnodes * sizeof(*d)), *q = malloc(t->nnodes * sizeof(*q));
	u8 *none = calloc(wc_link_space(t), 1);
	u32 v, m = 0;

	if (!d || !q || !none)
		abort();
	live_dist(t, none, src, d, q);
	for (v = 0; v < t->nnodes; v++)
		if (d[v] > m)
			m = d[v];
	free(d);
	free(q);
	free(none);
	return m;
}

static void test_spam_other_topologies(void)
{
	static const struct {
		u32 kind, ndims, dims[3];
	} topos[] = {
		{ WC_TOPO_MESH, 2, { 4, 5 } }, { WC_TOPO_MESH, 2, { 7, 3 } },
		{ WC_TOPO_MESH, 1, { 6 } }, { WC_TOPO_TORUS, 1, { 9 } },
		{ WC_TOPO_HYPERCUBE, 1, { 4 } }, { WC_TOPO_STAR, 1, { 5 } },
		{ WC_TOPO_TORUS, 2, { 2, 3 } },
		/* more ports than the paper's O_1..O_4 */
		{ WC_TOPO_TORUS, 3, { 3, 3, 3 } }, { WC_TOPO_MESH, 3, { 4, 3, 2 } },
		{ WC_TOPO_HYPERCUBE, 1, { 8 } }, { WC_TOPO_STAR, 1, { 6 } },
	};
	u32 i;

	for (i = 0; i < ARRAY_SIZE(topos); i++) {
		struct wc_topo t;
		void *tab = NULL;
		size_t len = 0;
		const char *why = NULL;
		u32 degmax[2], v, radius = U32_MAX;
		char what[64];
		int err;

		wc_topo_init(&t, topos[i].kind, topos[i].ndims, topos[i].dims, NULL);
		snprintf(what, sizeof(what), "spam %s %u nodes", wc_topo_kind_name(t.kind), t.nnodes);
		err = wc_trees_table(WORMCAST_MCAST_SPAM, &t, NULL, &tab, &len, &why);
		if (!ok(!err, "%s: computed", what)) {
			diag("%s", why ? why : "?");
			continue;
		}
		ok(check_table(&t, WORMCAST_MCAST_SPAM, tab, len, degmax, what),
		   "%s: a spanning tree over real links", what);
		for (v = 0; v < t.nnodes; v++)
			if (ecc(&t, v) < radius)
				radius = ecc(&t, v);
		ok(ecc(&t, ((struct wormcast_trees *)tab)->root[0]) == radius,
		   "%s: rooted at a centre (eccentricity %u = radius)", what, radius);
		free(tab);
	}
}

static void test_opts_equal(void)
{
	struct wc_trees_opts a, b;

	wc_trees_opts_default(&a);
	b = a;
	ok(wc_trees_opts_equal(&a, &b), "default options equal themselves");
	b.seed = 7;
	ok(!wc_trees_opts_equal(&a, &b), "another seed: another rt table");
	b = a;
	b.trials = a.trials + 1;
	ok(!wc_trees_opts_equal(&a, &b), "other trials: another rt table");
	b = a;
	b.rt_pair = WC_RT_PAIR_BEST;
	ok(!wc_trees_opts_equal(&a, &b), "another pair: another rt table");
	a.rt_pair = b.rt_pair = WC_RT_PAIR_PATH;
	b.seed = 99;
	b.trials = 1;
	ok(wc_trees_opts_equal(&a, &b), "path pair: seed and trials do not matter");
}

static void test_refusals(void)
{
	static const struct {
		u32 scheme, kind, ndims, dims[3];
		const char *what;
	} cases[] = {
		{ WORMCAST_MCAST_DSTM1, WC_TOPO_MESH, 2, { 4, 4 }, "dstm-1 on a mesh" },
		{ WORMCAST_MCAST_DSTM2, WC_TOPO_TORUS, 1, { 8 }, "dstm-2 on a ring" },
		{ WORMCAST_MCAST_DSTM1, WC_TOPO_TORUS, 3, { 3, 3, 3 }, "dstm-1 on a 3-D torus" },
		{ WORMCAST_MCAST_RT, WC_TOPO_HYPERCUBE, 1, { 4 }, "rt on a hypercube" },
		{ WORMCAST_MCAST_SPAM, WC_TOPO_HYPERCUBE, 1, { 9 }, "spam on Q9 (9 ports)" },
		{ WORMCAST_MCAST_UNICAST, WC_TOPO_TORUS, 2, { 4, 4 }, "unicast (no table)" },
		{ WORMCAST_MCAST_MAX + 1, WC_TOPO_TORUS, 2, { 4, 4 }, "unknown scheme" },
	};
	struct wc_trees_opts o;
	struct wc_topo t;
	void *tab;
	size_t len;
	const char *why;
	u32 i, d44[2] = { 4, 4 };
	int err;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		why = NULL;
		tab = (void *)1;
		len = 1;
		wc_topo_init(&t, cases[i].kind, cases[i].ndims, cases[i].dims, NULL);
		err = wc_trees_table(cases[i].scheme, &t, NULL, &tab, &len, &why);
		ok(err == -EINVAL && why && !tab && !len, "%s: -EINVAL (%s)",
		   cases[i].what, why ? why : "no reason");
	}
	wc_topo_init(&t, WC_TOPO_TORUS, 2, d44, NULL);
	wc_trees_opts_default(&o);
	o.trials = 0;
	why = NULL;
	err = wc_trees_table(WORMCAST_MCAST_RT, &t, &o, &tab, &len, &why);
	ok(err == -EINVAL && why, "rt: 0 trials refused (%s)", why ? why : "?");
	o.trials = 1;
	o.rt_pair = WC_RT_NPAIRS;
	err = wc_trees_table(WORMCAST_MCAST_RT, &t, &o, &tab, &len, &why);
	ok(err == -EINVAL, "rt: unknown pair refused");
}

static void test_parse(void)
{
	u32 dims[2] = { 4, 4 };
	struct wc_topo t;
	struct wormcast_trees *h;
	void *tab;
	size_t len;
	const char *why;
	int bad = 0;

	wc_topo_init(&t, WC_TOPO_TORUS, 2, dims, NULL);
	if (wc_trees_table(WORMCAST_MCAST_DSTM1, &t, NULL, &tab, &len, &why)) {
		ok(0, "dstm-1 4x4 for the parser");
		return;
	}
	h = tab;
	bad += !!wc_trees_table_parse(tab, len, NULL, &why);
	bad += !wc_trees_table_parse(tab, len - 1, NULL, &why);
	bad += !wc_trees_table_parse(tab, 10, NULL, &why);
	h->ntrees = 1;
	bad += !wc_trees_table_parse(tab, len, NULL, &why);
	h->ntrees = 2;
	h->nfaults = 1;		/* a fault counted, not there */
	bad += !wc_trees_table_parse(tab, len, NULL, &why);
	h->nfaults = 0;
	h->root[1] = 16;
	bad += !wc_trees_table_parse(tab, len, NULL, &why);
	h->root[1] = 0;
	h->scheme = WORMCAST_MCAST_UNICAST;
	bad += !wc_trees_table_parse(tab, len, NULL, &why);
	ok(!bad, "table header parser: accepts a good table, refuses 6 damaged ones");
	free(tab);
}

/* wc_trees_table_set_faults(): the links appended by their canonical end,
 * replaced by a second call, and its refusals. */
static void test_set_faults(void)
{
	u32 dims[2] = { 5, 5 }, links[WORMCAST_TREES_MAX_FAULTS + 1], i, a, pa, b, pb;
	struct wormcast_trees_fault f;
	const struct wormcast_trees *h;
	struct wc_topo t;
	void *tab = NULL, *spam = NULL;
	size_t len, slen, base;
	const char *why = NULL;
	int bad = 0, err;

	wc_topo_init(&t, WC_TOPO_TORUS, 2, dims, NULL);
	if (wc_trees_table(WORMCAST_MCAST_DSTM2, &t, NULL, &tab, &len, &why) ||
	    wc_trees_table(WORMCAST_MCAST_SPAM, &t, NULL, &spam, &slen, &why)) {
		ok(0, "tables for set_faults (%s)", why ? why : "");
		return;
	}
	base = len;
	/* links named from their non-canonical end: 7 +y and 12 -x */
	links[0] = wc_link_id(&t, 7, 2);
	links[1] = wc_link_id(&t, 12, 1);
	ok(!wc_trees_table_set_faults(&tab, &len, &t, links, 2, &why) &&
	   len == base + 2 * sizeof(f) && !wc_trees_table_parse(tab, len, &h, &why) &&
	   h->nfaults == 2, "two faulty links appended (%zu bytes)", len);
	for (i = 0; i < 2; i++) {
		memcpy(&f, (u8 *)tab + base + i * sizeof(f), sizeof(f));
		wc_link_ends(&t, links[i], &a, &pa, &b, &pb);
		bad += f.node != a || f.port != pa ||
		       wc_link_id(&t, f.node, f.port) != links[i];
	}
	ok(!bad, "each by its canonical end, the same link id");
	ok(!wc_trees_table_set_faults(&tab, &len, &t, links + 1, 1, &why) &&
	   len == base + sizeof(f) && ((struct wormcast_trees *)tab)->nfaults == 1,
	   "a second call replaces them (one left)");
	ok(!wc_trees_table_set_faults(&tab, &len, &t, NULL, 0, &why) &&
	   len == base && !((struct wormcast_trees *)tab)->nfaults,
	   "none: the fault-free table again");
	for (i = 0; i <= WORMCAST_TREES_MAX_FAULTS; i++)
		links[i] = 0;
	err = wc_trees_table_set_faults(&tab, &len, &t, links,
					WORMCAST_TREES_MAX_FAULTS + 1, &why);
	ok(err == -EINVAL && len == base, "257 faulty links refused (%s)", why);
	links[0] = wc_link_space(&t);
	err = wc_trees_table_set_faults(&tab, &len, &t, links, 1, &why);
	ok(err == -EINVAL, "a link id beyond the topology refused (%s)", why);
	links[0] = wc_link_id(&t, 7, 2) + 1;	/* not canonical: (7, +y) is */
	err = links[0] == wc_link_id(&t, 7, 3) ? 0 :
	      wc_trees_table_set_faults(&tab, &len, &t, links, 1, &why);
	ok(err == -EINVAL, "an id no link has refused (%s)", why);
	links[0] = 0;	/* (0, +x): the spam root's first child */
	why = NULL;
	err = wc_trees_table_set_faults(&spam, &slen, &t, links, 1, &why);
	ok(err == -EINVAL && why && strstr(why, "link of the spam tree"),
	   "a spam tree link listed faulty refused (%s)", why ? why : "?");
	free(tab);
	free(spam);
}


/*
 * Check the spam table @tab of @t against the links to avoid @f (@nf link
 * ids) and the faulty nodes @down (a flag per node, or NULL): a spanning
 * tree rooted at @root with exactly @crossed links of @f (the joins of
 * parts the live links leave apart, and the links the faulty nodes hang
 * by), no faulty node with a child unless something was crossed, the
 * levels the kernel derives equal to BFS distances in the live graph for
 * every live node (a BFS tree: up/down orientation by level, as without
 * faults) when nothing but faulty nodes' links was crossed, and the
 * listed faults exactly the links of @f off the tree.  The tree is read
 * back from the table's bytes, not from the library's structures.
 */
static bool check_spam_faults(const struct wc_topo *t, const void *tab,
			      size_t len, const u32 *f, u32 nf, u32 root,
			      const u8 *down, u32 crossed, u32 leaves,
			      const char *what)
{
	const struct wormcast_trees *h;
	u32 n = t->nnodes, v, i, in_tree = 0, nlisted = 0;
	u32 *dist = malloc(n * sizeof(u32)), *queue = malloc(n * sizeof(u32));
	u32 *depth = malloc(n * sizeof(u32));
	u8 *dead = calloc(wc_link_space(t), 1), *tree = calloc(wc_link_space(t), 1);
	u8 *listed = calloc(wc_link_space(t), 1);
	struct wc_sptree s;
	const char *why = NULL;
	bool good = false;

	if (!dist || !queue || !depth || !dead || !tree || !listed ||
	    wc_trees_table_parse(tab, len, &h, &why) ||
	    h->scheme != WORMCAST_MCAST_SPAM || h->ntrees != 1 || h->nnodes != n ||
	    h->root[0] != root) {
		diag("%s: header (%s)", what, why ? why : "scheme, trees, root");
		goto out;
	}
	for (i = 0; i < nf; i++)
		dead[f[i]] = 1;
	for (v = 0; v < n; v++) {
		u8 p = h->parent_port[v];

		if (v == h->root[0])
			continue;
		if (p >= t->nports || wc_topo_neighbor(t, v, p) == WC_NO_NODE) {
			diag("%s: node %u's parent port %u", what, v, p);
			goto out;
		}
		tree[wc_link_id(t, v, p)] = 1;
		in_tree += dead[wc_link_id(t, v, p)];
	}
	if (wc_sptree_from_links(&s, t, h->root[0], tree)) {
		diag("%s: the parent ports are no spanning tree", what);
		goto out;
	}
	for (v = 0; v < n; v++)
		depth[v] = s.depth[v];
	wc_sptree_free(&s);
	if (in_tree != crossed + leaves) {
		diag("%s: %u faulty links in the tree, want %u", what, in_tree,
		     crossed + leaves);
		goto out;
	}
	for (v = 0; v < n && down && !crossed; v++) {
		u32 c = h->parent_port[v] < t->nports ?
			wc_topo_neighbor(t, v, h->parent_port[v]) : WC_NO_NODE;

		if (v != h->root[0] && !down[v] && c != WC_NO_NODE && down[c]) {
			diag("%s: live node %u's parent %u is faulty", what, v, c);
			goto out;
		}
	}
	for (i = 0; i < h->nfaults; i++) {
		struct wormcast_trees_fault fl;
		u32 id;

		memcpy(&fl, (const u8 *)tab + wc_trees_table_size(1, n) + i * sizeof(fl),
		       sizeof(fl));
		id = wc_link_id(t, fl.node, fl.port);
		if (id == WC_NO_LINK || !dead[id] || tree[id] || listed[id]) {
			diag("%s: listed %u.%u is not a faulty link off the tree once",
			     what, fl.node, fl.port);
			goto out;
		}
		listed[id] = 1;
		nlisted++;
	}
	if (nlisted != nf - in_tree) {
		diag("%s: %u listed, want %u", what, nlisted, nf - in_tree);
		goto out;
	}
	if (!crossed) {
		/* BFS distances in the live graph: the tree's depths */
		live_dist(t, dead, h->root[0], dist, queue);
		for (v = 0; v < n; v++)
			if ((!down || !down[v]) && dist[v] != depth[v]) {
				diag("%s: node %u at level %u, live distance %u",
				     what, v, depth[v], dist[v]);
				goto out;
			}
	}
	good = true;
out:
	free(dist);
	free(queue);
	free(depth);
	free(dead);
	free(tree);
	free(listed);
	return good;
}

/* The topologies of the random spam fault sets. */
static const struct {
	u32 kind, ndims, dims[3];
	const char *name;
} spam_topo[] = {
	{ WC_TOPO_MESH, 2, { 4, 4 }, "mesh 4x4" },
	{ WC_TOPO_MESH, 2, { 8, 6 }, "mesh 8x6" },
	{ WC_TOPO_TORUS, 2, { 5, 5 }, "torus 5x5" },
	{ WC_TOPO_TORUS, 3, { 3, 3, 4 }, "torus 3x3x4" },
	{ WC_TOPO_HYPERCUBE, 1, { 5 }, "Q5" },
};

/*
 * wc_trees_table_spam_faults(): random sets of faulty links on meshes and
 * tori (each a live-connected case and, on the mesh, one that cuts a
 * corner off), checked by check_spam_faults(); the engine accepts every
 * table; no faults gives the fault-free table byte for byte.
 */
static void test_spam_faults(void)
{
	u64 st = 7;
	u32 k, trial, nbad = 0, ntables = 0, nrefused = 0;

	for (k = 0; k < ARRAY_SIZE(spam_topo); k++) {
		struct wc_topo t;
		void *tab = NULL, *plain = NULL;
		size_t len, plen;
		struct wc_spam_faults r;
		const char *why = NULL;

		wc_topo_init(&t, spam_topo[k].kind, spam_topo[k].ndims, spam_topo[k].dims, NULL);
		ok(!wc_trees_table_spam_faults(&t, NULL, 0, NULL, 0, &tab, &len,
					       &r, &why) &&
		   !wc_trees_table(WORMCAST_MCAST_SPAM, &t, NULL, &plain, &plen, &why) &&
		   len == plen && !memcmp(tab, plain, len) && !r.listed && !r.crossed,
		   "%s: no faulty link, the fault-free spam table byte for byte",
		   spam_topo[k].name);
		free(tab);
		free(plain);
		for (trial = 0; trial < 40; trial++) {
			u32 nf = 1 + trial % 6, f[8], i = 0;
			struct wc_tree_set set;
			bool connected;

			while (i < nf) {
				u32 id = tu_rand_mod(&st, wc_link_space(&t)), a, pa, b, pb, j;

				wc_link_ends(&t, id, &a, &pa, &b, &pb);
				if (b == WC_NO_NODE || wc_link_id(&t, a, pa) != id)
					continue;
				for (j = 0; j < i && f[j] != id; j++)
					;
				if (j == i)
					f[i++] = id;
			}
			if (wc_trees_table_spam_faults(&t, f, nf, NULL, 0, &tab, &len,
						       &r, &why)) {
				nbad++;
				diag("%s trial %u: %s", spam_topo[k].name, trial, why ? why : "?");
				continue;
			}
			ntables++;
			connected = !r.crossed;
			nbad += !check_spam_faults(&t, tab, len, f, nf,
						   wc_topo_center(&t), NULL,
						   r.crossed, 0, spam_topo[k].name);
			nbad += connected && r.listed != nf;
			why = NULL;
			if (wc_tree_set_build(&set, &t, tab, len, &why)) {
				nrefused++;
				diag("%s trial %u: the engine refused: %s", spam_topo[k].name,
				     trial, why ? why : "?");
			} else {
				wc_tree_set_free(&set);
			}
			free(tab);
		}
	}
	ok(!nbad && ntables == 40 * ARRAY_SIZE(spam_topo),
	   "%u random spam tables with 1 to 6 faulty links: every tree link alive (when the live graph is connected), spanning, levels = live BFS distances, the faulty links off the tree listed",
	   ntables);
	ok(!nrefused, "the engine accepts every one of them");

	/* a corner cut off: 4x4 mesh, node 0's two links fail */
	{
		u32 dims[2] = { 4, 4 }, f[3];
		struct wc_topo t;
		void *tab = NULL;
		size_t len;
		struct wc_spam_faults r;
		struct wc_tree_set set;
		const char *why = NULL;
		int err;

		wc_topo_init(&t, WC_TOPO_MESH, 2, dims, NULL);
		f[0] = wc_link_id(&t, 0, wc_topo_port_to(&t, 0, 1));
		f[1] = wc_link_id(&t, 0, wc_topo_port_to(&t, 0, 4));
		f[2] = wc_link_id(&t, 9, wc_topo_port_to(&t, 9, 10));
		err = wc_trees_table_spam_faults(&t, f, 3, NULL, 0, &tab, &len,
						 &r, &why);
		ok(!err && r.crossed == 1 && r.listed == 2 && !r.unlisted &&
		   check_spam_faults(&t, tab, len, f, 3, wc_topo_center(&t), NULL,
				     1, 0, "corner"),
		   "node 0 cut off: the tree keeps the first of its links (0-1), lists the other two (crossed %u, listed %u)",
		   r.crossed, r.listed);
		ok(!err && ((const struct wormcast_trees *)tab)->parent_port[0] ==
			   wc_topo_port_to(&t, 0, 1),
		   "node 0's parent is node 1 (the first listed link out)");
		why = NULL;
		err = err ? err : wc_tree_set_build(&set, &t, tab, len, &why);
		ok(!err, "the engine accepts it (%s)", why ? why : "");
		if (!err)
			wc_tree_set_free(&set);
		free(tab);
	}
}


/*
 * wc_trees_table_spam_faults() with faulty nodes: 1 to 3 random faulty
 * nodes and 0 to 2 faulty links on meshes, tori and Q5 (spam_topo).  Each faulty
 * node's links are avoided; when the live nodes stay connected over the
 * live links, every faulty node hangs by one link with no live node
 * below it (none crossed), the root is a live node nearest the centre,
 * the live nodes' levels are their live BFS distances
 * (check_spam_faults()), and the engine accepts the table.  Then the centre of a 5x5 mesh fails: the
 * root moves to a live neighbour.
 */
static void test_spam_faulty_nodes(void)
{
	u64 st = 11;
	u32 k, trial, nbad = 0, nconn = 0, ntables = 0;

	for (k = 0; k < ARRAY_SIZE(spam_topo); k++) {
		struct wc_topo t;
		u32 *dist, *queue, *avoid;
		u8 *dead, *down, *none;

		wc_topo_init(&t, spam_topo[k].kind, spam_topo[k].ndims, spam_topo[k].dims, NULL);
		dist = calloc(t.nnodes, sizeof(u32));
		queue = calloc(t.nnodes, sizeof(u32));
		avoid = calloc(wc_link_space(&t), sizeof(u32));
		dead = calloc(wc_link_space(&t), 1);
		down = calloc(t.nnodes, 1);
		none = calloc(wc_link_space(&t), 1);
		if (!dist || !queue || !avoid || !dead || !down || !none)
			abort();
		for (trial = 0; trial < 40; trial++) {
			u32 nn = 1 + trial % 3, nl = trial % 3, nodes[3], links[2];
			u32 i, v, p, na = 0, reached = 0, root, c = wc_topo_center(&t);
			struct wc_spam_faults r;
			struct wc_tree_set set;
			const char *why = NULL;
			void *tab = NULL;
			size_t len;

			memset(dead, 0, wc_link_space(&t));
			memset(down, 0, t.nnodes);
			for (i = 0; i < nn; i++) {
				do
					nodes[i] = tu_rand_mod(&st, t.nnodes);
				while (down[nodes[i]]);
				down[nodes[i]] = 1;
			}
			for (i = 0; i < nl; i++) {
				u32 a, pa, b, pb;

				do {
					links[i] = tu_rand_mod(&st, wc_link_space(&t));
					wc_link_ends(&t, links[i], &a, &pa, &b, &pb);
				} while (b == WC_NO_NODE ||
					 wc_link_id(&t, a, pa) != links[i] ||
					 dead[links[i]]);
				dead[links[i]] = 1;
				avoid[na++] = links[i];
			}
			for (i = 0; i < nn; i++)
				for (p = 0; p < t.nports; p++) {
					u32 id;

					if (wc_topo_neighbor(&t, nodes[i], p) == WC_NO_NODE)
						continue;
					id = wc_link_id(&t, nodes[i], p);
					if (!dead[id]) {
						dead[id] = 1;
						avoid[na++] = id;
					}
				}
			if (wc_trees_table_spam_faults(&t, links, nl, nodes, nn, &tab,
						       &len, &r, &why)) {
				nbad++;
				diag("%s trial %u: %s", spam_topo[k].name, trial,
				     why ? why : "?");
				continue;
			}
			ntables++;
			root = ((const struct wormcast_trees *)tab)->root[0];
			/* the root: live, and no live node nearer the centre */
			live_dist(&t, none, c, dist, queue);
			for (v = 0; v < t.nnodes; v++)
				if (!down[v] && dist[v] < dist[root]) {
					diag("%s trial %u: root %u, live node %u nearer the centre",
					     spam_topo[k].name, trial, root, v);
					nbad++;
					break;
				}
			nbad += down[root];
			live_dist(&t, dead, root, dist, queue);
			for (v = 0; v < t.nnodes; v++)
				reached += !down[v] && dist[v] != U32_MAX;
			if (reached == t.nnodes - nn) {
				nconn++;
				nbad += r.leaves != nn || r.crossed;
				nbad += !check_spam_faults(&t, tab, len, avoid, na, root,
							   down, 0, nn, spam_topo[k].name);
			}
			why = NULL;
			if (wc_tree_set_build(&set, &t, tab, len, &why)) {
				nbad++;
				diag("%s trial %u: the engine refused: %s",
				     spam_topo[k].name, trial, why ? why : "?");
			} else {
				wc_tree_set_free(&set);
			}
			free(tab);
		}
		free(dist);
		free(queue);
		free(avoid);
		free(dead);
		free(down);
		free(none);
	}
	ok(!nbad && ntables == 40 * ARRAY_SIZE(spam_topo) && nconn > 100,
	   "%u random spam tables with 1 to 3 faulty nodes and 0 to 2 faulty links (%u with the live nodes connected): the root a live node nearest the centre, no live node below a faulty one, live levels = live BFS distances, the avoided links off the tree listed; the engine accepts them all",
	   ntables, nconn);

	/* the centre fails: 5x5 mesh, node 12 */
	{
		u32 dims[2] = { 5, 5 }, node = 12, root;
		struct wc_topo t;
		struct wc_spam_faults r;
		const char *why = NULL;
		void *tab = NULL;
		size_t len;
		int err;

		wc_topo_init(&t, WC_TOPO_MESH, 2, dims, NULL);
		err = wc_trees_table_spam_faults(&t, NULL, 0, &node, 1, &tab, &len,
						 &r, &why);
		root = err ? WC_NO_NODE : ((const struct wormcast_trees *)tab)->root[0];
		ok(!err && wc_topo_center(&t) == 12 && root != 12 &&
		   wc_topo_port_to(&t, 12, root) != WC_NO_PORT &&
		   r.leaves == 1 && r.listed == 3 && !r.crossed,
		   "the centre (12) of a 5x5 mesh fails: the root is its neighbour %u, 12 a leaf, its other 3 links listed",
		   root);
		free(tab);
		node = 25;
		why = NULL;
		err = wc_trees_table_spam_faults(&t, NULL, 0, &node, 1, &tab, &len,
						 &r, &why);
		ok(err == -EINVAL && why && strstr(why, "faulty node"),
		   "a faulty node out of range refused (%s)", why ? why : "?");
	}
}

/*
 * Whether tree @k of @h joins every live node (not @down) over its links
 * that are not @dead (link_key() ids): union-find.
 */
static bool joins_live(const struct wc_topo *t, const struct wormcast_trees *h,
		       u32 k, const u8 *dead, const u8 *down)
{
	const u8 *pp = h->parent_port + (size_t)k * h->nnodes;
	u32 n = h->nnodes, v, first = WC_NO_NODE;
	u32 *uf = malloc(n * sizeof(*uf));
	bool joined = true;

	for (v = 0; v < n; v++)
		uf[v] = v;
	for (v = 0; v < n; v++)
		if (pp[v] != WORMCAST_NO_PORT && !dead[link_key(t, v, pp[v])])
			uf[find(uf, v)] = find(uf, wc_topo_neighbor(t, v, pp[v]));
	for (v = 0; v < n && joined; v++) {
		if (down[v])
			continue;
		if (first == WC_NO_NODE)
			first = find(uf, v);
		joined = find(uf, v) == first;
	}
	free(uf);
	return joined;
}

/* One fault set on a two-tree table: what two_faults() must give. */
struct two_case {
	u32 nodes[2], nn, links[3], nl;
};

/*
 * Check wc_trees_table_two_faults() on @c against @base.  Independent
 * prediction: the base trees are kept when one joins the live nodes
 * ("clean"); else, with @rebuild, trees are rebuilt exactly when the live
 * links number at least 2 (live nodes - 1): on a 4-edge-connected torus
 * the fault sets tried (one failed node alone, at most two faulty links,
 * or fewer live links than that) have two edge-disjoint spanning trees
 * exactly then (Nash-Williams and Tutte; Documentation/faults.rst).
 * Counts a rebuild in *@nrebuilt and a clean base in *@nclean.
 */
static bool check_two_faults(const struct wc_topo *t, const void *base,
			     size_t blen, const struct two_case *c,
			     bool rebuild, u32 *nrebuilt, u32 *nclean,
			     const char *what)
{
	const struct wormcast_trees *bh = base, *h;
	struct wc_two_faults r;
	struct wc_tree_set set;
	u32 i, p, v, k, ndead = 0, nlive = 0, nlinks = 0, deg[2][64 * 64];
	u8 *dead = calloc((size_t)t->nnodes * t->nports, 1);
	u8 *used = calloc((size_t)t->nnodes * t->nports, 1);
	u8 *down = calloc(t->nnodes, 1);
	const char *why = NULL;
	bool clean, want_rebuilt, good = true;
	char msg[160] = "";
	void *tab = NULL;
	size_t len;

	for (i = 0; i < c->nl; i++)
		ndead += !dead[c->links[i]]++;
	for (i = 0; i < c->nn; i++) {
		down[c->nodes[i]] = 1;
		for (p = 0; p < t->nports; p++)
			ndead += !dead[link_key(t, c->nodes[i], p)]++;
	}
	for (v = 0; v < t->nnodes; v++) {
		nlive += !down[v];
		for (p = 0; p < t->nports; p++)
			nlinks += link_key(t, v, p) == v * t->nports + p;
	}
	for (i = 0; i < (size_t)t->nnodes * t->nports; i++)
		dead[i] = dead[i] != 0;
	clean = joins_live(t, bh, 0, dead, down) || joins_live(t, bh, 1, dead, down);
	want_rebuilt = rebuild && !clean && nlinks - ndead >= 2 * (nlive - 1);
	if (wc_trees_table_two_faults(t, base, blen, c->links, c->nl, c->nodes,
				      c->nn, rebuild, &tab, &len, &r, &why)) {
		diag("%s: %s", what, why ? why : "?");
		good = false;
		goto out;
	}
	h = tab;
	if (r.clean != clean || r.rebuilt != want_rebuilt || r.listed != ndead ||
	    r.unlisted || h->nfaults != ndead || h->scheme != bh->scheme ||
	    len != wc_trees_table_size(2, t->nnodes) + ndead * sizeof(struct wormcast_trees_fault)) {
		diag("%s: clean %d (want %d), rebuilt %d (want %d), listed %u nfaults %u (want %u), len %zu",
		     what, r.clean, clean, r.rebuilt, want_rebuilt, r.listed,
		     h->nfaults, ndead, len);
		good = false;
		goto out;
	}
	/* the listed links are the dead ones (ndead distinct entries) */
	for (i = 0; i < ndead && good; i++) {
		struct wormcast_trees_fault f;

		memcpy(&f, (u8 *)tab + wc_trees_table_size(2, t->nnodes) + i * sizeof(f),
		       sizeof(f));
		good = f.port < t->nports && dead[link_key(t, f.node, f.port)] == 1;
		if (good)
			dead[link_key(t, f.node, f.port)] = 2;
	}
	for (i = 0; i < (size_t)t->nnodes * t->nports; i++)
		dead[i] = dead[i] != 0;
	if (!good) {
		diag("%s: a listed link is not dead, or listed twice", what);
		goto out;
	}
	for (k = 0; k < 2 && good; k++)
		good = check_tree(t, h, k, used, deg[k], msg, sizeof(msg));
	if (!good) {
		diag("%s: %s", what, msg);
		goto out;
	}
	if (!r.rebuilt) {
		/* the base's trees, untouched */
		good = !memcmp(h->root, bh->root, sizeof(h->root)) &&
		       !memcmp(h->parent_port, bh->parent_port, 2 * (size_t)t->nnodes);
		if (!good)
			diag("%s: trees not rebuilt but changed", what);
	} else {
		/* both trees join the live nodes; each failed node a leaf */
		good = joins_live(t, h, 0, dead, down) && joins_live(t, h, 1, dead, down);
		for (i = 0; i < c->nn && good; i++)
			good = deg[0][c->nodes[i]] == 1 && deg[1][c->nodes[i]] == 1 &&
			       h->root[0] != c->nodes[i] && h->root[1] != c->nodes[i];
		if (!good)
			diag("%s: rebuilt trees do not join the live nodes, or a failed node is not a leaf", what);
	}
	if (good && wc_tree_set_build(&set, t, tab, len, &why)) {
		diag("%s: the engine refused: %s", what, why ? why : "?");
		good = false;
	} else if (good) {
		wc_tree_set_free(&set);
	}
	*nrebuilt += r.rebuilt;
	*nclean += r.clean;
out:
	free(tab);
	free(dead);
	free(used);
	free(down);
	return good;
}

static void test_two_trees_faults(void)
{
	static const struct sz tori[] = { { 3, 3 }, { 4, 4 }, { 5, 5 }, { 4, 6 }, { 8, 8 } };
	static const u32 schemes[] = { WORMCAST_MCAST_DSTM1, WORMCAST_MCAST_DSTM2,
				       WORMCAST_MCAST_RT };
	struct wc_trees_opts o;
	u64 st = 23;
	u32 z, s, f, i, trial, nbad = 0, ncases = 0, nreb = 0, nclean = 0;
	u32 nrand = 0, nreb_rand = 0, nclean_rand = 0, nlocal = 0, dummy = 0;

	wc_trees_opts_default(&o);
	o.trials = 5;
	for (z = 0; z < ARRAY_SIZE(tori); z++) {
		u32 dims[2] = { tori[z].k, tori[z].m };
		struct wc_topo t;

		wc_topo_init(&t, WC_TOPO_TORUS, 2, dims, NULL);
		for (s = 0; s < ARRAY_SIZE(schemes); s++) {
			const char *why = NULL;
			char what[96];
			void *base;
			size_t blen;

			if (wc_trees_table(schemes[s], &t, &o, &base, &blen, &why)) {
				nbad++;
				diag("%ux%u scheme %u: %s", dims[0], dims[1], schemes[s],
				     why ? why : "?");
				continue;
			}
			/* every single failed node */
			for (f = 0; f < t.nnodes; f++) {
				struct two_case c = { .nodes = { f }, .nn = 1 };

				snprintf(what, sizeof(what), "%ux%u %s, node %u fails",
					 dims[0], dims[1], wc_mcast_scheme_name(schemes[s]), f);
				nbad += !check_two_faults(&t, base, blen, &c, true,
							  &nreb, &nclean, what);
				ncases++;
				nbad += !check_two_faults(&t, base, blen, &c, false,
							  &dummy, &dummy, what);
			}
			/* random sets of 0 to 2 failed nodes and 0 to 3 faulty links */
			for (trial = 0; trial < 40; trial++) {
				struct two_case c = { .nn = trial % 3, .nl = (trial / 3) % 4 };
				u32 local_reb = 0;

				for (i = 0; i < c.nn; i++)
					do
						c.nodes[i] = tu_rand_mod(&st, t.nnodes);
					while (i && c.nodes[i] == c.nodes[0]);
				for (i = 0; i < c.nl; i++) {
					u32 v = tu_rand_mod(&st, t.nnodes), p = tu_rand_mod(&st, t.nports);

					c.links[i] = link_key(&t, v, p);
					if ((i && c.links[i] == c.links[0]) ||
					    (i == 2 && c.links[2] == c.links[1]))
						i--;	/* another */
				}
				snprintf(what, sizeof(what), "%ux%u %s, trial %u",
					 dims[0], dims[1], wc_mcast_scheme_name(schemes[s]), trial);
				nbad += !check_two_faults(&t, base, blen, &c, true,
							  &nreb_rand, &nclean_rand, what);
				nrand++;
				nbad += !check_two_faults(&t, base, blen, &c, false,
							  &local_reb, &dummy, what);
				nlocal += local_reb;
			}
			free(base);
		}
	}
	ok(!nbad && nreb + nclean == ncases && nreb && nclean && !nlocal,
	   "%u single failed nodes on 3x3 to 8x8 tori under dstm-1, dstm-2 and rt: every one served (%u by a fault-free tree that joins the live nodes, %u by trees rebuilt on the live links, the node a leaf of both), never rebuilt under fault-info local; every table a pair of edge-disjoint spanning trees that lists the dead links and that the engine accepts",
	   ncases, nclean, nreb);
	ok(!nbad && nrand && nreb_rand && nclean_rand,
	   "%u random sets of 0 to 2 failed nodes and 0 to 3 faulty links: rebuilt (%u) exactly when no fault-free tree joins the live nodes (%u did) and the live links number at least 2 (live nodes - 1)",
	   nrand, nreb_rand, nclean_rand);
	{
		u32 dims[2] = { 4, 4 }, node = 16;
		struct wc_topo t;
		struct wc_two_faults r;
		const char *why = NULL;
		void *base = NULL, *tab = NULL;
		size_t blen, len;
		int err;

		wc_topo_init(&t, WC_TOPO_TORUS, 2, dims, NULL);
		wc_trees_table(WORMCAST_MCAST_DSTM1, &t, NULL, &base, &blen, &why);
		err = wc_trees_table_two_faults(&t, base, blen, NULL, 0, &node, 1,
						true, &tab, &len, &r, &why);
		ok(err == -EINVAL && !tab && why && strstr(why, "faulty node"),
		   "two trees: a failed node out of range refused (%s)", why ? why : "?");
		why = NULL;
		err = wc_trees_table_two_faults(&t, base, blen - 1, NULL, 0, NULL, 0,
						true, &tab, &len, &r, &why);
		ok(err == -EINVAL && !tab, "two trees: a short base table refused (%s)",
		   why ? why : "?");
		free(base);
	}
}

int main(void)
{
	test_names();
	test_torus_schemes();
	test_rt_seeds();
	test_spam_other_topologies();
	test_opts_equal();
	test_refusals();
	test_parse();
	test_set_faults();
	test_spam_faults();
	test_spam_faulty_nodes();
	test_two_trees_faults();
	return done_testing();
}
