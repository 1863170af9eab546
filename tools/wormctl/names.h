/* SPDX-License-Identifier: GPL-2.0 */
/* wormctl: names of the uapi counters and engine statistics. */
#ifndef WORMCTL_NAMES_H
#define WORMCTL_NAMES_H

#include <linux/wormcast.h>

/* wc_counter_names[], shared with the kernel's ethtool -S */
#include "counter_names.h"

/* Indexed by enum wormcast_engine_stat; NULL for UNSPEC and PAD. */
extern const char *const wc_engine_stat_names[__WORMCAST_ENG_MAX];

#endif /* WORMCTL_NAMES_H */
