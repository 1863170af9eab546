/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Label-based multicast test cases (kmod/engine/path_mcast.c), written once
 * and compiled twice, like tree_cases.h: into tests/unit/test_path_mcast.c
 * (ASan/UBSan) and kmod/tests/path_kunit.c (KASAN, lockdep).
 *
 *  - table validation: good tables on several topologies and schemes, and
 *    every kind of bad one refused with its reason, nothing allocated;
 *  - per-hop decisions: R, the Hamiltonian-path step, intermediate
 *    reception (consumption channel of the worm's direction), the
 *    star-tree split, and unroutable headers;
 *  - the star paper's sample multicast (Figures 5 and 6, Appendix) on its
 *    printed S_4 labels: the tree worm uses the Appendix's 18 channels, the
 *    hamiltonian and dual-path worms 20;
 *  - random multicasts against a reference written here from the papers
 *    (R, Procedure 1/2, the multipath split): the links the worms use are
 *    exactly the reference's, every destination consumes once, nobody
 *    else; path worms arrive at
 *        startup + d_X (router_delay + 1) + (L - 1) [+ router_delay]
 *    with d_X the links from the source to X along its worm, L the worm's
 *    flits at injection (one header flit per destination of the worm, data,
 *    tail) and the last term when X also forwards (path_mcast.h);
 *  - random mixed traffic, unicast included: no deadlock, no routing
 *    error, every destination exactly once.
 *
 * The includer defines CASE_CTX, CASE_CHECK, CASE_EQ, CASE_REQUIRE and
 * includes engine_cases.h first.  Labels here come from the papers'
 * formulas (snake, Gray code, the printed S_4 labels), not from the
 * daemon's library.
 */
#ifndef WC_PATH_CASES_H
#define WC_PATH_CASES_H

#include <linux/wormcast.h>

#include "path_mcast.h"

#define PATH_NSCHEMES	4
static const u32 path_schemes[PATH_NSCHEMES] = {
	WORMCAST_MCAST_HAMILTONIAN, WORMCAST_MCAST_DUAL_PATH,
	WORMCAST_MCAST_MULTIPATH, WORMCAST_MCAST_STAR_TREE,
};

/* Checks that also fold into a verdict. */
#define PATH_CHECK(ctx, good, cond, ...)				\
	do {								\
		bool ok__ = (cond);					\
		CASE_CHECK(ctx, ok__, __VA_ARGS__);			\
		(good) &= ok__;						\
	} while (0)

/* Run @e on label set @s until idle. */
static void case_path_run(struct wc_engine *e, const struct wc_label_set *s)
{
	u32 guard = 0;

	while (wc_engine_busy(e) && guard++ < 1000)
		wc_engine_run(e, 100000, s);
}

/* ------------------------------------------------------------ tables */

/* The star paper's S_4 labels (Figure 3, Appendix; 4132 is unnamed: 16). */
static const char * const path_s4_perm[24] = {
	"1234", "2134", "3124", "1324", "2314", "3214", "4213", "1243",
	"2143", "4123", "1423", "2413", "3412", "4312", "1342", "3142",
	"4132", "1432", "2431", "3421", "4321", "2341", "3241", "4231",
};

static u32 path_s4_node(const char *perm)
{
	u8 p[4];
	u32 i;

	for (i = 0; i < 4; i++)
		p[i] = (u8)(perm[i] - '0');
	return wc_star_rank(4, p);
}

/*
 * A label table for @t: the snake of section 2.2 (1-D and 2-D mesh or
 * torus), the Gray code (hypercube), the printed labels (S_4).
 */
static struct wormcast_labels *case_labels(CASE_CTX *ctx,
					   const struct wc_topo *t, u32 scheme,
					   size_t *len)
{
	struct wormcast_labels *h;
	u32 v, c[WC_MAX_COORDS];

	*len = sizeof(*h) + (size_t)t->nnodes * sizeof(u32);
	h = wc_zalloc(*len);
	CASE_REQUIRE(ctx, h, "label table allocated");
	h->scheme = scheme;
	h->nnodes = t->nnodes;
	for (v = 0; v < t->nnodes; v++) {
		if (t->kind == WC_TOPO_HYPERCUBE) {
			u32 l = 0, g = v;

			for (; g; g >>= 1)
				l ^= g;		/* inverse Gray code */
			h->label[v] = l;
		} else if (t->kind == WC_TOPO_STAR) {
			CASE_REQUIRE(ctx, t->dims[0] == 4, "S_4 only");
			h->label[path_s4_node(path_s4_perm[v])] = v;
		} else {
			u32 n = t->dims[0];

			wc_topo_coords(t, v, c);
			if (t->ndims == 1)
				h->label[v] = c[0];
			else
				h->label[v] = c[1] * n +
					      (c[1] % 2 ? n - 1 - c[0] : c[0]);
		}
	}
	return h;
}

struct path_topo {
	const char *name;
	u32 kind, a, b;
};

static const struct path_topo path_topos[] = {
	{ "mesh 8x8", WC_TOPO_MESH, 8, 8 },
	{ "mesh 5x4", WC_TOPO_MESH, 5, 4 },
	{ "mesh 9", WC_TOPO_MESH, 9, 0 },
	{ "torus 6x4", WC_TOPO_TORUS, 6, 4 },
	{ "torus 2x3", WC_TOPO_TORUS, 2, 3 },
	{ "hypercube 5", WC_TOPO_HYPERCUBE, 5, 0 },
	{ "star 4", WC_TOPO_STAR, 4, 0 },
};

static void case_path_tables_good(CASE_CTX *ctx)
{
	u32 i, k, v;

	for (i = 0; i < ARRAY_SIZE(path_topos); i++) {
		const struct path_topo *pt = &path_topos[i];
		struct wc_topo t;

		case_topo(ctx, &t, pt->kind, pt->a, pt->b, 0);
		for (k = 0; k < PATH_NSCHEMES; k++) {
			struct wc_label_set s;
			const char *why = "";
			size_t len;
			struct wormcast_labels *h = case_labels(ctx, &t,
								path_schemes[k],
								&len);
			int err = wc_label_set_build(&s, &t, h, len, &why);
			bool good = !err && s.scheme == path_schemes[k] &&
				    s.nnodes == t.nnodes && s.mem > 0;

			for (v = 0; good && v < t.nnodes; v++)
				good = s.node_of_label[s.label[v]] == v &&
				       s.label[v] == h->label[v];
			CASE_CHECK(ctx, good, "%s scheme %u: table accepted (%s)",
				   pt->name, path_schemes[k], err ? why : "ok");
			if (!err)
				wc_label_set_free(&s);
			wc_free(h);
		}
	}
}

static bool path_has(const char *why, const char *part)
{
	return why && strstr(why, part);
}

static void case_path_tables_bad(CASE_CTX *ctx)
{
	struct wc_topo t;
	struct wormcast_labels *good, *h;
	struct wc_engine_params p;
	size_t len;
	u32 i, tmp;

	case_topo(ctx, &t, WC_TOPO_MESH, 4, 4, 0);
	good = case_labels(ctx, &t, WORMCAST_MCAST_DUAL_PATH, &len);
	h = wc_zalloc(len + 8);
	CASE_REQUIRE(ctx, h, "room");
	for (i = 0; i < 11; i++) {
		static const char * const want[] = {
			"shorter than its header", "table size",
			"table size", "WORMCAST_TREES_MAX_FAULTS",
			"reserved", "node count",
			"out of range", "not a permutation",
			"not neighbours", "non-label scheme",
			"non-label scheme",
		};
		struct wc_label_set s;
		const char *why = NULL;
		size_t l = len;
		int err;

		memcpy(h, good, len);
		switch (i) {
		case 0:
			l = sizeof(*h) - 1;
			break;
		case 1:
			l = len - 4;
			break;
		case 2:
			l = len + 4;
			break;
		case 3:
			h->nfaults = WORMCAST_TREES_MAX_FAULTS + 1;
			break;
		case 4:
			h->reserved = 7;
			break;
		case 5:
			h->nnodes = 15;
			break;
		case 6:
			h->label[3] = 16;
			break;
		case 7:
			h->label[3] = h->label[4];
			break;
		case 8:	/* labels 0 and 5 swapped: a permutation, no path */
			tmp = h->label[0];
			h->label[0] = h->label[5];
			h->label[5] = tmp;
			break;
		case 9:
			h->scheme = WORMCAST_MCAST_DSTM1;
			break;
		case 10:
			h->scheme = 999;
			break;
		}
		memset(&s, 0x5a, sizeof(s));
		err = wc_label_set_build(&s, &t, h, l, &why);
		CASE_CHECK(ctx, err == -EINVAL && path_has(why, want[i]) &&
			   !s.label && !s.nbr && !s.mem,
			   "bad table %u refused: '%s' (want '%s')", i,
			   why ? why : "(none)", want[i]);
	}
	/* What a scheme needs from the fabric. */
	wc_engine_params_default(&p, &t);
	p.replication = WC_REPL_LOCKSTEP;
	CASE_CHECK(ctx, wc_label_scheme_check(WORMCAST_MCAST_STAR_TREE, &t, &p,
					      NULL) == -EINVAL,
		   "star-tree refuses lock-step replication");
	CASE_CHECK(ctx, !wc_label_scheme_check(WORMCAST_MCAST_DUAL_PATH, &t, &p,
					       NULL),
		   "dual-path runs in lock step");
	p.cons_channels = 1;
	CASE_CHECK(ctx, wc_label_scheme_check(WORMCAST_MCAST_DUAL_PATH, &t, &p,
					      NULL) == -EINVAL &&
		   wc_algo_label.check(&t, &p, NULL) == -EINVAL,
		   "one consumption channel is refused");
	CASE_CHECK(ctx, wc_label_scheme_check(WORMCAST_MCAST_SPAM, &t, NULL,
					      NULL) == -EINVAL,
		   "spam is not a label scheme");
	wc_free(h);
	wc_free(good);
}

/*
 * Faulty links in a labels table (4x4 mesh, the snake): one the path does
 * not use is accepted and absent from both ends' neighbour labels; each
 * bad one is refused with its reason, nothing allocated.
 */
static void case_path_tables_faults(CASE_CTX *ctx)
{
	const size_t fsz = sizeof(struct wormcast_trees_fault);
	struct wormcast_trees_fault *f;
	struct wormcast_labels *good, *h;
	u32 i, p, off_a, off_b, off_pa, off_pb, edge_port = WC_NO_PORT;
	struct wc_label_set s;
	const char *why = NULL;
	struct wc_topo t;
	size_t len, l;
	int err;

	case_topo(ctx, &t, WC_TOPO_MESH, 4, 4, 0);
	good = case_labels(ctx, &t, WORMCAST_MCAST_DUAL_PATH, &len);
	h = wc_zalloc(len + 3 * fsz);
	CASE_REQUIRE(ctx, h, "room");
	f = (void *)(h->label + t.nnodes);
	/* (1, 0) - (1, 1): the snake only climbs at x = 3 and x = 0 */
	off_a = 1;
	off_b = 5;
	off_pa = wc_topo_port_to(&t, off_a, off_b);
	off_pb = wc_topo_port_to(&t, off_b, off_a);
	for (p = 0; p < t.nports; p++)
		if (wc_topo_neighbor(&t, 0, p) == WC_NO_NODE)
			edge_port = p;
	CASE_REQUIRE(ctx, off_pa < t.nports && off_pb < t.nports &&
		     edge_port < t.nports, "ports of the 4x4 mesh");

	memcpy(h, good, len);
	h->nfaults = 1;
	f[0].node = off_a;
	f[0].port = off_pa;
	err = wc_label_set_build(&s, &t, h, len + fsz, &why);
	CASE_CHECK(ctx, !err, "a faulty link off the path is accepted (%s)",
		   err ? why : "ok");
	if (!err) {
		bool absent = true;

		for (i = 0; i < t.nnodes; i++)
			for (p = 0; p < t.nports; p++) {
				u32 u = wc_topo_neighbor(&t, i, p);
				bool faulty = (i == off_a && p == off_pa) ||
					      (i == off_b && p == off_pb);
				u32 want = u == WC_NO_NODE || faulty ?
					   WC_LABEL_NONE : h->label[u];

				absent &= s.nbr[i * t.nports + p] == want;
			}
		CASE_CHECK(ctx, absent,
			   "the faulty link is absent from both ends' neighbour labels, every other link present");
		CASE_CHECK(ctx, wc_lr_next_port(h->label[off_a],
						s.nbr + off_a * t.nports,
						t.nports, h->label[off_b]) !=
			   off_pa,
			   "R does not take the faulty link toward the node behind it");
		wc_label_set_free(&s);
	}

	for (i = 0; i < 8; i++) {
		static const char * const want[] = {
			"table size", "node is out of range",
			"port does not exist", "leads to no neighbour",
			"listed twice", "listed twice",
			"over a faulty link", "table size",
		};
		u32 nf = 1;

		memcpy(h, good, len);
		f[0].node = off_a;
		f[0].port = off_pa;
		f[1] = f[0];
		switch (i) {
		case 0:	/* nfaults says 1, no room for it */
			nf = 0;
			break;
		case 1:
			f[0].node = t.nnodes;
			break;
		case 2:
			f[0].port = t.nports;
			break;
		case 3:
			f[0].node = 0;
			f[0].port = edge_port;
			break;
		case 4:	/* the same end twice */
			nf = 2;
			break;
		case 5:	/* the link by its other end */
			nf = 2;
			f[1].node = off_b;
			f[1].port = off_pb;
			break;
		case 6:	/* (0, 0) - (1, 0): labels 0 and 1 */
			f[0].node = 0;
			f[0].port = wc_topo_port_to(&t, 0, 1);
			break;
		case 7:	/* bytes for two, nfaults says 1 */
			f[1].node = off_b;
			f[1].port = off_pb;
			nf = 2;
			break;
		}
		h->nfaults = i == 0 || i == 7 ? 1 : nf;
		l = len + (size_t)nf * fsz;
		why = NULL;
		memset(&s, 0x5a, sizeof(s));
		err = wc_label_set_build(&s, &t, h, l, &why);
		CASE_CHECK(ctx, err == -EINVAL && path_has(why, want[i]) &&
			   !s.label && !s.nbr && !s.mem,
			   "bad faulty links %u refused: '%s' (want '%s')", i,
			   why ? why : "(none)", want[i]);
	}
	wc_free(h);
	wc_free(good);
}

/* ------------------------------------------------------------ per hop */

static u32 case_port_to_label(const struct wc_label_set *s, u32 node, u32 l)
{
	u32 p;

	for (p = 0; p < s->nports; p++)
		if (s->nbr[node * s->nports + p] == l)
			return p;
	return U32_MAX;
}

/* Route @words at the node labelled @own, arriving from label @from. */
static int case_hop(const struct wc_label_set *s, const struct wc_topo *t,
		    const struct wc_engine_params *p, u32 own, u32 from,
		    const u32 *words, u32 n, struct wc_route_req *req)
{
	u32 node = s->node_of_label[own];
	struct wc_route_ctx ctx = {
		.topo = t, .params = p, .tables = s, .node = node,
		.in_port = from == U32_MAX ? WC_PORT_INJ :
			   case_port_to_label(s, node, from),
	};
	struct wc_hdr hdr = { .words = words, .nwords = n, .nflits = n };

	memset(req, 0, sizeof(*req));
	return wc_algo_label.route(&ctx, &hdr, req);
}

static void case_path_hops(CASE_CTX *ctx)
{
	struct wc_topo t;
	struct wc_engine_params p;
	struct wc_label_set s;
	struct wc_route_req req;
	struct wormcast_labels *h;
	size_t len;
	u32 w[4];
	int err;

	/* 8x8 mesh snake: label 5 = (5, 0), 10 = (5, 1), 21 = (5, 2). */
	case_topo(ctx, &t, WC_TOPO_MESH, 8, 8, 0);
	wc_engine_params_default(&p, &t);
	h = case_labels(ctx, &t, WORMCAST_MCAST_DUAL_PATH, &len);
	CASE_REQUIRE(ctx, !wc_label_set_build(&s, &t, h, len, NULL), "built");

	/* A destination on the way: consume (channel 0, going up) + R. */
	w[0] = 5; w[1] = 21; w[2] = 40;
	err = case_hop(&s, &t, &p, 5, 4, w, 3, &req);
	CASE_CHECK(ctx, !err && req.nout == 2 && req.out[0].consume &&
		   req.out[0].vc_mask == BIT(WC_PL_CONS_UP) &&
		   !req.out[1].consume &&
		   req.out[1].port == case_port_to_label(&s, s.node_of_label[5], 10) &&
		   req.out[1].hdr_skip_words == 1 && req.out[1].hdr_words == 2 &&
		   req.out[1].hdr_flits == 2,
		   "intermediate reception going up, R to the greatest label <= 21");
	/* Going down: channel 1, R to the least label >= the destination. */
	w[0] = 10; w[1] = 2;
	err = case_hop(&s, &t, &p, 10, 11, w, 2, &req);
	CASE_CHECK(ctx, !err && req.nout == 2 && req.out[0].consume &&
		   req.out[0].vc_mask == BIT(WC_PL_CONS_DOWN) &&
		   req.out[1].port == case_port_to_label(&s, s.node_of_label[10], 5),
		   "intermediate reception going down");
	/* The last destination only consumes, on any channel. */
	w[0] = 40;
	err = case_hop(&s, &t, &p, 40, 39, w, 1, &req);
	CASE_CHECK(ctx, !err && req.nout == 1 && req.out[0].consume &&
		   !req.out[0].vc_mask, "last destination consumes");
	/* Hamiltonian: one step along the path even where R jumps. */
	w[0] = 21 | WC_PL_HP;
	err = case_hop(&s, &t, &p, 5, 4, w, 1, &req);
	CASE_CHECK(ctx, !err && req.nout == 1 &&
		   req.out[0].port == case_port_to_label(&s, s.node_of_label[5], 6),
		   "hamiltonian goes to label + 1");
	/* Not label-monotone: arrived from above while going up. */
	w[0] = 40;
	CASE_CHECK(ctx, case_hop(&s, &t, &p, 5, 6, w, 1, &req) == -EINVAL,
		   "a worm going up that came down is refused");
	/* At the source, a layout whose segments do not end at nwords. */
	w[0] = 4; w[1] = 2; w[2] = 9; w[3] = 12;
	CASE_CHECK(ctx, case_hop(&s, &t, &p, 5, U32_MAX, w, 3, &req) == -EINVAL,
		   "a truncated layout is refused");
	w[1] = 1;
	err = case_hop(&s, &t, &p, 5, U32_MAX, w, 3, &req);
	CASE_CHECK(ctx, !err && req.nout == 1 && req.out[0].hdr_skip_words == 2 &&
		   req.out[0].hdr_words == 1,
		   "the source finds its worm's segment");
	wc_label_set_free(&s);
	wc_free(h);

	/* Star-tree split at 4213 (6): 2413 (11) is its greatest neighbour. */
	case_topo(ctx, &t, WC_TOPO_STAR, 4, 0, 0);
	wc_engine_params_default(&p, &t);
	h = case_labels(ctx, &t, WORMCAST_MCAST_STAR_TREE, &len);
	CASE_REQUIRE(ctx, !wc_label_set_build(&s, &t, h, len, NULL), "S_4 built");
	{
		u32 d[7] = { 8, 10, 11, 14, 17, 19, 21 };

		err = case_hop(&s, &t, &p, 6, 5, d, 7, &req);
		CASE_CHECK(ctx, !err && req.nout == 2 &&
			   req.out[0].port == case_port_to_label(&s, s.node_of_label[6], 11) &&
			   req.out[0].hdr_skip_words == 2 &&
			   req.out[0].hdr_words == 5 &&
			   req.out[1].port == case_port_to_label(&s, s.node_of_label[6], 7) &&
			   req.out[1].hdr_skip_words == 0 &&
			   req.out[1].hdr_words == 2,
			   "star-tree splits at 4213^6 (Appendix)");
	}
	wc_label_set_free(&s);
	wc_free(h);
}

/* ------------------------------------------------------------ reference */

/* A message with its header storage in the same allocation. */
static struct wc_msg *case_path_submit(CASE_CTX *ctx, struct wc_engine *e,
				       u32 src, const u32 *dsts, u32 n,
				       u32 bytes)
{
	size_t sz = wc_msg_size(e);
	struct wc_msg *m = wc_zalloc(sz + wc_label_hdr_words(n) * sizeof(u32));
	u32 i;

	CASE_REQUIRE(ctx, m, "message allocated");
	wc_msg_init(e, m, src, bytes, e);
	m->hdr = (u32 *)((char *)m + sz);
	m->hdr_max = wc_label_hdr_words(n);
	for (i = 0; i < n; i++)
		wc_msg_add_dst(e, m, dsts[i]);
	wc_engine_submit(e, m);
	return m;
}

/* R of section 2.2, written from the definition. */
static u32 case_r_next(const struct wc_label_set *s, u32 own, u32 dest)
{
	u32 node = s->node_of_label[own], best = U32_MAX, p;

	for (p = 0; p < s->nports; p++) {
		u32 l = s->nbr[node * s->nports + p];

		if (l == WC_LABEL_NONE)
			continue;
		if (own < dest && l > own && l <= dest &&
		    (best == U32_MAX || l > best))
			best = l;
		if (own > dest && l < own && l >= dest &&
		    (best == U32_MAX || l < best))
			best = l;
	}
	return best;
}

struct case_path_ref {
	u32 *links;		/* [node * nports + port]: times used */
	u32 *dist;		/* [node]: links from the source, or U32_MAX */
	bool *fwd;		/* [node]: a destination that also forwards */
	u32 *worm_len;		/* [node]: destinations in its worm */
	u32 *last;		/* [node]: links to its worm's last destination */
	u32 nlinks;
};

static void case_ref_hop(const struct wc_label_set *s, struct case_path_ref *r,
			 u32 a, u32 b)
{
	r->links[s->node_of_label[a] * s->nports +
		 case_port_to_label(s, s->node_of_label[a], b)]++;
	r->nlinks++;
}

/* A path worm from label @own through @d[0..n) (travel order). */
static void case_ref_path(const struct wc_label_set *s,
			  struct case_path_ref *r, u32 own, const u32 *d,
			  u32 n, bool hp)
{
	u32 i, at = own, hops = 0;

	for (i = 0; i < n; i++) {
		while (at != d[i]) {
			u32 nx = hp ? (d[i] > at ? at + 1 : at - 1) :
				      case_r_next(s, at, d[i]);

			case_ref_hop(s, r, at, nx);
			at = nx;
			hops++;
		}
		r->dist[s->node_of_label[at]] = hops;
		r->fwd[s->node_of_label[at]] = i + 1 < n;
		r->worm_len[s->node_of_label[at]] = n;
	}
	for (i = 0; i < n; i++)
		r->last[s->node_of_label[d[i]]] = hops;
}

/* Procedures 1 and 2 of the star paper, recursively, from label @c. */
static void case_ref_tree(const struct wc_label_set *s,
			  struct case_path_ref *r, u32 c, const u32 *d, u32 n,
			  u32 hops)
{
	while (n) {
		u32 node = s->node_of_label[c], w = U32_MAX, p, i, x;
		bool up = d[0] > c;

		for (p = 0; p < s->nports; p++) {
			u32 l = s->nbr[node * s->nports + p];

			if (l != WC_LABEL_NONE && (up ? l > c : l < c) &&
			    (w == U32_MAX || (up ? l > w : l < w)))
				w = l;
		}
		for (i = 0; i < n && d[i] != w; i++)
			;
		if (i < n) {	/* split: D1 = d[i..n) through w */
			case_ref_hop(s, r, c, w);
			r->dist[s->node_of_label[w]] = hops + 1;
			r->fwd[s->node_of_label[w]] = i + 1 < n;
			case_ref_tree(s, r, w, d + i + 1, n - i - 1, hops + 1);
			n = i;
			continue;
		}
		x = case_r_next(s, c, d[0]);
		case_ref_hop(s, r, c, x);
		hops++;
		c = x;
		if (c == d[0]) {
			r->dist[s->node_of_label[c]] = hops;
			r->fwd[s->node_of_label[c]] = n > 1;
			d++;
			n--;
		}
	}
}

/* Sort @a[0..n) ascending (insertion sort: small n). */
static void case_sort(u32 *a, u32 n)
{
	u32 i, j;

	for (i = 1; i < n; i++)
		for (j = i; j > 0 && a[j - 1] > a[j]; j--) {
			u32 x = a[j];

			a[j] = a[j - 1];
			a[j - 1] = x;
		}
}

/*
 * The reference for a multicast from @src to @dsts under @scheme: the
 * worms' split (section 2.2 and the multipath rule of path_mcast.h), then
 * each worm by R, the path, or Procedures 1/2.  @lab gets 2n words.
 */
static void case_ref_mcast(const struct wc_label_set *s, u32 scheme, u32 src,
			   const u32 *dsts, u32 n, struct case_path_ref *r,
			   u32 *lab)
{
	u32 own = s->label[src], nup = 0, ndn, i, j, p;
	u32 *up = lab, *dn = lab + n;
	bool hp = scheme == WORMCAST_MCAST_HAMILTONIAN && n > 1;

	for (i = 0; i < n; i++)
		if (s->label[dsts[i]] > own)
			up[nup++] = s->label[dsts[i]];
	for (i = 0, ndn = 0; i < n; i++)
		if (s->label[dsts[i]] < own)
			dn[ndn++] = s->label[dsts[i]];
	case_sort(up, nup);
	case_sort(dn, ndn);
	for (i = 0; i < ndn / 2; i++) {		/* descending */
		u32 x = dn[i];

		dn[i] = dn[ndn - 1 - i];
		dn[ndn - 1 - i] = x;
	}
	if (scheme == WORMCAST_MCAST_STAR_TREE) {
		case_ref_tree(s, r, own, up, nup, 0);
		case_ref_tree(s, r, own, dn, ndn, 0);
		return;
	}
	if (scheme != WORMCAST_MCAST_MULTIPATH || n == 1) {
		case_ref_path(s, r, own, up, nup, hp);
		case_ref_path(s, r, own, dn, ndn, hp);
		return;
	}
	/* One worm per first port of R: keep each group's travel order. */
	for (p = 0; p < s->nports; p++) {
		u32 first = s->nbr[src * s->nports + p], k = 0;
		u32 *g = wc_calloc(n, sizeof(u32));

		if (!g)
			return;
		for (j = 0; j < n; j++) {
			u32 l = j < nup ? up[j] : j < nup + ndn ? dn[j - nup] :
				U32_MAX;

			if (l != U32_MAX && first != WC_LABEL_NONE &&
			    case_r_next(s, own, l) == first &&
			    case_port_to_label(s, src, first) == p)
				g[k++] = l;
		}
		case_ref_path(s, r, own, g, k, false);
		wc_free(g);
	}
}

/* @n distinct destinations out of @nnodes, none equal to @src. */
static void case_path_draw(u64 *st, u32 nnodes, u32 src, u32 n, u32 *dsts)
{
	u32 a, b, x;

	for (a = 0; a < n; a++) {
		do {
			x = case_rnd(st) % nnodes;
			for (b = 0; b < a && dsts[b] != x; b++)
				;
		} while (x == src || b < a);
		dsts[a] = x;
	}
}

/*
 * One multicast into an idle engine: compare the links used with the
 * reference, deliveries, and (path worms) the latency formula.  Returns
 * false on any mismatch.
 */
static bool case_path_one(CASE_CTX *ctx, struct case_rec *rec,
			  const struct wc_label_set *s,
			  const struct wc_topo *t,
			  const struct wc_engine_params *p, u32 src,
			  const u32 *dsts, u32 n, u32 bytes, bool latency)
{
	struct wc_engine *e = rec->e;
	u32 np = t->nports, i, v, port, nph = t->nnodes * np;
	struct case_path_ref r = { 0 };
	u64 *before = wc_calloc(nph, sizeof(u64));
	u32 *lab = wc_calloc(2 * n, sizeof(u32));
	bool good = true;
	struct wc_msg *m;

	r.links = wc_calloc(nph, sizeof(u32));
	r.dist = wc_calloc(t->nnodes, sizeof(u32));
	r.fwd = wc_calloc(t->nnodes, sizeof(bool));
	r.worm_len = wc_calloc(t->nnodes, sizeof(u32));
	r.last = wc_calloc(t->nnodes, sizeof(u32));
	CASE_REQUIRE(ctx, before && lab && r.links && r.dist && r.fwd &&
		     r.worm_len && r.last, "room");
	for (v = 0; v < t->nnodes; v++)
		r.dist[v] = U32_MAX;
	case_ref_mcast(s, s->scheme, src, dsts, n, &r, lab);
	for (v = 0; v < t->nnodes; v++)
		for (port = 0; port < np; port++)
			before[v * np + port] = wc_engine_channel_busy(e, v, port);
	rec->nd = 0;
	m = case_path_submit(ctx, e, src, dsts, n, bytes);
	case_path_run(e, s);
	for (v = 0; v < t->nnodes; v++)
		for (port = 0; port < np; port++) {
			bool used = wc_engine_channel_busy(e, v, port) !=
				    before[v * np + port];

			if (used != !!r.links[v * np + port])
				good = false;
		}
	PATH_CHECK(ctx, good, good, "src %u, %u dsts: links = reference",
		   src, n);
	PATH_CHECK(ctx, good, rec->nd == n,
		   "src %u: %u deliveries for %u destinations", src, rec->nd, n);
	for (i = 0; i < rec->nd; i++) {
		u32 x = rec->d[i].node, L, j, dup = 0;
		u64 want;

		for (j = 0; j < n; j++)
			dup += dsts[j] == x;
		for (j = 0; j < i; j++)
			dup += rec->d[j].node == x ? 2 : 0;
		if (dup != 1 || r.dist[x] == U32_MAX) {
			good = false;
			CASE_CHECK(ctx, false, "delivery at %u: not once, or not a destination", x);
			continue;
		}
		if (!latency)
			continue;
		L = r.worm_len[x] + DIV_ROUND_UP(bytes, p->flit_bytes) + 1;
		want = p->startup + (u64)r.dist[x] * (p->router_delay + 1) + L - 1;
		if (!r.fwd[x] && rec->d[i].latency != want) {
			good = false;
			CASE_EQ(ctx, rec->d[i].latency, want,
				"Eq. 1 at the last destination %u (d %u, L %u)",
				x, r.dist[x], L);
		}
		/* On the way: after the tail crossed d links, before the end. */
		if (r.fwd[x] &&
		    (rec->d[i].latency < p->startup + L - 1 + r.dist[x] ||
		     rec->d[i].latency >= want + (u64)(r.last[x] - r.dist[x]) *
					   (p->router_delay + 1))) {
			good = false;
			CASE_CHECK(ctx, false,
				   "latency %llu at %u on the way (d %u of %u, L %u)",
				   (unsigned long long)rec->d[i].latency, x,
				   r.dist[x], r.last[x], L);
		}
	}
	(void)m;
	wc_free(before);
	wc_free(lab);
	wc_free(r.links);
	wc_free(r.dist);
	wc_free(r.fwd);
	wc_free(r.worm_len);
	wc_free(r.last);
	return good;
}

/* Random multicasts of every scheme on every topology of path_topos. */
static void case_path_reference(CASE_CTX *ctx, u32 per_topo)
{
	struct case_rec *rec = case_rec_new(ctx, 1024);
	u64 st = 0x9e3779b97f4a7c15ull;
	u32 i, k, j, tried = 0, bad = 0;
	u32 dsts[64];

	for (i = 0; i < ARRAY_SIZE(path_topos); i++) {
		const struct path_topo *pt = &path_topos[i];
		struct wc_topo t;

		case_topo(ctx, &t, pt->kind, pt->a, pt->b, 0);
		for (k = 0; k < PATH_NSCHEMES; k++) {
			struct wc_engine_params p;
			struct wc_label_set s;
			struct wormcast_labels *h;
			size_t len;
			bool tree = path_schemes[k] == WORMCAST_MCAST_STAR_TREE;

			wc_engine_params_default(&p, &t);
			p.startup = 3;
			p.router_delay = 2;
			p.replication = tree ? WC_REPL_ASYNC : WC_REPL_LOCKSTEP;
			p.buf_flits = tree ? 64 : 1;
			p.inj_channels = WC_MAX_INJ;	/* worms start together */
			h = case_labels(ctx, &t, path_schemes[k], &len);
			CASE_REQUIRE(ctx, !wc_label_set_build(&s, &t, h, len, NULL),
				     "%s table", pt->name);
			case_engine_new(ctx, rec, &t, &p, &wc_algo_label);
			for (j = 0; j < per_topo; j++) {
				u32 src = case_rnd(&st) % t.nnodes;
				u32 n = 1 + case_rnd(&st) %
					min_t(u32, t.nnodes - 1, 24);

				case_path_draw(&st, t.nnodes, src, n, dsts);
				tried++;
				if (!case_path_one(ctx, rec, &s, &t, &p, src,
						   dsts, n, 40, !tree))
					bad++;
			}
			CASE_EQ(ctx, rec->deadlocks + rec->route_errors, 0,
				"%s scheme %u: no deadlock or routing error",
				pt->name, path_schemes[k]);
			wc_engine_destroy(rec->e);
			rec->deadlocks = 0;
			rec->route_errors = 0;
			wc_label_set_free(&s);
			wc_free(h);
		}
	}
	CASE_EQ(ctx, bad, 0, "%u random multicasts match the reference", tried);
	case_rec_free(rec);
}

/* The star paper's sample multicast (Figures 5 and 6). */
static void case_path_star_sample(CASE_CTX *ctx)
{
	static const char * const dst[8] = {
		"2134", "2143", "1423", "2413", "1342", "1432", "3421", "2341",
	};
	static const struct { u32 scheme, channels; } want[] = {
		{ WORMCAST_MCAST_STAR_TREE, 18 },
		{ WORMCAST_MCAST_HAMILTONIAN, 20 },
		{ WORMCAST_MCAST_DUAL_PATH, 20 },
	};
	struct case_rec *rec = case_rec_new(ctx, 64);
	struct wc_topo t;
	u32 d[8], i, k, v, port;

	case_topo(ctx, &t, WC_TOPO_STAR, 4, 0, 0);
	for (i = 0; i < 8; i++)
		d[i] = path_s4_node(dst[i]);
	for (k = 0; k < ARRAY_SIZE(want); k++) {
		struct wc_engine_params p;
		struct wc_label_set s;
		struct wormcast_labels *h;
		size_t len;
		u32 used = 0;

		wc_engine_params_default(&p, &t);
		p.replication = WC_REPL_ASYNC;
		p.buf_flits = 64;
		h = case_labels(ctx, &t, want[k].scheme, &len);
		CASE_REQUIRE(ctx, !wc_label_set_build(&s, &t, h, len, NULL), "S_4");
		case_engine_new(ctx, rec, &t, &p, &wc_algo_label);
		CASE_CHECK(ctx, case_path_one(ctx, rec, &s, &t, &p,
					      path_s4_node("1324"), d, 8, 64,
					      false),
			   "sample multicast, scheme %u, = reference", want[k].scheme);
		for (v = 0; v < t.nnodes; v++)
			for (port = 0; port < t.nports; port++)
				used += wc_engine_channel_busy(rec->e, v, port) > 0;
		CASE_EQ(ctx, used, want[k].channels,
			"scheme %u: channels of the sample multicast (paper)",
			want[k].scheme);
		wc_engine_destroy(rec->e);
		wc_label_set_free(&s);
		wc_free(h);
	}
	case_rec_free(rec);
}

/* ------------------------------------------------------------ traffic */

/*
 * Random mixed traffic (a third unicast), many messages in flight: every
 * destination once, no deadlock, no routing error.  Worms of at most 64
 * flits, so star-tree's buffers hold them.
 */
static void case_path_traffic(CASE_CTX *ctx, u32 msgs)
{
	struct case_rec *rec = case_rec_new(ctx, 12 * msgs);
	struct wc_msg **all = wc_calloc(msgs, sizeof(*all));
	u64 st = 12345;
	u32 i, k;

	CASE_REQUIRE(ctx, all, "room");
	rec->free_msgs = false;	/* checked, then freed here */

	for (i = 0; i < ARRAY_SIZE(path_topos); i++) {
		const struct path_topo *pt = &path_topos[i];
		struct wc_topo t;

		case_topo(ctx, &t, pt->kind, pt->a, pt->b, 0);
		for (k = 0; k < PATH_NSCHEMES; k++) {
			struct wc_engine_params p;
			struct wc_label_set s;
			struct wormcast_labels *h;
			u32 j, expect = 0, dsts[12], got, v, nmsgs = 0;
			size_t len;
			bool tree = path_schemes[k] == WORMCAST_MCAST_STAR_TREE;
			bool ok = true;

			wc_engine_params_default(&p, &t);
			p.replication = tree || k % 2 ? WC_REPL_ASYNC :
				       WC_REPL_LOCKSTEP;
			p.buf_flits = tree ? 64 : 2;
			p.inj_channels = 2;
			h = case_labels(ctx, &t, path_schemes[k], &len);
			CASE_REQUIRE(ctx, !wc_label_set_build(&s, &t, h, len, NULL),
				     "table");
			case_engine_new(ctx, rec, &t, &p, &wc_algo_label);
			rec->nd = 0;
			for (j = 0; j < msgs; j++) {
				u32 src = case_rnd(&st) % t.nnodes, n = 1;

				if (j % 3)
					n += case_rnd(&st) %
					     min_t(u32, t.nnodes - 1, 12);
				case_path_draw(&st, t.nnodes, src, n, dsts);
				expect += n;
				all[nmsgs++] = case_path_submit(ctx, rec->e, src,
								dsts, n,
								case_rnd(&st) % 600);
				if (j % 16 == 15)
					wc_engine_run(rec->e, 7, &s);
			}
			for (j = 0; j < 100 && wc_engine_busy(rec->e); j++)
				wc_engine_run(rec->e, 100000, &s);
			/* Each delivery clears its bit: twice or never fails. */
			got = 0;
			for (v = 0; v < rec->nd; v++) {
				struct wc_msg *m = rec->d[v].m;
				u32 x = rec->d[v].node;

				if (!wc_msg_has_dst(rec->e, m, x)) {
					ok = false;
					continue;
				}
				m->dstmap[x / 32] &= ~BIT(x % 32);
				got++;
			}
			for (j = 0; j < nmsgs; j++) {
				for (v = 0; v < t.nnodes; v++)
					if (wc_msg_has_dst(rec->e, all[j], v))
						ok = false;
				wc_free(all[j]);
			}
			ok = ok && got == expect && !rec->deadlocks &&
			     !rec->route_errors && !wc_engine_busy(rec->e);
			CASE_CHECK(ctx, ok,
				   "%s scheme %u: %u msgs, %u/%u deliveries, %u deadlocks, %u route errors",
				   pt->name, path_schemes[k], msgs, got, expect,
				   rec->deadlocks, rec->route_errors);
			wc_engine_destroy(rec->e);
			rec->deadlocks = 0;
			rec->route_errors = 0;
			wc_label_set_free(&s);
			wc_free(h);
		}
	}
	wc_free(all);
	case_rec_free(rec);
}

#endif /* WC_PATH_CASES_H */
