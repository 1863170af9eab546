#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Every label scheme with real sockets on a 5-star (labels-big.sh).
. "$(dirname "$0")/labels-big.sh"

# 120 nodes; the source has label 59; nodes 37 and 55 are its neighbours
# (labels 54 and 36)
SRC=79 MEMBERS="$(seq -s ' ' 3 6 117) 37 55" OTHERS="0 100"
run_topo "star 5" topology star n 5
labels_done
