#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# 1024 simulated devices listed by ibv_devices through both discovery
# paths (RDMA netlink, and sysfs with --no-netlink), by each program given:
# our libibverbs and Debian's rdma-core 44. Every device must be listed
# once with its node GUID; the trace must show the path taken and, on
# netlink, a dump split over several datagrams.
#   many_devices.sh RDMA_SIM IBV_DEVICES...
set -eu
sim=$1
shift
N=1024
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

fail() {
	echo "many_devices: $*" >&2
	exit 1
}

# name and GUID of every device, as ibv_devices prints them (both libraries).
i=0
base=$((0x0c42a10300b3d0e0))
while [ $i -lt $N ]; do
	printf 'mlx5_%d %016x\n' $i $((base + i))
	i=$((i + 1))
done | sort >"$work/want"

for prog in "$@"; do
	for path in netlink sysfs; do
		opt=
		[ $path = sysfs ] && opt=--no-netlink
		rm -f "$work/trace"
		"$sim" --devices $N $opt --trace "$work/trace" -- "$prog" \
			>"$work/out" 2>"$work/err" ||
			fail "$prog ($path) failed: $(cat "$work/err")"
		awk '$1 ~ /^mlx5_/ { print $1, $2 }' "$work/out" | sort \
			>"$work/got"
		cmp -s "$work/want" "$work/got" ||
			fail "$prog ($path): $(wc -l <"$work/got") devices," \
				"not mlx5_0..mlx5_$((N - 1)) with their GUIDs"
		parts=$(grep -c 'netlink NLDEV_GET dump part' "$work/trace" || :)
		if [ $path = netlink ]; then
			[ "$parts" -gt 2 ] ||
				fail "$prog: dump of $N devices in $parts datagrams"
			! grep -q 'opendir /sys/class/infiniband_verbs ' \
				"$work/trace" || fail "$prog: sysfs scanned"
		else
			[ "$parts" -eq 0 ] &&
				grep -q 'opendir /sys/class/infiniband_verbs ' \
					"$work/trace" ||
				fail "$prog: no sysfs enumeration"
		fi
		echo "many_devices: $prog $path: $N devices"
	done
done
