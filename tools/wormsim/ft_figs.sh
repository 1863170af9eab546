#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# make ft-figs: Wu and Chen's fault-tolerant minimal multicast
# (--multicast ftmesh) under load on a 50x50 mesh with 50, 100 and 150
# random faulty nodes (Documentation/faults.rst, "The multicast in the
# engine").  Every message a multicast to WC_DSTS random destinations,
# Poisson arrivals, 16 data flits, one header flit per destination,
# asynchronous replication with 64-flit buffers, 4 VCs (one per
# subnetwork).  Strategies 1 and 2 split at the routers; Strategy 3 sends
# every multicast as the daemon library's plan (--ft-strategy 3), and a
# run whose planned multicasts reserved other links than the planner's
# count fails.  Per fault count and strategy: mean multicast latency
# (to the last reachable destination), traffic steps per multicast
# against multiple unicast, and the share of destinations left out at
# the source (count and share of those generated in the measured window),
# against offered load (measured).
#
# Output: $WC_FIGS_OUT (default Documentation/images): ft-load.csv,
# ft-load.{png,svg}; raw runs in $WC_FIGS (default build/ft-figs).
set -eu

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
SIM=${WORMSIM:-$ROOT/build/wormsim}
OUT=${WC_FIGS_OUT:-$ROOT/Documentation/images}
RAW=${WC_FIGS:-$ROOT/build/ft-figs}
SWEEP=${WC_SWEEP:-0.0005:0.007:0.0005}
CYCLES=${WC_CYCLES:-10000}
DSTS=${WC_DSTS:-20}
CASES=${WC_CASES:-"50:2 100:2 150:2 100:1 50:3 100:3 150:3"}
ENGINE="--dims 50x50 --vcs 4 --replication async --buf-flits 64 --msg-flits 16"
mkdir -p "$OUT" "$RAW"

f=$OUT/ft-load.csv
echo "faults,strategy,offered,latency,steps,unicast_steps,left_out,left_out_share,unstable" >"$f"
for c in $CASES; do
	nf=${c%%:*}
	s=${c##*:}
	# shellcheck disable=SC2086
	nice -n 10 "$SIM" $ENGINE --multicast ftmesh --ft-strategy "$s" \
		--random-faults "$nf" --mcast-frac 1 --dsts "$DSTS" \
		--sweep "$SWEEP" --cycles "$CYCLES" |
		tee "$RAW/ft-$nf-s$s.txt" |
		awk -v nf="$nf" -v s="$s" -v k="$DSTS" -v cyc="$CYCLES" '
			/^ *0\.[0-9]+ / && $10 == "|" {
				if ($0 ~ /DEADLOCK|route errors|misdelivered|lost|[1-9][0-9]* differ/)
					{ print "ft_figs: " $0 > "/dev/stderr"; exit 1 }
				steps = "nan"; uni = "nan"; out = "nan"
				if (match($0, /traffic [0-9.]+ steps/))
					steps = substr($0, RSTART + 8, RLENGTH - 14)
				if (match($0, /multiple unicast [0-9.]+/))
					uni = substr($0, RSTART + 17, RLENGTH - 17)
				n = 0
				if (match($0, /[0-9]+ destinations left out/))
					n = substr($0, RSTART, RLENGTH) + 0
				lat = ($0 ~ /unstable/) ? "nan" : $12
				# destinations generated in the window: 50x50
				# nodes, 16 data flits a message, k each
				gen = $2 * 2500 * cyc / 16 * k
				printf "%s,%s,%s,%s,%s,%s,%s,%.3f,%d\n", nf, s, $2,
					lat, steps, uni, n, gen ? n / gen : 0,
					($0 ~ /unstable/)
			}' >>"$f"
done
gnuplot -e "csv='$f'; out='$OUT/ft-load'" "$ROOT/tools/wormsim/ft_figs.gp" </dev/null
echo "ft_figs: $f, $OUT/ft-load.png"
