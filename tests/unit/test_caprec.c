// SPDX-License-Identifier: GPL-2.0
/*
 * Capture records (kmod/engine/caprec.c) from the engine's message trace:
 * a multicast from node 0 to nodes 5 and 7 of a 3x3 mesh under the
 * built-in algorithm, encoded in the uapi layout (little-endian) and read
 * back: header fields, destinations with Eq. 1 at zero load, the links of
 * each dimension-order worm, and the truncation flag when the trace is
 * too small.
 */
#include <endian.h>
#include <linux/wormcast.h>

#include "tap.h"
#include "caprec.h"

struct ctx {
	struct wc_engine *e;
	u8 rec[4096];
	size_t len;
	int done;
};

static void op_deliver(void *priv, struct wc_msg *m, u32 node, u64 lat)
{
}

static void op_msg_done(void *priv, struct wc_msg *m)
{
	struct ctx *c = priv;
	struct wc_caprec_info info = {
		.fabric = 42, .nnodes = 9, .scheme = WORMCAST_MCAST_UNICAST,
		.done = wc_engine_now(c->e),
	};

	c->len = wc_caprec_hdr_len(m, m->trace);
	if (c->len <= sizeof(c->rec))
		wc_caprec_encode(c->rec, &info, m, m->trace);
	c->done++;
}

static const struct wc_engine_ops ops = {
	.deliver = op_deliver,
	.msg_done = op_msg_done,
};

/* Send 0 -> {5, 7} of 58 bytes with a trace of @max_links links. */
static void run(struct ctx *c, u32 max_links)
{
	static const u32 dims[2] = { 3, 3 };
	struct wc_trace_link links[16];
	struct wc_trace_dst dsts[2];
	struct wc_trace t = {
		.max_links = max_links, .links = links,
		.max_dsts = 2, .dsts = dsts,
	};
	struct wc_engine_params p;
	struct wc_topo topo;
	struct wc_msg *m;

	memset(c, 0, sizeof(*c));
	wc_topo_init(&topo, WC_TOPO_MESH, 2, dims, NULL);
	wc_engine_params_default(&p, &topo);
	c->e = wc_engine_create(&topo, &p, &wc_algo_unicast_based, &ops, c);
	m = calloc(1, wc_msg_size(c->e));
	wc_msg_init(c->e, m, 0, 58, NULL);
	wc_msg_add_dst(c->e, m, 7);
	wc_msg_add_dst(c->e, m, 5);
	m->trace = &t;
	wc_engine_submit(c->e, m);
	wc_engine_run(c->e, 1000, NULL);
	wc_engine_destroy(c->e);
	free(m);
}

static u32 r32(const void *p)
{
	u32 v;

	memcpy(&v, p, 4);
	return le32toh(v);
}

static u64 r64(const void *p)
{
	u64 v;

	memcpy(&v, p, 8);
	return le64toh(v);
}

int main(void)
{
	const struct wormcast_cap_hdr *h;
	const u8 *d, *l;
	struct ctx c;
	char got[128];
	size_t used = 0;
	u32 i;

	is_int(sizeof(struct wormcast_cap_hdr), 64, "uapi header: 64 bytes");
	is_int(sizeof(struct wormcast_cap_dst), 24, "uapi destination: 24 bytes");
	is_int(sizeof(struct wormcast_cap_link), 8, "uapi link: 8 bytes");

	run(&c, 16);
	is_int(c.done, 1, "msg_done once");
	h = (const void *)c.rec;
	is_int(c.len, 64 + 2 * 24 + 6 * 8, "record length");
	is_int(le16toh(h->version), WORMCAST_CAP_VERSION, "version");
	is_int(le16toh(h->hdr_len), c.len, "hdr_len");
	is_int(le32toh(h->flags), 0, "no flag");
	is_int(le32toh(h->fabric), 42, "fabric");
	is_int(le32toh(h->src), 0, "source");
	is_int(le32toh(h->ndsts), 2, "destinations");
	is_int(le32toh(h->nlinks), 6, "links");
	is_int(le32toh(h->nworms), 2, "one worm per destination");
	is_int(le32toh(h->frame_len), 58, "frame length");
	is_int(le64toh(h->blocked), 0, "not blocked");
	d = c.rec + 64;
	is_int(r32(d), 5, "first destination by node: 5");
	is_int(r32(d + 24), 7, "second: 7");
	is_int(r32(d + 4), 0, "node 5 reached by worm 0");
	/* Eq. 1: 3 hops * 2 + (1 + 2 + 1 flits - 1) */
	is_int(r64(d + 16) - r64(d + 8), 9, "node 5: Eq. 1 after injection");
	is_int(r32(d + 28), 1, "node 7 reached by worm 1");
	is_int(r64(d + 40) - r64(d + 32), 9, "node 7: Eq. 1 after injection");
	ok(r64(d + 32) > r64(d + 8), "worm 1 injected after worm 0");
	is_int(le64toh(h->done), r64(d + 40), "done when the last tail is consumed");
	l = d + 2 * 24;
	for (i = 0; i < 6; i++)
		used += snprintf(got + used, sizeof(got) - used, "%u/%u.%u ",
				 r32(l + i * 8 + 4), l[i * 8] | l[i * 8 + 1] << 8,
				 l[i * 8 + 2]);
	ok(!strcmp(got, "0/0.0 0/1.0 0/2.2 1/0.0 1/1.2 1/4.2 "),
	   "links: dimension order, worm after worm (%s)", got);

	run(&c, 2);
	h = (const void *)c.rec;
	is_int(le32toh(h->nlinks), 2, "a small trace keeps its first links");
	is_int(le32toh(h->flags), WORMCAST_CAP_F_TRUNCATED, "and says so");
	return done_testing();
}
