#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The VM benchmarks (issue 3, item 6 b and c), host side: boot the VM once
# with tests/vm/run.sh, run tests/vm/bench-guest.sh in it, print its
# figures ("name: value unit" lines, "# ..." details) and save them into
# $BUILD/bench/vm.txt (the VM's TAP and progress into vm.tap and vm.log
# beside it).  Exit status 0 when the VM run passed (module loaded, script
# finished, kernel log clean), 1 otherwise; the figures themselves are not
# judged.
#
#   tools/bench/vm.sh
#   BUILD=/tmp/b tools/bench/vm.sh     where the figures go (default build)
#
# Environment: WC_BUILD (directory with wormctl and link_wormcast.so for
# the guest, default $BUILD, or build/ when $BUILD is under /tmp, /run or
# /var/tmp, which the VM does not see), WC_MODULE (see tests/vm/run.sh),
# and the guest's settings WC_BENCH_RUNS, WC_BENCH_SECS, WC_BENCH_MEM_RUNS,
# WC_BENCH_MEM_DIMS, WC_BENCH_PARTS, WC_BENCH_MCAST_MEMBERS,
# WC_BENCH_MCAST_BYTES, WC_BENCH_MCAST_SINK, WC_BENCH_MCAST_PATHS, WC_BENCH_FTRACE,
# WC_BENCH_MC_FRAMES,
# WC_BENCH_STAR_MEMBERS, WC_BENCH_STAR_BYTES, WC_BENCH_STAR_CYCLE_NS, WC_BENCH_STAR_SCHEMES,
# WC_BENCH_PLANS, WC_BENCH_FAULTS, WC_BENCH_FAULT_DIMS, WC_BENCH_FAULT_SEED,
# WC_BENCH_FAULT_NODES,
# WC_BENCH_BCAST_DIMS, WC_BENCH_BCAST_BYTES, WC_BENCH_FTFAULT_DIMS,
# WC_BENCH_FTFAULT_COUNTS, WC_BENCH_FTFAULT_REPS (see
# tests/vm/bench-guest.sh).
set -u

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-build}
case $BUILD in
/*) ;;
*) BUILD=$ROOT/$BUILD ;;
esac
OUT=$BUILD/bench
mkdir -p "$OUT" || exit 1

fail() {
	echo "vm.sh: $*" >&2
	exit 1
}

# The guest sees the host's root, except for the directories it mounts a
# tmpfs on.
guest_build=${WC_BUILD:-$BUILD}
case $guest_build in
/*) ;;
*) guest_build=$ROOT/$guest_build ;;
esac
case $guest_build in
/tmp/* | /run/* | /var/tmp/*)
	echo "vm.sh: the VM cannot see $guest_build; using $ROOT/build for the tools" >&2
	guest_build=$ROOT/build
	;;
esac
for f in "${WC_MODULE:-$ROOT/wormcast.ko}" "$guest_build/link_wormcast.so" \
	"$guest_build/wormctl"; do
	[ -f "$f" ] || fail "missing $f (run 'make')"
done

# The guest's settings travel on its command line: allow only plain values.
settings=""
for var in WC_BENCH_RUNS WC_BENCH_SECS WC_BENCH_MEM_RUNS WC_BENCH_MEM_DIMS WC_BENCH_RTNL_DIMS \
	WC_BENCH_PARTS WC_BENCH_MCAST_MEMBERS WC_BENCH_MCAST_BYTES WC_BENCH_MCAST_SINK \
	WC_BENCH_MCAST_PATHS WC_BENCH_FTRACE \
	WC_BENCH_MC_FRAMES WC_BENCH_STAR_MEMBERS WC_BENCH_STAR_BYTES WC_BENCH_STAR_CYCLE_NS \
	WC_BENCH_STAR_SCHEMES \
	WC_BENCH_PLANS WC_BENCH_FAULTS WC_BENCH_FAULT_DIMS WC_BENCH_FAULT_SEED WC_BENCH_FAULT_NODES \
	WC_BENCH_BCAST_DIMS WC_BENCH_BCAST_BYTES \
	WC_BENCH_FTFAULT_DIMS WC_BENCH_FTFAULT_COUNTS WC_BENCH_FTFAULT_REPS; do
	eval "val=\${$var-}"
	[ -n "$val" ] || continue
	case $val in
	*[!A-Za-z0-9x:\ -]*) fail "$var: unexpected characters in '$val'" ;;
	esac
	settings="$settings $var='$val'"
done

# Defaults took about 5 minutes of VM time before the star part, which
# alone took 6 to 8 minutes at a host load of 5 to 12 (120 namespaces and
# member processes) with two schemes; it now runs six: leave room on a
# loaded host.
export WC_SCRIPT_TIMEOUT="${WC_SCRIPT_TIMEOUT:-3000}"
export WC_VM_TIMEOUT="${WC_VM_TIMEOUT:-3300}"
# A part's results reach the console only when it ends (the mcast part at
# its defaults outlasted 600 s of silence on a loaded host).
export WC_VM_STALL="${WC_VM_STALL:-1800}"
# The VM's two CPUs are threads of the host: its load shows in the figures.
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
rc=0
WC_BUILD=$guest_build "$ROOT/tests/vm/run.sh" shell \
	"env$settings sh $ROOT/tests/vm/bench-guest.sh" \
	</dev/null >"$OUT/vm.tap" 2>"$OUT/vm.log" || rc=$?
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

# run.sh indents the script's output by four spaces inside its TAP.
{
	echo "# in-VM benchmarks: tests/vm/bench-guest.sh under tests/vm/run.sh"
	echo "# date: $(date -u '+%Y-%m-%d %H:%M:%S UTC'), host: $(nproc) cores," \
		"$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)"
	echo "# host load average (1, 5, 15 min): $load_before before, $load_after after"
	sed -n 's/^    //p' "$OUT/vm.tap" | grep -E '^(# |[a-z][A-Za-z0-9_.]*: )'
} >"$OUT/vm.txt"
cat "$OUT/vm.txt"

if [ "$rc" != 0 ]; then
	echo "vm.sh: the VM run failed (exit status $rc); TAP in $OUT/vm.tap:" >&2
	grep -E '^not ok|^# |bench-guest:' "$OUT/vm.tap" | head -n 40 >&2
	exit 1
fi
exit 0
