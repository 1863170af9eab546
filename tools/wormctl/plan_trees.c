// SPDX-License-Identifier: GPL-2.0
/*
 * wormctl plan torus KxM dstm-1|dstm-2|rt|rt-special|spam
 *                        [--seed N] [--root NODE] [--svg FILE]
 * wormctl plan torus KxM dstm-header --tree 1|2 --src N --dst A,B,...
 *
 * Offline: computes the spanning trees and prints them (text, or JSON with
 * -j), with the combined diameter and average distance; --svg draws the
 * trees in two colours over the torus grid.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wormctl.h"
#include "dstm.h"
#include "plan_common.h"
#include "roskind_tarjan.h"

#define METRICS_MAX_NODES 4096	/* exhaustive CD/AD is O(N^2) */

struct tree_opts {
	u32 k, m;
	const char *algo;
	u64 seed;
	long root;		/* -1: default */
	const char *svg;
	int tree;		/* dstm-header */
	long src;
	u32 *dst;
	u32 ndst;
};

static int trees_usage(void)
{
	fprintf(stderr,
		"usage: wormctl plan torus KxM dstm-1|dstm-2|rt|rt-special|spam [--seed N] [--root NODE] [--svg FILE]\n"
		"       wormctl plan torus KxM dstm-header --tree 1|2 --src NODE --dst A,B,...\n");
	return WORMCTL_EXIT_USAGE;
}

static int trees_parse_dst(const char *s, u32 n, struct tree_opts *t)
{
	const char *p = s;
	u32 cap = 16;

	t->dst = malloc(cap * sizeof(*t->dst));
	while (t->dst) {
		char item[24];
		size_t len = strcspn(p, ",");
		u32 v;

		if (!len || len >= sizeof(item))
			return -1;
		memcpy(item, p, len);
		item[len] = 0;
		if (plan_parse_u32(item, n - 1, &v))
			return -1;
		if (t->ndst == cap) {
			u32 *bigger = realloc(t->dst, 2 * cap * sizeof(*t->dst));

			if (!bigger)
				return -1;
			t->dst = bigger;
			cap *= 2;
		}
		t->dst[t->ndst++] = v;
		if (!p[len])
			return 0;
		p += len + 1;
	}
	return -1;
}

static const char *const algos[] = {
	"dstm-1", "dstm-2", "rt", "rt-special", "spam", "dstm-header",
};

static int trees_parse(int argc, char **argv, struct tree_opts *t)
{
	int i;
	u64 v;
	u32 dims[2];
	const char *dst = NULL;

	if (argc < 3)
		return trees_usage();
	if (plan_parse_dims(argv[1], dims, 2, 1u << 20) != 2 ||
	    dims[0] < 2 || dims[1] < 2) {
		fprintf(stderr, "wormctl plan torus: bad size '%s' (KxM, each at least 2)\n", argv[1]);
		return WORMCTL_EXIT_USAGE;
	}
	t->k = dims[0];
	t->m = dims[1];
	t->algo = argv[2];
	t->root = -1;
	t->src = -1;
	t->seed = 1;
	for (i = 3; i < argc; i++) {
		const char *opt = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;

		if (!val) {
			fprintf(stderr, "wormctl plan torus: %s needs a value\n", opt);
			return trees_usage();
		}
		i++;
		if (!strcmp(opt, "--seed")) {
			if (plan_parse_u64(val, ULLONG_MAX, &t->seed)) {
				fprintf(stderr, "wormctl plan torus: bad seed '%s'\n", val);
				return WORMCTL_EXIT_USAGE;
			}
		} else if (!strcmp(opt, "--root") || !strcmp(opt, "--src")) {
			if (plan_parse_u64(val, (u64)t->k * t->m - 1, &v)) {
				fprintf(stderr, "wormctl plan torus: bad node '%s' (0..%llu)\n",
					val, (unsigned long long)t->k * t->m - 1);
				return WORMCTL_EXIT_USAGE;
			}
			if (opt[2] == 'r')
				t->root = (long)v;
			else
				t->src = (long)v;
		} else if (!strcmp(opt, "--svg")) {
			t->svg = val;
		} else if (!strcmp(opt, "--tree")) {
			if (plan_parse_u64(val, 2, &v) || v < 1) {
				fprintf(stderr, "wormctl plan torus: --tree takes 1 or 2\n");
				return WORMCTL_EXIT_USAGE;
			}
			t->tree = (int)v;
		} else if (!strcmp(opt, "--dst")) {
			dst = val;
		} else {
			fprintf(stderr, "wormctl plan torus: unknown option '%s'\n", opt);
			return trees_usage();
		}
	}
	if (!strcmp(t->algo, "dstm-header")) {
		if (!t->tree || t->src < 0 || !dst) {
			fprintf(stderr, "wormctl plan torus: dstm-header needs --tree, --src and --dst\n");
			return trees_usage();
		}
		if (trees_parse_dst(dst, t->k * t->m, t)) {
			fprintf(stderr, "wormctl plan torus: bad destination list '%s' (nodes 0..%u, comma separated)\n",
				dst, t->k * t->m - 1);
			return WORMCTL_EXIT_USAGE;
		}
	}
	return 0;
}

/* ------------------------------------------------------------ output */

static void print_node_list(FILE *out, const u32 *v, u32 n, bool json)
{
	u32 i;

	for (i = 0; i < n; i++)
		fprintf(out, i ? ",%u" : "%u", v[i]);
	if (!n && !json)
		fprintf(out, "-");
}

static u32 children_of(const struct wc_sptree *s, u32 v, u32 *c)
{
	u32 p, n = 0;

	for (p = 0; p < s->topo.nports; p++)
		if ((s->child_mask[v] >> p) & 1)
			c[n++] = wc_topo_neighbor(&s->topo, v, p);
	return n;
}

static void print_trees(const struct wc_sptree *trees, u32 ntrees,
			const u8 *used, bool have_metrics,
			const struct wc_pair_metrics *pm, const struct tree_opts *t,
			bool json)
{
	const struct wc_topo *tp = &trees[0].topo;
	u32 k, v, l, c[WC_MAX_PORTS], nc, first = 1;

	if (json) {
		printf("{\"topology\":\"torus\",\"dims\":[%u,%u],\"algorithm\":\"%s\",\"trees\":[",
		       t->k, t->m, t->algo);
		for (k = 0; k < ntrees; k++) {
			const struct wc_sptree *s = &trees[k];

			printf("%s{\"root\":%u,\"nodes\":[", k ? "," : "", s->root);
			for (v = 0; v < s->nnodes; v++) {
				nc = children_of(s, v, c);
				printf("%s{\"node\":%u,\"x\":%u,\"y\":%u,\"parent\":", v ? "," : "",
				       v, v % t->k, v / t->k);
				if (v == s->root)
					printf("null");
				else
					printf("%u", s->parent[v]);
				printf(",\"children\":[");
				print_node_list(stdout, c, nc, true);
				printf("],\"pn\":%u,\"lo\":%u}", s->post[v], s->post_lo[v]);
			}
			printf("]}");
		}
		printf("],\"unused_links\":[");
		for (l = 0; l < wc_link_space(tp); l++) {
			u32 a, pa, b, pb;

			wc_link_ends(tp, l, &a, &pa, &b, &pb);
			if (b == WC_NO_NODE || wc_link_id(tp, a, pa) != l || used[l])
				continue;
			printf("%s[%u,%u]", first ? "" : ",", a, b);
			first = 0;
		}
		printf("]");
		if (have_metrics)
			printf(",\"cd\":%u,\"ad\":%.4f", pm->cd, pm->ad);
		printf("}\n");
		return;
	}
	printf("torus %ux%u %s\n", t->k, t->m, t->algo);
	for (k = 0; k < ntrees; k++) {
		const struct wc_sptree *s = &trees[k];

		printf("tree %u: root %u (%u,%u)\n", k + 1, s->root, s->root % t->k,
		       s->root / t->k);
		for (v = 0; v < s->nnodes; v++) {
			nc = children_of(s, v, c);
			printf("  node %u (%u,%u) pn %u [%u,%u] parent ", v, v % t->k,
			       v / t->k, s->post[v], s->post_lo[v], s->post[v]);
			if (v == s->root)
				printf("-");
			else
				printf("%u", s->parent[v]);
			printf(" children ");
			print_node_list(stdout, c, nc, false);
			printf("\n");
		}
	}
	printf("unused links:");
	for (l = 0; l < wc_link_space(tp); l++) {
		u32 a, pa, b, pb;

		wc_link_ends(tp, l, &a, &pa, &b, &pb);
		if (b == WC_NO_NODE || wc_link_id(tp, a, pa) != l || used[l])
			continue;
		printf(" %u-%u", a, b);
	}
	printf("\n");
	if (have_metrics)
		printf("combined diameter %u, average distance %.4f\n", pm->cd, pm->ad);
	else
		printf("combined diameter and average distance: not computed above %u nodes\n",
		       METRICS_MAX_NODES);
}

#define TREE_CELL 40
#define MARGIN 30

static void svg_link(FILE *f, const struct tree_opts *t, u32 a, u32 b,
		     const char *style)
{
	u32 ax = a % t->k, ay = a / t->k, bx = b % t->k, by = b / t->k;
	double x1 = MARGIN + ax * TREE_CELL, y1 = MARGIN + ay * TREE_CELL;
	double x2 = MARGIN + bx * TREE_CELL, y2 = MARGIN + by * TREE_CELL;
	bool wrap = (ax != bx && (ax + bx == t->k - 1) && t->k > 2 &&
		     (ax == 0 || bx == 0)) ||
		    (ay != by && (ay + by == t->m - 1) && t->m > 2 &&
		     (ay == 0 || by == 0));

	if (!wrap) {
		fprintf(f, "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" %s/>\n",
			x1, y1, x2, y2, style);
		return;
	}
	/* Wrap-around link: a stub out of each border node. */
	{
		double dx = ax != bx ? (ax == 0 ? -1 : 1) : 0;
		double dy = ay != by ? (ay == 0 ? -1 : 1) : 0;

		fprintf(f, "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" %s/>\n",
			x1, y1, x1 + dx * TREE_CELL / 2, y1 + dy * TREE_CELL / 2, style);
		fprintf(f, "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" %s/>\n",
			x2, y2, x2 - dx * TREE_CELL / 2, y2 - dy * TREE_CELL / 2, style);
	}
}

static int trees_svg(const struct tree_opts *t, const struct wc_sptree *trees,
		     u32 ntrees, const u8 *used)
{
	static const char *const colour[2] = { "#d62728", "#1f77b4" };
	const struct wc_topo *tp = &trees[0].topo;
	FILE *f = plan_svg_create(t->svg);
	u32 k, v, l;
	char style[96];

	if (!f)
		return 1;
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%u\" height=\"%u\">\n",
		2 * MARGIN + (t->k - 1) * TREE_CELL, 2 * MARGIN + (t->m - 1) * TREE_CELL + 20);
	for (l = 0; l < wc_link_space(tp); l++) {
		u32 a, pa, b, pb;

		wc_link_ends(tp, l, &a, &pa, &b, &pb);
		if (b == WC_NO_NODE || wc_link_id(tp, a, pa) != l || used[l])
			continue;
		svg_link(f, t, a, b, "stroke=\"#999\" stroke-dasharray=\"3,3\"");
	}
	for (k = 0; k < ntrees; k++) {
		snprintf(style, sizeof(style), "stroke=\"%s\" stroke-width=\"3\"", colour[k]);
		for (v = 0; v < trees[k].nnodes; v++)
			if (v != trees[k].root)
				svg_link(f, t, v, trees[k].parent[v], style);
	}
	for (v = 0; v < tp->nnodes; v++) {
		bool root = v == trees[0].root || (ntrees > 1 && v == trees[1].root);

		fprintf(f, "<circle cx=\"%u\" cy=\"%u\" r=\"%u\" fill=\"%s\" stroke=\"black\"/>\n",
			MARGIN + (v % t->k) * TREE_CELL, MARGIN + (v / t->k) * TREE_CELL,
			root ? 11 : 8, root ? "#ffd700" : "white");
		fprintf(f, "<text x=\"%u\" y=\"%u\" font-size=\"8\" text-anchor=\"middle\">%u</text>\n",
			MARGIN + (v % t->k) * TREE_CELL, MARGIN + (v / t->k) * TREE_CELL + 3, v);
	}
	fprintf(f, "<text x=\"5\" y=\"%u\" font-size=\"11\">torus %ux%u %s: T1 red, T2 blue, unused dashed, roots gold</text>\n",
		2 * MARGIN + (t->m - 1) * TREE_CELL + 12, t->k, t->m, t->algo);
	return plan_svg_finish(f, t->svg);
}

/* ------------------------------------------------------------ commands */

static int make_trees(const struct tree_opts *t, struct wc_sptree *trees,
		      u32 *ntrees, struct wc_dstm *d)
{
	struct wc_topo tp;
	const char *why = NULL;
	u32 root = t->root < 0 ? 0 : (u32)t->root;
	int err;

	if (!strcmp(t->algo, "dstm-1") || !strcmp(t->algo, "dstm-2") ||
	    !strcmp(t->algo, "dstm-header")) {
		struct wc_dstm_spec sp;

		if (!strcmp(t->algo, "dstm-2"))
			wc_dstm_spec_dstm2(&sp, t->k, t->m, root);
		else
			wc_dstm_spec_dstm1(&sp, t->k, t->m, root);
		err = wc_dstm_build(d, &sp, &why);
		if (err) {
			fprintf(stderr, "wormctl plan torus: %s\n", why ? why : strerror(-err));
			return err == -EINVAL ? WORMCTL_EXIT_USAGE : WORMCTL_EXIT_ERROR;
		}
		trees[0] = d->tree[0];
		trees[1] = d->tree[1];
		*ntrees = 2;
		return 0;
	}
	err = wc_topo_init(&tp, WC_TOPO_TORUS, 2, (const u32[]){ t->k, t->m }, &why);
	if (err) {
		fprintf(stderr, "wormctl plan torus: %s\n", why);
		return WORMCTL_EXIT_USAGE;	/* size out of bounds */
	}
	if (!strcmp(t->algo, "spam")) {
		if (wc_sptree_bfs(&trees[0], &tp, root))
			return 1;
		*ntrees = 1;
		return 0;
	}
	{
		u32 m = wc_topo_nlinks(&tp), *order = malloc(m * sizeof(*order));
		int n = (int)m;

		if (!order)
			return 1;
		if (!strcmp(t->algo, "rt-special")) {
			n = wc_rt_special_order(&tp, order);
			if (n < 0) {
				fprintf(stderr, "wormctl plan torus: rt-special needs an NxN torus, N >= 3\n");
				free(order);
				return WORMCTL_EXIT_USAGE;
			}
		} else {
			wc_rt_random_order(order, m, t->seed);
		}
		err = wc_rt_torus_trees(&tp, order, (u32)n, root, trees);
		free(order);
		if (err) {
			fprintf(stderr, "wormctl plan torus: no two edge-disjoint spanning trees\n");
			return 1;
		}
		*ntrees = 2;
	}
	return 0;
}

static int cmd_header(const struct tree_opts *t, const struct wc_sptree *s,
		      const struct wormctl_opts *o)
{
	u32 n = s->nnodes, i;
	struct wc_tree_entry *e = malloc(n * sizeof(*e));
	u32 *nop = malloc(n * sizeof(*nop));
	u32 *work = malloc(WC_DSTM_WORK_WORDS(t->ndst) * sizeof(*work));
	struct wc_dstm_flit *f = malloc(WC_DSTM_MAX_FLITS(t->ndst) * sizeof(*f));
	struct wc_tree_table tab = { .nnodes = n, .root = s->root, .e = e, .node_of_pn = nop };
	int nf = -ENOMEM, ret = 1;

	if (e && nop && work && f) {
		wc_sptree_router_table(s, e, nop);
		nf = wc_dstm_encode(&tab, (u32)t->src, t->dst, t->ndst, false, work,
				    f, WC_DSTM_MAX_FLITS(t->ndst));
	}
	if (nf < 0) {
		fprintf(stderr, "wormctl plan torus: %s\n", nf == -EINVAL ?
			"bad destination set (duplicates, or the source among them)" :
			strerror(-nf));
		if (nf == -EINVAL)
			ret = WORMCTL_EXIT_USAGE;
		goto out;
	}
	if (o->json) {
		printf("{\"tree\":%d,\"src\":%ld,\"flits\":[", t->tree, t->src);
		for (i = 0; i < (u32)nf; i++)
			printf("%s{\"node\":%u,\"c\":%u,\"o\":[%u,%u,%u,%u],\"s\":%u}",
			       i ? "," : "", f[i].node, f[i].c, f[i].out & 1,
			       (f[i].out >> 1) & 1, (f[i].out >> 2) & 1,
			       (f[i].out >> 3) & 1, f[i].s);
		printf("]}\n");
	} else {
		printf("DSTM-1 tree %d, source %ld, %u destinations: %d header flits\n",
		       t->tree, t->src, t->ndst, nf);
		printf("  %-6s %s %s %s %s %s %s\n", "Node", "C", "O1", "O2", "O3", "O4", "S");
		for (i = 0; i < (u32)nf; i++)
			printf("  %-6u %u %u  %u  %u  %u  %u\n", f[i].node, f[i].c,
			       f[i].out & 1, (f[i].out >> 1) & 1, (f[i].out >> 2) & 1,
			       (f[i].out >> 3) & 1, f[i].s);
	}
	ret = 0;
out:
	free(e);
	free(nop);
	free(work);
	free(f);
	return ret;
}

int plan_trees(int argc, char **argv, const struct wormctl_opts *o)
{
	struct tree_opts t;
	struct wc_sptree trees[2];
	struct wc_dstm d;
	struct wc_pair_metrics pm;
	u32 ntrees = 0, i, k, v;
	bool is_dstm, have_metrics = false, known = false;
	u8 *used = NULL;
	int ret;

	if (argc < 3 || strcmp(argv[0], "torus"))
		return -1;
	for (i = 0; i < ARRAY_SIZE(algos); i++)
		known |= !strcmp(argv[2], algos[i]);
	if (!known)
		return -1;	/* another planner's structure on a torus */
	memset(&t, 0, sizeof(t));
	ret = trees_parse(argc, argv, &t);
	if (ret)
		goto out_opts;
	is_dstm = !strncmp(t.algo, "dstm", 4);
	ret = make_trees(&t, trees, &ntrees, &d);
	if (ret)
		goto out_opts;
	if (!strcmp(t.algo, "dstm-header")) {
		ret = cmd_header(&t, &trees[t.tree - 1], o);
		goto out;
	}
	used = calloc(wc_link_space(&trees[0].topo), 1);
	if (!used) {
		ret = 1;
		goto out;
	}
	for (k = 0; k < ntrees; k++)
		for (v = 0; v < trees[k].nnodes; v++)
			if (v != trees[k].root)
				used[wc_link_id(&trees[k].topo, v, trees[k].parent_port[v])] = 1;
	if (trees[0].nnodes <= METRICS_MAX_NODES) {
		const struct wc_sptree *tp[2] = { &trees[0], &trees[1] };

		have_metrics = !wc_trees_metrics(tp, ntrees, &pm);
	}
	print_trees(trees, ntrees, used, have_metrics, &pm, &t, o->json);
	ret = t.svg ? trees_svg(&t, trees, ntrees, used) : 0;
out:
	free(used);
	if (is_dstm) {
		wc_dstm_free(&d);
	} else {
		for (k = 0; k < ntrees; k++)
			wc_sptree_free(&trees[k]);
	}
out_opts:
	free(t.dst);
	return ret;
}
