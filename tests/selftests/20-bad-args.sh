#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Bad "ip link add ... type wormcast" arguments are refused with a message
# and create nothing: first through the iproute2 plugin, then with raw
# netlink attributes (rawlink.py) so that the kernel's own validation and
# its extack messages are checked too, whatever the plugin lets through.
. "$(dirname "$0")/lib.sh"

bad() {
	what=$1
	shift
	before=$(ndevs)
	refuse "refused: $what" ip link add wc type wormcast "$@"
	is "nothing created: $what" "$(ndevs)" "$before"
	# (only if it was: a failing "ip link del" costs 0.2 s under TCG)
	[ ! -e /sys/class/net/wc ] || ip link del wc
}

bad "no topology" dims 4x4
bad "unknown topology" topology ring dims 8
bad "dims 1x0" topology mesh dims 1x0
bad "dims 0" topology torus dims 0
bad "dims 1" topology mesh dims 1
bad "4 dims" topology mesh dims 2x2x2x2
bad "dims 8x" topology torus dims 8x
bad "dims x8" topology torus dims x8
bad "dims negative" topology torus dims -4x4
bad "dims non-numeric" topology torus dims axb
bad "dims too many nodes" topology torus dims 100x100
bad "dims overflowing u32" topology mesh dims 4294967297
bad "mesh without dims" topology mesh
bad "star n 8" topology star n 8
bad "star n 1" topology star n 1
bad "star n non-numeric" topology star n four
bad "hypercube dim 0" topology hypercube dim 0
bad "hypercube dim 13" topology hypercube dim 13
bad "hypercube with dims 4x4" topology hypercube dims 4x4
bad "nodename without %d" topology mesh dims 4 nodename node
bad "nodename with two %d" topology mesh dims 4 nodename 'n%d%d'
bad "nodename with %s" topology mesh dims 4 nodename 'n%s'
bad "nodename too long" topology mesh dims 4 nodename 'averyveryverylongname%d'
bad "nodename with a slash" topology mesh dims 4 nodename 'a/%d'
bad "nodename with a space" topology mesh dims 4 nodename 'a %d'
bad "flit_bytes 0" topology mesh dims 4 flit_bytes 0
bad "flit_bytes non-numeric" topology mesh dims 4 flit_bytes big
bad "buf_flits 0" topology mesh dims 4 buf_flits 0
bad "vcs 0" topology mesh dims 4 vcs 0
bad "vcs 1000" topology mesh dims 4 vcs 1000
bad "inj 0" topology mesh dims 4 inj 0
bad "cons 0" topology mesh dims 4 cons 0
bad "router_delay -1" topology mesh dims 4 router_delay -1
bad "link_delay 1e3" topology mesh dims 4 link_delay 1e3
bad "replication sideways" topology mesh dims 4 replication sideways
bad "fault-info nearby" topology torus dims 4x4 fault-info nearby
bad "watchdog 0" topology mesh dims 4 watchdog 0
bad "queue_len 0" topology mesh dims 4 queue_len 0
bad "queue_len huge" topology mesh dims 4 queue_len 99999999999
bad "send_ovh 1000001" topology mesh dims 4 send_ovh 1000001
bad "recv_ovh 4294967295" topology mesh dims 4 recv_ovh 4294967295
bad "send_ovh negative" topology mesh dims 4 send_ovh -1
bad "unknown keyword" topology mesh dims 4 colour blue
bad "keyword without value" topology mesh dims 4 flit_bytes

# A node name that is already taken: the whole fabric is refused, the
# existing device stays.
ip link add wcn1 type dummy 2>/dev/null || ip link add wcn1 type veth peer name wcpeer
before=$(ndevs)
refuse "refused: node name already taken" ip link add wc type wormcast topology mesh dims 4
is "nothing created: node name already taken" "$(ndevs)" "$before"
check "the existing device is intact" ip link show wcn1
ip link del wcn1 2>/dev/null

# A fabric name that is already taken.
if wc_add wc topology mesh dims 2; then
	before=$(ndevs)
	refuse "refused: fabric name already taken" ip link add wc type wormcast topology mesh dims 2 nodename 'x%d'
	is "nothing created: fabric name already taken" "$(ndevs)" "$before"
	wc_del wc
else
	not_ok "create mesh 2"
fi

# ftmesh needs buffers that hold a whole worm of the largest frame
# (faults.rst, "ftmesh in the kernel"): MTU 1500 + 18 bytes of Ethernet
# header and VLAN tag in 32-byte flits are 48 data flits, plus a header
# flit and the tail: buf_flits 50 at least.  At ip link add, at wormctl
# fabric set, and for a node device's MTU while the scheme is ftmesh.
ftm="topology mesh dims 4x4 vcs 4 replication async"
# shellcheck disable=SC2086
bad "ftmesh, buf_flits 49" $ftm buf_flits 49 multicast ftmesh
# shellcheck disable=SC2086
out=$(ip link add wc type wormcast $ftm multicast ftmesh 2>&1)
case $out in
*"whole worm"*"buf_flits"*) ok "ftmesh, buf_flits 1: the message says why ($out)" ;;
*) not_ok "ftmesh, buf_flits 1: the message says why" "$out" ;;
esac
ip link del wc 2>/dev/null
# shellcheck disable=SC2086
if wc_add wc $ftm buf_flits 50 multicast ftmesh; then
	ok "ftmesh, buf_flits 50: accepted"
	is "ftmesh: node devices' largest MTU (48 flits of 32 bytes - 18)" \
		"$(ip -d -j link show dev wcn0 | jq '.[0].max_mtu')" 1518
	refuse "ftmesh: MTU 1519 refused" ip link set wcn0 mtu 1519
	check "ftmesh: MTU 1518 accepted" ip link set wcn0 mtu 1518
	check "scheme spam" wormctl fabric set wc multicast spam
	is "spam: no MTU limit" "$(ip -d -j link show dev wcn0 | jq '.[0].max_mtu')" 65535
	check "spam: MTU 9000" ip link set wcn0 mtu 9000
	out=$(wormctl fabric set wc multicast ftmesh 2>&1)
	case "$? $out" in
	0*) not_ok "wormctl fabric set multicast ftmesh with a node's MTU 9000 refused" "$out" ;;
	*"whole worm"*) ok "wormctl fabric set multicast ftmesh with a node's MTU 9000 refused ($out)" ;;
	*) not_ok "wormctl fabric set multicast ftmesh refused with the reason" "$out" ;;
	esac
	is "  the scheme is still spam" "$(wc_field wc .multicast)" '"spam"'
	check "MTU 1500 again" ip link set wcn0 mtu 1500
	check "wormctl fabric set multicast ftmesh accepted" wormctl fabric set wc multicast ftmesh
	is "ftmesh: the limit is back" "$(ip -d -j link show dev wcn1 | jq '.[0].max_mtu')" 1518
	wc_del wc
else
	not_ok "ftmesh, buf_flits 50: accepted"
fi
# shellcheck disable=SC2086
if wc_add wc $ftm buf_flits 49; then
	refuse "wormctl fabric set multicast ftmesh with buf_flits 49 refused" \
		wormctl fabric set wc multicast ftmesh
	wc_del wc
else
	not_ok "mesh with buf_flits 49"
fi

# The kernel validates on its own, whatever the plugin lets through: raw
# IFLA_WORMCAST_* attributes without the plugin, each refused with an extack
# message and nothing created: bad values, and what a lenient parser would
# let through (an unknown type, type 0, NLA_F_NESTED on a u32, bytes after
# the last attribute, a u32 of two bytes).
# All in one rawlink.py (--each: under TCG every Python start costs about a
# second), which counts the devices before and after each request and
# deletes what a case created; the last case is the good one.
rawlink=$WC_ROOT/tests/selftests/rawlink.py
good="topo=2 dims=4,4"
ncases=0
set --
for c in "topo=0 dims=4" "topo=9 dims=4" "topo=1 dims=4,0" "topo=1 dims=2,2,2,2" \
	"topo=4 dims=8" "topo=3 dims=0" "topo=1 dims=4 vcs=0" "topo=1 dims=4 flit=0" \
	"topo=1 dims=4 name=x" "topo=1 dims=4 name=%s%d" "topo=1 dims=4 queue=0" \
	"topo=1 dims=4 repl=7" "topo=2 dims=4,4 fault_info=2" "topo=1" "dims=4" \
	"topo=1 dims=4 send_ovh=1000001" "topo=1 dims=4 recv_ovh=4294967295" \
	"topo=1 dims=4 raw=99:01000000" "topo=1 dims=4 raw=0:01000000" \
	"topo=1 dims=4 raw=32780:00010000" "topo=1 dims=4 trailing=0500" \
	"topo=1 dims=4 raw=4:0100" "$good"; do
	set -- "$@" "$c"
	ncases=$((ncases + 1))
done
python3 "$rawlink" --each wc "$@" >"$WC_TMP/rawlink.out" 2>"$WC_TMP/rawlink.err"
rc=$?
n=0
while IFS='	' read -r c res before after out; do
	n=$((n + 1))
	if [ "$c" = "$good" ]; then
		# The same path accepts a good request (so the refusals above
		# mean something).
		is "kernel accepts: $good" "$res" created
		continue
	fi
	if [ "$res" = created ]; then
		not_ok "kernel refuses: $c" "created"
	else
		case $out in
		*"no extack message"*)
			not_ok "kernel refuses: $c (with an extack message)" "$out" ;;
		*)
			ok "kernel refuses: $c (with an extack message)"
			diag "$out"
			;;
		esac
	fi
	is "kernel created nothing: $c" "$after" "$before"
done <"$WC_TMP/rawlink.out"
is "rawlink.py --each tried every case and exited 0" "$n $rc" "$ncases 0"
[ ! -s "$WC_TMP/rawlink.err" ] || diag "rawlink.py:" "$(cat "$WC_TMP/rawlink.err")"
check "kernel accepts: send_ovh and recv_ovh at their bound, 1000000" \
	python3 "$rawlink" wc topo=1 dims=4 send_ovh=1000000 recv_ovh=1000000
is "ip -d link shows them" \
	"$(ip -d link show wc | grep -o 'send_ovh [0-9]* recv_ovh [0-9]*')" \
	"send_ovh 1000000 recv_ovh 1000000"
# and at runtime (generic netlink): out of range refused with the message,
# nothing changed
if out=$(wormctl fabric set wc send_ovh 1000001 2>&1); then
	not_ok "wormctl fabric set send_ovh 1000001 refused" "accepted"
else
	is "wormctl fabric set send_ovh 1000001 refused with the kernel's message" \
		"$(echo "$out" | grep -c 'at most 1000000 cycles')" 1
fi
is "nothing changed" "$(wormctl -j fabric show wc | jq '.[0].params | [.send_ovh, .recv_ovh]' | tr -d ' \n')" \
	"[1000000,1000000]"
check "wormctl fabric set wc send_ovh 200 recv_ovh 0" wormctl fabric set wc send_ovh 200 recv_ovh 0
is "wormctl fabric show: send_ovh 200 recv_ovh 0" \
	"$(wormctl fabric show wc | grep -o 'send_ovh [0-9]* recv_ovh [0-9]*')" "send_ovh 200 recv_ovh 0"
ip link del wc 2>/dev/null

# help prints usage and succeeds.
check "ip link help wormcast" sh -c 'ip link help wormcast 2>&1 | grep -q topology'

done_testing
