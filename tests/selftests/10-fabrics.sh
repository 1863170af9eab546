#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Create and delete fabrics of every topology; check the node devices (count,
# default names <fabric>n<id>, a custom nodename pattern) and what
# "ip -d -j link show" reports under linkinfo.info_data: role, fabric,
# topology, dims, node, coords, and the engine parameters given at creation.
. "$(dirname "$0")/lib.sh"

# fabric_facts NAME KIND DIMS-JSON < "ip -d -j link show" JSON: what the
# checks of fabric() compare, one line each, in one Python process (under
# TCG every jq or Python start costs about a second): the number of
# wormcast devices; the fabric device's [role, topology, dims, nodes]; its
# node devices' ids in order; whether every node is named NAMEn<id>; the
# distinct [topology, dims] of the nodes; every node whose coords differ
# from the definition in kmod/engine/topology.h, computed here
# independently of the kernel (star: permutations of 1..n in lexicographic
# order, node 0 is 12..n), "; "-separated; the number of distinct coords;
# the number of distinct MAC addresses.
fabric_facts() {
	python3 -c '
import itertools, json, sys
name, kind, dims = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])


def js(v):
    return json.dumps(v, separators=(",", ":"))


wc = [d for d in json.load(sys.stdin)
      if d.get("linkinfo", {}).get("info_kind") == "wormcast"]
print(len(wc))
fab = [d["linkinfo"]["info_data"] for d in wc if d["ifname"] == name]
fab = fab[0] if fab else {}
print(js([fab.get(k) for k in ("role", "topology", "dims", "nodes")]))
nodes = sorted((d for d in wc
                if d["linkinfo"]["info_data"].get("fabric") == fab.get("fabric")
                and d["linkinfo"]["info_data"].get("role") == "node"),
               key=lambda d: d["linkinfo"]["info_data"]["node"])
infos = [d["linkinfo"]["info_data"] for d in nodes]
print(js([i["node"] for i in infos]))
print(js(all(d["ifname"] == "%sn%d" % (name, i["node"])
             for d, i in zip(nodes, infos))))
topo = []
for i in infos:
    if [i.get("topology"), i.get("dims")] not in topo:
        topo.append([i.get("topology"), i.get("dims")])
print(js(sorted(topo, key=js)))
bad = []
for info in infos:
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
        bad.append("node %d: %s, expected %s" % (node, info.get("coords"), want))
print("; ".join(bad))
print(len({js(i.get("coords")) for i in infos}))
print(len({d.get("address") for d in nodes}))
' "$@"
}

before=$(wc_count)

# fabric NAME KIND DIMS-JSON NNODES IP-ARGS...
fabric() {
	name=$1 kind=$2 dims=$3 nnodes=$4
	shift 4
	what="$*"
	if ! wc_add "$name" "$@"; then
		not_ok "create $what"
		return
	fi
	ok "create $what"
	ip -d -j link show | fabric_facts "$name" "$kind" "$dims" >"$WC_TMP/facts"
	{
		read -r count
		read -r fab
		read -r ids
		read -r names
		read -r topo
		read -r coords
		read -r ncoords
		read -r nmacs
	} <"$WC_TMP/facts"
	is "$what: fabric device + $nnodes node devices" "$count" "$((before + nnodes + 1))"
	is "$what: fabric device info_data" "$fab" "[\"fabric\",\"$kind\",$dims,$nnodes]"

	# Every node device: name, fabric id, topology, dims, node id, coords.
	i=0 want=""
	while [ "$i" -lt "$nnodes" ]; do
		want="$want${want:+,}$i"
		i=$((i + 1))
	done
	is "$what: node ids 0..$((nnodes - 1))" "$ids" "[$want]"
	is "$what: default node names ${name}n<id>" "$names" true
	is "$what: node topology and dims" "$topo" "[[\"$kind\",$dims]]"
	is "$what: coords of every node" "$coords" ""
	is "$what: all coords distinct" "$ncoords" "$nnodes"
	is "$what: distinct MAC addresses" "$nmacs" "$nnodes"

	check "$what: delete" wc_del "$name"
	# (the count the next fabric starts from, measured)
	after=$(wc_count)
	is "$what: every device gone" "$after" "$before"
	before=$after
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
	# (one ip and one jq for both)
	read -r nfab nmac <<EOF
$(ip -d -j link show | jq -r '[.[] | select(.linkinfo.info_kind == "wormcast")] |
	"\([.[].linkinfo.info_data.fabric] | unique | length) \([.[] |
	select(.linkinfo.info_data.role == "node") | .address] | unique | length)"')
EOF
	is "distinct fabric ids" "$nfab" 2
	is "distinct MACs across fabrics" "$nmac" 4
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
