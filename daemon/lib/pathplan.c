// SPDX-License-Identifier: GPL-2.0
/*
 * Path-based multicast planners; see pathplan.h.
 *
 * Each side of the source (destinations above it, destinations below it)
 * is planned on its own.  Within a side the destinations are numbered
 * 1..m in travel order (ascending labels above the source, descending
 * below) and 0 stands for the source.  A plan for the side is a predecessor
 * array: pred[j] is the destination visited just before j by the same worm,
 * or 0 if j is its worm's first destination; the worm then leaves the
 * source through port[j], the port R takes toward j.
 */
#include "pathplan.h"

#include <stdlib.h>

#define PP_INF		((s64)1 << 50)
/*
 * OTMS budgets while the dynamic programme runs: states in one layer, back
 * pointers kept overall (the estimate of wc_otms_states() is checked
 * against WC_OTMS_BUDGET before it starts; these catch what the estimate
 * cannot see, many Pareto-minimal length vectors per key).
 */
#define OTMS_MAX_LAYER	(1u << 20)
#define OTMS_MAX_TOTAL	(1u << 22)

struct side {
	const struct wc_labeling *lb;
	const u32 *nbr;		/* label-indexed neighbour labels */
	u32 nports;
	u32 src;
	bool up;
	u32 m;			/* destinations on this side */
	u32 *d;			/* d[1..m]: nodes in travel order; d[0] = src */
	u32 *port;		/* port[j]: source port R takes toward d[j] */
	u32 nomega;		/* ports used by some destination (Omega) */
	u32 omega[WC_MAX_PORTS];
	u32 *dist;		/* dist[i * (m + 1) + j] = d_R(d[i], d[j]), i < j */
	u32 *pred;		/* the side's plan */
};

static u32 lab(const struct side *s, u32 node)
{
	return s->lb->label[node];
}

/* Hops R takes from label @a to label @b, using the label tables. */
static u32 hops_by_label(const u32 *nbr, u32 nports, u32 a, u32 b)
{
	u32 hops = 0, port;

	while (a != b) {
		port = wc_lr_next_port(a, nbr + (size_t)a * nports, nports, b);
		if (port >= nports)
			return U32_MAX;
		a = nbr[(size_t)a * nports + port];
		hops++;
	}
	return hops;
}

/*
 * d_R from every node between the source and d[j] to d[j], by dynamic
 * programming backwards from d[j]: R's next hop always lies strictly closer
 * to d[j] in label order.  @h has room for N entries, indexed by the label
 * distance to d[j].  Fills column j of the distance matrix.
 */
static void side_fill_column(struct side *s, u32 j, u32 *h)
{
	u32 tl = lab(s, s->d[j]), sl = lab(s, s->src), span, off, l, port;
	u32 i, m1 = s->m + 1;
	const u32 *row;

	span = tl > sl ? tl - sl : sl - tl;
	h[0] = 0;
	for (off = 1; off <= span; off++) {
		l = s->up ? tl - off : tl + off;
		row = s->nbr + (size_t)l * s->nports;
		port = wc_lr_next_port(l, row, s->nports, tl);
		/* The labeling is Hamiltonian, so R always moves closer. */
		h[off] = 1 + h[row[port] > tl ? row[port] - tl : tl - row[port]];
	}
	for (i = 0; i < j; i++) {
		l = lab(s, s->d[i]);
		s->dist[(size_t)i * m1 + j] = h[l > tl ? l - tl : tl - l];
	}
}

static int side_fill_dist(struct side *s)
{
	u32 *h, j;

	s->dist = wc_calloc((size_t)(s->m + 1) * (s->m + 1), sizeof(u32));
	h = wc_calloc(s->lb->topo.nnodes, sizeof(u32));
	if (!s->dist || !h) {
		wc_free(h);
		return -ENOMEM;
	}
	for (j = 1; j <= s->m; j++)
		side_fill_column(s, j, h);
	wc_free(h);
	return 0;
}

static u32 dist(const struct side *s, u32 i, u32 j)
{
	return s->dist[(size_t)i * (s->m + 1) + j];
}

static u32 omega_index(const struct side *s, u32 port)
{
	u32 i;

	for (i = 0; i < s->nomega; i++)
		if (s->omega[i] == port)
			return i;
	return U32_MAX;
}

/* ------------------------------------------------------------ heuristics */

/* Dual-path: one worm through all the side's destinations. */
static void plan_single(struct side *s)
{
	u32 j;

	for (j = 1; j <= s->m; j++)
		s->pred[j] = j - 1;
}

/* Multipath: one worm per source port, fed the destinations R sends there. */
static void plan_by_port(struct side *s)
{
	u32 last[WC_MAX_PORTS], j, w;

	for (w = 0; w < s->nomega; w++)
		last[w] = 0;
	for (j = 1; j <= s->m; j++) {
		w = omega_index(s, s->port[j]);
		s->pred[j] = last[w];
		last[w] = j;
	}
}

/* ------------------------------------------------------------------ OCMS */

/*
 * Bipartite graph of section 3.2, generalised in section 5: rows are the
 * P = |Omega| source instances then destinations 1..m; columns are
 * destinations 1..m then the P path ends.
 */
static s64 ocms_cost(const struct side *s, u32 row, u32 col)
{
	u32 p = s->nomega;

	if (col > s->m)
		return 0;				/* a path may end here */
	if (row <= p)					/* source, port omega[row-1] */
		return s->port[col] == s->omega[row - 1] ?
		       (s64)dist(s, 0, col) : PP_INF;
	row -= p;
	return row < col ? (s64)dist(s, row, col) : PP_INF;
}

/*
 * Min-weight perfect matching by the Hungarian algorithm with potentials
 * (Kuhn-Munkres, O(n^3)), 1-based; match[col] = row.
 */
static int hungarian(const struct side *s, u32 n, u32 *match)
{
	s64 *u, *v, *minv;
	u32 *way, i, j, j0, j1, i0;
	bool *used;
	int err = -ENOMEM;

	u = wc_calloc(n + 1, sizeof(*u));
	v = wc_calloc(n + 1, sizeof(*v));
	minv = wc_calloc(n + 1, sizeof(*minv));
	way = wc_calloc(n + 1, sizeof(*way));
	used = wc_calloc(n + 1, sizeof(*used));
	if (!u || !v || !minv || !way || !used)
		goto out;
	memset(match, 0, (n + 1) * sizeof(*match));
	for (i = 1; i <= n; i++) {
		match[0] = i;
		j0 = 0;
		for (j = 0; j <= n; j++) {
			minv[j] = PP_INF * 4;
			used[j] = false;
		}
		do {
			s64 delta = PP_INF * 4;

			used[j0] = true;
			i0 = match[j0];
			j1 = 0;
			for (j = 1; j <= n; j++) {
				s64 cur;

				if (used[j])
					continue;
				cur = ocms_cost(s, i0, j) - u[i0] - v[j];
				if (cur < minv[j]) {
					minv[j] = cur;
					way[j] = j0;
				}
				if (minv[j] < delta) {
					delta = minv[j];
					j1 = j;
				}
			}
			for (j = 0; j <= n; j++) {
				if (used[j]) {
					u[match[j]] += delta;
					v[j] -= delta;
				} else {
					minv[j] -= delta;
				}
			}
			j0 = j1;
		} while (match[j0]);
		do {
			j1 = way[j0];
			match[j0] = match[j1];
			j0 = j1;
		} while (j0);
	}
	err = 0;
out:
	wc_free(u);
	wc_free(v);
	wc_free(minv);
	wc_free(way);
	wc_free(used);
	return err;
}

static int plan_ocms(struct side *s)
{
	u32 n = s->m + s->nomega, *match, j, row;
	int err;

	match = wc_calloc(n + 1, sizeof(*match));
	if (!match)
		return -ENOMEM;
	err = hungarian(s, n, match);
	if (!err) {
		for (j = 1; j <= s->m; j++) {
			row = match[j];
			s->pred[j] = row <= s->nomega ? 0 : row - s->nomega;
		}
	}
	wc_free(match);
	return err;
}

/* ------------------------------------------------------------------ OTMS */

/*
 * Dynamic programming over destinations 1..m in travel order, the
 * generalisation of the paper's Algorithm 2 to P = |Omega| worms.  After
 * destination i a partial star is summed up by: the ports not used yet, and
 * for each worm already started, where it ends and its length (one of them
 * ends at i).  Started worms are interchangeable, so they are kept sorted
 * by end.  Destination i+1 either extends one of them or starts the worm
 * of port R(src, d[i+1]) if that port is still free.
 *
 * Instead of the paper's boolean table T(i, j, l1, l2) over all lengths
 * (O(k^2 N^2) time and space) we keep, for each (free ports, worm ends)
 * key, only the Pareto-minimal length vectors: for two worms that is the
 * least l2 for each (i, j, l1), and usually far fewer.
 *
 * The number of keys still grows like C(m, P - 1) for m destinations, and
 * the Pareto sets with the spread of the lengths.  Two things keep the
 * work bounded:
 *  - before anything runs, wc_otms_states() bounds the keys from m and P
 *    alone and a side over WC_OTMS_BUDGET is refused at once (-E2BIG);
 *  - the programme is run as a decision procedure, "is there a star whose
 *    longest worm is at most L?" (states with a longer worm are dropped),
 *    by bisection on L between 0 and the longest worm of the better of
 *    the dual-path and multipath stars.  Near the optimum few length
 *    vectors survive: on S_5 with 60 destinations above the source one
 *    run with L = the dual-path length kept 3.3 million states in 12 s,
 *    the bisection keeps at most about 0.5 million per run, 1 s in all.
 */
struct ot_state {
	u32 parent;		/* index in the previous layer */
	u16 prev_end;		/* destination extended by this step, 0 = new */
	u16 unused;		/* free ports, bit i = omega[i] */
	u8 nst;			/* started worms */
	u16 end[WC_MAX_PORTS];
	u16 len[WC_MAX_PORTS];
};

struct ot_back {
	u32 parent;
	u32 prev_end;
};

static int ot_key_cmp(const struct ot_state *a, const struct ot_state *b)
{
	u32 i;

	if (a->unused != b->unused)
		return a->unused < b->unused ? -1 : 1;
	if (a->nst != b->nst)
		return a->nst < b->nst ? -1 : 1;
	for (i = 0; i < a->nst; i++)
		if (a->end[i] != b->end[i])
			return a->end[i] < b->end[i] ? -1 : 1;
	return 0;
}

static int ot_cmp(const void *pa, const void *pb)
{
	const struct ot_state *a = pa, *b = pb;
	int c = ot_key_cmp(a, b);
	u32 i;

	if (c)
		return c;
	for (i = 0; i < a->nst; i++)
		if (a->len[i] != b->len[i])
			return a->len[i] < b->len[i] ? -1 : 1;
	return 0;
}

static bool ot_dominates(const struct ot_state *a, const struct ot_state *b)
{
	u32 i;

	for (i = 0; i < a->nst; i++)
		if (a->len[i] > b->len[i])
			return false;
	return true;
}

static u32 ot_max(const struct ot_state *a)
{
	u32 i, mx = 0;

	for (i = 0; i < a->nst; i++)
		mx = max_t(u32, mx, a->len[i]);
	return mx;
}

/* Sort a layer and keep the Pareto-minimal states of each key. */
static u32 ot_prune(struct ot_state *st, u32 n)
{
	u32 i, g0 = 0, out = 0, k;

	if (!n)
		return 0;
	qsort(st, n, sizeof(*st), ot_cmp);
	for (i = 0; i < n; i++) {
		bool dominated = false;

		if (i && ot_key_cmp(&st[i], &st[i - 1]))
			g0 = out;	/* new key: kept states start here */
		for (k = g0; k < out && !dominated; k++)
			dominated = ot_dominates(&st[k], &st[i]);
		if (!dominated)
			st[out++] = st[i];
	}
	return out;
}

/* Grow *@arr (of @size-byte items, *@cap of them) to hold @need items. */
static int grow(void **arr, u32 *cap, u32 need, size_t size, u32 limit)
{
	u32 ncap = *cap ? *cap : 256;
	void *p;

	if (need <= *cap)
		return 0;
	if (need > limit)
		return -E2BIG;
	while (ncap < need)
		ncap = ncap > limit / 2 ? limit : ncap * 2;
	p = realloc(*arr, (size_t)ncap * size);
	if (!p)
		return -ENOMEM;
	*arr = p;
	*cap = ncap;
	return 0;
}

/*
 * One run with every worm at most @bound long: 0 with the side's plan in
 * pred[] and its longest worm in *@got, -ENOENT if no star is that short,
 * -E2BIG over the run-time budgets, -ENOMEM.
 */
static int otms_run(struct side *s, u32 bound, u32 *got)
{
	struct ot_state *cur = NULL, *next = NULL, *tmp, ns;
	struct ot_back *back = NULL;
	u32 ccap = 0, ncap = 0, bcap = 0, ncur, nnext, total, i, t, j;
	u32 best, besti, *layer_start;
	int err;

	layer_start = wc_calloc(s->m + 2, sizeof(u32));
	err = layer_start ? 0 : -ENOMEM;
	if (!err)
		err = grow((void **)&cur, &ccap, 1, sizeof(*cur), OTMS_MAX_LAYER);
	if (!err)
		err = grow((void **)&back, &bcap, 1, sizeof(*back), OTMS_MAX_TOTAL);
	if (err)
		goto out;

	memset(&cur[0], 0, sizeof(cur[0]));
	cur[0].unused = (u16)((1u << s->nomega) - 1);
	ncur = 1;
	total = 1;
	for (j = 1; j <= s->m; j++) {
		u32 pi = omega_index(s, s->port[j]);

		nnext = 0;
		for (i = 0; i < ncur; i++) {
			const struct ot_state *c = &cur[i];

			/* t < nst: extend started worm t; t == nst: new worm */
			for (t = 0; t <= c->nst; t++) {
				u32 l, e, q, r;

				if (t == c->nst && !(c->unused & (1u << pi)))
					continue;
				e = t == c->nst ? 0 : c->end[t];
				l = (t == c->nst ? 0 : c->len[t]) + dist(s, e, j);
				if (l > bound)
					continue;
				if (nnext == ncap) {
					/*
					 * Full: prune what we have, then make
					 * room for half as many again, so that
					 * a layer is not sorted again after
					 * every few states.
					 */
					nnext = ot_prune(next, nnext);
					err = grow((void **)&next, &ncap,
						   nnext + nnext / 2 + 1,
						   sizeof(*next), OTMS_MAX_LAYER);
					if (err)
						goto out;
				}
				ns = *c;
				ns.parent = i;
				ns.prev_end = (u16)e;
				if (t == c->nst) {
					ns.unused &= (u16)~(1u << pi);
					ns.nst++;
				}
				/* drop worm t (if any), append the worm ending at j */
				for (q = 0, r = 0; q < c->nst; q++) {
					if (q == t)
						continue;
					ns.end[r] = c->end[q];
					ns.len[r++] = c->len[q];
				}
				ns.end[r] = (u16)j;
				ns.len[r] = (u16)l;
				next[nnext++] = ns;
			}
		}
		nnext = ot_prune(next, nnext);
		if (!nnext) {
			err = -ENOENT;	/* every partial star is too long */
			goto out;
		}
		err = grow((void **)&back, &bcap, total + nnext, sizeof(*back),
			   OTMS_MAX_TOTAL);
		if (err)
			goto out;
		layer_start[j] = total;
		for (i = 0; i < nnext; i++) {
			back[total + i].parent = layer_start[j - 1] + next[i].parent;
			back[total + i].prev_end = next[i].prev_end;
		}
		total += nnext;
		tmp = cur;
		cur = next;
		next = tmp;
		t = ccap;
		ccap = ncap;
		ncap = t;
		ncur = nnext;
	}

	best = U32_MAX;
	besti = 0;
	for (i = 0; i < ncur; i++) {
		if (ot_max(&cur[i]) < best) {
			best = ot_max(&cur[i]);
			besti = i;
		}
	}
	/* Walk the back pointers from the best final state. */
	t = layer_start[s->m] + besti;
	for (j = s->m; j >= 1; j--) {
		s->pred[j] = back[t].prev_end;
		t = back[t].parent;
	}
	*got = best;
out:
	free(cur);
	free(next);
	free(back);
	wc_free(layer_start);
	return err;
}

/* Longest worm of the side's plan pred[] (pred[j] < j) into *@mx. */
static int side_max_length(const struct side *s, u32 *mx)
{
	u32 *len = wc_calloc(s->m + 1, sizeof(u32)), j;

	if (!len)
		return -ENOMEM;
	*mx = 0;
	for (j = 1; j <= s->m; j++) {
		len[j] = len[s->pred[j]] + dist(s, s->pred[j], j);
		*mx = max_t(u32, *mx, len[j]);
	}
	wc_free(len);
	return 0;
}

/*
 * Bisection on the longest worm: hi is always reached by the plan in
 * pred[] (first the better heuristic, then each run that succeeds), no
 * star has every worm within lo.
 */
static int plan_otms(struct side *s)
{
	u32 lo = 0, hi, alt, mid, got;
	int err;

	plan_by_port(s);
	err = side_max_length(s, &alt);
	if (!err) {
		plan_single(s);
		err = side_max_length(s, &hi);
	}
	if (err)
		return err;
	if (alt < hi) {
		plan_by_port(s);
		hi = alt;
	}
	while (hi - lo > 1) {
		mid = lo + (hi - lo) / 2;
		err = otms_run(s, mid, &got);
		if (err == -ENOENT) {
			lo = mid;
		} else if (err) {
			return err;
		} else {
			hi = got;
		}
	}
	return 0;
}

double wc_otms_states(u32 m, u32 ports)
{
	double c_m = 1, c_p = 1, sum = 0;
	u32 i;

	/* sum over s of C(m, s) C(P, s): keys with s worms started */
	for (i = 1; i <= ports && i <= m; i++) {
		c_m = c_m * (m - i + 1) / i;
		c_p = c_p * (ports - i + 1) / i;
		sum += c_m * c_p;
	}
	return sum;
}

u32 wc_otms_fit(u32 ports)
{
	u32 lo = 0, hi = 0xffff, mid;	/* ends are u16 */

	/* the estimate grows with m: the last m within the budget */
	while (lo < hi) {
		mid = hi - (hi - lo) / 2;
		if (wc_otms_states(mid, ports) <= WC_OTMS_BUDGET)
			lo = mid;
		else
			hi = mid - 1;
	}
	return lo;
}

int wc_otms_size(const struct wc_labeling *lb, u32 src, const u32 *dests,
		 u32 k, struct wc_otms_side side[2])
{
	const struct wc_topo *t = &lb->topo;
	u32 nbr[WC_MAX_PORTS], used[2] = { 0, 0 }, sl, j, p, up, i;
	int err = 0;

	if (src >= t->nnodes)
		return -EINVAL;
	memset(side, 0, 2 * sizeof(*side));
	sl = wc_labeling_router(lb, src, nbr);
	for (j = 0; j < k; j++) {
		if (dests[j] >= t->nnodes || dests[j] == src)
			return -EINVAL;
		p = wc_lr_next_port(sl, nbr, t->nports, lb->label[dests[j]]);
		if (p >= t->nports)
			return -EINVAL;
		up = lb->label[dests[j]] > sl ? 0 : 1;
		side[up].m++;
		used[up] |= 1u << p;
	}
	for (i = 0; i < 2; i++) {
		side[i].ports = (u32)__builtin_popcount(used[i]);
		side[i].states = wc_otms_states(side[i].m, side[i].ports);
		if (side[i].states > WC_OTMS_BUDGET)
			err = -E2BIG;
	}
	return err;
}

/* -------------------------------------------------------------- plumbing */

static int side_setup(struct side *s, const struct wc_labeling *lb,
		      const u32 *nbr, u32 src, bool up, const u32 *dests,
		      u32 k, u32 *sorted_by_label)
{
	u32 j, sl = lb->label[src];

	memset(s, 0, sizeof(*s));
	s->lb = lb;
	s->nbr = nbr;
	s->nports = lb->topo.nports;
	s->src = src;
	s->up = up;
	for (j = 0; j < k; j++)
		if (up ? lb->label[dests[j]] > sl : lb->label[dests[j]] < sl)
			s->m++;
	s->d = wc_calloc(s->m + 1, sizeof(u32));
	s->port = wc_calloc(s->m + 1, sizeof(u32));
	s->pred = wc_calloc(s->m + 1, sizeof(u32));
	if (!s->d || !s->port || !s->pred)
		return -ENOMEM;
	s->d[0] = src;
	/* sorted_by_label lists all destinations by ascending label */
	if (up) {
		for (j = 0; j < s->m; j++)
			s->d[j + 1] = sorted_by_label[k - s->m + j];
	} else {
		for (j = 0; j < s->m; j++)
			s->d[j + 1] = sorted_by_label[s->m - 1 - j];
	}
	for (j = 1; j <= s->m; j++) {
		u32 p = wc_lr_next_port(sl, nbr + (size_t)sl * s->nports,
					s->nports, lb->label[s->d[j]]);

		if (p >= s->nports)
			return -EINVAL;	/* labeling not Hamiltonian */
		s->port[j] = p;
		if (omega_index(s, p) == U32_MAX)
			s->omega[s->nomega++] = p;
	}
	return 0;
}

static void side_free(struct side *s)
{
	wc_free(s->d);
	wc_free(s->port);
	wc_free(s->pred);
	wc_free(s->dist);
}

/* Turn the side's pred[] into worms appended to @ms. */
static void side_emit(const struct side *s, struct wc_mstar *ms, u32 **buf)
{
	u32 *succ, j, first, c;

	succ = wc_calloc(s->m + 1, sizeof(u32));
	if (!succ)
		return;
	for (j = 1; j <= s->m; j++)
		if (s->pred[j])
			succ[s->pred[j]] = j;
	for (first = 1; first <= s->m; first++) {
		struct wc_mstar_worm *w;
		u32 prev = s->src;

		if (s->pred[first])
			continue;
		w = &ms->worms[ms->nworms++];
		w->port = s->port[first];
		w->dests = *buf;
		w->ndests = 0;
		w->length = 0;
		for (c = first; c; c = succ[c]) {
			w->dests[w->ndests++] = s->d[c];
			w->length += hops_by_label(s->nbr, s->nports,
						   s->lb->label[prev],
						   s->lb->label[s->d[c]]);
			prev = s->d[c];
		}
		*buf += w->ndests;
		ms->channels += w->length;
		ms->max_length = max_t(u32, ms->max_length, w->length);
	}
	wc_free(succ);
}

static int cmp_u32_pair(const void *a, const void *b)
{
	const u32 *x = a, *y = b;

	return x[0] < y[0] ? -1 : x[0] > y[0];
}

const char *wc_pathplan_name(enum wc_pathplan_algo algo)
{
	switch (algo) {
	case WC_PP_DUAL_PATH:
		return "dual-path";
	case WC_PP_MULTIPATH:
		return "multipath";
	case WC_PP_OCMS:
		return "ocms";
	case WC_PP_OTMS:
		return "otms";
	}
	return NULL;
}

int wc_pathplan_parse(const char *name, enum wc_pathplan_algo *algo)
{
	u32 a;

	for (a = WC_PP_DUAL_PATH; a <= WC_PP_OTMS; a++) {
		if (!strcmp(name, wc_pathplan_name(a))) {
			*algo = a;
			return 0;
		}
	}
	return -EINVAL;
}

void wc_mstar_free(struct wc_mstar *ms)
{
	wc_free(ms->dest_buf);
	memset(ms, 0, sizeof(*ms));
}

int wc_pathplan(const struct wc_labeling *lb, enum wc_pathplan_algo algo,
		u32 src, const u32 *dests, u32 k, struct wc_mstar *ms)
{
	const struct wc_topo *t = &lb->topo;
	struct side sides[2];
	u32 *nbr = NULL, *pairs = NULL, *sorted = NULL, *buf, j, si;
	int err = -ENOMEM;

	memset(ms, 0, sizeof(*ms));
	memset(sides, 0, sizeof(sides));
	if (src >= t->nnodes || k >= t->nnodes || algo > WC_PP_OTMS)
		return -EINVAL;
	if (algo == WC_PP_OTMS) {
		struct wc_otms_side size[2];

		err = wc_otms_size(lb, src, dests, k, size);
		if (err)
			return err;	/* -E2BIG at once, before any work */
	}
	nbr = wc_calloc((size_t)t->nnodes * t->nports, sizeof(u32));
	pairs = wc_calloc((size_t)k * 2, sizeof(u32));
	sorted = wc_calloc(k, sizeof(u32));
	ms->dest_buf = wc_calloc(k, sizeof(u32));
	if (!nbr || !pairs || !sorted || !ms->dest_buf)
		goto out;

	/* Destinations sorted by label; reject duplicates and the source. */
	for (j = 0; j < k; j++) {
		err = -EINVAL;
		if (dests[j] >= t->nnodes || dests[j] == src)
			goto out;
		pairs[2 * j] = lb->label[dests[j]];
		pairs[2 * j + 1] = dests[j];
	}
	qsort(pairs, k, 2 * sizeof(u32), cmp_u32_pair);
	for (j = 0; j < k; j++) {
		if (j && pairs[2 * j] == pairs[2 * j - 2])
			goto out;
		sorted[j] = pairs[2 * j + 1];
	}

	/* Label-indexed neighbour table: what the routers store. */
	for (j = 0; j < t->nnodes; j++)
		wc_labeling_router(lb, lb->node[j], nbr + (size_t)j * t->nports);

	ms->src = src;
	buf = ms->dest_buf;
	for (si = 0; si < 2; si++) {
		struct side *s = &sides[si];

		err = side_setup(s, lb, nbr, src, si == 0, dests, k, sorted);
		if (err)
			goto out;
		if (!s->m)
			continue;
		switch (algo) {
		case WC_PP_DUAL_PATH:
			plan_single(s);
			break;
		case WC_PP_MULTIPATH:
			plan_by_port(s);
			break;
		case WC_PP_OCMS:
			err = side_fill_dist(s);
			if (!err)
				err = plan_ocms(s);
			break;
		case WC_PP_OTMS:
			err = side_fill_dist(s);
			if (!err)
				err = plan_otms(s);
			break;
		}
		if (err)
			goto out;
		side_emit(s, ms, &buf);
	}
	err = buf == ms->dest_buf + k ? 0 : -ENOMEM;
out:
	side_free(&sides[0]);
	side_free(&sides[1]);
	wc_free(nbr);
	wc_free(pairs);
	wc_free(sorted);
	if (err)
		wc_mstar_free(ms);
	return err;
}

u32 wc_mstar_worm_route(const struct wc_labeling *lb, u32 src,
			const struct wc_mstar_worm *worm, u32 *path)
{
	u32 n = 1, j, prev = src, h;

	path[0] = src;
	for (j = 0; j < worm->ndests; j++) {
		h = wc_labeling_route(lb, prev, worm->dests[j], path + n - 1);
		if (h == U32_MAX)
			return n;
		n += h;
		prev = worm->dests[j];
	}
	return n;
}

static bool fail(const char **why, const char *msg)
{
	if (why)
		*why = msg;
	return false;
}

bool wc_mstar_check(const struct wc_labeling *lb, u32 src, const u32 *dests,
		    u32 k, const struct wc_mstar *ms, const char **why)
{
	const struct wc_topo *t = &lb->topo;
	u32 ports_used = 0, covered = 0, channels = 0, maxlen = 0, w, j;
	u32 nbr[WC_MAX_PORTS], sl = lb->label[src];
	u8 *want;
	bool ok = false;

	want = wc_zalloc(t->nnodes);
	if (!want)
		return fail(why, "out of memory");
	for (j = 0; j < k; j++)
		want[dests[j]] = 1;
	wc_labeling_router(lb, src, nbr);
	for (w = 0; w < ms->nworms; w++) {
		const struct wc_mstar_worm *wm = &ms->worms[w];
		u32 len = 0, prev = src, h;
		bool up;

		if (!wm->ndests || wm->port >= t->nports) {
			fail(why, "empty worm or bad port");
			goto out;
		}
		if (ports_used & (1u << wm->port)) {
			fail(why, "two worms share a source port");
			goto out;
		}
		ports_used |= 1u << wm->port;
		up = lb->label[wm->dests[0]] > sl;
		if (wc_lr_next_port(sl, nbr, t->nports,
				    lb->label[wm->dests[0]]) != wm->port) {
			fail(why, "R does not leave through the worm's port");
			goto out;
		}
		for (j = 0; j < wm->ndests; j++) {
			u32 d = wm->dests[j];

			if (d >= t->nnodes || want[d] != 1) {
				fail(why, "destination missing, repeated or foreign");
				goto out;
			}
			want[d] = 2;
			covered++;
			if (up ? lb->label[d] <= lb->label[prev] :
				 lb->label[d] >= lb->label[prev]) {
				fail(why, "worm not monotone in label order");
				goto out;
			}
			h = wc_labeling_route(lb, prev, d, NULL);
			if (h == U32_MAX) {
				fail(why, "R cannot reach a destination");
				goto out;
			}
			len += h;
			prev = d;
		}
		if (len != wm->length) {
			fail(why, "worm length wrong");
			goto out;
		}
		channels += len;
		maxlen = max_t(u32, maxlen, len);
	}
	if (covered != k) {
		fail(why, "not every destination is covered");
		goto out;
	}
	if (channels != ms->channels || maxlen != ms->max_length) {
		fail(why, "totals wrong");
		goto out;
	}
	ok = true;
out:
	wc_free(want);
	return ok;
}
