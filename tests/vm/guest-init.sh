#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# /init of the lane VM: bring up soft-RoCE on a dummy netdev, run
# /lane/tests.sh, print the result line the host parses, power off.
. /etc/lane.conf
export PATH=/usr/sbin:/usr/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
# Debian kernels do not mount devtmpfs on their own.
mount -t devtmpfs devtmpfs /dev
# No tmpfs on /tmp: the rootfs is already RAM, and a build dir under /tmp
# must stay visible at its host path.

lane_fail() {
	echo "LANE-ERROR $*"
	echo "LANE-RESULT rc=99"
	poweroff -f
}

while read -r m; do
	insmod "/lib/modules/$KVER/$m" || lane_fail "insmod $m"
done < /etc/lane-modules
ip link set lo up
ip link add dummy0 type dummy 2>/dev/null
ip link set dummy0 up || lane_fail "dummy0 up"
rdma link add rxe0 type rxe netdev dummy0 || lane_fail "rdma link add rxe0"
# The uverbs node appears asynchronously in devtmpfs.
i=0
while [ ! -e /dev/infiniband/uverbs0 ] && [ $i -lt 100 ]; do
	sleep 0.05
	i=$((i + 1))
done
[ -e /dev/infiniband/uverbs0 ] || lane_fail "no /dev/infiniband/uverbs0"
echo "LANE-INFO kernel $(uname -r) rxe up at $(cut -d' ' -f1 /proc/uptime)s"

sh /lane/tests.sh
rc=$?
echo "LANE-INFO tests done at $(cut -d' ' -f1 /proc/uptime)s"
echo "LANE-RESULT rc=$rc"
poweroff -f
