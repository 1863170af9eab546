#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# What "make check" runs under Debian's kernel: boots the VM once and runs
# tests/selftests/NN-*.sh in it (see tests/vm/run.sh; which ones: below).
# Builds nothing.
# Prints TAP (one line per selftest, plus module load/unload, VM exit and
# the kernel log check) and exits non-zero on any failure.  A missing
# module, plugin or wormctl is a failure, not a skip.
set -eu

WC_ROOT=$(cd "$(dirname "$0")/../.." && pwd)
build=${WC_BUILD:-$WC_ROOT/build}
case "$build" in /*) ;; *) build="$WC_ROOT/$build" ;; esac

missing=""
for f in "${WC_MODULE:-$WC_ROOT/wormcast.ko}" "$build/link_wormcast.so" "$build/wormctl"; do
	[ -f "$f" ] || missing="$missing $f"
done
if [ -n "$missing" ]; then
	echo "1..1"
	echo "not ok 1 - VM selftests need a build: missing$missing (run 'make')"
	exit 1
fi

# Without WC_SELFTESTS, not the selftests that check only the control
# plane and its input validation, identical code under either kernel, which
# make check runs under the debug kernel (tests/vm/selftests-debug.sh) with
# KASAN and lockdep looking (Documentation/testing.rst, "Time budget"):
# 10-fabrics, 20-bad-args, 45-tables, 48-ethtool, 49-capture, 60-wormctl
# and 80-fuzz.  Set WC_SELFTESTS_SKIP empty to run them all.
[ -n "${WC_SELFTESTS:-}" ] ||
	export WC_SELFTESTS_SKIP="${WC_SELFTESTS_SKIP-10,20,45,48,49,60,80}"

exec "$WC_ROOT/tests/vm/run.sh" selftests </dev/null
