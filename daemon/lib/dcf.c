// SPDX-License-Identifier: GPL-2.0
/*
 * Broadcast schedules on 2^d x 2^d tori: the DCF algorithm of Hou, Wang and
 * Hsu and its baselines.  See dcf.h for the model and Documentation/dcf.rst
 * for the reconstruction of the DCF_block.
 */
#include "dcf.h"

const struct dcf_block dcf_zblock = {
	.name = "Z_block (Fig. 5)",
	.nunits = 4,
	.nsteps = 1,
	.nsends = 3,
	.send = {
		{ 0, 1, -1, 1, 1 },	/* (X-1, Y+1): distance 2, first */
		{ 0, 2, 0, 1, 1 },	/* (X, Y+1) */
		{ 0, 3, 1, 0, 1 },	/* (X+1, Y) */
	},
};

/*
 * The DCF_block of Fig. 7 as reconstructed by dcf_search_blocks() (see
 * Documentation/dcf.rst).  Units: 0 = S, 1 = A, 2 = B, 3 = C, 4 = D,
 * 5 = (X+delta, Y) served by S in step 2, 6..15 served by A, B, C, D.
 */
const struct dcf_block dcf_block_fig7 = {
	.name = "DCF_block (Fig. 7, reconstructed)",
	.nunits = 16,
	.nsteps = 2,
	.nsends = 15,
	.send = {
		/* step 1: S -> A (3 delta), B (2 delta), C, D (delta) */
		{ 0, 1, 2, 1, 1 },
		{ 0, 2, 0, 2, 1 },
		{ 0, 3, -1, 0, 1 },
		{ 0, 4, 0, -1, 1 },
		/* step 2: S -> (X+delta, Y), A -> its four neighbours */
		{ 0, 5, 1, 0, 2 },
		{ 1, 6, 1, 0, 2 },
		{ 1, 7, -1, 0, 2 },
		{ 1, 8, 0, 1, 2 },
		{ 1, 9, 0, -1, 2 },
		/* B = (0, 2) -> (0, 1), (1, 2), (-1, 2) */
		{ 2, 10, 0, -1, 2 },
		{ 2, 11, 1, 0, 2 },
		{ 2, 12, -1, 0, 2 },
		/* C = (-1, 0) -> (-2, -1) (2 delta, first), (-1, -1) */
		{ 3, 13, -1, -1, 2 },
		{ 3, 14, 0, -1, 2 },
		/* D = (0, -1) -> (1, -1) */
		{ 4, 15, 1, 0, 2 },
	},
};

static const char *const scheme_names[] = {
	[DCF_SCHEME_DCF] = "dcf",
	[DCF_SCHEME_EDN] = "edn",
	[DCF_SCHEME_UNICAST] = "unicast-bcast",
};

const char *dcf_scheme_name(u32 scheme)
{
	return scheme < ARRAY_SIZE(scheme_names) ? scheme_names[scheme] : "?";
}

int dcf_scheme_parse(const char *name)
{
	u32 i;

	for (i = 0; i < ARRAY_SIZE(scheme_names); i++)
		if (!strcmp(name, scheme_names[i]))
			return (int)i;
	return -1;
}

const char *dcf_port_name(u32 port)
{
	static const char *const names[DCF_NPORTS] = { "+x", "-x", "+y", "-y" };

	return port < DCF_NPORTS ? names[port] : "?";
}

const char *dcf_vc_name(u32 vc, u32 port)
{
	if (vc == DCF_VC_P)
		return "p";
	return (port & 1) ? "l" : "h";
}

bool dcf_side_ok(u32 side)
{
	return wc_plh_side_ok(side);
}

static int fail(const char **why, const char *msg)
{
	if (why)
		*why = msg;
	return -EINVAL;
}

int dcf_block_validate(const struct dcf_block *b, const char **why)
{
	bool informed[DCF_BLOCK_MAX_SENDS + 1] = { false };
	u32 i, last_step = 1;

	if (b->nunits < 2 || b->nunits > DCF_BLOCK_MAX_SENDS + 1 ||
	    b->nsends != b->nunits - 1 || b->nsteps < 1)
		return fail(why, "block sizes are inconsistent");
	informed[0] = true;
	for (i = 0; i < b->nsends; i++) {
		const struct dcf_send *e = &b->send[i];

		if (e->from >= b->nunits || e->to >= b->nunits)
			return fail(why, "block unit label out of range");
		if (e->step < last_step || e->step > b->nsteps)
			return fail(why, "block unicasts not sorted by step");
		last_step = e->step;
		if (!informed[e->from])
			return fail(why, "block sender not informed earlier");
		if (informed[e->to])
			return fail(why, "block unit receives twice");
		if (e->dx == 0 && e->dy == 0)
			return fail(why, "block unicast to the sender itself");
		informed[e->to] = true;
	}
	/* A sender must have been informed in an earlier step. */
	for (i = 0; i < b->nsends; i++) {
		u32 j;

		if (b->send[i].from == 0)
			continue;
		for (j = 0; j < b->nsends; j++)
			if (b->send[j].to == b->send[i].from &&
			    b->send[j].step >= b->send[i].step)
				return fail(why, "block sender informed too late");
	}
	return 0;
}

u32 dcf_block_hops(const struct dcf_block *b)
{
	u32 i, h = 0;

	for (i = 0; i < b->nsends; i++)
		h += (u32)abs(b->send[i].dx) + (u32)abs(b->send[i].dy);
	return h;
}

/* The neighbour of @a behind @port (plh.h's numbering) on the torus. */
static u32 torus_step(u32 side, u32 a, u32 port)
{
	u32 x = a % side, y = a / side, d = port & 1 ? side - 1 : 1;

	if (port < 2)
		x = (x + d) % side;
	else
		y = (y + d) % side;
	return x + side * y;
}

/*
 * The route hop by hop, each hop as the engine's p/l/h routing takes it
 * from the router it leaves (wc_plh_hop(), plh.h): one rule for the
 * schedules, wormsim and the kernel.
 */
u32 dcf_route(u32 side, u32 a, u32 b, struct dcf_hop *hops)
{
	u32 n = 0, port, cls;

	while (wc_plh_hop(side, a, b, &port, &cls)) {
		hops[n].node = a;
		hops[n].port = (u8)port;
		hops[n].vc = (u8)cls;
		n++;
		a = torus_step(side, a, port);
	}
	return n;
}

/* Phases of a scheme: which block, with which unit size. */
struct phase_plan {
	u32 nphases;
	const struct dcf_block *blk[2 * 6 + 1];
	u32 delta[2 * 6 + 1];
};

static void plan_phases(u32 scheme, u32 side, const struct dcf_block *blk,
			struct phase_plan *p)
{
	u32 d = 0, k, j;

	while ((1u << d) < side)
		d++;
	p->nphases = 0;
	if (scheme == DCF_SCHEME_EDN) {
		for (j = 1; j <= d; j++) {
			p->blk[p->nphases] = &dcf_zblock;
			p->delta[p->nphases++] = 1u << (d - j);
		}
		return;
	}
	/* DCF: side = 4^k or 2 * 4^k; delta = side / 4^j in phase j. */
	k = d / 2;
	for (j = 1; j <= k; j++) {
		p->blk[p->nphases] = blk;
		p->delta[p->nphases++] = side >> (2 * j);
	}
	if (d & 1) {
		p->blk[p->nphases] = &dcf_zblock;
		p->delta[p->nphases++] = 1;
	}
}

static u32 wrap_coord(u32 side, u32 c, s32 off)
{
	s64 v = ((s64)c + off) % (s64)side;

	return (u32)(v < 0 ? v + side : v);
}

/* Append unicast src -> dst to the schedule, routing it. */
static void emit(struct dcf_sched *s, u32 *nsent, u32 *last_step,
		 u32 *order, u32 src, u32 dst, u32 step, u32 phase)
{
	struct dcf_unicast *u = &s->uni[s->nuni++];

	u->src = src;
	u->dst = dst;
	u->step = step;
	u->phase = phase;
	u->seq = ++nsent[src];
	if (last_step[src] != step) {
		last_step[src] = step;
		order[src] = 0;
	}
	u->order = ++order[src];
	u->hop0 = s->nhops;
	u->nhops = dcf_route(s->side, src, dst, s->hops + s->nhops);
	s->nhops += u->nhops;
	if (step > s->nsteps)
		s->nsteps = step;
}

static int build_blocks(struct dcf_sched *s, const struct phase_plan *p,
			u32 *nsent, u32 *last_step, u32 *order)
{
	u32 *cur, *next, ncur = 1, j, i, e, base = 0;
	u32 pos[DCF_BLOCK_MAX_SENDS + 1];

	cur = wc_calloc(s->nnodes, sizeof(*cur));
	next = wc_calloc(s->nnodes, sizeof(*next));
	if (!cur || !next) {
		wc_free(cur);
		wc_free(next);
		return -ENOMEM;
	}
	cur[0] = s->src;
	for (j = 0; j < p->nphases; j++) {
		const struct dcf_block *b = p->blk[j];
		u32 nnext = 0;

		if ((u64)ncur * b->nunits > s->nnodes)
			break;	/* cannot happen for a validated plan */
		for (i = 0; i < ncur; i++) {
			pos[0] = cur[i];
			for (e = 0; e < b->nsends; e++) {
				const struct dcf_send *d = &b->send[e];
				u32 f = pos[d->from];
				u32 x = wrap_coord(s->side, f % s->side,
						   d->dx * (s32)p->delta[j]);
				u32 y = wrap_coord(s->side, f / s->side,
						   d->dy * (s32)p->delta[j]);

				pos[d->to] = x + s->side * y;
				emit(s, nsent, last_step, order, f, pos[d->to],
				     base + d->step, j + 1);
			}
			for (e = 0; e < b->nunits; e++)
				next[nnext++] = pos[e];
		}
		memcpy(cur, next, nnext * sizeof(*cur));
		ncur = nnext;
		base += b->nsteps;
	}
	s->nphases = p->nphases;
	wc_free(cur);
	wc_free(next);
	return 0;
}

/*
 * Separate addressing: farthest destinations first (they have the most to
 * gain from an early start); the j-th unicast through a port is in step j,
 * so that each step uses every output port at most once (Def. 1 (3)).
 */
static int cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

static int build_unicast(struct dcf_sched *s, u32 *nsent, u32 *last_step,
			 u32 *order)
{
	struct dcf_hop route[2 * DCF_MAX_SIDE];
	u32 per_port[DCF_NPORTS] = { 0 };
	u64 *key, m = 0;
	u32 v, i;

	key = wc_calloc(s->nnodes, sizeof(*key));
	if (!key)
		return -ENOMEM;
	/* key: (farness, node) so that the farthest come first */
	for (v = 0; v < s->nnodes; v++)
		if (v != s->src)
			key[m++] = (u64)(s->side - dcf_route(s->side, s->src,
							     v, route)) << 32 | v;
	qsort(key, m, sizeof(*key), cmp_u64);
	/* re-key with the step in front: (step, farness, node) */
	for (i = 0; i < m; i++) {
		u64 step;

		v = (u32)key[i];
		dcf_route(s->side, s->src, v, route);
		step = ++per_port[route[0].port];
		key[i] = step << 44 | (key[i] >> 32) << 20 | v;
	}
	qsort(key, m, sizeof(*key), cmp_u64);
	for (i = 0; i < m; i++)
		emit(s, nsent, last_step, order, s->src,
		     (u32)(key[i] & 0xfffff), (u32)(key[i] >> 44), 1);
	s->nphases = 1;
	wc_free(key);
	return 0;
}

int dcf_build(struct dcf_sched *s, u32 scheme, u32 side, u32 src,
	      const struct dcf_block *blk, const char **why)
{
	struct phase_plan plan;
	u32 *nsent, *last_step, *order, j, covered = 1;
	int ret;

	memset(s, 0, sizeof(*s));
	if (!dcf_side_ok(side))
		return fail(why, "torus side must be a power of two from 4 to 64");
	if (scheme > DCF_SCHEME_UNICAST)
		return fail(why, "unknown broadcast scheme");
	if (src >= side * side)
		return fail(why, "source node out of range");
	if (!blk)
		blk = &dcf_block_fig7;
	ret = dcf_block_validate(blk, why);
	if (ret)
		return ret;
	if (blk->nunits != 16)
		return fail(why, "a DCF_block has 16 units");
	plan_phases(scheme, side, blk, &plan);
	for (j = 0; j < plan.nphases; j++)
		covered *= plan.blk[j]->nunits;
	if (scheme != DCF_SCHEME_UNICAST && covered != side * side)
		return fail(why, "blocks do not cover the torus");

	s->scheme = scheme;
	s->side = side;
	s->src = src;
	s->nnodes = side * side;
	s->uni = wc_calloc(s->nnodes, sizeof(*s->uni));
	/* A dimension-ordered route has at most side hops. */
	s->hops = wc_calloc((size_t)s->nnodes * side, sizeof(*s->hops));
	nsent = wc_calloc(s->nnodes, sizeof(*nsent));
	last_step = wc_calloc(s->nnodes, sizeof(*last_step));
	order = wc_calloc(s->nnodes, sizeof(*order));
	if (!s->uni || !s->hops || !nsent || !last_step || !order) {
		ret = -ENOMEM;
		goto out;
	}
	if (scheme == DCF_SCHEME_UNICAST)
		ret = build_unicast(s, nsent, last_step, order);
	else
		ret = build_blocks(s, &plan, nsent, last_step, order);
out:
	wc_free(nsent);
	wc_free(last_step);
	wc_free(order);
	if (ret)
		dcf_free(s);
	return ret;
}

void dcf_free(struct dcf_sched *s)
{
	wc_free(s->uni);
	wc_free(s->hops);
	memset(s, 0, sizeof(*s));
}

u64 dcf_latency(const struct dcf_sched *s, const struct dcf_timing *t,
		u64 *recv, u64 *start)
{
	u64 *rt, *sw, *port_free, latest = 0;
	u32 i;

	rt = wc_calloc(s->nnodes, sizeof(*rt));
	sw = wc_calloc(s->nnodes, sizeof(*sw));
	port_free = wc_calloc((size_t)s->nnodes * DCF_NPORTS,
			      sizeof(*port_free));
	if (!rt || !sw || !port_free) {
		latest = U64_MAX;
		goto out;
	}
	for (i = 0; i < s->nuni; i++) {
		const struct dcf_unicast *u = &s->uni[i];
		u64 *pf = &port_free[u->src * DCF_NPORTS +
				     s->hops[u->hop0].port];
		u64 ready, go;

		/* sw[] is when the node finished handling its last unicast. */
		if (u->seq == 1)
			sw[u->src] = rt[u->src];
		sw[u->src] += t->ts;
		ready = sw[u->src];
		go = ready > *pf ? ready : *pf;
		*pf = go + t->len * t->tc;
		rt[u->dst] = go + (u64)u->nhops * t->tc + t->len * t->tc +
			     t->tr;
		if (rt[u->dst] > latest)
			latest = rt[u->dst];
		if (start)
			start[i] = go;
	}
	if (recv)
		memcpy(recv, rt, s->nnodes * sizeof(*rt));
out:
	wc_free(rt);
	wc_free(sw);
	wc_free(port_free);
	return latest;
}

bool dcf_closed_form(u32 scheme, u32 side, const struct dcf_timing *t,
		     u64 *latency)
{
	u64 k = 0, p4 = 1, steps, sends;
	u32 d = 0;

	if (!dcf_side_ok(side) ||
	    (scheme != DCF_SCHEME_DCF && scheme != DCF_SCHEME_EDN))
		return false;
	while ((1u << d) < side)
		d++;
	k = d / 2;
	while (p4 < ((u64)1 << (2 * k)))
		p4 *= 4;	/* p4 = 4^k */
	steps = d;	/* 2k or 2k + 1 */
	if (!(d & 1)) {
		/* 5k ts (DCF) or 6k ts (EDN) + 4(4^k - 1)/3 tc */
		sends = scheme == DCF_SCHEME_DCF ? 5 * k : 6 * k;
		*latency = sends * t->ts + 4 * (p4 - 1) / 3 * t->tc;
	} else {
		/* (5k + 3) ts or 3(2k + 1) ts, + 2(4^(k+1) - 1)/3 tc */
		sends = scheme == DCF_SCHEME_DCF ? 5 * k + 3 : 3 * (2 * k + 1);
		*latency = sends * t->ts + 2 * (4 * p4 - 1) / 3 * t->tc;
	}
	*latency += steps * t->len * t->tc + steps * t->tr;
	return true;
}
