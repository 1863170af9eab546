#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# ocms and otms end to end (Documentation/paths.rst, "ocms and otms in the
# datapath"): PLANS tables through raw netlink (tables.py plans: refused
# before a labels table, every kind of bad plan refused with its extack
# text); then for each scheme an 8x8 mesh, wormcastd committing the
# labels, and UDP multicast from node SRC to members in their own
# namespaces.  Without the daemon (stopped once the labels are in) the
# members' new group has no plan: every datagram still reaches every
# member once and none other, and the sender counts plan_fallback.  With
# the daemon back, the plan for (SRC, group) covers exactly the members:
# no fallback, exactly the plan's worm count per frame.  Then (ocms) a node
# joins the group under traffic: the group shows it, the plan is re-made
# with it, and the members lose nothing.  Phase times go to the TAP
# diagnostics.
. "$(dirname "$0")/lib.sh"

here=$(dirname "$0")
WORMCASTD=${WC_BUILD:-$WC_ROOT/build}/wormcastd
N=10
SRC=27
MEMBERS="0 7 20 45 56 63"
OTHERS="36"
EXTRA=10
PORT4=5000
GRP=01:00:5e:01:02:03

[ -x "$WORMCASTD" ] || { not_ok "wormcastd built ($WORMCASTD)"; done_testing; exit; }

run_tap_py python3 "$here/tables.py" plans
check "tables.py deleted its fabric" sh -c '! ip link show wct 2>/dev/null'

for id in $SRC $MEMBERS $OTHERS $EXTRA; do
	ns_new "n$id" || not_ok "namespace n$id"
done

counter() {
	wormctl -j stats wc | jq ".[0].per_node[] | select(.node == $1) | .counters.$2"
}

# The destinations of the plan for (SRC, GRP), sorted, as a JSON array.
plan_dests() {
	wormctl -j table show -v wc 2>/dev/null | jq -c "[.[] | select(.kind == \"plans\")][0].plans // [] |
		map(select(.src == $SRC and .group == \"$GRP\"))[0].worms // [] | [.[][]] | sort"
}

plan_worms() {
	wormctl -j table show -v wc | jq "[.[] | select(.kind == \"plans\")][0].plans |
		map(select(.src == $SRC and .group == \"$GRP\"))[0].worms | length"
}

# JSON array of the members given, sorted.
json_sorted() {
	echo "$@" | tr ' ' '\n' | jq -sc 'sort'
}

fabric_up() {
	wc_add wc topology mesh dims 8x8 multicast "$1" || return 1
	for id in $SRC $MEMBERS $OTHERS $EXTRA; do
		node_in_ns "wcn$id" "n$id" "$id" || return 1
	done
}

plan_is() {
	[ "$(plan_dests)" = "$1" ]
}

send() {
	nsx "n$SRC" python3 "$UDP" send --dst 239.1.2.3 --port $PORT4 \
		--ifname "wcn$SRC" --count "$1" --tag "$2" --size 300 ${3:+--interval $3}
}

t_start=$(date +%s)
for scheme in ocms otms; do
	_fabrics=""
	if ! fabric_up $scheme; then
		not_ok "$scheme: 8x8 mesh with its nodes in namespaces"
		continue
	fi
	bg "$WORMCASTD"
	d=$bg_pid
	if wait_for 60 sh -c "wormctl -j table show wc 2>/dev/null | jq -e '[.[] | select(.kind == \"plans\")] | length == 1' >/dev/null" &&
		[ "$(wormctl -j table show wc | jq -r '[.[] | select(.kind == "labels")][0].scheme')" = $scheme ]; then
		ok "$scheme: wormcastd committed the $scheme labels and a plans table"
	else
		not_ok "$scheme: wormcastd committed the $scheme labels and a plans table" \
			"$(tail -n 5 "$WC_TMP/bg.log")"
	fi

	diag "$scheme: labels and plans in at $(($(date +%s) - t_start)) s"

	# ---- before the plan: dual-path, counted
	stop_pids $d
	mc_recv_start 4
	wait_for 30 mc_all_ready 4 || not_ok "$scheme: receivers joined"
	is "$scheme: without the daemon, no plan for the new group" "$(plan_dests)" "[]"
	f0=$(counter $SRC plan_fallback)
	check "$scheme: send $N datagrams before the plan" send $N "pre$scheme"
	wait_for 30 mc_members_have 4 $N
	mc_check_got 4 "$scheme before the plan" "pre$scheme" $N
	f=$(($(counter $SRC plan_fallback) - f0))
	if [ "$f" -ge $N ]; then
		ok "$scheme: plan_fallback counted every datagram before the plan ($f)"
	else
		not_ok "$scheme: plan_fallback counted every datagram before the plan ($f)"
	fi
	is "$scheme: ethtool -S shows plan_fallback" \
		"$(ip netns exec n$SRC ethtool -S wcn$SRC | awk '$1 == "plan_fallback:" { print $2 }')" \
		"$(counter $SRC plan_fallback)"

	diag "$scheme: fallback phase done at $(($(date +%s) - t_start)) s"

	# ---- with the plan: its worms, no fallback
	bg "$WORMCASTD"
	want=$(json_sorted $MEMBERS)
	if wait_for 60 plan_is "$want"; then
		ok "$scheme: wormcastd planned (SRC, group) for exactly the members"
	else
		not_ok "$scheme: wormcastd planned (SRC, group) for exactly the members" \
			"plan $(plan_dests), members $want; $(tail -n 3 "$WC_TMP/bg.log")"
	fi
	grep -q "plans: fabric wc scheme $scheme .* planning [0-9.]* ms push [0-9.]* ms" "$WC_TMP/bg.log" &&
		ok "$scheme: wormcastd logged planning and push times" ||
		not_ok "$scheme: wormcastd logged planning and push times"
	nw=$(plan_worms)
	f0=$(counter $SRC plan_fallback) w0=$(counter $SRC worms_injected)
	t0=$(counter $SRC tx_frames)
	check "$scheme: send $N datagrams on the plan" send $N "plan$scheme"
	wait_for 30 mc_members_have 4 $((2 * N))
	for id in $MEMBERS $OTHERS; do
		grep "^plan$scheme " "$WC_TMP/got4.$id" >"$WC_TMP/got4p.$id" 2>/dev/null
	done
	for id in $MEMBERS; do
		is "$scheme on the plan: member $id received each datagram once" \
			"$(sort "$WC_TMP/got4p.$id" | uniq | grep -c .)/$(grep -c . "$WC_TMP/got4p.$id")" "$N/$N"
	done
	is "$scheme on the plan: non-member $OTHERS received nothing" \
		"$(grep -c . "$WC_TMP/got4.$OTHERS")" 0
	is "$scheme: no fallback with the plan installed" \
		$(($(counter $SRC plan_fallback) - f0)) 0
	is "$scheme: $(($(counter $SRC tx_frames) - t0)) frames, $nw worms each (the plan's)" \
		$(($(counter $SRC worms_injected) - w0)) $((nw * ($(counter $SRC tx_frames) - t0)))

	diag "$scheme: plan phase done at $(($(date +%s) - t_start)) s"
	if [ $scheme = otms ]; then
		mc_recv_stop
		is "$scheme: fabric drop counters all zero" "$(wc_drops wc)" 0
		bg_stop
		check "$scheme: fabric deleted" wc_del wc
		continue
	fi

	# ---- a node joins the group under traffic
	g0=$(wormctl -j group show wc | jq '.[0].groups_gen')
	M=100
	send $M "load$scheme" 0.01 >"$WC_TMP/sender.log" 2>&1 &
	sender=$!
	check "$scheme: node $EXTRA joins the group under traffic" \
		ip -n "n$EXTRA" maddr add $GRP dev "wcn$EXTRA"
	wait "$sender"
	is "$scheme: the sender sent all $M datagrams" "$?" 0
	g1=$(wormctl -j group show wc | jq '.[0].groups_gen')
	check "$scheme: membership generation moved ($g0 -> $g1)" [ "$g1" -gt "$g0" ]
	is "$scheme: group show lists node $EXTRA in the group" \
		"$(wormctl -j group show wc | jq -c ".[0].groups[] | select(.address == \"$GRP\") | .members")" \
		"$(json_sorted $MEMBERS $EXTRA)"
	if wait_for 60 plan_is "$(json_sorted $MEMBERS $EXTRA)"; then
		ok "$scheme: re-planned with node $EXTRA"
	else
		not_ok "$scheme: re-planned with node $EXTRA" "plan $(plan_dests)"
	fi
	wait_for 60 mc_members_have 4 $((2 * N + M))
	for id in $MEMBERS; do
		grep "^load$scheme " "$WC_TMP/got4.$id" >"$WC_TMP/got4l.$id" 2>/dev/null
		is "$scheme under a membership change: member $id lost nothing, got nothing twice" \
			"$(sort -u "$WC_TMP/got4l.$id" | grep -c .)/$(grep -c . "$WC_TMP/got4l.$id")" "$M/$M"
	done
	mc_recv_stop
	is "$scheme: fabric drop counters all zero" "$(wc_drops wc)" 0
	bg_stop
	check "$scheme: fabric deleted" wc_del wc
	diag "$scheme: done at $(($(date +%s) - t_start)) s"
done

done_testing
