#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# packaging_rpm: build redhat/rdma-dm.spec with rpmbuild -bb --nodeps from a
# tarball of the tree (Fedora's CMake macros come from rpm-macros here) and
# check the RPMs' file lists: expected files in the right package, nothing in
# two packages, nothing outside rdma-dm's own paths, no auto-Provides that
# would let our libibverbs.so.1 stand in for the distribution's.
#
#   rpm-test.sh SOURCE_DIR WORK_DIR COMPONENT...
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/common.sh"
src=$1 work=$2
shift 2
top=$work/rpmbuild

rm -rf "$top"
mkdir -p "$top/SOURCES"
copy_tree "$src" "$work/rdma-dm-1.0"
tar -C "$work" -czf "$top/SOURCES/rdma-dm-1.0.tar.gz" rdma-dm-1.0
stage "rpmbuild -bb --nodeps (log: $work/build.log)"
rpmbuild -bb --nodeps --define "_topdir $top" --define "_smp_mflags -j2" \
	--load "$here/rpm-macros" "$work/rdma-dm-1.0/redhat/rdma-dm.spec" \
	>"$work/build.log" 2>&1 || {
	tail -40 "$work/build.log"
	die "rpmbuild failed"
}

libdir=$(rpm --eval '%{_libdir}')
: >"$work/files"
for rpm in "$top"/RPMS/*/*.rpm; do
	name=$(rpm -qp --qf '%{NAME}' "$rpm")
	# Non-directories only: directories may be shared (.build-id).
	rpm -qp --qf '[%{FILEMODES:perms} %{FILENAMES}\n]' "$rpm" |
		awk -v p="$name" '$1 !~ /^d/ { print p, $2 }' >>"$work/files"
	provides=$(rpm -qp --provides "$rpm" | grep '\.so' || true)
	[ -z "$provides" ] || die "$name advertises $provides"
done
stage "package contents (files and links)"
cat "$work/files"
check_file_lists "$work/files" rpm "$libdir" "$@"
rpm -qp --requires "$top"/RPMS/*/rdma-dm-providers-*.rpm |
	grep -q '^rdma-dm-libibverbs(' || die "providers do not require ours"
echo "PASS: packaging_rpm"
