#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Fabric and namespace lifecycles:
#  - deleting a fabric whose node devices sit in several namespaces removes
#    every one of them, and the namespaces stay usable;
#  - deleting a namespace that holds a node device deletes the whole
#    fabric (nothing is refunded to the initial namespace), also under
#    traffic;
#  - deleting a node device deletes its whole fabric;
#  - a fabric created inside a namespace dies with that namespace, node
#    devices in other namespaces included.
# The kernel log check of the harness catches any splat or refcount leak.
. "$(dirname "$0")/lib.sh"

# Number of wormcast devices in namespace $1.
count_in() {
	wc_json "$1" | jq length
}

# --- delete a fabric spread over namespaces
if wc_add wc topology torus dims 4x4; then
	ok "create torus 4x4"
	ns_new a && ns_new b && ns_new c
	node_in_ns wcn1 a 1 && node_in_ns wcn2 a 2 && node_in_ns wcn5 b 5 &&
		node_in_ns wcn6 c 6
	is "node devices spread: a, b, c, init" \
		"$(count_in a) $(count_in b) $(count_in c) $(wc_count)" "2 1 1 13"
	out=$(nsx a ping -c 2 -i 0.2 -W 5 "$(ip4_of 6)" 2>&1)
	echo "$out" | grep -q '2 received' && ok "traffic across namespaces" ||
		not_ok "traffic across namespaces" "$out"
	# Keep traffic flowing while the fabric goes away.
	bg "$UDP" send --netns a --dst "$(ip4_of 5)" --port 9 --loop
	sleep 1
	check "delete the fabric from the initial namespace" wc_del wc
	is "no wormcast device left anywhere" \
		"$(count_in a) $(count_in b) $(count_in c) $(wc_count)" "0 0 0 0"
	check "namespace a still usable" ip -n a link add d0 type dummy
	ip -n a link del d0 2>/dev/null
	ns_del a && ns_del b && ns_del c
else
	not_ok "create torus 4x4"
fi

# --- a namespace that dies holding a node device takes the whole fabric
# with it (as a veth pair goes with either end's namespace): nothing comes
# back to the initial namespace, which would let a user namespace leak
# devices into it (tests/selftests/75-userns.sh).
if wc_add wc topology mesh dims 4; then
	ok "create mesh 4"
	ns_new d && node_in_ns wcn3 d 3
	is "wcn3 in namespace d" "$(count_in d) $(wc_count)" "1 4"
	check "delete namespace d" ns_del d
	if wait_for 60 sh -c '[ ! -e /sys/class/net/wc ]'; then
		ok "the fabric went with namespace d"
	else
		not_ok "the fabric went with namespace d" "$(ip -br link)"
	fi
	is "no wormcast device left, wcn3 not refunded" "$(wc_count)" 0
else
	not_ok "create mesh 4"
fi

# ... also under traffic, with nodes in other namespaces too.
if wc_add wc topology mesh dims 4; then
	ns_new e && ns_new f && node_in_ns wcn3 e 3 && node_in_ns wcn0 f 0
	out=$(nsx f ping -c 2 -i 0.2 -W 5 "$(ip4_of 3)" 2>&1)
	echo "$out" | grep -q '2 received' && ok "node 0 reaches node 3" ||
		not_ok "node 0 reaches node 3" "$out"
	bg "$UDP" send --netns f --dst "$(ip4_of 3)" --port 9 --loop
	sleep 1
	check "delete namespace e under traffic" ns_del e
	if wait_for 60 sh -c '[ ! -e /sys/class/net/wc ]'; then
		ok "the fabric went with namespace e"
	else
		not_ok "the fabric went with namespace e" "$(ip -br link)"
	fi
	kill "$bg_pid" 2>/dev/null
	is "no wormcast device in f or the initial namespace" \
		"$(wc_count) $(count_in f)" "0 0"
	check "namespace f still usable" ip -n f link add d0 type dummy
	ns_del f
else
	not_ok "create mesh 4 (under traffic)"
fi

# --- deleting one node device deletes the whole fabric
if wc_add wc topology hypercube dim 3; then
	check "delete node device wcn5" ip link del wcn5
	is "the whole fabric is gone" "$(wc_count)" 0
else
	not_ok "create hypercube dim 3"
fi

# --- a fabric created inside a namespace (Documentation/kernel.rst): the
# fabric device is NETNS_LOCAL, so when its namespace dies it is deleted, and
# its dellink takes the whole fabric, node devices elsewhere included.
ns_new g
if ip -n g link add wg type wormcast topology star n 3; then
	ok "create star 3 inside namespace g"
	is "devices in g, none outside" "$(count_in g) $(wc_count)" "7 0"
	refuse "the fabric device cannot leave its namespace" ip -n g link set wg netns 1
	check "a node device can leave for the initial namespace" ip -n g link set wgn0 netns 1
	is "wgn0 in the initial namespace" "$(wc_count)" 1
	check "delete namespace g (holding the fabric device)" ns_del g
	if wait_for 10 sh -c '[ "$(ip -d -j link show | jq "[.[] | select(.linkinfo.info_kind == \"wormcast\")] | length")" = 0 ]'; then
		ok "the whole fabric went with its namespace, wgn0 included"
	else
		not_ok "the whole fabric went with its namespace, wgn0 included" "$(ip -br link)"
	fi
else
	not_ok "create star 3 inside namespace g"
fi

done_testing
