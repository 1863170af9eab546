// SPDX-License-Identifier: GPL-2.0
/*
 * wormctl without the kernel: command-line parsing, the JSON writer
 * (escaping, structure, pretty form, validity of every display), the text
 * displays, the counter name tables against the uapi enums, and the
 * offline planners (plan.c, plan_*.c) run as "wormctl plan" would, with
 * their output, messages and exit status; "table show" (table.c): a
 * TABLE_GET dump's pieces put together, struct wormcast_trees decoded
 * from hand-built bytes (good, truncated, wrong sizes), text and JSON.  The netlink side (nl.c,
 * fabric.c) needs the module: tests/vm covers it.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "tap.h"
#include "../../tools/wormctl/json.c"
#include "../../tools/wormctl/names.c"
#include "../../tools/wormctl/args.c"
#include "../../tools/wormctl/show.c"
#include "../../tools/wormctl/table.c"
#include "../../tools/wormctl/plan_common.c"
#include "../../tools/wormctl/plan_paths.c"
#include "../../tools/wormctl/plan_faults.c"
#include "../../tools/wormctl/plan_trees.c"
#include "../../tools/wormctl/plan_dcf.c"
#include "../../tools/wormctl/plan.c"

#define ARGV(...) ((char *[]){ "wormctl", __VA_ARGS__ })
#define NARGS(...) ((int)(sizeof((char *[]){ "wormctl", __VA_ARGS__ }) / \
			  sizeof(char *)))
#define PARSE(c, ...) \
	wormctl_parse_cmdline(NARGS(__VA_ARGS__), ARGV(__VA_ARGS__), (c), err, \
			      sizeof(err))

static char err[256];

/* ---- a strict JSON checker (RFC 8259 grammar, no extensions) ---- */

static const char *js_value(const char *p, int depth);

static const char *js_ws(const char *p)
{
	while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
		p++;
	return p;
}

static const char *js_string(const char *p)
{
	int i;

	if (*p++ != '"')
		return NULL;
	while (*p != '"') {
		if ((unsigned char)*p < 0x20)
			return NULL;	/* raw control character */
		if (*p == '\\') {
			p++;
			if (*p == 'u') {
				for (i = 1; i <= 4; i++)
					if (!isxdigit((unsigned char)p[i]))
						return NULL;
				p += 4;
			} else if (!strchr("\"\\/bfnrt", *p)) {
				return NULL;
			}
		}
		p++;
	}
	return p + 1;
}

static const char *js_number(const char *p)
{
	const char *start;

	if (*p == '-')
		p++;
	if (*p == '0')
		p++;
	else if (*p >= '1' && *p <= '9')
		while (isdigit((unsigned char)*p))
			p++;
	else
		return NULL;
	if (*p == '.') {
		start = ++p;
		while (isdigit((unsigned char)*p))
			p++;
		if (p == start)
			return NULL;
	}
	return p;
}

static const char *js_container(const char *p, int depth, char close,
				bool object)
{
	p = js_ws(p + 1);
	if (*p == close)
		return p + 1;
	for (;;) {
		if (object) {
			p = js_string(js_ws(p));
			if (!p)
				return NULL;
			p = js_ws(p);
			if (*p++ != ':')
				return NULL;
		}
		p = js_value(p, depth + 1);
		if (!p)
			return NULL;
		p = js_ws(p);
		if (*p == close)
			return p + 1;
		if (*p++ != ',')
			return NULL;
	}
}

static const char *js_value(const char *p, int depth)
{
	if (depth > 32)
		return NULL;
	p = js_ws(p);
	switch (*p) {
	case '{':
		return js_container(p, depth, '}', true);
	case '[':
		return js_container(p, depth, ']', false);
	case '"':
		return js_string(p);
	case 't':
		return strncmp(p, "true", 4) ? NULL : p + 4;
	case 'f':
		return strncmp(p, "false", 5) ? NULL : p + 5;
	case 'n':
		return strncmp(p, "null", 4) ? NULL : p + 4;
	default:
		return js_number(p);
	}
}

static bool json_valid(const char *s)
{
	const char *end = js_value(s, 0);

	return end && *js_ws(end) == '\0';
}

/* ---- capture of what a writer prints ---- */

struct capture {
	char *buf;
	size_t len;
	FILE *fp;
};

static void cap_open(struct capture *c)
{
	c->buf = NULL;
	c->len = 0;
	c->fp = open_memstream(&c->buf, &c->len);
}

static char *cap_close(struct capture *c)
{
	fclose(c->fp);
	return c->buf;
}

static char *escaped(const char *s)
{
	struct capture c;

	cap_open(&c);
	json_escape(c.fp, s);
	return cap_close(&c);
}

static void test_escape(void)
{
	char all[128];
	char *s;
	int i;

	s = escaped("plain");
	ok(!strcmp(s, "\"plain\""), "escape: plain string quoted");
	free(s);
	s = escaped("a\"b\\c/d");
	ok(!strcmp(s, "\"a\\\"b\\\\c/d\""), "escape: quote and backslash (%s)",
	   s);
	free(s);
	s = escaped("\b\f\n\r\t");
	ok(!strcmp(s, "\"\\b\\f\\n\\r\\t\""), "escape: short forms (%s)", s);
	free(s);
	s = escaped("\x01\x1f\x7f");
	ok(!strcmp(s, "\"\\u0001\\u001f\x7f\""),
	   "escape: other control characters as \\u00XX");
	free(s);
	s = escaped("n\xc3\xa9ud");
	ok(!strcmp(s, "\"n\xc3\xa9ud\""), "escape: UTF-8 passes through");
	free(s);

	/* Every byte 1..127: the result is one valid JSON string. */
	for (i = 1; i < 128; i++)
		all[i - 1] = (char)i;
	all[127] = '\0';
	s = escaped(all);
	ok(json_valid(s), "escape: every ASCII byte gives a valid JSON string");
	free(s);
}

/* A fixed document in both forms. */
static void write_doc(struct out *o)
{
	static const uint32_t dims[] = { 4, 4 };

	json_open_array(o, NULL);
	json_open_object(o, NULL);
	json_string(o, "name", "w\"c");
	json_u64(o, "big", UINT64_MAX);
	json_s64(o, "neg", -1);
	json_bool(o, "yes", true);
	json_u32_array(o, "dims", dims, 2);
	json_open_array(o, "empty");
	json_close_array(o);
	json_open_object(o, "obj");
	json_close_object(o);
	json_close_object(o);
	json_close_array(o);
}

static void test_writer(void)
{
	struct capture c;
	struct out o;
	char *s;

	cap_open(&c);
	out_init(&o, c.fp, true, false);
	write_doc(&o);
	s = cap_close(&c);
	ok(!strcmp(s, "[{\"name\":\"w\\\"c\",\"big\":18446744073709551615,"
		   "\"neg\":-1,\"yes\":true,\"dims\":[4,4],\"empty\":[],"
		   "\"obj\":{}}]\n"),
	   "writer: compact form as ip -j");
	ok(json_valid(s), "writer: compact form is valid JSON");
	free(s);

	cap_open(&c);
	out_init(&o, c.fp, true, true);
	write_doc(&o);
	s = cap_close(&c);
	ok(!strcmp(s, "[\n"
		   "    {\n"
		   "        \"name\": \"w\\\"c\",\n"
		   "        \"big\": 18446744073709551615,\n"
		   "        \"neg\": -1,\n"
		   "        \"yes\": true,\n"
		   "        \"dims\": [\n"
		   "            4,\n"
		   "            4\n"
		   "        ],\n"
		   "        \"empty\": [],\n"
		   "        \"obj\": {}\n"
		   "    }\n"
		   "]\n"), "writer: pretty form, 4-space indent");
	ok(json_valid(s), "writer: pretty form is valid JSON");
	free(s);

	cap_open(&c);
	out_init(&o, c.fp, false, false);
	out_u64(&o, "k", "k %" PRIu64, 7);
	out_string(&o, "s", " s %s", "v");
	out_text(&o, " t%d", 1);
	s = cap_close(&c);
	ok(!strcmp(s, "k 7 s v t1"), "out_*: text mode uses the formats");
	free(s);
	cap_open(&c);
	out_init(&o, c.fp, true, false);
	json_open_object(&o, NULL);
	out_u64(&o, "k", "k %" PRIu64, 7);
	out_string(&o, "s", " s %s", "v");
	out_text(&o, " t%d", 1);
	json_close_object(&o);
	s = cap_close(&c);
	ok(!strcmp(s, "{\"k\":7,\"s\":\"v\"}\n"),
	   "out_*: JSON mode uses the keys, text-only output skipped");
	free(s);
}

/* A 4x4 torus with nodes reported out of their natural coordinates. */
static void make_fabric(struct wc_fabric_info *f, const char *name)
{
	struct wc_node_info *n;
	uint32_t i;
	int c;

	memset(f, 0, sizeof(*f));
	f->ifindex = 7;
	snprintf(f->name, sizeof(f->name), "%s", name);
	f->has_id = true;
	f->id = 3;
	f->topology = WORMCAST_TOPO_TORUS;
	f->ndims = 2;
	f->dims[0] = 4;
	f->dims[1] = 4;
	f->nnodes = 16;
	for (i = 0; i < WC_NPARAMS; i++) {
		f->has_param[wc_params[i].param] = true;
		f->param[wc_params[i].param] = wc_param_is_keyword(&wc_params[i]) ?
			1 : 100 + i;
	}
	f->has_counters = true;
	f->has_engine = true;
	for (c = 0; c < __WORMCAST_CNT_MAX; c++)
		f->cnt[c] = 1000 + c;
	for (c = 0; c < __WORMCAST_ENG_MAX; c++)
		f->eng[c] = 2000 + c;
	for (i = 0; i < 16; i++) {
		n = wc_fabric_add_node(f);
		n->id = i;
		n->ifindex = 8 + i;
		n->has_netnsid = true;
		n->netnsid = i == 5 ? 2 : -1;
		snprintf(n->ifname, sizeof(n->ifname), "%s%u", name, i);
		n->ncoords = 2;
		n->coords[0] = i % 4;
		n->coords[1] = i / 4;
		n->has_addr = true;
		memcpy(n->addr, "\x02\x57\x43\x00\x03\x00", 6);
		n->addr[5] = (uint8_t)i;
		n->has_counters = true;
		for (c = 0; c < __WORMCAST_CNT_MAX; c++)
			n->cnt[c] = i * 100 + c;
	}
}

static char *render(bool json, bool pretty, bool stats, int64_t node,
		    const struct wc_fabric_info *f)
{
	struct capture c;
	struct out o;

	cap_open(&c);
	out_init(&o, c.fp, json, pretty);
	if (json)
		json_open_array(&o, NULL);
	if (stats)
		show_stats(&o, f, node);
	else
		show_fabric(&o, f);
	if (json)
		json_close_array(&o);
	return cap_close(&c);
}

/* stats --links: text a line per channel, JSON the heatmap's format. */
static void test_show_links(void)
{
	struct wc_fabric_info f;
	struct wc_link_info *l;
	struct capture c;
	struct out o;
	char *s;
	int pass;

	make_fabric(&f, "wc");
	l = wc_fabric_add_link(&f);
	l->node = 1;
	l->port = 0;
	l->peer = 2;
	l->busy = 12;
	l->blocked = 3;
	for (pass = 0; pass < 2; pass++) {
		cap_open(&c);
		out_init(&o, c.fp, pass, false);
		if (pass)
			json_open_array(&o, NULL);
		show_links(&o, &f);
		if (pass)
			json_close_array(&o);
		s = cap_close(&c);
		if (pass) {
			ok(json_valid(s) &&
			   strstr(s, "\"cycles\":2001,\"links\":[{\"node\":1,\"port\":0,\"peer\":2,\"busy\":12,\"blocked\":3}]}]") &&
			   strstr(s, "\"dims\":[4,4]") && strstr(s, "\"topology\":\"torus\""),
			   "stats --links JSON: identity, cycles, links (%s)", s);
		} else {
			ok(strstr(s, "link 1 port 0 -> 2 busy 12 blocked 3\n") != NULL,
			   "stats --links text: a line per channel (%s)", s);
		}
		free(s);
	}
	wc_fabric_free(&f);
}

static void test_show(void)
{
	struct wc_fabric_info f;
	char want[128];
	char *s;
	int good, i;

	make_fabric(&f, "wc");
	s = render(false, false, false, 0, &f);
	ok(strstr(s, "wc: ifindex 7 fabric 3 topology torus dims 4x4 nodes 16\n") == s,
	   "fabric show text: head line");
	ok(strstr(s, " flit_bytes 100 ") && strstr(s, " replication async ") &&
	   strstr(s, " queue_len 111"), "fabric show text: parameters by name");
	ok(strstr(s, "\n    node 5 wc5 ifindex 13 netnsid 2 coords 1,1 address 02:57:43:00:03:05"),
	   "fabric show text: node line with netnsid");
	ok(strstr(s, "\n    node 6 wc6 ifindex 14 coords 2,1 address"),
	   "fabric show text: no netnsid in the caller's netns");
	free(s);

	s = render(true, false, false, 0, &f);
	ok(json_valid(s), "fabric show JSON valid");
	ok(strstr(s, "[{\"ifname\":\"wc\",\"ifindex\":7,\"fabric\":3,"
		     "\"topology\":\"torus\",\"dims\":[4,4],\"nodes\":16,"
		     "\"params\":{\"flit_bytes\":100,") == s,
	   "fabric show JSON: keys and values");
	ok(strstr(s, "\"replication\":\"async\""),
	   "fabric show JSON: replication as a word");
	ok(strstr(s, "{\"node\":5,\"ifname\":\"wc5\",\"ifindex\":13,"
		     "\"netnsid\":2,\"coords\":[1,1],"
		     "\"address\":\"02:57:43:00:03:05\"}"),
	   "fabric show JSON: node object");
	free(s);

	s = render(true, true, true, SHOW_ALL_NODES, &f);
	ok(json_valid(s), "stats JSON (pretty) valid");
	good = 1;
	for (i = 1; i < __WORMCAST_CNT_MAX; i++) {
		if (!wc_counter_names[i])
			continue;
		/* node 15's value, inside per_node */
		snprintf(want, sizeof(want), "\"%s\": %d", wc_counter_names[i],
			 1500 + i);
		if (!strstr(s, want))
			good = 0;
	}
	ok(good, "stats JSON: every counter of every node by name");
	ok(strstr(s, "\"cycles\": 2001") && strstr(s, "\"deadlocks\": 2008") &&
	   strstr(s, "\"route_errors\": 2011") &&
	   strstr(s, "\"tx_frames\": 1001"),
	   "stats JSON: engine and total counters");
	free(s);

	s = render(false, false, true, 9, &f);
	ok(strstr(s, "engine:\n    cycles: 2001\n") &&
	   strstr(s, "total:\n    tx_frames: 1001\n") &&
	   strstr(s, "node 9 (wc9):\n    tx_frames: 901\n") &&
	   !strstr(s, "node 8 (") && !strstr(s, "PAD") &&
	   !strstr(s, "(null)"),
	   "stats text: ethtool style, only the node asked for");
	free(s);
	f.nodes[3].ifname[0] = '\0';
	memset(f.nodes[3].cnt, 0, sizeof(f.nodes[3].cnt));
	s = render(false, false, true, SHOW_ALL_NODES, &f);
	snprintf(want, sizeof(want),
		 " %s %d\nnode 3: all zero\nnode 4 (wc4): tx_frames 401 ",
		 wc_counter_names[WORMCAST_CNT_MAX], 200 + WORMCAST_CNT_MAX);
	ok(strstr(s, "\nnode 2 (wc2): tx_frames 201 tx_bytes 202 ") &&
	   strstr(s, want),
	   "stats text: one line of non-zero counters per node");
	free(s);
	s = render(false, false, true, SHOW_NO_NODES, &f);
	ok(strstr(s, "total:") && !strstr(s, "node 0 ("),
	   "stats text: totals only");
	free(s);
	ok(wc_fabric_has_node(&f, 15) && !wc_fabric_has_node(&f, 16),
	   "has_node");
	wc_fabric_free(&f);

	/* Hostile names stay valid JSON. */
	make_fabric(&f, "a\"b\\\n");
	s = render(true, false, false, 0, &f);
	ok(json_valid(s), "fabric show JSON valid with quotes in names");
	free(s);
	s = render(true, false, true, SHOW_ALL_NODES, &f);
	ok(json_valid(s), "stats JSON valid with quotes in names");
	free(s);
	wc_fabric_free(&f);

	/* Nothing known: no empty sections, no made-up name, still valid. */
	memset(&f, 0, sizeof(f));
	s = render(true, false, false, 0, &f);
	ok(!strcmp(s, "[{}]\n"), "fabric show JSON minimal");
	free(s);
	/* A fabric device in another netns: by netnsid, without a name. */
	f.ifindex = 2;
	f.has_netnsid = true;
	f.netnsid = 0;
	s = render(true, false, false, 0, &f);
	ok(!strcmp(s, "[{\"ifindex\":2,\"netnsid\":0}]\n"),
	   "fabric show JSON: foreign fabric device by netnsid");
	free(s);
	memset(&f, 0, sizeof(f));
	s = render(true, false, true, SHOW_ALL_NODES, &f);
	ok(json_valid(s), "stats JSON minimal valid");
	free(s);
}

/* Lower case of an enum's suffix, e.g. DROP_SELF -> drop_self. */
static bool same_name(const char *name, const char *suffix)
{
	if (!name || strlen(name) != strlen(suffix))
		return false;
	for (; *suffix; suffix++, name++)
		if (*name != tolower((unsigned char)*suffix))
			return false;
	return true;
}

#define CNT(x) { WORMCAST_CNT_##x, #x }
#define ENG(x) { WORMCAST_ENG_##x, #x }

static void test_names(void)
{
	static const struct { int v; const char *suffix; } cnt[] = {
		CNT(TX_FRAMES), CNT(TX_BYTES), CNT(RX_FRAMES), CNT(RX_BYTES),
		CNT(TX_NO_RECEIVER), CNT(WORMS_INJECTED), CNT(FLITS_INJECTED),
		CNT(WORMS_CONSUMED), CNT(FLITS_CONSUMED),
		CNT(DROP_UNKNOWN_DST), CNT(DROP_DST_DOWN), CNT(DROP_SELF),
		CNT(DROP_NOMEM), CNT(DROP_FABRIC_DOWN), CNT(DROP_BAD_FRAME),
		CNT(DROP_RX_ERROR), CNT(DROP_ROUTE_ERROR), CNT(DROP_NOT_A_NODE),
		CNT(RX_FILTER_FALLBACK), CNT(DROP_DEADLOCK),
		CNT(TABLE_FALLBACK), CNT(DROP_STRAY), CNT(FAULT_DROPS),
		CNT(PLAN_FALLBACK), CNT(FAULT_REINJECTED), CNT(FAULT_REINJECT_DROPS),
	};
	static const struct { int v; const char *suffix; } eng[] = {
		ENG(CYCLES), ENG(WORMS_IN_FLIGHT), ENG(FLIT_HOPS),
		ENG(WORMS_DONE), ENG(LATENCY_SUM), ENG(LATENCY_MAX),
		ENG(BLOCKED_CYCLES), ENG(DEADLOCKS), ENG(HOPS_SUM),
		ENG(ROUTE_ERRORS),
		ENG(MEM_BYTES), ENG(FAULT_ABSORBED), ENG(FAULT_DROPS),
		ENG(FAULT_REINJECTED),
	};
	size_t i;
	int v, good;

	/* Every value but UNSPEC and PAD has a name (tables sized by MAX). */
	good = ARRAY_SIZE(wc_counter_names) == __WORMCAST_CNT_MAX;
	for (v = 0; v < __WORMCAST_CNT_MAX; v++)
		if (!wc_counter_names[v] !=
		    (v == WORMCAST_CNT_UNSPEC || v == WORMCAST_CNT_PAD))
			good = 0;
	ok(good, "every counter of the uapi has a name");
	good = ARRAY_SIZE(wc_engine_stat_names) == __WORMCAST_ENG_MAX;
	for (v = 0; v < __WORMCAST_ENG_MAX; v++)
		if (!wc_engine_stat_names[v] !=
		    (v == WORMCAST_ENG_UNSPEC || v == WORMCAST_ENG_PAD))
			good = 0;
	ok(good, "every engine statistic of the uapi has a name");

	/* The lists below name each value once: UNSPEC and PAD excepted. */
	good = ARRAY_SIZE(cnt) == WORMCAST_CNT_MAX - 1;
	for (i = 0; i < ARRAY_SIZE(cnt); i++)
		if (!same_name(wc_counter_names[cnt[i].v], cnt[i].suffix))
			good = 0;
	ok(good, "counter names are the enum names in lower case");
	good = ARRAY_SIZE(eng) == WORMCAST_ENG_MAX - 1;
	for (i = 0; i < ARRAY_SIZE(eng); i++)
		if (!same_name(wc_engine_stat_names[eng[i].v], eng[i].suffix))
			good = 0;
	ok(good, "engine statistic names are the enum names in lower case");
}

static void test_fault_args(void)
{
	struct wormctl_cmdline c;

	ok(PARSE(&c, "fault", "add", "wc", "link", "3", "4") == 0 &&
	   c.cmd == WCMD_FAULT_CHANGE && !c.fault_del && !c.fault_node &&
	   c.fault_a == 3 && c.fault_b == 4 && !strcmp(c.dev, "wc"),
	   "fault add wc link 3 4");
	ok(PARSE(&c, "fault", "del", "wc", "node", "7") == 0 &&
	   c.cmd == WCMD_FAULT_CHANGE && c.fault_del && c.fault_node &&
	   c.fault_a == 7, "fault del wc node 7");
	ok(PARSE(&c, "fault", "add", "wc", "link", "3") == -1 &&
	   strstr(err, "link A B"), "link with one end refused (%s)", err);
	ok(PARSE(&c, "fault", "add", "wc", "link", "3", "3") == -1 &&
	   strstr(err, "two different"), "link 3 3 refused (%s)", err);
	ok(PARSE(&c, "fault", "add", "wc", "node", "x") == -1 &&
	   strstr(err, "node id"), "node x refused (%s)", err);
	ok(PARSE(&c, "fault", "add", "wc", "edge", "1") == -1,
	   "fault add wc edge refused");
	ok(PARSE(&c, "fault", "add") == -1 && strstr(err, "DEV"),
	   "fault add without DEV refused (%s)", err);
	ok(PARSE(&c, "fault", "wc", "-j") == 0 && c.cmd == WCMD_FAULT_SHOW &&
	   c.opts.json && !strcmp(c.dev, "wc"), "fault wc -j: show");
	ok(PARSE(&c, "fault", "show") == -1, "fault show without DEV refused");
	ok(PARSE(&c, "fault", "random", "wc", "--mtbf", "300", "--mttr",
		 "150") == 0 && c.cmd == WCMD_FAULT_RANDOM && c.mtbf_ms == 300 &&
	   c.mttr_ms == 150 && c.seed == WC_FAULT_RANDOM_SEED &&
	   c.duration_s == WC_FAULT_RANDOM_DURATION &&
	   c.fault_kinds == WC_FAULTS_LINKS, "fault random: defaults");
	ok(PARSE(&c, "fault", "random", "wc", "--kind", "any", "--seed", "9",
		 "--duration", "2", "--mttr", "5", "--mtbf", "6") == 0 &&
	   c.fault_kinds == WC_FAULTS_ANY && c.seed == 9 && c.duration_s == 2,
	   "fault random: every option");
	ok(PARSE(&c, "fault", "random", "wc", "--mtbf", "300") == -1 &&
	   strstr(err, "required"), "fault random without --mttr (%s)", err);
	ok(PARSE(&c, "fault", "random", "wc", "--mtbf", "0", "--mttr", "1") ==
	   -1 && strstr(err, "--mtbf"), "--mtbf 0 refused (%s)", err);
	ok(PARSE(&c, "monitor") == 0 && c.cmd == WCMD_MONITOR, "monitor");
	ok(PARSE(&c, "monitor", "wc") == -1, "monitor wc refused");
}

static void test_args(void)
{
	struct wormctl_cmdline c;

	ok(PARSE(&c, "fabric") == 0 && c.cmd == WCMD_FABRIC_SHOW && !c.dev &&
	   !c.opts.json, "fabric: show every fabric");
	ok(PARSE(&c, "-j", "fabric", "show", "wc") == 0 &&
	   c.cmd == WCMD_FABRIC_SHOW && !strcmp(c.dev, "wc") && c.opts.json &&
	   !c.opts.pretty, "-j fabric show wc");
	ok(PARSE(&c, "-jp", "fabric", "list") == 0 && c.opts.json &&
	   c.opts.pretty && !c.dev, "-jp fabric list");
	ok(PARSE(&c, "--json", "--pretty", "fabric", "wc") == 0 &&
	   c.opts.json && c.opts.pretty && !strcmp(c.dev, "wc"),
	   "--json --pretty fabric wc");
	ok(PARSE(&c, "-V") == 0 && c.cmd == WCMD_VERSION, "-V");
	ok(PARSE(&c, "-V", "-h", "stats") == 0 && c.cmd == WCMD_VERSION,
	   "-V wins over -h and a command");
	ok(PARSE(&c, "-h") == 0 && c.cmd == WCMD_HELP, "-h");
	ok(PARSE(&c, "help") == 0 && c.cmd == WCMD_HELP, "help");
	ok(PARSE(&c, "fabric", "help") == 0 && c.cmd == WCMD_HELP,
	   "fabric help");
	ok(wormctl_parse_cmdline(1, ARGV(NULL), &c, err, sizeof(err)) == -1 &&
	   strstr(err, "no command"), "no command: usage error (%s)", err);
	ok(PARSE(&c, "-x", "fabric") == -1 && strstr(err, "-x"),
	   "unknown option refused (%s)", err);
	ok(PARSE(&c, "-jx", "fabric") == -1, "unknown grouped option refused");
	ok(PARSE(&c, "group", "show", "wc", "-j") == 0 &&
	   c.cmd == WCMD_GROUP_SHOW && !strcmp(c.dev, "wc") && c.opts.json,
	   "group show wc -j");
	ok(PARSE(&c, "group", "wc") == 0 && c.cmd == WCMD_GROUP_SHOW,
	   "group wc");
	ok(PARSE(&c, "group", "show") == -1 && strstr(err, "DEV is missing"),
	   "group show without DEV refused (%s)", err);
	ok(PARSE(&c, "group", "wc", "wd") == -1 && strstr(err, "group show"),
	   "group show: a second device refused (%s)", err);
	ok(PARSE(&c, "--jsonx", "fabric") == -1, "unknown long option refused");
	ok(PARSE(&c, "table", "show", "wc", "-j", "-v") == 0 &&
	   c.cmd == WCMD_TABLE_SHOW && !strcmp(c.dev, "wc") && c.opts.json &&
	   c.opts.verbose, "table show wc -j -v");
	ok(PARSE(&c, "-jv", "table", "wc") == 0 && c.cmd == WCMD_TABLE_SHOW &&
	   !strcmp(c.dev, "wc") && c.opts.json && c.opts.verbose,
	   "-jv table wc");
	ok(PARSE(&c, "table", "show") == -1 && strstr(err, "DEV is missing"),
	   "table show without DEV refused (%s)", err);
	ok(PARSE(&c, "table", "show", "wc", "wd") == -1 && strstr(err, "\"wd\""),
	   "table show with two devices refused (%s)", err);
	ok(PARSE(&c, "table", "show", "wc", "-x") == -1 && strstr(err, "-x"),
	   "table show with an unknown option refused (%s)", err);
	ok(PARSE(&c, "table", "help") == 0 && c.cmd == WCMD_HELP, "table help");
	ok(PARSE(&c, "frobnicate") == -1 && strstr(err, "frobnicate"),
	   "unknown command refused (%s)", err);
	ok(PARSE(&c, "fabric", "show", "a", "b") == -1,
	   "fabric show with two devices refused (%s)", err);
	ok(PARSE(&c, "fabric", "show", "0123456789abcdef") == -1,
	   "16-character device name refused (%s)", err);
	ok(PARSE(&c, "fabric", "show", "0123456789abcde") == 0,
	   "15-character device name accepted");
	ok(PARSE(&c, "fabric", "show", "") == -1, "empty device name refused");

	ok(PARSE(&c, "stats", "wc") == 0 && c.cmd == WCMD_STATS &&
	   !strcmp(c.dev, "wc") && c.node == SHOW_ALL_NODES, "stats wc");
	ok(PARSE(&c, "stats", "wc", "node", "63") == 0 && c.node == 63,
	   "stats wc node 63");
	ok(PARSE(&c, "stats", "wc", "total") == 0 && c.node == SHOW_NO_NODES,
	   "stats wc total");
	ok(PARSE(&c, "stats", "wc", "node", "4294967295") == 0 &&
	   c.node == 4294967295LL, "stats node: u32 maximum");
	ok(PARSE(&c, "stats", "wc", "node", "-1") == -1 &&
	   PARSE(&c, "stats", "wc", "node", "4294967296") == -1 &&
	   PARSE(&c, "stats", "wc", "node", "1x") == -1 &&
	   PARSE(&c, "stats", "wc", "node") == -1,
	   "stats node: bad numbers refused");
	ok(PARSE(&c, "stats") == -1 && strstr(err, "DEV"),
	   "stats without DEV refused (%s)", err);
	ok(PARSE(&c, "stats", "wc", "--links", "-j") == 0 && c.links &&
	   c.opts.json && !strcmp(c.dev, "wc"), "stats wc --links -j");
	ok(PARSE(&c, "stats", "--links", "wc") == 0 && c.links &&
	   !strcmp(c.dev, "wc"), "stats --links wc");
	ok(PARSE(&c, "stats", "wc", "--links", "node", "3") == -1 &&
	   PARSE(&c, "stats", "wc", "-x") == -1 &&
	   PARSE(&c, "stats", "wc", "--links", "-h") == -1,
	   "stats --links: no node, no bad option");
	ok(PARSE(&c, "stats", "wc", "total", "x") == -1,
	   "stats trailing word refused");

	ok(PARSE(&c, "fabric", "set", "wc", "cycle_ns", "100") == 0 &&
	   c.cmd == WCMD_FABRIC_SET && c.set_cycle_ns && c.cycle_ns == 100 &&
	   !c.set_watchdog, "fabric set cycle_ns");
	ok(PARSE(&c, "fabric", "set", "wc", "watchdog", "5000", "cycle_ns",
		 "0") == 0 && c.set_watchdog && c.watchdog == 5000 &&
	   c.set_cycle_ns && c.cycle_ns == 0, "fabric set both");
	ok(PARSE(&c, "fabric", "set", "wc", "multicast", "dstm-2") == 0 &&
	   c.set_multicast && c.multicast == WORMCAST_MCAST_DSTM2 && !c.set_watchdog &&
	   !c.set_cycle_ns, "fabric set multicast dstm-2");
	ok(PARSE(&c, "fabric", "set", "wc", "multicast", "unicast", "watchdog", "100") == 0 &&
	   c.set_multicast && c.multicast == WORMCAST_MCAST_UNICAST && c.set_watchdog,
	   "fabric set multicast unicast watchdog 100");
	ok(PARSE(&c, "fabric", "set", "wc", "multicast", "3") == -1 && strstr(err, "dstm-1"),
	   "fabric set multicast 3 refused (%s)", err);
	ok(PARSE(&c, "fabric", "set", "wc", "multicast", "rt", "multicast", "rt") == -1,
	   "fabric set multicast twice refused (%s)", err);
	ok(PARSE(&c, "fabric", "set", "wc", "fault-info", "local") == 0 &&
	   c.set_fault_info && c.fault_info == WORMCAST_FAULT_INFO_LOCAL &&
	   !c.set_multicast, "fabric set fault-info local");
	ok(PARSE(&c, "fabric", "set", "wc", "fault-info", "global", "multicast", "dstm-1") == 0 &&
	   c.set_fault_info && c.fault_info == WORMCAST_FAULT_INFO_GLOBAL &&
	   c.set_multicast, "fabric set fault-info global multicast dstm-1");
	ok(PARSE(&c, "fabric", "set", "wc", "fault-info", "1") == -1 &&
	   strstr(err, "global or local"), "fabric set fault-info 1 refused (%s)", err);
	ok(PARSE(&c, "fabric", "set", "wc", "watchdog", "0") == -1,
	   "fabric set watchdog 0 refused (%s)", err);
	ok(PARSE(&c, "fabric", "set", "wc", "vcs", "2") == -1 &&
	   strstr(err, "vcs"), "fabric set of a creation-time parameter refused (%s)",
	   err);
	ok(PARSE(&c, "fabric", "set", "wc") == -1, "fabric set nothing refused");
	ok(PARSE(&c, "fabric", "set") == -1, "fabric set without DEV refused");
	ok(PARSE(&c, "fabric", "set", "wc", "cycle_ns") == -1,
	   "fabric set without value refused");
	ok(PARSE(&c, "fabric", "set", "wc", "cycle_ns", "1", "cycle_ns",
		 "2") == -1, "fabric set twice refused");
	ok(PARSE(&c, "fabric", "set", "wc", "cycle_ns", "-5") == -1,
	   "fabric set negative refused");

	ok(PARSE(&c, "-j", "plan", "trees", "torus", "8x8") == 0 &&
	   c.cmd == WCMD_PLAN && c.plan_argc == 3 &&
	   !strcmp(c.plan_argv[0], "trees") && c.opts.json,
	   "plan: the words after plan are handed over");
	ok(PARSE(&c, "plan") == 0 && c.cmd == WCMD_PLAN && c.plan_argc == 0,
	   "plan alone parses (main reports it)");
	ok(PARSE(&c, "--", "fabric") == 0 && c.cmd == WCMD_FABRIC_SHOW,
	   "-- ends the options");
}

/* ---- wormctl plan, run in-process: output, messages, exit status ---- */

struct plan_run {
	int status;
	char *out, *err;
	double secs;
};

static char *slurp(FILE *f)
{
	long n;
	char *buf;

	fflush(f);
	n = ftell(f);
	buf = calloc((size_t)n + 1, 1);
	rewind(f);
	if (buf && n > 0 && fread(buf, 1, (size_t)n, f) != (size_t)n)
		buf[0] = '\0';
	fclose(f);
	return buf;
}

/* "wormctl [-j] plan WORDS...", stdout and stderr captured. */
static void plan_run(struct plan_run *r, bool json, int argc, char **argv)
{
	struct wormctl_opts o = { .json = json };
	FILE *fo = tmpfile(), *fe = tmpfile();
	int so = dup(1), se = dup(2);
	struct timespec t0, t1;

	fflush(stdout);
	fflush(stderr);
	dup2(fileno(fo), 1);
	dup2(fileno(fe), 2);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	r->status = wormctl_plan(argc, argv, &o);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	fflush(stdout);
	fflush(stderr);
	dup2(so, 1);
	dup2(se, 2);
	close(so);
	close(se);
	r->secs = (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
	r->out = slurp(fo);
	r->err = slurp(fe);
}

/* The first line of @s, for a TAP description (at most 150 bytes). */
static const char *line1(const char *s)
{
	static char buf[4][152];
	static unsigned int turn;
	char *b = buf[turn++ % 4];

	snprintf(b, sizeof(buf[0]), "%.*s", (int)strcspn(s, "\n"), s);
	return b;
}

static void plan_done(struct plan_run *r)
{
	free(r->out);
	free(r->err);
}

#define PLAN(r, json, ...) \
	plan_run((r), (json), (int)(sizeof((char *[]){ __VA_ARGS__ }) / \
				    sizeof(char *)), (char *[]){ __VA_ARGS__ })

/*
 * OTMS over its budget is refused at once, naming the budget and what
 * fits (it used to run for minutes, then print "Argument list too long").
 */
static void test_plan_otms_budget(void)
{
	static const char *const big[][2] = {
		{ "star", "5" }, { "hypercube", "7" }, { "hypercube", "8" },
		{ "torus", "8x8x8" },
	};
	struct plan_run r;
	char want[64];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(big); i++) {
		PLAN(&r, false, (char *)big[i][0], (char *)big[i][1], "otms",
		     "--src", "0", "--dst", "all");
		snprintf(want, sizeof(want), "budget of %u", WC_OTMS_BUDGET);
		ok(r.status == WORMCTL_EXIT_USAGE && !*r.out &&
		   strstr(r.err, want) && strstr(r.err, "at most") &&
		   strstr(r.err, "fit") && r.secs < 1.0,
		   "plan %s %s otms --dst all: refused at once (%.3f s, exit %d): %s",
		   big[i][0], big[i][1], r.secs, r.status, line1(r.err));
		plan_done(&r);
	}
	/* S_5 from 0: 119 destinations on 4 ports; 68 fit */
	PLAN(&r, false, "star", "5", "otms", "--src", "0", "--dst", "all");
	ok(strstr(r.err, "119 destinations") && strstr(r.err, "4 source ports") &&
	   strstr(r.err, "at most 68 destinations"),
	   "the message names the side, its ports and the most that fit");
	plan_done(&r);
	ok(wc_otms_fit(4) == 68 && wc_otms_states(68, 4) <= WC_OTMS_BUDGET &&
	   wc_otms_states(69, 4) > WC_OTMS_BUDGET,
	   "wc_otms_fit(4) is the last size within the budget");
	/* what fits still runs, and what the budget allows is solved */
	PLAN(&r, false, "star", "5", "otms", "--src", "0", "--dst",
	     "1:2:3:4:5:6:7:8:9:10:11:12:13:14:15:16:17:18:19:20:21:22:23:24:25:26:27:28:29:30");
	ok(r.status == 0 && strstr(r.out, "total:"),
	   "plan star 5 otms with 30 destinations runs (exit %d, %.2f s)",
	   r.status, r.secs);
	plan_done(&r);
}

/* The message names the word that is wrong. */
static void test_plan_words(void)
{
	struct plan_run r;

	PLAN(&r, false, "torus", "4x4", "nope");
	ok(r.status == WORMCTL_EXIT_USAGE && strstr(r.err, "\"nope\"") &&
	   !strstr(r.err, "\"torus\""),
	   "plan torus 4x4 nope: names \"nope\" (%s)", line1(r.err));
	plan_done(&r);
	PLAN(&r, false, "tours", "4x4", "labels");
	ok(r.status == WORMCTL_EXIT_USAGE && strstr(r.err, "topology \"tours\""),
	   "plan tours 4x4 labels: names the topology (%s)", line1(r.err));
	plan_done(&r);
	PLAN(&r, false, "mesh", "4x4");
	ok(r.status == WORMCTL_EXIT_USAGE && strstr(r.err, "which structure"),
	   "plan mesh 4x4: asks for the structure (%s)", line1(r.err));
	plan_done(&r);
}

/*
 * Definition 1 of Wu and Chen disables every healthy node of a 3x3 mesh
 * with faults at the corners and the centre: one block, no node outside
 * it, so no node is "safe" (it used to say "every node is safe").
 */
static void test_plan_whole_block(void)
{
	struct plan_run r;

	PLAN(&r, false, "mesh", "3x3", "faults", "--faulty",
	     "0,0:1,1:2,2:0,2:2,0");
	ok(r.status == 0 && strstr(r.out, "block 0: (0,0)-(2,2), 9 nodes, 5 faulty") &&
	   !strstr(r.out, "every node is safe") &&
	   strstr(r.out, "every node is in a faulty block, 5 faulty and 4 healthy but disabled"),
	   "3x3 mesh all in one block: no safe node claimed");
	plan_done(&r);
	PLAN(&r, true, "mesh", "3x3", "faults", "--faulty",
	     "0,0:1,1:2,2:0,2:2,0");
	ok(json_valid(r.out) && strstr(r.out, "\"nodes_outside_blocks\":0"),
	   "JSON: nodes_outside_blocks 0");
	plan_done(&r);
	PLAN(&r, false, "mesh", "5x5", "faults", "--faulty", "2,2");
	ok(r.status == 0 && !strstr(r.out, "every node") &&
	   strstr(r.out, "\n  (2,0)"), "one fault: the unsafe nodes are listed");
	plan_done(&r);
	PLAN(&r, false, "mesh", "5x5", "faults");
	ok(r.status == 0 && strstr(r.out, "(none: every node is safe)"),
	   "no fault: every node is safe");
	plan_done(&r);
	PLAN(&r, false, "mesh", "3x3", "faults", "--faulty",
	     "0,0:1,1:2,2:0,2:2,0", "--src", "1,0", "--dst", "0,1");
	ok(r.status == WORMCTL_EXIT_USAGE && strstr(r.err, "source inside a faulty block"),
	   "and a multicast from a disabled node is refused (exit %d)", r.status);
	plan_done(&r);
}

/* Usage errors exit 2 on every planner's paths, as tools.rst says. */
static void test_plan_exit_codes(void)
{
	static const char *const usage[][10] = {
		{ "mesh", "3x3x", "labels" },
		{ "mesh", "0x3", "labels" },
		{ "mesh", "99999x99999", "labels" },
		{ "hypercube", "4x4", "labels" },
		{ "star", "9", "labels" },
		{ "mesh", "4x4", "otms", "--src", "99", "--dst", "1" },
		{ "mesh", "4x4", "otms", "--src", "0", "--dst", "0" },
		{ "mesh", "4x4", "otms", "--src", "0", "--dst", "1,1" },
		{ "mesh", "4x4", "otms", "--src", "0", "--dst", "x" },
		{ "mesh", "4x4", "otms", "--src", "0" },
		{ "mesh", "4x4", "labels", "--bogus" },
		{ "mesh", "1x9", "faults" },
		{ "mesh", "4x4", "faults", "--faulty", "9,9" },
		{ "mesh", "4x4", "faults", "--src", "0,0" },
		{ "mesh", "4x4", "faults", "--strategy", "4" },
		{ "mesh", "4x4", "faults", "--faulty-links", "0,0-2,2" },
		{ "mesh", "4x4", "faults", "--bogus", "1" },
		{ "torus", "3x3x", "dstm-1" },
		{ "torus", "4x4", "dstm-1", "--root", "16" },
		{ "torus", "99999x99999", "spam" },
		{ "torus", "4x6", "rt-special" },
		{ "torus", "4x4", "dstm-header", "--tree", "1" },
		{ "torus", "4x4", "dstm-header", "--tree", "1", "--src", "0",
		  "--dst", "1,1" },
		{ "torus", "6x6", "dcf" },
		{ "torus", "4", "dcf" },
		{ "torus", "4x4", "dcf", "--src", "4,0" },
		{ "torus", "4x4", "dcf", "--step", "3" },
		{ "torus", "4x4", "edn", "--bogus", "1" },
		{ "torus", "4x4", "unicast-bcast", "--ts" },
	};
	struct plan_run r;
	size_t i;
	int argc;
	char line[160];

	for (i = 0; i < ARRAY_SIZE(usage); i++) {
		line[0] = '\0';
		for (argc = 0; argc < 10 && usage[i][argc]; argc++)
			snprintf(line + strlen(line), sizeof(line) - strlen(line),
				 " %s", usage[i][argc]);
		plan_run(&r, false, argc, (char **)usage[i]);
		ok(r.status == WORMCTL_EXIT_USAGE && *r.err && !*r.out,
		   "plan%s: usage error, exit 2 (exit %d: %s)", line,
		   r.status, line1(r.err));
		plan_done(&r);
	}
	PLAN(&r, false, "mesh", "4x4", "labels", "--svg", "/nonexistent/x.svg");
	ok(r.status == WORMCTL_EXIT_ERROR, "an SVG that cannot be written: exit 1");
	plan_done(&r);
	PLAN(&r, false, "mesh", "4x4", "labels");
	ok(r.status == WORMCTL_EXIT_OK && strstr(r.out, "Hamiltonian labeling"),
	   "plan mesh 4x4 labels: exit 0");
	plan_done(&r);
}

/*
 * unicast-bcast on 64x64 checks 4 million sharing pairs: streamed, not
 * listed (it took a minute and 1 GB).
 */
static void test_plan_unicast_bcast(void)
{
	struct plan_run r;
	struct rusage ru;

	PLAN(&r, false, "torus", "64x64", "unicast-bcast", "--step", "2048");
	getrusage(RUSAGE_SELF, &ru);
	ok(r.status == 0 && strstr(r.out, "sharing pairs 4064225,") &&
	   strstr(r.out, "failing Theorem 1 0"),
	   "plan torus 64x64 unicast-bcast: 4064225 sharing pairs checked, "
	   "none failing (%.1f s)", r.secs);
	diag("peak RSS of the whole test so far: %ld MB", ru.ru_maxrss / 1024);
	ok(ru.ru_maxrss < 400 * 1024, "... in bounded memory (peak %ld MB)",
	   ru.ru_maxrss / 1024);
	plan_done(&r);
}

/* ---- table show (table.c) ---- */

/* A hand-built DSTM-1 table of 4 nodes: 2 trees, roots 0 and 3. */
static size_t make_trees_table(uint8_t *buf, uint32_t ntrees, uint32_t nnodes)
{
	static const uint8_t ports[2][4] = {
		{ WORMCAST_NO_PORT, 2, 1, 1 },
		{ 3, 0, 0, WORMCAST_NO_PORT },
	};
	struct wormcast_trees t = {
		.scheme = WORMCAST_MCAST_DSTM1,
		.nnodes = nnodes,
		.ntrees = ntrees,
		.root = { 0, 3 },
	};
	uint32_t i;

	memcpy(buf, &t, sizeof(t));
	for (i = 0; i < ntrees * nnodes; i++)
		buf[sizeof(t) + i] = ports[(i / nnodes) % 2][i % nnodes % 4];
	return sizeof(t) + ntrees * nnodes;
}

static char *render_table(bool json, const struct wc_table_info *t,
			  const struct wc_table_view *v, bool verbose)
{
	struct capture c;
	struct out o;

	cap_open(&c);
	out_init(&o, c.fp, json, false);
	if (json)
		json_open_array(&o, NULL);
	if (t)
		show_table(&o, t, v, verbose);
	if (json)
		json_close_array(&o);
	return cap_close(&c);
}

static void test_table_decode(void)
{
	const size_t hdr = sizeof(struct wormcast_trees);
	struct wc_table_info ti = { WORMCAST_TABLE_TREES, 3, 0 };
	struct wc_table_view v;
	uint8_t buf[256];
	char e[192];
	size_t len;
	char *s;

	len = make_trees_table(buf, 2, 4);
	ti.size = (uint32_t)len;
	is_int(len, hdr + 8, "hand-built trees table: header + 2 x 4 ports");
	ok(wc_trees_decode(buf, len, &v, e, sizeof(e)) == 0 &&
	   v.scheme == WORMCAST_MCAST_DSTM1 && v.ntrees == 2 &&
	   v.nnodes == 4 && v.root[0] == 0 && v.root[1] == 3 &&
	   v.parent_port == buf + hdr && v.parent_port[5] == 0,
	   "trees table decoded");

	s = render_table(false, &ti, &v, false);
	ok(!strcmp(s, "trees gen 3 size 32 scheme dstm-1 ntrees 2 nnodes 4 roots 0,3\n"),
	   "table show text");
	free(s);
	s = render_table(false, &ti, &v, true);
	ok(!strcmp(s, "trees gen 3 size 32 scheme dstm-1 ntrees 2 nnodes 4 roots 0,3\n"
		      "    tree 0 root 0 parent_port - 2 1 1\n"
		      "    tree 1 root 3 parent_port 3 0 0 -\n"),
	   "table show -v text");
	free(s);
	s = render_table(true, &ti, &v, false);
	ok(json_valid(s) &&
	   !strcmp(s, "[{\"kind\":\"trees\",\"gen\":3,\"size\":32,\"scheme\":\"dstm-1\","
		      "\"ntrees\":2,\"nnodes\":4,\"roots\":[0,3],\"nfaults\":0,"
		      "\"faulty_links\":[]}]\n"),
	   "table show JSON: exact fields");
	free(s);
	s = render_table(true, &ti, &v, true);
	ok(json_valid(s) &&
	   strstr(s, ",\"faulty_links\":[],\"parent_port\":[[null,2,1,1],[3,0,0,null]]}]\n"),
	   "table show -v JSON: parent_port arrays, null at the root");
	free(s);
	{
		struct wormcast_trees_fault f[2] = { { 1, 2 }, { 3, 0 } };
		struct wc_table_view vf;
		uint32_t two = 2;

		memcpy(buf + len, f, sizeof(f));
		memcpy(buf + offsetof(struct wormcast_trees, nfaults), &two,
		       sizeof(two));
		ti.size = (uint32_t)(len + sizeof(f));
		ok(wc_trees_decode(buf, len + sizeof(f), &vf, e, sizeof(e)) == 0 &&
		   vf.nfaults == 2, "trees table with 2 faulty links decoded");
		ok(wc_trees_decode(buf, len + sizeof(f) - 1, &vf, e, sizeof(e)) &&
		   strstr(e, "2 faulty links"),
		   "  one byte short refused (%s)", e);
		wc_trees_decode(buf, len + sizeof(f), &vf, e, sizeof(e));
		s = render_table(false, &ti, &vf, false);
		ok(!strcmp(s, "trees gen 3 size 48 scheme dstm-1 ntrees 2 nnodes 4 roots 0,3 faulty_links 2\n"
			      "    faulty links (node.port): 1.2 3.0\n"),
		   "table show text: the faulty links (%s)", s);
		free(s);
		s = render_table(true, &ti, &vf, false);
		ok(json_valid(s) &&
		   strstr(s, "\"nfaults\":2,\"faulty_links\":[{\"node\":1,\"port\":2},"
			  "{\"node\":3,\"port\":0}]}]\n"),
		   "table show JSON: the faulty links (%s)", s);
		free(s);
		two = 0;
		memcpy(buf + offsetof(struct wormcast_trees, nfaults), &two,
		       sizeof(two));
		ti.size = (uint32_t)len;
	}
	s = render_table(true, NULL, NULL, false);
	ok(!strcmp(s, "[]\n"), "table show JSON without a table: []");
	free(s);
	ti.kind = 9;
	s = render_table(true, &ti, NULL, true);
	ok(json_valid(s) && !strcmp(s, "[{\"kind\":\"kind-9\",\"gen\":3,\"size\":32}]\n"),
	   "table show JSON: a kind wormctl cannot decode");
	free(s);
	ti.kind = WORMCAST_TABLE_TREES;

	/* one tree of 4 nodes (SPAM) */
	len = make_trees_table(buf, 1, 4);
	ok(wc_trees_decode(buf, len, &v, e, sizeof(e)) == 0 && v.ntrees == 1,
	   "one tree decoded");

	/* refusals */
	len = make_trees_table(buf, 2, 4);
	ok(wc_trees_decode(buf, hdr - 1, &v, e, sizeof(e)) == -1 &&
	   strstr(e, "truncated") && strstr(e, "header"),
	   "shorter than the header refused (%s)", e);
	ok(wc_trees_decode(buf, 0, &v, e, sizeof(e)) == -1,
	   "empty table refused (%s)", e);
	ok(wc_trees_decode(buf, len - 1, &v, e, sizeof(e)) == -1 &&
	   strstr(e, "truncated: 31 bytes, 32 for 2 trees of 4 nodes"),
	   "one port missing refused (%s)", e);
	ok(wc_trees_decode(buf, len + 1, &v, e, sizeof(e)) == -1 &&
	   strstr(e, "trailing bytes"), "one byte too many refused (%s)", e);
	len = make_trees_table(buf, 3, 4);
	ok(wc_trees_decode(buf, len, &v, e, sizeof(e)) == -1 &&
	   strstr(e, "ntrees 3"), "3 trees refused (%s)", e);
	len = make_trees_table(buf, 0, 4);
	ok(wc_trees_decode(buf, len, &v, e, sizeof(e)) == -1 &&
	   strstr(e, "ntrees 0"), "no tree refused (%s)", e);
	len = make_trees_table(buf, 2, 0);
	ok(wc_trees_decode(buf, len, &v, e, sizeof(e)) == -1 &&
	   strstr(e, "nnodes 0"), "no node refused (%s)", e);
	len = make_trees_table(buf, 2, 4);
	buf[offsetof(struct wormcast_trees, root) + 4] = 4;
	ok(wc_trees_decode(buf, len, &v, e, sizeof(e)) == -1 &&
	   strstr(e, "root 4"), "a root that is no node refused (%s)", e);
	/* a huge nnodes must not overflow the size computation */
	len = make_trees_table(buf, 2, 4);
	memcpy(buf + offsetof(struct wormcast_trees, nnodes), "\xff\xff\xff\xff", 4);
	ok(wc_trees_decode(buf, len, &v, e, sizeof(e)) == -1 &&
	   strstr(e, "truncated"), "nnodes 2^32-1 refused (%s)", e);
}

/* A labels table of the 2x2 mesh (snake: 0 1 / 3 2), and the refusals. */
static void test_labels_decode(void)
{
	const size_t hdr = sizeof(struct wormcast_labels);
	struct wc_table_info ti = { WORMCAST_TABLE_LABELS, 5, 0 };
	struct wormcast_labels l = { .scheme = WORMCAST_MCAST_DUAL_PATH, .nnodes = 4 };
	static const uint32_t label[4] = { 0, 1, 3, 2 };
	uint32_t buf[16];	/* aligned as the kernel's bytes are */
	struct wc_table_view v;
	size_t len = hdr + sizeof(label);
	char e[192];
	char *s;

	memcpy(buf, &l, hdr);
	memcpy((uint8_t *)buf + hdr, label, sizeof(label));
	ti.size = (uint32_t)len;
	ok(wc_table_decode(WORMCAST_TABLE_LABELS, buf, len, &v, e, sizeof(e)) == 0 &&
	   v.kind == WORMCAST_TABLE_LABELS && v.scheme == WORMCAST_MCAST_DUAL_PATH &&
	   v.nnodes == 4 && v.label[2] == 3, "labels table decoded");
	s = render_table(false, &ti, &v, false);
	ok(!strcmp(s, "labels gen 5 size 32 scheme dual-path nnodes 4\n"),
	   "labels table show text (%s)", s);
	free(s);
	s = render_table(false, &ti, &v, true);
	ok(!strcmp(s, "labels gen 5 size 32 scheme dual-path nnodes 4\n    label 0 1 3 2\n"),
	   "labels table show -v text: label of every node");
	free(s);
	s = render_table(true, &ti, &v, true);
	ok(json_valid(s) &&
	   !strcmp(s, "[{\"kind\":\"labels\",\"gen\":5,\"size\":32,\"scheme\":\"dual-path\","
		      "\"nnodes\":4,\"nfaults\":0,\"faulty_links\":[],\"label\":[0,1,3,2]}]\n"),
	   "labels table show -v JSON: exact fields");
	free(s);
	ok(wc_table_decode(WORMCAST_TABLE_LABELS, buf, hdr - 1, &v, e, sizeof(e)) == -1 &&
	   strstr(e, "header"), "labels: shorter than the header refused (%s)", e);
	ok(wc_table_decode(WORMCAST_TABLE_LABELS, buf, len - 1, &v, e, sizeof(e)) == -1 &&
	   strstr(e, "truncated: 31 bytes, 32 for 4 nodes"),
	   "labels: a byte missing refused (%s)", e);
	ok(wc_table_decode(WORMCAST_TABLE_LABELS, buf, len + 4, &v, e, sizeof(e)) == -1 &&
	   strstr(e, "trailing"), "labels: trailing bytes refused (%s)", e);
	buf[1] = 0;
	ok(wc_table_decode(WORMCAST_TABLE_LABELS, buf, len, &v, e, sizeof(e)) == -1 &&
	   strstr(e, "nnodes 0"), "labels: no node refused (%s)", e);
	buf[1] = 0xffffffffu;
	ok(wc_table_decode(WORMCAST_TABLE_LABELS, buf, len, &v, e, sizeof(e)) == -1 &&
	   strstr(e, "truncated"), "labels: nnodes 2^32-1 refused without overflow (%s)", e);
	/* one faulty link, (node 1, port 2), after the labels */
	buf[1] = 4;
	buf[2] = 1;
	buf[hdr / 4 + 4] = 1;
	buf[hdr / 4 + 5] = 2;
	ti.size = (uint32_t)(len + 8);
	ok(wc_table_decode(WORMCAST_TABLE_LABELS, buf, len + 8, &v, e, sizeof(e)) == 0 &&
	   v.nfaults == 1, "labels table with a faulty link decoded");
	s = render_table(false, &ti, &v, false);
	ok(!strcmp(s, "labels gen 5 size 40 scheme dual-path nnodes 4 faulty_links 1\n"
		      "    faulty links (node.port): 1.2\n"),
	   "labels table with a faulty link: text (%s)", s);
	free(s);
	s = render_table(true, &ti, &v, false);
	ok(json_valid(s) && strstr(s, "\"nfaults\":1,\"faulty_links\":[{\"node\":1,\"port\":2}]"),
	   "labels table with a faulty link: JSON (%s)", s);
	free(s);
	ok(wc_table_decode(WORMCAST_TABLE_LABELS, buf, len, &v, e, sizeof(e)) == -1 &&
	   strstr(e, "for 4 nodes and 1 faulty links"),
	   "labels: nfaults without its bytes refused (%s)", e);
	buf[2] = WORMCAST_TREES_MAX_FAULTS + 1;
	ok(wc_table_decode(WORMCAST_TABLE_LABELS, buf, len, &v, e, sizeof(e)) == -1 &&
	   strstr(e, "at most 256"), "labels: too many faulty links refused (%s)", e);
	is_int(wc_table_decode(9, buf, len, &v, e, sizeof(e)), 1, "kind 9: not decoded");
}

/* A bcast table (three unicasts on 2x2 offsets), and the refusals. */
static void test_bcast_decode(void)
{
	const size_t hdr = sizeof(struct wormcast_bcast);
	struct wc_table_info ti = { WORMCAST_TABLE_BCAST, 7, 0 };
	struct wormcast_bcast b = { .scheme = WORMCAST_MCAST_DCF, .nnodes = 4, .nsends = 3 };
	static const struct wormcast_bcast_send sends[3] = {
		{ 1, 0, 1 }, { 2, 0, 2 }, { 2, 1, 3 },
	};
	uint32_t buf[16];	/* aligned as the kernel's bytes are */
	struct wc_table_view v;
	size_t len = hdr + sizeof(sends);
	char e[192];
	char *s;

	memcpy(buf, &b, hdr);
	memcpy((uint8_t *)buf + hdr, sends, sizeof(sends));
	ti.size = (uint32_t)len;
	ok(wc_table_decode(WORMCAST_TABLE_BCAST, buf, len, &v, e, sizeof(e)) == 0 &&
	   v.kind == WORMCAST_TABLE_BCAST && v.scheme == WORMCAST_MCAST_DCF &&
	   v.nnodes == 4 && v.nsends == 3 && v.sends[2].from == 1, "bcast table decoded");
	s = render_table(false, &ti, &v, false);
	ok(!strcmp(s, "bcast gen 7 size 52 scheme dcf nnodes 4 nsends 3\n"),
	   "bcast table show text (%s)", s);
	free(s);
	s = render_table(false, &ti, &v, true);
	ok(!strcmp(s, "bcast gen 7 size 52 scheme dcf nnodes 4 nsends 3\n"
		      "    step 1: (0,0)->(1,0)\n"
		      "    step 2: (0,0)->(0,1) (1,0)->(1,1)\n"),
	   "bcast table show -v text: the unicasts by step, offsets as (x,y) (%s)", s);
	free(s);
	s = render_table(true, &ti, &v, true);
	ok(json_valid(s) &&
	   !strcmp(s, "[{\"kind\":\"bcast\",\"gen\":7,\"size\":52,\"scheme\":\"dcf\","
		      "\"nnodes\":4,\"nsends\":3,\"sends\":[{\"step\":1,\"from\":0,\"to\":1},"
		      "{\"step\":2,\"from\":0,\"to\":2},{\"step\":2,\"from\":1,\"to\":3}]}]\n"),
	   "bcast table show -v JSON: exact fields (%s)", s);
	free(s);
	ok(wc_table_decode(WORMCAST_TABLE_BCAST, buf, hdr - 1, &v, e, sizeof(e)) == -1 &&
	   strstr(e, "header"), "bcast: shorter than the header refused (%s)", e);
	ok(wc_table_decode(WORMCAST_TABLE_BCAST, buf, len - 1, &v, e, sizeof(e)) == -1 &&
	   strstr(e, "truncated: 51 bytes, 52 for 3 unicasts"),
	   "bcast: a byte missing refused (%s)", e);
	ok(wc_table_decode(WORMCAST_TABLE_BCAST, buf, len + 4, &v, e, sizeof(e)) == -1 &&
	   strstr(e, "trailing"), "bcast: trailing bytes refused (%s)", e);
	buf[2] = 0xffffffffu;
	ok(wc_table_decode(WORMCAST_TABLE_BCAST, buf, len, &v, e, sizeof(e)) == -1 &&
	   strstr(e, "truncated"), "bcast: nsends 2^32-1 refused without overflow (%s)", e);
}

/* An ftmesh table (2 nodes, one block, one record), and the refusals. */
static void test_ftmesh_decode(void)
{
	const size_t hdr = sizeof(struct wormcast_ftmesh);
	struct wc_table_info ti = { WORMCAST_TABLE_FTMESH, 7, 0 };
	struct wormcast_ftmesh f = {
		.nnodes = 2, .strategy = 2, .flags = WORMCAST_FTMESH_F_DETOUR,
		.nblocks = 1, .nrecs = 1, .seed = 5,
	};
	static const struct wormcast_ftmesh_block blk = { 1, 0, 1, 0 };
	static const struct wormcast_ftmesh_safety sv[2] = {
		{ 1, WORMCAST_FTMESH_SAFETY_INF, WORMCAST_FTMESH_SAFETY_INF,
		  WORMCAST_FTMESH_SAFETY_INF },
		{ 0, 0, 0, 0 },
	};
	static const uint32_t off[9] = { 0, 1, 1, 1, 1, 1, 1, 1, 1 };
	static const struct wormcast_ftmesh_rec rec = { .block = 0, .line = 1 };
	uint64_t buf[16];	/* aligned as the kernel's bytes are */
	uint8_t *p = (uint8_t *)buf;
	struct wc_table_view v;
	size_t len = hdr + sizeof(blk) + sizeof(sv) + sizeof(off) + sizeof(rec);
	char e[192] = "";
	char *s;

	memcpy(p, &f, hdr);
	memcpy(p + hdr, &blk, sizeof(blk));
	memcpy(p + hdr + sizeof(blk), sv, sizeof(sv));
	memcpy(p + hdr + sizeof(blk) + sizeof(sv), off, sizeof(off));
	memcpy(p + len - sizeof(rec), &rec, sizeof(rec));
	ti.size = (uint32_t)len;
	ok(wc_table_decode(WORMCAST_TABLE_FTMESH, buf, len, &v, e, sizeof(e)) == 0 &&
	   v.kind == WORMCAST_TABLE_FTMESH && v.scheme == WORMCAST_MCAST_FTMESH &&
	   v.nnodes == 2 && v.nblocks == 1 && v.nrecs == 1 && v.strategy == 2,
	   "ftmesh table decoded (%s)", e);
	s = render_table(false, &ti, &v, false);
	ok(!strcmp(s, "ftmesh gen 7 size 100 scheme ftmesh nnodes 2 strategy 2 detour seed 5 nblocks 1 nrecs 1\n"
		      "    blocks: (1,0)-(1,0)\n"),
	   "ftmesh table show text: strategy, detour, blocks (%s)", s);
	free(s);
	s = render_table(false, &ti, &v, true);
	ok(!strcmp(s, "ftmesh gen 7 size 100 scheme ftmesh nnodes 2 strategy 2 detour seed 5 nblocks 1 nrecs 1\n"
		      "    blocks: (1,0)-(1,0)\n"
		      "    node 0: safety 1 inf inf inf +X+Y b0/L1\n"
		      "    node 1: safety 0 0 0 0\n"),
	   "ftmesh table show -v text: each node's safety and records (%s)", s);
	free(s);
	s = render_table(true, &ti, &v, true);
	ok(json_valid(s) &&
	   !strcmp(s, "[{\"kind\":\"ftmesh\",\"gen\":7,\"size\":100,\"scheme\":\"ftmesh\","
		      "\"nnodes\":2,\"strategy\":2,\"detour\":true,\"seed\":5,\"nblocks\":1,"
		      "\"nrecs\":1,\"blocks\":[{\"x0\":1,\"y0\":0,\"x1\":1,\"y1\":0}],"
		      "\"nodes\":[{\"node\":0,\"safety\":[1,null,null,null],"
		      "\"records\":[[{\"block\":0,\"line\":1}],[],[],[]]},"
		      "{\"node\":1,\"safety\":[0,0,0,0],\"records\":[[],[],[],[]]}]}]\n"),
	   "ftmesh table show -v JSON: exact fields (%s)", s);
	free(s);
	ok(wc_table_decode(WORMCAST_TABLE_FTMESH, buf, hdr - 1, &v, e, sizeof(e)) == -1 &&
	   strstr(e, "header"), "ftmesh: shorter than the header refused (%s)", e);
	ok(wc_table_decode(WORMCAST_TABLE_FTMESH, buf, len - 1, &v, e, sizeof(e)) == -1 &&
	   strstr(e, "truncated: 99 bytes, 100 for 2 nodes, 1 blocks and 1 records"),
	   "ftmesh: a byte missing refused (%s)", e);
	ok(wc_table_decode(WORMCAST_TABLE_FTMESH, buf, len + 4, &v, e, sizeof(e)) == -1 &&
	   strstr(e, "trailing"), "ftmesh: trailing bytes refused (%s)", e);
	((uint32_t *)(p + hdr + sizeof(blk) + sizeof(sv)))[3] = 2;
	ok(wc_table_decode(WORMCAST_TABLE_FTMESH, buf, len, &v, e, sizeof(e)) == -1 &&
	   strstr(e, "record offsets"), "ftmesh: offsets going down refused (%s)", e);
	((struct wormcast_ftmesh *)buf)->nrecs = 0xffffffffu;
	ok(wc_table_decode(WORMCAST_TABLE_FTMESH, buf, len, &v, e, sizeof(e)) == -1 &&
	   strstr(e, "truncated"), "ftmesh: nrecs 2^32-1 refused without overflow (%s)", e);
}

static void test_table_bytes(void)
{
	struct wc_table_info ti = { WORMCAST_TABLE_TREES, 5, 10 };
	struct wc_table_bytes b;
	const char *data = "0123456789abc";

	ok(wc_table_bytes_init(&b, &ti) == 0 &&
	   wc_table_bytes_add(&b, 1, 5, 0, data, 4) == 0 &&
	   wc_table_bytes_add(&b, 1, 5, 4, data + 4, 4) == 0 &&
	   wc_table_bytes_add(&b, 1, 5, 8, data + 8, 2) == 0 &&
	   wc_table_bytes_done(&b) == 0 && !memcmp(b.buf, data, 10),
	   "three pieces put together");
	wc_table_bytes_free(&b);

	wc_table_bytes_init(&b, &ti);
	ok(wc_table_bytes_add(&b, 1, 5, 0, data, 4) == 0 &&
	   wc_table_bytes_add(&b, 1, 5, 5, data + 5, 4) == -1 && !b.replaced &&
	   strstr(b.err, "not contiguous: piece at offset 5, expected 4"),
	   "a gap refused (%s)", b.err);
	wc_table_bytes_free(&b);
	wc_table_bytes_init(&b, &ti);
	ok(wc_table_bytes_add(&b, 1, 5, 0, data, 4) == 0 &&
	   wc_table_bytes_add(&b, 1, 5, 2, data + 2, 4) == -1 &&
	   strstr(b.err, "not contiguous"), "an overlap refused (%s)", b.err);
	wc_table_bytes_free(&b);
	wc_table_bytes_init(&b, &ti);
	ok(wc_table_bytes_add(&b, 1, 5, 0, data, 11) == -1 &&
	   strstr(b.err, "past its size"), "bytes past the size refused (%s)", b.err);
	wc_table_bytes_free(&b);
	wc_table_bytes_init(&b, &ti);
	ok(wc_table_bytes_add(&b, 1, 5, 0, data, 4) == 0 &&
	   wc_table_bytes_add(&b, 1, 6, 4, data + 4, 6) == -1 &&
	   strstr(b.err, "replaced") && b.replaced,
	   "another generation refused as replaced: read again (%s)", b.err);
	wc_table_bytes_free(&b);
	wc_table_bytes_init(&b, &ti);
	ok(wc_table_bytes_add(&b, 2, 5, 0, data, 4) == -1 &&
	   strstr(b.err, "kind"), "another kind refused (%s)", b.err);
	wc_table_bytes_free(&b);
	wc_table_bytes_init(&b, &ti);
	ok(wc_table_bytes_add(&b, 1, 5, 0, data, 9) == 0 &&
	   wc_table_bytes_done(&b) == -1 &&
	   strstr(b.err, "truncated: 9 of 10 bytes"), "a missing end refused (%s)", b.err);
	wc_table_bytes_free(&b);
	ti.size = 0;
	ok(wc_table_bytes_init(&b, &ti) == -1 && strstr(b.err, "0 bytes"),
	   "size 0 refused (%s)", b.err);
	ti.size = WORMCAST_TABLE_MAX_BYTES + 1;
	ok(wc_table_bytes_init(&b, &ti) == -1 && !b.buf,
	   "size over WORMCAST_TABLE_MAX_BYTES refused (%s)", b.err);
}

static void test_fabric_tables(void)
{
	struct wc_fabric_info f;
	char *s;

	make_fabric(&f, "wc");
	f.has_table_gen = true;
	f.table_gen = 3;
	f.ntables = 1;
	f.tables[0] = (struct wc_table_info){ WORMCAST_TABLE_TREES, 3, 32 };
	s = render(false, false, false, 0, &f);
	ok(strstr(s, " queue_len 111 multicast ") &&
	   strstr(s, "\n    table_gen 3\n    table trees gen 3 size 32\n    node 0 "),
	   "fabric show text: table_gen and a line per table");
	free(s);
	s = render(true, false, false, 0, &f);
	ok(json_valid(s) &&
	   strstr(s, "},\"table_gen\":3,\"tables\":[{\"kind\":\"trees\",\"gen\":3,\"size\":32}],"
		     "\"node_devices\":["),
	   "fabric show JSON: table_gen and tables");
	free(s);
	f.table_gen = 0;
	f.ntables = 0;
	s = render(true, false, false, 0, &f);
	ok(json_valid(s) && strstr(s, "\"table_gen\":0,\"tables\":[],"),
	   "fabric show JSON: no table yet");
	free(s);
	wc_fabric_free(&f);
}

int main(void)
{
	test_plan_otms_budget();
	test_plan_words();
	test_plan_whole_block();
	test_plan_exit_codes();
	test_plan_unicast_bcast();
	test_escape();
	test_writer();
	test_show();
	test_show_links();
	test_names();
	test_args();
	test_fault_args();
	test_table_decode();
	test_labels_decode();
	test_bcast_decode();
	test_ftmesh_decode();
	test_table_bytes();
	test_fabric_tables();
	return done_testing();
}
