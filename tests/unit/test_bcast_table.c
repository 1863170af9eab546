// SPDX-License-Identifier: GPL-2.0
/*
 * The bcast table of the dcf and edn schemes: the daemon's encoder
 * (daemon/lib/bcast_table.c) against the engine's validator and index
 * (kmod/engine/bcast.c), which the kernel runs on commit.
 *  - 4x4 to 64x64, dcf and edn: the encoded table is accepted; its size
 *    is 16 + 12 (n^2 - 1);
 *  - a relay walked on the index, as kmod/relay.c does it, from sources
 *    all over the torus (every source up to 8x8, 7 beyond): every node but
 *    the source informed exactly once; the unicasts, moved to the source
 *    by wc_bcast_node(), are dcf_build()'s schedule from that source, in
 *    each sender's order (the node symmetry that lets one table serve
 *    every source); the subtree of every offset is the number of nodes
 *    the walk informs through it (what a lost relay counts);
 *  - the encoder refuses other schemes and topologies (6x6 torus, 8x8
 *    mesh, 8x4 torus).
 */
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "bcast.h"
#include "bcast_table.h"
#include "dcf.h"

static u32 log2_side(u32 side)
{
	u32 d = 0;

	while ((1u << d) < side)
		d++;
	return d;
}

/*
 * Walk the relay from @src: returns the nodes informed more than once or
 * never (0 is good); @got counts receptions; @through[v] the nodes
 * informed through offset v (v included), computed by the walk.
 */
static u32 walk(const struct wc_bcast_set *bs, u32 src, u32 off, u32 *got,
		u32 *through)
{
	u32 i, n = 1;

	for (i = bs->start[off]; i < bs->start[off + 1]; i++) {
		u32 to = bs->to[i];

		got[wc_bcast_node(bs, src, to)]++;
		n += walk(bs, src, to, got, through);
	}
	through[off] = n;
	return n;
}

/* The moved schedule from @src equals dcf_build() from @src, sender by sender. */
static bool same_as_built(const struct wc_bcast_set *bs, u32 dscheme, u32 side,
			  u32 src)
{
	struct dcf_sched sc;
	const char *why = NULL;
	u32 *pos = calloc(bs->nnodes, sizeof(u32)), i, off;
	bool same = pos != NULL;

	if (!same || dcf_build(&sc, dscheme, side, src, NULL, &why)) {
		free(pos);
		return false;
	}
	for (i = 0; i < sc.nuni && same; i++) {
		const struct dcf_unicast *u = &sc.uni[i];
		u32 fx = (u->src % side + side - src % side) % side;
		u32 fy = (u->src / side + side - src / side) % side;

		off = fx + side * fy;
		if (bs->start[off] + pos[off] >= bs->start[off + 1] ||
		    wc_bcast_node(bs, src, bs->to[bs->start[off] + pos[off]]) != u->dst)
			same = false;
		pos[off]++;
	}
	dcf_free(&sc);
	free(pos);
	return same;
}

static void check(u32 scheme, u32 side)
{
	const u32 dims[2] = { side, side };
	const char *name = scheme == WORMCAST_MCAST_DCF ? "dcf" : "edn";
	u32 dscheme = scheme == WORMCAST_MCAST_DCF ? DCF_SCHEME_DCF : DCF_SCHEME_EDN;
	struct wc_bcast_set bs;
	struct wc_topo t;
	const char *why = NULL;
	u32 *got, *through, src, v, bad_once = 0, bad_sub = 0, bad_same = 0;
	u32 nsrc = 0;
	void *bytes;
	size_t len;
	int err;

	if (wc_topo_init(&t, WC_TOPO_TORUS, 2, dims, &why)) {
		ok(0, "%s %ux%u: topology (%s)", name, side, side, why);
		return;
	}
	err = wc_bcast_table_build(&t, scheme, &bytes, &len, &why);
	ok(!err && len == 16 + 12 * (size_t)(t.nnodes - 1),
	   "%s %ux%u: encoded, %zu bytes", name, side, side, len);
	why = NULL;
	err = err ? err : wc_bcast_set_build(&bs, &t, bytes, len, &why);
	if (!ok(!err,
		"%s %ux%u: accepted by the engine's validator (%s)", name, side,
		side, why ? why : "")) {
		free(bytes);
		return;
	}
	got = calloc(t.nnodes, sizeof(u32));
	through = calloc(t.nnodes, sizeof(u32));
	for (src = 0; src < t.nnodes && got && through;
	     src += side <= 8 ? 1 : t.nnodes / 7 + 3) {
		memset(got, 0, t.nnodes * sizeof(u32));
		walk(&bs, src, 0, got, through);
		for (v = 0; v < t.nnodes; v++) {
			if (got[v] != (v == src ? 0u : 1u))
				bad_once++;
			if (through[v] != bs.subtree[v])
				bad_sub++;
		}
		if (!same_as_built(&bs, dscheme, side, src))
			bad_same++;
		nsrc++;
	}
	ok(nsrc && !bad_once, "%s %ux%u: from %u sources every other node informed once (%u wrong)",
	   name, side, side, nsrc, bad_once);
	ok(nsrc && !bad_sub, "%s %ux%u: subtrees are the walk's counts (%u wrong)",
	   name, side, side, bad_sub);
	ok(nsrc && !bad_same, "%s %ux%u: moved to each source, dcf_build()'s schedule from it (%u sources differ)",
	   name, side, side, bad_same);
	is_int(bs.nsteps, log2_side(side), "%s %ux%u: d steps", name, side, side);
	free(got);
	free(through);
	wc_bcast_set_free(&bs);
	free(bytes);
}

static void refusals(void)
{
	static const u32 d66[2] = { 6, 6 }, d88[2] = { 8, 8 }, d84[2] = { 8, 4 };
	struct wc_topo t;
	const char *why = NULL;
	void *bytes;
	size_t len;
	int err;

	wc_topo_init(&t, WC_TOPO_TORUS, 2, d88, &why);
	err = wc_bcast_table_build(&t, WORMCAST_MCAST_MULTIPHASE, &bytes, &len, &why);
	ok(err == -EINVAL && !bytes && strstr(why, "dcf, edn"),
	   "scheme multiphase refused (%s)", why);
	wc_topo_init(&t, WC_TOPO_TORUS, 2, d66, &why);
	err = wc_bcast_table_build(&t, WORMCAST_MCAST_DCF, &bytes, &len, &why);
	ok(err == -EINVAL && strstr(why, "power of two"), "6x6 torus refused (%s)", why);
	wc_topo_init(&t, WC_TOPO_MESH, 2, d88, &why);
	err = wc_bcast_table_build(&t, WORMCAST_MCAST_EDN, &bytes, &len, &why);
	ok(err == -EINVAL && strstr(why, "n x n torus"), "8x8 mesh refused (%s)", why);
	wc_topo_init(&t, WC_TOPO_TORUS, 2, d84, &why);
	err = wc_bcast_table_build(&t, WORMCAST_MCAST_DCF, &bytes, &len, &why);
	ok(err == -EINVAL && strstr(why, "n x n torus"), "8x4 torus refused (%s)", why);
}

int main(void)
{
	u32 side;

	for (side = 4; side <= 64; side *= 2) {
		check(WORMCAST_MCAST_DCF, side);
		check(WORMCAST_MCAST_EDN, side);
	}
	refusals();
	return done_testing();
}
