// SPDX-License-Identifier: GPL-2.0
/*
 * Arguments of "ip link add NAME type wormcast ...": see wc_args.h.
 * Only libc and the topology model: the unit test compiles this file in.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wc_args.h"

const char wc_link_usage[] =
	"Usage: ip link add NAME type wormcast TOPOLOGY [ nodename PATTERN ]\n"
	"                   [ flit_bytes N ] [ buf_flits N ] [ vcs N ]\n"
	"                   [ inj N ] [ cons N ] [ router_delay N ]\n"
	"                   [ link_delay N ] [ startup N ] [ cycle_ns N ]\n"
	"                   [ replication { lockstep | async } ]\n"
	"                   [ watchdog N ] [ queue_len N ]\n"
	"                   [ multicast SCHEME ] [ fault-info { global | local } ]\n"
	"                   [ send_ovh N ] [ recv_ovh N ]\n"
	"\n"
	"TOPOLOGY := { topology { mesh | torus } dims SIZES |\n"
	"              topology hypercube dim N | topology star n N }\n"
	"SIZES    := X | XxY | XxYxZ            (e.g. 8, 8x8, 4x4x4)\n"
	"SCHEME   := { unicast | spam | dstm-1 | dstm-2 | rt | hamiltonian |\n"
	"              dual-path | multipath | star-tree | ocms | otms |\n"
	"              multiphase | dcf | edn | ftmesh }\n"
	"PATTERN  := interface name of node devices with one %d for the node\n"
	"            id (default: NAMEn%d, NAME cut to 14 characters)\n"
	"\n"
	"Engine parameters (kernel defaults when omitted):\n"
	"  flit_bytes     bytes per flit\n"
	"  buf_flits      flits per virtual channel buffer\n"
	"  vcs            virtual channels per link\n"
	"  inj, cons      injection and consumption channels per node\n"
	"  router_delay   cycles to route a header\n"
	"  link_delay     cycles to cross a link\n"
	"  startup        cycles of startup cost per worm\n"
	"  cycle_ns       wall time of a cycle in ns, 0 = virtual time\n"
	"  replication    lockstep or async (input-buffer based)\n"
	"  watchdog       cycles without progress reported as a deadlock\n"
	"  queue_len      injection queue length of a node, frames\n"
	"  multicast      how multicast travels: unicast (one worm per member,\n"
	"                 the default), spam (one spanning tree), dstm-1,\n"
	"                 dstm-2, rt (two edge-disjoint trees), hamiltonian,\n"
	"                 dual-path, multipath (path worms along a Hamiltonian\n"
	"                 labeling), star-tree (tree worms along it), ocms,\n"
	"                 otms (optimal path worms planned by wormcastd per\n"
	"                 source and group, dual-path until then),\n"
	"                 multiphase (unicast worms, receivers send on),\n"
	"                 dcf, edn (broadcast by the schedule wormcastd\n"
	"                 installs, receivers send on; multicast as unicast),\n"
	"                 ftmesh (2-D meshes: minimal multicast around the\n"
	"                 faulty blocks wormcastd installs; vcs 4 or more,\n"
	"                 replication async);\n"
	"                 all but unicast and multiphase use the tables\n"
	"                 wormcastd installs\n"
	"  fault-info     what sources of a two-tree scheme know of live\n"
	"                 faults: global (the default: they avoid the faulty\n"
	"                 links wormcastd pushes) or local (they do not; the\n"
	"                 router before a failed link re-injects on the other\n"
	"                 tree)\n"
	"  send_ovh       cycles a node spends on each send (t_s, default 0)\n"
	"  recv_ovh       cycles a relay spends on a reception before it\n"
	"                 sends on (t_r, default 0)\n";

int wc_parse_dims(const char *s, uint32_t *dims, uint32_t *ndims)
{
	char word[16];
	const char *p = s;
	uint32_t n = 0;
	size_t len;

	if (!s || !*s)
		return -1;
	for (;;) {
		len = strcspn(p, "x");
		if (len == 0 || len >= sizeof(word) || n == WC_MAX_DIMS)
			return -1;
		memcpy(word, p, len);
		word[len] = '\0';
		if (wc_parse_u32(word, &dims[n]))
			return -1;
		n++;
		p += len;
		if (!*p)
			break;
		p++;		/* the 'x'; a trailing one leaves len == 0 */
	}
	*ndims = n;
	return 0;
}

int wc_check_nodename(const char *pattern, uint32_t max_id, char *err,
		      size_t errlen)
{
	const char *p;
	int nconv = 0;
	size_t len;
	char name[IFNAMSIZ + 16];

	/* The kernel's policy: the pattern itself is an interface name. */
	if (strlen(pattern) >= IFNAMSIZ)
		return wc_fail(err, errlen,
			    "nodename \"%s\" is longer than %d characters",
			    pattern, IFNAMSIZ - 1);
	for (p = pattern; *p; p++) {
		if (*p == '/' || *p == ':' || *p == ' ' || *p == '\t' ||
		    *p == '\n')
			return wc_fail(err, errlen,
				    "nodename \"%s\": '/', ':' and blanks are not allowed in interface names",
				    pattern);
		if (*p != '%')
			continue;
		if (p[1] != 'd')
			return wc_fail(err, errlen,
				    "nodename \"%s\": the only conversion allowed is one %%d",
				    pattern);
		nconv++;
		p++;
	}
	if (nconv != 1)
		return wc_fail(err, errlen,
			    "nodename \"%s\" must contain exactly one %%d", pattern);
	/* Longest name: the largest node id in place of %d. */
	len = strlen(pattern) - 2 + (size_t)snprintf(name, sizeof(name), "%u",
						       max_id);
	if (len >= IFNAMSIZ)
		return wc_fail(err, errlen,
			    "nodename \"%s\" gives names longer than %d characters",
			    pattern, IFNAMSIZ - 1);
	return 0;
}

/* Store a topology's size arguments, refusing a second set. */
static int set_dims(struct wc_link_args *a, const char *word, const char *arg,
		    char *err, size_t errlen)
{
	if (a->dims_word)
		return wc_fail(err, errlen, "\"%s\" given twice (already \"%s\")",
			    word, a->dims_word);
	if (!arg)
		return wc_fail(err, errlen, "\"%s\" needs an argument", word);
	if (!strcmp(word, "dims")) {
		if (wc_parse_dims(arg, a->dims, &a->ndims))
			return wc_fail(err, errlen,
				    "invalid dims \"%s\": expected X, XxY or XxYxZ with decimal sizes",
				    arg);
	} else {
		if (wc_parse_u32(arg, &a->dims[0]))
			return wc_fail(err, errlen,
				    "invalid \"%s\" value \"%s\": expected a decimal number",
				    word, arg);
		a->ndims = 1;
	}
	a->dims_word = word;
	return 0;
}

static int parse_topology(struct wc_link_args *a, const char *arg, char *err,
			  size_t errlen)
{
	uint32_t t;

	if (a->topology)
		return wc_fail(err, errlen, "\"topology\" given twice");
	if (!arg)
		return wc_fail(err, errlen, "\"topology\" needs an argument");
	for (t = WORMCAST_TOPO_MESH; t < __WORMCAST_TOPO_MAX; t++) {
		if (!strcmp(arg, wc_topo_kind_name(t))) {
			a->topology = t;
			return 0;
		}
	}
	return wc_fail(err, errlen,
		    "unknown topology \"%s\": expected mesh, torus, hypercube or star",
		    arg);
}

static int parse_param(struct wc_link_args *a, size_t i, const char *arg,
		       char *err, size_t errlen)
{
	const struct wc_param_desc *d = &wc_params[i];

	if (a->set[i])
		return wc_fail(err, errlen, "\"%s\" given twice", d->name);
	if (!arg)
		return wc_fail(err, errlen, "\"%s\" needs an argument", d->name);
	if (wc_param_is_keyword(d)) {
		if (wc_param_value_parse(d, arg, &a->val[i]))
			return wc_fail(err, errlen,
				    "invalid %s \"%s\": expected %s",
				    d->name, arg, wc_param_keywords(d));
	} else {
		if (wc_parse_u32(arg, &a->val[i]))
			return wc_fail(err, errlen,
				    "invalid %s \"%s\": expected a decimal number",
				    d->name, arg);
		if (a->val[i] < d->min)
			return wc_fail(err, errlen, "%s must be at least %u",
				    d->name, d->min);
	}
	a->set[i] = true;
	return 0;
}

/* The size word each topology takes. */
static const char *dims_word_of(uint32_t topology)
{
	switch (topology) {
	case WORMCAST_TOPO_HYPERCUBE:
		return "dim";
	case WORMCAST_TOPO_STAR:
		return "n";
	default:
		return "dims";
	}
}

/* Cross-argument checks, once every word is read. */
static int check_args(struct wc_link_args *a, char *err, size_t errlen)
{
	struct wc_topo topo;
	const char *why = NULL;
	const char *want;

	if (!a->topology)
		return wc_fail(err, errlen,
			    "\"topology\" is required (mesh, torus, hypercube or star)");
	want = dims_word_of(a->topology);
	if (!a->dims_word)
		return wc_fail(err, errlen, "topology %s needs \"%s\"",
			    wc_topo_kind_name(a->topology), want);
	if (strcmp(a->dims_word, want))
		return wc_fail(err, errlen,
			    "topology %s takes \"%s\", not \"%s\"",
			    wc_topo_kind_name(a->topology), want, a->dims_word);
	if (wc_topo_init(&topo, a->topology, a->ndims, a->dims, &why))
		return wc_fail(err, errlen, "topology %s: %s",
			    wc_topo_kind_name(a->topology), why);
	a->nnodes = topo.nnodes;
	if (a->nodename &&
	    wc_check_nodename(a->nodename, topo.nnodes - 1, err, errlen))
		return -1;
	return 0;
}

int wc_link_args_parse(int argc, char **argv, struct wc_link_args *a,
		       char *err, size_t errlen)
{
	const struct wc_param_desc *d;
	const char *word, *arg;
	int i;

	memset(a, 0, sizeof(*a));
	if (errlen)
		err[0] = '\0';
	for (i = 0; i < argc; i++) {
		word = argv[i];
		arg = i + 1 < argc ? argv[i + 1] : NULL;
		if (!strcmp(word, "help"))
			return 1;
		if (!strcmp(word, "topology")) {
			if (parse_topology(a, arg, err, errlen))
				return -1;
		} else if (!strcmp(word, "dims") || !strcmp(word, "dim") ||
			   !strcmp(word, "n")) {
			if (set_dims(a, word, arg, err, errlen))
				return -1;
		} else if (!strcmp(word, "nodename")) {
			if (a->nodename)
				return wc_fail(err, errlen,
					    "\"nodename\" given twice");
			if (!arg)
				return wc_fail(err, errlen,
					    "\"nodename\" needs an argument");
			a->nodename = arg;
		} else if ((d = wc_param_by_name(word))) {
			if (parse_param(a, (size_t)(d - wc_params), arg, err,
					errlen))
				return -1;
		} else {
			return wc_fail(err, errlen, "unknown argument \"%s\"",
				    word);
		}
		i++;	/* every keyword takes one argument */
	}
	return check_args(a, err, errlen);
}
