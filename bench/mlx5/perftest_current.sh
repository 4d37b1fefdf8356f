#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# The current perftest against Debian's perftest 4.5, each on rdma-dm's
# libraries and on Debian's rdma-core 44, under the same rdma-sim in one
# run: ib_write_bw 64 KiB (MiB/s), ib_send_lat 2 B (average us), and
# --use_ib_dm_dmabuf write bandwidth on IB and on RoCE (only the current
# perftest built on rdma-dm has it). Runs go through
# tests/perftest/run-perftest-current.sh, one device; each configuration
# runs REPS times, interleaved, and the median is shown.
#
# usage: bench/mlx5/perftest_current.sh [BUILD_DIR] [REPS] [ITERS]
# Needs build/perftest-current/bin-{rdma-dm,debian} (the perftest-current
# ctest fixtures) and Debian's perftest package.
set -u
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-$here/../../build}" && pwd)
reps=${2:-3}
export PERFTEST_ITERS=${3:-1000}
tests=$here/../../tests/perftest
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cat > "$work/runs" <<'EOF'
write_bw		ib	ib_write_bw -s 65536
send_lat		ib	ib_send_lat -s 2
dm_write_bw		ib	ib_write_bw --use_ib_dm_dmabuf=@DEV@
dm_write_bw_roce	eth	ib_write_bw --use_ib_dm_dmabuf=@DEV@ -x 3
EOF
: > "$work/none"

# name: BINDIR and the libraries first on LD_LIBRARY_PATH (none: its own)
configs=(
	"current-rdma-dm:$build/perftest-current/bin-rdma-dm:"
	"current-debian:$build/perftest-current/bin-debian:"
	"4.5-rdma-dm:/usr/bin:$build/lib"
	"4.5-debian:/usr/bin:"
)
for i in $(seq "$reps"); do
	for c in "${configs[@]}"; do
		IFS=: read -r name bindir lib <<< "$c"
		PERFTEST_LIBPATH=$lib nice "$tests/run-perftest-current.sh" \
			"$build/bin/rdma-sim" 1 "$bindir" "$name" \
			"$work/runs" "$work/none" >> "$work/$name" 2>&1
	done
	# the next round starts with the next configuration
	configs=("${configs[@]:1}" "${configs[0]}")
done

# median of the bandwidth (column 4) or t_avg (column 6) over the reps
median() { # FILE RUN
	awk -v n="$2" '$1 == "ok" && $2 == n {
		sub(/^[^:]*:/, ""); split($0, f, " ")
		v[++k] = n ~ /_bw/ ? f[4] : f[6]
	} END {
		if (!k) { print "fails"; exit }
		for (i = 1; i <= k; i++)
			for (j = i + 1; j <= k; j++)
				if (v[j] + 0 < v[i] + 0) {
					t = v[i]; v[i] = v[j]; v[j] = t
				}
		print v[int((k + 1) / 2)]
	}' "$1"
}

echo "## current perftest vs perftest 4.5 on rdma-sim (1 device)"
echo
echo "median of $reps runs, -n $PERFTEST_ITERS; load $(cut -d' ' -f1-3 \
	/proc/loadavg)"
echo
echo "| run | current on rdma-dm | current on rdma-core 44 | 4.5 on rdma-dm | 4.5 on rdma-core 44 |"
echo "|---|---:|---:|---:|---:|"
for r in write_bw send_lat dm_write_bw dm_write_bw_roce; do
	unit="MiB/s"
	case $r in *_lat) unit="us avg" ;; esac
	row="| $r ($unit)"
	for c in current-rdma-dm current-debian 4.5-rdma-dm 4.5-debian; do
		row="$row | $(median "$work/$c" $r)"
	done
	echo "$row |"
done
