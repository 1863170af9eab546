#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Boot Debian's stock kernel under qemu (TCG), share the host root read-only
# over 9p, load the freshly built wormcast.ko and run scripts inside the VM.
#
#   tests/vm/run.sh selftests        every tests/selftests/NN-*.sh, as TAP
#   tests/vm/run.sh demo             tests/selftests/demo.sh
#   tests/vm/run.sh shell CMD...     one command (debugging), as one TAP test
#
# TAP goes to stdout, progress to stderr.  Besides the scripts' own results
# the run fails on a kernel splat in dmesg (BUG, WARNING, Oops, KASAN,
# lockdep, general protection, Call Trace, ...), on a VM or a selftest
# that stops making progress (no new output for WC_VM_STALL or
# WC_SCRIPT_STALL seconds) or passes its hard limit, and when wormcast.ko
# is missing or does not load.
#
# Environment:
#   KVER            kernel version (default: newest /lib/modules/* with a
#                   /boot/vmlinuz-*)
#   WC_KERNEL       boot this bzImage instead (a kernel with virtio-pci and
#                   9p built in, e.g. the debug kernel of
#                   tests/vm/debug-kernel.sh); KVER is then not used
#   WC_BUILD        build directory with wormctl and link_wormcast.so
#                   (default: build)
#   WC_MODULE       module to load (default: wormcast.ko at the top of the tree)
#   WC_NO_MODULE=1  boot without loading any module (harness development)
#   WC_VM_STALL     the VM is stopped after this many seconds without
#                   console output (default 600)
#   WC_VM_TIMEOUT   hard limit on the VM, seconds (default 5400)
#   WC_SCRIPT_STALL a selftest is stopped after this many seconds without
#                   output (default 300)
#   WC_SCRIPT_TIMEOUT  hard limit on one selftest, seconds (default 1800)
#   WC_VM_MEM       guest memory, MiB (default 1024)
#   WC_VM_KEEP=1    keep the output directory tests/vm/out/MODE.* on success
#   WC_VM_VERBOSE=1 copy the whole serial console to stderr
#   WC_SELFTESTS    only these selftests, by number: e.g. 30,40
#   WC_SELFTESTS_SKIP  not these selftests, by number
#   WC_KERNEL_ARGS  more kernel command line (e.g. kmemleak=off)
#   WC_STRESS_SECONDS, WC_CYCLES, WC_FUZZ_SEED, WC_FUZZ_COUNT,
#   WC_FUZZ_MAX_NODES, WC_FUZZ_PHASES, WC_SCHEMES, WC_LABEL_SCHEMES,
#   WC_MEMBERSHIP_SIDE, WC_WAIT_SCALE, WC_FAULT_STRESS_SECONDS,
#   WC_FAULT_STRESS_SEED, WC_FAULT_STRESS_MTBF, WC_FAULT_STRESS_MTTR,
#   WC_FAULT_STRESS_FABRICS
#                   passed to the selftests in the guest (85, 86, 80, 46, 42,
#                   57)
#
# How it works: the host builds (and caches) a busybox initramfs whose /init
# loads the 9p modules, mounts the host root, mounts tmpfs on /run, /tmp and
# /var/tmp, points /proc/sys/kernel/modprobe at a wrapper that runs the
# host's modprobe inside the chroot, and chroots into this very script with
# the hidden mode "guest".  The guest writes its results into a second,
# writable 9p export (tests/vm/out/MODE.XXXX, mounted at /run/wc-out); the
# host reads them back once qemu has exited.
set -eu

WC_ROOT=$(cd "$(dirname "$0")/../.." && pwd)
SELF="$WC_ROOT/tests/vm/run.sh"
OUT_MNT=/run/wc-out
SPLAT_RE='BUG:|WARNING:|Oops|KASAN|UBSAN|lockdep|possible circular locking|possible recursive locking|inconsistent lock state|suspicious RCU usage|sleeping function called from invalid context|ODEBUG|list_(add|del) corruption|general protection|Call Trace|Kernel panic|blocked for more than|rcu.*stall|unregister_netdevice: waiting'

usage() {
	echo "usage: $0 selftests | demo | shell CMD [ARGS...]" >&2
	exit 2
}

progress() {
	echo "wc-vm: $*" >&2
}

# wait_progress PID FILE STALL: wait for PID and return its exit status;
# kill it (TERM) once FILE has not grown for STALL seconds, and create
# FILE.stalled.  Tests are judged on progress, not on a fixed time that a
# slow machine misses; their hard limits (WC_SCRIPT_TIMEOUT,
# WC_VM_TIMEOUT) only catch a test that keeps printing for ever.  The
# watcher looks every 5 s and counts its looks instead of reading the
# clock: in the guest every exec costs about 0.1 s of CPU under TCG,
# taken from the test it watches.  It runs beside the wait, so a test
# that ends is not held until its next look.
wait_progress() {
	(
		_wp_size=-1
		_wp_quiet=0
		while kill -0 "$1" 2>/dev/null; do
			_wp_cur=$(wc -c <"$2" 2>/dev/null || echo 0)
			if [ "$_wp_cur" != "$_wp_size" ]; then
				_wp_size=$_wp_cur
				_wp_quiet=0
			elif [ $((_wp_quiet += 5)) -ge "$3" ]; then
				: >"$2.stalled"
				kill -TERM "$1" 2>/dev/null
				break
			fi
			sleep 5
		done
	) &
	_wp_pid=$!
	_wp_rc=0
	wait "$1" || _wp_rc=$?
	kill "$_wp_pid" 2>/dev/null
	wait "$_wp_pid" 2>/dev/null
	return "$_wp_rc"
}

# ====================================================================== guest
# Everything below "guest_*" runs inside the VM, in the chroot of the host
# root.  stdout/stderr of the scripts go to files in $OUT_MNT; progress
# goes to the console, which the host copies to its stderr.

guest_log() {
	echo "wc-vm: $*" >/dev/console 2>/dev/null || true
}

# Result lines, numbered by the host: "ok - NAME" / "not ok - NAME" and
# "# ..." diagnostics.
guest_result() {
	echo "$*" >>"$OUT_MNT/results"
}

guest_module_loaded() {
	grep -q '^wormcast ' /proc/modules
}

# Load the module (and what it depends on) unless it is loaded already.
guest_load_module() {
	if [ "${WC_NO_MODULE:-0}" = 1 ] || guest_module_loaded; then
		return 0
	fi
	deps=$(modinfo -F depends "$WC_MODULE" 2>/dev/null | tr ',' ' ')
	for d in $deps; do
		modprobe "$d" || return 1
	done
	insmod "$WC_MODULE"
}

# The number of processes the guest has forked since boot (no exec).
guest_forks() {
	while read -r _key _val _rest; do
		[ "$_key" = processes ] && { echo "$_val"; return; }
	done </proc/stat
}

# Run one script with a time limit; its output is indented into the results
# (as a TAP subtest), and one top-level line says whether it passed.  With
# "tap", passing means exit status 0, a plan, as many results as planned and
# no "not ok"; with "plain" (demo, shell), exit status 0.
guest_run_script() {
	kind=$1
	shift
	name=$(basename "$1" .sh)
	log="$OUT_MNT/$name.log"
	guest_log "running $name"
	if ! guest_load_module >"$log" 2>&1; then
		guest_result "not ok - $name (wormcast.ko does not load)"
		sed 's/^/    # /' "$log" >>"$OUT_MNT/results"
		return
	fi
	start=$(date +%s)
	forks=$(guest_forks)
	rc=0
	(cd "$WC_ROOT" && exec timeout -k 10 "${WC_SCRIPT_TIMEOUT:-1800}" \
		sh "$@" </dev/null >"$log" 2>&1) &
	wait_progress $! "$log" "${WC_SCRIPT_STALL:-300}" || rc=$?
	secs=$(($(date +%s) - start))
	forks=$(($(guest_forks) - forks))
	sed 's/^/    /' "$log" >>"$OUT_MNT/results"
	planned=$(sed -n 's/^1\.\.\([0-9][0-9]*\).*/\1/p' "$log" | head -n 1)
	passed=$(grep -c '^ok ' "$log" || true)
	failed=$(grep -c '^not ok ' "$log" || true)
	why=""
	[ "$rc" = 0 ] || why="exit status $rc"
	[ "$rc" = 124 ] && why="timed out after ${WC_SCRIPT_TIMEOUT:-1800}s"
	[ -f "$log.stalled" ] &&
		why="stalled: no output for ${WC_SCRIPT_STALL:-300}s"
	if [ "$kind" = tap ]; then
		[ -n "$planned" ] || why="${why:+$why, }no plan"
		[ "$failed" = 0 ] || why="${why:+$why, }$failed failed"
		if [ -n "$planned" ] && [ $((passed + failed)) != "$planned" ]; then
			why="${why:+$why, }planned $planned, ran $((passed + failed))"
		fi
	fi
	if [ -z "$why" ] && [ "$kind" = tap ]; then
		guest_result "ok - $name ($passed tests, ${secs}s)"
	elif [ -z "$why" ]; then
		guest_result "ok - $name (${secs}s)"
	else
		guest_result "not ok - $name ($why)"
	fi
	# (the processes: under TCG each costs about 0.1 s of CPU, a Python
	# or jq start nearer a second)
	guest_log "$name: ${why:-ok} (${secs}s, $forks processes)"
}

guest_main() {
	mode=$1
	shift
	export WC_ROOT WC_BUILD WC_MODULE WC_VM_GUEST=1
	export IP_LIB_DIR="$WC_BUILD"
	export PATH="$WC_BUILD:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
	export HOME=/root LC_ALL=C.UTF-8
	: >"$OUT_MNT/results"

	if [ "${WC_NO_MODULE:-0}" = 1 ]; then
		guest_result "ok - boot (no module requested)"
	elif [ ! -f "$WC_MODULE" ]; then
		guest_result "not ok - load $WC_MODULE (missing: build it with 'make module')"
	elif guest_load_module >"$OUT_MNT/insmod.log" 2>&1; then
		guest_result "ok - load $(basename "$WC_MODULE")"
	else
		guest_result "not ok - load $(basename "$WC_MODULE")"
		sed 's/^/# /' "$OUT_MNT/insmod.log" >>"$OUT_MNT/results"
	fi

	case "$mode" in
	selftests)
		for t in "$WC_ROOT"/tests/selftests/[0-9]*.sh; do
			[ -f "$t" ] || continue
			num=$(basename "$t" | cut -d- -f1)
			if [ -n "${WC_SELFTESTS:-}" ]; then
				case ",$WC_SELFTESTS," in
				*",$num,"*) ;;
				*) continue ;;
				esac
			fi
			case ",${WC_SELFTESTS_SKIP:-}," in
			*",$num,"*) continue ;;
			esac
			guest_run_script tap "$t"
		done
		;;
	demo)
		# The demo speaks to a human: its output is shown indented.
		guest_run_script plain "$WC_ROOT/tests/selftests/demo.sh"
		;;
	shell)
		# The host wrote the command into the output directory.
		guest_run_script plain "$OUT_MNT/cmd.sh"
		;;
	esac

	# Unload at the end, so that a leak or a splat on exit shows too.
	if guest_module_loaded; then
		if rmmod wormcast >"$OUT_MNT/rmmod.log" 2>&1; then
			guest_result "ok - rmmod wormcast at the end"
		else
			guest_result "not ok - rmmod wormcast at the end"
			sed 's/^/# /' "$OUT_MNT/rmmod.log" >>"$OUT_MNT/results"
		fi
	fi
	# A debug kernel's lockdep switches itself off at its first report, or
	# at a taint (a KASAN report, a WARN): check that it watched to the end.
	if [ -r /proc/lockdep_stats ]; then
		if grep -Eq '^ *debug_locks: *1$' /proc/lockdep_stats; then
			guest_result "ok - lockdep still active at the end"
		else
			guest_result "not ok - lockdep still active at the end"
		fi
	fi
	dmesg >"$OUT_MNT/dmesg"
	echo finished >"$OUT_MNT/finished"
	sync
}

# ======================================================================= host

newest_kver() {
	for d in $(ls -d /lib/modules/* 2>/dev/null | sort -V -r); do
		v=$(basename "$d")
		[ -r "/boot/vmlinuz-$v" ] && { echo "$v"; return; }
	done
}

# /init of the initramfs.  Parameters come on the kernel command line:
# wc.root (work tree), wc.mode, and wc.env=NAME=VALUE settings.
write_init() {
	cat >"$1" <<'EOF'
#!/bin/sh
export PATH=/bin:/sbin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
# A kernel with all of this built in (WC_KERNEL) comes without modules.
for m in virtio_ring virtio virtio_pci_modern_dev virtio_pci_legacy_dev \
	 virtio_pci netfs fscache 9pnet 9pnet_virtio 9p; do
	[ -f /modules/$m.ko ] || continue
	insmod /modules/$m.ko || echo "wc-vm: insmod $m failed" >/dev/console
done
R=/mnt/root
# cache=loose: the root is read-only and every program and library of the
# tests comes from it; without a page cache each exec re-reads them over 9p.
mount -t 9p -o trans=virtio,version=9p2000.L,ro,cache=loose root $R || {
	echo "wc-vm: cannot mount the host root" >/dev/console
	reboot -f
}
mount -t proc proc $R/proc
mount -t sysfs sys $R/sys
mount -t devtmpfs dev $R/dev
mkdir -p $R/dev/pts $R/dev/shm
mount -t devpts devpts $R/dev/pts
mount -t tmpfs tmpfs $R/dev/shm
for d in /run /tmp /var/tmp; do mount -t tmpfs tmpfs $R$d; done
mkdir -p $R/run/netns $R/run/wc-out
mount -t debugfs debugfs $R/sys/kernel/debug 2>/dev/null
echo /sbin/wc-modprobe >/proc/sys/kernel/modprobe
hostname wormcast-vm
ip link set lo up
root= mode=
for a in $(cat /proc/cmdline); do
	case "$a" in
	wc.root=*) root=${a#wc.root=} ;;
	wc.mode=*) mode=${a#wc.mode=} ;;
	wc.env=*) export "${a#wc.env=}" ;;
	esac
done
# The work tree has an export of its own, mounted at its host path: the
# tmpfs mounts above would hide a tree that lives under /tmp (CI clones).
mkdir -p $R$root 2>/dev/null
mount -t 9p -o trans=virtio,version=9p2000.L,ro,cache=loose tree $R$root || {
	echo "wc-vm: cannot mount the work tree at $root" >/dev/console
	reboot -f
}
mount -t 9p -o trans=virtio,version=9p2000.L,cache=none out $R/run/wc-out
# Enter the host root as switch_root does (moved onto "/", then chroot .),
# but in a mount namespace of its own: a process under a plain chroot may
# not create user namespaces (tests/selftests/75-userns.sh), and pid 1 and
# the modprobe wrapper keep the initramfs and /mnt/root as they are.
unshare -m sh -c "cd $R && mount --move . / && exec chroot . /bin/sh '$root/tests/vm/run.sh' guest $mode"
sync
reboot -f
EOF
	chmod +x "$1"
}

build_initramfs() {
	cache=${XDG_CACHE_HOME:-$HOME/.cache}/wormcast
	key=$(cat "$SELF" /bin/busybox | sha256sum | cut -c1-16)
	# "nomodules": for WC_KERNEL, whose drivers are built in.
	flavour=${KVER:-nomodules}
	initrd="$cache/initramfs-$flavour-$key.cpio.gz"
	if [ -f "$initrd" ]; then
		echo "$initrd"
		return
	fi
	progress "building initramfs $initrd"
	mkdir -p "$cache"
	rm -f "$cache/initramfs-$flavour-"*.cpio.gz
	tmp=$(mktemp -d)
	mkdir -p "$tmp/bin" "$tmp/sbin" "$tmp/proc" "$tmp/sys" "$tmp/dev" \
		"$tmp/mnt/root" "$tmp/modules"
	cp /bin/busybox "$tmp/bin/busybox"
	for app in $(/bin/busybox --list); do
		[ "$app" = busybox ] || ln -s busybox "$tmp/bin/$app"
	done
	for m in virtio_ring virtio virtio_pci_modern_dev virtio_pci_legacy_dev \
		 virtio_pci netfs fscache 9pnet 9pnet_virtio 9p; do
		[ -n "$KVER" ] || break
		f=$(find "/lib/modules/$KVER/kernel" -name "$m.ko" | head -n 1)
		[ -n "$f" ] || { echo "run.sh: $m.ko not found for $KVER" >&2; exit 1; }
		cp "$f" "$tmp/modules/"
	done
	# Module autoloading: the kernel runs this in the initramfs root.
	cat >"$tmp/sbin/wc-modprobe" <<'EOF'
#!/bin/sh
exec chroot /mnt/root /sbin/modprobe "$@"
EOF
	chmod +x "$tmp/sbin/wc-modprobe"
	write_init "$tmp/init"
	(cd "$tmp" && find . | cpio -o -H newc --quiet | gzip -1) >"$initrd.$$"
	mv "$initrd.$$" "$initrd"
	rm -rf "$tmp"
	echo "$initrd"
}

# Turn the guest's result lines into numbered TAP with a plan at the end.
# Reads "ok - X" / "not ok - X" / other lines (passed through) on stdin.
number_tap() {
	awk '
	/^ok - / || /^not ok - / {
		n++
		if ($1 == "ok") { sub(/^ok - /, ""); print "ok " n " - " $0 }
		else { sub(/^not ok - /, ""); print "not ok " n " - " $0; bad++ }
		next
	}
	{ print }
	END { print "1.." n; exit bad ? 1 : 0 }'
}

host_main() {
	mode=$1
	case "$mode" in
	selftests | demo) [ $# = 1 ] || usage ;;
	shell) [ $# -ge 2 ] || usage ;;
	*) usage ;;
	esac

	if [ -n "${WC_KERNEL:-}" ]; then
		KVER=""
		kernel=$WC_KERNEL
	else
		KVER=${KVER:-$(newest_kver)}
		[ -n "$KVER" ] || { echo "run.sh: no kernel in /boot matching /lib/modules" >&2; exit 1; }
		kernel=/boot/vmlinuz-$KVER
	fi
	[ -r "$kernel" ] || { echo "run.sh: $kernel not readable" >&2; exit 1; }
	command -v qemu-system-x86_64 >/dev/null ||
		{ echo "run.sh: qemu-system-x86_64 missing (make deps)" >&2; exit 1; }
	[ -x /bin/busybox ] || { echo "run.sh: /bin/busybox missing (busybox-static)" >&2; exit 1; }
	timeout_s=${WC_VM_TIMEOUT:-5400}
	case "$timeout_s" in '' | *[!0-9]*) echo "run.sh: bad WC_VM_TIMEOUT" >&2; exit 2 ;; esac

	build=${WC_BUILD:-$WC_ROOT/build}
	case "$build" in /*) ;; *) build="$WC_ROOT/$build" ;; esac
	module=${WC_MODULE:-$WC_ROOT/wormcast.ko}
	case "$module" in /*) ;; *) module="$PWD/$module" ;; esac

	initrd=$(build_initramfs)
	mkdir -p "$WC_ROOT/tests/vm/out"
	out=$(mktemp -d "$WC_ROOT/tests/vm/out/$mode.XXXXXX")
	chmod 777 "$out"
	serial="$out/console.log"
	: >"$serial"

	if [ "$mode" = shell ]; then
		shift
		printf '%s\n' "$*" >"$out/cmd.sh"
	fi
	case "$WC_ROOT$build$module${WC_SELFTESTS:-}" in *[!A-Za-z0-9_./+,-]*)
		echo "run.sh: paths with unusual characters cannot go on the kernel command line" >&2
		exit 2 ;;
	esac
	cmdline="console=ttyS0 loglevel=4 panic=-1 wc.root=$WC_ROOT wc.mode=$mode"
	cmdline="$cmdline wc.env=WC_BUILD=$build wc.env=WC_MODULE=$module"
	cmdline="$cmdline wc.env=WC_NO_MODULE=${WC_NO_MODULE:-0}"
	cmdline="$cmdline wc.env=WC_SCRIPT_TIMEOUT=${WC_SCRIPT_TIMEOUT:-1800}"
	cmdline="$cmdline wc.env=WC_SCRIPT_STALL=${WC_SCRIPT_STALL:-300}"
	[ -z "${WC_SELFTESTS:-}" ] || cmdline="$cmdline wc.env=WC_SELFTESTS=$WC_SELFTESTS"
	[ -z "${WC_SELFTESTS_SKIP:-}" ] ||
		cmdline="$cmdline wc.env=WC_SELFTESTS_SKIP=$WC_SELFTESTS_SKIP"
	[ -z "${WC_KERNEL_ARGS:-}" ] || cmdline="$cmdline $WC_KERNEL_ARGS"
	# Settings of the selftests themselves (no spaces: kernel command line).
	for v in WC_STRESS_SECONDS WC_CYCLES WC_FUZZ_SEED WC_FUZZ_COUNT WC_WAIT_SCALE \
		 WC_FUZZ_MAX_NODES WC_FUZZ_PHASES WC_SCHEMES WC_LABEL_SCHEMES \
		 WC_MEMBERSHIP_SIDE WC_FAULT_STRESS_SECONDS WC_FAULT_STRESS_SEED \
		 WC_FAULT_STRESS_MTBF WC_FAULT_STRESS_MTTR WC_FAULT_STRESS_FABRICS; do
		eval "val=\${$v:-}"
		case "$val" in
		"") ;;
		*[!A-Za-z0-9_,.-]*) echo "run.sh: $v must be a plain word" >&2; exit 2 ;;
		*) cmdline="$cmdline wc.env=$v=$val" ;;
		esac
	done

	progress "booting ${KVER:-$kernel} (TCG), mode $mode, output in $out"
	if [ "${WC_VM_VERBOSE:-0}" = 1 ]; then
		tail -n +1 -f "$serial" >&2 &
	else
		# each line with the host's time since boot: the guest's clock runs
		# slow under TCG, and these are what a slow selftest is timed by
		tail -n +1 -f "$serial" 2>/dev/null | mawk -W interactive -v t0="$(date +%s)" \
			'/^wc-vm:/ { s = systime() - t0; printf "[%02d:%02d] %s\n", s / 60, s % 60, $0 }' >&2 &
	fi
	tailpid=$!
	start=$(date +%s)
	qrc=0
	rm -f "$serial.stalled"
	timeout -k 10 "$timeout_s" qemu-system-x86_64 -accel tcg -m "${WC_VM_MEM:-1024}" -smp 2 \
		-display none -no-reboot -nic none \
		-serial "file:$serial" -monitor none \
		-kernel "$kernel" -initrd "$initrd" -append "$cmdline" \
		-fsdev local,id=root,path=/,security_model=none,readonly=on,multidevs=remap \
		-device virtio-9p-pci,fsdev=root,mount_tag=root \
		-fsdev "local,id=tree,path=$WC_ROOT,security_model=none,readonly=on,multidevs=remap" \
		-device virtio-9p-pci,fsdev=tree,mount_tag=tree \
		-fsdev "local,id=out,path=$out,security_model=none,multidevs=remap" \
		-device virtio-9p-pci,fsdev=out,mount_tag=out \
		</dev/null >"$out/qemu.log" 2>&1 &
	# a guest that prints nothing on the console (boot, results, each
	# selftest's checks) for WC_VM_STALL seconds is stuck
	wait_progress $! "$serial" "${WC_VM_STALL:-600}" || qrc=$?
	sleep 0.2
	kill "$tailpid" 2>/dev/null || true
	wait "$tailpid" 2>/dev/null || true
	secs=$(($(date +%s) - start))
	progress "VM exited after ${secs}s (qemu status $qrc)"

	rc=0
	{
		[ -f "$out/results" ] && cat "$out/results"
		if [ -f "$out/finished" ]; then
			echo "ok - VM finished (${secs}s)"
		elif [ -f "$serial.stalled" ]; then
			echo "not ok - VM finished (stalled: no console output for ${WC_VM_STALL:-600}s)"
		elif [ "$qrc" = 124 ] || [ "$qrc" = 137 ]; then
			echo "not ok - VM finished (killed after ${timeout_s}s)"
		else
			echo "not ok - VM finished (qemu status $qrc, see $serial)"
			sed 's/^/# qemu: /' "$out/qemu.log"
		fi
		# The console catches what dmesg cannot (a panic); dmesg catches
		# what the console's loglevel hides.
		# Not splats: an unsigned module, and a debug kernel's boot banner.
		cat "$out/dmesg" "$serial" 2>/dev/null | tr -d '\r' | grep -E "$SPLAT_RE" |
			grep -v -e 'module verification failed' \
				-e 'RCU lockdep checking is enabled' |
			sort -u >"$out/splats" || true
		if [ -s "$out/splats" ]; then
			echo "not ok - kernel log clean (no BUG/WARNING/Oops/KASAN/lockdep)"
			head -n 40 "$out/splats" | sed 's/^/# /'
		elif [ -f "$out/dmesg" ]; then
			echo "ok - kernel log clean (no BUG/WARNING/Oops/KASAN/lockdep)"
		else
			echo "not ok - kernel log clean (dmesg not collected)"
		fi
	} | number_tap || rc=1

	if [ "$rc" = 0 ] && [ "${WC_VM_KEEP:-0}" != 1 ]; then
		rm -rf "$out"
	else
		progress "logs kept in $out"
	fi
	return "$rc"
}

[ $# -ge 1 ] || usage
if [ "$1" = guest ]; then
	shift
	guest_main "$@"
else
	host_main "$@"
fi
