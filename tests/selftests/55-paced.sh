#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Paced mode: with cycle_ns set, a cycle takes at least that much wall
# time, so a ping between adjacent nodes cannot be faster than the cycles
# Eq. 1 gives it; switching back to virtual time at run time keeps the
# fabric working.  Only a lower bound on time is asserted (an upper one
# would flake on a loaded, emulated machine).
. "$(dirname "$0")/lib.sh"

CYCLE_NS=1000000	# 1 ms per cycle

if ! wc_add wc topology torus dims 4x4 cycle_ns $CYCLE_NS; then
	not_ok "create torus 4x4 with cycle_ns $CYCLE_NS"
	done_testing
	exit
fi
ok "create torus 4x4 with cycle_ns $CYCLE_NS"
is "cycle_ns shown by ip -d -j link show" "$(wc_field wc .cycle_ns)" "$CYCLE_NS"
for id in 0 1; do
	ns_new "n$id" && node_in_ns "wcn$id" "n$id" "$id" ||
		not_ok "node $id in namespace n$id"
done
# No ARP: each echo is exactly one worm each way.
static_neigh 0 1
static_neigh 1 0

# An echo request with 56 data bytes is a 98-byte frame: 4 data flits of
# 32 bytes, plus header and tail, L = 6.  Nodes 0 and 1 are one hop apart,
# so Eq. 1 gives 0 + 1 * (1 + 1) + (6 - 1) = 7 cycles each way.
min_ms=$((2 * 7 * CYCLE_NS / 1000000))
out=$(nsx n0 ping -c 3 -i 0.3 -W 5 "$(ip4_of 1)" 2>&1)
if echo "$out" | grep -q '3 packets transmitted, 3 received'; then
	ok "paced: ping node 0 -> node 1"
else
	not_ok "paced: ping node 0 -> node 1" "$out"
fi
rtt_min=$(echo "$out" | sed -n 's|.*= \([0-9.]*\)/.*|\1|p')
if [ -n "$rtt_min" ] && awk "BEGIN { exit !($rtt_min >= $min_ms) }"; then
	ok "paced: round trip $rtt_min ms >= $min_ms ms (2 x 7 cycles of 1 ms)"
else
	not_ok "paced: round trip at least $min_ms ms" "rtt min: '$rtt_min'" "$out"
fi

check "switch to virtual time at run time" wormctl fabric set wc cycle_ns 0
is "cycle_ns now 0" "$(wc_field wc .cycle_ns)" 0
out=$(nsx n0 ping -c 3 -i 0.2 -W 5 "$(ip4_of 1)" 2>&1)
if echo "$out" | grep -q '3 packets transmitted, 3 received'; then
	ok "virtual time: ping node 0 -> node 1"
else
	not_ok "virtual time: ping node 0 -> node 1" "$out"
fi
is "no drops on node 0" "$(drops wcn0 n0)" 0
is "no drops on node 1" "$(drops wcn1 n1)" 0
done_testing
