// SPDX-License-Identifier: GPL-2.0
/* struct wormcast_trees tables of the tree multicast schemes (trees_table.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dstm.h"
#include "roskind_tarjan.h"
#include "trees_table.h"

#define INFO_METRICS_MAX_NODES	4096	/* exhaustive CD/AD is O(N^2) */

static int fail(const char **why, const char *msg)
{
	if (why)
		*why = msg;
	return -EINVAL;
}

void wc_trees_opts_default(struct wc_trees_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->rt_pair = WC_RT_PAIR_AVERAGE;
	o->seed = 0;
	o->trials = WC_TREES_DEFAULT_TRIALS;
}

bool wc_trees_opts_equal(const struct wc_trees_opts *a,
			 const struct wc_trees_opts *b)
{
	if (a->rt_pair != b->rt_pair)
		return false;
	return a->rt_pair == WC_RT_PAIR_PATH ||
	       (a->seed == b->seed && a->trials == b->trials);
}

u32 wc_topo_center(const struct wc_topo *t)
{
	u32 c[WC_MAX_DIMS], d;

	/* Torus, hypercube, star graph: vertex-transitive, every node is a centre. */
	if (t->kind != WC_TOPO_MESH)
		return 0;
	/* Mesh: eccentricity sum_d max(x_d, n_d - 1 - x_d), least at floor((n_d - 1) / 2). */
	for (d = 0; d < t->ndims; d++)
		c[d] = (t->dims[d] - 1) / 2;
	return wc_topo_node(t, c);
}

u32 wc_sptree_centroid(const struct wc_sptree *s)
{
	u32 n = s->nnodes, v, p, best = 0, best_max = U32_MAX;

	for (v = 0; v < n; v++) {
		/* Subtree sizes from the post-order intervals. */
		u32 size = s->post[v] - s->post_lo[v] + 1;
		u32 worst = n - size;

		for (p = 0; p < s->topo.nports; p++) {
			u32 c, cs;

			if (!((s->child_mask[v] >> p) & 1))
				continue;
			c = wc_topo_neighbor(&s->topo, v, p);
			cs = s->post[c] - s->post_lo[c] + 1;
			if (cs > worst)
				worst = cs;
		}
		if (worst < best_max) {
			best_max = worst;
			best = v;
		}
	}
	return best;
}

static u32 largest_root_branch(const struct wc_sptree *s)
{
	u32 sizes[WC_MAX_PORTS], n, i, m = 0;

	wc_sptree_root_branches(s, sizes, &n);
	for (i = 0; i < n; i++)
		if (sizes[i] > m)
			m = sizes[i];
	return m;
}

static int is_torus2(const struct wc_topo *t)
{
	return t->kind == WC_TOPO_TORUS && t->ndims == 2;
}

/* Write the trees into a fresh table. */
static int emit(u32 scheme, const struct wc_sptree *trees, u32 ntrees,
		void **table, size_t *len)
{
	u32 n = trees[0].nnodes, k;
	size_t size = wc_trees_table_size(ntrees, n);
	struct wormcast_trees *h = calloc(1, size);

	if (!h)
		return -ENOMEM;
	h->scheme = scheme;
	h->nnodes = n;
	h->ntrees = ntrees;
	for (k = 0; k < ntrees; k++) {
		h->root[k] = trees[k].root;
		memcpy(h->parent_port + (size_t)k * n, trees[k].parent_port, n);
	}
	*table = h;
	*len = size;
	return 0;
}

/* Root both trees at their centroids; on failure the pair is freed. */
static int reroot_centroids(struct wc_sptree trees[2])
{
	int k, err = 0;

	for (k = 0; k < 2 && !err; k++)
		err = wc_sptree_reroot(&trees[k], wc_sptree_centroid(&trees[k]));
	if (err) {
		wc_sptree_free(&trees[0]);
		wc_sptree_free(&trees[1]);
	}
	return err;
}

static int pair_metrics(const struct wc_sptree *trees, u32 ntrees,
			struct wc_pair_metrics *m)
{
	const struct wc_sptree *tp[2] = { &trees[0], ntrees > 1 ? &trees[1] : NULL };

	return wc_trees_metrics(tp, ntrees, m);
}

struct trial {
	u32 cd, balance;
	double ad;
};

static int cmp_u32(const void *a, const void *b)
{
	u32 x = *(const u32 *)a, y = *(const u32 *)b;

	return x < y ? -1 : x > y;
}

/* Trial i's trees, rooted at their centroids. */
static int rt_trial(const struct wc_topo *t, u32 *order, u32 m, u64 seed,
		    struct wc_sptree trees[2])
{
	int err;

	wc_rt_random_order(order, m, seed);
	err = wc_rt_torus_trees(t, order, m, 0, trees);
	if (err)
		return err;
	return reroot_centroids(trees);
}

static int rt_random_pair(const struct wc_topo *t, const struct wc_trees_opts *o,
			  struct wc_sptree trees[2], struct wc_trees_info *info,
			  const char **why)
{
	u32 m = wc_topo_nlinks(t), i, chosen = U32_MAX, median;
	u32 *order = malloc(m * sizeof(*order));
	struct trial *tr = calloc(o->trials, sizeof(*tr));
	u32 *bal = malloc(o->trials * sizeof(*bal));
	double mcd = 0, mad = 0, best_score = 0;
	int err = -ENOMEM;

	if (!order || !tr || !bal)
		goto out;
	for (i = 0; i < o->trials; i++) {
		struct wc_pair_metrics pm;

		err = rt_trial(t, order, m, o->seed + i, trees);
		if (err) {
			if (err == -EINVAL)
				fail(why, "internal error: Roskind-Tarjan found no two spanning trees");
			goto out;
		}
		err = pair_metrics(trees, 2, &pm);
		tr[i].cd = pm.cd;
		tr[i].ad = pm.ad;
		tr[i].balance = largest_root_branch(&trees[0]);
		if (largest_root_branch(&trees[1]) > tr[i].balance)
			tr[i].balance = largest_root_branch(&trees[1]);
		wc_sptree_free(&trees[0]);
		wc_sptree_free(&trees[1]);
		if (err)
			goto out;
		mcd += pm.cd;
		mad += pm.ad;
		bal[i] = tr[i].balance;
	}
	mcd /= o->trials;
	mad /= o->trials;
	qsort(bal, o->trials, sizeof(*bal), cmp_u32);
	median = bal[(o->trials - 1) / 2];
	if (info) {
		info->mean_cd = mcd;
		info->mean_ad = mad;
		info->median_balance = median;
		info->nbalanced = 0;
	}
	for (i = 0; i < o->trials; i++) {
		double rc = tr[i].cd / mcd, ra = tr[i].ad / mad, score;

		if (tr[i].balance > median)
			continue;
		if (info)
			info->nbalanced++;
		if (o->rt_pair == WC_RT_PAIR_AVERAGE)
			score = fabs(rc - 1.0) + fabs(ra - 1.0);
		else
			score = rc + ra;
		if (chosen == U32_MAX || score < best_score ||
		    (score == best_score && tr[i].balance < tr[chosen].balance)) {
			chosen = i;
			best_score = score;
		}
	}
	/* Rebuild the chosen trial (cheaper than keeping every pair). */
	err = rt_trial(t, order, m, o->seed + chosen, trees);
	if (!err && info) {
		info->trial = chosen;
		info->balance = tr[chosen].balance;
		info->cd = tr[chosen].cd;
		info->ad = tr[chosen].ad;
	}
out:
	free(order);
	free(tr);
	free(bal);
	return err;
}

static int rt_path_pair(const struct wc_topo *t, struct wc_sptree trees[2],
			const char **why)
{
	u32 m = wc_topo_nlinks(t);
	u32 *order;
	int n, err;

	if (t->dims[0] != t->dims[1] || t->dims[0] < 3)
		return fail(why, "rt path: section 5.3's order needs an N x N torus, N >= 3");
	order = malloc(m * sizeof(*order));
	if (!order)
		return -ENOMEM;
	n = wc_rt_special_order(t, order);
	err = n < 0 ? n : wc_rt_torus_trees(t, order, (u32)n, 0, trees);
	free(order);
	if (err == -EINVAL)
		return fail(why, "internal error: section 5.3's order gave no two spanning trees");
	if (err)
		return err;
	return reroot_centroids(trees);
}

int wc_trees_table_info(u32 scheme, const struct wc_topo *t,
			const struct wc_trees_opts *o, void **table,
			size_t *len, struct wc_trees_info *info,
			const char **why)
{
	struct wc_trees_opts def;
	struct wc_sptree trees[2];
	struct wc_dstm d;
	u32 ntrees = 2;
	bool dstm = false;
	int err;

	*table = NULL;
	*len = 0;
	if (info)
		memset(info, 0, sizeof(*info));
	if (!o) {
		wc_trees_opts_default(&def);
		o = &def;
	}
	if (o->rt_pair >= WC_RT_NPAIRS)
		return fail(why, "unknown Roskind-Tarjan pair");
	if (o->trials < 1 || o->trials > WC_TREES_MAX_TRIALS)
		return fail(why, "trials must be 1 to 100000");
	if (t->nnodes < 2)
		return fail(why, "a tree table needs at least 2 nodes");
	memset(trees, 0, sizeof(trees));

	switch (scheme) {
	case WORMCAST_MCAST_UNICAST:
	case WORMCAST_MCAST_MULTIPHASE:
		return fail(why, "built-in schemes (unicast, multiphase) need no table");
	case WORMCAST_MCAST_SPAM:
		if (t->nports > WC_TREE_MAX_PORTS)
			return fail(why, "tree multicast needs routers of at most 8 ports");
		ntrees = 1;
		err = wc_sptree_bfs(&trees[0], t, wc_topo_center(t));
		break;
	case WORMCAST_MCAST_DSTM1:
	case WORMCAST_MCAST_DSTM2: {
		struct wc_dstm_spec spec;

		if (!is_torus2(t))
			return fail(why, "DSTM needs a 2-D torus");
		if (scheme == WORMCAST_MCAST_DSTM1)
			wc_dstm_spec_dstm1(&spec, t->dims[0], t->dims[1], 0);
		else
			wc_dstm_spec_dstm2(&spec, t->dims[0], t->dims[1], 0);
		err = wc_dstm_build(&d, &spec, why);
		if (err)
			return err;
		trees[0] = d.tree[0];
		trees[1] = d.tree[1];
		dstm = true;
		break;
	}
	case WORMCAST_MCAST_RT:
		if (!is_torus2(t))
			return fail(why, "Roskind-Tarjan trees need a 2-D torus");
		if (o->rt_pair == WC_RT_PAIR_PATH)
			err = rt_path_pair(t, trees, why);
		else
			err = rt_random_pair(t, o, trees, info, why);
		break;
	default:
		return fail(why, "unknown multicast scheme");
	}
	if (err)
		return err;
	err = emit(scheme, trees, ntrees, table, len);
	if (!err && info && (scheme != WORMCAST_MCAST_RT ||
			     o->rt_pair == WC_RT_PAIR_PATH) &&
	    t->nnodes <= INFO_METRICS_MAX_NODES) {
		struct wc_pair_metrics pm;

		err = pair_metrics(trees, ntrees, &pm);
		info->cd = pm.cd;
		info->ad = pm.ad;
		info->balance = largest_root_branch(&trees[0]);
		if (ntrees > 1 && largest_root_branch(&trees[1]) > info->balance)
			info->balance = largest_root_branch(&trees[1]);
		if (err) {
			free(*table);
			*table = NULL;
			*len = 0;
		}
	}
	if (dstm) {
		wc_dstm_free(&d);
	} else {
		wc_sptree_free(&trees[0]);
		if (ntrees > 1)
			wc_sptree_free(&trees[1]);
	}
	return err;
}

int wc_trees_table_parse(const void *table, size_t len,
			 const struct wormcast_trees **hdr, const char **why)
{
	const struct wormcast_trees *h = table;
	u32 want;

	if (len < sizeof(*h))
		return fail(why, "table shorter than its header");
	if (h->scheme == WORMCAST_MCAST_SPAM)
		want = 1;
	else if (h->scheme == WORMCAST_MCAST_DSTM1 ||
		 h->scheme == WORMCAST_MCAST_DSTM2 ||
		 h->scheme == WORMCAST_MCAST_RT)
		want = 2;
	else
		return fail(why, "table of an unknown or tree-less scheme");
	if (h->ntrees != want)
		return fail(why, "number of trees does not fit the scheme");
	if (h->ntrees < WORMCAST_MAX_TREES && h->root[1])
		return fail(why, "unused fields not zero");
	if (h->nfaults > WORMCAST_TREES_MAX_FAULTS)
		return fail(why, "faulty links: at most 256");
	if (!h->nnodes || len != wc_trees_table_size(h->ntrees, h->nnodes) +
			   (size_t)h->nfaults * sizeof(struct wormcast_trees_fault))
		return fail(why, "table size is not header + ntrees x nnodes + nfaults x 8");
	if (h->root[0] >= h->nnodes || h->root[1] >= h->nnodes)
		return fail(why, "root out of range");
	if (hdr)
		*hdr = h;
	return 0;
}

int wc_trees_table_set_faults(void **table, size_t *len, const struct wc_topo *t,
			      const u32 *links, u32 nlinks, const char **why)
{
	const struct wormcast_trees *h;
	struct wormcast_trees_fault f;
	size_t base;
	u32 i, b, pb;
	u8 *p;
	int err = wc_trees_table_parse(*table, *len, &h, why);

	if (err)
		return err;
	if (nlinks > WORMCAST_TREES_MAX_FAULTS)
		return fail(why, "more than 256 faulty links");
	if (h->nnodes != t->nnodes)
		return fail(why, "table and topology differ in node count");
	for (i = 0; i < nlinks; i++) {
		u32 a, pa;

		if (!wc_link_real(t, links[i]))
			return fail(why, "a faulty link is not a link of the topology");
		wc_link_ends(t, links[i], &a, &pa, &b, &pb);
		if (h->ntrees == 1 && (h->parent_port[a] == pa ||
				       h->parent_port[b] == pb))
			return fail(why, "a faulty link is a link of the spam tree");
	}
	base = wc_trees_table_size(h->ntrees, h->nnodes);
	p = realloc(*table, base + (size_t)nlinks * sizeof(f));
	if (!p)
		return -ENOMEM;
	*table = p;
	*len = base + (size_t)nlinks * sizeof(f);
	((struct wormcast_trees *)p)->nfaults = nlinks;
	for (i = 0; i < nlinks; i++) {
		wc_link_ends(t, links[i], &f.node, &f.port, &b, &pb);
		memcpy(p + base + (size_t)i * sizeof(f), &f, sizeof(f));
	}
	return 0;
}

/*
 * The root of a spam tree: the fault-free root (wc_topo_center()) if it
 * is up, else the first node up in breadth-first order from it (the
 * nearest, the lowest port first); the centre if every node is down.
 * WC_NO_NODE if out of memory.
 */
static u32 spam_root(const struct wc_topo *t, const u8 *down)
{
	u32 c = wc_topo_center(t), head = 0, tail = 0, v, p;
	u32 *queue;
	u8 *seen;

	if (!down[c])
		return c;
	queue = malloc(t->nnodes * sizeof(*queue));
	seen = calloc(t->nnodes, 1);
	if (!queue || !seen) {
		free(queue);
		free(seen);
		return WC_NO_NODE;
	}
	seen[c] = 1;
	queue[tail++] = c;
	while (head < tail) {
		v = queue[head++];
		if (!down[v]) {
			c = v;
			break;
		}
		for (p = 0; p < t->nports; p++) {
			u32 nb = wc_topo_neighbor(t, v, p);

			if (nb != WC_NO_NODE && !seen[nb]) {
				seen[nb] = 1;
				queue[tail++] = nb;
			}
		}
	}
	free(queue);
	free(seen);
	return c;
}

/* Whether node @v of @s has a child that is not @down. */
static bool live_child(const struct wc_sptree *s, u32 v, const u8 *down)
{
	u32 p;

	for (p = 0; p < s->topo.nports; p++)
		if (((s->child_mask[v] >> p) & 1) &&
		    !down[wc_topo_neighbor(&s->topo, v, p)])
			return true;
	return false;
}

/* Append link @id at *@at unless @seen has it: how many were appended. */
static u32 add_link(u32 *at, u8 *seen, u32 id)
{
	if (seen[id])
		return 0;
	seen[id] = 1;
	*at = id;
	return 1;
}

bool wc_faults_valid(const struct wc_topo *t, const u32 *links, u32 nlinks,
		     const u32 *nodes, u32 nnodes, const char **why)
{
	u32 i;

	for (i = 0; i < nlinks; i++)
		if (!wc_link_real(t, links[i]))
			return !fail(why, "a faulty link is not a link of the topology");
	for (i = 0; i < nnodes; i++)
		if (nodes[i] >= t->nnodes)
			return !fail(why, "a faulty node is not a node of the topology");
	return true;
}

u32 wc_dead_links(const struct wc_topo *t, const u32 *links, u32 nlinks,
		  const u32 *nodes, u32 nnodes, u32 *out, u8 *seen)
{
	u32 i, p, n = 0;

	for (i = 0; i < nlinks; i++)
		n += add_link(out + n, seen, links[i]);
	for (i = 0; i < nnodes; i++)
		for (p = 0; p < t->nports; p++)
			if (wc_topo_neighbor(t, nodes[i], p) != WC_NO_NODE)
				n += add_link(out + n, seen,
					      wc_link_id(t, nodes[i], p));
	return n;
}

int wc_trees_table_spam_faults(const struct wc_topo *t, const u32 *links,
			       u32 nlinks, const u32 *nodes, u32 nnodes,
			       void **table, size_t *len,
			       struct wc_spam_faults *res, const char **why)
{
	struct wc_sptree tree;
	u32 *avoid = NULL, *listed = NULL, i, navoid = 0, nl = 0, root;
	u8 *down = NULL, *dead = NULL;
	int err = -ENOMEM;

	*table = NULL;
	*len = 0;
	memset(res, 0, sizeof(*res));
	if (t->nports > WC_TREE_MAX_PORTS)
		return fail(why, "tree multicast needs routers of at most 8 ports");
	if (t->nnodes < 2)
		return fail(why, "a tree table needs at least 2 nodes");
	if (!wc_faults_valid(t, links, nlinks, nodes, nnodes, why))
		return -EINVAL;
	/* The links to avoid: the faulty ones, then every link of a faulty node. */
	avoid = malloc(((size_t)nlinks + (size_t)nnodes * t->nports + 1) *
		       sizeof(*avoid));
	dead = calloc(wc_link_space(t), 1);
	down = calloc(t->nnodes, 1);
	if (!avoid || !dead || !down)
		goto out_free;
	navoid = wc_dead_links(t, links, nlinks, nodes, nnodes, avoid, dead);
	for (i = 0; i < nnodes; i++)
		down[nodes[i]] = 1;
	root = spam_root(t, down);
	if (root == WC_NO_NODE)
		goto out_free;
	err = wc_sptree_bfs_avoiding(&tree, t, root, avoid, navoid, NULL);
	if (err) {
		if (err == -EINVAL)
			err = fail(why, "internal error: no spanning tree of the topology");
		goto out_free;
	}
	listed = malloc((navoid + 1) * sizeof(*listed));
	err = listed ? emit(WORMCAST_MCAST_SPAM, &tree, 1, table, len) : -ENOMEM;
	if (err)
		goto out;
	for (i = 0; i < navoid; i++) {
		u32 a, pa, b, pb;

		wc_link_ends(t, avoid[i], &a, &pa, &b, &pb);
		if (wc_sptree_has_link(&tree, a, pa)) {
			/* a faulty node hanging from the tree by it, or a join */
			u32 child = tree.parent_port[a] == pa ? a : b;

			if (down[child] && !live_child(&tree, child, down))
				res->leaves++;
			else
				res->crossed++;
			continue;
		}
		if (nl == WORMCAST_TREES_MAX_FAULTS) {
			res->unlisted++;
			continue;
		}
		listed[nl++] = avoid[i];
	}
	res->listed = nl;
	err = wc_trees_table_set_faults(table, len, t, listed, nl, why);
	if (err) {
		free(*table);
		*table = NULL;
		*len = 0;
	}
out:
	wc_sptree_free(&tree);
out_free:
	free(listed);
	free(avoid);
	free(dead);
	free(down);
	return err;
}

/*
 * Whether tree @k of table @h joins every live node (not @down) without a
 * link flagged in @dead: every live node has the same top, the first node
 * up from it whose parent link is dead (or the root).  @top and @stack
 * have room for nnodes.
 */
static bool tree_joins_live(const struct wc_topo *t,
			    const struct wormcast_trees *h, u32 k,
			    const u8 *dead, const u8 *down, u32 *top,
			    u32 *stack)
{
	const u8 *pp = h->parent_port + (size_t)k * h->nnodes;
	u32 n = h->nnodes, v, x, ns, first = WC_NO_NODE;

	for (v = 0; v < n; v++)
		top[v] = WC_NO_NODE;
	for (v = 0; v < n; v++) {
		for (x = v, ns = 0; top[x] == WC_NO_NODE; ) {
			u32 link;

			if (x == h->root[k]) {
				top[x] = x;
				break;
			}
			if (pp[x] >= t->nports || ns == n)
				return false;	/* not a tree */
			link = wc_link_id(t, x, pp[x]);
			if (link == WC_NO_LINK || dead[link]) {
				top[x] = x;
				break;
			}
			stack[ns++] = x;
			x = wc_topo_neighbor(t, x, pp[x]);
		}
		while (ns)
			top[stack[--ns]] = top[x];
		if (down[v])
			continue;
		if (first == WC_NO_NODE)
			first = top[v];
		else if (top[v] != first)
			return false;
	}
	return true;
}

/*
 * Two edge-disjoint spanning trees of @t on the links not in @dead, the
 * failed nodes (@down) hung from tree k by their k-th link to a live node
 * that is not @faulty; rooted at their centroids.  The partition starts
 * from the live links of @h's trees, tree 0's then tree 1's, then the
 * others: first fit places nearly all of them, so only the few links the
 * faults displaced need an augmenting search.  -ENOENT when there are
 * none (too few live links, or a failed node with fewer than two such
 * links), -ENOMEM.
 */
static int trees_around(const struct wc_topo *t, const struct wormcast_trees *h,
			const u8 *dead, const u8 *faulty, const u8 *down,
			struct wc_sptree trees[2])
{
	u32 nl = wc_topo_nlinks(t), m, x, v, p, k, norder = 0, nlive = 0;
	u32 first_live = WC_NO_NODE;
	struct wc_graph_edge *edges = malloc(nl * sizeof(*edges));
	u32 *link_of = malloc(nl * sizeof(*link_of));
	u32 *order = malloc(nl * sizeof(*order));
	u32 *edge_of = malloc(wc_link_space(t) * sizeof(*edge_of));
	u8 *forest = malloc(nl), *set = calloc(wc_link_space(t), 1);
	int placed, err = -ENOMEM;

	if (!edges || !link_of || !order || !edge_of || !forest || !set)
		goto out;
	for (v = 0; v < t->nnodes; v++)
		if (!down[v] && nlive++ == 0)
			first_live = v;
	err = -ENOENT;
	if (nlive < 2)
		goto out;
	m = wc_rt_topo_edges(t, edges, link_of);
	for (x = 0; x < m; x++)
		edge_of[link_of[x]] = x;
	/* @set marks the links ordered so far */
	for (k = 0; k < 2; k++) {
		const u8 *pp = h->parent_port + (size_t)k * h->nnodes;

		for (v = 0; v < t->nnodes; v++) {
			u32 link = v == h->root[k] || pp[v] >= t->nports ?
				   WC_NO_LINK : wc_link_id(t, v, pp[v]);

			if (link != WC_NO_LINK && !dead[link] && !set[link]) {
				set[link] = 1;
				order[norder++] = edge_of[link];
			}
		}
	}
	for (x = 0; x < m; x++)
		if (!dead[link_of[x]] && !set[link_of[x]])
			order[norder++] = x;
	if (norder < 2 * (nlive - 1))
		goto out;	/* too few: no partition needed to tell */
	placed = wc_rt_partition(t->nnodes, edges, m, order, norder, 2, forest);
	if (placed < 0) {
		err = placed;
		goto out;
	}
	if ((u32)placed != 2 * (nlive - 1))
		goto out;
	for (k = 0; k < 2; k++) {
		memset(set, 0, wc_link_space(t));
		for (x = 0; x < m; x++)
			if (forest[x] == k)
				set[link_of[x]] = 1;
		for (v = 0; v < t->nnodes; v++) {
			u32 seen = 0, link = WC_NO_LINK;

			if (!down[v])
				continue;
			for (p = 0; p < t->nports && seen <= k; p++) {
				u32 nb = wc_topo_neighbor(t, v, p);

				if (nb == WC_NO_NODE || down[nb])
					continue;
				link = wc_link_id(t, v, p);
				if (!faulty[link])
					seen++;
			}
			if (seen <= k)
				goto out_trees;	/* err is -ENOENT */
			set[link] = 1;
		}
		err = wc_sptree_from_links(&trees[k], t, first_live, set);
		if (err) {
			if (err == -EINVAL)
				err = -ENOENT;
			goto out_trees;
		}
	}
	err = reroot_centroids(trees);
	goto out;
out_trees:
	if (k)
		wc_sptree_free(&trees[0]);
out:
	free(edges);
	free(link_of);
	free(order);
	free(edge_of);
	free(forest);
	free(set);
	return err;
}

int wc_trees_table_two_faults(const struct wc_topo *t, const void *base,
			      size_t base_len, const u32 *links, u32 nlinks,
			      const u32 *nodes, u32 nnodes, bool rebuild,
			      void **table, size_t *len,
			      struct wc_two_faults *res, const char **why)
{
	const struct wormcast_trees *h;
	struct wc_sptree trees[2];
	u32 *dead_ids = NULL, *top = NULL, *stack = NULL, ndead, i;
	u8 *dead = NULL, *faulty = NULL, *down = NULL;
	int err;

	*table = NULL;
	*len = 0;
	memset(res, 0, sizeof(*res));
	err = wc_trees_table_parse(base, base_len, &h, why);
	if (err)
		return err;
	if (h->ntrees != 2 || h->nnodes != t->nnodes)
		return fail(why, "not a two-tree table of this topology");
	if (!wc_faults_valid(t, links, nlinks, nodes, nnodes, why))
		return -EINVAL;
	err = -ENOMEM;
	dead_ids = malloc(((size_t)nlinks + (size_t)nnodes * t->nports + 1) *
			  sizeof(*dead_ids));
	dead = calloc(wc_link_space(t), 1);
	faulty = calloc(wc_link_space(t), 1);
	down = calloc(t->nnodes, 1);
	top = malloc(t->nnodes * sizeof(*top));
	stack = malloc(t->nnodes * sizeof(*stack));
	if (!dead_ids || !dead || !faulty || !down || !top || !stack)
		goto out;
	ndead = wc_dead_links(t, links, nlinks, nodes, nnodes, dead_ids, dead);
	for (i = 0; i < nlinks; i++)
		faulty[links[i]] = 1;
	for (i = 0; i < nnodes; i++)
		down[nodes[i]] = 1;
	res->clean = tree_joins_live(t, h, 0, dead, down, top, stack) ||
		     tree_joins_live(t, h, 1, dead, down, top, stack);
	err = -ENOENT;
	if (!res->clean && rebuild)
		err = trees_around(t, h, dead, faulty, down, trees);
	if (!err) {
		err = emit(h->scheme, trees, 2, table, len);
		wc_sptree_free(&trees[0]);
		wc_sptree_free(&trees[1]);
		res->rebuilt = !err;
	} else if (err == -ENOENT) {
		err = 0;
		*table = malloc(base_len);
		if (*table) {
			memcpy(*table, base, base_len);
			*len = base_len;
		} else {
			err = -ENOMEM;
		}
	}
	if (err)
		goto out;
	if (ndead > WORMCAST_TREES_MAX_FAULTS) {
		res->unlisted = ndead - WORMCAST_TREES_MAX_FAULTS;
		ndead = WORMCAST_TREES_MAX_FAULTS;
	}
	res->listed = ndead;
	err = wc_trees_table_set_faults(table, len, t, dead_ids, ndead, why);
	if (err) {
		free(*table);
		*table = NULL;
		*len = 0;
	}
out:
	free(dead_ids);
	free(dead);
	free(faulty);
	free(down);
	free(top);
	free(stack);
	return err;
}
