#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Build (once, cached) an x86_64 debug kernel for the VM selftests: Debian's
# linux-source-6.1, "make tinyconfig" plus tests/vm/debug-kernel.config
# (KASAN, lockdep, PROVE_RCU, DEBUG_ATOMIC_SLEEP, ... and everything the
# guest needs, built in).  Prints the kernel build directory on stdout: its
# arch/x86/boot/bzImage boots with WC_KERNEL=, and external modules build
# against it with "make -C DIR M=...".
#
#   tests/vm/debug-kernel.sh          build if needed, print the build dir
#   tests/vm/debug-kernel.sh --module DIR
#                                     also build wormcast.ko against it in
#                                     DIR (a copy of Kbuild, kmod/, uapi/:
#                                     Kbuild writes objects next to the
#                                     sources, so the work tree's own
#                                     build is left alone); prints DIR's
#                                     wormcast.ko on a second line
#   tests/vm/debug-kernel.sh --kunit DIR
#                                     the same for wormcast_kunit.ko: the
#                                     KUnit suites kmod/tests/*_kunit.c
#                                     with the engine and the pure glue
#                                     helpers they test (kmod/mac.c,
#                                     kmod/dstset.c) and the table transaction
#                                     (kmod/tables.c); the suites run when
#                                     it is loaded
#
# The cache is ${XDG_CACHE_HOME:-$HOME/.cache}/wormcast/debug-kernel-KEY,
# KEY a hash of the config fragment, the build recipe's version, the
# source version and the compiler.
# The source is ~/.cache/wormcast/linux-source-6.1 (extracted from
# /usr/src/linux-source-6.1.tar.xz if missing), only ever read: the build
# uses O=.  Environment: WC_KSRC (another source tree), WC_JOBS (make -j).
set -eu

WC_ROOT=$(cd "$(dirname "$0")/../.." && pwd)
FRAGMENT="$WC_ROOT/tests/vm/debug-kernel.config"
CACHE=${XDG_CACHE_HOME:-$HOME/.cache}/wormcast
TARBALL=/usr/src/linux-source-6.1.tar.xz
# One job more than cores: in make check this build shares the two cores
# with Debian's selftests' VM, and it is the first half of the longest
# chain (the debug selftests wait for it); with as many jobs as cores it
# took 1268 s of a 2671 s run (Documentation/testing.rst, "Time budget").
JOBS=${WC_JOBS:-$(($(nproc) + 1))}

progress() {
	echo "debug-kernel: $*" >&2
}

die() {
	echo "debug-kernel: $*" >&2
	exit 1
}

module_dir=""
module_kind=""
case "${1:-}" in
"") ;;
--module | --kunit)
	[ $# = 2 ] || die "usage: $0 [--module DIR | --kunit DIR]"
	module_kind=${1#--}
	module_dir=$2
	;;
*)
	echo "usage: $0 [--module DIR | --kunit DIR]" >&2
	exit 2
	;;
esac
case "$JOBS" in '' | *[!0-9]* | 0) die "bad WC_JOBS '$JOBS'" ;; esac

# The source tree: shared and read-only for us.
ksrc=${WC_KSRC:-$CACHE/linux-source-6.1}
if [ ! -f "$ksrc/Makefile" ]; then
	[ -z "${WC_KSRC:-}" ] || die "$ksrc is not a kernel source tree"
	[ -r "$TARBALL" ] || die "$TARBALL missing (apt-get install linux-source-6.1)"
	progress "extracting $TARBALL into $CACHE"
	mkdir -p "$CACHE"
	tmp=$(mktemp -d "$CACHE/linux-source-6.1.XXXXXX")
	tar -C "$tmp" -xf "$TARBALL"
	mv "$tmp/linux-source-6.1" "$ksrc" 2>/dev/null || [ -f "$ksrc/Makefile" ] ||
		die "cannot extract $TARBALL"
	rm -rf "$tmp"
fi
[ ! -e "$ksrc/.config" ] || die "$ksrc has a .config: O= builds need a clean source tree"
kversion=$(make -s -C "$ksrc" kernelversion 2>/dev/null) || die "cannot read the version of $ksrc"

# Bump when the build steps below change; edits elsewhere in this script
# (the module part) keep the cached kernel.
RECIPE=2
key=$( (cat "$FRAGMENT"; echo "recipe $RECIPE"; echo "$kversion"; gcc --version | head -n 1) |
	sha256sum | cut -c1-12)
kbuild="$CACHE/debug-kernel-$key"

# One builder at a time; a second caller waits and then finds the cache.
mkdir -p "$CACHE"
exec 9>"$CACHE/debug-kernel.lock"
flock 9

if [ ! -f "$kbuild/.wc-complete" ]; then
	progress "building $kversion in $kbuild (a few minutes; log in $kbuild/build.log)"
	rm -rf "$kbuild"
	mkdir -p "$kbuild"
	start=$(date +%s)
	mk() {
		make -C "$ksrc" O="$kbuild" ARCH=x86_64 "$@" >>"$kbuild/build.log" 2>&1 ||
			{ tail -n 30 "$kbuild/build.log" >&2; die "make $* failed"; }
	}
	mk tinyconfig
	(cd "$kbuild" && "$ksrc/scripts/kconfig/merge_config.sh" -m .config "$FRAGMENT") \
		>>"$kbuild/build.log" 2>&1 || die "merge_config.sh failed"
	mk olddefconfig
	# Kconfig silently drops a symbol whose dependencies are not met:
	# insist on every line of the fragment.
	bad=$(grep -E '^(CONFIG_[A-Za-z0-9_]+=|# CONFIG_[A-Za-z0-9_]+ is not set)' "$FRAGMENT" |
		while read -r line; do
			case "$line" in
			"# "*)
				sym=${line#\# }
				sym=${sym%% *}
				! grep -q "^$sym=" "$kbuild/.config" || echo "$sym"
				;;
			*)
				grep -qx "$line" "$kbuild/.config" || echo "${line%%=*}"
				;;
			esac
		done)
	[ -z "$bad" ] || die "not set as $FRAGMENT asks: $(echo "$bad" | tr '\n' ' ')"
	mk -j"$JOBS" bzImage modules_prepare
	# modpost wants the kernel's Module.symvers, written by a full build.
	mk -j"$JOBS" vmlinux modules
	[ -f "$kbuild/arch/x86/boot/bzImage" ] || die "no bzImage in $kbuild"
	touch "$kbuild/.wc-complete"
	progress "built in $(($(date +%s) - start))s"
fi
echo "$kbuild"

[ -n "$module_dir" ] || exit 0
case "$module_dir" in /*) ;; *) module_dir="$PWD/$module_dir" ;; esac
mkdir -p "$module_dir"
# --delete, but keep the objects of unchanged sources (make rebuilds only
# what changed, as in the work tree).  The KUnit module's Kbuild is
# generated, so the work tree's is not copied for it.
kbuild_filter=--include=/Kbuild
[ "$module_kind" = kunit ] && kbuild_filter=--exclude=/Kbuild
rsync -a --delete --exclude='*.o' --exclude='*.ko' --exclude='*.mod*' \
	--exclude='.*.cmd' --exclude='modules.order' --exclude='Module.symvers' \
	"$kbuild_filter" --include='/kmod/***' --include='/uapi/***' --exclude='*' \
	"$WC_ROOT/" "$module_dir/"
module=wormcast
if [ "$module_kind" = kunit ]; then
	module=wormcast_kunit
	objs=$(cd "$module_dir" && ls kmod/engine/*.c kmod/mac.c kmod/dstset.c kmod/tables.c \
		kmod/tests/*_kunit.c | sed 's/\.c$/.o/' | tr '\n' ' ')
	kbuild_text="# SPDX-License-Identifier: GPL-2.0
# Generated by tests/vm/debug-kernel.sh --kunit: wormcast's KUnit suites.
obj-m := wormcast_kunit.o
wormcast_kunit-y := $objs
ccflags-y += -Werror -I\$(src)/uapi -I\$(src)/kmod/engine -I\$(src)/kmod"
	# rewritten only when it changes, so that make rebuilds nothing else
	[ "$(cat "$module_dir/Kbuild" 2>/dev/null)" = "$kbuild_text" ] ||
		printf '%s\n' "$kbuild_text" >"$module_dir/Kbuild"
fi
progress "building $module.ko in $module_dir"
make -C "$kbuild" M="$module_dir" -j"$JOBS" modules >"$module_dir/build.log" 2>&1 ||
	{ cat "$module_dir/build.log" >&2; die "$module.ko does not build against $kbuild"; }
echo "$module_dir/$module.ko"
