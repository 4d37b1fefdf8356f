#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# ibv_devices on rdma-sim: our libibverbs discovers the simulated devices
# (over netlink, or sysfs when netlink fails, as the trace shows), loads the in-tree mlx5
# plug-in and reports each device's DM capacity.
#   sim_devices.sh RDMA_SIM IBV_DEVICES LIBDIR
set -eu
sim=$1 prog=$2 libdir=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

fail() {
	echo "sim_devices: $*" >&2
	for f in "$work"/*; do echo "--- $f"; cat "$f"; done >&2
	exit 1
}

ldd "$prog" | grep -q "=> $libdir/libibverbs.so.1 " ||
	fail "$prog does not use $libdir/libibverbs.so.1"

# $1: extra simulator options; lists mlx5_0 with 131072 DM bytes.
run_one() {
	"$sim" $1 --trace "$work/trace" -- "$prog" >"$work/out" 2>"$work/err" ||
		fail "ibv_devices $1 failed"
	grep -Eq '^ +mlx5_0 +0c42a10300b3d0e0 +131072$' "$work/out" ||
		fail "ibv_devices $1: mlx5_0 with 131072 DM bytes not listed"
	[ "$(grep -c mlx5_ "$work/out")" -eq 1 ] || fail "expected one device"
}

# Netlink answers: the device and its char device come from there.
run_one ""
grep -q 'netlink NLDEV_GET dump' "$work/trace" &&
	grep -q 'netlink GET_CHARDEV' "$work/trace" ||
	fail "netlink discovery not used"
! grep -q 'opendir /sys/class/infiniband_verbs' "$work/trace" ||
	fail "sysfs scanned although netlink answered"

# No RDMA netlink: tried first, then the sysfs scan finds the same device.
run_one --no-netlink
nl=$(grep -n 'socket AF_NETLINK NETLINK_RDMA' "$work/trace" | head -1 | cut -d: -f1)
fs=$(grep -n 'opendir /sys/class/infiniband_verbs' "$work/trace" | head -1 | cut -d: -f1)
[ -n "$nl" ] && [ -n "$fs" ] && [ "$nl" -lt "$fs" ] ||
	fail "trace does not show netlink, then sysfs"

"$sim" --devices 2 --no-dm -- "$prog" >"$work/out2" 2>"$work/err2" ||
	fail "ibv_devices failed on two devices"
grep -Eq '^ +mlx5_0 +[0-9a-f]{16} +0$' "$work/out2" &&
	grep -Eq '^ +mlx5_1 +[0-9a-f]{16} +0$' "$work/out2" ||
	fail "two devices without DM not listed"
echo "sim_devices: ok"
