// SPDX-License-Identifier: GPL-2.0
/* Fault-tolerant minimal multicast on a 2-D mesh; see ftmcast.h. */
#include <stdlib.h>

#include "ftmcast.h"

static bool pt_eq(struct wc_ft_pt a, struct wc_ft_pt b)
{
	return a.x == b.x && a.y == b.y;
}

static u32 pt_dist(struct wc_ft_pt a, struct wc_ft_pt b)
{
	return (u32)abs((int)a.x - (int)b.x) + (u32)abs((int)a.y - (int)b.y);
}

/* ------------------------------------------------------------ greedy MT */

int wc_mt_init(struct wc_mt *t, u32 cap, struct wc_ft_pt root)
{
	memset(t, 0, sizeof(*t));
	t->cap = cap ? cap : 1;
	t->v = calloc(t->cap, sizeof(*t->v));
	t->parent = calloc(t->cap, sizeof(*t->parent));
	t->is_dst = calloc(t->cap, 1);
	if (!t->v || !t->parent || !t->is_dst) {
		wc_mt_free(t);
		return -ENOMEM;
	}
	t->n = 1;
	t->v[0] = root;
	t->parent[0] = WC_FI_NONE;
	return 0;
}

void wc_mt_free(struct wc_mt *t)
{
	free(t->v);
	free(t->parent);
	free(t->is_dst);
	memset(t, 0, sizeof(*t));
}

u32 wc_mt_find(const struct wc_mt *t, struct wc_ft_pt p)
{
	u32 i;

	for (i = 0; i < t->n; i++)
		if (pt_eq(t->v[i], p))
			return i;
	return WC_FI_NONE;
}

bool wc_mt_find_w(const struct wc_mt *t, struct wc_ft_pt d,
		  const struct wc_ft_rect *known, u32 nknown, u32 *edge,
		  struct wc_ft_pt *w, u32 *dist)
{
	u32 i, best = U32_MAX;

	for (i = 0; i < t->n; i++) {
		struct wc_ft_pt a = t->parent[i] == WC_FI_NONE ?
				    t->v[i] : t->v[t->parent[i]];
		struct wc_ft_pt b = t->v[i];
		u32 wx, wy, dd;

		/* the root is an edge of its own only in a tree of one vertex */
		if (t->parent[i] == WC_FI_NONE && t->n > 1)
			continue;
		if (!wc_ft_best_w(a.x, a.y, b.x, b.y, d.x, d.y, known, nknown,
				  &wx, &wy, &dd) || dd >= best)
			continue;
		best = dd;
		*edge = i;
		w->x = (u16)wx;
		w->y = (u16)wy;
	}
	if (best == U32_MAX)
		return false;
	*dist = best;
	return true;
}

static u32 add_vertex(struct wc_mt *t, struct wc_ft_pt p, u32 parent)
{
	u32 i = t->n++;

	t->v[i] = p;
	t->parent[i] = parent;
	t->is_dst[i] = 0;
	return i;
}

int wc_mt_attach(struct wc_mt *t, u32 edge, struct wc_ft_pt w,
		 struct wc_ft_pt d)
{
	u32 up, anchor, old;

	if (edge >= t->n || t->n + 2 > t->cap)
		return -EINVAL;
	up = t->parent[edge];
	if (pt_eq(w, t->v[edge])) {
		anchor = edge;
	} else if (up != WC_FI_NONE && pt_eq(w, t->v[up])) {
		anchor = up;
	} else {
		/*
		 * A w that is already a vertex elsewhere is used as it is:
		 * splitting the edge through it would give it two parents.
		 */
		anchor = wc_mt_find(t, w);
		if (anchor == WC_FI_NONE) {
			anchor = add_vertex(t, w, up);	/* step 2(c) */
			t->parent[edge] = anchor;
		}
	}
	if (pt_eq(d, t->v[anchor])) {
		t->is_dst[anchor] = 1;
		return 0;
	}
	old = wc_mt_find(t, d);
	if (old != WC_FI_NONE) {	/* d was a forwarding node already */
		t->is_dst[old] = 1;
		return 0;
	}
	t->is_dst[add_vertex(t, d, anchor)] = 1;	/* step 2(d) */
	return 0;
}

int wc_mt_insert(struct wc_mt *t, struct wc_ft_pt d,
		 const struct wc_ft_rect *known, u32 nknown)
{
	struct wc_ft_pt w;
	u32 edge, dist;

	if (!wc_mt_find_w(t, d, known, nknown, &edge, &w, &dist))
		return -ENOENT;
	return wc_mt_attach(t, edge, w, d);
}

/* Sort key for the preparation part: distance, then input position. */
struct sort_item {
	u32 key, pos;
};

static int cmp_item(const void *a, const void *b)
{
	const struct sort_item *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

int wc_mt_greedy(struct wc_mt *t, struct wc_ft_pt src,
		 const struct wc_ft_pt *dst, u32 ndst)
{
	struct sort_item *it;
	u32 i;
	int err;

	for (i = 0; i < ndst; i++)
		if (dst[i].x < src.x || dst[i].y < src.y)
			return -EINVAL;
	err = wc_mt_init(t, 2 * ndst + 1, src);
	if (err)
		return err;
	it = calloc(ndst + 1, sizeof(*it));
	if (!it) {
		wc_mt_free(t);
		return -ENOMEM;
	}
	for (i = 0; i < ndst; i++) {
		it[i].key = pt_dist(src, dst[i]);
		it[i].pos = i;
	}
	qsort(it, ndst, sizeof(*it), cmp_item);
	for (i = 0; i < ndst && !err; i++)
		err = wc_mt_insert(t, dst[it[i].pos], NULL, 0);
	free(it);
	if (err)
		wc_mt_free(t);
	return err;
}

u32 wc_mt_traffic(const struct wc_mt *t)
{
	u32 i, sum = 0;

	for (i = 0; i < t->n; i++)
		if (t->parent[i] != WC_FI_NONE)
			sum += pt_dist(t->v[i], t->v[t->parent[i]]);
	return sum;
}

/* ------------------------------------------------------------ planner */

/* A header in flight: canonical position and its destinations' range. */
struct header {
	u16 x, y;
	u32 depth;
	u32 in_hop;		/* hop that brought it here, or WC_FI_NONE */
	u32 lo, hi;		/* idx[lo .. hi) */
};

struct planner {
	const struct wc_faultinfo *fi;
	const struct wc_ft_plan_opts *o;
	struct wc_ft_plan *p;
	u32 q;			/* subnetwork being planned */
	struct wc_ft_pt *cd;	/* canonical destinations */
	u32 *idx;		/* destination indices, partitioned by header */
	u8 *group;		/* enum wc_ft_bound per destination */
	u8 *undet;		/* undetermined at the current conflict */
	struct header *stack;
	u32 nstack;
	struct wc_fi_record *scratch;
	struct wc_ft_rec *recs;
	struct wc_ft_rect *known;
	struct sort_item *items;
	u32 caphops;
};

static u32 phys(const struct planner *pl, u32 cx, u32 cy)
{
	u32 x, y;

	wc_ft_canon(pl->q, pl->fi->w, pl->fi->h, cx, cy, &x, &y);
	return wc_fi_node(pl->fi, x, y);
}

/* Header @h moves to (nx, ny) with idx[lo .. hi): record the hop, push. */
static void advance(struct planner *pl, const struct header *h, u32 nx, u32 ny,
		    u32 lo, u32 hi)
{
	struct wc_ft_hop *hop = &pl->p->hops[pl->p->nhops];
	struct header *n = &pl->stack[pl->nstack++];

	hop->from = phys(pl, h->x, h->y);
	hop->to = phys(pl, nx, ny);
	hop->parent = h->in_hop;
	hop->subnet = (u8)pl->q;
	n->x = (u16)nx;
	n->y = (u16)ny;
	n->depth = h->depth + 1;
	n->in_hop = pl->p->nhops++;
	n->lo = lo;
	n->hi = hi;
}

/* Sort idx[lo..hi) members of @group by distance from (x, y) into items. */
static u32 sorted_group(struct planner *pl, const struct header *h, u32 group)
{
	struct wc_ft_pt u = { h->x, h->y };
	u32 i, n = 0;

	for (i = h->lo; i < h->hi; i++) {
		u32 d = pl->idx[i];

		if (pl->group[d] != group)
			continue;
		pl->items[n].key = pt_dist(u, pl->cd[d]);
		pl->items[n].pos = d;
		n++;
	}
	qsort(pl->items, n, sizeof(*pl->items), cmp_item);
	return n;
}

/*
 * Strategy 3 at separating point h: an X tree rooted at the +X neighbour
 * and a Y tree rooted at the +Y neighbour, the bound destinations inserted
 * into their own tree, then the undetermined ones into the tree that offers
 * the closer w.
 */
static int strategy3(struct planner *pl, const struct header *h,
		     const struct wc_ft_view *v)
{
	struct wc_ft_pt rx = { (u16)(h->x + 1), h->y };
	struct wc_ft_pt ry = { h->x, (u16)(h->y + 1) };
	u32 k = h->hi - h->lo, i, n, g, nknown = v->nrecs;
	struct wc_mt tx, ty;
	int err;

	for (i = 0; i < nknown; i++)
		pl->known[i] = v->recs[i].b;
	err = wc_mt_init(&tx, 2 * k + 1, rx);
	if (err)
		return err;
	err = wc_mt_init(&ty, 2 * k + 1, ry);
	if (err) {
		wc_mt_free(&tx);
		return err;
	}
	for (g = WC_FT_XBOUND; g <= WC_FT_YBOUND && !err; g++) {
		struct wc_mt *t = g == WC_FT_XBOUND ? &tx : &ty;

		n = sorted_group(pl, h, g);
		for (i = 0; i < n && !err; i++) {
			struct wc_ft_pt d = pl->cd[pl->items[i].pos];

			err = wc_mt_insert(t, d, pl->known, nknown);
			if (err == -ENOENT)	/* nothing eligible: hang at root */
				err = wc_mt_attach(t, 0, t->v[0], d);
		}
	}
	n = err ? 0 : sorted_group(pl, h, WC_FT_UNDETERMINED);
	for (i = 0; i < n && !err; i++) {
		u32 d = pl->items[i].pos, ex = 0, ey = 0, dxd = 0, dyd = 0;
		struct wc_ft_pt wx = { 0 }, wy = { 0 };
		bool okx = wc_mt_find_w(&tx, pl->cd[d], pl->known, nknown,
					&ex, &wx, &dxd);
		bool oky = wc_mt_find_w(&ty, pl->cd[d], pl->known, nknown,
					&ey, &wy, &dyd);

		if (okx && (!oky || dxd <= dyd)) {
			pl->group[d] = WC_FT_XBOUND;
			err = wc_mt_attach(&tx, ex, wx, pl->cd[d]);
		} else if (oky) {
			pl->group[d] = WC_FT_YBOUND;
			err = wc_mt_attach(&ty, ey, wy, pl->cd[d]);
		} else {
			pl->group[d] = wc_ft_strategy2(h->x, h->y, pl->cd[d].x,
						       pl->cd[d].y,
						       WC_FT_XBOUND);
		}
	}
	wc_mt_free(&tx);
	wc_mt_free(&ty);
	return err;
}

static int resolve_conflict(struct planner *pl, const struct header *h,
			    const struct wc_ft_view *v)
{
	u32 i;

	if (pl->o->strategy == WC_FT_STRATEGY3)
		return strategy3(pl, h, v);
	for (i = h->lo; i < h->hi; i++) {
		u32 d = pl->idx[i];

		if (pl->group[d] != WC_FT_UNDETERMINED)
			continue;
		if (pl->o->strategy == WC_FT_STRATEGY1)
			pl->group[d] = wc_ft_strategy1(
				wc_ft_rand_bit(pl->o->seed, phys(pl, h->x, h->y),
					       pl->p->dst[d]));
		else
			pl->group[d] = wc_ft_strategy2(h->x, h->y, pl->cd[d].x,
						       pl->cd[d].y,
						       WC_FT_XBOUND);
	}
	return 0;
}

/* Drop idx[i] from header h (order inside a header does not matter). */
static void drop(struct planner *pl, struct header *h, u32 i)
{
	u32 t = pl->idx[i];

	pl->idx[i] = pl->idx[h->hi - 1];
	pl->idx[h->hi - 1] = t;
	h->hi--;
}

/* One step of header h: deliver, classify, then move or split. */
static int step(struct planner *pl, struct header h)
{
	bool anyx = false, anyy = false;
	struct wc_ft_view v;
	u32 i, state, m, tx = U32_MAX, ty = U32_MAX;
	int err;

	for (i = h.lo; i < h.hi; i++) {
		u32 d = pl->idx[i];

		if (pl->cd[d].x == h.x && pl->cd[d].y == h.y) {
			pl->p->status[d] = WC_FT_DST_OK;
			pl->p->len[d] = h.depth;
			pl->p->last[d] = h.in_hop;
			drop(pl, &h, i--);
		}
	}
	if (h.lo == h.hi)
		return 0;
	wc_fi_view(pl->fi, pl->q, h.x, h.y, pl->scratch, pl->recs, &v);
	for (i = h.lo; i < h.hi; i++) {
		u32 d = pl->idx[i];
		u32 b = wc_ft_bound(&v, pl->cd[d].x, pl->cd[d].y);

		if (b == WC_FT_NO_WAY) {
			pl->p->status[d] = WC_FT_DST_STUCK;
			drop(pl, &h, i--);
			continue;
		}
		pl->group[d] = (u8)b;
		anyx |= b == WC_FT_XBOUND;
		anyy |= b == WC_FT_YBOUND;
		tx = min_t(u32, tx, pl->cd[d].x);
		ty = min_t(u32, ty, pl->cd[d].y);
	}
	if (h.lo == h.hi)
		return 0;
	state = wc_ft_state(anyx, anyy);
	if (state == WC_FT_2D_FREE) {
		state = wc_ft_free_step(h.x, h.y, tx, ty) == WC_FT_XBOUND ?
			WC_FT_1D_FREE_X : WC_FT_1D_FREE_Y;
	}
	if (state == WC_FT_1D_FREE_X) {
		advance(pl, &h, h.x + 1, h.y, h.lo, h.hi);
		return 0;
	}
	if (state == WC_FT_1D_FREE_Y) {
		advance(pl, &h, h.x, h.y + 1, h.lo, h.hi);
		return 0;
	}
	/* in conflict: a separating point */
	pl->p->sep[pl->p->nsep++] = phys(pl, h.x, h.y);
	for (i = h.lo; i < h.hi; i++)
		pl->undet[pl->idx[i]] = pl->group[pl->idx[i]] ==
					WC_FT_UNDETERMINED;
	err = resolve_conflict(pl, &h, &v);
	if (err)
		return err;
	m = h.lo;
	for (i = h.lo; i < h.hi; i++) {
		u32 d = pl->idx[i];

		if (pl->undet[d]) {
			if (pl->p->nchoices[d] < 32 &&
			    pl->group[d] == WC_FT_YBOUND)
				pl->p->choices[d] |= 1u << pl->p->nchoices[d];
			pl->p->nchoices[d]++;
		}
	}
	for (i = h.lo; i < h.hi; i++) {
		if (pl->group[pl->idx[i]] == WC_FT_XBOUND) {
			u32 t = pl->idx[i];

			pl->idx[i] = pl->idx[m];
			pl->idx[m++] = t;
		}
	}
	advance(pl, &h, h.x, h.y + 1, m, h.hi);
	advance(pl, &h, h.x + 1, h.y, h.lo, m);
	return 0;
}

static int plan_subnet(struct planner *pl, u32 n)
{
	u32 sx, sy;
	int err = 0;

	wc_ft_canon(pl->q, pl->fi->w, pl->fi->h, wc_fi_x(pl->fi, pl->p->src),
		    wc_fi_y(pl->fi, pl->p->src), &sx, &sy);
	pl->nstack = 1;
	pl->stack[0].x = (u16)sx;
	pl->stack[0].y = (u16)sy;
	pl->stack[0].depth = 0;
	pl->stack[0].in_hop = WC_FI_NONE;
	pl->stack[0].lo = 0;
	pl->stack[0].hi = n;
	while (pl->nstack && !err)
		err = step(pl, pl->stack[--pl->nstack]);
	return err;
}

static int validate(const struct wc_faultinfo *fi, u32 src, const u32 *dst,
		    u32 ndst, const struct wc_ft_plan_opts *o, const char **why)
{
	u8 *seen;
	u32 i;
	const char *msg = NULL;

	if (!o || o->strategy < WC_FT_STRATEGY1 || o->strategy > WC_FT_STRATEGY3)
		msg = "strategy must be 1, 2 or 3";
	else if (src >= fi->nnodes)
		msg = "source out of the mesh";
	else if (wc_fi_in_block(fi, src))
		msg = "source inside a faulty block";
	if (msg)
		goto bad;
	seen = calloc(fi->nnodes, 1);
	if (!seen)
		return -ENOMEM;
	for (i = 0; i < ndst && !msg; i++) {
		if (dst[i] >= fi->nnodes)
			msg = "destination out of the mesh";
		else if (dst[i] == src)
			msg = "destination equal to the source";
		else if (seen[dst[i]])
			msg = "destination repeated";
		else
			seen[dst[i]] = 1;
	}
	free(seen);
	if (!msg)
		return 0;
bad:
	if (why)
		*why = msg;
	return -EINVAL;
}

int wc_ft_plan(const struct wc_faultinfo *fi, u32 src, const u32 *dst,
	       u32 ndst, const struct wc_ft_plan_opts *o, struct wc_ft_plan *p,
	       const char **why)
{
	struct planner pl = { .fi = fi, .o = o, .p = p };
	u32 i, q, n, caphops = 0, nb2 = 2 * fi->nblocks + 1;
	int err;

	memset(p, 0, sizeof(*p));
	err = validate(fi, src, dst, ndst, o, why);
	if (err)
		return err;
	p->src = src;
	p->ndst = ndst;
	p->dst = calloc(ndst + 1, sizeof(*p->dst));
	p->status = calloc(ndst + 1, 1);
	p->len = calloc(ndst + 1, sizeof(*p->len));
	p->last = calloc(ndst + 1, sizeof(*p->last));
	p->sep = calloc(ndst + 1, sizeof(*p->sep));
	pl.cd = calloc(ndst + 1, sizeof(*pl.cd));
	pl.idx = calloc(ndst + 1, sizeof(*pl.idx));
	pl.group = calloc(ndst + 1, 1);
	pl.undet = calloc(ndst + 1, 1);
	p->choices = calloc(ndst + 1, sizeof(*p->choices));
	p->nchoices = calloc(ndst + 1, sizeof(*p->nchoices));
	pl.stack = calloc(ndst + 1, sizeof(*pl.stack));
	pl.items = calloc(ndst + 1, sizeof(*pl.items));
	pl.scratch = calloc(nb2, sizeof(*pl.scratch));
	pl.recs = calloc(nb2, sizeof(*pl.recs));
	pl.known = calloc(nb2, sizeof(*pl.known));
	err = -ENOMEM;
	if (!p->dst || !p->status || !p->len || !p->last || !p->sep || !pl.cd || !pl.idx ||
	    !pl.group || !pl.undet || !p->choices || !p->nchoices || !pl.stack || !pl.items || !pl.scratch || !pl.recs ||
	    !pl.known)
		goto out;
	memcpy(p->dst, dst, ndst * sizeof(*dst));
	for (i = 0; i < ndst; i++)
		p->last[i] = WC_FI_NONE;
	/* Decide up front which destinations Theorem 4 covers. */
	for (i = 0; i < ndst; i++) {
		if (wc_fi_in_block(fi, dst[i])) {
			p->status[i] = WC_FT_DST_IN_BLOCK;
		} else if (!wc_fi_ext_safe(fi, src, dst[i])) {
			p->status[i] = wc_fi_minimal_path_exists(fi, src, dst[i]) ?
				       WC_FT_DST_NOT_EXT_SAFE :
				       WC_FT_DST_NO_MINIMAL_PATH;
		} else {
			p->status[i] = WC_FT_DST_STUCK;	/* until delivered */
			caphops += wc_fi_distance(fi, src, dst[i]);
		}
	}
	/* every hop lies on the path of some destination; +2 per split */
	p->hops = calloc(caphops + 2 * ndst + 1, sizeof(*p->hops));
	if (!p->hops)
		goto out;
	err = 0;
	for (q = 0; q < WC_FT_NSUBNETS && !err; q++) {
		pl.q = q;
		n = 0;
		for (i = 0; i < ndst; i++) {
			u32 x = wc_fi_x(fi, dst[i]), y = wc_fi_y(fi, dst[i]);
			u32 cx, cy;

			if (p->status[i] != WC_FT_DST_STUCK ||
			    wc_ft_subnet_of(wc_fi_x(fi, src), wc_fi_y(fi, src),
					    x, y) != q)
				continue;
			wc_ft_canon(q, fi->w, fi->h, x, y, &cx, &cy);
			pl.cd[i].x = (u16)cx;
			pl.cd[i].y = (u16)cy;
			pl.idx[n++] = i;
		}
		if (n)
			err = plan_subnet(&pl, n);
	}
	for (i = 0; i < ndst && !err; i++) {
		if (p->status[i] != WC_FT_DST_OK)
			continue;
		/* moves are only ever profitable, so this cannot fail */
		if (p->len[i] != wc_fi_distance(fi, src, dst[i])) {
			p->status[i] = WC_FT_DST_STUCK;
			continue;
		}
		p->nreached++;
		p->unicast_steps += p->len[i];
	}
out:
	free(pl.cd);
	free(pl.idx);
	free(pl.group);
	free(pl.undet);
	free(pl.stack);
	free(pl.items);
	free(pl.scratch);
	free(pl.recs);
	free(pl.known);
	if (err)
		wc_ft_plan_free(p);
	return err;
}

void wc_ft_plan_free(struct wc_ft_plan *p)
{
	free(p->dst);
	free(p->status);
	free(p->len);
	free(p->last);
	free(p->hops);
	free(p->sep);
	free(p->choices);
	free(p->nchoices);
	memset(p, 0, sizeof(*p));
}

int wc_ft_plan_worms(const struct wc_faultinfo *fi, const struct wc_ft_plan *p,
		     u32 *words, u32 *nworms)
{
	u32 q, i, pos = 0;

	*nworms = 0;
	for (i = 0; i < p->ndst; i++)
		if (p->status[i] == WC_FT_DST_OK &&
		    (p->nchoices[i] > WC_FTM_MAX_CHOICES ||
		     p->dst[i] > WC_FTM_NODE_MASK))
			return -E2BIG;
	for (q = 0; q < WC_FT_NSUBNETS; q++) {
		u32 head = pos++;

		words[head] = 0;
		for (i = 0; i < p->ndst; i++) {
			if (p->status[i] != WC_FT_DST_OK ||
			    wc_ft_subnet_of(wc_fi_x(fi, p->src),
					    wc_fi_y(fi, p->src),
					    wc_fi_x(fi, p->dst[i]),
					    wc_fi_y(fi, p->dst[i])) != q)
				continue;
			words[pos++] = p->dst[i] |
				       p->choices[i] << WC_FTM_CHOICE_SHIFT;
			words[head]++;
		}
		if (words[head])
			(*nworms)++;
		else
			pos--;
	}
	return (int)pos;
}

/* ------------------------------------------------------------ tables */

/* Per subnetwork and node, the records of wc_fi_view(); copied if @recs. */
static u32 ftm_recs(const struct wc_faultinfo *fi, struct wc_fi_record *scratch,
		    struct wc_ft_rec *buf, u32 *off, struct wc_ft_rec *recs)
{
	u32 nn = fi->nnodes, q, n, nrec = 0;
	struct wc_ft_view v;

	for (q = 0; q < WC_FT_NSUBNETS; q++) {
		for (n = 0; n < nn; n++) {
			u32 cx, cy;

			wc_ft_canon(q, fi->w, fi->h, wc_fi_x(fi, n),
				    wc_fi_y(fi, n), &cx, &cy);
			wc_fi_view(fi, q, cx, cy, scratch, buf, &v);
			off[q * nn + n] = nrec;
			if (recs)
				memcpy(recs + nrec, v.recs,
				       v.nrecs * sizeof(*recs));
			nrec += v.nrecs;
		}
	}
	off[WC_FT_NSUBNETS * nn] = nrec;
	return nrec;
}

int wc_ftm_tables_build(const struct wc_faultinfo *fi, u32 strategy, u64 seed,
			struct wc_ftm_tables *t)
{
	u32 nn = fi->nnodes, nb2 = 2 * fi->nblocks + 1, n, nrec;
	struct wc_fi_record *scratch = calloc(nb2, sizeof(*scratch));
	struct wc_ft_rec *buf = calloc(nb2, sizeof(*buf));
	u8 *in_block = calloc(nn, 1);
	u16 *safety = calloc(4 * (size_t)nn, sizeof(*safety));
	u32 *off = calloc(WC_FT_NSUBNETS * (size_t)nn + 1, sizeof(*off));
	struct wc_ft_rec *recs = NULL;

	memset(t, 0, sizeof(*t));
	if (!scratch || !buf || !in_block || !safety || !off)
		goto nomem;
	nrec = ftm_recs(fi, scratch, buf, off, NULL);
	recs = calloc(nrec + 1, sizeof(*recs));
	if (!recs)
		goto nomem;
	ftm_recs(fi, scratch, buf, off, recs);
	for (n = 0; n < nn; n++) {
		in_block[n] = wc_fi_in_block(fi, n);
		safety[4 * n + 0] = fi->safety[n].e;
		safety[4 * n + 1] = fi->safety[n].s;
		safety[4 * n + 2] = fi->safety[n].w;
		safety[4 * n + 3] = fi->safety[n].n;
	}
	free(scratch);
	free(buf);
	t->w = fi->w;
	t->h = fi->h;
	t->strategy = strategy;
	t->seed = seed;
	t->in_block = in_block;
	t->safety = safety;
	t->off = off;
	t->recs = recs;
	if (strategy < WC_FTM_STRATEGY_MIN || strategy > WC_FTM_STRATEGY_MAX) {
		wc_ftm_tables_free(t);
		return -EINVAL;
	}
	return 0;
nomem:
	free(scratch);
	free(buf);
	free(in_block);
	free(safety);
	free(off);
	free(recs);
	return -ENOMEM;
}

void wc_ftm_tables_free(struct wc_ftm_tables *t)
{
	free((void *)t->in_block);
	free((void *)t->safety);
	free((void *)t->off);
	free((void *)t->recs);
	memset(t, 0, sizeof(*t));
}

const char *wc_ft_dst_status_name(u32 status)
{
	static const char *const names[] = {
		[WC_FT_DST_OK] = "ok",
		[WC_FT_DST_IN_BLOCK] = "in-faulty-block",
		[WC_FT_DST_NO_MINIMAL_PATH] = "no-minimal-path",
		[WC_FT_DST_NOT_EXT_SAFE] = "not-extended-safe",
		[WC_FT_DST_STUCK] = "stuck",
	};

	return status < ARRAY_SIZE(names) ? names[status] : "?";
}

const char *wc_ft_subnet_name(u32 subnet)
{
	static const char *const names[] = {
		[WC_FT_PXPY] = "+X+Y", [WC_FT_PXNY] = "+X-Y",
		[WC_FT_NXPY] = "-X+Y", [WC_FT_NXNY] = "-X-Y",
	};

	return subnet < ARRAY_SIZE(names) ? names[subnet] : "?";
}
