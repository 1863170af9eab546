// SPDX-License-Identifier: GPL-2.0
/*
 * Bcast tables as TABLE_COMMIT hands them to the kernel
 * (kmod/engine/bcast.c: wc_bcast_set_build()): hostile bytes from
 * userspace.  A refusal must name its reason and leave nothing allocated
 * (ASan's leak check); what is accepted must be a broadcast, checked here
 * independently: a relay walked on the index from a source the input
 * picks informs every other node exactly once, each offset's subtree is
 * what the walk informs through it, every sender received before the step
 * in which it sends.
 *
 * Input: byte 0 picks a topology (below); byte 1 bit 0 picks raw mode (a
 * 16-bit length, then the table, header included) or structured mode: a
 * scheme byte, then a tree the input grows (each node in id order takes
 * as sender an informed node the next byte picks, one or two steps after
 * that sender received), the unicasts listed by step, and one field the
 * next bytes may corrupt.
 */
#include <stdlib.h>
#include <linux/wormcast.h>

#include "fuzz.h"
#include "bcast.h"

static const struct {
	u32 kind, ndims, dims[2];
} topos[] = {
	{ WC_TOPO_TORUS, 2, { 4, 4 } },
	{ WC_TOPO_TORUS, 2, { 8, 8 } },
	{ WC_TOPO_MESH, 2, { 4, 4 } },
	{ WC_TOPO_TORUS, 2, { 8, 4 } },
};

#define MAX_NODES	64
#define MAX_BYTES	(sizeof(struct wormcast_bcast) + \
			 MAX_NODES * sizeof(struct wormcast_bcast_send))

static u32 walk(const struct wc_bcast_set *s, u32 src, u32 off, u32 *got,
		u32 depth)
{
	u32 i, n = 1;

	FUZZ_CHECK(depth <= s->nnodes, "relay deeper than the nodes");
	for (i = s->start[off]; i < s->start[off + 1]; i++) {
		got[wc_bcast_node(s, src, s->to[i])]++;
		n += walk(s, src, s->to[i], got, depth + 1);
	}
	FUZZ_CHECK(n == s->subtree[off], "offset %u: subtree %u, walk %u",
		   off, s->subtree[off], n);
	return n;
}

static void check_set(const struct wc_bcast_set *s, const struct wc_topo *t,
		      const void *bytes, u32 src)
{
	const struct wormcast_bcast *h = bytes;
	const struct wormcast_bcast_send *x = (const void *)(h + 1);
	u32 got[MAX_NODES] = { 0 }, step[MAX_NODES] = { 0 }, v, i;

	FUZZ_CHECK(s->nnodes == t->nnodes && s->nsends == t->nnodes - 1 &&
		   s->start[s->nnodes] == s->nsends, "sizes");
	FUZZ_CHECK(walk(s, src, 0, got, 0) == t->nnodes, "subtree of the source");
	for (v = 0; v < t->nnodes; v++)
		FUZZ_CHECK(got[v] == (v == src ? 0u : 1u),
			   "node %u informed %u times from %u", v, got[v], src);
	for (i = 0; i < h->nsends; i++)
		step[x[i].to] = x[i].step;
	for (i = 0; i < h->nsends; i++)
		FUZZ_CHECK(!x[i].from || step[x[i].from] < x[i].step,
			   "offset %u sends in step %u, received in %u",
			   x[i].from, x[i].step, step[x[i].from]);
}

static int by_step(const void *a, const void *b)
{
	const struct wormcast_bcast_send *x = a, *y = b;

	if (x->step != y->step)
		return x->step < y->step ? -1 : 1;
	return x->to < y->to ? -1 : x->to > y->to;
}

/* A broadcast tree the input grows (see the top). */
static size_t grow(const struct wc_topo *t, struct fz *f, u32 *buf)
{
	static const u32 schemes[] = {
		WORMCAST_MCAST_DCF, WORMCAST_MCAST_EDN, WORMCAST_MCAST_UNICAST,
	};
	struct wormcast_bcast *h = (void *)buf;
	struct wormcast_bcast_send *x = (void *)(h + 1);
	u32 recv[MAX_NODES] = { 0 }, v, p, *w;

	h->scheme = schemes[fz_u8(f) % ARRAY_SIZE(schemes)];
	h->nnodes = t->nnodes;
	h->nsends = t->nnodes - 1;
	for (v = 1; v < t->nnodes; v++) {
		p = fz_u8(f) % v;	/* nodes 0 .. v-1 are informed */
		recv[v] = recv[p] + 1 + (fz_u8(f) & 1);
		x[v - 1].step = recv[v];
		x[v - 1].from = p;
		x[v - 1].to = v;
	}
	qsort(x, h->nsends, sizeof(*x), by_step);
	/* corrupt one word of the table, or nothing */
	v = fz_u8(f);
	if (v < 4 + 3 * h->nsends) {
		w = buf + v;
		*w = fz_u8(f) & 1 ? *w + 1 : fz_u8(f);
	}
	return sizeof(*h) + h->nsends * sizeof(*x);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz f = { data, size };
	u32 buf[MAX_BYTES / 4 + 1];
	struct wc_bcast_set s;
	const char *why = NULL;
	struct wc_topo t;
	size_t len, i;
	u32 src;
	int err;

	i = fz_u8(&f) % ARRAY_SIZE(topos);
	if (wc_topo_init(&t, topos[i].kind, topos[i].ndims, topos[i].dims, NULL) ||
	    t.nnodes > MAX_NODES)
		return 0;
	memset(buf, 0, sizeof(buf));
	if (fz_u8(&f) & 1) {
		/* raw: whatever userspace sends, up to one word too many */
		len = fz_u16(&f) % (sizeof(buf) + 1);
		for (i = 0; i < len; i++)
			((u8 *)buf)[i] = fz_u8(&f);
	} else {
		len = grow(&t, &f, buf);
	}
	src = fz_u8(&f) % t.nnodes;
	err = wc_bcast_set_build(&s, &t, buf, len, &why);
	if (err) {
		FUZZ_CHECK(err == -EINVAL || err == -ENOMEM, "error %d", err);
		FUZZ_CHECK(why && *why, "refused without a reason");
		return 0;
	}
	check_set(&s, &t, buf, src);
	wc_bcast_set_free(&s);
	return 0;
}
