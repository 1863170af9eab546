// SPDX-License-Identifier: GPL-2.0
/*
 * wormcastd's side of "fault announced to new tables installed" for the
 * ftmesh scheme (issue 10's target: 50x50 with 150 faults, under 100 ms):
 * what the daemon computes when a fabric's faults change, the fault
 * information of the whole mesh (blocks, safety vectors) and the
 * WORMCAST_TABLE_FTMESH table it pushes (the router records of the four
 * subnetworks, encoded), with wc_ftm_table_from_faults() exactly as
 * wormcastd calls it.  A 50x50 mesh with 50, 100 and 150 random faulty
 * nodes (and a 20x20 with 40 for scale), RUNS fault sets each (seeded):
 * median and maximum in ms of wall-clock time, and the table's size.
 * Not measured here: the netlink transaction and the kernel's validation
 * (Documentation/faults.rst, "wormcastd and ftmesh tables").
 */
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"
#include "testutil.h"
#include "ftm_table.h"

#define RUNS 25

static u64 rng_state = 0x6a09e667f3bcc909ull;

static void point(u32 side, u32 nfaults)
{
	double tot[RUNS], fi_ms[RUNS], maxt = 0;
	double bytes[RUNS], blocks[RUNS], recs[RUNS];
	u32 dims[2] = { side, side }, *f = calloc(nfaults + 1, sizeof(u32)), r;
	struct wc_topo t;

	if (!f || wc_topo_init(&t, WC_TOPO_MESH, 2, dims, NULL))
		abort();
	for (r = 0; r < RUNS; r++) {
		struct wc_faultinfo fi;
		const char *why = NULL;
		void *table = NULL;
		size_t len = 0;
		u32 nb = 0;
		double t0;

		tu_random_faults(&rng_state, side, side, nfaults, f);
		/* the fault information alone, for the split */
		t0 = bench_wall_ms();
		if (wc_fi_build_topo(&fi, &t, f, nfaults, NULL, 0, &why))
			abort();
		fi_ms[r] = bench_wall_ms() - t0;
		wc_fi_free(&fi);
		/* what wormcastd's compute does: fault information and table */
		t0 = bench_wall_ms();
		if (wc_ftm_table_from_faults(&t, f, nfaults, NULL, 0, 2, 0, true,
					     &table, &len, &nb, &why)) {
			fprintf(stderr, "bench_ftm_table: %s\n", why);
			exit(1);
		}
		tot[r] = bench_wall_ms() - t0;
		if (tot[r] > maxt)
			maxt = tot[r];
		bytes[r] = (double)len;
		blocks[r] = nb;
		recs[r] = ((const struct wormcast_ftmesh *)table)->nrecs;
		free(table);
	}
	printf("ftm_table_%ux%u_%ufaults_compute_encode: %.2f ms\n", side, side,
	       nfaults, bench_median(tot, RUNS));
	printf("ftm_table_%ux%u_%ufaults_compute_encode_max: %.2f ms\n", side,
	       side, nfaults, maxt);
	printf("ftm_table_%ux%u_%ufaults_fault_info: %.2f ms\n", side, side,
	       nfaults, bench_median(fi_ms, RUNS));
	printf("ftm_table_%ux%u_%ufaults_blocks: %.0f blocks\n", side, side,
	       nfaults, bench_median(blocks, RUNS));
	printf("ftm_table_%ux%u_%ufaults_records: %.0f records\n", side, side,
	       nfaults, bench_median(recs, RUNS));
	printf("ftm_table_%ux%u_%ufaults_bytes: %.0f bytes\n", side, side,
	       nfaults, bench_median(bytes, RUNS));
	free(f);
}

int main(void)
{
	printf("# wormcastd's ftmesh compute (fault information + table), median of %u random fault sets\n",
	       RUNS);
	point(20, 40);
	point(50, 50);
	point(50, 100);
	point(50, 150);
	return 0;
}
