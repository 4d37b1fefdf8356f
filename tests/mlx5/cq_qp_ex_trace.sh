#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# What cq_qp_ex_test's verbs ask of the kernel, from rdma-sim's trace:
# completion timestamps as a CQ flag, the multicast-loopback block as QP
# flag 2, and no FLAGS attribute for CREATE_FLAGS without a flag.
SIM=$1
PROG=$2
fail() { echo "FAIL: $*" >&2; exit 1; }
trace=$(mktemp)
trap 'rm -f "$trace"' EXIT

"$SIM" --trace "$trace" -- "$PROG" >/dev/null || fail "cq_qp_ex_test failed"
grep -q 'CQ\.CQ_CREATE attrs={.*CREATE_CQ_FLAGS:len=4,flags=0x1,data=0x1 .*} -> 0' \
	"$trace" || fail "no CQ created with TIMESTAMP_COMPLETION"
grep -q 'QP\.QP_CREATE attrs={.*CREATE_QP_FLAGS:len=4,flags=0x1,data=0x2 .*} -> 0' \
	"$trace" || fail "no QP created with BLOCK_SELF_MCAST_LB"
! grep -q 'CREATE_QP_FLAGS:len=4,flags=0x1,data=0x0 ' "$trace" ||
	fail "a FLAGS attribute of 0 was sent"
echo "cq_qp_ex_trace: ok"
