/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Names of the multicast schemes (enum wormcast_mcast_scheme) and of the
 * Roskind-Tarjan tree pairs the daemon can install: the one place where
 * these words are defined.  wormcastd (configuration, logs), wormctl
 * ("fabric set DEV multicast SCHEME", displays), the iproute2 plugin
 * ("ip link add ... multicast SCHEME", "ip -d link show") and wormsim all
 * include this header.
 *
 * Header only (libc and uapi): the iproute2 plugin's parser is also
 * compiled alone into a fuzzer, without the library.
 */
#ifndef WC_MCAST_NAMES_H
#define WC_MCAST_NAMES_H

#include <stdint.h>
#include <string.h>
#include <linux/wormcast.h>

/* Indexed by enum wormcast_mcast_scheme. */
static const char *const wc_mcast_scheme_names[] = {
	[WORMCAST_MCAST_UNICAST] = "unicast",
	[WORMCAST_MCAST_SPAM] = "spam",
	[WORMCAST_MCAST_DSTM1] = "dstm-1",
	[WORMCAST_MCAST_DSTM2] = "dstm-2",
	[WORMCAST_MCAST_RT] = "rt",
	[WORMCAST_MCAST_HAMILTONIAN] = "hamiltonian",
	[WORMCAST_MCAST_DUAL_PATH] = "dual-path",
	[WORMCAST_MCAST_MULTIPATH] = "multipath",
	[WORMCAST_MCAST_STAR_TREE] = "star-tree",
	[WORMCAST_MCAST_OCMS] = "ocms",
	[WORMCAST_MCAST_OTMS] = "otms",
	[WORMCAST_MCAST_MULTIPHASE] = "multiphase",
	[WORMCAST_MCAST_DCF] = "dcf",
	[WORMCAST_MCAST_EDN] = "edn",
	[WORMCAST_MCAST_FTMESH] = "ftmesh",
};

_Static_assert(sizeof(wc_mcast_scheme_names) / sizeof(wc_mcast_scheme_names[0]) ==
	       __WORMCAST_MCAST_MAX, "every multicast scheme needs a name");

/* The scheme's name ("unicast", "dstm-1", ...), or NULL for a value no tool knows. */
static inline const char *wc_mcast_scheme_name(uint32_t scheme)
{
	if (scheme > WORMCAST_MCAST_MAX)
		return NULL;
	return wc_mcast_scheme_names[scheme];
}

/* 0 with *scheme set, or -1 for an unknown word.  Exact, case-sensitive. */
static inline int wc_mcast_scheme_parse(const char *s, uint32_t *scheme)
{
	uint32_t i;

	for (i = 0; i <= WORMCAST_MCAST_MAX; i++) {
		if (!strcmp(s, wc_mcast_scheme_names[i])) {
			*scheme = i;
			return 0;
		}
	}
	return -1;
}

/* Which pair of Roskind-Tarjan trees scheme "rt" gets (trees_table.h). */
enum wc_rt_pair {
	WC_RT_PAIR_AVERAGE,	/* balanced, CD and AD near the trials' means */
	WC_RT_PAIR_BEST,	/* balanced, small CD and AD */
	WC_RT_PAIR_PATH,	/* section 5.3's two Hamilton paths (worst) */
	WC_RT_NPAIRS,
};

static const char *const wc_rt_pair_names[] = {
	[WC_RT_PAIR_AVERAGE] = "average",
	[WC_RT_PAIR_BEST] = "best",
	[WC_RT_PAIR_PATH] = "path",
};

_Static_assert(sizeof(wc_rt_pair_names) / sizeof(wc_rt_pair_names[0]) ==
	       WC_RT_NPAIRS, "every RT pair needs a name");

static inline const char *wc_rt_pair_name(uint32_t pair)
{
	return pair < WC_RT_NPAIRS ? wc_rt_pair_names[pair] : NULL;
}

/*
 * "average" (alias "balanced"), "best", "path" (alias "worst", section 6's
 * DSTM-Tarjan(path)).  0 with *pair set, or -1.
 */
static inline int wc_rt_pair_parse(const char *s, uint32_t *pair)
{
	uint32_t i;

	for (i = 0; i < WC_RT_NPAIRS; i++) {
		if (!strcmp(s, wc_rt_pair_names[i])) {
			*pair = i;
			return 0;
		}
	}
	if (!strcmp(s, "balanced")) {
		*pair = WC_RT_PAIR_AVERAGE;
		return 0;
	}
	if (!strcmp(s, "worst")) {
		*pair = WC_RT_PAIR_PATH;
		return 0;
	}
	return -1;
}

#endif /* WC_MCAST_NAMES_H */
