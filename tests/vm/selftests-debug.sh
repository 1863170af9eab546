#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The VM selftests under a debug kernel: builds (or takes from the cache)
# the KASAN + lockdep kernel of tests/vm/debug-kernel.sh, builds wormcast.ko
# against it in build/debug-kmod/ (the work tree's wormcast.ko is left
# alone), boots it and runs tests/selftests/NN-*.sh as tests/vm/selftests.sh
# does.  Prints TAP and exits non-zero on any failure, and on any KASAN,
# lockdep, RCU or sleeping-in-atomic report (the kernel log check of
# tests/vm/run.sh).  Needs wormctl and link_wormcast.so from "make".
#
# Environment: as tests/vm/run.sh (WC_SELFTESTS, WC_VM_KEEP, ...), plus
#   WC_DEBUG_KMOD     where to build the debug module (default build/debug-kmod)
# Defaults differ for the slower debug guest: WC_VM_MEM 2048 MiB,
# WC_SELFTESTS_SKIP (below), WC_KERNEL_ARGS kmemleak=off (set them empty to
# run everything with kmemleak on).
set -eu

WC_ROOT=$(cd "$(dirname "$0")/../.." && pwd)
build=${WC_BUILD:-$WC_ROOT/build}
case "$build" in /*) ;; *) build="$WC_ROOT/$build" ;; esac
kmod=${WC_DEBUG_KMOD:-$WC_ROOT/build/debug-kmod}
case "$kmod" in /*) ;; *) kmod="$WC_ROOT/$kmod" ;; esac

fail() {
	echo "1..1"
	echo "not ok 1 - $*"
	exit 1
}

missing=""
for f in "$build/link_wormcast.so" "$build/wormctl"; do
	[ -f "$f" ] || missing="$missing $f"
done
[ -z "$missing" ] || fail "VM selftests need a build: missing$missing (run 'make')"

# Line 1: the kernel build directory; line 2: the module.
out=$("$WC_ROOT/tests/vm/debug-kernel.sh" --module "$kmod" </dev/null) ||
	fail "debug kernel or debug wormcast.ko does not build (see above)"
kbuild=$(echo "$out" | sed -n 1p)
module=$(echo "$out" | sed -n 2p)

# What runs here (Documentation/testing.rst, "Time budget"): the selftests
# of the glue, where KASAN and lockdep find what the engine's KUnit suites
# (run under this kernel too) cannot: device and fabric lifecycle,
# netlink input and refusals, table transactions, ethtool, capture, faults
# under traffic, broadcast relays, paced mode, the CLI's dumps, namespaces
# and user namespaces, netlink fuzzing, stress and rmmod, and one
# multicast test through sockets (46-schemes on dstm-1: spam's trees go
# through the same glue, and run under Debian's kernel).  Shorter there:
# 57-fault-stress's traffic, 10 s per fabric instead of 20.  Left to
# Debian's kernel: the selftests whose extra code here would be the
# engine's schemes (30, 40, 42, 47, 50, 51, 53, 54, 56, 59, 61: the same
# glue as 46 and 52 with other tables), and 86-cycles, whose slab check
# means nothing under KASAN's quarantine.  kmemleak is off (it slows every
# allocation by half again); the KUnit run looks with it.
export WC_MEMBERSHIP_SIDE="${WC_MEMBERSHIP_SIDE-16}"
export WC_SCHEMES="${WC_SCHEMES-dstm-1}"
export WC_FAULT_STRESS_SECONDS="${WC_FAULT_STRESS_SECONDS-10}"
export WC_LABEL_SCHEMES="${WC_LABEL_SCHEMES-dual-path}"
WC_KERNEL="$kbuild/arch/x86/boot/bzImage" WC_MODULE="$module" \
WC_VM_MEM=${WC_VM_MEM:-2048} \
WC_SELFTESTS_SKIP=${WC_SELFTESTS_SKIP-30,40,42,47,50,51,53,54,56,59,61,86} \
WC_KERNEL_ARGS=${WC_KERNEL_ARGS-kmemleak=off} \
	exec "$WC_ROOT/tests/vm/run.sh" selftests </dev/null
