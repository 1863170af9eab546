/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Names of the uapi counters (enum wormcast_counter): the one list, used by
 * the kernel ("ethtool -S" on a node) and by wormctl ("wormctl stats"), so
 * that both show a node's counters under the same names.  Lower case, the
 * enum name without its WORMCAST_CNT_ prefix.
 */
#ifndef WC_COUNTER_NAMES_H
#define WC_COUNTER_NAMES_H

#include "compat.h"
#include <linux/wormcast.h>

/* Indexed by enum wormcast_counter; NULL for UNSPEC and PAD. */
extern const char *const wc_counter_names[__WORMCAST_CNT_MAX];

#endif /* WC_COUNTER_NAMES_H */
