# SPDX-License-Identifier: GPL-2.0
# Plots of tools/wormsim/path_figs.sh:
#   gnuplot -e "csv='path-traffic.csv'; out='PREFIX'" path_figs.gp
#     channel crossings per multicast against k, 8x8 and 16x16 meshes
#   gnuplot -e "csv='path-load-kK.csv'; out='PREFIX'; k=K" path_figs.gp
#     mean multicast latency against offered load (columns: load, then
#     dual-path, multipath, ocms, otms; "nan" where a run is unstable)
set datafile separator ","
set datafile missing "nan"
set grid
set key top left
if (exists("k")) {
  set title sprintf("8x8 mesh, multicasts to %d random destinations (wormsim)", k)
  set xlabel "offered load (data flits/node/cycle)"
  set ylabel "mean multicast latency (cycles)"
  plotcmd = "plot csv every ::1 using 1:2 with linespoints pt 5 title 'dual-path', \
    '' every ::1 using 1:3 with linespoints pt 7 title 'multipath', \
    '' every ::1 using 1:4 with linespoints pt 9 title 'OCMS', \
    '' every ::1 using 1:5 with linespoints pt 4 title 'OTMS'"
} else {
  set title "channels per multicast at zero load (Eq. 3; wormsim, the planner's stars)"
  set xlabel "destinations k"
  set ylabel "channel crossings per multicast"
  set logscale x 2
  sel(m, s) = sprintf("< awk -F, '$1 == \"%s\" && $3 == \"%s\"' %s", m, s, csv)
  plotcmd = "plot sel('8x8', 'dual-path') using 2:5 with linespoints pt 5 lc 1 title '8x8 dual-path', \
    sel('8x8', 'multipath') using 2:5 with linespoints pt 7 lc 2 title '8x8 multipath', \
    sel('8x8', 'ocms') using 2:5 with linespoints pt 9 lc 3 title '8x8 OCMS', \
    sel('8x8', 'otms') using 2:5 with linespoints pt 4 lc 4 title '8x8 OTMS', \
    sel('16x16', 'dual-path') using 2:5 with linespoints pt 5 lc 1 dt 2 title '16x16 dual-path', \
    sel('16x16', 'multipath') using 2:5 with linespoints pt 7 lc 2 dt 2 title '16x16 multipath', \
    sel('16x16', 'ocms') using 2:5 with linespoints pt 9 lc 3 dt 2 title '16x16 OCMS', \
    sel('16x16', 'otms') using 2:5 with linespoints pt 4 lc 4 dt 2 title '16x16 OTMS'"
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
