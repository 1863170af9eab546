/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Depth-contention-free (DCF) broadcast on an all-port 2^d x 2^d torus with
 * dimension-ordered unicast routing (Hou, Wang and Hsu, ICS 1998), and the
 * baselines it is compared with.
 *
 * A broadcast is a list of unicasts (u, v, p(u, v), t): sender, receiver,
 * the dimension-ordered route and the message-passing step t (Definition 1
 * of the paper).  A schedule is built from building blocks applied phase by
 * phase with a shrinking unit size delta:
 *
 *  - DCF, 4^k x 4^k torus: k phases of the DCF_block (16 units, 2 steps),
 *    delta = 4^(k-j) in phase j;
 *  - DCF, (2*4^k) x (2*4^k) torus: k DCF phases with delta = 2*4^(k-j),
 *    then one phase of the Z_block of Fig. 5 with delta = 1;
 *  - EDN (baseline): the level_d Z_block decomposition of section 5.1, d
 *    phases of one step each, delta = 2^(d-s) (see Documentation/dcf.rst:
 *    the paper gives no more of Tsai and McKinley's pattern than that);
 *  - unicast-based broadcast (baseline, Fig. 3(a)): the source sends a
 *    separate unicast to every other node.
 *
 * Routes: x first, then y, each the shorter way round the ring; a tie
 * (offset exactly n/2) goes the + way.  Every hop uses a virtual channel of
 * section 2: p if the message has still to cross the wraparound link of
 * that dimension (the wraparound hop itself included), otherwise l (on a -
 * link) or h (on a + link).  A directed link thus carries two channels: p
 * and l/h.
 *
 * Node ids are those of topology.h: id = x + n * y.  Ports: 0 = +x, 1 = -x,
 * 2 = +y, 3 = -y.
 */
#ifndef WC_DCF_H
#define WC_DCF_H

#include "topology.h"
#include "plh.h"

#define DCF_MIN_SIDE	WC_PLH_MIN_SIDE
#define DCF_MAX_SIDE	WC_PLH_MAX_SIDE	/* 64 x 64 = 4096 nodes <= WC_MAX_NODES */
#define DCF_NPORTS	4
#define DCF_NO_UNICAST	U32_MAX

enum dcf_scheme {
	DCF_SCHEME_DCF,
	DCF_SCHEME_EDN,
	DCF_SCHEME_UNICAST,
};

/* Virtual channel class of one hop. */
enum dcf_vc {
	DCF_VC_LH = WC_PLH_LH,	/* l on a - link, h on a + link */
	DCF_VC_P = WC_PLH_P,	/* before (and on) the wraparound link */
};

/*
 * The checker's model: where the paper allows two readings, a choice
 * (Documentation/dcf.rst, "Readings").  A model is one dcf_chan_model
 * value, optionally or-ed with DCF_FIRST_VCHAN.
 *
 * What counts as one channel when looking for contention (section 2).
 */
enum dcf_chan_model {
	DCF_CHAN_VC,	/* p and l/h of one directed link are two channels */
	DCF_CHAN_PHYS,	/* every directed physical link is one channel */
};
#define DCF_CHAN_MASK	0x1u
/*
 * "First channel" in Theorem 1 (3) and (4): by default the output port
 * (the internal channel of the all-port model, which serialises what a
 * node sends that way); with this flag the first *virtual* channel (port
 * and p vs l/h), so that two unicasts leaving by one port on p and on l/h
 * do not have "the same first channel".  Definition 1 (3) always compares
 * ports: it is about the node's internal output channels.
 */
#define DCF_FIRST_VCHAN	0x2u
#define DCF_MODEL_MASK	(DCF_CHAN_MASK | DCF_FIRST_VCHAN)

/*
 * One unicast of a building block.  Units are labelled 0 (the block source)
 * to nunits - 1; a unicast goes from unit @from to unit @to, which lies at
 * (dx, dy) * delta from @from.  The array of a block is sorted by step, and
 * a sender's unicasts of one step appear in the order it handles them.
 */
struct dcf_send {
	u8 from;
	u8 to;
	s8 dx;
	s8 dy;
	u8 step;	/* 1-based step within the phase */
};

#define DCF_BLOCK_MAX_SENDS	15

struct dcf_block {
	const char *name;
	u8 nunits;	/* 16 (DCF_block) or 4 (Z_block) */
	u8 nsteps;	/* steps per phase */
	u8 nsends;	/* nunits - 1 */
	struct dcf_send send[DCF_BLOCK_MAX_SENDS];
};

/* The Z_block of Fig. 5: (X-1, Y+1), (X, Y+1), (X+1, Y), longest first. */
extern const struct dcf_block dcf_zblock;
/* Our reconstruction of the DCF_block of Fig. 7 (see dcf.c, dcf.rst). */
extern const struct dcf_block dcf_block_fig7;

/* Structural check of a block (labels, steps, order).  0 or -EINVAL. */
int dcf_block_validate(const struct dcf_block *b, const char **why);

struct dcf_hop {
	u32 node;	/* the channel leaves this node ... */
	u8 port;	/* ... through this port ... */
	u8 vc;		/* ... on this virtual channel (enum dcf_vc) */
};

struct dcf_unicast {
	u32 src;
	u32 dst;
	u32 step;	/* message-passing step of the broadcast, 1-based */
	u32 order;	/* 1-based rank among src's unicasts of this step */
	u32 seq;	/* 1-based rank among all of src's unicasts */
	u32 phase;	/* 1-based phase (block level) that produced it */
	u32 hop0;	/* its route: hops[hop0 .. hop0 + nhops) */
	u32 nhops;
};

struct dcf_sched {
	u32 scheme;		/* enum dcf_scheme */
	u32 side;		/* n, for an n x n torus */
	u32 src;		/* source node */
	u32 nnodes;
	u32 nsteps;
	u32 nphases;
	u32 nuni;
	u32 nhops;
	struct dcf_unicast *uni;	/* handling order: see dcf_build() */
	struct dcf_hop *hops;
};

/* True if @side is a power of two in [DCF_MIN_SIDE, DCF_MAX_SIDE]. */
bool dcf_side_ok(u32 side);

/*
 * Build the schedule of @scheme on a @side x @side torus from node @src.
 * @blk is the DCF_block to use (NULL: dcf_block_fig7); other schemes
 * ignore it.  Unicasts are stored sender by sender in the order each
 * sender handles them, and every sender's unicasts come after the unicast
 * that delivers to it.  Returns 0, -EINVAL (*why set) or -ENOMEM.
 */
int dcf_build(struct dcf_sched *s, u32 scheme, u32 side, u32 src,
	      const struct dcf_block *blk, const char **why);
void dcf_free(struct dcf_sched *s);

/*
 * Dimension-ordered route from @a to @b on an n x n torus (see above).
 * Writes at most @side hops into @hops and returns their number.
 */
u32 dcf_route(u32 side, u32 a, u32 b, struct dcf_hop *hops);

const char *dcf_scheme_name(u32 scheme);
/* "dcf", "edn", "unicast-bcast" -> scheme, or -1. */
int dcf_scheme_parse(const char *name);
const char *dcf_vc_name(u32 vc, u32 port);	/* "p", "l" or "h" */
const char *dcf_port_name(u32 port);		/* "+x", "-x", "+y", "-y" */

/*
 * Timing model of section 6.1, all in the same unit (cycles): t_s sending
 * latency per message, t_c per flit per channel, t_r receiving latency,
 * len = L, the message length in flits.
 */
struct dcf_timing {
	u64 ts;
	u64 tc;
	u64 tr;
	u64 len;
};

/*
 * Broadcast latency computed from the schedule.  A node handles its
 * unicasts one after the other: the i-th is ready i * t_s after the node
 * received the message (the source starts at 0).  It enters its first
 * channel when ready and when the previous unicast through the same output
 * port has left it (L * t_c after entering), and is received h * t_c +
 * L * t_c + t_r after entering.  @recv (nnodes entries) and @start (nuni
 * entries) receive the times if not NULL.  Returns the latest receive time.
 */
u64 dcf_latency(const struct dcf_sched *s, const struct dcf_timing *t,
		u64 *recv, u64 *start);

/*
 * The paper's closed forms (section 6.1) for DCF and EDN on 4^k x 4^k and
 * (2*4^k) x (2*4^k) tori.  Returns false for other schemes.
 */
bool dcf_closed_form(u32 scheme, u32 side, const struct dcf_timing *t,
		     u64 *latency);

/* What dcf_check() found.  Pairs are unordered pairs of unicasts. */
#define DCF_REPORT_STEPS	12	/* > d steps of DCF and EDN on 64 x 64 */
struct dcf_report {
	u32 missing;		/* nodes (not the source) never receiving */
	u32 duplicates;		/* receptions beyond the first */
	u32 premature;		/* Def. 1 (1)/(2): sender not yet informed */
	u32 port_clashes;	/* Def. 1 (3): same sender, step and port */
	u32 bad_routes;		/* route not a path of links to dst */
	u32 nsteps;
	u64 shared_pairs;	/* pairs sharing at least one channel */
	u64 stepwise_pairs;	/* ... of which in the same step */
	u64 contending_pairs;	/* ... satisfying no condition of Thm. 1 */
	u64 timed_pairs;	/* ... overlapping on a channel in time */
	u32 example[2];		/* one contending pair, or DCF_NO_UNICAST */
	u64 latency;		/* dcf_latency() */
	/*
	 * contending_pairs and timed_pairs by the step of the pair's later
	 * unicast: entry t - 1 for step t, the last entry for every step from
	 * DCF_REPORT_STEPS on.
	 */
	u64 step_contending[DCF_REPORT_STEPS];
	u64 step_timed[DCF_REPORT_STEPS];
};

/*
 * Mechanical check of a schedule: exactly-once delivery, Definition 1, and
 * every pair of unicasts sharing a channel (under @model: a dcf_chan_model,
 * optionally | DCF_FIRST_VCHAN) against the conditions of Theorem 1; timed
 * overlaps and the latency use @t.  A schedule is depth contention-free if
 * contending_pairs == 0.  Returns 0, -EINVAL (unknown model bits) or
 * -ENOMEM.
 */
int dcf_check(const struct dcf_sched *s, u32 model,
	      const struct dcf_timing *t, struct dcf_report *r);

/* True if the report shows a valid depth-contention-free broadcast. */
bool dcf_report_clean(const struct dcf_report *r);

/*
 * The search for the DCF_block (see dcf_search.c and dcf.rst): every
 * block with S -> A = (2, 1), B (distance 2), C, D (distance 1) in step 1
 * in that order, S -> (1, 0) in step 2, A -> its four neighbours, B, C, D
 * -> 3, 2, 1 units at distance <= 2, 3, 3 from themselves.  A candidate is
 * valid if, on every torus side in @sides and from every source node, the
 * schedule is a clean depth-contention-free broadcast under @model and its
 * latency equals the closed form for a set of timings.
 */
struct dcf_search {
	u32 examined;		/* candidates tried */
	u32 structural;		/* ... of which a valid broadcast on 4x4 */
	u32 contention_free;	/* ... depth contention-free everywhere */
	u32 valid;		/* ... and with the closed-form latency */
	u32 nkept;		/* valid candidates stored in kept[] */
	struct dcf_block *kept;	/* the first max_kept valid candidates */
	struct dcf_block best;	/* the chosen one (if valid > 0) */
	u32 best_hops;		/* its dcf_block_hops() */
	u64 best_sum;		/* its sum of unit receive times (ts=tc=1) */
};

int dcf_search_blocks(u32 model, const u32 *sides, u32 nsides,
		      u32 max_kept, struct dcf_search *res);

/*
 * The same search with its options: @model as for dcf_check(); B, C and D
 * send step-2 unicasts of at most @max_reach (1..3) delta; with
 * @origin_only the schedules are checked from node 0 only (the paper's
 * simulation) instead of from every node; with @timed a schedule counts as
 * contention-free when no two unicasts overlap on a channel in time under
 * the settings of Figs. 8 and 9 (dcf_report.timed_pairs == 0) instead of
 * when every pair meets Theorem 1.  dcf_search_blocks() is max_reach = 3,
 * every source, Theorem 1.
 */
struct dcf_search_opts {
	u32 model;
	u32 max_reach;
	bool origin_only;
	bool timed;
};

int dcf_search_blocks_opts(const struct dcf_search_opts *o, const u32 *sides,
			   u32 nsides, u32 max_kept, struct dcf_search *res);
void dcf_search_free(struct dcf_search *res);

/* Total hops of a block in units of delta: the search's tie-breaker. */
u32 dcf_block_hops(const struct dcf_block *b);

#endif /* WC_DCF_H */
