#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Debian 12's perftest binary package, unpacked into the lane cache, for the
# lane to run on OUR libibverbs (LD_LIBRARY_PATH) when tests/perftest could
# not build perftest from source (a mirror without source packages). The
# machine's package state is not touched: apt-get download + dpkg-deb -x.
#
# usage: fetch-perftest-deb.sh CACHE_DIR   (prints the bin directory)
set -euo pipefail

cache=$(realpath -m "$1")
dir=$cache/perftest-deb
bin=$dir/root/usr/bin

log() { echo "[fetch-perftest-deb] $*" >&2; }

if [ -x "$bin/ib_write_bw" ]; then
	echo "$bin"
	exit 0
fi
mkdir -p "$dir/debs"
deb=$(find "$dir/debs" -name 'perftest_*.deb' | head -n1)
if [ -z "$deb" ]; then
	log "apt-get download perftest"
	(cd "$dir/debs" && timeout 300 apt-get download -q perftest >&2) || {
		log "apt-get download perftest failed"
		exit 1
	}
	deb=$(find "$dir/debs" -name 'perftest_*.deb' | head -n1)
fi
rm -rf "$dir/root"
dpkg-deb -x "$deb" "$dir/root"
[ -x "$bin/ib_write_bw" ] || { log "$deb has no ib_write_bw"; exit 1; }
log "unpacked $(basename "$deb")"
echo "$bin"
