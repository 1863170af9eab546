# SPDX-License-Identifier: GPL-2.0
# Broadcast latency against message length from tools/bench/dcf_figs.sh:
#   gnuplot -e "csv='F.csv'; out='PREFIX'; figtitle='...'" dcf_figs.gp
# Columns: L, then DCF (engine, model, paper, ...) from 2, EDN from 8.
set datafile separator ","
set title figtitle." (32x32 torus, source (0,0), wormsim)"
set xlabel "message length L (flits)"
set ylabel "maximum latency (cycles)"
set logscale x 2
set key top left
set grid
plotcmd = "plot csv every ::1 using 1:2 with linespoints pt 7 title 'DCF (engine)', \
  '' every ::1 using 1:3 with lines dt 2 title 'DCF (timing model)', \
  '' every ::1 using 1:8 with linespoints pt 5 title 'EDN (engine)', \
  '' every ::1 using 1:9 with lines dt 3 title 'EDN (timing model)'"
if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {
  set terminal pngcairo size 900,600
} else {
  set terminal png size 900,600
}
set output out.".png"
eval plotcmd
set terminal svg size 900,600
set output out.".svg"
eval plotcmd
set output
