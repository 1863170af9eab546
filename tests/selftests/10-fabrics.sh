#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Create and delete fabrics of every topology; check the node devices (count,
# default names <fabric>n<id>, a custom nodename pattern) and what
# "ip -d -j link show" reports under linkinfo.info_data: role, fabric,
# topology, dims, node, coords, and the engine parameters given at creation.
. "$(dirname "$0")/lib.sh"

# check_coords KIND DIMS-JSON < NODES-JSON: print every node whose coords
# differ from the definition in kmod/engine/topology.h, computed here
# independently of the kernel (star: permutations of 1..n in lexicographic
# order, node 0 is 12..n).
check_coords() {
	python3 -c '
import itertools, json, sys
kind, dims = sys.argv[1], json.loads(sys.argv[2])
for dev in json.load(sys.stdin):
    info = dev["linkinfo"]["info_data"]
    node = rest = info["node"]
    if kind in ("mesh", "torus"):
        want = []
        for d in dims:
            want.append(rest % d)
            rest //= d
    elif kind == "hypercube":
        want = [(node >> i) & 1 for i in range(dims[0])]
    else:
        want = list(next(itertools.islice(
            itertools.permutations(range(1, dims[0] + 1)), node, None)))
    if info.get("coords") != want:
        print("node %d: %s, expected %s" % (node, info.get("coords"), want))
' "$1" "$2"
}

# fabric NAME KIND DIMS-JSON NNODES IP-ARGS...
fabric() {
	name=$1 kind=$2 dims=$3 nnodes=$4
	shift 4
	what="$*"
	before=$(wc_count)
	if ! wc_add "$name" "$@"; then
		not_ok "create $what"
		return
	fi
	ok "create $what"
	is "$what: fabric device + $nnodes node devices" \
		"$(wc_count)" "$((before + nnodes + 1))"
	fab=$(ip -d -j link show dev "$name" | jq -c '.[0].linkinfo.info_data')
	is "$what: fabric device info_data" \
		"$(echo "$fab" | jq -c '[.role, .topology, .dims, .nodes]')" \
		"[\"fabric\",\"$kind\",$dims,$nnodes]"

	# Every node device: name, fabric id, topology, dims, node id, coords.
	fid=$(echo "$fab" | jq .fabric)
	nodes=$(wc_json | jq -c "map(select(.linkinfo.info_data.fabric == $fid and
		.linkinfo.info_data.role == \"node\")) | sort_by(.linkinfo.info_data.node)")
	is "$what: node ids 0..$((nnodes - 1))" \
		"$(echo "$nodes" | jq -c '[.[].linkinfo.info_data.node]')" \
		"$(seq 0 $((nnodes - 1)) | jq -cs .)"
	is "$what: default node names ${name}n<id>" \
		"$(echo "$nodes" | jq -r '[.[] | .ifname == "'"$name"'n\(.linkinfo.info_data.node)"] | all')" \
		true
	is "$what: node topology and dims" \
		"$(echo "$nodes" | jq -c '[.[].linkinfo.info_data | [.topology, .dims]] | unique')" \
		"[[\"$kind\",$dims]]"
	is "$what: coords of every node" "$(echo "$nodes" | check_coords "$kind" "$dims")" ""
	is "$what: all coords distinct" \
		"$(echo "$nodes" | jq '[.[].linkinfo.info_data.coords] | unique | length')" \
		"$nnodes"
	is "$what: distinct MAC addresses" \
		"$(echo "$nodes" | jq '[.[].address] | unique | length')" "$nnodes"

	check "$what: delete" wc_del "$name"
	is "$what: every device gone" "$(wc_count)" "$before"
}

fabric wc mesh '[8]' 8 topology mesh dims 8
fabric wc mesh '[4,4]' 16 topology mesh dims 4x4
fabric wc mesh '[3,3,3]' 27 topology mesh dims 3x3x3
fabric wc torus '[4,4]' 16 topology torus dims 4x4
fabric wc torus '[4,4,4]' 64 topology torus dims 4x4x4
fabric wc hypercube '[4]' 16 topology hypercube dim 4
fabric wc star '[4]' 24 topology star n 4
fabric wc star '[5]' 120 topology star n 5

# Two fabrics at once get distinct fabric ids and MACs.
if wc_add wa topology mesh dims 2 && wc_add wb topology mesh dims 2; then
	ok "two fabrics side by side"
	is "distinct fabric ids" \
		"$(wc_json | jq '[.[].linkinfo.info_data.fabric] | unique | length')" 2
	is "distinct MACs across fabrics" \
		"$(wc_json | jq '[.[] | select(.linkinfo.info_data.role == "node") | .address] | unique | length')" 4
	wc_del wa
	wc_del wb
else
	not_ok "two fabrics side by side"
fi

# A custom node name pattern.
if wc_add wc topology torus dims 2x3 nodename 'sw%d'; then
	ok "create with nodename sw%d"
	is "nodename pattern applied" "$(wc_nodes wc | tr '\n' ' ')" "sw0 sw1 sw2 sw3 sw4 sw5 "
	wc_del wc
else
	not_ok "create with nodename sw%d"
fi

# Engine parameters given at creation are reported back.
if wc_add wc topology mesh dims 4x4 flit_bytes 64 buf_flits 2 vcs 2 inj 2 \
	cons 3 router_delay 2 link_delay 3 startup 5 replication async \
	watchdog 5000 queue_len 64; then
	ok "create with every engine parameter"
	is "parameters in info_data" \
		"$(wc_field wc '[.flit_bytes, .buf_flits, .vcs, .inj, .cons, .router_delay, .link_delay, .startup, .replication, .watchdog, .queue_len]')" \
		'[64,2,2,2,3,2,3,5,"async",5000,64]'
	wc_del wc
else
	not_ok "create with every engine parameter"
fi

done_testing
