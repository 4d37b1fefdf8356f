#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# The packaging's own sources stay simple and strict:
#  - every man page is markdown in man/ (cmake --install puts it in place);
#    no hand-written roff under debian/, no debian/*.manpages,
#  - the RPM spec takes nothing from debian/ (its licence is COPYING),
#  - debian/*.install and *.links are plain lists, not executable filters:
#    dh_install then fails on any listed file the build did not produce,
#    so a component that is not built cannot leave an empty package.
# It judges the files the project tracks (tracked_files.sh), not what a
# package build left in the tree (debian/tmp, the staging dirs).
#
# usage: hygiene.sh SOURCE_DIR
here=$(cd "$(dirname "$0")" && pwd)
cd "$1" || exit 1
bad=0
fail() {
	echo "FAIL: $*"
	bad=1
}

for f in $(sh "$here/tracked_files.sh" . debian); do
	case $f in
	debian/*.[1-9] | debian/*.manpages)
		fail "$f: man pages belong in man/ as markdown" ;;
	debian/*.install | debian/*.links)
		[ -x "$f" ] && fail "$f: executable (a filter, not a list)"
		grep -q 'select-files\|^!' "$f" &&
			fail "$f: optional or filtered entries" ;;
	esac
done
[ -e debian/select-files ] && fail "debian/select-files still exists"
grep -n 'debian/' redhat/*.spec | sed 's/^/redhat spec reaches into debian\/: /' |
	while read -r line; do echo "FAIL: $line"; done | grep . && bad=1
[ -f COPYING ] || fail "no COPYING for the RPM's %license"
for page in man/*.md; do
	grep -q "$(basename "${page%.md}")" man/CMakeLists.txt ||
		fail "$page is not rendered and installed by man/CMakeLists.txt"
done
[ $bad = 0 ] && echo "packaging sources: ok"
exit $bad
