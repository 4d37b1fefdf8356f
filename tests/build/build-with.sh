#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Build the whole tree from scratch with another compiler or other flags
# (warnings are errors), so every such build stays clean.
# Usage: build-with.sh CC CXX SRC OUT [LABELS [CMAKE_ARG...]]
# With LABELS (a ctest -L regex) the tests are built too and those run in OUT.
set -euo pipefail
cc=$1 cxx=$2 src=$3 out=$4
labels=${5:-}
shift $(($# < 5 ? $# : 5))
rm -rf "$out"
CC=$cc CXX=$cxx cmake -S "$src" -B "$out" -G Ninja -DENABLE_WERROR=ON \
	-DENABLE_TESTS="$([ -n "$labels" ] && echo ON || echo OFF)" \
	-DENABLE_VM_LANE=OFF -DIN_PLACE=ON "$@" >/dev/null
ninja -C "$out" >"$out.log" 2>&1 || { tail -n 60 "$out.log"; exit 1; }
grep -c 'warning:' "$out.log" >/dev/null && { grep 'warning:' "$out.log"; exit 1; }
echo "build with $cc: ok ($(grep -c '^\[' "$out.log") steps)"
[ -n "$labels" ] || exit 0
# A per-test timeout, so a hang names its test instead of eating ours.
ctest --test-dir "$out" -j2 -L "$labels" -LE 'packaging|vm|build' --timeout 300 \
	--output-on-failure >"$out.ctest.log" 2>&1 ||
	{ grep -v '^$' "$out.ctest.log" | tail -n 80; exit 1; }
grep 'tests passed' "$out.ctest.log"
