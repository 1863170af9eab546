#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Multicast under failing and recovering links and nodes (issue 10, item
# 5; Documentation/testing.rst, "Stress under faults"), on each fabric of
# WC_FAULT_STRESS_FABRICS in turn (default: a 4x4 torus under dstm-1, trees;
# a 4x4 mesh under dual-path, paths with intermediate reception; a 4x4
# mesh under multiphase, members sending on, with no table; and a 4x4
# mesh under ftmesh, routed around the blocks wormcastd recomputes), with
# wormcastd running: every node in its own namespace sends multicast and
# unicast for WC_FAULT_STRESS_SECONDS (default 20) while "wormctl fault
# random" fails and repairs links and nodes every few hundred milliseconds
# (seed WC_FAULT_STRESS_SEED, printed).  Then, with every fault repaired
# and the fabric quiet, exactly: sent x receivers = delivered +
# fault_drops, per source node and in total, no other drop counter moved,
# the engine absorbed branches (fault_absorbed > 0), every change was
# announced to "wormctl monitor", wormcastd still runs.
# At the end the module is removed and nothing is left.
. "$(dirname "$0")/lib.sh"

N=16
STRESS=$WC_ROOT/tests/selftests/stress.py
fabrics=${WC_FAULT_STRESS_FABRICS:-torus,dstm-1,mesh,dual-path,mesh,multiphase,mesh,ftmesh}
seconds=${WC_FAULT_STRESS_SECONDS:-20}
seed=${WC_FAULT_STRESS_SEED:-$(date +%s)}
mtbf=${WC_FAULT_STRESS_MTBF:-200}
mttr=${WC_FAULT_STRESS_MTTR:-300}
diag "fault seed $seed (WC_FAULT_STRESS_SEED=$seed repeats the fault" \
	"sequence), $seconds s per fabric, mtbf $mtbf ms, mttr $mttr ms"

module_loaded || insmod "${WC_MODULE:-$WC_ROOT/wormcast.ko}"
bg "${WC_BUILD:-$WC_ROOT/build}/wormcastd"
wcd_pid=$bg_pid
bg sh -c "exec wormctl monitor >$WC_TMP/mon"
i=0
while [ $i -lt $N ]; do
	echo "netns add n$i"
	_netns="$_netns n$i"
	i=$((i + 1))
done >"$WC_TMP/batch"
check "$N namespaces" ip -batch "$WC_TMP/batch"

# Conditions polled by wait_for, as functions rather than "sh -c" (under
# TCG every exec costs, and a poll takes CPU from what it waits for).
table_committed() {
	[ "$(wormctl -j fabric show wc | jq ".[0].table_gen // 0")" -ge 1 ]
}

# monitor_listening FID: a fault added and removed shows on the monitor.
monitor_listening() {
	wormctl fault add wc link 0 1 && wormctl fault del wc link 0 1 &&
		grep -q "^fault del fabric $1 wc link 0 1\$" "$WC_TMP/mon"
}

# pid_gone PID
pid_gone() {
	! kill -0 "$1" 2>/dev/null
}

# monitor_has SKIP COUNT: the monitor's output after its first SKIP lines
# has COUNT "fault " lines at least (read by the shell, no exec).
monitor_has() {
	_n=0 _skip=$1
	while IFS= read -r _line; do
		if [ "$_skip" -gt 0 ]; then
			_skip=$((_skip - 1))
			continue
		fi
		case $_line in
		"fault "*) _n=$((_n + 1)) ;;
		esac
	done <"$WC_TMP/mon"
	[ "$_n" -ge "$2" ]
}

# stress TOPOLOGY SCHEME: one fabric "wc", 4x4, under traffic and faults.
stress() {
	what="$1 4x4 ($2)"
	# ftmesh: its four subnetworks are VC classes; replication async with
	# buffers of a whole worm, so that it is deadlock-free (faults.rst)
	extra=""
	[ "$2" = ftmesh ] && extra="vcs 4 replication async buf_flits 64"
	if ! wc_add wc topology "$1" dims 4x4 $extra multicast "$2"; then
		not_ok "$what: create"
		return
	fi
	ok "$what: create"
	fid=$(wc_field wc .fabric)
	relays=""
	[ "$2" = multiphase ] && relays=--relays
	if [ "$2" = multiphase ] || [ "$2" = unicast ]; then
		is "$what: no table for the daemon to commit" \
			"$(wormctl -j fabric show wc | jq '.[0].table_gen // 0')" 0
	elif wait_for 60 table_committed; then
		ok "$what: wormcastd committed its table"
	else
		not_ok "$what: wormcastd committed its table" "$(tail -n 5 "$WC_TMP/bg.log")"
	fi
	i=0
	while [ $i -lt $N ]; do
		echo "link set wcn$i netns n$i"
		i=$((i + 1))
	done >"$WC_TMP/batch"
	check "$what: one node device in each namespace" ip -batch "$WC_TMP/batch"

	# "wormctl monitor" is listening once it shows a change of this
	# fabric; what it shows next is the fault process's.
	if wait_for 30 monitor_listening "$fid"; then
		ok "$what: wormctl monitor is listening"
	else
		not_ok "$what: wormctl monitor is listening" "$(cat "$WC_TMP/mon")"
	fi
	mon0=$(wc -l <"$WC_TMP/mon")

	# The fault process runs for the whole sending window, then repairs
	# what is still failed and prints its summary.
	bg sh -c "exec wormctl fault random wc --mtbf $mtbf --mttr $mttr \
		--seed $seed --duration $seconds --kind any >$WC_TMP/faults 2>&1"
	faults_pid=$bg_pid
	python3 "$STRESS" run --fabric-id "$fid" --nodes $N --members 2 \
		--seconds "$seconds" --raw --faults $relays >"$WC_TMP/stress.out" 2>&1
	rc=$?
	stress_results "$WC_TMP/stress.out" "$what"
	is "$what: stress.py finished" "$rc" 0
	# the scheme under test carried every frame, not the built-in one
	is "$what: table_fallback 0" "$(wc_stat wc table_fallback)" 0

	# It ends by itself after the window (it may have started a little
	# after the senders); then every fault is repaired.
	if wait_for 60 pid_gone "$faults_pid"; then
		ok "$what: wormctl fault random finished"
	else
		not_ok "$what: wormctl fault random finished" "$(tail -n 5 "$WC_TMP/faults")"
	fi
	wait "$faults_pid"
	is "$what:   its exit status" "$?" 0
	# (one awk for the four counts and the summary line)
	{
		read -r nadd ndel nnode nlink
		IFS= read -r summary
	} <<EOF
$(awk '/^[0-9.]* ms: add/ { a++ } /^[0-9.]* ms: del/ { d++ }
	/^[0-9.]* ms: add node/ { n++ } /^[0-9.]* ms: add link/ { l++ }
	{ last = $0 } END { print a + 0, d + 0, n + 0, l + 0; print last }' "$WC_TMP/faults")
EOF
	diag "$what: $summary: $nlink link and $nnode node failures"
	if [ "$nlink" -ge 1 ] && [ "$nnode" -ge 1 ] && [ "$nadd" = "$ndel" ]; then
		ok "$what: links and nodes failed and were all repaired ($nadd faults)"
	else
		not_ok "$what: links and nodes failed and were all repaired" \
			"$(cat "$WC_TMP/faults")"
	fi
	is "$what: fault show: none left" "$(wormctl -j fault show wc)" "[]"
	# every change announced once, in order ("add link 1 2", ...)
	sed -n 's/^[0-9.]* ms: //p' "$WC_TMP/faults" >"$WC_TMP/changes"
	wait_for 30 monitor_has "$mon0" $((nadd + ndel))
	is "$what: wormctl monitor saw the $((nadd + ndel)) changes, in order" \
		"$(tail -n +$((mon0 + 1)) "$WC_TMP/mon" |
			sed -n "s/^fault \([a-z]*\) fabric $fid wc /\1 /p")" \
		"$(cat "$WC_TMP/changes")"
	if kill -0 "$wcd_pid" 2>/dev/null; then
		ok "$what: wormcastd still running"
	else
		not_ok "$what: wormcastd still running" "$(tail -n 20 "$WC_TMP/bg.log")"
	fi
}

set -- $(echo "$fabrics" | tr , ' ')
while [ $# -ge 2 ]; do
	# the previous fabric goes, with its node devices
	[ -z "$_fabrics" ] || check "delete the previous fabric" wc_del wc
	_fabrics=""
	stress "$1" "$2"
	shift 2
done

# Nothing sends any more: unload the module with the last fabric and
# the daemon running.
check "rmmod wormcast" rmmod wormcast
if module_loaded; then
	not_ok "module gone from /proc/modules"
else
	ok "module gone from /proc/modules"
fi
is "no node device left in any namespace" \
	"$(for i in 0 5 15; do ip -n n$i -br link | grep -c wcn; done | tr '\n' ' ')" "0 0 0 "
check "namespaces still usable" ip -n n5 link add d0 type dummy
bg_stop

done_testing
