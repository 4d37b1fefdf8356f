#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# RDMA WRITEs that land (hca_land_write.c): tests/sim/debian_land_write.c
# in each of its modes under rdma-sim with the engine's counters. The
# parent writes into its fork child; every mode must pass, and in every
# mode but die (the child is killed, its counters with it) the child must
# have had WRITEs placed by the parent's pass ("landed-writes"); in the
# long modes (stream, mixed) the parent's requester must have taken ACKs
# of them at once, not through its ring ("acks-at-once"). The
# library stack is the caller's (LD_LIBRARY_PATH: ours; unset: Debian's).
# Usage: land_write.sh SIM PROGRAM
SIM=$1
PROG=$2
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
# counter $1 summed over the processes' stats lines
count() {
	awk -v k="$1" '{ for (i = 1; i < NF; i++) if ($i == k)
		n += $(i + 1) } END { print n + 0 }' "$w/stats"
}

# yama (not on the CI VM's kernel) limits process_vm_writev: at 1 to a
# process's descendants (the child is the parent's), above to no one
yama=/proc/sys/kernel/yama/ptrace_scope
if [ -r $yama ] && [ "$(cat $yama)" -ge 2 ]; then
	echo "SKIP: yama ptrace_scope $(cat $yama): no process may write" \
		"into another, no WRITE can land"
	exit 77
fi
for mode in stream mixed badkey range die; do
	: >"$w/stats"
	RDMA_SIM_HCA_STATS="$w/stats" "$SIM" -- "$PROG" mlx5_0 $mode ||
		fail "$mode: the program failed"
	n=$(count landed-writes)
	a=$(count acks-at-once)
	echo "$mode: $n WRITE packets landed, $a ACKs taken at once"
	[ "$mode" = die ] || [ "$n" -gt 0 ] ||
		fail "$mode: no WRITE landed"
	case $mode in stream | mixed)
		[ "$a" -gt 0 ] || fail "$mode: no ACK taken at once" ;;
	esac
done
echo "PASS"
