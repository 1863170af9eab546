#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# fetch-source.sh DIR: unpack into DIR the Debian source package of the
# iproute2 installed here (dpkg-query), so that link_wormcast.so is built
# against that version's own headers (ip/ip_common.h, include/json_print.h,
# include/color.h).  Debian ships no iproute2 -dev package.
#
# apt-get source needs deb-src entries; this script does not touch the
# system's apt configuration: it derives them from the system's own Debian
# "deb" entries (same mirror, same suites) into a private list, with private
# index and cache directories under DIR.tmp, fetched through apt (the
# Sources index is signed, the .dsc and tarballs are checked against it),
# and removes them afterwards.  Nothing is done when DIR already holds the
# headers.  Documentation/tools.rst, "Binary compatibility with ip".
set -eu

dir=${1:?usage: fetch-source.sh DIR}
[ -f "$dir/ip/ip_common.h" ] && exit 0

ver=$(dpkg-query -W -f='${Version}' iproute2 2>/dev/null) || {
	echo "fetch-source: iproute2 is not installed (run 'make deps')" >&2
	exit 1
}
for t in apt-get dpkg-source; do
	command -v "$t" >/dev/null || {
		echo "fetch-source: $t missing (apt, dpkg-dev)" >&2
		exit 1
	}
done

tmp=$dir.tmp
rm -rf "$tmp"
mkdir -p "$tmp/lists/partial" "$tmp/archives/partial" "$tmp/parts"
trap 'rm -rf "$tmp"' EXIT

# deb-src twins of the system's Debian entries, one-line and deb822 forms.
for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
	[ -f "$f" ] || continue
	sed -n 's/^[[:space:]]*deb\([[:space:]].*debian.*\)$/deb-src\1/p' "$f"
done >"$tmp/sources.list"
for f in /etc/apt/sources.list.d/*.sources; do
	[ -f "$f" ] || continue
	# A stanza (blank-line separated) of Types: deb whose URIs name Debian.
	awk 'BEGIN { RS = ""; ORS = "\n\n" }
	     /(^|\n)Types:[^\n]*deb([ \n]|$)/ && /(^|\n)URIs:[^\n]*debian/ {
		sub(/Types:[^\n]*/, "Types: deb-src"); print }' "$f"
done >"$tmp/parts/debian-src.sources"

apt_opts="-o Dir::Etc::SourceList=$tmp/sources.list
	-o Dir::Etc::SourceParts=$tmp/parts
	-o Dir::State::Lists=$tmp/lists
	-o Dir::Cache::Archives=$tmp/archives
	-o APT::Sandbox::User=root"
echo "fetch-source: iproute2 $ver source into $dir" >&2
# shellcheck disable=SC2086
apt-get -qq $apt_opts update >&2 || true
cd "$tmp"
# The installed version, else the suite's if it is the same upstream
# version (Debian revisions of 6.1.0 do not change these headers' ABI; the
# test in tests/packaging.sh checks the upstream version).
# shellcheck disable=SC2086
if ! apt-get -qq $apt_opts --download-only source "iproute2=$ver" >&2; then
	upstream=${ver%-*}
	# shellcheck disable=SC2086
	apt-get -qq $apt_opts --download-only source iproute2 >&2
	got=$(ls iproute2_*.dsc)
	case $got in
	iproute2_"$upstream"-*.dsc) ;;
	*)	echo "fetch-source: no source of iproute2 $upstream ($got)" >&2
		exit 1 ;;
	esac
fi
src_ver=$(ls iproute2_*.dsc | sed 's/^iproute2_//; s/\.dsc$//')
dpkg-source -q --no-check -x iproute2_*.dsc src >&2
[ -f src/ip/ip_common.h ]
mkdir -p "$(dirname "$dir")"
rm -rf "$dir"
mv src "$dir"
echo "$src_ver" >"$dir/.wormcast-iproute2-version"
