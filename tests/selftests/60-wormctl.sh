#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Engine statistics through wormctl: "wormctl [-j] fabric show" describes the
# fabric and its node devices wherever they are, and "wormctl [-j] stats"
# counts exactly what a known amount of traffic must produce: K unicast
# datagrams over d hops of a 4x4 torus are K worms done, K*d hops, K frames
# sent by the source and received by the destination, and zero-load
# latencies exactly as Eq. 1 of the path-based paper says at zero load.
# "wormctl stats --links" shows those worms' busy cycles on exactly the
# links of their path, and wc-heatmap draws them.
# Then "wormctl table show": no table on a unicast fabric; under dstm-1
# with wormcastd running, the table it commits, listed and decoded.
. "$(dirname "$0")/lib.sh"

K=30
SRC=0
DST=10		# (2,2) on a 4x4 torus: 4 hops from (0,0)
HOPS=4

if ! wc_add wc topology torus dims 4x4; then
	not_ok "create torus 4x4"
	done_testing
	exit
fi
ok "create torus 4x4"

check "wormctl fabric show (text)" sh -c 'wormctl fabric show wc | grep -q torus'
check "wormctl stats (text)" sh -c 'wormctl stats wc | grep -q worms_done'
show=$(wormctl -j fabric show wc)
is "wormctl -j fabric show: topology, dims, nodes" \
	"$(echo "$show" | jq -c 'first(.. | objects | select(has("topology"))) | [.topology, .dims, .nodes]')" \
	'["torus",[4,4],16]'
is "wormctl -j fabric show: every node device listed" \
	"$(echo "$show" | jq -c '[.. | objects | select(has("node") and has("ifname")) | .ifname] | sort')" \
	"$(seq 0 15 | sed 's/^/wcn/' | jq -Rcs 'split("\n") | map(select(. != "")) | sort')"

for id in $SRC $DST; do
	ns_new "n$id" && node_in_ns "wcn$id" "n$id" "$id" ||
		not_ok "node $id in namespace n$id"
done
show=$(wormctl -j fabric show wc)
# Another namespace's device by netnsid and ifindex, not by name
# (Documentation/uapi.rst, "Who sees what"); by name from inside it.
is "wormctl sees node $DST in another namespace by netnsid and ifindex" \
	"$(echo "$show" | jq -c ".[0].node_devices[] | select(.node == $DST) |
		[.ifname, (.netnsid >= 0), (.ifindex > 0)]")" \
	"[null,true,true]"
is "... and by name from inside that namespace" \
	"$(nsx n$DST wormctl -j fabric show wcn$DST | jq -c ".[0].node_devices[] |
		select(.node == $DST) | [.ifname, .netnsid]")" \
	"[\"wcn$DST\",-1]"

# Static neighbours: no ARP probe may slip into the counted window.
static_neigh "$SRC" "$DST" && static_neigh "$DST" "$SRC" ||
	not_ok "static neighbour entries"
sleep 1
bg "$UDP" recv --netns "n$DST" --port 7000 --ready "$WC_TMP/ready" --out "$WC_TMP/got"
wait_for 30 test -f "$WC_TMP/ready"
before=$(wormctl -j stats wc)
links_before=$(wormctl -j stats wc --links)
# One datagram at a time, so that the fabric is at zero load.
check "send $K datagrams node $SRC -> node $DST" \
	"$UDP" send --netns "n$SRC" --dst "$(ip4_of $DST)" --port 7000 \
	--count $K --interval 0.05 --size 100
sleep 1
after=$(wormctl -j stats wc)
links_after=$(wormctl -j stats wc --links)
is "all $K datagrams received" "$(grep -c . "$WC_TMP/got")" $K

delta() {
	a=$(echo "$after" | jq "first(.. | objects | select(has(\"engine\"))) |
		(.engine + .counters).$1")
	b=$(echo "$before" | jq "first(.. | objects | select(has(\"engine\"))) |
		(.engine + .counters).$1")
	echo $((a - b))
}
is "engine: worms_done +$K" "$(delta worms_done)" $K
is "engine: hops_sum +$K*$HOPS" "$(delta hops_sum)" $((K * HOPS))
is "counters: tx_frames +$K" "$(delta tx_frames)" $K
is "counters: rx_frames +$K" "$(delta rx_frames)" $K
is "engine: no worm in flight when idle" \
	"$(echo "$after" | jq 'first(.. | objects | select(has("engine"))) | .engine.worms_in_flight')" 0
# Eq. 1 at zero load, end to end through the kernel: a frame of
# 14 + 20 + 8 + 100 = 142 bytes is 1 header + ceil(142 / 32) = 5 data flits
# + 1 tail = 7 flits; with the default startup 0 and router and link delays
# of 1 cycle, each worm takes 0 + 4 * (1 + 1) + 7 - 1 = 14 cycles.
L=$((1 + (142 + 31) / 32 + 1))
is "engine: latency_sum +K * (d * 2 + L - 1) (Eq. 1 at zero load, L = $L)" \
	"$(delta latency_sum)" $((K * (HOPS * 2 + L - 1)))
# Per link (wormctl stats --links, LINKS_GET): dimension order, ties +,
# takes 0 -> 1 -> 2 (x), then 2 -> 6 -> 10 (y); each worm's L flits enter
# each link of the path once, and nothing else moved.  At zero load no
# header waited for a link.
link_delta() {	# FIELD: "node->peer:delta" of every link that changed
	jq -nc --argjson a "$links_after" --argjson b "$links_before" "
		[\$a[0].links, \$b[0].links] | transpose |
		map(select(.[0].$1 != .[1].$1) |
		    \"\\(.[0].node)->\\(.[0].peer):\\(.[0].$1 - .[1].$1)\") | sort"
}
is "links: 64 directed links of the 4x4 torus, fabric identity and cycles" \
	"$(echo "$links_after" | jq -c '.[0] | [.ifname, .topology, .dims, (.links | length),
		([.links[] | [.node, .port]] | unique | length), (.cycles > 0)]')" \
	'["wc","torus",[4,4],64,64,true]'
is "links: busy +K*L exactly on the path 0->1->2->6->10, zero elsewhere" \
	"$(link_delta busy)" \
	"[\"0->1:$((K * L))\",\"1->2:$((K * L))\",\"2->6:$((K * L))\",\"6->10:$((K * L))\"]"
is "links: no blocked cycle at zero load" "$(link_delta blocked)" "[]"
is "links: the busy cycles add up to the engine's flit_hops" \
	"$(echo "$links_after" | jq '[.[0].links[].busy] | add')" \
	"$(echo "$after" | jq 'first(.. | objects | select(has("engine"))) | .engine.flit_hops')"
check "wormctl stats --links (text): a line per link" sh -c \
	'[ "$(wormctl stats wc --links | grep -Ec "^    link [0-9]+ port [0-3] -> [0-9]+ busy [0-9]+ blocked [0-9]+$")" = 64 ]'
refuse "wormctl stats --links on a device that is no fabric" wormctl stats lo --links
# The heatmap of the live dump (tools/heatmap/wc-heatmap), PNG and SVG.
echo "$links_after" > "$WC_TMP/links.json"
check "wc-heatmap renders the live dump" \
	"$WC_ROOT/tools/heatmap/wc-heatmap" "$WC_TMP/links.json" "$WC_TMP/heat"
is "wc-heatmap: PNG magic bytes" \
	"$(head -c 8 "$WC_TMP/heat.png" | od -An -tx1 | tr -d ' \n')" 89504e470d0a1a0a
check "wc-heatmap: SVG parses as XML" python3 -c \
	'import sys, xml.etree.ElementTree as E; E.parse(sys.argv[1])' "$WC_TMP/heat.svg"
is "wc-heatmap: a line per link, coloured where the dump has busy cycles" \
	"$(awk '!/^#/ { n++ } !/^#/ && $5 > 0 { print $6 "->" $7 } END { print n }' \
		"$WC_TMP/heat.dat" | sort | tr '\n' ' ')" \
	"$(echo "$links_after" | jq -r '.[0].links | (.[] | select(.busy > 0) |
		"\(.node)->\(.peer)"), length' | sort | tr '\n' ' ')"

cyc=$(delta cycles)
if [ "$cyc" -gt 0 ]; then
	ok "engine: cycles advanced (+$cyc)"
else
	not_ok "engine: cycles advanced" "+$cyc"
fi
is "engine: no deadlock reported" \
	"$(echo "$after" | jq 'first(.. | objects | select(has("engine"))) | .engine.deadlocks')" 0
is "fabric drop counters all zero" "$(wc_drops wc)" 0

# Per-node counters: the source sent K, the destination received K.
is "per node: node $SRC tx_frames, node $DST rx_frames" \
	"$(echo "$after" | jq -c "[(.. | objects | select(.node? == $SRC and has(\"counters\")) | .counters.tx_frames),
		(.. | objects | select(.node? == $DST and has(\"counters\")) | .counters.rx_frames)]")" \
	"$(echo "$before" | jq -c "[(.. | objects | select(.node? == $SRC and has(\"counters\")) | .counters.tx_frames + $K),
		(.. | objects | select(.node? == $DST and has(\"counters\")) | .counters.rx_frames + $K)]")"

refuse "wormctl stats on a device that is no fabric" wormctl stats lo
refuse "wormctl stats on a missing device" wormctl stats nosuchdev

# A LINKS_GET dump over several messages: a 16x16 mesh has 960 links,
# about 60 KB of attributes; every one arrives once, in channel order.
if wc_add wcbig topology mesh dims 16x16 nodename 'wb%d'; then
	is "links: a 16x16 mesh dumps its 960 links once each, in order" \
		"$(wormctl -j stats wcbig --links | jq -c '.[0].links | [length,
			(map([.node, .port]) | unique | length),
			(map(.node * 4 + .port) == (map(.node * 4 + .port) | sort))]')" \
		'[960,960,true]'
	wc_del wcbig
else
	not_ok "create mesh 16x16"
fi

# Tables (Documentation/tools.rst, "table show"): none on a unicast fabric;
# under dstm-1, the one wormcastd installs, listed and decoded.
is "wormctl -j table show: [] without a table" "$(wormctl -j table show wc)" "[]"
is "wormctl -j fabric show: table_gen 0, no table" \
	"$(wormctl -j fabric show wc | jq -c '.[0] | [.table_gen, .tables]')" '[0,[]]'
check "wormctl fabric set wc multicast dstm-1" wormctl fabric set wc multicast dstm-1
bg wormcastd
if wait_for 60 sh -c 'wormctl -j fabric show wc | jq -e ".[0].table_gen >= 1" >/dev/null'; then
	ok "wormcastd committed a table (table_gen >= 1)"
else
	not_ok "wormcastd committed a table (table_gen >= 1)" \
		"$(wormctl -j fabric show wc | jq -c '.[0] | [.table_gen, .tables]')"
fi
# struct wormcast_trees of 2 trees of 16 nodes: 24 + 2 * 16 bytes
is "wormctl -j fabric show: the trees table listed" \
	"$(wormctl -j fabric show wc | jq -c '.[0] as $f | [$f.tables[] | [.kind, .gen == $f.table_gen, .size]]')" \
	'[["trees",true,56]]'
is "wormctl -j table show: kind, scheme, trees, nodes, roots, size" \
	"$(wormctl -j table show wc | jq -c '.[0] | [.kind, .scheme, .ntrees, .nnodes, (.roots | length), .size, (.gen >= 1)]')" \
	'["trees","dstm-1",2,16,2,56,true]'
is "wormctl -j table show -v: 16 ports per tree, null at the root only" \
	"$(wormctl -j table show wc -v | jq -c '.[0] as $t | [($t.parent_port | map(length)),
		[$t.parent_port[] | map(select(. == null)) | length],
		[range(2) as $i | $t.parent_port[$i][$t.roots[$i]]]]')" \
	'[[16,16],[1,1],[null,null]]'
check "wormctl table show (text)" sh -c \
	'wormctl table show wc | grep -Eq "^trees gen [1-9][0-9]* size 56 scheme dstm-1 ntrees 2 nnodes 16 roots [0-9]+,[0-9]+$"'
check "wormctl table show -v (text): a line per tree" sh -c \
	'[ "$(wormctl -v table show wc | grep -c "^    tree [01] root [0-9]* parent_port")" = 2 ]'
wormctl table show wc -v | sed 's/^/# /'
refuse "wormctl table show without DEV" wormctl table show
refuse "wormctl table show on a device that is no fabric" wormctl table show lo

done_testing
