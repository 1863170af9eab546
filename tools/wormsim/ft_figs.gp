# SPDX-License-Identifier: GPL-2.0
# Plot of tools/wormsim/ft_figs.sh:
#   gnuplot -e "csv='ft-load.csv'; out='PREFIX'" ft_figs.gp
# mean multicast latency against offered load, one line per fault count
# and strategy ("nan" where a run is unstable: the queues grow).
set datafile separator ","
set datafile missing "nan"
set grid
set key top left
set title "ftmesh on a 50x50 mesh, multicasts to 20 random destinations (wormsim)"
set xlabel "offered load (data flits/node/cycle)"
set ylabel "mean multicast latency (cycles)"
sel(f, s) = sprintf("< awk -F, '$1 == \"%d\" && $2 == \"%d\"' %s", f, s, csv)
# one colour per fault count; Strategy 1 dashed, Strategy 3 open points
plotcmd = "plot sel(50, 2) using 3:4 with linespoints lc 1 pt 5 title '50 faults, Strategy 2', \
  sel(100, 2) using 3:4 with linespoints lc 2 pt 7 title '100 faults, Strategy 2', \
  sel(150, 2) using 3:4 with linespoints lc 3 pt 9 title '150 faults, Strategy 2', \
  sel(100, 1) using 3:4 with linespoints lc 2 pt 4 dt 2 title '100 faults, Strategy 1', \
  sel(50, 3) using 3:4 with linespoints lc 1 pt 4 dt 3 title '50 faults, Strategy 3', \
  sel(100, 3) using 3:4 with linespoints lc 2 pt 6 dt 3 title '100 faults, Strategy 3', \
  sel(150, 3) using 3:4 with linespoints lc 3 pt 8 dt 3 title '150 faults, Strategy 3'"
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
