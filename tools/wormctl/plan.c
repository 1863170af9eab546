// SPDX-License-Identifier: GPL-2.0
/*
 * wormctl plan: the offline planners, tried in turn until one knows the
 * words (no netlink here, so that tests/unit/test_wormctl.c runs it).
 *
 * Every planner reads "TOPOLOGY SIZE STRUCTURE [OPTIONS]": when none takes
 * the words, the message names the one that is wrong, the topology if no
 * planner knows it, else the structure.
 */
#include <stdio.h>
#include <string.h>

#include "wormctl.h"

static int (*const planners[])(int, char **, const struct wormctl_opts *) = {
	plan_trees,
	plan_paths,
	plan_faults,
	plan_dcf,
};

static const char *const topologies[] = { "mesh", "torus", "hypercube", "star" };

int wormctl_plan(int argc, char **argv, const struct wormctl_opts *o)
{
	bool known = false;
	size_t i;
	int r;

	if (argc < 1) {
		fprintf(stderr,
			"wormctl: plan: which topology? See Documentation/tools.rst\n");
		return WORMCTL_EXIT_USAGE;
	}
	for (i = 0; i < sizeof(planners) / sizeof(planners[0]); i++) {
		r = planners[i](argc, argv, o);
		if (r != -1)
			return r;
	}
	for (i = 0; i < sizeof(topologies) / sizeof(topologies[0]); i++)
		known |= !strcmp(argv[0], topologies[i]);
	if (!known)
		fprintf(stderr, "wormctl: plan: unknown topology \"%s\" "
			"(mesh, torus, hypercube or star)\n", argv[0]);
	else if (argc < 3)
		fprintf(stderr, "wormctl: plan %s: which %s? See "
			"Documentation/tools.rst\n", argv[0],
			argc < 2 ? "size and structure" : "structure");
	else
		fprintf(stderr, "wormctl: plan %s: unknown structure \"%s\" "
			"(see Documentation/tools.rst)\n", argv[0], argv[2]);
	return WORMCTL_EXIT_USAGE;
}
