// SPDX-License-Identifier: GPL-2.0
/*
 * The ftmesh table encoder (daemon/lib/ftm_table.c): the bytes of struct
 * wormcast_ftmesh decoded here, with the layout read from the uapi
 * comment (not from the encoder's size helper), must give back the fault
 * information they came from: the header, every block, every safety
 * vector, per subnetwork and node exactly the records wc_fi_records()
 * lists (block index and line, in its order), and the engine's tables
 * (wc_ftm_tables_build(): offsets and canonical records) equal.  Random
 * fault sets, faulty nodes and links, on 20x20 and 50x50 meshes up to 150
 * faulty nodes; and the refusals.
 */
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "testutil.h"
#include "ftm_table.h"
#include "ftmcast.h"
#include "ftm_decode.h"

static u64 rng_state = 0x9e3779b97f4a7c15ull;

/* Every comparison for one fault set; returns the number of mismatches. */
static u32 check(const struct wc_faultinfo *fi, u32 strategy, u64 seed,
		 bool detour, const char *what)
{
	struct wc_ftm_tables et;
	struct ftm_decoded d;
	void *bytes = NULL, *again = NULL;
	size_t len = 0, len2 = 0;
	const char *why = NULL;
	u32 bad = 0, n, q, i;

	if (wc_ftm_table_build(fi, strategy, seed, detour, &bytes, &len, &why) ||
	    !ftm_decode(bytes, len, &d)) {
		diag("%s: build or decode failed (%s)", what, why ? why : "size");
		free(bytes);
		return 1;
	}
	if (d.h.strategy != strategy || d.h.seed != seed ||
	    d.h.flags != (detour ? WORMCAST_FTMESH_F_DETOUR : 0u) ||
	    len != wc_ftm_table_size(fi->nnodes, fi->nblocks, d.h.nrecs))
		bad++, diag("%s: header", what);
	bad += ftm_check_fi(&d, fi, what);
	/* the engine's tables: the same offsets, canonical blocks, safety */
	if (wc_ftm_tables_build(fi, strategy, seed, &et)) {
		bad++, diag("%s: wc_ftm_tables_build", what);
	} else {
		for (i = 0; i <= 4 * fi->nnodes; i++)
			if (et.off[i] != d.rec_off[i]) {
				bad++, diag("%s: offset %u differs from the engine's", what, i);
				break;
			}
		for (q = 0; q < 4 && !bad; q++)
			for (n = 0; n < fi->nnodes; n++)
				for (i = d.rec_off[q * fi->nnodes + n];
				     i < d.rec_off[q * fi->nnodes + n + 1]; i++) {
					struct wc_ft_rect phys = {
						d.blocks[d.recs[i].block].x0,
						d.blocks[d.recs[i].block].y0,
						d.blocks[d.recs[i].block].x1,
						d.blocks[d.recs[i].block].y1,
					}, c;

					wc_ft_canon_rect(q, fi->w, fi->h, &phys, &c);
					if (memcmp(&c, &et.recs[i].b, sizeof(c)) ||
					    et.recs[i].line != d.recs[i].line)
						bad++;
				}
		for (n = 0; n < fi->nnodes; n++)
			if (et.safety[4 * n] != d.safety[n].e ||
			    et.safety[4 * n + 1] != d.safety[n].s ||
			    et.safety[4 * n + 2] != d.safety[n].w ||
			    et.safety[4 * n + 3] != d.safety[n].n ||
			    et.in_block[n] != wc_fi_in_block(fi, n))
				bad++;
		wc_ftm_tables_free(&et);
	}
	/* pure: the same bytes again */
	if (wc_ftm_table_build(fi, strategy, seed, detour, &again, &len2, &why) ||
	    len2 != len || memcmp(again, bytes, len))
		bad++, diag("%s: a second build differs", what);
	free(again);
	free(bytes);
	return bad;
}

static void test_random(u32 side, u32 maxf, u32 trials)
{
	u32 t, total_recs = 0, total_blocks = 0, bad = 0;

	for (t = 0; t < trials; t++) {
		u32 nf = tu_rand_hi(&rng_state, maxf + 1);
		u32 nl = tu_rand_hi(&rng_state, 11);
		u32 *f = calloc(nf + 1, sizeof(u32));
		u32 (*links)[2] = calloc(nl + 1, sizeof(*links));
		struct wc_faultinfo fi;
		char what[64];
		u32 i;

		tu_random_faults(&rng_state, side, side, nf, f);
		for (i = 0; i < nl; i++) {	/* a random link: x+1 or y+1 */
			u32 x = tu_rand_hi(&rng_state, side - 1);
			u32 y = tu_rand_hi(&rng_state, side - 1);

			links[i][0] = x + side * y;
			links[i][1] = i % 2 ? links[i][0] + 1 : links[i][0] + side;
		}
		if (wc_fi_build(&fi, side, side, f, nf, links, nl, NULL)) {
			bad++;
		} else {
			struct wc_fi_tables ft;

			snprintf(what, sizeof(what), "%ux%u, %u nodes %u links, trial %u",
				 side, side, nf, nl, t);
			bad += check(&fi, 1 + t % 2, t * 7919ull, t % 3 == 0, what);
			if (!wc_fi_tables_build(&fi, &ft)) {
				total_recs += ft.nrec;
				wc_fi_tables_free(&ft);
			}
			total_blocks += fi.nblocks;
			wc_fi_free(&fi);
		}
		free(f);
		free(links);
	}
	ok(!bad && total_recs && total_blocks,
	   "%ux%u, %u random fault sets (0 to %u faulty nodes, 0 to 10 links): header, %u blocks, safety, %u records per subnetwork and node decode to wc_fi's and the engine's tables",
	   side, side, trials, maxf, total_blocks, total_recs);
}

static void test_edges(void)
{
	u32 paper[3] = { 1 + 20 * 1, 2 + 20 * 2, 4 + 20 * 2 };
	struct wc_faultinfo fi;
	void *bytes = NULL;
	size_t len = 0;
	const char *why = NULL;
	struct ftm_decoded d;
	int err;

	wc_fi_build(&fi, 20, 20, NULL, 0, NULL, 0, NULL);
	err = wc_ftm_table_build(&fi, 2, 0, false, &bytes, &len, &why);
	err = err ? err : ftm_decode(bytes, len, &d) ? 0 : -EPROTO;
	ok(!err && !d.h.nblocks && !d.h.nrecs &&
	   len == 32 + 8 * 400 + 4 * 1601 && d.safety[0].e == WORMCAST_FTMESH_SAFETY_INF &&
	   !check(&fi, 2, 0, false, "fault-free"),
	   "fault-free 20x20: no block, no record, every safety element infinite (%zu bytes)", len);
	free(bytes);
	wc_fi_free(&fi);

	/* the paper's example: blocks {(1,1)-(2,2)} and {(4,2)} */
	wc_fi_build(&fi, 20, 20, paper, 3, NULL, 0, NULL);
	err = wc_ftm_table_build(&fi, 1, 42, true, &bytes, &len, &why);
	err = err ? err : ftm_decode(bytes, len, &d) ? 0 : -EPROTO;
	ok(!err && d.h.nblocks == 2 && d.h.nrecs &&
	   d.h.flags == WORMCAST_FTMESH_F_DETOUR && d.h.strategy == 1 && d.h.seed == 42 &&
	   d.safety[0 + 20 * 1].e == 1 && d.safety[1 + 20 * 1].e == 0 &&
	   !check(&fi, 1, 42, true, "paper"),
	   "section 3.3's example: 2 blocks, (0,1) sees the block 1 hop east, %u records", d.h.nrecs);
	free(bytes);
	err = wc_ftm_table_build(&fi, 3, 0, false, &bytes, &len, &why);
	err = err ? err : ftm_decode(bytes, len, &d) ? 0 : -EPROTO;
	ok(!err && d.h.strategy == 3 && d.h.nblocks == 2 && !check(&fi, 3, 0, false, "paper"),
	   "Strategy 3: the same router table, strategy 3 (its plans are a PLANS table)");
	free(bytes);
	why = NULL;
	err = wc_ftm_table_build(&fi, 0, 0, false, &bytes, &len, &why);
	ok(err == -EINVAL && !bytes && why, "strategy 0: -EINVAL (%s)", why);
	err = wc_ftm_table_build(&fi, 4, 0, false, &bytes, &len, &why);
	ok(err == -EINVAL && !bytes, "strategy 4: -EINVAL");
	wc_fi_free(&fi);
}

int main(void)
{
	test_edges();
	test_random(20, 150, 60);
	test_random(50, 150, 30);
	return done_testing();
}
