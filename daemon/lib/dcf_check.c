// SPDX-License-Identifier: GPL-2.0
/*
 * Mechanical checker for broadcast schedules (dcf.h): Definition 1,
 * exactly-once delivery, and depth contention-freedom by Theorem 1 of Hou,
 * Wang and Hsu, checked over every pair of unicasts that share a channel.
 * What "channel" and "first channel" mean is the caller's choice of model
 * (dcf.h; Documentation/dcf.rst, "Readings of the model").
 */
#include <stdlib.h>

#include "dcf.h"

/* The broadcast tree: who delivered to each node, and its depth. */
struct tree {
	u32 *by;	/* node -> index of the unicast delivering to it */
	u32 *depth;	/* source 0 */
	u32 *mask;	/* Def. 1 (3): ports a node used in ... */
	u32 *mstep;	/* ... this step */
};

/* One pair of unicasts sharing a channel, a < b. */
struct shared {
	u32 a;
	u32 b;
	u32 timed;	/* they overlap in time on some shared channel */
};

static u32 first_port(const struct dcf_sched *s, u32 i)
{
	return s->hops[s->uni[i].hop0].port;
}

/* "The first channel" of Theorem 1 (3), (4) under @model (see dcf.h). */
static u32 first_channel(const struct dcf_sched *s, u32 model, u32 i)
{
	const struct dcf_hop *h = &s->hops[s->uni[i].hop0];

	return model & DCF_FIRST_VCHAN ? h->port * 2u + h->vc : h->port;
}

/* Is x in R_v: v itself or a descendant of v? */
static bool reachable(const struct dcf_sched *s, const struct tree *t,
		      u32 v, u32 x)
{
	while (t->depth[x] > t->depth[v])
		x = s->uni[t->by[x]].src;
	return x == v;
}

/*
 * Theorem 1 for the ordered pair a = (u, v, t), b = (x, y, tau), t <= tau,
 * given that their paths share a channel (so condition 2 fails).
 */
static bool theorem1(const struct dcf_sched *s, const struct tree *t,
		     u32 model, u32 a, u32 b)
{
	const struct dcf_unicast *ua = &s->uni[a], *ub = &s->uni[b];
	u32 w;

	if (ua->step > ub->step)
		return false;
	/* (1) x in R_v: the u -> v unicast is over before x starts. */
	if (reachable(s, t, ua->dst, ub->src))
		return true;
	/* (3) same sender, same first channel: serialised by the sender. */
	if (ua->src == ub->src)
		return first_channel(s, model, a) ==
		       first_channel(s, model, b);
	/*
	 * (4) x in R_w where u sends to w later than to v through the same
	 * first channel: w is the child of u on the tree path to x.
	 */
	if (t->depth[ub->src] <= t->depth[ua->src])
		return false;
	w = ub->src;
	while (t->depth[w] > t->depth[ua->src] + 1)
		w = s->uni[t->by[w]].src;
	if (s->uni[t->by[w]].src != ua->src)
		return false;
	return s->uni[t->by[w]].step > ua->step &&
	       first_channel(s, model, t->by[w]) ==
	       first_channel(s, model, a);
}

/* Definition 1 and exactly-once delivery; builds the tree. */
static void check_def1(const struct dcf_sched *s, struct tree *t,
		       struct dcf_report *r)
{
	u32 i, v;

	for (v = 0; v < s->nnodes; v++)
		t->by[v] = DCF_NO_UNICAST;
	for (i = 0; i < s->nuni; i++) {
		const struct dcf_unicast *u = &s->uni[i];

		if (u->dst == s->src || t->by[u->dst] != DCF_NO_UNICAST)
			r->duplicates++;
		else
			t->by[u->dst] = i;
		if (u->step > r->nsteps)
			r->nsteps = u->step;
	}
	for (v = 0; v < s->nnodes; v++)
		if (v != s->src && t->by[v] == DCF_NO_UNICAST)
			r->missing++;
	/* (1), (2): only informed nodes send, after the step they got it. */
	for (i = 0; i < s->nuni; i++) {
		const struct dcf_unicast *u = &s->uni[i];

		if (u->src == s->src)
			continue;
		if (t->by[u->src] == DCF_NO_UNICAST ||
		    s->uni[t->by[u->src]].step >= u->step)
			r->premature++;
	}
	/* (3): one node's unicasts of one step leave by different ports. */
	for (i = 0; i < s->nuni; i++) {
		const struct dcf_unicast *u = &s->uni[i];
		u32 bit = 1u << first_port(s, i);

		if (t->mstep[u->src] != u->step) {
			t->mstep[u->src] = u->step;
			t->mask[u->src] = 0;
		}
		if (t->mask[u->src] & bit)
			r->port_clashes++;
		t->mask[u->src] |= bit;
	}
}

/* Depth of every node, if the tree is a tree rooted at the source. */
static bool tree_depths(const struct dcf_sched *s, struct tree *t)
{
	u32 v, x, d;

	for (v = 0; v < s->nnodes; v++) {
		for (x = v, d = 0; x != s->src; d++) {
			if (t->by[x] == DCF_NO_UNICAST || d > s->nnodes)
				return false;
			x = s->uni[t->by[x]].src;
		}
		t->depth[v] = d;
	}
	return true;
}

static u32 check_routes(const struct dcf_sched *s)
{
	u32 i, h, bad = 0;

	for (i = 0; i < s->nuni; i++) {
		const struct dcf_unicast *u = &s->uni[i];
		const struct dcf_hop *p = &s->hops[u->hop0];
		u32 at = u->src;

		for (h = 0; h < u->nhops && at == p[h].node; h++) {
			u32 x = at % s->side, y = at / s->side, n = s->side;

			switch (p[h].port) {
			case 0: x = (x + 1) % n; break;
			case 1: x = (x + n - 1) % n; break;
			case 2: y = (y + 1) % n; break;
			default: y = (y + n - 1) % n; break;
			}
			at = x + n * y;
		}
		if (!u->nhops || h != u->nhops || at != u->dst)
			bad++;
	}
	return bad;
}

static int cmp_shared(const void *a, const void *b)
{
	const struct shared *x = a, *y = b;

	if (x->a != y->a)
		return x->a < y->a ? -1 : 1;
	return x->b < y->b ? -1 : x->b > y->b;
}

/*
 * Every pair of unicasts using one channel, once per channel, with whether
 * they overlap there in time.  Channels are numbered (node, port, vc).
 */
static int collect_pairs(const struct dcf_sched *s, u32 model,
			 const struct dcf_timing *tm, const u64 *start,
			 struct shared **out, size_t *nout)
{
	u32 nchan = s->nnodes * DCF_NPORTS * 2, i, h, c;
	bool vc_apart = (model & DCF_CHAN_MASK) == DCF_CHAN_VC;
	u32 *head = NULL, *cnt = NULL, *slot = NULL, *hopi = NULL;
	struct shared *pairs = NULL;
	size_t np = 0, cap = 0;
	int ret = -ENOMEM;

	cnt = wc_calloc(nchan + 1, sizeof(*cnt));
	head = wc_calloc(nchan + 1, sizeof(*head));
	slot = wc_calloc(s->nhops, sizeof(*slot));
	hopi = wc_calloc(s->nhops, sizeof(*hopi));
	if (!cnt || !head || !slot || !hopi)
		goto out;
	/* Counting sort of hops by channel. */
	for (i = 0; i < s->nhops; i++) {
		const struct dcf_hop *p = &s->hops[i];

		cnt[(p->node * DCF_NPORTS + p->port) * 2 +
		    (vc_apart ? p->vc : 0)]++;
	}
	for (c = 0; c < nchan; c++)
		head[c + 1] = head[c] + cnt[c];
	memset(cnt, 0, (nchan + 1) * sizeof(*cnt));
	for (i = 0; i < s->nuni; i++)
		for (h = 0; h < s->uni[i].nhops; h++) {
			const struct dcf_hop *p = &s->hops[s->uni[i].hop0 + h];
			u32 ch = (p->node * DCF_NPORTS + p->port) * 2 +
				 (vc_apart ? p->vc : 0);
			u32 at = head[ch] + cnt[ch]++;

			slot[at] = i;
			hopi[at] = h;
		}
	for (c = 0; c < nchan; c++) {
		u32 x, y;

		for (x = head[c]; x < head[c + 1]; x++)
			for (y = x + 1; y < head[c + 1]; y++) {
				u64 lo1 = start[slot[x]] + hopi[x] * tm->tc;
				u64 lo2 = start[slot[y]] + hopi[y] * tm->tc;
				u64 busy = tm->len * tm->tc;
				struct shared *p;

				if (np == cap) {
					size_t ncap = cap ? 2 * cap : 1024;
					struct shared *q;

					q = realloc(pairs, ncap * sizeof(*q));
					if (!q)
						goto out;
					pairs = q;
					cap = ncap;
				}
				p = &pairs[np++];
				p->a = slot[x] < slot[y] ? slot[x] : slot[y];
				p->b = slot[x] < slot[y] ? slot[y] : slot[x];
				p->timed = lo1 < lo2 + busy && lo2 < lo1 + busy;
			}
	}
	if (np)
		qsort(pairs, np, sizeof(*pairs), cmp_shared);
	*out = pairs;
	*nout = np;
	pairs = NULL;
	ret = 0;
out:
	free(pairs);
	wc_free(cnt);
	wc_free(head);
	wc_free(slot);
	wc_free(hopi);
	return ret;
}

int dcf_check(const struct dcf_sched *s, u32 model,
	      const struct dcf_timing *tm, struct dcf_report *r)
{
	struct tree t = { 0 };
	struct shared *pairs = NULL;
	size_t np = 0, i, j;
	u64 *start;
	int ret = -ENOMEM;

	memset(r, 0, sizeof(*r));
	r->example[0] = r->example[1] = DCF_NO_UNICAST;
	if (model & ~DCF_MODEL_MASK)
		return -EINVAL;
	t.by = wc_calloc(s->nnodes, sizeof(*t.by));
	t.depth = wc_calloc(s->nnodes, sizeof(*t.depth));
	t.mask = wc_calloc(s->nnodes, sizeof(*t.mask));
	t.mstep = wc_calloc(s->nnodes, sizeof(*t.mstep));
	start = wc_calloc(s->nuni, sizeof(*start));
	if (!t.by || !t.depth || !t.mask || !t.mstep || !start)
		goto out;
	check_def1(s, &t, r);
	r->bad_routes = check_routes(s);
	r->latency = dcf_latency(s, tm, NULL, start);
	if (r->latency == U64_MAX)
		goto out;
	ret = 0;
	/* Theorem 1 needs a tree: stop at the first failure above. */
	if (r->missing || r->duplicates || r->premature || r->bad_routes ||
	    !tree_depths(s, &t))
		goto out;
	ret = collect_pairs(s, model, tm, start, &pairs, &np);
	if (ret)
		goto out;
	for (i = 0; i < np; i = j) {
		bool timed = false;
		u32 a = pairs[i].a, b = pairs[i].b;

		for (j = i; j < np && pairs[j].a == a && pairs[j].b == b; j++)
			timed |= pairs[j].timed;
		r->shared_pairs++;
		if (timed)
			r->timed_pairs++;
		if (s->uni[a].step == s->uni[b].step)
			r->stepwise_pairs++;
		if (!theorem1(s, &t, model, a, b) &&
		    !theorem1(s, &t, model, b, a)) {
			if (!r->contending_pairs) {
				r->example[0] = a;
				r->example[1] = b;
			}
			r->contending_pairs++;
		}
	}
out:
	free(pairs);
	wc_free(t.by);
	wc_free(t.depth);
	wc_free(t.mask);
	wc_free(t.mstep);
	wc_free(start);
	return ret;
}

bool dcf_report_clean(const struct dcf_report *r)
{
	return !r->missing && !r->duplicates && !r->premature &&
	       !r->port_clashes && !r->bad_routes && !r->contending_pairs;
}
