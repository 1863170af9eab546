// SPDX-License-Identifier: GPL-2.0
/*
 * The ftmesh table: its validation and the tables wc_algo_ftmesh routes
 * by.  What is checked is listed in ftm_set.h.
 */
#include <linux/wormcast.h>

#include "ftm_set.h"

static int refuse(const char **why, const char *msg)
{
	if (why)
		*why = msg;
	return -EINVAL;
}

int wc_ftm_scheme_check(const struct wc_topo *t,
			const struct wc_engine_params *p, const char **why)
{
	int err = wc_algo_ftmesh.check(t, p, why);

	if (err)
		return err;
	if (p->replication != WC_REPL_ASYNC)
		return refuse(why,
			      "ftmesh needs asynchronous (input-buffer) replication: replication async");
	return 0;
}

u32 wc_ftm_max_frame(const struct wc_engine_params *p)
{
	return p->buf_flits > 2 ? (p->buf_flits - 2) * p->flit_bytes : 0;
}

int wc_ftm_set_check(const struct wc_ftm_set *fs,
		     const struct wc_engine_params *p, const char **why)
{
	if (fs->tab.detour && p->vcs < WC_FTM_DETOUR_VCS)
		return refuse(why,
			      "an ftmesh table with the detour flag needs at least 8 virtual channels");
	return 0;
}

void wc_ftm_set_free(struct wc_ftm_set *fs)
{
	wc_free(fs->blocks);
	wc_free(fs->in_block);
	wc_free(fs->safety);
	wc_free(fs->off);
	wc_free(fs->recs);
	memset(fs, 0, sizeof(*fs));
}

/* Scratch arrays of one validation. */
struct ftm_scratch {
	u32 w, h, nn, nb;
	u32 *owner;		/* per node: block + 1, 0 outside */
	u32 *rowpre;		/* row y: blocked nodes with x' < x at y * (w + 1) + x */
	u32 *colpre;		/* column x: likewise at x * (h + 1) + y */
	u32 *seen[2];		/* per line and block: last (q, node) + 1 */
	u32 *cnt[2];		/* per line and block: direct holders */
	u16 *m1, *m3;		/* per row / column: max x0 / y0 of a line on it */
};

/* Paint the blocks into s->owner; bounds, overlap, adjacency, Definition 1. */
static int ftm_blocks(struct ftm_scratch *s, const struct wormcast_ftmesh_block *b,
		      const char **why)
{
	u32 i, x, y, n;

	for (i = 0; i < s->nb; i++) {
		if (b[i].x1 >= s->w || b[i].y1 >= s->h)
			return refuse(why, "an ftmesh block is not inside the mesh");
		if (b[i].x0 > b[i].x1 || b[i].y0 > b[i].y1)
			return refuse(why, "an ftmesh block has x0 > x1 or y0 > y1");
		/* at most nnodes nodes painted before an overlap stops it */
		for (y = b[i].y0; y <= b[i].y1; y++)
			for (x = b[i].x0; x <= b[i].x1; x++) {
				n = x + s->w * y;
				if (s->owner[n])
					return refuse(why, "ftmesh blocks overlap");
				s->owner[n] = i + 1;
			}
	}
	for (n = 0; n < s->nn; n++) {
		bool xb, yb;

		x = n % s->w;
		y = n / s->w;
		if (s->owner[n]) {
			if ((x + 1 < s->w && s->owner[n + 1] &&
			     s->owner[n + 1] != s->owner[n]) ||
			    (y + 1 < s->h && s->owner[n + s->w] &&
			     s->owner[n + s->w] != s->owner[n]))
				return refuse(why,
					      "two ftmesh blocks are adjacent (together they are one faulty block)");
			continue;
		}
		xb = (x > 0 && s->owner[n - 1]) ||
		     (x + 1 < s->w && s->owner[n + 1]);
		yb = (y > 0 && s->owner[n - s->w]) ||
		     (y + 1 < s->h && s->owner[n + s->w]);
		if (xb && yb)
			return refuse(why,
				      "a node outside the ftmesh blocks has block neighbours in both dimensions (Definition 1 disables it)");
	}
	return 0;
}

/*
 * One scan of @len nodes from @first by @step (a row or a column, either
 * way): safety element @slot of each is the hops back to the last block
 * node seen, 0 inside a block, WORMCAST_FTMESH_SAFETY_INF if none.
 */
static void ftm_scan(const struct ftm_scratch *s, u16 *sv, u32 slot,
		     u32 first, int step, u32 len)
{
	u32 i, n, last = 0;
	bool seen = false;

	for (i = 0; i < len; i++) {
		n = (u32)((int)first + (int)i * step);
		if (s->owner[n]) {
			seen = true;
			last = i;
		}
		sv[4 * n + slot] = s->owner[n] ? 0 : seen ? (u16)(i - last) :
				   WORMCAST_FTMESH_SAFETY_INF;
	}
}

/* The safety vectors (E, S, W, N) the blocks imply. */
static void ftm_safety(const struct ftm_scratch *s, u16 *sv)
{
	int w = s->w;
	u32 x, y;

	for (y = 0; y < s->h; y++) {
		ftm_scan(s, sv, 2, s->w * y, 1, s->w);		/* W: -X */
		ftm_scan(s, sv, 0, s->w * y + s->w - 1, -1, s->w);	/* E */
	}
	for (x = 0; x < s->w; x++) {
		ftm_scan(s, sv, 1, x, w, s->h);			/* S: -Y */
		ftm_scan(s, sv, 3, x + s->w * (s->h - 1), -w, s->h);	/* N */
	}
}

static void ftm_prefix(struct ftm_scratch *s)
{
	u32 x, y;

	for (y = 0; y < s->h; y++)
		for (x = 0; x < s->w; x++)
			s->rowpre[y * (s->w + 1) + x + 1] =
				s->rowpre[y * (s->w + 1) + x] +
				!!s->owner[x + s->w * y];
	for (x = 0; x < s->w; x++)
		for (y = 0; y < s->h; y++)
			s->colpre[x * (s->h + 1) + y + 1] =
				s->colpre[x * (s->h + 1) + y] +
				!!s->owner[x + s->w * y];
}

/*
 * Nodes outside the blocks on the stored part of a line of canonical
 * block @c in subnetwork @q: L1 (@line 0) the row c->y0 - 1 for X <
 * c->x0, L3 the column c->x0 - 1 for Y < c->y0.
 */
static u32 ftm_line_free(const struct ftm_scratch *s, u32 q,
			 const struct wc_ft_rect *c, u32 line)
{
	u32 ax, ay, bx, by, lo, hi;

	if (line == 0) {
		wc_ft_canon(q, s->w, s->h, 0, c->y0 - 1u, &ax, &ay);
		wc_ft_canon(q, s->w, s->h, c->x0 - 1u, c->y0 - 1u, &bx, &by);
		lo = min_t(u32, ax, bx);
		hi = max_t(u32, ax, bx);
		return c->x0 - (s->rowpre[ay * (s->w + 1) + hi + 1] -
				s->rowpre[ay * (s->w + 1) + lo]);
	}
	wc_ft_canon(q, s->w, s->h, c->x0 - 1u, 0, &ax, &ay);
	wc_ft_canon(q, s->w, s->h, c->x0 - 1u, c->y0 - 1u, &bx, &by);
	lo = min_t(u32, ay, by);
	hi = max_t(u32, ay, by);
	return c->y0 - (s->colpre[ax * (s->h + 1) + hi + 1] -
			s->colpre[ax * (s->h + 1) + lo]);
}

/* Block @blk in subnetwork @q's canonical frame. */
static void ftm_block_canon(const struct ftm_scratch *s,
			    const struct wormcast_ftmesh_block *blk, u32 q,
			    struct wc_ft_rect *c)
{
	struct wc_ft_rect p = { blk->x0, blk->y0, blk->x1, blk->y1 };

	wc_ft_canon_rect(q, s->w, s->h, &p, c);
}

/* One record @r held by @node in subnetwork @q, converted into @out. */
static int ftm_rec(struct ftm_scratch *s, const struct wormcast_ftmesh_block *b,
		   u32 q, u32 node, const struct wormcast_ftmesh_rec *r,
		   struct wc_ft_rec *out, const char **why)
{
	struct wc_ft_rect c;
	u32 cx, cy, l, mark = q * s->nn + node + 1;

	if (r->block >= s->nb)
		return refuse(why, "an ftmesh record names no block");
	if (r->line != WC_FT_L1 && r->line != WC_FT_L3)
		return refuse(why, "an ftmesh record's line is not 1 (L1) or 2 (L3)");
	if (r->reserved[0] || r->reserved[1] || r->reserved[2])
		return refuse(why, "an ftmesh record's reserved bytes are not 0");
	if (s->owner[node])
		return refuse(why, "an ftmesh record is held by a node inside a faulty block");
	l = r->line - WC_FT_L1;
	if (s->seen[l][r->block] == mark)
		return refuse(why,
			      "an ftmesh node holds the same (block, line) record twice in one subnetwork");
	s->seen[l][r->block] = mark;
	ftm_block_canon(s, &b[r->block], q, &c);
	wc_ft_canon(q, s->w, s->h, node % s->w, node / s->w, &cx, &cy);
	if (cx >= c.x0 || cy >= c.y0)
		return refuse(why,
			      "an ftmesh record's block is not ahead of its node in the subnetwork's frame");
	if (l == 0 ? cx >= s->m1[cy] : cy >= s->m3[cx])
		return refuse(why,
			      "an ftmesh record is held by a node on no block's adjacent line of that kind");
	if (l == 0 ? cy == c.y0 - 1u : cx == c.x0 - 1u)
		s->cnt[l][r->block]++;
	out->b = c;
	out->line = r->line;
	return 0;
}

/* Subnetwork @q's records: rec[off[q * nn] .. off[(q + 1) * nn]). */
static int ftm_subnet(struct ftm_scratch *s, const struct wormcast_ftmesh_block *b,
		      u32 q, const u32 *off, const struct wormcast_ftmesh_rec *rec,
		      struct wc_ft_rec *out, const char **why)
{
	struct wc_ft_rect c;
	u32 i, n, k, l;
	int err;

	memset(s->m1, 0, s->h * sizeof(*s->m1));
	memset(s->m3, 0, s->w * sizeof(*s->m3));
	for (l = 0; l < 2; l++)
		memset(s->cnt[l], 0, s->nb * sizeof(u32));
	for (i = 0; i < s->nb; i++) {
		ftm_block_canon(s, &b[i], q, &c);
		if (c.y0 && c.x0 > s->m1[c.y0 - 1])
			s->m1[c.y0 - 1] = c.x0;
		if (c.x0 && c.y0 > s->m3[c.x0 - 1])
			s->m3[c.x0 - 1] = c.y0;
	}
	for (n = 0; n < s->nn; n++)
		for (k = off[q * s->nn + n]; k < off[q * s->nn + n + 1]; k++) {
			err = ftm_rec(s, b, q, n, &rec[k], &out[k], why);
			if (err)
				return err;
		}
	for (i = 0; i < s->nb; i++) {
		ftm_block_canon(s, &b[i], q, &c);
		if (!c.x0 || !c.y0)
			continue;
		for (l = 0; l < 2; l++)
			if (s->cnt[l][i] != ftm_line_free(s, q, &c, l))
				return refuse(why,
					      "a node on a faulty block's adjacent line lacks that block's record");
	}
	return 0;
}

static void ftm_scratch_free(struct ftm_scratch *s)
{
	wc_free(s->owner);
	wc_free(s->rowpre);
	wc_free(s->colpre);
	wc_free(s->seen[0]);
	wc_free(s->seen[1]);
	wc_free(s->cnt[0]);
	wc_free(s->cnt[1]);
	wc_free(s->m1);
	wc_free(s->m3);
}

static int ftm_scratch_alloc(struct ftm_scratch *s)
{
	u32 nb = s->nb ? s->nb : 1;

	s->owner = wc_calloc(s->nn, sizeof(u32));
	s->rowpre = wc_calloc((size_t)(s->w + 1) * s->h, sizeof(u32));
	s->colpre = wc_calloc((size_t)(s->h + 1) * s->w, sizeof(u32));
	s->seen[0] = wc_calloc(nb, sizeof(u32));
	s->seen[1] = wc_calloc(nb, sizeof(u32));
	s->cnt[0] = wc_calloc(nb, sizeof(u32));
	s->cnt[1] = wc_calloc(nb, sizeof(u32));
	s->m1 = wc_calloc(s->h, sizeof(u16));
	s->m3 = wc_calloc(s->w, sizeof(u16));
	if (!s->owner || !s->rowpre || !s->colpre || !s->seen[0] ||
	    !s->seen[1] || !s->cnt[0] || !s->cnt[1] || !s->m1 || !s->m3)
		return -ENOMEM;
	return 0;
}

/* The header's checks, then the exact length. */
static int ftm_header(const struct wormcast_ftmesh *h, const struct wc_topo *t,
		      size_t len, const char **why)
{
	u64 want;

	if (t->kind != WC_TOPO_MESH || t->ndims != 2)
		return refuse(why, "ftmesh tables need a 2-D mesh (not a torus)");
	if (h->nnodes != t->nnodes)
		return refuse(why, "ftmesh table nnodes is not the fabric's");
	if (h->strategy < WC_FTM_STRATEGY_MIN || h->strategy > WC_FTM_STRATEGY_MAX)
		return refuse(why, "ftmesh table strategy must be 1, 2 or 3");
	if (h->flags & ~(u32)WORMCAST_FTMESH_F_DETOUR)
		return refuse(why, "ftmesh table has unknown flags");
	if (h->reserved)
		return refuse(why, "ftmesh table reserved field is not 0");
	if (h->nblocks > WORMCAST_FTMESH_MAX_BLOCKS)
		return refuse(why, "ftmesh table has more than WORMCAST_FTMESH_MAX_BLOCKS blocks");
	/* every term is below 2^36: no overflow in 64 bits */
	want = sizeof(*h) +
	       (u64)h->nblocks * sizeof(struct wormcast_ftmesh_block) +
	       (u64)h->nnodes * sizeof(struct wormcast_ftmesh_safety) +
	       ((u64)WORMCAST_FTMESH_SUBNETS * h->nnodes + 1) * sizeof(u32) +
	       (u64)h->nrecs * sizeof(struct wormcast_ftmesh_rec);
	if ((u64)len != want)
		return refuse(why,
			      "ftmesh table size is not its header, blocks, safety vectors, offsets and records");
	return 0;
}

int wc_ftm_set_build(struct wc_ftm_set *fs, const struct wc_topo *t,
		     const void *table, size_t len, const char **why)
{
	const struct wormcast_ftmesh *h = table;
	const struct wormcast_ftmesh_block *b;
	const struct wormcast_ftmesh_safety *sv;
	const struct wormcast_ftmesh_rec *rec;
	struct ftm_scratch s = { 0 };
	const u32 *off;
	u32 n, i, q;
	int err;

	memset(fs, 0, sizeof(*fs));
	if (len < sizeof(*h))
		return refuse(why, "ftmesh table shorter than its header");
	err = ftm_header(h, t, len, why);
	if (err)
		return err;
	s.w = t->dims[0];
	s.h = t->dims[1];
	s.nn = t->nnodes;
	s.nb = h->nblocks;
	b = (const void *)(h + 1);
	sv = (const void *)(b + s.nb);
	off = (const void *)(sv + s.nn);
	rec = (const void *)(off + WORMCAST_FTMESH_SUBNETS * s.nn + 1);

	err = -ENOMEM;
	fs->blocks = wc_calloc(s.nb ? s.nb : 1, sizeof(*fs->blocks));
	fs->in_block = wc_zalloc(s.nn);
	fs->safety = wc_calloc(4 * (size_t)s.nn, sizeof(u16));
	fs->off = wc_calloc(WORMCAST_FTMESH_SUBNETS * (size_t)s.nn + 1,
			    sizeof(u32));
	fs->recs = wc_calloc(h->nrecs ? h->nrecs : 1, sizeof(*fs->recs));
	if (!fs->blocks || !fs->in_block || !fs->safety || !fs->off ||
	    !fs->recs || ftm_scratch_alloc(&s))
		goto out;

	err = ftm_blocks(&s, b, why);
	if (err)
		goto out;
	ftm_safety(&s, fs->safety);
	for (n = 0; n < s.nn; n++)
		if (sv[n].e != fs->safety[4 * n] ||
		    sv[n].s != fs->safety[4 * n + 1] ||
		    sv[n].w != fs->safety[4 * n + 2] ||
		    sv[n].n != fs->safety[4 * n + 3]) {
			err = refuse(why,
				     "an ftmesh safety vector is not what the blocks imply");
			goto out;
		}
	err = refuse(why, "ftmesh record offsets must start at 0, never decrease and end at nrecs");
	if (off[0])
		goto out;
	for (i = 0; i < WORMCAST_FTMESH_SUBNETS * s.nn; i++)
		if (off[i + 1] < off[i])
			goto out;
	if (off[WORMCAST_FTMESH_SUBNETS * s.nn] != h->nrecs)
		goto out;
	ftm_prefix(&s);
	for (q = 0; q < WORMCAST_FTMESH_SUBNETS; q++) {
		err = ftm_subnet(&s, b, q, off, rec, fs->recs, why);
		if (err)
			goto out;
	}
	for (i = 0; i < s.nb; i++) {
		fs->blocks[i].x0 = b[i].x0;
		fs->blocks[i].y0 = b[i].y0;
		fs->blocks[i].x1 = b[i].x1;
		fs->blocks[i].y1 = b[i].y1;
	}
	for (n = 0; n < s.nn; n++)
		fs->in_block[n] = !!s.owner[n];
	memcpy(fs->off, off, (WORMCAST_FTMESH_SUBNETS * (size_t)s.nn + 1) *
	       sizeof(u32));
	fs->flags = h->flags;
	fs->nblocks = s.nb;
	fs->nrecs = h->nrecs;
	fs->tab.w = s.w;
	fs->tab.h = s.h;
	fs->tab.strategy = h->strategy;
	fs->tab.seed = h->seed;
	fs->tab.detour = h->flags & WORMCAST_FTMESH_F_DETOUR;
	fs->tab.in_block = fs->in_block;
	fs->tab.safety = fs->safety;
	fs->tab.off = fs->off;
	fs->tab.recs = fs->recs;
	fs->mem = (size_t)(s.nb ? s.nb : 1) * sizeof(*fs->blocks) +
		  (size_t)s.nn * (1 + 4 * sizeof(u16)) +
		  (WORMCAST_FTMESH_SUBNETS * (size_t)s.nn + 1) * sizeof(u32) +
		  (size_t)(h->nrecs ? h->nrecs : 1) * sizeof(*fs->recs);
	err = 0;
out:
	ftm_scratch_free(&s);
	if (err)
		wc_ftm_set_free(fs);
	return err;
}
