#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Run wormcast's KUnit suites (kmod/tests/*_kunit.c) under the debug kernel
# of the VM selftests (tests/vm/debug-kernel.sh: KASAN, lockdep, PROVE_RCU,
# kmemleak, KUnit built in), as a module: wormcast_kunit.ko, built against
# that kernel, runs its suites when it is loaded in the VM.  kunit_tool's
# own parser (tools/testing/kunit/kunit_parser.py of the same source tree)
# reads the KTAP from the kernel log.  Prints plain TAP: one line per test
# case ("suite.case"), the VM's own checks (module load, kernel log clean,
# lockdep still active), and the plan.
#
# Why not "kunit.py run": it builds a kernel of its own, which took 20 of
# the 64 minutes of a cold "make check"; the debug kernel is built anyway
# for the VM selftests, has the same checkers, and boots in seconds
# (Documentation/testing.rst).
#
# Environment: WC_KUNIT_TIMEOUT (seconds for the VM, default 900).
set -eu

WC_ROOT=$(cd "$(dirname "$0")/../.." && pwd)
KMOD=$WC_ROOT/build/kunit-kmod
KMEMLEAK=/sys/kernel/debug/kmemleak

# TAP for a failure before any test ran, then exit.
bail() {
	echo "not ok 1 - $1"
	[ -n "${2:-}" ] && [ -f "$2" ] && tail -n 40 "$2" | sed 's/^/# /'
	echo "1..1"
	exit 1
}

command -v python3 >/dev/null || bail "KUnit needs python3 (run 'make deps')"
timeout_s=${WC_KUNIT_TIMEOUT:-900}
case "$timeout_s" in '' | *[!0-9]*) bail "WC_KUNIT_TIMEOUT must be a number" ;; esac

# Line 1: the kernel build directory; line 2: the module.
out=$("$WC_ROOT/tests/vm/debug-kernel.sh" --kunit "$KMOD" </dev/null) ||
	bail "debug kernel or wormcast_kunit.ko does not build (see above)"
kbuild=$(echo "$out" | sed -n 1p)
module=$(echo "$out" | sed -n 2p)
ksrc=${WC_KSRC:-${XDG_CACHE_HOME:-$HOME/.cache}/wormcast/linux-source-6.1}
[ -f "$ksrc/tools/testing/kunit/kunit_parser.py" ] ||
	bail "kunit_tool not found in $ksrc"

# One suite per kunit_test_suites() in the sources: the KTAP plan.
nsuites=$(cat "$WC_ROOT"/kmod/tests/*_kunit.c | grep -c '^kunit_test_suites(') ||
	bail "no KUnit suite in kmod/tests/*_kunit.c"

log=$(mktemp)
trap 'rm -f "$log"' EXIT
# The marker separates the boot log from the suites' KTAP.
rc=0
WC_KERNEL="$kbuild/arch/x86/boot/bzImage" WC_NO_MODULE=1 WC_VM_MEM=2048 \
WC_VM_TIMEOUT="$timeout_s" \
	"$WC_ROOT/tests/vm/run.sh" shell \
	"echo wc-kunit-start >/dev/kmsg; insmod $module &&
	 echo scan >$KMEMLEAK && echo scan >$KMEMLEAK &&
	 echo wc-kmemleak-start && cat $KMEMLEAK && echo wc-kmemleak-end;
	 rmmod wormcast_kunit; dmesg" \
	</dev/null >"$log" || rc=$?
grep -q 'wc-kunit-start' "$log" || bail "the KUnit VM did not run (status $rc)" "$log"

PYTHONPATH=$ksrc/tools/testing/kunit python3 - "$log" "$nsuites" <<'EOF'
import re
import sys

import kunit_parser
import kunit_printer
from kunit_parser import TestStatus

# kunit_tool's pretty report goes to stderr, our TAP to stdout.
kunit_printer.stdout._output = sys.stderr

path, nsuites = sys.argv[1], int(sys.argv[2])
with open(path, errors='backslashreplace') as f:
	vm = f.read().splitlines()

# The VM harness shows the command's output indented by four spaces: a
# kmemleak report between markers, then the kernel log, each line after a
# timestamp "[   12.345678] ".  Keep what follows the marker.
ktap = ['KTAP version 1', '1..%d' % nsuites]
started = False
leaks = None		# the kmemleak report, once its start marker is seen
in_leaks = False
for line in vm:
	if not line.startswith('    '):
		continue
	text = line[4:]
	if text in ('wc-kmemleak-start', 'wc-kmemleak-end'):
		in_leaks = text.endswith('start')
		leaks = leaks or []
		continue
	if in_leaks:
		leaks.append(text)
		continue
	text = re.sub(r'^\[ *[0-9]+\.[0-9]+\] ', '', text)
	if started:
		ktap.append(text)
	elif 'wc-kunit-start' in text:
		started = True

root = kunit_parser.parse_run_tests(ktap)
n = 0
bad = 0

def result(ok, name, diag=()):
	global n, bad
	n += 1
	if not ok:
		bad += 1
	print(('ok' if ok else 'not ok') + ' %d - %s' % (n, name))
	for d in diag:
		print('# ' + d)

def verdict(t):
	if t.status == TestStatus.SUCCESS:
		return True, ''
	if t.status == TestStatus.SKIPPED:
		return True, ' # SKIP'
	return False, ' (%s)' % t.status.name.lower()

suites = [s for s in root.subtests if s.name.startswith('wormcast')]
if len(suites) != nsuites:
	result(False, 'wormcast KUnit suites ran: %d of %d' % (len(suites), nsuites))
for suite in suites:
	cases = suite.subtests or [suite]
	for case in cases:
		ok, why = verdict(case)
		diag = [] if ok else [l.strip() for l in case.log][-30:]
		for p in case.subtests:
			pok, pwhy = verdict(p)
			if not pok:
				diag.append('param %s:%s' % (p.name, pwhy))
		result(ok, '%s.%s%s' % (suite.name, case.name, why), diag)

# kmemleak, scanned while the module was still loaded: no unreferenced
# object allocated from its code.
if leaks is None:
	result(False, 'kmemleak scanned after the suites')
else:
	objs = '\n'.join(leaks).split('unreferenced object')
	ours = [o for o in objs if '[wormcast_kunit]' in o]
	result(not ours, 'kmemleak: no object of the suites or the engine '
	       'left unreferenced (%d in all)' % (len(objs) - 1),
	       ''.join('unreferenced object' + o for o in ours).splitlines()[:40])

# The harness's own checks: module loaded and unloaded, VM finished,
# kernel log clean (KASAN, lockdep, RCU, kmemleak...), lockdep active.
for line in vm:
	m = re.match(r'^(not ok|ok) [0-9]+ - (.*)$', line)
	if m and not m.group(2).startswith('cmd'):
		result(m.group(1) == 'ok', 'VM: ' + m.group(2))
print('1..%d' % n)
sys.exit(1 if bad else 0)
EOF
