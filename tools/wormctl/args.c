// SPDX-License-Identifier: GPL-2.0
/* wormctl: command-line parsing (see args.h). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <net/if.h>

#include "../common/wc_params.h"
#include "../common/wc_util.h"
#include "args.h"
#include "fabric.h"

const char wormctl_usage[] =
	"Usage: wormctl [ OPTIONS ] COMMAND\n"
	"\n"
	"COMMAND := { fabric [ show ] [ DEV ] |\n"
	"             fabric set DEV { cycle_ns N | watchdog N |\n"
	"                              multicast SCHEME |\n"
	"                              fault-info { global | local } |\n"
	"                              send_ovh N | recv_ovh N } ... |\n"
	"             stats DEV [ node N | total | --links ] |\n"
	"             table [ show ] DEV |\n"
	"             group [ show ] DEV |\n"
	"             plan STRUCTURE ... |\n"
	"             fault { add | del } DEV { link A B | node N } |\n"
	"             fault [ show ] DEV |\n"
	"             fault random DEV --mtbf MS --mttr MS [ --seed S ]\n"
	"                          [ --duration S ] [ --kind link|node|any ] |\n"
	"             monitor |\n"
	"             help }\n"
	"OPTIONS := { -j[son] | -p[retty] | -v[erbose] | -V[ersion] | -h[elp] }\n"
	"\n"
	"  fabric show   topology, engine parameters and node devices of every\n"
	"                fabric in this network namespace, or of DEV\n"
	"  fabric set    change runtime parameters (needs CAP_NET_ADMIN):\n"
	"                cycle_ns (0 = virtual time), watchdog (cycles) and\n"
	"                multicast (unicast, spam, dstm-1, dstm-2, rt,\n"
	"                hamiltonian, dual-path, multipath, star-tree, ocms,\n"
	"                otms, multiphase, dcf, edn, ftmesh); fault-info\n"
	"                global|local\n"
	"                (what the sources of a two-tree scheme know of live\n"
	"                faults); send_ovh and recv_ovh (cycles a node spends\n"
	"                per send, and a relay per reception)\n"
	"  stats         engine statistics and counters, in total and per node;\n"
	"                --links: busy and blocked cycles of every link\n"
	"  table show    the routing tables installed on DEV's fabric, decoded\n"
	"                (-v: every node's parent port in every tree)\n"
	"  group show    the multicast groups of DEV's fabric, each with the\n"
	"                nodes a frame to it reaches (ocms/otms plan for these)\n"
	"  plan          offline: compute and show routing structures\n"
	"                (no kernel needed; see Documentation/tools.rst)\n"
	"  fault         fail (add) or repair (del) a link or a node of a\n"
	"                running fabric (needs CAP_NET_ADMIN), list the faults,\n"
	"                or run a seeded random fault process (exponential\n"
	"                times to failure and to repair, in milliseconds)\n"
	"  monitor       print the wormcast events (fabrics, tables, faults, groups)\n"
	"  -j, -p        JSON output (an array of objects, as ip -j), indented\n";

static bool is_help(const char *s)
{
	return !strcmp(s, "help") || !strcmp(s, "-h") || !strcmp(s, "--help");
}

static int check_dev(const char *dev, char *err, size_t errlen)
{
	if (!*dev || strlen(dev) >= IFNAMSIZ)
		return wc_fail(err, errlen,
			    "\"%s\" is not a valid device name", dev);
	return 0;
}

/* Short options may be grouped: -jp. */
static int parse_option(const char *arg, struct wormctl_cmdline *c,
			char *err, size_t errlen)
{
	const char *p;

	if (!strcmp(arg, "--json") || !strcmp(arg, "-json")) {
		c->opts.json = true;
		return 0;
	}
	if (!strcmp(arg, "--pretty") || !strcmp(arg, "-pretty")) {
		c->opts.pretty = true;
		return 0;
	}
	if (!strcmp(arg, "--verbose") || !strcmp(arg, "-verbose")) {
		c->opts.verbose = true;
		return 0;
	}
	if (!strcmp(arg, "--version") || !strcmp(arg, "-Version")) {
		c->cmd = WCMD_VERSION;
		return 0;
	}
	if (!strcmp(arg, "--help") || !strcmp(arg, "-help")) {
		if (c->cmd != WCMD_VERSION)
			c->cmd = WCMD_HELP;
		return 0;
	}
	if (arg[0] != '-' || arg[1] == '-' || !arg[1])
		return wc_fail(err, errlen, "unknown option \"%s\"", arg);
	for (p = arg + 1; *p; p++) {
		switch (*p) {
		case 'j':
			c->opts.json = true;
			break;
		case 'p':
			c->opts.pretty = true;
			break;
		case 'v':
			c->opts.verbose = true;
			break;
		case 'V':
			c->cmd = WCMD_VERSION;
			break;
		case 'h':
			if (c->cmd != WCMD_VERSION)
				c->cmd = WCMD_HELP;
			break;
		default:
			return wc_fail(err, errlen, "unknown option \"-%c\"", *p);
		}
	}
	return 0;
}

static int parse_fabric_set(int argc, char **argv, struct wormctl_cmdline *c,
			    char *err, size_t errlen)
{
	const struct wc_param_desc *d;
	uint32_t *val;
	bool *set;
	int i;

	if (argc < 1)
		return wc_fail(err, errlen, "fabric set: DEV is missing");
	c->dev = argv[0];
	if (check_dev(c->dev, err, errlen))
		return -1;
	if (argc < 2)
		return wc_fail(err, errlen,
			    "fabric set: nothing to set (cycle_ns N, watchdog N, multicast SCHEME, fault-info global|local, send_ovh N, recv_ovh N)");
	for (i = 1; i < argc; i += 2) {
		if (!strcmp(argv[i], "cycle_ns")) {
			set = &c->set_cycle_ns;
			val = &c->cycle_ns;
		} else if (!strcmp(argv[i], "watchdog")) {
			set = &c->set_watchdog;
			val = &c->watchdog;
		} else if (!strcmp(argv[i], "multicast")) {
			set = &c->set_multicast;
			val = &c->multicast;
		} else if (!strcmp(argv[i], "fault-info")) {
			set = &c->set_fault_info;
			val = &c->fault_info;
		} else if (!strcmp(argv[i], "send_ovh")) {
			set = &c->set_send_ovh;
			val = &c->send_ovh;
		} else if (!strcmp(argv[i], "recv_ovh")) {
			set = &c->set_recv_ovh;
			val = &c->recv_ovh;
		} else {
			return wc_fail(err, errlen,
				    "fabric set: \"%s\" is not a runtime parameter (cycle_ns, watchdog, multicast, fault-info, send_ovh, recv_ovh)",
				    argv[i]);
		}
		if (*set)
			return wc_fail(err, errlen, "fabric set: \"%s\" given twice",
				    argv[i]);
		if (i + 1 >= argc)
			return wc_fail(err, errlen, "fabric set: \"%s\" needs a value",
				    argv[i]);
		d = wc_param_by_name(argv[i]);
		if (d && wc_param_is_keyword(d)) {
			if (wc_param_value_parse(d, argv[i + 1], val))
				return wc_fail(err, errlen,
					    "fabric set: invalid %s \"%s\": expected %s",
					    argv[i], argv[i + 1], wc_param_keywords(d));
		} else if (wc_parse_u32(argv[i + 1], val))
			return wc_fail(err, errlen,
				    "fabric set: invalid %s \"%s\": expected a decimal number",
				    argv[i], argv[i + 1]);
		if (d && *val < d->min)
			return wc_fail(err, errlen,
				    "fabric set: %s must be at least %u",
				    argv[i], d->min);
		*set = true;
	}
	return 0;
}

static int parse_fabric(int argc, char **argv, struct wormctl_cmdline *c,
			char *err, size_t errlen)
{
	c->cmd = WCMD_FABRIC_SHOW;
	if (argc > 0 && is_help(argv[0])) {
		c->cmd = WCMD_HELP;
		return 0;
	}
	if (argc > 0 && !strcmp(argv[0], "set")) {
		c->cmd = WCMD_FABRIC_SET;
		return parse_fabric_set(argc - 1, argv + 1, c, err, errlen);
	}
	if (argc > 0 && (!strcmp(argv[0], "show") || !strcmp(argv[0], "list"))) {
		argc--;
		argv++;
	}
	if (argc > 1)
		return wc_fail(err, errlen, "fabric show: unexpected \"%s\"",
			    argv[1]);
	if (argc == 1) {
		c->dev = argv[0];
		return check_dev(c->dev, err, errlen);
	}
	return 0;
}

/*
 * "help" as the first word makes the command help (returns true);
 * otherwise an optional "show" word is skipped.
 */
static bool help_or_skip_show(int *argc, char ***argv,
			      struct wormctl_cmdline *c)
{
	if (*argc > 0 && is_help((*argv)[0])) {
		c->cmd = WCMD_HELP;
		return true;
	}
	if (*argc > 0 && !strcmp((*argv)[0], "show")) {
		(*argc)--;
		(*argv)++;
	}
	return false;
}

/*
 * stats [ show ] DEV [ node N | total | --links ]; --links and the
 * options (-j, -p) may also come after the words.  argv is not modified.
 */
static int parse_stats(int argc, char **argv, struct wormctl_cmdline *c,
		       char *err, size_t errlen)
{
	char *words[4];
	uint32_t node;
	int i, j = 0;

	c->cmd = WCMD_STATS;
	c->node = SHOW_ALL_NODES;
	if (help_or_skip_show(&argc, &argv, c))
		return 0;
	/* the words in order, without --links and the options */
	for (i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--links")) {
			c->links = true;
			continue;
		}
		if (argv[i][0] == '-' && argv[i][1] && j > 0) {
			if (parse_option(argv[i], c, err, errlen))
				return -1;
			if (c->cmd != WCMD_STATS)
				return wc_fail(err, errlen,
					    "stats: unexpected \"%s\"", argv[i]);
			continue;
		}
		if (j == 4)
			return wc_fail(err, errlen,
				    "stats: unexpected \"%s\"", argv[i]);
		words[j++] = argv[i];
	}
	argc = j;
	argv = words;
	if (c->links && argc > 1)
		return wc_fail(err, errlen,
			    "stats: --links shows every link: no \"%s\"",
			    argv[1]);
	if (argc < 1)
		return wc_fail(err, errlen, "stats: DEV is missing");
	c->dev = argv[0];
	if (check_dev(c->dev, err, errlen))
		return -1;
	if (argc == 1)
		return 0;
	if (!strcmp(argv[1], "total") && argc == 2) {
		c->node = SHOW_NO_NODES;
		return 0;
	}
	if (!strcmp(argv[1], "node") && argc == 3) {
		if (wc_parse_u32(argv[2], &node))
			return wc_fail(err, errlen,
				    "stats: invalid node \"%s\": expected a node id",
				    argv[2]);
		c->node = node;
		return 0;
	}
	return wc_fail(err, errlen,
		    "stats: unexpected \"%s\" (expected node N or total)",
		    argv[1]);
}

/*
 * table [ show ] DEV, group [ show ] DEV and fault [ show ] DEV (@cmd,
 * @what), options (-j, -p, -v) also after the words.
 */
static int parse_dev_show(int argc, char **argv, struct wormctl_cmdline *c,
			  enum wormctl_cmd cmd, const char *what,
			  char *err, size_t errlen)
{
	int i;

	c->cmd = cmd;
	if (help_or_skip_show(&argc, &argv, c))
		return 0;
	for (i = 0; i < argc; i++) {
		if (argv[i][0] == '-' && argv[i][1]) {
			if (parse_option(argv[i], c, err, errlen))
				return -1;
			if (c->cmd != cmd)
				return wc_fail(err, errlen,
					    "%s: unexpected \"%s\"", what,
					    argv[i]);
			continue;
		}
		if (c->dev)
			return wc_fail(err, errlen,
				    "%s: unexpected \"%s\"", what, argv[i]);
		c->dev = argv[i];
		if (check_dev(c->dev, err, errlen))
			return -1;
	}
	if (!c->dev)
		return wc_fail(err, errlen, "%s: DEV is missing", what);
	return 0;
}

/* A decimal u32 in [@min, @max] for "fault" option @name. */
static int fault_u32(const char *name, const char *s, uint32_t min,
		     uint32_t max, uint32_t *v, char *err, size_t errlen)
{
	if (!s)
		return wc_fail(err, errlen, "fault: %s needs a value", name);
	if (wc_parse_u32(s, v) || *v < min || *v > max)
		return wc_fail(err, errlen,
			    "fault: invalid %s \"%s\": expected %u to %u",
			    name, s, min, max);
	return 0;
}

/* fault add | del DEV { link A B | node N } */
static int parse_fault_change(int argc, char **argv,
			      struct wormctl_cmdline *c, char *err,
			      size_t errlen)
{
	const char *what = c->fault_del ? "fault del" : "fault add";

	c->cmd = WCMD_FAULT_CHANGE;
	if (argc < 1)
		return wc_fail(err, errlen, "%s: DEV is missing", what);
	c->dev = argv[0];
	if (check_dev(c->dev, err, errlen))
		return -1;
	if (argc >= 2 && !strcmp(argv[1], "node")) {
		if (argc != 3)
			return wc_fail(err, errlen, "%s: expected node N", what);
		c->fault_node = true;
		if (wc_parse_u32(argv[2], &c->fault_a))
			return wc_fail(err, errlen,
				    "%s: invalid node \"%s\": expected a node id",
				    what, argv[2]);
		return 0;
	}
	if (argc >= 2 && !strcmp(argv[1], "link")) {
		if (argc != 4)
			return wc_fail(err, errlen, "%s: expected link A B", what);
		if (wc_parse_u32(argv[2], &c->fault_a) ||
		    wc_parse_u32(argv[3], &c->fault_b))
			return wc_fail(err, errlen,
				    "%s: invalid link \"%s %s\": expected two node ids",
				    what, argv[2], argv[3]);
		if (c->fault_a == c->fault_b)
			return wc_fail(err, errlen,
				    "%s: a link joins two different nodes", what);
		return 0;
	}
	return wc_fail(err, errlen, "%s: expected link A B or node N", what);
}

/* fault random DEV --mtbf MS --mttr MS [--seed S] [--duration S] [--kind K] */
static int parse_fault_random(int argc, char **argv,
			      struct wormctl_cmdline *c, char *err,
			      size_t errlen)
{
	uint32_t seed;
	int i;

	c->cmd = WCMD_FAULT_RANDOM;
	c->seed = WC_FAULT_RANDOM_SEED;
	c->duration_s = WC_FAULT_RANDOM_DURATION;
	c->fault_kinds = WC_FAULTS_LINKS;
	if (argc < 1 || argv[0][0] == '-')
		return wc_fail(err, errlen, "fault random: DEV is missing");
	c->dev = argv[0];
	if (check_dev(c->dev, err, errlen))
		return -1;
	for (i = 1; i < argc; i += 2) {
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(argv[i], "--mtbf")) {
			if (fault_u32("--mtbf", v, 1, WC_FAULT_RANDOM_MAX_MS,
				      &c->mtbf_ms, err, errlen))
				return -1;
		} else if (!strcmp(argv[i], "--mttr")) {
			if (fault_u32("--mttr", v, 1, WC_FAULT_RANDOM_MAX_MS,
				      &c->mttr_ms, err, errlen))
				return -1;
		} else if (!strcmp(argv[i], "--duration")) {
			if (fault_u32("--duration", v, 1, WC_FAULT_RANDOM_MAX_S,
				      &c->duration_s, err, errlen))
				return -1;
		} else if (!strcmp(argv[i], "--seed")) {
			if (fault_u32("--seed", v, 0, UINT32_MAX, &seed, err,
				      errlen))
				return -1;
			c->seed = seed;
		} else if (!strcmp(argv[i], "--kind")) {
			if (v && !strcmp(v, "link"))
				c->fault_kinds = WC_FAULTS_LINKS;
			else if (v && !strcmp(v, "node"))
				c->fault_kinds = WC_FAULTS_NODES;
			else if (v && !strcmp(v, "any"))
				c->fault_kinds = WC_FAULTS_ANY;
			else
				return wc_fail(err, errlen,
					    "fault random: --kind is link, node or any");
		} else {
			return wc_fail(err, errlen,
				    "fault random: unexpected \"%s\"", argv[i]);
		}
	}
	if (!c->mtbf_ms || !c->mttr_ms)
		return wc_fail(err, errlen,
			    "fault random: --mtbf MS and --mttr MS are required");
	return 0;
}

/* fault ...: add, del, random, or [show] DEV with options after it. */
static int parse_fault(int argc, char **argv, struct wormctl_cmdline *c,
		       char *err, size_t errlen)
{
	if (argc > 0 && (!strcmp(argv[0], "add") || !strcmp(argv[0], "del"))) {
		c->fault_del = !strcmp(argv[0], "del");
		return parse_fault_change(argc - 1, argv + 1, c, err, errlen);
	}
	if (argc > 0 && !strcmp(argv[0], "random"))
		return parse_fault_random(argc - 1, argv + 1, c, err, errlen);
	return parse_dev_show(argc, argv, c, WCMD_FAULT_SHOW, "fault show",
			      err, errlen);
}

int wormctl_parse_cmdline(int argc, char **argv, struct wormctl_cmdline *c,
			  char *err, size_t errlen)
{
	const char *cmd;
	int i;

	memset(c, 0, sizeof(*c));
	c->cmd = WCMD_FABRIC_SHOW;	/* placeholder: no command yet */
	c->node = SHOW_ALL_NODES;
	if (errlen)
		err[0] = '\0';
	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "--")) {
			i++;
			break;
		}
		if (parse_option(argv[i], c, err, errlen))
			return -1;
	}
	/* -V and -h win over any command, as in ip. */
	if (c->cmd == WCMD_VERSION || c->cmd == WCMD_HELP)
		return 0;
	if (i >= argc)
		return wc_fail(err, errlen, "no command given");
	cmd = argv[i];
	argc -= i + 1;
	argv += i + 1;
	if (!strcmp(cmd, "help")) {
		c->cmd = WCMD_HELP;
		return 0;
	}
	if (!strcmp(cmd, "fabric"))
		return parse_fabric(argc, argv, c, err, errlen);
	if (!strcmp(cmd, "stats"))
		return parse_stats(argc, argv, c, err, errlen);
	if (!strcmp(cmd, "table"))
		return parse_dev_show(argc, argv, c, WCMD_TABLE_SHOW,
				      "table show", err, errlen);
	if (!strcmp(cmd, "group"))
		return parse_dev_show(argc, argv, c, WCMD_GROUP_SHOW,
				      "group show", err, errlen);
	if (!strcmp(cmd, "fault"))
		return parse_fault(argc, argv, c, err, errlen);
	if (!strcmp(cmd, "monitor")) {
		c->cmd = WCMD_MONITOR;
		if (argc > 0 && is_help(argv[0]))
			c->cmd = WCMD_HELP;
		else if (argc > 0)
			return wc_fail(err, errlen, "monitor: unexpected \"%s\"",
				    argv[0]);
		return 0;
	}
	if (!strcmp(cmd, "plan")) {
		c->cmd = WCMD_PLAN;
		c->plan_argc = argc;
		c->plan_argv = argv;
		return 0;
	}
	return wc_fail(err, errlen, "unknown command \"%s\"", cmd);
}
