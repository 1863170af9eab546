// SPDX-License-Identifier: GPL-2.0
/*
 * Path-based planners against brute force: on thousands of random small
 * instances on meshes, tori, hypercubes and star graphs, OCMS must reach
 * the least channel count and OTMS the least maximum worm length over
 * every assignment of the destinations to the source's ports (Definition 1
 * of Bouchitte, Cohen and Fleury), and every plan must be a valid
 * multicast star.
 */
#include "tap.h"
#include "testutil.h"
#include "pathplan.h"

static u64 rng_state = 0x9e3779b97f4a7c15ull;

static u32 rnd(u32 n)
{
	return tu_rand_mod(&rng_state, n);
}

struct world {
	struct wc_topo t;
	struct wc_labeling lb;
	u32 *dr;	/* dr[u * N + v]: hops R takes from u to v */
	u32 *fp;	/* fp[u * N + v]: first port R takes from u to v */
};

/*
 * The routing function R of Bouchitte, Cohen and Fleury (section 2.1),
 * written here from the paper rather than taken from label_route.c: from
 * u toward v, the neighbour z with the greatest label L(z) <= L(v) if
 * L(u) < L(v), with the least label L(z) >= L(v) otherwise (the lowest
 * port if two links lead to it).  Only the topology's neighbours and the
 * labels are the project's.
 */
static u32 ref_port(const struct world *w, u32 u, u32 v)
{
	u32 lu = w->lb.label[u], lv = w->lb.label[v], p, z, lz;
	u32 best = U32_MAX, bl = 0;

	for (p = 0; p < w->t.nports; p++) {
		z = wc_topo_neighbor(&w->t, u, p);
		if (z == WC_NO_NODE)
			continue;
		lz = w->lb.label[z];
		if (lu < lv ? lz > lv : lz < lv)
			continue;
		if (best == U32_MAX || (lu < lv ? lz > bl : lz < bl)) {
			best = p;
			bl = lz;
		}
	}
	return best;
}

/* Hops R takes from u to v, U32_MAX if it gets stuck or loops. */
static u32 ref_hops(const struct world *w, u32 u, u32 v)
{
	u32 hops = 0, p;

	while (u != v) {
		p = ref_port(w, u, v);
		if (p == U32_MAX || hops >= w->t.nnodes)
			return U32_MAX;
		u = wc_topo_neighbor(&w->t, u, p);
		hops++;
	}
	return hops;
}

static int world_init(struct world *w, u32 kind, u32 ndims, const u32 *dims)
{
	u32 n, u, v;

	if (wc_topo_init(&w->t, kind, ndims, dims, NULL) ||
	    wc_labeling_init(&w->lb, &w->t))
		return -1;
	n = w->t.nnodes;
	w->dr = calloc((size_t)n * n, sizeof(u32));
	w->fp = calloc((size_t)n * n, sizeof(u32));
	for (u = 0; u < n; u++) {
		for (v = 0; v < n; v++) {
			w->dr[u * n + v] = ref_hops(w, u, v);
			w->fp[u * n + v] = u == v ? U32_MAX : ref_port(w, u, v);
		}
	}
	return 0;
}

static void world_free(struct world *w)
{
	wc_labeling_free(&w->lb);
	free(w->dr);
	free(w->fp);
}

/*
 * Every assignment of the k destinations to the source's ports; a port's
 * destinations must lie on one side of the source, are visited in travel
 * order, and R toward the first must leave through that port.
 */
static void brute(const struct world *w, u32 src, const u32 *d, u32 k,
		  u32 *best_sum, u32 *best_max)
{
	u32 P = w->t.nports, n = w->t.nnodes, combos = 1, c, i, j, p;
	u32 sl = w->lb.label[src];

	*best_sum = U32_MAX;
	*best_max = U32_MAX;
	for (i = 0; i < k; i++)
		combos *= P;
	for (c = 0; c < combos; c++) {
		u32 as[16], x = c, sum = 0, mx = 0;
		bool ok = true;

		for (i = 0; i < k; i++) {
			as[i] = x % P;
			x /= P;
		}
		for (p = 0; p < P && ok; p++) {
			u32 list[16], m = 0, prev = src, len = 0;
			bool up = false;

			for (i = 0; i < k; i++)
				if (as[i] == p)
					list[m++] = d[i];
			if (!m)
				continue;
			up = w->lb.label[list[0]] > sl;
			/* insertion sort in travel order */
			for (i = 1; i < m; i++)
				for (j = i; j > 0 &&
				     (up ? w->lb.label[list[j]] < w->lb.label[list[j - 1]] :
					   w->lb.label[list[j]] > w->lb.label[list[j - 1]]); j--) {
					u32 tmp = list[j];

					list[j] = list[j - 1];
					list[j - 1] = tmp;
				}
			for (i = 0; i < m && ok; i++)
				if ((w->lb.label[list[i]] > sl) != up)
					ok = false;
			if (!ok || w->fp[src * n + list[0]] != p) {
				ok = false;
				break;
			}
			for (i = 0; i < m; i++) {
				len += w->dr[prev * n + list[i]];
				prev = list[i];
			}
			sum += len;
			mx = mx > len ? mx : len;
		}
		if (!ok)
			continue;
		if (sum < *best_sum)
			*best_sum = sum;
		if (mx < *best_max)
			*best_max = mx;
	}
}

static void random_instance(const struct world *w, u32 kmax, u32 *src,
			    u32 *d, u32 *k)
{
	u32 n = w->t.nnodes;

	*src = rnd(n);
	*k = 1 + rnd(kmax);
	tu_random_dests(&rng_state, n, *src, *k, d);
}

static void against_brute(const char *name, u32 kind, u32 ndims,
			  const u32 *dims, u32 kmax, u32 trials)
{
	struct world w;
	u32 trial, bad_sum = 0, bad_max = 0, invalid = 0, worse = 0, errs = 0;
	const char *why = NULL;

	if (world_init(&w, kind, ndims, dims)) {
		ok(0, "%s: set up", name);
		return;
	}
	for (trial = 0; trial < trials; trial++) {
		u32 src, d[16], k, bsum, bmax, a;
		struct wc_mstar ms[4];

		random_instance(&w, kmax, &src, d, &k);
		brute(&w, src, d, k, &bsum, &bmax);
		for (a = WC_PP_DUAL_PATH; a <= WC_PP_OTMS; a++) {
			if (wc_pathplan(&w.lb, a, src, d, k, &ms[a])) {
				errs++;
				memset(&ms[a], 0, sizeof(ms[a]));
				continue;
			}
			if (!wc_mstar_check(&w.lb, src, d, k, &ms[a], &why)) {
				if (!invalid)
					diag("%s %s: %s", name,
					     wc_pathplan_name(a), why);
				invalid++;
			}
		}
		if (ms[WC_PP_OCMS].channels != bsum) {
			if (!bad_sum)
				diag("%s src %u k %u: ocms %u, brute %u", name,
				     src, k, ms[WC_PP_OCMS].channels, bsum);
			bad_sum++;
		}
		if (ms[WC_PP_OTMS].max_length != bmax) {
			if (!bad_max)
				diag("%s src %u k %u: otms %u, brute %u", name,
				     src, k, ms[WC_PP_OTMS].max_length, bmax);
			bad_max++;
		}
		for (a = WC_PP_DUAL_PATH; a <= WC_PP_MULTIPATH; a++)
			if (ms[a].channels < bsum || ms[a].max_length < bmax)
				worse++;
		for (a = WC_PP_DUAL_PATH; a <= WC_PP_OTMS; a++)
			wc_mstar_free(&ms[a]);
	}
	is_int(errs, 0, "%s: every planner accepts %u random instances", name,
	       trials);
	is_int(invalid, 0, "%s: every plan is a valid multicast star", name);
	is_int(bad_sum, 0, "%s: OCMS channels = brute-force minimum", name);
	is_int(bad_max, 0, "%s: OTMS max length = brute-force minimum", name);
	is_int(worse, 0, "%s: no heuristic beats the optima", name);
	world_free(&w);
}

static void test_bad_input(void)
{
	struct wc_topo t;
	struct wc_labeling lb;
	struct wc_mstar ms;
	u32 dims[2] = { 4, 4 }, d[3] = { 1, 2, 1 }, self[1] = { 5 };
	u32 far[1] = { 16 };

	wc_topo_init(&t, WC_TOPO_MESH, 2, dims, NULL);
	wc_labeling_init(&lb, &t);
	is_int(wc_pathplan(&lb, WC_PP_OCMS, 0, d, 3, &ms), -EINVAL,
	       "duplicate destination rejected");
	is_int(wc_pathplan(&lb, WC_PP_OTMS, 5, self, 1, &ms), -EINVAL,
	       "source as destination rejected");
	is_int(wc_pathplan(&lb, WC_PP_DUAL_PATH, 0, far, 1, &ms), -EINVAL,
	       "out-of-range destination rejected");
	is_int(wc_pathplan(&lb, WC_PP_OCMS, 16, d, 1, &ms), -EINVAL,
	       "out-of-range source rejected");
	is_int(wc_pathplan(&lb, WC_PP_OTMS, 3, d, 0, &ms), 0,
	       "empty destination set is a valid (empty) star");
	is_int(ms.nworms, 0, "empty destination set: no worm");
	wc_mstar_free(&ms);
	wc_labeling_free(&lb);
}

/* The paper's Figure 2 mesh: the source has two high ports. */
static void test_small_example(void)
{
	struct wc_topo t;
	struct wc_labeling lb;
	struct wc_mstar ms;
	u32 dims[2] = { 4, 3 }, d[2], c[2];

	wc_topo_init(&t, WC_TOPO_MESH, 2, dims, NULL);
	wc_labeling_init(&lb, &t);
	/* source (1,0) label 1; a = (2,0) label 2, b = (1,1) label 6 */
	c[0] = 2; c[1] = 0;
	d[0] = wc_topo_node(&t, c);
	c[0] = 1; c[1] = 1;
	d[1] = wc_topo_node(&t, c);
	c[0] = 1; c[1] = 0;
	wc_pathplan(&lb, WC_PP_OTMS, wc_topo_node(&t, c), d, 2, &ms);
	is_int(ms.nworms, 2, "OTMS from (1,0) to a and b uses both ports");
	is_int(ms.max_length, 1, "... each one hop long");
	wc_mstar_free(&ms);
	wc_pathplan(&lb, WC_PP_DUAL_PATH, wc_topo_node(&t, c), d, 2, &ms);
	is_int(ms.nworms, 1, "dual-path sends one worm up");
	/* R shortcuts 1 -> 2 -> 5 -> 6 (label 5 is above label 2) */
	is_int(ms.channels, 3, "... R shortcuts labels 1, 2, 5, 6: 3 channels");
	wc_mstar_free(&ms);
	wc_labeling_free(&lb);
}

/* Bigger instances: OCMS and OTMS stay valid and ordered. */
static void test_larger(void)
{
	struct world w;
	u32 dims[2] = { 16, 16 }, trial, bad = 0;

	world_init(&w, WC_TOPO_MESH, 2, dims);
	for (trial = 0; trial < 20; trial++) {
		u32 src, d[64], k, a;
		struct wc_mstar ms[4];
		const char *why;

		random_instance(&w, 60, &src, d, &k);
		for (a = WC_PP_DUAL_PATH; a <= WC_PP_OTMS; a++) {
			if (wc_pathplan(&w.lb, a, src, d, k, &ms[a]) ||
			    !wc_mstar_check(&w.lb, src, d, k, &ms[a], &why))
				bad++;
		}
		for (a = WC_PP_DUAL_PATH; a <= WC_PP_MULTIPATH; a++)
			if (ms[WC_PP_OCMS].channels > ms[a].channels ||
			    ms[WC_PP_OTMS].max_length > ms[a].max_length)
				bad++;
		for (a = WC_PP_DUAL_PATH; a <= WC_PP_OTMS; a++)
			wc_mstar_free(&ms[a]);
	}
	is_int(bad, 0, "16x16 mesh, up to 60 destinations: valid and ordered");
	world_free(&w);
}

int main(void)
{
	u32 m44[2] = { 4, 4 }, m35[2] = { 3, 5 }, m233[3] = { 2, 3, 3 };
	u32 t44[2] = { 4, 4 }, t34[2] = { 3, 4 }, t23[2] = { 2, 3 };
	u32 m8[1] = { 8 }, h4[1] = { 4 }, h5[1] = { 5 };
	u32 s4[1] = { 4 }, s5[1] = { 5 };

	test_bad_input();
	test_small_example();
	against_brute("mesh 4x4", WC_TOPO_MESH, 2, m44, 6, 1500);
	against_brute("mesh 3x5", WC_TOPO_MESH, 2, m35, 6, 1000);
	against_brute("mesh 8", WC_TOPO_MESH, 1, m8, 5, 300);
	against_brute("mesh 2x3x3", WC_TOPO_MESH, 3, m233, 4, 1000);
	against_brute("torus 4x4", WC_TOPO_TORUS, 2, t44, 6, 1500);
	against_brute("torus 3x4", WC_TOPO_TORUS, 2, t34, 6, 1000);
	against_brute("torus 2x3", WC_TOPO_TORUS, 2, t23, 4, 500);
	against_brute("hypercube 4", WC_TOPO_HYPERCUBE, 1, h4, 6, 1500);
	against_brute("hypercube 5", WC_TOPO_HYPERCUBE, 1, h5, 5, 1000);
	against_brute("star 4", WC_TOPO_STAR, 1, s4, 6, 1500);
	against_brute("star 5", WC_TOPO_STAR, 1, s5, 6, 1500);
	test_larger();
	return done_testing();
}
