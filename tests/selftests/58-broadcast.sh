#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Broadcast by schedule, schemes dcf and edn (Documentation/dcf.rst, "The
# broadcast in the kernel").  First BCAST tables through raw netlink
# (tables.py bcast: dcf refused on a mesh, every kind of bad schedule
# refused with its extack text and no change, a good one committed and
# read back).  Then an 8x8 torus with "multicast dcf", node 9 and six
# receivers in their own namespaces, every other node up: N UDP
# broadcasts (10.0.255.255, SO_BROADCAST) from node 9
#  - before wormcastd runs: sent as unicasts by the source, counted
#    under table_fallback;
#  - once wormcastd committed the dcf schedule, then after "wormctl fabric
#    set wc multicast edn" the edn one: relayed, the source and the
#    receivers sending on;
# and then a 4x4 torus under dcf from node 6, also with link 6-7 failed
# (deliveries + fault_drops = N x 15 exactly, a lost relay counting its
# subtree) and repaired.  Each time but under the fault: every receiver
# socket gets each datagram exactly once, every node but the source
# counts exactly N more rx_frames, the worms injected per node and
# datagram are those of the committed schedule moved to the source
# (computed here from "wormctl table show -v": the relays, or the
# source's 63 unicasts under the fallback), table_fallback moves as
# stated and no drop counter moves.  After the dcf and edn rounds on 8x8
# and the dcf round on 4x4, single broadcasts: the latency through the
# kernel in engine cycles, from the capture records of the source's and
# every relay's unicast (bcast_latency.py), equals wormsim --bcast's for
# the fabric's parameters and the frame's length (--bcast-relay queue),
# exactly (Documentation/dcf.rst, "The broadcast's latency: kernel and
# wormsim"); on 4x4 also with the sending and receiving latencies
# t_s = t_r = 200 cycles (wormctl fabric set send_ovh, recv_ovh), which
# the kernel's relays pay as wormsim's do.
. "$(dirname "$0")/lib.sh"

here=$(dirname "$0")
WORMCASTD=${WC_BUILD:-$WC_ROOT/build}/wormcastd
WORMSIM=${WC_BUILD:-$WC_ROOT/build}/wormsim
N=20
PORT=5000

[ -x "$WORMCASTD" ] || { not_ok "wormcastd built ($WORMCASTD)"; done_testing; exit; }

run_tap_py python3 "$here/tables.py" bcast
check "tables.py deleted its fabric" sh -c '! ip link show wct 2>/dev/null'

# counter NODE NAME: one of the node's counters (wormctl stats -j).
counter() {
	wc_node_counters wc "$1" "$2"
}

# NODE:WORMS_INJECTED:RX_FRAMES of every node, one per line
per_node() {
	wormctl -j stats wc | jq -r '.[0].per_node[] |
		"\(.node):\(.counters.worms_injected):\(.counters.rx_frames)"'
}

# bcast_is SCHEME: the committed bcast table is of SCHEME
bcast_is() {
	wc_table_committed wc "$1" bcast
}

# bc_setup DIMS SCHEME SRC RECEIVER...: fabric wc, SRC and the receivers
# in namespaces, every other node up in this namespace without IPv6 (so
# that it sends nothing of its own).
bc_setup() {
	_dims=$1 _scheme=$2 SRC=$3
	shift 3
	RCVS="$*"
	wc_add wc topology torus dims "$_dims" multicast "$_scheme" &&
		nodes_in_ns $SRC $RCVS || return 1
	NN=$(wc_field wc .nodes)
	SIDE=${_dims%x*}
	_rest=""
	for _id in $(seq 0 $((NN - 1))); do
		case " $SRC $RCVS " in
		*" $_id "*) ;;
		*) _rest="$_rest $_id" ;;
		esac
	done
	sysctl -qw $(for _id in $_rest; do echo "net.ipv6.conf.wcn$_id.disable_ipv6=1"; done) &&
		for _id in $_rest; do echo "link set wcn$_id up"; done | ip -batch -
}

# The receivers: one socket on PORT (no group: an empty GROUP) in each
# receiver's namespace, all in one wc-udp (under TCG every process costs).
rcv_start() {
	_specs=""
	rm -f "$WC_TMP/ready"
	for _id in $RCVS; do
		rm -f "$WC_TMP/got.$_id"
		_specs="$_specs n$_id,wcn$_id,,$PORT,$WC_TMP/got.$_id"
	done
	bg "$UDP" recv-many --ready "$WC_TMP/ready" $_specs
	_rcv_pids=$bg_pid
}

rcv_ready() {
	[ -f "$WC_TMP/ready" ]
}

# rcv_have TAG: every receiver has N datagrams tagged TAG (one grep for
# all: under TCG every exec costs)
rcv_have() {
	_files=""
	for _id in $RCVS; do
		[ -f "$WC_TMP/got.$_id" ] || return 1
		_files="$_files $WC_TMP/got.$_id"
	done
	grep -c -H "^$1 " $_files | {
		while IFS= read -r _line; do
			[ "${_line##*:}" -ge "$N" ] || exit 1
		done
	}
}

# rx_done: every node but the source counts N more rx_frames than in s0
rx_done() {
	per_node >"$WC_TMP/s1"
	[ "$(paste -d: "$WC_TMP/s0" "$WC_TMP/s1" |
		awk -F: '{ s += $6 - $3 } END { print s }')" -ge $((N * (NN - 1))) ]
}

# want_worms RELAYED: NODE:WORMS per datagram of every node that sends;
# RELAYED: the committed bcast table's sends moved to SRC (offsets x + n y),
# else the source's NN - 1 unicasts
want_worms() {
	if [ "$1" = no ]; then
		echo "$SRC:$((NN - 1))"
		return
	fi
	wormctl -j table show -v wc | python3 -c '
import json, sys
src, n = int(sys.argv[1]), int(sys.argv[2])
t = [x for x in json.load(sys.stdin) if x["kind"] == "bcast"][0]
cnt = {}
for s in t["sends"]:
    f = s["from"]
    v = (src % n + f % n) % n + n * ((src // n + f // n) % n)
    cnt[v] = cnt.get(v, 0) + 1
print(" ".join("%d:%d" % (v, cnt[v]) for v in sorted(cnt)))' $SRC $SIDE
}

# bc_round WHAT TAG RELAYED(yes|no)
bc_round() {
	per_node >"$WC_TMP/s0"
	f0=$(counter $SRC table_fallback)
	check "$1: send $N broadcast datagrams from node $SRC" \
		"$UDP" send --netns "n$SRC" --dst 10.0.255.255 --port $PORT \
		--count $N --tag "$2" --size 200
	wait_for 30 rcv_have "$2"
	wait_for 30 rx_done
	per_node >"$WC_TMP/s1"
	_want=$(seq 1 $N | sed "s/^/$2 /" | sort)
	_bad=""
	for _id in $RCVS; do
		[ "$(grep "^$2 " "$WC_TMP/got.$_id" | sort)" = "$_want" ] || _bad="$_bad $_id"
	done
	is "$1: every receiver socket got each datagram exactly once (not:$_bad)" "$_bad" ""
	_bad=$(paste -d: "$WC_TMP/s0" "$WC_TMP/s1" | awk -F: -v n=$N -v src=$SRC '{
		d = $6 - $3; w = ($1 == src) ? 0 : n
		if (d != w) print $1 ":+" d }' | head -n 5 | tr '\n' ' ')
	is "$1: every node but the source counted exactly $N rx_frames more ($_bad)" "$_bad" ""
	_got=$(paste -d: "$WC_TMP/s0" "$WC_TMP/s1" |
		awk -F: -v n=$N '{ d = $5 - $2; if (d) print $1 ":" d / n }' |
		sort -n | tr '\n' ' ' | sed 's/ $//')
	_exp=$(want_worms "$3")
	is "$1: worms injected per datagram by node are the schedule's ($(echo "$_got" | wc -w) senders)" \
		"$_got" "$_exp"
	if [ "$3" = yes ]; then
		is "$1: no frame routed by the fallback" \
			$(($(counter $SRC table_fallback) - f0)) 0
	else
		is "$1: $N frames counted under table_fallback" \
			$(($(counter $SRC table_fallback) - f0)) $N
	fi
	is "$1: fabric drop counters all zero" "$(wc_drops wc)" 0
}

# lat_round WHAT TAG SIZE: one broadcast of a SIZE-byte UDP payload from
# SRC, its latency through the kernel (capture records on the fabric
# device, bcast_latency.py) equal to wormsim's for the fabric's parameters
# and the captured frame's length, relays entering the injection queue
# as the kernel's do (--bcast-relay queue).
lat_round() {
	# records are read on the fabric device; without IPv6 it sends nothing
	sysctl -qw net.ipv6.conf.wc.disable_ipv6=1 && ip link set wc up
	_j=$(python3 "$here/bcast_latency.py" wc $SRC --tag "$2" \
		--wormsim "$WORMSIM" --cmd "$UDP send --netns n$SRC \
		--dst 10.0.255.255 --port $PORT --count 1 --tag @TAG@ --size $3")
	_k=$(echo "$_j" | jq '.latency // "none"')
	_w=$(echo "$_j" | jq '.wormsim // "none"')
	is "$1: latency through the kernel $_k cycles = wormsim's $_w ($(echo "$_j" |
		jq -c '{frame_len, records, relays, tries, wormsim_port} // .')" "$_k" "$_w"
	is "$1: every unicast of the schedule captured" \
		"$(echo "$_j" | jq '.records // 0')" $((NN - 1))
}

# ---- 8x8 torus, dcf, then edn
if bc_setup 8x8 dcf 9 0 7 20 36 54 63; then
	ok "8x8 torus, multicast dcf, 7 nodes in namespaces, $((NN - 7)) up here"
else
	not_ok "8x8 torus, multicast dcf, nodes set up"
fi
if ip -d link show wc | grep -q "multicast dcf" &&
	wormctl fabric show wc | grep -q "multicast dcf"; then
	ok "ip -d and wormctl fabric show name the scheme dcf"
else
	not_ok "ip -d and wormctl fabric show name the scheme dcf" \
		"$(ip -d link show wc | tail -n 3)"
fi
rcv_start
wait_for 30 rcv_ready || not_ok "receivers ready"
bc_round "dcf 8x8, no table yet" nt no

bg "$WORMCASTD"
if wait_for 60 bcast_is dcf; then
	ok "wormcastd committed the dcf schedule ($(wormctl -j table show wc | jq -c '.[] | select(.kind == "bcast") | {gen, size, nsends}'))"
else
	not_ok "wormcastd committed the dcf schedule" "$(tail -n 5 "$WC_TMP/bg.log")"
fi
is "wormctl table show decodes the schedule: 63 unicasts" \
	"$(wormctl -j table show -v wc | jq '[.[] | select(.kind == "bcast")][0].sends | length')" 63
bc_round "dcf 8x8" d8 yes
lat_round "dcf 8x8, 242-byte frame" l8d 200

check "wormctl fabric set wc multicast edn" wormctl fabric set wc multicast edn
if wait_for 60 bcast_is edn; then
	ok "wormcastd committed the edn schedule after the scheme change"
else
	not_ok "wormcastd committed the edn schedule after the scheme change"
fi
bc_round "edn 8x8" e8 yes
lat_round "edn 8x8, 242-byte frame" l8e 200
stop_pids $_rcv_pids
check "8x8 fabric deleted with its schedule installed" wc_del wc
_fabrics=""

# ---- 4x4 torus, dcf, from node 6
if bc_setup 4x4 dcf 6 0 5 11 15; then
	ok "4x4 torus, multicast dcf, 5 nodes in namespaces"
else
	not_ok "4x4 torus, multicast dcf, nodes set up"
fi
rcv_start
wait_for 30 rcv_ready || not_ok "receivers ready"
if wait_for 60 bcast_is dcf; then
	ok "wormcastd committed the 4x4 dcf schedule"
else
	not_ok "wormcastd committed the 4x4 dcf schedule"
fi
bc_round "dcf 4x4" d4 yes
lat_round "dcf 4x4, 242-byte frame" l4d 200
lat_round "dcf 4x4, 1042-byte frame" l4D 1000
check "wormctl fabric set wc send_ovh 200 recv_ovh 200" \
	wormctl fabric set wc send_ovh 200 recv_ovh 200
is "ip -d link shows send_ovh 200 recv_ovh 200" \
	"$(wc_field wc '[.send_ovh, .recv_ovh]')" "[200,200]"
lat_round "dcf 4x4, t_s = t_r = 200, 242-byte frame" l4s 200
check "wormctl fabric set wc send_ovh 0 recv_ovh 0" \
	wormctl fabric set wc send_ovh 0 recv_ovh 0

# ---- a lost relay counts its whole subtree: link 6-7 fails, on the route
# of the source's first unicast (to offset (2,1), ties going +x): the
# nodes missed are counted at the source under fault_drops, exactly.
# NODE:FAULT_DROPS:RX_FRAMES of every node
fd_rx() {
	wormctl -j stats wc | jq -r '.[0].per_node[] |
		"\(.node):\(.counters.fault_drops):\(.counters.rx_frames)"'
}

# fd_done: deliveries + fault_drops since f0 reach N x (nodes - 1)
fd_done() {
	fd_rx >"$WC_TMP/f1"
	[ "$(paste -d: "$WC_TMP/f0" "$WC_TMP/f1" |
		awk -F: '{ s += $5 - $2 + $6 - $3 } END { print s }')" -ge $((N * (NN - 1))) ]
}

check "link 6-7 fails" wormctl fault add wc link 6 7
fd_rx >"$WC_TMP/f0"
check "dcf 4x4, link 6-7 down: send $N broadcast datagrams from node 6" \
	"$UDP" send --netns "n$SRC" --dst 10.0.255.255 --port $PORT \
	--count $N --tag f4 --size 200
wait_for 30 fd_done
sleep 1
fd_rx >"$WC_TMP/f1"
_sums=$(paste -d: "$WC_TMP/f0" "$WC_TMP/f1" |
	awk -F: '{ f += $5 - $2; r += $6 - $3 } END { print f, r }')
_fd=${_sums% *} _rx=${_sums#* }
is "link 6-7 down: deliveries $_rx + fault_drops $_fd = $N x $((NN - 1))" \
	$((_fd + _rx)) $((N * (NN - 1)))
is "link 6-7 down: fault_drops only at the source ($_fd, more than one node per datagram)" \
	"$(paste -d: "$WC_TMP/f0" "$WC_TMP/f1" |
		awk -F: -v src=$SRC '$1 != src && $5 != $2 { print $1 }' | tr '\n' ' ')$([ "$_fd" -gt $N ] && echo more)" more
is "link 6-7 down: no other drop counter moved" "$(wc_drops wc)" 0
check "link 6-7 repaired" wormctl fault del wc link 6 7
bc_round "dcf 4x4, repaired" r4 yes
stop_pids $_rcv_pids

done_testing
