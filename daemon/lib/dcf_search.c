// SPDX-License-Identifier: GPL-2.0
/*
 * The search that reconstructs the DCF_block of Fig. 7, which the text of
 * the paper describes but does not print.
 *
 * What the text fixes (sections 5.2, 5.3 and 6.1), in units of delta and
 * relative to the block source S = (0, 0):
 *  - 16 units, two steps; the units tile the torus, so their offsets are
 *    16 distinct residues modulo 4 in each coordinate;
 *  - step 1: S -> A = (2, 1) (the proof of Theorem 4 routes it through the
 *    sources (1, 0) and (2, 0) of Q_b and Q_c), then B at distance 2, then
 *    C and D at distance 1, in that order (6.1: A, B, C, D are received at
 *    ts + 3d, 2ts + 2d, 3ts + d, 4ts + d);
 *  - step 2: S -> (1, 0) (Theorem 4: same first channel as S -> A); A, B,
 *    C, D send 4, 3, 2 and 1 unicasts (each node ends its phase at 5 ts).
 *    A's four go to its neighbours (6.1: its last one arrives at 5ts + 4d,
 *    so every one of them has length d).
 * The search enumerates B, C, D and the targets of B, C and D (each at most
 * max_reach <= 3 delta from its sender, the longest handled first) and
 * keeps the candidates that are valid broadcasts, depth contention-free
 * from every source (or node 0) on every torus side given, with the
 * closed-form latency of 6.1.
 */
#include <stdlib.h>

#include "dcf.h"

#define MAX_REACH	3	/* longest step-2 unicast of B, C, D (delta) */

struct vec {
	s8 x;
	s8 y;
};

struct search_ctx {
	u32 model;
	s32 reach;		/* longest step-2 unicast of B, C, D */
	bool origin_only;	/* check from node 0 only */
	bool timed;		/* contention = overlap in time, not Thm. 1 */
	const u32 *sides;
	u32 nsides;
	u32 max_kept;
	struct dcf_search *res;
	struct dcf_block cand;
	struct vec pos[16];		/* offsets of the units from S */
	u32 free_res[16];		/* residues still to cover */
	u32 nfree;
	/* Targets of B, C, D (labels 2, 3, 4) as they are chosen. */
	struct vec tgt[3][3];
	u32 ntgt[3];
};

static const u32 capacity[3] = { 3, 2, 1 };	/* B, C, D */

static u32 l1(struct vec v)
{
	return (u32)abs(v.x) + (u32)abs(v.y);
}

static u32 residue(struct vec v)
{
	return (u32)(v.x & 3) + 4 * (u32)(v.y & 3);
}

/* Timings the latency must match the closed form for. */
static const struct dcf_timing timings[] = {
	{ .ts = 1, .tc = 0, .tr = 0, .len = 0 },
	{ .ts = 0, .tc = 1, .tr = 0, .len = 0 },
	{ .ts = 0, .tc = 1, .tr = 0, .len = 32 },
	{ .ts = 3, .tc = 5, .tr = 2, .len = 7 },
	{ .ts = 200, .tc = 1, .tr = 200, .len = 64 },
};

/* The settings of Figs. 8 and 9 (32x32, L = 32), for the timed criterion. */
static const struct dcf_timing fig_timings[] = {
	{ .ts = 0, .tc = 1, .tr = 0, .len = 32 },
	{ .ts = 200, .tc = 1, .tr = 200, .len = 32 },
};

/* A valid broadcast in d steps with no overlap in time on any channel. */
static bool timed_clean(const struct dcf_report *r, u32 side)
{
	return !r->missing && !r->duplicates && !r->premature &&
	       !r->port_clashes && !r->bad_routes && !r->timed_pairs &&
	       r->nsteps == (u32)__builtin_ctz(side);
}

/*
 * Exact latency of our schedules: the closed form, except that on
 * (2*4^k)^2 tori the last (Z_block) phase takes max(ts + 2tc, 3ts + tc)
 * where the paper adds ts and tc maxima separately (3ts + 2tc).
 */
static u64 expected_latency(u32 side, const struct dcf_timing *t)
{
	u64 lat = 0, slack;
	u32 d = 0;

	dcf_closed_form(DCF_SCHEME_DCF, side, t, &lat);
	while ((1u << d) < side)
		d++;
	if (!(d & 1))
		return lat;
	slack = 2 * t->ts < t->tc ? 2 * t->ts : t->tc;
	return lat - slack;
}

/* One schedule check; true if clean (and latency right if asked). */
static bool passes(const struct search_ctx *c, u32 side, u32 src,
		   bool latency)
{
	struct dcf_sched s;
	struct dcf_report r;
	bool good;
	u32 i;

	if (dcf_build(&s, DCF_SCHEME_DCF, side, src, &c->cand, NULL))
		return false;
	if (c->timed) {
		/* Contention = an overlap in time under Figs. 8 and 9. */
		good = true;
		for (i = 0; good && i < ARRAY_SIZE(fig_timings); i++)
			good = !dcf_check(&s, c->model, &fig_timings[i], &r) &&
			       timed_clean(&r, side);
	} else {
		good = !dcf_check(&s, c->model, &timings[0], &r) &&
		       dcf_report_clean(&r) &&
		       r.nsteps == (u32)__builtin_ctz(side);
	}
	for (i = 0; good && latency && i < ARRAY_SIZE(timings); i++)
		good = dcf_latency(&s, &timings[i], NULL, NULL) ==
		       expected_latency(side, &timings[i]);
	dcf_free(&s);
	return good;
}

static u64 unit_time_sum(const struct search_ctx *c)
{
	static const struct dcf_timing unit = { .ts = 1, .tc = 1 };
	struct dcf_sched s;
	u64 recv[16], sum = 0;
	u32 i;

	if (dcf_build(&s, DCF_SCHEME_DCF, 4, 0, &c->cand, NULL))
		return U64_MAX;
	dcf_latency(&s, &unit, recv, NULL);
	for (i = 0; i < 16; i++)
		sum += recv[i];
	dcf_free(&s);
	return sum;
}

static void evaluate(struct search_ctx *c)
{
	struct dcf_search *res = c->res;
	u32 i, src, hops;
	u64 sum;

	res->examined++;
	if (!passes(c, 4, 0, false)) {
		/* Distinguish broken broadcasts from contending ones. */
		struct dcf_sched s;
		struct dcf_report r;

		if (!dcf_build(&s, DCF_SCHEME_DCF, 4, 0, &c->cand, NULL)) {
			if (!dcf_check(&s, c->model, &timings[0], &r) &&
			    !r.missing && !r.duplicates && !r.port_clashes)
				res->structural++;
			dcf_free(&s);
		}
		return;
	}
	res->structural++;
	for (i = 0; i < c->nsides; i++)
		for (src = 0; src < (c->origin_only ? 1 :
				     c->sides[i] * c->sides[i]); src++)
			if (!passes(c, c->sides[i], src, false))
				return;
	res->contention_free++;
	for (i = 0; i < c->nsides; i++)
		if (!passes(c, c->sides[i], 0, true))
			return;
	res->valid++;
	if (res->nkept < c->max_kept)
		res->kept[res->nkept++] = c->cand;
	hops = dcf_block_hops(&c->cand);
	sum = unit_time_sum(c);
	if (res->valid == 1 || hops < res->best_hops ||
	    (hops == res->best_hops && sum < res->best_sum)) {
		res->best = c->cand;
		res->best_hops = hops;
		res->best_sum = sum;
	}
}

/* Fill send[9..14] from tgt[][], each sender's longest unicast first. */
static void emit_targets(struct search_ctx *c)
{
	u32 k, i, j, e = 9, label = 10;

	for (k = 0; k < 3; k++) {
		struct vec t[3];

		memcpy(t, c->tgt[k], sizeof(t));
		for (i = 0; i < c->ntgt[k]; i++)
			for (j = i + 1; j < c->ntgt[k]; j++)
				if (l1(t[j]) > l1(t[i])) {
					struct vec x = t[i];

					t[i] = t[j];
					t[j] = x;
				}
		for (i = 0; i < c->ntgt[k]; i++, e++, label++) {
			c->cand.send[e].from = (u8)(2 + k);
			c->cand.send[e].to = (u8)label;
			c->cand.send[e].dx = t[i].x;
			c->cand.send[e].dy = t[i].y;
			c->cand.send[e].step = 2;
		}
	}
}

/* Give free residue @idx to B, C or D with every representative. */
static void assign(struct search_ctx *c, u32 idx)
{
	u32 k;
	s32 dx, dy;

	if (idx == c->nfree) {
		emit_targets(c);
		evaluate(c);
		return;
	}
	for (k = 0; k < 3; k++) {
		struct vec from = c->pos[2 + k];

		if (c->ntgt[k] == capacity[k])
			continue;
		for (dy = -c->reach; dy <= c->reach; dy++)
			for (dx = -c->reach; dx <= c->reach; dx++) {
				struct vec v = { (s8)dx, (s8)dy };
				struct vec at = { (s8)(from.x + dx),
						  (s8)(from.y + dy) };

				if (!l1(v) || l1(v) > (u32)c->reach ||
				    residue(at) != c->free_res[idx])
					continue;
				c->tgt[k][c->ntgt[k]++] = v;
				assign(c, idx + 1);
				c->ntgt[k]--;
			}
	}
}

static const struct vec ring1[] = { { 1, 0 }, { -1, 0 }, { 0, 1 }, { 0, -1 } };
static const struct vec ring2[] = {
	{ 2, 0 }, { -2, 0 }, { 0, 2 }, { 0, -2 },
	{ 1, 1 }, { 1, -1 }, { -1, 1 }, { -1, -1 },
};

int dcf_search_blocks(u32 model, const u32 *sides, u32 nsides,
		      u32 max_kept, struct dcf_search *res)
{
	struct dcf_search_opts o = { .model = model, .max_reach = MAX_REACH };

	return dcf_search_blocks_opts(&o, sides, nsides, max_kept, res);
}

int dcf_search_blocks_opts(const struct dcf_search_opts *o, const u32 *sides,
			   u32 nsides, u32 max_kept, struct dcf_search *res)
{
	static const struct vec a = { 2, 1 }, e = { 1, 0 };
	struct search_ctx *c;
	u32 ib, ic, id, i;

	memset(res, 0, sizeof(*res));
	if (o->model & ~DCF_MODEL_MASK || o->max_reach < 1 ||
	    o->max_reach > MAX_REACH)
		return -EINVAL;
	for (i = 0; i < nsides; i++)
		if (!dcf_side_ok(sides[i]))
			return -EINVAL;
	c = wc_zalloc(sizeof(*c));
	res->kept = wc_calloc(max_kept, sizeof(*res->kept));
	if (!c || !res->kept) {
		wc_free(c);
		dcf_search_free(res);
		return -ENOMEM;
	}
	c->model = o->model;
	c->reach = (s32)o->max_reach;
	c->origin_only = o->origin_only;
	c->timed = o->timed;
	c->sides = sides;
	c->nsides = nsides;
	c->max_kept = max_kept;
	c->res = res;
	c->cand.name = "search candidate";
	c->cand.nunits = 16;
	c->cand.nsteps = 2;
	c->cand.nsends = 15;
	for (ib = 0; ib < ARRAY_SIZE(ring2); ib++)
		for (ic = 0; ic < ARRAY_SIZE(ring1); ic++)
			for (id = 0; id < ARRAY_SIZE(ring1); id++) {
				u32 used = 0, r;
				bool clash = false;

				c->pos[0] = (struct vec){ 0, 0 };
				c->pos[1] = a;
				c->pos[2] = ring2[ib];
				c->pos[3] = ring1[ic];
				c->pos[4] = ring1[id];
				c->pos[5] = e;
				for (i = 0; i < 4; i++)
					c->pos[6 + i] = (struct vec){
						(s8)(a.x + ring1[i].x),
						(s8)(a.y + ring1[i].y) };
				for (i = 0; i < 10; i++) {
					r = residue(c->pos[i]);
					clash |= !!(used & (1u << r));
					used |= 1u << r;
				}
				if (clash)
					continue;
				c->nfree = 0;
				for (r = 0; r < 16; r++)
					if (!(used & (1u << r)))
						c->free_res[c->nfree++] = r;
				/* step 1: A, B, C, D; step 2: S, then A's four */
				for (i = 0; i < 5; i++) {
					c->cand.send[i].from = 0;
					c->cand.send[i].to = (u8)(i + 1);
					c->cand.send[i].dx = c->pos[i + 1].x;
					c->cand.send[i].dy = c->pos[i + 1].y;
					c->cand.send[i].step = i < 4 ? 1 : 2;
				}
				for (i = 0; i < 4; i++) {
					c->cand.send[5 + i].from = 1;
					c->cand.send[5 + i].to = (u8)(6 + i);
					c->cand.send[5 + i].dx = ring1[i].x;
					c->cand.send[5 + i].dy = ring1[i].y;
					c->cand.send[5 + i].step = 2;
				}
				memset(c->ntgt, 0, sizeof(c->ntgt));
				assign(c, 0);
			}
	wc_free(c);
	return 0;
}

void dcf_search_free(struct dcf_search *res)
{
	wc_free(res->kept);
	res->kept = NULL;
	res->nkept = 0;
}
