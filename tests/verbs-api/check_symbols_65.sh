#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# A library exports exactly the symbols rdma-core 65's does (LIST, see
# upstream-65-libibverbs.sym), each at the same version node and default
# or non-default as upstream:
#  - every listed symbol exists (one exception: at IBVERBS_PRIVATE_65 our
#    own provider interface holds the default version of most names, so
#    there a non-default name@IBVERBS_PRIVATE_65 stands for upstream's
#    default one);
#  - every symbol ours exports at a public node is listed;
#  - the "node CHILD PARENT" lines give the version graph.
# usage: check_symbols_65.sh LIB LIST [LIB LIST]...
set -u
fail=0

check() {
	lib="$1"
	list="$2"
	ours=$(nm -D --defined-only --with-symbol-versions "$lib" |
		awk '$2 ~ /^[TDBRVWi]$/ {print $3}')
	want=$(grep -v '^#' "$list" | grep '@')
	if [ -z "$ours" ] || [ -z "$want" ]; then
		echo "FAIL: nothing read from $lib or $list"
		return 1
	fi
	bad=0
	for sym in $want; do
		printf '%s\n' "$ours" | grep -qxF "$sym" && continue
		case "$sym" in
		*@@IBVERBS_PRIVATE_65)
			printf '%s\n' "$ours" |
				grep -qxF "$(echo "$sym" | sed 's/@@/@/')" &&
				continue ;;
		esac
		echo "FAIL: $lib lacks $sym"
		bad=1
	done
	for sym in $(printf '%s\n' "$ours" | grep -v '@@*[A-Z0-9]*_PRIVATE_'); do
		printf '%s\n' "$want" | grep -qxF "$sym" && continue
		echo "FAIL: $lib exports $sym, which upstream 65 does not" \
			"(a newer upstream name belongs in $list)"
		bad=1
	done
	defs=$(objdump -p "$lib" |
		sed -n '/Version definitions/,/Version References/p')
	grep '^node ' "$list" | while read -r _ node parent; do
		got=$(printf '%s\n' "$defs" |
			awk -v n="$node" '$4 == n {getline; print ($1 ~ /^[0-9]/) ? "-" : $1}')
		if [ "$got" != "$parent" ]; then
			echo "FAIL: $lib node $node inherits '$got', want '$parent'"
			exit 1
		fi
	done || bad=1
	echo "$lib: $(printf '%s\n' "$want" | wc -l) upstream 65 symbols checked"
	return $bad
}

while [ $# -ge 2 ]; do
	check "$1" "$2" || fail=1
	shift 2
done
exit $fail
