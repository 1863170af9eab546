// SPDX-License-Identifier: GPL-2.0
/*
 * Engine speed on wormsim's synthetic traffic (issue 3, benchmark 6a):
 * flit-hops per second and simulated cycles per second, one core, median
 * of 5 runs (CPU time of the process, so that other jobs on the machine
 * do not count), for
 *  - a 16x16 torus, 128-flit messages, uniform unicast at 10%, 50% and 90%
 *    of its saturation load (target: >= 20 M flit-hops/s);
 *  - an 8x8 mesh, 20-flit messages, at the same fractions of its own.
 *
 * The saturation load is found first by bisection over the offered load
 * with short runs: a load is below saturation when every message generated
 * in the measured window finishes within the drain allowance and the
 * accepted throughput is at least 95% of the offered one (wormsim's
 * "saturated" flag).  Usage: bench_engine [--quick]
 */
#include <string.h>

#include "../wormsim/sim.c"
#include "bench.h"

#define RUNS		5
#define BISECT_STEPS	8
#define TARGET_FLIT_HOPS	20e6

struct bench_case {
	const char *name;
	const char *topo, *dims, *msg_flits;
};

static const struct bench_case cases[] = {
	{ "torus16x16.msg128", "torus", "16x16", "128" },
	{ "mesh8x8.msg20", "mesh", "8x8", "20" },
};

static const u32 fractions[] = { 10, 50, 90 };

static int setup(struct sim_config *cfg, const struct bench_case *c,
		 const char *cycles, const char *warmup)
{
	char *argv[] = {
		"bench_engine", "--topology", (char *)c->topo, "--dims",
		(char *)c->dims, "--msg-flits", (char *)c->msg_flits,
		"--cycles", (char *)cycles, "--warmup", (char *)warmup, NULL,
	};
	char err[256];

	if (sim_parse_args(ARRAY_SIZE(argv) - 1, argv, cfg, err, sizeof(err))) {
		fprintf(stderr, "bench_engine: %s\n", err);
		return -1;
	}
	return 0;
}

/* Highest load found below saturation by bisection in (lo, hi]. */
static double find_saturation(const struct sim_config *cfg)
{
	double lo = 0.01, hi = 1.0, mid;
	struct sim_result r;
	int i;

	if (sim_run(cfg, lo, &r) || r.saturated)
		return -1;

	for (i = 0; i < BISECT_STEPS; i++) {
		mid = (lo + hi) / 2;
		if (sim_run(cfg, mid, &r))
			return -1;
		if (r.saturated)
			hi = mid;
		else
			lo = mid;
	}
	return lo;
}

int main(int argc, char **argv)
{
	bool quick = argc > 1 && !strcmp(argv[1], "--quick");
	double worst_torus = -1;
	u32 i, f;
	int k;

	printf("# bench_engine: wormcast engine speed on wormsim uniform unicast traffic\n");
	printf("# one core, CPU time, median of %d runs; engine defaults (B=1, torus 2 VCs)\n",
	       RUNS);
	printf("# cycles_per_s counts simulated time (idle cycles are skipped by the engine);\n"
	       "# stepped_cycles_per_s only the cycles the engine stepped\n");
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		const struct bench_case *c = &cases[i];
		struct sim_config cfg;
		double sat;

		/* saturation: short runs are enough to see queues grow */
		if (setup(&cfg, c, "5000", "1000"))
			return 1;
		sat = find_saturation(&cfg);
		if (sat < 0) {
			fprintf(stderr, "bench_engine: %s: no load found below saturation\n",
				c->name);
			return 1;
		}
		printf("%s.saturation: %.4f flits/node/cycle (bisection, %d runs of 1000+5000 cycles)\n",
		       c->name, sat, BISECT_STEPS);

		if (setup(&cfg, c, quick ? "4000" : "20000", "2000"))
			return 1;
		for (f = 0; f < ARRAY_SIZE(fractions); f++) {
			double load = sat * fractions[f] / 100;
			double hops_s[RUNS], cyc_s[RUNS], step_s[RUNS], t, mh;
			struct sim_result r;

			for (k = 0; k < RUNS; k++) {
				t = bench_cpu_s();
				if (sim_run(&cfg, load, &r))
					return 1;
				t = bench_cpu_s() - t;
				hops_s[k] = r.flit_hops_total / t;
				cyc_s[k] = r.cycles_total / t;
				step_s[k] = r.cycles_stepped / t;
			}
			mh = bench_median(hops_s, RUNS);
			printf("%s.load%u.offered: %.4f flits/node/cycle\n",
			       c->name, fractions[f], load);
			printf("%s.load%u.flit_hops: %llu flit-hops in %llu cycles\n",
			       c->name, fractions[f],
			       (unsigned long long)r.flit_hops_total,
			       (unsigned long long)r.cycles_total);
			printf("%s.load%u.flit_hops_per_s: %.2f M/s\n", c->name,
			       fractions[f], mh / 1e6);
			printf("%s.load%u.cycles_per_s: %.1f k/s\n", c->name,
			       fractions[f], bench_median(cyc_s, RUNS) / 1e3);
			printf("%s.load%u.stepped_cycles_per_s: %.1f k/s\n",
			       c->name, fractions[f], bench_median(step_s, RUNS) / 1e3);
			printf("%s.load%u.latency_mean: %.1f cycles\n", c->name,
			       fractions[f], r.cls[SIM_UNICAST].mean);
			if (!strncmp(c->name, "torus", 5) &&
			    (worst_torus < 0 || mh < worst_torus))
				worst_torus = mh;
		}
	}
	printf("target.torus16x16.flit_hops_per_s: %.2f M/s worst case, target %.0f M/s: %s\n",
	       worst_torus / 1e6, TARGET_FLIT_HOPS / 1e6,
	       worst_torus >= TARGET_FLIT_HOPS ? "met" : "NOT met");
	return 0;
}
