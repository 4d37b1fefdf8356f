#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# hygiene.sh in a packager's tree: after dpkg-buildpackage -b the tree holds
# debian/tmp, a staging dir per package and dh's leftovers, man pages among
# them. The check must still pass there, and still fail on a real problem
# in a tracked file: in a git checkout, and in an unpacked tarball.
#
# usage: hygiene_test.sh SOURCE_DIR
here=$(cd "$(dirname "$0")" && pwd)
src=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bad=0
fail() {
	echo "FAIL: $*"
	bad=1
}
# expect 0|1 WHAT: hygiene.sh's verdict on the copy
expect() {
	sh "$here/hygiene.sh" "$tmp/t" >"$tmp/out" 2>&1
	rc=$?
	if [ $rc != "$1" ]; then
		fail "$2: hygiene.sh exited $rc, want $1"
		sed 's/^/  | /' "$tmp/out"
	fi
}

mkdir "$tmp/t"
sh "$here/tracked_files.sh" "$src" debian redhat man COPYING |
	(cd "$src" && xargs cp --parents -t "$tmp/t") || exit 1
cd "$tmp/t" || exit 1
git init -q . && git add -A || exit 1
expect 0 "the tracked sources"

# What dpkg-buildpackage -b leaves behind.
for d in debian/tmp/usr/share/man/man3 \
	debian/rdma-dm-dev/usr/share/man/man3 \
	debian/.debhelper/generated/rdma-dm-dev; do
	mkdir -p "$d"
done
echo '.TH IBV_ALLOC_DM 3' >debian/tmp/usr/share/man/man3/ibv_alloc_dm.3
echo '.TH IBV_ALLOC_DM 3' >debian/rdma-dm-dev/usr/share/man/man3/ibv_alloc_dm.3
echo 'usr/include' >debian/.debhelper/generated/rdma-dm-dev/installed-by-dh_install
touch debian/files debian/rdma-dm-dev.substvars debian/debhelper-build-stamp
expect 0 "git checkout after dpkg-buildpackage -b"

# A hand-written roff page the project tracks is still refused.
echo '.TH FOO 1' >debian/foo.1
git add debian/foo.1
expect 1 "git checkout with a tracked debian/foo.1"
grep -q 'debian/foo.1: man pages belong in man/' "$tmp/out" ||
	fail "the tracked page is not the one named"

# An unpacked tarball: no git, the same two verdicts.
rm -rf .git debian/foo.1
expect 0 "tarball tree after dpkg-buildpackage -b"
echo '.TH FOO 1' >debian/foo.1
expect 1 "tarball tree with debian/foo.1"
grep -q 'debian/foo.1: man pages belong in man/' "$tmp/out" ||
	fail "the tarball's page is not the one named"

[ $bad = 0 ] && echo "hygiene in a packager's tree: ok"
exit $bad
