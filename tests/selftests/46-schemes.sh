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

# counter NODE NAME: one of the node's counters (wormctl stats -j).
counter() {
	wormctl -j stats wc | jq ".[0].per_node[] | select(.node == $1) | .counters.$2"
}

fabric_up() {
	wc_add wc topology torus dims 8x8 multicast "$1" || return 1
	for id in $SRC $MEMBERS $OTHERS; do
		node_in_ns "wcn$id" "n$id" "$id" || return 1
	done
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
		if wait_for 60 sh -c "[ \"\$(wormctl -j table show wc 2>/dev/null | jq -r '.[0].scheme // \"none\"')\" = $scheme ]"; then
			ok "$scheme: wormcastd committed the table ($(wormctl -j table show wc | jq -c '.[0] | {gen, size, ntrees, roots}'))"
		else
			not_ok "$scheme: wormcastd committed the table" "$(tail -n 5 "$WC_TMP/bg.log")"
		fi
	fi
	for fam in 4 6; do
		[ $fam = 4 ] && group=239.1.2.3 port=$PORT4 || group=ff0e::1:2:3 port=$PORT6
		mc_recv_start $fam
		wait_for 30 mc_all_ready $fam || not_ok "$scheme IPv$fam: receivers joined"
		tx0=$(counter $SRC tx_frames) w0=$(counter $SRC worms_injected)
		f0=$(counter $SRC table_fallback)
		check "$scheme IPv$fam: send $N datagrams to $group" \
			nsx "n$SRC" python3 "$UDP" send --dst "$group" --port "$port" \
			--ifname "wcn$SRC" --count $N --tag "$scheme$fam" --size 300
		wait_for 30 mc_members_have $fam $N
		mc_check_got $fam "$scheme IPv$fam" "$scheme$fam" $N
		tx=$(($(counter $SRC tx_frames) - tx0))
		w=$(($(counter $SRC worms_injected) - w0))
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
			$(($(counter $SRC table_fallback) - f0)) 0
		mc_recv_stop
	done
	is "$scheme: fabric drop counters all zero" "$(wc_drops wc)" 0
	check "$scheme: fabric deleted with its table installed" wc_del wc
	_fabrics=""
done

# ---- under sustained multicast: re-commits, scheme changes, daemon kills
if fabric_up dstm-1 && wait_for 60 sh -c "[ \"\$(wormctl -j table show wc 2>/dev/null | jq -r '.[0].scheme')\" = dstm-1 ]"; then
	ok "dstm-1 fabric with its table for the traffic phase"
else
	not_ok "dstm-1 fabric with its table for the traffic phase"
fi
M=1500
mc_recv_start 4
wait_for 30 mc_all_ready 4 || not_ok "receivers joined"
nsx "n$SRC" python3 "$UDP" send --dst 239.1.2.3 --port $PORT4 --ifname "wcn$SRC" \
	--count $M --tag load --size 300 --interval 0.003 >"$WC_TMP/sender.log" 2>&1 &
sender=$!
check "table re-committed 100 times under traffic" \
	python3 "$here/tables.py" repush wc 100
for s in dstm-2 rt dstm-1; do
	check "scheme changed to $s under traffic" wormctl fabric set wc multicast $s
	if wait_for 60 sh -c "[ \"\$(wormctl -j table show wc 2>/dev/null | jq -r '.[0].scheme')\" = $s ]"; then
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
if wait_for 60 sh -c "[ \"\$(wormctl -j table show wc 2>/dev/null | jq -r '.[0].scheme')\" = spam ]"; then
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
