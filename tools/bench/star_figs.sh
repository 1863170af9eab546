#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Figs. 7, 8 and 9 of the star paper (Wang and Chu) with wormsim --mcast0 on
# a 6-star (720 nodes): zero-load multicast latency of the unicast-based
# (multi-phase, receivers re-inject), Hamiltonian-path, dual-path and
# tree-based schemes.  One cycle = 5 ns = one flit time = the link delay;
# router 40 ns (8 cycles) for multidestination worms, 20 ns (4) for
# unicast; startup 1 us = 550 + 450 ns (110 + 90 cycles) or 10 us = 5.5 +
# 4.5 us (1100 + 900).  Output: tab-separated tables in WC_FIGS (default
# build/star-figs), latencies in microseconds.  WC_DRAWS draws per point.
set -eu

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
SIM=${WORMSIM:-$ROOT/build/wormsim}
OUT=${WC_FIGS:-$ROOT/build/star-figs}
DRAWS=${WC_DRAWS:-20}
SIZES=${WC_SIZES:-"10 40 80 120 200 300 400 500 600 719"}
mkdir -p "$OUT"

# latency SCHEME K FLITS SEND RECV -> microseconds
latency() {
	case $1 in
	unicast) rd=4 rep=lockstep ;;
	star-tree) rd=8 rep=async ;;
	*) rd=8 rep=lockstep ;;
	esac
	nice "$SIM" --topology star --n 6 --multicast "$1" --mcast0 "$2" \
		--draws "$DRAWS" --msg-flits "$3" --flit-bytes 32 \
		--router-delay $rd --link-delay 1 --startup 0 --inj 2 \
		--replication $rep --send-ovh "$4" --recv-ovh "$5" |
		sed -n 's/.* latency=\([0-9.]*\) .*/\1/p' |
		awk '{ printf "%.2f", $1 * 5 / 1000 }'
}

schemes="unicast hamiltonian dual-path star-tree"
for fig in 7 8; do
	if [ $fig = 7 ]; then s=110 r=90; else s=1100 r=900; fi
	for flits in 6 120 2400; do
		f=$OUT/fig$fig-$flits.tsv
		echo "# size unicast-based hamiltonian dual-path tree-based (us)" >"$f"
		for k in $SIZES; do
			line=$k
			for m in $schemes; do
				line="$line	$(latency $m "$k" $flits $s $r)"
			done
			echo "$line" >>"$f"
		done
	done
done
f=$OUT/fig9.tsv
echo "# startup_us unicast-based hamiltonian dual-path tree-based (us)" >"$f"
for us in 1 2 4 6 8 10; do
	s=$((us * 110)) r=$((us * 90))
	line=$us
	for m in $schemes; do
		line="$line	$(latency $m 120 120 $s $r)"
	done
	echo "$line" >>"$f"
done
for f in "$OUT"/*.tsv; do
	echo "== $(basename "$f")"
	cat "$f"
done
