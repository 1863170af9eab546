// SPDX-License-Identifier: GPL-2.0
/*
 * Multicast plans (ocms, otms): the table's validation and the source's
 * lookup.  The model is described in plans.h.
 */
#include <linux/wormcast.h>

#include "plans.h"

static int refuse(const char **why, const char *msg)
{
	if (why)
		*why = msg;
	return -EINVAL;
}

bool wc_plan_scheme(u32 scheme)
{
	return scheme == WORMCAST_MCAST_OCMS || scheme == WORMCAST_MCAST_OTMS;
}

void wc_plan_set_free(struct wc_plan_set *ps)
{
	wc_free(ps->plans);
	wc_free(ps->dsts);
	wc_free(ps->words);
	memset(ps, 0, sizeof(*ps));
}

/* <0, 0, >0 as (@src, @addr) sorts before, with, after @p. */
static int plan_cmp(u32 src, const u8 *addr, const struct wc_plan *p)
{
	if (src != p->src)
		return src < p->src ? -1 : 1;
	return memcmp(addr, p->addr, sizeof(p->addr));
}

/*
 * The length of a plan's next worm, the word at w[*@i] of @nwords: at
 * least one word and none past the plan's.  *@i moves past it.
 */
static int plan_worm_len(const u32 *w, u32 nwords, u32 *i, u32 *len,
			 const char **why)
{
	if (*i >= nwords)
		return refuse(why, "a plan's words end before its last worm");
	*len = w[(*i)++];
	if (!*len)
		return refuse(why, "a plan has an empty worm");
	if (*len > nwords - *i)
		return refuse(why, "a worm runs past the plan's words");
	return 0;
}

/*
 * Destination @d of plan @p: a node of the fabric, not the source, not
 * seen before in the plan (@seen, a bitmap of the nodes); marked seen.
 */
static int plan_dst_add(const struct wc_topo *t, const struct wc_plan *p,
			u32 *seen, u32 d, const char **why)
{
	if (d >= t->nnodes)
		return refuse(why, "a destination is not a node of the fabric");
	if (d == p->src)
		return refuse(why, "a plan sends to its own source");
	if (seen[d / 32] & BIT(d % 32))
		return refuse(why, "a destination appears twice in a plan");
	seen[d / 32] |= BIT(d % 32);
	return 0;
}

/*
 * Check the @nwords words of one plan (@p->src set) and append its
 * destinations and layout at *@nd and *@nw.  @seen is a scratch bitmap of
 * the nodes, clear on entry and on return.
 */
static int plan_check(struct wc_plan_set *ps, const struct wc_topo *t,
		      const struct wc_label_set *ls, struct wc_plan *p,
		      const u32 *w, u32 nwords, u32 *seen, u32 *nd, u32 *nw,
		      const char **why)
{
	u32 own = ls->label[p->src], used_ports = 0, i = 0, worm, k, j;
	const u32 *nbr = ls->nbr + p->src * ls->nports;
	u32 d0 = *nd, w0 = *nw;
	int err = 0;

	p->dsts = d0;
	p->layout = w0;
	ps->words[(*nw)++] = 0;		/* word 0: the words used, below */
	for (worm = 0; worm < p->nworms && !err; worm++) {
		u32 len, port, prev = own;
		bool up = false;

		err = plan_worm_len(w, nwords, &i, &len, why);
		if (err)
			break;
		ps->words[(*nw)++] = len;
		for (k = 0; k < len; k++) {
			u32 v = w[i + k], l;

			err = plan_dst_add(t, p, seen, v, why);
			if (err)
				break;
			l = ls->label[v];
			if (!k)
				up = l > own;
			if (up ? l <= prev : l >= prev) {
				err = refuse(why,
					     "a worm is not label-monotone away from the source (R cannot visit it)");
				break;
			}
			prev = l;
			ps->dsts[(*nd)++] = v;
			ps->words[(*nw)++] = l;
		}
		if (err)
			break;
		port = wc_lr_next_port(own, nbr, ls->nports, ls->label[w[i]]);
		if (port >= ls->nports) {
			err = refuse(why, "no source port toward a worm's first node");
			break;
		}
		if (used_ports & BIT(port)) {
			err = refuse(why, "two worms leave the source through the same port");
			break;
		}
		used_ports |= BIT(port);
		i += len;
	}
	if (!err && i != nwords)
		err = refuse(why, "a plan's word count is not its worms' lengths and destinations");
	for (j = d0; j < *nd; j++)
		seen[ps->dsts[j] / 32] &= ~BIT(ps->dsts[j] % 32);
	if (err)
		return err;
	p->ndsts = *nd - d0;
	p->nlayout = *nw - w0;
	ps->words[w0] = p->nlayout;
	return 0;
}

/*
 * Strategy 3 (ftmesh): check the @nwords words of one plan against the
 * ftmesh tables @ft and append its destinations and its layout (ft_mcast.h:
 * per worm its count and words, WC_FTM_PLANNED, then a 0 count).
 */
static int ftm_plan_check(struct wc_plan_set *ps, const struct wc_topo *t,
			  const struct wc_ftm_tables *ft, struct wc_plan *p,
			  const u32 *w, u32 nwords, u32 *seen, u32 *nd, u32 *nw,
			  const char **why)
{
	u32 i = 0, worm, k, j, d0 = *nd, w0 = *nw, q = 0, lastq = 0;
	u32 sx = p->src % ft->w, sy = p->src / ft->w;
	int err = 0;

	p->dsts = d0;
	p->layout = w0;
	if (ft->in_block[p->src])
		return refuse(why, "a plan's source is inside a faulty block");
	for (worm = 0; worm < p->nworms && !err; worm++) {
		u32 len;

		err = plan_worm_len(w, nwords, &i, &len, why);
		if (err)
			break;
		ps->words[(*nw)++] = len;
		for (k = 0; k < len; k++) {
			u32 v = w[i + k], d = v & WC_FTM_NODE_MASK, dq;

			if (v & ~(WC_FTM_NODE_MASK | WC_FTM_CHOICE_MASK)) {
				err = refuse(why, "a plan's word has bits beyond node and choices");
				break;
			}
			err = plan_dst_add(t, p, seen, d, why);
			if (err)
				break;
			ps->dsts[(*nd)++] = d;
			if (!wc_ftm_reachable(ft, p->src, d)) {
				err = refuse(why,
					     "a destination the source cannot reach minimally (in a faulty block or not extended safe)");
				break;
			}
			dq = wc_ft_subnet_of(sx, sy, d % ft->w, d / ft->w);
			if (k && dq != q) {
				err = refuse(why, "a worm's destinations are in two subnetworks");
				break;
			}
			q = dq;
			ps->words[(*nw)++] = v | WC_FTM_PLANNED;
		}
		if (err)
			break;
		if (worm && q <= lastq) {
			err = refuse(why, "worms not in increasing subnetwork order");
			break;
		}
		lastq = q;
		i += len;
	}
	if (!err && i != nwords)
		err = refuse(why, "a plan's word count is not its worms' lengths and destinations");
	for (j = d0; j < *nd; j++)
		seen[ps->dsts[j] / 32] &= ~BIT(ps->dsts[j] % 32);
	if (err)
		return err;
	ps->words[(*nw)++] = 0;		/* the layout's end */
	p->ndsts = *nd - d0;
	p->nlayout = *nw - w0;
	return 0;
}

/* What a plan set is checked against: a label set or ftmesh tables. */
struct plan_base {
	const struct wc_label_set *ls;
	const struct wc_ftm_tables *ft;
	u32 maxworms;
};

static int plan_set_build(struct wc_plan_set *ps, const struct wc_topo *t,
			  const struct plan_base *b, const void *table,
			  size_t len, const char **why)
{
	const struct wormcast_plans *h = table;
	u32 *seen = NULL, nd = 0, nw = 0, i;
	size_t off = sizeof(*h), nwords_all;
	int err = 0;

	memset(ps, 0, sizeof(*ps));
	if (h->nnodes != t->nnodes)
		return refuse(why, "table's node count differs from the fabric's");
	if (h->reserved)
		return refuse(why, "reserved header field is not zero");
	if (h->nplans > WORMCAST_PLANS_MAX)
		return refuse(why, "more than WORMCAST_PLANS_MAX plans");
	if ((len - sizeof(*h)) / 4 < (size_t)h->nplans * (sizeof(struct wormcast_plan) / 4))
		return refuse(why, "table shorter than its plans' headers");
	/* every word past the headers is a worm length or a destination */
	nwords_all = (len - sizeof(*h)) / 4 -
		     (size_t)h->nplans * (sizeof(struct wormcast_plan) / 4);

	ps->nnodes = t->nnodes;
	ps->scheme = h->scheme;
	ps->nplans = h->nplans;
	ps->plans = wc_calloc(h->nplans ? h->nplans : 1, sizeof(*ps->plans));
	ps->dsts = wc_calloc(nwords_all ? nwords_all : 1, sizeof(u32));
	ps->words = wc_calloc(nwords_all + h->nplans + 1, sizeof(u32));
	seen = wc_calloc(DIV_ROUND_UP(t->nnodes, 32), sizeof(u32));
	if (!ps->plans || !ps->dsts || !ps->words || !seen) {
		wc_free(seen);
		wc_plan_set_free(ps);
		if (why)
			*why = "out of memory";
		return -ENOMEM;
	}
	ps->mem = (size_t)(h->nplans ? h->nplans : 1) * sizeof(*ps->plans) +
		  (2 * nwords_all + h->nplans + 2) * sizeof(u32) +
		  DIV_ROUND_UP(t->nnodes, 32) * sizeof(u32);

	for (i = 0; i < h->nplans; i++) {
		const struct wormcast_plan *ph;
		struct wc_plan *p = &ps->plans[i];

		if (len - off < sizeof(*ph)) {
			err = refuse(why, "table shorter than its plans");
			break;
		}
		ph = (const void *)((const u8 *)table + off);
		off += sizeof(*ph);
		if (ph->reserved) {
			err = refuse(why, "reserved plan field is not zero");
			break;
		}
		if (!(ph->addr[0] & 1)) {
			err = refuse(why, "a plan's group address is not a multicast MAC");
			break;
		}
		if (ph->src >= t->nnodes) {
			err = refuse(why, "a plan's source is not a node of the fabric");
			break;
		}
		if (!ph->nworms || ph->nworms > b->maxworms) {
			err = refuse(why, "a plan has no worm or more worms than ports");
			break;
		}
		/* its words and the headers of the plans after it */
		if ((len - off) / 4 < (size_t)(h->nplans - i - 1) *
				      (sizeof(*ph) / 4) ||
		    ph->nwords > (len - off) / 4 - (size_t)(h->nplans - i - 1) *
						   (sizeof(*ph) / 4)) {
			err = refuse(why, "a plan's words run past the end of the table");
			break;
		}
		p->src = ph->src;
		memcpy(p->addr, ph->addr, sizeof(p->addr));
		p->nworms = ph->nworms;
		if (i && plan_cmp(p->src, p->addr, &ps->plans[i - 1]) <= 0) {
			err = refuse(why,
				     "plans not in increasing (source, group) order");
			break;
		}
		if (b->ft)
			err = ftm_plan_check(ps, t, b->ft, p,
					     (const void *)((const u8 *)table + off),
					     ph->nwords, seen, &nd, &nw, why);
		else
			err = plan_check(ps, t, b->ls, p,
					 (const void *)((const u8 *)table + off),
					 ph->nwords, seen, &nd, &nw, why);
		if (err)
			break;
		off += (size_t)ph->nwords * 4;
	}
	if (!err && off != len)
		err = refuse(why, "table size is not the header and its plans");
	wc_free(seen);
	if (err)
		wc_plan_set_free(ps);
	return err;
}

int wc_plan_set_build(struct wc_plan_set *ps, const struct wc_topo *t,
		      const struct wc_label_set *ls, const void *table,
		      size_t len, const char **why)
{
	const struct wormcast_plans *h = table;
	struct plan_base b = { .ls = ls };

	memset(ps, 0, sizeof(*ps));
	if (len < sizeof(*h))
		return refuse(why, "table shorter than its header");
	if (h->scheme)
		return refuse(why, "plans of a scheme other than 0 (ocms/otms) need another table");
	if (!ls || !wc_plan_scheme(ls->scheme))
		return refuse(why,
			      "plans need a committed labels table of scheme ocms or otms");
	if (ls->nnodes != t->nnodes)
		return refuse(why, "table's node count differs from the fabric's");
	b.maxworms = ls->nports;
	return plan_set_build(ps, t, &b, table, len, why);
}

int wc_plan_set_build_ftm(struct wc_plan_set *ps, const struct wc_topo *t,
			  const struct wc_ftm_tables *ft, const void *table,
			  size_t len, const char **why)
{
	const struct wormcast_plans *h = table;
	struct plan_base b = { .ft = ft, .maxworms = WC_FT_NSUBNETS };

	memset(ps, 0, sizeof(*ps));
	if (len < sizeof(*h))
		return refuse(why, "table shorter than its header");
	if (h->scheme != WORMCAST_MCAST_FTMESH)
		return refuse(why, "plans checked against ftmesh tables must be of scheme ftmesh");
	if (!ft || ft->strategy != 3)
		return refuse(why, "ftmesh plans need a committed ftmesh table of strategy 3");
	if (ft->w * ft->h != t->nnodes || t->kind != WC_TOPO_MESH || t->ndims != 2)
		return refuse(why, "table's node count differs from the fabric's");
	return plan_set_build(ps, t, &b, table, len, why);
}

const struct wc_plan *wc_plan_find(const struct wc_plan_set *ps, u32 src,
				   const u8 *addr)
{
	u32 lo = 0, hi = ps->nplans;

	while (lo < hi) {
		u32 mid = lo + (hi - lo) / 2;
		int c = plan_cmp(src, addr, &ps->plans[mid]);

		if (!c)
			return &ps->plans[mid];
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

bool wc_plan_matches(const struct wc_plan_set *ps, const struct wc_plan *p,
		     const u32 *dstmap, u32 ndsts)
{
	const u32 *d = ps->dsts + p->dsts;
	u32 i;

	if (p->ndsts != ndsts)
		return false;
	for (i = 0; i < p->ndsts; i++)
		if (!(dstmap[d[i] / 32] & BIT(d[i] % 32)))
			return false;
	return true;
}

u32 wc_plan_layout(const struct wc_plan_set *ps, const struct wc_plan *p,
		   u32 *words, u32 max)
{
	if (p->nlayout > max)
		return 0;
	memcpy(words, ps->words + p->layout, p->nlayout * sizeof(u32));
	return p->nlayout;
}

bool wc_plan_use(const struct wc_plan_set *ps, const struct wc_plan *p,
		 const struct wc_ftm_tables *ft, struct wc_msg *m)
{
	u32 want = m->ndsts;

	if (!p || !m->hdr || (ps->scheme == WORMCAST_MCAST_FTMESH && !ft))
		return false;
	if (ps->scheme == WORMCAST_MCAST_FTMESH)
		want = wc_ftm_reachable_count(ft, m->src, m->dstmap,
					      ps->nnodes);
	if (!wc_plan_matches(ps, p, m->dstmap, want) ||
	    !wc_plan_layout(ps, p, m->hdr, m->hdr_max))
		return false;
	m->hdr_preset = true;
	return true;
}
