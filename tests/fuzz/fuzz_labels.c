// SPDX-License-Identifier: GPL-2.0
/*
 * Labels tables as TABLE_COMMIT hands them to the kernel
 * (kmod/engine/path_mcast.c: wc_label_set_build()): hostile bytes from
 * userspace.  A refusal must name its reason and leave nothing allocated
 * (ASan's leak check); what is accepted must be a Hamiltonian labeling of
 * the topology, checked here independently: the labels are a permutation,
 * node_of_label is its inverse, nodes with consecutive labels are
 * neighbours over a link that is not faulty, and every router's neighbour
 * labels are its neighbours' but WC_LABEL_NONE behind a faulty link.
 *
 * Input: byte 0 picks a topology (below); byte 1 bit 0 picks raw mode
 * (the rest is the table, header included) or structured mode (a header
 * consistent with the topology and a labeling made by a walk: from a
 * start node, each step goes to the unvisited neighbour the next byte
 * picks, and when the walk is stuck the remaining nodes follow in id
 * order), then up to MAX_FAULTS faulty links (node and port from the
 * next bytes, possibly bad or repeated), which reaches the adjacency and
 * fault checks and, on many inputs, an accepted table.
 */
#include <linux/wormcast.h>

#include "fuzz.h"
#include "path_mcast.h"

static const struct {
	u32 kind, ndims, dims[2];
} topos[] = {
	{ WC_TOPO_MESH, 2, { 3, 3 } },
	{ WC_TOPO_MESH, 2, { 4, 2 } },
	{ WC_TOPO_TORUS, 2, { 4, 4 } },
	{ WC_TOPO_TORUS, 1, { 6 } },
	{ WC_TOPO_HYPERCUBE, 1, { 3 } },
	{ WC_TOPO_STAR, 1, { 4 } },
};

#define MAX_NODES	32
#define MAX_FAULTS	4

/* Is port @p of @v one end of a faulty link of @h? */
static bool faulty(const struct wc_topo *t, const struct wormcast_labels *h,
		   u32 v, u32 p)
{
	const struct wormcast_trees_fault *f =
		(const void *)(h->label + t->nnodes);
	u32 i, u = wc_topo_neighbor(t, v, p);

	for (i = 0; i < h->nfaults; i++)
		if ((f[i].node == v && f[i].port == p) ||
		    (f[i].node == u &&
		     f[i].port == wc_topo_reverse_port(t, v, p)))
			return true;
	return false;
}

static bool adjacent(const struct wc_topo *t, const struct wormcast_labels *h,
		     u32 a, u32 b)
{
	u32 p;

	for (p = 0; p < t->nports; p++)
		if (wc_topo_neighbor(t, a, p) == b && !faulty(t, h, a, p))
			return true;
	return false;
}

static void check_set(const struct wc_label_set *s, const struct wc_topo *t,
		      const struct wormcast_labels *h)
{
	u32 v, p, l;

	FUZZ_CHECK(s->nnodes == t->nnodes && s->nports == t->nports,
		   "%u nodes, %u ports", s->nnodes, s->nports);
	for (v = 0; v < t->nnodes; v++) {
		l = s->label[v];
		FUZZ_CHECK(l < t->nnodes && s->node_of_label[l] == v,
			   "node %u: label %u not inverted", v, l);
		for (p = 0; p < t->nports; p++) {
			u32 nb = wc_topo_neighbor(t, v, p);
			u32 want = nb == WC_NO_NODE || faulty(t, h, v, p) ?
				   WC_LABEL_NONE : s->label[nb];

			FUZZ_CHECK(s->nbr[v * t->nports + p] == want,
				   "node %u port %u: neighbour label", v, p);
		}
	}
	for (l = 1; l < t->nnodes; l++)
		FUZZ_CHECK(adjacent(t, h, s->node_of_label[l - 1],
				    s->node_of_label[l]),
			   "labels %u and %u are not neighbours", l - 1, l);
}

/* A labeling from a walk the input steers (see the top). */
static void walk_labels(const struct wc_topo *t, struct fz *f, u32 *label)
{
	bool seen[MAX_NODES] = { false };
	u32 v = fz_u8(f) % t->nnodes, next = 0, n, p, k, cand[16];

	for (;;) {
		seen[v] = true;
		label[v] = next++;
		for (k = 0, p = 0; p < t->nports && k < 16; p++) {
			u32 nb = wc_topo_neighbor(t, v, p);

			if (nb != WC_NO_NODE && !seen[nb])
				cand[k++] = nb;
		}
		if (!k)
			break;
		v = cand[fz_u8(f) % k];
	}
	for (n = 0; n < t->nnodes; n++)
		if (!seen[n])
			label[n] = next++;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const u32 schemes[] = {
		WORMCAST_MCAST_HAMILTONIAN, WORMCAST_MCAST_DUAL_PATH,
		WORMCAST_MCAST_MULTIPATH, WORMCAST_MCAST_STAR_TREE,
	};
	struct fz f = { data, size };
	u32 buf[sizeof(struct wormcast_labels) / 4 + MAX_NODES + 2 * MAX_FAULTS + 1];
	struct wormcast_labels *h = (struct wormcast_labels *)buf;
	struct wc_label_set s;
	const char *why = NULL;
	struct wc_topo t;
	size_t len;
	u32 i;
	int err;

	i = fz_u8(&f) % ARRAY_SIZE(topos);
	if (wc_topo_init(&t, topos[i].kind, topos[i].ndims, topos[i].dims, NULL) ||
	    t.nnodes > MAX_NODES)
		return 0;
	memset(buf, 0, sizeof(buf));
	if (fz_u8(&f) & 1) {
		/* raw: whatever userspace sends, up to one word too many */
		len = fz_u8(&f) % (sizeof(buf) + 1);
		for (i = 0; i < len; i++)
			((u8 *)buf)[i] = fz_u8(&f);
	} else {
		h->scheme = schemes[fz_u8(&f) % ARRAY_SIZE(schemes)];
		h->nnodes = t.nnodes;
		walk_labels(&t, &f, h->label);
		h->nfaults = fz_u8(&f) % (MAX_FAULTS + 1);
		for (i = 0; i < 2 * h->nfaults; i += 2) {
			h->label[t.nnodes + i] = fz_u8(&f) % t.nnodes;
			h->label[t.nnodes + i + 1] = fz_u8(&f) % (t.nports + 1);
		}
		len = sizeof(*h) + (t.nnodes + 2 * h->nfaults) * sizeof(u32);
	}
	err = wc_label_set_build(&s, &t, buf, len, &why);
	if (err) {
		FUZZ_CHECK(err == -EINVAL || err == -ENOMEM, "error %d", err);
		FUZZ_CHECK(why && *why, "refused without a reason");
		return 0;
	}
	check_set(&s, &t, h);
	wc_label_set_free(&s);
	return 0;
}
