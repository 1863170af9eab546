#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# What "make check" runs for the VM: boots the VM once and runs every
# tests/selftests/NN-*.sh in it (see tests/vm/run.sh).  Builds nothing.
# Prints TAP (one line per selftest, plus module load/unload, VM exit and
# the kernel log check) and exits non-zero on any failure.  Nothing is
# skipped: a missing module, plugin or wormctl is a failure.
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

exec "$WC_ROOT/tests/vm/run.sh" selftests </dev/null
