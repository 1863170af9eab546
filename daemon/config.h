/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wormcastd.conf: "key = value" lines, '#' comments, blank lines, and
 * "[fabric PATTERN]" sections whose keys apply to the fabrics whose device
 * name matches PATTERN (fnmatch(3); the first matching section wins, keys
 * it does not set come from the global part).  Documentation/tools.rst.
 *
 *   global only:  poll_interval = SECONDS (0 = off; default 5)
 *                 retries = N (transactions per sync, 1..100; default 3)
 *                 plans_eager_max = PAIRS (ocms/otms: plan every source
 *                 while nodes x receivers stays within; default 5000)
 *   anywhere:     rt_pair = average | balanced | best | path | worst
 *                 seed = N (u64; also ftmesh's Strategy 1 bits),
 *                 trials = N (1..100000)
 *                 ftmesh_strategy = 1 | 2 | 3 (default 2; 3: plans)
 *                 ftmesh_detour = on | off | auto (default auto: on when
 *                 the fabric has at least 8 virtual channels)
 *
 * Every line is validated; an unknown key, a repeated key in a section, a
 * bad value or a malformed line is an error "FILE:LINE: message".
 */
#ifndef WCD_CONFIG_H
#define WCD_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "trees_table.h"

#define WCD_DEFAULT_CONFIG	"/etc/wormcast/wormcastd.conf"
#define WCD_DEFAULT_POLL	5
#define WCD_DEFAULT_RETRIES	3
#define WCD_DEFAULT_PLANS_EAGER_MAX	5000
#define WCD_MAX_PATTERN		64

/* ftmesh tables (ftm_table.h): how the routers decide, and the fallback. */
enum wcd_ftm_detour {
	WCD_FTM_DETOUR_OFF,
	WCD_FTM_DETOUR_ON,
	WCD_FTM_DETOUR_AUTO,	/* on with >= WC_FTM_DETOUR_VCS VCs */
};

#define WCD_DEFAULT_FTM_STRATEGY	2

struct wcd_ftm_opts {
	uint32_t strategy;	/* 1 or 2 */
	uint32_t detour;	/* enum wcd_ftm_detour */
};

struct wcd_section {
	char pattern[WCD_MAX_PATTERN];
	unsigned int line;
	bool has_pair, has_seed, has_trials, has_ftm_strategy, has_ftm_detour;
	struct wc_trees_opts o;
	struct wcd_ftm_opts ftm;
};

struct wcd_config {
	struct wc_trees_opts global;
	struct wcd_ftm_opts ftm_global;
	uint32_t poll_interval;		/* seconds, 0 = no polling */
	uint32_t retries;
	uint32_t plans_eager_max;	/* (source, receiver) pairs */
	struct wcd_section *sec;
	size_t nsec;
};

void wcd_config_init(struct wcd_config *c);
void wcd_config_free(struct wcd_config *c);

/*
 * Parse @text (from @fname, for messages) into @c (initialised here).
 * 0, or -1 with "FILE:LINE: message" in @err; @c is then freed.
 */
int wcd_config_parse(struct wcd_config *c, const char *text, const char *fname,
		     char *err, size_t errlen);

/*
 * Read and parse @path.  A missing file is an error only if @must_exist
 * (then *@missing is set and @c holds the defaults).
 */
int wcd_config_load(struct wcd_config *c, const char *path, bool must_exist,
		    bool *missing, char *err, size_t errlen);

/*
 * The options of fabric @name (@ftm may be NULL); @section gets the
 * matching pattern or NULL.
 */
void wcd_config_opts(const struct wcd_config *c, const char *name,
		     struct wc_trees_opts *o, struct wcd_ftm_opts *ftm,
		     const char **section);

/* "on", "off" or "auto". */
const char *wcd_ftm_detour_name(uint32_t detour);

/* Whether ftmesh tables of a fabric with @vcs VCs ask for the detour (0/1). */
uint32_t wcd_ftm_detour_on(const struct wcd_ftm_opts *o, uint32_t vcs);

#endif /* WCD_CONFIG_H */
