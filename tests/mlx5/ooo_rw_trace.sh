#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# The HCA's QP context takes out-of-order READ/WRITE placement only from
# an accepted INIT->RTR: ooo_rw_test (PROG) brings two RC QPs up with it
# and is refused it five times, so the trace shows exactly two QPs with it.
# usage: ooo_rw_trace.sh RDMA_SIM PROG
trace=$(mktemp) || exit 1
"$1" --trace "$trace" -- "$2" >/dev/null
rc=$?
n=$(grep -c 'hca qp 0x[0-9a-f]* ooo_rw 1$' "$trace")
rm -f "$trace"
if [ "$rc" != 0 ] || [ "$n" != 2 ]; then
	echo "FAIL: ooo_rw_test exit $rc, $n QPs with ooo_rw (expected 2)" >&2
	exit 1
fi
echo "ooo_rw_trace: ok"
