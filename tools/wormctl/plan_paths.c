// SPDX-License-Identifier: GPL-2.0
/*
 * wormctl plan TOPO SIZE STRUCTURE [options]: Hamiltonian labelings and
 * path-based / tree-based multicast plans, offline.
 *
 *   wormctl plan mesh 8x8 labels [--table] [--svg FILE]
 *   wormctl plan star 4 labels
 *   wormctl plan mesh 8x8 otms|ocms|dual-path|multipath --src N --dst LIST
 *   wormctl plan star 4 tree|hamiltonian|dual-path|unicast --src 1324 --dst ...
 *
 * Every planner runs on every topology (mesh, torus 1-3 D, hypercube, star).
 * Node syntax: a node id; "@L" for the node labelled L; "x,y[,z]" for mesh
 * and torus coordinates; a permutation such as "1324" for the star graph.
 * --dst takes a comma-separated list of nodes ("5,9,12"), or, as soon as it
 * contains a colon, a colon-separated one ("1,1:5,6" lists two coordinate
 * pairs; "3,4:" is the single node (3,4)); "all" is every node but the
 * source.  --dst may be repeated.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wormctl.h"
#include "labeling.h"
#include "pathplan.h"
#include "plan_common.h"
#include "startree.h"

enum what { W_LABELS, W_PATHPLAN, W_STARTREE };

struct ctx {
	struct wc_topo t;
	struct wc_labeling lb;
	const struct wormctl_opts *o;
	const char *kind_word, *size_word, *struct_word;
};

static void paths_usage(void)
{
	fprintf(stderr,
		"usage: wormctl plan { mesh | torus } DIMS STRUCT [OPTIONS]\n"
		"       wormctl plan hypercube DIM STRUCT [OPTIONS]\n"
		"       wormctl plan star N STRUCT [OPTIONS]\n"
		"STRUCT := labels [--table]\n"
		"        | { otms | ocms | dual-path | multipath | tree |\n"
		"            hamiltonian | unicast } --src NODE --dst LIST\n"
		"OPTIONS := [ --svg FILE ]\n"
		"DIMS := N | NxM | NxMxK\n"
		"NODE := ID | @LABEL | X,Y[,Z] (mesh, torus) | PERMUTATION (star)\n"
		"LIST := NODE,NODE,... | NODE:NODE:... | all\n");
}

static int parse_topo(struct ctx *c)
{
	u32 kind, dims[WC_MAX_DIMS] = { 0 };
	const char *why = NULL;
	int ndims;

	if (!strcmp(c->kind_word, "mesh"))
		kind = WC_TOPO_MESH;
	else if (!strcmp(c->kind_word, "torus"))
		kind = WC_TOPO_TORUS;
	else if (!strcmp(c->kind_word, "hypercube"))
		kind = WC_TOPO_HYPERCUBE;
	else if (!strcmp(c->kind_word, "star"))
		kind = WC_TOPO_STAR;
	else
		return -1;
	ndims = plan_parse_dims(c->size_word, dims, WC_MAX_DIMS, U32_MAX);
	if (ndims < 0) {
		fprintf(stderr, "wormctl: bad size \"%s\"\n", c->size_word);
		return WORMCTL_EXIT_USAGE;
	}
	if (kind > WC_TOPO_TORUS && ndims != 1) {
		fprintf(stderr, "wormctl: bad size \"%s\" for %s\n",
			c->size_word, c->kind_word);
		return WORMCTL_EXIT_USAGE;
	}
	if (wc_topo_init(&c->t, kind, (u32)ndims, dims, &why)) {
		fprintf(stderr, "wormctl: %s %s: %s\n", c->kind_word,
			c->size_word, why);
		return WORMCTL_EXIT_USAGE;
	}
	if (wc_labeling_init(&c->lb, &c->t)) {
		fprintf(stderr, "wormctl: cannot build the labeling\n");
		return WORMCTL_EXIT_ERROR;
	}
	return 0;
}

/* Parse one node spec; returns the node or WC_NO_NODE. */
static u32 parse_node(const struct ctx *c, const char *s)
{
	const struct wc_topo *t = &c->t;
	u32 v, coords[WC_MAX_COORDS], i;
	const char *end;

	if (s[0] == '@')
		return plan_parse_u32(s + 1, U32_MAX, &v) || v >= t->nnodes ?
		       WC_NO_NODE : c->lb.node[v];
	if (t->kind == WC_TOPO_STAR && strlen(s) == t->dims[0]) {
		for (i = 0; i < t->dims[0]; i++) {
			if (s[i] < '1' || s[i] > '9')
				break;
			coords[i] = (u32)(s[i] - '0');
		}
		if (i == t->dims[0])
			return wc_topo_node(t, coords);
	}
	if (strchr(s, ',')) {
		if (t->kind > WC_TOPO_TORUS)
			return WC_NO_NODE;
		end = plan_scan_coords(s, t->ndims, t->dims, &v);
		return end && !*end ? v : WC_NO_NODE;
	}
	return plan_parse_u32(s, U32_MAX, &v) || v >= t->nnodes ? WC_NO_NODE : v;
}

static void node_name(const struct ctx *c, u32 v, char *buf, size_t len)
{
	u32 co[WC_MAX_COORDS], i;
	size_t off = 0;

	wc_topo_coords(&c->t, v, co);
	switch (c->t.kind) {
	case WC_TOPO_MESH:
	case WC_TOPO_TORUS:
		for (i = 0; i < c->t.ndims && off < len; i++)
			off += snprintf(buf + off, len - off, "%s%u",
					i ? "," : "", co[i]);
		break;
	case WC_TOPO_STAR:
		for (i = 0; i < c->t.dims[0] && off + 1 < len; i++)
			buf[off++] = (char)('0' + co[i]);
		buf[off] = 0;
		break;
	default:
		snprintf(buf, len, "%u", v);
	}
}

/*
 * Add the nodes of one --dst value; returns 0, or the exit status with the
 * error printed.
 */
static int parse_dst_list(const struct ctx *c, const char *arg, u32 src,
			  u32 *dests, u32 *k, u8 *seen)
{
	const char *sep = strchr(arg, ':') ? ":" : ",";
	char *buf, *tok, *save = NULL;
	u32 v;

	if (!strcmp(arg, "all")) {
		for (v = 0; v < c->t.nnodes; v++) {
			if (v == src || seen[v])
				continue;
			seen[v] = 1;
			dests[(*k)++] = v;
		}
		return 0;
	}
	buf = strdup(arg);
	if (!buf)
		return WORMCTL_EXIT_ERROR;
	for (tok = strtok_r(buf, sep, &save); tok;
	     tok = strtok_r(NULL, sep, &save)) {
		v = parse_node(c, tok);
		if (v == WC_NO_NODE) {
			fprintf(stderr, "wormctl: bad destination \"%s\"\n", tok);
			free(buf);
			return WORMCTL_EXIT_USAGE;
		}
		if (v == src) {
			fprintf(stderr, "wormctl: destination \"%s\" is the source\n",
				tok);
			free(buf);
			return WORMCTL_EXIT_USAGE;
		}
		if (seen[v]) {
			fprintf(stderr, "wormctl: destination \"%s\" given twice\n",
				tok);
			free(buf);
			return WORMCTL_EXIT_USAGE;
		}
		seen[v] = 1;
		dests[(*k)++] = v;
	}
	free(buf);
	return 0;
}

/* ------------------------------------------------------------------ SVG */

#define CELL 48

/* Where a node is drawn: grid coordinates for meshes and tori (3-D layers
 * side by side), label order along a snake for the other topologies. */
static void layout(const struct ctx *c, u32 v, u32 *gx, u32 *gy)
{
	u32 co[WC_MAX_COORDS], w, l;

	if (c->t.kind <= WC_TOPO_TORUS) {
		wc_topo_coords(&c->t, v, co);
		*gx = co[0] + (c->t.ndims == 3 ? co[2] * (c->t.dims[0] + 1) : 0);
		*gy = c->t.ndims >= 2 ? co[1] : 0;
		return;
	}
	for (w = 1; w * w < c->t.nnodes; w++)
		;
	l = c->lb.label[v];
	*gy = l / w;
	*gx = (*gy & 1) ? w - 1 - l % w : l % w;
}

static void svg_extent(const struct ctx *c, u32 *W, u32 *H)
{
	u32 v, x, y;

	*W = *H = 0;
	for (v = 0; v < c->t.nnodes; v++) {
		layout(c, v, &x, &y);
		*W = x + 1 > *W ? x + 1 : *W;
		*H = y + 1 > *H ? y + 1 : *H;
	}
}

static void svg_xy(const struct ctx *c, u32 v, u32 H, u32 *px, u32 *py)
{
	u32 x, y;

	layout(c, v, &x, &y);
	*px = CELL / 2 + x * CELL + 10;
	*py = CELL / 2 + (H - 1 - y) * CELL + 10;	/* y grows upward */
}

static void svg_line(FILE *f, const struct ctx *c, u32 H, u32 a, u32 b,
		     const char *style)
{
	u32 x1, y1, x2, y2;

	svg_xy(c, a, H, &x1, &y1);
	svg_xy(c, b, H, &x2, &y2);
	fprintf(f, "<line x1='%u' y1='%u' x2='%u' y2='%u' %s/>\n",
		x1, y1, x2, y2, style);
}

static FILE *svg_open(const struct ctx *c, const char *path, u32 *H)
{
	FILE *f = plan_svg_create(path);
	u32 W;

	if (!f)
		return NULL;
	svg_extent(c, &W, H);
	fprintf(f, "<svg xmlns='http://www.w3.org/2000/svg' width='%u' "
		"height='%u' font-family='sans-serif' font-size='10'>\n",
		W * CELL + 20, *H * CELL + 20);
	fprintf(f, "<rect width='100%%' height='100%%' fill='white'/>\n");
	return f;
}

/* For grids, the mesh links (wrap-around links are left out). */
static void svg_links(FILE *f, const struct ctx *c, u32 H)
{
	u32 v, p;

	if (c->t.kind <= WC_TOPO_TORUS) {
		for (v = 0; v < c->t.nnodes; v++) {
			u32 co[WC_MAX_COORDS], w;

			wc_topo_coords(&c->t, v, co);
			for (p = 0; p < c->t.nports; p += 2) {
				w = wc_topo_neighbor(&c->t, v, p);
				if (w != WC_NO_NODE && co[p / 2] + 1 < c->t.dims[p / 2])
					svg_line(f, c, H, v, w,
						 "stroke='#dddddd' stroke-width='2'");
			}
		}
	}
}

/* Nodes: label in bold, name below; source red, destinations orange. */
static void svg_nodes(FILE *f, const struct ctx *c, u32 H, const u8 *mark)
{
	static const char *const fill[] = { "#ffffff", "#ffd27f", "#ff7f7f" };
	u32 v, x, y;
	char name[32];

	for (v = 0; v < c->t.nnodes; v++) {
		svg_xy(c, v, H, &x, &y);
		node_name(c, v, name, sizeof(name));
		fprintf(f, "<circle cx='%u' cy='%u' r='15' fill='%s' "
			"stroke='black'/>\n", x, y, fill[mark ? mark[v] : 0]);
		fprintf(f, "<text x='%u' y='%u' text-anchor='middle' "
			"font-weight='bold'>%u</text>\n", x, y + 4,
			c->lb.label[v]);
		fprintf(f, "<text x='%u' y='%u' text-anchor='middle' "
			"fill='#555555' font-size='8'>%s</text>\n", x, y + 24,
			name);
	}
}

static const char *const worm_colors[] = {
	"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b",
	"#e377c2", "#17becf",
};

/* ---------------------------------------------------------------- labels */

static int do_labels(struct ctx *c, bool table, const char *svg)
{
	const struct wc_topo *t = &c->t;
	u32 v, p, x, y, nbr[WC_MAX_PORTS], co[WC_MAX_COORDS];
	char name[32];

	if (c->o->json) {
		printf("{\"topology\":\"%s\",\"size\":\"%s\",\"nodes\":[",
		       c->kind_word, c->size_word);
		for (v = 0; v < t->nnodes; v++) {
			u32 own = wc_labeling_router(&c->lb, v, nbr);

			node_name(c, v, name, sizeof(name));
			printf("%s{\"node\":%u,\"name\":\"%s\",\"label\":%u,"
			       "\"neighbor_labels\":[", v ? "," : "", v, name, own);
			for (p = 0; p < t->nports; p++) {
				if (nbr[p] == WC_LABEL_NONE)
					printf("%snull", p ? "," : "");
				else
					printf("%s%u", p ? "," : "", nbr[p]);
			}
			printf("]}");
		}
		printf("]}\n");
	} else {
		printf("%s %s: Hamiltonian labeling, %u nodes\n", c->kind_word,
		       c->size_word, t->nnodes);
		if (t->kind <= WC_TOPO_TORUS && t->ndims <= 2 && !table) {
			u32 rows = t->ndims == 2 ? t->dims[1] : 1;

			/* highest row first, as in the paper's figures */
			for (y = rows; y-- > 0;) {
				printf("y=%-3u", y);
				for (x = 0; x < t->dims[0]; x++) {
					co[0] = x;
					co[1] = y;
					printf(" %4u", c->lb.label[wc_topo_node(t, co)]);
				}
				printf("\n");
			}
		} else {
			printf("%-5s %-9s %5s  neighbour labels by port\n",
			       "label", "node", "id");
			for (p = 0; p < t->nnodes; p++) {
				v = c->lb.node[p];
				wc_labeling_router(&c->lb, v, nbr);
				node_name(c, v, name, sizeof(name));
				printf("%-5u %-9s %5u ", p, name, v);
				for (x = 0; x < t->nports; x++) {
					if (nbr[x] == WC_LABEL_NONE)
						printf("     -");
					else
						printf(" %5u", nbr[x]);
				}
				printf("\n");
			}
		}
	}
	if (svg) {
		FILE *f = svg_open(c, svg, &y);

		if (!f)
			return 1;
		svg_links(f, c, y);
		for (p = 1; p < t->nnodes; p++)
			svg_line(f, c, y, c->lb.node[p - 1], c->lb.node[p],
				 "stroke='#1f77b4' stroke-width='3' "
				 "stroke-opacity='0.6'");
		svg_nodes(f, c, y, NULL);
		return plan_svg_finish(f, svg);
	}
	return 0;
}

/* --------------------------------------------------------- multicasts */

/*
 * OTMS is exponential in the ports a side uses: refuse, before any work, a
 * request over the budget (pathplan.h), saying what would fit.  Returns 0
 * if it fits, else the exit status with the reason printed.
 */
static int otms_budget(const struct ctx *c, u32 src, const u32 *dests, u32 k)
{
	static const char *const where[2] = { "above", "below" };
	struct wc_otms_side side[2];
	u32 i;

	if (wc_otms_size(&c->lb, src, dests, k, side) != -E2BIG)
		return 0;
	for (i = 0; i < 2; i++) {
		if (side[i].states <= WC_OTMS_BUDGET)
			continue;
		fprintf(stderr,
			"wormctl: otms: %u destinations %s the source's label, "
			"reached through %u source ports, bound %.3g states of "
			"the dynamic programme: over the budget of %u; with %u "
			"ports at most %u destinations fit on a side\n",
			side[i].m, where[i], side[i].ports, side[i].states,
			WC_OTMS_BUDGET, side[i].ports,
			wc_otms_fit(side[i].ports));
	}
	fprintf(stderr, "wormctl: otms: use fewer destinations, or ocms, "
		"multipath or dual-path (see Documentation/paths.rst)\n");
	return WORMCTL_EXIT_USAGE;
}

static int do_pathplan(struct ctx *c, enum wc_pathplan_algo algo, u32 src,
		       const u32 *dests, u32 k, const char *svg)
{
	struct wc_mstar ms;
	u32 w, j, n, *path, H;
	char name[32];
	int err, ret = 0;

	if (algo == WC_PP_OTMS) {
		ret = otms_budget(c, src, dests, k);
		if (ret)
			return ret;
	}
	err = wc_pathplan(&c->lb, algo, src, dests, k, &ms);
	if (err == -E2BIG) {
		fprintf(stderr, "wormctl: otms: the dynamic programme outgrew "
			"its run-time budget; use fewer destinations, or ocms, "
			"multipath or dual-path\n");
		return WORMCTL_EXIT_ERROR;
	}
	if (err) {
		fprintf(stderr, "wormctl: %s failed: %s\n",
			wc_pathplan_name(algo), strerror(-err));
		return WORMCTL_EXIT_ERROR;
	}
	path = calloc(c->t.nnodes, sizeof(u32));
	if (!path) {
		wc_mstar_free(&ms);
		return 1;
	}
	node_name(c, src, name, sizeof(name));
	if (c->o->json) {
		printf("{\"algorithm\":\"%s\",\"source\":%u,\"source_label\":%u,"
		       "\"channels\":%u,\"max_length\":%u,\"worms\":[",
		       wc_pathplan_name(algo), src, c->lb.label[src],
		       ms.channels, ms.max_length);
	} else {
		printf("%s %s %s from %s (label %u) to %u destinations\n",
		       c->kind_word, c->size_word, wc_pathplan_name(algo), name,
		       c->lb.label[src], k);
	}
	for (w = 0; w < ms.nworms; w++) {
		const struct wc_mstar_worm *wm = &ms.worms[w];

		n = wc_mstar_worm_route(&c->lb, src, wm, path);
		if (c->o->json) {
			printf("%s{\"port\":%u,\"length\":%u,\"destinations\":[",
			       w ? "," : "", wm->port, wm->length);
			for (j = 0; j < wm->ndests; j++)
				printf("%s%u", j ? "," : "", wm->dests[j]);
			printf("],\"path\":[");
			for (j = 0; j < n; j++)
				printf("%s%u", j ? "," : "", path[j]);
			printf("]}");
		} else {
			printf("worm %u: port %u, %u destinations, %u channels\n ",
			       w, wm->port, wm->ndests, wm->length);
			for (j = 0; j < n; j++) {
				node_name(c, path[j], name, sizeof(name));
				printf(" %s%s[%u]", j ? "-> " : "", name,
				       c->lb.label[path[j]]);
			}
			printf("\n  visits:");
			for (j = 0; j < wm->ndests; j++) {
				node_name(c, wm->dests[j], name, sizeof(name));
				printf(" %s", name);
			}
			printf("\n");
		}
	}
	if (c->o->json)
		printf("]}\n");
	else
		printf("total: %u worms, %u channels, longest worm %u channels\n",
		       ms.nworms, ms.channels, ms.max_length);

	if (svg) {
		u8 *mark = calloc(c->t.nnodes, 1);
		FILE *f = mark ? svg_open(c, svg, &H) : NULL;

		if (!f) {
			free(mark);
			free(path);
			wc_mstar_free(&ms);
			return 1;
		}
		for (j = 0; j < k; j++)
			mark[dests[j]] = 1;
		mark[src] = 2;
		svg_links(f, c, H);
		for (w = 0; w < ms.nworms; w++) {
			char style[96];

			n = wc_mstar_worm_route(&c->lb, src, &ms.worms[w], path);
			snprintf(style, sizeof(style),
				 "stroke='%s' stroke-width='4' stroke-opacity='0.7'",
				 worm_colors[w % ARRAY_SIZE(worm_colors)]);
			for (j = 1; j < n; j++)
				svg_line(f, c, H, path[j - 1], path[j], style);
		}
		svg_nodes(f, c, H, mark);
		ret = plan_svg_finish(f, svg);
		free(mark);
	}
	free(path);
	wc_mstar_free(&ms);
	return ret;
}

static int do_startree(struct ctx *c, enum wc_startree_algo algo, u32 src,
		       const u32 *dests, u32 k, const char *svg)
{
	struct wc_route_plan pl;
	u32 b, j, H;
	char name[32];
	int err, ret = 0;

	err = wc_startree_plan(&c->lb, algo, src, dests, k, &pl);
	if (err) {
		fprintf(stderr, "wormctl: %s failed: %s\n",
			wc_startree_name(algo), strerror(-err));
		return 1;
	}
	node_name(c, src, name, sizeof(name));
	if (c->o->json) {
		printf("{\"algorithm\":\"%s\",\"source\":%u,\"source_label\":%u,"
		       "\"worms\":%u,\"phases\":%u,\"channels\":%u,"
		       "\"max_distance\":%u,\"branches\":[",
		       wc_startree_name(algo), src, c->lb.label[src], pl.nworms,
		       pl.phases, pl.channels, pl.max_dist);
		for (b = 0; b < pl.nbranches; b++) {
			printf("%s{\"worm\":%u,\"phase\":%u,\"start_distance\":%u,"
			       "\"nodes\":[", b ? "," : "", pl.br[b].worm,
			       pl.br[b].phase, pl.br[b].start_dist);
			for (j = 0; j < pl.br[b].nnodes; j++)
				printf("%s%u", j ? "," : "", pl.br[b].nodes[j]);
			printf("]}");
		}
		printf("]}\n");
	} else {
		printf("%s %s %s from %s (label %u) to %u destinations\n",
		       c->kind_word, c->size_word, wc_startree_name(algo), name,
		       c->lb.label[src], k);
		for (b = 0; b < pl.nbranches; b++) {
			printf("worm %u phase %u branch at distance %u:",
			       pl.br[b].worm, pl.br[b].phase, pl.br[b].start_dist);
			for (j = 0; j < pl.br[b].nnodes; j++) {
				node_name(c, pl.br[b].nodes[j], name, sizeof(name));
				printf(" %s%s[%u]", j ? "-> " : "", name,
				       c->lb.label[pl.br[b].nodes[j]]);
			}
			printf("\n");
		}
		printf("total: %u worms in %u phase(s), %u channels, "
		       "max distance %u\n", pl.nworms, pl.phases, pl.channels,
		       pl.max_dist);
	}
	if (svg) {
		u8 *mark = calloc(c->t.nnodes, 1);
		FILE *f = mark ? svg_open(c, svg, &H) : NULL;

		if (!f) {
			free(mark);
			wc_route_plan_free(&pl);
			return 1;
		}
		for (j = 0; j < k; j++)
			mark[dests[j]] = 1;
		mark[src] = 2;
		svg_links(f, c, H);
		for (b = 0; b < pl.nbranches; b++) {
			char style[96];

			snprintf(style, sizeof(style),
				 "stroke='%s' stroke-width='4' stroke-opacity='0.7'",
				 worm_colors[pl.br[b].worm % ARRAY_SIZE(worm_colors)]);
			for (j = 1; j < pl.br[b].nnodes; j++)
				svg_line(f, c, H, pl.br[b].nodes[j - 1],
					 pl.br[b].nodes[j], style);
		}
		svg_nodes(f, c, H, mark);
		ret = plan_svg_finish(f, svg);
		free(mark);
	}
	wc_route_plan_free(&pl);
	return ret;
}

int plan_paths(int argc, char **argv, const struct wormctl_opts *o)
{
	struct ctx c = { .o = o };
	enum wc_pathplan_algo pa = WC_PP_OCMS;
	enum wc_startree_algo sa = WC_ST_TREE;
	enum what what;
	const char *svg = NULL;
	u32 src = WC_NO_NODE, k = 0, *dests = NULL;
	u8 *seen = NULL;
	bool table = false;
	int i, ret;

	if (argc < 3)
		return -1;
	c.kind_word = argv[0];
	c.size_word = argv[1];
	c.struct_word = argv[2];
	if (strcmp(argv[0], "mesh") && strcmp(argv[0], "torus") &&
	    strcmp(argv[0], "hypercube") && strcmp(argv[0], "star"))
		return -1;
	/* dual-path goes to pathplan.c (same worms as startree.c's) */
	if (!strcmp(argv[2], "labels"))
		what = W_LABELS;
	else if (!wc_pathplan_parse(argv[2], &pa))
		what = W_PATHPLAN;
	else if (!wc_startree_parse(argv[2], &sa))
		what = W_STARTREE;
	else
		return -1;	/* not ours (e.g. "torus 8x8 dstm-1") */

	ret = parse_topo(&c);
	if (ret)
		return ret;
	ret = WORMCTL_EXIT_ERROR;
	dests = calloc(c.t.nnodes, sizeof(u32));
	seen = calloc(c.t.nnodes, 1);
	if (!dests || !seen)
		goto out;
	/* --src first, so that --dst can refuse the source */
	for (i = 3; i < argc; i++) {
		if (!strcmp(argv[i], "--src") && i + 1 < argc) {
			src = parse_node(&c, argv[++i]);
			if (src == WC_NO_NODE) {
				fprintf(stderr, "wormctl: bad source \"%s\"\n",
					argv[i]);
				ret = WORMCTL_EXIT_USAGE;
				goto out;
			}
		}
	}
	for (i = 3; i < argc; i++) {
		if (!strcmp(argv[i], "--src") && i + 1 < argc) {
			i++;
		} else if (!strcmp(argv[i], "--dst") && i + 1 < argc &&
			   what != W_LABELS) {
			if (src == WC_NO_NODE)
				break;
			ret = parse_dst_list(&c, argv[++i], src, dests, &k,
					     seen);
			if (ret)
				goto out;
		} else if (!strcmp(argv[i], "--svg") && i + 1 < argc) {
			svg = argv[++i];
		} else if (!strcmp(argv[i], "--table") && what == W_LABELS) {
			table = true;
		} else {
			fprintf(stderr, "wormctl: unexpected argument \"%s\"\n",
				argv[i]);
			paths_usage();
			ret = WORMCTL_EXIT_USAGE;
			goto out;
		}
	}
	if (what != W_LABELS && (src == WC_NO_NODE || !k)) {
		fprintf(stderr, "wormctl: %s needs --src NODE and --dst LIST\n",
			c.struct_word);
		paths_usage();
		ret = WORMCTL_EXIT_USAGE;
		goto out;
	}
	if (what == W_LABELS)
		ret = do_labels(&c, table, svg);
	else if (what == W_PATHPLAN)
		ret = do_pathplan(&c, pa, src, dests, k, svg);
	else
		ret = do_startree(&c, sa, src, dests, k, svg);
out:
	free(dests);
	free(seen);
	wc_labeling_free(&c.lb);
	return ret;
}
