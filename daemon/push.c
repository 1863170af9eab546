// SPDX-License-Identifier: GPL-2.0
/* wormcastd: table decisions and transactions (push.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <linux/wormcast.h>

#include "push.h"
#include "mcast_kind.h"

bool wcd_kind_has_scheme(uint32_t kind)
{
	return kind == WORMCAST_TABLE_TREES || kind == WORMCAST_TABLE_LABELS ||
	       kind == WORMCAST_TABLE_BCAST;
}

enum wcd_action wcd_decide(const struct wcd_fabric_view *v)
{
	uint32_t kind, i;

	if (!v->has_scheme)
		return WCD_NO_SCHEME;
	kind = wc_mcast_table_kind(v->scheme);
	if (!kind)
		return WCD_UNICAST;
	for (i = 0; i < v->ntables; i++) {
		const struct wcd_table_info *t = &v->tables[i];

		/*
		 * The table of the scheme's kind, whatever its generation: a
		 * table of another kind committed since (a plans table of
		 * ocms/otms) moves the fabric's generation, not this table.
		 */
		if (t->kind != kind || !t->gen)
			continue;
		if (!v->table_scheme_known || v->table_kind != kind)
			return WCD_READ_SCHEME;
		return v->table_scheme == v->scheme && !v->stale ?
		       WCD_UP_TO_DATE : WCD_PUSH;
	}
	return WCD_PUSH;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* Sort @v and drop repeats; the new count. */
static uint32_t sort_unique(uint32_t *v, uint32_t n)
{
	uint32_t i, k = 0;

	if (!n)
		return 0;
	qsort(v, n, sizeof(*v), cmp_u32);
	for (i = 0; i < n; i++)
		if (!k || v[k - 1] != v[i])
			v[k++] = v[i];
	return k;
}

/* Replace *@have (*@nhave ids) by *@got; whether the set changed. */
static bool replace_set(uint32_t **have, uint32_t *nhave, uint32_t **got,
			uint32_t ngot)
{
	bool changed;

	ngot = sort_unique(*got, ngot);
	changed = ngot != *nhave ||
		  (ngot && memcmp(*have, *got, ngot * sizeof(**got)));
	free(*have);
	*have = *got;
	*got = NULL;
	*nhave = ngot;
	return changed;
}

void wcd_faults_update(struct wcd_faults *f, uint32_t **links,
		       uint32_t nlinks, uint32_t **nodes, uint32_t nnodes)
{
	bool links_changed = replace_set(&f->links, &f->nlinks, links, nlinks);
	bool nodes_changed = replace_set(&f->nodes, &f->nnodes, nodes, nnodes);

	if (!f->known || links_changed || nodes_changed)
		f->seq++;
	f->known = true;
	f->dirty = false;
}

void wcd_faults_free(struct wcd_faults *f)
{
	free(f->links);
	free(f->nodes);
	memset(f, 0, sizeof(*f));
}

/* Tables that carry the dead links: trees (spam, two-tree), labels. */
bool wcd_carries_links(uint32_t scheme)
{
	uint32_t kind = wc_mcast_table_kind(scheme);

	return kind == WORMCAST_TABLE_TREES || kind == WORMCAST_TABLE_LABELS;
}

bool wcd_follows_faults(uint32_t scheme)
{
	return wcd_carries_links(scheme) || scheme == WORMCAST_MCAST_FTMESH;
}

bool wcd_faults_stale(const struct wcd_faults *f, uint32_t scheme, bool ours,
		      uint32_t pushed_seq)
{
	if (!wcd_follows_faults(scheme) || !f->known)
		return false;
	if (ours)
		return pushed_seq != f->seq;
	/* someone else's carries none (an ftmesh table is compared anyway) */
	return !wcd_carries_links(scheme) || f->nlinks || f->nnodes;
}

const char *wcd_action_name(enum wcd_action a)
{
	switch (a) {
	case WCD_NO_SCHEME:
		return "no scheme reported";
	case WCD_UNICAST:
		return "unicast, no table";
	case WCD_UP_TO_DATE:
		return "up to date";
	case WCD_READ_SCHEME:
		return "read the table's scheme";
	case WCD_PUSH:
		return "push";
	}
	return "?";
}

int wcd_push_table(const struct wcd_push_ops *ops, void *ctx, uint32_t kind,
		   const void *table, size_t len, uint32_t gen,
		   uint32_t chunk_max, uint32_t *new_gen, const char **stage)
{
	const unsigned char *p = table;
	uint32_t txn = 0, off = 0;
	int err;

	*stage = NULL;
	if (!len || len > WORMCAST_TABLE_MAX_BYTES || !chunk_max) {
		*stage = "TABLE_NEW";
		return -EINVAL;
	}
	if (chunk_max > WORMCAST_TABLE_CHUNK_MAX)
		chunk_max = WORMCAST_TABLE_CHUNK_MAX;
	err = ops->table_new(ctx, kind, (uint32_t)len, gen, &txn);
	if (err) {
		*stage = "TABLE_NEW";
		return err;
	}
	while (off < len) {
		uint32_t n = len - off < chunk_max ? (uint32_t)(len - off) : chunk_max;

		err = ops->chunk(ctx, txn, off, p + off, n);
		if (err) {
			*stage = "TABLE_CHUNK";
			goto abort;
		}
		off += n;
	}
	err = ops->commit(ctx, txn, new_gen);
	if (!err)
		return 0;
	*stage = "TABLE_COMMIT";
abort:
	ops->abort(ctx, txn);	/* a refused transaction may still be open */
	return err;
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

int wcd_sync_fabric(const struct wcd_sync_ops *ops, void *ctx,
		    struct wcd_fabric_view *v, uint32_t tries,
		    uint32_t chunk_max, struct wcd_sync_result *res)
{
	void *table = NULL;
	size_t len = 0;
	uint32_t table_scheme = 0;
	bool have_table = false;
	int err = 0;

	memset(res, 0, sizeof(*res));
	for (;;) {
		uint32_t kind = wc_mcast_table_kind(v->scheme);
		double t0;

		res->action = wcd_decide(v);
		res->scheme = v->scheme;
		res->gen = v->gen;
		if (res->action != WCD_PUSH && res->action != WCD_READ_SCHEME)
			break;
		if (res->action == WCD_READ_SCHEME && wcd_kind_has_scheme(kind)) {
			err = ops->read_table_scheme(ctx, v, kind);
			if (err) {
				res->stage = "TABLE_GET";
				break;
			}
			if (!v->table_scheme_known || v->table_kind != kind) {
				/* no bytes came back: treat as absent */
				v->table_scheme_known = true;
				v->table_kind = kind;
				v->table_scheme = UINT32_MAX;
			}
			continue;
		}
		if (res->action == WCD_PUSH && res->attempts >= tries) {
			err = -EAGAIN;
			break;
		}
		/* The topology is fixed; the scheme may have changed. */
		if (!have_table || table_scheme != v->scheme) {
			free(table);
			table = NULL;
			t0 = now_ms();
			err = ops->compute(ctx, v, v->scheme, &table, &len);
			res->compute_ms = now_ms() - t0;
			if (err) {
				res->stage = "compute";
				break;
			}
			have_table = true;
			table_scheme = v->scheme;
		}
		if (res->action == WCD_READ_SCHEME) {
			/* no scheme word: the kernel's bytes against ours */
			void *theirs = NULL;
			size_t tlen = 0;

			err = ops->read_table(ctx, v, kind, &theirs, &tlen);
			if (err) {
				res->stage = "TABLE_GET";
				break;
			}
			res->compared = true;
			res->adopted = tlen == len && !memcmp(theirs, table, len);
			free(theirs);
			v->table_scheme_known = true;
			v->table_kind = kind;
			v->table_scheme = res->adopted ? v->scheme : UINT32_MAX;
			continue;
		}
		res->adopted = false;
		res->attempts++;
		res->bytes = len;
		t0 = now_ms();
		err = wcd_push_table(&ops->push, ctx, wc_mcast_table_kind(table_scheme),
				     table, len, v->gen, chunk_max, &res->gen,
				     &res->stage);
		res->push_ms = now_ms() - t0;
		if (!err)
			break;
		if (err != -EAGAIN)
			break;
		/* The generation moved: look again. */
		err = ops->refresh(ctx, v);
		if (err) {
			res->stage = "FABRIC_GET";
			break;
		}
		res->stage = NULL;
	}
	free(table);
	res->err = err;
	return err;
}
