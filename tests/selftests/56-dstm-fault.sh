#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# DSTM around a live link fault (Documentation/faults.rst, "DSTM around
# faulty links"): a 4x4 torus under dstm-1 with wormcastd running.  A link
# of tree 0 that separates the source from a member in that tree (read
# from "wormctl -j table show -v") fails; wormcastd reads the faults and
# commits a new table generation carrying that link; then 20 UDP multicast
# datagrams reach every member exactly once, no non-member, with no
# fault_drops and nothing absorbed.  The link is repaired: another
# generation without it, 20 more datagrams, the same checks.  "wormctl
# monitor" saw both fault events.
#
# Then local information (faults.rst, "Local information"): the fabric is
# made again with fault-info local (read back from ip -d and wormctl, set
# to global and back with wormctl fabric set); wormcastd commits the
# fault-free table and is stopped, so that nothing recomputes; the same
# kind of link fails; 20 datagrams reach every member exactly once and no
# non-member, the sources' worms absorbed at the link being re-injected by
# the router before it on the other tree: fault_reinjected > 0,
# fault_drops and fault_reinject_drops unchanged, the table still without
# faulty links.  Both trees cut: a tree-1 link between the near end and a
# member behind the tree-0 link fails too (below the source in tree 1 if
# there is one, so that worms on tree 1 still deliver); 20 more
# datagrams: each member gets each at most once, and the copies received + fault_reinject_drops
# = 20 x members exactly, with fault_reinject_drops > 0 and no
# fault_drops (every worm is absorbed once, and re-injected).
. "$(dirname "$0")/lib.sh"

WORMCASTD=${WC_BUILD:-$WC_ROOT/build}/wormcastd
N=20
SRC=0
MEMBERS="5 10 15"
OTHERS="2"
PORT4=5600

[ -x "$WORMCASTD" ] || { not_ok "wormcastd built ($WORMCASTD)"; done_testing; exit; }

for id in $SRC $MEMBERS $OTHERS; do
	ns_new "n$id" || not_ok "namespace n$id"
done

module=${WC_MODULE:-$WC_ROOT/wormcast.ko}
module_loaded || insmod "$module"
if wc_add wc topology torus dims 4x4 multicast dstm-1; then
	for id in $SRC $MEMBERS $OTHERS; do
		node_in_ns "wcn$id" "n$id" "$id" || not_ok "node $id in its namespace"
	done
	ok "4x4 torus, dstm-1, nodes in namespaces"
else
	not_ok "4x4 torus, dstm-1"
	done_testing
	exit
fi
fid=$(wc_field wc .fabric)

# The monitor is subscribed once it has seen a change of its own (before
# the daemon runs, so that this change gives no table).
bg sh -c "exec wormctl monitor >$WC_TMP/mon"
if wait_for 30 sh -c "wormctl fault add wc link 0 1 && wormctl fault del wc link 0 1 &&
		grep -q '^fault del fabric $fid wc link 0 1\$' $WC_TMP/mon"; then
	ok "wormctl monitor is listening"
else
	not_ok "wormctl monitor is listening" "$(cat "$WC_TMP/mon" 2>/dev/null)"
fi

bg "$WORMCASTD"
# tbl JQ: a field of the trees table (wormctl -j table show)
tbl() {
	wormctl -j table show wc 2>/dev/null | jq -c ".[0] | $1"
}
if wait_for 60 wc_table_committed wc dstm-1; then
	ok "wormcastd committed the dstm-1 table ($(tbl '{gen, nfaults}'))"
else
	not_ok "wormcastd committed the dstm-1 table" "$(tail -n 5 "$WC_TMP/bg.log")"
fi
gen0=$(tbl .gen)

# A link of tree 0 whose removal separates the source from a member in
# tree 0 (node ids x + 4y, torus ports 0 +x, 1 -x, 2 +y, 3 -y): "A B PA".
tree0_link() {
	wormctl -j table show -v wc | python3 -c '
import json, sys
src, members = int(sys.argv[1]), [int(m) for m in sys.argv[2].split()]
t = json.load(sys.stdin)[0]
pp = t["parent_port"][0]
def nbr(v, p):
    x, y = v % 4, v // 4
    dx, dy = [(1, 0), (-1, 0), (0, 1), (0, -1)][p]
    return (x + dx) % 4 + 4 * ((y + dy) % 4)
parent = [None if p is None else nbr(v, p) for v, p in enumerate(pp)]
def below(v, c):   # is v in the subtree of c?
    while v is not None:
        if v == c:
            return True
        v = parent[v]
    return False
for c in range(16):
    if parent[c] is None:
        continue
    side = [below(v, c) for v in [src] + members]
    if any(s != side[0] for s in side[1:]):
        print(c, parent[c], pp[c])
        break
' $SRC "$MEMBERS"
}
link=$(tree0_link)
set -- $link
A=$1 B=$2 PA=$3
if [ -n "$A" ] && [ -n "$B" ]; then
	ok "tree 0 link $A-$B separates node $SRC from a member in tree 0"
else
	not_ok "a tree link separating the source from a member" "$(wormctl table show -v wc)"
	done_testing
	exit
fi

# carries NODE PORT: the table carries exactly that faulty link (either end)
carries_link() {
	[ "$(tbl '.nfaults')" = 1 ] &&
		tbl '.faulty_links[0] | "\(.node) \(.port)"' |
		grep -qx "\"$A $PA\"\|\"$B $((PA ^ 1))\""
}
# send_check WHAT TAG: N datagrams from SRC; members once, others none,
# no fault drop and nothing absorbed meanwhile
send_check() {
	fd0=$(wc_stat wc fault_drops) fa0=$(wc_stat wc fault_absorbed)
	mc_recv_start 4
	wait_for 30 mc_all_ready 4 || not_ok "$1: receivers joined"
	check "$1: send $N datagrams to 239.1.2.3" \
		"$UDP" send --netns "n$SRC" --dst 239.1.2.3 --port $PORT4 \
		--ifname "wcn$SRC" --count $N --tag "$2" --size 300
	wait_for 30 mc_members_have 4 $N
	mc_check_got 4 "$1" "$2" $N
	mc_recv_stop
	is "$1: no fault_drops" $(($(wc_stat wc fault_drops) - fd0)) 0
	is "$1: no worm branch absorbed" $(($(wc_stat wc fault_absorbed) - fa0)) 0
}

check "link $A-$B fails" wormctl fault add wc link "$A" "$B"
if wait_for 30 carries_link; then
	gen1=$(tbl .gen)
	ok "wormcastd committed a new generation carrying link $A-$B ($gen0 -> $gen1; $(tbl .faulty_links))"
else
	not_ok "wormcastd committed a table carrying link $A-$B" \
		"$(wormctl table show wc)" "$(tail -n 5 "$WC_TMP/bg.log")"
	gen1=$(tbl .gen)
fi
if grep -q "push: fabric wc scheme dstm-1 .*faulty links 1, fault event to commit [0-9]* ms" "$WC_TMP/bg.log"; then
	ok "wormcastd logged the re-push ($(grep -o 'faulty links 1, fault event to commit [0-9]* ms' "$WC_TMP/bg.log" | tail -n 1))"
else
	not_ok "wormcastd logged the re-push" "$(tail -n 5 "$WC_TMP/bg.log")"
fi
send_check "link $A-$B failed" failed

check "link $A-$B repaired" wormctl fault del wc link "$A" "$B"
repaired_after() {
	[ "$(wc_table_field wc dstm-1 faulty_links)" = 0 ] &&
		[ "$(wc_table_field wc dstm-1 gen)" -gt "$1" ]
}
if wait_for 30 repaired_after "$gen1"; then
	ok "wormcastd committed a new generation without faulty links ($gen1 -> $(tbl .gen))"
else
	not_ok "wormcastd committed a table without faulty links" \
		"$(wormctl table show wc)" "$(tail -n 5 "$WC_TMP/bg.log")"
fi
send_check "link $A-$B repaired" repaired

for ev in add del; do
	ev="fault $ev fabric $fid wc link"
	if wait_for 10 grep -qx "$ev $A $B\|$ev $B $A" "$WC_TMP/mon"; then
		ok "monitor: $ev $A $B"
	else
		not_ok "monitor: $ev $A $B" "$(cat "$WC_TMP/mon")"
	fi
done
is "fabric drop counters all zero" "$(wc_drops wc)" 0
check "fabric deleted with its table installed" wc_del wc
_fabrics=""
bg_stop

# ---------------------------------------------------------------- local
if wc_add wc topology torus dims 4x4 multicast dstm-1 fault-info local; then
	for id in $SRC $MEMBERS $OTHERS; do
		node_in_ns "wcn$id" "n$id" "$id" || not_ok "node $id in its namespace"
	done
	ok "4x4 torus, dstm-1, fault-info local, nodes in namespaces"
else
	not_ok "4x4 torus, dstm-1, fault-info local"
	done_testing
	exit
fi
is "ip -d link show: fault-info local" "$(wc_field wc '.["fault-info"]')" '"local"'
# finfo: fault-info as wormctl fabric show -j reads it
finfo() {
	wormctl -j fabric show wc | jq -r '.[0].params["fault-info"]'
}
is "wormctl fabric show: fault-info local" "$(finfo)" local
check "wormctl fabric set wc fault-info global" wormctl fabric set wc fault-info global
is "  read back: global" "$(finfo)" global
check "wormctl fabric set wc fault-info local" wormctl fabric set wc fault-info local
is "  read back: local" "$(finfo)" local

bg "$WORMCASTD"
if wait_for 60 wc_table_committed wc dstm-1; then
	ok "wormcastd committed the dstm-1 table ($(tbl '{gen, nfaults}'))"
else
	not_ok "wormcastd committed the dstm-1 table" "$(tail -n 5 "$WC_TMP/bg.log")"
fi
bg_stop		# nothing recomputes from here on
link=$(tree0_link)
set -- $link
A=$1 B=$2
if [ -n "$A" ] && [ -n "$B" ]; then
	ok "tree 0 link $A-$B separates node $SRC from a member in tree 0"
else
	not_ok "a tree link separating the source from a member" "$(wormctl table show -v wc)"
	done_testing
	exit
fi
fd0=$(wc_stat wc fault_drops) fr0=$(wc_stat wc fault_reinjected)
frd0=$(wc_stat wc fault_reinject_drops)
check "link $A-$B fails, wormcastd stopped" wormctl fault add wc link "$A" "$B"
mc_recv_start 4
wait_for 30 mc_all_ready 4 || not_ok "local: receivers joined"
check "local: send $N datagrams to 239.1.2.3" \
	"$UDP" send --netns "n$SRC" --dst 239.1.2.3 --port $PORT4 \
	--ifname "wcn$SRC" --count $N --tag local --size 300
wait_for 30 mc_members_have 4 $N
mc_check_got 4 "local, link $A-$B failed" local $N
mc_recv_stop
is "local: the table still carries no faulty link" "$(tbl .nfaults)" 0
reinj=$(($(wc_stat wc fault_reinjected) - fr0))
if [ "$reinj" -gt 0 ]; then
	ok "local: $reinj worms re-injected by the router before the link (fault_reinjected)"
else
	not_ok "local: worms re-injected (fault_reinjected > 0)" "$(wormctl stats wc)"
fi
is "local: engine fault_reinjected as the nodes'" \
	"$(wormctl -j stats wc | jq '.[0].engine.fault_reinjected')" \
	"$(wc_stat wc fault_reinjected)"
is "local: no fault_drops" $(($(wc_stat wc fault_drops) - fd0)) 0
is "local: no fault_reinject_drops" $(($(wc_stat wc fault_reinject_drops) - frd0)) 0
is "local: fabric drop counters all zero" "$(wc_drops wc)" 0

# A tree-1 link that separates the near end of A-B (A is the child in
# tree 0) from a member behind A-B: "C D down|any".
tree1_link() {
	wormctl -j table show -v wc | python3 -c '
import json, sys
src, members, a, b = int(sys.argv[1]), [int(m) for m in sys.argv[2].split()], int(sys.argv[3]), int(sys.argv[4])
t = json.load(sys.stdin)[0]
def nbr(v, p):
    x, y = v % 4, v // 4
    dx, dy = [(1, 0), (-1, 0), (0, 1), (0, -1)][p]
    return (x + dx) % 4 + 4 * ((y + dy) % 4)
par = [[None if p is None else nbr(v, p) for v, p in enumerate(pp)]
       for pp in t["parent_port"]]
def below(k, v, c):
    while v is not None:
        if v == c:
            return True
        v = par[k][v]
    return False
near = a if below(0, src, a) else b
behind = [m for m in members if below(0, m, a) != below(0, src, a)]
# A worm goes up to the common ancestor, then down: cut on the way up it
# loses all, so prefer a link below both the near end and the source
# ("down"), with a member behind A-B under it and a member not under it
# (then the worms on tree 1 still deliver); else any that cuts one off.
best = None
for c in range(16):
    if par[1][c] is None:
        continue
    under = [m for m in members if below(1, m, c)]
    if not below(1, near, c) and not below(1, src, c) and \
       set(under) & set(behind) and len(under) < len(members):
        best = (c, "down")
        break
    if best is None and any(below(1, near, c) != below(1, m, c) for m in behind):
        best = (c, "any")
if best:
    print(best[0], par[1][best[0]], best[1])
' $SRC "$MEMBERS" "$A" "$B"
}
set -- $(tree1_link)
C=${1:-} D=${2:-} HOW=${3:-}
if [ -n "$C" ] && check "both trees cut: tree-1 link $C-$D fails too" \
	wormctl fault add wc link "$C" "$D"; then
	fd0=$(wc_stat wc fault_drops) frd0=$(wc_stat wc fault_reinject_drops)
	mc_recv_start 4
	wait_for 30 mc_all_ready 4 || not_ok "both cut: receivers joined"
	check "both cut: send $N datagrams to 239.1.2.3" \
		"$UDP" send --netns "n$SRC" --dst 239.1.2.3 --port $PORT4 \
		--ifname "wcn$SRC" --count $N --tag both --size 300
	nm=$(echo $MEMBERS | wc -w)
	# got_both: copies the members read; both_done: all read or counted
	got_both() {
		for m in $MEMBERS; do
			cat "$WC_TMP/got4.$m" 2>/dev/null
		done | grep -c .
	}
	both_done() {
		[ $(($(got_both) + $(wc_stat wc fault_reinject_drops) - frd0)) -ge $((N * nm)) ]
	}
	wait_for 30 both_done
	mc_recv_stop
	dup=0
	for m in $MEMBERS; do
		dup=$((dup + $(sort "$WC_TMP/got4.$m" 2>/dev/null | uniq -d | grep -c .)))
	done
	is "both cut: no member got a datagram twice" $dup 0
	is "both cut: non-member node $OTHERS received nothing" \
		"$(grep -c . "$WC_TMP/got4.$OTHERS" 2>/dev/null)" 0
	frd=$(($(wc_stat wc fault_reinject_drops) - frd0))
	got=$(got_both)
	is "both cut: copies read ($got) + fault_reinject_drops ($frd) = $N x $nm" \
		$((got + frd)) $((N * nm))
	if [ "$frd" -gt 0 ] && { [ "$got" -gt 0 ] || [ "$HOW" != down ]; }; then
		ok "both cut: re-injected worms lost again, counted ($frd fault_reinject_drops); $got copies delivered (link $HOW)"
	else
		not_ok "both cut: fault_reinject_drops > 0 and, the link being below the source, copies delivered" \
			"$(wormctl stats wc)"
	fi
	is "both cut: no fault_drops" $(($(wc_stat wc fault_drops) - fd0)) 0
	check "both cut: link $C-$D repaired" wormctl fault del wc link "$C" "$D"
else
	not_ok "a tree-1 link between the near end of $A-$B and a member behind it" \
		"$(wormctl table show -v wc)"
fi
check "local: link $A-$B repaired" wormctl fault del wc link "$A" "$B"
check "local: fabric deleted" wc_del wc
_fabrics=""

done_testing
