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
# env LANE_ADDR: dummy0's address/prefix once the conformance table ran
# (set by run-lane.sh), in the guest's /etc/lane.conf.
#
# OUT is two newc archives back to back (the kernel unpacks both): a base
# part that only depends on the kernel and the host (busybox, modules,
# Debian's tools, /init), cached next to OUT, and the build part, made on
# every run. The guest's /init is guest-init.sh and /lane/tests.sh is
# guest-tests.sh, both from this folder.
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
# rdma_ucm is the RDMA CM device (/dev/infiniband/rdma_cm).
modules="dummy crc32_generic ib_core ib_uverbs rdma_rxe udmabuf rdma_ucm"
# Debian's rdma-core 44 binaries for the drop-in check (run against OUR
# libibverbs via LD_LIBRARY_PATH, and against Debian's own libibverbs and
# rxe provider for the reference output: Debian's reads /etc/libibverbs.d,
# ours BUILD_DIR/etc/libibverbs.d, so neither sees the other's providers)
# and iproute2's rdma for `rdma link add`; rdmacm-utils 44 (librdmacm comes
# with them) as the RDMA CM judges, and libfabric-bin's fi_pingpong (its
# providers built into libfabric.so, which ldd brings).
host_files="/usr/bin/rdma /usr/bin/ibv_devices /usr/bin/ibv_devinfo
	/usr/bin/rping /usr/bin/ucmatose /usr/bin/udaddy
	/usr/bin/rdma_server /usr/bin/rdma_client
	/usr/bin/ibv_rc_pingpong /usr/bin/ibv_uc_pingpong
	/usr/bin/ibv_ud_pingpong /usr/bin/ibv_srq_pingpong
	/usr/bin/fi_pingpong
	/etc/libibverbs.d/rxe.driver
	/usr/lib/x86_64-linux-gnu/libibverbs/librxe-rdmav34.so"

root=
copied=/dev/null
# Copy a file to the same path in the guest (symlinks stay symlinks, and
# their targets come too, link by link: host libraries are links, some
# through /etc/alternatives, as libpsm_infinipath). Names go to $copied.
copy_in() {
	local f=$1 t
	echo "$f" >> "$copied"
	if [ ! -e "$root$f" ] && [ ! -L "$root$f" ]; then
		mkdir -p "$root$(dirname "$f")"
		cp -P "$f" "$root$f"
	fi
	if [ -L "$f" ]; then
		t=$(readlink "$f")
		[[ $t = /* ]] || t=$(dirname "$f")/$t
		copy_in "$(realpath -s "$t")"
	fi
}

# Copy the given files and every shared library they need; one ldd call
# lists the dependencies transitively (libnl-3 comes in through our
# libibverbs). Files listed in $skip (already in the base part) stay out.
copy_with_libs() {
	local f
	for f in "$@" $(ldd "$@" 2>/dev/null |
		awk '$2 == "=>" && $3 ~ /^\// { print $3 }
		     $1 ~ /^\// && $1 !~ /:$/ { print $1 }' | sort -u); do
		[ -n "${skip:-}" ] && grep -qxF "$f" "$skip" && continue
		copy_in "$f"
	done
}

pack() { # dir archive
	(cd "$1" && find . -print0 | LC_ALL=C sort -z |
		cpio --null -o -H newc --quiet) > "$2.tmp"
	mv "$2.tmp" "$2"
}

stage_modules() {
	local moddir=/lib/modules/$KVER m deps kind path rel
	mkdir -p "$root$moddir"
	: > "$root/etc/lane-modules"
	for m in $modules; do
		# Built in (udmabuf on 6.12) or absent (udmabuf on 6.1).
		deps=$(modprobe -d "$KROOT" -S "$KVER" --show-depends "$m" \
			2>/dev/null) || continue
		while read -r kind path _; do
			[ "$kind" = insmod ] || continue
			rel=${path#"$KROOT$moddir"/}
			rel=${rel%.xz}
			rel=${rel%.zst}
			grep -qxF "$rel" "$root/etc/lane-modules" && continue
			mkdir -p "$root$moddir/$(dirname "$rel")"
			# busybox insmod cannot read compressed modules.
			case $path in
			*.xz) xz -dc "$path" > "$root$moddir/$rel" ;;
			*.zst) zstd -dcq "$path" > "$root$moddir/$rel" ;;
			*) cp "$path" "$root$moddir/$rel" ;;
			esac
			echo "$rel" >> "$root/etc/lane-modules"
		done <<< "$deps"
	done
}

# A usrmerged tree like Debian 12's, so ldd's /lib/... paths just work.
new_root() {
	local d
	root=$1
	rm -rf "$root"
	mkdir -p "$root"/usr/{bin,sbin,lib,lib64} "$root"/{etc,lane}
	for d in bin sbin lib lib64; do
		ln -s "usr/$d" "$root/$d"
	done
}

make_base() { # archive list
	new_root "$1.d"
	mkdir -p "$root"/{proc,sys,dev,tmp}
	copied=$2
	: > "$copied"
	cp /bin/busybox "$root/usr/bin/busybox"
	# Applet links point at /usr/bin/busybox: the copy above, in the guest.
	/bin/busybox --install -s "$root/usr/bin"
	# shellcheck disable=SC2086
	copy_with_libs $host_files
	printf '127.0.0.1 localhost\n' > "$root/etc/hosts"
	printf 'root:x:0:0:root:/:/bin/sh\n' > "$root/etc/passwd"
	printf 'hosts: files\n' > "$root/etc/nsswitch.conf"
	stage_modules
	cp "$here/guest-init.sh" "$root/init"
	chmod +x "$root/init"
	pack "$root" "$1"
	rm -rf "$root"
}

# The base part is rebuilt when this script or /init changed.
base=$(dirname "$out")/base.cpio
if [ ! -s "$base" ] || [ "$base" -ot "$0" ] ||
	[ "$base" -ot "$here/guest-init.sh" ]; then
	make_base "$base" "$base.list"
fi

# Build part: the build tree's lib/ and etc/ whole (providers are
# dlopen()ed; static archives stay out), the programs, the lane config.
new_root "$out.d"
copied=/dev/null
skip=$base.list
programs=()
for f in "$@"; do
	programs+=("$(realpath -s "$f")")
done
wanted=("${programs[@]}")
for d in lib etc; do
	[ -d "$build/$d" ] || continue
	while IFS= read -r -d '' f; do
		wanted+=("$f")
	done < <(find "$build/$d" \( -type f -o -type l \) ! -name '*.a' \
		-print0)
done
# perftest (env PERFTEST_BIN, set by run-lane.sh), kept at its host path.
for f in "${PERFTEST_BIN:-/nonexistent}"/ib_*; do
	[ -x "$f" ] && wanted+=("$f")
done
copy_with_libs "${wanted[@]}"
{
	printf 'KVER=%q\nBUILD_DIR=%q\n' "$KVER" "$build"
	printf 'LANE_ADDR=%q\n' "$LANE_ADDR"
	printf 'PROGRAMS=%q\n' "${programs[*]}"
	printf 'PERFTEST_BIN=%q\nPERFTEST_KIND=%q\n' \
		"${PERFTEST_BIN:-/nonexistent}" "${PERFTEST_KIND:-none}"
} > "$root/etc/lane.conf"
cp "$here/guest-tests.sh" "$root/lane/tests.sh"
cp "$here/guest-traffic.sh" "$root/lane/traffic.sh"
cp "$here/guest-rdmacm.sh" "$root/lane/rdmacm.sh"
chmod +x "$root/lane/tests.sh" "$root/lane/traffic.sh" "$root/lane/rdmacm.sh"
pack "$root" "$out.build"
rm -rf "$root"
cat "$base" "$out.build" > "$out.tmp"
rm -f "$out.build"
mv "$out.tmp" "$out"
