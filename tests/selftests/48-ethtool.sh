#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# A node answers the NIC tools (Documentation/kernel.rst, "ethtool and
# timestamps"): ethtool -i names the driver, the fabric and the node;
# ethtool -S shows exactly the counters wormctl stats shows for the same
# node (and the fabric device the fabric's totals), after known traffic;
# ethtool -T advertises hardware timestamps.  Then wc-tstamp, in two
# namespaces, reads each datagram's TX and RX hardware timestamps through
# SO_TIMESTAMPING: at zero load their difference is Eq. 1 for the path,
# exactly, in virtual nanoseconds (1 per cycle) in virtual-time mode and
# in wall-clock nanoseconds (cycle_ns per cycle) in paced mode; a
# multicast gets one RX stamp per destination.
. "$(dirname "$0")/lib.sh"

SRC=0
DST=10		# (2,2) on a 4x4 torus: 4 hops from (0,0)
HOPS=4
STARTUP=3
ROUTER_DELAY=2
LINK_DELAY=1
K=5		# measured datagrams per run (wc-tstamp sends K + 1)
SIZE=100	# UDP payload bytes
CYCLE_NS=100000	# paced run: 0.1 ms per cycle

if ! command -v ethtool >/dev/null; then
	not_ok "ethtool is installed (tools/install-deps.sh)"
	done_testing
	exit
fi
if ! wc_add wc topology torus dims 4x4 startup $STARTUP \
	router_delay $ROUTER_DELAY link_delay $LINK_DELAY; then
	not_ok "create torus 4x4"
	done_testing
	exit
fi
ok "create torus 4x4 (startup $STARTUP, router_delay $ROUTER_DELAY, link_delay $LINK_DELAY)"
for id in $SRC $DST; do
	ns_new "n$id" && node_in_ns "wcn$id" "n$id" "$id" ||
		not_ok "node $id in namespace n$id"
done
# No ARP: every datagram is exactly one worm, on an otherwise idle fabric.
static_neigh $SRC $DST && static_neigh $DST $SRC || not_ok "static neighbour entries"

# ---------------------------------------------------------------- ethtool -i
# drvinfo FIELD OUTPUT: the value of "FIELD: value" in ethtool -i output.
drvinfo() {
	echo "$2" | sed -n "s/^$1: //p"
}
out=$(nsx n$SRC ethtool -i wcn$SRC 2>&1)
is "ethtool -i: driver" "$(drvinfo driver "$out")" wormcast
is "ethtool -i: version" "$(drvinfo version "$out")" \
	"$(modinfo -F version "${WC_MODULE:-$WC_ROOT/wormcast.ko}" 2>/dev/null)"
is "ethtool -i: bus-info names fabric and node" "$(drvinfo bus-info "$out")" \
	"wormcast:wc:node$SRC"
is "ethtool -i: firmware-version is the table generation" \
	"$(drvinfo firmware-version "$out")" \
	"tables gen $(wormctl -j fabric show wc | jq '.[0].table_gen')"
is "ethtool -i: statistics supported" "$(drvinfo supports-statistics "$out")" yes
is "ethtool -i on the fabric device: bus-info" \
	"$(drvinfo bus-info "$(ethtool -i wc 2>&1)")" "wormcast:wc:fabric"

# ---------------------------------------------------------------- ethtool -T
out=$(nsx n$SRC ethtool -T wcn$SRC 2>&1)
caps=$(echo "$out" | sed -n '/^Capabilities:/,/^PTP/p' | awk 'NR > 1 && !/^PTP/ { print $1 }' |
	sort | tr '\n' ' ')
is "ethtool -T: capabilities" "$caps" \
	"hardware-raw-clock hardware-receive hardware-transmit software-receive software-system-clock software-transmit "
is "ethtool -T: no PTP hardware clock" \
	"$(echo "$out" | sed -n 's/^PTP Hardware Clock: //p')" none
is "ethtool -T: transmit modes" \
	"$(echo "$out" | sed -n '/^Hardware Transmit/,/^Hardware Receive/p' |
		awk 'NR > 1 && !/^Hardware/ { print $1 }' | tr '\n' ' ')" "off on "
is "ethtool -T: receive filters" \
	"$(echo "$out" | sed -n '/^Hardware Receive/,$p' | awk 'NR > 1 { print $1 }' |
		tr '\n' ' ')" "none all "

# ---------------------------------------------------------------- timestamps
# Eq. 1: a frame of 14 + 20 + 8 + SIZE bytes is 1 header flit, its data
# flits (32 bytes each) and 1 tail flit.
L=$((1 + (14 + 20 + 8 + SIZE + 31) / 32 + 1))
EQ1=$((STARTUP + HOPS * (ROUTER_DELAY + LINK_DELAY) + L - 1))
diag "Eq. 1: $STARTUP + $HOPS * ($ROUTER_DELAY + $LINK_DELAY) + ($L - 1) = $EQ1 cycles"

# tstamp_run TAG PORT: K datagrams node SRC -> node DST through wc-tstamp;
# the receiver's lines go to $WC_TMP/TAG.rx, the sender's to TAG.tx.
tstamp_run() {
	rm -f "$WC_TMP/$1.ready"
	bg nsx n$DST sh -c "exec wc-tstamp recv --port $2 --ifname wcn$DST \
		--ready '$WC_TMP/$1.ready' --timeout 30 >'$WC_TMP/$1.rx'"
	_rx=$bg_pid
	wait_for 30 test -f "$WC_TMP/$1.ready" || return 1
	nsx n$SRC wc-tstamp send --dst "$(ip4_of $DST)" --port "$2" --count $K \
		--size $SIZE --interval 50 --ifname wcn$SRC >"$WC_TMP/$1.tx" || return 1
	wait "$_rx"
}

# check_latency TAG WANT: every one of the K datagrams has RX - TX = WANT
# ns, and the TX stamps the receiver got are the ones the sender read.
check_latency() {
	_lat=$(awk '/latency_ns/ { print $8 }' "$WC_TMP/$1.rx" | sort -u | tr '\n' ' ')
	_n=$(grep -c latency_ns "$WC_TMP/$1.rx")
	if [ "$_n" = $K ] && [ "$_lat" = "$2 " ]; then
		ok "$1: $K datagrams, each RX - TX hardware timestamp = $2 ns"
	else
		not_ok "$1: $K datagrams, each RX - TX hardware timestamp = $2 ns" \
			"$_n lines, latencies: $_lat" "$(cat "$WC_TMP/$1.rx" "$WC_TMP/$1.tx")"
	fi
	is "$1: the receiver got the TX stamps the sender read" \
		"$(awk '{ print $2, $4 }' "$WC_TMP/$1.rx")" \
		"$(awk '{ print $3, $5 }' "$WC_TMP/$1.tx")"
}

# Counters as "name value" lines: ethtool -S of DEV in NS ("": this one),
# wormctl stats of a node or the fabric's totals.
ethtool_counters() {
	if [ -n "$1" ]; then
		nsx "$1" ethtool -S "$2"
	else
		ethtool -S "$2"
	fi | awk -F': ' 'NR > 1 { sub(/^ +/, "", $1); print $1, $2 }'
}
wormctl_counters() {
	wormctl -j stats wc | jq -r "first(.. | objects | select(.node? == $1 and
		has(\"counters\"))) | .counters | to_entries[] | \"\(.key) \(.value)\""
}
wormctl_total() {
	wormctl -j stats wc | jq -r 'first(.. | objects | select(has("engine"))) |
		.counters | to_entries[] | "\(.key) \(.value)"'
}
# same_counters NS DEV NODE: ethtool -S and wormctl agree (read until two
# wormctl reads around the ethtool one agree: a late IPv6 report would
# move them).
same_counters() {
	for _try in 1 2 3 4 5; do
		_a=$(wormctl_counters "$3")
		_e=$(ethtool_counters "$1" "$2")
		_b=$(wormctl_counters "$3")
		[ "$_a" = "$_b" ] && break
	done
	[ "$_a" = "$_e" ] && return 0
	echo "wormctl:"; echo "$_a"; echo "ethtool -S:"; echo "$_e"
	return 1
}
counter() {
	ethtool_counters "$1" "$2" | awk -v k="$3" '$1 == k { print $2 }'
}

tx0=$(counter n$SRC wcn$SRC tx_frames)
rx0=$(counter n$DST wcn$DST rx_frames)
if tstamp_run virtual 7100; then
	ok "virtual time: wc-tstamp send/recv in namespaces n$SRC and n$DST"
else
	not_ok "virtual time: wc-tstamp send/recv in namespaces n$SRC and n$DST" \
		"$(cat "$WC_TMP/bg.log" "$WC_TMP/virtual.tx" "$WC_TMP/virtual.rx" 2>&1)"
fi
check_latency virtual $((EQ1 * 1))
diag "$(cat "$WC_TMP/virtual.tx" "$WC_TMP/virtual.rx")"

# ---------------------------------------------------------------- ethtool -S
is "ethtool -S: node $SRC tx_frames +$((K + 1))" \
	"$(($(counter n$SRC wcn$SRC tx_frames) - tx0))" $((K + 1))
is "ethtool -S: node $DST rx_frames +$((K + 1))" \
	"$(($(counter n$DST wcn$DST rx_frames) - rx0))" $((K + 1))
is "ethtool -S: the counter names of wormctl stats, in its order" \
	"$(ethtool_counters n$SRC wcn$SRC | awk '{ print $1 }' | tr '\n' ' ')" \
	"$(wormctl_counters $SRC | awk '{ print $1 }' | tr '\n' ' ')"
check "ethtool -S node $SRC = wormctl stats node $SRC" same_counters n$SRC wcn$SRC $SRC
check "ethtool -S node $DST = wormctl stats node $DST" same_counters n$DST wcn$DST $DST
fabric_same() {
	for _try in 1 2 3 4 5; do
		_a=$(wormctl_total)
		_e=$(ethtool_counters "" wc)
		_b=$(wormctl_total)
		[ "$_a" = "$_b" ] && break
	done
	[ "$_a" = "$_e" ] && return 0
	echo "wormctl:"; echo "$_a"; echo "ethtool -S:"; echo "$_e"
	return 1
}
check "ethtool -S on the fabric device = wormctl stats totals" fabric_same

# ---------------------------------------------------------------- multicast
# One RX stamp per destination: group 239.1.2.3 with members node MC1 (2
# hops) and node DST (4 hops).  The built-in scheme sends one worm per
# destination, in node order, from one injection channel: MC1's copy
# arrives after Eq. 1 for its path, DST's later than Eq. 1 for its own
# (its worm waits for the first to leave the injection channel; the TX
# stamp is the first worm's).  Were the copies' stamps shared, both
# receivers would read the same one.
MC1=5
MC_EQ1=$((STARTUP + 2 * (ROUTER_DELAY + LINK_DELAY) + L - 1))
ns_new n$MC1 && node_in_ns wcn$MC1 n$MC1 $MC1 || not_ok "node $MC1 in namespace n$MC1"
mc_pids=""
for id in $MC1 $DST; do
	rm -f "$WC_TMP/mc$id.ready"
	bg nsx n$id sh -c "exec wc-tstamp recv --port 7200 --ifname wcn$id \
		--group 239.1.2.3 --ready '$WC_TMP/mc$id.ready' --timeout 30 \
		>'$WC_TMP/mc$id.rx'"
	mc_pids="$mc_pids $bg_pid"
done
wait_for 30 test -f "$WC_TMP/mc$MC1.ready" -a -f "$WC_TMP/mc$DST.ready"
# the members' IGMP reports are over: zero load
wait_for 30 nodes_quiet $SRC $MC1 $DST
if nsx n$SRC wc-tstamp send --dst 239.1.2.3 --port 7200 --count 3 --size $SIZE \
	--interval 50 --ifname wcn$SRC >"$WC_TMP/mc.tx" && wait $mc_pids; then
	ok "multicast: wc-tstamp to members $MC1 and $DST"
else
	not_ok "multicast: wc-tstamp to members $MC1 and $DST" \
		"$(cat "$WC_TMP/bg.log" "$WC_TMP/mc.tx" "$WC_TMP/mc$MC1.rx" "$WC_TMP/mc$DST.rx" 2>&1)"
fi
is "multicast: node $MC1 (2 hops): RX - TX = Eq. 1 = $MC_EQ1 ns for each of 3" \
	"$(awk '{ print $8 }' "$WC_TMP/mc$MC1.rx" | tr '\n' ' ')" \
	"$MC_EQ1 $MC_EQ1 $MC_EQ1 "
lat=$(awk '{ print $8 }' "$WC_TMP/mc$DST.rx" | sort -u)
if [ "$(grep -c latency_ns "$WC_TMP/mc$DST.rx")" = 3 ] && [ "$(echo "$lat" | wc -l)" = 1 ] &&
	[ "$lat" -gt "$EQ1" ]; then
	ok "multicast: node $DST (4 hops, second worm): RX - TX = $lat ns > Eq. 1 = $EQ1, the same for each of 3"
else
	not_ok "multicast: node $DST (second worm): RX - TX > Eq. 1 = $EQ1, the same for each" \
		"$(cat "$WC_TMP/mc$DST.rx")"
fi
diag "$(cat "$WC_TMP/mc.tx" "$WC_TMP/mc$MC1.rx" "$WC_TMP/mc$DST.rx")"

# ---------------------------------------------------------------- paced
check "paced mode: cycle_ns $CYCLE_NS" wormctl fabric set wc cycle_ns $CYCLE_NS
if tstamp_run paced 7101; then
	ok "paced: wc-tstamp send/recv in namespaces n$SRC and n$DST"
else
	not_ok "paced: wc-tstamp send/recv in namespaces n$SRC and n$DST" \
		"$(cat "$WC_TMP/bg.log" "$WC_TMP/paced.tx" "$WC_TMP/paced.rx" 2>&1)"
fi
check_latency paced $((EQ1 * CYCLE_NS))
# Wall-clock time: the stamps are CLOCK_REALTIME, within a minute of now.
ts=$(awk 'NR == 1 { print int($5 / 1000000000) }' "$WC_TMP/paced.tx")
now=$(date +%s)
if [ -n "$ts" ] && [ $((ts - now)) -lt 60 ] && [ $((now - ts)) -lt 60 ]; then
	ok "paced: hardware timestamps are wall-clock time"
else
	not_ok "paced: hardware timestamps are wall-clock time" "stamp ${ts:-none} s, now $now s"
fi
check "back to virtual time" wormctl fabric set wc cycle_ns 0

is "fabric drop counters all zero" "$(wc_drops wc)" 0
done_testing
