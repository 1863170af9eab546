#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Socket traffic through the flit-level engine on every topology, with exact
# delivery counts: on each fabric, node 0 sends N unicast datagrams to the
# node farthest away and N multicast datagrams to a group joined by two
# nodes; a third node, not joined, gets nothing.  The engine's statistics
# (wormctl) grow by at least one finished worm per delivered frame, and the
# fabric drops nothing.
. "$(dirname "$0")/lib.sh"

N=20
PORT=6000

# traffic NNODES IP-ARGS...
traffic() {
	nnodes=$1
	shift
	what="$*"
	if ! wc_add wc "$@"; then
		not_ok "create $what"
		return
	fi
	ok "create $what"
	far=$((nnodes - 1)) mid=$((nnodes / 2)) other=1
	for id in 0 $far $mid $other; do
		ns_new "n$id" && node_in_ns "wcn$id" "n$id" "$id" ||
			not_ok "$what: node $id in namespace n$id"
	done
	rm -f "$WC_TMP"/got.* "$WC_TMP"/ready.*
	bg nsx "n$far" python3 "$UDP" recv --port $PORT --ready "$WC_TMP/ready.u" \
		--out "$WC_TMP/got.u"
	pids=$bg_pid
	for id in $far $mid $other; do
		[ "$id" = "$other" ] && g=239.7.7.8 || g=239.7.7.7
		bg nsx "n$id" python3 "$UDP" recv --port $((PORT + 1)) --group $g \
			--ifname "wcn$id" --ready "$WC_TMP/ready.$id" --out "$WC_TMP/got.$id"
		pids="$pids $bg_pid"
	done
	if ! wait_for 30 sh -c "ls $WC_TMP/ready.* | wc -l | grep -qx 4"; then
		not_ok "$what: receivers ready"
	fi
	worms0=$(wc_stat wc worms_done)
	# ARP first, so that the unicast datagrams are not held back by it.
	nsx n0 ping -c 1 -W 5 "$(ip4_of $far)" >/dev/null 2>&1
	check "$what: send" sh -c "
		ip netns exec n0 python3 $UDP send --dst $(ip4_of $far) --port $PORT \
			--count $N --tag u &&
		ip netns exec n0 python3 $UDP send --dst 239.7.7.7 --port $((PORT + 1)) \
			--ifname wcn0 --count $N --tag m"
	sleep 2

	want_u=$(seq 1 $N | sed 's/^/u /' | sort)
	want_m=$(seq 1 $N | sed 's/^/m /' | sort)
	is "$what: unicast 0 -> $far, each datagram once" \
		"$(sort "$WC_TMP/got.u" 2>/dev/null)" "$want_u"
	is "$what: multicast at node $far, each datagram once" \
		"$(sort "$WC_TMP/got.$far" 2>/dev/null)" "$want_m"
	is "$what: multicast at node $mid, each datagram once" \
		"$(sort "$WC_TMP/got.$mid" 2>/dev/null)" "$want_m"
	is "$what: nothing at non-member node $other" \
		"$(cat "$WC_TMP/got.$other" 2>/dev/null)" ""
	worms1=$(wc_stat wc worms_done)
	if [ -n "$worms0" ] && [ "$worms0" != null ] &&
	   [ $((worms1 - worms0)) -ge $((3 * N)) ]; then
		ok "$what: engine worms_done grew by $((worms1 - worms0)) (>= $((3 * N)))"
	else
		not_ok "$what: engine worms_done grew by >= $((3 * N))" "before $worms0, after $worms1"
	fi
	is "$what: fabric drop counters all zero" "$(wc_drops wc)" 0

	for p in $pids; do kill "$p" 2>/dev/null; done
	check "$what: delete" wc_del wc
	for id in 0 $far $mid $other; do ns_del "n$id"; done
}

traffic 8 topology mesh dims 8
traffic 16 topology mesh dims 4x4
traffic 27 topology mesh dims 3x3x3
traffic 16 topology torus dims 4x4
traffic 64 topology torus dims 4x4x4
traffic 16 topology hypercube dim 4
traffic 24 topology star n 4
traffic 120 topology star n 5

done_testing
