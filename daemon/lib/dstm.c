// SPDX-License-Identifier: GPL-2.0
/*
 * DSTM tree construction (Wang and Blough, Theorem 4.1 and section 5).
 *
 * The proof's six steps, for T1 = (a x, b y) from R1 = (x1, y1) and
 * T2 = (c y, d x) from R2 = (x2, y2):
 *   1. T1: the path along row y1 from R1 in direction a (K - 1 links);
 *   2. T2: the path along column x2 from R2 in direction c (M - 1 links);
 *   3. T1: from every (i, y1), i != x2, the path along column i in
 *      direction b;
 *   4. T2: from every (x2, j), j != y1, the path along row j in direction d;
 *   5. T1: for every row j != y1, the link (x2 - d, j)-(x2, j) that step 4
 *      left out, attaching column x2;
 *   6. T2: for every column i != x2, the link (i, y1 - b)-(i, y1) that
 *      step 3 left out, attaching row y1.
 * Unused: (x1 - a, y1)-(x1, y1) and (x2, y2 - c)-(x2, y2).  The steps hold
 * for every pair of start nodes, equal rows, columns or nodes included:
 * the proof's assumption x1 != x2, y1 != y2 is never used.
 */
#include <stdlib.h>

#include "dstm.h"

int wc_dstm_torus(struct wc_topo *t, u32 k, u32 m, const char **why)
{
	u32 dims[2] = { k, m };

	return wc_topo_init_bounded(t, WC_TOPO_TORUS, 2, dims,
				    WC_DSTM_MAX_NODES, why);
}

static u32 node_at(const struct wc_topo *t, u32 x, u32 y)
{
	return x + t->dims[0] * y;
}

/* x + step (mod K) for a step of any sign. */
static u32 wrap(u32 x, s64 step, u32 size)
{
	s64 r = ((s64)x + step) % (s64)size;

	return (u32)(r < 0 ? r + size : r);
}

/* The link from (x, y) one step along x in direction @dir (+1/-1). */
static u32 hlink(const struct wc_topo *t, u32 x, u32 y, int dir)
{
	return wc_link_id(t, node_at(t, x, y), dir > 0 ? 0 : 1);
}

static u32 vlink(const struct wc_topo *t, u32 x, u32 y, int dir)
{
	return wc_link_id(t, node_at(t, x, y), dir > 0 ? 2 : 3);
}

static void spec_common(struct wc_dstm_spec *s, u32 k, u32 m, u32 r1)
{
	memset(s, 0, sizeof(*s));
	s->k = k;
	s->m = m;
	s->r1 = r1;
}

void wc_dstm_spec_dstm1(struct wc_dstm_spec *s, u32 k, u32 m, u32 r1)
{
	u32 x1 = r1 % k, y1 = r1 / k;

	spec_common(s, k, m, r1);
	s->r2 = (x1 + k / 2) % k + k * ((y1 + m / 2) % m);
	s->t1_x = 1;
	s->t1_y = -1;
	s->t2_y = -1;
	s->t2_x = 1;
	s->roots = WC_DSTM_ROOT_PQ;
	s->balance = true;
}

void wc_dstm_spec_dstm2(struct wc_dstm_spec *s, u32 k, u32 m, u32 r1)
{
	u32 x1 = r1 % k, y1 = r1 / k;

	spec_common(s, k, m, r1);
	s->r2 = x1 + k * ((y1 + m / 4) % m);
	s->t1_x = -1;
	s->t1_y = 1;
	s->t2_y = 1;
	s->t2_x = -1;
	s->roots = WC_DSTM_ROOT_START;
	/*
	 * Theorem 5.2's diameter is that of the trees as constructed: the
	 * Fig. 5 move would add one on even sizes, and section 6 calls DSTM-2
	 * "less balanced", so it keeps R1's single branch.
	 */
	s->balance = false;
}

void wc_dstm_proof_unused(const struct wc_topo *t,
			  const struct wc_dstm_spec *s, u32 *l1, u32 *l2)
{
	u32 x1 = s->r1 % s->k, y1 = s->r1 / s->k;
	u32 x2 = s->r2 % s->k, y2 = s->r2 / s->k;

	*l1 = hlink(t, x1, y1, -s->t1_x);
	*l2 = vlink(t, x2, y2, -s->t2_y);
}

static int bad(const char **why, const char *msg)
{
	if (why)
		*why = msg;
	return -EINVAL;
}

/* Give @link to tree @tree (1 or 2); a clash would be a construction bug. */
static int claim(u8 *owner, u32 link, u8 tree)
{
	if (link == WC_NO_LINK || owner[link])
		return -EINVAL;
	owner[link] = tree;
	return 0;
}

static int construct(const struct wc_topo *t, const struct wc_dstm_spec *s,
		     u8 *owner)
{
	u32 k = s->k, m = s->m, i, j, step;
	u32 x1 = s->r1 % k, y1 = s->r1 / k, x2 = s->r2 % k, y2 = s->r2 / k;
	int a = s->t1_x, b = s->t1_y, c = s->t2_y, d = s->t2_x, err = 0;

	for (step = 0; step + 1 < k; step++)			/* step 1 */
		err |= claim(owner, hlink(t, wrap(x1, (s64)a * step, k), y1, a), 1);
	for (step = 0; step + 1 < m; step++)			/* step 2 */
		err |= claim(owner, vlink(t, x2, wrap(y2, (s64)c * step, m), c), 2);
	for (i = 0; i < k; i++) {				/* step 3 */
		if (i == x2)
			continue;
		for (step = 0; step + 1 < m; step++)
			err |= claim(owner,
				     vlink(t, i, wrap(y1, (s64)b * step, m), b), 1);
	}
	for (j = 0; j < m; j++) {				/* step 4 */
		if (j == y1)
			continue;
		for (step = 0; step + 1 < k; step++)
			err |= claim(owner,
				     hlink(t, wrap(x2, (s64)d * step, k), j, d), 2);
	}
	for (j = 0; j < m; j++)					/* step 5 */
		if (j != y1)
			err |= claim(owner, hlink(t, x2, j, -d), 1);
	for (i = 0; i < k; i++)					/* step 6 */
		if (i != x2)
			err |= claim(owner, vlink(t, i, y1, -b), 2);
	return err ? -EINVAL : 0;
}

static int build_tree(struct wc_sptree *tree, const struct wc_topo *t,
		      const u8 *owner, u8 which, u32 root, u8 *scratch)
{
	u32 l, nl = wc_link_space(t);

	for (l = 0; l < nl; l++)
		scratch[l] = owner[l] == which;
	return wc_sptree_from_links(tree, t, root, scratch);
}

/*
 * Fig. 5: the tree is rooted at its start node, whose only branch is the
 * first-step line p_0 = root, p_1, ..., p_{L-1} (p_i = root + i * dir along
 * @axis).  Cutting p_{c-1}-p_c and adding the unused link p_{L-1}-p_0 moves
 * the subtree of p_c to the other side of the root.  Pick the cut that
 * makes the two branches closest in size; on a tie, move fewer nodes.
 */
static int balance_line(struct wc_dstm *d, int which, u8 *owner, u8 *scratch)
{
	struct wc_sptree *tree = &d->tree[which];
	const struct wc_topo *t = &d->topo;
	u32 root = tree->root, n = t->nnodes;
	u32 x0 = root % t->dims[0], y0 = root / t->dims[0];
	u32 len = which == 0 ? t->dims[0] : t->dims[1];
	int dir = which == 0 ? d->spec.t1_x : d->spec.t2_y;
	u32 best_c = 0, best_gap = U32_MAX, c, cut, unused;
	int err;

	if (wc_sptree_nchildren(tree, root) != 1 || len < 3)
		return 0;
	for (c = 2; c < len; c++) {
		u32 pc = which == 0 ? node_at(t, wrap(x0, (s64)dir * c, len), y0) :
				      node_at(t, x0, wrap(y0, (s64)dir * c, len));
		u32 moved = tree->post[pc] - tree->post_lo[pc] + 1;
		u32 kept = n - 1 - moved;
		u32 gap = kept > moved ? kept - moved : moved - kept;

		if (gap <= best_gap) {	/* later cuts move fewer nodes */
			best_gap = gap;
			best_c = c;
		}
	}
	if (which == 0) {
		cut = hlink(t, wrap(x0, (s64)dir * (best_c - 1), len), y0, dir);
		unused = hlink(t, x0, y0, -dir);
	} else {
		cut = vlink(t, x0, wrap(y0, (s64)dir * (best_c - 1), len), dir);
		unused = vlink(t, x0, y0, -dir);
	}
	if (owner[cut] != which + 1 || owner[unused])
		return -EINVAL;
	owner[cut] = 0;
	owner[unused] = (u8)(which + 1);
	wc_sptree_free(tree);
	err = build_tree(tree, t, owner, (u8)(which + 1), root, scratch);
	if (err)
		return err;
	d->unused[which] = cut;
	d->moved[which] = true;
	return 0;
}

void wc_dstm_free(struct wc_dstm *d)
{
	wc_sptree_free(&d->tree[0]);
	wc_sptree_free(&d->tree[1]);
}

int wc_dstm_build(struct wc_dstm *d, const struct wc_dstm_spec *spec,
		  const char **why)
{
	const struct wc_topo *t = &d->topo;
	u8 *owner = NULL, *scratch = NULL;
	u32 n, root1, root2, x2, y1;
	int err;

	memset(d, 0, sizeof(*d));
	err = wc_dstm_torus(&d->topo, spec->k, spec->m, why);
	if (err)
		return err;
	n = t->nnodes;
	if (spec->r1 >= n || spec->r2 >= n)
		return bad(why, "start node out of range");
	if ((spec->t1_x != 1 && spec->t1_x != -1) ||
	    (spec->t1_y != 1 && spec->t1_y != -1) ||
	    (spec->t2_x != 1 && spec->t2_x != -1) ||
	    (spec->t2_y != 1 && spec->t2_y != -1))
		return bad(why, "search directions must be +1 or -1");
	x2 = spec->r2 % spec->k;
	y1 = spec->r1 / spec->k;
	switch (spec->roots) {
	case WC_DSTM_ROOT_START:
		root1 = spec->r1;
		root2 = spec->r2;
		break;
	case WC_DSTM_ROOT_PQ:
		root1 = node_at(t, x2, y1);
		root2 = root1;
		break;
	case WC_DSTM_ROOT_GIVEN:
		root1 = spec->root1;
		root2 = spec->root2;
		if (root1 >= n || root2 >= n)
			return bad(why, "root out of range");
		break;
	default:
		return bad(why, "unknown root choice");
	}
	d->spec = *spec;
	owner = calloc(wc_link_space(t), 1);
	scratch = malloc(wc_link_space(t));
	if (!owner || !scratch) {
		err = -ENOMEM;
		goto out;
	}
	err = construct(t, spec, owner);
	if (err) {
		bad(why, "internal error: construction is not edge-disjoint");
		goto out;
	}
	wc_dstm_proof_unused(t, spec, &d->unused[0], &d->unused[1]);
	err = build_tree(&d->tree[0], t, owner, 1, root1, scratch);
	if (!err)
		err = build_tree(&d->tree[1], t, owner, 2, root2, scratch);
	if (err) {
		if (err == -EINVAL)
			bad(why, "internal error: construction is not a spanning tree");
		goto out;
	}
	if (spec->balance && root1 == spec->r1)
		err = balance_line(d, 0, owner, scratch);
	if (!err && spec->balance && root2 == spec->r2)
		err = balance_line(d, 1, owner, scratch);
	if (err)
		bad(why, "internal error: balancing failed");
	/* Binary: a root with three branches cannot route as a binary tree. */
	if (!err && (wc_sptree_nchildren(&d->tree[0], root1) > 2 ||
		     wc_sptree_nchildren(&d->tree[1], root2) > 2)) {
		err = bad(why, "that root has three branches; the tree would not be binary");
	}
out:
	free(owner);
	free(scratch);
	if (err)
		wc_dstm_free(d);
	return err;
}
