/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the unit tests, and by the benchmarks that draw the
 * same kinds of random instances: a xorshift64 generator, random node
 * sets, star-graph permutations by name, and the shortest path around the
 * fault blocks of a mesh (the brute-force reference of the fault tests).
 */
#ifndef WC_TESTUTIL_H
#define WC_TESTUTIL_H

#include <stdlib.h>
#include <string.h>

#include "faultinfo.h"
#include "topology.h"

/*
 * Marsaglia's xorshift64: advances *@state and returns it.  Each program
 * keeps its own state and seed, so that its random instances (and the
 * tables printed from them) stay the same whatever the others draw.
 */
static inline u64 tu_xorshift64(u64 *state)
{
	*state ^= *state << 13;
	*state ^= *state >> 7;
	*state ^= *state << 17;
	return *state;
}

/* A number in [0, n): the new state modulo @n. */
static inline u32 tu_rand_mod(u64 *state, u32 n)
{
	return (u32)(tu_xorshift64(state) % n);
}

/* A number in [0, n) from the state's high 53 bits. */
static inline u32 tu_rand_hi(u64 *state, u32 n)
{
	return (u32)((tu_xorshift64(state) >> 11) % n);
}

/*
 * @k distinct nodes out of [0, n), none equal to @src, drawn with
 * tu_rand_mod() and rejection; @k must be below @n.
 */
static inline void tu_random_dests(u64 *state, u32 n, u32 src, u32 k, u32 *d)
{
	u8 *used = calloc(n, 1);
	u32 i;

	if (!used)
		abort();
	used[src] = 1;
	for (i = 0; i < k; i++) {
		do
			d[i] = tu_rand_mod(state, n);
		while (used[d[i]]);
		used[d[i]] = 1;
	}
	free(used);
}

/*
 * Up to @k distinct faulty nodes of a @w x @h mesh, drawn uniformly with
 * tu_rand_hi(); returns how many (at most w * h).
 */
static inline u32 tu_random_faults(u64 *state, u32 w, u32 h, u32 k, u32 *out)
{
	u8 *used = calloc(w * h, 1);
	u32 n = 0;

	if (!used)
		abort();
	while (n < k && n < w * h) {
		u32 v = tu_rand_hi(state, w * h);

		if (!used[v]) {
			used[v] = 1;
			out[n++] = v;
		}
	}
	free(used);
	return n;
}

/* The star-graph node named by a permutation of digits, e.g. "1324". */
static inline u32 tu_star_node(const char *perm)
{
	u8 p[WC_MAX_STAR_N];
	u32 i, n = (u32)strlen(perm);

	for (i = 0; i < n; i++)
		p[i] = (u8)(perm[i] - '0');
	return wc_star_rank(n, p);
}

/*
 * Length of a shortest path from @s to @t in the mesh of @fi that avoids
 * every fault block, or U32_MAX; @dist and @q hold fi->nnodes entries.
 */
static inline u32 tu_fi_bfs(const struct wc_faultinfo *fi, u32 s, u32 t,
			    u32 *dist, u32 *q)
{
	u32 head = 0, tail = 0, i;

	for (i = 0; i < fi->nnodes; i++)
		dist[i] = U32_MAX;
	dist[s] = 0;
	q[tail++] = s;
	while (head < tail) {
		u32 n = q[head++], nb[4], k, c = wc_fi_neighbours(fi, n, nb);

		for (k = 0; k < c; k++) {
			if (dist[nb[k]] != U32_MAX || wc_fi_in_block(fi, nb[k]))
				continue;
			dist[nb[k]] = dist[n] + 1;
			q[tail++] = nb[k];
		}
	}
	return dist[t];
}

#endif /* WC_TESTUTIL_H */
