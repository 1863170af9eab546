#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The membership index (Documentation/kernel.rst, "Destination sets"):
# destinations follow joins and leaves exactly.
#
# 1. 4x4 torus, every node in a namespace of its own.  Members join
#    239.1.2.3 with UDP sockets or with "ip maddr add" (a link-layer
#    membership without a socket); a node joins and leaves before the
#    frames go; others join another group.  N datagrams from node 0: each
#    joined node's device counts exactly N more frames, each socket member
#    gets every datagram once, everybody else nothing.  Then some leave
#    (socket closed, "ip maddr del") and N more go to exactly the rest;
#    when nobody is left, the frames count as tx_no_receiver.
# 2. 32x32 mesh (1024 nodes, in one namespace, IPv6 off so that nothing
#    else crosses the fabric): one broadcast frame reaches each of the
#    1023 other nodes exactly once; one multicast frame to a group every
#    node joined (packet sockets, PACKET_ADD_MEMBERSHIP) reaches the 1023
#    others once; one to a group of the odd nodes reaches exactly them.
#    No drop.
. "$(dirname "$0")/lib.sh"

RAWSEND=$WC_ROOT/tests/selftests/rawsend.py
N=30
SRC=0
PORT=5002
G4=239.1.2.3
GMAC=01:00:5e:01:02:03

# ---------------------------------------------------------------- part 1

if ! wc_add wc topology torus dims 4x4; then
	not_ok "create torus 4x4"
	done_testing
	exit
fi
ok "create torus 4x4"
NODES="0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15"
# shellcheck disable=SC2086
nodes_in_ns $NODES || not_ok "nodes $NODES in namespaces"

# recv ID GROUP: a UDP receiver on node ID joined to GROUP; its pid in
# $WC_TMP/pid.ID.
recv() {
	rm -f "$WC_TMP/ready.$1"
	bg "$UDP" recv --netns "n$1" --port $PORT --group "$2" \
		--ifname "wcn$1" --ready "$WC_TMP/ready.$1" --out "$WC_TMP/got.$1"
	echo "$bg_pid" >"$WC_TMP/pid.$1"
	wait_for 30 test -f "$WC_TMP/ready.$1"
}

# leave ID: end node ID's receiver (the kernel leaves the group); it is
# the only process in namespace nID.
leave() {
	ip netns pids "n$1" | xargs -r kill
	wait_for 10 test -z "$(ip netns pids "n$1")"
}

# snapshot: "ID RX_PACKETS" of every node device, one line each (the
# kernel's rx_frames, which the devices report as rx_packets: one wormctl
# for all instead of an ip per namespace, since under TCG every exec costs)
snapshot() {
	wc_nodes_counter wc rx_frames
}

# round_arrived TOTAL: the node devices counted TOTAL frames or more since
# the "before" snapshot (into "after").
round_arrived() {
	snapshot >"$WC_TMP/after"
	[ "$(paste "$WC_TMP/before" "$WC_TMP/after" |
		awk '{ s += $4 - $2 } END { print s + 0 }')" -ge "$1" ]
}

# round NAME TAG JOINED SOCKETS: send N datagrams tagged TAG from node 0;
# nodes in JOINED must count exactly N more frames, the others none; each
# receiver in SOCKETS must have each datagram once.
round() {
	name=$1 tag=$2 joined=$3 socks=$4
	sleep 0.5	# let the joins' and leaves' own reports go by
	snapshot >"$WC_TMP/before"
	check "$name: send $N datagrams to $G4" \
		"$UDP" send --netns "n$SRC" --dst $G4 --port $PORT \
		--ifname "wcn$SRC" --count $N --tag "$tag" --size 100
	set -- $joined
	# the deliveries, then a second for any copy that should not come
	wait_for 30 round_arrived $((N * $#))
	sleep 1
	snapshot >"$WC_TMP/after"
	bad="" total=0
	# both snapshots list the nodes in the same order
	paste "$WC_TMP/before" "$WC_TMP/after" >"$WC_TMP/both"
	while read -r id rx0 id1 rx; do
		case " $joined " in *" $id "*) want=$N ;; *) want=0 ;; esac
		[ "$id" = "$id1" ] && [ $((rx - rx0)) = "$want" ] ||
			bad="$bad node $id +$((rx - rx0)) (expected +$want);"
		total=$((total + rx - rx0))
	done <"$WC_TMP/both"
	is "$name: frames reached exactly the joined nodes, once each" "$bad" ""
	is "$name: deliveries add up to $N x $# members" "$total" $((N * $#))
	want=$(seq 1 $N | sed "s/^/$tag /")
	for id in $socks; do
		got=$(grep "^$tag " "$WC_TMP/got.$id" 2>/dev/null | sort -n -k2)
		is "$name: socket on node $id got each datagram once" "$got" "$want"
	done
}

for id in 3 6 9; do
	recv $id $G4 || not_ok "receiver on node $id joined"
done
for id in 12 15; do
	recv $id 239.9.9.9 || not_ok "receiver on node $id joined"
done
recv 5 $G4 && leave 5
check "node 10 joins $GMAC with ip maddr" ip -n n10 maddr add $GMAC dev wcn10
round "joined 3 6 9 10" a "3 6 9 10" "3 6 9"
is "node 5, which left before, got nothing" "$(cat "$WC_TMP/got.5" 2>/dev/null | grep -c .)" 0
is "nodes 12 and 15 (other group) got nothing" \
	"$(cat "$WC_TMP/got.12" "$WC_TMP/got.15" 2>/dev/null | grep -c .)" 0

leave 6
check "node 10 leaves with ip maddr del" ip -n n10 maddr del $GMAC dev wcn10
check "node 13 joins with ip maddr" ip -n n13 maddr add $GMAC dev wcn13
round "after leaves (6, 10) and a join (13)" b "3 9 13" "3 9"

# down and up again: out of the index while down, back with its list
ip -n n13 link set wcn13 down
round "node 13 down" c "3 9" "3 9"
ip -n n13 link set wcn13 up
round "node 13 up again, still joined" d "3 9 13" "3 9"

leave 3
leave 9
ip -n n13 maddr del $GMAC dev wcn13
nr0=$(wc_stat wc tx_no_receiver)
round "nobody joined" e "" ""
# (the leavers' own IGMP/MLD reports to groups nobody joined count too)
nr=$(($(wc_stat wc tx_no_receiver) - nr0))
if [ "$nr" -ge $N ]; then
	ok "frames to a group without members: tx_no_receiver +$nr (>= $N)"
else
	not_ok "frames to a group without members: tx_no_receiver +$nr (>= $N)"
fi
is "fabric drop counters all zero" "$(wc_drops wc)" 0
bg_stop
for id in $NODES; do
	ns_del "n$id"
done

# ---------------------------------------------------------------- part 2

BIG=big
# WC_MEMBERSHIP_SIDE: the mesh's side (default 32: 1024 nodes; the debug
# kernel's run uses 16, see tests/vm/selftests-debug.sh)
SIDE=${WC_MEMBERSHIP_SIDE:-32}
BIGN=$((SIDE * SIDE))
LAST=$((BIGN - 1))
ns_new $BIG || not_ok "namespace $BIG"
nsx $BIG sysctl -qw net.ipv6.conf.default.disable_ipv6=1 \
	net.ipv6.conf.all.disable_ipv6=1
t0=$(date +%s)
if ! nsx $BIG ip link add wb type wormcast topology mesh dims ${SIDE}x$SIDE; then
	not_ok "create mesh ${SIDE}x$SIDE"
	done_testing
	exit
fi
ok "create mesh ${SIDE}x$SIDE ($(($(date +%s) - t0)) s)"
seq 0 $LAST | sed 's/^/link set wbn/; s/$/ up/' | ip -n $BIG -batch - ||
	not_ok "$BIGN node devices up"

# rx_all: "ifname rx_packets" of every node device
rx_all() {
	ip -n $BIG -s -j link show | jq -r '.[] | select(.ifname | test("^wbn")) |
		"\(.ifname) \(.stats64.rx.packets)"' | sort
}

rx_sum() {
	ip -n $BIG -s -j link show | jq '[.[] | .stats64.rx.packets] | add'
}

big_arrived() {
	[ "$(rx_sum)" -ge "$big_want" ]
}

# big_round NAME DST COUNT WHO: one frame from wbn0 to DST; COUNT
# deliveries; every node but 0 (WHO "others") or every odd node (WHO
# "odd") must count exactly 1 more, the others 0.
big_round() {
	rx_all >"$WC_TMP/b0"
	big_want=$(($(rx_sum) + $3))
	check "$1: one frame from node 0" nsx $BIG python3 "$RAWSEND" wbn0 "$2" 1
	wait_for 60 big_arrived || not_ok "$1: $3 deliveries within 60 s"
	sleep 1
	rx_all >"$WC_TMP/b1"
	bad=$(join "$WC_TMP/b0" "$WC_TMP/b1" | awk -v who="$4" '{
		id = substr($1, 4) + 0
		want = (who == "odd") ? id % 2 : (id != 0)
		if ($3 - $2 != want)
			print $1 " +" $3 - $2 " (expected +" want ")"
	}' | head -n 5)
	is "$1: each expected node got it exactly once, no other node" "$bad" ""
	is "$1: $3 deliveries in all" \
		"$(join "$WC_TMP/b0" "$WC_TMP/b1" | awk '{ s += $3 - $2 } END { print s }')" "$3"
}

big_round "broadcast on $BIGN nodes" ff:ff:ff:ff:ff:ff $LAST others
# One packet socket per group holds the memberships of every device (one
# "ip maddr" per device is too slow under TCG; "ip -batch" adds nothing
# with maddr in iproute2 6.1).
bg nsx $BIG python3 "$RAWSEND" join "$WC_TMP/j1" 01:00:5e:7f:00:01 \
	$(seq 0 $LAST | sed 's/^/wbn/')
bg nsx $BIG python3 "$RAWSEND" join "$WC_TMP/j2" 01:00:5e:7f:00:02 \
	$(seq 1 2 $LAST | sed 's/^/wbn/')
if wait_for 60 test -f "$WC_TMP/j1" && wait_for 60 test -f "$WC_TMP/j2"; then
	ok "every node joins 01:00:5e:7f:00:01, odd ones 01:00:5e:7f:00:02"
else
	not_ok "every node joins 01:00:5e:7f:00:01, odd ones 01:00:5e:7f:00:02"
fi
big_round "multicast to all $BIGN nodes" 01:00:5e:7f:00:01 $LAST others
big_round "multicast to the $((BIGN / 2)) odd nodes" 01:00:5e:7f:00:02 $((BIGN / 2)) odd
is "${SIDE}x$SIDE: fabric drop counters all zero" "$(nsx $BIG wormctl -j stats wb |
	jq 'first(.. | objects | select(has("counters"))) | .counters |
		[to_entries[] | select(.key | startswith("drop")) | .value] | add')" 0
t0=$(date +%s)
ip netns pids $BIG | xargs -r kill
ns_del $BIG
ok "${SIDE}x$SIDE fabric deleted with its namespace ($(($(date +%s) - t0)) s)"

done_testing
