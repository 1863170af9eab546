/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wormsim: synthetic traffic on the flit-level engine (kmod/engine/engine.h),
 * the very code the kernel module runs.
 *
 * This header is the testable part of the simulator: argument parsing, the
 * pseudo-random generator, Poisson arrivals, the latency histogram, one
 * simulation run, parallel sweeps, saturation and the output formats.  main.c only glues them together, so that
 * tests/unit/test_wormsim.c can include sim.c and exercise all of it.
 */
#ifndef WORMSIM_SIM_H
#define WORMSIM_SIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "engine.h"
#include "tree_mcast.h"
#include "trees_table.h"
#include "path_mcast.h"
#include "labels_table.h"
#include "labeling.h"
#include "mcast_kind.h"
#include "pathplan.h"
#include "plans.h"
#include "dcf.h"
#include "ft_mcast.h"
#include "ftmcast.h"

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
 * Latency histogram of bounded size, log-linear like HdrHistogram: values
 * below 2^(SUB_BITS + 1) have a bucket each (exact); above, every power of
 * two [2^e, 2^(e+1)) is cut into 2^SUB_BITS buckets of width 2^(e-SUB_BITS).
 * A percentile is reported as the middle of its bucket (clamped to the
 * exact min and max), so it is within SIM_HIST_REL_ERR (2^-(SUB_BITS+1),
 * 0.2%) of the exact nearest-rank value; count, sum (hence the mean), min
 * and max are exact.  Values of 2^SIM_HIST_MAX_BITS and more (beyond any
 * run wormsim accepts) share the top bucket.  About 70 KiB, whatever the
 * number of samples.
 */
#define SIM_HIST_SUB_BITS	8
#define SIM_HIST_MAX_BITS	42
#define SIM_HIST_BUCKETS	((2u << SIM_HIST_SUB_BITS) + \
				 (SIM_HIST_MAX_BITS - SIM_HIST_SUB_BITS - 1) * \
				 (1u << SIM_HIST_SUB_BITS))
#define SIM_HIST_REL_ERR	(1.0 / (2u << SIM_HIST_SUB_BITS))

struct sim_hist {
	u64 count;
	unsigned __int128 sum;
	u64 min, max;
	u64 bucket[SIM_HIST_BUCKETS];
};

void sim_hist_init(struct sim_hist *h);
void sim_hist_add(struct sim_hist *h, u64 v);
/* Exact mean; 0 without samples. */
double sim_hist_mean(const struct sim_hist *h);
/*
 * Nearest-rank percentile (the smallest sample such that at least
 * permille/1000 of the samples are <= it) within SIM_HIST_REL_ERR; exact
 * for the first and last rank.  0 without samples.
 */
u64 sim_hist_percentile(const struct sim_hist *h, u32 permille);

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
	/*
	 * --multicast: enum wormcast_mcast_scheme.  Under a tree scheme
	 * (spam, dstm-1, dstm-2, rt) algo is wc_algo_tree and @table holds
	 * the struct wormcast_trees bytes of daemon/lib/trees_table.h, the
	 * very bytes wormcastd pushes into the kernel; built once by
	 * sim_parse_args(), read-only afterwards.  Each run builds its own
	 * struct wc_tree_set from them (a set holds the encoder's scratch).
	 */
	u32 mcast_scheme;
	struct wc_trees_opts trees_opts;	/* --rt-pair, --rt-seed, --rt-trials */
	struct wc_trees_info trees_info;	/* what the table's choice saw */
	void *table;			/* NULL under unicast */
	size_t table_len;
	/*
	 * --fault-link, --random-faults (two-tree schemes only): faulty links
	 * (wc_link_id()), as wormcastd learns them from the kernel.  The
	 * table carries them (wc_trees_table_set_faults(), DSTM section 7
	 * with global information) and every run's engine has them failed
	 * (wc_engine_fault_link(), as a live fault).  fault_tree[i]: the tree
	 * link i belongs to, -1 for none; fault_cut[i]: the nodes below it in
	 * that tree (the subtree the link alone would cut off), 0 for none.
	 */
	u32 nfaults;
	u32 fault_links[WORMCAST_TREES_MAX_FAULTS];
	s8 fault_tree[WORMCAST_TREES_MAX_FAULTS];
	u32 fault_cut[WORMCAST_TREES_MAX_FAULTS];
	u32 random_faults;		/* of them, drawn with --seed */
	/*
	 * --fault-info local (one faulty link): @table stays fault-free (the
	 * sources know nothing), @table_global carries the link; a message
	 * whose branch is absorbed at the link is re-injected from the
	 * link's near end on the good tree (section 7, local information).
	 */
	bool fault_local;
	void *table_global;
	size_t table_global_len;
	bool trees_rebuilt;	/* global: the table's trees rebuilt around them */
	/*
	 * --multicast ftmesh: Wu and Chen's fault-tolerant minimal multicast
	 * (wc_algo_ftmesh, Strategy --ft-strategy) on a 2-D mesh.  Under it
	 * --random-faults N draws N faulty nodes (the paper's fault model):
	 * @ftm holds the routers' tables the daemon's library builds from
	 * them (wc_ftm_tables_build()), and every run's engine has the
	 * nodes failed, so a worm that touched one would be absorbed.
	 * @ft_fi is their fault information, on which Strategy 3 plans
	 * every multicast (struct sim_planner below).
	 */
	bool ftmesh, ft_detour;
	u32 ft_strategy;
	u32 nfault_nodes, nft_blocks;
	u32 *fault_nodes;
	struct wc_ftm_tables ftm;
	struct wc_faultinfo ft_fi;
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
	const char *links_json;	/* NULL: no per-link JSON; "-": stdout */
	/* Saturation: mean latency knee_ratio x the zero-load latency. */
	double knee_ratio;
	u32 jobs;		/* sweep workers; 0: one per online CPU */
	/* --mcast0: zero-load multicasts to this many destinations */
	u32 mcast0;
	u32 draws;		/* --draws */
	u32 send_ovh, recv_ovh;	/* --send-ovh, --recv-ovh, cycles */
	/* --bcast: enum dcf_scheme + 1 (0: no broadcast run), --src */
	u32 bcast;
	u32 bcast_src;
	/* --bcast-relay queue: a node's sends enter its injection queue in
	 * order when ready, no port hold (the kernel's relay, kmod/relay.c) */
	bool bcast_queue;
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
/*
 * Fail @cfg's faulty links in engine @e, as the kernel does on a live
 * fault.  0, or the engine's error with *@why.
 */
int sim_engine_faults(const struct sim_config *cfg, struct wc_engine *e,
		      const char **why);
/* Free what sim_parse_args() allocated (the tree table); idempotent. */
void sim_config_free(struct sim_config *cfg);
/* "unicast-based", or the scheme's name ("dstm-1", "rt-best", ...). */
const char *sim_scheme_label(const struct sim_config *cfg, char *buf,
			     size_t len);
/*
 * Largest worm of the configured traffic, in flits: header flits (one per
 * destination and splitting router under a tree scheme: at most 2D - 1),
 * data flits and the tail.
 */
u32 sim_max_worm_flits(const struct sim_config *cfg);
void sim_usage(FILE *f);

/* Offered load of sweep point @i. */
double sim_point_load(const struct sim_config *cfg, u32 i);
/* Data flits of one message: ceil(msg_bytes / flit_bytes). */
u32 sim_msg_flits(const struct sim_config *cfg);

/* ------------------------------------------------------------- one run */

struct sim_class_stats {
	u64 count;		/* measured messages delivered everywhere */
	double mean;		/* cycles, submission to last tail consumed */
	u64 p50, p99, max;	/* p50, p99 within SIM_HIST_REL_ERR */
};

#define SIM_DUMP_LEN	4096
/* Below this share of the offered load accepted, a run is not steady. */
#define SIM_STEADY_RATIO	0.95
#define SIM_KNEE_RATIO		3.0

struct sim_result {
	double load;			/* nominal offered load */
	double offered;			/* generated in the window, flits/node/cycle */
	double accepted;		/* messages finished in the window, idem */
	double delivered;		/* per-destination deliveries, idem */
	struct sim_class_stats cls[SIM_NCLASSES];
	double lat_mean;		/* every class together, cycles */
	double lat_ratio;		/* lat_mean / zero-load latency (sim_sweep) */
	double link_util_mean;		/* busy fraction of the directed links */
	double link_util_max;
	double hops_mean;		/* links crossed per delivery */
	u64 tagged;			/* messages generated in the window */
	u64 incomplete;			/* ... not finished when the run stopped */
	u64 lost;			/* ... finished with a destination missed */
	/* copies consumed at a node not (or no longer) awaiting them: at
	 * no destination of the message, or a second time (all the run) */
	u64 misdelivered;
	u64 reinjected;			/* --fault-info local: re-injections */
	/*
	 * --multicast ftmesh, measured messages: destinations the source
	 * cannot reach minimally (left out, in the engine's fault_drops),
	 * and of the multicasts that reached every other destination the
	 * traffic steps (links their worms reserved) against those of
	 * multiple unicast to the same destinations.
	 */
	u64 ft_left_out, ft_detoured;	/* --ft-detour: sent on a detour */
	u64 ft_mcasts, ft_links, ft_unicast_steps;
	/*
	 * --ft-strategy 3, of those multicasts the ones sent with a plan and
	 * no detour: the links their worms reserved, the planner's traffic
	 * steps for them (wc_ft_plan()'s nhops), and how many of them
	 * reserved another number of links than the planner's tree has.
	 */
	u64 ft_planned, ft_plan_links, ft_plan_steps, ft_plan_mismatch;
	/* ocms/otms: multicasts sent by dual-path (no plan), all the run;
	 * ftmesh Strategy 3: sent without a plan (split by Strategy 2) */
	u64 plan_fallback;
	/* incomplete, or accepted < 95% of offered: the queues grow */
	bool unstable;
	/* unstable, or lat_ratio >= knee_ratio (set by sim_sweep) */
	bool saturated;
	u64 deadlocks;
	u64 route_errors;
	u64 cycles_total;		/* simulated, warm-up and drain included */
	u64 cycles_stepped;		/* of those, stepped by the engine (not idle) */
	u64 flit_hops_total;
	/* Peak bytes of the run: engine, histograms, live messages, arrays. */
	u64 mem_peak;
	char dump[SIM_DUMP_LEN];	/* first watchdog dump, or "" */
	/*
	 * With --links-json: busy and blocked cycles of every channel
	 * (node * nports + port) in the window; NULL otherwise.
	 */
	u64 *link_busy;
	u64 *link_blocked;
};

/* Simulate @load; 0, or a negative errno (-ENOMEM, -EINVAL). */
int sim_run(const struct sim_config *cfg, double load, struct sim_result *res);

/*
 * Zero-load latency: SIM_ZERO_LOAD_MSGS messages of the configured traffic
 * sent one at a time into an empty network, each after the previous one
 * has finished.
 */
#define SIM_ZERO_LOAD_MSGS	2000

struct sim_zero_load {
	u64 count;			/* messages measured */
	double mean;			/* every class, cycles */
	double cls_mean[SIM_NCLASSES];	/* 0 where a class has no sample */
	double hops_mean;		/* links per delivery */
	u64 incomplete;			/* did not finish in a run's budget */
};

int sim_zero_load(const struct sim_config *cfg, struct sim_zero_load *z);

/* ------------------------------------------------- zero-load multicast */

/*
 * --mcast0: cfg->draws multicasts from a random source to cfg->mcast0
 * random destinations, one at a time into an empty engine.  Each send
 * costs the sender send_ovh cycles before its worms enter the network
 * (sends of one processor are sequential), each reception recv_ovh after
 * the tail is consumed.  A label or tree scheme sends one message; under
 * unicast, receivers re-inject (mcast0_relay): the holder of a range of
 * the label-sorted chain of source and destinations sends to the first
 * node of the upper half if it is in the lower half, else to the last of
 * the lower half, and keeps its own half, until every range is one node.
 */
struct sim_mcast0 {
	double mean;		/* multicast latency (last reception), cycles */
	double mean_dst;	/* per destination */
	u32 max;
	double phases;		/* mean sequential sends on the longest chain */
	double channels;	/* links crossed per multicast (flit-carrying) */
	/*
	 * Label schemes: the planner's count for the same multicasts
	 * (wc_pathplan(), each worm's links: a link two worms of a star
	 * cross counts twice), and its longest worm, per multicast.
	 */
	double plan_channels, plan_max_length;
	u64 plan_fallback;	/* ocms/otms multicasts sent by dual-path */
	u64 deadlocks, route_errors, lost;
};

int sim_mcast0(const struct sim_config *cfg, struct sim_mcast0 *r);
void sim_print_mcast0(FILE *f, const struct sim_config *cfg,
		      const struct sim_mcast0 *r);

/* ------------------------------------------------ scheduled broadcast */

/*
 * --bcast dcf|edn: one broadcast from cfg->bcast_src on a 2^d x 2^d torus
 * (Documentation/dcf.rst, "The broadcast in the engine").  The schedule is
 * dcf_build()'s; every unicast is a worm of wc_algo_plh (dimension order,
 * p/l/h virtual channels).  It is the --mcast0 driver with receivers that
 * re-inject by the schedule: a node that got the message (tail consumed,
 * plus recv_ovh = t_r) hands its unicasts of the schedule to the network in
 * order, the i-th i * send_ovh (t_s) later, and no earlier than the model
 * len cycles after the previous unicast through the same port entered it
 * (section 6.1; dcf_latency()).  The checker's report (per step: its
 * step_contending and step_timed) and the timing model's latency are
 * computed for the same schedule and timing.
 */
/*
 * Blocking the engine measured (wc_trace.blocked: header-cycles refused an
 * output), per unicast.  A unicast that entered its port the cycle the
 * model freed it (len cycles after its sender's previous unicast through
 * that port) may wait 1 to 4 cycles behind that worm's tail: the engine
 * frees a channel once the tail has left the downstream buffer.  Those
 * (Theorem 1's condition 3: one sender, one port) are counted apart, as
 * own_port; the others are contention between worms.
 */
struct sim_bcast_step {
	u32 unicasts;
	u32 blocked_worms;	/* unicasts blocked by other worms */
	u64 blocked_cycles;	/* their blocked header-cycles */
	u32 own_port_worms;	/* unicasts blocked behind their own port */
	u64 own_port_cycles;
	u64 last;		/* latest reception of the step, cycles */
};

struct sim_bcast {
	u32 nsteps, nuni;	/* nsteps <= DCF_REPORT_STEPS (--bcast) */
	u64 latency;		/* last node informed, cycles from the start */
	u64 model_latency;	/* dcf_latency() with the same timing */
	u64 paper_latency;	/* dcf_closed_form(), or 0 if none */
	bool has_paper;
	u32 len;		/* the model's L: startup + worm flits - 1 */
	u32 reached;		/* nodes (not the source) informed */
	u32 duplicates;		/* receptions beyond the first */
	u32 route_mismatch;	/* unicasts off their schedule route */
	u32 blocked_worms, own_port_worms;	/* sums of the steps' */
	u64 blocked_cycles, own_port_cycles;
	u64 own_port_max;	/* most cycles one own_port worm was blocked */
	struct sim_bcast_step step[DCF_REPORT_STEPS];
	struct dcf_report check;	/* dcf_check(), p/l/h channels */
	u64 deadlocks, route_errors;
};

int sim_bcast(const struct sim_config *cfg, struct sim_bcast *r);
void sim_print_bcast(FILE *f, const struct sim_config *cfg,
		     const struct sim_bcast *r);
/* The p/l/h routing of --bcast is the engine's wc_algo_plh (plh.h). */

/* ------------------------------------ ocms, otms, ftmesh Strategy 3 plans */

/*
 * Under --multicast ocms or otms every multicast is planned: (source,
 * destinations) go to the daemon library's wc_pathplan() (OCMS or OTMS),
 * the star is encoded as a one-plan WORMCAST_TABLE_PLANS table with
 * plans_table.h (the bytes wormcastd pushes), the engine's validator
 * builds it against the run's label set (wc_plan_set_build()) and the
 * source lays it out in the message as the kernel's does (wc_plan_find(),
 * wc_plan_use(): m->hdr_preset; kmod/fabric.c).
 * Under --multicast ftmesh --ft-strategy 3 the same with wormcastd's
 * Strategy 3 plans: wc_ftm_plans_table_build() (wc_ft_plan() with
 * Strategy 3, its worms and choices) for the one (source, group) pair,
 * validated against the run's ftmesh tables (wc_plan_set_build_ftm()),
 * matched against the destinations the source reaches (wc_plan_use()).  Random destination sets seldom repeat, so
 * nothing is cached: a plan costs microseconds to a fraction of a
 * millisecond (ocms on an 8x8 mesh, Strategy 3 for 20 destinations on
 * 50x50).
 */
struct sim_planner;

/*
 * NULL unless cfg is under ocms/otms (@ls its label set) or ftmesh
 * Strategy 3 (@ls unused), or on -ENOMEM (*err set).
 */
struct sim_planner *sim_planner_new(const struct sim_config *cfg,
				    const struct wc_label_set *ls, int *err);
void sim_planner_free(struct sim_planner *pl);
/*
 * The offline planner of a label scheme (dual-path, multipath, ocms,
 * otms): 0, or -EINVAL for the others (hamiltonian, star-tree).
 */
int sim_plan_algo(u32 scheme, enum wc_pathplan_algo *algo);
/*
 * Lay out @m's plan (m->hdr, m->hdr_max set by the caller).  0 with
 * m->hdr_preset set, or a negative errno, the message then goes by
 * dual-path, ftmesh: split by Strategy 2 (the kernel's plan_fallback):
 * -E2BIG if the planner refused, -ENOMEM, -EINVAL.
 */
int sim_plan_msg(struct sim_planner *pl, struct wc_msg *m);
/* The planner's channels (ftmesh: traffic steps) for the last plan. */
u32 sim_plan_steps(const struct sim_planner *pl);

/* ---------------------------------------------------------- saturation */

/* One point of a load sweep, as the detector sees it. */
struct sim_point {
	double load;		/* offered (nominal), flits/node/cycle */
	double accepted;	/* flits/node/cycle */
	double latency;		/* mean, cycles; INFINITY if nothing finished */
};

enum sim_knee {
	SIM_KNEE_FOUND,		/* crossed between two points */
	SIM_KNEE_BELOW,		/* already crossed at the first point */
	SIM_KNEE_NOT_REACHED,	/* not crossed within the sweep */
	SIM_KNEE_UNKNOWN,	/* no zero-load latency */
};

/* A plateau: from a point on, accepted grows less than half the load. */
#define SIM_PLATEAU_SLOPE	0.5
/* ... confirmed by a last point accepting less than 90% of its load. */
#define SIM_PLATEAU_SHORTFALL	0.9

struct sim_saturation {
	double t0;		/* zero-load latency, cycles */
	double knee_ratio;	/* the stated multiple */
	enum sim_knee knee;
	double knee_load;	/* interpolated load where latency = ratio x t0 */
	double knee_lo, knee_hi;	/* the two points around it */
	bool plateau;		/* found within the sweep */
	double plateau_load;	/* first load of the plateau */
	double plateau_accepted;	/* its level: the largest accepted */
};

/*
 * Saturation of a sweep (loads ascending): the latency knee (first load
 * whose mean latency reaches knee_ratio x t0, interpolated from the point
 * before, linearly in 1/latency) and the accepted-throughput plateau (the first point
 * i with a later point such that for every later point j, accepted_j -
 * accepted_i < SIM_PLATEAU_SLOPE x (load_j - load_i), when the last point
 * accepts less than SIM_PLATEAU_SHORTFALL of its load).
 */
void sim_find_saturation(const struct sim_point *p, u32 n, double t0,
			 double knee_ratio, struct sim_saturation *s);

/* ---------------------------------------------------------------- sweep */

struct sim_sweep {
	u32 n;				/* points */
	struct sim_result *res;		/* one per point */
	struct sim_zero_load zero;
	struct sim_saturation sat;
	u32 failed;			/* the first failed point, if any */
};

/*
 * The zero-load latency, then every point of the sweep on @jobs threads
 * (0: one per online CPU), then the saturation.  Each point is a pure
 * function of the configuration and its load, so the result does not
 * depend on @jobs.  0, or the negative errno of the zero-load run (failed
 * = n) or of the first failed point; free with sim_sweep_free().
 */
int sim_sweep(const struct sim_config *cfg, u32 jobs, struct sim_sweep *sw);
void sim_sweep_free(struct sim_sweep *sw);
/* Online CPUs, at least 1. */
u32 sim_ncpus(void);

/* ------------------------------------------------------------- outputs */

void sim_print_summary(FILE *f, const struct sim_config *cfg,
		       const struct sim_sweep *sw);
void sim_print_json(FILE *f, const struct sim_config *cfg,
		    const struct sim_sweep *sw);
void sim_print_csv(FILE *f, const struct sim_config *cfg,
		   const struct sim_sweep *sw);
/*
 * Write PREFIX.dat and PREFIX.gp, then run gnuplot to make PREFIX.png and
 * PREFIX.svg.  Returns 0, 1 if a file could not be written, or 2 if gnuplot
 * is missing or failed (the data and script are still there); @err says why.
 */
/*
 * --links-json: a JSON array, one object per load point with topology,
 * dims, nodes, load, cycles (the window) and links [{node, port, peer,
 * busy, blocked}]: the format of wormctl stats --links -j.
 */
void sim_print_links_json(FILE *f, const struct sim_config *cfg,
			  const struct sim_sweep *sw);

int sim_plot(const char *prefix, const struct sim_config *cfg,
	     const struct sim_sweep *sw, char *err, size_t errlen);

#endif /* WORMSIM_SIM_H */
