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

static int cmp_u32(const void *a, const void *b)
{
	u32 x = *(const u32 *)a, y = *(const u32 *)b;

	return x < y ? -1 : x > y;
}

/* Channels are numbered (node, port, vc); the vc only if @vc_apart. */
static u32 channel_of(const struct dcf_hop *p, bool vc_apart)
{
	return (p->node * DCF_NPORTS + p->port) * 2 + (vc_apart ? p->vc : 0);
}

/* One pair of unicasts a < b sharing a channel, against Theorem 1. */
static void check_pair(const struct dcf_sched *s, const struct tree *t,
		       u32 model, u32 a, u32 b, bool timed,
		       struct dcf_report *r)
{
	u32 step = max_t(u32, max_t(u32, s->uni[a].step, s->uni[b].step), 1);
	u32 k = min_t(u32, step, DCF_REPORT_STEPS) - 1;

	r->shared_pairs++;
	if (timed) {
		r->timed_pairs++;
		r->step_timed[k]++;
	}
	if (s->uni[a].step == s->uni[b].step)
		r->stepwise_pairs++;
	if (!theorem1(s, t, model, a, b) && !theorem1(s, t, model, b, a)) {
		if (!r->contending_pairs) {
			r->example[0] = a;
			r->example[1] = b;
		}
		r->contending_pairs++;
		r->step_contending[k]++;
	}
}

/*
 * Every pair of unicasts that share a channel, each pair once, in order
 * of (a, b), with whether they overlap in time on some shared channel.
 * The pairs are streamed, never stored: for each unicast a, the unicasts
 * b > a found on its channels are marked (seen[b] = a + 1) and collected.
 * Memory is linear in the schedule (a 64x64 unicast-based broadcast has
 * 4 million sharing pairs, met 80 million times over its channels: kept
 * as a list, that was 1 GB and a minute of sorting).
 */
static int check_pairs(const struct dcf_sched *s, const struct tree *t,
		       u32 model, const struct dcf_timing *tm,
		       const u64 *start, struct dcf_report *r)
{
	u32 nchan = s->nnodes * DCF_NPORTS * 2, i, h, c, a, x, n;
	bool vc_apart = (model & DCF_CHAN_MASK) == DCF_CHAN_VC;
	u32 *head, *cnt, *slot, *hopi, *seen, *list;
	u64 busy = tm->len * tm->tc;
	u8 *timed;
	int ret = -ENOMEM;

	cnt = wc_calloc(nchan + 1, sizeof(*cnt));
	head = wc_calloc(nchan + 1, sizeof(*head));
	slot = wc_calloc(s->nhops, sizeof(*slot));
	hopi = wc_calloc(s->nhops, sizeof(*hopi));
	seen = wc_calloc(s->nuni, sizeof(*seen));
	list = wc_calloc(s->nuni, sizeof(*list));
	timed = wc_zalloc(s->nuni);
	if (!cnt || !head || !slot || !hopi || !seen || !list || !timed)
		goto out;
	/* Counting sort of hops by channel. */
	for (i = 0; i < s->nhops; i++)
		cnt[channel_of(&s->hops[i], vc_apart)]++;
	for (c = 0; c < nchan; c++)
		head[c + 1] = head[c] + cnt[c];
	memset(cnt, 0, (nchan + 1) * sizeof(*cnt));
	for (i = 0; i < s->nuni; i++)
		for (h = 0; h < s->uni[i].nhops; h++) {
			c = channel_of(&s->hops[s->uni[i].hop0 + h], vc_apart);
			slot[head[c] + cnt[c]] = i;
			hopi[head[c] + cnt[c]++] = h;
		}
	for (a = 0; a < s->nuni; a++) {
		n = 0;
		for (h = 0; h < s->uni[a].nhops; h++) {
			u64 lo1 = start[a] + h * tm->tc;

			c = channel_of(&s->hops[s->uni[a].hop0 + h], vc_apart);
			for (x = head[c]; x < head[c + 1]; x++) {
				u32 b = slot[x];
				u64 lo2 = start[b] + hopi[x] * tm->tc;
				bool overlap = lo1 < lo2 + busy && lo2 < lo1 + busy;

				if (b <= a)
					continue;
				if (seen[b] != a + 1) {
					seen[b] = a + 1;
					timed[b] = 0;
					list[n++] = b;
				}
				timed[b] |= overlap;
			}
		}
		if (n > 1)
			qsort(list, n, sizeof(*list), cmp_u32);
		for (i = 0; i < n; i++)
			check_pair(s, t, model, a, list[i], timed[list[i]], r);
	}
	ret = 0;
out:
	wc_free(cnt);
	wc_free(head);
	wc_free(slot);
	wc_free(hopi);
	wc_free(seen);
	wc_free(list);
	wc_free(timed);
	return ret;
}

int dcf_check(const struct dcf_sched *s, u32 model,
	      const struct dcf_timing *tm, struct dcf_report *r)
{
	struct tree t = { 0 };
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
	ret = check_pairs(s, &t, model, tm, start, r);
out:
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
