#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# A link fails under multicast traffic, for each scheme that 56-59 do not
# cover (issue 10, item 6): spam, hamiltonian, multipath, ocms and otms on
# a 4x4 mesh (one fabric switched from scheme to scheme), rt on a 4x4
# torus, star-tree on the 4-star; wormcastd running, the source and three
# members and a non-member in their own namespaces.
#
# Each round: the scheme's table (and for ocms/otms the plan for the
# group) committed by wormcastd; the source sends datagrams, paced, at
# least N1 and on until told to stop (so that a slow VM cannot let it
# finish before the fault); once every member has read a few, "wormctl
# stats --links" (busy cycles) shows which links the route uses, and a
# used link into a member (else any used one) fails while the source
# still sends; the source stops after the re-push; then
# N2 more.
# Documentation/faults.rst says what follows:
#
#  * every scheme here follows faults: wormcastd re-pushes its table
#    with the faulty link (a new generation, logged "push: ... faulty
#    links 1, fault event to commit N ms"): rt the same trees, spam a
#    tree of the live links, the label schemes (hamiltonian, multipath,
#    ocms, otms, star-tree) labels whose Hamiltonian path avoids the link
#    (ocms/otms: plans made again on the new labels); every member gets
#    each datagram sent after it exactly once, none counted.  Copies
#    that meet the link before the re-push are absorbed and counted in
#    the source's fault_drops.
#
# Then the same with a node, under spam, hamiltonian and rt: a node the
# route transits fails (under rt one that both trees transit); wormcastd
# re-pushes a tree from which the node hangs as a leaf (its other links
# listed), labels whose path ends at the node, or two trees rebuilt on the
# live links with the node a leaf of both (all its links listed), and
# again every datagram after it is read exactly once, none counted.
#
# For the whole round, sent x members = copies read + fault_drops exactly,
# no other drop counter moves, the non-member gets nothing, and "wormctl
# monitor" prints the failure and the repair.  The script prints its time.
. "$(dirname "$0")/lib.sh"

WORMCASTD=${WC_BUILD:-$WC_ROOT/build}/wormcastd
SRC=0
N1=${WC_SF_DURING:-80}	# at least, 50 ms apart, the link failing meanwhile
N2=${WC_SF_AFTER:-20}	# sent after the re-push (or the fault)
PORT4=6100
t_start=$(date +%s)

[ -x "$WORMCASTD" ] || { not_ok "wormcastd built ($WORMCASTD)"; done_testing; exit; }
module_loaded || insmod "${WC_MODULE:-$WC_ROOT/wormcast.ko}"

# every source in the daemon's plans at once (ocms/otms), not lazily
printf 'plans_eager_max = 4294967295\n' >"$WC_TMP/d.conf"
bg sh -c "exec wormctl monitor >$WC_TMP/mon"
mon_ready=""

# tables JQ: the tables of fabric wc as "wormctl -j table show" gives them
tables() {
	wormctl -j table show wc 2>/dev/null | jq -c "$1"
}

# scheme_gen S: generation of the committed table of scheme S ("" if none)
scheme_gen() {
	wc_table_field wc "$1" gen
}

# plan_dests: destinations of the plan for (SRC, 239.1.2.3: its MAC), sorted
plan_dests() {
	wormctl -j table show -v wc 2>/dev/null | jq -c "[.[] | select(.kind == \"plans\")][0].plans // [] |
		map(select(.src == $SRC and .group == \"01:00:5e:01:02:03\"))[0].worms // [] | [.[][]] | sort"
}

# ready S: the table of scheme S committed (ocms/otms: with the group's plan)
ready() {
	[ -n "$(scheme_gen "$1")" ] || return 1
	case $1 in
	ocms | otms) [ "$(plan_dests)" = "$(echo $MEMBERS | tr ' ' '\n' | jq -sc sort)" ] ;;
	esac
}

# send COUNT TAG [UDP-ARGS...]: COUNT datagrams "TAG i" from SRC to the group
send() {
	c=$1 _tag=$2
	shift 2
	"$UDP" send --netns "n$SRC" --dst 239.1.2.3 --port $PORT4 \
		--ifname "wcn$SRC" --count "$c" --tag "$_tag" --size 300 "$@"
}

# got TAG: lines "TAG i" the members read, in all
got() {
	for m in $MEMBERS; do
		echo "$WC_TMP/got4.$m"
	done | xargs grep -h "^$1 " | grep -c .
}

# each_has TAG K: every member read at least K lines "TAG i"
each_has() {
	for m in $MEMBERS; do
		[ "$(grep -c "^$1 " "$WC_TMP/got4.$m")" -ge "$2" ] || return 1
	done
}

# settled TAG COUNT FD0: every copy of COUNT datagrams read or counted
settled() {
	[ $(($(got "$1") + $(wc_stat wc fault_drops) - $3)) -ge $(($2 * nm)) ]
}

# dups PREFIX: lines starting with PREFIX that a member read twice, in all
dups() {
	for m in $MEMBERS; do
		echo "$WC_TMP/got4.$m"
	done | xargs awk -v p="$1" 'FNR == 1 { delete seen }
		index($0, p) == 1 && seen[$0]++ { d++ } END { print d + 0 }'
}

# used_links: "A B" per link the probe's worms crossed (busy grew between
# the two "stats --links" snapshots), in the kernel's order
used_links() {
	jq -nr --slurpfile a "$WC_TMP/links0" --slurpfile b "$WC_TMP/links1" '
		$b[0][0].links | to_entries[] | .key as $i | .value |
		select(.busy > $a[0][0].links[$i].busy) | "\(.node) \(.peer)"'
}

# used_link: "A B", a used link, one into a member if there is one
used_link() {
	used_links | {
		first=""
		while read -r a b; do
			case " $MEMBERS " in *" $b "*) echo "$a $b"; exit ;; esac
			[ -n "$first" ] || first="$a $b"
		done
		[ -z "$first" ] || echo "$first"
	}
}

# used_node [CANDIDATES]: a node of a used link that is neither the
# source, a member nor the non-member (one of CANDIDATES if given)
used_node() {
	used_links | {
		while read -r a b; do
			for n in $a $b; do
				case " $SRC $MEMBERS $OTHERS " in
				*" $n "*) continue ;;
				esac
				case " ${1:-$n} " in
				*" $n "*) echo "$n"; exit ;;
				esac
			done
		done
	}
}

# both_transit W: the nodes of a W x W torus that both trees of its
# two-tree table transit (tree degree 2 or more in each)
both_transit() {
	wormctl -j table show -v wc | jq -r --argjson w "$1" '
		def nbr($v; $p): [[1, 0], [-1, 0], [0, 1], [0, -1]][$p] as $d |
			($v % $w + $d[0] + $w) % $w +
			$w * ((($v / $w | floor) + $d[1] + $w) % $w);
		[.[] | select(.parent_port)][0].parent_port |
		map(. as $pp | [$pp | to_entries[] | select(.value != null) |
				nbr(.key; .value)] as $par |
			[range($pp | length) | . as $v |
				([$par[] | select(. == $v)] | length) +
				(if $pp[$v] == null then 0 else 1 end)]) |
		. as $deg | range($deg[0] | length) |
		select($deg[0][.] >= 2 and $deg[1][.] >= 2)' | tr '\n' ' '
}

# fabric TOPO-ARGS...: fabric wc, its nodes in namespaces, receivers started
fabric() {
	if ! wc_add wc "$@"; then
		not_ok "fabric: $*"
		return 1
	fi
	# shellcheck disable=SC2086
	nodes_in_ns $SRC $MEMBERS $OTHERS >"$WC_TMP/nodes.log" 2>&1 ||
		not_ok "nodes $SRC $MEMBERS $OTHERS in their namespaces" "$(cat "$WC_TMP/nodes.log")"
	fid=$(wc_field wc .fabric)
	nm=$(echo $MEMBERS | wc -w)
	ok "$*: fabric $fid, nodes $SRC $MEMBERS $OTHERS in namespaces"
	if [ -z "$mon_ready" ]; then
		# the monitor is subscribed once it has seen a change of its own
		if wait_for 30 sh -c "wormctl fault add wc link 0 1 && wormctl fault del wc link 0 1 &&
				grep -q '^fault del fabric $fid wc link 0 1\$' $WC_TMP/mon"; then
			ok "wormctl monitor is listening"
		else
			not_ok "wormctl monitor is listening" "$(cat "$WC_TMP/mon" 2>/dev/null)"
		fi
		mon_ready=1
		bg "$WORMCASTD" -c "$WC_TMP/d.conf"
		wcd=$bg_pid
	fi
	mc_recv_start 4
	wait_for 60 mc_all_ready 4 || not_ok "receivers joined"
}

fabric_done() {
	mc_recv_stop
	check "fabric deleted" wc_del wc
	_fabrics=""
}

# plans_gen: generation of the committed plans table (0 if none)
plans_gen() {
	_g=$(wc_table_field wc plans gen)
	echo "${_g:-0}"
}

# repushed S GEN0 PGEN0 NFAULTS: the table of scheme S lists NFAULTS
# faulty links at a generation after GEN0 (ocms/otms: the group's plan
# made again on it, after PGEN0)
repushed() {
	[ "$(wc_table_field wc "$1" faulty_links)" = "$4" ] &&
		[ "$(scheme_gen "$1")" -gt "$2" ] && ready "$1" || return 1
	case $1 in
	ocms | otms) [ "$(plans_gen)" -gt "$3" ] ;;
	esac
}

# degree N: links of node N of fabric wc
degree() {
	wormctl -j stats wc --links | jq "[.[0].links[] | select(.node == $1)] | length"
}

# round SCHEME [node]: the scheme on fabric wc, a link it uses (or a node
# it transits) fails under traffic
round() {
	s=$1 kind=${2:-link} t0=$(date +%s)
	tag=$s${2:+-$2}		# the datagrams' tag: distinct per round
	r=$s${2:+ $2}		# the round's name in the results
	if [ "$(wc_field wc .multicast)" != "\"$s\"" ]; then
		check "$r: wormctl fabric set wc multicast $s" wormctl fabric set wc multicast "$s"
	fi
	if wait_for 60 ready "$s"; then
		ok "$r: wormcastd committed the table (generation $(scheme_gen "$s"))"
	else
		not_ok "$r: wormcastd committed the table" "$(tables .)" "$(tail -n 5 "$WC_TMP/bg.log")"
		return
	fi
	if grep -q "push: fabric wc scheme $s " "$WC_TMP/bg.log"; then
		ok "$r: wormcastd logged the push"
	else
		not_ok "$r: wormcastd logged the push" "$(tail -n 5 "$WC_TMP/bg.log")"
	fi

	gen0=$(scheme_gen "$s") fd0=$(wc_stat wc fault_drops) dr0=$(wc_drops wc)
	pgen0=$(plans_gen)
	wormctl -j stats wc --links >"$WC_TMP/links0"
	rm -f "$WC_TMP/stop" "$WC_TMP/sent"
	bg send "$N1" "$tag-during" --interval 0.05 --until "$WC_TMP/stop" --sent "$WC_TMP/sent"
	sender=$bg_pid
	# which links does the route use?  Those busy since links0.
	wait_for 30 each_has "$tag-during" 3
	wormctl -j stats wc --links >"$WC_TMP/links1"
	if [ "$kind" = node ]; then
		case $s in
		rt)
			# one that neither tree can do without: the trees are rebuilt
			cand=$(both_transit 4)
			A=$(used_node "$cand")
			for n in $cand; do
				case " $SRC $MEMBERS $OTHERS " in
				*" $n "*) ;;
				*) A=${A:-$n} ;;
				esac
			done
			;;
		*) A=$(used_node) ;;
		esac
		fault="node $A" what="node $A" nf=$(degree "${A:-0}")
		# the table lists the node's links but the one it hangs by
		# (rt: all of them, hanging by one in each tree)
		case $s in
		spam)
			nf=$((nf - 1))
			logged="faulty nodes 1 (1 leaves of the tree.*"
			;;
		rt) logged="faulty nodes 1 (leaves of both trees.*trees rebuilt on the live links.*" ;;
		*)
			nf=$((nf - 1))
			logged="faulty nodes 1 (put at the ends of the path.*"
			;;
		esac
	else
		# shellcheck disable=SC2046
		set -- $(used_link)
		A=${1:-} B=${2:-}
		fault="link $A $B" what="link $A-$B" nf=1 logged=""
	fi
	if [ -z "$A" ]; then
		not_ok "$r: the route crossed a $kind" "$(cat "$WC_TMP/links1")"
		touch "$WC_TMP/stop"
		wait "$sender"
		return
	fi
	# shellcheck disable=SC2086
	if kill -0 "$sender" 2>/dev/null; then
		check "$r: $what (used by the route) fails under traffic" \
			wormctl fault add wc $fault
	else
		not_ok "$r: $what fails under traffic (the sender exited)"
		wormctl fault add wc $fault
	fi
	# the trees or labels table lists the faulty links, at a new
	# generation (ocms/otms: and the group's plan made again on it)
	if wait_for 30 repushed "$s" "$gen0" "$pgen0" "$nf"; then
		ok "$r: wormcastd re-pushed the table with $nf faulty links ($gen0 -> $(scheme_gen "$s"))"
	else
		not_ok "$r: wormcastd re-pushed the table with $nf faulty links" \
			"$(wormctl table show wc)" "$(tail -n 5 "$WC_TMP/bg.log")"
	fi
	l=$(grep -o "push: fabric wc scheme $s .*faulty links [0-9]*, ${logged}fault event to commit [0-9]* ms" \
		"$WC_TMP/bg.log" | tail -n 1)
	if [ -n "$l" ]; then
		ok "$r: wormcastd logged the re-push (${l##*, })"
	else
		not_ok "$r: wormcastd logged the re-push" "$(tail -n 5 "$WC_TMP/bg.log")"
	fi
	touch "$WC_TMP/stop"
	wait "$sender"
	is "$r: the source sent datagrams while the $kind failed" $? 0
	n1=$(cat "$WC_TMP/sent" 2>/dev/null || echo 0)
	if [ "$n1" -ge "$N1" ]; then
		ok "$r: $n1 sent until the stop (at least $N1)"
	else
		not_ok "$r: at least $N1 sent until the stop ($n1)"
	fi
	wait_for 30 settled "$tag-during" "$n1" "$fd0"
	fd1=$(wc_stat wc fault_drops)
	check "$r: send $N2 datagrams after the re-push" send "$N2" "$tag-after"
	wait_for 30 settled "$tag-after" "$N2" "$fd1"

	is "$r: no member read a datagram twice" "$(dups "$tag-")" 0
	is "$r: non-member $OTHERS read nothing" "$(grep -c "^$tag-" "$WC_TMP/got4.$OTHERS")" 0
	fd2=$(wc_stat wc fault_drops)
	fd=$((fd2 - fd0)) fda=$((fd2 - fd1))
	gd=$(got "$tag-during") ga=$(got "$tag-after")
	is "$r: sent x members = read + fault_drops ($((n1 + N2)) x $nm = $((gd + ga)) + $fd)" \
		$((gd + ga + fd)) $(((n1 + N2) * nm))
	is "$r: no other drop counter moved" "$(wc_drops wc)" "$dr0"
	for m in $MEMBERS; do
		is "$r: member $m read each of the $N2 datagrams after the re-push once" \
			"$(grep -c "^$tag-after " "$WC_TMP/got4.$m")" "$N2"
	done
	is "$r: nothing counted after the re-push" $fda 0
	# shellcheck disable=SC2086
	check "$r: $what repaired" wormctl fault del wc $fault
	for ev in add del; do
		ev="fault $ev fabric $fid wc $kind"
		if [ "$kind" = node ]; then
			wait_for 10 grep -qx "$ev $A" "$WC_TMP/mon"
		else
			wait_for 10 grep -qx "$ev $A $B\|$ev $B $A" "$WC_TMP/mon"
		fi
		if [ $? = 0 ]; then
			ok "$r: monitor: $ev ${what#* }"
		else
			not_ok "$r: monitor: $ev ${what#* }" "$(tail -n 5 "$WC_TMP/mon")"
		fi
	done
	diag "$r: $(($(date +%s) - t0)) s ($fd copies counted during the round, $((gd + ga)) read)"
}

MEMBERS="6 9 15" OTHERS="3"
if fabric topology mesh dims 4x4 multicast spam; then
	for s in $(echo "${WC_SF_MESH_SCHEMES:-spam,hamiltonian,multipath,ocms,otms}" | tr , ' '); do
		round "$s"
	done
	round spam node
	round hamiltonian node
	fabric_done
fi
if fabric topology torus dims 4x4 multicast rt; then
	round rt
	round rt node
	fabric_done
fi
MEMBERS="7 13 23" OTHERS="3"
if fabric topology star n 4 replication async buf_flits 64 multicast star-tree; then
	round star-tree
	fabric_done
fi
check "wormcastd still running" kill -0 "$wcd"
diag "61-scheme-faults: $(($(date +%s) - t_start)) s"
done_testing
