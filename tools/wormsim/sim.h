/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wormsim: synthetic traffic on the flit-level engine (kmod/engine/engine.h),
 * the very code the kernel module runs.
 *
 * This header is the testable part of the simulator: argument parsing, the
 * pseudo-random generator, Poisson arrivals, percentiles, one simulation run
 * and the output formats.  main.c only glues them together, so that
 * tests/unit/test_wormsim.c can include sim.c and exercise all of it.
 */
#ifndef WORMSIM_SIM_H
#define WORMSIM_SIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "engine.h"

/* ---------------------------------------------------------------- PRNG */

/* xoshiro256** seeded through splitmix64: fast, small, reproducible. */
struct sim_rng {
	u64 s[4];
};

void sim_rng_seed(struct sim_rng *r, u64 seed);
u64 sim_rng_next(struct sim_rng *r);
/* Uniform in [0, 1), 53 random bits. */
double sim_rng_uniform(struct sim_rng *r);
/* Uniform integer in [0, n), n >= 1, without modulo bias. */
u32 sim_rng_below(struct sim_rng *r, u32 n);
/* Exponential inter-arrival time of a Poisson process of rate @rate > 0. */
double sim_rng_exp(struct sim_rng *r, double rate);

/* ---------------------------------------------------------- statistics */

/*
 * Nearest-rank percentile of @n >= 1 sorted samples: the smallest sample
 * such that at least permille/1000 of the samples are <= it.
 */
u64 sim_percentile(const u64 *sorted, size_t n, u32 permille);

/* Sort samples in place, ascending. */
void sim_sort(u64 *v, size_t n);

/* ----------------------------------------------------------- the setup */

enum sim_class {
	SIM_UNICAST,
	SIM_MULTICAST,
	SIM_NCLASSES,
};

#define SIM_MAX_SWEEP_POINTS	1000
#define SIM_MAX_MSG_BYTES	(1u << 24)
#define SIM_MAX_CYCLES		(1ull << 40)

struct sim_config {
	struct wc_topo topo;
	struct wc_engine_params params;
	const struct wc_algo *algo;
	/* Offered load: data flits generated per node per cycle. */
	double load;
	u32 msg_bytes;
	/* Fraction of messages that are multicast (0..1). */
	double mcast_frac;
	/* Destinations of a multicast: uniform in [dsts_min, dsts_max]. */
	u32 dsts_min;
	u32 dsts_max;
	u64 seed;
	u64 warmup;		/* cycles before measuring */
	u64 cycles;		/* measured cycles */
	u64 drain;		/* extra cycles allowed to finish measured messages */
	/* Sweep of the offered load; npoints == 1 without --sweep. */
	double sweep_from, sweep_step;
	u32 npoints;
	const char *csv_path;	/* NULL: no CSV; "-": stdout */
	const char *plot_prefix;	/* NULL: no plot */
	bool json;
	bool help;
};

/*
 * Parse the command line (argv[0] is the program name) into @cfg.
 * Returns 0 on success (check cfg->help), 1 for a bad value, 2 for a usage
 * error (unknown option, missing argument, stray word); the message is in
 * @err.  Never prints.
 */
int sim_parse_args(int argc, char **argv, struct sim_config *cfg,
		   char *err, size_t errlen);
void sim_usage(FILE *f);

/* Offered load of sweep point @i. */
double sim_point_load(const struct sim_config *cfg, u32 i);
/* Data flits of one message: ceil(msg_bytes / flit_bytes). */
u32 sim_msg_flits(const struct sim_config *cfg);

/* ------------------------------------------------------------- one run */

struct sim_class_stats {
	u64 count;		/* measured messages delivered everywhere */
	double mean;		/* cycles, submission to last tail consumed */
	u64 p50, p99, max;
};

#define SIM_DUMP_LEN	4096
#define SIM_SATURATED_RATIO	0.95

struct sim_result {
	double load;			/* nominal offered load */
	double offered;			/* generated in the window, flits/node/cycle */
	double accepted;		/* messages finished in the window, idem */
	double delivered;		/* per-destination deliveries, idem */
	struct sim_class_stats cls[SIM_NCLASSES];
	double link_util_mean;		/* busy fraction of the directed links */
	double link_util_max;
	double hops_mean;		/* links crossed per delivery */
	u64 tagged;			/* messages generated in the window */
	u64 incomplete;			/* ... not finished when the run stopped */
	u64 lost;			/* ... finished with a destination missed */
	bool saturated;			/* incomplete, or accepted < 0.95 offered */
	u64 deadlocks;
	u64 route_errors;
	u64 cycles_total;		/* simulated, warm-up and drain included */
	u64 cycles_stepped;		/* of those, stepped by the engine (not idle) */
	u64 flit_hops_total;
	char dump[SIM_DUMP_LEN];	/* first watchdog dump, or "" */
};

/* Simulate @load; 0, or a negative errno (-ENOMEM, -EINVAL). */
int sim_run(const struct sim_config *cfg, double load, struct sim_result *res);

/* ------------------------------------------------------------- outputs */

void sim_print_summary(FILE *f, const struct sim_config *cfg,
		       const struct sim_result *res, u32 n);
void sim_print_json(FILE *f, const struct sim_config *cfg,
		    const struct sim_result *res, u32 n);
void sim_print_csv(FILE *f, const struct sim_config *cfg,
		   const struct sim_result *res, u32 n);
/*
 * Write PREFIX.dat and PREFIX.gp, then run gnuplot to make PREFIX.png and
 * PREFIX.svg.  Returns 0, 1 if a file could not be written, or 2 if gnuplot
 * is missing or failed (the data and script are still there); @err says why.
 */
int sim_plot(const char *prefix, const struct sim_config *cfg,
	     const struct sim_result *res, u32 n, char *err, size_t errlen);

#endif /* WORMSIM_SIM_H */
