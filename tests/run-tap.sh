#!/bin/sh
# Run TAP-producing programs (unit test binaries and suite scripts) under
# one prove(1), so its summary line ends the log.
set -eu
[ $# -gt 0 ] || { echo "run-tap: nothing to run" >&2; exit 1; }
# Two at a time by default (WC_TEST_JOBS): the VM suites keep about one
# core busy each, and make check lists the longest first.  --merge and -v:
# each suite's whole output (TAP, diagnostics, progress on stderr) is
# printed in one block when it ends; without --merge, prove's parallel
# mode passes a suite's stderr through while it waits on it, which holds
# the other slot back.
exec prove --exec '' --merge -v --timer -j"${WC_TEST_JOBS:-2}" "$@" </dev/null
