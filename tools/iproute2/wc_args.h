/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Command-line arguments of "ip link add ... type wormcast": parsing and
 * validation without iproute2, so that the unit tests can run them.  The
 * plugin (link_wormcast.c) turns the result into IFLA_WORMCAST_* attributes.
 */
#ifndef WC_ARGS_H
#define WC_ARGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <net/if.h>

#include "topology.h"
#include "../common/wc_params.h"
#include "../common/wc_util.h"

struct wc_link_args {
	uint32_t topology;		/* enum wormcast_topology, 0 = not given */
	uint32_t ndims;
	uint32_t dims[WC_MAX_DIMS];
	const char *dims_word;		/* "dims", "dim" or "n": how they came */
	const char *nodename;		/* printf pattern, NULL = kernel default */
	bool set[WC_NPARAMS];		/* wc_params[i] given */
	uint32_t val[WC_NPARAMS];
	uint32_t nnodes;		/* of the validated topology */
};

/*
 * Parse the words after "type wormcast".  Returns 0, 1 if "help" was
 * asked for, or -1 with a message in @err (no trailing newline).
 */
int wc_link_args_parse(int argc, char **argv, struct wc_link_args *a,
		       char *err, size_t errlen);

/* "8", "8x8", "4x4x4": 1 to WC_MAX_DIMS sizes.  0 or -1. */
int wc_parse_dims(const char *s, uint32_t *dims, uint32_t *ndims);

/*
 * A node name pattern: exactly one "%d", no other '%', and the name of the
 * node with the largest id (@max_id) must be a valid interface name.
 * 0, or -1 with a reason in @err.
 */
int wc_check_nodename(const char *pattern, uint32_t max_id, char *err,
		      size_t errlen);

/* The usage text of "ip link help wormcast". */
extern const char wc_link_usage[];

#endif /* WC_ARGS_H */
