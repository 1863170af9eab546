/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-hop decisions of the fault-tolerant minimal multicast on a 2-D mesh
 * with faulty blocks (Wu and Chen, "A fault-tolerant tree-based multicasting
 * in mesh multicomputers", sections 3.3 to 4).  Kernel-agnostic: a router
 * calls these with what it knows locally (its own coordinates, whether its
 * +X/+Y neighbours are in a faulty block, and the faulty block records it
 * holds because it lies on an adjacent line).
 *
 * Everything here works in the canonical frame of one virtual subnetwork
 * (section 7.2): the source is at the lower left and every destination d
 * satisfies d >= u componentwise, so the only profitable directions are
 * +X and +Y.  wc_ft_canon() maps physical coordinates of the other three
 * subnetworks into that frame (it is its own inverse).
 *
 * Regions of a block b = [x0, x1] x [y0, y1] (Fig. 3, canonical frame):
 *   R1 south-west  R2 west   R3 north-west  R4 north
 *   R5 north-east  R6 east   R7 south-east  R8 south
 * "west" means X < x0, "east" X > x1, "south" Y < y0, "north" Y > y1.  The
 * paper draws the regions with the adjacent lines as their borders and
 * counts a line in both neighbouring regions; that would put the corner
 * (x1 + 1, y1 + 1) in both R4 and R6.  The partition used here is what the
 * minimality argument needs (see Documentation/faults.rst).
 *
 * Adjacent lines (canonical frame): L1 is the row y0 - 1, L3 the column
 * x0 - 1.  Block information is held on L1 west of the block (X <= x0 - 1)
 * and on L3 south of it (Y <= y0 - 1), plus the information transferred
 * from intersecting blocks (Fig. 4).  A record held "on L1" forbids leaving
 * the row northwards for destinations in the record's R6; a record "on L3"
 * forbids leaving the column eastwards for destinations in its R4.
 */
#ifndef WC_FTMESH_H
#define WC_FTMESH_H

#include "compat.h"

/* The four virtual subnetworks of Fig. 12, by direction of travel. */
enum wc_ft_subnet {
	WC_FT_PXPY = 0,		/* +X+Y */
	WC_FT_PXNY = 1,		/* +X-Y */
	WC_FT_NXPY = 2,		/* -X+Y */
	WC_FT_NXNY = 3,		/* -X-Y */
	WC_FT_NSUBNETS = 4,
};

/* A rectangle of nodes, bounds included (a faulty block). */
struct wc_ft_rect {
	u16 x0, y0, x1, y1;
};

enum wc_ft_line {
	WC_FT_L1 = 1,		/* row below the block, west part */
	WC_FT_L3 = 2,		/* column left of the block, south part */
};

/* A faulty block record held by a router, canonical frame. */
struct wc_ft_rec {
	struct wc_ft_rect b;
	u8 line;		/* enum wc_ft_line */
};

/* What a router at (x, y) knows, canonical frame. */
struct wc_ft_view {
	u16 x, y;
	bool east_blocked;	/* +X neighbour in a faulty block or off the mesh */
	bool north_blocked;	/* +Y neighbour likewise */
	u32 nrecs;
	const struct wc_ft_rec *recs;
};

enum wc_ft_region {
	WC_FT_INSIDE = 0,
	WC_FT_R1, WC_FT_R2, WC_FT_R3, WC_FT_R4,
	WC_FT_R5, WC_FT_R6, WC_FT_R7, WC_FT_R8,
};

/* Per destination: which way the next step must go (Definition 3). */
enum wc_ft_bound {
	WC_FT_UNDETERMINED = 0,	/* either direction keeps a minimal path */
	WC_FT_XBOUND = 1,	/* only +X does */
	WC_FT_YBOUND = 2,	/* only +Y does */
	WC_FT_NO_WAY = 3,	/* neither: no minimal path from here */
};

/* Header state at a node (Definition 4). */
enum wc_ft_state {
	WC_FT_2D_FREE = 0,
	WC_FT_1D_FREE_X = 1,
	WC_FT_1D_FREE_Y = 2,
	WC_FT_IN_CONFLICT = 3,
};

/* Direction signs of a subnetwork (+1 or -1). */
static inline int wc_ft_sx(u32 subnet)
{
	return (subnet == WC_FT_NXPY || subnet == WC_FT_NXNY) ? -1 : 1;
}

static inline int wc_ft_sy(u32 subnet)
{
	return (subnet == WC_FT_PXNY || subnet == WC_FT_NXNY) ? -1 : 1;
}

/*
 * Subnetwork that carries a destination at (dx, dy) from a source at
 * (sx, sy).  A destination on an axis of the source goes to the subnetwork
 * with a + sign on that axis.
 */
u32 wc_ft_subnet_of(u32 sx, u32 sy, u32 dx, u32 dy);

/* Physical <-> canonical coordinates in a w x h mesh (an involution). */
void wc_ft_canon(u32 subnet, u32 w, u32 h, u32 x, u32 y, u32 *cx, u32 *cy);
void wc_ft_canon_rect(u32 subnet, u32 w, u32 h, const struct wc_ft_rect *r,
		      struct wc_ft_rect *c);

static inline bool wc_ft_in_rect(const struct wc_ft_rect *r, u32 x, u32 y)
{
	return x >= r->x0 && x <= r->x1 && y >= r->y0 && y <= r->y1;
}

/* Region of (x, y) with respect to block @b (see above). */
u32 wc_ft_region(const struct wc_ft_rect *b, u32 x, u32 y);

/*
 * Which way a header at v->(x, y) must go for destination (dx, dy), which
 * must satisfy dx >= x, dy >= y and (dx, dy) != (x, y) (else WC_FT_NO_WAY).
 */
u32 wc_ft_bound(const struct wc_ft_view *v, u32 dx, u32 dy);

/* Header state from "some destination is X-bound" / "... Y-bound". */
u32 wc_ft_state(bool any_xbound, bool any_ybound);

/*
 * Strategy 1 for an undetermined destination: a random group
 * (@random_bit 0: X, 1: Y).  Returns WC_FT_XBOUND or WC_FT_YBOUND.
 */
u32 wc_ft_strategy1(u32 random_bit);

/*
 * Strategy 1's random bit for destination @dst at router @node: a hash of
 * (@seed, @node, @dst), so that the offline planner and the routers (which
 * must take the same decision on every retry of a blocked header) agree.
 */
u32 wc_ft_rand_bit(u64 seed, u32 node, u32 dst);

/*
 * Extended safety of a source at (sx, sy) with safety vector (E, S, W, N)
 * = @s[0..3] to a destination at (dx, dy): no faulty block on the source's
 * row up to the destination's column, nor on its column up to its row.
 * Both nodes must be outside every faulty block (the caller checks).
 */
bool wc_ft_ext_safe(const u16 s[4], u32 sx, u32 sy, u32 dx, u32 dy);

/*
 * Strategy 2 for an undetermined destination (dx, dy) at separating point
 * (ux, uy): the axis with the larger offset; a tie goes to @tie.
 */
u32 wc_ft_strategy2(u32 ux, u32 uy, u32 dx, u32 dy, u32 tie);

/*
 * Direction of a 2d-free step towards @tx, @ty (the lower corner of the
 * remaining destinations): along the larger remaining gap, X on a tie.
 * Any choice is minimal; this one is deterministic.
 */
u32 wc_ft_free_step(u32 ux, u32 uy, u32 tx, u32 ty);

/*
 * Eligibility of w for destination d (section 4.2): w <= d, w outside the
 * known blocks, and w extended safe to d with respect to them (no known
 * block on the segments from w to (dx, wy) and from w to (wx, dy)), which
 * guarantees a minimal path from w to d that avoids every known block.
 */
bool wc_ft_eligible(u32 wx, u32 wy, u32 dx, u32 dy,
		    const struct wc_ft_rect *known, u32 nknown);

/*
 * The greedy MT step (Step 2(a)) on one virtual edge (a, b), a <= b: the
 * eligible node w of the rectangle [a, b] with w <= d closest to d.  The
 * closest candidate is the clamp of d into the rectangle (O(1), the three
 * cases of Theorem 3's proof); when faults make it ineligible, candidates
 * further back along the rectangle's column and row through it are tried.
 * Returns false if there is none.
 */
bool wc_ft_best_w(u32 ax, u32 ay, u32 bx, u32 by, u32 dx, u32 dy,
		  const struct wc_ft_rect *known, u32 nknown,
		  u32 *wx, u32 *wy, u32 *dist);

#endif /* WC_FTMESH_H */
