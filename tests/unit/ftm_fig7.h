/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Test helper: the fault pattern of Fig. 7 of the safety-level paper on a
 * 20x20 mesh, the faulty nodes (5..10, 5..7), one block.  Used by
 * test_ftmcast, test_ftm_engine and test_ftm_plans.
 */
#ifndef WC_FTM_FIG7_H
#define WC_FTM_FIG7_H

#include "faultinfo.h"

static inline void build_fig7(struct wc_faultinfo *fi)
{
	u32 f[18], n = 0, x, y;

	for (y = 5; y <= 7; y++)
		for (x = 5; x <= 10; x++)
			f[n++] = x + 20 * y;
	wc_fi_build(fi, 20, 20, f, n, NULL, 0, NULL);
}

#endif
