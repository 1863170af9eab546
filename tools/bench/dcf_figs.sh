#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Figs. 8 and 9 of the DCF paper (Hou, Wang, Hsu) with wormsim --bcast:
# node (0,0) broadcasts on a 32x32 torus, maximum latency against message
# length, t_s = t_r = 0 (Fig. 8) and 200 cycles (Fig. 9), DCF against EDN.
# One cycle per flit and hop (router delay 0, link delay 1), 4 injection
# channels (all-port), the p/l/h channels (Documentation/dcf.rst, "The
# broadcast in the engine").  L is the model's message length: a worm of
# L + 1 flits (header, L - 1 data flits, tail).
#
# Output (WC_FIGS_OUT, default Documentation/images):
#   dcf-fig8.csv, dcf-fig9.csv  L, then per scheme: engine latency, timing
#                               model (dcf_latency()), paper's closed form,
#                               worms blocked by others, their blocked
#                               cycles, worms blocked behind their own port
#   dcf-fig8.{png,svg}, dcf-fig9.{png,svg}
#   dcf-steps.csv               per step on 8x8, 16x16, 32x32 at L = 32
#                               and 1024, t_s = t_r = 0: what the engine
#                               measured, and the checker's pairs whose
#                               later unicast is in that step
# WC_LENS overrides the message lengths.  About 5 s on one core.
set -eu

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
SIM=${WORMSIM:-$ROOT/build/wormsim}
OUT=${WC_FIGS_OUT:-$ROOT/Documentation/images}
LENS=${WC_LENS:-"8 16 32 64 128 256 512 1024 2048"}
mkdir -p "$OUT"

# bcast SCHEME L OVH [SIDE] -> wormsim's output
bcast() {
	nice "$SIM" --topology torus --dims "${4:-32}x${4:-32}" --bcast "$1" \
		--src 0 --msg-flits $(($2 - 1)) --send-ovh "$3" --recv-ovh "$3"
}

# field NAME: the value of NAME= on the first line of stdin
field() {
	sed -n "1s/.* $1=\([^ ]*\).*/\1/p"
}

for fig in 8 9; do
	if [ $fig = 8 ]; then ovh=0; else ovh=200; fi
	f=$OUT/dcf-fig$fig.csv
	echo "L,dcf,dcf_model,dcf_paper,dcf_blocked_worms,dcf_blocked_cycles,dcf_own_port_worms,edn,edn_model,edn_paper,edn_blocked_worms,edn_blocked_cycles,edn_own_port_worms" >"$f"
	for l in $LENS; do
		line=$l
		for s in dcf edn; do
			r=$(bcast $s "$l" $ovh)
			for k in latency model_latency paper_latency \
				 blocked_worms blocked_cycles own_port_worms; do
				line="$line,$(echo "$r" | field $k)"
			done
		done
		echo "$line" >>"$f"
	done
	gnuplot -e "csv='$f'; out='$OUT/dcf-fig$fig'; figtitle='Fig. $fig: t_s = t_r = $ovh cycles'" \
		"$ROOT/tools/bench/dcf_figs.gp"
done

f=$OUT/dcf-steps.csv
echo "side,L,scheme,step,unicasts,blocked_worms,blocked_cycles,own_port_worms,own_port_cycles,last,thm1_pairs,timed_pairs" >"$f"
for side in 8 16 32; do
	for l in 32 1024; do
		for s in dcf edn; do
			bcast $s $l 0 $side | sed -n 's/^bcast-step //p' |
				sed 's/[a-z0-9_]*=//g' | tr ' ' ',' |
				sed "s/^/$side,$l,$s,/" >>"$f"
		done
	done
done
for f in "$OUT"/dcf-fig8.csv "$OUT"/dcf-fig9.csv "$OUT"/dcf-steps.csv; do
	echo "== $(basename "$f")"
	cat "$f"
done
