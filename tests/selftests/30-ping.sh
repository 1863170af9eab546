#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Ping between nodes of a 4x4 torus in different network namespaces, over
# IPv4 (ARP resolves through the fabric's broadcast) and IPv6 (neighbour
# discovery through the fabric's multicast filtering), with no other
# configuration.  Every echo request gets exactly one reply and the fabric
# drops nothing.
. "$(dirname "$0")/lib.sh"

NODES="0 5 10 15 3"

if ! wc_add wc topology torus dims 4x4; then
	not_ok "create torus 4x4"
	done_testing
	exit
fi
ok "create torus 4x4"
for id in $NODES; do
	ns_new "n$id" && node_in_ns "wcn$id" "n$id" "$id" ||
		not_ok "node $id in namespace n$id"
done

for pair in "0 5" "0 10" "5 15" "15 0" "10 3"; do
	set -- $pair
	out=$(nsx "n$1" ping -c 3 -i 0.2 -W 5 "$(ip4_of "$2")" 2>&1)
	if echo "$out" | grep -q '3 packets transmitted, 3 received'; then
		ok "ping IPv4 node $1 -> node $2"
	else
		not_ok "ping IPv4 node $1 -> node $2" "$out"
	fi
	out=$(nsx "n$1" ping -6 -c 3 -i 0.2 -W 5 "$(ip6_of "$2")" 2>&1)
	if echo "$out" | grep -q '3 packets transmitted, 3 received'; then
		ok "ping IPv6 node $1 -> node $2"
	else
		not_ok "ping IPv6 node $1 -> node $2" "$out"
	fi
done

# Link-local IPv6 works too (the kernel's own address).
# (ip -j prints an empty object for every address the filter leaves out)
ll=$(ip -n n10 -6 -j addr show dev wcn10 scope link |
	jq -r 'first(.[0].addr_info[] | select(.scope == "link") | .local)')
out=$(nsx n0 ping -6 -c 2 -i 0.2 -W 5 "$ll%wcn0" 2>&1)
if echo "$out" | grep -q '2 packets transmitted, 2 received'; then
	ok "ping IPv6 link-local node 0 -> node 10"
else
	not_ok "ping IPv6 link-local node 0 -> node 10" "address $ll" "$out"
fi

# A large ping crosses as one long worm.
out=$(nsx n0 ping -c 2 -i 0.2 -W 5 -s 1400 "$(ip4_of 10)" 2>&1)
if echo "$out" | grep -q '2 packets transmitted, 2 received'; then
	ok "ping IPv4 with 1400-byte payload"
else
	not_ok "ping IPv4 with 1400-byte payload" "$out"
fi

total=0
for id in $NODES; do
	total=$((total + $(drops "wcn$id" "n$id")))
done
is "no drops or errors on any node device" "$total" 0

done_testing
