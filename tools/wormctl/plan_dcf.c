// SPDX-License-Identifier: GPL-2.0
/*
 * wormctl plan torus NxN {dcf|edn|unicast-bcast} [--src X,Y] [--step N]
 *                  [--svg FILE] [--channels vc|phys]
 *                  [--ts N] [--tc N] [--tr N] [--len N]
 *
 * Prints a broadcast schedule step by step (sender -> receiver, route and
 * virtual channels), the result of the mechanical check and the latency
 * against the paper's closed form; text, JSON (-j) or SVG (one panel per
 * step).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dcf.h"
#include "plan_common.h"
#include "wormctl.h"

struct dcf_args {
	u32 scheme;
	u32 side;
	u32 sx, sy;
	u32 step;	/* 0: all */
	u32 model;
	const char *svg;
	struct dcf_timing tm;
};

static void dcf_usage(void)
{
	fprintf(stderr,
		"usage: wormctl plan torus NxN {dcf|edn|unicast-bcast} [--src X,Y] [--step N]\n"
		"                [--svg FILE] [--channels vc|phys] [--first-channel port|vc]\n"
		"                [--ts N] [--tc N] [--tr N] [--len N]\n"
		"       N is a power of two from 4 to 64\n");
}

/* Timing parameters: 0 to 10^6. */
static int parse_time(const char *s, u64 *out)
{
	return plan_parse_u64(s, 1000000, out);
}

static int parse_args(int argc, char **argv, struct dcf_args *a)
{
	u32 dims[2];
	int i;

	memset(a, 0, sizeof(*a));
	a->tm.tc = 1;
	a->tm.len = 32;
	if (!strchr(argv[1], 'x')) {
		fprintf(stderr, "wormctl: torus size must be NxN, got '%s'\n", argv[1]);
		return WORMCTL_EXIT_USAGE;
	}
	if (plan_parse_dims(argv[1], dims, 2, DCF_MAX_SIDE) != 2 ||
	    dims[0] != dims[1] || !dcf_side_ok(dims[0])) {
		fprintf(stderr, "wormctl: '%s': the torus must be square, a power of two from 4x4 to 64x64\n",
			argv[1]);
		return WORMCTL_EXIT_USAGE;
	}
	a->side = dims[0];
	a->scheme = (u32)dcf_scheme_parse(argv[2]);
	for (i = 3; i < argc; i++) {
		const char *opt = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
		int bad = 0;

		if (!val) {
			fprintf(stderr, "wormctl: option %s needs a value\n", opt);
			return WORMCTL_EXIT_USAGE;
		}
		if (!strcmp(opt, "--src")) {
			const u32 grid[2] = { a->side, a->side };
			const char *end;
			u32 node;

			end = plan_scan_coords(val, 2, grid, &node);
			bad = !end || *end;
			if (!bad) {
				a->sx = node % a->side;
				a->sy = node / a->side;
			}
		} else if (!strcmp(opt, "--step")) {
			bad = plan_parse_u32(val, 100000, &a->step) || !a->step;
		} else if (!strcmp(opt, "--svg")) {
			a->svg = val;
		} else if (!strcmp(opt, "--channels")) {
			a->model &= ~DCF_CHAN_MASK;
			if (!strcmp(val, "vc"))
				a->model |= DCF_CHAN_VC;
			else if (!strcmp(val, "phys"))
				a->model |= DCF_CHAN_PHYS;
			else
				bad = 1;
		} else if (!strcmp(opt, "--first-channel")) {
			/* Theorem 1 (3), (4): port or virtual channel */
			if (!strcmp(val, "port"))
				a->model &= ~DCF_FIRST_VCHAN;
			else if (!strcmp(val, "vc"))
				a->model |= DCF_FIRST_VCHAN;
			else
				bad = 1;
		} else if (!strcmp(opt, "--ts")) {
			bad = parse_time(val, &a->tm.ts);
		} else if (!strcmp(opt, "--tc")) {
			bad = parse_time(val, &a->tm.tc);
		} else if (!strcmp(opt, "--tr")) {
			bad = parse_time(val, &a->tm.tr);
		} else if (!strcmp(opt, "--len")) {
			bad = parse_time(val, &a->tm.len);
		} else {
			fprintf(stderr, "wormctl: unknown option '%s'\n", opt);
			dcf_usage();
			return WORMCTL_EXIT_USAGE;
		}
		if (bad) {
			fprintf(stderr, "wormctl: bad value '%s' for %s\n", val, opt);
			return WORMCTL_EXIT_USAGE;
		}
		i++;
	}
	return 0;
}

static void route_text(FILE *f, const struct dcf_sched *s,
		       const struct dcf_unicast *u, bool json)
{
	u32 h;

	for (h = 0; h < u->nhops; h++) {
		const struct dcf_hop *p = &s->hops[u->hop0 + h];

		if (json)
			fprintf(f, "%s{\"x\":%u,\"y\":%u,\"port\":\"%s\",\"vc\":\"%s\"}",
				h ? "," : "", p->node % s->side, p->node / s->side,
				dcf_port_name(p->port), dcf_vc_name(p->vc, p->port));
		else
			fprintf(f, " (%u,%u)%s/%s", p->node % s->side,
				p->node / s->side, dcf_port_name(p->port),
				dcf_vc_name(p->vc, p->port));
	}
}

static void print_text(const struct dcf_sched *s, const struct dcf_args *a,
		       const struct dcf_report *r, bool has_paper, u64 paper,
		       const u64 *recv)
{
	u32 step, i, n = s->side;

	printf("%s broadcast on a %ux%u torus from (%u,%u): %u unicasts, %u steps\n",
	       dcf_scheme_name(s->scheme), n, n, a->sx, a->sy, s->nuni, r->nsteps);
	printf("check (%s channels, first channel = %s): missing %u, "
	       "duplicates %u, port clashes %u, "
	       "sharing pairs %llu, same-step pairs %llu, failing Theorem 1 %llu, "
	       "overlapping in time %llu\n",
	       (a->model & DCF_CHAN_MASK) == DCF_CHAN_VC ? "p|lh" : "physical",
	       a->model & DCF_FIRST_VCHAN ? "virtual channel" : "port",
	       r->missing,
	       r->duplicates, r->port_clashes,
	       (unsigned long long)r->shared_pairs,
	       (unsigned long long)r->stepwise_pairs,
	       (unsigned long long)r->contending_pairs,
	       (unsigned long long)r->timed_pairs);
	printf("latency (ts=%llu tc=%llu tr=%llu L=%llu): %llu",
	       (unsigned long long)a->tm.ts, (unsigned long long)a->tm.tc,
	       (unsigned long long)a->tm.tr, (unsigned long long)a->tm.len,
	       (unsigned long long)r->latency);
	if (has_paper)
		printf(" (paper's closed form %llu)", (unsigned long long)paper);
	printf("\n");
	for (step = 1; step <= r->nsteps; step++) {
		if (a->step && step != a->step)
			continue;
		printf("step %u:\n", step);
		for (i = 0; i < s->nuni; i++) {
			const struct dcf_unicast *u = &s->uni[i];

			if (u->step != step)
				continue;
			printf("  (%u,%u) -> (%u,%u) #%u, %u hops, received at %llu:",
			       u->src % n, u->src / n, u->dst % n, u->dst / n,
			       u->order, u->nhops, (unsigned long long)recv[u->dst]);
			route_text(stdout, s, u, false);
			printf("\n");
		}
	}
}

static void print_json(const struct dcf_sched *s, const struct dcf_args *a,
		       const struct dcf_report *r, bool has_paper, u64 paper,
		       const u64 *recv, bool pretty)
{
	u32 i, n = s->side;
	const char *nl = pretty ? "\n" : "", *sep = "";

	printf("{\"scheme\":\"%s\",\"side\":%u,\"src\":[%u,%u],\"unicasts\":%u,\"steps\":%u,%s",
	       dcf_scheme_name(s->scheme), n, a->sx, a->sy, s->nuni, r->nsteps, nl);
	printf("\"check\":{\"channels\":\"%s\",\"first_channel\":\"%s\","
	       "\"missing\":%u,\"duplicates\":%u,"
	       "\"port_clashes\":%u,\"shared_pairs\":%llu,\"stepwise_pairs\":%llu,"
	       "\"theorem1_failures\":%llu,\"timed_overlaps\":%llu},%s",
	       (a->model & DCF_CHAN_MASK) == DCF_CHAN_VC ? "vc" : "phys",
	       a->model & DCF_FIRST_VCHAN ? "vc" : "port",
	       r->missing, r->duplicates,
	       r->port_clashes, (unsigned long long)r->shared_pairs,
	       (unsigned long long)r->stepwise_pairs,
	       (unsigned long long)r->contending_pairs,
	       (unsigned long long)r->timed_pairs, nl);
	printf("\"latency\":%llu,", (unsigned long long)r->latency);
	if (has_paper)
		printf("\"paper_latency\":%llu,", (unsigned long long)paper);
	printf("%s\"unicasts_by_step\":[", nl);
	for (i = 0; i < s->nuni; i++) {
		const struct dcf_unicast *u = &s->uni[i];

		if (a->step && u->step != a->step)
			continue;
		printf("%s%s{\"step\":%u,\"order\":%u,\"from\":[%u,%u],\"to\":[%u,%u],"
		       "\"received\":%llu,\"route\":[",
		       sep, nl, u->step, u->order, u->src % n, u->src / n, u->dst % n,
		       u->dst / n, (unsigned long long)recv[u->dst]);
		route_text(stdout, s, u, true);
		printf("]}");
		sep = ",";
	}
	printf("%s]}\n", nl);
}

/* One panel per step: informed nodes filled, this step's routes drawn. */
static int dcf_svg(const struct dcf_sched *s, const struct dcf_args *a,
		   u32 nsteps)
{
	static const char *const colour[2] = { "#1f77b4", "#d62728" };
	u32 n = s->side, cell = n <= 16 ? 24 : (n <= 32 ? 12 : 7);
	u32 panel = n * cell + 30, cols, first, last, step, i, *got;
	FILE *f;

	first = a->step ? a->step : 1;
	last = a->step ? a->step : nsteps;
	if (first > nsteps) {
		fprintf(stderr, "wormctl: --step %u: the schedule has %u steps\n",
			a->step, nsteps);
		return WORMCTL_EXIT_USAGE;
	}
	cols = last - first + 1 < 3 ? last - first + 1 : 3;
	got = calloc(s->nnodes, sizeof(*got));
	if (!got) {
		fprintf(stderr, "wormctl: out of memory\n");
		return 1;
	}
	f = plan_svg_create(a->svg);
	if (!f) {
		free(got);
		return 1;
	}
	for (i = 0; i < s->nuni; i++)
		got[s->uni[i].dst] = s->uni[i].step;
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%u\" height=\"%u\" "
		"font-family=\"sans-serif\" font-size=\"11\">\n",
		cols * panel, ((last - first) / 3 + 1) * panel);
	for (step = first; step <= last; step++) {
		u32 ox = ((step - first) % 3) * panel + 15;
		u32 oy = ((step - first) / 3) * panel + 20;
		u32 v;

		fprintf(f, "<text x=\"%u\" y=\"%u\">%s %ux%u step %u (blue h/l, red p)</text>\n",
			ox, oy - 6, dcf_scheme_name(s->scheme), n, n, step);
		for (v = 0; v < s->nnodes; v++) {
			bool informed = v == s->src || (got[v] && got[v] <= step);
			bool now = v != s->src && got[v] == step;

			fprintf(f, "<circle cx=\"%u\" cy=\"%u\" r=\"%u\" fill=\"%s\" stroke=\"#444\"/>\n",
				ox + (v % n) * cell + cell / 2,
				oy + (v / n) * cell + cell / 2, cell / 4 + 1,
				now ? "#2ca02c" : (informed ? "#444" : "white"));
		}
		for (i = 0; i < s->nuni; i++) {
			const struct dcf_unicast *u = &s->uni[i];
			u32 h;

			if (u->step != step)
				continue;
			for (h = 0; h < u->nhops; h++) {
				const struct dcf_hop *p = &s->hops[u->hop0 + h];
				s32 x = (s32)(p->node % n), y = (s32)(p->node / n);
				s32 dx = p->port == 0 ? 1 : (p->port == 1 ? -1 : 0);
				s32 dy = p->port == 2 ? 1 : (p->port == 3 ? -1 : 0);
				s32 off = p->vc == DCF_VC_P ? 2 : -2;

				/* Wraparound hops: a short stub off the edge. */
				fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" "
					"stroke=\"%s\" stroke-width=\"1.5\"/>\n",
					(s32)ox + x * (s32)cell + (s32)cell / 2 + (dy ? off : 0),
					(s32)oy + y * (s32)cell + (s32)cell / 2 + (dx ? off : 0),
					(s32)ox + x * (s32)cell + (s32)cell / 2 + dx * (s32)cell * 2 / 3 + (dy ? off : 0),
					(s32)oy + y * (s32)cell + (s32)cell / 2 + dy * (s32)cell * 2 / 3 + (dx ? off : 0),
					colour[p->vc]);
			}
		}
	}
	free(got);
	return plan_svg_finish(f, a->svg);
}

int plan_dcf(int argc, char **argv, const struct wormctl_opts *o)
{
	struct dcf_args a;
	struct dcf_sched s;
	struct dcf_report r;
	const char *why = NULL;
	u64 *recv = NULL, paper = 0;
	bool has_paper;
	int ret;

	if (argc < 3 || strcmp(argv[0], "torus") || dcf_scheme_parse(argv[2]) < 0)
		return -1;
	ret = parse_args(argc, argv, &a);
	if (ret)
		return ret;
	if (dcf_build(&s, a.scheme, a.side, a.sx + a.side * a.sy, NULL, &why)) {
		fprintf(stderr, "wormctl: %s\n", why ? why : "out of memory");
		return why ? WORMCTL_EXIT_USAGE : WORMCTL_EXIT_ERROR;
	}
	recv = calloc(s.nnodes, sizeof(*recv));
	if (!recv || dcf_check(&s, a.model, &a.tm, &r)) {
		fprintf(stderr, "wormctl: out of memory\n");
		ret = 1;
		goto out;
	}
	dcf_latency(&s, &a.tm, recv, NULL);
	has_paper = dcf_closed_form(a.scheme, a.side, &a.tm, &paper);
	if (a.step && a.step > r.nsteps) {
		fprintf(stderr, "wormctl: --step %u: the schedule has %u steps\n",
			a.step, r.nsteps);
		ret = WORMCTL_EXIT_USAGE;
		goto out;
	}
	if (o && o->json)
		print_json(&s, &a, &r, has_paper, paper, recv, o->pretty);
	else
		print_text(&s, &a, &r, has_paper, paper, recv);
	if (a.svg)
		ret = dcf_svg(&s, &a, r.nsteps);
out:
	free(recv);
	dcf_free(&s);
	return ret;
}
