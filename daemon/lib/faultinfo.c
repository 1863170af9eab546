// SPDX-License-Identifier: GPL-2.0
/* Fault information on a 2-D mesh; see faultinfo.h. */
#include "faultinfo.h"

enum { NODE_OK = 0, NODE_FAULTY = 1, NODE_DISABLED = 2 };

static int fail(const char **why, const char *msg)
{
	if (why)
		*why = msg;
	return -EINVAL;
}

/* A growable u32 array. */
struct u32vec {
	u32 *v;
	u32 n, cap;
};

static int vec_push(struct u32vec *a, u32 x)
{
	if (a->n == a->cap) {
		u32 cap = a->cap ? 2 * a->cap : 64;
		u32 *v = wc_calloc(cap, sizeof(*v));

		if (!v)
			return -ENOMEM;
		if (a->n)
			memcpy(v, a->v, a->n * sizeof(*v));
		wc_free(a->v);
		a->v = v;
		a->cap = cap;
	}
	a->v[a->n++] = x;
	return 0;
}

static bool bad(const u8 *st, u32 n)
{
	return st[n] != NODE_OK;
}

/* Definition 1 for node n: faulty or disabled neighbours in both dimensions. */
static bool must_disable(const struct wc_faultinfo *fi, const u8 *st, u32 n)
{
	u32 x = wc_fi_x(fi, n), y = wc_fi_y(fi, n);
	bool xbad = (x > 0 && bad(st, n - 1)) || (x + 1 < fi->w && bad(st, n + 1));
	bool ybad = (y > 0 && bad(st, n - fi->w)) ||
		    (y + 1 < fi->h && bad(st, n + fi->w));

	return xbad && ybad;
}

/* Push the four neighbours of n that are still healthy and not queued. */
static void queue_neighbours(const struct wc_faultinfo *fi, const u8 *st,
			     u8 *queued, u32 *queue, u32 *tail, u32 n)
{
	u32 nb[4], k, cnt = wc_fi_neighbours(fi, n, nb);

	for (k = 0; k < cnt; k++) {
		if (st[nb[k]] == NODE_OK && !queued[nb[k]]) {
			queued[nb[k]] = 1;
			queue[(*tail)++ % fi->nnodes] = nb[k];
		}
	}
}

/* Definition 1 to a fixpoint; st[] holds NODE_FAULTY on entry. */
static int disable_to_fixpoint(const struct wc_faultinfo *fi, u8 *st)
{
	u32 *queue = wc_calloc(fi->nnodes, sizeof(*queue));
	u8 *queued = wc_zalloc(fi->nnodes);
	u32 head = 0, tail = 0, n;

	if (!queue || !queued) {
		wc_free(queue);
		wc_free(queued);
		return -ENOMEM;
	}
	/* A ring of nnodes entries suffices: a node is queued at most once
	 * at a time. */
	for (n = 0; n < fi->nnodes; n++)
		if (st[n] == NODE_FAULTY)
			queue_neighbours(fi, st, queued, queue, &tail, n);
	while (head != tail) {
		n = queue[head++ % fi->nnodes];
		queued[n] = 0;
		if (st[n] != NODE_OK || !must_disable(fi, st, n))
			continue;
		st[n] = NODE_DISABLED;
		queue_neighbours(fi, st, queued, queue, &tail, n);
	}
	wc_free(queue);
	wc_free(queued);
	return 0;
}

/* Label connected bad nodes; each component must be a full rectangle. */
static int find_blocks(struct wc_faultinfo *fi, const u8 *st, const char **why)
{
	u32 *stack = wc_calloc(fi->nnodes, sizeof(*stack));
	struct u32vec rects = { 0 };
	u32 n, b, x, y;
	int err = 0;

	if (!stack)
		return -ENOMEM;
	for (n = 0; n < fi->nnodes; n++)
		fi->block_of[n] = WC_FI_NONE;
	for (n = 0; n < fi->nnodes && !err; n++) {
		u32 sp = 0, count = 0, x0, x1, y0, y1;

		if (!bad(st, n) || fi->block_of[n] != WC_FI_NONE)
			continue;
		b = rects.n / 4;
		x0 = x1 = wc_fi_x(fi, n);
		y0 = y1 = wc_fi_y(fi, n);
		fi->block_of[n] = b;
		stack[sp++] = n;
		while (sp) {
			u32 m = stack[--sp], nb[4], k, cnt;

			count++;
			x = wc_fi_x(fi, m);
			y = wc_fi_y(fi, m);
			x0 = min_t(u32, x0, x);
			x1 = max_t(u32, x1, x);
			y0 = min_t(u32, y0, y);
			y1 = max_t(u32, y1, y);
			cnt = wc_fi_neighbours(fi, m, nb);
			for (k = 0; k < cnt; k++) {
				if (bad(st, nb[k]) &&
				    fi->block_of[nb[k]] == WC_FI_NONE) {
					fi->block_of[nb[k]] = b;
					stack[sp++] = nb[k];
				}
			}
		}
		if (count != (x1 - x0 + 1) * (y1 - y0 + 1)) {
			err = fail(why, "internal: a faulty block is not a rectangle");
			break;
		}
		err = vec_push(&rects, x0) ?: vec_push(&rects, y0) ?:
		      vec_push(&rects, x1) ?: vec_push(&rects, y1);
	}
	wc_free(stack);
	if (!err) {
		fi->nblocks = rects.n / 4;
		fi->blocks = wc_calloc(fi->nblocks, sizeof(*fi->blocks));
		if (!fi->blocks)
			err = -ENOMEM;
	}
	for (b = 0; !err && b < fi->nblocks; b++) {
		fi->blocks[b].x0 = (u16)rects.v[4 * b];
		fi->blocks[b].y0 = (u16)rects.v[4 * b + 1];
		fi->blocks[b].x1 = (u16)rects.v[4 * b + 2];
		fi->blocks[b].y1 = (u16)rects.v[4 * b + 3];
	}
	wc_free(rects.v);
	return err;
}

/* One sweep of the safety vectors: along a line of @len nodes. */
static void sweep(struct wc_faultinfo *fi, u32 first, int step, u32 len,
		  size_t field)
{
	u32 i, last = 0, n = first;
	bool seen = false;

	for (i = 0; i < len; i++, n += step) {
		u16 *v = (u16 *)((u8 *)&fi->safety[n] + field);

		if (wc_fi_in_block(fi, n)) {
			*v = 0;
			seen = true;
			last = i;
		} else {
			*v = seen ? (u16)(i - last) : WC_FI_INF;
		}
	}
}

static void compute_safety(struct wc_faultinfo *fi)
{
	u32 x, y, w = fi->w, h = fi->h;

	for (y = 0; y < h; y++) {
		/* east: sweep westwards; west: sweep eastwards */
		sweep(fi, wc_fi_node(fi, w - 1, y), -1, w,
		      offsetof(struct wc_fi_safety, e));
		sweep(fi, wc_fi_node(fi, 0, y), 1, w,
		      offsetof(struct wc_fi_safety, w));
	}
	for (x = 0; x < w; x++) {
		sweep(fi, wc_fi_node(fi, x, h - 1), -(int)w, h,
		      offsetof(struct wc_fi_safety, n));
		sweep(fi, wc_fi_node(fi, x, 0), (int)w, h,
		      offsetof(struct wc_fi_safety, s));
	}
}

/* Rectangle with X and Y swapped, so that L3 is handled as L1. */
static struct wc_ft_rect transpose(const struct wc_ft_rect *r, bool t)
{
	struct wc_ft_rect o = *r;

	if (t) {
		o.x0 = r->y0;
		o.x1 = r->y1;
		o.y0 = r->x0;
		o.y1 = r->x1;
	}
	return o;
}

/*
 * Does the stored part of A's L1 (row A.y0 - 1, columns <= A.x0 - 1)
 * cross block B?  Then A's records are transferred to B's L1.
 */
static bool l1_hits(const struct wc_ft_rect *a, const struct wc_ft_rect *b)
{
	u32 row;

	if (a->y0 == 0 || a->x0 == 0)
		return false;
	row = a->y0 - 1u;
	return b->y0 <= row && row <= b->y1 && b->x0 <= a->x0 - 1u;
}

/*
 * Transfer closure for one subnetwork and line: carry(B) = {B} plus the
 * carry of every block A whose line crosses B.  A lies strictly east of
 * B's first column (in the line's frame), so blocks are processed in
 * decreasing x0 and every carry(A) is complete when B needs it.
 */
static int build_carry(struct wc_faultinfo *fi, u32 q, u32 line)
{
	const struct wc_ft_rect *c = fi->cblocks[q];
	bool t = line == 1;
	u32 nb = fi->nblocks, i, j, k, b;
	u32 *order = wc_calloc(nb, sizeof(*order));
	u32 *start = wc_calloc(nb, sizeof(*start));
	u32 *len = wc_calloc(nb, sizeof(*len));
	u32 *stamp = wc_calloc(nb, sizeof(*stamp));
	u32 *off = wc_calloc(nb + 1, sizeof(*off));
	struct u32vec all = { 0 };
	int err = 0;

	if (!order || !start || !len || !stamp || !off) {
		err = -ENOMEM;
		goto out;
	}
	/* order by decreasing x0 in the line's frame (insertion sort by key
	 * is too slow for thousands of blocks: counting sort on x0) */
	{
		u32 cnt[WC_FI_MAX_SIDE + 1] = { 0 }, pos = 0;

		for (b = 0; b < nb; b++)
			cnt[transpose(&c[b], t).x0]++;
		for (i = WC_FI_MAX_SIDE + 1; i-- > 0;) {
			u32 n = cnt[i];

			cnt[i] = pos;
			pos += n;
		}
		for (b = 0; b < nb; b++)
			order[cnt[transpose(&c[b], t).x0]++] = b;
	}
	for (i = 0; i < nb && !err; i++) {
		struct wc_ft_rect rb;

		b = order[i];
		rb = transpose(&c[b], t);
		start[b] = all.n;
		stamp[b] = b + 1;
		err = vec_push(&all, b);
		for (j = 0; j < i && !err; j++) {
			u32 a = order[j];
			struct wc_ft_rect ra = transpose(&c[a], t);

			if (!l1_hits(&ra, &rb))
				continue;
			for (k = 0; k < len[a] && !err; k++) {
				u32 m = all.v[start[a] + k];

				if (stamp[m] == b + 1)
					continue;
				stamp[m] = b + 1;
				err = vec_push(&all, m);
			}
		}
		len[b] = all.n - start[b];
	}
	if (err)
		goto out;
	for (b = 0; b < nb; b++)
		off[b + 1] = off[b] + len[b];
	fi->carry[q][line] = wc_calloc(off[nb], sizeof(u32));
	if (!fi->carry[q][line]) {
		err = -ENOMEM;
		goto out;
	}
	for (b = 0; b < nb; b++)
		memcpy(fi->carry[q][line] + off[b], all.v + start[b],
		       len[b] * sizeof(u32));
	fi->carry_off[q][line] = off;
	off = NULL;
out:
	wc_free(order);
	wc_free(start);
	wc_free(len);
	wc_free(stamp);
	wc_free(off);
	wc_free(all.v);
	return err;
}

int wc_fi_build(struct wc_faultinfo *fi, u32 w, u32 h, const u32 *faulty,
		u32 nfaulty, const u32 (*links)[2], u32 nlinks,
		const char **why)
{
	u8 *st = NULL;
	u32 i, q, l;
	int err;

	memset(fi, 0, sizeof(*fi));
	if (w < 2 || h < 2 || w > WC_FI_MAX_SIDE || h > WC_FI_MAX_SIDE)
		return fail(why, "mesh sides must be 2 to 1024");
	if ((nfaulty && !faulty) || (nlinks && !links))
		return fail(why, "missing fault list");
	fi->w = w;
	fi->h = h;
	fi->nnodes = w * h;
	for (i = 0; i < nfaulty; i++)
		if (faulty[i] >= fi->nnodes)
			return fail(why, "faulty node out of the mesh");
	for (i = 0; i < nlinks; i++) {
		u32 a = links[i][0], b = links[i][1], d;

		if (a >= fi->nnodes || b >= fi->nnodes)
			return fail(why, "faulty link end out of the mesh");
		d = a > b ? a - b : b - a;
		if (!((d == 1 && a / w == b / w) || d == w))
			return fail(why, "faulty link joins non-adjacent nodes");
	}
	err = -ENOMEM;
	st = wc_zalloc(fi->nnodes);
	fi->faulty = wc_zalloc(fi->nnodes);
	fi->block_of = wc_calloc(fi->nnodes, sizeof(u32));
	fi->safety = wc_calloc(fi->nnodes, sizeof(*fi->safety));
	if (!st || !fi->faulty || !fi->block_of || !fi->safety)
		goto fail;
	for (i = 0; i < nfaulty; i++)
		fi->faulty[faulty[i]] = 1;
	for (i = 0; i < nlinks; i++)
		fi->faulty[max_t(u32, links[i][0], links[i][1])] = 1;
	for (i = 0; i < fi->nnodes; i++)
		st[i] = fi->faulty[i] ? NODE_FAULTY : NODE_OK;
	err = disable_to_fixpoint(fi, st);
	if (err)
		goto fail;
	err = find_blocks(fi, st, why);
	if (err)
		goto fail;
	compute_safety(fi);
	err = -ENOMEM;
	for (q = 0; q < WC_FT_NSUBNETS; q++) {
		fi->cblocks[q] = wc_calloc(fi->nblocks, sizeof(struct wc_ft_rect));
		if (!fi->cblocks[q])
			goto fail;
		for (i = 0; i < fi->nblocks; i++)
			wc_ft_canon_rect(q, w, h, &fi->blocks[i],
					 &fi->cblocks[q][i]);
		for (l = 0; l < 2; l++) {
			err = build_carry(fi, q, l);
			if (err)
				goto fail;
		}
	}
	wc_free(st);
	return 0;
fail:
	wc_free(st);
	wc_fi_free(fi);
	return err;
}

int wc_fi_build_topo(struct wc_faultinfo *fi, const struct wc_topo *t,
		     const u32 *faulty, u32 nfaulty, const u32 (*links)[2],
		     u32 nlinks, const char **why)
{
	memset(fi, 0, sizeof(*fi));
	if (t->kind != WC_TOPO_MESH || t->ndims != 2)
		return fail(why, "fault blocks need a 2-D mesh");
	return wc_fi_build(fi, t->dims[0], t->dims[1], faulty, nfaulty, links,
			   nlinks, why);
}

void wc_fi_free(struct wc_faultinfo *fi)
{
	u32 q, l;

	wc_free(fi->faulty);
	wc_free(fi->block_of);
	wc_free(fi->blocks);
	wc_free(fi->safety);
	for (q = 0; q < WC_FT_NSUBNETS; q++) {
		wc_free(fi->cblocks[q]);
		for (l = 0; l < 2; l++) {
			wc_free(fi->carry_off[q][l]);
			wc_free(fi->carry[q][l]);
		}
	}
	memset(fi, 0, sizeof(*fi));
}

bool wc_fi_safe(const struct wc_faultinfo *fi, u32 node)
{
	const struct wc_fi_safety *s = &fi->safety[node];

	return !wc_fi_in_block(fi, node) && s->e == WC_FI_INF &&
	       s->s == WC_FI_INF && s->w == WC_FI_INF && s->n == WC_FI_INF;
}

bool wc_fi_ext_safe(const struct wc_faultinfo *fi, u32 src, u32 dst)
{
	const struct wc_fi_safety *s = &fi->safety[src];
	u16 v[4] = { s->e, s->s, s->w, s->n };

	if (wc_fi_in_block(fi, src) || wc_fi_in_block(fi, dst))
		return false;
	return wc_ft_ext_safe(v, wc_fi_x(fi, src), wc_fi_y(fi, src),
			      wc_fi_x(fi, dst), wc_fi_y(fi, dst));
}

bool wc_fi_ext_safe_set(const struct wc_faultinfo *fi, u32 src,
			const u32 *dst, u32 ndst)
{
	u32 i;

	for (i = 0; i < ndst; i++)
		if (!wc_fi_ext_safe(fi, src, dst[i]))
			return false;
	return true;
}

bool wc_fi_minimal_path_exists(const struct wc_faultinfo *fi, u32 src,
			       u32 dst)
{
	u32 sx = wc_fi_x(fi, src), sy = wc_fi_y(fi, src);
	u32 dx = wc_fi_x(fi, dst), dy = wc_fi_y(fi, dst);
	u32 q = wc_ft_subnet_of(sx, sy, dx, dy);
	u32 csx, csy, cdx, cdy, i, j, cols;
	bool *reach, ok;

	wc_ft_canon(q, fi->w, fi->h, sx, sy, &csx, &csy);
	wc_ft_canon(q, fi->w, fi->h, dx, dy, &cdx, &cdy);
	cols = cdx - csx + 1;
	reach = wc_calloc(cols, sizeof(*reach));
	if (!reach)
		return false;
	/* reach[i] for row j: a monotone path from the source to (csx+i, j) */
	for (j = csy; j <= cdy; j++) {
		for (i = 0; i < cols; i++) {
			u32 x, y;
			bool from;

			wc_ft_canon(q, fi->w, fi->h, csx + i, j, &x, &y);
			if (i == 0 && j == csy)
				from = true;
			else
				from = (j > csy && reach[i]) ||
				       (i > 0 && reach[i - 1]);
			reach[i] = from &&
				   !wc_fi_in_block(fi, wc_fi_node(fi, x, y));
		}
	}
	ok = reach[cols - 1];
	wc_free(reach);
	return ok;
}

/*
 * Append the records of (block list of b on @line) to out[*n], skipping
 * (block, line) pairs already present.
 */
static void add_carry(const struct wc_faultinfo *fi, u32 q, u32 line, u32 b,
		      struct wc_fi_record *out, u32 *n)
{
	const u32 *list = fi->carry[q][line] + fi->carry_off[q][line][b];
	u32 cnt = fi->carry_off[q][line][b + 1] - fi->carry_off[q][line][b];
	u32 i, k;

	for (i = 0; i < cnt; i++) {
		for (k = 0; k < *n; k++)
			if (out[k].block == list[i] &&
			    out[k].line == WC_FT_L1 + line)
				break;
		if (k < *n)
			continue;
		out[*n].block = list[i];
		out[*n].subnet = (u8)q;
		out[*n].line = (u8)(WC_FT_L1 + line);
		out[*n].transferred = list[i] != b;
		(*n)++;
	}
}

static bool canon_blocked(const struct wc_faultinfo *fi, u32 q, u32 cx, u32 cy)
{
	u32 x, y;

	if (cx >= fi->w || cy >= fi->h)
		return true;
	wc_ft_canon(q, fi->w, fi->h, cx, cy, &x, &y);
	return wc_fi_in_block(fi, wc_fi_node(fi, x, y));
}

/*
 * Records at canonical (cx, cy) of subnet q into out (2 * nblocks room).
 * A router inside a faulty block is failed or disabled: it routes nothing
 * and holds no record (the kernel refuses a table that gives it one).
 */
static u32 collect(const struct wc_faultinfo *fi, u32 q, u32 cx, u32 cy,
		   struct wc_fi_record *out)
{
	u32 b, n = 0;

	if (canon_blocked(fi, q, cx, cy))
		return 0;
	for (b = 0; b < fi->nblocks; b++) {
		const struct wc_ft_rect *c = &fi->cblocks[q][b];

		if (c->y0 > 0 && c->x0 > 0 && cy == c->y0 - 1u && cx < c->x0)
			add_carry(fi, q, 0, b, out, &n);
		if (c->x0 > 0 && c->y0 > 0 && cx == c->x0 - 1u && cy < c->y0)
			add_carry(fi, q, 1, b, out, &n);
	}
	return n;
}

u32 wc_fi_records(const struct wc_faultinfo *fi, u32 node, u32 subnet,
		  struct wc_fi_record *out, u32 max)
{
	struct wc_fi_record *buf = wc_calloc(2 * fi->nblocks + 1, sizeof(*buf));
	u32 cx, cy, n;

	if (!buf)
		return 0;
	wc_ft_canon(subnet, fi->w, fi->h, wc_fi_x(fi, node), wc_fi_y(fi, node),
		    &cx, &cy);
	n = collect(fi, subnet, cx, cy, buf);
	memcpy(out, buf, min_t(u32, n, max) * sizeof(*out));
	wc_free(buf);
	return n;
}

void wc_fi_view(const struct wc_faultinfo *fi, u32 subnet, u32 cx, u32 cy,
		struct wc_fi_record *scratch, struct wc_ft_rec *buf,
		struct wc_ft_view *v)
{
	u32 i, n = collect(fi, subnet, cx, cy, scratch);

	for (i = 0; i < n; i++) {
		buf[i].b = fi->cblocks[subnet][scratch[i].block];
		buf[i].line = scratch[i].line;
	}
	v->x = (u16)cx;
	v->y = (u16)cy;
	v->east_blocked = canon_blocked(fi, subnet, cx + 1, cy);
	v->north_blocked = canon_blocked(fi, subnet, cx, cy + 1);
	v->nrecs = n;
	v->recs = buf;
}

/* Number of nodes on the stored part of a line of block b (canonical). */
static u32 line_len(const struct wc_faultinfo *fi, u32 q, u32 b, u32 line)
{
	const struct wc_ft_rect *c = &fi->cblocks[q][b];

	if (c->x0 == 0 || c->y0 == 0)
		return 0;
	return line == 0 ? c->x0 : c->y0;
}

/* Physical id of the k-th node of that line, from the mesh border. */
static u32 line_node(const struct wc_faultinfo *fi, u32 q, u32 b, u32 line,
		     u32 k)
{
	const struct wc_ft_rect *c = &fi->cblocks[q][b];
	u32 cx = line == 0 ? k : c->x0 - 1u;
	u32 cy = line == 0 ? c->y0 - 1u : k;
	u32 x, y;

	wc_ft_canon(q, fi->w, fi->h, cx, cy, &x, &y);
	return wc_fi_node(fi, x, y);
}

int wc_fi_tables_build(const struct wc_faultinfo *fi, struct wc_fi_tables *t)
{
	u32 *fill = NULL, q, b, l, k, n, total = 0;

	memset(t, 0, sizeof(*t));
	t->nnodes = fi->nnodes;
	t->safety = wc_calloc(fi->nnodes, sizeof(*t->safety));
	t->off = wc_calloc(fi->nnodes + 1, sizeof(u32));
	fill = wc_calloc(fi->nnodes + 1, sizeof(u32));
	if (!t->safety || !t->off || !fill)
		goto nomem;
	memcpy(t->safety, fi->safety, fi->nnodes * sizeof(*t->safety));
	/* pass 1: upper bound of the records per node */
	for (q = 0; q < WC_FT_NSUBNETS; q++)
		for (b = 0; b < fi->nblocks; b++)
			for (l = 0; l < 2; l++) {
				u32 cnt = fi->carry_off[q][l][b + 1] -
					  fi->carry_off[q][l][b];

				for (k = 0; k < line_len(fi, q, b, l); k++)
					fill[line_node(fi, q, b, l, k)] += cnt;
			}
	for (n = 0; n < fi->nnodes; n++) {
		t->off[n] = total;
		total += fill[n];
		fill[n] = t->off[n];
	}
	t->off[fi->nnodes] = total;
	t->rec = wc_calloc(total, sizeof(*t->rec));
	if (!t->rec)
		goto nomem;
	/* pass 2: fill, skipping (block, subnet, line) already present */
	for (q = 0; q < WC_FT_NSUBNETS; q++)
		for (b = 0; b < fi->nblocks; b++)
			for (l = 0; l < 2; l++) {
				const u32 *list = fi->carry[q][l] +
						  fi->carry_off[q][l][b];
				u32 cnt = fi->carry_off[q][l][b + 1] -
					  fi->carry_off[q][l][b];

				for (k = 0; k < line_len(fi, q, b, l); k++) {
					u32 node = line_node(fi, q, b, l, k);
					u32 i, j;

					if (wc_fi_in_block(fi, node))
						continue;	/* as collect() */
					for (i = 0; i < cnt; i++) {
						struct wc_fi_record *r;

						for (j = t->off[node]; j < fill[node]; j++)
							if (t->rec[j].block == list[i] &&
							    t->rec[j].subnet == q &&
							    t->rec[j].line == WC_FT_L1 + l)
								break;
						if (j < fill[node])
							continue;
						r = &t->rec[fill[node]++];
						r->block = list[i];
						r->subnet = (u8)q;
						r->line = (u8)(WC_FT_L1 + l);
						r->transferred = list[i] != b;
					}
				}
			}
	/* pass 3: close the gaps left by duplicates */
	total = 0;
	for (n = 0; n < fi->nnodes; n++) {
		u32 from = t->off[n], cnt = fill[n] - from;

		memmove(t->rec + total, t->rec + from, cnt * sizeof(*t->rec));
		t->off[n] = total;
		total += cnt;
	}
	t->off[fi->nnodes] = total;
	t->nrec = total;
	wc_free(fill);
	return 0;
nomem:
	wc_free(fill);
	wc_fi_tables_free(t);
	return -ENOMEM;
}

void wc_fi_tables_free(struct wc_fi_tables *t)
{
	wc_free(t->safety);
	wc_free(t->off);
	wc_free(t->rec);
	memset(t, 0, sizeof(*t));
}
