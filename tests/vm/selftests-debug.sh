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
#   WC_DEBUG_PART     early or late: one of make check's two parts (below)
# Defaults differ for the slower debug guest: WC_VM_MEM 2048 MiB,
# WC_SELFTESTS_SKIP 42,50,53,54,59,61,86, WC_KERNEL_ARGS kmemleak=off (set them empty to
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

# make check runs this suite in two VMs (WC_DEBUG_PART=early, then
# tests/vm/selftests-debug-late.sh for WC_DEBUG_PART=late), the second on
# the core that Debian's selftests free, so that both cores stay busy to
# the end (Documentation/testing.rst, "Time budget").  Without
# WC_DEBUG_PART one VM runs them all; with WC_SELFTESTS set the early part
# runs those and the late part none.
late=58,85
late_skip=""
case "${WC_DEBUG_PART:-}" in
"") ;;
early) [ -n "${WC_SELFTESTS:-}" ] || late_skip=",$late" ;;
late)
	if [ -n "${WC_SELFTESTS:-}" ]; then
		echo "1..0 # SKIP WC_SELFTESTS is set: the early part runs them"
		exit 0
	fi
	export WC_SELFTESTS=$late
	;;
*) fail "WC_DEBUG_PART is '$WC_DEBUG_PART', not early or late" ;;
esac

# Line 1: the kernel build directory; line 2: the module.
out=$("$WC_ROOT/tests/vm/debug-kernel.sh" --module "$kmod" </dev/null) ||
	fail "debug kernel or debug wormcast.ko does not build (see above)"
kbuild=$(echo "$out" | sed -n 1p)
module=$(echo "$out" | sed -n 2p)

# Not under the debug kernel by default (Documentation/testing.rst, "Time
# budget"): 59-ftmesh, whose kernel code (the ftmesh table's validation,
# commit and routing) KUnit's wormcast_ftmesh runs under this kernel, and
# whose glue (table transactions, faults) 45, 52, 56 and 58 run here;
# 61-scheme-faults, whose kernel code (a link failing under a scheme's
# worms: absorbed, counted in fault_drops) KUnit's wormcast_faults and
# 52 and 57 run here, and whose table pushes 47, 51 and 56 do;
# 86-cycles, whose slab check means nothing under KASAN's
# quarantine and whose paths 80-fuzz exercises here too.  kmemleak is off
# (it slows every allocation by half again); the KUnit run looks with it.
# Smaller where size adds only time: 42-membership's mesh is 16x16 (the
# 1024-node budget case runs under Debian's kernel), 46-schemes runs the
# SPAM and DSTM-1 schemes (the built-in unicast on the same 8x8 torus with
# the same members is 40-multicast; DSTM-2 and RT run the same engine and
# glue code on other trees), 47-labels's first part dual-path only
# (hamiltonian and multipath run the same code with other splits).
export WC_MEMBERSHIP_SIDE="${WC_MEMBERSHIP_SIDE-16}"
export WC_SCHEMES="${WC_SCHEMES-spam,dstm-1}"
export WC_LABEL_SCHEMES="${WC_LABEL_SCHEMES-dual-path}"
WC_KERNEL="$kbuild/arch/x86/boot/bzImage" WC_MODULE="$module" \
WC_VM_MEM=${WC_VM_MEM:-2048} \
WC_SELFTESTS_SKIP=${WC_SELFTESTS_SKIP-42,50,53,54,59,61,86}$late_skip \
WC_KERNEL_ARGS=${WC_KERNEL_ARGS-kmemleak=off} \
	exec "$WC_ROOT/tests/vm/run.sh" selftests </dev/null
