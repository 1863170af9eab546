#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Run every benchmark and keep its figures; this is what "make bench" runs
# once everything is built.  Figures are "name: value unit" lines, printed
# and written to $BUILD/bench/NAME.txt (stderr to NAME.err).  Benchmarks
# report figures, they do not pass or fail on timing: the exit status is
# non-zero only when a benchmark program itself fails.
#
#   tools/bench/run.sh              every $BUILD/rel/bench/bench_* program,
#                                   then the VM benchmark (tools/bench/vm.sh)
#   BUILD=/tmp/b tools/bench/run.sh another build directory (default: build)
#   WC_BENCH_NO_VM=1                skip the VM benchmark
set -u

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-build}
case $BUILD in
/*) ;;
*) BUILD=$ROOT/$BUILD ;;
esac
OUT=$BUILD/bench
mkdir -p "$OUT"
status=0

# Where the figures come from, for the record.
{
	echo "date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
	echo "host.cpu: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)"
	echo "host.cores: $(nproc)"
	echo "host.kernel: $(uname -r)"
	echo "tree: $(git -C "$ROOT" describe --always --dirty 2>/dev/null || echo unknown)"
} >"$OUT/host.txt"
cat "$OUT/host.txt"

run() {
	name=$1
	shift
	echo
	echo "== $name"
	if "$@" </dev/null >"$OUT/$name.txt" 2>"$OUT/$name.err"; then
		cat "$OUT/$name.txt"
	else
		rc=$?
		cat "$OUT/$name.txt"
		echo "$name: FAILED (exit status $rc); see $OUT/$name.err"
		sed 's/^/  /' "$OUT/$name.err" | tail -n 20
		status=1
	fi
}

found=0
for b in "$BUILD"/rel/bench/bench_*; do
	[ -x "$b" ] || continue
	found=1
	run "$(basename "$b")" "$b"
done
if [ "$found" = 0 ]; then
	echo "bench: no benchmark programs in $BUILD/rel/bench (run 'make userspace' first)" >&2
	status=1
fi

# The VM benchmark (UDP through the fabric vs veth, kernel memory per
# fabric) boots the VM once; it writes $OUT/vm.txt itself.
echo
if [ -n "${WC_BENCH_NO_VM:-}" ]; then
	echo "== vm: skipped (WC_BENCH_NO_VM is set)"
else
	echo "== vm"
	if ! BUILD=$BUILD "$ROOT/tools/bench/vm.sh"; then
		echo "vm: FAILED; see $OUT/vm.tap and $OUT/vm.log"
		status=1
	fi
fi

echo
echo "bench: figures in $OUT/"
exit $status
