# SPDX-License-Identifier: GPL-2.0
# Plots of bench_faults' tables (the fault-tolerant multicast paper, section 6).
#   build/rel/bench/bench_faults --data DIR
#   gnuplot -e "dir='DIR'" tools/bench/plot_faults.gp    -> DIR/*.svg
if (!exists("dir")) dir = "."
set terminal svg size 640,420 dynamic font "sans,11"
set key top left
set grid
set ylabel "traffic steps (mean)"

do for [k in "10 40"] {
	set output dir."/faults_k".k.".svg"
	set title "50x50 mesh, ".k." destinations: traffic steps vs faults"
	set xlabel "faulty nodes"
	plot dir."/faults_k".k.".dat" u 1:6 w lp t "multiple unicast", \
	     "" u 1:3 w lp t "Strategy 1", "" u 1:4 w lp t "Strategy 2", \
	     "" u 1:5 w lp t "Strategy 3"
}
do for [f in "50 100 150"] {
	set output dir."/dests_f".f.".svg"
	set title "50x50 mesh, ".f." faulty nodes: traffic steps vs destinations"
	set xlabel "destinations"
	plot dir."/dests_f".f.".dat" u 1:6 w lp t "multiple unicast", \
	     "" u 1:3 w lp t "Strategy 1", "" u 1:4 w lp t "Strategy 2", \
	     "" u 1:5 w lp t "Strategy 3"
}
set output dir."/sep.svg"
set title "50x50 mesh: separating points (Strategy 3)"
set xlabel "destinations"
set ylabel "separating points (mean)"
plot dir."/sep.dat" u 1:2 w lp t "upper bound k-1", "" u 1:3 w lp t "no faults", \
     "" u 1:4 w lp t "50 faults", "" u 1:5 w lp t "100 faults"
