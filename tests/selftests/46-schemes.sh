#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Multicast schemes end to end (Documentation/multicast.rst): for each of
# unicast, spam, dstm-1, dstm-2 and rt, an 8x8 torus created with
# "multicast SCHEME", wormcastd computing and committing the scheme's
# table, then UDP over IPv4 and IPv6 multicast from node 0 to members in
# their own namespaces: every member gets every datagram once, non-members
# none, and the sender's counters show one worm per frame under a tree
# scheme (one per member under unicast) and no frame routed by the fallback.
# Then multiphase on a 4x4 mesh: members relay (worms injected per node as
# the recursive halving says), and a lost relay is counted with its range.
# Then, on dstm-1 under sustained multicast: the table re-committed 100
# times, the scheme changed to dstm-2, rt and back, wormcastd killed with
# SIGKILL and restarted: still every datagram exactly once, nothing
# dropped.  The fabric is deleted with its table installed.
. "$(dirname "$0")/lib.sh"

here=$(dirname "$0")
WORMCASTD=${WC_BUILD:-$WC_ROOT/build}/wormcastd
N=30
SRC=0
MEMBERS="7 9 27 36 54 63"
OTHERS="1 45"
PORT4=5000
PORT6=5001

[ -x "$WORMCASTD" ] || { not_ok "wormcastd built ($WORMCASTD)"; done_testing; exit; }

for id in $SRC $MEMBERS $OTHERS; do
	ns_new "n$id" || not_ok "namespace n$id"
done

daemon_start() {
	bg "$WORMCASTD"
	daemon_pid=$bg_pid
}

# The committed table's scheme, or "none".
table_scheme() {
	wormctl -j table show wc 2>/dev/null | jq -r '.[0].scheme // "none"'
}

# counters NODE NAME...: some of the node's counters, on one line
counters() {
	wc_node_counters wc "$@"
}

fabric_up() {
	wc_add wc topology torus dims 8x8 multicast "$1" || return 1
	# shellcheck disable=SC2086
	nodes_in_ns $SRC $MEMBERS $OTHERS
}

daemon_start
# WC_SCHEMES: the schemes of the first part, comma-separated (the debug
# kernel's run takes three, see tests/vm/selftests-debug.sh)
for scheme in $(echo "${WC_SCHEMES:-unicast,spam,dstm-1,dstm-2,rt}" | tr , ' '); do
	if ! fabric_up $scheme; then
		not_ok "$scheme: 8x8 torus with its nodes in namespaces"
		continue
	fi
	ok "$scheme: 8x8 torus with its nodes in namespaces"
	if [ $scheme != unicast ]; then
		if wait_for 60 wc_table_committed wc $scheme; then
			ok "$scheme: wormcastd committed the table ($(wormctl table show wc | head -n 1))"
		else
			not_ok "$scheme: wormcastd committed the table" "$(tail -n 5 "$WC_TMP/bg.log")"
		fi
	fi
	for fam in 4 6; do
		[ $fam = 4 ] && group=239.1.2.3 port=$PORT4 || group=ff0e::1:2:3 port=$PORT6
		mc_recv_start $fam
		wait_for 30 mc_all_ready $fam || not_ok "$scheme IPv$fam: receivers joined"
		read -r tx0 nr0 w0 f0 <<-EOF
		$(counters $SRC tx_frames tx_no_receiver worms_injected table_fallback)
		EOF
		check "$scheme IPv$fam: send $N datagrams to $group" \
			"$UDP" send --netns "n$SRC" --dst "$group" --port "$port" \
			--ifname "wcn$SRC" --count $N --tag "$scheme$fam" --size 300
		wait_for 30 mc_members_have $fam $N
		mc_check_got $fam "$scheme IPv$fam" "$scheme$fam" $N
		read -r tx nr w f <<-EOF
		$(counters $SRC tx_frames tx_no_receiver worms_injected table_fallback)
		EOF
		# frames with a receiver (not, say, an MLD report of the sender)
		tx=$((tx - tx0 - (nr - nr0))) w=$((w - w0))
		if [ $scheme = unicast ]; then
			ok_if=$([ "$w" -ge $((N * 6)) ] && echo y)
			what="one worm per member ($w worms for $tx frames)"
		else
			ok_if=$([ "$w" = "$tx" ] && echo y)
			what="one worm per frame ($w worms for $tx frames)"
		fi
		[ "$ok_if" = y ] && ok "$scheme IPv$fam: $what" ||
			not_ok "$scheme IPv$fam: $what"
		is "$scheme IPv$fam: no frame routed by the fallback" \
			$((f - f0)) 0
		mc_recv_stop
	done
	is "$scheme: fabric drop counters all zero" "$(wc_drops wc)" 0
	check "$scheme: fabric deleted with its table installed" wc_del wc
	_fabrics=""
done

# ---- multiphase: receivers send on (Documentation/multicast.rst,
# "Multi-phase unicast").  A 4x4 mesh, node 5 sending to 8 members: every
# member gets every datagram once, the fabric injects K = 8 worms per
# datagram, and each node of the chain injects as many as the recursive
# halving gives it (computed here from the documented rule), so members
# relay: first with no table (the chain in node id order), then with the
# labels table wormcastd committed for dual-path (the chain in snake
# order: node 12 relays instead of node 15).  With link 6-10 failed, node
# 6's relay to node 10 is absorbed and the whole range node 10 would have
# served is counted at the source: delivered + fault_drops = sent x
# members, exactly, more than one member lost per datagram.

# mp_want SRC "LABEL..." MEMBER...: NODE:SENDS of every node that sends,
# by node id, for the chain sorted by the labels (node id if none).
mp_want() {
	python3 - "$@" <<'PY'
import sys
src, labels = int(sys.argv[1]), [int(v) for v in sys.argv[2].split()]
chain = sorted((int(v) for v in [sys.argv[1]] + sys.argv[3:]),
               key=lambda v: labels[v] if labels else v)
sends = dict.fromkeys(chain, 0)
todo = [(chain.index(src), 0, len(chain))]
while todo:
    h, lo, hi = todo.pop()
    while hi - lo > 1:              # hand the far half on, keep the own
        mid = lo + (hi - lo) // 2
        sends[chain[h]] += 1
        if h < mid:
            todo.append((mid, mid, hi))
            hi = mid
        else:
            todo.append((mid - 1, lo, mid))
            lo = mid
print(" ".join("%d:%d" % (v, sends[v]) for v in sorted(chain) if sends[v]))
PY
}

# worms_injected of every node of the fabric, NODE:COUNT per line
mp_inj() {
	wormctl -j stats wc |
		jq -r '.[0].per_node[] | "\(.node):\(.counters.worms_injected)"'
}

# mp_have TAG: every member got N datagrams tagged TAG (the receivers run
# through the whole section, each file collects every phase's tags)
mp_have() {
	for _id in $MEMBERS; do
		[ "$(grep -c "^$1 " "$WC_TMP/got4.$_id" 2>/dev/null)" -ge "$N" ] || return 1
	done
}

# mp_send WHAT TAG "LABEL...": N datagrams, each member gets each once and
# non-members none, the worms injected per node and in all as the split
# says, no drop.
mp_send() {
	mp_inj >"$WC_TMP/inj0"
	check "$1: send $N datagrams to 239.1.2.3" \
		"$UDP" send --netns "n$MP_SRC" --dst 239.1.2.3 --port $PORT4 \
		--ifname "wcn$MP_SRC" --count $N --tag "$2" --size 300
	wait_for 30 mp_have "$2"
	want=$(seq 1 $N | sed "s/^/$2 /" | sort)
	bad=""
	for id in $MEMBERS; do
		[ "$(grep "^$2 " "$WC_TMP/got4.$id" | sort)" = "$want" ] || bad="$bad $id"
	done
	is "$1: every member received each datagram exactly once (members not: $bad)" \
		"$bad" ""
	for id in $OTHERS; do
		is "$1: non-member node $id received nothing" \
			"$(grep -c . "$WC_TMP/got4.$id" 2>/dev/null)" 0
	done
	mp_inj >"$WC_TMP/inj1"
	got=$(paste -d: "$WC_TMP/inj0" "$WC_TMP/inj1" |
		awk -F: -v n=$N '{ d = $4 - $2; if (d) print $1 ":" d / n }' |
		sort -n | tr '\n' ' ' | sed 's/ $//')
	is "$1: worms injected per datagram by node ($got)" \
		"$got" "$(mp_want $MP_SRC "$3" $MEMBERS)"
	total=$(paste -d: "$WC_TMP/inj0" "$WC_TMP/inj1" |
		awk -F: '{ t += $4 - $2 } END { print t }')
	is "$1: $K worms per datagram over the fabric ($total for $N)" \
		"$total" $((K * N))
	is "$1: fabric drop counters all zero" "$(wc_drops wc)" 0
}

mp_run() {
	MP_SRC=5
	MEMBERS="0 2 3 6 9 10 12 15"
	OTHERS="1 14"
	K=8
	wc_add wc topology mesh dims 4x4 multicast multiphase &&
		nodes_in_ns $MP_SRC $MEMBERS $OTHERS || return 1
	ok "multiphase: 4x4 mesh with its nodes in namespaces"
	if ip -d link show wc | grep -q "multicast multiphase" &&
		wormctl fabric show wc | grep -q "multicast multiphase"; then
		ok "multiphase: ip -d and wormctl fabric show name the scheme"
	else
		not_ok "multiphase: ip -d and wormctl fabric show name the scheme" \
			"$(ip -d link show wc | tail -n 3)"
	fi
	is "multiphase: wormcastd commits no table" "$(table_scheme)" none
	mc_recv_start 4
	wait_for 30 mc_all_ready 4 || not_ok "multiphase: receivers joined"
	mp_send "multiphase by node id" mp ""

	# a lost relay loses its range, counted at the source
	check "multiphase: link 6-10 failed" wormctl fault add wc link 6 10
	fd0=$(counters $MP_SRC fault_drops)
	check "multiphase: send $N datagrams with link 6-10 down" \
		"$UDP" send --netns "n$MP_SRC" --dst 239.1.2.3 --port $PORT4 \
		--ifname "wcn$MP_SRC" --count $N --tag mpf --size 300
	mp_accounted() {
		d=0
		for id in $MEMBERS; do
			d=$((d + $(grep -c "^mpf " "$WC_TMP/got4.$id" 2>/dev/null)))
		done
		echo "$d $(($(counters $MP_SRC fault_drops) - fd0))"
	}
	mp_balanced() {
		set -- $(mp_accounted)
		[ $(($1 + $2)) -ge $((K * N)) ]
	}
	wait_for 30 mp_balanced
	set -- $(mp_accounted)
	is "multiphase: delivered ($1) + fault_drops ($2) = sent x members" \
		$(($1 + $2)) $((K * N))
	check "multiphase: more than one member lost per datagram (a range: $2 for $N), others served ($1)" \
		test "$2" -gt "$N" -a "$1" -gt 0
	is "multiphase: no other drop counter moved" "$(wc_drops wc)" 0
	check "multiphase: link 6-10 repaired" wormctl fault del wc link 6 10

	# the chain by the labels of a committed LABELS table
	check "multiphase: scheme set to dual-path" wormctl fabric set wc multicast dual-path
	if wait_for 60 wc_table_committed wc dual-path; then
		ok "multiphase: wormcastd committed the labels table"
	else
		not_ok "multiphase: wormcastd committed the labels table" "$(tail -n 5 "$WC_TMP/bg.log")"
	fi
	check "multiphase: scheme set back to multiphase" wormctl fabric set wc multicast multiphase
	labels=$(wormctl -j table show -v wc |
		jq -r '[.[] | select(.kind == "labels")][0].label | map(tostring) | join(" ")')
	if [ "$(mp_want $MP_SRC "$labels" $MEMBERS)" != "$(mp_want $MP_SRC "" $MEMBERS)" ]; then
		ok "multiphase: by these labels other nodes relay than by node id"
	else
		not_ok "multiphase: by these labels other nodes relay than by node id" "labels $labels"
	fi
	mp_send "multiphase by label" mpl "$labels"
	mc_recv_stop
	check "multiphase: fabric deleted" wc_del wc
	_fabrics=""
}
mp_t0=$(date +%s)
mp_run || not_ok "multiphase: 4x4 mesh with its nodes in namespaces"
diag "multiphase section: $(($(date +%s) - mp_t0)) s"
SRC=0
MEMBERS="7 9 27 36 54 63"
OTHERS="1 45"

# ---- under sustained multicast: re-commits, scheme changes, daemon kills
if fabric_up dstm-1 && wait_for 60 wc_table_committed wc dstm-1; then
	ok "dstm-1 fabric with its table for the traffic phase"
else
	not_ok "dstm-1 fabric with its table for the traffic phase"
fi
M=1500
mc_recv_start 4
wait_for 30 mc_all_ready 4 || not_ok "receivers joined"
"$UDP" send --netns "n$SRC" --dst 239.1.2.3 --port $PORT4 --ifname "wcn$SRC" \
	--count $M --tag load --size 300 --interval 0.003 >"$WC_TMP/sender.log" 2>&1 &
sender=$!
check "table re-committed 100 times under traffic" \
	python3 "$here/tables.py" repush wc 100
for s in dstm-2 rt dstm-1; do
	check "scheme changed to $s under traffic" wormctl fabric set wc multicast $s
	if wait_for 60 wc_table_committed wc $s; then
		ok "wormcastd followed with a $s table"
	else
		not_ok "wormcastd followed with a $s table"
	fi
done
kill -9 "$daemon_pid"
wait "$daemon_pid" 2>/dev/null
_pids=$(echo "$_pids" | sed "s/ $daemon_pid\b//")
check "scheme changed to spam while wormcastd is dead" wormctl fabric set wc multicast spam
daemon_start
if wait_for 60 wc_table_committed wc spam; then
	ok "a restarted wormcastd resynchronised (spam table)"
else
	not_ok "a restarted wormcastd resynchronised (spam table)"
fi
wait "$sender"
is "sender sent all $M datagrams" "$?" 0
wait_for 60 mc_members_have 4 $M
mc_check_got 4 "under re-commits and scheme changes" load $M
is "fabric drop counters all zero after the traffic phase" "$(wc_drops wc)" 0
check "fabric deleted with its table installed" wc_del wc
_fabrics=""
bg_stop

# ---- SIGHUP: the configuration reloaded; a bad file changes nothing
CONF=$WC_TMP/wormcastd.conf
table_gen() {
	wormctl -j table show wcr 2>/dev/null | jq -r '.[0].gen // 0'
}
# log_has TEXT: the daemon's log has a line with TEXT
log_has() {
	grep -qF -- "$1" "$WC_TMP/bg.log"
}
printf 'poll_interval = 0\nrt_pair = average\ntrials = 3\n' >"$CONF"
bg "$WORMCASTD" -c "$CONF"
daemon_pid=$bg_pid
if wc_add wcr topology torus dims 4x4 multicast rt &&
	wait_for 60 log_has "push: fabric wcr scheme rt"; then
	is "rt table pushed with the file's options (average, 3 trials)" \
		"$(grep "push: fabric wcr" "$WC_TMP/bg.log" | grep -o '(rt [a-z]*: trial [0-9]* of [0-9]*' | sed 's/trial [0-9]* //')" \
		"(rt average: of 3"
else
	not_ok "rt table pushed with the file's options" "$(tail -n 5 "$WC_TMP/bg.log")"
fi
gen1=$(table_gen)
printf 'poll_interval = 0\nrt_pair = best\ntrials = 3\n' >"$CONF"
kill -HUP "$daemon_pid"
if wait_for 60 log_has "(rt best: trial"; then
	ok "SIGHUP: rt_pair changed to best, the rt table computed and pushed again"
else
	not_ok "SIGHUP: rt_pair changed to best, the rt table pushed again" "$(tail -n 5 "$WC_TMP/bg.log")"
fi
gen2=$(table_gen)
check "SIGHUP: the table's generation moved ($gen1 -> $gen2)" [ "$gen2" -gt "$gen1" ]
printf 'poll_interval = 0\nrt_pair = bogus\n' >"$CONF"
kill -HUP "$daemon_pid"
if wait_for 60 log_has "keeping the previous configuration"; then
	ok "SIGHUP with a bad file: refused ($(grep -F 'keeping the previous' "$WC_TMP/bg.log" | tail -n 1 | cut -c1-120))"
else
	not_ok "SIGHUP with a bad file: refused" "$(tail -n 5 "$WC_TMP/bg.log")"
fi
check "SIGHUP with a bad file: wormcastd still runs" kill -0 "$daemon_pid"
# the same options again: nothing to push.  The daemon logs "every fabric
# synced" once the reload's sync is done.
pushes=$(grep -c "push: fabric wcr" "$WC_TMP/bg.log")
printf 'poll_interval = 0\nrt_pair = best\ntrials = 3\n' >"$CONF"
kill -HUP "$daemon_pid"
if wait_for 60 sh -c "[ \$(grep -c 'reload: every fabric synced' '$WC_TMP/bg.log') -ge 2 ]"; then
	ok "SIGHUP with unchanged options: reloaded and synced"
else
	not_ok "SIGHUP with unchanged options: reloaded and synced" "$(tail -n 5 "$WC_TMP/bg.log")"
fi
is "SIGHUP with unchanged options: nothing pushed" "$(grep -c "push: fabric wcr" "$WC_TMP/bg.log")" "$pushes"
is "SIGHUP with unchanged options: the table stays (generation)" "$(table_gen)" "$gen2"
check "rt fabric deleted" wc_del wcr
_fabrics=""
bg_stop

done_testing
