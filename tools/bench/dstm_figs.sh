#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Figures 9 and 10 of the DSTM paper (Wang and Blough, section 6) with
# wormsim: latency against arrival rate on a 16x16 torus for SPAM, DSTM-1,
# DSTM-2 and DSTM on three Roskind-Tarjan pairs (average, best, path).
# Documentation/dstm.rst ("Figures 9 and 10 reproduced") explains the
# parameters and discusses the results.
#
#   tools/bench/dstm_figs.sh                 both figures, 5 seeds (~15 min)
#   WC_FIGS="9" tools/bench/dstm_figs.sh     only Fig. 9
#   WC_SEEDS="1" WC_CYCLES=50000 ...         a quick look
#   WC_AGGREGATE_ONLY=1 ...                  tables and plots from the last runs
#
# Other comparisons on the same parameters (make dstm-fault-figs: DSTM-1
# with one random faulty link against fault-free DSTM-1):
#   WC_SCHEMES="LABEL:OPTS ..."   schemes instead of the paper's six, OPTS
#                                 the wormsim options with '=' for spaces
#   WC_FIGS_NAME=dstm-fault-fig   output file prefix (default dstm-fig)
#   WC_FIGS_RAW=DIR               raw runs (default $BUILD/bench/dstm-figs)
#   WC_SWEEP9=A:B:S, WC_SWEEP10   the loads of each figure (wormsim --sweep)
#
# Section 6's parameters, in cycles of 10 ns (the channel propagation
# delay): startup 10 us = 1000 cycles, router setup 40 ns = 4 cycles, link
# 1 cycle; 2 consumption channels, 1 injection channel, 128-flit messages,
# no virtual channels (--vcs 1: tree routing needs none), lock-step
# replication with 1-flit buffers (coordinated flow control).  Arrival
# rate r messages/node/us = r / 100 messages/node/cycle = 1.28 r data
# flits/node/cycle (wormsim's --load): Fig. 9's 0.001 .. 0.014 is
# --sweep 0.00128:0.01792:0.00128; Fig. 10 (pure multicast), where every
# scheme saturates below 0.005, runs 0.0005 .. 0.007 in steps of 0.0005.
# Run length: WC_WARMUP (50000) + WC_CYCLES (200000) measured cycles, and
# up to WC_DRAIN (30000) cycles for the measured messages to finish.
#
# Output: Documentation/images/dstm-fig{9,10}.{csv,svg,png} (or $WC_FIGS_OUT,
# $WC_FIGS_NAME), the raw wormsim CSV and text of every run in
# $BUILD/bench/dstm-figs/ (or $WC_FIGS_RAW).
set -eu

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-build}
case $BUILD in
/*) ;;
*) BUILD=$ROOT/$BUILD ;;
esac
WORMSIM=${WORMSIM:-$BUILD/wormsim}
OUT=${WC_FIGS_OUT:-$ROOT/Documentation/images}
RAW=${WC_FIGS_RAW:-$BUILD/bench/dstm-figs}
NAME=${WC_FIGS_NAME:-dstm-fig}
FIGS=${WC_FIGS:-9 10}
SEEDS=${WC_SEEDS:-1 2 3 4 5}
WARMUP=${WC_WARMUP:-50000}
CYCLES=${WC_CYCLES:-200000}
DRAIN=${WC_DRAIN:-30000}
JOBS=${WC_JOBS:-2}
RT_TRIALS=${WC_RT_TRIALS:-500}

[ -x "$WORMSIM" ] || { echo "dstm_figs: $WORMSIM missing (make tools)" >&2; exit 1; }
mkdir -p "$OUT" "$RAW"

PARAMS="--topology torus --dims 16x16 --vcs 1 --cons 2 --inj 1 --startup 1000
	--router-delay 4 --link-delay 1 --buf-flits 1 --replication lockstep
	--msg-flits 128 --warmup $WARMUP --cycles $CYCLES --drain $DRAIN
	--jobs $JOBS"

# label and wormsim options, in the order of the table's columns
SCHEMES="spam:--multicast=spam
dstm-1:--multicast=dstm-1
dstm-2:--multicast=dstm-2
rt-average:--multicast=rt=--rt-pair=average=--rt-trials=$RT_TRIALS
rt-best:--multicast=rt=--rt-pair=best=--rt-trials=$RT_TRIALS
rt-path:--multicast=rt=--rt-pair=path"
if [ -n "${WC_SCHEMES:-}" ]; then
	SCHEMES=$(echo "$WC_SCHEMES" | tr ' \t' '\n\n' | grep -v '^$')
	# the generic plot: one line per scheme, titled by its label
	PLOT_LABELS=$(echo "$SCHEMES" | cut -d: -f1 | tr '\n' ' ')
fi

start=$(date +%s)
for fig in $FIGS; do
	case $fig in
	9) traffic="--mcast-frac 0.1 --dsts 48 --sweep ${WC_SWEEP9:-0.00128:0.01792:0.00128}"
	   title="Fig. 9: 90% unicast, 10% multicast to 48 destinations" ;;
	# every scheme saturates below 0.005 here: half the step, up to 0.007
	10) traffic="--mcast-frac 1 --dsts uniform:5:10 --sweep ${WC_SWEEP10:-0.00064:0.00896:0.00064}"
	    title="Fig. 10: multicast to 5-10 destinations" ;;
	*) echo "dstm_figs: no figure $fig" >&2; exit 1 ;;
	esac
	files=""
	[ -n "${WC_AGGREGATE_ONLY:-}" ] ||
	echo "$SCHEMES" | while IFS=: read -r label opts; do
		opts=$(echo "$opts" | tr '=' ' ')
		for seed in $SEEDS; do
			f=$RAW/fig$fig-$label-seed$seed
			t0=$(date +%s)
			# shellcheck disable=SC2086
			"$WORMSIM" $PARAMS $traffic $opts --seed "$seed" \
				--csv "$f.csv" </dev/null >"$f.txt" 2>"$f.err" || {
				echo "dstm_figs: fig $fig $label seed $seed failed (see $f.txt)" >&2
				exit 1
			}
			echo "fig $fig $label seed $seed: $(($(date +%s) - t0)) s"
		done
	done
	for s in $(echo "$SCHEMES" | cut -d: -f1); do
		for seed in $SEEDS; do
			files="$files $RAW/fig$fig-$s-seed$seed.csv"
		done
	done
	# One row per arrival rate: per scheme, the mean latency over the
	# seeds in us (cycles / 100), the 95% confidence half-width in % of
	# it (Student t over the seeds), the half-range over the seeds in %,
	# and how many seeds were unstable there (queues growing; such a
	# point has no latency).
	# shellcheck disable=SC2086
	awk -F, -v schemes="$(echo "$SCHEMES" | cut -d: -f1 | tr '\n' ' ')" '
	BEGIN {
		ns = split(schemes, S, " ")
		# Student t, 97.5% quantile, by degrees of freedom
		split("12.706 4.303 3.182 2.776 2.571 2.447 2.365 2.306 2.262", T, " ")
	}
	# the scheme is the label in the file name (fig9-LABEL-seedN.csv)
	FNR == 1 {
		for (i = 1; i <= NF; i++) col[$i] = i
		label = FILENAME
		sub(/.*\/fig[0-9]+-/, "", label)
		sub(/-seed[0-9]+\.csv$/, "", label)
		next
	}
	{
		s = label; l = $col["load"] + 0
		k = s SUBSEP l
		loads[l] = 1
		n[k]++
		if ($col["unstable"] == 1 || $col["deadlocks"] > 0 ||
		    $col["route_errors"] > 0)
			bad[k]++
		v = $col["latency_mean"] / 100
		sum[k] += v; sq[k] += v * v
		if (!(k in lo) || v < lo[k]) lo[k] = v
		if (!(k in hi) || v > hi[k]) hi[k] = v
		dl[k] += $col["deadlocks"] + $col["route_errors"]
	}
	END {
		printf "rate_per_us,load_flits_node_cycle"
		for (j = 1; j <= ns; j++)
			printf ",%s_us,%s_ci95_pct,%s_range_pct,%s_unstable_seeds", S[j], S[j], S[j], S[j]
		printf "\n"
		m = 0
		for (l in loads) L[++m] = l + 0
		for (a = 1; a <= m; a++) for (b = a + 1; b <= m; b++)
			if (L[b] < L[a]) { t = L[a]; L[a] = L[b]; L[b] = t }
		for (a = 1; a <= m; a++) {
			l = L[a]
			printf "%.4f,%.5f", l / 1.28, l
			for (j = 1; j <= ns; j++) {
				k = S[j] SUBSEP l
				if (!n[k]) { printf ",,,,"; continue }
				mean = sum[k] / n[k]
				ci = ""; rg = ""
				if (n[k] > 1 && mean > 0) {
					var = (sq[k] - n[k] * mean * mean) / (n[k] - 1)
					if (var < 0) var = 0
					ci = sprintf("%.2f", 100 * T[n[k] - 1] * sqrt(var / n[k]) / mean)
					rg = sprintf("%.2f", 100 * (hi[k] - lo[k]) / 2 / mean)
				}
				if (bad[k])
					printf ",nan,,,%d", bad[k]
				else
					printf ",%.2f,%s,%s,0", mean, ci, rg
			}
			printf "\n"
		}
	}' $files >"$OUT/$NAME$fig.csv"
	xmax=0.0145; [ "$fig" = 10 ] && xmax=0.0072
	sweep=$(echo "$traffic" | sed 's/.*--sweep //')
	xmax=$(echo "$sweep" | awk -F: -v x=$xmax '{ m = ($2 + $3 / 2) / 1.28; print m < x ? m : x }')
	gnuplot -e "xmax=$xmax; csv='$OUT/$NAME$fig.csv'; out='$OUT/$NAME$fig'; figtitle='$title'; labels='${PLOT_LABELS:-}'" \
		"$ROOT/tools/bench/dstm_figs.gp" </dev/null
	# The latency knee (3x zero-load, wormsim's interpolation) per seed,
	# as an arrival rate in messages/node/us, and its mean.
	{
		printf "scheme"
		for seed in $SEEDS; do printf ",knee_seed%s" "$seed"; done
		printf ",knee_mean,zero_load_us,unicast_zero_us,multicast_zero_us\n"
		for s in $(echo "$SCHEMES" | cut -d: -f1); do
			printf "%s" "$s"
			for seed in $SEEDS; do
				sed -n 's/^saturation, latency: .* at offered load \([0-9.]*\) .*/\1/p' \
					"$RAW/fig$fig-$s-seed$seed.txt" |
					awk '{ printf ",%.5f", $1 / 1.28 } END { if (!NR) printf "," }'
			done
			first=$(echo "$SEEDS" | awk '{ print $1 }')
			awk -v f="$RAW/fig$fig-$s-seed$first.txt" 'BEGIN {
				while ((getline line < f) > 0)
					if (line ~ /^zero-load latency/) {
						split(line, w, /[ (;]+/)
						z = w[3]; u = ""; m = ""
						for (i = 1; i in w; i++) {
							if (w[i] == "unicast") u = w[i + 1]
							if (w[i] == "multicast") m = w[i + 1]
						}
					}
				printf ",%.2f,%s,%s", z / 100, u == "" ? "" : sprintf("%.2f", u / 100), m == "" ? "" : sprintf("%.2f", m / 100)
			}'
			printf "\n"
		done
	} | awk -F, 'NR == 1 { print; next } {
		n = 0; t = 0
		for (i = 2; i <= NF - 3; i++) if ($i != "") { n++; t += $i }
		out = $1
		for (i = 2; i <= NF - 3; i++) out = out "," $i
		printf "%s,%s,%s,%s,%s\n", out, n ? sprintf("%.5f", t / n) : "", $(NF - 2), $(NF - 1), $NF
	}' >"$OUT/$NAME$fig-knees.csv"
	echo "fig $fig: $OUT/$NAME$fig.csv -knees.csv .svg .png"
	column -s, -t <"$OUT/$NAME$fig-knees.csv"
	column -s, -t <"$OUT/$NAME$fig.csv" | cut -c1-200
done
echo "dstm_figs: $(($(date +%s) - start)) s; raw runs in $RAW"
