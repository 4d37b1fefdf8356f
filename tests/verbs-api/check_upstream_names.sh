#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Our public headers declare every name upstream's verbs.h and mlx5dv.h do:
# upstream_names_test.c, built against INCLUDE_DIR as C (gnu11) and C++11
# with each of gcc, g++, clang and clang++ found, once per list (LIST is
# "verbs" or "mlx5dv"). The compiler's errors name what is missing.
# usage: check_upstream_names.sh INCLUDE_DIR LIST...
set -u
inc="$1"
shift
here=$(dirname "$0")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0
checked=0
names=0

for list in "$@"; do
	case "$list" in
	verbs) def="" ;;
	mlx5dv) def="-DUP_MLX5DV" ;;
	*) echo "unknown list $list"; exit 2 ;;
	esac
	names=$((names + $(cat "$here/upstream-$list-"*.def | grep -c '^UP_')))
	for compiler in gcc g++ clang clang++; do
		command -v "$compiler" >/dev/null 2>&1 || continue
		case "$compiler" in
		*++) lang="-x c++ -std=c++11" ;;
		*) lang="-std=gnu11" ;;
		esac
		# shellcheck disable=SC2086
		if ! "$compiler" $lang $def -I"$inc" -Wall -Wextra -Werror \
			-fsyntax-only "$here/upstream_names_test.c" \
			2>"$work/err"; then
			echo "FAIL: $compiler, $list list:"
			grep -E 'error' "$work/err" | head -50
			fail=1
		fi
		checked=$((checked + 1))
	done
done

if [ "$checked" -lt 2 ]; then
	echo "FAIL: only $checked compiler/list pairs checked"
	exit 1
fi
echo "$checked compiler/list pairs compiled, $names upstream names checked"
exit $fail
