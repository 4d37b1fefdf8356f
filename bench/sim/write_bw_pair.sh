#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Usage: bench/sim/write_bw_pair.sh BUILD_DIR BASE_BUILD_DIR [RUNS]
# (run it under nice). Debian's ib_write_bw -s 65536 (server and client
# under one rdma-sim) on two builds, interleaved RUNS times (default 5),
# each run next to a cache-hot memcpy of 64 KiB measured just before it
# (dp_baseline of BUILD_DIR): per run the ratio of the two and, from
# RDMA_SIM_HCA_STATS, the sender's trapped doorbell stores per WQE
# ("-" where the build does not count them); then the median ratio of
# each build. The load average is printed before and after: on a shared
# machine single runs swing by several times, medians of pairs less.
set -e
B=$1
BASE=$2
RUNS=${3:-5}
if [ ! -x "$B/bin/rdma-sim" ] || [ ! -x "$BASE/bin/rdma-sim" ]; then
	echo "usage: $0 BUILD_DIR BASE_BUILD_DIR [RUNS]" >&2
	exit 2
fi
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
# shellcheck source=bench/sim/pair.sh
. "$(dirname "$0")/pair.sh"

# one run on build $1: "ratio traps-per-wqe" appended to $w/$2
one() {
	mc=$("$B/bin/dp_baseline" memcpy 65536 2 | awk '{print $3}')
	rm -f "$w/stats"
	RDMA_SIM_HCA_STATS="$w/stats" pair "$1/bin/rdma-sim" 18620 \
		ib_write_bw -d mlx5_0 -s 65536 -n 20000
	bw=$(awk '$1 == 65536 {print $4}' "$w/c")
	tr=$(awk '/ wqes 20000 / { for (i = 1; i < NF; i++)
		if ($i == "uar-traps") t = $(i + 1) / 20000 }
		END { if (t == "") print "-"; else printf "%.3f", t }' \
		"$w/stats")
	r=$(echo "$bw $mc" | awk '{printf "%.1f", 100 * $1 / $2}')
	echo "$r" >>"$w/$2"
	echo "$2 run $i: $bw MB/s, memcpy $mc MB/s, ratio $r %," \
		"doorbell traps per WQE $tr"
}

median() { sort -n "$1" | awk '{v[NR] = $1} END {
	printf "%.1f", NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

echo "load average before: $(load) ($(nproc) CPUs)"
i=1
while [ "$i" -le "$RUNS" ]; do
	one "$B" new
	one "$BASE" base
	i=$((i + 1))
done
echo "median ratio to the cache-hot memcpy: new $(median "$w/new") %," \
	"base $(median "$w/base") % ($RUNS paired runs)"
echo "load average after: $(load)"
