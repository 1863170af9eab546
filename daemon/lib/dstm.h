/* SPDX-License-Identifier: GPL-2.0 */
/*
 * DSTM: two edge-disjoint binary spanning trees in a K x M torus (Wang and
 * Blough, Theorem 4.1), the DSTM-1 and DSTM-2 choices of section 5.1, root
 * choice and balancing, and the router tables of section 3.2.2.
 *
 * Coordinates: x is the column (0..K-1), y the row (0..M-1), node id
 * x + K * y, as in topology.h.  A "method" gives the search directions:
 * T1 is (t1_x * x, t1_y * y): a path along row y1 from R1 in direction
 * t1_x, then a path down every other column (except column x2) in
 * direction t1_y; T2 is (t2_y * y, t2_x * x) symmetrically from R2.
 */
#ifndef WC_DSTM_H
#define WC_DSTM_H

#include "sptree.h"

/* Largest torus the daemon-side construction accepts (K * M). */
#define WC_DSTM_MAX_NODES	WC_MAX_PLAN_NODES

enum wc_dstm_roots {
	WC_DSTM_ROOT_START = 0,	/* R1 and R2 */
	WC_DSTM_ROOT_PQ,	/* P = Q = (x2, y1), Fig. 4 */
	WC_DSTM_ROOT_GIVEN,	/* root1, root2 */
};

struct wc_dstm_spec {
	u32 k, m;		/* columns, rows */
	u32 r1, r2;		/* start nodes */
	s8 t1_x, t1_y;		/* +1 or -1 */
	s8 t2_y, t2_x;		/* +1 or -1 */
	u32 roots;		/* enum wc_dstm_roots */
	u32 root1, root2;	/* WC_DSTM_ROOT_GIVEN only */
	/*
	 * Fig. 5: when a tree is rooted at its start node and that root has
	 * a single branch, move part of the branch over the unused
	 * wrap-around link so that the root gets two branches of sizes as
	 * equal as possible.  Changes that tree's unused link.
	 */
	bool balance;
};

struct wc_dstm {
	struct wc_topo topo;
	struct wc_dstm_spec spec;
	struct wc_sptree tree[2];
	u32 unused[2];		/* link ids in neither tree, from T1 and T2 */
	bool moved[2];		/* the Fig. 5 move was applied to this tree */
};

/*
 * Fill a 2-D torus descriptor; unlike wc_topo_init() this accepts tori up
 * to WC_DSTM_MAX_NODES nodes (the kernel fabric bound does not apply to
 * offline planning and benchmarks).
 */
int wc_dstm_torus(struct wc_topo *t, u32 k, u32 m, const char **why);

/*
 * DSTM-1: R2 = R1 + (floor(K/2), floor(M/2)), T1 (+x,-y), T2 (-y,+x),
 * rooted at P/Q.  DSTM-2: R2 = R1 + (0, floor(M/4)), T1 (-x,+y), T2
 * (+y,-x), rooted at the start nodes without the Fig. 5 move.
 */
void wc_dstm_spec_dstm1(struct wc_dstm_spec *s, u32 k, u32 m, u32 r1);
void wc_dstm_spec_dstm2(struct wc_dstm_spec *s, u32 k, u32 m, u32 r1);

/* Build both trees.  0, -EINVAL (with *why) or -ENOMEM. */
int wc_dstm_build(struct wc_dstm *d, const struct wc_dstm_spec *spec,
		  const char **why);
void wc_dstm_free(struct wc_dstm *d);

/* The two links Theorem 4.1 leaves unused: H_{x1-t1_x, y1}, V_{x2, y2-t2_y}. */
void wc_dstm_proof_unused(const struct wc_topo *t,
			  const struct wc_dstm_spec *s, u32 *l1, u32 *l2);

#endif /* WC_DSTM_H */
