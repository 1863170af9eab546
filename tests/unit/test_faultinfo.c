// SPDX-License-Identifier: GPL-2.0
/*
 * Fault blocks, safety vectors, extended safety and adjacent-line records
 * (daemon/lib/faultinfo.c), each against a brute-force definition.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "faultinfo.h"
#include "tap.h"
#include "testutil.h"

static u64 rng_state = 88172645463325252ull;

static u32 rnd(u32 n)
{
	return tu_rand_hi(&rng_state, n);
}

/* Definition 1 by repeated full sweeps (no worklist). */
static void naive_blocks(u32 w, u32 h, const u32 *f, u32 nf, u8 *bad)
{
	bool changed = true;
	u32 i, x, y;

	memset(bad, 0, w * h);
	for (i = 0; i < nf; i++)
		bad[f[i]] = 1;
	while (changed) {
		changed = false;
		for (y = 0; y < h; y++)
			for (x = 0; x < w; x++) {
				u32 n = x + w * y;
				bool bx, by;

				if (bad[n])
					continue;
				bx = (x > 0 && bad[n - 1]) || (x + 1 < w && bad[n + 1]);
				by = (y > 0 && bad[n - w]) || (y + 1 < h && bad[n + w]);
				if (bx && by) {
					bad[n] = 1;
					changed = true;
				}
			}
	}
}

/* Hops from n to the first block node in direction (dx, dy), or INF. */
static u32 walk(const struct wc_faultinfo *fi, u32 n, int dx, int dy)
{
	int x = (int)wc_fi_x(fi, n), y = (int)wc_fi_y(fi, n), k;

	for (k = 1;; k++) {
		int xx = x + k * dx, yy = y + k * dy;

		if (xx < 0 || yy < 0 || xx >= (int)fi->w || yy >= (int)fi->h)
			return WC_FI_INF;
		if (wc_fi_in_block(fi, wc_fi_node(fi, xx, yy)))
			return (u32)k;
	}
}

/* Shortest path length avoiding blocks, or U32_MAX. */
static u32 bfs(const struct wc_faultinfo *fi, u32 s, u32 t)
{
	u32 *dist = malloc(fi->nnodes * sizeof(u32));
	u32 *q = malloc(fi->nnodes * sizeof(u32));
	u32 r = tu_fi_bfs(fi, s, t, dist, q);

	free(dist);
	free(q);
	return r;
}

static void test_paper_example(void)
{
	struct wc_faultinfo fi;
	u32 f[3];
	const char *why = NULL;
	int err;

	/* Section 3.3: (1,1), (2,2), (4,2) give two blocks. */
	f[0] = 1 + 8 * 1;
	f[1] = 2 + 8 * 2;
	f[2] = 4 + 8 * 2;
	err = wc_fi_build(&fi, 8, 8, f, 3, NULL, 0, &why);
	is_int(err, 0, "paper example builds");
	is_int(fi.nblocks, 2, "paper example: two faulty blocks");
	if (fi.nblocks == 2) {
		const struct wc_ft_rect *a = &fi.blocks[0], *b = &fi.blocks[1];

		ok(a->x0 == 1 && a->y0 == 1 && a->x1 == 2 && a->y1 == 2,
		   "block {(1,1),(1,2),(2,1),(2,2)}");
		ok(b->x0 == 4 && b->y0 == 2 && b->x1 == 4 && b->y1 == 2,
		   "block {(4,2)}");
	}
	ok(!fi.faulty[1 + 8 * 2] && wc_fi_in_block(&fi, 1 + 8 * 2),
	   "(1,2) is disabled, not faulty");
	ok(!wc_fi_in_block(&fi, 3 + 8 * 2), "(3,2) stays healthy");
	wc_fi_free(&fi);
}

static void test_links_and_input(void)
{
	struct wc_faultinfo fi;
	u32 link[1][2] = { { 3 + 10 * 3, 4 + 10 * 3 } };
	u32 badlink[1][2] = { { 9, 10 } };	/* (9,0)-(0,1): not adjacent */
	u32 out = 100;
	const char *why = NULL;

	is_int(wc_fi_build(&fi, 10, 10, NULL, 0, (const u32 (*)[2])link, 1,
			   &why), 0, "link fault builds");
	ok(fi.nblocks == 1 && fi.faulty[4 + 10 * 3] && !fi.faulty[3 + 10 * 3],
	   "link fault (3,3)-(4,3) is a fault of node (4,3)");
	wc_fi_free(&fi);
	why = NULL;
	is_int(wc_fi_build(&fi, 10, 10, NULL, 0, (const u32 (*)[2])badlink, 1,
			   &why), -EINVAL, "link across a row end rejected");
	ok(why != NULL, "with a reason: %s", why ? why : "(none)");
	is_int(wc_fi_build(&fi, 10, 10, &out, 1, NULL, 0, &why), -EINVAL,
	       "faulty node out of the mesh rejected");
	is_int(wc_fi_build(&fi, 1, 10, NULL, 0, NULL, 0, &why), -EINVAL,
	       "1-wide mesh rejected");
	{
		struct wc_topo t;
		u32 dims[2] = { 6, 5 };

		wc_topo_init(&t, WC_TOPO_MESH, 2, dims, NULL);
		is_int(wc_fi_build_topo(&fi, &t, NULL, 0, NULL, 0, &why), 0,
		       "build from a wc_topo mesh");
		ok(fi.w == 6 && fi.h == 5 && fi.nblocks == 0, "no faults, no blocks");
		ok(wc_fi_safe(&fi, 7), "every node safe without faults");
		wc_fi_free(&fi);
		wc_topo_init(&t, WC_TOPO_TORUS, 2, dims, NULL);
		is_int(wc_fi_build_topo(&fi, &t, NULL, 0, NULL, 0, &why),
		       -EINVAL, "torus rejected");
	}
}

/* Blocks, safety vectors, extended safety against brute force. */
static void test_random(void)
{
	u32 trial, bad_blocks = 0, bad_sep = 0, bad_safety = 0, bad_ext = 0;
	u32 bad_path = 0, bad_safe = 0, nblocks = 0, checks = 0;

	for (trial = 0; trial < 300; trial++) {
		u32 w = 6 + rnd(20), h = 6 + rnd(20), nf = rnd(w * h / 8 + 1);
		u32 *f = malloc((nf + 1) * sizeof(u32));
		u8 *bad = malloc(w * h);
		struct wc_faultinfo fi;
		u32 i, j, n;

		nf = tu_random_faults(&rng_state, w, h, nf, f);
		if (wc_fi_build(&fi, w, h, f, nf, NULL, 0, NULL)) {
			bad_blocks++;
			free(f);
			free(bad);
			continue;
		}
		nblocks += fi.nblocks;
		naive_blocks(w, h, f, nf, bad);
		for (n = 0; n < w * h; n++) {
			u32 b = fi.block_of[n];

			if (!!bad[n] != (b != WC_FI_NONE))
				bad_blocks++;
			else if (b != WC_FI_NONE &&
				 !wc_ft_in_rect(&fi.blocks[b], wc_fi_x(&fi, n),
						wc_fi_y(&fi, n)))
				bad_blocks++;
		}
		/* every node of each rectangle belongs to it; blocks apart */
		for (i = 0; i < fi.nblocks; i++) {
			const struct wc_ft_rect *a = &fi.blocks[i];
			u32 x, y;

			for (y = a->y0; y <= a->y1; y++)
				for (x = a->x0; x <= a->x1; x++)
					if (fi.block_of[wc_fi_node(&fi, x, y)] != i)
						bad_blocks++;
			for (j = i + 1; j < fi.nblocks; j++) {
				const struct wc_ft_rect *b = &fi.blocks[j];
				u32 gx = a->x1 < b->x0 ? b->x0 - a->x1 :
					 b->x1 < a->x0 ? a->x0 - b->x1 : 0;
				u32 gy = a->y1 < b->y0 ? b->y0 - a->y1 :
					 b->y1 < a->y0 ? a->y0 - b->y1 : 0;

				/* distance between blocks at least two [34] */
				if (gx + gy < 2 || (gx == 1 && gy == 1))
					bad_sep++;
			}
		}
		for (n = 0; n < w * h; n++) {
			const struct wc_fi_safety *s = &fi.safety[n];
			bool safe;

			if (wc_fi_in_block(&fi, n))
				continue;
			if (s->e != walk(&fi, n, 1, 0) || s->w != walk(&fi, n, -1, 0) ||
			    s->n != walk(&fi, n, 0, 1) || s->s != walk(&fi, n, 0, -1))
				bad_safety++;
			/* Definition 2 literally: no block node on row or column */
			safe = true;
			for (i = 0; i < w; i++)
				if (wc_fi_in_block(&fi, wc_fi_node(&fi, i, wc_fi_y(&fi, n))))
					safe = false;
			for (i = 0; i < h; i++)
				if (wc_fi_in_block(&fi, wc_fi_node(&fi, wc_fi_x(&fi, n), i)))
					safe = false;
			if (safe != wc_fi_safe(&fi, n))
				bad_safe++;
		}
		for (i = 0; i < 40; i++) {
			u32 s = rnd(w * h), d = rnd(w * h);
			u32 sx = wc_fi_x(&fi, s), sy = wc_fi_y(&fi, s);
			u32 dx = wc_fi_x(&fi, d), dy = wc_fi_y(&fi, d), k;
			bool ext = !wc_fi_in_block(&fi, s) && !wc_fi_in_block(&fi, d);
			bool exists;
			u32 bd;

			if (s == d)
				continue;
			/* no block on the two axis segments of the box */
			for (k = min_t(u32, sx, dx); k <= max_t(u32, sx, dx); k++)
				if (wc_fi_in_block(&fi, wc_fi_node(&fi, k, sy)))
					ext = false;
			for (k = min_t(u32, sy, dy); k <= max_t(u32, sy, dy); k++)
				if (wc_fi_in_block(&fi, wc_fi_node(&fi, sx, k)))
					ext = false;
			if (ext != wc_fi_ext_safe(&fi, s, d))
				bad_ext++;
			if (wc_fi_in_block(&fi, s) || wc_fi_in_block(&fi, d))
				continue;
			bd = bfs(&fi, s, d);
			exists = bd == wc_fi_distance(&fi, s, d);
			if (exists != wc_fi_minimal_path_exists(&fi, s, d))
				bad_path++;
			/* Theorem 1 (extended form): extended safe => path */
			if (ext && !exists)
				bad_path++;
			checks++;
		}
		wc_fi_free(&fi);
		free(f);
		free(bad);
	}
	diag("%u blocks over 300 random meshes, %u source/destination pairs",
	     nblocks, checks);
	is_int(bad_blocks, 0, "blocks = Definition 1 fixpoint (naive sweeps), all rectangles");
	is_int(bad_sep, 0, "blocks at distance >= 2, never diagonal neighbours");
	is_int(bad_safety, 0, "safety vectors = walks along the row and column");
	is_int(bad_safe, 0, "safe = Definition 2 by scanning row and column");
	is_int(bad_ext, 0, "extended safety = no block on the box's axis segments");
	is_int(bad_path, 0, "minimal-path test = BFS; extended safe implies a path");
}

static void test_regions(void)
{
	struct wc_ft_rect b = { 5, 5, 10, 7 };
	u32 x, y, cnt[9] = { 0 };

	is_int(wc_ft_region(&b, 17, 7), WC_FT_R6, "(17,7) in R6 of (5,5)-(10,7)");
	is_int(wc_ft_region(&b, 5, 10), WC_FT_R4, "(5,10) in R4");
	is_int(wc_ft_region(&b, 12, 11), WC_FT_R5, "(12,11) in R5");
	is_int(wc_ft_region(&b, 4, 4), WC_FT_R1, "(4,4) in R1");
	is_int(wc_ft_region(&b, 11, 8), WC_FT_R5, "corner (x',y') only in R5");
	for (y = 0; y < 20; y++)
		for (x = 0; x < 20; x++)
			cnt[wc_ft_region(&b, x, y)]++;
	is_int(cnt[WC_FT_INSIDE], 18, "18 nodes inside");
	is_int(cnt[WC_FT_R2] + cnt[WC_FT_R6], 3 * 14, "R2 + R6 span the block's rows");
	is_int(cnt[WC_FT_R4] + cnt[WC_FT_R8], 6 * 17, "R4 + R8 span its columns");
}

/* Fig. 4: transfer of block information between intersecting blocks. */
static void test_transfer(void)
{
	struct wc_faultinfo fi;
	struct wc_fi_record r[16];
	u32 f[2], n, i;
	bool hasA, hasB;

	/*
	 * (a) A = (6,10) above B = (4..7, 5): A's L3 (column 5, rows <= 9)
	 * crosses B, so nodes on B's L3 (column 3, rows <= 4) hold A too,
	 * and nodes on B's L1 (row 4, columns <= 3) do not.
	 */
	memset(f, 0, sizeof(f));
	{
		u32 faults[] = { 6 + 20 * 10, 4 + 20 * 5, 5 + 20 * 5, 6 + 20 * 5,
				 7 + 20 * 5 };

		is_int(wc_fi_build(&fi, 20, 20, faults, 5, NULL, 0, NULL), 0,
		       "Fig. 4(a) layout builds");
	}
	is_int(fi.nblocks, 2, "two blocks");
	n = wc_fi_records(&fi, wc_fi_node(&fi, 3, 2), WC_FT_PXPY, r, 16);
	hasA = hasB = false;
	for (i = 0; i < n && i < 16; i++) {
		const struct wc_ft_rect *b = &fi.blocks[r[i].block];

		if (r[i].line != WC_FT_L3)
			continue;
		if (b->x0 == 6 && b->y0 == 10)
			hasA = r[i].transferred;
		if (b->x0 == 4 && b->y0 == 5)
			hasB = !r[i].transferred;
	}
	ok(hasA && hasB, "(3,2) on L3 of B holds B and, transferred, A");
	n = wc_fi_records(&fi, wc_fi_node(&fi, 1, 4), WC_FT_PXPY, r, 16);
	ok(n == 1 && r[0].line == WC_FT_L1 && fi.blocks[r[0].block].x0 == 4,
	   "(1,4) on L1 of B holds B only");
	n = wc_fi_records(&fi, wc_fi_node(&fi, 5, 7), WC_FT_PXPY, r, 16);
	ok(n == 1 && r[0].line == WC_FT_L3 && fi.blocks[r[0].block].x0 == 6,
	   "(5,7) on L3 of A (between the blocks) holds A");
	n = wc_fi_records(&fi, wc_fi_node(&fi, 8, 2), WC_FT_PXPY, r, 16);
	is_int(n, 0, "(8,2), on no line, holds nothing");
	wc_fi_free(&fi);

	/* (b) the transposed layout: A = (10,6) east of B = (5, 4..7). */
	{
		u32 faults[] = { 10 + 20 * 6, 5 + 20 * 4, 5 + 20 * 5, 5 + 20 * 6,
				 5 + 20 * 7 };

		wc_fi_build(&fi, 20, 20, faults, 5, NULL, 0, NULL);
	}
	n = wc_fi_records(&fi, wc_fi_node(&fi, 2, 3), WC_FT_PXPY, r, 16);
	hasA = hasB = false;
	for (i = 0; i < n && i < 16; i++) {
		const struct wc_ft_rect *b = &fi.blocks[r[i].block];

		if (r[i].line != WC_FT_L1)
			continue;
		if (b->x0 == 10)
			hasA = r[i].transferred;
		if (b->x0 == 5)
			hasB = true;
	}
	ok(hasA && hasB, "Fig. 4(b): (2,3) on L1 of B holds B and A");
	n = wc_fi_records(&fi, wc_fi_node(&fi, 4, 1), WC_FT_PXPY, r, 16);
	ok(n == 1 && r[0].line == WC_FT_L3, "Fig. 4(b): L3 of B holds B only");
	/* the same block seen from the -X-Y subnetwork: lines on the far side */
	n = wc_fi_records(&fi, wc_fi_node(&fi, 11, 7), WC_FT_NXNY, r, 16);
	ok(n >= 1 && r[0].subnet == WC_FT_NXNY && fi.blocks[r[0].block].x0 == 10,
	   "-X-Y subnetwork: (11,7), north-east corner of A, holds A");
	wc_fi_free(&fi);
}

/* Router tables agree with the per-node query, on random meshes. */
static void test_tables(void)
{
	u32 trial, mismatch = 0, total = 0;

	for (trial = 0; trial < 40; trial++) {
		u32 w = 8 + rnd(25), h = 8 + rnd(25), nf = rnd(w * h / 10 + 1);
		u32 *f = malloc((nf + 1) * sizeof(u32));
		struct wc_faultinfo fi;
		struct wc_fi_tables t;
		struct wc_fi_record *r;
		u32 n, q, i, j;

		nf = tu_random_faults(&rng_state, w, h, nf, f);
		wc_fi_build(&fi, w, h, f, nf, NULL, 0, NULL);
		wc_fi_tables_build(&fi, &t);
		r = calloc(8 * fi.nblocks + 1, sizeof(*r));
		for (n = 0; n < fi.nnodes; n++) {
			u32 cnt = 0;

			for (q = 0; q < WC_FT_NSUBNETS; q++)
				cnt += wc_fi_records(&fi, n, q, r + cnt,
						     8 * fi.nblocks + 1 - cnt);
			if (cnt != t.off[n + 1] - t.off[n]) {
				mismatch++;
				continue;
			}
			for (i = 0; i < cnt; i++) {
				for (j = t.off[n]; j < t.off[n + 1]; j++)
					if (!memcmp(&t.rec[j], &r[i], sizeof(*r)))
						break;
				if (j == t.off[n + 1])
					mismatch++;
			}
			if (memcmp(&t.safety[n], &fi.safety[n], sizeof(fi.safety[n])))
				mismatch++;
		}
		total += t.nrec;
		free(r);
		wc_fi_tables_free(&t);
		wc_fi_free(&fi);
		free(f);
	}
	is_int(mismatch, 0, "router tables = per-node records (%u records)", total);
}

static void test_big(void)
{
	u32 nf = 256 * 256 / 100, *f = malloc(nf * sizeof(u32));
	struct wc_faultinfo fi;
	struct wc_fi_tables t;
	size_t bytes;

	rng_state = 12345;
	nf = tu_random_faults(&rng_state, 256, 256, nf, f);
	is_int(wc_fi_build(&fi, 256, 256, f, nf, NULL, 0, NULL), 0,
	       "256x256 with 1%% faulty nodes builds");
	is_int(wc_fi_tables_build(&fi, &t), 0, "and its router tables");
	bytes = t.nrec * sizeof(*t.rec) + (t.nnodes + 1) * 4 +
		t.nnodes * sizeof(*t.safety);
	diag("256x256: %u faults, %u blocks, %u records, %zu KiB of tables",
	     nf, fi.nblocks, t.nrec, bytes / 1024);
	ok(fi.nblocks >= 100 && bytes < 16u << 20,
	   "hundreds of blocks, tables under 16 MiB");
	wc_fi_tables_free(&t);
	wc_fi_free(&fi);
	free(f);
}

int main(void)
{
	test_paper_example();
	test_links_and_input();
	test_random();
	test_regions();
	test_transfer();
	test_tables();
	test_big();
	return done_testing();
}
