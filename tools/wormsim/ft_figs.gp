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
plotcmd = "plot sel(50, 2) using 3:4 with linespoints pt 5 title '50 faults, Strategy 2', \
  sel(100, 2) using 3:4 with linespoints pt 7 title '100 faults, Strategy 2', \
  sel(150, 2) using 3:4 with linespoints pt 9 title '150 faults, Strategy 2', \
  sel(100, 1) using 3:4 with linespoints pt 4 dt 2 title '100 faults, Strategy 1'"
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
