# SPDX-License-Identifier: GPL-2.0
# Latency against arrival rate from a table of tools/bench/dstm_figs.sh:
#   gnuplot -e "csv='F.csv'; out='PREFIX'; figtitle='...'" dstm_figs.gp
# Column 1: arrival rate (messages/node/us); then 4 columns per scheme,
# the first the mean latency in us ("nan" where a seed was unstable).
# Optional: xmax (the x range), labels (below).
set datafile separator ","
set datafile missing "nan"
set title figtitle." (16x16 torus, wormsim)"
set xlabel "average arrival rate (messages/node/us)"
set ylabel "mean latency (us)"
if (!exists("xmax")) xmax = 0.0145
set xrange [0:xmax]
set yrange [10:*]
set key top right
set grid
# labels: the scheme labels in column order (WC_SCHEMES); empty: the
# paper's six schemes with their names in the paper
if (!exists("labels")) labels = ""
if (words(labels) > 0) {
  plotcmd = "plot for [i=1:words(labels)] csv every ::1 using 1:(column(3 + 4 * (i - 1))) with linespoints pt (2 * i + 3) title word(labels, i) noenhanced"
} else {
plotcmd = "plot csv every ::1 using 1:3 with linespoints pt 5 title 'SPAM', \
  '' every ::1 using 1:7 with linespoints pt 7 title 'DSTM-1', \
  '' every ::1 using 1:11 with linespoints pt 9 title 'DSTM-2', \
  '' every ::1 using 1:15 with linespoints pt 4 title 'DSTM-Tarjan(average)', \
  '' every ::1 using 1:19 with linespoints pt 6 title 'DSTM-Tarjan(best)', \
  '' every ::1 using 1:23 with linespoints pt 8 title 'DSTM-Tarjan(path)'"
}
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
