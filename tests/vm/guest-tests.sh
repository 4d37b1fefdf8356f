#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Test payload run inside the lane VM once rxe0 exists. Every step prints
# "LANE-STEP <name> rc=<n>"; the conformance table goes between
# LANE-TABLE-BEGIN/END so the host can compare it with rdma-sim's.
. /etc/lane.conf
rc=0

# Facts of this kernel, for whoever reads the log.
echo "LANE-INFO uverbs abi $(cat /sys/class/infiniband_verbs/abi_version)," \
	"rxe0 abi $(cat /sys/class/infiniband_verbs/uverbs0/abi_version)," \
	"udmabuf $([ -e /dev/udmabuf ] && echo yes || echo no)"

step_end() { # name rc
	echo "LANE-STEP $1 rc=$2"
	[ "$2" = 0 ] || rc=1
}

for prog in $PROGRAMS; do
	case $prog in
	*/rdma-conformance)
		echo "LANE-TABLE-BEGIN"
		"$prog"
		r=$?
		echo "LANE-TABLE-END"
		step_end conformance $r
		;;
	esac
done

# Binary drop-in: Debian's unmodified ibv_devices / ibv_devinfo -v must print
# the same thing through our libibverbs + rxe provider as through Debian's.
ours=$BUILD_DIR/lib
if [ -e "$ours/libibverbs.so.1" ] && [ -e "$BUILD_DIR/etc/libibverbs.d/rxe.driver" ]; then
	for cmd in ibv_devices "ibv_devinfo -v"; do
		name=dropin-$(echo "$cmd" | tr -d ' -')
		$cmd > /tmp/ref.txt 2>&1
		LD_LIBRARY_PATH=$ours IBV_SHOW_WARNINGS=1 $cmd > /tmp/ours.txt 2>&1
		r=$?
		# The reference must itself show the device, or the diff proves
		# nothing; ibv_devinfo must also show port 1 up.
		grep -q rxe0 /tmp/ref.txt || r=98
		grep -q rxe0 /tmp/ours.txt || r=97
		case $cmd in
		ibv_devinfo*)
			grep -q 'PORT_ACTIVE' /tmp/ours.txt || r=95
			grep -qE '^[[:space:]]+port:[[:space:]]+1$' /tmp/ours.txt ||
				r=94
			;;
		esac
		diff -u /tmp/ref.txt /tmp/ours.txt || r=96
		echo "--- $cmd through our libibverbs:"
		cat /tmp/ours.txt
		step_end "$name" $r
	done
fi
# Pingpongs and perftest over rxe0 (guest-traffic.sh).
. /lane/traffic.sh
exit $rc
