// SPDX-License-Identifier: GPL-2.0
/*
 * Capture records: the uapi layout of struct wormcast_cap_hdr,
 * wormcast_cap_dst and wormcast_cap_link, little-endian, written byte by
 * byte so that the same code runs in the kernel and in userspace.
 */
#include <linux/wormcast.h>

#include "caprec.h"

#define HDR_BYTES	64	/* sizeof(struct wormcast_cap_hdr) */
#define DST_BYTES	24	/* sizeof(struct wormcast_cap_dst) */
#define LINK_BYTES	8	/* sizeof(struct wormcast_cap_link) */

static void put16(u8 *p, u16 v)
{
	p[0] = (u8)v;
	p[1] = (u8)(v >> 8);
}

static void put32(u8 *p, u32 v)
{
	put16(p, (u16)v);
	put16(p + 2, (u16)(v >> 16));
}

static void put64(u8 *p, u64 v)
{
	put32(p, (u32)v);
	put32(p + 4, (u32)(v >> 32));
}

static u32 get32(const u8 *p)
{
	return p[0] | (u32)p[1] << 8 | (u32)p[2] << 16 | (u32)p[3] << 24;
}

size_t wc_caprec_hdr_len(const struct wc_msg *m, const struct wc_trace *t)
{
	return HDR_BYTES + (size_t)m->ndsts * DST_BYTES +
	       (size_t)(t ? t->nlinks : 0) * LINK_BYTES;
}

/* Index of @node among the @n destinations written at @d (by node), or -1. */
static int dst_find(const u8 *d, u32 n, u32 node)
{
	u32 lo = 0, hi = n;

	while (lo < hi) {
		u32 mid = lo + (hi - lo) / 2;
		u32 v = get32(d + mid * DST_BYTES);

		if (v == node)
			return (int)mid;
		if (v < node)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

void wc_caprec_encode(void *buf, const struct wc_caprec_info *info,
		      const struct wc_msg *m, const struct wc_trace *t)
{
	size_t len = wc_caprec_hdr_len(m, t);
	u8 *p = buf, *d = p + HDR_BYTES, *l;
	u32 flags = info->flags, n = 0, i, node;

	if (t && t->lost)
		flags |= WORMCAST_CAP_F_TRUNCATED;
	put16(p + 0, WORMCAST_CAP_VERSION);
	put16(p + 2, (u16)(len > 0xffff ? 0xffff : len));
	put32(p + 4, flags);
	put32(p + 8, info->fabric);
	put32(p + 12, m->src);
	put32(p + 16, info->scheme);
	put32(p + 20, info->table_gen);
	put32(p + 24, m->ndsts);
	put32(p + 28, t ? t->nlinks : 0);
	put32(p + 32, t ? t->nworms : 0);
	put32(p + 36, m->bytes);
	put64(p + 40, m->t_submit);
	put64(p + 48, info->done);
	put64(p + 56, t ? t->blocked : 0);

	/* every destination, by node, not reached until the trace says so */
	for (node = 0; node < info->nnodes && n < m->ndsts; node++) {
		if (!((m->dstmap[node / 32] >> (node % 32)) & 1))
			continue;
		put32(d + n * DST_BYTES, node);
		put32(d + n * DST_BYTES + 4, WORMCAST_CAP_NO_WORM);
		put64(d + n * DST_BYTES + 8, 0);
		put64(d + n * DST_BYTES + 16, 0);
		n++;
	}
	for (; n < m->ndsts; n++)	/* nnodes too small: cannot happen */
		memset(d + n * DST_BYTES, 0, DST_BYTES);
	for (i = 0; t && i < t->ndsts; i++) {
		const struct wc_trace_dst *td = &t->dsts[i];
		int k = dst_find(d, m->ndsts, td->node);

		if (k < 0)
			continue;	/* a stray copy: counted by the caller */
		put32(d + k * DST_BYTES + 4, td->worm);
		put64(d + k * DST_BYTES + 8, td->inject);
		put64(d + k * DST_BYTES + 16, td->consume);
	}

	l = d + (size_t)m->ndsts * DST_BYTES;
	for (i = 0; t && i < t->nlinks; i++) {
		const struct wc_trace_link *tl = &t->links[i];

		put16(l + i * LINK_BYTES, tl->node);
		l[i * LINK_BYTES + 2] = tl->port;
		l[i * LINK_BYTES + 3] = tl->vc;
		put32(l + i * LINK_BYTES + 4, tl->worm);
	}
}
