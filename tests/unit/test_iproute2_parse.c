// SPDX-License-Identifier: GPL-2.0
/*
 * Argument parsing of the iproute2 plugin (tools/iproute2/wc_args.c),
 * compiled into this test: numbers, dims, node name patterns, every
 * topology and engine parameter, and the parameter table against the uapi.
 */
#include <stdio.h>
#include <string.h>

#include "tap.h"
#include "../../tools/iproute2/wc_args.c"

#define ARGV(...) ((char *[]){ __VA_ARGS__ })
#define NARGS(...) ((int)(sizeof((char *[]){ __VA_ARGS__ }) / sizeof(char *)))
#define PARSE(a, err, ...) \
	wc_link_args_parse(NARGS(__VA_ARGS__), ARGV(__VA_ARGS__), (a), (err), \
			   sizeof(err))

static void test_u32(void)
{
	static const char *const bad[] = {
		"", "-1", "+1", " 1", "1 ", "1a", "0x10", "4294967296",
		"99999999999999999999", "1.0",
	};
	static const uint32_t samples[] = {
		0, 1, 9, 10, 99, 100, 65535, 65536, 2147483647u, 2147483648u,
		4294967294u, 4294967295u,
	};
	char buf[16];
	uint32_t v, i;
	int bad_ok = 1, rt_ok = 1;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		v = 12345;
		if (!wc_parse_u32(bad[i], &v) || v != 12345) {
			diag("accepted \"%s\"", bad[i]);
			bad_ok = 0;
		}
	}
	ok(bad_ok, "u32: malformed numbers refused, output untouched");
	ok(wc_parse_u32(NULL, &v) == -1, "u32: NULL refused");
	for (i = 0; i < ARRAY_SIZE(samples); i++) {
		snprintf(buf, sizeof(buf), "%u", samples[i]);
		if (wc_parse_u32(buf, &v) || v != samples[i])
			rt_ok = 0;
	}
	/* Every value with 1 to 5 digits, and leading zeros. */
	for (i = 0; i < 100000; i += 7) {
		snprintf(buf, sizeof(buf), "%05u", i);
		if (wc_parse_u32(buf, &v) || v != i)
			rt_ok = 0;
	}
	ok(rt_ok, "u32: decimal round trip, boundaries included");
}

static void test_dims(void)
{
	static const char *const bad[] = {
		"", "x", "x4", "4x", "4xx4", "4x4x4x4", "4X4", "4,4", "4 x4",
		"-4", "4x-4", "4x4x", "99999999999x2",
	};
	static const uint32_t sizes[] = { 0, 1, 2, 3, 8, 10, 16, 255, 4096,
					  4294967295u };
	uint32_t dims[WC_MAX_DIMS], want[WC_MAX_DIMS], n, nd, i, j, k;
	char buf[64];
	int bad_ok = 1, rt_ok = 1, len_ok = 1;
	int len;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		if (!wc_parse_dims(bad[i], dims, &n)) {
			diag("accepted \"%s\"", bad[i]);
			bad_ok = 0;
		}
	}
	ok(bad_ok, "dims: malformed lists refused");

	/* Every 1-, 2- and 3-dimensional combination of the sample sizes. */
	for (nd = 1; nd <= WC_MAX_DIMS; nd++) {
		uint32_t combos = 1, c;

		for (k = 0; k < nd; k++)
			combos *= ARRAY_SIZE(sizes);
		for (c = 0; c < combos; c++) {
			uint32_t rest = c;

			for (k = 0; k < nd; k++) {
				want[k] = sizes[rest % ARRAY_SIZE(sizes)];
				rest /= ARRAY_SIZE(sizes);
			}
			len = wc_format_u32_list(buf, sizeof(buf), want, nd,
						 'x');
			if (len != (int)strlen(buf))
				len_ok = 0;
			if (wc_parse_dims(buf, dims, &n) || n != nd) {
				rt_ok = 0;
				continue;
			}
			for (j = 0; j < nd; j++)
				if (dims[j] != want[j])
					rt_ok = 0;
		}
	}
	ok(rt_ok, "dims: format/parse round trip of every combination");
	ok(len_ok, "format: return value is the string length");

	want[0] = 123;
	want[1] = 45;
	want[2] = 6;
	len = wc_format_u32_list(buf, 5, want, 3, ',');
	is_int(len, 8, "format: truncated output reports the full length");
	ok(!strcmp(buf, "123,"), "format: truncated output NUL-terminated (\"%s\")",
	   buf);
	len = wc_format_u32_list(buf, sizeof(buf), want, 0, ',');
	ok(len == 0 && buf[0] == '\0', "format: empty list");
}

static void test_nodename(void)
{
	char err[256];

	ok(!wc_check_nodename("wc%d", 63, err, sizeof(err)), "nodename wc%%d");
	ok(!wc_check_nodename("%d", 5039, err, sizeof(err)), "nodename %%d");
	ok(!wc_check_nodename("n%d-x", 0, err, sizeof(err)),
	   "nodename with text after %%d");
	ok(wc_check_nodename("wc", 3, err, sizeof(err)) && *err,
	   "nodename without %%d refused: %s", err);
	ok(wc_check_nodename("a%db%d", 3, err, sizeof(err)) && *err,
	   "nodename with two %%d refused: %s", err);
	ok(wc_check_nodename("a%s", 3, err, sizeof(err)) && *err,
	   "nodename with %%s refused: %s", err);
	ok(wc_check_nodename("a%%%d", 3, err, sizeof(err)),
	   "nodename with %%%% refused");
	ok(wc_check_nodename("a%", 3, err, sizeof(err)),
	   "nodename ending in %% refused");
	ok(wc_check_nodename("a/%d", 3, err, sizeof(err)) &&
	   wc_check_nodename("a:%d", 3, err, sizeof(err)) &&
	   wc_check_nodename("a %d", 3, err, sizeof(err)),
	   "nodename with '/', ':' or blank refused");
	/* IFNAMSIZ is 16: names of at most 15 characters. */
	ok(!wc_check_nodename("abcdefghijkl%d", 999, err, sizeof(err)),
	   "nodename giving 15 characters accepted");
	ok(wc_check_nodename("abcdefghijkl%d", 1000, err, sizeof(err)),
	   "nodename giving 16 characters refused: %s", err);
	/* The pattern itself travels as a string of at most 15 characters. */
	ok(!wc_check_nodename("abcdefghijklm%d", 9, err, sizeof(err)),
	   "15-character pattern accepted");
	ok(wc_check_nodename("abcdefghijklmn%d", 3, err, sizeof(err)) &&
	   strstr(err, "longer"), "16-character pattern refused: %s", err);
}

/* Node counts from the definitions, not from the topology code. */
static uint32_t factorial(uint32_t n)
{
	return n <= 1 ? 1 : n * factorial(n - 1);
}

static void test_topologies(void)
{
	struct wc_link_args a;
	char err[256];
	uint32_t n;
	int r, good;

	r = PARSE(&a, err, "topology", "torus", "dims", "4x4");
	ok(r == 0 && a.topology == WORMCAST_TOPO_TORUS && a.ndims == 2 &&
	   a.dims[0] == 4 && a.dims[1] == 4 && a.nnodes == 16,
	   "torus 4x4: 16 nodes");
	r = PARSE(&a, err, "dims", "8", "topology", "mesh");
	ok(r == 0 && a.topology == WORMCAST_TOPO_MESH && a.ndims == 1 &&
	   a.nnodes == 8, "mesh 8, dims before topology");
	r = PARSE(&a, err, "topology", "mesh", "dims", "4x4x4");
	ok(r == 0 && a.ndims == 3 && a.nnodes == 64, "mesh 4x4x4: 64 nodes");
	r = PARSE(&a, err, "topology", "mesh", "dims", "3x5x2");
	ok(r == 0 && a.nnodes == 30, "mesh 3x5x2: 30 nodes");

	good = 1;
	for (n = 1; n <= WC_MAX_HYPERCUBE_DIM; n++) {
		char num[8];

		snprintf(num, sizeof(num), "%u", n);
		r = PARSE(&a, err, "topology", "hypercube", "dim", num);
		if (r || a.topology != WORMCAST_TOPO_HYPERCUBE ||
		    a.ndims != 1 || a.dims[0] != n || a.nnodes != 1u << n)
			good = 0;
	}
	ok(good, "hypercube dim 1..%d: 2^N nodes", WC_MAX_HYPERCUBE_DIM);
	good = 1;
	for (n = WC_MIN_STAR_N; n <= WC_MAX_STAR_N; n++) {
		char num[8];

		snprintf(num, sizeof(num), "%u", n);
		r = PARSE(&a, err, "topology", "star", "n", num);
		if (r || a.topology != WORMCAST_TOPO_STAR || a.dims[0] != n ||
		    a.nnodes != factorial(n))
			good = 0;
	}
	ok(good, "star n 2..7: n! nodes");

	ok(PARSE(&a, err, "topology", "star", "n", "8") < 0 && *err,
	   "star n 8 refused: %s", err);
	ok(PARSE(&a, err, "topology", "star", "n", "1") < 0,
	   "star n 1 refused");
	ok(PARSE(&a, err, "topology", "hypercube", "dim", "0") < 0,
	   "hypercube dim 0 refused: %s", err);
	ok(PARSE(&a, err, "topology", "hypercube", "dim", "13") < 0,
	   "hypercube dim 13 refused");
	ok(PARSE(&a, err, "topology", "mesh", "dims", "1x4") < 0,
	   "mesh with a size-1 dimension refused: %s", err);
	ok(PARSE(&a, err, "topology", "torus", "dims", "100x100") < 0,
	   "torus 100x100 (10000 nodes) refused: %s", err);
	ok(PARSE(&a, err, "topology", "ring", "dims", "4") < 0 &&
	   strstr(err, "ring"), "unknown topology refused: %s", err);
	ok(PARSE(&a, err, "dims", "4x4") < 0 && strstr(err, "topology"),
	   "missing topology refused: %s", err);
	ok(PARSE(&a, err, "topology", "torus") < 0 && strstr(err, "dims"),
	   "torus without dims refused: %s", err);
	ok(PARSE(&a, err, "topology", "hypercube", "dims", "4") < 0 &&
	   strstr(err, "\"dim\""), "hypercube with dims refused: %s", err);
	ok(PARSE(&a, err, "topology", "star", "dim", "4") < 0 &&
	   strstr(err, "\"n\""), "star with dim refused: %s", err);
	ok(PARSE(&a, err, "topology", "mesh", "n", "4") < 0,
	   "mesh with n refused: %s", err);
	ok(PARSE(&a, err, "topology", "mesh", "dims", "4", "dims", "4") < 0,
	   "dims twice refused: %s", err);
	ok(PARSE(&a, err, "topology", "mesh", "topology", "mesh", "dims",
		 "4") < 0, "topology twice refused: %s", err);
	ok(PARSE(&a, err, "topology", "mesh", "dims") < 0 &&
	   strstr(err, "argument"), "missing value refused: %s", err);
	ok(PARSE(&a, err, "topology", "mesh", "dims", "4", "colour",
		 "red") < 0 && strstr(err, "colour"),
	   "unknown word refused: %s", err);
	ok(PARSE(&a, err, "topology", "mesh", "dims", "4", "help") == 1,
	   "help asked for");
	ok(wc_link_args_parse(0, NULL, &a, err, sizeof(err)) < 0,
	   "no argument at all refused: %s", err);
}

static void test_nodename_args(void)
{
	struct wc_link_args a;
	char err[256];

	ok(PARSE(&a, err, "topology", "torus", "dims", "8x8", "nodename",
		 "wcn%d") == 0 && !strcmp(a.nodename, "wcn%d"),
	   "nodename accepted");
	/* 12 characters + up to 4 digits (5039) = 16: too long for star 7. */
	ok(PARSE(&a, err, "topology", "star", "n", "7", "nodename",
		 "abcdefghijkl%d") < 0, "nodename too long for 5040 nodes: %s",
	   err);
	ok(PARSE(&a, err, "topology", "star", "n", "6", "nodename",
		 "abcdefghijkl%d") == 0, "same nodename fits 720 nodes");
	ok(PARSE(&a, err, "topology", "star", "n", "6", "nodename",
		 "x", "nodename", "y%d") < 0, "nodename twice refused");
}

static void test_params(void)
{
	struct wc_link_args a;
	char err[256];
	char *argv[6 + 2 * WC_NPARAMS];
	char vals[WC_NPARAMS][16];
	size_t i, j;
	int good = 1, r;

	/* Every parameter alone: stored, and only it. */
	for (i = 0; i < WC_NPARAMS; i++) {
		const char *v = wc_param_is_keyword(&wc_params[i]) ?
			wc_param_value_name(&wc_params[i], 1) : "7";

		r = PARSE(&a, err, "topology", "mesh", "dims", "4x4",
			  (char *)wc_params[i].name, (char *)v);
		if (r) {
			diag("%s: %s", wc_params[i].name, err);
			good = 0;
			continue;
		}
		for (j = 0; j < WC_NPARAMS; j++)
			if (a.set[j] != (i == j))
				good = 0;
		if (a.val[i] != (wc_param_is_keyword(&wc_params[i]) ? 1u : 7u))
			good = 0;
	}
	ok(good, "each of the %zu parameters parsed alone", WC_NPARAMS);

	/* All together, with distinct values. */
	argv[0] = "topology";
	argv[1] = "hypercube";
	argv[2] = "dim";
	argv[3] = "4";
	for (i = 0; i < WC_NPARAMS; i++) {
		snprintf(vals[i], sizeof(vals[i]), "%zu", 100 + i);
		argv[4 + 2 * i] = (char *)wc_params[i].name;
		argv[5 + 2 * i] = wc_param_is_keyword(&wc_params[i]) ?
			(char *)wc_param_value_name(&wc_params[i], 0) : vals[i];
	}
	r = wc_link_args_parse(4 + 2 * (int)WC_NPARAMS, argv, &a, err,
			       sizeof(err));
	good = r == 0;
	for (i = 0; good && i < WC_NPARAMS; i++)
		good = a.set[i] &&
		       a.val[i] == (wc_param_is_keyword(&wc_params[i]) ?
				    0 : 100 + i);
	ok(good, "all parameters together");

	ok(PARSE(&a, err, "topology", "mesh", "dims", "4", "vcs", "2", "vcs",
		 "2") < 0, "parameter twice refused: %s", err);
	ok(PARSE(&a, err, "topology", "mesh", "dims", "4", "vcs", "two") < 0 &&
	   strstr(err, "two"), "non-numeric parameter refused: %s", err);
	ok(PARSE(&a, err, "topology", "mesh", "dims", "4", "flit_bytes",
		 "0") < 0, "flit_bytes 0 refused: %s", err);
	ok(PARSE(&a, err, "topology", "mesh", "dims", "4", "cycle_ns",
		 "0") == 0, "cycle_ns 0 (virtual time) accepted");
	ok(PARSE(&a, err, "topology", "mesh", "dims", "4", "link_delay",
		 "0") < 0, "link_delay 0 refused: %s", err);
	ok(PARSE(&a, err, "topology", "mesh", "dims", "4", "router_delay",
		 "0") == 0, "router_delay 0 accepted");
	ok(PARSE(&a, err, "topology", "mesh", "dims", "4", "replication",
		 "sync") < 0, "unknown replication refused: %s", err);
	ok(PARSE(&a, err, "topology", "mesh", "dims", "4", "watchdog",
		 "4294967296") < 0, "u32 overflow refused: %s", err);
}

/* The shared table against the uapi: same order, every attribute once. */
static void test_table(void)
{
	int seen_ifla[IFLA_WORMCAST_MAX + 1] = { 0 };
	int seen_param[WORMCAST_PARAM_MAX + 1] = { 0 };
	size_t i;
	int good = 1, a;

	for (i = 0; i < WC_NPARAMS; i++) {
		/*
		 * Parameter attributes: IFLA_WORMCAST_FLIT_BYTES to QUEUE_LEN
		 * in step with WORMCAST_PARAM_FLIT_BYTES to QUEUE_LEN, and
		 * IFLA_WORMCAST_MULTICAST to the last (added after the
		 * read-only ones: FAULT_INFO, SEND_OVH, RECV_OVH) in step
		 * with WORMCAST_PARAM_MULTICAST to the last.
		 */
		bool late = wc_params[i].ifla >= IFLA_WORMCAST_MULTICAST &&
			    wc_params[i].ifla <= IFLA_WORMCAST_MAX;

		if ((!late &&
		     (wc_params[i].ifla < IFLA_WORMCAST_FLIT_BYTES ||
		      wc_params[i].ifla > IFLA_WORMCAST_QUEUE_LEN)) ||
		    wc_params[i].param < 1 ||
		    wc_params[i].param > WORMCAST_PARAM_MAX) {
			good = 0;
			continue;
		}
		seen_ifla[wc_params[i].ifla]++;
		seen_param[wc_params[i].param]++;
		/* The two enums list the parameters in the same order. */
		if (late ? wc_params[i].ifla - IFLA_WORMCAST_MULTICAST !=
			   wc_params[i].param - WORMCAST_PARAM_MULTICAST :
		    wc_params[i].ifla - IFLA_WORMCAST_FLIT_BYTES !=
		    wc_params[i].param - WORMCAST_PARAM_FLIT_BYTES)
			good = 0;
		/* ... and the table lists them in the PARAM order. */
		if (wc_params[i].param != i + 1)
			good = 0;
		if (wc_param_by_name(wc_params[i].name) != &wc_params[i])
			good = 0;
		if (!strstr(wc_link_usage, wc_params[i].name))
			good = 0;
	}
	for (a = IFLA_WORMCAST_FLIT_BYTES; a <= IFLA_WORMCAST_QUEUE_LEN; a++)
		if (seen_ifla[a] != 1)
			good = 0;
	for (a = IFLA_WORMCAST_MULTICAST; a <= IFLA_WORMCAST_MAX; a++)
		if (seen_ifla[a] != 1)
			good = 0;
	for (a = 1; a <= WORMCAST_PARAM_MAX; a++)
		if (seen_param[a] != 1)
			good = 0;
	ok(good, "parameter table covers every IFLA/PARAM attribute once, in step, documented in the usage");
	ok(wc_params[WORMCAST_PARAM_REPLICATION - 1].is_u8 &&
	   !strcmp(wc_repl_name(WORMCAST_REPL_ASYNC), "async") &&
	   !strcmp(wc_repl_name(WORMCAST_REPL_LOCKSTEP), "lockstep") &&
	   !wc_repl_name(7), "replication names");
	{
		const struct wc_param_desc *d = wc_param_by_name("multicast");
		struct wc_link_args ma;
		char merr[256];
		uint32_t s, v;
		int mgood = d && wc_param_is_keyword(d) && !d->is_u8;

		for (s = 0; mgood && s <= WORMCAST_MCAST_MAX; s++)
			mgood = !wc_param_value_parse(d, wc_mcast_scheme_name(s), &v) &&
				v == s && strstr(wc_link_usage, wc_mcast_scheme_name(s)) &&
				strstr(wc_param_keywords(d), wc_mcast_scheme_name(s)) &&
				strstr(d->help, wc_mcast_scheme_name(s));
		ok(mgood, "multicast: every scheme by its name, named in the usage, the keywords and the help");
		ok(PARSE(&ma, merr, "topology", "torus", "dims", "8x8", "multicast",
			 "dstm-1") == 0 && ma.set[d - wc_params] &&
		   ma.val[d - wc_params] == WORMCAST_MCAST_DSTM1,
		   "multicast dstm-1 accepted");
		ok(PARSE(&ma, merr, "topology", "torus", "dims", "8x8", "multicast",
			 "dstm3") < 0 && strstr(merr, "dstm3") && strstr(merr, "dstm-2"),
		   "unknown multicast scheme refused: %s", merr);
		ok(PARSE(&ma, merr, "topology", "torus", "dims", "8x8", "multicast",
			 "2") < 0, "multicast takes a word, not a number: %s", merr);
	}
	{
		const struct wc_param_desc *d = wc_param_by_name("fault-info");
		struct wc_link_args fa;
		char ferr[256];

		ok(d && wc_param_is_keyword(d) && wc_param_is_u8(d) &&
		   !strcmp(wc_param_value_name(d, WORMCAST_FAULT_INFO_LOCAL),
			   "local") &&
		   !strcmp(wc_param_value_name(d, WORMCAST_FAULT_INFO_GLOBAL),
			   "global") && !wc_param_value_name(d, 2),
		   "fault-info: a u8 keyword, global and local by name");
		ok(d && PARSE(&fa, ferr, "topology", "torus", "dims", "4x4",
			      "multicast", "dstm-1", "fault-info", "local") == 0 &&
		   fa.set[d - wc_params] &&
		   fa.val[d - wc_params] == WORMCAST_FAULT_INFO_LOCAL,
		   "fault-info local accepted");
		ok(PARSE(&fa, ferr, "topology", "torus", "dims", "4x4",
			 "fault-info", "nearby") < 0 && strstr(ferr, "nearby") &&
		   strstr(ferr, "global or local"),
		   "unknown fault-info refused: %s", ferr);
	}
}

int main(void)
{
	test_u32();
	test_dims();
	test_nodename();
	test_topologies();
	test_nodename_args();
	test_params();
	test_table();
	return done_testing();
}
