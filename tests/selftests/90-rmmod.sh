#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# rmmod wormcast with fabrics present, node devices in several namespaces,
# a routing table installed (the torus runs dstm-1 on wormcastd's table)
# and traffic flowing (unicast and multicast sender loops): the module
# unloads, every device goes, the namespaces stay usable, and the module
# loads again.  The harness then checks the kernel log for splats.
. "$(dirname "$0")/lib.sh"

module=${WC_MODULE:-$WC_ROOT/wormcast.ko}

module_loaded || insmod "$module"
if wc_add wc topology torus dims 4x4 multicast dstm-1 &&
	wc_add wh topology hypercube dim 3; then
	ok "create torus 4x4 (dstm-1) and hypercube dim 3"
else
	not_ok "create torus 4x4 (dstm-1) and hypercube dim 3"
fi
bg "${WC_BUILD:-$WC_ROOT/build}/wormcastd"
if wait_for 60 sh -c '[ "$(wormctl -j fabric show wc | jq ".[0].table_gen // 0")" -ge 1 ]'; then
	ok "wormcastd committed the torus's table"
else
	not_ok "wormcastd committed the torus's table"
fi
for id in 0 5 10; do
	ns_new "n$id" && node_in_ns "wcn$id" "n$id" "$id"
done
ns_new h && node_in_ns whn7 h 7

# Receivers joined, so that multicast really crosses the fabric.
bg "$UDP" recv --netns n10 --port 5000 --group 239.5.5.5 --ifname wcn10 \
	--out "$WC_TMP/got" --ready "$WC_TMP/ready"
wait_for 30 test -f "$WC_TMP/ready"
bg "$UDP" send --netns n0 --dst 239.5.5.5 --port 5000 --ifname wcn0 --loop --size 1000
bg "$UDP" send --netns n5 --dst "$(ip4_of 10)" --port 5001 --loop --size 100
bg nsx n5 ping -f -W 1 "$(ip4_of 0)"
bg "$UDP" send --netns h --dst 10.0.255.255 --port 5002 --loop
if wait_for 60 test -s "$WC_TMP/got"; then
	sleep 1
	ok "traffic is flowing ($(wc -l <"$WC_TMP/got") datagrams so far)"
else
	not_ok "traffic is flowing"
fi

check "rmmod wormcast under traffic" rmmod wormcast
if module_loaded; then
	not_ok "module gone from /proc/modules"
else
	ok "module gone from /proc/modules"
fi
left=$(wc_count)
for ns in n0 n5 n10 h; do
	left="$left $(ip -n "$ns" -d -j link show | jq '[.[] | select(.linkinfo.info_kind == "wormcast")] | length')"
done
is "no wormcast device left in any namespace" "$left" "0 0 0 0 0"
check "namespaces still usable" ip -n n0 link add d0 type dummy
ip -n n0 link del d0 2>/dev/null

# The senders noticed (their device is gone) and nothing hangs.
bg_stop
ok "sender loops stopped"

check "insmod again" insmod "$module"
check "a fabric works after the reload" wc_add wc topology mesh dims 2
wc_del wc

done_testing
