#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Conservation under stress (Documentation/testing.rst): every node of an
# 8x8 torus, each in its own namespace, sends unicast and multicast as fast
# as it can for WC_STRESS_SECONDS (default 30); then what was sent times
# its receivers equals what was delivered plus counted drops, exactly, per
# node and in total, and the sockets read (or the namespace's UDP counted)
# every delivered copy (stress.py).  Then the module is removed while every
# node still sends, which deletes the fabric under traffic.
. "$(dirname "$0")/lib.sh"

N=64
STRESS=$WC_ROOT/tests/selftests/stress.py
seconds=${WC_STRESS_SECONDS:-30}

if ! wc_add wc topology torus dims 8x8; then
	not_ok "create torus 8x8"
	done_testing
	exit
fi
ok "create torus 8x8"
fid=$(wc_field wc .fabric)
# One ip process for the 64 namespaces and moves.
i=0
while [ $i -lt $N ]; do
	echo "netns add n$i"
	echo "link set wcn$i netns n$i"
	_netns="$_netns n$i"
	i=$((i + 1))
done >"$WC_TMP/batch"
check "64 namespaces, one node device in each" ip -batch "$WC_TMP/batch"

python3 "$STRESS" run --fabric-id "$fid" --nodes $N --seconds "$seconds" \
	>"$WC_TMP/stress.out" 2>&1
rc=$?
stress_results "$WC_TMP/stress.out"
is "stress.py finished" "$rc" 0

# Unload the module while every node sends: module exit deletes the fabric
# under traffic.
bg python3 "$STRESS" flood --nodes $N
sleep 2
check "rmmod wormcast while 64 nodes send" rmmod wormcast
bg_stop
is "no node device left in any namespace" \
	"$(for i in 0 1 31 63; do ip -n n$i -br link | grep -c wcn; done | tr '\n' ' ')" "0 0 0 0 "
check "namespaces still usable" ip -n n5 link add d0 type dummy

done_testing
