#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Run two programs and require identical, non-empty output.
# usage: compare_outputs.sh EXPECTED_PROGRAM ACTUAL_PROGRAM
set -u
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$1" >"$work/expected" || { echo "FAIL: $1 exited $?"; exit 1; }
"$2" >"$work/actual" || { echo "FAIL: $2 exited $?"; exit 1; }
if [ ! -s "$work/expected" ]; then
	echo "FAIL: $1 printed nothing"
	exit 1
fi
if ! diff -u "$work/expected" "$work/actual"; then
	echo "FAIL: outputs differ (- rdma-core 44, + ours)"
	exit 1
fi
echo "$(wc -l <"$work/expected") lines identical"
