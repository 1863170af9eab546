// SPDX-License-Identifier: GPL-2.0
/* The plans table of the ocms and otms schemes; see plans_table.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "plans_table.h"

static int grow(struct wc_plans_enc *e, size_t more)
{
	size_t cap = e->cap;
	u8 *b;

	if (e->len + more <= e->cap)
		return 0;
	while (cap < e->len + more)
		cap = cap ? 2 * cap : 4096;
	b = realloc(e->buf, cap);
	if (!b)
		return -ENOMEM;
	e->buf = b;
	e->cap = cap;
	return 0;
}

int wc_plans_enc_init(struct wc_plans_enc *e, u32 nnodes)
{
	memset(e, 0, sizeof(*e));
	e->nnodes = nnodes;
	if (grow(e, sizeof(struct wormcast_plans)))
		return -ENOMEM;
	memset(e->buf, 0, sizeof(struct wormcast_plans));
	e->len = sizeof(struct wormcast_plans);
	return 0;
}

/* Append the header of a plan of @nwords words; the words' room follows. */
static u32 *enc_begin(struct wc_plans_enc *e, const u8 *addr, u32 src,
		      u32 nworms, u32 nwords, int *err)
{
	struct wormcast_plan ph;
	u32 *p;

	*err = -EINVAL;
	if (!nworms)
		return NULL;
	if (e->has_last && (src < e->last_src ||
			    (src == e->last_src &&
			     memcmp(addr, e->last_addr, 6) <= 0)))
		return NULL;
	*err = -ENOMEM;
	if (grow(e, sizeof(ph) + (size_t)nwords * 4))
		return NULL;
	memset(&ph, 0, sizeof(ph));
	memcpy(ph.addr, addr, 6);
	ph.src = src;
	ph.nworms = nworms;
	ph.nwords = nwords;
	memcpy(e->buf + e->len, &ph, sizeof(ph));
	e->len += sizeof(ph);
	p = (u32 *)(e->buf + e->len);
	e->len += (size_t)nwords * 4;
	e->nplans++;
	e->has_last = true;
	e->last_src = src;
	memcpy(e->last_addr, addr, 6);
	*err = 0;
	return p;
}

int wc_plans_enc_add(struct wc_plans_enc *e, const u8 *addr,
		     const struct wc_mstar *ms)
{
	u32 w, i, nwords = 0;
	u32 *p;
	int err;

	for (w = 0; w < ms->nworms; w++)
		nwords += 1 + ms->worms[w].ndests;
	p = enc_begin(e, addr, ms->src, ms->nworms, nwords, &err);
	if (!p)
		return err;
	for (w = 0; w < ms->nworms; w++) {
		*p++ = ms->worms[w].ndests;
		for (i = 0; i < ms->worms[w].ndests; i++)
			*p++ = ms->worms[w].dests[i];
	}
	return 0;
}

int wc_plans_enc_add_words(struct wc_plans_enc *e, const u8 *addr, u32 src,
			   u32 nworms, const u32 *words, u32 nwords)
{
	u32 *p;
	int err;

	p = enc_begin(e, addr, src, nworms, nwords, &err);
	if (p)
		memcpy(p, words, (size_t)nwords * 4);
	return err;
}

void wc_plans_enc_finish(struct wc_plans_enc *e, void **bytes, size_t *len)
{
	struct wormcast_plans h = {
		.nnodes = e->nnodes, .nplans = e->nplans, .scheme = e->scheme,
	};

	memcpy(e->buf, &h, sizeof(h));
	*bytes = e->buf;
	*len = e->len;
	e->buf = NULL;
	e->len = e->cap = 0;
}

void wc_plans_enc_free(struct wc_plans_enc *e)
{
	free(e->buf);
	memset(e, 0, sizeof(*e));
}

static int addr_cmp(const void *a, const void *b)
{
	const struct wc_group_in *x = *(const struct wc_group_in *const *)a;
	const struct wc_group_in *y = *(const struct wc_group_in *const *)b;

	return memcmp(x->addr, y->addr, 6);
}

static int u32_cmp(const void *a, const void *b)
{
	u32 x = *(const u32 *)a, y = *(const u32 *)b;

	return x < y ? -1 : x > y;
}

static bool is_source(const struct wc_group_in *g, u32 v)
{
	return g->nsources &&
	       bsearch(&v, g->sources, g->nsources, sizeof(v), u32_cmp);
}

/* Plan one (source, group) pair and add it to @e, or count it skipped. */
typedef int (*plan_pair_fn)(void *ctx, struct wc_plans_enc *e, const u8 *addr,
			    u32 src, const u32 *dests, u32 k,
			    struct wc_plans_stats *st);

/*
 * Every pair of @groups, in (source, address) order: all sources when
 * @all_sources, else the group's listed ones; the destinations of a
 * source are the group's receivers but itself (none: no plan).
 */
static int plans_build(u32 n, const struct wc_group_in *groups, u32 ngroups,
		       bool all_sources, plan_pair_fn plan, void *ctx,
		       struct wc_plans_enc *e, struct wc_plans_stats *st)
{
	const struct wc_group_in **order = NULL;
	u32 src, gi, i, k;
	u32 *dests = NULL;
	int err = 0;

	for (gi = 0; gi < ngroups; gi++)
		for (i = 0; i < groups[gi].nmembers; i++)
			if (groups[gi].members[i] >= n)
				return -EINVAL;
	order = calloc(ngroups ? ngroups : 1, sizeof(*order));
	dests = calloc(n, sizeof(*dests));
	if (!order || !dests) {
		err = -ENOMEM;
		goto out;
	}
	for (gi = 0; gi < ngroups; gi++)
		order[gi] = &groups[gi];
	qsort(order, ngroups, sizeof(*order), addr_cmp);
	for (src = 0; src < n && !err; src++) {
		for (gi = 0; gi < ngroups && !err; gi++) {
			const struct wc_group_in *g = order[gi];

			if (!all_sources && !is_source(g, src))
				continue;
			for (i = 0, k = 0; i < g->nmembers; i++)
				if (g->members[i] != src)
					dests[k++] = g->members[i];
			if (k)
				err = plan(ctx, e, g->addr, src, dests, k, st);
		}
	}
out:
	free(order);
	free(dests);
	return err;
}

struct mstar_ctx {
	const struct wc_labeling *lb;
	enum wc_pathplan_algo algo;
};

static int plan_mstar(void *ctx, struct wc_plans_enc *e, const u8 *addr,
		      u32 src, const u32 *dests, u32 k,
		      struct wc_plans_stats *st)
{
	const struct mstar_ctx *c = ctx;
	struct wc_mstar ms;
	int err;

	err = wc_pathplan(c->lb, c->algo, src, dests, k, &ms);
	if (err == -E2BIG) {
		st->skipped++;
		return 0;
	}
	if (err)
		return err;
	err = wc_plans_enc_add(e, addr, &ms);
	st->channels += ms.channels;
	wc_mstar_free(&ms);
	if (!err)
		st->plans++;
	return err;
}

int wc_plans_table_build(const struct wc_labeling *lb,
			 enum wc_pathplan_algo algo,
			 const struct wc_group_in *groups, u32 ngroups,
			 bool all_sources, void **bytes, size_t *len,
			 struct wc_plans_stats *st)
{
	struct mstar_ctx c = { .lb = lb, .algo = algo };
	struct wc_plans_enc e;
	int err;

	memset(st, 0, sizeof(*st));
	*bytes = NULL;
	*len = 0;
	if (algo != WC_PP_OCMS && algo != WC_PP_OTMS)
		return -EINVAL;
	err = wc_plans_enc_init(&e, lb->topo.nnodes);
	if (err)
		return err;
	err = plans_build(lb->topo.nnodes, groups, ngroups, all_sources,
			  plan_mstar, &c, &e, st);
	if (!err)
		wc_plans_enc_finish(&e, bytes, len);
	wc_plans_enc_free(&e);
	return err;
}

static int plan_ftm(void *ctx, struct wc_plans_enc *e, const u8 *addr,
		    u32 src, const u32 *dests, u32 k, struct wc_plans_stats *st)
{
	const struct wc_ft_plan_opts o = { .strategy = WC_FT_STRATEGY3 };
	const struct wc_faultinfo *fi = ctx;
	struct wc_ft_plan p;
	u32 *words, nworms;
	int n, err;

	if (wc_fi_in_block(fi, src)) {
		st->skipped++;		/* it sends nothing minimal */
		return 0;
	}
	err = wc_ft_plan(fi, src, dests, k, &o, &p, NULL);
	if (err)
		return err;
	words = calloc(k + WC_FT_NSUBNETS + 1, sizeof(*words));
	if (!words) {
		wc_ft_plan_free(&p);
		return -ENOMEM;
	}
	n = wc_ft_plan_worms(fi, &p, words, &nworms);
	if (n == -E2BIG || !n) {
		st->skipped++;		/* too many choices, or none reached */
	} else {
		err = wc_plans_enc_add_words(e, addr, src, nworms, words,
					     (u32)n);
		st->channels += p.nhops;
		st->plans += !err;
	}
	free(words);
	wc_ft_plan_free(&p);
	return err;
}

int wc_ftm_plans_table_build(const struct wc_faultinfo *fi,
			     const struct wc_group_in *groups, u32 ngroups,
			     bool all_sources, void **bytes, size_t *len,
			     struct wc_plans_stats *st)
{
	struct wc_plans_enc e;
	int err;

	memset(st, 0, sizeof(*st));
	*bytes = NULL;
	*len = 0;
	err = wc_plans_enc_init(&e, fi->nnodes);
	if (err)
		return err;
	e.scheme = WORMCAST_MCAST_FTMESH;
	err = plans_build(fi->nnodes, groups, ngroups, all_sources, plan_ftm,
			  (void *)fi, &e, st);
	if (!err)
		wc_plans_enc_finish(&e, bytes, len);
	wc_plans_enc_free(&e);
	return err;
}
