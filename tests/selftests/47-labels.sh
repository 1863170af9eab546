#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Label-based multicast end to end (Documentation/multicast.rst, the path
# and star-graph schemes): LABELS tables through raw netlink (tables.py
# labels: every kind of bad labeling refused with its extack text, the
# snake committed and read back); then for each of hamiltonian, dual-path
# and multipath an 8x8 mesh created with "multicast SCHEME", wormcastd
# committing the mesh's snake (checked against "wormctl plan"), and UDP
# multicast from a middle node to members in their own namespaces: every
# member gets every datagram once, non-members none, the sender injects at
# most as many worms per frame as the scheme makes (2 paths, or one per
# source port under multipath), never one per member, and no frame is
# routed by the fallback.  Then the scheme changed under sustained
# multicast (nothing lost), and star-tree on a 4-star (24 nodes, async
# replication with buffers that hold a whole worm of this test).  WC_LABEL_SCHEMES narrows the first part (the debug
# kernel's run takes one scheme, tests/vm/selftests-debug.sh).
. "$(dirname "$0")/lib.sh"

here=$(dirname "$0")
WORMCASTD=${WC_BUILD:-$WC_ROOT/build}/wormcastd
N=30
SRC=27
MEMBERS="0 7 20 45 56 63"
OTHERS="3 36"
PORT4=5000
PORT6=5001

[ -x "$WORMCASTD" ] || { not_ok "wormcastd built ($WORMCASTD)"; done_testing; exit; }

run_tap_py python3 "$here/tables.py" labels
check "tables.py deleted its fabric" sh -c '! ip link show wct 2>/dev/null'

for id in $SRC $MEMBERS $OTHERS; do
	ns_new "n$id" || not_ok "namespace n$id"
done
bg "$WORMCASTD"

# The scheme of the fabric's LABELS table, or "none".
labels_scheme() {
	wormctl -j table show wc 2>/dev/null |
		jq -r '[.[] | select(.kind == "labels")][0].scheme // "none"'
}

fabric_up() {
	wc_add wc "$@" || return 1
	for id in $SRC $MEMBERS $OTHERS; do
		node_in_ns "wcn$id" "n$id" "$id" || return 1
	done
}

# send_check LABEL FAMILY MAXWORMS: N datagrams from $SRC to the members,
# each received once, at most MAXWORMS worms per frame, no fallback.
send_check() {
	[ "$2" = 4 ] && group=239.1.2.3 port=$PORT4 || group=ff0e::1:2:3 port=$PORT6
	mc_recv_start "$2"
	wait_for 30 mc_all_ready "$2" || not_ok "$1 IPv$2: receivers joined"
	read -r tx0 nr0 w0 f0 <<-EOF
	$(wc_node_counters wc $SRC tx_frames tx_no_receiver worms_injected table_fallback)
	EOF
	check "$1 IPv$2: send $N datagrams to $group" \
		"$UDP" send --netns "n$SRC" --dst "$group" --port "$port" \
		--ifname "wcn$SRC" --count $N --tag "$1$2" --size 300
	wait_for 30 mc_members_have "$2" $N
	mc_check_got "$2" "$1 IPv$2" "$1$2" $N
	read -r tx1 nr1 w1 f1 <<-EOF
	$(wc_node_counters wc $SRC tx_frames tx_no_receiver worms_injected table_fallback)
	EOF
	# frames with a receiver (not, say, an MLD report of the sender)
	tx=$((tx1 - nr1 - (tx0 - nr0)))
	w=$((w1 - w0))
	if [ "$tx" -ge $N ] && [ "$w" -ge "$tx" ] && [ "$w" -le $(($3 * tx)) ]; then
		ok "$1 IPv$2: at most $3 worms per frame ($w worms for $tx frames)"
	else
		not_ok "$1 IPv$2: at most $3 worms per frame ($w worms for $tx frames)"
	fi
	is "$1 IPv$2: no frame routed by the fallback" \
		$((f1 - f0)) 0
	mc_recv_stop
}

for scheme in $(echo "${WC_LABEL_SCHEMES:-hamiltonian,dual-path,multipath}" | tr , ' '); do
	if ! fabric_up topology mesh dims 8x8 multicast "$scheme"; then
		not_ok "$scheme: 8x8 mesh with its nodes in namespaces"
		continue
	fi
	ok "$scheme: 8x8 mesh with its nodes in namespaces"
	if wait_for 60 wc_table_committed wc $scheme labels; then
		ok "$scheme: wormcastd committed the labels table"
	else
		not_ok "$scheme: wormcastd committed the labels table" "$(tail -n 5 "$WC_TMP/bg.log")"
	fi
	is "$scheme: the kernel routes by the planner's snake" \
		"$(wormctl -j table show -v wc | jq -c '[.[] | select(.kind == "labels")][0].label')" \
		"$(wormctl -j plan mesh 8x8 labels | jq -c '[.nodes[].label]')"
	case $scheme in
	multipath) maxw=4 ;;	# one worm per port of the source
	*) maxw=2 ;;		# one up the labels, one down
	esac
	send_check "$scheme" 4 $maxw
	[ "$scheme" = dual-path ] && send_check "$scheme" 6 $maxw
	is "$scheme: fabric drop counters all zero" "$(wc_drops wc)" 0
	check "$scheme: fabric deleted with its table installed" wc_del wc
	_fabrics=""
done

# ---- scheme changes under sustained multicast
if fabric_up topology mesh dims 8x8 multicast dual-path &&
	wait_for 60 wc_table_committed wc dual-path; then
	ok "dual-path mesh with its table for the traffic phase"
else
	not_ok "dual-path mesh with its table for the traffic phase"
fi
M=600
mc_recv_start 4
wait_for 30 mc_all_ready 4 || not_ok "receivers joined"
"$UDP" send --netns "n$SRC" --dst 239.1.2.3 --port $PORT4 --ifname "wcn$SRC" \
	--count $M --tag load --size 300 --interval 0.003 >"$WC_TMP/sender.log" 2>&1 &
sender=$!
for s in multipath hamiltonian unicast dual-path; do
	check "scheme changed to $s under traffic" wormctl fabric set wc multicast $s
	[ $s = unicast ] && continue
	if wait_for 60 wc_table_committed wc $s; then
		ok "wormcastd followed with a $s table"
	else
		not_ok "wormcastd followed with a $s table"
	fi
done
wait "$sender"
is "sender sent all $M datagrams" "$?" 0
wait_for 60 mc_members_have 4 $M
mc_check_got 4 "under scheme changes" load $M
mc_recv_stop
is "fabric drop counters all zero after the traffic phase" "$(wc_drops wc)" 0
check "fabric deleted" wc_del wc
_fabrics=""

# ---- star-tree on a 4-star: 24 nodes, one of them the source
SRC=0 MEMBERS="5 11 17 23" OTHERS="12"
for id in $SRC $MEMBERS $OTHERS; do
	[ -e "/run/netns/n$id" ] || ns_new "n$id" || not_ok "namespace n$id"
done
if fabric_up topology star n 4 replication async buf_flits 32 multicast star-tree &&
	wait_for 60 wc_table_committed wc star-tree; then
	ok "star-tree: 4-star with its labels table"
	is "star-tree: the kernel routes by the planner's star labels" \
		"$(wormctl -j table show -v wc | jq -c '.[0].label')" \
		"$(wormctl -j plan star 4 labels | jq -c '[.nodes[].label]')"
	send_check star-tree 4 2
	is "star-tree: fabric drop counters all zero" "$(wc_drops wc)" 0
else
	not_ok "star-tree: 4-star with its labels table" "$(tail -n 5 "$WC_TMP/bg.log")"
fi
check "star-tree: fabric deleted" wc_del wc
_fabrics=""
bg_stop

done_testing
