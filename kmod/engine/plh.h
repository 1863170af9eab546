/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Dimension-ordered unicast on the p/l/h virtual channels of the DCF
 * paper (section 2; Documentation/dcf.rst, "Model"), on an n x n torus,
 * n a power of two, 4 to 64: x first, then y, each the shorter way, an
 * offset of exactly n/2 going +.  A hop is on a p channel while the worm
 * has still to cross the wraparound link of that dimension (that hop
 * included), otherwise on l (a - link) or h (a + link).  With V virtual
 * channels, l/h are the lower half, p the upper half.
 *
 * The one place of this rule: the daemon's schedules (dcf_route()),
 * wormsim's --bcast and the kernel's dcf and edn schemes route by it.
 * The route from a router on the way is the rest of the route from the
 * source, so routing hop by hop follows the schedule's route exactly.
 */
#ifndef WC_PLH_H
#define WC_PLH_H

#include "compat.h"
#include "engine.h"

#define WC_PLH_MIN_SIDE	4
#define WC_PLH_MAX_SIDE	64

enum wc_plh_class {
	WC_PLH_LH = 0,	/* l on a - link, h on a + link */
	WC_PLH_P = 1,	/* before (and on) the wraparound link */
};

/* True if @side is a power of two in [WC_PLH_MIN_SIDE, WC_PLH_MAX_SIDE]. */
bool wc_plh_side_ok(u32 side);

/*
 * The first hop from node @cur toward node @dst of a @side x @side torus
 * (node id x + side * y): its port (2 * dim, + 1 going -) and class
 * (enum wc_plh_class).  False if @cur == @dst.
 */
bool wc_plh_hop(u32 side, u32 cur, u32 dst, u32 *port, u32 *cls);

/*
 * 0 if @t and @p can run p/l/h routing (a square 2-D torus of
 * wc_plh_side_ok() side, vcs >= 2), else -EINVAL and *@why.
 */
int wc_plh_check(const struct wc_topo *t, const struct wc_engine_params *p,
		 const char **why);

/* One worm per destination (one header word, one flit), routed p/l/h. */
extern const struct wc_algo wc_algo_plh;

#endif /* WC_PLH_H */
