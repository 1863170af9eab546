// SPDX-License-Identifier: GPL-2.0
/*
 * The ftmesh table (struct wormcast_ftmesh) against the engine's validator
 * (kmod/engine/ftm_set.c, which the kernel runs on commit):
 *  - random fault sets from wc_fi_build() on 20x20 (20, 40, 80 faulty
 *    nodes, some faulty links too), 50x50 (50, 100, 150 faulty nodes),
 *    13x37 and the largest fabric, 70x72 (300 faulty nodes, about 130,000
 *    records, 1.1 MB: within WORMCAST_TABLE_MAX_BYTES),
 *    encoded by the daemon's encoder (wc_ftm_table_build(), what wormcastd
 *    pushes): every table is accepted, and
 *    the tables it builds are the daemon's library's (wc_ftm_tables_build())
 *    node for node: in_block, safety vectors, and per subnetwork the
 *    records of every node outside the blocks, in the same order and in
 *    the same canonical rectangles;
 *  - the same tables broken in one place are refused with the right
 *    reason (a direct record dropped from a line, a record moved to a
 *    node behind its block, a safety element changed, a block grown):
 *    the test can fail.
 *
 * Routers inside a block hold no record (faultinfo.c's collect()): no
 * worm ever stands there, and the kernel refuses a table that gives them
 * one.
 */
#include <stdlib.h>
#include <string.h>

#include <linux/wormcast.h>

#include "tap.h"
#include "testutil.h"
#include "faultinfo.h"
#include "ftmcast.h"
#include "ftm_set.h"
#include "ftm_table.h"

struct blob {
	u8 *p;
	size_t len;
};

static struct wormcast_ftmesh *blob_hdr(struct blob *b)
{
	return (void *)b->p;
}

static struct wormcast_ftmesh_block *blob_blocks(struct blob *b)
{
	return (void *)(b->p + sizeof(struct wormcast_ftmesh));
}

static struct wormcast_ftmesh_safety *blob_safety(struct blob *b)
{
	return (void *)(blob_blocks(b) + blob_hdr(b)->nblocks);
}

static u32 *blob_off(struct blob *b)
{
	return (void *)(blob_safety(b) + blob_hdr(b)->nnodes);
}

static struct wormcast_ftmesh_rec *blob_recs(struct blob *b)
{
	return (void *)(blob_off(b) + WORMCAST_FTMESH_SUBNETS *
			blob_hdr(b)->nnodes + 1);
}

/* The daemon's encoder (daemon/lib/ftm_table.c), what wormcastd pushes. */
static int encode(const struct wc_faultinfo *fi, u32 strategy, u32 flags,
		  u64 seed, struct blob *b)
{
	const char *why = NULL;
	void *p = NULL;
	int err;

	memset(b, 0, sizeof(*b));
	err = wc_ftm_table_build(fi, strategy, seed,
				 flags & WORMCAST_FTMESH_F_DETOUR, &p, &b->len,
				 &why);
	if (err)
		diag("encoder: %s", why ? why : "no memory");
	b->p = p;
	return err;
}

/* Differences between the validator's tables and the library's. */
static u32 compare(const struct wc_ftm_tables *a, const struct wc_ftm_tables *b,
		   u32 nn)
{
	u32 n, q, bad = 0;

	for (n = 0; n < nn; n++) {
		bad += !a->in_block[n] != !b->in_block[n];
		bad += memcmp(a->safety + 4 * n, b->safety + 4 * n,
			      4 * sizeof(u16)) != 0;
		if (b->in_block[n])
			continue;
		for (q = 0; q < WC_FT_NSUBNETS; q++) {
			u32 i = q * nn + n, ka = a->off[i], kb = b->off[i], c;

			c = a->off[i + 1] - ka;
			if (c != b->off[i + 1] - kb) {
				bad++;
				continue;
			}
			for (; c; c--, ka++, kb++)
				bad += memcmp(&a->recs[ka].b, &b->recs[kb].b,
					      sizeof(a->recs[ka].b)) != 0 ||
				       a->recs[ka].line != b->recs[kb].line;
		}
	}
	bad += a->strategy != b->strategy || a->seed != b->seed ||
	       a->w != b->w || a->h != b->h;
	return bad;
}

/* Refused, with @want in the reason? */
static bool refused(const struct wc_topo *t, struct blob *b, const char *want)
{
	struct wc_ftm_set fs;
	const char *why = NULL;
	int err = wc_ftm_set_build(&fs, t, b->p, b->len, &why);

	if (!err) {
		wc_ftm_set_free(&fs);
		diag("accepted, wanted '%s'", want);
		return false;
	}
	if (err != -EINVAL || !why || !strstr(why, want)) {
		diag("err %d '%s', wanted '%s'", err, why ? why : "(none)", want);
		return false;
	}
	return true;
}

struct tally {
	u32 tables, accepted, same, recs, blocks;
	u32 broken, refused_right;
};

/* Break @b in one of four ways; returns the reason wanted, or NULL. */
static const char *break_one(const struct wc_faultinfo *fi, struct blob *b,
			     u32 how, u64 *rng)
{
	struct wormcast_ftmesh *h = blob_hdr(b);
	u32 nn = h->nnodes, n = 0, i, k = 0;

	switch (how) {
	case 0:	/* a safety element off by one on a node outside */
		for (i = 0; i < nn; i++) {
			n = tu_rand_mod(rng, nn);
			if (!wc_fi_in_block(fi, n))
				break;
		}
		blob_safety(b)[n].w ^= 1;
		return "safety vector is not what the blocks imply";
	case 1:	/* a block one column wider (or narrower if at the border) */
		if (!h->nblocks)
			return NULL;
		k = tu_rand_mod(rng, h->nblocks);
		if (blob_blocks(b)[k].x1 + 1u < fi->w)
			blob_blocks(b)[k].x1++;
		else if (blob_blocks(b)[k].x0 > 0)
			blob_blocks(b)[k].x0--;
		else
			return NULL;
		/* whatever the blocks now are, something disagrees */
		return "";
	case 2:	/* a direct record dropped: its node lacks it */
		for (i = 0; i < h->nrecs; i++) {
			u32 j, q, cx, cy;
			struct wc_ft_rect c;

			k = tu_rand_mod(rng, h->nrecs);
			for (j = 0; blob_off(b)[j + 1] <= k; j++)
				;
			q = j / nn;
			n = j % nn;
			wc_ft_canon_rect(q, fi->w, fi->h,
					 &fi->blocks[blob_recs(b)[k].block], &c);
			wc_ft_canon(q, fi->w, fi->h, n % fi->w, n / fi->w,
				    &cx, &cy);
			if (blob_recs(b)[k].line == WC_FT_L1 ?
			    cy == c.y0 - 1u : cx == c.x0 - 1u)
				break;
		}
		if (i == h->nrecs)
			return NULL;
		/* remove record k: later records move down by one */
		memmove(blob_recs(b) + k, blob_recs(b) + k + 1,
			(h->nrecs - k - 1) * sizeof(struct wormcast_ftmesh_rec));
		for (i = 0; i <= WORMCAST_FTMESH_SUBNETS * nn; i++)
			if (blob_off(b)[i] > k)
				blob_off(b)[i]--;
		h->nrecs--;
		b->len -= sizeof(struct wormcast_ftmesh_rec);
		return "lacks that block's record";
	default: /* a record names a block behind its holder */
		if (!h->nrecs)
			return NULL;
		k = tu_rand_mod(rng, h->nrecs);
		for (i = 0; i < h->nblocks; i++) {
			u32 j, q = 0;

			for (j = 0; blob_off(b)[j + 1] <= k; j++)
				;
			q = j / nn;
			n = j % nn;
			{
				struct wc_ft_rect c;
				u32 cx, cy;

				wc_ft_canon_rect(q, fi->w, fi->h, &fi->blocks[i], &c);
				wc_ft_canon(q, fi->w, fi->h, n % fi->w, n / fi->w,
					    &cx, &cy);
				if (cx >= c.x0 || cy >= c.y0) {
					blob_recs(b)[k].block = i;
					return "not ahead of its node";
				}
			}
		}
		return NULL;
	}
}

static void one_case(u32 w, u32 hgt, u32 nfaults, u32 nlinks, u32 trials,
		     u64 *rng)
{
	struct tally ty = { 0 };
	u32 trial, i;

	for (trial = 0; trial < trials; trial++) {
		u32 *f = calloc(nfaults + 1, sizeof(u32));
		u32 (*l)[2] = calloc(nlinks + 1, sizeof(*l));
		u32 dims[2] = { w, hgt }, strategy = 1 + trial % 2;
		u32 flags = trial % 3 == 0 ? WORMCAST_FTMESH_F_DETOUR : 0;
		struct wc_ftm_tables lib;
		struct wc_faultinfo fi;
		struct wc_ftm_set fs;
		struct wc_topo topo;
		const char *why = NULL;
		struct blob b;
		u64 seed = tu_xorshift64(rng);

		for (i = 0; i < nfaults; i++)
			f[i] = tu_rand_mod(rng, w * hgt);
		for (i = 0; i < nlinks; i++) {
			u32 n = tu_rand_mod(rng, w * hgt), x = n % w, y = n / w;

			l[i][0] = n;
			l[i][1] = x + 1 < w ? n + 1 : y + 1 < hgt ? n + w : n - 1;
		}
		if (wc_fi_build(&fi, w, hgt, f, nfaults, l, nlinks, &why) ||
		    wc_topo_init(&topo, WC_TOPO_MESH, 2, dims, &why) ||
		    encode(&fi, strategy, flags, seed, &b)) {
			diag("setup: %s", why ? why : "no memory");
			free(f);
			free(l);
			continue;
		}
		ty.tables++;
		ty.blocks += fi.nblocks;
		ty.recs += blob_hdr(&b)->nrecs;
		why = NULL;
		if (!wc_ftm_set_build(&fs, &topo, b.p, b.len, &why)) {
			ty.accepted++;
			if (!wc_ftm_tables_build(&fi, strategy, seed, &lib)) {
				ty.same += !compare(&fs.tab, &lib, fi.nnodes) &&
					   fs.tab.detour == !!flags &&
					   fs.nblocks == fi.nblocks;
				wc_ftm_tables_free(&lib);
			}
			wc_ftm_set_free(&fs);
		} else {
			diag("%ux%u, %u faults, trial %u refused: %s", w, hgt,
			     nfaults, trial, why ? why : "?");
		}
		/* one break per table, kinds in turn */
		{
			const char *want = break_one(&fi, &b, trial % 4, rng);

			if (want) {
				ty.broken++;
				ty.refused_right += refused(&topo, &b, want);
			}
		}
		free(b.p);
		wc_fi_free(&fi);
		free(f);
		free(l);
	}
	is_int(ty.accepted, ty.tables,
	       "%ux%u, %u faulty nodes, %u faulty links: %u encoded tables accepted (%u blocks, %u records)",
	       w, hgt, nfaults, nlinks, ty.tables, ty.blocks, ty.recs);
	is_int(ty.same, ty.accepted,
	       "%ux%u, %u faults: the validator's tables are wc_ftm_tables_build()'s",
	       w, hgt, nfaults);
	ok(ty.broken > 0 && ty.refused_right == ty.broken,
	   "%ux%u, %u faults: %u of %u broken tables refused for the right reason",
	   w, hgt, nfaults, ty.refused_right, ty.broken);
}

int main(void)
{
	u64 rng = 0x5eed0f7e5ab1eULL;

	one_case(20, 20, 20, 0, 20, &rng);
	one_case(20, 20, 40, 5, 20, &rng);
	one_case(20, 20, 80, 0, 12, &rng);
	one_case(50, 50, 50, 0, 8, &rng);
	one_case(50, 50, 100, 10, 8, &rng);
	one_case(50, 50, 150, 0, 8, &rng);
	one_case(13, 37, 30, 0, 12, &rng);	/* not square */
	one_case(70, 72, 300, 0, 2, &rng);	/* 5040 nodes: WC_MAX_NODES */
	return done_testing();
}
