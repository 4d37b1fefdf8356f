#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Side by side: side_bench built against rdma-dm and against Debian's
# rdma-core 44 (system libibverbs + libmlx5), under one rdma-sim per
# configuration, both libraries in the same process tree, the order
# rotated every round. Prints markdown: wall-clock medians and ratios,
# kernel calls per call (kcount.c: what the libraries ask of the kernel,
# not the simulator's own syscalls), library instructions per call
# (callgrind, the simulator's share subtracted). See README.md.
#
# usage: bench/compare/run.sh [BUILD_DIR] [ROUNDS]   (default build, 15)
# Run it under nice on a shared machine; wall-clock figures are noisy,
# instruction and call counts are exact.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-$here/../../build}" && pwd)
rounds=${2:-15}
sim="$build/bin/rdma-sim"
b="$build/bench"
for f in side_bench_ours_plain side_bench_ours_kc side_bench_deb_plain \
	side_bench_deb_kc; do
	[ -x "$b/$f" ] || { echo "missing $b/$f (build first)" >&2; exit 1; }
done
# 1024 devices are ~40,000 sysfs files: create them in memory if we can.
if [ -z "${TMPDIR:-}" ] && [ -w /dev/shm ]; then
	export TMPDIR=/dev/shm
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# name|simulator options|workload|calls per run (timing)|calls (callgrind)
configs="netlink16|--devices 16|devlist|200|20
netlink256|--devices 256|devlist|40|5
netlink1024|--devices 1024|devlist|12|3
sysfs256|--devices 256 --no-netlink|devlist|40|5
sysfs1024|--devices 1024 --no-netlink|devlist|12|3
dm|--devices 1|dm|400|200
open|--devices 1|open|200|20
copy|--devices 1|copy|21|0"

echo "# rdma-dm vs Debian's rdma-core 44 on rdma-sim"
echo
echo "$(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg), $rounds rounds"
echo

# One simulator per configuration; inside it, the rounds alternate order.
echo "$configs" | while IFS='|' read -r name opts mode n _; do
	# shellcheck disable=SC2086
	"$sim" $opts -- sh -c '
		b=$1 mode=$2 n=$3 rounds=$4 name=$5
		r=0
		while [ $r -lt $rounds ]; do
			if [ $((r % 2)) -eq 0 ]; then order="ours deb"
			else order="deb ours"; fi
			for lib in $order; do
				"$b/side_bench_${lib}_plain" $mode $n |
				awk -v c=$name -v l=$lib -v r=$r \
					"NF == 3 { print c, l, r, \$1, \$2 }"
			done
			r=$((r + 1))
		done' sh "$b" "$mode" "$n" "$rounds" "$name" >>"$work/times"
done

echo "## Wall clock (median over rounds of each run's median)"
echo
python3 "$here/summarize.py" "$work/times"
echo

echo "## Kernel calls per call (as a kernel would count them)"
echo
echo "| config | call | ours | rdma-core 44 | ours detail | rdma-core 44 detail |"
echo "|---|---|---:|---:|---|---|"
echo "$configs" | while IFS='|' read -r name opts mode n _; do
	[ "$mode" = copy ] && continue
	for lib in ours deb; do
		# shellcheck disable=SC2086
		"$sim" $opts -- "$b/side_bench_${lib}_kc" $mode 10 |
			awk '$1 ~ /\.kc$/' >"$work/kc.$lib"
	done
	awk 'NR == FNR { d[$1] = $0; next }
	{
		c = $1; o = $2; $1 = $2 = ""; od = $0; dv = "n/a"; dd = ""
		if (c in d) { split(d[c], f, " "); dv = f[2]
			dd = d[c]; sub(/^[^ ]+ [^ ]+/, "", dd) }
		sub(/\.kc$/, "", c)
		printf "| %s | %s | %s | %s |%s |%s |\n", n, c, o, dv, od, dd
	}' n="$name" "$work/kc.deb" "$work/kc.ours"
done
echo

command -v valgrind >/dev/null || { echo "(no valgrind: no instruction counts)"; exit 0; }
echo "## Library instructions per call (callgrind, simulator subtracted)"
echo
echo "| config | call | ours | rdma-core 44 | ours / 44 |"
echo "|---|---|---:|---:|---:|"
echo "$configs" | while IFS='|' read -r name opts mode _ n; do
	[ "$n" -gt 0 ] || continue
	case $mode in
	devlist) fns="bench_get_device_list+bench_free_device_list" ;;
	dm) fns="bench_alloc_dm bench_export_dm bench_free_dm" ;;
	open) fns="bench_open_device bench_close_device" ;;
	esac
	for fn in $fns; do
		for lib in ours deb; do
			toggles=$(echo "$fn" | sed 's/\([^+]*\)/--toggle-collect=\1/g; s/+/ /g')
			# shellcheck disable=SC2086
			"$sim" $opts -- valgrind --tool=callgrind \
				--callgrind-out-file="$work/cg.$lib" $toggles \
				"$b/side_bench_${lib}_plain" $mode "$n" \
				>/dev/null 2>&1 || :
			set -- $(python3 "$here/callgrind_lib.py" "$work/cg.$lib" \
				"$n" librdmasim)
			eval "ir_$lib=\$2"
		done
		if [ "$fn" != bench_export_dm ]; then
			ratio=$(echo "$ir_ours $ir_deb" | awk '{printf "%.2f", $1 / $2}')
		else
			ratio="n/a"; ir_deb="n/a"
		fi
		echo "| $name | ${fn%%+*} | $ir_ours | $ir_deb | $ratio |"
	done
done
