#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Build (if needed) and run every libFuzzer harness of tests/fuzz/ for a
# bounded time; TAP on stdout, one line per target: ok if nothing crashed,
# else not ok with the reproducer's path.  Documentation/testing.rst,
# "Fuzzing, userspace".
#
# Environment:
#   WC_FUZZ_TIME     seconds per target (default 5: about 30 s in all)
#   WC_FUZZ_RUNS     stop a target after this many inputs instead (optional)
#   WC_FUZZ_TARGETS  names to run, e.g. "engine topo" (default: all)
#   WC_FUZZ_TIMEOUT  seconds one input may take before it counts as a hang
#                    (default 20)
#
# New inputs that reach new code are kept in build/fuzz/corpus/<target>
# (so successive runs build on each other); the seeds in
# tests/fuzz/corpus/<target> are read, never written.  Crashes, hangs and
# out-of-memory inputs go to build/fuzz/crashes/, the log of each run to
# build/fuzz/logs/<target>.log.
set -u
cd "$(dirname "$0")/../.."

time_per=${WC_FUZZ_TIME:-5}
runs=${WC_FUZZ_RUNS:-}
timeout=${WC_FUZZ_TIMEOUT:-20}
all=$(cd tests/fuzz && ls fuzz_*.c | sed 's/^fuzz_//; s/\.c$//')
targets=${WC_FUZZ_TARGETS:-$all}
n=0
fail=0

if ! command -v "${FUZZ_CC:-clang}" >/dev/null 2>&1; then
	for t in $targets; do
		n=$((n + 1))
		echo "not ok $n - fuzz_$t: ${FUZZ_CC:-clang} missing (run 'make deps')"
	done
	echo "1..$n"
	exit 1
fi
# MAKEFLAGS from an outer make (make check) would hand us its jobserver.
if ! build_log=$(env -u MAKEFLAGS -u MFLAGS make -s fuzz-build 2>&1); then
	echo "not ok 1 - fuzz harnesses build"
	printf '%s\n' "$build_log" | tail -n 20 | sed 's/^/# /'
	echo "1..1"
	exit 1
fi

mkdir -p build/fuzz/crashes build/fuzz/logs
for t in $targets; do
	n=$((n + 1))
	bin=build/fuzz/fuzz_$t
	seeds=tests/fuzz/corpus/$t
	work=build/fuzz/corpus/$t
	log=build/fuzz/logs/$t.log
	prefix=build/fuzz/crashes/fuzz_$t-
	if [ ! -x "$bin" ] || [ ! -d "$seeds" ]; then
		fail=1
		echo "not ok $n - fuzz_$t: no such harness or seed corpus"
		continue
	fi
	mkdir -p "$work"
	before=$(ls "$prefix"* 2>/dev/null)
	start=$(date +%s)
	"$bin" -max_total_time="$time_per" ${runs:+-runs="$runs"} \
		-timeout="$timeout" -rss_limit_mb=2048 -print_final_stats=1 \
		-artifact_prefix="$prefix" "$work" "$seeds" \
		</dev/null >"$log" 2>&1
	rc=$?
	secs=$(($(date +%s) - start))
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
	rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
	corp=$(ls "$work" | wc -l)
	new=$(ls "$prefix"* 2>/dev/null)
	repro=$(for f in $new; do
		printf '%s\n' "$before" | grep -qxF "$f" || echo "$f"
	done)
	if [ "$rc" -eq 0 ] && [ -z "$repro" ]; then
		echo "ok $n - fuzz_$t: ${execs:-?} inputs in ${secs} s (${rate:-?}/s), no crash; corpus $corp + $(ls "$seeds" | wc -l) seeds"
		continue
	fi
	fail=1
	echo "not ok $n - fuzz_$t: exit status $rc after ${secs} s"
	for f in $repro; do
		echo "# reproducer: $f"
		echo "# reproduce:  $bin $f"
	done
	grep -E 'check failed|ERROR: |SUMMARY: |runtime error' "$log" | head -n 5 |
		sed 's/^/# /'
	echo "# log: $log"
done
echo "1..$n"
exit $fail
