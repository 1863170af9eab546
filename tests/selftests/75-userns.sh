#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Fabrics and user namespaces (Documentation/kernel.rst, "Fabrics in user
# namespaces"; Documentation/uapi.rst, "Who sees what"):
#  - an unprivileged user (nobody) creates a fabric inside unshare -Urn;
#  - the audit's namespace escape: node devices moved into a second
#    user-owned namespace that then dies must not come back to init_net;
#    the fabric dies with it, and nothing is left anywhere;
#  - max_userns_nodes caps the nodes of one user's fabrics, nested user
#    namespaces included; init_net is not capped by it;
#  - disclosure: a namespace holding one node device sees its own node's
#    name and counters only; a user namespace does not see root's fabric;
#  - writes need CAP_NET_ADMIN in the fabric's namespace;
#  - fabric memory is charged to the creator's memory cgroup.
. "$(dirname "$0")/lib.sh"

# nobody must reach the plugin and wormctl: copy them to a world-readable
# place (a CI clone under a 0700 directory is not).
bin=$WC_TMP/bin
mkdir -p "$bin"
cp "$IP_LIB_DIR/link_wormcast.so" "$(command -v wormctl)" "$bin/"
chmod 755 "$WC_TMP" "$bin"
export IP_LIB_DIR="$bin" PATH="$bin:$PATH"

# as_user SCRIPT: run sh -c SCRIPT as nobody in a new user and network
# namespace, where nobody is root.
as_user() {
	setpriv --reuid=65534 --regid=65534 --clear-groups \
		unshare -Urn sh -c "$1"
}

# Wait (up to 60 s: netns cleanup runs from a workqueue) until the initial
# namespace has $1 network devices.
wait_ndevs() {
	wait_for 60 sh -c "[ \$(ls /sys/class/net | wc -l) = $1 ]"
}

base_devs=$(ndevs)

if ! as_user true 2>/dev/null; then
	not_ok "unprivileged user namespaces work (kernel.unprivileged_userns_clone?)"
	done_testing
	exit
fi
ok "nobody can make a user and network namespace"

# --- 1. an unprivileged fabric
out=$(as_user 'ip link add wu type wormcast topology torus dims 4x4 &&
	ip -br link | grep -c "^wun"' 2>&1)
is "nobody creates a 4x4 torus in its namespace" "$out" 16
wait_ndevs "$base_devs"
is "gone with the namespace; nothing in init_net" "$(wc_count)" 0

# --- 2. the audit's escape: wun1 and wun2 moved into a second namespace of
# the same user, which then dies.  With netns_refund they came back to
# init_net; now the whole fabric goes.
out=$(as_user '
	ip link add wu type wormcast topology mesh dims 4 || exit 1
	unshare -n sleep 600 &
	child=$!
	i=0
	while [ "$(readlink /proc/$child/ns/net)" = "$(readlink /proc/self/ns/net)" ]; do
		i=$((i + 1)); [ $i -lt 600 ] || exit 2; sleep 0.1
	done
	ip link set wun1 netns $child && ip link set wun2 netns $child || exit 3
	echo "moved $(ip -br link | grep -c "^wun")"
	kill $child; wait $child 2>/dev/null
	i=0
	while ip link show wu >/dev/null 2>&1; do
		i=$((i + 1)); [ $i -lt 600 ] || break; sleep 0.1
	done
	ip link show wu >/dev/null 2>&1 && echo "fabric still there" || echo "fabric gone"
	echo "left $(ip -br link | grep -c "^wun")"
' 2>&1)
is "nodes moved to a second user-owned namespace, which dies" "$out" \
	"moved 2
fabric gone
left 0"
wait_ndevs "$base_devs"
is "no device refunded to init_net" "$(wc_count) $(ndevs)" "0 $base_devs"

# --- 3. max_userns_nodes
param=/sys/module/wormcast/parameters/max_userns_nodes
is "max_userns_nodes defaults to 1024" "$(cat $param)" 1024
echo 20 >$param
out=$(as_user 'ip link add ua type wormcast topology mesh dims 16 && echo first &&
	ip link add ub type wormcast topology mesh dims 8' 2>&1)
case "$out" in
first*max_userns_nodes*) ok "a second fabric over the cap is refused with a reason" ;;
*) not_ok "a second fabric over the cap is refused with a reason" "$out" ;;
esac
out=$(as_user 'ip link add ua type wormcast topology mesh dims 16 && echo first &&
	unshare -Urn ip link add ub type wormcast topology mesh dims 8' 2>&1)
case "$out" in
first*max_userns_nodes*) ok "a nested user namespace counts as the same user" ;;
*) not_ok "a nested user namespace counts as the same user" "$out" ;;
esac
out=$(as_user 'ip link add ua type wormcast topology mesh dims 12 &&
	ip link add ub type wormcast topology mesh dims 8 && echo both' 2>&1)
is "20 nodes in two fabrics fit" "$out" both
if wc_add wbig topology mesh dims 64; then
	ok "init_net is not capped by max_userns_nodes"
	wc_del wbig
else
	not_ok "init_net is not capped by max_userns_nodes"
fi
echo 1024 >$param
wait_ndevs "$base_devs"

# --- 4. who sees what
if wc_add wr topology torus dims 4x4; then
	ns_new x && node_in_ns wrn3 x 3
	# the owner's view: every node, names only for its own namespace
	show=$(wormctl -j fabric show wr)
	is "owner: fabric name, no netnsid" \
		"$(echo "$show" | jq -c '.[0] | [.ifname, .netnsid]')" '["wr",null]'
	is "owner: wrn3 by netnsid and ifindex, without its name" \
		"$(echo "$show" | jq -c '.[0].node_devices[3] | [.ifname, (.netnsid >= 0), (.ifindex > 0)]')" \
		'[null,true,true]'
	is "owner: its own nodes by name" \
		"$(echo "$show" | jq -r '.[0].node_devices[4].ifname')" wrn4
	stats=$(wormctl -j stats wr)
	is "owner: fabric counters and every node's counters" \
		"$(echo "$stats" | jq -c '.[0] | [has("counters"), has("engine"), ([.per_node[] | select(has("counters"))] | length)]')" \
		'[true,true,16]'

	# namespace x holds wrn3 only
	show=$(nsx x wormctl -j fabric show wrn3)
	is "x: fabric device by netnsid, not by name" \
		"$(echo "$show" | jq -c '.[0] | [.ifname, (.netnsid >= 0), (.node_devices | length)]')" \
		'[null,true,16]'
	is "x: only its own node has a name" \
		"$(echo "$show" | jq -c '[.[0].node_devices[] | select(.ifname) | .ifname]')" '["wrn3"]'
	stats=$(nsx x wormctl -j stats wrn3)
	is "x: no fabric counters, no engine, counters of node 3 only" \
		"$(echo "$stats" | jq -c '.[0] | [has("counters"), has("engine"), [.per_node[] | select(has("counters")) | .node]]')" \
		'[false,false,[3]]'
	refuse "x: the fabric device's name means nothing there" nsx x wormctl fabric show wr
	is "x: the dump lists no fabric" "$(nsx x wormctl -j fabric show | jq length)" 0
	# A user namespace sees nothing of root's fabric.
	out=$(as_user 'wormctl -j fabric show | jq length
		wormctl fabric show wr >/dev/null 2>&1 || echo refused' 2>&1)
	is "a user namespace sees no fabric of root's" "$out" "0
refused"

	# --- 5. a node handed to a user namespace: its own counters only,
	# and no write to the fabric.
	u=$WC_TMP/u
	mkdir -p "$u" && chmod 777 "$u"
	bg setpriv --reuid=65534 --regid=65534 --clear-groups unshare -Urn sh -c "
		echo \$\$ >$u/pid.tmp && mv $u/pid.tmp $u/pid
		while [ ! -e $u/go ]; do sleep 0.1; done
		wormctl -j stats wrn7 >$u/stats 2>&1
		wormctl fabric set wrn7 cycle_ns 100 >$u/set 2>&1
		echo \$? >>$u/set
		ip link add wown type wormcast topology mesh dims 2 &&
			wormctl fabric set wown cycle_ns 100 >$u/own 2>&1 &&
			wormctl -j fabric show wown >>$u/own 2>&1
		touch $u/done
		while [ ! -e $u/exit ]; do sleep 0.1; done"
	upid=$bg_pid
	if wait_for 60 test -s "$u/pid"; then
		check "root hands wrn7 to the user namespace" \
			ip link set wrn7 netns "$(cat "$u/pid")"
		touch "$u/go"
		wait_for 60 test -e "$u/done"
		is "user: counters of node 7 only" \
			"$(jq -c '.[0] | [has("counters"), [.per_node[] | select(has("counters")) | .node]]' "$u/stats")" \
			'[false,[7]]'
		grep -q "CAP_NET_ADMIN in the fabric" "$u/set" &&
			[ "$(tail -n 1 "$u/set")" != 0 ] &&
			ok "user: FABRIC_SET refused (needs CAP_NET_ADMIN in the fabric's netns)" ||
			not_ok "user: FABRIC_SET refused (needs CAP_NET_ADMIN in the fabric's netns)" \
				"$(cat "$u/set")"
		is "cycle_ns unchanged" \
			"$(wormctl -j fabric show wr | jq '.[0].params.cycle_ns')" 0
		is "user: FABRIC_SET on its own fabric works" \
			"$(jq '.[0].params.cycle_ns' "$u/own")" 100
		touch "$u/exit"
		if wait_for 60 sh -c '! ip link show wr'; then
			ok "the fabric goes when the user namespace holding wrn7 ends"
		else
			not_ok "the fabric goes when the user namespace holding wrn7 ends"
		fi
	else
		not_ok "user namespace for wrn7 started"
	fi
	kill "$upid" 2>/dev/null
	wc_del wr 2>/dev/null
	ns_del x
else
	not_ok "create torus 4x4 wr"
fi
wait_ndevs "$base_devs"

# --- 6. memory is charged to the creator's memory cgroup.  Two fabrics of
# the same size, one with 16 VCs of 64-flit buffers: the difference of
# their charges must cover the difference of their engine memory (about
# 3.5 MiB), so the engine is charged, not only the net devices (which the
# core charges).  Tolerance: memcg charges in per-CPU batches of 64 pages,
# so each reading of memory.current may be off by up to 256 KiB per CPU;
# 1 MiB covers two readings on two CPUs.  Without the engine's charge the
# difference would be about 0.
cg=/sys/fs/cgroup
grep -q " $cg cgroup2 " /proc/mounts || mount -t cgroup2 none $cg

# charge NAME ARGS...: bytes charged to $cg/wctest for "ip link add NAME
# type wormcast ARGS" run inside it.
charge() {
	_before=$(cat $cg/wctest/memory.current)
	_n=$1
	shift
	sh -c "echo \$\$ >$cg/wctest/cgroup.procs && exec ip link add $_n type wormcast $*" || return 1
	echo $(($(cat $cg/wctest/memory.current) - _before))
}

if echo +memory >$cg/cgroup.subtree_control 2>/dev/null && mkdir -p $cg/wctest; then
	# warm up: the first ip run in the cgroup charges page cache
	sh -c "echo \$\$ >$cg/wctest/cgroup.procs && exec ip link show lo" >/dev/null
	base=$(cat $cg/wctest/memory.current)
	small=$(charge wm1 topology torus dims 12x12)
	big=$(charge wm2 topology torus dims 12x12 vcs 16 buf_flits 64)
	m1=$(wc_stat wm1 mem_bytes)
	m2=$(wc_stat wm2 mem_bytes)
	diag "charged: $small and $big bytes; engine and glue: $m1 and $m2 bytes"
	if [ -n "$small" ] && [ -n "$big" ] && [ $((m2 - m1)) -gt 3000000 ] &&
		[ $((big - small)) -ge $((m2 - m1 - 1048576)) ]; then
		ok "the fabric's engine memory is charged to the creator's cgroup"
	else
		not_ok "the fabric's engine memory is charged to the creator's cgroup"
	fi
	ip link del wm1
	ip link del wm2
	if wait_for 60 sh -c "[ \$(cat $cg/wctest/memory.current) -lt $((base + m2 / 4)) ]"; then
		ok "uncharged when the fabrics are deleted"
	else
		not_ok "uncharged when the fabrics are deleted" \
			"memory.current $(cat $cg/wctest/memory.current), was $base"
	fi
	rmdir $cg/wctest
else
	not_ok "memory cgroup available"
fi

done_testing
