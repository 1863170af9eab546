// SPDX-License-Identifier: GPL-2.0
/* Hamiltonian labelings; see labeling.h. */
#include "labeling.h"
#include "sptree.h"

static u32 snake2(u32 x, u32 y, u32 ncols)
{
	return y * ncols + ((y & 1) ? ncols - 1 - x : x);
}

static u32 grid_label(const struct wc_topo *t, u32 node)
{
	u32 c[WC_MAX_COORDS], area, s;

	wc_topo_coords(t, node, c);
	switch (t->ndims) {
	case 1:
		return c[0];
	case 2:
		return snake2(c[0], c[1], t->dims[0]);
	default:
		area = t->dims[0] * t->dims[1];
		s = snake2(c[0], c[1], t->dims[0]);
		return c[2] * area + ((c[2] & 1) ? area - 1 - s : s);
	}
}

/*
 * Star graph S_n.  A substar on positions 0..k-1 (the symbols at positions
 * >= k stay fixed) is walked by hp(): starting at p, visit all k!
 * arrangements and stop at one whose first symbol is @x (x must differ from
 * p[0] and sit in p[0..k-1]).
 *
 *  k = 2: p[0]p[1] -> p[1]p[0]; x must be p[1].
 *  k = 3: S_3 is a 6-cycle: go round it one way or the other, with
 *         generators g2,g3,g2,g3,g2 (ends with first symbol p[2]) or
 *         g3,g2,g3,g2,g3 (ends with first symbol p[1]).
 *  k >= 4: walk the k substars S_{k-1} (position k-1 fixed) in an order
 *         y_1 .. y_k of their last symbols, y_1 = p[k-1], hopping from one
 *         to the next with g_k (swap positions 0 and k-1).  Substar i must
 *         end with first symbol y_{i+1} (which g_k then moves to position
 *         k-1), the last one with first symbol x.  This needs
 *         y_2 != p[0] and x not in {y_{k-1}, y_k}; among the orders that
 *         satisfy it we take the first one listing symbols by decreasing
 *         value.
 *
 * The top level is hp(12..n, x = n).  For S_4 this yields the order
 * 4, 3, 2, 1 of last symbols and the labels printed in the star paper.
 * The recursion is at most n - 3 <= 4 deep.
 */
static u32 wc_star_nnodes(u32 n)
{
	u32 f = 1;

	while (n > 1)
		f *= n--;
	return f;
}

struct star_walk {
	u32 n;
	u32 *order;
	u32 count;
};

static void emit(struct star_walk *sw, const u8 *p)
{
	sw->order[sw->count++] = wc_star_rank(sw->n, p);
}

static void swap0(u8 *p, u32 i)
{
	u8 tmp = p[0];

	p[0] = p[i];
	p[i] = tmp;
}

static bool pick_order(const u8 *p, u32 k, u8 x, u8 *y, u32 pos, u32 used)
{
	u32 tried = used, i;
	u8 best;

	if (pos == k)
		return true;
	for (;;) {
		/* next untried symbol of p[0..k-2], by decreasing value */
		best = 0;
		for (i = 0; i + 1 < k; i++)
			if (!(tried & (1u << p[i])) && p[i] > best)
				best = p[i];
		if (!best)
			return false;
		tried |= 1u << best;
		if (pos == 1 && best == p[0])
			continue;
		if (pos >= k - 2 && best == x)
			continue;
		y[pos] = best;
		if (pick_order(p, k, x, y, pos + 1, used | (1u << best)))
			return true;
	}
}

static void star_hp(struct star_walk *sw, u8 *p, u32 k, u8 x)
{
	static const u8 pat_a[5] = { 1, 2, 1, 2, 1 };
	static const u8 pat_b[5] = { 2, 1, 2, 1, 2 };
	u8 y[WC_MAX_STAR_N];
	const u8 *pat;
	u32 i;

	if (k == 2) {
		emit(sw, p);
		swap0(p, 1);
		emit(sw, p);
		return;
	}
	if (k == 3) {
		pat = x == p[2] ? pat_a : pat_b;
		emit(sw, p);
		for (i = 0; i < 5; i++) {
			swap0(p, pat[i]);
			emit(sw, p);
		}
		return;
	}
	y[0] = p[k - 1];
	if (!pick_order(p, k, x, y, 1, 1u << p[k - 1]))
		return;	/* cannot happen for k >= 4; the caller sees a short walk */
	for (i = 0; i < k; i++) {
		star_hp(sw, p, k - 1, i + 1 < k ? y[i + 1] : x);
		if (i + 1 < k)
			swap0(p, k - 1);
	}
}

int wc_star_hamiltonian_order(u32 n, u32 *order)
{
	struct star_walk sw = { .n = n, .order = order, .count = 0 };
	u8 p[WC_MAX_STAR_N];
	u32 i;

	if (n < WC_MIN_STAR_N || n > WC_MAX_STAR_N)
		return -EINVAL;
	for (i = 0; i < n; i++)
		p[i] = (u8)(i + 1);
	star_hp(&sw, p, n, (u8)n);
	return sw.count == wc_star_nnodes(n) ? 0 : -EINVAL;
}

bool wc_labeling_order_is_hamiltonian(const struct wc_topo *t,
				      const u32 *order, const char **why)
{
	u8 *seen;
	u32 i, p;
	bool ok = true;

	seen = wc_zalloc(t->nnodes);
	if (!seen) {
		if (why)
			*why = "out of memory";
		return false;
	}
	for (i = 0; i < t->nnodes && ok; i++) {
		if (order[i] >= t->nnodes || seen[order[i]]) {
			if (why)
				*why = "labels are not a permutation of the nodes";
			ok = false;
			break;
		}
		seen[order[i]] = 1;
		if (!i)
			continue;
		for (p = 0; p < t->nports; p++)
			if (wc_topo_neighbor(t, order[i - 1], p) == order[i])
				break;
		if (p == t->nports) {
			if (why)
				*why = "consecutive labels are not neighbours";
			ok = false;
		}
	}
	wc_free(seen);
	return ok;
}

static int alloc_maps(struct wc_labeling *lb, const struct wc_topo *t)
{
	memset(lb, 0, sizeof(*lb));
	lb->topo = *t;
	lb->label = wc_calloc(t->nnodes, sizeof(u32));
	lb->node = wc_calloc(t->nnodes, sizeof(u32));
	if (!lb->label || !lb->node) {
		wc_labeling_free(lb);
		return -ENOMEM;
	}
	return 0;
}

int wc_labeling_from_order(struct wc_labeling *lb, const struct wc_topo *t,
			   const u32 *order, const char **why)
{
	u32 i;
	int err;

	if (!wc_labeling_order_is_hamiltonian(t, order, why))
		return -EINVAL;
	err = alloc_maps(lb, t);
	if (err)
		return err;
	for (i = 0; i < t->nnodes; i++) {
		lb->node[i] = order[i];
		lb->label[order[i]] = i;
	}
	return 0;
}

int wc_labeling_init(struct wc_labeling *lb, const struct wc_topo *t)
{
	u32 i;
	int err;

	err = alloc_maps(lb, t);
	if (err)
		return err;
	switch (t->kind) {
	case WC_TOPO_MESH:
	case WC_TOPO_TORUS:
		for (i = 0; i < t->nnodes; i++)
			lb->label[i] = grid_label(t, i);
		for (i = 0; i < t->nnodes; i++)
			lb->node[lb->label[i]] = i;
		break;
	case WC_TOPO_HYPERCUBE:
		for (i = 0; i < t->nnodes; i++) {
			lb->node[i] = i ^ (i >> 1);
			lb->label[lb->node[i]] = i;
		}
		break;
	case WC_TOPO_STAR:
		err = wc_star_hamiltonian_order(t->dims[0], lb->node);
		if (err)
			goto fail;
		for (i = 0; i < t->nnodes; i++)
			lb->label[lb->node[i]] = i;
		break;
	default:
		err = -EINVAL;
		goto fail;
	}
	return 0;
fail:
	wc_labeling_free(lb);
	return err;
}

void wc_labeling_free(struct wc_labeling *lb)
{
	wc_free(lb->label);
	wc_free(lb->node);
	wc_free(lb->dead);
	lb->label = NULL;
	lb->node = NULL;
	lb->dead = NULL;
}

/* ------------------------------------------------- around faulty links */

/* How many candidate paths wc_labeling_init_faults() walks on @t. */
static u32 ncandidates(const struct wc_topo *t)
{
	if ((t->kind == WC_TOPO_MESH || t->kind == WC_TOPO_TORUS) &&
	    t->ndims == 2)
		return 8;
	return 1;
}

/*
 * Candidate @k of a 2-D grid (label -> node in @order): bit 0 column-major
 * (the boustrophedon climbs the columns), bits 1 and 2 mirror x and y.
 * Candidate 0 is the canonical snake.
 */
static void grid_candidate(const struct wc_topo *t, u32 k, u32 *order)
{
	u32 fast = k & 1 ? t->dims[1] : t->dims[0], l, c[WC_MAX_COORDS] = { 0 };

	for (l = 0; l < t->nnodes; l++) {
		u32 r = l / fast, i = l % fast;
		u32 along = r & 1 ? fast - 1 - i : i;

		c[0] = k & 1 ? r : along;
		c[1] = k & 1 ? along : r;
		if (k & 2)
			c[0] = t->dims[0] - 1 - c[0];
		if (k & 4)
			c[1] = t->dims[1] - 1 - c[1];
		order[l] = wc_topo_node(t, c);
	}
}

/*
 * Candidate @k of S_n: the canonical path @base with every symbol s
 * replaced by sigma(s), sigma the permutation of rank @k (0: identity),
 * an automorphism of the star graph.
 */
static void star_candidate(const struct wc_topo *t, const u32 *base, u32 k,
			   u32 *order)
{
	u32 n = t->dims[0], l, i;
	u8 sigma[WC_MAX_STAR_N], p[WC_MAX_STAR_N];

	wc_star_unrank(n, k, sigma);
	for (l = 0; l < t->nnodes; l++) {
		wc_star_unrank(n, base[l], p);
		for (i = 0; i < n; i++)
			p[i] = sigma[p[i] - 1];
		order[l] = wc_star_rank(n, p);
	}
}

/*
 * S_n: into @cand the candidate (star_candidate()) whose path uses the
 * fewest of the @nlinks faulty links @links, the first of them by rank;
 * *@crossed gets how many hops use one.  Without walking n! paths of n!
 * nodes: hop l of a candidate uses the same port as hop l of @base (a
 * symbol permutation keeps positions), and a star link has the same port
 * at both ends, so hop l uses the faulty link {a, b} exactly when that
 * port is the link's and sigma maps @base[l - 1] to a or to b: each such
 * (link, hop) names two sigmas, whose counts go up.
 */
static int star_pick(const struct wc_topo *t, const u32 *base,
		     const u32 *links, u32 nlinks, u32 *cand, u32 *crossed)
{
	u32 n = t->dims[0], nn = t->nnodes, i, j, l, e, best = 0;
	u32 a, pa, b, pb, *hits = wc_calloc(nn, sizeof(u32));
	u8 *hop_port = wc_zalloc(nn), *perm = wc_zalloc((size_t)nn * n);
	u8 sigma[WC_MAX_STAR_N], end[2][WC_MAX_STAR_N];
	int err = -ENOMEM;

	if (!hits || !hop_port || !perm)
		goto out;
	for (l = 0; l < nn; l++) {
		wc_star_unrank(n, base[l], perm + (size_t)l * n);
		if (l)
			hop_port[l] = (u8)wc_topo_port_to(t, base[l - 1],
							  base[l]);
	}
	for (i = 0; i < nlinks; i++) {
		wc_link_ends(t, links[i], &a, &pa, &b, &pb);
		wc_star_unrank(n, a, end[0]);
		wc_star_unrank(n, b, end[1]);
		for (l = 1; l < nn; l++) {
			const u8 *p = perm + (size_t)(l - 1) * n;

			if (hop_port[l] != pa)
				continue;
			for (e = 0; e < 2; e++) {
				for (j = 0; j < n; j++)
					sigma[p[j] - 1] = end[e][j];
				hits[wc_star_rank(n, sigma)]++;
			}
		}
	}
	for (l = 1; l < nn; l++)
		if (hits[l] < hits[best])
			best = l;
	star_candidate(t, base, best, cand);
	*crossed = hits[best];
	err = 0;
out:
	wc_free(hits);
	wc_free(hop_port);
	wc_free(perm);
	return err;
}

/* Is there a link from @a to @b that is not dead? */
static bool live_link(const struct wc_topo *t, const u8 *dead, u32 a, u32 b)
{
	u32 p;

	for (p = 0; p < t->nports; p++)
		if (wc_topo_neighbor(t, a, p) == b && !dead[(size_t)a * t->nports + p])
			return true;
	return false;
}

/* Consecutive nodes of @order joined only by dead links. */
static u32 crossings(const struct wc_topo *t, const u8 *dead, const u32 *order)
{
	u32 l, n = 0;

	for (l = 1; l < t->nnodes; l++)
		n += !live_link(t, dead, order[l - 1], order[l]);
	return n;
}

int wc_labeling_init_faults(struct wc_labeling *lb, const struct wc_topo *t,
			    const u32 *links, u32 nlinks, u32 *crossed)
{
	u32 *cand = NULL, best = U32_MAX, i, k, l, a, pa, b, pb, nc;
	int err;

	*crossed = 0;
	err = wc_labeling_init(lb, t);
	if (err || !nlinks)
		return err;
	err = -ENOMEM;
	lb->dead = wc_zalloc((size_t)t->nnodes * t->nports);
	cand = wc_calloc(t->nnodes, sizeof(u32));
	if (!lb->dead || !cand)
		goto fail;
	for (i = 0; i < nlinks; i++) {
		err = -EINVAL;
		if (!wc_link_real(t, links[i]))
			goto fail;
		wc_link_ends(t, links[i], &a, &pa, &b, &pb);
		lb->dead[(size_t)a * t->nports + pa] = 1;
		lb->dead[(size_t)b * t->nports + pb] = 1;
	}
	if (t->kind == WC_TOPO_STAR) {
		err = star_pick(t, lb->node, links, nlinks, cand, &best);
		if (err)
			goto fail;
		for (l = 0; l < t->nnodes; l++)
			lb->label[cand[l]] = l;
	}
	nc = t->kind == WC_TOPO_STAR ? 0 : ncandidates(t);
	for (k = 0; k < nc && best; k++) {
		u32 c;

		if (nc == 8)
			grid_candidate(t, k, cand);
		else
			memcpy(cand, lb->node, t->nnodes * sizeof(u32));
		c = crossings(t, lb->dead, cand);
		if (c >= best)
			continue;
		best = c;
		for (l = 0; l < t->nnodes; l++)
			lb->label[cand[l]] = l;
	}
	for (l = 0; l < t->nnodes; l++)
		lb->node[lb->label[l]] = l;
	/* The faulty links the path uses stay present. */
	for (l = 1; l < t->nnodes; l++) {
		a = lb->node[l - 1];
		b = lb->node[l];
		if (live_link(t, lb->dead, a, b))
			continue;
		for (i = 0; i < t->nports; i++) {
			if (wc_topo_neighbor(t, a, i) != b)
				continue;
			lb->dead[(size_t)a * t->nports + i] = 0;
			lb->dead[(size_t)b * t->nports +
				 wc_topo_reverse_port(t, a, i)] = 0;
		}
	}
	*crossed = best;
	wc_free(cand);
	return 0;
fail:
	wc_free(cand);
	wc_labeling_free(lb);
	return err;
}

u32 wc_labeling_router(const struct wc_labeling *lb, u32 node, u32 *nbr)
{
	u32 p, v;

	for (p = 0; p < lb->topo.nports; p++) {
		v = wc_topo_neighbor(&lb->topo, node, p);
		nbr[p] = v == WC_NO_NODE || wc_labeling_dead(lb, node, p) ?
			 WC_LABEL_NONE : lb->label[v];
	}
	return lb->label[node];
}

void wc_labeling_nbr_table(const struct wc_labeling *lb, u32 *table)
{
	u32 v;

	for (v = 0; v < lb->topo.nnodes; v++)
		wc_labeling_router(lb, v, table + (size_t)v * lb->topo.nports);
}

u32 wc_labeling_next(const struct wc_labeling *lb, u32 from, u32 to)
{
	u32 nbr[WC_MAX_PORTS], own, port;

	own = wc_labeling_router(lb, from, nbr);
	port = wc_lr_next_port(own, nbr, lb->topo.nports, lb->label[to]);
	if (port == WC_LR_ARRIVED)
		return from;
	if (port == WC_LR_NO_PORT)
		return WC_NO_NODE;
	return wc_topo_neighbor(&lb->topo, from, port);
}

u32 wc_labeling_route(const struct wc_labeling *lb, u32 from, u32 to,
		      u32 *path)
{
	u32 hops = 0, cur = from;

	if (path)
		path[0] = from;
	while (cur != to) {
		cur = wc_labeling_next(lb, cur, to);
		if (cur == WC_NO_NODE || hops >= lb->topo.nnodes)
			return U32_MAX;
		hops++;
		if (path)
			path[hops] = cur;
	}
	return hops;
}
