// SPDX-License-Identifier: GPL-2.0
/*
 * Label-based multicast (hamiltonian, dual-path, multipath, star-tree) in
 * the engine: tables, their validation, the source's split and the
 * routers' per-hop decisions.  The model is described in path_mcast.h.
 */
#include <linux/wormcast.h>

#include "path_mcast.h"

/* ------------------------------------------------------------ building */

static int refuse(const char **why, const char *msg)
{
	if (why)
		*why = msg;
	return -EINVAL;
}

bool wc_label_scheme(u32 scheme)
{
	switch (scheme) {
	case WORMCAST_MCAST_HAMILTONIAN:
	case WORMCAST_MCAST_DUAL_PATH:
	case WORMCAST_MCAST_MULTIPATH:
	case WORMCAST_MCAST_STAR_TREE:
	case WORMCAST_MCAST_OCMS:
	case WORMCAST_MCAST_OTMS:
		return true;
	}
	return false;
}

static int params_check(const struct wc_engine_params *p, const char **why)
{
	if (p && p->cons_channels < 2)
		return refuse(why,
			      "label schemes need 2 consumption channels (intermediate reception going up and going down)");
	return 0;
}

int wc_label_scheme_check(u32 scheme, const struct wc_topo *t,
			  const struct wc_engine_params *p, const char **why)
{
	if (scheme == WORMCAST_MCAST_UNICAST)
		return 0;
	if (!wc_label_scheme(scheme))
		return refuse(why, "not a label-based multicast scheme");
	if (t->nnodes < 2 || t->nnodes > WC_PL_MAX_NODES)
		return refuse(why, "label schemes need 2 to 2^24 nodes");
	if (scheme == WORMCAST_MCAST_STAR_TREE && p &&
	    p->replication != WC_REPL_ASYNC)
		return refuse(why,
			      "star-tree needs asynchronous (input-buffer) replication: replication async");
	return params_check(p, why);
}

void wc_label_set_free(struct wc_label_set *s)
{
	wc_free(s->label);
	wc_free(s->node_of_label);
	wc_free(s->nbr);
	wc_free(s->seq);
	wc_free(s->port);
	wc_free(s->map);
	memset(s, 0, sizeof(*s));
}

/*
 * Mark the @h->nfaults faulty links after the labels absent in s->nbr (in
 * both directions), checking each.
 */
static int label_faults(struct wc_label_set *s, const struct wc_topo *t,
			const struct wormcast_labels *h, const char **why)
{
	const struct wormcast_trees_fault *f =
		(const void *)(h->label + s->nnodes);
	u32 i, u, back;
	int err;

	for (i = 0; i < h->nfaults; i++) {
		err = wc_topo_fault_link(t, f[i].node, f[i].port, &u, &back,
					 why);
		if (err)
			return err;
		if (s->nbr[f[i].node * t->nports + f[i].port] == WC_LABEL_NONE)
			return refuse(why, "a faulty link is listed twice");
		s->nbr[f[i].node * t->nports + f[i].port] = WC_LABEL_NONE;
		s->nbr[u * t->nports + back] = WC_LABEL_NONE;
	}
	return 0;
}

/* Is there a link from @a to @b that is not faulty? */
static bool live_link(const struct wc_label_set *s, const struct wc_topo *t,
		      u32 a, u32 b)
{
	u32 p;

	for (p = 0; p < t->nports; p++)
		if (wc_topo_neighbor(t, a, p) == b &&
		    s->nbr[a * t->nports + p] != WC_LABEL_NONE)
			return true;
	return false;
}

int wc_label_set_build(struct wc_label_set *s, const struct wc_topo *t,
		       const void *table, size_t len, const char **why)
{
	const struct wormcast_labels *h = table;
	u32 n = t->nnodes, v, l, p;
	int err;

	memset(s, 0, sizeof(*s));
	if (len < sizeof(*h))
		return refuse(why, "table shorter than its header");
	if (!wc_label_scheme(h->scheme))
		return refuse(why, "table for an unknown or non-label scheme");
	err = wc_label_scheme_check(h->scheme, t, NULL, why);
	if (err)
		return err;
	if (h->nnodes != n)
		return refuse(why, "table's node count differs from the fabric's");
	if (h->reserved)
		return refuse(why, "reserved header field is not zero");
	if (h->nfaults > WORMCAST_TREES_MAX_FAULTS)
		return refuse(why,
			      "more faulty links than WORMCAST_TREES_MAX_FAULTS (256)");
	if (len != sizeof(*h) + (size_t)n * sizeof(u32) +
		   (size_t)h->nfaults * sizeof(struct wormcast_trees_fault))
		return refuse(why,
			      "table size is not header + 4 x nnodes + 8 x nfaults");

	s->label = wc_calloc(n, sizeof(u32));
	s->node_of_label = wc_calloc(n, sizeof(u32));
	s->nbr = wc_calloc((size_t)n * t->nports, sizeof(u32));
	s->seq = wc_calloc(n, sizeof(u32));
	s->port = wc_calloc(n, sizeof(u32));
	s->map = wc_calloc(DIV_ROUND_UP(n, 32), sizeof(u32));
	if (!s->label || !s->node_of_label || !s->nbr || !s->seq ||
	    !s->port || !s->map) {
		wc_label_set_free(s);
		if (why)
			*why = "out of memory";
		return -ENOMEM;
	}
	s->mem = (size_t)n * (4 + t->nports) * sizeof(u32) +
		 DIV_ROUND_UP(n, 32) * sizeof(u32);
	s->scheme = h->scheme;
	s->nnodes = n;
	s->nports = t->nports;

	/* A permutation: every label in range and taken once. */
	for (l = 0; l < n; l++)
		s->node_of_label[l] = U32_MAX;
	for (v = 0; v < n; v++) {
		l = h->label[v];
		if (l >= n) {
			err = refuse(why, "a label is out of range");
			goto fail;
		}
		if (s->node_of_label[l] != U32_MAX) {
			err = refuse(why,
				     "the labels are not a permutation (a label is given twice)");
			goto fail;
		}
		s->node_of_label[l] = v;
		s->label[v] = l;
	}
	for (v = 0; v < n; v++) {
		for (p = 0; p < t->nports; p++) {
			u32 u = wc_topo_neighbor(t, v, p);

			s->nbr[v * t->nports + p] =
				u == WC_NO_NODE ? WC_LABEL_NONE : s->label[u];
		}
	}
	/* The faulty links are absent: R never takes them. */
	err = label_faults(s, t, h, why);
	if (err)
		goto fail;
	/* A Hamiltonian path: consecutive labels are neighbours. */
	for (l = 1; l < n; l++) {
		u32 a = s->node_of_label[l - 1], b = s->node_of_label[l];

		if (wc_topo_port_to(t, a, b) == WC_NO_PORT) {
			err = refuse(why,
				     "nodes with consecutive labels are not neighbours (not a Hamiltonian path)");
			goto fail;
		}
		if (!live_link(s, t, a, b)) {
			err = refuse(why,
				     "nodes with consecutive labels are neighbours only over a faulty link");
			goto fail;
		}
	}
	return 0;
fail:
	wc_label_set_free(s);
	return err;
}

/* ------------------------------------------------------------ the source */

/*
 * The destination labels of @m in travel order into s->seq: those above
 * the source's label ascending, then those below descending.  Returns how
 * many are above (*@nseq gets the total).
 */
static u32 sort_dests(const struct wc_label_set *s, const struct wc_msg *m,
		      u32 own, u32 *nseq)
{
	u32 words = DIV_ROUND_UP(s->nnodes, 32), i, k = 0, nup;

	memset(s->map, 0, words * sizeof(u32));
	for (i = 0; i < words; i++) {
		u32 bits = m->dstmap[i];

		while (bits) {
			u32 v = i * 32 + (u32)__builtin_ctz(bits);

			bits &= bits - 1;
			if (v < s->nnodes)
				s->map[s->label[v] / 32] |= BIT(s->label[v] % 32);
		}
	}
	for (i = 0; i < words; i++) {
		u32 bits = s->map[i];

		while (bits) {
			u32 l = i * 32 + (u32)__builtin_ctz(bits);

			bits &= bits - 1;
			if (l > own)
				s->seq[k++] = l;
		}
	}
	nup = k;
	for (i = words; i-- > 0; ) {
		u32 bits = s->map[i];

		while (bits) {
			u32 b = 31 - (u32)__builtin_clz(bits);
			u32 l = i * 32 + b;

			bits &= ~BIT(b);
			if (l < own)
				s->seq[k++] = l;
		}
	}
	*nseq = k;
	return nup;
}

/*
 * Append a segment to the layout at @words: the @cnt labels of @labels, or
 * with @port, only those whose port is @want.  False if @max is too small.
 */
static bool put_segment(u32 *words, u32 max, u32 *pos, const u32 *labels,
			const u32 *port, u32 want, u32 cnt, u32 flag)
{
	u32 len_at = *pos, at = *pos + 1, i;

	for (i = 0; i < cnt; i++) {
		if (port && port[i] != want)
			continue;
		if (at >= max)
			return false;
		words[at++] = labels[i] | flag;
	}
	if (at > len_at + 1) {	/* an empty segment is no worm */
		words[len_at] = at - len_at - 1;
		*pos = at;
	}
	return true;
}

/*
 * Lay out every worm of @m in @words (see path_mcast.h).  Returns the
 * words used, or 0 if @m cannot be laid out in @max words.
 */
static u32 layout(const struct wc_label_set *s, const struct wc_msg *m,
		  u32 *words, u32 max)
{
	u32 own = s->label[m->src], nseq, nup, pos = 1, p, i, flag = 0;
	const u32 *nbr = s->nbr + m->src * s->nports;

	if (max < 1)
		return 0;
	/* ocms/otms: the source copied the plan's layout (plans.h) */
	if (m->hdr_preset)
		return words == m->hdr && words[0] <= max ? words[0] : 0;
	nup = sort_dests(s, m, own, &nseq);
	if (!nseq)
		return 0;
	if (s->scheme == WORMCAST_MCAST_MULTIPATH && nseq > 1) {
		for (i = 0; i < nseq; i++) {
			s->port[i] = wc_lr_next_port(own, nbr, s->nports,
						     s->seq[i]);
			if (s->port[i] >= s->nports)
				return 0;
		}
		for (p = 0; p < s->nports; p++)
			if (!put_segment(words, max, &pos, s->seq, s->port, p,
					 nseq, 0))
				return 0;
	} else {
		if (s->scheme == WORMCAST_MCAST_HAMILTONIAN && nseq > 1)
			flag = WC_PL_HP;
		if (!put_segment(words, max, &pos, s->seq, NULL, 0, nup, flag) ||
		    !put_segment(words, max, &pos, s->seq + nup, NULL, 0,
				 nseq - nup, flag))
			return 0;
	}
	words[0] = pos;
	return pos;
}

static bool label_next_worm(const struct wc_route_ctx *ctx, struct wc_msg *m,
			    u32 *words, u32 max_words, struct wc_hdr *hdr)
{
	const struct wc_label_set *s = ctx->tables;
	u32 i, pos = 1, total;

	if (!m->ndsts || m->next_dst == U32_MAX)
		return false;
	hdr->words = words;
	hdr->nwords = 0;	/* unroutable unless laid out below */
	hdr->nflits = 1;
	/*
	 * Laid out again for every worm: the same bytes each time, so the
	 * worms already in flight are not disturbed, and it also works when
	 * each worm has its own inline words (no m->hdr).
	 */
	total = s && s->nnodes == ctx->topo->nnodes && m->src < s->nnodes ?
		layout(s, m, words, max_words) : 0;
	if (!total) {
		m->next_dst = U32_MAX;	/* one unroutable worm reports it */
		return true;
	}
	for (i = 0; i < m->next_dst && pos < total; i++)
		pos += 1 + words[pos];
	if (pos >= total)
		return false;
	m->next_dst++;
	hdr->nwords = pos + 1 + words[pos];
	hdr->nflits = words[pos];
	return true;
}

/* ------------------------------------------------------------ the routers */

static void add_net(struct wc_route_req *req, const struct wc_route_ctx *ctx,
		    u32 port, u32 skip, u32 cnt)
{
	struct wc_route_out *o = &req->out[req->nout++];

	o->port = (u8)port;
	o->vc_mask = (u16)((1u << ctx->params->vcs) - 1);
	o->hdr_skip_words = (u16)skip;
	o->hdr_words = (u16)cnt;
	o->hdr_flits = (u16)cnt;
}

/* The port to the next label along the Hamiltonian path. */
static u32 hp_port(u32 own, const u32 *nbr, u32 nports, bool up)
{
	u32 want = up ? own + 1 : own - 1, p;

	for (p = 0; p < nports; p++)
		if (nbr[p] == want)
			return p;
	return WC_LR_NO_PORT;
}

/*
 * Route the label list @list (@n words, at @base in the routed channel's
 * header) at ctx->node.
 */
static int route_list(const struct wc_label_set *s,
		      const struct wc_route_ctx *ctx, const u32 *list, u32 n,
		      u32 base, struct wc_route_req *req)
{
	u32 np = s->nports, own = s->label[ctx->node], first, rest, next, port;
	const u32 *nbr = s->nbr + ctx->node * np;
	bool consume, up;

	if (!n)
		return -EINVAL;
	consume = (list[0] & WC_PL_LABEL_MASK) == own;
	first = consume ? 1 : 0;
	rest = n - first;
	req->nout = 0;
	if (!rest) {
		req->out[req->nout++].consume = true;	/* any channel */
		return 0;
	}
	next = list[first] & WC_PL_LABEL_MASK;
	if (next >= s->nnodes || next == own)
		return -EINVAL;
	up = next > own;
	/* Label-monotone: the worm came from the side it is leaving. */
	if (ctx->in_port != WC_PORT_INJ &&
	    (ctx->in_port >= np || nbr[ctx->in_port] == WC_LABEL_NONE ||
	     (up ? nbr[ctx->in_port] >= own : nbr[ctx->in_port] <= own)))
		return -EINVAL;
	if (consume) {
		struct wc_route_out *o = &req->out[req->nout++];

		o->consume = true;
		o->vc_mask = (u16)BIT(up ? WC_PL_CONS_UP : WC_PL_CONS_DOWN);
	}
	if (s->scheme == WORMCAST_MCAST_STAR_TREE) {
		struct wc_lr_tree_step st;
		int err;

		err = wc_lr_tree_step(own, nbr, np, list + first, rest, up, &st);
		if (err)
			return err;
		if (st.nsplit) {
			if (st.split_port == WC_LR_NO_PORT)
				return -EINVAL;
			add_net(req, ctx, st.split_port,
				base + first + rest - st.nsplit, st.nsplit);
		}
		if (st.nsplit < rest) {
			if (st.fwd_port == WC_LR_NO_PORT)
				return -EINVAL;
			add_net(req, ctx, st.fwd_port, base + first,
				rest - st.nsplit);
		}
		return 0;
	}
	if (list[first] & WC_PL_HP)
		port = hp_port(own, nbr, np, up);
	else
		port = wc_lr_next_port(own, nbr, np, next);
	if (port >= np)
		return -EINVAL;
	add_net(req, ctx, port, base + first, rest);
	return 0;
}

static int label_route(const struct wc_route_ctx *ctx,
		       const struct wc_hdr *hdr, struct wc_route_req *req)
{
	const struct wc_label_set *s = ctx->tables;
	const u32 *w = hdr->words;
	u32 nw = hdr->nwords, pos = 1;

	if (!s || s->nnodes != ctx->topo->nnodes || !nw)
		return -EINVAL;
	if (ctx->in_port != WC_PORT_INJ)
		return route_list(s, ctx, w, nw, 0, req);
	/* At the source: the worm is the segment that ends at nw. */
	if (w[0] < nw)
		return -EINVAL;
	while (pos < nw && w[pos] < nw - pos - 1)
		pos += 1 + w[pos];
	if (pos >= nw || !w[pos] || w[pos] != nw - pos - 1)
		return -EINVAL;
	return route_list(s, ctx, w + pos + 1, w[pos], pos + 1, req);
}

static int label_check(const struct wc_topo *t,
		       const struct wc_engine_params *p, const char **why)
{
	if (t->nnodes > WC_PL_MAX_NODES)
		return refuse(why, "label schemes need at most 2^24 nodes");
	return params_check(p, why);
}

const struct wc_algo wc_algo_label = {
	.name = "label",
	.next_worm = label_next_worm,
	.route = label_route,
	.check = label_check,
	.hdr_words = wc_label_hdr_words,
};
