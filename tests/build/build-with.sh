#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Build the whole tree from scratch with another compiler (warnings are
# errors), so gcc and clang both stay clean. Usage: build-with.sh CC CXX SRC OUT
set -euo pipefail
cc=$1 cxx=$2 src=$3 out=$4
rm -rf "$out"
CC=$cc CXX=$cxx cmake -S "$src" -B "$out" -G Ninja -DENABLE_WERROR=ON \
	-DENABLE_TESTS=OFF -DENABLE_VM_LANE=OFF -DIN_PLACE=ON >/dev/null
ninja -C "$out" >"$out.log" 2>&1 || { tail -n 60 "$out.log"; exit 1; }
grep -c 'warning:' "$out.log" >/dev/null && { grep 'warning:' "$out.log"; exit 1; }
echo "build with $cc: ok ($(grep -c '^\[' "$out.log") steps)"
