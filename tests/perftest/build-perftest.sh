#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Build Debian 12's perftest source against the in-tree rdma-dm and check
# that the programs load our libibverbs.so.1 (and libmlx5.so.1), never the
# distribution's.
#
# usage: build-perftest.sh CACHE_DIR PKG_CONFIG_DIR
#   CACHE_DIR       where the source, the build and the programs are kept
#   PKG_CONFIG_DIR  holds the uninstalled rdma-dm.pc of the build tree
# The programs land in CACHE_DIR/bin; a stamp keyed on our public headers
# and the .pc file skips the rebuild (the programs link dynamically, so a
# rebuilt libibverbs needs no relink). Exit 77: source not reachable.
set -euo pipefail

here=$(dirname "$(realpath "$0")")
cache=$(realpath -m "$1")
pc_dir=$(realpath "$2")
progs=(ib_write_bw ib_read_bw ib_send_bw ib_atomic_bw ib_write_lat
	ib_read_lat ib_send_lat ib_atomic_lat)

log() { echo "[build-perftest] $*" >&2; }
die() { log "$*"; exit 1; }

export PKG_CONFIG_PATH=$pc_dir
cflags=$(pkg-config --cflags rdma-dm)
libs=$(pkg-config --libs rdma-dm)
libdir=$(pkg-config --variable=libdir rdma-dm)
incdir=$(pkg-config --variable=includedir rdma-dm)

key=$(cat "$pc_dir/rdma-dm.pc" "$incdir"/infiniband/*.h | sha256sum |
	cut -d' ' -f1)
if [ "$(cat "$cache/bin/.stamp" 2>/dev/null)" = "$key" ]; then
	log "up to date: $cache/bin"
	exit 0
fi

src=$("$here/fetch-perftest.sh" "$cache") || exit $?

# Out of the pristine unpack, so a failed build never poisons the cache.
work=$cache/build
rm -rf "$work"
cp -a "$src" "$work"
cd "$work"
[ -x configure ] || { log "autogen"; ./autogen.sh > autogen.log 2>&1 ||
	die "autogen failed: $work/autogen.log"; }

# Our headers come first; /usr/include still has Debian's provider headers
# (efadv.h...), whose libraries need Debian's private libibverbs ABI, so
# configure is told those providers are absent. DT_RPATH (not RUNPATH) so
# librdmacm's own libibverbs.so.1 dependency resolves to ours as well.
log "configure against $libdir"
./configure CPPFLAGS="$cflags" CFLAGS="-O2 -g" \
	LDFLAGS="${libs/-libverbs/} -Wl,--disable-new-dtags" \
	ac_cv_header_infiniband_efadv_h=no \
	ac_cv_lib_efa_efadv_create_driver_qp=no \
	ac_cv_lib_efa_efadv_query_device=no \
	ac_cv_lib_efa_efadv_create_qp_ex=no \
	> configure.log 2>&1 || die "configure failed: $work/configure.log"
log "make"
nice make "${progs[@]}" > make.log 2>&1 || die "make failed: $work/make.log"

# Every program must resolve libibverbs (and libmlx5 when linked) to us,
# and link no Debian provider library (libefa).
for p in "${progs[@]}"; do
	"$here/check-perftest-libs.sh" "$p" "$libdir" ||
		die "$p: wrong libraries"
done

rm -rf "$cache/bin"
mkdir -p "$cache/bin"
cp "${progs[@]}" "$cache/bin/"
echo "$key" > "$cache/bin/.stamp"
log "built ${progs[*]} into $cache/bin"
