#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Fetch one Debian kernel image package into the build dir, without installing
# it on the host: apt-get download, dpkg-deb -x, depmod -b, and extract the
# uncompressed ELF vmlinux (Debian kernels have CONFIG_PVH, so qemu can boot
# the ELF directly and skip in-guest decompression, which is slow under TCG).
#
# usage: fetch-kernel.sh CACHE_DIR PACKAGE
#   PACKAGE may be a meta package (linux-image-amd64); it is resolved to the
#   real image package once. Everything lands in CACHE_DIR/PACKAGE/ and is
#   reused on later runs (stamp file), so only the first run needs the network.
# Writes CACHE_DIR/PACKAGE/kernel.env with KVER, KROOT and VMLINUX.
#
# A package the machine's apt sources lack (Debian 12's 6.12 kernel is only
# in bookworm-security) is fetched with a private apt state that has its
# suite, leaving the machine's configuration alone; if that fails too, the
# script names the package, the suite and the sources line to add.
# env: KERNEL_MIRROR, KERNEL_SECURITY_MIRROR (defaults: deb.debian.org)
set -euo pipefail

cache=$(realpath -m "$1")
pkg=$2
dir=$cache/$pkg
env_file=$dir/kernel.env

log() { echo "[fetch-kernel $pkg] $*" >&2; }

if [ -s "$env_file" ]; then
	exit 0
fi
mkdir -p "$dir/debs"

# The Debian 12 suite that publishes each lane's kernel, and its archive.
case $pkg in
linux-image-6.12-*)
	suite=bookworm-security
	archive=http://deb.debian.org/debian-security
	mirror=${KERNEL_SECURITY_MIRROR:-$archive}
	;;
*)
	suite=bookworm
	archive=http://deb.debian.org/debian
	mirror=${KERNEL_MIRROR:-$archive}
	;;
esac
apt_opts=()

# apt with a private state whose only source is $suite (under $dir/apt).
private_apt() {
	local a=$dir/apt
	mkdir -p "$a"/etc "$a"/state/lists/partial "$a"/cache/archives/partial
	printf 'deb [signed-by=%s] %s %s main\n' \
		/usr/share/keyrings/debian-archive-keyring.gpg "$mirror" \
		"$suite" > "$a/etc/sources.list"
	touch "$a/state/status"
	apt_opts=(
		-o "Dir::Etc::SourceList=$a/etc/sources.list"
		-o "Dir::Etc::SourceParts=$a/etc/none"
		-o "Dir::State=$a/state" -o "Dir::Cache=$a/cache"
		-o "Dir::State::status=$a/state/status"
		-o "APT::Sandbox::User=$(id -un)" -o "Debug::NoLocking=true"
	)
	log "$pkg is not in this machine's apt sources: private apt state" \
		"with $suite from $mirror"
	timeout 300 apt-get "${apt_opts[@]}" -qq update >&2 &&
		apt-cache "${apt_opts[@]}" show "$pkg" > /dev/null 2>&1
}

# A fresh machine may have no package lists yet.
if ! apt-cache show "$pkg" > /dev/null 2>&1; then
	log "no package lists for $pkg: apt-get update"
	apt-get update -qq >&2 || true
fi
if ! apt-cache show "$pkg" > /dev/null 2>&1 && ! private_apt; then
	log "FAIL: $pkg is in Debian 12's $suite suite, which neither this" \
		"machine's apt sources nor $mirror provide."
	log "Add the suite, e.g. as /etc/apt/sources.list.d/$suite.list:"
	log "    deb $archive $suite main    (or a mirror of it)"
	log "then run: apt-get update"
	exit 1
fi
# A meta package depends on exactly one linux-image-<version> package.
image=$(apt-cache "${apt_opts[@]}" depends "$pkg" 2>/dev/null |
	awk '$1 == "Depends:" && $2 ~ /^linux-image-[0-9]/ { print $2; exit }')
image=${image:-$pkg}

deb=$(find "$dir/debs" -name "${image}_*.deb" | head -n1)
if [ -z "$deb" ]; then
	log "downloading $image"
	(cd "$dir/debs" &&
		timeout 600 apt-get "${apt_opts[@]}" download -q "$image" >&2) || {
		log "apt-get download $image failed (run apt-get update?)"
		exit 1
	}
	deb=$(find "$dir/debs" -name "${image}_*.deb" | head -n1)
fi

kroot=$dir/root
rm -rf "$kroot" "$kroot.tmp"
log "unpacking $(basename "$deb")"
dpkg-deb -x "$deb" "$kroot.tmp"
mv "$kroot.tmp" "$kroot"
kver=$(ls "$kroot/lib/modules" 2>/dev/null || true)
[ "$(echo "$kver" | wc -w)" = 1 ] || {
	log "$(basename "$deb") is not one kernel image"
	exit 1
}
# The postinst normally runs depmod; the .deb has no modules.dep.
depmod -b "$kroot" "$kver"

# bzImage header: setup_sects at 0x1f1 (u8), payload_offset at 0x248 and
# payload_length at 0x24c (u32) give the compressed kernel inside the file.
bz=$kroot/boot/vmlinuz-$kver
read_le() { # file offset size
	od -An -t "u$3" -j "$2" -N "$3" --endian=little "$1" | tr -d ' '
}
setup_sects=$(read_le "$bz" $((0x1f1)) 1)
[ "$setup_sects" = 0 ] && setup_sects=4
payload_off=$(($(read_le "$bz" $((0x248)) 4) + (setup_sects + 1) * 512))
payload_len=$(read_le "$bz" $((0x24c)) 4)
magic=$(od -An -tx1 -j "$payload_off" -N 4 "$bz" | tr -d ' ')
case $magic in
fd377a58) unpack=(xz -dc) ;;
28b52ffd) unpack=(zstd -dcq) ;;
1f8b08*) unpack=(gzip -dc) ;;
*) log "unknown kernel payload compression (magic $magic)"; exit 1 ;;
esac
vmlinux=$dir/vmlinux-$kver
# xz and gzip complain about the size trailer after the stream; the ELF
# check below is what matters.
tail -c +$((payload_off + 1)) "$bz" | head -c "$payload_len" |
	"${unpack[@]}" > "$vmlinux.tmp" 2>/dev/null || true
[ "$(od -An -c -N 4 "$vmlinux.tmp" | tr -d ' ')" = '177ELF' ] || {
	log "could not extract an ELF vmlinux from $bz"
	exit 1
}
mv "$vmlinux.tmp" "$vmlinux"

printf 'KVER=%q\nKROOT=%q\nVMLINUX=%q\n' "$kver" "$kroot" "$vmlinux" \
	> "$env_file.tmp"
mv "$env_file.tmp" "$env_file"
log "ready: $kver"
