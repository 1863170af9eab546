#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Run the kernel's checkpatch.pl --strict over the module's C sources.
# The script and its data files come from Debian's linux-source-6.1 tarball
# and are cached outside the tree (WC_CACHE, default ~/.cache/wormcast).
# Exit status: 0 when checkpatch reports no ERROR, WARNING or CHECK.
set -eu

ROOT=$(cd "$(dirname "$0")/.." && pwd)
CACHE=${WC_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/wormcast}
TARBALL=${WC_LINUX_SOURCE:-/usr/src/linux-source-6.1.tar.xz}
DIR=$CACHE/checkpatch-6.1
CP=$DIR/scripts/checkpatch.pl

if [ ! -x "$CP" ]; then
	if [ ! -r "$TARBALL" ]; then
		echo "checkpatch.sh: $TARBALL not found (apt-get install linux-source-6.1)" >&2
		exit 1
	fi
	mkdir -p "$DIR"
	tar -xJf "$TARBALL" -C "$DIR" --strip-components=1 \
		linux-source-6.1/scripts/checkpatch.pl \
		linux-source-6.1/scripts/spelling.txt \
		linux-source-6.1/scripts/const_structs.checkpatch
	chmod +x "$CP"
fi

cd "$ROOT"
files=$(ls kmod/*.c kmod/*.h kmod/engine/*.c kmod/engine/*.h \
	kmod/tests/*.c kmod/tests/*.h 2>/dev/null || true)
[ -n "$files" ] || { echo "checkpatch.sh: no sources" >&2; exit 1; }

out=$(mktemp)
trap 'rm -f "$out"' EXIT
# --no-tree: outside a kernel tree; -f: whole files, not patches.  Every
# report counts, none is ignored.
# shellcheck disable=SC2086
perl "$CP" --strict --no-tree --terse --show-types --no-summary \
	-f $files >"$out" 2>&1 || true
cat "$out"
n=$(grep -c -E ': (ERROR|WARNING|CHECK):' "$out" || true)
echo "checkpatch: $n report(s) in $(echo "$files" | wc -w) files"
[ "$n" -eq 0 ]
