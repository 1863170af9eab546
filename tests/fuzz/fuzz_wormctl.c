// SPDX-License-Identifier: GPL-2.0
/*
 * wormctl's argument parsers: the command line (tools/wormctl/args.c) fed
 * argv made from the fuzz input (NUL-separated words, at most 24, after
 * "wormctl"), with an error buffer of any size; and the number, size and
 * coordinate parsers of "wormctl plan" (tools/wormctl/plan_common.c) fed
 * every word, against strtoull-based references.
 *
 * Checked: a refusal leaves a terminated message; an acceptance names a
 * command with a valid device name, and written back in canonical form
 * the command line parses to the same result.
 */
#include <errno.h>

#include "fuzz.h"
#include "../../tools/wormctl/args.c"
#include "../../tools/wormctl/plan_common.c"

#define MAX_WORDS	24

/* ---------------------------------------------------- the command line */

static void check_accepted(const struct wormctl_cmdline *c, int argc,
			   char **argv)
{
	switch (c->cmd) {
	case WCMD_HELP:
	case WCMD_VERSION:
		return;
	case WCMD_FABRIC_SHOW:
	case WCMD_FABRIC_SET:
	case WCMD_STATS:
	case WCMD_TABLE_SHOW:
	case WCMD_GROUP_SHOW:
		FUZZ_CHECK(c->dev || c->cmd == WCMD_FABRIC_SHOW, "no device");
		if (c->dev)
			FUZZ_CHECK(*c->dev && strlen(c->dev) < IFNAMSIZ,
				   "device \"%s\"", c->dev);
		FUZZ_CHECK(c->cmd != WCMD_FABRIC_SET ||
			   c->set_cycle_ns || c->set_watchdog ||
			   c->set_multicast || c->set_fault_info ||
			   c->set_send_ovh || c->set_recv_ovh,
			   "fabric set with nothing to set");
		FUZZ_CHECK(!c->set_multicast ||
			   c->multicast <= WORMCAST_MCAST_MAX,
			   "multicast %u", c->multicast);
		FUZZ_CHECK(!c->set_fault_info ||
			   wc_fault_info_name(c->fault_info),
			   "fault-info %u", c->fault_info);
		FUZZ_CHECK(!c->set_watchdog || c->watchdog >= 1, "watchdog 0");
		FUZZ_CHECK(c->cmd != WCMD_STATS || c->node == SHOW_ALL_NODES ||
			   c->node == SHOW_NO_NODES ||
			   (c->node >= 0 && c->node <= UINT32_MAX),
			   "node %lld", (long long)c->node);
		return;
	case WCMD_PLAN:
		FUZZ_CHECK(c->plan_argc >= 0 && c->plan_argv + c->plan_argc ==
			   argv + argc, "plan words");
		return;
	case WCMD_FAULT_CHANGE:
	case WCMD_FAULT_SHOW:
	case WCMD_FAULT_RANDOM:
		FUZZ_CHECK(c->dev && *c->dev && strlen(c->dev) < IFNAMSIZ,
			   "fault without a device");
		FUZZ_CHECK(c->cmd != WCMD_FAULT_CHANGE || c->fault_node ||
			   c->fault_a != c->fault_b, "link %u %u", c->fault_a,
			   c->fault_b);
		FUZZ_CHECK(c->cmd != WCMD_FAULT_RANDOM ||
			   (c->mtbf_ms >= 1 && c->mtbf_ms <= WC_FAULT_RANDOM_MAX_MS &&
			    c->mttr_ms >= 1 && c->mttr_ms <= WC_FAULT_RANDOM_MAX_MS &&
			    c->duration_s >= 1 &&
			    c->duration_s <= WC_FAULT_RANDOM_MAX_S &&
			    c->seed <= UINT32_MAX &&
			    c->fault_kinds >= WC_FAULTS_LINKS &&
			    c->fault_kinds <= WC_FAULTS_ANY),
			   "fault random parameters");
		return;
	case WCMD_MONITOR:
		FUZZ_CHECK(!c->dev, "monitor with a device");
		return;
	}
	FUZZ_CHECK(0, "command %d", (int)c->cmd);
}

static void check_round_trip(const struct wormctl_cmdline *c)
{
	char *argv[8 + MAX_WORDS], cyc[12], wd[12], node[24], err[256];
	char fa[12], fb[12], mtbf[12], mttr[12], dur[12], seed[24];
	char sovh[12], rovh[12];
	static const char *const kinds[] = { "", "link", "node", "any" };
	struct wormctl_cmdline d;
	int argc = 0, i;

	argv[argc++] = "wormctl";
	if (c->opts.json)
		argv[argc++] = "-j";
	if (c->opts.pretty)
		argv[argc++] = "--pretty";
	if (c->opts.verbose)
		argv[argc++] = "-v";
	switch (c->cmd) {
	case WCMD_HELP:
	case WCMD_VERSION:
		return;
	case WCMD_TABLE_SHOW:
		argv[argc++] = "table";
		argv[argc++] = "show";
		argv[argc++] = (char *)c->dev;
		break;
	case WCMD_GROUP_SHOW:
		argv[argc++] = "group";
		argv[argc++] = "show";
		argv[argc++] = (char *)c->dev;
		break;
	case WCMD_FABRIC_SHOW:
		argv[argc++] = "fabric";
		argv[argc++] = "show";
		if (c->dev)
			argv[argc++] = (char *)c->dev;
		break;
	case WCMD_FABRIC_SET:
		argv[argc++] = "fabric";
		argv[argc++] = "set";
		argv[argc++] = (char *)c->dev;
		if (c->set_watchdog) {
			snprintf(wd, sizeof(wd), "%u", c->watchdog);
			argv[argc++] = "watchdog";
			argv[argc++] = wd;
		}
		if (c->set_cycle_ns) {
			snprintf(cyc, sizeof(cyc), "%u", c->cycle_ns);
			argv[argc++] = "cycle_ns";
			argv[argc++] = cyc;
		}
		if (c->set_multicast) {
			argv[argc++] = "multicast";
			argv[argc++] = (char *)wc_mcast_scheme_name(c->multicast);
		}
		if (c->set_fault_info) {
			argv[argc++] = "fault-info";
			argv[argc++] = (char *)wc_fault_info_name(c->fault_info);
		}
		if (c->set_send_ovh) {
			snprintf(sovh, sizeof(sovh), "%u", c->send_ovh);
			argv[argc++] = "send_ovh";
			argv[argc++] = sovh;
		}
		if (c->set_recv_ovh) {
			snprintf(rovh, sizeof(rovh), "%u", c->recv_ovh);
			argv[argc++] = "recv_ovh";
			argv[argc++] = rovh;
		}
		break;
	case WCMD_STATS:
		argv[argc++] = "stats";
		argv[argc++] = "show";
		argv[argc++] = (char *)c->dev;
		if (c->links)
			argv[argc++] = "--links";
		if (c->node == SHOW_NO_NODES) {
			argv[argc++] = "total";
		} else if (c->node != SHOW_ALL_NODES) {
			snprintf(node, sizeof(node), "%lld", (long long)c->node);
			argv[argc++] = "node";
			argv[argc++] = node;
		}
		break;
	case WCMD_PLAN:
		argv[argc++] = "plan";
		for (i = 0; i < c->plan_argc; i++)
			argv[argc++] = c->plan_argv[i];
		break;
	case WCMD_FAULT_CHANGE:
		argv[argc++] = "fault";
		argv[argc++] = c->fault_del ? "del" : "add";
		argv[argc++] = (char *)c->dev;
		snprintf(fa, sizeof(fa), "%u", c->fault_a);
		snprintf(fb, sizeof(fb), "%u", c->fault_b);
		argv[argc++] = c->fault_node ? "node" : "link";
		argv[argc++] = fa;
		if (!c->fault_node)
			argv[argc++] = fb;
		break;
	case WCMD_FAULT_SHOW:
		argv[argc++] = "fault";
		argv[argc++] = "show";
		argv[argc++] = (char *)c->dev;
		break;
	case WCMD_FAULT_RANDOM:
		argv[argc++] = "fault";
		argv[argc++] = "random";
		argv[argc++] = (char *)c->dev;
		snprintf(mtbf, sizeof(mtbf), "%u", c->mtbf_ms);
		snprintf(mttr, sizeof(mttr), "%u", c->mttr_ms);
		snprintf(dur, sizeof(dur), "%u", c->duration_s);
		snprintf(seed, sizeof(seed), "%llu", (unsigned long long)c->seed);
		argv[argc++] = "--mttr";
		argv[argc++] = mttr;
		argv[argc++] = "--kind";
		argv[argc++] = (char *)kinds[c->fault_kinds & 3];
		argv[argc++] = "--seed";
		argv[argc++] = seed;
		argv[argc++] = "--duration";
		argv[argc++] = dur;
		argv[argc++] = "--mtbf";
		argv[argc++] = mtbf;
		break;
	case WCMD_MONITOR:
		argv[argc++] = "monitor";
		break;
	}
	FUZZ_CHECK(!wormctl_parse_cmdline(argc, argv, &d, err, sizeof(err)),
		   "canonical form refused: %s", err);
	FUZZ_CHECK(d.cmd == c->cmd && d.opts.json == c->opts.json &&
		   d.opts.pretty == c->opts.pretty &&
		   d.opts.verbose == c->opts.verbose && !d.dev == !c->dev &&
		   (!d.dev || !strcmp(d.dev, c->dev)) &&
		   d.set_cycle_ns == c->set_cycle_ns &&
		   d.cycle_ns == c->cycle_ns &&
		   d.set_watchdog == c->set_watchdog &&
		   d.watchdog == c->watchdog &&
		   d.set_multicast == c->set_multicast &&
		   d.multicast == c->multicast &&
		   d.set_fault_info == c->set_fault_info &&
		   d.fault_info == c->fault_info &&
		   d.set_send_ovh == c->set_send_ovh &&
		   d.send_ovh == c->send_ovh &&
		   d.set_recv_ovh == c->set_recv_ovh &&
		   d.recv_ovh == c->recv_ovh && d.node == c->node &&
		   d.links == c->links &&
		   d.fault_del == c->fault_del &&
		   d.fault_node == c->fault_node && d.fault_a == c->fault_a &&
		   d.fault_b == c->fault_b && d.mtbf_ms == c->mtbf_ms &&
		   d.mttr_ms == c->mttr_ms && d.duration_s == c->duration_s &&
		   d.seed == c->seed && d.fault_kinds == c->fault_kinds &&
		   d.plan_argc == c->plan_argc,
		   "canonical form parses differently");
	for (i = 0; i < c->plan_argc; i++)
		FUZZ_CHECK(!strcmp(d.plan_argv[i], c->plan_argv[i]),
			   "plan word %d", i);
}

/* ---------------------------------------------------- plan's parsers */

/* Reference: @len digits (leading zeros allowed), strtoull, at most @max. */
static int ref_u64(const char *s, size_t len, u64 max, u64 *v)
{
	unsigned long long x;
	char buf[32], *end;
	size_t i;

	if (!len)
		return -1;
	for (i = 0; i < len; i++)
		if (s[i] < '0' || s[i] > '9')
			return -1;
	while (len > 1 && *s == '0') {
		s++;
		len--;
	}
	if (len >= sizeof(buf))
		return -1;	/* more than 20 significant digits */
	memcpy(buf, s, len);
	buf[len] = '\0';
	errno = 0;
	x = strtoull(buf, &end, 10);
	if (errno || *end || x > max)
		return -1;
	*v = x;
	return 0;
}

static void check_plan_word(struct fz *f, const char *w)
{
	u64 max64 = fz_u8(f) & 1 ? UINT64_MAX : fz_pick(f, 100);
	u32 max32 = fz_pick(f, 100), dims[3], rdims[3], node, maxd;
	u64 v = 0, rv = 0;
	u32 v32 = 0;
	const char *p, *end;
	int n, rn, ret;

	ret = plan_parse_u64(w, max64, &v);
	rn = ref_u64(w, strlen(w), max64, &rv);
	FUZZ_CHECK(ret == rn && (ret || v == rv),
		   "u64 \"%s\" max %llu: %d %llu, reference %d %llu", w,
		   (unsigned long long)max64, ret, (unsigned long long)v, rn,
		   (unsigned long long)rv);
	ret = plan_parse_u32(w, max32, &v32);
	rn = ref_u64(w, strlen(w), max32, &rv);
	FUZZ_CHECK(ret == rn && (ret || v32 == rv), "u32 \"%s\" max %u", w,
		   max32);

	/* Sizes: 'x'-separated numbers, each checked by the reference. */
	maxd = 1 + fz_u8(f) % 3;
	n = plan_parse_dims(w, dims, maxd, max32);
	for (rn = 0, p = w; rn <= (int)maxd; rn++) {
		size_t len = strcspn(p, "x");

		if (rn == (int)maxd || ref_u64(p, len, max32, &rv)) {
			rn = -1;
			break;
		}
		rdims[rn] = (u32)rv;
		p += len;
		if (!*p) {
			rn++;
			break;
		}
		p++;
	}
	FUZZ_CHECK(n == rn && (n < 0 || !memcmp(dims, rdims, n * sizeof(u32))),
		   "dims \"%s\" (at most %u of %u): %d, reference %d", w, maxd,
		   max32, n, rn);

	/* Coordinates: the prefix consumed must be what the reference reads. */
	dims[0] = fz_pick(f, 8);
	dims[1] = fz_pick(f, 8);
	dims[2] = fz_pick(f, 8);
	maxd = 1 + fz_u8(f) % 3;
	end = plan_scan_coords(w, maxd, dims, &node);
	if (end) {
		u32 i, id = 0, scale = 1;

		for (i = 0, p = w; i < maxd; i++) {
			size_t len = strspn(p, "0123456789");

			FUZZ_CHECK(!ref_u64(p, len, dims[i] - 1, &rv),
				   "coords \"%s\": coordinate %u", w, i);
			id += (u32)rv * scale;
			scale *= dims[i];
			p += len;
			if (i + 1 < maxd) {
				FUZZ_CHECK(*p == ',', "coords \"%s\"", w);
				p++;
			}
		}
		FUZZ_CHECK(p == end && id == node, "coords \"%s\": node %u, want %u",
			   w, node, id);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz f = { data, size }, nums;
	struct wormctl_cmdline c;
	size_t errlen = fz_u8(&f);
	size_t nnum = fz_u8(&f);
	char **argv, *err;
	int argc, ret, i;

	/* Bounds for plan's parsers come first, the words after them. */
	if (nnum > f.n)
		nnum = f.n;
	nums = (struct fz){ f.p, nnum };
	f.p += nnum;
	f.n -= nnum;
	argv = fz_argv(&f, "wormctl", MAX_WORDS, &argc);
	err = fz_errbuf(errlen);
	ret = wormctl_parse_cmdline(argc, argv, &c, err, errlen);
	FUZZ_CHECK(ret == 0 || ret == -1, "returned %d", ret);
	if (ret) {
		fz_check_errmsg(err, errlen, fz_argv_has_nl(argv, argc));
	} else {
		check_accepted(&c, argc, argv);
		check_round_trip(&c);
	}
	for (i = 1; i < argc; i++)
		check_plan_word(&nums, argv[i]);
	free(err);
	fz_argv_free(argv, argc);
	return 0;
}
