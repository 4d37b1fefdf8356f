#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Build the lane's busybox initramfs for one unpacked kernel.
#
# usage: make-initramfs.sh KERNEL_ENV BUILD_DIR OUT [PROGRAM...]
#   KERNEL_ENV  kernel.env written by fetch-kernel.sh
#   BUILD_DIR   the CMake build tree; its lib/ and etc/ are copied to the SAME
#               absolute path inside the guest, because the in-place
#               libibverbs has its config dir (BUILD_DIR/etc/libibverbs.d,
#               whose files name BUILD_DIR/lib/lib<provider>) compiled in.
#   PROGRAM     project test programs, also kept at their host path.
# The guest's /init is guest-init.sh and /lane/tests.sh is guest-tests.sh,
# both from this folder.
set -euo pipefail

env_file=$1
build=$(realpath "$2")
out=$3
shift 3
here=$(dirname "$(realpath "$0")")
# shellcheck source=/dev/null
. "$env_file"

# RDMA soft-RoCE stack plus what it needs at run time. crc32_generic is not a
# module dependency of rdma_rxe, but `rdma link add` asks the crypto API for
# "crc32" and fails with ENOENT without it. udmabuf is built in on 6.12.
modules="dummy crc32_generic ib_core ib_uverbs rdma_rxe udmabuf"
# Debian's rdma-core 44 binaries for the drop-in check (run against OUR
# libibverbs via LD_LIBRARY_PATH, and against Debian's own libibverbs and
# rxe provider for the reference output: Debian's reads /etc/libibverbs.d,
# ours BUILD_DIR/etc/libibverbs.d, so neither sees the other's providers)
# and iproute2's rdma for `rdma link add`.
host_bins="/usr/bin/rdma /usr/bin/ibv_devices /usr/bin/ibv_devinfo"

root=$out.d
rm -rf "$root"
mkdir -p "$root"/usr/{bin,sbin,lib,lib64} "$root"/{etc,proc,sys,dev,tmp,lane}
for d in bin sbin lib lib64; do
	ln -s "usr/$d" "$root/$d"
done

cp /bin/busybox "$root/usr/bin/busybox"
# Applet links point at /usr/bin/busybox, which is the copy above in the guest.
/bin/busybox --install -s "$root/usr/bin"

# Copy a file to the same path in the guest (symlinks stay symlinks).
copy_in() {
	[ -e "$root$1" ] || [ -L "$root$1" ] && return 0
	mkdir -p "$root$(dirname "$1")"
	cp -P "$1" "$root$1"
}

programs=()
for f in "$@"; do
	programs+=("$(realpath -s "$f")")
done
wanted=($host_bins "${programs[@]}"
	/etc/libibverbs.d/rxe.driver
	/usr/lib/x86_64-linux-gnu/libibverbs/librxe-rdmav34.so)
# Providers are dlopen()ed, so the build's lib/ and etc/ go in whole (no
# static archives).
for d in lib etc; do
	[ -d "$build/$d" ] || continue
	while IFS= read -r -d '' f; do
		wanted+=("$f")
	done < <(find "$build/$d" \( -type f -o -type l \) ! -name '*.a' -print0)
done
for f in "${wanted[@]}"; do
	copy_in "$f"
	# A symlink's target must come too (host libraries are links).
	[ -L "$f" ] && copy_in "$(realpath "$f")"
done
# One ldd over everything lists all shared libraries, transitively
# (libnl-3 comes in through our libibverbs).
for lib in $(ldd "${wanted[@]}" 2>/dev/null |
	awk '$2 == "=>" && $3 ~ /^\// { print $3 }
	     $1 ~ /^\// && $1 !~ /:$/ { print $1 }' |
	sort -u); do
	copy_in "$lib"
	[ -L "$lib" ] && copy_in "$(realpath "$lib")"
done

printf '127.0.0.1 localhost\n' > "$root/etc/hosts"
printf 'root:x:0:0:root:/:/bin/sh\n' > "$root/etc/passwd"
printf 'hosts: files\n' > "$root/etc/nsswitch.conf"

# Modules: host kmod resolves the dependency order against the staged tree;
# busybox insmod cannot read .ko.xz, so they are decompressed here.
moddir=/lib/modules/$KVER
mkdir -p "$root$moddir"
: > "$root/etc/lane-modules"
for m in $modules; do
	deps=$(modprobe -d "$KROOT" -S "$KVER" --show-depends "$m" 2>/dev/null) ||
		continue # built in (udmabuf on 6.12) or absent (udmabuf on 6.1)
	while read -r kind path _; do
		[ "$kind" = insmod ] || continue
		rel=${path#"$KROOT$moddir"/}
		rel=${rel%.xz}
		rel=${rel%.zst}
		grep -qxF "$rel" "$root/etc/lane-modules" && continue
		mkdir -p "$root$moddir/$(dirname "$rel")"
		case $path in
		*.xz) xz -dc "$path" > "$root$moddir/$rel" ;;
		*.zst) zstd -dcq "$path" > "$root$moddir/$rel" ;;
		*) cp "$path" "$root$moddir/$rel" ;;
		esac
		echo "$rel" >> "$root/etc/lane-modules"
	done <<< "$deps"
done

{
	printf 'KVER=%q\nBUILD_DIR=%q\n' "$KVER" "$build"
	printf 'PROGRAMS=%q\n' "${programs[*]}"
} > "$root/etc/lane.conf"
cp "$here/guest-init.sh" "$root/init"
cp "$here/guest-tests.sh" "$root/lane/tests.sh"
chmod +x "$root/init" "$root/lane/tests.sh"

# Uncompressed newc archive: in-guest decompression is slow under TCG.
(cd "$root" && find . -print0 | LC_ALL=C sort -z |
	cpio --null -o -H newc --quiet) > "$out.tmp"
mv "$out.tmp" "$out"
rm -rf "$root"
