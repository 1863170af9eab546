/* SPDX-License-Identifier: GPL-2.0 */
/* wormctl: commands that talk to the kernel (fabric.c). */
#ifndef WORMCTL_COMMANDS_H
#define WORMCTL_COMMANDS_H

#include "args.h"

/* Each returns the process exit status. */
int cmd_fabric_show(const struct wormctl_cmdline *c);
int cmd_fabric_set(const struct wormctl_cmdline *c);
int cmd_stats(const struct wormctl_cmdline *c);
int cmd_table_show(const struct wormctl_cmdline *c);
int cmd_fault_change(const struct wormctl_cmdline *c);
int cmd_fault_show(const struct wormctl_cmdline *c);
int cmd_fault_random(const struct wormctl_cmdline *c);
int cmd_monitor(const struct wormctl_cmdline *c);
int cmd_group_show(const struct wormctl_cmdline *c);

#endif /* WORMCTL_COMMANDS_H */
