#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Check that a perftest program links libibverbs.so.1 and that the loader
# resolves it, and every provider library the program links (libmlx5,
# libefa), to LIB_DIR: our build/lib, or Debian's directory. Our build/lib
# has no libefa, so linking Debian's libefa fails the rdma-dm check.
#
# usage: check-perftest-libs.sh PROGRAM LIB_DIR
set -euo pipefail
prog=$1
libdir=$2

needed=$(readelf -d "$prog" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
grep -qx libibverbs.so.1 <<< "$needed" || {
	echo "$prog does not link libibverbs.so.1" >&2
	exit 1
}
for lib in libibverbs.so.1 libmlx5.so.1 libefa.so.1; do
	grep -qx "$lib" <<< "$needed" || continue
	got=$(ldd "$prog" | awk -v l="$lib" '$1 == l { print $3 }')
	if [ "$(realpath "$got")" != "$(realpath -m "$libdir/$lib")" ]; then
		echo "$prog loads $lib from $got, not $libdir" >&2
		exit 1
	fi
done
