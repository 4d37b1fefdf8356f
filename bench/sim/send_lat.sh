#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Usage: nice bench/sim/send_lat.sh [BUILD_DIR] [BASE_BUILD_DIR] [REPS]
# ib_send_lat -s 2 -n 20000 (Debian's perftest, server and client under
# one rdma-sim) on rdma-dm's libraries and on Debian's, REPS times
# (default 3), each run beside the same run on BASE_BUILD_DIR if given (a
# build of the commit to compare with), with a pipe ping-pong and the
# costs of dp_baseline's costs mode in the same round. Prints t_min and
# the median (t_typical) per run, and the SENDs that landed (hca_land.c)
# per message in the receiving processes. The load average comes first:
# on the shared 2-core VM, say it with any figure.
B=${1:-build}
BASE=$2
REPS=${3:-3}
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
port=$((23000 + $$ % 1000))

run() { # BUILD STACK -> "t_min t_typical landed/msg"
	port=$((port + 1))
	lp=
	[ "$2" = rdma-dm ] && lp=$1/lib
	: >"$w/stats"
	env -u LD_LIBRARY_PATH ${lp:+LD_LIBRARY_PATH=$lp} \
		RDMA_SIM_HCA_STATS="$w/stats" timeout 120 "$1/bin/rdma-sim" -- \
		sh -c "ib_send_lat -d mlx5_0 -s 2 -n 20000 -p $port >$w/s 2>&1 &
		sleep 1
		ib_send_lat -d mlx5_0 -s 2 -n 20000 -p $port localhost >$w/c 2>&1
		wait"
	awk '$1 == 2 && FILENAME ~ /c$/ { t = $3 " " $5 }
	     FILENAME ~ /stats$/ { for (i = 1; i < NF; i++)
		if ($i == "landed") n += $(i + 1) }
	     END { printf "%s %.2f\n", t ? t : "FAILED -", n / 40000 }' \
		"$w/c" "$w/stats"
}

echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) ($(nproc) CPUs)"
echo "rep stack build t_min t_typical landed/msg"
for r in $(seq "$REPS"); do
	echo "$r pipe $("$B/bin/dp_baseline" pipe 20000 | awk '{print $4}')"
	"$B/bin/dp_baseline" costs 20000 | awk -v r="$r" '{print r, $1, $4}'
	for stack in rdma-dm debian; do
		echo "$r $stack new $(run "$B" $stack)"
		[ -n "$BASE" ] && echo "$r $stack base $(run "$BASE" $stack)"
	done
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
