/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Multi-phase unicast multicast, the papers' unicast-based baseline:
 * receivers send on.  The source and the destinations form a chain sorted
 * by Hamiltonian label (or by node id); the holder of chain range
 * [lo, hi) hands the far half to the node at its near end (the first of
 * the upper half if the holder is in the lower half, else the last of the
 * lower half) and keeps its own half, until it is alone.  Every node of a
 * chain of n is reached once, in ceil(log2 n) phases (one send per phase
 * and holder).  The one place of this split: the kernel's multiphase
 * scheme (kmod/fabric.c) and wormsim's --mcast0 (tools/wormsim/mcast0.c)
 * both take their sends from here.  Documentation/multicast.rst.
 */
#ifndef WC_RELAY_H
#define WC_RELAY_H

#include "compat.h"
#include "engine.h"

/* One send: the target's chain position and the range handed to it. */
struct wc_relay_send {
	u32 target;
	u32 lo, hi;		/* [lo, hi), holds @target */
};

/*
 * The next send of the holder at chain position @h of [*@lo, *@hi): false
 * if it is alone (nothing left to send); else @s is filled and the range
 * shrinks to the holder's own half.
 */
static inline bool wc_relay_next(u32 h, u32 *lo, u32 *hi,
				 struct wc_relay_send *s)
{
	u32 mid;

	if (*hi - *lo <= 1)
		return false;
	mid = *lo + (*hi - *lo) / 2;
	if (h < mid) {
		s->target = mid;
		s->lo = mid;
		s->hi = *hi;
		*hi = mid;
	} else {
		s->target = mid - 1;
		s->lo = *lo;
		s->hi = mid;
		*lo = mid;
	}
	return true;
}

/*
 * A processor's sends are sequential (the DCF paper's t_s, wormsim's
 * --send-ovh): a send that the processor may start at cycle @ready
 * leaves it @send_ovh cycles after both @ready and the end of its
 * previous send (*@cpu_free), which moves on to that cycle.  Returns the
 * cycle the send enters the network (wc_engine_submit_at()).  The one
 * place of this rule: the kernel's relays and sources (kmod/relay.c,
 * kmod/fabric.c) and wormsim's --mcast0 and --bcast (mcast0.c).
 */
static inline u64 wc_send_due(u64 *cpu_free, u64 ready, u32 send_ovh)
{
	u64 t = (ready > *cpu_free ? ready : *cpu_free) + send_ovh;

	*cpu_free = t;
	return t;
}

/* Phases of the relay over a chain of @n nodes: ceil(log2 n), 0 for n <= 1. */
u32 wc_relay_phases(u32 n);

/*
 * Sort the @n nodes of @chain by @label[node] (by node id if @label is
 * NULL), in place, O(n log n) and no allocation (a heap sort).
 */
void wc_relay_sort(u32 *chain, u32 n, const u32 *label);

/*
 * The chain of message @m on an engine of @nnodes nodes: its source and
 * its destinations, sorted by @label (node -> label; by node id if NULL),
 * into @chain (room for m->ndsts + 1).  Returns the chain's length, and
 * the source's position in *@src_pos.
 */
u32 wc_relay_chain(const struct wc_msg *m, u32 nnodes, const u32 *label,
		   u32 *chain, u32 *src_pos);

#endif /* WC_RELAY_H */
