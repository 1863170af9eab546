// SPDX-License-Identifier: GPL-2.0
/*
 * ftmesh tables as TABLE_COMMIT hands them to the kernel
 * (kmod/engine/ftm_set.c: wc_ftm_set_build()): hostile bytes from
 * userspace.  A refusal must name its reason and leave nothing allocated
 * (ASan's leak check); a table that is accepted must be safe to route by:
 * the engine runs wc_algo_ftmesh on it for one multicast the input picks,
 * with no out-of-bounds access (ASan), no destination delivered twice,
 * and every destination delivered or counted (fault_drops) unless a route
 * error or the watchdog stopped the message.
 *
 * Input: byte 0 picks a topology (below); byte 1 bit 0 picks raw mode (a
 * 16-bit length, then the table, header included) or structured mode:
 * up to 3 blocks (4 bytes each: x0, y0, width, height; a block that would
 * overlap, touch or break Definition 1 with the others is dropped), a
 * strategy byte, a flags byte, then one word the next bytes may corrupt
 * (255: none).  Then the VCs (4 or 8), the source and the destinations.
 */
#include <stdlib.h>
#include <linux/wormcast.h>

#include "fuzz.h"
#include "ftm_set.h"

static const struct {
	u32 kind, ndims, dims[2];
} topos[] = {
	{ WC_TOPO_MESH, 2, { 6, 6 } },
	{ WC_TOPO_MESH, 2, { 5, 3 } },
	{ WC_TOPO_MESH, 2, { 8, 8 } },
	{ WC_TOPO_TORUS, 2, { 4, 4 } },
};

#define MAX_NODES	64
#define MAX_BLOCKS	3
#define MAX_RECS	(WORMCAST_FTMESH_SUBNETS * MAX_NODES * 2 * MAX_BLOCKS)
#define MAX_BYTES	(sizeof(struct wormcast_ftmesh) + \
			 MAX_BLOCKS * sizeof(struct wormcast_ftmesh_block) + \
			 MAX_NODES * sizeof(struct wormcast_ftmesh_safety) + \
			 (WORMCAST_FTMESH_SUBNETS * MAX_NODES + 1) * 4 + \
			 MAX_RECS * sizeof(struct wormcast_ftmesh_rec))

struct grid {
	u32 w, h, nb;
	struct wormcast_ftmesh_block b[MAX_BLOCKS];
	u8 own[MAX_NODES];	/* block + 1 */
};

static u8 at(const struct grid *g, int x, int y)
{
	if (x < 0 || y < 0 || x >= (int)g->w || y >= (int)g->h)
		return 0;
	return g->own[x + g->w * y];
}

/* Blocks disjoint, not touching, closed under Definition 1? */
static bool closed(const struct grid *g)
{
	int x, y;

	for (y = 0; y < (int)g->h; y++)
		for (x = 0; x < (int)g->w; x++) {
			u8 o = at(g, x, y);

			if (o && ((at(g, x + 1, y) && at(g, x + 1, y) != o) ||
				  (at(g, x, y + 1) && at(g, x, y + 1) != o)))
				return false;
			if (!o && (at(g, x - 1, y) || at(g, x + 1, y)) &&
			    (at(g, x, y - 1) || at(g, x, y + 1)))
				return false;
		}
	return true;
}

static void paint(struct grid *g, const struct wormcast_ftmesh_block *b, u8 v)
{
	u32 x, y;

	for (y = b->y0; y <= b->y1; y++)
		for (x = b->x0; x <= b->x1; x++)
			g->own[x + g->w * y] = v;
}

static u16 walk(const struct grid *g, int x, int y, int dx, int dy)
{
	u16 k;

	if (at(g, x, y))
		return 0;
	for (k = 1;; k++) {
		x += dx;
		y += dy;
		if (x < 0 || y < 0 || x >= (int)g->w || y >= (int)g->h)
			return WORMCAST_FTMESH_SAFETY_INF;
		if (at(g, x, y))
			return k;
	}
}

/* A table the input grows (see the top); its length. */
static size_t grow(struct grid *g, struct fz *f, u32 *buf)
{
	struct wormcast_ftmesh *h = (void *)buf;
	struct wormcast_ftmesh_block *b = (void *)(h + 1);
	struct wormcast_ftmesh_safety *sv;
	struct wormcast_ftmesh_rec *r;
	u32 i, n, q, k = 0, nn = g->w * g->h, *off, v, nwords;

	for (i = fz_u8(f) % (MAX_BLOCKS + 1); i; i--) {
		struct wormcast_ftmesh_block x;

		x.x0 = fz_u8(f) % g->w;
		x.y0 = fz_u8(f) % g->h;
		x.x1 = (u16)min_t(u32, g->w - 1, x.x0 + fz_u8(f) % 3);
		x.y1 = (u16)min_t(u32, g->h - 1, x.y0 + fz_u8(f) % 3);
		if (at(g, x.x0, x.y0) || at(g, x.x1, x.y1))
			continue;
		paint(g, &x, (u8)(g->nb + 1));
		if (!closed(g)) {
			paint(g, &x, 0);
			continue;
		}
		g->b[g->nb++] = x;
	}
	h->nnodes = nn;
	h->strategy = fz_u8(f) % 3;	/* 0 is refused */
	h->flags = fz_u8(f) % 3;
	h->nblocks = g->nb;
	h->seed = fz_u8(f);
	memcpy(b, g->b, g->nb * sizeof(*b));
	sv = (void *)(b + g->nb);
	off = (void *)(sv + nn);
	r = (void *)(off + WORMCAST_FTMESH_SUBNETS * nn + 1);
	for (n = 0; n < nn; n++) {
		sv[n].e = walk(g, n % g->w, n / g->w, 1, 0);
		sv[n].s = walk(g, n % g->w, n / g->w, 0, -1);
		sv[n].w = walk(g, n % g->w, n / g->w, -1, 0);
		sv[n].n = walk(g, n % g->w, n / g->w, 0, 1);
	}
	/* the direct records (no transfer: the validator does not ask) */
	for (q = 0; q < WORMCAST_FTMESH_SUBNETS; q++)
		for (n = 0; n < nn; n++) {
			u32 cx, cy;

			off[q * nn + n] = k;
			if (g->own[n])
				continue;
			wc_ft_canon(q, g->w, g->h, n % g->w, n / g->w, &cx, &cy);
			for (i = 0; i < g->nb; i++) {
				struct wc_ft_rect p = { b[i].x0, b[i].y0,
							b[i].x1, b[i].y1 }, c;

				wc_ft_canon_rect(q, g->w, g->h, &p, &c);
				if (!c.x0 || !c.y0)
					continue;
				if (cy == c.y0 - 1u && cx < c.x0) {
					r[k].block = i;
					r[k++].line = WC_FT_L1;
				}
				if (cx == c.x0 - 1u && cy < c.y0) {
					r[k].block = i;
					r[k++].line = WC_FT_L3;
				}
			}
		}
	off[WORMCAST_FTMESH_SUBNETS * nn] = k;
	h->nrecs = k;
	nwords = (u32)(((u8 *)(r + k) - (u8 *)buf) / 4);
	v = fz_u8(f);
	if (v != 255) {
		u32 *w = buf + (v * 7) % nwords;

		*w = fz_u8(f) & 1 ? *w + 1 : fz_u8(f);
	}
	return (u8 *)(r + k) - (u8 *)buf;
}

struct seen {
	u32 got[MAX_NODES];
	u32 route_errors, deadlocks, done;
};

static void on_deliver(void *priv, struct wc_msg *m, u32 node, u64 lat)
{
	((struct seen *)priv)->got[node]++;
}

static void on_done(void *priv, struct wc_msg *m)
{
	((struct seen *)priv)->done++;
}

static void on_route_error(void *priv, struct wc_msg *m, u32 node, int err)
{
	((struct seen *)priv)->route_errors++;
}

static void on_deadlock(void *priv, u64 cycle)
{
	((struct seen *)priv)->deadlocks++;
}

static const struct wc_engine_ops ops = {
	.deliver = on_deliver,
	.msg_done = on_done,
	.route_error = on_route_error,
	.deadlock = on_deadlock,
};

/* One multicast routed by the accepted tables. */
static void route(const struct wc_ftm_set *s, const struct wc_topo *t,
		  struct fz *f)
{
	struct wc_engine_params p;
	struct wc_engine_stats st;
	struct seen sn;
	struct wc_engine *e;
	struct wc_msg *m;
	u32 src, nd, i, d, hw, k;

	memset(&sn, 0, sizeof(sn));
	wc_engine_params_default(&p, t);
	p.vcs = fz_u8(f) & 1 ? 8 : 4;
	p.replication = WC_REPL_ASYNC;
	p.buf_flits = WC_MAX_BUF_FLITS;
	e = wc_engine_create(t, &p, &wc_algo_ftmesh, &ops, &sn);
	FUZZ_CHECK(e, "engine for ftmesh");
	m = calloc(1, wc_msg_size(e));
	FUZZ_CHECK(m, "message");
	src = fz_u8(f) % t->nnodes;
	wc_msg_init(e, m, src, 64, NULL);
	nd = fz_u8(f) % t->nnodes;
	for (i = 0; i < nd; i++) {
		d = fz_u8(f) % t->nnodes;
		if (d != src && !wc_msg_has_dst(e, m, d))
			wc_msg_add_dst(e, m, d);
	}
	hw = wc_algo_hdr_words(&wc_algo_ftmesh, m->ndsts);
	m->hdr = calloc(hw ? hw : 1, sizeof(u32));
	FUZZ_CHECK(m->hdr, "header");
	m->hdr_max = hw;
	if (m->ndsts)
		wc_engine_submit(e, m);
	for (k = 0; k < 200 && wc_engine_busy(e) && !sn.deadlocks; k++)
		wc_engine_run(e, 1000, s);
	if (wc_engine_busy(e))
		wc_engine_flush(e);
	wc_engine_get_stats(e, &st);
	for (d = 0; d < t->nnodes; d++)
		FUZZ_CHECK(sn.got[d] <= 1 && (!sn.got[d] || wc_msg_has_dst(e, m, d)),
			   "node %u delivered %u times", d, sn.got[d]);
	if (m->ndsts && !sn.route_errors && !sn.deadlocks) {
		u32 got = 0;

		for (d = 0; d < t->nnodes; d++)
			got += sn.got[d];
		FUZZ_CHECK(got + st.fault_drops == m->ndsts,
			   "%u delivered + %llu counted != %u destinations", got,
			   (unsigned long long)st.fault_drops, m->ndsts);
	}
	wc_engine_destroy(e);
	free(m->hdr);
	free(m);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz f = { data, size };
	u32 buf[MAX_BYTES / 4 + 1];
	struct wc_ftm_set s;
	const char *why = NULL;
	struct grid g = { 0 };
	struct wc_topo t;
	size_t len, i;
	int err;

	i = fz_u8(&f) % ARRAY_SIZE(topos);
	if (wc_topo_init(&t, topos[i].kind, topos[i].ndims, topos[i].dims, NULL) ||
	    t.nnodes > MAX_NODES)
		return 0;
	g.w = t.dims[0];
	g.h = t.dims[1];
	memset(buf, 0, sizeof(buf));
	if (fz_u8(&f) & 1) {
		/* raw: whatever userspace sends, up to one word too many */
		len = fz_u16(&f) % (sizeof(buf) + 1);
		for (i = 0; i < len; i++)
			((u8 *)buf)[i] = fz_u8(&f);
	} else {
		len = grow(&g, &f, buf);
	}
	err = wc_ftm_set_build(&s, &t, buf, len, &why);
	if (err) {
		FUZZ_CHECK(err == -EINVAL || err == -ENOMEM, "error %d", err);
		FUZZ_CHECK(why && *why, "refused without a reason");
		return 0;
	}
	FUZZ_CHECK(t.kind == WC_TOPO_MESH && s.tab.w == t.dims[0] &&
		   s.tab.h == t.dims[1] && s.tab.off[4 * t.nnodes] == s.nrecs,
		   "accepted tables of the wrong shape");
	route(&s, &t, &f);
	wc_ftm_set_free(&s);
	return 0;
}
