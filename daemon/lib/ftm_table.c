// SPDX-License-Identifier: GPL-2.0
/* The ftmesh table of a mesh's fault information (ftm_table.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ftm_table.h"
#include "ftmcast.h"

_Static_assert(WC_FI_INF == WORMCAST_FTMESH_SAFETY_INF,
	       "a safety element with no block is the same word");
_Static_assert(WC_FT_NSUBNETS == WORMCAST_FTMESH_SUBNETS,
	       "the table has the four virtual subnetworks");
_Static_assert(WC_FI_MAX_SIDE <= 0xffff, "block coordinates are u16");

int wc_ftm_table_build(const struct wc_faultinfo *fi, u32 strategy, u64 seed,
		       bool detour, void **bytes, size_t *len,
		       const char **why)
{
	const u32 nsub = WORMCAST_FTMESH_SUBNETS, nn = fi->nnodes;
	struct wormcast_ftmesh_safety *sv;
	struct wormcast_ftmesh_block *bl;
	struct wormcast_ftmesh_rec *rec;
	struct wormcast_ftmesh *h;
	struct wc_fi_tables ft;
	u32 *rec_off, *fill, n, j, q;
	size_t size;
	int err;

	*bytes = NULL;
	*len = 0;
	if (strategy < WC_FTM_STRATEGY_MIN || strategy > WC_FTM_STRATEGY_MAX) {
		*why = "strategy must be 1, 2 or 3";
		return -EINVAL;
	}
	if (fi->nblocks > WORMCAST_FTMESH_MAX_BLOCKS) {
		*why = "more faulty blocks than WORMCAST_FTMESH_MAX_BLOCKS";
		return -EINVAL;
	}
	err = wc_fi_tables_build(fi, &ft);
	if (err)
		return err;
	size = wc_ftm_table_size(nn, fi->nblocks, ft.nrec);
	if (size > WORMCAST_TABLE_MAX_BYTES) {
		wc_fi_tables_free(&ft);
		*why = "the fault information is larger than WORMCAST_TABLE_MAX_BYTES";
		return -EINVAL;
	}
	h = calloc(1, size);
	fill = calloc((size_t)nsub * nn + 1, sizeof(*fill));
	if (!h || !fill) {
		free(h);
		free(fill);
		wc_fi_tables_free(&ft);
		return -ENOMEM;
	}
	h->nnodes = nn;
	h->strategy = strategy;
	h->flags = detour ? WORMCAST_FTMESH_F_DETOUR : 0;
	h->nblocks = fi->nblocks;
	h->nrecs = ft.nrec;
	h->seed = seed;
	bl = (struct wormcast_ftmesh_block *)(h + 1);
	sv = (struct wormcast_ftmesh_safety *)(bl + fi->nblocks);
	rec_off = (u32 *)(sv + nn);
	rec = (struct wormcast_ftmesh_rec *)(rec_off + nsub * nn + 1);
	for (j = 0; j < fi->nblocks; j++) {
		bl[j].x0 = (u16)fi->blocks[j].x0;
		bl[j].y0 = (u16)fi->blocks[j].y0;
		bl[j].x1 = (u16)fi->blocks[j].x1;
		bl[j].y1 = (u16)fi->blocks[j].y1;
	}
	for (n = 0; n < nn; n++) {
		sv[n].e = ft.safety[n].e;
		sv[n].s = ft.safety[n].s;
		sv[n].w = ft.safety[n].w;
		sv[n].n = ft.safety[n].n;
	}
	/*
	 * wc_fi_tables_build() lists a node's records of every subnetwork
	 * together; the table wants them subnetwork-major, each (q, n) run
	 * in the same order: count, prefix sums, then place.
	 */
	for (n = 0; n < nn; n++)
		for (j = ft.off[n]; j < ft.off[n + 1]; j++)
			rec_off[ft.rec[j].subnet * nn + n]++;
	for (q = 0, j = 0; q < nsub * nn; q++) {
		u32 cnt = rec_off[q];

		rec_off[q] = fill[q] = j;
		j += cnt;
	}
	rec_off[nsub * nn] = j;
	for (n = 0; n < nn; n++)
		for (j = ft.off[n]; j < ft.off[n + 1]; j++) {
			struct wormcast_ftmesh_rec *r =
				&rec[fill[ft.rec[j].subnet * nn + n]++];

			r->block = ft.rec[j].block;
			r->line = ft.rec[j].line;
		}
	free(fill);
	wc_fi_tables_free(&ft);
	*bytes = h;
	*len = size;
	return 0;
}

int wc_ftm_table_from_faults(const struct wc_topo *t, const u32 *nodes,
			     u32 nnodes, const u32 (*links)[2], u32 nlinks,
			     u32 strategy, u64 seed, bool detour, void **bytes,
			     size_t *len, u32 *nblocks, const char **why)
{
	struct wc_faultinfo fi;
	int err;

	*bytes = NULL;
	*len = 0;
	if (t->kind != WC_TOPO_MESH || t->ndims != 2) {
		*why = "ftmesh needs a 2-D mesh";
		return -EINVAL;
	}
	err = wc_fi_build_topo(&fi, t, nodes, nnodes, links, nlinks, why);
	if (err)
		return err;
	err = wc_ftm_table_build(&fi, strategy, seed, detour, bytes, len, why);
	if (!err && nblocks)
		*nblocks = fi.nblocks;
	wc_fi_free(&fi);
	return err;
}
