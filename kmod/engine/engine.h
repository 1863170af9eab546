/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The flit-level wormhole engine.  Kernel-agnostic: built into wormcast.ko
 * (driven from the fabric's NAPI poll) and into userspace (wormsim, tests).
 *
 * Model (Documentation/engine.rst has the full story):
 *  - Every node has a router with one output port per topology link, plus
 *    inj_channels injection channels (processor -> router) and
 *    cons_channels consumption channels (router -> processor).
 *  - Every directed link carries vcs virtual channels; each VC owns a
 *    buffer of buf_flits flits at its downstream router.  A VC belongs to
 *    one worm from the moment its header reserves it until its tail leaves.
 *  - Time is in cycles.  A channel moves at most one flit per cycle.  A flit
 *    takes link_delay cycles to cross a link; a header flit waits
 *    router_delay cycles in a router before its routing decision; data
 *    flits follow without routing delay.  A worm starts startup cycles
 *    after it takes an injection channel.  Consumption at the destination
 *    costs no extra cycle.  Hence at zero load a worm of L flits over d hops
 *    is consumed startup + d * (router_delay + link_delay) + (L - 1) cycles
 *    after submission, when buf_flits >= link_delay (Eq. 1 of the
 *    path-based paper with tau = 1 cycle).
 *  - A routing decision may reserve several outputs (network VCs and/or a
 *    consumption channel) atomically: all or none, retried every cycle.
 *    Flits are then replicated to every branch, in lock step or
 *    asynchronously (input-buffer-based) as the fabric is configured.
 *    Reserving a consumption channel together with a network output is
 *    intermediate reception.
 *  - Payload never moves: a flit is a count.  A message is held by pointer
 *    and handed back through the callbacks below.
 *  - The engine never allocates after wc_engine_create(): worms come from
 *    a pool sized so that it cannot run dry (every live worm holds at least
 *    one channel).
 *
 * Concurrency: none inside.  The caller serialises every call on one engine
 * (the kernel does so by running it only from the fabric's NAPI poll).
 */
#ifndef WC_ENGINE_H
#define WC_ENGINE_H

#include "compat.h"
#include "topology.h"

enum wc_replication {
	WC_REPL_LOCKSTEP = 0,	/* values of enum wormcast_replication */
	WC_REPL_ASYNC = 1,
};

#define WC_MAX_VCS		16
#define WC_MAX_INJ		8
#define WC_MAX_CONS		8
#define WC_MAX_BUF_FLITS	64
#define WC_MAX_DELAY		1000
#define WC_MAX_FLIT_BYTES	4096
#define WC_MAX_OUTPUTS		(WC_MAX_PORTS + 1)

struct wc_engine_params {
	u32 flit_bytes;		/* default 32 */
	u32 buf_flits;		/* B, default 1 */
	u32 vcs;		/* V, default 1, or 2 on a torus (datelines) */
	u32 inj_channels;	/* default 1 */
	u32 cons_channels;	/* default 2 */
	u32 router_delay;	/* default 1 */
	u32 link_delay;		/* default 1 */
	u32 startup;		/* alpha, default 0 */
	u32 replication;	/* enum wc_replication, default lock step */
	u32 watchdog;		/* cycles without progress, default 10000 */
};

void wc_engine_params_default(struct wc_engine_params *p,
			      const struct wc_topo *t);

/* 0, or -EINVAL with *why set to a static reason. */
int wc_engine_params_check(const struct wc_engine_params *p,
			   const struct wc_topo *t, const char **why);

/*
 * A message: what a source hands to the engine.  Allocated by the caller
 * with wc_msg_size() bytes, initialised with wc_msg_init(); it belongs to
 * the engine from wc_engine_submit() until the msg_done callback.
 */
struct wc_msg {
	/* set by the caller through wc_msg_init() / wc_msg_add_dst() */
	u32 src;
	u32 bytes;
	u32 ndsts;
	void *cookie;
	/*
	 * The caller's too, zeroed by wc_msg_init() and never read by the
	 * engine: the kernel fabric keeps there the clone of the frame that
	 * the message's copies are made from.
	 */
	void *copy_src;
	/*
	 * Header storage for algorithms whose header does not fit in a
	 * worm (wc_algo.hdr_words), owned by the caller and alive until
	 * msg_done; zeroed by wc_msg_init().  Such an algorithm sends one
	 * worm per message.
	 */
	u32 *hdr;
	u32 hdr_max;			/* words at @hdr */
	/*
	 * The caller laid the header out in @hdr already (a plan of the
	 * ocms/otms schemes, plans.h): the algorithm sends it as it is.
	 */
	bool hdr_preset;
	/*
	 * Optional trace, owned by the caller and alive until msg_done;
	 * NULL (wc_msg_init()) costs nothing.  See struct wc_trace.
	 */
	struct wc_trace *trace;
	/* engine private */
	struct wc_msg *next;
	u64 t_submit;
	u32 next_dst;		/* planner cursor */
	u32 worms_live;
	u32 ndelivered;		/* destinations consumed (stray copies excluded) */
	/*
	 * Network channels the message's worms reserved: its traffic steps
	 * (Wu and Chen), counted as they are reserved.
	 */
	u32 nlinks;
	/*
	 * Set before msg_done: destinations not reached because a branch of
	 * the message was absorbed by a fault (Documentation/engine.rst,
	 * "Faults"), 0 otherwise.
	 */
	u32 fault_lost;
	bool faulted;		/* a branch was absorbed by a fault */
	/*
	 * Where, when faulted: the router that absorbed the first branch
	 * (fault_at), the output port that branch asked for (fault_port;
	 * WC_FAULT_NODE when a failed node was in the way: the router itself
	 * or the neighbour), and the branches absorbed (fault_cuts).  What
	 * DSTM's local information re-injects from (tree_mcast.h).
	 */
	u8 fault_port;
	u16 fault_cuts;
	u32 fault_at;
	bool planned;		/* every worm of the message has been created */
	bool queued;		/* still in its source's queue */
	u32 dstmap[];		/* bitmap of destination nodes */
};

/*
 * What the engine records about a traced message (the capture device):
 * the network channels its worms reserved, each destination's injection
 * and consumption cycles, and the header-cycles it spent blocked.  The
 * caller sizes the arrays; entries beyond them are counted in @lost.
 */
struct wc_trace_link {
	u16 node;		/* router the channel leaves */
	u8 port;		/* its output port */
	u8 vc;
	u32 worm;		/* worm of the message, from 0 */
};

struct wc_trace_dst {
	u32 node;
	u32 worm;
	u64 inject;		/* cycle the worm took its injection channel */
	u64 consume;		/* cycle its tail was consumed at @node */
};

struct wc_trace {
	u32 max_links, nlinks;
	u32 max_dsts, ndsts;
	u32 nworms;		/* worms started */
	u32 lost;		/* entries that did not fit */
	u64 blocked;		/* header-cycles blocked on an output */
	struct wc_trace_link *links;
	struct wc_trace_dst *dsts;
};

struct wc_engine;

/* Header of a worm as seen by a routing function. */
struct wc_hdr {
	const u32 *words;	/* algorithm-defined header contents */
	u32 nwords;
	u32 nflits;		/* header flits on this branch */
};

/* One requested output of a routing decision. */
struct wc_route_out {
	bool consume;		/* consumption channel at this router */
	u8 port;		/* network port, if !consume */
	u16 vc_mask;		/* allowed VCs, or consumption channels (0: any) */
	u16 hdr_skip_words;	/* header rewrite: words dropped on this branch */
	u16 hdr_words;		/* words kept (after the skipped ones) */
	u16 hdr_flits;		/* header flits on this branch (<= incoming) */
};

struct wc_route_req {
	u32 nout;
	struct wc_route_out out[WC_MAX_OUTPUTS];
};

/* Where a header stands when it is routed. */
struct wc_route_ctx {
	const struct wc_topo *topo;
	const struct wc_engine_params *params;
	const void *tables;	/* algorithm tables, as passed to wc_engine_run() */
	u32 node;		/* current router */
	u32 src;		/* source of the worm */
	u32 in_port;		/* arrival port, or WC_PORT_INJ at the source */
	u32 in_vc;		/* arrival virtual channel (0 at the source) */
};

#define WC_PORT_INJ	0xffu

/*
 * An algorithm: how a source cuts a message into worms, and how routers
 * route their headers.
 *
 * next_worm(): fill @hdr (and the words it points to, up to @max_words in
 * @words) for the next worm of @m, or return false when the message has no
 * worm left.  Called when an injection channel of the source is free.
 *
 * route(): the routing decision for @hdr at ctx->node.  Returns 0 with
 * @req filled (at least one output), or a negative errno when the header
 * is unroutable (the worm is then drained and reported, never stuck).
 */
struct wc_algo {
	const char *name;
	bool (*next_worm)(const struct wc_route_ctx *ctx, struct wc_msg *m,
			  u32 *words, u32 max_words, struct wc_hdr *hdr);
	int (*route)(const struct wc_route_ctx *ctx, const struct wc_hdr *hdr,
		     struct wc_route_req *req);
	/* Reject parameters the algorithm cannot run on (e.g. too few VCs
	 * for deadlock freedom).  Optional.
	 */
	int (*check)(const struct wc_topo *t, const struct wc_engine_params *p,
		     const char **why);
	/*
	 * Optional: header words a message to @ndsts destinations needs in
	 * m->hdr (0 or absent: the header fits in the worm).
	 */
	u32 (*hdr_words)(u32 ndsts);
	/*
	 * Optional: called once the outputs of @req are reserved, before the
	 * header moves on, with the header words of the routed channel,
	 * which it may rewrite (DSTM's S bit at the first split).
	 */
	void (*routed)(const struct wc_route_ctx *ctx, u32 *words, u32 nwords,
		       const struct wc_route_req *req);
};

/*
 * next_worm() of the unicast algorithms: one worm per destination, in
 * node order, its header the destination's id (one word, one flit).
 */
bool wc_unicast_next_worm(const struct wc_route_ctx *ctx, struct wc_msg *m,
			  u32 *words, u32 max_words, struct wc_hdr *hdr);

/*
 * route() of the unicast algorithms up to the port: check the header's
 * destination (*@dst), one output of the header as it came; at the
 * destination a consumption.  -EINVAL, 0 (consumed: done) or 1 (fill in
 * req->out[0]'s port and VCs).
 */
int wc_unicast_route_start(const struct wc_route_ctx *ctx,
			   const struct wc_hdr *hdr, struct wc_route_req *req,
			   u32 *dst);

/* Words of m->hdr that @algo needs for @ndsts destinations. */
static inline u32 wc_algo_hdr_words(const struct wc_algo *algo, u32 ndsts)
{
	return algo->hdr_words ? algo->hdr_words(ndsts) : 0;
}

#define WC_WORM_MAX_WORDS	4	/* header words stored inline in a worm */

/*
 * Callbacks into the engine's owner.  They run inside wc_engine_run() or
 * wc_engine_flush() and must not call back into the engine, except
 * wc_engine_yield().
 */
struct wc_engine_ops {
	/* The tail of a worm of @m was consumed at @node. */
	void (*deliver)(void *priv, struct wc_msg *m, u32 node, u64 latency);
	/* Every worm of @m is finished: the engine forgets @m. */
	void (*msg_done)(void *priv, struct wc_msg *m);
	/* A routing function failed (bug or bad tables): worm drained. */
	void (*route_error)(void *priv, struct wc_msg *m, u32 node, int err);
	/* The watchdog fired; the dump is available from wc_engine_dump_waits(). */
	void (*deadlock)(void *priv, u64 cycle);
	/*
	 * Optional: a worm of @m took an injection channel of its source
	 * @node at @cycle (its header flit enters it startup cycles later).
	 * Called once per worm, in order: the first call is the message's
	 * first injection.
	 */
	void (*injected)(void *priv, struct wc_msg *m, u32 node, u64 cycle);
};

struct wc_node_stats {
	u64 worms_injected;
	u64 flits_injected;
	u64 worms_consumed;
	u64 flits_consumed;
};

struct wc_engine_stats {
	u64 cycles;
	u64 worms_in_flight;
	u64 flit_hops;		/* flits moved across network links */
	u64 worms_done;		/* tails consumed (per destination) */
	u64 latency_sum;	/* per destination, submission to tail consumed */
	u64 latency_max;
	u64 hops_sum;		/* links crossed by the branch reaching each destination */
	u64 blocked_cycles;	/* header-cycles waiting for an output */
	u64 deadlocks;		/* watchdog reports */
	u64 route_errors;
	u64 fault_absorbed;	/* worm branches absorbed at a fault */
	u64 fault_drops;	/* destinations not reached because of a fault */
	u64 fault_reinjected;	/* messages whose fault_lost the caller re-sent */
};

struct wc_engine *wc_engine_create(const struct wc_topo *topo,
				   const struct wc_engine_params *params,
				   const struct wc_algo *algo,
				   const struct wc_engine_ops *ops, void *priv);
void wc_engine_destroy(struct wc_engine *e);

/* Bytes to allocate for a message of this engine. */
size_t wc_msg_size(const struct wc_engine *e);
void wc_msg_init(const struct wc_engine *e, struct wc_msg *m, u32 src,
		 u32 bytes, void *cookie);
void wc_msg_add_dst(const struct wc_engine *e, struct wc_msg *m, u32 node);
bool wc_msg_has_dst(const struct wc_engine *e, const struct wc_msg *m,
		    u32 node);

/*
 * Abort every message and worm (fabric teardown, or recovery after the
 * watchdog fired): msg_done is called for each message still in the
 * engine, whose destinations not yet delivered are lost; the caller
 * accounts for them.  Returns the number of messages aborted.
 */
u32 wc_engine_flush(struct wc_engine *e);

/* Queue @m at its source.  The caller bounds how many it queues. */
void wc_engine_submit(struct wc_engine *e, struct wc_msg *m);

/*
 * Timed submission: queue @m at its source, to start its worms no earlier
 * than cycle @due (a processor's send overhead, Documentation/engine.rst,
 * "Timed submission"); a @due already past means now.  m->t_submit is the
 * later of the two, so latencies count from it.  The source's queue stays
 * in order: a message behind @m waits for it, so a caller keeps the due
 * cycles of one source non-decreasing.  While such a message waits the
 * engine is busy: wc_engine_run() counts the cycles up to @due (skipped
 * at once when no worm is in flight, within its @max_cycles).
 */
void wc_engine_submit_at(struct wc_engine *e, struct wc_msg *m, u64 due);

/* Messages queued at @node whose worms are not all injected yet. */
u32 wc_engine_backlog(const struct wc_engine *e, u32 node);

/* True while any message or worm is in the engine. */
bool wc_engine_busy(const struct wc_engine *e);

/*
 * Advance at most @max_cycles cycles with routing tables @tables, stopping
 * early when the engine becomes idle.  Returns the cycles simulated.  Idle
 * time is skipped, not simulated; the cycles up to a timed message's due
 * cycle (wc_engine_submit_at()) are counted, and skipped in one step when
 * no worm is in flight.
 */
u64 wc_engine_run(struct wc_engine *e, u64 max_cycles, const void *tables);

/*
 * Make the running wc_engine_run() return at the end of the current cycle
 * (from a callback: a receiver that sends on submits its worms after the
 * run, at the next cycle, as kmod/fabric.c does under multiphase).
 */
void wc_engine_yield(struct wc_engine *e);

/* Current cycle. */
u64 wc_engine_now(const struct wc_engine *e);

/*
 * Route the messages submitted from now on with @algo; only while the
 * engine is idle (-EBUSY otherwise), since the worms of two algorithms
 * could deadlock each other.  -EINVAL (and *why) if @algo's check()
 * refuses the engine's topology or parameters.
 */
int wc_engine_set_algo(struct wc_engine *e, const struct wc_algo *algo,
		       const char **why);

/* Change the watchdog period; -EINVAL (and *why) if out of range. */
int wc_engine_set_watchdog(struct wc_engine *e, u32 cycles, const char **why);

void wc_engine_get_stats(const struct wc_engine *e, struct wc_engine_stats *s);

/* Bytes the engine allocated (all of it happens in wc_engine_create()). */
size_t wc_engine_mem(const struct wc_engine *e);
void wc_engine_node_stats(const struct wc_engine *e, u32 node,
			  struct wc_node_stats *s);
/* Busy cycles of the physical channel (@node, @port), all VCs together. */
u64 wc_engine_channel_busy(const struct wc_engine *e, u32 node, u32 port);
/*
 * Blocked cycles of the physical channel (@node, @port): header-cycles in
 * which a routed header at @node (router_delay elapsed) asked for output
 * @port and found none of its allowed VCs free, or the link already
 * carrying a flit that cycle.  A header refused several network outputs at
 * once (a multicast split) counts on each of them; one that waits only for
 * a consumption channel counts on none.  So the sum over channels may
 * differ from wc_engine_stats.blocked_cycles.
 */
u64 wc_engine_channel_blocked(const struct wc_engine *e, u32 node, u32 port);

/*
 * Describe who holds and who waits for which channel, one line per blocked
 * header, into @buf (NUL-terminated, truncated to @len).  Returns the
 * number of blocked headers.
 */
u32 wc_engine_dump_waits(const struct wc_engine *e, char *buf, size_t len);

/*
 * Live faults (Documentation/engine.rst, "Faults").  A failed link is both
 * directions of every channel between two adjacent nodes; a failed node is
 * every channel into and out of it plus its router.  A fault takes effect
 * at the next header reservation: a worm that already holds a failed
 * channel drains through it, a header that would need one (or stands at a
 * failed router) is absorbed there, and the destinations its message did
 * not reach are counted in wc_msg.fault_lost and stats.fault_drops.
 *
 * wc_engine_fault_link() and wc_engine_fault_node() set (@down) or clear a
 * fault: 0, -EINVAL (*why set: not adjacent, out of range), -EEXIST (already
 * failed) or -ENOENT (not failed).  Serialised with wc_engine_run() like
 * every other call.
 */
int wc_engine_fault_link(struct wc_engine *e, u32 a, u32 b, bool down,
			 const char **why);
int wc_engine_fault_node(struct wc_engine *e, u32 n, bool down,
			 const char **why);
bool wc_engine_link_failed(const struct wc_engine *e, u32 a, u32 b);

/* wc_msg.fault_port when a failed node, not a link, absorbed the branch. */
#define WC_FAULT_NODE	0xffu

/*
 * From msg_done of a faulted message @m: the caller re-sends its
 * fault_lost destinations itself (DSTM with local information), so they
 * are no longer counted in stats.fault_drops but once in
 * stats.fault_reinjected, and m->fault_lost becomes 0.  Touches counters
 * only, so callbacks may call it.
 */
void wc_engine_fault_reinjected(struct wc_engine *e, struct wc_msg *m);
bool wc_engine_node_failed(const struct wc_engine *e, u32 n);

/* One fault: a link (a < b) or a node (a; b unused). */
struct wc_fault {
	bool node;
	u32 a, b;
};

/*
 * Faults from the @skip-th on (links by increasing a then b, then nodes by
 * id) into @out, at most @max.  Returns how many were written; the total
 * is wc_engine_nfaults().
 */
u32 wc_engine_faults(const struct wc_engine *e, u32 skip,
		     struct wc_fault *out, u32 max);
u32 wc_engine_nfaults(const struct wc_engine *e);

/* Built-in algorithm: see route_builtin.c. */
extern const struct wc_algo wc_algo_unicast_based;

#endif /* WC_ENGINE_H */
