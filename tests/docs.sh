#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Documentation/ is reStructuredText: every file must build without a
# docutils warning.  Prints TAP.
set -u
cd "$(dirname "$0")/.."
RST2HTML=/usr/bin/rst2html
if [ ! -x "$RST2HTML" ]; then
	echo "not ok 1 - $RST2HTML missing (python3-docutils; run 'make deps')"
	echo "1..1"
	exit 1
fi
n=0
fail=0
for f in Documentation/*.rst; do
	n=$((n + 1))
	# index.rst names the others in a toctree, a Sphinx directive.
	if err=$("$RST2HTML" --halt=warning --report=warning --no-raw \
		"$f" 2>&1 >/dev/null | grep -v 'Unknown directive type "toctree"'); [ -z "$err" ] ||
		! printf '%s\n' "$err" | grep -q .; then
		echo "ok $n - $f builds cleanly"
	else
		fail=1
		echo "not ok $n - $f"
		printf '%s\n' "$err" | head -n 10 | sed 's/^/# /'
	fi
done
echo "1..$n"
exit $fail
