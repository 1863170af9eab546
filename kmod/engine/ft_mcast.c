// SPDX-License-Identifier: GPL-2.0
/* Fault-tolerant minimal multicast on a 2-D mesh; see ft_mcast.h. */
#include "ft_mcast.h"

/* The classes of a header word at a router. */
enum { FTM_SELF, FTM_X, FTM_Y, FTM_NCLASS };

/* What a router decided for one header (route() and routed() alike). */
struct ftm_step {
	const struct wc_ftm_tables *t;
	struct wc_ft_view v;
	u32 q, node, mode;	/* mode: WC_FT_1D_FREE_X, _Y or IN_CONFLICT */
	u32 cnt[FTM_NCLASS];
};

static bool tables_ok(const struct wc_ftm_tables *t, const struct wc_topo *topo)
{
	return t && topo->kind == WC_TOPO_MESH && topo->ndims == 2 &&
	       topo->dims[0] == t->w && topo->dims[1] == t->h &&
	       t->strategy >= WC_FTM_STRATEGY_MIN &&
	       t->strategy <= WC_FTM_STRATEGY_MAX;
}

u32 wc_ftm_hdr_words(u32 ndsts)
{
	/* four segments' counts, a 3-word detour segment each, a final 0 */
	return 3 * ndsts + WC_FT_NSUBNETS + 1;
}

static bool has_dst(const struct wc_msg *m, u32 d)
{
	return (m->dstmap[d / 32] >> (d % 32)) & 1;
}

bool wc_ftm_reachable(const struct wc_ftm_tables *t, u32 src, u32 dst)
{
	if (t->in_block[src] || t->in_block[dst])
		return false;
	return wc_ft_ext_safe(t->safety + 4 * src, src % t->w, src / t->w,
			      dst % t->w, dst / t->w);
}

u32 wc_ftm_reachable_count(const struct wc_ftm_tables *t, u32 src,
			   const u32 *dstmap, u32 nn)
{
	u32 d, n = 0;

	for (d = 0; d < nn; d++)
		if (d != src && (dstmap[d / 32] >> (d % 32) & 1) &&
		    wc_ftm_reachable(t, src, d))
			n++;
	return n;
}

static u32 subnet_of(const struct wc_ftm_tables *t, u32 src, u32 dst)
{
	return wc_ft_subnet_of(src % t->w, src / t->w, dst % t->w, dst / t->w);
}

static u32 dist(const struct wc_ftm_tables *t, u32 a, u32 b)
{
	u32 ax = a % t->w, ay = a / t->w, bx = b % t->w, by = b / t->w;

	return (ax > bx ? ax - bx : bx - ax) + (ay > by ? ay - by : by - ay);
}

u32 wc_ftm_waypoint(const struct wc_ftm_tables *t, u32 src, u32 dst)
{
	u32 m, best = U32_MAX, cost = U32_MAX, nn = t->w * t->h;

	if (!t->detour || t->in_block[src] || t->in_block[dst])
		return U32_MAX;
	for (m = 0; m < nn; m++) {
		u32 c;

		if (m == src || m == dst || !wc_ftm_reachable(t, src, m) ||
		    !wc_ftm_reachable(t, m, dst))
			continue;
		c = dist(t, src, m) + dist(t, m, dst);
		if (c < cost) {
			cost = c;
			best = m;
		}
	}
	return best;
}

static bool canon_blocked(const struct wc_ftm_tables *t, u32 q, u32 cx, u32 cy)
{
	u32 x, y;

	if (cx >= t->w || cy >= t->h)
		return true;
	wc_ft_canon(q, t->w, t->h, cx, cy, &x, &y);
	return t->in_block[x + t->w * y];
}

/* The router's view in subnetwork @q: its records from the tables. */
static void view_at(const struct wc_ftm_tables *t, u32 q, u32 node,
		    struct wc_ft_view *v)
{
	u32 i = q * t->w * t->h + node, cx, cy;

	wc_ft_canon(q, t->w, t->h, node % t->w, node / t->w, &cx, &cy);
	v->x = (u16)cx;
	v->y = (u16)cy;
	v->east_blocked = canon_blocked(t, q, cx + 1, cy);
	v->north_blocked = canon_blocked(t, q, cx, cy + 1);
	v->nrecs = t->off[i + 1] - t->off[i];
	v->recs = t->recs + t->off[i];
}

static void canon_dst(const struct ftm_step *s, u32 d, u32 *cx, u32 *cy)
{
	wc_ft_canon(s->q, s->t->w, s->t->h, d % s->t->w, d / s->t->w, cx, cy);
}

/*
 * Class of header word @w once the step's mode is known; *@chose tells
 * that a planned word's choice was read (an undetermined destination at
 * a router in conflict).
 */
static u32 word_class(const struct ftm_step *s, u32 w, bool *chose)
{
	u32 d = w & WC_FTM_NODE_MASK, cx, cy, b;

	*chose = false;
	if (d == s->node)
		return FTM_SELF;
	if (s->mode == WC_FT_1D_FREE_X)
		return FTM_X;
	if (s->mode == WC_FT_1D_FREE_Y)
		return FTM_Y;
	canon_dst(s, d, &cx, &cy);
	b = wc_ft_bound(&s->v, cx, cy);
	if (b == WC_FT_UNDETERMINED) {
		*chose = w & WC_FTM_PLANNED;
		if (*chose)
			b = (w >> WC_FTM_CHOICE_SHIFT) & 1 ? WC_FT_YBOUND :
							     WC_FT_XBOUND;
		else if (s->t->strategy == 1)
			b = wc_ft_strategy1(wc_ft_rand_bit(s->t->seed, s->node,
							   d));
		else	/* 2, and 3 without a plan */
			b = wc_ft_strategy2(s->v.x, s->v.y, cx, cy,
					    WC_FT_XBOUND);
	}
	return b == WC_FT_XBOUND ? FTM_X : FTM_Y;
}

/*
 * The decision at ctx->node for the destinations @list[0..n): Definition 4
 * over the remaining destinations, then the count of each class.
 */
static int ftm_decide(const struct wc_ftm_tables *t,
		      const struct wc_route_ctx *ctx, u32 q, const u32 *list,
		      u32 n, struct ftm_step *s)
{
	u32 i, tx = U32_MAX, ty = U32_MAX, nn = ctx->topo->nnodes;
	bool anyx = false, anyy = false, rest = false, chose;

	s->t = t;
	s->node = ctx->node;
	memset(s->cnt, 0, sizeof(s->cnt));
	if (!n || q >= WC_FT_NSUBNETS)
		return -EINVAL;
	s->q = q;
	view_at(t, s->q, ctx->node, &s->v);
	for (i = 0; i < n; i++) {
		u32 d = list[i] & WC_FTM_NODE_MASK, cx, cy, b;

		if (d >= nn)
			return -EINVAL;
		if (d == ctx->node)
			continue;
		canon_dst(s, d, &cx, &cy);
		b = wc_ft_bound(&s->v, cx, cy);
		if (b == WC_FT_NO_WAY)
			return -EHOSTUNREACH;
		anyx |= b == WC_FT_XBOUND;
		anyy |= b == WC_FT_YBOUND;
		tx = min_t(u32, tx, cx);
		ty = min_t(u32, ty, cy);
		rest = true;
	}
	s->mode = wc_ft_state(anyx, anyy);
	if (rest && s->mode == WC_FT_2D_FREE)
		s->mode = wc_ft_free_step(s->v.x, s->v.y, tx, ty) ==
			  WC_FT_XBOUND ? WC_FT_1D_FREE_X : WC_FT_1D_FREE_Y;
	for (i = 0; i < n; i++)
		s->cnt[word_class(s, list[i], &chose)]++;
	return 0;
}

/* Physical port of a canonical +X (@ydir false) or +Y step. */
static u32 ftm_port(u32 q, bool ydir)
{
	if (ydir)
		return wc_ft_sy(q) > 0 ? 2 : 3;
	return wc_ft_sx(q) > 0 ? 0 : 1;
}

/*
 * VC class c (a subnetwork q, or 4 + q for a detour's second leg): the
 * VCs v with v % 8 == c, so that the classes never share a VC.
 */
static u16 ftm_vc_mask(u32 c, u32 vcs)
{
	u32 v, mask = 0;

	for (v = c; v < vcs; v += WC_FTM_DETOUR_VCS)
		mask |= BIT(v);
	return (u16)mask;
}

/*
 * The list a header carries at ctx->node: the whole window, except at the
 * source where it is the window's last segment [count, ids...].
 */
static int ftm_list(const struct wc_route_ctx *ctx, const u32 *w, u32 nw,
		    u32 *base, u32 *n)
{
	u32 pos = 0;

	if (ctx->in_port != WC_PORT_INJ) {
		*base = 0;
		*n = nw;
		return nw ? 0 : -EINVAL;
	}
	while (pos < nw && (w[pos] & ~WC_FTM_DETOUR) < nw - pos - 1)
		pos += 1 + (w[pos] & ~WC_FTM_DETOUR);
	if (pos >= nw || (w[pos] & ~WC_FTM_DETOUR) != nw - pos - 1 ||
	    !(w[pos] & ~WC_FTM_DETOUR))
		return -EINVAL;
	*base = pos + 1;
	*n = w[pos] & ~WC_FTM_DETOUR;
	return 0;
}

/* One network output for a single-destination decision @s. */
static void ftm_one(const struct wc_route_ctx *ctx, const struct ftm_step *s,
		    u32 vc_class, u32 skip, u32 words, struct wc_route_req *req)
{
	struct wc_route_out *o = &req->out[req->nout++];

	o->consume = false;
	o->port = (u8)ftm_port(s->q, s->cnt[FTM_Y] != 0);
	o->vc_mask = ftm_vc_mask(vc_class, ctx->params->vcs);
	o->hdr_skip_words = (u16)skip;
	o->hdr_words = (u16)words;
	o->hdr_flits = (u16)words;
}

/*
 * A detour worm: [waypoint, destination] until the waypoint, then
 * [destination] on the phase-2 VC classes.
 */
static int ftm_route_detour(const struct wc_route_ctx *ctx, const u32 *l,
			    u32 n, u32 base, struct wc_route_req *req)
{
	const struct wc_ftm_tables *t = ctx->tables;
	u32 d = l[n - 1] & WC_FTM_NODE_MASK;
	u32 q2 = (l[n - 1] >> WC_FTM_Q_SHIFT) & 3;
	struct ftm_step s;
	int err;

	if (!(l[n - 1] & WC_FTM_PHASE2) || n > 2 ||
	    ctx->params->vcs < WC_FTM_DETOUR_VCS)
		return -EINVAL;
	req->nout = 0;
	if (n == 2) {
		u32 m = l[0] & WC_FTM_NODE_MASK;

		if (!(l[0] & WC_FTM_WAYPOINT) || m >= ctx->topo->nnodes)
			return -EINVAL;
		if (m != ctx->node) {
			err = ftm_decide(t, ctx, subnet_of(t, ctx->src, m), l,
					 1, &s);
			if (err)
				return err;
			ftm_one(ctx, &s, s.q, base, 2, req);
			return 0;
		}
		base++;		/* at the waypoint: phase 2 */
	}
	if (d == ctx->node) {
		struct wc_route_out *o = &req->out[req->nout++];

		memset(o, 0, sizeof(*o));
		o->consume = true;
		return 0;
	}
	err = ftm_decide(t, ctx, q2, &l[n - 1], 1, &s);
	if (err)
		return err;
	ftm_one(ctx, &s, WC_FT_NSUBNETS + q2, base, 1, req);
	return 0;
}

/* A detour worm's list: its last word is a phase-2 destination. */
static bool is_detour(const u32 *l, u32 n)
{
	return n && (l[n - 1] & (WC_FTM_PHASE2 | WC_FTM_PLANNED)) ==
		    WC_FTM_PHASE2;
}

static int ftm_route(const struct wc_route_ctx *ctx, const struct wc_hdr *hdr,
		     struct wc_route_req *req)
{
	const struct wc_ftm_tables *t = ctx->tables;
	struct ftm_step s;
	u32 base, n, c, skip;
	int err;

	if (!tables_ok(t, ctx->topo))
		return -EINVAL;
	err = ftm_list(ctx, hdr->words, hdr->nwords, &base, &n);
	if (err)
		return err;
	if (is_detour(hdr->words + base, n))
		return ftm_route_detour(ctx, hdr->words + base, n, base, req);
	err = ftm_decide(t, ctx, subnet_of(t, ctx->src, hdr->words[base] &
					   WC_FTM_NODE_MASK),
			 hdr->words + base, n, &s);
	if (err)
		return err;
	req->nout = 0;
	if (s.cnt[FTM_SELF]) {
		struct wc_route_out *o = &req->out[req->nout++];

		o->consume = true;
		o->vc_mask = 0;
		o->hdr_skip_words = 0;
		o->hdr_words = 0;
		o->hdr_flits = 0;
	}
	skip = base + s.cnt[FTM_SELF];
	for (c = FTM_X; c <= FTM_Y; c++) {
		struct wc_route_out *o;

		if (!s.cnt[c])
			continue;
		o = &req->out[req->nout++];
		o->consume = false;
		o->port = (u8)ftm_port(s.q, c == FTM_Y);
		o->vc_mask = ftm_vc_mask(s.q, ctx->params->vcs);
		o->hdr_skip_words = (u16)skip;
		o->hdr_words = (u16)s.cnt[c];
		o->hdr_flits = (u16)s.cnt[c];
		skip += s.cnt[c];
	}
	return 0;
}

/*
 * Reorder the routed list in place: own id, then +X words, then +Y words;
 * a planned word whose choice was read moves on to its next choice.
 */
static void ftm_routed(const struct wc_route_ctx *ctx, u32 *words, u32 nwords,
		       const struct wc_route_req *req)
{
	const struct wc_ftm_tables *t = ctx->tables;
	struct ftm_step s;
	u32 base, n, lo = 0, i = 0, hi, *l;

	if (ftm_list(ctx, words, nwords, &base, &n) ||
	    is_detour(words + base, n) ||
	    ftm_decide(t, ctx, subnet_of(t, ctx->src, words[base] &
					 WC_FTM_NODE_MASK),
		       words + base, n, &s))
		return;
	l = words + base;
	hi = n;
	/* three-way partition: [0, lo) self, [lo, i) X, [hi, n) Y */
	while (i < hi) {
		bool chose;
		u32 c = word_class(&s, l[i], &chose), tmp = l[i];

		if (chose)
			tmp = (tmp & ~WC_FTM_CHOICE_MASK) |
			      ((tmp & WC_FTM_CHOICE_MASK) >> 1 &
			       WC_FTM_CHOICE_MASK);
		if (c == FTM_SELF) {
			l[i++] = l[lo];
			l[lo++] = tmp;
		} else if (c == FTM_X) {
			l[i++] = tmp;
		} else {
			l[i] = l[--hi];
			l[hi] = tmp;
		}
	}
}

/* Words of the minimal worms' segments at @w, up to their 0 count. */
static u32 ftm_segments_end(const u32 *w, u32 max)
{
	u32 pos = 0;

	while (pos < max && w[pos] && !(w[pos] & WC_FTM_DETOUR))
		pos += 1 + w[pos];
	return pos;
}

/* The index of the 0 count that ends the layout at @w, or @max if none. */
static u32 ftm_layout_end(const u32 *w, u32 max)
{
	u32 pos = 0;

	while (pos < max && w[pos])
		pos += 1 + (w[pos] & ~WC_FTM_DETOUR);
	return pos;
}

/*
 * Under asynchronous replication a worm is deadlock-free when a router's
 * input buffer holds what a blocked branch has not taken yet: its header
 * flits (at most one per destination but the one consumed), the data and
 * the tail (faults.rst, "Buffers of a whole worm").  So the source splits
 * every minimal segment of more than buf_flits - data flits destinations
 * into worms of at most that many, each in the same subnetwork.  Buffers
 * that hold no such worm (wormsim's lock step, or too short for the
 * frame: refused in the kernel) leave the layout as it is.
 */
static void ftm_split_segments(const struct wc_route_ctx *ctx,
			       const struct wc_msg *m, u32 *w, u32 max)
{
	const struct wc_engine_params *p = ctx->params;
	u32 data = DIV_ROUND_UP(m->bytes, p->flit_bytes), cap, pos = 0;

	if (p->replication != WC_REPL_ASYNC || p->buf_flits <= data)
		return;
	cap = p->buf_flits - data;
	while (pos < max && w[pos] && !(w[pos] & WC_FTM_DETOUR)) {
		u32 k = w[pos], end;

		if (k > cap) {
			end = ftm_layout_end(w, max);
			if (end + 1 >= max)
				return;	/* no room: cannot happen (hdr_words) */
			/* a count word after the first cap destinations */
			memmove(w + pos + 2 + cap, w + pos + 1 + cap,
				(end - pos - cap) * sizeof(u32));
			w[pos] = cap;
			w[pos + 1 + cap] = k - cap;
		}
		pos += 1 + w[pos];
	}
}

/*
 * The source lays m->hdr out once, at the first worm: per subnetwork in
 * order, [count, ids...] of the destinations it can reach (a Strategy 3
 * plan, m->hdr_preset, laid these segments out already, its words
 * planned, ended by a 0 count: plans.h), then a detour segment
 * [WC_FTM_DETOUR | 2, waypoint, destination] for each other one that has
 * a waypoint; the rest make the message faulted here.  A 0 count ends
 * the layout; segments too long for the buffers are split then
 * (ftm_split_segments()).  Worm k's header ends with segment k.
 */
static bool ftm_next_worm(const struct wc_route_ctx *ctx, struct wc_msg *m,
			  u32 *words, u32 max_words, struct wc_hdr *hdr)
{
	const struct wc_ftm_tables *t = ctx->tables;
	u32 nn = ctx->topo->nnodes, q, d, pos = 0, k;

	if (m->next_dst == U32_MAX)
		return false;
	hdr->words = words;
	hdr->nwords = 0;	/* unroutable unless laid out below */
	hdr->nflits = 1;
	if (!tables_ok(t, ctx->topo) || !m->hdr_max ||
	    max_words < wc_ftm_hdr_words(m->ndsts)) {
		m->next_dst = U32_MAX;	/* one unroutable worm reports it */
		return true;
	}
	if (!m->next_dst) {
		bool preset = m->hdr_preset && words == m->hdr;

		if (preset)
			pos = ftm_segments_end(words, max_words);
		for (q = 0; q < WC_FT_NSUBNETS && !preset; q++) {
			u32 head = pos++;

			words[head] = 0;
			for (d = 0; d < nn; d++) {
				if (!has_dst(m, d) ||
				    subnet_of(t, m->src, d) != q)
					continue;
				if (d != m->src && !wc_ftm_reachable(t, m->src, d))
					continue;
				words[pos++] = d;
				words[head]++;
			}
			if (!words[head])
				pos--;
		}
		for (d = 0; d < nn; d++) {
			u32 w;

			if (!has_dst(m, d) || d == m->src ||
			    wc_ftm_reachable(t, m->src, d))
				continue;
			w = ctx->params->vcs >= WC_FTM_DETOUR_VCS ?
			    wc_ftm_waypoint(t, m->src, d) : U32_MAX;
			if (w != U32_MAX && pos + 4 <= max_words) {
				words[pos++] = WC_FTM_DETOUR | 2;
				words[pos++] = w | WC_FTM_WAYPOINT;
				words[pos++] = d | WC_FTM_PHASE2 |
					       subnet_of(t, w, d) << WC_FTM_Q_SHIFT;
			} else if (!m->faulted) {
				m->faulted = true;
				m->fault_at = m->src;
				m->fault_port = WC_FAULT_NODE;
			}
		}
		if (pos >= max_words) {	/* a preset without its 0 count */
			m->next_dst = U32_MAX;
			return true;
		}
		words[pos] = 0;
		ftm_split_segments(ctx, m, words, max_words);
	}
	/* worm k: the k-th segment; the layout ends with a 0 count */
	for (k = 0, pos = 0; k < m->next_dst && words[pos]; k++)
		pos += 1 + (words[pos] & ~WC_FTM_DETOUR);
	if (!words[pos])
		return false;
	m->next_dst++;
	hdr->nwords = pos + 1 + (words[pos] & ~WC_FTM_DETOUR);
	hdr->nflits = words[pos] & ~WC_FTM_DETOUR;
	return true;
}

static int ftm_check(const struct wc_topo *t, const struct wc_engine_params *p,
		     const char **why)
{
	if (t->kind != WC_TOPO_MESH || t->ndims != 2) {
		*why = "ftmesh runs on 2-D meshes";
		return -EINVAL;
	}
	if (p->vcs < WC_FTM_MIN_VCS) {
		*why = "ftmesh needs at least 4 virtual channels (one class per subnetwork)";
		return -EINVAL;
	}
	return 0;
}

const struct wc_algo wc_algo_ftmesh = {
	.name = "ftmesh",
	.next_worm = ftm_next_worm,
	.route = ftm_route,
	.check = ftm_check,
	.hdr_words = wc_ftm_hdr_words,
	.routed = ftm_routed,
};
