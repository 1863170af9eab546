#!/bin/sh
# Install every Debian package wormcast needs to build, test and demo.
# Idempotent: does nothing when everything is already there.
set -eu

KVER_PKGS="linux-headers-amd64 linux-image-amd64 linux-source-6.1"
PKGS="build-essential pkg-config $KVER_PKGS qemu-system-x86 busybox-static
kmod cpio xz-utils libnl-3-dev libnl-genl-3-dev libnl-route-3-dev libmnl-dev
iproute2 iputils-ping ethtool socat iperf gnuplot-nox flex bison bc libelf-dev
libssl-dev sparse python3 python3-docutils python3-yaml perl jq rsync
clang libclang-rt-14-dev
dkms dpkg-dev systemd man-db groff-base bsdextrautils binutils
tcpdump tshark"

missing=""
for p in $PKGS; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
		missing="$missing $p"
	fi
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" != 0 ]; then
	echo "install-deps: missing packages:$missing (run as root)" >&2
	exit 1
fi
echo "install-deps: installing$missing"
export DEBIAN_FRONTEND=noninteractive
# tshark's wireshark-common asks whether non-root users may capture: no
echo "wireshark-common wireshark-common/install-setuid boolean false" |
	debconf-set-selections
apt-get update -qq
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing </dev/null
