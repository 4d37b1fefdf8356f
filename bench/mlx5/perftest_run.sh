#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# perftest on rdma-sim: rdma-dm's libibverbs + libmlx5 against Debian's
# rdma-core 44, same programs, same simulator, same run. bw rows compare
# the average bandwidth (and message rate), lat rows the average latency
# (ratio = Debian / ours, so >= 1.0 means ours is at least as fast).
#
# Each side runs REPS times (interleaved, who goes first alternating;
# default 3); the median is shown:
# on a shared machine single runs of a simulator are noisy. Run i of ours
# and run i of Debian's ran back to back, so each such pair gives a ratio;
# the "pairs" column is the interquartile range of those ratios and the
# verdict says whether the difference stands out of that noise (">= 1"
# when even the lower quartile is >= 1, "< 1" when the upper one is below
# 1, "noise" when the range straddles 1).
#
# usage: bench/mlx5/perftest_run.sh [BUILD_DIR] [NDEV] [REPS]
set -u
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-$here/../../build}" && pwd)
ndev=${2:-1}
reps=${3:-3}
runner="$here/../../tests/perftest/run-perftest.sh"
sim="$build/bin/rdma-sim"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if [ -x "$build/perftest/bin/ib_write_bw" ]; then
	bindir=$build/perftest/bin libpath=
	what="perftest built from source against rdma-dm"
else
	bindir=/usr/bin libpath="$build/lib"
	what="Debian's perftest 4.5 on rdma-dm's libraries"
fi
run_ours() { nice "$runner" "$sim" "$ndev" "$bindir" "$libpath" >> "$work/ours" 2>&1; }
run_debian() { nice "$runner" "$sim" "$ndev" /usr/bin >> "$work/debian" 2>&1; }
# The side that goes first alternates: a run right after another one (its
# processes still exiting) is not the same as the first of a pair.
for i in $(seq "$reps"); do
	if [ $((i % 2)) = 1 ]; then
		run_ours
		run_debian
	else
		run_debian
		run_ours
	fi
done

echo "## perftest on rdma-sim, $ndev device(s): rdma-dm vs Debian's rdma-core 44"
echo
echo "rdma-dm side: $what; median of $reps runs each"
echo
echo "| run | rdma-dm | Debian | ratio | pairs (q1-q3) | verdict |"
echo "|---|---:|---:|---:|---:|---|"
# bw lines: bytes iters peak avg(MB/s) msgrate(Mpps); lat lines: bytes
# iters min max typical avg ... (usec). bw rows compare the message rate,
# lat rows the average and, as "NAME typ", perftest's typical (median)
# latency: on a shared machine a few descheduled round trips of ~1 ms move
# the average of 2000 by several us, the typical latency not.
metric() { # FILE NAME [typ] -> "median unit"
	awk -v n="$2" -v typ="${3:-}" '$1 == "ok" && $2 == n {
		sub(/^[^:]*:/, "")
		split($0, f, " ")
		v[++k] = n ~ /_bw/ ? f[5] : typ ? f[5] : f[6]
	} END {
		if (!k)
			exit
		for (i = 1; i <= k; i++)
			for (j = i + 1; j <= k; j++)
				if (v[j] + 0 < v[i] + 0) {
					t = v[i]; v[i] = v[j]; v[j] = t
				}
		printf "%s %s", v[int((k + 1) / 2)], n ~ /_bw/ ? "Mpps" : "us"
	}' "$1"
}
# pair_iqr OURS DEBIAN NAME [typ] -> "q1 q3" of the per-run ratios
pair_iqr() {
	awk -v n="$3" -v typ="${4:-}" '$1 == "ok" && $2 == n {
		sub(/^[^:]*:/, "")
		split($0, f, " ")
		x = n ~ /_bw/ ? f[5] : typ ? f[5] : f[6]
		if (FNR == NR)
			o[++a] = x
		else
			d[++b] = x
	} END {
		for (i = 1; i <= a && i <= b; i++)
			if (o[i] > 0 && d[i] > 0)
				r[++k] = n ~ /_bw/ ? o[i] / d[i] : d[i] / o[i]
		if (!k)
			exit
		for (i = 1; i <= k; i++)
			for (j = i + 1; j <= k; j++)
				if (r[j] < r[i]) {
					t = r[i]; r[i] = r[j]; r[j] = t
				}
		printf "%.2f %.2f", r[int((k + 3) / 4)], r[int((3 * k + 3) / 4)]
	}' "$1" "$2"
}
for row in write_bw read_bw send_bw atomic_bw write_lat read_lat send_lat \
	   send_bw_ud send_lat_ud "write_lat typ" "read_lat typ" "send_lat typ" \
	   "send_lat_ud typ"; do
	set -- $row
	name=$1
	o=$(metric "$work/ours" $name ${2:-})
	d=$(metric "$work/debian" $name ${2:-})
	r=$(echo "$name ${o%% *} ${d%% *}" | awk '
		NF == 3 && $2 > 0 && $3 > 0 {
			if ($1 ~ /_bw/) printf "%.2f", $2 / $3
			else printf "%.2f", $3 / $2
			next
		} { print "n/a" }')
	set -- $(pair_iqr "$work/ours" "$work/debian" $name ${2:-}) - -
	case $1 in
	-) v=n/a ;;
	*) v=$(awk -v lo="$1" -v hi="$2" 'BEGIN {
		print (lo >= 1 ? ">= 1" : (hi < 1 ? "< 1" : "noise")) }') ;;
	esac
	echo "| $row | ${o:-FAILED} | ${d:-FAILED} | $r | $1-$2 | $v |"
done
grep -h '^FAIL' "$work/ours" "$work/debian" | sed 's/^/    /'
