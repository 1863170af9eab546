/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Test helper: the bytes of a WORMCAST_TABLE_FTMESH table decoded with the
 * layout of the uapi comment (written out here, not taken from the
 * encoder), and compared with the fault information they should carry.
 * Used by test_ftm_table and test_wormcastd.
 */
#ifndef WC_FTM_DECODE_H
#define WC_FTM_DECODE_H

#include <stdlib.h>
#include <string.h>
#include <linux/wormcast.h>

#include "tap.h"
#include "faultinfo.h"

struct ftm_decoded {
	struct wormcast_ftmesh h;
	const struct wormcast_ftmesh_block *blocks;
	const struct wormcast_ftmesh_safety *safety;
	const u32 *rec_off;
	const struct wormcast_ftmesh_rec *recs;
};

/* Header, then 8-byte blocks and safety vectors, u32 offsets, 8-byte records. */
static inline bool ftm_decode(const void *bytes, size_t len,
			      struct ftm_decoded *d)
{
	const unsigned char *p = bytes;
	size_t at = sizeof(d->h);

	if (!bytes || len < sizeof(d->h))
		return false;
	memcpy(&d->h, p, sizeof(d->h));
	d->blocks = (const void *)(p + at);
	at += 8 * (size_t)d->h.nblocks;
	d->safety = (const void *)(p + at);
	at += 8 * (size_t)d->h.nnodes;
	d->rec_off = (const void *)(p + at);
	at += 4 * (4 * (size_t)d->h.nnodes + 1);
	d->recs = (const void *)(p + at);
	at += 8 * (size_t)d->h.nrecs;
	return at == len;
}

/*
 * Mismatches between @d and @fi: the node count and blocks, every safety
 * vector, and per subnetwork and node exactly the records wc_fi_records()
 * lists, in its order (reserved bytes zero).  Names the first in a diag.
 */
static inline u32 ftm_check_fi(const struct ftm_decoded *d,
			       const struct wc_faultinfo *fi, const char *what)
{
	struct wc_fi_record *want = calloc(2 * fi->nblocks + 1, sizeof(*want));
	u32 bad = 0, n, q, b, i;

	if (d->h.nnodes != fi->nnodes || d->h.nblocks != fi->nblocks ||
	    d->h.reserved || !want) {
		diag("%s: header: %u nodes %u blocks, want %u and %u", what,
		     d->h.nnodes, d->h.nblocks, fi->nnodes, fi->nblocks);
		free(want);
		return 1;
	}
	for (b = 0; b < fi->nblocks; b++)
		if (d->blocks[b].x0 != fi->blocks[b].x0 ||
		    d->blocks[b].y0 != fi->blocks[b].y0 ||
		    d->blocks[b].x1 != fi->blocks[b].x1 ||
		    d->blocks[b].y1 != fi->blocks[b].y1)
			if (!bad++) diag("%s: block %u", what, b);
	for (n = 0; n < fi->nnodes; n++) {
		const struct wormcast_ftmesh_safety *s = &d->safety[n];

		if (s->e != fi->safety[n].e || s->s != fi->safety[n].s ||
		    s->w != fi->safety[n].w || s->n != fi->safety[n].n)
			if (!bad++) diag("%s: safety of node %u", what, n);
	}
	if (d->rec_off[0] || d->rec_off[4 * fi->nnodes] != d->h.nrecs) {
		diag("%s: offsets do not span the records", what);
		free(want);
		return bad + 1;
	}
	for (q = 0; q < 4; q++)
		for (n = 0; n < fi->nnodes; n++) {
			u32 lo = d->rec_off[q * fi->nnodes + n];
			u32 hi = d->rec_off[q * fi->nnodes + n + 1];
			u32 cnt = wc_fi_records(fi, n, q, want, 2 * fi->nblocks + 1);

			if (hi < lo || hi > d->h.nrecs || hi - lo != cnt) {
				if (!bad++) diag("%s: subnetwork %u node %u: %u records, want %u",
						 what, q, n, hi - lo, cnt);
				continue;
			}
			for (i = 0; i < cnt; i++) {
				const struct wormcast_ftmesh_rec *r = &d->recs[lo + i];

				if (r->block != want[i].block || r->line != want[i].line ||
				    r->reserved[0] || r->reserved[1] || r->reserved[2])
					if (!bad++) diag("%s: subnetwork %u node %u record %u",
							 what, q, n, i);
			}
		}
	free(want);
	return bad;
}

#endif /* WC_FTM_DECODE_H */
