#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Usage: bench/sim/run.sh [BUILD_DIR] [N]  (default build/, 200000 ops)
# Prints ns/op for each sim boundary call; with callgrind installed also
# instructions per QUERY_PORT ioctl (from a short second run).
set -e
B=${1:-build}
N=${2:-200000}
"$B/bin/rdma-sim" -- "$B/bin/sim_bench" "$N"
if command -v valgrind >/dev/null; then
	out=$(mktemp)
	"$B/bin/rdma-sim" -- valgrind --tool=callgrind -q \
		--callgrind-out-file="$out" --toggle-collect=sim_ioctl \
		"$B/bin/sim_bench" 1000 >/dev/null
	ir=$(callgrind_annotate "$out" 2>/dev/null |
		awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1 }')
	rm -f "$out"
	# 1000 QUERY_PORT + 100 DM_ALLOC/FREE pairs pass through sim_ioctl
	echo "callgrind: $ir instructions in sim_ioctl over 1200 ioctls"
fi
