#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# UDP over IPv4 multicast (239.1.2.3) and IPv6 multicast (ff0e::1:2:3) on an
# 8x8 torus, receivers joined by ordinary sockets in separate namespaces:
# every member receives every datagram exactly once, non-members (sockets on
# the same port, joined to another group) receive none, and the counters
# agree: each member's device counts exactly N more received frames, each
# non-member's none, the sender's N sent, and the fabric drops nothing.
. "$(dirname "$0")/lib.sh"

N=50
SRC=0
MEMBERS="7 9 27 36 54 63"
OTHERS="1 45"
PORT4=5000
PORT6=5001

if ! wc_add wc topology torus dims 8x8; then
	not_ok "create torus 8x8"
	done_testing
	exit
fi
ok "create torus 8x8"
nodes_in_ns $SRC $MEMBERS $OTHERS || not_ok "nodes $SRC $MEMBERS $OTHERS in namespaces"

# Snapshot of "id rx tx drops" for every node in the test.
snapshot() {
	for id in $SRC $MEMBERS $OTHERS; do
		echo "$id $(dev_stats "wcn$id" "n$id")"
	done
}

# run_family 4|6 GROUP PORT
run_family() {
	fam=$1 group=$2 port=$3
	mc_recv_start "$fam"
	if wait_for 30 mc_all_ready "$fam"; then
		ok "IPv$fam: receivers joined"
	else
		not_ok "IPv$fam: receivers joined"
	fi
	# the joins' reports are over before counting
	wait_for 30 nodes_quiet $SRC $MEMBERS $OTHERS
	snapshot >"$WC_TMP/before$fam"
	check "IPv$fam: send $N datagrams to $group from node $SRC" \
		"$UDP" send --netns "n$SRC" --dst "$group" --port "$port" \
		--ifname "wcn$SRC" --count $N --tag "v$fam" --size 200
	wait_for 30 mc_members_have "$fam" $N
	snapshot >"$WC_TMP/after$fam"

	mc_check_got "$fam" "IPv$fam" "v$fam" $N

	# Device counters: rx delta N at members, 0 elsewhere; tx delta N at
	# the source (the fabric replicates, the sender sends once).
	bad=""
	# both snapshots list the nodes in the same order
	paste "$WC_TMP/before$fam" "$WC_TMP/after$fam" >"$WC_TMP/both$fam"
	while read -r id rx0 tx0 _ id1 rx tx _; do
		case " $MEMBERS " in *" $id "*) want_rx=$N ;; *) want_rx=0 ;; esac
		[ "$id" = "$SRC" ] && want_tx=$N || want_tx=0
		[ "$id" = "$id1" ] && [ $((rx - rx0)) = "$want_rx" ] ||
			bad="$bad node $id rx +$((rx - rx0)) (expected +$want_rx);"
		[ $((tx - tx0)) = "$want_tx" ] ||
			bad="$bad node $id tx +$((tx - tx0)) (expected +$want_tx);"
	done <"$WC_TMP/both$fam"
	is "IPv$fam: device counters match the deliveries exactly" "$bad" ""
	bg_stop
}

run_family 4 239.1.2.3 $PORT4
run_family 6 ff0e::1:2:3 $PORT6

total=0
for id in $SRC $MEMBERS $OTHERS; do
	total=$((total + $(drops "wcn$id" "n$id")))
done
is "no drops or errors on any node device" "$total" 0

# The fabric's own counters (wormctl): every drop reason at zero.
is "fabric drop counters (wormctl) all zero" "$(wc_drops wc)" 0

done_testing
