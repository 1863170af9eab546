#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# ocms and otms end to end (Documentation/paths.rst, "ocms and otms in the
# datapath"): PLANS tables through raw netlink (tables.py plans: refused
# before a labels table, every kind of bad plan refused with its extack
# text); then an 8x8 mesh under ocms, wormcastd committing the labels, and
# UDP multicast from node SRC to members in their own namespaces.  Without
# the daemon (stopped once the labels are in) the members' new group has
# no plan: every datagram still reaches every member once and none other,
# and the sender counts plan_fallback (wormctl stats, ethtool -S).  With
# the daemon back, the plan for (SRC, group) covers exactly the members:
# no fallback, exactly the plan's worm count per frame.  A node joins the
# group under traffic: the group shows it, the plan is re-made with it,
# and the members lose nothing.  Then the fabric is switched to otms under
# the same receivers: wormcastd pushes the otms labels and OTMS plans, and
# the same checks hold.  Last, lazy planning (plans_eager_max = 0): a
# sender is planned only once the kernel reports it in the group.  Phase
# times go to the TAP diagnostics.
. "$(dirname "$0")/lib.sh"

here=$(dirname "$0")
WORMCASTD=${WC_BUILD:-$WC_ROOT/build}/wormcastd
N=10
M=100
SRC=27
MEMBERS="0 20 45 63"
OTHERS="36"
EXTRA=10
PORT4=5000
GRP=01:00:5e:01:02:03

[ -x "$WORMCASTD" ] || { not_ok "wormcastd built ($WORMCASTD)"; done_testing; exit; }

t_start=$(date +%s)
phase() {
	diag "$1 at $(($(date +%s) - t_start)) s"
}

run_tap_py python3 "$here/tables.py" plans
check "tables.py deleted its fabric" sh -c '! ip link show wct 2>/dev/null'

for id in $SRC $MEMBERS $OTHERS $EXTRA; do
	ns_new "n$id" || not_ok "namespace n$id"
done

counter() {
	wc_node_counters wc "$1" "$2"
}

# SRC's tx_frames, worms_injected and plan_fallback, in one read.
snap() {
	wormctl -j stats wc node $SRC |
		jq -r '.[0].per_node[0].counters | "\(.tx_frames) \(.worms_injected) \(.plan_fallback)"'
}

# The plan for (SRC, GRP): its destinations sorted, or its worm count.
plan_dests() {
	wormctl -j table show -v wc 2>/dev/null | jq -c "[.[] | select(.kind == \"plans\")][0].plans // [] |
		map(select(.src == $SRC and .group == \"$GRP\"))[0].worms // [] | [.[][]] | sort"
}

plan_worms() {
	wormctl -j table show -v wc | jq "[.[] | select(.kind == \"plans\")][0].plans |
		map(select(.src == $SRC and .group == \"$GRP\"))[0].worms | length"
}

labels_scheme() {
	wormctl -j table show wc 2>/dev/null | jq -r '[.[] | select(.kind == "labels")][0].scheme // "none"'
}

json_sorted() {
	echo "$@" | tr ' ' '\n' | jq -sc 'sort'
}

# plan_is SCHEME DESTS: labels of SCHEME and the plan for (SRC, GRP) is DESTS.
plan_is() {
	[ "$(labels_scheme)" = "$1" ] && [ "$(plan_dests)" = "$2" ]
}

send() {
	"$UDP" send --netns "n$SRC" --dst 239.1.2.3 --port $PORT4 \
		--ifname "wcn$SRC" --count "$1" --tag "$2" --size 300 ${3:+--interval $3}
}

# on_plan SCHEME TAG: N datagrams on the installed plan: each member gets
# each once, the other none, no fallback, the plan's worms per frame.
on_plan() {
	nw=$(plan_worms)
	read -r t0 w0 f0 <<-EOS
	$(snap)
	EOS
	check "$1: send $N datagrams on the plan" send $N "$2"
	wait_for 30 mc_members_have 4 "$3"
	for id in $MEMBERS; do
		is "$1 on the plan: member $id received each datagram once" \
			"$(grep "^$2 " "$WC_TMP/got4.$id" | sort -u | grep -c .)/$(grep -c "^$2 " "$WC_TMP/got4.$id")" "$N/$N"
	done
	is "$1 on the plan: non-member $OTHERS received nothing" \
		"$(grep -c . "$WC_TMP/got4.$OTHERS")" 0
	read -r t1 w1 f1 <<-EOS
	$(snap)
	EOS
	is "$1: no fallback with the plan installed" $((f1 - f0)) 0
	is "$1: $((t1 - t0)) frames, $nw worms each (the plan's)" \
		$((w1 - w0)) $((nw * (t1 - t0)))
}

if ! wc_add wc topology mesh dims 8x8 multicast ocms; then
	not_ok "ocms: 8x8 mesh"
	done_testing
	exit
fi
for id in $SRC $MEMBERS $OTHERS $EXTRA; do
	node_in_ns "wcn$id" "n$id" "$id" || not_ok "node $id in its namespace"
done
# Eager planning (every source) until the lazy section, whatever the
# default plans_eager_max and the groups the stack joins.
printf 'plans_eager_max = 4294967295\n' >"$WC_TMP/eager.conf"
bg "$WORMCASTD" -c "$WC_TMP/eager.conf"
d=$bg_pid
if wait_for 60 sh -c "wormctl -j table show wc 2>/dev/null | jq -e '[.[] | select(.kind == \"plans\")] | length == 1' >/dev/null" &&
	[ "$(labels_scheme)" = ocms ]; then
	ok "ocms: wormcastd committed the ocms labels and a plans table"
else
	not_ok "ocms: wormcastd committed the ocms labels and a plans table" \
		"$(tail -n 5 "$WC_TMP/bg.log")"
fi
phase "labels and plans in"

# ---- wormctl reads whole tables while they change: a reader whose dump
# a commit interrupts (NLM_F_DUMP_INTR; the plans table spans several
# messages) or whose table a commit replaced after FABRIC_GET reads again.
# The commits here come back to back, faster than any daemon makes them:
# a read may then find the table replaced on each of its tries and say so
# ("try again", as documented); it must never fail any other way or print
# half a table.
stop_pids $d
rm -f "$WC_TMP/repush.done" "$WC_TMP/reads"
: >"$WC_TMP/reads"
(
	while [ ! -e "$WC_TMP/repush.done" ]; do
		if wormctl -j table show -v wc >"$WC_TMP/read.json" 2>"$WC_TMP/read.err1" &&
			jq -e '[.[] | select(.kind == "plans")][0].plans | length > 0' \
				"$WC_TMP/read.json" >/dev/null; then
			echo ok
		elif [ ! -s "$WC_TMP/read.json" ] &&
			grep -q "replaced during each of .* reads: try again" "$WC_TMP/read.err1"; then
			echo busy
		else
			echo fail
			cat "$WC_TMP/read.err1" >>"$WC_TMP/read.err"
		fi >>"$WC_TMP/reads"
	done
) &
reader=$!
# commit in rounds of 20 until the reader has read 20 tables (or 40 rounds)
rounds=0
while [ "$(grep -c '^ok' "$WC_TMP/reads")" -lt 20 ] && [ $rounds -lt 40 ]; do
	python3 "$here/tables.py" repush wc 20 plans >/dev/null || break
	rounds=$((rounds + 1))
done
pushed=$((rounds * 20))
touch "$WC_TMP/repush.done"
wait "$reader"
reads=$(grep -c '^ok' "$WC_TMP/reads")
busy=$(grep -c '^busy' "$WC_TMP/reads")
fails=$(grep -c '^fail' "$WC_TMP/reads")
diag "table show during $pushed re-commits of the plans table: $reads whole reads, $busy 'try again', $fails failed"
[ "$fails" = 0 ] || diag "$(sort "$WC_TMP/read.err" | uniq -c | head -n 5)"
if [ $rounds -gt 0 ] && [ "$reads" -ge 20 ]; then
	ok "the plans table re-committed $pushed times while table show read it whole 20 times"
else
	not_ok "the plans table re-committed $pushed times while table show read it whole 20 times ($reads reads)"
fi
is "table show during the re-commits: no read failed but by 'try again'" "$fails" 0

# ---- before the plan: dual-path, counted
mc_recv_start 4
wait_for 60 mc_all_ready 4 || not_ok "receivers joined"
is "ocms: without the daemon, no plan for the new group" "$(plan_dests)" "[]"
f0=$(counter $SRC plan_fallback)
check "ocms: send $N datagrams before the plan" send $N pre
wait_for 30 mc_members_have 4 $N
mc_check_got 4 "ocms before the plan" pre $N
f=$(($(counter $SRC plan_fallback) - f0))
if [ "$f" -ge $N ]; then
	ok "ocms: plan_fallback counted every datagram before the plan ($f)"
else
	not_ok "ocms: plan_fallback counted every datagram before the plan ($f)"
fi
is "ocms: ethtool -S shows plan_fallback" \
	"$(ip netns exec n$SRC ethtool -S wcn$SRC | awk '$1 == "plan_fallback:" { print $2 }')" \
	"$(counter $SRC plan_fallback)"
phase "fallback phase done"

# ---- with the plan: its worms, no fallback
bg "$WORMCASTD" -c "$WC_TMP/eager.conf"
d=$bg_pid
if wait_for 60 plan_is ocms "$(json_sorted $MEMBERS)"; then
	ok "ocms: wormcastd planned (SRC, group) for exactly the members"
else
	not_ok "ocms: wormcastd planned (SRC, group) for exactly the members" \
		"plan $(plan_dests); $(tail -n 3 "$WC_TMP/bg.log")"
fi
on_plan ocms plan1 $((2 * N))
phase "ocms plan phase done"

# ---- a node joins the group under traffic
g0=$(wormctl -j group show wc | jq '.[0].groups_gen')
send $M load 0.01 >"$WC_TMP/sender.log" 2>&1 &
sender=$!
check "ocms: node $EXTRA joins the group under traffic" \
	ip -n "n$EXTRA" maddr add $GRP dev "wcn$EXTRA"
wait "$sender"
is "ocms: the sender sent all $M datagrams" "$?" 0
g1=$(wormctl -j group show wc | jq '.[0].groups_gen')
check "ocms: membership generation moved ($g0 -> $g1)" [ "$g1" -gt "$g0" ]
is "ocms: group show lists node $EXTRA in the group" \
	"$(wormctl -j group show wc | jq -c ".[0].groups[] | select(.address == \"$GRP\") | .members")" \
	"$(json_sorted $MEMBERS $EXTRA)"
if wait_for 60 plan_is ocms "$(json_sorted $MEMBERS $EXTRA)"; then
	ok "ocms: re-planned with node $EXTRA"
else
	not_ok "ocms: re-planned with node $EXTRA" "plan $(plan_dests)"
fi
wait_for 60 mc_members_have 4 $((2 * N + M))
for id in $MEMBERS; do
	is "ocms under a membership change: member $id lost nothing, got nothing twice" \
		"$(grep "^load " "$WC_TMP/got4.$id" | sort -u | grep -c .)/$(grep -c "^load " "$WC_TMP/got4.$id")" "$M/$M"
done
phase "membership change done"

# ---- otms on the same fabric and receivers
check "fabric switched to otms" wormctl fabric set wc multicast otms
if wait_for 60 plan_is otms "$(json_sorted $MEMBERS $EXTRA)"; then
	ok "otms: wormcastd pushed the otms labels and planned (SRC, group)"
else
	not_ok "otms: wormcastd pushed the otms labels and planned (SRC, group)" \
		"labels $(labels_scheme), plan $(plan_dests)"
fi
on_plan otms plan2 $((3 * N + M))
phase "otms plan phase done"
grep "plans: fabric wc" "$WC_TMP/bg.log" | tail -n 4 | sed 's/^/# /'

# ---- lazy planning: only the sources the kernel reports
# plans_eager_max = 0: no source is planned until it sends.  Node LAZY
# (not a member) sends one datagram: dual-path, counted, and reported in
# the group (group show: unplanned); wormcastd plans (LAZY, group) and
# the report is gone once that plan is committed; then LAZY's datagrams
# go on the plan.
stop_pids $d
LAZY=$OTHERS
printf 'plans_eager_max = 0\n' >"$WC_TMP/lazy.conf"
bg "$WORMCASTD" -c "$WC_TMP/lazy.conf"
d=$bg_pid
if wait_for 60 grep -q "plans: fabric wc .* reported sources)" "$WC_TMP/bg.log"; then
	ok "lazy: wormcastd re-planned lazily"
else
	not_ok "lazy: wormcastd re-planned lazily" \
		"$(grep "plans: fabric wc" "$WC_TMP/bg.log" | tail -n 2)"
fi
SRC=$LAZY
is "lazy: no plan for (node $LAZY, group) yet" "$(plan_dests)" "[]"
f0=$(counter $SRC plan_fallback)
t0=$(date +%s%N)
check "lazy: node $LAZY sends one datagram" send 1 lazy1
unplanned() {
	wormctl -j group show wc |
		jq -c ".[0].groups[] | select(.address == \"$GRP\") | .unplanned"
}
if wait_for 60 plan_is otms "$(json_sorted $MEMBERS $EXTRA)"; then
	ok "lazy: wormcastd planned (node $LAZY, group) after its first datagram"
else
	not_ok "lazy: wormcastd planned (node $LAZY, group) after its first datagram" \
		"plan $(plan_dests), unplanned $(unplanned)"
fi
diag "lazy: first datagram to plan installed: $((($(date +%s%N) - t0) / 1000000)) ms (with the polling of this script)"
is "lazy: that datagram went by dual-path, counted" \
	$(($(counter $SRC plan_fallback) - f0)) 1
is "lazy: the report is cleared once the plan is committed" "$(unplanned)" "[]"
grep "plans: fabric wc .* reported sources)" "$WC_TMP/bg.log" | tail -n 1 | sed 's/^/# /'
on_plan lazy lazy2 $((4 * N + M + 1))
phase "lazy planning done"

mc_recv_stop
is "fabric drop counters all zero" "$(wc_drops wc)" 0
bg_stop
check "fabric deleted" wc_del wc
_fabrics=""

done_testing
