#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# SENDs that land (hca_land.c): a process and its fork child ping-pong
# 2000 checked messages (tests/sim/debian_land.c), under rdma-sim with the
# engine's counters; both processes must have had SENDs land, i.e. placed
# by the sender's pass (into the receiver's pinned pages: peer-copies),
# and every byte and completion must be right. Then
# a receiver that dies mid-way: the sender's next SEND completes with
# RETRY_EXC_ERR instead of hanging. With srq, PROGRAM is
# tests/sim/debian_land_srq.c: SENDs must land in QPs on an SRQ, and the
# last one, finding the SRQ empty, must have met an RNR NAK; then its
# drain alone ("limit"), where the parent's "landed" counts only the 17
# SENDs into its SRQ: the one crossing the limit goes by the ring, the
# first and the last (RNR) may go by it too, and an idle pass of the
# parent's engine withdraws its offer for a moment; 13 landed say that
# SENDs landed on both sides of the crossing (12 come before it). With
# rq, the same program's QPs with RQs of their own sharing one CQ. With ud,
# PROGRAM is tests/sim/debian_land_ud.c (hca_land_ud.c), the parent on
# mlx5_0 and the child on mlx5_1 (each GRH's SGID is its sender's):
# datagrams must land in both processes, and a run without landings (a
# --fault rule that never fires turns them off) must print the same
# receive completions and buffer sums, the wrong Q_Keys and the too long
# datagram included. The library stack is the caller's
# (LD_LIBRARY_PATH: ours; unset: Debian's).
# Usage: land.sh SIM PROGRAM [srq|rq|ud]
SIM=$1
PROG=$2
MODE=$3
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# yama (not on the CI VM's kernel) limits process_vm_writev: at 1 to a
# process's descendants (the parent's SENDs land, the child's go by the
# ring), above to no one
need=2
yama=/proc/sys/kernel/yama/ptrace_scope
if [ -r $yama ] && [ "$(cat $yama)" -ge 1 ]; then
	[ "$(cat $yama)" -ge 2 ] && {
		echo "SKIP: yama ptrace_scope $(cat $yama): no process may" \
			"write into another, no SEND can land"
		exit 77
	}
	echo "yama ptrace_scope 1: only the SENDs into the child can land"
	need=1
fi
# the program's arguments after the device: rq, or ud's second device
devs=
args=${MODE%srq}
if [ "$MODE" = ud ]; then
	devs="--devices 2"
	args=mlx5_1
fi
# shellcheck disable=SC2086 # none, or one word each
RDMA_SIM_HCA_STATS="$w/stats" "$SIM" $devs -- "$PROG" mlx5_0 $args \
	>"$w/on" || fail "the ping-pong failed"
cat "$w/stats"
[ "$(grep -c '^engine passes' "$w/stats")" -eq 2 ] ||
	fail "not two processes' counters"
# "... landed N": each process (with yama, one) had SENDs placed by its peer
awk -v need=$need '{ for (i = 1; i < NF; i++) if ($i == "landed")
		if ($(i + 1) > 0) got++ }
     END { exit got < need }' "$w/stats" || fail "a process had no SEND land"
# ... and its sender copied them into the receiver's pinned pages
# (sim/core/dma_pin.c), not through its address space
awk -v need=$need '{ for (i = 1; i < NF; i++) if ($i == "peer-copies")
		if ($(i + 1) > 0) got++ }
     END { exit got < need }' "$w/stats" ||
	fail "a sender wrote no SEND into its peer's pinned pages"
if [ "$MODE" = srq ]; then
	awk '{ for (i = 1; i < NF; i++) if ($i == "rnr-naks") n += $(i + 1) }
	     END { exit !(n > 0) }' "$w/stats" ||
		fail "the SEND into an empty SRQ met no RNR NAK"
	: >"$w/stats"
	RDMA_SIM_HCA_STATS="$w/stats" "$SIM" -- "$PROG" mlx5_0 limit ||
		fail "the drain of an SRQ with a limit failed"
	cat "$w/stats"
	# the parent's line is the last: it waits for its child
	if [ $need -eq 1 ]; then
		echo "yama ptrace_scope 1: no SEND lands in the parent's" \
			"SRQ, its drain ran on the ring only"
	else
		tail -n 1 "$w/stats" | awk '{ for (i = 1; i < NF; i++)
			if ($i == "landed") n = $(i + 1) }
			END { exit !(n >= 13) }' ||
			fail "fewer than 13 SENDs landed in the SRQ's drain"
	fi
fi
if [ "$MODE" = ud ]; then
	# shellcheck disable=SC2086
	"$SIM" $devs --fault drop:packet=999999999 -- "$PROG" mlx5_0 $args \
		>"$w/off" ||
		fail "the ping-pong without landings failed"
	sort "$w/on" >"$w/on.s"
	sort "$w/off" >"$w/off.s"
	[ "$(wc -l <"$w/on.s")" -eq 4001 ] ||
		fail "not 4001 receive completions printed"
	diff "$w/off.s" "$w/on.s" | head -20
	cmp -s "$w/off.s" "$w/on.s" ||
		fail "landed datagrams completed unlike the ring's"
fi
[ -n "$MODE" ] && { echo "PASS"; exit 0; }

: >"$w/stats"
RDMA_SIM_HCA_STATS="$w/stats" "$SIM" -- "$PROG" mlx5_0 die ||
	fail "a receiver that died: the sender did not see its SEND fail"
awk '{ for (i = 1; i < NF; i++) if ($i == "landed") n += $(i + 1) }
     END { exit !(n > 0) }' "$w/stats" ||
	fail "no SEND landed before the receiver died"
echo "PASS"
