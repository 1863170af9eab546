/* SPDX-License-Identifier: GPL-2.0 */
/* wormctl: shared declarations between its subcommand files. */
#ifndef WORMCTL_H
#define WORMCTL_H

#include <stdbool.h>

/* Global options, set by main.c before a subcommand runs. */
struct wormctl_opts {
	bool json;	/* -j: JSON output in the style of ip -j */
	bool pretty;	/* -p: indented JSON */
	bool verbose;	/* -v: more detail (table show: every parent port) */
};

/*
 * Exit status, as Documentation/tools.rst gives it.  A usage error is
 * anything wrong with the command line itself, found before any work:
 * unknown words, malformed or out-of-range numbers, sizes, nodes and
 * lists, missing or conflicting options, and requests over a documented
 * limit (the OTMS budget).
 */
enum {
	WORMCTL_EXIT_OK = 0,
	WORMCTL_EXIT_ERROR = 1,	/* kernel refusal, I/O, memory, no solution */
	WORMCTL_EXIT_USAGE = 2,
};

/*
 * "wormctl plan ..." is offline (no kernel needed): it computes and shows
 * routing structures.  Each plan_* function looks at argv[0] (the topology
 * or structure word after "plan"); it returns -1 if the request is not one
 * it handles, else the process exit status.
 */
int plan_trees(int argc, char **argv, const struct wormctl_opts *o);	/* plan_trees.c */
int plan_paths(int argc, char **argv, const struct wormctl_opts *o);	/* plan_paths.c */
int plan_faults(int argc, char **argv, const struct wormctl_opts *o);	/* plan_faults.c */
int plan_dcf(int argc, char **argv, const struct wormctl_opts *o);	/* plan_dcf.c */

/*
 * "wormctl plan WORDS...": hands them to each planner in turn (plan.c);
 * returns the exit status, naming the wrong word when none takes them.
 */
int wormctl_plan(int argc, char **argv, const struct wormctl_opts *o);

#endif /* WORMCTL_H */
