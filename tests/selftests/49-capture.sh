#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The capture device (Documentation/kernel.rst, "Capture"): tcpdump on the
# fabric device of a 3x3 mesh records a known multicast, one IPv4/UDP
# datagram from node 0 to nodes 5 and 7 under the built-in scheme
# (unicast-based: one dimension-order worm per destination), and tshark
# with tools/wireshark/wormcast.lua decodes the file: source,
# destinations, scheme, table generation, worms, the links each worm
# reserved, Eq. 1 between injection and consumption, and the frame as
# Ethernet/IPv4/UDP.  Then the same multicast on a 3x3 torus under dstm-1
# (trees from wormcastd): one worm, whose links are exactly the tree path
# from the source to the destinations' least common ancestor and down to
# each destination, in one of the two trees (computed here from the trees
# the kernel holds).  tcpdump -r replays the file, and nothing is recorded
# once nobody captures.
. "$(dirname "$0")/lib.sh"

LUA=$WC_ROOT/tools/wireshark/wormcast.lua
CAP=$WC_TMP/wc.pcap
PORT=5555

for tool in tcpdump tshark; do
	if ! command -v $tool >/dev/null; then
		not_ok "$tool installed (tools/install-deps.sh)"
		done_testing
		exit
	fi
done

if ! wc_add wc topology mesh dims 3x3; then
	not_ok "create mesh 3x3"
	done_testing
	exit
fi
ok "create mesh 3x3"
set -- $(wc_nodes wc)
N0=$1 N5=$6 N7=$8
ip link set wc up
ip link set "$N0" up
for d in "$N5" "$N7"; do
	# every multicast reaches them (rx filter), without a socket
	ip link set "$d" allmulticast on up
done

fabric_rx() {
	ip -s -j link show dev wc | jq '.[0].stats64.rx.packets'
}

# send_udp DEV: one IPv4/UDP datagram to 239.1.2.3:$PORT, by a packet socket
send_udp() {
	python3 - "$1" "$PORT" <<'PY'
import socket, struct, sys
dev, port = sys.argv[1], int(sys.argv[2])
payload = b'wormcast-capture'
udp = struct.pack('!HHHH', 4000, port, 8 + len(payload), 0) + payload
ip = struct.pack('!BBHHHBBH4s4s', 0x45, 0, 20 + len(udp), 1, 0, 1, 17, 0,
                 bytes([10, 0, 0, 1]), bytes([239, 1, 2, 3]))
s = sum(struct.unpack('!10H', ip))
s = (s >> 16) + (s & 0xffff)
s += s >> 16
ip = ip[:10] + struct.pack('!H', ~s & 0xffff) + ip[12:]
sk = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
sk.bind((dev, 0))
mac = open('/sys/class/net/%s/address' % dev).read().strip()
sk.send(bytes.fromhex('01005e010203') + bytes.fromhex(mac.replace(':', '')) +
        b'\x08\x00' + ip + udp)
PY
}

pcap_has_record() {
	[ "$(tcpdump -nr "$CAP" ether proto 0x88b6 2>/dev/null | wc -l)" -ge 1 ]
}

# Our datagram's record, not any record: bringing the nodes up sends IPv6
# frames whose records can reach the file first, and the datagram's record
# is written only once its last copy is consumed.
pcap_has_datagram() {
	tcpdump -nr "$CAP" -A ether proto 0x88b6 2>/dev/null |
		grep -q wormcast-capture
}

bg tcpdump -i wc --immediate-mode -U -w "$CAP"
tcpdump_pid=$bg_pid
# tcpdump writes the file header once its socket is bound
wait_for 20 test -s "$CAP" && sleep 0.5
rx0=$(fabric_rx)
check "send a datagram from node 0 to 239.1.2.3" send_udp "$N0"
if wait_for 20 pcap_has_datagram; then
	ok "tcpdump -i wc captured the datagram's record"
else
	not_ok "tcpdump -i wc captured the datagram's record" \
		"records in the file: $(tcpdump -nr "$CAP" 2>/dev/null | wc -l)"
fi
stop_pids "$tcpdump_pid"
_pids=""
rx1=$(fabric_rx)
check "the fabric device counts the records it handed to tcpdump" \
	test "$rx1" -gt "$rx0"

# One line per record of our datagram: the record's fields, the frame's.
tshark -X lua_script:"$LUA" -r "$CAP" -Y "udp.dstport == $PORT" \
	-T fields -E separator='|' -e wormcast.src -e wormcast.dst \
	-e wormcast.scheme -e wormcast.table_gen -e wormcast.nworms \
	-e wormcast.link -e wormcast.dst.inject -e wormcast.dst.consume \
	-e wormcast.flags -e ip.dst -e udp.dstport \
	>"$WC_TMP/fields" 2>"$WC_TMP/tshark.err"
is "tshark decodes one record of the datagram" \
	"$(wc -l <"$WC_TMP/fields")" 1
IFS='|' read -r src dsts scheme gen nworms links inj cons flags ipdst udpport \
	<"$WC_TMP/fields"
is "source" "$src" 0
is "destinations" "$dsts" "5,7"
is "scheme: unicast (built in), no table" "$scheme/$gen" "0/0"
is "one worm per destination" "$nworms" 2
is "flags" "$flags" "0x00000000"
# Dimension order, lowest dimension first (port 0: +x, port 2: +y; node
# = x + 3y): worm 0 to node 5 (2,1) leaves 0 and 1 by +x, then 2 by +y;
# worm 1 to node 7 (1,2) leaves 0 by +x, then 1 and 4 by +y.
is "links used: the dimension-order route of each worm" \
	"$(echo "$links" | tr ',' '\n' | sort | tr '\n' ' ')" \
	"0/0.0 0/1.0 0/2.2 1/0.0 1/1.2 1/4.2 "
# Eq. 1 for worm 0 at zero load: 3 hops * (router 1 + link 1) + (L - 1),
# L = 1 header + ceil(58 / 32) data + 1 tail flits: 9 cycles.
inj5=${inj%%,*} cons5=${cons%%,*}
is "node 5: consumed Eq. 1 cycles after injection" $((cons5 - inj5)) 9
is "the frame is IPv4/UDP to 239.1.2.3:$PORT" "$ipdst:$udpport" \
	"239.1.2.3:$PORT"
[ -s "$WC_TMP/tshark.err" ] && diag "tshark: $(head -n 5 "$WC_TMP/tshark.err")"

check "tcpdump -r replays the file" pcap_has_record
is "tshark -V shows the links used" \
	"$(tshark -X lua_script:"$LUA" -r "$CAP" -Y "udp.dstport == $PORT" -V 2>/dev/null |
	   grep -c 'Link (worm/node.port)')" 6

# Nobody captures: no record is built.
rx2=$(fabric_rx)
check "send a datagram with nobody capturing" send_udp "$N0"
sleep 1
is "no record without a packet socket" "$(fabric_rx)" "$rx2"
check "mesh deleted" wc_del wc
_fabrics=""

# ---- a tree worm: dstm-1 on a 3x3 torus, trees from wormcastd
# tree_links SRC DSTS: the links (node.port, sorted) a DSTM worm from SRC
# to DSTS takes in each tree of wc (one line per tree): the tree path up
# or down to the destinations' least common ancestor, then down to each.
tree_links() {
	wormctl -j table show -v wc | python3 -c '
import json, sys
t = json.load(sys.stdin)[0]
src, dsts = int(sys.argv[1]), [int(d) for d in sys.argv[2].split(",")]
def nb(n, p):   # 3x3 torus: port 0 +x, 1 -x, 2 +y, 3 -y; node = x + 3y
    x, y = n % 3, n // 3
    x, y = [(x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)][p]
    return x % 3 + 3 * (y % 3)
for pp in t["parent_port"]:
    par = [None if p is None else nb(n, p) for n, p in enumerate(pp)]
    def up(n):
        path = [n]
        while par[path[-1]] is not None:
            path.append(par[path[-1]])
        return path
    common = set(up(dsts[0]))
    for d in dsts[1:]:
        common &= set(up(d))
    lca = next(a for a in up(dsts[0]) if a in common)
    links = set()
    def down(a, d):     # links from ancestor a down to d
        path = up(d)
        for i in range(path.index(a), 0, -1):
            p, c = path[i], path[i - 1]
            links.add("%d.%d" % (p, next(q for q in range(4) if nb(p, q) == c)))
    if lca in up(src):  # up to the LCA
        for n in up(src)[:up(src).index(lca)]:
            links.add("%d.%d" % (n, pp[n]))
    else:               # up to the common ancestor, down to the LCA
        a = next(a for a in up(src) if a in up(lca))
        for n in up(src)[:up(src).index(a)]:
            links.add("%d.%d" % (n, pp[n]))
        down(a, lca)
    for d in dsts:
        down(lca, d)
    print(" ".join(sorted(links)))
' "$1" "$2"
}

WORMCASTD=${WC_BUILD:-$WC_ROOT/build}/wormcastd
if wc_add wc topology torus dims 3x3 multicast dstm-1; then
	ok "create torus 3x3, multicast dstm-1"
	set -- $(wc_nodes wc)
	N0=$1 N5=$6 N7=$8
	ip link set wc up
	ip link set "$N0" up
	for d in "$N5" "$N7"; do
		ip link set "$d" allmulticast on up
	done
	bg "$WORMCASTD"
	daemon_pid=$bg_pid
	if wait_for 60 wc_table_committed wc dstm-1; then
		ok "wormcastd committed the trees"
	else
		not_ok "wormcastd committed the trees"
	fi
	rm -f "$CAP"
	bg tcpdump -i wc --immediate-mode -U -w "$CAP"
	tcpdump_pid=$bg_pid
	wait_for 20 test -s "$CAP" && sleep 0.5
	check "send a datagram from node 0 to 239.1.2.3 under dstm-1" send_udp "$N0"
	wait_for 20 pcap_has_datagram || not_ok "tcpdump -i wc captured the tree worm's record"
	stop_pids "$tcpdump_pid" "$daemon_pid"
	_pids=""
	tshark -X lua_script:"$LUA" -r "$CAP" -Y "udp.dstport == $PORT" \
		-T fields -E separator='|' -e wormcast.dst -e wormcast.scheme \
		-e wormcast.table_gen -e wormcast.nworms -e wormcast.link \
		>"$WC_TMP/fields" 2>"$WC_TMP/tshark.err"
	IFS='|' read -r dsts scheme gen nworms links <"$WC_TMP/fields"
	is "dstm-1: destinations" "$dsts" "5,7"
	is "dstm-1: scheme 2 (dstm-1), a table generation, one worm" \
		"$scheme/$([ "${gen:-0}" -ge 1 ] && echo gen)/$nworms" "2/gen/1"
	got=$(echo "$links" | tr ',' '\n' | sed 's|^0/||' | sort | tr '\n' ' ' | sed 's/ $//')
	if tree_links 0 5,7 | grep -qxF "$got"; then
		ok "dstm-1: the worm's links are its tree's path ($got)"
	else
		not_ok "dstm-1: the worm's links are its tree's path" "got: $got" \
			"trees: $(tree_links 0 5,7 | tr '\n' '/')"
	fi
else
	not_ok "create torus 3x3, multicast dstm-1"
fi

done_testing
