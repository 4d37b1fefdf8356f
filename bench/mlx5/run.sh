#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# mlx5 DM benchmark: per-verb instructions (callgrind) and kernel calls,
# real syscalls under rdma-sim (strace -c -f), device accesses per KiB and
# copy bandwidth. Prints markdown tables (see README.md).
#
# usage: bench/mlx5/run.sh [BUILD_DIR]   (default: build)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-$here/../../build}" && pwd)
sim="$build/bin/rdma-sim"
bench="$build/bench/mlx5_dm_bench"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
N=50

for tool in valgrind strace python3; do
	command -v $tool >/dev/null || { echo "need $tool"; exit 1; }
done

echo "## Kernel calls per verb (what a real kernel would see as syscalls)"
echo
echo '```'
"$sim" -- "$bench" verbs $N
echo '```'
echo

echo "## Instructions per call (callgrind, $N calls, 4 KiB DM)"
echo
echo "| verb | Ir total (incl. simulated kernel) | Ir in the libraries |"
echo "|---|---:|---:|"
for fn in ibv_open_device:ibv_open_device mlx5_alloc_dm:ibv_alloc_dm \
	  ibv_dm_export_dmabuf_fd:ibv_dm_export_dmabuf_fd \
	  mlx5_free_dm:ibv_free_dm ibv_close_device:ibv_close_device; do
	sym=${fn%%:*}
	verb=${fn#*:}
	out="$work/cg.$sym"
	"$sim" -- valgrind --tool=callgrind --callgrind-out-file="$out" \
		--toggle-collect="$sym" "$bench" verbs $N >/dev/null 2>&1
	set -- $(python3 "$here/callgrind_calls.py" "$out" $N librdmasim)
	echo "| $verb | $1 | $2 |"
done
echo

echo "## Real syscalls under rdma-sim (strace -c -f; per pair, by delta)"
echo
echo "These include the simulator's own work (it runs in-process), so they"
echo "are not what a kernel would see; the table above is."
echo
echo "| loop | syscalls per iteration |"
echo "|---|---:|"
for mode in loop-open loop-alloc loop-export; do
	for n in 10 110; do
		strace -f -c -o "$work/st.$mode.$n" \
			"$sim" -- "$bench" $mode $n >/dev/null 2>&1
	done
	a=$(awk '/ total$/ {print $4}' "$work/st.$mode.10" | tail -1)
	b=$(awk '/ total$/ {print $4}' "$work/st.$mode.110" | tail -1)
	echo "| $mode | $(echo "$a $b" | awk '{printf "%.1f", ($2 - $1) / 100}') |"
done
echo

echo "## Device accesses per KiB copied"
echo
echo '```'
"$build/bench/mlx5_dm_copy_count"
echo '```'
echo

echo "## Copy bandwidth on the sim (DM is host shared memory here)"
echo
echo '```'
"$sim" -- "$bench" copy
echo '```'
