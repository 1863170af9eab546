// SPDX-License-Identifier: GPL-2.0
/*
 * DCF broadcast: time to build the 64x64 schedule and to check it
 * (Definition 1, Theorem 1 over all pairs, timing), medians of several
 * runs; and the search for the DCF_block.  Also prints the latency table of
 * Documentation/dcf.rst (schedule against the paper's closed forms) and
 * the table of search results under each reading of the checker's model.
 */
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"
#include "dcf.h"

#define RUNS 9

static void bench_scheme(u32 scheme, u32 side)
{
	static const struct dcf_timing tm = { .ts = 0, .tc = 1, .tr = 0, .len = 32 };
	double build[RUNS], check[RUNS];
	struct dcf_report r = { 0 };
	int i;

	for (i = 0; i < RUNS; i++) {
		struct dcf_sched s;
		double t0 = bench_wall_ms(), t1;

		if (dcf_build(&s, scheme, side, 0, NULL, NULL))
			exit(1);
		t1 = bench_wall_ms();
		if (dcf_check(&s, DCF_CHAN_VC, &tm, &r))
			exit(1);
		build[i] = t1 - t0;
		check[i] = bench_wall_ms() - t1;
		dcf_free(&s);
	}
	printf("%s_%ux%u_build: %.3f ms\n", dcf_scheme_name(scheme), side, side,
	       bench_median(build, RUNS));
	printf("%s_%ux%u_check: %.3f ms\n", dcf_scheme_name(scheme), side, side,
	       bench_median(check, RUNS));
	printf("%s_%ux%u_shared_pairs: %llu pairs\n", dcf_scheme_name(scheme),
	       side, side, (unsigned long long)r.shared_pairs);
	printf("%s_%ux%u_theorem1_failures: %llu pairs\n",
	       dcf_scheme_name(scheme), side, side,
	       (unsigned long long)r.contending_pairs);
}

static void latency_table(void)
{
	static const struct dcf_timing set[] = {
		{ .ts = 0, .tc = 1, .tr = 0, .len = 32 },	/* Fig. 8 */
		{ .ts = 200, .tc = 1, .tr = 200, .len = 32 },	/* Fig. 9 */
	};
	u32 side, t, scheme;

	printf("# latency: scheme side ts tr L: schedule / paper closed form\n");
	for (t = 0; t < 2; t++)
		for (scheme = DCF_SCHEME_DCF; scheme <= DCF_SCHEME_EDN; scheme++)
			for (side = 4; side <= 64; side *= 2) {
				struct dcf_sched s;
				u64 paper = 0, got;

				if (dcf_build(&s, scheme, side, 0, NULL, NULL))
					exit(1);
				got = dcf_latency(&s, &set[t], NULL, NULL);
				dcf_closed_form(scheme, side, &set[t], &paper);
				printf("latency_%s_%ux%u_ts%llu: %llu cycles (paper %llu)\n",
				       dcf_scheme_name(scheme), side, side,
				       (unsigned long long)set[t].ts,
				       (unsigned long long)got,
				       (unsigned long long)paper);
				dcf_free(&s);
			}
}

/*
 * The search under every reading of the checker's model (dcf.h,
 * Documentation/dcf.rst "Readings"): valid blocks per set of sides, from
 * every source, then up to 64x64 from node 0 only.
 */
static void readings_table(void)
{
	static const u32 sides[] = { 4, 8, 16, 32, 64 };
	static const struct {
		const char *name;
		u32 model;
	} readings[] = {
		{ "vc, first=port", DCF_CHAN_VC },
		{ "phys, first=port", DCF_CHAN_PHYS },
		{ "vc, first=vchan", DCF_CHAN_VC | DCF_FIRST_VCHAN },
		{ "phys, first=vchan", DCF_CHAN_PHYS | DCF_FIRST_VCHAN },
	};
	struct dcf_search res;
	u32 i, n, reach;

	for (i = 0; i < ARRAY_SIZE(readings); i++) {
		struct dcf_search_opts o = { .model = readings[i].model,
					     .max_reach = 3 };

		printf("search_readings %-18s", readings[i].name);
		for (n = 1; n <= 4; n++) {
			if (dcf_search_blocks_opts(&o, sides, n, 0, &res))
				exit(1);
			printf(" | 4..%u all sources: %u", sides[n - 1],
			       res.valid);
			dcf_search_free(&res);
		}
		o.origin_only = true;
		if (dcf_search_blocks_opts(&o, sides, 5, 0, &res))
			exit(1);
		printf(" | 4..64 from node 0: %u (of %u candidates)\n",
		       res.valid, res.examined);
		dcf_search_free(&res);
	}
	for (i = 0; i < 2; i++) {
		struct dcf_search_opts o = { .model = i ? DCF_CHAN_PHYS :
							  DCF_CHAN_VC,
					     .max_reach = 3, .timed = true };

		printf("search_timed %-18s", i ? "phys" : "vc");
		for (n = 1; n <= 4; n++) {
			if (dcf_search_blocks_opts(&o, sides, n, 0, &res))
				exit(1);
			printf(" | 4..%u all sources: %u", sides[n - 1],
			       res.valid);
			dcf_search_free(&res);
		}
		o.origin_only = true;
		for (n = 3; n <= 5; n++) {
			if (dcf_search_blocks_opts(&o, sides, n, 0, &res))
				exit(1);
			printf(" | 4..%u from node 0: %u", sides[n - 1],
			       res.valid);
			dcf_search_free(&res);
		}
		printf("\n");
	}
	for (reach = 1; reach <= 3; reach++) {
		struct dcf_search_opts o = { .model = DCF_CHAN_VC,
					     .max_reach = reach };
		static const u32 four[] = { 4 };

		if (dcf_search_blocks_opts(&o, four, 1, 0, &res))
			exit(1);
		printf("search_max_reach_%u: %u candidates, %u valid on 4x4\n",
		       reach, res.examined, res.valid);
		dcf_search_free(&res);
	}
}

int main(void)
{
	static const u32 sides[] = { 4, 8 };
	double t[3];
	struct dcf_search res;
	int i;

	bench_scheme(DCF_SCHEME_DCF, 64);
	bench_scheme(DCF_SCHEME_EDN, 64);
	for (i = 0; i < 3; i++) {
		double t0 = bench_wall_ms();

		if (dcf_search_blocks(DCF_CHAN_VC, sides, 2, 0, &res))
			return 1;
		t[i] = bench_wall_ms() - t0;
		dcf_search_free(&res);
	}
	printf("dcf_block_search_4x4_8x8: %.1f ms (%u candidates, %u valid)\n",
	       bench_median(t, 3), res.examined, res.valid);
	latency_table();
	readings_table();
	return 0;
}
