# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Shared by deb-test.sh and rpm-test.sh (sourced, bash).

# A progress line with the seconds since the script started.
stage()
{
	echo "== [${SECONDS}s] $*"
}

die()
{
	echo "FAIL: $*" >&2
	exit 1
}

# copy_tree SRC DEST: the source tree without build output or git data, so
# the package build never writes into SRC.
copy_tree()
{
	rm -rf "$2"
	mkdir -p "$2"
	tar -C "$1" --exclude=./.git --exclude=./build --exclude='./build-*' \
		--exclude='./obj-*' -cf - . | tar -C "$2" -xf -
}

# What each component puts where. {L} is the platform libdir
# (/usr/lib/<triplet> on Debian, /usr/lib64 on Red Hat), {P} and {B} its
# rdma-dm/lib and rdma-dm/bin.
#   component  deb-package  rpm-package  path
component_files()
{
	cat <<'TABLE'
ibverbs rdma-dm-libibverbs1 rdma-dm-libibverbs {P}/libibverbs.so.1
ibverbs rdma-dm-dev rdma-dm-devel {P}/libibverbs.so
ibverbs rdma-dm-dev rdma-dm-devel {L}/pkgconfig/rdma-dm.pc
ibverbs rdma-dm-dev rdma-dm-devel /usr/include/rdma-dm/infiniband/verbs.h
rxe rdma-dm-providers rdma-dm-providers {P}/providers/librxe-rdmav100.so
rxe rdma-dm-providers rdma-dm-providers /etc/rdma-dm/libibverbs.d/rxe.driver
mlx5 rdma-dm-providers rdma-dm-providers {P}/libmlx5.so.1
mlx5 rdma-dm-providers rdma-dm-providers {P}/providers/libmlx5-rdmav100.so
mlx5 rdma-dm-providers rdma-dm-providers /etc/rdma-dm/libibverbs.d/mlx5.driver
mlx5 rdma-dm-dev rdma-dm-devel {P}/libmlx5.so
mlx5 rdma-dm-dev rdma-dm-devel /usr/include/rdma-dm/infiniband/mlx5dv.h
sim rdma-sim rdma-sim /usr/bin/rdma-sim
sim rdma-sim rdma-sim {B}/rdma-sim
sim rdma-sim rdma-sim {P}/librdmasim.so
tools rdma-dm-tools rdma-dm-tools /usr/bin/ibv_dm_export
tools rdma-dm-tools rdma-dm-tools {B}/ibv_dm_export
man rdma-dm-dev rdma-dm-devel /usr/share/rdma-dm/man/man3/ibv_alloc_dm.3
man rdma-dm-tools rdma-dm-tools /usr/share/man/man1/ibv_dm_export.1
man rdma-sim rdma-sim /usr/share/man/man1/rdma-sim.1
TABLE
}

# check_file_lists LIST FLAVOUR LIBDIR REQUIRED...
# LIST has "package path" lines for every non-directory entry of every
# package. FLAVOUR is deb or rpm (column of component_files). Fails when a
# path is in two packages, lies outside rdma-dm's own paths, or a REQUIRED
# component's file is missing or in the wrong package.
check_file_lists()
{
	local list=$1 flavour=$2 libdir=$3 comp pkg path col dup stray
	shift 3
	dup=$(awk '{print $2}' "$list" | sort | uniq -d)
	[ -z "$dup" ] || die "in two packages: $dup"
	# The only paths outside rdma-dm directories: the opt-in .pc, two
	# commands whose names Debian/Fedora do not use, per-package docs.
	stray=$(awk '{print $2}' "$list" | grep -Ev \
		-e "^$libdir/rdma-dm/" -e '^/etc/rdma-dm/' \
		-e '^/usr/include/rdma-dm/' -e '^/usr/share/rdma-dm/' \
		-e "^$libdir/pkgconfig/rdma-dm\.pc$" \
		-e '^/usr/bin/(ibv_dm_export|rdma-sim)$' \
		-e '^/usr/share/man/man1/(ibv_dm_export|rdma-sim)\.1(\.gz)?$' \
		-e '^/usr/share/(doc|licenses)/(rdma-dm|rdma-sim)[^/]*/' \
		-e '^/usr/lib/\.build-id/' || true)
	[ -z "$stray" ] || die "outside rdma-dm's paths: $stray"
	col=2
	[ "$flavour" = rpm ] && col=3
	for comp in "$@"; do
		component_files | awk -v c="$comp" -v k=$col '$1 == c {
			print $k, $4 }' | while read -r pkg path; do
			path=${path/\{L\}/$libdir}
			path=${path/\{P\}/$libdir/rdma-dm/lib}
			path=${path/\{B\}/$libdir/rdma-dm/bin}
			# Man pages may come gzipped (dh_compress, brp-compress).
			grep -qxF -e "$pkg $path" -e "$pkg $path.gz" "$list" ||
				die "$comp: $path not in $pkg"
		done || exit 1
		echo "ok: component $comp packaged"
	done
}
