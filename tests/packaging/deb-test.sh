#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# packaging_deb: build the .deb set from a copy of the tree, lint it, install
# it beside Debian's rdma-core packages and run a program built only with
# rdma-dm.pc under the packaged rdma-sim. Purges everything it installed.
#
#   deb-test.sh SOURCE_DIR WORK_DIR COMPONENT...
# COMPONENTs are what the tree builds and installs (ibverbs rxe mlx5 sim tools
# man, see common.sh); each must be packaged and, where it can run, work.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/common.sh"
src=$1 work=$2
shift 2
components=" $* "
has() { [[ $components == *" $1 "* ]]; }
ours=(rdma-dm-libibverbs1 rdma-dm-providers rdma-dm-dev rdma-dm-tools rdma-sim)
debian=(libibverbs1 ibverbs-providers ibverbs-utils)
libdir=/usr/lib/$(dpkg-architecture -qDEB_HOST_MULTIARCH)
privlib=$libdir/rdma-dm/lib

build_debs()
{
	copy_tree "$src" "$work/rdma-dm"
	rm -f "$work"/*.deb "$work"/*.changes "$work"/*.buildinfo
	stage "dpkg-buildpackage -us -uc -b (log: $work/build.log)"
	# No -dbgsym packages: they are not under test and cost a minute.
	(cd "$work/rdma-dm" && DEB_BUILD_OPTIONS="noddebs nocheck" \
		dpkg-buildpackage -us -uc -b -j2) \
		>"$work/build.log" 2>&1 || {
		tail -40 "$work/build.log"
		die "dpkg-buildpackage failed"
	}
	if grep -q 'new symbols appeared' "$work/build.log"; then
		grep -A40 'new symbols appeared' "$work/build.log"
		die "debian/*.symbols lack new symbols (above); regenerate" \
			"with tests/packaging/gen-symbols.sh"
	fi
	debs=()
	local p
	for p in "${ours[@]}"; do
		debs+=("$work/${p}_1.0-1_$(dpkg --print-architecture).deb")
	done
}

lint()
{
	stage "lintian (fails on errors)"
	lintian --fail-on error "${debs[@]}" || die "lintian reported errors"
}

# Every file, with its package; must clash with nothing Debian installed.
check_contents()
{
	local deb pkg owners
	for deb in "${debs[@]}"; do
		pkg=$(dpkg-deb -f "$deb" Package)
		dpkg-deb -c "$deb" | awk -v p="$pkg" '$1 !~ /^d/ {
			sub(/^\./, "", $6); print p, $6 }'
	done >"$work/files"
	stage "package contents (files and links)"
	cat "$work/files"
	check_file_lists "$work/files" deb "$libdir" $components
	# One dpkg -S for all paths; "pkg[, pkg]: path" lines for owned ones.
	owners=$(awk '{ print $2 }' "$work/files" | xargs dpkg -S 2>/dev/null |
		grep -v '^diversion' | cut -d: -f1 | tr ', ' '\n\n' |
		grep -vxE "$(IFS='|'; echo "${ours[*]}")|" | sort -u) || true
	[ -z "$owners" ] || die "paths shared with: $owners"
	echo "ok: no path shared with an installed package"
}

purge_ours()
{
	DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq \
		-o DPkg::Lock::Timeout=300 "${ours[@]}" >/dev/null 2>&1 || true
}

debian_untouched()
{
	local changed
	changed=$(dpkg -V "${debian[@]}") || true
	[ -z "$changed" ] || die "Debian's files changed: $changed"
	[ "$(ibv_devices 2>&1; echo "rc=$?")" = "$devices_before" ] ||
		die "Debian's ibv_devices output changed"
	ldd /usr/bin/ibv_devices | grep 'libibverbs\.so\.1 =>' |
		grep -qv rdma-dm ||
		die "Debian's ibv_devices no longer uses Debian's libibverbs"
}

install_debs()
{
	dpkg-query -W -f='${Status}\n' "${debian[@]}" 2>/dev/null |
		grep -cx 'install ok installed' | grep -qx ${#debian[@]} ||
		die "needs Debian's ${debian[*]} installed (build.sh DEPS)"
	devices_before=$(ibv_devices 2>&1; echo "rc=$?")
	purge_ours
	trap 'purge_ours' EXIT
	stage "apt-get install ${debs[*]##*/}"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
		-o DPkg::Lock::Timeout=300 --no-install-recommends \
		"${debs[@]}" >"$work/apt.log" 2>&1 || {
		cat "$work/apt.log"
		die "apt-get install failed"
	}
	debian_untouched
	echo "ok: Debian's libibverbs1/ibverbs-providers/ibverbs-utils intact"
	# Every installed program, library and plug-in finds its libraries.
	local elf missing
	for elf in "$libdir"/rdma-dm/bin/* "$privlib"/*.so* \
		"$privlib"/providers/*; do
		missing=$(ldd "$elf" 2>&1 | grep 'not found') || continue
		die "$elf: unresolved: $missing"
	done
	grep -aq "/etc/rdma-dm/libibverbs.d" "$privlib/libibverbs.so.1" &&
		grep -aq "$privlib/providers" "$privlib/libibverbs.so.1" ||
		die "installed libibverbs lacks the private config/provider dirs"
}

# A program that knows nothing but the -dev package's pkg-config data.
build_app()
{
	local flags
	flags=$(env -u PKG_CONFIG_PATH pkg-config --cflags --libs rdma-dm)
	stage "cc dm_app.c $flags"
	[[ $flags == *"-I/usr/include/rdma-dm"* &&
		$flags == *"-Wl,-rpath,$privlib"* ]] ||
		die "rdma-dm.pc lacks -I or rpath: $flags"
	# shellcheck disable=SC2086 # flags are words
	cc -Wall -Werror -o "$work/dm_app" "$here/dm_app.c" $flags
	readelf -d "$work/dm_app" | grep -Eq "R(UN)?PATH.*\[$privlib\]" ||
		die "dm_app has no RPATH to $privlib"
	"$work/dm_app" >"$work/app.out" || die "dm_app failed outside rdma-sim"
	grep -qx "libibverbs: $privlib/libibverbs.so.1" "$work/app.out" ||
		die "dm_app did not load rdma-dm's libibverbs: $(cat "$work/app.out")"
	echo "ok: dm_app loads $privlib/libibverbs.so.1 without LD_LIBRARY_PATH"
}

run_under_sim()
{
	stage "rdma-sim -- ibv_devices (Debian's, through Debian's libibverbs)"
	rdma-sim -- ibv_devices | tee "$work/sim_devices.out"
	grep -qw mlx5_0 "$work/sim_devices.out" ||
		die "Debian's ibv_devices under rdma-sim does not list mlx5_0"
	if ! has mlx5; then
		echo "note: no mlx5 provider in this tree: DM export not run"
		return 0
	fi
	stage "rdma-sim -- dm_app mlx5_0"
	rdma-sim -- "$work/dm_app" mlx5_0 | tee "$work/sim_app.out" ||
		die "dm_app under rdma-sim failed"
	grep -qx "dmabuf fd: ok" "$work/sim_app.out" || die "no DM export"
	if has tools; then
		stage "rdma-sim -- ibv_dm_export (rdma-dm-tools)"
		rdma-sim -- ibv_dm_export || die "packaged ibv_dm_export failed"
	fi
}

mkdir -p "$work"
build_debs
lint
check_contents
if [ "$(id -u)" != 0 ]; then
	echo "SKIP: installing the packages needs root (CI runs as root)"
	exit 77
fi
install_debs
build_app
if has sim; then
	run_under_sim
else
	echo "note: no rdma-sim in this tree: simulated-device checks not run"
fi
purge_ours
trap - EXIT
[ ! -e /etc/rdma-dm ] && [ ! -e "$libdir/rdma-dm" ] ||
	die "purge left files behind"
debian_untouched
echo "PASS: packaging_deb"
