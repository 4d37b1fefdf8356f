#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# ibv_open_device and ibv_close_device cost no more library instructions
# on rdma-dm than on Debian's rdma-core 44 (callgrind, the simulator's
# share subtracted as run.sh does), and closing stays within upstream 65's
# ~2,500. Once they cost 200,000+ (clearing the data-path tables at open)
# and 74,000 (walking them at close).
# usage: open_close_cost.sh RDMA_SIM BENCH_DIR [CALLS]
set -u
sim=$1
b=$2
n=${3:-10}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0

cost() { # LIB FUNCTION
	"$sim" --devices 1 -- valgrind --tool=callgrind \
		--callgrind-out-file="$work/cg" --toggle-collect="$2" \
		"$b/side_bench_$1_plain" open "$n" >/dev/null 2>&1 ||
		{ echo "FAIL: side_bench_$1_plain open under callgrind" >&2; return; }
	python3 "$here/callgrind_lib.py" "$work/cg" "$n" librdmasim |
		awk '{print $2}'
}

for fn in bench_open_device bench_close_device; do
	ours=$(cost ours $fn)
	deb=$(cost deb $fn)
	echo "$fn: ours $ours, rdma-core 44 $deb library instructions per call"
	if [ -z "$ours" ] || [ -z "$deb" ] || [ "$ours" -le 0 ] ||
		[ "$ours" -gt "$deb" ]; then
		echo "FAIL: $fn costs more on ours"
		fail=1
	fi
	if [ "$fn" = bench_close_device ] && [ "${ours:-0}" -gt 2500 ]; then
		echo "FAIL: ibv_close_device above upstream 65's ~2,500"
		fail=1
	fi
done
exit $fail
