#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The in-VM benchmarks of issue 3 (item 6 b and c).  Runs inside the VM as
# root, with wormcast.ko loaded (tests/vm/run.sh shell; tools/bench/vm.sh
# starts it), and prints figures as "name: value unit" lines; "# ..." lines
# are the individual runs and other details.
#
# (b) UDP packets per second from one node to an adjacent node: node 0 to
#     node 1 of a 4x4 torus (each in its own network namespace, IPv4), and
#     over a veth pair between two namespaces, 64 B and 1400 B payloads.
#     Sender: iperf2 client (-u -b 10G: as fast as it can); receiver: an
#     iperf2 server; the figure is what the receiving socket got (the
#     server's datagrams minus lost ones) per second.  The runs of the
#     four cases are interleaved, so that a slow phase of the (shared,
#     TCG-emulated) machine hits all of them alike.  Sender and receiver
#     are not pinned to CPUs: pinning the sender (and with it the softirq
#     work it raises) to one vCPU made both paths more erratic on a loaded
#     host, the fabric most.
# (c) kernel memory of a fabric: torus 16x16 and 32x32 with default
#     parameters.  /proc/meminfo after dropping caches, before and after
#     "ip link add", repeated; the node devices' share is estimated by
#     creating as many dummy devices (same ether_setup()-based net_device,
#     same IPv4/IPv6 per-device state) in the same way.
# (mcast) multicast datagrams per second from one sender to 8, 32 and 63
#     members of an 8x8 torus under "multicast dstm-1" (tables pushed by
#     wormcastd) and "multicast unicast", and through a Linux bridge with
#     IGMP snooping joining 64 veth namespaces (how Linux multicasts into
#     namespaces today), for datagrams of WC_BENCH_MCAST_BYTES payload
#     bytes.  The sender is an iperf2 client (-u -b 10G).  Each member's
#     namespace holds a socket joined to 239.1.1.1 on its device: with
#     WC_BENCH_MCAST_SINK=join (the default) nobody reads it, so the figure
#     measures the network up to the member's IP stack, not 63 reader
#     processes competing for 2 vCPUs (which bound all three paths alike:
#     sink=read, socat readers, shows that).  The figure is the datagrams
#     the members' devices received per second, divided by the members
#     (all members of a run get about the same number: the sender's rate
#     is the group's); on the fabric from its per-node rx_frames (what it
#     handed to each node device, one wormctl process for all), through
#     the bridge from each device's counter.  One fabric switches between dstm-1 and unicast
#     (wormctl fabric set; the DSTM table stays installed), and between
#     its NAPI threaded (the default: the engine and the deliveries in
#     kthreads of their own) and in softirq ("-softirq" paths: echo 0 to
#     the fabric device's sysfs "threaded", the way the fabric ran before
#     the deliveries had a NAPI of their own), beside the bridge;
#     WC_BENCH_MCAST_PATHS run in turn, run after run, after one warm-up
#     run of each that is noted but not counted (in two VM runs of
#     2026-11-28 the first run at 64 B, the first after the members
#     joined, was the slowest of its path, on all three).  Issue 8's
#     targets:
#     dstm-1 >= the bridge and >= 2x unicast at 63 members.  Each run
#     also notes ("# cpu ...") how the guest's CPU time was split: user,
#     system (irq and softirq included) and idle jiffies of both vCPUs,
#     and the jiffies of each of the fabric's NAPI kthreads (napi/DEV-ID:
#     the engine's, added first, has the lower ID; then the deliveries'):
#     which side bounds the rate.
# (star) the same on a 5-star (120 nodes) under each of
#     WC_BENCH_STAR_SCHEMES (labels pushed by wormcastd for star-tree and
#     kept for the others), one fabric switched between them run after
#     run, to WC_BENCH_STAR_MEMBERS
#     members (119: every node but the sender) with datagrams of
#     WC_BENCH_STAR_BYTES, in virtual time and paced (cycle_ns values
#     WC_BENCH_STAR_CYCLE_NS).  Issue 9's target: star-tree >= 2x unicast.
# (rtnl) how long "ip link add" and "ip link del" of a fabric hold RTNL
#     (16x16, and 32x32: the max_userns_nodes default), beside as many
#     dummy devices (issue 12, item 3).
# (tables) how long wormcastd takes to compute a DSTM-1 table and push it
#     (TABLE_NEW, CHUNKs, COMMIT: the kernel's validation and swap
#     included) for the largest square torus the module accepts (70x70,
#     4900 nodes), from wormcastd's own log line; WC_BENCH_MEM_RUNS runs.
#     256x256 is beyond the module's 5040 nodes: bench_dstm times the
#     same validation code in userspace there.
# (dstset) cost per multicast frame for the same group on 8x8 and 32x32
#     (multicast issue, item 5): nodes 1-4 join 01:00:5e:7f:00:01 (ip
#     maddr), node 0 sends WC_BENCH_MC_FRAMES raw 60-byte frames to it as
#     fast as the fabric takes them; the figure is the wall time per frame
#     until the 4 members have them all (destination set, engine, delivery:
#     with the membership index only the word loop of the set grows with
#     the fabric).  WC_BENCH_MEM_RUNS runs per size, the median.
# (plans) membership change to installed plan (issue 9: OCMS with 500
#     destinations, OTMS with 100; the OCMS target is under 100 ms): per
#     WC_BENCH_PLANS case a 32x32 mesh under the scheme, the members,
#     wormcastd planning lazily (1024 x members pairs is above
#     plans_eager_max); node 0 sends one frame and is planned; then
#     WC_BENCH_MEM_RUNS times a node joins, and the figure is the time from
#     the kernel's groups event to the plans table's commit event (both
#     stamped as "wormctl monitor" prints them), and from the join command
#     to the commit.
# (faults) fault announced to new tables installed (issue 10, target 1:
#     under 100 ms on 50x50 with 150 faults): a WC_BENCH_FAULT_DIMS torus
#     under "multicast dstm-1", wormcastd running; WC_BENCH_FAULTS random
#     distinct links (seeded by WC_BENCH_FAULT_SEED) fail one after another
#     ("wormctl fault add"), each once the previous re-push is committed,
#     then are repaired in the same order ("wormctl fault del"); per change
#     the time from the kernel's fault event to the trees table's commit
#     event (both stamped as "wormctl monitor" prints them), and wormcastd's
#     own logged times.  Median, 90th percentile and max, overall and by
#     thirds of the faults listed; the final table must list every link.
#     Then WC_BENCH_FAULT_NODES random nodes (seeded) fail alone and are
#     repaired, one after another: the same times, apart for the failures
#     that made wormcastd rebuild the trees (a node both trees transit)
#     and the others.
# (ftfault) the same target for the fault-tolerant mesh multicast
#     (scheme ftmesh, faulty nodes): a WC_BENCH_FTFAULT_DIMS mesh under
#     "multicast ftmesh" (vcs 4, replication async, buf_flits 64), wormcastd running.
#     For each F of WC_BENCH_FTFAULT_COUNTS, F - 1 random distinct faulty
#     nodes (a prefix of one order seeded by WC_BENCH_FAULT_SEED) fail in
#     one burst and their table is committed; then WC_BENCH_FTFAULT_REPS
#     times one more node, outside every block, fails ("wormctl fault add
#     wcft node N": F faulty nodes) and is repaired, each change waited for
#     (one push each, from exactly F or F - 1 faulty nodes, the node in a
#     block of the new table after its failure and in none after its
#     repair) before the next, so that nothing is coalesced.  Per change:
#     the kernel's fault event to the table's commit event ("wormctl
#     monitor" stamps), wormcastd's logged "fault event to commit",
#     compute and push, and "wormctl fault" returned to the new table
#     generation seen by polling FABRIC_GET (an upper bound); the blocks
#     and the table's bytes.
# (bcast) DCF and EDN broadcast latency through the kernel against wormsim
#     (issue 10, target 2: equal): a WC_BENCH_BCAST_DIMS torus under
#     "multicast dcf", then edn, in a namespace without IPv6, every node
#     up, wormcastd running, with the engine's defaults and then with the
#     paper's all-port model (inj 4, router_delay 0, wormsim --bcast's
#     defaults); per frame length of WC_BENCH_BCAST_BYTES one
#     raw broadcast frame from node 0, its latency in engine cycles from
#     the capture records (tests/selftests/bcast_latency.py: last
#     consumption - the source's submission) beside wormsim --bcast's
#     with the fabric's parameters (--bcast-relay queue, the kernel's
#     relay rule; the port rule's figure too).
#
# Environment (all optional):
#   WC_BENCH_RUNS       runs per UDP case (default 7)
#   WC_BENCH_SECS       seconds per UDP run (default 3)
#   WC_BENCH_MEM_RUNS   fabric creations per size for memory (default 3)
#   WC_BENCH_MEM_DIMS   torus sizes for memory (default "16x16 32x32")
#   WC_BENCH_RTNL_DIMS  torus sizes for RTNL hold times (default "16x16 32x32")
#   WC_BENCH_MCAST_MEMBERS  group sizes for (mcast) (default "8 32 63")
#   WC_BENCH_MCAST_BYTES    datagram payload sizes for (mcast) (default "64 1024")
#   WC_BENCH_MCAST_SINK     join (members' sockets unread, default) or read
#   WC_BENCH_MCAST_PATHS    what (mcast) compares (default "dstm-1 unicast
#                       dstm-1-softirq unicast-softirq bridge")
#   WC_BENCH_FTRACE     1: profile each (mcast) run with ftrace's function_graph
#                       tracer on MC_FTRACE_FUNCS and print, per run, the
#                       guest's CPU time split (/proc/stat) and each traced
#                       function's calls and inclusive time ("# ftrace" notes;
#                       the tracing itself slows the run: compare schemes,
#                       not rates)
#   WC_BENCH_MC_FRAMES  frames per run of the dstset part (default 3000)
#   WC_BENCH_STAR_MEMBERS  group size for (star), 1 to 119 (default 119)
#   WC_BENCH_STAR_BYTES    datagram payload for (star), 1 to 86 (default 64)
#   WC_BENCH_STAR_CYCLE_NS fabric cycle_ns values for (star) (default "0 25000")
#   WC_BENCH_STAR_SCHEMES  schemes for (star), unicast among them (default
#                          "star-tree hamiltonian dual-path multipath
#                          multiphase unicast")
#   WC_BENCH_PLANS      SCHEME:MEMBERS cases for (plans) (default "ocms:500 otms:100")
#   WC_BENCH_FAULTS     links failed by (faults), 3 to 256 (default 150)
#   WC_BENCH_FAULT_DIMS torus size for (faults) (default 50x50)
#   WC_BENCH_FAULT_NODES nodes failed alone, one after another, after the
#                       links in (faults) (default 20)
#   WC_BENCH_FAULT_SEED seed of the links' choice for (faults) and of the
#                       nodes' for (ftfault) (default 1)
#   WC_BENCH_FTFAULT_DIMS   mesh size for (ftfault) (default 50x50)
#   WC_BENCH_FTFAULT_COUNTS faulty nodes at the measured failures, ascending
#                           (default "50 100 150")
#   WC_BENCH_FTFAULT_REPS   failures (and repairs) measured per count (default 9)
#   WC_BENCH_BCAST_DIMS torus size for (bcast) (default 32x32)
#   WC_BENCH_BCAST_BYTES frame lengths for (bcast) (default "242 992")
#   WC_BENCH_PARTS      "udp mem rtnl mcast star tables dstset plans bcast" (default)
#                       or some, or faults or ftfault (not run by default)
set -u

WC_ROOT=${WC_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
export IP_LIB_DIR="${IP_LIB_DIR:-${WC_BUILD:-$WC_ROOT/build}}"

RUNS=${WC_BENCH_RUNS:-7}
SECS=${WC_BENCH_SECS:-3}
MEM_RUNS=${WC_BENCH_MEM_RUNS:-3}
MEM_DIMS=${WC_BENCH_MEM_DIMS:-16x16 32x32}
RTNL_DIMS=${WC_BENCH_RTNL_DIMS:-16x16 32x32}
MCAST_MEMBERS=${WC_BENCH_MCAST_MEMBERS:-8 32 63}
MCAST_BYTES=${WC_BENCH_MCAST_BYTES:-64 1024}
MCAST_SINK=${WC_BENCH_MCAST_SINK:-join}
FTRACE=${WC_BENCH_FTRACE:-0}
PARTS=${WC_BENCH_PARTS:-udp mem rtnl mcast star tables dstset plans bcast}
BCAST_DIMS=${WC_BENCH_BCAST_DIMS:-32x32}
BCAST_BYTES=${WC_BENCH_BCAST_BYTES:-242 992}
PLANS=${WC_BENCH_PLANS:-ocms:500 otms:100}
FAULTS=${WC_BENCH_FAULTS:-150}
FAULT_DIMS=${WC_BENCH_FAULT_DIMS:-50x50}
FAULT_SEED=${WC_BENCH_FAULT_SEED:-1}
FAULT_NODES=${WC_BENCH_FAULT_NODES:-20}
FT_DIMS=${WC_BENCH_FTFAULT_DIMS:-50x50}
FT_COUNTS=${WC_BENCH_FTFAULT_COUNTS:-50 100 150}
FT_REPS=${WC_BENCH_FTFAULT_REPS:-9}
MC_FRAMES=${WC_BENCH_MC_FRAMES:-3000}
STAR_MEMBERS=${WC_BENCH_STAR_MEMBERS:-119}
STAR_BYTES=${WC_BENCH_STAR_BYTES:-64}
STAR_CYCLE_NS=${WC_BENCH_STAR_CYCLE_NS:-0 25000}
STAR_SCHEMES=${WC_BENCH_STAR_SCHEMES:-star-tree hamiltonian dual-path multipath multiphase unicast}
SIZES="64 1400"
PATHS="fabric veth"

# Names of everything this script creates (removed at exit).
FAB=wcb			# UDP fabric; nodes wcbn0, wcbn1, ...
MEMFAB=wcm		# memory fabric
NS_FAB_TX=wcb-tx
NS_FAB_RX=wcb-rx
NS_VETH_TX=vb-tx
NS_VETH_RX=vb-rx
NS_DUMMY=wcb-dummy
NS_MC=wcb-mc
NS_BC=wcb-bc
IP_FAB_TX=10.77.0.1
IP_FAB_RX=10.77.0.2
IP_VETH_TX=10.78.0.1
IP_VETH_RX=10.78.0.2

TMPD=$(mktemp -d /tmp/wc-bench.XXXXXX)
PIDS=""

die() {
	echo "bench-guest: $*" >&2
	exit 1
}

note() {
	echo "# $*"
}

# stop_pids PID...: end our background processes and reap them.
stop_pids() {
	for p in "$@"; do
		kill "$p" 2>/dev/null
	done
	for p in "$@"; do
		wait "$p" 2>/dev/null
	done
}

cleanup() {
	stop_pids $PIDS
	for ns in $NS_FAB_TX $NS_FAB_RX $NS_VETH_TX $NS_VETH_RX $NS_DUMMY $NS_MC $NS_BC; do
		ip netns del "$ns" 2>/dev/null
	done
	ip link del "$FAB" 2>/dev/null
	ip link del "$MEMFAB" 2>/dev/null
	mcast_teardown
	rm -rf "$TMPD"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

is_count() {
	case "$1" in
	'' | *[!0-9]*) return 1 ;;
	esac
	[ "$1" -ge 1 ]
}

is_count "$RUNS" || die "WC_BENCH_RUNS must be a positive integer, not '$RUNS'"
is_count "$SECS" || die "WC_BENCH_SECS must be a positive integer, not '$SECS'"
is_count "$FT_REPS" || die "WC_BENCH_FTFAULT_REPS must be a positive integer, not '$FT_REPS'"
for f in $FT_COUNTS; do
	is_count "$f" && [ "$f" -le 1000 ] ||
		die "WC_BENCH_FTFAULT_COUNTS: '$f' is not a fault count of 1 to 1000"
done
case $FT_DIMS in
*[!0-9x]* | x* | *x | *x*x*) die "WC_BENCH_FTFAULT_DIMS must be WxH, not '$FT_DIMS'" ;;
*x*) ;;
*) die "WC_BENCH_FTFAULT_DIMS must be WxH, not '$FT_DIMS'" ;;
esac
case $FTRACE in
0 | 1) ;;
*) die "WC_BENCH_FTRACE must be 0 or 1, not '$FTRACE'" ;;
esac
case $MCAST_SINK in
join | read) ;;
*) die "WC_BENCH_MCAST_SINK must be join or read, not '$MCAST_SINK'" ;;
esac
for b in $MCAST_BYTES; do
	is_count "$b" && [ "$b" -le 1472 ] ||
		die "WC_BENCH_MCAST_BYTES: '$b' is not a UDP payload size of 1 to 1472"
done
is_count "$STAR_MEMBERS" && [ "$STAR_MEMBERS" -le 119 ] ||
	die "WC_BENCH_STAR_MEMBERS must be 1 to 119, not '$STAR_MEMBERS'"
is_count "$STAR_BYTES" && [ "$STAR_BYTES" -le 86 ] ||
	die "WC_BENCH_STAR_BYTES must be 1 to 86 (a worm must fit a 64-flit buffer), not '$STAR_BYTES'"
for c in $STAR_CYCLE_NS; do
	case $c in
	'' | *[!0-9]*) die "WC_BENCH_STAR_CYCLE_NS: '$c' is not a cycle_ns value" ;;
	esac
done
case " $STAR_SCHEMES " in
*" unicast "*) ;;
*) die "WC_BENCH_STAR_SCHEMES must include unicast (the ratios' baseline)" ;;
esac
for c in $STAR_SCHEMES; do
	case $c in
	*[!a-z0-9-]*) die "WC_BENCH_STAR_SCHEMES: '$c' is not a scheme name" ;;
	esac
done
is_count "$MC_FRAMES" ||
	die "WC_BENCH_MC_FRAMES must be a positive integer, not '$MC_FRAMES'"
is_count "$MEM_RUNS" ||
	die "WC_BENCH_MEM_RUNS must be a positive integer, not '$MEM_RUNS'"
for d in $MEM_DIMS $RTNL_DIMS; do
	case "$d" in
	[0-9]*x[0-9]*) ;;
	*) die "WC_BENCH_MEM_DIMS, WC_BENCH_RTNL_DIMS: '$d' is not a torus size like 16x16" ;;
	esac
done
case $BCAST_DIMS in
[0-9]*x[0-9]*) ;;
*) die "WC_BENCH_BCAST_DIMS: '$BCAST_DIMS' is not a torus size like 32x32" ;;
esac
for b in $BCAST_BYTES; do
	is_count "$b" || die "WC_BENCH_BCAST_BYTES: '$b' is not a frame length"
done
for p in $PARTS; do
	case "$p" in
	udp | mem | rtnl | mcast | star | tables | dstset | plans | faults | ftfault | bcast) ;;
	*) die "WC_BENCH_PARTS: unknown part '$p' (udp, mem, rtnl, mcast, star, tables, dstset, plans, faults, ftfault, bcast)" ;;
	esac
done
for case in $PLANS; do
	case "$case" in
	ocms:[0-9]* | otms:[0-9]*) ;;
	*) die "WC_BENCH_PLANS: '$case' is not SCHEME:MEMBERS (ocms or otms, 1 to 1000)" ;;
	esac
	n=${case#*:}
	case "$n" in *[!0-9]*) die "WC_BENCH_PLANS: '$case': members must be a number" ;; esac
	[ "$n" -ge 1 ] && [ "$n" -le 1000 ] ||
		die "WC_BENCH_PLANS: '$case': 1 to 1000 members (the mesh has 1024 nodes)"
done
is_count "$FAULTS" && [ "$FAULTS" -ge 3 ] && [ "$FAULTS" -le 256 ] ||
	die "WC_BENCH_FAULTS must be 3 to 256 (WORMCAST_TREES_MAX_FAULTS), not '$FAULTS'"
case "$FAULT_DIMS" in
[0-9]*x[0-9]*) ;;
*) die "WC_BENCH_FAULT_DIMS: '$FAULT_DIMS' is not a torus size like 50x50" ;;
esac
case "$FAULT_SEED" in
'' | *[!0-9]*) die "WC_BENCH_FAULT_SEED must be a number, not '$FAULT_SEED'" ;;
esac
for tool in ip iperf jq awk; do
	command -v "$tool" >/dev/null || die "$tool is missing"
done
grep -q '^wormcast ' /proc/modules || die "wormcast.ko is not loaded"

# log_wait FILE PATTERN: until wormcastd's log FILE has a line matching
# PATTERN (10 minutes at most).
log_wait() {
	_i=0
	until grep -q "$2" "$1"; do
		_i=$((_i + 1))
		[ "$_i" -le 6000 ] || die "wormcastd: no '$2': $(tail -n 3 "$1")"
		sleep 0.1
	done
}

# Median of the numbers on stdin (one per line); mean of the middle two
# for an even count.
median() {
	sort -g | awk '{ v[NR] = $1 }
		END {
			if (NR == 0) { print "nan"; exit }
			if (NR % 2) print v[(NR + 1) / 2]
			else print (v[NR / 2] + v[NR / 2 + 1]) / 2
		}'
}

# ================================================================ (b) UDP

# ns_pair TX RX: two namespaces with lo up and IPv6 off (nothing but the
# benchmark's traffic on the devices).
ns_pair() {
	for ns in "$1" "$2"; do
		ip netns add "$ns" || return 1
		ip -n "$ns" link set lo up || return 1
		ip netns exec "$ns" sysctl -qw net.ipv6.conf.all.disable_ipv6=1 \
			net.ipv6.conf.default.disable_ipv6=1 || return 1
	done
}

# dev_up NS DEV ADDR: move nothing, just address DEV in NS and bring it up.
dev_up() {
	ip -n "$1" addr add "$3/24" dev "$2" &&
		ip -n "$1" link set "$2" up
}

setup_fabric() {
	ip link add "$FAB" type wormcast topology torus dims 4x4 || return 1
	ns_pair "$NS_FAB_TX" "$NS_FAB_RX" || return 1
	# Nodes 0 and 1 are adjacent (x neighbours) on the torus.
	ip link set "${FAB}n0" netns "$NS_FAB_TX" || return 1
	ip link set "${FAB}n1" netns "$NS_FAB_RX" || return 1
	dev_up "$NS_FAB_TX" "${FAB}n0" "$IP_FAB_TX" || return 1
	dev_up "$NS_FAB_RX" "${FAB}n1" "$IP_FAB_RX"
}

setup_veth() {
	ns_pair "$NS_VETH_TX" "$NS_VETH_RX" || return 1
	ip link add vb0 netns "$NS_VETH_TX" type veth \
		peer name vb1 netns "$NS_VETH_RX" || return 1
	dev_up "$NS_VETH_TX" vb0 "$IP_VETH_TX" || return 1
	dev_up "$NS_VETH_RX" vb1 "$IP_VETH_RX"
}

# Per path: sending namespace, receiving namespace, receiver address,
# receiving device.
path_vars() {
	case "$1" in
	fabric)
		tx_ns=$NS_FAB_TX rx_ns=$NS_FAB_RX dst=$IP_FAB_RX rx_dev=${FAB}n1
		;;
	veth)
		tx_ns=$NS_VETH_TX rx_ns=$NS_VETH_RX dst=$IP_VETH_RX rx_dev=vb1
		;;
	esac
}

# One iperf2 server per path for the whole benchmark; each client run
# appends one CSV report line to $TMPD/srv.PATH.
start_server() {
	path_vars "$1"
	: >"$TMPD/srv.$1"
	ip netns exec "$rx_ns" iperf -s -u -B "$dst" -l 2048 -y C >"$TMPD/srv.$1" 2>"$TMPD/srv.$1.err" &
	PIDS="$PIDS $!"
}

rx_packets() {
	ip -n "$1" -s -j link show dev "$2" | jq '.[0].stats64.rx.packets'
}

# udp_run PATH SIZE: one run; sets $pps (received by the socket, per
# second of the server's report), $sent (by the client), $dev_rx (frames
# the receiving device got) and $sock_rx (datagrams the socket got), or
# returns 1.
udp_run() {
	path_vars "$1"
	lines=$(wc -l <"$TMPD/srv.$1")
	rx0=$(rx_packets "$rx_ns" "$rx_dev")
	ip netns exec "$tx_ns" iperf -c "$dst" -u -b 10G -l "$2" \
		-t "$SECS" >"$TMPD/cli" 2>&1
	# The server writes its report once the client's last datagram is in.
	i=0
	while [ "$(wc -l <"$TMPD/srv.$1")" -le "$lines" ]; do
		i=$((i + 1))
		[ "$i" -le 100 ] || {
			note "no server report for $1 $2 B; client said:"
			sed 's/^/#   /' "$TMPD/cli"
			return 1
		}
		sleep 0.1
	done
	# timestamp,src,sport,dst,dport,id,interval,bytes,bps,jitter,lost,total,...
	pps=$(tail -n 1 "$TMPD/srv.$1" | awk -F, '{
		split($7, t, "-"); secs = t[2] - t[1]
		if (secs <= 0 || $12 <= 0) { print "nan"; exit }
		printf "%.0f\n", ($12 - $11) / secs }')
	dev_rx=$(($(rx_packets "$rx_ns" "$rx_dev") - rx0))
	sent=$(sed -n 's/.*Sent \([0-9]*\) datagrams.*/\1/p' "$TMPD/cli" | tail -n 1)
	sock_rx=$(tail -n 1 "$TMPD/srv.$1" | awk -F, '{ print $12 - $11 }')
	[ "$pps" != nan ]
}

bench_udp() {
	setup_fabric || die "cannot set up the 4x4 torus with nodes in namespaces"
	setup_veth || die "cannot set up the veth pair"
	for path in $PATHS; do
		path_vars "$path"
		# Warm up ARP, and check that the path works at all.
		ip netns exec "$tx_ns" ping -c 2 -i 0.2 -W 5 "$dst" >"$TMPD/ping" 2>&1 || {
			sed 's/^/# /' "$TMPD/ping"
			die "ping over $path fails"
		}
		note "$path: $(ip -n "$tx_ns" -o link show | grep -v ' lo:' |
			sed -n 's/.* qdisc \([^ ]*\).*/qdisc \1/p' | head -n 1) on the sender"
		start_server "$path"
	done
	sleep 1

	for run in $(seq "$RUNS"); do
		for size in $SIZES; do
			for path in $PATHS; do
				if udp_run "$path" "$size"; then
					echo "$pps" >>"$TMPD/pps.$path.$size"
					echo "$run $pps" >>"$TMPD/run.$path.$size"
					note "$path $size B run $run: $pps pps received" \
						"(sent $sent, device got $dev_rx, socket got $sock_rx)"
				else
					note "$path $size B run $run: failed"
				fi
			done
		done
	done

	for size in $SIZES; do
		f=$(median <"$TMPD/pps.fabric.$size" 2>/dev/null)
		v=$(median <"$TMPD/pps.veth.$size" 2>/dev/null)
		echo "vm.udp.fabric.${size}B.pps: ${f:-nan} pps"
		echo "vm.udp.veth.${size}B.pps: ${v:-nan} pps"
		awk -v f="${f:-nan}" -v v="${v:-nan}" -v s="$size" 'BEGIN {
			if (f == "nan" || v == "nan" || v == 0) r = "nan"
			else r = sprintf("%.2f", f / v)
			printf "vm.udp.ratio.%sB: %s x (fabric/veth)\n", s, r }'
		# The same from back-to-back runs (fabric then veth): less
		# sensitive to slow phases of a loaded host.
		r=$(awk 'NR == FNR { fab[$1] = $2; next }
			($1 in fab) && $2 > 0 { printf "%.4f\n", fab[$1] / $2 }' \
			"$TMPD/run.fabric.$size" "$TMPD/run.veth.$size" 2>/dev/null | median)
		awk -v r="$r" -v s="$size" 'BEGIN {
			printf "vm.udp.ratio_paired.%sB: %s x (median of per-run fabric/veth)\n",
				s, r == "nan" ? r : sprintf("%.2f", r) }'
	done

	# Lossless fabric: nothing should have been dropped or deadlocked.
	# Sum the fabric-wide sections only ("engine:" and "total:").
	wormctl stats "$FAB" >"$TMPD/stats" 2>&1 &&
		note "fabric counters: $(awk '/^[a-z]/ { sec = $1; next }
			(sec == "engine:" || sec == "total:") &&
			$1 ~ /^(drop_|deadlocks|route_errors)/ && $2 > 0 {
				sub(":", "", $1); printf "%s %s ", $1, $2; bad = 1 }
			END { if (!bad) printf "no drops, deadlocks or route errors" }' \
			"$TMPD/stats"); $(awk '/worms_done/ { print $2; exit }' "$TMPD/stats")" \
			"worms done"
}

# ================================================================ (c) memory

# kernel memory figures (KiB) after dropping caches:
# "MemFree Slab SUnreclaim VmallocUsed Percpu KernelStack PageTables"
mem_snapshot() {
	sync
	echo 3 >/proc/sys/vm/drop_caches
	awk '/^(MemFree|Slab|SUnreclaim|VmallocUsed|Percpu|KernelStack|PageTables):/ {
		v[$1] = $2 }
		END { print v["MemFree:"], v["Slab:"], v["SUnreclaim:"],
			v["VmallocUsed:"], v["Percpu:"], v["KernelStack:"],
			v["PageTables:"] }' /proc/meminfo
}

# mem_delta BEFORE AFTER: "kernel memfree slab vmalloc percpu" in KiB:
# kernel is the growth of what /proc/meminfo accounts to the kernel (Slab,
# which includes kmalloc's large page allocations, VmallocUsed, Percpu,
# KernelStack, PageTables); memfree is the fall of MemFree, a cross-check
# that also moves with pages parked on per-cpu free lists.
mem_delta() {
	echo "$1 $2" | awk '{
		slab = $9 - $2; vm = $11 - $4; pcpu = $12 - $5
		printf "%d %d %d %d %d\n", slab + vm + pcpu + ($13 - $6) + ($14 - $7),
			$1 - $8, slab, vm, pcpu }'
}

# Slab caches that grew most between two /proc/slabinfo copies (KiB).
slab_growth() {
	awk 'NR == FNR { if (FNR > 2) was[$1] = $3 * $4; next }
		FNR > 2 { d = ($3 * $4 - was[$1]) / 1024
			if (d >= 64) printf "%s %.0f\n", $1, d }' "$1" "$2" |
		sort -k2,2nr | head -n 8 | awk '{ printf "%s%s %s KiB", sep, $1, $2; sep = ", " }'
}

# The devices of a fabric of N nodes, without the fabric: N + 1 dummy
# devices (N nodes and the fabric device) in a namespace of their own,
# created beforehand (the namespace's own cost is not the devices').
dummies_add() {
	i=0
	while [ "$i" -le "$1" ]; do
		echo "link add wcbd$i group 77 type dummy"
		i=$((i + 1))
	done >"$TMPD/dummies"
	ip -n "$NS_DUMMY" -batch "$TMPD/dummies"
}

# One batched unregistration (device group), synchronous, unlike deleting
# the namespace (cleanup_net runs later, in a work queue).
dummies_del() {
	ip -n "$NS_DUMMY" link del group 77 &&
		ip netns del "$NS_DUMMY" &&
		sleep 2
}

# col N FILE: median of column N of FILE.
col() {
	cut -d' ' -f"$1" "$2" | median
}

bench_mem() {
	# The first creation grows caches the kernel keeps afterwards (per-cpu
	# chunks, slab pages): create and delete each kind once, unmeasured
	# except for the per-cpu memory, which only shows then.
	modprobe dummy 2>/dev/null
	for dims in $MEM_DIMS; do
		a=$(mem_snapshot)
		ip link add "$MEMFAB" type wormcast topology torus dims "$dims" ||
			die "cannot create a $dims torus"
		b=$(mem_snapshot)
		ip link del "$MEMFAB"
		note "torus $dims first creation: Percpu +$(mem_delta "$a" "$b" | cut -d' ' -f5) KiB"
		n=$(echo "$dims" | awk -Fx '{ print $1 * $2 }')
		if ! ip netns add "$NS_DUMMY" || ! dummies_add "$n"; then
			die "cannot create $n dummy devices"
		fi
		dummies_del
	done

	for dims in $MEM_DIMS; do
		n=$(echo "$dims" | awk -Fx '{ print $1 * $2 }')
		: >"$TMPD/fab" && : >"$TMPD/dum"
		for run in $(seq "$MEM_RUNS"); do
			a=$(mem_snapshot)
			cp /proc/slabinfo "$TMPD/slab0"
			ip link add "$MEMFAB" type wormcast topology torus dims "$dims" ||
				die "cannot create a $dims torus"
			b=$(mem_snapshot)
			cp /proc/slabinfo "$TMPD/slab1"
			ip link del "$MEMFAB"
			sleep 2
			c=$(mem_snapshot)
			d=$(mem_delta "$a" "$b")
			echo "$d" >>"$TMPD/fab"
			echo "$d" | awk -v t="torus $dims run $run" -v back="$(mem_delta "$a" "$c")" '{
				split(back, k, " ")
				printf "# %s: kernel +%d KiB (Slab +%d, VmallocUsed +%d, Percpu +%d), MemFree -%d KiB; %d KiB not freed by ip link del\n",
					t, $1, $3, $4, $5, $2, k[1] }'
			[ "$run" != 1 ] ||
				note "torus $dims slab caches grown: $(slab_growth "$TMPD/slab0" "$TMPD/slab1")"

			ip netns add "$NS_DUMMY" || die "cannot add namespace $NS_DUMMY"
			a=$(mem_snapshot)
			dummies_add "$n" || die "cannot create $n dummy devices"
			b=$(mem_snapshot)
			dummies_del
			d=$(mem_delta "$a" "$b")
			echo "$d" >>"$TMPD/dum"
			echo "$d" | awk -v t="$((n + 1)) dummy devices run $run" '{
				printf "# %s: kernel +%d KiB (Slab +%d), MemFree -%d KiB\n", t, $1, $3, $2 }'
		done
		tag=torus$dims
		fab=$(col 1 "$TMPD/fab")
		dum=$(col 1 "$TMPD/dum")
		echo "vm.mem.$tag.kernel: $fab KiB"
		echo "vm.mem.$tag.slab: $(col 3 "$TMPD/fab") KiB"
		echo "vm.mem.$tag.vmalloc: $(col 4 "$TMPD/fab") KiB"
		echo "vm.mem.$tag.memfree_drop: $(col 2 "$TMPD/fab") KiB"
		echo "vm.mem.$tag.netdevs: $dum KiB ($((n + 1)) dummy devices)"
		awk -v f="$fab" -v d="$dum" -v n="$n" -v t="$tag" 'BEGIN {
			printf "vm.mem.%s.per_netdev: %.1f KiB\n", t, d / (n + 1)
			printf "vm.mem.%s.engine_fabric: %d KiB (kernel - netdevs)\n", t, f - d
			printf "vm.mem.%s.kernel_mib: %.2f MiB\n", t, f / 1024 }'
	done
}

# ================================================================ multicast

MC_FAB=wcmc		# nodes wcmcn0..wcmcn63, node N in namespace wcmc-N
MC_BR_NS=wcmc-br	# the bridge's namespace; veth peers in wcmc-vN
MC_GROUP=239.1.1.1
# the fabric under two schemes, NAPI threaded or not, and the bridge
MC_PATHS=${WC_BENCH_MCAST_PATHS:-dstm-1 unicast dstm-1-softirq unicast-softirq bridge}
MC_PORT=5100
MC_PIDS=""
MC_SRC=0		# the sending node

mcast_teardown() {
	stop_pids $MC_PIDS
	MC_PIDS=""
	for ns in $(ip netns list 2>/dev/null | awk '/^wcmc-/ { print $1 }'); do
		ip netns del "$ns"
	done
	ip link del "$MC_FAB" 2>/dev/null
	return 0
}

# mc_ns NAME DEV ADDR: namespace NAME holding DEV with ADDR/16, up, and a
# multicast route through it (one ip process: under TCG each costs).
mc_ns() {
	printf 'link set lo up\naddr add %s/16 dev %s\nlink set %s up\nroute add 224.0.0.0/4 dev %s\n' \
		"$3" "$2" "$2" "$2" | ip -n "$1" -batch -
}

# The table generation of fabric $1 (0 until the daemon committed one).
mc_table_gen() {
	wormctl -j fabric show "$1" 2>/dev/null | jq -r '.[0].table_gen // 0'
}

# mc_fabric SCHEME NODES LINKARGS...: a fabric of NODES nodes (ip link
# add ... LINKARGS) with every node in its own namespace; for a table
# scheme, wormcastd pushes the table and we wait for it.
mc_fabric() {
	_scheme=$1 _nodes=$2
	shift 2
	ip link add "$MC_FAB" type wormcast "$@" multicast "$_scheme" || return 1
	# namespaces and moves in one ip process (it returns to its own
	# namespace after each "netns add")
	for n in $(seq 0 $((_nodes - 1))); do
		echo "netns add wcmc-$n"
		echo "link set ${MC_FAB}n$n netns wcmc-$n"
	done | ip -batch - || return 1
	for n in $(seq 0 $((_nodes - 1))); do
		mc_ns "wcmc-$n" "${MC_FAB}n$n" "10.80.$((n / 200)).$((n % 200 + 1))" ||
			return 1
	done
	[ "$_scheme" = unicast ] && return 0
	"${WC_BUILD:-$WC_ROOT/build}/wormcastd" >"$TMPD/wormcastd.log" 2>&1 &
	MC_PIDS="$MC_PIDS $!"
	i=0
	while [ "$(mc_table_gen "$MC_FAB")" = 0 ]; do
		i=$((i + 1))
		[ "$i" -le 600 ] || {
			sed 's/^/# wormcastd: /' "$TMPD/wormcastd.log"
			return 1
		}
		sleep 0.1
	done
	note "wormcastd: $(tail -n 1 "$TMPD/wormcastd.log")"
}

# mc_bridge: a bridge with IGMP snooping (and a querier) in its own
# namespace, 64 veth ports, the other ends in namespaces wcmc-v0..63.
mc_bridge() {
	ip netns add "$MC_BR_NS" || return 1
	ip -n "$MC_BR_NS" link add br0 type bridge mcast_snooping 1 \
		mcast_querier 1 || return 1
	ip -n "$MC_BR_NS" link set br0 up
	for n in $(seq 0 63); do
		ip netns add "wcmc-v$n" &&
			ip -n "$MC_BR_NS" link add "p$n" type veth peer name eth0 \
				netns "wcmc-v$n" &&
			ip -n "$MC_BR_NS" link set "p$n" master br0 up &&
			mc_ns "wcmc-v$n" eth0 "10.81.$((n / 200)).$((n % 200 + 1))" ||
			return 1
	done
}

# The namespace and device of member N of the path in $path.
mc_ns_of() {
	case $path in
	bridge) echo "wcmc-v$1" ;;
	*) echo "wcmc-$1" ;;
	esac
}

mc_dev_of() {
	case $path in
	bridge) echo eth0 ;;
	*) echo "${MC_FAB}n$1" ;;
	esac
}

# mc_join MEMBERS...: a socket joined to the group in each member's
# namespace: read by socat (sink=read), or held unread (sink=join; once
# its buffer is full the socket drops, after the device counted the
# datagram) by one python3 that enters each namespace in turn and tells
# when all have joined: one process per member, 119 of them starting at
# once, starved the TCG guest's RCU kthread into a stall report.
mc_join() {
	if [ "$MCAST_SINK" = read ]; then
		for n in "$@"; do
			ip netns exec "$(mc_ns_of "$n")" socat -u \
				"UDP4-RECV:$MC_PORT,ip-add-membership=$MC_GROUP:$(mc_dev_of "$n")" \
				/dev/null 2>>"$TMPD/socat.log" &
			MC_PIDS="$MC_PIDS $!"
		done
		return
	fi
	# shellcheck disable=SC2046 # one word per member
	set -- $(for n in "$@"; do echo "$(mc_ns_of "$n"):$(mc_dev_of "$n")"; done)
	rm -f "$TMPD/joined"
	python3 -c '
import ctypes, os, signal, socket, struct, sys
libc = ctypes.CDLL(None, use_errno=True)
group, port, ready = sys.argv[1], int(sys.argv[2]), sys.argv[3]
socks = []
for arg in sys.argv[4:]:
	ns, dev = arg.split(":")
	fd = os.open("/run/netns/" + ns, os.O_RDONLY)
	if libc.setns(fd, 0x40000000) != 0:	# CLONE_NEWNET
		sys.exit("setns %s: %s" % (ns, os.strerror(ctypes.get_errno())))
	os.close(fd)
	s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
	s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
	s.bind(("", port))
	ifidx = socket.if_nametoindex(dev)
	s.setsockopt(socket.IPPROTO_IP, socket.IP_ADD_MEMBERSHIP,
		     struct.pack("4s4si", socket.inet_aton(group), b"\0" * 4, ifidx))
	socks.append(s)
open(ready, "w").close()
signal.pause()' "$MC_GROUP" "$MC_PORT" "$TMPD/joined" "$@" 2>>"$TMPD/socat.log" &
	MC_PIDS="$MC_PIDS $!"
	i=0
	until [ -e "$TMPD/joined" ]; do
		i=$((i + 1))
		[ "$i" -le 1200 ] || die "members not joined after 120 s: $(tail -n 3 "$TMPD/socat.log")"
		kill -0 "$!" 2>/dev/null ||
			die "joining the members failed: $(tail -n 3 "$TMPD/socat.log")"
		sleep 0.1
	done
}

# mc_rx_sum MEMBERS...: frames the members' devices received: from the
# fabric's per-node rx_frames (what it delivered to each node device) in
# one wormctl process, or, through the bridge, each device's counter.
mc_rx_sum() {
	if [ "$path" != bridge ]; then
		wormctl -j stats "$MC_FAB" | jq --arg m "$*" '($m | split(" ") |
			map(tonumber)) as $ids | [.[0].per_node[] |
			select(.node as $n | any($ids[]; . == $n)) |
			.counters.rx_frames] | add'
		return
	fi
	sum=0
	for n in "$@"; do
		sum=$((sum + $(rx_packets "$(mc_ns_of "$n")" "$(mc_dev_of "$n")")))
	done
	echo "$sum"
}

# (WC_BENCH_FTRACE=1) The guest kernel (Debian's) has no function
# profiler and no PMU under TCG, but has the function_graph tracer: it
# traces these functions (those that exist) with their inclusive
# durations; mc_ftrace_report sums them per function.  Per datagram:
# wc_submit; per copy: wc_op_deliver, netif_receive_skb.
MC_FTRACE_FUNCS="wc_poll wc_inject wc_submit wc_engine_submit wc_engine_run
wc_deliver wc_op_deliver wc_op_msg_done wc_fabric_xmit netif_receive_skb
net_rx_action udp_sendmsg ip_mc_output wc_dstm_encode __kmalloc kfree"
TRACEFS=/sys/kernel/tracing

mc_ftrace_start() {
	[ "$FTRACE" = 1 ] || return 0
	[ -e "$TRACEFS/trace" ] || mount -t tracefs nodev "$TRACEFS" ||
		die "WC_BENCH_FTRACE: no tracefs"
	echo 0 >"$TRACEFS/tracing_on"
	echo nop >"$TRACEFS/current_tracer"
	: >"$TRACEFS/set_ftrace_filter"
	for fn in $MC_FTRACE_FUNCS; do
		echo "$fn" >>"$TRACEFS/set_ftrace_filter" 2>/dev/null
	done
	echo 32768 >"$TRACEFS/buffer_size_kb"
	echo function_graph >"$TRACEFS/current_tracer"
	for o in funcgraph-tail funcgraph-abstime; do
		echo 1 >"$TRACEFS/options/$o"
	done
	: >"$TRACEFS/trace"
	mc_cpu0=$(awk '/^cpu / { print $2 + $3, $4, $7, $8, $5 }' /proc/stat)
	echo 1 >"$TRACEFS/tracing_on"
}

# mc_ftrace_report LABEL: the run's CPU split (jiffies of both vCPUs) and
# the traced functions by inclusive time: calls, total and mean, with
# the events the ring buffer lost.
mc_ftrace_report() {
	[ "$FTRACE" = 1 ] || return 0
	echo 0 >"$TRACEFS/tracing_on"
	awk -v a="$mc_cpu0" -v l="$1" '/^cpu / {
		split(a, o, " ")
		printf "# ftrace %s: jiffies user %d, system %d, softirq %d, irq %d, idle %d\n",
			l, $2 + $3 - o[1], $4 - o[2], $7 - o[3], $8 - o[4], $5 - o[5] }' /proc/stat
	lost=$(awk '/^overrun:/ { s += $2 } END { print s + 0 }' \
		"$TRACEFS"/per_cpu/cpu*/stats)
	awk -F'|' -v l="$1" -v lost="$lost" '
	NF >= 3 {
		t = $NF
		# "} /* fn */" or "fn();", module functions as "fn [mod]"
		if (match(t, /\} \/\* [A-Za-z0-9_.]+/))
			fn = substr(t, RSTART + 5, RLENGTH - 5)
		else if (match(t, /[A-Za-z0-9_.]+( \[[A-Za-z0-9_]+\])?\(\);/))
			fn = substr(t, RSTART, RLENGTH - 3)
		else
			next
		sub(/ .*/, "", fn)
		if (!match($(NF - 1), /[0-9.]+ us/))
			next
		us = substr($(NF - 1), RSTART, RLENGTH - 3) + 0
		ts = $1 + 0
		if (!first) first = ts
		last = ts
		n[fn]++
		sum[fn] += us
	}
	END {
		printf "1e18\t# ftrace %s: %.2f s traced, %d events lost\n",
			l, last - first, lost
		for (fn in n)
			printf "%d\t# ftrace %s: %-18s %8d calls %10.0f us %8.2f us/call\n",
				sum[fn], l, fn, n[fn], sum[fn], sum[fn] / n[fn]
	}' "$TRACEFS/trace" | sort -g -r | cut -f 2-
	echo nop >"$TRACEFS/current_tracer"
	: >"$TRACEFS/set_ftrace_filter"
}

# The CPU time of both vCPUs and of the fabric's NAPI kthreads, in
# jiffies: mc_cpu_start before a run, mc_cpu_report LABEL after it notes
# how it was split (who had a vCPU to itself, who waited).
mc_cpu_snap() {
	awk '/^cpu / { printf "all %d %d %d %d\n", $2 + $3, $4 + $7 + $8, $5, $6 }' /proc/stat
	for d in /proc/[0-9]*; do
		read -r comm <"$d/comm" 2>/dev/null || continue
		case $comm in
		napi/*) awk -v c="$comm" '{ sub(/^.*\) /, ""); print c, $12 + $13 }' \
			"$d/stat" 2>/dev/null ;;
		esac
	done
}

mc_cpu_start() {
	mc_cpu_snap >"$TMPD/mc.cpu0"
}

mc_cpu_report() {
	mc_cpu_snap | awk -v l="$1" 'NR == FNR { a[$1] = $0; next }
	$1 == "all" { split(a["all"], o, " ")
		line = sprintf("user %d, system+irq %d, idle %d", $2 - o[2], $3 - o[3], $4 - o[4])
		next }
	{ split(a[$1], o, " "); if ($2 - o[2] > 0) t = t sprintf(", %s %d", $1, $2 - o[2]) }
	END { printf "# cpu %s: jiffies %s%s\n", l, line, t }' "$TMPD/mc.cpu0" -
}

# mc_run MEMBERS...: one run from node $MC_SRC's namespace (member 0 of
# the bridge under the bridge); sets $rate, the
# datagrams each member's device got per second of sending (what is still
# queued in the fabric when the sender stops is counted after a second).
mc_run() {
	r0=$(mc_rx_sum "$@")
	mc_cpu_start
	mc_ftrace_start
	ip netns exec "$(mc_ns_of "$MC_SRC")" iperf -c "$MC_GROUP" -p "$MC_PORT" -u \
		-b 10G -l "$bytes" -T 1 -t "$SECS" >"$TMPD/mc.cli" 2>&1
	mc_cpu_report "$path, $# members, $bytes B"
	sleep 1
	mc_ftrace_report "$path, $# members, $bytes B"
	r1=$(mc_rx_sum "$@")
	rate=$(awk -v d=$((r1 - r0)) -v m=$# -v s="$SECS" \
		'BEGIN { printf "%.0f\n", d / m / s }')
}

# A note with the multicast fabric's totals that moved: frames, worms,
# fallbacks and drops.
mc_totals() {
	wormctl stats "$MC_FAB" >"$TMPD/mc.stats" 2>&1 &&
		note "fabric totals: $(awk '/^total:/ { t = 1; next } /^[a-z]/ { t = 0 }
			t && ($1 == "tx_frames:" || $1 == "worms_injected:" ||
			$1 == "table_fallback:" || $1 ~ /^drop_/) && $2 > 0 {
				printf "%s %s ", $1, $2 }' "$TMPD/mc.stats")"
}

# mc_fabric_mode PATH: the fabric's scheme and NAPI mode for PATH
# (SCHEME, or SCHEME-softirq for its NAPI not threaded).
mc_fabric_mode() {
	case $1 in
	*-softirq) echo 0 ;;
	*) echo 1 ;;
	esac >"/sys/class/net/$MC_FAB/threaded" &&
		wormctl fabric set "$MC_FAB" multicast "${1%-softirq}"
}

bench_mcast() {
	mcast_teardown
	MC_SRC=0
	mc_fabric dstm-1 64 topology torus dims 8x8 ||
		die "cannot set up the 8x8 torus under dstm-1"
	mc_bridge || die "cannot set up the bridge"
	for m in $MCAST_MEMBERS; do
		members=$(seq 1 "$m")
		for path in dstm-1 bridge; do
			mc_join $members
		done
		sleep 2	# IGMP reports, snooping
		for bytes in $MCAST_BYTES; do
			for path in $MC_PATHS; do
				: >"$TMPD/mc.$path.$m.$bytes"
			done
			# the paths side by side, run after run: drift hits all
			# alike; run 0 is a warm-up, not counted (the first runs
			# after the members joined were slower on every path)
			for run in 0 $(seq "$RUNS"); do
				for path in $MC_PATHS; do
					[ "$path" = bridge ] || mc_fabric_mode "$path" ||
						die "cannot switch $MC_FAB to $path"
					mc_run $members
					if [ "$run" = 0 ]; then
						note "$path, $m members, $bytes B, warm-up (not counted): $rate datagrams/s per member"
						continue
					fi
					echo "$rate" >>"$TMPD/mc.$path.$m.$bytes"
					note "$path, $m members, $bytes B, run $run: $rate datagrams/s per member"
				done
			done
			for path in $MC_PATHS; do
				echo "vm.mcast.$(echo "$path" | tr -d -).${m}members.${bytes}B: $(median <"$TMPD/mc.$path.$m.$bytes") datagrams/s per member"
			done
		done
		for p in $MC_PIDS; do
			case $(cat /proc/"$p"/comm 2>/dev/null) in
			socat | python3) kill "$p" ;;
			esac
		done
	done
	mc_totals
	mcast_teardown
	for m in $MCAST_MEMBERS; do
		for bytes in $MCAST_BYTES; do
			for mode in "" -softirq; do
				mc_ratio "$m" "$bytes" "dstm-1$mode" "unicast$mode"
				mc_ratio "$m" "$bytes" "dstm-1$mode" bridge
			done
			mc_ratio "$m" "$bytes" dstm-1 dstm-1-softirq
		done
	done
}

# mc_ratio M BYTES A B: the ratio of path A's median to path B's, if both ran.
mc_ratio() {
	[ -s "$TMPD/mc.$3.$1.$2" ] && [ -s "$TMPD/mc.$4.$1.$2" ] || return 0
	awk -v a="$(median <"$TMPD/mc.$3.$1.$2")" \
		-v b="$(median <"$TMPD/mc.$4.$1.$2")" \
		-v m="$1" -v by="$2" -v pa="$3" -v pb="$4" 'BEGIN {
		printf "vm.mcast.ratio.%smembers.%sB: %s/%s %.2f x\n",
			m, by, pa, pb, (b > 0 ? a / b : 0) }'
}

# ================================================================ (star)

# A fabric-wide counter of the multicast fabric (wormctl -j stats).
mc_counter() {
	wormctl -j stats "$MC_FAB" |
		jq "first(.. | objects | select(has(\"counters\"))) | .counters.$1"
}

# mc_quiet MEMBERS...: wait until the members' received count stops
# moving for a second (what a paced fabric still holds from the last run
# must not count in the next one); at most 120 s.
mc_quiet() {
	prev=$(mc_rx_sum "$@")
	i=0
	while sleep 1 && cur=$(mc_rx_sum "$@") && [ "$cur" != "$prev" ]; do
		prev=$cur
		i=$((i + 1))
		[ "$i" -le 120 ] || die "the fabric still delivers after 120 s"
	done
}

# Datagrams per second from one sender to STAR_MEMBERS members of a group
# on a 5-star (issue 9, item 5) under each of STAR_SCHEMES: star-tree (the
# labels table pushed by wormcastd), the label path schemes and multiphase
# on the same labels, and unicast, one fabric switched between them
# (wormctl fabric set; the labels table stays installed), run after run.
# The sender is node 79 (label 59), so the two worms of a frame carry 60
# and 59 destination labels at 119 members.  star-tree replicates
# asynchronously and wants buffers that hold a whole worm: buf_flits 64
# (the most the kernel takes) and flit_bytes 128, so that a worm of 60
# header flits, one data flit and the tail fits; hence STAR_BYTES at most
# 128 - 42 (Ethernet, IPv4, UDP headers).  For each of STAR_CYCLE_NS: in
# virtual time (cycle_ns 0) the host's CPU bounds both schemes (every
# worm, flit and delivered copy is work for the same two vCPUs); paced
# (cycle_ns 25000: 40,000 cycles a second) the emulated links bound them,
# as in the star paper's network.  Each run starts on a quiet fabric
# (mc_quiet); the rate is mc_run's (deliveries up to a second after the
# sender stops, per second of sending, per member).
bench_star() {
	mcast_teardown
	MC_SRC=79
	mc_fabric star-tree 120 topology star n 5 replication async \
		buf_flits 64 flit_bytes 128 ||
		die "cannot set up the 5-star under star-tree"
	members=$(seq 0 119 | grep -vx "$MC_SRC" | head -n "$STAR_MEMBERS")
	m=$STAR_MEMBERS
	path=star-tree
	mc_join $members
	sleep 2	# IGMP reports
	bytes=$STAR_BYTES
	for cns in $STAR_CYCLE_NS; do
		wormctl fabric set "$MC_FAB" cycle_ns "$cns" ||
			die "cannot set cycle_ns $cns"
		for path in $STAR_SCHEMES; do
			: >"$TMPD/st.$path.$cns"
		done
		for run in $(seq "$RUNS"); do
			for path in $STAR_SCHEMES; do
				wormctl fabric set "$MC_FAB" multicast "$path" ||
					die "cannot switch $MC_FAB to $path"
				mc_quiet $members
				f0=$(mc_counter table_fallback) w0=$(mc_counter worms_injected)
				t0=$(mc_counter tx_frames)
				mc_run $members
				fb=$(($(mc_counter table_fallback) - f0))
				tx=$(($(mc_counter tx_frames) - t0))
				w=$(($(mc_counter worms_injected) - w0))
				echo "$rate" >>"$TMPD/st.$path.$cns"
				note "cycle_ns $cns, $path, $m members, $bytes B, run $run:" \
					"$rate datagrams/s per member ($(awk -v r="$rate" -v m="$m" \
					'BEGIN { printf "%.0f", r * m }') deliveries/s; $tx frames," \
					"$w worms, $fb by the fallback)"
			done
		done
	done
	mc_totals
	mcast_teardown
	for cns in $STAR_CYCLE_NS; do
		u=$(median <"$TMPD/st.unicast.$cns")
		tag="${m}members.${bytes}B.cycle_ns$cns"
		for path in $STAR_SCHEMES; do
			s=$(median <"$TMPD/st.$path.$cns")
			echo "vm.star.$(echo "$path" | tr -d -).$tag: $s datagrams/s per member"
			[ "$path" = unicast ] && continue
			awk -v s="$s" -v u="$u" -v t="$tag" -v p="$path" 'BEGIN {
				r = "nan"
				if (u > 0) r = sprintf("%.2f", s / u)
				printf "vm.star.ratio.%s: %s/unicast %s x\n", t, p, r }'
		done
	done
}


# ================================================================ RTNL

# Milliseconds since the epoch.
now_ms() {
	echo $(($(date +%s%N) / 1000000))
}

# How long creating and deleting a fabric holds RTNL: "ip link add" and
# "ip link del" take it for (almost) all of their run.  Beside it, the same
# number of dummy devices created in one "ip -batch" (RTNL taken per
# device) and deleted as one group: the kernel's own cost of that many
# net devices, to read the TCG-inflated figures against.
bench_rtnl() {
	for dims in $RTNL_DIMS; do
		n=$(echo "$dims" | awk -Fx '{ print $1 * $2 }')
		: >"$TMPD/add" && : >"$TMPD/del" && : >"$TMPD/dadd" && : >"$TMPD/ddel"
		for run in $(seq "$MEM_RUNS"); do
			t0=$(now_ms)
			ip link add "$MEMFAB" type wormcast topology torus dims "$dims" ||
				die "cannot create a $dims torus"
			t1=$(now_ms)
			ip link del "$MEMFAB"
			t2=$(now_ms)
			echo $((t1 - t0)) >>"$TMPD/add"
			echo $((t2 - t1)) >>"$TMPD/del"
			ip netns add "$NS_DUMMY" || die "cannot add namespace $NS_DUMMY"
			t0=$(now_ms)
			dummies_add $((n - 1)) || die "cannot create $n dummy devices"
			t1=$(now_ms)
			ip -n "$NS_DUMMY" link del group 77
			t2=$(now_ms)
			ip netns del "$NS_DUMMY"
			echo $((t1 - t0)) >>"$TMPD/dadd"
			echo $((t2 - t1)) >>"$TMPD/ddel"
			note "torus $dims run $run: add $(tail -n 1 "$TMPD/add") ms, del $(tail -n 1 "$TMPD/del") ms; $n dummies: add $(tail -n 1 "$TMPD/dadd") ms, del $(tail -n 1 "$TMPD/ddel") ms"
		done
		tag=torus$dims
		echo "vm.rtnl.$tag.add: $(median <"$TMPD/add") ms"
		echo "vm.rtnl.$tag.del: $(median <"$TMPD/del") ms"
		echo "vm.rtnl.$tag.dummies_add: $(median <"$TMPD/dadd") ms ($n devices)"
		echo "vm.rtnl.$tag.dummies_del: $(median <"$TMPD/ddel") ms"
	done
}

# ================================================================ (tables)

bench_tables() {
	: >"$TMPD/tc" && : >"$TMPD/tp"
	for run in $(seq "$MEM_RUNS"); do
		ip link add "$MEMFAB" type wormcast topology torus dims 70x70 \
			multicast dstm-1 || die "cannot create a 70x70 torus"
		"${WC_BUILD:-$WC_ROOT/build}/wormcastd" >"$TMPD/wd.log" 2>&1 &
		pid=$!
		log_wait "$TMPD/wd.log" "push: fabric $MEMFAB "
		kill "$pid"
		wait "$pid" 2>/dev/null
		line=$(grep "push: fabric $MEMFAB " "$TMPD/wd.log" | head -n 1)
		note "run $run: $line"
		echo "$line" | sed -n 's/.* compute \([0-9.]*\) ms.*/\1/p' >>"$TMPD/tc"
		echo "$line" | sed -n 's/.* push \([0-9.]*\) ms.*/\1/p' >>"$TMPD/tp"
		ip link del "$MEMFAB"
	done
	echo "vm.tables.dstm1_70x70.compute: $(median <"$TMPD/tc") ms"
	echo "vm.tables.dstm1_70x70.push_validate_commit: $(median <"$TMPD/tp") ms"
}

# ================================================================ (dstset)

ds_rx() {
	ip -n "$NS_MC" -s -j link show | jq '[.[] | select(.ifname |
		test("^wcmcn[1-4]$")) | .stats64.rx.packets] | add'
}

bench_dstset() {
	for dims in 8x8 32x32; do
		n=$(echo "$dims" | awk -Fx '{ print $1 * $2 }')
		ip netns add "$NS_MC" || die "cannot add namespace $NS_MC"
		ip netns exec "$NS_MC" sysctl -qw net.ipv6.conf.default.disable_ipv6=1 \
			net.ipv6.conf.all.disable_ipv6=1
		ip -n "$NS_MC" link add wcmc type wormcast topology torus dims "$dims" ||
			die "cannot create a $dims torus"
		seq 0 $((n - 1)) | sed 's/^/link set wcmcn/; s/$/ up/' |
			ip -n "$NS_MC" -batch - || die "cannot bring up the nodes"
		for i in 1 2 3 4; do
			ip -n "$NS_MC" maddr add 01:00:5e:7f:00:01 dev "wcmcn$i" ||
				die "cannot join"
		done
		: >"$TMPD/ds"
		for run in $(seq "$MEM_RUNS"); do
			want=$(($(ds_rx) + 4 * MC_FRAMES))
			t0=$(now_ms)
			ip netns exec "$NS_MC" python3 "$WC_ROOT/tests/selftests/rawsend.py" \
				wcmcn0 01:00:5e:7f:00:01 "$MC_FRAMES" ||
				die "rawsend failed"
			while [ "$(ds_rx)" -lt "$want" ]; do
				[ $(($(now_ms) - t0)) -lt 120000 ] || die "frames missing"
				sleep 0.05
			done
			t1=$(now_ms)
			echo "$(((t1 - t0) * 1000000 / MC_FRAMES))" >>"$TMPD/ds"
			note "torus $dims run $run: $MC_FRAMES frames in $((t1 - t0)) ms"
		done
		drops=$(ip netns exec "$NS_MC" wormctl -j stats wcmc | jq 'first(.. |
			objects | select(has("counters"))) | .counters | [to_entries[] |
			select(.key | startswith("drop")) | .value] | add')
		echo "vm.dstset.torus$dims.ns_per_frame: $(median <"$TMPD/ds") ns ($n nodes, group of 4, drops $drops)"
		ip netns del "$NS_MC"
	done
}

# ================================================================ (plans)

# mon_start NS FILE: "wormctl monitor" in namespace NS, every notification
# stamped on arrival (CLOCK_REALTIME, ns, first field) into FILE; its pid
# in $mon (and in PIDS).
mon_start() {
	ip netns exec "$1" python3 -c '
import subprocess, sys, time
p = subprocess.Popen(["wormctl", "monitor"], stdout=subprocess.PIPE, bufsize=0)
for line in iter(p.stdout.readline, b""):   # unbuffered: as each comes
    print(time.time_ns(), line.decode(), end="", flush=True)
' >"$2" 2>&1 &
	mon=$!
	PIDS="$PIDS $mon"
}

# mon_until FILE PATTERN CMD...: run CMD every half second until the
# monitor's FILE shows PATTERN (it is listening), at most 120 times.
mon_until() {
	_file=$1 _pat=$2
	shift 2
	_i=0
	until grep -q "$_pat" "$_file"; do
		_i=$((_i + 1))
		[ "$_i" -le 120 ] || die "wormctl monitor shows nothing: $(cat "$_file")"
		"$@"
		sleep 0.5
	done
}

# wcd_start NS LOG: wormcastd in namespace NS, its output in LOG; sets
# $daemon.
wcd_start() {
	ip netns exec "$1" "${WC_BUILD:-$WC_ROOT/build}/wormcastd" >"$2" 2>&1 &
	daemon=$!
	PIDS="$PIDS $daemon"
}

pl_pushes() {
	grep -c "plans: fabric wcpl " "$TMPD/pl.log"
}


# bench_plans_one SCHEME MEMBERS: lazy planning on a 32x32 mesh, node 0
# sends to MEMBERS members.
bench_plans_one() {
	scheme=$1
	members=$2
	grp=01:00:5e:01:02:03
	rm -f "$TMPD/pl.ready"
	ip netns add "$NS_MC" || die "cannot add namespace $NS_MC"
	ip netns exec "$NS_MC" sysctl -qw net.ipv6.conf.default.disable_ipv6=1 \
		net.ipv6.conf.all.disable_ipv6=1
	ip -n "$NS_MC" link add wcpl type wormcast topology mesh dims 32x32 \
		multicast "$scheme" || die "cannot create a 32x32 mesh"
	seq 0 1023 | sed 's/^/link set wcpln/; s/$/ up/' |
		ip -n "$NS_MC" -batch - || die "cannot bring up the nodes"
	# one process joins every member (PACKET_ADD_MEMBERSHIP)
	ip netns exec "$NS_MC" python3 "$WC_ROOT/tests/selftests/rawsend.py" \
		join "$TMPD/pl.ready" "$grp" $(seq 1 "$members" | sed 's/^/wcpln/') &
	joiner=$!
	PIDS="$PIDS $!"
	i=0
	until [ -e "$TMPD/pl.ready" ]; do
		i=$((i + 1))
		[ "$i" -le 600 ] || die "the members did not join"
		sleep 0.1
	done
	mon_start "$NS_MC" "$TMPD/pl.mon"
	# until it listens (seconds under TCG): membership changes of the last
	# node in a group of its own, until one shows
	mon_until "$TMPD/pl.mon" " groups change " sh -c \
		"ip -n $NS_MC maddr add 01:00:5e:7f:7f:7f dev wcpln1023;
		ip -n $NS_MC maddr del 01:00:5e:7f:7f:7f dev wcpln1023"
	wcd_start "$NS_MC" "$TMPD/pl.log"
	log_wait "$TMPD/pl.log" "plans: fabric wcpl .*(0 reported sources)"
	t0=$(date +%s%N)
	ip netns exec "$NS_MC" python3 "$WC_ROOT/tests/selftests/rawsend.py" \
		wcpln0 "$grp" 1 || die "rawsend failed"
	log_wait "$TMPD/pl.log" "plans: fabric wcpl .*(1 reported sources)"
	note "first frame of node 0 to its plan installed: $((($(date +%s%N) - t0) / 1000000)) ms (polled): $(grep "(1 reported" "$TMPD/pl.log" | head -n 1)"
	dests=$(ip netns exec "$NS_MC" wormctl -j table show -v wcpl | jq "[.[] |
		select(.kind == \"plans\")][0].plans | map(select(.src == 0 and
		.group == \"$grp\"))[0].worms | [.[][]] | length")
	[ "$dests" = "$members" ] ||
		die "the plan of node 0 has $dests destinations, not $members"
	: >"$TMPD/pl.ev" && : >"$TMPD/pl.all" && : >"$TMPD/pl.plan"
	for run in $(seq "$MEM_RUNS"); do
		node=$((members + run))
		n0=$(pl_pushes)
		ts=$(date +%s%N)
		ip -n "$NS_MC" maddr add "$grp" dev "wcpln$node" || die "cannot join"
		i=0
		until [ "$(pl_pushes)" -gt "$n0" ] &&
			awk -v ts="$ts" '$1 > ts && / table commit /' "$TMPD/pl.mon" | grep -q .; do
			i=$((i + 1))
			[ "$i" -le 600 ] || die "no plan for member $node"
			sleep 0.1
		done
		# the membership event, then the plans table's commit
		set -- $(awk -v ts="$ts" '$1 > ts && / groups change / && !g { g = $1 }
			g && / table commit / { print g, $1; exit }' "$TMPD/pl.mon")
		[ $# = 2 ] || die "events of run $run not found in the monitor's log"
		line=$(grep "plans: fabric wcpl " "$TMPD/pl.log" | tail -n 1)
		note "run $run: node $node joins: event to commit $((($2 - $1) / 1000)) us, join to commit $((($2 - ts) / 1000)) us; $line"
		echo "$((($2 - $1) / 1000))" >>"$TMPD/pl.ev"
		echo "$((($2 - ts) / 1000))" >>"$TMPD/pl.all"
		echo "$line" | sed -n 's/.* planning \([0-9.]*\) ms.*/\1/p' >>"$TMPD/pl.plan"
	done
	echo "vm.plans.${scheme}_32x32_$members.event_to_commit: $(median <"$TMPD/pl.ev") us"
	echo "vm.plans.${scheme}_32x32_$members.join_to_commit: $(median <"$TMPD/pl.all") us"
	echo "vm.plans.${scheme}_32x32_$members.daemon_planning: $(median <"$TMPD/pl.plan") ms"
	stop_pids "$mon" "$daemon" "$joiner"
	ip netns del "$NS_MC"
}

bench_plans() {
	for case in $PLANS; do
		bench_plans_one "${case%%:*}" "${case#*:}"
	done
}

# ================================================================ (faults)

# fl_links DIMS COUNT SEED: COUNT distinct links "A B" of a DIMS torus
# (node id x + W*y), drawn at random (seeded) from all of its links.
fl_links() {
	awk -v dims="$1" -v n="$2" -v seed="$3" 'BEGIN {
		split(dims, d, "x"); w = d[1]; h = d[2]; srand(seed)
		for (y = 0; y < h; y++)
			for (x = 0; x < w; x++) {
				a = x + w * y
				nb[1] = (x + 1) % w + w * y
				nb[2] = x + w * ((y + 1) % h)
				for (k = 1; k <= 2; k++) {
					b = nb[k]
					key = a < b ? a " " b : b " " a
					if (a != b && !(key in seen)) { seen[key] = 1; l[++m] = key }
				}
			}
		if (n > m) n = m
		for (i = 1; i <= n; i++) {	# partial Fisher-Yates
			j = i + int(rand() * (m - i + 1))
			t = l[i]; l[i] = l[j]; l[j] = t
			print l[i]
		}
	}'
}

# fl_table_links DIMS: the faulty links of fabric wcf's trees table as
# sorted "A B" (A < B), from its (node, port) pairs (port 2d: +d, 2d+1: -d).
fl_table_links() {
	ip netns exec "$NS_MC" wormctl -j table show wcf |
		jq -r '.[0].faulty_links[]? | "\(.node) \(.port)"' |
		awk -v dims="$1" 'BEGIN { split(dims, d, "x"); w = d[1]; h = d[2] }
		{
			x = $1 % w; y = int($1 / w)
			if ($2 == 0) x = (x + 1) % w
			else if ($2 == 1) x = (x + w - 1) % w
			else if ($2 == 2) y = (y + 1) % h
			else y = (y + h - 1) % h
			b = x + w * y
			print ($1 < b ? $1 " " b : b " " $1)
		}' | sort
}

fl_pushes() {
	grep -c "push: fabric wcf " "$TMPD/fl.log"
}

# fl_stamps TS: the first fault event of fabric wcf after TS (ns) in the
# monitor's log and the first trees commit after it, "EVENT COMMIT" (ns).
fl_stamps() {
	awk -v ts="$1" '$1 > ts && / fault (add|del) fabric [0-9]+ wcf / && !g { g = $1 }
		g && $1 >= g && / table commit fabric [0-9]+ wcf/ { print g, $1; exit }' "$TMPD/fl.mon"
}

# fl_stats: "median M, p90 P, max X (N)" of the numbers on stdin (p90:
# nearest rank).
fl_stats() {
	sort -g | awk '{ v[NR] = $1 }
		END {
			if (NR == 0) { print "nan"; exit }
			m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
			r = int(0.9 * NR); if (r < 0.9 * NR) r++
			printf "median %s, p90 %s, max %s (%d)\n", m, v[r], v[NR], NR
		}'
}

# fl_change OP I link A B | fl_change OP I node N: fault OP (add or del)
# of link A-B or node N, change I; waits for the re-push and records,
# into $TMPD/fl.OP (fl.node_OP for a node): I, the number of links listed
# after it, event to commit (us), command to commit (us), and the
# daemon's compute (ms), push (ms) and event to commit (ms); for a node
# then 1 if the trees were rebuilt, else 0.
fl_change() {
	op=$1 ci=$2
	shift 2
	n0=$(fl_pushes)
	ts=$(date +%s%N)
	ip netns exec "$NS_MC" wormctl fault "$op" wcf "$@" </dev/null ||
		die "wormctl fault $op wcf $* refused"
	i=0
	until [ "$(fl_pushes)" -gt "$n0" ] && [ -n "$(fl_stamps "$ts")" ]; do
		i=$((i + 1))
		[ "$i" -le 1200 ] || die "no re-push after fault $op $*: $(tail -n 2 "$TMPD/fl.log")"
		sleep 0.05
	done
	stamps=$(fl_stamps "$ts")
	ev=$(((${stamps#* } - ${stamps% *}) / 1000))
	line=$(grep "push: fabric wcf " "$TMPD/fl.log" | tail -n 1)
	listed=$(echo "$line" | sed -n 's/.* faulty links \([0-9]*\).*/\1/p')
	[ -n "$listed" ] || listed=0
	rec="$ci $listed $ev $(((${stamps#* } - ts) / 1000)) $(echo "$line" |
		sed -n 's/.* compute \([0-9.]*\) ms push \([0-9.]*\) ms.*event to commit \([0-9]*\) ms.*/\1 \2 \3/p')"
	if [ "$1" = node ]; then
		case $line in
		*"trees rebuilt"*) echo "$rec 1" ;;
		*) echo "$rec 0" ;;
		esac >>"$TMPD/fl.node_$op"
	else
		echo "$rec" >>"$TMPD/fl.$op"
	fi
	# progress on the console: run.sh stops a guest silent there for 600 s
	[ $((ci % 25)) != 0 ] ||
		echo "wc-vm: bench faults: fault $op $ci $1" >/dev/console 2>/dev/null
	note "fault $op $ci ($*): event to commit $ev us, command to commit $(((${stamps#* } - ts) / 1000)) us; $line"
}

# fl_report OP WHAT: the figures of $TMPD/fl.OP; the thirds by the number
# of links listed while the table was computed (after an add, before a del).
fl_report() {
	tag=vm.faults.dstm1_$FAULT_DIMS.$1
	t1=$((FAULTS / 3))
	t2=$((2 * FAULTS / 3))
	echo "$tag.event_to_commit: $(awk '{ print $3 / 1000 }' "$TMPD/fl.$1" | fl_stats) ms"
	for r in "1 $t1" "$((t1 + 1)) $t2" "$((t2 + 1)) $FAULTS"; do
		set -- $r
		echo "$tag.event_to_commit_listed_$1_$2: $(awk -v lo="$1" -v hi="$2" -v op="$tag" '
			{ k = op ~ /del$/ ? $2 + 1 : $2 }
			k >= lo && k <= hi { print $3 / 1000 }' "$TMPD/fl.${tag##*.}" | fl_stats) ms"
	done
	echo "$tag.command_to_commit: $(awk '{ print $4 / 1000 }' "$TMPD/fl.${tag##*.}" | fl_stats) ms"
	echo "$tag.daemon_compute: $(awk 'NF >= 7 { print $5 }' "$TMPD/fl.${tag##*.}" | fl_stats) ms"
	echo "$tag.daemon_push_validate_commit: $(awk 'NF >= 7 { print $6 }' "$TMPD/fl.${tag##*.}" | fl_stats) ms"
	echo "$tag.daemon_event_to_commit: $(awk 'NF >= 7 { print $7 }' "$TMPD/fl.${tag##*.}" | fl_stats) ms"
}

bench_faults() {
	ip netns add "$NS_MC" || die "cannot add namespace $NS_MC"
	if ! err=$(ip -n "$NS_MC" link add wcf type wormcast topology torus \
		dims "$FAULT_DIMS" multicast dstm-1 2>&1); then
		die "a $FAULT_DIMS torus is refused: $err"
	fi
	fl_links "$FAULT_DIMS" "$FAULTS" "$FAULT_SEED" >"$TMPD/fl.links"
	[ "$(wc -l <"$TMPD/fl.links")" = "$FAULTS" ] ||
		die "the torus has fewer than $FAULTS links"
	mon_start "$NS_MC" "$TMPD/fl.mon"
	# until it listens (seconds under TCG), before wormcastd runs
	set -- $(head -n 1 "$TMPD/fl.links")
	mon_until "$TMPD/fl.mon" " fault del fabric [0-9]* wcf " \
		ip netns exec "$NS_MC" sh -c \
		"wormctl fault add wcf link $1 $2 && wormctl fault del wcf link $1 $2"
	wcd_start "$NS_MC" "$TMPD/fl.log"
	log_wait "$TMPD/fl.log" "push: fabric wcf "
	note "trees committed: $(grep "push: fabric wcf " "$TMPD/fl.log" | head -n 1)"
	: >"$TMPD/fl.add" && : >"$TMPD/fl.del"
	n=0
	while read -r a b; do
		n=$((n + 1))
		fl_change add "$n" link "$a" "$b"
	done <"$TMPD/fl.links"
	sort "$TMPD/fl.links" >"$TMPD/fl.want"
	fl_table_links "$FAULT_DIMS" >"$TMPD/fl.have"
	if cmp -s "$TMPD/fl.want" "$TMPD/fl.have"; then
		note "the final table lists the $FAULTS failed links, no other"
	else
		die "the final table lists $(wc -l <"$TMPD/fl.have") links, not the $FAULTS failed ones: $(diff "$TMPD/fl.want" "$TMPD/fl.have" | head -n 5)"
	fi
	n=0
	while read -r a b; do
		n=$((n + 1))
		fl_change del "$n" link "$a" "$b"
	done <"$TMPD/fl.links"
	[ "$(ip netns exec "$NS_MC" wormctl -j table show wcf | jq '.[0].nfaults')" = 0 ] ||
		die "faulty links left in the table after every repair"
	fl_report add
	fl_report del
	# single failed nodes: rebuilt trees where both trees transit the node
	: >"$TMPD/fl.node_add" && : >"$TMPD/fl.node_del"
	n=0
	for v in $(ft_perm "$(fl_nnodes "$FAULT_DIMS")" "$FAULT_SEED" | head -n "$FAULT_NODES"); do
		n=$((n + 1))
		fl_change add "$n" node "$v"
		fl_change del "$n" node "$v"
	done
	tag=vm.faults.dstm1_$FAULT_DIMS.node
	echo "$tag.rebuilt: $(awk '$8 == 1' "$TMPD/fl.node_add" | wc -l) of $n"
	for r in "1 rebuilt" "0 kept"; do
		set -- $r
		echo "$tag.add_$2.event_to_commit: $(awk -v r="$1" '$8 == r { print $3 / 1000 }' "$TMPD/fl.node_add" | fl_stats) ms"
		echo "$tag.add_$2.daemon_compute: $(awk -v r="$1" '$8 == r { print $5 }' "$TMPD/fl.node_add" | fl_stats) ms"
	done
	echo "$tag.del.event_to_commit: $(awk '{ print $3 / 1000 }' "$TMPD/fl.node_del" | fl_stats) ms"
	stop_pids "$mon" "$daemon"
	ip netns del "$NS_MC"
}

# fl_nnodes DIMS: nodes of a DIMS torus
fl_nnodes() {
	echo $((${1%x*} * ${1#*x}))
}

# ================================================================ (ftfault)

# ft_perm N SEED: the node ids 0..N-1 in a random order (seeded).
ft_perm() {
	awk -v n="$1" -v seed="$2" 'BEGIN {
		srand(seed)
		for (i = 0; i < n; i++) v[i] = i
		for (i = 0; i < n; i++) {	# Fisher-Yates
			j = i + int(rand() * (n - i))
			t = v[i]; v[i] = v[j]; v[j] = t
			print v[i]
		}
	}'
}

# ft_gen: the generation of fabric wcft's committed ftmesh table, from
# FABRIC_GET (not the table's 100s of KiB), without jq: one poll is
# "ip netns exec" and wormctl, most of a second under TCG
ft_gen() {
	ip netns exec "$NS_MC" wormctl fabric show wcft 2>/dev/null |
		sed -n 's/.* table ftmesh gen \([0-9]*\) .*/\1/p'
}

# ft_blocks: the blocks of the committed ftmesh table, "x0 y0 x1 y1" a line
ft_blocks() {
	ip netns exec "$NS_MC" wormctl -j table show wcft |
		jq -r '[.[] | select(.kind == "ftmesh")][0].blocks[]? | "\(.x0) \(.y0) \(.x1) \(.y1)"'
}

# ft_in_blocks NODE: NODE lies in a block listed on stdin (ft_blocks)
ft_in_blocks() {
	awk -v n="$1" -v w="$FT_W" '{ x = n % w; y = int(n / w) }
		x >= $1 && x <= $3 && y >= $2 && y <= $4 { f = 1 }
		END { exit !f }'
}

ft_pushes() {
	grep -c "push: fabric wcft " "$TMPD/ft.log"
}

# ft_faulty_is F: wormcastd's last push of wcft was computed from F
# faulty nodes
ft_faulty_is() {
	grep "push: fabric wcft " "$TMPD/ft.log" | tail -n 1 | grep -q " faulty nodes $1,"
}

# ft_stamps TS: the first fault event of wcft after TS (ns) in the
# monitor's log and the first table commit after it, "EVENT COMMIT" (ns).
ft_stamps() {
	awk -v ts="$1" '$1 > ts && / fault (add|del) fabric [0-9]+ wcft / && !g { g = $1 }
		g && $1 >= g && / table commit fabric [0-9]+ wcft/ { print g, $1; exit }' "$TMPD/ft.mon"
}

# ft_change OP NODE F TAG: fault OP (add or del) of node NODE, after which
# F nodes are faulty; waits until the ftmesh table's generation moved
# (polled) and wormcastd's push was computed from F faulty nodes; records
# into $TMPD/ft.TAG: F, monitor event to commit (us), command returned to
# generation seen (us), the daemon's compute, push and event to commit
# (ms), blocks, bytes, and how long one poll took before the command (us).
ft_change() {
	tp=$(date +%s%N)
	g0=$(ft_gen)
	n0=$(ft_pushes)
	ts=$(date +%s%N)
	[ -n "$g0" ] || die "fabric wcft lists no ftmesh table"
	ip netns exec "$NS_MC" wormctl fault "$1" wcft node "$2" </dev/null ||
		die "wormctl fault $1 wcft node $2 refused"
	tr=$(date +%s%N)
	i=0
	while [ "$(ft_gen)" = "$g0" ]; do
		i=$((i + 1))
		[ "$i" -le 6000 ] || die "no new ftmesh table after fault $1 node $2: $(tail -n 2 "$TMPD/ft.log")"
	done
	tg=$(date +%s%N)
	i=0
	until [ "$(ft_pushes)" -gt "$n0" ] && ft_faulty_is "$3" && [ -n "$(ft_stamps "$ts")" ]; do
		i=$((i + 1))
		[ "$i" -le 600 ] || die "fault $1 node $2: no push from $3 faulty nodes: $(tail -n 2 "$TMPD/ft.log")"
		sleep 0.05
	done
	[ "$(ft_pushes)" = $((n0 + 1)) ] ||
		die "fault $1 node $2: $(($(ft_pushes) - n0)) pushes, not one"
	if [ "$1" = add ]; then
		ft_blocks | ft_in_blocks "$2" || die "node $2 failed but is in no block of the new table"
	else
		ft_blocks | ft_in_blocks "$2" && die "node $2 repaired but still in a block"
	fi
	set -- "$1" "$2" "$3" "$4" $(ft_stamps "$ts")
	line=$(grep "push: fabric wcft " "$TMPD/ft.log" | tail -n 1)
	echo "$3 $((($6 - $5) / 1000)) $(((tg - tr) / 1000)) $(echo "$line" |
		sed -n 's/.* bytes \([0-9]*\) .* compute \([0-9.]*\) ms push \([0-9.]*\) ms.* blocks \([0-9]*\),.*event to commit \([0-9]*\) ms.*/\2 \3 \5 \4 \1/p') $(((ts - tp) / 1000))" \
		>>"$TMPD/ft.$4"
	note "ftfault $1 node $2 ($3 faulty): event to commit $((($6 - $5) / 1000)) us (monitor), command returned to new generation seen $(((tg - tr) / 1000)) us (polled, $i extra polls; one poll $(((ts - tp) / 1000)) us), command $(((tr - ts) / 1000)) us; $line"
}

# ft_stats: "median M, min m, max X (N)" of the numbers on stdin
ft_stats() {
	sort -g | awk '{ v[NR] = $1 }
		END {
			if (NR == 0) { print "nan"; exit }
			m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
			printf "median %s, min %s, max %s (%d)\n", m, v[1], v[NR], NR
		}'
}

# ft_report TAG: the figures of $TMPD/ft.TAG
ft_report() {
	tag=vm.ftfault.ftmesh_$FT_DIMS.$1
	echo "$tag.event_to_commit: $(awk '{ print $2 / 1000 }' "$TMPD/ft.$1" | ft_stats) ms"
	echo "$tag.daemon_event_to_commit: $(awk 'NF >= 8 { print $6 }' "$TMPD/ft.$1" | ft_stats) ms"
	echo "$tag.command_to_generation_polled: $(awk '{ print $3 / 1000 }' "$TMPD/ft.$1" | ft_stats) ms"
	echo "$tag.one_poll: $(awk 'NF >= 9 { print $9 / 1000 }' "$TMPD/ft.$1" | ft_stats) ms"
	echo "$tag.daemon_compute: $(awk 'NF >= 8 { print $4 }' "$TMPD/ft.$1" | ft_stats) ms"
	echo "$tag.daemon_push_validate_commit: $(awk 'NF >= 8 { print $5 }' "$TMPD/ft.$1" | ft_stats) ms"
	echo "$tag.blocks: $(awk 'NF >= 8 { print $7 }' "$TMPD/ft.$1" | ft_stats)"
	echo "$tag.table_bytes: $(awk 'NF >= 8 { print $8 }' "$TMPD/ft.$1" | ft_stats) B"
}

# One 50x50 mesh under ftmesh (4 VCs, asynchronous replication), wormcastd
# running.  For each F of FT_COUNTS (ascending): F - 1 random faulty nodes
# (a prefix of one seeded order) are in place and committed; then
# FT_REPS times one more node outside every block fails and is repaired,
# each change waited for before the next (one fault per push, nothing
# coalesced).
bench_ftfault() {
	FT_W=${FT_DIMS%x*}
	ft_n=$((FT_W * ${FT_DIMS#*x}))
	ip netns add "$NS_MC" || die "cannot add namespace $NS_MC"
	if ! err=$(ip -n "$NS_MC" link add wcft type wormcast topology mesh \
		dims "$FT_DIMS" vcs 4 replication async buf_flits 64 multicast ftmesh 2>&1); then
		die "a $FT_DIMS mesh under ftmesh is refused: $err"
	fi
	ft_perm "$ft_n" "$FAULT_SEED" >"$TMPD/ft.perm"
	mon_start "$NS_MC" "$TMPD/ft.mon"
	ft_last=$(tail -n 1 "$TMPD/ft.perm")
	mon_until "$TMPD/ft.mon" " fault del fabric [0-9]* wcft " \
		ip netns exec "$NS_MC" sh -c \
		"wormctl fault add wcft node $ft_last && wormctl fault del wcft node $ft_last"
	wcd_start "$NS_MC" "$TMPD/ft.log"
	log_wait "$TMPD/ft.log" "push: fabric wcft "
	note "ftmesh table committed: $(grep "push: fabric wcft " "$TMPD/ft.log" | head -n 1)"
	ft_have=0
	ft_cand=$ft_n		# candidates: from the end of the order
	for f in $FT_COUNTS; do
		base=$((f - 1))
		[ "$base" -ge "$ft_have" ] || die "WC_BENCH_FTFAULT_COUNTS must ascend"
		# the base faults in one burst (the daemon coalesces them)
		sed -n "$((ft_have + 1)),${base}p" "$TMPD/ft.perm" |
			sed 's/^/wormctl fault add wcft node /; s/$/ <\/dev\/null/' >"$TMPD/ft.burst"
		ip netns exec "$NS_MC" sh -e "$TMPD/ft.burst" || die "cannot fail the base nodes"
		ft_have=$base
		i=0
		until ft_faulty_is "$base"; do
			i=$((i + 1))
			[ "$i" -le 1200 ] || die "no push from $base faulty nodes: $(tail -n 2 "$TMPD/ft.log")"
			sleep 0.5
		done
		note "base of $base faulty nodes committed: $(grep "push: fabric wcft " "$TMPD/ft.log" | tail -n 1)"
		echo "wc-vm: bench ftfault: $base faulty nodes in place" >/dev/console 2>/dev/null
		: >"$TMPD/ft.add_$f" && : >"$TMPD/ft.del_$f"
		ft_blocks >"$TMPD/ft.blocks"
		for rep in $(seq "$FT_REPS"); do
			# the next node, from the end of the order, outside every block
			while :; do
				[ "$ft_cand" -gt "$ft_have" ] || die "no candidate node left"
				node=$(sed -n "${ft_cand}p" "$TMPD/ft.perm")
				ft_cand=$((ft_cand - 1))
				ft_in_blocks "$node" <"$TMPD/ft.blocks" || break
			done
			echo "wc-vm: bench ftfault: $f faulty nodes, failure $rep of $FT_REPS" \
				>/dev/console 2>/dev/null
			ft_change add "$node" "$f" "add_$f"
			ft_change del "$node" "$base" "del_$f"
		done
		ft_report "add_$f"
		ft_report "del_$f"
	done
	stop_pids "$mon" "$daemon"
	ip netns del "$NS_MC"
}

# ================================================================ (bcast)

# bc_scheme_is SCHEME: fabric wcc's committed bcast table is of SCHEME
bc_scheme_is() {
	[ "$(ip netns exec "$NS_BC" wormctl -j table show wcc 2>/dev/null |
		jq -r '[.[] | select(.kind == "bcast")][0].scheme // "none"')" = "$1" ]
}

# bc_wait SCHEME: until wormcastd committed SCHEME's table (10 minutes)
bc_wait() {
	_i=0
	until bc_scheme_is "$1"; do
		_i=$((_i + 1))
		[ "$_i" -le 1200 ] || die "no $1 table on wcc: $(tail -n 3 "$TMPD/bc.log")"
		sleep 0.5
	done
}

# bc_measure SCHEME CASE: one broadcast from node 0 per frame length, its
# latency through the kernel (tests/selftests/bcast_latency.py) beside
# wormsim's for the same parameters.
bc_measure() {
	for b in $BCAST_BYTES; do
		j=$(ip netns exec "$NS_BC" python3 \
			"$WC_ROOT/tests/selftests/bcast_latency.py" wcc 0 \
			--tag "bench-$1-$2-$b" --send-dev wccn0 --bytes "$b" \
			--wormsim "${WC_BUILD:-$WC_ROOT/build}/wormsim") ||
			die "bcast $1 $2 $b bytes: no undisturbed run: $j"
		tag=vm.bcast.${1}_$BCAST_DIMS.$2.frame_$b
		echo "$tag.kernel: $(echo "$j" | jq .latency) cycles"
		echo "$tag.wormsim: $(echo "$j" | jq .wormsim) cycles"
		echo "$tag.wormsim_port_rule: $(echo "$j" | jq .wormsim_port) cycles"
		echo "$tag.kernel_equals_wormsim: $(echo "$j" |
			jq 'if .latency == .wormsim then 1 else 0 end') bool"
		note "bcast $1 $2 $b bytes: $(echo "$j" | jq -c '{records, relays, tries, disturbed, params}')"
		note "bcast $1 $2 $b bytes: $(echo "$j" | jq -r .wormsim_cmd)"
	done
}

# bc_case CASE ENGINE-PARAMS...: a torus of WC_BENCH_BCAST_DIMS with those
# parameters, dcf then edn.
bc_case() {
	_case=$1
	shift
	ip netns add "$NS_BC" || die "cannot add namespace $NS_BC"
	# no IPv6 on the nodes: nothing but the broadcasts in the fabric
	ip netns exec "$NS_BC" sysctl -qw net.ipv6.conf.default.disable_ipv6=1 \
		net.ipv6.conf.all.disable_ipv6=1 || die "cannot turn IPv6 off in $NS_BC"
	if ! err=$(ip -n "$NS_BC" link add wcc type wormcast topology torus \
		dims "$BCAST_DIMS" multicast dcf "$@" 2>&1); then
		die "a $BCAST_DIMS torus under dcf ($*) is refused: $err"
	fi
	ip netns exec "$NS_BC" sh -c 'for d in /sys/class/net/wccn*; do
		echo "link set ${d##*/} up"; done | ip -batch -' ||
		die "cannot bring the nodes of wcc up"
	ip -n "$NS_BC" link set wcc up
	wcd_start "$NS_BC" "$TMPD/bc.log"
	bc_wait dcf
	bc_measure dcf "$_case"
	ip netns exec "$NS_BC" wormctl fabric set wcc multicast edn ||
		die "wormctl fabric set wcc multicast edn refused"
	bc_wait edn
	bc_measure edn "$_case"
	stop_pids "$daemon"
	ip netns del "$NS_BC"
}

# the fabric's defaults (one injection channel, router delay 1), then the
# paper's all-port model as wormsim --bcast takes it (4 injection
# channels, router delay 0)
bench_bcast() {
	bc_case defaults
	bc_case allport inj 4 router_delay 0
}

note "guest kernel $(uname -r), $(nproc) CPUs, $(awk '/^MemTotal:/ { print $2 }' /proc/meminfo) KiB"
for p in $PARTS; do
	case "$p" in
	udp) bench_udp ;;
	mem) bench_mem ;;
	rtnl) bench_rtnl ;;
	mcast) bench_mcast ;;
	star) bench_star ;;
	tables) bench_tables ;;
	dstset) bench_dstset ;;
	plans) bench_plans ;;
	faults) bench_faults ;;
	ftfault) bench_ftfault ;;
	bcast) bench_bcast ;;
	esac
done
