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

int wc_plans_enc_add(struct wc_plans_enc *e, const u8 *addr,
		     const struct wc_mstar *ms)
{
	struct wormcast_plan ph;
	u32 w, i, nwords = 0;
	u32 *p;

	if (!ms->nworms)
		return -EINVAL;
	if (e->has_last && (ms->src < e->last_src ||
			    (ms->src == e->last_src &&
			     memcmp(addr, e->last_addr, 6) <= 0)))
		return -EINVAL;
	for (w = 0; w < ms->nworms; w++)
		nwords += 1 + ms->worms[w].ndests;
	if (grow(e, sizeof(ph) + (size_t)nwords * 4))
		return -ENOMEM;
	memset(&ph, 0, sizeof(ph));
	memcpy(ph.addr, addr, 6);
	ph.src = ms->src;
	ph.nworms = ms->nworms;
	ph.nwords = nwords;
	memcpy(e->buf + e->len, &ph, sizeof(ph));
	e->len += sizeof(ph);
	p = (u32 *)(e->buf + e->len);
	for (w = 0; w < ms->nworms; w++) {
		*p++ = ms->worms[w].ndests;
		for (i = 0; i < ms->worms[w].ndests; i++)
			*p++ = ms->worms[w].dests[i];
	}
	e->len += (size_t)nwords * 4;
	e->nplans++;
	e->has_last = true;
	e->last_src = ms->src;
	memcpy(e->last_addr, addr, 6);
	return 0;
}

void wc_plans_enc_finish(struct wc_plans_enc *e, void **bytes, size_t *len)
{
	struct wormcast_plans h = { .nnodes = e->nnodes, .nplans = e->nplans };

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

int wc_plans_table_build(const struct wc_labeling *lb,
			 enum wc_pathplan_algo algo,
			 const struct wc_group_in *groups, u32 ngroups,
			 bool all_sources, void **bytes, size_t *len,
			 struct wc_plans_stats *st)
{
	const struct wc_group_in **order = NULL;
	u32 n = lb->topo.nnodes, src, gi, i, k;
	struct wc_plans_enc e;
	u32 *dests = NULL;
	int err;

	memset(st, 0, sizeof(*st));
	*bytes = NULL;
	*len = 0;
	if (algo != WC_PP_OCMS && algo != WC_PP_OTMS)
		return -EINVAL;
	for (gi = 0; gi < ngroups; gi++)
		for (i = 0; i < groups[gi].nmembers; i++)
			if (groups[gi].members[i] >= n)
				return -EINVAL;
	err = wc_plans_enc_init(&e, n);
	if (err)
		return err;
	order = calloc(ngroups ? ngroups : 1, sizeof(*order));
	dests = calloc(n, sizeof(*dests));
	if (!order || !dests) {
		err = -ENOMEM;
		goto out;
	}
	for (gi = 0; gi < ngroups; gi++)
		order[gi] = &groups[gi];
	qsort(order, ngroups, sizeof(*order), addr_cmp);
	for (src = 0; src < n; src++) {
		for (gi = 0; gi < ngroups; gi++) {
			const struct wc_group_in *g = order[gi];
			struct wc_mstar ms;

			if (!all_sources && !is_source(g, src))
				continue;
			for (i = 0, k = 0; i < g->nmembers; i++)
				if (g->members[i] != src)
					dests[k++] = g->members[i];
			if (!k)
				continue;
			err = wc_pathplan(lb, algo, src, dests, k, &ms);
			if (err == -E2BIG) {
				st->skipped++;
				err = 0;
				continue;
			}
			if (err)
				goto out;
			err = wc_plans_enc_add(&e, g->addr, &ms);
			st->channels += ms.channels;
			wc_mstar_free(&ms);
			if (err)
				goto out;
			st->plans++;
		}
	}
	wc_plans_enc_finish(&e, bytes, len);
out:
	free(order);
	free(dests);
	wc_plans_enc_free(&e);
	return err;
}
