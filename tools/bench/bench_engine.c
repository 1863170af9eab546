// SPDX-License-Identifier: GPL-2.0
/*
 * Engine speed on wormsim's synthetic traffic (issue 3, benchmark 6a) and
 * where these networks saturate (issue 12, item 7): flit-hops per second
 * and simulated cycles per second, one core, median of 5 runs (CPU time of
 * the process, so that other jobs on the machine do not count), for
 *  - a 16x16 torus, 128-flit messages, uniform unicast at 10%, 50% and 90%
 *    of its saturation load (target: >= 20 M flit-hops/s);
 *  - an 8x8 mesh, 20-flit messages, at the same fractions of its own.
 *
 * The saturation load is the latency knee: the offered load at which the
 * mean latency reaches 3x the zero-load latency, found on a sweep of short
 * runs (wormsim's sim_sweep(), every core).  The same sweep gives the
 * accepted-throughput plateau, and the load the old criterion (95% of the
 * offered load accepted) would have picked, for comparison.  The sweep is
 * also timed with one worker and with one per CPU.
 * Usage: bench_engine [--quick]
 */
#include <string.h>

#include "../wormsim/sim.c"
#include "bench.h"

#define RUNS		5
#define SWEEP_RUNS	3
#define TARGET_FLIT_HOPS	20e6

struct bench_case {
	const char *name;
	const char *topo, *dims, *msg_flits, *sweep;
};

static const struct bench_case cases[] = {
	{ "torus16x16.msg128", "torus", "16x16", "128", "0.005:0.2:0.005" },
	{ "mesh8x8.msg20", "mesh", "8x8", "20", "0.01:0.35:0.01" },
};

static const u32 fractions[] = { 10, 50, 90 };

static int setup(struct sim_config *cfg, const struct bench_case *c,
		 const char *cycles, const char *warmup)
{
	char *argv[] = {
		"bench_engine", "--topology", (char *)c->topo, "--dims",
		(char *)c->dims, "--msg-flits", (char *)c->msg_flits,
		"--cycles", (char *)cycles, "--warmup", (char *)warmup,
		"--sweep", (char *)c->sweep, NULL,
	};
	char err[256];

	if (sim_parse_args(ARRAY_SIZE(argv) - 1, argv, cfg, err, sizeof(err))) {
		fprintf(stderr, "bench_engine: %s\n", err);
		return -1;
	}
	return 0;
}

/*
 * The last load of the sweep not flagged by the old criterion (a run where
 * every measured message finished and at least 95% of the offered load was
 * accepted): what the old bisection found.  A point of a few dozen
 * messages at very low load can miss 95% by chance; later points decide.
 */
static double old_criterion(const struct sim_sweep *sw)
{
	u32 i = sw->n;

	while (i && sw->res[i - 1].unstable)
		i--;
	return i ? sw->res[i - 1].load : 0;
}

/* Same zero-load latency, saturation and per-point figures. */
static bool same_sweep(const struct sim_sweep *a, const struct sim_sweep *b)
{
	u32 i;

	if (a->n != b->n || a->zero.mean != b->zero.mean ||
	    a->sat.knee_load != b->sat.knee_load ||
	    a->sat.plateau_load != b->sat.plateau_load ||
	    a->sat.plateau_accepted != b->sat.plateau_accepted)
		return false;
	for (i = 0; i < a->n; i++)
		if (a->res[i].lat_mean != b->res[i].lat_mean ||
		    a->res[i].accepted != b->res[i].accepted ||
		    a->res[i].cls[SIM_UNICAST].p99 != b->res[i].cls[SIM_UNICAST].p99)
			return false;
	return true;
}

/*
 * The saturation sweep, SWEEP_RUNS times with one worker and with one per
 * CPU (interleaved), wall time medians; the figures of the last one.
 */
static int saturation(const struct bench_case *c, struct sim_config *cfg,
		      struct sim_sweep *sw)
{
	double wall[2][SWEEP_RUNS], cpu[2][SWEEP_RUNS], t, c0;
	u32 jobs[2] = { 1, sim_ncpus() }, k, j;
	struct sim_sweep first = { 0 };
	int same = 1;

	for (k = 0; k < SWEEP_RUNS; k++) {
		for (j = 0; j < 2; j++) {
			if (k || j)
				sim_sweep_free(sw);
			t = bench_wall_ms();
			c0 = bench_cpu_s();
			if (sim_sweep(cfg, jobs[j], sw))
				return -1;
			wall[j][k] = bench_wall_ms() - t;
			cpu[j][k] = (bench_cpu_s() - c0) * 1e3;
			if (!k && !j) {
				/* keep the first results to compare */
				first = *sw;
				sw->res = NULL;
			} else if (!same_sweep(&first, sw)) {
				same = 0;
			}
		}
	}
	sim_sweep_free(&first);
	printf("%s.zero_load_latency: %.1f cycles (%llu messages one at a time, %.2f hops)\n",
	       c->name, sw->zero.mean, (unsigned long long)sw->zero.count,
	       sw->zero.hops_mean);
	if (sw->sat.knee != SIM_KNEE_FOUND) {
		fprintf(stderr, "bench_engine: %s: the sweep %s does not cross %.0fx zero-load latency\n",
			c->name, c->sweep, sw->sat.knee_ratio);
		return -1;
	}
	printf("%s.saturation.latency_knee: %.4f flits/node/cycle (mean latency %.0fx zero-load, between %.3f and %.3f)\n",
	       c->name, sw->sat.knee_load, sw->sat.knee_ratio, sw->sat.knee_lo,
	       sw->sat.knee_hi);
	if (sw->sat.plateau)
		printf("%s.saturation.plateau: %.4f flits/node/cycle accepted, from offered %.3f\n",
		       c->name, sw->sat.plateau_accepted, sw->sat.plateau_load);
	else
		printf("%s.saturation.plateau: not reached by %s\n", c->name,
		       c->sweep);
	printf("%s.saturation.old_95pct_accepted: %.4f flits/node/cycle (for comparison)\n",
	       c->name, old_criterion(sw));
	printf("%s.sweep: %u points of %llu+%llu cycles\n", c->name, sw->n,
	       (unsigned long long)cfg->warmup, (unsigned long long)cfg->cycles);
	/* CPU / wall: the cores a sweep really had (the host is shared) */
	printf("%s.sweep.wall_1_worker: %.0f ms, CPU %.0f ms (medians of %d)\n",
	       c->name, bench_median(wall[0], SWEEP_RUNS),
	       bench_median(cpu[0], SWEEP_RUNS), SWEEP_RUNS);
	printf("%s.sweep.wall_%u_workers: %.0f ms, CPU %.0f ms (medians of %d); results %s\n",
	       c->name, jobs[1], bench_median(wall[1], SWEEP_RUNS),
	       bench_median(cpu[1], SWEEP_RUNS), SWEEP_RUNS,
	       same ? "identical" : "DIFFERENT");
	return same ? 0 : -1;
}

/* The sweep point nearest to @load (the lower one on a tie). */
static const struct sim_result *point_near(const struct sim_sweep *sw,
					   double load)
{
	u32 i, best = 0;

	for (i = 1; i < sw->n; i++)
		if (fabs(sw->res[i].load - load) < fabs(sw->res[best].load - load) - 1e-12)
			best = i;
	return &sw->res[best];
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
	printf("# loads are fractions of the latency knee (3x zero-load latency)\n");
	printf("# cycles_per_s counts simulated time (idle cycles are skipped by the engine);\n"
	       "# stepped_cycles_per_s only the cycles the engine stepped\n");
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		const struct bench_case *c = &cases[i];
		struct sim_config cfg;
		const struct sim_result *near;
		struct sim_sweep sw;
		double sat;

		if (setup(&cfg, c, quick ? "5000" : "20000", quick ? "1000" : "2000") ||
		    saturation(c, &cfg, &sw))
			return 1;
		sat = sw.sat.knee_load;
		near = point_near(&sw, 0.9 * old_criterion(&sw));
		printf("%s.old_95pct_x0.9.latency_ratio: %.2f x zero-load at %.4f (the point nearest to 0.9 x %.4f)\n",
		       c->name, near->lat_ratio, near->load, old_criterion(&sw));
		sim_sweep_free(&sw);

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
