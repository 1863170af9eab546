#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Packaging (Documentation/tools.rst, "Packaging"): man pages render without
# a warning and name every command word and option the real binaries' usage
# lists, the systemd unit verifies, "make install-tools", "install-dkms" and
# "install-module" with DESTDIR install what they should, the bash
# completion completes, the iproute2 plugin matches the installed ip, and
# the module builds and installs through DKMS into temporary trees, and
# the DKMS-built module loads in the VM (Debian's kernel), makes a fabric
# and unloads.  Prints TAP.  About a minute on 2 cores, most of it two
# builds of the module, both in temporary trees ("make install-module" and
# DKMS; WC_PKG_DKMS=0 skips the latter), and the VM boot (WC_PKG_VM=0
# skips it).
set -u
cd "$(dirname "$0")/.."
top=$PWD
BUILD=${BUILD:-build}
KDIR=${KDIR:-$(ls -d /lib/modules/*/build 2>/dev/null | sort | tail -n 1)}
KVER=$(basename "$(dirname "$KDIR")" 2>/dev/null)

n=0
fail=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
notok() { n=$((n + 1)); fail=1; echo "not ok $n - $*"; }
skip() { n=$((n + 1)); echo "ok $n - # SKIP $*"; }
check() {	# check "description" command...
	local d=$1 out
	shift
	if out=$("$@" 2>&1); then
		ok "$d"
	else
		notok "$d"
		printf '%s\n' "$out" | head -n 15 | sed 's/^/# /'
	fi
}

tmp=$(mktemp -d /tmp/wc-packaging.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

if ! out=$(make -s tools man 2>&1); then
	notok "make tools man"
	printf '%s\n' "$out" | head -n 20 | sed 's/^/# /'
	echo "1..$n"
	exit 1
fi
ok "make tools man (rst2man --halt=warning)"

# ---------------------------------------------------------------- man pages
pages=$(ls "$BUILD"/man/*.[148])
for p in $pages; do
	name=${p##*/}
	if err=$(groff -man -Tutf8 -ww -z "$p" 2>&1) && [ -z "$err" ]; then
		ok "$name: groff -man -ww renders without a warning"
	else
		notok "$name: groff -man -ww"
		printf '%s\n' "$err" | head -n 10 | sed 's/^/# /'
	fi
	MANWIDTH=100 man -l "$p" 2>"$tmp/man.err" | col -bx >"$tmp/$name.txt"
	if [ -s "$tmp/$name.txt" ] && [ ! -s "$tmp/man.err" ]; then
		ok "$name: man -l renders"
	else
		notok "$name: man -l"
		sed 's/^/# /' "$tmp/man.err" | head -n 10
	fi
done

# mentions PAGE WORD...: every WORD appears in the rendered page.
mentions() {
	local page=$1 w missing=""
	shift
	for w in "$@"; do
		grep -qF -e "$w" "$tmp/$page.txt" || missing="$missing $w"
	done
	[ -z "$missing" ] || { echo "missing:$missing"; return 1; }
}

# The command words of "wormctl help": the COMMAND := block parsed by
# brace depth; "top" are the commands (depth 1), "all" every word.
"$BUILD/wormctl" help >"$tmp/wormctl.usage" 2>&1
python3 - "$tmp/wormctl.usage" "$tmp" <<'EOF'
import re, sys
text = open(sys.argv[1]).read()
block = text[text.index("COMMAND :="):text.index("OPTIONS :=")]
opts = text[text.index("OPTIONS :="):].split("\n")[0]
toks = re.findall(r"[{}|\[\]]|[A-Za-z_][A-Za-z0-9_-]*|\.\.\.", block.split(":=", 1)[1])
depth, top, words, start = 0, [], [], True
for t in toks:
    if t in "{[":
        depth += 1; start = t == "{"
    elif t in "}]":
        depth -= 1; start = False
    elif t == "|":
        start = True
    elif t != "...":
        if t.islower() or "_" in t:
            if depth == 1 and start and t not in top:
                top.append(t)
            if t not in words:
                words.append(t)
        start = False
flags = []
for short, rest in re.findall(r"(-[A-Za-z])\[([a-z]+)\]", opts):
    flags += [short, short + rest]
schemes = re.search(r"multicast \(([^)]*)\)", text.replace("\n", " "))
schemes = re.sub(r"\s+", " ", schemes.group(1)).replace(",", "").split() if schemes else []
open(sys.argv[2] + "/wormctl.top", "w").write(" ".join(top))
open(sys.argv[2] + "/wormctl.words", "w").write(" ".join(words + flags + schemes))
open(sys.argv[2] + "/wormctl.schemes", "w").write(" ".join(schemes))
EOF
read -r -a cmds <"$tmp/wormctl.top"
read -r -a words <"$tmp/wormctl.words"
if [ "${#cmds[@]}" -ge 4 ] && [ "${#words[@]}" -ge 15 ]; then
	ok "wormctl help parsed: commands ${cmds[*]}"
else
	notok "wormctl help parsed (${cmds[*]} / ${words[*]})"
fi
check "wormctl.8 names every word and option of wormctl's usage" \
	mentions wormctl.8 "${words[@]}"

# wormcastd and wormsim: every option their --help lists.
mapfile -t dopts < <("$BUILD/wormcastd" --help 2>&1 |
	grep -oE '(^|[ [,])--?[A-Za-z][A-Za-z-]*' | sed 's/^[ [,]//' | sort -u)
check "wormcastd.8 names every option of wormcastd --help (${#dopts[@]})" \
	mentions wormcastd.8 "${dopts[@]}"
mapfile -t sopts < <("$BUILD/wormsim" --help 2>&1 |
	grep -oE '^ +--?[a-z][a-z-]*(, --[a-z-]+)?' | tr ',' '\n' | tr -d ' ' | sort -u)
check "wormsim --help parsed (${#sopts[@]} options)" test "${#sopts[@]}" -ge 30
check "wormsim.1 names every option of wormsim --help" mentions wormsim.1 "${sopts[@]}"

# wormcast.4: every word of the plugin's syntax (ip link help wormcast, up
# to the SIZES line).
IP_LIB_DIR=$BUILD ip link help wormcast >"$tmp/ip.usage" 2>&1
mapfile -t iwords < <(sed -n '1,/^SIZES/p' "$tmp/ip.usage" | sed 's/(e\.g\..*//' |
	grep -oE '(^|[ {|[])[a-z][a-z0-9_-]*' | tr -d ' {|[' | sort -u)
check "ip link help wormcast parsed (${#iwords[@]} words)" test "${#iwords[@]}" -ge 25
check "wormcast.4 names every word of ip link help wormcast" mentions wormcast.4 "${iwords[@]}"

# ---------------------------------------------------------------- install
dest=$tmp/dest
if out=$(make -s install-tools install-dkms DESTDIR="$dest" PREFIX=/usr 2>&1); then
	ok "make install-tools install-dkms DESTDIR PREFIX=/usr"
else
	notok "make install-tools install-dkms DESTDIR"
	printf '%s\n' "$out" | head -n 20 | sed 's/^/# /'
fi
ver=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' dkms.conf)
missing=""
for f in usr/sbin/wormctl usr/sbin/wormcastd usr/bin/wormsim usr/bin/wc-heatmap \
	usr/lib/ip/link_wormcast.so usr/include/linux/wormcast.h \
	etc/systemd/system/wormcastd.service etc/wormcast/wormcastd.conf \
	usr/share/man/man8/wormctl.8 usr/share/man/man8/wormcastd.8 \
	usr/share/man/man1/wormsim.1 usr/share/man/man4/wormcast.4 \
	usr/share/bash-completion/completions/wormctl \
	usr/share/doc/wormcast/tools.rst \
	"usr/src/wormcast-$ver/dkms.conf" "usr/src/wormcast-$ver/Kbuild" \
	"usr/src/wormcast-$ver/uapi/linux/wormcast.h"; do
	[ -e "$dest/$f" ] || missing="$missing $f"
done
for f in kmod/*.[ch] kmod/engine/*.[ch]; do
	[ -e "$dest/usr/src/wormcast-$ver/$f" ] || missing="$missing $f"
done
check "installed files present${missing:+ (missing:$missing)}" test -z "$missing"
check "unit runs PREFIX's wormcastd" \
	grep -qx 'ExecStart=/usr/sbin/wormcastd' "$dest/etc/systemd/system/wormcastd.service"
check "dkms.conf PACKAGE_VERSION $ver is wormctl's version" \
	sh -c "'$BUILD/wormctl' -V | grep -q '^wormctl $ver '"

# ---------------------------------------------------------------- systemd
# The installed unit, its commands relocated into DESTDIR (verify checks
# that they exist) and man: found in DESTDIR's man tree.
if command -v systemd-analyze >/dev/null; then
	sed "s|=/usr/|=$dest/usr/|" "$dest/etc/systemd/system/wormcastd.service" \
		>"$tmp/wormcastd.service"
	if out=$(MANPATH=$dest/usr/share/man systemd-analyze verify \
		"$tmp/wormcastd.service" 2>&1) && [ -z "$out" ]; then
		ok "systemd-analyze verify wormcastd.service: clean"
	else
		notok "systemd-analyze verify wormcastd.service"
		printf '%s\n' "$out" | head -n 10 | sed 's/^/# /'
	fi
else
	notok "systemd-analyze missing (systemd; run 'make deps')"
fi
check "installed wormcastd.conf passes --check-config" \
	"$BUILD/wormcastd" -c "$dest/etc/wormcast/wormcastd.conf" --check-config

# ---------------------------------------------------------------- completion
# comp WORD...: what the installed completion offers for the last word.
comp() {
	bash -c '
		PATH=$1:$PATH; shift
		. "$0"
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
		COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
		_wormctl wormctl "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
		printf "%s\n" "${COMPREPLY[@]}" | sort | tr "\n" " "
	' "$dest/usr/share/bash-completion/completions/wormctl" "$top/$BUILD" "$@"
}
want=$(printf '%s\n' "${cmds[@]}" | sort | tr '\n' ' ')
check "completion: commands are wormctl help's (${cmds[*]})" \
	test "$(comp wormctl '')" = "$want"
check "completion: wormctl st -> stats" test "$(comp wormctl st)" = "stats "
check "completion: options" test "$(comp wormctl -j -p)" = "-p -pretty "
want=$(tr ' ' '\n' <"$tmp/wormctl.schemes" | sort | tr '\n' ' ')
check "completion: multicast schemes are the usage's ($want)" \
	test "$(comp wormctl fabric set lo multicast '')" = "$want"
check "completion: fabric set DEV words" \
	test "$(comp wormctl fabric set lo '')" = "cycle_ns fault-info multicast recv_ovh send_ovh watchdog "
check "completion: fault-info values" \
	test "$(comp wormctl fabric set lo fault-info '')" = "global local "
check "completion: stats DEV" test "$(comp wormctl stats lo '')" = "--links node total "
check "completion: devices (lo offered when no wormcast device answers)" \
	sh -c "case '$(comp wormctl stats '')' in *lo*) exit 0;; esac; exit 1"
check "completion: plan structures" \
	test "$(comp wormctl plan torus 8x8 dstm)" = "dstm-1 dstm-2 dstm-header "

# ---------------------------------------------------------------- iproute2
plugin=$BUILD/link_wormcast.so
missing=$(nm -D --undefined-only "$plugin" | awk '$1 == "U" && $2 !~ /@/ { print $2 }' |
	while read -r s; do
		nm -D --defined-only "$(command -v ip)" | awk '{ print $3 }' |
			grep -qx "$s" || echo "$s"
	done)
check "plugin: every symbol it needs is exported by $(command -v ip)${missing:+ (missing: $missing)}" \
	test -z "$missing"
iver=$(dpkg-query -W -f='${Version}' iproute2 2>/dev/null)
hver=$(strings "$plugin" | sed -n 's/^iproute2 headers //p')
check "plugin: built against iproute2 $hver headers, installed ${iver:-none}" \
	test -n "$hver" -a "${hver%-*}" = "${iver%-*}"
check "plugin: ip link help wormcast prints the usage" \
	grep -q '^Usage: ip link add NAME type wormcast' "$tmp/ip.usage"

# ---------------------------------------------------------------- module
if [ -z "$KVER" ] || [ ! -d "$KDIR" ]; then
	skip "no kernel build tree: make install-module"
	skip "no kernel build tree: DKMS"
	echo "1..$n"
	exit $fail
fi
# From a copy of the installed DKMS sources and the Makefile: the tree's own
# objects are left alone (make check runs kbuild on them beside this test).
mkdir -p "$tmp/src"
cp -r "$dest/usr/src/wormcast-$ver/." Makefile "$tmp/src/"
if out=$(make -s -C "$tmp/src" install-module KDIR="$KDIR" DESTDIR="$tmp/mod" 2>&1) &&
	[ -f "$tmp/mod/lib/modules/$KVER/extra/wormcast.ko" ] &&
	grep -q 'extra/wormcast.ko' "$tmp/mod/lib/modules/$KVER/modules.dep"; then
	ok "make install-module DESTDIR: extra/wormcast.ko, in modules.dep"
else
	notok "make install-module DESTDIR"
	printf '%s\n' "$out" | tail -n 10 | sed 's/^/# /'
fi

if [ "${WC_PKG_DKMS:-1}" = 0 ]; then
	skip "WC_PKG_DKMS=0"
elif ! command -v dkms >/dev/null; then
	notok "dkms missing (run 'make deps')"
else
	# Private trees; a throw-away signing key (dkms signs with the
	# kernel's sign-file; without these it would make /var/lib/dkms/mok.*);
	# --no-depmod: the host's /lib/modules stays as it is.
	d=$tmp/dkms
	mkdir -p "$d/tree" "$d/inst/$KVER"
	o=(--dkmstree "$d/tree" --sourcetree "$dest/usr/src" --installtree "$d/inst")
	k=(-k "$KVER" --kernelsourcedir "$KDIR")
	export mok_signing_key=$d/mok.key mok_certificate=$d/mok.pub
	if out=$( { dkms add -m wormcast -v "$ver" "${o[@]}" &&
		dkms build -m wormcast -v "$ver" "${k[@]}" "${o[@]}" &&
		dkms install -m wormcast -v "$ver" "${k[@]}" --no-depmod "${o[@]}"; } 2>&1); then
		ok "dkms add, build, install wormcast/$ver for $KVER"
	else
		notok "dkms add, build, install"
		printf '%s\n' "$out" | tail -n 15 | sed 's/^/# /'
		cat "$d/tree/wormcast/$ver/build/make.log" 2>/dev/null | tail -n 15 | sed 's/^/# /'
	fi
	check "dkms status: installed" sh -c \
		"dkms status -m wormcast ${o[*]} | grep -q 'wormcast/$ver, $KVER, .*: installed'"
	ko=$(ls "$d/inst/$KVER"/updates/dkms/wormcast.ko* 2>/dev/null | head -n 1)
	check "modinfo of the DKMS module: name, vermagic $KVER, signed by the DKMS key" sh -c \
		"test -n '$ko' &&
		 test \"\$(modinfo -F name '$ko')\" = wormcast &&
		 modinfo -F vermagic '$ko' | grep -q '^$KVER ' &&
		 modinfo -F signer '$ko' | grep -q 'DKMS module signing key' &&
		 modinfo -F alias '$ko' | grep -qx 'rtnl-link-wormcast'"
	# The DKMS-built module in the VM (Debian's kernel): it loads, makes a
	# fabric and unloads with a clean kernel log (tests/vm/run.sh checks
	# the log).  The VM sees the host's root but not its /tmp.
	vmko=$top/$BUILD/pkg-dkms/wormcast.ko
	mkdir -p "$(dirname "$vmko")" && rm -f "$vmko"
	case $ko in
	*.xz) xz -dc "$ko" >"$vmko" ;;
	*.zst) zstd -qdc "$ko" >"$vmko" ;;
	*) cp "$ko" "$vmko" ;;
	esac
	if [ "${WC_PKG_VM:-1}" = 0 ]; then
		skip "WC_PKG_VM=0"
	elif out=$(WC_MODULE=$vmko WC_VM_TIMEOUT=${WC_VM_TIMEOUT:-600} \
		"$top/tests/vm/run.sh" shell \
		'ip link add wcd type wormcast topology mesh dims 2x2 &&
		 ip -d link show wcdn3 | grep -q "wormcast" &&
		 ip link del wcd' </dev/null 2>&1) &&
		! printf '%s\n' "$out" | grep -q '^not ok'; then
		ok "the DKMS module loads in the VM, makes a fabric, unloads, kernel log clean"
	else
		notok "the DKMS module in the VM"
		printf '%s\n' "$out" | grep -v '^ok' | tail -n 15 | sed 's/^/# /'
	fi
	check "dkms remove --all" dkms remove -m wormcast -v "$ver" --all --no-depmod "${o[@]}"
fi

echo "1..$n"
exit $fail
