/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The WORMCAST_TABLE_BCAST table (struct wormcast_bcast, uapi) of the dcf
 * and edn schemes: dcf_build()'s schedule from node 0 of the n x n torus,
 * every unicast as (step, sender, receiver), node ids of node 0's
 * schedule being offsets from the source, in the order the senders handle
 * them.  What wormcastd pushes into the kernel, which moves it to each
 * broadcast's source (kmod/engine/bcast.h).  Pure: the same inputs give
 * the same bytes.
 */
#ifndef WC_BCAST_TABLE_H
#define WC_BCAST_TABLE_H

#include <linux/wormcast.h>

#include "topology.h"

/* 16 + 12 * (nnodes - 1). */
static inline size_t wc_bcast_table_size(u32 nnodes)
{
	return sizeof(struct wormcast_bcast) +
	       (size_t)(nnodes - 1) * sizeof(struct wormcast_bcast_send);
}

/*
 * Build the table of @scheme (WORMCAST_MCAST_DCF or _EDN) for @t:
 * *@bytes (malloc'ed, the caller frees it) of *@len bytes.  Returns 0,
 * -EINVAL (*@why set) for another scheme or a topology that is not a
 * 2^d x 2^d torus (4 to 64), -ENOMEM.
 */
int wc_bcast_table_build(const struct wc_topo *t, u32 scheme, void **bytes,
			 size_t *len, const char **why);

#endif /* WC_BCAST_TABLE_H */
