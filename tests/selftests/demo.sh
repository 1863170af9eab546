#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# "make demo": multicast through an emulated 8x8 torus, inside the VM.
# The fabric runs DSTM-1 (two edge-disjoint spanning trees): wormcastd
# computes the trees and commits them into the kernel.  Six nodes join a
# group with ordinary sockets, each in its own network namespace; two more
# listen on the same port without joining; node 0 sends IPv4 and IPv6
# multicast from yet another namespace, each datagram one worm that the
# routers split along a tree.  The demo prints what each node received and
# the fabric's counters, and fails if a member missed a datagram, a
# non-member got one, a datagram took more than one worm, or the fabric
# dropped anything.
. "$(dirname "$0")/lib.sh"

N=5
SRC=0
MEMBERS="9 18 27 36 45 63"
OTHERS="7 56"
G4=239.1.2.3
G6=ff0e::1:2:3
failed=0

say() {
	printf '%s\n' "$*"
}

coords() {
	ip -n "n$1" -d -j link show dev "wcn$1" | jq -r '.[0].linkinfo.info_data.coords | map(tostring) | join(",")'
}

say "== creating an 8x8 torus: ip link add wc type wormcast topology torus dims 8x8 multicast dstm-1"
wc_add wc topology torus dims 8x8 multicast dstm-1 || exit 1
ip -d link show wc | sed 's/^/   /'

say ""
say "== wormcastd computes the two trees and commits them: wormctl table show wc"
bg "${WC_BUILD:-$WC_ROOT/build}/wormcastd"
wait_for 60 sh -c '[ "$(wormctl -j fabric show wc | jq ".[0].table_gen // 0")" -ge 1 ]' ||
	{ say "wormcastd committed no table"; exit 1; }
grep 'push:' "$WC_TMP/bg.log" | sed 's/^/   /'
wormctl table show wc | sed 's/^/   /'

say ""
say "== one network namespace per node in the demo"
for id in $SRC $MEMBERS $OTHERS; do
	ns_new "n$id" && node_in_ns "wcn$id" "n$id" "$id" || exit 1
	case " $MEMBERS " in *" $id "*) role="member of $G4 and $G6" ;;
	*) [ "$id" = $SRC ] && role="sender" || role="listening, not a member" ;; esac
	say "   netns n$id: wcn$id  node $id  coords ($(coords "$id"))  $(ip4_of "$id")  $(ip6_of "$id")  $role"
done

say ""
say "== receivers: UDP sockets, port 5000 (IPv4) and 5001 (IPv6)"
for id in $MEMBERS $OTHERS; do
	case " $MEMBERS " in *" $id "*) g4=$G4 g6=$G6 ;; *) g4=239.9.9.9 g6=ff0e::9:9:9 ;; esac
	bg "$UDP" recv --netns "n$id" --port 5000 --group $g4 --ifname "wcn$id" \
		--ready "$WC_TMP/r4.$id" --out "$WC_TMP/got.$id"
	bg "$UDP" recv --netns "n$id" --port 5001 --group $g6 --ifname "wcn$id" \
		--ready "$WC_TMP/r6.$id" --out "$WC_TMP/got.$id"
done
wait_for 60 sh -c "[ \$(ls $WC_TMP/r* | wc -l) = $((2 * $(echo $MEMBERS $OTHERS | wc -w))) ]" ||
	{ say "receivers did not start"; exit 1; }
sleep 1

say ""
say "== node $SRC sends $N datagrams to $G4 and $N to $G6"
"$UDP" send --netns "n$SRC" --dst $G4 --port 5000 --ifname "wcn$SRC" --count $N \
	--tag "IPv4 hello from node $SRC, #" || failed=1
"$UDP" send --netns "n$SRC" --dst $G6 --port 5001 --ifname "wcn$SRC" --count $N \
	--tag "IPv6 hello from node $SRC, #" || failed=1
# until every member has both families' datagrams (or 30 s)
members_done() {
	for id in $MEMBERS; do
		[ "$(grep -c . "$WC_TMP/got.$id" 2>/dev/null)" -ge $((2 * N)) ] || return 1
	done
}
wait_for 30 members_done
bg_stop
worms=$(wormctl -j stats wc | jq ".[0].per_node[] | select(.node == $SRC) | .counters.worms_injected")

say ""
say "== what each node received"
for id in $MEMBERS $OTHERS; do
	got=$(grep -c . "$WC_TMP/got.$id" 2>/dev/null || true)
	distinct=$(sort -u "$WC_TMP/got.$id" 2>/dev/null | grep -c . || true)
	case " $MEMBERS " in
	*" $id "*) want=$((2 * N)) ;;
	*) want=0 ;;
	esac
	verdict="as expected"
	if [ "$got" != "$want" ] || [ "$distinct" != "$want" ]; then
		verdict="WRONG: expected $want distinct datagrams"
		failed=1
	fi
	say "   node $id ($(coords "$id")): $got datagrams, $distinct distinct: $verdict"
	sed 's/^/      /' "$WC_TMP/got.$id" 2>/dev/null | sort -k4,4 -k9n
done

say ""
say "== fabric counters and engine statistics: wormctl stats wc"
wormctl stats wc >"$WC_TMP/stats" || failed=1
# Nodes outside the demo have all-zero counters: not worth 55 lines.
grep -v ': all zero$' "$WC_TMP/stats" | sed 's/^/   /'
drops=$(wc_drops wc)
say ""
say "== node $SRC injected $worms worms for its $((2 * N)) datagrams (one worm each, split by the routers)"
[ "$worms" = $((2 * N)) ] || failed=1
if [ "$drops" = 0 ] && [ "$failed" = 0 ]; then
	say "== demo passed: every member got every datagram once, non-members none, one worm per datagram, no drops"
else
	say "== demo FAILED (drops: $drops)"
	failed=1
fi
exit $failed
