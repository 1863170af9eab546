// SPDX-License-Identifier: GPL-2.0
/* Hamiltonian labelings; see labeling.h. */
#include "labeling.h"
#include "sptree.h"
#include "trees_table.h"

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

/*
 * How many candidate paths wc_labeling_init_faults() walks on @t besides
 * those from a failed node: the canonical path's symmetries (on S_n the
 * best of them, star_pick()).
 */
static u32 ncandidates(const struct wc_topo *t)
{
	if ((t->kind == WC_TOPO_MESH || t->kind == WC_TOPO_TORUS) &&
	    t->ndims == 2)
		return 8;
	return 1;
}

/*
 * And how many from a failed node, with @nnodes failed: on S_n the two
 * that start and end at the first; elsewhere one from the first (to the
 * second, if two), none with three or more.
 */
static u32 nfrom_failed(const struct wc_topo *t, u32 nnodes)
{
	if (t->kind == WC_TOPO_STAR)
		return nnodes ? 2 : 0;
	return nnodes == 1 || nnodes == 2;
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

/*
 * What a candidate path @order costs: its hops over dead links, but the
 * first or the last when its end node is @down.  A failed node at an end
 * of the path is never transited (routing R moves monotonically towards
 * the destination's label, so only worms to that node reach it), and the
 * hop to it may take any of its links.
 */
static u32 path_cost(const struct wc_topo *t, const u8 *dead, const u8 *down,
		     const u32 *order)
{
	u32 c = crossings(t, dead, order), n = t->nnodes;

	if (n < 2)
		return c;
	if (down[order[0]] && !live_link(t, dead, order[0], order[1]))
		c--;
	if (down[order[n - 1]] && !live_link(t, dead, order[n - 2], order[n - 1]))
		c--;
	return c;
}

/* Can a path at depth @l (0: @v is the start) go on from @v to @u? */
static bool path_step(const struct wc_topo *t, const u8 *dead, const u8 *down,
		      const u8 *seen, u32 l, u32 v, u32 p, u32 u)
{
	if (u == WC_NO_NODE || seen[u])
		return false;
	if (down[u])		/* a failed node only as the last one */
		return l + 2 == t->nnodes;
	return !l || !dead[(size_t)v * t->nports + p];
}

/* Onward steps from @u at depth @l, for Warnsdorff's rule. */
static u32 onward(const struct wc_topo *t, const u8 *dead, const u8 *down,
		  const u8 *seen, u32 l, u32 u)
{
	u32 p, n = 0;

	for (p = 0; p < t->nports; p++)
		n += path_step(t, dead, down, seen, l, u, p,
			       wc_topo_neighbor(t, u, p));
	return n;
}

#define PATH_SEARCH_PORTS	8	/* up to 3-D grids and Q8 */

/*
 * A Hamiltonian path of @t (at most PATH_SEARCH_PORTS ports) from @start
 * into @order, on live links only but for the hops from @start and to a
 * failed node (@down) as the last node: depth first, the neighbour with
 * the fewest onward steps first (Warnsdorff's rule, which on grids rarely
 * backtracks), at most @budget steps.  0, -ENOENT (none found, or too
 * many ports), -ENOMEM.
 */
static int search_path(const struct wc_topo *t, const u8 *dead, const u8 *down,
		       u32 start, u32 budget, u32 *order)
{
	u32 n = t->nnodes, l = 0, p;
	u32 (*next)[PATH_SEARCH_PORTS];
	u8 *nnext, *tried, *seen;
	int err = -ENOMEM;

	if (t->nports > PATH_SEARCH_PORTS)
		return -ENOENT;
	next = wc_calloc(n, sizeof(*next));
	nnext = wc_zalloc(n);
	tried = wc_zalloc(n);
	seen = wc_zalloc(n);
	if (!next || !nnext || !tried || !seen)
		goto out;
	err = -ENOENT;
	order[0] = start;
	seen[start] = 1;
	for (;;) {
		u32 v = order[l];

		if (l + 1 == n) {
			err = 0;
			break;
		}
		if (!tried[l]) {	/* first visit of depth l: rank the steps */
			u32 wt[PATH_SEARCH_PORTS];

			nnext[l] = 0;
			for (p = 0; p < t->nports; p++) {
				u32 u = wc_topo_neighbor(t, v, p), k, w;

				if (!path_step(t, dead, down, seen, l, v, p, u))
					continue;
				w = onward(t, dead, down, seen, l + 1, u);
				for (k = nnext[l]; k > 0 && wt[k - 1] > w; k--) {
					next[l][k] = next[l][k - 1];
					wt[k] = wt[k - 1];
				}
				next[l][k] = u;
				wt[k] = w;
				nnext[l]++;
			}
		}
		if (!budget--)
			break;
		if (tried[l] < nnext[l]) {
			order[l + 1] = next[l][tried[l]++];
			seen[order[l + 1]] = 1;
			l++;
			tried[l] = 0;
			continue;
		}
		/* no step left here: back up */
		if (!l)
			break;
		seen[v] = 0;
		l--;
	}
out:
	wc_free(next);
	wc_free(nnext);
	wc_free(tried);
	wc_free(seen);
	return err;
}

/* A rectangle of a 2-D grid, lines lo..hi in each dimension. */
struct grid_rect {
	u32 lo[2], hi[2];
};

static u32 grid_at(const struct wc_topo *t, u32 x, u32 y)
{
	u32 c[WC_MAX_COORDS] = { x, y };

	return wc_topo_node(t, c);
}

/*
 * The core's lines in a dimension of @len lines: [lo, hi] around line @at,
 * all @len if len <= 3, else 2 or 3 as len's parity, with an even number
 * of lines before it and after it (strips of two).
 */
static void core_lines(u32 len, u32 at, u32 *lo, u32 *hi)
{
	u32 n = len <= 3 ? len : 2 + (len & 1), l;

	for (l = at >= n - 1 ? at - (n - 1) : 0; l <= at; l++)
		if (l + n <= len && !(l & 1)) {
			*lo = l;
			*hi = l + n - 1;
			return;
		}
	*lo = 0;		/* len <= 3 */
	*hi = len - 1;
}

/* Exhaustive search of a path from @v over the cells of @r (<= 9). */
static bool core_path(const struct wc_topo *t, const struct grid_rect *r,
		      u8 *seen, u32 *succ, u32 v, u32 left)
{
	u32 c[WC_MAX_COORDS], d;

	if (!left)
		return true;
	wc_topo_coords(t, v, c);
	for (d = 0; d < 4; d++) {
		u32 x = c[0] + (d == 0) - (d == 1), y = c[1] + (d == 2) - (d == 3);
		u32 u;

		if (x < r->lo[0] || x > r->hi[0] || y < r->lo[1] || y > r->hi[1])
			continue;	/* (0 - 1 wraps above hi) */
		u = grid_at(t, x, y);
		if (seen[u])
			continue;
		seen[u] = 1;
		succ[v] = u;
		if (core_path(t, r, seen, succ, u, left - 1))
			return true;
		seen[u] = 0;
	}
	succ[v] = WC_NO_NODE;
	return false;
}

/*
 * Append to the path in @succ, after node *@k, line @line of dimension
 * @axis from @from to @to along the other dimension (@step: 1 or -1 as
 * u32); *@k becomes the last node appended.
 */
static void walk_line(const struct wc_topo *t, u32 *succ, u32 *k, u32 axis,
		      u32 line, u32 from, u32 to, u32 step)
{
	u32 c[2];

	c[axis] = line;
	for (c[!axis] = from;; c[!axis] += step) {
		succ[*k] = grid_at(t, c[0], c[1]);
		*k = succ[*k];
		if (c[!axis] == to)
			break;
	}
}

/*
 * Add the strip on side (@axis, @up) of @r to the path in @succ, if the
 * path takes an edge along that side.
 */
static bool add_strip(const struct wc_topo *t, struct grid_rect *r, u32 axis,
		      bool up, u32 *succ)
{
	u32 o = !axis, side = up ? r->hi[axis] : r->lo[axis];
	u32 near = up ? side + 1 : side - 1, far = up ? side + 2 : side - 2;
	u32 i, k;

	for (i = r->lo[o]; i < r->hi[o]; i++) {
		u32 pa[2], pb[2], a, b, from, to, walk[2], step;

		pa[axis] = side;
		pa[o] = i;
		pb[axis] = side;
		pb[o] = i + 1;
		a = grid_at(t, pa[0], pa[1]);
		b = grid_at(t, pb[0], pb[1]);
		if (succ[a] == b) {
			from = i;	/* walk away from b: towards lo */
			to = i + 1;
		} else if (succ[b] == a) {
			from = i + 1;	/* a is b's successor: swap */
			to = i;
			k = a;
			a = b;
			b = k;
		} else {
			continue;
		}
		/* a (at from) -> near line from `from` to the end away from `to`,
		 * far line across, near line back to `to` -> b */
		walk[0] = from < to ? r->lo[o] : r->hi[o];
		walk[1] = from < to ? r->hi[o] : r->lo[o];
		step = from < to ? U32_MAX : 1;	/* towards walk[0] */
		k = a;
		walk_line(t, succ, &k, axis, near, from, walk[0], step);
		walk_line(t, succ, &k, axis, far, walk[0], walk[1], 0 - step);
		walk_line(t, succ, &k, axis, near, walk[1], to, step);
		succ[k] = b;
		if (up)
			r->hi[axis] += 2;
		else
			r->lo[axis] -= 2;
		return true;
	}
	return false;
}

/*
 * A Hamiltonian path of the 2-D mesh inside @t (a mesh or a torus) from
 * @start, by construction: a core of at most 3x3 around @start, whose path
 * an exhaustive search finds, and then strips of two rows or two columns
 * added around it up to the whole grid.  A strip beside the rectangle
 * covered so far goes into the path at an edge the path takes along the
 * rectangle's side: a -> b becomes a, over the strip's near line away
 * from b, back over its far line, then the near line up to b's side, b.
 * Every strip keeps both colours balanced, so the core has a path from
 * @start exactly when the grid has (colours, ends_colour_ok()).  The
 * path is built as a successor per node and written into @order.  0,
 * -ENOENT (none: @start's colour; or a strip with no edge to go in at,
 * never seen), -ENOMEM.
 */
static int grid_path(const struct wc_topo *t, u32 start, u32 *order)
{
	u32 n = t->nnodes, c[WC_MAX_COORDS], d, l, v, added;
	struct grid_rect r;
	u32 *succ = wc_calloc(n, sizeof(u32));
	u8 *seen = wc_zalloc(n);
	int err = -ENOMEM;

	if (!succ || !seen)
		goto out;
	for (v = 0; v < n; v++)
		succ[v] = WC_NO_NODE;
	wc_topo_coords(t, start, c);
	for (d = 0; d < 2; d++)
		core_lines(t->dims[d], c[d], &r.lo[d], &r.hi[d]);
	seen[start] = 1;
	err = -ENOENT;
	if (!core_path(t, &r, seen, succ, start,
		       (r.hi[0] - r.lo[0] + 1) * (r.hi[1] - r.lo[1] + 1) - 1))
		goto out;
	do {
		added = 0;
		for (d = 0; d < 4; d++) {
			u32 axis = d >> 1;
			bool up = d & 1;

			if (up ? r.hi[axis] + 2 < t->dims[axis] : r.lo[axis] >= 2)
				added += add_strip(t, &r, axis, up, succ);
		}
	} while (added);
	if (r.lo[0] || r.lo[1] || r.hi[0] + 1 != t->dims[0] ||
	    r.hi[1] + 1 != t->dims[1])
		goto out;	/* a strip found no edge to go in at */
	for (v = start, l = 0; l < n && v != WC_NO_NODE; l++, v = succ[v])
		order[l] = v;
	err = l == n ? 0 : -ENOENT;
out:
	wc_free(succ);
	wc_free(seen);
	return err;
}

/*
 * S_n: the candidate (star_candidate()) whose path starts (@at_end false)
 * or ends at node @f: the symbol permutation that maps that end of @base
 * to @f.
 */
static void star_candidate_at(const struct wc_topo *t, const u32 *base, u32 f,
			      bool at_end, u32 *order)
{
	u32 n = t->dims[0], i;
	u8 p[WC_MAX_STAR_N], q[WC_MAX_STAR_N], sigma[WC_MAX_STAR_N];

	wc_star_unrank(n, base[at_end ? t->nnodes - 1 : 0], p);
	wc_star_unrank(n, f, q);
	for (i = 0; i < n; i++)
		sigma[p[i] - 1] = q[i];
	star_candidate(t, base, wc_star_rank(n, sigma), order);
}

/*
 * Can a Hamiltonian path of mesh @t start at failed node @nodes[0] (and
 * end at @nodes[1] if @nnodes is 2)?  A mesh is bipartite by the parity of
 * the coordinate sum, and a path alternates: with an even node count its
 * ends differ in colour, with an odd one both have the corners' colour.
 * Other topologies: not known here, the search decides.
 */
static bool ends_colour_ok(const struct wc_topo *t, const u32 *nodes,
			   u32 nnodes)
{
	u32 col[2], i, d, c[WC_MAX_COORDS];

	if (t->kind != WC_TOPO_MESH)
		return true;
	for (i = 0; i < nnodes; i++) {
		wc_topo_coords(t, nodes[i], c);
		for (col[i] = 0, d = 0; d < t->ndims; d++)
			col[i] += c[d];
		col[i] &= 1;
		if (t->nnodes & 1 && col[i])
			return false;
	}
	return nnodes < 2 || t->nnodes & 1 || col[0] != col[1];
}

/*
 * On a torus or a hypercube (both vertex-transitive) the canonical path
 * @base, which starts at node 0, moved by an automorphism that maps node 0
 * to the failed node @f: a translation of the torus by @f's coordinates,
 * or on the hypercube an XOR with @f.  There, with a second failed node
 * @g that is a neighbour of @f, the bit of the Gray code's last node
 * (the top bit) is also swapped with the bit in which @f and @g differ,
 * so that the path ends at @g.  Writes the path into @order and returns
 * true; false (nothing written) where no such map is known here: other
 * topologies, two failed nodes on a torus, or two that are not
 * hypercube neighbours.
 */
static bool moved_path(const struct wc_topo *t, const u32 *base, u32 f,
		       u32 g, u32 *order)
{
	u32 c[WC_MAX_COORDS], cf[WC_MAX_COORDS], l, d, top, diff, b;

	if (t->kind == WC_TOPO_TORUS && g == WC_NO_NODE) {
		wc_topo_coords(t, f, cf);
		for (l = 0; l < t->nnodes; l++) {
			wc_topo_coords(t, base[l], c);
			for (d = 0; d < t->ndims; d++)
				c[d] = (c[d] + cf[d]) % t->dims[d];
			order[l] = wc_topo_node(t, c);
		}
		return true;
	}
	if (t->kind != WC_TOPO_HYPERCUBE || !t->dims[0])
		return false;
	top = t->dims[0] - 1;
	b = top;
	if (g != WC_NO_NODE) {
		diff = f ^ g;
		if (!diff || (diff & (diff - 1)))
			return false;	/* not neighbours */
		b = (u32)__builtin_ctz(diff);
	}
	for (l = 0; l < t->nnodes; l++) {
		u32 v = base[l], x = ((v >> top) ^ (v >> b)) & 1;

		/* swap bits top and b, then move node 0 to f */
		order[l] = (v ^ (x << top) ^ (x << b)) ^ f;
	}
	return true;
}

/* Mark both ends of link (@a, port @pa) in @dead. */
static void mark_dead(const struct wc_topo *t, u8 *dead, u32 a, u32 pa)
{
	u32 b = wc_topo_neighbor(t, a, pa);

	dead[(size_t)a * t->nports + pa] = 1;
	dead[(size_t)b * t->nports + wc_topo_reverse_port(t, a, pa)] = 1;
}

/*
 * Candidate @k of wc_labeling_init_faults() into @cand (label -> node):
 * first the ncandidates() symmetries of @base, the canonical path, then
 * the nfrom_failed() paths from the failed node @nodes[0].  0, -ENOENT
 * (no such path), -ENOMEM.
 */
static int candidate(const struct wc_topo *t, u32 k, const u32 *base,
		     const u32 *links, u32 nlinks, const u32 *nodes, u32 nnodes,
		     const u8 *dead, const u8 *down, u32 *cand)
{
	u32 nsym = ncandidates(t), crossed;
	int err = -ENOENT;

	if (t->kind == WC_TOPO_STAR) {
		if (k < nsym)
			return star_pick(t, base, links, nlinks, cand, &crossed);
		star_candidate_at(t, base, nodes[0], k > nsym, cand);
		return 0;
	}
	if (k < nsym) {
		if (nsym == 8)
			grid_candidate(t, k, cand);
		else
			memcpy(cand, base, t->nnodes * sizeof(u32));
		return 0;
	}
	/* from a failed node (to the other, if two) */
	if (!ends_colour_ok(t, nodes, nnodes))
		return -ENOENT;
	if (moved_path(t, base, nodes[0], nnodes == 2 ? nodes[1] : WC_NO_NODE,
		       cand))
		return 0;
	if (nnodes == 1 && nsym == 8)
		err = grid_path(t, nodes[0], cand);
	if (err == -ENOENT)
		err = search_path(t, dead, down, nodes[0],
				  64 * t->nnodes + 100000, cand);
	return err;
}

int wc_labeling_init_faults(struct wc_labeling *lb, const struct wc_topo *t,
			    const u32 *links, u32 nlinks, const u32 *nodes,
			    u32 nnodes, u32 *crossed)
{
	u32 *cand = NULL, *base = NULL, best = U32_MAX, i, k, l, a, pa, b, pb;
	u32 nc, c;
	u8 *down = NULL;
	int err;

	*crossed = 0;
	err = wc_labeling_init(lb, t);
	if (err || (!nlinks && !nnodes))
		return err;
	err = -ENOMEM;
	lb->dead = wc_zalloc((size_t)t->nnodes * t->nports);
	down = wc_zalloc(t->nnodes);
	cand = wc_calloc(t->nnodes, sizeof(u32));
	base = wc_calloc(t->nnodes, sizeof(u32));
	if (!lb->dead || !down || !cand || !base)
		goto fail;
	memcpy(base, lb->node, t->nnodes * sizeof(u32));
	err = -EINVAL;
	if (!wc_faults_valid(t, links, nlinks, nodes, nnodes, NULL))
		goto fail;
	for (i = 0; i < nlinks; i++) {
		wc_link_ends(t, links[i], &a, &pa, &b, &pb);
		mark_dead(t, lb->dead, a, pa);
	}
	for (i = 0; i < nnodes; i++) {
		down[nodes[i]] = 1;
		for (pa = 0; pa < t->nports; pa++)
			if (wc_topo_neighbor(t, nodes[i], pa) != WC_NO_NODE)
				mark_dead(t, lb->dead, nodes[i], pa);
	}
	/* candidate k: label -> node into cand, its cost c; keep the best */
	nc = ncandidates(t) + nfrom_failed(t, nnodes);
	for (k = 0; k < nc && best; k++) {
		err = candidate(t, k, base, links, nlinks, nodes, nnodes, lb->dead,
				down, cand);
		if (err == -ENOENT)
			continue;
		if (err)
			goto fail;
		c = path_cost(t, lb->dead, down, cand);
		if (c >= best)
			continue;
		best = c;
		for (l = 0; l < t->nnodes; l++)
			lb->label[cand[l]] = l;
	}
	for (l = 0; l < t->nnodes; l++)
		lb->node[lb->label[l]] = l;
	/* The dead links the path uses stay present. */
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
	err = 0;
	goto out;
fail:
	wc_labeling_free(lb);
out:
	wc_free(cand);
	wc_free(base);
	wc_free(down);
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
