// SPDX-License-Identifier: GPL-2.0
/*
 * Multi-phase unicast multicast: the chain and its phases (relay.h).
 */
#include "relay.h"

u32 wc_relay_phases(u32 n)
{
	u32 p = 0;

	while (p < 32 && (1ull << p) < n)
		p++;
	return p;
}

static u32 relay_key(const u32 *label, u32 node)
{
	return label ? label[node] : node;
}

/* Sift @chain[@i] down the max-heap of the first @n entries. */
static void relay_sift(u32 *chain, u32 n, u32 i, const u32 *label)
{
	for (;;) {
		u32 c = 2 * i + 1, x;

		if (c >= n)
			return;
		if (c + 1 < n && relay_key(label, chain[c + 1]) >
				 relay_key(label, chain[c]))
			c++;
		if (relay_key(label, chain[i]) >= relay_key(label, chain[c]))
			return;
		x = chain[i];
		chain[i] = chain[c];
		chain[c] = x;
		i = c;
	}
}

void wc_relay_sort(u32 *chain, u32 n, const u32 *label)
{
	u32 i, x;

	for (i = n / 2; i-- > 0;)
		relay_sift(chain, n, i, label);
	for (i = n; i-- > 1;) {
		x = chain[0];
		chain[0] = chain[i];
		chain[i] = x;
		relay_sift(chain, i, 0, label);
	}
}

u32 wc_relay_chain(const struct wc_msg *m, u32 nnodes, const u32 *label,
		   u32 *chain, u32 *src_pos)
{
	u32 n = 0, w, b, i;

	chain[n++] = m->src;
	for (w = 0; w * 32 < nnodes; w++) {
		u32 x = m->dstmap[w];

		for (b = 0; x; b++, x >>= 1)
			if ((x & 1) && w * 32 + b != m->src && n <= m->ndsts)
				chain[n++] = w * 32 + b;
	}
	wc_relay_sort(chain, n, label);
	*src_pos = 0;
	for (i = 0; i < n; i++)
		if (chain[i] == m->src)
			*src_pos = i;
	return n;
}
