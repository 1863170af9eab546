#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# tools/heatmap/wc-heatmap on wormsim --links-json output and on a
# wormctl stats --links -j style document (indented, as -jp prints it):
# PNG and SVG written (PNG magic bytes, SVG parses as XML), the data file
# holds one line per directed link, bad input refused.  Prints TAP.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$top/build}
hm=$top/tools/heatmap/wc-heatmap
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
notok() { n=$((n + 1)); echo "not ok $n - $*"; }
check() { d=$1; shift; if "$@" >/dev/null 2>"$tmp/err"; then ok "$d"; else notok "$d"; sed 's/^/# /' "$tmp/err"; fi; }

png() { [ -s "$1" ] && [ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]; }
svg() { [ -s "$1" ] && python3 -c 'import sys, xml.etree.ElementTree as E
r = E.parse(sys.argv[1]).getroot()
sys.exit(0 if r.tag.endswith("svg") else 1)' "$1"; }
lines() { [ "$(grep -vc '^#' "$1")" = "$2" ]; }

if [ ! -x "$BUILD/wormsim" ] && ! make -s -C "$top" tools >/dev/null 2>&1; then
	echo "not ok 1 - make tools"; echo "1..1"; exit 1
fi
check "wormsim --links-json on a 4x4 torus" \
	"$BUILD/wormsim" --topology torus --dims 4x4 --sweep 0.1:0.2:0.1 \
	--cycles 2000 --links-json "$tmp/sim.json"
check "wc-heatmap renders the wormsim output" "$hm" "$tmp/sim.json" "$tmp/sim"
check "wormsim: PNG written (magic bytes)" png "$tmp/sim.png"
check "wormsim: SVG written (parses as XML)" svg "$tmp/sim.svg"
check "wormsim: 64 directed links in the data" lines "$tmp/sim.dat" 64
check "wc-heatmap -m blocked -i 0 (the first load point)" \
	"$hm" -m blocked -i 0 "$tmp/sim.json" "$tmp/simb"
png "$tmp/simb.png" && svg "$tmp/simb.svg" && ok "blocked: PNG and SVG valid" ||
	notok "blocked: PNG and SVG valid"

# What wormctl -jp stats wc --links prints for a 3x2 mesh, link 0->1 busy.
cat >"$tmp/ctl.json" <<'J'
[ {
    "ifname": "wc",
    "ifindex": 7,
    "fabric": 1,
    "topology": "mesh",
    "dims": [ 3,2 ],
    "nodes": 6,
    "cycles": 100,
    "links": [ {
        "node": 0, "port": 0, "peer": 1, "busy": 50, "blocked": 3
      },{ "node": 1, "port": 1, "peer": 0, "busy": 0, "blocked": 0
      },{ "node": 1, "port": 2, "peer": 4, "busy": 25, "blocked": 0 } ]
} ]
J
check "wc-heatmap renders a wormctl document" "$hm" - "$tmp/ctl" <"$tmp/ctl.json"
check "wormctl: PNG written" png "$tmp/ctl.png"
check "wormctl: SVG written" svg "$tmp/ctl.svg"
check "wormctl: utilisation busy/cycles per link" \
	grep -qx '0.15 -0.1 0.7 0 0.5 0 1' "$tmp/ctl.dat"
check "wormctl: the 1->4 link points up" \
	grep -qx '1.1 0.15 0 0.7 0.25 1 4' "$tmp/ctl.dat"
echo '[{"topology":"hypercube","dims":[3],"links":[]}]' >"$tmp/hc.json"
check "a hypercube is refused" sh -c "! '$hm' '$tmp/hc.json' '$tmp/hc'"
check "no input object is refused" sh -c "if echo '[]' | '$hm' - '$tmp/e'; then exit 1; fi"
check "a bad metric is a usage error (2)" sh -c "'$hm' -m x '$tmp/ctl.json' '$tmp/x'; [ \$? = 2 ]"
echo "1..$n"
