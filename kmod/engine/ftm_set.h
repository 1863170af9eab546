/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The ftmesh table (uapi struct wormcast_ftmesh: the faulty blocks, the
 * safety vectors and the routers' block records of the safety-level
 * paper) validated against a fabric's topology and turned into the
 * struct wc_ftm_tables that wc_algo_ftmesh routes by (ft_mcast.h).
 * Documentation/faults.rst, "ftmesh in the kernel".
 *
 * What is checked, each with its own reason:
 *  - the fabric is a 2-D mesh; nnodes is the fabric's; strategy 1 or 2;
 *    no unknown flag; reserved 0; nblocks <= WORMCAST_FTMESH_MAX_BLOCKS;
 *    the length is exactly the header, the blocks, the safety vectors,
 *    4 * nnodes + 1 offsets and nrecs records (64-bit arithmetic: every
 *    term is bounded, no overflow);
 *  - blocks: inside the mesh, x0 <= x1 and y0 <= y1, pairwise disjoint,
 *    never edge-adjacent (each is a maximal connected set), and closed
 *    under Definition 1: no node outside the blocks has block neighbours
 *    in both dimensions (which also rules out diagonal neighbours) -- what
 *    wc_fi_build() gives, a fixpoint of Definition 1 cut into components;
 *  - safety vectors: exactly those the blocks imply (0 inside a block,
 *    hops along the row or column to the closest block node, else
 *    WORMCAST_FTMESH_SAFETY_INF), by row and column scans;
 *  - record offsets: rec_off[0] = 0, non-decreasing, the last nrecs;
 *  - each record: block < nblocks, line 1 or 2, reserved 0; held by a node
 *    outside every block; no (block, line) twice in one node's list of
 *    one subnetwork; in subnetwork q's canonical frame the block lies
 *    strictly ahead of the node in X and in Y (cx < x0, cy < y0: true of
 *    the direct and of every transferred record, since a transfer goes
 *    from a block to one whose first row and column are lower); and the
 *    node lies on the stored part of the same adjacent line of some block
 *    (an L1 record: on a row y0 - 1 west of that block's x0; L3: on a
 *    column x0 - 1 south of its y0);
 *  - completeness of the direct records: every node outside the blocks on
 *    the stored part of block b's L1 (L3) in subnetwork q holds (b, L1)
 *    ((b, L3)).
 * Not checked: that the transferred records are exactly the transfer
 * closure of Fig. 4 (a missing or extra one can only make a header
 * non-minimal or unroutable, counted as a route error, never unsafe: the
 * engine reads nothing out of bounds with any table that passes here).
 */
#ifndef WC_FTM_SET_H
#define WC_FTM_SET_H

#include "compat.h"
#include "topology.h"
#include "engine.h"
#include "ft_mcast.h"

struct wc_ftm_set {
	struct wc_ftm_tables tab;	/* first: what the engine routes by */
	u32 flags;			/* WORMCAST_FTMESH_F_* */
	u32 nblocks;
	u32 nrecs;
	struct wc_ft_rect *blocks;	/* physical coordinates */
	u8 *in_block;			/* nnodes */
	u16 *safety;			/* 4 * nnodes: E, S, W, N */
	u32 *off;			/* 4 * nnodes + 1 */
	struct wc_ft_rec *recs;		/* nrecs, canonical frames */
	size_t mem;			/* bytes allocated */
};

/*
 * Validate @len bytes of struct wormcast_ftmesh against topology @t and
 * build @fs from them.  Returns 0, or -EINVAL with *@why set to a static
 * reason (nothing allocated), or -ENOMEM.
 */
int wc_ftm_set_build(struct wc_ftm_set *fs, const struct wc_topo *t,
		     const void *table, size_t len, const char **why);
void wc_ftm_set_free(struct wc_ftm_set *fs);

/*
 * Can a fabric of @t and @p run the ftmesh scheme?  A 2-D mesh, at least
 * WC_FTM_MIN_VCS virtual channels (one class per subnetwork) and
 * asynchronous replication (under lock step two branches of one tree
 * that meet on a link wait for each other: faults.rst).  0 or -EINVAL
 * with *@why.
 */
int wc_ftm_scheme_check(const struct wc_topo *t,
			const struct wc_engine_params *p, const char **why);

/*
 * The largest frame (bytes) an ftmesh fabric of @p may carry: one whose
 * worm to one destination (a header flit, the data, the tail) fits in a
 * buffer, (buf_flits - 2) * flit_bytes; 0 with buffers of fewer than 3
 * flits.  Asynchronous replication is deadlock-free only when a router's
 * input buffer can hold what a blocked branch has not taken yet: at a
 * split, that branch's header flits, the data and the tail.  So a worm
 * with k destinations in its subnetwork splits safely when k - 1 + data
 * + 1 <= buf_flits; with this bound every worm to at most buf_flits -
 * data destinations does (faults.rst, "Buffers of a whole worm").
 */
u32 wc_ftm_max_frame(const struct wc_engine_params *p);

/* Can @fs run on a fabric with @p?  The detour needs 8 VCs. */
int wc_ftm_set_check(const struct wc_ftm_set *fs,
		     const struct wc_engine_params *p, const char **why);

#endif /* WC_FTM_SET_H */
