#!/bin/sh
# Run TAP-producing programs (unit test binaries and suite scripts) under
# one prove(1), so its summary line ends the log.
set -eu
[ $# -gt 0 ] || { echo "run-tap: nothing to run" >&2; exit 1; }
exec prove --exec '' --timer "$@" </dev/null
