// SPDX-License-Identifier: GPL-2.0
/*
 * wormctl plan mesh WxH faults --faulty x,y:x,y... [--faulty-links
 *     x,y-x,y:...] [--src x,y --dst x,y:x,y... [--strategy 1|2|3]
 *     [--seed N]] [--svg FILE]
 *
 * Offline: faulty blocks, safety vectors and adjacent-line records of a
 * faulty 2-D mesh, and a fault-tolerant minimal multicast planned over it
 * (Documentation/faults.rst).  Text, JSON (-j) and SVG.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ftmcast.h"
#include "json.h"
#include "plan_common.h"
#include "wormctl.h"

#define PF "wormctl: plan faults: "

struct req {
	u32 w, h;
	u32 *faulty, nfaulty;
	u32 (*links)[2];
	u32 nlinks;
	bool have_src;
	u32 src;
	u32 *dst, ndst;
	u32 strategy;
	u64 seed;
	const char *svg;
};

static int faults_usage(const char *msg)
{
	fprintf(stderr, PF "%s\n"
		"usage: wormctl plan mesh WxH faults [--faulty x,y:x,y...]\n"
		"         [--faulty-links x,y-x,y:...] [--src x,y --dst x,y:...]\n"
		"         [--strategy 1|2|3] [--seed N] [--svg FILE]\n", msg);
	return WORMCTL_EXIT_USAGE;
}

/* "x,y" inside the mesh -> node id; *end after it. */
static bool parse_xy(const struct req *r, const char *s, const char **end,
		     u32 *node)
{
	const u32 dims[2] = { r->w, r->h };

	s = plan_scan_coords(s, 2, dims, node);
	if (!s)
		return false;
	*end = s;
	return true;
}

/* "x,y:x,y:..." -> node ids (allocated). */
static bool parse_list(const struct req *r, const char *s, u32 **out, u32 *n)
{
	u32 cap = 1, i;
	const char *p;

	for (p = s; *p; p++)
		cap += *p == ':';
	*out = calloc(cap, sizeof(u32));
	if (!*out)
		return false;
	for (i = 0; i < cap; i++) {
		if (!parse_xy(r, s, &s, &(*out)[i]) || (*s && *s != ':'))
			return false;
		if (*s)
			s++;
	}
	*n = cap;
	return true;
}

/* "x,y-x,y:..." -> pairs of node ids (allocated). */
static bool parse_links(struct req *r, const char *s)
{
	u32 cap = 1, i;
	const char *p;

	for (p = s; *p; p++)
		cap += *p == ':';
	r->links = calloc(cap, sizeof(*r->links));
	if (!r->links)
		return false;
	for (i = 0; i < cap; i++) {
		if (!parse_xy(r, s, &s, &r->links[i][0]) || *s != '-' ||
		    !parse_xy(r, s + 1, &s, &r->links[i][1]) ||
		    (*s && *s != ':'))
			return false;
		if (*s)
			s++;
	}
	r->nlinks = cap;
	return true;
}

static int faults_parse(int argc, char **argv, struct req *r)
{
	const char *s;
	u32 dims[2];
	int i;

	if (argc < 3)
		return faults_usage("need: mesh WxH faults");
	if (plan_parse_dims(argv[1], dims, 2, WC_FI_MAX_SIDE) != 2 ||
	    dims[0] < 2 || dims[1] < 2) {
		fprintf(stderr, PF "bad mesh size \"%s\" (WxH, sides 2 to %u)\n",
			argv[1], WC_FI_MAX_SIDE);
		return WORMCTL_EXIT_USAGE;
	}
	r->w = dims[0];
	r->h = dims[1];
	r->strategy = WC_FT_STRATEGY3;
	for (i = 3; i < argc; i++) {
		const char *opt = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
		bool good = true;

		if (!val)
			return faults_usage("option without a value");
		i++;
		if (!strcmp(opt, "--faulty")) {
			free(r->faulty);
			good = parse_list(r, val, &r->faulty, &r->nfaulty);
		} else if (!strcmp(opt, "--faulty-links")) {
			free(r->links);
			good = parse_links(r, val);
		} else if (!strcmp(opt, "--src")) {
			good = parse_xy(r, val, &s, &r->src) && !*s;
			r->have_src = true;
		} else if (!strcmp(opt, "--dst")) {
			free(r->dst);
			good = parse_list(r, val, &r->dst, &r->ndst);
		} else if (!strcmp(opt, "--strategy")) {
			good = !plan_parse_u32(val, 3, &r->strategy) &&
			       r->strategy >= 1;
		} else if (!strcmp(opt, "--seed")) {
			u32 seed = 0;

			good = !plan_parse_u32(val, U32_MAX, &seed);
			r->seed = seed;
		} else if (!strcmp(opt, "--svg")) {
			r->svg = val;
		} else {
			fprintf(stderr, PF "unknown option \"%s\"\n", opt);
			return WORMCTL_EXIT_USAGE;
		}
		if (!good) {
			fprintf(stderr, PF "bad value \"%s\" for %s "
				"(coordinates inside the %ux%u mesh; strategy 1 to 3)\n",
				val, opt, r->w, r->h);
			return WORMCTL_EXIT_USAGE;
		}
	}
	if (r->have_src != (r->ndst > 0)) {
		fprintf(stderr, PF "--src and --dst go together\n");
		return WORMCTL_EXIT_USAGE;
	}
	return 0;
}

/* JSON containers, skipped in text mode. */
static void jobj(struct out *o, const char *key)
{
	if (o->json)
		json_open_object(o, key);
}

static void jarr(struct out *o, const char *key)
{
	if (o->json)
		json_open_array(o, key);
}

static void jend_obj(struct out *o)
{
	if (o->json)
		json_close_object(o);
}

static void jend_arr(struct out *o)
{
	if (o->json)
		json_close_array(o);
}

static void print_safety(struct out *o, const char *key, u16 v)
{
	if (o->json)
		json_s64(o, key, v == WC_FI_INF ? -1 : v);
	else if (v == WC_FI_INF)
		out_text(o, " -");
	else
		out_text(o, " %u", v);
}

static void show_blocks(struct out *o, const struct wc_faultinfo *fi)
{
	u32 b, n, unsafe = 0, outside = 0, nfaulty = 0;

	out_text(o, "mesh %ux%u: %u faulty blocks\n", fi->w, fi->h, fi->nblocks);
	jarr(o, "blocks");
	for (b = 0; b < fi->nblocks; b++) {
		const struct wc_ft_rect *r = &fi->blocks[b];
		u32 x, y, nf = 0;

		for (y = r->y0; y <= r->y1; y++)
			for (x = r->x0; x <= r->x1; x++)
				nf += fi->faulty[wc_fi_node(fi, x, y)];
		if (o->json) {
			jobj(o, NULL);
			json_u64(o, "x0", r->x0);
			json_u64(o, "y0", r->y0);
			json_u64(o, "x1", r->x1);
			json_u64(o, "y1", r->y1);
			json_u64(o, "faulty", nf);
			jend_obj(o);
		} else {
			out_text(o, "  block %u: (%u,%u)-(%u,%u), %u nodes, %u faulty\n",
				 b, r->x0, r->y0, r->x1, r->y1,
				 (r->x1 - r->x0 + 1) * (r->y1 - r->y0 + 1), nf);
		}
	}
	jend_arr(o);
	/* text: only nodes that see a block; JSON: every node */
	out_text(o, "safety vectors (E S W N, - for none) of the unsafe healthy nodes:\n");
	jarr(o, "safety");
	for (n = 0; n < fi->nnodes; n++) {
		const struct wc_fi_safety *s = &fi->safety[n];

		nfaulty += fi->faulty[n];
		outside += !wc_fi_in_block(fi, n);
		if (!o->json && (wc_fi_in_block(fi, n) || wc_fi_safe(fi, n)))
			continue;
		jobj(o, NULL);
		if (o->json) {
			json_u64(o, "x", wc_fi_x(fi, n));
			json_u64(o, "y", wc_fi_y(fi, n));
			json_bool(o, "in_block", wc_fi_in_block(fi, n));
		} else {
			out_text(o, "  (%u,%u)", wc_fi_x(fi, n), wc_fi_y(fi, n));
			unsafe++;
		}
		print_safety(o, "e", s->e);
		print_safety(o, "s", s->s);
		print_safety(o, "w", s->w);
		print_safety(o, "n", s->n);
		out_text(o, "\n");
		jend_obj(o);
	}
	jend_arr(o);
	/*
	 * Definition 1 may disable every healthy node (5 faults in a 3x3
	 * mesh do): then no node is left to be safe or unsafe, nor to send.
	 */
	if (!o->json && !outside)
		out_text(o, "  (none: every node is in a faulty block, %u faulty "
			 "and %u healthy but disabled; no node can send or "
			 "receive)\n", nfaulty, fi->nnodes - nfaulty);
	else if (!o->json && !unsafe)
		out_text(o, "  (none: every node is safe)\n");
	if (o->json)
		json_u64(o, "nodes_outside_blocks", outside);
}

static void xy(const struct wc_faultinfo *fi, u32 n, char *buf, size_t len)
{
	snprintf(buf, len, "(%u,%u)", wc_fi_x(fi, n), wc_fi_y(fi, n));
}

static void show_plan(struct out *o, const struct wc_faultinfo *fi,
		      const struct wc_ft_plan *p, u32 strategy)
{
	char a[32], b[32];
	u32 i;

	xy(fi, p->src, a, sizeof(a));
	out_text(o, "multicast from %s, Strategy %u: source %s\n", a, strategy,
		 wc_fi_ext_safe_set(fi, p->src, p->dst, p->ndst) ?
		 "extended safe to every destination" :
		 "not extended safe to every destination");
	jobj(o, "plan");
	if (o->json) {
		json_string(o, "source", a);
		json_u64(o, "strategy", strategy);
		json_bool(o, "source_safe", wc_fi_safe(fi, p->src));
	}
	jarr(o, "destinations");
	for (i = 0; i < p->ndst; i++) {
		xy(fi, p->dst[i], b, sizeof(b));
		if (o->json) {
			jobj(o, NULL);
			json_string(o, "node", b);
			json_string(o, "status", wc_ft_dst_status_name(p->status[i]));
			if (p->status[i] == WC_FT_DST_OK)
				json_u64(o, "hops", p->len[i]);
			json_u64(o, "distance", wc_fi_distance(fi, p->src, p->dst[i]));
			jend_obj(o);
		} else if (p->status[i] == WC_FT_DST_OK) {
			out_text(o, "  %-10s ok, %u hops (minimal)\n", b, p->len[i]);
		} else {
			out_text(o, "  %-10s %s: not routed\n", b,
				 wc_ft_dst_status_name(p->status[i]));
		}
	}
	jend_arr(o);
	jarr(o, "separating_points");
	out_text(o, "separating points:");
	for (i = 0; i < p->nsep; i++) {
		xy(fi, p->sep[i], a, sizeof(a));
		if (o->json)
			json_string(o, NULL, a);
		else
			out_text(o, " %s", a);
	}
	jend_arr(o);
	out_text(o, "%s\n", p->nsep ? "" : " none");
	out_u64(o, "reached", "destinations reached: %" PRIu64 "\n", p->nreached);
	out_u64(o, "traffic_steps", "traffic steps: %" PRIu64 "\n", p->nhops);
	out_u64(o, "unicast_steps", "multiple unicast: %" PRIu64 " steps\n",
		p->unicast_steps);
	jarr(o, "hops");
	out_text(o, "hops (from -> to, subnetwork):\n");
	for (i = 0; i < p->nhops; i++) {
		const struct wc_ft_hop *h = &p->hops[i];

		xy(fi, h->from, a, sizeof(a));
		xy(fi, h->to, b, sizeof(b));
		if (o->json) {
			jobj(o, NULL);
			json_string(o, "from", a);
			json_string(o, "to", b);
			json_string(o, "subnet", wc_ft_subnet_name(h->subnet));
			if (h->parent != WC_FI_NONE)
				json_u64(o, "parent", h->parent);
			jend_obj(o);
		} else {
			out_text(o, "  %s -> %s %s\n", a, b,
				 wc_ft_subnet_name(h->subnet));
		}
	}
	jend_arr(o);
	jend_obj(o);
}

/* SVG: nodes, blocks (faulty nodes darker), adjacent lines, the tree. */
#define FAULT_CELL 24
#define PAD 20

static int cx_of(const struct wc_faultinfo *fi, u32 x)
{
	return PAD + (int)x * FAULT_CELL;
}

static int cy_of(const struct wc_faultinfo *fi, u32 y)
{
	return PAD + (int)(fi->h - 1 - y) * FAULT_CELL;	/* y grows upwards */
}

static int faults_svg(const char *path, const struct wc_faultinfo *fi,
		      const struct wc_ft_plan *p)
{
	static const char *const subnet_colour[] = {
		"#d62728", "#1f77b4", "#2ca02c", "#9467bd",
	};
	FILE *fp = plan_svg_create(path);
	u32 i, n, b;

	if (!fp)
		return 1;
	fprintf(fp, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
		"height=\"%d\" font-family=\"sans-serif\" font-size=\"9\">\n",
		2 * PAD + (int)(fi->w - 1) * FAULT_CELL, 2 * PAD + (int)(fi->h - 1) * FAULT_CELL);
	fprintf(fp, "<defs><marker id=\"a\" viewBox=\"0 0 6 6\" refX=\"6\" "
		"refY=\"3\" markerWidth=\"5\" markerHeight=\"5\" orient=\"auto\">"
		"<path d=\"M0,0L6,3L0,6z\"/></marker></defs>\n");
	fprintf(fp, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
	/* adjacent lines of every block, across the mesh */
	for (b = 0; b < fi->nblocks; b++) {
		const struct wc_ft_rect *r = &fi->blocks[b];
		int x0 = cx_of(fi, 0), x1 = cx_of(fi, fi->w - 1);
		int y0 = cy_of(fi, fi->h - 1), y1 = cy_of(fi, 0);

		fprintf(fp, "<g stroke=\"#ff7f0e\" stroke-dasharray=\"3,3\" "
			"stroke-width=\"1\">\n");
		if (r->y0 > 0)
			fprintf(fp, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>\n",
				x0, cy_of(fi, r->y0 - 1u), x1, cy_of(fi, r->y0 - 1u));
		if (r->y1 + 1u < fi->h)
			fprintf(fp, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>\n",
				x0, cy_of(fi, r->y1 + 1u), x1, cy_of(fi, r->y1 + 1u));
		if (r->x0 > 0)
			fprintf(fp, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>\n",
				cx_of(fi, r->x0 - 1u), y0, cx_of(fi, r->x0 - 1u), y1);
		if (r->x1 + 1u < fi->w)
			fprintf(fp, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>\n",
				cx_of(fi, r->x1 + 1u), y0, cx_of(fi, r->x1 + 1u), y1);
		fprintf(fp, "</g>\n");
		fprintf(fp, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" "
			"fill=\"#bbbbbb\" stroke=\"#555555\"/>\n",
			cx_of(fi, r->x0) - FAULT_CELL / 2, cy_of(fi, r->y1) - FAULT_CELL / 2,
			(r->x1 - r->x0 + 1) * FAULT_CELL, (r->y1 - r->y0 + 1) * FAULT_CELL);
	}
	for (n = 0; n < fi->nnodes; n++)
		fprintf(fp, "<circle cx=\"%d\" cy=\"%d\" r=\"%d\" fill=\"%s\"/>\n",
			cx_of(fi, wc_fi_x(fi, n)), cy_of(fi, wc_fi_y(fi, n)),
			fi->faulty[n] ? 5 : 2, fi->faulty[n] ? "#000000" :
			wc_fi_in_block(fi, n) ? "#777777" : "#cccccc");
	if (p) {
		for (i = 0; i < p->nhops; i++) {
			const struct wc_ft_hop *h = &p->hops[i];
			int ax = cx_of(fi, wc_fi_x(fi, h->from));
			int ay = cy_of(fi, wc_fi_y(fi, h->from));
			int bx = cx_of(fi, wc_fi_x(fi, h->to));
			int by = cy_of(fi, wc_fi_y(fi, h->to));

			fprintf(fp, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" "
				"stroke=\"%s\" stroke-width=\"2\" marker-end=\"url(#a)\"/>\n",
				ax + (bx - ax) / 6, ay + (by - ay) / 6,
				bx - (bx - ax) / 6, by - (by - ay) / 6,
				subnet_colour[h->subnet % 4]);
		}
		for (i = 0; i < p->nsep; i++)
			fprintf(fp, "<rect x=\"%d\" y=\"%d\" width=\"10\" height=\"10\" "
				"fill=\"none\" stroke=\"#000000\"/>\n",
				cx_of(fi, wc_fi_x(fi, p->sep[i])) - 5,
				cy_of(fi, wc_fi_y(fi, p->sep[i])) - 5);
		for (i = 0; i < p->ndst; i++)
			fprintf(fp, "<circle cx=\"%d\" cy=\"%d\" r=\"6\" fill=\"%s\" "
				"class=\"%s\"/>\n",
				cx_of(fi, wc_fi_x(fi, p->dst[i])),
				cy_of(fi, wc_fi_y(fi, p->dst[i])),
				p->status[i] == WC_FT_DST_OK ? "#2ca02c" : "#d62728",
				wc_ft_dst_status_name(p->status[i]));
		fprintf(fp, "<circle cx=\"%d\" cy=\"%d\" r=\"7\" fill=\"none\" "
			"stroke=\"#000000\" stroke-width=\"2\" class=\"source\"/>\n", cx_of(fi, wc_fi_x(fi, p->src)),
			cy_of(fi, wc_fi_y(fi, p->src)));
	}
	return plan_svg_finish(fp, path);
}

int plan_faults(int argc, char **argv, const struct wormctl_opts *opts)
{
	struct req r = { 0 };
	struct wc_faultinfo fi;
	struct wc_ft_plan plan;
	bool planned = false;
	const char *why = "?";
	struct out o;
	int ret, err;

	if (argc < 3 || strcmp(argv[0], "mesh") || strcmp(argv[2], "faults"))
		return -1;
	ret = faults_parse(argc, argv, &r);
	if (ret)
		goto out;
	err = wc_fi_build(&fi, r.w, r.h, r.faulty, r.nfaulty,
			  (const u32 (*)[2])r.links, r.nlinks, &why);
	if (err) {
		/* -EINVAL: the fault list itself is wrong */
		fprintf(stderr, PF "%s\n", err == -EINVAL ? why : strerror(-err));
		ret = err == -EINVAL ? WORMCTL_EXIT_USAGE : WORMCTL_EXIT_ERROR;
		goto out;
	}
	if (r.have_src) {
		struct wc_ft_plan_opts po = { .strategy = r.strategy, .seed = r.seed };

		err = wc_ft_plan(&fi, r.src, r.dst, r.ndst, &po, &plan, &why);
		if (err) {
			/* -EINVAL: source or destinations refused */
			fprintf(stderr, PF "%s\n",
				err == -EINVAL ? why : strerror(-err));
			ret = err == -EINVAL ? WORMCTL_EXIT_USAGE :
			      WORMCTL_EXIT_ERROR;
			goto out_fi;
		}
		planned = true;
	}
	out_init(&o, stdout, opts->json, opts->pretty);
	jobj(&o, NULL);
	show_blocks(&o, &fi);
	if (planned)
		show_plan(&o, &fi, &plan, r.strategy);
	jend_obj(&o);
	if (r.svg)
		ret = faults_svg(r.svg, &fi, planned ? &plan : NULL);
	if (planned)
		wc_ft_plan_free(&plan);
out_fi:
	wc_fi_free(&fi);
out:
	free(r.faulty);
	free(r.links);
	free(r.dst);
	return ret;
}
