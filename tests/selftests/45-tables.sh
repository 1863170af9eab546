#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Routing tables through generic netlink (tables.py): the multicast scheme
# of a fabric (ip link add, FABRIC_GET, FABRIC_SET), the TABLE_NEW /
# TABLE_CHUNK / TABLE_COMMIT / TABLE_ABORT transaction and every refusal
# with its extack text, invalid tables refused without any change, a valid
# two-tree table committed, announced, read back byte for byte, and the
# generation check (EAGAIN); then a user without CAP_NET_ADMIN may read
# but not write.
. "$(dirname "$0")/lib.sh"

here=$(dirname "$0")

run_tap_py python3 "$here/tables.py"
check "tables.py deleted its fabric" sh -c '! ip link show wct 2>/dev/null'

# nobody must read the scripts and the uapi header they parse: copy them
# to a world-readable place (a CI clone under a 0700 directory is not).
py=$WC_TMP/t/selftests
mkdir -p "$py" "$WC_TMP/uapi/linux"
cp "$here/tables.py" "$here/wcnl.py" "$py/"
cp "$WC_ROOT/uapi/linux/wormcast.h" "$WC_TMP/uapi/linux/"
chmod -R a+rX "$WC_TMP"
wc_add wcu topology torus dims 4x4
run_tap_py setpriv --reuid=65534 --regid=65534 --clear-groups \
	python3 "$py/tables.py" --unpriv wcu

done_testing
