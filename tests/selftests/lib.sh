# SPDX-License-Identifier: GPL-2.0
#
# Helpers for the VM selftests (tests/selftests/NN-*.sh): TAP output, fabric
# and network namespace set-up with automatic clean-up.  Sourced, not run.
#
# A selftest runs as root inside the VM (tests/vm/run.sh) with wormcast.ko
# loaded, IP_LIB_DIR pointing at the iproute2 plugin and wormctl on PATH.
# It prints TAP: results as they come, the plan at the end (done_testing).

WC_ROOT=${WC_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
export IP_LIB_DIR=${IP_LIB_DIR:-${WC_BUILD:-$WC_ROOT/build}}
# the UDP sender and receiver (wc-udp.c; "make" builds it)
UDP=${WC_BUILD:-$WC_ROOT/build}/wc-udp

_tap_n=0
_tap_failed=0
_netns=""
_fabrics=""
_pids=""
WC_TMP=$(mktemp -d /tmp/wc-selftest.XXXXXX)

# ---------------------------------------------------------------- TAP

# (Line by line in the shell, no sed: under TCG every exec costs.)
diag() {
	_d="$*"
	while :; do
		case $_d in
		*"
"*)
			printf '# %s\n' "${_d%%"
"*}"
			_d=${_d#*"
"}
			;;
		*)
			printf '# %s\n' "$_d"
			return 0
			;;
		esac
	done
}

# Progress on the VM console (the harness copies it to its stderr).
# (The script's name without a process: under TCG every fork and exec
# costs, and a test with many checks prints many lines.)
_progress() {
	_pname=${0##*/}
	[ -w /dev/console ] && [ -n "${WC_VM_GUEST:-}" ] &&
		echo "wc-vm:   ${_pname%.sh}: $*" >/dev/console 2>/dev/null
	return 0
}

ok() {
	_tap_n=$((_tap_n + 1))
	echo "ok $_tap_n - $*"
	_progress "ok $_tap_n - $*"
}

# not_ok NAME [DIAGNOSTIC...]
not_ok() {
	_tap_n=$((_tap_n + 1))
	_tap_failed=$((_tap_failed + 1))
	echo "not ok $_tap_n - $1"
	_progress "not ok $_tap_n - $1"
	shift
	[ $# -eq 0 ] || diag "$@"
}

# check NAME CMD [ARGS...]: ok if CMD succeeds; its output is shown if not.
check() {
	_name=$1
	shift
	if _out=$("$@" 2>&1); then
		ok "$_name"
	else
		not_ok "$_name" "command: $*" "$_out"
	fi
}

# refuse NAME CMD [ARGS...]: ok if CMD fails (and says why on stderr).
refuse() {
	_name=$1
	shift
	if _out=$("$@" 2>&1); then
		not_ok "$_name" "command succeeded: $*" "$_out"
	elif [ -z "$_out" ]; then
		not_ok "$_name" "failed without an error message: $*"
	else
		ok "$_name"
	fi
}

# is NAME GOT EXPECTED
is() {
	if [ "$2" = "$3" ]; then
		ok "$1"
	else
		not_ok "$1" "got:      $2" "expected: $3"
	fi
}

done_testing() {
	echo "1..$_tap_n"
	[ "$_tap_failed" = 0 ]
}

# ---------------------------------------------------------------- clean-up

# stop_pids PID...: kill them and wait for them.
stop_pids() {
	for _p in "$@"; do
		kill "$_p" 2>/dev/null
	done
	for _p in "$@"; do
		wait "$_p" 2>/dev/null
	done
}

# bg_stop: stop every background process started with bg, and wait for them.
bg_stop() {
	stop_pids $_pids
	_pids=""
}

# stress_results FILE [PREFIX]: stress.py's "PASS name", "FAIL name<TAB>why"
# and "# ..." lines in FILE as TAP, each name after "PREFIX: " if given.
stress_results() {
	_pfx=${2:+$2: }
	while IFS= read -r _line; do
		case "$_line" in
		PASS\ *) ok "$_pfx${_line#PASS }" ;;
		FAIL\ *)
			_rest=${_line#FAIL }
			not_ok "$_pfx${_rest%%	*}" "${_rest#*	}"
			;;
		*) diag "$_pfx${_line#\# }" ;;
		esac
	done <"$1"
}

# run_tap_py CMD...: run a helper that prints "ok - NAME", "not ok - NAME"
# and "# ..." lines (tables.py, nlfuzz.py), numbered here as TAP; a
# failure without a "not ok" line is one, with the helper's stderr.
run_tap_py() {
	"$@" >"$WC_TMP/py.out" 2>"$WC_TMP/py.err"
	_rc=$?
	while IFS= read -r _line; do
		case "$_line" in
		"ok - "*) ok "${_line#ok - }" ;;
		"not ok - "*) not_ok "${_line#not ok - }" ;;
		"# "*) echo "$_line" ;;
		*) diag "$_line" ;;
		esac
	done <"$WC_TMP/py.out"
	if [ "$_rc" != 0 ] && ! grep -q '^not ok' "$WC_TMP/py.out"; then
		not_ok "$* exit status $_rc" "$(tail -n 30 "$WC_TMP/py.err")"
	elif [ -s "$WC_TMP/py.err" ]; then
		diag "stderr:" "$(tail -n 10 "$WC_TMP/py.err")"
	fi
}

cleanup() {
	bg_stop
	for ns in $_netns; do
		ip netns del "$ns" 2>/dev/null
	done
	for f in $_fabrics; do
		ip link del "$f" 2>/dev/null
	done
	rm -rf "$WC_TMP"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# bg CMD...: run CMD in the background, killed at exit; sets $bg_pid.  Its
# output goes to $WC_TMP/bg.log, away from the TAP stream.
bg() {
	# "nsx NS CMD" as "ip netns exec NS CMD", which execs CMD: $bg_pid
	# is then CMD itself, not a subshell whose kill would leave CMD
	# running (a test that starts many receivers would fill memory).
	if [ "$1" = nsx ]; then
		shift
		set -- ip netns exec "$@"
	fi
	"$@" >>"$WC_TMP/bg.log" 2>&1 &
	bg_pid=$!
	_pids="$_pids $bg_pid"
}

# ---------------------------------------------------------------- fabrics

# wc_add NAME ARGS...: ip link add NAME type wormcast ARGS, deleted at exit.
wc_add() {
	_f=$1
	shift
	ip link add "$_f" type wormcast "$@" || return 1
	_fabrics="$_fabrics $_f"
}

wc_del() {
	ip link del "$1"
}

# JSON of every wormcast device in the current namespace (or in netns $2).
wc_json() {
	if [ -n "${1:-}" ]; then
		ip -n "$1" -d -j link show
	else
		ip -d -j link show
	fi | jq '[.[] | select(.linkinfo.info_kind == "wormcast")]'
}

# wc_field DEV JQ-FILTER [NETNS]: a field of linkinfo.info_data of DEV.
wc_field() {
	if [ -n "${3:-}" ]; then
		ip -n "$3" -d -j link show dev "$1"
	else
		ip -d -j link show dev "$1"
	fi | jq -c ".[0].linkinfo.info_data | $2"
}

# Node device names of fabric device $1 in the current namespace, by node id.
wc_nodes() {
	_id=$(wc_field "$1" .fabric)
	wc_json | jq -r "map(select(.linkinfo.info_data.fabric == $_id and
		.linkinfo.info_data.role == \"node\")) | sort_by(.linkinfo.info_data.node) |
		.[].ifname"
}

# Number of wormcast devices in the current namespace.
wc_count() {
	wc_json | jq length
}

# Number of network devices of any kind in the current namespace (cheap:
# no process; sysfs was mounted in the initial namespace).
ndevs() {
	set -- /sys/class/net/*
	echo $#
}

# ---------------------------------------------------------------- namespaces

# ns_quiet: in the initial namespace and in every namespace made after it
# (net.core.devconf_inherit_init_net), router solicitations and duplicate
# address detection off, and the repeats of unsolicited IGMP and MLD
# reports (a join's, an address's) 10 ms apart at most instead of a
# second: so a node sends nothing unasked for once its addresses are set
# and its joins a moment old (exact counters).  Once per boot, not once
# per namespace: under TCG every exec costs.
ns_quiet() {
	_inherit=0
	read -r _inherit </proc/sys/net/core/devconf_inherit_init_net 2>/dev/null
	[ "$_inherit" = 1 ] && return 0
	sysctl -qw net.ipv6.conf.default.router_solicitations=0 \
		net.ipv6.conf.all.router_solicitations=0 \
		net.ipv6.conf.default.dad_transmits=0 \
		net.ipv6.conf.all.dad_transmits=0 \
		net.ipv4.conf.default.igmpv2_unsolicited_report_interval=10 \
		net.ipv4.conf.all.igmpv2_unsolicited_report_interval=10 \
		net.ipv4.conf.default.igmpv3_unsolicited_report_interval=10 \
		net.ipv4.conf.all.igmpv3_unsolicited_report_interval=10 \
		net.ipv6.conf.default.mldv1_unsolicited_report_interval=10 \
		net.ipv6.conf.all.mldv1_unsolicited_report_interval=10 \
		net.ipv6.conf.default.mldv2_unsolicited_report_interval=10 \
		net.ipv6.conf.all.mldv2_unsolicited_report_interval=10 \
		net.core.devconf_inherit_init_net=1
}

# ns_new NAME: a network namespace with lo up and ns_quiet's
# settings, deleted at exit.
ns_new() {
	ns_quiet || return 1
	ip netns add "$1" || return 1
	_netns="$_netns $1"
	ip -n "$1" link set lo up
}

# ns_del NAME...: delete namespaces now (and forget them for the clean-up),
# in one ip batch and no other process (under TCG every exec costs).
ns_del() {
	for _ns; do
		echo "netns del $_ns"
	done | ip -batch - || return 1
	_keep=""
	for _ns in $_netns; do
		case " $* " in
		*" $_ns "*) ;;
		*) _keep="$_keep $_ns" ;;
		esac
	done
	_netns=$_keep
}

# node_in_ns DEV NS ID: move node device DEV into NS, bring it up with
# 10.0.0.ID/16 and fd00::ID/64 (no DAD, so the addresses work at once), and
# route multicast through it; two processes.
node_in_ns() {
	ip link set "$1" netns "$2" || return 1
	node_up "$1" "$2" "$3"
}

# node_up DEV NS ID: node_in_ns's addresses and route, in one ip batch.
node_up() {
	printf '%s\n' "link set lo up" "link set $1 up" \
		"addr add $(ip4_of "$3")/16 dev $1" \
		"addr add $(ip6_of "$3")/64 dev $1 nodad" \
		"route replace 224.0.0.0/4 dev $1" |
		ip -n "$2" -batch -
}

# nodes_in_ns ID...: node_in_ns wcnID nID ID for each ID, the namespace
# made as ns_new makes it unless it exists, in few processes (one ip batch
# for the namespaces, one for the moves and one per namespace): under TCG
# every process costs, and a test with dozens of nodes in namespaces
# spends minutes on them otherwise.
nodes_in_ns() {
	_new=""
	for _id; do
		[ -e "/run/netns/n$_id" ] || _new="$_new $_id"
	done
	if [ -n "$_new" ]; then
		ns_quiet || return 1
		for _id in $_new; do
			echo "netns add n$_id"
		done | ip -batch - || return 1
		for _id in $_new; do
			_netns="$_netns n$_id"
		done
	fi
	for _id; do
		echo "link set wcn$_id netns n$_id"
	done | ip -batch - || return 1
	for _id; do
		node_up "wcn$_id" "n$_id" "$_id" || return 1
	done
}

# IPv4 / IPv6 address of the node set up by node_in_ns with ID.
ip4_of() {
	echo "10.0.$(($1 / 250)).$(($1 % 250 + 1))"
}

ip6_of() {
	printf 'fd00::%x\n' $(($1 + 1))
}

# static_neigh A B: a permanent neighbour entry in node A's namespace for
# node B (both set up by node_in_ns), so that no ARP crosses the fabric.
static_neigh() {
	_mac=$(ip -n "n$2" -j link show dev "wcn$2" | jq -r '.[0].address')
	ip -n "n$1" neigh replace "$(ip4_of "$2")" lladdr "$_mac" dev "wcn$1" nud permanent
}

# nsx NS CMD...: run CMD in NS.
nsx() {
	_ns=$1
	shift
	ip netns exec "$_ns" "$@"
}

# dev_stats DEV NS: "RX_PACKETS TX_PACKETS DROPS" of DEV in NS, DROPS the
# rx and tx drops and errors together.  From ip's text (one ip, no jq: a
# jq start costs about a second of CPU under TCG, and tests take these
# for every node twice a round).
dev_stats() {
	ip -n "$2" -s link show dev "$1" | {
		_sect="" _rx="" _tx="" _bad=0
		while read -r _bytes _pkts _errs _drops _rest; do
			case $_bytes in
			RX: | TX:) _sect=$_bytes; continue ;;
			esac
			case $_sect in
			RX:) _rx=$_pkts ;;
			TX:) _tx=$_pkts ;;
			*) continue ;;
			esac
			_bad=$((_bad + _errs + _drops)) _sect=""
		done
		[ -n "$_rx" ] && [ -n "$_tx" ] && echo "$_rx $_tx $_bad"
	}
}

# nodes_quiet ID...: the devices of these nodes (wcnID in namespace nID)
# sent and received nothing over the last half second; with wait_for, a
# wait until their joins' reports are over (ns_quiet: 10 ms apart).
nodes_quiet() {
	_nq0=$(for _id; do dev_stats "wcn$_id" "n$_id"; done)
	sleep 0.5
	[ "$(for _id; do dev_stats "wcn$_id" "n$_id"; done)" = "$_nq0" ]
}

# rx_packets DEV NS, tx_packets DEV NS, drops DEV NS: one of dev_stats's
rx_packets() {
	# shellcheck disable=SC2046
	set -- $(dev_stats "$1" "$2")
	echo "$1"
}

tx_packets() {
	# shellcheck disable=SC2046
	set -- $(dev_stats "$1" "$2")
	echo "$2"
}

drops() {
	# shellcheck disable=SC2046
	set -- $(dev_stats "$1" "$2")
	echo "$3"
}

# wait_for SECONDS CMD...: poll CMD until it succeeds, 0.1 s after the
# first try, then twice as long after each failed poll up to 1 s.  The
# ceiling is SECONDS times WC_WAIT_SCALE (default 3): what a quiet machine
# needs is far below SECONDS, and a slow or loaded one must not fail a
# test that is only slow.  It is counted in the sleeps between polls (no
# clock read), so a slow machine waits longer still.  Why the backoff:
# under TCG a sleep is an exec (about 0.1 s of CPU) and a poll that runs
# wormctl and jq about a second, so polling ten times a second took most
# of a CPU from what the test waits for.  A real hang is caught by the
# harness's progress watch (WC_SCRIPT_STALL) if a ceiling is not.
wait_for() {
	_left=$(($1 * ${WC_WAIT_SCALE:-3} * 10))	# tenths of a second
	_step=1
	shift
	until "$@" >/dev/null 2>&1; do
		[ "$_left" -gt 0 ] || return 1
		[ "$_step" -le "$_left" ] || _step=$_left
		case $_step in
		10) sleep 1 ;;
		*) sleep "0.$_step" ;;
		esac
		_left=$((_left - _step))
		_step=$((_step * 2))
		[ "$_step" -le 10 ] || _step=10
	done
}

# wc_stat FABRIC KEY: a fabric-wide value from "wormctl stats FABRIC",
# engine statistic or counter (e.g. worms_done, rx_frames, drop_self);
# empty if there is none.  (The text form and awk, not -j and jq: a jq
# start costs about a second of CPU under TCG, and tests poll these.)
wc_stat() {
	wormctl stats "$1" total | awk -v k="$2:" '
		/^[a-z]/ { sect = $1 }
		(sect == "engine:" || sect == "total:") && $1 == k { v = $2 }
		END { print v }'
}

# wc_node_counters FABRIC NODE NAME...: the node's counters NAME... on one
# line, tab-separated, from "wormctl stats FABRIC node NODE" (no jq).
wc_node_counters() {
	_fab=$1 _node=$2
	shift 2
	wormctl stats "$_fab" node "$_node" | awk -v names="$*" '
		NR > 1 { v[$1] = $2 }
		END {
			n = split(names, want, " ")
			for (i = 1; i <= n; i++)
				printf "%s%s", v[want[i] ":"], (i < n ? "\t" : "\n")
		}'
}

# wc_nodes_counter FABRIC NAME: "ID VALUE" of counter NAME for every node
# of FABRIC, one line each in node order, from one "wormctl stats" (its
# text lists each node's non-zero counters; a node device's rx_packets and
# tx_packets are its rx_frames and tx_frames).
wc_nodes_counter() {
	wormctl stats "$1" | awk -v k="$2" '
		$1 == "node" {
			id = $2
			sub(/:$/, "", id)
			v = 0
			for (i = 3; i < NF; i++)
				if ($i == k)
					v = $(i + 1)
			print id, v
		}'
}

# wc_table_committed FABRIC SCHEME [KIND]: the kernel holds a table of
# SCHEME (of KIND if given) for FABRIC, as "wormctl table show" lists it
# (its text and awk: tests poll this, and a jq start costs about a second
# of CPU under TCG).
wc_table_committed() {
	wormctl table show "$1" 2>/dev/null | awk -v s="$2" -v k="${3:-}" '
		k == "" || $1 == k {
			for (i = 2; i < NF; i++)
				if ($i == "scheme" && $(i + 1) == s)
					found = 1
		}
		END { exit !found }'
}

# wc_table_field FABRIC KEY FIELD: FIELD (gen, size, faulty_links, ...) of
# FABRIC's table of kind or scheme KEY as "wormctl table show" lists it: 0
# if the line has no FIELD (faulty_links is listed when not zero), nothing
# if there is no such table.
wc_table_field() {
	wormctl table show "$1" 2>/dev/null | awk -v key="$2" -v f="$3" '
		!found {
			hit = $1 == key
			for (i = 2; i < NF; i++)
				if ($i == "scheme" && $(i + 1) == key)
					hit = 1
			if (!hit)
				next
			found = 1
			v = 0
			for (i = 2; i < NF; i++)
				if ($i == f)
					v = $(i + 1)
			print v
		}'
}

# wc_drops FABRIC: sum of the fabric's drop_* counters ("null" if none).
wc_drops() {
	wormctl stats "$1" total | awk '
		/^[a-z]/ { sect = $1 }
		sect == "total:" && $1 ~ /^drop/ { s += $2; n++ }
		END { print n ? s : "null" }'
}

# The module can be reloaded by a test (rmmod under traffic): make sure it is
# there for the others.
module_loaded() {
	grep -q '^wormcast ' /proc/modules
}

# ---------------------------------------------------------------- groups

# Receivers of a group test: $MEMBERS join the test group, $OTHERS another
# group on the same port, one socket each in namespace n<id> on device
# ${MC_DEVPFX:-wcn}<id>, all in one process (wc-udp recv-many).  FAMILY is
# 4 (239.1.2.3, port $PORT4) or 6 (ff0e::1:2:3, port $PORT6); what each
# gets goes to $WC_TMP/got<F>.<id>.
mc_recv_start() {
	_specs=""
	_files="$WC_TMP/ready$1"
	for _id in $MEMBERS $OTHERS; do
		case " $MEMBERS " in
		*" $_id "*) _g4=239.1.2.3 _g6=ff0e::1:2:3 ;;
		*) _g4=239.9.9.9 _g6=ff0e::9:9:9 ;;
		esac
		if [ "$1" = 4 ]; then
			_g=$_g4 _port=$PORT4
		else
			_g=$_g6 _port=$PORT6
		fi
		_specs="$_specs n$_id,${MC_DEVPFX:-wcn}$_id,$_g,$_port,$WC_TMP/got$1.$_id"
		_files="$_files $WC_TMP/got$1.$_id"
	done
	rm -f $_files
	bg "$UDP" recv-many --ready "$WC_TMP/ready$1" $_specs
	_mc_pids=$bg_pid
}

# Stop the receivers of the last mc_recv_start (other bg processes go on).
mc_recv_stop() {
	stop_pids $_mc_pids
	_mc_pids=""
}

mc_all_ready() {
	[ -f "$WC_TMP/ready$1" ]
}

# mc_members_have FAMILY COUNT: every member's file has COUNT lines (one
# grep for all: under TCG every exec costs).
mc_members_have() {
	_files=""
	for _id in $MEMBERS; do
		[ -f "$WC_TMP/got$1.$_id" ] || return 1
		_files="$_files $WC_TMP/got$1.$_id"
	done
	grep -c -H . $_files | {
		while IFS= read -r _line; do
			[ "${_line##*:}" -ge "$2" ] || exit 1
		done
	}
}

# mc_check_got FAMILY WHAT TAG COUNT: each member got "TAG 1".."TAG COUNT"
# exactly once, each non-member nothing.
mc_check_got() {
	_want=$(seq 1 "$4" | sed "s/^/$3 /" | sort)
	for _id in $MEMBERS; do
		_got=$(sort "$WC_TMP/got$1.$_id" 2>/dev/null)
		if [ "$_got" = "$_want" ]; then
			ok "$2: member node $_id received each datagram exactly once"
		else
			not_ok "$2: member node $_id received each datagram exactly once" \
				"received $(echo "$_got" | grep -c .) lines, $(echo "$_got" | sort -u | grep -c .) distinct, $4 sent"
		fi
	done
	for _id in $OTHERS; do
		is "$2: non-member node $_id received nothing" \
			"$(grep -c . "$WC_TMP/got$1.$_id" 2>/dev/null)" 0
	done
}

