#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Every public header under include/infiniband/ must compile on its own,
# as C (gnu11) and C++, with gcc, g++, clang and clang++ where installed,
# warnings as errors (C++ also -pedantic). Headers are globbed at run time, so new ones (e.g.
# mlx5dv.h) are covered without touching this test.
# usage: check_headers.sh INCLUDE_DIR
set -u
inc="$1"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0
checked=0

for compiler in gcc g++ clang clang++; do
	command -v "$compiler" >/dev/null 2>&1 || continue
	# C++ users get pedantic-clean headers, except for the anonymous
	# structs inside anonymous unions that upstream's layouts require.
	case "$compiler" in
	clang++) ext=cc; std="-pedantic -Wno-nested-anon-types" ;;
	g++) ext=cc; std="-pedantic" ;;
	*) ext=c; std="-std=gnu11 -Wstrict-prototypes -Wmissing-prototypes" ;;
	esac
	for header in "$inc"/infiniband/*.h; do
		name=$(basename "$header")
		src="$work/$name.$ext"
		printf '#include <infiniband/%s>\n' "$name" >"$src"
		# shellcheck disable=SC2086
		if ! "$compiler" -I"$inc" -Wall -Wextra -Wshadow -Werror $std \
			-fsyntax-only "$src" 2>"$work/err"; then
			echo "FAIL: $compiler cannot compile <infiniband/$name> alone:"
			cat "$work/err"
			fail=1
		fi
		checked=$((checked + 1))
	done
done

if [ "$checked" -lt 8 ]; then
	echo "FAIL: only $checked header/compiler pairs checked"
	exit 1
fi
echo "$checked header/compiler pairs compiled"
exit $fail
