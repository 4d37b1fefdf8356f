#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# mlx5 data path: library instructions (callgrind) per ibv_post_send of one
# WQE (signaled / unsignaled, ibv_post_send / ibv_wr_*) and per polled CQE,
# rdma-dm's libmlx5 against Debian's libmlx5 44, both on rdma-sim. The
# same mlx5_dp_bench binary runs both: Debian's libraries come first on
# LD_LIBRARY_PATH for the second column. rdma-sim runs its engine inside
# the wrapped post/poll calls; dp_ir.py leaves the simulator's own
# instructions out. Prints a markdown table.
#
# usage: bench/mlx5/dp_run.sh [BUILD_DIR] [N]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-$here/../../build}" && pwd)
n=${2:-2000}
sim="$build/bin/rdma-sim"
bench="$build/bench/mlx5_dp_bench"
debian_lib=/usr/lib/$(gcc -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

for tool in valgrind python3; do
	command -v $tool >/dev/null || { echo "need $tool"; exit 1; }
done
[ -e "$debian_lib/libmlx5.so.1" ] || { echo "need Debian's ibverbs-providers"; exit 1; }

# ir STACK MODE FUNCTION: instructions per call of FUNCTION
ir() {
	out="$work/cg.$1.$2"
	if [ "$1" = debian ]; then
		env LD_LIBRARY_PATH="$debian_lib" nice "$sim" -- valgrind \
			--tool=callgrind --callgrind-out-file="$out" \
			--toggle-collect="$3" "$bench" "$2" "$n" >/dev/null 2>&1
	else
		nice "$sim" -- valgrind --tool=callgrind \
			--callgrind-out-file="$out" --toggle-collect="$3" \
			"$bench" "$2" "$n" >/dev/null 2>&1
	fi || { echo "n/a"; return; }
	python3 "$here/dp_ir.py" "$out" "$n"
}

echo "## mlx5 data path, instructions per operation (callgrind, N=$n, rdma-sim)"
echo
echo "| operation | rdma-dm | Debian libmlx5 44 | ratio |"
echo "|---|---:|---:|---:|"
for row in "post-sig:bench_post:ibv_post_send, signaled" \
	   "post-unsig:bench_post:ibv_post_send, unsignaled" \
	   "wr-sig:bench_wr:ibv_wr_* (start..complete), signaled" \
	   "wr-unsig:bench_wr:ibv_wr_* (start..complete), unsignaled" \
	   "poll:bench_poll:ibv_poll_cq, per CQE"; do
	mode=${row%%:*}
	rest=${row#*:}
	fn=${rest%%:*}
	label=${rest#*:}
	ours=$(ir ours "$mode" "$fn")
	theirs=$(ir debian "$mode" "$fn")
	ratio=$(echo "$ours $theirs" | awk '$2 > 0 && $1 ~ /^[0-9]+$/ { printf "%.2f", $1 / $2; next } { print "n/a" }')
	echo "| $label | $ours | $theirs | $ratio |"
done
