// SPDX-License-Identifier: GPL-2.0
/*
 * Broadcast schedules (dcf, edn): the table's validation and its index.
 * The model is described in bcast.h.
 */
#include <linux/wormcast.h>

#include "bcast.h"
#include "plh.h"

static int refuse(const char **why, const char *msg)
{
	if (why)
		*why = msg;
	return -EINVAL;
}

bool wc_bcast_scheme(u32 scheme)
{
	return scheme == WORMCAST_MCAST_DCF || scheme == WORMCAST_MCAST_EDN;
}

void wc_bcast_set_free(struct wc_bcast_set *bs)
{
	wc_free(bs->start);
	wc_free(bs->to);
	wc_free(bs->subtree);
	memset(bs, 0, sizeof(*bs));
}

/*
 * Check the sends against each other; @step[v] is set to the step in
 * which offset v receives (0 for the source).
 */
static int bcast_check(const struct wormcast_bcast_send *s, u32 nsends,
		       u32 nnodes, u32 *step, u32 *last, const char **why)
{
	u32 i;

	for (i = 0; i < nsends; i++) {
		if (!s[i].step || s[i].step > WORMCAST_BCAST_MAX_STEPS)
			return refuse(why,
				      "a broadcast step is not in 1 .. WORMCAST_BCAST_MAX_STEPS");
		if (s[i].from >= nnodes || s[i].to >= nnodes)
			return refuse(why,
				      "a broadcast offset is not a node of the fabric");
		if (!s[i].to)
			return refuse(why, "a broadcast unicast goes back to the source");
		if (step[s[i].to])
			return refuse(why, "a node receives the broadcast twice");
		step[s[i].to] = s[i].step;
	}
	/* every node but the source received once: nsends = nnodes - 1 */
	for (i = 0; i < nsends; i++) {
		u32 f = s[i].from;

		if (f && step[f] >= s[i].step)
			return refuse(why,
				      "a node sends the broadcast before it received it (step order)");
		if (s[i].step < last[f])
			return refuse(why, "a sender's unicasts are not in step order");
		last[f] = s[i].step;
	}
	return 0;
}

int wc_bcast_set_build(struct wc_bcast_set *bs, const struct wc_topo *t,
		       const void *table, size_t len, const char **why)
{
	const struct wormcast_bcast *h = table;
	const struct wormcast_bcast_send *s;
	u32 *step = NULL, *last = NULL, *fill = NULL, n, i, k;
	int err;

	memset(bs, 0, sizeof(*bs));
	if (len < sizeof(*h))
		return refuse(why, "bcast table shorter than its header");
	if (!wc_bcast_scheme(h->scheme))
		return refuse(why, "a bcast table's scheme must be dcf or edn");
	if (t->kind != WC_TOPO_TORUS || t->ndims != 2 ||
	    t->dims[0] != t->dims[1] || !wc_plh_side_ok(t->dims[0]))
		return refuse(why,
			      "broadcast schedules need an n x n torus, n a power of two, 4 to 64");
	if (h->nnodes != t->nnodes)
		return refuse(why, "bcast table nnodes is not the fabric's");
	if (h->reserved)
		return refuse(why, "bcast table reserved field is not 0");
	if (h->nsends != h->nnodes - 1)
		return refuse(why,
			      "a bcast table has nnodes - 1 unicasts (every node but the source receives once)");
	if (len != sizeof(*h) + (size_t)h->nsends * sizeof(*s))
		return refuse(why, "bcast table size is not its header and nsends unicasts");
	n = h->nnodes;
	s = (const void *)(h + 1);
	step = wc_calloc(n, sizeof(*step));
	last = wc_calloc(n, sizeof(*last));
	fill = wc_calloc(n + 1, sizeof(*fill));
	bs->start = wc_calloc(n + 1, sizeof(*bs->start));
	bs->to = wc_calloc(h->nsends, sizeof(*bs->to));
	bs->subtree = wc_calloc(n, sizeof(*bs->subtree));
	err = -ENOMEM;
	if (!step || !last || !fill || !bs->start || !bs->to || !bs->subtree)
		goto out;
	err = bcast_check(s, h->nsends, n, step, last, why);
	if (err)
		goto out;
	bs->scheme = h->scheme;
	bs->side = t->dims[0];
	bs->nnodes = n;
	bs->nsends = h->nsends;
	/* the index: each sender's receivers, in the table's order */
	for (i = 0; i < h->nsends; i++) {
		bs->start[s[i].from + 1]++;
		if (s[i].step > bs->nsteps)
			bs->nsteps = s[i].step;
	}
	for (i = 0; i < n; i++)
		bs->start[i + 1] += bs->start[i];
	for (i = 0; i < h->nsends; i++)
		bs->to[bs->start[s[i].from] + fill[s[i].from]++] = (u16)s[i].to;
	/*
	 * Subtrees, latest step first: a receiver's own sends come in later
	 * steps than the one it receives in, so its subtree is complete
	 * when its sender adds it.
	 */
	for (i = 0; i < n; i++)
		bs->subtree[i] = 1;
	for (k = bs->nsteps; k >= 1; k--)
		for (i = 0; i < h->nsends; i++)
			if (s[i].step == k)
				bs->subtree[s[i].from] += bs->subtree[s[i].to];
	bs->mem = ((size_t)n + 1) * sizeof(u32) +
		  ((size_t)n + h->nsends) * sizeof(u16);
	err = 0;
out:
	wc_free(step);
	wc_free(last);
	wc_free(fill);
	if (err)
		wc_bcast_set_free(bs);
	return err;
}
