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
want_u=$(seq 1 $N | sed 's/^/u /' | sort)
want_m=$(seq 1 $N | sed 's/^/m /' | sort)

# got_all FAR MID: the unicast receiver and the two members each have N
# lines (one grep for the three files: under TCG every exec costs).
got_all() {
	[ -f "$WC_TMP/got.u" ] && [ -f "$WC_TMP/got.$1" ] && [ -f "$WC_TMP/got.$2" ] ||
		return 1
	grep -c -H . "$WC_TMP/got.u" "$WC_TMP/got.$1" "$WC_TMP/got.$2" | {
		while IFS= read -r _line; do
			[ "${_line##*:}" -ge $N ] || exit 1
		done
	}
}

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
	nodes_in_ns 0 $far $mid $other ||
		not_ok "$what: nodes 0 $far $mid $other in namespaces n<id>"
	rm -f "$WC_TMP"/got.* "$WC_TMP"/ready
	# Every receiver in one wc-udp (under TCG every process costs); the
	# unicast one has no group (an empty GROUP).
	specs="n$far,wcn$far,,$PORT,$WC_TMP/got.u"
	for id in $far $mid $other; do
		[ "$id" = "$other" ] && g=239.7.7.8 || g=239.7.7.7
		specs="$specs n$id,wcn$id,$g,$((PORT + 1)),$WC_TMP/got.$id"
	done
	bg "$UDP" recv-many --ready "$WC_TMP/ready" $specs
	pids=$bg_pid
	if ! wait_for 30 test -f "$WC_TMP/ready"; then
		not_ok "$what: receivers ready"
	fi
	worms0=$(wc_stat wc worms_done)
	# ARP first, so that the unicast datagrams are not held back by it.
	nsx n0 ping -c 1 -W 5 "$(ip4_of $far)" >/dev/null 2>&1
	check "$what: send" sh -c "
		$UDP send --netns n0 --dst $(ip4_of $far) --port $PORT \
			--count $N --tag u &&
		$UDP send --netns n0 --dst 239.7.7.7 --port $((PORT + 1)) \
			--ifname wcn0 --count $N --tag m"
	# Until the receivers have what was sent (exactness is checked below).
	wait_for 30 got_all $far $mid

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

	stop_pids $pids
	_pids=""
	check "$what: delete" wc_del wc
	ns_del n0 n$far n$mid n$other
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
