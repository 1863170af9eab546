#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The kernel code's quality bar, as TAP: checkpatch --strict clean, a W=1
# build without warnings, sparse without warnings.
set -u
cd "$(dirname "$0")/.."
KDIR=${KDIR:-$(ls -d /lib/modules/*/build 2>/dev/null | sort | tail -n 1)}
n=0
fail=0

check() {
	name=$1
	shift
	n=$((n + 1))
	log=$("$@" 2>&1)
	rc=$?
	bad=$(printf '%s\n' "$log" | grep -E 'warning:|error:|ERROR:|WARNING:|CHECK:' || true)
	if [ $rc -eq 0 ] && [ -z "$bad" ]; then
		echo "ok $n - $name"
	else
		fail=1
		echo "not ok $n - $name"
		printf '%s\n' "${bad:-$log}" | head -n 20 | sed 's/^/# /'
	fi
}

check "checkpatch --strict: no report" tools/checkpatch.sh
# Build in a copy: the work tree's wormcast.ko may be in use by a VM test
# running at the same time (make check runs two suites at once), and
# every object is rebuilt so that each is compiled with the flags tested.
lint=$PWD/build/lint-kmod
rm -rf "$lint"
mkdir -p "$lint"
cp -r Kbuild kmod uapi "$lint/"
find "$lint" \( -name '*.o' -o -name '*.ko' -o -name '*.mod*' -o -name '.*.cmd' \) -delete
check "W=1 build: no warning" make -s -C "$KDIR" M="$lint" W=1 modules
check "sparse (C=2): no warning" make -s -C "$KDIR" M="$lint" C=2 W=1 modules
echo "1..$n"
exit $fail
