#!/bin/sh
# Run TAP-producing programs (unit test binaries and suite scripts) under
# one prove(1), so its summary line ends the log.
set -eu
[ $# -gt 0 ] || { echo "run-tap: nothing to run" >&2; exit 1; }
# Two at a time by default (WC_TEST_JOBS): the VM suites keep about one
# core busy each, and make check lists the longest first.
exec prove --exec '' --timer -j"${WC_TEST_JOBS:-2}" "$@" </dev/null
