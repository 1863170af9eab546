/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Broadcast schedules of the dcf and edn schemes (the DCF paper;
 * Documentation/dcf.rst, "The broadcast in the kernel"): the unicasts of
 * a broadcast from (0, 0) of a 2^d x 2^d torus, given as the uapi table
 * struct wormcast_bcast, validated and indexed here.  A broadcast from
 * source s follows the schedule moved by s's coordinates
 * (wc_bcast_node()): the torus is node-symmetric, and so are its p/l/h
 * routes (plh.h), so one table serves every source.
 *
 * The relay (the kernel's relay.c, the mechanism of the multiphase scheme)
 * takes the sends of the node at offset r from to[start[r] .. start[r+1])
 * in that order, and counts a lost unicast to offset v as subtree[v]
 * destinations (v and everyone it would have informed).
 */
#ifndef WC_BCAST_H
#define WC_BCAST_H

#include "compat.h"
#include "topology.h"

struct wc_bcast_set {
	u32 scheme;		/* WORMCAST_MCAST_DCF or _EDN */
	u32 side;		/* n of the n x n torus */
	u32 nnodes;
	u32 nsends;		/* nnodes - 1 */
	u32 nsteps;		/* the last step */
	u32 *start;		/* nnodes + 1: offset r sends to[start[r] ..] */
	u16 *to;		/* nsends: receivers, by sender, in order */
	u16 *subtree;		/* nnodes: nodes informed through each offset */
	size_t mem;		/* bytes allocated */
};

/* True for the schemes that broadcast by a schedule: dcf and edn. */
bool wc_bcast_scheme(u32 scheme);

/*
 * Validate @len bytes of struct wormcast_bcast against topology @t and
 * build @bs from them.  Returns 0, or -EINVAL with *@why set to a static
 * reason (nothing allocated), or -ENOMEM.
 */
int wc_bcast_set_build(struct wc_bcast_set *bs, const struct wc_topo *t,
		       const void *table, size_t len, const char **why);
void wc_bcast_set_free(struct wc_bcast_set *bs);

/* The node at offset @off (a node id relative to (0, 0)) from node @src. */
static inline u32 wc_bcast_node(const struct wc_bcast_set *bs, u32 src,
				u32 off)
{
	u32 n = bs->side;

	return (src % n + off % n) % n + n * ((src / n + off / n) % n);
}

#endif /* WC_BCAST_H */
