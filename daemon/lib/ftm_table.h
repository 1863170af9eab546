/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The WORMCAST_TABLE_FTMESH table (struct wormcast_ftmesh, uapi) of the
 * ftmesh scheme: a mesh's fault information (faultinfo.h) as the routers
 * of the safety-level paper hold it: the faulty blocks (physical
 * coordinates), every node's safety vector, and per subnetwork and node
 * the block records wc_fi_tables_build() gives it, in that order,
 * subnetwork-major (rec_off[q * nnodes + n]).  What wormcastd pushes for
 * a fabric under ftmesh (Documentation/faults.rst, "wormcastd and ftmesh
 * tables").  Pure: the same inputs give the same bytes.
 */
#ifndef WC_FTM_TABLE_H
#define WC_FTM_TABLE_H

#include <linux/wormcast.h>

#include "faultinfo.h"

/* 32 + 8 * nblocks + 8 * nnodes + 4 * (4 * nnodes + 1) + 8 * nrecs. */
static inline size_t wc_ftm_table_size(u32 nnodes, u32 nblocks, u32 nrecs)
{
	return sizeof(struct wormcast_ftmesh) +
	       (size_t)nblocks * sizeof(struct wormcast_ftmesh_block) +
	       (size_t)nnodes * sizeof(struct wormcast_ftmesh_safety) +
	       ((size_t)WORMCAST_FTMESH_SUBNETS * nnodes + 1) * sizeof(u32) +
	       (size_t)nrecs * sizeof(struct wormcast_ftmesh_rec);
}

/*
 * Encode @fi with @strategy (1, 2 or 3: Strategy 3's plans per source and
 * group are a PLANS table, ftm_plans.h), Strategy 1's @seed and the
 * detour flag: *@bytes (malloc'ed, the caller frees it) of *@len bytes.
 * Returns 0; -EINVAL for another strategy, more blocks than
 * WORMCAST_FTMESH_MAX_BLOCKS or a table above WORMCAST_TABLE_MAX_BYTES,
 * each with *@why; -ENOMEM.
 */
int wc_ftm_table_build(const struct wc_faultinfo *fi, u32 strategy, u64 seed,
		       bool detour, void **bytes, size_t *len,
		       const char **why);

/*
 * The table of a 2-D mesh @t with faulty nodes @nodes and faulty links
 * @links (pairs of adjacent node ids; wc_fi_build_topo()): what wormcastd
 * pushes for an ftmesh fabric.  *@nblocks (may be NULL) gets the number
 * of faulty blocks.  Returns as wc_ftm_table_build(), and -EINVAL with
 * *@why for a topology that is not a 2-D mesh or bad faults.
 */
int wc_ftm_table_from_faults(const struct wc_topo *t, const u32 *nodes,
			     u32 nnodes, const u32 (*links)[2], u32 nlinks,
			     u32 strategy, u64 seed, bool detour, void **bytes,
			     size_t *len, u32 *nblocks, const char **why);

#endif /* WC_FTM_TABLE_H */
