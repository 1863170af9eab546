// SPDX-License-Identifier: GPL-2.0
/*
 * wormsim --bcast (tools/wormsim/mcast0.c, sim_bcast()): the DCF and EDN
 * broadcast schedules of daemon/lib/dcf.c run through the engine, every
 * unicast a worm on the p/l/h channels, receivers re-injecting.  Checked:
 *  - every node but the source receives exactly once, on 4x4 and 8x8 from
 *    every source, on 32x32 from (0,0);
 *  - every worm crossed exactly the hops and virtual-channel classes of
 *    its route in the schedule (dcf_route());
 *  - where the offline checker predicts no contention (dcf_check(): no
 *    Theorem 1 failure, no timed overlap), the engine measures no worm
 *    blocked by another, in a whole run and step by step (the checker's
 *    pairs counted at the step of their later unicast);
 *  - the latency is never below the timing model of section 6.1
 *    (dcf_latency() of the same schedule, computed here), and equals it
 *    for DCF on 4x4 and 8x8 from every source, at t_s = t_r = 0 and 200,
 *    and in every run where the engine measured no blocking at all --
 *    at t_s = t_r = 0 with the engine's one-cycle turnaround (a relay
 *    enters the cycle after its reception: the model with t_r = 1, less
 *    the last reception's 1);
 *  - EDN, where the checker predicts timed overlaps, is blocked in the
 *    engine too, and is slower than DCF;
 *  - a DCF worm that entered its port right behind its sender's previous
 *    one waits at most 4 cycles for that worm's tail (own_port_max);
 *  - bad options are refused.
 */
#include "tap.h"
#include "../../tools/wormsim/sim.c"
#include "../../tools/wormsim/mcast0.c"

#define FLITS 31	/* data flits: worms of 33 flits, L = 32 */

static int run(u32 side, const char *scheme, u32 src, u32 ovh, u32 flits,
	       struct sim_config *cfg, struct sim_bcast *b)
{
	char dims[16], s[16], o[16], f[16], err[256];
	char *argv[] = { "wormsim", "--topology", "torus", "--dims", dims,
			 "--bcast", (char *)scheme, "--src", s, "--send-ovh", o,
			 "--recv-ovh", o, "--msg-flits", f };
	int ret;

	snprintf(dims, sizeof(dims), "%ux%u", side, side);
	snprintf(s, sizeof(s), "%u", src);
	snprintf(o, sizeof(o), "%u", ovh);
	snprintf(f, sizeof(f), "%u", flits);
	ret = sim_parse_args(ARRAY_SIZE(argv), argv, cfg, err, sizeof(err));
	if (ret) {
		diag("parse: %s", err);
		return ret;
	}
	ret = sim_bcast(cfg, b);
	sim_config_free(cfg);
	return ret;
}

/*
 * Section 6.1's latency of the same schedule, independently of the run:
 * at zero load a worm of W flits over h hops takes h + W - 1 cycles in the
 * engine under --bcast (router delay 0, link delay 1, startup 0), so the
 * model's t_c = 1 and L = W - 1 = data flits + 1.
 */
static u64 model_tr(u32 side, u32 scheme, u32 src, u32 ovh, u32 tr,
		    u32 flits)
{
	struct dcf_timing tm = {
		.ts = ovh, .tr = tr, .tc = 1, .len = flits + 1,
	};
	struct dcf_sched sc;
	const char *why;
	u64 lat = 0;

	if (!dcf_build(&sc, scheme, side, src, NULL, &why)) {
		lat = dcf_latency(&sc, &tm, NULL, NULL);
		dcf_free(&sc);
	}
	return lat;
}

static u64 model(u32 side, u32 scheme, u32 src, u32 ovh, u32 flits)
{
	return model_tr(side, scheme, src, ovh, ovh, flits);
}

/*
 * The model as the engine runs it: a worm cannot enter in the cycle its
 * sender consumed its copy, so at t_s = t_r = 0 every relay enters one
 * cycle after its reception, as with t_r = 1 -- but the last reception is
 * the engine's consumption, not one cycle later.
 */
static u64 model_engine(u32 side, u32 scheme, u32 src, u32 ovh, u32 flits)
{
	if (ovh)
		return model(side, scheme, src, ovh, flits);
	return model_tr(side, scheme, src, 0, 1, flits) - 1;
}

struct tally {
	u32 runs, failed_runs, bad_delivery, bad_route, below_model;
	u32 clean_pred, clean_pred_blocked;	/* checker: no contention */
	u32 unblocked, unblocked_off_model;	/* engine: nothing blocked */
	u32 off_model;				/* latency != model */
	u64 own_port_max;			/* DCF: the turnaround */
	u32 timed_pred, timed_pred_unblocked;	/* checker: timed overlaps */
	u32 bad_step_sums;			/* per-step pairs != totals */
	u32 clean_steps, clean_steps_blocked;	/* per step, as clean_pred */
	u64 latency_sum;
};

static void one(struct tally *t, u32 side, u32 scheme, u32 src, u32 ovh)
{
	struct sim_config cfg;
	struct sim_bcast b;
	u64 m = model(side, scheme, src, ovh, FLITS);
	u64 me = model_engine(side, scheme, src, ovh, FLITS);
	bool clean;

	t->runs++;
	if (run(side, dcf_scheme_name(scheme), src, ovh, FLITS, &cfg, &b) ||
	    b.deadlocks || b.route_errors) {
		t->failed_runs++;
		return;
	}
	if (b.reached != side * side - 1 || b.duplicates) {
		if (!t->bad_delivery++)
			diag("%ux%u %s src %u: reached %u, duplicates %u",
			     side, side, dcf_scheme_name(scheme), src,
			     b.reached, b.duplicates);
	}
	t->bad_route += b.route_mismatch > 0;
	t->below_model += b.latency < m || b.model_latency != m;
	t->off_model += b.latency != me;
	clean = !b.check.contending_pairs && !b.check.timed_pairs;
	t->clean_pred += clean;
	t->clean_pred_blocked += clean && b.blocked_worms;
	if (!b.blocked_worms && !b.own_port_worms) {
		t->unblocked++;
		t->unblocked_off_model += b.latency != me;
	}
	if (b.check.timed_pairs) {
		t->timed_pred++;
		t->timed_pred_unblocked += !b.blocked_worms;
	}
	{
		u64 c = 0, tp = 0;
		u32 k;

		for (k = 0; k < b.nsteps; k++) {
			bool none = !b.check.step_contending[k] &&
				    !b.check.step_timed[k];

			c += b.check.step_contending[k];
			tp += b.check.step_timed[k];
			t->clean_steps += none;
			t->clean_steps_blocked += none && b.step[k].blocked_worms;
		}
		t->bad_step_sums += c != b.check.contending_pairs ||
				    tp != b.check.timed_pairs;
	}
	t->latency_sum += b.latency;
	if (b.own_port_max > t->own_port_max)
		t->own_port_max = b.own_port_max;
}

static void sweep(u32 side, u32 scheme, u32 ovh, u32 nsrc,
		  struct tally *t)
{
	u32 step = side * side / nsrc, src;

	memset(t, 0, sizeof(*t));
	for (src = 0; src < side * side; src += step)
		one(t, side, scheme, src, ovh);
}

int main(void)
{
	static const u32 sides[] = { 4, 8 };
	static const u32 ovhs[] = { 0, 200 };
	struct tally d, e;
	u32 i, j, unblocked = 0, timed = 0;

	for (i = 0; i < ARRAY_SIZE(sides); i++) {
		u32 n = sides[i], nn = n * n;

		for (j = 0; j < ARRAY_SIZE(ovhs); j++) {
			u32 o = ovhs[j];

			sweep(n, DCF_SCHEME_DCF, o, nn, &d);
			sweep(n, DCF_SCHEME_EDN, o, nn, &e);
			is_int(d.failed_runs + e.failed_runs, 0,
			       "%ux%u t_s = t_r = %u: %u DCF and %u EDN runs from every source, no deadlock or route error",
			       n, n, o, d.runs, e.runs);
			is_int(d.bad_delivery + e.bad_delivery, 0,
			       "%ux%u t_s = t_r = %u: every node but the source reached exactly once (DCF, EDN)",
			       n, n, o);
			is_int(d.bad_route + e.bad_route, 0,
			       "%ux%u t_s = t_r = %u: every worm took its scheduled hops on its p/l/h class",
			       n, n, o);
			is_int(d.below_model + e.below_model, 0,
			       "%ux%u t_s = t_r = %u: latency >= dcf_latency() of the same schedule, which sim_bcast() reports",
			       n, n, o);
			is_int(d.clean_pred, d.runs,
			       "%ux%u t_s = t_r = %u: the checker predicts DCF contention-free from every source",
			       n, n, o);
			is_int(d.clean_pred_blocked + e.clean_pred_blocked, 0,
			       "%ux%u t_s = t_r = %u: no worm blocked by another where the checker predicts none (%u DCF, %u EDN runs)",
			       n, n, o, d.clean_pred, e.clean_pred);
			is_int(d.off_model, 0,
			       "%ux%u t_s = t_r = %u: DCF latency = the timing model from every source",
			       n, n, o);
			is_int(d.unblocked_off_model + e.unblocked_off_model, 0,
			       "%ux%u t_s = t_r = %u: latency = the model in the %u runs with nothing blocked",
			       n, n, o, d.unblocked + e.unblocked);
			is_int(e.timed_pred_unblocked, 0,
			       "%ux%u t_s = t_r = %u: EDN blocked in the engine in the %u runs with timed overlaps predicted",
			       n, n, o, e.timed_pred);
			is_int(d.bad_step_sums + e.bad_step_sums, 0,
			       "%ux%u t_s = t_r = %u: the checker's per-step pairs add up to its totals",
			       n, n, o);
			is_int(d.clean_steps_blocked + e.clean_steps_blocked, 0,
			       "%ux%u t_s = t_r = %u: no worm blocked by another in the %u steps where the checker predicts no contention",
			       n, n, o, d.clean_steps + e.clean_steps);
			ok(d.own_port_max <= 4,
			   "%ux%u t_s = t_r = %u: DCF worms wait at most 4 cycles behind their own port (%llu)",
			   n, n, o, (unsigned long long)d.own_port_max);
			unblocked += d.unblocked + e.unblocked;
			timed += e.timed_pred;
			ok(e.latency_sum > d.latency_sum,
			   "%ux%u t_s = t_r = %u: EDN slower than DCF (sum over sources %llu > %llu)",
			   n, n, o, (unsigned long long)e.latency_sum,
			   (unsigned long long)d.latency_sum);
		}
	}
	ok(unblocked > 0 && timed > 0,
	   "the checks above are not vacuous: %u runs with nothing blocked, %u EDN runs with timed overlaps",
	   unblocked, timed);
	/* the checker predicts EDN timed overlaps on 8x8 from (0,0) at t_s 0 */
	sweep(8, DCF_SCHEME_EDN, 0, 1, &e);
	is_int(e.timed_pred, 1, "8x8 EDN from (0,0), t_s = 0: the checker predicts timed overlaps");

	/* 32x32, the paper's simulation */
	for (j = 0; j < ARRAY_SIZE(ovhs); j++) {
		sweep(32, DCF_SCHEME_DCF, ovhs[j], 1, &d);
		sweep(32, DCF_SCHEME_EDN, ovhs[j], 1, &e);
		is_int(d.failed_runs + e.failed_runs + d.bad_delivery +
		       e.bad_delivery + d.bad_route + e.bad_route, 0,
		       "32x32 from (0,0), t_s = t_r = %u: DCF and EDN complete, every node once, on their routes",
		       ovhs[j]);
		is_int(d.below_model + e.below_model, 0,
		       "32x32 t_s = t_r = %u: latency >= the model (DCF %llu, EDN %llu)",
		       ovhs[j], (unsigned long long)d.latency_sum,
		       (unsigned long long)e.latency_sum);
		ok(e.latency_sum > d.latency_sum,
		   "32x32 t_s = t_r = %u: DCF faster than EDN", ovhs[j]);
	}

	/* refusals */
	{
		static const char *const bad[][6] = {
			{ "--topology", "mesh", "--bcast", "dcf", NULL },
			{ "--topology", "torus", "--dims", "6x6", "--bcast", "dcf" },
			{ "--topology", "torus", "--dims", "8x4", "--bcast", "dcf" },
			{ "--topology", "torus", "--bcast", "unicast-bcast", NULL },
			{ "--topology", "torus", "--bcast", "dcf", "--vcs", "1" },
			{ "--topology", "torus", "--bcast", "dcf", "--src", "64" },
			{ "--topology", "torus", "--src", "3", NULL },
			{ "--topology", "torus", "--bcast", "dcf", "--draws", "3" },
			{ "--topology", "torus", "--bcast", "dcf", "--mcast0", "3" },
			{ "--topology", "torus", "--bcast", "edn", "--multicast", "spam" },
			{ "--topology", "torus", "--bcast", "dcf", "--bcast-relay", "fifo" },
			{ "--topology", "torus", "--bcast-relay", "queue", NULL },
		};
		struct sim_config cfg;
		char err[256];
		u32 k, refused = 0;

		for (k = 0; k < ARRAY_SIZE(bad); k++) {
			char *argv[7] = { "wormsim" };
			int argc = 1;

			while (argc < 7 && bad[k][argc - 1])
				argv[argc] = (char *)bad[k][argc - 1], argc++;
			if (sim_parse_args(argc, argv, &cfg, err, sizeof(err)) == 1)
				refused++;
			else
				diag("accepted: %s %s %s %s", argv[1], argv[2],
				     argv[3], argc > 4 ? argv[4] : "");
			sim_config_free(&cfg);
		}
		is_int(refused, ARRAY_SIZE(bad), "bad --bcast option sets refused (status 1)");
	}
	return done_testing();
}
