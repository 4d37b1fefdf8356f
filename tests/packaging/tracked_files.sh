#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# The files the project tracks under each PATH of a source tree, one a line,
# relative to it: git's index in a git checkout (of this very tree), else
# the tree's files less what a package build leaves in debian/ (dh's
# debian/tmp, debian/.debhelper, a staging dir per binary package, the
# substvars, logs and stamps), for an unpacked source tarball.
#
# usage: tracked_files.sh SOURCE_DIR PATH...
cd "$1" || exit 1
shift
top=$(git rev-parse --show-toplevel 2>/dev/null) || top=
if [ -n "$top" ] && [ "$top" = "$(pwd -P)" ]; then
	git ls-files -z -- "$@" | xargs -0 -r sh -c \
		'for f; do [ -e "$f" ] && echo "$f"; done' sh
	exit 0
fi
skip="debian/tmp debian/.debhelper"
for p in $(sed -n 's/^Package:[[:space:]]*//p' debian/control 2>/dev/null); do
	skip="$skip debian/$p"
done
for f in $(find "$@" -type f 2>/dev/null); do
	case $f in
	debian/files | debian/*.substvars | debian/*.debhelper.log | \
		debian/*.debhelper | debian/debhelper-build-stamp)
		continue ;;
	esac
	for d in $skip; do
		case $f in "$d"/*) continue 2 ;; esac
	done
	echo "$f"
done
