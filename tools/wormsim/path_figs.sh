#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# make path-figs: dual-path, multipath, OCMS and OTMS on a 2-D mesh with
# wormsim, beside the path-based paper (Bouchitte, Cohen, Fleury; see
# Documentation/paths.rst, "Dual-path, multipath, OCMS and OTMS on a mesh").
# Under ocms and otms wormsim plans every multicast with the daemon's
# planner and sends the plan through the engine (as the kernel does).
#
#  (a) traffic at zero load (--mcast0): one multicast at a time from a
#      random source to k random destinations, WC_DRAWS draws per point,
#      the same draws for every scheme (same seed): links the engine
#      reserved, channel crossings (the paper's Eq. 3: a link two worms
#      cross counts twice; from the planner, equal to the engine's by
#      test_wormsim_plans), longest worm (Eq. 4) and latency (cycles);
#      on 8x8 and 16x16 meshes.
#  (b) mean multicast latency against offered load on the 8x8 mesh: every
#      message a multicast to k random destinations (WC_LOAD_KS), Poisson
#      arrivals, one run per seed (WC_SEEDS) and load, the mean over seeds
#      ("nan" where a seed's run is unstable: the queues grow).
#
# Engine: 16 data flits (512 B), one header flit per destination of a
# worm, router and link delay 1 cycle, 1-flit buffers, 4 injection
# channels (a star's worms leave together: up to 4 on a 2-D mesh),
# 2 consumption channels.
#
# Output: $WC_FIGS_OUT (default Documentation/images): path-traffic.csv,
# path-traffic.{png,svg}, path-load-kK.csv, path-load-kK.{png,svg},
# path-knees.csv; raw runs in $WC_FIGS (default build/path-figs).
set -eu

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
SIM=${WORMSIM:-$ROOT/build/wormsim}
OUT=${WC_FIGS_OUT:-$ROOT/Documentation/images}
RAW=${WC_FIGS:-$ROOT/build/path-figs}
DRAWS=${WC_DRAWS:-1000}
KS=${WC_KS:-"2 4 8 16 32"}
LOAD_KS=${WC_LOAD_KS:-"4 8 16"}
SEEDS=${WC_SEEDS:-"1 2 3 4 5"}
CYCLES=${WC_CYCLES:-20000}
SCHEMES="dual-path multipath ocms otms"
ENGINE="--inj 4 --msg-flits 16 --router-delay 1 --link-delay 1"
mkdir -p "$OUT" "$RAW"
start=$(date +%s)

# (a) traffic at zero load
f=$OUT/path-traffic.csv
echo "mesh,k,scheme,links,crossings,longest,latency" >"$f"
for dims in 8x8 16x16; do
	for k in $KS; do
		for s in $SCHEMES; do
			# shellcheck disable=SC2086
			nice "$SIM" --dims $dims --multicast $s $ENGINE \
				--mcast0 "$k" --draws "$DRAWS" |
				tee "$RAW/mcast0-$dims-$k-$s.txt" |
				awk -v d="$dims" -v k="$k" -v s="$s" '{
					for (i = 1; i <= NF; i++) {
						split($i, kv, "="); v[kv[1]] = kv[2]
					}
					if (v["lost"] + v["deadlocks"] + v["route_errors"] + v["plan_fallback"] > 0)
						{ print "path_figs: " $0 > "/dev/stderr"; exit 1 }
					printf "%s,%s,%s,%.2f,%.2f,%.2f,%.2f\n", d, k, s,
						v["channels"], v["plan_channels"],
						v["plan_max_length"], v["latency"]
				}' >>"$f"
		done
	done
done
gnuplot -e "csv='$f'; out='$OUT/path-traffic'" "$ROOT/tools/wormsim/path_figs.gp" </dev/null

# (b) latency against offered load, 8x8
for k in $LOAD_KS; do
	case $k in
	4) sweep=0.002:0.026:0.002 ;;
	8) sweep=0.001:0.014:0.001 ;;
	*) sweep=0.0005:0.008:0.0005 ;;
	esac
	for s in $SCHEMES; do
		for seed in $SEEDS; do
			# shellcheck disable=SC2086
			nice "$SIM" --dims 8x8 --multicast $s $ENGINE \
				--mcast-frac 1 --dsts "$k" --sweep $sweep --jobs 1 \
				--seed "$seed" --warmup 1000 --cycles "$CYCLES" \
				--csv "$RAW/load-k$k-$s-seed$seed.csv" \
				>"$RAW/load-k$k-$s-seed$seed.txt"
		done
	done
	awk -F, -v schemes="$SCHEMES" '
	BEGIN { ns = split(schemes, S, " ") }
	FNR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
	{
		s = $col["algo"]; l = $col["load"] + 0; key = s SUBSEP l
		loads[l] = 1; n[key]++
		if ($col["unstable"] == 1 || $col["deadlocks"] > 0 ||
		    $col["route_errors"] > 0)
			bad[key]++
		sum[key] += $col["mc_mean"]
	}
	END {
		printf "load"
		for (j = 1; j <= ns; j++) printf ",%s", S[j]
		printf "\n"
		m = 0
		for (l in loads) L[++m] = l + 0
		for (a = 1; a <= m; a++) for (b = a + 1; b <= m; b++)
			if (L[b] < L[a]) { t = L[a]; L[a] = L[b]; L[b] = t }
		for (a = 1; a <= m; a++) {
			printf "%.4f", L[a]
			for (j = 1; j <= ns; j++) {
				key = S[j] SUBSEP L[a]
				if (!n[key] || bad[key]) printf ",nan"
				else printf ",%.1f", sum[key] / n[key]
			}
			printf "\n"
		}
	}' "$RAW"/load-k"$k"-*-seed*.csv >"$OUT/path-load-k$k.csv"
	gnuplot -e "csv='$OUT/path-load-k$k.csv'; out='$OUT/path-load-k$k'; k=$k" \
		"$ROOT/tools/wormsim/path_figs.gp" </dev/null
done

# the latency knee (3x zero-load) and the throughput plateau, per seed
{
	echo "k,scheme,zero_load,knee_load_mean,knee_seeds,plateau_accepted_mean,plateau_seeds"
	for k in $LOAD_KS; do
		for s in $SCHEMES; do
			cat "$RAW"/load-k"$k"-"$s"-seed*.txt | awk -v k="$k" -v s="$s" '
			/^zero-load latency:/ { z += $3; nz++ }
			/^saturation, latency: .* at offered load/ {
				for (i = 1; i <= NF; i++) if ($i == "load") { kn += $(i + 1); nk++ }
			}
			/^saturation, throughput: .* at / {
				for (i = 1; i <= NF; i++) if ($i == "at") { pl += $(i + 1); np++ }
			}
			END {
				printf "%s,%s,%.1f,%s,%d/%d,%s,%d/%d\n", k, s, nz ? z / nz : 0,
					nk ? sprintf("%.4f", kn / nk) : "", nk, nz,
					np ? sprintf("%.4f", pl / np) : "", np, nz
			}'
		done
	done
} >"$OUT/path-knees.csv"

for f in "$OUT"/path-traffic.csv "$OUT"/path-load-k*.csv "$OUT"/path-knees.csv; do
	echo "== $(basename "$f")"
	column -s, -t <"$f"
done
echo "path_figs: $(($(date +%s) - start)) s; raw runs in $RAW"
