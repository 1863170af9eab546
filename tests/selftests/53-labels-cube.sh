#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Every label scheme with real sockets on a 4-cube (labels-big.sh).
. "$(dirname "$0")/labels-big.sh"

# 16 nodes; the source has label 6
SRC=5 MEMBERS="0 3 6 9 10 12 15" OTHERS="2 14"
run_topo "hypercube 4" topology hypercube dim 4
labels_done
