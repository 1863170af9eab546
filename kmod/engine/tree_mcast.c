// SPDX-License-Identifier: GPL-2.0
/*
 * Tree multicast (SPAM and DSTM) in the engine: tables, their validation,
 * the source's header encoding and the routers' per-hop decisions.  The
 * model is described in tree_mcast.h.
 */
#include <linux/wormcast.h>

#include "tree_mcast.h"

/* ------------------------------------------------------------ building */

static int refuse(const char **why, const char *msg)
{
	if (why)
		*why = msg;
	return -EINVAL;
}

static u32 scheme_trees(u32 scheme)
{
	switch (scheme) {
	case WORMCAST_MCAST_SPAM:
		return 1;
	case WORMCAST_MCAST_DSTM1:
	case WORMCAST_MCAST_DSTM2:
	case WORMCAST_MCAST_RT:
		return 2;
	}
	return 0;
}

int wc_tree_scheme_check(u32 scheme, const struct wc_topo *t,
			 const struct wc_engine_params *p, const char **why)
{
	u32 ntrees;

	if (scheme == WORMCAST_MCAST_UNICAST)
		return 0;
	ntrees = scheme_trees(scheme);
	if (!ntrees)
		return refuse(why, "unknown multicast scheme");
	if (t->nports > WC_TREE_MAX_PORTS)
		return refuse(why,
			      "tree schemes need routers of at most 8 ports (meshes and tori, hypercubes to dimension 8, star graphs to n = 9)");
	if (t->nnodes < 2 || t->nnodes > WC_TH_MAX_NODES)
		return refuse(why, "tree schemes need 2 to 2^20 nodes");
	if ((scheme == WORMCAST_MCAST_DSTM1 ||
	     scheme == WORMCAST_MCAST_DSTM2) &&
	    (t->kind != WC_TOPO_TORUS || t->ndims != 2))
		return refuse(why, "dstm-1 and dstm-2 need a 2-D torus");
	if (ntrees == 2 && wc_topo_nlinks(t) < 2 * (t->nnodes - 1))
		return refuse(why,
			      "two edge-disjoint spanning trees need at least 2(N-1) links");
	if (p && p->cons_channels < ntrees)
		return refuse(why,
			      "two-tree schemes need 2 consumption channels (one per tree)");
	return 0;
}

void wc_tree_set_free(struct wc_tree_set *s)
{
	u32 i;

	for (i = 0; i < 2; i++) {
		wc_free(s->entry[i]);
		wc_free(s->node_of_pn[i]);
		wc_free(s->level[i]);
		wc_free(s->comp[i]);
	}
	wc_free(s->link_flags);
	wc_free(s->scratch);
	wc_free(s->flits);
	memset(s, 0, sizeof(*s));
}

/*
 * Tree @k from its parent ports @pp: parent links, children in increasing
 * port order, post-order numbers, intervals and levels.  @stack holds
 * nnodes words.
 */
static int build_tree(struct wc_tree_set *s, const struct wc_topo *t, u32 k,
		      u32 root, const u8 *pp, u32 *stack, const char **why)
{
	struct wc_tree_entry *e = s->entry[k];
	u32 n = t->nnodes, v, sp = 0, pn = 0, seen = 0;

	for (v = 0; v < n; v++) {
		e[v].parent = WC_TREE_NONE;
		e[v].parent_port = WC_TREE_NO_PORT;
		e[v].nchildren = 0;
	}
	for (v = 0; v < n; v++) {
		u32 u, back, i;

		if (v == root) {
			if (pp[v] != WORMCAST_NO_PORT)
				return refuse(why, "a tree's root has a parent port");
			continue;
		}
		if (pp[v] == WORMCAST_NO_PORT)
			return refuse(why, "a tree has a second root");
		if (pp[v] >= t->nports)
			return refuse(why, "a parent port does not exist");
		u = wc_topo_neighbor(t, v, pp[v]);
		if (u == WC_NO_NODE)
			return refuse(why, "a parent port leads to no neighbour");
		back = wc_topo_reverse_port(t, v, pp[v]);
		e[v].parent = u;
		e[v].parent_port = pp[v];
		/* insert in increasing port order */
		for (i = e[u].nchildren; i > 0 && e[u].child_port[i - 1] > back; i--) {
			e[u].child_port[i] = e[u].child_port[i - 1];
			e[u].child[i] = e[u].child[i - 1];
		}
		e[u].child_port[i] = (u8)back;
		e[u].child[i] = v;
		e[u].nchildren++;
	}
	/*
	 * Every node but the root has one parent, so N - 1 links: the tree
	 * spans iff every node is reached from the root.  Iterative
	 * post-order walk; child_lo[] counts children done meanwhile.
	 */
	for (v = 0; v < n; v++)
		e[v].child_lo[0] = 0;
	s->level[k][root] = 0;
	stack[sp++] = root;
	while (sp) {
		u32 x = stack[sp - 1];
		u32 next = e[x].child_lo[0];

		if (next < e[x].nchildren) {
			u32 c = e[x].child[next];

			e[x].child_lo[0] = next + 1;
			if (sp >= n)
				return refuse(why, "a tree is not a tree");
			s->level[k][c] = s->level[k][x] + 1;
			stack[sp++] = c;
			continue;
		}
		sp--;
		e[x].pn = pn;
		s->node_of_pn[k][pn] = x;
		pn++;
		seen++;
	}
	if (seen != n)
		return refuse(why,
			      "a tree does not span the fabric (a cycle or a detached part)");
	/* Intervals, now that every number is known (children first). */
	for (pn = 0; pn < n; pn++) {
		struct wc_tree_entry *x = &e[s->node_of_pn[k][pn]];
		u32 i;

		x->lo = x->nchildren ? e[x->child[0]].lo : x->pn;
		for (i = 0; i < x->nchildren; i++) {
			x->child_lo[i] = e[x->child[i]].lo;
			x->child_hi[i] = e[x->child[i]].pn;
		}
	}
	s->tree[k].nnodes = n;
	s->tree[k].root = root;
	s->tree[k].e = e;
	s->tree[k].node_of_pn = s->node_of_pn[k];
	if (wc_tree_table_check(&s->tree[k]))
		return refuse(why, "internal: derived tree table inconsistent");
	return 0;
}

/*
 * The faulty links that follow the trees (@used marks the tree links of
 * both trees with 1): checked and marked WC_LINK_FAULTY in @used.  Two
 * trees: every tree cut at them into parts, comp[k][v] the top node of
 * v's part (parents come before children in reverse post-order).  SPAM:
 * the tree avoids them (the daemon computes it on the live links), the
 * up cross links skip them (link_flags, kept by the caller).
 */
static int build_faults(struct wc_tree_set *s, const struct wc_topo *t,
			const struct wormcast_trees *h, u8 *used,
			const char **why)
{
	const u8 *fb = h->parent_port + (size_t)h->ntrees * s->nnodes;
	u32 n = s->nnodes, i, k, pn;
	int err;

	s->nfaults = h->nfaults;
	for (i = 0; i < h->nfaults; i++) {
		struct wormcast_trees_fault f;
		u32 u, back;

		memcpy(&f, fb + (size_t)i * sizeof(f), sizeof(f));
		err = wc_topo_fault_link(t, f.node, f.port, &u, &back, why);
		if (err)
			return err;
		if (used[f.node * t->nports + f.port] & WC_LINK_FAULTY)
			return refuse(why, "a faulty link is listed twice");
		if (s->ntrees == 1 && used[f.node * t->nports + f.port])
			return refuse(why,
				      "a faulty link is a link of the spam tree (its tree must avoid the faulty links)");
		used[f.node * t->nports + f.port] |= WC_LINK_FAULTY;
		used[u * t->nports + back] |= WC_LINK_FAULTY;
	}
	if (!s->nfaults)
		return 0;
	for (k = 0; k < s->ntrees; k++) {
		const struct wc_tree_entry *e = s->entry[k];
		u32 *c;

		for (i = 0; i < n; i++)
			if (i != s->tree[k].root &&
			    used[i * t->nports + e[i].parent_port] & WC_LINK_FAULTY)
				s->tree_faults[k]++;
		if (!s->tree_faults[k])
			continue;
		c = wc_calloc(n, sizeof(u32));
		if (!c) {
			if (why)
				*why = "out of memory";
			return -ENOMEM;
		}
		s->comp[k] = c;
		s->mem += (size_t)n * sizeof(u32);
		for (pn = n; pn-- > 0;) {
			u32 v = s->node_of_pn[k][pn];

			if (v == s->tree[k].root ||
			    (used[v * t->nports + e[v].parent_port] &
			     WC_LINK_FAULTY))
				c[v] = v;	/* the top of a part */
			else
				c[v] = c[e[v].parent];
		}
	}
	return 0;
}

int wc_tree_set_build(struct wc_tree_set *s, const struct wc_topo *t,
		      const void *table, size_t len, const char **why)
{
	const struct wormcast_trees *h = table;
	u32 n = t->nnodes, k, v;
	u8 *used = NULL;
	u32 *stack = NULL;
	int err;

	memset(s, 0, sizeof(*s));
	if (len < sizeof(*h))
		return refuse(why, "table shorter than its header");
	if (!scheme_trees(h->scheme))
		return refuse(why, "table for an unknown or tree-less scheme");
	err = wc_tree_scheme_check(h->scheme, t, NULL, why);
	if (err)
		return err;
	if (h->nnodes != n)
		return refuse(why, "table's node count differs from the fabric's");
	if (h->ntrees != scheme_trees(h->scheme))
		return refuse(why,
			      "wrong number of trees for the scheme (spam: 1; dstm-1, dstm-2, rt: 2)");
	if (h->nfaults > WORMCAST_TREES_MAX_FAULTS)
		return refuse(why,
			      "more faulty links than WORMCAST_TREES_MAX_FAULTS (256)");
	for (k = 0; k < WORMCAST_MAX_TREES; k++) {
		if (k < h->ntrees ? h->root[k] >= n : h->root[k] != 0)
			return refuse(why, "tree root out of range");
	}
	if (len != sizeof(*h) + (size_t)h->ntrees * n +
		   (size_t)h->nfaults * sizeof(struct wormcast_trees_fault))
		return refuse(why,
			      "table size is not header + ntrees x nnodes + nfaults x 8");

	s->scheme = h->scheme;
	s->ntrees = h->ntrees;
	s->nnodes = n;
	s->cross_links = h->scheme == WORMCAST_MCAST_SPAM;
	for (k = 0; k < s->ntrees; k++) {
		s->entry[k] = wc_calloc(n, sizeof(*s->entry[k]));
		s->node_of_pn[k] = wc_calloc(n, sizeof(u32));
		s->level[k] = wc_calloc(n, sizeof(u32));
		if (!s->entry[k] || !s->node_of_pn[k] || !s->level[k])
			goto nomem;
	}
	s->scratch = wc_calloc(WC_DSTM_WORK_WORDS(n) + n, sizeof(u32));
	s->flits = wc_calloc(WC_DSTM_MAX_FLITS(n), sizeof(*s->flits));
	stack = wc_calloc(n, sizeof(u32));
	used = wc_calloc((size_t)n * t->nports, 1);
	if (!s->scratch || !s->flits || !stack || !used)
		goto nomem;
	s->mem = (size_t)s->ntrees * n *
		 (sizeof(struct wc_tree_entry) + 2 * sizeof(u32)) +
		 (WC_DSTM_WORK_WORDS(n) + n) * sizeof(u32) +
		 WC_DSTM_MAX_FLITS(n) * sizeof(*s->flits);

	for (k = 0; k < s->ntrees; k++) {
		const u8 *pp = h->parent_port + (size_t)k * n;

		err = build_tree(s, t, k, h->root[k], pp, stack, why);
		if (err)
			goto fail;
		/* edge-disjoint: mark both directions of every tree link */
		for (v = 0; v < n; v++) {
			u32 u, back;

			if (v == h->root[k])
				continue;
			u = wc_topo_neighbor(t, v, pp[v]);
			back = wc_topo_reverse_port(t, v, pp[v]);
			if (used[v * t->nports + pp[v]] ||
			    used[u * t->nports + back]) {
				err = refuse(why, "the trees share a link");
				goto fail;
			}
			used[v * t->nports + pp[v]] = 1;
			used[u * t->nports + back] = 1;
		}
	}
	err = build_faults(s, t, h, used, why);
	if (err)
		goto fail;
	if (s->cross_links && s->nfaults) {
		s->link_flags = used;	/* spam_shortcut() reads it */
		s->mem += (size_t)n * t->nports;
		used = NULL;
	}
	wc_free(stack);
	wc_free(used);
	return 0;
nomem:
	err = -ENOMEM;
	if (why)
		*why = "out of memory";
fail:
	wc_free(stack);
	wc_free(used);
	wc_tree_set_free(s);
	return err;
}

u32 wc_tree_set_distance(const struct wc_tree_set *s, u32 tree, u32 a, u32 b)
{
	const struct wc_tree_entry *e = s->tree[tree].e;
	u32 pb = e[b].pn, x = a, d = 0;

	while (!(e[x].lo <= pb && pb <= e[x].pn)) {
		x = e[x].parent;
		d++;
	}
	return d + s->level[tree][b] - s->level[tree][x];
}

/* ------------------------------------------------------------ the source */

static u32 mix32(u32 x)
{
	x ^= x >> 16;
	x *= 0x7feb352dU;
	x ^= x >> 15;
	x *= 0x846ca68bU;
	x ^= x >> 16;
	return x;
}

/* Does every path of tree @k from @src to @dests avoid the faulty links? */
static bool tree_good(const struct wc_tree_set *s, u32 k, u32 src,
		      const u32 *dests, u32 nd)
{
	const u32 *c = s->comp[k];
	u32 i;

	if (!c)
		return true;
	for (i = 0; i < nd; i++)
		if (c[dests[i]] != c[src])
			return false;
	return true;
}

static u32 pick_tree(const struct wc_tree_set *s, const struct wc_msg *m,
		     const u32 *dests, u32 nd, bool global)
{
	if (s->ntrees == 1)
		return 0;
	if (global && s->nfaults) {	/* section 7: the tree that avoids them */
		bool good0 = tree_good(s, 0, m->src, dests, nd);

		if (good0 != tree_good(s, 1, m->src, dests, nd))
			return good0 ? 0 : 1;
	}
	if (m->ndsts == 1)	/* unicast: the shorter tree path */
		return wc_tree_set_distance(s, 1, m->src, dests[0]) <
		       wc_tree_set_distance(s, 0, m->src, dests[0]);
	/* multicast: a tree at random (section 3.2.1), reproducibly */
	return mix32((u32)m->t_submit * 0x9e3779b1U ^ m->src ^
		     (dests[0] << 16)) & 1;
}

/*
 * @global: the source picks the tree that avoids the table's faulty links
 * (section 7, global information); else it knows nothing of them.  A
 * preset header names the tree to take in its first word (a re-injection,
 * wc_tree_local_reinject()).
 */
static bool next_worm(const struct wc_route_ctx *ctx, struct wc_msg *m,
		      u32 *words, u32 max_words, struct wc_hdr *hdr,
		      bool global)
{
	const struct wc_tree_set *s = ctx->tables;
	u32 n = ctx->topo->nnodes, nd = 0, i, tree;
	u32 *dests, *work;
	int nf;

	if (m->next_dst || !m->ndsts)
		return false;
	m->next_dst = 1;	/* one worm per message */
	hdr->words = words;
	hdr->nwords = 0;	/* unroutable unless encoded below */
	hdr->nflits = 1;
	if (!s || s->nnodes != n)
		return true;
	dests = s->scratch;
	work = s->scratch + n;
	for (i = 0; i < DIV_ROUND_UP(n, 32); i++) {
		u32 bits = m->dstmap[i];

		while (bits && nd < n) {
			dests[nd++] = i * 32 + (u32)__builtin_ctz(bits);
			bits &= bits - 1;
		}
	}
	if (nd != m->ndsts)
		return true;
	if (m->hdr_preset && words == m->hdr && max_words)
		tree = words[0];
	else
		tree = pick_tree(s, m, dests, nd, global);
	if (tree >= s->ntrees)
		return true;
	nf = wc_dstm_encode(&s->tree[tree], m->src, dests, nd, false, work,
			    s->flits, (u32)WC_DSTM_MAX_FLITS(n));
	if (nf <= 0 || (u32)nf > max_words)
		return true;
	for (i = 0; i < (u32)nf; i++)
		words[i] = s->flits[i].node |
			   (u32)s->flits[i].out << WC_TH_O_SHIFT |
			   (s->flits[i].c ? WC_TH_C : 0) |
			   (tree ? WC_TH_T : 0);
	hdr->nwords = (u32)nf;
	hdr->nflits = (u32)nf;
	return true;
}

static bool tree_next_worm(const struct wc_route_ctx *ctx, struct wc_msg *m,
			   u32 *words, u32 max_words, struct wc_hdr *hdr)
{
	return next_worm(ctx, m, words, max_words, hdr, true);
}

static bool tree_next_worm_local(const struct wc_route_ctx *ctx,
				 struct wc_msg *m, u32 *words, u32 max_words,
				 struct wc_hdr *hdr)
{
	return next_worm(ctx, m, words, max_words, hdr, false);
}

/* ------------------------------------------------------------ local faults */

/* The tree of @s holding the link from @v by @port, or -1. */
static int link_tree(const struct wc_tree_set *s, const struct wc_topo *t,
		     u32 v, u32 port)
{
	u32 u = wc_topo_neighbor(t, v, port), k;

	if (u == WC_NO_NODE)
		return -1;
	for (k = 0; k < s->ntrees; k++) {
		const struct wc_tree_entry *e = s->tree[k].e;

		if ((v != s->tree[k].root && e[v].parent == u &&
		     e[v].parent_port == port) ||
		    (u != s->tree[k].root && e[u].parent == v &&
		     e[u].parent_port == wc_topo_reverse_port(t, v, port)))
			return (int)k;
	}
	return -1;
}

u32 wc_tree_local_reinject(const struct wc_tree_set *s,
			   const struct wc_topo *t, const struct wc_msg *m,
			   u32 *at, u32 *tree, u32 *missed)
{
	const struct wc_tree_entry *e;
	u32 v = m->fault_at, n = s->nnodes, nb, lo, hi, w, nd = 0;
	bool up;
	int k;

	if (s->ntrees != 2 || !m->faulted || m->fault_cuts != 1 ||
	    m->fault_port == WC_FAULT_NODE || v >= n || !m->fault_lost ||
	    s->nnodes != t->nnodes)
		return 0;
	k = link_tree(s, t, v, m->fault_port);
	if (k < 0)
		return 0;
	e = s->tree[k].e;
	nb = wc_topo_neighbor(t, v, m->fault_port);
	/*
	 * A worm goes up to the least common ancestor of its source and
	 * destinations without stopping, then down: cut on the way up, it
	 * reached none of them; cut on a down link, it missed those below.
	 */
	up = v != s->tree[k].root && e[v].parent_port == m->fault_port;
	lo = e[nb].lo;
	hi = e[nb].pn;
	for (w = 0; w < n; w++) {
		if (!(m->dstmap[w / 32] & (1u << (w % 32))))
			continue;
		if (up || (lo <= e[w].pn && e[w].pn <= hi)) {
			missed[w / 32] |= 1u << (w % 32);
			nd++;
		}
	}
	if (nd != m->fault_lost) {
		memset(missed, 0, DIV_ROUND_UP(n, 32) * sizeof(u32));
		return 0;
	}
	*at = v;
	*tree = 1 - (u32)k;
	return nd;
}

/* ------------------------------------------------------------ the routers */

static bool is_tree_port(const struct wc_tree_entry *e, u32 port)
{
	u32 i;

	if (port == e->parent_port)
		return true;
	for (i = 0; i < e->nchildren; i++)
		if (e->child_port[i] == port)
			return true;
	return false;
}

/*
 * SPAM before the first split: an up link (to a lower level, or the same
 * level and a lower id) whose far end is an ancestor of the target, the
 * deepest such, instead of the parent.  Links the table lists faulty are
 * skipped (the parent link never is one: the tree avoids them).
 */
static u32 spam_shortcut(const struct wc_tree_set *s,
			 const struct wc_route_ctx *ctx, u32 target_pn)
{
	const struct wc_tree_entry *e = s->tree[0].e;
	const u32 *level = s->level[0];
	u32 here = ctx->node, port, best = e[here].parent_port, best_level = 0;
	bool found = false;

	for (port = 0; port < ctx->topo->nports; port++) {
		u32 u = wc_topo_neighbor(ctx->topo, here, port);

		if (u == WC_NO_NODE ||
		    (s->link_flags &&
		     s->link_flags[here * ctx->topo->nports + port] &
		     WC_LINK_FAULTY) ||
		    !(level[u] < level[here] ||
		      (level[u] == level[here] && u < here)) ||
		    !(e[u].lo <= target_pn && target_pn <= e[u].pn))
			continue;
		if (!found || level[u] > best_level) {
			best = port;
			best_level = level[u];
			found = true;
		}
	}
	return best;
}

static int tree_route(const struct wc_route_ctx *ctx, const struct wc_hdr *hdr,
		      struct wc_route_req *req)
{
	const struct wc_tree_set *s = ctx->tables;
	const struct wc_tree_entry *te, *e;
	/*
	 * Tree worms travel on VC 0 only, as in the papers (tree routing
	 * needs no virtual channels): the deadlock freedom of up-then-down
	 * routing in a tree, with lock-step splits, holds when a link carries
	 * one worm at a time.  Worms sharing a link on two VCs deadlocked
	 * (kmod/tests/tree_cases.h, "every node multicasting"; wormsim on an
	 * 8x8 torus at loads from 0.002).
	 */
	u16 vcs = WC_TREE_VC_MASK;
	u32 w, node, tree, here = ctx->node, port;

	if (!s || !hdr->nwords || s->nnodes != ctx->topo->nnodes)
		return -EINVAL;
	w = hdr->words[0];
	node = wc_th_node(w);
	tree = wc_th_tree(w);
	if (node >= s->nnodes || tree >= s->ntrees)
		return -EINVAL;
	te = s->tree[tree].e;
	e = &te[here];
	/* Only tree links, except SPAM's up cross links before the split. */
	if (ctx->in_port != WC_PORT_INJ &&
	    !(s->cross_links && !(w & WC_TH_S)) && !is_tree_port(e, ctx->in_port))
		return -EINVAL;

	if (node == here) {
		u32 outs = wc_th_out(w), taken = 0, pos = 1, i;

		req->nout = 0;
		if (w & WC_TH_C) {
			struct wc_route_out *o = &req->out[req->nout++];

			o->consume = true;
			o->vc_mask = s->ntrees > 1 ? (u16)(1u << tree) : 0;
		}
		/* Each requested child takes the contiguous run of its flits. */
		while (pos < hdr->nwords) {
			u32 pn = te[wc_th_node(hdr->words[pos])].pn, start = pos;
			struct wc_route_out *o;

			for (i = 0; i < e->nchildren; i++)
				if (e->child_lo[i] <= pn && pn <= e->child_hi[i])
					break;
			if (i == e->nchildren || !((outs >> e->child_port[i]) & 1) ||
			    (taken >> e->child_port[i]) & 1)
				return -EINVAL;
			taken |= 1u << e->child_port[i];
			while (pos < hdr->nwords &&
			       wc_th_node(hdr->words[pos]) < s->nnodes &&
			       e->child_lo[i] <= te[wc_th_node(hdr->words[pos])].pn &&
			       te[wc_th_node(hdr->words[pos])].pn <= e->child_hi[i])
				pos++;
			if (pos < hdr->nwords &&
			    wc_th_node(hdr->words[pos]) >= s->nnodes)
				return -EINVAL;
			o = &req->out[req->nout++];
			o->port = e->child_port[i];
			o->vc_mask = vcs;
			o->hdr_skip_words = (u16)start;
			o->hdr_words = (u16)(pos - start);
			o->hdr_flits = (u16)(pos - start);
		}
		if (taken != outs || !req->nout)
			return -EINVAL;
		return 0;
	}

	port = wc_tree_route(e, te[node].pn);
	if (port == WC_TREE_NO_PORT || port == WC_TREE_LOCAL)
		return -EINVAL;
	if (port == e->parent_port) {
		if (w & WC_TH_S)	/* past the split: down only */
			return -EINVAL;
		if (s->cross_links)
			port = spam_shortcut(s, ctx, te[node].pn);
	}
	req->nout = 1;
	req->out[0].port = (u8)port;
	req->out[0].vc_mask = vcs;
	req->out[0].hdr_words = (u16)hdr->nwords;
	req->out[0].hdr_flits = (u16)hdr->nflits;
	return 0;
}

/* The first split sets S in every flit behind the router's own. */
static void tree_routed(const struct wc_route_ctx *ctx, u32 *words,
			u32 nwords, const struct wc_route_req *req)
{
	u32 i;

	if (!nwords || wc_th_node(words[0]) != ctx->node ||
	    !wc_th_out(words[0]))
		return;
	for (i = 1; i < nwords; i++)
		words[i] |= WC_TH_S;
}

static int tree_check(const struct wc_topo *t, const struct wc_engine_params *p,
		      const char **why)
{
	if (t->nports > WC_TREE_MAX_PORTS)
		return refuse(why, "tree schemes need routers of at most 8 ports");
	if (t->nnodes > WC_TH_MAX_NODES)
		return refuse(why, "tree schemes need at most 2^20 nodes");
	return 0;
}

const struct wc_algo wc_algo_tree = {
	.name = "tree",
	.next_worm = tree_next_worm,
	.route = tree_route,
	.check = tree_check,
	.hdr_words = wc_tree_hdr_words,
	.routed = tree_routed,
};

const struct wc_algo wc_algo_tree_local = {
	.name = "tree-local",
	.next_worm = tree_next_worm_local,
	.route = tree_route,
	.check = tree_check,
	.hdr_words = wc_tree_hdr_words,
	.routed = tree_routed,
};
