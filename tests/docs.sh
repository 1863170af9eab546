#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Documentation/ is reStructuredText: every file must build without a
# docutils warning, and no merge conflict marker is left in the tree.
# Prints TAP.
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
# A merge can leave a conflict marker that docutils reads as a heading.
n=$((n + 1))
# "=======" alone is a heading underline when the line above is no longer.
markers=$(git ls-files -z | xargs -0 awk '
	FNR == 1 { prev = "" }
	/^(<<<<<<<|>>>>>>>)( |$)/ ||
	($0 == "=======" && length(prev) > 7) { print FILENAME ":" FNR ": " $0 }
	{ prev = $0 }' 2>/dev/null)
if [ -z "$markers" ]; then
	echo "ok $n - no merge conflict marker in the tree"
else
	fail=1
	echo "not ok $n - merge conflict markers left"
	printf '%s\n' "$markers" | head -n 10 | sed 's/^/# /'
fi
echo "1..$n"
exit $fail
