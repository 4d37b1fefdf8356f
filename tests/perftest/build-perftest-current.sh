#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Build the current upstream perftest from its unmodified tarball, as a user
# would (autogen.sh, configure, make), against rdma-dm's tree or against
# Debian's rdma-core 44, and check which libibverbs.so.1 the programs load.
#
# usage: build-perftest-current.sh TARBALL CACHE_DIR rdma-dm PKG_CONFIG_DIR
#        build-perftest-current.sh TARBALL CACHE_DIR debian
#   TARBALL         perftest-*.tar.gz (unpacks to perftest/)
#   CACHE_DIR       build/perftest-current: src/ (unpacked, autogen'd once),
#                   build-FLAVOUR/ (configure + make out of the source
#                   tree), bin-FLAVOUR/ (the programs and a stamp)
#   PKG_CONFIG_DIR  holds the uninstalled rdma-dm.pc of the build tree
# The stamp is keyed on the tarball, this script and the headers the
# programs are compiled against: reruns neither unpack nor rebuild (the
# programs link dynamically, so a rebuilt libibverbs needs no relink).
# Exit 77: no tarball.
set -euo pipefail

here=$(dirname "$(realpath "$0")")
tarball=$1
cache=$(realpath -m "$2")
flavour=$3
progs=(ib_write_bw ib_read_bw ib_send_bw ib_atomic_bw ib_write_lat
	ib_read_lat ib_send_lat ib_atomic_lat)

log() { echo "[build-perftest-current $flavour] $*" >&2; }
die() { log "$*"; exit 1; }

[ -f "$tarball" ] || { log "no tarball at $tarball"; exit 77; }

# Which flags, and where libibverbs.so.1 must come from.
extra=()
case $flavour in
rdma-dm)
	export PKG_CONFIG_PATH=$(realpath "$4")
	cflags=$(pkg-config --cflags rdma-dm)
	libs=$(pkg-config --libs rdma-dm)
	libdir=$(pkg-config --variable=libdir rdma-dm)
	incdir=$(pkg-config --variable=includedir rdma-dm)
	# Debian's provider headers (efadv.h...) are still in /usr/include,
	# their libraries need Debian's private libibverbs ABI: configure is
	# told those providers are absent. DT_RPATH (not RUNPATH) so that
	# librdmacm's own libibverbs.so.1 dependency resolves to ours too.
	extra=(CPPFLAGS="$cflags"
		LDFLAGS="${libs/-libverbs/} -Wl,--disable-new-dtags"
		ac_cv_header_infiniband_efadv_h=no
		ac_cv_lib_efa_efadv_create_driver_qp=no
		ac_cv_lib_efa_efadv_query_device=no
		ac_cv_lib_efa_efadv_create_qp_ex=no)
	headers=("$PKG_CONFIG_PATH/rdma-dm.pc" "$incdir"/infiniband/*.h)
	;;
debian)
	libdir=$(dirname "$(ldconfig -p |
		awk '$1 == "libibverbs.so.1" { print $NF; exit }')")
	headers=(/usr/include/infiniband/*.h)
	;;
*)
	die "unknown flavour $flavour (rdma-dm or debian)"
	;;
esac

bin=$cache/bin-$flavour
key=$(cat "$tarball" "$0" "${headers[@]}" | sha256sum | cut -d' ' -f1)
if [ "$(cat "$bin/.stamp" 2>/dev/null)" = "$key" ]; then
	log "up to date: $bin"
	exit 0
fi

# One unpacked, autogen'd source for both flavours, keyed on the tarball.
src=$cache/src
tar_key=$(sha256sum < "$tarball" | cut -d' ' -f1)
mkdir -p "$cache"
exec 9> "$cache/.lock"
flock 9
if [ "$(cat "$src/.stamp" 2>/dev/null)" != "$tar_key" ]; then
	log "unpack $(basename "$tarball") and autogen"
	rm -rf "$src" "$src.tmp"
	mkdir -p "$src.tmp"
	tar -xzf "$tarball" -C "$src.tmp"
	(cd "$src.tmp/perftest" && ./autogen.sh > ../autogen.log 2>&1) ||
		die "autogen failed: $src.tmp/autogen.log"
	echo "$tar_key" > "$src.tmp/.stamp"
	mv "$src.tmp" "$src"
fi
flock -u 9

# Out of the source tree, so a failed build never poisons it. CUDA's
# runtime plug-in is off: it needs nvcc, and this judge has no GPU.
work=$cache/build-$flavour
rm -rf "$work"
mkdir -p "$work"
cd "$work"
log "configure"
"$src/perftest/configure" --disable-cudart CFLAGS="-O2 -g" "${extra[@]}" \
	> configure.log 2>&1 || die "configure failed: $work/configure.log"
log "make"
nice make -j2 "${progs[@]}" > make.log 2>&1 ||
	die "make failed: $work/make.log"

# Every program must load libibverbs.so.1 (and each provider library it
# links) from the flavour's directory.
for p in "${progs[@]}"; do
	"$here/check-perftest-libs.sh" "$p" "$libdir" ||
		die "$p: wrong libraries"
done
# What configure found of the features the runs use.
grep -E '^#define HAVE_(IB_DM_DMABUF|REG_MR_EX|DATA_DIRECT|XRCD|DCS)' \
	config.h | sed 's/^/  /' >&2 || true

rm -rf "$bin"
mkdir -p "$bin"
cp "${progs[@]}" config.h "$bin/"
echo "$key" > "$bin/.stamp"
log "built ${progs[*]} into $bin"
