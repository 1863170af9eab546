#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Live faults (Documentation/faults.rst, "Live faults") on a line of six
# nodes (mesh dims 6, dimension-order routing): refusals with the kernel's
# extack text; a failed link 3-4 under unicast and multicast UDP traffic
# from node 0: what needs it is counted in node 0's fault_drops, once per
# destination, the rest delivered exactly once, and sent x members =
# delivered + fault_drops exactly; after repair node 5 is reached again; a
# failed node's device reports carrier off, and on again at repair; every
# change is seen by "wormctl monitor"; "fault show" lists the faults; the
# fabric is deleted, and the module removed, with faults installed.
. "$(dirname "$0")/lib.sh"

module=${WC_MODULE:-$WC_ROOT/wormcast.ko}
N=20
PU=7000		# unicast port
PM=7001		# multicast port

# refuse_msg NAME TEXT CMD...: CMD fails and its message contains TEXT.
refuse_msg() {
	_name=$1
	_text=$2
	shift 2
	if _out=$("$@" 2>&1); then
		not_ok "$_name" "command succeeded: $*" "$_out"
	elif ! printf '%s\n' "$_out" | grep -qF "$_text"; then
		not_ok "$_name" "message: $_out" "expected:  $_text"
	else
		ok "$_name ($_out)"
	fi
}

# node_v4 ID: node ID in namespace nID with an IPv4 address only (no IPv6,
# so no MLD): the only frames node 0 sends are the test's datagrams.
node_v4() {
	ns_new "n$1" &&
	ip netns exec "n$1" sysctl -qw net.ipv6.conf.default.disable_ipv6=1 \
		net.ipv6.conf.all.disable_ipv6=1 &&
	ip link set "wcn$1" netns "n$1" &&
	ip -n "n$1" link set "wcn$1" up &&
	ip -n "n$1" addr add "$(ip4_of "$1")/16" dev "wcn$1" &&
	ip -n "n$1" route replace 224.0.0.0/4 dev "wcn$1"
}

# cnt NODE NAME: a counter of node NODE of fabric wc.
cnt() {
	wormctl -j stats wc node "$1" | jq -r ".[0].per_node[0].counters.$2"
}

# lines FILE: number of lines of FILE (0 if none).
lines() {
	if [ -f "$1" ]; then
		grep -c . "$1" || :
	else
		echo 0
	fi
}

carrier_off() {
	ip -n n5 -j link show dev wcn5 | jq -e '.[0].flags | index("NO-CARRIER") != null'
}

carrier_on() {
	ip -n n5 -j link show dev wcn5 | jq -e '.[0].flags | index("NO-CARRIER") == null'
}

module_loaded || insmod "$module"
check "create a line of six nodes" wc_add wc topology mesh dims 6
fid=$(wc_field wc .fabric)

# ---------------------------------------------------------------- monitor
bg sh -c "exec wormctl monitor >$WC_TMP/mon"
mon_pid=$bg_pid
# subscribed once it sees a change (events before that are not its)
if wait_for 30 sh -c "wormctl fault add wc link 0 1 && wormctl fault del wc link 0 1 &&
		grep -q '^fault del fabric $fid wc link 0 1\$' $WC_TMP/mon"; then
	ok "wormctl monitor is listening"
else
	not_ok "wormctl monitor is listening" "$(cat "$WC_TMP/mon" 2>/dev/null)"
fi

# ---------------------------------------------------------------- refusals
refuse_msg "link 0-2 refused" "not adjacent" wormctl fault add wc link 0 2
refuse_msg "node 6 of 6 refused" "out of range" wormctl fault add wc node 6
refuse_msg "link 5-6 refused" "not a node" wormctl fault add wc link 5 6
check "link 3-4 fails" wormctl fault add wc link 3 4
refuse_msg "link 4-3 again: EEXIST" "already installed" wormctl fault add wc link 4 3
refuse_msg "repairing link 1-2 (up): ENOENT" "no such fault" wormctl fault del wc link 1 2
refuse_msg "repairing node 2 (up): ENOENT" "no such fault" wormctl fault del wc node 2
if command -v unshare >/dev/null 2>&1; then
	refuse "without CAP_NET_ADMIN in the fabric's netns" \
		unshare -U wormctl fault add wc link 1 2
fi
# what wormctl cannot send: malformed FAULT nests, through raw netlink
run_tap_py python3 - "$WC_ROOT/tests/selftests" <<'PY'
import sys
sys.path.insert(0, sys.argv[1])
import wcnl
from wcnl import nla_nest, nla_u32, nla_str
U = wcnl.uapi()
g = wcnl.Genl(wcnl.NlSock(wcnl.NETLINK_GENERIC), b'wormcast\0')
fab = nla_str(U.WORMCAST_A_FABRIC_NAME, 'wc')
K, N, P = U.WORMCAST_FAULT_KIND, U.WORMCAST_FAULT_NODE, U.WORMCAST_FAULT_PEER
LINK, NODE = U.WORMCAST_FAULT_KIND_LINK, U.WORMCAST_FAULT_KIND_NODE
EINVAL, ERANGE = -22, -34
cases = [
    ('no fault', b'', 'is required'),
    ('no kind', nla_nest(U.WORMCAST_A_FAULT, nla_u32(N, 1)), 'a kind and a node'),
    ('kind 3', nla_nest(U.WORMCAST_A_FAULT, nla_u32(K, 3), nla_u32(N, 1)),
     'out of range'),
    ('link without peer', nla_nest(U.WORMCAST_A_FAULT, nla_u32(K, LINK),
                                   nla_u32(N, 1)), 'needs its peer'),
    ('node with a peer', nla_nest(U.WORMCAST_A_FAULT, nla_u32(K, NODE),
                                  nla_u32(N, 1), nla_u32(P, 2)), 'has no peer'),
    ('no fabric', None, 'ifindex or name is required'),
]
for name, attrs, text in cases:
    body = (fab + attrs) if attrs is not None else \
        nla_nest(U.WORMCAST_A_FAULT, nla_u32(K, NODE), nla_u32(N, 1))
    ack = g.request(U.WORMCAST_CMD_FAULT_ADD, body)
    want = ERANGE if name == 'kind 3' else EINVAL
    good = ack.err == want and ack.extack and text in ack.extack
    print('%s - FAULT_ADD, %s: %s, %r' % ('ok' if good else 'not ok', name,
                                         ack.strerror(), ack.extack))
d = g.dump(U.WORMCAST_CMD_FAULT_GET, fab)
fl = []
if not d.err and len(d.msgs) == 1:
    a = wcnl.attr_dict(d.msgs[0].data, 4)
    fl = [wcnl.attr_dict(p) for _, p in
          wcnl.parse_attrs(a.get(U.WORMCAST_A_FAULTS, b''))]
good = len(fl) == 1 and [wcnl.get_u32(fl[0].get(x, bytes(4)))
                         for x in (K, N, P)] == [LINK, 3, 4]
print('%s - FAULT_GET after the refusals: link 3-4 only (%r)' %
      ('ok' if good else 'not ok', d))
PY
is "fault show: the one fault" "$(wormctl fault show wc)" "link 3 4"
check "link 3-4 repaired" wormctl fault del wc link 3 4
is "fault show: none" "$(wormctl -j fault show wc)" "[]"

# ---------------------------------------------------------------- traffic
for id in 0 2 5; do
	node_v4 "$id" || not_ok "node $id in namespace n$id"
done
static_neigh 0 2
static_neigh 0 5
for id in 2 5; do
	bg "$UDP" recv --netns "n$id" --port $PU --ready "$WC_TMP/ready.u$id" \
		--out "$WC_TMP/u$id"
	bg "$UDP" recv --netns "n$id" --port $PM --group 239.7.7.7 \
		--ifname "wcn$id" --ready "$WC_TMP/ready.m$id" --out "$WC_TMP/m$id"
done
wait_for 30 sh -c "ls $WC_TMP/ready.* | wc -l | grep -qx 4" ||
	not_ok "receivers ready"

tx0=$(cnt 0 tx_frames)
fd0=$(cnt 0 fault_drops)
check "link 3-4 fails under traffic" wormctl fault add wc link 3 4
check "send: $N unicast to node 5, $N to node 2, $N multicast (members 2, 5)" sh -c "
	$UDP send --netns n0 --dst $(ip4_of 5) --port $PU --count $N --tag a &&
	$UDP send --netns n0 --dst $(ip4_of 2) --port $PU --count $N --tag b &&
	$UDP send --netns n0 --dst 239.7.7.7 --port $PM --ifname wcn0 \
		--count $N --tag m"
# done when node 0 has sent all and its frames are delivered or counted
settled() {
	[ $(($(cnt 0 tx_frames) - tx0)) -eq $((3 * N)) ] &&
	[ $(($(cnt 0 fault_drops) - fd0 + $(lines "$WC_TMP/u2") +
	     $(lines "$WC_TMP/m2") + $(lines "$WC_TMP/u5") +
	     $(lines "$WC_TMP/m5"))) -ge $((4 * N)) ]
}
wait_for 60 settled || not_ok "the traffic settles" "node 0: $(wormctl -j stats wc node 0)"
drops=$(($(cnt 0 fault_drops) - fd0))
got=$(($(lines "$WC_TMP/u2") + $(lines "$WC_TMP/m2") + $(lines "$WC_TMP/u5") +
	$(lines "$WC_TMP/m5")))
is "node 0 sent $((3 * N)) frames" $(($(cnt 0 tx_frames) - tx0)) $((3 * N))
is "fault_drops at node 0: $N unicast + $N multicast copies to node 5" "$drops" $((2 * N))
is "sent x members ($((4 * N))) = delivered ($got) + fault_drops ($drops)" \
	$((got + drops)) $((4 * N))
is "unicast to node 2: each once" "$(sort "$WC_TMP/u2")" \
	"$(seq 1 $N | sed 's/^/b /' | sort)"
is "multicast at node 2: each once" "$(sort "$WC_TMP/m2")" \
	"$(seq 1 $N | sed 's/^/m /' | sort)"
is "nothing reached node 5" "$(lines "$WC_TMP/u5") $(lines "$WC_TMP/m5")" "0 0"
is "no drop_* counter moved" "$(wc_drops wc)" 0
wormctl -j stats wc total >"$WC_TMP/st"
is "engine fault_drops equals the fabric's fault_drops counter" \
	"$(jq '.[0].engine.fault_drops' "$WC_TMP/st")" \
	"$(jq '.[0].counters.fault_drops' "$WC_TMP/st")"
if [ "$(jq '.[0].engine.fault_absorbed' "$WC_TMP/st")" -ge $((2 * N)) ]; then
	ok "engine fault_absorbed >= $((2 * N)) (a branch per frame to node 5)"
else
	not_ok "engine fault_absorbed >= $((2 * N))" "$(cat "$WC_TMP/st")"
fi

check "link 3-4 repaired" wormctl fault del wc link 3 4
"$UDP" send --netns n0 --dst "$(ip4_of 5)" --port $PU --count $N --tag c
if wait_for 30 sh -c "[ \$(grep -c '^c ' $WC_TMP/u5) -ge $N ]"; then
	ok "after repair node 5 gets the unicast"
else
	not_ok "after repair node 5 gets the unicast" "$(cat "$WC_TMP/u5")"
fi
is "  each once" "$(sort "$WC_TMP/u5")" "$(seq 1 $N | sed 's/^/c /' | sort)"
is "  and fault_drops did not move" $(($(cnt 0 fault_drops) - fd0)) $((2 * N))

# ---------------------------------------------------------------- node fault
check "node 5 fails" wormctl fault add wc node 5
if wait_for 10 carrier_off; then
	ok "node 5's device: carrier off"
else
	not_ok "node 5's device: carrier off" "$(ip -n n5 link show dev wcn5)"
fi
"$UDP" send --netns n0 --dst "$(ip4_of 5)" --port $PU --count $N --tag d
fd_at_least() {
	[ $(($(cnt 0 fault_drops) - fd0)) -ge "$1" ]
}
if wait_for 30 fd_at_least $((3 * N)); then
	ok "unicast to failed node 5: counted"
else
	not_ok "unicast to failed node 5: counted" "$(wormctl -j stats wc node 0)"
fi
is "  exactly $N more fault_drops, nothing delivered" \
	"$(($(cnt 0 fault_drops) - fd0)) $(grep -c '^d ' "$WC_TMP/u5")" "$((3 * N)) 0"
check "link 1-2 fails too" wormctl fault add wc link 2 1
is "fault show: link 1 2, node 5" "$(wormctl fault show wc | tr '\n' ',')" \
	"link 1 2,node 5,"
is "fault show -j" "$(wormctl -j fault show wc | jq -c .)" \
	'[{"kind":"link","node":1,"peer":2},{"kind":"node","node":5}]'
check "node 5 repaired" wormctl fault del wc node 5
if wait_for 10 carrier_on; then
	ok "node 5's device: carrier on again"
else
	not_ok "node 5's device: carrier on again" "$(ip -n n5 link show dev wcn5)"
fi

# ---------------------------------------------------------------- events
for ev in "fault add fabric $fid wc link 3 4" "fault del fabric $fid wc link 3 4" \
	"fault add fabric $fid wc node 5" "fault del fabric $fid wc node 5" \
	"fault add fabric $fid wc link 1 2"; do
	if wait_for 10 grep -qx "$ev" "$WC_TMP/mon"; then
		ok "monitor: $ev"
	else
		not_ok "monitor: $ev" "$(cat "$WC_TMP/mon")"
	fi
done
# the members joining 239.7.7.7 changed the fabric's groups
if wait_for 10 grep -q "^groups change fabric $fid wc generation [0-9]*\$" "$WC_TMP/mon"; then
	ok "monitor: groups change (members joined)"
else
	not_ok "monitor: groups change (members joined)" "$(cat "$WC_TMP/mon")"
fi
is "monitor: no event for the refused requests" \
	"$(grep -c 'link 0 2$\|node 6$\|link 5 6$\|node 2$' "$WC_TMP/mon")" 0
is "monitor: link 1 2 once (its refused repair not announced)" \
	"$(grep -c 'link 1 2$' "$WC_TMP/mon")" 1

# ---------------------------------------------------------------- random
# the same seed gives the same changes (times aside); all repaired at the end
random_run() {
	wormctl fault random wc --mtbf 50 --mttr 80 --seed 5 --duration 1 \
		--kind any >"$WC_TMP/random.$1"
}
check "fault random, seed 5, 1 s" random_run 1
check "  again" random_run 2
changes() {
	sed -n 's/^[0-9.]* ms: //p' "$WC_TMP/random.$1"
}
nadd=$(changes 1 | grep -c '^add')
ndel=$(changes 1 | grep -c '^del')
if [ "$nadd" -ge 5 ] && [ "$nadd" = "$ndel" ]; then
	ok "  $nadd faults added and as many repaired"
else
	not_ok "  faults added and as many repaired" "$(cat "$WC_TMP/random.1")"
fi
is "  the same changes with the same seed" "$(changes 2)" "$(changes 1)"
is "  summary" "$(tail -n 1 "$WC_TMP/random.1")" \
	"$nadd faults added, $ndel repaired, seed 5"
is "  link 1-2, installed before, left alone" "$(wormctl fault show wc)" "link 1 2"

# ---------------------------------------------------------------- teardown
check "delete the fabric with link 1-2 failed" wc_del wc
stop_pids "$mon_pid"
check "a 4x4 torus" wc_add wt topology torus dims 4x4
check "  with link 0-1 and node 5 failed" sh -c \
	"wormctl fault add wt link 0 1 && wormctl fault add wt node 5"
check "rmmod with faults installed" rmmod wormcast
is "  no wormcast device left" "$(wc_count)" 0
check "insmod again" insmod "$module"
done_testing
