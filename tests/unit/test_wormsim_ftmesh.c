// SPDX-License-Identifier: GPL-2.0
/*
 * wormsim --multicast ftmesh (Wu and Chen's fault-tolerant minimal
 * multicast, kmod/engine/ft_mcast.c) with --random-faults N faulty nodes
 * on 2-D meshes: under load no watchdog report, no route error, no copy
 * misdelivered, no message finished with a reachable destination missed,
 * no worm absorbed at a faulty node; the traffic steps per multicast below
 * those of multiple unicast; destinations the source cannot reach
 * minimally counted, or with --ft-detour most of them sent on a detour; the faulty nodes reproducible per --seed; bad
 * arguments refused.  Strategy 3 (every multicast sent as the daemon
 * library's plan, laid out by the kernel's code): the links the engine
 * reserved for each planned multicast are as many as the offline
 * planner's traffic steps, and on the same groups (the same seed)
 * Strategy 3 takes no more traffic steps than Strategy 2.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "../../tools/wormsim/sim.c"
#include "sim_parse.h"

static void run_case(const char *dims, const char *faults, const char *strat,
		     const char *repl, const char *buf, bool detour)
{
	struct sim_config cfg;
	struct sim_result res;
	char err[512] = "";
	int ret;

#define FT_ARGS(vcs) "--topology", "mesh", "--dims", dims, "--vcs", vcs, \
	"--multicast", "ftmesh", "--ft-strategy", strat, \
	"--random-faults", faults, "--replication", repl, \
	"--buf-flits", buf, "--mcast-frac", "0.3", "--dsts", "uniform:2:20", \
	"--msg-flits", "8", "--load", detour ? "0.005" : "0.02", \
	"--cycles", "20000", "--seed", "5"
	if (detour)
		ret = PARSE(&cfg, err, FT_ARGS("8"), "--ft-detour");
	else
		ret = PARSE(&cfg, err, FT_ARGS("4"));
#undef FT_ARGS
	if (!is_int(ret, 0, "%s, %s faults, Strategy %s, %s: parsed", dims,
		    faults, strat, repl)) {
		diag("%s", err);
		return;
	}
	memset(&res, 0, sizeof(res));
	ret = sim_run(&cfg, cfg.load, &res);
	is_int(ret, 0, "%s, %s faults: run", dims, faults);
	diag("%s, %s faults, Strategy %s, %s: %llu unicasts, %llu multicasts measured, mean latency %.1f / %.1f; %.2f traffic steps per multicast against %.2f for multiple unicast; %llu destinations left out",
	     dims, faults, strat, repl,
	     (unsigned long long)res.cls[SIM_UNICAST].count,
	     (unsigned long long)res.cls[SIM_MULTICAST].count,
	     res.cls[SIM_UNICAST].mean, res.cls[SIM_MULTICAST].mean,
	     res.ft_mcasts ? (double)res.ft_links / res.ft_mcasts : 0.0,
	     res.ft_mcasts ? (double)res.ft_unicast_steps / res.ft_mcasts : 0.0,
	     (unsigned long long)res.ft_left_out);
	ok(!res.deadlocks && !res.route_errors && !res.misdelivered &&
	   !res.lost && !res.incomplete,
	   "%s, %s faults, %s: no watchdog, route error, misdelivery, loss (%llu, %llu, %llu, %llu, %llu)",
	   dims, faults, repl, (unsigned long long)res.deadlocks,
	   (unsigned long long)res.route_errors,
	   (unsigned long long)res.misdelivered, (unsigned long long)res.lost,
	   (unsigned long long)res.incomplete);
	ok(res.ft_mcasts > 50 && res.ft_links < res.ft_unicast_steps,
	   "%s, %s faults: %llu multicasts took fewer traffic steps (%llu) than multiple unicast (%llu)",
	   dims, faults, (unsigned long long)res.ft_mcasts,
	   (unsigned long long)res.ft_links,
	   (unsigned long long)res.ft_unicast_steps);
	ok(res.ft_left_out > 0, "%s, %s faults: %llu destinations left out at the source, counted",
	   dims, faults, (unsigned long long)res.ft_left_out);
	if (detour)
		ok(res.ft_detoured > res.ft_left_out,
		   "%s, %s faults, --ft-detour: %llu destinations reached on a detour, %llu left out",
		   dims, faults, (unsigned long long)res.ft_detoured,
		   (unsigned long long)res.ft_left_out);
	sim_config_free(&cfg);
}

static void test_args(void)
{
	struct sim_config cfg, c2;
	char err[512] = "";
	u32 i, same = 0;

	is_int(PARSE(&cfg, err, "--dims", "8x8", "--multicast", "ftmesh"), 1,
	       "ftmesh with 1 VC refused");
	ok(strstr(err, "--vcs 4") != NULL, "... naming --vcs 4: %s", err);
	is_int(PARSE(&cfg, err, "--topology", "torus", "--dims", "8x8", "--vcs", "4",
		     "--multicast", "ftmesh"), 1, "ftmesh on a torus refused");
	is_int(PARSE(&cfg, err, "--dims", "8x8", "--vcs", "4", "--multicast",
		     "ftmesh", "--ft-strategy", "4"), 1, "--ft-strategy 4 refused");
	ok(strstr(err, "1, 2 or 3") != NULL, "... %s", err);
	is_int(PARSE(&cfg, err, "--dims", "8x8", "--vcs", "4", "--multicast",
		     "ftmesh", "--ft-strategy", "3", "--random-faults", "3"), 0,
	       "--ft-strategy 3 accepted");
	ok(cfg.ft_strategy == 3 && cfg.ftm.strategy == 3 &&
	   cfg.ft_fi.nnodes == 64,
	   "... tables of strategy 3 and the fault information kept");
	sim_config_free(&cfg);
	is_int(PARSE(&cfg, err, "--dims", "8x8", "--vcs", "4", "--ft-strategy", "1"),
	       1, "--ft-strategy without ftmesh refused");
	is_int(PARSE(&cfg, err, "--dims", "8x8", "--vcs", "4", "--multicast",
		     "ftmesh", "--ft-detour"), 1, "--ft-detour with 4 VCs refused");
	ok(strstr(err, "--vcs 8") != NULL, "... %s", err);
	is_int(PARSE(&cfg, err, "--dims", "8x8", "--vcs", "4", "--multicast",
		     "ftmesh", "--replication", "async", "--mcast-frac", "0.5"),
	       1, "async replication with 1-flit buffers refused");
	is_int(PARSE(&cfg, err, "--dims", "8x8", "--vcs", "4", "--multicast",
		     "ftmesh", "--fault-link", "0:1"), 1,
	       "--fault-link under ftmesh refused (faulty nodes)");
	is_int(PARSE(&cfg, err, "--dims", "20x20", "--vcs", "4", "--multicast",
		     "ftmesh", "--random-faults", "25", "--seed", "9"), 0,
	       "25 faulty nodes");
	is_int(PARSE(&c2, err, "--dims", "20x20", "--vcs", "4", "--multicast",
		     "ftmesh", "--random-faults", "25", "--seed", "9"), 0,
	       "the same again");
	for (i = 0; i < cfg.nfault_nodes && i < c2.nfault_nodes; i++)
		same += cfg.fault_nodes[i] == c2.fault_nodes[i];
	ok(cfg.nfault_nodes == 25 && same == 25, "the same seed draws the same 25 nodes");
	for (i = 0; i < cfg.nfault_nodes; i++)
		if (!cfg.ftm.in_block[cfg.fault_nodes[i]])
			break;
	is_int(i, 25, "every faulty node is inside a faulty block of the tables");
	sim_config_free(&cfg);
	sim_config_free(&c2);
}

/* One seeded run of --ft-strategy @strat; 0 or -1 if it failed. */
static int run_strategy(const char *dims, const char *faults,
			const char *strat, const char *load,
			struct sim_result *res)
{
	struct sim_config cfg;
	char err[512] = "";
	int ret;

	ret = PARSE(&cfg, err, "--topology", "mesh", "--dims", dims, "--vcs",
		    "4", "--multicast", "ftmesh", "--ft-strategy", strat,
		    "--random-faults", faults, "--replication", "async",
		    "--buf-flits", "64", "--mcast-frac", "0.5", "--dsts",
		    "uniform:2:30", "--msg-flits", "8", "--load", load,
		    "--cycles", "20000", "--seed", "11");
	if (!is_int(ret, 0, "%s, %s faults, Strategy %s: parsed", dims,
		    faults, strat)) {
		diag("%s", err);
		return -1;
	}
	memset(res, 0, sizeof(*res));
	ret = sim_run(&cfg, cfg.load, res);
	sim_config_free(&cfg);
	diag("%s, %s faults, Strategy %s: %llu multicasts, %llu traffic steps (multiple unicast %llu), %llu planned: %llu links against the planner's %llu steps, %llu differ; %llu without a plan",
	     dims, faults, strat, (unsigned long long)res->ft_mcasts,
	     (unsigned long long)res->ft_links,
	     (unsigned long long)res->ft_unicast_steps,
	     (unsigned long long)res->ft_planned,
	     (unsigned long long)res->ft_plan_links,
	     (unsigned long long)res->ft_plan_steps,
	     (unsigned long long)res->ft_plan_mismatch,
	     (unsigned long long)res->plan_fallback);
	return is_int(ret, 0, "%s, %s faults, Strategy %s: run", dims, faults,
		      strat) ? 0 : -1;
}

static void test_strategy3(const char *dims, const char *faults,
			   const char *load)
{
	struct sim_result r2, r3;

	if (run_strategy(dims, faults, "3", load, &r3) ||
	    run_strategy(dims, faults, "2", load, &r2))
		return;
	ok(!r3.deadlocks && !r3.route_errors && !r3.misdelivered &&
	   !r3.lost && !r3.incomplete,
	   "%s, %s faults, Strategy 3: no watchdog, route error, misdelivery, loss",
	   dims, faults);
	/* nearly all planned: a pair is skipped only for > 14 choices */
	ok(r3.ft_planned > 100 && r3.ft_planned + r3.plan_fallback >=
	   r3.ft_mcasts && r3.plan_fallback * 20 <= r3.ft_mcasts,
	   "%s, %s faults: %llu of %llu multicasts sent with a plan (%llu without)",
	   dims, faults, (unsigned long long)r3.ft_planned,
	   (unsigned long long)r3.ft_mcasts,
	   (unsigned long long)r3.plan_fallback);
	ok(!r3.ft_plan_mismatch && r3.ft_plan_links == r3.ft_plan_steps,
	   "%s, %s faults: the planned multicasts reserved %llu links, the planner's %llu traffic steps (%llu multicasts differ)",
	   dims, faults, (unsigned long long)r3.ft_plan_links,
	   (unsigned long long)r3.ft_plan_steps,
	   (unsigned long long)r3.ft_plan_mismatch);
	ok(!r2.ft_planned && !r2.plan_fallback,
	   "%s, %s faults: Strategy 2 plans nothing", dims, faults);
	/* the same seed: the same messages, so the same unicast baseline */
	ok(r2.ft_mcasts == r3.ft_mcasts &&
	   r2.ft_unicast_steps == r3.ft_unicast_steps &&
	   r2.ft_left_out == r3.ft_left_out,
	   "%s, %s faults: the same %llu multicasts under both strategies (multiple unicast %llu and %llu steps)",
	   dims, faults, (unsigned long long)r3.ft_mcasts,
	   (unsigned long long)r2.ft_unicast_steps,
	   (unsigned long long)r3.ft_unicast_steps);
	ok(r3.ft_links <= r2.ft_links && r3.ft_links < r3.ft_unicast_steps,
	   "%s, %s faults: Strategy 3 %llu traffic steps, Strategy 2 %llu, multiple unicast %llu",
	   dims, faults, (unsigned long long)r3.ft_links,
	   (unsigned long long)r2.ft_links,
	   (unsigned long long)r3.ft_unicast_steps);
}

int main(void)
{
	test_args();
	test_strategy3("20x20", "30", "0.01");
	test_strategy3("50x50", "100", "0.004");
	run_case("20x20", "20", "2", "async", "64", false);
	run_case("20x20", "40", "1", "async", "64", false);
	run_case("50x50", "100", "2", "async", "64", false);
	run_case("20x20", "30", "2", "async", "64", true);
	return done_testing();
}
