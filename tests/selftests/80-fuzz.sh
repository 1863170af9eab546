#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Seeded fuzzing of the module's kernel interfaces (nlfuzz.py): rtnetlink
# (RTM_NEWLINK of kind wormcast with random and malformed IFLA_INFO_DATA,
# SETLINK/DELLINK, namespace moves and deaths, MTU and name changes under
# traffic), the "wormcast" generic netlink family (every command, doit and
# dump, random attributes, abandoned dumps, hostile FABRIC_SET values,
# concurrent creation and deletion) and raw AF_PACKET frames into node
# devices.  Every rejection must carry an extack message (documented core
# exemptions aside).  Then the module must still be healthy: a fabric
# created through the plugin carries a ping, no wormcast device is left,
# the module unloads and loads again.  The harness fails the run on any
# kernel splat; this script also names one that appeared while it ran.
#
# Environment: WC_FUZZ_SEED (printed; reproduces a run), WC_FUZZ_COUNT
# (netlink operations, default 1500), WC_FUZZ_MAX_NODES (8),
# WC_FUZZ_PHASES (all); tests/vm/run.sh passes them into the guest.
. "$(dirname "$0")/lib.sh"

module=${WC_MODULE:-$WC_ROOT/wormcast.ko}

SPLAT='BUG:|WARNING:|Oops|KASAN|UBSAN|lockdep|circular locking|recursive locking|inconsistent lock state|suspicious RCU usage|sleeping function called|ODEBUG|list_(add|del) corruption|general protection|Call Trace|Kernel panic|blocked for more than|unregister_netdevice: waiting'
dmesg_before=$(dmesg | wc -l)

run_tap_py python3 "$(dirname "$0")/nlfuzz.py"

new=$(dmesg | tail -n +"$((dmesg_before + 1))")
splat=$(echo "$new" | grep -E "$SPLAT" | head -n 5)
if [ -n "$splat" ]; then
	not_ok "no kernel splat while fuzzing" "$splat"
else
	ok "no kernel splat while fuzzing"
fi
# A deadlock report or a routing error is a bug too: the built-in routing
# is deadlock-free and every fabric the fuzzer builds is valid.
odd=$(echo "$new" | grep -E 'wormcast: .*(deadlock watchdog fired|routing error)' | head -n 3)
if [ -n "$odd" ]; then
	not_ok "no deadlock report or routing error" "$odd"
else
	ok "no deadlock report or routing error"
fi

# Still healthy (nlfuzz.py's last phases checked that UDP crosses a new
# fabric between namespaces and that no wormcast device is left): the
# module unloads, and loads again for what follows.
if rmmod wormcast 2>"$WC_TMP/rmmod.err"; then
	ok "after fuzzing: the module unloads"
	check "after fuzzing: the module loads again" insmod "$module"
else
	not_ok "after fuzzing: the module unloads" "$(cat "$WC_TMP/rmmod.err")" \
		"$(cat /proc/modules | grep wormcast)"
fi

done_testing
