#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Fault-tolerant minimal multicast on a 2-D mesh (Documentation/faults.rst,
# "ftmesh in the kernel"): a 6x6 mesh under the ftmesh scheme (4 VCs,
# asynchronous replication, no detours).  The scheme
# is refused on a torus.  Before wormcastd runs, the frames go by the
# fallback and are counted in table_fallback.  wormcastd commits an ftmesh
# table without blocks; UDP multicast from the corner node 0 reaches every
# member exactly once and no non-member, one worm per datagram (every
# member lies in the +X+Y subnetwork of the corner: the routers
# replicate).  Node 14 fails: wormcastd commits a table with the block
# {(2,2)}; the members, all reachable minimally from a safe source, still
# get every datagram once, with no fault drop and no worm absorbed at the
# failed node (the routers go around the block).  Link 21-22 fails after
# node 14 is repaired: the link's larger-id end, node 22, becomes the
# block.  Member node 21 fails: the diagonal pair 14, 21 closes into the
# block (2..3, 2..3) by Definition 1, the member in it gets nothing, and
# delivered + fault_drops = sent x members, exactly.  Repaired: a table
# without blocks, every member served again.  Strategy 3: wormcastd with
# ftmesh_strategy = 3 commits an ftmesh table of strategy 3 and a plans
# table of scheme ftmesh (every source and group planned); node 21 (3,3)
# sends to members 4, 24 and 35, one in each of three subnetworks: three
# worms per datagram, the plan's, no plan fallback, each member once.
# Node 14 fails: a new ftmesh table and new plans against it (planned
# after it), and the next round goes by them again.
. "$(dirname "$0")/lib.sh"

WORMCASTD=${WC_BUILD:-$WC_ROOT/build}/wormcastd
N=20
SRC=0
MEMBERS="4 21 24 35"
OTHERS="1"
PORT4=5900

[ -x "$WORMCASTD" ] || { not_ok "wormcastd built ($WORMCASTD)"; done_testing; exit; }

module=${WC_MODULE:-$WC_ROOT/wormcast.ko}
module_loaded || insmod "$module"

if ip link add wt type wormcast topology torus dims 4x4 vcs 4 replication async multicast ftmesh \
	2>"$WC_TMP/err"; then
	_fabrics="$_fabrics wt"
	not_ok "ftmesh refused on a torus"
else
	ok "ftmesh refused on a torus ($(head -c 120 "$WC_TMP/err"))"
fi

if wc_add wc topology mesh dims 6x6 vcs 4 replication async buf_flits 64 multicast ftmesh &&
	nodes_in_ns $SRC $MEMBERS $OTHERS; then
	ok "6x6 mesh, ftmesh, nodes in namespaces"
else
	not_ok "6x6 mesh, ftmesh, nodes in namespaces"
	done_testing
	exit
fi
is "ip -d link show: multicast ftmesh" "$(wc_field wc .multicast)" '"ftmesh"'

# ft JQ: a field of the committed ftmesh table (wormctl -j table show -v)
ft() {
	wormctl -j table show -v wc 2>/dev/null |
		jq -c "[.[] | select(.kind == \"ftmesh\")][0] | $1"
}
# ftmesh_committed: the kernel holds an ftmesh table
ftmesh_committed() {
	[ -n "$(wc_table_field wc ftmesh gen)" ]
}
# blocks: the table's blocks as "x0,y0-x1,y1 ..."
blocks() {
	ft '[.blocks[]? | "\(.x0),\(.y0)-\(.x1),\(.y1)"] | join(" ")' | tr -d '"'
}
# src_counters: the counters of SRC that a round compares, on one line
src_counters() {
	wc_node_counters wc $SRC tx_frames tx_no_receiver worms_injected \
		table_fallback
}
# delivered TAG: datagrams tagged TAG that the members received in all
delivered() {
	_d=0
	for _id in $MEMBERS; do
		_d=$((_d + $(grep -c "^$1 " "$WC_TMP/got4.$_id" 2>/dev/null)))
	done
	echo $_d
}

# round WHAT TAG SERVED table|fallback [WORMS]: N datagrams from SRC.
# Every member of SERVED gets each once, the other members none, and
# delivered + fault_drops = N x members; with a table, WORMS (default 1)
# worms per datagram and no fallback.
round() {
	fd0=$(wc_stat wc fault_drops) fa0=$(wc_stat wc fault_absorbed)
	read -r t0 nr0 w0 f0 <<-EOF
	$(src_counters)
	EOF
	check "$1: send $N datagrams to 239.1.2.3" \
		"$UDP" send --netns "n$SRC" --dst 239.1.2.3 --port $PORT4 \
		--ifname "wcn$SRC" --count $N --tag "$2" --size 300
	_members=$(echo $MEMBERS | wc -w)
	wait_for 30 round_done "$2" "$fd0" $((N * _members))
	_want=$(seq 1 $N | sed "s/^/$2 /" | sort)
	_bad=""
	for _id in $MEMBERS; do
		_got=$(grep "^$2 " "$WC_TMP/got4.$_id" 2>/dev/null | sort)
		case " $3 " in
		*" $_id "*) [ "$_got" = "$_want" ] || _bad="$_bad $_id" ;;
		*) [ -z "$_got" ] || _bad="$_bad $_id" ;;
		esac
	done
	is "$1: members$3 got each datagram exactly once, the others none (wrong:$_bad)" "$_bad" ""
	for _id in $OTHERS; do
		is "$1: non-member node $_id received nothing" \
			"$(grep -c "^$2 " "$WC_TMP/got4.$_id" 2>/dev/null)" 0
	done
	_d=$(delivered "$2") _fd=$(($(wc_stat wc fault_drops) - fd0))
	is "$1: delivered ($_d) + fault_drops ($_fd) = sent x members" \
		$((_d + _fd)) $((N * _members))
	read -r t1 nr1 w1 f1 <<-EOF
	$(src_counters)
	EOF
	_w=$((w1 - w0))
	# frames with a receiver (not, say, an MLD report of the sender)
	_t=$((t1 - nr1 - (t0 - nr0)))
	is "$1: no worm branch absorbed at a fault (routed around the blocks)" \
		$(($(wc_stat wc fault_absorbed) - fa0)) 0
	if [ "$4" = table ]; then
		is "$1: ${5:-1} worm(s) per datagram ($_w worms for $_t frames)" \
			"$_w" $((_t * ${5:-1}))
		is "$1: no frame routed by the fallback" $((f1 - f0)) 0
	else
		is "$1: $N frames counted under table_fallback" $((f1 - f0)) $N
	fi
}
round_done() {
	[ $(($(delivered "$1") + $(wc_stat wc fault_drops) - $2)) -ge "$3" ]
}

mc_recv_start 4
wait_for 30 mc_all_ready 4 || not_ok "receivers joined"
round "no table yet" nt " $MEMBERS " fallback

bg "$WORMCASTD"
wcd=$bg_pid
if wait_for 60 ftmesh_committed; then
	ok "wormcastd committed an ftmesh table ($(ft '{gen, strategy, nblocks}'))"
else
	not_ok "wormcastd committed an ftmesh table" "$(tail -n 5 "$WC_TMP/bg.log")"
fi
is "the table has no block" "$(blocks)" ""
round "no fault" ok " $MEMBERS " table

# wait_blocks WANT: wormcastd committed a table whose blocks are WANT
wait_blocks() {
	wait_for 30 blocks_are "$1"
}
blocks_are() {
	[ "$(blocks)" = "$1" ]
}
# fault_step WHAT CMD WANT: run CMD, then wormcastd commits blocks WANT
fault_step() {
	check "$1" $2
	if wait_blocks "$3"; then
		ok "$1: wormcastd committed the blocks '$3' ($(ft '{gen, nblocks}'))"
	else
		not_ok "$1: wormcastd committed the blocks '$3'" "blocks now: $(blocks)" \
			"$(tail -n 5 "$WC_TMP/bg.log")"
	fi
}

fault_step "node 14 fails" "wormctl fault add wc node 14" "2,2-2,2"
round "node 14 failed" f14 " $MEMBERS " table
fault_step "node 14 repaired" "wormctl fault del wc node 14" ""
fault_step "link 21-22 fails" "wormctl fault add wc link 21 22" "4,3-4,3"
round "link 21-22 failed" l21 " $MEMBERS " table
fault_step "link 21-22 repaired" "wormctl fault del wc link 21 22" ""
check "node 14 fails again" wormctl fault add wc node 14
fault_step "member node 21 fails" "wormctl fault add wc node 21" "2,2-3,3"
round "nodes 14 and 21 failed" f21 " 4 24 35 " table
check "node 21 repaired" wormctl fault del wc node 21
fault_step "node 14 repaired" "wormctl fault del wc node 14" ""
round "repaired" rep " $MEMBERS " table

t3=$(date +%s)
N=10
stop_pids $wcd
printf 'ftmesh_strategy = 3\nplans_eager_max = 4294967295\n' >"$WC_TMP/s3.conf"
bg "$WORMCASTD" -c "$WC_TMP/s3.conf"
# plans JQ: a field of the committed plans table
plans() {
	wormctl -j table show -v wc 2>/dev/null |
		jq -c "[.[] | select(.kind == \"plans\")][0] | $1"
}
# s3_ready: an ftmesh table of strategy 3 with plans of scheme ftmesh
# committed after it (their generation is larger); one light read
s3_ready() {
	wormctl -j table show wc 2>/dev/null | jq -e '
		([.[] | select(.kind == "ftmesh")][0]) as $f |
		([.[] | select(.kind == "plans")][0]) as $p |
		$f.strategy == 3 and $p.scheme == "ftmesh" and $p.gen > $f.gen' >/dev/null
}
# s3_round WHAT TAG: node 21 sends with its plan
s3_round() {
	_nw=$(plans '[.plans[] | select(.src == 21 and .group == "01:00:5e:01:02:03")][0].worms | length')
	is "$1: the plan of (21, 239.1.2.3) has 3 worms" "$_nw" 3
	_pf=$(wc_node_counters wc 21 plan_fallback)
	SRC=21 MEMBERS="4 24 35"
	round "$1" "$2" " $MEMBERS " table "$_nw"
	SRC=0 MEMBERS="4 21 24 35"
	is "$1: every frame went by its plan (plan_fallback)" \
		$(($(wc_node_counters wc 21 plan_fallback) - _pf)) 0
}
if wait_for 60 s3_ready; then
	ok "strategy 3: ftmesh table and plans committed ($(ft '{gen, strategy}') $(plans '{gen, scheme, nplans}'))"
else
	not_ok "strategy 3: ftmesh table and plans committed" "$(ft '{gen, strategy}') $(plans '{gen, scheme}')" \
		"$(tail -n 5 "$WC_TMP/bg.log")"
fi
s3_round "strategy 3" s3
check "strategy 3: node 14 fails" wormctl fault add wc node 14
if wait_blocks "2,2-2,2" && wait_for 30 s3_ready; then
	ok "strategy 3, node 14 failed: new ftmesh table, plans against it ($(ft '{gen, nblocks}') $(plans '{gen}'))"
else
	not_ok "strategy 3, node 14 failed: new ftmesh table, plans against it" \
		"$(tail -n 5 "$WC_TMP/bg.log")"
fi
s3_round "strategy 3, node 14 failed" s3f
diag "strategy 3 part: $(($(date +%s) - t3)) s"
mc_recv_stop

is "no drop counter moved but fault_drops" \
	"$(wormctl -j stats wc | jq '[.[0].counters | to_entries[] | select(.key | startswith("drop")) | .value] | add')" 0
check "fabric deleted with its table installed" wc_del wc
_fabrics=""
bg_stop

done_testing
