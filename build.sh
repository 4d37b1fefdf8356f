#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# One command from a fresh Debian 12 machine to a working in-place build.
#
#   ./build.sh          install build deps (apt-get), build into build/
#   ./build.sh demo     ... then run the DM -> dma-buf demo on rdma-sim
#   ./build.sh test     ... then run the whole suite through ctest
#
# NO_APT=1 skips the package step (for machines that already have them).
set -euo pipefail
cd "$(dirname "$0")"
mode=${1:-build}

DEPS=(
	# build (build-essential: dpkg-buildpackage refuses to run without it)
	build-essential cmake ninja-build gcc g++ clang pkg-config libnl-3-dev libnl-route-3-dev
	libdrm-dev # rdma-sim's render node speaks the DRM/amdgpu uAPI
	libcmocka-dev pandoc mandoc
	# checks
	valgrind strace binutils python3
	# the files the project tracks (tests/packaging/tracked_files.sh)
	git
	# upstream userspace that judges rdma-sim (Debian's rdma-core 44)
	ibverbs-utils ibverbs-providers libibverbs1 libibverbs-dev perftest python3-pyverbs
	# umad judges (tests/sim/umad_tools.py)
	infiniband-diags
	rdmacm-utils qperf # the RDMA CM judges (tests/sim/rdmacm_judges.sh)
	# libfabric's fi_pingpong and fi_info (tests/sim/rdmacm_judges.sh,
	# fi_info.sh; fi_pingpong also in tests/vm/guest-rdmacm.sh)
	libfabric-bin
	# Debian's UCX (tests/sim/ucx_perftest.sh)
	ucx-utils
	# DAPL's dtest (tests/sim/busy_world.sh)
	dapl2-utils
	# a Go program under rdma-sim (tests/sim/go_verbs)
	golang-go
	# perftest 4.5 built from Debian's source, and the current perftest
	# from ../shared/third_party, against rdma-dm (tests/perftest)
	librdmacm-dev libibumad-dev libpci-dev autoconf automake libtool make
	# the real-kernel lane
	qemu-system-x86 busybox-static cpio kmod iproute2 xz-utils zstd
	# packaging
	debhelper dpkg-dev fakeroot lintian rpm
)

install_deps() {
	[ -n "${NO_APT:-}" ] && return 0
	local missing=() p sudo=
	for p in "${DEPS[@]}"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
			grep -q 'install ok installed' || missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	[ "$(id -u)" -eq 0 ] || sudo=sudo
	echo "build.sh: installing ${missing[*]}" >&2
	$sudo apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq \
		--no-install-recommends "${missing[@]}" >/dev/null
}

build() {
	cmake -S . -B build -G Ninja -DIN_PLACE=ON >/dev/null
	ninja -C build
}

case $mode in
build)
	install_deps
	build
	;;
demo)
	install_deps
	build
	exec build/bin/rdma-sim -- build/bin/ibv_dm_export
	;;
test)
	install_deps
	build
	cd build
	exec ctest --output-on-failure -j2 --timeout 900
	;;
*)
	echo "usage: $0 [build|demo|test]" >&2
	exit 2
	;;
esac
