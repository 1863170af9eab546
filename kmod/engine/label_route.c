// SPDX-License-Identifier: GPL-2.0
/* Label-monotone routing decisions; see label_route.h. */
#include "label_route.h"

u32 wc_lr_next_port(u32 own, const u32 *nbr, u32 nports, u32 dest)
{
	u32 best = WC_LR_NO_PORT, p;

	if (own == dest)
		return WC_LR_ARRIVED;
	for (p = 0; p < nports; p++) {
		u32 l = nbr[p];

		if (l == WC_LABEL_NONE)
			continue;
		if (own < dest) {
			/* greatest label in (own, dest] */
			if (l > own && l <= dest &&
			    (best == WC_LR_NO_PORT || l > nbr[best]))
				best = p;
		} else {
			/* least label in [dest, own) */
			if (l < own && l >= dest &&
			    (best == WC_LR_NO_PORT || l < nbr[best]))
				best = p;
		}
	}
	return best;
}

u32 wc_lr_extreme_port(u32 own, const u32 *nbr, u32 nports, bool up)
{
	u32 best = WC_LR_NO_PORT, p;

	for (p = 0; p < nports; p++) {
		u32 l = nbr[p];

		if (l == WC_LABEL_NONE || l == own)
			continue;
		if (up ? l < own : l > own)
			continue;
		if (best == WC_LR_NO_PORT ||
		    (up ? l > nbr[best] : l < nbr[best]))
			best = p;
	}
	return best;
}

/* True if label @a comes before @b in the travel direction. */
static bool before(u32 a, u32 b, bool up)
{
	return up ? a < b : a > b;
}

int wc_lr_tree_step(u32 own, const u32 *nbr, u32 nports, const u32 *dests,
		    u32 ndests, bool up, struct wc_lr_tree_step *st)
{
	u32 i, w_port, w, lo, hi;

	st->split_port = WC_LR_NO_PORT;
	st->nsplit = 0;
	st->fwd_port = WC_LR_NO_PORT;
	if (!ndests)
		return 0;
	if (!before(own, dests[0], up))
		return -EINVAL;
	for (i = 1; i < ndests; i++)
		if (!before(dests[i - 1], dests[i], up))
			return -EINVAL;

	w_port = wc_lr_extreme_port(own, nbr, nports, up);
	if (w_port != WC_LR_NO_PORT) {
		w = nbr[w_port];
		/* Binary search for w among the sorted destinations. */
		lo = 0;
		hi = ndests;
		while (lo < hi) {
			u32 mid = lo + (hi - lo) / 2;

			if (before(dests[mid], w, up))
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo < ndests && dests[lo] == w) {
			st->split_port = w_port;
			st->nsplit = ndests - lo;
		}
	}
	if (st->nsplit < ndests)
		st->fwd_port = wc_lr_next_port(own, nbr, nports, dests[0]);
	return 0;
}
