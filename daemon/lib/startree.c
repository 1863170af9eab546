// SPDX-License-Identifier: GPL-2.0
/* Tree-based multicast on a Hamiltonian labeling and baselines. */
#include "startree.h"

#include <stdlib.h>

const char *wc_startree_name(enum wc_startree_algo algo)
{
	switch (algo) {
	case WC_ST_TREE:
		return "tree";
	case WC_ST_HAMILTONIAN:
		return "hamiltonian";
	case WC_ST_DUAL_PATH:
		return "dual-path";
	case WC_ST_UNICAST:
		return "unicast";
	}
	return NULL;
}

int wc_startree_parse(const char *name, enum wc_startree_algo *algo)
{
	u32 a;

	for (a = WC_ST_TREE; a <= WC_ST_UNICAST; a++) {
		if (!strcmp(name, wc_startree_name(a))) {
			*algo = a;
			return 0;
		}
	}
	return -EINVAL;
}

void wc_route_plan_free(struct wc_route_plan *plan)
{
	u32 i;

	for (i = 0; i < plan->nbranches; i++)
		free(plan->br[i].nodes);
	free(plan->br);
	memset(plan, 0, sizeof(*plan));
}

/* Start a branch at @node; returns its index or U32_MAX on ENOMEM. */
static u32 new_branch(struct wc_route_plan *plan, u32 worm, u32 phase,
		      u32 start_dist, u32 node, u32 room)
{
	struct wc_route_branch *b;

	if (plan->nbranches == plan->cap) {
		u32 ncap = plan->cap ? plan->cap * 2 : 8;
		void *p = realloc(plan->br, ncap * sizeof(*plan->br));

		if (!p)
			return U32_MAX;
		plan->br = p;
		plan->cap = ncap;
	}
	b = &plan->br[plan->nbranches];
	memset(b, 0, sizeof(*b));
	b->nodes = malloc((size_t)room * sizeof(u32));
	if (!b->nodes)
		return U32_MAX;
	b->worm = worm;
	b->phase = phase;
	b->start_dist = start_dist;
	b->nodes[0] = node;
	b->nnodes = 1;
	return plan->nbranches++;
}

/* Append a node; a branch never holds more than nnodes nodes (monotone). */
static void extend(struct wc_route_plan *plan, u32 b, u32 node)
{
	plan->br[b].nodes[plan->br[b].nnodes++] = node;
	plan->channels++;
}

static void reached(struct wc_route_plan *plan, u32 b)
{
	u32 d = plan->br[b].start_dist + plan->br[b].nnodes - 1;

	plan->max_dist = max_t(u32, plan->max_dist, d);
}

/*
 * One worm of the tree-based scheme (Procedure 1 if @up, Procedure 2 if
 * not) over the destination labels @dl[0..m) in travel order.  Each split
 * hands a suffix of the list to a new branch, so a piece of work is a
 * (node, branch, [lo, hi)) triple; a stack replaces the paper's recursion.
 */
struct tree_work {
	u32 node, branch, lo, hi;
};

static int tree_worm(const struct wc_labeling *lb, struct wc_route_plan *plan,
		     u32 worm, u32 src, const u32 *dl, u32 m, bool up)
{
	const struct wc_topo *t = &lb->topo;
	struct tree_work *stack;
	u32 nstack = 0, nbr[WC_MAX_PORTS], b;
	int err = 0;

	stack = calloc(m + 1, sizeof(*stack));
	b = new_branch(plan, worm, 1, 0, src, t->nnodes);
	if (!stack || b == U32_MAX) {
		free(stack);
		return -ENOMEM;
	}
	stack[nstack++] = (struct tree_work){ src, b, 0, m };
	while (nstack && !err) {
		struct tree_work w = stack[--nstack];

		while (w.lo < w.hi) {
			struct wc_lr_tree_step st;
			u32 own = wc_labeling_router(lb, w.node, nbr);
			u32 here = plan->br[w.branch].start_dist +
				   plan->br[w.branch].nnodes - 1;

			err = wc_lr_tree_step(own, nbr, t->nports, dl + w.lo,
					      w.hi - w.lo, up, &st);
			if (err)
				break;
			if (st.nsplit && st.nsplit == w.hi - w.lo) {
				/*
				 * Nothing stays behind: "only one path is
				 * produced" (Appendix), the branch goes on.
				 */
				w.node = wc_topo_neighbor(t, w.node, st.split_port);
				extend(plan, w.branch, w.node);
				reached(plan, w.branch);
				w.lo++;
				continue;
			}
			if (st.nsplit) {
				/* first path: to w, which is a destination */
				u32 wn = wc_topo_neighbor(t, w.node, st.split_port);
				u32 nb = new_branch(plan, worm, 1, here, w.node,
						    t->nnodes);

				if (nb == U32_MAX) {
					err = -ENOMEM;
					break;
				}
				extend(plan, nb, wn);
				reached(plan, nb);
				stack[nstack++] = (struct tree_work){
					wn, nb, w.hi - st.nsplit + 1, w.hi };
				w.hi -= st.nsplit;
			}
			if (w.lo == w.hi)
				break;
			/* second path: keep going toward the first destination */
			if (st.fwd_port >= t->nports) {
				err = -EINVAL;	/* not a Hamiltonian labeling */
				break;
			}
			w.node = wc_topo_neighbor(t, w.node, st.fwd_port);
			extend(plan, w.branch, w.node);
			if (lb->label[w.node] == dl[w.lo]) {
				reached(plan, w.branch);
				w.lo++;
			}
		}
	}
	free(stack);
	return err;
}

/* A path-based worm: along the Hamiltonian path, or by R between targets. */
static int path_worm(const struct wc_labeling *lb, struct wc_route_plan *plan,
		     u32 worm, u32 src, const u32 *dl, u32 m, bool up,
		     bool follow_path)
{
	u32 b, cur = src, j = 0, next;

	b = new_branch(plan, worm, 1, 0, src, lb->topo.nnodes);
	if (b == U32_MAX)
		return -ENOMEM;
	while (j < m) {
		if (follow_path)
			next = lb->node[lb->label[cur] + (up ? 1 : -1)];
		else
			next = wc_labeling_next(lb, cur, lb->node[dl[j]]);
		if (next == WC_NO_NODE || next == cur)
			return -EINVAL;
		cur = next;
		extend(plan, b, cur);
		if (lb->label[cur] == dl[j]) {
			reached(plan, b);
			j++;
		}
	}
	return 0;
}

/* Shortest path by greedy descent of the exact distance (lowest port). */
static int unicast(const struct wc_labeling *lb, struct wc_route_plan *plan,
		   u32 worm, u32 phase, u32 start_dist, u32 from, u32 to)
{
	const struct wc_topo *t = &lb->topo;
	u32 b, cur = from, p, v = WC_NO_NODE, d;

	b = new_branch(plan, worm, phase, start_dist, from,
		       wc_topo_distance(t, from, to) + 1);
	if (b == U32_MAX)
		return -ENOMEM;
	while (cur != to) {
		d = wc_topo_distance(t, cur, to);
		for (p = 0; p < t->nports; p++) {
			v = wc_topo_neighbor(t, cur, p);
			if (v != WC_NO_NODE && wc_topo_distance(t, v, to) < d)
				break;
		}
		if (p == t->nports)
			return -EINVAL;
		cur = v;
		extend(plan, b, cur);
	}
	reached(plan, b);
	return 0;
}

/*
 * Recursive halving over chain[lo..hi) held by chain[h]: the holder sends
 * to the first node of the upper half if it sits in the lower half, else
 * to the last node of the lower half; both halves then proceed in parallel.
 * @dist[i] is the distance from the source to chain[i] along the plan.
 */
static int unicast_range(const struct wc_labeling *lb,
			 struct wc_route_plan *plan, const u32 *chain, u32 *dist,
			 u32 lo, u32 hi, u32 h, u32 phase)
{
	u32 mid, r, before;
	int err;

	while (hi - lo > 1) {
		mid = lo + (hi - lo) / 2;
		r = h < mid ? mid : mid - 1;
		before = plan->channels;
		err = unicast(lb, plan, plan->nworms++, phase, dist[h],
			      chain[h], chain[r]);
		if (err)
			return err;
		dist[r] = dist[h] + plan->channels - before;
		plan->phases = max_t(u32, plan->phases, phase);
		/* the half without the holder continues from r */
		if (h < mid) {
			err = unicast_range(lb, plan, chain, dist, mid, hi, r,
					    phase + 1);
			hi = mid;
		} else {
			err = unicast_range(lb, plan, chain, dist, lo, mid, r,
					    phase + 1);
			lo = mid;
		}
		if (err)
			return err;
		phase++;
	}
	return 0;
}

static int cmp_u32(const void *a, const void *b)
{
	u32 x = *(const u32 *)a, y = *(const u32 *)b;

	return x < y ? -1 : x > y;
}

int wc_startree_plan(const struct wc_labeling *lb, enum wc_startree_algo algo,
		     u32 src, const u32 *dests, u32 k,
		     struct wc_route_plan *plan)
{
	const struct wc_topo *t = &lb->topo;
	u32 *dl = NULL, *rev = NULL, *chain = NULL, *dist = NULL;
	u32 j, sl, nhigh, nlow, i;
	int err = -EINVAL;

	memset(plan, 0, sizeof(*plan));
	if (src >= t->nnodes || k >= t->nnodes || algo > WC_ST_UNICAST)
		return -EINVAL;
	sl = lb->label[src];
	dl = calloc(k + 1, sizeof(u32));
	rev = calloc(k + 1, sizeof(u32));
	if (!dl || !rev) {
		err = -ENOMEM;
		goto out;
	}
	for (j = 0; j < k; j++) {
		if (dests[j] >= t->nnodes || dests[j] == src)
			goto out;
		dl[j] = lb->label[dests[j]];
	}
	qsort(dl, k, sizeof(u32), cmp_u32);
	for (j = 1; j < k; j++)
		if (dl[j] == dl[j - 1])
			goto out;
	for (nlow = 0; nlow < k && dl[nlow] < sl; nlow++)
		rev[nlow] = 0;
	nhigh = k - nlow;
	for (j = 0; j < nlow; j++)
		rev[j] = dl[nlow - 1 - j];	/* low side, descending */

	err = 0;
	switch (algo) {
	case WC_ST_TREE:
	case WC_ST_HAMILTONIAN:
	case WC_ST_DUAL_PATH:
		plan->phases = k ? 1 : 0;
		if (nhigh) {
			err = algo == WC_ST_TREE ?
			      tree_worm(lb, plan, plan->nworms, src, dl + nlow,
					nhigh, true) :
			      path_worm(lb, plan, plan->nworms, src, dl + nlow,
					nhigh, true, algo == WC_ST_HAMILTONIAN);
			plan->nworms++;
		}
		if (nlow && !err) {
			err = algo == WC_ST_TREE ?
			      tree_worm(lb, plan, plan->nworms, src, rev, nlow,
					false) :
			      path_worm(lb, plan, plan->nworms, src, rev, nlow,
					false, algo == WC_ST_HAMILTONIAN);
			plan->nworms++;
		}
		break;
	case WC_ST_UNICAST:
		plan->unicast = true;
		chain = calloc(k + 1, sizeof(u32));
		dist = calloc(k + 1, sizeof(u32));
		if (!chain || !dist) {
			err = -ENOMEM;
			break;
		}
		/* source and destinations in label order */
		for (i = 0; i < nlow; i++)
			chain[i] = lb->node[dl[i]];
		chain[nlow] = src;
		for (i = nlow; i < k; i++)
			chain[i + 1] = lb->node[dl[i]];
		err = unicast_range(lb, plan, chain, dist, 0, k + 1, nlow, 1);
		break;
	}
out:
	free(dl);
	free(rev);
	free(chain);
	free(dist);
	if (err)
		wc_route_plan_free(plan);
	return err;
}

static bool fail(const char **why, const char *msg)
{
	if (why)
		*why = msg;
	return false;
}

/* Is @node at distance @dist on a branch before @nb that may feed it? */
static bool fed_by_earlier(const struct wc_route_plan *plan, u32 nb,
			   u32 node, u32 dist)
{
	u32 b, i;

	for (b = 0; b < nb; b++) {
		const struct wc_route_branch *br = &plan->br[b];

		for (i = 0; i < br->nnodes; i++) {
			if (br->nodes[i] != node || br->start_dist + i != dist)
				continue;
			if (br->worm == plan->br[nb].worm ||
			    (plan->unicast && i + 1 == br->nnodes))
				return true;
		}
	}
	return false;
}

bool wc_route_plan_check(const struct wc_labeling *lb, u32 src,
			 const u32 *dests, u32 k,
			 const struct wc_route_plan *plan, bool *monotone,
			 const char **why)
{
	const struct wc_topo *t = &lb->topo;
	u32 channels = 0, maxd = 0, b, i, p, reached = 0;
	u8 *want;
	bool ok = false;

	*monotone = true;
	want = calloc(t->nnodes, 1);
	if (!want)
		return fail(why, "out of memory");
	for (i = 0; i < k; i++)
		want[dests[i]] = 1;
	for (b = 0; b < plan->nbranches; b++) {
		const struct wc_route_branch *br = &plan->br[b];
		int dir = 0;

		if (!br->nnodes ||
		    !((br->nodes[0] == src && !br->start_dist) ||
		      fed_by_earlier(plan, b, br->nodes[0], br->start_dist))) {
			fail(why, "branch does not start on the plan");
			goto out;
		}
		for (i = 1; i < br->nnodes; i++) {
			u32 a = br->nodes[i - 1], c = br->nodes[i];
			int d = lb->label[c] > lb->label[a] ? 1 : -1;

			p = wc_topo_port_to(t, a, c);
			if (p == WC_NO_PORT) {
				fail(why, "branch hop is not a link");
				goto out;
			}
			if (dir && d != dir)
				*monotone = false;
			dir = d;
			if (plan->unicast && i + 1 < br->nnodes)
				continue;	/* passing through, no delivery */
			if (want[c] == 1) {
				want[c] = 2;
				reached++;
				maxd = max_t(u32, maxd, br->start_dist + i);
			}
		}
		channels += br->nnodes - 1;
	}
	if (reached != k) {
		fail(why, "a destination is not reached");
		goto out;
	}
	if (channels != plan->channels || maxd != plan->max_dist) {
		fail(why, "totals wrong");
		goto out;
	}
	ok = true;
out:
	free(want);
	return ok;
}
