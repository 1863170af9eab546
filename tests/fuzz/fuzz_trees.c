// SPDX-License-Identifier: GPL-2.0
/*
 * Tree tables as TABLE_COMMIT hands them to the kernel
 * (kmod/engine/tree_mcast.c: wc_tree_set_build()): hostile bytes from
 * userspace.  A refusal must name its reason and leave nothing allocated
 * (ASan's leak check); what is accepted must be a set the engine can route
 * on: every tree's table passes wc_tree_table_check(), every parent link
 * is a real link, the trees share no link, and a multicast to random
 * destinations encodes into at most 2D header flits, the first one the
 * least common ancestor's.
 *
 * Input: byte 0 picks a topology (below); byte 1 bit 0 picks raw mode
 * (the rest is the table, header included) or structured mode (a header
 * consistent with the topology: scheme, node count, tree count and roots
 * from the next bytes, then one parent-port byte per node and tree, taken
 * modulo nports + 1, nports meaning the root's WORMCAST_NO_PORT), which
 * reaches the deep checks: cycles, detached parts, second roots, shared
 * links; then up to 3 faulty links, good or not (under spam, none may be
 * a tree link).  Then bytes for the multicast.
 */
#include <linux/wormcast.h>

#include "fuzz.h"
#include "tree_mcast.h"

static const struct {
	u32 kind, ndims, dims[2];
} topos[] = {
	{ WC_TOPO_TORUS, 2, { 4, 4 } },
	{ WC_TOPO_TORUS, 2, { 5, 3 } },
	{ WC_TOPO_TORUS, 2, { 3, 3 } },
	{ WC_TOPO_MESH, 2, { 4, 4 } },
	{ WC_TOPO_TORUS, 1, { 7 } },
	{ WC_TOPO_HYPERCUBE, 1, { 3 } },
	{ WC_TOPO_TORUS, 2, { 2, 4 } },
};

#define MAX_NODES	64

static void check_set(const struct wc_tree_set *s, const struct wc_topo *t,
		      struct fz *f)
{
	u8 used[MAX_NODES * 4] = { 0 };
	u32 dests[MAX_NODES], work[WC_DSTM_WORK_WORDS(MAX_NODES)];
	struct wc_dstm_flit out[WC_DSTM_MAX_FLITS(MAX_NODES)];
	u32 k, v, nd = 0, src;
	int nf;

	FUZZ_CHECK(s->ntrees >= 1 && s->ntrees <= 2, "ntrees %u", s->ntrees);
	for (k = 0; k < s->ntrees; k++) {
		const struct wc_tree_entry *e = s->tree[k].e;

		FUZZ_CHECK(!wc_tree_table_check(&s->tree[k]),
			   "tree %u: its table fails its own check", k);
		for (v = 0; v < t->nnodes; v++) {
			u32 back;

			if (e[v].parent == WC_TREE_NONE)
				continue;
			FUZZ_CHECK(wc_topo_neighbor(t, v, e[v].parent_port) ==
				   e[v].parent, "tree %u: %u's parent link", k, v);
			back = wc_topo_reverse_port(t, v, e[v].parent_port);
			FUZZ_CHECK(!used[v * t->nports + e[v].parent_port] &&
				   !used[e[v].parent * t->nports + back],
				   "link %u.p%u in two trees", v, e[v].parent_port);
			used[v * t->nports + e[v].parent_port] = 1;
			used[e[v].parent * t->nports + back] = 1;
		}
		/* SPAM: no listed faulty link is a link of its tree */
		for (v = 0; s->link_flags && v < t->nnodes; v++)
			FUZZ_CHECK(e[v].parent == WC_TREE_NONE ||
				   !(s->link_flags[v * t->nports +
						   e[v].parent_port] &
				     WC_LINK_FAULTY),
				   "spam: %u's parent link listed faulty", v);
		/* a part's id is a node of the part: its own part's top */
		for (v = 0; s->comp[k] && v < t->nnodes; v++)
			FUZZ_CHECK(s->comp[k][v] < t->nnodes &&
				   s->comp[k][s->comp[k][v]] == s->comp[k][v],
				   "tree %u: %u's part %u", k, v, s->comp[k][v]);
	}
	src = fz_u8(f) % t->nnodes;
	for (v = 0; v < t->nnodes; v++)
		if (v != src && (fz_u8(f) & 1))
			dests[nd++] = v;
	if (!nd)
		return;
	k = fz_u8(f) % s->ntrees;
	nf = wc_dstm_encode(&s->tree[k], src, dests, nd, false, work, out,
			    WC_DSTM_MAX_FLITS(nd));
	FUZZ_CHECK(nf >= 1 && (u32)nf <= 2 * nd, "%d flits for %u destinations",
		   nf, nd);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz f = { data, size };
	struct wc_tree_set s;
	struct wc_topo t;
	const char *why = NULL;
	u8 buf[sizeof(struct wormcast_trees) + 2 * MAX_NODES +
	       4 * sizeof(struct wormcast_trees_fault)];
	struct wormcast_trees *h = (struct wormcast_trees *)buf;
	size_t len;
	u32 i, n;
	int err;

	i = fz_u8(&f) % ARRAY_SIZE(topos);
	if (wc_topo_init(&t, topos[i].kind, topos[i].ndims, topos[i].dims, NULL))
		return 0;
	n = t.nnodes;
	memset(buf, 0, sizeof(buf));
	if (fz_u8(&f) & 1) {
		/* raw: whatever userspace sends, up to one byte too many */
		len = fz_u8(&f) % (sizeof(buf) + 1);
		for (i = 0; i < len; i++)
			buf[i] = fz_u8(&f);
	} else {
		static const u32 schemes[] = {
			WORMCAST_MCAST_SPAM, WORMCAST_MCAST_DSTM1,
			WORMCAST_MCAST_DSTM2, WORMCAST_MCAST_RT,
		};

		h->scheme = schemes[fz_u8(&f) % ARRAY_SIZE(schemes)];
		h->nnodes = n;
		h->ntrees = h->scheme == WORMCAST_MCAST_SPAM ? 1 : 2;
		for (i = 0; i < h->ntrees; i++)
			h->root[i] = fz_u8(&f) % n;
		for (i = 0; i < h->ntrees * n; i++) {
			u32 p = fz_u8(&f) % (t.nports + 1);

			h->parent_port[i] = p == t.nports ? WORMCAST_NO_PORT : (u8)p;
		}
		len = sizeof(*h) + h->ntrees * n;
		/* a few faulty links, good or not */
		h->nfaults = fz_u8(&f) % 4;
		for (i = 0; i < h->nfaults; i++) {
			struct wormcast_trees_fault fl = {
				.node = fz_u8(&f) % (n + 1),
				.port = fz_u8(&f) % (t.nports + 1),
			};

			memcpy(buf + len, &fl, sizeof(fl));
			len += sizeof(fl);
		}
	}
	err = wc_tree_set_build(&s, &t, buf, len, &why);
	if (err) {
		FUZZ_CHECK(err == -EINVAL || err == -ENOMEM, "error %d", err);
		FUZZ_CHECK(why && *why, "refused without a reason");
		return 0;
	}
	check_set(&s, &t, &f);
	wc_tree_set_free(&s);
	return 0;
}
