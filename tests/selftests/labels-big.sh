# SPDX-License-Identifier: GPL-2.0
#
# Sourced by 53-labels-cube.sh and 54-labels-star.sh (two scripts, so that
# each has the harness's time limit to itself): label-based multicast with
# real sockets on the hypercube and star-graph fabrics (issue 9, item 4;
# 47-labels covers the 8x8 mesh and a 4-star).
#
# Every scheme runs on both (Documentation/paths.rst: multipath groups by
# the source's first port, which works on any labeling, and star-tree only
# needs the labels): a 4-cube (16 nodes) and a 5-star (120 nodes), each
# one fabric switched from scheme to scheme (wormctl fabric set; a fabric
# created with "multicast SCHEME" is 47-labels' case), wormcastd
# committing the labeling (checked against "wormctl plan ... labels"),
# then N UDP datagrams from the source to the members, each in its own
# namespace: every member gets every datagram exactly once, the
# non-members none, the source sends exactly N frames as exactly N x W
# worms, where W is the number of worms (paths, or trees) of "wormctl -j
# plan TOPO STRUCT --src S --dst MEMBERS" for the same source and
# members, no frame goes by the fallback and no drop counter moves.
#
# The 5-star (54-labels-star) has 22 members and 2 non-members in
# namespaces, not 119: what this test checks (per-member exactly-once,
# per-frame worm counts) does not change with the group's size, while
# each member costs a namespace and a receiver process.  The members are
# spread over the labels on both sides of the source (label 59), and
# include two of its neighbours, so that multipath makes more worms than
# dual-path.  The 119-member group is tools/bench's "star" part.
#
# WC_LABEL_SCHEMES (as in 47-labels) narrows the path schemes; star-tree
# always runs.  The debug kernel's run takes dual-path only
# (tests/vm/selftests-debug.sh).
# The sourcing script sets SRC, MEMBERS and OTHERS and calls run_topo,
# then labels_done.
. "$(dirname "$0")/lib.sh"

WORMCASTD=${WC_BUILD:-$WC_ROOT/build}/wormcastd
N=20
PORT4=5000

[ -x "$WORMCASTD" ] || { not_ok "wormcastd built ($WORMCASTD)"; done_testing; exit; }
bg "$WORMCASTD"

# snap: "tx_frames worms_injected table_fallback drops" of the source
# node, and the sum of the fabric's drop counters (as wc_drops).
snap() {
	echo "$(wc_node_counters wc "$SRC" tx_frames worms_injected table_fallback) $(wc_drops wc)"
}

# The planner's structure for a kernel scheme.
plan_struct() {
	case $1 in
	star-tree) echo tree ;;
	*) echo "$1" ;;
	esac
}

# wait_labels SCHEME: wormcastd committed the fabric's labels table for
# SCHEME.
wait_labels() {
	wait_for 60 wc_table_committed wc $1 labels
}

# run_scheme TOPO SCHEME: switch the fabric to SCHEME and check N
# datagrams from SRC to the members.  TOPO is what "wormctl plan" takes
# ("hypercube 4", "star 5"); SRC, MEMBERS and OTHERS name the nodes.
run_scheme() {
	t="$1 $2" sch=$2
	check "$t: scheme set" wormctl fabric set wc multicast "$2"
	if wait_labels "$2"; then
		ok "$t: wormcastd committed the labels table"
	else
		not_ok "$t: wormcastd committed the labels table" "$(tail -n 5 "$WC_TMP/bg.log")"
	fi
	# shellcheck disable=SC2086
	w_plan=$(wormctl -j plan $1 "$(plan_struct "$2")" --src "$SRC" \
		--dst "$(echo $MEMBERS | tr ' ' ,)" |
		jq '.worms | if type == "array" then length else . end')
	diag "$t: the planner makes $w_plan worms per frame from node $SRC"

	for id in $MEMBERS $OTHERS; do
		: >"$WC_TMP/got4.$id"
	done
	# shellcheck disable=SC2046
	set -- $(snap)
	tx0=$1 w0=$2 f0=$3
	check "$t: send $N datagrams to 239.1.2.3" \
		"$UDP" send --netns "n$SRC" --dst 239.1.2.3 --port "$PORT4" \
		--ifname "wcn$SRC" --count $N --tag "$sch" --size 200
	wait_for 60 mc_members_have 4 $N
	mc_check_got 4 "$t" "$sch" $N
	# shellcheck disable=SC2046
	set -- $(snap)
	is "$t: the source sent $N frames" $(($1 - tx0)) $N
	is "$t: $w_plan worms per frame, as planned" $(($2 - w0)) $((N * w_plan))
	is "$t: no frame routed by the fallback" $(($3 - f0)) 0
	is "$t: fabric drop counters all zero" "$4" 0
}

# run_topo TOPO LINKARGS...: one fabric, its nodes in namespaces and the
# receivers started once, then every scheme in turn (wormctl fabric set).
# Asynchronous replication and buffers that hold a whole worm (at most
# 1 + 22 header flits, 8 data flits, the tail), as star-tree wants; the
# path schemes do not mind.
run_topo() {
	tp=$1 t0=$(date +%s)
	shift
	if ! wc_add wc "$@" replication async buf_flits 64 multicast star-tree; then
		not_ok "$tp: fabric created"
		return
	fi
	# not in check's subshell: nodes_in_ns records the namespaces to delete
	# shellcheck disable=SC2086
	if nodes_in_ns $SRC $MEMBERS $OTHERS >"$WC_TMP/nodes.log" 2>&1; then
		ok "$tp: nodes $SRC $MEMBERS $OTHERS in their namespaces"
	else
		not_ok "$tp: nodes $SRC $MEMBERS $OTHERS in their namespaces" \
			"$(cat "$WC_TMP/nodes.log")"
	fi
	mc_recv_start 4
	wait_for 60 mc_all_ready 4 || not_ok "$tp: receivers joined"
	# the labels do not depend on the scheme: checked once
	if wait_labels star-tree; then
		ok "$tp: wormcastd committed the labels table"
	else
		not_ok "$tp: wormcastd committed the labels table" "$(tail -n 5 "$WC_TMP/bg.log")"
	fi
	# shellcheck disable=SC2086
	is "$tp: the kernel routes by the planner's labels" \
		"$(wormctl -j table show -v wc | jq -c '[.[] | select(.kind == "labels")][0].label')" \
		"$(wormctl -j plan $tp labels | jq -c '[.nodes[].label]')"
	for s in $(echo "${WC_LABEL_SCHEMES:-hamiltonian,dual-path,multipath}" | tr , ' ') \
		star-tree; do
		run_scheme "$tp" "$s"
	done
	mc_recv_stop
	check "$tp: fabric deleted" wc_del wc
	_fabrics=""
	diag "$tp: $(($(date +%s) - t0)) s"
}

labels_done() {
	bg_stop
	done_testing
}
